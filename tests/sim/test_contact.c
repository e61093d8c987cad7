/* Contact time-stepping validated against closed-form friction physics
 * (../shared/REFERENCE.md, "Validation cases"; issue 6). */
#include <string.h>

#include "harness.h"
#include "linkage/linkage.h"
#include "scenes.h"

#define DEG (LK_PI / 180.0)

static const lk_solver_kind kSolvers[2] = {LK_SOLVER_LEMKE, LK_SOLVER_DANTZIG};
static const char *kSolverNames[2] = {"lemke", "dantzig"};

/* Largest displacement of the block from its start over n steps. */
static double block_drift(const lk_model *m, lk_data *d, int n, lk_status *st) {
  double q0[3] = {lk_data_q(d)[0], lk_data_q(d)[1], lk_data_q(d)[2]}, worst = 0;
  *st = LK_OK;
  for (int i = 0; i < n; i++) {
    *st = lk_step(m, d);
    if (*st) break;
    const double *q = lk_data_q(d);
    double dx = q[0] - q0[0], dy = q[1] - q0[1], dz = q[2] - q0[2];
    worst = fmax(worst, sqrt(dx * dx + dy * dy + dz * dz));
  }
  return worst;
}

/* V1: a block on an incline with mu_s = 0.6, mu_d = 0.45 sticks at every
 * angle up to 30.9 degrees (atan 0.6 = 30.964) and slides at 31.1 with
 * a = g (sin - mu_d cos). */
static void test_incline_sticks_below_atan_mu_static(void) {
  const double angles[] = {0, 10, 20, 25, 30, 30.5, 30.9};
  for (int s = 0; s < 2; s++) {
    for (size_t k = 0; k < sizeof angles / sizeof angles[0]; k++) {
      scene_opts o = scene_defaults();
      o.solver = kSolvers[s];
      o.gravity = scene_incline_gravity(angles[k] * DEG);
      lk_model *m = scene_block(&o);
      lk_data *d = lk_data_new(m);
      lk_status st;
      double drift = block_drift(m, d, 2000, &st);
      LK_ASSERT_MSG(st == LK_OK, "%s, %g deg: step failed: %s", kSolverNames[s], angles[k],
                    lk_strerror(st));
      LK_ASSERT_MSG(drift < 1e-6, "%s, %g deg: block moved %.3g m in 2 s", kSolverNames[s],
                    angles[k], drift);
      lk_data_free(d);
      lk_model_free(m);
    }
  }
}

static void test_incline_slides_above_atan_mu_static(void) {
  for (int s = 0; s < 2; s++) {
    double theta = 31.1 * DEG;
    scene_opts o = scene_defaults();
    o.solver = kSolvers[s];
    o.gravity = scene_incline_gravity(theta);
    lk_model *m = scene_block(&o);
    lk_data *d = lk_data_new(m);
    LK_ASSERT_OK(scene_run(m, d, 1000), (lk_error *)NULL);
    double v1 = lk_data_v(d)[0];
    LK_ASSERT_OK(scene_run(m, d, 1000), (lk_error *)NULL);
    double v2 = lk_data_v(d)[0];
    double a = v2 - v1, want = 9.81 * (sin(theta) - 0.45 * cos(theta));
    LK_ASSERT_REL(a, want, 0.01, 0);
    /* The sliding contacts are dynamic and carry mu_dynamic f_n each. */
    int n = lk_data_ncontacts(d);
    LK_ASSERT_INT_EQ(n, 4);
    double fn = 0, ft = 0;
    for (int i = 0; i < n; i++) {
      const lk_contact_report *c = lk_data_contact_report(d, i);
      LK_ASSERT_INT_EQ(c->state, LK_FRICTION_DYNAMIC);
      fn += c->fn;
      ft += lk_v3_norm(c->ft);
    }
    LK_ASSERT_REL(fn, 9.81 * cos(theta), 1e-6, 0);
    LK_ASSERT_REL(ft, 0.45 * 9.81 * cos(theta), 1e-6, 0);
    lk_data_free(d);
    lk_model_free(m);
  }
}

/* V2 of issue 6: a horizontal push on flat ground sticks at 5.5 and 5.88 N
 * and slides at 5.89 and 6.0 N (mu_s m g = 5.886 N); while sliding the
 * friction is mu_d m g and each contact's utilization mu_d / mu_s = 0.75;
 * without a push the friction is zero. */
static void push(double force, int solver, double *drift, double *friction, double *util,
                 lk_status *st) {
  scene_opts o = scene_defaults();
  o.solver = kSolvers[solver];
  lk_model *m = scene_block(&o);
  lk_data *d = lk_data_new(m);
  double x0 = lk_data_q(d)[0];
  *drift = 0;
  *st = LK_OK;
  for (int i = 0; i < 1000 && !*st; i++) {
    lk_data_clear_loads(d);
    /* At the centre of mass: no tipping moment beyond what the corners
     * carry (tipping would need 9.81 N at this height). */
    lk_vec3 c = lk_data_point_position(d, 1, lk_v3_zero());
    lk_forward_kinematics(m, d);
    c = lk_data_point_position(d, 1, lk_v3_zero());
    lk_data_apply_force(d, 1, c, lk_v3(force, 0, 0));
    *st = lk_step(m, d);
    *drift = fmax(*drift, fabs(lk_data_q(d)[0] - x0));
  }
  *friction = 0;
  *util = 0;
  lk_vec3 ft = lk_v3_zero();
  for (int i = 0; i < lk_data_ncontacts(d); i++) {
    const lk_contact_report *c = lk_data_contact_report(d, i);
    ft = lk_v3_add(ft, c->ft);
    *util = fmax(*util, c->utilization);
  }
  *friction = lk_v3_norm(ft);
  lk_data_free(d);
  lk_model_free(m);
}

static void test_push_threshold_is_mu_static_m_g(void) {
  for (int s = 0; s < 2; s++) {
    double drift, fr, u;
    lk_status st;
    push(0.0, s, &drift, &fr, &u, &st);
    LK_ASSERT_MSG(st == LK_OK && drift < 1e-9 && fr < 1e-12,
                  "%s: unpushed block: drift %.3g, friction %.3g N", kSolverNames[s], drift, fr);
    const double stick[2] = {5.5, 5.88}, slide[2] = {5.89, 6.0};
    for (int k = 0; k < 2; k++) {
      push(stick[k], s, &drift, &fr, &u, &st);
      LK_ASSERT_MSG(st == LK_OK && drift < 1e-9, "%s: %g N moved the block %.3g m",
                    kSolverNames[s], stick[k], drift);
      LK_ASSERT_REL(fr, stick[k], 1e-8, 0); /* what sticking needs (LCP tol 1e-9) */
      push(slide[k], s, &drift, &fr, &u, &st);
      LK_ASSERT_MSG(st == LK_OK && drift > 1e-3, "%s: %g N did not slide the block (%.3g m)",
                    kSolverNames[s], slide[k], drift);
      LK_ASSERT_REL(fr, 0.45 * 9.81, 1e-6, 0);
      LK_ASSERT_NEAR(u, 0.75, 1e-6);
    }
  }
}


/* Rolling (issue 6, validation 5). A solid sphere (I = 2/5 m r^2) rolling
 * without slip on flat ground keeps its speed when mu_rolling = 0; with a
 * rolling resistance moment tau = mu_r r_p f_n it decelerates at
 * a = tau r / (I + m r^2) = 5 mu_r r_p g / (7 r). */
static double rolling_decel(double mu_r, int solver, double *v_end) {
  const double r = 0.1, m = 2.0, v0 = 1.0, rp = 0.01;
  scene_opts o = scene_defaults();
  o.solver = kSolvers[solver];
  lk_model *mdl = scene_ball(&o, r, m, mu_r, 0.0, rp);
  lk_data *d = lk_data_new(mdl);
  double *v = lk_data_v(d);
  v[0] = v0;     /* linear x */
  v[4] = v0 / r; /* angular y: rolling without slip */
  lk_status st = scene_run(mdl, d, 100);
  double va = lk_data_v(d)[0];
  if (!st) st = scene_run(mdl, d, 500);
  double vb = lk_data_v(d)[0];
  *v_end = vb;
  lk_data_free(d);
  lk_model_free(mdl);
  return st ? NAN : (va - vb) / 0.5;
}

static void test_rolling_resistance(void) {
  for (int s = 0; s < 2; s++) {
    double vend;
    double a0 = rolling_decel(0.0, s, &vend);
    LK_ASSERT_NEAR(a0, 0, 1e-9);
    LK_ASSERT_NEAR(vend, 1.0, 1e-9);
    double mu_r = 0.5, want = 5.0 * mu_r * 0.01 * 9.81 / (7.0 * 0.1);
    double a = rolling_decel(mu_r, s, &vend);
    LK_ASSERT_REL(a, want, 0.01, 0);
  }
}

/* A sphere on an incline rolls without slipping at a = 5/7 g sin(theta)
 * when tan(theta) <= 7/2 mu_s, and slips otherwise, its centre then
 * accelerating at g (sin - mu_d cos). */
static void test_sphere_on_incline(void) {
  const double r = 0.1, m = 1.0;
  for (int s = 0; s < 2; s++) {
    for (int slipping = 0; slipping < 2; slipping++) {
      scene_opts o = scene_defaults();
      o.solver = kSolvers[s];
      o.mu_static = 0.2;
      o.mu_dynamic = 0.15;
      /* tan 30 = 0.577 <= 0.7: rolls; tan 40 = 0.839 > 0.7: slips. */
      double theta = (slipping ? 40.0 : 30.0) * DEG;
      o.gravity = scene_incline_gravity(theta);
      lk_model *mdl = scene_ball(&o, r, m, 0, 0, 0);
      lk_data *d = lk_data_new(mdl);
      LK_ASSERT_OK(scene_run(mdl, d, 200), (lk_error *)NULL);
      double v1 = lk_data_v(d)[0];
      LK_ASSERT_OK(scene_run(mdl, d, 500), (lk_error *)NULL);
      double v2 = lk_data_v(d)[0], a = (v2 - v1) / 0.5;
      double want = slipping ? 9.81 * (sin(theta) - 0.15 * cos(theta)) : 5.0 / 7.0 * 9.81 * sin(theta);
      LK_ASSERT_REL(a, want, 0.01, 0);
      /* Rolling: the contact point does not slip; slipping: it does. */
      double slip = lk_data_contact_report(d, 0)->slip_speed;
      if (slipping)
        LK_ASSERT_MSG(slip > 0.1, "%s: expected slip, got %g m/s", kSolverNames[s], slip);
      else
        LK_ASSERT_MSG(slip < 1e-6, "%s: expected rolling, slip %g m/s", kSolverNames[s], slip);
      lk_data_free(d);
      lk_model_free(mdl);
    }
  }
}

/* V3 bowling ball: launched sliding at v0 without spin, friction mu_d g
 * spins it up until it rolls at 5/7 v0, after t* = 2 v0 / (7 mu_d g). */
static void test_bowling_ball(void) {
  const double r = 0.11, m = 7.0, v0 = 5.0, mu = 0.2;
  for (int s = 0; s < 2; s++) {
    scene_opts o = scene_defaults();
    o.solver = kSolvers[s];
    o.mu_static = mu;
    o.mu_dynamic = mu;
    lk_model *mdl = scene_ball(&o, r, m, 0, 0, 0);
    lk_data *d = lk_data_new(mdl);
    lk_data_v(d)[0] = v0;
    double t_roll = -1;
    for (int i = 0; i < 1500; i++) {
      LK_ASSERT_OK(lk_step(mdl, d), (lk_error *)NULL);
      const lk_contact_report *c = lk_data_contact_report(d, 0);
      if (t_roll < 0 && c && c->slip_speed < 1e-6) t_roll = lk_data_time(d);
    }
    double tstar = 2 * v0 / (7 * mu * 9.81);
    LK_ASSERT_NEAR(t_roll, tstar, 2e-3); /* within two steps */
    LK_ASSERT_REL(lk_data_v(d)[0], 5.0 / 7.0 * v0, 1e-6, 0);
    LK_ASSERT_REL(lk_data_v(d)[4], 5.0 / 7.0 * v0 / r, 1e-6, 0);
    lk_data_free(d);
    lk_model_free(mdl);
  }
}

static const lk_test tests[] = {
    {"incline: sticks at every angle up to 30.9 deg", test_incline_sticks_below_atan_mu_static},
    {"incline: slides at 31.1 deg with g(sin - mu_d cos)", test_incline_slides_above_atan_mu_static},
    {"push: sticks below and slides above mu_s m g", test_push_threshold_is_mu_static_m_g},
    {"rolling sphere: resistance decelerates as mu_r r_p f_n predicts", test_rolling_resistance},
    {"sphere on an incline: rolls at 5/7 g sin or slips", test_sphere_on_incline},
    {"bowling ball: slides, then rolls at 5/7 v0 after 2 v0 / (7 mu g)", test_bowling_ball},
    {NULL, NULL},
};

void lk_test_register(void) { lk_test_suite("contact", tests); }
