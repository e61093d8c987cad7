/* Linear complementarity problems: Lemke's and Dantzig's pivoting methods.
 *
 * This layer knows nothing of mechanics. A problem is
 *
 *     w = M z + q,   lo <= z <= hi,   and for every row i
 *       z_i == lo_i           =>  w_i >= 0
 *       z_i == hi_i           =>  w_i <= 0
 *       lo_i <  z_i <  hi_i   =>  w_i == 0
 *
 * which covers
 *   - the standard LCP (lo = 0, hi = +inf: z >= 0, w >= 0, z^T w = 0), for
 *     any square M, symmetric or not;
 *   - the mixed LCP: free rows (lo = -inf, hi = +inf: z_i free, w_i = 0);
 *   - the boxed LCP with finite or infinite bounds, and friction-index rows
 *     (ODE's findex): row i's bounds are [-mu_i |z_j|, mu_i |z_j|] for its
 *     normal row j = findex[i] (its lo_i, hi_i are then ignored).
 *
 * Which solver takes what:
 *   lk_lcp_lemke    any M (non-symmetric included), every kind of row.
 *                   Boxed rows (both bounds finite) and friction-index rows
 *                   are solved through an equivalent standard LCP: a boxed
 *                   row gains one row; the friction rows of a normal (up to
 *                   3) become the vertices of their box in Stewart and
 *                   Trinkle's form (2^m weights and one multiplier). The
 *                   workspace then needs n + b + 2 f rows (b boxed, f
 *                   friction rows); friction rows' normal rows must have
 *                   lo >= 0 (else LK_UNSUPPORTED).
 *   lk_lcp_dantzig  symmetric M (checked, unless options.symmetric says
 *                   so; else LK_UNSUPPORTED) that is
 *                   positive semidefinite (not checked: a failure is
 *                   reported), every kind of row, workspace of n rows.
 *                   Friction rows at their bound follow their normal
 *                   exactly (no frozen ODE-style bounds). When it cannot
 *                   finish (friction coupling can make its clamped system
 *                   indefinite; degenerate cycling; a singular block) and
 *                   the workspace has Lemke's room, it hands the problem to
 *                   Lemke, warm-started from where it stopped, and says so
 *                   in report.fallback.
 *
 * Typical use, once per time step with the previous basis:
 *
 *     lk_lcp_workspace *ws = lk_lcp_workspace_new(nmax);   // once
 *     lk_lcp_options o;  lk_lcp_options_default(&o);
 *     o.basis_in = prev;  o.basis_out = prev;              // warm start
 *     lk_lcp p = {n, A, lda, b, lo, hi, findex, mu};
 *     lk_lcp_report r;
 *     if (lk_lcp_solve(lk_lcp_dantzig, &p, &o, ws, z, w, &r) != LK_OK) ...
 *
 * Both run without allocating, in a workspace sized once; both verify the
 * returned solution with lk_lcp_residual() and never report success above
 * the tolerance; z and w are always finite on return (NaN never escapes).
 *
 * Matrices are row-major in caller-owned memory: M[i * ldm + j]. */
#ifndef LINKAGE_LCP_H
#define LINKAGE_LCP_H

#include <stddef.h>

#include "linkage/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A problem: a view over the caller's arrays (nothing is copied). */
typedef struct {
  int n;             /* number of rows (0 is a valid, empty problem) */
  const double *M;   /* n x n, row-major, M[i * ldm + j] */
  int ldm;           /* leading dimension of M (>= n); 0 means n */
  const double *q;   /* n */
  const double *lo;  /* n lower bounds, -INFINITY allowed; NULL: all 0 */
  const double *hi;  /* n upper bounds, +INFINITY allowed; NULL: all +inf */
  const int *findex; /* NULL, or n entries: -1, or the normal row of row i */
  const double *mu;  /* with findex: n friction coefficients (>= 0), read
                        only for rows with findex[i] >= 0 */
} lk_lcp;

/* The state of a row in a (complementary) basis: used to warm start a solve
 * from a guess (typically the previous time step's) and to return the basis
 * a solve ended in. For the standard LCP, LOWER means z_i = 0 (w_i basic)
 * and BASIC means z_i basic (w_i = 0). */
enum {
  LK_LCP_LOWER = 0, /* z_i at its lower bound, w_i >= 0 */
  LK_LCP_BASIC = 1, /* w_i = 0, z_i between its bounds (free rows: always) */
  LK_LCP_UPPER = 2  /* z_i at its upper bound, w_i <= 0 */
};

/* How a solve used the warm start it was given. */
typedef enum {
  LK_LCP_COLD = 0,      /* no warm start was given */
  LK_LCP_WARM_EXACT,    /* the guessed basis was the solution: no pivoting */
  LK_LCP_WARM_REPAIRED, /* started from (part of) the guess, then pivoted */
  LK_LCP_WARM_FELL_BACK, /* the guess was unusable: solved from a cold start */
  LK_LCP_WARM_GUESS      /* options.z_guess was already an answer: no solve */
} lk_lcp_warm;

typedef struct {
  int max_pivots;    /* cap over the whole solve; 0: 1000 + 100 n */
  double tol;        /* accepted relative residual (see lk_lcp_report) */
  double pivot_tol;  /* a pivot smaller than this, relative to its column, is
                        treated as zero */
  int max_restarts;  /* Lemke: after a ray that does not prove infeasibility,
                        restarts: from the all-basic start, then with other
                        covering vectors (matrices outside Lemke's classes) */
  int max_passes;    /* Dantzig: passes updating the friction-index bounds */
  const unsigned char *basis_in; /* NULL: cold start; else n LK_LCP_* states */
  unsigned char *basis_out;      /* NULL, or room for n states: the basis the
                                    solve ended in (may alias basis_in) */
  const double *z_guess; /* NULL, or n values to try before solving (may alias
                            z): clamped into their bounds, when their relative
                            residual, measured as the final check measures
                            it, is at most guess_tol, they are the answer,
                            for the cost of one product
                            M z (report.warm = LK_LCP_WARM_GUESS, no pivots,
                            basis_out the states z and w show); else the
                            solver runs as if none were given. A time
                            stepper's last impulses, when nothing moved. */
  double guess_tol;      /* 1e-13: a clamped row's w within what Dantzig's
                            own pivoting takes for zero */
  int symmetric;         /* 1: the caller built M symmetric (a Delassus
                            matrix J M^-1 J^T), so Dantzig skips its test
                            (n^2 / 2 strided reads). Not checked: a matrix
                            that is not fails the final residual check, or
                            falls back to Lemke; never a wrong answer. 0
                            (default): tested. */
} lk_lcp_options;

typedef struct {
  lk_status status;    /* also the return value of lk_lcp_solve */
  int pivots;          /* pivots over all restarts and passes */
  double residual;     /* lk_lcp_residual(problem, z, w) of the result */
  double residual_rel; /* residual / (1 + max_i max(|q_i|, sum_j |M_ij z_j|));
                          success requires residual_rel <= tol */
  lk_lcp_warm warm;    /* what became of the warm start */
  int restarts;        /* Lemke: covering-vector restarts made */
  int passes;          /* Dantzig: friction-bound passes made */
  int ray_certified;   /* LK_NO_SOLUTION: 1 when a Farkas certificate of
                          infeasibility (y with M^T y <= 0, q^T y < 0) was
                          found and verified, 0 when the solver only failed */
  int fallback;        /* Dantzig: 1 when it could not finish and Lemke
                          solved (or failed) in its place */
  const char *detail;  /* static text saying what happened, never NULL */
} lk_lcp_report;

/* Solver type objects (GSL style). */
typedef struct lk_lcp_solver lk_lcp_solver;
extern const lk_lcp_solver *const lk_lcp_lemke;
extern const lk_lcp_solver *const lk_lcp_dantzig;

/* "lemke", "dantzig". */
const char *lk_lcp_solver_name(const lk_lcp_solver *s);
/* The solver of that name, or NULL. */
const lk_lcp_solver *lk_lcp_solver_by_name(const char *name);

/* Defaults: max_pivots 0 (automatic), tol 1e-9, pivot_tol 1e-11,
 * max_restarts 3, max_passes 30, no warm start, no guess (guess_tol
 * 1e-13), symmetry tested (symmetric 0). */
void lk_lcp_options_default(lk_lcp_options *o);

/* Scratch memory for problems of up to nmax rows, for either solver; one
 * workspace per thread. NULL on failure (or nmax < 0). */
typedef struct lk_lcp_workspace lk_lcp_workspace;
lk_lcp_workspace *lk_lcp_workspace_new(int nmax);
void lk_lcp_workspace_free(lk_lcp_workspace *ws);
int lk_lcp_workspace_capacity(const lk_lcp_workspace *ws);
/* The capacity a workspace needs for p: n, or with boxed or friction rows
 * n + b + 2 f at most, which Lemke needs and which lets Dantzig fall back
 * to Lemke (Dantzig alone needs n). -1 for a problem lk_lcp_check refuses. */
int lk_lcp_capacity_needed(const lk_lcp *p);

/* Solve. o may be NULL (defaults), report may be NULL. z and w (n each)
 * receive the solution; on failure they hold the solver's last iterate
 * (finite; zeros if none), with w = M z + q. Returns
 *   LK_OK                 residual_rel <= tol
 *   LK_INVALID_ARGUMENT   NULL pointers, n < 0, ldm < n, lo > hi, lo = +inf,
 *                         hi = -inf, NaN bounds, findex out of range or
 *                         chained, mu < 0, or a bad basis_in state
 *   LK_NON_FINITE         NaN or Inf in M, q or mu
 *   LK_CAPACITY_EXCEEDED  n > the workspace's nmax
 *   LK_UNSUPPORTED        a row kind or matrix the solver does not handle
 *   LK_NO_SOLUTION        ray termination (see report.ray_certified)
 *   LK_PIVOT_LIMIT        max_pivots reached
 *   LK_SINGULAR           a basis the method needs is singular (e.g. the
 *                         free rows' block of M)
 *   LK_NOT_CONVERGED      the solver finished but its residual is above tol,
 *                         or the friction-bound passes did not settle */
lk_status lk_lcp_solve(const lk_lcp_solver *type, const lk_lcp *problem,
                       const lk_lcp_options *o, lk_lcp_workspace *ws, double *z, double *w,
                       lk_lcp_report *report);

/* The complementarity residual of (z, w): max over rows of
 * |z_i - mid(lo_i, z_i - w_i, hi_i)| (the natural map; for the standard LCP
 * |min(z_i, w_i)|), with w recomputed as M z + q, and, when w is not NULL,
 * also max_i |w_i - (M z + q)_i|. Friction-index bounds use the given z.
 * +INFINITY for NULL or invalid arguments or non-finite values; 0 for n = 0. */
double lk_lcp_residual(const lk_lcp *problem, const double *z, const double *w);

/* Check a problem for the conditions lk_lcp_solve lists (finite data,
 * consistent bounds, valid findex); err, if given, names the first row at
 * fault. */
lk_status lk_lcp_check(const lk_lcp *problem, lk_error *err);

/* ---------------------------------------------------------------- files */

/* A problem read from a file, owning its arrays. */
typedef struct lk_lcp_problem lk_lcp_problem;

/* Read a problem. Files ending in ".dat" are Siconos numerics' text format
 * (n, storage 0, sizes, M column by column, q; trailing remarks ignored);
 * anything else is YAML:
 *
 *     M: [[2, 1], [1, 2]]      # rows
 *     q: [-1, -1]
 *     lo: [0, -.inf]           # optional, default 0; .inf / -.inf allowed
 *     hi: [.inf, .inf]         # optional, default +inf
 *     findex: [-1, 0]          # optional, with mu
 *     mu: [0, 0.5]
 *     name: text               # optional
 *
 * Errors carry the file, line and column (LK_PARSE_ERROR for syntax,
 * LK_SCHEMA_ERROR for wrong keys, shapes or values, LK_IO_ERROR). */
lk_status lk_lcp_problem_load(const char *path, lk_lcp_problem **out, lk_error *err);
lk_status lk_lcp_problem_load_yaml(const char *path, lk_lcp_problem **out, lk_error *err);
lk_status lk_lcp_problem_load_siconos(const char *path, lk_lcp_problem **out, lk_error *err);
/* The same from text in memory; path is only used in messages (may be NULL). */
lk_status lk_lcp_problem_parse_yaml(const char *text, size_t len, const char *path,
                                    lk_lcp_problem **out, lk_error *err);
lk_status lk_lcp_problem_parse_siconos(const char *text, size_t len, const char *path,
                                       lk_lcp_problem **out, lk_error *err);
void lk_lcp_problem_free(lk_lcp_problem *p);

/* The problem (valid while p lives) and its name ("" if none). */
const lk_lcp *lk_lcp_problem_lcp(const lk_lcp_problem *p);
const char *lk_lcp_problem_name(const lk_lcp_problem *p);

#ifdef __cplusplus
}
#endif

#endif
