/* A small dense two-phase simplex method for the grasp layer's linear
 * programs (force closure, minimum finger forces): a few to a few dozen
 * rows, a few hundred columns. Standard textbook tableau (Chvatal, "Linear
 * Programming", 1983, ch. 2-3 and 8): phase 1 minimizes the sum of one
 * artificial variable per row, phase 2 the objective. Entering columns by
 * the most negative reduced cost, leaving rows by the ratio test (ties to
 * the larger pivot); after a run of degenerate pivots both choices switch
 * to Bland's smallest-index rule for the rest of the solve, which cannot
 * cycle. Duals are read from the artificial columns, which stay in the
 * tableau (they never re-enter the basis). */
#include <math.h>
#include <string.h>

#include "core/internal.h"
#include "grasp/grasp_internal.h"

#define DEGENERATE_RUN 30

typedef struct {
  int m, n, w; /* rows, structural columns, row width (n + m + 1) */
  double *T;   /* (m + 1) x w; row m is the objective (reduced costs) */
  int *basis;  /* per row: its basic column */
  double tol_pivot, tol_cost;
  int bland, degenerate, pivots, max_pivots;
  int flags;
} tableau;

#define TAB(t, i, j) ((t)->T[(size_t)(i) * (size_t)(t)->w + (size_t)(j)])

static void pivot(tableau *t, int r, int col) {
  double p = TAB(t, r, col);
  double *row = &TAB(t, r, 0);
  for (int j = 0; j < t->w; j++) row[j] /= p;
  row[col] = 1.0;
  for (int i = 0; i <= t->m; i++) {
    if (i == r) continue;
    double f = TAB(t, i, col);
    if (f == 0.0) continue;
    double *ri = &TAB(t, i, 0);
    for (int j = 0; j < t->w; j++) ri[j] -= f * row[j];
    ri[col] = 0.0;
  }
  t->basis[r] = col;
  t->pivots++;
}

/* Entering column among the first `ncols` (structural) columns, -1 when
 * every reduced cost is >= -tol (optimal). */
static int entering(const tableau *t, int ncols) {
  int best = -1;
  double bestv = -t->tol_cost;
  for (int j = 0; j < ncols; j++) {
    double d = TAB(t, t->m, j);
    if (t->bland) {
      if (d < -t->tol_cost) return j;
    } else if (d < bestv) {
      bestv = d;
      best = j;
    }
  }
  return best;
}

/* Leaving row for column col, -1 when none (unbounded direction). */
static int leaving(const tableau *t, int col, const unsigned char *dead) {
  int best = -1;
  double bestr = INFINITY, bestp = 0;
  for (int i = 0; i < t->m; i++) {
    if (dead && dead[i]) continue;
    double a = TAB(t, i, col);
    if (a <= t->tol_pivot) continue;
    double r = TAB(t, i, t->w - 1) / a;
    if (r < 0) r = 0; /* rounding below zero */
    if (best < 0 || r < bestr - 1e-13 * (1 + fabs(bestr))) {
      best = i;
      bestr = r;
      bestp = a;
    } else if (r <= bestr + 1e-13 * (1 + fabs(bestr))) {
      /* A tie: Bland takes the smallest basic index, otherwise the larger
       * pivot is the stabler one. */
      int lowest = t->bland || (t->flags & LK_GLP_TEXTBOOK_TIES);
      if (lowest ? t->basis[i] < t->basis[best] : a > bestp) {
        best = i;
        bestr = fmin(bestr, r);
        bestp = a;
      }
    }
  }
  return best;
}

/* Pivot to optimality over the first ncols columns. Returns 0 optimal, 1
 * unbounded, -1 pivot limit. */
static int run(tableau *t, int ncols, const unsigned char *dead) {
  for (;;) {
    int col = entering(t, ncols);
    if (col < 0) return 0;
    int r = leaving(t, col, dead);
    if (r < 0) return 1;
    if (t->pivots >= t->max_pivots) return -1;
    double step = TAB(t, r, t->w - 1);
    if (step <= t->tol_pivot) {
      if (++t->degenerate > DEGENERATE_RUN && !(t->flags & LK_GLP_NO_BLAND)) t->bland = 1;
    } else {
      t->degenerate = 0;
    }
    pivot(t, r, col);
  }
}

lk_status lk_glp_solve(const lk_glp *p, int max_pivots, lk_glp_result *result, double *x,
                       double *y, double *objective, int *pivots) {
  return lk_glp_solve_flags(p, max_pivots, 0, result, x, y, objective, pivots);
}

lk_status lk_glp_solve_flags(const lk_glp *p, int max_pivots, int flags, lk_glp_result *result,
                             double *x, double *y, double *objective, int *pivots) {
  if (!p || p->m < 0 || p->n < 0 || (p->m > 0 && (!p->A || !p->b)) || (p->n > 0 && !p->c) ||
      !result)
    return LK_INVALID_ARGUMENT;
  const int m = p->m, n = p->n;
  tableau t;
  memset(&t, 0, sizeof t);
  t.m = m;
  t.n = n;
  t.w = n + m + 1;
  t.T = lk_calloc((size_t)(m + 1) * (size_t)t.w, sizeof(double));
  t.basis = LK_NEW_ARRAY(int, m);
  unsigned char *dead = lk_calloc((size_t)(m > 0 ? m : 1), 1);
  signed char *sign = lk_calloc((size_t)(m > 0 ? m : 1), 1);
  if (!t.T || !t.basis || !dead || !sign) {
    lk_free(t.T);
    lk_free(t.basis);
    lk_free(dead);
    lk_free(sign);
    return LK_OUT_OF_MEMORY;
  }
  t.max_pivots = max_pivots > 0 ? max_pivots : 1000 + 50 * (m + n);
  t.flags = flags;
  double amax = 1, cmax = 1;
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++) amax = fmax(amax, fabs(p->A[(size_t)i * n + j]));
  for (int j = 0; j < n; j++) cmax = fmax(cmax, fabs(p->c[j]));
  t.tol_pivot = 1e-11 * amax;
  double bsum = 0;
  /* Rows with b >= 0 (flipped where needed), artificial basis. */
  for (int i = 0; i < m; i++) {
    sign[i] = p->b[i] < 0 ? -1 : 1;
    for (int j = 0; j < n; j++) TAB(&t, i, j) = sign[i] * p->A[(size_t)i * n + j];
    TAB(&t, i, n + i) = 1.0;
    TAB(&t, i, t.w - 1) = sign[i] * p->b[i];
    bsum += fabs(p->b[i]);
    t.basis[i] = n + i;
  }
  /* Crash basis: a structural column with a single positive entry (a
   * slack, or a variable of that row alone) starts basic in its row; the
   * row's artificial then stays at zero. */
  unsigned char *art = dead; /* reused below as "artificial basic" flags */
  for (int i = 0; i < m; i++) art[i] = 1;
  for (int j = 0; j < n; j++) {
    int row = -1, count = 0;
    for (int i = 0; i < m && count < 2; i++)
      if (TAB(&t, i, j) != 0) {
        row = i;
        count++;
      }
    if (count != 1 || !art[row] || !(TAB(&t, row, j) > 0)) continue;
    double a = TAB(&t, row, j);
    for (int k = 0; k < t.w; k++) TAB(&t, row, k) /= a;
    t.basis[row] = j;
    art[row] = 0;
  }
  /* Phase 1: minimize the sum of the artificials still basic. */
  t.tol_cost = 1e-11 * amax;
  for (int j = 0; j < t.w; j++) {
    double s = 0;
    for (int i = 0; i < m; i++)
      if (art[i]) s += TAB(&t, i, j);
    TAB(&t, m, j) = (j >= n && j < n + m) ? 1.0 - s : -s;
  }
  for (int i = 0; i < m; i++) art[i] = 0;
  lk_status st = LK_OK;
  int rc = run(&t, n, NULL);
  if (rc < 0) st = LK_PIVOT_LIMIT;
  double infeas = -TAB(&t, m, t.w - 1);
  if (!st && infeas > 1e-9 * fmax(1.0, bsum)) {
    *result = LK_GLP_INFEASIBLE;
    if (y)
      for (int i = 0; i < m; i++) y[i] = sign[i] * (1.0 - TAB(&t, m, n + i));
  } else if (!st) {
    /* Drive the artificials still basic (at zero) out of the basis; a row
     * with no structural entry left is redundant. */
    for (int i = 0; i < m; i++) {
      if (t.basis[i] < n) continue;
      int col = -1;
      double best = t.tol_pivot;
      for (int j = 0; j < n; j++)
        if (fabs(TAB(&t, i, j)) > best) {
          best = fabs(TAB(&t, i, j));
          col = j;
        }
      if (col >= 0)
        pivot(&t, i, col);
      else
        dead[i] = 1;
    }
    /* Phase 2: the objective's reduced costs in the current basis. */
    t.tol_cost = 1e-11 * cmax * amax;
    t.degenerate = 0;
    for (int j = 0; j < t.w; j++) {
      double cj = j < n ? p->c[j] : 0.0, s = 0;
      for (int i = 0; i < m; i++) {
        int b = t.basis[i];
        if (b < n) s += p->c[b] * TAB(&t, i, j);
      }
      TAB(&t, m, j) = (j == t.w - 1 ? 0.0 : cj) - s;
    }
    rc = run(&t, n, dead);
    if (rc < 0)
      st = LK_PIVOT_LIMIT;
    else
      *result = rc == 1 ? LK_GLP_UNBOUNDED : LK_GLP_OPTIMAL;
    if (!st && y)
      for (int i = 0; i < m; i++) y[i] = dead[i] ? 0.0 : -sign[i] * TAB(&t, m, n + i);
  }
  if (!st) {
    double obj = 0;
    if (x) memset(x, 0, sizeof(double) * (size_t)n);
    for (int i = 0; i < m; i++) {
      int b = t.basis[i];
      if (b >= n) continue;
      double v = TAB(&t, i, t.w - 1);
      if (v < 0) v = 0;
      if (x) x[b] = v;
      obj += p->c[b] * v;
    }
    if (objective) *objective = obj;
    /* The simplex accepts a basis by its own pivot and cost tolerances; a
     * basis of nearly dependent columns meets them with values of 1e10 and
     * more whose rounding exceeds b itself (two grasp contacts whose line
     * misses the centre of mass by microns "balance" its weight). The
     * answer is held to A x = b with the phase-1 tolerance. */
    if (*result != LK_GLP_INFEASIBLE) {
      double rmax = 0;
      for (int i = 0; i < m; i++) {
        long double r = -(long double)p->b[i];
        for (int k = 0; k < m; k++) {
          int bk = t.basis[k];
          double v = bk < n ? TAB(&t, k, t.w - 1) : 0.0;
          if (bk < n && v > 0) r += (long double)p->A[(size_t)i * n + bk] * v;
        }
        rmax = fmax(rmax, fabs((double)r));
      }
      if (!(rmax <= 1e-9 * fmax(1.0, bsum))) *result = LK_GLP_INACCURATE;
    }
  }
  if (pivots) *pivots = t.pivots;
  lk_free(t.T);
  lk_free(t.basis);
  lk_free(dead);
  lk_free(sign);
  return st;
}
