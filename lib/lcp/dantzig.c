/* Dantzig's principal pivoting method for the boxed LCP, in the form of
 * Baraff's contact-force algorithm (D. Baraff, "Fast contact force
 * computation for nonpenetrating rigid bodies", SIGGRAPH 1994; after
 * Cottle & Dantzig 1968), with box bounds as in ODE's dLCP.
 *
 * Rows are driven one at a time to complementarity while every row already
 * done keeps its condition: clamped rows (set C) keep w = 0 with z inside
 * its bounds, the others keep z at a bound with w of the right sign. Each
 * step moves z along the direction that changes only the driven row's w,
 * as far as the first row that would break its condition, and moves that
 * row between C and its bound (a pivot). The clamped system is updated by
 * one row and column a pivot, never refactored: O(n^2) a pivot with the
 * update of w. (A warm start without friction rows factors its guessed
 * clamped set once, in one elimination: see warm_factor.)
 *
 * Friction-index rows have bounds -+mu_i |z_j| that move with their normal
 * row j. Unlike ODE, which freezes them at the normal force of the moment
 * (so its answers leave the cone when the normals change afterwards), a row
 * at its friction bound here follows its normal, z_i = g_i z_j with
 * g_i = +-mu_i: in the clamped system that adds g_i M[C, i] to the column
 * of j, which makes it non-symmetric (sliding friction). Problems with
 * friction rows therefore keep an explicit inverse of the clamped matrix,
 * updated by bordering and Sherman–Morrison steps; problems without keep
 * the symmetric L D L^T of ldlt.c. Bounds that move with the step are part
 * of the ratio test. A final check re-bounds, repairs and re-drives rows
 * if rounding left the state inconsistent (passes). */
#include <stdint.h>
#include <string.h>

#include "lcp/lcp_internal.h"

/* S_ZERO: w = 0 with z strictly inside its bounds but the row depends on
 * the clamped ones (M positive semidefinite, rank deficient: redundant
 * contacts), so z is held fixed; it joins C as soon as a step would move
 * its w, which only an independent row's w can be. */
enum { S_UNDRIVEN = 0, S_C, S_LO, S_HI, S_ZERO };

typedef struct {
  const lk_lcp *p;
  int n, ldm;
  const double *M;
  double *z, *w, *lo, *hi; /* lo, hi: constant bounds (friction rows: live) */
  double *dz, *dw, *rhs, *tmp, *gval;
  unsigned char *state;
  int *cidx, *cpos, *order, *fhead, *fnext, *nzl;
  int general;   /* explicit inverse with friction coupling, else L D L^T */
  lk_ldlt F;     /* !general */
  double *Ainv;  /* general: k x k, leading dimension lda */
  int lda, k;
  double *A;     /* closure matrix */
  int pivots, max_pivots;
  double pivot_tol, piv_scale, wtol, mmax; /* mmax: max |M_ij|, < 0 until needed */
} dantzig;

static inline const double *row(const dantzig *D, int i) {
  return D->M + (size_t)i * (size_t)D->ldm;
}
static inline int fidx(const dantzig *D, int i) { return lk_lcp_fidx(D->p, i); }
static inline double *ainv(const dantzig *D, int a) { return D->Ainv + (size_t)a * (size_t)D->lda; }

/* Current bounds of row i (friction rows: from their normal's z). */
static void bounds(const dantzig *D, int i, double *lo, double *hi) {
  int j = fidx(D, i);
  if (j >= 0) {
    double b = D->p->mu[i] * fabs(D->z[j]);
    *lo = -b;
    *hi = b;
  } else {
    *lo = D->lo[i];
    *hi = D->hi[i];
  }
}

static double clampd(double x, double lo, double hi) { return x < lo ? lo : (x > hi ? hi : x); }

/* A friction row at a bound whose normal is clamped moves with it. */
static inline int coupled(const dantzig *D, int r) {
  int j = fidx(D, r);
  return j >= 0 && (D->state[r] == S_LO || D->state[r] == S_HI) && D->cpos[j] >= 0;
}
static inline double coupling(const dantzig *D, int r) {
  int j = fidx(D, r);
  return (D->state[r] == S_HI ? 1.0 : -1.0) * D->p->mu[r] * (D->z[j] >= 0 ? 1.0 : -1.0);
}

/* z_i moves by delta: w += delta M[:, i] (= M[i, :], symmetric). */
static void move_z(dantzig *D, int i, double delta) {
  if (delta == 0.0) return;
  D->z[i] += delta;
  lk_lcp_axpy(D->w, delta, row(D, i), D->n);
}

static void full_w(dantzig *D) {
  for (int i = 0; i < D->n; i++) D->w[i] = D->p->q[i] + lk_lcp_dot(row(D, i), D->z, D->n);
}

/* ------------------------------------------------ the clamped system */

/* x <- A^-1 x over the k clamped rows. */
static void cs_solve(const dantzig *D, double *x) {
  if (!D->general) {
    lk_ldlt_solve(&D->F, x);
    return;
  }
  int k = D->k;
  double *t = D->tmp;
  for (int a = 0; a < k; a++) t[a] = lk_lcp_dot(ainv(D, a), x, k);
  memcpy(x, t, (size_t)k * sizeof *x);
}

/* Sherman–Morrison: A += s u e_q^T (s = +-1), with u = g_r M[C, r]. */
static void cs_rank_one(dantzig *D, int r, double s) {
  int k = D->k, q = D->cpos[fidx(D, r)];
  const double *mr = row(D, r);
  double g = s * D->gval[r], *x = D->dw, *t = D->tmp;
  for (int a = 0; a < k; a++) t[a] = g * mr[D->cidx[a]];
  for (int a = 0; a < k; a++) {
    x[a] = lk_lcp_dot_seq(ainv(D, a), t, k); /* A^-1 u */
  }
  double den = 1.0 + x[q];
  const double *rq = ainv(D, q);
  memcpy(t, rq, (size_t)k * sizeof *t); /* row q of A^-1 */
  for (int a = 0; a < k; a++) {
    double f = x[a] / den;
    if (f == 0.0) continue;
    lk_lcp_axpy(ainv(D, a), -f, t, k);
  }
}

static void set_state(dantzig *D, int r, unsigned char st) {
  int was = D->general && coupled(D, r);
  D->state[r] = st;
  int now = D->general && coupled(D, r);
  if (was && !now) cs_rank_one(D, r, -1.0);
  if (now && !was) {
    D->gval[r] = coupling(D, r);
    cs_rank_one(D, r, 1.0);
  }
}

/* Add row j to C if its pivot (Schur complement) exceeds relax * the pivot
 * tolerance in size (relax < 1 when a step has just shown it nonzero) and,
 * with positive, in sign. A row entering from a bound needs a positive
 * pivot, else keeping its w at 0 would push z out of its box at once: that
 * happens only when friction coupling has made the clamped system
 * indefinite, a configuration local pivoting cannot get out of. */
static int add_c(dantzig *D, int j, double relax, int positive) {
  if (D->general && coupled(D, j)) set_state(D, j, S_UNDRIVEN); /* uncouple first */
  int k = D->general ? D->k : D->F.k;
  const double *rj = row(D, j);
  double tol = relax * D->pivot_tol * lk_maxd(fabs(rj[j]), D->piv_scale);
  if (!D->general) {
    for (int c = 0; c < k; c++) D->rhs[c] = rj[D->cidx[c]];
    if (!lk_ldlt_append(&D->F, D->rhs, rj[j], tol)) return 0;
  } else {
    /* Column b = A[C, j], row c = A[j, C], corner d, with the couplings of
     * j's own friction rows in the new column and of the others in the new
     * row. */
    double *bcol = D->rhs, *crow = D->dz, *u = D->dw, *v = D->tmp;
    double d = rj[j];
    for (int a = 0; a < k; a++) {
      bcol[a] = row(D, D->cidx[a])[j];
      crow[a] = rj[D->cidx[a]];
    }
    for (int r = D->fhead[j]; r >= 0; r = D->fnext[r]) {
      if (D->state[r] != S_LO && D->state[r] != S_HI) continue;
      double g = coupling(D, r);
      for (int a = 0; a < k; a++) bcol[a] += g * row(D, D->cidx[a])[r];
      d += g * rj[r];
    }
    for (int a = 0; a < k; a++) {
      int c = D->cidx[a];
      for (int r = D->fhead[c]; r >= 0; r = D->fnext[r])
        if (D->state[r] == S_LO || D->state[r] == S_HI) crow[a] += D->gval[r] * rj[r];
    }
    for (int a = 0; a < k; a++) {
      u[a] = lk_lcp_dot_seq(ainv(D, a), bcol, k); /* A^-1 b */
    }
    for (int b = 0; b < k; b++) v[b] = 0.0;
    for (int a = 0; a < k; a++) {
      const double *ra = ainv(D, a);
      double ca = crow[a];
      if (ca == 0.0) continue;
      lk_lcp_axpy(v, ca, ra, k); /* c^T A^-1 */
    }
    double s = d;
    for (int a = 0; a < k; a++) s -= crow[a] * u[a];
    if (!(fabs(s) > tol) || (positive && !(s > 0.0))) return 0;
    double inv = 1.0 / s;
    for (int a = 0; a < k; a++) {
      double *ra = ainv(D, a);
      double f = u[a] * inv;
      if (f != 0.0) lk_lcp_axpy(ra, f, v, k);
      ra[k] = -f;
    }
    double *rk = ainv(D, k);
    for (int b = 0; b < k; b++) rk[b] = -v[b] * inv;
    rk[k] = inv;
    D->k = k + 1;
  }
  D->cidx[k] = j;
  D->cpos[j] = k;
  D->state[j] = S_C;
  if (D->general)
    for (int r = D->fhead[j]; r >= 0; r = D->fnext[r])
      if (D->state[r] == S_LO || D->state[r] == S_HI) D->gval[r] = coupling(D, r);
  return 1;
}

static void remove_c(dantzig *D, int j, unsigned char new_state) {
  int p = D->cpos[j];
  int k = D->general ? D->k : D->F.k;
  if (!D->general) {
    lk_ldlt_remove(&D->F, p);
  } else {
    /* The inverse of A without row and column p. */
    double s = ainv(D, p)[p];
    double *y = D->tmp;
    memcpy(y, ainv(D, p), (size_t)k * sizeof *y);
    for (int a = 0; a < k; a++) {
      if (a == p) continue;
      double *ra = ainv(D, a);
      double f = ra[p] / s;
      if (f != 0.0) lk_lcp_axpy(ra, -f, y, k);
    }
    for (int a = 0; a < k; a++) {
      double *ra = ainv(D, a);
      memmove(ra + p, ra + p + 1, (size_t)(k - p - 1) * sizeof *ra);
    }
    for (int a = p; a < k - 1; a++) memcpy(ainv(D, a), ainv(D, a + 1), (size_t)(k - 1) * sizeof(double));
    D->k = k - 1;
  }
  for (int c = p; c < k - 1; c++) {
    D->cidx[c] = D->cidx[c + 1];
    D->cpos[D->cidx[c]] = c;
  }
  D->cpos[j] = -1;
  D->state[j] = S_UNDRIVEN;
  set_state(D, j, new_state); /* a friction row may now follow its normal */
}

static int nclamped(const dantzig *D) { return D->general ? D->k : D->F.k; }

/* Friction rows at a bound follow their normal exactly. */
static void snap_coupled(dantzig *D) {
  if (!D->general) return;
  for (int r = 0; r < D->n; r++)
    if (D->state[r] == S_LO || D->state[r] == S_HI) {
      if (fidx(D, r) < 0) continue;
      double lo, hi;
      bounds(D, r, &lo, &hi);
      D->z[r] = D->state[r] == S_HI ? hi : lo;
    }
}

/* z_C from the clamped system given the others: M_CC z_C + couplings =
 * -(q_C + M_C,N z_N), then iterative refinement against M itself. */
static void solve_c(dantzig *D, int refine) {
  int k = nclamped(D), n = D->n, m = 0;
  if (k == 0) return;
  /* The columns the first solve moves to the right-hand side: outside C,
   * not coupled to it, and with z != 0 (the others add nothing). */
  for (int j = 0; j < n; j++)
    if (D->cpos[j] < 0 && D->z[j] != 0.0 && !(D->general && coupled(D, j))) D->nzl[m++] = j;
  for (int it = 0; it <= refine; it++) {
    for (int c = 0; c < k; c++) {
      const double *r = row(D, D->cidx[c]);
      double s = D->p->q[D->cidx[c]];
      if (it == 0) {
        for (int a = 0; a < m; a++) s += r[D->nzl[a]] * D->z[D->nzl[a]];
      } else {
        s += lk_lcp_dot(r, D->z, n); /* the residual of row c */
      }
      D->rhs[c] = -s;
    }
    cs_solve(D, D->rhs);
    for (int c = 0; c < k; c++) {
      if (it == 0)
        D->z[D->cidx[c]] = D->rhs[c];
      else
        D->z[D->cidx[c]] += D->rhs[c];
    }
    snap_coupled(D);
  }
}

/* --------------------------------------------------------- driving */

/* Rate of change of row x's bounds along the step (friction rows). */
static void bound_rates(const dantzig *D, int x, int i, double dir, double *dlo, double *dhi) {
  *dlo = *dhi = 0.0;
  int j = fidx(D, x);
  if (j < 0) return;
  double dzj = j == i ? dir : (D->cpos[j] >= 0 ? D->dz[D->cpos[j]] : 0.0);
  double db = D->p->mu[x] * (D->z[j] >= 0 ? 1.0 : -1.0) * dzj;
  *dlo = -db;
  *dhi = db;
}

/* max_ij |M_ij|. */
static double matrix_max(const dantzig *D) {
  double m = 0.0;
  for (int i = 0; i < D->n; i++) {
    const double *r = row(D, i);
    for (int j = 0; j < D->n; j++) m = lk_maxd(m, fabs(r[j]));
  }
  return m;
}

/* Drive row i until it satisfies its condition. */
static lk_status drive(dantzig *D, int i) {
  int n = D->n, zero_steps = 0;
  double lo, hi;
  bounds(D, i, &lo, &hi);
  move_z(D, i, clampd(D->z[i], lo, hi) - D->z[i]);
  for (;;) {
    double wi = D->w[i], zi = D->z[i];
    bounds(D, i, &lo, &hi);
    if (lo == hi || (zi <= lo && wi >= -D->wtol)) {
      move_z(D, i, lo - zi);
      set_state(D, i, S_LO);
      return LK_OK;
    }
    if (zi >= hi && wi <= D->wtol) {
      move_z(D, i, hi - zi);
      set_state(D, i, S_HI);
      return LK_OK;
    }
    if (fabs(wi) <= D->wtol) {
      if (!add_c(D, i, 1.0, 0)) set_state(D, i, S_ZERO); /* interior, dependent on C */
      return LK_OK;
    }
    if (D->pivots >= D->max_pivots) return LK_PIVOT_LIMIT;
    double dir = wi < 0 ? 1.0 : -1.0;
    int k = nclamped(D);
    const double *ri = row(D, i);
    /* Friction rows of the driven row at a zero-width bound take the side
     * their w asks for, then move with it. */
    if (D->general)
      for (int r = D->fhead[i]; r >= 0; r = D->fnext[r]) {
        if (D->state[r] != S_LO && D->state[r] != S_HI) continue;
        double rl, rh;
        bounds(D, r, &rl, &rh);
        if (rl == rh) D->state[r] = D->w[r] < 0 ? S_HI : S_LO;
        D->gval[r] = coupling(D, r);
      }
    /* The direction: dz_C solves the clamped system for w_C to stay 0. */
    for (int c = 0; c < k; c++) {
      const double *rc = row(D, D->cidx[c]);
      double s = ri[D->cidx[c]];
      if (D->general)
        for (int r = D->fhead[i]; r >= 0; r = D->fnext[r])
          if (D->state[r] == S_LO || D->state[r] == S_HI) s += D->gval[r] * rc[r];
      D->rhs[c] = -dir * s;
    }
    cs_solve(D, D->rhs);
    memcpy(D->dz, D->rhs, (size_t)k * sizeof *D->dz);
    double dzmax = 1.0;
    for (int c = 0; c < k; c++) dzmax = lk_maxd(dzmax, fabs(D->dz[c]));
    for (int j = 0; j < n; j++) D->dw[j] = dir * ri[j];
    for (int c = 0; c < k; c++) {
      double dzc = D->dz[c];
      if (dzc == 0.0) continue;
      lk_lcp_axpy(D->dw, dzc, row(D, D->cidx[c]), n);
    }
    /* Followers: friction rows at a bound of a moving normal. */
    double *dzf = D->tmp;
    for (int r = 0; r < n; r++) {
      dzf[r] = 0.0;
      if (!D->general || (D->state[r] != S_LO && D->state[r] != S_HI)) continue;
      int j = fidx(D, r);
      if (j < 0) continue;
      double dzj = j == i ? dir : (D->cpos[j] >= 0 ? D->dz[D->cpos[j]] : 0.0);
      if (dzj == 0.0) continue;
      dzf[r] = coupling(D, r) * dzj;
      lk_lcp_axpy(D->dw, dzf[r], row(D, r), n);
    }
    double dwmax = 0.0;
    for (int j = 0; j < n; j++)
      if (D->state[j] != S_C) dwmax = lk_maxd(dwmax, fabs(D->dw[j]));
    /* Changes below rounding level of the sums that made them are zero. */
    if (D->mmax < 0) D->mmax = matrix_max(D);
    double dwtol = lk_maxd(1e-12 * dwmax, 1e-12 * D->mmax * dzmax), dztol = 1e-12 * dzmax;
    /* The first event along the direction. Ties keep the earlier kind:
     * finishing row i first, then clamped rows, then bounded ones. */
    int ev = 0, evj = -1, evup = 0;
    double t = INFINITY, dlo, dhi;
    double dwi = D->dw[i];
    if (dir * dwi > dwtol && dir * dwi > D->pivot_tol * D->piv_scale) {
      t = lk_maxd(-wi / dwi, 0.0);
      ev = 1;
    }
    bound_rates(D, i, i, dir, &dlo, &dhi);
    if (dir > 0 && dir - dhi > dztol && hi < INFINITY) {
      double tb = lk_maxd((hi - zi) / (dir - dhi), 0.0);
      if (tb < t) t = tb, ev = 2;
    } else if (dir < 0 && dlo - dir > dztol && lo > -INFINITY) {
      double tb = lk_maxd((zi - lo) / (dlo - dir), 0.0);
      if (tb < t) t = tb, ev = 2;
    }
    for (int c = 0; c < k; c++) {
      int j = D->cidx[c];
      double jl, jh, tj, dzc = D->dz[c];
      bounds(D, j, &jl, &jh);
      bound_rates(D, j, i, dir, &dlo, &dhi);
      int up;
      if (dzc - dhi > dztol && jh < INFINITY) {
        tj = (jh - D->z[j]) / (dzc - dhi);
        up = 1;
      } else if (dzc - dlo < -dztol && jl > -INFINITY) {
        tj = (jl - D->z[j]) / (dzc - dlo);
        up = 0;
      } else {
        continue;
      }
      tj = lk_maxd(tj, 0.0);
      if (tj < t) t = tj, ev = 3, evj = j, evup = up;
    }
    for (int j = 0; j < n; j++) {
      double tj;
      int st = D->state[j];
      if (j == i || st == S_C || st == S_UNDRIVEN) continue;
      if (st != S_ZERO) {
        /* A zero-width row that stays zero-width may have any w. */
        double jl, jh;
        bounds(D, j, &jl, &jh);
        if (jl == jh && dzf[j] == 0.0) continue;
      }
      if (st == S_ZERO && fabs(D->dw[j]) > dwtol)
        tj = 0.0;
      else if (st == S_LO && D->dw[j] < -dwtol)
        tj = -D->w[j] / D->dw[j];
      else if (st == S_HI && D->dw[j] > dwtol)
        tj = -D->w[j] / D->dw[j];
      else
        continue;
      tj = lk_maxd(tj, 0.0);
      if (tj < t) t = tj, ev = 4, evj = j;
    }
    if (ev == 0) return LK_NO_SOLUTION; /* z_i can move forever: unbounded */
    /* Degenerate steps that go on longer than any sequence of distinct
     * index sets of this size would: cycling. */
    zero_steps = t > 0.0 ? 0 : zero_steps + 1;
    if (zero_steps > 2 * n + 10) return LK_NOT_CONVERGED;
    D->z[i] += dir * t;
    for (int c = 0; c < k; c++) D->z[D->cidx[c]] += t * D->dz[c];
    for (int r = 0; r < n; r++)
      if (dzf[r] != 0.0) D->z[r] += t * dzf[r];
    for (int j = 0; j < n; j++) D->w[j] += t * D->dw[j];
    snap_coupled(D);
    D->pivots++;
    switch (ev) {
      case 1:
        D->w[i] = 0.0;
        if (!add_c(D, i, 1e-3, 1)) set_state(D, i, S_ZERO);
        return LK_OK;
      case 2: {
        bounds(D, i, &lo, &hi);
        move_z(D, i, (dir > 0 ? hi : lo) - D->z[i]);
        set_state(D, i, dir > 0 ? S_HI : S_LO);
        return LK_OK;
      }
      case 3: {
        double jl, jh;
        bounds(D, evj, &jl, &jh);
        remove_c(D, evj, evup ? S_HI : S_LO);
        move_z(D, evj, (evup ? jh : jl) - D->z[evj]);
        break;
      }
      default:
        /* A row whose w is moving is independent of C in exact arithmetic;
         * failing that here means the clamped block is numerically
         * singular. */
        D->w[evj] = 0.0;
        if (add_c(D, evj, 1e-3, D->state[evj] != S_ZERO)) break;
        if (!D->general) return LK_SINGULAR;
        /* A normal closing with its friction rows pinned at a zero-width
         * bound: the coupling can make its pivot negative. Let those rows
         * go (undriven, z = 0) and take the normal alone; they are driven
         * again afterwards. */
        for (int r = D->fhead[evj]; r >= 0; r = D->fnext[r])
          if (D->state[r] == S_LO || D->state[r] == S_HI) set_state(D, r, S_UNDRIVEN);
        if (!add_c(D, evj, 1e-3, D->state[evj] != S_ZERO)) return LK_NOT_CONVERGED;
        break;
    }
  }
}

/* Make the state consistent again (after a warm start or a pass that
 * rounding left inexact): friction rows at a bound follow it, z_C is
 * re-solved, clamped rows outside their box and bounded rows whose w has
 * the wrong sign become undriven. Returns the number of undriven rows. */
static int repair(dantzig *D) {
  int n = D->n;
  for (;;) {
    for (int i = 0; i < n; i++) {
      double lo, hi;
      bounds(D, i, &lo, &hi);
      if (D->state[i] == S_LO) D->z[i] = lo;
      if (D->state[i] == S_HI) D->z[i] = hi;
    }
    solve_c(D, 1);
    int worst = -1;
    double wv = 0.0;
    for (int c = 0; c < nclamped(D); c++) {
      int j = D->cidx[c];
      double lo, hi, zj = D->z[j];
      bounds(D, j, &lo, &hi);
      double v = lk_maxd(lo - zj, zj - hi), tol = 1e-12 * (1.0 + fabs(zj));
      if (v > tol && v > wv) {
        wv = v;
        worst = j;
      }
    }
    if (worst < 0) break;
    remove_c(D, worst, S_UNDRIVEN);
    double lo, hi;
    bounds(D, worst, &lo, &hi);
    D->z[worst] = clampd(D->z[worst], lo, hi);
  }
  full_w(D);
  int undriven = 0;
  for (int i = 0; i < n; i++) {
    int st = D->state[i];
    double lo, hi;
    bounds(D, i, &lo, &hi);
    if ((st == S_LO && D->w[i] < -D->wtol && lo < hi) ||
        (st == S_HI && D->w[i] > D->wtol && lo < hi) ||
        (st == S_ZERO && (fabs(D->w[i]) > D->wtol || D->z[i] < lo || D->z[i] > hi)))
      set_state(D, i, S_UNDRIVEN);
    undriven += D->state[i] == S_UNDRIVEN;
  }
  return undriven;
}

static lk_status drive_undriven(dantzig *D) {
  for (int a = 0; a < D->n; a++) {
    int i = D->order[a];
    if (D->state[i] != S_UNDRIVEN) continue;
    lk_status s = drive(D, i);
    if (s != LK_OK) return s;
  }
  return LK_OK;
}

/* Warm start without friction-index rows, fast path: the rows the guess
 * clamps are factored in one elimination, in index order (which keeps the
 * band of contact problems: contacts that share no body share no entry),
 * instead of by one append each in drive order. The states are those the
 * appends would give. Returns 0, leaving everything as it was, when a
 * clamped row depends on the ones before it: then the appends decide
 * which rows stay out, as without this path. */
static int warm_factor(dantzig *D, const unsigned char *g) {
  int n = D->n, k = 0;
  for (int i = 0; i < n; i++) {
    double lo = D->lo[i], hi = D->hi[i];
    if (lo != hi && (g[i] == LK_LCP_BASIC || (isinf(lo) && isinf(hi)))) D->cidx[k++] = i;
  }
  if (lk_ldlt_factor(&D->F, D->M, D->ldm, D->cidx, k, D->pivot_tol, D->piv_scale) < k) {
    D->F.k = 0;
    return 0;
  }
  for (int c = 0; c < k; c++) {
    D->cpos[D->cidx[c]] = c;
    D->state[D->cidx[c]] = S_C;
  }
  for (int i = 0; i < n; i++) {
    double lo = D->lo[i], hi = D->hi[i];
    if (lo == hi) {
      D->z[i] = lo;
      D->state[i] = S_LO;
    } else if (D->state[i] == S_C) {
      continue;
    } else if (g[i] == LK_LCP_LOWER && lo > -INFINITY) {
      D->state[i] = S_LO;
    } else if (g[i] == LK_LCP_UPPER && hi < INFINITY) {
      D->state[i] = S_HI;
    }
  }
  return 1;
}

/* The warm start's clamped set as it stands (see warm_factor): z_C from
 * one solve and one step of iterative refinement; accepted without a pivot
 * when repair() would find nothing to repair (every row in its condition)
 * and the residual is what the pass loop accepts. The residual, with w
 * into the caller's array, is the final check (v). Returns 0 otherwise,
 * with the state still a valid start for the passes. */
static int warm_exact(dantzig *D, const lk_lcp_options *o, double *w, lk_lcp_verified *v) {
  int n = D->n, k = D->F.k;
  for (int i = 0; i < n; i++) {
    int st = D->state[i];
    if (st == S_UNDRIVEN) return 0;
    if (st == S_LO) D->z[i] = D->lo[i];
    if (st == S_HI) D->z[i] = D->hi[i];
  }
  solve_c(D, 0);
  for (int c = 0; c < k; c++) {
    int j = D->cidx[c];
    double zj = D->z[j], viol = lk_maxd(D->lo[j] - zj, zj - D->hi[j]);
    if (viol > 1e-12 * (1.0 + fabs(zj))) return 0;
  }
  double scale, res = lk_lcp_residual_scaled(D->p, D->z, NULL, w, &scale, NULL);
  for (int i = 0; i < n; i++) {
    int st = D->state[i];
    if (D->lo[i] < D->hi[i] && ((st == S_LO && w[i] < -D->wtol) || (st == S_HI && w[i] > D->wtol)))
      return 0;
  }
  if (!(res <= 0.1 * o->tol * scale)) return 0;
  v->done = 1;
  v->residual = res;
  v->scale = scale;
  return 1;
}

static void write_basis(const dantzig *D, unsigned char *out) {
  for (int i = 0; i < D->n; i++)
    out[i] = (D->state[i] == S_C || D->state[i] == S_ZERO)
                 ? LK_LCP_BASIC
                 : (D->state[i] == S_HI ? LK_LCP_UPPER : LK_LCP_LOWER);
}

/* A successful frictionless run leaves its clamped block's factor (D.F,
 * columns in the order of D.cidx, both in ws) for lk_lcp_last_factor. */
static void keep_factor(const dantzig *D, lk_lcp_workspace *ws) {
  if (D->general) return;
  ws->fk = D->F.k;
  ws->fhas_last = D->F.has_last;
}

/* Whether M_ij and M_ji have the same bits for every i, j: the exact
 * symmetry of a matrix assembled by halves, tested on the bits (an integer
 * xor, cheaper than a floating-point compare; +0 and -0 only make the
 * caller measure the asymmetry). */
static int bitwise_symmetric(const double *M, int ldm, int n) {
  uint64_t diff = 0;
  for (int i = 1; i < n; i++) {
    const double *r = M + (size_t)i * (size_t)ldm, *c = M + i;
    size_t s = (size_t)ldm;
    int j = 0;
    for (; j + 2 <= i; j += 2) { /* unrolled: the loop costs as much as the test */
      uint64_t a0, a1, b0, b1;
      memcpy(&a0, r + j, sizeof a0);
      memcpy(&a1, r + j + 1, sizeof a1);
      memcpy(&b0, c + (size_t)j * s, sizeof b0);
      memcpy(&b1, c + (size_t)(j + 1) * s, sizeof b1);
      diff |= (a0 ^ b0) | (a1 ^ b1);
    }
    for (; j < i; j++) {
      uint64_t a, b;
      memcpy(&a, r + j, sizeof a);
      memcpy(&b, c + (size_t)j * s, sizeof b);
      diff |= a ^ b;
    }
    if (diff) return 0;
  }
  return 1;
}

/* One Dantzig solve from o's warm start (or cold), without the Lemke
 * fallback; on failure the basis it got stuck in is left in ws->bvec[1]. */
/* The one refusal the Lemke fallback answers (dantzig_solve). */
static const char kNeedsSymmetric[] = "Dantzig needs a symmetric M (use Lemke)";

static lk_status dantzig_run(const lk_lcp *p, const lk_lcp_options *o, lk_lcp_workspace *ws,
                             double *z, double *wout, lk_lcp_report *rep, lk_lcp_verified *v) {
  int n = p->n;
  dantzig D;
  memset(&D, 0, sizeof D);
  D.p = p;
  D.n = n;
  D.ldm = lk_lcp_ldm(p);
  D.M = p->M;
  D.z = z;
  D.w = ws->vec[0];
  D.lo = ws->vec[1];
  D.hi = ws->vec[2];
  D.dz = ws->vec[3];
  D.dw = ws->vec[4];
  D.rhs = ws->vec[5];
  D.tmp = ws->vec[9];
  D.gval = ws->vec[8];
  D.state = ws->bvec[0];
  D.cidx = ws->ivec[0];
  D.cpos = ws->ivec[1];
  D.order = ws->ivec[2];
  D.fhead = ws->ivec[3];
  D.fnext = ws->ivec[4];
  D.nzl = ws->ivec[5];
  D.F.ld = ws->nmax;
  D.F.L = ws->mat[0];
  D.F.d = ws->vec[6];
  D.F.tmp = ws->vec[7];
  D.F.last = ws->ivec[6];
  D.F.has_last = 0;
  D.F.k = 0;
  D.Ainv = ws->mat[0];
  D.lda = ws->nmax;
  D.A = ws->mat[1];
  D.pivot_tol = o->pivot_tol;
  D.max_pivots = o->max_pivots > 0 ? o->max_pivots : 1000 + 100 * n;

  /* Symmetry is what lets rows of M stand for its columns (and the
   * frictionless clamped block be factored as L D L^T): |M_ij - M_ji| <=
   * 1e-10 max |M|. Exact symmetry (what a Delassus matrix assembled by
   * halves has) is checked first, without the largest entry, which only
   * pivoting needs; not at all when the caller says M is symmetric (a
   * wrong claim cannot pass the final residual check). */
  double dmax = 0.0, qmax = 0.0;
  D.mmax = -1.0;
  if (!o->symmetric && !bitwise_symmetric(D.M, D.ldm, n)) {
    double asym = 0.0;
    for (int i = 0; i < n; i++) {
      const double *r = row(&D, i), *c = D.M + i;
      size_t ldm = (size_t)D.ldm;
      for (int j = 0; j < i; j++) asym = lk_maxd(asym, fabs(r[j] - c[(size_t)j * ldm]));
    }
    D.mmax = matrix_max(&D);
    if (asym > 1e-10 * D.mmax) {
      rep->detail = kNeedsSymmetric;
      return LK_UNSUPPORTED;
    }
  }
  for (int i = 0; i < n; i++) {
    dmax = lk_maxd(dmax, fabs(row(&D, i)[i]));
    qmax = lk_maxd(qmax, fabs(p->q[i]));
  }
  D.piv_scale = dmax > 0 ? dmax : 1.0;
  int nfind = 0, k = 0;
  for (int i = 0; i < n; i++) D.fhead[i] = D.fnext[i] = -1;
  for (int i = n - 1; i >= 0; i--) {
    int j = lk_lcp_fidx(p, i);
    if (j < 0) continue;
    D.fnext[i] = D.fhead[j];
    D.fhead[j] = i;
    nfind++;
  }
  D.general = nfind > 0;
  for (int i = 0; i < n; i++) {
    D.lo[i] = lk_lcp_lo(p, i);
    D.hi[i] = lk_lcp_hi(p, i);
    D.z[i] = lk_lcp_fidx(p, i) >= 0 ? 0.0 : clampd(0.0, D.lo[i], D.hi[i]);
    D.state[i] = S_UNDRIVEN;
    D.cpos[i] = -1;
  }

  rep->warm = LK_LCP_COLD;
  int fast = o->basis_in && !D.general && warm_factor(&D, o->basis_in);
  /* Drive order (not needed by an exact warm start): free rows, then the
   * other constant-bound rows, then friction rows (their normals are known
   * by then). */
  if (!fast)
    for (int pass = 0; pass < 3; pass++)
      for (int i = 0; i < n; i++) {
        int f = lk_lcp_fidx(p, i) >= 0;
        int fr = !f && isinf(lk_lcp_lo(p, i)) && isinf(lk_lcp_hi(p, i));
        if ((pass == 0 && fr) || (pass == 1 && !fr && !f) || (pass == 2 && f)) D.order[k++] = i;
      }
  if (o->basis_in && !fast) {
    /* Normals first, so that their friction rows find them clamped. */
    for (int a = 0; a < n; a++) {
      int i = D.order[a];
      unsigned char g = o->basis_in[i];
      int f = lk_lcp_fidx(p, i) >= 0;
      double lo = D.lo[i], hi = D.hi[i];
      if (!f && isinf(lo) && isinf(hi)) g = LK_LCP_BASIC;
      if (!f && lo == hi) {
        D.z[i] = lo;
        set_state(&D, i, S_LO);
      } else if (g == LK_LCP_BASIC) {
        add_c(&D, i, 1.0, 0); /* a dependent row stays undriven */
      } else if (g == LK_LCP_LOWER && (f || lo > -INFINITY)) {
        set_state(&D, i, S_LO);
      } else if (g == LK_LCP_UPPER && (f || hi < INFINITY)) {
        set_state(&D, i, S_HI);
      }
    }
  }
  D.wtol = 1e-13 * (1.0 + qmax);
  if (fast && warm_exact(&D, o, wout, v)) {
    /* The guess was the solution: no pivot, and the check is made. */
    keep_factor(&D, ws);
    rep->warm = LK_LCP_WARM_EXACT;
    rep->passes = 1;
    rep->pivots = 0;
    rep->detail = "solved";
    if (o->basis_out) write_basis(&D, o->basis_out);
    return LK_OK;
  }
  if (fast)
    for (int pass = 0; pass < 3; pass++)
      for (int i = 0; i < n; i++) {
        int fr = isinf(D.lo[i]) && isinf(D.hi[i]); /* no friction rows here */
        if ((pass == 0 && fr) || (pass == 1 && !fr)) D.order[k++] = i;
      }
  /* A warm start's first pass begins with repair(), which sets w itself. */
  if (!o->basis_in) full_w(&D);

  lk_status s = LK_OK;
  int passes;
  for (passes = 1; passes <= o->max_passes; passes++) {
    if (passes > 1 || o->basis_in) {
      int undriven = repair(&D);
      if (o->basis_in && passes == 1)
        rep->warm = undriven == 0 ? LK_LCP_WARM_EXACT
                                  : (undriven < n ? LK_LCP_WARM_REPAIRED : LK_LCP_WARM_FELL_BACK);
    }
    s = drive_undriven(&D);
    if (s != LK_OK) break;
    solve_c(&D, 2);
    /* Into the caller's w: when it passes, this is the final check (the
     * next pass, if any, recomputes D.w). */
    double scale, res = lk_lcp_residual_scaled(p, z, NULL, wout, &scale, NULL);
    if (res <= 0.1 * o->tol * scale) {
      v->done = 1;
      v->residual = res;
      v->scale = scale;
      break;
    }
  }
  if (passes > o->max_passes) {
    passes = o->max_passes;
    s = LK_NOT_CONVERGED;
    rep->detail = "rounding left the state inconsistent after every pass";
  }
  if (rep->warm == LK_LCP_WARM_EXACT && D.pivots > 0) rep->warm = LK_LCP_WARM_REPAIRED;
  rep->passes = passes;
  rep->pivots = D.pivots;
  if (s == LK_OK) {
    rep->detail = "solved";
  } else if (s == LK_NO_SOLUTION) {
    rep->detail = "unbounded direction: no solution (M not positive semidefinite or infeasible)";
  } else if (s == LK_SINGULAR) {
    rep->detail = "a row depends on the clamped set (singular principal block)";
  } else if (s == LK_PIVOT_LIMIT) {
    rep->detail = "pivot limit reached";
  }
  for (int i = 0; i < n; i++)
    if (!isfinite(z[i])) z[i] = 0.0;
  if (o->basis_out) write_basis(&D, o->basis_out);
  if (s != LK_OK) write_basis(&D, ws->bvec[1]);
  if (s == LK_OK) keep_factor(&D, ws);
  return s;
}

static lk_status dantzig_solve(const lk_lcp *p, const lk_lcp_options *o, lk_lcp_workspace *ws,
                               double *z, double *wout, lk_lcp_report *rep, lk_lcp_verified *v) {
  lk_status s = dantzig_run(p, o, ws, z, wout, rep, v);
  /* A non-symmetric M is not Dantzig's (its rows would not stand for its
   * columns) but is Lemke's: handed over below, from the caller's warm
   * start if any. */
  int asym = s == LK_UNSUPPORTED && rep->detail == kNeedsSymmetric;
  if (s == LK_UNSUPPORTED && !asym) return s; /* not a problem for Dantzig at all */
  if (s != LK_OK && !asym && o->basis_in) {
    /* A warm start can lead the principal pivoting where it cannot finish
     * (contact LCPs whose rolling and friction rows changed since the
     * guess) though the cold drive order, free rows, then normals, then
     * their friction rows, finishes: once more, cold. */
    lk_lcp_options co = *o;
    co.basis_in = NULL;
    lk_lcp_report cr;
    memset(&cr, 0, sizeof cr);
    v->done = 0;
    s = dantzig_run(p, &co, ws, z, wout, &cr, v);
    cr.pivots += rep->pivots;
    cr.warm = LK_LCP_WARM_FELL_BACK;
    *rep = cr;
    if (s == LK_OK) rep->detail = "solved cold after the warm start could not finish";
  }
  if (s != LK_OK && s != LK_PIVOT_LIMIT) {
    /* The recorded fallback: Lemke, which follows a global path where
     * local pivoting gets stuck, when the workspace has room for the
     * rows it adds (one per boxed or friction row). */
    int ok, ne = lk_lcp_expansion_size(p, &ok);
    if (ok && ne <= ws->nmax) {
      /* Lemke starts from where Dantzig got stuck: most rows are right. */
      lk_lcp_options lo = *o;
      lo.basis_in = asym ? o->basis_in : ws->bvec[1];
      lk_lcp_report lr;
      memset(&lr, 0, sizeof lr);
      v->done = 0;
      lk_status ls = lk_lcp_lemke->solve(p, &lo, ws, z, wout, &lr, v);
      rep->pivots += lr.pivots;
      rep->restarts = lr.restarts;
      rep->ray_certified = lr.ray_certified;
      rep->fallback = 1;
      if (asym)
        rep->detail = ls == LK_OK ? "M is not symmetric: solved by the Lemke fallback"
                                  : "M is not symmetric, and the Lemke fallback failed";
      else
        rep->detail = ls == LK_OK ? "Dantzig could not finish; solved by the Lemke fallback"
                                  : "Dantzig could not finish, nor could the Lemke fallback";
      if (asym) rep->warm = lr.warm;
      if (ls == LK_NO_SOLUTION && lr.ray_certified)
        rep->detail = "no solution: the Lemke fallback found a certificate of infeasibility";
      return ls;
    }
  }
  return s;
}

static const lk_lcp_solver dantzig_type = {"dantzig", dantzig_solve, 0};
const lk_lcp_solver *const lk_lcp_dantzig = &dantzig_type;
