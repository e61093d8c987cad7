/* The quasi-static analysis with frictional supports (linkage/statics.h).
 *
 * The piping verification case (1-DoF bounded sliding friction support):
 * a member of axial stiffness k = 100 N/mm, one end fixed, the other on a
 * support with mu = 0.25 and a given normal reaction N = 12 N, pushed
 * axially. Friction capacity mu N = 3 N. Pushed with 8 N it slides until
 * k u = 8 - 3, u = 0.05 mm, reaction -3 N; with 2.9 N it sticks at u = 0
 * with reaction -2.9 N; released (no friction) it would go to 0.08 mm. */
#include <math.h>
#include <string.h>

#include "harness.h"
#include "linkage/linkage.h"

#define K_AXIAL 1e5 /* 100 N/mm in N/m */

/* The member: a prismatic joint "axial" along x with stiffness k, pushed
 * by a load of `push` N along +x, on a joint support N = 12, mu 0.25. */
static lk_model *member(double push, double N, double mu_s, double mu_d) {
  lk_model *m = lk_model_new();
  lk_link_spec l;
  lk_link_spec_default(&l);
  l.name = "member";
  l.joint.name = "axial";
  l.joint.type = LK_JOINT_PRISMATIC;
  l.joint.axis = lk_v3(1, 0, 0);
  l.joint.stiffness = K_AXIAL;
  l.mass = 1;
  l.inertia = lk_m3_diag(0.01, 0.01, 0.01);
  CU_ASSERT_EQUAL_FATAL(lk_model_add_link(m, &l, NULL), LK_OK);
  lk_load_spec f;
  lk_load_spec_default(&f);
  f.link = "member";
  f.force = lk_v3(push, 0, 0);
  CU_ASSERT_EQUAL_FATAL(lk_model_add_load(m, &f, NULL), LK_OK);
  lk_support_spec s;
  lk_support_spec_default(&s);
  s.name = "rail";
  s.joint = "axial";
  s.normal_force = N;
  s.mu_static = mu_s;
  s.mu_dynamic = mu_d;
  CU_ASSERT_EQUAL_FATAL(lk_model_add_support(m, &s, NULL), LK_OK);
  lk_error e;
  CU_ASSERT_EQUAL_FATAL(lk_model_finalize(m, &e), LK_OK);
  return m;
}

typedef struct {
  double u, reaction;
  lk_friction_state state;
  lk_static_report rep;
  lk_status st;
} result;

static result solve(lk_model *m, lk_friction_state start, int nsteps) {
  lk_data *d = lk_data_new(m);
  lk_static_options o;
  lk_static_options_default(&o);
  o.initial_state = start;
  o.nsteps = nsteps;
  result r;
  memset(&r, 0, sizeof r);
  r.st = lk_static_solve(m, d, &o, NULL, NULL, NULL);
  r.u = lk_data_q(d)[0];
  lk_support_report s;
  CU_ASSERT_EQUAL(lk_data_support_report(m, d, 0, &s), LK_OK);
  r.reaction = s.reaction;
  r.state = s.state;
  r.rep = *lk_data_static_report(d);
  double du[1];
  lk_data_static_displacement(m, d, du);
  LK_ASSERT_NEAR(du[0], r.u, 1e-18);
  lk_data_free(d);
  return r;
}

static void test_pipe_slides(void) {
  lk_model *m = member(8, 12, 0.25, 0.25);
  result r = solve(m, LK_FRICTION_DYNAMIC, 1);
  CU_ASSERT_EQUAL(r.st, LK_OK);
  LK_ASSERT_NEAR(r.u * 1e3, 0.05, 1e-12); /* mm */
  LK_ASSERT_NEAR(r.reaction, -3.0, 1e-12);
  CU_ASSERT_EQUAL(r.state, LK_FRICTION_DYNAMIC);
  CU_ASSERT(r.rep.converged);
  LK_ASSERT_NEAR(r.rep.out_of_balance, 0, 1e-9);
  CU_ASSERT_EQUAL(r.rep.nsliding, 1);
  /* Not the released answer F / k = 0.08 mm. */
  CU_ASSERT(fabs(r.u * 1e3 - 0.08) > 0.01);
  lk_model_free(m);
}

static void test_pipe_from_sticking_start(void) {
  lk_model *m = member(8, 12, 0.25, 0.25);
  result r = solve(m, LK_FRICTION_STATIC, 1);
  CU_ASSERT_EQUAL(r.st, LK_OK);
  LK_ASSERT_NEAR(r.u * 1e3, 0.05, 1e-12);
  LK_ASSERT_NEAR(r.reaction, -3.0, 1e-12);
  CU_ASSERT_EQUAL(r.state, LK_FRICTION_DYNAMIC);
  CU_ASSERT(r.rep.converged);
  LK_ASSERT_NEAR(r.rep.out_of_balance, 0, 1e-9);
  /* It started sticking and had to change state once: two solves. */
  CU_ASSERT_EQUAL(r.rep.state_changes, 1);
  CU_ASSERT_EQUAL(r.rep.iterations, 2);
  lk_model_free(m);
}

static void test_pipe_sticks(void) {
  lk_model *m = member(2.9, 12, 0.25, 0.25);
  result r = solve(m, LK_FRICTION_STATIC, 1);
  CU_ASSERT_EQUAL(r.st, LK_OK);
  LK_ASSERT_NEAR(r.u, 0, 1e-18);
  LK_ASSERT_NEAR(r.reaction, -2.9, 1e-12);
  CU_ASSERT_EQUAL(r.state, LK_FRICTION_STATIC);
  CU_ASSERT(r.rep.converged);
  CU_ASSERT_EQUAL(r.rep.state_changes, 0);
  LK_ASSERT_NEAR(r.rep.out_of_balance, 0, 1e-9);
  /* From a sliding start it comes back to sticking, same answer. */
  result s = solve(m, LK_FRICTION_DYNAMIC, 1);
  LK_ASSERT_NEAR(s.u, 0, 1e-18);
  LK_ASSERT_NEAR(s.reaction, -2.9, 1e-12);
  CU_ASSERT_EQUAL(s.state, LK_FRICTION_STATIC);
  CU_ASSERT_EQUAL(s.rep.state_changes, 1);
  lk_model_free(m);
}

/* The other reference variants: F = 3 (the boundary) and F = 2 stick,
 * F = -8 slides the other way. */
static void test_pipe_variants(void) {
  double F[3] = {3, 2, -8}, u[3] = {0, 0, -5e-5}, R[3] = {-3, -2, 3};
  for (int k = 0; k < 3; k++) {
    lk_model *m = member(F[k], 12, 0.25, 0.25);
    result r = solve(m, LK_FRICTION_STATIC, 1);
    CU_ASSERT_EQUAL(r.st, LK_OK);
    LK_ASSERT_NEAR(r.u, u[k], 1e-17);
    LK_ASSERT_NEAR(r.reaction, R[k], 1e-12);
    CU_ASSERT(r.rep.converged);
    lk_model_free(m);
  }
}

/* Four increments to 8 N: 2 N sticks; 4, 6, 8 N slide with k u = F - 3. */
typedef struct {
  int n;
  double u[8], reaction[8];
  int state[8];
} history;

static int record(void *ctx, const lk_model *m, const lk_data *d, const lk_static_report *r) {
  history *h = ctx;
  lk_support_report s;
  lk_data_support_report(m, d, 0, &s);
  h->u[h->n] = lk_data_q((lk_data *)d)[0];
  h->reaction[h->n] = s.reaction;
  h->state[h->n] = s.state;
  CU_ASSERT(r->converged);
  CU_ASSERT_EQUAL(r->increment, h->n);
  h->n++;
  return 0;
}

static void test_pipe_increments(void) {
  lk_model *m = member(8, 12, 0.25, 0.25);
  lk_data *d = lk_data_new(m);
  lk_static_options o;
  lk_static_options_default(&o);
  o.nsteps = 4;
  history h;
  memset(&h, 0, sizeof h);
  CU_ASSERT_EQUAL(lk_static_solve(m, d, &o, record, &h, NULL), LK_OK);
  CU_ASSERT_EQUAL(h.n, 4);
  double u[4] = {0, 1e-5, 3e-5, 5e-5}, R[4] = {-2, -3, -3, -3};
  int s[4] = {LK_FRICTION_STATIC, LK_FRICTION_DYNAMIC, LK_FRICTION_DYNAMIC, LK_FRICTION_DYNAMIC};
  for (int k = 0; k < 4; k++) {
    LK_ASSERT_NEAR(h.u[k], u[k], 1e-17);
    LK_ASSERT_NEAR(h.reaction[k], R[k], 1e-12);
    CU_ASSERT_EQUAL(h.state[k], s[k]);
  }
  lk_data_free(d);
  lk_model_free(m);
}

/* Static above dynamic: a 2.9 N push sticks (mu_s N = 3.6 with mu_s 0.3);
 * once sliding at mu_d = 0.25 (a sliding start) it stays sliding? No: a
 * sliding support whose slip stops sticks again, so from either start the
 * answer is the sticking one, u = 0. A 4 N push breaks mu_s N = 3.6 and
 * then slides against mu_d N = 3: u = (4 - 3)/k. */
static void test_static_dynamic_coefficients(void) {
  lk_model *m = member(4, 12, 0.3, 0.25);
  result r = solve(m, LK_FRICTION_STATIC, 1);
  CU_ASSERT_EQUAL(r.st, LK_OK);
  LK_ASSERT_NEAR(r.u, 1e-5, 1e-17);
  LK_ASSERT_NEAR(r.reaction, -3.0, 1e-12);
  CU_ASSERT_EQUAL(r.state, LK_FRICTION_DYNAMIC);
  lk_model_free(m);
  m = member(3.5, 12, 0.3, 0.25);
  r = solve(m, LK_FRICTION_STATIC, 1);
  LK_ASSERT_NEAR(r.u, 0, 1e-18);
  LK_ASSERT_NEAR(r.reaction, -3.5, 1e-12);
  CU_ASSERT_EQUAL(r.state, LK_FRICTION_STATIC);
  lk_model_free(m);
}

/* A point support: a body on two springs (x, y; k each) resting on a point
 * support of normal z, pushed with (6, 8) N (10 N against mu N = 3). The
 * isotropic friction opposes the slip: f = -3 (0.6, 0.8), u = (F + f)/k
 * = (4.2, 5.6) 1e-5 m. (A box on the two tangents would give (3, 5) 1e-5.) */
static lk_model *planar(lk_vec3 push, int geometry) {
  lk_model *m = lk_model_new();
  lk_link_spec a;
  lk_link_spec_default(&a);
  a.name = "sx";
  a.joint.type = LK_JOINT_PRISMATIC;
  a.joint.axis = lk_v3(1, 0, 0);
  a.joint.stiffness = K_AXIAL;
  a.mass = 1;
  a.inertia = lk_m3_diag(0.01, 0.01, 0.01);
  lk_model_add_link(m, &a, NULL);
  lk_link_spec b = a;
  b.name = "body";
  b.parent = "sx";
  b.joint.axis = geometry ? lk_v3(0, 0, 1) : lk_v3(0, 1, 0);
  lk_model_add_link(m, &b, NULL);
  if (geometry) {
    lk_link_spec c = a;
    c.name = "sy";
    c.parent = "body";
    c.joint.axis = lk_v3(0, 1, 0);
    lk_model_add_link(m, &c, NULL);
  }
  lk_load_spec f;
  lk_load_spec_default(&f);
  f.link = geometry ? "sy" : "body";
  f.force = push;
  lk_model_add_load(m, &f, NULL);
  if (geometry) {
    /* A sphere touching the world plane, pressed down by 12 N: the
     * contact's normal force is 12 N, mu 0.25. */
    lk_material_spec mat;
    lk_material_spec_default(&mat);
    mat.name = "steel";
    mat.mu_static = mat.mu_dynamic = 0.25;
    lk_model_add_material(m, &mat, NULL);
    lk_geom_spec g;
    lk_geom_spec_default(&g);
    g.link = "sy";
    g.type = LK_GEOM_SPHERE;
    g.size[0] = 0.05;
    g.pose.p = lk_v3(0, 0, 0.05);
    g.material = "steel";
    g.margin = 1e-3;
    lk_model_add_geom(m, &g, NULL);
    lk_geom_spec p;
    lk_geom_spec_default(&p);
    p.type = LK_GEOM_PLANE;
    p.material = "steel";
    lk_model_add_geom(m, &p, NULL);
  } else {
    lk_support_spec s;
    lk_support_spec_default(&s);
    s.link = "body";
    s.normal = lk_v3(0, 0, 1);
    s.normal_force = 12;
    s.mu_static = s.mu_dynamic = 0.25;
    lk_model_add_support(m, &s, NULL);
  }
  lk_error e;
  lk_status st = lk_model_finalize(m, &e);
  if (st) lk_test_fail(__LINE__, __FILE__, "%s", e.message);
  return m;
}

static void test_point_support_isotropic(void) {
  lk_model *m = planar(lk_v3(6, 8, 0), 0);
  lk_data *d = lk_data_new(m);
  CU_ASSERT_EQUAL(lk_static_solve(m, d, NULL, NULL, NULL, NULL), LK_OK);
  const double *q = lk_data_q(d);
  LK_ASSERT_NEAR(q[0], 4.2e-5, 1e-15);
  LK_ASSERT_NEAR(q[1], 5.6e-5, 1e-15);
  lk_support_report s;
  lk_data_support_report(m, d, 0, &s);
  LK_ASSERT_NEAR(s.force.x, -1.8, 1e-9);
  LK_ASSERT_NEAR(s.force.y, -2.4, 1e-9);
  CU_ASSERT_EQUAL(s.state, LK_FRICTION_DYNAMIC);
  const lk_static_report *r = lk_data_static_report(d);
  CU_ASSERT(r->converged);
  LK_ASSERT_NEAR(r->out_of_balance, 0, 1e-9);
  lk_data_free(d);
  lk_model_free(m);
}

/* The same member as a sphere on a spring carriage (x, z, y) pressed onto
 * the world plane by 12 N: a geometry contact, whose normal force comes out
 * of the LCP (12 N), gives the piping numbers along x. */
static void test_geometry_contact(void) {
  lk_model *m = planar(lk_v3(8, 0, -12), 1);
  lk_data *d = lk_data_new(m);
  lk_static_options o;
  lk_static_options_default(&o);
  o.gravity = 0;
  lk_error e;
  lk_status st = lk_static_solve(m, d, &o, NULL, NULL, &e);
  CU_ASSERT_EQUAL(st, LK_OK);
  if (st) lk_test_fail(__LINE__, __FILE__, "%s", e.message);
  const double *q = lk_data_q(d);
  LK_ASSERT_NEAR(q[0], 5e-5, 1e-12);
  LK_ASSERT_NEAR(q[1], 0, 1e-12);
  LK_ASSERT_NEAR(q[2], 0, 1e-12);
  CU_ASSERT_EQUAL(lk_data_ncontacts(d), 1);
  const lk_contact_report *c = lk_data_contact_report(d, 0);
  LK_ASSERT_NEAR(c->fn, 12, 1e-7);
  LK_ASSERT_NEAR(c->ft.x, -3, 1e-7);
  CU_ASSERT_EQUAL(c->state, LK_FRICTION_DYNAMIC);
  lk_data_free(d);
  lk_model_free(m);
  /* 2.9 N sticks. */
  m = planar(lk_v3(2.9, 0, -12), 1);
  d = lk_data_new(m);
  CU_ASSERT_EQUAL(lk_static_solve(m, d, &o, NULL, NULL, NULL), LK_OK);
  LK_ASSERT_NEAR(lk_data_q(d)[0], 0, 1e-12);
  c = lk_data_contact_report(d, 0);
  LK_ASSERT_NEAR(c->ft.x, -2.9, 1e-7);
  CU_ASSERT_EQUAL(c->state, LK_FRICTION_STATIC);
  lk_data_free(d);
  lk_model_free(m);
}

static void test_validation(void) {
  lk_model *m = lk_model_new();
  lk_link_spec l;
  lk_link_spec_default(&l);
  l.name = "a";
  l.joint.type = LK_JOINT_BALL;
  l.mass = 1;
  l.inertia = lk_m3_diag(0.1, 0.1, 0.1);
  lk_model_add_link(m, &l, NULL);
  lk_support_spec s;
  lk_support_spec_default(&s);
  s.joint = "a";
  s.normal_force = 1;
  lk_model_add_support(m, &s, NULL);
  lk_error e;
  CU_ASSERT_EQUAL(lk_model_finalize(m, &e), LK_INVALID_MODEL);
  CU_ASSERT(strstr(e.message, "revolute or prismatic") != NULL);
  lk_model_free(m);
  /* Neither joint nor link. */
  m = lk_model_new();
  lk_model_add_link(m, &l, NULL);
  lk_support_spec_default(&s);
  lk_model_add_support(m, &s, NULL);
  CU_ASSERT_EQUAL(lk_model_finalize(m, &e), LK_INVALID_MODEL);
  CU_ASSERT(strstr(e.message, "neither") != NULL);
  lk_model_free(m);
  /* mu_dynamic above mu_static. */
  m = lk_model_new();
  lk_model_add_link(m, &l, NULL);
  lk_support_spec_default(&s);
  s.link = "a";
  s.mu_dynamic = 0.6;
  lk_model_add_support(m, &s, NULL);
  CU_ASSERT_EQUAL(lk_model_finalize(m, &e), LK_INVALID_MODEL);
  lk_model_free(m);
  /* No stiffness: singular, named. */
  m = lk_model_new();
  lk_model_add_link(m, &l, NULL);
  CU_ASSERT_EQUAL(lk_model_finalize(m, &e), LK_OK);
  lk_data *d = lk_data_new(m);
  CU_ASSERT_EQUAL(lk_static_solve(m, d, NULL, NULL, NULL, &e), LK_SINGULAR);
  CU_ASSERT(strstr(e.message, "'a'") != NULL);
  lk_data_free(d);
  lk_model_free(m);
}

/* In the time step a joint support is dry friction of mu_s N: 2.9 N holds
 * the member still, 8 N accelerates it at (8 - 3 - k x)/m. */
static void test_support_in_step(void) {
  lk_model *m = member(2.9, 12, 0.25, 0.25);
  lk_data *d = lk_data_new(m);
  for (int i = 0; i < 200; i++) CU_ASSERT_EQUAL_FATAL(lk_step(m, d), LK_OK);
  LK_ASSERT_NEAR(lk_data_q(d)[0], 0, 1e-12);
  lk_data_free(d);
  lk_model_free(m);
  m = member(8, 12, 0.25, 0.25);
  d = lk_data_new(m);
  CU_ASSERT_EQUAL(lk_step(m, d), LK_OK);
  LK_ASSERT_NEAR(lk_data_v(d)[0], 5.0 * 1e-3, 1e-12); /* (8 - 3) / 1 kg * h */
  lk_data_free(d);
  lk_model_free(m);
}

/* A plate on two prismatic springs (kx along x, ky along y) on a point
 * support (normal z, N, mu), pushed with F in the plane (issue 14.5). */
static lk_model *plate(double kx, double ky, double N, double mu, lk_vec3 F) {
  lk_model *m = lk_model_new();
  lk_link_spec a;
  lk_link_spec_default(&a);
  a.name = "carriage";
  a.joint.type = LK_JOINT_PRISMATIC;
  a.joint.axis = lk_v3(1, 0, 0);
  a.joint.stiffness = kx;
  a.mass = 1;
  a.inertia = lk_m3_diag(0.01, 0.01, 0.01);
  lk_model_add_link(m, &a, NULL);
  lk_link_spec b = a;
  b.name = "plate";
  b.parent = "carriage";
  b.joint.axis = lk_v3(0, 1, 0);
  b.joint.stiffness = ky;
  lk_model_add_link(m, &b, NULL);
  lk_load_spec f;
  lk_load_spec_default(&f);
  f.link = "plate";
  f.force = F;
  lk_model_add_load(m, &f, NULL);
  lk_support_spec s;
  lk_support_spec_default(&s);
  s.link = "plate";
  s.normal = lk_v3(0, 0, 1);
  s.normal_force = N;
  s.mu_static = s.mu_dynamic = mu;
  lk_model_add_support(m, &s, NULL);
  lk_error e;
  lk_status st = lk_model_finalize(m, &e);
  if (st) lk_test_fail(__LINE__, __FILE__, "%s", e.message);
  return m;
}

/* Springs of 250 N/m each, N 20, mu 0.3 (6 N), 15 N at 71 degrees, from
 * either start: the plate slips (15 - 6)/250 = 0.036 m along the push, in
 * a handful of iterations (the slip direction's secant; a fixed point
 * would gain a factor 6/9 an iteration, 70 of them). */
static void test_point_support_off_axis(void) {
  const double a = 71 * M_PI / 180, c = cos(a), sn = sin(a);
  lk_model *m = plate(250, 250, 20, 0.3, lk_v3(15 * c, 15 * sn, 0));
  for (int start = 0; start < 2; start++) {
    lk_data *d = lk_data_new(m);
    lk_static_options o;
    lk_static_options_default(&o);
    o.initial_state = start ? LK_FRICTION_DYNAMIC : LK_FRICTION_STATIC;
    CU_ASSERT_EQUAL(lk_static_solve(m, d, &o, NULL, NULL, NULL), LK_OK);
    const double *q = lk_data_q(d);
    LK_ASSERT_NEAR(q[0], 0.036 * c, 1e-15);
    LK_ASSERT_NEAR(q[1], 0.036 * sn, 1e-15);
    lk_support_report s;
    lk_data_support_report(m, d, 0, &s);
    LK_ASSERT_NEAR(s.force.x, -6 * c, 1e-12);
    LK_ASSERT_NEAR(s.force.y, -6 * sn, 1e-12);
    LK_ASSERT_NEAR(s.slip, 0.036, 1e-14);
    CU_ASSERT_EQUAL(s.state, LK_FRICTION_DYNAMIC);
    const lk_static_report *r = lk_data_static_report(d);
    CU_ASSERT(r->converged);
    if (!(r->iterations <= 8)) lk_test_fail(__LINE__, __FILE__, "%d iterations", r->iterations);
    lk_data_free(d);
  }
  lk_model_free(m);
}

/* Unequal springs (100 and 400 N/m; N 12, mu 0.25) pushed with (6, 3) N:
 * the friction is no longer along the push. Coulomb's law: 3 N exactly
 * against the slip, which balances the springs: F + f = K u. */
static void test_point_support_anisotropic(void) {
  lk_model *m = plate(100, 400, 12, 0.25, lk_v3(6, 3, 0));
  lk_data *d = lk_data_new(m);
  CU_ASSERT_EQUAL(lk_static_solve(m, d, NULL, NULL, NULL, NULL), LK_OK);
  const double *q = lk_data_q(d);
  lk_support_report s;
  lk_data_support_report(m, d, 0, &s);
  LK_ASSERT_NEAR(6 + s.force.x, 100 * q[0], 1e-12);
  LK_ASSERT_NEAR(3 + s.force.y, 400 * q[1], 1e-12);
  LK_ASSERT_NEAR(lk_v3_norm(s.force), 3, 1e-12);
  /* f antiparallel to the slip u: f x u = 0, f . u < 0 */
  LK_ASSERT_NEAR(s.force.x * q[1] - s.force.y * q[0], 0, 1e-14);
  CU_ASSERT(s.force.x * q[0] + s.force.y * q[1] < 0);
  /* The closed form: u_x = 6 / (100 + 3 / |u|), u_y = 3 / (400 + 3 / |u|);
   * |u| solved by bisection on that fixed point. */
  double lo = 0, hi = 1;
  for (int i = 0; i < 200; i++) {
    double r = 0.5 * (lo + hi), ux = 6 / (100 + 3 / r), uy = 3 / (400 + 3 / r);
    if (hypot(ux, uy) > r) lo = r; else hi = r;
  }
  double r = 0.5 * (lo + hi);
  LK_ASSERT_NEAR(q[0], 6 / (100 + 3 / r), 1e-14);
  LK_ASSERT_NEAR(q[1], 3 / (400 + 3 / r), 1e-14);
  const lk_static_report *rep = lk_data_static_report(d);
  CU_ASSERT(rep->converged);
  if (!(rep->iterations <= 10)) lk_test_fail(__LINE__, __FILE__, "%d iterations", rep->iterations);
  lk_data_free(d);
  lk_model_free(m);
}

void lk_test_register(void) {
  static const lk_test pipe[] = {{"slides to 0.05 mm, -3 N", test_pipe_slides},
                                 {"same from a sticking start", test_pipe_from_sticking_start},
                                 {"2.9 N sticks at 0, -2.9 N", test_pipe_sticks},
                                 {"F = 3, 2, -8", test_pipe_variants},
                                 {"four increments", test_pipe_increments},
                                 {"mu_static above mu_dynamic", test_static_dynamic_coefficients},
                                 {NULL, NULL}};
  static const lk_test other[] = {{"point support is isotropic", test_point_support_isotropic},
                                  {"point support slipping off-axis", test_point_support_off_axis},
                                  {"point support on unequal springs",
                                   test_point_support_anisotropic},
                                  {"geometry contact", test_geometry_contact},
                                  {"validation", test_validation},
                                  {"supports in the time step", test_support_in_step},
                                  {NULL, NULL}};
  lk_test_suite("static: pipe support", pipe);
  lk_test_suite("static: supports and contacts", other);
}
