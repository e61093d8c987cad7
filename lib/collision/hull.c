/* A mesh geom (a convex hull, lk_mesh) against every other shape.
 *
 * - Plane: every hull vertex within the margin is a candidate (feature:
 *   the vertex index; found by a walk from the deepest); more than 4 are
 *   reduced to 4: the touching layer (within a band of the deepest) spread
 *   by area, the deepest first (Gregorius, "Robust Contact Creation for
 *   Physics Simulations", GDC 2015), then the deepest near contacts. A
 *   meshed box gets its 4 corners.
 * - Sphere: GJK distance from the centre to the hull; a centre inside the
 *   hull is pushed out through the nearest face plane (exact).
 * - Capsule, box, cylinder, mesh: GJK/EPA on the cores (gjk.c) gives the
 *   normal and the deepest point. When a face of either shape is within
 *   LK_COL_FLAT_TOL of that normal, it is the reference face, the other
 *   shape's most anti-parallel feature (a face, a capsule's segment, a
 *   cylinder's rim points) is clipped against the reference polygon's side
 *   planes (Sutherland and Hodgman, "Reentrant polygon clipping", CACM
 *   17(1), 1974), and the points within the margin below the reference
 *   plane form the manifold (at most 4, reduced as above). Otherwise the
 *   contact is an edge or a vertex: EPA's single point.
 * A box is handled as an 8-vertex hull built on the stack.
 *
 * Feature ids: a vertex index against a plane; otherwise a hash of the
 * reference face, the incident face and the point's origin (an incident
 * vertex, or the crossing of an incident edge with a reference side), so
 * a point made by the same features keeps its id from pass to pass. */
#include <math.h>
#include <stdint.h>

#include "collision/shape.h"
#include "model/mesh_impl.h"

/* Polygon buffers: a face has at most LK_MESH_FACE_MAX vertices and
 * clipping against a convex polygon adds at most one per side. */
#define HULL_CLIP_MAX (2 * LK_MESH_FACE_MAX + 8)

static uint32_t mix32(uint32_t h) {
  /* MurmurHash3's finalizer (Appleby, public domain). */
  h ^= h >> 16;
  h *= 0x85ebca6bu;
  h ^= h >> 13;
  h *= 0xc2b2ae35u;
  h ^= h >> 16;
  return h;
}

static lk_vec3 mvtx(const lk_mesh *m, int i) {
  return lk_v3(m->v[3 * i], m->v[3 * i + 1], m->v[3 * i + 2]);
}
static lk_vec3 mfn(const lk_mesh *m, int f) {
  return lk_v3(m->fn[3 * f], m->fn[3 * f + 1], m->fn[3 * f + 2]);
}

/* ------------------------------------------------------- reduction to 4 */

typedef struct {
  lk_vec3 p;     /* the point on the incident shape's surface */
  double depth;  /* below the reference plane */
  uint32_t code; /* its origin within the pair */
} cand;

/* Index of the best score among the unused candidates, ties (within tol)
 * to the smaller code; -1 when none. score(i) is evaluated twice. */
typedef double (*score_fn)(const cand *c, int i, const void *ctx);

static int pick(const cand *c, int n, const int *idx, int k, score_fn f, const void *ctx,
                double tol) {
  double best = -INFINITY;
  for (int i = 0; i < n; i++) {
    int used = 0;
    for (int j = 0; j < k; j++) used |= idx[j] == i;
    if (!used && f(c, i, ctx) > best) best = f(c, i, ctx);
  }
  if (best == -INFINITY) return -1;
  int r = -1;
  for (int i = 0; i < n; i++) {
    int used = 0;
    for (int j = 0; j < k; j++) used |= idx[j] == i;
    if (!used && f(c, i, ctx) >= best - tol && (r < 0 || c[i].code < c[r].code)) r = i;
  }
  return r;
}

typedef struct {
  lk_vec3 o, e, n;
  double side;
  double band_min; /* the touching layer: depth >= band_min */
} red_ctx;

static double s_depth(const cand *c, int i, const void *x) {
  (void)x;
  return c[i].depth;
}
static double s_far(const cand *c, int i, const void *x) {
  const red_ctx *r = x;
  lk_vec3 d = lk_v3_sub(c[i].p, r->o);
  return lk_v3_norm(lk_v3_madd(d, r->n, -lk_v3_dot(d, r->n)));
}
static double s_area(const cand *c, int i, const void *x) {
  const red_ctx *r = x;
  return r->side * lk_v3_dot(lk_v3_cross(r->e, lk_v3_sub(c[i].p, r->o)), r->n);
}
/* The same for the touching layer only (-inf for the others). */
static double s_far_layer(const cand *c, int i, const void *x) {
  const red_ctx *r = x;
  return c[i].depth >= r->band_min ? s_far(c, i, x) : -INFINITY;
}
static double s_area_layer(const cand *c, int i, const void *x) {
  const red_ctx *r = x;
  return c[i].depth >= r->band_min ? s_area(c, i, x) : -INFINITY;
}

/* At most 4 of n candidates (any n). The touching layer first (depth
 * within `band` of the deepest: a face resting on a face, or the corners
 * of a tilted one), reduced to the 4 spanning the largest area - the
 * deepest, the farthest from it, then the largest triangles on either side
 * of that line; free slots then go to the deepest of the rest (near
 * contacts within the margin), so that a resting face keeps all its
 * supports however many vertices lie within the margin above it. */
static int reduce4(const cand *c, int n, lk_vec3 nref, double tol, double band, int idx[4]) {
  if (n <= 4) {
    for (int i = 0; i < n; i++) idx[i] = i;
    return n;
  }
  double dmax = -INFINITY;
  for (int i = 0; i < n; i++) dmax = fmax(dmax, c[i].depth);
  /* The layer: a copy would need a buffer; mark the others instead by
   * scoring them out (they never win a pick while a layer point is left). */
  int k = 0;
  red_ctx r = {lk_v3_zero(), lk_v3_zero(), nref, 1, -INFINITY};
  int nlayer = 0;
  for (int i = 0; i < n; i++) nlayer += c[i].depth >= dmax - band;
  if (nlayer >= 1) {
    idx[k] = pick(c, n, idx, k, s_depth, NULL, tol);
    k++;
  }
  if (nlayer >= 2) {
    r.o = c[idx[0]].p;
    r.band_min = dmax - band;
    idx[k] = pick(c, n, idx, k, s_far_layer, &r, tol);
    k++;
    r.e = lk_v3_sub(c[idx[1]].p, c[idx[0]].p);
    double elen = lk_v3_norm(r.e);
    for (int side = 1; side >= -1 && k < nlayer; side -= 2) {
      r.side = side;
      int i3 = pick(c, n, idx, k, s_area_layer, &r, tol * elen);
      if (i3 < 0 || !(s_area_layer(c, i3, &r) > tol * elen)) continue;
      idx[k++] = i3;
    }
  }
  while (k < 4) {
    int i = pick(c, n, idx, k, s_depth, NULL, tol);
    if (i < 0) break;
    idx[k++] = i;
  }
  return k;
}

/* Emit the candidates (depths below the reference plane, normal nref from
 * the reference shape to the incident one) reduced to 4. normal is the
 * contact normal (b to a); features hashed with base, made unique. */
static int emit_cands(lk_manifold *out, const cand *c, int n, lk_vec3 nref, lk_vec3 normal,
                      double scale, uint32_t base, int raw_codes) {
  int idx[4] = {-1, -1, -1, -1};
  int k = reduce4(c, n, nref, 1e-6 * scale, 2 * LK_COL_FLAT_TOL * scale, idx);
  for (int i = 0; i < k; i++) {
    const cand *q = &c[idx[i]];
    unsigned f = raw_codes ? q->code : (mix32(base ^ mix32(q->code)) | 1u);
    for (int j = 0; j < out->n; j++)
      if (out->pt[j].feature == f) {
        f++;
        j = -1;
      }
    lk_col_emit(out, q->p, lk_v3_madd(q->p, nref, q->depth), normal, q->depth, f);
  }
  return k;
}

/* ----------------------------------------------------------------- plane */

/* The vertices within the margin by a walk over the vertex graph from the
 * deepest one (the vertices below a plane induce a connected subgraph of
 * a convex polytope's graph), so that a resting hull costs a few vertices,
 * not all of them; when more than the buffer holds (a hull sunk deep), a
 * scan keeps the deepest (the lowest index on ties). */
void lk_col_mesh_plane(const lk_shape *a, const lk_shape *b, double margin, lk_manifold *out) {
  const lk_mesh *m = a->mesh;
  lk_vec3 n = lk_m3_col(&b->X.R, 2), o = b->X.p;
  /* Depth below the plane of vertex i: -(n_l . x_i + h0), in a's frame. */
  lk_vec3 nl = lk_tf_inv_dir(&a->X, n);
  double h0 = lk_v3_dot(n, lk_v3_sub(a->X.p, o));
  cand c[HULL_CLIP_MAX];
  int nc = 0;
  int start = lk_mesh_support(m, lk_v3_neg(nl));
  double d0 = -(lk_v3_dot(nl, mvtx(m, start)) + h0);
  if (d0 < -margin) return;
  /* The walk's queue, and the vertices seen in a small open-addressing
   * set (4 times the queue: probes stay short). */
  enum { SEEN = 512 };
  int q[HULL_CLIP_MAX], nq = 0, overflow = 0, seen[SEEN], nseen = 1;
  for (int i = 0; i < SEEN; i++) seen[i] = -1;
  q[nq++] = start;
  seen[(unsigned)start * 2654435761u % SEEN] = start;
  for (int qi = 0; qi < nq && !overflow; qi++) {
    int v = q[qi];
    for (int e = m->vstart[v]; e < m->vstart[v + 1] && !overflow; e++) {
      int w = m->vnext[e];
      unsigned h = (unsigned)w * 2654435761u % SEEN;
      while (seen[h] >= 0 && seen[h] != w) h = (h + 1) % SEEN;
      if (seen[h] == w) continue;
      if (++nseen > SEEN / 2) { /* the set half full: scan instead */
        overflow = 1;
        break;
      }
      seen[h] = w; /* below the margin or not, it is decided once */
      if (-(lk_v3_dot(nl, mvtx(m, w)) + h0) < -margin) continue;
      if (nq == HULL_CLIP_MAX)
        overflow = 1;
      else
        q[nq++] = w;
    }
  }
  if (!overflow) {
    for (int j = 0; j < nq; j++) {
      lk_vec3 x = mvtx(m, q[j]);
      c[nc++] = (cand){lk_tf_point(&a->X, x), -(lk_v3_dot(nl, x) + h0), (uint32_t)q[j]};
    }
  } else {
    for (int i = 0; i < m->nv; i++) {
      double depth = -(lk_v3_dot(nl, mvtx(m, i)) + h0);
      if (depth < -margin) continue;
      if (nc == HULL_CLIP_MAX) {
        int w = 0;
        for (int j = 1; j < nc; j++)
          if (c[j].depth < c[w].depth) w = j;
        if (!(depth > c[w].depth)) continue;
        c[w] = (cand){lk_tf_point(&a->X, mvtx(m, i)), depth, (uint32_t)i};
        continue;
      }
      c[nc++] = (cand){lk_tf_point(&a->X, mvtx(m, i)), depth, (uint32_t)i};
    }
  }
  emit_cands(out, c, nc, n, n, m->radius, 0, 1);
}

/* ---------------------------------------------------------------- sphere */

void lk_col_mesh_sphere(const lk_shape *a, const lk_shape *b, double margin, lk_manifold *out) {
  const lk_mesh *m = a->mesh;
  double r = b->size[0];
  lk_gjk_result g;
  lk_col_gjk_epa(a, b, &g);
  if (!g.intersect) {
    double depth = r - g.dist;
    if (depth < -margin) return;
    lk_col_emit(out, g.pa, lk_v3_madd(g.pb, g.normal, r), g.normal, depth, 0);
    return;
  }
  /* The centre is inside: the face plane nearest to it. */
  lk_vec3 cl = lk_tf_inv_point(&a->X, b->X.p);
  int best = 0;
  double bd = INFINITY;
  for (int f = 0; f < m->nf; f++) {
    double d = m->fd[f] - lk_v3_dot(mfn(m, f), cl);
    if (d < bd) {
      bd = d;
      best = f;
    }
  }
  lk_vec3 fn = lk_tf_dir(&a->X, mfn(m, best));
  lk_vec3 n = lk_v3_neg(fn);
  lk_col_emit(out, lk_v3_madd(b->X.p, fn, bd), lk_v3_madd(b->X.p, fn, -r), n, bd + r, 0);
}

/* ------------------------------------------- polygon clipping (the rest) */

typedef struct {
  lk_vec3 p;
  uint32_t code;
} pv;

static uint32_t cross_code(uint32_t p, uint32_t q, int v0, int v1) {
  return mix32(p * 0x9e3779b1u ^ mix32(q + 0x7f4a7c15u) ^ ((uint32_t)v0 * 0xc2b2ae35u + (uint32_t)v1));
}

/* Clip the polygon (closed = 1) or the segment (closed = 0, n = 2)
 * in[0..n-1] against the side planes of the reference face f of mesh m
 * (posed by X), with tol slack. A crossing's code comes from the two ends
 * and the side. Returns the count in out (HULL_CLIP_MAX). */
static int clip_face(const pv *in, int n, int closed, const lk_mesh *m, const lk_transform *X,
                     int f, double tol, pv *out) {
  pv A[HULL_CLIP_MAX], B[HULL_CLIP_MAX];
  int na = n;
  for (int i = 0; i < n; i++) A[i] = in[i];
  lk_vec3 nw = lk_tf_dir(X, mfn(m, f));
  const int *fv = m->fvert + m->fstart[f];
  int k = m->fstart[f + 1] - m->fstart[f];
  /* A segment: its parameter range, narrowed side by side. */
  double t0 = 0, t1 = 1;
  uint32_t c0 = closed ? 0 : in[0].code, c1 = closed ? 0 : in[n - 1].code;
  for (int s = 0; s < k && na > 0; s++) {
    int v0 = fv[s], v1 = fv[(s + 1) % k];
    lk_vec3 p0 = lk_tf_point(X, mvtx(m, v0)), e = lk_v3_sub(lk_tf_point(X, mvtx(m, v1)), p0);
    double el = lk_v3_norm(e);
    if (!(el > 0)) continue;
    /* Counter-clockwise about nw: nw x e points into the face. */
    lk_vec3 in_n = lk_v3_scale(lk_v3_cross(nw, e), 1.0 / el);
    if (!closed) {
      double dp = lk_v3_dot(in_n, lk_v3_sub(in[0].p, p0));
      double dq = lk_v3_dot(in_n, lk_v3_sub(in[n - 1].p, p0));
      if (dp < -tol && dq < -tol) return 0;
      if (dp < -tol || dq < -tol) {
        double t = dp / (dp - dq);
        if (dp < -tol && t > t0) {
          t0 = t;
          c0 = cross_code(in[0].code, in[n - 1].code, v0, v1);
        }
        if (dq < -tol && t < t1) {
          t1 = t;
          c1 = cross_code(in[n - 1].code, in[0].code, v0, v1);
        }
      }
      if (t0 > t1) return 0;
      continue;
    }
    int nb = 0;
    for (int i = 0; i < na; i++) {
      const pv *P = &A[i], *Q = &A[(i + 1) % na];
      double dp = lk_v3_dot(in_n, lk_v3_sub(P->p, p0)), dq = lk_v3_dot(in_n, lk_v3_sub(Q->p, p0));
      int inP = dp >= -tol, inQ = dq >= -tol;
      if (inP && nb < HULL_CLIP_MAX) B[nb++] = *P;
      if (inP != inQ && nb < HULL_CLIP_MAX) {
        double t = dp / (dp - dq);
        B[nb++] = (pv){lk_v3_madd(P->p, lk_v3_sub(Q->p, P->p), t), cross_code(P->code, Q->code, v0, v1)};
      }
    }
    na = nb;
    for (int i = 0; i < nb; i++) A[i] = B[i];
  }
  if (!closed) {
    lk_vec3 d = lk_v3_sub(in[n - 1].p, in[0].p);
    out[0] = (pv){lk_v3_madd(in[0].p, d, t0), c0};
    out[1] = (pv){lk_v3_madd(in[0].p, d, t1), c1};
    return t1 > t0 ? 2 : 1;
  }
  for (int i = 0; i < na; i++) out[i] = A[i];
  return na;
}

/* Candidates below the reference face f of m (posed by X) among pts;
 * depth from the face plane. */
static int below_face(const pv *pts, int n, const lk_mesh *m, const lk_transform *X, int f,
                      double margin, double radius, cand *c) {
  lk_vec3 nw = lk_tf_dir(X, mfn(m, f));
  double dw = m->fd[f] + lk_v3_dot(nw, X->p);
  int k = 0;
  for (int i = 0; i < n; i++) {
    double depth = dw - lk_v3_dot(nw, pts[i].p) + radius;
    if (depth < -margin) continue;
    c[k++] = (cand){lk_v3_madd(pts[i].p, nw, -radius), depth, pts[i].code};
  }
  return k;
}

/* A face's world polygon, coded by its vertex indices. */
static int face_poly(const lk_mesh *m, const lk_transform *X, int f, pv *out) {
  int k = m->fstart[f + 1] - m->fstart[f];
  const int *fv = m->fvert + m->fstart[f];
  for (int i = 0; i < k; i++) out[i] = (pv){lk_tf_point(X, mvtx(m, fv[i])), (uint32_t)fv[i] + 1u};
  return k;
}

/* Sine tolerance -> cosine threshold for "a face along the normal". */
static double flat_cos(void) { return sqrt(1.0 - LK_COL_FLAT_TOL * LK_COL_FLAT_TOL); }

static double face_area(const lk_mesh *m, int f) {
  const int *fv = m->fvert + m->fstart[f];
  int k = m->fstart[f + 1] - m->fstart[f];
  lk_vec3 s = lk_v3_zero(), o = mvtx(m, fv[0]);
  for (int i = 1; i + 1 < k; i++)
    s = lk_v3_add(s, lk_v3_cross(lk_v3_sub(mvtx(m, fv[i]), o), lk_v3_sub(mvtx(m, fv[i + 1]), o)));
  return 0.5 * lk_v3_norm(s);
}

/* The face of hull m (posed by X) around its support vertex along the
 * world direction d whose normal is closest to d. */
static int face_along(const lk_mesh *m, const lk_transform *X, lk_vec3 d, double *cosine) {
  lk_vec3 dl = lk_tf_inv_dir(X, d);
  return lk_mesh_face_toward(m, lk_mesh_support(m, dl), dl, cosine);
}

/* The 8-vertex hull of a box of half extents h, in arrays the caller owns
 * (corner c has bit k set for +h_k; faces counter-clockwise from outside). */
typedef struct {
  struct lk_mesh m;
  double v[24], fn[18], fd[6];
  int fstart[7], fvert[24], vstart[9], vface[24], vnext[24];
} box_hull;

static void make_box_hull(box_hull *bh, const double h[3]) {
  static const int F[6][4] = {{1, 3, 7, 5}, {0, 4, 6, 2}, {2, 6, 7, 3},
                              {0, 1, 5, 4}, {4, 5, 7, 6}, {0, 2, 3, 1}};
  struct lk_mesh *m = &bh->m;
  m->nv = 8;
  m->nf = 6;
  m->nfv = 24;
  m->v = bh->v;
  m->fn = bh->fn;
  m->fd = bh->fd;
  m->fstart = bh->fstart;
  m->fvert = bh->fvert;
  m->vstart = bh->vstart;
  m->vface = bh->vface;
  m->vnext = bh->vnext;
  for (int c = 0; c < 8; c++)
    for (int k = 0; k < 3; k++) bh->v[3 * c + k] = (c >> k & 1) ? h[k] : -h[k];
  for (int f = 0; f < 6; f++) {
    bh->fstart[f] = 4 * f;
    for (int i = 0; i < 4; i++) bh->fvert[4 * f + i] = F[f][i];
    int k = f / 2;
    double s = f % 2 ? -1 : 1;
    bh->fn[3 * f] = bh->fn[3 * f + 1] = bh->fn[3 * f + 2] = 0;
    bh->fn[3 * f + k] = s;
    bh->fd[f] = h[k];
  }
  bh->fstart[6] = 24;
  /* Each corner is on 3 faces. */
  int fill[8] = {0};
  for (int c = 0; c <= 8; c++) bh->vstart[c] = 3 * c;
  for (int f = 0; f < 6; f++)
    for (int i = 0; i < 4; i++) {
      int v = F[f][i], at = 3 * v + fill[v]++;
      bh->vface[at] = f;
      bh->vnext[at] = F[f][(i + 1) % 4];
    }
  for (int k = 0; k < 6; k++) m->extreme[k] = 0;
  m->radius = sqrt(h[0] * h[0] + h[1] * h[1] + h[2] * h[2]);
}

/* Two hulls (a's mesh ma, b's mb, posed by the shapes). */
static void hull_hull(const lk_shape *a, const lk_mesh *ma, const lk_shape *b, const lk_mesh *mb,
                      double margin, lk_manifold *out) {
  lk_shape sa = *a, sb = *b;
  sa.type = sb.type = LK_GEOM_MESH;
  sa.mesh = ma;
  sb.mesh = mb;
  lk_gjk_result g;
  lk_col_gjk_epa(&sa, &sb, &g);
  double depth = g.intersect ? g.depth : -g.dist;
  if (depth < -margin) return;
  lk_vec3 n = g.normal;
  double ca, cb;
  int fa = face_along(ma, &a->X, lk_v3_neg(n), &ca);
  int fb = face_along(mb, &b->X, n, &cb);
  double cmin = flat_cos();
  int ok_a = ca >= cmin, ok_b = cb >= cmin;
  if (ok_a || ok_b) {
    int ref_is_b = ok_b && (!ok_a || face_area(mb, fb) >= face_area(ma, fa) * (1 - 1e-9));
    const lk_mesh *mr = ref_is_b ? mb : ma, *mi = ref_is_b ? ma : mb;
    const lk_transform *Xr = ref_is_b ? &b->X : &a->X, *Xi = ref_is_b ? &a->X : &b->X;
    int fr = ref_is_b ? fb : fa;
    lk_vec3 nref = lk_tf_dir(Xr, mfn(mr, fr));
    double ci;
    int fi = face_along(mi, Xi, lk_v3_neg(nref), &ci);
    pv poly[HULL_CLIP_MAX], clipped[HULL_CLIP_MAX];
    int np = face_poly(mi, Xi, fi, poly);
    double scale = fmin(ma->radius, mb->radius);
    np = clip_face(poly, np, 1, mr, Xr, fr, 1e-9 * scale, clipped);
    cand c[HULL_CLIP_MAX];
    int nc = below_face(clipped, np, mr, Xr, fr, margin, 0, c);
    if (nc > 0) {
      lk_vec3 normal = ref_is_b ? nref : lk_v3_neg(nref);
      uint32_t base = mix32(((uint32_t)fr << 1 | (uint32_t)ref_is_b) ^ mix32((uint32_t)fi + 77u));
      emit_cands(out, c, nc, nref, normal, scale, base, 0);
      return;
    }
  }
  lk_col_emit(out, g.pa, g.pb, n, depth, 0);
}

void lk_col_mesh_mesh(const lk_shape *a, const lk_shape *b, double margin, lk_manifold *out) {
  hull_hull(a, a->mesh, b, b->mesh, margin, out);
}

void lk_col_mesh_box(const lk_shape *a, const lk_shape *b, double margin, lk_manifold *out) {
  box_hull bh;
  make_box_hull(&bh, b->size);
  hull_hull(a, a->mesh, b, &bh.m, margin, out);
}

/* ------------------------------------------------ capsule and cylinder */

/* A round shape b (capsule: its core segment and radius; cylinder: its
 * rim or side points) against a's hull: a line or face contact when a hull
 * face is along the normal, else EPA's point. */
void lk_col_mesh_capsule(const lk_shape *a, const lk_shape *b, double margin, lk_manifold *out) {
  const lk_mesh *m = a->mesh;
  double r = b->size[0], hl = b->size[1];
  lk_gjk_result g;
  lk_col_gjk_epa(a, b, &g);
  double depth = g.intersect ? g.depth + r : r - g.dist;
  if (depth < -margin) return;
  lk_vec3 n = g.normal, u = lk_m3_col(&b->X.R, 2);
  double ca;
  int fa = face_along(m, &a->X, lk_v3_neg(n), &ca);
  lk_vec3 fn = lk_tf_dir(&a->X, mfn(m, fa));
  if (hl > 0 && ca >= flat_cos() && fabs(lk_v3_dot(fn, u)) < LK_COL_FLAT_TOL) {
    /* The segment lies along the face: clip it to the face polygon. */
    pv seg[2] = {{lk_v3_madd(b->X.p, u, -hl), 1u}, {lk_v3_madd(b->X.p, u, hl), 2u}}, cl[HULL_CLIP_MAX];
    int k = clip_face(seg, 2, 0, m, &a->X, fa, 1e-9 * m->radius, cl);
    cand c[HULL_CLIP_MAX];
    int nc = below_face(cl, k, m, &a->X, fa, margin, r, c);
    if (nc > 0) {
      emit_cands(out, c, nc, fn, lk_v3_neg(fn), fmin(m->radius, r), mix32((uint32_t)fa + 5u), 0);
      return;
    }
  }
  lk_col_emit(out, g.pa, lk_v3_madd(g.pb, n, r), n, depth, 0);
}

void lk_col_mesh_cylinder(const lk_shape *a, const lk_shape *b, double margin, lk_manifold *out) {
  const lk_mesh *m = a->mesh;
  double r = b->size[0], hl = b->size[1];
  lk_gjk_result g;
  lk_col_gjk_epa(a, b, &g);
  double depth = g.intersect ? g.depth : -g.dist;
  if (depth < -margin) return;
  lk_vec3 n = g.normal, u = lk_m3_col(&b->X.R, 2);
  double ca;
  int fa = face_along(m, &a->X, lk_v3_neg(n), &ca);
  lk_vec3 fn = lk_tf_dir(&a->X, mfn(m, fa));
  if (ca >= flat_cos()) {
    /* The cylinder's feature towards the face (along -fn): a cap's 4 rim
     * points along its own +x, +y, -x, -y (as on a plane), or the side's
     * segment. */
    double du = -lk_v3_dot(fn, u);
    lk_vec3 w = lk_v3_madd(lk_v3_neg(fn), u, -du);
    double s = lk_v3_norm(w);
    pv pts[4], cl[HULL_CLIP_MAX];
    int k = 0, closed = 1;
    if (s < LK_COL_FLAT_TOL) {
      lk_vec3 cc = lk_v3_madd(b->X.p, u, du >= 0 ? hl : -hl);
      lk_vec3 ex = lk_m3_col(&b->X.R, 0), ey = lk_m3_col(&b->X.R, 1);
      lk_vec3 dir[4] = {ex, ey, lk_v3_neg(ex), lk_v3_neg(ey)};
      for (int i = 0; i < 4; i++) pts[k++] = (pv){lk_v3_madd(cc, dir[i], r), 1u + (uint32_t)i + (du >= 0 ? 4u : 0u)};
    } else if (fabs(du) < LK_COL_FLAT_TOL) {
      lk_vec3 p = lk_v3_madd(b->X.p, lk_v3_scale(w, 1.0 / s), r);
      pts[k++] = (pv){lk_v3_madd(p, u, -hl), 9u};
      pts[k++] = (pv){lk_v3_madd(p, u, hl), 10u};
      closed = 0;
    }
    if (k > 0) {
      int nk = clip_face(pts, k, closed, m, &a->X, fa, 1e-9 * m->radius, cl);
      cand c[HULL_CLIP_MAX];
      int nc = below_face(cl, nk, m, &a->X, fa, margin, 0, c);
      if (nc > 0) {
        emit_cands(out, c, nc, fn, lk_v3_neg(fn), fmin(m->radius, fmin(r, hl)),
                   mix32((uint32_t)fa + 11u), 0);
        return;
      }
    }
  }
  lk_col_emit(out, g.pa, g.pb, n, depth, 0);
}
