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

/* The LP of one contact set, built once and solved for any number of
 * external wrenches (only b changes). */
typedef struct {
  int N, G, rows, cols, minmax;
  double rho;
  int *group, *gen_contact;
  double *W, *A, *b, *cost, *x;
} force_lp;

static void force_lp_free(force_lp *p) {
  lk_free(p->group);
  lk_free(p->gen_contact);
  lk_free(p->W);
  lk_free(p->A);
  lk_free(p->b);
  lk_free(p->cost);
  lk_free(p->x);
}

static lk_status force_lp_build(const lk_grasp_contact *c, int nc, const lk_grasp_options *opt,
                                int minmax, force_lp *p, lk_error *err) {
  memset(p, 0, sizeof *p);
  p->minmax = minmax;
  p->N = lk_grasp_wrench_count(c, nc, opt);
  const int N = p->N;
  /* Finger groups, numbered in order of first appearance. */
  p->group = LK_NEW_ARRAY(int, nc);
  p->gen_contact = LK_NEW_ARRAY(int, N);
  p->W = LK_NEW_ARRAY(double, 6 * N);
  if (!p->group || !p->gen_contact || !p->W) {
    force_lp_free(p);
    return lk_error_set(err, LK_OUT_OF_MEMORY, "min force: out of memory");
  }
  int G = 0;
  for (int i = 0; i < nc; i++) {
    p->group[i] = -1;
    if (c[i].finger >= 0)
      for (int j = 0; j < i; j++)
        if (c[j].finger == c[i].finger) {
          p->group[i] = p->group[j];
          break;
        }
    if (p->group[i] < 0) p->group[i] = G++;
  }
  p->G = G;
  lk_status st = lk_grasp_wrenches(c, nc, opt, p->W, p->gen_contact, &p->rho, err);
  if (st) {
    force_lp_free(p);
    return st;
  }
  const int rows = 6 + (minmax ? G : 0), cols = N + (minmax ? 1 + G : 0);
  p->rows = rows;
  p->cols = cols;
  p->A = LK_NEW_ARRAY(double, rows * cols);
  p->b = LK_NEW_ARRAY(double, rows);
  p->cost = LK_NEW_ARRAY(double, cols);
  p->x = LK_NEW_ARRAY(double, cols);
  if (!p->A || !p->b || !p->cost || !p->x) {
    force_lp_free(p);
    return lk_error_set(err, LK_OUT_OF_MEMORY, "min force: out of memory");
  }
  for (int k = 0; k < 6; k++)
    for (int i = 0; i < N; i++) p->A[(size_t)k * cols + i] = p->W[(size_t)i * 6 + k];
  if (minmax) {
    for (int i = 0; i < N; i++) p->A[(size_t)(6 + p->group[p->gen_contact[i]]) * cols + i] = 1.0;
    for (int g = 0; g < G; g++) {
      p->A[(size_t)(6 + g) * cols + N] = -1.0;
      p->A[(size_t)(6 + g) * cols + N + 1 + g] = 1.0;
    }
    p->cost[N] = 1.0;
  } else {
    for (int i = 0; i < N; i++) p->cost[i] = 1.0;
  }
  return LK_OK;
}

/* Solve for one external wrench: *r and p->x. */
static lk_status force_lp_solve(force_lp *p, lk_force external, lk_glp_result *r, int *pivots) {
  double e[6] = {external.lin.x,         external.lin.y,         external.lin.z,
                 external.ang.x / p->rho, external.ang.y / p->rho, external.ang.z / p->rho};
  for (int k = 0; k < 6; k++) p->b[k] = -e[k];
  lk_glp lp = {p->rows, p->cols, p->A, p->b, p->cost};
  double obj;
  return lk_glp_solve(&lp, 0, r, p->x, NULL, &obj, pivots);
}

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
  const int minmax = objective == LK_GRASP_MIN_MAX_FINGER;
  force_lp p;
  if ((st = force_lp_build(c, nc, &opt, minmax, &p, err))) return st;
  const int N = p.N, G = p.G;
  const int *group = p.group, *gen_contact = p.gen_contact;
  const double *W = p.W, *x = p.x;
  lk_glp_result r;
  st = force_lp_solve(&p, external, &r, &res->pivots);
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
  force_lp_free(&p);
  return st;
}

lk_status lk_grasp_load_force(const lk_grasp_contact *c, int nc, const lk_grasp_options *o,
                              const lk_force *loads, int nloads, double *force, int *worst,
                              lk_error *err) {
  lk_grasp_options opt;
  lk_status st = lk_grasp_resolve_options(o, &opt, err);
  if (st) return st;
  if ((st = lk_grasp_check_contacts(c, nc, err))) return st;
  if (!force || nloads < 0 || (nloads > 0 && !loads))
    return lk_error_set(err, LK_INVALID_ARGUMENT, "load force: NULL result or loads");
  for (int k = 0; k < nloads; k++)
    if (!lk_v3_isfinite(loads[k].lin) || !lk_v3_isfinite(loads[k].ang))
      return lk_error_set(err, LK_NON_FINITE, "load force: load %d is not finite", k);
  *force = 0;
  if (worst) *worst = -1;
  if (nloads == 0) return LK_OK;
  if (nc == 0) {
    for (int k = 0; k < nloads; k++)
      if (lk_v3_norm(loads[k].lin) > 0 || lk_v3_norm(loads[k].ang) > 0) {
        *force = INFINITY;
        if (worst) *worst = k;
        return LK_OK;
      }
    return LK_OK;
  }
  force_lp p;
  if ((st = force_lp_build(c, nc, &opt, 1, &p, err))) return st;
  for (int k = 0; k < nloads; k++) {
    lk_glp_result r;
    int pivots;
    if ((st = force_lp_solve(&p, loads[k], &r, &pivots))) {
      lk_error_set(err, st, "load force: the linear program failed (%s)", lk_strerror(st));
      break;
    }
    double fk = INFINITY;
    if (r == LK_GLP_OPTIMAL) { /* the largest finger's normal force, as lk_grasp_min_force */
      double gs[LK_GRASP_MAX_FINGERS * 8] = {0}, *g = p.G <= LK_GRASP_MAX_FINGERS * 8 ? gs : NULL;
      fk = 0;
      if (!g)
        fk = p.x[p.N];
      else {
        for (int i = 0; i < p.N; i++) g[p.group[p.gen_contact[i]]] += p.x[i];
        for (int j = 0; j < p.G; j++) fk = fmax(fk, g[j]);
      }
    }
    if (fk > *force) {
      *force = fk;
      if (worst) *worst = k;
    }
    if (isinf(fk)) break;
  }
  force_lp_free(&p);
  return st;
}
