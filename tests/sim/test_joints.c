/* Joint-space and distance constraints: dry friction, couplings, tethers,
 * link force records and generalized constraint forces. */
#include <string.h>

#include "harness.h"
#include "linkage/linkage.h"

/* A 1 kg bob on a massless-looking rod of 0.5 m about y, starting at q0. */
static lk_model *pendulum(double q0, double dry, int solver) {
  lk_model *m = lk_model_new();
  lk_options o;
  lk_options_default(&o);
  o.solver = solver ? LK_SOLVER_DANTZIG : LK_SOLVER_LEMKE;
  lk_model_set_options(m, &o, NULL);
  lk_link_spec p;
  lk_link_spec_default(&p);
  p.name = "arm";
  p.joint.type = LK_JOINT_REVOLUTE;
  p.joint.axis = lk_v3(0, 1, 0);
  p.joint.friction = dry;
  p.mass = 1;
  p.com = lk_v3(0, 0, -0.5);
  p.inertia = lk_inertia_solid_sphere(1, 0.02);
  lk_model_add_link(m, &p, NULL);
  lk_model_set_initial(m, "arm", &q0, 1, NULL, 0, NULL);
  if (lk_model_finalize(m, NULL)) {
    lk_model_free(m);
    return NULL;
  }
  return m;
}

/* Dry friction F holds the pendulum at 30 degrees when F exceeds the
 * gravity torque m g l sin(30) = 2.4525 N m, with exactly that torque; a
 * smaller F lets it go, resisting with F. */
static void test_joint_dry_friction(void) {
  const double q0 = LK_PI / 6, need = 9.81 * 0.5 * sin(LK_PI / 6);
  for (int s = 0; s < 2; s++) {
    lk_model *m = pendulum(q0, 1.01 * need, s);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    lk_data *d = lk_data_new(m);
    for (int i = 0; i < 1000; i++) LK_ASSERT_OK(lk_step(m, d), (lk_error *)NULL);
    LK_ASSERT_NEAR(lk_data_q(d)[0], q0, 1e-9); /* held: no creep beyond 1e-9 */
    double gf;
    LK_ASSERT_OK(lk_data_constraint_generalized_force(m, d, LK_CONSTRAINT_FRICTION, 0, &gf),
                 (lk_error *)NULL);
    LK_ASSERT_REL(fabs(gf), need, 1e-9, 0); /* only what holding it takes */
    /* The link force record carries the same torque about the axis. */
    int found = 0;
    for (int i = 0; i < lk_data_nlink_forces(d); i++) {
      const lk_link_force *f = lk_data_link_force(d, i);
      if (f->kind == LK_CONSTRAINT_FRICTION && f->link == 1) {
        found = 1;
        LK_ASSERT_REL(fabs(f->moment.y), need, 1e-9, 0);
      }
    }
    CU_ASSERT_TRUE(found);
    lk_data_free(d);
    lk_model_free(m);
    m = pendulum(q0, 0.5 * need, s);
    d = lk_data_new(m);
    LK_ASSERT_OK(lk_step(m, d), (lk_error *)NULL);
    LK_ASSERT_OK(lk_step(m, d), (lk_error *)NULL);
    LK_ASSERT_OK(lk_data_constraint_generalized_force(m, d, LK_CONSTRAINT_FRICTION, 0, &gf),
                 (lk_error *)NULL);
    LK_ASSERT_REL(fabs(gf), 0.5 * need, 1e-9, 0);
    LK_ASSERT_MSG(lk_data_q(d)[0] < q0 - 1e-7, "a weak brake held the pendulum");
    lk_data_free(d);
    lk_model_free(m);
  }
}

/* Two parallel pendulums coupled 2:1 (q_a = 2 q_b + 0.1) keep the ratio to
 * round-off while they swing under gravity. */
static void test_joint_coupling(void) {
  for (int s = 0; s < 2; s++) {
    lk_model *m = lk_model_new();
    lk_options o;
    lk_options_default(&o);
    o.solver = s ? LK_SOLVER_DANTZIG : LK_SOLVER_LEMKE;
    lk_model_set_options(m, &o, NULL);
    const char *names[2] = {"a", "b"};
    for (int k = 0; k < 2; k++) {
      lk_link_spec p;
      lk_link_spec_default(&p);
      p.name = names[k];
      p.joint.type = LK_JOINT_REVOLUTE;
      p.joint.axis = lk_v3(0, 1, 0);
      p.origin.p = lk_v3(k, 0, 0);
      p.mass = 1;
      p.com = lk_v3(0, 0, -0.5);
      p.inertia = lk_inertia_solid_sphere(1, 0.02);
      lk_model_add_link(m, &p, NULL);
    }
    lk_coupling_spec c = {"gear", "a", "b", 2.0, 0.1};
    lk_model_add_coupling(m, &c, NULL);
    double qa = 0.7, qb = 0.3;
    lk_model_set_initial(m, "a", &qa, 1, NULL, 0, NULL);
    lk_model_set_initial(m, "b", &qb, 1, NULL, 0, NULL);
    LK_ASSERT_OK(lk_model_finalize(m, NULL), (lk_error *)NULL);
    lk_data *d = lk_data_new(m);
    double worst = 0, swing = 0;
    for (int i = 0; i < 3000; i++) {
      LK_ASSERT_OK(lk_step(m, d), (lk_error *)NULL);
      const double *q = lk_data_q(d);
      worst = fmax(worst, fabs(q[0] - 2 * q[1] - 0.1));
      swing = fmax(swing, fabs(q[1] - qb));
    }
    LK_ASSERT_MSG(worst < 1e-10, "coupling error %.3g", worst);
    LK_ASSERT_MSG(swing > 0.1, "the coupled pendulums did not swing (%.3g)", swing);
    lk_data_free(d);
    lk_model_free(m);
  }
}

/* A coupling that starts violated (a user's offset the initial state does
 * not meet) is brought onto its constraint by the first step's
 * projection and kept there: two prismatic fingers q2 = -q1 + 0.01 from
 * q = 0 (gravity along them), and the 2:1 gear from qa = qb = 0. Before
 * the projection read the coupling error at its candidate configuration,
 * both diverged (1e100 within 0.3 s). */
static void test_violated_coupling_is_projected_onto(void) {
  struct {
    lk_joint_type type;
    double ratio, offset, gravity_y;
  } k[] = {{LK_JOINT_PRISMATIC, -1, 0.01, 9.81}, {LK_JOINT_REVOLUTE, 2, 0.1, 0}};
  for (int c = 0; c < 2; c++) {
    lk_model *m = lk_model_new();
    lk_options o;
    lk_options_default(&o);
    o.gravity = lk_v3(0, k[c].gravity_y, k[c].gravity_y ? 0 : -9.81);
    lk_model_set_options(m, &o, NULL);
    const char *names[2] = {"a", "b"};
    for (int i = 0; i < 2; i++) {
      lk_link_spec p;
      lk_link_spec_default(&p);
      p.name = names[i];
      p.joint.type = k[c].type;
      p.joint.axis = lk_v3(0, 1, 0);
      p.origin.p = lk_v3(i, 0, 0);
      p.mass = 0.1 * (i + 1);
      p.com = lk_v3(0, 0, -0.5);
      p.inertia = lk_inertia_solid_sphere(p.mass, 0.02);
      lk_model_add_link(m, &p, NULL);
    }
    lk_coupling_spec cs = {"c", "a", "b", k[c].ratio, k[c].offset};
    lk_model_add_coupling(m, &cs, NULL);
    LK_ASSERT_OK(lk_model_finalize(m, NULL), (lk_error *)NULL);
    lk_data *d = lk_data_new(m);
    double worst = 0, far = 0;
    for (int i = 0; i < 300; i++) {
      LK_ASSERT_OK(lk_step(m, d), (lk_error *)NULL);
      const double *q = lk_data_q(d);
      worst = fmax(worst, fabs(q[0] - k[c].ratio * q[1] - k[c].offset));
      far = fmax(far, fmax(fabs(q[0]), fabs(q[1])));
    }
    LK_ASSERT_MSG(worst < 1e-10, "case %d: coupling error %.3g", c, worst);
    /* The correction is the offset's size, not a runaway. */
    LK_ASSERT_MSG(far < 1, "case %d: |q| reached %.3g", c, far);
    lk_data_free(d);
    lk_model_free(m);
  }
}

/* A free ball tied to a world point by a 1 m tether, released sideways at
 * 0.8 m: it falls until the tether is taut, then never gets farther than
 * 1 m (within the step's reach of the speculative row). */
static void test_tether(void) {
  for (int s = 0; s < 2; s++) {
    lk_model *m = lk_model_new();
    lk_options o;
    lk_options_default(&o);
    o.solver = s ? LK_SOLVER_DANTZIG : LK_SOLVER_LEMKE;
    lk_model_set_options(m, &o, NULL);
    lk_link_spec b;
    lk_link_spec_default(&b);
    b.name = "ball";
    b.joint.type = LK_JOINT_FREE;
    b.mass = 1;
    b.inertia = lk_inertia_solid_sphere(1, 0.05);
    lk_model_add_link(m, &b, NULL);
    lk_tether_spec t = {"rope", "ball", {0, 0, 0}, NULL, {0, 0, 0}, 1.0};
    lk_model_add_tether(m, &t, NULL);
    double q[7] = {0.8, 0, 0, 1, 0, 0, 0};
    lk_model_set_initial(m, "ball", q, 7, NULL, 0, NULL);
    LK_ASSERT_OK(lk_model_finalize(m, NULL), (lk_error *)NULL);
    lk_data *d = lk_data_new(m);
    double far = 0;
    for (int i = 0; i < 3000; i++) {
      LK_ASSERT_OK(lk_step(m, d), (lk_error *)NULL);
      const double *x = lk_data_q(d);
      far = fmax(far, sqrt(x[0] * x[0] + x[1] * x[1] + x[2] * x[2]));
    }
    LK_ASSERT_MSG(far > 0.999 && far < 1.0 + 1e-4, "tether reach %.6f", far);
    lk_data_free(d);
    lk_model_free(m);
  }
}

static const lk_test tests[] = {
    {"joint dry friction holds below its bound, brakes with it above", test_joint_dry_friction},
    {"a 2:1 coupling keeps its ratio to round-off", test_joint_coupling},
    {"a coupling that starts violated is projected onto", test_violated_coupling_is_projected_onto},
    {"a tether never lets the ball beyond its length", test_tether},
    {NULL, NULL},
};

void lk_test_register(void) { lk_test_suite("joints", tests); }
