/* MJCF elements of issue 29 on fixtures of tests/data/mjcf, against closed
 * forms and MuJoCo 2.2.2's numbers:
 *   - <equality>: connect as a ball loop closure, weld as a rigid one,
 *     joint as a coupling: the parallelogram four-bar closed by a connect
 *     swings as one pendulum equation, phi'' = -K sin(phi), its rocker at
 *     the crank's angle and its coupler never turning; a free body welded
 *     to a hinged pendulum swings with it as one compound pendulum and
 *     keeps its relative pose; two wheels tied by a joint equality keep
 *     q1 - ref1 = 2 q2 and accelerate as one inertia I2 + 4 I1; the loops'
 *     frames equal MuJoCo's compiled eq_data; active="false" and polycoef
 *     of higher order;
 *   - fixed <tendon>s and actuators on them (a gripper: closed forms), and
 *     Menagerie's Robotiq 2F-85 closing against MuJoCo's mj_step;
 *   - <contact><pair>: boxes on a slope only pairs let them touch;
 *   - mesh mass: an L-shaped prism (exact, hull, MuJoCo 2.2.2's rule) and
 *     Menagerie's Allegro hand against MuJoCo's body masses;
 *   - <sensor>s as trajectory columns. */
#include <config.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef HAVE_MUJOCO
#include <mujoco/mujoco.h>
#endif

#include "harness.h"
#include "linkage/linkage.h"

static lk_model *load_fixture(const char *name) {
  char rel[256];
  snprintf(rel, sizeof rel, "mjcf/%s", name);
  lk_error err;
  lk_model *m = lk_model_load_file(lk_test_data(rel), NULL, &err);
  LK_ASSERT_MSG(m != NULL, "%s:%d: %s", err.path, err.line, err.message);
  return m;
}

static double qof(const lk_model *m, lk_data *d, const char *joint) {
  return lk_data_q(d)[lk_model_joint_qadr(m, lk_model_joint_index(m, joint))];
}

static int has_warning(const lk_model *m, const char *phrase) {
  for (int i = 0; i < lk_model_nwarnings(m); i++)
    if (strstr(lk_model_warning(m, i), phrase)) return 1;
  return 0;
}

/* phi'' = f(phi) by classical RK4 with a fine step: the reference. */
typedef double (*accel_fn)(double phi, const double *p);
static double pendulum(accel_fn f, const double *p, double phi, double t_end) {
  double w = 0, h = 1e-5;
  int n = (int)lround(t_end / h);
  for (int i = 0; i < n; i++) {
    double k1p = w, k1w = f(phi, p);
    double k2p = w + 0.5 * h * k1w, k2w = f(phi + 0.5 * h * k1p, p);
    double k3p = w + 0.5 * h * k2w, k3w = f(phi + 0.5 * h * k2p, p);
    double k4p = w + h * k3w, k4w = f(phi + h * k3p, p);
    phi += h / 6 * (k1p + 2 * k2p + 2 * k3p + k4p);
    w += h / 6 * (k1w + 2 * k2w + 2 * k3w + k4w);
  }
  return phi;
}

static double fourbar_accel(double phi, const double *K) { return -K[0] * sin(phi); }

/* The parallelogram: crank (m 1, com 0.2 m from its pivot, Iyy 0.02),
 * rocker (m 2, 0.3 m, Iyy 0.04), coupler (m 0.5) translating on a circle
 * of radius L = 0.4: phi'' = -g (m1 r1 + m3 r3 + m2 L) /
 * (I1 + m1 r1^2 + I3 + m3 r3^2 + m2 L^2) sin(phi), phi from hanging. */
static void test_connect_fourbar(void) {
  lk_model *m = load_fixture("fourbar_connect.xml");
  if (!m) return;
  LK_ASSERT_INT_EQ(lk_model_nloop(m), 1);
  lk_loop_spec L;
  LK_ASSERT_OK(lk_model_loop(m, 0, &L), NULL);
  LK_ASSERT_INT_EQ(L.type, LK_LOOP_BALL);
  /* the coupler's end, and the rocker's tip where the file puts it */
  LK_ASSERT_NEAR(L.frame_a.p.x, 0.3, 1e-15);
  LK_ASSERT_NEAR(L.frame_b.p.x, 0, 1e-15);
  LK_ASSERT_NEAR(L.frame_b.p.z, -0.4, 1e-15);
  LK_ASSERT_MSG(has_warning(m, "active=\"false\""), "the inactive connect is not listed");
  const double g = 9.81, K = g * (1 * 0.2 + 2 * 0.3 + 0.5 * 0.4) /
                             (0.02 + 1 * 0.04 + 0.04 + 2 * 0.09 + 0.5 * 0.16);
  const double phi0 = 40 * LK_PI / 180;
  lk_data *d = lk_data_new(m);
  double worst_rocker = 0, worst_coupler = 0, worst_phi = 0;
  int steps = (int)lround(1.0 / lk_model_options(m)->timestep);
  for (int i = 1; i <= steps; i++) {
    LK_ASSERT_OK(lk_step(m, d), NULL);
    double qc = qof(m, d, "crank");
    worst_rocker = fmax(worst_rocker, fabs(qof(m, d, "rocker") - qc));
    worst_coupler = fmax(worst_coupler, fabs(qof(m, d, "coupler") + qc));
    if (i % 200 == 0) {
      double ref = pendulum(fourbar_accel, &K, phi0, i * lk_model_options(m)->timestep);
      worst_phi = fmax(worst_phi, fabs(phi0 + qc - ref));
    }
  }
  printf("\n  four-bar, 1 s: |q_rocker - q_crank| %.2g, |q_coupler + q_crank| %.2g, "
         "|phi - closed form| %.2g rad",
         worst_rocker, worst_coupler, worst_phi);
  LK_ASSERT_MSG(worst_rocker < 1e-8, "rocker off the crank's angle by %.3g", worst_rocker);
  LK_ASSERT_MSG(worst_coupler < 1e-8, "coupler turned by %.3g", worst_coupler);
  LK_ASSERT_MSG(worst_phi < 2e-3, "swing off the closed form by %.3g rad", worst_phi);
  lk_data_free(d);
  lk_model_free(m);
}

/* The compound pendulum a + b about the hinge at (0, 0, 1), axis y:
 * psi'' = g sum m_i (cos psi x_i + sin psi z_i) / I_O, (x_i, z_i) the
 * masses' places from the pivot at psi = 0. */
static double weld_accel(double psi, const double *p) {
  double t = 0;
  for (int i = 0; i < 3; i++) t += p[3 * i] * (cos(psi) * p[3 * i + 1] + sin(psi) * p[3 * i + 2]);
  return 9.81 * t / p[9];
}

static void test_weld(void) {
  lk_model *m = load_fixture("weld.xml");
  if (!m) return;
  LK_ASSERT_INT_EQ(lk_model_nloop(m), 3);
  lk_data *d = lk_data_new(m);
  LK_ASSERT_OK(lk_forward_kinematics(m, d), NULL);
  int la = lk_model_link_index(m, "a"), lb = lk_model_link_index(m, "b"),
      lc = lk_model_link_index(m, "c"), ld = lk_model_link_index(m, "d");
  lk_transform rel0 = lk_tf_inv_mul(lk_data_link_pose(d, la), lk_data_link_pose(d, lb));
  lk_transform c0 = *lk_data_link_pose(d, lc);
  /* a: 1 kg at 0.5 m along its -z, turned 0.5 rad about y; b: 2 kg at
   * (0.2, 0, -0.6) from the pivot, turned 0.3 rad about x; d (welded to
   * a too): 0.1 kg at (0.05, 0, -0.3) in a's frame (relpose's point less
   * its anchor turned by pi about x). */
  double s = sin(0.5), c = cos(0.5), Ib = 0.02 * cos(0.3) * cos(0.3) + 0.03 * sin(0.3) * sin(0.3);
  double dx = c * 0.05 + s * -0.3, dz = -s * 0.05 + c * -0.3;
  double p[10] = {1, -0.5 * s, -0.5 * c, 2, 0.2, -0.6, 0.1, dx, dz, 0};
  p[9] = 0.001 + 1 * 0.25 + Ib + 2 * (0.04 + 0.36) + 0.001 + 0.1 * (0.05 * 0.05 + 0.09);
  double worst_rel = 0, worst_psi = 0, worst_c = 0, d_err = 0;
  int steps = (int)lround(0.5 / lk_model_options(m)->timestep);
  for (int i = 1; i <= steps; i++) {
    LK_ASSERT_OK(lk_step(m, d), NULL);
    LK_ASSERT_OK(lk_forward_kinematics(m, d), NULL);
    lk_transform rel = lk_tf_inv_mul(lk_data_link_pose(d, la), lk_data_link_pose(d, lb));
    for (int r = 0; r < 3; r++) {
      worst_rel = fmax(worst_rel, fabs(lk_v3_get(rel.p, r) - lk_v3_get(rel0.p, r)));
      for (int k = 0; k < 3; k++) worst_rel = fmax(worst_rel, fabs(rel.R.m[r][k] - rel0.R.m[r][k]));
    }
    const lk_transform *C = lk_data_link_pose(d, lc);
    worst_c = fmax(worst_c, lk_v3_norm(lk_v3_sub(C->p, c0.p)));
    if (i % 100 == 0) {
      double ref = pendulum(weld_accel, p, 0, i * lk_model_options(m)->timestep);
      worst_psi = fmax(worst_psi, fabs(qof(m, d, "hinge") - ref));
    }
  }
  /* d: its anchor (0.05, 0, 0) on a's point (0.1, 0, -0.3), turned by
   * relpose's quaternion (0, 1, 0, 0): pi about x. */
  const lk_transform *A = lk_data_link_pose(d, la), *D = lk_data_link_pose(d, ld);
  lk_vec3 pa = lk_tf_point(A, lk_v3(0.1, 0, -0.3)), pd = lk_tf_point(D, lk_v3(0.05, 0, 0));
  d_err = lk_v3_norm(lk_v3_sub(pa, pd));
  lk_mat3 Rx = lk_m3_from_axis_angle(lk_v3(1, 0, 0), LK_PI), Rad = lk_m3_mul(&A->R, &Rx);
  for (int r = 0; r < 3; r++)
    for (int k = 0; k < 3; k++) d_err = fmax(d_err, fabs(Rad.m[r][k] - D->R.m[r][k]));
  printf("\n  weld, 0.5 s: b's pose in a's drifts %.2g, |psi - closed form| %.2g rad, c moves "
         "%.2g m, d off its relpose by %.2g",
         worst_rel, worst_psi, worst_c, d_err);
  LK_ASSERT_MSG(worst_rel < 1e-8, "b moved in a's frame by %.3g", worst_rel);
  LK_ASSERT_MSG(worst_psi < 5e-4, "swing off the closed form by %.3g rad", worst_psi);
  LK_ASSERT_MSG(worst_c < 1e-8, "c, welded to the world, moved %.3g m", worst_c);
  LK_ASSERT_MSG(d_err < 1e-8, "d is off its relpose by %.3g", d_err);
  lk_data_free(d);
  lk_model_free(m);
}

/* q1 - ref1 = 2 q2; a torque tau on j2 turns both with
 * q2'' = tau / (I2 + 4 I1) = 1 / 0.17. Semi-implicit Euler's answer for a
 * constant acceleration a after N steps of h: a h^2 N (N + 1) / 2. */
static void test_joint_equality(void) {
  lk_model *m = load_fixture("joint_equality.xml");
  if (!m) return;
  LK_ASSERT_INT_EQ(lk_model_ncoupling(m), 1);
  lk_data *d = lk_data_new(m);
  const double ref1 = 10 * LK_PI / 180, a = 1 / (0.05 + 4 * 0.03);
  LK_ASSERT_NEAR(qof(m, d, "j1"), ref1, 1e-15);
  LK_ASSERT_OK(lk_data_actuator_set_target(d, lk_model_actuator_index(m, "drive"), 1.0), NULL);
  double h = lk_model_options(m)->timestep, worst = 0;
  int n = 500;
  for (int i = 1; i <= n; i++) {
    LK_ASSERT_OK(lk_step(m, d), NULL);
    worst = fmax(worst, fabs(qof(m, d, "j1") - ref1 - 2 * qof(m, d, "j2")));
  }
  double expect = a * h * h * n * (n + 1) / 2;
  printf("\n  joint equality, 0.5 s: |q1 - ref1 - 2 q2| %.2g, q2 %.9g (closed form %.9g)", worst,
         qof(m, d, "j2"), expect);
  LK_ASSERT_MSG(worst < 1e-10, "the ratio drifts by %.3g", worst);
  LK_ASSERT_REL(qof(m, d, "j2"), expect, 1e-6, 0);
  lk_data_free(d);
  lk_model_free(m);
}


/* A fixed tendon L = (q_left + q_right) / 2 whose joints a joint equality
 * ties (q_right = q_left): a force f along it gives the two fingers
 * (0.1 + 0.3 kg) (f/2, f/2), which the equality shares out: q'' =
 * f / 0.4; the motor's f is gear ctrl, and its Linkage target (a joint
 * force, gear folded in) that of the first finger, gear G ctrl with
 * G = 1/2 + 1/2. The general servo (biasprm 0 -100 -10): kp 100, kv 10 on
 * L, so the fingers settle where L is the target, and on the way follow
 * the damped oscillator 0.4 q'' = -100 (q - q*) - 10 q'. */
static double oscillator(double t, double target) {
  double w = sqrt(100 / 0.4), z = 10 / (2 * sqrt(100 * 0.4)), wd = w * sqrt(1 - z * z);
  return target * (1 - exp(-z * w * t) * (cos(wd * t) + z * w / wd * sin(wd * t)));
}

static void test_tendon(void) {
  lk_model *m = load_fixture("tendon.xml");
  if (!m) return;
  int push = lk_model_actuator_index(m, "push"), grip = lk_model_actuator_index(m, "grip");
  LK_ASSERT_MSG(push >= 0 && grip >= 0, "tendon actuators not read");
  LK_ASSERT_INT_EQ(lk_model_actuator_index(m, "loose_act"), -1);
  LK_ASSERT_MSG(has_warning(m, "loose_act"), "the untied tendon's actuator is not listed");
  LK_ASSERT_MSG(has_warning(m, "ctrl times 0.0001"), "the servo's ctrl scale is not told");
  if (push < 0 || grip < 0) {
    lk_model_free(m);
    return;
  }
  lk_actuator_spec a;
  LK_ASSERT_OK(lk_model_actuator(m, grip, &a), NULL);
  LK_ASSERT_INT_EQ(a.type, LK_ACTUATOR_POSITION);
  LK_ASSERT_NEAR(a.kp, 100, 1e-12);
  LK_ASSERT_NEAR(a.kv, 10, 1e-12);
  lk_data *d = lk_data_new(m);
  double h = lk_model_options(m)->timestep;
  /* the motor: MuJoCo's ctrl 1, gear 2: 2 N along the tendon */
  LK_ASSERT_OK(lk_data_actuator_set_enabled(d, grip, 0), NULL);
  LK_ASSERT_OK(lk_data_actuator_set_target(d, push, 2 * (0.5 + 0.5) * 1.0), NULL);
  int n = 200;
  for (int i = 0; i < n; i++) LK_ASSERT_OK(lk_step(m, d), NULL);
  double expect = 2.0 / 0.4 * h * h * n * (n + 1) / 2;
  printf("\n  tendon motor, 0.2 s: q_left %.9g q_right %.9g (closed form %.9g)", qof(m, d, "left_j"),
         qof(m, d, "right_j"), expect);
  LK_ASSERT_REL(qof(m, d, "left_j"), expect, 1e-6, 0);
  LK_ASSERT_REL(qof(m, d, "right_j"), expect, 1e-6, 0);
  /* the servo */
  lk_data_reset(d);
  LK_ASSERT_OK(lk_data_actuator_set_enabled(d, push, 0), NULL);
  LK_ASSERT_OK(lk_data_actuator_set_target(d, grip, 0.02), NULL);
  double worst = 0;
  for (int i = 1; i <= 2000; i++) {
    LK_ASSERT_OK(lk_step(m, d), NULL);
    if (i <= 400) worst = fmax(worst, fabs(qof(m, d, "left_j") - oscillator(i * h, 0.02)));
  }
  printf("\n  tendon servo: |q - damped oscillator| %.2g m over 0.4 s, at 2 s q %.9g %.9g", worst,
         qof(m, d, "left_j"), qof(m, d, "right_j"));
  LK_ASSERT_MSG(worst < 2e-4, "off the oscillator by %.3g m", worst);
  LK_ASSERT_NEAR(qof(m, d, "left_j"), 0.02, 1e-9);
  LK_ASSERT_NEAR(qof(m, d, "right_j"), 0.02, 1e-9);
  lk_data_free(d);
  lk_model_free(m);
}


/* <contact><pair> on a floor no geom collides with otherwise, gravity
 * tilted atan(1/2) (a slope): a box slides down at g (sin - mu cos) with
 * the pair's mu 0.3, stays with the geoms' 1, slides at g sin with condim
 * 1; semi-implicit Euler's position after N steps of a constant
 * acceleration a: a h^2 N (N + 1) / 2. A ball with no pair falls through. */
static void test_pair(void) {
  lk_model *m = load_fixture("pair.xml");
  if (!m) return;
  LK_ASSERT_INT_EQ(lk_model_ngeom_pair(m), 3);
  LK_ASSERT_MSG(has_warning(m, "margin of <pair>"), "the pair's margin is not listed");
  lk_data *d = lk_data_new(m);
  double h = lk_model_options(m)->timestep, g = 9.81, s = 1 / sqrt(5.0), c = 2 / sqrt(5.0);
  int n = 500;
  for (int i = 0; i < n; i++) LK_ASSERT_OK(lk_step(m, d), NULL);
  LK_ASSERT_OK(lk_forward_kinematics(m, d), NULL);
  double k = h * h * n * (n + 1) / 2;
  const lk_transform *S = lk_data_link_pose(d, lk_model_link_index(m, "slider")),
                     *T = lk_data_link_pose(d, lk_model_link_index(m, "stuck")),
                     *I = lk_data_link_pose(d, lk_model_link_index(m, "ice")),
                     *B = lk_data_link_pose(d, lk_model_link_index(m, "ball"));
  printf("\n  pair, 0.5 s: slider x %.6g (closed form %.6g), stuck x %.2g, ice x %.6g (%.6g), "
         "ball z %.3g",
         S->p.x, g * (s - 0.3 * c) * k, T->p.x, I->p.x, g * s * k, B->p.z);
  LK_ASSERT_REL(S->p.x, g * (s - 0.3 * c) * k, 1e-4, 0);
  LK_ASSERT_NEAR(T->p.x, 0, 1e-5);
  LK_ASSERT_REL(I->p.x, g * s * k, 1e-4, 0);
  LK_ASSERT_NEAR(S->p.z, 0.05, 1e-3);
  LK_ASSERT_MSG(B->p.z < -0.5, "the ball, in no pair, did not fall through (z %g)", B->p.z);
  lk_data_free(d);
  lk_model_free(m);
}


/* The L-shaped prism of lshape.obj (u = 0.05 m: boxes 2u x u x u and
 * u x u x u, 3 u^3, density 1000), its inertia about its centre of mass
 * at unit density, in closed form from the two boxes. */
static void lshape_closed_form(double *V, lk_vec3 *com, lk_mat3 *J) {
  const double u = 0.05;
  const double lo[2][3] = {{0, 0, 0}, {0, 1, 0}}, hi[2][3] = {{2, 1, 1}, {1, 2, 1}};
  double v[2], c[2][3];
  *V = 0;
  double m1[3] = {0, 0, 0};
  for (int b = 0; b < 2; b++) {
    v[b] = 1;
    for (int k = 0; k < 3; k++) {
      v[b] *= (hi[b][k] - lo[b][k]) * u;
      c[b][k] = 0.5 * (hi[b][k] + lo[b][k]) * u;
    }
    *V += v[b];
    for (int k = 0; k < 3; k++) m1[k] += v[b] * c[b][k];
  }
  *com = lk_v3(m1[0] / *V, m1[1] / *V, m1[2] / *V);
  *J = lk_m3_zero();
  for (int b = 0; b < 2; b++) {
    double d[3], e[3] = {c[b][0] - com->x, c[b][1] - com->y, c[b][2] - com->z}, e2 = 0;
    for (int k = 0; k < 3; k++) d[k] = (hi[b][k] - lo[b][k]) * u, e2 += e[k] * e[k];
    for (int i = 0; i < 3; i++)
      for (int j = 0; j < 3; j++) {
        double own = i == j ? v[b] / 12 * (d[0] * d[0] + d[1] * d[1] + d[2] * d[2] - d[i] * d[i]) : 0;
        J->m[i][j] += own + v[b] * ((i == j ? e2 : 0) - e[i] * e[j]);
      }
  }
}

/* MuJoCo 2.2.2's mesh mass: the box of the same inertia (sides
 * sqrt(6 (J2 + J3 - J1) / V)), here from the L's principal moments: its
 * xy block [[a, b], [b, a]] has a + b and a - b, and Jzz. */
static double box_volume(double V, const lk_mat3 *J) {
  double e[3] = {J->m[0][0] + J->m[0][1], J->m[0][0] - J->m[0][1], J->m[2][2]}, v = 1;
  for (int i = 0; i < 3; i++) v *= sqrt(6 * (e[(i + 1) % 3] + e[(i + 2) % 3] - e[i]) / V);
  return v;
}

static void check_link(const lk_model *m, const char *link, double mass, lk_vec3 com,
                       const lk_mat3 *I, double tol) {
  lk_link_spec s;
  LK_ASSERT_OK(lk_model_link(m, lk_model_link_index(m, link), &s), NULL);
  LK_ASSERT_REL(s.mass, mass, tol, 0);
  LK_ASSERT_NEAR(s.com.x, com.x, tol * 0.05);
  LK_ASSERT_NEAR(s.com.y, com.y, tol * 0.05);
  LK_ASSERT_NEAR(s.com.z, com.z, tol * 0.05);
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) LK_ASSERT_NEAR(s.inertia.m[i][j], I->m[i][j], tol * 1e-3);
}

static void test_mesh_mass(void) {
  double V;
  lk_vec3 c;
  lk_mat3 J;
  lshape_closed_form(&V, &c, &J);
  /* MuJoCo 3's inertia attribute: exact, the L itself (0.375 kg); convex,
   * its hull (3.5 u^3: 0.4375 kg); legacy, the L again (it is star-shaped
   * about its centre of mass, where that rule's tetrahedra meet) */
  lk_model *m = load_fixture("lshape_modes.xml");
  if (m) {
    lk_mat3 I = lk_m3_scale(&J, 1000);
    /* the file's vertices are read in single precision (assimp) */
    check_link(m, "exact", 1000 * V, c, &I, 2e-7);
    check_link(m, "legacy", 1000 * V, c, &I, 2e-7);
    lk_link_spec s, e;
    LK_ASSERT_OK(lk_model_link(m, lk_model_link_index(m, "convex"), &s), NULL);
    LK_ASSERT_OK(lk_model_link(m, lk_model_link_index(m, "exact"), &e), NULL);
    LK_ASSERT_REL(s.mass, 1000 * 3.5 * 0.05 * 0.05 * 0.05, 2e-7, 0);
    printf("\n  L-shaped mesh: exact %.9g kg (closed form %.9g), hull %.9g kg", e.mass, 1000 * V,
           s.mass);
    lk_model_free(m);
  }
  /* No attribute: MuJoCo 2.2.2's rule, the box of the same inertia */
  double vb = box_volume(V, &J);
  lk_mat3 Ib = lk_m3_scale(&J, 1000 * vb / V);
  m = load_fixture("lshape.xml");
  if (m) {
    check_link(m, "solid", 1000 * vb, c, &Ib, 2e-7);
    lk_mat3 Im = Ib;
    Im.m[0][1] = Im.m[1][0] = -Ib.m[0][1];
    Im.m[0][2] = Im.m[2][0] = -Ib.m[0][2];
    check_link(m, "mirror", 1000 * vb, lk_v3(-c.x, c.y, c.z), &Im, 2e-7);
    lk_link_spec s;
    LK_ASSERT_OK(lk_model_link(m, lk_model_link_index(m, "solid"), &s), NULL);
    printf("\n  as MuJoCo 2.2.2: %.9g kg (closed form of its rule %.9g)", s.mass, 1000 * vb);
#ifdef HAVE_MUJOCO
    char mjerr[1000] = "";
    mjModel *mm = mj_loadXML(lk_test_data("mjcf/lshape.xml"), NULL, mjerr, sizeof mjerr);
    LK_ASSERT_MSG(mm != NULL, "MuJoCo: %s", mjerr);
    if (mm) {
      for (int b = 1; b < mm->nbody; b++) {
        lk_link_spec t;
        LK_ASSERT_OK(lk_model_link(m, lk_model_link_index(m, mj_id2name(mm, mjOBJ_BODY, b)), &t),
                     NULL);
        /* MuJoCo keeps mesh vertices in single precision */
        LK_ASSERT_REL(t.mass, mm->body_mass[b], 1e-6, 0);
        LK_ASSERT_NEAR(t.com.x, mm->body_ipos[3 * b], 1e-8);
        LK_ASSERT_NEAR(t.com.y, mm->body_ipos[3 * b + 1], 1e-8);
        printf("\n  %s: MuJoCo 2.2.2 %.9g kg", mj_id2name(mm, mjOBJ_BODY, b), mm->body_mass[b]);
      }
      mj_deleteModel(mm);
    }
#endif
    lk_model_free(m);
  }
}

/* Allegro's hand as published (when ../shared/data/robots is there):
 * total mass against MuJoCo 2.2.2's 0.530724 kg (its body_mass summed,
 * recorded; the hull's gave 0.6231, +17 %). */
static void test_allegro_mass(void) {
  const char *path = lk_test_srcpath("../shared/data/robots/menagerie/wonik_allegro/right_hand.xml");
  FILE *f = fopen(path, "r");
  if (!f) {
    printf("\n  (no %s: skipped)", path);
    return;
  }
  fclose(f);
  lk_error err;
  lk_model *m = lk_model_load_file(path, NULL, &err);
  LK_ASSERT_MSG(m != NULL, "%s:%d: %s", err.path, err.line, err.message);
  if (!m) return;
  double total = 0;
  for (int l = 1; l < lk_model_nlink(m); l++) {
    lk_link_spec s;
    LK_ASSERT_OK(lk_model_link(m, l, &s), NULL);
    total += s.mass;
  }
  double mj = 0.530724;
#ifdef HAVE_MUJOCO
  char mjerr[1000] = "";
  mjModel *mm = mj_loadXML(path, NULL, mjerr, sizeof mjerr);
  LK_ASSERT_MSG(mm != NULL, "MuJoCo: %s", mjerr);
  if (mm) {
    mj = 0;
    for (int b = 1; b < mm->nbody; b++) mj += mm->body_mass[b];
    mj_deleteModel(mm);
  }
#endif
  printf("\n  Allegro right hand: %.7g kg, MuJoCo 2.2.2 %.7g kg (%+.2g)", total, mj, total / mj - 1);
  LK_ASSERT_REL(total, mj, 1e-5, 0);
  lk_model_free(m);
}


/* <sensor> as named columns: jointpos and jointvel are the joint's q and v;
 * framepos of the tip site, of the body frame and of the centre of mass
 * are where the pendulum's kinematics put them (the body frame at
 * (0, 0, 1.5) turned 30 degrees about y, the hinge at (0, 0, 0.1) in it,
 * so the pivot at (0.1 sin 30, 0, 1.5 + 0.1 cos 30); a point p of the body
 * at pivot + R_y(30 degrees + q) (p - (0, 0, 0.1)), R_y(a) (x, 0, z) =
 * (x cos a + z sin a, 0, -x sin a + z cos a)); touch of a ball resting on the floor
 * is its weight m g. The accelerometer and framequat are named in the
 * warning. At the file's pose the framepos sensors equal MuJoCo 2.2.2's
 * sensordata. */
static void test_sensors(void) {
  lk_model *m = load_fixture("sensors.xml");
  if (!m) return;
  LK_ASSERT_INT_EQ(lk_model_nsensor(m), 6);
  LK_ASSERT_MSG(has_warning(m, "2 not read") && has_warning(m, "acc, bob_quat"),
                "the sensors not read are not listed by name");
  const unsigned G = LK_COLUMNS_SENSORS;
  int nc = lk_trajectory_ncolumns_in(m, G);
  LK_ASSERT_INT_EQ(nc, lk_trajectory_ncolumns(m) + 1 + 1 + 3 + 3 + 3 + 1);
  int c_angle = lk_trajectory_column_index_in(m, G, "angle"),
      c_rate = lk_trajectory_column_index_in(m, G, "rate"),
      c_tip = lk_trajectory_column_index_in(m, G, "tip_pos.x"),
      c_frame = lk_trajectory_column_index_in(m, G, "bob_frame.x"),
      c_com = lk_trajectory_column_index_in(m, G, "bob_com.x"),
      c_touch = lk_trajectory_column_index_in(m, G, "contact");
  LK_ASSERT_MSG(c_angle > 0 && c_rate > 0 && c_tip > 0 && c_frame > 0 && c_com > 0 && c_touch > 0,
                "a sensor column is missing");
  double *row = calloc((size_t)nc, sizeof *row);
  lk_data *d = lk_data_new(m);
  if (!row || !d || c_touch < 0) {
    free(row);
    lk_data_free(d);
    lk_model_free(m);
    return;
  }
  for (int i = 0; i < 500; i++) LK_ASSERT_OK(lk_step(m, d), NULL);
  LK_ASSERT_OK(lk_forward_kinematics(m, d), NULL);
  LK_ASSERT_OK(lk_trajectory_row_in(m, G, d, row), NULL);
  double q = qof(m, d, "hinge"), a = LK_PI / 6 + q;
  int jl = lk_model_joint_index(m, "hinge");
  LK_ASSERT_NEAR(row[c_angle], q, 0);
  LK_ASSERT_NEAR(row[c_rate], lk_data_v(d)[lk_model_joint_vadr(m, jl)], 0);
  const double pts[3][3] = {{0, 0, -0.5}, {0, 0, 0}, {0, 0, -0.4}};
  const int cols[3] = {c_tip, c_frame, c_com};
  double worst = 0;
  for (int k = 0; k < 3; k++) {
    double x = pts[k][0], z = pts[k][2] - 0.1;
    double px = 0.1 * sin(LK_PI / 6), pz = 1.5 + 0.1 * cos(LK_PI / 6);
    double ex = px + x * cos(a) + z * sin(a), ez = pz - x * sin(a) + z * cos(a);
    worst = fmax(worst, fabs(row[cols[k]] - ex));
    worst = fmax(worst, fabs(row[cols[k] + 1]));
    worst = fmax(worst, fabs(row[cols[k] + 2] - ez));
  }
  printf("\n  sensors at 0.5 s: angle %.6g, framepos off the kinematics by %.2g m, touch %.9g N "
         "(m g %.9g)",
         q, worst, row[c_touch], 0.7 * 9.81);
  LK_ASSERT_MSG(worst < 1e-12, "framepos off by %.3g m", worst);
  LK_ASSERT_REL(row[c_touch], 0.7 * 9.81, 1e-6, 0);
#ifdef HAVE_MUJOCO
  char mjerr[1000] = "";
  mjModel *mm = mj_loadXML(lk_test_data("mjcf/sensors.xml"), NULL, mjerr, sizeof mjerr);
  LK_ASSERT_MSG(mm != NULL, "MuJoCo: %s", mjerr);
  if (mm) {
    mjData *md = mj_makeData(mm);
    mj_forward(mm, md);
    lk_data_reset(d);
    LK_ASSERT_OK(lk_forward_kinematics(m, d), NULL);
    double w = 0;
    for (int k = 0; k < mm->nsensor; k++) {
      int i = 0;
      while (i < lk_model_nsensor(m)) {
        lk_sensor_spec ss;
        lk_model_sensor(m, i, &ss);
        if (strcmp(ss.name, mj_id2name(mm, mjOBJ_SENSOR, k)) == 0 && ss.type == LK_SENSOR_FRAMEPOS)
          break;
        i++;
      }
      if (i == lk_model_nsensor(m)) continue;
      double v[3];
      LK_ASSERT_OK(lk_data_sensor(m, d, i, v), NULL);
      for (int j = 0; j < 3; j++) w = fmax(w, fabs(v[j] - md->sensordata[mm->sensor_adr[k] + j]));
    }
    printf("\n  framepos at the file's pose against MuJoCo 2.2.2's sensordata: %.2g m", w);
    LK_ASSERT_MSG(w < 1e-12, "framepos differs from MuJoCo's by %.3g m", w);
    mj_deleteData(md);
    mj_deleteModel(mm);
  }
#endif
  free(row);
  lk_data_free(d);
  lk_model_free(m);
}


/* Menagerie's Robotiq 2F-85 as published (when ../shared/data/robots is
 * there): its fingers' tendon servo (gainprm 0.3137255, biasprm 0 -100
 * -10), the two <connect> closures of each finger's four-bar and the joint
 * equality between the drivers, closing from rest under ctrl 159.375
 * (Linkage's target 159.375 x 0.3137255 / 100 = 0.5 rad): the drivers'
 * angles every 0.2 s against MuJoCo 2.2.2's mj_step of the same file
 * (live when MuJoCo is installed, else its recorded figures). MuJoCo's
 * constraints are soft (solref 0.005), Linkage's rigid: 2e-4 rad. */
static void test_robotiq(void) {
  const char *path = lk_test_srcpath("../shared/data/robots/menagerie/robotiq_2f85/2f85.xml");
  FILE *f = fopen(path, "r");
  if (!f) {
    printf("\n  (no %s: skipped)", path);
    return;
  }
  fclose(f);
  double ref[5] = {0.428500, 0.491643, 0.500519, 0.501767, 0.501942};
  const double ctrl = 159.375;
#ifdef HAVE_MUJOCO
  char mjerr[1000] = "";
  mjModel *mm = mj_loadXML(path, NULL, mjerr, sizeof mjerr);
  LK_ASSERT_MSG(mm != NULL, "MuJoCo: %s", mjerr);
  if (mm) {
    mjData *md = mj_makeData(mm);
    md->ctrl[0] = ctrl;
    int ja = mm->jnt_qposadr[mj_name2id(mm, mjOBJ_JOINT, "right_driver_joint")];
    int n = (int)lround(1.0 / mm->opt.timestep);
    for (int i = 1; i <= n; i++) {
      mj_step(mm, md);
      if (i % (n / 5) == 0) ref[i / (n / 5) - 1] = md->qpos[ja];
    }
    mj_deleteData(md);
    mj_deleteModel(mm);
  }
#endif
  lk_error err;
  lk_model *m = lk_model_load_file(path, NULL, &err);
  LK_ASSERT_MSG(m != NULL, "%s:%d: %s", err.path, err.line, err.message);
  if (!m) return;
  LK_ASSERT_INT_EQ(lk_model_nloop(m), 2);
  LK_ASSERT_INT_EQ(lk_model_ncoupling(m), 1);
  lk_data *d = lk_data_new(m);
  int a = lk_model_actuator_index(m, "fingers_actuator");
  LK_ASSERT_MSG(a >= 0, "the tendon actuator is not read");
  if (a >= 0) LK_ASSERT_OK(lk_data_actuator_set_target(d, a, ctrl * 0.3137255 / 100), NULL);
  int n = (int)lround(1.0 / lk_model_options(m)->timestep);
  double worst = 0, sym = 0;
  for (int i = 1; i <= n; i++) {
    lk_status st = lk_step(m, d);
    LK_ASSERT_MSG(st == LK_OK, "step %d: %s", i, lk_strerror(st));
    if (st) break;
    double qr = qof(m, d, "right_driver_joint"), ql = qof(m, d, "left_driver_joint");
    sym = fmax(sym, fabs(qr - ql));
    if (i % (n / 5) == 0) worst = fmax(worst, fabs(qr - ref[i / (n / 5) - 1]));
  }
  printf("\n  Robotiq 2F-85 closing, 1 s: drivers off MuJoCo 2.2.2's by %.2g rad at most, "
         "|right - left| %.2g",
         worst, sym);
  LK_ASSERT_MSG(worst < 2e-4, "off MuJoCo's by %.3g rad", worst);
  LK_ASSERT_MSG(sym < 1e-10, "the drivers' equality drifts by %.3g", sym);
  lk_data_free(d);
  lk_model_free(m);
}

/* What is refused, and where. */
static void test_equality_errors(void) {
  static const char *kHigher =
      "<mujoco>\n"
      "  <worldbody>\n"
      "    <body name=\"a\"><joint name=\"j1\"/><geom size=\"0.1\"/></body>\n"
      "    <body name=\"b\"><joint name=\"j2\"/><geom size=\"0.1\"/></body>\n"
      "  </worldbody>\n"
      "  <equality>\n"
      "    <joint joint1=\"j1\" joint2=\"j2\" polycoef=\"0 1 0.5 0 0\"/>\n"
      "  </equality>\n"
      "</mujoco>\n";
  lk_error err;
  lk_model *m = lk_model_load_string(kHigher, strlen(kHigher), "poly.xml", NULL, &err);
  LK_ASSERT_MSG(m == NULL, "a quadratic joint equality was accepted");
  lk_model_free(m);
  LK_ASSERT_INT_EQ(err.line, 7);
  LK_ASSERT_MSG(strstr(err.message, "polycoef") != NULL, "%s", err.message);
  static const char *kMissing =
      "<mujoco>\n"
      "  <worldbody>\n"
      "    <body name=\"a\"><joint name=\"j1\"/><geom size=\"0.1\"/></body>\n"
      "  </worldbody>\n"
      "  <equality>\n"
      "    <connect body1=\"a\" body2=\"nope\" anchor=\"0 0 0\"/>\n"
      "  </equality>\n"
      "</mujoco>\n";
  m = lk_model_load_string(kMissing, strlen(kMissing), "missing.xml", NULL, &err);
  LK_ASSERT_MSG(m == NULL, "a connect to an unknown body was accepted");
  lk_model_free(m);
  LK_ASSERT_INT_EQ(err.line, 6);
  LK_ASSERT_MSG(strstr(err.message, "nope") != NULL, "%s", err.message);
}

#ifdef HAVE_MUJOCO
/* MuJoCo 2.2.2's compiled eq_data of the same files: connect's anchor in
 * body2 (data[3..5]), weld's body1 point and relative quaternion
 * (data[3..9]), joint's polycoef, each equal to the loop's frames. */
static void test_against_mujoco(void) {
  static const char *files[] = {"fourbar_connect.xml", "weld.xml"};
  for (int f = 0; f < 2; f++) {
    char rel[64], mjerr[1000] = "";
    snprintf(rel, sizeof rel, "mjcf/%s", files[f]);
    mjModel *mm = mj_loadXML(lk_test_data(rel), NULL, mjerr, sizeof mjerr);
    LK_ASSERT_MSG(mm != NULL, "MuJoCo: %s", mjerr);
    lk_model *m = load_fixture(files[f]);
    if (!mm || !m) {
      if (mm) mj_deleteModel(mm);
      lk_model_free(m);
      continue;
    }
    double worst = 0;
    int k = 0;
    for (int e = 0; e < mm->neq; e++) {
      if (!mm->eq_active[e]) continue;
      const mjtNum *q = mm->eq_data + e * mjNEQDATA;
      lk_loop_spec L;
      LK_ASSERT_OK(lk_model_loop(m, k++, &L), NULL);
      if (mm->eq_type[e] == mjEQ_CONNECT) {
        const double p[3] = {L.frame_b.p.x, L.frame_b.p.y, L.frame_b.p.z};
        for (int i = 0; i < 3; i++) worst = fmax(worst, fabs(p[i] - q[3 + i]));
      } else {
        const double p[3] = {L.frame_a.p.x, L.frame_a.p.y, L.frame_a.p.z};
        const double a[3] = {L.frame_b.p.x, L.frame_b.p.y, L.frame_b.p.z};
        lk_quat r = lk_q_from_mat3(&L.frame_a.R);
        double sgn = r.w * q[6] + r.x * q[7] + r.y * q[8] + r.z * q[9] < 0 ? -1 : 1;
        const double rq[4] = {sgn * r.w, sgn * r.x, sgn * r.y, sgn * r.z};
        for (int i = 0; i < 3; i++) {
          worst = fmax(worst, fabs(p[i] - q[3 + i]));
          worst = fmax(worst, fabs(a[i] - q[i]));
        }
        for (int i = 0; i < 4; i++) worst = fmax(worst, fabs(rq[i] - q[6 + i]));
      }
    }
    printf("\n  %s: loop frames against MuJoCo's eq_data: %.2g", files[f], worst);
    LK_ASSERT_MSG(worst < 1e-12, "%s: frames differ from MuJoCo's by %.3g", files[f], worst);
    mj_deleteModel(mm);
    lk_model_free(m);
  }
}
#endif

void lk_test_register(void) {
  static const lk_test tests[] = {{"connect: four-bar", test_connect_fourbar},
                                  {"weld: compound pendulum", test_weld},
                                  {"joint: coupling", test_joint_equality},
                                  {"tendon: gripper", test_tendon},
                                  {"contact pair", test_pair},
                                  {"mesh mass", test_mesh_mass},
                                  {"Allegro's mass", test_allegro_mass},
                                  {"sensors", test_sensors},
                                  {"Robotiq 2F-85 against MuJoCo", test_robotiq},
                                  {"errors", test_equality_errors},
#ifdef HAVE_MUJOCO
                                  {"MuJoCo's eq_data", test_against_mujoco},
#endif
                                  {NULL, NULL}};
  lk_test_suite("mjcf equality", tests);
}
