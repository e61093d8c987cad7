/* Linear complementarity problems: Lemke's and Dantzig's pivoting methods,
 * and non-smooth Gauss-Seidel (NSGS) over contacts for large sparse ones.
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
 *     normal row j = findex[i] (its lo_i, hi_i are then ignored);
 *   - the exact (circle) friction cone: two friction-index rows of one
 *     normal paired by `cone` share the disk sqrt(z_a^2 + z_b^2) <=
 *     mu |z_j| instead of two boxes: z_F inside the disk => w_F = 0; on its
 *     edge => w_F = -s z_F for some s >= 0 (Coulomb's law, maximal
 *     dissipation). A normal row with lo = 0, hi = +inf and such a pair is
 *     a contact in Siconos' sense (their fc3d problems).
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
 *                   lo >= 0 (else LK_UNSUPPORTED). When its path reaches
 *                   max_pivots or a ray that proves nothing on a standard
 *                   LCP of at most 128 rows, Murty's least-index principal
 *                   pivoting (finite on P-matrices, at most 8 n + 16 more
 *                   pivots) is its last resort: Murty's lower-triangular
 *                   matrix, 2^n pivots for the path, takes it one.
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
 *                   in report.fallback. A non-symmetric M (beyond 1e-10
 *                   max |M_ij|) is not Dantzig's: it is handed to Lemke
 *                   the same way (from basis_in, if given; report.fallback
 *                   1), or LK_UNSUPPORTED without Lemke's room.
 *   lk_lcp_nsgs     non-smooth Gauss-Seidel over blocks: every contact (a
 *                   normal with its friction rows: circle cone or boxes)
 *                   and every other row solved exactly given the others, in
 *                   row order, sweep after sweep (Jourdan, Alart & Curnier
 *                   1998; Siconos' fc3d_nsgs). Any M (non-symmetric
 *                   included; convergence is proven for symmetric positive
 *                   definite M and small mu only), dense or sparse (csr),
 *                   every kind of row, O(n) workspace. Relaxed and
 *                   Anderson-accelerated (options.omega, .anderson).
 *                   Starts from options.z_guess when given. Stops when
 *                   Siconos' error (lk_lcp_fc3d_error) and the relative
 *                   residual are both at most tol; LK_NOT_CONVERGED at
 *                   max_sweeps.
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
 * All run without allocating, in a workspace sized once; all verify the
 * returned solution with lk_lcp_residual() and never report success above
 * the tolerance; z and w are always finite on return (NaN never escapes).
 *
 * Matrices are row-major in caller-owned memory: M[i * ldm + j], or
 * compressed rows (lk_lcp_csr). The pivoting solvers take dense M only
 * (lk_lcp_densify makes one) and box friction only (LK_UNSUPPORTED
 * otherwise). */
#ifndef LINKAGE_LCP_H
#define LINKAGE_LCP_H

#include <stddef.h>

#include "linkage/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* M stored by compressed rows over the caller's memory: row i's entries
 * are val[row[i] .. row[i+1]-1] in columns col[...], strictly increasing
 * within a row (no duplicates); entries not stored are zero. row has n + 1
 * entries, row[0] = 0. Any n and number of entries an int holds. */
typedef struct {
  const int *row;
  const int *col;
  const double *val;
} lk_lcp_csr;

/* M in product form, M = G H^T + diag(d), never formed: G and H are n x m
 * in compressed rows (columns 0 .. m-1, strictly increasing in a row; the
 * two may share row and col arrays), d NULL or n entries. A time
 * stepper's Delassus matrix J M^-1 J^T is G = J, H = (M^-1 J^T)^T, d its
 * cfm: a sweep of NSGS then costs the entries of G and H, not of M (which
 * has k^2 entries a body for k rows on it). lk_lcp_nsgs takes it (keeping
 * u = H^T z, each block's matrix G_B H_B^T formed once a solve); the
 * pivoting solvers do not (lk_lcp_densify forms M). The residual's scale
 * (lk_lcp_report.residual_rel) takes sum_k |G_ik| (|H|^T |z|)_k + |d_i
 * z_i| for sum_j |M_ij z_j|: the magnitude of the sums actually formed, at
 * least the dense one. */
typedef struct {
  int m;            /* columns of G and H (>= 1 when g.row is set) */
  lk_lcp_csr g, h;  /* n rows each; g.row NULL: no product */
  const double *d;  /* NULL, or n diagonal entries added */
} lk_lcp_prod;

/* A problem: a view over the caller's arrays (nothing is copied). */
typedef struct {
  int n;             /* number of rows (0 is a valid, empty problem) */
  const double *M;   /* n x n, row-major, M[i * ldm + j]; ignored (may be
                        NULL) when csr.row or prod.g.row is set */
  int ldm;           /* leading dimension of M (>= n); 0 means n */
  const double *q;   /* n */
  const double *lo;  /* n lower bounds, -INFINITY allowed; NULL: all 0 */
  const double *hi;  /* n upper bounds, +INFINITY allowed; NULL: all +inf */
  const int *findex; /* NULL, or n entries: -1, or the normal row of row i */
  const double *mu;  /* with findex: n friction coefficients (>= 0), read
                        only for rows with findex[i] >= 0 */
  lk_lcp_csr csr;    /* csr.row NULL: M is dense; else M is this */
  const int *cone;   /* NULL, or n entries: for a friction-index row a, the
                        other friction row b of the same normal with which
                        it shares a circle (cone[b] == a, mu[b] == mu[a]),
                        or -1 (rows without findex: -1) */
  lk_lcp_prod prod;  /* prod.g.row set: M is G H^T + diag(d) (M and csr
                        ignored) */
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
  int guess_untested;    /* 1: the caller has found z_guess no answer
                            already (its own test): it is not tested again,
                            an iterative solver only starts from it (the
                            others start from nothing). 0 (default): tested */
  int symmetric;         /* 1: the caller built M symmetric (a Delassus
                            matrix J M^-1 J^T), so Dantzig skips its test
                            (n^2 / 2 strided reads). Not checked: a matrix
                            that is not fails the final residual check, or
                            falls back to Lemke; never a wrong answer. 0
                            (default): tested. */
  int max_sweeps;        /* NSGS: sweeps over all blocks at most; 0: 10000 */
  double omega;          /* NSGS: relaxation, z <- omega z_local + (1 -
                            omega) z, kept feasible; in (0, 2), or 0
                            (default): 0.7, which stops the 2-cycles plain
                            Gauss-Seidel (1) falls into on some contact
                            problems (docs/lcp.md), then 1, 0.85, 0.5 in
                            turn whenever the error has not improved by
                            1 % over 256 sweeps */
  int anderson;          /* NSGS: Anderson acceleration over the last
                            `anderson` sweeps (0: none; at most 6);
                            default 3 */
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
  int sweeps;          /* NSGS: sweeps made */
  double error;        /* NSGS: lk_lcp_fc3d_error of the result, the test it
                          stops on; NAN for the pivoting solvers (measure
                          their answers with lk_lcp_fc3d_error) */
  int regularized;     /* NSGS: blocks whose diagonal block was singular or
                          not positive, solved with a proximal term
                          eps (z - z_previous), which vanishes at the answer */
  const char *detail;  /* static text saying what happened, never NULL */
} lk_lcp_report;

/* Solver type objects (GSL style). */
typedef struct lk_lcp_solver lk_lcp_solver;
extern const lk_lcp_solver *const lk_lcp_lemke;
extern const lk_lcp_solver *const lk_lcp_dantzig;
extern const lk_lcp_solver *const lk_lcp_nsgs;
/* lk_lcp_newton: a semismooth Newton method on Alart and Curnier's
 * function (Jean-Moreau's form: the disk's radius mu |z_n|) for every kind
 * of row: contacts with circle pairs or friction boxes, free rows, rows
 * with bounds [lo, hi] (Alart & Curnier 1991; Christensen, Klarbring, Pang
 * & Stromberg 1998; Siconos' fc3d_nonsmooth_Newton_AlartCurnier). Takes a
 * dense M (its nonzeros) or compressed rows, any M (non-symmetric
 * included); a product (lk_lcp_prod) is refused with LK_UNSUPPORTED
 * (lk_lcp_densify it). Each iteration solves one sparse linear system
 * (SuiteSparse KLU; the analysis is made once per pattern and kept in the
 * workspace, then numeric refactorizations) and line-searches (Armijo) on
 * 1/2 |phi|^2; a singular Newton matrix (hyperstatic contacts sticking, W
 * rank-deficient) gets a proximal term eps I that vanishes with phi
 * (report.regularized: iterations that carried it). Where its steps stall
 * (8 failed line searches in a row) it takes 20 NSGS sweeps from its
 * iterate and resumes. Starts from options.z_guess when given; stops, as
 * NSGS does, when lk_lcp_fc3d_error and the relative residual are both at
 * most tol; options.max_sweeps caps the Newton iterations (0: 5000);
 * report.sweeps = Newton iterations made, report.pivots = fresh KLU
 * factorizations (a refactorization whose pivots went bad, and the first).
 * LK_NOT_CONVERGED at the cap (z then the best iterate seen). Local
 * quadratic convergence where the active set settles; no global
 * guarantee. Workspace: lk_lcp_workspace_new_newton, or any other (its
 * row vectors are then allocated at the first Newton solve); the first
 * solve of a pattern (n, M's nonzero pattern, findex) allocates H's rows
 * and KLU's objects (KLU through SuiteSparse's own allocator), later
 * solves of the pattern none through lk_set_allocator's hook. */
extern const lk_lcp_solver *const lk_lcp_newton;

/* "lemke", "dantzig", "nsgs", "newton". */
const char *lk_lcp_solver_name(const lk_lcp_solver *s);
/* The solver of that name, or NULL. */
const lk_lcp_solver *lk_lcp_solver_by_name(const char *name);

/* Defaults: max_pivots 0 (automatic), tol 1e-9, pivot_tol 1e-11,
 * max_restarts 3, max_passes 30, no warm start, no guess (guess_tol
 * 1e-13, guess_untested 0), symmetry tested (symmetric 0), max_sweeps 0 (automatic), omega
 * 0 (automatic), anderson 3. */
void lk_lcp_options_default(lk_lcp_options *o);

/* Scratch memory for problems of up to nmax rows, for either solver; one
 * workspace per thread. NULL on failure (or nmax < 0). */
typedef struct lk_lcp_workspace lk_lcp_workspace;
lk_lcp_workspace *lk_lcp_workspace_new(int nmax);
void lk_lcp_workspace_free(lk_lcp_workspace *ws);
int lk_lcp_workspace_capacity(const lk_lcp_workspace *ws);
/* Scratch for one solver only: for lk_lcp_nsgs O(nmax) memory (no dense
 * matrices: problems of any size, sparse ones above all; the pivoting
 * solvers refuse it with LK_CAPACITY_EXCEEDED); for the others the same as
 * lk_lcp_workspace_new. */
lk_lcp_workspace *lk_lcp_workspace_new_for(const lk_lcp_solver *type, int nmax);
/* A workspace of lk_lcp_nsgs for problems of up to nmax rows whose product
 * form (lk_lcp_prod) has up to mmax columns (O(mmax) more memory; the
 * other constructors take mmax = nmax). A product problem with more
 * columns than its workspace holds: LK_CAPACITY_EXCEEDED. */
lk_lcp_workspace *lk_lcp_workspace_new_nsgs(int nmax, int mmax);
/* A workspace for lk_lcp_newton (and lk_lcp_nsgs) for problems of up to
 * nmax rows: NSGS's and Newton's row vectors; the matrices follow the
 * first solve of a pattern (see lk_lcp_newton). NULL on failure. */
lk_lcp_workspace *lk_lcp_workspace_new_newton(int nmax);
/* Newton's row vectors in ws (any workspace) now, and its two matrices
 * sized for `entries` nonzeros each (M's, and the Newton matrix's: about
 * M's for contact problems), so that solves of problems within them
 * allocate nothing through lk_set_allocator's hook; a larger pattern grows
 * them by doubling. LK_OUT_OF_MEMORY, or LK_INVALID_ARGUMENT. */
lk_status lk_lcp_workspace_reserve_newton(lk_lcp_workspace *ws, int entries);
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
 * also max_i |w_i - (M z + q)_i|. Friction-index bounds use the given z;
 * a circle pair F's rows take the entries of z_F - proj(z_F - w_F) on
 * their disk.
 * +INFINITY for NULL or invalid arguments or non-finite values; 0 for n = 0. */
double lk_lcp_residual(const lk_lcp *problem, const double *z, const double *w);

/* Siconos' error measure (fc3d_compute_error) of z: with w = M z + q, the
 * 2-norm over contacts of r - proj_K(r - (u + mu |u_T| e_n)) (r = z, u = w
 * on a normal row and its circle pair: De Saxce's form of Coulomb's law,
 * zero exactly at an answer), and over every other row of its natural-map
 * residual z - mid(lo, z - w, hi), divided by max(|q|, |z|, |w|) (2-norms)
 * when that exceeds DBL_EPSILON. For a Siconos friction-contact problem it
 * is their number. +INFINITY for invalid arguments or non-finite values. */
double lk_lcp_fc3d_error(const lk_lcp *problem, const double *z);

/* Check a problem for the conditions lk_lcp_solve lists (finite data,
 * consistent bounds, valid findex, cone pairs and compressed rows); err, if
 * given, names the first row at fault. O(n + entries) for compressed rows
 * and products, O(n^2) dense. */
lk_status lk_lcp_check(const lk_lcp *problem, lk_error *err);

/* M of a problem into a dense row-major array (leading dimension ld >= n,
 * n x ld doubles): a copy when dense, the expansion of csr, or the
 * product G H^T + diag(d) formed (O(n entries)). */
lk_status lk_lcp_densify(const lk_lcp *problem, double *M, int ld);

/* max_ij |M_ij - M_ji| / max_ij |M_ij| (0 for a zero or empty M): how far
 * from symmetric M is. Compressed rows: O(entries log(entries a row));
 * products: every entry formed, O(n^2 entries a row). +INFINITY for an
 * invalid problem. */
double lk_lcp_asymmetry(const lk_lcp *problem);

/* ---------------------------------------------------------------- files */

/* A problem read from a file, owning its arrays. */
typedef struct lk_lcp_problem lk_lcp_problem;

/* Problem files larger than this are refused (devices and pipes too: the
 * reading stops there), the limit of the mechanism loader. A file's length
 * also bounds what it may ask for: every entry of a dense M, every stored
 * entry of a sparse one and every entry of q must be spelled out (YAML
 * aliases do not multiply them). */
#define LK_LCP_FILE_MAX_BYTES ((size_t)16 << 20)

/* Read a problem. Files ending in ".dat" are Siconos numerics' text
 * formats: an LCP (n, M as a NumericsMatrix, q) or a friction-contact
 * problem (FrictionContactProblem: dimension d = 2 or 3, contacts nc, W,
 * q, mu; each contact a normal row, lo 0, and d - 1 friction rows with its
 * mu, a circle pair when d = 3), M stored dense (storage 0, entries column
 * by column), in sparse blocks (1) or sparse (2: triplets, compressed
 * columns or rows), the last two read as compressed rows; trailing remarks
 * ignored. Anything else is YAML:
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
/* A friction-contact problem's number of contacts (and *dim, if given,
 * its dimension); 0 (and 0) for an LCP. */
int lk_lcp_problem_contacts(const lk_lcp_problem *p, int *dim);

#ifdef __cplusplus
}
#endif

#endif
