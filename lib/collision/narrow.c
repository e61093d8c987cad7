/* The narrow phase's entry points: argument checks, the pair table,
 * swapping, bounding volumes, and the small helpers every pair uses. */
#include <math.h>
#include <string.h>

#include "collision/shape.h"
#include "core/internal.h"

void lk_col_emit(lk_manifold *out, lk_vec3 pa, lk_vec3 pb, lk_vec3 n, double depth,
                 unsigned feature) {
  if (out->n >= LK_MANIFOLD_MAX) return;
  lk_contact_point *p = &out->pt[out->n++];
  p->pos = lk_v3_scale(lk_v3_add(pa, pb), 0.5);
  p->normal = n;
  p->depth = depth;
  p->feature = feature;
}

void lk_col_segments_closest(lk_vec3 p1, lk_vec3 q1, lk_vec3 p2, lk_vec3 q2, double *s_out,
                             double *t_out, lk_vec3 *c1, lk_vec3 *c2) {
  /* Ericson 5.1.9, with the degenerate (point) segments handled first. */
  lk_vec3 d1 = lk_v3_sub(q1, p1), d2 = lk_v3_sub(q2, p2), r = lk_v3_sub(p1, p2);
  double a = lk_v3_dot(d1, d1), e = lk_v3_dot(d2, d2), f = lk_v3_dot(d2, r);
  double s, t;
  const double eps = 1e-300;
  if (a <= eps && e <= eps) {
    s = t = 0;
  } else if (a <= eps) {
    s = 0;
    t = fmin(fmax(f / e, 0), 1);
  } else {
    double c = lk_v3_dot(d1, r);
    if (e <= eps) {
      t = 0;
      s = fmin(fmax(-c / a, 0), 1);
    } else {
      double b = lk_v3_dot(d1, d2), denom = a * e - b * b;
      /* Parallel segments (denom ~ 0): any s works, take 0. The relative
       * test keeps nearly parallel ones on the general path. */
      s = denom > 1e-14 * a * e ? fmin(fmax((b * f - c * e) / denom, 0), 1) : 0;
      t = (b * s + f) / e;
      if (t < 0) {
        t = 0;
        s = fmin(fmax(-c / a, 0), 1);
      } else if (t > 1) {
        t = 1;
        s = fmin(fmax((b - c) / a, 0), 1);
      }
    }
  }
  *s_out = s;
  *t_out = t;
  *c1 = lk_v3_madd(p1, d1, s);
  *c2 = lk_v3_madd(p2, d2, t);
}

void lk_col_spheres(lk_vec3 ca, double ra, lk_vec3 cb, double rb, lk_vec3 fallback, double margin,
                    unsigned feature, lk_manifold *out) {
  lk_vec3 d = lk_v3_sub(ca, cb);
  double dist = lk_v3_norm(d);
  double depth = ra + rb - dist;
  if (depth < -margin) return;
  /* Coincident centres have no preferred direction: the caller's. */
  lk_vec3 n = dist > 1e-12 * (ra + rb) ? lk_v3_scale(d, 1.0 / dist) : fallback;
  lk_col_emit(out, lk_v3_madd(ca, n, -ra), lk_v3_madd(cb, n, rb), n, depth, feature);
}

double lk_col_bound_radius(lk_geom_type type, const double size[3], const lk_mesh *mesh) {
  switch (type) {
    case LK_GEOM_MESH:
      return lk_mesh_radius(mesh);
    case LK_GEOM_SPHERE:
      return size[0];
    case LK_GEOM_CAPSULE:
      return size[0] + size[1];
    case LK_GEOM_BOX:
      return sqrt(size[0] * size[0] + size[1] * size[1] + size[2] * size[2]);
    case LK_GEOM_CYLINDER:
      return sqrt(size[0] * size[0] + size[1] * size[1]);
    default:
      return INFINITY;
  }
}

void lk_col_aabb(const lk_shape *s, double margin, double lo[3], double hi[3]) {
  const lk_mat3 *R = &s->X.R;
  if (s->type == LK_GEOM_MESH) {
    /* The hull's local box, rotated: centre moved, extents |R| h. */
    lk_vec3 l, u;
    lk_mesh_bounds(s->mesh, &l, &u);
    lk_vec3 cw = lk_tf_point(&s->X, lk_v3_scale(lk_v3_add(l, u), 0.5));
    double hl[3] = {0.5 * (u.x - l.x), 0.5 * (u.y - l.y), 0.5 * (u.z - l.z)}, cc[3] = {cw.x, cw.y, cw.z};
    for (int i = 0; i < 3; i++) {
      double e = hl[0] * fabs(R->m[i][0]) + hl[1] * fabs(R->m[i][1]) + hl[2] * fabs(R->m[i][2]);
      lo[i] = cc[i] - e - margin;
      hi[i] = cc[i] + e + margin;
    }
    return;
  }
  const double *h = s->size;
  double c[3] = {s->X.p.x, s->X.p.y, s->X.p.z}, ext[3];
  for (int i = 0; i < 3; i++) {
    switch (s->type) {
      case LK_GEOM_SPHERE:
        ext[i] = h[0];
        break;
      case LK_GEOM_CAPSULE:
        ext[i] = h[1] * fabs(R->m[i][2]) + h[0];
        break;
      case LK_GEOM_BOX:
        ext[i] = h[0] * fabs(R->m[i][0]) + h[1] * fabs(R->m[i][1]) + h[2] * fabs(R->m[i][2]);
        break;
      case LK_GEOM_CYLINDER: {
        /* The cap disks' extent along world axis i is r sqrt(1 - u_i^2). */
        double ui = R->m[i][2];
        ext[i] = h[1] * fabs(ui) + h[0] * sqrt(fmax(0.0, 1.0 - ui * ui));
        break;
      }
      default:
        ext[i] = INFINITY;
    }
    lo[i] = c[i] - ext[i] - margin;
    hi[i] = c[i] + ext[i] + margin;
  }
}

typedef void (*pair_fn)(const lk_shape *, const lk_shape *, double, lk_manifold *);

/* [type(a)][type(b)] for type(a) >= type(b). */
static const pair_fn kPairs[LK_GEOM_TYPE_COUNT][LK_GEOM_TYPE_COUNT] = {
    [LK_GEOM_SPHERE] = {[LK_GEOM_PLANE] = lk_col_sphere_plane,
                        [LK_GEOM_SPHERE] = lk_col_sphere_sphere},
    [LK_GEOM_CAPSULE] = {[LK_GEOM_PLANE] = lk_col_capsule_plane,
                         [LK_GEOM_SPHERE] = lk_col_capsule_sphere,
                         [LK_GEOM_CAPSULE] = lk_col_capsule_capsule},
    [LK_GEOM_BOX] = {[LK_GEOM_PLANE] = lk_col_box_plane,
                     [LK_GEOM_SPHERE] = lk_col_box_sphere,
                     [LK_GEOM_CAPSULE] = lk_col_box_capsule,
                     [LK_GEOM_BOX] = lk_col_box_box},
    [LK_GEOM_CYLINDER] = {[LK_GEOM_PLANE] = lk_col_cylinder_plane,
                          [LK_GEOM_SPHERE] = lk_col_cylinder_sphere,
                          [LK_GEOM_CAPSULE] = lk_col_convex,
                          [LK_GEOM_BOX] = lk_col_convex,
                          [LK_GEOM_CYLINDER] = lk_col_convex},
    [LK_GEOM_MESH] = {[LK_GEOM_PLANE] = lk_col_mesh_plane,
                      [LK_GEOM_SPHERE] = lk_col_mesh_sphere,
                      [LK_GEOM_CAPSULE] = lk_col_mesh_capsule,
                      [LK_GEOM_BOX] = lk_col_mesh_box,
                      [LK_GEOM_CYLINDER] = lk_col_mesh_cylinder,
                      [LK_GEOM_MESH] = lk_col_mesh_mesh},
};

static void sort_by_feature(lk_manifold *m) {
  for (int i = 1; i < m->n; i++) {
    lk_contact_point p = m->pt[i];
    int j = i;
    while (j > 0 && m->pt[j - 1].feature > p.feature) {
      m->pt[j] = m->pt[j - 1];
      j--;
    }
    m->pt[j] = p;
  }
}

void lk_col_collide(const lk_shape *a, const lk_shape *b, double margin, lk_manifold *out) {
  out->n = 0;
  int swap = a->type < b->type;
  const lk_shape *x = swap ? b : a, *y = swap ? a : b;
  pair_fn f = kPairs[x->type][y->type];
  if (!f) return; /* plane-plane */
  f(x, y, margin, out);
  if (swap)
    for (int i = 0; i < out->n; i++) out->pt[i].normal = lk_v3_neg(out->pt[i].normal);
  sort_by_feature(out);
}

static lk_status check_shape(lk_geom_type t, const double size[3], const lk_transform *X,
                             const lk_mesh *mesh, const char *which, lk_error *err) {
  if ((int)t < 0 || t >= LK_GEOM_TYPE_COUNT)
    return lk_error_set(err, LK_INVALID_ARGUMENT, "shape %s: unknown type %d", which, (int)t);
  if (t == LK_GEOM_MESH && !mesh)
    return lk_error_set(err, LK_INVALID_ARGUMENT,
                        "shape %s: a mesh needs its lk_mesh (lk_collide_specs)", which);
  if (!size || !X) return lk_error_set(err, LK_INVALID_ARGUMENT, "shape %s: NULL size or pose", which);
  if (!lk_v3_isfinite(X->p) || !lk_m3_isfinite(&X->R) || !lk_all_finite(size, 3))
    return lk_error_set(err, LK_NON_FINITE, "shape %s: size or pose is not finite", which);
  lk_mat3 RtR = lk_m3_tmul(&X->R, &X->R);
  double dev = 0;
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) dev = fmax(dev, fabs(RtR.m[i][j] - (i == j)));
  if (dev > 1e-6 || lk_m3_det(&X->R) < 0)
    return lk_error_set(err, LK_INVALID_ARGUMENT, "shape %s: pose rotation is not a rotation",
                        which);
  int nsize = t == LK_GEOM_PLANE || t == LK_GEOM_MESH ? 0
              : t == LK_GEOM_SPHERE                   ? 1
              : t == LK_GEOM_BOX                      ? 3
                                                      : 2;
  for (int k = 0; k < nsize; k++) {
    int may_be_zero = t == LK_GEOM_CAPSULE && k == 1;
    if (size[k] < 0 || (!may_be_zero && !(size[k] > 0)))
      return lk_error_set(err, LK_INVALID_ARGUMENT, "shape %s: %s size[%d] = %g must be positive",
                          which, lk_geom_type_name(t), k, size[k]);
  }
  return LK_OK;
}

lk_status lk_collide_geoms(lk_geom_type ta, const double sa[3], const lk_transform *Xa,
                           lk_geom_type tb, const double sb[3], const lk_transform *Xb,
                           double margin, lk_manifold *out, lk_error *err) {
  if (!out) return lk_error_set(err, LK_INVALID_ARGUMENT, "NULL manifold");
  out->n = 0;
  lk_status st = check_shape(ta, sa, Xa, NULL, "a", err);
  if (st) return st;
  if ((st = check_shape(tb, sb, Xb, NULL, "b", err))) return st;
  if (!isfinite(margin)) return lk_error_set(err, LK_NON_FINITE, "margin is not finite");
  if (margin < 0) return lk_error_set(err, LK_INVALID_ARGUMENT, "margin %g must be >= 0", margin);
  lk_shape a = {ta, {sa[0], sa[1], sa[2]}, *Xa, NULL}, b = {tb, {sb[0], sb[1], sb[2]}, *Xb, NULL};
  lk_col_collide(&a, &b, margin, out);
  return LK_OK;
}

lk_status lk_geom_aabb(lk_geom_type type, const double size[3], const lk_transform *pose,
                       double margin, lk_vec3 *lo, lk_vec3 *hi) {
  lk_status st = check_shape(type, size, pose, NULL, "", NULL);
  if (st) return st;
  if (!lo || !hi || !isfinite(margin) || margin < 0) return LK_INVALID_ARGUMENT;
  if (type == LK_GEOM_PLANE) return LK_UNSUPPORTED;
  lk_shape s = {type, {size[0], size[1], size[2]}, *pose, NULL};
  double l[3], h[3];
  lk_col_aabb(&s, margin, l, h);
  *lo = lk_v3_from(l);
  *hi = lk_v3_from(h);
  return LK_OK;
}

lk_status lk_collide_specs(const lk_geom_spec *a, const lk_transform *Xa, const lk_geom_spec *b,
                           const lk_transform *Xb, lk_manifold *out, lk_error *err) {
  if (!out) return lk_error_set(err, LK_INVALID_ARGUMENT, "NULL manifold");
  out->n = 0;
  if (!a || !b) return lk_error_set(err, LK_INVALID_ARGUMENT, "NULL geom spec");
  lk_status st = check_shape(a->type, a->size, Xa, a->mesh, "a", err);
  if (st) return st;
  if ((st = check_shape(b->type, b->size, Xb, b->mesh, "b", err))) return st;
  /* A NaN margin (lk_geom_spec_default's: "the model's contact_margin")
   * has no model here: 0. */
  double margin = fmax(isnan(a->margin) ? 0 : a->margin, isnan(b->margin) ? 0 : b->margin);
  if (!isfinite(margin)) return lk_error_set(err, LK_NON_FINITE, "margin is not finite");
  if (margin < 0) return lk_error_set(err, LK_INVALID_ARGUMENT, "margin %g must be >= 0", margin);
  lk_shape sa = {a->type, {a->size[0], a->size[1], a->size[2]}, *Xa, a->mesh};
  lk_shape sb = {b->type, {b->size[0], b->size[1], b->size[2]}, *Xb, b->mesh};
  lk_col_collide(&sa, &sb, margin, out);
  return LK_OK;
}
