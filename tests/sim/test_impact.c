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
/* Returns the largest relative error of a bounce's height ratio against
 * e^2 over both solvers and three bounces (each also reported above
 * rtol, with its solver and bounce). */
static double check_bounces(double e, double height, const char *options, double rtol) {
  double worst = 0;
  for (int s = 0; s < 2; s++) {
    lk_model *m = ball(e, height, kSolverNames[s], options);
    if (!m) return NAN;
    double apex[3];
    int n = apexes(m, apex, 3);
    LK_ASSERT_INT_EQ(n, 3);
    double prev = height;
    for (int k = 0; k < n; k++) {
      double ratio = apex[k] / prev;
      worst = fmax(worst, fabs(ratio / (e * e) - 1));
      LK_ASSERT_MSG(fabs(ratio / (e * e) - 1) < rtol,
                    "%s, e %g from %g m%s: bounce %d reaches %.6f of its drop, not e^2 = %g",
                    kSolverNames[s], e, height, options, k + 1, ratio, e * e);
      prev = apex[k];
    }
    lk_model_free(m);
  }
  return worst;
}

static void test_ball_e05_from_1m(void) {
  double worst = check_bounces(0.5, 1.0, "", 1e-3);
  LK_ASSERT_MSG(worst < 1e-3, "bounce heights off e^2 by %.3g", worst);
}
static void test_ball_e08_from_half_metre(void) {
  double worst = check_bounces(0.8, 0.5, "", 1e-3);
  LK_ASSERT_MSG(worst < 1e-3, "bounce heights off e^2 by %.3g", worst);
}
/* At five times the timestep (the ball moves 22 mm a step before the first
 * impact, covered by a 3 cm margin): within 0.5 % still (measured 0.1 %). */
static void test_ball_coarse_timestep(void) {
  double worst = check_bounces(0.5, 1.0, ", timestep: 0.005, contact_margin: 0.03", 5e-3);
  LK_ASSERT_MSG(worst < 5e-3, "bounce heights off e^2 by %.3g", worst);
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

/* Issue 31.5: impacts never add energy. A double pendulum (two 1 kg,
 * 0.5 m bars hinged at 1.2 m, as mechanisms/double_pendulum.yaml) falls
 * onto a floor with restitution e and friction mu_s/mu_d. Newton's
 * restitution with friction on a chain can return more kinetic energy than
 * the impact took (Kane and Levinson's rough double pendulum); measured
 * before the fix: +205.9 J in the first impact step here (e 0.5, mu
 * 0.4/0.3, released with both bars horizontal), +54.4 J in the variant.
 * Each impact step's change of total energy (kinetic + gravity, from
 * lk_energy_kinetic/_potential: not the step's own figure) must not be
 * positive, the step report must say the impact's work is not positive
 * and the restitution it used (below 1: the full e would have added
 * energy), and the frictionless impact keeps its full e. */
typedef struct {
  int loaded, impacts, cut, unstable;
  double gain;  /* the largest energy change of an impact step, J */
  double work;  /* the largest impact work a step reported, J */
} impact_run;

static impact_run pendulum_impacts(double q1, double q2, double e, double mus, double mud,
                                   const char *model) {
  impact_run run = {0, 0, 0, 0, -INFINITY, -INFINITY};
  char text[2000];
  snprintf(text, sizeof text,
           "options: {timestep: 0.0005, impacts: %s}\n"
           "materials:\n  - {name: m, mu_static: %g, mu_dynamic: %g, restitution: %g}\n"
           "world:\n  geoms:\n    - {type: plane, point: [0, 0, 0.25], material: m}\n"
           "links:\n  - name: upper\n    origin: {xyz: [0, 0, 1.2]}\n"
           "    joint: {name: shoulder, type: revolute, axis: [0, 1, 0]}\n    mass: 1.0\n"
           "    geoms:\n      - {type: capsule, radius: 0.015, half_length: 0.235, "
           "origin: {xyz: [0, 0, -0.25]}, material: m}\n"
           "  - name: lower\n    parent: upper\n    origin: {xyz: [0, 0, -0.5]}\n"
           "    joint: {name: elbow, type: revolute, axis: [0, 1, 0]}\n    mass: 1.0\n"
           "    geoms:\n      - {type: capsule, radius: 0.015, half_length: 0.235, "
           "origin: {xyz: [0, 0, -0.25]}, material: m}\n"
           "initial:\n  - {joint: shoulder, q: %g}\n  - {joint: elbow, q: %g}\n",
           model, mus, mud, e, q1, q2);
  lk_error err;
  lk_model *m = lk_model_load_string(text, strlen(text), "pendulum.yaml", NULL, &err);
  LK_ASSERT_MSG(m != NULL, "load: %s", err.message);
  if (!m) return run;
  run.loaded = 1;
  lk_data *d = lk_data_new(m);
  LK_ASSERT_OK(lk_forward_kinematics(m, d), (lk_error *)NULL);
  double T, V, E;
  lk_energy_kinetic(m, d, &T);
  lk_energy_potential(m, d, &V);
  E = T + V;
  for (int i = 0; i < 3000; i++) {
    LK_ASSERT_OK(lk_step(m, d), (lk_error *)NULL);
    lk_energy_kinetic(m, d, &T);
    lk_energy_potential(m, d, &V);
    const lk_step_report *r = lk_data_step_report(d);
    if (r->restitution_scale > 0 || r->impacts_propagated > 0) {
      run.impacts++;
      run.cut += r->restitution_scale > 0 && r->restitution_scale < 1;
      run.gain = fmax(run.gain, T + V - E);
      run.work = fmax(run.work, r->impact_work);
      run.unstable += r->unstable != 0;
    }
    E = T + V;
  }
  lk_data_free(d);
  lk_model_free(m);
  return run;
}

/* What every release asks of its impacts: some, none adding energy (by the
 * energies, and by the step's own impact work), none flagged unstable. */
#define ASSERT_IMPACTS_DISSIPATE(run)                                                      \
  do {                                                                                     \
    LK_ASSERT_MSG((run).impacts > 0, "no impact");                                         \
    LK_ASSERT_MSG((run).gain <= 0, "an impact step changed the energy by %+.6g J", (run).gain); \
    LK_ASSERT_MSG((run).work <= 0, "an impact step reported work %+.6g J", (run).work);   \
    LK_ASSERT_INT_EQ((run).unstable, 0);                                                   \
  } while (0)

static void test_pendulum_impacts(void) {
  impact_run run = pendulum_impacts(1.5708, 0, 0.5, 0.4, 0.3, "simultaneous");
  LK_ASSERT_INT_EQ(run.loaded, 1);
  ASSERT_IMPACTS_DISSIPATE(run);
  LK_ASSERT_MSG(run.cut > 0, "no impact needed its restitution cut");
}
/* Variant: released from 2.0 / -0.5 rad, e 0.7, mu 0.6/0.5; and the first
 * case without friction, whose impact keeps e (it lost 4.8 J). */
static void test_pendulum_impacts_variant(void) {
  impact_run run = pendulum_impacts(2.0, -0.5, 0.7, 0.6, 0.5, "simultaneous");
  LK_ASSERT_INT_EQ(run.loaded, 1);
  ASSERT_IMPACTS_DISSIPATE(run);
  LK_ASSERT_MSG(run.cut > 0, "no impact needed its restitution cut");
  impact_run smooth = pendulum_impacts(1.5708, 0, 0.5, 0, 0, "simultaneous");
  LK_ASSERT_INT_EQ(smooth.loaded, 1);
  ASSERT_IMPACTS_DISSIPATE(smooth);
  LK_ASSERT_INT_EQ(smooth.cut, 0);
}

/* Propagating impacts (options.impacts, test_cradle.c) on the same floor:
 * the ball's bounces at e^2 (a contact closing as the step begins takes
 * the simultaneous model's separating speed), the double pendulum's
 * impacts add no energy, at both releases, and, contact by contact and
 * frictionless, need no cut. */
static void test_propagating_bounces(void) {
  double worst = check_bounces(0.5, 1.0, ", impacts: propagating", 1e-3);
  LK_ASSERT_MSG(worst < 1e-3, "bounce heights off e^2 by %.3g", worst);
}
static void test_propagating_pendulum(void) {
  impact_run a = pendulum_impacts(1.5708, 0, 0.5, 0.4, 0.3, "propagating");
  impact_run b = pendulum_impacts(2.0, -0.5, 0.7, 0.6, 0.5, "propagating");
  LK_ASSERT_INT_EQ(a.loaded + b.loaded, 2);
  ASSERT_IMPACTS_DISSIPATE(a);
  ASSERT_IMPACTS_DISSIPATE(b);
  LK_ASSERT_INT_EQ(a.cut + b.cut, 0);
}

/* A box dropped corner first (tilted about x and y, spinning)
 * from 0.3 m with e 0.6, mu 0.5: no impact step gains energy. */
static void test_box_impacts(void) {
  const char *text =
      "materials:\n  - {name: m, mu_static: 0.5, mu_dynamic: 0.5, restitution: 0.6}\n"
      "world:\n  geoms:\n    - {type: plane, material: m}\n"
      "links:\n  - name: box\n    joint: {type: free}\n    mass: 1\n"
      "    geoms:\n      - {type: box, half_extents: [0.1, 0.05, 0.03], material: m}\n"
      "initial:\n  - {joint: box, q: [0, 0, 0.4, 0.984093, 0.148564, 0.098712, -0.014874], "
      "v: [0.5, 0, 0, 0, 3, 0]}\n";
  lk_error err;
  lk_model *m = lk_model_load_string(text, strlen(text), "box.yaml", NULL, &err);
  LK_ASSERT_MSG(m != NULL, "load: %s", err.message);
  if (!m) return;
  lk_data *d = lk_data_new(m);
  LK_ASSERT_OK(lk_forward_kinematics(m, d), (lk_error *)NULL);
  double T, V, E;
  lk_energy_kinetic(m, d, &T);
  lk_energy_potential(m, d, &V);
  E = T + V;
  int impacts = 0;
  for (int i = 0; i < 2000; i++) {
    LK_ASSERT_OK(lk_step(m, d), (lk_error *)NULL);
    lk_energy_kinetic(m, d, &T);
    lk_energy_potential(m, d, &V);
    const lk_step_report *r = lk_data_step_report(d);
    if (r->restitution_scale > 0) {
      impacts++;
      LK_ASSERT_MSG(T + V - E <= 0, "t = %g s: an impact changed the energy by %+.6g J", lk_data_time(d),
                    T + V - E);
    }
    E = T + V;
  }
  LK_ASSERT_MSG(impacts > 1, "%d impacts", impacts);
  lk_data_free(d);
  lk_model_free(m);
}

static const lk_test tests[] = {
    {"ball e 0.5 from 1 m: three bounces at e^2 of their drop", test_ball_e05_from_1m},
    {"variant: e 0.8 from 0.5 m", test_ball_e08_from_half_metre},
    {"variant: e 0.5 from 1 m at h = 5 ms", test_ball_coarse_timestep},
    {"no normal force: the rebound is e v", test_wall_rebound_is_e_v},
    {"double pendulum on a rough floor: no impact adds energy", test_pendulum_impacts},
    {"variant: other release, e and mu; frictionless keeps e", test_pendulum_impacts_variant},
    {"a tumbling box's bounces add no energy", test_box_impacts},
    {"propagating impacts: the ball bounces at e^2", test_propagating_bounces},
    {"propagating impacts: the double pendulum's add no energy", test_propagating_pendulum},
    {NULL, NULL},
};

void lk_test_register(void) { lk_test_suite("impacts", tests); }
