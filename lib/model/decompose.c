/* Approximate convex decomposition of a closed triangle surface by
 * hierarchical plane cuts (lk_mesh_decompose, linkage/model.h).
 *
 * The method follows the ideas of V-HACD (Mamou and Ghorbel, "A simple
 * and efficient approach for 3D mesh approximate convex decomposition",
 * ICIP 2009; V-HACD 2.0): a piece's concavity is the volume its convex
 * hull adds to it, the piece that adds most is cut next, the cut is the
 * plane, searched over a coarse set of positions in a few directions and
 * then refined around the best, that minimises the sum of the two halves'
 * hull volumes (the sum of their concavities plus a constant). Unlike
 * V-HACD the solid is not voxelised: the surface itself is clipped, so a
 * piece is exactly the solid inside a convex cell (the half-spaces of the
 * cuts that made it) and its volume is exact.
 *
 * A piece is kept as a closed, signed triangle chain: the surface's
 * triangles clipped to its cell, and for each cut a cap on the cut plane.
 * A cap is the fan from one point of the plane over the reversed edges
 * that the clipped triangles leave on the plane; those edges form closed
 * cycles, so the fan's triangles (which may overlap and cover ground
 * outside the section, with signs) sum to the section exactly as a
 * 2-chain, and the divergence theorem gives the piece's volume as the sum
 * of the chain's signed tetrahedra. Caps' vertices are not points of the
 * solid (the fan's apex may lie outside it), so a piece's hull is made of
 * the clipped surface triangles' vertices (which include every point where
 * an edge of the cell crosses the surface) and the corners of the cell
 * (three planes' meet) that lie inside the solid, tested by the
 * generalised winding number (the sum of the triangles' solid angles,
 * Van Oosterom and Strackee, "The solid angle of a plane triangle", IEEE
 * Trans. Biomed. Eng. 30(2), 1983). The hull of a piece lies in its cell
 * and the cells are disjoint, so the parts' hulls do not overlap.
 *
 * Points on a cut plane (within a hair of the surface's size) belong to
 * both sides; a surface triangle lying in the plane goes to the side its
 * outward normal faces away from (the solid's side). Intersection points
 * are computed from an edge's endpoints in a fixed order, so the two
 * triangles sharing the edge get the same point bit for bit. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/internal.h"
#include "linkage/model.h"

void lk_mesh_decompose_options_default(lk_mesh_decompose_options *o) {
  if (!o) return;
  memset(o, 0, sizeof *o);
  o->max_parts = 16;
  o->max_excess = 0.01;
  o->planes = 15;
  o->diagonals = 1;
}

void lk_mesh_parts_free(lk_mesh **parts, int n) {
  if (!parts) return;
  for (int i = 0; i < n; i++) lk_mesh_free(parts[i]);
  lk_free(parts);
}

typedef struct {
  double n[3], d; /* the cell is n . x <= d */
} plane;

typedef struct {
  double *t;           /* 9 per triangle */
  unsigned char *cap;  /* per triangle: 1 for a cap's fan triangle */
  int nt, tcap;
  plane *pl;
  int npl;
  double *pt; /* hull points: the real triangles' vertices (unique), then corners */
  int npt;
  int ncor;  /* the last ncor points of pt are the cell's corners */
  int *edge; /* pairs of indices into pt: the real triangles' edges (unique) */
  int ne;
  double volume, hull;
  lk_mesh *mesh; /* its hull */
  int final;     /* no cut found */
} piece;

typedef struct {
  const double *sv; /* the surface */
  const int *st;
  int nst;
  double ref[3]; /* reference point for volumes */
  double eps;    /* on-plane tolerance */
  double volume; /* the solid's */
  double pmin[3], pmax[3];
  int hulls;
} ctx;

static double dot3(const double *a, const double *b) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static void piece_free(piece *p) {
  lk_free(p->t);
  lk_free(p->cap);
  lk_free(p->pl);
  lk_free(p->pt);
  lk_free(p->edge);
  lk_mesh_free(p->mesh);
  memset(p, 0, sizeof *p);
}

static int push_tri(piece *p, const double *a, const double *b, const double *c, int cap) {
  if (p->nt == p->tcap) {
    int nc = p->tcap ? 2 * p->tcap : 64;
    double *t = lk_realloc(p->t, sizeof(double) * 9 * (size_t)nc);
    if (!t) return 0;
    p->t = t;
    unsigned char *k = lk_realloc(p->cap, (size_t)nc);
    if (!k) return 0;
    p->cap = k;
    p->tcap = nc;
  }
  double *o = p->t + 9 * (size_t)p->nt;
  memcpy(o, a, 3 * sizeof *o);
  memcpy(o + 3, b, 3 * sizeof *o);
  memcpy(o + 6, c, 3 * sizeof *o);
  p->cap[p->nt++] = (unsigned char)cap;
  return 1;
}

/* Signed volume of the tetrahedron (r, a, b, c) times 6. */
static double det6(const double *r, const double *a, const double *b, const double *c) {
  double u[3], v[3], w[3];
  for (int k = 0; k < 3; k++) u[k] = a[k] - r[k], v[k] = b[k] - r[k], w[k] = c[k] - r[k];
  return u[0] * (v[1] * w[2] - v[2] * w[1]) - u[1] * (v[0] * w[2] - v[2] * w[0]) +
         u[2] * (v[0] * w[1] - v[1] * w[0]);
}

static double chain_volume(const piece *p, const double *ref) {
  double V = 0;
  for (int i = 0; i < p->nt; i++) {
    const double *t = p->t + 9 * (size_t)i;
    V += det6(ref, t, t + 3, t + 6);
  }
  return V / 6;
}

/* The point of edge (a, b) on the plane, from the endpoints taken in
 * lexicographic order (the same bits from either triangle). */
static void cross_point(const double *a, double sa, const double *b, double sb, double *x) {
  int swap = a[0] != b[0] ? a[0] > b[0] : a[1] != b[1] ? a[1] > b[1] : a[2] > b[2];
  if (swap) {
    const double *t = a;
    a = b;
    b = t;
    double u = sa;
    sa = sb;
    sb = u;
  }
  double t = sa / (sa - sb);
  for (int k = 0; k < 3; k++) x[k] = a[k] + t * (b[k] - a[k]);
}

/* Solid angle of triangle (a, b, c) seen from p (Van Oosterom and
 * Strackee 1983). */
static double solid_angle(const double *p, const double *a, const double *b, const double *c) {
  double A[3], B[3], C[3];
  for (int k = 0; k < 3; k++) A[k] = a[k] - p[k], B[k] = b[k] - p[k], C[k] = c[k] - p[k];
  double la = sqrt(dot3(A, A)), lb = sqrt(dot3(B, B)), lc = sqrt(dot3(C, C));
  double num = A[0] * (B[1] * C[2] - B[2] * C[1]) - A[1] * (B[0] * C[2] - B[2] * C[0]) +
               A[2] * (B[0] * C[1] - B[1] * C[0]);
  double den = la * lb * lc + dot3(A, B) * lc + dot3(A, C) * lb + dot3(B, C) * la;
  return 2 * atan2(num, den);
}

static double winding(const ctx *C, const double *p) {
  double w = 0;
  for (int i = 0; i < C->nst; i++) {
    const int *t = C->st + 3 * i;
    w += solid_angle(p, C->sv + 3 * t[0], C->sv + 3 * t[1], C->sv + 3 * t[2]);
  }
  return w / (4 * M_PI);
}

static int cmp_pt(const double *a, const double *b) {
  for (int k = 0; k < 3; k++)
    if (a[k] != b[k]) return a[k] < b[k] ? -1 : 1;
  return 0;
}

/* Sort indices of points (3 doubles each) lexicographically, ties by
 * index: a merge sort (qsort has no context argument in C99). */
static void sort_points(const double *x, int *a, int *tmp, int n) {
  if (n < 2) return;
  int h = n / 2;
  sort_points(x, a, tmp, h);
  sort_points(x, a + h, tmp, n - h);
  int i = 0, j = h, k = 0;
  while (i < h && j < n) {
    int c = cmp_pt(x + 3 * a[j], x + 3 * a[i]);
    tmp[k++] = c < 0 || (c == 0 && a[j] < a[i]) ? a[j++] : a[i++];
  }
  while (i < h) tmp[k++] = a[i++];
  while (j < n) tmp[k++] = a[j++];
  memcpy(a, tmp, sizeof(int) * (size_t)n);
}

static int cmp_edge(const void *x, const void *y) {
  const int *a = x, *b = y;
  return a[0] != b[0] ? (a[0] < b[0] ? -1 : 1) : a[1] != b[1] ? (a[1] < b[1] ? -1 : 1) : 0;
}

/* Rebuild p's hull points: the unique vertices of its real triangles,
 * their unique edges, then its cell's corners (cor, ncor of them). */
static int build_points(piece *p, const double *cor, int ncor) {
  int nraw = 0;
  for (int i = 0; i < p->nt; i++) nraw += p->cap[i] ? 0 : 3;
  double *raw = LK_NEW_ARRAY(double, 3 * (size_t)nraw);
  int *idx = LK_NEW_ARRAY(int, nraw), *tmp = LK_NEW_ARRAY(int, nraw),
      *map = LK_NEW_ARRAY(int, nraw), *ed = LK_NEW_ARRAY(int, 2 * (size_t)nraw);
  lk_free(p->pt);
  lk_free(p->edge);
  p->pt = LK_NEW_ARRAY(double, 3 * ((size_t)nraw + (size_t)ncor));
  p->edge = NULL;
  p->npt = p->ne = 0;
  int ok = raw && idx && tmp && map && ed && p->pt;
  if (ok) {
    int r = 0;
    for (int i = 0; i < p->nt; i++)
      if (!p->cap[i]) memcpy(raw + 3 * (size_t)r, p->t + 9 * (size_t)i, 9 * sizeof *raw), r += 3;
    for (int i = 0; i < nraw; i++) idx[i] = i;
    sort_points(raw, idx, tmp, nraw);
    int nu = 0;
    for (int i = 0; i < nraw; i++) {
      if (i == 0 || cmp_pt(raw + 3 * idx[i], raw + 3 * idx[i - 1]) != 0) {
        memcpy(p->pt + 3 * (size_t)nu, raw + 3 * idx[i], 3 * sizeof *raw);
        nu++;
      }
      map[idx[i]] = nu - 1;
    }
    int ne = 0;
    for (int t = 0; t < nraw / 3; t++)
      for (int k = 0; k < 3; k++) {
        int a = map[3 * t + k], b = map[3 * t + (k + 1) % 3];
        if (a == b) continue;
        ed[2 * ne] = a < b ? a : b;
        ed[2 * ne + 1] = a < b ? b : a;
        ne++;
      }
    qsort(ed, (size_t)ne, 2 * sizeof *ed, cmp_edge);
    int m = 0;
    for (int e = 0; e < ne; e++)
      if (m == 0 || cmp_edge(ed + 2 * e, ed + 2 * (m - 1)) != 0) {
        ed[2 * m] = ed[2 * e];
        ed[2 * m + 1] = ed[2 * e + 1];
        m++;
      }
    p->edge = ed;
    ed = NULL;
    p->ne = m;
    if (ncor) memcpy(p->pt + 3 * (size_t)nu, cor, 3 * sizeof *cor * (size_t)ncor);
    p->npt = nu + ncor;
    p->ncor = ncor;
  }
  lk_free(raw);
  lk_free(idx);
  lk_free(tmp);
  lk_free(map);
  lk_free(ed);
  return ok;
}

/* The hull of n points and its volume; NULL (volume 0) when they span no
 * volume. *oom set when memory ran out. */
static lk_mesh *hull_of(ctx *C, const double *x, int n, double *vol, int *oom) {
  *vol = 0;
  if (n < 4) return NULL;
  lk_mesh_spec s;
  lk_mesh_spec_default(&s);
  s.vertices = x;
  s.count = n;
  lk_mesh *m = NULL;
  lk_error e;
  C->hulls++;
  lk_status st = lk_mesh_new(&s, &m, &e);
  if (st == LK_OUT_OF_MEMORY) *oom = 1;
  if (st) return NULL;
  *vol = lk_mesh_volume(m);
  return m;
}

/* The point on three planes (n_i . x = d_i); 0 when two are parallel. */
static int meet(const double *a, double da, const double *b, double db, const double *e,
                double de, double *x) {
  double bc[3] = {b[1] * e[2] - b[2] * e[1], b[2] * e[0] - b[0] * e[2], b[0] * e[1] - b[1] * e[0]};
  double ca[3] = {e[1] * a[2] - e[2] * a[1], e[2] * a[0] - e[0] * a[2], e[0] * a[1] - e[1] * a[0]};
  double ab[3] = {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
  double det = dot3(a, bc);
  if (fabs(det) < 1e-9) return 0;
  for (int m = 0; m < 3; m++) x[m] = (da * bc[m] + db * ca[m] + de * ab[m]) / det;
  return 1;
}

/* Corner x of the cell of planes P (n of them; x on planes i, j and the
 * plane (e, de)): in the cell, and the solid there. The solid is tested a
 * hair inside the cell (x moved against the three planes' normals), so
 * that a corner on the surface counts only when the solid is on the
 * cell's side of it. */
static int corner_in(const ctx *C, const plane *P, int n, int i, int j, const double *e,
                     const double *x) {
  for (int m = 0; m < n; m++)
    if (dot3(P[m].n, x) - P[m].d > 10 * C->eps) return 0;
  double y[3];
  for (int k = 0; k < 3; k++) y[k] = x[k] - 1e3 * C->eps * (P[i].n[k] + P[j].n[k] + e[k]);
  return winding(C, y) > 0.5;
}

/* Points a score's buffer must hold for p. */
static size_t score_points(const piece *p) {
  return 2 * ((size_t)p->npt + (size_t)p->ne + (size_t)p->npl * (size_t)p->npl / 2 + 1);
}

/* The cost of the cut n . x = d: the sum of the two halves' hull
 * volumes (INFINITY when a half spans no volume), and in *bal their
 * difference (V-HACD's balance term, here only between cuts of the same
 * sum: the one nearer the middle). buf holds score_points(p) points.
 * stride > 1: every stride-th point and edge only (the cell's corners
 * all), for the coarse search. */
static double score(ctx *C, const piece *p, const double *n, double d, int stride, double *buf,
                    double *bal, int *oom) {
  int cap = (int)(score_points(p) / 2);
  double *neg = buf, *pos = buf + 3 * (size_t)cap;
  int nn = 0, np = 0;
  for (int i = 0; i < p->npt; i++) {
    if (i % stride && i < p->npt - p->ncor) continue;
    const double *x = p->pt + 3 * (size_t)i;
    double s = dot3(n, x) - d;
    if (s <= C->eps) memcpy(neg + 3 * nn++, x, 3 * sizeof *x);
    if (s >= -C->eps) memcpy(pos + 3 * np++, x, 3 * sizeof *x);
  }
  for (int e = 0; e < p->ne; e += stride) {
    const double *a = p->pt + 3 * p->edge[2 * e], *b = p->pt + 3 * p->edge[2 * e + 1];
    double sa = dot3(n, a) - d, sb = dot3(n, b) - d;
    if ((sa < -C->eps && sb > C->eps) || (sa > C->eps && sb < -C->eps)) {
      double x[3];
      cross_point(a, sa, b, sb, x);
      memcpy(neg + 3 * nn++, x, sizeof x);
      memcpy(pos + 3 * np++, x, sizeof x);
    }
  }
  /* The cut's corners with the cell's edges, inside the solid: on both. */
  for (int i = 0; i < p->npl; i++)
    for (int j = i + 1; j < p->npl; j++) {
      double x[3];
      if (meet(p->pl[i].n, p->pl[i].d, p->pl[j].n, p->pl[j].d, n, d, x) &&
          corner_in(C, p->pl, p->npl, i, j, n, x)) {
        memcpy(neg + 3 * nn++, x, sizeof x);
        memcpy(pos + 3 * np++, x, sizeof x);
      }
    }
  double vn, vp;
  lk_mesh *hn = hull_of(C, neg, nn, &vn, oom);
  lk_mesh *hp = hn ? hull_of(C, pos, np, &vp, oom) : NULL;
  int ok = hn && hp;
  lk_mesh_free(hn);
  lk_mesh_free(hp);
  *bal = ok ? fabs(vn - vp) : INFINITY;
  return ok ? vn + vp : INFINITY;
}

typedef struct {
  double *e; /* 6 per edge: a then b */
  int n, cap;
} edgelist;

static int push_edge(edgelist *L, const double *a, const double *b) {
  if (L->n == L->cap) {
    int nc = L->cap ? 2 * L->cap : 64;
    double *e = lk_realloc(L->e, sizeof(double) * 6 * (size_t)nc);
    if (!e) return 0;
    L->e = e;
    L->cap = nc;
  }
  memcpy(L->e + 6 * (size_t)L->n, a, 3 * sizeof *a);
  memcpy(L->e + 6 * (size_t)L->n + 3, b, 3 * sizeof *b);
  L->n++;
  return 1;
}

/* One side (sg -1: n . x <= d, +1: >=) of triangle t: its polygon's fan
 * into out, its edges on the plane into L. */
static int clip_side(const ctx *C, const double *t, const double *s, int cap, const double *n,
                     double d, int sg, piece *out, edgelist *L) {
  (void)n;
  (void)d;
  double poly[4][3];
  int on[4], k = 0;
  int cls[3];
  for (int i = 0; i < 3; i++) cls[i] = s[i] > C->eps ? 1 : s[i] < -C->eps ? -1 : 0;
  for (int i = 0; i < 3; i++) {
    int j = (i + 1) % 3;
    if (cls[i] == 0 || cls[i] == sg) {
      memcpy(poly[k], t + 3 * i, sizeof poly[k]);
      on[k++] = cls[i] == 0;
    }
    if (cls[i] * cls[j] == -1) {
      cross_point(t + 3 * i, s[i], t + 3 * j, s[j], poly[k]);
      on[k++] = 1;
    }
  }
  if (k < 3) return 1;
  for (int i = 1; i + 1 < k; i++)
    if (!push_tri(out, poly[0], poly[i], poly[i + 1], cap)) return 0;
  for (int i = 0; i < k; i++) {
    int j = (i + 1) % k;
    if (on[i] && on[j] && !push_edge(L, poly[i], poly[j])) return 0;
  }
  return 1;
}

/* Cut p by n . x = d into a (n . x <= d) and b (>=): triangles clipped,
 * each side closed by its cap, the cell's planes. */
static int clip(const ctx *C, const piece *p, const double *n, double d, piece *a, piece *b) {
  edgelist La = {0}, Lb = {0};
  int ok = 1;
  for (int i = 0; i < p->nt && ok; i++) {
    const double *t = p->t + 9 * (size_t)i;
    double s[3];
    int allon = 1;
    for (int k = 0; k < 3; k++) {
      s[k] = dot3(n, t + 3 * k) - d;
      if (fabs(s[k]) > C->eps) allon = 0;
    }
    if (allon) {
      /* In the plane: on the side of the solid, behind its normal. */
      double u[3], v[3], w[3];
      for (int k = 0; k < 3; k++) u[k] = t[3 + k] - t[k], v[k] = t[6 + k] - t[k];
      w[0] = u[1] * v[2] - u[2] * v[1];
      w[1] = u[2] * v[0] - u[0] * v[2];
      w[2] = u[0] * v[1] - u[1] * v[0];
      piece *o = dot3(w, n) > 0 ? a : b;
      edgelist *L = o == a ? &La : &Lb;
      ok = push_tri(o, t, t + 3, t + 6, p->cap[i]) && push_edge(L, t, t + 3) &&
           push_edge(L, t + 3, t + 6) && push_edge(L, t + 6, t);
      continue;
    }
    ok = clip_side(C, t, s, p->cap[i], n, d, -1, a, &La) &&
         clip_side(C, t, s, p->cap[i], n, d, 1, b, &Lb);
  }
  /* The caps: fans from the foot on the plane of the cell's middle. */
  double mid[3];
  for (int k = 0; k < 3; k++) mid[k] = 0.5 * (C->pmin[k] + C->pmax[k]);
  double h = dot3(n, mid) - d, c[3];
  for (int k = 0; k < 3; k++) c[k] = mid[k] - h * n[k];
  for (int e = 0; e < La.n && ok; e++)
    ok = push_tri(a, c, La.e + 6 * (size_t)e + 3, La.e + 6 * (size_t)e, 1);
  for (int e = 0; e < Lb.n && ok; e++)
    ok = push_tri(b, c, Lb.e + 6 * (size_t)e + 3, Lb.e + 6 * (size_t)e, 1);
  lk_free(La.e);
  lk_free(Lb.e);
  if (!ok) return 0;
  a->pl = LK_NEW_ARRAY(plane, p->npl + 1);
  b->pl = LK_NEW_ARRAY(plane, p->npl + 1);
  if (!a->pl || !b->pl) return 0;
  if (p->npl) {
    memcpy(a->pl, p->pl, sizeof(plane) * (size_t)p->npl);
    memcpy(b->pl, p->pl, sizeof(plane) * (size_t)p->npl);
  }
  a->npl = b->npl = p->npl + 1;
  plane *pa = &a->pl[p->npl], *pb = &b->pl[p->npl];
  for (int k = 0; k < 3; k++) pa->n[k] = n[k], pb->n[k] = -n[k];
  pa->d = d;
  pb->d = -d;
  return 1;
}

/* The corners of q's cell inside the solid: those of its parent's
 * (old, nold) still on its side of the new plane, and the new plane's
 * meets with two others. */
static int corners(const ctx *C, const piece *q, const double *old, int nold, double **out,
                   int *nout) {
  int k = q->npl - 1, cap = nold + k * (k - 1) / 2 + 1, n = 0;
  double *c = LK_NEW_ARRAY(double, 3 * (size_t)cap);
  if (!c) return 0;
  const plane *P = q->pl;
  for (int i = 0; i < nold; i++)
    if (dot3(P[k].n, old + 3 * i) - P[k].d <= 10 * C->eps) memcpy(c + 3 * n++, old + 3 * i, 3 * sizeof *c);
  for (int i = 0; i < k; i++)
    for (int j = i + 1; j < k; j++) {
      double x[3];
      if (meet(P[i].n, P[i].d, P[j].n, P[j].d, P[k].n, P[k].d, x) &&
          corner_in(C, P, q->npl, i, j, P[k].n, x))
        memcpy(c + 3 * n++, x, sizeof x);
    }
  *out = c;
  *nout = n;
  return 1;
}

/* Fill a new piece's points, hull and volume. */
static int finish(ctx *C, piece *q, const double *cor, int ncor, int *oom) {
  if (!build_points(q, cor, ncor)) return 0;
  q->volume = chain_volume(q, C->ref);
  q->mesh = hull_of(C, q->pt, q->npt, &q->hull, oom);
  return !*oom;
}

/* The best cut of p: *n, *d; returns its score (INFINITY: none). */
static double best_cut(ctx *C, const piece *p, const lk_mesh_decompose_options *o, double *bn,
                       double *bd, int *oom) {
  static const double dirs[9][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1},
                                    {M_SQRT1_2, M_SQRT1_2, 0}, {M_SQRT1_2, -M_SQRT1_2, 0},
                                    {M_SQRT1_2, 0, M_SQRT1_2}, {M_SQRT1_2, 0, -M_SQRT1_2},
                                    {0, M_SQRT1_2, M_SQRT1_2}, {0, M_SQRT1_2, -M_SQRT1_2}};
  int nd = o->diagonals ? 9 : 3;
  double *buf = LK_NEW_ARRAY(double, 3 * score_points(p));
  double *proj = LK_NEW_ARRAY(double, p->npt);
  if (!buf || !proj) {
    lk_free(buf);
    lk_free(proj);
    *oom = 1;
    return INFINITY;
  }
  double best = INFINITY, bbal = INFINITY, bstep = 0, bal;
  /* Sums within a millionth of the solid's volume are equal. */
#define BETTER(v, b) ((v) < best - 1e-6 * C->volume || ((v) <= best + 1e-6 * C->volume && (b) < bbal))
  int bdir = -1;
  /* The coarse search on about 1000 of a larger piece's points (V-HACD
   * also searches a downsampled set first); the refinement on all. */
  int coarse = p->npt > 2000 ? p->npt / 1000 : 1;
  for (int u = 0; u < nd && !*oom; u++) {
    double lo = INFINITY, hi = -INFINITY;
    for (int i = 0; i < p->npt; i++) {
      double x = dot3(dirs[u], p->pt + 3 * (size_t)i);
      lo = fmin(lo, x);
      hi = fmax(hi, x);
    }
    if (!(hi - lo > 100 * C->eps)) continue;
    double step = (hi - lo) / (o->planes + 1);
    for (int i = 1; i <= o->planes && !*oom; i++) {
      double d = lo + i * step, v = score(C, p, dirs[u], d, coarse, buf, &bal, oom);
      if (isfinite(v) && BETTER(v, bal)) best = v, bbal = bal, bdir = u, *bd = d, bstep = step;
    }
  }
  if (bdir >= 0 && !*oom) {
    /* Refine between the best's neighbours: a finer grid, and the
     * vertices' own positions there (a cut through a face of the solid). */
    const double *u = dirs[bdir];
    double c = *bd, lo = c - bstep, hi = c + bstep;
    if (coarse > 1) best = score(C, p, u, c, 1, buf, &bbal, oom);
    for (int j = 1; j < 16 && !*oom; j++) {
      if (j == 8) continue;
      double d = lo + (hi - lo) * j / 16, v = score(C, p, u, d, 1, buf, &bal, oom);
      if (isfinite(v) && BETTER(v, bal)) best = v, bbal = bal, *bd = d;
    }
    int np = 0;
    for (int i = 0; i < p->npt; i++) {
      double x = dot3(u, p->pt + 3 * (size_t)i);
      if (x > lo && x < hi) proj[np++] = x;
    }
    /* Distinct positions, sorted (insertion into a short list). */
    int nq = 0;
    for (int i = 0; i < np; i++) {
      int j = 0;
      while (j < nq && proj[j] < proj[i]) j++;
      if (j < nq && proj[j] == proj[i]) continue;
      if (nq > 32) break;
      double x = proj[i];
      memmove(proj + j + 1, proj + j, sizeof *proj * (size_t)(nq - j));
      proj[j] = x;
      nq++;
    }
    /* Only a few (a piece with flat faces): many are a scanned surface's,
     * which the finer grid samples as well. */
    for (int j = 0; j < nq && nq <= 32 && !*oom; j++) {
      double v = score(C, p, u, proj[j], 1, buf, &bal, oom);
      if (isfinite(v) && BETTER(v, bal)) best = v, bbal = bal, *bd = proj[j];
    }
    memcpy(bn, u, 3 * sizeof *bn);
  }
#undef BETTER
  lk_free(buf);
  lk_free(proj);
  return best;
}

/* The part of piece p: its hull, with the piece of the surface inside
 * it (its clipped triangles, without the caps) as its surface. */
static lk_status part_mesh(const piece *p, lk_mesh **out, lk_error *err) {
  int nr = 0;
  for (int i = 0; i < p->nt; i++) nr += !p->cap[i];
  int nv = 3 * nr + p->ncor;
  double *v = LK_NEW_ARRAY(double, 3 * (size_t)nv);
  int *t = LK_NEW_ARRAY(int, 3 * (size_t)nr);
  if (!v || !t) {
    lk_free(v);
    lk_free(t);
    return lk_error_set(err, LK_OUT_OF_MEMORY, "decompose: out of memory");
  }
  for (int i = 0, r = 0; i < p->nt; i++)
    if (!p->cap[i]) {
      memcpy(v + 9 * (size_t)r, p->t + 9 * (size_t)i, 9 * sizeof *v);
      for (int k = 0; k < 3; k++) t[3 * r + k] = 3 * r + k;
      r++;
    }
  if (p->ncor)
    memcpy(v + 9 * (size_t)nr, p->pt + 3 * (size_t)(p->npt - p->ncor),
           3 * sizeof *v * (size_t)p->ncor);
  lk_mesh_spec s;
  lk_mesh_spec_default(&s);
  s.vertices = v;
  s.count = nv;
  s.triangles = t;
  s.ntriangles = nr;
  lk_status st = lk_mesh_new(&s, out, err);
  lk_free(v);
  lk_free(t);
  return st;
}

lk_status lk_mesh_decompose(const lk_mesh *m, const lk_mesh_decompose_options *opt,
                            lk_mesh ***parts, int *nparts, lk_mesh_decompose_report *r,
                            lk_error *err) {
  if (parts) *parts = NULL;
  if (nparts) *nparts = 0;
  if (r) memset(r, 0, sizeof *r);
  if (!m || !parts || !nparts)
    return lk_error_set(err, LK_INVALID_ARGUMENT, "decompose: NULL mesh or output");
  lk_mesh_decompose_options o;
  lk_mesh_decompose_options_default(&o);
  if (opt) o = *opt;
  if (o.max_parts < 1 || !(o.max_excess >= 0) || !isfinite(o.max_excess) || o.planes < 1 ||
      o.planes > 1000)
    return lk_error_set(err, LK_INVALID_ARGUMENT,
                        "decompose: max_parts %d must be >= 1, max_excess %g >= 0, planes %d "
                        "from 1 to 1000",
                        o.max_parts, o.max_excess, o.planes);
  ctx C;
  memset(&C, 0, sizeof C);
  int nsv;
  C.nst = lk_mesh_surface(m, &C.sv, &nsv, &C.st);
  if (C.nst <= 0)
    return lk_error_set(err, LK_INVALID_ARGUMENT,
                        "decompose: the mesh has no surface (made without its triangles)");
  for (int k = 0; k < 3; k++) C.pmin[k] = INFINITY, C.pmax[k] = -INFINITY;
  for (int i = 0; i < 3 * C.nst; i++)
    for (int k = 0; k < 3; k++) {
      double x = C.sv[3 * C.st[i] + k];
      C.pmin[k] = fmin(C.pmin[k], x);
      C.pmax[k] = fmax(C.pmax[k], x);
    }
  double diag = 0;
  for (int k = 0; k < 3; k++) {
    C.ref[k] = 0.5 * (C.pmin[k] + C.pmax[k]);
    diag += (C.pmax[k] - C.pmin[k]) * (C.pmax[k] - C.pmin[k]);
  }
  diag = sqrt(diag);
  C.eps = 1e-9 * diag;
  /* The solid's volume from two reference points: they agree only for a
   * closed surface. */
  double V = 0, V2 = 0;
  for (int i = 0; i < C.nst; i++) {
    const int *t = C.st + 3 * i;
    const double *a = C.sv + 3 * t[0], *b = C.sv + 3 * t[1], *c = C.sv + 3 * t[2];
    V += det6(C.ref, a, b, c) / 6;
    V2 += det6(C.pmin, a, b, c) / 6;
  }
  double H = lk_mesh_volume(m);
  C.volume = V;
  if (!(V > 1e-12 * diag * diag * diag) || fabs(V - V2) > 1e-6 * V || V > H * (1 + 1e-6))
    return lk_error_set(err, LK_INVALID_ARGUMENT,
                        "decompose: the surface is not closed and outward (its volume %g from "
                        "one point, %g from another; its hull's %g)",
                        V, V2, H);

  int cap = 2 * o.max_parts + 2, n = 1, oom = 0, cuts = 0;
  piece *P = LK_NEW_ARRAY(piece, cap);
  if (!P) return lk_error_set(err, LK_OUT_OF_MEMORY, "decompose: out of memory");
  {
    piece *q = &P[0];
    int ok = 1;
    for (int i = 0; i < C.nst && ok; i++) {
      const int *t = C.st + 3 * i;
      ok = push_tri(q, C.sv + 3 * t[0], C.sv + 3 * t[1], C.sv + 3 * t[2], 0);
    }
    if (!ok || !finish(&C, q, NULL, 0, &oom)) oom = 1;
  }
  while (!oom && n < o.max_parts) {
    double excess = 0;
    int w = -1;
    for (int i = 0; i < n; i++) {
      double e = P[i].hull - P[i].volume;
      excess += e;
      if (!P[i].final && (w < 0 || e > P[w].hull - P[w].volume)) w = i;
    }
    if (excess <= o.max_excess * V || w < 0 || !(P[w].hull - P[w].volume > 1e-9 * V)) break;
    double nrm[3] = {0, 0, 0}, d = 0;
    double s = best_cut(&C, &P[w], &o, nrm, &d, &oom);
    if (oom) break;
    if (!isfinite(s)) {
      P[w].final = 1;
      continue;
    }
    piece a, b;
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    double *ca = NULL, *cb = NULL;
    int nca = 0, ncb = 0;
    const double *old = P[w].pt + 3 * (size_t)(P[w].npt - P[w].ncor);
    int ok = clip(&C, &P[w], nrm, d, &a, &b) && corners(&C, &a, old, P[w].ncor, &ca, &nca) &&
             corners(&C, &b, old, P[w].ncor, &cb, &ncb);
    ok = ok && finish(&C, &a, ca, nca, &oom) && finish(&C, &b, cb, ncb, &oom);
    lk_free(ca);
    lk_free(cb);
    if (!ok) {
      piece_free(&a);
      piece_free(&b);
      oom = 1;
      break;
    }
    cuts++;
    piece_free(&P[w]);
    P[w] = a;
    P[n++] = b;
  }
  lk_status st = LK_OK;
  lk_mesh **out = NULL;
  int k = 0;
  double pv = 0;
  if (oom) {
    st = lk_error_set(err, LK_OUT_OF_MEMORY, "decompose: out of memory");
  } else {
    out = LK_NEW_ARRAY(lk_mesh *, n);
    if (!out) {
      st = lk_error_set(err, LK_OUT_OF_MEMORY, "decompose: out of memory");
    } else {
      for (int i = 0; i < n && !st; i++)
        if (P[i].mesh) {
          pv += P[i].hull;
          lk_mesh *pm = NULL;
          st = part_mesh(&P[i], &pm, err);
          if (pm) out[k++] = pm;
        }
      if (st) {
        lk_mesh_parts_free(out, k);
        out = NULL;
      }
    }
  }
  for (int i = 0; i < n; i++) piece_free(&P[i]);
  lk_free(P);
  if (st) return st;
  *parts = out;
  *nparts = k;
  if (r) {
    r->volume = V;
    r->hull_volume = H;
    r->parts_volume = pv;
    r->nparts = k;
    r->cuts = cuts;
    r->hulls = C.hulls;
  }
  return LK_OK;
}
