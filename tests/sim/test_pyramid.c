/* The pyramid cone's static -> dynamic switch (issue 14, item 2): a contact
 * that slips is dynamic whatever the cone. A plate launched along a
 * direction between the pyramid's edges has its friction on a facet of the
 * polygon, short of mu f_n; it must still switch to mu_dynamic, so that it
 * decelerates between cos(pi / n) mu_d g (mid-facet) and mu_d g (on an
 * edge), never at the static coefficient. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "linkage/linkage.h"

#define DEG (LK_PI / 180.0)

static const char *kSolverNames[2] = {"lemke", "dantzig"};

/* A 1 kg plate, 20 x 20 x 2 cm, set on the floor, launched at `speed`
 * along `angle` from x; runs `t` seconds; returns the mean deceleration
 * (speed lost / t) and the contacts' states at the end. */
static double deceleration(int edges, double mu_s, double mu_d, double angle, double speed,
                           double t, const char *solver, int *dynamic, int *ncontacts) {
  char text[1536];
  snprintf(text, sizeof text,
           "options: {solver: %s, friction_cone: pyramid, cone_edges: %d}\n"
           "materials:\n  - {name: m, mu_static: %.17g, mu_dynamic: %.17g}\n"
           "world:\n  geoms:\n    - {type: plane, material: m}\n"
           "links:\n  - name: plate\n    joint: {type: free}\n    mass: 1\n"
           "    inertia: [0.0033666666666666667, 0.0033666666666666667, 0.0066666666666666671, 0, 0, 0]\n"
           "    geoms:\n      - {type: box, half_extents: [0.1, 0.1, 0.01], material: m}\n"
           "initial:\n  - {joint: plate, q: [0, 0, 0.01, 1, 0, 0, 0], v: [%.17g, %.17g, 0, 0, 0, 0]}\n",
           solver, edges, mu_s, mu_d, speed * cos(angle), speed * sin(angle));
  lk_error err;
  lk_model *m = lk_model_load_string(text, strlen(text), "plate.yaml", NULL, &err);
  LK_ASSERT_MSG(m != NULL, "load: %s", err.message);
  if (!m) return NAN;
  lk_data *d = lk_data_new(m);
  int n = (int)lround(t / lk_model_options(m)->timestep);
  for (int i = 0; i < n; i++) {
    lk_status st = lk_step(m, d);
    LK_ASSERT_MSG(st == LK_OK, "step %d: %s", i, lk_strerror(st));
    if (st) break;
  }
  const double *v = lk_data_v(d);
  double a = (speed - hypot(v[0], v[1])) / t;
  *ncontacts = lk_data_ncontacts(d);
  *dynamic = 0;
  /* (an unloaded corner has no friction to switch: it counts as slipping
   * by its load's law, whatever its state) */
  for (int i = 0; i < *ncontacts; i++) {
    const lk_contact_report *c = lk_data_contact_report(d, i);
    if (c->state == LK_FRICTION_DYNAMIC || !(c->fn > 1e-9)) (*dynamic)++;
  }
  lk_data_free(d);
  lk_model_free(m);
  return a;
}

/* The deceleration along the slip, cos(pi / n) mu_d g when the slip is
 * mid-facet (maximal dissipation puts the force on that facet), mu_d g
 * along an edge, by both solvers: each in [cos(pi/n), 1] mu_d g and every
 * loaded contact dynamic (asserted here); returns the worst relative
 * difference from `expect`. */
static double decel_error(int edges, double mu_s, double mu_d, double angle_deg, double speed,
                          double t, double expect) {
  double worst = 0;
  for (int s = 0; s < 2; s++) {
    int dyn = 0, nc = 0;
    double a = deceleration(edges, mu_s, mu_d, angle_deg * DEG, speed, t, kSolverNames[s], &dyn,
                            &nc);
    double lo = cos(LK_PI / edges) * mu_d * 9.81, hi = mu_d * 9.81;
    LK_ASSERT_MSG(a >= lo * (1 - 1e-3) && a <= hi * (1 + 1e-3),
                  "%s, %d edges at %g deg: decelerates at %.5f = %.4f mu_d g, not in [cos(pi/%d), 1]",
                  kSolverNames[s], edges, angle_deg, a, a / hi, edges);
    LK_ASSERT_MSG(nc == 4 && dyn == nc, "%s, %d edges at %g deg: %d of %d loaded contacts dynamic",
                  kSolverNames[s], edges, angle_deg, dyn, nc);
    worst = isfinite(a) ? fmax(worst, fabs(a / expect - 1)) : INFINITY;
  }
  return worst;
}

/* Issue 14's plate: 8 edges, mu_s 0.5, mu_d 0.4, 22.5 deg off x (mid-facet). */
static void test_8_edges_mid_facet(void) {
  double e = decel_error(8, 0.5, 0.4, 22.5, 2.0, 0.3, cos(LK_PI / 8) * 0.4 * 9.81);
  LK_ASSERT_MSG(e <= 1e-3, "cos(pi/8) mu_d g to %.3g", e);
}
/* 4 edges at 45 deg (mid-facet: the static law gave (mu_s/mu_d) cos 45). */
static void test_4_edges_at_45(void) {
  double e = decel_error(4, 0.5, 0.4, 45, 2.0, 0.3, cos(LK_PI / 4) * 0.4 * 9.81);
  LK_ASSERT_MSG(e <= 1e-3, "cos(pi/4) mu_d g to %.3g", e);
}
/* Other numbers: 12 edges, mu_s 0.9, mu_d 0.3, 15 deg (mid-facet), 3 m/s;
 * and along an edge (30 deg), where the bound is reached exactly. (The
 * pyramid's first edge lies along the contact's first tangent, x or y:
 * cones of 4, 8, 12 edges look the same from both.) */
static void test_other_numbers(void) {
  double mid = decel_error(12, 0.9, 0.3, 15, 3.0, 0.5, cos(LK_PI / 12) * 0.3 * 9.81);
  double edge = decel_error(12, 0.9, 0.3, 30, 3.0, 0.5, 0.3 * 9.81);
  LK_ASSERT_MSG(mid <= 1e-3, "mid-facet: cos(pi/12) mu_d g to %.3g", mid);
  LK_ASSERT_MSG(edge <= 1e-3, "on an edge: mu_d g to %.3g", edge);
}

static const lk_test tests[] = {
    {"8-edge pyramid, 22.5 deg off x: slides with mu_d", test_8_edges_mid_facet},
    {"4-edge pyramid at 45 deg: slides with mu_d", test_4_edges_at_45},
    {"variant: 12 edges, mu_s 0.9 / mu_d 0.3, mid-facet and on an edge", test_other_numbers},
    {NULL, NULL},
};

void lk_test_register(void) { lk_test_suite("pyramid cone", tests); }
