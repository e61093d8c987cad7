/* Pairs without a convenient closed form (a cylinder with a capsule, a box
 * or another cylinder): GJK/EPA on the cores gives the normal and the
 * deepest point; the manifold then comes from the support features of the
 * two shapes along that normal (a face, a segment or a point of each), the
 * incident one clipped against the reference one, as for boxes.
 *
 * A cylinder's cap is represented, as an incident polygon, by the 4 points
 * of its rim along the cylinder's own +x, +y, -x, -y (the same points as on
 * a plane), and as a reference by the exact disk. */
#include <math.h>

#include "collision/shape.h"

typedef enum { F_POINT = 0, F_SEGMENT = 1, F_RECT = 2, F_DISK = 3 } fkind;

typedef struct {
  fkind kind;
  int nv;
  lk_vec3 v[4];    /* points of the surface (incident polygon) */
  lk_vec3 c;       /* rect/disk centre */
  lk_vec3 eu, ev;  /* rect/disk in-plane axes */
  double hu, hv;   /* rect half extents; disk: hu = radius */
  lk_vec3 fn;      /* rect/disk outward normal */
  unsigned id;     /* which feature of the shape */
} feature;

static int dim(const feature *f) { return f->kind == F_POINT ? 0 : (f->kind == F_SEGMENT ? 1 : 2); }

static double sgn(double x) { return x >= 0 ? 1.0 : -1.0; }

/* The feature of s extreme along the unit direction d (outwards, towards
 * the other shape), with LK_COL_FLAT_TOL slack. */
static void shape_feature(const lk_shape *s, lk_vec3 d, feature *f) {
  const lk_transform *X = &s->X;
  const double *h = s->size;
  lk_vec3 ax[3] = {lk_m3_col(&X->R, 0), lk_m3_col(&X->R, 1), lk_m3_col(&X->R, 2)};
  lk_vec3 dl = lk_tf_inv_dir(X, d);
  double dc[3] = {dl.x, dl.y, dl.z};
  switch (s->type) {
    case LK_GEOM_BOX: {
      int nsmall = 0, big = 0, small = 0;
      for (int k = 0; k < 3; k++) {
        if (fabs(dc[k]) < LK_COL_FLAT_TOL) {
          nsmall++;
          small = k;
        }
        if (fabs(dc[k]) > fabs(dc[big])) big = k;
      }
      if (nsmall >= 2) {
        int k = big, ku = (k + 1) % 3, kv = (k + 2) % 3;
        double sk = sgn(dc[k]);
        f->kind = F_RECT;
        f->fn = lk_v3_scale(ax[k], sk);
        f->c = lk_v3_madd(X->p, f->fn, h[k]);
        f->eu = ax[ku];
        f->ev = ax[kv];
        f->hu = h[ku];
        f->hv = h[kv];
        lk_vec3 U = lk_v3_scale(ax[ku], h[ku]), V = lk_v3_scale(ax[kv], h[kv]);
        f->v[0] = lk_v3_add(lk_v3_add(f->c, U), V);
        f->v[1] = lk_v3_add(lk_v3_sub(f->c, U), V);
        f->v[2] = lk_v3_sub(lk_v3_sub(f->c, U), V);
        f->v[3] = lk_v3_sub(lk_v3_add(f->c, U), V);
        f->nv = 4;
        f->id = (unsigned)(2 * k + (sk < 0));
      } else {
        lk_vec3 p = X->p;
        unsigned bits = 0;
        for (int k = 0; k < 3; k++) {
          if (nsmall == 1 && k == small) continue;
          p = lk_v3_madd(p, ax[k], sgn(dc[k]) * h[k]);
          bits |= (unsigned)(dc[k] >= 0) << k;
        }
        if (nsmall == 1) {
          f->kind = F_SEGMENT;
          f->v[0] = lk_v3_madd(p, ax[small], -h[small]);
          f->v[1] = lk_v3_madd(p, ax[small], h[small]);
          f->nv = 2;
          f->id = 6u + 8u * (unsigned)small + bits;
        } else {
          f->kind = F_POINT;
          f->v[0] = p;
          f->nv = 1;
          f->id = 30u + bits;
        }
      }
      return;
    }
    case LK_GEOM_CYLINDER: {
      lk_vec3 u = ax[2];
      double du = lk_v3_dot(d, u), r = h[0], hl = h[1];
      lk_vec3 w = lk_v3_madd(d, u, -du);
      double s_ = lk_v3_norm(w);
      if (s_ < LK_COL_FLAT_TOL) {
        f->kind = F_DISK;
        f->fn = lk_v3_scale(u, sgn(du));
        f->c = lk_v3_madd(X->p, f->fn, hl);
        f->eu = ax[0];
        f->ev = ax[1];
        f->hu = f->hv = r;
        lk_vec3 dir[4] = {ax[0], ax[1], lk_v3_neg(ax[0]), lk_v3_neg(ax[1])};
        for (int k = 0; k < 4; k++) f->v[k] = lk_v3_madd(f->c, dir[k], r);
        f->nv = 4;
        f->id = du >= 0 ? 1u : 0u;
        return;
      }
      lk_vec3 radial = lk_v3_scale(w, 1.0 / s_);
      if (fabs(du) < LK_COL_FLAT_TOL) {
        f->kind = F_SEGMENT;
        lk_vec3 p = lk_v3_madd(X->p, radial, r);
        f->v[0] = lk_v3_madd(p, u, -hl);
        f->v[1] = lk_v3_madd(p, u, hl);
        f->nv = 2;
        f->id = 2;
        return;
      }
      f->kind = F_POINT;
      f->v[0] = lk_v3_madd(lk_v3_madd(X->p, u, sgn(du) * hl), radial, r);
      f->nv = 1;
      f->id = du >= 0 ? 4u : 3u;
      return;
    }
    case LK_GEOM_CAPSULE: {
      lk_vec3 u = ax[2];
      double du = lk_v3_dot(d, u), r = h[0], hl = h[1];
      if (fabs(du) < LK_COL_FLAT_TOL && hl > 0) {
        f->kind = F_SEGMENT;
        lk_vec3 p = lk_v3_madd(X->p, d, r);
        f->v[0] = lk_v3_madd(p, u, -hl);
        f->v[1] = lk_v3_madd(p, u, hl);
        f->nv = 2;
        f->id = 0;
        return;
      }
      f->kind = F_POINT;
      f->v[0] = lk_v3_madd(lk_v3_madd(X->p, u, sgn(du) * hl), d, r);
      f->nv = 1;
      f->id = du >= 0 ? 2u : 1u;
      return;
    }
    default:
      f->kind = F_POINT;
      f->v[0] = lk_v3_madd(X->p, d, h[0]);
      f->nv = 1;
      f->id = 0;
      return;
  }
}

static double core_radius(const lk_shape *s) {
  return s->type == LK_GEOM_SPHERE || s->type == LK_GEOM_CAPSULE ? s->size[0] : 0.0;
}

static double min_size(const lk_shape *s) {
  switch (s->type) {
    case LK_GEOM_BOX:
      return fmin(fmin(s->size[0], s->size[1]), s->size[2]);
    case LK_GEOM_CAPSULE:
      return s->size[0];
    case LK_GEOM_CYLINDER:
      return fmin(s->size[0], s->size[1]);
    default:
      return s->size[0];
  }
}

static double area(const feature *f) {
  return f->kind == F_RECT ? 4 * f->hu * f->hv : (f->kind == F_DISK ? LK_PI * f->hu * f->hu : 0);
}

/* Features: 0 the single deepest point; (1 << 24) | the capsule-capsule
 * feature for two round sides; otherwise
 * (1 << 20) | (reference is b) << 19 | id(a) << 12 | id(b) << 6 | clip code. */
static int is_round(const lk_shape *s) { return s->type == LK_GEOM_CYLINDER || s->type == LK_GEOM_CAPSULE; }

/* Is x on the side of s (a cylinder: between its caps)? */
static int on_side(const lk_shape *s, lk_vec3 x) {
  if (s->type != LK_GEOM_CYLINDER) return 1;
  double t = lk_v3_dot(lk_v3_sub(x, s->X.p), lk_m3_col(&s->X.R, 2));
  return fabs(t) <= s->size[1] * (1 + 1e-9);
}

void lk_col_convex(const lk_shape *a, const lk_shape *b, double margin, lk_manifold *out) {
  out->n = 0;
  lk_gjk_result g;
  lk_col_gjk_epa(a, b, &g);
  double ra = core_radius(a), rb = core_radius(b);
  double depth = g.intersect ? g.depth + ra + rb : ra + rb - g.dist;
  if (depth < -margin) return;
  lk_vec3 n = g.normal;
  lk_vec3 sa = lk_v3_madd(g.pa, n, -ra), sb = lk_v3_madd(g.pb, n, rb);

  feature fa, fb;
  shape_feature(a, lk_v3_neg(n), &fa);
  shape_feature(b, n, &fb);
  if (fa.kind == F_SEGMENT && fb.kind == F_SEGMENT && is_round(a) && is_round(b)) {
    /* Side against side of two round shapes: near the contact both are
     * capsules (same axis and radius), whose closed form is exact where EPA
     * on the curved Minkowski sum only converges to ~1e-5 in direction. It
     * holds when every point lies between the cylinders' caps. */
    lk_shape ca = *a, cb = *b;
    ca.type = cb.type = LK_GEOM_CAPSULE;
    lk_manifold mm;
    mm.n = 0;
    lk_col_capsule_capsule(&ca, &cb, margin, &mm);
    int ok = mm.n > 0;
    for (int i = 0; i < mm.n && ok; i++) {
      lk_vec3 x = mm.pt[i].pos, nn = mm.pt[i].normal;
      double d = 0.5 * mm.pt[i].depth;
      ok = on_side(a, lk_v3_madd(x, nn, -d)) && on_side(b, lk_v3_madd(x, nn, d));
    }
    if (ok) {
      for (int i = 0; i < mm.n; i++) {
        mm.pt[i].feature |= 1u << 24;
        out->pt[out->n++] = mm.pt[i];
      }
      return;
    }
  }
  if (dim(&fa) > 0 && dim(&fb) > 0) {
    double scale = fmin(min_size(a), min_size(b));
    lk_vec3 pts[LK_COL_CLIP_MAX];
    unsigned codes[LK_COL_CLIP_MAX];
    int np = -1, ref_is_b = 1;
    lk_vec3 nref = n, cref = lk_v3_zero();
    if (dim(&fa) == 1 && dim(&fb) == 1) {
      /* Two segments: a line contact only when parallel; clip a's segment
       * to the slab of b's. */
      lk_vec3 ea = lk_v3_sub(fa.v[1], fa.v[0]), eb = lk_v3_sub(fb.v[1], fb.v[0]);
      double la = lk_v3_norm(ea), lb = lk_v3_norm(eb);
      if (lk_v3_norm(lk_v3_cross(ea, eb)) < LK_COL_FLAT_TOL * la * lb) {
        lk_vec3 eu = lk_v3_scale(eb, 1.0 / lb);
        cref = lk_v3_scale(lk_v3_add(fb.v[0], fb.v[1]), 0.5);
        np = lk_col_clip_rect(fa.v, 2, cref, eu, lk_v3_cross(n, eu), 0.5 * lb, INFINITY,
                              1e-5 * lb, pts, codes);
      }
    } else {
      /* The higher-dimensional feature is the reference (the larger face
       * between two faces, b's on a tie). */
      ref_is_b = dim(&fb) > dim(&fa) ||
                 (dim(&fb) == dim(&fa) && area(&fb) >= area(&fa) * (1 - 1e-9));
      const feature *ref = ref_is_b ? &fb : &fa, *inc = ref_is_b ? &fa : &fb;
      nref = ref->fn;
      cref = ref->c;
      if (ref->kind == F_RECT)
        np = lk_col_clip_rect(inc->v, inc->nv, ref->c, ref->eu, ref->ev, ref->hu, ref->hv,
                              1e-5 * fmax(ref->hu, ref->hv), pts, codes);
      else
        np = lk_col_clip_disk(inc->v, inc->nv, ref->c, ref->eu, ref->ev, ref->hu, 1e-5 * ref->hu,
                              pts, codes);
    }
    if (np > 0) {
      lk_vec3 normal = ref_is_b ? nref : lk_v3_neg(nref);
      unsigned base = (1u << 20) | ((unsigned)ref_is_b << 19) | (fa.id << 12) | (fb.id << 6);
      if (lk_col_emit_face(out, pts, codes, np, cref, nref, normal, margin, scale, base) > 0)
        return;
    }
  }
  lk_col_emit(out, sa, sb, n, depth, 0);
}
