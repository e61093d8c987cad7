/* Composite-rigid-body algorithm: the joint-space mass matrix M(q)
 * (Featherstone 2008, table 6.2), armature on the diagonal. */
#include <string.h>

#include "core/internal.h"
#include "dynamics/dynamics_impl.h"

void lk_dyn_crba(const lk_model *m, lk_data *d, const double *diag) {
  lk_dyn_data *dd = &d->dyn;
  const int nl = m->nlink;
  lk_inertia *Ic = dd->Ic;
  for (int i = 1; i < nl; i++) Ic[i] = m->inertia[i];
  /* Composite inertias, leaves first: I^c_p += X^T I^c_i X. Preorder puts
   * every child after its parent, so a reverse sweep sees whole subtrees. */
  for (int i = nl - 1; i > 0; i--) {
    int p = m->parent[i];
    if (p > 0) {
      lk_inertia t = lk_tf_inertia(&d->xup[i], &Ic[i]);
      Ic[p] = lk_inertia_add(&Ic[p], &t);
    }
  }
  /* Column k of M (k a DoF of link i) is S_j^T F for the DoFs j of i and
   * of its ancestors, with F = I^c_i S_k carried to each ancestor's frame.
   * Only that pattern is written; the other entries are structural zeros
   * that stay zero from the reset. All those DoFs are in the tree of link
   * i, so these are entries of its block: M_kj is M[mrow[k] + j]. */
  double *M = dd->M;
  const size_t *mrow = dd->mrow;
  for (int i = 1; i < nl; i++) {
    int ni = m->jnv[i];
    for (int c = 0; c < ni; c++) {
      int k = m->vadr[i] + c;
      double *Mk = M + mrow[k];
      lk_force F = lk_inertia_mul(&Ic[i], d->S[k]);
      for (int r = 0; r <= c; r++) {
        int j = m->vadr[i] + r;
        double x = lk_mo_dot_fo(d->S[j], F);
        Mk[j] = x;
        M[mrow[j] + k] = x;
      }
      for (int a = i; m->parent[a] > 0;) {
        F = lk_tf_force(&d->xup[a], F);
        a = m->parent[a];
        for (int r = 0; r < m->jnv[a]; r++) {
          int j = m->vadr[a] + r;
          double x = lk_mo_dot_fo(d->S[j], F);
          Mk[j] = x;
          M[mrow[j] + k] = x;
        }
      }
      Mk[k] += m->dof_armature[k] + (diag ? diag[k] : 0.0);
    }
  }
  /* The public getter only shows the plain M(q) (armature included). */
  dd->st->mass_valid = diag == NULL;
  dd->st->factor_valid = 0;
}

lk_status lk_mass_matrix(const lk_model *m, lk_data *d) {
  lk_status st = lk_forward_kinematics(m, d);
  if (st) return st;
  lk_dyn_crba(m, d, NULL);
  if (!lk_all_finite(d->dyn.M, m->tree_madr[m->ntree])) {
    d->dyn.st->mass_valid = 0;
    return LK_NON_FINITE;
  }
  return LK_OK;
}

int lk_mass_matrix_nblocks(const lk_model *m) { return lk_model_ok(m) ? m->ntree : 0; }

const double *lk_mass_matrix_block(const lk_model *m, const lk_data *d, int b, int *first,
                                   int *size) {
  if (!lk_data_matches(m, d) || !d->dyn.st->mass_valid || b < 0 || b >= m->ntree) return NULL;
  if (first) *first = m->tree_vadr[b];
  if (size) *size = m->tree_vadr[b + 1] - m->tree_vadr[b];
  return d->dyn.M + m->tree_madr[b];
}

lk_status lk_mass_matrix_dense(const lk_model *m, const lk_data *d, double *out) {
  if (!lk_data_matches(m, d) || !d->dyn.st->mass_valid || (!out && m->nv > 0))
    return LK_INVALID_ARGUMENT;
  const size_t nv = (size_t)m->nv;
  if (nv > 0) memset(out, 0, sizeof(double) * nv * nv);
  for (int t = 0; t < m->ntree; t++) {
    const size_t v0 = (size_t)m->tree_vadr[t], n = (size_t)m->tree_vadr[t + 1] - v0;
    const double *Mb = d->dyn.M + m->tree_madr[t];
    for (size_t a = 0; a < n; a++) memcpy(out + (v0 + a) * nv + v0, Mb + a * n, sizeof(double) * n);
  }
  return LK_OK;
}
