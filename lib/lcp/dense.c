/* Small dense solves shared by the solvers' direct (non-pivoting) steps:
 * Lemke's warm start and Dantzig's friction closure (one solve), NSGS's
 * direct finish and Newton's small steps (a factor, then its solves). */
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

/* LU with partial pivoting of the k x k A (leading dimension k) in place;
 * 0 when a pivot is below tol. */
int lk_lcp_lu_factor(double *A, int k, int *piv, double tol) {
  for (int c = 0; c < k; c++) {
    int pr = c;
    for (int i = c + 1; i < k; i++)
      if (fabs(A[(size_t)i * k + c]) > fabs(A[(size_t)pr * k + c])) pr = i;
    piv[c] = pr;
    if (!(fabs(A[(size_t)pr * k + c]) > tol)) return 0;
    if (pr != c)
      for (int j = 0; j < k; j++) {
        double t = A[(size_t)pr * k + j];
        A[(size_t)pr * k + j] = A[(size_t)c * k + j];
        A[(size_t)c * k + j] = t;
      }
    const double *ac = A + (size_t)c * k;
    double inv = 1.0 / ac[c];
    for (int i = c + 1; i < k; i++) {
      double *ai = A + (size_t)i * k, f = ai[c] * inv;
      ai[c] = f;
      if (f != 0.0) lk_lcp_axpy(ai + c + 1, -f, ac + c + 1, k - c - 1);
    }
  }
  return 1;
}

void lk_lcp_lu_apply(const double *A, int k, const int *piv, double *b) {
  for (int c = 0; c < k; c++) {
    if (piv[c] != c) {
      double t = b[piv[c]];
      b[piv[c]] = b[c];
      b[c] = t;
    }
    const double *ai = A + (size_t)c * k;
    b[c] -= lk_lcp_dot(ai, b, c);
  }
  for (int i = k - 1; i >= 0; i--) {
    const double *ai = A + (size_t)i * k;
    b[i] = (b[i] - lk_lcp_dot(ai + i + 1, b + i + 1, k - i - 1)) / ai[i];
  }
}
