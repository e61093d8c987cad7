/* The quasi-static analysis (linkage/statics.h): load increments, each a
 * sequence of LCPs on the displacement increment with the stiffness in
 * place of M/h^2, over the step's own constraint rows (geometry and
 * explicit contacts, supports, joint dry friction), with a static/sliding
 * state per support iterated until nothing changes.
 *
 * Piping codes treat support friction the same way: a stiffness restraint
 * while stuck, a constant mu N opposing the motion once slipping (Peng,
 * "Treatment of Support Friction in Pipe Stress Analysis", ASME PVP-169,
 * 1989); the LCP makes the stick/slip choice and the slip direction part of
 * each solve instead of a guess to correct. */
#include <math.h>
#include <string.h>

#include "constraint/constraint_impl.h"
#include "linkage/statics.h"
#include "sim/sim_internal.h"

void lk_static_options_default(lk_static_options *o) {
  memset(o, 0, sizeof *o);
  o->nsteps = 1;
  o->load_factors = NULL;
  o->gravity = 1;
  o->max_iterations = 50;
  o->tolerance = 1e-9;
  o->slip_tolerance = 1e-12;
  o->regularization = 0;
  o->initial_state = LK_FRICTION_STATIC;
}

void lk_static_reset(const lk_model *m, lk_data *d, lk_friction_state state) {
  if (!lk_data_matches(m, d)) return;
  lk_models_data *x = &d->sim.x;
  for (int i = 0; i < m->nsup; i++) {
    memset(&x->sup[i], 0, sizeof x->sup[i]);
    x->sup[i].state = state;
  }
  memset(x->total, 0, sizeof(double) * (size_t)m->nv);
  memset(&x->st->report, 0, sizeof x->st->report);
}

/* r = lambda (gravity + tau + loads + actuators + fext) + springs at d->q,
 * v = 0; the kinematics at d->q. Returns max_k |applied_k|. */
static double residual(const lk_model *m, lk_data *d, double lambda, int gravity, double *r) {
  lk_dyn_data *dd = &d->dyn;
  const int nv = m->nv;
  lk_dyn_kinematics(m, d, d->q, d->v);
  memcpy(dd->tau_tot, d->tau, sizeof(double) * (size_t)nv);
  memcpy(dd->fext_tot, d->fext, sizeof(lk_force) * (size_t)m->nlink);
  if (m->nact > 0 || m->nload > 0)
    lk_sim_applied_forces(m, d, d->q, d->v, d->s->time, dd->tau_tot, dd->fext_tot);
  lk_dyn_rnea(m, d, NULL, dd->fext_tot, gravity, dd->tmp); /* g(q) - J^T fext */
  double big = 0;
  for (int k = 0; k < nv; k++) {
    double f = lambda * (dd->tau_tot[k] - dd->tmp[k]);
    if (fabs(f) > big) big = fabs(f);
    r[k] = f;
  }
  lk_dyn_passive(m, d->q, d->v, 1, 0, dd->tmp);
  for (int k = 0; k < nv; k++) r[k] += dd->tmp[k];
  return big;
}

static int is_sliding(lk_friction_state s) { return s == LK_FRICTION_DYNAMIC; }

/* The rows of one iteration at the current kinematics, with their static
 * settings: normal rows keep the gap after the increment >= 0, friction and
 * support rows see the increment's whole slip. */
static lk_status build_rows(const lk_model *m, lk_data *d) {
  lk_sim_data *sd = &d->sim;
  lk_models_data *x = &sd->x;
  const double h = m->opt.timestep;
  sd->st->ncontact = 0;
  lk_rows_compute_cdof(m, d);
  lk_rows_clear(d);
  lk_status st = lk_sim_geometry_contacts(m, d);
  if (!st) st = lk_sim_explicit_contacts(m, d);
  if (st) return st;
  for (int i = 0; i < m->nsup && !st; i++) {
    const lk_support_spec *s = &m->sup[i].spec;
    lk_support_mem *sm = &x->sup[i];
    double bound = (is_sliding(sm->state) ? s->mu_dynamic : s->mu_static) * s->normal_force;
    lk_vec3 t1 = lk_any_tangent(s->normal);
    if (sm->has_t1) {
      lk_vec3 t = lk_v3_sub(sm->t1, lk_v3_scale(s->normal, lk_v3_dot(s->normal, sm->t1)));
      if (lk_v3_norm(t) > 1e-9) t1 = lk_v3_normalize(t);
    }
    sm->t1 = t1;
    sm->has_t1 = 1;
    st = lk_support_add_rows(m, d, i, t1, bound, is_sliding(sm->state) ? 0 : bound, sm->rows);
  }
  if (!st) st = lk_dry_friction_rows(m, d);
  if (st) return st;
  for (int i = 0; i < sd->st->ncontact; i++) {
    lk_contact_mem *mem = &sd->cmem[i];
    if (mem->row[2] >= 0 && is_sliding(mem->state)) sd->row[mem->row[2]].mu = 0;
  }
  for (int r = 0; r < sd->st->nrow; r++) {
    lk_row *R = &sd->row[r];
    x->rfn[r] = -1;
    x->rmu[r] = 0;
    x->rdiag[r] = 0;
    switch (R->kind) {
      case LK_ROW_UNILATERAL:
        x->rlo[r] = 0;
        x->rhi[r] = INFINITY;
        R->bias = R->ckind == LK_CONSTRAINT_CONTACT ? -sd->contact[R->cindex].depth : 0;
        break;
      case LK_ROW_BOX: {
        double s = R->ckind == LK_CONSTRAINT_FRICTION ? 1.0 / h : 1.0; /* dry friction: F h */
        x->rlo[r] = R->lo * s;
        x->rhi[r] = R->hi * s;
        R->bias = lk_rows_dot(d, r, x->delta);
        break;
      }
      case LK_ROW_FRICTION:
        x->rlo[r] = -INFINITY;
        x->rhi[r] = INFINITY;
        x->rfn[r] = R->normal;
        x->rmu[r] = R->mu;
        R->bias = lk_rows_dot(d, r, x->delta);
        break;
      default:
        x->rlo[r] = -INFINITY;
        x->rhi[r] = INFINITY;
        break;
    }
    /* Y = K^-1 J^T (K diagonal) and J du_free. */
    const double *J = sd->jval + R->ofs;
    double *Y = sd->yval + R->ofs;
    for (int g = 0; g < 2 && R->tree[g] >= 0; g++) {
      for (int k = 0; k < R->len[g]; k++) Y[k] = J[k] / x->K[R->v0[g] + k];
      J += R->len[g];
      Y += R->len[g];
    }
    R->jv = lk_rows_dot(d, r, x->du_free);
  }
  return LK_OK;
}

/* A sliding group's next first tangent. Each iteration re-solves with the
 * friction fixed along -t1 and returns the slip s; the fixed point
 * t1 = s/|s| is the Coulomb direction. Taking t1 = s/|s| (the plain
 * fixed-point update) converges only linearly, at the rate b |C| / |s|
 * (C the compliance at the support): a support that slips 0.05 against
 * 3 N of friction on 100 N/m springs turns by -0.6 times its last error
 * each iteration, 50 iterations for 1e-12. The secant on the angle g
 * between t1 and the slip (sec->t1, sec->g: the last iteration's) is
 * superlinear and takes a handful. It falls back to the fixed-point step
 * when the secant is flat or would turn further than the slip does by
 * more than a right angle. */
static lk_vec3 next_tangent(lk_vec3 n, lk_vec3 t1, lk_vec3 u, lk_slip_secant *sec,
                            long long iter) {
  lk_vec3 b = lk_v3_cross(n, t1);
  double g = atan2(lk_v3_dot(u, b), lk_v3_dot(u, t1)); /* angle t1 -> u about n */
  double step = g;
  if (sec->iter != 0 && sec->iter == iter - 1) { /* recorded by the previous solve */
    lk_vec3 bp = lk_v3_cross(n, sec->t1);
    double a = atan2(lk_v3_dot(t1, bp), lk_v3_dot(t1, sec->t1)); /* t1_prev -> t1 */
    double den = g - sec->g;
    if (den != 0 && a != 0) {
      double sstep = -g * a / den; /* root of the line through (-a, g_prev), (0, g) */
      if (isfinite(sstep) && fabs(sstep - g) <= 0.5 * M_PI) step = sstep;
    }
  }
  sec->t1 = t1;
  sec->g = g;
  sec->iter = iter;
  return lk_v3_add(lk_v3_scale(t1, cos(step)), lk_v3_scale(b, sin(step)));
}

/* A friction group's new state from its slip s and force f (bound b in
 * the state it was solved with), n the normal of its tangent plane. Sets
 * *t1 (a unit vector along the slip, or the secant's next guess at it)
 * for a sliding group. Returns 1 for a state change; *turn = 1 when a
 * sliding group's slip left its first tangent. */
static int update_state(lk_friction_state *state, lk_vec3 n, lk_vec3 s, lk_vec3 f, double b,
                        double tol, lk_vec3 *t1, lk_slip_secant *sec, long long iter,
                        int *turn) {
  double ns = lk_v3_norm(s), nf = lk_v3_norm(f);
  *turn = 0;
  if (*state == LK_FRICTION_STATIC) {
    if (ns > tol || nf > b * (1 + 1e-9) + 1e-12) {
      *state = LK_FRICTION_DYNAMIC;
      if (ns > tol)
        *t1 = lk_v3_scale(s, 1.0 / ns);
      else if (nf > 0)
        *t1 = lk_v3_scale(f, -1.0 / nf);
      return 1;
    }
    return 0;
  }
  if (ns <= tol) {
    *state = LK_FRICTION_STATIC;
    return 1;
  }
  lk_vec3 u = lk_v3_scale(s, 1.0 / ns);
  if (lk_v3_norm(lk_v3_cross(u, *t1)) > 1e-12) *turn = 1; /* the slip turned */
  *t1 = sec ? next_tangent(n, *t1, u, sec, iter) : u;
  return 0;
}

static double row_z(const lk_data *d, int r) { return r >= 0 ? d->sim.row[r].z : 0; }
static double row_w(const lk_data *d, int r) { return r >= 0 ? d->sim.row[r].w : 0; }

/* States of every support and contact after a solve; fills their reports. */
static void update_states(const lk_model *m, lk_data *d, double tol, int *changes, int *turns,
                          int *nsliding) {
  const long long iter = ++d->sim.x.st->static_iter; /* the secants' clock */
  lk_sim_data *sd = &d->sim;
  lk_models_data *x = &sd->x;
  for (int i = 0; i < m->nsup; i++) {
    const lk_support_rec *sr = &m->sup[i];
    lk_support_mem *sm = &x->sup[i];
    double bound = (is_sliding(sm->state) ? sr->spec.mu_dynamic : sr->spec.mu_static) *
                   sr->spec.normal_force;
    int turn = 0;
    if (sr->dof >= 0) {
      double s = row_w(d, sm->rows[0]), f = row_z(d, sm->rows[0]);
      lk_vec3 t = lk_v3(1, 0, 0);
      *changes += update_state(&sm->state, lk_v3(0, 0, 1), lk_v3(s, 0, 0), lk_v3(f, 0, 0), bound,
                               tol, &t, NULL, 0, &turn);
      turn = 0;
      sm->reaction = f;
      sm->slip = s;
    } else {
      lk_vec3 t1 = sm->t1, t2 = lk_v3_cross(sr->spec.normal, t1);
      lk_vec3 s = lk_v3_add(lk_v3_scale(t1, row_w(d, sm->rows[0])),
                            lk_v3_scale(t2, row_w(d, sm->rows[1])));
      lk_vec3 f = lk_v3_add(lk_v3_scale(t1, row_z(d, sm->rows[0])),
                            lk_v3_scale(t2, row_z(d, sm->rows[1])));
      *changes += update_state(&sm->state, sr->spec.normal, s, f, bound, tol, &sm->t1, &sm->sec,
                               iter, &turn);
      sm->force = f;
      sm->slip_vec = s;
      sm->slip = lk_v3_norm(s);
    }
    *turns += turn;
    *nsliding += is_sliding(sm->state);
  }
  for (int i = 0; i < sd->st->ncontact; i++) {
    lk_contact_mem *mem = &sd->cmem[i];
    lk_contact_report *c = &sd->contact[i];
    lk_vec3 n = c->normal, t1 = mem->t1, t2 = lk_v3_cross(n, t1);
    double z[6] = {0, 0, 0, 0, 0, 0};
    for (int k = 0; k < 6; k++) z[k] = row_z(d, mem->row[k]);
    lk_vec3 s = lk_v3_add(lk_v3_scale(t1, row_w(d, mem->row[1])),
                          lk_v3_scale(t2, row_w(d, mem->row[2])));
    lk_vec3 f = lk_v3_add(lk_v3_scale(t1, z[1]), lk_v3_scale(t2, z[2]));
    c->fn = z[0];
    c->ft = f;
    c->slip = s;
    c->slip_speed = lk_v3_norm(s);
    c->torsion = z[3];
    c->rolling_moment = lk_v3_zero();
    double cap = c->mu_static * c->fn;
    c->utilization = c->fn > 1e-9 && cap > 0 ? lk_v3_norm(f) / cap : 0;
    if (mem->row[1] >= 0 && z[0] > 0) {
      double bound = (is_sliding(mem->state) ? c->mu_dynamic : c->mu_static) * z[0];
      int turn = 0;
      *changes += update_state(&mem->state, n, s, f, bound, tol, &mem->t1, &mem->sec, iter,
                               &turn);
      *turns += turn;
    } else {
      mem->state = LK_FRICTION_STATIC;
    }
    *nsliding += mem->row[1] >= 0 && z[0] > 0 && is_sliding(mem->state);
    c->state = mem->state;
    mem->nrows = 0;
    for (int k = 0; k < 6; k++)
      if (mem->row[k] >= 0) {
        mem->z[k] = z[k];
        mem->nrows++;
      }
    mem->valid = 1;
  }
  lk_sim_geometry_contacts_done(m, d);
  lk_sim_explicit_contacts_done(m, d);
}

lk_status lk_static_increment(const lk_model *m, lk_data *d, const lk_static_options *opt,
                              int index, double lambda, lk_static_report *out, lk_error *err) {
  if (!lk_data_matches(m, d)) return lk_error_set(err, LK_INVALID_ARGUMENT, "model and data do not match");
  lk_static_options def;
  if (!opt) {
    lk_static_options_default(&def);
    opt = &def;
  }
  if (!isfinite(lambda) || opt->max_iterations < 1 || !(opt->tolerance >= 0) ||
      !(opt->slip_tolerance >= 0) || !(opt->regularization >= 0) ||
      !isfinite(opt->regularization))
    return lk_error_set(err, LK_INVALID_ARGUMENT, "static options out of range");
  if (m->nprescribed > 0) /* a motion in time: not a static question */
    return lk_error_set(err, LK_UNSUPPORTED,
                        "static analysis: the model prescribes a joint's motion (an actuator of type "
                        "prescribed_position or prescribed_velocity); simulate it instead");
  lk_sim_data *sd = &d->sim;
  lk_models_data *x = &sd->x;
  lk_static_report *rep = &x->st->report;
  memset(rep, 0, sizeof *rep);
  rep->increment = index;
  rep->load_factor = lambda;
  const int nv = m->nv;
  for (int k = 0; k < nv; k++) {
    x->K[k] = m->dof_stiffness[k] + opt->regularization;
    if (!(x->K[k] > 0)) {
      rep->status = LK_SINGULAR;
      if (out) *out = *rep;
      return lk_error_set(err, LK_SINGULAR,
                          "static analysis: joint '%s' (DoF %d) has no stiffness; give it a "
                          "stiffness or set a regularization",
                          m->link[m->dof_link[k]].joint.name, k);
    }
  }
  memset(d->v, 0, sizeof(double) * (size_t)nv);
  memset(x->delta, 0, sizeof(double) * (size_t)nv);
  double big = residual(m, d, lambda, opt->gravity, x->r);
  double tol = opt->tolerance * (1 + big);
  lk_status st = LK_OK;
  for (int it = 0; it < opt->max_iterations; it++) {
    for (int k = 0; k < nv; k++) x->du_free[k] = x->r[k] / x->K[k];
    st = build_rows(m, d);
    if (st) break;
    memcpy(x->du, x->du_free, sizeof(double) * (size_t)nv);
    if (sd->st->nrow > 0) {
      lk_sim_islands(m, d);
      for (int is = 0; is < sd->st->nisland && !st; is++) {
        lk_lcp_report lr;
        st = lk_sim_rows_lcp(m, d, is, &lr);
        rep->lcp_pivots += lr.pivots;
      }
      if (st) break;
      for (int r = 0; r < sd->st->nrow; r++) lk_rows_axpy(d, r, sd->row[r].z, 1, x->du);
    }
    rep->iterations++;
    int changes = 0, turns = 0, nsliding = 0;
    update_states(m, d, opt->slip_tolerance, &changes, &turns, &nsliding);
    rep->state_changes += changes;
    rep->nsliding = nsliding;
    lk_dyn_integrate(m, d->q, x->du, 1.0);
    for (int k = 0; k < nv; k++) {
      x->delta[k] += x->du[k];
      x->total[k] += x->du[k];
    }
    if (!lk_all_finite(d->q, (size_t)m->nq)) {
      st = LK_NON_FINITE;
      break;
    }
    /* Out of balance at the new configuration with this solve's forces. */
    residual(m, d, lambda, opt->gravity, x->r);
    memcpy(d->dyn.tmp, x->r, sizeof(double) * (size_t)nv);
    for (int r = 0; r < sd->st->nrow; r++) lk_rows_axpy(d, r, sd->row[r].z, 0, d->dyn.tmp);
    double oob = 0;
    for (int k = 0; k < nv; k++) oob = fmax(oob, fabs(d->dyn.tmp[k]));
    rep->out_of_balance = oob;
    if (changes == 0 && turns == 0 && oob <= tol) {
      rep->converged = 1;
      break;
    }
  }
  for (int k = 0; k < nv; k++) rep->max_displacement = fmax(rep->max_displacement, fabs(x->delta[k]));
  if (!st && !rep->converged) st = LK_NOT_CONVERGED;
  rep->status = st;
  if (out) *out = *rep;
  if (st == LK_NOT_CONVERGED)
    return lk_error_set(err, st,
                        "static increment %d (load factor %g) did not converge in %d iterations "
                        "(out of balance %g)",
                        index, lambda, rep->iterations, rep->out_of_balance);
  if (st) return lk_error_set(err, st, "static increment %d (load factor %g): %s", index, lambda,
                              lk_strerror(st));
  return LK_OK;
}

lk_status lk_static_solve(const lk_model *m, lk_data *d, const lk_static_options *opt,
                          lk_static_callback cb, void *ctx, lk_error *err) {
  if (!lk_data_matches(m, d)) return lk_error_set(err, LK_INVALID_ARGUMENT, "model and data do not match");
  lk_static_options def;
  if (!opt) {
    lk_static_options_default(&def);
    opt = &def;
  }
  if (opt->nsteps < 1) return lk_error_set(err, LK_INVALID_ARGUMENT, "static analysis: nsteps must be >= 1");
  lk_static_reset(m, d, opt->initial_state);
  for (int k = 0; k < opt->nsteps; k++) {
    double lambda = opt->load_factors ? opt->load_factors[k] : (double)(k + 1) / opt->nsteps;
    lk_static_report r;
    lk_status st = lk_static_increment(m, d, opt, k, lambda, &r, err);
    if (cb && cb(ctx, m, d, &r)) return st;
    if (st) return st;
  }
  return LK_OK;
}

const lk_static_report *lk_data_static_report(const lk_data *d) {
  return d ? &d->sim.x.st->report : NULL;
}

lk_status lk_data_support_report(const lk_model *m, const lk_data *d, int i, lk_support_report *out) {
  if (!lk_data_matches(m, d) || i < 0 || i >= m->nsup || !out) return LK_INVALID_ARGUMENT;
  const lk_support_mem *sm = &d->sim.x.sup[i];
  memset(out, 0, sizeof *out);
  out->state = sm->state;
  out->reaction = sm->reaction;
  out->force = sm->force;
  out->slip = sm->slip;
  out->slip_vec = sm->slip_vec;
  return LK_OK;
}

lk_status lk_data_static_displacement(const lk_model *m, const lk_data *d, double *du) {
  if (!lk_data_matches(m, d) || !du) return LK_INVALID_ARGUMENT;
  memcpy(du, d->sim.x.total, sizeof(double) * (size_t)m->nv);
  return LK_OK;
}
