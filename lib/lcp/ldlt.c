/* Updatable L D L^T factorization (see lcp_internal.h). Appending is a
 * bordering step; removing row p leaves the trailing block as
 * L22 D2 L22^T + d_p l l^T (l the removed column below p), refactored by
 * the rank-one update of Gill, Golub, Murray & Saunders, "Methods for
 * modifying matrix factorizations", Math. Comp. 28 (1974), method C1. */
#include <string.h>

#include "lcp/lcp_internal.h"

#define LIJ(f, i, j) ((f)->L[(size_t)(j) * (size_t)(f)->ld + (size_t)(i)])

int lk_ldlt_append(lk_ldlt *f, const double *b, double djj, double tol) {
  int k = f->k;
  double *y = f->tmp;
  memcpy(y, b, (size_t)k * sizeof *y);
  /* Forward substitution L y = b, column by column (leading zeros of b,
   * rows that share nothing with the new one, cost nothing). */
  for (int j = 0; j < k; j++) {
    double yj = y[j];
    if (yj == 0.0) continue;
    const double *lj = f->L + (size_t)j * (size_t)f->ld;
    lk_lcp_axpy(y + j + 1, -yj, lj + j + 1, k - j - 1);
  }
  /* The new row of L (written even if the pivot is refused: rows past k
   * are not part of the factor) and its pivot. */
  double s = djj;
  for (int j = 0; j < k; j++) {
    double l = y[j] / f->d[j];
    LIJ(f, k, j) = l;
    s -= l * y[j];
  }
  if (!(s > tol)) return 0;
  LIJ(f, k, k) = 1.0;
  f->d[k] = s;
  f->k = k + 1;
  return 1;
}

void lk_ldlt_remove(lk_ldlt *f, int p) {
  int m = f->k;
  double *w = f->tmp;
  double alpha = f->d[p];
  for (int i = p + 1; i < m; i++) w[i] = LIJ(f, i, p);
  for (int j = p + 1; j < m; j++) {
    double wj = w[j];
    if (wj == 0.0) continue;
    double dj = f->d[j], dn = dj + alpha * wj * wj;
    double beta = alpha * wj / dn;
    alpha *= dj / dn;
    f->d[j] = dn;
    double *lj = f->L + (size_t)j * (size_t)f->ld;
    for (int i = j + 1; i < m; i++) {
      w[i] -= wj * lj[i];
      lj[i] += beta * w[i];
    }
  }
  /* Drop row p from the columns before it, then shift later columns left
   * and up by one. */
  for (int j = 0; j < p; j++) {
    double *lj = f->L + (size_t)j * (size_t)f->ld;
    memmove(lj + p, lj + p + 1, (size_t)(m - p - 1) * sizeof *lj);
  }
  for (int j = p + 1; j < m; j++) {
    double *src = f->L + (size_t)j * (size_t)f->ld;
    double *dst = f->L + (size_t)(j - 1) * (size_t)f->ld;
    memmove(dst + (j - 1), src + j, (size_t)(m - j) * sizeof *dst);
    f->d[j - 1] = f->d[j];
  }
  f->k = m - 1;
}

int lk_ldlt_factor(lk_ldlt *f, const double *M, int ldm, const int *idx, int k, double rel,
                   double floor_, int *last) {
  size_t ld = (size_t)f->ld;
  double *restrict t = f->tmp;
  /* Column j of the lower triangle from row idx[j] of M (symmetric: its
   * rows are contiguous copies of its columns), and the row of its last
   * nonzero. */
  int contiguous = k > 0 && idx[k - 1] - idx[0] == k - 1; /* idx increases */
  for (int j = 0; j < k; j++) {
    const double *mj = M + (size_t)idx[j] * (size_t)ldm;
    double *lj = f->L + (size_t)j * ld;
    if (contiguous)
      memcpy(lj + j, mj + idx[j], (size_t)(k - j) * sizeof *lj);
    else
      for (int i = j; i < k; i++) lj[i] = mj[idx[i]];
    int e = k - 1;
    while (e > j && lj[e] == 0.0) e--;
    last[j] = e;
  }
  /* Right-looking elimination. Column p's update of the trailing block
   * stops at its last nonzero, and skips the columns it has a zero in, so
   * a banded or block-structured matrix (the rows of contacts that share
   * no body) costs what its profile does. */
  for (int p = 0; p < k; p++) {
    double *restrict lp = f->L + (size_t)p * ld;
    double dp = lp[p];
    double tol = rel * lk_maxd(fabs(M[(size_t)idx[p] * (size_t)ldm + (size_t)idx[p]]), floor_);
    if (!(dp > tol)) {
      f->k = p;
      return p;
    }
    f->d[p] = dp;
    lp[p] = 1.0;
    int e = last[p];
    double inv = 1.0 / dp;
    for (int i = p + 1; i <= e; i++) {
      t[i] = lp[i];
      lp[i] *= inv;
    }
    for (int m = p + 1; m <= e; m++) {
      double c = t[m];
      if (c == 0.0) continue;
      double *lm = f->L + (size_t)m * ld;
      lk_lcp_axpy(lm + m, -c, lp + m, e - m + 1);
      if (last[m] < e) last[m] = e; /* fill */
    }
  }
  f->k = k;
  return k;
}

void lk_ldlt_solve(const lk_ldlt *f, double *x) {
  int k = f->k;
  size_t ld = (size_t)f->ld;
  for (int j = 0; j < k; j++) {
    double xj = x[j];
    if (xj == 0.0) continue;
    const double *lj = f->L + (size_t)j * ld;
    lk_lcp_axpy(x + j + 1, -xj, lj + j + 1, k - j - 1);
  }
  for (int j = 0; j < k; j++) x[j] /= f->d[j];
  for (int j = k - 1; j >= 0; j--) {
    const double *lj = f->L + (size_t)j * ld;
    x[j] -= lk_lcp_dot(lj + j + 1, x + j + 1, k - j - 1);
  }
}
