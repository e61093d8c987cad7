/* Small dense solve shared by the solvers' direct (non-pivoting) steps:
 * Lemke's warm start and Dantzig's friction closure. */
#include "lcp/lcp_internal.h"

int lk_lcp_lu_solve(double *A, int ld, int k, double *b) {
  return lk_lcp_lu_solve_at(A, ld, k, b, NULL);
}

int lk_lcp_lu_solve_at(double *A, int ld, int k, double *b, int *fail) {
  if (fail) *fail = -1;
  double amax = 0.0;
  for (int i = 0; i < k; i++)
    for (int j = 0; j < k; j++) amax = lk_maxd(amax, fabs(A[(size_t)i * ld + j]));
  if (!(amax > 0) || !isfinite(amax)) return k == 0;
  for (int col = 0; col < k; col++) {
    int p = col;
    for (int i = col + 1; i < k; i++)
      if (fabs(A[(size_t)i * ld + col]) > fabs(A[(size_t)p * ld + col])) p = i;
    if (!(fabs(A[(size_t)p * ld + col]) > 1e-13 * amax)) {
      if (fail) *fail = col;
      return 0;
    }
    if (p != col) {
      double *ap = A + (size_t)p * ld, *ac = A + (size_t)col * ld;
      for (int j = 0; j < k; j++) {
        double t = ap[j];
        ap[j] = ac[j];
        ac[j] = t;
      }
      double t = b[p];
      b[p] = b[col];
      b[col] = t;
    }
    const double *ac = A + (size_t)col * ld;
    double inv = 1.0 / ac[col];
    for (int i = col + 1; i < k; i++) {
      double *ai = A + (size_t)i * ld, f = ai[col] * inv;
      if (f == 0.0) continue;
      lk_lcp_axpy(ai + col + 1, -f, ac + col + 1, k - col - 1);
      b[i] -= f * b[col];
    }
  }
  for (int i = k - 1; i >= 0; i--) {
    const double *ai = A + (size_t)i * ld;
    b[i] = (b[i] - lk_lcp_dot(ai + i + 1, b + i + 1, k - i - 1)) / ai[i];
  }
  return 1;
}
