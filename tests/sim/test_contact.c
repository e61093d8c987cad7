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
      if (c->fn > 1e-9) LK_ASSERT_INT_EQ(c->state, LK_FRICTION_DYNAMIC); /* loaded ones slide */
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


/* Steady sliding costs one LCP solve a step: a block pushed at 30 deg in
 * the ground plane with 8 N (above mu_s m g) slides with its friction
 * against the slip, mu_d m g, and once it slides each contact keeps its
 * tangent basis and its lock along the slip from step to step (contact
 * memory), so every later step settles in one solve. Both solvers. */
static void test_steady_sliding_one_solve_a_step(void) {
  for (int s = 0; s < 2; s++) {
    scene_opts o = scene_defaults();
    o.solver = kSolvers[s];
    lk_model *m = scene_block(&o);
    lk_data *d = lk_data_new(m);
    const double phi = 30 * DEG, F = 8.0;
    lk_status st = LK_OK;
    int steps = 0, extra = 0, worst = 0;
    for (int i = 0; i < 600 && !st; i++) {
      lk_data_clear_loads(d);
      lk_forward_kinematics(m, d);
      lk_vec3 c = lk_data_point_position(d, 1, lk_v3_zero());
      lk_data_apply_force(d, 1, c, lk_v3(F * cos(phi), F * sin(phi), 0));
      st = lk_step(m, d);
      const lk_step_report *r = lk_data_step_report(d);
      if (i >= 100) { /* well after the onset of sliding */
        steps++;
        if (r->lcp_solves > 1) extra++;
        if (r->lcp_solves > worst) worst = r->lcp_solves;
        LK_ASSERT_MSG(r->friction_unconverged == 0, "%s: step %d unconverged", kSolverNames[s], i);
      }
    }
    LK_ASSERT_MSG(st == LK_OK, "%s: %s", kSolverNames[s], lk_strerror(st));
    lk_vec3 ft = lk_v3_zero();
    for (int i = 0; i < lk_data_ncontacts(d); i++) ft = lk_v3_add(ft, lk_data_contact_report(d, i)->ft);
    LK_ASSERT_REL(lk_v3_norm(ft), 0.45 * 9.81, 1e-6, 0);
    /* against the push's direction (the slip's: no other load in the plane) */
    LK_ASSERT_NEAR(ft.x / lk_v3_norm(ft), -cos(phi), 1e-6);
    LK_ASSERT_NEAR(ft.y / lk_v3_norm(ft), -sin(phi), 1e-6);
    LK_ASSERT_MSG(extra == 0, "%s: %d of %d sliding steps took more than one LCP solve (up to %d)",
                  kSolverNames[s], extra, steps, worst);
    lk_data_free(d);
    lk_model_free(m);
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


static int push_sticks_pyr(int edges, double phi, double force, lk_status *st) {
  scene_opts o = scene_defaults();
  o.cone = LK_CONE_PYRAMID;
  o.cone_edges = edges;
  lk_model *m = scene_block(&o);
  lk_data *d = lk_data_new(m);
  double drift = 0;
  *st = LK_OK;
  for (int i = 0; i < 200 && !*st; i++) {
    lk_data_clear_loads(d);
    lk_forward_kinematics(m, d);
    lk_vec3 c = lk_data_point_position(d, 1, lk_v3_zero());
    /* The pyramid's edges are at angles 2 pi k / n from the contact's
     * first tangent, which for the world plane is +y (lk_any_tangent). */
    double a = phi + LK_PI / 2;
    lk_data_apply_force(d, 1, c, lk_v3(force * cos(a), force * sin(a), 0));
    *st = lk_step(m, d);
    drift = fmax(drift, hypot(lk_data_q(d)[0], lk_data_q(d)[1]));
  }
  lk_data_free(d);
  lk_model_free(m);
  return drift < 1e-9;
}

/* Push at an angle phi in the tangent plane for 0.2 s: did it stay put? */
static int push_sticks(lk_cone cone, int solver, double phi, double force, lk_status *st) {
  scene_opts o = scene_defaults();
  o.solver = kSolvers[solver];
  o.cone = cone;
  lk_model *m = scene_block(&o);
  lk_data *d = lk_data_new(m);
  double drift = 0;
  *st = LK_OK;
  for (int i = 0; i < 200 && !*st; i++) {
    lk_data_clear_loads(d);
    lk_forward_kinematics(m, d);
    lk_vec3 c = lk_data_point_position(d, 1, lk_v3_zero());
    lk_data_apply_force(d, 1, c, lk_v3(force * cos(phi), force * sin(phi), 0));
    *st = lk_step(m, d);
    drift = fmax(drift, hypot(lk_data_q(d)[0], lk_data_q(d)[1]));
  }
  lk_data_free(d);
  lk_model_free(m);
  return drift < 1e-9;
}

/* Validation 3: with the circle cone the push threshold is the same in
 * every direction (within 1 %); the box cone grips sqrt(2) harder at 45
 * degrees; an n-edge pyramid deviates by at most 1 - cos(pi/n). */
static void test_friction_cone_isotropy(void) {
  const double fs = 0.6 * 9.81;
  lk_status st;
  for (int s = 0; s < 2; s++) {
    for (int k = 0; k <= 6; k++) {
      double phi = k * 15 * DEG;
      LK_ASSERT_MSG(push_sticks(LK_CONE_CIRCLE, s, phi, 0.99 * fs, &st) && st == LK_OK,
                    "%s circle: 0.99 mu m g at %g deg slid (%s)", kSolverNames[s], k * 15.0, lk_strerror(st));
      LK_ASSERT_MSG(!push_sticks(LK_CONE_CIRCLE, s, phi, 1.01 * fs, &st) && st == LK_OK,
                    "%s circle: 1.01 mu m g at %g deg stuck", kSolverNames[s], k * 15.0);
    }
    /* The box: along an axis the same threshold, along the diagonal up to
     * sqrt(2) of it (documented, not the default). */
    LK_ASSERT_MSG(push_sticks(LK_CONE_BOX, s, 0, 0.99 * fs, &st), "%s box: axis 0.99 slid", kSolverNames[s]);
    LK_ASSERT_MSG(!push_sticks(LK_CONE_BOX, s, 0, 1.01 * fs, &st), "%s box: axis 1.01 stuck", kSolverNames[s]);
    LK_ASSERT_MSG(push_sticks(LK_CONE_BOX, s, 45 * DEG, 1.40 * fs, &st),
                  "%s box: 1.40 mu m g on the diagonal slid", kSolverNames[s]);
    LK_ASSERT_MSG(!push_sticks(LK_CONE_BOX, s, 45 * DEG, 1.43 * fs, &st),
                  "%s box: 1.43 mu m g on the diagonal stuck", kSolverNames[s]);
  }
  /* Pyramid (Lemke; Dantzig cannot express it and hands it to Lemke). */
  const int edges[2] = {4, 8};
  for (int e = 0; e < 2; e++) {
    int n = edges[e];
    double worst = cos(LK_PI / n);
    for (int k = 0; k <= 4; k++) {
      double phi = k * (LK_PI / n) / 4; /* from an edge to halfway between two */
      scene_opts o = scene_defaults();
      (void)o;
      lk_status st2;
      /* Inside the inscribed polygon: always sticks; outside the circle:
       * always slides. */
      int in = push_sticks_pyr(n, phi, (worst - 0.005) * fs, &st2);
      LK_ASSERT_MSG(in && st2 == LK_OK, "pyramid %d: %.3g of mu m g at %.1f deg slid", n,
                    worst - 0.005, phi / DEG);
      int out = push_sticks_pyr(n, phi, 1.005 * fs, &st2);
      LK_ASSERT_MSG(!out && st2 == LK_OK, "pyramid %d: 1.005 mu m g at %.1f deg stuck (%s)", n,
                    phi / DEG, lk_strerror(st2));
    }
  }
}

/* Validation 8 and 10: a box resting for 10 s moves less than 1e-9 m and
 * never gains energy; its normal forces sum to its weight within 1e-9. On a
 * 25 degree ramp with mu_s = 0.6 it creeps less than 1e-9 m in 10^4
 * steps. On flat ground its corners carry equal shares to 1e-6, also on
 * the steps answered by the last impulses without a solve (most of them:
 * trial_by_guess in lib/sim/solve.c). */
static void test_resting_box_no_drift_no_creep(void) {
  for (int s = 0; s < 2; s++) {
    for (int ramp = 0; ramp < 2; ramp++) {
      scene_opts o = scene_defaults();
      o.solver = kSolvers[s];
      if (ramp) o.gravity = scene_incline_gravity(25 * DEG);
      lk_model *m = scene_block(&o);
      lk_data *d = lk_data_new(m);
      double e0, e, ek, emax = -INFINITY, drift = 0;
      lk_energy_kinetic(m, d, &ek);
      lk_energy_potential(m, d, &e0);
      e0 += ek;
      double q0[3] = {lk_data_q(d)[0], lk_data_q(d)[1], lk_data_q(d)[2]};
      double worst_sum = 0, worst_split = 0;
      int guessed = 0;
      for (int i = 0; i < 10000; i++) {
        lk_status st = lk_step(m, d);
        if (st) {
          LK_ASSERT_MSG(0, "%s step %d: %s", kSolverNames[s], i, lk_strerror(st));
          break;
        }
        const double *q = lk_data_q(d);
        drift = fmax(drift, sqrt(pow(q[0] - q0[0], 2) + pow(q[1] - q0[1], 2) + pow(q[2] - q0[2], 2)));
        lk_energy_kinetic(m, d, &ek);
        lk_energy_potential(m, d, &e);
        emax = fmax(emax, e + ek);
        double fn = 0;
        for (int c = 0; c < lk_data_ncontacts(d); c++) fn += lk_data_contact_report(d, c)->fn;
        double weight = 9.81 * (ramp ? cos(25 * DEG) : 1.0);
        /* At rest: the first steps settle the (regularized) distribution. */
        if (i >= 10) worst_sum = fmax(worst_sum, fabs(fn - weight) / weight);
        /* On flat ground the four corners carry equal shares, also on the
         * steps the last impulses answer without a solve. */
        int nc = lk_data_ncontacts(d);
        for (int c = 0; c < nc && !ramp && i >= 10; c++)
          worst_split = fmax(worst_split, fabs(lk_data_contact_report(d, c)->fn - fn / nc) / (fn / nc));
        if (i >= 10) guessed += lk_data_step_report(d)->guess_answers > 0;
      }
      LK_ASSERT_MSG(drift < 1e-9, "%s%s: moved %.3g m over 10^4 steps", kSolverNames[s],
                    ramp ? " on a 25 deg ramp" : "", drift);
      LK_ASSERT_MSG(emax <= e0 + 1e-12, "%s%s: energy rose by %.3g J", kSolverNames[s],
                    ramp ? " (ramp)" : "", emax - e0);
      LK_ASSERT_MSG(worst_sum < 1e-9, "%s%s: normal forces off the weight by %.3g relative",
                    kSolverNames[s], ramp ? " (ramp)" : "", worst_sum);
      LK_ASSERT_MSG(worst_split < 1e-6, "%s: corner loads off equal shares by %.3g relative",
                    kSolverNames[s], worst_split);
      /* at rest, steps are answered by the last impulses (no solve): on
       * flat ground nearly all, on the ramp every other one (the ridge's
       * creep, 3e-10 of the impulse a step, moves the answer there by more
       * than the 10 ulps a guess may miss it by, every second step) */
      LK_ASSERT_MSG(guessed > (ramp ? 4000 : 9000),
                    "%s%s: only %d of 9990 steps answered by the last impulses", kSolverNames[s],
                    ramp ? " (ramp)" : "", guessed);
      lk_data_free(d);
      lk_model_free(m);
    }
  }
}

/* Validation 8: a four-bar linkage stays closed to 1e-6 over 10 s. */
static void test_four_bar_stays_closed(void) {
  for (int s = 0; s < 2; s++) {
    scene_opts o = scene_defaults();
    o.solver = kSolvers[s];
    lk_model *m = scene_four_bar(&o);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    lk_data *d = lk_data_new(m);
    int ic = lk_model_link_index(m, "coupler"), ir = lk_model_link_index(m, "rocker");
    double worst = 0, travel = 0, q0 = lk_data_q(d)[0];
    for (int i = 0; i < 10000; i++) {
      lk_status st = lk_step(m, d);
      if (st) {
        LK_ASSERT_MSG(0, "%s: step %d failed: %s", kSolverNames[s], i, lk_strerror(st));
        break;
      }
      lk_forward_kinematics(m, d);
      lk_vec3 a = lk_data_point_position(d, ic, lk_v3(0.3, 0, 0));
      lk_vec3 b = lk_data_point_position(d, ir, lk_v3(0.25, 0, 0));
      worst = fmax(worst, lk_v3_norm(lk_v3_sub(a, b)));
      travel = fmax(travel, fabs(lk_data_q(d)[0] - q0));
    }
    LK_ASSERT_MSG(worst < 1e-6, "%s: loop opened by %.3g m", kSolverNames[s], worst);
    LK_ASSERT_MSG(travel > 0.2, "%s: the linkage hardly moved (%.3g rad)", kSolverNames[s], travel);
    lk_data_free(d);
    lk_model_free(m);
  }
}

/* Validation 8: a joint limit holds a pendulum that falls onto it. */
static void test_joint_limit_holds_pendulum(void) {
  for (int s = 0; s < 2; s++) {
    lk_model *m = lk_model_new();
    lk_options opt;
    lk_options_default(&opt);
    opt.solver = kSolvers[s];
    lk_model_set_options(m, &opt, NULL);
    lk_link_spec p;
    lk_link_spec_default(&p);
    p.name = "bob";
    p.joint.type = LK_JOINT_REVOLUTE;
    p.joint.axis = lk_v3(0, 1, 0);
    p.joint.limited = 1;
    p.joint.lower = 0.5;
    p.joint.upper = 2.0;
    p.mass = 1;
    p.com = lk_v3(0, 0, -1);
    p.inertia = lk_inertia_solid_sphere(1, 0.05);
    lk_model_add_link(m, &p, NULL);
    double q0 = 1.5;
    lk_model_set_initial(m, "bob", &q0, 1, NULL, 0, NULL);
    LK_ASSERT_OK(lk_model_finalize(m, NULL), (lk_error *)NULL);
    lk_data *d = lk_data_new(m);
    double qmin = 10;
    for (int i = 0; i < 3000; i++) {
      LK_ASSERT_OK(lk_step(m, d), (lk_error *)NULL);
      qmin = fmin(qmin, lk_data_q(d)[0]);
    }
    LK_ASSERT_MSG(qmin > 0.5 - 1e-4, "%s: went through the limit to %.6g", kSolverNames[s], qmin);
    LK_ASSERT_NEAR(lk_data_q(d)[0], 0.5, 1e-4);
    LK_ASSERT_NEAR(lk_data_v(d)[0], 0, 1e-9);
    lk_data_free(d);
    lk_model_free(m);
  }
}

/* Validation 9: Lemke and Dantzig give the same trajectories where the
 * rigid-body problem has one answer. A tripod (three feet: determinate
 * normal forces) on a 31.1 degree incline, also twisted by a torque, slides
 * and turns; the ball rolls and slips. (Four coplanar feet make the load
 * split, and with it a sliding box's turning, indeterminate; there the step
 * takes the least-norm split when everything sticks, see solve.c.) */
static void test_lemke_and_dantzig_agree(void) {
  double q[2][7];
  for (int s = 0; s < 2; s++) {
    scene_opts o = scene_defaults();
    o.solver = kSolvers[s];
    o.gravity = scene_incline_gravity(31.1 * DEG);
    lk_model *m = scene_tripod(&o);
    lk_data *d = lk_data_new(m);
    for (int i = 0; i < 1000; i++) {
      lk_data_clear_loads(d);
      lk_data_apply_torque(d, 1, lk_v3(0, 0, 0.3));
      LK_ASSERT_OK(lk_step(m, d), (lk_error *)NULL);
    }
    memcpy(q[s], lk_data_q(d), sizeof q[s]);
    lk_data_free(d);
    lk_model_free(m);
  }
  LK_ASSERT_MSG(fabs(q[0][0]) > 0.1 && fabs(q[0][6]) > 0.1, "the tripod did not slide and turn");
  for (int k = 0; k < 7; k++) LK_ASSERT_NEAR(q[0][k], q[1][k], 1e-7);
}

/* Validation 6: a box squeezed between two pads with preload F and
 * spinning about the squeeze axis at 8 rad/s stops at the rate torsional
 * friction predicts, 2 mu_t r_p F / I; with mu_t = 0 it keeps spinning. */
static void test_torsional_friction(void) {
  const double F = 10, rp = 0.01, mu_t = 0.5, mobj = 0.5;
  const double I = mobj * (0.08 * 0.08 + 0.08 * 0.08) / 12.0;
  for (int s = 0; s < 2; s++) {
    for (int with = 0; with < 2; with++) {
      scene_opts o = scene_defaults();
      o.solver = kSolvers[s];
      o.gravity = lk_v3(0, 0, 0);
      lk_model *m = scene_pads(&o, mobj, F, 1, rp, with ? mu_t : 0.0);
      CU_ASSERT_PTR_NOT_NULL_FATAL(m);
      lk_data *d = lk_data_new(m);
      int obj = lk_model_link_index(m, "object");
      int va = lk_model_joint_vadr(m, obj);
      lk_data_v(d)[va + 3] = 8.0; /* world angular velocity about x */
      /* It stops after 8 I / (2 mu_t r_p F) = 42.7 ms: measure before. */
      LK_ASSERT_OK(scene_run(m, d, 5), (lk_error *)NULL);
      double w1 = lk_data_v(d)[va + 3];
      LK_ASSERT_OK(scene_run(m, d, 30), (lk_error *)NULL);
      double w2 = lk_data_v(d)[va + 3];
      if (with) {
        double alpha = (w1 - w2) / 0.03, want = 2 * mu_t * rp * F / I;
        LK_ASSERT_REL(alpha, want, 0.01, 0);
        /* ...until it stops, and then it stays stopped. */
        LK_ASSERT_OK(scene_run(m, d, 2000), (lk_error *)NULL);
        LK_ASSERT_NEAR(lk_data_v(d)[va + 3], 0, 1e-9);
      } else {
        LK_ASSERT_REL(w2, 8.0, 1e-9, 0);
      }
      lk_data_free(d);
      lk_model_free(m);
    }
  }
}


/* Geometry contacts. Validation 4: block mu 0.8 on ground mu 0.2 gives
 * the geometric mean 0.4: on a 21.3 degree incline (tan = 0.39) it sticks,
 * on 22.5 (tan = 0.414) it slides. The same box-on-plane from collision
 * sticks and slides like the explicit one, with 4 contacts. */
static void test_geometry_contacts_and_mixing(void) {
  for (int s = 0; s < 2; s++) {
    const double angles[2] = {21.3, 22.5};
    for (int k = 0; k < 2; k++) {
      scene_opts o = scene_defaults();
      o.solver = kSolvers[s];
      o.gravity = scene_incline_gravity(angles[k] * DEG);
      lk_model *m = scene_block_geom(&o, 0.8, 0.2, 0);
      CU_ASSERT_PTR_NOT_NULL_FATAL(m);
      lk_data *d = lk_data_new(m);
      lk_status st;
      double drift = block_drift(m, d, 1000, &st);
      LK_ASSERT_MSG(st == LK_OK, "%s: %s", kSolverNames[s], lk_strerror(st));
      LK_ASSERT_INT_EQ(lk_data_ncontacts(d), 4);
      LK_ASSERT_NEAR(lk_data_contact_report(d, 0)->mu_static, 0.4, 1e-15);
      if (k == 0)
        LK_ASSERT_MSG(drift < 1e-6, "%s: stuck block moved %.3g", kSolverNames[s], drift);
      else
        LK_ASSERT_MSG(drift > 1e-2, "%s: sliding block moved only %.3g", kSolverNames[s], drift);
      lk_data_free(d);
      lk_model_free(m);
    }
  }
}

/* Validation 12: more contacts than the data holds is a reported status,
 * never a silent drop. */
static void test_contact_capacity_is_reported(void) {
  scene_opts o = scene_defaults();
  lk_model *m = scene_block_geom(&o, 0.5, 0.5, 2); /* a face needs 4 */
  lk_data *d = lk_data_new(m);
  LK_ASSERT_INT_EQ(lk_step(m, d), LK_CAPACITY_EXCEEDED);
  LK_ASSERT_NEAR(lk_data_time(d), 0, 0); /* the failed step did not advance */
  lk_data_free(d);
  lk_model_free(m);
}

/* Validation 12: bit-identical on repeated runs and through lk_data_copy()
 * mid-run (friction states and warm starts live in the data). */
static void run_mixed(lk_data *d, const lk_model *m, int from, int to) {
  for (int i = from; i < to; i++) {
    lk_data_clear_loads(d);
    lk_forward_kinematics(m, d);
    lk_vec3 c = lk_data_point_position(d, 1, lk_v3_zero());
    /* a push that makes it stick, slip and stick again */
    double f = (i % 400) < 200 ? 7.0 : 2.0;
    lk_data_apply_force(d, 1, c, lk_v3(f, 0.3 * f, 0));
    lk_step(m, d);
  }
}

static void test_determinism_and_copy(void) {
  for (int s = 0; s < 2; s++) {
    scene_opts o = scene_defaults();
    o.solver = kSolvers[s];
    lk_model *m = scene_block_geom(&o, 0.6, 0.6, 0);
    lk_data *a = lk_data_new(m), *b = lk_data_new(m), *c = lk_data_new(m);
    run_mixed(a, m, 0, 800);
    run_mixed(b, m, 0, 800);
    run_mixed(c, m, 0, 333);
    lk_data *c2 = lk_data_new(m);
    LK_ASSERT_OK(lk_data_copy(c2, c), (lk_error *)NULL);
    lk_data_free(c);
    run_mixed(c2, m, 333, 800);
    int nq = lk_model_nq(m);
    CU_ASSERT_EQUAL(memcmp(lk_data_q(a), lk_data_q(b), (size_t)nq * sizeof(double)), 0);
    /* A data reused after another run and a reset behaves like a new one:
     * no history survives lk_data_reset (the LCP scratch included). */
    lk_data_reset(b);
    run_mixed(b, m, 0, 800);
    CU_ASSERT_EQUAL(memcmp(lk_data_q(a), lk_data_q(b), (size_t)nq * sizeof(double)), 0);
    CU_ASSERT_EQUAL(memcmp(lk_data_q(a), lk_data_q(c2), (size_t)nq * sizeof(double)), 0);
    CU_ASSERT_EQUAL(memcmp(lk_data_v(a), lk_data_v(c2), 6 * sizeof(double)), 0);
    LK_ASSERT_MSG(fabs(lk_data_q(a)[0]) > 0.05, "%s: the block did not slide", kSolverNames[s]);
    lk_data_free(a);
    lk_data_free(b);
    lk_data_free(c2);
    lk_model_free(m);
  }
}


/* Validation 7: the slip sensor. A 0.3 kg payload held between two pads
 * (5 N each, mu_s 0.6: grip 6 N, sliding grip 4.5 N, weight 2.94 N) gets a
 * downward disturbance of 5 N for 0.1 s: it slips (the slip speed spikes,
 * each contact's utilization sits at mu_d / mu_s = 0.75), the filtered
 * score crosses 1 and the flag turns on once, without chatter; after the
 * disturbance the sliding grip stops it, and the flag turns off. */
static void test_slip_sensor(void) {
  for (int s = 0; s < 2; s++) {
    scene_opts o = scene_defaults();
    o.solver = kSolvers[s];
    /* One contact per pad keeps the sliding phase determinate (with four
     * coplanar contacts per pad the load split while sliding is not). */
    lk_model *m = scene_pads(&o, 0.3, 5.0, 1, 0, 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    lk_data *d = lk_data_new(m);
    int pad = lk_model_link_index(m, "pad_l"), obj = lk_model_link_index(m, "object");
    int flips = 0, last = 0, on_seen = 0;
    double vmax = 0, umin = 1, umax = 0, smax = 0;
    for (int i = 0; i < 1500; i++) {
      double t = lk_data_time(d);
      lk_data_clear_loads(d);
      if (t >= 0.2 && t < 0.3) {
        lk_forward_kinematics(m, d);
        lk_data_apply_force(d, obj, lk_data_point_position(d, obj, lk_v3_zero()), lk_v3(0, 0, -5));
      }
      lk_status st = lk_step(m, d);
      if (st) {
        LK_ASSERT_MSG(0, "%s: step %d: %s", kSolverNames[s], i, lk_strerror(st));
        break;
      }
      lk_tactile tac;
      LK_ASSERT_OK(lk_data_tactile(d, pad, &tac), (lk_error *)NULL);
      if (tac.slip != last) flips++;
      last = tac.slip;
      on_seen |= tac.slip;
      vmax = fmax(vmax, tac.slip_speed);
      smax = fmax(smax, tac.slip_score);
      if (t > 0.22 && t < 0.3 && tac.slip_speed > 1e-3) {
        umin = fmin(umin, tac.utilization);
        umax = fmax(umax, tac.utilization);
      }
    }
    lk_tactile tac;
    lk_data_tactile(d, pad, &tac);
    LK_ASSERT_MSG(vmax > 0.05, "%s: no slip spike (%.3g m/s)", kSolverNames[s], vmax);
    LK_ASSERT_MSG(umin > 0.74 && umax < 0.76, "%s: sliding utilization %.4f..%.4f, not 0.75",
                  kSolverNames[s], umin, umax);
    LK_ASSERT_MSG(on_seen && smax > 1, "%s: the flag never turned on (score %.3g)", kSolverNames[s], smax);
    LK_ASSERT_INT_EQ(flips, 2); /* on once, off once: no chatter */
    LK_ASSERT_INT_EQ(tac.slip, 0);
    LK_ASSERT_NEAR(tac.slip_speed, 0, 1e-9); /* held again */
    lk_data_free(d);
    lk_model_free(m);
  }
}

/* Validations 10 and 11: a box held between two pads under gravity does
 * not creep (< 1e-9 m in 10^4 steps); lifted with 2 m/s^2 it stays in the
 * grip when 2 mu_s F >= m (g + a) and slips out when F is 20 % below. */
static double lift(int solver, double F, int steps, double *creep) {
  const double mobj = 1.0, a = 2.0;
  scene_opts o = scene_defaults();
  o.solver = kSolvers[solver];
  lk_model *m = scene_pads(&o, mobj, F, 4, 0, 0);
  lk_data *d = lk_data_new(m);
  int obj = lk_model_link_index(m, "object"), palm = lk_model_link_index(m, "palm");
  int qo = lk_model_joint_qadr(m, obj), qp = lk_model_joint_qadr(m, palm);
  /* Settle in the grip first (palm on its limit), then lift: the whole
   * hand (100.1 kg) plus a held object accelerates at a. */
  lk_status st = scene_run(m, d, 100);
  double rel0 = lk_data_q(d)[qo + 2] - lk_data_q(d)[qp];
  *creep = 0;
  if (steps > 0) {
    for (int i = 0; i < steps && !st; i++) {
      st = lk_step(m, d);
      *creep = fmax(*creep, fabs(lk_data_q(d)[qo + 2] - lk_data_q(d)[qp] - rel0));
    }
    lk_data_free(d);
    lk_model_free(m);
    return st ? NAN : 0;
  }
  int lifter = lk_model_actuator_index(m, "palm");
  lk_data_actuator_set_target(d, lifter, (100.1 + mobj) * (9.81 + a));
  for (int i = 0; i < 500 && !st; i++) st = lk_step(m, d);
  double slip = fabs(lk_data_q(d)[qo + 2] - lk_data_q(d)[qp] - rel0);
  double rise = lk_data_q(d)[qp];
  lk_data_free(d);
  lk_model_free(m);
  if (st || rise < 0.2) return NAN; /* it must have lifted ~0.25 m */
  return slip;
}

static void test_grasp_holds_iff_friction_admits_it(void) {
  const double need = 1.0 * (9.81 + 2.0) / (2 * 0.6); /* 9.842 N */
  for (int s = 0; s < 2; s++) {
    double creep;
    LK_ASSERT_MSG(lift(s, need, 10000, &creep) == 0 && creep < 1e-9,
                  "%s: held box crept %.3g m in 10^4 steps", kSolverNames[s], creep);
    double held = lift(s, 1.02 * need, 0, &creep);
    LK_ASSERT_MSG(held < 1e-6, "%s: grip 2%% above the need slipped %.3g m", kSolverNames[s], held);
    double lost = lift(s, 0.8 * need, 0, &creep);
    LK_ASSERT_MSG(lost > 0.01, "%s: grip 20%% below the need held (slip %.3g m)", kSolverNames[s], lost);
  }
}

static const lk_test tests[] = {
    {"incline: sticks at every angle up to 30.9 deg", test_incline_sticks_below_atan_mu_static},
    {"incline: slides at 31.1 deg with g(sin - mu_d cos)", test_incline_slides_above_atan_mu_static},
    {"push: sticks below and slides above mu_s m g", test_push_threshold_is_mu_static_m_g},
    {"steady sliding at 30 deg: mu_d m g against the slip, one LCP solve a step",
     test_steady_sliding_one_solve_a_step},
    {"rolling sphere: resistance decelerates as mu_r r_p f_n predicts", test_rolling_resistance},
    {"sphere on an incline: rolls at 5/7 g sin or slips", test_sphere_on_incline},
    {"bowling ball: slides, then rolls at 5/7 v0 after 2 v0 / (7 mu g)", test_bowling_ball},
    {"friction cones: circle isotropic, box sqrt(2), pyramid 1 - cos(pi/n)", test_friction_cone_isotropy},
    {"resting box: no drift, no energy gain, forces sum to weight; no creep", test_resting_box_no_drift_no_creep},
    {"four-bar linkage stays closed to 1e-6 over 10 s", test_four_bar_stays_closed},
    {"joint limit holds a pendulum", test_joint_limit_holds_pendulum},
    {"Lemke and Dantzig give the same trajectory", test_lemke_and_dantzig_agree},
    {"torsional friction stops a spinning squeezed box", test_torsional_friction},
    {"geometry contacts; material mixing by geometric mean", test_geometry_contacts_and_mixing},
    {"more contacts than capacity is a reported status", test_contact_capacity_is_reported},
    {"determinism: repeated runs and lk_data_copy mid-run", test_determinism_and_copy},
    {"slip sensor: spike, utilization 0.75, flag on once and off", test_slip_sensor},
    {"grasp: no creep; holds iff 2 mu_s F >= m (g + a)", test_grasp_holds_iff_friction_admits_it},
    {NULL, NULL},
};

void lk_test_register(void) { lk_test_suite("contact", tests); }
