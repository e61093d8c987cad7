/* A semismooth Newton method for the LCP layer's problems, friction
 * contact above all: Alart and Curnier's augmented-Lagrangian function
 * (Alart & Curnier 1991; Christensen, Klarbring, Pang & Stromberg 1998),
 * in the form Siconos numerics calls "Jean-Moreau" (its
 * fc3d_nonsmooth_Newton_AlartCurnier with the disk's radius mu |r_n|,
 * read, not copied). With u = M z + q and per-row weights rho > 0, each
 * row's equation phi(z) = 0 is
 *
 *   a row with constant bounds   phi_i = z_i - mid(lo_i, z_i - rho_i u_i, hi_i)
 *   a friction row, box          phi_i = z_i - mid(-R, z_i - rho_i u_i, R),
 *                                R = mu_i |z_j| for its normal j
 *   a circle pair (a, b)         phi_F = z_F - P_R(z_F - rho_F u_F),
 *                                P_R the projection on the disk of radius R
 *
 * whose zeros are exactly the problem's answers (the normal of a contact is
 * a row with bounds [0, inf)). phi is piecewise smooth; an element of its
 * generalized Jacobian H = dphi/dz is formed row by row (I - D) + D diag(rho)
 * M (+ the radius' column), D the derivative of the projection, and the
 * Newton step solves (H + eps I) d = -phi, then a backtracking (Armijo)
 * line search on 1/2 |phi|^2 takes z + t d.
 *
 * rho: per block (a normal and its friction rows, or a single row) from
 * M's diagonal: rho_n = 1 / M_nn, one rho_t = 1 / max M_tt for all its
 * friction rows (a circle pair needs one weight for both), so that the
 * rows of rho M have unit diagonal.
 *
 * Rank deficiency (hyperstatic contacts: W singular where they stick) makes
 * H singular; the proximal term eps I regularizes it (Levenberg-Marquardt
 * style): eps = lam |phi| / max(|z|, |rho q|), driven to 0 with phi, and
 * never below EPS_FLOOR (1e-8 of rho M's unit diagonal); lam starts at
 * 1e-2, is divided by ten after a full step (down to 1e-8) and multiplied
 * by ten after a failed line search, or one that had to cut the step below
 * T_SHORT (0.1) of its length (up to 1e8); eps is raised tenfold while
 * KLU's pivots say the matrix is singular (rcond under 1e-12). Iterations
 * solved with eps > 0 are report.regularized.
 *
 * Why the short steps count as failures: near a hyperstatic answer eps
 * falls with |phi|, the step grows along H's near-null directions (|d| 20
 * times |z|) and the line search accepts t = 1e-4 ... 1e-9 on every
 * iteration, so lam never grew and the iterate stood still (islands of the
 * dropped 50-box heap stalled at fc3d errors of 1e-9 to 1e-5 for 50
 * iterations). Counted as failures, lam rises until the step is one the
 * model can take. Measured: Siconos' collection (bench/lcp --fc3d-only)
 * solved at 1e-9 29/29 either way, in 280 iterations in all instead of
 * 528; 347 NSGS islands saved from a run of the heap (50 boxes, 48-384
 * rows, warm-started), 50 iterations at most: 312 answered instead of
 * 307, in 3 453 iterations instead of 4 331. The floor keeps the
 * factorization away from rcond 1e-12 on such islands (fewer
 * refactorizations; the term vanishes at the answer as any proximal term
 * does).
 *
 * Linear algebra: up to NEWTON_DENSE_MAX rows a dense LU of H with
 * partial pivoting (below); above, SuiteSparse KLU on H in compressed rows (given to KLU as
 * the columns of H^T, solved with klu_tsolve). H's pattern is that of a
 * block's rows all taking the union of the block's rows of M plus the
 * block's own columns, whatever the active set (explicit zeros kept): the
 * symbolic analysis is made once per pattern and kept in the workspace;
 * each iteration refactors numerically in place (klu_refactor, KLU's
 * pivot order), falling back to a fresh klu_factor when a pivot is bad
 * (counted in the detail). When 8 line searches in a row fail, a few NSGS
 * sweeps from the iterate are taken instead (lk_lcp_nsgs, 20 sweeps).
 *
 * Memory: the row vectors at lk_lcp_workspace_new_newton (or at the first
 * Newton solve on another workspace); M's and H's compressed rows and the
 * KLU objects when a pattern is first seen (KLU through SuiteSparse's own
 * allocator). Once a pattern has been solved, a solve of the same pattern
 * allocates nothing through lk's hook, and KLU then allocates only for a
 * fresh factor after a bad pivot. */
#include <klu.h>
#include <stdlib.h>

#include "lcp/lcp_internal.h"

/* Defaults and constants. */
enum { NEWTON_MAX_ITER = 5000, NEWTON_LS_MAX = 30, NEWTON_FAILS_NSGS = 8, NEWTON_NSGS_SWEEPS = 20 };
/* Up to this many rows H is factored dense (LU with partial pivoting,
 * rcond estimated as KLU's klu_rcond does: the smallest over the largest
 * pivot of U): KLU's per-pattern analysis and per-factor overhead dominate
 * small islands (MuJoCo's humanoid on the floor, 26 rows on one tree:
 * bench/motion 42.9 -> 39-41 us a step). At 42-60 rows of the dropped box
 * heap (30-60 % full) KLU was faster than this LU (Newton on 8 saved
 * islands, 300 times each: 0.13-0.26 s against 0.21-0.39), hence the
 * limit; callgrind over the heap's first 0.7 s: 8.24e9 instructions with
 * KLU everywhere, 7.54e9 with this limit, 7.73e9 with 64 (trajectories
 * part, so a rough figure). */
enum { NEWTON_DENSE_MAX = 32 };
#define RCOND_MIN 1e-12
#define EPS_FLOOR 1e-8
#define T_SHORT 0.1
#define EPS_MAX 1e4
#define ARMIJO 1e-4
#define LAM_MAX 1e8

typedef struct {
  int nmax;
  /* row vectors (nmax) */
  double *rho, *u, *phi, *d, *wd, *zt, *ut, *phit, *zbest, *wscr;
  int *bid, *bstart, *brow, *mark, *list, *diag, *npos, *ppos, *pa, *pair;
  /* the pattern: n, W's and H's compressed rows */
  int pn, nb, wcap, jcap, wnnz, jnnz;
  int *wp, *wi, *wpos, *jp, *ji;
  double *wx, *jx;
  klu_symbolic *sym;
  klu_numeric *num;
  klu_common common;
  int analyses;
  /* the dense factor (n <= NEWTON_DENSE_MAX): L\U row-major, row swaps */
  int dense;
  double *lu;
  int *piv;
} newton_ws;

void lk_newton_free(void *v) {
  newton_ws *nw = v;
  if (!nw) return;
  if (nw->num) klu_free_numeric(&nw->num, &nw->common);
  if (nw->sym) klu_free_symbolic(&nw->sym, &nw->common);
  double *dv[] = {nw->rho, nw->u,    nw->phi,   nw->d,  nw->wd, nw->zt,
                  nw->ut,  nw->phit, nw->zbest, nw->wscr, nw->wx, nw->jx};
  for (size_t k = 0; k < sizeof dv / sizeof dv[0]; k++) lk_free(dv[k]);
  int *iv[] = {nw->bid,  nw->bstart, nw->brow, nw->mark, nw->list, nw->diag, nw->npos,
               nw->ppos, nw->pa,     nw->wp,   nw->wi,   nw->wpos, nw->jp,   nw->ji, nw->pair};
  for (size_t k = 0; k < sizeof iv / sizeof iv[0]; k++) lk_free(iv[k]);
  lk_free(nw->lu);
  lk_free(nw->piv);
  lk_free(nw);
}

static newton_ws *newton_new(int nmax) {
  newton_ws *nw = lk_calloc(1, sizeof *nw);
  if (!nw) return NULL;
  nw->nmax = nmax;
  nw->pn = -1;
  size_t m = nmax > 0 ? (size_t)nmax : 1;
  int ok = 1;
  double **dv[] = {&nw->rho, &nw->u,    &nw->phi,   &nw->d, &nw->wd,
                   &nw->zt,  &nw->ut,   &nw->phit,  &nw->zbest, &nw->wscr};
  for (size_t k = 0; k < sizeof dv / sizeof dv[0] && ok; k++)
    ok = (*dv[k] = LK_NEW_ARRAY(double, m)) != NULL;
  int **iv[] = {&nw->bid,  &nw->brow, &nw->mark, &nw->list,
                &nw->diag, &nw->npos, &nw->ppos, &nw->pair};
  for (size_t k = 0; k < sizeof iv / sizeof iv[0] && ok; k++)
    ok = (*iv[k] = LK_NEW_ARRAY(int, m)) != NULL;
  if (ok) ok = (nw->bstart = LK_NEW_ARRAY(int, m + 1)) != NULL;
  if (ok) ok = (nw->pa = LK_NEW_ARRAY(int, 4 * m + 1)) != NULL;
  if (ok) ok = (nw->wp = LK_NEW_ARRAY(int, m + 1)) != NULL;
  if (ok) ok = (nw->jp = LK_NEW_ARRAY(int, m + 1)) != NULL;
  size_t dm = m < NEWTON_DENSE_MAX ? m : NEWTON_DENSE_MAX;
  if (ok) ok = (nw->lu = LK_NEW_ARRAY(double, dm * dm)) != NULL;
  if (ok) ok = (nw->piv = LK_NEW_ARRAY(int, dm)) != NULL;
  if (ok) ok = klu_defaults(&nw->common);
  if (!ok) {
    lk_newton_free(nw);
    return NULL;
  }
  nw->common.halt_if_singular = 0; /* a singular H is regularized, not fatal */
  return nw;
}

lk_lcp_workspace *lk_lcp_workspace_new_newton(int nmax) {
  lk_lcp_workspace *ws = lk_lcp_workspace_new_nsgs(nmax, nmax);
  if (!ws) return NULL;
  if (!(ws->newton = newton_new(nmax))) {
    lk_lcp_workspace_free(ws);
    return NULL;
  }
  return ws;
}

/* A matrix's capacity grown to hold need entries: doubled (at least), so
 * that a run's patterns grow it log2(largest / first) times at most. */
static int grown_cap(int cap, int need) {
  long c = cap > 0 ? cap : 1;
  while (c < need) c *= 2;
  return c > 0x7fffffffL ? need : (int)c;
}

/* M's compressed rows (wi, wpos, wx) and the Jacobian's (ji, jx) at
 * `cap` entries, contents dropped (the pattern is to be made again); 0,
 * the old arrays kept, when memory fails. */
static int grow_w(newton_ws *nw, int cap) {
  int *wi = LK_NEW_ARRAY(int, cap), *wpos = LK_NEW_ARRAY(int, cap);
  double *wx = LK_NEW_ARRAY(double, cap);
  if (!wi || !wpos || !wx) {
    lk_free(wi);
    lk_free(wpos);
    lk_free(wx);
    return 0;
  }
  lk_free(nw->wi);
  lk_free(nw->wpos);
  lk_free(nw->wx);
  nw->wi = wi;
  nw->wpos = wpos;
  nw->wx = wx;
  nw->wcap = cap;
  nw->pn = -1;
  return 1;
}

static int grow_j(newton_ws *nw, int cap) {
  int *ji = LK_NEW_ARRAY(int, cap);
  double *jx = LK_NEW_ARRAY(double, cap);
  if (!ji || !jx) {
    lk_free(ji);
    lk_free(jx);
    return 0;
  }
  lk_free(nw->ji);
  lk_free(nw->jx);
  nw->ji = ji;
  nw->jx = jx;
  nw->jcap = cap;
  nw->pn = -1;
  return 1;
}

/* Both matrices' arrays sized for `entries`. */
static int reserve(newton_ws *nw, int entries) {
  return (entries <= nw->wcap || grow_w(nw, entries)) && (entries <= nw->jcap || grow_j(nw, entries));
}

lk_status lk_lcp_workspace_reserve_newton(lk_lcp_workspace *ws, int entries) {
  if (!ws || entries < 0) return LK_INVALID_ARGUMENT;
  if (!ws->newton && !(ws->newton = newton_new(ws->nmax))) return LK_OUT_OF_MEMORY;
  return reserve(ws->newton, entries) ? LK_OK : LK_OUT_OF_MEMORY;
}

static int cmp_int(const void *a, const void *b) {
  int x = *(const int *)a, y = *(const int *)b;
  return (x > y) - (x < y);
}

/* The blocks (a row without findex and its friction rows, the row first,
 * then its friction rows in order) and M's compressed rows (a dense M's
 * nonzeros), written over the last pattern's; returns whether the pattern
 * is the same as the last solve's (then nothing else is to be made), -1
 * when memory fails. */
static int load_pattern(newton_ws *nw, const lk_lcp *p) {
  int n = p->n, same = nw->pn == n;
  /* blocks */
  int nb = 0;
  for (int i = 0; i < n; i++)
    if (lk_lcp_fidx(p, i) < 0) {
      if (same && nw->bid[i] != nb) same = 0;
      nw->bid[i] = nb++;
    }
  for (int i = 0; i < n; i++) {
    int j = lk_lcp_fidx(p, i);
    if (j >= 0) {
      if (same && nw->bid[i] != nw->bid[j]) same = 0;
      nw->bid[i] = nw->bid[j];
    }
  }
  int *cnt = nw->mark; /* counts, then the fill positions */
  for (int b = 0; b < nb; b++) cnt[b] = 0;
  for (int i = 0; i < n; i++) cnt[nw->bid[i]]++;
  int acc = 0;
  for (int b = 0; b < nb; b++) {
    if (same && nw->bstart[b] != acc) same = 0;
    nw->bstart[b] = acc;
    acc += cnt[b];
    cnt[b] = nw->bstart[b];
  }
  nw->bstart[nb] = n;
  if (nb != nw->nb) same = 0;
  nw->nb = nb;
  for (int pass = 0; pass < 2; pass++)
    for (int i = 0; i < n; i++)
      if ((lk_lcp_fidx(p, i) >= 0) == (pass == 1)) {
        int k = cnt[nw->bid[i]]++;
        if (same && nw->brow[k] != i) same = 0;
        nw->brow[k] = i;
      }
  /* circle pairs (H's entries between the two rows) */
  for (int i = 0; i < n; i++) {
    int c = lk_lcp_pair(p, i);
    if (same && nw->pair[i] != c) same = 0;
    nw->pair[i] = c;
  }
  /* M's rows */
  int nnz = 0;
  if (lk_lcp_sparse(p)) {
    nnz = p->csr.row[n];
  } else {
    int ld = lk_lcp_ldm(p);
    for (int i = 0; i < n; i++) {
      const double *r = p->M + (size_t)i * (size_t)ld;
      for (int j = 0; j < n; j++) nnz += r[j] != 0.0;
    }
  }
  if (nnz != nw->wnnz) same = 0;
  if (nnz > nw->wcap) {
    if (!grow_w(nw, grown_cap(nw->wcap, nnz))) {
      nw->pn = -1;
      return -1;
    }
    same = 0;
  }
  nw->wnnz = nnz;
  int k = 0;
  nw->wp[0] = 0;
  for (int i = 0; i < n; i++) {
    if (lk_lcp_sparse(p)) {
      for (int e = p->csr.row[i]; e < p->csr.row[i + 1]; e++, k++) {
        if (same && nw->wi[k] != p->csr.col[e]) same = 0;
        nw->wi[k] = p->csr.col[e];
        nw->wx[k] = p->csr.val[e];
      }
    } else {
      const double *r = p->M + (size_t)i * (size_t)lk_lcp_ldm(p);
      for (int j = 0; j < n; j++)
        if (r[j] != 0.0) {
          if (same && nw->wi[k] != j) same = 0;
          nw->wi[k] = j;
          nw->wx[k++] = r[j];
        }
    }
    if (same && nw->wp[i + 1] != k) same = 0;
    nw->wp[i + 1] = k;
  }
  return same;
}

/* The union U_B of block b's rows of M and its own columns, sorted, into
 * nw->list; returns its size. nw->mark is -1 outside and is left -1. */
static int block_union(newton_ws *nw, int b) {
  int m = 0;
  for (int s = nw->bstart[b]; s < nw->bstart[b + 1]; s++) {
    int i = nw->brow[s];
    if (nw->mark[i] < 0) nw->mark[i] = 0, nw->list[m++] = i;
    for (int e = nw->wp[i]; e < nw->wp[i + 1]; e++) {
      int j = nw->wi[e];
      if (nw->mark[j] < 0) nw->mark[j] = 0, nw->list[m++] = j;
    }
  }
  qsort(nw->list, (size_t)m, sizeof(int), cmp_int);
  return m;
}

/* H's pattern (rows in row order; a row has its block's union) and KLU's
 * analysis of it. */
static lk_status make_pattern(newton_ws *nw, const lk_lcp *p) {
  int n = p->n;
  for (int i = 0; i < n; i++) nw->mark[i] = -1;
  int *len = nw->diag; /* a row's length, until the fill */
  for (int b = 0; b < nw->nb; b++) {
    int m = block_union(nw, b);
    for (int t = 0; t < m; t++) nw->mark[nw->list[t]] = -1;
    for (int s = nw->bstart[b]; s < nw->bstart[b + 1]; s++) len[nw->brow[s]] = m;
  }
  long total = 0;
  for (int i = 0; i < n; i++) {
    nw->jp[i] = (int)total;
    total += len[i];
    if (total > 0x7fffffffL) return LK_CAPACITY_EXCEEDED;
  }
  nw->jp[n] = (int)total;
  if (total > nw->jcap && !grow_j(nw, grown_cap(nw->jcap, (int)total))) return LK_OUT_OF_MEMORY;
  nw->jnnz = (int)total;
  for (int b = 0; b < nw->nb; b++) {
    int m = block_union(nw, b);
    for (int t = 0; t < m; t++) nw->mark[nw->list[t]] = t;
    for (int s = nw->bstart[b]; s < nw->bstart[b + 1]; s++) {
      int i = nw->brow[s], pos = nw->jp[i];
      memcpy(nw->ji + pos, nw->list, (size_t)m * sizeof(int));
      for (int e = nw->wp[i]; e < nw->wp[i + 1]; e++) nw->wpos[e] = nw->mark[nw->wi[e]];
      nw->diag[i] = pos + nw->mark[i];
      int j = lk_lcp_fidx(p, i), c = lk_lcp_pair(p, i);
      nw->npos[i] = j >= 0 ? pos + nw->mark[j] : -1;
      nw->ppos[i] = c >= 0 ? pos + nw->mark[c] : -1;
    }
    for (int t = 0; t < m; t++) nw->mark[nw->list[t]] = -1;
  }
  if (nw->num) klu_free_numeric(&nw->num, &nw->common);
  if (nw->sym) klu_free_symbolic(&nw->sym, &nw->common);
  nw->dense = n <= NEWTON_DENSE_MAX;
  if (nw->dense) { /* no analysis: dense_factor */
    nw->pn = n;
    return LK_OK;
  }
  nw->sym = klu_analyze(n, nw->jp, nw->ji, &nw->common);
  if (!nw->sym) return nw->common.status == KLU_OUT_OF_MEMORY ? LK_OUT_OF_MEMORY : LK_SINGULAR;
  nw->analyses++;
  nw->pn = n;
  return LK_OK;
}

/* rho from M's diagonal, per block (see the top). */
static double diag_of(const newton_ws *nw, int i) {
  for (int e = nw->wp[i]; e < nw->wp[i + 1]; e++)
    if (nw->wi[e] == i) return nw->wx[e];
  return 0.0;
}

static void make_rho(newton_ws *nw, const lk_lcp *p) {
  for (int b = 0; b < nw->nb; b++) {
    int s0 = nw->bstart[b], s1 = nw->bstart[b + 1];
    double dt = 0.0;
    for (int s = s0; s < s1; s++) {
      int i = nw->brow[s];
      double di = diag_of(nw, i);
      if (lk_lcp_fidx(p, i) < 0) {
        nw->rho[i] = di > 0 && isfinite(1.0 / di) ? 1.0 / di : 1.0;
      } else {
        dt = lk_maxd(dt, di);
      }
    }
    double rt = dt > 0 && isfinite(1.0 / dt) ? 1.0 / dt : 1.0;
    for (int s = s0; s < s1; s++)
      if (lk_lcp_fidx(p, nw->brow[s]) >= 0) nw->rho[nw->brow[s]] = rt;
  }
}

/* u = M z + q through the compressed rows. */
static void times(const newton_ws *nw, const lk_lcp *p, const double *z, double *u) {
  for (int i = 0; i < p->n; i++) {
    double s = 0.0;
    for (int e = nw->wp[i]; e < nw->wp[i + 1]; e++) s += nw->wx[e] * z[nw->wi[e]];
    u[i] = p->q[i] + s;
  }
}

/* jx[row i] += c * rho_k * M_k (row k of M, k in row i's block). */
static void add_mrow(newton_ws *nw, int i, int k, double c) {
  double *row = nw->jx + nw->jp[i];
  for (int e = nw->wp[k]; e < nw->wp[k + 1]; e++) row[nw->wpos[e]] += c * nw->wx[e];
}

static double sgn(double x) { return x > 0 ? 1.0 : x < 0 ? -1.0 : 0.0; }

/* phi at (z, u), and with jac H's values (plus eps on the diagonal);
 * returns 1/2 |phi|^2. */
static double eval(newton_ws *nw, const lk_lcp *p, const double *z, const double *u, double *phi,
                   int jac, double eps) {
  int n = p->n;
  if (jac)
    for (int k = 0; k < nw->jnnz; k++) nw->jx[k] = 0.0;
  double th = 0.0;
  for (int i = 0; i < n; i++) {
    int j = lk_lcp_fidx(p, i), c = lk_lcp_pair(p, i);
    double r = nw->rho[i], x = z[i] - r * u[i];
    if (c >= 0) {
      if (c < i) continue; /* with its partner */
      int a = i, b = c;
      double R = p->mu[a] * fabs(z[j]);
      double y0 = x, y1 = z[b] - nw->rho[b] * u[b], t = lk_lcp_hypot(y0, y1);
      if (R > 0 && t <= R) { /* sticking */
        phi[a] = z[a] - y0;
        phi[b] = z[b] - y1;
        if (jac) {
          add_mrow(nw, a, a, r);
          add_mrow(nw, b, b, r);
        }
      } else if (R > 0) { /* sliding */
        double e0 = y0 / t, e1 = y1 / t, f = R / t;
        phi[a] = z[a] - R * e0;
        phi[b] = z[b] - R * e1;
        if (jac) {
          double A00 = f * (1 - e0 * e0), A01 = -f * e0 * e1, A11 = f * (1 - e1 * e1);
          double sm = p->mu[a] * sgn(z[j]);
          nw->jx[nw->diag[a]] += 1 - A00;
          nw->jx[nw->ppos[a]] += -A01;
          nw->jx[nw->ppos[b]] += -A01;
          nw->jx[nw->diag[b]] += 1 - A11;
          nw->jx[nw->npos[a]] += -sm * e0;
          nw->jx[nw->npos[b]] += -sm * e1;
          add_mrow(nw, a, a, r * A00);
          add_mrow(nw, a, b, r * A01);
          add_mrow(nw, b, a, r * A01);
          add_mrow(nw, b, b, r * A11);
        }
      } else { /* no load: no friction */
        phi[a] = z[a];
        phi[b] = z[b];
        if (jac) {
          nw->jx[nw->diag[a]] += 1;
          nw->jx[nw->diag[b]] += 1;
        }
      }
      th += phi[a] * phi[a] + phi[b] * phi[b];
      continue;
    }
    if (j >= 0) { /* a box of half-width mu |z_j| */
      double R = p->mu[i] * fabs(z[j]);
      if (x > -R && x < R) {
        phi[i] = z[i] - x;
        if (jac) add_mrow(nw, i, i, r);
      } else {
        double s = x >= R ? 1.0 : -1.0;
        phi[i] = z[i] - s * R;
        if (jac) {
          nw->jx[nw->diag[i]] += 1;
          nw->jx[nw->npos[i]] += -s * p->mu[i] * sgn(z[j]);
        }
      }
    } else {
      double lo = lk_lcp_lo(p, i), hi = lk_lcp_hi(p, i);
      if (x > lo && x < hi) {
        phi[i] = z[i] - x;
        if (jac) add_mrow(nw, i, i, r);
      } else {
        phi[i] = z[i] - (x <= lo ? lo : hi);
        if (jac) nw->jx[nw->diag[i]] += 1;
      }
    }
    th += phi[i] * phi[i];
  }
  if (jac && eps > 0)
    for (int i = 0; i < n; i++) nw->jx[nw->diag[i]] += eps;
  return 0.5 * th;
}

/* H dense, factored by dense.c's LU; returns the rcond estimate
 * min |U_kk| / max |U_kk| (0 for a zero pivot). */
static double dense_factor(newton_ws *nw) {
  const int n = nw->pn;
  double *A = nw->lu;
  memset(A, 0, (size_t)n * (size_t)n * sizeof *A);
  for (int i = 0; i < n; i++)
    for (int e = nw->jp[i]; e < nw->jp[i + 1]; e++) A[(size_t)i * n + nw->ji[e]] = nw->jx[e];
  if (!lk_lcp_lu_factor(A, n, nw->piv, 0.0)) return 0.0;
  double umin = INFINITY, umax = 0.0;
  for (int k = 0; k < n; k++) {
    double a = fabs(A[(size_t)k * n + k]);
    umin = a < umin ? a : umin;
    umax = a > umax ? a : umax;
  }
  return umax > 0.0 ? umin / umax : 0.0;
}

/* x <- H^-1 x by the dense factor; 0 when x is not finite after. */
static int dense_solve(const newton_ws *nw, double *x) {
  lk_lcp_lu_apply(nw->lu, nw->pn, nw->piv, x);
  return lk_lcp_finite(x, nw->pn);
}

/* Factor H (refactor in place when there is a factor; a fresh factor
 * when there is none or its pivots went bad). Returns KLU's rcond
 * estimate (0 on failure); the dense factor's for a small H. */
static double factor(newton_ws *nw, int *fresh) {
  if (nw->dense) return dense_factor(nw);
  if (nw->num) {
    if (klu_refactor(nw->jp, nw->ji, nw->jx, nw->sym, nw->num, &nw->common) &&
        nw->common.status == KLU_OK && klu_rcond(nw->sym, nw->num, &nw->common) &&
        nw->common.rcond >= RCOND_MIN)
      return nw->common.rcond;
    klu_free_numeric(&nw->num, &nw->common);
  }
  (*fresh)++;
  nw->num = klu_factor(nw->jp, nw->ji, nw->jx, nw->sym, &nw->common);
  if (!nw->num) return 0.0;
  if (nw->common.status != KLU_OK) return 0.0;
  if (!klu_rcond(nw->sym, nw->num, &nw->common)) return 0.0;
  return nw->common.rcond;
}

static double norm2(const double *x, int n) {
  double s = 0.0;
  for (int i = 0; i < n; i++) s += x[i] * x[i];
  return sqrt(s);
}

static lk_status newton_solve(const lk_lcp *p, const lk_lcp_options *o, lk_lcp_workspace *ws,
                              double *z, double *w, lk_lcp_report *r, lk_lcp_verified *v) {
  (void)v;
  int n = p->n;
  if (lk_lcp_prodf(p)) {
    r->detail = "newton takes a dense M or compressed rows, not a product (lk_lcp_densify)";
    return LK_UNSUPPORTED;
  }
  if (!ws->newton && !(ws->newton = newton_new(ws->nmax))) {
    r->detail = "out of memory for newton's workspace";
    return LK_OUT_OF_MEMORY;
  }
  newton_ws *nw = ws->newton;
  int same = load_pattern(nw, p);
  if (same < 0) {
    r->detail = "out of memory for newton's matrices";
    return LK_OUT_OF_MEMORY;
  }
  if (!same) {
    lk_status s = make_pattern(nw, p);
    if (s != LK_OK) {
      nw->pn = -1;
      r->detail = s == LK_OUT_OF_MEMORY ? "out of memory for newton's matrices"
                                        : "KLU could not analyse newton's matrix";
      return s;
    }
  }
  make_rho(nw, p);
  int maxit = o->max_sweeps > 0 ? o->max_sweeps : NEWTON_MAX_ITER;
  double tol = o->tol;
  int fresh = 0, nsgs_runs = 0, fails = 0, regularized = 0;
  double lam = 1e-2, best = INFINITY;
  lk_status status = LK_NOT_CONVERGED;
  double qs = 0.0; /* |rho q|: z's scale before there is a z */
  for (int i = 0; i < n; i++) qs += nw->rho[i] * p->q[i] * nw->rho[i] * p->q[i];
  qs = sqrt(qs);
  lk_lcp_project(p, z);
  memcpy(nw->zbest, z, (size_t)n * sizeof *z);
  int it = 0;
  for (;; it++) {
    times(nw, p, z, nw->u);
    double th = eval(nw, p, z, nw->u, nw->phi, 0, 0.0);
    if (!isfinite(th)) break;
    /* the best iterate by its fc3d error; the residual (a product with
     * M) only once the error is within tol */
    double err = lk_lcp_fc3d_error_w(p, z, nw->u, nw->pa);
    if (err < best) {
      best = err;
      memcpy(nw->zbest, z, (size_t)n * sizeof *z);
    }
    if (err <= tol) {
      double scale, res = lk_lcp_residual_scaled(p, z, NULL, NULL, &scale, NULL);
      if (res / scale <= tol) {
        status = LK_OK;
        break;
      }
    }
    if (it >= maxit) break;
    if (fails >= NEWTON_FAILS_NSGS) {
      /* the Newton steps make no progress: NSGS sweeps from here */
      lk_lcp_options on = *o;
      on.max_sweeps = NEWTON_NSGS_SWEEPS;
      on.z_guess = z;
      on.basis_in = NULL;
      on.basis_out = NULL;
      lk_lcp_report rn;
      (void)lk_lcp_solve(lk_lcp_nsgs, p, &on, ws, z, nw->wscr, &rn);
      nsgs_runs++;
      fails = 0;
      continue;
    }
    double nu = sqrt(2 * th) / lk_maxd(lk_maxd(norm2(z, n), qs), 1e-300);
    double eps = lk_maxd(lam * nu, EPS_FLOOR);
    double rc;
    for (;;) {
      eval(nw, p, z, nw->u, nw->phi, 1, eps);
      rc = factor(nw, &fresh);
      if (rc >= RCOND_MIN || eps >= EPS_MAX) break;
      eps *= 10;
    }
    if (!(rc > 0)) {
      fails = NEWTON_FAILS_NSGS;
      continue;
    }
    if (eps > 0) regularized++;
    for (int i = 0; i < n; i++) nw->d[i] = -nw->phi[i];
    if (nw->dense ? !dense_solve(nw, nw->d)
                  : !klu_tsolve(nw->sym, nw->num, n, 1, nw->d, &nw->common) ||
                        !lk_lcp_finite(nw->d, n)) {
      fails = NEWTON_FAILS_NSGS;
      continue;
    }
    /* M d, then the line search along z + t d (u + t M d) */
    for (int i = 0; i < n; i++) {
      double s = 0.0;
      for (int e = nw->wp[i]; e < nw->wp[i + 1]; e++) s += nw->wx[e] * nw->d[nw->wi[e]];
      nw->wd[i] = s;
    }
    double t = 1.0;
    int ok = 0;
    for (int ls = 0; ls < NEWTON_LS_MAX; ls++, t *= 0.5) {
      for (int i = 0; i < n; i++) {
        nw->zt[i] = z[i] + t * nw->d[i];
        nw->ut[i] = nw->u[i] + t * nw->wd[i];
      }
      double tht = eval(nw, p, nw->zt, nw->ut, nw->phit, 0, 0.0);
      if (tht <= (1 - 2 * ARMIJO * t) * th) {
        ok = 1;
        break;
      }
    }
    if (ok) {
      memcpy(z, nw->zt, (size_t)n * sizeof *z);
      fails = 0;
      if (t == 1.0)
        lam = lk_maxd(lam * 0.1, 1e-8);
      else if (t < T_SHORT)
        lam = lam * 10 < LAM_MAX ? lam * 10 : LAM_MAX;
    } else {
      fails++;
      lam = lam * 10 < LAM_MAX ? lam * 10 : LAM_MAX;
    }
  }
  r->sweeps = it;
  r->pivots = fresh;
  r->regularized = regularized;
  if (status != LK_OK) memcpy(z, nw->zbest, (size_t)n * sizeof *z);
  /* an answer an ulp outside its bounds: into them, if the answer stays */
  memcpy(nw->zt, z, (size_t)n * sizeof *z);
  lk_lcp_project(p, nw->zt);
  {
    double scale, res = lk_lcp_residual_scaled(p, nw->zt, NULL, w, &scale, NULL);
    double err = lk_lcp_fc3d_error_w(p, nw->zt, w, nw->pa);
    if (status != LK_OK || (res / scale <= tol && err <= tol))
      memcpy(z, nw->zt, (size_t)n * sizeof *z);
  }
  (void)ws;
  static const char *const details[2][2] = {
      {"newton converged", "newton converged (with NSGS sweeps where its steps stalled)"},
      {"newton: iteration cap reached", "newton: iteration cap reached (NSGS sweeps included)"}};
  r->detail = details[status != LK_OK][nsgs_runs > 0];
  return status;
}

static const lk_lcp_solver newton_type = {"newton", newton_solve, 1};
const lk_lcp_solver *const lk_lcp_newton = &newton_type;
