/* Shapes against a plane (the half-space z <= 0 of the plane's frame):
 * closed forms, one signed distance per candidate point of the shape. */
#include <math.h>

#include "collision/shape.h"

/* Signed height of x above the plane (normal n through o), and the point
 * pair: x on the shape, its projection on the plane. */
static void plane_point(lk_vec3 x, lk_vec3 n, lk_vec3 o, double margin, unsigned feature,
                        double radius, lk_manifold *out) {
  double h = lk_v3_dot(n, lk_v3_sub(x, o));
  double depth = radius - h;
  if (depth < -margin) return;
  lk_col_emit(out, lk_v3_madd(x, n, -radius), lk_v3_madd(x, n, -h), n, depth, feature);
}

void lk_col_sphere_plane(const lk_shape *a, const lk_shape *b, double margin, lk_manifold *out) {
  lk_vec3 n = lk_m3_col(&b->X.R, 2);
  plane_point(a->X.p, n, b->X.p, margin, 0, a->size[0], out);
}

/* Features: 0 the -z end of the segment, 1 the +z end. Both ends within the
 * margin (a capsule lying on the plane) give the 2-point line contact. */
void lk_col_capsule_plane(const lk_shape *a, const lk_shape *b, double margin, lk_manifold *out) {
  lk_vec3 n = lk_m3_col(&b->X.R, 2), u = lk_m3_col(&a->X.R, 2);
  double r = a->size[0], hl = a->size[1];
  plane_point(lk_v3_madd(a->X.p, u, -hl), n, b->X.p, margin, 0, r, out);
  if (hl > 0) plane_point(lk_v3_madd(a->X.p, u, hl), n, b->X.p, margin, 1, r, out);
}

/* The corners within the margin; feature = corner index (bit k set: +h_k).
 * More than 4 (a box sunk deeper than its own size) keeps the 4 deepest,
 * lower corner first on ties. */
void lk_col_box_plane(const lk_shape *a, const lk_shape *b, double margin, lk_manifold *out) {
  lk_vec3 n = lk_m3_col(&b->X.R, 2), o = b->X.p;
  const double *h = a->size;
  lk_vec3 x[8];
  double depth[8];
  int idx[8], k = 0;
  for (int c = 0; c < 8; c++) {
    lk_vec3 local = lk_v3(c & 1 ? h[0] : -h[0], c & 2 ? h[1] : -h[1], c & 4 ? h[2] : -h[2]);
    x[c] = lk_tf_point(&a->X, local);
    depth[c] = -lk_v3_dot(n, lk_v3_sub(x[c], o));
    if (depth[c] >= -margin) idx[k++] = c;
  }
  /* Stable insertion sort by depth, deepest first. */
  for (int i = 1; i < k; i++) {
    int c = idx[i], j = i;
    while (j > 0 && depth[idx[j - 1]] < depth[c]) {
      idx[j] = idx[j - 1];
      j--;
    }
    idx[j] = c;
  }
  if (k > 4) k = 4;
  for (int i = 0; i < k; i++) {
    int c = idx[i];
    lk_col_emit(out, x[c], lk_v3_madd(x[c], n, depth[c]), n, depth[c], (unsigned)c);
  }
}

/* A cylinder whose axis is within LK_COL_FLAT_TOL of the plane normal rests
 * on its lower cap: 4 points on that cap's rim along the cylinder's own
 * +x, +y, -x, -y (features 4 cap + k; cap 0 is the -z end), so they stay
 * put while the cylinder sits still. Otherwise each cap contributes the
 * lowest point of its rim (features 8 + cap): one point when tilted, two
 * when lying on its side. */
void lk_col_cylinder_plane(const lk_shape *a, const lk_shape *b, double margin,
                           lk_manifold *out) {
  lk_vec3 n = lk_m3_col(&b->X.R, 2), o = b->X.p;
  lk_vec3 u = lk_m3_col(&a->X.R, 2), c = a->X.p;
  double r = a->size[0], hl = a->size[1];
  double nu = lk_v3_dot(n, u);
  lk_vec3 w = lk_v3_madd(n, u, -nu);
  double s = lk_v3_norm(w);
  if (s < LK_COL_FLAT_TOL) {
    int cap = nu > 0 ? 0 : 1;
    lk_vec3 cc = lk_v3_madd(c, u, cap ? hl : -hl);
    lk_vec3 ex = lk_m3_col(&a->X.R, 0), ey = lk_m3_col(&a->X.R, 1);
    lk_vec3 dir[4] = {ex, ey, lk_v3_neg(ex), lk_v3_neg(ey)};
    for (int k = 0; k < 4; k++)
      plane_point(lk_v3_madd(cc, dir[k], r), n, o, margin, (unsigned)(4 * cap + k), 0, out);
  } else {
    lk_vec3 down = lk_v3_scale(w, -1.0 / s);
    for (int cap = 0; cap < 2; cap++) {
      lk_vec3 rim = lk_v3_madd(lk_v3_madd(c, u, cap ? hl : -hl), down, r);
      plane_point(rim, n, o, margin, (unsigned)(8 + cap), 0, out);
    }
  }
}
