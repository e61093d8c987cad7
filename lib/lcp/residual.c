/* The complementarity residual: the independent check every solve ends
 * with (in the spirit of Siconos' lcp_compute_error). */
#include "lcp/lcp_internal.h"

double lk_lcp_residual_scaled(const lk_lcp *p, const double *z, const double *w,
                              double *w_out, double *scale) {
  if (scale) *scale = 1.0;
  if (!p || p->n < 0) return INFINITY;
  if (p->n == 0) return 0.0;
  if (!p->M || !p->q || !z || (p->findex && !p->mu)) return INFINITY;
  int n = p->n, ldm = lk_lcp_ldm(p);
  if (ldm < n) return INFINITY;
  double res = 0.0, sc = 0.0;
  for (int i = 0; i < n; i++) {
    const double *row = p->M + (size_t)i * (size_t)ldm;
    double s, mag;
    if (n < 8) { /* tiny rows: one fused pass */
      double t = 0.0, m = 0.0;
      for (int j = 0; j < n; j++) {
        double x = row[j] * z[j];
        t += x;
        m += fabs(x);
      }
      s = p->q[i] + t;
      mag = m;
    } else {
      s = p->q[i] + lk_lcp_dot_and_abs(row, z, n, &mag);
    }
    if (w_out) w_out[i] = s;
    double lo, hi;
    lk_lcp_bounds_at(p, z, i, &lo, &hi);
    double r = lk_lcp_row_residual(z[i], s, lo, hi);
    if (w) r = lk_maxd(r, fabs(w[i] - s));
    /* fmax drops NaN: test explicitly so a NaN can never look like 0. */
    if (!(r <= INFINITY) || !isfinite(s)) return INFINITY;
    res = lk_maxd(res, r);
    sc = lk_maxd(sc, lk_maxd(fabs(p->q[i]), mag));
  }
  if (scale) *scale = 1.0 + sc;
  return isfinite(res) ? res : INFINITY;
}

double lk_lcp_residual(const lk_lcp *p, const double *z, const double *w) {
  return lk_lcp_residual_scaled(p, z, w, NULL, NULL);
}
