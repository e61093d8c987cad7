/* LCP solvers: published problems, an exhaustive oracle, random families,
 * boxed, friction-index and mixed problems, warm starts and contracts. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "lcp_gen.h"
#include "lcp_test.h"
#include "linkage/linkage.h"

#define NMAX 420

static lk_lcp_workspace *g_ws;
static lk_lcp_workspace *ws(void) {
  if (!g_ws) g_ws = lk_lcp_workspace_new(NMAX);
  return g_ws;
}

static lk_lcp dense(int n, const double *M, const double *q) {
  lk_lcp p;
  memset(&p, 0, sizeof p);
  p.n = n;
  p.M = M;
  p.q = q;
  return p;
}

static lk_status solve(const lk_lcp_solver *s, const lk_lcp *p, const lk_lcp_options *o, double *z,
                       double *w, lk_lcp_report *r) {
  return lk_lcp_solve(s, p, o, ws(), z, w, r);
}

/* Siconos' measure: max_i |min(z_i, w_i)| / (1 + max|q|), w recomputed in
 * long double so the check does not share the solver's rounding. */
static double std_residual(const lk_lcp *p, const double *z) {
  int n = p->n, ld = p->ldm ? p->ldm : n;
  double r = 0, qm = 0;
  for (int i = 0; i < n; i++) {
    long double w = p->q[i];
    for (int j = 0; j < n; j++) w += (long double)p->M[i * ld + j] * z[j];
    r = fmax(r, fabs(fmin(z[i], (double)w)));
    qm = fmax(qm, fabs(p->q[i]));
  }
  return r / (1 + qm);
}

/* The boxed conditions checked one by one (not through lk_lcp_residual):
 * the largest violation, relative to 1 + max|q| + max|M||z|. */
static double box_violation(const lk_lcp *p, const double *z) {
  int n = p->n, ld = p->ldm ? p->ldm : n;
  double worst = 0, scale = 1, zmax = 0, mmax = 0;
  for (int i = 0; i < n; i++) {
    zmax = fmax(zmax, fabs(z[i]));
    scale = fmax(scale, 1 + fabs(p->q[i]));
    for (int j = 0; j < n; j++) mmax = fmax(mmax, fabs(p->M[i * ld + j]));
  }
  scale += mmax * zmax;
  double tol = 1e-9 * scale;
  for (int i = 0; i < n; i++) {
    long double wl = p->q[i];
    for (int j = 0; j < n; j++) wl += (long double)p->M[i * ld + j] * z[j];
    double w = (double)wl, lo, hi;
    if (p->findex && p->findex[i] >= 0) {
      hi = p->mu[i] * fabs(z[p->findex[i]]);
      lo = -hi;
    } else {
      lo = p->lo ? p->lo[i] : 0;
      hi = p->hi ? p->hi[i] : INFINITY;
    }
    double v = fmax(fmax(lo - z[i], z[i] - hi), 0);
    int at_lo = z[i] <= lo + tol, at_hi = z[i] >= hi - tol;
    if (!(at_lo && at_hi)) {
      if (at_lo)
        v = fmax(v, -w);
      else if (at_hi)
        v = fmax(v, w);
      else
        v = fmax(v, fabs(w));
    }
    worst = fmax(worst, v);
  }
  return worst / scale;
}

static double maxdiff(const double *a, const double *b, int n) {
  double d = 0;
  for (int i = 0; i < n; i++) d = fmax(d, fabs(a[i] - b[i]));
  return d;
}

/* ------------------------------------------------- textbook problems */

/* A tableau Lemke with the smallest-index tie rule instead of the
 * lexicographic one, to show that L7 really cycles without it: returns the
 * pivot count on termination, -1 when a basis repeats. */
static int plain_lemke_cycles(int n, const double *M, const double *q) {
  double T[4][9];
  int basis[4], seen[64][4], ns = 0;
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < 2 * n + 2; j++) T[i][j] = 0;
    T[i][i] = 1;
    for (int j = 0; j < n; j++) T[i][n + j] = -M[i * n + j];
    T[i][2 * n] = -1;
    T[i][2 * n + 1] = q[i];
    basis[i] = i;
  }
  int r = 0, ent = 2 * n;
  for (int i = 1; i < n; i++)
    if (q[i] < q[r]) r = i;
  for (int it = 0; it < 60; it++) {
    double piv = T[r][ent];
    for (int j = 0; j < 2 * n + 2; j++) T[r][j] /= piv;
    for (int i = 0; i < n; i++)
      if (i != r) {
        double f = T[i][ent];
        for (int j = 0; j < 2 * n + 2; j++) T[i][j] -= f * T[r][j];
      }
    int lv = basis[r];
    basis[r] = ent;
    if (lv == 2 * n) return it + 1;
    int b[4];
    memcpy(b, basis, sizeof b);
    for (int a = 0; a < n; a++)
      for (int c = a + 1; c < n; c++)
        if (b[c] < b[a]) {
          int t = b[a];
          b[a] = b[c];
          b[c] = t;
        }
    for (int s = 0; s < ns; s++)
      if (!memcmp(seen[s], b, (size_t)n * sizeof(int))) return -1;
    memcpy(seen[ns++], b, (size_t)n * sizeof(int));
    ent = lv < n ? lv + n : lv - n;
    r = -1;
    double tmin = INFINITY;
    for (int i = 0; i < n; i++)
      if (T[i][ent] > 1e-12 && T[i][2 * n + 1] / T[i][ent] < tmin - 1e-12) {
        tmin = T[i][2 * n + 1] / T[i][ent];
        r = i;
      }
    if (r < 0) return -2;
  }
  return -3;
}

static void test_textbook_problems(void) {
  double z[4], w[4];
  lk_lcp_report r;
  /* L1: z = 0.5. */
  double M1[] = {2}, q1[] = {-1};
  lk_lcp p = dense(1, M1, q1);
  for (int s = 0; s < 2; s++) {
    LK_ASSERT_OK(solve(s ? lk_lcp_dantzig : lk_lcp_lemke, &p, NULL, z, w, &r), lk_no_error);
    LK_ASSERT_NEAR(z[0], 0.5, 1e-15);
    LK_ASSERT_NEAR(w[0], 0, 1e-15);
  }
  /* L2: M = 0, q = -1: infeasible, a proven ray. */
  double M2[] = {0}, q2[] = {-1};
  p = dense(1, M2, q2);
  LK_ASSERT_INT_EQ(solve(lk_lcp_lemke, &p, NULL, z, w, &r), LK_NO_SOLUTION);
  LK_ASSERT_INT_EQ(r.ray_certified, 1);
  LK_ASSERT_MSG(isfinite(z[0]) && isfinite(w[0]), "non-finite iterate on failure");
  LK_ASSERT_INT_EQ(solve(lk_lcp_dantzig, &p, NULL, z, w, &r), LK_NO_SOLUTION);
  /* L3 (Murty Ex. 2.2): no solution; y = (1, 1) is a certificate. */
  double M3[] = {-2, 1, 1, -2}, q3[] = {-1, -1};
  p = dense(2, M3, q3);
  LK_ASSERT_INT_EQ(solve(lk_lcp_lemke, &p, NULL, z, w, &r), LK_NO_SOLUTION);
  LK_ASSERT_INT_EQ(r.ray_certified, 1);
  LK_ASSERT_INT_EQ(solve(lk_lcp_dantzig, &p, NULL, z, w, &r), LK_NO_SOLUTION);
  /* L4 (Murty Ex. 2.8): z = (2, 1, 3, 1), w = 0. */
  double M4[] = {1, -1, -1, -1, -1, 1, -1, -1, 1, 1, 2, 0, 1, 1, 0, 2}, q4[] = {3, 5, -9, -5};
  p = dense(4, M4, q4);
  LK_ASSERT_OK(solve(lk_lcp_lemke, &p, NULL, z, w, &r), lk_no_error);
  double z4[] = {2, 1, 3, 1}, zero[4] = {0};
  LK_ASSERT_NEAR(maxdiff(z, z4, 4), 0, 1e-13);
  LK_ASSERT_NEAR(maxdiff(w, zero, 4), 0, 1e-13);
  /* Non-symmetric: not Dantzig's, handed to Lemke and said so (issue
   * 18.15; it used to answer "unsupported"). */
  LK_ASSERT_OK(solve(lk_lcp_dantzig, &p, NULL, z, w, &r), lk_no_error);
  LK_ASSERT_MSG(r.fallback == 1 && strstr(r.detail, "not symmetric") != NULL, "%d: %s", r.fallback, r.detail);
  LK_ASSERT_NEAR(maxdiff(z, z4, 4), 0, 1e-13);
  /* L5 (Murty Ex. 2.9): ray termination; row 1 alone proves it. */
  double M5[] = {-1, 0, -3, 1, -2, -5, -2, -1, -2}, q5[] = {-3, -2, -1};
  p = dense(3, M5, q5);
  LK_ASSERT_INT_EQ(solve(lk_lcp_lemke, &p, NULL, z, w, &r), LK_NO_SOLUTION);
  LK_ASSERT_INT_EQ(r.ray_certified, 1);
  /* L6 (Murty Ex. 2.10, M~(3), q^(3)): z = (8, 0, 0), w = (0, 4, 2). */
  double M6[] = {1, 0, 0, 2, 1, 0, 2, 2, 1}, q6[] = {-8, -12, -14};
  p = dense(3, M6, q6);
  LK_ASSERT_OK(solve(lk_lcp_lemke, &p, NULL, z, w, &r), lk_no_error);
  double z6[] = {8, 0, 0}, w6[] = {0, 4, 2};
  LK_ASSERT_NEAR(maxdiff(z, z6, 3), 0, 1e-13);
  LK_ASSERT_NEAR(maxdiff(w, w6, 3), 0, 1e-13);
  LK_ASSERT_INT_EQ(r.pivots, 8); /* 2^3, see the Murty family test */
  /* L7 (Kostreva 1979): q parallel to the covering vector, every ratio
   * ties. The smallest-index rule revisits a basis; the lexicographic rule
   * ends at z = (1/3, 1/3, 1/3). */
  double M7[] = {1, 2, 0, 0, 1, 2, 2, 0, 1}, q7[] = {-1, -1, -1};
  LK_ASSERT_INT_EQ(plain_lemke_cycles(3, M7, q7), -1);
  p = dense(3, M7, q7);
  LK_ASSERT_OK(solve(lk_lcp_lemke, &p, NULL, z, w, &r), lk_no_error);
  double z7[] = {1.0 / 3, 1.0 / 3, 1.0 / 3};
  LK_ASSERT_NEAR(maxdiff(z, z7, 3), 0, 1e-15);
  LK_ASSERT_NEAR(maxdiff(w, zero, 3), 0, 1e-15);
  LK_ASSERT_MSG(r.pivots <= 8, "L7 took %d pivots", r.pivots);
}

static void test_degenerate_problems(void) {
  double z[4], w[4];
  lk_lcp_report r;
  /* Zeros in q: the first basis is degenerate (w1 = w3 = 0 basic). */
  double M[] = {2, 1, 0, 1, 2, 1, 0, 1, 2}, q[] = {0, -1, 0};
  lk_lcp p = dense(3, M, q);
  for (int s = 0; s < 2; s++) {
    LK_ASSERT_OK(solve(s ? lk_lcp_dantzig : lk_lcp_lemke, &p, NULL, z, w, &r), lk_no_error);
    LK_ASSERT_NEAR(z[0], 0, 1e-15);
    LK_ASSERT_NEAR(z[1], 0.5, 1e-15);
    LK_ASSERT_NEAR(z[2], 0, 1e-15);
    LK_ASSERT_NEAR(w[1], 0, 1e-15);
  }
  /* q = 0: z = 0 at once, and zero pivots. */
  double q0[] = {0, 0, 0};
  p = dense(3, M, q0);
  LK_ASSERT_OK(solve(lk_lcp_lemke, &p, NULL, z, w, &r), lk_no_error);
  LK_ASSERT_INT_EQ(r.pivots, 0);
  /* Ties in the ratio test: identical rows of M and q (two contacts at
   * the same place). w is unique, z is not. */
  double Mt[] = {1, 1, 1, 1}, qt[] = {-1, -1};
  p = dense(2, Mt, qt);
  for (int s = 0; s < 2; s++) {
    LK_ASSERT_OK(solve(s ? lk_lcp_dantzig : lk_lcp_lemke, &p, NULL, z, w, &r), lk_no_error);
    LK_ASSERT_NEAR(z[0] + z[1], 1, 1e-15);
    LK_ASSERT_NEAR(fabs(w[0]) + fabs(w[1]), 0, 1e-15);
  }
  /* A zero row in an otherwise good problem: w_1 = 1 whatever z is. */
  double Mz[] = {2, 0, 0, 0}, qz[] = {-1, 1};
  p = dense(2, Mz, qz);
  for (int s = 0; s < 2; s++) {
    LK_ASSERT_OK(solve(s ? lk_lcp_dantzig : lk_lcp_lemke, &p, NULL, z, w, &r), lk_no_error);
    LK_ASSERT_NEAR(z[0], 0.5, 1e-15);
    LK_ASSERT_NEAR(z[1], 0, 0);
  }
}

/* Murty (1978), "Computational complexity of complementary pivot methods",
 * Math. Programming Study 7, 61-73 (also Murty 1988, ch. 6): M~(n) lower
 * triangular with 1 on the diagonal and 2 below it (a P-matrix, every
 * principal minor 1), q^(n)_i = -(2^n + 2^(n-1) + ... + 2^(n-i+1)). The
 * solution is z = (2^n, 0, ..., 0), and the complementary pivot method with
 * covering vector e goes through all 2^n complementary cones: 2^n pivots,
 * counting the one that brings z0 in and the one that takes it out. With
 * q = -e (the form in Siconos' lcp_exp_murty) the solution is e_1. */
static void test_murty_exponential(void) {
  static double M[144], q[12], z[12], w[12];
  lk_lcp_options o;
  lk_lcp_options_default(&o);
  o.max_pivots = 100000;
  for (int n = 4; n <= 12; n++) {
    for (int i = 0; i < n; i++)
      for (int j = 0; j < n; j++) M[i * n + j] = i == j ? 1 : (j < i ? 2 : 0);
    for (int i = 0; i < n; i++) {
      double s = 0;
      for (int k = 0; k <= i; k++) s += ldexp(1.0, n - k);
      q[i] = -s;
    }
    lk_lcp p = dense(n, M, q);
    lk_lcp_report r;
    LK_ASSERT_OK(solve(lk_lcp_lemke, &p, &o, z, w, &r), lk_no_error);
    LK_ASSERT_NEAR(z[0], ldexp(1.0, n), 0);
    for (int i = 1; i < n; i++) LK_ASSERT_NEAR(z[i], 0, 0);
    for (int i = 1; i < n; i++) LK_ASSERT_NEAR(w[i], ldexp(1.0, n - i), 0);
    LK_ASSERT_INT_EQ(r.pivots, 1 << n);
    printf("  Murty M~(%d), q^(%d): %d pivots\n", n, n, r.pivots);
    for (int i = 0; i < n; i++) q[i] = -1;
    LK_ASSERT_OK(solve(lk_lcp_lemke, &p, &o, z, w, &r), lk_no_error);
    LK_ASSERT_NEAR(z[0], 1, 0);
    for (int i = 1; i < n; i++) LK_ASSERT_NEAR(z[i], 0, 0);
    printf("  Murty M~(%d), q = -e: %d pivots\n", n, r.pivots);
  }
  /* The default cap (1000 + 100 n) stops the exponential path; principal
   * pivoting then answers in one step: z = 2^n e_1. */
  int n = 12;
  for (int i = 0; i < n; i++) {
    double s = 0;
    for (int k = 0; k <= i; k++) s += ldexp(1.0, n - k);
    q[i] = -s;
  }
  lk_lcp p = dense(n, M, q);
  lk_lcp_report r;
  LK_ASSERT_OK(solve(lk_lcp_lemke, &p, NULL, z, w, &r), lk_no_error);
  LK_ASSERT_INT_EQ(r.pivots, 1000 + 100 * n + 1);
  LK_ASSERT_MSG(strstr(r.detail, "principal pivoting") != NULL, "%s", r.detail);
  LK_ASSERT_NEAR(z[0], ldexp(1.0, n), 0);
  for (int i = 1; i < n; i++) LK_ASSERT_NEAR(z[i], 0, 0);
}

/* Issue 18.15: Murty's lower-triangular P-matrix at n = 20 (1 on the
 * diagonal, 2 below, q = -e; the answer z = e_1, w = (0, 1, ..., 1)):
 * Lemke's path needs 2^20 pivots and stops at its cap; Murty's
 * least-index principal pivoting solves it in one. The variant with other
 * numbers: n = 16, 2 on the diagonal, 3 below, q = -2 e: z = e_1, w_i = 1
 * below the first row; Dantzig hands both to Lemke (M is not symmetric). */
static void test_murty_lower_triangular_n20(void) {
  static const struct {
    int n;
    double diag, below, q;
  } cases[] = {{20, 1, 2, -1}, {16, 2, 3, -2}};
  static double M[400], q[20], z[20], w[20];
  for (int c = 0; c < 2; c++) {
    int n = cases[c].n;
    for (int i = 0; i < n; i++) {
      q[i] = cases[c].q;
      for (int j = 0; j < n; j++) M[i * n + j] = i == j ? cases[c].diag : (j < i ? cases[c].below : 0);
    }
    lk_lcp p = dense(n, M, q);
    for (int s = 0; s < 2; s++) {
      lk_lcp_report r;
      LK_ASSERT_OK(solve(s ? lk_lcp_dantzig : lk_lcp_lemke, &p, NULL, z, w, &r), lk_no_error);
      LK_ASSERT_MSG(strstr(r.detail, "principal pivoting") != NULL || (s && r.fallback), "%s", r.detail);
      LK_ASSERT_MSG(r.pivots > 1000 + 100 * n, "n = %d: %d pivots (Lemke's path alone?)", n, r.pivots);
      LK_ASSERT_NEAR(z[0], 1, 0);
      LK_ASSERT_NEAR(w[0], 0, 0);
      for (int i = 1; i < n; i++) {
        LK_ASSERT_NEAR(z[i], 0, 0);
        LK_ASSERT_NEAR(w[i], cases[c].below + cases[c].q, 0);
      }
    }
  }
}

/* ------------------------------------------------- Siconos' problems */

typedef struct {
  const char *file;
  int solvable;
  int nz; /* number of entries of the expected z given (0: not unique) */
  double z[6];
} siconos_case;

static const siconos_case kSiconos[] = {
    {"lcp_CPS_1.dat", 1, 0, {0}},
    {"lcp_CPS_2.dat", 1, 3, {0, 1, 3}},
    {"lcp_CPS_3.dat", 1, 4, {1.0 / 90, 2.0 / 45, 1.0 / 90, 2.0 / 45}},
    {"lcp_CPS_4.dat", 1, 4, {2, 2, 2, 92}},
    {"lcp_CPS_4bis.dat", 1, 4, {3, 3, 0, 83}},
    {"lcp_CPS_5.dat", 1, 2, {0, 1}},
    {"lcp_Pang_isolated_sol.dat", 1, 3, {1, 0, 0}},
    {"lcp_Pang_isolated_sol_perturbed.dat", 0, 0, {0}},
    {"lcp_deudeu.dat", 1, 2, {4.0 / 3, 7.0 / 3}},
    {"lcp_enum_fails.dat", 1, 0, {0}},
    {"lcp_exp_murty.dat", 1, 6, {0, 0, 0, 0, 0, 1}},
    {"lcp_exp_murty2.dat", 1, 6, {0, 0, 0, 0, 0, 64}},
    {"lcp_inf_sol_perturbed.dat", 1, 3, {1, 0, 1e-4}},
    {"lcp_mmc.dat", 1, 0, {0}},
    {"lcp_ortiz.dat", 1, 4, {2.0 / 3, 0, 1.0 / 3, 0}},
    {"lcp_tobenna.dat", 1, 0, {0}},
    {"lcp_trivial.dat", 1, 6, {1, 0.5, 1.0 / 3, 0.25, 0.2, 1.0 / 6}},
};

static void test_siconos_problems(void) {
  char path[512];
  int n_cases = (int)(sizeof kSiconos / sizeof kSiconos[0]);
  for (int c = 0; c < n_cases; c++) {
    const siconos_case *k = &kSiconos[c];
    snprintf(path, sizeof path, "lcp/siconos/%s", k->file);
    lk_lcp_problem *prob = NULL;
    lk_error err, *errp = &err;
    LK_ASSERT_OK(lk_lcp_problem_load(lk_test_data(path), &prob, &err), errp);
    if (!prob) continue;
    const lk_lcp *p = lk_lcp_problem_lcp(prob);
    double z[64], w[64];
    lk_lcp_report r;
    lk_status s = solve(lk_lcp_lemke, p, NULL, z, w, &r);
    if (k->solvable) {
      LK_ASSERT_MSG(s == LK_OK, "%s: %s (%s)", k->file, lk_status_name(s), r.detail);
      double res = std_residual(p, z);
      LK_ASSERT_MSG(res < 1e-10, "%s: relative residual %.3g", k->file, res);
      for (int i = 0; i < k->nz; i++)
        LK_ASSERT_MSG(fabs(z[i] - k->z[i]) <= 1e-12 * (1 + fabs(k->z[i])), "%s: z[%d] = %.17g, expected %.17g",
                      k->file, i, z[i], k->z[i]);
    } else {
      /* Row 2 reads w_2 = -z_1 - 1 < 0: infeasible, and proven so. */
      LK_ASSERT_MSG(s == LK_NO_SOLUTION && r.ray_certified, "%s: %s, certified %d", k->file,
                    lk_status_name(s), r.ray_certified);
    }
    /* Dantzig too: the non-symmetric ones through its Lemke fallback. */
    s = solve(lk_lcp_dantzig, p, NULL, z, w, &r);
    if (k->solvable)
      LK_ASSERT_MSG(s == LK_OK && std_residual(p, z) < 1e-10, "%s with Dantzig: %s", k->file,
                    lk_status_name(s));
    else
      LK_ASSERT_MSG(s == LK_NO_SOLUTION, "%s with Dantzig: %s", k->file, lk_status_name(s));
    lk_lcp_problem_free(prob);
  }
}

/* --------------------------------------------- the exhaustive oracle */

/* Solve the k x k system A x = b (row-major, copied) by Gaussian
 * elimination with partial pivoting; 0 if singular. */
static int small_solve(int k, const double *A0, const double *b0, double *x) {
  double A[64], b[8];
  memcpy(A, A0, sizeof(double) * (size_t)(k * k));
  memcpy(b, b0, sizeof(double) * (size_t)k);
  for (int c = 0; c < k; c++) {
    int p = c;
    for (int i = c + 1; i < k; i++)
      if (fabs(A[i * k + c]) > fabs(A[p * k + c])) p = i;
    if (fabs(A[p * k + c]) < 1e-12) return 0;
    for (int j = 0; j < k; j++) {
      double t = A[p * k + j];
      A[p * k + j] = A[c * k + j];
      A[c * k + j] = t;
    }
    double t = b[p];
    b[p] = b[c];
    b[c] = t;
    for (int i = c + 1; i < k; i++) {
      double f = A[i * k + c] / A[c * k + c];
      for (int j = c; j < k; j++) A[i * k + j] -= f * A[c * k + j];
      b[i] -= f * b[c];
    }
  }
  for (int i = k - 1; i >= 0; i--) {
    double s = b[i];
    for (int j = i + 1; j < k; j++) s -= A[i * k + j] * x[j];
    x[i] = s / A[i * k + i];
  }
  return 1;
}

/* All complementary basic solutions of a standard LCP (n <= 8): every
 * subset S of basic z's, M_SS z_S = -q_S, kept when z_S >= 0 and the
 * other w's >= 0. Returns their number (solutions stored, up to 16). */
static int enumerate(int n, const double *M, const double *q, double sols[16][8]) {
  int count = 0;
  for (unsigned mask = 0; mask < (1u << n); mask++) {
    int idx[8], k = 0;
    for (int i = 0; i < n; i++)
      if (mask >> i & 1) idx[k++] = i;
    double A[64], b[8], x[8], z[8] = {0};
    for (int a = 0; a < k; a++) {
      for (int c = 0; c < k; c++) A[a * k + c] = M[idx[a] * n + idx[c]];
      b[a] = -q[idx[a]];
    }
    if (k > 0 && !small_solve(k, A, b, x)) continue;
    int ok = 1;
    for (int a = 0; a < k; a++) {
      if (x[a] < -1e-10) ok = 0;
      z[idx[a]] = x[a];
    }
    for (int i = 0; i < n && ok; i++) {
      double w = q[i];
      for (int j = 0; j < n; j++) w += M[i * n + j] * z[j];
      if (!(mask >> i & 1) && w < -1e-10) ok = 0;
    }
    if (!ok) continue;
    int dup = 0;
    for (int s = 0; s < count; s++) dup |= maxdiff(sols[s], z, n) < 1e-9;
    if (!dup && count < 16) memcpy(sols[count++], z, sizeof z);
  }
  return count;
}

static void test_enumeration_oracle(void) {
  lk_rng rng;
  lk_rng_seed(&rng, 2024);
  double M[64], q[8], z[8], w[8], sols[16][8], zs[8];
  int matched = 0, none = 0, tried = 0;
  for (int t = 0; t < 600; t++) {
    int n = 1 + t % 8, kind = (t / 8) % 4;
    if (kind == 0) lk_gen_pmatrix(&rng, n, M, n);
    if (kind == 1) lk_gen_nonsym_pd(&rng, n, M, n);
    if (kind == 2) lk_gen_psd(&rng, n, 1 + n / 2, M, n);
    if (kind == 3)
      for (int i = 0; i < n * n; i++) M[i] = lk_rng_uniform(&rng, -1, 1); /* anything */
    if (kind == 2)
      lk_gen_q_solvable(&rng, n, M, n, 0.5, q, zs);
    else
      lk_gen_q_uniform(&rng, n, q);
    int ns = enumerate(n, M, q, sols);
    lk_lcp p = dense(n, M, q);
    lk_lcp_report r;
    lk_status s = solve(lk_lcp_lemke, &p, NULL, z, w, &r);
    tried++;
    if (kind <= 1) {
      /* P-matrices: exactly one solution, and Lemke finds it. */
      LK_ASSERT_INT_EQ(ns, 1);
      LK_ASSERT_INT_EQ(s, LK_OK);
      LK_ASSERT_NEAR(maxdiff(z, sols[0], n), 0, 1e-9);
      matched++;
    } else if (ns == 0) {
      /* No complementary basic solution, so no solution at all (a
       * solvable LCP has a basic one): nothing may claim success. */
      LK_ASSERT_MSG(s != LK_OK, "n=%d kind=%d: solved a problem without solution", n, kind);
      none++;
    } else if (s == LK_OK) {
      /* Lemke ends in a complementary basis: one of the oracle's. */
      int found = 0;
      for (int k = 0; k < ns; k++) found |= maxdiff(z, sols[k], n) < 1e-8;
      LK_ASSERT_MSG(found, "n=%d kind=%d: Lemke's z is not a complementary solution", n, kind);
      matched++;
    } else {
      /* Lemke may fail only where it is not guaranteed: kind 3. */
      LK_ASSERT_MSG(kind == 3, "n=%d kind=%d: %s with %d solutions", n, kind, lk_status_name(s), ns);
    }
  }
  printf("  oracle: %d problems, %d matched, %d without solution\n", tried, matched, none);
  LK_ASSERT_MSG(matched > 400 && none > 10, "too few cases of each outcome: %d, %d", matched, none);
}

/* ------------------------------------------------- random families */

typedef enum { F_SPD, F_PSD, F_NONSYM_PD, F_PMATRIX, F_FRICTION_ST, F_NFAM } family;
static const char *const kFamily[] = {"SPD", "PSD rank-deficient", "non-symmetric PD",
                                      "P-matrix", "Stewart-Trinkle friction"};

/* Sizes: mostly small (the stepper's common case), some up to 200. */
static int family_size(int t) {
  if (t % 50 == 0) return 200;
  if (t % 25 == 0) return 100 + (t * 37) % 100;
  if (t % 10 == 0) return 50 + (t * 7) % 60;
  return 2 + (t * 13) % 29;
}

static int make_family(lk_rng *rng, family f, int n, double *M, double *q) {
  double zs[NMAX];
  switch (f) {
    case F_SPD:
      lk_gen_spd(rng, n, 0.01, M, n);
      lk_gen_q_uniform(rng, n, q);
      return n;
    case F_PSD:
      lk_gen_psd(rng, n, n / 2 + 1, M, n);
      lk_gen_q_solvable(rng, n, M, n, 0.5, q, zs);
      return n;
    case F_NONSYM_PD:
      lk_gen_nonsym_pd(rng, n, M, n);
      lk_gen_q_uniform(rng, n, q);
      return n;
    case F_PMATRIX:
      lk_gen_pmatrix(rng, n, M, n);
      lk_gen_q_uniform(rng, n, q);
      return n;
    default: {
      lk_contacts c;
      int nc = n / 6 > 0 ? n / 6 : 1;
      lk_gen_contacts(rng, (nc + 1) / 2, nc, 0.6, &c);
      int m = lk_gen_stewart_trinkle_size(&c, 4);
      lk_gen_stewart_trinkle(&c, 4, M, m, q);
      lk_contacts_free(&c);
      return m;
    }
  }
}

static void test_random_families(void) {
  static double M[NMAX * NMAX], q[NMAX], z1[NMAX], w1[NMAX], z2[NMAX], w2[NMAX];
  lk_rng rng;
  lk_rng_seed(&rng, 77);
  for (int f = 0; f < F_NFAM; f++) {
    int count = 0, agree = 0, big = 0;
    long pivots = 0;
    double worst = 0;
    for (int t = 0; t < 250; t++) {
      int n = make_family(&rng, (family)f, family_size(t), M, q);
      lk_lcp p = dense(n, M, q);
      lk_lcp_report r;
      lk_status s = solve(lk_lcp_lemke, &p, NULL, z1, w1, &r);
      /* Every family is solvable: SPD and P by the P-property, PSD by
       * construction of q, friction by Anitescu & Potra (1997). */
      LK_ASSERT_MSG(s == LK_OK, "%s n=%d: Lemke %s (%s)", kFamily[f], n, lk_status_name(s), r.detail);
      double v = box_violation(&p, z1);
      worst = fmax(worst, v);
      LK_ASSERT_MSG(v < 1e-9, "%s n=%d: violation %.3g", kFamily[f], n, v);
      pivots += r.pivots;
      count++;
      big += n >= 100;
      s = solve(lk_lcp_dantzig, &p, NULL, z2, w2, &r);
      if (f == F_SPD || f == F_PSD) {
        LK_ASSERT_MSG(s == LK_OK, "%s n=%d: Dantzig %s", kFamily[f], n, lk_status_name(s));
        /* w is unique for symmetric PSD problems, z where M is PD. */
        double dw = maxdiff(w1, w2, n), dz = maxdiff(z1, z2, n), sc = 1;
        for (int i = 0; i < n; i++) sc = fmax(sc, fabs(z1[i]));
        LK_ASSERT_MSG(dw < 1e-8 * sc, "%s n=%d: w differs by %.3g", kFamily[f], n, dw);
        if (f == F_SPD) LK_ASSERT_MSG(dz < 1e-7 * sc, "%s n=%d: z differs by %.3g", kFamily[f], n, dz);
        agree++;
      } else {
        /* non-symmetric: Lemke's answer, by the fallback */
        LK_ASSERT_MSG(s == LK_OK && r.fallback == 1, "%s n=%d: Dantzig %s, fallback %d", kFamily[f], n,
                      lk_status_name(s), r.fallback);
        LK_ASSERT_MSG(box_violation(&p, z2) < 1e-9, "%s n=%d: violation %.3g", kFamily[f], n,
                      box_violation(&p, z2));
      }
    }
    printf("  %-26s %d problems (%d with n >= 100), mean %.1f Lemke pivots, worst %.2g, %d agree\n",
           kFamily[f], count, big, (double)pivots / count, worst, agree);
  }
}

/* A Stewart-Trinkle problem on which Lemke's path runs into a ray while
 * z0 is degenerately zero: the basis reached is then a solution, and must
 * be reported as one (found by bench/lcp: family seed 4100, 13th problem). */
static void test_ray_with_z0_at_zero_is_a_solution(void) {
  static double M[NMAX * NMAX], q[NMAX], z[NMAX], w[NMAX];
  lk_rng rng;
  lk_rng_seed(&rng, 4100);
  int n = 0;
  for (int t = 0; t <= 12; t++) {
    lk_contacts c;
    lk_gen_contacts(&rng, 8, 16, 0.6, &c);
    n = lk_gen_stewart_trinkle_size(&c, 4);
    lk_gen_stewart_trinkle(&c, 4, M, n, q);
    lk_contacts_free(&c);
  }
  lk_lcp p = dense(n, M, q);
  lk_lcp_report r;
  LK_ASSERT_OK(solve(lk_lcp_lemke, &p, NULL, z, w, &r), lk_no_error);
  LK_ASSERT_MSG(box_violation(&p, z) < 1e-9, "violation %.3g", box_violation(&p, z));
}

/* PSD M with M y = 0 for some y >= 0 and q^T y < 0: for z >= 0 with
 * M z + q >= 0, y^T (M z + q) = q^T y < 0 (M symmetric) is a contradiction,
 * so the problem is infeasible (Farkas). */
static void test_infeasible_problems_end_in_a_ray(void) {
  static double A[NMAX * NMAX], M[NMAX * NMAX], q[NMAX], y[NMAX], z[NMAX], w[NMAX];
  lk_rng rng;
  lk_rng_seed(&rng, 5);
  int certified = 0, total = 0;
  for (int t = 0; t < 150; t++) {
    int n = t % 25 == 0 ? 120 : 2 + t % 20;
    double yy = 0;
    for (int i = 0; i < n; i++) {
      y[i] = lk_rng_uniform(&rng, 0, 1) < 0.3 ? 0 : lk_rng_uniform(&rng, 0.1, 1);
      yy += y[i] * y[i];
    }
    if (yy == 0) y[0] = 1, yy = 1;
    lk_gen_psd(&rng, n, n, A, n);
    /* M = P A P with P = I - y y^T / |y|^2. */
    for (int i = 0; i < n; i++)
      for (int j = 0; j < n; j++) {
        double s = A[i * n + j];
        M[i * n + j] = s;
      }
    for (int pass = 0; pass < 2; pass++) /* M <- P M, then M <- M P */
      for (int j = 0; j < n; j++) {
        double s = 0;
        for (int i = 0; i < n; i++) s += y[i] * (pass ? M[j * n + i] : M[i * n + j]);
        for (int i = 0; i < n; i++) {
          if (pass)
            M[j * n + i] -= s * y[i] / yy;
          else
            M[i * n + j] -= s * y[i] / yy;
        }
      }
    lk_gen_q_uniform(&rng, n, q);
    double qy = 0;
    for (int i = 0; i < n; i++) qy += q[i] * y[i];
    for (int i = 0; i < n; i++) q[i] -= (qy + sqrt(yy)) * y[i] / yy;
    lk_lcp p = dense(n, M, q);
    lk_lcp_report r;
    lk_status s = solve(lk_lcp_lemke, &p, NULL, z, w, &r);
    LK_ASSERT_MSG(s == LK_NO_SOLUTION, "n=%d: Lemke %s on an infeasible problem", n, lk_status_name(s));
    certified += r.ray_certified;
    LK_ASSERT_MSG(lk_all_finite_test(z, n) && lk_all_finite_test(w, n), "non-finite on failure");
    s = solve(lk_lcp_dantzig, &p, NULL, z, w, &r);
    LK_ASSERT_MSG(s == LK_NO_SOLUTION, "n=%d: Dantzig %s on an infeasible problem", n, lk_status_name(s));
    total++;
  }
  printf("  infeasible: %d problems, %d rays certified\n", total, certified);
  LK_ASSERT_MSG(certified >= total * 9 / 10, "only %d of %d rays certified", certified, total);
}

/* ----------------------------------------------- boxed and friction */

static void test_single_contact_closed_form(void) {
  /* A point mass (M = I): normal approach 1, tangential velocity v. With
   * mu = 0.4: sliding (v = 2) gives friction -mu z_n at the bound with
   * w_t = v - mu > 0; sticking (v = 0.1) gives z_t = -v, w_t = 0. */
  double M[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1}, q[3] = {-1, 2, 0.1}, z[3], w[3];
  double lo[3] = {0, -INFINITY, -INFINITY}, hi[3] = {INFINITY, INFINITY, INFINITY}, mu[3] = {0, 0.4, 0.4};
  int fi[3] = {-1, 0, 0};
  lk_lcp p = dense(3, M, q);
  p.lo = lo, p.hi = hi, p.findex = fi, p.mu = mu;
  for (int s = 0; s < 2; s++) {
    lk_lcp_report r;
    LK_ASSERT_OK(solve(s ? lk_lcp_dantzig : lk_lcp_lemke, &p, NULL, z, w, &r), lk_no_error);
    LK_ASSERT_NEAR(z[0], 1, 1e-15);
    LK_ASSERT_NEAR(z[1], -0.4, 1e-15);
    LK_ASSERT_NEAR(w[1], 1.6, 1e-15);
    LK_ASSERT_NEAR(z[2], -0.1, 1e-15);
    LK_ASSERT_NEAR(w[2], 0, 1e-15);
  }
  /* Coupled: sliding friction feeds back into the normal row through
   * M[0][1] = 0.5, so z_n = 1 / (1 - 0.5 mu), with friction exactly at
   * the bound -mu z_n. Freezing the bound at the frictionless normal force
   * (ODE's scheme) would give z_n = 1 + 0.5 mu and leave the cone. */
  double Mc[9] = {1, 0.5, 0, 0.5, 1, 0, 0, 0, 1}, qc[3] = {-1, 2, 0}, muc[3] = {0, 0.5, 0.5};
  p.M = Mc, p.q = qc, p.mu = muc;
  for (int s = 0; s < 2; s++) {
    lk_lcp_report r;
    LK_ASSERT_OK(solve(s ? lk_lcp_dantzig : lk_lcp_lemke, &p, NULL, z, w, &r), lk_no_error);
    LK_ASSERT_NEAR(z[0], 4.0 / 3, 1e-14);
    LK_ASSERT_NEAR(z[1], -2.0 / 3, 1e-14);
    LK_ASSERT_NEAR(w[0], 0, 1e-14);
    LK_ASSERT_NEAR(w[1], 2, 1e-14);
    LK_ASSERT_INT_EQ(r.fallback, 0);
  }
}

static void test_boxed_problems(void) {
  static double M[NMAX * NMAX], q[NMAX], lo[NMAX], hi[NMAX], z1[NMAX], w1[NMAX], z2[NMAX], w2[NMAX];
  lk_rng rng;
  lk_rng_seed(&rng, 99);
  for (int t = 0; t < 200; t++) {
    int n = t % 40 == 0 ? 150 : 1 + t % 25;
    lk_gen_spd(&rng, n, 0.05, M, n);
    lk_gen_q_uniform(&rng, n, q);
    for (int i = 0; i < n; i++) {
      double u = lk_rng_uniform(&rng, 0, 1);
      lo[i] = u < 0.2 ? -INFINITY : (u < 0.5 ? -lk_rng_uniform(&rng, 0, 0.5) : 0.0);
      u = lk_rng_uniform(&rng, 0, 1);
      hi[i] = u < 0.3 ? INFINITY : lk_rng_uniform(&rng, 0.05, 0.5);
      if (u > 0.95) hi[i] = lo[i] = isinf(lo[i]) ? 0.1 : lo[i]; /* fixed */
    }
    lk_lcp p = dense(n, M, q);
    p.lo = lo, p.hi = hi;
    lk_lcp_report r1, r2;
    lk_status s1 = solve(lk_lcp_lemke, &p, NULL, z1, w1, &r1);
    lk_status s2 = solve(lk_lcp_dantzig, &p, NULL, z2, w2, &r2);
    LK_ASSERT_MSG(s1 == LK_OK && s2 == LK_OK, "n=%d: %s / %s", n, lk_status_name(s1), lk_status_name(s2));
    LK_ASSERT_MSG(box_violation(&p, z1) < 1e-9 && box_violation(&p, z2) < 1e-9, "n=%d: violation", n);
    /* SPD: the box problem has one solution. */
    LK_ASSERT_MSG(maxdiff(z1, z2, n) < 1e-8, "n=%d: solvers differ by %.3g", n, maxdiff(z1, z2, n));
    LK_ASSERT_INT_EQ(r2.fallback, 0);
  }
}

/* Bodies resting on uneven ground through several contacts each (rank
 * deficient M = J W J^T, as real contact problems are), with tangent rows
 * bounded by mu times their normal. Both solvers must solve them all. A
 * second, regularized set (M + 1e-6 I, nearly singular) is harder for
 * pivoting: there a failure must be reported as one, never as success. */
static void test_friction_index_problems(void) {
  static double M[NMAX * NMAX], q[NMAX], lo[NMAX], hi[NMAX], mu[NMAX], z[NMAX], w[NMAX];
  static int fi[NMAX];
  lk_rng rng;
  lk_rng_seed(&rng, 31);
  int total = 0, fallbacks = 0, sliding = 0, solved[2] = {0, 0}, reg_total = 0;
  const double mus[3] = {0.2, 0.5, 0.8};
  for (int t = 0; t < 300; t++) {
    int regularized = t >= 200;
    int nc = t % 40 == 0 ? 30 : 1 + t % 12;
    lk_contacts c;
    lk_gen_contacts(&rng, (nc + 1) / 2, nc, mus[t % 3], &c);
    int n = 3 * nc;
    lk_gen_contacts_boxed(&c, regularized ? 1e-6 : 0.0, M, n, q, lo, hi, fi, mu);
    lk_contacts_free(&c);
    lk_lcp p = dense(n, M, q);
    p.lo = lo, p.hi = hi, p.findex = fi, p.mu = mu;
    for (int s = 0; s < 2; s++) {
      lk_lcp_report r;
      lk_status st = solve(s ? lk_lcp_dantzig : lk_lcp_lemke, &p, NULL, z, w, &r);
      if (!regularized)
        LK_ASSERT_MSG(st == LK_OK, "%d contacts, mu %g, %s: %s (%s)", nc, mu[1], s ? "Dantzig" : "Lemke",
                      lk_status_name(st), r.detail);
      if (st == LK_OK) {
        double v = box_violation(&p, z);
        LK_ASSERT_MSG(v < 1e-9, "%d contacts, %s: violation %.3g", nc, s ? "Dantzig" : "Lemke", v);
        if (regularized) solved[s]++;
      } else {
        LK_ASSERT_MSG(lk_all_finite_test(z, n), "non-finite on failure");
      }
      if (s && !regularized) fallbacks += r.fallback;
      for (int i = 0; i < n && !s && !regularized; i++)
        sliding += fi[i] >= 0 && z[fi[i]] > 1e-9 && fabs(fabs(z[i]) - mu[i] * z[fi[i]]) < 1e-12;
    }
    total += !regularized;
    reg_total += regularized;
  }
  printf("  friction: %d problems, %d tangent rows at the cone's edge, Dantzig fell back to Lemke %d times;\n"
         "  regularized: Lemke solved %d/%d, Dantzig %d/%d\n",
         total, sliding, fallbacks, solved[0], reg_total, solved[1], reg_total);
  LK_ASSERT_MSG(sliding > 100, "the family hardly slides (%d)", sliding);
  /* Dantzig itself should finish most of them (a regression guard). */
  LK_ASSERT_MSG(fallbacks <= total / 10, "Dantzig fell back %d times in %d", fallbacks, total);
  LK_ASSERT_MSG(solved[1] >= reg_total * 95 / 100 && solved[0] >= reg_total * 85 / 100,
                "regularized: %d and %d of %d", solved[0], solved[1], reg_total);
}

/* Friction groups of 1 to 4 rows per normal (2-D contacts, 3-D ones, with
 * torsion, with rolling): Lemke expands up to 3 rows as a box and larger
 * groups row by row. SPD M: both solvers must agree with the conditions. */
static void test_friction_groups_of_any_size(void) {
  static double M[NMAX * NMAX], q[NMAX], lo[NMAX], hi[NMAX], mu[NMAX], z[NMAX], w[NMAX];
  static int fi[NMAX];
  lk_rng rng;
  lk_rng_seed(&rng, 6);
  for (int t = 0; t < 120; t++) {
    int m = 1 + t % 4, nc = 1 + (t / 4) % 8, n = nc * (m + 1);
    lk_gen_spd(&rng, n, 0.1, M, n);
    for (int i = 0; i < n; i++) {
      int normal = i % (m + 1) == 0;
      q[i] = normal ? lk_rng_uniform(&rng, -1, 0.2) : lk_rng_uniform(&rng, -1, 1);
      lo[i] = normal ? 0 : -INFINITY;
      hi[i] = INFINITY;
      fi[i] = normal ? -1 : i - i % (m + 1);
      mu[i] = normal ? 0 : lk_rng_uniform(&rng, 0.1, 0.9);
    }
    lk_lcp p = dense(n, M, q);
    p.lo = lo, p.hi = hi, p.findex = fi, p.mu = mu;
    for (int s = 0; s < 2; s++) {
      lk_lcp_report r;
      lk_status st = solve(s ? lk_lcp_dantzig : lk_lcp_lemke, &p, NULL, z, w, &r);
      LK_ASSERT_MSG(st == LK_OK, "groups of %d, %d contacts, %s: %s (%s)", m, nc, s ? "Dantzig" : "Lemke",
                    lk_status_name(st), r.detail);
      LK_ASSERT_MSG(box_violation(&p, z) < 1e-9, "groups of %d: violation %.3g", m, box_violation(&p, z));
    }
  }
}

static void test_mixed_problems_with_free_rows(void) {
  static double M[NMAX * NMAX], q[NMAX], lo[NMAX], z1[NMAX], w1[NMAX], z2[NMAX], w2[NMAX];
  lk_rng rng;
  lk_rng_seed(&rng, 4);
  for (int t = 0; t < 150; t++) {
    int n = t % 30 == 0 ? 120 : 2 + t % 20;
    lk_gen_spd(&rng, n, 0.05, M, n);
    lk_gen_q_uniform(&rng, n, q);
    int nfree = 0;
    for (int i = 0; i < n; i++) {
      lo[i] = lk_rng_uniform(&rng, 0, 1) < 0.3 ? -INFINITY : 0.0;
      nfree += isinf(lo[i]);
    }
    lk_lcp p = dense(n, M, q);
    p.lo = lo;
    lk_lcp_report r;
    LK_ASSERT_OK(solve(lk_lcp_lemke, &p, NULL, z1, w1, &r), lk_no_error);
    LK_ASSERT_OK(solve(lk_lcp_dantzig, &p, NULL, z2, w2, &r), lk_no_error);
    for (int i = 0; i < n; i++)
      if (isinf(lo[i])) {
        LK_ASSERT_NEAR(w1[i], 0, 1e-12);
        LK_ASSERT_NEAR(w2[i], 0, 1e-12);
      }
    LK_ASSERT_MSG(maxdiff(z1, z2, n) < 1e-8, "n=%d (%d free): solvers differ by %.3g", n, nfree,
                  maxdiff(z1, z2, n));
  }
  /* A free block with a zero diagonal is fine (no diagonal pivoting). */
  double Ms[4] = {0, 1, 1, 0}, qs[2] = {1, -2}, lof[2] = {-INFINITY, -INFINITY}, z[2], w[2];
  lk_lcp p = dense(2, Ms, qs);
  p.lo = lof;
  lk_lcp_report r;
  LK_ASSERT_OK(solve(lk_lcp_lemke, &p, NULL, z, w, &r), lk_no_error);
  LK_ASSERT_NEAR(z[0], 2, 1e-15);
  LK_ASSERT_NEAR(z[1], -1, 1e-15);
  /* A singular and inconsistent free block: no z makes both w zero. */
  double Mz[4] = {1, 1, 1, 1}, qz[2] = {1, 2};
  p = dense(2, Mz, qz);
  p.lo = lof;
  LK_ASSERT_INT_EQ(solve(lk_lcp_lemke, &p, NULL, z, w, &r), LK_SINGULAR);
  lk_status s = solve(lk_lcp_dantzig, &p, NULL, z, w, &r);
  LK_ASSERT_MSG(s == LK_SINGULAR || s == LK_NO_SOLUTION, "Dantzig: %s", lk_status_name(s));
}

/* ------------------------------------------------------- contracts */

static void test_bad_input(void) {
  double M[4] = {2, 1, 1, 2}, q[2] = {-1, -1}, z[2] = {7, 7}, w[2] = {7, 7};
  lk_lcp_report r;
  const lk_lcp_solver *types[2] = {lk_lcp_lemke, lk_lcp_dantzig};
  for (int s = 0; s < 2; s++) {
    const lk_lcp_solver *t = types[s];
    lk_lcp p = dense(2, M, q);
    double Mn[4] = {2, NAN, 1, 2}, Mi[4] = {2, 1, INFINITY, 2}, qn[2] = {-1, NAN};
    p.M = Mn;
    LK_ASSERT_INT_EQ(solve(t, &p, NULL, z, w, &r), LK_NON_FINITE);
    LK_ASSERT_MSG(z[0] == 0 && z[1] == 0 && w[0] == 0 && w[1] == 0, "z, w not zeroed");
    p.M = Mi;
    LK_ASSERT_INT_EQ(solve(t, &p, NULL, z, w, &r), LK_NON_FINITE);
    p.M = M, p.q = qn;
    LK_ASSERT_INT_EQ(solve(t, &p, NULL, z, w, &r), LK_NON_FINITE);
    p.q = q;
    /* n = 0 is the empty problem: solved, nothing touched. */
    p.n = 0;
    z[0] = 7;
    LK_ASSERT_INT_EQ(solve(t, &p, NULL, z, w, &r), LK_OK);
    LK_ASSERT_NEAR(z[0], 7, 0);
    LK_ASSERT_NEAR(r.residual, 0, 0);
    p.n = -1;
    LK_ASSERT_INT_EQ(solve(t, &p, NULL, z, w, &r), LK_INVALID_ARGUMENT);
    p.n = 2;
    double lo[2] = {0, 1}, hi[2] = {1, 0.5};
    p.lo = lo, p.hi = hi;
    LK_ASSERT_INT_EQ(solve(t, &p, NULL, z, w, &r), LK_INVALID_ARGUMENT);
    double lon[2] = {0, NAN};
    p.lo = lon, p.hi = NULL;
    LK_ASSERT_INT_EQ(solve(t, &p, NULL, z, w, &r), LK_INVALID_ARGUMENT);
    double loi[2] = {0, INFINITY};
    p.lo = loi;
    LK_ASSERT_INT_EQ(solve(t, &p, NULL, z, w, &r), LK_INVALID_ARGUMENT);
    p.lo = NULL;
    int fi[2] = {-1, 5}, fi_self[2] = {0, -1}, fi_chain[2] = {1, 0};
    double mu[2] = {0, 0.5}, mun[2] = {0, -0.5};
    p.findex = fi, p.mu = mu;
    LK_ASSERT_INT_EQ(solve(t, &p, NULL, z, w, &r), LK_INVALID_ARGUMENT);
    p.findex = fi_self;
    LK_ASSERT_INT_EQ(solve(t, &p, NULL, z, w, &r), LK_INVALID_ARGUMENT);
    p.findex = fi_chain;
    LK_ASSERT_INT_EQ(solve(t, &p, NULL, z, w, &r), LK_INVALID_ARGUMENT);
    int fi_ok[2] = {-1, 0};
    p.findex = fi_ok, p.mu = mun;
    LK_ASSERT_INT_EQ(solve(t, &p, NULL, z, w, &r), LK_INVALID_ARGUMENT);
    p.mu = NULL;
    LK_ASSERT_INT_EQ(solve(t, &p, NULL, z, w, &r), LK_INVALID_ARGUMENT);
    p.findex = NULL;
    p.ldm = 1;
    LK_ASSERT_INT_EQ(solve(t, &p, NULL, z, w, &r), LK_INVALID_ARGUMENT);
    p.ldm = 0;
    LK_ASSERT_INT_EQ(solve(t, NULL, NULL, z, w, &r), LK_INVALID_ARGUMENT);
    LK_ASSERT_INT_EQ(lk_lcp_solve(t, &p, NULL, NULL, z, w, &r), LK_INVALID_ARGUMENT);
    LK_ASSERT_INT_EQ(solve(t, &p, NULL, NULL, w, &r), LK_INVALID_ARGUMENT);
    LK_ASSERT_INT_EQ(solve(t, &p, NULL, z, w, NULL), LK_OK); /* no report wanted */
    lk_lcp_options o;
    lk_lcp_options_default(&o);
    o.tol = -1;
    LK_ASSERT_INT_EQ(solve(t, &p, &o, z, w, &r), LK_INVALID_ARGUMENT);
    lk_lcp_options_default(&o);
    unsigned char bad[2] = {0, 9};
    o.basis_in = bad;
    LK_ASSERT_INT_EQ(solve(t, &p, &o, z, w, &r), LK_INVALID_ARGUMENT);
    /* Too big for the workspace. */
    lk_lcp_workspace *small = lk_lcp_workspace_new(1);
    LK_ASSERT_INT_EQ(lk_lcp_solve(t, &p, NULL, small, z, w, &r), LK_CAPACITY_EXCEEDED);
    lk_lcp_workspace_free(small);
  }
  LK_ASSERT_MSG(lk_lcp_workspace_new(-1) == NULL, "negative capacity accepted");
  {
    lk_lcp p = dense(2, M, q);
    LK_ASSERT_INT_EQ(lk_lcp_capacity_needed(&p), 2);
    double lo2[2] = {0, -1}, hi2[2] = {INFINITY, 1}, mu2[2] = {0, 0.5};
    int fi2[2] = {-1, 0};
    p.lo = lo2, p.hi = hi2;
    LK_ASSERT_INT_EQ(lk_lcp_capacity_needed(&p), 3); /* one boxed row */
    p.findex = fi2, p.mu = mu2;
    LK_ASSERT_INT_EQ(lk_lcp_capacity_needed(&p), 4); /* a 1-row box: 2 betas + lambda */
    p.n = -1;
    LK_ASSERT_INT_EQ(lk_lcp_capacity_needed(&p), -1);
  }
  lk_lcp_workspace_free(NULL);
  LK_ASSERT_MSG(lk_lcp_solver_by_name("lemke") == lk_lcp_lemke &&
                    lk_lcp_solver_by_name("dantzig") == lk_lcp_dantzig && !lk_lcp_solver_by_name("pgs"),
                "solver names");
  /* Lemke's expansion needs room: n + boxed rows. */
  double lo[2] = {0, 0}, hi[2] = {1, 1};
  lk_lcp p = dense(2, M, q);
  p.lo = lo, p.hi = hi;
  lk_lcp_workspace *two = lk_lcp_workspace_new(2);
  LK_ASSERT_INT_EQ(lk_lcp_solve(lk_lcp_lemke, &p, NULL, two, z, w, &r), LK_CAPACITY_EXCEEDED);
  LK_ASSERT_OK(lk_lcp_solve(lk_lcp_dantzig, &p, NULL, two, z, w, &r), lk_no_error);
  lk_lcp_workspace_free(two);
}

static void test_warm_starts(void) {
  static double M[NMAX * NMAX], q[NMAX], z1[NMAX], w1[NMAX], z2[NMAX], w2[NMAX];
  static unsigned char basis[NMAX], guess[NMAX];
  lk_rng rng;
  lk_rng_seed(&rng, 8);
  int outcome[2][4] = {{0}};
  for (int t = 0; t < 240; t++) {
    int n = t % 40 == 0 ? 100 : 3 + t % 20;
    family f = t % 2 ? F_SPD : F_PMATRIX;
    n = make_family(&rng, f, n, M, q);
    lk_lcp p = dense(n, M, q);
    const lk_lcp_solver *type = f == F_SPD && t % 4 == 1 ? lk_lcp_dantzig : lk_lcp_lemke;
    int si = type == lk_lcp_dantzig;
    lk_lcp_options o;
    lk_lcp_options_default(&o);
    o.basis_out = basis;
    lk_lcp_report r;
    LK_ASSERT_OK(solve(type, &p, &o, z1, w1, &r), lk_no_error);
    LK_ASSERT_INT_EQ(r.warm, LK_LCP_COLD);
    /* The exact basis: no pivots at all. */
    memcpy(guess, basis, (size_t)n);
    o.basis_in = guess;
    o.basis_out = guess; /* aliasing is allowed */
    LK_ASSERT_OK(solve(type, &p, &o, z2, w2, &r), lk_no_error);
    LK_ASSERT_INT_EQ(r.warm, LK_LCP_WARM_EXACT);
    LK_ASSERT_INT_EQ(r.pivots, 0);
    LK_ASSERT_NEAR(maxdiff(z1, z2, n), 0, 1e-10);
    LK_ASSERT_MSG(!memcmp(guess, basis, (size_t)n), "basis changed on an exact warm start");
    /* The previous step's basis with some contacts changed. */
    for (int i = 0; i < n; i++)
      if (lk_rng_uniform(&rng, 0, 1) < 0.15) guess[i] = guess[i] == LK_LCP_BASIC ? LK_LCP_LOWER : LK_LCP_BASIC;
    LK_ASSERT_OK(solve(type, &p, &o, z2, w2, &r), lk_no_error);
    LK_ASSERT_NEAR(maxdiff(z1, z2, n), 0, 1e-8); /* unique solutions */
    outcome[si][r.warm]++;
    LK_ASSERT_MSG(r.warm != LK_LCP_COLD, "warm start not reported");
  }
  /* A guess that leads nowhere falls back to a cold start: Lemke from the
   * all-w basis of the bimatrix game CPS 4.4.23 ends in a ray (the cold
   * start then restarts from the other corner); Dantzig clamping every row
   * of a problem whose answer is z = 0 has to drop them all. */
  {
    double Mg[16] = {0, 0, 10, 20, 0, 0, 30, 15, 10, 20, 0, 0, 30, 15, 0, 0}, qg[4] = {-1, -1, -1, -1};
    unsigned char low[4] = {0, 0, 0, 0}, all[3] = {1, 1, 1};
    double zg[4], wg[4];
    lk_lcp p = dense(4, Mg, qg);
    lk_lcp_options o;
    lk_lcp_options_default(&o);
    o.basis_in = low;
    lk_lcp_report r;
    LK_ASSERT_OK(solve(lk_lcp_lemke, &p, &o, zg, wg, &r), lk_no_error);
    LK_ASSERT_INT_EQ(r.warm, LK_LCP_WARM_FELL_BACK);
    LK_ASSERT_NEAR(zg[0], 1.0 / 90, 1e-15);
    double Md[9] = {1, 0, 0, 0, 2, 0, 0, 0, 3}, qd[3] = {1, 1, 1};
    p = dense(3, Md, qd);
    o.basis_in = all;
    LK_ASSERT_OK(solve(lk_lcp_dantzig, &p, &o, zg, wg, &r), lk_no_error);
    LK_ASSERT_INT_EQ(r.warm, LK_LCP_WARM_FELL_BACK);
    LK_ASSERT_NEAR(zg[0] + zg[1] + zg[2], 0, 0);
  }
  printf("  warm starts (exact/repaired/fell back): Lemke %d/%d/%d, Dantzig %d/%d/%d\n", outcome[0][1],
         outcome[0][2], outcome[0][3], outcome[1][1], outcome[1][2], outcome[1][3]);
  LK_ASSERT_MSG(outcome[0][2] > 10 && outcome[1][2] > 10, "few repaired warm starts");
}


static void test_no_allocation_in_a_solve(void) {
  static double M[200 * 200], q[200], lo[200], hi[200], mu[200], z[200], w[200];
  static int fi[200];
  static unsigned char basis[200];
  lk_rng rng;
  lk_rng_seed(&rng, 3);
  lk_lcp_workspace *wsp = lk_lcp_workspace_new(200);
  lk_allocator a = LK_TEST_COUNTING_ALLOCATOR;
  lk_set_allocator(&a);
  lk_test_allocs = 0;
  for (int t = 0; t < 20; t++) {
    lk_contacts c;
    lk_gen_contacts(&rng, 10, 30, 0.7, &c);
    lk_gen_contacts_boxed(&c, 0, M, 90, q, lo, hi, fi, mu);
    lk_contacts_free(&c);
    lk_lcp p = dense(90, M, q);
    p.lo = lo, p.hi = hi, p.findex = fi, p.mu = mu;
    lk_lcp_options o;
    lk_lcp_options_default(&o);
    o.basis_out = basis;
    lk_lcp_solve(lk_lcp_dantzig, &p, &o, wsp, z, w, NULL);
    o.basis_in = basis;
    lk_lcp_solve(lk_lcp_lemke, &p, &o, wsp, z, w, NULL);
    p.findex = NULL, p.lo = p.hi = NULL;
    lk_lcp_solve(lk_lcp_lemke, &p, NULL, wsp, z, w, NULL);
    lk_lcp_solve(lk_lcp_dantzig, &p, NULL, wsp, z, w, NULL);
  }
  size_t during = lk_test_allocs;
  lk_set_allocator(NULL);
  lk_lcp_workspace_free(wsp);
  LK_ASSERT_INT_EQ(during, 0);
}

static void test_leading_dimension_and_determinism(void) {
  static double M[60 * 60], Mp[60 * 64], q[60], z1[60], w1[60], z2[60], w2[60];
  lk_rng rng;
  lk_rng_seed(&rng, 12);
  int n = 60;
  lk_gen_spd(&rng, n, 0.01, M, n);
  lk_gen_q_uniform(&rng, n, q);
  for (int i = 0; i < n; i++)
    for (int j = 0; j < 64; j++) Mp[i * 64 + j] = j < n ? M[i * n + j] : NAN; /* padding never read */
  lk_lcp a = dense(n, M, q), b = dense(n, Mp, q);
  b.ldm = 64;
  for (int s = 0; s < 2; s++) {
    const lk_lcp_solver *t = s ? lk_lcp_dantzig : lk_lcp_lemke;
    LK_ASSERT_OK(solve(t, &a, NULL, z1, w1, NULL), lk_no_error);
    LK_ASSERT_OK(solve(t, &b, NULL, z2, w2, NULL), lk_no_error);
    LK_ASSERT_MSG(!memcmp(z1, z2, sizeof(double) * n) && !memcmp(w1, w2, sizeof(double) * n),
                  "a leading dimension changed the result");
    LK_ASSERT_OK(solve(t, &a, NULL, z2, w2, NULL), lk_no_error);
    LK_ASSERT_MSG(!memcmp(z1, z2, sizeof(double) * n), "same input, different output");
  }
}

/* ------------------------------------------ warm exact fast path */

/* A contact-like matrix: nb bodies in a column, each touching the next
 * through r rows, so that rows of interfaces k and k+1 share body k+1: a
 * block-tridiagonal A = J W J^T (PSD, singular when r > 6), plus a ridge.
 * Interfaces' rows come in index order, as the contact layer lays them. */
static int stack_matrix(lk_rng *rng, int nb, int r, double ridge, double *M, int ld) {
  int n = nb * r, nd = 6 * nb;
  static double J[NMAX * 6 * 12], W[6 * 12];
  if (n > NMAX || nb > 12) return 0;
  for (int d = 0; d < nd; d++) W[d] = lk_rng_uniform(rng, 0.5, 2.0);
  for (int i = 0; i < n; i++) {
    int k = i / r; /* interface k: body k-1 (the ground for k = 0) and body k */
    for (int d = 0; d < nd; d++) J[i * nd + d] = 0;
    for (int d = 0; d < 6; d++) {
      J[i * nd + 6 * k + d] = lk_rng_normal(rng);
      if (k > 0) J[i * nd + 6 * (k - 1) + d] = lk_rng_normal(rng);
    }
  }
  double dmax = 0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      double v = 0;
      for (int d = 0; d < nd; d++) v += J[i * nd + d] * W[d] * J[j * nd + d];
      M[i * ld + j] = v;
    }
  for (int i = 0; i < n; i++) dmax = fmax(dmax, M[i * ld + i]);
  for (int i = 0; i < n; i++) M[i * ld + i] += ridge * dmax;
  /* exactly symmetric, as the contact layer assembles it */
  for (int i = 0; i < n; i++)
    for (int j = 0; j < i; j++) M[j * ld + i] = M[i * ld + j];
  return n;
}

/* Dantzig warm-started from the basis it ended in: one factor of the
 * clamped set, one solve, one residual (the final check) and no pivot; the
 * same answer as the cold solve, the residual the check measures on the
 * returned z, bit-identical on repeats and through a leading dimension,
 * and no allocation. Mixed (free), unilateral and boxed rows. */
static void test_warm_exact_fast_path(void) {
  static double M[NMAX * NMAX], Mp[NMAX * (NMAX + 3)], q[NMAX], lo[NMAX], hi[NMAX];
  static double z1[NMAX], w1[NMAX], z2[NMAX], w2[NMAX], z3[NMAX], w3[NMAX];
  static unsigned char basis[NMAX], guess[NMAX];
  lk_rng rng;
  lk_rng_seed(&rng, 31);
  int exact = 0, ncase = 0, upper = 0;
  for (int t = 0; t < 120; t++) {
    int n;
    double zscale;
    if (t % 3 == 2) {
      /* 5-box stacks and 2-box ones, 12 rows an interface: singular but
       * for the ridge (condition ~1e6). */
      n = stack_matrix(&rng, t % 2 ? 5 : 2, 12, 1e-6, M, NMAX);
      zscale = 1e-6;
    } else {
      n = t % 10 == 0 ? 150 : 3 + t % 40;
      lk_gen_spd(&rng, n, 0.1, M, n);
      zscale = 1e-12;
    }
    int ld = t % 3 == 2 ? NMAX : n;
    for (int i = 0; i < n; i++) {
      double u = lk_rng_uniform(&rng, 0, 1);
      lo[i] = u < 0.4 ? -INFINITY : (u < 0.8 ? 0.0 : -0.05);
      hi[i] = u < 0.8 ? INFINITY : 0.05;
      q[i] = lk_rng_uniform(&rng, -1, 1);
    }
    lk_lcp p = dense(n, M, q);
    p.ldm = ld;
    p.lo = lo, p.hi = hi;
    lk_lcp_options o;
    lk_lcp_options_default(&o);
    o.basis_out = basis;
    lk_lcp_report r;
    LK_ASSERT_OK(solve(lk_lcp_dantzig, &p, &o, z1, w1, &r), lk_no_error);
    memcpy(guess, basis, (size_t)n);
    o.basis_in = guess;
    o.basis_out = guess;
    LK_ASSERT_OK(solve(lk_lcp_dantzig, &p, &o, z2, w2, &r), lk_no_error);
    ncase++;
    exact += r.warm == LK_LCP_WARM_EXACT;
    LK_ASSERT_MSG(r.warm == LK_LCP_WARM_EXACT && r.pivots == 0, "t=%d n=%d: warm %d, %d pivots", t,
                  n, r.warm, r.pivots);
    LK_ASSERT_MSG(!memcmp(guess, basis, (size_t)n), "t=%d: the basis changed", t);
    double zmax = 0;
    for (int i = 0; i < n; i++) {
      zmax = fmax(zmax, fabs(z1[i]));
      upper += basis[i] == LK_LCP_UPPER;
    }
    LK_ASSERT_MSG(maxdiff(z1, z2, n) <= zscale * (1 + zmax), "t=%d n=%d: |z_warm - z_cold| = %.3g", t,
                  n, maxdiff(z1, z2, n));
    /* The residual reported is the check's, on the z returned, with the w
     * returned = M z + q. */
    LK_ASSERT_MSG(r.residual == lk_lcp_residual(&p, z2, NULL), "t=%d: residual %.17g vs %.17g", t,
                  r.residual, lk_lcp_residual(&p, z2, NULL));
    LK_ASSERT_MSG(r.residual_rel <= o.tol && lk_lcp_residual(&p, z2, w2) == r.residual,
                  "t=%d: residual %.3g, with w %.3g", t, r.residual_rel, lk_lcp_residual(&p, z2, w2));
    LK_ASSERT_MSG(box_violation(&p, z2) < 1e-11, "t=%d: violation %.3g", t, box_violation(&p, z2));
    /* Bit for bit: again, and with another leading dimension. */
    LK_ASSERT_OK(solve(lk_lcp_dantzig, &p, &o, z3, w3, &r), lk_no_error);
    LK_ASSERT_MSG(!memcmp(z2, z3, sizeof(double) * (size_t)n) && !memcmp(w2, w3, sizeof(double) * (size_t)n),
                  "t=%d: same input, different output", t);
    int ld2 = n + 3;
    for (int i = 0; i < n; i++)
      for (int j = 0; j < ld2; j++) Mp[i * ld2 + j] = j < n ? M[i * ld + j] : NAN;
    lk_lcp pp = p;
    pp.M = Mp, pp.ldm = ld2;
    LK_ASSERT_OK(solve(lk_lcp_dantzig, &pp, &o, z3, w3, &r), lk_no_error);
    LK_ASSERT_MSG(!memcmp(z2, z3, sizeof(double) * (size_t)n) && !memcmp(w2, w3, sizeof(double) * (size_t)n),
                  "t=%d: a leading dimension changed the result", t);
    /* No allocation. */
    lk_allocator a = LK_TEST_COUNTING_ALLOCATOR;
    lk_set_allocator(&a);
    lk_test_allocs = 0;
    lk_status st = solve(lk_lcp_dantzig, &p, &o, z3, w3, &r);
    size_t during = lk_test_allocs;
    lk_set_allocator(NULL);
    LK_ASSERT_INT_EQ(st, LK_OK);
    LK_ASSERT_INT_EQ(during, 0);
  }
  printf("  warm exact: %d/%d, %d rows at an upper bound\n", exact, ncase, upper);
  LK_ASSERT_MSG(upper > 20, "few rows at an upper bound");

  /* Every row guessed clamped on a rank-deficient PSD matrix: the block
   * factor meets a dependent row, and the appends decide (as before). */
  for (int t = 0; t < 20; t++) {
    int n = 6 + t;
    lk_gen_psd(&rng, n, n / 2, M, n);
    lk_gen_q_solvable(&rng, n, M, n, 0.7, q, z3);
    for (int i = 0; i < n; i++) guess[i] = LK_LCP_BASIC;
    lk_lcp p = dense(n, M, q);
    lk_lcp_options o;
    lk_lcp_options_default(&o);
    o.basis_in = guess;
    lk_lcp_report r;
    LK_ASSERT_OK(solve(lk_lcp_dantzig, &p, &o, z2, w2, &r), lk_no_error);
    LK_ASSERT_MSG(r.warm != LK_LCP_WARM_EXACT && r.warm != LK_LCP_COLD, "n=%d: warm %d", n, r.warm);
    LK_ASSERT_MSG(std_residual(&p, z2) < 1e-10, "n=%d: residual %.3g", n, std_residual(&p, z2));
    LK_ASSERT_OK(solve(lk_lcp_lemke, &p, NULL, z1, w1, &r), lk_no_error);
  }
  /* A guess whose clamped z leaves its box, or whose bounded w has the
   * wrong sign, is repaired by the passes. */
  {
    double Md[9] = {2, 1, 0, 1, 2, 1, 0, 1, 2}, qd[3] = {1, -1, 1};
    unsigned char g[3] = {LK_LCP_BASIC, LK_LCP_BASIC, LK_LCP_BASIC};
    lk_lcp p = dense(3, Md, qd);
    lk_lcp_options o;
    lk_lcp_options_default(&o);
    o.basis_in = g;
    lk_lcp_report r;
    LK_ASSERT_OK(solve(lk_lcp_dantzig, &p, &o, z2, w2, &r), lk_no_error);
    LK_ASSERT_INT_EQ(r.warm, LK_LCP_WARM_REPAIRED);
    LK_ASSERT_NEAR(z2[0], 0, 0);
    LK_ASSERT_NEAR(z2[1], 0.5, 1e-15);
    LK_ASSERT_NEAR(z2[2], 0, 0);
    unsigned char g2[3] = {LK_LCP_LOWER, LK_LCP_LOWER, LK_LCP_LOWER};
    o.basis_in = g2;
    LK_ASSERT_OK(solve(lk_lcp_dantzig, &p, &o, z3, w3, &r), lk_no_error);
    LK_ASSERT_INT_EQ(r.warm, LK_LCP_WARM_REPAIRED);
    LK_ASSERT_MSG(maxdiff(z2, z3, 3) < 1e-15, "repairs differ");
  }
}

/* Lemke on friction LCPs of bench/contact's arm scene (pyramid cones with
 * 4 and 8 edges, in the contact layer's Stewart-Trinkle form), each
 * solved cold and warm from its step's basis, with the residual at a
 * tenth of the tolerance or below:
 *  - two whose paths end in nearly singular bases (the end-of-path
 *    repair);
 *  - one whose warm path ends in a basis failing the check (the cold path
 *    takes over);
 *  - one whose cold path met a degenerate zero over a pivot of 2e-11 and
 *    ended infeasible (degenerate zeros pivot as zeros; another covering
 *    vector);
 *  - one with pivot elements of 1e-11..1e-9 in degenerate ties (a pivot
 *    floor that skips them breaks the lexicographic rule and cycles). */
static void test_lemke_degenerate_contact_problems(void) {
  static const struct {
    const char *file, *basis;
  } kCases[] = {
      {"lcp/arm_pyramid4_degenerate.dat", "000000100000000000100000100000100000"},
      {"lcp/arm_pyramid8_degenerate.dat",
       "000000000010000000000000000000100000000010000000001000000000"},
      {"lcp/arm_pyramid4_warm_bad_end.dat", "100000100000100000100000100000100000"},
      {"lcp/arm_pyramid4_bad_end.dat", "000000100000100000100000100000100000"},
      {"lcp/arm_pyramid8_tiny_pivots.dat",
       "000000000010000000001000000000100000000010000000001000000000"},
  };
  for (int c = 0; c < (int)(sizeof kCases / sizeof kCases[0]); c++) {
    lk_lcp_problem *prob = NULL;
    lk_error err, *errp = &err;
    LK_ASSERT_OK(lk_lcp_problem_load(lk_test_data(kCases[c].file), &prob, &err), errp);
    if (!prob) continue;
    const lk_lcp *p = lk_lcp_problem_lcp(prob);
    int n = p->n;
    static double z[NMAX], w[NMAX];
    static unsigned char g[NMAX];
    LK_ASSERT_INT_EQ(n, (int)strlen(kCases[c].basis));
    for (int i = 0; i < n; i++) g[i] = (unsigned char)(kCases[c].basis[i] - '0');
    for (int warm = 0; warm < 2; warm++) {
      lk_lcp_options o;
      lk_lcp_options_default(&o);
      if (warm) o.basis_in = g;
      lk_lcp_report r;
      lk_status s = solve(lk_lcp_lemke, p, &o, z, w, &r);
      LK_ASSERT_MSG(s == LK_OK && r.residual_rel <= 0.1 * o.tol, "%s (%s): %s, residual %.3g: %s",
                    kCases[c].file, warm ? "warm" : "cold", lk_status_name(s), r.residual_rel, r.detail);
      LK_ASSERT_MSG(std_residual(p, z) < 1e-10, "%s: residual %.3g", kCases[c].file, std_residual(p, z));
      LK_ASSERT_MSG(r.residual == lk_lcp_residual(p, z, w), "%s: the residual is not the check's",
                    kCases[c].file);
    }
    lk_lcp_problem_free(prob);
  }
}

/* Dantzig warm started from its step's basis on a box-cone contact LCP of
 * the rover (nearly repeated rows) gets stuck where the cold drive order
 * finishes: the warm solve must fall back to a cold Dantzig solve, say so,
 * and count every pivot. */
static void test_dantzig_warm_start_that_cannot_finish(void) {
  const char *basis = "111111111111011011011011011111011111";
  lk_lcp_problem *prob = NULL;
  lk_error err, *errp = &err;
  LK_ASSERT_OK(lk_lcp_problem_load(lk_test_data("lcp/rover_box_warm_stuck.yaml"), &prob, &err),
               errp);
  if (!prob) return;
  const lk_lcp *p = lk_lcp_problem_lcp(prob);
  int n = p->n;
  static double z[NMAX], w[NMAX], zc[NMAX], wc[NMAX];
  static unsigned char g[NMAX];
  LK_ASSERT_INT_EQ(n, (int)strlen(basis));
  for (int i = 0; i < n; i++) g[i] = (unsigned char)(basis[i] - '0');
  lk_lcp_options o;
  lk_lcp_options_default(&o);
  lk_lcp_report rc, rw;
  LK_ASSERT_OK(solve(lk_lcp_dantzig, p, &o, zc, wc, &rc), lk_no_error);
  o.basis_in = g;
  lk_status s = solve(lk_lcp_dantzig, p, &o, z, w, &rw);
  LK_ASSERT_MSG(s == LK_OK && rw.residual_rel <= o.tol, "warm: %s, residual %.3g: %s",
                lk_status_name(s), rw.residual_rel, rw.detail);
  LK_ASSERT_INT_EQ(rw.warm, LK_LCP_WARM_FELL_BACK);
  LK_ASSERT_INT_EQ(rw.fallback, 0); /* Dantzig's own answer, not Lemke's */
  LK_ASSERT_MSG(rw.pivots > rc.pivots, "the warm attempt's pivots are not counted (%d vs %d)",
                rw.pivots, rc.pivots);
  LK_ASSERT_MSG(box_violation(p, z) < 1e-10, "violation %.3g", box_violation(p, z));
  lk_lcp_problem_free(prob);
}

/* options.z_guess: the answer of a friction problem given back is the
 * answer again, without a solve (warm GUESS, no pivot, the same bits once
 * clamped into its bounds, the basis the solver ended in), also when the
 * guess is z itself; a guess
 * off by 1e-6 in one entry, one outside its bound by 1e-15, or a NaN is
 * refused and the problem solved as if none were given; guess_tol <= 0
 * with a guess is an invalid option. Both solvers. */
static void test_guess(void) {
  static double M[NMAX * NMAX], q[NMAX], lo[NMAX], hi[NMAX], mu[NMAX];
  static double z1[NMAX], w1[NMAX], z2[NMAX], w2[NMAX], g[NMAX];
  static unsigned char b1[NMAX], b2[NMAX];
  static int fi[NMAX];
  lk_rng rng;
  lk_rng_seed(&rng, 4711);
  int accepted = 0, refused = 0, same_basis = 0, rows = 0;
  for (int t = 0; t < 60; t++) {
    int nc = 1 + t % 10;
    lk_contacts c;
    lk_gen_contacts(&rng, (nc + 1) / 2, nc, 0.5, &c);
    int n = 3 * nc;
    lk_gen_contacts_boxed(&c, 0.0, M, n, q, lo, hi, fi, mu);
    lk_contacts_free(&c);
    lk_lcp p = dense(n, M, q);
    p.lo = lo, p.hi = hi, p.findex = fi, p.mu = mu;
    const lk_lcp_solver *type = t % 2 ? lk_lcp_dantzig : lk_lcp_lemke;
    lk_lcp_options o;
    lk_lcp_options_default(&o);
    o.basis_out = b1;
    lk_lcp_report r;
    if (solve(type, &p, &o, z1, w1, &r) != LK_OK) continue;
    /* the answer given back */
    memcpy(g, z1, sizeof(double) * (size_t)n);
    o.z_guess = g;
    o.basis_out = b2;
    LK_ASSERT_OK(solve(type, &p, &o, z2, w2, &r), lk_no_error);
    LK_ASSERT_INT_EQ(r.warm, LK_LCP_WARM_GUESS);
    LK_ASSERT_INT_EQ(r.pivots, 0);
    /* the solver's answer, clamped into its bounds (an ulp outside a cone
     * it lies on), normals first */
    for (int i = 0; i < n; i++)
      if (fi[i] < 0) z1[i] = fmin(fmax(z1[i], lo[i]), hi[i]);
    for (int i = 0; i < n; i++)
      if (fi[i] >= 0) z1[i] = fmin(fmax(z1[i], -mu[i] * fabs(z1[fi[i]])), mu[i] * fabs(z1[fi[i]]));
    LK_ASSERT_MSG(maxdiff(z1, z2, n) == 0, "t=%d: z is not the clamped guess", t);
    LK_ASSERT_MSG(r.residual_rel <= o.guess_tol, "t=%d: accepted at %.3g", t, r.residual_rel);
    for (int i = 0; i < n; i++) {
      same_basis += b1[i] == b2[i];
      /* a row at a bound with w = 0, or whose bounds meet (friction on a
       * contact without load): either state describes it */
      int pinned = fi[i] >= 0 && z2[fi[i]] == 0;
      LK_ASSERT_MSG(b1[i] == b2[i] || pinned || fabs(w2[i]) <= 1e-11 * (1 + fabs(q[i])),
                    "t=%d row %d: basis %d, solver's %d (z %.3g, w %.3g)", t, i, b2[i], b1[i], z2[i],
                    w2[i]);
    }
    rows += n;
    accepted++;
    /* the guess may be z itself */
    memcpy(z2, z1, sizeof(double) * (size_t)n);
    o.z_guess = z2;
    LK_ASSERT_OK(solve(type, &p, &o, z2, w2, &r), lk_no_error);
    LK_ASSERT_INT_EQ(r.warm, LK_LCP_WARM_GUESS);
    LK_ASSERT_MSG(maxdiff(z1, z2, n) == 0, "t=%d: aliased z changed", t);
    /* refused: a loaded normal impulse off by 1e-6 (inside its bounds:
     * clamping cannot mend it), or a NaN */
    int loaded = -1;
    for (int i = 0; i < n; i++)
      if (fi[i] < 0 && z1[i] > 0) loaded = i;
    for (int k = 0; k < 2 && loaded >= 0; k++) {
      memcpy(g, z1, sizeof(double) * (size_t)n);
      int i = k ? (int)lk_rng_uniform(&rng, 0, n - 1e-9) : loaded;
      g[i] = k ? NAN : g[i] * (1 + 1e-6);
      o.z_guess = g;
      LK_ASSERT_OK(solve(type, &p, &o, z2, w2, &r), lk_no_error);
      LK_ASSERT_MSG(r.warm != LK_LCP_WARM_GUESS, "t=%d: a wrong guess accepted", t);
      LK_ASSERT_NEAR(maxdiff(z1, z2, n), 0, 1e-8);
      refused++;
    }
    /* a friction impulse beyond its bound comes back on it */
    for (int i = 0; i < n; i++)
      if (fi[i] >= 0 && z1[fi[i]] > 0 && fabs(z1[i]) == mu[i] * z1[fi[i]]) {
        memcpy(g, z1, sizeof(double) * (size_t)n);
        g[i] += g[i] >= 0 ? 1e-15 : -1e-15;
        o.z_guess = g;
        LK_ASSERT_OK(solve(type, &p, &o, z2, w2, &r), lk_no_error);
        LK_ASSERT_MSG(r.warm == LK_LCP_WARM_GUESS && z2[i] == z1[i],
                      "t=%d: a guess 1e-15 outside its cone: warm %d, z %.17g for %.17g", t, r.warm,
                      z2[i], z1[i]);
        break;
      }
  }
  printf("  guesses: %d accepted (%d of %d row states as the solver's), %d refused\n", accepted,
         same_basis, rows, refused);
  LK_ASSERT_MSG(accepted >= 50 && refused >= 100, "only %d accepted, %d refused", accepted, refused);
  /* an invalid tolerance */
  double Md[4] = {2, 0, 0, 2}, qd[2] = {-1, 1}, zd[2], wd[2], gd[2] = {0.5, 0};
  lk_lcp p = dense(2, Md, qd);
  lk_lcp_options o;
  lk_lcp_options_default(&o);
  o.z_guess = gd;
  o.guess_tol = 0;
  lk_lcp_report r;
  LK_ASSERT_INT_EQ(solve(lk_lcp_dantzig, &p, &o, zd, wd, &r), LK_INVALID_ARGUMENT);
  o.guess_tol = 1e-13;
  LK_ASSERT_OK(solve(lk_lcp_dantzig, &p, &o, zd, wd, &r), lk_no_error);
  LK_ASSERT_INT_EQ(r.warm, LK_LCP_WARM_GUESS);
  LK_ASSERT_NEAR(zd[0], 0.5, 0);
}

/* options.symmetric: on symmetric contact problems Dantzig gives the very
 * answer it gives with its own test; on a non-symmetric P-matrix, told it
 * is symmetric, it may fail or fall back, but whatever it reports as
 * solved is an answer of the problem (the final check uses M itself). */
static void test_symmetric_claim(void) {
  static double M[NMAX * NMAX], q[NMAX], lo[NMAX], hi[NMAX], mu[NMAX];
  static double z1[NMAX], w1[NMAX], z2[NMAX], w2[NMAX];
  static int fi[NMAX];
  lk_rng rng;
  lk_rng_seed(&rng, 90210);
  int same = 0, solved = 0, refused = 0, fell_back = 0;
  for (int t = 0; t < 40; t++) {
    int nc = 1 + t % 12;
    lk_contacts c;
    lk_gen_contacts(&rng, (nc + 1) / 2, nc, 0.5, &c);
    int n = 3 * nc;
    lk_gen_contacts_boxed(&c, 1e-9, M, n, q, lo, hi, fi, mu);
    lk_contacts_free(&c);
    lk_lcp p = dense(n, M, q);
    p.lo = lo, p.hi = hi;
    lk_lcp_options o;
    lk_lcp_options_default(&o);
    lk_lcp_report r1, r2;
    lk_status s1 = solve(lk_lcp_dantzig, &p, &o, z1, w1, &r1);
    o.symmetric = 1;
    lk_status s2 = solve(lk_lcp_dantzig, &p, &o, z2, w2, &r2);
    LK_ASSERT_INT_EQ(s2, s1);
    LK_ASSERT_MSG(memcmp(z1, z2, sizeof(double) * (size_t)n) == 0, "t=%d: z differs", t);
    same++;
  }
  for (int t = 0; t < 40; t++) {
    int n = 4 + t % 20;
    lk_gen_nonsym_pd(&rng, n, M, n);
    lk_gen_q_uniform(&rng, n, q);
    lk_lcp p = dense(n, M, q);
    lk_lcp_options o;
    lk_lcp_options_default(&o);
    o.symmetric = 1;
    lk_lcp_report r;
    lk_status st = solve(lk_lcp_dantzig, &p, &o, z2, w2, &r);
    if (st == LK_OK) {
      /* an answer of M, z, w = M z + q: checked here independently */
      double worst = 0;
      for (int i = 0; i < n; i++) {
        double wi = q[i];
        for (int j = 0; j < n; j++) wi += M[i * n + j] * z2[j];
        worst = fmax(worst, fmax(fmax(-z2[i], -wi), fabs(z2[i] * wi)));
      }
      LK_ASSERT_MSG(worst <= 1e-8, "t=%d: reported solved, off by %.3g", t, worst);
      solved++;
      fell_back += r.fallback;
    } else {
      refused++;
    }
  }
  printf("  symmetric claim: %d symmetric problems alike; non-symmetric: %d solved (%d by the "
         "Lemke fallback), %d failed\n",
         same, solved, fell_back, refused);
  LK_ASSERT_INT_EQ(same, 40);
  LK_ASSERT_INT_EQ(solved + refused, 40);
}

static const lk_test tests[] = {
    {"textbook problems L1-L7 (L7 cycles without the lexicographic rule)", test_textbook_problems},
    {"degenerate problems: zeros in q, ties, zero rows", test_degenerate_problems},
    {"Murty's exponential family, n = 4..12", test_murty_exponential},
    {"Murty's lower-triangular P-matrix, n = 20: principal pivoting", test_murty_lower_triangular_n20},
    {"Siconos' stored problems", test_siconos_problems},
    {"exhaustive 2^n oracle, n <= 8", test_enumeration_oracle},
    {"random families, Lemke vs Dantzig", test_random_families},
    {"infeasible problems end in a (certified) ray", test_infeasible_problems_end_in_a_ray},
    {"a ray with z0 at zero is a solution", test_ray_with_z0_at_zero_is_a_solution},
    {"one contact in closed form, with coupling", test_single_contact_closed_form},
    {"boxed problems", test_boxed_problems},
    {"friction-index problems", test_friction_index_problems},
    {"friction groups of 1 to 4 rows", test_friction_groups_of_any_size},
    {"mixed problems with free rows", test_mixed_problems_with_free_rows},
    {"bad input", test_bad_input},
    {"warm starts", test_warm_starts},
    {"no allocation in a solve", test_no_allocation_in_a_solve},
    {"leading dimension and determinism", test_leading_dimension_and_determinism},
    {"Dantzig's warm exact start: one factor, one solve, one check", test_warm_exact_fast_path},
    {"Lemke on degenerate pyramid-cone contact problems", test_lemke_degenerate_contact_problems},
    {"Dantzig: a warm start that cannot finish is solved cold", test_dantzig_warm_start_that_cannot_finish},
    {"a guess that is an answer is returned without a solve; any other is refused", test_guess},
    {"Dantzig told M is symmetric: the same answers, and never a wrong one", test_symmetric_claim},
    {NULL, NULL},
};

void lk_test_register(void) {
  lk_test_suite("lcp solvers", tests);
  lk_test_register_lcp_io();
  lk_test_register_nsgs();
  lk_test_register_prod();
  lk_test_register_newton();
}
