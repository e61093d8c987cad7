/* The layout of an lk_mesh (a convex hull), read by the collision layer
 * (not installed). Everything lives in one block, so a copy is one
 * allocation and one memcpy (lk_mesh_copy rebases the pointers). */
#ifndef LK_MODEL_MESH_IMPL_H
#define LK_MODEL_MESH_IMPL_H

#include <stddef.h>

#include "linkage/model.h"

/* A face has at most this many vertices: qhull's merged faces with more
 * (a finely tessellated cap) are cut into fans of this size, so that the
 * collision layer clips polygons in fixed stack buffers. */
#define LK_MESH_FACE_MAX 64

struct lk_mesh {
  size_t bytes; /* the whole block, this header included */
  int nv, nf, nfv, ninput;
  double *v;    /* 3 nv: hull vertices, geom frame */
  int *fstart;  /* nf + 1: face f is fvert[fstart[f] .. fstart[f+1]) */
  int *fvert;   /* nfv: counter-clockwise seen from outside */
  double *fn;   /* 3 nf: unit outward normals */
  double *fd;   /* nf: the face's plane is fn . x = fd (the largest
                   fn . v of its vertices) */
  int *vstart;  /* nv + 1: vertex i's faces are vface[vstart[i] .. vstart[i+1]) */
  int *vface;   /* nfv */
  int *vnext;   /* nfv: vertex i's successor in that face (its neighbours) */
  int nsv, nst; /* the surface given with the vertices (0, 0: none) */
  double *sv;   /* 3 nsv: its vertices, scaled, geom frame */
  int *st;      /* 3 nst: its triangles */
  int extreme[6]; /* the vertices of largest +x, -x, +y, -y, +z, -z: where
                     the support search starts */
  double radius;
  double lo[3], hi[3];
  double volume;
  lk_vec3 centroid;
  lk_mat3 inertia; /* about the centroid, density 1 */
};

/* The vertex of m farthest along d (geom frame): hill climbing over the
 * vertex graph from the best extreme vertex (a local maximum of a linear
 * function on a convex polytope is the global one); a brute-force scan for
 * small hulls. Ties go to the first vertex found, deterministically. */
int lk_mesh_support(const lk_mesh *m, lk_vec3 d);

/* Among the faces around vertex v, the one whose normal is closest to the
 * unit direction d; its cosine in *cosine. */
int lk_mesh_face_toward(const lk_mesh *m, int v, lk_vec3 d, double *cosine);

#endif
