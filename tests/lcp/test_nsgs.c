/* NSGS (lk_lcp_nsgs): the exact local solve of one contact against closed
 * forms, small contact problems against the pivoting solvers' answers,
 * Coulomb's law checked contact by contact, sparse and dense storage,
 * regularization, non-symmetric input, warm starts, the workspace
 * contracts and no allocation in a solve. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "lcp_gen.h"
#include "lcp_test.h"
#include "linkage/linkage.h"

/* One 3-row contact (normal, two tangents in a circle). */
static int g_findex[3] = {-1, 0, 0}, g_cone[3] = {-1, 2, 1};

static lk_lcp contact(const double *W, const double *q, const double *mu3) {
  lk_lcp p;
  memset(&p, 0, sizeof p);
  p.n = 3;
  p.M = W;
  p.q = q;
  p.findex = g_findex;
  p.mu = mu3;
  p.cone = g_cone;
  return p;
}

static lk_status nsgs(const lk_lcp *p, lk_lcp_options *o, double *z, double *w, lk_lcp_report *r) {
  lk_lcp_workspace *ws = lk_lcp_workspace_new_for(lk_lcp_nsgs, p->n);
  lk_status s = lk_lcp_solve(lk_lcp_nsgs, p, o, ws, z, w, r);
  lk_lcp_workspace_free(ws);
  return s;
}

/* Coulomb's law at contact c (rows 3c, 3c+1, 3c+2) checked from its
 * definition, w recomputed in long double: the worst violation relative
 * to the scale of the problem. Taking off: z = 0, w_n >= 0; sticking:
 * |z_T| < mu z_n, w = 0; sliding: |z_T| = mu z_n, w_n = 0, z_T = -mu z_n
 * w_T / |w_T|. */
static double coulomb_violation(const lk_lcp *p, const double *z, int c, double scale) {
  int n = p->n;
  double w[3], r[3];
  for (int k = 0; k < 3; k++) {
    long double s = p->q[3 * c + k];
    for (int j = 0; j < n; j++) {
      double m = p->csr.row ? 0.0 : p->M[(3 * c + k) * (p->ldm ? p->ldm : n) + j];
      if (p->csr.row)
        for (int e = p->csr.row[3 * c + k]; e < p->csr.row[3 * c + k + 1]; e++)
          if (p->csr.col[e] == j) m = p->csr.val[e];
      s += (long double)m * z[j];
    }
    w[k] = (double)s;
    r[k] = z[3 * c + k];
  }
  double mu = p->mu[3 * c + 1], rt = hypot(r[1], r[2]), wt = hypot(w[1], w[2]);
  double v = fmax(0.0, -r[0]); /* z_n >= 0 */
  v = fmax(v, rt - mu * r[0]);  /* inside the cone */
  if (r[0] <= 1e-12 * scale) return fmax(v, fmax(-w[0], rt)); /* off */
  v = fmax(v, fabs(w[0]));                                   /* w_n = 0 */
  if (rt < mu * r[0] * (1 - 1e-9)) return fmax(v, wt);      /* sticking: w_T = 0 */
  /* sliding: z_T = -mu z_n w_T / |w_T| (or w_T = 0 at the edge) */
  if (wt > 1e-12 * scale) {
    v = fmax(v, fabs(r[1] + mu * r[0] * w[1] / wt));
    v = fmax(v, fabs(r[2] + mu * r[0] * w[2] / wt));
  }
  return v;
}

/* -------------------------------------------- one contact, closed forms */

static void test_one_contact_closed_forms(void) {
  double z[3], w[3], mu3[3] = {0, 0.5, 0.5};
  lk_lcp_report r;
  lk_lcp_options o;
  lk_lcp_options_default(&o);
  o.tol = 1e-14;
  /* Sliding with W = I: sticking would need z_T = (-2, 0), outside the
   * cone of z_n = 1; the friction opposes the slip w_T = (1.5, 0) and
   * |z_T| = mu z_n. */
  double I3[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1}, q1[3] = {-1, 2, 0};
  lk_lcp p = contact(I3, q1, mu3);
  LK_ASSERT_OK(nsgs(&p, &o, z, w, &r), lk_no_error);
  LK_ASSERT_NEAR(z[0], 1, 1e-15);
  LK_ASSERT_NEAR(z[1], -0.5, 1e-15);
  LK_ASSERT_NEAR(z[2], 0, 1e-15);
  LK_ASSERT_NEAR(w[0], 0, 1e-15);
  LK_ASSERT_NEAR(w[1], 1.5, 1e-15);
  LK_ASSERT_NEAR(r.error, 0, 1e-15);
  /* The same at an angle, W_TT = 2 I: z_n = 2, z_T = -0.3 * 2 (0.6, 0.8),
   * w_T = q_T + 2 z_T = (2.28, 3.04), along (0.6, 0.8). */
  double W2[9] = {1, 0, 0, 0, 2, 0, 0, 0, 2}, q2[3] = {-2, 3, 4}, mu03[3] = {0, 0.3, 0.3};
  p = contact(W2, q2, mu03);
  LK_ASSERT_OK(nsgs(&p, &o, z, w, &r), lk_no_error);
  LK_ASSERT_NEAR(z[0], 2, 1e-14);
  LK_ASSERT_NEAR(z[1], -0.36, 1e-14);
  LK_ASSERT_NEAR(z[2], -0.48, 1e-14);
  LK_ASSERT_NEAR(w[1], 2.28, 1e-14);
  LK_ASSERT_NEAR(w[2], 3.04, 1e-14);
  LK_ASSERT_NEAR(hypot(z[1], z[2]), 0.3 * z[0], 1e-14);
  /* Sticking inside the cone: w = 0. */
  double q3[3] = {-1, 0.1, -0.2};
  p = contact(I3, q3, mu3);
  LK_ASSERT_OK(nsgs(&p, &o, z, w, &r), lk_no_error);
  LK_ASSERT_NEAR(z[0], 1, 1e-15);
  LK_ASSERT_NEAR(z[1], -0.1, 1e-15);
  LK_ASSERT_NEAR(z[2], 0.2, 1e-15);
  for (int k = 0; k < 3; k++) LK_ASSERT_NEAR(w[k], 0, 1e-15);
  /* Separating: no force, w = q. */
  double q4[3] = {0.5, 3, -1};
  p = contact(I3, q4, mu3);
  LK_ASSERT_OK(nsgs(&p, &o, z, w, &r), lk_no_error);
  for (int k = 0; k < 3; k++) LK_ASSERT_NEAR(z[k], 0, 0);
  for (int k = 0; k < 3; k++) LK_ASSERT_NEAR(w[k], q4[k], 0);
  /* Static and dynamic mu are the caller's: the same push, sticking with
   * mu_s = 0.8 (|z_T| = 0.6 < 0.8), sliding with mu_d = 0.5. */
  double q5[3] = {-1, 0.6, 0}, mus[3] = {0, 0.8, 0.8};
  p = contact(I3, q5, mus);
  LK_ASSERT_OK(nsgs(&p, &o, z, w, &r), lk_no_error);
  LK_ASSERT_NEAR(z[1], -0.6, 1e-15);
  LK_ASSERT_NEAR(w[1], 0, 1e-15);
  p = contact(I3, q5, mu3);
  LK_ASSERT_OK(nsgs(&p, &o, z, w, &r), lk_no_error);
  LK_ASSERT_NEAR(z[1], -0.5, 1e-15);
  LK_ASSERT_NEAR(w[1], 0.1, 1e-15);
}

/* A coupled W (normal and tangents interact, W_TT not isotropic, not
 * symmetric): the sliding answer meets Coulomb's law as defined, and the
 * local error is at rounding level. A table of pushes that slide in every
 * direction, stick, and take off. */
static void test_one_contact_coupled(void) {
  const double W[9] = {2.0, 0.3, -0.2, 0.31, 1.0, 0.25, -0.19, 0.24, 3.0};
  static const double pushes[][3] = {
      {-1, 2, 0},    {-1, 0, 2},  {-1, -2, 0.5}, {-1, 0.3, -3}, {-2, -1, -1},
      {-0.5, 5, 5},  {-1, 0.01, 0}, {-1, 0.2, 0.1}, {0.3, 1, 1},  {-1e-3, 4e-3, -2e-3},
  };
  double mu3[3] = {0, 0.4, 0.4}, z[3], w[3];
  lk_lcp_options o;
  lk_lcp_options_default(&o);
  o.tol = 1e-13;
  for (size_t k = 0; k < sizeof pushes / sizeof *pushes; k++) {
    lk_lcp p = contact(W, pushes[k], mu3);
    lk_lcp_report r;
    LK_ASSERT_OK(nsgs(&p, &o, z, w, &r), lk_no_error);
    double scale = 1 + fabs(pushes[k][0]) + fabs(pushes[k][1]) + fabs(pushes[k][2]);
    double v = coulomb_violation(&p, z, 0, scale);
    LK_ASSERT_MSG(v <= 1e-13 * scale, "push %zu: Coulomb violated by %g", k, v);
    LK_ASSERT_MSG(r.sweeps <= 3, "push %zu: %d sweeps for one contact", k, r.sweeps);
  }
}

/* ------------------------------- small contact problems, pivoting answer */

/* The smallest pivot of M's Cholesky factorization relative to its
 * largest diagonal entry (0 when not positive definite). */
static double spd_margin(const double *M, int n) {
  static double L[144];
  double dmax = 0, pmin = INFINITY;
  memcpy(L, M, sizeof(double) * (size_t)(n * n));
  for (int i = 0; i < n; i++) dmax = fmax(dmax, M[i * n + i]);
  for (int j = 0; j < n; j++) {
    double d = L[j * n + j];
    for (int k = 0; k < j; k++) d -= L[j * n + k] * L[j * n + k];
    if (!(d > 0)) return 0;
    pmin = fmin(pmin, d);
    d = sqrt(d);
    L[j * n + j] = d;
    for (int i = j + 1; i < n; i++) {
      double s = L[i * n + j];
      for (int k = 0; k < j; k++) s -= L[i * n + k] * L[j * n + k];
      L[i * n + j] = s / d;
    }
  }
  return pmin / dmax;
}

/* Random contacts as boxed LCPs (friction-index rows, box friction): NSGS
 * solves the very problem Dantzig does; with M positive definite the
 * answer is unique, and both must find it. Then with circle pairs: every
 * contact meets Coulomb's law on the exact cone. */
static void test_small_contact_problems(void) {
  /* bodies, contacts, regularization: two point contacts on one rigid
   * body leave M singular (the rows of their relative velocity along the
   * line between them agree), so those cases add eps I (the contact
   * layer's CFM) to make the answer unique */
  static const struct {
    int nb, nc;
    double eps;
  } cases[] = {{1, 1, 0}, {1, 2, 0.02}, {2, 2, 0}, {2, 4, 0.02}, {1, 4, 0.02}, {4, 4, 0}};
  static double M[144], q[12], lo[12], hi[12], mu[12], zd[12], wd[12], zn[12], wn[12];
  static int fi[12], cone[12];
  lk_lcp_workspace *ws = lk_lcp_workspace_new(64);
  lk_rng rng;
  lk_rng_seed(&rng, 20);
  int compared = 0, coulomb = 0;
  for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
    int here = 0;
    for (int t = 0; t < 20; t++) {
      lk_contacts ct;
      int nc = cases[c].nc, n = 3 * nc;
      lk_gen_contacts(&rng, cases[c].nb, nc, 0.2, &ct);
      lk_gen_contacts_boxed(&ct, cases[c].eps, M, n, q, lo, hi, fi, mu);
      lk_contacts_free(&ct);
      lk_lcp p;
      memset(&p, 0, sizeof p);
      p.n = n, p.M = M, p.q = q, p.lo = lo, p.hi = hi, p.findex = fi, p.mu = mu;
      lk_lcp_options o;
      lk_lcp_options_default(&o);
      o.tol = 1e-12;
      lk_lcp_report rd, rn;
      lk_status sd = lk_lcp_solve(lk_lcp_dantzig, &p, &o, ws, zd, wd, &rd);
      LK_ASSERT_OK(lk_lcp_solve(lk_lcp_nsgs, &p, &o, ws, zn, wn, &rn), lk_no_error);
      double zmax = 0;
      for (int i = 0; i < n; i++) zmax = fmax(zmax, fabs(zd[i]));
      /* Both are answers; they are the same one when M is well inside
       * the positive definite matrices (small mu: Klarbring's uniqueness
       * result), which a Cholesky factorization tells: contacts that
       * share a body can make it singular, and then they differ. */
      LK_ASSERT_INT_EQ(sd, LK_OK);
      if (sd == LK_OK && spd_margin(M, n) > 1e-3) {
        for (int i = 0; i < n; i++)
          LK_ASSERT_MSG(fabs(zn[i] - zd[i]) <= 1e-8 * (1 + zmax), "case %zu/%d row %d: nsgs %.17g, dantzig %.17g",
                        c, t, i, zn[i], zd[i]);
        compared++;
        here++;
      }
      /* the exact cone */
      for (int i = 0; i < n; i++) cone[i] = i % 3 == 0 ? -1 : (i % 3 == 1 ? i + 1 : i - 1);
      p.cone = cone;
      LK_ASSERT_OK(lk_lcp_solve(lk_lcp_nsgs, &p, &o, ws, zn, wn, &rn), lk_no_error);
      double scale = 1;
      for (int i = 0; i < n; i++) scale = fmax(scale, fabs(q[i]));
      for (int k = 0; k < nc; k++) {
        double v = coulomb_violation(&p, zn, k, scale);
        LK_ASSERT_MSG(v <= 1e-9 * scale, "case %zu/%d contact %d: Coulomb violated by %g", c, t, k, v);
      }
      LK_ASSERT_MSG(rn.error <= 1e-12, "case %zu/%d: fc3d error %g", c, t, rn.error);
      coulomb++;
    }
    LK_ASSERT_MSG(here >= 15, "%d bodies, %d contacts: only %d of 20 compared", cases[c].nb,
                  cases[c].nc, here);
  }
  lk_lcp_workspace_free(ws);
  printf("  %d problems compared with Dantzig, %d checked contact by contact\n", compared, coulomb);
  LK_ASSERT_MSG(compared >= 100, "only %d unique problems compared", compared);
}

/* ----------------------------------------------------- storage, CSR */

static void to_csr(int n, const double *M, int *row, int *col, double *val) {
  int k = 0;
  row[0] = 0;
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < n; j++)
      if (M[i * n + j] != 0.0) {
        col[k] = j;
        val[k++] = M[i * n + j];
      }
    row[i + 1] = k;
  }
}

static void test_sparse_and_dense_agree(void) {
  enum { NC = 12, N = 3 * NC };
  static double M[N * N], q[N], lo[N], hi[N], mu[N], zd[N], wd[N], zs[N], ws_[N], val[N * N];
  static int fi[N], cone[N], row[N + 1], col[N * N];
  lk_rng rng;
  lk_rng_seed(&rng, 7);
  lk_contacts ct;
  lk_gen_contacts(&rng, 8, NC, 0.5, &ct);
  lk_gen_contacts_boxed(&ct, 0, M, N, q, lo, hi, fi, mu);
  lk_contacts_free(&ct);
  for (int i = 0; i < N; i++) cone[i] = i % 3 == 0 ? -1 : (i % 3 == 1 ? i + 1 : i - 1);
  to_csr(N, M, row, col, val);
  LK_ASSERT_MSG(row[N] < N * N, "the contacts should leave zeros (%d entries)", row[N]);
  lk_lcp d;
  memset(&d, 0, sizeof d);
  d.n = N, d.M = M, d.q = q, d.findex = fi, d.mu = mu, d.cone = cone;
  lk_lcp s = d;
  s.M = NULL;
  s.csr.row = row, s.csr.col = col, s.csr.val = val;
  /* the measures agree on any z */
  for (int i = 0; i < N; i++) zd[i] = lk_rng_uniform(&rng, 0, 1);
  LK_ASSERT_REL(lk_lcp_residual(&d, zd, NULL), lk_lcp_residual(&s, zd, NULL), 1e-14, 1e-300);
  LK_ASSERT_REL(lk_lcp_fc3d_error(&d, zd), lk_lcp_fc3d_error(&s, zd), 1e-14, 1e-300);
  LK_ASSERT_NEAR(lk_lcp_asymmetry(&d), 0, 1e-15);
  LK_ASSERT_NEAR(lk_lcp_asymmetry(&s), 0, 1e-15);
  lk_lcp_options o;
  lk_lcp_options_default(&o);
  o.tol = 1e-12;
  lk_lcp_report rd, rs;
  LK_ASSERT_OK(nsgs(&d, &o, zd, wd, &rd), lk_no_error);
  LK_ASSERT_OK(nsgs(&s, &o, zs, ws_, &rs), lk_no_error);
  for (int i = 0; i < N; i++) LK_ASSERT_NEAR(zs[i], zd[i], 1e-9 * (1 + fabs(zd[i])));
  printf("  dense %d sweeps, sparse %d, fc3d errors %.1e %.1e\n", rd.sweeps, rs.sweeps, rd.error,
         rs.error);
  /* densify gives M back */
  static double back[N * N];
  LK_ASSERT_OK(lk_lcp_densify(&s, back, N), lk_no_error);
  LK_ASSERT_INT_EQ(memcmp(back, M, sizeof back), 0);
  /* the pivoting solvers refuse sparse input and circle pairs, and a
   * workspace made for NSGS alone */
  lk_lcp_workspace *full = lk_lcp_workspace_new(N), *thin = lk_lcp_workspace_new_for(lk_lcp_nsgs, N);
  LK_ASSERT_INT_EQ(lk_lcp_solve(lk_lcp_dantzig, &s, NULL, full, zs, ws_, &rs), LK_UNSUPPORTED);
  LK_ASSERT_INT_EQ(lk_lcp_solve(lk_lcp_lemke, &d, NULL, full, zs, ws_, &rs), LK_UNSUPPORTED);
  d.cone = NULL;
  LK_ASSERT_INT_EQ(lk_lcp_solve(lk_lcp_dantzig, &d, NULL, thin, zs, ws_, &rs), LK_CAPACITY_EXCEEDED);
  LK_ASSERT_OK(lk_lcp_solve(lk_lcp_dantzig, &d, NULL, full, zs, ws_, &rs), lk_no_error);
  lk_lcp_workspace_free(full);
  lk_lcp_workspace_free(thin);
}

/* Compressed rows that break the rules are refused, naming the row. */
static void test_bad_sparse_input(void) {
  double q[2] = {-1, -1}, val[3] = {2, 1, 2}, nan_val[3] = {2, NAN, 2};
  int row_ok[3] = {0, 2, 3}, col_ok[3] = {0, 1, 1};
  struct {
    int row[3], col[3];
    const double *val;
    lk_status s;
    const char *words;
  } bad[] = {
      {{1, 2, 3}, {0, 1, 1}, val, LK_INVALID_ARGUMENT, "row[0]"},
      {{0, 2, 1}, {0, 1, 1}, val, LK_INVALID_ARGUMENT, "ends before"},
      {{0, 2, 3}, {1, 0, 1}, val, LK_INVALID_ARGUMENT, "increasing"},
      {{0, 2, 3}, {0, 2, 1}, val, LK_INVALID_ARGUMENT, "column 2"},
      {{0, 2, 3}, {0, 1, 1}, nan_val, LK_NON_FINITE, "row 0"},
  };
  for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
    lk_lcp p;
    memset(&p, 0, sizeof p);
    p.n = 2, p.q = q;
    p.csr.row = bad[k].row, p.csr.col = bad[k].col, p.csr.val = bad[k].val;
    lk_error e;
    LK_ASSERT_INT_EQ(lk_lcp_check(&p, &e), bad[k].s);
    LK_ASSERT_MSG(strstr(e.message, bad[k].words) != NULL, "case %zu: '%s'", k, e.message);
  }
  lk_lcp p;
  memset(&p, 0, sizeof p);
  p.n = 2, p.q = q, p.csr.row = row_ok, p.csr.col = col_ok, p.csr.val = val;
  LK_ASSERT_OK(lk_lcp_check(&p, NULL), lk_no_error);
  /* an unpaired or mismatched cone */
  double M[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1}, q3[3] = {-1, 0, 0}, mu[3] = {0, 0.5, 0.4};
  int fi[3] = {-1, 0, 0}, c1[3] = {-1, 2, -1}, c2[3] = {-1, 2, 1};
  lk_lcp c = contact(M, q3, mu);
  c.findex = fi;
  c.cone = c1;
  lk_error e;
  LK_ASSERT_INT_EQ(lk_lcp_check(&c, &e), LK_INVALID_ARGUMENT);
  c.cone = c2;
  LK_ASSERT_INT_EQ(lk_lcp_check(&c, &e), LK_INVALID_ARGUMENT);
  LK_ASSERT_MSG(strstr(e.message, "different mu") != NULL, "'%s'", e.message);
}

/* ------------------------------------------------ solver's behaviours */

/* A contact whose first tangent has no response (W singular): the block
 * is regularized, the report says so, and the answer is the problem's. */
static void test_regularized_block(void) {
  double W[9] = {1, 0, 0, 0, 0, 0, 0, 0, 1}, q[3] = {-1, 0.3, 0.2}, mu[3] = {0, 0.5, 0.5};
  double z[3], w[3];
  lk_lcp p = contact(W, q, mu);
  lk_lcp_options o;
  lk_lcp_options_default(&o);
  lk_lcp_report r;
  LK_ASSERT_OK(nsgs(&p, &o, z, w, &r), lk_no_error);
  LK_ASSERT_INT_EQ(r.regularized, 1);
  LK_ASSERT_MSG(strstr(r.detail, "regularized") != NULL, "detail '%s'", r.detail);
  /* w_T1 = 0.3 whatever z_T1: it slides, against that slip */
  LK_ASSERT_NEAR(z[0], 1, 1e-9);
  LK_ASSERT_MSG(coulomb_violation(&p, z, 0, 1) <= 1e-9, "Coulomb violated by %g",
                coulomb_violation(&p, z, 0, 1));
}

/* Non-symmetric M is solved as given (a skew part of 1e-3, as Siconos'
 * exports have), the answer checked against M itself. */
static void test_non_symmetric(void) {
  enum { NC = 6, N = 3 * NC };
  static double M[N * N], q[N], lo[N], hi[N], mu[N], z[N], w[N];
  static int fi[N], cone[N];
  lk_rng rng;
  lk_rng_seed(&rng, 11);
  lk_contacts ct;
  lk_gen_contacts(&rng, 4, NC, 0.5, &ct);
  lk_gen_contacts_boxed(&ct, 0, M, N, q, lo, hi, fi, mu);
  lk_contacts_free(&ct);
  double mmax = 0;
  for (int i = 0; i < N * N; i++) mmax = fmax(mmax, fabs(M[i]));
  for (int i = 0; i < N; i++)
    for (int j = 0; j < i; j++) {
      double s = 1e-3 * mmax * lk_rng_uniform(&rng, -1, 1);
      M[i * N + j] += s;
      M[j * N + i] -= s;
    }
  for (int i = 0; i < N; i++) cone[i] = i % 3 == 0 ? -1 : (i % 3 == 1 ? i + 1 : i - 1);
  lk_lcp p;
  memset(&p, 0, sizeof p);
  p.n = N, p.M = M, p.q = q, p.findex = fi, p.mu = mu, p.cone = cone;
  double a = lk_lcp_asymmetry(&p);
  LK_ASSERT_MSG(a > 5e-4 && a <= 2e-3, "asymmetry %g", a);
  lk_lcp_options o;
  lk_lcp_options_default(&o);
  o.tol = 1e-10;
  lk_lcp_report r;
  LK_ASSERT_OK(nsgs(&p, &o, z, w, &r), lk_no_error);
  for (int k = 0; k < NC; k++) LK_ASSERT_MSG(coulomb_violation(&p, z, k, 1) <= 1e-8, "contact %d", k);
}

/* Warm start: from a perturbed answer, fewer sweeps than cold; from the
 * answer, none. Same input, same bits. */
static void test_warm_start_and_determinism(void) {
  enum { NC = 16, N = 3 * NC };
  static double M[N * N], q[N], lo[N], hi[N], mu[N], z[N], w[N], z2[N], w2[N], g[N];
  static int fi[N], cone[N];
  lk_rng rng;
  lk_rng_seed(&rng, 5);
  lk_contacts ct;
  lk_gen_contacts(&rng, 6, NC, 0.5, &ct);
  lk_gen_contacts_boxed(&ct, 0, M, N, q, lo, hi, fi, mu);
  lk_contacts_free(&ct);
  for (int i = 0; i < N; i++) cone[i] = i % 3 == 0 ? -1 : (i % 3 == 1 ? i + 1 : i - 1);
  lk_lcp p;
  memset(&p, 0, sizeof p);
  p.n = N, p.M = M, p.q = q, p.findex = fi, p.mu = mu, p.cone = cone;
  lk_lcp_options o;
  lk_lcp_options_default(&o);
  o.tol = 1e-10;
  lk_lcp_report cold, again, warm;
  LK_ASSERT_OK(nsgs(&p, &o, z, w, &cold), lk_no_error);
  LK_ASSERT_OK(nsgs(&p, &o, z2, w2, &again), lk_no_error);
  LK_ASSERT_INT_EQ(memcmp(z, z2, sizeof z), 0);
  LK_ASSERT_INT_EQ(cold.sweeps, again.sweeps);
  for (int i = 0; i < N; i++) g[i] = z[i] * (1 + 1e-3 * lk_rng_uniform(&rng, -1, 1));
  o.z_guess = g;
  LK_ASSERT_OK(nsgs(&p, &o, z2, w2, &warm), lk_no_error);
  LK_ASSERT_MSG(warm.sweeps < cold.sweeps, "warm %d sweeps, cold %d", warm.sweeps, cold.sweeps);
  LK_ASSERT_INT_EQ(warm.warm, LK_LCP_WARM_REPAIRED);
  const int warm_sweeps = warm.sweeps;
  o.z_guess = z;
  o.guess_tol = 1e-9;
  LK_ASSERT_OK(nsgs(&p, &o, z2, w2, &warm), lk_no_error);
  LK_ASSERT_INT_EQ(warm.warm, LK_LCP_WARM_GUESS);
  LK_ASSERT_INT_EQ(warm.sweeps, 0);
  /* guess_untested: the answer itself is only a start (the caller's own
   * test refused it), swept at least once and still the answer */
  o.guess_untested = 1;
  lk_lcp_report start;
  LK_ASSERT_OK(nsgs(&p, &o, z2, w2, &start), lk_no_error);
  LK_ASSERT_INT_EQ(start.warm, LK_LCP_WARM_REPAIRED);
  LK_ASSERT_MSG(start.sweeps >= 1 && start.sweeps < cold.sweeps, "%d sweeps from the answer",
                start.sweeps);
  for (int i = 0; i < N; i++) LK_ASSERT_NEAR(z2[i], z[i], 1e-8 * (1 + fabs(z[i])));
  printf("  cold %d sweeps, from a guess 1e-3 off %d, from the answer untested %d\n",
         cold.sweeps, warm_sweeps, start.sweeps);
}

/* Options that make no sense are refused; so is an infinite tolerance. */
static void test_options(void) {
  double M[1] = {2}, q[1] = {-1}, z[1], w[1];
  lk_lcp p;
  memset(&p, 0, sizeof p);
  p.n = 1, p.M = M, p.q = q;
  lk_lcp_options o;
  const struct {
    double tol, omega;
    int anderson, sweeps;
  } bad[] = {{INFINITY, 0, 3, 0}, {1e-9, 2.0, 3, 0}, {1e-9, -0.1, 3, 0}, {1e-9, 0, 7, 0},
             {1e-9, 0, -1, 0},    {1e-9, 0, 3, -1}};
  for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
    lk_lcp_options_default(&o);
    o.tol = bad[k].tol, o.omega = bad[k].omega, o.anderson = bad[k].anderson,
    o.max_sweeps = bad[k].sweeps;
    LK_ASSERT_INT_EQ(nsgs(&p, &o, z, w, NULL), LK_INVALID_ARGUMENT);
  }
  lk_lcp_options_default(&o);
  o.tol = INFINITY;
  lk_lcp_workspace *ws = lk_lcp_workspace_new(1);
  LK_ASSERT_INT_EQ(lk_lcp_solve(lk_lcp_lemke, &p, &o, ws, z, w, NULL), LK_INVALID_ARGUMENT);
  lk_lcp_workspace_free(ws);
  LK_ASSERT_MSG(lk_lcp_solver_by_name("nsgs") == lk_lcp_nsgs, "by name");
  LK_ASSERT_MSG(strcmp(lk_lcp_solver_name(lk_lcp_nsgs), "nsgs") == 0, "name");
  /* a problem NSGS cannot finish: the sweep limit, honestly reported */
  double Mi[4] = {1, 2, 2, 1}, qi[2] = {-1, -1}, z2[2], w2[2];
  p.n = 2, p.M = Mi, p.q = qi;
  lk_lcp_options_default(&o);
  o.max_sweeps = 50;
  o.anderson = 0;
  o.omega = 1;
  lk_lcp_report r;
  lk_status s = nsgs(&p, &o, z2, w2, &r);
  LK_ASSERT_MSG(s == LK_NOT_CONVERGED || s == LK_OK, "status %s", lk_status_name(s));
  if (s == LK_OK) LK_ASSERT_MSG(r.residual_rel <= o.tol, "residual %g", r.residual_rel);
  LK_ASSERT_MSG(lk_all_finite_test(z2, 2), "non-finite");
}

/* ------------------------------------------------ no allocation */


static void test_no_allocation(void) {
  enum { NC = 20, N = 3 * NC };
  static double M[N * N], q[N], lo[N], hi[N], mu[N], z[N], w[N], val[N * N];
  static int fi[N], cone[N], row[N + 1], col[N * N];
  static unsigned char basis[N];
  lk_rng rng;
  lk_rng_seed(&rng, 9);
  lk_lcp_workspace *dense_ws = lk_lcp_workspace_new(N), *thin = lk_lcp_workspace_new_for(lk_lcp_nsgs, N);
  lk_allocator a = LK_TEST_COUNTING_ALLOCATOR;
  for (int t = 0; t < 10; t++) {
    lk_contacts ct;
    lk_gen_contacts(&rng, 8, NC, 0.6, &ct);
    lk_gen_contacts_boxed(&ct, 0, M, N, q, lo, hi, fi, mu);
    lk_contacts_free(&ct);
    for (int i = 0; i < N; i++) cone[i] = i % 3 == 0 ? -1 : (i % 3 == 1 ? i + 1 : i - 1);
    to_csr(N, M, row, col, val);
    lk_lcp p;
    memset(&p, 0, sizeof p);
    p.n = N, p.M = M, p.q = q, p.findex = fi, p.mu = mu;
    lk_lcp_options o;
    lk_lcp_options_default(&o);
    o.basis_out = basis;
    lk_set_allocator(&a);
    lk_test_allocs = 0;
    lk_lcp_solve(lk_lcp_nsgs, &p, &o, dense_ws, z, w, NULL); /* boxes */
    p.cone = cone;
    lk_lcp_solve(lk_lcp_nsgs, &p, &o, dense_ws, z, w, NULL); /* cones */
    o.z_guess = z;
    lk_lcp_solve(lk_lcp_nsgs, &p, &o, thin, z, w, NULL); /* warm */
    p.M = NULL, p.csr.row = row, p.csr.col = col, p.csr.val = val;
    lk_lcp_solve(lk_lcp_nsgs, &p, &o, thin, z, w, NULL); /* sparse */
    size_t during = lk_test_allocs;
    lk_set_allocator(NULL);
    LK_ASSERT_INT_EQ(during, 0);
  }
  lk_lcp_workspace_free(dense_ws);
  lk_lcp_workspace_free(thin);
}

/* No limit on n for sparse input but the file's: 4000 contacts (12 000
 * rows) in Siconos' sparse-block storage, read and solved in O(n) memory.
 * Each contact W = diag(2, 1, 1), mu = 0.5, in turn sticking (q = (-2,
 * 0.3, 0): r = (1, -0.3, 0)), sliding (q = (-2, 0.6, 0.8): r_n = 1, r_T =
 * -mu (0.6, 0.8), u_T = (0.3, 0.4) against it) and taking off (q_n = 1:
 * r = 0). */
static void test_large_sparse_file(void) {
  enum { NC = 4000, N = 3 * NC };
  size_t cap = (size_t)NC * 160 + 4096, len = 0;
  char *t = malloc(cap);
  LK_ASSERT_MSG(t != NULL, "out of memory");
  len += (size_t)snprintf(t + len, cap - len, "3\n%d\n1\n%d\n%d\n%d\n%d\n%d\n", NC, N, N, NC, NC, NC);
  for (int pass = 0; pass < 2; pass++) { /* block row, then column, ends */
    for (int k = 1; k <= NC; k++) len += (size_t)snprintf(t + len, cap - len, "%d ", 3 * k);
    len += (size_t)snprintf(t + len, cap - len, "\n");
  }
  len += (size_t)snprintf(t + len, cap - len, "%d\n%d\n", NC + 1, NC);
  for (int k = 0; k <= NC; k++) len += (size_t)snprintf(t + len, cap - len, "%d ", k);
  len += (size_t)snprintf(t + len, cap - len, "\n");
  for (int k = 0; k < NC; k++) len += (size_t)snprintf(t + len, cap - len, "%d ", k);
  len += (size_t)snprintf(t + len, cap - len, "\n");
  for (int k = 0; k < NC; k++) len += (size_t)snprintf(t + len, cap - len, "%d\n2 0 0 0 1 0 0 0 1\n", k);
  for (int k = 0; k < NC; k++)
    len += (size_t)snprintf(t + len, cap - len, "%s ",
                            k % 3 == 0 ? "-2 0.3 0" : (k % 3 == 1 ? "-2 0.6 0.8" : "1 0.6 0.8"));
  for (int k = 0; k < NC; k++) len += (size_t)snprintf(t + len, cap - len, "0.5 ");
  LK_ASSERT_MSG(len < cap, "text of %zu bytes", len);
  lk_lcp_problem *pr = NULL;
  lk_error err;
  lk_error_clear(&err);
  lk_status st = lk_lcp_problem_parse_siconos(t, len, "large.dat", &pr, &err);
  free(t);
  LK_ASSERT_MSG(st == LK_OK, "%s", err.message);
  const lk_lcp *p = lk_lcp_problem_lcp(pr);
  LK_ASSERT_INT_EQ(p->n, N);
  LK_ASSERT_MSG(p->csr.row != NULL && p->cone != NULL, "not read as sparse contacts");
  LK_ASSERT_INT_EQ(lk_lcp_problem_contacts(pr, NULL), NC);
  double *z = calloc(N, sizeof *z), *w = calloc(N, sizeof *w);
  lk_lcp_report r;
  st = nsgs(p, NULL, z, w, &r);
  LK_ASSERT_MSG(st == LK_OK, "%s", r.detail);
  for (int k = 0; k < NC; k++) {
    double want[3][3] = {{1, -0.3, 0}, {1, -0.3, -0.4}, {0, 0, 0}};
    for (int i = 0; i < 3; i++) LK_ASSERT_NEAR(z[3 * k + i], want[k % 3][i], 1e-12);
    if (k % 3 == 1) {
      LK_ASSERT_NEAR(w[3 * k + 1], 0.3, 1e-12);
      LK_ASSERT_NEAR(w[3 * k + 2], 0.4, 1e-12);
    }
  }
  LK_ASSERT_MSG(r.error <= 1e-12, "fc3d error %g", r.error);
  free(z);
  free(w);
  lk_lcp_problem_free(pr);
}

/* Capsules-i101-404 (Siconos' collection, 225 contacts): at some fixed
 * relaxations two contacts trade load by 2e-8 a sweep and the fc3d error
 * stays at 3e-9 for thousands of sweeps (which factors stall is a matter
 * of rounding: 0.7 did with glibc's hypot, 0.5 and 0.6 do with
 * lk_lcp_hypot); the automatic relaxation moves on when the error
 * stagnates and the default tolerance 1e-9 is met, Coulomb's law holding
 * contact by contact. */
static void test_stagnation_switches_relaxation(void) {
  lk_lcp_problem *pr = NULL;
  lk_error err;
  lk_error_clear(&err);
  LK_ASSERT_OK(lk_lcp_problem_load(lk_test_data("lcp/siconos-fc/Capsules-i101-404.dat"), &pr, &err), &err);
  const lk_lcp *p = lk_lcp_problem_lcp(pr);
  int n = p->n, nc = lk_lcp_problem_contacts(pr, NULL);
  LK_ASSERT_INT_EQ(nc, 225);
  double *z = calloc((size_t)n, sizeof *z), *w = calloc((size_t)n, sizeof *w);
  lk_lcp_options o;
  lk_lcp_options_default(&o);
  o.max_sweeps = 2000;
  lk_lcp_report r;
  /* a fixed factor (no switch) that stalls: at least one of these */
  static const double fixed[] = {0.7, 0.6, 0.5};
  int stalled = 0;
  for (int k = 0; k < 3 && !stalled; k++) {
    o.omega = fixed[k];
    for (int i = 0; i < n; i++) z[i] = 0.0;
    lk_status s = nsgs(p, &o, z, w, &r);
    stalled = s == LK_NOT_CONVERGED && r.error > 1e-9 && r.error < 1e-7;
    if (stalled) printf("  omega %.1f fixed: stuck at %.2g after %d sweeps\n", fixed[k], r.error, r.sweeps);
  }
  LK_ASSERT_MSG(stalled, "no fixed relaxation stalled");
  for (int i = 0; i < n; i++) z[i] = 0.0;
  LK_ASSERT_OK(nsgs(p, NULL, z, w, &r), lk_no_error);
  LK_ASSERT_MSG(r.error <= 1e-9 && r.residual_rel <= 1e-9, "error %g, residual %g", r.error, r.residual_rel);
  double scale = 0;
  for (int i = 0; i < n; i++) scale = fmax(scale, fabs(p->q[i]));
  double worst = 0;
  for (int k = 0; k < nc; k++) worst = fmax(worst, coulomb_violation(p, z, k, scale));
  LK_ASSERT_MSG(worst <= 1e-8 * scale, "Coulomb violated by %g (scale %g)", worst, scale);
  printf("  %d sweeps, fc3d error %.2g, worst Coulomb violation %.2g of max |q|\n", r.sweeps, r.error,
         worst / scale);
  free(z);
  free(w);
  lk_lcp_problem_free(pr);
}

/* A one-contact problem the lcp fuzz target made (W entries 1e188 next
 * to 1.5 and 0): each half circle's quartic reported directions of its
 * own, 8 in all, and the local solver wrote them past a buffer of 4
 * (AddressSanitizer: stack-buffer-overflow in all_directions). Now a
 * report and finite impulses, or a status saying why not. */
static void test_many_directions_of_a_degenerate_contact(void) {
  lk_lcp_problem *pr = NULL;
  lk_error e;
  LK_ASSERT_OK(lk_lcp_problem_load(lk_test_data("lcp/fuzz_nsgs_many_directions.dat"), &pr, &e), &e);
  CU_ASSERT_FATAL(pr != NULL);
  const lk_lcp *q = lk_lcp_problem_lcp(pr);
  LK_ASSERT_INT_EQ(q->n, 3);
  lk_lcp_workspace *ws = lk_lcp_workspace_new_for(lk_lcp_nsgs, q->n);
  double z[3] = {0, 0, 0}, w[3] = {0, 0, 0};
  lk_lcp_options o;
  lk_lcp_options_default(&o);
  o.max_sweeps = 20;
  lk_lcp_report r;
  lk_status st = lk_lcp_solve(lk_lcp_nsgs, q, &o, ws, z, w, &r);
  CU_ASSERT_PTR_NOT_NULL(r.detail);
  if (st == LK_OK)
    for (int i = 0; i < 3; i++) LK_ASSERT_MSG(isfinite(z[i]), "z[%d] = %g", i, z[i]);
  lk_lcp_workspace_free(ws);
  lk_lcp_problem_free(pr);
}

static const lk_test tests[] = {
    {"one contact: sliding against the slip, sticking, taking off", test_one_contact_closed_forms},
    {"one contact, coupled non-symmetric W: Coulomb's law in every direction", test_one_contact_coupled},
    {"1, 2 and 4 contacts: Dantzig's answer, Coulomb's law on the cone", test_small_contact_problems},
    {"compressed rows and dense storage agree; pivoting solvers refuse them", test_sparse_and_dense_agree},
    {"bad compressed rows and cone pairs are refused", test_bad_sparse_input},
    {"a singular block is regularized and says so", test_regularized_block},
    {"non-symmetric M solved as given", test_non_symmetric},
    {"warm start and determinism", test_warm_start_and_determinism},
    {"options, the sweep limit", test_options},
    {"no allocation in a solve", test_no_allocation},
    {"12 000 rows from a sparse file: no size limit", test_large_sparse_file},
    {"stagnation moves the automatic relaxation on (Capsules-i101-404)", test_stagnation_switches_relaxation},
    {"a degenerate contact with 8 directions (fuzz finding)", test_many_directions_of_a_degenerate_contact},
    {NULL, NULL},
};

void lk_test_register_nsgs(void) { lk_test_suite("nsgs", tests); }
