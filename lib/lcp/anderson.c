/* Anderson acceleration of a fixed-point iteration x <- G(x) (D. G.
 * Anderson, J. ACM 12, 1965; the "type II" form of H. F. Walker and P. Ni,
 * SIAM J. Numer. Anal. 49, 2011): from the last m differences of the
 * iterates g_k = G(x_k) and of the residuals f_k = g_k - x_k, the next
 * point is g_k - dG gamma with gamma the least-squares fit
 * min |f_k - dF gamma|. On a linearly converging iteration (Gauss-Seidel
 * near its answer) it behaves like GMRES on the linearized map. Memory:
 * (2 m + 3) n doubles of the caller's; no allocation. */
#include "lcp/lcp_internal.h"

void lk_anderson_init(lk_anderson *a, int n, int m, double *mem) {
  a->n = n;
  a->m = m > LK_ANDERSON_MMAX ? LK_ANDERSON_MMAX : m;
  a->dG = mem;
  a->dF = mem + (size_t)a->m * (size_t)n;
  a->x = a->dF + (size_t)a->m * (size_t)n;
  a->g0 = a->x + n;
  a->f0 = a->g0 + n;
  lk_anderson_reset(a);
}

void lk_anderson_reset(lk_anderson *a) {
  a->k = 0;
  a->head = 0;
  a->have_prev = 0;
}

/* Cholesky solve of the k x k normal equations (A row-major, k <= MMAX),
 * with a relative Tikhonov term; 0 when not positive. */
static int normal_solve(double *A, int k, double *b) {
  double tr = 0.0;
  for (int i = 0; i < k; i++) tr += A[i * k + i];
  if (!(tr > 0.0)) return 0;
  for (int i = 0; i < k; i++) A[i * k + i] += 1e-12 * tr / k;
  for (int j = 0; j < k; j++) {
    double d = A[j * k + j];
    for (int l = 0; l < j; l++) d -= A[j * k + l] * A[j * k + l];
    if (!(d > 1e-14 * tr)) return 0;
    d = sqrt(d);
    A[j * k + j] = d;
    for (int i = j + 1; i < k; i++) {
      double s = A[i * k + j];
      for (int l = 0; l < j; l++) s -= A[i * k + l] * A[j * k + l];
      A[i * k + j] = s / d;
    }
  }
  for (int i = 0; i < k; i++) {
    double s = b[i];
    for (int l = 0; l < i; l++) s -= A[i * k + l] * b[l];
    b[i] = s / A[i * k + i];
  }
  for (int i = k - 1; i >= 0; i--) {
    double s = b[i];
    for (int l = i + 1; l < k; l++) s -= A[l * k + i] * b[l];
    b[i] = s / A[i * k + i];
  }
  return 1;
}

int lk_anderson_step(lk_anderson *a, double *g) {
  int n = a->n, m = a->m;
  const double *x = a->x;
  if (m < 1) return 0;
  if (a->have_prev) {
    double *dg = a->dG + (size_t)a->head * (size_t)n, *df = a->dF + (size_t)a->head * (size_t)n;
    for (int i = 0; i < n; i++) {
      double f = g[i] - x[i];
      dg[i] = g[i] - a->g0[i];
      df[i] = f - a->f0[i];
    }
    a->head = (a->head + 1) % m;
    if (a->k < m) a->k++;
  }
  for (int i = 0; i < n; i++) {
    a->f0[i] = g[i] - x[i];
    a->g0[i] = g[i];
  }
  a->have_prev = 1;
  int k = a->k;
  if (k == 0) return 0;
  /* columns in a fixed order (oldest first) so the sums are reproducible */
  double A[LK_ANDERSON_MMAX * LK_ANDERSON_MMAX], gam[LK_ANDERSON_MMAX];
  int col[LK_ANDERSON_MMAX];
  for (int c = 0; c < k; c++) col[c] = (a->head - k + c + m) % m;
  for (int r = 0; r < k; r++) {
    const double *dr = a->dF + (size_t)col[r] * (size_t)n;
    for (int c = 0; c <= r; c++) {
      double s = lk_lcp_dot(dr, a->dF + (size_t)col[c] * (size_t)n, n);
      A[r * k + c] = A[c * k + r] = s;
    }
    gam[r] = lk_lcp_dot(dr, a->f0, n);
  }
  if (!normal_solve(A, k, gam)) {
    lk_anderson_reset(a);
    return 0;
  }
  for (int c = 0; c < k; c++) lk_lcp_axpy(g, -gam[c], a->dG + (size_t)col[c] * (size_t)n, n);
  return 1;
}
