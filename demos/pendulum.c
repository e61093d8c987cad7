/* demos/pendulum: build a pendulum and a double pendulum with the public
 * API, simulate them, and print what happened: the measured period against
 * theory (small-angle formula and the exact elliptic-integral value), the
 * energy drift, steps taken and wall time. */
#include <gsl/gsl_sf_ellint.h>
#include <math.h>
#include <stdio.h>
#include <time.h>

#include "linkage/linkage.h"

static double seconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int check(lk_status st, const lk_error *e, const char *what) {
  if (st == LK_OK) return 0;
  fprintf(stderr, "pendulum: %s: %s%s%s\n", what, lk_strerror(st), e && e->message[0] ? ": " : "",
          e ? e->message : "");
  return 1;
}

/* A rod of length L and mass m hanging from a revolute joint about +y. */
static lk_model *build_pendulum(double mass, double L, double h, lk_integrator integ) {
  lk_model *m = lk_model_new();
  lk_error e;
  lk_link_spec s;
  lk_link_spec_default(&s);
  s.name = "rod";
  s.joint.type = LK_JOINT_REVOLUTE;
  s.joint.axis = lk_v3(0, 1, 0);
  s.mass = mass;
  s.com = lk_v3(0, 0, -L / 2);
  s.inertia = lk_inertia_solid_cylinder(mass, 0.01, L / 2);
  lk_options o;
  lk_options_default(&o);
  o.timestep = h;
  o.integrator = integ;
  if (check(lk_model_add_link(m, &s, &e), &e, "add link") ||
      check(lk_model_set_options(m, &o, &e), &e, "options") ||
      check(lk_model_finalize(m, &e), &e, "finalize")) {
    lk_model_free(m);
    return NULL;
  }
  return m;
}

static int simulate_pendulum(double theta0) {
  const double mass = 1.0, L = 1.0, h = 1e-4, g = 9.81;
  lk_model *m = build_pendulum(mass, L, h, LK_INTEGRATOR_EULER);
  if (!m) return 1;
  lk_data *d = lk_data_new(m);
  lk_data_q(d)[0] = theta0;
  /* Equivalent length of the compound pendulum: I_pivot / (m * L_com). */
  lk_link_spec s;
  lk_model_link(m, 1, &s);
  double ip = s.inertia.m[1][1] + mass * (L / 2) * (L / 2);
  double leq = ip / (mass * L / 2);
  double t_small = 2 * LK_PI * sqrt(leq / g);
  double t_exact = 4 * sqrt(leq / g) * gsl_sf_ellint_Kcomp(sin(theta0 / 2), GSL_PREC_DOUBLE);
  double e0, t, v, drift = 0;
  lk_energy_kinetic(m, d, &t);
  lk_energy_potential(m, d, &v);
  e0 = t + v;
  int crossings = 0;
  double first = 0, last = 0, qprev = theta0, start = seconds();
  long steps = 0;
  while (crossings <= 5) {
    if (check(lk_step(m, d), NULL, "step")) return 1;
    steps++;
    double q = lk_data_q(d)[0];
    if (qprev > 0 && q <= 0) {
      double tc = (double)(steps - 1) * h + h * qprev / (qprev - q);
      if (crossings++ == 0) first = tc;
      last = tc;
    }
    qprev = q;
    if (steps % 1000 == 0) {
      lk_energy_kinetic(m, d, &t);
      lk_energy_potential(m, d, &v);
      drift = fmax(drift, fabs(t + v - e0));
    }
  }
  double wall = seconds() - start, period = (last - first) / 5;
  printf("pendulum (1 m rod, 1 kg), released at %.2f rad, semi-implicit Euler, h = %g s\n", theta0,
         h);
  printf("  simulated %.3f s in %ld steps (%.1f ms wall, %.2f us/step)\n", lk_data_time(d), steps,
         1e3 * wall, 1e6 * wall / (double)steps);
  printf("  period measured      %.9f s\n", period);
  printf("  elliptic-integral    %.9f s  (relative difference %.1e)\n", t_exact,
         fabs(period - t_exact) / t_exact);
  printf("  small-angle formula  %.9f s  (%+.2f%% off at this amplitude)\n", t_small,
         100 * (t_small - t_exact) / t_exact);
  printf("  max energy error     %.2e J of %.4f J swing energy (bounded: symplectic)\n\n", drift,
         mass * g * L / 2 * (1 - cos(theta0)));
  lk_data_free(d);
  lk_model_free(m);
  return 0;
}

static int simulate_double_pendulum(void) {
  const double h = 1e-4, T = 10.0;
  lk_model *m = lk_model_new();
  lk_error e;
  lk_link_spec a, b;
  lk_link_spec_default(&a);
  a.name = "upper";
  a.joint.type = LK_JOINT_REVOLUTE;
  a.joint.axis = lk_v3(0, 1, 0);
  a.mass = 1.0;
  a.com = lk_v3(0, 0, -0.5);
  a.inertia = lk_inertia_solid_cylinder(1.0, 0.01, 0.5);
  b = a;
  b.name = "lower";
  b.parent = "upper";
  b.origin.p = lk_v3(0, 0, -1);
  lk_options o;
  lk_options_default(&o);
  o.timestep = h;
  o.integrator = LK_INTEGRATOR_RK4;
  if (check(lk_model_add_link(m, &a, &e), &e, "add link") ||
      check(lk_model_add_link(m, &b, &e), &e, "add link") ||
      check(lk_model_set_options(m, &o, &e), &e, "options") ||
      check(lk_model_finalize(m, &e), &e, "finalize"))
    return 1;
  lk_data *d = lk_data_new(m);
  double rest, t, v;
  lk_energy_potential(m, d, &rest);
  lk_data_q(d)[0] = 2.0;
  lk_data_q(d)[1] = -1.0;
  lk_energy_kinetic(m, d, &t);
  lk_energy_potential(m, d, &v);
  double e0 = t + v, drift = 0, start = seconds();
  long steps = 0, flips = 0;
  double prev = lk_data_q(d)[1];
  while (lk_data_time(d) < T - h / 2) {
    if (check(lk_step(m, d), NULL, "step")) return 1;
    steps++;
    double q2 = lk_data_q(d)[1];
    /* The lower link passing straight up (q2 through an odd multiple of pi). */
    if (floor((prev + LK_PI) / (2 * LK_PI)) != floor((q2 + LK_PI) / (2 * LK_PI))) flips++;
    prev = q2;
    if (steps % 1000 == 0) {
      lk_energy_kinetic(m, d, &t);
      lk_energy_potential(m, d, &v);
      drift = fmax(drift, fabs(t + v - e0));
    }
  }
  double wall = seconds() - start;
  /* After a step the poses describe its start: refresh them first. */
  lk_forward_kinematics(m, d);
  lk_vec3 tip = lk_data_point_position(d, 2, lk_v3(0, 0, -1));
  printf("double pendulum (two 1 m, 1 kg rods), released at (2.0, -1.0) rad, RK4, h = %g s\n", h);
  printf("  simulated %.3f s in %ld steps (%.1f ms wall, %.2f us/step)\n", lk_data_time(d), steps,
         1e3 * wall, 1e6 * wall / (double)steps);
  printf("  final angles         %.6f, %.6f rad; tip at (%.4f, %.4f) m\n", lk_data_q(d)[0],
         lk_data_q(d)[1], tip.x, tip.z);
  printf("  lower link flipped   %ld times (chaotic motion)\n", flips);
  printf("  max energy error     %.2e J of %.4f J (relative %.1e)\n", drift, e0 - rest,
         drift / (e0 - rest));
  lk_data_free(d);
  lk_model_free(m);
  return 0;
}

int main(void) {
  printf("Linkage demo: pendulums\n\n");
  if (simulate_pendulum(0.1) || simulate_pendulum(2.5) || simulate_double_pendulum()) return 1;
  return 0;
}
