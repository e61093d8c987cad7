/* Compliant contact (lib/sim/compliant.c): the force laws on their own and
 * in scenes: a tangential load ramp on a sphere pressed on a plane, the
 * /static break-away, history rotation, Hertz impact duration, and a pile
 * of 500 spheres settling without energy gain. */
#include <stdlib.h>
#include <string.h>

#include "data/data_impl.h"
#include "harness.h"
#include "linkage/linkage.h"
#include "sim/compliant.h"

/* ---------------------------------------------------------- the laws */

/* A contact that sticks with accumulated slip xi along x, then the normal
 * turns by 30 degrees: xi is moved into the new tangent plane with its
 * length kept, and the force is -k_t xi (no slip this step). */
static void test_history_rotation(void) {
  lk_compliant_params p = {LK_NORMAL_HOOKE, LK_TANGENTIAL_LINEAR_HISTORY, 1e4, 0, 2e3, 0,
                           0.5, 0.5, 0.05};
  double hist[4] = {0, 0, 0, 0};
  lk_friction_state s = LK_FRICTION_STATIC;
  double fn;
  lk_vec3 ft;
  /* Slide 1 mm along x in ten steps at 1 mm/s... */
  for (int i = 0; i < 10; i++)
    lk_compliant_law(&p, lk_v3(0, 0, 1), 1e-3, lk_v3(0.1, 0, 0), 1e-3, hist, &s, &fn, &ft);
  LK_ASSERT_NEAR(fn, 10, 1e-12);
  LK_ASSERT_NEAR(hist[0], 1e-3, 1e-15);
  LK_ASSERT_NEAR(ft.x, -2, 1e-12); /* k_t xi = 2 N < mu F_n = 5 N */
  double len = sqrt(hist[0] * hist[0] + hist[1] * hist[1] + hist[2] * hist[2]);
  for (int k = 1; k <= 6; k++) {
    double th = k * M_PI / 36; /* tumbling 5 degrees a step about y */
    lk_vec3 n = lk_v3(sin(th), 0.3 * sin(th), cos(th));
    n = lk_v3_normalize(n);
    lk_compliant_law(&p, n, 1e-3, lk_v3_zero(), 1e-3, hist, &s, &fn, &ft);
    lk_vec3 xi = lk_v3(hist[0], hist[1], hist[2]);
    LK_ASSERT_NEAR(lk_v3_dot(xi, n), 0, 1e-18);
    LK_ASSERT_NEAR(lk_v3_norm(xi), len, 1e-15);
    LK_ASSERT_NEAR(lk_v3_dot(ft, n), 0, 1e-12);
    LK_ASSERT_NEAR(lk_v3_norm(ft), 2, 1e-12);
  }
}

/* Truncation: a slip that asks for more than mu F_n gets mu F_n, and the
 * history is rescaled so that k_t |xi| = mu F_n (no damping here); the
 * no-history model is viscous, capped; mindlin's stiffness is k_t a. */
static void test_truncation_and_models(void) {
  lk_compliant_params p = {LK_NORMAL_HOOKE, LK_TANGENTIAL_LINEAR_HISTORY, 1e4, 0, 2e3, 0,
                           0.5, 0.5, 0.05};
  double hist[4] = {0, 0, 0, 0};
  lk_friction_state s = LK_FRICTION_STATIC;
  double fn;
  lk_vec3 ft;
  lk_compliant_law(&p, lk_v3(0, 0, 1), 1e-3, lk_v3(0, 10, 0), 1e-3, hist, &s, &fn, &ft);
  LK_ASSERT_NEAR(ft.y, -5, 1e-12);
  LK_ASSERT_NEAR(hist[1] * 2e3, 5, 1e-12);
  /* linear_nohistory: -min(mu F_n, eta_t |v_t|). */
  lk_compliant_params q = p;
  q.tangential = LK_TANGENTIAL_LINEAR_NOHISTORY;
  q.eta_n = 10;
  q.x_gamma_t = 0.5;
  double h2[4] = {0, 0, 0, 0};
  lk_compliant_law(&q, lk_v3(0, 0, 1), 1e-3, lk_v3(0.2, 0, 0), 1e-3, h2, &s, &fn, &ft);
  LK_ASSERT_NEAR(fn, 10, 1e-12); /* v_n = 0: no normal damping */
  LK_ASSERT_NEAR(ft.x, -1, 1e-12); /* eta_t v = 5 * 0.2 */
  lk_compliant_law(&q, lk_v3(0, 0, 1), 1e-3, lk_v3(3, 0, 0), 1e-3, h2, &s, &fn, &ft);
  LK_ASSERT_NEAR(ft.x, -5, 1e-12); /* capped */
  /* Normal damping: F_n = k delta - eta v_n, never pulling. */
  lk_compliant_law(&q, lk_v3(0, 0, 1), 1e-3, lk_v3(0, 0, -0.5), 1e-3, h2, &s, &fn, &ft);
  LK_ASSERT_NEAR(fn, 15, 1e-12);
  lk_compliant_law(&q, lk_v3(0, 0, 1), 1e-3, lk_v3(0, 0, 2), 1e-3, h2, &s, &fn, &ft);
  LK_ASSERT_NEAR(fn, 0, 0);
  /* mindlin: stiffness k_t a, a = sqrt(R delta); hertz: F_n = k_n a delta. */
  lk_compliant_params r = {LK_NORMAL_HERTZ, LK_TANGENTIAL_MINDLIN, 1e8, 0, 1e7, 0, 0.5, 0.5, 0.04};
  double h3[4] = {0, 0, 0, 0};
  double delta = 1e-4, a = sqrt(0.04 * delta);
  lk_compliant_law(&r, lk_v3(0, 0, 1), delta, lk_v3(1e-3, 0, 0), 1e-3, h3, &s, &fn, &ft);
  LK_ASSERT_NEAR(fn, 1e8 * a * delta, 1e-9);
  LK_ASSERT_NEAR(ft.x, -1e7 * a * 1e-6, 1e-12);
  /* mindlin/force: the same first step, the history being the force. */
  r.tangential = LK_TANGENTIAL_MINDLIN_FORCE;
  double h4[4] = {0, 0, 0, 0};
  lk_compliant_law(&r, lk_v3(0, 0, 1), delta, lk_v3(1e-3, 0, 0), 1e-3, h4, &s, &fn, &ft);
  LK_ASSERT_NEAR(ft.x, -1e7 * a * 1e-6, 1e-12);
  LK_ASSERT_NEAR(h4[0], ft.x, 1e-15);
  /* Energy of the normal laws. */
  LK_ASSERT_NEAR(lk_compliant_normal_energy(&p, 1e-3), 0.5 * 1e4 * 1e-6, 1e-15);
  LK_ASSERT_NEAR(lk_compliant_normal_energy(&r, delta), 0.4 * 1e8 * 0.2 * pow(delta, 2.5), 1e-15);
}

/* ------------------------------------------------------------ scenes */

/* A sphere (r 0.05, 1 kg) on a prismatic z joint below a 1 kg carriage on a
 * prismatic x joint, on the world plane; both compliant; an effort ramp on
 * the carriage from t0 at `rate` N/s. */
static lk_model *slider(lk_tangential_model tm, double mu_s, double mu_d, double t0, double rate,
                        double t1) {
  lk_model *m = lk_model_new();
  lk_options o;
  lk_options_default(&o);
  o.timestep = 1e-4;
  lk_model_set_options(m, &o, NULL);
  lk_material_spec mat;
  lk_material_spec_default(&mat);
  mat.name = "grain";
  mat.mu_static = mu_s;
  mat.mu_dynamic = mu_d;
  mat.contact = LK_CONTACT_COMPLIANT;
  mat.normal = LK_NORMAL_HOOKE;
  mat.k_n = 1e5;
  mat.damping = 120;
  mat.tangential = tm;
  mat.k_t = 2e4;
  mat.x_gamma_t = 0.5;
  lk_model_add_material(m, &mat, NULL);
  lk_link_spec c;
  lk_link_spec_default(&c);
  c.name = "carriage";
  c.joint.type = LK_JOINT_PRISMATIC;
  c.joint.axis = lk_v3(1, 0, 0);
  c.mass = 1;
  c.inertia = lk_m3_diag(0.01, 0.01, 0.01);
  lk_model_add_link(m, &c, NULL);
  lk_link_spec b = c;
  b.name = "ball";
  b.parent = "carriage";
  b.joint.axis = lk_v3(0, 0, 1);
  b.origin.p = lk_v3(0, 0, 0.05);
  lk_model_add_link(m, &b, NULL);
  lk_geom_spec g;
  lk_geom_spec_default(&g);
  g.link = "ball";
  g.type = LK_GEOM_SPHERE;
  g.size[0] = 0.05;
  g.material = "grain";
  lk_model_add_geom(m, &g, NULL);
  lk_geom_spec p;
  lk_geom_spec_default(&p);
  p.type = LK_GEOM_PLANE;
  p.material = "grain";
  lk_model_add_geom(m, &p, NULL);
  lk_actuator_spec a;
  lk_actuator_spec_default(&a);
  a.name = "pull";
  a.joint = "carriage";
  double ts[2] = {t0, t1}, fs[2] = {0, rate * (t1 - t0)};
  a.schedule_t = ts;
  a.schedule_effort = fs;
  a.nschedule = 2;
  lk_model_add_actuator(m, &a, NULL);
  lk_error e;
  if (lk_model_finalize(m, &e)) lk_test_fail(__LINE__, __FILE__, "%s", e.message);
  return m;
}

/* F_n = m g = 9.81 N. The ramp (2 N/s after 0.3 s of settling) is pulled
 * through the sticking spring: F_t = k_t xi with xi the carriage's
 * displacement, until mu F_n = 4.905 N, then it slides at mu F_n. */
static void test_tangential_ramp(void) {
  const double t0 = 0.3, rate = 2, Fn = 9.81, mu = 0.5;
  lk_model *m = slider(LK_TANGENTIAL_LINEAR_HISTORY, mu, mu, t0, rate, 10);
  lk_data *d = lk_data_new(m);
  double x0 = 0;
  int checked_stick = 0, checked_slide = 0;
  for (int i = 1; i <= 37000; i++) {
    CU_ASSERT_EQUAL_FATAL(lk_step(m, d), LK_OK);
    double t = lk_data_time(d), F = t > t0 ? rate * (t - t0) : 0;
    if (i == 3000) x0 = lk_data_q(d)[0];
    if (lk_data_ncontacts(d) != 1) continue;
    const lk_contact_report *c = lk_data_contact_report(d, 0);
    if (i % 500 == 0 && t > t0 + 0.1 && F < 0.9 * mu * Fn) {
      /* Sticking: the friction balances the pull and k_t xi = F_t. */
      LK_ASSERT_NEAR(c->fn, Fn, 2e-3 * Fn);
      LK_ASSERT_NEAR(-c->ft.x, F, 0.01 + 0.005 * F);
      double xi = lk_data_q(d)[0] - x0;
      LK_ASSERT_NEAR(2e4 * xi, -c->ft.x, 0.01 + 0.01 * F);
      CU_ASSERT(c->slip_speed < 1e-2);
      checked_stick++;
    }
    if (i % 500 == 0 && F > 1.2 * mu * Fn) {
      /* Sliding at mu F_n exactly (the truncated trial force). */
      LK_ASSERT_NEAR(-c->ft.x, mu * c->fn, 1e-9);
      LK_ASSERT_NEAR(c->fn, Fn, 1e-2 * Fn);
      CU_ASSERT(c->slip_speed > 1e-2);
      checked_slide++;
    }
  }
  CU_ASSERT(checked_stick >= 6);
  CU_ASSERT(checked_slide >= 3);
  lk_data_free(d);
  lk_model_free(m);
}

/* The /static variant breaks away at mu_s F_n and slides at mu_d F_n. */
static void test_static_variant(void) {
  const double t0 = 0.3, rate = 2, Fn = 9.81, mus = 0.6, mud = 0.4;
  lk_model *m = slider(LK_TANGENTIAL_LINEAR_HISTORY_STATIC, mus, mud, t0, rate, 10);
  CU_ASSERT_EQUAL(lk_model_nwarnings(m), 0);
  lk_data *d = lk_data_new(m);
  double fpeak = 0, t_break = -1;
  int slides = 0;
  for (int i = 1; i <= 45000; i++) {
    CU_ASSERT_EQUAL_FATAL(lk_step(m, d), LK_OK);
    double t = lk_data_time(d);
    if (lk_data_ncontacts(d) != 1) continue;
    const lk_contact_report *c = lk_data_contact_report(d, 0);
    double f = lk_v3_norm(c->ft);
    if (f > fpeak) fpeak = f;
    if (t_break < 0 && c->state == LK_FRICTION_DYNAMIC) t_break = t;
    if (t_break > 0 && t > t_break + 0.2 && i % 500 == 0) {
      CU_ASSERT_EQUAL(c->state, LK_FRICTION_DYNAMIC);
      LK_ASSERT_NEAR(f, mud * c->fn, 1e-9);
      slides++;
    }
  }
  LK_ASSERT_REL(fpeak, mus * Fn, 0.01, 0);
  CU_ASSERT(t_break > 0);
  /* It broke away when the pull reached mu_s F_n. */
  LK_ASSERT_REL(rate * (t_break - t0), mus * Fn, 0.01, 0);
  CU_ASSERT(slides >= 3);
  lk_data_free(d);
  lk_model_free(m);
}

/* Hertz impact: a 1 kg sphere (R 0.05) meets the plane at v0 = 1 m/s, no
 * gravity, no damping. With F = K delta^1.5, K = k_n sqrt(R), the
 * contact lasts t_c = 2 (delta_max / v0) Gamma(7/5) Gamma(1/2) / Gamma(9/10)
 * with delta_max = (5 m v0^2 / (4 K))^(2/5). */
static void test_hertz_impact(void) {
  lk_model *m = lk_model_new();
  lk_options o;
  lk_options_default(&o);
  o.timestep = 2e-6;
  o.gravity = lk_v3_zero();
  lk_model_set_options(m, &o, NULL);
  lk_material_spec mat;
  lk_material_spec_default(&mat);
  mat.name = "steel";
  mat.contact = LK_CONTACT_COMPLIANT;
  mat.normal = LK_NORMAL_HERTZ;
  mat.k_n = 1e9;
  mat.tangential = LK_TANGENTIAL_LINEAR_NOHISTORY;
  lk_model_add_material(m, &mat, NULL);
  lk_link_spec b;
  lk_link_spec_default(&b);
  b.name = "ball";
  b.joint.type = LK_JOINT_PRISMATIC;
  b.joint.axis = lk_v3(0, 0, 1);
  b.mass = 1;
  b.inertia = lk_m3_diag(1e-3, 1e-3, 1e-3);
  b.origin.p = lk_v3(0, 0, 0.05 + 1e-5);
  lk_model_add_link(m, &b, NULL);
  lk_geom_spec g;
  lk_geom_spec_default(&g);
  g.link = "ball";
  g.size[0] = 0.05;
  g.material = "steel";
  g.collide_parent = 1; /* its parent is the world */
  lk_model_add_geom(m, &g, NULL);
  lk_geom_spec p;
  lk_geom_spec_default(&p);
  p.type = LK_GEOM_PLANE;
  p.material = "steel";
  lk_model_add_geom(m, &p, NULL);
  double v0 = -1; /* towards the plane */
  lk_model_set_initial(m, "ball", NULL, 0, &v0, 1, NULL);
  CU_ASSERT_EQUAL_FATAL(lk_model_finalize(m, NULL), LK_OK);
  lk_data *d = lk_data_new(m);
  int in_contact = 0, started = 0, ended = 0;
  for (int i = 0; i < 3000 && !ended; i++) {
    CU_ASSERT_EQUAL_FATAL(lk_step(m, d), LK_OK);
    int touching = lk_data_ncontacts(d) == 1 && lk_data_contact_report(d, 0)->fn > 0;
    if (touching) {
      started = 1;
      in_contact++;
    } else if (started) {
      ended = 1;
    }
  }
  CU_ASSERT(ended);
  double K = 1e9 * sqrt(0.05);
  double dmax = pow(5 * 1.0 * 1.0 / (4 * K), 0.4);
  double tc = 2 * dmax / 1.0 * tgamma(1.4) * tgamma(0.5) / tgamma(0.9);
  LK_ASSERT_REL(in_contact * o.timestep, tc, 0.02, 0);
  /* Elastic: it leaves at the speed it came. */
  LK_ASSERT_REL(lk_data_v(d)[0], 1.0, 0.01, 0);
  lk_data_free(d);
  lk_model_free(m);
}

/* 500 spheres (r 2 cm, 84 g) dropped in a box on a floor, all compliant
 * (hooke, damped, linear_history friction). The total energy, kinetic +
 * gravitational + the normal and tangential springs', never rises above
 * its starting value, and the pile comes to rest. */
#define NSPH 500
static void test_pile_settles(void) {
  const double r = 0.02, k_n = 2e4, k_t = 2e4 * 2.0 / 7.0;
  lk_model *m = lk_model_new();
  lk_options o;
  lk_options_default(&o);
  o.timestep = 2e-4;
  lk_model_set_options(m, &o, NULL);
  lk_material_spec mat;
  lk_material_spec_default(&mat);
  mat.name = "grain";
  mat.contact = LK_CONTACT_COMPLIANT;
  mat.k_n = k_n;
  mat.damping = 8;
  mat.tangential = LK_TANGENTIAL_LINEAR_HISTORY;
  mat.k_t = k_t;
  mat.x_gamma_t = 0.5;
  mat.mu_static = mat.mu_dynamic = 0.5;
  lk_model_add_material(m, &mat, NULL);
  /* Floor and four walls (a plane's normal is the +z of its pose). */
  lk_geom_spec p;
  lk_geom_spec_default(&p);
  p.type = LK_GEOM_PLANE;
  p.material = "grain";
  lk_model_add_geom(m, &p, NULL);
  const double half = 0.24;
  lk_vec3 nrm[4] = {lk_v3(1, 0, 0), lk_v3(-1, 0, 0), lk_v3(0, 1, 0), lk_v3(0, -1, 0)};
  for (int k = 0; k < 4; k++) {
    lk_vec3 ax = lk_v3_cross(lk_v3(0, 0, 1), nrm[k]);
    p.pose.R = lk_m3_from_axis_angle(lk_v3_normalize(ax), M_PI / 2);
    p.pose.p = lk_v3_scale(nrm[k], -half);
    lk_model_add_geom(m, &p, NULL);
  }
  unsigned long long seed = 12345;
  double mass = 4.0 / 3.0 * M_PI * r * r * r * 2500;
  char names[NSPH][16];
  for (int i = 0; i < NSPH; i++) {
    snprintf(names[i], sizeof names[i], "s%d", i);
    lk_link_spec b;
    lk_link_spec_default(&b);
    b.name = names[i];
    b.joint.type = LK_JOINT_FREE;
    b.mass = mass;
    b.inertia = lk_inertia_solid_sphere(mass, r);
    lk_model_add_link(m, &b, NULL);
    lk_geom_spec g;
    lk_geom_spec_default(&g);
    g.link = names[i];
    g.size[0] = r;
    g.material = "grain";
    lk_model_add_geom(m, &g, NULL);
    int ix = i % 10, iy = (i / 10) % 10, iz = i / 100;
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    double jx = ((seed >> 33) % 1000) / 1000.0 - 0.5;
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    double jy = ((seed >> 33) % 1000) / 1000.0 - 0.5;
    double q[7] = {(ix - 4.5) * 2.3 * r + 0.2 * r * jx, (iy - 4.5) * 2.3 * r + 0.2 * r * jy,
                   r * 1.05 + iz * 2.3 * r, 1, 0, 0, 0};
    lk_model_set_initial(m, names[i], q, 7, NULL, 0, NULL);
  }
  lk_error e;
  lk_status st = lk_model_finalize(m, &e);
  if (st) lk_test_fail(__LINE__, __FILE__, "%s", e.message);
  CU_ASSERT_EQUAL_FATAL(st, LK_OK);
  lk_data *d = lk_data_new(m);
  CU_ASSERT_PTR_NOT_NULL_FATAL(d);
  lk_compliant_params cp = {LK_NORMAL_HOOKE, LK_TANGENTIAL_LINEAR_HISTORY, k_n, 8, k_t, 0.5,
                            0.5, 0.5, r};
  double e0 = 0, emax = -INFINITY, ke = 0, e_end = 0;
  const int steps = 7500;
  for (int i = 0; i <= steps; i++) {
    if (i % 250 == 0) {
      double pe;
      lk_forward_kinematics(m, d);
      lk_energy_kinetic(m, d, &ke);
      lk_energy_potential(m, d, &pe);
      double el = 0;
      for (int c = 0; c < lk_data_ncontacts(d); c++) {
        const lk_contact_report *cr = lk_data_contact_report(d, c);
        const double *hh = d->sim.cmem[c].hist;
        el += lk_compliant_normal_energy(&cp, cr->depth);
        el += 0.5 * k_t * (hh[0] * hh[0] + hh[1] * hh[1] + hh[2] * hh[2]);
      }
      double E = ke + pe + el;
      if (i == 0) e0 = E;
      if (E > emax) emax = E;
      e_end = E;
    }
    if (i < steps) {
      st = lk_step(m, d);
      if (st) {
        lk_test_fail(__LINE__, __FILE__, "step %d: %s", i, lk_strerror(st));
        break;
      }
    }
  }
  double drop = e0 - e_end; /* energy the pile lost settling */
  CU_ASSERT(drop > 0);
  /* Never above the start (a thousandth of what is dissipated as slack). */
  CU_ASSERT(emax <= e0 + 1e-3 * drop);
  if (getenv("LK_VERBOSE") || !(emax <= e0 + 1e-3 * drop)) fprintf(stderr, "e0 %g emax %g drop %g\n", e0, emax, drop);
  /* At rest: the kinetic energy left is a small part of what was lost. */
  CU_ASSERT(ke < 1e-3 * drop);
  if (getenv("LK_VERBOSE") || !(ke < 1e-3 * drop)) fprintf(stderr, "ke %g drop %g\n", ke, drop);
  lk_data_free(d);
  lk_model_free(m);
}

void lk_test_register(void) {
  static const lk_test laws[] = {{"history rotation keeps xi in the tangent plane",
                                  test_history_rotation},
                                 {"truncation and the other models", test_truncation_and_models},
                                 {NULL, NULL}};
  static const lk_test scenes[] = {{"tangential ramp: k_t xi until mu F_n", test_tangential_ramp},
                                   {"/static breaks away at mu_s, slides at mu_d",
                                    test_static_variant},
                                   {"Hertz impact duration", test_hertz_impact},
                                   {"500-sphere pile settles", test_pile_settles},
                                   {NULL, NULL}};
  lk_test_suite("compliant: force laws", laws);
  lk_test_suite("compliant: scenes", scenes);
}
