/* One island of rows as one boxed LCP with per-row settings, for the
 * solves that are not the step's friction LCP (solve.c): the static
 * analysis and smoothed friction. Row r of the island has
 *   w_r = sum_s A_rs z_s + jv_r + bias_r + rdiag_r z_r,  A = J Y (Delassus),
 *   rlo_r <= z_r <= rhi_r, or |z_r| <= rmu_r z_n with n = rfn_r (>= 0),
 * and the answer goes to R->z and R->w (without the rdiag term: w is
 * J v+ + bias). Dantzig first (A is symmetric positive semidefinite), then
 * Lemke, then both with a small ridge on the diagonal. */
#include <math.h>
#include <string.h>

#include "constraint/constraint_impl.h"
#include "linkage/lcp.h"
#include "sim/sim_internal.h"

lk_status lk_sim_rows_lcp(const lk_model *m, lk_data *d, int island, lk_lcp_report *rep) {
  (void)m;
  lk_sim_data *sd = &d->sim;
  lk_models_data *x = &sd->x;
  int s0 = sd->island_start[island], n = sd->island_start[island + 1] - s0;
  const int *rows = sd->island_rows + s0;
  if (n > sd->island_cap) return LK_CAPACITY_EXCEEDED;
  double *A = sd->A, *b = sd->b, *lo = sd->lo, *hi = sd->hi, *mu = sd->mu, *z = sd->z, *w = sd->w;
  int *fi = sd->findex;
  double scale = 0;
  for (int i = 0; i < n; i++) {
    int ri = rows[i];
    for (int j = i; j < n; j++) {
      double a = lk_sim_delassus_entry(d, ri, rows[j]);
      A[i * n + j] = A[j * n + i] = a;
    }
    A[i * n + i] += x->rdiag[ri];
    if (A[i * n + i] > scale) scale = A[i * n + i];
    const lk_row *R = &sd->row[ri];
    b[i] = R->jv + R->bias;
    lo[i] = x->rlo[ri];
    hi[i] = x->rhi[ri];
    fi[i] = x->rfn[ri] >= 0 ? sd->rowloc[x->rfn[ri]] : -1;
    mu[i] = x->rmu[ri];
  }
  lk_lcp p = {.n = n, .M = A, .ldm = n, .q = b, .lo = lo, .hi = hi, .findex = fi, .mu = mu};
  lk_lcp_options o;
  lk_lcp_options_default(&o);
  lk_status st = LK_OK;
  int pivots = 0;
  double ridge[3] = {0, 1e-12 * (1 + scale), 1e-9 * (1 + scale)};
  for (int k = 0; k < 3; k++) {
    if (k > 0)
      for (int i = 0; i < n; i++) A[i * n + i] += ridge[k] - ridge[k - 1];
    st = lk_lcp_solve(lk_lcp_dantzig, &p, &o, sd->lcp, z, w, rep);
    if (rep) pivots += rep->pivots;
    if (!st) break;
    st = lk_lcp_solve(lk_lcp_lemke, &p, &o, sd->lcp, z, w, rep);
    if (rep) pivots += rep->pivots;
    if (!st) break;
  }
  if (rep) rep->pivots = pivots;
  if (st) return st;
  for (int i = 0; i < n; i++) {
    lk_row *R = &sd->row[rows[i]];
    R->z = z[i];
    R->w = w[i] - x->rdiag[rows[i]] * z[i];
  }
  return LK_OK;
}
