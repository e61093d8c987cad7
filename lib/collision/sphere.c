/* Pairs with a sphere: the closest point of the other shape to the
 * sphere's centre (Ericson, "Real-Time Collision Detection", 5.1.2-5.1.4),
 * one contact point each (feature 0). */
#include <math.h>

#include "collision/shape.h"

void lk_col_sphere_sphere(const lk_shape *a, const lk_shape *b, double margin, lk_manifold *out) {
  lk_col_spheres(a->X.p, a->size[0], b->X.p, b->size[0], lk_v3(0, 0, 1), margin, 0, out);
}

void lk_col_capsule_sphere(const lk_shape *a, const lk_shape *b, double margin,
                           lk_manifold *out) {
  lk_vec3 u = lk_m3_col(&a->X.R, 2), c = a->X.p;
  double hl = a->size[1];
  double t = fmin(fmax(lk_v3_dot(lk_v3_sub(b->X.p, c), u), -hl), hl);
  /* A sphere centred on the axis: push it out sideways, along the
   * capsule's +x (any perpendicular is as good). */
  lk_col_spheres(lk_v3_madd(c, u, t), a->size[0], b->X.p, b->size[0],
                 lk_v3_neg(lk_m3_col(&a->X.R, 0)), margin, 0, out);
}

/* Shared end of the box and cylinder cases: q is the sphere centre in the
 * solid's frame, f the closest point of the solid's surface to q and nl the
 * unit outward normal there (from the solid towards the sphere), depth the
 * penetration. */
static void solid_sphere_emit(const lk_shape *a, const lk_shape *b, lk_vec3 f, lk_vec3 nl,
                              double depth, double margin, lk_manifold *out) {
  if (depth < -margin) return;
  lk_vec3 n = lk_tf_dir(&a->X, nl); /* solid -> sphere */
  lk_vec3 pa = lk_tf_point(&a->X, f);
  lk_vec3 pb = lk_v3_madd(b->X.p, n, -b->size[0]);
  lk_col_emit(out, pa, pb, lk_v3_neg(n), depth, 0);
}

void lk_col_box_sphere(const lk_shape *a, const lk_shape *b, double margin, lk_manifold *out) {
  const double *h = a->size;
  double r = b->size[0];
  lk_vec3 q = lk_tf_inv_point(&a->X, b->X.p);
  double qa[3] = {q.x, q.y, q.z}, pa[3];
  int inside = 1;
  for (int k = 0; k < 3; k++) {
    pa[k] = fmin(fmax(qa[k], -h[k]), h[k]);
    if (pa[k] != qa[k]) inside = 0;
  }
  if (!inside) {
    lk_vec3 p = lk_v3_from(pa), d = lk_v3_sub(q, p);
    double dist = lk_v3_norm(d);
    solid_sphere_emit(a, b, p, lk_v3_scale(d, 1.0 / dist), r - dist, margin, out);
    return;
  }
  /* Centre inside (or on) the box: leave through the nearest face, the
   * lowest axis and the + side on ties. */
  int k = 0;
  double best = INFINITY;
  for (int i = 0; i < 3; i++) {
    double pen = h[i] - fabs(qa[i]);
    if (pen < best) {
      best = pen;
      k = i;
    }
  }
  double sgn = qa[k] >= 0 ? 1.0 : -1.0;
  double nl[3] = {0, 0, 0};
  nl[k] = sgn;
  pa[k] = sgn * h[k];
  solid_sphere_emit(a, b, lk_v3_from(pa), lk_v3_from(nl), r + best, margin, out);
}

void lk_col_cylinder_sphere(const lk_shape *a, const lk_shape *b, double margin,
                            lk_manifold *out) {
  double R = a->size[0], hl = a->size[1], r = b->size[0];
  lk_vec3 q = lk_tf_inv_point(&a->X, b->X.p);
  double rho = hypot(q.x, q.y);
  if (rho > R || fabs(q.z) > hl) {
    double s = rho > R ? R / rho : 1.0;
    lk_vec3 p = lk_v3(q.x * s, q.y * s, fmin(fmax(q.z, -hl), hl));
    lk_vec3 d = lk_v3_sub(q, p);
    double dist = lk_v3_norm(d);
    solid_sphere_emit(a, b, p, lk_v3_scale(d, 1.0 / dist), r - dist, margin, out);
    return;
  }
  /* Inside: out through the cap or the side, whichever is nearer (the cap
   * on ties). */
  double pen_cap = hl - fabs(q.z), pen_side = R - rho;
  if (pen_cap <= pen_side) {
    double sgn = q.z >= 0 ? 1.0 : -1.0;
    solid_sphere_emit(a, b, lk_v3(q.x, q.y, sgn * hl), lk_v3(0, 0, sgn), r + pen_cap, margin,
                      out);
  } else {
    lk_vec3 radial = rho > 0 ? lk_v3(q.x / rho, q.y / rho, 0) : lk_v3(1, 0, 0);
    solid_sphere_emit(a, b, lk_v3(radial.x * R, radial.y * R, q.z), radial, r + pen_side, margin,
                      out);
  }
}
