/* Recursive Newton-Euler: inverse dynamics and the bias forces
 * (Featherstone 2008, table 5.1). */
#include <math.h>
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

/* The step's implicit midpoint on the gyroscopic term, M (v+ - v) = -h
 * w_m x I w_m, turns a spinning link's momentum in its own frame by the
 * Cayley map of h w_m, whose angle 2 atan(a/2) falls short of the exact
 * turn a = h |w_m| by a^3/12 a step: 0.2 rad a step (200 rad/s at 1 ms)
 * loses 0.33 % of the turn, and a top on a pivot precessed 0.65 % slow
 * (tests/sim/test_spin). Scaling the rotation's term by tan(a/2) / (a/2)
 * gives the Cayley map the exponential's angle, as the position update
 * exp(h w+) turns the link. A scalar on w x* I w leaves its power at v_m
 * zero, so the torque-free energy and |L| still hold to rounding. The
 * rotation is taken about the point the link turns about: its joint's
 * origin, or for a free joint its centre of mass (a pure couple, so that
 * a ballistic body's centre is left exactly as it was). The velocity
 * products of the joints (S-dot terms) and the link origin's translation
 * are left as they are. The scale stops growing at a = 2 (1.56), past
 * which the passes do not settle anyway. */
static double turn_scale(lk_vec3 w, double h) {
  double x2 = 0.25 * h * h * lk_v3_dot(w, w); /* (a/2)^2 */
  if (x2 < 0.015625) /* a/2 < 0.125: the series of tan(x)/x, to 1e-11 */
    return 1 + x2 * (1.0 / 3 + x2 * (2.0 / 15 + x2 * (17.0 / 315 + x2 * (62.0 / 2835))));
  double a = fmin(2 * sqrt(x2), 2.0);
  return tan(0.5 * a) / (0.5 * a);
}

static lk_force turn_correction(const lk_inertia *I, lk_vec3 w, int free, double h) {
  double s = turn_scale(w, h) - 1;
  if (!(s != 0)) return lk_fo_zero();
  lk_vec3 Iw = lk_m3_mulv(&I->I, w); /* about the link origin */
  if (free) {
    /* about the centre instead: Ic w = Io w - m (|c|^2 w - c (c . w)),
     * c = h / m, a pure couple */
    if (I->m > 0) {
      lk_vec3 c = lk_v3_scale(I->h, 1 / I->m);
      Iw = lk_v3_sub(Iw, lk_v3_scale(lk_v3_sub(lk_v3_scale(w, lk_v3_dot(c, c)),
                                               lk_v3_scale(c, lk_v3_dot(c, w))),
                                     I->m));
    }
    return lk_fo(lk_v3_scale(lk_v3_cross(w, Iw), s), lk_v3_zero());
  }
  /* (w, 0) x* I (w, 0) = (w x Io w, w x (w x m c)) */
  return lk_fo(lk_v3_scale(lk_v3_cross(w, Iw), s),
               lk_v3_scale(lk_v3_cross(w, lk_v3_cross(w, I->h)), s));
}

/* Whether link i is left out of lk_dyn_bias_at (no velocity products). */
static inline int no_products(const lk_model *m, int i) {
  return m->jnv[i] > 0 && !m->dof_products[m->vadr[i]];
}

void lk_dyn_bias_at(const lk_model *m, lk_data *d, const double *v, double h,
                    const lk_force *fext, double *tau) {
  lk_dyn_data *dd = &d->dyn;
  lk_motion *vl = dd->vlm, *a = dd->a;
  lk_force *f = dd->pA;
  vl[0] = lk_mo_zero();
  a[0] = lk_mo(lk_v3_zero(), lk_v3_neg(m->opt.gravity)); /* as lk_dyn_rnea */
  for (int i = 1; i < m->nlink; i++) {
    if (no_products(m, i)) continue;
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
    lk_force gyro = lk_mo_cross_fo(vi, lk_inertia_mul(I, vi));
    if (h > 0)
      gyro = lk_fo_add(gyro, turn_correction(I, vi.ang, m->jtype[i] == LK_JOINT_FREE, h));
    f[i] = lk_fo_add(lk_inertia_mul(I, a[i]), gyro);
    if (fext && (lk_v3_norm2(fext[i].ang) > 0 || lk_v3_norm2(fext[i].lin) > 0))
      f[i] = lk_fo_sub(f[i], lk_tf_inv_force(&d->xw[i], fext[i]));
  }
  for (int i = m->nlink - 1; i > 0; i--) {
    if (no_products(m, i)) continue;
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
