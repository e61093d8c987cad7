/* Random LCP families for the tests and the benchmark (not part of the
 * library). Everything is deterministic given the generator's seed.
 * Matrices are row-major n x n with leading dimension ld. */
#ifndef LK_TESTS_LCP_GEN_H
#define LK_TESTS_LCP_GEN_H

#include <stdint.h>

typedef struct {
  uint64_t s;
} lk_rng;

void lk_rng_seed(lk_rng *r, uint64_t seed);
uint64_t lk_rng_next(lk_rng *r);
double lk_rng_uniform(lk_rng *r, double lo, double hi);
double lk_rng_normal(lk_rng *r);
int lk_rng_int(lk_rng *r, int n); /* 0 .. n-1 */

/* A A^T / n + ridge I, A n x n standard normal: symmetric positive definite. */
void lk_gen_spd(lk_rng *r, int n, double ridge, double *M, int ld);
/* A A^T / rank, A n x rank: symmetric positive semidefinite of that rank. */
void lk_gen_psd(lk_rng *r, int n, int rank, double *M, int ld);
/* SPD plus a skew-symmetric part of the same size: non-symmetric positive
 * definite (x^T M x > 0), hence a P-matrix. */
void lk_gen_nonsym_pd(lk_rng *r, int n, double *M, int ld);
/* P T P^T with T strictly row diagonally dominant (positive diagonal),
 * heavier below the diagonal than above, P a random permutation: a
 * well-conditioned P-matrix whose symmetric part is usually indefinite
 * (so not positive semidefinite). */
void lk_gen_pmatrix(lk_rng *r, int n, double *M, int ld);
/* q = w* - M z* for a random complementary pair (z*, w*) >= 0 where a
 * fraction `active` of the rows has z* > 0: a problem known to be solvable. */
void lk_gen_q_solvable(lk_rng *r, int n, const double *M, int ld, double active, double *q,
                       double *zstar);
/* q uniform in [-1, 1]. */
void lk_gen_q_uniform(lk_rng *r, int n, double *q);

/* Rigid bodies in contact: nc contacts spread over nb free bodies (6 DOF
 * each, random masses and inertias), random contact points and normals,
 * a random pre-contact velocity v* biased towards closing the contacts. */
typedef struct {
  int nb, nc;
  double mu;          /* friction coefficient of every contact */
  double *J;          /* 3 nc x 6 nb: rows normal, tangent 1, tangent 2 */
  double *minv;       /* 6 nb: diagonal inverse mass (body frame = world) */
  double *v;          /* 6 nb: v* */
  double *t1, *t2, *n; /* 3 nc each */
  int *body;          /* nc */
} lk_contacts;

/* Allocates the arrays (free with lk_contacts_free). */
void lk_gen_contacts(lk_rng *r, int nb, int nc, double mu, lk_contacts *c);
void lk_contacts_free(lk_contacts *c);

/* Stewart–Trinkle LCP of the contacts with k friction directions per
 * contact (k even, evenly spaced in the tangent plane): unknowns
 * (c_n, beta, lambda), size nc (2 + k):
 *     [ N'WN  N'WD  0 ] [c_n ]   [N'v]
 *     [ D'WN  D'WD  E ] [beta] + [D'v]
 *     [ mu    -E'   0 ] [lam ]   [ 0 ]
 * with W = M^-1; copositive-plus (Stewart & Trinkle, IJNME 39, 1996;
 * Anitescu & Potra, Nonlinear Dynamics 14, 1997). */
int lk_gen_stewart_trinkle_size(const lk_contacts *c, int k);
void lk_gen_stewart_trinkle(const lk_contacts *c, int k, double *M, int ld, double *q);

/* The same contacts as a boxed LCP with friction-index rows (ODE style):
 * per contact a normal row (z >= 0) and two tangent rows with bounds
 * [-mu z_n, mu z_n]; M = J W J^T symmetric positive semidefinite, q = J v*;
 * an optional diagonal regularization eps. Size 3 nc. */
void lk_gen_contacts_boxed(const lk_contacts *c, double eps, double *M, int ld, double *q,
                           double *lo, double *hi, int *findex, double *mu);

#endif
