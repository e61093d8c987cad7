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
  /* Forward substitution L y = b, column by column. */
  for (int j = 0; j < k; j++) {
    double yj = y[j];
    if (yj == 0.0) continue;
    const double *lj = f->L + (size_t)j * (size_t)f->ld;
    for (int i = j + 1; i < k; i++) y[i] -= lj[i] * yj;
  }
  double s = djj;
  for (int j = 0; j < k; j++) s -= y[j] * y[j] / f->d[j];
  if (!(s > tol)) return 0;
  for (int j = 0; j < k; j++) LIJ(f, k, j) = y[j] / f->d[j];
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

void lk_ldlt_solve(const lk_ldlt *f, double *x) {
  int k = f->k;
  for (int j = 0; j < k; j++) {
    double xj = x[j];
    if (xj == 0.0) continue;
    const double *lj = f->L + (size_t)j * (size_t)f->ld;
    for (int i = j + 1; i < k; i++) x[i] -= lj[i] * xj;
  }
  for (int j = 0; j < k; j++) x[j] /= f->d[j];
  for (int j = k - 1; j >= 0; j--) {
    const double *lj = f->L + (size_t)j * (size_t)f->ld;
    double s = x[j];
    for (int i = j + 1; i < k; i++) s -= lj[i] * x[i];
    x[j] = s;
  }
}
