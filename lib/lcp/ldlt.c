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
  f->has_last = 0;
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
  f->has_last = 0;
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
                   double floor_) {
  size_t ld = (size_t)f->ld;
  f->has_last = 0;
  int *last = f->last;
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
    while (e - 3 > j && lj[e] == 0.0 && lj[e - 1] == 0.0 && lj[e - 2] == 0.0 && lj[e - 3] == 0.0)
      e -= 4;
    while (e > j && lj[e] == 0.0) e--;
    last[j] = e;
  }
  /* Right-looking elimination, four columns (a panel) at a time: each
   * column of the panel takes the updates of the panel's earlier ones,
   * then the panel updates the trailing columns in one rank-4 pass. A
   * column's updates stop at its last nonzero and skip the columns it has
   * a zero in, so a banded or block-structured matrix (the rows of
   * contacts that share no body) costs what its profile does. Entries
   * below a column's last are zeros of M, never written. */
  for (int p = 0; p < k; p += 4) {
    int w = k - p < 4 ? k - p : 4, e = p;
    const double *lc[4];
    double dc[4];
    for (int b = 0; b < w; b++) {
      int j = p + b;
      double *restrict lj = f->L + (size_t)j * ld;
      for (int a = 0; a < b; a++) {
        double c = lc[a][j] * dc[a];
        if (c == 0.0) continue;
        int ea = last[p + a];
        lk_lcp_axpy(lj + j, -c, lc[a] + j, ea - j + 1);
        if (last[j] < ea) last[j] = ea; /* fill */
      }
      double dj = lj[j];
      double tol = rel * lk_maxd(fabs(M[(size_t)idx[j] * (size_t)ldm + (size_t)idx[j]]), floor_);
      if (!(dj > tol)) {
        f->k = j;
        return j;
      }
      f->d[j] = dc[b] = dj;
      lj[j] = 1.0;
      double inv = 1.0 / dj;
      int ej = last[j];
      lk_lcp_scale(lj + j + 1, inv, ej - j);
      lc[b] = lj;
      if (ej > e) e = ej;
    }
    if (w < 4) break; /* the panel ends the matrix */
    for (int m = p + 4; m <= e; m++) {
      double c0 = lc[0][m] * dc[0], c1 = lc[1][m] * dc[1];
      double c2 = lc[2][m] * dc[2], c3 = lc[3][m] * dc[3];
      if (c0 == 0.0 && c1 == 0.0 && c2 == 0.0 && c3 == 0.0) continue;
      double *lm = f->L + (size_t)m * ld;
      lk_lcp_axpy4(lm + m, c0, lc[0] + m, c1, lc[1] + m, c2, lc[2] + m, c3, lc[3] + m, e - m + 1);
      if (last[m] < e) last[m] = e; /* fill */
    }
  }
  f->k = k;
  f->has_last = 1;
  return k;
}

void lk_ldlt_solve(const lk_ldlt *f, double *x) {
  int k = f->k;
  size_t ld = (size_t)f->ld;
  const int *last = f->has_last ? f->last : NULL;
  for (int j = 0; j < k; j++) {
    double xj = x[j];
    if (xj == 0.0) continue;
    const double *lj = f->L + (size_t)j * ld;
    int e = last ? last[j] : k - 1;
    lk_lcp_axpy(x + j + 1, -xj, lj + j + 1, e - j);
  }
  for (int j = 0; j < k; j++) x[j] /= f->d[j];
  for (int j = k - 1; j >= 0; j--) {
    const double *lj = f->L + (size_t)j * ld;
    int e = last ? last[j] : k - 1;
    x[j] -= lk_lcp_dot(lj + j + 1, x + j + 1, e - j);
  }
}
