/* Force closure of a linearized grasp, decided by a linear program.
 *
 * With generators w_1..w_N (the rows of lk_grasp_wrenches), the grasp can
 * apply every wrench sum lambda_i w_i, lambda >= 0. It resists every
 * external wrench iff that cone is all of R^6, iff the w_i have rank 6 and
 * some strictly positive weights combine them to zero (Murray, Li and
 * Sastry 1994, Prop. 5.4 and its proof). The second part is the LP
 *
 *     maximize t  over mu >= 0, t >= 0
 *     subject to  sum_i mu_i w_i + t sum_i w_i = 0      (6 rows)
 *                 sum_i mu_i + N t = 1
 *
 * (lambda_i = mu_i + t >= t). If it is infeasible the origin is outside the
 * hull of the w_i: a Farkas certificate y = (y_w, y_0) with y_0 > 0 and
 * w_i . y_w <= -y_0 gives u = -y_w with u . w_i > 0 for every generator, so
 * the grasp can only apply wrenches a with u . a >= 0 and cannot resist the
 * external wrench u. If t* = 0 the origin is on the boundary and the dual
 * of the optimum gives such a u with u . w_i >= 0. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/internal.h"
#include "grasp/grasp_internal.h"

const char *lk_grasp_closure_name(lk_grasp_closure c) {
  switch (c) {
    case LK_GRASP_CLOSED:
      return "closed";
    case LK_GRASP_NO_CONTACTS:
      return "no contacts";
    case LK_GRASP_DEGENERATE:
      return "degenerate";
    case LK_GRASP_ONE_SIDED:
      return "one-sided";
  }
  return NULL;
}

/* "a force along (x, y, z)", "a torque about (...)" or both. */
static void describe(const double u[6], char *buf, size_t size) {
  double f = sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
  double t = sqrt(u[3] * u[3] + u[4] * u[4] + u[5] * u[5]);
  if (t <= 1e-6 * (f + t))
    snprintf(buf, size, "a force along (%.3g, %.3g, %.3g)", u[0] / f, u[1] / f, u[2] / f);
  else if (f <= 1e-6 * (f + t))
    snprintf(buf, size, "a torque about (%.3g, %.3g, %.3g)", u[3] / t, u[4] / t, u[5] / t);
  else
    snprintf(buf, size, "the wrench f = (%.3g, %.3g, %.3g), tau/rho = (%.3g, %.3g, %.3g)", u[0],
             u[1], u[2], u[3], u[4], u[5]);
}

lk_status lk_grasp_force_closure(const lk_grasp_contact *c, int nc, const lk_grasp_options *o,
                                 lk_grasp_closure_report *r, lk_error *err) {
  if (!r) return lk_error_set(err, LK_INVALID_ARGUMENT, "force closure: NULL report");
  memset(r, 0, sizeof *r);
  lk_grasp_options opt;
  lk_status st = lk_grasp_resolve_options(o, &opt, err);
  if (st) return st;
  if ((st = lk_grasp_check_contacts(c, nc, err))) return st;
  if (nc == 0) {
    r->reason = LK_GRASP_NO_CONTACTS;
    snprintf(r->detail, sizeof r->detail, "no contacts: nothing can be resisted");
    return LK_OK;
  }
  const int N = lk_grasp_wrench_count(c, nc, &opt);
  double *W = LK_NEW_ARRAY(double, 6 * N);
  const int rows = 7, cols = N + 1;
  double *A = LK_NEW_ARRAY(double, rows * cols);
  double *cost = LK_NEW_ARRAY(double, cols);
  double *x = LK_NEW_ARRAY(double, cols);
  double b[7] = {0, 0, 0, 0, 0, 0, 1}, y[7];
  if (!W || !A || !cost || !x) {
    st = lk_error_set(err, LK_OUT_OF_MEMORY, "force closure: out of memory");
    goto done;
  }
  if ((st = lk_grasp_wrenches(c, nc, &opt, W, NULL, NULL, err))) goto done;
  double null[6];
  r->rank = lk_grasp_rank6(W, N, opt.tolerance, null);
  if (r->rank < 6) {
    r->reason = LK_GRASP_DEGENERATE;
    memcpy(r->unresisted, null, sizeof null);
    char what[160];
    describe(null, what, sizeof what);
    snprintf(r->detail, sizeof r->detail,
             "the contact wrenches span only %d of 6 dimensions: no contact force can produce "
             "or resist %s",
             r->rank, what);
    goto done;
  }
  for (int i = 0; i < N; i++) {
    for (int k = 0; k < 6; k++) {
      A[(size_t)k * cols + i] = W[(size_t)i * 6 + k];
      A[(size_t)k * cols + N] += W[(size_t)i * 6 + k];
    }
    A[(size_t)6 * cols + i] = 1.0;
  }
  A[(size_t)6 * cols + N] = N;
  cost[N] = -1.0;
  lk_glp lp = {rows, cols, A, b, cost};
  lk_glp_result res;
  double obj;
  st = lk_glp_solve(&lp, 0, &res, x, y, &obj, NULL);
  if (st) {
    lk_error_set(err, st, "force closure: the linear program failed (%s)", lk_strerror(st));
    goto done;
  }
  if (res == LK_GLP_INACCURATE) {
    st = lk_error_set(err, LK_NOT_CONVERGED,
                      "force closure: the linear program's answer fails its own check "
                      "(nearly dependent contact wrenches)");
    goto done;
  }
  double tstar = res == LK_GLP_OPTIMAL ? x[N] : 0.0;
  r->margin = N * tstar;
  if (res == LK_GLP_OPTIMAL && r->margin > opt.tolerance) {
    r->closed = 1;
    r->reason = LK_GRASP_CLOSED;
    snprintf(r->detail, sizeof r->detail,
             "force closure: %d generators of %d contacts surround the origin (margin %.3g)", N,
             nc, r->margin);
    goto done;
  }
  r->reason = LK_GRASP_ONE_SIDED;
  double un = 0;
  for (int k = 0; k < 6; k++) un += y[k] * y[k];
  un = sqrt(un);
  for (int k = 0; k < 6; k++) r->unresisted[k] = un > 0 ? -y[k] / un : 0.0;
  char what[160];
  describe(r->unresisted, what, sizeof what);
  snprintf(r->detail, sizeof r->detail,
           "the origin is %s the hull of the contact wrenches: the grasp cannot resist %s",
           res == LK_GLP_INFEASIBLE ? "outside" : "on the boundary of", what);
done:
  lk_free(W);
  lk_free(A);
  lk_free(cost);
  lk_free(x);
  return st;
}
