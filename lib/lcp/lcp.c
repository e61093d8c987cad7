/* The solver-independent part of a solve: options, workspace, input
 * checks, and the final verification that turns a solver's claim into a
 * status the caller can trust. */
#include <string.h>

#include "lcp/lcp_internal.h"

void lk_lcp_options_default(lk_lcp_options *o) {
  if (!o) return;
  memset(o, 0, sizeof *o);
  o->max_pivots = 0;
  o->tol = 1e-9;
  o->pivot_tol = 1e-11;
  o->max_restarts = 3;
  o->max_passes = 30;
  o->basis_in = NULL;
  o->basis_out = NULL;
  o->z_guess = NULL;
  o->guess_tol = 1e-13;
  o->guess_untested = 0;
  o->symmetric = 0;
  o->max_sweeps = 0;
  o->omega = 0.0;
  o->anderson = 3;
}

const char *lk_lcp_solver_name(const lk_lcp_solver *s) { return s ? s->name : "(none)"; }

const lk_lcp_solver *lk_lcp_solver_by_name(const char *name) {
  if (!name) return NULL;
  if (strcmp(name, "lemke") == 0) return lk_lcp_lemke;
  if (strcmp(name, "dantzig") == 0) return lk_lcp_dantzig;
  if (strcmp(name, "nsgs") == 0) return lk_lcp_nsgs;
  if (strcmp(name, "newton") == 0) return lk_lcp_newton;
  return NULL;
}

static lk_lcp_workspace *workspace_new(int nmax, int dense, int mmax) {
  if (nmax < 0 || mmax < 0) return NULL;
  lk_lcp_workspace *ws = lk_calloc(1, sizeof *ws);
  if (!ws) return NULL;
  ws->nmax = nmax;
  ws->dense = dense;
  ws->fk = -1;
  size_t m = nmax > 0 ? (size_t)nmax : 1;
  int ok = 1;
  if (dense) {
    if (m > ((size_t)-1 / sizeof(double)) / m) ok = 0;
    for (int k = 0; k < LK_LCP_NMAT && ok; k++)
      ok &= (ws->mat[k] = LK_NEW_ARRAY(double, m * m)) != NULL;
  }
  for (int k = 0; k < LK_LCP_NVEC && ok; k++) ok &= (ws->vec[k] = LK_NEW_ARRAY(double, m)) != NULL;
  for (int k = 0; k < LK_LCP_NIVEC && ok; k++) ok &= (ws->ivec[k] = LK_NEW_ARRAY(int, m)) != NULL;
  for (int k = 0; k < LK_LCP_NBVEC && ok; k++)
    ok &= (ws->bvec[k] = LK_NEW_ARRAY(unsigned char, m)) != NULL;
  if (ok) ok = (ws->nsgs_blk = lk_malloc(m * lk_nsgs_block_bytes())) != NULL;
  if (ok) ok = (ws->nsgs_d = LK_NEW_ARRAY(double, LK_NSGS_DOUBLES * m)) != NULL;
  if (ok) ok = (ws->nsgs_i = LK_NEW_ARRAY(int, LK_NSGS_INTS * m + 1)) != NULL;
  if (ok) ok = (ws->nsgs_b = LK_NEW_ARRAY(unsigned char, 2 * m)) != NULL;
  size_t dm = m < LK_NSGS_DIRECT_MAX ? m : LK_NSGS_DIRECT_MAX;
  ws->nsgs_dm = (int)dm;
  if (ok) ok = (ws->nsgs_dd = LK_NEW_ARRAY(double, dm * dm + LK_NSGS_DD * dm)) != NULL;
  if (ok) ok = (ws->nsgs_di = LK_NEW_ARRAY(int, LK_NSGS_DI * dm)) != NULL;
  ws->mmax = mmax;
  size_t um = mmax > 0 ? (size_t)mmax : 1, tcap = (size_t)LK_NSGS_PROD_ROW * dm;
  if (ok) ok = (ws->nsgs_u = LK_NEW_ARRAY(double, 2 * um)) != NULL;
  if (ok) ok = (ws->nsgs_tp = LK_NEW_ARRAY(int, um + 1)) != NULL;
  if (ok) ok = (ws->nsgs_tr = LK_NEW_ARRAY(int, tcap)) != NULL;
  if (ok) ok = (ws->nsgs_tv = LK_NEW_ARRAY(double, tcap)) != NULL;
  if (ok) ok = (ws->nsgs_ra = LK_NEW_ARRAY(double, dm)) != NULL;
  if (ok) ok = (ws->nsgs_rm = LK_NEW_ARRAY(int, 2 * dm)) != NULL;
  if (!ok) {
    lk_lcp_workspace_free(ws);
    return NULL;
  }
  return ws;
}

lk_lcp_workspace *lk_lcp_workspace_new(int nmax) { return workspace_new(nmax, 1, nmax); }

lk_lcp_workspace *lk_lcp_workspace_new_for(const lk_lcp_solver *type, int nmax) {
  if (!type) return NULL;
  return workspace_new(nmax, !type->iterative, nmax);
}

lk_lcp_workspace *lk_lcp_workspace_new_nsgs(int nmax, int mmax) {
  return workspace_new(nmax, 0, mmax);
}

void lk_lcp_workspace_free(lk_lcp_workspace *ws) {
  if (!ws) return;
  for (int k = 0; k < LK_LCP_NMAT; k++) lk_free(ws->mat[k]);
  for (int k = 0; k < LK_LCP_NVEC; k++) lk_free(ws->vec[k]);
  for (int k = 0; k < LK_LCP_NIVEC; k++) lk_free(ws->ivec[k]);
  for (int k = 0; k < LK_LCP_NBVEC; k++) lk_free(ws->bvec[k]);
  lk_free(ws->nsgs_blk);
  lk_free(ws->nsgs_d);
  lk_free(ws->nsgs_i);
  lk_free(ws->nsgs_b);
  lk_free(ws->nsgs_dd);
  lk_free(ws->nsgs_di);
  lk_free(ws->nsgs_u);
  lk_free(ws->nsgs_tp);
  lk_free(ws->nsgs_tr);
  lk_free(ws->nsgs_tv);
  lk_free(ws->nsgs_ra);
  lk_free(ws->nsgs_rm);
  lk_newton_free(ws->newton);
  lk_free(ws);
}

int lk_lcp_workspace_capacity(const lk_lcp_workspace *ws) { return ws ? ws->nmax : 0; }

int lk_lcp_last_factor(const lk_lcp_workspace *ws, lk_ldlt *f, const int **cidx) {
  if (!ws || ws->fk < 0) return 0;
  /* where dantzig_run keeps its factor (D.F) and clamped rows (D.cidx) */
  f->k = ws->fk;
  f->ld = ws->nmax;
  f->L = ws->mat[0];
  f->d = ws->vec[6];
  f->tmp = ws->vec[7];
  f->last = ws->ivec[6];
  f->has_last = ws->fhas_last;
  *cidx = ws->ivec[0];
  return 1;
}

int lk_lcp_capacity_needed(const lk_lcp *p) {
  if (lk_lcp_check(p, NULL) != LK_OK) return -1;
  if (p->n == 0) return 0;
  int ok, ne = lk_lcp_expansion_size(p, &ok);
  return ne > p->n ? ne : p->n;
}

/* The plain sum of n entries: infinite or NaN when an entry is, and also
 * (a false alarm) when finite entries overflow. One add an entry, where
 * lk_lcp_finite spends a multiply and an add. */
static double sum_entries(const double *restrict x, size_t n) {
#if LK_HAVE_V2D
  v2d s01 = {0.0, 0.0}, s23 = {0.0, 0.0};
  size_t i = 0;
  for (; i + 4 <= n; i += 4) {
    s01 += load2(x + i);
    s23 += load2(x + i + 2);
  }
  double s0 = s01[0];
  for (; i < n; i++) s0 += x[i];
  return (s0 + s01[1]) + (s23[0] + s23[1]);
#else
  double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0;
  size_t i = 0;
  for (; i + 4 <= n; i += 4) {
    s0 += x[i];
    s1 += x[i + 1];
    s2 += x[i + 2];
    s3 += x[i + 3];
  }
  for (; i < n; i++) s0 += x[i];
  return (s0 + s1) + (s2 + s3);
#endif
}

/* Whether every entry of M may be finite (see sum_entries): a whole
 * contiguous M in one run. */
static int matrix_maybe_finite(const double *M, int n, int ldm) {
  double s = 0.0;
  if (ldm == n) {
    s = sum_entries(M, (size_t)n * (size_t)n);
  } else {
    for (int i = 0; i < n; i++) s += sum_entries(M + (size_t)i * (size_t)ldm, (size_t)n);
  }
  return s - s == 0.0;
}

/* Compressed rows' values (a pattern built by the caller, or one just
 * checked): finite, by their sum (sum_entries), row by row only to name
 * one. */
static lk_status check_values(const lk_lcp_csr *c, int n, const char *what, lk_error *err) {
  if (!c->col || !c->val)
    return lk_error_set(err, LK_INVALID_ARGUMENT, "%s: compressed rows without columns or values",
                        what);
  double sum = n > 0 ? sum_entries(c->val, (size_t)c->row[n]) : 0.0;
  if (!(sum - sum == 0.0))
    for (int i = 0; i < n; i++)
      if (!lk_lcp_finite(c->val + c->row[i], c->row[i + 1] - c->row[i]))
        return lk_error_set(err, LK_NON_FINITE, "row %d of %s is not finite", i, what);
  return LK_OK;
}

/* Compressed rows of n rows and ncol columns (what names them in
 * messages): offsets that start at 0 and never decrease, columns in range
 * and strictly increasing within a row, finite values. */
static lk_status check_rows(const lk_lcp_csr *c, int n, int ncol, const char *what,
                            lk_error *err) {
  if (!c->col || !c->val)
    return lk_error_set(err, LK_INVALID_ARGUMENT, "%s: compressed rows without columns or values",
                        what);
  if (c->row[0] != 0)
    return lk_error_set(err, LK_INVALID_ARGUMENT, "%s: row[0] = %d, not 0", what, c->row[0]);
  /* Without a branch an entry first (a product of 40 000 rows has half a
   * million): any offset going back, column out of range or not above
   * the one before sets bad; only then the scan below names the first. */
  int bad = 0;
  for (int i = 0; i < n; i++) {
    int b = c->row[i], e = c->row[i + 1], prev = -1;
    bad |= e < b;
    for (int k = b; k < e; k++) {
      int j = c->col[k];
      bad |= (unsigned)j >= (unsigned)ncol;
      bad |= j <= prev;
      prev = j;
    }
  }
  for (int i = 0; i < n && bad; i++) {
    int b = c->row[i], e = c->row[i + 1];
    if (e < b)
      return lk_error_set(err, LK_INVALID_ARGUMENT, "%s: row %d ends before it begins", what, i);
    for (int k = b; k < e; k++) {
      int j = c->col[k];
      if (j < 0 || j >= ncol)
        return lk_error_set(err, LK_INVALID_ARGUMENT, "row %d of %s: column %d outside 0..%d", i,
                            what, j, ncol - 1);
      if (k > b && j <= c->col[k - 1])
        return lk_error_set(err, LK_INVALID_ARGUMENT,
                            "row %d of %s: columns not strictly increasing (%d after %d)", i,
                            what, j, c->col[k - 1]);
    }
  }
  return check_values(c, n, what, err);
}

/* A product: m >= 1 columns, G and H valid (trusted: their values
 * finite), a finite diagonal. */
static lk_status check_prod(const lk_lcp *p, int trusted, lk_error *err) {
  const lk_lcp_prod *c = &p->prod;
  if (c->m < 1)
    return lk_error_set(err, LK_INVALID_ARGUMENT, "product with m = %d columns", c->m);
  if (!c->h.row) return lk_error_set(err, LK_INVALID_ARGUMENT, "product without H");
  if (trusted) {
    lk_status s = check_values(&c->g, p->n, "G", err);
    if (s == LK_OK) s = check_values(&c->h, p->n, "H", err);
    if (s == LK_OK && c->d && !lk_lcp_finite(c->d, p->n))
      return lk_error_set(err, LK_NON_FINITE, "d of the product is not finite");
    return s;
  }
  lk_status s = check_rows(&c->g, p->n, c->m, "G", err);
  if (s == LK_OK && c->h.row == c->g.row && c->h.col == c->g.col && c->h.val) {
    /* one pattern for both (a time stepper's J and M^-1 J^T): H's values */
    int nnz = c->g.row[p->n];
    double sum = sum_entries(c->h.val, (size_t)nnz);
    if (!(sum - sum == 0.0))
      for (int i = 0; i < p->n; i++)
        if (!lk_lcp_finite(c->h.val + c->g.row[i], c->g.row[i + 1] - c->g.row[i]))
          return lk_error_set(err, LK_NON_FINITE, "row %d of H is not finite", i);
  } else if (s == LK_OK) {
    s = check_rows(&c->h, p->n, c->m, "H", err);
  }
  if (s == LK_OK && c->d && !lk_lcp_finite(c->d, p->n))
    for (int i = 0; i < p->n; i++)
      if (!isfinite(c->d[i]))
        return lk_error_set(err, LK_NON_FINITE, "d[%d] of the product is not finite", i);
  return s;
}

/* M in compressed rows: n x n. */
static lk_status check_csr(const lk_lcp *p, lk_error *err) {
  return check_rows(&p->csr, p->n, p->n, "M", err);
}

/* Circle pairs: two friction rows of one normal, each naming the other,
 * with the same mu. */
static lk_status check_cone(const lk_lcp *p, lk_error *err) {
  int n = p->n;
  for (int a = 0; a < n; a++) {
    int b = p->cone[a];
    if (b == -1) continue;
    if (b < 0 || b >= n || b == a)
      return lk_error_set(err, LK_INVALID_ARGUMENT, "cone[%d] = %d is not another row", a, b);
    if (p->cone[b] != a)
      return lk_error_set(err, LK_INVALID_ARGUMENT, "cone[%d] = %d but cone[%d] = %d", a, b, b,
                          p->cone[b]);
    int j = lk_lcp_fidx(p, a);
    if (j < 0 || lk_lcp_fidx(p, b) != j)
      return lk_error_set(err, LK_INVALID_ARGUMENT,
                          "cone pairs rows %d and %d, which are not friction rows of one normal",
                          a, b);
    if (p->mu[a] != p->mu[b])
      return lk_error_set(err, LK_INVALID_ARGUMENT,
                          "cone pairs rows %d and %d with different mu (%g, %g)", a, b, p->mu[a],
                          p->mu[b]);
  }
  return LK_OK;
}

static lk_status check_problem(const lk_lcp *p, int trusted, lk_error *err);

lk_status lk_lcp_check(const lk_lcp *p, lk_error *err) { return check_problem(p, 0, err); }

lk_status lk_lcp_check_trusted(const lk_lcp *p, lk_error *err) { return check_problem(p, 1, err); }

void lk_lcp_workspace_trust_pattern(lk_lcp_workspace *ws, int on) {
  if (ws) ws->pattern_trusted = on != 0;
}

static lk_status check_problem(const lk_lcp *p, int trusted, lk_error *err) {
  if (!p) return lk_error_set(err, LK_INVALID_ARGUMENT, "no problem given");
  if (p->n < 0) return lk_error_set(err, LK_INVALID_ARGUMENT, "negative size n = %d", p->n);
  if (p->n == 0) return LK_OK;
  int n = p->n, ldm = lk_lcp_ldm(p);
  if ((!p->M && lk_lcp_dense(p)) || !p->q)
    return lk_error_set(err, LK_INVALID_ARGUMENT, "M or q is NULL");
  if (lk_lcp_prodf(p)) {
    lk_status s = check_prod(p, trusted, err);
    if (s != LK_OK) return s;
  } else if (lk_lcp_sparse(p)) {
    lk_status s = check_csr(p, err);
    if (s != LK_OK) return s;
  } else {
    if (ldm < n)
      return lk_error_set(err, LK_INVALID_ARGUMENT, "leading dimension %d < n = %d", ldm, n);
    /* The exact scan, for the row to name, only when the sum says there
     * may be one. */
    if (!matrix_maybe_finite(p->M, n, ldm))
      for (int i = 0; i < n; i++) {
        if (!lk_lcp_finite(p->M + (size_t)i * (size_t)ldm, n))
          return lk_error_set(err, LK_NON_FINITE, "row %d of M is not finite", i);
      }
  }
  if (!lk_lcp_finite(p->q, n))
    for (int i = 0; i < n; i++)
      if (!isfinite(p->q[i])) return lk_error_set(err, LK_NON_FINITE, "q[%d] is not finite", i);
  if (p->findex && !p->mu)
    return lk_error_set(err, LK_INVALID_ARGUMENT, "findex given without mu");
  for (int i = 0; i < n; i++) {
    int j = lk_lcp_fidx(p, i);
    if (j >= 0) {
      if (j >= n || j == i)
        return lk_error_set(err, LK_INVALID_ARGUMENT, "findex[%d] = %d is not another row", i, j);
      if (lk_lcp_fidx(p, j) >= 0)
        return lk_error_set(err, LK_INVALID_ARGUMENT,
                            "findex[%d] = %d names a row that is itself friction-indexed", i, j);
      if (!isfinite(p->mu[i]))
        return lk_error_set(err, LK_NON_FINITE, "mu[%d] is not finite", i);
      if (p->mu[i] < 0)
        return lk_error_set(err, LK_INVALID_ARGUMENT, "mu[%d] = %g is negative", i, p->mu[i]);
      continue;
    }
    if (j < -1) return lk_error_set(err, LK_INVALID_ARGUMENT, "findex[%d] = %d < -1", i, j);
    double lo = lk_lcp_lo(p, i), hi = lk_lcp_hi(p, i);
    if (isnan(lo) || isnan(hi))
      return lk_error_set(err, LK_INVALID_ARGUMENT, "bound of row %d is NaN", i);
    if (lo > hi)
      return lk_error_set(err, LK_INVALID_ARGUMENT, "row %d: lo = %g > hi = %g", i, lo, hi);
    if (lo == INFINITY || hi == -INFINITY)
      return lk_error_set(err, LK_INVALID_ARGUMENT, "row %d: bounds [%g, %g] admit no value", i,
                          lo, hi);
  }
  if (p->cone) return check_cone(p, err);
  return LK_OK;
}

/* G_i . H_j of a product, merging the two rows' columns. */
static double prod_entry(const lk_lcp *p, int i, int j) {
  const lk_lcp_csr *g = &p->prod.g, *h = &p->prod.h;
  int a = g->row[i], ae = g->row[i + 1], b = h->row[j], be = h->row[j + 1];
  double s = 0.0;
  if (ae - a == be - b && memcmp(g->col + a, h->col + b, sizeof(int) * (size_t)(ae - a)) == 0) {
    /* one pattern (a contact's rows): the same sums, without the merge */
    s = lk_lcp_dot_seq(g->val + a, h->val + b, ae - a);
    a = ae;
  }
  while (a < ae && b < be) {
    int ca = g->col[a], cb = h->col[b];
    if (ca == cb)
      s += g->val[a++] * h->val[b++];
    else if (ca < cb)
      a++;
    else
      b++;
  }
  if (i == j && p->prod.d) s += p->prod.d[i];
  return s;
}

double lk_lcp_entry(const lk_lcp *p, int i, int j) {
  if (lk_lcp_prodf(p)) return prod_entry(p, i, j);
  if (!lk_lcp_sparse(p)) return p->M[(size_t)i * (size_t)lk_lcp_ldm(p) + (size_t)j];
  int lo = p->csr.row[i], hi = p->csr.row[i + 1];
  while (lo < hi) {
    int mid = lo + (hi - lo) / 2, c = p->csr.col[mid];
    if (c == j) return p->csr.val[mid];
    if (c < j)
      lo = mid + 1;
    else
      hi = mid;
  }
  return 0.0;
}

lk_status lk_lcp_times(const lk_lcp *p, const double *z, double *w, double *u) {
  int n = p->n;
  if (!lk_lcp_prodf(p)) {
    for (int i = 0; i < n; i++) {
      double mag;
      w[i] = p->q[i] + lk_lcp_row_dot(p, i, z, &mag);
    }
    return LK_OK;
  }
  double *own = NULL;
  if (!u && !(u = own = LK_NEW_ARRAY(double, (size_t)p->prod.m))) return LK_OUT_OF_MEMORY;
  lk_lcp_prod_ht(p, z, u, NULL);
  for (int i = 0; i < n; i++) w[i] = p->q[i] + lk_lcp_prod_row(p, i, z, u, NULL, NULL);
  lk_free(own);
  return LK_OK;
}

lk_status lk_lcp_densify(const lk_lcp *p, double *M, int ld) {
  if (!p || p->n < 0 || (p->n > 0 && (!M || ld < p->n))) return LK_INVALID_ARGUMENT;
  int n = p->n;
  if (n > 0 && !p->M && lk_lcp_dense(p)) return LK_INVALID_ARGUMENT;
  for (int i = 0; i < n; i++) {
    double *r = M + (size_t)i * (size_t)ld;
    if (lk_lcp_prodf(p)) {
      for (int j = 0; j < n; j++) r[j] = prod_entry(p, i, j);
      continue;
    }
    if (!lk_lcp_sparse(p)) {
      memcpy(r, p->M + (size_t)i * (size_t)lk_lcp_ldm(p), (size_t)n * sizeof *r);
      continue;
    }
    for (int j = 0; j < n; j++) r[j] = 0.0;
    for (int k = p->csr.row[i]; k < p->csr.row[i + 1]; k++) r[p->csr.col[k]] = p->csr.val[k];
  }
  return LK_OK;
}

double lk_lcp_asymmetry(const lk_lcp *p) {
  if (lk_lcp_check(p, NULL) != LK_OK) return INFINITY;
  int n = p->n;
  double asym = 0.0, mmax = 0.0;
  if (lk_lcp_sparse(p)) {
    for (int i = 0; i < n; i++)
      for (int k = p->csr.row[i]; k < p->csr.row[i + 1]; k++) {
        int j = p->csr.col[k];
        mmax = lk_maxd(mmax, fabs(p->csr.val[k]));
        /* an entry whose mirror is not stored differs from a zero */
        if (j != i) asym = lk_maxd(asym, fabs(p->csr.val[k] - lk_lcp_entry(p, j, i)));
      }
  } else {
    for (int i = 0; i < n; i++)
      for (int j = 0; j < n; j++) {
        double a = lk_lcp_entry(p, i, j);
        mmax = lk_maxd(mmax, fabs(a));
        if (j < i) asym = lk_maxd(asym, fabs(a - lk_lcp_entry(p, j, i)));
      }
  }
  return mmax > 0.0 ? asym / mmax : 0.0;
}

int lk_lcp_project(const lk_lcp *p, double *z) {
  int n = p->n, moved = 0;
  for (int pass = 0; pass < 2; pass++)
    for (int i = 0; i < n; i++) {
      if ((lk_lcp_fidx(p, i) >= 0) != (pass == 1)) continue;
      int b = lk_lcp_pair(p, i);
      if (b >= 0) {
        if (b > i) {
          double a0 = z[i], b0 = z[b];
          lk_lcp_disk_project(&z[i], &z[b], p->mu[i] * fabs(z[lk_lcp_fidx(p, i)]));
          moved += z[i] != a0 || z[b] != b0;
        }
        continue;
      }
      double lo, hi;
      lk_lcp_bounds_at(p, z, i, &lo, &hi);
      if (z[i] < lo) z[i] = lo, moved++;
      if (z[i] > hi) z[i] = hi, moved++;
    }
  return moved;
}

void lk_lcp_basis_from(const lk_lcp *p, const double *z, const double *w, unsigned char *basis) {
  int n = p->n;
  for (int i = 0; i < n; i++) {
    double lo, hi;
    lk_lcp_bounds_at(p, z, i, &lo, &hi);
    int b = lk_lcp_pair(p, i);
    if (b >= 0) { /* on its disk's edge: the bound its sign is at */
      double r = hi, t = lk_lcp_hypot(z[i], z[b]);
      int edge = t >= r - 1e-12 * (1 + r);
      basis[i] = !edge || t == 0.0 ? (t == 0.0 && r == 0.0 ? LK_LCP_LOWER : LK_LCP_BASIC)
                                   : (z[i] >= 0 ? LK_LCP_UPPER : LK_LCP_LOWER);
      continue;
    }
    /* at a bound to the solvers' rounding (an answer on its cone can lie
     * an ulp inside it) */
    double tol = 1e-12 * (1 + fabs(z[i]) + (isfinite(lo) ? fabs(lo) : 0) +
                          (isfinite(hi) ? fabs(hi) : 0));
    int at_lo = z[i] <= lo + tol, at_hi = z[i] >= hi - tol;
    unsigned char st = LK_LCP_BASIC;
    if (at_lo && at_hi)
      st = w[i] < 0 ? LK_LCP_UPPER : LK_LCP_LOWER;
    else if (at_lo && w[i] >= 0)
      st = LK_LCP_LOWER;
    else if (at_hi && w[i] <= 0)
      st = LK_LCP_UPPER;
    basis[i] = st;
  }
}

/* Whether z (the caller's guess, clamped into its bounds) is an answer to
 * within o->guess_tol (and o->tol): w = M z + q and the residual as the
 * final check computes them;
 * on success the report and basis_out say so. The state of a row follows
 * from z and w, its bounds at z: at a bound with w of the right sign, else
 * basic. */
static int try_guess(const lk_lcp *p, const lk_lcp_options *o, lk_lcp_workspace *ws, double *z,
                     double *w, lk_lcp_report *r) {
  int n = p->n;
  if (!lk_lcp_finite(z, n)) {
    for (int i = 0; i < n; i++) z[i] = 0.0;
    return 0;
  }
  /* Into its bounds first (constant ones, then the friction rows' from
   * their normals): an answer given back can lie an ulp outside a cone it
   * is on, and a caller must not find a friction impulse of 3e-15 on a
   * contact without load (the residual below judges the clamped z). */
  lk_lcp_project(p, z);
  double scale, res = lk_lcp_residual_scaled(p, z, NULL, w, &scale, ws->nsgs_u);
  /* a product's u = H^T z of this z, for the sweeps that start from it */
  ws->nsgs_u_at_z = lk_lcp_prodf(p);
  if (!isfinite(res) || !(res / scale <= o->guess_tol) || !(res / scale <= o->tol)) return 0;
  r->residual = res;
  r->residual_rel = res / scale;
  r->warm = LK_LCP_WARM_GUESS;
  if (o->basis_out) lk_lcp_basis_from(p, z, w, o->basis_out);
  return 1;
}

static lk_status finish(lk_lcp_report *r, lk_status s, const char *detail) {
  r->status = s;
  r->detail = detail;
  return s;
}

lk_status lk_lcp_solve(const lk_lcp_solver *type, const lk_lcp *p, const lk_lcp_options *o,
                       lk_lcp_workspace *ws, double *z, double *w, lk_lcp_report *report) {
  lk_lcp_report scratch;
  lk_lcp_report *r = report ? report : &scratch;
  memset(r, 0, sizeof *r);
  r->residual = INFINITY;
  r->residual_rel = INFINITY;
  r->error = NAN;
  r->detail = "";
  lk_lcp_options defaults;
  if (!o) {
    lk_lcp_options_default(&defaults);
    o = &defaults;
  }
  if (!type || !type->solve || !p || !ws)
    return finish(r, LK_INVALID_ARGUMENT, "NULL solver, problem or workspace");
  if (p->n < 0) return finish(r, LK_INVALID_ARGUMENT, "negative problem size");
  if (p->n > 0 && (!z || !w)) return finish(r, LK_INVALID_ARGUMENT, "NULL z or w");
  /* A tolerance must be finite: +inf would call any answer one. */
  if (!(o->tol > 0) || isinf(o->tol) || !(o->pivot_tol > 0) || !(o->pivot_tol < 1) ||
      o->max_pivots < 0 || o->max_restarts < 0 || o->max_passes < 1 || o->max_sweeps < 0 ||
      !(o->omega >= 0) || !(o->omega < 2) || o->anderson < 0 ||
      o->anderson > LK_NSGS_ANDERSON_MAX ||
      (o->z_guess && (!(o->guess_tol > 0) || isinf(o->guess_tol))))
    return finish(r, LK_INVALID_ARGUMENT, "invalid options");
  ws->fk = -1; /* no factor from this solve yet (lk_lcp_last_factor) */
  ws->nsgs_u_at_z = 0;
  if (p->n > ws->nmax) return finish(r, LK_CAPACITY_EXCEEDED, "n exceeds the workspace's nmax");
  if (lk_lcp_prodf(p) && p->prod.m > ws->mmax)
    return finish(r, LK_CAPACITY_EXCEEDED,
                  "the product's columns exceed the workspace's (lk_lcp_workspace_new_nsgs)");
  int n = p->n;
  if (n == 0) {
    r->residual = r->residual_rel = r->error = 0.0;
    return finish(r, LK_OK, "empty problem");
  }
  if (!type->iterative) {
    if (!lk_lcp_dense(p))
      return finish(r, LK_UNSUPPORTED,
                    "a pivoting solver takes a dense M (lk_lcp_densify), or use nsgs");
    if (p->cone)
      return finish(r, LK_UNSUPPORTED,
                    "a pivoting solver takes box friction only (drop cone), or use nsgs");
    if (!ws->dense)
      return finish(r, LK_CAPACITY_EXCEEDED, "the workspace was made for nsgs alone");
  }
  /* The guess first into z (it may be z itself), then the checks. */
  if (o->z_guess && o->z_guess != z) memmove(z, o->z_guess, (size_t)n * sizeof *z);
  lk_status s = check_problem(p, ws->pattern_trusted, NULL);
  if (s != LK_OK) {
    for (int i = 0; i < n; i++) z[i] = w[i] = 0.0;
    return finish(r, s, s == LK_NON_FINITE ? "non-finite input" : "invalid problem");
  }
  if (o->basis_in) {
    for (int i = 0; i < n; i++)
      if (o->basis_in[i] > LK_LCP_UPPER) {
        for (int k = 0; k < n; k++) z[k] = w[k] = 0.0;
        return finish(r, LK_INVALID_ARGUMENT, "bad basis_in state");
      }
  }
  if (o->z_guess && !o->guess_untested && try_guess(p, o, ws, z, w, r)) {
    if (type->iterative) r->error = lk_lcp_fc3d_error_w(p, z, w, ws->nsgs_i);
    return finish(r, LK_OK, "the guess was an answer");
  }
  /* An iterative solver starts from the clamped guess (try_guess left it
   * in z), the others from nothing. */
  if (!type->iterative || !o->z_guess)
    for (int i = 0; i < n; i++) z[i] = 0.0;
  for (int i = 0; i < n; i++) w[i] = 0.0;

  lk_lcp_verified v = {0, INFINITY, 1.0, 0, NAN};
  s = type->solve(p, o, ws, z, w, r, &v);
  if (!r->detail) r->detail = "";

  /* Whatever the solver says, the answer is what the check measures. */
  if (!lk_lcp_finite(z, n)) {
    for (int i = 0; i < n; i++) z[i] = 0.0;
    if (s == LK_OK) s = LK_NON_FINITE;
    v.done = 0;
  }
  int have_error = v.done && v.has_error;
  double scale;
  if (v.done) {
    /* The solver's own last step was this very computation. */
    r->residual = v.residual;
    scale = v.scale;
  } else {
    r->residual = lk_lcp_residual_scaled(p, z, NULL, w, &scale, ws->nsgs_u);
  }
  if (!isfinite(r->residual)) {
    /* Finite input and finite z can still overflow M z + q. */
    for (int i = 0; i < n; i++) z[i] = 0.0;
    r->residual = lk_lcp_residual_scaled(p, z, NULL, w, &scale, ws->nsgs_u);
    if (s == LK_OK) s = LK_NON_FINITE;
    have_error = 0;
  }
  r->residual_rel = r->residual / scale;
  if (type->iterative)
    r->error = have_error ? v.error : lk_lcp_fc3d_error_w(p, z, w, ws->nsgs_i);
  if (s == LK_OK && !(r->residual_rel <= o->tol)) {
    s = LK_NOT_CONVERGED;
    r->detail = "the solver finished but its residual is above the tolerance";
  }
  if (s != LK_OK) ws->fk = -1;
  r->status = s;
  return s;
}
