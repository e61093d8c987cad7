/* Mass properties of the solid a closed triangle mesh bounds (not its
 * hull): lib/model/mesh_solid.c. Not installed. */
#ifndef LK_MODEL_MESH_SOLID_H
#define LK_MODEL_MESH_SOLID_H

#include "linkage/math.h"

/* Volume, centroid and inertia about the centroid at unit density. */
typedef struct {
  double volume;
  lk_vec3 centroid;
  lk_mat3 inertia;
} lk_mesh_solid;

/* Sums over the triangles so far (relative to ref: the apex given, or
 * the first vertex seen, against cancellation). */
typedef struct {
  int started;
  int absolute; /* each tetrahedron counted positive (MuJoCo's legacy) */
  lk_vec3 ref;
  double v;      /* sum of signed tetrahedron volumes */
  lk_vec3 s;     /* sum of volume x tetrahedron centroid */
  double c[3][3]; /* sum of the tetrahedra's second moments */
  long ntri;
} lk_mesh_solid_acc;

/* apex: the tetrahedra's common vertex (NULL: the first vertex seen);
 * absolute: count every tetrahedron positive, as MuJoCo's legacy rule does
 * with the apex at the surface's centroid (for a convex solid, or one
 * star-shaped about the apex, the same solid). */
void lk_mesh_solid_begin(lk_mesh_solid_acc *acc, const lk_vec3 *apex, int absolute);
/* One triangle a, b, c, counter-clockwise seen from outside. */
void lk_mesh_solid_add(lk_mesh_solid_acc *acc, lk_vec3 a, lk_vec3 b, lk_vec3 c);
/* The solid; LK_OK, or LK_INVALID_MODEL when the volume is not a positive
 * finite number (an open surface, no triangles). A surface wound inside
 * out (every triangle clockwise, as a mirroring scale makes it) gives the
 * same solid. */
lk_status lk_mesh_solid_end(const lk_mesh_solid_acc *acc, lk_mesh_solid *out);

/* The same sums read about their apex: volume, the apex as the centroid,
 * the inertia about the apex (MuJoCo's legacy rule, whose apex for this
 * is the centroid of a first pass). */
lk_status lk_mesh_solid_end_at_apex(const lk_mesh_solid_acc *acc, lk_mesh_solid *out);

/* The surface's centroid (its triangles' centroids weighted by their
 * areas): MuJoCo's apex for the legacy rule. */
typedef struct {
  double area;
  lk_vec3 sum;
} lk_mesh_area_acc;
void lk_mesh_area_add(lk_mesh_area_acc *acc, lk_vec3 a, lk_vec3 b, lk_vec3 c);
/* The volume of the box whose inertia about its centre is s's (unit
 * density): sides sqrt(6 (J2 + J3 - J1) / V) ..., their product. MuJoCo
 * 2.2.2 gives a mesh the mass of this box ("the old computation inferred
 * the volume of the object from the inertia box", MuJoCo issue #1472),
 * equal to the solid's own volume only for a box. */
double lk_mesh_solid_box_volume(const lk_mesh_solid *s);

#endif
