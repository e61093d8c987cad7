/* The smallest finger forces that balance a wrench, by a linear program
 * over the linearized cones (the "minimum internal force" grasp force
 * problem; Kerr and Roth, "Analysis of multifingered hands", IJRR 1986,
 * solved here with the pyramid cones as an LP).
 *
 * Variables: beta_i >= 0, the weight of generator i (a unit normal force
 * along a cone edge, so a contact's normal force is the sum of its
 * generators' weights); for the min-max objective also s >= 0 and a slack
 * per finger group. Rows: sum_i beta_i w_i = -e (6 rows, GWS scaling on
 * both sides), and per group g: sum_{i in g} beta_i + slack_g - s = 0.
 * Minimize s, or sum_i beta_i. */
#include <math.h>
#include <string.h>

#include "core/internal.h"
#include "grasp/grasp_internal.h"

lk_status lk_grasp_min_force(const lk_grasp_contact *c, int nc, const lk_grasp_options *o,
                             lk_force external, lk_grasp_force_objective objective,
                             lk_grasp_force_result *res, double *fn, lk_vec3 *f, lk_error *err) {
  lk_grasp_options opt;
  lk_status st = lk_grasp_resolve_options(o, &opt, err);
  if (st) return st;
  if ((st = lk_grasp_check_contacts(c, nc, err))) return st;
  if (!res) return lk_error_set(err, LK_INVALID_ARGUMENT, "min force: NULL result");
  if (!lk_v3_isfinite(external.lin) || !lk_v3_isfinite(external.ang))
    return lk_error_set(err, LK_NON_FINITE, "min force: the wrench is not finite");
  if (objective != LK_GRASP_MIN_MAX_FINGER && objective != LK_GRASP_MIN_TOTAL)
    return lk_error_set(err, LK_INVALID_ARGUMENT, "min force: unknown objective %d", (int)objective);
  memset(res, 0, sizeof *res);
  if (nc == 0) {
    if (lk_v3_norm(external.lin) == 0 && lk_v3_norm(external.ang) == 0) return LK_OK;
    return lk_error_set(err, LK_NO_SOLUTION, "min force: no contacts to resist the wrench");
  }
  const int N = lk_grasp_wrench_count(c, nc, &opt);
  /* Finger groups, numbered in order of first appearance. */
  int *group = LK_NEW_ARRAY(int, nc);
  int *gen_contact = LK_NEW_ARRAY(int, N);
  double *W = LK_NEW_ARRAY(double, 6 * N);
  if (!group || !gen_contact || !W) {
    st = lk_error_set(err, LK_OUT_OF_MEMORY, "min force: out of memory");
    lk_free(group);
    lk_free(gen_contact);
    lk_free(W);
    return st;
  }
  int G = 0;
  for (int i = 0; i < nc; i++) {
    group[i] = -1;
    if (c[i].finger >= 0)
      for (int j = 0; j < i; j++)
        if (c[j].finger == c[i].finger) {
          group[i] = group[j];
          break;
        }
    if (group[i] < 0) group[i] = G++;
  }
  double rho;
  double *A = NULL, *b = NULL, *cost = NULL, *x = NULL;
  if ((st = lk_grasp_wrenches(c, nc, &opt, W, gen_contact, &rho, err))) goto done;
  const int minmax = objective == LK_GRASP_MIN_MAX_FINGER;
  const int rows = 6 + (minmax ? G : 0), cols = N + (minmax ? 1 + G : 0);
  A = LK_NEW_ARRAY(double, rows * cols);
  b = LK_NEW_ARRAY(double, rows);
  cost = LK_NEW_ARRAY(double, cols);
  x = LK_NEW_ARRAY(double, cols);
  if (!A || !b || !cost || !x) {
    st = lk_error_set(err, LK_OUT_OF_MEMORY, "min force: out of memory");
    goto done;
  }
  double e[6] = {external.lin.x, external.lin.y, external.lin.z, external.ang.x / rho,
                 external.ang.y / rho, external.ang.z / rho};
  for (int k = 0; k < 6; k++) {
    b[k] = -e[k];
    for (int i = 0; i < N; i++) A[(size_t)k * cols + i] = W[(size_t)i * 6 + k];
  }
  if (minmax) {
    for (int i = 0; i < N; i++) A[(size_t)(6 + group[gen_contact[i]]) * cols + i] = 1.0;
    for (int g = 0; g < G; g++) {
      A[(size_t)(6 + g) * cols + N] = -1.0;
      A[(size_t)(6 + g) * cols + N + 1 + g] = 1.0;
    }
    cost[N] = 1.0;
  } else {
    for (int i = 0; i < N; i++) cost[i] = 1.0;
  }
  lk_glp lp = {rows, cols, A, b, cost};
  lk_glp_result r;
  double obj;
  st = lk_glp_solve(&lp, 0, &r, x, NULL, &obj, &res->pivots);
  if (st) {
    lk_error_set(err, st, "min force: the linear program failed (%s)", lk_strerror(st));
    goto done;
  }
  if (r != LK_GLP_OPTIMAL) {
    st = lk_error_set(err, LK_NO_SOLUTION,
                      "min force: no contact forces inside the friction cones balance the "
                      "wrench (force (%.3g, %.3g, %.3g) N, moment (%.3g, %.3g, %.3g) N m)%s",
                      external.lin.x, external.lin.y, external.lin.z, external.ang.x,
                      external.ang.y, external.ang.z,
                      r == LK_GLP_INACCURATE ? ": only through rounding, with nearly dependent "
                                               "contact wrenches"
                                             : "");
    goto done;
  }
  /* Per contact and per finger, from the generator weights. */
  double *gs = LK_NEW_ARRAY(double, G);
  if (!gs) {
    st = lk_error_set(err, LK_OUT_OF_MEMORY, "min force: out of memory");
    goto done;
  }
  if (fn) memset(fn, 0, sizeof(double) * (size_t)nc);
  if (f)
    for (int i = 0; i < nc; i++) f[i] = lk_v3_zero();
  double total = 0;
  for (int i = 0; i < N; i++) {
    double beta = x[i];
    if (beta == 0) continue;
    int ci = gen_contact[i];
    total += beta;
    gs[group[ci]] += beta;
    if (fn) fn[ci] += beta;
    if (f) f[ci] = lk_v3_madd(f[ci], lk_v3(W[i * 6], W[i * 6 + 1], W[i * 6 + 2]), beta);
  }
  double mx = 0;
  for (int g = 0; g < G; g++) mx = fmax(mx, gs[g]);
  lk_free(gs);
  res->force = minmax ? mx : total;
  res->max_finger = mx;
  res->total = total;
done:
  lk_free(group);
  lk_free(gen_contact);
  lk_free(W);
  lk_free(A);
  lk_free(b);
  lk_free(cost);
  lk_free(x);
  return st;
}
