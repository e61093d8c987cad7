/* The contact-free time step against closed-form physics: pendulum periods
 * (small angle and elliptic integral), a conical pendulum, a damped
 * spring on a prismatic joint, torque-free rigid bodies, ballistic flight;
 * conservation on random floating trees; determinism, copies and the
 * absence of allocation. */
#include <gsl/gsl_linalg.h>
#include <gsl/gsl_sf_ellint.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "mech.h"

static void set_options(lk_model *m, double h, lk_integrator integ, lk_vec3 g) {
  lk_options o;
  lk_options_default(&o);
  o.timestep = h;
  o.integrator = integ;
  o.gravity = g;
  lk_model_set_options(m, &o, NULL);
}

static const lk_vec3 kG = {0, 0, -9.81};

/* ------------------------------------------------------------ pendulum */

/* A bob of mass m (solid sphere of radius rc) at distance L below a
 * revolute joint about +y. Its moment of inertia about the pivot is
 * I_p = 2/5 m rc^2 + m L^2 (plus armature), so the small-angle period is
 * 2 pi sqrt(I_p / (m g L)), the compound pendulum's. */
typedef struct {
  double m, L, rc, armature;
} pend;

static double pend_ip(const pend *p) {
  return 0.4 * p->m * p->rc * p->rc + p->m * p->L * p->L + p->armature;
}

static lk_model *pendulum(const pend *p, double h, lk_integrator integ) {
  lk_model *m = lk_model_new();
  lk_link_spec s;
  lk_link_spec_default(&s);
  s.name = "bob";
  s.joint.type = LK_JOINT_REVOLUTE;
  s.joint.axis = lk_v3(0, 1, 0);
  s.joint.armature = p->armature;
  s.mass = p->m;
  s.com = lk_v3(0, 0, -p->L);
  s.inertia = lk_inertia_solid_sphere(p->m, p->rc);
  lk_model_add_link(m, &s, NULL);
  set_options(m, h, integ, kG);
  lk_error e;
  LK_ASSERT_OK(lk_model_finalize(m, &e), &e);
  return m;
}

/* Release from theta0 at rest; the period from the downward zero crossings
 * of q (linearly interpolated) over `periods` periods. */
static double measure_period(const lk_model *m, lk_data *d, double theta0, int periods) {
  lk_data_q(d)[0] = theta0;
  lk_data_v(d)[0] = 0;
  double h = lk_model_options(m)->timestep;
  double first = -1, last = -1;
  int crossings = 0;
  double qprev = theta0;
  for (long n = 1; crossings <= periods && n < 100000000L; n++) {
    if (lk_step(m, d) != LK_OK) return NAN;
    double q = lk_data_q(d)[0];
    if (qprev > 0 && q <= 0) {
      double t = (n - 1) * h + h * qprev / (qprev - q);
      if (crossings == 0) first = t;
      last = t;
      crossings++;
    }
    qprev = q;
  }
  return (last - first) / periods;
}

static void test_pendulum_small_angle_period(void) {
  pend p = {2.0, 1.2, 0.05, 0.0};
  lk_model *m = pendulum(&p, 1e-4, LK_INTEGRATOR_EULER);
  lk_data *d = lk_data_new(m);
  double T = measure_period(m, d, 1e-3, 4);
  double T0 = 2 * LK_PI * sqrt(pend_ip(&p) / (p.m * 9.81 * p.L));
  /* The amplitude correction at 1 mrad is theta0^2/16 = 6e-8. */
  LK_ASSERT_REL(T, T0, 1e-6, 0);
  /* The potential energy is -m g . c with c = (-L sin q, 0, -L cos q). */
  lk_data_q(d)[0] = 0.7;
  double pe;
  LK_ASSERT_OK(lk_energy_potential(m, d, &pe), (lk_error *)NULL);
  LK_ASSERT_NEAR(pe, -p.m * 9.81 * p.L * cos(0.7), 1e-12);
  lk_data_free(d);
  lk_model_free(m);
}

/* T = 4 sqrt(I_p / (m g L)) K(sin(theta0 / 2)) for any amplitude. */
static void test_pendulum_large_angle_period_elliptic(void) {
  pend p = {2.0, 1.2, 0.05, 0.0};
  const double theta0 = 2.5;
  double Tk = 4 * sqrt(pend_ip(&p) / (p.m * 9.81 * p.L)) *
              gsl_sf_ellint_Kcomp(sin(theta0 / 2), GSL_PREC_DOUBLE);
  lk_model *m = pendulum(&p, 1e-4, LK_INTEGRATOR_EULER);
  lk_data *d = lk_data_new(m);
  LK_ASSERT_REL(measure_period(m, d, theta0, 3), Tk, 1e-7, 0);
  lk_data_free(d);
  lk_model_free(m);
  /* RK4 at a ten times larger step. */
  m = pendulum(&p, 1e-3, LK_INTEGRATOR_RK4);
  d = lk_data_new(m);
  LK_ASSERT_REL(measure_period(m, d, theta0, 3), Tk, 1e-7, 0);
  lk_data_free(d);
  lk_model_free(m);
}

/* Armature adds to the pivot inertia and nothing else. */
static void test_pendulum_with_armature(void) {
  pend p = {1.0, 0.5, 0.1, 0.3};
  lk_model *m = pendulum(&p, 1e-4, LK_INTEGRATOR_EULER);
  lk_data *d = lk_data_new(m);
  double T0 = 2 * LK_PI * sqrt(pend_ip(&p) / (p.m * 9.81 * p.L));
  LK_ASSERT_REL(measure_period(m, d, 1e-3, 4), T0, 1e-6, 0);
  lk_data_free(d);
  lk_model_free(m);
}

/* ------------------------------------------------------ double pendulum */

static void test_double_pendulum_energy_rk4(void) {
  lk_model *m = lk_model_new();
  lk_link_spec a, b;
  lk_link_spec_default(&a);
  a.name = "upper";
  a.joint.type = LK_JOINT_REVOLUTE;
  a.joint.axis = lk_v3(0, 1, 0);
  a.mass = 1.0;
  a.com = lk_v3(0, 0, -0.5);
  a.inertia = lk_inertia_solid_cylinder(1.0, 0.03, 0.5);
  b = a;
  b.name = "lower";
  b.parent = "upper";
  b.origin.p = lk_v3(0, 0, -1);
  b.mass = 0.7;
  b.com = lk_v3(0, 0, -0.4);
  b.inertia = lk_inertia_solid_cylinder(0.7, 0.03, 0.4);
  lk_model_add_link(m, &a, NULL);
  lk_model_add_link(m, &b, NULL);
  set_options(m, 1e-4, LK_INTEGRATOR_RK4, kG);
  LK_ASSERT_OK(lk_model_finalize(m, NULL), (lk_error *)NULL);
  lk_data *d = lk_data_new(m);
  /* Energy scale: the energy above the hanging rest state. */
  double v_rest, t0, v0;
  LK_ASSERT_OK(lk_energy_potential(m, d, &v_rest), (lk_error *)NULL);
  lk_data_q(d)[0] = 2.0;
  lk_data_q(d)[1] = -1.0;
  lk_data_v(d)[1] = 3.0;
  lk_energy_kinetic(m, d, &t0);
  lk_energy_potential(m, d, &v0);
  double e0 = t0 + v0, scale = e0 - v_rest, worst = 0;
  for (int n = 1; n <= 100000; n++) {
    LK_ASSERT_INT_EQ(lk_step(m, d), LK_OK);
    if (n % 100 == 0) {
      double t, v;
      lk_energy_kinetic(m, d, &t);
      lk_energy_potential(m, d, &v);
      worst = fmax(worst, fabs(t + v - e0));
    }
  }
  LK_ASSERT_NEAR(lk_data_time(d), 10.0, 1e-9);
  LK_ASSERT_MSG(worst <= 1e-6 * scale, "energy drift %g of %g (relative %g)", worst, scale,
                worst / scale);
  lk_data_free(d);
  lk_model_free(m);
}

/* ------------------------------------------------------- ball, prismatic */

/* A spherical pendulum in steady conical motion: a bob with isotropic
 * inertia at distance L, tilted by theta, turning about the vertical at
 * Omega^2 = g / (L cos theta) keeps its height and turns uniformly. */
static void test_conical_pendulum_ball_joint(void) {
  const double L = 1.0, theta = 0.6, g = 9.81;
  lk_model *m = lk_model_new();
  lk_link_spec s;
  lk_link_spec_default(&s);
  s.name = "bob";
  s.joint.type = LK_JOINT_BALL;
  s.mass = 1.5;
  s.com = lk_v3(0, 0, -L);
  s.inertia = lk_inertia_solid_sphere(1.5, 0.1);
  lk_model_add_link(m, &s, NULL);
  set_options(m, 1e-3, LK_INTEGRATOR_RK4, kG);
  LK_ASSERT_OK(lk_model_finalize(m, NULL), (lk_error *)NULL);
  lk_data *d = lk_data_new(m);
  lk_quat q = lk_q_from_axis_angle(lk_v3(1, 0, 0), theta);
  double *qd = lk_data_q(d);
  qd[0] = q.w, qd[1] = q.x, qd[2] = q.y, qd[3] = q.z;
  double W = sqrt(g / (L * cos(theta)));
  lk_data_v(d)[2] = W;
  double worst_z = 0, worst_phi = 0;
  for (int n = 1; n <= 3000; n++) {
    lk_step(m, d);
    lk_vec3 c;
    lk_center_of_mass(m, d, &c);
    worst_z = fmax(worst_z, fabs(c.z + L * cos(theta)));
    double phi = atan2(c.y, c.x), want = LK_PI / 2 + W * n * 1e-3;
    worst_phi = fmax(worst_phi, fabs(atan2(sin(phi - want), cos(phi - want))));
  }
  LK_ASSERT_MSG(worst_z <= 1e-9, "height drift %g", worst_z);
  LK_ASSERT_MSG(worst_phi <= 1e-8, "azimuth error %g rad", worst_phi);
  lk_data_free(d);
  lk_model_free(m);
}

/* A damped spring on an oblique prismatic joint under gravity, with
 * armature: (m + a) x'' = -k (x - rest) - b x' + m g . axis. */
static void test_damped_spring_prismatic(void) {
  const double mass = 2.0, arm = 0.3, k = 50, b = 1.2, rest = 0.1;
  lk_vec3 axis = lk_v3(1.0 / 3, 2.0 / 3, 2.0 / 3);
  lk_model *m = lk_model_new();
  lk_link_spec s;
  lk_link_spec_default(&s);
  s.name = "slider";
  s.joint.type = LK_JOINT_PRISMATIC;
  s.joint.axis = axis;
  s.joint.stiffness = k;
  s.joint.damping = b;
  s.joint.rest = rest;
  s.joint.armature = arm;
  s.mass = mass;
  s.com = lk_v3(0.1, -0.2, 0.3);
  s.inertia = lk_inertia_solid_box(mass, lk_v3(0.1, 0.2, 0.3));
  lk_model_add_link(m, &s, NULL);
  set_options(m, 1e-3, LK_INTEGRATOR_RK4, kG);
  LK_ASSERT_OK(lk_model_finalize(m, NULL), (lk_error *)NULL);
  lk_data *d = lk_data_new(m);
  const double me = mass + arm, x0 = 0.4;
  double xeq = rest + mass * lk_v3_dot(kG, axis) / k;
  double w0 = sqrt(k / me), zeta = b / (2 * sqrt(k * me)), wd = w0 * sqrt(1 - zeta * zeta);
  double y0 = x0 - xeq;
  lk_data_q(d)[0] = x0;
  double worst = 0;
  for (int n = 1; n <= 3000; n++) {
    lk_step(m, d);
    double t = n * 1e-3;
    double y = exp(-zeta * w0 * t) * (y0 * cos(wd * t) + zeta * w0 * y0 / wd * sin(wd * t));
    worst = fmax(worst, fabs(lk_data_q(d)[0] - (xeq + y)));
  }
  LK_ASSERT_MSG(worst <= 1e-9, "prismatic spring-damper vs closed form: worst %g", worst);
  lk_data_free(d);
  lk_model_free(m);
}

/* Euler treats damping implicitly: one step of a free damped slider is
 * v+ = m v / (m + h b) exactly, even where explicit Euler (factor
 * 1 - h b / m = -9) would blow up. */
static void test_euler_damping_is_implicit(void) {
  const double mass = 1.0, b = 1e4, h = 1e-3;
  lk_model *m = lk_model_new();
  lk_link_spec s;
  lk_link_spec_default(&s);
  s.name = "slider";
  s.joint.type = LK_JOINT_PRISMATIC;
  s.joint.axis = lk_v3(1, 0, 0);
  s.joint.damping = b;
  s.mass = mass;
  s.inertia = lk_inertia_solid_sphere(mass, 0.1);
  lk_model_add_link(m, &s, NULL);
  set_options(m, h, LK_INTEGRATOR_EULER, lk_v3(0, 0, 0));
  LK_ASSERT_OK(lk_model_finalize(m, NULL), (lk_error *)NULL);
  lk_data *d = lk_data_new(m);
  lk_data_v(d)[0] = 1.0;
  double want = 1.0;
  for (int n = 1; n <= 20; n++) {
    LK_ASSERT_OK(lk_step(m, d), (lk_error *)NULL);
    want *= mass / (mass + h * b);
    LK_ASSERT_REL(lk_data_v(d)[0], want, 1e-13, 0);
  }
  lk_data_free(d);
  lk_model_free(m);
}

/* ---------------------------------------------------------- free bodies */

static lk_model *free_body(double mass, lk_vec3 com, const lk_mat3 *Ic, double h,
                           lk_integrator integ, lk_vec3 g) {
  lk_model *m = lk_model_new();
  lk_link_spec s;
  lk_link_spec_default(&s);
  s.name = "body";
  s.joint.type = LK_JOINT_FREE;
  s.mass = mass;
  s.com = com;
  s.inertia = *Ic;
  lk_model_add_link(m, &s, NULL);
  set_options(m, h, integ, g);
  lk_error e;
  LK_ASSERT_OK(lk_model_finalize(m, &e), &e);
  return m;
}

static void set_free_state(lk_data *d, lk_vec3 p, lk_quat q, lk_vec3 pdot, lk_vec3 w) {
  double *x = lk_data_q(d), *v = lk_data_v(d);
  lk_v3_to(p, x);
  x[3] = q.w, x[4] = q.x, x[5] = q.y, x[6] = q.z;
  lk_v3_to(pdot, v);
  lk_v3_to(w, v + 3);
}

/* An asymmetric body (rotated principal axes, centre of mass off the
 * origin) tumbling without torque: momentum and energy stay constant. */
static void test_torque_free_asymmetric_body(void) {
  lk_mat3 R = lk_q_to_mat3(lk_q_from_rpy(0.3, -0.7, 1.1)), D = lk_m3_diag(0.10, 0.20, 0.25);
  lk_mat3 Ic = lk_m3_rotate_tensor(&R, &D);
  for (int a = 0; a < 3; a++)
    for (int b = a + 1; b < 3; b++) Ic.m[b][a] = Ic.m[a][b];
  const double mass = 2.0;
  lk_vec3 com = lk_v3(0.1, -0.05, 0.2);
  lk_model *m = free_body(mass, com, &Ic, 1e-3, LK_INTEGRATOR_RK4, lk_v3(0, 0, 0));
  lk_data *d = lk_data_new(m);
  lk_quat q0 = lk_q_from_rpy(-0.4, 0.2, 0.9);
  lk_vec3 p = lk_v3(0.3, -0.2, 0.5), pd = lk_v3(0.2, -0.1, 0.05), w = lk_v3(1.5, -2.0, 3.0);
  set_free_state(d, p, q0, pd, w);
  /* Momentum by hand: m c x c' + R Ic R^T w about the origin. */
  lk_mat3 Rb = lk_q_to_mat3(q0);
  lk_vec3 r = lk_m3_mulv(&Rb, com), c = lk_v3_add(p, r), cd = lk_v3_add(pd, lk_v3_cross(w, r));
  lk_mat3 Iw = lk_m3_rotate_tensor(&Rb, &Ic);
  lk_vec3 L0 = lk_v3_add(lk_v3_scale(lk_v3_cross(c, cd), mass), lk_m3_mulv(&Iw, w));
  lk_vec3 P0 = lk_v3_scale(cd, mass);
  double T0 = 0.5 * mass * lk_v3_norm2(cd) + 0.5 * lk_v3_dot(w, lk_m3_mulv(&Iw, w));
  lk_vec3 P, L;
  double T;
  LK_ASSERT_OK(lk_momentum(m, d, &P, &L), (lk_error *)NULL);
  LK_ASSERT_OK(lk_energy_kinetic(m, d, &T), (lk_error *)NULL);
  LK_ASSERT_NEAR(lk_v3_norm(lk_v3_sub(L, L0)), 0, 1e-13 * lk_v3_norm(L0));
  LK_ASSERT_NEAR(lk_v3_norm(lk_v3_sub(P, P0)), 0, 1e-13 * lk_v3_norm(P0));
  LK_ASSERT_REL(T, T0, 1e-13, 0);
  double worst_L = 0, worst_P = 0, worst_T = 0;
  for (int n = 1; n <= 5000; n++) {
    lk_step(m, d);
    if (n % 50) continue;
    lk_momentum(m, d, &P, &L);
    lk_energy_kinetic(m, d, &T);
    worst_L = fmax(worst_L, lk_v3_norm(lk_v3_sub(L, L0)) / lk_v3_norm(L0));
    worst_P = fmax(worst_P, lk_v3_norm(lk_v3_sub(P, P0)) / lk_v3_norm(P0));
    worst_T = fmax(worst_T, fabs(T - T0) / T0);
  }
  LK_ASSERT_MSG(worst_L <= 1e-9, "angular momentum drift %g", worst_L);
  LK_ASSERT_MSG(worst_P <= 1e-9, "linear momentum drift %g", worst_P);
  LK_ASSERT_MSG(worst_T <= 1e-9, "energy drift %g", worst_T);
  lk_data_free(d);
  lk_model_free(m);
}

/* An axisymmetric body (I1 = I2 != I3): its body-frame angular velocity
 * turns about the symmetry axis at Omega = (I3 - I1) / I1 w3 (Euler's
 * equations), w_body(t) = (a cos Omega t, a sin Omega t, w3). */
static void test_axisymmetric_precession(void) {
  const double I1 = 0.1, I3 = 0.2, a = 1.0, w3 = 4.0;
  lk_mat3 Ic = lk_m3_diag(I1, I1, I3);
  lk_model *m = free_body(1.0, lk_v3(0.05, 0.1, -0.1), &Ic, 1e-3, LK_INTEGRATOR_RK4, kG);
  lk_data *d = lk_data_new(m);
  lk_quat q0 = lk_q_from_rpy(0.5, 0.4, -0.3);
  lk_mat3 R0 = lk_q_to_mat3(q0);
  set_free_state(d, lk_v3(0, 0, 1), q0, lk_v3(0.3, 0, 2), lk_m3_mulv(&R0, lk_v3(a, 0, w3)));
  const double Om = (I3 - I1) / I1 * w3;
  double worst = 0;
  for (int n = 1; n <= 2000; n++) {
    lk_step(m, d);
    const double *x = lk_data_q(d), *v = lk_data_v(d);
    lk_mat3 R = lk_q_to_mat3(lk_q(x[3], x[4], x[5], x[6]));
    lk_vec3 wb = lk_m3_tmulv(&R, lk_v3_from(v + 3));
    double t = n * 1e-3;
    lk_vec3 want = lk_v3(a * cos(Om * t), a * sin(Om * t), w3);
    worst = fmax(worst, lk_v3_norm(lk_v3_sub(wb, want)));
  }
  LK_ASSERT_MSG(worst <= 1e-9, "body angular velocity vs Euler's solution: worst %g", worst);
  lk_data_free(d);
  lk_model_free(m);
}

/* Semi-implicit Euler on a spinning ball (centre of mass at the joint
 * origin): v_n = v0 + n h g and p_n = p0 + n h v0 + h^2 g n (n + 1) / 2,
 * the method's exact discrete solution; the spin stays constant. */
static void test_falling_body_euler_exact(void) {
  lk_mat3 Ic = lk_inertia_solid_sphere(1.5, 0.2);
  const double h = 1e-3;
  lk_model *m = free_body(1.5, lk_v3(0, 0, 0), &Ic, h, LK_INTEGRATOR_EULER, kG);
  lk_data *d = lk_data_new(m);
  lk_vec3 p0 = lk_v3(0, 0, 10), v0 = lk_v3(1, 2, 3), w = lk_v3(0.5, -1, 2);
  set_free_state(d, p0, lk_q_from_rpy(0.1, 0.2, 0.3), v0, w);
  const int N = 2000;
  for (int n = 0; n < N; n++) LK_ASSERT_INT_EQ(lk_step(m, d), LK_OK);
  const double *x = lk_data_q(d), *v = lk_data_v(d);
  lk_vec3 pw = lk_v3_add(lk_v3_madd(p0, v0, N * h), lk_v3_scale(kG, h * h * N * (N + 1) / 2.0));
  lk_vec3 vw = lk_v3_madd(v0, kG, N * h);
  LK_ASSERT_NEAR(lk_v3_norm(lk_v3_sub(lk_v3_from(x), pw)), 0, 1e-11);
  LK_ASSERT_NEAR(lk_v3_norm(lk_v3_sub(lk_v3_from(v), vw)), 0, 1e-11);
  LK_ASSERT_NEAR(lk_v3_norm(lk_v3_sub(lk_v3_from(v + 3), w)), 0, 1e-13);
  LK_ASSERT_INT_EQ(lk_data_time(d) > 0, 1);
  LK_ASSERT_NEAR(lk_data_time(d), N * h, 1e-12);
  lk_data_free(d);
  lk_model_free(m);
}

/* A tumbling asymmetric body with its centre of mass off the joint origin,
 * pushed by a constant external force: the centre of mass follows
 * c0 + c0' t + (g + F/m) t^2 / 2 whatever the rotation does. */
static void test_ballistic_centre_of_mass_rk4(void) {
  lk_mat3 Ic = lk_m3_diag(0.05, 0.08, 0.1);
  const double mass = 0.8, h = 1e-3;
  lk_model *m = free_body(mass, lk_v3(0.2, -0.1, 0.15), &Ic, h, LK_INTEGRATOR_RK4, kG);
  lk_data *d = lk_data_new(m);
  set_free_state(d, lk_v3(1, 2, 3), lk_q_from_rpy(0.7, -0.2, 0.4), lk_v3(0.5, -1, 4),
                 lk_v3(3, -2, 5));
  lk_vec3 c0, F = lk_v3(0.4, 0.3, 2.0);
  lk_center_of_mass(m, d, &c0);
  /* c' = p' + w x (c - p), p the joint origin (the state's translation). */
  lk_vec3 cd0 =
      lk_v3_add(lk_v3(0.5, -1, 4), lk_v3_cross(lk_v3(3, -2, 5), lk_v3_sub(c0, lk_v3(1, 2, 3))));
  lk_vec3 acc = lk_v3_add(kG, lk_v3_scale(F, 1.0 / mass));
  double worst = 0;
  lk_vec3 c = c0;
  for (int n = 1; n <= 2000; n++) {
    /* Applied at the current centre of mass each step, so that the force
     * does not spin the body up (a wrench stays fixed in the world). */
    lk_data_clear_loads(d);
    LK_ASSERT_INT_EQ(lk_data_apply_force(d, 1, c, F), LK_OK);
    lk_step(m, d);
    double t = n * h;
    lk_center_of_mass(m, d, &c);
    lk_vec3 want = lk_v3_add(lk_v3_madd(c0, cd0, t), lk_v3_scale(acc, 0.5 * t * t));
    worst = fmax(worst, lk_v3_norm(lk_v3_sub(c, want)));
  }
  LK_ASSERT_MSG(worst <= 1e-9, "centre of mass vs ballistic: worst %g m", worst);
  lk_data_free(d);
  lk_model_free(m);
}

/* ------------------------------------------------- random floating trees */

/* Floating trees (free roots) of every joint type with springs, no gravity,
 * no damping: momentum (without armature) and energy are conserved. */
static void test_floating_trees_conserve_momentum_and_energy(void) {
  mech_rng r = {77};
  double worst_E = 0, worst_P = 0, worst_L = 0;
  for (int t = 0; t < 6; t++) {
    int with_armature = t % 2;
    mech_tree_opts o = {4 + 2 * t, 1, 1, 0, with_armature, {0, 0, 0}, 0};
    lk_model *m = mech_random_tree(&r, &o);
    LK_ASSERT_MSG(m != NULL, "tree");
    if (!m) return;
    set_options(m, 2e-4, LK_INTEGRATOR_RK4, lk_v3(0, 0, 0));
    lk_data *d = lk_data_new(m);
    mech_random_state(&r, m, d, 1.0);
    double T, V, E0;
    lk_vec3 P0, L0, P, L;
    lk_energy_kinetic(m, d, &T);
    lk_energy_potential(m, d, &V);
    E0 = T + V;
    lk_momentum(m, d, &P0, &L0);
    double Es = T, Ps = fmax(1.0, lk_v3_norm(P0)), Ls = fmax(1.0, lk_v3_norm(L0));
    for (int n = 1; n <= 2500; n++) {
      LK_ASSERT_INT_EQ(lk_step(m, d), LK_OK);
      if (n % 100) continue;
      lk_energy_kinetic(m, d, &T);
      lk_energy_potential(m, d, &V);
      worst_E = fmax(worst_E, fabs(T + V - E0) / Es);
      if (with_armature) continue;
      lk_momentum(m, d, &P, &L);
      worst_P = fmax(worst_P, lk_v3_norm(lk_v3_sub(P, P0)) / Ps);
      worst_L = fmax(worst_L, lk_v3_norm(lk_v3_sub(L, L0)) / Ls);
    }
    lk_data_free(d);
    lk_model_free(m);
  }
  LK_ASSERT_MSG(worst_E <= 1e-8, "energy drift %g (relative to the kinetic energy)", worst_E);
  LK_ASSERT_MSG(worst_P <= 1e-9, "linear momentum drift %g", worst_P);
  LK_ASSERT_MSG(worst_L <= 1e-9, "angular momentum drift %g", worst_L);
}

/* One Euler step on random trees of every joint type, against the step
 * assembled from the public pieces and GSL: v+ = v + h (M + h B)^-1
 * (tau + passive - c + J^T f) (its qacc from lk_forward_dynamics), then
 * q+ = q (+) h v+. */
static double euler_definition(lk_velocity_forces forces);
static void test_euler_step_matches_its_definition(void) {
  double worst_v = euler_definition(LK_VELOCITY_FORCES_EXPLICIT);
  LK_ASSERT_MSG(worst_v <= 1e-12, "v+ vs (M + hB)^-1 definition: worst relative %g", worst_v);
}
/* With the default velocity forces (midpoint, step.c) the step solves
 *   (M + hB)(v+ - v) = h (tau + passive(v) + J^T f - c(q, (v + v+)/2)),
 * the turn of each link corrected from the Cayley map's angle to the
 * exponential's (add_turn_correction below),
 * checked here against the bias forces computed by lk_bias_forces at the
 * midpoint of the step's own v+ (the residual of the fixed point, relative
 * to the velocities, within 1e-11: the passes stop at 1e-13). */
static void test_euler_midpoint_matches_its_definition(void) {
  double worst_v = euler_definition(LK_VELOCITY_FORCES_MIDPOINT);
  LK_ASSERT_MSG(worst_v <= 1e-11, "v+ vs (M + hB)^-1 definition: worst relative %g", worst_v);
}
/* The midpoint's correction of each link's turn (rnea.c), stated here in
 * world coordinates from the public pieces: with a = h |w| and s =
 * tan(a/2) / (a/2) - 1, the generalized force of the wrench s (w x Ic w)
 * (a couple; Ic about the centre) on a free joint's link, else of s (w x
 * Io w) about the link origin with the force s w x (m w x c) there (Io
 * about the origin, c the origin-to-centre vector). Added to c(q, v_m). */
static void add_turn_correction(lk_model *m, lk_data *mid, double h, double *c) {
  int nv = lk_model_nv(m);
  double *J = malloc(sizeof(double) * (size_t)(6 * nv + 1));
  for (int i = 1; i < lk_model_nlink(m); i++) {
    lk_link_spec sp;
    lk_model_link(m, i, &sp);
    const lk_transform *X = lk_data_link_pose(mid, i);
    lk_vec3 w = lk_data_link_velocity(mid, i).ang;
    double a = h * lk_v3_norm(w);
    double s = a > 0 ? tan(a / 2) / (a / 2) - 1 : 0;
    lk_mat3 RI = lk_m3_mul(&X->R, &sp.inertia), Rt = lk_m3_transpose(&X->R);
    lk_mat3 Ic = lk_m3_mul(&RI, &Rt); /* world axes */
    lk_vec3 cw = lk_tf_dir(X, sp.com), torque, force = lk_v3_zero();
    if (sp.joint.type == LK_JOINT_FREE) {
      torque = lk_v3_scale(lk_v3_cross(w, lk_m3_mulv(&Ic, w)), s);
    } else {
      /* Io w = Ic w + m c x (w x c) */
      lk_vec3 Lo = lk_v3_add(lk_m3_mulv(&Ic, w),
                             lk_v3_scale(lk_v3_cross(cw, lk_v3_cross(w, cw)), sp.mass));
      torque = lk_v3_scale(lk_v3_cross(w, Lo), s);
      force = lk_v3_scale(lk_v3_cross(w, lk_v3_scale(lk_v3_cross(w, cw), sp.mass)), s);
    }
    lk_jacobian_frame(m, mid, i, lk_v3_zero(), J);
    for (int k = 0; k < nv; k++)
      c[k] += J[0 * nv + k] * torque.x + J[1 * nv + k] * torque.y + J[2 * nv + k] * torque.z +
              J[3 * nv + k] * force.x + J[4 * nv + k] * force.y + J[5 * nv + k] * force.z;
  }
  free(J);
}

/* The worst relative difference of v+ from its definition (q+ checked
 * here). */
static double euler_definition(lk_velocity_forces forces) {
  mech_rng r = {606};
  const double h = 2e-3;
  double worst_v = 0, worst_q = 0;
  for (int n = 1; n <= 16; n += 3) {
    mech_tree_opts o = {n, n % 2, 1, 1, 1, kG, 0};
    lk_model *m = mech_random_tree(&r, &o);
    LK_ASSERT_MSG(m != NULL, "tree");
    if (!m) return INFINITY;
    lk_options opt;
    lk_options_default(&opt);
    opt.timestep = h;
    opt.gravity = kG;
    opt.velocity_forces = forces;
    lk_model_set_options(m, &opt, NULL);
    lk_data *d = lk_data_new(m);
    int nv = lk_model_nv(m), nq = lk_model_nq(m);
    mech_random_state(&r, m, d, 1.0);
    mech_random_loads(&r, m, d);
    lk_data *mid = lk_data_new(m);
    LK_ASSERT_OK(lk_data_copy(mid, d), (lk_error *)NULL);
    double *q0 = malloc(sizeof(double) * (size_t)(nq + 1)),
           *v0 = malloc(sizeof(double) * (size_t)(nv + 1));
    double *f = malloc(sizeof(double) * (size_t)(nv + 1)),
           *A = malloc(sizeof(double) * (size_t)(nv * nv + 1));
    memcpy(q0, lk_data_q(d), sizeof(double) * (size_t)nq);
    memcpy(v0, lk_data_v(d), sizeof(double) * (size_t)nv);
    /* M qacc = tau + passive + J^T f - c, so the right-hand side is M qacc. */
    LK_ASSERT_OK(lk_forward_dynamics(m, d, LK_FD_CRBA), (lk_error *)NULL);
    double *M = malloc(sizeof(double) * (size_t)(nv * nv + 1));
    LK_ASSERT_OK(lk_mass_matrix_dense(m, d, M), (lk_error *)NULL);
    for (int i = 0; i < nv; i++) {
      f[i] = 0;
      for (int j = 0; j < nv; j++) f[i] += M[i * nv + j] * lk_data_qacc(d)[j];
    }
    memcpy(A, M, sizeof(double) * (size_t)(nv * nv));
    for (int k = 0; k < nv; k++) {
      lk_link_spec s;
      lk_model_link(m, lk_model_dof_link(m, k), &s);
      A[k * nv + k] += h * s.joint.damping;
    }
    gsl_matrix_view Av = gsl_matrix_view_array(A, (size_t)nv, (size_t)nv);
    gsl_vector_view fv = gsl_vector_view_array(f, (size_t)nv);
    LK_ASSERT_INT_EQ(gsl_linalg_cholesky_decomp1(&Av.matrix), 0);
    if (forces == LK_VELOCITY_FORCES_MIDPOINT) {
      /* v+ from the step; the right-hand side at its midpoint: f + c(q, v)
       * - c(q, v_m) */
      double *c0 = malloc(sizeof(double) * (size_t)(nv + 1)),
             *cm = malloc(sizeof(double) * (size_t)(nv + 1)),
             *vp = malloc(sizeof(double) * (size_t)(nv + 1));
      LK_ASSERT_OK(lk_bias_forces(m, mid, c0), (lk_error *)NULL);
      LK_ASSERT_OK(lk_step(m, d), (lk_error *)NULL);
      memcpy(vp, lk_data_v(d), sizeof(double) * (size_t)nv);
      for (int k = 0; k < nv; k++) lk_data_v(mid)[k] = 0.5 * (v0[k] + vp[k]);
      LK_ASSERT_OK(lk_bias_forces(m, mid, cm), (lk_error *)NULL);
      add_turn_correction(m, mid, h, cm);
      for (int k = 0; k < nv; k++) f[k] += c0[k] - cm[k];
      gsl_linalg_cholesky_svx(&Av.matrix, &fv.vector);
      for (int k = 0; k < nv; k++) v0[k] += h * f[k];
      lk_integrate(m, q0, v0, h);
      free(c0);
      free(cm);
      free(vp);
    } else {
      gsl_linalg_cholesky_svx(&Av.matrix, &fv.vector);
      for (int k = 0; k < nv; k++) v0[k] += h * f[k];
      lk_integrate(m, q0, v0, h);
      LK_ASSERT_OK(lk_step(m, d), (lk_error *)NULL);
    }
    double vs = fmax(1.0, mech_maxabs(v0, nv));
    worst_v = fmax(worst_v, mech_maxdiff(lk_data_v(d), v0, nv) / vs);
    worst_q = fmax(worst_q, mech_maxdiff(lk_data_q(d), q0, nq));
    free(q0);
    free(v0);
    free(f);
    free(A);
    free(M);
    lk_data_free(mid);
    lk_data_free(d);
    lk_model_free(m);
  }
  double tol = forces == LK_VELOCITY_FORCES_MIDPOINT ? 1e-11 : 1e-12;
  LK_ASSERT_MSG(worst_q <= tol, "q+ vs q (+) h v+: worst %g", worst_q);
  return worst_v;
}

/* ---------------------------------------------------- state and memory */

static lk_model *busy_tree(mech_rng *r, lk_integrator integ) {
  mech_tree_opts o = {10, 0, 1, 1, 1, kG, 0};
  lk_model *m = mech_random_tree(r, &o);
  LK_ASSERT_MSG(m != NULL, "tree");
  if (m) set_options(m, 1e-3, integ, kG);
  return m;
}

static int same_state(const lk_model *m, lk_data *a, lk_data *b) {
  size_t nq = (size_t)lk_model_nq(m), nv = (size_t)lk_model_nv(m);
  return memcmp(lk_data_q(a), lk_data_q(b), nq * sizeof(double)) == 0 &&
         memcmp(lk_data_v(a), lk_data_v(b), nv * sizeof(double)) == 0 &&
         memcmp(lk_data_qacc(a), lk_data_qacc(b), nv * sizeof(double)) == 0 &&
         lk_data_time(a) == lk_data_time(b);
}

/* Two runs from the same input are bit-identical, and so is a run split in
 * the middle through lk_data_copy() into a fresh data. */
static void test_determinism_and_split_copy(void) {
  for (int integ = 0; integ < 2; integ++) {
    mech_rng r = {123};
    lk_model *m = busy_tree(&r, (lk_integrator)integ);
    if (!m) return;
    lk_data *a = lk_data_new(m), *b = lk_data_new(m), *c = lk_data_new(m);
    mech_rng rs = {9};
    mech_random_state(&rs, m, a, 1.0);
    mech_random_loads(&rs, m, a);
    LK_ASSERT_OK(lk_data_copy(b, a), (lk_error *)NULL);
    const int K = 150;
    for (int n = 0; n < 2 * K; n++) lk_step(m, a);
    for (int n = 0; n < K; n++) lk_step(m, b);
    LK_ASSERT_OK(lk_data_copy(c, b), (lk_error *)NULL);
    lk_data_free(b); /* the copy must not depend on its source */
    for (int n = 0; n < K; n++) lk_step(m, c);
    /* An independent second run from the same state. */
    lk_data *e = lk_data_new(m);
    mech_rng rs2 = {9};
    mech_random_state(&rs2, m, e, 1.0);
    mech_random_loads(&rs2, m, e);
    for (int n = 0; n < 2 * K; n++) lk_step(m, e);
    LK_ASSERT_MSG(same_state(m, a, e), "integrator %d: two runs differ", integ);
    LK_ASSERT_MSG(same_state(m, a, c), "integrator %d: split run differs", integ);
    /* The run actually moved (a frozen state would make this vacuous). */
    LK_ASSERT_MSG(fabs(lk_data_v(a)[0]) > 0, "no motion");
    lk_data_free(a);
    lk_data_free(c);
    lk_data_free(e);
    lk_model_free(m);
  }
}

/* Every link's pose and velocity in a and b are the same to the bit. */
static int same_kinematics(const lk_model *m, const lk_data *a, const lk_data *b) {
  for (int i = 0; i < lk_model_nlink(m); i++) {
    lk_motion va = lk_data_link_velocity(a, i), vb = lk_data_link_velocity(b, i);
    if (memcmp(lk_data_link_pose(a, i), lk_data_link_pose(b, i), sizeof(lk_transform)) ||
        memcmp(&va, &vb, sizeof va))
      return 0;
  }
  return 1;
}

/* Issue 19.10: after lk_step the link poses and velocities are the
 * forward kinematics of the new q and v (they were the start of the
 * step's). And a state written between steps is the one the next step
 * starts from: the step keeps the end kinematics for the next start only
 * while q and v are unchanged. */
static void test_kinematics_current_after_step(void) {
  for (int integ = 0; integ < 2; integ++) {
    mech_rng r = {77};
    lk_model *m = busy_tree(&r, (lk_integrator)integ);
    if (!m) return;
    lk_data *a = lk_data_new(m), *fk = lk_data_new(m), *b = lk_data_new(m);
    mech_rng rs = {5};
    mech_random_state(&rs, m, a, 1.0);
    const size_t nq = (size_t)lk_model_nq(m), nv = (size_t)lk_model_nv(m);
    for (int n = 0; n < 20; n++) {
      LK_ASSERT_OK(lk_step(m, a), (lk_error *)NULL);
      memcpy(lk_data_q(fk), lk_data_q(a), nq * sizeof(double));
      memcpy(lk_data_v(fk), lk_data_v(a), nv * sizeof(double));
      LK_ASSERT_OK(lk_forward_kinematics(m, fk), (lk_error *)NULL);
      if (!same_kinematics(m, a, fk)) {
        lk_test_fail(__LINE__, __FILE__, "integrator %d step %d: poses are not FK(q+)", integ, n);
        break;
      }
    }
    /* The last link moved during the run: the check above is not vacuous. */
    lk_data_reset(fk);
    LK_ASSERT_OK(lk_forward_kinematics(m, fk), (lk_error *)NULL);
    mech_rng rs0 = {5};
    mech_random_state(&rs0, m, fk, 1.0);
    LK_ASSERT_OK(lk_forward_kinematics(m, fk), (lk_error *)NULL);
    const int last = lk_model_nlink(m) - 1;
    LK_ASSERT_MSG(lk_v3_norm(lk_v3_sub(lk_data_link_pose(a, last)->p,
                                       lk_data_link_pose(fk, last)->p)) > 1e-6,
                  "the last link did not move");
    /* A state written between steps: b computes its kinematics explicitly
     * before stepping, a relies on the step to see the new q and v. */
    LK_ASSERT_OK(lk_data_copy(b, a), (lk_error *)NULL);
    mech_rng rw = {6};
    mech_random_state(&rw, m, a, 2.0);
    mech_rng rw2 = {6};
    mech_random_state(&rw2, m, b, 2.0);
    LK_ASSERT_OK(lk_forward_kinematics(m, b), (lk_error *)NULL);
    for (int n = 0; n < 5; n++) {
      lk_step(m, a);
      lk_step(m, b);
    }
    LK_ASSERT_MSG(same_state(m, a, b) && same_kinematics(m, a, b),
                  "integrator %d: a state written between steps was not used", integ);
    /* Only v written (q the same bits): v matters too. */
    LK_ASSERT_OK(lk_data_copy(b, a), (lk_error *)NULL);
    lk_data_v(a)[0] += 0.5;
    lk_data_v(b)[0] += 0.5;
    LK_ASSERT_OK(lk_forward_kinematics(m, b), (lk_error *)NULL);
    lk_step(m, a);
    lk_step(m, b);
    LK_ASSERT_MSG(same_state(m, a, b) && same_kinematics(m, a, b),
                  "integrator %d: a velocity written between steps was not used", integ);
    lk_data_free(a);
    lk_data_free(b);
    lk_data_free(fk);
    lk_model_free(m);
  }
}


static void test_step_does_not_allocate(void) {
  lk_allocator al = LK_TEST_COUNTING_ALLOCATOR;
  lk_set_allocator(&al);
  for (int integ = 0; integ < 2; integ++) {
    lk_test_allocs = 0;
    mech_rng r = {55};
    lk_model *m = busy_tree(&r, (lk_integrator)integ);
    if (!m) break;
    lk_data *d = lk_data_new(m);
    mech_random_state(&r, m, d, 1.0);
    mech_random_loads(&r, m, d);
    LK_ASSERT_MSG(lk_test_allocs > 0, "the counting allocator saw nothing (hook not in use)");
    lk_test_allocs = 0;
    int fails = 0;
    for (int n = 0; n < 2000; n++) fails += lk_step(m, d) != LK_OK;
    LK_ASSERT_INT_EQ(fails, 0);
    LK_ASSERT_INT_EQ(lk_test_allocs, 0);
    lk_data_free(d);
    lk_model_free(m);
  }
  lk_set_allocator(NULL);
}

/* A non-finite load, or a step whose result overflows, fails with
 * LK_NON_FINITE and leaves the state and the clock unchanged. */
static void test_failed_step_changes_nothing(void) {
  pend p = {0.5, 1.0, 0.05, 0.0};
  for (int integ = 0; integ < 2; integ++) {
    lk_model *m = pendulum(&p, 1e-3, (lk_integrator)integ);
    lk_data *d = lk_data_new(m);
    lk_data_q(d)[0] = 0.3;
    lk_step(m, d);
    double q = lk_data_q(d)[0], v = lk_data_v(d)[0], t = lk_data_time(d);
    lk_data_tau(d)[0] = NAN;
    LK_ASSERT_INT_EQ(lk_step(m, d), LK_NON_FINITE);
    lk_data_tau(d)[0] = 1e308;
    LK_ASSERT_INT_EQ(lk_step(m, d), LK_NON_FINITE);
    LK_ASSERT_NEAR(lk_data_q(d)[0], q, 0);
    LK_ASSERT_NEAR(lk_data_v(d)[0], v, 0);
    LK_ASSERT_NEAR(lk_data_time(d), t, 0);
    lk_data_tau(d)[0] = 0;
    LK_ASSERT_OK(lk_step(m, d), (lk_error *)NULL);
    LK_ASSERT_NEAR(lk_data_time(d), 2e-3, 1e-15);
    lk_data_free(d);
    lk_model_free(m);
  }
}

static const lk_test tests[] = {
    {"pendulum small-angle period 2 pi sqrt(L/g)", test_pendulum_small_angle_period},
    {"pendulum large-angle period (elliptic K), Euler and RK4",
     test_pendulum_large_angle_period_elliptic},
    {"pendulum with armature", test_pendulum_with_armature},
    {"double pendulum energy over 10 s, RK4 h=1e-4", test_double_pendulum_energy_rk4},
    {"conical pendulum on a ball joint", test_conical_pendulum_ball_joint},
    {"damped spring on a prismatic joint", test_damped_spring_prismatic},
    {"Euler damping is implicit", test_euler_damping_is_implicit},
    {"torque-free asymmetric body conserves momentum and energy", test_torque_free_asymmetric_body},
    {"axisymmetric body precesses at (I3-I1)/I1 w3", test_axisymmetric_precession},
    {"falling body: Euler's exact discrete ballistic solution", test_falling_body_euler_exact},
    {"pushed tumbling body: ballistic centre of mass", test_ballistic_centre_of_mass_rk4},
    {"an Euler step is v+ = v + h (M + hB)^-1 f, q+ = q (+) h v+",
     test_euler_step_matches_its_definition},
    {"midpoint velocity forces: (M + hB)(v+ - v) = h (f - c(q, (v + v+)/2))",
     test_euler_midpoint_matches_its_definition},
    {"floating random trees conserve momentum and energy",
     test_floating_trees_conserve_momentum_and_energy},
    {"determinism and split runs through lk_data_copy", test_determinism_and_split_copy},
    {"lk_step does not allocate", test_step_does_not_allocate},
    {"link poses after lk_step are FK of the new q", test_kinematics_current_after_step},
    {"a failed step changes nothing", test_failed_step_changes_nothing},
    {NULL, NULL},
};

void lk_test_register(void) { lk_test_suite("step", tests); }
