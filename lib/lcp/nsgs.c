/* Non-smooth Gauss-Seidel over blocks of rows (NSGS: M. Jean and J. J.
 * Moreau; F. Jourdan, P. Alart and M. Curnier, "A Gauss-Seidel like
 * algorithm to solve frictional contact problems", CMAME 155, 1998;
 * Siconos' fc3d_nsgs for the behaviour and the error measure).
 *
 * The rows are grouped into blocks: a contact (a normal row with bounds
 * [0, +inf) and its friction rows: one circle pair, or one or two box
 * rows), a circle pair on its own (its normal has other bounds: the disk's
 * radius mu |z_j| is taken at the current z_j), or a single row (constant
 * bounds, or a friction row outside its normal's block, bounded at the
 * current normal). A sweep visits the blocks in row order and solves each
 * one's local problem exactly, the others' z fixed:
 *
 *   w_B = W z_B + b,  b = q_B + sum over the other rows' M_Bj z_j,
 *
 * W the diagonal block of M. A contact with a circle pair is Coulomb's law
 * on the exact cone: taking off (b_n >= 0: z = 0), sticking (z = -W^-1 b
 * inside the cone) or sliding, z = z_n (1, mu d) with |d| = 1 and the
 * sliding velocity w_T = -s d, s >= 0, w_n = 0. Sliding comes down to one
 * equation on the unit circle (sliding_direction): Newton from the last
 * direction, and when that fails every root of the equivalent quartic. Box
 * rows are a small LCP solved by enumerating its 3^k friction states. Any
 * W (non-symmetric included) is solved as given; a block whose W is
 * singular or not positive gets a proximal term eps (z - z_previous), which
 * vanishes at a fixed point, so the answer is the problem's (and the report
 * counts such blocks).
 *
 * Each block's answer is relaxed, z <- omega z_local + (1 - omega) z (and
 * put back into its cone or box), omega 0.7 by default: plain
 * Gauss-Seidel (omega = 1) falls into 2-cycles on some of Siconos' contact
 * problems (OneObject-i100000-316, -499: errors of 1e-3 forever), which
 * under-relaxation damps; when the error stagnates at one factor the
 * automatic relaxation tries the next (1, 0.85, 0.5). The sweeps are
 * accelerated by Anderson's method
 * over the last 3 (anderson.c), restarted whenever a sweep changes z more
 * than the one before (contacts changing state): on the stacks and
 * capsule piles of the collection it cuts the sweeps 3 to 10 times.
 *
 * Stopping test as Siconos': the change of z over a sweep relative to |z|
 * ("light" error) first, then, when that is below its tolerance (and
 * every 16 sweeps anyway), the full measure: lk_lcp_fc3d_error and the
 * relative residual of the final check, both at most tol; when they are
 * not, the light tolerance is tightened in proportion (Siconos'
 * LIGHT_WITH_FULL_FINAL). Deterministic: one order,
 * no shuffling. Allocates nothing: blocks and their matrices live in the
 * workspace (O(n)). */
#include <float.h>

#include "lcp/lcp_internal.h"

enum { B_ROW, B_FROW, B_BOX, B_CONE, B_DISK };
/* What a contact block did last sweep (a warm start for its next solve). */
enum { S_OFF = 0, S_STICK, S_SLIDE };

typedef struct {
  int r[3];           /* rows: the normal first (BOX, CONE); DISK: the pair,
                         then the normal; FROW: the row, then its normal */
  unsigned char kind, m, reg, state;
  unsigned char shared; /* a product's rows of one pattern (prod_block) */
  int w;              /* offset of W (m x m, row-major) in the pool; its
                         inverse follows at w + m * m */
  double eps;         /* proximal term (0: none) */
  double dc, ds;      /* last sliding direction */
} block;

size_t lk_nsgs_block_bytes(void) { return sizeof(block); }

typedef struct {
  const lk_lcp *p;
  block *B;
  int nb;
  double *pool;
  double dscale; /* max |M_ii|, 1 if all zero: the scale of eps */
  int regularized;
  double *u;     /* products: u = H^T z, kept through the sweep (NULL else) */
} nsgs;

/* ------------------------------------------------------ small algebra */

/* Inverse of the m x m (m <= 3) row-major A into X; 0 when a pivot of the
 * elimination (partial pivoting) is below tol. Inlined with m a constant
 * (small_inverse below): the loops unroll and a[][] stays in registers,
 * the same operations in the same order (the generic loops were 4 % of a
 * step of the 300-cube pile, a block's inverse at every solve). */
static inline __attribute__((always_inline)) int small_inverse_m(const double *A, const int m,
                                                                 double *X, double tol) {
  double a[3][6];
  for (int i = 0; i < m; i++)
    for (int j = 0; j < 2 * m; j++) a[i][j] = j < m ? A[i * m + j] : (j - m == i ? 1.0 : 0.0);
  for (int c = 0; c < m; c++) {
    int pr = c;
    for (int i = c + 1; i < m; i++)
      if (fabs(a[i][c]) > fabs(a[pr][c])) pr = i;
    if (!(fabs(a[pr][c]) > tol)) return 0;
    if (pr != c)
      for (int j = 0; j < 2 * m; j++) {
        double t = a[c][j];
        a[c][j] = a[pr][j];
        a[pr][j] = t;
      }
    double inv = 1.0 / a[c][c];
    for (int j = 0; j < 2 * m; j++) a[c][j] *= inv;
    for (int i = 0; i < m; i++) {
      if (i == c || a[i][c] == 0.0) continue;
      double f = a[i][c];
      for (int j = 0; j < 2 * m; j++) a[i][j] -= f * a[c][j];
    }
  }
  for (int i = 0; i < m; i++)
    for (int j = 0; j < m; j++) X[i * m + j] = a[i][m + j];
  return 1;
}

static int small_inverse(const double *A, int m, double *X, double tol) {
  return m == 3   ? small_inverse_m(A, 3, X, tol)
         : m == 2 ? small_inverse_m(A, 2, X, tol)
                  : small_inverse_m(A, 1, X, tol);
}

/* The pivots of A's elimination without row exchanges all above tol: A
 * (or, non-symmetric, its leading blocks) positive enough to solve a
 * block on its own. Inlined with m a constant as small_inverse. */
static inline __attribute__((always_inline)) int positive_pivots_m(const double *A, const int m,
                                                                   double tol) {
  double a[3][3];
  for (int i = 0; i < m; i++)
    for (int j = 0; j < m; j++) a[i][j] = A[i * m + j];
  for (int c = 0; c < m; c++) {
    if (!(a[c][c] > tol)) return 0;
    for (int i = c + 1; i < m; i++) {
      double f = a[i][c] / a[c][c];
      for (int j = c; j < m; j++) a[i][j] -= f * a[c][j];
    }
  }
  return 1;
}

static int positive_pivots(const double *A, int m, double tol) {
  return m == 3   ? positive_pivots_m(A, 3, tol)
         : m == 2 ? positive_pivots_m(A, 2, tol)
                  : positive_pivots_m(A, 1, tol);
}

/* Solve the k x k (k <= 3) system A y = rhs by partial pivoting; 0 when
 * singular to tol. */
static int small_solve(double A[3][3], double *rhs, int k, double *y, double tol) {
  for (int c = 0; c < k; c++) {
    int pr = c;
    for (int i = c + 1; i < k; i++)
      if (fabs(A[i][c]) > fabs(A[pr][c])) pr = i;
    if (!(fabs(A[pr][c]) > tol)) return 0;
    if (pr != c) {
      for (int j = 0; j < k; j++) {
        double t = A[c][j];
        A[c][j] = A[pr][j];
        A[pr][j] = t;
      }
      double t = rhs[c];
      rhs[c] = rhs[pr];
      rhs[pr] = t;
    }
    for (int i = c + 1; i < k; i++) {
      double f = A[i][c] / A[c][c];
      for (int j = c; j < k; j++) A[i][j] -= f * A[c][j];
      rhs[i] -= f * rhs[c];
    }
  }
  for (int i = k - 1; i >= 0; i--) {
    double s = rhs[i];
    for (int j = i + 1; j < k; j++) s -= A[i][j] * y[j];
    y[i] = s / A[i][i];
  }
  return 1;
}

/* ------------------------------------------- the sliding direction */

/* On the unit circle, d = (c, s), the sliding equation of a circle block:
 * v(d) = a + B d (B row-major 2 x 2) antiparallel to d, i.e.
 * f(d) = v x d = 0 with h(d) = v . d <= 0. f is a trigonometric polynomial
 * of degree 2 in the angle: a1 s - a2 c + (B11 - B22) c s + B12 s^2 -
 * B21 c^2. */
typedef struct {
  double a[2], B[4];
} circle_eq;

static double eq_f(const circle_eq *e, double c, double s) {
  double v0 = e->a[0] + e->B[0] * c + e->B[1] * s, v1 = e->a[1] + e->B[2] * c + e->B[3] * s;
  return v0 * s - v1 * c;
}
static double eq_h(const circle_eq *e, double c, double s) {
  double v0 = e->a[0] + e->B[0] * c + e->B[1] * s, v1 = e->a[1] + e->B[2] * c + e->B[3] * s;
  return v0 * c + v1 * s;
}
/* df/dtheta = h + (-B11 s^2 + (B12 + B21) c s - B22 c^2). */
static double eq_df(const circle_eq *e, double c, double s) {
  return eq_h(e, c, s) - e->B[0] * s * s + (e->B[1] + e->B[2]) * c * s - e->B[3] * c * c;
}
static double eq_size(const circle_eq *e) {
  return fabs(e->a[0]) + fabs(e->a[1]) + fabs(e->B[0]) + fabs(e->B[1]) + fabs(e->B[2]) +
         fabs(e->B[3]);
}

/* Newton on the angle from (c, s), stepping along the circle (d + t d',
 * renormalized: no trigonometric calls). Returns 1 when f vanished to
 * rounding. */
static int newton_on_circle(const circle_eq *e, double *c, double *s, int iters) {
  double size = eq_size(e), x = *c, y = *s;
  for (int it = 0; it < iters; it++) {
    double f = eq_f(e, x, y);
    if (fabs(f) <= 4 * DBL_EPSILON * size) {
      *c = x;
      *s = y;
      return 1;
    }
    double df = eq_df(e, x, y);
    if (!(fabs(df) > DBL_EPSILON * size)) return 0;
    double t = -f / df;
    if (t > 0.5) t = 0.5; /* at most about 30 degrees a step */
    if (t < -0.5) t = -0.5;
    double nx = x - t * y, ny = y + t * x, r = lk_lcp_hypot(nx, ny);
    x = nx / r;
    y = ny / r;
  }
  double f = eq_f(e, x, y);
  *c = x;
  *s = y;
  return fabs(f) <= 64 * DBL_EPSILON * size;
}

static double horner(const double *c, int deg, double x) {
  double v = c[deg];
  for (int k = deg - 1; k >= 0; k--) v = v * x + c[k];
  return v;
}

/* Real roots in [lo, hi] of c[0] + c[1] x + ... + c[deg] x^deg (deg <= 4),
 * by the roots of its derivative: between two consecutive critical points
 * the polynomial is monotone, so a change of sign brackets exactly one
 * root, found by bisection to rounding. A critical point where the value
 * is at rounding level is kept too (a double root: a tangent sliding
 * direction). Returns their number, in increasing order. */
static int poly_roots(const double *c, int deg, double lo, double hi, double *roots) {
  if (deg <= 0) return 0;
  double size = 0.0;
  for (int k = 0; k <= deg; k++) size += fabs(c[k]);
  if (!(size > 0.0)) return 0;
  if (deg == 1) {
    if (c[1] == 0.0) return 0;
    double x = -c[0] / c[1];
    if (x >= lo && x <= hi) {
      roots[0] = x;
      return 1;
    }
    return 0;
  }
  double dc[4], crit[4];
  for (int k = 1; k <= deg; k++) dc[k - 1] = k * c[k];
  int nc = poly_roots(dc, deg - 1, lo, hi, crit);
  double pts[6];
  int np = 0;
  pts[np++] = lo;
  for (int k = 0; k < nc; k++) pts[np++] = crit[k];
  pts[np++] = hi;
  int nr = 0;
  double tiny = 16 * DBL_EPSILON * size;
  for (int k = 0; k + 1 < np; k++) {
    double a = pts[k], b = pts[k + 1], fa = horner(c, deg, a), fb = horner(c, deg, b);
    if (k > 0 && fabs(fa) <= tiny) { /* a critical point at zero: a double root */
      if (nr == 0 || a - roots[nr - 1] > 1e-12) roots[nr++] = a;
      continue;
    }
    if (k == 0 && fa == 0.0) {
      roots[nr++] = a;
      continue;
    }
    if ((fa < 0) == (fb < 0) || fb == 0.0) continue;
    for (int it = 0; it < 200 && b - a > 4 * DBL_EPSILON * (1 + fabs(a)); it++) {
      double mid = 0.5 * (a + b), fm = horner(c, deg, mid);
      if (fm == 0.0) {
        a = b = mid;
        break;
      }
      if ((fm < 0) == (fa < 0)) {
        a = mid;
        fa = fm;
      } else {
        b = mid;
      }
    }
    double x = 0.5 * (a + b);
    if (nr == 0 || x - roots[nr - 1] > 1e-12) roots[nr++] = x;
  }
  /* the right end, when it is a root itself */
  if (fabs(horner(c, deg, hi)) == 0.0 && (nr == 0 || hi - roots[nr - 1] > 1e-12) && nr < 4)
    roots[nr++] = hi;
  return nr;
}

/* Every direction on the circle where f vanishes (at most 4, plus double
 * roots counted once): with the angle phi from (c0, s0), t = tan(phi / 2)
 * on |phi| <= pi / 2 and, for the other half, on the circle turned by pi;
 * each root polished by Newton. Returns the number written to (cs[2k],
 * cs[2k+1]), at most max: each half's quartic may report 4 roots of its
 * own when the equation is degenerate (a fuzzed problem with 8 found a
 * 4-direction buffer too small). */
static int all_directions(const circle_eq *e, double c0, double s0, double *cs, int max) {
  int n = 0;
  for (int half = 0; half < 2; half++) {
    double rc = half ? -c0 : c0, rs = half ? -s0 : s0;
    /* the equation in the frame of (rc, rs): a' = R^T a, B' = R^T B R */
    circle_eq r;
    r.a[0] = rc * e->a[0] + rs * e->a[1];
    r.a[1] = -rs * e->a[0] + rc * e->a[1];
    double B0 = e->B[0], B1 = e->B[1], B2 = e->B[2], B3 = e->B[3];
    double t00 = rc * B0 + rs * B2, t01 = rc * B1 + rs * B3; /* R^T B */
    double t10 = -rs * B0 + rc * B2, t11 = -rs * B1 + rc * B3;
    r.B[0] = t00 * rc + t01 * rs;
    r.B[1] = -t00 * rs + t01 * rc;
    r.B[2] = t10 * rc + t11 * rs;
    r.B[3] = -t10 * rs + t11 * rc;
    /* f (1 + t^2)^2 as a quartic in t (c = (1-t^2)/(1+t^2), s = 2t/(1+t^2)) */
    double a1 = r.a[0], a2 = r.a[1], D = r.B[0] - r.B[3], B12 = r.B[1], B21 = r.B[2];
    double q[5] = {-a2 - B21, 2 * a1 + 2 * D, 4 * B12 + 2 * B21, 2 * a1 - 2 * D, a2 - B21};
    double t[4];
    int nt = poly_roots(q, 4, -1.0, 1.0, t);
    for (int k = 0; k < nt && n < max; k++) {
      if (half && fabs(t[k]) == 1.0) continue; /* the seam, found by the first half */
      double den = 1 + t[k] * t[k], dc = (1 - t[k] * t[k]) / den, ds = 2 * t[k] / den;
      double c = rc * dc - rs * ds, s = rs * dc + rc * ds;
      newton_on_circle(e, &c, &s, 3);
      cs[2 * n] = c;
      cs[2 * n + 1] = s;
      n++;
    }
  }
  return n;
}

/* --------------------------------------------------- local problems */

/* Coulomb's law of one contact at (r, u = W r + b): the norm of De Saxce's
 * residual r - proj_K(r - (u + mu |u_T| e_n)). */
static double cone_error(const double *W, const double *b, double mu, const double *r) {
  double u[3];
  for (int i = 0; i < 3; i++) u[i] = W[3 * i] * r[0] + W[3 * i + 1] * r[1] + W[3 * i + 2] * r[2] + b[i];
  double x[3] = {r[0] - u[0] - mu * lk_lcp_hypot(u[1], u[2]), r[1] - u[1], r[2] - u[2]};
  double t = lk_lcp_hypot(x[1], x[2]);
  if (mu * t <= -x[0]) {
    x[0] = x[1] = x[2] = 0.0;
  } else if (t > mu * x[0]) {
    double xn = (mu * t + x[0]) / (mu * mu + 1.0);
    x[0] = xn;
    x[1] = mu * xn * x[1] / t;
    x[2] = mu * xn * x[2] / t;
  }
  return sqrt((r[0] - x[0]) * (r[0] - x[0]) + (r[1] - x[1]) * (r[1] - x[1]) +
              (r[2] - x[2]) * (r[2] - x[2]));
}

/* Orthogonal projection onto K = {|x_T| <= mu x_n}. */
static void cone_project(double *x, double mu) {
  double t = lk_lcp_hypot(x[1], x[2]);
  if (t <= mu * x[0]) return;
  if (mu * t <= -x[0]) {
    x[0] = x[1] = x[2] = 0.0;
    return;
  }
  double xn = (mu * t + x[0]) / (mu * mu + 1.0);
  x[0] = xn;
  x[1] = mu * xn * x[1] / t;
  x[2] = mu * xn * x[2] / t;
}

/* A contact on the exact cone: W (with the proximal term), its inverse,
 * b, mu; r in: the current z, out: the local answer. */
static void solve_cone(block *bk, const double *W, const double *Wi, const double *b, double mu,
                       double *r) {
  if (b[0] >= 0.0) { /* taking off */
    r[0] = r[1] = r[2] = 0.0;
    bk->state = S_OFF;
    return;
  }
  double x[3];
  for (int i = 0; i < 3; i++) x[i] = -(Wi[3 * i] * b[0] + Wi[3 * i + 1] * b[1] + Wi[3 * i + 2] * b[2]);
  double xt = lk_lcp_hypot(x[1], x[2]);
  if (x[0] > 0.0 && xt <= mu * x[0] * (1 + 1e-12)) { /* sticking */
    lk_lcp_disk_project(&x[1], &x[2], mu * x[0]);
    r[0] = x[0];
    r[1] = x[1];
    r[2] = x[2];
    bk->state = S_STICK;
    return;
  }
  if (mu == 0.0) { /* frictionless: the normal row alone */
    r[0] = W[0] > 0.0 ? lk_maxd(0.0, -b[0] / W[0]) : 0.0;
    r[1] = r[2] = 0.0;
    bk->state = r[0] > 0.0 ? S_STICK : S_OFF;
    return;
  }
  /* Sliding: w_n = 0 gives z_n = -b_n / g(d), g = W_nn + mu W_nT d; then
   * g w_T = a + B d with a = -b_n W_Tn + W_nn b_T and
   * B = mu (-b_n W_TT + b_T W_nT^T), which must point against d, g > 0. */
  circle_eq e;
  e.a[0] = -b[0] * W[3] + W[0] * b[1];
  e.a[1] = -b[0] * W[6] + W[0] * b[2];
  e.B[0] = mu * (-b[0] * W[4] + b[1] * W[1]);
  e.B[1] = mu * (-b[0] * W[5] + b[1] * W[2]);
  e.B[2] = mu * (-b[0] * W[7] + b[2] * W[1]);
  e.B[3] = mu * (-b[0] * W[8] + b[2] * W[2]);
  double gn = W[0], g1 = mu * W[1], g2 = mu * W[2];
  double c, s;
  if (bk->state == S_SLIDE) {
    c = bk->dc;
    s = bk->ds;
  } else if (xt > 0.0) {
    c = x[1] / xt;
    s = x[2] / xt;
  } else {
    double bt = lk_lcp_hypot(b[1], b[2]);
    c = bt > 0.0 ? -b[1] / bt : 1.0;
    s = bt > 0.0 ? -b[2] / bt : 0.0;
  }
  double htol = 1e-12 * eq_size(&e);
  double c1 = c, s1 = s;
  if (newton_on_circle(&e, &c1, &s1, 12)) {
    double g = gn + g1 * c1 + g2 * s1;
    if (g > 0.0 && eq_h(&e, c1, s1) <= htol) {
      double rn = -b[0] / g;
      r[0] = rn;
      r[1] = mu * rn * c1;
      r[2] = mu * rn * s1;
      bk->state = S_SLIDE;
      bk->dc = c1;
      bk->ds = s1;
      return;
    }
  }
  /* Every root, the best by Coulomb's law: a qualifying one has error at
   * rounding level; none qualifying (rounding at the edge of sticking),
   * the nearest of the candidates, the projected sticking answer among
   * them. */
  double cs[16], best = INFINITY, br[3] = {0.0, 0.0, 0.0};
  int nd = all_directions(&e, c, s, cs, 8), bslide = 0;
  double bc = c, bs = s;
  for (int k = 0; k < nd; k++) {
    double dc = cs[2 * k], ds = cs[2 * k + 1], g = gn + g1 * dc + g2 * ds;
    if (!(g > 0.0)) continue;
    double rn = -b[0] / g, cand[3] = {rn, mu * rn * dc, mu * rn * ds};
    double err = cone_error(W, b, mu, cand);
    if (eq_h(&e, dc, ds) > htol) err += 1.0 + fabs(rn); /* pointing the wrong way */
    if (err < best) {
      best = err;
      memcpy(br, cand, sizeof br);
      bslide = 1;
      bc = dc;
      bs = ds;
    }
  }
  double xp[3] = {x[0], x[1], x[2]};
  cone_project(xp, mu);
  double ep = cone_error(W, b, mu, xp);
  if (ep < best) {
    best = ep;
    memcpy(br, xp, sizeof br);
    bslide = 0;
  }
  double zero[3] = {0.0, 0.0, 0.0};
  if (cone_error(W, b, mu, zero) < best) {
    memcpy(br, zero, sizeof br);
    bslide = 0;
  }
  memcpy(r, br, sizeof br);
  bk->state = bslide ? S_SLIDE : S_STICK;
  bk->dc = bc;
  bk->ds = bs;
}

/* Natural-map residual of a circle pair at radius R: |z - proj(z - w)|. */
static double disk_error(const double *W, const double *b, double R, const double *z) {
  double w0 = W[0] * z[0] + W[1] * z[1] + b[0], w1 = W[2] * z[0] + W[3] * z[1] + b[1];
  double x0 = z[0] - w0, x1 = z[1] - w1;
  lk_lcp_disk_project(&x0, &x1, R);
  return lk_lcp_hypot(z[0] - x0, z[1] - x1);
}

/* A circle pair alone, radius R = mu |z_j| fixed: sticking inside, else
 * z = R d with w = b + R W d against d. */
static void solve_disk(block *bk, const double *W, const double *Wi, const double *b, double R,
                       double *z) {
  if (!(R > 0.0)) {
    z[0] = z[1] = 0.0;
    bk->state = S_OFF;
    return;
  }
  double x0 = -(Wi[0] * b[0] + Wi[1] * b[1]), x1 = -(Wi[2] * b[0] + Wi[3] * b[1]);
  double xt = lk_lcp_hypot(x0, x1);
  if (xt <= R * (1 + 1e-12)) {
    lk_lcp_disk_project(&x0, &x1, R);
    z[0] = x0;
    z[1] = x1;
    bk->state = S_STICK;
    return;
  }
  circle_eq e = {{b[0], b[1]}, {R * W[0], R * W[1], R * W[2], R * W[3]}};
  double c = bk->state == S_SLIDE ? bk->dc : x0 / xt, s = bk->state == S_SLIDE ? bk->ds : x1 / xt;
  double htol = 1e-12 * eq_size(&e), c1 = c, s1 = s;
  if (newton_on_circle(&e, &c1, &s1, 12) && eq_h(&e, c1, s1) <= htol) {
    z[0] = R * c1;
    z[1] = R * s1;
    bk->state = S_SLIDE;
    bk->dc = c1;
    bk->ds = s1;
    return;
  }
  double cs[16], best = INFINITY, bz[2] = {x0 * R / xt, x1 * R / xt};
  int nd = all_directions(&e, c, s, cs, 8), bslide = 0;
  best = disk_error(W, b, R, bz);
  for (int k = 0; k < nd; k++) {
    double cand[2] = {R * cs[2 * k], R * cs[2 * k + 1]};
    double err = disk_error(W, b, R, cand);
    if (eq_h(&e, cs[2 * k], cs[2 * k + 1]) > htol) err += 1.0 + R;
    if (err < best) {
      best = err;
      bz[0] = cand[0];
      bz[1] = cand[1];
      bslide = 1;
      bk->dc = cs[2 * k];
      bk->ds = cs[2 * k + 1];
    }
  }
  z[0] = bz[0];
  z[1] = bz[1];
  bk->state = bslide ? S_SLIDE : S_STICK;
}

/* A normal with k = 1 or 2 box friction rows (m = k + 1 rows): off, or
 * w_n = 0 with each friction row basic (w = 0) or at +-mu z_n, the 3^k
 * states tried from the last one; the first that meets every condition
 * (to rounding) is the answer, else the one nearest to it. */
static double box_error(const double *W, const double *b, const double *mu, int m,
                        const double *z) {
  double e = 0.0;
  for (int i = 0; i < m; i++) {
    double w = b[i];
    for (int j = 0; j < m; j++) w += W[i * m + j] * z[j];
    double lo = i ? -mu[i] * z[0] : 0.0, hi = i ? mu[i] * z[0] : INFINITY;
    double r = lk_lcp_row_residual(z[i], w, lo, hi);
    e += r * r;
  }
  return sqrt(e);
}

static void solve_box(block *bk, const double *W, const double *b, const double *mu, int m,
                      double *z) {
  if (b[0] >= 0.0) {
    for (int i = 0; i < m; i++) z[i] = 0.0;
    bk->state = 0;
    return;
  }
  int k = m - 1, ncombo = k == 1 ? 3 : 9;
  double wmax = 0.0, bmax = 0.0;
  for (int i = 0; i < m * m; i++) wmax = lk_maxd(wmax, fabs(W[i]));
  for (int i = 0; i < m; i++) bmax = lk_maxd(bmax, fabs(b[i]));
  double best = INFINITY, bz[3] = {0.0, 0.0, 0.0};
  int bcombo = bk->state % ncombo;
  for (int t = 0; t < ncombo; t++) {
    int combo = (bk->state + t) % ncombo, st[2] = {combo % 3, combo / 3};
    /* unknowns y: z_n, then the basic friction rows; z = T y */
    double T[3][3] = {{1, 0, 0}, {0, 0, 0}, {0, 0, 0}};
    int eq[3] = {0, 0, 0}, nu = 1;
    for (int f = 0; f < k; f++) {
      if (st[f] == 0) {
        T[1 + f][nu] = 1.0;
        eq[nu++] = 1 + f;
      } else {
        T[1 + f][0] = (st[f] == 1 ? 1.0 : -1.0) * mu[1 + f];
      }
    }
    double A[3][3], rhs[3], y[3];
    for (int a = 0; a < nu; a++) {
      rhs[a] = -b[eq[a]];
      for (int c = 0; c < nu; c++) {
        double sum = 0.0;
        for (int l = 0; l < m; l++) sum += W[eq[a] * m + l] * T[l][c];
        A[a][c] = sum;
      }
    }
    if (!small_solve(A, rhs, nu, y, 1e-14 * wmax)) continue;
    double cand[3];
    for (int l = 0; l < m; l++) {
      double sum = 0.0;
      for (int c = 0; c < nu; c++) sum += T[l][c] * y[c];
      cand[l] = sum;
    }
    if (cand[0] < 0.0) cand[0] = 0.0;
    for (int f = 1; f < m; f++) {
      double lim = mu[f] * cand[0];
      if (cand[f] > lim) cand[f] = lim;
      if (cand[f] < -lim) cand[f] = -lim;
    }
    double err = box_error(W, b, mu, m, cand);
    if (err < best) {
      best = err;
      memcpy(bz, cand, sizeof bz);
      bcombo = combo;
    }
    if (err <= 1e-13 * (bmax + wmax * fabs(cand[0]))) break;
  }
  memcpy(z, bz, (size_t)m * sizeof *z);
  bk->state = (unsigned char)bcombo;
}

/* ------------------------------------------------------------ blocks */

static void add_block(nsgs *S, int kind, int m, int r0, int r1, int r2) {
  block *b = &S->B[S->nb++];
  b->kind = (unsigned char)kind;
  b->m = (unsigned char)m;
  b->r[0] = r0;
  b->r[1] = r1;
  b->r[2] = r2;
  b->reg = 0;
  b->shared = 0;
  b->state = 0;
  b->eps = 0.0;
  b->dc = 1.0;
  b->ds = 0.0;
}

/* Blocks in row order of their first row (a normal's friction rows right
 * after it); fhead/fnext: each normal's friction rows, ascending. */
static void build_blocks(nsgs *S, int *fhead, int *fnext) {
  const lk_lcp *p = S->p;
  int n = p->n;
  for (int i = 0; i < n; i++) fhead[i] = fnext[i] = -1;
  for (int i = n - 1; i >= 0; i--) {
    int j = lk_lcp_fidx(p, i);
    if (j < 0) continue;
    fnext[i] = fhead[j];
    fhead[j] = i;
  }
  S->nb = 0;
  for (int i = 0; i < n; i++) {
    if (lk_lcp_fidx(p, i) >= 0) continue;
    if (fhead[i] < 0) {
      add_block(S, B_ROW, 1, i, -1, -1);
      continue;
    }
    int standard = lk_lcp_lo(p, i) == 0.0 && lk_lcp_hi(p, i) == INFINITY;
    int pa = -1, b1 = -1, b2 = -1;
    for (int f = fhead[i]; f >= 0; f = fnext[f]) {
      if (lk_lcp_pair(p, f) >= 0) {
        if (pa < 0) pa = f;
      } else if (b1 < 0) {
        b1 = f;
      } else if (b2 < 0) {
        b2 = f;
      }
    }
    if (!standard) {
      add_block(S, B_ROW, 1, i, -1, -1);
      pa = b1 = b2 = -1;
    } else if (pa >= 0) {
      add_block(S, B_CONE, 3, i, pa, lk_lcp_pair(p, pa));
      b1 = b2 = -1;
    } else {
      add_block(S, B_BOX, b2 >= 0 ? 3 : 2, i, b1, b2);
    }
    for (int f = fhead[i]; f >= 0; f = fnext[f]) {
      int g = lk_lcp_pair(p, f);
      if (f == pa || g == pa || f == b1 || f == b2) continue;
      if (g >= 0) {
        if (f < g) add_block(S, B_DISK, 2, f, g, i);
      } else {
        add_block(S, B_FROW, 1, f, i, -1);
      }
    }
  }
}

/* A product's block W from one pass over its rows' shared columns, when
 * G and H share one pattern and the block's rows have the same columns
 * (a contact's rows: its bodies' DoFs): each W_ab = G_a . H_b summed in
 * column order from 0, then d_a on the diagonal, as prod_entry sums it
 * (bit for bit), for the block's m^2 entries at the cost of one merge-free
 * read of its rows. Returns 0 (W untouched) when the rows differ. */
static int prod_block(const lk_lcp *p, const block *b, double *W) {
  const lk_lcp_csr *g = &p->prod.g, *h = &p->prod.h;
  if (g->row != h->row || g->col != h->col) return 0;
  int m = b->m, r0 = b->r[0], a0 = g->row[r0], len = g->row[r0 + 1] - a0;
  int at[3] = {a0, 0, 0};
  for (int i = 1; i < m; i++) {
    int ai = g->row[b->r[i]];
    if (g->row[b->r[i] + 1] - ai != len ||
        memcmp(g->col + a0, g->col + ai, sizeof(int) * (size_t)len) != 0)
      return 0;
    at[i] = ai;
  }
  double acc[9] = {0.0};
  if (m == 3) { /* a contact: the nine sums in registers */
    const double *g0 = g->val + at[0], *g1 = g->val + at[1], *g2 = g->val + at[2];
    const double *h0 = h->val + at[0], *h1 = h->val + at[1], *h2 = h->val + at[2];
    double a00 = 0.0, a01 = 0.0, a02 = 0.0, a10 = 0.0, a11 = 0.0, a12 = 0.0, a20 = 0.0,
           a21 = 0.0, a22 = 0.0;
    for (int k = 0; k < len; k++) {
      double x0 = g0[k], x1 = g1[k], x2 = g2[k], y0 = h0[k], y1 = h1[k], y2 = h2[k];
      a00 += x0 * y0;
      a01 += x0 * y1;
      a02 += x0 * y2;
      a10 += x1 * y0;
      a11 += x1 * y1;
      a12 += x1 * y2;
      a20 += x2 * y0;
      a21 += x2 * y1;
      a22 += x2 * y2;
    }
    double t[9] = {a00, a01, a02, a10, a11, a12, a20, a21, a22};
    memcpy(acc, t, sizeof t);
  } else {
    for (int k = 0; k < len; k++) {
      for (int i = 0; i < m; i++) {
        double gv = g->val[at[i] + k];
        for (int j = 0; j < m; j++) acc[i * m + j] += gv * h->val[at[j] + k];
      }
    }
  }
  for (int i = 0; i < m; i++) {
    if (p->prod.d) acc[i * m + i] += p->prod.d[b->r[i]];
    for (int j = 0; j < m; j++) W[i * m + j] = acc[i * m + j];
  }
  return 1;
}

/* Each block's W from M, positive or regularized, and its inverse. Every
 * row is in exactly one block, so the largest |M_ii| (the scale of the
 * regularization) is read off the blocks' diagonals. */
static void block_matrices(nsgs *S) {
  const lk_lcp *p = S->p;
  double dmax = 0.0;
  int off = 0, prod = lk_lcp_prodf(p);
  for (int k = 0; k < S->nb; k++) {
    block *b = &S->B[k];
    int m = b->m;
    double *W = S->pool + off;
    b->w = off;
    off += 2 * m * m;
    b->shared = prod && prod_block(p, b, W);
    if (!b->shared)
      for (int i = 0; i < m; i++)
        for (int j = 0; j < m; j++) W[i * m + j] = lk_lcp_entry(p, b->r[i], b->r[j]);
    for (int i = 0; i < m; i++) dmax = lk_maxd(dmax, fabs(W[i * m + i]));
  }
  S->dscale = dmax > 0.0 ? dmax : 1.0;
  S->regularized = 0;
  for (int k = 0; k < S->nb; k++) {
    block *b = &S->B[k];
    int m = b->m;
    double *W = S->pool + b->w, *Wi = W + m * m;
    double tol = 1e-12 * S->dscale;
    if (!positive_pivots(W, m, tol)) {
      /* singular or not positive on its own: the smallest proximal term
       * (from 1e-9 of the largest diagonal, by factors of 4) that makes it
       * so */
      double eps = 1e-9 * S->dscale, W0[9];
      memcpy(W0, W, (size_t)(m * m) * sizeof *W);
      for (int t = 0; t < 40; t++) {
        memcpy(W, W0, (size_t)(m * m) * sizeof *W);
        for (int i = 0; i < m; i++) W[i * m + i] += eps;
        if (positive_pivots(W, m, tol)) break;
        eps *= 4;
      }
      b->eps = eps;
      b->reg = 1;
      S->regularized++;
    }
    if (!small_inverse(W, m, Wi, 1e-300)) {
      for (int i = 0; i < m * m; i++) Wi[i] = 0.0;
    }
  }
}

/* -------------------------------------------------------------- sweep */

static inline double row_times(const nsgs *S, int i, const double *z) {
  const lk_lcp *p = S->p;
  if (S->u) return lk_lcp_prod_row(p, i, z, S->u, NULL, NULL);
  if (lk_lcp_sparse(p)) {
    const int *col = p->csr.col;
    const double *val = p->csr.val;
    double s0 = 0.0, s1 = 0.0;
    int k = p->csr.row[i], e = p->csr.row[i + 1];
    for (; k + 2 <= e; k += 2) {
      s0 += val[k] * z[col[k]];
      s1 += val[k + 1] * z[col[k + 1]];
    }
    if (k < e) s0 += val[k] * z[col[k]];
    return s0 + s1;
  }
  return lk_lcp_dot(p->M + (size_t)i * (size_t)lk_lcp_ldm(p), z, p->n);
}

/* A product block's rows of one pattern (bk->shared): (M z)_i of each in
 * one pass over their columns, each sum as lk_lcp_prod_row forms it (its
 * two accumulators, then d_i z_i), so bit for bit the same. */
static void shared_rows_times(const nsgs *S, const block *bk, const double *z, double *mz) {
  const lk_lcp *p = S->p;
  const lk_lcp_csr *g = &p->prod.g;
  const double *u = S->u;
  int m = bk->m, e0 = g->row[bk->r[0]], len = g->row[bk->r[0] + 1] - e0;
  const int *col = g->col + e0;
  const double *v[3];
  for (int i = 0; i < m; i++) v[i] = g->val + g->row[bk->r[i]];
  double s0[3] = {0.0, 0.0, 0.0}, s1[3] = {0.0, 0.0, 0.0};
  int k = 0;
  for (; k + 2 <= len; k += 2) {
    double u0 = u[col[k]], u1 = u[col[k + 1]];
    for (int i = 0; i < m; i++) {
      s0[i] += v[i][k] * u0;
      s1[i] += v[i][k + 1] * u1;
    }
  }
  if (k < len) {
    double u0 = u[col[k]];
    for (int i = 0; i < m; i++) s0[i] += v[i][k] * u0;
  }
  for (int i = 0; i < m; i++) {
    mz[i] = s0[i] + s1[i];
    if (p->prod.d) mz[i] += p->prod.d[bk->r[i]] * z[bk->r[i]];
  }
}

/* u += H_i^T dz_i over a shared block's rows in one pass: each entry of u
 * gets the rows' terms in row order, as one lk_lcp_prod_add a row would
 * give it (rows with dz_i = 0 add nothing). */
static void shared_rows_add(const nsgs *S, const block *bk, const double *dz) {
  const lk_lcp *p = S->p;
  const lk_lcp_csr *h = &p->prod.h;
  double *u = S->u;
  int m = bk->m, e0 = h->row[bk->r[0]], len = h->row[bk->r[0] + 1] - e0;
  const int *col = h->col + e0;
  const double *v[3];
  double d[3];
  int na = 0;
  for (int i = 0; i < m; i++)
    if (dz[i] != 0.0) {
      v[na] = h->val + h->row[bk->r[i]];
      d[na++] = dz[i];
    }
  if (na == 0) return;
  for (int k = 0; k < len; k++) {
    double x = u[col[k]];
    for (int i = 0; i < na; i++) x += v[i][k] * d[i];
    u[col[k]] = x;
  }
}

/* One block: local b, the exact local answer, relaxation, feasibility.
 * Adds |dz|^2 and |z|^2 to the sums. */
static void solve_block(nsgs *S, block *bk, double *z, double omega, double *dz2, double *z2) {
  const lk_lcp *p = S->p;
  int m = bk->m;
  const double *W = S->pool + bk->w, *Wi = W + m * m;
  double old[3], b[3], loc[3];
  for (int i = 0; i < m; i++) old[i] = z[bk->r[i]];
  double mz[3];
  if (bk->shared && m > 1) {
    shared_rows_times(S, bk, z, mz);
  } else {
    for (int i = 0; i < m; i++) mz[i] = row_times(S, bk->r[i], z);
  }
  for (int i = 0; i < m; i++) {
    int r = bk->r[i];
    double s = p->q[r] + mz[i];
    /* less the block's own part (W holds eps on its diagonal: the
     * proximal term's -eps z_old cancels it) */
    for (int j = 0; j < m; j++) s -= W[i * m + j] * old[j];
    b[i] = s;
  }
  switch (bk->kind) {
    case B_ROW:
    case B_FROW: {
      double lo, hi;
      if (bk->kind == B_FROW) {
        hi = p->mu[bk->r[0]] * fabs(z[bk->r[1]]);
        lo = -hi;
      } else {
        lo = lk_lcp_lo(p, bk->r[0]);
        hi = lk_lcp_hi(p, bk->r[0]);
      }
      double x = -b[0] * Wi[0];
      loc[0] = x < lo ? lo : (x > hi ? hi : x);
      break;
    }
    case B_BOX: {
      double mu[3] = {0.0, p->mu[bk->r[1]], m > 2 ? p->mu[bk->r[2]] : 0.0};
      solve_box(bk, W, b, mu, m, loc);
      break;
    }
    case B_CONE:
      solve_cone(bk, W, Wi, b, p->mu[bk->r[1]], loc);
      break;
    default: /* B_DISK */
      solve_disk(bk, W, Wi, b, p->mu[bk->r[0]] * fabs(z[bk->r[2]]), loc);
      break;
  }
  if (omega != 1.0) {
    for (int i = 0; i < m; i++) loc[i] = omega * loc[i] + (1.0 - omega) * old[i];
    switch (bk->kind) { /* back into the feasible set */
      case B_ROW:
        loc[0] = fmin(fmax(loc[0], lk_lcp_lo(p, bk->r[0])), lk_lcp_hi(p, bk->r[0]));
        break;
      case B_FROW: {
        double hi = p->mu[bk->r[0]] * fabs(z[bk->r[1]]);
        loc[0] = fmin(fmax(loc[0], -hi), hi);
        break;
      }
      case B_BOX:
        loc[0] = fmax(loc[0], 0.0);
        for (int i = 1; i < m; i++) {
          double hi = p->mu[bk->r[i]] * loc[0];
          loc[i] = fmin(fmax(loc[i], -hi), hi);
        }
        break;
      case B_CONE:
        cone_project(loc, p->mu[bk->r[1]]);
        break;
      default:
        lk_lcp_disk_project(&loc[0], &loc[1], p->mu[bk->r[0]] * fabs(z[bk->r[2]]));
        break;
    }
  }
  double dz[3];
  for (int i = 0; i < m; i++) {
    double d = loc[i] - old[i];
    *dz2 += d * d;
    *z2 += loc[i] * loc[i];
    z[bk->r[i]] = loc[i];
    dz[i] = d;
  }
  if (!S->u) return;
  if (bk->shared && m > 1) {
    shared_rows_add(S, bk, dz);
  } else {
    for (int i = 0; i < m; i++)
      if (dz[i] != 0.0) lk_lcp_prod_add(p, bk->r[i], dz[i], S->u);
  }
}

/* ------------------------------------------------------- direct finish */

/* Gauss-Seidel through a long articulated tree converges slowly: the
 * draped chain's islands (issue 20, tests/sim/test_scale) reach their
 * contact states within tens of sweeps, but 1e-9 only after thousands
 * (the Delassus matrix of 22 contacts on a 66-DoF chain is nearly
 * singular). Once the states show, the answer is a linear system: each
 * row's state read off the iterate as Alart and Curnier's projection
 * reads it (x = z - rho w, rho = 1 / M_ii):
 *
 *   a row of constant bounds: x below lo or above hi, z at that bound;
 *     else w = 0;
 *   a contact on its circle cone: x_n <= 0, off (z = 0); |x_T| <= mu x_n,
 *     sticking (w = 0); else sliding, w_n = 0 and z_T = mu z_n d with
 *     d = x_T / |x_T| (the sliding velocity against d);
 *
 * solved on the rows whose w is to vanish (direct_solve: a ridged LU,
 * refined from the iterate), and the step to that solution taken whole or
 * by halves while it lowers the measure. After a whole step the states are
 * read again from the new point; otherwise the state the solution
 * contradicts most changes, one at a time (direct_pivot: contacts at the
 * edge of taking off, z_n and w_n both near zero, are not read right by
 * the projection), at most DIRECT_ROUNDS solves. A sliding contact's
 * direction converges as a fixed point.
 * Nothing is taken on trust: the result, put into its bounds and cones,
 * must meet the same full measure as the sweeps (fc3d error and relative
 * residual <= tol), else the sweeps go on from their own iterate. Only
 * problems of rows of constant bounds and circle-cone contacts are so
 * finished (others: the sweeps alone), of at most LK_NSGS_DIRECT_MAX rows
 * (a dense system), of two blocks or more. */
enum { DIRECT_ROUNDS = 8, DIRECT_REFINE = 40 };
#define DIRECT_RIDGE 1e-8
enum { C_EQ = 0, C_FIX, C_LINK };

/* A product's H by columns (ws->nsgs_tp/tr/tv: for column c, the rows j
 * and values H_jc), for the rows of M the direct finish needs; 0 when its
 * entries exceed the workspace's room. */
static int prod_transpose(const lk_lcp *p, lk_lcp_workspace *ws) {
  const lk_lcp_csr *h = &p->prod.h;
  int n = p->n, m = p->prod.m, *tp = ws->nsgs_tp, *tr = ws->nsgs_tr;
  if ((size_t)h->row[n] > (size_t)LK_NSGS_PROD_ROW * (size_t)ws->nsgs_dm) return 0;
  for (int c = 0; c <= m; c++) tp[c] = 0;
  for (int e = 0; e < h->row[n]; e++) tp[h->col[e] + 1]++;
  for (int c = 0; c < m; c++) tp[c + 1] += tp[c];
  for (int j = 0; j < n; j++) /* rows ascending within a column; tp[c] moves to its end */
    for (int e = h->row[j]; e < h->row[j + 1]; e++) {
      int at = tp[h->col[e]]++;
      tr[at] = j;
      ws->nsgs_tv[at] = h->val[e];
    }
  for (int c = m; c > 0; c--) tp[c] = tp[c - 1];
  tp[0] = 0;
  for (int j = 0; j < n; j++) ws->nsgs_rm[j] = -1;
  return 1;
}

/* Row i of a product's M, M_ij = G_i . H_j (+ d_i), over the rows j that
 * share a column with it (H transposed): values in ws->nsgs_ra[j], the j
 * in the list (first-reached order) whose length it returns. */
static int prod_row_entries(const lk_lcp *p, lk_lcp_workspace *ws, int i) {
  const lk_lcp_csr *g = &p->prod.g;
  const int *tp = ws->nsgs_tp, *tr = ws->nsgs_tr;
  double *acc = ws->nsgs_ra;
  int *mark = ws->nsgs_rm, *list = mark + ws->nsgs_dm, cnt = 0;
  for (int e = g->row[i]; e < g->row[i + 1]; e++) {
    int c = g->col[e];
    double gv = g->val[e];
    for (int f = tp[c]; f < tp[c + 1]; f++) {
      int j = tr[f];
      if (mark[j] < 0) {
        mark[j] = cnt;
        list[cnt++] = j;
        acc[j] = 0.0;
      }
      acc[j] += gv * ws->nsgs_tv[f];
    }
  }
  if (p->prod.d) {
    if (mark[i] < 0) {
      mark[i] = cnt;
      list[cnt++] = i;
      acc[i] = 0.0;
    }
    acc[i] += p->prod.d[i];
  }
  for (int l = 0; l < cnt; l++) mark[list[l]] = -1;
  return cnt;
}

/* Row i of M as (column, value) pairs, for any storage (a product's
 * formed by prod_row_entries). */
#define FOR_ROW(p, ws, i, j, v, body)                                          \
  do {                                                                         \
    if (lk_lcp_prodf(p)) {                                                     \
      int cnt_ = prod_row_entries(p, ws, i);                                   \
      for (int l_ = 0; l_ < cnt_; l_++) {                                      \
        int j = (ws)->nsgs_rm[(ws)->nsgs_dm + l_];                             \
        double v = (ws)->nsgs_ra[j];                                           \
        if (v == 0.0) continue;                                                \
        body                                                                   \
      }                                                                        \
    } else if (lk_lcp_sparse(p)) {                                             \
      for (int e_ = (p)->csr.row[i]; e_ < (p)->csr.row[(i) + 1]; e_++) {       \
        int j = (p)->csr.col[e_];                                              \
        double v = (p)->csr.val[e_];                                           \
        body                                                                   \
      }                                                                        \
    } else {                                                                   \
      const double *r_ = (p)->M + (size_t)(i) * (size_t)lk_lcp_ldm(p);         \
      for (int j = 0; j < (p)->n; j++) {                                       \
        double v = r_[j];                                                      \
        if (v == 0.0) continue;                                                \
        body                                                                   \
      }                                                                        \
    }                                                                          \
  } while (0)

/* Whether the problem is of the kinds the direct finish takes. */
static int direct_possible(const nsgs *S, const lk_lcp_workspace *ws) {
  /* one block is solved exactly by its own sweep */
  if (S->p->n > ws->nsgs_dm || S->nb < 2) return 0;
  for (int k = 0; k < S->nb; k++)
    if (S->B[k].kind != B_ROW && S->B[k].kind != B_CONE) return 0;
  return 1;
}

/* The states read off (z, w) into cls/c/lnk; returns how many changed
 * (a direction that turned by more than 1e-12 counts); *classes: how many
 * rows changed class (C_EQ, C_FIX, C_LINK) or fixed value. */
static int direct_states(const nsgs *S, const double *z, const double *w, int *cls, double *c,
                         int *lnk, int *classes) {
  const lk_lcp *p = S->p;
  int changed = 0, turned = 0;
  for (int k = 0; k < S->nb; k++) {
    const block *b = &S->B[k];
    int r = b->r[0];
    double d = lk_lcp_entry(p, r, r), rho = d > 0.0 ? 1.0 / d : 1.0 / S->dscale;
    if (b->kind == B_ROW) {
      double lo = lk_lcp_lo(p, r), hi = lk_lcp_hi(p, r), x = z[r] - rho * w[r];
      int nc = C_EQ;
      double v = 0.0;
      if (x <= lo && isfinite(lo)) {
        nc = C_FIX;
        v = lo;
      } else if (x >= hi && isfinite(hi)) {
        nc = C_FIX;
        v = hi;
      }
      changed += nc != cls[r] || (nc == C_FIX && v != c[r]);
      cls[r] = nc;
      c[r] = v;
      continue;
    }
    int r1 = b->r[1], r2 = b->r[2];
    double mu = p->mu[r1];
    double xn = z[r] - rho * w[r], x1 = z[r1] - rho * w[r1], x2 = z[r2] - rho * w[r2];
    double t = lk_lcp_hypot(x1, x2);
    int cn, ct;
    double c1 = 0.0, c2 = 0.0;
    if (xn <= 0.0) {
      cn = ct = C_FIX;
    } else if (t <= mu * xn) {
      cn = ct = C_EQ;
    } else {
      cn = C_EQ;
      ct = C_LINK;
      c1 = mu * x1 / t;
      c2 = mu * x2 / t;
    }
    changed += cn != cls[r] || ct != cls[r1];
    if (ct == C_LINK && cls[r1] == C_LINK)
      turned += fabs(c1 - c[r1]) + fabs(c2 - c[r2]) > 1e-12 * (mu > 0 ? mu : 1);
    cls[r] = cn;
    c[r] = 0.0;
    cls[r1] = cls[r2] = ct;
    c[r1] = c1;
    c[r2] = c2;
    lnk[r1] = lnk[r2] = r;
  }
  *classes = changed;
  return changed + turned;
}

/* z from the unknowns x of the rows in the system (pos >= 0). */
static void direct_z(const lk_lcp *p, const int *cls, const double *c, const int *lnk,
                     const int *pos, const double *x, double *z) {
  for (int i = 0; i < p->n; i++)
    if (cls[i] == C_EQ) z[i] = x[pos[i]];
    else if (cls[i] == C_FIX) z[i] = c[i];
  for (int i = 0; i < p->n; i++)
    if (cls[i] == C_LINK) z[i] = c[i] * z[lnk[i]];
}

/* One linear solve for the states in cls from z0: z (and w = M z + q)
 * out; 0 when the system could not be factored. The rows of redundant
 * contacts (two capsules' ends at a joint of the chain, on one plane) are
 * nearly dependent and leave the split between them free: the system is
 * factored with a ridge (1e-8 of its largest entry) and its answer
 * refined from z0 (a proximal point iteration), so that a free split stays
 * where the sweeps had it and every determined part converges. */
static int direct_solve(const nsgs *S, lk_lcp_workspace *ws, const int *cls, const double *c,
                        const int *lnk, const double *z0, double *z, double *w, int reuse) {
  const lk_lcp *p = S->p;
  int n = p->n, dm = ws->nsgs_dm, k = 0;
  double *A = ws->nsgs_dd, *x = A + (size_t)dm * dm, *rhs = x + dm;
  int *pos = ws->nsgs_di + 2 * dm, *piv = pos + dm;
  for (int i = 0; i < n; i++) pos[i] = cls[i] == C_EQ ? k++ : -1;
  for (int i = 0; i < n; i++)
    if (pos[i] >= 0) x[pos[i]] = z0[i];
  if (k > 0 && !reuse) {
    memset(A, 0, sizeof *A * (size_t)k * (size_t)k);
    for (int i = 0; i < n; i++) {
      if (pos[i] < 0) continue;
      double *ai = A + (size_t)pos[i] * k;
      FOR_ROW(p, ws, i, j, v, {
        if (cls[j] == C_EQ)
          ai[pos[j]] += v;
        else if (cls[j] == C_LINK && pos[lnk[j]] >= 0)
          ai[pos[lnk[j]]] += v * c[j];
      });
    }
    double amax = 0.0;
    for (size_t e = 0; e < (size_t)k * k; e++) amax = lk_maxd(amax, fabs(A[e]));
    if (!(amax > 0.0) || !isfinite(amax)) return 0;
    for (int i = 0; i < k; i++) A[(size_t)i * k + i] += DIRECT_RIDGE * amax;
    if (!lk_lcp_lu_factor(A, k, piv, 1e-14 * amax)) return 0;
  }
  double last = INFINITY;
  for (int it = 0;; it++) {
    direct_z(p, cls, c, lnk, pos, x, z);
    double r2 = 0.0;
    lk_lcp_times(p, z, w, ws->nsgs_u);
    for (int i = 0; i < n; i++) {
      if (pos[i] >= 0) {
        rhs[pos[i]] = -w[i];
        r2 += w[i] * w[i];
      }
    }
    /* until the rows' w stop shrinking (rounding), or the rounds run out */
    if (k == 0 || it == DIRECT_REFINE || !(r2 < 0.25 * last) || r2 == 0.0) break;
    last = r2;
    lk_lcp_lu_apply(A, k, piv, rhs);
    for (int i = 0; i < k; i++) x[i] += rhs[i];
  }
  return lk_all_finite(z, (size_t)n);
}

/* After a solve whose result (zt, wt) lowered nothing: the one state that
 * result contradicts most changes (a principal pivot: a normal gone
 * negative takes off, a contact off whose gap closes touches, a sticking
 * force beyond its cone slides along it, a slip against its force sticks),
 * violations compared in w's units (z's times M_ii); with none, the
 * sliding directions move to where the result points. Returns 0 when
 * nothing changed. */
static int direct_pivot(const nsgs *S, const double *zt, const double *wt, int *cls, double *c,
                        int *lnk) {
  const lk_lcp *p = S->p;
  double worst = 0.0;
  int wk = -1, wto = 0;
  for (int k = 0; k < S->nb; k++) {
    const block *b = &S->B[k];
    int r = b->r[0];
    double d = lk_lcp_entry(p, r, r);
    if (!(d > 0.0)) d = S->dscale;
    double v = 0.0;
    int to = 0;
    if (b->kind == B_ROW) {
      double lo = lk_lcp_lo(p, r), hi = lk_lcp_hi(p, r);
      if (cls[r] == C_EQ && zt[r] < lo) v = (lo - zt[r]) * d, to = 1;
      else if (cls[r] == C_EQ && zt[r] > hi) v = (zt[r] - hi) * d, to = 2;
      else if (cls[r] == C_FIX && c[r] == lo && wt[r] < 0.0) v = -wt[r], to = 0;
      else if (cls[r] == C_FIX && c[r] == hi && wt[r] > 0.0) v = wt[r], to = 0;
    } else {
      int r1 = b->r[1], r2 = b->r[2];
      double mu = p->mu[r1], t = lk_lcp_hypot(zt[r1], zt[r2]);
      if (cls[r] == C_FIX) {
        if (wt[r] < 0.0) v = -wt[r], to = 0; /* touches: sticking */
      } else if (zt[r] < 0.0) {
        v = -zt[r] * d, to = 1; /* takes off */
      } else if (cls[r1] == C_EQ) {
        if (t > mu * zt[r]) v = (t - mu * zt[r]) * d, to = 2; /* slides */
      } else if (mu > 0.0) {
        double s = (wt[r1] * c[r1] + wt[r2] * c[r2]) / mu;
        if (s > 0.0) v = s, to = 0; /* slips with its force: sticks */
      }
    }
    if (v > worst) {
      worst = v;
      wk = k;
      wto = to;
    }
  }
  if (wk >= 0) {
    const block *b = &S->B[wk];
    int r = b->r[0];
    if (b->kind == B_ROW) {
      cls[r] = wto == 0 ? C_EQ : C_FIX;
      c[r] = wto == 1 ? lk_lcp_lo(p, r) : wto == 2 ? lk_lcp_hi(p, r) : 0.0;
      return 1;
    }
    int r1 = b->r[1], r2 = b->r[2];
    double mu = p->mu[r1], t = lk_lcp_hypot(zt[r1], zt[r2]);
    if (wto == 0) {
      cls[r] = cls[r1] = cls[r2] = C_EQ;
    } else if (wto == 1) {
      cls[r] = cls[r1] = cls[r2] = C_FIX;
      c[r] = c[r1] = c[r2] = 0.0;
    } else {
      cls[r] = C_EQ;
      cls[r1] = cls[r2] = C_LINK;
      c[r1] = t > 0.0 ? mu * zt[r1] / t : mu;
      c[r2] = t > 0.0 ? mu * zt[r2] / t : 0.0;
      lnk[r1] = lnk[r2] = r;
    }
    return 1;
  }
  int moved = 0;
  for (int k = 0; k < S->nb; k++) {
    const block *b = &S->B[k];
    if (b->kind != B_CONE || cls[b->r[1]] != C_LINK) continue;
    int r = b->r[0], r1 = b->r[1], r2 = b->r[2];
    double d = lk_lcp_entry(p, r, r), rho = d > 0.0 ? 1.0 / d : 1.0 / S->dscale;
    double mu = p->mu[r1], x1 = zt[r1] - rho * wt[r1], x2 = zt[r2] - rho * wt[r2];
    double t = lk_lcp_hypot(x1, x2);
    if (!(t > 0.0)) continue;
    double c1 = mu * x1 / t, c2 = mu * x2 / t;
    moved += fabs(c1 - c[r1]) + fabs(c2 - c[r2]) > 1e-12 * mu;
    c[r1] = c1;
    c[r2] = c2;
  }
  return moved > 0;
}

/* The direct finish from the iterate (z, w), whose measure (the larger of
 * fc3d error and relative residual) is m0: each round solves for the
 * states and steps towards that solution, the whole way when that lowers
 * the measure (the states are then read again), else by halves and one
 * state changes (direct_pivot); a round that changes nothing ends it.
 * Returns 1 with a
 * verified answer in z, w (*res, *scale, *err its measures); else 0, with
 * z, w as they were (the sweeps go on from their own iterate). */
static int direct_finish(const nsgs *S, lk_lcp_workspace *ws, double tol, double m0, double *z,
                         double *w, double *res, double *scale, double *err) {
  const lk_lcp *p = S->p;
  int n = p->n, dm = ws->nsgs_dm;
  double *c = ws->nsgs_dd + (size_t)dm * dm + 2 * (size_t)dm, *zt = c + dm, *zc = zt + dm,
         *wc = zc + dm, *wt = wc + dm;
  int *cls = ws->nsgs_di, *lnk = cls + dm;
  double *z0 = wt + dm, *w0 = z0 + dm;
  double res0 = *res, scale0 = *scale, err0 = *err;
  memcpy(z0, z, sizeof *z * (size_t)n);
  memcpy(w0, w, sizeof *w * (size_t)n);
  for (int i = 0; i < n; i++) {
    cls[i] = -1;
    c[i] = 0.0;
    lnk[i] = i;
  }
  double cur = m0;
  int classes, reuse = 0;
  direct_states(S, z, w, cls, c, lnk, &classes);
  for (int round = 0; round < DIRECT_ROUNDS; round++) {
    if (!direct_solve(S, ws, cls, c, lnk, z, zt, wt, reuse)) break;
    reuse = 0;
    int took = 0, full = 0;
    for (double t = 1.0; t > 1e-3; t *= 0.5) {
      for (int i = 0; i < n; i++) zc[i] = t == 1.0 ? zt[i] : z[i] + t * (zt[i] - z[i]);
      lk_lcp_project(p, zc);
      double sc, r = lk_lcp_residual_scaled(p, zc, NULL, wc, &sc, ws->nsgs_u);
      double e = lk_lcp_fc3d_error_w(p, zc, wc, ws->nsgs_i);
      double m = lk_maxd(e, r / sc);
      if (!(m < cur)) continue;
      memcpy(z, zc, sizeof *z * (size_t)n);
      memcpy(w, wc, sizeof *w * (size_t)n);
      cur = m;
      *res = r;
      *scale = sc;
      *err = e;
      took = 1;
      full = t == 1.0;
      break;
    }
    if (took && *err <= tol && *res / *scale <= tol) return 1;
    if (full) {
      /* only sliding directions turned: the last factor, refined against
       * M itself (direct_solve's rounds), reaches the new system's answer */
      direct_states(S, z, w, cls, c, lnk, &classes);
      reuse = classes == 0;
    } else if (!direct_pivot(S, zt, wt, cls, c, lnk))
      break;
  }
  /* as they were, and so are their measures */
  memcpy(z, z0, sizeof *z * (size_t)n);
  memcpy(w, w0, sizeof *w * (size_t)n);
  *res = res0;
  *scale = scale0;
  *err = err0;
  return 0;
}

static lk_status nsgs_solve(const lk_lcp *p, const lk_lcp_options *o, lk_lcp_workspace *ws,
                            double *z, double *w, lk_lcp_report *rep, lk_lcp_verified *v) {
  int n = p->n;
  nsgs S;
  S.p = p;
  S.B = ws->nsgs_blk;
  S.pool = ws->nsgs_d;
  /* A product keeps u = H^T z (the residual's first scratch: a check at z
   * leaves it so), formed again whenever z moved outside the blocks'
   * updates (a start, Anderson's step, the direct finish). */
  S.u = lk_lcp_prodf(p) ? ws->nsgs_u : NULL;
  build_blocks(&S, ws->nsgs_i, ws->nsgs_i + n);
  block_matrices(&S);
  rep->regularized = S.regularized;
  rep->warm = o->z_guess ? LK_LCP_WARM_REPAIRED : LK_LCP_COLD;
  /* A start outside the feasible set (a caller's z) is projected first;
   * a guess the check refused was, and left u at it (unless this moves
   * it again). */
  int stale = lk_lcp_project(p, z) > 0 || !ws->nsgs_u_at_z;
  ws->nsgs_u_at_z = 0;

  int max_sweeps = o->max_sweeps > 0 ? o->max_sweeps : 10000;
  double tol = o->tol, light_tol = tol, res = INFINITY, scale = 1.0, err = INFINITY;
  int sweep = 0, done = 0, checked = 0;
  lk_status s = LK_NOT_CONVERGED;
  rep->detail = "sweep limit reached above the tolerance";
  /* Anderson acceleration of the sweeps, restarted whenever the change a
   * sweep makes grows (its extrapolation is then no longer to be trusted:
   * contacts changing state). */
  lk_anderson A;
  int aam = o->anderson;
  lk_anderson_init(&A, n, aam, S.pool + 6 * (size_t)n);
  double prev_f = INFINITY, omega = o->omega > 0 ? o->omega : 0.7;
  /* Stagnation: when the full measure has not improved by 1 % over
   * STALL_SWEEPS sweeps, the automatic relaxation moves on to the next
   * factor of kOmegas (and Anderson's history restarts): a fixed point
   * of every relaxed sweep is the answer, but a slow mode of one factor
   * (Capsules-i101-404 at 0.6: two contacts trading load by 2e-8 a sweep,
   * the error stuck at 3.4e-9; which factors stall depends on rounding)
   * is a fast one of another. On the
   * collection (docs/lcp.md) it is what makes every problem converge at
   * 1e-9; no problem that converged without it is slowed beyond noise. */
  enum { STALL_SWEEPS = 256 };
  static const double kOmegas[] = {0.7, 1.0, 0.85, 0.5};
  double best = INFINITY;
  int best_sweep = 0, om_k = 0;
  /* The direct finish: tried after the first sweep, then after 8, 16, 32
   * ... more while it fails, and once more at the sweep limit. */
  /* (a product's rows of M formed from its H by columns) */
  const int direct = direct_possible(&S, ws) && (!S.u || prod_transpose(p, ws));
  int next_direct = 1, direct_gap = 8, finished = 0;
  while (sweep < max_sweeps) {
    double dz2 = 0.0, z2 = 0.0;
    if (aam) memcpy(A.x, z, (size_t)n * sizeof *z);
    if (S.u && stale) lk_lcp_prod_ht(p, z, S.u, NULL);
    stale = 0;
    for (int k = 0; k < S.nb; k++) solve_block(&S, &S.B[k], z, omega, &dz2, &z2);
    sweep++;
    if (aam && isfinite(dz2)) {
      double fn = sqrt(dz2);
      if (fn > prev_f) lk_anderson_reset(&A);
      prev_f = fn;
      if (lk_anderson_step(&A, z)) {
        lk_lcp_project(p, z);
        stale = 1;
      }
    }
    if (!isfinite(dz2) || !isfinite(z2)) {
      rep->detail = "the iterates diverged";
      checked = 0;
      break;
    }
    double light = sqrt(dz2);
    if (z2 > DBL_EPSILON * DBL_EPSILON) light /= sqrt(z2);
    checked = 0;
    /* The full measure when the light one says so, and every 16 sweeps
     * anyway: z can drift along a null direction of a rank-deficient M
     * (the light error stays up) while the answer is already one. */
    if (light > light_tol && sweep % 16 != 0 && !(direct && sweep >= next_direct)) continue;
    /* The full measure, as the final check computes it. */
    res = lk_lcp_residual_scaled(p, z, NULL, w, &scale, ws->nsgs_u);
    stale = 0; /* the check formed u at z */
    err = lk_lcp_fc3d_error_w(p, z, w, ws->nsgs_i);
    checked = 1;
    if (err <= tol && res / scale <= tol) {
      done = 1;
      break;
    }
    if (direct && sweep >= next_direct) {
      if (direct_finish(&S, ws, tol, lk_maxd(err, res / scale), z, w, &res, &scale, &err)) {
        done = finished = 1;
        break;
      }
      stale = 1;
      next_direct = sweep + direct_gap;
      direct_gap *= 2;
    }
    if (light == 0.0) {
      rep->detail = "stalled: no block moved, yet the answer misses the tolerance";
      break;
    }
    double worst = lk_maxd(err, res / scale);
    /* Siconos' adaptation: the light tolerance in proportion to what the
     * full measure found. */
    if (light <= light_tol) light_tol = light * tol / worst;
    if (worst < 0.99 * best) {
      best = worst;
      best_sweep = sweep;
    } else if (o->omega == 0 && sweep - best_sweep >= STALL_SWEEPS) {
      om_k = (om_k + 1) % 4;
      omega = kOmegas[om_k];
      lk_anderson_reset(&A);
      prev_f = INFINITY;
      best = worst;
      best_sweep = sweep;
    }
  }
  rep->sweeps = sweep;
  if (!checked) {
    for (int i = 0; i < n; i++)
      if (!isfinite(z[i])) z[i] = 0.0;
    res = lk_lcp_residual_scaled(p, z, NULL, w, &scale, ws->nsgs_u);
  }
  /* err at this z and w: measured by the last check, or now for the
   * direct finish (which leaves them, and it, as they were when it fails) */
  int err_ok = checked;
  if (!done && direct) {
    if (!checked) err = lk_lcp_fc3d_error_w(p, z, w, ws->nsgs_i);
    err_ok = 1;
    if (direct_finish(&S, ws, tol, lk_maxd(err, res / scale), z, w, &res, &scale, &err))
      done = finished = 1;
  }
  if (done) {
    s = LK_OK;
    rep->detail = finished && S.regularized
                      ? "converged (a direct solve of the contact states after the sweeps; "
                        "regularized blocks: a proximal term)"
                  : finished      ? "converged (a direct solve of the contact states after the sweeps)"
                  : S.regularized ? "converged (regularized blocks: a proximal term)"
                                  : "converged";
  }
  v->done = isfinite(res);
  v->residual = res;
  v->scale = scale;
  v->has_error = err_ok;
  v->error = err;
  if (o->basis_out && v->done) lk_lcp_basis_from(p, z, w, o->basis_out);
  return s;
}

static const lk_lcp_solver nsgs_type = {"nsgs", nsgs_solve, 1};
const lk_lcp_solver *const lk_lcp_nsgs = &nsgs_type;
