/* Dantzig's principal pivoting method for the boxed LCP, in the form of
 * Baraff's contact-force algorithm (D. Baraff, "Fast contact force
 * computation for nonpenetrating rigid bodies", SIGGRAPH 1994; Cottle &
 * Dantzig 1968), with box bounds as in ODE's dLCP.
 *
 * Rows are driven one at a time to complementarity while every row already
 * done keeps its condition: clamped rows (set C) keep w = 0 with z inside
 * its bounds, the others keep z at a bound with w of the right sign. Each
 * step moves z along the direction that changes only the driven row's w,
 * as far as the first row that would break its condition, and moves that
 * row between C and its bound (a pivot). The L D L^T factorization of
 * M_CC is updated by one row and column a pivot (ldlt.c), O(n^2) with the
 * update of w, never refactored.
 *
 * Friction-index rows have bounds mu_i |z_j| that move with z. A pass
 * solves with the bounds frozen at the values of z when each row is
 * driven (ODE's scheme, whose answer violates the cone when the normal
 * forces change afterwards); further passes re-bound the rows, repair the
 * index sets that no longer fit and drive the rows that broke, until the
 * residual with the true bounds is under the tolerance. */
#include <string.h>
#ifdef LK_TRACE
#include <stdio.h>
#endif

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
  double *z, *w, *lo, *hi;
  double *dz, *dw, *rhs;
  double *A; /* closure matrix, leading dimension lda */
  int lda;
  unsigned char *state;
  int *cidx, *cpos, *order;
  lk_ldlt F;
  int pivots, max_pivots;
  double pivot_tol, piv_scale, wtol, qmax, mmax;
} dantzig;

static inline const double *row(const dantzig *D, int i) {
  return D->M + (size_t)i * (size_t)D->ldm;
}

/* z_i moves by delta: w += delta M[:, i] (= M[i, :], symmetric). */
static void move_z(dantzig *D, int i, double delta) {
  if (delta == 0.0) return;
  const double *r = row(D, i);
  D->z[i] += delta;
  for (int j = 0; j < D->n; j++) D->w[j] += delta * r[j];
}

static void full_w(dantzig *D) {
  for (int i = 0; i < D->n; i++) {
    const double *r = row(D, i);
    double s = D->p->q[i];
    for (int j = 0; j < D->n; j++) s += r[j] * D->z[j];
    D->w[i] = s;
  }
}

/* Add row j to C if its Schur complement exceeds relax * the pivot
 * tolerance (relax < 1 when a step has just shown it to be positive). */
static int add_c(dantzig *D, int j, double relax) {
  int k = D->F.k;
  const double *r = row(D, j);
  for (int c = 0; c < k; c++) D->rhs[c] = r[D->cidx[c]];
  double tol = relax * D->pivot_tol * fmax(fabs(r[j]), D->piv_scale);
  if (!lk_ldlt_append(&D->F, D->rhs, r[j], tol)) return 0;
  D->cidx[k] = j;
  D->cpos[j] = k;
  D->state[j] = S_C;
  return 1;
}

static void remove_c(dantzig *D, int j, unsigned char new_state) {
  int p = D->cpos[j], k = D->F.k;
  lk_ldlt_remove(&D->F, p);
  for (int c = p; c < k - 1; c++) {
    D->cidx[c] = D->cidx[c + 1];
    D->cpos[D->cidx[c]] = c;
  }
  D->cpos[j] = -1;
  D->state[j] = new_state;
}

/* z_C from the factorization: M_CC z_C = -(q_C + M_C,N z_N). */
static void solve_c(dantzig *D) {
  int k = D->F.k;
  for (int c = 0; c < k; c++) {
    const double *r = row(D, D->cidx[c]);
    double s = D->p->q[D->cidx[c]];
    for (int j = 0; j < D->n; j++)
      if (D->cpos[j] < 0 && D->z[j] != 0.0) s += r[j] * D->z[j];
    D->rhs[c] = -s;
  }
  lk_ldlt_solve(&D->F, D->rhs);
  for (int c = 0; c < k; c++) D->z[D->cidx[c]] = D->rhs[c];
}

/* solve_c, then iterative refinement against the residual of the clamped
 * rows computed from M itself. */
static void polish(dantzig *D, int iters) {
  int k = D->F.k;
  solve_c(D);
  for (int it = 0; it < iters && k > 0; it++) {
    for (int c = 0; c < k; c++) {
      const double *r = row(D, D->cidx[c]);
      double s = D->p->q[D->cidx[c]];
      for (int j = 0; j < D->n; j++) s += r[j] * D->z[j];
      D->rhs[c] = -s;
    }
    lk_ldlt_solve(&D->F, D->rhs);
    for (int c = 0; c < k; c++) D->z[D->cidx[c]] += D->rhs[c];
  }
}

static void set_findex_bounds(dantzig *D, int i) {
  int j = lk_lcp_fidx(D->p, i);
  if (j < 0) return;
  double b = D->p->mu[i] * fabs(D->z[j]);
  D->lo[i] = -b;
  D->hi[i] = b;
}

static double clampd(double x, double lo, double hi) { return x < lo ? lo : (x > hi ? hi : x); }

/* Drive row i until it satisfies its condition. */
static lk_status drive(dantzig *D, int i) {
  int n = D->n;
  if (lk_lcp_fidx(D->p, i) >= 0) set_findex_bounds(D, i);
  move_z(D, i, clampd(D->z[i], D->lo[i], D->hi[i]) - D->z[i]);
  for (;;) {
    double wi = D->w[i], zi = D->z[i], lo = D->lo[i], hi = D->hi[i];
    if (lo == hi || (zi <= lo && wi >= -D->wtol)) {
      move_z(D, i, lo - zi);
      D->state[i] = S_LO;
      return LK_OK;
    }
    if (zi >= hi && wi <= D->wtol) {
      move_z(D, i, hi - zi);
      D->state[i] = S_HI;
      return LK_OK;
    }
    if (fabs(wi) <= D->wtol) {
      if (!add_c(D, i, 1.0)) D->state[i] = S_ZERO; /* interior, dependent on C */
      return LK_OK;
    }
    if (D->pivots >= D->max_pivots) return LK_PIVOT_LIMIT;
    double dir = wi < 0 ? 1.0 : -1.0;
    /* dz_C = -M_CC^-1 M_C,i dir, and dw = M (dz_C, dir). */
    int k = D->F.k;
    const double *ri = row(D, i);
    for (int c = 0; c < k; c++) D->dz[c] = -dir * ri[D->cidx[c]];
    lk_ldlt_solve(&D->F, D->dz);
    for (int j = 0; j < n; j++) D->dw[j] = dir * ri[j];
    double dzmax = 1.0;
    for (int c = 0; c < k; c++) {
      double dzc = D->dz[c];
      dzmax = fmax(dzmax, fabs(dzc));
      if (dzc == 0.0) continue;
      const double *rc = row(D, D->cidx[c]);
      for (int j = 0; j < n; j++) D->dw[j] += dzc * rc[j];
    }
    double dwmax = 0.0;
    for (int j = 0; j < n; j++)
      if (D->state[j] != S_C) dwmax = fmax(dwmax, fabs(D->dw[j]));
    /* Changes below rounding level of the sums that made them are zero. */
    double dwtol = fmax(1e-12 * dwmax, 1e-12 * D->mmax * dzmax), dztol = 1e-12 * dzmax;
    /* The first event along the direction. Ties keep the earlier kind:
     * finishing row i first, then clamped rows, then bounded ones. */
    int ev = 0, evj = -1;
    double t = INFINITY;
    double dwi = D->dw[i];
    if (dir * dwi > dwtol && dir * dwi > D->pivot_tol * D->piv_scale) {
      t = fmax(-wi / dwi, 0.0);
      ev = 1;
    }
    double room = dir > 0 ? hi - zi : zi - lo;
    if (room < t) {
      t = room;
      ev = 2;
    }
    for (int c = 0; c < k; c++) {
      int j = D->cidx[c];
      double dzc = D->dz[c], tj;
      if (dzc > dztol && D->hi[j] < INFINITY)
        tj = (D->hi[j] - D->z[j]) / dzc;
      else if (dzc < -dztol && D->lo[j] > -INFINITY)
        tj = (D->lo[j] - D->z[j]) / dzc;
      else
        continue;
      tj = fmax(tj, 0.0);
      if (tj < t) {
        t = tj;
        ev = 3;
        evj = j;
      }
    }
    for (int j = 0; j < n; j++) {
      double tj;
      if (j == i) continue;
      if (D->state[j] == S_ZERO && fabs(D->dw[j]) > dwtol)
        tj = 0.0;
      else if (D->state[j] == S_LO && D->dw[j] < -dwtol)
        tj = -D->w[j] / D->dw[j];
      else if (D->state[j] == S_HI && D->dw[j] > dwtol)
        tj = -D->w[j] / D->dw[j];
      else
        continue;
      tj = fmax(tj, 0.0);
      if (tj < t) {
        t = tj;
        ev = 4;
        evj = j;
      }
    }
    if (ev == 0) return LK_NO_SOLUTION; /* z_i can move forever: unbounded */
    D->z[i] += dir * t;
    for (int c = 0; c < k; c++) D->z[D->cidx[c]] += t * D->dz[c];
    for (int j = 0; j < n; j++) D->w[j] += t * D->dw[j];
    D->pivots++;
    switch (ev) {
      case 1:
        D->w[i] = 0.0;
        if (!add_c(D, i, 1e-3)) D->state[i] = S_ZERO;
        return LK_OK;
      case 2:
        move_z(D, i, (dir > 0 ? hi : lo) - D->z[i]);
        D->state[i] = dir > 0 ? S_HI : S_LO;
        return LK_OK;
      case 3: {
        int up = D->dz[D->cpos[evj]] > 0;
        double b = up ? D->hi[evj] : D->lo[evj];
        remove_c(D, evj, up ? S_HI : S_LO);
        move_z(D, evj, b - D->z[evj]);
        break;
      }
      default:
        /* A row whose w is moving is independent of C in exact arithmetic;
         * failing that here means the clamped block is numerically
         * singular. */
        D->w[evj] = 0.0;
        if (!add_c(D, evj, 1e-3)) return LK_SINGULAR;
        break;
    }
  }
}

/* Make the state consistent again after the bounds moved (or from a warm
 * start): friction rows at a bound follow it, z_C is re-solved, clamped
 * rows pushed out of their box and bounded rows whose w has the wrong sign
 * become undriven. Returns the number of rows made undriven. */
static int repair(dantzig *D) {
  int n = D->n, dropped = 0;
  for (int i = 0; i < n; i++) {
    if (D->state[i] == S_UNDRIVEN) continue;
    set_findex_bounds(D, i);
    if (D->state[i] == S_LO) D->z[i] = D->lo[i];
    if (D->state[i] == S_HI) D->z[i] = D->hi[i];
  }
  for (;;) {
    solve_c(D);
    int worst = -1;
    double wv = 0.0;
    for (int c = 0; c < D->F.k; c++) {
      int j = D->cidx[c];
      double zj = D->z[j], v = fmax(D->lo[j] - zj, zj - D->hi[j]);
      double tol = 1e-12 * (1.0 + fabs(zj));
      if (v > tol && v > wv) {
        wv = v;
        worst = j;
      }
    }
    if (worst < 0) break;
    remove_c(D, worst, S_UNDRIVEN);
    D->z[worst] = clampd(D->z[worst], D->lo[worst], D->hi[worst]);
    dropped++;
  }
  full_w(D);
  for (int i = 0; i < n; i++) {
    int st = D->state[i];
    if ((st == S_LO && D->w[i] < -D->wtol && D->lo[i] < D->hi[i]) ||
        (st == S_HI && D->w[i] > D->wtol && D->lo[i] < D->hi[i]) ||
        (st == S_ZERO && (fabs(D->w[i]) > D->wtol || D->z[i] < D->lo[i] || D->z[i] > D->hi[i]))) {
      D->state[i] = S_UNDRIVEN;
      dropped++;
    }
  }
  return dropped;
}

/* Friction closure. With the index sets fixed, a row at its friction
 * bound follows its normal, z_i = g_i z_j with g_i = +-mu_i sign(z_j), which
 * couples it into the clamped rows' equations. Solving that non-symmetric
 * system directly ends a pass exactly once the sets are right, where
 * re-bounding alone would only creep towards the fixed point. Returns 0
 * (state untouched) when the system is singular. */
static int closure(dantzig *D) {
  int n = D->n, k = D->F.k;
  double *A = D->A, *b = D->rhs, *g = D->dz;
  if (k == 0) return 0;
  int coupled = 0;
  for (int i = 0; i < n; i++) {
    int j = lk_lcp_fidx(D->p, i);
    g[i] = 0.0;
    if (j < 0 || D->cpos[j] < 0 || (D->state[i] != S_LO && D->state[i] != S_HI)) continue;
    g[i] = (D->state[i] == S_HI ? 1.0 : -1.0) * D->p->mu[i] * (D->z[j] >= 0 ? 1.0 : -1.0);
    coupled++;
  }
  if (coupled == 0) return 0;
  for (int a = 0; a < k; a++) {
    const double *r = row(D, D->cidx[a]);
    double *Aa = A + (size_t)a * (size_t)D->lda;
    for (int c = 0; c < k; c++) Aa[c] = r[D->cidx[c]];
    double s = D->p->q[D->cidx[a]];
    for (int j = 0; j < n; j++) {
      if (D->cpos[j] >= 0) continue;
      if (g[j] != 0.0)
        Aa[D->cpos[lk_lcp_fidx(D->p, j)]] += r[j] * g[j];
      else
        s += r[j] * D->z[j];
    }
    b[a] = -s;
  }
  if (!lk_lcp_lu_solve(A, D->lda, k, b)) return 0;
  for (int a = 0; a < k; a++) D->z[D->cidx[a]] = b[a];
  for (int i = 0; i < n; i++)
    if (g[i] != 0.0) {
      D->z[i] = g[i] * D->z[lk_lcp_fidx(D->p, i)];
      set_findex_bounds(D, i);
    }
  full_w(D);
  return 1;
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

static void write_basis(const dantzig *D, unsigned char *out) {
  for (int i = 0; i < D->n; i++)
    out[i] = (D->state[i] == S_C || D->state[i] == S_ZERO)
                 ? LK_LCP_BASIC
                 : (D->state[i] == S_HI ? LK_LCP_UPPER : LK_LCP_LOWER);
}

static lk_status dantzig_solve(const lk_lcp *p, const lk_lcp_options *o, lk_lcp_workspace *ws,
                               double *z, lk_lcp_report *rep) {
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
  D.A = ws->mat[1];
  D.lda = ws->nmax;
  D.state = ws->bvec[0];
  D.cidx = ws->ivec[0];
  D.cpos = ws->ivec[1];
  D.order = ws->ivec[2];
  D.F.ld = ws->nmax;
  D.F.L = ws->mat[0];
  D.F.d = ws->vec[6];
  D.F.tmp = ws->vec[7];
  D.F.k = 0;
  D.pivot_tol = o->pivot_tol;
  D.max_pivots = o->max_pivots > 0 ? o->max_pivots : 1000 + 100 * n;

  /* Symmetry is what lets the clamped block be factored as L D L^T and
   * rows of M stand for its columns. */
  double mmax = 0.0, dmax = 0.0, qmax = 0.0;
  for (int i = 0; i < n; i++) {
    const double *r = row(&D, i);
    for (int j = 0; j < n; j++) mmax = fmax(mmax, fabs(r[j]));
    dmax = fmax(dmax, fabs(r[i]));
    qmax = fmax(qmax, fabs(p->q[i]));
  }
  for (int i = 0; i < n; i++) {
    const double *r = row(&D, i);
    for (int j = 0; j < i; j++)
      if (fabs(r[j] - D.M[(size_t)j * (size_t)D.ldm + (size_t)i]) > 1e-10 * mmax) {
        rep->detail = "Dantzig needs a symmetric M (use Lemke)";
        return LK_UNSUPPORTED;
      }
  }
  D.mmax = mmax;
  D.qmax = qmax;
  D.piv_scale = dmax > 0 ? dmax : 1.0;
  int nfind = 0, k = 0;
  /* Drive order: free rows, then the other constant-bound rows, then
   * friction rows (their normals are known by then). */
  for (int pass = 0; pass < 3; pass++)
    for (int i = 0; i < n; i++) {
      int f = lk_lcp_fidx(p, i) >= 0;
      int fr = !f && isinf(lk_lcp_lo(p, i)) && isinf(lk_lcp_hi(p, i));
      if ((pass == 0 && fr) || (pass == 1 && !fr && !f) || (pass == 2 && f)) D.order[k++] = i;
    }
  for (int i = 0; i < n; i++) {
    int f = lk_lcp_fidx(p, i) >= 0;
    nfind += f;
    D.lo[i] = f ? 0.0 : lk_lcp_lo(p, i);
    D.hi[i] = f ? 0.0 : lk_lcp_hi(p, i);
    D.z[i] = f ? 0.0 : clampd(0.0, D.lo[i], D.hi[i]);
    D.state[i] = S_UNDRIVEN;
    D.cpos[i] = -1;
  }

  rep->warm = LK_LCP_COLD;
  int guess_kept = 0;
  if (o->basis_in) {
    for (int a = 0; a < n; a++) {
      int i = D.order[a];
      unsigned char g = o->basis_in[i];
      int f = lk_lcp_fidx(p, i) >= 0;
      double lo = lk_lcp_lo(p, i), hi = lk_lcp_hi(p, i);
      if (!f && isinf(lo) && isinf(hi)) g = LK_LCP_BASIC;
      if (!f && lo == hi) {
        D.z[i] = lo;
        D.state[i] = S_LO;
      } else if (g == LK_LCP_BASIC) {
        add_c(&D, i, 1.0); /* a dependent row stays undriven */
      } else if (g == LK_LCP_LOWER && (f || lo > -INFINITY)) {
        D.z[i] = D.lo[i];
        D.state[i] = S_LO;
      } else if (g == LK_LCP_UPPER && (f || hi < INFINITY)) {
        D.z[i] = D.hi[i];
        D.state[i] = S_HI;
      }
    }
  }
  full_w(&D);
  D.wtol = 1e-13 * (1.0 + qmax);

  lk_status s = LK_OK;
  int passes = 0, pivots_before = 0;
  for (passes = 1; passes <= o->max_passes; passes++) {
    if (passes > 1 || o->basis_in) {
      repair(&D);
      if (o->basis_in && passes == 1) {
        for (int i = 0; i < n; i++) guess_kept += D.state[i] != S_UNDRIVEN;
        rep->warm = guess_kept == n ? LK_LCP_WARM_EXACT
                                    : (guess_kept > 0 ? LK_LCP_WARM_REPAIRED : LK_LCP_WARM_FELL_BACK);
      }
    }
    pivots_before = D.pivots;
    s = drive_undriven(&D);
    if (s != LK_OK) break;
    if (nfind == 0) break;
    /* Friction bounds at the final z: done when they hold to tolerance. */
    double scale, res = lk_lcp_residual_scaled(p, z, NULL, D.w, &scale);
    if (res <= 0.01 * o->tol * scale) break;
#ifdef LK_TRACE
    { int nc=0,nlo=0,nhi=0,nz=0; for(int i=0;i<n;i++){nc+=D.state[i]==S_C;nlo+=D.state[i]==S_LO;nhi+=D.state[i]==S_HI;nz+=D.state[i]==S_ZERO;}
      fprintf(stderr,"pass %d piv %d res %.3e  C=%d LO=%d HI=%d Z=%d\n",passes,D.pivots-pivots_before,res/scale,nc,nlo,nhi,nz);}
#endif
    if (closure(&D)) {
      res = lk_lcp_residual_scaled(p, z, NULL, D.w, &scale);
#ifdef LK_TRACE
      fprintf(stderr,"   closure res %.3e\n",res/scale);
#endif
      if (res <= 0.01 * o->tol * scale) break;
    }
    if (passes > 1 && D.pivots == pivots_before && res <= o->tol * scale) break;
  }
  if (passes > o->max_passes) {
    passes = o->max_passes;
    s = LK_NOT_CONVERGED;
    rep->detail = "the friction-index bounds did not settle";
  }
  if (o->basis_in && rep->warm == LK_LCP_WARM_EXACT && D.pivots > 0)
    rep->warm = LK_LCP_WARM_REPAIRED;
  rep->passes = passes;
  rep->pivots = D.pivots;
  if (s == LK_OK) {
    /* Polish z_C against the drift of the incremental updates. */
    polish(&D, 2);
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
  return s;
}

static const lk_lcp_solver dantzig_type = {"dantzig", dantzig_solve};
const lk_lcp_solver *const lk_lcp_dantzig = &dantzig_type;
