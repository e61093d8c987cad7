/* Lemke's complementary pivoting method with the lexicographic minimum
 * ratio rule (Cottle, Pang & Stone, "The Linear Complementarity Problem",
 * 1992, sections 4.4 and 4.9; Murty, "Linear Complementarity, Linear and
 * Nonlinear Programming", 1988, ch. 2).
 *
 * Bounds are first mapped to a standard LCP in u >= 0 with z = c + s u
 * (s = +1 for a lower bound, -1 for an upper bound only), so
 *     w' = M' u + q',  M'_ij = s_i s_j M_ij,  q' = S (q + M c),
 * with two kinds of unrestricted rows: free rows (z_i always basic, w_i = 0)
 * and fixed rows (lo = hi: w_i always basic, any sign).
 *
 * The system w' - M' u - d z0 = q' is kept in revised form: B^-1 of the
 * current basis, not a tableau. Every column of B^-1 whose w is basic is a
 * unit vector, so only the other k columns (k = number of nonbasic w) are
 * stored, compactly, and a pivot costs O(n k) instead of the tableau's
 * O(n^2) — the paths of contact problems stay at small k for most pivots.
 *
 * Rows with two finite bounds and friction-index rows are first expanded
 * into an equivalent standard LCP (expand.c), so Lemke solves every kind of
 * row lk_lcp describes.
 *
 * Ties in the ratio test are broken lexicographically on the rows of
 * [q | B^-1] restricted to the standard rows' columns, which is the rule
 * that makes degenerate problems terminate (Cottle et al., 4.9.5). */
#include <string.h>

#include "lcp/lcp_internal.h"

enum { K_STD = 0, K_NEG, K_FREE, K_FIXED };

typedef enum { RUN_SOLVED, RUN_RAY, RUN_LIMIT } run_result;

typedef struct {
  int n, ldm, ldu;
  const double *M;
  const unsigned char *kind;
  double *qp;   /* q' */
  double *c;    /* offsets: z = c + s u */
  double *U;    /* stored columns of B^-1, row-major n x k, leading dim ldu */
  double *lu;   /* warm start: LU of the guessed principal block */
  double *qbar; /* B^-1 q': values of the basic variables */
  double *abar; /* B^-1 times the entering column */
  double *gat;  /* gathered entries of a column */
  double *col;  /* an entering column in row space */
  double *y;    /* ray / refinement scratch */
  double *dcov; /* covering vector of the current attempt (restricted rows) */
  int *basis;   /* variable at each slot: w_i = i, u_i = n + i, z0 = 2n */
  unsigned char *rslot; /* does the slot's basic variable have a sign? */
  int *wslot, *uslot; /* slot of w_i / u_i, or -1 when nonbasic */
  int *rpos;    /* stored column of B^-1 column i, or -1 */
  int *rlist;   /* row index of each stored column */
  int *cand;
  int *perm;
  int k, z0slot;
  int anyneg; /* some row has kind K_NEG (else every sign is +1) */
  int pivots, max_pivots;
  double pivot_tol;
  double ztol; /* the last ratio test's degenerate-zero threshold */
  int ray_entering; /* entering variable at the last ray */
  /* Expansion of boxed and friction-index rows (expand.c). */
  const lk_lcp *p;  /* the caller's problem, n0 rows */
  int n0, expanded;
  lk_lcp_expansion x;
  double *zc;       /* solution in the solver's variables */
  unsigned char *guess; /* a warm start mapped to the solver's variables */
} lemke;

#define W_ID(i) (i)
#define U_ID(L, i) ((L)->n + (i))
#define Z0_ID(L) (2 * (L)->n)

static inline double sgn(const lemke *L, int i) { return L->kind[i] == K_NEG ? -1.0 : 1.0; }
static inline int restricted_row(const lemke *L, int i) { return L->kind[i] <= K_NEG; }
/* A variable with a sign constraint (takes part in ratio tests). */
static inline int restricted_var(const lemke *L, int v) {
  if (v == Z0_ID(L)) return 1;
  return restricted_row(L, v < L->n ? v : v - L->n);
}
static inline int restricted_slot(const lemke *L, int r) { return L->rslot[r]; }

/* out = -M'[:, s], the column of u_s in  w' - M' u - d z0 = q'. */
static void column_u(const lemke *L, int s, double *out) {
  double ss = -sgn(L, s);
  const double *Ms = L->M + s;
  size_t ldm = (size_t)L->ldm;
  if (!L->anyneg) {
    for (int i = 0; i < L->n; i++) out[i] = -Ms[(size_t)i * ldm];
    return;
  }
  for (int i = 0; i < L->n; i++) out[i] = ss * sgn(L, i) * Ms[(size_t)i * ldm];
}

/* out = B^-1 a. */
static void binv_apply(lemke *L, const double *a, double *out) {
  int n = L->n, k = L->k;
  double *g = L->gat;
  for (int c = 0; c < k; c++) g[c] = a[L->rlist[c]];
  size_t ldu = (size_t)L->ldu;
  if (k < 8) { /* short rows: in index order, no partial sums */
    for (int r = 0; r < n; r++) {
      const double *u = L->U + (size_t)r * ldu;
      double s = 0.0;
      for (int c = 0; c < k; c++) s += u[c] * g[c];
      out[r] = s;
    }
  } else {
    for (int r = 0; r < n; r++) out[r] = lk_lcp_dot(L->U + (size_t)r * ldu, g, k);
  }
  for (int i = 0; i < n; i++)
    if (L->wslot[i] >= 0) out[L->wslot[i]] += a[i];
}

static inline double binv_entry(const lemke *L, int r, int j) {
  if (L->rpos[j] >= 0) return L->U[(size_t)r * (size_t)L->ldu + (size_t)L->rpos[j]];
  return L->wslot[j] == r ? 1.0 : 0.0;
}

/* The entering variable at slot r, with L->abar its column: Gauss-Jordan
 * step on the stored part of B^-1 and on qbar. */
static void pivot(lemke *L, int r, int entering) {
  int n = L->n, ldu = L->ldu;
  int lv = L->basis[r];
  if (lv < n) {
    /* w_lv leaves: its column of B^-1, the unit vector e_r, must be stored. */
    int c = L->k++;
    for (int i = 0; i < n; i++) L->U[(size_t)i * ldu + c] = 0.0;
    L->U[(size_t)r * ldu + c] = 1.0;
    L->rlist[c] = lv;
    L->rpos[lv] = c;
    L->wslot[lv] = -1;
  } else if (lv < 2 * n) {
    L->uslot[lv - n] = -1;
  } else {
    L->z0slot = -1;
  }
  int k = L->k;
  double inv = 1.0 / L->abar[r];
  double *ur = L->U + (size_t)r * ldu;
  for (int c = 0; c < k; c++) ur[c] *= inv;
  L->qbar[r] *= inv;
  double qr = L->qbar[r];
  for (int i = 0; i < n; i++) {
    double f = L->abar[i];
    if (i == r || f == 0.0) continue;
    lk_lcp_axpy(L->U + (size_t)i * ldu, -f, ur, k);
    L->qbar[i] -= f * qr;
  }
  if (entering < n) {
    /* w_s enters: its column of B^-1 becomes e_r and need not be stored. */
    int s = entering, c = L->rpos[s], last = L->k - 1;
    if (c != last) {
      for (int i = 0; i < n; i++) L->U[(size_t)i * ldu + c] = L->U[(size_t)i * ldu + last];
      L->rlist[c] = L->rlist[last];
      L->rpos[L->rlist[c]] = c;
    }
    L->rpos[s] = -1;
    L->k--;
    L->wslot[s] = r;
  } else if (entering < 2 * n) {
    L->uslot[entering - n] = r;
  } else {
    L->z0slot = r;
  }
  L->basis[r] = entering;
  L->rslot[r] = (unsigned char)restricted_var(L, entering);
  L->pivots++;
}

/* Is row r1 of B^-1 / |abar_r1| lexicographically smaller than row r2's,
 * over the columns of the standard rows in index order? */
static int lex_less(const lemke *L, int r1, int r2) {
  double a1 = fabs(L->abar[r1]), a2 = fabs(L->abar[r2]);
  double floor_ = 1e-14 * lk_maxd(1.0 / a1, 1.0 / a2);
  for (int j = 0; j < L->n; j++) {
    if (!restricted_row(L, j)) continue;
    double v1 = binv_entry(L, r1, j) / a1, v2 = binv_entry(L, r2, j) / a2;
    if (fabs(v1 - v2) > 1e-11 * lk_maxd(fabs(v1), fabs(v2)) + floor_) return v1 < v2;
  }
  /* Equal to rounding: by variable, which does not depend on slots. */
  return L->basis[r1] < L->basis[r2];
}

static int lex_pick(const lemke *L, int ncand) {
  int best = L->cand[0];
  for (int t = 1; t < ncand; t++)
    if (lex_less(L, L->cand[t], best)) best = L->cand[t];
  return best;
}

/* Minimum ratio test for the column in abar; -1 when nothing blocks (a ray). */
static int ratio_test(lemke *L) {
  int n = L->n;
  double amax = 0.0, qmax = 0.0;
  for (int r = 0; r < n; r++) {
    amax = lk_maxd(amax, fabs(L->abar[r]));
    if (restricted_slot(L, r)) qmax = lk_maxd(qmax, fabs(L->qbar[r]));
  }
  if (!(amax > 1e-300) || !isfinite(amax)) return -1;
  /* Basic values at rounding level of the largest are degenerate zeros:
   * telling them apart from exact zeros would let rounding noise choose
   * among degenerate ties, which only the lexicographic rule may do. */
  double ztol = 1e-12 * qmax;
  L->ztol = ztol;
  double ptol = L->pivot_tol * amax, tmin = INFINITY, apos = 0.0, qs = 0.0;
  /* The rows that block and their ratios (perm, y), for the tie pass. */
  int *rows = L->perm, nb = 0;
  double *ratio = L->y;
  for (int r = 0; r < n; r++) {
    double a = L->abar[r];
    if (a <= ptol || !restricted_slot(L, r)) continue;
    double t = (L->qbar[r] > ztol ? L->qbar[r] : 0.0) / a;
    if (t < tmin) tmin = t;
    apos = lk_maxd(apos, a);
    qs = lk_maxd(qs, fabs(L->qbar[r]));
    rows[nb] = r;
    ratio[nb++] = t;
  }
  if (tmin == INFINITY) return -1;
  /* Near-ties: a choice among them leaves others infeasible by at most
   * 1e-12 of the data's size, which the final refinement absorbs. */
  double tie = 1e-12 * lk_maxd(tmin, qs / apos);
  int ncand = 0;
  for (int b = 0; b < nb; b++) {
    if (ratio[b] <= tmin + tie) {
      int r = rows[b];
      if (r == L->z0slot) return r; /* z0 leaving ends the path: prefer it */
      L->cand[ncand++] = r;
    }
  }
  return lex_pick(L, ncand);
}

/* Start the basis at B = I (all w basic). */
static void basis_identity(lemke *L) {
  int n = L->n;
  for (int i = 0; i < n; i++) {
    L->basis[i] = W_ID(i);
    L->rslot[i] = (unsigned char)restricted_row(L, i);
    L->wslot[i] = i;
    L->uslot[i] = -1;
    L->rpos[i] = -1;
    L->qbar[i] = L->qp[i];
  }
  L->k = 0;
  L->z0slot = -1;
}

/* Bring variable v (a u, or z0) into the basis in place of the basic w_i
 * with leave[i] set that has the largest pivot, and clear leave[i]: only
 * the set of basic variables matters, so the slot is free to choose, and
 * partial pivoting keeps B^-1 accurate (and a zero diagonal from stopping
 * a nonsingular block). Returns 0, basis untouched, when the best pivot is
 * not above rel times the column's largest entry. */
static int enter_largest(lemke *L, int v, int *leave, double rel) {
  int n = L->n;
  if (v < 2 * n) {
    column_u(L, v - n, L->col);
  } else {
    for (int i = 0; i < n; i++) L->col[i] = -L->dcov[i];
  }
  binv_apply(L, L->col, L->abar);
  double amax = 0.0, best = 0.0;
  int r = -1;
  for (int s = 0; s < n; s++) {
    double a = fabs(L->abar[s]);
    amax = lk_maxd(amax, a);
    int w = L->basis[s];
    if (w < n && leave[w] && a > best) {
      best = a;
      r = s;
    }
  }
  if (r < 0 || !(best > rel * amax) || !(best > 1e-300)) return 0;
  leave[L->basis[r]] = 0;
  pivot(L, r, v);
  return 1;
}

/* Bring the free rows' z into the basis, each replacing a free row's w. */
static lk_status pivot_in_free_rows(lemke *L) {
  int n = L->n, *leave = L->cand;
  for (int i = 0; i < n; i++) leave[i] = L->kind[i] == K_FREE;
  for (int f = 0; f < n; f++)
    if (L->kind[f] == K_FREE && !enter_largest(L, U_ID(L, f), leave, L->pivot_tol)) return LK_SINGULAR;
  return LK_OK;
}

/* Are the restricted basic variables nonnegative (a solution with z0 out)? */
static int basis_feasible(const lemke *L) {
  for (int r = 0; r < L->n; r++)
    if (restricted_slot(L, r) && L->qbar[r] < 0.0) return 0;
  return 1;
}

/* Recompute B^-1 of the current basis from scratch: the explicit inverse
 * drifts over long paths of ill-conditioned bases, and a wrong ratio test
 * means a wrong path (or a false ray). The basic variables re-enter from
 * B = I, each in place of one of the w's that must leave, on the largest
 * pivot (partial pivoting; only the set of basic variables matters).
 * Returns 0 if the basis turned out numerically singular. */
static int reinvert(lemke *L) {
  int n = L->n, nv = 0, pivots = L->pivots;
  int *vars = L->perm, *leave = L->cand;
  for (int i = 0; i < n; i++) leave[i] = L->wslot[i] < 0;
  for (int r = 0; r < n; r++)
    if (L->basis[r] >= n) vars[nv++] = L->basis[r];
  basis_identity(L);
  for (int a = 0; a < nv; a++)
    if (!enter_largest(L, vars[a], leave, 1e-14)) return 0;
  L->pivots = pivots;
  return 1;
}

/* z0 enters with column -dcov (in slots: B^-1 d), then the complementary
 * path until z0 leaves (solved), nothing blocks (ray) or the pivot cap. */
static run_result run_path(lemke *L, int max_pivots) {
  int n = L->n;
  if (basis_feasible(L)) return RUN_SOLVED;
  /* z0 = max_r -qbar_r / d_r over restricted slots; ties lexicographic. */
  binv_apply(L, L->dcov, L->abar);
  for (int r = 0; r < n; r++) {
    if (!restricted_slot(L, r)) L->abar[r] = 0.0;
    L->abar[r] = -L->abar[r];
  }
  double tmax = -INFINITY, dmax = 0.0, qs = 0.0;
  for (int r = 0; r < n; r++) {
    double d = -L->abar[r];
    if (d <= 0.0) continue;
    tmax = lk_maxd(tmax, -L->qbar[r] / d);
    dmax = lk_maxd(dmax, d);
    qs = lk_maxd(qs, fabs(L->qbar[r]));
  }
  if (tmax == -INFINITY) { /* no covering: cannot start */
    L->ray_entering = -1;
    return RUN_RAY;
  }
  double tie = 1e-12 * lk_maxd(fabs(tmax), qs / dmax);
  int ncand = 0;
  for (int r = 0; r < n; r++) {
    double d = -L->abar[r];
    if (d > 0.0 && -L->qbar[r] / d >= tmax - tie) L->cand[ncand++] = r;
  }
  int r = lex_pick(L, ncand);
  int leaving = L->basis[r];
  pivot(L, r, Z0_ID(L));
  /* Reinversion period: rare enough to cost little against the O(n k)
   * pivots, often enough to keep long paths honest. */
  int period = n > 50 ? n : 50, since = 0;
  for (;;) {
    int entering = leaving < n ? U_ID(L, leaving) : W_ID(leaving - n);
    if (L->pivots >= max_pivots) return RUN_LIMIT;
    if (++since >= period) {
      if (!reinvert(L)) return RUN_RAY;
      since = 0;
    }
    for (int attempt = 0;; attempt++) {
      if (entering >= n) {
        column_u(L, entering - n, L->col);
        binv_apply(L, L->col, L->abar);
      } else {
        int c = L->rpos[entering];
        for (int i = 0; i < n; i++) L->abar[i] = L->U[(size_t)i * L->ldu + c];
      }
      r = ratio_test(L);
      /* A ray is only believed with a fresh inverse. */
      if (r >= 0 || attempt > 0 || since == 0) break;
      if (!reinvert(L)) break;
      since = 0;
    }
    if (r < 0) {
      L->ray_entering = entering;
      return RUN_RAY;
    }
    leaving = L->basis[r];
    /* The ratio test took a basic value at rounding level as the zero it
     * stands for; so must the pivot, or a tiny pivot element turns its
     * noise (-3e-14 over 2e-11, met in contact LCPs) into a large
     * negative value of the entering variable and of every basic
     * variable it moves. */
    if (fabs(L->qbar[r]) <= L->ztol) L->qbar[r] = 0.0;
    pivot(L, r, entering);
    if (leaving == Z0_ID(L)) return RUN_SOLVED;
  }
}

/* Farkas certificate from the ray's u part y: y >= 0 on standard rows,
 * (M'^T y) <= 0 on standard columns and = 0 on free columns, q'^T y < 0.
 * For copositive-plus M every secondary ray gives one (Cottle et al.,
 * Theorem 4.4.13), so a failed check means "Lemke failed", not "infeasible". */
static int ray_certified(lemke *L) {
  int n = L->n;
  double *y = L->y;
  if (L->ray_entering < 0) return 0;
  for (int j = 0; j < n; j++) y[j] = 0.0;
  for (int r = 0; r < n; r++) {
    int v = L->basis[r];
    if (v >= n && v < 2 * n) y[v - n] = -L->abar[r];
  }
  if (L->ray_entering >= n) y[L->ray_entering - n] = 1.0;
  double ynorm = 0.0, mmax = 0.0, qmax = 0.0;
  for (int j = 0; j < n; j++) ynorm += fabs(y[j]);
  if (!(ynorm > 0) || !isfinite(ynorm)) return 0;
  for (int j = 0; j < n; j++) {
    if (L->kind[j] == K_FIXED) y[j] = 0.0;
    if (restricted_row(L, j) && y[j] < -1e-9 * ynorm) return 0;
    qmax = lk_maxd(qmax, fabs(L->qp[j]));
  }
  double qy = 0.0;
  for (int i = 0; i < n; i++) qy += L->qp[i] * y[i];
  for (int i = 0; i < n; i++) {
    const double *row = L->M + (size_t)i * (size_t)L->ldm;
    for (int j = 0; j < n; j++) mmax = lk_maxd(mmax, fabs(row[j]));
  }
  double gtol = 1e-9 * mmax * ynorm;
  if (!(qy < -1e-9 * qmax * ynorm)) return 0;
  for (int j = 0; j < n; j++) {
    if (L->kind[j] == K_FIXED) continue;
    double g = 0.0, sj = sgn(L, j);
    for (int i = 0; i < n; i++) g += sgn(L, i) * L->M[(size_t)i * (size_t)L->ldm + j] * y[i];
    g *= sj;
    if (L->kind[j] == K_FREE ? fabs(g) > gtol : g > gtol) return 0;
  }
  return 1;
}

/* The simplest certificate: a standard row with q'_i < 0 and M'_ij <= 0 on
 * every column that can be positive, so w'_i < 0 whatever u is. */
static int row_certified(lemke *L) {
  int n = L->n;
  for (int i = 0; i < n; i++) {
    if (!restricted_row(L, i) || !(L->qp[i] < 0.0)) continue;
    const double *row = L->M + (size_t)i * (size_t)L->ldm;
    int ok = 1;
    for (int j = 0; j < n && ok; j++) {
      if (L->kind[j] == K_FIXED) continue;
      double m = sgn(L, i) * sgn(L, j) * row[j];
      ok = L->kind[j] == K_FREE ? m == 0.0 : m <= 0.0;
    }
    if (ok) return 1;
  }
  return 0;
}

/* z of the caller's problem from the solver's variables. */
static void map_back(const lemke *L, double *z) {
  if (L->expanded)
    lk_lcp_expand_map_back(L->p, &L->x, L->zc, z);
  else
    for (int i = 0; i < L->n0; i++) z[i] = L->zc[i];
}

/* One more cheap candidate: y = 1 on the standard rows (the sum of all of
 * them cannot be met), e.g. Murty's Example 2.2. */
static int sum_certified(lemke *L) {
  int n = L->n;
  double qy = 0.0, qmax = 0.0, mmax = 0.0;
  for (int i = 0; i < n; i++)
    if (restricted_row(L, i)) qy += L->qp[i], qmax = lk_maxd(qmax, fabs(L->qp[i]));
  if (!(qy < -1e-9 * qmax * n)) return 0;
  for (int j = 0; j < n; j++) {
    if (L->kind[j] == K_FIXED) continue;
    double g = 0.0;
    for (int i = 0; i < n; i++) {
      if (!restricted_row(L, i)) continue;
      double m = sgn(L, i) * sgn(L, j) * L->M[(size_t)i * (size_t)L->ldm + j];
      g += m;
      mmax = lk_maxd(mmax, fabs(m));
    }
    if (L->kind[j] == K_FREE ? fabs(g) > 1e-9 * mmax * n : g > 1e-9 * mmax * n) return 0;
  }
  return 1;
}

/* Iterative refinement of the basic solution of  w' - M' u = q'  (z0 out)
 * with the stored B^-1 as the approximate inverse; then z = c + s u. */
static void extract(lemke *L, double *z, int refine) {
  int n = L->n;
  for (int it = 0; it < refine && L->z0slot < 0; it++) {
    double *rr = L->col, *u = L->y;
    int *b = L->cand, nb = 0;
    for (int j = 0; j < n; j++)
      if (L->uslot[j] >= 0) {
        b[nb] = j;
        u[nb++] = sgn(L, j) * L->qbar[L->uslot[j]];
      }
    /* Stop when every row's residual is at the rounding level of the sum
     * that computes it: refinement has nothing left to give. */
    int done = 1;
    for (int i = 0; i < n; i++) {
      const double *row = L->M + (size_t)i * (size_t)L->ldm;
      double s = 0.0, mag = 0.0;
      for (int a = 0; a < nb; a++) {
        double t = row[b[a]] * u[a];
        s += t;
        mag += fabs(t);
      }
      double wv = L->wslot[i] >= 0 ? L->qbar[L->wslot[i]] : 0.0;
      rr[i] = L->qp[i] - wv + sgn(L, i) * s;
      if (fabs(rr[i]) > 4 * LK_LCP_EPS * (mag + fabs(L->qp[i]) + fabs(wv))) done = 0;
    }
    if (done) break;
    binv_apply(L, rr, L->abar);
    for (int r = 0; r < n; r++) L->qbar[r] += L->abar[r];
  }
  for (int j = 0; j < n; j++) {
    double u = L->uslot[j] >= 0 ? L->qbar[L->uslot[j]] : 0.0;
    if (!isfinite(u) || (restricted_row(L, j) && u < 0.0)) u = 0.0;
    L->zc[j] = L->c[j] + sgn(L, j) * u;
  }
  map_back(L, z);
}

/* Is u_i guessed basic? (Guesses that do not fit the row are ignored.) */
static int guessed_basic(const lemke *L, const unsigned char *g, int i) {
  if (L->kind[i] == K_FREE) return 1;
  if (L->kind[i] == K_FIXED) return 0;
  return g[i] == LK_LCP_BASIC;
}

/* The basic solution of the complementary basis whose basic u are those
 * g guesses (guessed_basic), solved directly by LU of its principal block
 * of M': u (n entries, 0 off the block). Returns 0 if the block is
 * singular, with *dependent (if given) a variable whose column depends on
 * the others', or -1. */
static int solve_direct(lemke *L, const unsigned char *g, double *u, int *dependent) {
  int n = L->n, k = 0;
  int *idx = L->perm;
  for (int i = 0; i < n; i++)
    if (guessed_basic(L, g, i)) idx[k++] = i;
  double *rhs = L->gat;
  for (int a = 0; a < k; a++) {
    int i = idx[a];
    const double *row = L->M + (size_t)i * (size_t)L->ldm;
    for (int b = 0; b < k; b++) L->lu[(size_t)a * L->ldu + b] = sgn(L, i) * sgn(L, idx[b]) * row[idx[b]];
    rhs[a] = -L->qp[i];
  }
  int bad;
  if (!lk_lcp_lu_solve_at(L->lu, L->ldu, k, rhs, &bad)) {
    if (dependent) *dependent = bad >= 0 ? idx[bad] : -1;
    return 0;
  }
  for (int j = 0; j < n; j++) u[j] = 0.0;
  for (int a = 0; a < k; a++) u[idx[a]] = rhs[a];
  return 1;
}

/* Measure z (the solve's final check, into the caller's w): 1 and v set
 * when its relative residual is at most tol. */
static int accept(const lk_lcp *p, double tol, const double *z, double *w, lk_lcp_verified *v) {
  double scale, res = lk_lcp_residual_scaled(p, z, NULL, w, &scale, NULL);
  if (!(res <= tol * scale)) return 0;
  v->done = 1;
  v->residual = res;
  v->scale = scale;
  return 1;
}

/* Warm start, fast path: solve the guessed complementary basis directly
 * and accept it if the result passes the full residual check. */
static int warm_direct(lemke *L, const lk_lcp *p, const lk_lcp_options *o,
                       const unsigned char *g, double *z, double *w, lk_lcp_verified *v) {
  int n = L->n;
  double *u = L->y;
  if (!solve_direct(L, g, u, NULL)) return 0;
  for (int j = 0; j < n; j++) {
    if (restricted_row(L, j) && u[j] < 0.0) return 0;
    L->zc[j] = L->c[j] + sgn(L, j) * u[j];
  }
  map_back(L, z);
  return accept(p, o->tol, z, w, v);
}

/* The end of a path, checked (into the caller's w, the final check when
 * it passes). What extract() computed can fail the check in two ways.
 * The explicit inverse updated over the path drifts when a basis on the
 * way was nearly singular, and its refinement then does not converge;
 * the direct solution of the same basis (LU of its principal block) does.
 * And a path can end in a basis that is itself numerically singular:
 * degenerate contact problems have pairs of columns that agree to rounding
 * (two contacts on one edge of a body, and a friction direction along that
 * edge, give the same wrench), the last ratio tests, made with an inverse
 * of condition 1e9 or worse, let a basic variable come out slightly
 * negative, and clipping it leaves a residual of its value times its
 * column, above the tolerance though the problem is well posed. So: the
 * direct solution of the basis; while it fails the check, a principal
 * pivot, one row at a time (the most negative basic u leaves the basis
 * and its twin takes its share, else the nonbasic row with the most
 * negative w' enters), and the direct solution again, a few rounds.
 * Returns 1 when z passes a tenth of the tolerance; 0 with z as extract()
 * left it. */
static int finish_path(lemke *L, const lk_lcp *p, const lk_lcp_options *o, double *z, double *w,
                       lk_lcp_verified *v) {
  /* A tenth of the tolerance, as Dantzig's passes aim: a path that ends
   * near the tolerance ended in such a basis too. (Below the tolerance,
   * extract()'s solution remains the answer when no repair does better.) */
  double tol = 0.1 * o->tol;
  if (accept(p, tol, z, w, v)) return 1;
  int n = L->n;
  unsigned char *g = L->guess;
  double *u = L->y, *wp = L->col;
  double qmax = 0.0;
  for (int j = 0; j < n; j++) {
    g[j] = L->uslot[j] >= 0 ? LK_LCP_BASIC : LK_LCP_LOWER;
    qmax = lk_maxd(qmax, fabs(L->qp[j]));
  }
  for (int round = 0; round < 8; round++) {
    int dep;
    if (!solve_direct(L, g, u, &dep)) {
      /* A singular basis: the variable whose column depends on the others
       * leaves (its w enters), if it may. */
      if (dep < 0 || !restricted_row(L, dep)) break;
      g[dep] = LK_LCP_LOWER;
      continue;
    }
    double umax = 0.0;
    for (int j = 0; j < n; j++) {
      double uj = restricted_row(L, j) && u[j] < 0.0 ? 0.0 : u[j];
      L->zc[j] = L->c[j] + sgn(L, j) * uj;
      umax = lk_maxd(umax, fabs(u[j]));
    }
    map_back(L, z);
    if (accept(p, tol, z, w, v)) {
      /* The basis is the direct solution's (write_basis reads uslot). */
      for (int j = 0; j < n; j++) L->uslot[j] = guessed_basic(L, g, j) ? 0 : -1;
      return 1;
    }
    for (int i = 0; i < n; i++) {
      const double *row = L->M + (size_t)i * (size_t)L->ldm;
      double s = 0.0;
      for (int j = 0; j < n; j++)
        if (u[j] != 0.0) s += sgn(L, j) * row[j] * u[j];
      wp[i] = L->qp[i] + sgn(L, i) * s;
    }
    /* Violations at rounding level of the data are not worth a pivot. */
    double eps_u = 1e-13 * umax, eps_w = 1e-13 * qmax, wv = 0.0;
    int worst = -1, enter = 0;
    for (int j = 0; j < n; j++)
      if (restricted_row(L, j) && guessed_basic(L, g, j) && -u[j] > eps_u && -u[j] > wv)
        wv = -u[j], worst = j;
    if (worst < 0)
      for (int j = 0; j < n; j++)
        if (restricted_row(L, j) && !guessed_basic(L, g, j) && -wp[j] > eps_w && -wp[j] > wv)
          wv = -wp[j], worst = j, enter = 1;
    if (worst < 0) break;
    g[worst] = enter ? LK_LCP_BASIC : LK_LCP_LOWER;
  }
  extract(L, z, 0);
  return 0;
}

/* Warm start, pivoting path: the guessed z's enter the basis in place of
 * the guessed rows' w, each on the largest pivot among them (only the set
 * matters, and a zero diagonal must not stop a nonsingular block). Returns
 * 0 if some could not enter (a singular guessed block). */
static int warm_basis_block(lemke *L, const unsigned char *g) {
  int n = L->n, *leave = L->cand;
  for (int i = 0; i < n; i++) leave[i] = guessed_basic(L, g, i) && L->kind[i] != K_FREE;
  for (int j = 0; j < n; j++)
    if (guessed_basic(L, g, j) && L->kind[j] != K_FREE && !enter_largest(L, U_ID(L, j), leave, 1e-3))
      return 0;
  return 1;
}

/* The same with each z replacing its own w, dropping the guesses whose
 * pivot stays too small after the others: always ends complementary. */
static void warm_basis(lemke *L, const unsigned char *g) {
  int n = L->n, progress = 1;
  while (progress) {
    progress = 0;
    for (int j = 0; j < n; j++) {
      if (!guessed_basic(L, g, j) || L->kind[j] == K_FREE || L->uslot[j] >= 0) continue;
      column_u(L, j, L->col);
      binv_apply(L, L->col, L->abar);
      double amax = 0.0;
      for (int s = 0; s < n; s++) amax = lk_maxd(amax, fabs(L->abar[s]));
      int r = L->wslot[j];
      if (fabs(L->abar[r]) > 1e-3 * amax && fabs(L->abar[r]) > 1e-300) {
        pivot(L, r, U_ID(L, j));
        progress = 1;
      }
    }
  }
}

/* Basis from a guess (see warm_basis) and the covering vector d = B e over
 * the restricted slots, so that B^-1 d = e: every basic variable starts
 * feasible once z0 enters. */
static lk_status start_from_guess(lemke *L, const unsigned char *g) {
  int n = L->n;
  basis_identity(L);
  lk_status s = pivot_in_free_rows(L);
  if (s != LK_OK) return s;
  if (!warm_basis_block(L, g)) {
    basis_identity(L);
    if ((s = pivot_in_free_rows(L)) != LK_OK) return s;
    warm_basis(L, g);
  }
  for (int i = 0; i < n; i++) L->dcov[i] = 0.0;
  for (int r = 0; r < n; r++) {
    if (!restricted_slot(L, r)) continue;
    int v = L->basis[r];
    if (v < n) {
      L->dcov[v] += 1.0;
    } else {
      column_u(L, v - n, L->col);
      for (int i = 0; i < n; i++) L->dcov[i] += L->col[i];
    }
  }
  return LK_OK;
}

/* The basis as row states. Expanded rows (boxed, friction) read theirs
 * off z, which says it more simply than the expansion's basis. */
static void write_basis(const lemke *L, const double *z, unsigned char *out) {
  for (int i = 0; i < L->n0; i++) {
    int basic = L->uslot[i] >= 0;
    if (L->expanded && (L->x.vkind[i] != LK_X_ORIG || L->x.yvar[i] >= 0)) {
      double lo, hi;
      lk_lcp_bounds_at(L->p, z, i, &lo, &hi);
      double tol = 1e-12 * (1.0 + fabs(lo) + fabs(hi));
      out[i] = z[i] >= hi - tol ? (z[i] <= lo + tol ? LK_LCP_LOWER : LK_LCP_UPPER)
                                : (z[i] <= lo + tol ? LK_LCP_LOWER : LK_LCP_BASIC);
      continue;
    }
    switch (L->kind[i]) {
      case K_FREE: out[i] = LK_LCP_BASIC; break;
      case K_FIXED: out[i] = LK_LCP_LOWER; break;
      case K_NEG: out[i] = basic ? LK_LCP_BASIC : LK_LCP_UPPER; break;
      default: out[i] = basic ? LK_LCP_BASIC : LK_LCP_LOWER; break;
    }
  }
}

/* Covering vector of attempt v: all ones (v = 0) except, in an expanded
 * friction problem, zero on the rows z_n - sum beta >= 0 whose q is 0:
 * those never need covering, and keeping z0 off them avoids the secondary
 * rays along lambda alone that a covered lambda row invites (the
 * homogeneous solutions of Stewart and Trinkle's matrix). Then (v = 1) all
 * ones everywhere, then deterministic positive vectors in [0.5, 1.5). */
static void covering(lemke *L, int v) {
  if (!L->expanded && v > 0) v++;
  for (int i = 0; i < L->n; i++) {
    double d = 1.0;
    if (v > 1) {
      double x = (double)(i + 1) * 0.6180339887498949 * (double)v + 0.31 * (double)v;
      d = 0.5 + (x - floor(x));
    }
    L->dcov[i] = restricted_row(L, i) ? d : 0.0;
    if (v != 1 && L->expanded && L->x.vkind[i] == LK_X_LAMBDA && L->qp[i] >= 0.0) L->dcov[i] = 0.0;
  }
}

/* Kind and offset of a row with constant bounds (not boxed). */
static void classify(double lo, double hi, unsigned char *kind, double *c) {
  if (lo == hi) {
    *kind = K_FIXED;
    *c = lo;
  } else if (isinf(lo) && isinf(hi)) {
    *kind = K_FREE;
    *c = 0.0;
  } else if (isinf(hi)) {
    *kind = K_STD;
    *c = lo;
  } else {
    *kind = K_NEG;
    *c = hi;
  }
}

static lk_status lemke_solve(const lk_lcp *p, const lk_lcp_options *o, lk_lcp_workspace *ws,
                             double *z, double *w, lk_lcp_report *rep, lk_lcp_verified *chk) {
  int n0 = p->n;
  lemke L;
  memset(&L, 0, sizeof L);
  L.p = p;
  L.n0 = n0;
  L.ldu = ws->nmax;
  unsigned char *kind = ws->bvec[0];
  L.kind = kind;
  L.U = ws->mat[0];
  L.lu = ws->mat[1];
  L.qp = ws->vec[0];
  L.c = ws->vec[1];
  L.qbar = ws->vec[2];
  L.abar = ws->vec[3];
  L.gat = ws->vec[4];
  L.col = ws->vec[5];
  L.y = ws->vec[6];
  L.dcov = ws->vec[7];
  L.zc = ws->vec[8];
  L.basis = ws->ivec[0];
  L.wslot = ws->ivec[1];
  L.uslot = ws->ivec[2];
  L.rpos = ws->ivec[3];
  L.rlist = ws->ivec[4];
  L.cand = ws->ivec[5];
  L.perm = ws->ivec[6];
  L.guess = ws->bvec[2];
  L.rslot = ws->bvec[4];
  L.pivot_tol = o->pivot_tol;

  int ok, n = lk_lcp_expansion_size(p, &ok);
  if (!ok) {
    rep->detail = "Lemke needs friction rows' normal rows to have lo >= 0";
    return LK_UNSUPPORTED;
  }
  if (n > ws->nmax) {
    rep->detail = "Lemke needs a workspace of n + b + 2 f rows (b boxed, f friction rows)";
    return LK_CAPACITY_EXCEEDED;
  }
  L.n = n;
  L.expanded = n != n0;
  int max_pivots = o->max_pivots > 0 ? o->max_pivots : 1000 + 100 * n;
  if (!L.expanded) {
    L.M = p->M;
    L.ldm = lk_lcp_ldm(p);
    for (int i = 0; i < n0; i++) classify(lk_lcp_lo(p, i), lk_lcp_hi(p, i), &kind[i], &L.c[i]);
  } else {
    double *qe = L.y; /* scratch until the solve starts */
    L.x.vkind = ws->bvec[3];
    L.x.va = ws->ivec[7];
    L.x.vb = ws->ivec[8];
    L.x.yvar = ws->ivec[9];
    L.x.fhead = ws->ivec[10];
    L.x.fnext = ws->ivec[11];
    L.M = ws->mat[2];
    L.ldm = ws->nmax;
    lk_lcp_expand(p, &L.x, ws->mat[2], ws->nmax, qe);
    for (int v = 0; v < n; v++) {
      kind[v] = K_STD;
      L.c[v] = 0.0;
      if (v < n0 && L.x.vkind[v] == LK_X_ORIG) {
        if (L.x.yvar[v] >= 0)
          L.c[v] = lk_lcp_lo(p, v);
        else
          classify(lk_lcp_lo(p, v), lk_lcp_hi(p, v), &kind[v], &L.c[v]);
      }
    }
    for (int i = 0; i < n; i++) L.qp[i] = qe[i];
  }
  const double *q = n == n0 ? p->q : L.qp;
  int any_offset = 0;
  for (int i = 0; i < n; i++) {
    any_offset |= L.c[i] != 0.0;
    L.anyneg |= kind[i] == K_NEG;
  }
  for (int i = 0; i < n; i++) {
    const double *row = L.M + (size_t)i * (size_t)L.ldm;
    double s = q[i];
    if (any_offset)
      for (int j = 0; j < n; j++) s += row[j] * L.c[j];
    L.zc[i] = sgn(&L, i) * s;
  }
  for (int i = 0; i < n; i++) L.qp[i] = L.zc[i];

  /* A warm start in the solver's variables. */
  const unsigned char *guess = NULL;
  if (o->basis_in) {
    if (L.expanded)
      lk_lcp_expand_guess(p, &L.x, o->basis_in, L.guess);
    else
      memcpy(L.guess, o->basis_in, (size_t)n0);
    guess = L.guess;
  }

  rep->warm = LK_LCP_COLD;
  if (o->basis_in) {
    if (warm_direct(&L, p, o, guess, z, w, chk)) {
      rep->warm = LK_LCP_WARM_EXACT;
      rep->detail = "the warm-start basis was the solution";
      if (o->basis_out) {
        /* The guess is the basis (re-derived per row kind). */
        for (int i = 0; i < n; i++) L.uslot[i] = guessed_basic(&L, guess, i) ? 0 : -1;
        write_basis(&L, z, o->basis_out);
      }
      return LK_OK;
    }
    if (start_from_guess(&L, guess) == LK_OK) {
      int budget = L.pivots + max_pivots / 2;
      if (run_path(&L, budget) == RUN_SOLVED) {
        extract(&L, z, 2);
        /* A path from a guess starts in a basis built by pivots taken for
         * the guess, not by ratio tests, and can end in a numerically bad
         * basis the repair cannot mend (contact LCPs whose contacts
         * changed since the guess): then the cold path decides. */
        if (finish_path(&L, p, o, z, w, chk) || accept(p, o->tol, z, w, chk)) {
          rep->warm = LK_LCP_WARM_REPAIRED;
          rep->pivots = L.pivots;
          rep->detail = "solved from the warm-start basis";
          if (o->basis_out) write_basis(&L, z, o->basis_out);
          return LK_OK;
        }
      }
    }
    rep->warm = LK_LCP_WARM_FELL_BACK;
  }

  lk_status status = LK_NO_SOLUTION;
  rep->detail = "ray termination";
  /* Restarts, for matrices outside the classes where Lemke's method is
   * guaranteed (copositive-plus, P): the first from the opposite corner,
   * the basis with every z basic (e.g. bimatrix games whose equilibrium has
   * full support, CPS Example 4.4.23), then other covering vectors. */
  unsigned char *all = ws->bvec[1];
  for (int a = 0; a <= o->max_restarts; a++) {
    lk_status s;
    if (a == 1) {
      for (int i = 0; i < n; i++) all[i] = LK_LCP_BASIC;
      if (warm_direct(&L, p, o, all, z, w, chk)) {
        rep->restarts = 1;
        rep->detail = "solved from the all-basic start after a ray";
        if (o->basis_out) {
          for (int i = 0; i < n; i++) L.uslot[i] = L.kind[i] == K_FIXED ? -1 : 0;
          write_basis(&L, z, o->basis_out);
        }
        return LK_OK;
      }
      s = start_from_guess(&L, all);
    } else {
      basis_identity(&L);
      s = pivot_in_free_rows(&L);
      covering(&L, a == 0 ? 0 : a - 1);
    }
    if (s != LK_OK) {
      rep->pivots = L.pivots;
      rep->detail = "the free rows' block of M is singular";
      status = s;
      break;
    }
    rep->restarts = a;
    run_result res = run_path(&L, max_pivots);
    rep->pivots = L.pivots;
    if (res == RUN_SOLVED) {
      extract(&L, z, 2);
      /* A path that ends in a basis whose solution fails the check even
       * after the repair (finish_path) is retried with another covering
       * vector: another path, other bases. The last one is returned as
       * it is, for the caller's check to judge. */
      if (finish_path(&L, p, o, z, w, chk) || accept(p, o->tol, z, w, chk) ||
          a == o->max_restarts) {
        if (o->basis_out) write_basis(&L, z, o->basis_out);
        rep->detail = a == 0 ? "solved" : "solved after restarting with another covering vector";
        return LK_OK;
      }
      rep->detail = "the path ended in a basis whose solution fails the check";
      continue;
    }
    if (res == RUN_LIMIT) {
      status = LK_PIVOT_LIMIT;
      rep->detail = "pivot limit reached";
      break;
    }
    /* A ray reached while z0 is (degenerately) zero leaves a solution. */
    if (res == RUN_RAY) {
      extract(&L, z, 0);
      double scale, rr = lk_lcp_residual_scaled(p, z, NULL, NULL, &scale, NULL);
      if (rr <= 0.1 * o->tol * scale) {
        if (o->basis_out) write_basis(&L, z, o->basis_out);
        rep->detail = "ray with z0 at zero: the basis reached is a solution";
        return LK_OK;
      }
    }
    if (ray_certified(&L) || row_certified(&L) || sum_certified(&L)) {
      rep->ray_certified = 1;
      rep->detail = "ray termination: the problem is infeasible (certificate verified)";
      break;
    }
    rep->detail = "ray termination (no infeasibility certificate)";
  }
  /* Last resort for a small standard LCP whose path ran too long or into
   * a ray that proves nothing: principal pivoting (ppm.c), which is
   * finite on every P-matrix, where Lemke's path may visit 2^n bases
   * (Murty's lower-triangular example). Its answer faces the same check. */
  if ((status == LK_PIVOT_LIMIT || (status == LK_NO_SOLUTION && !rep->ray_certified)) &&
      lk_lcp_ppm_takes(p)) {
    int pp = 0;
    if (lk_lcp_ppm(p, ws, z, w, &pp) == LK_OK && accept(p, o->tol, z, w, chk)) {
      rep->pivots = L.pivots + pp;
      rep->restarts++;
      rep->detail = status == LK_PIVOT_LIMIT
                        ? "solved by principal pivoting after Lemke's path reached the pivot limit"
                        : "solved by principal pivoting after Lemke's path ended in a ray";
      if (o->basis_out) lk_lcp_basis_from(p, z, w, o->basis_out);
      return LK_OK;
    }
    rep->pivots = L.pivots + pp;
  }
  /* Leave a finite, meaningful iterate: the current basis without z0. */
  extract(&L, z, 0);
  if (o->basis_out) write_basis(&L, z, o->basis_out);
  return status;
}

static const lk_lcp_solver lemke_type = {"lemke", lemke_solve, 0};
const lk_lcp_solver *const lk_lcp_lemke = &lemke_type;
