/* Mesh geoms' shapes: the convex hull of a vertex set, computed with
 * qhull (its default merging of coplanar facets gives polygon faces, so a
 * meshed box has 6 faces of 4 vertices, as a box does), with the adjacency
 * the collision layer walks, and the hull's mass properties.
 *
 * Mass properties: the solid is cut into tetrahedra from an interior point
 * to each face's fan triangles; each contributes its signed volume, first
 * moment and second-moment (covariance) matrix in closed form,
 * int_T x x^T dV = V/20 (sum_i v_i v_i^T + (sum_i v_i)(sum_i v_i)^T) over
 * its 4 vertices (Tonon, "Explicit exact formulas for the 3-D tetrahedron
 * inertia tensor in terms of its vertex coordinates", J. Math. Stat. 1(1),
 * 2005; the covariance form of Blow and Binstock, "How to find the inertia
 * tensor (or other mass properties) of a 3D solid body represented by a
 * triangle mesh", 2004). The inertia is tr(C) 1 - C about the centroid. */
#include <libqhull_r/qhull_ra.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/internal.h"
#include "model/mesh_impl.h"

void lk_mesh_spec_default(lk_mesh_spec *s) {
  memset(s, 0, sizeof *s);
  s->scale[0] = s->scale[1] = s->scale[2] = 1;
}

static size_t align8(size_t n) { return (n + 7) & ~(size_t)7; }

/* Offsets of the arrays in the block, from the counts. */
typedef struct {
  size_t v, fstart, fvert, fn, fd, vstart, vface, vnext, sv, st, total;
} layout;

static layout make_layout(int nv, int nf, int nfv, int nsv, int nst) {
  layout L;
  size_t o = align8(sizeof(struct lk_mesh));
  L.v = o;
  o = align8(o + sizeof(double) * 3 * (size_t)nv);
  L.fn = o;
  o = align8(o + sizeof(double) * 3 * (size_t)nf);
  L.fd = o;
  o = align8(o + sizeof(double) * (size_t)nf);
  L.fstart = o;
  o = align8(o + sizeof(int) * ((size_t)nf + 1));
  L.fvert = o;
  o = align8(o + sizeof(int) * (size_t)nfv);
  L.vstart = o;
  o = align8(o + sizeof(int) * ((size_t)nv + 1));
  L.vface = o;
  o = align8(o + sizeof(int) * (size_t)nfv);
  L.vnext = o;
  o = align8(o + sizeof(int) * (size_t)nfv);
  L.sv = o;
  o = align8(o + sizeof(double) * 3 * (size_t)nsv);
  L.st = o;
  o = align8(o + sizeof(int) * 3 * (size_t)nst);
  L.total = o;
  return L;
}

static void point_arrays(lk_mesh *m) {
  layout L = make_layout(m->nv, m->nf, m->nfv, m->nsv, m->nst);
  char *b = (char *)m;
  m->v = (double *)(b + L.v);
  m->fn = (double *)(b + L.fn);
  m->fd = (double *)(b + L.fd);
  m->fstart = (int *)(b + L.fstart);
  m->fvert = (int *)(b + L.fvert);
  m->vstart = (int *)(b + L.vstart);
  m->vface = (int *)(b + L.vface);
  m->vnext = (int *)(b + L.vnext);
  m->sv = m->nsv ? (double *)(b + L.sv) : NULL;
  m->st = m->nst ? (int *)(b + L.st) : NULL;
}

static lk_vec3 vtx(const lk_mesh *m, int i) { return lk_v3(m->v[3 * i], m->v[3 * i + 1], m->v[3 * i + 2]); }

/* One face of qhull's output, its vertices (hull indices) ordered. */
typedef struct {
  int n, start; /* in the scratch index list */
  lk_vec3 normal;
} rawface;

typedef struct {
  double ang;
  int v, pid; /* hull index, input point */
} angv;

static int angv_cmp(const void *a, const void *b) {
  const angv *x = a, *y = b;
  if (x->ang != y->ang) return x->ang < y->ang ? -1 : 1;
  return x->v - y->v;
}

/* qhull's message, first line, for an error. */
static void first_line(const char *msg, char *out, size_t size) {
  size_t k = 0;
  const char *p = msg ? msg : "";
  while (*p == '\n' || *p == ' ') p++;
  while (*p && *p != '\n' && k + 1 < size) out[k++] = *p++;
  out[k] = 0;
}

static void mass_properties(lk_mesh *m) {
  lk_vec3 r = lk_v3_zero();
  for (int i = 0; i < m->nv; i++) r = lk_v3_add(r, vtx(m, i));
  r = lk_v3_scale(r, 1.0 / m->nv);
  double V = 0;
  lk_vec3 M1 = lk_v3_zero();
  double C[3][3] = {{0}};
  for (int f = 0; f < m->nf; f++) {
    const int *fv = m->fvert + m->fstart[f];
    int k = m->fstart[f + 1] - m->fstart[f];
    lk_vec3 a = lk_v3_sub(vtx(m, fv[0]), r);
    for (int i = 1; i + 1 < k; i++) {
      lk_vec3 b = lk_v3_sub(vtx(m, fv[i]), r), c = lk_v3_sub(vtx(m, fv[i + 1]), r);
      double det = lk_v3_dot(a, lk_v3_cross(b, c));
      V += det / 6;
      lk_vec3 s = lk_v3_add(lk_v3_add(a, b), c);
      M1 = lk_v3_madd(M1, s, det / 24);
      double pa[3] = {a.x, a.y, a.z}, pb[3] = {b.x, b.y, b.z}, pc[3] = {c.x, c.y, c.z},
             ps[3] = {s.x, s.y, s.z};
      for (int p = 0; p < 3; p++)
        for (int q = 0; q < 3; q++)
          C[p][q] += det / 120 * (pa[p] * pa[q] + pb[p] * pb[q] + pc[p] * pc[q] + ps[p] * ps[q]);
    }
  }
  lk_vec3 g = lk_v3_scale(M1, 1.0 / V);
  double gg[3] = {g.x, g.y, g.z};
  for (int p = 0; p < 3; p++)
    for (int q = 0; q < 3; q++) C[p][q] -= V * gg[p] * gg[q];
  double tr = C[0][0] + C[1][1] + C[2][2];
  for (int p = 0; p < 3; p++)
    for (int q = 0; q < 3; q++) m->inertia.m[p][q] = (p == q ? tr : 0) - 0.5 * (C[p][q] + C[q][p]);
  m->volume = V;
  m->centroid = lk_v3_add(r, g);
}

lk_status lk_mesh_new(const lk_mesh_spec *s, lk_mesh **out, lk_error *err) {
  if (!out) return lk_error_set(err, LK_INVALID_ARGUMENT, "mesh: NULL output");
  *out = NULL;
  if (!s || !s->vertices) return lk_error_set(err, LK_INVALID_ARGUMENT, "mesh: NULL vertices");
  for (int k = 0; k < 3; k++)
    if (!isfinite(s->scale[k]) || !(s->scale[k] > 0))
      return lk_error_set(err, LK_INVALID_ARGUMENT, "mesh: scale[%d] = %g must be positive", k,
                          s->scale[k]);
  if (s->count < 4)
    return lk_error_set(err, LK_INVALID_ARGUMENT,
                        "mesh: %d vertices cannot enclose a volume (at least 4 needed)", s->count);
  if (!lk_all_finite(s->vertices, 3 * (size_t)s->count))
    return lk_error_set(err, LK_NON_FINITE, "mesh: a vertex is not finite");
  if (s->ntriangles < 0 || (s->ntriangles > 0 && !s->triangles))
    return lk_error_set(err, LK_INVALID_ARGUMENT, "mesh: %d triangles%s", s->ntriangles,
                        s->ntriangles > 0 ? " but NULL indices" : "");
  for (long i = 0; i < 3L * s->ntriangles; i++)
    if (s->triangles[i] < 0 || s->triangles[i] >= s->count)
      return lk_error_set(err, LK_INVALID_ARGUMENT,
                          "mesh: triangle %ld names vertex %d (there are %d)", i / 3,
                          s->triangles[i], s->count);
  int n = s->count, nst = s->ntriangles, nsv = nst > 0 ? n : 0;
  coordT *pts = LK_NEW_ARRAY(coordT, 3 * (size_t)n);
  if (!pts) return lk_error_set(err, LK_OUT_OF_MEMORY, "mesh: out of memory");
  for (int i = 0; i < n; i++)
    for (int k = 0; k < 3; k++) pts[3 * i + k] = s->vertices[3 * i + k] * s->scale[k];

  char *msg = NULL;
  size_t msglen = 0;
  FILE *errfile = open_memstream(&msg, &msglen);
  if (!errfile) {
    lk_free(pts);
    return lk_error_set(err, LK_OUT_OF_MEMORY, "mesh: cannot open a stream for qhull");
  }
  qhT qh_qh;
  qhT *qh = &qh_qh;
  qh_zero(qh, errfile);
  char flags[] = "qhull";
  int code = qh_new_qhull(qh, 3, n, pts, False, flags, NULL, errfile);
  lk_status st = LK_OK;
  lk_mesh *m = NULL;
  int *hid = NULL, *idx = NULL;
  rawface *rf = NULL;
  angv *tmp = NULL;
  if (code != 0) {
    fflush(errfile);
    char line[160];
    first_line(msg, line, sizeof line);
    /* qhull's precision and flat-input errors (code 2 with a "initial
     * simplex is flat" line) mean the points span no volume. */
    if (strstr(msg ? msg : "", "flat") || strstr(msg ? msg : "", "simplex"))
      st = lk_error_set(err, LK_INVALID_ARGUMENT,
                        "mesh: the %d vertices lie on a plane or a line (no volume)", n);
    else
      st = lk_error_set(err, LK_INVALID_ARGUMENT, "mesh: qhull failed (code %d): %s", code, line);
    goto done;
  }
  {
    /* Hull vertices numbered in the order of the input points, so that the
     * numbering does not depend on qhull's internal lists. */
    hid = LK_NEW_ARRAY(int, n);
    if (!hid) goto oom;
    for (int i = 0; i < n; i++) hid[i] = -1;
    vertexT *vertex;
    FORALLvertices { hid[qh_pointid(qh, vertex->point)] = 0; }
    int nv = 0;
    for (int i = 0; i < n; i++)
      if (hid[i] == 0) hid[i] = nv++;
    /* Faces: vertices ordered by angle about the face's centroid; faces
     * with more than LK_MESH_FACE_MAX vertices cut into fans. */
    int cap = 0, capf = 0;
    facetT *facet;
    FORALLfacets {
      int k = qh_setsize(qh, facet->vertices), pieces = k / (LK_MESH_FACE_MAX - 2) + 1;
      cap += k + 2 * pieces;
      capf += pieces;
    }
    idx = LK_NEW_ARRAY(int, cap);
    rf = LK_NEW_ARRAY(rawface, capf);
    tmp = LK_NEW_ARRAY(angv, n);
    if (!idx || !rf || !tmp) goto oom;
    int nf = 0, nfv = 0;
    FORALLfacets {
      lk_vec3 nrm = lk_v3(facet->normal[0], facet->normal[1], facet->normal[2]);
      int k = 0;
      lk_vec3 c = lk_v3_zero();
      vertexT **vertexp;
      FOREACHvertex_(facet->vertices) {
        int pid = qh_pointid(qh, vertex->point);
        tmp[k].v = hid[pid];
        tmp[k].pid = pid;
        c = lk_v3_add(c, lk_v3(pts[3 * pid], pts[3 * pid + 1], pts[3 * pid + 2]));
        k++;
      }
      c = lk_v3_scale(c, 1.0 / k);
      lk_vec3 e1 = lk_v3_zero();
      /* In-plane axes from the first vertex far enough from the centroid. */
      for (int i = 0; i < k; i++) {
        int pid = tmp[i].pid;
        lk_vec3 p = lk_v3(pts[3 * pid], pts[3 * pid + 1], pts[3 * pid + 2]);
        lk_vec3 d = lk_v3_sub(p, c);
        d = lk_v3_madd(d, nrm, -lk_v3_dot(d, nrm));
        if (lk_v3_norm(d) > lk_v3_norm(e1)) e1 = d;
      }
      e1 = lk_v3_normalize(e1);
      lk_vec3 e2 = lk_v3_cross(nrm, e1);
      for (int i = 0; i < k; i++) {
        int pid = tmp[i].pid;
        lk_vec3 d = lk_v3_sub(lk_v3(pts[3 * pid], pts[3 * pid + 1], pts[3 * pid + 2]), c);
        tmp[i].ang = atan2(lk_v3_dot(d, e2), lk_v3_dot(d, e1));
      }
      qsort(tmp, (size_t)k, sizeof *tmp, angv_cmp);
      /* Fans of at most LK_MESH_FACE_MAX vertices: 0, s .. s + M - 2. */
      int s0 = 1;
      do {
        int len = k - s0 + 1 <= LK_MESH_FACE_MAX ? k - s0 + 1 : LK_MESH_FACE_MAX;
        rf[nf].start = nfv;
        rf[nf].n = len;
        rf[nf].normal = nrm;
        idx[nfv++] = tmp[0].v;
        for (int i = 0; i < len - 1; i++) idx[nfv++] = tmp[s0 + i].v;
        nf++;
        s0 += len - 2;
      } while (s0 + 1 < k);
    }
    layout L = make_layout(nv, nf, nfv, nsv, nst);
    m = lk_calloc(1, L.total);
    if (!m) goto oom;
    m->bytes = L.total;
    m->nv = nv;
    m->nf = nf;
    m->nfv = nfv;
    m->ninput = n;
    m->nsv = nsv;
    m->nst = nst;
    point_arrays(m);
    for (int i = 0; i < 3 * nsv; i++) m->sv[i] = pts[i];
    if (nst) memcpy(m->st, s->triangles, sizeof(int) * 3 * (size_t)nst);
    for (int i = 0; i < n; i++)
      if (hid[i] >= 0)
        for (int k = 0; k < 3; k++) m->v[3 * hid[i] + k] = pts[3 * i + k];
    for (int f = 0; f < nf; f++) {
      m->fstart[f] = rf[f].start;
      memcpy(m->fvert + rf[f].start, idx + rf[f].start, sizeof(int) * (size_t)rf[f].n);
      /* Newell's normal of the ordered polygon (qhull's, merged, is an
       * average), and the plane through the outermost vertex. */
      const int *fv = m->fvert + rf[f].start;
      lk_vec3 nn = lk_v3_zero();
      for (int i = 0; i < rf[f].n; i++) {
        lk_vec3 p = vtx(m, fv[i]), q = vtx(m, fv[(i + 1) % rf[f].n]);
        nn.x += (p.y - q.y) * (p.z + q.z);
        nn.y += (p.z - q.z) * (p.x + q.x);
        nn.z += (p.x - q.x) * (p.y + q.y);
      }
      if (lk_v3_dot(nn, rf[f].normal) < 0) {
        /* Ordered clockwise seen from outside: reverse. */
        int *w = m->fvert + rf[f].start;
        for (int i = 0, j = rf[f].n - 1; i < j; i++, j--) {
          int t = w[i];
          w[i] = w[j];
          w[j] = t;
        }
        nn = lk_v3_neg(nn);
      }
      nn = lk_v3_norm(nn) > 0 ? lk_v3_normalize(nn) : rf[f].normal;
      double d = -INFINITY;
      for (int i = 0; i < rf[f].n; i++) d = fmax(d, lk_v3_dot(nn, vtx(m, fv[i])));
      m->fn[3 * f] = nn.x;
      m->fn[3 * f + 1] = nn.y;
      m->fn[3 * f + 2] = nn.z;
      m->fd[f] = d;
    }
    m->fstart[nf] = nfv;
    /* Vertex -> faces, and each vertex's successor there (its neighbours:
     * around a closed, consistently oriented hull every neighbour is the
     * successor in exactly one face). */
    int *pairs = LK_NEW_ARRAY(int, 3 * (size_t)nfv);
    if (!pairs) goto oom;
    for (int f = 0, e = 0; f < nf; f++)
      for (int i = m->fstart[f]; i < m->fstart[f + 1]; i++, e++) {
        int nxt = i + 1 < m->fstart[f + 1] ? i + 1 : m->fstart[f];
        pairs[3 * e] = m->fvert[i];
        pairs[3 * e + 1] = f;
        pairs[3 * e + 2] = m->fvert[nxt];
      }
    {
      /* A counting sort by vertex, which keeps the faces' order. */
      for (int i = 0; i <= nv; i++) m->vstart[i] = 0;
      for (int e = 0; e < nfv; e++) m->vstart[pairs[3 * e] + 1]++;
      for (int i = 0; i < nv; i++) m->vstart[i + 1] += m->vstart[i];
      int *fill = LK_NEW_ARRAY(int, nv);
      if (!fill) {
        lk_free(pairs);
        goto oom;
      }
      for (int e = 0; e < nfv; e++) {
        int v = pairs[3 * e], at = m->vstart[v] + fill[v]++;
        m->vface[at] = pairs[3 * e + 1];
        m->vnext[at] = pairs[3 * e + 2];
      }
      lk_free(fill);
    }
    lk_free(pairs);
    double r2 = 0;
    for (int k = 0; k < 3; k++) {
      m->lo[k] = INFINITY;
      m->hi[k] = -INFINITY;
    }
    for (int k = 0; k < 6; k++) m->extreme[k] = 0;
    for (int i = 0; i < nv; i++) {
      const double *p = m->v + 3 * i;
      r2 = fmax(r2, p[0] * p[0] + p[1] * p[1] + p[2] * p[2]);
      for (int k = 0; k < 3; k++) {
        if (p[k] < m->lo[k]) m->lo[k] = p[k];
        if (p[k] > m->hi[k]) m->hi[k] = p[k];
        if (p[k] > m->v[3 * m->extreme[2 * k] + k]) m->extreme[2 * k] = i;
        if (p[k] < m->v[3 * m->extreme[2 * k + 1] + k]) m->extreme[2 * k + 1] = i;
      }
    }
    m->radius = sqrt(r2);
    mass_properties(m);
    if (!(m->volume > 0)) {
      st = lk_error_set(err, LK_INVALID_ARGUMENT, "mesh: the hull has no volume");
      goto done;
    }
  }
  goto done;
oom:
  st = lk_error_set(err, LK_OUT_OF_MEMORY, "mesh: out of memory");
done:
  qh_freeqhull(qh, !qh_ALL);
  int curlong, totlong;
  qh_memfreeshort(qh, &curlong, &totlong);
  fclose(errfile);
  free(msg);
  lk_free(pts);
  lk_free(hid);
  lk_free(idx);
  lk_free(rf);
  lk_free(tmp);
  if (st) {
    lk_free(m);
    return st;
  }
  *out = m;
  return LK_OK;
}

lk_mesh *lk_mesh_copy(const lk_mesh *m) {
  if (!m) return NULL;
  lk_mesh *c = lk_malloc(m->bytes);
  if (!c) return NULL;
  memcpy(c, m, m->bytes);
  point_arrays(c);
  return c;
}

void lk_mesh_free(lk_mesh *m) { lk_free(m); }

int lk_mesh_nvertex(const lk_mesh *m) { return m ? m->nv : 0; }
const double *lk_mesh_vertices(const lk_mesh *m) { return m ? m->v : NULL; }
int lk_mesh_nface(const lk_mesh *m) { return m ? m->nf : 0; }
int lk_mesh_ninput(const lk_mesh *m) { return m ? m->ninput : 0; }

int lk_mesh_surface(const lk_mesh *m, const double **vertices, int *nvertex,
                    const int **triangles) {
  if (vertices) *vertices = m ? m->sv : NULL;
  if (nvertex) *nvertex = m ? m->nsv : 0;
  if (triangles) *triangles = m ? m->st : NULL;
  return m ? m->nst : 0;
}

int lk_mesh_face(const lk_mesh *m, int f, int *idx, int max) {
  if (!m || f < 0 || f >= m->nf) return -1;
  int k = m->fstart[f + 1] - m->fstart[f];
  for (int i = 0; i < k && i < max && idx; i++) idx[i] = m->fvert[m->fstart[f] + i];
  return k;
}

double lk_mesh_volume(const lk_mesh *m) { return m ? m->volume : 0; }
lk_vec3 lk_mesh_centroid(const lk_mesh *m) { return m ? m->centroid : lk_v3_zero(); }
lk_mat3 lk_mesh_inertia(const lk_mesh *m) { return m ? m->inertia : lk_m3_zero(); }
double lk_mesh_radius(const lk_mesh *m) { return m ? m->radius : 0; }

void lk_mesh_bounds(const lk_mesh *m, lk_vec3 *lo, lk_vec3 *hi) {
  if (!m) return;
  if (lo) *lo = lk_v3(m->lo[0], m->lo[1], m->lo[2]);
  if (hi) *hi = lk_v3(m->hi[0], m->hi[1], m->hi[2]);
}

static double vdot(const lk_mesh *m, int i, lk_vec3 d) {
  const double *p = m->v + 3 * i;
  return p[0] * d.x + p[1] * d.y + p[2] * d.z;
}

int lk_mesh_support(const lk_mesh *m, lk_vec3 d) {
  if (m->nv <= 24) {
    int best = 0;
    double bd = vdot(m, 0, d);
    for (int i = 1; i < m->nv; i++) {
      double x = vdot(m, i, d);
      if (x > bd) {
        bd = x;
        best = i;
      }
    }
    return best;
  }
  int cur = m->extreme[0];
  double cd = vdot(m, cur, d);
  for (int k = 1; k < 6; k++) {
    double x = vdot(m, m->extreme[k], d);
    if (x > cd) {
      cd = x;
      cur = m->extreme[k];
    }
  }
  /* Strict ascent: terminates (finitely many vertices, values increase). */
  for (;;) {
    int next = -1;
    for (int e = m->vstart[cur]; e < m->vstart[cur + 1]; e++) {
      double x = vdot(m, m->vnext[e], d);
      if (x > cd) {
        cd = x;
        next = m->vnext[e];
      }
    }
    if (next < 0) return cur;
    cur = next;
  }
}

int lk_mesh_face_toward(const lk_mesh *m, int v, lk_vec3 d, double *cosine) {
  int best = m->vface[m->vstart[v]];
  double bc = -INFINITY;
  for (int e = m->vstart[v]; e < m->vstart[v + 1]; e++) {
    int f = m->vface[e];
    double c = m->fn[3 * f] * d.x + m->fn[3 * f + 1] * d.y + m->fn[3 * f + 2] * d.z;
    if (c > bc) {
      bc = c;
      best = f;
    }
  }
  if (cosine) *cosine = bc;
  return best;
}
