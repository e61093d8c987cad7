/* Smoothed Coulomb friction (options.friction_law = smoothed; lib/sim/
 * smoothed.c): the IPC mollifier f1 with eps_v, the normal force lagged,
 * fixed-point iterations inside the step.
 *
 * Closed forms for a 1 kg block (four corner contacts, mu 0.5) whose
 * tangential load T stays below mu N: with f1 the block cannot stick, it
 * creeps at the speed where mu N f1(s) = T, s = eps_v (1 - sqrt(1 - T/(mu N))),
 * which vanishes with eps_v: the complementarity answer (no motion) is the
 * limit. Above mu N it slides as Coulomb's law says, a = (T - mu N)/m. */
#include <stdlib.h>
#include <string.h>

#include "../sim/scenes.h"
#include "harness.h"
#include "linkage/linkage.h"

static lk_model *block(double theta, double eps, lk_friction_law law) {
  scene_opts so = scene_defaults();
  so.mu_static = so.mu_dynamic = 0.5;
  so.gravity = scene_incline_gravity(theta);
  lk_model *m = scene_block(&so);
  lk_options o = *lk_model_options(m);
  o.friction_law = law;
  o.friction_eps_v = eps;
  CU_ASSERT_EQUAL(lk_model_set_options(m, &o, NULL), LK_OK);
  return m;
}

/* Every contact: |f_t| <= mu f_n, and f_t against the slip. */
static int check_law(const lk_data *d, double mu) {
  int bad = 0;
  for (int i = 0; i < lk_data_ncontacts(d); i++) {
    const lk_contact_report *c = lk_data_contact_report(d, i);
    double ft = lk_v3_norm(c->ft), s = lk_v3_norm(c->slip);
    if (ft > mu * c->fn * (1 + 1e-9) + 1e-12) {
      if (getenv("LK_VERBOSE")) fprintf(stderr, "bound %g > %g\n", ft, mu * c->fn);
      bad++;
    }
    if (s > 0 && ft > 0) {
      double cosang = lk_v3_dot(c->ft, c->slip) / (ft * s);
      if (cosang > -1 + 1e-9) {
        if (getenv("LK_VERBOSE")) fprintf(stderr, "angle %g (s %g ft %g)\n", 1 + cosang, s, ft);
        bad++;
      }
    }
  }
  return bad;
}

/* Down-slope speed after 0.5 s on an incline below the friction angle. */
static double creep(double theta, double eps, int *bad) {
  lk_model *m = block(theta, eps, LK_FRICTION_SMOOTHED);
  lk_data *d = lk_data_new(m);
  for (int i = 0; i < 500; i++) {
    CU_ASSERT_EQUAL_FATAL(lk_step(m, d), LK_OK);
    *bad += check_law(d, 0.5);
  }
  double v = lk_data_v(d)[0];
  lk_data_free(d);
  lk_model_free(m);
  return v;
}

static void test_incline_threshold(void) {
  const double theta = atan(0.4); /* tan 0.4 < mu 0.5: Coulomb sticks */
  const double rho = 0.4 / 0.5;
  int bad = 0;
  double eps[3] = {1e-2, 1e-3, 1e-4};
  for (int k = 0; k < 3; k++) {
    double v = creep(theta, eps[k], &bad);
    LK_ASSERT_REL(v, eps[k] * (1 - sqrt(1 - rho)), 0.02, 0);
  }
  CU_ASSERT_EQUAL(bad, 0);
  /* The complementarity law holds it exactly. */
  lk_model *m = block(theta, 1e-3, LK_FRICTION_COMPLEMENTARITY);
  lk_data *d = lk_data_new(m);
  for (int i = 0; i < 500; i++) CU_ASSERT_EQUAL_FATAL(lk_step(m, d), LK_OK);
  LK_ASSERT_NEAR(lk_data_v(d)[0], 0, 1e-9);
  lk_data_free(d);
  lk_model_free(m);
}

/* Above the friction angle the smoothed law slides as Coulomb does:
 * a = g (sin theta - mu cos theta), whatever eps_v. */
static void test_incline_slides(void) {
  const double theta = 30 * M_PI / 180, a = 9.81 * (sin(theta) - 0.5 * cos(theta));
  double eps[2] = {1e-2, 1e-4};
  for (int k = 0; k < 2; k++) {
    lk_model *m = block(theta, eps[k], LK_FRICTION_SMOOTHED);
    lk_data *d = lk_data_new(m);
    int bad = 0;
    double v1 = 0;
    for (int i = 1; i <= 600; i++) {
      CU_ASSERT_EQUAL_FATAL(lk_step(m, d), LK_OK);
      bad += check_law(d, 0.5);
      if (i == 100) v1 = lk_data_v(d)[0];
    }
    LK_ASSERT_REL((lk_data_v(d)[0] - v1) / 0.5, a, 1e-3, 0);
    CU_ASSERT_EQUAL(bad, 0);
    lk_data_free(d);
    lk_model_free(m);
  }
}

/* A push on flat ground, at 30 degrees to x so that the slip is not along
 * a row: below mu m g it creeps at eps_v (1 - sqrt(1 - P/(mu m g))) along
 * the push; above it accelerates at (P - mu m g)/m; the friction opposes
 * the slip throughout. */
static void push(double P, double eps, double *speed, double *acc, int *bad) {
  lk_model *m = block(0, eps, LK_FRICTION_SMOOTHED);
  lk_data *d = lk_data_new(m);
  int link = lk_model_link_index(m, "block");
  lk_vec3 dir = lk_v3(cos(M_PI / 6), sin(M_PI / 6), 0);
  double v1 = 0;
  /* Through the centre, along the line it moves on (loads persist). */
  lk_data_apply_force(d, link, lk_v3(0, 0, 0.05), lk_v3_scale(dir, P));
  for (int i = 1; i <= 600; i++) {
    CU_ASSERT_EQUAL_FATAL(lk_step(m, d), LK_OK);
    *bad += check_law(d, 0.5);
    if (i == 100) v1 = lk_v3_dot(lk_v3_from(lk_data_v(d)), dir);
  }
  double v = lk_v3_dot(lk_v3_from(lk_data_v(d)), dir);
  *speed = v;
  *acc = (v - v1) / 0.5;
  lk_data_free(d);
  lk_model_free(m);
}

static void test_push_threshold(void) {
  const double W = 9.81 * 0.5; /* mu m g */
  int bad = 0;
  double s, a;
  double eps[2] = {1e-2, 1e-4};
  for (int k = 0; k < 2; k++) {
    push(0.8 * W, eps[k], &s, &a, &bad);
    LK_ASSERT_REL(s, eps[k] * (1 - sqrt(1 - 0.8)), 0.02, 0);
    push(1.2 * W, eps[k], &s, &a, &bad);
    LK_ASSERT_REL(a, 0.2 * W, 2e-3, 0);
  }
  CU_ASSERT_EQUAL(bad, 0);
}

void lk_test_register(void) {
  static const lk_test tests[] = {{"incline: creep vanishes with eps_v", test_incline_threshold},
                                  {"incline: slides as Coulomb above mu", test_incline_slides},
                                  {"push threshold, friction against the slip", test_push_threshold},
                                  {NULL, NULL}};
  lk_test_suite("smoothed friction", tests);
}
