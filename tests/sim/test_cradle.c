/* Newton's cradle (issue 31.6): a ball striking a row of touching balls.
 * The textbook answer, equal elastic balls, is that the impact passes
 * through the row and only the last ball leaves, at the striker's speed:
 * that is the propagating impact model (options.impacts: propagating,
 * lib/sim/impact.c). The default, simultaneous model solves every contact
 * of the step in one LCP, the striker's contact with its restitution
 * target and the touching ones plastic, and its answer is in closed form
 * too: with n balls of mass m, striker speed v, the struck n - 1 move
 * together at 2 v / n and the striker rebounds at v (2 - n) / n (from
 * momentum, m v = m v1 + (n - 1) m w, and Newton's law on the first
 * contact, w - v1 = v): (-1/3, 2/3, 2/3) for three balls. Both models
 * conserve momentum; with e = 1 the propagating one conserves energy. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "linkage/linkage.h"

/* n balls of radius r and mass mass in a row along x, touching, no gravity,
 * frictionless, restitution e; the first `moving` balls move at v. */
static lk_model *cradle(int n, double r, double mass, double e, int moving, double v,
                        const char *impacts) {
  char text[8192];
  int k = snprintf(text, sizeof text,
                   "options: {gravity: [0, 0, 0], impacts: %s}\n"
                   "materials:\n  - {name: steel, mu_static: 0, mu_dynamic: 0, restitution: %.17g}\n"
                   "links:\n",
                   impacts, e);
  for (int i = 0; i < n; i++)
    k += snprintf(text + k, sizeof text - (size_t)k,
                  "  - {name: b%d, joint: {type: free}, mass: %.17g, "
                  "geoms: [{type: sphere, radius: %.17g, material: steel}]}\n",
                  i, mass, r);
  k += snprintf(text + k, sizeof text - (size_t)k, "initial:\n");
  for (int i = 0; i < n; i++)
    k += snprintf(text + k, sizeof text - (size_t)k,
                  "  - {joint: b%d, q: [%.17g, 0, 1, 1, 0, 0, 0], v: [%.17g, 0, 0, 0, 0, 0]}\n", i,
                  2 * r * i, i < moving ? v : 0.0);
  lk_error err;
  lk_model *m = lk_model_load_string(text, strlen(text), "cradle.yaml", NULL, &err);
  LK_ASSERT_MSG(m != NULL, "load: %s", err.message);
  return m;
}

/* What 20 steps of a cradle did: each ball's x velocity, the relative
 * change of momentum and of kinetic energy, and the impacts the step
 * reports said were passed contact to contact. */
typedef struct {
  int ok; /* loaded, and every step ran */
  double v[5], dp, dt;
  int impacts;
} cradle_run;

static cradle_run run(int n, double r, double mass, double v, int moving, const char *impacts) {
  cradle_run c = {0, {0}, INFINITY, INFINITY, 0};
  if (n > 5) return c; /* (c.v's room) */
  lk_model *m = cradle(n, r, mass, 1.0, moving, v, impacts);
  if (!m) return c;
  lk_data *d = lk_data_new(m);
  double p0 = 0, t0 = 0;
  for (int i = 0; i < n; i++) {
    double vx = lk_data_v(d)[6 * i];
    p0 += mass * vx;
    t0 += 0.5 * mass * vx * vx;
  }
  c.ok = 1;
  for (int s = 0; s < 20 && c.ok; s++) {
    c.ok = lk_step(m, d) == LK_OK;
    c.impacts += lk_data_step_report(d)->impacts_propagated;
  }
  double p = 0, t = 0;
  for (int i = 0; i < n; i++) {
    double vx = lk_data_v(d)[6 * i];
    p += mass * vx;
    t += 0.5 * mass * vx * vx;
    c.v[i] = vx;
  }
  c.dp = fabs(p - p0) / fabs(p0);
  c.dt = fabs(t - t0) / t0;
  lk_data_free(d);
  lk_model_free(m);
  return c;
}

/* Each ball's velocity is want[] to 1e-9, momentum is kept to 1e-12; the
 * propagating model keeps the kinetic energy to 1e-9 and reports at least
 * n - 1 impacts passed on, the simultaneous one none. */
#define ASSERT_CRADLE(c, n, want, propagating)                                             \
  do {                                                                                     \
    LK_ASSERT_INT_EQ((c).ok, 1);                                                           \
    for (int i_ = 0; i_ < (n); i_++)                                                       \
      LK_ASSERT_MSG(fabs((c).v[i_] - (want)[i_]) < 1e-9, "ball %d of %d: v %.12g, want %.12g", \
                    i_ + 1, (n), (c).v[i_], (want)[i_]);                                   \
    LK_ASSERT_MSG((c).dp < 1e-12, "momentum changed by %.3g of itself", (c).dp);           \
    if (propagating) {                                                                     \
      LK_ASSERT_MSG((c).dt < 1e-9, "energy changed by %.3g of itself", (c).dt);            \
      LK_ASSERT_MSG((c).impacts >= (n) - 1, "%d impacts reported", (c).impacts);           \
    } else {                                                                               \
      LK_ASSERT_INT_EQ((c).impacts, 0);                                                    \
    }                                                                                      \
  } while (0)

/* Three touching 0.1 kg balls, the first at 1 m/s: propagating gives
 * (0, 0, 1), the default (simultaneous) (-1/3, 2/3, 2/3). */
static void test_three_balls(void) {
  const double prop[3] = {0, 0, 1}, simul[3] = {-1.0 / 3, 2.0 / 3, 2.0 / 3};
  cradle_run a = run(3, 0.05, 0.1, 1.0, 1, "propagating");
  ASSERT_CRADLE(a, 3, prop, 1);
  cradle_run b = run(3, 0.05, 0.1, 1.0, 1, "simultaneous");
  ASSERT_CRADLE(b, 3, simul, 0);
}

/* Variant: five 0.2 kg balls of radius 0.02 m, the first at 0.7 m/s:
 * (0, 0, 0, 0, 0.7) propagating, (-0.42, 0.28 x 4) simultaneous. */
static void test_five_balls(void) {
  const double prop[5] = {0, 0, 0, 0, 0.7};
  const double simul[5] = {-0.6 * 0.7, 0.4 * 0.7, 0.4 * 0.7, 0.4 * 0.7, 0.4 * 0.7};
  cradle_run a = run(5, 0.02, 0.2, 0.7, 1, "propagating");
  ASSERT_CRADLE(a, 5, prop, 1);
  cradle_run b = run(5, 0.02, 0.2, 0.7, 1, "simultaneous");
  ASSERT_CRADLE(b, 5, simul, 0);
}

/* Two balls released together into five: two leave (0, 0, 0, v, v). */
static void test_two_strikers(void) {
  const double prop[5] = {0, 0, 0, 0.5, 0.5};
  cradle_run a = run(5, 0.03, 0.15, 0.5, 2, "propagating");
  ASSERT_CRADLE(a, 5, prop, 1);
}

/* Balls with 3 cm gaps collide one pair at a time under either model: both
 * give the textbook answer. */
static void test_gaps_agree(void) {
  for (int k = 0; k < 2; k++) {
    const char *impacts = k ? "propagating" : "simultaneous";
    char text[2048];
    snprintf(text, sizeof text,
             "options: {gravity: [0, 0, 0], impacts: %s}\n"
             "materials:\n  - {name: steel, mu_static: 0, mu_dynamic: 0, restitution: 1}\n"
             "links:\n"
             "  - {name: a, joint: {type: free}, mass: 0.1, geoms: [{type: sphere, radius: 0.05, material: steel}]}\n"
             "  - {name: b, joint: {type: free}, mass: 0.1, geoms: [{type: sphere, radius: 0.05, material: steel}]}\n"
             "  - {name: c, joint: {type: free}, mass: 0.1, geoms: [{type: sphere, radius: 0.05, material: steel}]}\n"
             "initial:\n"
             "  - {joint: a, q: [0, 0, 1, 1, 0, 0, 0], v: [1, 0, 0, 0, 0, 0]}\n"
             "  - {joint: b, q: [0.13, 0, 1, 1, 0, 0, 0]}\n"
             "  - {joint: c, q: [0.26, 0, 1, 1, 0, 0, 0]}\n",
             impacts);
    lk_error err;
    lk_model *m = lk_model_load_string(text, strlen(text), "gaps.yaml", NULL, &err);
    LK_ASSERT_MSG(m != NULL, "load: %s", err.message);
    if (!m) return;
    lk_data *d = lk_data_new(m);
    for (int s = 0; s < 200; s++) LK_ASSERT_OK(lk_step(m, d), (lk_error *)NULL);
    const double *v = lk_data_v(d);
    LK_ASSERT_MSG(fabs(v[0]) < 1e-12 && fabs(v[6]) < 1e-12 && fabs(v[12] - 1) < 1e-12,
                  "%s: (%.12g, %.12g, %.12g)", impacts, v[0], v[6], v[12]);
    lk_data_free(d);
    lk_model_free(m);
  }
}

/* A name the option does not know is refused, naming the choices. */
static void test_unknown_model_refused(void) {
  const char *text = "options: {impacts: sequential}\nlinks:\n  - {name: a, mass: 1}\n";
  lk_error err;
  lk_model *m = lk_model_load_string(text, strlen(text), "bad.yaml", NULL, &err);
  LK_ASSERT_MSG(m == NULL, "loaded");
  if (m) lk_model_free(m);
  LK_ASSERT_MSG(strstr(err.message, "propagating") != NULL, "message: %s", err.message);
}

static const lk_test tests[] = {
    {"three touching balls: (0, 0, 1) propagating, (-1/3, 2/3, 2/3) simultaneous", test_three_balls},
    {"variant: five balls, other mass, radius and speed", test_five_balls},
    {"two strikers into five: two leave", test_two_strikers},
    {"balls with gaps: both models give the textbook answer", test_gaps_agree},
    {"impacts: an unknown model is refused", test_unknown_model_refused},
    {NULL, NULL},
};

void lk_test_register(void) { lk_test_suite("cradle", tests); }
