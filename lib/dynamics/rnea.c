/* Recursive Newton-Euler: inverse dynamics and the bias forces
 * (Featherstone 2008, table 5.1). */
#include <string.h>

#include "core/internal.h"
#include "dynamics/dynamics_impl.h"

int lk_dyn_fext_finite(const lk_model *m, const lk_force *fext) {
  if (!fext) return 1;
  for (int i = 0; i < m->nlink; i++)
    if (!lk_v3_isfinite(fext[i].ang) || !lk_v3_isfinite(fext[i].lin)) return 0;
  return 1;
}

void lk_dyn_rnea(const lk_model *m, lk_data *d, const double *qacc, const lk_force *fext,
                 int gravity, double *tau) {
  lk_dyn_data *dd = &d->dyn;
  lk_motion *a = dd->a;
  lk_force *f = dd->pA;
  /* Gravity as a fictitious upward acceleration of the base (a_0 = -g),
   * which adds exactly the weight of every link. */
  a[0] = lk_mo(lk_v3_zero(), gravity ? lk_v3_neg(m->opt.gravity) : lk_v3_zero());
  for (int i = 1; i < m->nlink; i++) {
    int p = m->parent[i];
    lk_motion ai = lk_mo_add(lk_tf_inv_motion(&d->xup[i], a[p]), d->cl[i]);
    if (qacc)
      for (int k = m->vadr[i], e = k + m->jnv[i]; k < e; k++) ai = lk_mo_madd(ai, d->S[k], qacc[k]);
    a[i] = ai;
    const lk_inertia *I = &m->inertia[i];
    lk_force fi =
        lk_fo_add(lk_inertia_mul(I, ai), lk_mo_cross_fo(d->vl[i], lk_inertia_mul(I, d->vl[i])));
    if (fext) fi = lk_fo_sub(fi, lk_tf_inv_force(&d->xw[i], fext[i]));
    f[i] = fi;
  }
  for (int i = m->nlink - 1; i > 0; i--) {
    /* Armature is a diagonal rotor inertia that the links do not carry. */
    for (int k = m->vadr[i], e = k + m->jnv[i]; k < e; k++)
      tau[k] = lk_mo_dot_fo(d->S[k], f[i]) + (qacc ? m->dof_armature[k] * qacc[k] : 0.0);
    int p = m->parent[i];
    if (p > 0) f[p] = lk_fo_add(f[p], lk_tf_force(&d->xup[i], f[i]));
  }
}

void lk_dyn_velocity_forces(const lk_model *m, lk_data *d, const double *v, double *tau) {
  lk_dyn_data *dd = &d->dyn;
  lk_motion *vl = dd->vlm, *a = dd->a;
  lk_force *f = dd->pA;
  vl[0] = lk_mo_zero();
  a[0] = lk_mo_zero();
  for (int i = 1; i < m->nlink; i++) {
    int p = m->parent[i];
    /* the joint velocity S qdot and, for a free joint, the apparent
     * derivative of its S (kinematics.c) */
    lk_motion vJ = lk_mo_zero();
    for (int k = m->vadr[i], e = k + m->jnv[i]; k < e; k++) vJ = lk_mo_madd(vJ, d->S[k], v[k]);
    lk_motion vi = lk_mo_add(lk_tf_inv_motion(&d->xup[i], vl[p]), vJ);
    lk_motion c = lk_mo_cross_mo(vi, vJ);
    if (m->jtype[i] == LK_JOINT_FREE)
      c = lk_mo_add(c, lk_mo(lk_v3_zero(), lk_v3_neg(lk_v3_cross(vJ.ang, vJ.lin))));
    vl[i] = vi;
    a[i] = lk_mo_add(lk_tf_inv_motion(&d->xup[i], a[p]), c);
    const lk_inertia *I = &m->inertia[i];
    f[i] = lk_fo_add(lk_inertia_mul(I, a[i]), lk_mo_cross_fo(vl[i], lk_inertia_mul(I, vl[i])));
  }
  for (int i = m->nlink - 1; i > 0; i--) {
    for (int k = m->vadr[i], e = k + m->jnv[i]; k < e; k++) tau[k] = lk_mo_dot_fo(d->S[k], f[i]);
    int p = m->parent[i];
    if (p > 0) f[p] = lk_fo_add(f[p], lk_tf_force(&d->xup[i], f[i]));
  }
}

lk_status lk_bias_forces(const lk_model *m, lk_data *d, double *c) {
  if (!c) return LK_INVALID_ARGUMENT;
  lk_status st = lk_forward_kinematics(m, d);
  if (st) return st;
  double *t = d->dyn.tmp;
  lk_dyn_rnea(m, d, NULL, NULL, 1, t);
  if (!lk_all_finite(t, (size_t)m->nv)) return LK_NON_FINITE;
  memcpy(c, t, sizeof(double) * (size_t)m->nv);
  return LK_OK;
}

lk_status lk_inverse_dynamics(const lk_model *m, lk_data *d, const double *qacc, double *tau) {
  if (!tau || !qacc) return LK_INVALID_ARGUMENT;
  lk_status st = lk_forward_kinematics(m, d);
  if (st) return st;
  const int nv = m->nv;
  if (!lk_all_finite(qacc, (size_t)nv) || !lk_dyn_fext_finite(m, d->fext)) return LK_NON_FINITE;
  double *t = d->dyn.tmp, *pas = d->dyn.tau_tot;
  lk_dyn_rnea(m, d, qacc, d->fext, 1, t);
  lk_dyn_passive(m, d->q, d->v, 1, 1, pas);
  for (int k = 0; k < nv; k++) t[k] -= pas[k];
  if (!lk_all_finite(t, (size_t)nv)) return LK_NON_FINITE;
  memcpy(tau, t, sizeof(double) * (size_t)nv);
  return LK_OK;
}
