/* Post-stabilization of bilateral constraints (Cline & Pai, "Post-
 * stabilization for rigid body simulation with contact and constraints",
 * ICRA 2003): after the position update, Newton steps
 *     (J M^-1 J^T) mu = -c,   q <- q (+) M^-1 J^T mu
 * bring the loop-closure and coupling errors c back to round-off, with the
 * step's mass factor as the metric (so the correction moves the lightest
 * DoFs most and leaves velocities alone). Velocity-level Baumgarte alone
 * would leave an O(h^2 v^2 curvature / erp) lag on a moving closed chain. */
#include <math.h>
#include <string.h>

#include "constraint/constraint_impl.h"
#include "dynamics/dynamics_impl.h"
#include "lcp/lcp_layer.h"
#include "sim/sim_internal.h"

static double max_error(const lk_sim_data *sd, int r0, int r1) {
  double e = 0;
  for (int r = r0; r < r1; r++) e = fmax(e, fabs(sd->row[r].perr));
  return e;
}

/* One Newton step on n rows -- rows[0..n), or the n rows from r0 when rows
 * is NULL -- whose targets are in sd->z: (J M~^-1 J^T + ridge) mu = z,
 * q <- q (+) M~^-1 J^T mu, the ridge rel times the largest diagonal entry
 * plus add. Forms the rows' M~^-1 J^T (the step's solve may not have). */
lk_status lk_sim_project_step(const lk_model *m, lk_data *d, double *q, const int *rows, int r0,
                              int n, double rel, double add) {
  lk_sim_data *sd = &d->sim;
  double *x = sd->xtmp;
  /* rows of the step's (anchored contacts): their M~^-1 J^T as the
   * step's solve formed it (the factor is still M~'s), or for a row the
   * solve did not need it for (answered by its last impulses: marked
   * guessed) island.c's, with its small trees' and free bodies' inverses */
  for (int i = 0; i < n && rows; i++)
    if (sd->row[rows[i]].guessed) lk_sim_rows_y(m, d, rows + i, 1);
  for (int i = 0; i < n && !rows; i++) {
    const lk_row *R = &sd->row[r0 + i];
    const double *J = sd->jval + R->ofs;
    double *Y = sd->yval + R->ofs;
    for (int g = 0; g < 2 && R->tree[g] >= 0; g++) {
      memcpy(x + R->v0[g], J, (size_t)R->len[g] * sizeof *x);
      lk_dyn_solve_range(m, d, x, R->v0[g], R->v0[g] + R->len[g]);
      memcpy(Y, x + R->v0[g], (size_t)R->len[g] * sizeof *x);
      J += R->len[g];
      Y += R->len[g];
    }
  }
  double scale = 0;
  /* A is symmetric: its upper triangle, mirrored */
  for (int i = 0; i < n; i++) {
    int ri = rows ? rows[i] : r0 + i;
    for (int j = i; j < n; j++)
      sd->A[i * n + j] = sd->A[j * n + i] = lk_sim_delassus_entry(d, ri, rows ? rows[j] : r0 + j);
    scale = fmax(scale, sd->A[i * n + i]);
  }
  for (int i = 0; i < n; i++) sd->A[i * n + i] += rel * scale + add;
  /* the LCP layer's small dense LU (GSL's blocked Cholesky spent more in
   * its BLAS calls than in the arithmetic of these few rows) */
  if (!lk_lcp_lu_solve(sd->A, n, n, sd->z)) return LK_SINGULAR;
  memset(x, 0, (size_t)m->nv * sizeof *x);
  for (int i = 0; i < n; i++) lk_rows_axpy(d, rows ? rows[i] : r0 + i, sd->z[i], 1, x);
  if (!lk_all_finite(x, (size_t)m->nv)) return LK_NON_FINITE;
  lk_dyn_integrate(m, q, x, 1.0);
  return LK_OK;
}

lk_status lk_sim_project(const lk_model *m, lk_data *d, double *q) {
  lk_sim_data *sd = &d->sim;
  if ((m->nloop == 0 && m->ncoup == 0) || m->opt.projection_iterations == 0) return LK_OK;
  /* Work in the rows after the step's, then drop them: the step's rows
   * stay what its reports describe. */
  int nrow0 = sd->st->nrow;
  size_t nval0 = sd->st->nval;
  lk_status st = LK_OK;
  double err = 0;
  for (int it = 0; it <= m->opt.projection_iterations; it++) {
    lk_dyn_kinematics(m, d, q, d->v);
    lk_rows_compute_cdof(m, d);
    sd->st->nrow = nrow0;
    sd->st->nval = nval0;
    st = lk_loop_rows(m, d);
    if (!st) st = lk_coupling_rows(m, d, q);
    if (st) break;
    int r0 = nrow0, r1 = sd->st->nrow, n = r1 - r0;
    err = max_error(sd, r0, r1);
    if (n == 0 || err < 1e-13 || it == m->opt.projection_iterations) break;
    if (n > sd->island_cap) {
      st = LK_CAPACITY_EXCEEDED;
      break;
    }
    for (int i = 0; i < n; i++) sd->z[i] = -sd->row[r0 + i].perr;
    /* Redundant closures (a planar four-bar closed by a ball joint has
     * dependent rows) make A singular: a tiny ridge keeps it solvable and
     * yields the least-squares correction. */
    st = lk_sim_project_step(m, d, q, NULL, r0, n, 1e-12, 1e-12);
    if (st) break;
  }
  sd->st->nrow = nrow0;
  sd->st->nval = nval0;
  sd->st->report.projection_error = err;
  return st;
}
