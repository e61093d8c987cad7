/* Public forward dynamics: ABA, or CRBA + RNEA + the tree factorization. */
#include <string.h>

#include "core/internal.h"
#include "dynamics/dynamics_impl.h"

lk_status lk_forward_dynamics(const lk_model *m, lk_data *d, lk_fd_method how) {
  if (how != LK_FD_ABA && how != LK_FD_CRBA) return LK_INVALID_ARGUMENT;
  lk_status st = lk_forward_kinematics(m, d);
  if (st) return st;
  const int nv = m->nv;
  if (!lk_all_finite(d->tau, (size_t)nv) || !lk_dyn_fext_finite(m, d->fext)) return LK_NON_FINITE;
  lk_dyn_data *dd = &d->dyn;
  double *f = dd->tau_tot, *x = dd->tmp;
  lk_dyn_passive(m, d->q, d->v, 1, 1, f);
  for (int k = 0; k < nv; k++) f[k] += d->tau[k];
  if (how == LK_FD_ABA) {
    lk_dyn_aba(m, d, f, d->fext, NULL, x);
  } else {
    /* M qacc = f - (c - J^T fext); RNEA gives the bracket. */
    lk_dyn_rnea(m, d, NULL, d->fext, 1, x);
    for (int k = 0; k < nv; k++) x[k] = f[k] - x[k];
    lk_dyn_crba(m, d, NULL);
    st = lk_dyn_factor(m, d, LK_FACTOR_TREE);
    if (st) return st;
    lk_dyn_solve(m, d, x, 1);
  }
  if (!lk_all_finite(x, (size_t)nv)) return LK_NON_FINITE;
  memcpy(d->qacc, x, sizeof(double) * (size_t)nv);
  return LK_OK;
}
