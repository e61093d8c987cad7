/* A boxed LCP with friction-index rows as an equivalent standard (mixed)
 * LCP, for Lemke's method.
 *
 * Rows with two finite constant bounds, lo < z_i < hi: x_i = z_i - lo >= 0
 * and y_i = max(-w_i, 0) with the row v_i = hi - z_i:
 *     w_i + y_i >= 0 _|_ x_i >= 0,     hi - z_i >= 0 _|_ y_i >= 0,
 * whose new blocks are skew, so positive semidefiniteness is kept.
 *
 * Friction rows F = {f_1..f_m} of a normal row j (m <= 3): their box
 * |z_f| <= mu_f z_j is the convex hull of its 2^m vertices z_j d_l,
 * d_l = (+-mu_f1, .., +-mu_fm), so z_F = sum_l beta_l d_l with
 * sum_l beta_l <= z_j, and the box conditions of ODE (maximal dissipation
 * over the box) become Stewart and Trinkle's
 *     d_l^T w_F + lambda >= 0 _|_ beta_l >= 0,
 *     z_j - sum_l beta_l >= 0 _|_ lambda >= 0
 * (D. Stewart & J. Trinkle, IJNME 39, 1996), whose matrix is copositive
 * and which Lemke's method processes (M. Anitescu & F. Potra, Nonlinear
 * Dynamics 14, 1997). The first m betas take the friction rows' places.
 * Larger groups fall back to one row each: x_f = z_f + mu_f z_j >= 0,
 * y_f with v_f = 2 mu_f z_j - x_f (exact, but not copositive in general).
 *
 * Every variable of the expansion is a linear map of z's and every row a
 * linear combination of w's (plus the new terms): E = R M T. */
#include <string.h>

#include "lcp/lcp_internal.h"

#define MAXG 3 /* friction rows per normal expanded as a box */

/* The friction rows of normal j, in index order (the first MAXG of them
 * in f); their count. */
static int group(const lk_lcp *p, int j, int *f) {
  int m = 0;
  for (int i = 0; i < p->n; i++)
    if (lk_lcp_fidx(p, i) == j) {
      if (m < MAXG) f[m] = i;
      m++;
    }
  return m;
}

static inline int boxed_const(const lk_lcp *p, int i) {
  double lo = lk_lcp_lo(p, i), hi = lk_lcp_hi(p, i);
  return lk_lcp_fidx(p, i) < 0 && isfinite(lo) && isfinite(hi) && lo < hi;
}

int lk_lcp_expansion_size(const lk_lcp *p, int *ok) {
  int n = p->n, ne = n, f[MAXG];
  *ok = 1;
  if (!p->findex) {
    for (int i = 0; i < n; i++) ne += boxed_const(p, i);
    return ne;
  }
  for (int i = 0; i < n; i++) {
    ne += boxed_const(p, i);
    if (lk_lcp_fidx(p, i) >= 0) continue;
    int m = group(p, i, f);
    if (m == 0) continue;
    if (!(lk_lcp_lo(p, i) >= 0.0)) *ok = 0; /* |z_j| would not be linear */
    ne += m <= MAXG ? (1 << m) - m + 1 : m;
  }
  return ne;
}

/* Coefficient of z_i in the map T of variable v (or of w_i in the
 * combination R of row v): the entries (i, coef) go to idx/cf (at most
 * MAXG of them). */
static int combo(const lk_lcp *p, const lk_lcp_expansion *x, int v, int *idx, double *cf) {
  int k = 0;
  switch (x->vkind[v]) {
    case LK_X_ORIG:
      idx[k] = x->va[v];
      cf[k++] = 1.0;
      return k;
    case LK_X_FRICTION_ROW:
      idx[k] = v;
      cf[k++] = 1.0;
      return k;
    case LK_X_BETA: {
      int j = x->va[v], l = x->vb[v], a = 0;
      for (int f = x->fhead[j]; f >= 0; f = x->fnext[f], a++) {
        idx[k] = f;
        cf[k++] = ((l >> a) & 1 ? -1.0 : 1.0) * p->mu[f];
      }
      return k;
    }
    default:
      return 0;
  }
}

void lk_lcp_expand(const lk_lcp *p, lk_lcp_expansion *x, double *E, int lde, double *qe) {
  int n0 = p->n, ne = n0, ldm = lk_lcp_ldm(p);
  int f[MAXG];
  /* Variables: the original rows first, then the new ones. */
  for (int i = 0; i < n0; i++) {
    x->vkind[i] = LK_X_ORIG;
    x->va[i] = i;
    x->vb[i] = 0;
    x->fhead[i] = x->fnext[i] = -1;
    x->yvar[i] = -1;
  }
  for (int i = n0 - 1; i >= 0; i--) {
    int j = lk_lcp_fidx(p, i);
    if (j < 0) continue;
    x->fnext[i] = x->fhead[j];
    x->fhead[j] = i;
  }
  for (int j = 0; j < n0; j++) {
    if (lk_lcp_fidx(p, j) >= 0) continue;
    int m = group(p, j, f);
    if (m == 0) continue;
    if (m <= MAXG) {
      int nv = 1 << m;
      for (int l = 0; l < nv; l++) {
        int v = l < m ? f[l] : ne++;
        x->vkind[v] = LK_X_BETA;
        x->va[v] = j;
        x->vb[v] = l;
      }
      x->vkind[ne] = LK_X_LAMBDA;
      x->va[ne] = j;
      x->vb[ne] = 0;
      ne++;
    } else {
      for (int i = 0; i < n0; i++) {
        if (lk_lcp_fidx(p, i) != j) continue;
        x->vkind[i] = LK_X_FRICTION_ROW;
        x->yvar[i] = ne;
        x->vkind[ne] = LK_X_Y;
        x->va[ne] = i;
        ne++;
      }
    }
  }
  for (int i = 0; i < n0; i++) {
    if (!boxed_const(p, i)) continue;
    x->yvar[i] = ne;
    x->vkind[ne] = LK_X_Y;
    x->va[ne] = i;
    ne++;
  }
  x->n0 = n0;
  x->n = ne;

  /* E = R M T over the rows and variables that map to M, then the
   * coupling terms of the new ones. */
  int ri[MAXG + 1], ti[MAXG + 1];
  double rc[MAXG + 1], tc[MAXG + 1];
  for (int r = 0; r < ne; r++) {
    double *er = E + (size_t)r * (size_t)lde;
    for (int v = 0; v < ne; v++) er[v] = 0.0;
    int kr = combo(p, x, r, ri, rc);
    double qs = 0.0;
    for (int a = 0; a < kr; a++) qs += rc[a] * p->q[ri[a]];
    qe[r] = qs;
    if (kr == 0) continue;
    for (int v = 0; v < ne; v++) {
      int kt = combo(p, x, v, ti, tc);
      double s = 0.0;
      for (int a = 0; a < kr; a++) {
        const double *mrow = p->M + (size_t)ri[a] * (size_t)ldm;
        double t = 0.0;
        for (int b = 0; b < kt; b++) t += tc[b] * mrow[ti[b]];
        s += rc[a] * t;
      }
      er[v] = s;
    }
  }
  /* A large group's rows: z_f = x_f - mu_f z_j, so the normal's column
   * also carries -mu_f times the friction row's. */
  for (int fr = 0; fr < n0; fr++) {
    if (x->vkind[fr] != LK_X_FRICTION_ROW) continue;
    int j = lk_lcp_fidx(p, fr);
    for (int r = 0; r < ne; r++) E[(size_t)r * lde + j] -= p->mu[fr] * E[(size_t)r * lde + fr];
  }
  for (int r = 0; r < ne; r++) {
    double *er = E + (size_t)r * (size_t)lde;
    switch (x->vkind[r]) {
      case LK_X_BETA: {
        /* + lambda of the same normal. */
        int j = x->va[r];
        for (int v = n0; v < ne; v++)
          if (x->vkind[v] == LK_X_LAMBDA && x->va[v] == j) er[v] += 1.0;
        break;
      }
      case LK_X_LAMBDA: {
        int j = x->va[r];
        er[j] += 1.0;
        for (int v = 0; v < ne; v++)
          if (x->vkind[v] == LK_X_BETA && x->va[v] == j) er[v] -= 1.0;
        qe[r] = 0.0;
        break;
      }
      case LK_X_Y: {
        int i = x->va[r];
        er[i] -= 1.0;
        int j = lk_lcp_fidx(p, i);
        if (j >= 0) {
          er[j] += 2.0 * p->mu[i];
          qe[r] = 0.0;
        } else {
          qe[r] = lk_lcp_hi(p, i);
        }
        break;
      }
      default:
        if (x->yvar[r] >= 0) er[x->yvar[r]] += 1.0; /* w_r + y_r */
        break;
    }
  }
}

void lk_lcp_expand_map_back(const lk_lcp *p, const lk_lcp_expansion *x, const double *zc,
                            double *z) {
  int n0 = x->n0;
  for (int i = 0; i < n0; i++) z[i] = x->vkind[i] == LK_X_BETA ? 0.0 : zc[i];
  for (int v = 0; v < x->n; v++) {
    if (x->vkind[v] != LK_X_BETA) continue;
    int j = x->va[v], l = x->vb[v], a = 0;
    for (int f = x->fhead[j]; f >= 0; f = x->fnext[f], a++)
      z[f] += ((l >> a) & 1 ? -1.0 : 1.0) * p->mu[f] * zc[v];
  }
  for (int i = 0; i < n0; i++)
    if (x->vkind[i] == LK_X_FRICTION_ROW) z[i] = zc[i] - p->mu[i] * zc[lk_lcp_fidx(p, i)];
}

void lk_lcp_expand_guess(const lk_lcp *p, const lk_lcp_expansion *x, const unsigned char *in,
                         unsigned char *out) {
  int ne = x->n;
  for (int v = 0; v < ne; v++) out[v] = LK_LCP_LOWER;
  for (int i = 0; i < x->n0; i++) {
    unsigned char g = in[i];
    switch (x->vkind[i]) {
      case LK_X_ORIG:
      case LK_X_FRICTION_ROW:
        /* At the upper bound both x and y are basic. */
        out[i] = g == LK_LCP_LOWER ? LK_LCP_LOWER : LK_LCP_BASIC;
        if (x->yvar[i] >= 0) out[x->yvar[i]] = g == LK_LCP_UPPER ? LK_LCP_BASIC : LK_LCP_LOWER;
        if (x->yvar[i] < 0) out[i] = g;
        break;
      default:
        break;
    }
  }
  /* A box whose rows are at bounds slides: lambda and the vertex with
   * those signs are basic. */
  for (int v = 0; v < ne; v++) {
    if (x->vkind[v] != LK_X_LAMBDA) continue;
    int j = x->va[v], l = 0, a = 0, sliding = 0;
    for (int f = x->fhead[j]; f >= 0; f = x->fnext[f], a++) {
      if (in[f] == LK_LCP_LOWER) l |= 1 << a;
      sliding |= in[f] != LK_LCP_BASIC;
    }
    if (!sliding) continue;
    out[v] = LK_LCP_BASIC;
    for (int b = 0; b < ne; b++)
      if (x->vkind[b] == LK_X_BETA && x->va[b] == j && x->vb[b] == l) out[b] = LK_LCP_BASIC;
  }
}
