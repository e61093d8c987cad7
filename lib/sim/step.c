/* The time step (design: the step at velocity level).
 *
 *   1. kinematics (then collision: contacts matched to last step's)
 *   2. applied forces: tau, springs, damping, link wrenches
 *   3. free velocity v* = v + h M~^-1 (f - c),  M~ = M + h B
 *   4. constraint rows J, b = J v* + stabilization
 *   5. LCP for the impulses lambda; v+ = v* + M~^-1 J^T lambda
 *   6. q+ = q (+) h v+
 *   7. friction states, reports
 * Steps 4, 5 and 7 are the constraint layer's (lk_sim_constrain, in
 * constrain.c); loop closures and couplings are then projected back onto
 * their manifold (project.c). q, v and the time are computed into
 * workspaces and committed at the end, so a failed step leaves them as they
 * were (its report says why it failed). */
#include <string.h>

#include "core/internal.h"
#include "dynamics/dynamics_impl.h"
#include "linkage/sim.h"
#include "sim/sim_internal.h"

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
  lk_status st = lk_dyn_kinematics(m, d, d->q, d->v); /* 1 */
  if (st) return st;
  gather_loads(m, d, d->q, d->v, d->s->time); /* 2 */
  for (int k = 0; k < nv; k++) dd->diag[k] = h * m->dof_damping[k];
  /* 3: M~^-1 (f - c), M~ = M + h B; the damping force -B v is already in
   * f, which makes the damping implicit: (M + h B) v+ = M v + h (f_other).
   * With constraints the step needs M~ factored anyway: RNEA's bias forces
   * c and one solve with that factor cost less than a separate ABA.
   * Without, ABA (h B added to the armature) in O(n), and no factor. */
  double *acc = dd->tmp;
  const int constrained = lk_sim_has_constraints(m);
  if (constrained) {
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
  if (constrained) { /* 4-5 */
    st = lk_sim_constrain(m, d, dd->vnew);
    if (st) return st;
  }
  memcpy(dd->qnew, d->q, sizeof(double) * (size_t)m->nq); /* 6 */
  lk_dyn_integrate(m, dd->qnew, dd->vnew, h);
  st = lk_sim_project(m, d, dd->qnew);
  if (st) return st;
  if (!lk_all_finite(dd->vnew, (size_t)nv) || !lk_all_finite(dd->qnew, (size_t)m->nq))
    return LK_NON_FINITE;
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

lk_status lk_step(const lk_model *m, lk_data *d) {
  if (!lk_data_matches(m, d)) return LK_INVALID_ARGUMENT;
  const int nq = m->nq, nv = m->nv;
  if (!lk_all_finite(d->q, (size_t)nq) || !lk_all_finite(d->v, (size_t)nv) ||
      !lk_all_finite(d->tau, (size_t)nv) || !lk_dyn_fext_finite(m, d->fext))
    return LK_NON_FINITE;
  const double h = m->opt.timestep;
  /* RK4 is the contact-free accuracy integrator: constraints need the
   * velocity-level Euler step. */
  if (m->opt.integrator == LK_INTEGRATOR_RK4 && lk_sim_has_constraints(m)) return LK_UNSUPPORTED;
  lk_status st = m->opt.integrator == LK_INTEGRATOR_RK4 ? step_rk4(m, d, h) : step_euler(m, d, h);
  /* Whatever happened, the kinematics no longer describe d->q (the RK4
   * stages, or the committed new state). */
  d->s->kinematics_valid = 0;
  if (st) return st;
  memcpy(d->q, d->dyn.qnew, sizeof(double) * (size_t)nq);
  memcpy(d->v, d->dyn.vnew, sizeof(double) * (size_t)nv);
  d->s->time += h;
  d->s->steps++;
  return LK_OK;
}
