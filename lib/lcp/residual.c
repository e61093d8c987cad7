/* The complementarity residual: the independent check every solve ends
 * with (in the spirit of Siconos' lcp_compute_error), and Siconos' own
 * error measure of friction-contact problems (fc3d_compute_error). */
#include <float.h>

#include "lcp/lcp_internal.h"

/* The residual of a circle pair (a, b) of normal j at z with w: the larger
 * entry of z_F - proj(z_F - w_F) on the disk of radius mu |z_j|. */
static double pair_residual(const lk_lcp *p, const double *z, int a, int b, double wa,
                            double wb) {
  double x0 = z[a] - wa, x1 = z[b] - wb;
  lk_lcp_disk_project(&x0, &x1, p->mu[a] * fabs(z[lk_lcp_fidx(p, a)]));
  return lk_maxd(fabs(z[a] - x0), fabs(z[b] - x1));
}

/* (M z)_i and its magnitude (lk_lcp_residual_scaled's scale) for any
 * storage; products read u = H^T z, ua = |H|^T |z|. */
static inline double row_times(const lk_lcp *p, int i, const double *z, const double *u,
                               const double *ua, double *mag) {
  if (lk_lcp_prodf(p)) return lk_lcp_prod_row(p, i, z, u, ua, mag);
  return lk_lcp_row_dot(p, i, z, mag);
}

static double residual_scaled(const lk_lcp *p, const double *z, const double *w, double *w_out,
                              double *scale, double *u) {
  int n = p->n;
  double *ua = u ? u + p->prod.m : NULL, res = 0.0, sc = 0.0;
  if (u) lk_lcp_prod_ht(p, z, u, ua);
  int pairs = 0;
  /* a product's rows of one pattern (a contact's) in one pass: rs, rm
   * hold (M z)_i and its magnitude for rows run0 .. run1 - 1 */
  double rs[3], rm[3];
  int run0 = 0, run1 = 0, runs = u && w_out;
  for (int i = 0; i < n; i++) {
    double mag, s;
    if (runs) {
      if (i >= run1) {
        run0 = i;
        run1 = i + lk_lcp_csr_run(&p->prod.g, i, n);
        lk_lcp_prod_rows(p, i, run1 - i, z, u, ua, rs, rm);
      }
      mag = rm[i - run0];
      s = p->q[i] + rs[i - run0];
    } else {
      s = p->q[i] + row_times(p, i, z, u, ua, &mag);
    }
    if (w_out) w_out[i] = s;
    double r;
    if (lk_lcp_pair(p, i) >= 0) {
      /* judged with its partner: below when w_out keeps both, else now */
      int b = lk_lcp_pair(p, i);
      r = 0.0;
      if (!w_out && b > i) {
        double mb, sb = p->q[b] + row_times(p, b, z, u, ua, &mb);
        r = pair_residual(p, z, i, b, s, sb);
      }
      pairs = 1;
    } else {
      double lo, hi;
      lk_lcp_bounds_at(p, z, i, &lo, &hi);
      r = lk_lcp_row_residual(z[i], s, lo, hi);
    }
    if (w) r = lk_maxd(r, fabs(w[i] - s));
    /* fmax drops NaN: test explicitly so a NaN can never look like 0. */
    if (!(r <= INFINITY) || !isfinite(s)) return INFINITY;
    res = lk_maxd(res, r);
    sc = lk_maxd(sc, lk_maxd(fabs(p->q[i]), mag));
  }
  if (pairs && w_out)
    for (int a = 0; a < n; a++) {
      int b = lk_lcp_pair(p, a);
      if (b > a) {
        double r = pair_residual(p, z, a, b, w_out[a], w_out[b]);
        if (!(r <= INFINITY)) return INFINITY;
        res = lk_maxd(res, r);
      }
    }
  if (scale) *scale = 1.0 + sc;
  return isfinite(res) ? res : INFINITY;
}

double lk_lcp_residual_scaled(const lk_lcp *p, const double *z, const double *w,
                              double *w_out, double *scale, double *u) {
  if (scale) *scale = 1.0;
  if (!p || p->n < 0) return INFINITY;
  if (p->n == 0) return 0.0;
  if ((!p->M && lk_lcp_dense(p)) || !p->q || !z || (p->findex && !p->mu)) return INFINITY;
  if (lk_lcp_dense(p) && lk_lcp_ldm(p) < p->n) return INFINITY;
  if (!lk_lcp_prodf(p)) return residual_scaled(p, z, w, w_out, scale, NULL);
  if (p->prod.m < 1 || !p->prod.h.row) return INFINITY;
  double *own = NULL;
  if (!u && !(u = own = LK_NEW_ARRAY(double, 2 * (size_t)p->prod.m))) return INFINITY;
  double r = residual_scaled(p, z, w, w_out, scale, u);
  lk_free(own);
  return r;
}

/* The residual of z against a w the caller formed (no matrix read): each
 * row's natural map at its bounds, a circle pair's disk law, as
 * residual_scaled judges them. */
double lk_lcp_residual_given_w(const lk_lcp *p, const double *z, const double *w) {
  double res = 0.0;
  for (int i = 0; i < p->n; i++) {
    int b = lk_lcp_pair(p, i);
    double r = 0.0;
    if (b >= 0) {
      if (b > i) r = pair_residual(p, z, i, b, w[i], w[b]);
    } else {
      double lo, hi;
      lk_lcp_bounds_at(p, z, i, &lo, &hi);
      r = lk_lcp_row_residual(z[i], w[i], lo, hi);
    }
    if (!(r <= INFINITY) || !isfinite(w[i])) return INFINITY;
    res = lk_maxd(res, r);
  }
  return res;
}

double lk_lcp_residual(const lk_lcp *p, const double *z, const double *w) {
  return lk_lcp_residual_scaled(p, z, w, NULL, NULL, NULL);
}

/* Siconos' projection onto the cone K = {|x_t| <= mu x_n}
 * (projectionOnCone). */
static void cone_project(double *x, double mu) {
  double t = sqrt(x[1] * x[1] + x[2] * x[2]);
  if (mu * t <= -x[0]) {
    x[0] = x[1] = x[2] = 0.0;
  } else if (t > mu * x[0]) {
    double xn = (mu * t + x[0]) / (mu * mu + 1.0);
    x[0] = xn;
    x[1] = mu * xn * x[1] / t;
    x[2] = mu * xn * x[2] / t;
  }
}

/* A contact in Siconos' sense: a normal row with bounds [0, +inf) and the
 * first circle pair of its friction rows (pa[j] = its first row, or -1). */
static void contact_pairs(const lk_lcp *p, int *pa) {
  int n = p->n;
  for (int i = 0; i < n; i++) pa[i] = -1;
  if (!p->cone) return;
  for (int a = 0; a < n; a++) {
    int b = p->cone[a], j = lk_lcp_fidx(p, a);
    if (b <= a || j < 0 || pa[j] >= 0) continue;
    if (lk_lcp_lo(p, j) == 0.0 && lk_lcp_hi(p, j) == INFINITY) pa[j] = a;
  }
}

double lk_lcp_fc3d_error_w(const lk_lcp *p, const double *z, const double *w, int *pa) {
  int n = p->n;
  if (n == 0) return 0.0;
  contact_pairs(p, pa);
  double e2 = 0.0, q2 = 0.0, z2 = 0.0, w2 = 0.0;
  for (int i = 0; i < n; i++) {
    q2 += p->q[i] * p->q[i];
    z2 += z[i] * z[i];
    w2 += w[i] * w[i];
    int j = lk_lcp_fidx(p, i), b = lk_lcp_pair(p, i);
    if (pa[i] >= 0) { /* De Saxce: r - proj_K(r - (u + mu |u_T| e_n)) */
      int a = pa[i], c = p->cone[a];
      double mu = p->mu[a], r[3] = {z[i], z[a], z[c]}, u[3] = {w[i], w[a], w[c]}, x[3];
      x[0] = r[0] - u[0] - mu * sqrt(u[1] * u[1] + u[2] * u[2]);
      x[1] = r[1] - u[1];
      x[2] = r[2] - u[2];
      cone_project(x, mu);
      for (int k = 0; k < 3; k++) e2 += (r[k] - x[k]) * (r[k] - x[k]);
    } else if (j >= 0 && (pa[j] == i || (b >= 0 && pa[j] == b))) {
      continue; /* a contact's tangent: counted with its normal */
    } else if (b >= 0) {
      if (b < i) continue;
      double x0 = z[i] - w[i], x1 = z[b] - w[b];
      lk_lcp_disk_project(&x0, &x1, p->mu[i] * fabs(z[j]));
      e2 += (z[i] - x0) * (z[i] - x0) + (z[b] - x1) * (z[b] - x1);
    } else {
      double lo, hi;
      lk_lcp_bounds_at(p, z, i, &lo, &hi);
      double r = lk_lcp_row_residual(z[i], w[i], lo, hi);
      e2 += r * r;
    }
  }
  double err = sqrt(e2), scale = lk_maxd(sqrt(q2), lk_maxd(sqrt(z2), sqrt(w2)));
  if (fabs(scale) > DBL_EPSILON) err /= scale;
  return isfinite(err) ? err : INFINITY;
}

double lk_lcp_fc3d_error(const lk_lcp *p, const double *z) {
  if (!z || lk_lcp_check(p, NULL) != LK_OK || !lk_lcp_finite(z, p->n)) return INFINITY;
  int n = p->n;
  if (n == 0) return 0.0;
  double *w = LK_NEW_ARRAY(double, n);
  int *pa = LK_NEW_ARRAY(int, n);
  double err = INFINITY;
  if (w && pa && lk_lcp_times(p, z, w, NULL) == LK_OK && lk_lcp_finite(w, n))
    err = lk_lcp_fc3d_error_w(p, z, w, pa);
  lk_free(w);
  lk_free(pa);
  return err;
}
