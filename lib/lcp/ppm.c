/* Murty's least-index principal pivoting method for the standard LCP
 * (K. G. Murty, "Note on a Bard-type scheme for solving the
 * complementarity problem", Opsearch 11, 1974; Cottle, Pang and Stone,
 * "The Linear Complementarity Problem", 1992, section 4.2, where it is
 * shown finite for every P-matrix).
 *
 * A basis is the set B of rows whose z is basic: z_B = -M_BB^-1 q_B,
 * z = 0 elsewhere, w = M z + q (zero on B). While some basic variable is
 * negative, the one of least index changes sides: z_i < 0 leaves B, w_i
 * < 0 enters it. One dense LU of M_BB a step (O(|B|^3)): meant for small
 * problems, as the last resort of Lemke's method (lemke.c), whose path
 * can be exponentially long where this one is short: on Murty's own
 * lower-triangular P-matrix (1 on the diagonal, 2 below, q = -1) Lemke's
 * covering-vector path visits 2^n bases, this method one (z = e_1). On
 * a matrix that is not a P-matrix it may cycle, hence its pivot cap. */
#include "lcp/lcp_internal.h"

/* Solve the k x k row-major A x = b in place (partial pivoting; A and b
 * overwritten, x in b); 0 when a pivot is below tol. */
static int lu_solve(double *A, int k, int lda, double *b, double tol) {
  for (int c = 0; c < k; c++) {
    int pr = c;
    for (int i = c + 1; i < k; i++)
      if (fabs(A[(size_t)i * lda + c]) > fabs(A[(size_t)pr * lda + c])) pr = i;
    if (!(fabs(A[(size_t)pr * lda + c]) > tol)) return 0;
    if (pr != c) {
      for (int j = 0; j < k; j++) {
        double t = A[(size_t)c * lda + j];
        A[(size_t)c * lda + j] = A[(size_t)pr * lda + j];
        A[(size_t)pr * lda + j] = t;
      }
      double t = b[c];
      b[c] = b[pr];
      b[pr] = t;
    }
    const double *rc = A + (size_t)c * lda;
    for (int i = c + 1; i < k; i++) {
      double *ri = A + (size_t)i * lda, f = ri[c] / rc[c];
      if (f == 0.0) continue;
      for (int j = c; j < k; j++) ri[j] -= f * rc[j];
      b[i] -= f * b[c];
    }
  }
  for (int i = k - 1; i >= 0; i--) {
    const double *ri = A + (size_t)i * lda;
    double s = b[i];
    for (int j = i + 1; j < k; j++) s -= ri[j] * b[j];
    b[i] = s / ri[i];
  }
  return 1;
}

int lk_lcp_ppm_takes(const lk_lcp *p) {
  if (p->n > LK_LCP_PPM_NMAX || lk_lcp_sparse(p) || p->findex || p->cone) return 0;
  for (int i = 0; i < p->n; i++)
    if (lk_lcp_lo(p, i) != 0.0 || lk_lcp_hi(p, i) != INFINITY) return 0;
  return 1;
}

lk_status lk_lcp_ppm(const lk_lcp *p, lk_lcp_workspace *ws, double *z, double *w, int *pivots) {
  int n = p->n, ldm = lk_lcp_ldm(p), lda = ws->nmax;
  double *A = ws->mat[1], *x = ws->vec[9];
  int *B = ws->ivec[12];
  unsigned char *in = ws->bvec[3];
  double qmax = 0.0, mmax = 0.0;
  for (int i = 0; i < n; i++) {
    qmax = lk_maxd(qmax, fabs(p->q[i]));
    for (int j = 0; j < n; j++) mmax = lk_maxd(mmax, fabs(p->M[(size_t)i * ldm + j]));
    in[i] = 0;
  }
  /* a basic variable this far below zero is negative: rounding in
   * z = -M_BB^-1 q_B is far smaller for the matrices this is for */
  double neg = 1e-12 * (1.0 + qmax);
  int max_steps = 8 * n + 16;
  *pivots = 0;
  for (;;) {
    int k = 0;
    for (int i = 0; i < n; i++)
      if (in[i]) B[k++] = i;
    for (int a = 0; a < k; a++) {
      const double *row = p->M + (size_t)B[a] * ldm;
      for (int b = 0; b < k; b++) A[(size_t)a * lda + b] = row[B[b]];
      x[a] = -p->q[B[a]];
    }
    if (k > 0 && !lu_solve(A, k, lda, x, 1e-14 * (mmax > 0.0 ? mmax : 1.0))) return LK_SINGULAR;
    for (int i = 0; i < n; i++) z[i] = 0.0;
    for (int a = 0; a < k; a++) z[B[a]] = x[a];
    int leave = -1;
    for (int i = 0; i < n && leave < 0; i++) {
      if (in[i]) {
        if (z[i] < -neg) leave = i;
      } else {
        w[i] = p->q[i] + lk_lcp_dot(p->M + (size_t)i * ldm, z, n);
        if (w[i] < -neg) leave = i;
      }
    }
    if (leave < 0) break;
    if (*pivots >= max_steps) return LK_PIVOT_LIMIT;
    in[leave] ^= 1;
    ++*pivots;
  }
  for (int i = 0; i < n; i++)
    if (z[i] < 0.0) z[i] = 0.0; /* rounding: the check measures the rest */
  return LK_OK;
}
