/* Factorization of the mass matrix and solves with it.
 *
 * The tree method is Featherstone's LTDL (2008, section 6.5, tables 6.3 and
 * 6.4): M = L^T D L with L unit lower triangular and the same sparsity as
 * M, which is that of the tree (M_ij != 0 only when DoF j is on the path
 * from DoF i to the root, lambda = dof_parent). Working only on the ancestor
 * chains costs sum over DoFs of depth^2 and creates no fill-in; on a chain
 * that is nv^3/6 like dense Cholesky, on a branched tree much less. The
 * dense method is GSL's Cholesky on a view of the same buffer, kept as the
 * reference that the tests compare against. */
#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>
#include <string.h>

#include "core/internal.h"
#include "dynamics/dynamics_impl.h"

static lk_status factor_tree(const lk_model *m, lk_dyn_data *dd) {
  const int nv = m->nv;
  const int *lambda = m->dof_parent;
  double *H = dd->L;
  /* Copy the lower-triangular pattern of M (each row's ancestor chain). */
  for (int k = 0; k < nv; k++) {
    double *Hk = H + (size_t)k * nv;
    const double *Mk = dd->M + (size_t)k * nv;
    Hk[k] = Mk[k];
    for (int j = lambda[k]; j >= 0; j = lambda[j]) Hk[j] = Mk[j];
  }
  /* Table 6.3, from the last DoF up: row k's entries are final once all
   * its descendants have been eliminated. */
  for (int k = nv - 1; k >= 0; k--) {
    double *Hk = H + (size_t)k * nv;
    double dk = Hk[k];
    if (!(dk > 0) || !isfinite(dk)) return LK_SINGULAR;
    double inv = 1.0 / dk;
    dd->Dinv[k] = inv;
    for (int a = lambda[k]; a >= 0; a = lambda[a]) {
      double t = Hk[a] * inv;
      double *Ha = H + (size_t)a * nv;
      for (int b = a; b >= 0; b = lambda[b]) Ha[b] -= Hk[b] * t;
      Hk[a] = t;
    }
  }
  return LK_OK;
}

static lk_status factor_dense(const lk_model *m, lk_dyn_data *dd) {
  const int nv = m->nv;
  if (nv == 0) return LK_OK;
  lk_gsl_init();
  memcpy(dd->L, dd->M, sizeof(double) * (size_t)nv * (size_t)nv);
  gsl_matrix_view A = gsl_matrix_view_array(dd->L, (size_t)nv, (size_t)nv);
  int rc = gsl_linalg_cholesky_decomp1(&A.matrix);
  if (rc == GSL_EDOM) return LK_SINGULAR; /* GSL's "not positive definite" */
  return lk_status_from_gsl(rc);
}

lk_status lk_dyn_factor(const lk_model *m, lk_data *d, lk_factor_method how) {
  lk_dyn_data *dd = &d->dyn;
  lk_status st = how == LK_FACTOR_DENSE ? factor_dense(m, dd) : factor_tree(m, dd);
  dd->st->factor_valid = st == LK_OK;
  dd->st->factor_method = (int)how;
  return st;
}

static void solve_tree(const lk_model *m, const lk_dyn_data *dd, double *x) {
  const int nv = m->nv;
  const int *lambda = m->dof_parent;
  const double *L = dd->L;
  /* x <- L^-T x, leaves to root. */
  for (int i = nv - 1; i >= 0; i--) {
    double xi = x[i];
    const double *Li = L + (size_t)i * nv;
    for (int j = lambda[i]; j >= 0; j = lambda[j]) x[j] -= Li[j] * xi;
  }
  /* x <- D^-1 x, then x <- L^-1 x, root to leaves. */
  for (int i = 0; i < nv; i++) {
    double xi = x[i] * dd->Dinv[i];
    const double *Li = L + (size_t)i * nv;
    for (int j = lambda[i]; j >= 0; j = lambda[j]) xi -= Li[j] * x[j];
    x[i] = xi;
  }
}

static void solve_dense(const lk_model *m, const lk_dyn_data *dd, double *x) {
  const int nv = m->nv;
  /* The factor is only read; GSL's API takes a non-const matrix. */
  gsl_matrix_view A = gsl_matrix_view_array(dd->L, (size_t)nv, (size_t)nv);
  gsl_vector_view b = gsl_vector_view_array(x, (size_t)nv);
  gsl_linalg_cholesky_svx(&A.matrix, &b.vector);
}

void lk_dyn_solve(const lk_model *m, const lk_data *d, double *x, int nrhs) {
  const lk_dyn_data *dd = &d->dyn;
  if (m->nv == 0) return;
  for (int r = 0; r < nrhs; r++) {
    double *xr = x + (size_t)r * (size_t)m->nv;
    if (dd->st->factor_method == LK_FACTOR_DENSE)
      solve_dense(m, dd, xr);
    else
      solve_tree(m, dd, xr);
  }
}

lk_status lk_mass_factor(const lk_model *m, lk_data *d, lk_factor_method how) {
  if (!lk_data_matches(m, d)) return LK_INVALID_ARGUMENT;
  if (how != LK_FACTOR_TREE && how != LK_FACTOR_DENSE) return LK_INVALID_ARGUMENT;
  if (!d->dyn.st->mass_valid) return LK_INVALID_ARGUMENT;
  return lk_dyn_factor(m, d, how);
}

lk_status lk_mass_solve(const lk_model *m, const lk_data *d, double *x, int nrhs) {
  if (!lk_data_matches(m, d) || nrhs < 0 || (!x && nrhs > 0)) return LK_INVALID_ARGUMENT;
  if (!d->dyn.st->factor_valid) return LK_INVALID_ARGUMENT;
  size_t n = (size_t)nrhs * (size_t)m->nv;
  if (!lk_all_finite(x, n)) return LK_NON_FINITE;
  lk_dyn_solve(m, d, x, nrhs);
  return lk_all_finite(x, n) ? LK_OK : LK_NON_FINITE;
}
