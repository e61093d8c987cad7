/* The semismooth Newton solver (lk_lcp_newton): one contact against closed
 * forms (sliding against the slip, sticking, taking off), small contact
 * problems against Dantzig's and NSGS's answers, rank-deficient problems
 * (a box's four corners on a plane, a duplicated contact) with the
 * regularization reported, free and boxed rows, bad input and problems
 * without an answer, no allocation after the first solve of a pattern,
 * and Siconos files. */
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "lcp_gen.h"
#include "lcp_test.h"
#include "linkage/linkage.h"

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

static lk_status newton(const lk_lcp *p, lk_lcp_options *o, double *z, double *w,
                        lk_lcp_report *r) {
  lk_lcp_workspace *ws = lk_lcp_workspace_new_newton(p->n);
  lk_status s = lk_lcp_solve(lk_lcp_newton, p, o, ws, z, w, r);
  lk_lcp_workspace_free(ws);
  return s;
}

static void test_one_contact_closed_forms(void) {
  double z[3], w[3], mu3[3] = {0, 0.5, 0.5};
  lk_lcp_report r;
  lk_lcp_options o;
  lk_lcp_options_default(&o);
  o.tol = 1e-14;
  /* Sliding, W = I: sticking would need z_T = (-2, 0), outside the cone
   * of z_n = 1: |z_T| = mu z_n against the slip w_T = (1.5, 0). */
  double I3[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1}, q1[3] = {-1, 2, 0};
  lk_lcp p = contact(I3, q1, mu3);
  LK_ASSERT_OK(newton(&p, &o, z, w, &r), lk_no_error);
  LK_ASSERT_NEAR(z[0], 1, 1e-14);
  LK_ASSERT_NEAR(z[1], -0.5, 1e-14);
  LK_ASSERT_NEAR(z[2], 0, 1e-14);
  LK_ASSERT_NEAR(w[0], 0, 1e-14);
  LK_ASSERT_NEAR(w[1], 1.5, 1e-14);
  LK_ASSERT_MSG(r.sweeps >= 1 && r.sweeps <= 10, "%d iterations for one contact", r.sweeps);
  /* At an angle, W_TT = 2 I, mu 0.3: z_n = 2, z_T = -0.6 (0.6, 0.8),
   * w_T = q_T + 2 z_T = (2.28, 3.04), along the slip (0.6, 0.8). */
  double W2[9] = {1, 0, 0, 0, 2, 0, 0, 0, 2}, q2[3] = {-2, 3, 4}, mu03[3] = {0, 0.3, 0.3};
  p = contact(W2, q2, mu03);
  LK_ASSERT_OK(newton(&p, &o, z, w, &r), lk_no_error);
  LK_ASSERT_NEAR(z[0], 2, 1e-13);
  LK_ASSERT_NEAR(z[1], -0.36, 1e-13);
  LK_ASSERT_NEAR(z[2], -0.48, 1e-13);
  LK_ASSERT_NEAR(w[1], 2.28, 1e-13);
  LK_ASSERT_NEAR(w[2], 3.04, 1e-13);
  /* the same, another angle and mu (0.7): z_T = -1.4 (-0.8, 0.6) */
  double q2b[3] = {-2, -4, 3}, mu07[3] = {0, 0.7, 0.7};
  p = contact(W2, q2b, mu07);
  LK_ASSERT_OK(newton(&p, &o, z, w, &r), lk_no_error);
  LK_ASSERT_NEAR(z[0], 2, 1e-13);
  LK_ASSERT_NEAR(z[1], 1.12, 1e-13);
  LK_ASSERT_NEAR(z[2], -0.84, 1e-13);
  LK_ASSERT_NEAR(hypot(z[1], z[2]), 0.7 * z[0], 1e-13);
  /* Sticking inside the cone: w = 0. */
  double q3[3] = {-1, 0.1, -0.2};
  p = contact(I3, q3, mu3);
  LK_ASSERT_OK(newton(&p, &o, z, w, &r), lk_no_error);
  LK_ASSERT_NEAR(z[0], 1, 1e-14);
  LK_ASSERT_NEAR(z[1], -0.1, 1e-14);
  LK_ASSERT_NEAR(z[2], 0.2, 1e-14);
  for (int k = 0; k < 3; k++) LK_ASSERT_NEAR(w[k], 0, 1e-14);
  /* Separating: no force, w = q. */
  double q4[3] = {0.5, 3, -1};
  p = contact(I3, q4, mu3);
  LK_ASSERT_OK(newton(&p, &o, z, w, &r), lk_no_error);
  for (int k = 0; k < 3; k++) LK_ASSERT_NEAR(z[k], 0, 1e-15);
  for (int k = 0; k < 3; k++) LK_ASSERT_NEAR(w[k], q4[k], 1e-15);
  LK_ASSERT_NEAR(r.error, 0, 1e-15);
}

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

/* 2 and 4 random contacts: box friction against Dantzig's answer, the
 * circle against NSGS's (the same z and u where M is well inside the
 * positive definite matrices, which makes the answer unique). */
static void test_small_contact_problems(void) {
  static const struct {
    int nb, nc;
    double eps;
  } cases[] = {{1, 2, 0.02}, {2, 2, 0}, {2, 4, 0.02}, {4, 4, 0}};
  static double M[144], q[12], lo[12], hi[12], mu[12], za[12], wa[12], zn[12], wn[12];
  static int fi[12], cone[12];
  lk_lcp_workspace *ws = lk_lcp_workspace_new(64);
  lk_lcp_workspace *wsn = lk_lcp_workspace_new_newton(12);
  lk_rng rng;
  lk_rng_seed(&rng, 31);
  int compared_box = 0, compared_cone = 0;
  for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
    for (int t = 0; t < 15; t++) {
      lk_contacts ct;
      int nc = cases[c].nc, n = 3 * nc;
      lk_gen_contacts(&rng, cases[c].nb, nc, 0.2 + 0.1 * (t % 5), &ct);
      lk_gen_contacts_boxed(&ct, cases[c].eps, M, n, q, lo, hi, fi, mu);
      lk_contacts_free(&ct);
      lk_lcp p;
      memset(&p, 0, sizeof p);
      p.n = n, p.M = M, p.q = q, p.lo = lo, p.hi = hi, p.findex = fi, p.mu = mu;
      lk_lcp_options o;
      lk_lcp_options_default(&o);
      o.tol = 1e-12;
      lk_lcp_report ra, rn;
      int unique = spd_margin(M, n) > 1e-3;
      lk_status sa = lk_lcp_solve(lk_lcp_dantzig, &p, &o, ws, za, wa, &ra);
      LK_ASSERT_OK(lk_lcp_solve(lk_lcp_newton, &p, &o, wsn, zn, wn, &rn), lk_no_error);
      LK_ASSERT_MSG(rn.error <= 1e-10, "case %zu/%d box: fc3d error %g", c, t, rn.error);
      double zmax = 0;
      for (int i = 0; i < n; i++) zmax = fmax(zmax, fabs(za[i]));
      if (sa == LK_OK && unique) {
        for (int i = 0; i < n; i++) {
          LK_ASSERT_MSG(fabs(zn[i] - za[i]) <= 1e-8 * (1 + zmax),
                        "case %zu/%d row %d: newton %.17g, dantzig %.17g", c, t, i, zn[i], za[i]);
          LK_ASSERT_MSG(fabs(wn[i] - wa[i]) <= 1e-8 * (1 + zmax), "case %zu/%d row %d: u", c, t, i);
        }
        compared_box++;
      }
      for (int i = 0; i < n; i++) cone[i] = i % 3 == 0 ? -1 : (i % 3 == 1 ? i + 1 : i - 1);
      p.cone = cone;
      LK_ASSERT_OK(lk_lcp_solve(lk_lcp_nsgs, &p, &o, ws, za, wa, &ra), lk_no_error);
      LK_ASSERT_OK(lk_lcp_solve(lk_lcp_newton, &p, &o, wsn, zn, wn, &rn), lk_no_error);
      LK_ASSERT_MSG(rn.error <= 1e-10, "case %zu/%d cone: fc3d error %g", c, t, rn.error);
      if (unique) {
        for (int i = 0; i < n; i++) {
          LK_ASSERT_MSG(fabs(zn[i] - za[i]) <= 1e-8 * (1 + zmax),
                        "case %zu/%d row %d: newton %.17g, nsgs %.17g", c, t, i, zn[i], za[i]);
          LK_ASSERT_MSG(fabs(wn[i] - wa[i]) <= 1e-8 * (1 + zmax), "case %zu/%d row %d: u", c, t, i);
        }
        compared_cone++;
      }
    }
  }
  lk_lcp_workspace_free(ws);
  lk_lcp_workspace_free(wsn);
  printf("  %d box problems compared with Dantzig, %d cone problems with NSGS\n", compared_box,
         compared_cone);
  LK_ASSERT_MSG(compared_box >= 20 && compared_cone >= 20, "only %d and %d compared",
                compared_box, compared_cone);
}

/* W = J M^-1 J^T of a unit box (mass m, side 2h) on the plane z = 0 with
 * contacts at the given corners (x, y, -h): rows normal (z), tangents (x,
 * y); q = J v for the box's velocity v (3 linear, 3 angular). */
static void box_problem(int nc, const double (*corner)[2], double h, double m, const double *v,
                        double *W, double *q) {
  double I = m * (2 * h) * (2 * h) / 6.0, minv[6] = {1 / m, 1 / m, 1 / m, 1 / I, 1 / I, 1 / I};
  double J[12][6];
  for (int c = 0; c < nc; c++) {
    double r[3] = {corner[c][0], corner[c][1], -h};
    static const double dir[3][3] = {{0, 0, 1}, {1, 0, 0}, {0, 1, 0}};
    for (int k = 0; k < 3; k++) {
      const double *d = dir[k];
      double *row = J[3 * c + k];
      row[0] = d[0], row[1] = d[1], row[2] = d[2];
      /* (omega x r) . d = omega . (r x d) */
      row[3] = r[1] * d[2] - r[2] * d[1];
      row[4] = r[2] * d[0] - r[0] * d[2];
      row[5] = r[0] * d[1] - r[1] * d[0];
    }
  }
  int n = 3 * nc;
  for (int i = 0; i < n; i++) {
    double s = 0;
    for (int k = 0; k < 6; k++) s += J[i][k] * v[k];
    q[i] = s;
    for (int j = 0; j < n; j++) {
      double t = 0;
      for (int k = 0; k < 6; k++) t += J[i][k] * minv[k] * J[j][k];
      W[i * n + j] = t;
    }
  }
}

static void test_rank_deficient(void) {
  static double W[144], q[12], z[12], w[12], mu[12];
  static int fi[12], cone[12];
  const double h = 0.5, m = 2.0, g = 9.81, dt = 0.01;
  const double corners[4][2] = {{-h, -h}, {h, -h}, {h, h}, {-h, h}};
  /* resting (v = -g dt down): sticking, sum z_n = m g dt, no friction;
   * pushed sideways with mu 0.3 and 0.6: sliding, sum |z_T| = mu sum z_n */
  const double pushes[][2] = {{0, 0.3}, {0.05, 0.3}, {-0.2, 0.6}, {0.001, 0.6}};
  for (size_t k = 0; k < sizeof pushes / sizeof *pushes; k++) {
    double v[6] = {pushes[k][0], 0, -g * dt, 0, 0, 0};
    box_problem(4, corners, h, m, v, W, q);
    for (int i = 0; i < 12; i++) {
      fi[i] = i % 3 == 0 ? -1 : i - i % 3;
      cone[i] = i % 3 == 0 ? -1 : (i % 3 == 1 ? i + 1 : i - 1);
      mu[i] = pushes[k][1];
    }
    lk_lcp p;
    memset(&p, 0, sizeof p);
    p.n = 12, p.M = W, p.q = q, p.findex = fi, p.mu = mu, p.cone = cone;
    lk_lcp_options o;
    lk_lcp_options_default(&o);
    o.tol = 1e-12;
    lk_lcp_report r;
    LK_ASSERT_OK(newton(&p, &o, z, w, &r), lk_no_error);
    LK_ASSERT_MSG(r.error <= 1e-10, "push %zu: fc3d error %g", k, r.error);
    LK_ASSERT_MSG(r.regularized > 0, "push %zu: W has rank 6 of 12, no regularization", k);
    double sn = 0, sx = 0, sy = 0;
    for (int c = 0; c < 4; c++) sn += z[3 * c], sx += z[3 * c + 1], sy += z[3 * c + 2];
    /* the box's vertical velocity after the impulses is 0: sum z_n = m g dt */
    LK_ASSERT_NEAR(sn, m * g * dt, 1e-10);
    double vx = pushes[k][0] + sx / m; /* the sliding velocity after */
    double fmax_ = pushes[k][1] * sn;
    if (fabs(pushes[k][0]) * m <= fmax_) { /* sticks: stops */
      LK_ASSERT_NEAR(vx, 0, 1e-10);
    } else { /* slides: |friction| = mu N against the slip, keeps going */
      LK_ASSERT_NEAR(fabs(sx), fmax_, 1e-10);
      LK_ASSERT_MSG(sx * pushes[k][0] < 0 && vx * pushes[k][0] > 0, "push %zu: friction %g", k, sx);
    }
    LK_ASSERT_NEAR(sy, 0, 1e-10);
  }
  /* one contact twice: W 6 x 6 of rank 3; the two split one answer */
  const double one[2][2] = {{0, 0}, {0, 0}};
  double v[6] = {3, -1, -1, 0, 0, 0};
  box_problem(2, one, h, m, v, W, q);
  for (int i = 0; i < 6; i++) mu[i] = 0.4;
  lk_lcp p;
  memset(&p, 0, sizeof p);
  p.n = 6, p.M = W, p.q = q, p.findex = fi, p.mu = mu, p.cone = cone;
  lk_lcp_report r;
  LK_ASSERT_OK(newton(&p, NULL, z, w, &r), lk_no_error);
  LK_ASSERT_MSG(r.regularized > 0, "a duplicated contact: no regularization");
  /* as one contact under the centre: W = diag(1/m, 1/m + h^2/I, ...) */
  double sn = z[0] + z[3], st = hypot(z[1] + z[4], z[2] + z[5]);
  LK_ASSERT_NEAR(sn, m * 1.0, 1e-9);
  LK_ASSERT_NEAR(st, 0.4 * sn, 1e-9);
  LK_ASSERT_NEAR((z[1] + z[4]) + (z[2] + z[5]) * 3, 0, 1e-9); /* against (3, -1) */
  LK_ASSERT_MSG(z[1] + z[4] < 0, "friction along the slip");
}

/* Free rows, [lo, hi] rows and standard rows of a positive definite M:
 * Dantzig's answer; and a friction box row of the same problem. */
static void test_free_and_boxed_rows(void) {
  enum { N = 8 };
  static double M[N * N], q[N], lo[N], hi[N], za[N], wa[N], zn[N], wn[N];
  lk_rng rng;
  lk_rng_seed(&rng, 5);
  lk_lcp_workspace *ws = lk_lcp_workspace_new(4 * N);
  int checked = 0;
  for (int t = 0; t < 10; t++) {
    lk_gen_spd(&rng, N, 0.1, M, N);
    lk_gen_q_uniform(&rng, N, q);
    for (int i = 0; i < N; i++) {
      int kind = i % 4;
      lo[i] = kind == 0 ? -INFINITY : kind == 1 ? -0.2 - 0.05 * t : 0;
      hi[i] = kind == 0 || kind == 3 ? INFINITY : kind == 1 ? 0.3 : 0.1 + 0.05 * t;
    }
    lk_lcp p;
    memset(&p, 0, sizeof p);
    p.n = N, p.M = M, p.q = q, p.lo = lo, p.hi = hi;
    lk_lcp_options o;
    lk_lcp_options_default(&o);
    o.tol = 1e-12;
    lk_lcp_report r;
    LK_ASSERT_OK(lk_lcp_solve(lk_lcp_dantzig, &p, &o, ws, za, wa, &r), lk_no_error);
    LK_ASSERT_OK(lk_lcp_solve(lk_lcp_newton, &p, &o, ws, zn, wn, &r), lk_no_error);
    for (int i = 0; i < N; i++) {
      LK_ASSERT_NEAR(zn[i], za[i], 1e-10);
      LK_ASSERT_NEAR(wn[i], wa[i], 1e-10);
    }
    LK_ASSERT_MSG(r.sweeps <= 30, "%d iterations for %d rows", r.sweeps, N);
    checked++;
  }
  LK_ASSERT_INT_EQ(checked, 10);
  lk_lcp_workspace_free(ws);
}

static void test_bad_input_and_no_solution(void) {
  double W[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1}, q[3] = {-1, NAN, 0}, mu3[3] = {0, 0.5, 0.5};
  double z[3] = {7, 7, 7}, w[3] = {7, 7, 7};
  lk_lcp p = contact(W, q, mu3);
  lk_lcp_report r;
  LK_ASSERT_INT_EQ(newton(&p, NULL, z, w, &r), LK_NON_FINITE);
  for (int k = 0; k < 3; k++) LK_ASSERT_MSG(isfinite(z[k]) && isfinite(w[k]), "NaN escaped");
  W[4] = INFINITY, q[1] = 0;
  LK_ASSERT_INT_EQ(newton(&p, NULL, z, w, &r), LK_NON_FINITE);
  /* no answer: w = -z - 1 >= 0 with z >= 0 is impossible; a standard and
   * a contact form of it */
  double M1[1] = {-1}, q1[1] = {-1}, z1[1], w1[1];
  lk_lcp p1;
  memset(&p1, 0, sizeof p1);
  p1.n = 1, p1.M = M1, p1.q = q1;
  lk_lcp_options o;
  lk_lcp_options_default(&o);
  o.max_sweeps = 40;
  lk_status s = newton(&p1, &o, z1, w1, &r);
  LK_ASSERT_INT_EQ(s, LK_NOT_CONVERGED);
  LK_ASSERT_MSG(isfinite(z1[0]) && isfinite(w1[0]) && isfinite(r.residual), "not finite");
  LK_ASSERT_NEAR(w1[0], -z1[0] - 1, 1e-15);
  double Wn[9] = {-1, 0, 0, 0, 1, 0, 0, 0, 1}, qn[3] = {-2, 1, 1};
  p = contact(Wn, qn, mu3);
  s = newton(&p, &o, z, w, &r);
  LK_ASSERT_INT_EQ(s, LK_NOT_CONVERGED);
  for (int k = 0; k < 3; k++) LK_ASSERT_MSG(isfinite(z[k]) && isfinite(w[k]), "NaN escaped");
  /* a product is refused */
  int grow[2] = {0, 1}, gcol[1] = {0};
  double gval[1] = {1}, qq[1] = {-1};
  lk_lcp pp;
  memset(&pp, 0, sizeof pp);
  pp.n = 1, pp.q = qq;
  pp.prod.m = 1;
  pp.prod.g = (lk_lcp_csr){grow, gcol, gval};
  pp.prod.h = pp.prod.g;
  LK_ASSERT_INT_EQ(newton(&pp, NULL, z1, w1, &r), LK_UNSUPPORTED);
  LK_ASSERT_INT_EQ(lk_lcp_solver_by_name("newton") == lk_lcp_newton, 1);
  LK_ASSERT_MSG(strcmp(lk_lcp_solver_name(lk_lcp_newton), "newton") == 0, "name");
}


/* The first solve of a pattern allocates H's rows (and KLU its objects);
 * the next solves of the pattern (another q, another mu) none. A workspace
 * of another constructor gets Newton's vectors at its first solve. Two
 * solves of one problem agree bit for bit. */
static void test_no_allocation(void) {
  enum { NC = 10, N = 3 * NC };
  static double M[N * N], q[N], lo[N], hi[N], mu[N], z[N], w[N], z2[N];
  static int fi[N], cone[N];
  lk_rng rng;
  lk_rng_seed(&rng, 77);
  lk_contacts ct;
  lk_gen_contacts(&rng, 5, NC, 0.5, &ct);
  lk_gen_contacts_boxed(&ct, 0.01, M, N, q, lo, hi, fi, mu);
  lk_contacts_free(&ct);
  for (int i = 0; i < N; i++) cone[i] = i % 3 == 0 ? -1 : (i % 3 == 1 ? i + 1 : i - 1);
  lk_lcp p;
  memset(&p, 0, sizeof p);
  p.n = N, p.M = M, p.q = q, p.findex = fi, p.mu = mu, p.cone = cone;
  lk_lcp_workspace *ws = lk_lcp_workspace_new_nsgs(N, N);
  lk_lcp_options o;
  lk_lcp_options_default(&o);
  lk_allocator a = LK_TEST_COUNTING_ALLOCATOR;
  lk_set_allocator(&a);
  lk_test_allocs = 0;
  lk_status s1 = lk_lcp_solve(lk_lcp_newton, &p, &o, ws, z, w, NULL);
  size_t first = lk_test_allocs;
  lk_test_allocs = 0;
  for (int i = 0; i < N; i++) q[i] *= 1.5;
  for (int i = 0; i < N; i++) mu[i] *= 0.5;
  lk_status s2 = lk_lcp_solve(lk_lcp_newton, &p, &o, ws, z, w, NULL);
  lk_status s3 = lk_lcp_solve(lk_lcp_newton, &p, &o, ws, z2, w, NULL);
  size_t during = lk_test_allocs;
  lk_set_allocator(NULL);
  LK_ASSERT_OK(s1, lk_no_error);
  LK_ASSERT_OK(s2, lk_no_error);
  LK_ASSERT_OK(s3, lk_no_error);
  LK_ASSERT_MSG(first > 0, "the first solve made nothing");
  LK_ASSERT_INT_EQ(during, 0);
  LK_ASSERT_INT_EQ(memcmp(z, z2, sizeof z), 0);
  lk_lcp_workspace_free(ws);
}

/* Siconos files shipped with the tests, to 1e-9 (fc3d error): the
 * Capsules problem (NSGS needs its relaxation schedule there; 675 rows,
 * so Newton's steps are KLU's) and two small ones, dense and sparse
 * storage (12 rows or fewer: Newton's dense LU). */
static void test_siconos_files(void) {
  static const char *const files[] = {"lcp/siconos-fc/Capsules-i101-404.dat",
                                      "lcp/siconos-fc/Rover4396.dat",
                                      "lcp/siconos-fc/Confeti-ex13-4contact-sparse-csc.dat"};
  for (size_t f = 0; f < sizeof files / sizeof *files; f++) {
    lk_lcp_problem *pr = NULL;
    lk_error err;
    lk_error_clear(&err);
    LK_ASSERT_OK(lk_lcp_problem_load(lk_test_data(files[f]), &pr, &err), &err);
    const lk_lcp *p = lk_lcp_problem_lcp(pr);
    double *z = calloc((size_t)p->n, sizeof *z), *w = calloc((size_t)p->n, sizeof *w);
    lk_lcp_options o;
    lk_lcp_options_default(&o);
    lk_lcp_report r;
    LK_ASSERT_OK(newton(p, &o, z, w, &r), lk_no_error);
    double e = lk_lcp_fc3d_error(p, z);
    LK_ASSERT_MSG(e <= 1e-9, "%s: fc3d error %g", files[f], e);
    LK_ASSERT_REL(e, r.error, 1e-12, 1e-300);
    printf("  %s: %d iterations, fc3d error %.1e\n", files[f], r.sweeps, e);
    free(z), free(w);
    lk_lcp_problem_free(pr);
  }
}

static const lk_test tests[] = {
    {"one contact: sliding against the slip, sticking, taking off", test_one_contact_closed_forms},
    {"2 and 4 contacts: Dantzig's and NSGS's answers", test_small_contact_problems},
    {"rank-deficient: a box's 4 corners, a duplicated contact", test_rank_deficient},
    {"free and boxed rows: Dantzig's answer", test_free_and_boxed_rows},
    {"non-finite input, no solution, products refused", test_bad_input_and_no_solution},
    {"no allocation after the first solve of a pattern; determinism", test_no_allocation},
    {"Siconos files to 1e-9", test_siconos_files},
    {NULL, NULL},
};

void lk_test_register_newton(void) { lk_test_suite("newton", tests); }
