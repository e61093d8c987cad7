/* The time step (design: the step at velocity level).
 *
 *   1. kinematics (then collision: contacts matched to last step's)
 *   2. applied forces: tau, springs, damping, link wrenches
 *   3. free velocity v* = v + h M~^-1 (f - c),  M~ = M + h B
 *   4. constraint rows J, b = J v* + stabilization
 *   5. LCP for the impulses lambda; v+ = v* + M~^-1 J^T lambda
 *   6. q+ = q (+) h v+
 *   7. friction states, reports
 *   8. commit; kinematics at the new state (kept for the next step's 1)
 * Steps 4, 5 and 7 are the constraint layer's (lk_sim_constrain, in
 * constrain.c); loop closures and couplings are then projected back onto
 * their manifold (project.c). q, v and the time are computed into
 * workspaces and committed at the end, so a failed step leaves them as they
 * were (its report says why it failed). */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/internal.h"
#include "dynamics/dynamics_impl.h"
#include "linkage/collision.h"
#include "linkage/sim.h"
#include "model/model_impl.h"
#include "sim/sim_internal.h"

/* Energy growth without input, in units of the energy the input-free
 * stretch started with, that makes a step unphysical (issue 18.9). */
#define LK_UNPHYSICAL_GROWTH 100.0

/* Step 2: the total generalized force f = tau + springs (+ damping) +
 * actuators at (q, v) and the total link wrenches (user + scheduled loads)
 * at time t, into the step's workspaces. Needs the kinematics at q. */
static void gather_loads(const lk_model *m, lk_data *d, const double *q, const double *v,
                         double t) {
  lk_dyn_data *dd = &d->dyn;
  lk_dyn_passive(m, q, v, 1, 1, dd->tau_tot);
  for (int k = 0; k < m->nv; k++) dd->tau_tot[k] += d->tau[k];
  memcpy(dd->fext_tot, d->fext, sizeof(lk_force) * (size_t)m->nlink);
  if (m->nact > 0 || m->nload > 0) lk_sim_applied_forces(m, d, q, v, t, dd->tau_tot, dd->fext_tot);
}

/* Fixed-point passes of the midpoint velocity forces: at most this many
 * (each a RNEA pass and a solve with the step's factor). */
#define LK_MIDPOINT_PASSES 40

/* What the passes leave for the next step's guess, kept until the step
 * can no longer fail (midpoint_commit), so that a failed step leaves the
 * data as it was (journal.c). */
typedef struct {
  int passes;         /* made this step (0: none needed) */
  int settled;        /* the passes settled: d->dyn.acc0 holds their correction */
  double rho, rate;   /* the contraction measured this step (rho 0: none) */
} midpoint_memo;

/* Step 3 with the velocity-product forces (Coriolis, centripetal,
 * gyroscopic) at the midpoint velocity v_m = (v + v*)/2 instead of at v:
 *   M~ (v* - v) = h (f - c(q, v_m)),
 * solved by fixed-point iteration (on entry the explicit v* is in
 * d->dyn.vnew, its acceleration in acc; M~ factored): each pass evaluates
 * the bias forces c at the pass's v_m (gravity and the external wrenches
 * with them, lk_dyn_bias_at) and solves with the step's factor. This is
 * the implicit
 * midpoint rule on those forces, which keeps quadratic invariants: the
 * gyroscopic term does no work at v_m (v_m . (w_m x I w_m) = 0), so a
 * torque-free body's kinetic energy and |L| are unchanged by the velocity
 * update, and the position update exp(h w+) turns the inertia about w+
 * itself, which leaves w+^T I w+ alone: the spin energy holds to
 * rounding, where the explicit term gains energy each step (issue 31.4).
 * ODE and Bullet offer an implicit gyroscopic term per body (Bullet:
 * btRigidBody::computeGyroscopicImpulseImplicit_Body, one Newton step on
 * Euler's equation); this treats every velocity product of the tree
 * alike. The passes contract by about h |w| (200 rad/s at 1 ms: 0.1 a
 * pass, 12 passes; an arm at a few rad/s: 1e-3); they stop when v* moves,
 * or would still move, less than 1e-13 of the velocities' scale.
 *
 * The passes start from the explicit v* corrected by the trend of the
 * last two steps' corrections (d->dyn.mid_corr, written at the step's
 * commit: midpoint_commit), which moves little from step to step on a
 * smooth motion, so the first pass already moves v* little. What the
 * passes would still move is estimated from their contraction ratio:
 * measured between two passes, or for a first pass the last step's ratio,
 * grown with the rates h |w| nv and doubled (the ratio scales with
 * h |w|). On bench/contact's arm that leaves one pass a step
 * where the explicit start took two and a separate velocity-product pass
 * at v. The memory is a guess only: a wrong one costs passes, not
 * accuracy. Should the passes not settle (h |w| near 1 or beyond) or
 * overflow, the explicit answer stands. */
static midpoint_memo midpoint_velocity_forces(const lk_model *m, lk_data *d, double h,
                                              double *acc) {
  lk_dyn_data *dd = &d->dyn;
  const lk_dyn_scalars *ms = dd->st;
  midpoint_memo memo = {0, 0, 0, 0};
  const int nv = m->nv;
  double *vnew = dd->vnew;
  double scale = 0, wmax = 0;
  for (int k = 0; k < nv; k++) {
    /* (the state is finite: lk_step checked v, and vnew is v + h acc) */
    double a = fabs(d->v[k]), b = fabs(vnew[k]), x = a > b ? a : b;
    if (x > scale) scale = x;
    /* a DoF that turns its link (revolute, ball, a free joint's rotation)
     * with velocity products (not a lone sphere's or cube's) */
    if (x > wmax && m->dof_products[k] && lk_v3_norm2(d->S[k].ang) > 0) wmax = x;
  }
  /* Every velocity product has an angular rate in it (a translation has
   * none): the passes would move v* by about h |w| times the velocities'
   * scale, times a factor of the links' proportions. Where h |w| nv is
   * below 1e-15 -- a resting pile, whose rates are rounding (7e-16 rad/s
   * on bench/contact's box) -- that is far below the passes' tolerance
   * (1e-13 of the scale), and the explicit step stands (the passes cost
   * such scenes 6-9 % of a step, to move nothing). Rates of bodies without
   * products do not count: bench/contact's stack of cubes turns at the
   * solver's round-off (1.6e-10 rad/s), where the passes cost 3.5 % of its
   * step to move v* by nothing. */
  const double rate = h * wmax * nv, tol = 1e-13 * scale;
  if (!(scale > 0) || !(rate >= 1e-15)) return memo;
  memcpy(dd->acc0, acc, sizeof(double) * (size_t)nv);
  double rho_first = 0; /* the ratio assumed after a first pass (0: none) */
  double *vmid = dd->vmid;
  const double *c0 = dd->mid_corr, *c1 = dd->mid_corr + nv;
  const int trend = ms->mid_valid > 1; /* else the last correction alone */
  for (int k = 0; k < nv; k++) {
    if (ms->mid_valid) vnew[k] = d->v[k] + h * (acc[k] - (trend ? 2 * c0[k] - c1[k] : c0[k]));
    vmid[k] = 0.5 * (d->v[k] + vnew[k]);
  }
  if (ms->mid_valid && ms->mid_rho > 0)
    rho_first = 2 * ms->mid_rho * fmax(1, rate / ms->mid_rate);
  double last = INFINITY, rho_seen = 0;
  for (int pass = 0; pass < LK_MIDPOINT_PASSES; pass++) {
    memo.passes = pass + 1;
    /* the trees with velocity products (a lone cube's or sphere's keeps
     * its explicit acceleration: the pass would give it again) */
    lk_dyn_bias_at(m, d, vmid, h, dd->fext_tot, acc);
    for (int k = 0; k < nv; k++) acc[k] = m->dof_products[k] ? dd->tau_tot[k] - acc[k] : dd->acc0[k];
    for (int t = 0; t < m->ntree; t++)
      if (m->dof_products[m->tree_vadr[t]])
        lk_dyn_solve_range(m, d, acc, m->tree_vadr[t], m->tree_vadr[t + 1]);
    double change = 0;
    int finite = 1;
    for (int k = 0; k < nv; k++) {
      double vk = d->v[k] + h * acc[k];
      finite &= isfinite(vk);
      double e = fabs(vk - vnew[k]);
      if (e > change) change = e;
      vnew[k] = vk;
      vmid[k] = 0.5 * (d->v[k] + vk); /* the next pass's */
    }
    /* a state so large that the products overflow (a 1e300 N load): the
     * explicit step, which fails or not as it always did (a NaN fails
     * every comparison, hence the flag) */
    if (!finite) break;
    if (!(change > tol)) goto settled;
    /* The passes contract geometrically (ratio rho = change / last): what
     * the next ones would still move is about change rho / (1 - rho), so
     * once that is below the tolerance the confirming pass is skipped. */
    if (change < last) {
      double rho = pass > 0 ? change / last : rho_first;
      if (pass > 0) rho_seen = rho;
      if (rho > 0 && change * rho < tol * (1 - rho)) goto settled;
    } else if (pass > 2) {
      break; /* not contracting */
    }
    last = change;
  }
  /* unsettled: the explicit step */
  memcpy(acc, dd->acc0, sizeof(double) * (size_t)nv);
  for (int k = 0; k < nv; k++) vnew[k] = d->v[k] + h * acc[k];
  return memo;
settled:
  for (int k = 0; k < nv; k++) dd->acc0[k] -= acc[k];
  memo.settled = 1;
  memo.rho = rho_seen;
  memo.rate = rate;
  return memo;
}

static void midpoint_commit(const lk_model *m, lk_data *d, const midpoint_memo *memo) {
  lk_dyn_data *dd = &d->dyn;
  lk_dyn_scalars *ms = dd->st;
  const int nv = m->nv;
  d->sim.st->report.velocity_passes = memo->passes;
  d->sim.st->report.velocity_explicit = memo->passes > 0 && !memo->settled;
  if (!memo->settled) {
    ms->mid_valid = 0;
    return;
  }
  for (int k = 0; k < nv; k++) {
    dd->mid_corr[nv + k] = dd->mid_corr[k];
    dd->mid_corr[k] = dd->acc0[k];
  }
  if (memo->rho > 0) {
    ms->mid_rho = memo->rho;
    ms->mid_rate = memo->rate;
  } else if (!ms->mid_valid) {
    ms->mid_rho = 0; /* none measured: the next step confirms with a second pass */
  }
  ms->mid_valid = ms->mid_valid < 2 ? ms->mid_valid + 1 : 2;
}

/* Steps 4-5 are the contact layer's (lk_sim_constrain), when the model
 * can produce constraint rows. On entry vnext = v*, the free velocity, and
 * M~ = M + h B is factored (step 3 formed it: lk_dyn_crba with diag = h B,
 * lk_dyn_factor LK_FACTOR_TREE), so that lk_dyn_solve() applies M~^-1 to
 * the rows of J; a row on the links of one tree (model_impl.h: link_tree,
 * tree_vadr) needs only lk_dyn_solve_range() on that tree's DoFs. It adds
 * M~^-1 J^T lambda to vnext. The free acceleration is in d->dyn.tmp (it
 * becomes lk_data_qacc()), so the contact layer keeps its scratch in its
 * own part of the data. Without constraints the factorization is never
 * formed. */
static lk_status step_euler(const lk_model *m, lk_data *d, double h) {
  lk_dyn_data *dd = &d->dyn;
  const int nv = m->nv;
  lk_status st = lk_dyn_kinematics_current(m, d); /* 1: the last step's end left them */
  if (st) return st;
  gather_loads(m, d, d->q, d->v, d->s->time); /* 2 */
  for (int k = 0; k < nv; k++) dd->diag[k] = h * m->dof_damping[k];
  if (m->nact > 0) lk_sim_servo_implicit(m, d, d->q, d->v, h, dd->tau_tot, dd->diag);
  /* 3: M~^-1 (f - c), M~ = M + h B; the damping force -B v is already in
   * f, which makes the damping implicit: (M + h B) v+ = M v + h (f_other).
   * The servos' gains join B (and their stiffness h K, applied.c:
   * lk_sim_servo_implicit).
   * With constraints (or midpoint velocity forces) the step needs M~
   * factored anyway: RNEA's bias forces c and one solve with that factor
   * cost less than a separate ABA. Without either, ABA (h B added to the
   * armature) in O(n), and no factor. */
  double *acc = dd->tmp;
  const int constrained = lk_sim_has_constraints(m);
  const int midpoint = m->opt.velocity_forces == LK_VELOCITY_FORCES_MIDPOINT;
  /* The midpoint passes each apply M~^-1 once more: with a factor that is
   * one solve (~0.1 ABA), so they take the factored path too. */
  const int factored = constrained || midpoint;
  if (factored) {
    lk_dyn_crba(m, d, dd->diag);
    st = lk_dyn_factor(m, d, LK_FACTOR_TREE);
    if (st) return st;
    lk_dyn_rnea(m, d, NULL, dd->fext_tot, 1, acc);
    for (int k = 0; k < nv; k++) acc[k] = dd->tau_tot[k] - acc[k];
    lk_dyn_solve(m, d, acc, 1);
  } else {
    lk_dyn_aba(m, d, dd->tau_tot, dd->fext_tot, dd->diag, acc);
  }
  for (int k = 0; k < nv; k++) dd->vnew[k] = d->v[k] + h * acc[k];
  midpoint_memo memo = {0, 0, 0, 0};
  if (midpoint) memo = midpoint_velocity_forces(m, d, h, acc);
  if (constrained) { /* 4-5 */
    st = lk_sim_constrain(m, d, dd->vnew);
    if (st) return st;
  }
  if (m->nact > 0) lk_sim_servo_report(m, d, d->q, d->v, dd->vnew, h);
  memcpy(dd->qnew, d->q, sizeof(double) * (size_t)m->nq); /* 6 */
  lk_dyn_integrate(m, dd->qnew, dd->vnew, h);
  if (constrained) st = lk_sim_anchor_project(m, d, dd->qnew);
  if (st) return st;
  st = lk_sim_project(m, d, dd->qnew);
  if (st) return st;
  if (!lk_all_finite(dd->vnew, (size_t)nv) || !lk_all_finite(dd->qnew, (size_t)m->nq))
    return LK_NON_FINITE;
  /* nothing can fail from here on */
  if (midpoint) midpoint_commit(m, d, &memo);
  if (constrained) lk_sim_constrain_commit(m, d);
  memcpy(d->qacc, acc, sizeof(double) * (size_t)nv);
  return LK_OK;
}

/* Classical RK4 on x = (q, v) with x' = (G(q) v, qacc(q, v)). Damping is
 * explicit here (RK4 is for accuracy, not stiffness). */
static lk_status step_rk4(const lk_model *m, lk_data *d, double h) {
  lk_dyn_data *dd = &d->dyn;
  const int nq = m->nq, nv = m->nv;
  static const double c[4] = {0.0, 0.5, 0.5, 1.0};
  double *qs = dd->qnew, *vs = dd->vnew;
  memcpy(dd->q0, d->q, sizeof(double) * (size_t)nq);
  memcpy(dd->v0, d->v, sizeof(double) * (size_t)nv);
  for (int s = 0; s < 4; s++) {
    double *kq = dd->kq + (size_t)s * nq, *kv = dd->kv + (size_t)s * nv;
    if (s == 0) {
      memcpy(qs, dd->q0, sizeof(double) * (size_t)nq);
      memcpy(vs, dd->v0, sizeof(double) * (size_t)nv);
    } else {
      const double *pq = kq - nq, *pv = kv - nv, ch = c[s] * h;
      for (int i = 0; i < nq; i++) qs[i] = dd->q0[i] + ch * pq[i];
      for (int i = 0; i < nv; i++) vs[i] = dd->v0[i] + ch * pv[i];
    }
    lk_status st = lk_dyn_kinematics(m, d, qs, vs);
    if (st) return st;
    gather_loads(m, d, qs, vs, d->s->time + c[s] * h);
    lk_dyn_aba(m, d, dd->tau_tot, dd->fext_tot, NULL, kv);
    lk_dyn_position_rate(m, qs, vs, kq);
  }
  const double w = h / 6.0;
  const double *kq = dd->kq, *kv = dd->kv;
  for (int i = 0; i < nq; i++)
    qs[i] = dd->q0[i] + w * (kq[i] + 2.0 * kq[nq + i] + 2.0 * kq[2 * nq + i] + kq[3 * nq + i]);
  for (int i = 0; i < nv; i++)
    vs[i] = dd->v0[i] + w * (kv[i] + 2.0 * kv[nv + i] + 2.0 * kv[2 * nv + i] + kv[3 * nv + i]);
  lk_dyn_normalize(m, qs);
  if (!lk_all_finite(vs, (size_t)nv) || !lk_all_finite(qs, (size_t)nq)) return LK_NON_FINITE;
  memcpy(d->qacc, dd->kv, sizeof(double) * (size_t)nv);
  return LK_OK;
}

/* RK4 integrates the smooth dynamics only, so a step is refused (with the
 * reason in the report's message) when a constraint acts at its start:
 * elements that always make rows (explicit contacts, loops, couplings,
 * tethers, supports, joint dry friction), a joint at or beyond a limit, or
 * two geoms that touch. A model whose geoms can never meet (one geom a
 * link and parent-child pairs filtered, as a double pendulum's) runs;
 * one whose geoms meet later runs until they do. Needs the kinematics at
 * the start (for the collision pass). */
static lk_status rk4_admissible(const lk_model *m, lk_data *d) {
  char *why = d->sim.st->report.message;
  const size_t nwhy = sizeof d->sim.st->report.message;
  const double t = d->s->time;
  const char *kind = m->nxcon > 0 ? "an explicit contact"
                     : m->nloop > 0 ? "a loop closure"
                     : m->ncoup > 0 ? "a joint coupling"
                     : m->nteth > 0 ? "a tether"
                     : m->nsup > 0  ? "a support"
                     : m->nprescribed > 0 ? "a prescribed motion"
                                    : NULL;
  if (kind) {
    snprintf(why, nwhy, "integrator rk4: the model has %s, which always acts; use euler", kind);
    return LK_UNSUPPORTED;
  }
  for (int k = 0; k < m->nv; k++)
    if (m->dof_friction[k] > 0) {
      snprintf(why, nwhy, "integrator rk4: joint '%.64s' has dry friction, which always acts; use euler",
               m->link[m->dof_link[k]].joint.name);
      return LK_UNSUPPORTED;
    }
  for (int i = 1; i < m->nlink; i++) {
    const lk_joint_spec *j = &m->link[i].joint;
    if (!j->limited || !(m->jtype[i] == LK_JOINT_REVOLUTE || m->jtype[i] == LK_JOINT_PRISMATIC))
      continue;
    double q = d->q[m->qadr[i]];
    if (q <= j->lower || q >= j->upper) {
      snprintf(why, nwhy,
               "integrator rk4: joint '%.64s' reached its %s limit %.17g at t = %.17g s "
               "(q = %.17g): the limit needs euler",
               j->name, q <= j->lower ? "lower" : "upper", q <= j->lower ? j->lower : j->upper, t, q);
      return LK_UNSUPPORTED;
    }
  }
  for (int i = 1; i < m->nlink; i++) /* ball cone limits */
    if (m->link[i].joint.limited && m->jtype[i] == LK_JOINT_BALL) {
      const double *q = d->q + m->qadr[i];
      double th = lk_v3_norm(lk_q_log(lk_q_normalize(lk_q(q[0], q[1], q[2], q[3]))));
      if (th >= m->link[i].joint.upper) {
        snprintf(why, nwhy,
                 "integrator rk4: ball joint '%.64s' reached its cone limit %.17g rad at "
                 "t = %.17g s: the limit needs euler",
                 m->link[i].joint.name, m->link[i].joint.upper, t);
        return LK_UNSUPPORTED;
      }
    }
  if (m->ngeom > 1) {
    lk_error err;
    lk_status st = lk_collide(m, d, &err);
    if (st) {
      snprintf(why, nwhy, "integrator rk4: collision pass: %.200s", err.message);
      return st;
    }
    for (int i = 0, n = lk_data_ncontact(d); i < n; i++) {
      const lk_contact *c = lk_data_contact(d, i);
      if (!(c->depth >= 0)) continue; /* within the margin, apart */
      char a[96], b[96];
      lk_model_geom_label(m, c->geom_a, a, sizeof a);
      lk_model_geom_label(m, c->geom_b, b, sizeof b);
      snprintf(why, nwhy,
               "integrator rk4: geoms '%.30s' (link '%.30s') and '%.30s' (link '%.30s') touch at "
               "t = %.17g s (depth %.3g m): contact needs euler",
               a, m->link[c->link_a].name, b, c->link_b ? m->link[c->link_b].name : "world", t,
               c->depth);
      return LK_UNSUPPORTED;
    }
  }
  return LK_OK;
}

/* No input acts in the step that just ended (sim.h: the energy watch). */
static int input_free(const lk_model *m, const lk_data *d, double t) {
  for (int k = 0; k < m->nv; k++)
    if (d->tau[k] != 0) return 0;
  for (int i = 0; i < m->nlink; i++)
    if (lk_v3_norm2(d->fext[i].lin) != 0 || lk_v3_norm2(d->fext[i].ang) != 0) return 0;
  for (int i = 0; i < m->nload; i++)
    if (t >= m->load[i].spec.start && t < m->load[i].spec.end) return 0;
  for (int i = 0; i < m->nact; i++) {
    const lk_actuator_spec *s = &m->act[i].spec;
    if (!d->sim.act_on[i]) continue;
    if (s->nschedule > 0 && t < s->schedule_t[s->nschedule - 1]) return 0; /* a moving target */
    if (s->type == LK_ACTUATOR_POSITION) continue;
    if (s->type == LK_ACTUATOR_VELOCITY ? d->sim.act_target[i] != 0 : d->sim.act_force[i] != 0)
      return 0;
  }
  return !d->sim.st->targets_set && d->sim.st->report.nrows == 0;
}

/* Kinetic energy (*T) plus gravity, springs (*Vs, with the servos) and
 * position servos at the data's state; the kinematics current. */
static double mechanical_energy(const lk_model *m, const lk_data *d, double *T, double *Vs) {
  double t = 0, v = lk_dyn_spring_energy(m, d->q), g = 0;
  for (int i = 1; i < m->nlink; i++) {
    t += lk_inertia_energy(&m->inertia[i], d->vl[i]);
    lk_vec3 c = lk_tf_point(&d->xw[i], m->link[i].com);
    g -= m->link[i].mass * lk_v3_dot(m->opt.gravity, c);
  }
  for (int k = 0; k < m->nv; k++) t += 0.5 * m->dof_armature[k] * d->v[k] * d->v[k];
  for (int i = 0; i < m->nact; i++) {
    const lk_actuator_spec *s = &m->act[i].spec;
    if (s->type != LK_ACTUATOR_POSITION || !(s->kp > 0) || !d->sim.act_on[i]) continue;
    double e = fabs(d->sim.act_target[i] - d->q[m->qadr[m->act[i].link]]), F = s->max_effort;
    v += s->kp * e <= F ? 0.5 * s->kp * e * e : F * e - 0.5 * F * F / s->kp;
  }
  *T = t;
  *Vs = v;
  return t + v + g;
}

/* The energy watch after a committed step (sim.h). */
static void watch_energy(const lk_model *m, lk_data *d, double t_start) {
  lk_sim_scalars *sc = d->sim.st;
  lk_sim_report *rep = &sc->report;
  rep->unstable = 0;
  rep->energy_growth = 0;
  if (sc->impact_gain) {
    /* An impact's impulses did positive work (constrain.c, impact.c): an
     * energy growth of the step, with or without input (issue 31.5). */
    rep->unstable = 1;
    rep->energy_growth = rep->impact_work;
    sc->impact_gain = 0;
  }
  int quiet = input_free(m, d, t_start);
  sc->targets_set = 0;
  if (!quiet) {
    sc->e_steps = 0;
    return;
  }
  double T, Vs, E = mechanical_energy(m, d, &T, &Vs);
  if (!isfinite(E)) return;
  if (sc->e_steps++ == 0) {
    sc->e_min = E;
    sc->e_tmax = T;
    /* The energy the stretch has to spend: its kinetic and elastic energy
     * and gravity's over the mechanism's size (issue 18.9). */
    sc->e_scale = T + fmax(Vs, 0) +
                  m->total_mass * lk_v3_norm(m->opt.gravity) * m->length_scale + 1e-9;
    sc->e_t0 = d->s->time;
    return;
  }
  if (T > sc->e_tmax) sc->e_tmax = T;
  double growth = E - sc->e_min;
  if (growth > 0.5 * sc->e_tmax + 1e-9 * (1 + fabs(sc->e_min))) {
    rep->unstable = 1;
    rep->energy_growth = growth;
    if (growth > LK_UNPHYSICAL_GROWTH * sc->e_scale && !rep->unphysical) {
      rep->unphysical = 1;
      snprintf(rep->message, sizeof rep->message,
               "the energy grew without input by %.3g J since t = %.6g s, %.3g times the %.3g J "
               "the mechanism had",
               growth, sc->e_t0, growth / sc->e_scale, sc->e_scale);
    }
  }
  if (E < sc->e_min) sc->e_min = E;
}

/* Issue 18.9: a contact deeper than the smaller of its two shapes' sizes
 * (lk_model_geom_extent) is no resting or impact state the step can have
 * produced: the step reports the state unphysical. The contacts are those
 * of the step's start. */
static void watch_depth(const lk_model *m, lk_data *d) {
  lk_sim_report *rep = &d->sim.st->report;
  for (int i = 0, n = lk_data_ncontact(d); i < n && !rep->unphysical; i++) {
    const lk_contact *c = lk_data_contact(d, i);
    double size = fmin(lk_model_geom_extent(&m->geom[c->geom_a].spec),
                       lk_model_geom_extent(&m->geom[c->geom_b].spec));
    if (!(c->depth > size)) continue;
    char a[96], b[96];
    lk_model_geom_label(m, c->geom_a, a, sizeof a);
    lk_model_geom_label(m, c->geom_b, b, sizeof b);
    rep->unphysical = 1;
    snprintf(rep->message, sizeof rep->message,
             "geom '%.60s' is %.3g m deep in geom '%.60s' at t = %.6g s, more than the shapes' "
             "size (%.3g m)",
             a, c->depth, b, d->s->time - m->opt.timestep, size);
  }
}

/* One attempt at the step, its journal begun; commits nothing of q, v
 * and the time. */
static lk_status step_once(const lk_model *m, lk_data *d, double h) {
  lk_status st;
  lk_sim_journal_begin(m, d);
  if (m->opt.integrator == LK_INTEGRATOR_RK4) {
    /* RK4 is the contact-free accuracy integrator: constraints need the
     * velocity-level Euler step. Its report says what stopped it. */
    memset(&d->sim.st->report, 0, sizeof d->sim.st->report);
    d->sim.st->report.detail = "";
    st = lk_dyn_kinematics_current(m, d);
    if (!st && lk_sim_has_constraints(m)) st = rk4_admissible(m, d);
    if (!st) st = step_rk4(m, d, h);
    d->sim.st->report.status = st;
  } else {
    st = step_euler(m, d, h);
  }
  return st;
}

lk_status lk_step(const lk_model *m, lk_data *d) {
  if (!lk_data_matches(m, d)) return LK_INVALID_ARGUMENT;
  const int nq = m->nq, nv = m->nv;
  if (!lk_all_finite(d->q, (size_t)nq) || !lk_all_finite(d->v, (size_t)nv) ||
      !lk_all_finite(d->tau, (size_t)nv) || !lk_dyn_fext_finite(m, d->fext))
    return LK_NON_FINITE;
  const double h = m->opt.timestep;
  lk_status st;
  for (int attempt = 0;; attempt++) {
    st = step_once(m, d, h);
    if (!st) break;
    /* A failed step leaves the data as it was (journal.c) */
    int found = d->col.st->nfound, cap = d->col.capacity;
    lk_status rs = lk_sim_journal_restore(m, d);
    if (rs) return rs;
    /* ... and when it found more contacts than the data holds, without a
     * capacity set by the user (options.max_contacts), the data grows and
     * the step is made again from its start (lk_data_grow_contacts: the
     * capacity at least doubles, so a run grows a few times at most) */
    if (st != LK_CAPACITY_EXCEEDED || m->opt.max_contacts > 0 || found <= cap || attempt > 0)
      return st;
    long want = 2L * cap;
    while (want < found) want *= 2;
    if (want > INT_MAX / 8) return st;
    lk_status gs = lk_data_grow_contacts(d, (int)want);
    if (gs) return d->sim.st->report.status = gs;
  }
  memcpy(d->q, d->dyn.qnew, sizeof(double) * (size_t)nq);
  memcpy(d->v, d->dyn.vnew, sizeof(double) * (size_t)nv);
  d->s->time += h;
  d->s->steps++;
  /* Issue 19.10: link poses and velocities after lk_step are those of the
   * new state, so that a program reading a pose after stepping gets where
   * the link is now. The next step starts from them (unless q or v were
   * written in between), so this costs one comparison of q and v a step,
   * not a second forward kinematics. */
  st = lk_dyn_kinematics(m, d, d->q, d->v);
  d->sim.st->report.unphysical = 0;
  d->sim.st->report.message[0] = 0;
  if (!st) watch_depth(m, d);
  if (!st) watch_energy(m, d, d->s->time - h);
  return st;
}
