/* Shared between the LCP solvers (not installed). */
#ifndef LK_LCP_INTERNAL_H
#define LK_LCP_INTERNAL_H

#include <math.h>
#include <string.h>

#include "core/internal.h"
#include "linkage/lcp.h"
#include "lcp/lcp_layer.h"

/* The final check of a solve, when the solver made it itself: its very
 * last act on z was residual = lk_lcp_residual_scaled(p, z, NULL, w,
 * &scale) into the caller's w, exactly what lk_lcp_solve would compute
 * next, so that it is computed once. */
typedef struct {
  int done;
  double residual, scale;
  /* with done: whether error is lk_lcp_fc3d_error_w at that same z and w
   * (an iterative solver's own full measure), so that it too is computed
   * once */
  int has_error;
  double error;
} lk_lcp_verified;

/* A solver fills z (finite) and the report's solver-specific fields
 * (pivots, warm, restarts, passes, ray_certified, detail) and returns its
 * status; lk_lcp_solve then recomputes w = M z + q, measures the residual
 * (unless v->done says the solver just did, see lk_lcp_verified) and
 * refuses success above the tolerance. w is the caller's, for that final
 * check only. The problem has been checked; v->done is 0 on entry. */
struct lk_lcp_solver {
  const char *name;
  lk_status (*solve)(const lk_lcp *p, const lk_lcp_options *o, lk_lcp_workspace *ws,
                     double *z, double *w, lk_lcp_report *r, lk_lcp_verified *v);
  int iterative; /* 1: takes compressed rows, circle pairs and a workspace
                    without dense matrices, and starts from the clamped
                    z_guess when it is not already an answer (z holds it on
                    entry; zeros without a guess) */
};

/* Scratch shared by the solvers (one solve at a time uses it): three
 * nmax x nmax matrices (NULL in a workspace made for NSGS alone) and
 * vectors of nmax entries; NSGS's blocks and their matrices. */
enum { LK_LCP_NMAT = 3, LK_LCP_NVEC = 12, LK_LCP_NIVEC = 13, LK_LCP_NBVEC = 5 };
/* NSGS: doubles and ints of its own an nmax row (nsgs.c lays them out:
 * its blocks' matrices, 6 a row at most, then Anderson's history). */
enum { LK_NSGS_ANDERSON_MAX = 6 };
enum { LK_NSGS_DOUBLES = 6 + 2 * LK_NSGS_ANDERSON_MAX + 3, LK_NSGS_INTS = 4 };
/* NSGS's direct finish (nsgs.c) on problems of at most this many rows: a
 * dense d x d system, d = min(nmax, LK_NSGS_DIRECT_MAX), and LK_NSGS_DD
 * vectors (doubles) and LK_NSGS_DI (ints) of d entries. */
enum { LK_NSGS_DIRECT_MAX = 384, LK_NSGS_DD = 9, LK_NSGS_DI = 5, LK_NSGS_PROD_ROW = 64 };
struct lk_lcp_workspace {
  int nmax;
  int dense; /* mat[] allocated: room for the pivoting solvers */
  double *mat[LK_LCP_NMAT];
  double *vec[LK_LCP_NVEC];
  int *ivec[LK_LCP_NIVEC];
  unsigned char *bvec[LK_LCP_NBVEC];
  void *nsgs_blk;        /* nmax blocks (lk_nsgs_block_bytes each) */
  double *nsgs_d;        /* LK_NSGS_DOUBLES nmax */
  int *nsgs_i;           /* LK_NSGS_INTS nmax + 1 */
  unsigned char *nsgs_b; /* 2 nmax */
  int mmax;              /* columns of a product problem at most */
  double *nsgs_u;        /* 2 mmax: u = H^T z, |H|^T |z| */
  /* A product's H by columns for the direct finish's rows of M
   * (LK_NSGS_PROD_ROW dm entries at most: else no direct finish), and a
   * row's accumulator: values, marks (-1) and the list of its columns. */
  int *nsgs_tp, *nsgs_tr; /* mmax + 1; LK_NSGS_PROD_ROW dm */
  double *nsgs_tv;        /* LK_NSGS_PROD_ROW dm */
  double *nsgs_ra;        /* dm */
  int *nsgs_rm;           /* 2 dm */
  int nsgs_dm;           /* min(nmax, LK_NSGS_DIRECT_MAX) */
  double *nsgs_dd;       /* dm^2 + LK_NSGS_DD dm */
  int *nsgs_di;          /* LK_NSGS_DI dm */
  /* Set by the guess check of a product when it leaves u = H^T z of the
   * (clamped) z it hands the solver in nsgs_u; cleared by every solve. */
  int nsgs_u_at_z;
  /* Set by a caller that builds its products itself (the contact layer,
   * lk_lcp_workspace_trust_pattern): G's and H's patterns are taken as
   * sorted and in range, and only their values are checked (finite). */
  int pattern_trusted;
  /* The last solve's L D L^T of its clamped block, when that solve was
   * Dantzig's frictionless path and succeeded (fk >= 0; -1 otherwise):
   * see lk_lcp_last_factor. */
  int fk, fhas_last;
  void *newton; /* newton.c's scratch (NULL until its first solve or
                   lk_lcp_workspace_new_newton), freed by lk_newton_free */
};
void lk_newton_free(void *newton);

/* The size of one NSGS block record (nsgs.c). */
size_t lk_nsgs_block_bytes(void);


static inline int lk_lcp_ldm(const lk_lcp *p) { return p->ldm > 0 ? p->ldm : p->n; }
/* The storage of M: a product (lk_lcp_prod) first, else compressed rows,
 * else dense. */
static inline int lk_lcp_prodf(const lk_lcp *p) { return p->prod.g.row != NULL; }
static inline int lk_lcp_sparse(const lk_lcp *p) { return !lk_lcp_prodf(p) && p->csr.row != NULL; }
static inline int lk_lcp_dense(const lk_lcp *p) { return !lk_lcp_prodf(p) && p->csr.row == NULL; }
static inline int lk_lcp_pair(const lk_lcp *p, int i) { return p->cone ? p->cone[i] : -1; }

/* (M z)_i, and sum_j |M_ij z_j| into *mag: dense or compressed rows (the
 * same sums in the same order for either, entry by entry, when the
 * compressed row stores every entry). */
static inline double lk_lcp_row_dot(const lk_lcp *p, int i, const double *z, double *mag) {
  if (lk_lcp_sparse(p)) {
    const int *col = p->csr.col;
    const double *val = p->csr.val;
    double s = 0.0, m = 0.0;
    for (int k = p->csr.row[i], e = p->csr.row[i + 1]; k < e; k++) {
      double x = val[k] * z[col[k]];
      s += x;
      m += fabs(x);
    }
    *mag = m;
    return s;
  }
  int n = p->n;
  const double *row = p->M + (size_t)i * (size_t)lk_lcp_ldm(p);
  if (n < 8) { /* tiny rows: one fused pass */
    double t = 0.0, m = 0.0;
    for (int j = 0; j < n; j++) {
      double x = row[j] * z[j];
      t += x;
      m += fabs(x);
    }
    *mag = m;
    return t;
  }
  return lk_lcp_dot_and_abs(row, z, n, mag);
}

/* Rows i and j of c have one pattern (the same columns). A contact's
 * rows in the contact layer's products do: the product's passes below take
 * such runs (of up to 3 rows) together, reading each column and entry of
 * u once for the run, every sum still formed in its own order. */
static inline int lk_lcp_csr_same_row(const lk_lcp_csr *c, int i, int j) {
  int b = c->row[i], len = c->row[i + 1] - b, bj = c->row[j];
  if (c->row[j + 1] - bj != len) return 0;
  return memcmp(c->col + b, c->col + bj, (size_t)len * sizeof *c->col) == 0;
}

/* How many rows from i (1 to 3) share row i's pattern in c. */
static inline int lk_lcp_csr_run(const lk_lcp_csr *c, int i, int n) {
  int k = 1;
  while (k < 3 && i + k < n && lk_lcp_csr_same_row(c, i, i + k)) k++;
  return k;
}

/* Product storage (M = G H^T + diag(d)): u = H^T z (m entries), and
 * with ua (may be NULL) |H|^T |z|; in a fixed order (row by row: each
 * entry of u gets its rows' terms in row order, rows with z_j = 0 adding
 * nothing, whether the rows come one by one or in a run). */
static inline void lk_lcp_prod_ht(const lk_lcp *p, const double *z, double *u, double *ua) {
  const lk_lcp_csr *h = &p->prod.h;
  int m = p->prod.m;
  for (int k = 0; k < m; k++) u[k] = 0.0;
  if (ua)
    for (int k = 0; k < m; k++) ua[k] = 0.0;
  for (int j = 0; j < p->n;) {
    int run = lk_lcp_csr_run(h, j, p->n), na = 0, e0 = h->row[j], len = h->row[j + 1] - e0;
    const double *v[3];
    double zz[3], aa[3];
    for (int r = 0; r < run; r++)
      if (z[j + r] != 0.0) {
        v[na] = h->val + h->row[j + r];
        zz[na] = z[j + r];
        aa[na++] = fabs(z[j + r]);
      }
    const int *col = h->col + e0;
    j += run;
    if (na == 0) continue;
    if (!ua) {
      for (int e = 0; e < len; e++) {
        double x = u[col[e]];
        for (int r = 0; r < na; r++) x += v[r][e] * zz[r];
        u[col[e]] = x;
      }
      continue;
    }
    for (int e = 0; e < len; e++) {
      int c = col[e];
      double x = u[c], y = ua[c];
      for (int r = 0; r < na; r++) {
        x += v[r][e] * zz[r];
        y += fabs(v[r][e]) * aa[r];
      }
      u[c] = x;
      ua[c] = y;
    }
  }
}

/* u += H_j^T dz (row j of H times dz). */
static inline void lk_lcp_prod_add(const lk_lcp *p, int j, double dz, double *u) {
  const lk_lcp_csr *h = &p->prod.h;
  for (int e = h->row[j], f = h->row[j + 1]; e < f; e++) u[h->col[e]] += h->val[e] * dz;
}

/* (M z)_i = G_i . u + d_i z_i for u = H^T z; with ua = |H|^T |z| (may be
 * NULL) *mag = |G_i| . ua + |d_i z_i|. */
static inline double lk_lcp_prod_row(const lk_lcp *p, int i, const double *z, const double *u,
                                     const double *ua, double *mag) {
  const lk_lcp_csr *g = &p->prod.g;
  double s0 = 0.0, s1 = 0.0, m = 0.0;
  int e = g->row[i], f = g->row[i + 1];
  if (ua) { /* the two sums in one pass, each in the order of its own */
    for (; e + 2 <= f; e += 2) {
      int c0 = g->col[e], c1 = g->col[e + 1];
      double g0 = g->val[e], g1 = g->val[e + 1];
      s0 += g0 * u[c0];
      s1 += g1 * u[c1];
      m += fabs(g0) * ua[c0];
      m += fabs(g1) * ua[c1];
    }
    if (e < f) {
      s0 += g->val[e] * u[g->col[e]];
      m += fabs(g->val[e]) * ua[g->col[e]];
    }
  } else {
    for (; e + 2 <= f; e += 2) {
      s0 += g->val[e] * u[g->col[e]];
      s1 += g->val[e + 1] * u[g->col[e + 1]];
    }
    if (e < f) s0 += g->val[e] * u[g->col[e]];
  }
  double s = s0 + s1;
  if (p->prod.d) {
    double x = p->prod.d[i] * z[i];
    s += x;
    m += fabs(x);
  }
  if (mag) *mag = m;
  return s;
}

/* lk_lcp_prod_row of rows i .. i + k - 1 (k <= 3) that share one
 * pattern of G, in one pass: s[r] and mag[r] bit for bit as
 * lk_lcp_prod_row(p, i + r, ...) gives them. */
static inline void lk_lcp_prod_rows(const lk_lcp *p, int i, int k, const double *z,
                                    const double *u, const double *ua, double *s, double *mag) {
  const lk_lcp_csr *g = &p->prod.g;
  int e0 = g->row[i], len = g->row[i + 1] - e0;
  const int *col = g->col + e0;
  const double *v[3];
  double s0[3] = {0.0, 0.0, 0.0}, s1[3] = {0.0, 0.0, 0.0}, m[3] = {0.0, 0.0, 0.0};
  for (int r = 0; r < k; r++) v[r] = g->val + g->row[i + r];
  int e = 0;
  for (; e + 2 <= len; e += 2) {
    int c0 = col[e], c1 = col[e + 1];
    double u0 = u[c0], u1 = u[c1], a0 = ua[c0], a1 = ua[c1];
    for (int r = 0; r < k; r++) {
      double g0 = v[r][e], g1 = v[r][e + 1];
      s0[r] += g0 * u0;
      s1[r] += g1 * u1;
      m[r] += fabs(g0) * a0;
      m[r] += fabs(g1) * a1;
    }
  }
  if (e < len) {
    double u0 = u[col[e]], a0 = ua[col[e]];
    for (int r = 0; r < k; r++) {
      s0[r] += v[r][e] * u0;
      m[r] += fabs(v[r][e]) * a0;
    }
  }
  for (int r = 0; r < k; r++) {
    double t = s0[r] + s1[r], mr = m[r];
    if (p->prod.d) {
      double x = p->prod.d[i + r] * z[i + r];
      t += x;
      mr += fabs(x);
    }
    s[r] = t;
    mag[r] = mr;
  }
}

/* w = M z + q for every storage (dense and compressed rows: lk_lcp_row_dot
 * row by row; products: through u, 2 m doubles of scratch, or NULL to
 * allocate them: LK_OUT_OF_MEMORY). */
lk_status lk_lcp_times(const lk_lcp *p, const double *z, double *w, double *u);

/* M_ij of any storage (compressed rows: a binary search; products: a
 * merge of G_i and H_j). */
double lk_lcp_entry(const lk_lcp *p, int i, int j);

/* Constant bounds of row i (0 and +inf when the arrays are NULL). */
static inline double lk_lcp_lo(const lk_lcp *p, int i) { return p->lo ? p->lo[i] : 0.0; }
static inline double lk_lcp_hi(const lk_lcp *p, int i) { return p->hi ? p->hi[i] : INFINITY; }
static inline int lk_lcp_fidx(const lk_lcp *p, int i) { return p->findex ? p->findex[i] : -1; }

/* Bounds of row i at z (friction-index rows depend on z). */
static inline void lk_lcp_bounds_at(const lk_lcp *p, const double *z, int i, double *lo,
                                    double *hi) {
  int j = lk_lcp_fidx(p, i);
  if (j >= 0) {
    double b = p->mu[i] * fabs(z[j]);
    *lo = -b;
    *hi = b;
  } else {
    *lo = lk_lcp_lo(p, i);
    *hi = lk_lcp_hi(p, i);
  }
}


/* lk_lcp_residual, also returning the scale of the relative residual,
 * 1 + max_i max(|q_i|, sum_j |M_ij z_j|) (products: see lk_lcp_prod);
 * w_out (may be NULL) receives M z + q. u: products' scratch, 2 m
 * doubles (NULL: allocated, +INFINITY when that fails); unused else. */
double lk_lcp_residual_scaled(const lk_lcp *p, const double *z, const double *w,
                              double *w_out, double *scale, double *u);


/* Projection of x (2 entries) onto the disk of radius r >= 0. */
static inline void lk_lcp_disk_project(double *x0, double *x1, double r) {
  double t = lk_lcp_hypot(*x0, *x1);
  if (t <= r) return;
  if (!(t > 0.0) || r <= 0.0) {
    *x0 = *x1 = 0.0;
    return;
  }
  double f = r / t;
  *x0 *= f;
  *x1 *= f;
}


/* lk_lcp_fc3d_error with w = M z + q given, and pa (n ints of scratch). */
double lk_lcp_fc3d_error_w(const lk_lcp *p, const double *z, const double *w, int *pa);


/* Murty's least-index principal pivoting (ppm.c), Lemke's last resort: a
 * dense standard LCP (lo = 0, hi = +inf, no friction rows) of at most
 * LK_LCP_PPM_NMAX rows (one O(n^3) LU a step); at most 8 n + 16 steps.
 * z and w (n each) receive the answer; the workspace's mat[1], vec[9],
 * ivec[12] and bvec[3] are its scratch (free once Lemke has failed). */
enum { LK_LCP_PPM_NMAX = 128 };
int lk_lcp_ppm_takes(const lk_lcp *p);
lk_status lk_lcp_ppm(const lk_lcp *p, lk_lcp_workspace *ws, double *z, double *w, int *pivots);


/* Append row/column k: b = the k entries coupling it to the current rows,
 * djj its diagonal entry. Returns 0 and leaves the factor unchanged when
 * the new pivot (the Schur complement) is not above tol. O(k^2). */
int lk_ldlt_append(lk_ldlt *f, const double *b, double djj, double tol);
/* Remove row/column p (0 <= p < k): a positive rank-one update of the
 * trailing block, then the shift. O(k^2). */
void lk_ldlt_remove(lk_ldlt *f, int p);
/* Factor the principal block of the symmetric row-major M (leading
 * dimension ldm) on rows idx[0..k), in that order, into an empty f: the
 * factor n appends would build, in one right-looking elimination whose
 * work follows the block's profile. The pivot of row idx[j] must exceed
 * rel * max(|M_jj|, floor_) (the test lk_ldlt_append makes); at the first
 * that does not, stops with f the factor of the rows before it and
 * returns their number. Returns k on success. */
int lk_ldlt_factor(lk_ldlt *f, const double *M, int ldm, const int *idx, int k, double rel,
                   double floor_);

/* LU with partial pivoting of the k x k A (leading dimension k) in place,
 * its row swaps in piv; 0 when a pivot is at most tol (dense.c). Then
 * lk_lcp_lu_apply: b <- A^-1 b by that factor. */
int lk_lcp_lu_factor(double *A, int k, int *piv, double tol);
void lk_lcp_lu_apply(const double *A, int k, const int *piv, double *b);
/* The same, and on failure *fail (if given) = the column whose pivot
 * failed: it depends (to that tolerance) on the columns before it. */
int lk_lcp_lu_solve_at(double *A, int ld, int k, double *b, int *fail);

/* The standard LCP equivalent to a boxed one with friction-index rows
 * (expand.c), for Lemke. Variables (and their rows) of the expansion: */
enum {
  LK_X_ORIG = 0,     /* an original row (z_i, or x_i = z_i - lo_i if boxed) */
  LK_X_FRICTION_ROW, /* x_f = z_f + mu_f z_j of a large friction group */
  LK_X_BETA,         /* weight of a vertex (va: normal, vb: vertex) */
  LK_X_LAMBDA,       /* the sliding multiplier of a normal's box (va) */
  LK_X_Y             /* y_i = max(-w_i, 0) of a boxed row (va) */
};
typedef struct {
  int n0, n;            /* original and expanded sizes */
  unsigned char *vkind; /* n */
  int *va, *vb;         /* n */
  int *yvar;            /* n0: the y variable of a row, or -1 */
  int *fhead, *fnext;   /* n0: friction rows of each normal, a list */
} lk_lcp_expansion;

/* Size of the expansion; *ok = 0 when a normal row with friction rows
 * admits negative values (lo < 0), which the expansion cannot express. */
int lk_lcp_expansion_size(const lk_lcp *p, int *ok);
/* Fill x and the expanded matrix (in terms of the unshifted variables:
 * the rows' own offsets stay with the solver) and q. */
void lk_lcp_expand(const lk_lcp *p, lk_lcp_expansion *x, double *E, int lde, double *qe);
/* z (n0) from the expansion's variables (zc, n). */
void lk_lcp_expand_map_back(const lk_lcp *p, const lk_lcp_expansion *x, const double *zc,
                            double *z);
/* A warm-start basis of the original rows in the expansion's variables. */
void lk_lcp_expand_guess(const lk_lcp *p, const lk_lcp_expansion *x, const unsigned char *in,
                         unsigned char *out);

/* A problem read from a file (lcp_problem.c, lcp_yaml.c, lcp_dat.c). */
struct lk_lcp_problem {
  lk_lcp lcp;
  double *M, *q, *lo, *hi, *mu;
  int *findex, *cone;
  int *rowp, *col; /* compressed rows (M NULL) */
  double *val;
  int dim, contacts; /* a friction-contact problem: its dimension (2, 3) and
                        number of contacts; 0, 0 for an LCP */
  char *name;
};

/* An empty problem of size n with M and q allocated (zeroed). */
lk_lcp_problem *lk_lcp_problem_alloc(int n);
/* Read a whole file (NUL-terminated) through the allocator hook, at most
 * LK_LCP_FILE_MAX_BYTES (devices and pipes included). */
lk_status lk_lcp_read_file(const char *path, char **text, size_t *len, lk_error *err);

#endif
