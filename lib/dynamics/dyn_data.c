/* Layout of the dynamics layer's workspaces in the data arena. */
#include "dynamics/dyn_data.h"

#include "model/model_impl.h"

void lk_dyn_data_layout(const lk_model *m, lk_dyn_data *dd, lk_arena *a) {
  int nl = m->nlink, nv = m->nv, nq = m->nq;
  dd->st = LK_ARENA_ARRAY(a, lk_dyn_scalars, 1);
  const size_t nblk = m->tree_madr[m->ntree]; /* sum over trees of n_t^2 */
  dd->M = (double *)lk_arena_take(a, sizeof(double) * nblk);
  dd->L = (double *)lk_arena_take(a, sizeof(double) * nblk);
  dd->D = LK_ARENA_ARRAY(a, double, nv);
  dd->Dinv = LK_ARENA_ARRAY(a, double, nv);
  dd->fwork = LK_ARENA_ARRAY(a, double, nv);
  dd->dend = LK_ARENA_ARRAY(a, int, nv);
  dd->Ic = LK_ARENA_ARRAY(a, lk_inertia, nl);
  dd->IA = LK_ARENA_ARRAY(a, lk_abi, nl);
  dd->pA = LK_ARENA_ARRAY(a, lk_force, nl);
  dd->a = LK_ARENA_ARRAY(a, lk_motion, nl);
  dd->U = LK_ARENA_ARRAY(a, lk_force, nv);
  dd->Dfac = LK_ARENA_ARRAY(a, double, nv * 6);
  dd->u = LK_ARENA_ARRAY(a, double, nv);
  dd->tau_tot = LK_ARENA_ARRAY(a, double, nv);
  dd->fext_tot = LK_ARENA_ARRAY(a, lk_force, nl);
  dd->diag = LK_ARENA_ARRAY(a, double, nv);
  dd->tmp = LK_ARENA_ARRAY(a, double, nv);
  dd->vnew = LK_ARENA_ARRAY(a, double, nv);
  dd->qnew = LK_ARENA_ARRAY(a, double, nq);
  dd->q0 = LK_ARENA_ARRAY(a, double, nq);
  dd->v0 = LK_ARENA_ARRAY(a, double, nv);
  dd->kq = LK_ARENA_ARRAY(a, double, 4 * nq);
  dd->kv = LK_ARENA_ARRAY(a, double, 4 * nv);
  dd->mrow = LK_ARENA_ARRAY(a, size_t, nv);
  dd->kin_q = LK_ARENA_ARRAY(a, double, nq);
  dd->kin_v = LK_ARENA_ARRAY(a, double, nv);
  dd->mid_corr = LK_ARENA_ARRAY(a, double, 2 * nv);
  dd->vmid = LK_ARENA_ARRAY(a, double, nv);
  dd->acc0 = LK_ARENA_ARRAY(a, double, nv);
  dd->vlm = LK_ARENA_ARRAY(a, lk_motion, nl);
}

/* The arena is zeroed by lk_data_reset(); zero is the right start for every
 * workspace (no valid M or factor, and M's structural zeros in place).
 * dend: the DoFs below DoF k are the later DoFs of its own link and those
 * of the links in its link's subtree, which preorder makes one contiguous
 * range ending where the next link outside the subtree starts.
 * mrow: the row of each DoF in its tree's block, shifted so that the
 * column is the DoF itself (dyn_data.h). */
void lk_dyn_data_reset(const lk_model *m, lk_dyn_data *dd) {
  for (int i = 1; i < m->nlink; i++) {
    int e = m->subtree_end[i];
    int end = e < m->nlink ? m->vadr[e] : m->nv;
    for (int k = m->vadr[i]; k < m->vadr[i] + m->jnv[i]; k++) dd->dend[k] = end;
  }
  for (int t = 0; t < m->ntree; t++) {
    const int v0 = m->tree_vadr[t], n = m->tree_vadr[t + 1] - v0;
    for (int a = 0; a < n; a++)
      dd->mrow[v0 + a] = m->tree_madr[t] + (size_t)a * (size_t)n - (size_t)v0;
  }
}
