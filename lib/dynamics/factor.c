/* Factorization of the mass matrix and solves with it.
 *
 * The tree method is Featherstone's LTDL (2008, section 6.5, tables 6.3 and
 * 6.4): M = L^T D L with L unit lower triangular and the same sparsity as
 * M, which is that of the tree (M_ij != 0 only when DoF j is on the path
 * from DoF i to the root, lambda = dof_parent). It creates no fill-in and
 * costs sum over DoFs of depth x descendants: nv^3/6 on a serial chain like
 * dense Cholesky, much less on a branched tree. It is computed here in its
 * dot-product form over columns of L, whose non-zeros are contiguous in
 * preorder (measured faster than the table's row updates, which are
 * store-bound). The dense method is GSL's Cholesky on a view of the same
 * buffer, kept as the reference that the tests compare against.
 *
 * M and both factors are block diagonal over the model's trees of DoFs and
 * stored one block per tree (dyn_data.h): each method runs on each block
 * in turn, and a solve touches only the blocks of its right-hand side. */
#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>
#include <string.h>

#include "core/internal.h"
#include "core/simd.h"
#include "dynamics/dynamics_impl.h"

/* sum a[x] b[x] for x in [lo, hi), with four accumulators so that the
 * additions do not wait on each other (the order is fixed: deterministic). */
static inline double dot_range(const double *a, const double *b, int lo, int hi) {
  double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
  int x = lo;
  for (; x + 3 < hi; x += 4) {
    s0 += a[x] * b[x];
    s1 += a[x + 1] * b[x + 1];
    s2 += a[x + 2] * b[x + 2];
    s3 += a[x + 3] * b[x + 3];
  }
  for (; x < hi; x++) s0 += a[x] * b[x];
  return (s0 + s1) + (s2 + s3);
}

/* M = L^T D L entry by entry (the dot-product form of table 6.3): for j an
 * ancestor of i (or j = i),
 *   M_ij = L_ij D_i + sum over descendants m of i of L_mi D_m L_mj,
 * so going from the last DoF up, every term on the right is known. With L
 * stored by columns, each sum is a contiguous dot product over (i, dend_i);
 * no fill-in, and the cost is sum over DoFs of depth x descendants. Every
 * DoF in a sum and every ancestor is in i's tree, so column i of L and row
 * i of M are found at mrow[i] of their block storage, indexed by DoF; one
 * sweep does every tree. */
static lk_status factor_tree(const lk_model *m, lk_dyn_data *dd) {
  const int nv = m->nv;
  const int *lambda = m->dof_parent, *dend = dd->dend;
  const size_t *mrow = dd->mrow;
  const double *M = dd->M;
  double *LT = dd->L, *w = dd->fwork;
  for (int i = nv - 1; i >= 0; i--) {
    const double *Li = LT + mrow[i]; /* column i of L */
    const double *Mi = M + mrow[i];  /* row i of M */
    const int lo = i + 1, hi = dend[i];
    for (int x = lo; x < hi; x++) w[x] = Li[x] * dd->D[x];
    double di = Mi[i] - dot_range(w, Li, lo, hi);
    if (!(di > 0) || !isfinite(di)) return LK_SINGULAR;
    double inv = 1.0 / di;
    dd->D[i] = di;
    dd->Dinv[i] = inv;
    for (int j = lambda[i]; j >= 0; j = lambda[j]) {
      double *Lj = LT + mrow[j];
      Lj[i] = (Mi[j] - dot_range(w, Lj, lo, hi)) * inv;
    }
  }
  return LK_OK;
}

/* GSL's Cholesky of one tree's block, in place in L. */
static lk_status factor_dense(const lk_model *m, lk_dyn_data *dd, int t) {
  const size_t n = (size_t)(m->tree_vadr[t + 1] - m->tree_vadr[t]);
  gsl_matrix_view A = gsl_matrix_view_array(dd->L + m->tree_madr[t], n, n);
  int rc = gsl_linalg_cholesky_decomp1(&A.matrix);
  if (rc == GSL_EDOM) return LK_SINGULAR; /* GSL's "not positive definite" */
  return lk_status_from_gsl(rc);
}

lk_status lk_dyn_factor(const lk_model *m, lk_data *d, lk_factor_method how) {
  lk_dyn_data *dd = &d->dyn;
  lk_status st = LK_OK;
  if (how == LK_FACTOR_DENSE) {
    if (m->ntree > 0) {
      lk_gsl_init();
      memcpy(dd->L, dd->M, sizeof(double) * m->tree_madr[m->ntree]);
    }
    for (int t = 0; t < m->ntree && !st; t++) st = factor_dense(m, dd, t);
  } else {
    st = factor_tree(m, dd);
  }
  dd->st->factor_valid = st == LK_OK;
  dd->st->factor_method = (int)how;
  return st;
}

/* x <- M^-1 x on the DoFs [v0, v1) (whole trees), with the LTDL factor. */
static void solve_tree(const lk_dyn_data *dd, double *x, int v0, int v1) {
  const int *dend = dd->dend;
  const size_t *mrow = dd->mrow;
  const double *LT = dd->L;
  /* x <- L^-T x, leaves to root: x_i -= sum over descendants m of L_mi x_m
   * (table 6.4's first loop, as a dot product per column). */
  /* x's trailing zeros (a contact's J on a chain is zero beyond its link)
   * stay zero there, and their terms are left out of the dots: only whole
   * groups of four, so every nonzero term meets the same partial sum as
   * in the full dot (the same bits). */
  int last = v1 - 1;
  while (last >= v0 && x[last] == 0) last--;
  for (int i = last; i >= v0; i--) {
    int hi = dend[i], lim = i + 1 + (last - i + 3) / 4 * 4;
    x[i] -= dot_range(LT + mrow[i], x, i + 1, lim < hi ? lim : hi);
  }
  /* x <- D^-1 x, then x <- L^-1 x root to leaves: once x_i is final, it is
   * subtracted from its descendants along column i. */
  for (int i = v0; i < v1; i++) x[i] *= dd->Dinv[i];
  for (int i = v0; i < v1; i++) {
    const double xi = x[i];
    if (xi == 0) continue;
    const double *Li = LT + mrow[i];
    for (int y = i + 1; y < dend[i]; y++) x[y] -= Li[y] * xi;
  }
}

/* The same with GSL's Cholesky of the block. */
static void solve_dense(const lk_model *m, const lk_dyn_data *dd, int t, double *x) {
  const int v0 = m->tree_vadr[t];
  const size_t n = (size_t)(m->tree_vadr[t + 1] - v0);
  /* The factor is only read; GSL's API takes a non-const matrix. */
  gsl_matrix_view A = gsl_matrix_view_array(dd->L + m->tree_madr[t], n, n);
  gsl_vector_view b = gsl_vector_view_array(x + v0, n);
  gsl_linalg_cholesky_svx(&A.matrix, &b.vector);
}

void lk_dyn_solve_range(const lk_model *m, const lk_data *d, double *x, int v0, int v1) {
  const lk_dyn_data *dd = &d->dyn;
  if (v0 >= v1) return;
  if (dd->st->factor_method == LK_FACTOR_DENSE) {
    for (int t = m->dof_tree[v0]; t < m->ntree && m->tree_vadr[t] < v1; t++)
      solve_dense(m, dd, t, x);
  } else {
    solve_tree(dd, x, v0, v1);
  }
}

/* s[r] += l x[r], r < n (two a register where the target has SSE2; the
 * same products and sums as one at a time). */
static inline void add_scaled(double *restrict s, const double *restrict x, double l, int n) {
  int r = 0;
#if LK_HAVE_V2D
  const v2d l2 = {l, l};
  for (; r + 4 <= n; r += 4) {
    v2d a = load2(s + r) + l2 * load2(x + r), b = load2(s + r + 2) + l2 * load2(x + r + 2);
    store2(s + r, a);
    store2(s + r + 2, b);
  }
  for (; r + 2 <= n; r += 2) store2(s + r, load2(s + r) + l2 * load2(x + r));
#endif
  for (; r < n; r++) s[r] += l * x[r];
}

/* y[r] -= l x[r], r < n (as add_scaled). */
static inline void sub_scaled(double *restrict y, const double *restrict x, double l, int n) {
  int r = 0;
#if LK_HAVE_V2D
  const v2d l2 = {l, l};
  for (; r + 4 <= n; r += 4) {
    v2d a = load2(y + r) - l2 * load2(x + r), b = load2(y + r + 2) - l2 * load2(x + r + 2);
    store2(y + r, a);
    store2(y + r + 2, b);
  }
  for (; r + 2 <= n; r += 2) store2(y + r, load2(y + r) - l2 * load2(x + r));
#endif
  for (; r < n; r++) y[r] -= l * x[r];
}

/* solve_tree on nr right-hand sides side by side, X[(i - v0) nr + r]:
 * each column's arithmetic is solve_tree's -- the same four partial sums
 * in the same order in the first loop, the same products in the second --
 * so a column comes out as solve_tree's to the bit (up to the sign of a
 * zero: the columns' trailing zeros are summed here, not skipped), while
 * the loops' overhead, most of a solve on a tree of short branches, is
 * paid once for them all. acc: 4 nr scratch. */
static void solve_tree_block(const lk_dyn_data *dd, double *X, int nr, int v0, int v1, int last,
                             double *acc) {
  const int *dend = dd->dend;
  const size_t *mrow = dd->mrow;
  const double *LT = dd->L;
  const size_t ld = (size_t)nr;
  double *s0 = acc, *s1 = acc + ld, *s2 = acc + 2 * ld, *s3 = acc + 3 * ld;
  /* as solve_tree: past the columns' last non-zero nothing moves, and the
   * dots stop at the whole group of four that holds it */
  for (int i = last; i >= v0; i--) {
    const int lo = i + 1, lim = i + 1 + (last - i + 3) / 4 * 4;
    const int hi = lim < dend[i] ? lim : dend[i];
    if (lo >= hi) continue;
    const double *Li = LT + mrow[i];
    memset(acc, 0, 4 * ld * sizeof *acc);
    int x = lo;
    for (; x + 3 < hi; x += 4) {
      const double *X0 = X + (size_t)(x - v0) * ld;
      add_scaled(s0, X0, Li[x], nr);
      add_scaled(s1, X0 + ld, Li[x + 1], nr);
      add_scaled(s2, X0 + 2 * ld, Li[x + 2], nr);
      add_scaled(s3, X0 + 3 * ld, Li[x + 3], nr);
    }
    for (; x < hi; x++) add_scaled(s0, X + (size_t)(x - v0) * ld, Li[x], nr);
    double *Xi = X + (size_t)(i - v0) * ld;
    for (int r = 0; r < nr; r++) Xi[r] -= (s0[r] + s1[r]) + (s2[r] + s3[r]);
  }
  for (int i = v0; i < v1; i++) {
    double *Xi = X + (size_t)(i - v0) * ld;
    const double dinv = dd->Dinv[i];
    for (int r = 0; r < nr; r++) Xi[r] *= dinv;
  }
  for (int i = v0; i < v1; i++) {
    const double *Li = LT + mrow[i], *Xi = X + (size_t)(i - v0) * ld;
    for (int y = i + 1; y < dend[i]; y++) sub_scaled(X + (size_t)(y - v0) * ld, Xi, Li[y], nr);
  }
}

void lk_dyn_solve_block(const lk_model *m, const lk_data *d, double *X, int nr, int v0, int v1,
                        int last, double *acc) {
  const lk_dyn_data *dd = &d->dyn;
  if (v0 >= v1 || nr <= 0) return;
  if (dd->st->factor_method != LK_FACTOR_DENSE) {
    solve_tree_block(dd, X, nr, v0, v1, last < v1 ? last : v1 - 1, acc);
    return;
  }
  /* GSL's Cholesky: column by column, through the factorization scratch */
  double *col = dd->fwork;
  for (int r = 0; r < nr; r++) {
    for (int i = v0; i < v1; i++) col[i] = X[(size_t)(i - v0) * (size_t)nr + r];
    lk_dyn_solve_range(m, d, col, v0, v1);
    for (int i = v0; i < v1; i++) X[(size_t)(i - v0) * (size_t)nr + r] = col[i];
  }
}

/* M^-1 = L^-1 D^-1 L^-T from the tree factor: X = L^-1 column by column
 * (L x = e_c, root to leaves, as solve_tree's last loop), then
 * out_ij = sum over k <= min(i, j) of X_ik X_jk / D_k. For a free body
 * (len 6) about 150 multiply-adds, a third of len solves. */
void lk_dyn_inverse_range(const lk_model *m, const lk_data *d, int v0, int len, double *out) {
  const lk_dyn_data *dd = &d->dyn;
  if (len <= 0) return;
  if (dd->st->factor_method == LK_FACTOR_DENSE || len > LK_DYN_INVERSE_MAX) {
    double *col = dd->fwork; /* nv: factorization scratch, free after it */
    for (int c = 0; c < len; c++) {
      for (int i = 0; i < len; i++) col[v0 + i] = i == c ? 1.0 : 0.0;
      lk_dyn_solve_range(m, d, col, v0, v0 + len);
      for (int i = 0; i < len; i++) out[i * len + c] = col[v0 + i];
    }
    /* exactly symmetric, as the tree factor's: the upper triangle mirrored */
    for (int i = 0; i < len; i++)
      for (int j = i + 1; j < len; j++) out[j * len + i] = out[i * len + j];
    return;
  }
  const int *dend = dd->dend;
  const size_t *mrow = dd->mrow;
  const double *LT = dd->L;
  double X[LK_DYN_INVERSE_MAX * LK_DYN_INVERSE_MAX]; /* X[i * len + k], k <= i */
  for (int c = 0; c < len; c++) {
    double *x = X; /* column c of X lives at X[i * len + c] */
    for (int i = 0; i < len; i++) x[i * len + c] = i == c ? 1.0 : 0.0;
    for (int i = c; i < len; i++) {
      const double xi = x[i * len + c];
      if (xi == 0) continue;
      const double *Li = LT + mrow[v0 + i];
      for (int y = v0 + i + 1; y < dend[v0 + i]; y++) x[(y - v0) * len + c] -= Li[y] * xi;
    }
  }
  const double *Dinv = dd->Dinv + v0;
  for (int i = 0; i < len; i++) {
    const double *Xi = X + i * len;
    for (int j = 0; j <= i; j++) {
      const double *Xj = X + j * len;
      double s = 0;
      for (int k = 0; k <= j; k++) s += Xi[k] * Dinv[k] * Xj[k];
      out[i * len + j] = out[j * len + i] = s;
    }
  }
}

void lk_dyn_solve(const lk_model *m, const lk_data *d, double *x, int nrhs) {
  const lk_dyn_data *dd = &d->dyn;
  const int nv = m->nv, dense = dd->st->factor_method == LK_FACTOR_DENSE;
  for (int r = 0; r < nrhs; r++) {
    double *xr = x + (size_t)r * (size_t)nv;
    if (dense)
      for (int t = 0; t < m->ntree; t++) {
        /* solve_dense(), written out: it is not inlined here otherwise */
        const int v0 = m->tree_vadr[t];
        const size_t n = (size_t)(m->tree_vadr[t + 1] - v0);
        gsl_matrix_view A = gsl_matrix_view_array(dd->L + m->tree_madr[t], n, n);
        gsl_vector_view b = gsl_vector_view_array(xr + v0, n);
        gsl_linalg_cholesky_svx(&A.matrix, &b.vector);
      }
    else
      solve_tree(dd, xr, 0, nv);
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
