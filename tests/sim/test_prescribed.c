/* Prescribed motion (issue 31.8): actuators of type prescribed_position and
 * prescribed_velocity move their joint exactly on the schedule whatever
 * the load, and report the force it takes. Closed forms: a conveyor belt
 * carrying a box dropped on it at rest (the box slides at mu_d g until it
 * has the belt's speed, v / (mu_d g) later, then is carried; meanwhile the
 * belt's drive pushes mu_d m g), a press following a piecewise-linear
 * path (m g on its straight stretches), a turntable held at its speed
 * against a torque, a drive whose force is bounded stalling. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "linkage/linkage.h"

static lk_model *load(const char *text) {
  lk_error err;
  lk_model *m = lk_model_load_string(text, strlen(text), "prescribed.yaml", NULL, &err);
  LK_ASSERT_MSG(m != NULL, "load: %s", err.message);
  return m;
}

/* A belt (a prismatic link, 10 kg) driven at speed v under a box of 1 kg,
 * rubber on rubber (mu 0.6 / mu_d), the box dropped on it at rest. While
 * the box slides (t < t_match = v / (mu_d g)) the drive pushes mu_d m g;
 * from t_match on the box is carried at v and the drive pushes nothing.
 * The worst of each figure over the run: */
typedef struct {
  int ok;               /* loaded and stepped without an error */
  double belt;          /* |belt speed - v| */
  double match;         /* |t when the box reached v - t_match| / h */
  double sliding_force; /* |drive force - mu_d m g| / (m g) while sliding */
  double carried_slip;  /* |box speed - v| once carried */
  double carried_force; /* |drive force| once carried, N */
} conveyor_run;

static conveyor_run conveyor(double v, double mud, double box_mass) {
  conveyor_run out = {0, 0, INFINITY, 0, 0, 0};
  char text[2048];
  snprintf(text, sizeof text,
           "materials:\n  - {name: rubber, mu_static: 0.6, mu_dynamic: %.17g}\n"
           "links:\n"
           "  - name: belt\n    joint: {name: drive, type: prismatic, axis: [1, 0, 0]}\n"
           "    mass: 10\n    geoms:\n"
           "      - {type: box, half_extents: [2, 0.3, 0.01], origin: {xyz: [0, 0, -0.01]}, "
           "material: rubber}\n"
           "  - name: box\n    joint: {type: free}\n    mass: %.17g\n    geoms:\n"
           "      - {type: box, half_extents: [0.05, 0.05, 0.05], material: rubber}\n"
           "actuators:\n  - {joint: drive, type: prescribed_velocity, target: %.17g}\n"
           "initial:\n  - {joint: box, q: [0, 0, 0.05, 1, 0, 0, 0]}\n",
           mud, box_mass, v);
  lk_model *m = load(text);
  if (!m) return out;
  lk_data *d = lk_data_new(m);
  const double h = lk_model_options(m)->timestep, g = 9.81;
  const double t_match = v / (mud * g);
  int drive = lk_model_actuator_index(m, "drive");
  double matched = -1;
  int n = (int)ceil((t_match + 0.3) / h), bad = drive < 0;
  for (int i = 0; i < n && !bad; i++) {
    bad = lk_step(m, d) != LK_OK;
    const double *vel = lk_data_v(d);
    double t = lk_data_time(d), belt = vel[0], box = vel[1];
    out.belt = fmax(out.belt, fabs(belt - v));
    double f = lk_data_actuator_force(d, drive);
    if (t > 0.02 && t < t_match - 2 * h)
      out.sliding_force = fmax(out.sliding_force, fabs(f - mud * box_mass * g) / (box_mass * g));
    if (matched < 0 && fabs(box - v) < 1e-9) matched = t;
    if (t > t_match + 2 * h) {
      out.carried_slip = fmax(out.carried_slip, fabs(box - v));
      out.carried_force = fmax(out.carried_force, fabs(f));
    }
  }
  out.ok = !bad;
  if (matched >= 0) out.match = fabs(matched - t_match) / h;
  lk_data_free(d);
  lk_model_free(m);
  return out;
}

/* The closed form, claim by claim; the first one the run broke goes to `why`. */
static int belt_as_closed_form(conveyor_run r, char *why, size_t n) {
  if (!r.ok) snprintf(why, n, "the run failed");
  else if (!(r.belt < 1e-9)) snprintf(why, n, "the belt strayed from its speed by %.3g m/s", r.belt);
  else if (!(r.sliding_force < 1e-6))
    snprintf(why, n, "sliding: the drive off mu_d m g by %.3g m g", r.sliding_force);
  else if (!(r.match <= 2)) snprintf(why, n, "box at belt speed %.3g steps off t_match", r.match);
  else if (!(r.carried_slip < 1e-9))
    snprintf(why, n, "carried: box off the belt's speed by %.3g m/s", r.carried_slip);
  else if (!(r.carried_force < 1e-6)) snprintf(why, n, "carried: drive %.3g N", r.carried_force);
  else return 1;
  return 0;
}

static void test_conveyor(void) {
  char why[120];
  LK_ASSERT_MSG(belt_as_closed_form(conveyor(0.5, 0.5, 1.0), why, sizeof why), "%s", why);
}
static void test_conveyor_variant(void) {
  char why[120];
  LK_ASSERT_MSG(belt_as_closed_form(conveyor(1.2, 0.35, 3.0), why, sizeof why), "%s", why);
}

/* A 2 kg press on a vertical slider follows the path 0 -> 0.2 m in 0.5 s,
 * -> 0.1 m at 1 s: on the path at every step's end, pushing m g on the
 * straight stretches. */
static void test_press_on_path(void) {
  const char *text =
      "links:\n  - name: ram\n    joint: {name: slide, type: prismatic, axis: [0, 0, 1]}\n"
      "    mass: 2\n    inertia: [0.01, 0.01, 0.01, 0, 0, 0]\n"
      "actuators:\n  - {joint: slide, type: prescribed_position, "
      "schedule: [[0, 0], [0.5, 0.2], [1.0, 0.1]]}\n";
  lk_model *m = load(text);
  if (!m) return;
  lk_data *d = lk_data_new(m);
  double worst = 0;
  for (int i = 0; i < 1200; i++) {
    LK_ASSERT_OK(lk_step(m, d), (lk_error *)NULL);
    double t = lk_data_time(d), q = lk_data_q(d)[0];
    double want = t <= 0.5 ? 0.4 * t : (t <= 1.0 ? 0.2 - 0.2 * (t - 0.5) : 0.1);
    worst = fmax(worst, fabs(q - want));
    double f = lk_data_actuator_force(d, 0);
    if ((t > 0.01 && t < 0.49) || (t > 0.51 && t < 0.99) || t > 1.01)
      LK_ASSERT_MSG(fabs(f - 2 * 9.81) < 1e-9, "t = %g: force %.12g N, want m g", t, f);
  }
  LK_ASSERT_MSG(worst < 1e-12, "off the path by %.3g m", worst);
  lk_data_free(d);
  lk_model_free(m);
}

/* A turntable (revolute about z, 0.4 kg m^2) prescribed at 3 rad/s with
 * 7 N m applied against it keeps its speed; the drive gives +7 N m. */
static void test_turntable_holds_speed(void) {
  const char *text =
      "links:\n  - name: table\n    joint: {name: spin, type: revolute, axis: [0, 0, 1]}\n"
      "    mass: 5\n    inertia: [0.2, 0.2, 0.4, 0, 0, 0]\n"
      "actuators:\n  - {joint: spin, type: prescribed_velocity, target: 3}\n";
  lk_model *m = load(text);
  if (!m) return;
  lk_data *d = lk_data_new(m);
  for (int i = 0; i < 500; i++) {
    lk_data_tau(d)[0] = -7;
    LK_ASSERT_OK(lk_step(m, d), (lk_error *)NULL);
    LK_ASSERT_MSG(fabs(lk_data_v(d)[0] - 3) < 1e-12, "step %d: %.15g rad/s", i, lk_data_v(d)[0]);
    if (i > 0) /* (the first step takes it from rest to speed) */
      LK_ASSERT_MSG(fabs(lk_data_actuator_force(d, 0) - 7) < 1e-9, "step %d: drive %.12g N m", i,
                    lk_data_actuator_force(d, 0));
  }
  LK_ASSERT_NEAR(lk_data_q(d)[0], 3 * 0.5, 1e-9);
  lk_data_free(d);
  lk_model_free(m);
}

/* A drive bounded by max_effort 5 N cannot lift 2 kg: it pushes its 5 N
 * and the ram falls at (5 - m g) / m. Switched off, the joint is free. */
static void test_bounded_drive_stalls(void) {
  const char *text =
      "links:\n  - name: ram\n    joint: {name: slide, type: prismatic, axis: [0, 0, 1]}\n"
      "    mass: 2\n    inertia: [0.01, 0.01, 0.01, 0, 0, 0]\n"
      "actuators:\n  - {joint: slide, type: prescribed_velocity, target: 0.1, max_effort: 5}\n";
  lk_model *m = load(text);
  if (!m) return;
  lk_data *d = lk_data_new(m);
  for (int i = 0; i < 100; i++) LK_ASSERT_OK(lk_step(m, d), (lk_error *)NULL);
  LK_ASSERT_NEAR(lk_data_actuator_force(d, 0), 5, 1e-9);
  LK_ASSERT_NEAR(lk_data_v(d)[0], 100 * 0.001 * (5 - 2 * 9.81) / 2, 1e-9);
  LK_ASSERT_OK(lk_data_actuator_set_enabled(d, 0, 0), (lk_error *)NULL);
  double v0 = lk_data_v(d)[0];
  for (int i = 0; i < 100; i++) LK_ASSERT_OK(lk_step(m, d), (lk_error *)NULL);
  LK_ASSERT_NEAR(lk_data_v(d)[0], v0 - 100 * 0.001 * 9.81, 1e-9);
  LK_ASSERT_NEAR(lk_data_actuator_force(d, 0), 0, 0);
  lk_data_free(d);
  lk_model_free(m);
}

/* What cannot be asked: two prescribed motions on one joint (refused at
 * load, both named); rk4 and the static analysis refuse the model. */
static void test_refusals(void) {
  const char *twice =
      "links:\n  - name: ram\n    joint: {name: slide, type: prismatic, axis: [0, 0, 1]}\n"
      "    mass: 2\n    inertia: [0.01, 0.01, 0.01, 0, 0, 0]\n"
      "actuators:\n  - {name: a, joint: slide, type: prescribed_velocity, target: 0.1}\n"
      "  - {name: b, joint: slide, type: prescribed_position, target: 0.2}\n";
  lk_error err;
  lk_model *m = lk_model_load_string(twice, strlen(twice), "twice.yaml", NULL, &err);
  LK_ASSERT_MSG(m == NULL, "two prescribed motions on one joint loaded");
  if (m) lk_model_free(m);
  LK_ASSERT_MSG(strstr(err.message, "'b'") && strstr(err.message, "'a'"), "message: %s", err.message);

  const char *rk4 =
      "options: {integrator: rk4}\n"
      "links:\n  - name: ram\n    joint: {name: slide, type: prismatic, axis: [0, 0, 1]}\n"
      "    mass: 2\n    inertia: [0.01, 0.01, 0.01, 0, 0, 0]\n"
      "actuators:\n  - {joint: slide, type: prescribed_velocity, target: 0.1}\n";
  m = load(rk4);
  if (!m) return;
  lk_data *d = lk_data_new(m);
  LK_ASSERT_INT_EQ(lk_step(m, d), LK_UNSUPPORTED);
  LK_ASSERT_MSG(strstr(lk_data_step_report(d)->message, "prescribed"), "message: %s",
                lk_data_step_report(d)->message);
  LK_ASSERT_INT_EQ(lk_static_solve(m, d, NULL, NULL, NULL, &err), LK_UNSUPPORTED);
  LK_ASSERT_MSG(strstr(err.message, "prescribe"), "message: %s", err.message);
  lk_data_free(d);
  lk_model_free(m);
}

static const lk_test tests[] = {
    {"conveyor: the box slides at mu_d g until carried at the belt's speed", test_conveyor},
    {"variant: other speed, mu_d and box mass", test_conveyor_variant},
    {"press: on its path at every step, pushing m g", test_press_on_path},
    {"turntable: its speed held against a torque, the drive's torque reported", test_turntable_holds_speed},
    {"a drive bounded by max_effort stalls; switched off the joint is free", test_bounded_drive_stalls},
    {"two prescribed motions on a joint, rk4 and statics are refused", test_refusals},
    {NULL, NULL},
};

void lk_test_register(void) { lk_test_suite("prescribed", tests); }
