/* Position servos taken implicitly in the Euler step (issue 14.7), and the
 * step report's instability flag for a run whose energy grows without
 * input. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "linkage/linkage.h"

static lk_model *load(const char *text) {
  lk_error e;
  lk_model *m = lk_model_load_string(text, strlen(text), "servo.yaml", NULL, &e);
  if (!m) lk_test_fail(__LINE__, __FILE__, "%s", e.message);
  return m;
}

/* A forearm and a light hand on an elbow and a wrist, both about z with
 * gravity along -z (so the servos hold no gravity torque and reach their
 * targets exactly), position servos on both. The wrist's inertia about
 * its axis is 2e-4 + 0.2 0.04^2 = 5.2e-4 kg m^2: explicitly, kv h / I =
 * 5 0.001 / 5.2e-4 = 9.6 > 2, a servo that chatters. */
static lk_model *arm(double kp1, double kv1, double kp2, double kv2, double h) {
  char text[2048];
  snprintf(text, sizeof text,
           "options: {timestep: %.17g, gravity: [0, 0, -9.81]}\n"
           "links:\n"
           "  - name: forearm\n"
           "    joint: {name: elbow, type: revolute, axis: [0, 0, 1]}\n"
           "    mass: 1.0\n"
           "    com: [0.15, 0, 0]\n"
           "    inertia: [0.001, 0.0085, 0.0085]\n"
           "  - name: hand\n"
           "    parent: forearm\n"
           "    origin: {xyz: [0.3, 0, 0]}\n"
           "    joint: {name: wrist, type: revolute, axis: [0, 0, 1]}\n"
           "    mass: 0.2\n"
           "    com: [0.04, 0, 0]\n"
           "    inertia: [0.0001, 0.0002, 0.0002]\n"
           "actuators:\n"
           "  - {joint: elbow, type: position, kp: %.17g, kv: %.17g, target: 0.5, max_effort: 500}\n"
           "  - {joint: wrist, type: position, kp: %.17g, kv: %.17g, target: -0.3, max_effort: 500}\n",
           h, kp1, kv1, kp2, kv2);
  return load(text);
}

/* The run converges to the targets and is never reported unstable;
 * returns the largest speed at which the wrist's velocity changed sign
 * between two steps (the chatter: the explicit servo alternated -9.9,
 * +10.0 rad/s). */
static double run_arm(double kp1, double kv1, double kp2, double kv2, double h, double duration) {
  lk_model *m = arm(kp1, kv1, kp2, kv2, h);
  if (!m) return NAN;
  lk_data *d = lk_data_new(m);
  double vprev = 0, worst_flip = 0;
  int n = (int)lround(duration / h), unstable = 0;
  for (int k = 0; k < n; k++) {
    LK_ASSERT_OK(lk_step(m, d), (lk_error *)NULL);
    double v = lk_data_v(d)[1];
    if (v * vprev < 0) worst_flip = fmax(worst_flip, fmin(fabs(v), fabs(vprev)));
    vprev = v;
    unstable += lk_data_step_report(d)->unstable;
  }
  LK_ASSERT_NEAR(lk_data_q(d)[0], 0.5, 1e-6);
  LK_ASSERT_NEAR(lk_data_q(d)[1], -0.3, 1e-6);
  LK_ASSERT_NEAR(lk_data_v(d)[1], 0, 1e-6);
  CU_ASSERT_EQUAL(unstable, 0);
  lk_data_free(d);
  lk_model_free(m);
  return worst_flip;
}

/* No chatter: two consecutive wrist velocities of opposite signs are both
 * small. */
static void test_arm_gains_of_the_issue(void) {
  double flip = run_arm(200, 10, 100, 5, 0.001, 3);
  LK_ASSERT_MSG(flip < 0.05, "wrist velocity alternates sign at %g rad/s", flip);
}
static void test_arm_other_gains(void) {
  double flip = run_arm(400, 20, 50, 2, 0.002, 4);
  LK_ASSERT_MSG(flip < 0.05, "wrist velocity alternates sign at %g rad/s", flip);
}

/* One link of inertia I about its hinge axis z (no gravity torque), a
 * position servo: one step is backward Euler on the servo,
 *   (I + h kv + h^2 kp)(v1 - v0) = h (kp (t - q0) - kv v0 - h kp v0),
 *   q1 = q0 + h v1,
 * and the force it reports is kp (t - q1) - kv v1. Gains far beyond the
 * explicit limit (kp h^2 / I = 50, kv h / I = 10) lose energy every step. */
static void test_one_step_is_backward_euler(void) {
  const double I = 0.001 + 0.5 * 0.1 * 0.1, h = 0.01, kp = 30, kv = 0.01 * 100;
  const double tgt = 0.25, q0 = -0.4, v0 = 1.5;
  char text[1024];
  snprintf(text, sizeof text,
           "options: {timestep: %.17g, gravity: [0, 0, -9.81]}\n"
           "links:\n"
           "  - name: rotor\n"
           "    joint: {name: hinge, type: revolute, axis: [0, 0, 1]}\n"
           "    mass: 0.5\n"
           "    com: [0.1, 0, 0]\n"
           "    inertia: [0.001, 0.001, 0.001]\n"
           "actuators:\n"
           "  - {joint: hinge, type: position, kp: %.17g, kv: %.17g, target: %.17g}\n"
           "initial:\n"
           "  - {joint: hinge, q: %.17g, v: %.17g}\n",
           h, kp, kv, tgt, q0, v0);
  lk_model *m = load(text);
  if (!m) return;
  lk_data *d = lk_data_new(m);
  LK_ASSERT_OK(lk_step(m, d), (lk_error *)NULL);
  double v1 = v0 + h * (kp * (tgt - q0) - kv * v0 - h * kp * v0) / (I + h * kv + h * h * kp);
  double q1 = q0 + h * v1;
  LK_ASSERT_NEAR(lk_data_v(d)[0], v1, 1e-13);
  LK_ASSERT_NEAR(lk_data_q(d)[0], q1, 1e-14);
  LK_ASSERT_NEAR(lk_data_actuator_force(d, 0), kp * (tgt - q1) - kv * v1, 1e-12);
  /* kp h^2 / I = 0.49 / 0.006 = 0.5: take stiffer gains through --set's
   * equivalent, a second model: kp 3000, kv 6 (kp h^2 / I = 50). */
  lk_data_free(d);
  lk_model_free(m);
  snprintf(text, sizeof text,
           "options: {timestep: %.17g, gravity: [0, 0, -9.81]}\n"
           "links:\n"
           "  - name: rotor\n"
           "    joint: {name: hinge, type: revolute, axis: [0, 0, 1]}\n"
           "    mass: 0.5\n"
           "    com: [0.1, 0, 0]\n"
           "    inertia: [0.001, 0.001, 0.001]\n"
           "actuators:\n"
           "  - {joint: hinge, type: position, kp: 3000, kv: 6, target: %.17g}\n"
           "initial:\n"
           "  - {joint: hinge, q: %.17g, v: %.17g}\n",
           h, tgt, q0, v0);
  m = load(text);
  if (!m) return;
  d = lk_data_new(m);
  double e = 0.5 * I * v0 * v0 + 0.5 * 3000 * (tgt - q0) * (tgt - q0);
  int grew = 0;
  for (int k = 0; k < 300; k++) {
    LK_ASSERT_OK(lk_step(m, d), (lk_error *)NULL);
    double q = lk_data_q(d)[0], v = lk_data_v(d)[0];
    double e1 = 0.5 * I * v * v + 0.5 * 3000 * (tgt - q) * (tgt - q);
    grew += e1 > e * (1 + 1e-12);
    e = e1;
  }
  CU_ASSERT_EQUAL(grew, 0);
  LK_ASSERT_NEAR(lk_data_q(d)[0], tgt, 1e-9);
  lk_data_free(d);
  lk_model_free(m);
}

/* A joint spring is explicit in the step: 1e4 N m/rad on 1.1e-3 kg m^2
 * (omega = 3015 rad/s) at h = 1 ms, h omega = 3 > 2, so semi-implicit
 * Euler diverges. Nothing puts energy in, and the report says unstable
 * within a few steps of the start; the same spring at h = 0.1 ms
 * (h omega = 0.3) oscillates for 1 s and is never flagged. */
static void test_energy_growth_is_reported(void) {
  const double hs[2] = {1e-3, 1e-4};
  for (int c = 0; c < 2; c++) {
    char text[1024];
    snprintf(text, sizeof text,
             "options: {timestep: %.17g, gravity: [0, 0, -9.81]}\n"
             "links:\n"
             "  - name: rotor\n"
             "    joint: {name: hinge, type: revolute, axis: [0, 0, 1], stiffness: 1.0e4}\n"
             "    mass: 0.1\n"
             "    com: [0.1, 0, 0]\n"
             "    inertia: [0.0001, 0.0001, 0.0001]\n"
             "initial:\n"
             "  - {joint: hinge, q: 0.01}\n",
             hs[c]);
    lk_model *m = load(text);
    if (!m) return;
    lk_data *d = lk_data_new(m);
    int first = -1, n = (int)lround(1.0 / hs[c]);
    for (int k = 0; k < n && first < 0; k++) {
      lk_status st = lk_step(m, d);
      if (st) break; /* a diverging run may overflow: flagged before that */
      if (lk_data_step_report(d)->unstable) first = k;
    }
    if (c == 0) {
      LK_ASSERT_MSG(first >= 0 && first < 40, "flagged at step %d", first);
      if (first >= 0) CU_ASSERT(lk_data_step_report(d)->energy_growth > 0);
    } else {
      LK_ASSERT_MSG(first < 0, "a stable oscillation flagged at step %d", first);
    }
    lk_data_free(d);
    lk_model_free(m);
  }
}

void lk_test_register(void) {
  static const lk_test tests[] = {
      {"arm kp 200/kv 10, 100/5 at 1 ms: no chatter, converges", test_arm_gains_of_the_issue},
      {"arm kp 400/kv 20, 50/2 at 2 ms: the same", test_arm_other_gains},
      {"one step is backward Euler on the servo", test_one_step_is_backward_euler},
      {"energy growth without input is reported", test_energy_growth_is_reported},
      {NULL, NULL}};
  lk_test_suite("implicit servos", tests);
}
