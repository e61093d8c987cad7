/* Velocity forces at the midpoint (issue 31 item 4): a free body spinning
 * about a tilted axis keeps its kinetic energy, and a top on a pivot
 * precesses at the rate of the closed form, at the default timestep, with
 * the options a user writes (the YAML below, poses and rates to 6 digits).
 * With `velocity_forces: explicit` the same runs gain energy, which shows
 * the tests can fail. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "linkage/linkage.h"

static lk_model *load(const char *text) {
  lk_error err;
  lk_model *m = lk_model_load_string(text, strlen(text), "spin.yaml", NULL, &err);
  LK_ASSERT_MSG(m != NULL, "load: %s", err.message);
  return m;
}

/* A symmetric body (inertia [a, a, c] about its centre), no gravity, no
 * geoms, spinning at w rad/s about an axis tilted by `tilt` degrees from
 * its symmetry axis. Its kinetic energy is 1/2 (a wx^2 + c wz^2) forever
 * (Euler's equations without torque). Returns the largest relative
 * deviation of the energy over `seconds`, and in *lerr that of the size
 * of the angular momentum (conserved too; its direction turns slowly
 * with the discrete precession's phase error). */
static double spin_run_at(double a, double c, const double com[3], double w, double tilt,
                          double seconds, const char *forces, double *lerr, int *failed_at) {
  char text[1024];
  double th = tilt * M_PI / 180;
  double wx = w * sin(th), wz = w * cos(th);
  snprintf(text, sizeof text,
           "options: {gravity: [0, 0, 0], velocity_forces: %s}\n"
           "links:\n  - name: body\n    joint: {type: free}\n    mass: 2\n"
           "    inertia: [%.6g, %.6g, %.6g]\n    com: [%.6g, %.6g, %.6g]\n"
           "initial:\n  - {joint: body, q: [0, 0, 0, 1, 0, 0, 0], v: [0, 0, 0, %.6f, 0, %.6f]}\n",
           forces, a, a, c, com[0], com[1], com[2], wx, wz);
  lk_model *m = load(text);
  *failed_at = -1;
  if (!m) return INFINITY;
  lk_data *d = lk_data_new(m);
  double e0;
  lk_vec3 l0, lin;
  lk_energy_kinetic(m, d, &e0);
  lk_momentum(m, d, &lin, &l0);
  double worst = 0, lworst = 0;
  int n = (int)lround(seconds / lk_model_options(m)->timestep);
  for (int i = 0; i < n; i++) {
    if (lk_step(m, d) != LK_OK) {
      *failed_at = i;
      worst = INFINITY;
      break;
    }
    double e;
    lk_vec3 l;
    lk_energy_kinetic(m, d, &e);
    lk_momentum(m, d, &lin, &l);
    worst = fmax(worst, fabs(e / e0 - 1));
    lworst = fmax(lworst, fabs(lk_v3_norm(l) / lk_v3_norm(l0) - 1));
    if (!isfinite(e) || worst > 1) break;
  }
  *lerr = lworst;
  lk_data_free(d);
  lk_model_free(m);
  return worst;
}

static double spin_run(double a, double c, double w, double tilt, double seconds,
                       const char *forces, double *lerr, int *failed_at) {
  static const double centred[3] = {0, 0, 0};
  return spin_run_at(a, c, centred, w, tilt, seconds, forces, lerr, failed_at);
}

/* The case: 200 rad/s about an axis 30 degrees off, 10 s at the
 * default 1 ms. The target is 0.1 %; the midpoint keeps it to rounding
 * (measured below 1e-10). */
static void test_spin_energy(void) {
  double lerr;
  int failed;
  double err = spin_run(0.1, 0.2, 200, 30, 10, "midpoint", &lerr, &failed);
  LK_ASSERT_MSG(failed < 0, "the step failed at step %d", failed);
  LK_ASSERT_MSG(err < 1e-9, "kinetic energy drifted by %.3g (relative)", err);
  LK_ASSERT_MSG(lerr < 1e-9, "|angular momentum| drifted by %.3g (relative)", lerr);
}

/* Variant: a flat disc-like body (c = 2a is a disc; c = 1.5 a here), a
 * 60 degree tilt and 150 rad/s; and the explicit evaluation on the same
 * run gains more than the target allows (this is what the default fixes). */
static void test_spin_energy_variant(void) {
  double lerr;
  int failed;
  double err = spin_run(0.04, 0.06, 150, 60, 10, "midpoint", &lerr, &failed);
  LK_ASSERT_MSG(failed < 0, "the step failed at step %d", failed);
  LK_ASSERT_MSG(err < 1e-9, "kinetic energy drifted by %.3g (relative)", err);
  double ex = spin_run(0.04, 0.06, 150, 60, 2, "explicit", &lerr, &failed);
  LK_ASSERT_MSG(ex > 1e-3, "explicit velocity forces kept the energy to %.3g", ex);
}

/* Equal principal moments about its centre, at its origin (a cube, a
 * sphere): w x I w = 0, the body has no velocity products, and the step
 * leaves the passes out for it (its rates are not theirs to settle). Its
 * energy and |L| then hold to rounding, tumbling as at rest in a pile. */
static void test_spin_equal_moments(void) {
  double lerr;
  int failed;
  static const double centred[3] = {0, 0, 0};
  double err = spin_run_at(0.05, 0.05, centred, 200, 30, 10, "midpoint", &lerr, &failed);
  LK_ASSERT_MSG(failed < 0, "the step failed at step %d", failed);
  LK_ASSERT_MSG(err < 1e-12 && lerr < 1e-12, "energy drifted by %.3g, |L| by %.3g", err, lerr);
  err = spin_run_at(0.004, 0.004, centred, 37.5, 71, 10, "midpoint", &lerr, &failed);
  LK_ASSERT_MSG(failed < 0, "the step failed at step %d", failed);
  LK_ASSERT_MSG(err < 1e-12 && lerr < 1e-12, "other numbers: energy %.3g, |L| %.3g", err, lerr);
}

/* A symmetric top on a ball joint at its tip: mass M, centre of mass l
 * above the pivot along its axis, inertia about the centre [a, a, c]; the
 * axis tilted by theta from the vertical, spin component w3 along the
 * axis. Steady precession at rate W about the vertical needs
 *   M g l = W (c w3 - A W cos theta),   A = a + M l^2
 * (Goldstein, Classical Mechanics, sect. 5.7), the slow root
 *   W = (c w3 - sqrt(c^2 w3^2 - 4 A M g l cos theta)) / (2 A cos theta).
 * Started on that motion (angular velocity W z + (w3 - W cos theta) e3),
 * the top's axis turns about the vertical at W; measured over `seconds`
 * from the axis' azimuth. With `floor`, a plane under the top (far below)
 * makes the step take its constrained path (CRBA and the factor) instead
 * of ABA. */
static double top_precession(double M, double l, double a, double c, double w3, double tilt,
                             const char *forces, double h, int floor, double seconds,
                             double *exact) {
  const double g = 9.81, th = tilt * M_PI / 180, A = a + M * l * l;
  double W = (c * w3 - sqrt(c * c * w3 * w3 - 4 * A * M * g * l * cos(th))) / (2 * A * cos(th));
  *exact = W;
  /* rotation about x by theta: e3 = (0, -sin, cos) */
  double s = w3 - W * cos(th);
  double wy = -s * sin(th), wz = W + s * cos(th);
  char text[1400];
  snprintf(text, sizeof text,
           "options: {velocity_forces: %s, timestep: %g}\n"
           "%s"
           "links:\n  - name: top\n    origin: {xyz: [0, 0, 1]}\n    joint: {type: ball}\n"
           "    mass: %.6g\n    com: [0, 0, %.6g]\n    inertia: [%.6g, %.6g, %.6g]\n"
           "%s"
           "initial:\n  - {joint: top, q: [%.6f, %.6f, 0, 0], v: [0, %.6f, %.6f]}\n",
           forces, h,
           floor ? "world:\n  geoms:\n    - {type: plane, point: [0, 0, -5]}\n" : "", M, l, a,
           a, c, floor ? "    geoms:\n      - {type: sphere, radius: 0.01}\n" : "", cos(th / 2),
           sin(th / 2), wy, wz);
  lk_model *m = load(text);
  if (!m) return NAN;
  lk_data *d = lk_data_new(m);
  int n = (int)lround(seconds / lk_model_options(m)->timestep);
  int top = lk_model_link_index(m, "top");
  LK_ASSERT_OK(lk_forward_kinematics(m, d), (lk_error *)NULL); /* the start's poses */
  double phi0 = NAN, phi = 0, last = 0;
  for (int i = 0; i <= n; i++) {
    if (i > 0 && lk_step(m, d) != LK_OK) {
      phi = NAN;
      break;
    }
    const lk_transform *X = lk_data_link_pose(d, top);
    lk_vec3 e3 = lk_m3_col(&X->R, 2);
    double az = atan2(e3.y, e3.x);
    if (i == 0) {
      phi0 = last = az;
      phi = az;
      continue;
    }
    double dz = az - last;
    while (dz > M_PI) dz -= 2 * M_PI;
    while (dz < -M_PI) dz += 2 * M_PI;
    phi += dz;
    last = az;
  }
  lk_data_free(d);
  lk_model_free(m);
  return (phi - phi0) / seconds;
}

/* 200 rad/s, 20 degrees: the target is 0.5 % at the default timestep
 * (1 ms). Measured +0.102 % at 1 ms, +0.113 % at 2 ms, +0.039 % at 0.5 ms.
 * Before the gyroscopic term's turn was made the exponential's (rnea.c:
 * the implicit midpoint turns a spinning link's momentum by the Cayley
 * map, a^3/12 short a step) it was -0.651 %, -2.64 % and -0.144 %. The
 * explicit evaluation does not get that far (it runs away within a
 * second). */
static void test_top_precession(void) {
  double exact, w;
  w = top_precession(1, 0.1, 0.002, 0.004, 200, 20, "midpoint", 0.001, 0, 3, &exact);
  LK_ASSERT_MSG(fabs(w / exact - 1) < 2.5e-3, "1 ms: precession %.6f rad/s, exact %.6f (%.3f %%)",
                w, exact, 100 * (w / exact - 1));
  w = top_precession(1, 0.1, 0.002, 0.004, 200, 20, "midpoint", 0.002, 0, 3, &exact);
  LK_ASSERT_MSG(fabs(w / exact - 1) < 2.5e-3, "2 ms: precession %.6f rad/s, exact %.6f (%.3f %%)",
                w, exact, 100 * (w / exact - 1));
  w = top_precession(1, 0.1, 0.002, 0.004, 200, 20, "midpoint", 0.0005, 0, 3, &exact);
  LK_ASSERT_MSG(fabs(w / exact - 1) < 1e-3,
                "0.5 ms: precession %.6f rad/s, exact %.6f (%.3f %%)", w, exact,
                100 * (w / exact - 1));
  w = top_precession(1, 0.1, 0.002, 0.004, 200, 20, "explicit", 0.0005, 0, 3, &exact);
  LK_ASSERT_MSG(!(fabs(w / exact - 1) < 0.1), "explicit: precession %.6f rad/s, exact %.6f", w,
                exact);
}

/* Variant: a heavier, slower top (150 rad/s at 35 degrees, W = 5.52
 * rad/s) on the constrained path of the step (a geom on the top and a
 * floor far below). Measured +0.933 % at 2 ms, +0.550 % at 1 ms, +0.288 %
 * at 0.5 ms, +0.147 % at 0.25 ms: first order in h, the step's (the
 * torque of gravity at the step's start, velocities then positions);
 * before the turn's correction -10.9 %, -2.67 %, -0.489 %, -0.047 %, the
 * Cayley map's -3.1 %/ms^2 on top of the same first-order term. */
static void test_top_precession_variant(void) {
  double exact;
  double w1 = top_precession(2, 0.15, 0.003, 0.005, 150, 35, "midpoint", 0.001, 1, 3, &exact);
  double e1 = w1 / exact - 1;
  LK_ASSERT_MSG(fabs(e1) < 7e-3, "1 ms: precession %.6f rad/s, exact %.6f (%.3f %%)", w1, exact,
                100 * e1);
  double w4 = top_precession(2, 0.15, 0.003, 0.005, 150, 35, "midpoint", 0.00025, 1, 3, &exact);
  double e4 = w4 / exact - 1;
  LK_ASSERT_MSG(fabs(e4) < 2e-3, "0.25 ms: precession %.6f rad/s, exact %.6f (%.3f %%)", w4,
                exact, 100 * e4);
  /* converging on the closed form: a quarter of the step, at most a
   * third of the error */
  LK_ASSERT_MSG(fabs(e4) < fabs(e1) / 3, "errors %.4f %% at 1 ms, %.4f %% at 0.25 ms", 100 * e1,
                100 * e4);
}

/* The midpoint passes start from the last steps' corrections (kept in the
 * data): a guess only. A step from a remembered state equals a fresh
 * data's step from the same q and v to the passes' tolerance (1e-13 of
 * the velocities); so does a step after the program writes another v
 * between steps (the guess is then wrong); and a copied data steps bit for
 * bit as its source. At 200 rad/s the midpoint's correction of v is a
 * tenth of v, so a guess taken unchecked would show by orders of
 * magnitude. */
static double step_gap(const lk_model *m, lk_data *a, const lk_model *mb, lk_data *b) {
  const int nq = lk_model_nq(m), nv = lk_model_nv(m);
  memcpy(lk_data_q(b), lk_data_q(a), sizeof(double) * (size_t)nq);
  memcpy(lk_data_v(b), lk_data_v(a), sizeof(double) * (size_t)nv);
  lk_data_set_time(b, lk_data_time(a));
  CU_ASSERT_TRUE(lk_step(m, a) == LK_OK);
  CU_ASSERT_TRUE(lk_step(mb, b) == LK_OK);
  double gap = 0, scale = 0;
  for (int k = 0; k < nv; k++) {
    gap = fmax(gap, fabs(lk_data_v(a)[k] - lk_data_v(b)[k]));
    scale = fmax(scale, fabs(lk_data_v(a)[k]));
  }
  return gap / scale;
}

static void test_midpoint_memory(void) {
  const char *text = "options: {gravity: [0, 0, -9.81]}\n"
                     "links:\n  - name: body\n    joint: {type: free}\n    mass: 2\n"
                     "    inertia: [0.1, 0.1, 0.2]\n"
                     "initial:\n  - {joint: body, q: [0, 0, 0, 1, 0, 0, 0], "
                     "v: [0.3, 0, 0, 100.000000, 0, 173.205081]}\n";
  lk_model *m = load(text);
  if (!m) return;
  lk_data *a = lk_data_new(m), *b = lk_data_new(m), *c = lk_data_new(m);
  for (int i = 0; i < 300; i++) CU_ASSERT_TRUE(lk_step(m, a) == LK_OK);
  /* the report says the passes ran and settled */
  const lk_step_report *r = lk_data_step_report(a);
  LK_ASSERT_MSG(r->velocity_passes >= 1 && !r->velocity_explicit, "passes %d, explicit %d",
                r->velocity_passes, r->velocity_explicit);
  /* remembered against fresh */
  lk_data_reset(b);
  double g1 = step_gap(m, a, m, b);
  LK_ASSERT_MSG(g1 < 1e-11, "a remembered step differs from a fresh one by %.3g", g1);
  /* v written between steps: another spin, other axis */
  for (int i = 0; i < 5; i++) CU_ASSERT_TRUE(lk_step(m, a) == LK_OK);
  double *v = lk_data_v(a);
  v[3] = -150;
  v[4] = 40;
  v[5] = 20;
  lk_data_reset(b);
  double g2 = step_gap(m, a, m, b);
  LK_ASSERT_MSG(g2 < 1e-11, "after v was written: %.3g from a fresh step", g2);
  /* the explicit step from the same state is far from it: a guess taken
   * unchecked would show */
  lk_model *mx = load("options: {gravity: [0, 0, -9.81], velocity_forces: explicit}\n"
                      "links:\n  - name: body\n    joint: {type: free}\n    mass: 2\n"
                      "    inertia: [0.1, 0.1, 0.2]\n");
  if (mx) {
    lk_data *x = lk_data_new(mx);
    double gx = step_gap(m, a, mx, x);
    LK_ASSERT_MSG(gx > 1e-4, "the explicit step is only %.3g from the midpoint's", gx);
    lk_data_free(x);
    lk_model_free(mx);
  }
  /* a copy steps as its source, bit for bit */
  CU_ASSERT_TRUE(lk_data_copy(c, a) == LK_OK);
  for (int i = 0; i < 50; i++) {
    CU_ASSERT_TRUE(lk_step(m, a) == LK_OK);
    CU_ASSERT_TRUE(lk_step(m, c) == LK_OK);
  }
  CU_ASSERT_TRUE(memcmp(lk_data_v(a), lk_data_v(c), sizeof(double) * (size_t)lk_model_nv(m)) == 0);
  CU_ASSERT_TRUE(memcmp(lk_data_q(a), lk_data_q(c), sizeof(double) * (size_t)lk_model_nq(m)) == 0);
  lk_data_free(a);
  lk_data_free(b);
  lk_data_free(c);
  lk_model_free(m);
}

/* The step report says what the velocity forces took: passes that
 * settled (a spin of 20 rad/s, h |w| = 0.02), none (a body at rest), or
 * passes that did not settle, so the explicit forces stood (3 000 rad/s
 * at 1 ms: h |w| = 3, beyond the fixed point's reach). */
static void velocity_report(double w, int *passes, int *explicit_) {
  char text[512];
  snprintf(text, sizeof text,
           "options: {gravity: [0, 0, -9.81]}\n"
           "links:\n  - name: body\n    joint: {type: free}\n    mass: 2\n"
           "    inertia: [0.1, 0.1, 0.2]\n"
           "initial:\n  - {joint: body, q: [0, 0, 0, 1, 0, 0, 0], v: [0, 0, 0, %.6f, 0, %.6f]}\n",
           0.5 * w, 0.866025 * w);
  lk_model *m = load(text);
  *passes = *explicit_ = -1;
  if (!m) return;
  lk_data *d = lk_data_new(m);
  CU_ASSERT_TRUE(lk_step(m, d) == LK_OK);
  *passes = lk_data_step_report(d)->velocity_passes;
  *explicit_ = lk_data_step_report(d)->velocity_explicit;
  lk_data_free(d);
  lk_model_free(m);
}

static void test_velocity_report(void) {
  int passes, expl;
  velocity_report(20, &passes, &expl);
  LK_ASSERT_MSG(passes >= 2 && expl == 0, "20 rad/s: %d passes, explicit %d", passes, expl);
  velocity_report(0, &passes, &expl);
  LK_ASSERT_MSG(passes == 0 && expl == 0, "at rest: %d passes, explicit %d", passes, expl);
  velocity_report(3000, &passes, &expl);
  LK_ASSERT_MSG(passes >= 1 && expl == 1, "3000 rad/s: %d passes, explicit %d", passes, expl);
}

static const lk_test tests[] = {
    {"torque-free spin at 200 rad/s, tilted 30 deg: energy kept 10 s", test_spin_energy},
    {"variant: 150 rad/s, 60 deg, other inertia; explicit gains energy", test_spin_energy_variant},
    {"equal moments (a cube, a sphere): energy and |L| to rounding without passes",
     test_spin_equal_moments},
    {"top on a pivot: steady precession within 0.25 % at 1 and 2 ms, 0.1 % at 0.5 ms",
     test_top_precession},
    {"variant: other top, 35 deg, constrained path, 0.7 % at 1 ms, converging",
     test_top_precession_variant},
    {"the passes' memory is a guess: a fresh data's step, a written v, a copy",
     test_midpoint_memory},
    {"the report: passes that settled, none at rest, explicit where they cannot",
     test_velocity_report},
    {NULL, NULL},
};

void lk_test_register(void) { lk_test_suite("spin", tests); }
