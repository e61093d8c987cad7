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
#include "sim/sim_internal.h"

/* z <- A^-1 z for the symmetric positive definite n x n A (row-major, its
 * lower triangle overwritten by the Cholesky factor). 0 when A is not
 * positive definite to working precision. The projection's systems are a
 * few contacts' rows: GSL's blocked decomposition spent more in its BLAS
 * calls than the arithmetic on them. */
static int cholesky_solve(double *A, int n, double *z) {
  for (int j = 0; j < n; j++) {
    double *aj = A + (size_t)j * n;
    double djj = aj[j];
    for (int k = 0; k < j; k++) djj -= aj[k] * aj[k];
    if (!(djj > 0) || !isfinite(djj)) return 0;
    const double ljj = sqrt(djj);
    aj[j] = ljj;
    for (int i = j + 1; i < n; i++) {
      double *ai = A + (size_t)i * n;
      double s = ai[j];
      for (int k = 0; k < j; k++) s -= ai[k] * aj[k];
      ai[j] = s / ljj;
    }
  }
  for (int i = 0; i < n; i++) { /* L y = z */
    const double *ai = A + (size_t)i * n;
    double s = z[i];
    for (int k = 0; k < i; k++) s -= ai[k] * z[k];
    z[i] = s / ai[i];
  }
  for (int i = n - 1; i >= 0; i--) { /* L^T x = y */
    double s = z[i];
    for (int k = i + 1; k < n; k++) s -= A[(size_t)k * n + i] * z[k];
    z[i] = s / A[(size_t)i * n + i];
  }
  return 1;
}

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
  /* A is symmetric: its upper triangle, mirrored. Consecutive rows of a
   * contact (or a loop) lie on the same trees: an entry's segments are
   * matched by tree, as lk_sim_delassus_entry does, in the same order. */
  for (int i = 0; i < n; i++) {
    const lk_row *Ri = &sd->row[rows ? rows[i] : r0 + i];
    for (int j = i; j < n; j++) {
      const lk_row *Rj = &sd->row[rows ? rows[j] : r0 + j];
      double e = 0;
      const double *Ji = sd->jval + Ri->ofs;
      for (int a = 0; a < 2 && Ri->tree[a] >= 0; Ji += Ri->len[a], a++) {
        const double *Yj = sd->yval + Rj->ofs;
        for (int b = 0; b < 2 && Rj->tree[b] >= 0; Yj += Rj->len[b], b++)
          if (Ri->tree[a] == Rj->tree[b])
            for (int k = 0; k < Ri->len[a]; k++) e += Ji[k] * Yj[k];
      }
      sd->A[i * n + j] = sd->A[j * n + i] = e;
    }
    scale = fmax(scale, sd->A[i * n + i]);
  }
  for (int i = 0; i < n; i++) sd->A[i * n + i] += rel * scale + add;
  if (!cholesky_solve(sd->A, n, sd->z)) return LK_SINGULAR;
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
