/* Grasp candidates: hand poses drawn around an object, each from its own
 * random stream, and perturbations of them for local refinement.
 *
 * Uniform: the palm's approach axis (-z of the palm frame, along which
 * the fingers reach) aims at the object's centre of mass from a direction
 * uniform on the sphere. Surface: it aims at a point of the object's
 * surface, drawn by area (a mesh geom's hull by its faces, each point
 * with its face's normal), along that point's inward normal (the palm
 * faces the surface). Antipodal, for a parallel-jaw hand (two fingers on
 * prismatic joints closing along one axis): the closing axis is the
 * surface point's normal and the jaws straddle the object's width there
 * (Nguyen 1988; the antipodal sampling of Dex-Net, Mahler et al. 2017), the
 * approach any direction across it. */
#include <math.h>
#include <string.h>

#include "core/internal.h"
#include "grasp/grasp_internal.h"
#include "grasp/grasp_scene.h"
#include "linkage/dynamics.h"

typedef struct {
  lk_geom_type type;
  double size[3];
  lk_transform pose; /* in the object's frame */
  double area;
  /* LK_GEOM_MESH: the hull (the model's) and its faces as a triangle fan
   * each: ntri triangles (vertex indices, 3 each) and their cumulative
   * areas, for drawing a point by area. */
  const lk_mesh *mesh;
  int ntri;
  int *tri;
  double *cum;
} surface;

struct lk_grasp_sampler {
  const lk_grasp_scene *s;
  lk_grasp_sample_options o;
  lk_grasp_sample_kind kind; /* resolved (never AUTO) */
  int nsurf;
  surface *surf;
  double total_area;
  lk_vec3 close_axis; /* antipodal: the jaws' closing axis, palm frame */
  double grip_depth;  /* how far below the palm (along -z) the fingers'
                         geoms are centred at the pre-shape, m */
  double palm_front;  /* how far below the palm the palm's own geoms reach
                         (the depth an object must stay beyond), m */
  double opening;     /* antipodal: the jaws' clear width along the closing
                         axis at the pre-shape (INFINITY: not known), m */
  /* Every mesh geom of the object (inner ones too), for the antipodal
   * width across parts. */
  int nhull, maxv; /* maxv: the most vertices of one of them */
  const lk_mesh **hull;
  lk_transform *hull_pose;
};

void lk_grasp_sample_options_default(lk_grasp_sample_options *o) {
  if (!o) return;
  memset(o, 0, sizeof *o);
  o->kind = LK_SAMPLE_AUTO;
  o->seed = 1;
  o->standoff_min = o->standoff_max = -1;
}

const char *lk_grasp_sample_kind_name(lk_grasp_sample_kind k) {
  switch (k) {
    case LK_SAMPLE_AUTO:
      return "auto";
    case LK_SAMPLE_UNIFORM:
      return "uniform";
    case LK_SAMPLE_SURFACE:
      return "surface";
    case LK_SAMPLE_ANTIPODAL:
      return "antipodal";
  }
  return NULL;
}

int lk_grasp_sample_kind_from_name(const char *name) {
  for (int k = 0; k <= LK_SAMPLE_ANTIPODAL; k++)
    if (name && strcmp(name, lk_grasp_sample_kind_name((lk_grasp_sample_kind)k)) == 0) return k;
  return -1;
}

/* ------------------------------------------------------------- random */

/* SplitMix64 (Steele, Lea and Flood 2014): each candidate's stream is the
 * generator seeded from (seed, index, round). */
static uint64_t splitmix64(uint64_t *x) {
  uint64_t z = (*x += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

static double uniform01(uint64_t *x) { return (double)(splitmix64(x) >> 11) * 0x1.0p-53; }

static uint64_t stream(uint64_t seed, int index, int round) {
  uint64_t x = seed ^ (0xD1B54A32D192ED03ull * (uint64_t)(index + 1)) ^
               (0x8CB92BA72F3D8DD7ull * (uint64_t)round);
  splitmix64(&x);
  return x;
}

static lk_vec3 unit_sphere(uint64_t *x) {
  double z = 2 * uniform01(x) - 1, phi = 2 * LK_PI * uniform01(x);
  double r = sqrt(fmax(0.0, 1 - z * z));
  return lk_v3(r * cos(phi), r * sin(phi), z);
}

/* A unit vector orthogonal to a (unit), from the axis least aligned. */
static lk_vec3 orthogonal(lk_vec3 a) {
  double ax = fabs(a.x), ay = fabs(a.y), az = fabs(a.z);
  lk_vec3 e = ax <= ay && ax <= az ? lk_v3(1, 0, 0) : (ay <= az ? lk_v3(0, 1, 0) : lk_v3(0, 0, 1));
  return lk_v3_normalize(lk_v3_cross(e, a));
}

/* ------------------------------------------------------------ surfaces */

static double surface_area(lk_geom_type t, const double *sz) {
  switch (t) {
    case LK_GEOM_SPHERE:
      return 4 * LK_PI * sz[0] * sz[0];
    case LK_GEOM_CAPSULE:
      return 4 * LK_PI * sz[0] * sz[0] + 2 * LK_PI * sz[0] * 2 * sz[1];
    case LK_GEOM_BOX:
      return 8 * (sz[0] * sz[1] + sz[1] * sz[2] + sz[0] * sz[2]);
    case LK_GEOM_CYLINDER:
      return 2 * LK_PI * sz[0] * sz[0] + 2 * LK_PI * sz[0] * 2 * sz[1];
    default:
      return 0;
  }
}

static lk_vec3 vertex(const lk_mesh *m, int i) {
  const double *v = lk_mesh_vertices(m) + 3 * i;
  return lk_v3(v[0], v[1], v[2]);
}

/* A hull's faces as triangle fans: the triangles' vertex indices and
 * cumulative areas into g (allocated), the total area returned (0: out of
 * memory or no faces). */
static double mesh_triangles(surface *g, const lk_mesh *m) {
  int nf = lk_mesh_nface(m), nv = lk_mesh_nvertex(m), nt = 0;
  int *idx = LK_NEW_ARRAY(int, nv > 0 ? nv : 1);
  if (!idx) return 0;
  for (int f = 0; f < nf; f++) {
    int k = lk_mesh_face(m, f, idx, nv);
    if (k >= 3) nt += k - 2;
  }
  g->tri = LK_NEW_ARRAY(int, 3 * (size_t)(nt > 0 ? nt : 1));
  g->cum = LK_NEW_ARRAY(double, nt > 0 ? nt : 1);
  if (!g->tri || !g->cum) {
    lk_free(idx);
    return 0;
  }
  double area = 0;
  g->ntri = 0;
  for (int f = 0; f < nf; f++) {
    int k = lk_mesh_face(m, f, idx, nv);
    for (int j = 1; j + 1 < k; j++) {
      lk_vec3 a = vertex(m, idx[0]), b = vertex(m, idx[j]), c = vertex(m, idx[j + 1]);
      area += 0.5 * lk_v3_norm(lk_v3_cross(lk_v3_sub(b, a), lk_v3_sub(c, a)));
      int *t = g->tri + 3 * g->ntri;
      t[0] = idx[0];
      t[1] = idx[j];
      t[2] = idx[j + 1];
      g->cum[g->ntri++] = area;
    }
  }
  lk_free(idx);
  return area;
}

/* A point of a hull drawn by area: a triangle by its area (the first
 * whose cumulative area exceeds t), a uniform point in it (Osada et al.
 * 2002, sqrt of the first variate), the face's normal (faces are counter-
 * clockwise seen from outside). */
static void mesh_point(const surface *g, double u, double v, double w, lk_vec3 *p, lk_vec3 *n) {
  double t = u * g->area;
  int lo = 0, hi = g->ntri - 1;
  while (lo < hi) {
    int mid = (lo + hi) / 2;
    if (g->cum[mid] > t)
      hi = mid;
    else
      lo = mid + 1;
  }
  const int *tr = g->tri + 3 * lo;
  lk_vec3 a = vertex(g->mesh, tr[0]), b = vertex(g->mesh, tr[1]), c = vertex(g->mesh, tr[2]);
  double r = sqrt(v);
  *p = lk_v3_add(lk_v3_add(lk_v3_scale(a, 1 - r), lk_v3_scale(b, r * (1 - w))),
                 lk_v3_scale(c, r * w));
  *n = lk_v3_normalize(lk_v3_cross(lk_v3_sub(b, a), lk_v3_sub(c, a)));
}

/* A point of the geom's surface drawn by area, and its outward normal, in
 * the geom's frame. */
static void surface_point(const surface *g, uint64_t *x, lk_vec3 *p, lk_vec3 *n) {
  const double *s = g->size;
  double u = uniform01(x), v = uniform01(x), w = uniform01(x);
  switch (g->type) {
    case LK_GEOM_MESH:
      mesh_point(g, u, v, w, p, n);
      return;
    case LK_GEOM_SPHERE:
      *n = unit_sphere(x);
      *p = lk_v3_scale(*n, s[0]);
      return;
    case LK_GEOM_CAPSULE: {
      double side = 2 * LK_PI * s[0] * 2 * s[1], caps = 4 * LK_PI * s[0] * s[0];
      if (u * (side + caps) < side) {
        double phi = 2 * LK_PI * v;
        *n = lk_v3(cos(phi), sin(phi), 0);
        *p = lk_v3(s[0] * n->x, s[0] * n->y, (2 * w - 1) * s[1]);
      } else {
        *n = unit_sphere(x);
        *p = lk_v3_add(lk_v3_scale(*n, s[0]), lk_v3(0, 0, n->z >= 0 ? s[1] : -s[1]));
      }
      return;
    }
    case LK_GEOM_BOX: {
      /* A face by area (pairs of opposite faces), then a point on it. */
      double a[3] = {s[1] * s[2], s[0] * s[2], s[0] * s[1]};
      double t = u * (a[0] + a[1] + a[2]);
      int k = t < a[0] ? 0 : (t < a[0] + a[1] ? 1 : 2);
      double sign = w < 0.5 ? -1 : 1;
      double q[3], nn[3] = {0, 0, 0};
      int i = (k + 1) % 3, j = (k + 2) % 3;
      q[k] = sign * s[k];
      q[i] = (2 * v - 1) * s[i];
      q[j] = (2 * uniform01(x) - 1) * s[j];
      nn[k] = sign;
      *p = lk_v3(q[0], q[1], q[2]);
      *n = lk_v3(nn[0], nn[1], nn[2]);
      return;
    }
    case LK_GEOM_CYLINDER: {
      double side = 2 * LK_PI * s[0] * 2 * s[1], caps = 2 * LK_PI * s[0] * s[0];
      double phi = 2 * LK_PI * v;
      if (u * (side + caps) < side) {
        *n = lk_v3(cos(phi), sin(phi), 0);
        *p = lk_v3(s[0] * n->x, s[0] * n->y, (2 * w - 1) * s[1]);
      } else {
        double r = s[0] * sqrt(uniform01(x));
        double zs = w < 0.5 ? -1 : 1;
        *n = lk_v3(0, 0, zs);
        *p = lk_v3(r * cos(phi), r * sin(phi), zs * s[1]);
      }
      return;
    }
    default:
      *p = lk_v3(0, 0, 0);
      *n = lk_v3(0, 0, 1);
  }
}

/* The geom's support (max over its points of d . x, geom frame, d unit). */
static double support(const surface *g, lk_vec3 d) {
  const double *s = g->size;
  switch (g->type) {
    case LK_GEOM_SPHERE:
      return s[0];
    case LK_GEOM_CAPSULE:
      return s[0] + s[1] * fabs(d.z);
    case LK_GEOM_BOX:
      return s[0] * fabs(d.x) + s[1] * fabs(d.y) + s[2] * fabs(d.z);
    case LK_GEOM_CYLINDER:
      return s[0] * sqrt(d.x * d.x + d.y * d.y) + s[1] * fabs(d.z);
    case LK_GEOM_MESH: {
      /* The largest over the hull's vertices. */
      int nv = lk_mesh_nvertex(g->mesh);
      double best = -INFINITY;
      for (int i = 0; i < nv; i++) best = fmax(best, lk_v3_dot(d, vertex(g->mesh, i)));
      return nv ? best : 0;
    }
    default:
      return 0;
  }
}

/* ------------------------------------------------------------- sampler */

void lk_grasp_sampler_free(lk_grasp_sampler *sp) {
  if (!sp) return;
  for (int i = 0; i < sp->nsurf; i++) {
    lk_free(sp->surf[i].tri);
    lk_free(sp->surf[i].cum);
  }
  lk_free(sp->surf);
  lk_free(sp->hull);
  lk_free(sp->hull_pose);
  lk_free(sp);
}

/* The interval [*t0, *t1] of the ray o + t d (geom frame) inside hull m
 * (its faces' planes, outward); 0 when the ray misses it. */
static int ray_hull(const lk_mesh *m, lk_vec3 o, lk_vec3 d, double tol, int *idx, double *t0,
                    double *t1) {
  double a = -INFINITY, b = INFINITY;
  int nf = lk_mesh_nface(m), nv = lk_mesh_nvertex(m);
  for (int f = 0; f < nf; f++) {
    int k = lk_mesh_face(m, f, idx, nv);
    if (k < 3) continue;
    lk_vec3 p0 = vertex(m, idx[0]);
    lk_vec3 n = lk_v3_cross(lk_v3_sub(vertex(m, idx[1]), p0), lk_v3_sub(vertex(m, idx[2]), p0));
    double len = lk_v3_norm(n);
    if (!(len > 0)) continue;
    n = lk_v3_scale(n, 1 / len);
    double den = lk_v3_dot(n, d), dist = lk_v3_dot(n, lk_v3_sub(p0, o));
    if (fabs(den) < 1e-15) {
      if (dist < -tol) return 0;
      continue;
    }
    double t = dist / den;
    if (den > 0)
      b = fmin(b, t);
    else
      a = fmax(a, t);
  }
  *t0 = a;
  *t1 = b;
  return a <= b + tol;
}

/* How far the solid goes from surface point p (object frame) along -n:
 * from width0 (the part's own width there), on through every part whose
 * stretch of the ray starts where the solid so far ends (within tol), so
 * that an object cut into parts is straddled whole while a hollow one
 * (a mug's wall, then its cavity) is straddled at its wall. */
static double width_across_parts(const lk_grasp_sampler *sp, lk_vec3 p, lk_vec3 n, double width0,
                                 int *idx) {
  double end = width0, tol = 1e-6 * sp->s->object_radius;
  for (int changed = 1; changed;) {
    changed = 0;
    for (int j = 0; j < sp->nhull; j++) {
      const lk_transform *X = &sp->hull_pose[j];
      lk_vec3 o = lk_tf_inv_point(X, p), d = lk_m3_tmulv(&X->R, lk_v3_neg(n));
      double a, b;
      if (ray_hull(sp->hull[j], o, d, tol, idx, &a, &b) && a <= end + tol && b > end + tol) {
        end = b;
        changed = 1;
      }
    }
  }
  return end;
}

/* A parallel jaw: two fingers of one prismatic DoF each (actuated, or one
 * of them coupled to the other's: a mimic jaw) hanging from the palm's
 * body, whose closing directions (hand frame, scene.c) are opposite. */
static int jaw_axis(const lk_grasp_scene *s, lk_vec3 *axis) {
  if (s->nfinger != 2) return 0;
  for (int f = 0; f < 2; f++) {
    const lk_grasp_finger *fg = &s->finger[f];
    if (fg->ndof + fg->ncoupled != 1) return 0;
    int link = lk_model_dof_link(s->m, fg->ndof ? fg->dof[0] : fg->coupled_dof[0]);
    if (lk_model_joint_type(s->m, link) != LK_JOINT_PRISMATIC) return 0;
    if (!s->palm_body[lk_model_link_parent(s->m, link)]) return 0;
  }
  lk_vec3 a0 = s->finger_axis[0], a1 = s->finger_axis[1];
  if (lk_v3_dot(a0, a1) > -1 + 1e-9) return 0;
  *axis = a0;
  return 1;
}

/* A jaw of two fingertips (the Robotiq 2F-85's, on revolute four-bars):
 * two fingers whose deepest geoms (below the palm at the pre-shape, the
 * tips) face each other across the approach: the line from finger 0's tip
 * to finger 1's, its component along the approach dropped, is the closing
 * axis (finger 0 closes along it, as a prismatic jaw's axis), provided the
 * tips lie more across the approach than along it. *depth: the tips'
 * depth below the palm, averaged. */
static int tip_jaw_axis(const lk_grasp_scene *s, const lk_data *d, const lk_transform *palm,
                        lk_vec3 *axis, double *depth, int tip_geom[2]) {
  if (s->nfinger != 2) return 0;
  const lk_model *m = s->m;
  lk_vec3 tip[2];
  double deep[2] = {-INFINITY, -INFINITY};
  tip_geom[0] = tip_geom[1] = -1;
  for (int g = 0; g < lk_model_ngeom(m); g++) {
    int l = lk_model_geom_link(m, g);
    if (l <= 0 || s->finger_of_link[l] < 0) continue;
    lk_geom_spec gs;
    lk_model_geom(m, g, &gs);
    if (gs.type == LK_GEOM_PLANE) continue;
    lk_transform w = lk_tf_mul(lk_data_link_pose(d, l), &gs.pose);
    lk_vec3 c = lk_tf_inv_point(palm, w.p);
    int f = s->finger_of_link[l];
    if (f > 1) return 0;
    if (-c.z > deep[f]) {
      deep[f] = -c.z;
      tip[f] = c;
      tip_geom[f] = g;
    }
  }
  if (!isfinite(deep[0]) || !isfinite(deep[1])) return 0;
  lk_vec3 across = lk_v3_sub(tip[1], tip[0]);
  double along = fabs(across.z);
  across.z = 0;
  double w = lk_v3_norm(across);
  if (!(w > 2 * along) || !(w > 1e-9 * (1 + s->reach))) return 0;
  *axis = lk_v3_scale(across, 1 / w);
  *depth = 0.5 * (deep[0] + deep[1]);
  return 1;
}

/* Whether x (the geom's frame) is inside the hull or on it, within tol. */
static int in_hull(const lk_mesh *m, lk_vec3 x, double tol, int *idx) {
  int nf = lk_mesh_nface(m), nv = lk_mesh_nvertex(m);
  for (int f = 0; f < nf; f++) {
    int k = lk_mesh_face(m, f, idx, nv);
    if (k < 3) continue;
    lk_vec3 a = vertex(m, idx[0]), b = vertex(m, idx[1]), c = vertex(m, idx[2]);
    lk_vec3 n = lk_v3_normalize(lk_v3_cross(lk_v3_sub(b, a), lk_v3_sub(c, a)));
    if (lk_v3_dot(n, lk_v3_sub(x, a)) > tol) return 0;
  }
  return 1;
}

/* A pre-decomposed object's parts meet on faces inside the object (the
 * side of a mug's wall segment against the next one): a hull triangle
 * whose centroid is inside or on another mesh geom of the object is not
 * surface and is not drawn (its area taken out). Surfaces left without
 * area are dropped. Nonzero: out of memory. */
static int drop_inner_faces(lk_grasp_sampler *sp) {
  int maxv = 1;
  for (int i = 0; i < sp->nsurf; i++)
    if (sp->surf[i].mesh && lk_mesh_nvertex(sp->surf[i].mesh) > maxv)
      maxv = lk_mesh_nvertex(sp->surf[i].mesh);
  int *idx = LK_NEW_ARRAY(int, maxv);
  if (!idx) return 1;
  for (int i = 0; i < sp->nsurf; i++) {
    surface *g = &sp->surf[i];
    if (!g->mesh) continue;
    double prev = 0, area = 0;
    for (int t = 0; t < g->ntri; t++) {
      double at = g->cum[t] - prev;
      prev = g->cum[t];
      const int *tr = g->tri + 3 * t;
      lk_vec3 c = lk_v3_scale(
          lk_v3_add(lk_v3_add(vertex(g->mesh, tr[0]), vertex(g->mesh, tr[1])), vertex(g->mesh, tr[2])),
          1.0 / 3);
      lk_vec3 x = lk_tf_point(&g->pose, c);
      for (int j = 0; j < sp->nsurf && at > 0; j++) {
        const surface *h = &sp->surf[j];
        if (j == i || !h->mesh) continue;
        /* the files' coordinates are floats: 1e-6 of the part's size */
        double tol = 1e-6 * lk_mesh_radius(h->mesh);
        if (in_hull(h->mesh, lk_tf_inv_point(&h->pose, x), tol, idx)) at = 0;
      }
      area += at;
      g->cum[t] = area;
    }
    sp->total_area += area - g->area;
    g->area = area;
  }
  lk_free(idx);
  int k = 0;
  for (int i = 0; i < sp->nsurf; i++) {
    if (sp->surf[i].area > 0) {
      sp->surf[k++] = sp->surf[i];
    } else {
      lk_free(sp->surf[i].tri);
      lk_free(sp->surf[i].cum);
    }
  }
  sp->nsurf = k;
  return 0;
}

lk_grasp_sampler *lk_grasp_sampler_new(const lk_grasp_scene *s, const lk_grasp_sample_options *o,
                                       lk_error *err) {
  lk_error local;
  if (!err) err = &local;
  lk_error_clear(err);
  if (!s) {
    lk_error_set(err, LK_INVALID_ARGUMENT, "grasp sampler: NULL scene");
    return NULL;
  }
  lk_grasp_sampler *sp = lk_calloc(1, sizeof *sp);
  if (!sp) {
    lk_error_set(err, LK_OUT_OF_MEMORY, "grasp sampler: out of memory");
    return NULL;
  }
  sp->s = s;
  if (o)
    sp->o = *o;
  else
    lk_grasp_sample_options_default(&sp->o);
  if (sp->o.standoff_min < 0) {
    sp->o.standoff_min = 0.5 * s->reach;
    sp->o.standoff_max = s->reach;
  }
  if (!(sp->o.standoff_min >= 0 && sp->o.standoff_max >= sp->o.standoff_min) ||
      !isfinite(sp->o.standoff_max)) {
    lk_error_set(err, LK_INVALID_ARGUMENT,
                 "grasp sampler: standoff range %g..%g (need 0 <= min <= max)",
                 sp->o.standoff_min, sp->o.standoff_max);
    lk_grasp_sampler_free(sp);
    return NULL;
  }
  const lk_model *m = s->m;
  int ng = lk_model_ngeom(m);
  sp->surf = lk_calloc((size_t)(ng > 0 ? ng : 1), sizeof *sp->surf);
  if (!sp->surf) {
    lk_error_set(err, LK_OUT_OF_MEMORY, "grasp sampler: out of memory");
    lk_grasp_sampler_free(sp);
    return NULL;
  }
  sp->hull = LK_NEW_ARRAY(const lk_mesh *, ng);
  sp->hull_pose = LK_NEW_ARRAY(lk_transform, ng);
  if (!sp->hull || !sp->hull_pose) {
    lk_error_set(err, LK_OUT_OF_MEMORY, "grasp sampler: out of memory");
    lk_grasp_sampler_free(sp);
    return NULL;
  }
  sp->maxv = 1;
  for (int g = 0; g < ng; g++) {
    if (lk_model_geom_link(m, g) != s->object) continue;
    lk_geom_spec gs;
    lk_model_geom(m, g, &gs);
    if (gs.type == LK_GEOM_MESH && gs.mesh) {
      sp->hull[sp->nhull] = gs.mesh;
      sp->hull_pose[sp->nhull++] = gs.pose;
      if (lk_mesh_nvertex(gs.mesh) > sp->maxv) sp->maxv = lk_mesh_nvertex(gs.mesh);
    }
    surface *sf = &sp->surf[sp->nsurf];
    double a;
    if (gs.type == LK_GEOM_MESH) {
      sf->mesh = gs.mesh;
      a = gs.mesh ? mesh_triangles(sf, gs.mesh) : 0;
      if (!(a > 0)) {
        int oom = !sf->tri || !sf->cum;
        lk_free(sf->tri);
        lk_free(sf->cum);
        memset(sf, 0, sizeof *sf);
        if (!oom) continue;
        lk_error_set(err, LK_OUT_OF_MEMORY, "grasp sampler: out of memory");
        lk_grasp_sampler_free(sp);
        return NULL;
      }
    } else {
      a = surface_area(gs.type, gs.size);
      if (!(a > 0)) continue;
    }
    sp->nsurf++;
    sf->type = gs.type;
    memcpy(sf->size, gs.size, sizeof sf->size);
    sf->pose = gs.pose;
    sf->area = a;
    sp->total_area += a;
  }
  if (drop_inner_faces(sp)) {
    lk_error_set(err, LK_OUT_OF_MEMORY, "grasp sampler: out of memory");
    lk_grasp_sampler_free(sp);
    return NULL;
  }
  lk_data *d = lk_data_new(m);
  if (!d || lk_forward_kinematics(m, d)) {
    lk_data_free(d);
    lk_error_set(err, LK_OUT_OF_MEMORY, "grasp sampler: out of memory");
    lk_grasp_sampler_free(sp);
    return NULL;
  }
  lk_transform hand = lk_grasp_scene_hand_frame(s, d);
  const lk_transform *palm = &hand;
  /* The hand open (at its pre-shape, loops closed): the tips' jaw. */
  lk_data *dp = lk_data_new(m);
  lk_transform hand_open = lk_tf_identity();
  int open_ok = dp && !lk_grasp_scene_pose_q(s, lk_data_q(dp), &hand_open, NULL, NULL) &&
                !lk_grasp_scene_close_loops(s, dp, 1e-12);
  if (open_ok) hand_open = lk_grasp_scene_hand_frame(s, dp);
  double tip_depth = 0;
  int tip_geom[2] = {-1, -1};
  int jaw = jaw_axis(s, &sp->close_axis);
  int tip_jaw = !jaw && open_ok &&
                tip_jaw_axis(s, dp, &hand_open, &sp->close_axis, &tip_depth, tip_geom);
  sp->kind = sp->o.kind;
  if (sp->kind == LK_SAMPLE_AUTO)
    sp->kind = jaw || tip_jaw ? LK_SAMPLE_ANTIPODAL : LK_SAMPLE_SURFACE;
  if (sp->kind == LK_SAMPLE_ANTIPODAL && !jaw && !tip_jaw) {
    lk_data_free(d);
    lk_data_free(dp);
    lk_error_set(err, LK_INVALID_ARGUMENT,
                 "grasp sampler: antipodal sampling needs a parallel-jaw hand (two fingers on "
                 "prismatic joints with opposite axes, or two fingers whose tips face each "
                 "other across the approach)");
    lk_grasp_sampler_free(sp);
    return NULL;
  }
  if (sp->kind != LK_SAMPLE_UNIFORM && sp->nsurf == 0) {
    lk_data_free(d);
    lk_data_free(dp);
    lk_error_set(err, LK_UNSUPPORTED,
                 "grasp sampler: %s sampling needs the object's surface, and it has no "
                 "solid geoms to sample (use uniform)",
                 lk_grasp_sample_kind_name(sp->kind));
    lk_grasp_sampler_free(sp);
    return NULL;
  }
  /* The grip depth: the fingers' geoms' centres below the palm at the
   * pre-shape, averaged; for a jaw of fingertips, the tips' depth (the
   * knuckles above them grip nothing). */
  double depth = 0;
  int nd = 0;
  for (int g = 0; g < ng; g++) {
    int l = lk_model_geom_link(m, g);
    if (l <= 0 || s->finger_of_link[l] < 0) continue;
    lk_geom_spec gs;
    lk_model_geom(m, g, &gs);
    lk_transform w = lk_tf_mul(lk_data_link_pose(d, l), &gs.pose);
    depth += -lk_tf_inv_point(palm, w.p).z;
    nd++;
  }
  sp->grip_depth = nd ? depth / nd : 0.5 * s->reach;
  if (tip_jaw && sp->kind == LK_SAMPLE_ANTIPODAL) sp->grip_depth = tip_depth;
  /* The opening of a jaw of tips: from finger 0's tip's innermost point
   * along the closing axis to finger 1's, the hand open (the geoms' boxes
   * in the hand frame, their corners on the axis: never wider than the
   * tips are apart). */
  sp->opening = INFINITY;
  if (tip_jaw && sp->kind == LK_SAMPLE_ANTIPODAL) {
    lk_vec3 ax = lk_v3_normalize(sp->close_axis);
    double in0 = -INFINITY, in1 = INFINITY;
    for (int f = 0; f < 2; f++) {
      int g = tip_geom[f], l = lk_model_geom_link(m, g);
      lk_geom_spec gs;
      lk_model_geom(m, g, &gs);
      lk_transform w = lk_tf_mul(lk_data_link_pose(dp, l), &gs.pose);
      lk_transform in_palm = lk_tf_inv_mul(&hand_open, &w);
      lk_vec3 lo, hi;
      if (lk_grasp_shape_aabb(gs.type, gs.size, gs.mesh, &in_palm, &lo, &hi) != LK_OK) continue;
      for (int c = 0; c < 8; c++) {
        double x = lk_v3_dot(lk_v3(c & 1 ? hi.x : lo.x, c & 2 ? hi.y : lo.y, c & 4 ? hi.z : lo.z),
                             ax);
        if (f == 0)
          in0 = fmax(in0, x);
        else
          in1 = fmin(in1, x);
      }
    }
    if (isfinite(in0) && isfinite(in1) && in1 > in0) sp->opening = in1 - in0;
  }
  lk_data_free(dp);
  sp->palm_front = -INFINITY;
  for (int g = 0; g < ng; g++) {
    int l = lk_model_geom_link(m, g);
    if (l <= 0 || !s->hand_link[l] || s->finger_of_link[l] >= 0) continue;
    lk_geom_spec gs;
    lk_model_geom(m, g, &gs);
    lk_transform w = lk_tf_mul(lk_data_link_pose(d, l), &gs.pose);
    lk_transform in_palm = lk_tf_inv_mul(palm, &w);
    lk_vec3 lo, hi;
    if (lk_grasp_shape_aabb(gs.type, gs.size, gs.mesh, &in_palm, &lo, &hi) == LK_OK)
      sp->palm_front = fmax(sp->palm_front, -lo.z);
  }
  lk_data_free(d);
  return sp;
}

lk_grasp_sample_kind lk_grasp_sampler_kind(const lk_grasp_sampler *sp) {
  return sp ? sp->kind : LK_SAMPLE_AUTO;
}

/* The palm frame whose z axis is a (from the object towards the palm) and
 * whose x axis is orthogonal(a) turned by roll about a. */
static lk_mat3 palm_frame(lk_vec3 a, double roll) {
  lk_vec3 x0 = orthogonal(a), y0 = lk_v3_cross(a, x0);
  lk_vec3 x = lk_v3_add(lk_v3_scale(x0, cos(roll)), lk_v3_scale(y0, sin(roll)));
  lk_vec3 y = lk_v3_cross(a, x);
  lk_mat3 R = {{{x.x, y.x, a.x}, {x.y, y.y, a.y}, {x.z, y.z, a.z}}};
  return R;
}

/* The pose's orientation kept as the unit quaternion a CSV prints (and
 * its matrix), so that a pose read back repeats the trial bit for bit. */
static void finish(lk_grasp_candidate *c) {
  c->q = lk_q_from_mat3(&c->pose.R);
  c->pose.R = lk_q_to_mat3(c->q);
}

lk_status lk_grasp_sampler_draw(const lk_grasp_sampler *sp, int index, lk_grasp_candidate *c,
                                lk_error *err) {
  if (!sp || !c || index < 0)
    return lk_error_set(err, LK_INVALID_ARGUMENT, "grasp sampler: bad arguments");
  memset(c, 0, sizeof *c);
  c->index = index;
  c->round = 0;
  uint64_t x = stream(sp->o.seed, index, 0);
  const lk_vec3 com = sp->s->object_com;
  double st = sp->o.standoff_min + (sp->o.standoff_max - sp->o.standoff_min) * uniform01(&x);
  c->standoff = st;
  if (sp->kind == LK_SAMPLE_UNIFORM) {
    c->approach = unit_sphere(&x);
    c->roll = 2 * LK_PI * uniform01(&x);
    c->pose.R = palm_frame(c->approach, c->roll);
    c->pose.p = lk_v3_madd(com, c->approach, st);
    c->center = com;
    finish(c);
    return LK_OK;
  }
  /* A surface point by area (object frame) and its outward normal;
   * antipodal, drawn again (up to 32 times, from the candidate's own
   * stream) while the object is wider there than the open jaws: such a
   * candidate can only collide (Dex-Net's antipodal pairs are likewise
   * kept within the gripper's width, Mahler et al. 2017). */
  const surface *sf = NULL;
  lk_vec3 p = lk_v3_zero(), n = lk_v3_zero();
  double width = 0;
  int *idx = NULL;
  if (sp->kind == LK_SAMPLE_ANTIPODAL && sp->nhull > 1) {
    idx = LK_NEW_ARRAY(int, sp->maxv);
    if (!idx) return lk_error_set(err, LK_OUT_OF_MEMORY, "grasp sampler: out of memory");
  }
  for (int tries = 0; tries < 32; tries++) {
    double t = uniform01(&x) * sp->total_area;
    int g = 0;
    while (g + 1 < sp->nsurf && t >= sp->surf[g].area) t -= sp->surf[g++].area;
    sf = &sp->surf[g];
    lk_vec3 pl, nl;
    surface_point(sf, &x, &pl, &nl);
    p = lk_tf_point(&sf->pose, pl);
    n = lk_tf_dir(&sf->pose, nl);
    if (sp->kind != LK_SAMPLE_ANTIPODAL) break;
    lk_vec3 nlocal = lk_m3_tmulv(&sf->pose.R, n);
    width = support(sf, nlocal) + support(sf, lk_v3_neg(nlocal));
    if (idx) width = width_across_parts(sp, p, n, width, idx);
    if (width <= sp->opening) break;
  }
  lk_free(idx);
  c->surface_point = p;
  c->surface_normal = n;
  if (sp->kind == LK_SAMPLE_SURFACE) {
    /* The palm faces the surface point from outside, the fingers reaching
     * towards it. */
    c->approach = n;
    c->roll = 2 * LK_PI * uniform01(&x);
    c->pose.R = palm_frame(n, c->roll);
    c->pose.p = lk_v3_madd(p, n, st);
    c->center = p;
    finish(c);
    return LK_OK;
  }
  /* Antipodal: the jaws' closing axis along n, straddling the geom's width
   * along n (the mid-plane between its two support planes), the approach
   * a direction across n drawn around it, the jaws' grip depth below the
   * palm at the centre (standoff: how much farther out, up to a tenth of
   * the reach, so that the pads cover the centre). */
  lk_vec3 center = lk_v3_madd(p, n, -0.5 * width);
  lk_vec3 u = orthogonal(n), v = lk_v3_cross(n, u);
  /* The approach: a direction across n; for a jaw of tips, the one of 4
   * drawn along which the object reaches least far towards the palm from
   * the centre (the knuckles above the tips close less wide than the tips
   * open: the object must stay clear of them). */
  double phi = 0, toward = INFINITY;
  lk_vec3 a = u;
  for (int k = 0; k < (isfinite(sp->opening) ? 4 : 1); k++) {
    double ph = 2 * LK_PI * uniform01(&x);
    lk_vec3 ak = lk_v3_add(lk_v3_scale(u, cos(ph)), lk_v3_scale(v, sin(ph)));
    double tw = -INFINITY;
    for (int i = 0; i < sp->nsurf; i++) {
      const surface *gi = &sp->surf[i];
      tw = fmax(tw, support(gi, lk_m3_tmulv(&gi->pose.R, ak)) +
                        lk_v3_dot(lk_v3_sub(gi->pose.p, center), ak));
    }
    if (tw < toward) {
      toward = tw;
      phi = ph;
      a = ak;
    }
  }
  /* The palm frame with z = a and its closing axis (palm coordinates)
   * along n: x = closing x a's orthogonal complement... built directly. */
  lk_vec3 ca = lk_v3_normalize(sp->close_axis);
  /* Rows: palm axes in object coordinates. z_p = a; the palm axis ca must
   * map to n. With ca orthogonal to z (a jaw closes across its approach),
   * ca = cos(b) x_p + sin(b) y_p for some b in the palm frame. */
  double b = atan2(ca.y, ca.x);
  lk_vec3 xw = lk_v3_add(lk_v3_scale(n, cos(b)), lk_v3_scale(lk_v3_cross(a, n), -sin(b)));
  lk_vec3 yw = lk_v3_cross(a, xw);
  lk_mat3 R = {{{xw.x, yw.x, a.x}, {xw.y, yw.y, a.y}, {xw.z, yw.z, a.z}}};
  c->approach = a;
  c->roll = phi;
  c->pose.R = R;
  double depth = sp->grip_depth + 0.1 * sp->s->reach * uniform01(&x);
  /* Not so deep that the palm meets the object (a palm that reaches far
   * between the fingers, as the Panda hand's): the object's extent from
   * the centre towards the palm, beyond the palm's front, while the
   * fingertips still reach past the centre. */
  double clear = sp->palm_front + toward + 1e-3 * sp->s->reach;
  if (depth < clear && clear < sp->s->reach) depth = clear;
  c->standoff = depth;
  c->pose.p = lk_v3_madd(center, a, depth);
  c->center = center;
  finish(c);
  return LK_OK;
}

lk_status lk_grasp_candidate_perturb(const lk_grasp_sampler *sp, const lk_grasp_candidate *in,
                                     int round, double translation, double rotation,
                                     lk_grasp_candidate *out, lk_error *err) {
  if (!sp || !in || !out || round < 1 || !(translation >= 0) || !(rotation >= 0))
    return lk_error_set(err, LK_INVALID_ARGUMENT, "grasp perturb: bad arguments");
  lk_grasp_candidate c = *in;
  uint64_t x = stream(sp->o.seed, in->index, round);
  /* A rotation about the grasp centre by an angle up to `rotation` about
   * a random axis, and a shift up to `translation` in a random direction. */
  lk_vec3 axis = unit_sphere(&x);
  double ang = rotation * (2 * uniform01(&x) - 1);
  lk_vec3 dir = unit_sphere(&x);
  double dist = translation * uniform01(&x);
  lk_mat3 dR = lk_m3_from_axis_angle(axis, ang);
  lk_vec3 rel = lk_v3_sub(c.pose.p, c.center);
  c.pose.R = lk_m3_mul(&dR, &in->pose.R);
  c.pose.p = lk_v3_add(lk_v3_add(c.center, lk_m3_mulv(&dR, rel)), lk_v3_scale(dir, dist));
  c.center = lk_v3_add(c.center, lk_v3_scale(dir, dist));
  c.approach = lk_m3_col(&c.pose.R, 2);
  c.round = round;
  finish(&c);
  *out = c;
  return LK_OK;
}
