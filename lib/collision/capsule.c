/* Capsule against capsule and against box: closed forms on the capsule's
 * segment, with a 2-point line contact when the capsule lies along the
 * other surface. */
#include <math.h>

#include "collision/shape.h"

static void capsule_ends(const lk_shape *s, lk_vec3 *p0, lk_vec3 *p1) {
  lk_vec3 u = lk_m3_col(&s->X.R, 2);
  *p0 = lk_v3_madd(s->X.p, u, -s->size[1]);
  *p1 = lk_v3_madd(s->X.p, u, s->size[1]);
}

/* Features: 2 for the single closest-point contact; 0 and 1 for the two
 * ends of the overlap of nearly parallel capsules (along a's axis). */
void lk_col_capsule_capsule(const lk_shape *a, const lk_shape *b, double margin,
                            lk_manifold *out) {
  lk_vec3 a0, a1, b0, b1;
  capsule_ends(a, &a0, &a1);
  capsule_ends(b, &b0, &b1);
  double ra = a->size[0], rb = b->size[0], hla = a->size[1], hlb = b->size[1];
  lk_vec3 ua = lk_m3_col(&a->X.R, 2), ub = lk_m3_col(&b->X.R, 2);
  lk_vec3 cr = lk_v3_cross(ua, ub);
  double sin_ab = lk_v3_norm(cr);
  /* Fallback normal for crossing axes: their common perpendicular, oriented
   * from b to a; for parallel ones any perpendicular (a's +x). */
  lk_vec3 fb = sin_ab > 1e-12 ? lk_v3_scale(cr, 1.0 / sin_ab) : lk_m3_col(&a->X.R, 0);
  if (lk_v3_dot(fb, lk_v3_sub(a->X.p, b->X.p)) < 0) fb = lk_v3_neg(fb);

  if (hla > 0 && hlb > 0 && sin_ab < LK_COL_FLAT_TOL) {
    /* Side by side: the overlap of b's projection on a's axis. The distance
     * varies along it by at most ~ L^2 sin^2 / (8 (ra + rb)), so its two
     * ends carry the contact. */
    double t0 = lk_v3_dot(lk_v3_sub(b0, a->X.p), ua), t1 = lk_v3_dot(lk_v3_sub(b1, a->X.p), ua);
    double lo = fmax(fmin(t0, t1), -hla), hi = fmin(fmax(t0, t1), hla);
    if (hi - lo > 1e-9 * (hla + hlb)) {
      double ts[2] = {lo, hi};
      for (int k = 0; k < 2; k++) {
        lk_vec3 p = lk_v3_madd(a->X.p, ua, ts[k]);
        double tb = fmin(fmax(lk_v3_dot(lk_v3_sub(p, b->X.p), ub), -hlb), hlb);
        lk_col_spheres(p, ra, lk_v3_madd(b->X.p, ub, tb), rb, fb, margin, (unsigned)k, out);
      }
      return;
    }
  }
  double s, t;
  lk_vec3 ca, cb;
  lk_col_segments_closest(a0, a1, b0, b1, &s, &t, &ca, &cb);
  lk_col_spheres(ca, ra, cb, rb, fb, margin, 2, out);
}

/* ------------------------------------------------------------ box-capsule */

/* Squared distance from x to the box [-h, h]. */
static double box_sqdist(const double x[3], const double h[3]) {
  double d2 = 0;
  for (int k = 0; k < 3; k++) {
    double e = fabs(x[k]) - h[k];
    if (e > 0) d2 += e * e;
  }
  return d2;
}

/* The parameter t in [0, 1] of the point of P0 + t D closest to the box.
 * The squared distance is convex and piecewise quadratic in t, with breaks
 * where a coordinate crosses +-h_k: minimise each piece exactly. */
static double segment_box_closest(const double P0[3], const double D[3], const double h[3],
                                  double *d2_out) {
  double br[8];
  int nb = 0;
  br[nb++] = 0;
  br[nb++] = 1;
  for (int k = 0; k < 3; k++) {
    if (D[k] == 0) continue;
    for (int sgn = -1; sgn <= 1; sgn += 2) {
      double t = (sgn * h[k] - P0[k]) / D[k];
      if (t > 0 && t < 1) br[nb++] = t;
    }
  }
  for (int i = 1; i < nb; i++) { /* sort the <= 8 breaks */
    double v = br[i];
    int j = i;
    while (j > 0 && br[j - 1] > v) {
      br[j] = br[j - 1];
      j--;
    }
    br[j] = v;
  }
  double best_t = 0, best = INFINITY;
  for (int i = 0; i + 1 < nb; i++) {
    double ta = br[i], tb = br[i + 1];
    if (!(tb > ta) && i + 2 < nb) continue;
    /* On this piece each coordinate is below, inside or above its slab;
     * f(t) = sum over outside coordinates of (P0_k - bound + t D_k)^2. */
    double tm = 0.5 * (ta + tb), A = 0, B = 0;
    for (int k = 0; k < 3; k++) {
      double x = P0[k] + tm * D[k];
      double bound = x > h[k] ? h[k] : (x < -h[k] ? -h[k] : NAN);
      if (isnan(bound)) continue;
      A += D[k] * D[k];
      B += 2 * D[k] * (P0[k] - bound);
    }
    /* A flat piece (parallel to a face or an edge, or inside): its middle,
     * so that the point is centred on the overlap. */
    double t = A > 0 ? fmin(fmax(-B / (2 * A), ta), tb) : 0.5 * (ta + tb);
    double x[3] = {P0[0] + t * D[0], P0[1] + t * D[1], P0[2] + t * D[2]};
    double f = box_sqdist(x, h);
    if (f < best) {
      best = f;
      best_t = t;
    }
  }
  *d2_out = best;
  return best_t;
}

/* Face contact of the capsule segment P0 + t D (box frame) on face k, side
 * sgn: clip the segment to the face seen along its normal and report both
 * ends (features 0 and 1, from the P0 side), depth measured from the face
 * plane. Returns the number of points emitted. */
static int face_contact(const lk_shape *a, const lk_shape *b, const double P0[3],
                        const double D[3], int k, double sgn, double margin, lk_manifold *out) {
  const double *h = a->size;
  double r = b->size[0];
  int ku = (k + 1) % 3, kv = (k + 2) % 3;
  double e[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
  lk_vec3 seg[2] = {lk_v3_from(P0), lk_v3(P0[0] + D[0], P0[1] + D[1], P0[2] + D[2])};
  lk_vec3 c = lk_v3_scale(lk_v3_from(e[k]), sgn * h[k]);
  lk_vec3 pts[LK_COL_CLIP_MAX];
  unsigned codes[LK_COL_CLIP_MAX];
  int np = lk_col_clip_rect(seg, 2, c, lk_v3_from(e[ku]), lk_v3_from(e[kv]), h[ku], h[kv],
                            1e-9 * (h[0] + h[1] + h[2]), pts, codes);
  lk_vec3 n = lk_tf_dir(&a->X, lk_v3_from(e[k]));
  if (sgn < 0) n = lk_v3_neg(n); /* box -> capsule */
  int emitted = 0;
  for (int i = 0; i < np; i++) {
    double x[3] = {pts[i].x, pts[i].y, pts[i].z};
    double depth = r - (sgn * x[k] - h[k]);
    if (depth < -margin) continue;
    double f[3] = {x[0], x[1], x[2]};
    f[k] = sgn * h[k];
    lk_vec3 xw = lk_tf_point(&a->X, pts[i]);
    lk_col_emit(out, lk_tf_point(&a->X, lk_v3_from(f)), lk_v3_madd(xw, n, -r), lk_v3_neg(n),
                depth, (unsigned)i);
    emitted++;
  }
  return emitted;
}

/* Features: 0 and 1 the clipped ends of a capsule along a face, 2 a single
 * point (edge or corner region), 3 a deep edge-axis penetration. */
void lk_col_box_capsule(const lk_shape *a, const lk_shape *b, double margin, lk_manifold *out) {
  const double *h = a->size;
  double r = b->size[0];
  lk_vec3 w0, w1;
  capsule_ends(b, &w0, &w1);
  lk_vec3 p0 = lk_tf_inv_point(&a->X, w0), p1 = lk_tf_inv_point(&a->X, w1);
  double P0[3] = {p0.x, p0.y, p0.z}, D[3] = {p1.x - p0.x, p1.y - p0.y, p1.z - p0.z};
  double d2;
  double t = segment_box_closest(P0, D, h, &d2);
  double dist = sqrt(d2);
  if (r - dist < -margin) return;
  if (dist > 0) {
    double x[3] = {P0[0] + t * D[0], P0[1] + t * D[1], P0[2] + t * D[2]}, f[3], nl[3];
    for (int k = 0; k < 3; k++) {
      f[k] = fmin(fmax(x[k], -h[k]), h[k]);
      nl[k] = (x[k] - f[k]) / dist;
    }
    /* Closest to a face (the normal within the flat tolerance of the face
     * normal): the face contact, which reports the closest point too. */
    int k = 0;
    for (int i = 1; i < 3; i++)
      if (fabs(nl[i]) > fabs(nl[k])) k = i;
    if (fabs(nl[(k + 1) % 3]) < LK_COL_FLAT_TOL && fabs(nl[(k + 2) % 3]) < LK_COL_FLAT_TOL &&
        face_contact(a, b, P0, D, k, nl[k] > 0 ? 1.0 : -1.0, margin, out) > 0)
      return;
    lk_vec3 n = lk_tf_dir(&a->X, lk_v3_from(nl));
    lk_vec3 xw = lk_tf_point(&a->X, lk_v3_from(x));
    lk_col_emit(out, lk_tf_point(&a->X, lk_v3_from(f)), lk_v3_madd(xw, n, -r), lk_v3_neg(n),
                r - dist, 2);
    return;
  }
  /* The segment enters the box: least-penetration axis among the box's face
   * normals and their cross products with the segment (the separating axes
   * of a box and a segment), faces preferred within a small tolerance. */
  double len = sqrt(D[0] * D[0] + D[1] * D[1] + D[2] * D[2]);
  double m[3] = {P0[0] + 0.5 * D[0], P0[1] + 0.5 * D[1], P0[2] + 0.5 * D[2]};
  double best_face = -INFINITY, best_edge = -INFINITY;
  int face_k = 0;
  double edge_L[3] = {0, 0, 0};
  for (int k = 0; k < 3; k++) {
    double sep = fabs(m[k]) - h[k] - 0.5 * fabs(D[k]) - r;
    if (sep > best_face) {
      best_face = sep;
      face_k = k;
    }
  }
  if (len > 0) {
    for (int k = 0; k < 3; k++) {
      double e[3] = {0, 0, 0}, L[3];
      e[k] = 1;
      L[0] = e[1] * D[2] - e[2] * D[1];
      L[1] = e[2] * D[0] - e[0] * D[2];
      L[2] = e[0] * D[1] - e[1] * D[0];
      double ln = sqrt(L[0] * L[0] + L[1] * L[1] + L[2] * L[2]);
      if (ln < 1e-6 * len) continue;
      for (int i = 0; i < 3; i++) L[i] /= ln;
      double rb = h[0] * fabs(L[0]) + h[1] * fabs(L[1]) + h[2] * fabs(L[2]);
      double sep = fabs(m[0] * L[0] + m[1] * L[1] + m[2] * L[2]) - rb - r; /* D.L = 0 */
      if (sep > best_edge) {
        best_edge = sep;
        for (int i = 0; i < 3; i++) edge_L[i] = L[i];
      }
    }
  }
  double scale = fmin(fmin(h[0], h[1]), h[2]);
  if (!(best_edge > best_face + 1e-3 * scale)) {
    if (face_contact(a, b, P0, D, face_k, m[face_k] >= 0 ? 1.0 : -1.0, margin, out) > 0) return;
  }
  if (best_edge == -INFINITY) return; /* only for a degenerate clip; nothing better */
  double mL = m[0] * edge_L[0] + m[1] * edge_L[1] + m[2] * edge_L[2];
  double sgn = mL >= 0 ? 1.0 : -1.0;
  lk_vec3 nl = lk_v3_scale(lk_v3_from(edge_L), sgn); /* box -> capsule */
  lk_vec3 n = lk_tf_dir(&a->X, nl);
  double depth = -best_edge;
  /* D is perpendicular to the axis: the segment's midpoint is as deep as
   * any of its points. */
  lk_vec3 pb = lk_v3_madd(lk_tf_point(&a->X, lk_v3_from(m)), n, -r);
  lk_col_emit(out, lk_v3_madd(pb, n, depth), pb, lk_v3_neg(n), depth, 3);
}
