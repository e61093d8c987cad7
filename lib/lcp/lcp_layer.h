/* What lib/lcp gives the other layers of the library (not installed):
 * the inner-loop kernels, the row and problem residuals a caller that
 * forms w itself needs, the projection into the bounds, the states z and
 * w show, the kept factor of the last solve, and the shared tolerance.
 * The solvers' own workings stay in lcp_internal.h, which only lib/lcp
 * (and its tests) include. */
#ifndef LK_LCP_LAYER_H
#define LK_LCP_LAYER_H

#include <math.h>
#include <string.h>

#include "core/simd.h"
#include "linkage/lcp.h"

/* max/min for finite values: libm's fmax is a call (NaN rules), too slow
 * in the inner loops of small solves. Callers keep NaN out. */
static inline double lk_maxd(double a, double b) { return a > b ? a : b; }

/* Inner-loop kernels of the solvers. Unrolled by four with independent
 * accumulators (which compilers turn into packed operations); the order of
 * the operations depends only on n, so results are reproducible bit for
 * bit, whatever the memory the operands live in. Where the target has
 * lib/core/simd.h's lanes, the reductions keep their four accumulators as
 * two registers of two lanes, (s0, s1) and (s2, s3), which compilers do
 * not form by themselves: the same operations in the same order as the
 * scalar code beside them, the same bits. */

/* a . b over n entries. */
static inline double lk_lcp_dot(const double *restrict a, const double *restrict b, int n) {
#if LK_HAVE_V2D
  v2d s01 = {0.0, 0.0}, s23 = {0.0, 0.0};
  int i = 0;
  for (; i + 4 <= n; i += 4) {
    s01 += load2(a + i) * load2(b + i);
    s23 += load2(a + i + 2) * load2(b + i + 2);
  }
  double s0 = s01[0];
  for (; i < n; i++) s0 += a[i] * b[i];
  return (s0 + s01[1]) + (s23[0] + s23[1]);
#else
  double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0;
  int i = 0;
  for (; i + 4 <= n; i += 4) {
    s0 += a[i] * b[i];
    s1 += a[i + 1] * b[i + 1];
    s2 += a[i + 2] * b[i + 2];
    s3 += a[i + 3] * b[i + 3];
  }
  for (; i < n; i++) s0 += a[i] * b[i];
  return (s0 + s1) + (s2 + s3);
#endif
}

/* sum |a_i b_i| over n entries. */
static inline double lk_lcp_dot_abs(const double *restrict a, const double *restrict b, int n) {
#if LK_HAVE_V2D
  v2d s01 = {0.0, 0.0}, s23 = {0.0, 0.0};
  int i = 0;
  for (; i + 4 <= n; i += 4) {
    s01 += abs2(load2(a + i) * load2(b + i));
    s23 += abs2(load2(a + i + 2) * load2(b + i + 2));
  }
  double s0 = s01[0];
  for (; i < n; i++) s0 += fabs(a[i] * b[i]);
  return (s0 + s01[1]) + (s23[0] + s23[1]);
#else
  double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0;
  int i = 0;
  for (; i + 4 <= n; i += 4) {
    s0 += fabs(a[i] * b[i]);
    s1 += fabs(a[i + 1] * b[i + 1]);
    s2 += fabs(a[i + 2] * b[i + 2]);
    s3 += fabs(a[i + 3] * b[i + 3]);
  }
  for (; i < n; i++) s0 += fabs(a[i] * b[i]);
  return (s0 + s1) + (s2 + s3);
#endif
}

/* The elementwise kernels below end with a pair and a single entry rather
 * than a loop: the vectors of small solves are short, and their tails cost
 * as much as their bodies. (Entry by entry, the same operations.) */

/* a . b summed strictly left to right (the order of the explicit-inverse
 * updates of dantzig.c), unrolled only to save the loop's overhead. */
static inline double lk_lcp_dot_seq(const double *restrict a, const double *restrict b, int n) {
  double s = 0.0;
  int i = 0;
  for (; i + 4 <= n; i += 4) {
    s += a[i] * b[i];
    s += a[i + 1] * b[i + 1];
    s += a[i + 2] * b[i + 2];
    s += a[i + 3] * b[i + 3];
  }
  for (; i < n; i++) s += a[i] * b[i];
  return s;
}

/* lk_lcp_dot and lk_lcp_dot_abs in one pass over the operands, with the
 * same accumulators (so the same two sums bit for bit): *abs_out = sum
 * |a_i b_i|, returned a . b. */
static inline double lk_lcp_dot_and_abs(const double *restrict a, const double *restrict b, int n,
                                        double *abs_out) {
#if LK_HAVE_V2D
  v2d s01 = {0.0, 0.0}, s23 = {0.0, 0.0}, m01 = {0.0, 0.0}, m23 = {0.0, 0.0};
  int i = 0;
  for (; i + 4 <= n; i += 4) {
    v2d x01 = load2(a + i) * load2(b + i);
    v2d x23 = load2(a + i + 2) * load2(b + i + 2);
    s01 += x01;
    s23 += x23;
    m01 += abs2(x01);
    m23 += abs2(x23);
  }
  double s0 = s01[0], m0 = m01[0];
  for (; i < n; i++) {
    double x = a[i] * b[i];
    s0 += x;
    m0 += fabs(x);
  }
  *abs_out = (m0 + m01[1]) + (m23[0] + m23[1]);
  return (s0 + s01[1]) + (s23[0] + s23[1]);
#else
  double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0;
  double m0 = 0.0, m1 = 0.0, m2 = 0.0, m3 = 0.0;
  int i = 0;
  for (; i + 4 <= n; i += 4) {
    double x0 = a[i] * b[i], x1 = a[i + 1] * b[i + 1];
    double x2 = a[i + 2] * b[i + 2], x3 = a[i + 3] * b[i + 3];
    s0 += x0;
    s1 += x1;
    s2 += x2;
    s3 += x3;
    m0 += fabs(x0);
    m1 += fabs(x1);
    m2 += fabs(x2);
    m3 += fabs(x3);
  }
  for (; i < n; i++) {
    double x = a[i] * b[i];
    s0 += x;
    m0 += fabs(x);
  }
  *abs_out = (m0 + m1) + (m2 + m3);
  return (s0 + s1) + (s2 + s3);
#endif
}

/* y += alpha x over n entries. */
static inline void lk_lcp_axpy(double *restrict y, double alpha, const double *restrict x, int n) {
  int i = 0;
  for (; i + 4 <= n; i += 4) {
    y[i] += alpha * x[i];
    y[i + 1] += alpha * x[i + 1];
    y[i + 2] += alpha * x[i + 2];
    y[i + 3] += alpha * x[i + 3];
  }
  if (i + 2 <= n) {
    y[i] += alpha * x[i];
    y[i + 1] += alpha * x[i + 1];
    i += 2;
  }
  if (i < n) y[i] += alpha * x[i];
}

/* x *= alpha over n entries. */
static inline void lk_lcp_scale(double *restrict x, double alpha, int n) {
  int i = 0;
  for (; i + 4 <= n; i += 4) {
    x[i] *= alpha;
    x[i + 1] *= alpha;
    x[i + 2] *= alpha;
    x[i + 3] *= alpha;
  }
  if (i + 2 <= n) {
    x[i] *= alpha;
    x[i + 1] *= alpha;
    i += 2;
  }
  if (i < n) x[i] *= alpha;
}

/* y -= c0 x0 + c1 x1 + c2 x2 + c3 x3 over n entries (a rank-4 update). */
static inline void lk_lcp_axpy4(double *restrict y, double c0, const double *restrict x0,
                                double c1, const double *restrict x1, double c2,
                                const double *restrict x2, double c3, const double *restrict x3,
                                int n) {
  int i = 0;
  for (; i + 2 <= n; i += 2) {
    y[i] -= (c0 * x0[i] + c1 * x1[i]) + (c2 * x2[i] + c3 * x3[i]);
    y[i + 1] -= (c0 * x0[i + 1] + c1 * x1[i + 1]) + (c2 * x2[i + 1] + c3 * x3[i + 1]);
  }
  if (i < n) y[i] -= (c0 * x0[i] + c1 * x1[i]) + (c2 * x2[i] + c3 * x3[i]);
}

/* Whether all n entries are finite, without a branch an entry: x * 0 is
 * +-0 for a finite x and NaN for an infinite or NaN one, and NaN survives
 * any sum. */
static inline int lk_lcp_finite(const double *restrict x, int n) {
  double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0;
  int i = 0;
  for (; i + 4 <= n; i += 4) {
    s0 += x[i] * 0.0;
    s1 += x[i + 1] * 0.0;
    s2 += x[i + 2] * 0.0;
    s3 += x[i + 3] * 0.0;
  }
  for (; i < n; i++) s0 += x[i] * 0.0;
  return (s0 + s1) + (s2 + s3) == 0.0;
}

/* Natural-map residual of one row: |z - mid(lo, z - w, hi)|, computed by
 * cases so that no cancellation hides a small w behind a large z. */
static inline double lk_lcp_row_residual(double z, double w, double lo, double hi) {
  double x = z - w;
  if (x < lo) return fabs(z - lo);
  if (x > hi) return fabs(z - hi);
  return fabs(w);
}

/* |(x, y)|: sqrt(x^2 + y^2) where the squares can neither overflow nor
 * underflow (within an ulp of hypot's), else hypot. glibc's hypot, exact
 * to the last bit, was 6 % of a step of the 300-cube pile (a norm a
 * contact in every projection, sweep and check). */
static inline double lk_lcp_hypot(double x, double y) {
  double s = x * x + y * y;
  if (s < 1e300 && (s > 1e-300 || (x == 0.0 && y == 0.0))) return sqrt(s);
  return hypot(x, y);
}

/* For a caller that builds the products it solves itself, so that their
 * patterns (offsets from 0, columns in range and increasing) hold by
 * construction: lk_lcp_solve with ws then checks the products' values
 * only (finite), not their patterns again (2 % of a step of the 300-cube
 * pile). A product given to ws whose pattern is not valid is undefined
 * behaviour: never for problems from outside the library. */
void lk_lcp_workspace_trust_pattern(lk_lcp_workspace *ws, int on);
/* lk_lcp_check with the product's patterns taken as valid (values still
 * checked). */
lk_status lk_lcp_check_trusted(const lk_lcp *p, lk_error *err);

/* z into its bounds: constant ones, then friction rows' from their
 * normals (boxes clamped, circle pairs projected onto their disk).
 * Returns how many rows (pairs) it moved. */
int lk_lcp_project(const lk_lcp *p, double *z);

/* The residual of z (in its bounds) with w = M z + q formed by the caller,
 * without reading M: the largest violation of a row's law (the natural map
 * at its bounds; a circle pair's disk law), as lk_lcp_residual measures
 * it. INFINITY on a NaN. */
double lk_lcp_residual_given_w(const lk_lcp *p, const double *z, const double *w);

/* The states z and w show: at a bound (to the solvers' rounding) with w of
 * the right sign, else basic. */
void lk_lcp_basis_from(const lk_lcp *p, const double *z, const double *w, unsigned char *basis);

/* Solvers' shared tolerances. */
#define LK_LCP_EPS 2.220446049250313e-16

/* An L D L^T factorization of a symmetric matrix that grows and shrinks by
 * one row and column at a time (ldlt.c): the clamped set of Dantzig's
 * method. L is unit lower triangular, stored by columns (L_ij at
 * L[j * ld + i]) so that the solves and the rank-one update run along
 * contiguous memory. */
typedef struct {
  int k;       /* current order */
  int ld;      /* capacity and leading dimension */
  double *L;   /* ld x ld */
  double *d;   /* ld: the diagonal of D */
  double *tmp; /* ld: scratch */
  int *last;   /* ld: after lk_ldlt_factor, the last row where each column
                  of L may be nonzero (the solves stop there) */
  int has_last; /* last is valid: no append or remove since the factor */
} lk_ldlt;

/* The clamped block's factor the last lk_lcp_solve on ws ended with, when
 * it was Dantzig's frictionless (L D L^T) path and it succeeded: f gets
 * its order k, L, D and last (pointing into ws: valid until the next
 * solve), *cidx the problem rows of its columns, in order (column c is
 * row cidx[c]: the factor is of M[cidx, cidx]). Returns 0, f untouched,
 * otherwise. For a caller that solves nearly the same problem again (a
 * time stepper at rest) and refines against this factor. */
int lk_lcp_last_factor(const lk_lcp_workspace *ws, lk_ldlt *f, const int **cidx);

/* x <- (L D L^T)^-1 x. O(k^2). */
void lk_ldlt_solve(const lk_ldlt *f, double *x);

/* Solve A x = b in place (b <- x) for the k x k row-major A (leading
 * dimension ld, overwritten by its LU factors) by Gaussian elimination with
 * partial pivoting. Returns 0 when a pivot falls under 1e-13 of the
 * largest entry (singular for this purpose). dense.c; the solvers' small
 * direct steps and lib/sim's projections. */
int lk_lcp_lu_solve(double *A, int ld, int k, double *b);

/* Anderson acceleration of a fixed-point map (anderson.c; NSGS's sweeps,
 * lib/sim's held trial): the caller
 * puts the point x in a->x, applies the map to get g, and calls
 * lk_anderson_step(a, g), which replaces g by the accelerated point
 * (returns 1) or leaves it (0: no history yet, or a fit that failed, after
 * which the history restarts). */
enum { LK_ANDERSON_MMAX = 8 };
typedef struct {
  int n, m, k, head, have_prev;
  double *dG, *dF, *x, *g0, *f0;
} lk_anderson;
/* mem: (2 m + 3) n doubles */
void lk_anderson_init(lk_anderson *a, int n, int m, double *mem);
void lk_anderson_reset(lk_anderson *a);
int lk_anderson_step(lk_anderson *a, double *g);

#endif
