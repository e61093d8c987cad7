/* Impacts (issue 14, item 3): a ball dropped on the floor bounces to e^2
 * of its drop height, bounce after bounce, at the default timestep. The
 * margin finds the contact before the ball reaches the floor, and the
 * restitution target keeps e^2 of the normal motion's energy from the
 * surface (lib/constraint/contact.c), so the bounce neither starts from
 * below the floor (the ball sank up to v h before a contact existed: 1 %
 * low on the first bounce, 4 % on the third) nor from the gap at which
 * the step caught it. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "linkage/linkage.h"

static const char *kSolverNames[2] = {"lemke", "dantzig"};

/* A 1 kg sphere of radius 0.05 whose lowest point is `height` above the
 * floor, restitution e for both materials (mixed: e). */
static lk_model *ball(double e, double height, const char *solver, const char *options) {
  char text[1024];
  snprintf(text, sizeof text,
           "options: {solver: %s%s}\n"
           "materials:\n  - {name: rubber, mu_static: 0.5, mu_dynamic: 0.5, restitution: %.17g}\n"
           "world:\n  geoms:\n    - {type: plane, material: rubber}\n"
           "links:\n  - name: ball\n    joint: {type: free}\n    mass: 1\n"
           "    geoms:\n      - {type: sphere, radius: 0.05, material: rubber}\n"
           "initial:\n  - {joint: ball, q: [0, 0, %.17g, 1, 0, 0, 0]}\n",
           solver, options, e, height + 0.05);
  lk_error err;
  lk_model *m = lk_model_load_string(text, strlen(text), "ball.yaml", NULL, &err);
  LK_ASSERT_MSG(m != NULL, "load: %s", err.message);
  return m;
}

/* The apex heights (lowest point above the floor) of the first n bounces. */
static int apexes(const lk_model *m, double *apex, int n) {
  lk_data *d = lk_data_new(m);
  int got = 0, up = 0;
  double peak = 0;
  for (int i = 0; i < 20000 && got < n; i++) {
    lk_status st = lk_step(m, d);
    LK_ASSERT_MSG(st == LK_OK, "step %d: %s", i, lk_strerror(st));
    if (st) break;
    double z = lk_data_q(d)[2] - 0.05, vz = lk_data_v(d)[2];
    if (vz > 0) {
      up = 1;
      peak = fmax(peak, z);
    } else if (up) {
      apex[got++] = peak;
      peak = 0;
      up = 0;
    }
  }
  lk_data_free(d);
  return got;
}

/* Each of the first three bounces reaches e^2 of the one before within
 * 1e-3 (the issue asks 0.5 %; measured 5e-5 at h = 1 ms). */
static void check_bounces(double e, double height, const char *options, double rtol) {
  for (int s = 0; s < 2; s++) {
    lk_model *m = ball(e, height, kSolverNames[s], options);
    if (!m) return;
    double apex[3];
    int n = apexes(m, apex, 3);
    LK_ASSERT_INT_EQ(n, 3);
    double prev = height;
    for (int k = 0; k < n; k++) {
      double ratio = apex[k] / prev;
      LK_ASSERT_MSG(fabs(ratio / (e * e) - 1) < rtol,
                    "%s, e %g from %g m%s: bounce %d reaches %.6f of its drop, not e^2 = %g",
                    kSolverNames[s], e, height, options, k + 1, ratio, e * e);
      prev = apex[k];
    }
    lk_model_free(m);
  }
}

static void test_ball_e05_from_1m(void) { check_bounces(0.5, 1.0, "", 1e-3); }
static void test_ball_e08_from_half_metre(void) { check_bounces(0.8, 0.5, "", 1e-3); }
/* At five times the timestep (the ball moves 22 mm a step before the first
 * impact, covered by a 3 cm margin): within 0.5 % still (measured 0.1 %). */
static void test_ball_coarse_timestep(void) {
  check_bounces(0.5, 1.0, ", timestep: 0.005, contact_margin: 0.03", 5e-3);
}

/* Newton's law itself where no force acts along the normal: a ball thrown
 * sideways at a wall, without gravity, leaves at e times its speed. */
static void test_wall_rebound_is_e_v(void) {
  const char *text =
      "options: {gravity: [0, 0, 0]}\n"
      "materials:\n  - {name: rubber, mu_static: 0, mu_dynamic: 0, restitution: 0.6}\n"
      "world:\n  geoms:\n    - {type: plane, normal: [-1, 0, 0], point: [1, 0, 0], material: rubber}\n"
      "links:\n  - name: ball\n    joint: {type: free}\n    mass: 1\n"
      "    geoms:\n      - {type: sphere, radius: 0.05, material: rubber}\n"
      "initial:\n  - {joint: ball, q: [0.5, 0, 0, 1, 0, 0, 0], v: [3, 0, 0, 0, 0, 0]}\n";
  lk_error err;
  lk_model *m = lk_model_load_string(text, strlen(text), "wall.yaml", NULL, &err);
  LK_ASSERT_MSG(m != NULL, "load: %s", err.message);
  if (!m) return;
  lk_data *d = lk_data_new(m);
  for (int i = 0; i < 400; i++) LK_ASSERT_OK(lk_step(m, d), (lk_error *)NULL);
  LK_ASSERT_NEAR(lk_data_v(d)[0], -1.8, 1e-12);
  lk_data_free(d);
  lk_model_free(m);
}

static const lk_test tests[] = {
    {"ball e 0.5 from 1 m: three bounces at e^2 of their drop", test_ball_e05_from_1m},
    {"variant: e 0.8 from 0.5 m", test_ball_e08_from_half_metre},
    {"variant: e 0.5 from 1 m at h = 5 ms", test_ball_coarse_timestep},
    {"no normal force: the rebound is e v", test_wall_rebound_is_e_v},
    {NULL, NULL},
};

void lk_test_register(void) { lk_test_suite("impacts", tests); }
