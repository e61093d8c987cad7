/* Narrow phase internals shared by the pair routines (not installed).
 *
 * Every pair routine takes shapes a and b with type(a) >= type(b) in the
 * lk_geom_type order (plane < sphere < capsule < box < cylinder < mesh), so the
 * plane is always b; the dispatcher (narrow.c) swaps the arguments and
 * negates the normals for the other order. Routines append points with
 * depth >= -margin to an empty manifold; the dispatcher sorts them by
 * feature. */
#ifndef LK_COL_SHAPE_H
#define LK_COL_SHAPE_H

#include "linkage/collision.h"

typedef struct {
  lk_geom_type type;
  double size[3];
  lk_transform X;     /* world pose */
  const lk_mesh *mesh; /* LK_GEOM_MESH: the hull, in the shape's frame */
} lk_shape;

/* Sine of the angle below which a direction counts as perpendicular to a
 * face or an axis, so that resting faces give full manifolds despite
 * rounding and tiny tilts. A flat contact reported with this slack
 * misplaces the deepest point by at most about 1e-3 of the feature size. */
#define LK_COL_FLAT_TOL 1e-3

/* Append a point from the point pa on a's surface and pb on b's surface;
 * normal n from b to a. pos is the midpoint. No-op when the manifold is
 * full (routines never produce more than LK_MANIFOLD_MAX). */
void lk_col_emit(lk_manifold *out, lk_vec3 pa, lk_vec3 pb, lk_vec3 n, double depth,
                 unsigned feature);

/* Closest points of segments p1-q1 and p2-q2 (Ericson, "Real-Time Collision
 * Detection", 2005, 5.1.9): parameters s, t in [0, 1] and the points. */
void lk_col_segments_closest(lk_vec3 p1, lk_vec3 q1, lk_vec3 p2, lk_vec3 q2, double *s,
                             double *t, lk_vec3 *c1, lk_vec3 *c2);

/* Two sphere-swept points: centres ca, cb, radii ra, rb. fallback is the
 * normal used when the centres coincide. */
void lk_col_spheres(lk_vec3 ca, double ra, lk_vec3 cb, double rb, lk_vec3 fallback, double margin,
                    unsigned feature, lk_manifold *out);

/* ---- pair routines (type(a) >= type(b)) ---- */
void lk_col_sphere_plane(const lk_shape *a, const lk_shape *b, double margin, lk_manifold *out);
void lk_col_capsule_plane(const lk_shape *a, const lk_shape *b, double margin, lk_manifold *out);
void lk_col_box_plane(const lk_shape *a, const lk_shape *b, double margin, lk_manifold *out);
void lk_col_cylinder_plane(const lk_shape *a, const lk_shape *b, double margin, lk_manifold *out);
void lk_col_sphere_sphere(const lk_shape *a, const lk_shape *b, double margin, lk_manifold *out);
void lk_col_capsule_sphere(const lk_shape *a, const lk_shape *b, double margin, lk_manifold *out);
void lk_col_capsule_capsule(const lk_shape *a, const lk_shape *b, double margin,
                            lk_manifold *out);
void lk_col_box_sphere(const lk_shape *a, const lk_shape *b, double margin, lk_manifold *out);
void lk_col_box_capsule(const lk_shape *a, const lk_shape *b, double margin, lk_manifold *out);
void lk_col_box_box(const lk_shape *a, const lk_shape *b, double margin, lk_manifold *out);
void lk_col_cylinder_sphere(const lk_shape *a, const lk_shape *b, double margin,
                            lk_manifold *out);
/* Any two of sphere, capsule, box, cylinder, through GJK/EPA and support
 * features (convex.c); used for the cylinder pairs, and by the tests as an
 * independent check of the closed forms. */
void lk_col_convex(const lk_shape *a, const lk_shape *b, double margin, lk_manifold *out);

/* A mesh (convex hull) with every other type (hull.c): vertices against a
 * plane; GJK/EPA, then the reference face of either hull clipped against
 * the incident one for face contacts (see hull.c). */
void lk_col_mesh_plane(const lk_shape *a, const lk_shape *b, double margin, lk_manifold *out);
void lk_col_mesh_sphere(const lk_shape *a, const lk_shape *b, double margin, lk_manifold *out);
void lk_col_mesh_capsule(const lk_shape *a, const lk_shape *b, double margin, lk_manifold *out);
void lk_col_mesh_box(const lk_shape *a, const lk_shape *b, double margin, lk_manifold *out);
void lk_col_mesh_cylinder(const lk_shape *a, const lk_shape *b, double margin, lk_manifold *out);
void lk_col_mesh_mesh(const lk_shape *a, const lk_shape *b, double margin, lk_manifold *out);

/* The dispatcher without argument checks (the model validated the sizes). */
void lk_col_collide(const lk_shape *a, const lk_shape *b, double margin, lk_manifold *out);

/* Bounding radius of a shape about its origin (INFINITY for a plane). */
double lk_col_bound_radius(lk_geom_type type, const double size[3], const lk_mesh *mesh);

/* World AABB as lo[3], hi[3] (bounded types only). */
void lk_col_aabb(const lk_shape *s, double margin, double lo[3], double hi[3]);

/* ---- GJK / EPA (gjk.c) on the "core" of a shape: a box, a cylinder, the
 * segment of a capsule or the centre of a sphere (their radius is added by
 * the caller: van den Bergen, "Collision Detection in Interactive 3D
 * Environments", 2003, 4.3.5). */
typedef struct {
  int intersect;  /* the cores overlap (or touch within tolerance) */
  double dist;    /* separated: distance between the cores */
  double depth;   /* intersecting: penetration depth of the cores (EPA) */
  lk_vec3 normal; /* unit, from b to a (separated: (pa - pb) / dist) */
  lk_vec3 pa, pb; /* witness points on the cores */
  int ok;         /* 0 when EPA failed on degenerate input (then normal and
                     depth are estimates) */
} lk_gjk_result;

void lk_col_gjk_epa(const lk_shape *a, const lk_shape *b, lk_gjk_result *r);

/* ---- clipping and reduction (clip.c) ---- */

/* A candidate point of a face manifold: a point of the incident feature,
 * its depth below the reference feature and its code within the pair. */
typedef struct {
  lk_vec3 p;
  double depth;
  unsigned code;
} lk_col_cand;

#define LK_COL_CLIP_MAX 16

/* Clip the convex polygon v[0..n-1] (n = 2: a segment) lying roughly in a
 * plane perpendicular to the reference normal against the reference
 * rectangle (centre c, unit axes eu, ev, half extents hu, hv; hv may be
 * INFINITY for a slab) seen along that normal. Points within tol outside a
 * side are kept. Codes: 0..n-1 an incident vertex, 4 + 4 e + s incident
 * edge e (from v[e] to v[e+1]) cut by side s (0 +u, 1 +v, 2 -u, 3 -v),
 * 20 + k a reference corner. Returns the number of points (<= 16). */
int lk_col_clip_rect(const lk_vec3 *v, int n, lk_vec3 c, lk_vec3 eu, lk_vec3 ev, double hu,
                     double hv, double tol, lk_vec3 *out, unsigned *codes);

/* The same against the disk of radius r (centre c, in-plane axes eu, ev).
 * Codes: 0..n-1 incident vertices, 4 + 2 e + k the k-th crossing of edge e
 * with the circle. */
int lk_col_clip_disk(const lk_vec3 *v, int n, lk_vec3 c, lk_vec3 eu, lk_vec3 ev, double r,
                     double tol, lk_vec3 *out, unsigned *codes);

/* Choose at most 4 of n candidates spanning the largest area, stably (ties
 * within tol_len / tol_depth broken by the smaller code): the deepest, the
 * farthest from it, then the two making the largest triangles on either
 * side (Gregorius, "Robust Contact Creation for Physics Simulations", GDC
 * 2015). nref is the reference normal. Writes indices, returns the count. */
int lk_col_reduce(const lk_col_cand *c, int n, lk_vec3 nref, double tol_len, double tol_depth,
                  int idx[4]);

/* Emit candidates (points of the incident feature) into out: their depth
 * below the reference plane (normal nref, pointing from the reference shape
 * to the incident one, through the point c), reduced to 4, with pos the
 * midpoint of the point and its projection. normal is the contact normal
 * (from b to a); feature = base | code. Returns the number emitted. */
int lk_col_emit_face(lk_manifold *out, const lk_vec3 *pts, const unsigned *codes, int n,
                     lk_vec3 c, lk_vec3 nref, lk_vec3 normal, double margin, double scale,
                     unsigned base);

#endif
