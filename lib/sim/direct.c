/* The sticking trial of an island beyond the dense size by a sparse
 * Cholesky factorization (issue 20): SuiteSparse's CHOLMOD (Chen, Davis,
 * Hager & Rajamanickam, ACM TOMS 35(3), 2008), simplicial L D L^T.
 *
 * The dense path answers a resting stack exactly by its sticking trial
 * (solve.c): every friction row an equality, the ridge-regularized mixed
 * LCP whose unique answer is the least-norm split of redundant supports.
 * Here the same problem is posed on the guessed active set S -- the
 * unilateral rows that carried load last step (contact normals with z > 0,
 * limits whose row was basic), the friction rows of their contacts (a
 * contact that carries nothing has no friction), every boxed and bilateral
 * row -- as one sparse symmetric positive definite system
 *     (A_SS + ridge W + cfm I) z_S = -b_S,   z = 0 off S,
 * A = J M~^-1 J^T in compressed rows (sparse.c), ridge = 3e-10 of the
 * largest diagonal entry and W the weights of solve.c's set_ridge_weights
 * (a friction row's weight the mean normal load over its contact's, so that
 * friction is shared in proportion to the loads). A row leaves S when its
 * impulse comes out negative and joins it when it would close (w < 0);
 * then the system is refactored (at most ACTIVE_ROUNDS times). The answer
 * stands when every normal impulse is >= 0, every inactive row's w >= 0,
 * every friction force is inside its cone with its contact's coefficient
 * (mu_static: only islands whose contacts are all static are tried) and the
 * residual of the mixed LCP, recomputed from the compressed rows (not from
 * the factor), is at most the LCP layer's tolerance (1e-9 relative). Then
 * it is the island's answer, without sweeps. Otherwise NSGS (iterative.c)
 * solves the island from the trial's impulses, and the island waits 1, 3,
 * 7 .. 63 steps before its next full trial.
 *
 * Where the least-norm split does not fit the cones, a second weighting
 * is tried: friction rows FRICTION_HEAVY times heavier, which picks, among
 * the sticking answers, one with as little friction as the supports allow.
 * A stepped pyramid needs it: each upper cube on the corners of four, the
 * least-norm split leans on friction (0.52 of mu f_n on its worst contact
 * in the 30-cube pyramid, which then cannot stand) where the statics need
 * none. The weighting that stood is tried first the next time. Its ridge
 * is FRICTION_HEAVY times the dense one's on friction rows, and a contact
 * that needs its friction (a pile on a slope) would creep by that much:
 * its answer is polished to the unregularized trial (polish).
 *
 * Only where the factor stays sparse: an analysis whose L has more than
 * FILL_MAX times the entries of A's upper triangle (the 300-cube pile:
 * 5.3) leaves the island to NSGS, without factoring, while its rows are
 * unchanged (counted once in direct_fallbacks).
 *
 * At rest the matrix is not formed at all: the last step's impulses are
 * refined against the factor kept from the last trial that stood, with the
 * residual from the rows (refine): no Y, no compressed rows, no
 * factorization, two triangular sweeps a round.
 *
 * The matrix keeps the pattern of all the island's rows: a row off S has
 * its off-diagonal entries set to zero and its diagonal to 1 (its impulse
 * is 0), so the symbolic analysis depends on the rows only, not on the
 * active set. It is made (AMD ordering, then CHOLMOD's symbolic
 * factorization of the permuted matrix) when the island's rows change --
 * their keys (contact id and row, or the owner and row) or the pattern's
 * entry count and checksum -- and reused otherwise: each trial then fills
 * the permuted upper triangle in place and refactors numerically into the
 * same L. One analysis is kept per data: two large islands at rest in one
 * scene analyse in turn.
 *
 * Memory and allocation. What is sized by rows (the permutation, keys,
 * weights, impulses: a few doubles and ints a row of the model's row
 * capacity) is allocated at lk_data_new. CHOLMOD allocates, through its
 * own allocator (SuiteSparse_config, not lk_set_allocator's hook), the
 * ordering's scratch, the permuted matrix and L at each analysis --
 * O(entries of A + entries of L): for the 300-cube pile 0.7 and 3.7
 * million -- and frees the old ones; that happens when the island's rows
 * change, and each is counted in direct_analyses. Once the rows are
 * unchanged, a trial allocates nothing: the factorization is simplicial
 * with the natural ordering of the already permuted matrix
 * (cholmod_factorize then factors it in place, without the permuted copies
 * it makes otherwise), into the L of the analysis, and the solves are this
 * file's own two triangular sweeps over that L (cholmod_solve2 allocates
 * on every call). Simplicial (no BLAS, no threads) keeps the answer
 * bit-identical run to run. The library's rule holds: CHOLMOD's printing
 * is off (print level 0) and its errors are status values.
 *
 * lk_data_copy and lk_data_reset: the kept analysis, factor and trial
 * live outside the arena, so lk_sim_direct_copy gives a copy its own
 * copies of them (a copy refines where the original refines, and the two
 * continue bit-identically: a copy that made the full trial instead would
 * agree only to the refinement's tolerance), and lk_sim_direct_reset
 * forgets them (a reset data then steps as a new one: an old analysis
 * whose contact ids happen to match again must not be refined against).
 * Everything else that picks the path (the weighting that stood, the
 * waits) is in the arena. */
#include <cholmod.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "constraint/constraint_impl.h"
#include "lcp/lcp_layer.h" /* lk_lcp_row_residual, LK_LCP_EPS */
#include "sim/sim_internal.h"

/* As solve.c's: the ridge that picks the least-norm split. */
#define RIDGE 3e-10
/* The LCP layer's default tolerance (lk_lcp_options_default): the trial's
 * relative residual must be within it, as a pivoting solve's is. */
#define TRIAL_TOL 1e-9
/* Active-set changes (each a numeric refactorization) at most. */
#define ACTIVE_ROUNDS 4
#define FRICTION_HEAVY 1e4
/* The trial is made only where L has at most FILL_MAX times the entries
 * of A's upper triangle: its solves then cost about what NSGS's sweeps at
 * rest do. Measured at rest (by turns, against the product-form NSGS):
 * pyramid30 (L 1.8 times A) 273-311 us a step against 382-434,
 * pyramid100 (2.6) 0.76-1.0 ms against 1.30-1.33; pyramid300 (5.3) 10.4
 * ms against 5.0, and 2 Gflop a factorization. */
#define FILL_MAX 4.0

struct lk_sim_direct {
  int ncap;
  cholmod_common cm;
  int started;
  /* the analysis: rows, keys and pattern it was made for */
  int n;
  size_t nnz;
  unsigned long long sum;
  unsigned long long *key;
  int *perm, *iperm, *cursor;
  cholmod_sparse *A; /* permuted upper triangle, CSC, values filled each trial */
  cholmod_factor *L;
  double *x; /* ncap: a solve's right-hand side and answer, permuted */
  double *zs; /* ncap: impulses kept while polishing */
  int factored; /* L holds a numeric factor of the current pattern */
  int fill;     /* the analysis found L too full to pay (FILL_MAX): no
                   trial while the rows are unchanged */
  int kept;     /* ... of a trial that stood, whose active set is kact and
                   whose diagonal's regularization is reg */
  /* per island row */
  double *rw, *reg, *diag, *b, *z, *w;
  unsigned char *act, *uni, *kact;
};

static void drop_analysis(lk_sim_direct *D) {
  if (!D->started) return;
  cholmod_free_sparse(&D->A, &D->cm);
  cholmod_free_factor(&D->L, &D->cm);
  D->n = 0;
  D->nnz = 0;
  D->factored = 0;
  D->kept = 0;
  D->fill = 0;
}

void lk_sim_direct_reset(lk_sim_direct *D) {
  if (D) drop_analysis(D);
}

lk_status lk_sim_direct_copy(lk_sim_direct *dst, const lk_sim_direct *src) {
  if (!dst || !src || dst == src) return LK_OK;
  if (dst->ncap != src->ncap || !dst->started) return LK_INVALID_ARGUMENT;
  drop_analysis(dst);
  if (src->A && src->L) {
    /* CHOLMOD's allocator, as an analysis (a copy is not a step) */
    dst->A = cholmod_copy_sparse(src->A, &dst->cm);
    dst->L = cholmod_copy_factor(src->L, &dst->cm);
    if (!dst->A || !dst->L) {
      drop_analysis(dst);
      return LK_OUT_OF_MEMORY;
    }
  }
  dst->n = src->n;
  dst->nnz = src->nnz;
  dst->sum = src->sum;
  dst->factored = src->factored;
  dst->fill = src->fill;
  dst->kept = src->kept;
  size_t n = (size_t)src->ncap;
  memcpy(dst->key, src->key, n * sizeof *dst->key);
  memcpy(dst->perm, src->perm, n * sizeof *dst->perm);
  memcpy(dst->iperm, src->iperm, n * sizeof *dst->iperm);
  memcpy(dst->cursor, src->cursor, n * sizeof *dst->cursor);
  double *const dd[] = {dst->rw, dst->reg, dst->diag, dst->b, dst->z, dst->w, dst->x, dst->zs};
  const double *const sd[] = {src->rw, src->reg, src->diag, src->b,
                              src->z,  src->w,   src->x,    src->zs};
  for (size_t k = 0; k < sizeof dd / sizeof dd[0]; k++) memcpy(dd[k], sd[k], n * sizeof(double));
  memcpy(dst->act, src->act, n);
  memcpy(dst->uni, src->uni, n);
  memcpy(dst->kact, src->kact, n);
  return LK_OK;
}

/* n elements of size bytes at *p, now ncap (the first ones kept, the new
 * ones zero). */
static int resize(void *pp, size_t size, size_t n, size_t ncap) {
  void **p = pp;
  char *q = lk_realloc(*p, (ncap > 0 ? ncap : 1) * size);
  if (!q) return 0;
  if (ncap > n) memset(q + n * size, 0, (ncap - n) * size);
  *p = q;
  return 1;
}

lk_status lk_sim_direct_resize(lk_sim_direct *D, int ncap) {
  if (!D || ncap < 1) return LK_INVALID_ARGUMENT;
  size_t n = (size_t)D->ncap, c = (size_t)ncap;
  if (D->n > ncap) drop_analysis(D); /* cannot happen while growing */
  int ok = resize(&D->key, sizeof *D->key, n, c) && resize(&D->perm, sizeof *D->perm, n, c) &&
           resize(&D->iperm, sizeof *D->iperm, n, c) &&
           resize(&D->cursor, sizeof *D->cursor, n, c) && resize(&D->rw, sizeof(double), n, c) &&
           resize(&D->reg, sizeof(double), n, c) && resize(&D->diag, sizeof(double), n, c) &&
           resize(&D->b, sizeof(double), n, c) && resize(&D->z, sizeof(double), n, c) &&
           resize(&D->w, sizeof(double), n, c) && resize(&D->x, sizeof(double), n, c) &&
           resize(&D->zs, sizeof(double), n, c) && resize(&D->act, 1, n, c) &&
           resize(&D->uni, 1, n, c) && resize(&D->kact, 1, n, c);
  if (!ok) return LK_OUT_OF_MEMORY; /* the arrays resized so far hold at least min(n, c) */
  D->ncap = ncap;
  return LK_OK;
}

void lk_sim_direct_free(lk_sim_direct *D) {
  if (!D) return;
  drop_analysis(D);
  if (D->started) cholmod_finish(&D->cm);
  lk_free(D->key);
  lk_free(D->perm);
  lk_free(D->iperm);
  lk_free(D->cursor);
  lk_free(D->rw);
  lk_free(D->reg);
  lk_free(D->diag);
  lk_free(D->b);
  lk_free(D->z);
  lk_free(D->w);
  lk_free(D->act);
  lk_free(D->uni);
  lk_free(D->kact);
  lk_free(D->x);
  lk_free(D->zs);
  lk_free(D);
}

lk_sim_direct *lk_sim_direct_new(int ncap) {
  lk_sim_direct *D = lk_calloc(1, sizeof *D);
  if (!D) return NULL;
  D->ncap = ncap;
  size_t n = (size_t)ncap;
  D->key = LK_NEW_ARRAY(unsigned long long, n);
  D->perm = LK_NEW_ARRAY(int, n);
  D->iperm = LK_NEW_ARRAY(int, n);
  D->cursor = LK_NEW_ARRAY(int, n);
  D->rw = LK_NEW_ARRAY(double, n);
  D->reg = LK_NEW_ARRAY(double, n);
  D->diag = LK_NEW_ARRAY(double, n);
  D->b = LK_NEW_ARRAY(double, n);
  D->z = LK_NEW_ARRAY(double, n);
  D->w = LK_NEW_ARRAY(double, n);
  D->act = LK_NEW_ARRAY(unsigned char, n);
  D->uni = LK_NEW_ARRAY(unsigned char, n);
  D->kact = LK_NEW_ARRAY(unsigned char, n);
  D->x = LK_NEW_ARRAY(double, n);
  D->zs = LK_NEW_ARRAY(double, n);
  if (!D->zs || !D->x || !D->kact || !D->key || !D->perm || !D->iperm || !D->cursor || !D->rw || !D->reg || !D->diag || !D->b ||
      !D->z || !D->w || !D->act || !D->uni) {
    lk_sim_direct_free(D);
    return NULL;
  }
  if (!cholmod_start(&D->cm)) {
    lk_sim_direct_free(D);
    return NULL;
  }
  D->started = 1;
  D->cm.print = 0;            /* the library never prints */
  D->cm.error_handler = NULL; /* errors are statuses */
  D->cm.supernodal = CHOLMOD_SIMPLICIAL;
  D->cm.final_ll = 0; /* L D L^T */
  D->cm.final_asis = 1;
  D->cm.nmethods = 1;
  D->cm.method[0].ordering = CHOLMOD_NATURAL; /* the matrix comes permuted */
  D->cm.postorder = 0;
  return D;
}

/* A checksum of the compressed rows' pattern. */
static unsigned long long pattern_sum(const lk_sim_sparse *sp, int n) {
  unsigned long long s = 1469598103934665603ull;
  for (int i = 0; i < n; i++)
    for (int e = sp->rowp[i]; e < sp->rowp[i + 1]; e++) s = (s ^ (unsigned)sp->col[e]) * 1099511628211ull;
  return s;
}

/* The symbolic analysis of the island's pattern (sp's, rows keyed in
 * D->key already): AMD on the upper triangle, the permuted upper triangle,
 * CHOLMOD's analysis of it in its natural order. Returns 0 on failure. */
static int analyze(lk_sim_direct *D, const lk_sim_sparse *sp, int n) {
  drop_analysis(D);
  cholmod_common *cm = &D->cm;
  size_t nz = 0;
  for (int i = 0; i < n; i++)
    for (int e = sp->rowp[i]; e < sp->rowp[i + 1]; e++) nz += sp->col[e] <= i;
  /* upper triangle in the island's order: column j holds CSR row j's
   * entries of columns <= j (A is symmetric) */
  cholmod_sparse *A0 = cholmod_allocate_sparse((size_t)n, (size_t)n, nz, 1, 1, 1, CHOLMOD_PATTERN, cm);
  if (!A0) return 0;
  int *p0 = A0->p, *i0 = A0->i;
  size_t k = 0;
  for (int j = 0; j < n; j++) {
    p0[j] = (int)k;
    for (int e = sp->rowp[j]; e < sp->rowp[j + 1]; e++)
      if (sp->col[e] <= j) i0[k++] = sp->col[e];
  }
  p0[n] = (int)k;
  int ok = cholmod_amd(A0, NULL, 0, D->perm, cm);
  cholmod_free_sparse(&A0, cm);
  if (!ok) return 0;
  for (int i = 0; i < n; i++) D->iperm[D->perm[i]] = i;
  /* P A P^T, upper: new row ir (old perm[ir]) in increasing order, so
   * each column's rows come sorted */
  int *cnt = D->cursor;
  for (int j = 0; j < n; j++) cnt[j] = 0;
  for (int ir = 0; ir < n; ir++) {
    int r = D->perm[ir];
    for (int e = sp->rowp[r]; e < sp->rowp[r + 1]; e++) {
      int ic = D->iperm[sp->col[e]];
      if (ir <= ic) cnt[ic]++;
    }
  }
  D->A = cholmod_allocate_sparse((size_t)n, (size_t)n, nz, 1, 1, 1, CHOLMOD_REAL, cm);
  if (!D->A) return 0;
  int *p = D->A->p, *ri = D->A->i;
  p[0] = 0;
  for (int j = 0; j < n; j++) p[j + 1] = p[j] + cnt[j];
  for (int j = 0; j < n; j++) cnt[j] = p[j];
  for (int ir = 0; ir < n; ir++) {
    int r = D->perm[ir];
    for (int e = sp->rowp[r]; e < sp->rowp[r + 1]; e++) {
      int ic = D->iperm[sp->col[e]];
      if (ir <= ic) ri[cnt[ic]++] = ir;
    }
  }
  D->L = cholmod_analyze(D->A, cm);
  /* the solves below read L as CHOLMOD's simplicial L D L^T in the
   * natural order */
  if (!D->L || cm->status < CHOLMOD_OK || D->L->is_super || D->L->ordering != CHOLMOD_NATURAL)
    return 0;
  if (D->L->Perm)
    for (int i = 0; i < n; i++)
      if (((const int *)D->L->Perm)[i] != i) return 0;
  D->n = n;
  D->nnz = sp->nnz;
  D->sum = pattern_sum(sp, n);
  D->fill = cm->lnz > FILL_MAX * (double)nz;
  return 1;
}

/* x <- (L D L^T)^-1 x with CHOLMOD's simplicial factor (column j: D_jj
 * first, then L's entries below the diagonal; natural order): the two
 * triangular sweeps and the diagonal, in place, allocating nothing
 * (cholmod_solve2 of CHOLMOD 3.0 allocates on every call). */
static void ldl_solve(const cholmod_factor *L, int n, double *x) {
  const int *Lp = L->p, *Li = L->i, *Lnz = L->nz;
  const double *Lx = L->x;
  for (int j = 0; j < n; j++) {
    double xj = x[j];
    if (xj == 0.0) continue;
    for (int p = Lp[j] + 1, e = Lp[j] + Lnz[j]; p < e; p++) x[Li[p]] -= Lx[p] * xj;
  }
  for (int j = 0; j < n; j++) x[j] /= Lx[Lp[j]];
  for (int j = n - 1; j >= 0; j--) {
    double s = x[j];
    for (int p = Lp[j] + 1, e = Lp[j] + Lnz[j]; p < e; p++) s -= Lx[p] * x[Li[p]];
    x[j] = s;
  }
}

/* Fill the permuted matrix from the compressed rows with this trial's
 * diagonal and active set, factor it, solve; z of the island's rows.
 * Returns 0 when the factorization or the solve fails. */
static int factor_solve(lk_sim_direct *D, const lk_sim_sparse *sp, int n, lk_step_report *report) {
  cholmod_common *cm = &D->cm;
  const int *p = D->A->p;
  double *x = D->A->x;
  int *cur = D->cursor;
  for (int j = 0; j < n; j++) cur[j] = p[j];
  for (int ir = 0; ir < n; ir++) {
    int r = D->perm[ir];
    for (int e = sp->rowp[r]; e < sp->rowp[r + 1]; e++) {
      int c = sp->col[e], ic = D->iperm[c];
      if (ir > ic) continue;
      double v = sp->val[e];
      if (r == c)
        v = D->act[r] ? v + D->reg[r] : 1.0;
      else if (!D->act[r] || !D->act[c])
        v = 0.0;
      x[cur[ic]++] = v;
    }
  }
  report->direct_factors++;
  if (!cholmod_factorize(D->A, D->L, cm) || cm->status != CHOLMOD_OK || D->L->minor < (size_t)n)
    return 0;
  D->factored = 1;
  D->kept = 0;
  if (!(D->L->xtype == CHOLMOD_REAL && !D->L->is_ll && !D->L->is_super)) return 0;
  for (int ir = 0; ir < n; ir++) {
    int r = D->perm[ir];
    D->x[ir] = D->act[r] ? -D->b[r] : 0.0;
  }
  ldl_solve(D->L, n, D->x);
  for (int ir = 0; ir < n; ir++) D->z[D->perm[ir]] = D->x[ir];
  return lk_all_finite(D->z, (size_t)n);
}

/* w = (A + reg) z + b from the compressed rows (reg on active rows: off S
 * z is 0); the relative residual of the trial's mixed LCP (unilateral rows
 * complementary, every other row an equality), and its scale. */
static double trial_residual(lk_sim_direct *D, const lk_sim_sparse *sp, int n, double *scale_out) {
  double r_max = 0, s_max = 0;
  for (int i = 0; i < n; i++) {
    double az = 0, aabs = 0;
    for (int e = sp->rowp[i]; e < sp->rowp[i + 1]; e++) {
      double t = sp->val[e] * D->z[sp->col[e]];
      az += t;
      aabs += fabs(t);
    }
    double w = az + D->reg[i] * D->z[i] + D->b[i];
    D->w[i] = w;
    /* (friction rows off S: their bound is mu 0, z must be 0) */
    double r = D->uni[i] ? lk_lcp_row_residual(D->z[i], w, 0, INFINITY)
               : D->act[i] ? fabs(w) : fabs(D->z[i]);
    if (!(r <= INFINITY)) return INFINITY;
    r_max = lk_maxd(r_max, r);
    s_max = lk_maxd(s_max, lk_maxd(fabs(D->b[i]), aabs));
  }
  *scale_out = 1 + s_max;
  return r_max / (1 + s_max);
}

/* Whether every friction force lies inside its cone (the disk, or with
 * the box cone its box; the coefficient the rows carry: mu_static on a
 * static contact) and every boxed row within its bounds, as solve.c's
 * trial_feasible judges (1e-9 of slack; an idle contact's round-off is no
 * grip). */
static int trial_cones(const lk_model *m, const lk_sim_data *sd, const lk_sim_direct *D,
                       const int *rows, int n) {
  const int box = m->opt.friction_cone == LK_CONE_BOX;
  const double slack = 1 + 1e-9;
  double zmax = 0;
  for (int i = 0; i < n; i++)
    if (D->uni[i]) zmax = lk_maxd(zmax, D->z[i]);
  const double idle = 1e-15 + 1e-9 * zmax;
  for (int i = 0; i < n; i++) {
    const lk_row *R = &sd->row[rows[i]];
    double z = D->z[i];
    if (R->kind == LK_ROW_BOX) {
      if (z < R->lo * slack - 1e-15 || z > R->hi * slack + 1e-15) return 0;
      continue;
    }
    if (R->kind != LK_ROW_FRICTION) continue;
    const lk_row *R1 = R->pair >= 0 && (R->crow == 2 || R->crow == 5) ? &sd->row[R->pair] : R;
    double bound = R1->mu * lk_maxd(D->z[sd->rowloc[R->normal]], 0) * slack + idle;
    if (R->pair < 0 || box) {
      if (fabs(z) > bound) return 0;
      continue;
    }
    if (R1 != R) continue; /* judged with its partner */
    double z2 = D->z[sd->rowloc[R->pair]];
    if (sqrt(z * z + z2 * z2) > bound) return 0;
  }
  return 1;
}

/* The dense trial's ridge weights (lk_sim_ridge_weights), from the last
 * step's loads or from z's. */
static void ridge_weights(const lk_sim_data *sd, lk_sim_direct *D, const int *rows, int n,
                          int use_z) {
  lk_sim_ridge_weights(sd, rows, n, use_z ? D->z : NULL, D->rw, D->w); /* D->w: scratch */
}

/* Whether the island can be tried: every contact static with a state from
 * the last step, a friction row at least. The unilateral rows' guess into
 * D->act (1: in S), D->uni whether a row is unilateral. */
static int trial_applies(const lk_sim_data *sd, lk_sim_direct *D, const int *rows, int n) {
  int has_friction = 0;
  for (int i = 0; i < n; i++) {
    const lk_row *R = &sd->row[rows[i]];
    D->uni[i] = R->kind == LK_ROW_UNILATERAL;
    D->act[i] = 1;
    if (R->kind == LK_ROW_FRICTION || R->kind == LK_ROW_BOX) has_friction = 1;
    if (R->ckind == LK_CONSTRAINT_CONTACT) {
      const lk_contact_mem *mem = &sd->cmem[R->cindex];
      if (!mem->valid || mem->state != LK_FRICTION_STATIC) return 0;
      if (D->uni[i]) D->act[i] = mem->z[R->crow] > 0;
    } else if (R->ckind == LK_CONSTRAINT_LIMIT && D->uni[i]) {
      const lk_contact_mem *mem = &sd->limmem[R->cindex];
      D->act[i] = mem->valid ? mem->basis[R->crow] == LK_LCP_BASIC : R->bias <= 0;
    } else if (D->uni[i]) {
      D->act[i] = R->bias <= 0;
    }
  }
  /* A contact that carries nothing has no friction: its friction rows
   * follow their normal off S. */
  for (int i = 0; i < n; i++) {
    const lk_row *R = &sd->row[rows[i]];
    if (R->kind == LK_ROW_FRICTION) D->act[i] = D->act[sd->rowloc[R->normal]];
  }
  return has_friction;
}

/* Rows off S with w < 0 join it, rows in S with z < 0 leave it (z 0 within
 * the tolerance: set to 0); returns whether S changed. */
static int update_active(const lk_sim_data *sd, lk_sim_direct *D, const int *rows, int n,
                         double scale) {
  const double tol = TRIAL_TOL * scale;
  int changed = 0;
  for (int i = 0; i < n; i++) {
    if (!D->uni[i]) continue;
    if (D->act[i] && D->z[i] < 0) {
      if (D->z[i] < -tol) {
        D->act[i] = 0;
        changed = 1;
      } else {
        D->z[i] = 0;
      }
    } else if (!D->act[i] && D->w[i] < -tol) {
      D->act[i] = 1;
      changed = 1;
    }
  }
  if (changed)
    for (int i = 0; i < n; i++) {
      const lk_row *R = &sd->row[rows[i]];
      if (R->kind == LK_ROW_FRICTION) D->act[i] = D->act[sd->rowloc[R->normal]];
    }
  return changed;
}

/* x <- (the kept factor)^-1 x for x over the island's rows (rows off S:
 * 0). Returns 0 if the factor is not one ldl_solve reads. */
static int kept_solve(lk_sim_direct *D, int n, double *x) {
  if (!(D->L->xtype == CHOLMOD_REAL && !D->L->is_ll && !D->L->is_super)) return 0;
  for (int ir = 0; ir < n; ir++) {
    int r = D->perm[ir];
    D->x[ir] = D->act[r] ? x[r] : 0.0;
  }
  ldl_solve(D->L, n, D->x);
  for (int ir = 0; ir < n; ir++) x[D->perm[ir]] = D->x[ir];
  return 1;
}

/* w = A z + reg z + b of the island's rows from the rows themselves, with
 * no matrix: u = M~^-1 J^T z on the island's trees (J^T z, one solve with
 * the factor a tree) into u, w_i = J_i u + reg_i z_i + b_i into D->w; the
 * trial's relative residual (as trial_residual's, scaled by 1 + max(|b_i|,
 * |(A z)_i|)), *scale that scale; INFINITY on a NaN. */
static double free_residual(const lk_model *m, lk_data *d, lk_sim_direct *D, const int *rows,
                            int n, int nt, double *u, double *scale_out) {
  lk_sim_island_velocity(m, d, rows, n, D->z, nt, u);
  double r_max = 0, s_max = 0;
  for (int i = 0; i < n; i++) {
    double az = lk_rows_dot(d, rows[i], u), w = az + D->reg[i] * D->z[i] + D->b[i];
    D->w[i] = w;
    double r = D->uni[i] ? lk_lcp_row_residual(D->z[i], w, 0, INFINITY)
               : D->act[i] ? fabs(w) : fabs(D->z[i]);
    if (!(r <= INFINITY)) return INFINITY;
    r_max = lk_maxd(r_max, r);
    s_max = lk_maxd(s_max, lk_maxd(fabs(D->b[i]), fabs(az)));
  }
  *scale_out = 1 + s_max;
  return r_max / (1 + s_max);
}

/* The trial without a matrix (the step at rest): the last step's impulses,
 * refined against the factor kept from the last trial that stood -- z_S
 * -= F^-1 r_S with the residual r from the rows (free_residual), until it
 * is what a fresh solve leaves (REFINE_ULPS: the dense path's guess
 * test, solve.c) -- on the same rows, with the same active set. The
 * trial is this step's (its ridge weighted by the last step's loads). The factor is of an earlier step's matrix; at rest it differs
 * from this step's by far less than its conditioning amplifies, so each
 * round gains digits. Nothing is accepted but by the trial's own checks,
 * on this step's rows. Forms neither Y nor A: the velocity change is left
 * in sim.dvg (the rows marked guessed, as solve.c's trial_by_guess does).
 * Returns 1 when it stands (z and w in D). */
#define REFINE_MAX 4
#define REFINE_ULPS 10.0

static int refine(const lk_model *m, lk_data *d, lk_sim_direct *D, const int *rows, int n,
                  double *res_out) {
  lk_sim_data *sd = &d->sim;
  if (!D->kept || D->n != n) return 0;
  for (int i = 0; i < n; i++) {
    const lk_row *R = &sd->row[rows[i]];
    if (R->ckind != LK_CONSTRAINT_CONTACT || D->key[i] != lk_sim_row_key(sd, R)) return 0;
  }
  memcpy(D->act, D->kact, (size_t)n);
  /* this step's trial, as the dense path's trial_by_guess poses it: the
   * ridge's scale from the rows' diagonal when their Y was last formed,
   * the weights from the last step's loads */
  double dmax = 0;
  for (int i = 0; i < n; i++) {
    const lk_row *R = &sd->row[rows[i]];
    dmax = lk_maxd(dmax, sd->cmem[R->cindex].adiag[R->crow]);
  }
  if (!(dmax > 0)) return 0;
  ridge_weights(sd, D, rows, n, 0);
  for (int i = 0; i < n; i++) {
    /* (the heavy weights' answer is polished to the unregularized trial:
     * no ridge in its target) */
    D->reg[i] = sd->st->direct_heavy ? m->opt.cfm : RIDGE * dmax * D->rw[i] + m->opt.cfm;
  }
  for (int i = 0; i < n; i++) {
    const lk_row *R = &sd->row[rows[i]];
    D->b[i] = R->jv + R->bias;
    D->z[i] = D->act[i] ? sd->cmem[R->cindex].z[R->crow] : 0.0;
    if (D->uni[i] && !(D->z[i] >= 0)) D->z[i] = 0;
  }
  const int nt = lk_sim_island_trees(sd, rows, n);
  double *u = sd->dvg, scale = 1;
  double *r = D->diag; /* scratch: the residual (the diagonal is the full path's) */
  double res = free_residual(m, d, D, rows, n, nt, u, &scale);
  const double tol = REFINE_ULPS * LK_LCP_EPS;
  for (int round = 0; round < REFINE_MAX && res > tol; round++) {
    for (int i = 0; i < n; i++) r[i] = D->w[i];
    if (!kept_solve(D, n, r)) break;
    for (int i = 0; i < n; i++)
      if (D->act[i]) D->z[i] -= r[i];
    double prev = res;
    res = free_residual(m, d, D, rows, n, nt, u, &scale);
    if (!(res <= 0.1 * prev)) break;
  }
  int ok = res <= tol;
  for (int i = 0; i < n && ok; i++)
    if (D->uni[i] && (D->act[i] ? D->z[i] < 0 : D->w[i] < -TRIAL_TOL * scale)) ok = 0;
  if (ok) ok = trial_cones(m, sd, D, rows, n);
  if (!ok) {
    lk_sim_zero_trees(sd, nt, u);
    return 0;
  }
  for (int i = 0; i < n; i++) sd->row[rows[i]].guessed = 1;
  *res_out = res;
  return 1;
}

/* The island's wait before its next full trial: the most of its
 * contacts' (1, 3, 7 .. 63 steps after consecutive misses, so that an
 * island that keeps missing -- contacts that keep changing, a pile that
 * needs friction at its bound -- pays for the factorization rarely);
 * outcome -1 counts a step down, 0 a miss, 1 a trial that stood. */
static int island_wait(const lk_sim_data *sd, const int *rows, int n, int outcome) {
  int wait = 0;
  for (int i = 0; i < n; i++) {
    const lk_row *R = &sd->row[rows[i]];
    if (R->ckind != LK_CONSTRAINT_CONTACT || R->crow != 0) continue;
    lk_contact_mem *mem = &sd->cmem[R->cindex];
    if (outcome < 0) {
      if (mem->guess_wait > wait) wait = mem->guess_wait;
      if (mem->guess_wait > 0) mem->guess_wait--;
    } else if (outcome > 0) {
      mem->guess_wait = mem->guess_backoff = 0;
    } else {
      mem->guess_backoff =
          (unsigned char)(mem->guess_backoff < 32 ? 2 * mem->guess_backoff + 1 : 63);
      mem->guess_wait = mem->guess_backoff;
    }
  }
  return wait;
}

/* The island's answer from D: impulses, velocities, row states (every
 * contact stays static). */
static void finish(lk_sim_data *sd, lk_sim_direct *D, const int *rows, int n, int have_diag) {
  for (int i = 0; i < n; i++) {
    lk_row *R = &sd->row[rows[i]];
    R->z = D->z[i];
    R->w = D->w[i];
    unsigned char s = D->uni[i] && !(D->z[i] > 0) ? LK_LCP_LOWER : LK_LCP_BASIC;
    if (R->ckind == LK_CONSTRAINT_CONTACT) {
      lk_contact_mem *mem = &sd->cmem[R->cindex];
      mem->basis[R->crow] = s;
      if (have_diag) mem->adiag[R->crow] = D->diag[i];
      mem->locked = 0;
    } else if (R->ckind == LK_CONSTRAINT_LIMIT) {
      sd->limmem[R->cindex].basis[R->crow] = s;
      sd->limmem[R->cindex].valid = 1;
    }
  }
}

/* The heavy weights' answer polished: their ridge, FRICTION_HEAVY times
 * the dense one's on friction rows, would let a contact that needs its
 * friction (a pile on a slope) creep by that much more. A few rounds of
 * refinement towards the unregularized trial (A_SS + cfm) z_S = -b_S
 * against the factor just made (the proximal-point iteration: each round
 * removes the ridge's share of the velocity but for r / (lambda + r) of it
 * along an eigenvector of A of eigenvalue lambda, and leaves the split of
 * redundant supports as the ridge picked it) take that creep out. Kept
 * only if the polished answer passes the trial's checks (else the
 * regularized one stands). */
#define POLISH_ROUNDS 3

static void polish(const lk_model *m, const lk_sim_data *sd, lk_sim_direct *D,
                   const lk_sim_sparse *sp, const int *rows, int n, double *res, double *scale) {
  memcpy(D->zs, D->z, (size_t)n * sizeof *D->z);
  for (int i = 0; i < n; i++) D->reg[i] = m->opt.cfm;
  double r = trial_residual(D, sp, n, scale);
  for (int round = 0; round < POLISH_ROUNDS && r > REFINE_ULPS * LK_LCP_EPS; round++) {
    double *x = D->w; /* the residual, solved in place */
    if (!kept_solve(D, n, x)) break;
    for (int i = 0; i < n; i++)
      if (D->act[i]) D->z[i] -= x[i];
    r = trial_residual(D, sp, n, scale);
  }
  int ok = r <= TRIAL_TOL && trial_cones(m, sd, D, rows, n);
  for (int i = 0; i < n && ok; i++)
    if (D->uni[i] && (D->act[i] ? D->z[i] < 0 : D->w[i] < -TRIAL_TOL * *scale)) ok = 0;
  if (ok) {
    *res = r;
    return;
  }
  memcpy(D->z, D->zs, (size_t)n * sizeof *D->z);
  double ridge = 0;
  for (int i = 0; i < n; i++) ridge = lk_maxd(ridge, D->diag[i]);
  for (int i = 0; i < n; i++) D->reg[i] = RIDGE * ridge * D->rw[i] + m->opt.cfm; /* (rw heavy) */
  *res = trial_residual(D, sp, n, scale);
}

lk_status lk_sim_solve_direct(const lk_model *m, lk_data *d, const int *rows, int n,
                              lk_step_report *report) {
  lk_sim_data *sd = &d->sim;
  lk_sim_direct *D = sd->direct;
  lk_sim_sparse *sp = sd->sparse;
  if (!D || !sp || n > D->ncap || n > sp->ncap)
    return lk_sim_solve_iterative(m, d, rows, n, NULL, 0, LK_ISLAND_NSGS, report);
  /* Too full to pay, the same rows: NSGS, asked first (it costs one pass
   * over the rows where trial_applies costs another over their contacts:
   * a resting 1000-cube pile asks on every step). */
  if (D->fill && D->n == n) {
    int same = 1;
    for (int i = 0; i < n && same; i++) same = D->key[i] == lk_sim_row_key(sd, &sd->row[rows[i]]);
    if (same) {
      if (lk_sim_iterative_guess(m, d, rows, n, report)) return LK_OK;
      return lk_sim_solve_iterative(m, d, rows, n, NULL, 0, LK_ISLAND_NSGS, report);
    }
  }
  /* Something slides (or a contact is new): Newton, NSGS after it */
  if (!trial_applies(sd, D, rows, n))
    return lk_sim_solve_iterative(m, d, rows, n, NULL, 0, LK_ISLAND_NEWTON, report);
  report->direct_trials++;
  double res = INFINITY, scale = 1;
  if (refine(m, d, D, rows, n, &res)) {
    finish(sd, D, rows, n, 0);
    report->lcp_solves++;
    report->direct_solves++;
    report->direct_refined++;
    if (res > report->lcp_residual) report->lcp_residual = res;
    if (report->friction_passes < 1) report->friction_passes = 1;
    return LK_OK;
  }
  if (!trial_applies(sd, D, rows, n)) /* (refine used D->act) */
    return lk_sim_solve_iterative(m, d, rows, n, NULL, 0, LK_ISLAND_NEWTON, report);
  if (island_wait(sd, rows, n, -1) > 0) {
    report->direct_trials--; /* waiting: not tried */
    return lk_sim_solve_iterative(m, d, rows, n, NULL, 0, LK_ISLAND_NSGS, report);
  }
  lk_sim_rows_y(m, d, rows, n);
  lk_status st = lk_sim_delassus_csr(m, d, rows, n, sp);
  if (st) return st;
  /* Same rows, same pattern: the analysis stands. */
  int same = D->n == n && D->nnz == sp->nnz;
  for (int i = 0; i < n; i++) {
    unsigned long long k = lk_sim_row_key(sd, &sd->row[rows[i]]);
    if (same && D->key[i] != k) same = 0;
    D->key[i] = k;
  }
  if (same && D->sum != pattern_sum(sp, n)) same = 0;
  if (!same) {
    report->direct_analyses++;
    if (!analyze(D, sp, n)) {
      drop_analysis(D);
      report->direct_fallbacks++;
      return lk_sim_solve_iterative(m, d, rows, n, NULL, 1, LK_ISLAND_NSGS, report);
    }
    if (D->fill) {
      report->direct_fallbacks++;
      return lk_sim_solve_iterative(m, d, rows, n, NULL, 1, LK_ISLAND_NSGS, report);
    }
  }
  double dmax = 0;
  for (int i = 0; i < n; i++) {
    const lk_row *R = &sd->row[rows[i]];
    D->b[i] = R->jv + R->bias;
    D->diag[i] = 0;
    for (int e = sp->rowp[i]; e < sp->rowp[i + 1]; e++)
      if (sp->col[e] == i) D->diag[i] = sp->val[e];
    dmax = lk_maxd(dmax, D->diag[i]);
  }
  const double ridge = RIDGE * dmax;
  /* Two weightings of the ridge: the dense trial's, and friction rows
   * FRICTION_HEAVY times heavier (the least-friction split; see the head
   * of the file). The one that stood last time first, with the last
   * step's loads; then the other, then that one again, with the trial's
   * own loads. */
  int ok = 0, solved = 0, heavy = 0;
  for (int pass = 0; pass < 3 && !ok; pass++) {
    heavy = sd->st->direct_heavy ^ (pass == 1);
    ridge_weights(sd, D, rows, n, pass > 0);
    if (heavy)
      for (int i = 0; i < n; i++)
        if (sd->row[rows[i]].kind == LK_ROW_FRICTION) D->rw[i] *= FRICTION_HEAVY;
    for (int i = 0; i < n; i++) D->reg[i] = ridge * D->rw[i] + m->opt.cfm;
    for (int round = 0; round <= ACTIVE_ROUNDS; round++) {
      solved = factor_solve(D, sp, n, report);
      if (!solved) break;
      res = trial_residual(D, sp, n, &scale);
      if (!update_active(sd, D, rows, n, scale)) break;
      if (round == ACTIVE_ROUNDS) solved = 0;
    }
    if (!solved) break;
    res = trial_residual(D, sp, n, &scale); /* after z's clamping */
    ok = res <= TRIAL_TOL && trial_cones(m, sd, D, rows, n);
  }
  if (ok && heavy) polish(m, sd, D, sp, rows, n, &res, &scale);
  island_wait(sd, rows, n, ok);
  if (!ok) {
    report->direct_fallbacks++;
    /* a cone broke, something slips: Newton (NSGS after it) from the
     * trial's impulses when it solved, else from the last step's */
    return lk_sim_solve_iterative(m, d, rows, n, solved ? D->z : NULL, 1, LK_ISLAND_NEWTON,
                                  report);
  }
  D->kept = 1;
  sd->st->direct_heavy = heavy;
  memcpy(D->kact, D->act, (size_t)n);
  finish(sd, D, rows, n, 1);
  report->lcp_solves++;
  report->direct_solves++;
  if (res > report->lcp_residual) report->lcp_residual = res;
  if (report->friction_passes < 1) report->friction_passes = 1;
  return LK_OK;
}
