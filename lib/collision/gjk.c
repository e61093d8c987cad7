/* GJK distance and EPA penetration depth between the cores of two convex
 * shapes, given by their support mappings.
 *
 * GJK: Gilbert, Johnson, Keerthi, "A fast procedure for computing the
 * distance between complex objects in three-dimensional space", IEEE J.
 * Robotics and Automation 4(2), 1988, in the form of van den Bergen,
 * "Collision Detection in Interactive 3D Environments" (2003), ch. 4, with
 * the closest point of each simplex found by Voronoi-region tests (Ericson,
 * "Real-Time Collision Detection", 5.1.5-5.1.6) instead of Johnson's
 * recursive subalgorithm.
 *
 * EPA: van den Bergen, "Proximity queries and penetration depth computation
 * on 3D game objects", GDC 2001: grow a polytope inside the Minkowski
 * difference towards its boundary face nearest the origin.
 *
 * Everything is on the stack (at most 128 polytope vertices); nothing is
 * allocated. */
#include <math.h>

#include "collision/shape.h"
#include "model/mesh_impl.h"

typedef struct {
  lk_vec3 w, a, b; /* w = a - b */
} sv;

static lk_vec3 support_core(const lk_shape *s, lk_vec3 d) {
  lk_vec3 dl = lk_tf_inv_dir(&s->X, d), p = lk_v3_zero();
  const double *h = s->size;
  switch (s->type) {
    case LK_GEOM_BOX:
      p = lk_v3(dl.x >= 0 ? h[0] : -h[0], dl.y >= 0 ? h[1] : -h[1], dl.z >= 0 ? h[2] : -h[2]);
      break;
    case LK_GEOM_CYLINDER: {
      double rho = hypot(dl.x, dl.y);
      if (rho > 0) p = lk_v3(h[0] * dl.x / rho, h[0] * dl.y / rho, 0);
      p.z = dl.z >= 0 ? h[1] : -h[1];
      break;
    }
    case LK_GEOM_CAPSULE:
      p.z = dl.z >= 0 ? h[1] : -h[1];
      break;
    case LK_GEOM_MESH: {
      const double *v = lk_mesh_vertices(s->mesh) + 3 * lk_mesh_support(s->mesh, dl);
      p = lk_v3(v[0], v[1], v[2]);
      break;
    }
    default: /* a sphere's core is its centre */
      break;
  }
  return lk_tf_point(&s->X, p);
}

/* Separation of the cores along unit n (from b to a): min over a of n.x
 * minus max over b of n.x; the distance is its maximum over n. */
static double separation(const lk_shape *A, const lk_shape *B, lk_vec3 n) {
  return lk_v3_dot(n, support_core(A, lk_v3_neg(n))) - lk_v3_dot(n, support_core(B, n));
}

/* Outward normals of a box's or a cylinder's core at a surface point p
 * (world): every face, side or cap p lies on (a cylinder's rim: its side
 * and its cap). Up to three; none for other types. */
static int surface_normals(const lk_shape *s, lk_vec3 p, lk_vec3 *out) {
  const double on = 1 - 1e-6; /* on a face: within 1e-6 of its size */
  lk_vec3 pl = lk_tf_inv_point(&s->X, p);
  const double *h = s->size;
  int k = 0;
  if (s->type == LK_GEOM_BOX) {
    const double c[3] = {pl.x, pl.y, pl.z};
    for (int i = 0; i < 3; i++)
      if (fabs(c[i]) >= h[i] * on) {
        double e[3] = {0, 0, 0};
        e[i] = c[i] >= 0 ? 1 : -1;
        out[k++] = lk_tf_dir(&s->X, lk_v3(e[0], e[1], e[2]));
      }
  } else if (s->type == LK_GEOM_CYLINDER) {
    double rho = hypot(pl.x, pl.y);
    if (rho >= h[0] * on && rho > 0) out[k++] = lk_tf_dir(&s->X, lk_v3(pl.x / rho, pl.y / rho, 0));
    if (fabs(pl.z) >= h[1] * on) out[k++] = lk_tf_dir(&s->X, lk_v3(0, 0, pl.z >= 0 ? 1 : -1));
  }
  return k;
}

/* Separated cores nearly touching: the witness difference pa - pb is then
 * a short vector whose direction GJK's stopping rule leaves inexact on a
 * curved core (a cylinder's side on a box's edge, the rover's wheel at the
 * ramp's crest: 3e-6 m apart, normal 6 degrees off, and the face clipping
 * along that normal reported 6 cm of depth). The true normal maximizes the
 * separation and lies in both cores' normal cones at the witness points:
 * of those surfaces' normals, the one separating clearly further than
 * GJK's replaces it,
 * and its separation the distance. */
static void refine_normal(const lk_shape *A, const lk_shape *B, double scale, lk_gjk_result *r) {
  lk_vec3 cand[6];
  int nc = surface_normals(A, r->pa, cand);
  for (int i = 0; i < nc; i++) cand[i] = lk_v3_neg(cand[i]); /* a's outward normal is -n */
  nc += surface_normals(B, r->pb, cand + nc);
  double best = separation(A, B, r->normal);
  int better = 0;
  for (int i = 0; i < nc; i++) {
    double s = separation(A, B, cand[i]);
    if (s > best + 1e-12 * scale) {
      best = s;
      r->normal = cand[i];
      better = 1;
    }
  }
  /* Along the exact normal the separation is the distance, which GJK only
   * bounds from above (its witnesses stop short on a curved core). */
  if (better && best > 0 && best < r->dist) r->dist = best;
}

static sv support(const lk_shape *A, const lk_shape *B, lk_vec3 d) {
  sv r;
  r.a = support_core(A, d);
  r.b = support_core(B, lk_v3_neg(d));
  r.w = lk_v3_sub(r.a, r.b);
  return r;
}

/* ------------------------------------------------ closest point of a simplex */

/* Closest point of the simplex S[0..n-1] to the origin. Reduces S to the
 * smallest sub-simplex containing it, with barycentric weights lam. Returns
 * 1 when the origin is inside a tetrahedron. */
static void keep(sv *S, double *lam, int *n, const int *idx, const double *w, int k) {
  sv T[4];
  for (int i = 0; i < k; i++) T[i] = S[idx[i]];
  for (int i = 0; i < k; i++) {
    S[i] = T[i];
    lam[i] = w[i];
  }
  *n = k;
}

static void closest_segment(sv *S, double *lam, int *n, const int *ix) {
  lk_vec3 A = S[ix[0]].w, B = S[ix[1]].w, AB = lk_v3_sub(B, A);
  double den = lk_v3_norm2(AB);
  double t = den > 0 ? -lk_v3_dot(A, AB) / den : 0;
  if (t <= 0) {
    double w[1] = {1};
    keep(S, lam, n, ix, w, 1);
  } else if (t >= 1) {
    double w[1] = {1};
    keep(S, lam, n, ix + 1, w, 1);
  } else {
    double w[2] = {1 - t, t};
    keep(S, lam, n, ix, w, 2);
  }
}

/* Ericson 5.1.5 with p = origin; ix names the 3 vertices in S. */
static void closest_triangle(sv *S, double *lam, int *n, const int *ix) {
  lk_vec3 A = S[ix[0]].w, B = S[ix[1]].w, C = S[ix[2]].w;
  lk_vec3 ab = lk_v3_sub(B, A), ac = lk_v3_sub(C, A);
  double d1 = -lk_v3_dot(ab, A), d2 = -lk_v3_dot(ac, A);
  if (d1 <= 0 && d2 <= 0) {
    double w[1] = {1};
    keep(S, lam, n, ix, w, 1);
    return;
  }
  double d3 = -lk_v3_dot(ab, B), d4 = -lk_v3_dot(ac, B);
  if (d3 >= 0 && d4 <= d3) {
    int j[1] = {ix[1]};
    double w[1] = {1};
    keep(S, lam, n, j, w, 1);
    return;
  }
  double vc = d1 * d4 - d3 * d2;
  if (vc <= 0 && d1 >= 0 && d3 <= 0) {
    double v = d1 / (d1 - d3);
    int j[2] = {ix[0], ix[1]};
    double w[2] = {1 - v, v};
    keep(S, lam, n, j, w, 2);
    return;
  }
  double d5 = -lk_v3_dot(ab, C), d6 = -lk_v3_dot(ac, C);
  if (d6 >= 0 && d5 <= d6) {
    int j[1] = {ix[2]};
    double w[1] = {1};
    keep(S, lam, n, j, w, 1);
    return;
  }
  double vb = d5 * d2 - d1 * d6;
  if (vb <= 0 && d2 >= 0 && d6 <= 0) {
    double v = d2 / (d2 - d6);
    int j[2] = {ix[0], ix[2]};
    double w[2] = {1 - v, v};
    keep(S, lam, n, j, w, 2);
    return;
  }
  double va = d3 * d6 - d5 * d4;
  if (va <= 0 && (d4 - d3) >= 0 && (d5 - d6) >= 0) {
    double v = (d4 - d3) / ((d4 - d3) + (d5 - d6));
    int j[2] = {ix[1], ix[2]};
    double w[2] = {1 - v, v};
    keep(S, lam, n, j, w, 2);
    return;
  }
  double den = va + vb + vc;
  double v = vb / den, w_ = vc / den;
  double w[3] = {1 - v - w_, v, w_};
  keep(S, lam, n, ix, w, 3);
}

/* Ericson 5.1.6: test the faces the origin is outside of. A face whose
 * fourth vertex lies (numerically) in its plane counts as outside, so a
 * flat tetrahedron degrades to its triangles. */
static int closest_tetra(sv *S, double *lam, int *n) {
  static const int F[4][4] = {{0, 1, 2, 3}, {0, 2, 3, 1}, {0, 3, 1, 2}, {1, 3, 2, 0}};
  double best = INFINITY;
  sv bestS[4];
  double bestl[4];
  int bestn = 0, outside_any = 0;
  for (int f = 0; f < 4; f++) {
    lk_vec3 A = S[F[f][0]].w, B = S[F[f][1]].w, C = S[F[f][2]].w, D = S[F[f][3]].w;
    lk_vec3 nrm = lk_v3_cross(lk_v3_sub(B, A), lk_v3_sub(C, A));
    double sp = -lk_v3_dot(A, nrm), sd = lk_v3_dot(lk_v3_sub(D, A), nrm);
    double scale = lk_v3_norm(nrm) * (lk_v3_norm(lk_v3_sub(D, A)) + lk_v3_norm(A));
    int outside = sp * sd < 0 || fabs(sd) <= 1e-14 * scale;
    if (!outside) continue;
    outside_any = 1;
    sv T[4] = {S[0], S[1], S[2], S[3]};
    double l[4];
    int m = 4;
    int ix[3] = {F[f][0], F[f][1], F[f][2]};
    closest_triangle(T, l, &m, ix);
    lk_vec3 v = lk_v3_zero();
    for (int i = 0; i < m; i++) v = lk_v3_madd(v, T[i].w, l[i]);
    double d2 = lk_v3_norm2(v);
    if (d2 < best) {
      best = d2;
      bestn = m;
      for (int i = 0; i < m; i++) {
        bestS[i] = T[i];
        bestl[i] = l[i];
      }
    }
  }
  if (!outside_any) return 1;
  for (int i = 0; i < bestn; i++) {
    S[i] = bestS[i];
    lam[i] = bestl[i];
  }
  *n = bestn;
  return 0;
}

static int closest_simplex(sv *S, double *lam, int *n, lk_vec3 *v) {
  int inside = 0;
  static const int ix[3] = {0, 1, 2};
  if (*n == 1) {
    lam[0] = 1;
  } else if (*n == 2) {
    closest_segment(S, lam, n, ix);
  } else if (*n == 3) {
    closest_triangle(S, lam, n, ix);
  } else {
    inside = closest_tetra(S, lam, n);
  }
  *v = lk_v3_zero();
  if (!inside)
    for (int i = 0; i < *n; i++) *v = lk_v3_madd(*v, S[i].w, lam[i]);
  return inside;
}

/* ---------------------------------------------------------------- EPA */

#define EPA_VMAX 128
#define EPA_FMAX 256

typedef struct {
  int v[3];
  lk_vec3 n;
  double d;
} face;

static void face_make(face *f, const sv *V, int a, int b, int c) {
  f->v[0] = a;
  f->v[1] = b;
  f->v[2] = c;
  lk_vec3 n = lk_v3_cross(lk_v3_sub(V[b].w, V[a].w), lk_v3_sub(V[c].w, V[a].w));
  double len = lk_v3_norm(n);
  if (len > 1e-300) {
    f->n = lk_v3_scale(n, 1.0 / len);
    f->d = lk_v3_dot(f->n, V[a].w);
  } else { /* a sliver: never the nearest, never seen */
    f->n = lk_v3_zero();
    f->d = INFINITY;
  }
}

/* Grow the GJK simplex (which contains the origin) into a tetrahedron. */
static int blow_up(const lk_shape *A, const lk_shape *B, sv *V, int *nv, double eps) {
  static const lk_vec3 axes[6] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
  if (*nv == 1) {
    for (int k = 0; k < 6 && *nv == 1; k++) {
      sv w = support(A, B, axes[k]);
      if (lk_v3_norm(lk_v3_sub(w.w, V[0].w)) > eps) V[(*nv)++] = w;
    }
  }
  if (*nv == 2) {
    lk_vec3 d = lk_v3_normalize(lk_v3_sub(V[1].w, V[0].w));
    lk_vec3 ax = fabs(d.x) < 0.57 ? lk_v3(1, 0, 0) : (fabs(d.y) < 0.57 ? lk_v3(0, 1, 0) : lk_v3(0, 0, 1));
    lk_vec3 e1 = lk_v3_normalize(lk_v3_cross(d, ax)), e2 = lk_v3_cross(d, e1);
    for (int k = 0; k < 6 && *nv == 2; k++) {
      double th = k * LK_PI / 3;
      sv w = support(A, B, lk_v3_add(lk_v3_scale(e1, cos(th)), lk_v3_scale(e2, sin(th))));
      if (lk_v3_norm(lk_v3_cross(lk_v3_sub(w.w, V[0].w), d)) > eps) V[(*nv)++] = w;
    }
  }
  if (*nv == 3) {
    lk_vec3 nrm = lk_v3_normalize(lk_v3_cross(lk_v3_sub(V[1].w, V[0].w), lk_v3_sub(V[2].w, V[0].w)));
    sv w1 = support(A, B, nrm), w2 = support(A, B, lk_v3_neg(nrm));
    double h1 = fabs(lk_v3_dot(lk_v3_sub(w1.w, V[0].w), nrm));
    double h2 = fabs(lk_v3_dot(lk_v3_sub(w2.w, V[0].w), nrm));
    sv w = h1 >= h2 ? w1 : w2;
    if (fmax(h1, h2) > eps) V[(*nv)++] = w;
  }
  return *nv == 4;
}

static int epa(const lk_shape *A, const lk_shape *B, const sv *S, int n, double scale,
               lk_gjk_result *r) {
  sv V[EPA_VMAX];
  face F[EPA_FMAX];
  int nv = n, nf = 0;
  for (int i = 0; i < n; i++) V[i] = S[i];
  double eps = 1e-12 * scale;
  if (!blow_up(A, B, V, &nv, eps)) return 0;
  static const int T[4][4] = {{0, 1, 2, 3}, {0, 3, 1, 2}, {0, 2, 3, 1}, {1, 3, 2, 0}};
  for (int k = 0; k < 4; k++) {
    face_make(&F[nf], V, T[k][0], T[k][1], T[k][2]);
    /* Outward: the fourth vertex behind the face. */
    if (lk_v3_dot(lk_v3_cross(lk_v3_sub(V[T[k][1]].w, V[T[k][0]].w),
                              lk_v3_sub(V[T[k][2]].w, V[T[k][0]].w)),
                  lk_v3_sub(V[T[k][3]].w, V[T[k][0]].w)) > 0)
      face_make(&F[nf], V, T[k][0], T[k][2], T[k][1]);
    nf++;
  }
  double tol = 1e-9 * scale;
  int converged = 0;
  face f; /* the face nearest the origin, kept by value: F is compacted */
  for (;;) {
    int best = -1;
    for (int i = 0; i < nf; i++)
      if (best < 0 || F[i].d < F[best].d) best = i;
    if (best < 0 || !isfinite(F[best].d)) return 0;
    f = F[best];
    sv w = support(A, B, f.n);
    if (lk_v3_dot(f.n, w.w) - f.d <= tol) {
      converged = 1;
      break;
    }
    if (nv == EPA_VMAX) break;
    int iw = nv;
    V[nv++] = w;
    /* Faces seen from w go; the horizon (their edges not shared between
     * two of them) is stitched to w. */
    int edges[3 * EPA_FMAX][2], ne = 0;
    int nkeep = 0;
    for (int i = 0; i < nf; i++) {
      int seen = isfinite(F[i].d) && lk_v3_dot(F[i].n, lk_v3_sub(w.w, V[F[i].v[0]].w)) > eps;
      if (i == best) seen = 1;
      if (!seen) {
        F[nkeep++] = F[i];
        continue;
      }
      for (int e = 0; e < 3; e++) {
        int a = F[i].v[e], b = F[i].v[(e + 1) % 3];
        int shared = -1;
        for (int k = 0; k < ne; k++)
          if (edges[k][0] == b && edges[k][1] == a) shared = k;
        if (shared >= 0) {
          edges[shared][0] = edges[ne - 1][0];
          edges[shared][1] = edges[ne - 1][1];
          ne--;
        } else {
          edges[ne][0] = a;
          edges[ne][1] = b;
          ne++;
        }
      }
    }
    nf = nkeep;
    if (nf + ne > EPA_FMAX) break;
    for (int k = 0; k < ne; k++) face_make(&F[nf++], V, edges[k][0], edges[k][1], iw);
  }
  /* Barycentric coordinates of the origin's projection on the face
   * (Ericson 3.4), clamped onto the triangle. */
  lk_vec3 p = lk_v3_scale(f.n, f.d);
  lk_vec3 a = V[f.v[0]].w, v0 = lk_v3_sub(V[f.v[1]].w, a), v1 = lk_v3_sub(V[f.v[2]].w, a);
  lk_vec3 v2 = lk_v3_sub(p, a);
  double d00 = lk_v3_dot(v0, v0), d01 = lk_v3_dot(v0, v1), d11 = lk_v3_dot(v1, v1);
  double d20 = lk_v3_dot(v2, v0), d21 = lk_v3_dot(v2, v1);
  double den = d00 * d11 - d01 * d01;
  double l1 = den > 0 ? (d11 * d20 - d01 * d21) / den : 0;
  double l2 = den > 0 ? (d00 * d21 - d01 * d20) / den : 0;
  double l[3] = {fmax(1 - l1 - l2, 0), fmax(l1, 0), fmax(l2, 0)};
  double sum = l[0] + l[1] + l[2];
  r->pa = r->pb = lk_v3_zero();
  for (int i = 0; i < 3; i++) {
    r->pa = lk_v3_madd(r->pa, V[f.v[i]].a, l[i] / sum);
    r->pb = lk_v3_madd(r->pb, V[f.v[i]].b, l[i] / sum);
  }
  /* f.n points out of a - b: a's surface towards b. */
  r->normal = lk_v3_neg(f.n);
  r->depth = fmax(f.d, 0);
  r->ok = converged;
  return 1;
}

void lk_col_gjk_epa(const lk_shape *A, const lk_shape *B, lk_gjk_result *r) {
  double scale = lk_col_bound_radius(A->type, A->size, A->mesh) +
                 lk_col_bound_radius(B->type, B->size, B->mesh);
  double tiny = 1e-10 * scale;
  sv S[4];
  double lam[4] = {1, 0, 0, 0};
  int n = 0, inside = 0;
  lk_vec3 v = lk_v3_sub(A->X.p, B->X.p);
  if (lk_v3_norm2(v) == 0) v = lk_v3(1, 0, 0);
  r->ok = 1;
  for (int it = 0; it < 128; it++) {
    double vv = lk_v3_norm2(v);
    sv w = support(A, B, lk_v3_neg(v));
    if (n > 0 && vv - lk_v3_dot(v, w.w) <= 1e-10 * vv) break; /* converged */
    int dup = 0;
    for (int i = 0; i < n; i++)
      if (lk_v3_norm2(lk_v3_sub(S[i].w, w.w)) == 0) dup = 1;
    if (dup) break;
    S[n++] = w;
    lk_vec3 vn;
    inside = closest_simplex(S, lam, &n, &vn);
    if (inside || lk_v3_norm(vn) <= tiny) {
      inside = 1;
      break;
    }
    if (it > 0 && lk_v3_norm2(vn) >= vv) { /* no progress: rounding */
      v = vn;
      break;
    }
    v = vn;
  }
  if (!inside) {
    r->intersect = 0;
    r->pa = r->pb = lk_v3_zero();
    for (int i = 0; i < n; i++) {
      r->pa = lk_v3_madd(r->pa, S[i].a, lam[i]);
      r->pb = lk_v3_madd(r->pb, S[i].b, lam[i]);
    }
    lk_vec3 d = lk_v3_sub(r->pa, r->pb);
    r->dist = lk_v3_norm(d);
    r->normal = r->dist > 0 ? lk_v3_scale(d, 1.0 / r->dist) : lk_v3(0, 0, 1);
    r->depth = 0;
    refine_normal(A, B, scale, r);
    return;
  }
  r->intersect = 1;
  r->dist = 0;
  if (!epa(A, B, S, n, scale, r)) {
    /* Degenerate polytope: estimate along the centre line. */
    lk_vec3 d = lk_v3_sub(A->X.p, B->X.p);
    r->normal = lk_v3_norm2(d) > 0 ? lk_v3_normalize(d) : lk_v3(0, 0, 1);
    r->depth = 0;
    r->pa = r->pb = lk_v3_scale(lk_v3_add(A->X.p, B->X.p), 0.5);
    r->ok = 0;
  }
}
