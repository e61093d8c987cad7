/* Helpers shared by the files of lib/grasp (not installed). */
#ifndef LK_GRASP_INTERNAL_H
#define LK_GRASP_INTERNAL_H

#include "linkage/grasp.h"

/* ------------------------------------------------------------------ LP */

/* minimize c^T x subject to A x = b, x >= 0 (A: m x n, row-major). */
typedef struct {
  int m, n;
  const double *A;
  const double *b;
  const double *c;
} lk_glp;

typedef enum {
  LK_GLP_OPTIMAL = 0,
  LK_GLP_INFEASIBLE,
  LK_GLP_UNBOUNDED,
  LK_GLP_INACCURATE /* the final basis's x misses A x = b by more than the
                       tolerance (nearly dependent columns): no answer */
} lk_glp_result;

/* Two-phase dense simplex (lp.c). On LK_OK, *result says what was found;
 * x (n, may be NULL) is the optimum (OPTIMAL) or the last basic solution;
 * y (m, may be NULL) the dual solution (OPTIMAL: A^T y <= c, b^T y = c^T x)
 * or a Farkas certificate (INFEASIBLE: A^T y <= 0 and b^T y > 0). The
 * answer is checked against A x = b (1e-9 of 1 + sum |b|, the phase-1
 * tolerance) before it is called OPTIMAL or UNBOUNDED. Fails with
 * LK_OUT_OF_MEMORY or LK_PIVOT_LIMIT (max_pivots; 0: automatic). */
lk_status lk_glp_solve(const lk_glp *p, int max_pivots, lk_glp_result *result, double *x,
                       double *y, double *objective, int *pivots);

/* For tests of the pivoting rules: ratio-test ties to the lowest basic
 * index (the textbook rule, under which Beale's example cycles), and no
 * switch to Bland's rule after degenerate pivots. */
enum { LK_GLP_TEXTBOOK_TIES = 1, LK_GLP_NO_BLAND = 2 };
lk_status lk_glp_solve_flags(const lk_glp *p, int max_pivots, int flags, lk_glp_result *result,
                             double *x, double *y, double *objective, int *pivots);

/* ------------------------------------------------------------- shapes */

/* The world box of a shape (lk_geom_aabb, and a mesh's from its hull's
 * vertices; contacts.c). LK_UNSUPPORTED for a plane. */
lk_status lk_grasp_shape_aabb(lk_geom_type type, const double size[3], const lk_mesh *mesh,
                              const lk_transform *pose, lk_vec3 *lo, lk_vec3 *hi);

/* ------------------------------------------------------------ wrenches */

/* Options with the defaults filled in for a NULL pointer; checks them. */
lk_status lk_grasp_resolve_options(const lk_grasp_options *in, lk_grasp_options *out,
                                   lk_error *err);
/* Check contacts (finite, normal not zero, mu and torsion >= 0). */
lk_status lk_grasp_check_contacts(const lk_grasp_contact *c, int nc, lk_error *err);
/* The torque scale: o->torque_scale, or the largest |p_i - center| (1 when
 * that is 0). */
double lk_grasp_rho(const lk_grasp_contact *c, int nc, const lk_grasp_options *o);

/* Eigenvalues (ascending) and eigenvectors (columns of V, row-major 6 x 6)
 * of a symmetric 6 x 6 matrix, by cyclic Jacobi rotations. */
void lk_grasp_eigen6(const double A[36], double lambda[6], double V[36]);

/* Rank of the N x 6 rows of W (relative tolerance tol on the singular
 * values); null (may be NULL) receives a unit vector orthogonal to all rows
 * when the rank is below 6 (the eigenvector of the smallest eigenvalue of
 * W^T W). */
int lk_grasp_rank6(const double *W, int N, double tol, double null[6]);

/* ------------------------------------------------------------ epsilon */

/* The Ferrari-Canny epsilon of the hull of the N rows of W (6 each), the
 * origin inside it, by the expanding polytope algorithm (epsilon.c): 0 and
 * *eps within tol (absolute) of the distance from the origin to the hull's
 * boundary, normal (may be NULL) the closest facet's outward unit normal;
 * 2 when the origin is outside the hull (epsilon 0); 1 when it cannot
 * tell (degenerate facets, more than max_facets facets): use qhull; -1 out
 * of memory. */
int lk_grasp_epsilon_epa(const double *W, int N, double tol, int max_facets, double *eps,
                         double *normal);

#endif
