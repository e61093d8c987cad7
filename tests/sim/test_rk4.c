/* integrator: rk4 where no constraint acts (issue 14.4): it runs on models
 * whose geoms can never meet, and when a constraint arises mid-run the
 * step is refused with the contact (or joint) and the time in the report.
 * Models written as a user would, in YAML. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "linkage/linkage.h"

static lk_model *load(const char *text) {
  lk_error e;
  lk_model *m = lk_model_load_string(text, strlen(text), "rk4.yaml", NULL, &e);
  if (!m) lk_test_fail(__LINE__, __FILE__, "%s", e.message);
  return m;
}

static double energy(const lk_model *m, lk_data *d) {
  double t = 0, v = 0;
  lk_energy_kinetic(m, d, &t);
  lk_energy_potential(m, d, &v);
  return t + v;
}

/* Two bars (1 kg, capsule geoms) hinged end to end, released horizontal:
 * each link's capsule overlaps its neighbour's at the hinge, but parent
 * and child never collide and there is nothing else to touch. With
 * `geoms` 0 the same bars without geoms (mass and inertia given). */
static char *double_pendulum(char *buf, size_t n, double l1, double l2, int geoms) {
  char g1[160] = "", g2[160] = "";
  if (geoms) {
    snprintf(g1, sizeof g1,
             "    geoms:\n      - {type: capsule, radius: 0.02, half_length: %.17g, origin: {xyz: [0, "
             "0, %.17g]}}\n",
             0.5 * l1, -0.5 * l1);
    snprintf(g2, sizeof g2,
             "    geoms:\n      - {type: box, half_extents: [0.02, 0.02, %.17g], origin: {xyz: [0, 0, "
             "%.17g]}}\n",
             0.5 * l2, -0.5 * l2);
  }
  snprintf(buf, n,
           "options: {timestep: 0.001, integrator: rk4}\n"
           "links:\n"
           "  - name: upper\n"
           "    origin: {xyz: [0, 0, 2]}\n"
           "    joint: {name: shoulder, type: revolute, axis: [0, 1, 0]}\n"
           "    mass: 1\n"
           "    com: [0, 0, %.17g]\n"
           "    inertia: [0.02, 0.02, 0.001]\n"
           "%s"
           "  - name: lower\n"
           "    parent: upper\n"
           "    origin: {xyz: [0, 0, %.17g]}\n"
           "    joint: {name: elbow, type: revolute, axis: [0, 1, 0]}\n"
           "    mass: 0.6\n"
           "    com: [0, 0, %.17g]\n"
           "    inertia: [0.01, 0.01, 0.0005]\n"
           "%s"
           "initial:\n"
           "  - {joint: shoulder, q: 1.5708}\n"
           "  - {joint: elbow, q: -1}\n",
           -0.5 * l1, g1, -l1, -0.5 * l2, g2);
  return buf;
}

/* RK4 runs the pendulum with its geoms (it refused: "unsupported"), the
 * motion is the one without geoms to the bit, and energy is conserved to
 * RK4's accuracy (at h = 1 ms over 2 s, 1e-7 of the energy scale). */
/* Returns the energy drift over 2 s as a share of the energy scale. */
static double run_pendulum(double l1, double l2) {
  char text[2048];
  lk_model *m = load(double_pendulum(text, sizeof text, l1, l2, 1));
  lk_model *bare = load(double_pendulum(text, sizeof text, l1, l2, 0));
  if (!m || !bare) return INFINITY;
  CU_ASSERT_EQUAL(lk_model_ngeom(m), 2);
  lk_data *d = lk_data_new(m), *e = lk_data_new(bare);
  double e0 = energy(m, d), worst = 0;
  double scale = fabs(e0) + 1;
  for (int n = 0; n < 2000; n++) {
    lk_status st = lk_step(m, d);
    if (st) {
      lk_test_fail(__LINE__, __FILE__, "step %d: %s: %s", n, lk_strerror(st),
                   lk_data_step_report(d)->message);
      break;
    }
    LK_ASSERT_OK(lk_step(bare, e), (lk_error *)NULL);
    worst = fmax(worst, fabs(energy(m, d) - e0));
  }
  LK_ASSERT_NEAR(lk_data_time(d), 2.0, 1e-9);
  CU_ASSERT(memcmp(lk_data_q(d), lk_data_q(e), 2 * sizeof(double)) == 0);
  CU_ASSERT(memcmp(lk_data_v(d), lk_data_v(e), 2 * sizeof(double)) == 0);
  /* It moved: the elbow swung through more than a radian. */
  LK_ASSERT_MSG(fabs(lk_data_q(d)[1] + 1) > 0.1, "no motion");
  lk_data_free(d);
  lk_data_free(e);
  lk_model_free(m);
  lk_model_free(bare);
  return worst / scale;
}

static void test_double_pendulum_runs(void) {
  double drift = run_pendulum(0.5, 0.5);
  LK_ASSERT_MSG(drift <= 1e-7, "energy drift %g of the scale", drift);
}
static void test_double_pendulum_runs_other_lengths(void) {
  double drift = run_pendulum(0.8, 0.35);
  LK_ASSERT_MSG(drift <= 1e-7, "energy drift %g of the scale", drift);
}

/* The number after `key` in s (NAN when absent). */
static double number_after(const char *s, const char *key) {
  const char *p = strstr(s, key);
  return p ? strtod(p + strlen(key), NULL) : NAN;
}

/* Two free spheres (r 0.1) 1 m apart closing at 4.5 m/s without gravity:
 * the gap of 0.8 m closes at t = 0.8/4.5 = 0.1778 s, so the step starting
 * at 0.178 s is the first whose start has them touching. It is refused
 * (LK_UNSUPPORTED), its report naming both geoms and that time, and the
 * data is left at t = 0.178. */
static void test_contact_mid_run_is_named(void) {
  lk_model *m = load(
      "options: {timestep: 0.001, integrator: rk4, gravity: [0, 0, 0]}\n"
      "links:\n"
      "  - name: left\n"
      "    joint: {name: lj, type: free}\n"
      "    mass: 1\n"
      "    geoms: [{name: left_ball, type: sphere, radius: 0.1}]\n"
      "  - name: right\n"
      "    origin: {xyz: [1, 0, 0]}\n"
      "    joint: {name: rj, type: free}\n"
      "    mass: 1\n"
      "    geoms: [{name: right_ball, type: sphere, radius: 0.1}]\n"
      "initial:\n"
      "  - {joint: lj, v: [2, 0, 0, 0, 0, 0]}\n"
      "  - {joint: rj, v: [-2.5, 0, 0, 0, 0, 0]}\n");
  if (!m) return;
  lk_data *d = lk_data_new(m);
  int n = 0;
  lk_status st = LK_OK;
  for (; n < 1000 && !st; n++) st = lk_step(m, d);
  CU_ASSERT_EQUAL(st, LK_UNSUPPORTED);
  CU_ASSERT_EQUAL(n, 179); /* 178 steps made, the 179th refused */
  LK_ASSERT_NEAR(lk_data_time(d), 0.178, 1e-12);
  const lk_step_report *r = lk_data_step_report(d);
  CU_ASSERT_EQUAL(r->status, LK_UNSUPPORTED);
  LK_ASSERT_MSG(strstr(r->message, "'right_ball'") && strstr(r->message, "'left_ball'"),
                "message: %s", r->message);
  LK_ASSERT_NEAR(number_after(r->message, "t = "), 0.178, 1e-12);
  /* Refused steps change nothing: it stays refused at the same time. */
  double q0 = lk_data_q(d)[0];
  CU_ASSERT_EQUAL(lk_step(m, d), LK_UNSUPPORTED);
  CU_ASSERT(lk_data_q(d)[0] == q0);
  LK_ASSERT_NEAR(lk_data_time(d), 0.178, 1e-12);
  lk_data_free(d);
  lk_model_free(m);
}

/* A ball (r 0.1) dropped from 0.6 m onto the floor: RK4 is exact for the
 * constant acceleration, the ball touches at sqrt(2 0.5 / 9.81) = 0.3193 s,
 * and the step at 0.320 s is refused naming the ball and the floor. */
static void test_ball_reaches_the_floor(void) {
  lk_model *m = load(
      "options: {timestep: 0.001, integrator: rk4, gravity: [0, 0, -9.81]}\n"
      "world:\n"
      "  geoms: [{name: floor, type: plane}]\n"
      "links:\n"
      "  - name: ball\n"
      "    origin: {xyz: [0, 0, 0.6]}\n"
      "    joint: {type: free}\n"
      "    mass: 1\n"
      "    geoms: [{type: sphere, radius: 0.1}]\n");
  if (!m) return;
  lk_data *d = lk_data_new(m);
  lk_status st = LK_OK;
  for (int n = 0; n < 1000 && !st; n++) st = lk_step(m, d);
  CU_ASSERT_EQUAL(st, LK_UNSUPPORTED);
  LK_ASSERT_NEAR(lk_data_time(d), 0.320, 1e-12);
  /* The fall g 0.32^2 / 2 below the joint frame (0.6 m up) to rounding:
   * the state RK4 reached. */
  LK_ASSERT_NEAR(lk_data_q(d)[2], -0.5 * 9.81 * 0.32 * 0.32, 1e-12);
  const char *why = lk_data_step_report(d)->message;
  LK_ASSERT_MSG(strstr(why, "'floor'") && strstr(why, "'ball#0'") && strstr(why, "link 'ball'"),
                "message: %s", why);
  LK_ASSERT_NEAR(number_after(why, "t = "), 0.32, 1e-12);
  if (getenv("LK_VERBOSE")) printf("%s\n", why);
  lk_data_free(d);
  lk_model_free(m);
}

/* A hinge turning at 1 rad/s without gravity reaches its upper limit 0.2505
 * at t = 0.2505 s: the step at 0.251 s is refused naming the joint. */
static void test_limit_mid_run_is_named(void) {
  lk_model *m = load(
      "options: {timestep: 0.001, integrator: rk4, gravity: [0, 0, 0]}\n"
      "links:\n"
      "  - name: arm\n"
      "    joint: {name: hinge, type: revolute, axis: [0, 0, 1], limit: [-1, 0.2505]}\n"
      "    mass: 1\n"
      "    inertia: [0.1, 0.1, 0.1]\n"
      "initial:\n"
      "  - {joint: hinge, v: 1}\n");
  if (!m) return;
  lk_data *d = lk_data_new(m);
  lk_status st = LK_OK;
  for (int n = 0; n < 1000 && !st; n++) st = lk_step(m, d);
  CU_ASSERT_EQUAL(st, LK_UNSUPPORTED);
  LK_ASSERT_NEAR(lk_data_time(d), 0.251, 1e-12);
  const char *why = lk_data_step_report(d)->message;
  LK_ASSERT_MSG(strstr(why, "'hinge'") && strstr(why, "upper limit"), "message: %s", why);
  LK_ASSERT_NEAR(number_after(why, "t = "), 0.251, 1e-12);
  lk_data_free(d);
  lk_model_free(m);
}

/* An element that always acts (joint dry friction) is refused at the
 * first step, naming it. */
static void test_always_acting_element_is_named(void) {
  lk_model *m = load(
      "options: {integrator: rk4}\n"
      "links:\n"
      "  - name: arm\n"
      "    joint: {name: hinge, type: revolute, axis: [0, 1, 0], friction: 0.2}\n"
      "    mass: 1\n"
      "    com: [0, 0, -0.3]\n"
      "    inertia: [0.1, 0.1, 0.1]\n");
  if (!m) return;
  lk_data *d = lk_data_new(m);
  CU_ASSERT_EQUAL(lk_step(m, d), LK_UNSUPPORTED);
  const char *why = lk_data_step_report(d)->message;
  LK_ASSERT_MSG(strstr(why, "'hinge'") && strstr(why, "dry friction"), "message: %s", why);
  LK_ASSERT_NEAR(lk_data_time(d), 0, 0);
  lk_data_free(d);
  lk_model_free(m);
}

void lk_test_register(void) {
  static const lk_test tests[] = {
      {"double pendulum with a geom a link runs", test_double_pendulum_runs},
      {"same, other lengths and shapes", test_double_pendulum_runs_other_lengths},
      {"two spheres meeting: geoms and time named", test_contact_mid_run_is_named},
      {"a ball reaching the floor: geoms and time named", test_ball_reaches_the_floor},
      {"a joint reaching its limit: joint and time named", test_limit_mid_run_is_named},
      {"dry friction refused at the start, named", test_always_acting_element_is_named},
      {NULL, NULL}};
  lk_test_suite("integrator rk4", tests);
}
