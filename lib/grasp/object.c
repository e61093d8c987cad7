/* An object given as a mesh file (grasp-planner --object mug.stl --mass
 * 0.3): one link on a free joint with a mesh geom per part of the file (a
 * file of one non-convex part: per convex part of it, lk_mesh_decompose),
 * its mass properties from the hulls (lk_mesh_volume, _centroid,
 * _inertia: volume integrals over the faces) at a uniform density, the
 * parts combined about their common centroid by the parallel-axis rule. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/internal.h"
#include "linkage/grasp.h"
#include "linkage/io.h"

void lk_grasp_mesh_object_default(lk_grasp_mesh_object *o) {
  if (!o) return;
  memset(o, 0, sizeof *o);
  o->scale = 1;
  o->mu_static = 0.5;
  o->mu_dynamic = 0.4;
  o->hull_tolerance = 0.05;
  lk_mesh_decompose_options_default(&o->decompose);
}

/* A file of one part: decomposed when it is not convex (or kept as its
 * hull when asked), the report and its warning filled. */
static lk_status decompose_single(const char *path, const lk_grasp_mesh_object *o, lk_mesh ***part,
                                  int *np, lk_grasp_mesh_object_report *rep, lk_error *err) {
  const lk_mesh_decompose_options *d = &o->decompose;
  if (d->max_parts < 1 || d->planes < 1 || !(d->max_excess >= 0) || !isfinite(d->max_excess))
    return lk_error_set(err, LK_INVALID_ARGUMENT,
                        "mesh object %s: decompose options: max_parts %d, planes %d must be >= 1, "
                        "max_excess %g >= 0",
                        path, d->max_parts, d->planes, d->max_excess);
  if (!(o->hull_tolerance >= 0) || !isfinite(o->hull_tolerance))
    return lk_error_set(err, LK_INVALID_ARGUMENT, "mesh object %s: hull_tolerance %g must be >= 0",
                        path, o->hull_tolerance);
  if (lk_mesh_surface((*part)[0], NULL, NULL, NULL) <= 0) return LK_OK;
  /* First the surface's volume against its hull's (one part: no cut). */
  lk_mesh_decompose_options one = *d;
  one.max_parts = 1;
  lk_mesh **dp = NULL;
  int dn = 0;
  lk_mesh_decompose_report dr;
  lk_error de;
  lk_status st = lk_mesh_decompose((*part)[0], &one, &dp, &dn, &dr, &de);
  lk_mesh_parts_free(dp, dn);
  dp = NULL;
  if (st == LK_OUT_OF_MEMORY) {
    if (err) *err = de;
    return st;
  }
  if (st) {
    snprintf(rep->warning, sizeof rep->warning,
             "%s: one part whose surface is not closed: the object is its convex hull (how much "
             "volume that adds is not known)",
             path);
    return LK_OK;
  }
  rep->volume = dr.volume;
  rep->hull_volume = dr.hull_volume;
  double add = 100 * (dr.hull_volume - dr.volume) / dr.volume;
  if (!(dr.hull_volume - dr.volume > d->max_excess * dr.volume)) return LK_OK; /* convex */
  if (o->keep_hull || !(dr.hull_volume - dr.volume > o->hull_tolerance * dr.volume)) {
    snprintf(rep->warning, sizeof rep->warning,
             "%s: one part, not convex: the object is its convex hull (%s), which adds %.1f %% "
             "to its volume of %.4g m^3",
             path, o->keep_hull ? "keep_hull" : "within hull_tolerance", add, dr.volume);
    return LK_OK;
  }
  if ((st = lk_mesh_decompose((*part)[0], d, &dp, &dn, &dr, &de))) {
    if (err) *err = de;
    return st;
  }
  if (dn < 2) { /* no cut found: the part as it is */
    lk_mesh_parts_free(dp, dn);
    snprintf(rep->warning, sizeof rep->warning,
             "%s: one part, not convex, that could not be cut: the object is its convex hull, "
             "which adds %.1f %% to its volume of %.4g m^3",
             path, add, dr.volume);
    return LK_OK;
  }
  snprintf(rep->warning, sizeof rep->warning,
           "%s: one part, not convex: its convex hull would add %.1f %% to its volume of %.4g "
           "m^3; decomposed into %d convex parts instead (they add %.2f %%; keep_hull, "
           "grasp-planner --keep-hull, keeps the hull)",
           path, add, dr.volume, dn, 100 * (dr.parts_volume - dr.volume) / dr.volume);
  lk_mesh_parts_free(*part, *np);
  *part = dp;
  *np = dn;
  rep->decomposed = 1;
  return LK_OK;
}

static void free_parts(lk_mesh **part, int n) {
  for (int i = 0; i < n; i++) lk_mesh_free(part[i]);
  lk_free(part);
}

/* Every part of the file, in order (a file of one part: one mesh). */
static lk_status load_parts(const char *path, double scale, lk_mesh ***out, int *nout,
                            lk_error *err) {
  double sc[3] = {scale, scale, scale};
  lk_mesh **part = NULL;
  int n = 0, cap = 0;
  for (;;) {
    lk_mesh *mesh = NULL;
    lk_error e;
    lk_error_clear(&e);
    lk_status st = lk_mesh_load_part(path, n, sc, &mesh, &e);
    /* Past the last part (the file is read, the part does not exist). */
    if (st == LK_INVALID_ARGUMENT && n > 0) break;
    if (st) {
      free_parts(part, n);
      if (err) *err = e;
      return st;
    }
    if (n == cap) {
      int nc = cap ? 2 * cap : 8;
      lk_mesh **np = lk_realloc(part, (size_t)nc * sizeof *np);
      if (!np) {
        lk_mesh_free(mesh);
        free_parts(part, n);
        return lk_error_set(err, LK_OUT_OF_MEMORY, "mesh object: out of memory");
      }
      part = np;
      cap = nc;
    }
    part[n++] = mesh;
  }
  *out = part;
  *nout = n;
  return LK_OK;
}

lk_status lk_grasp_add_mesh_object(lk_model *m, const char *name, const char *path,
                                   const lk_grasp_mesh_object *o, lk_error *err) {
  if (!m || !name || !*name || !path || !o)
    return lk_error_set(err, LK_INVALID_ARGUMENT, "mesh object: NULL model, name, path or options");
  if (!(o->mass > 0) || !isfinite(o->mass))
    return lk_error_set(err, LK_INVALID_ARGUMENT, "mesh object %s: mass %g must be > 0", path,
                        o->mass);
  if (!(o->scale > 0) || !isfinite(o->scale))
    return lk_error_set(err, LK_INVALID_ARGUMENT, "mesh object %s: scale %g must be > 0", path,
                        o->scale);
  lk_mesh **part = NULL;
  int np = 0;
  lk_status st = load_parts(path, o->scale, &part, &np, err);
  if (st) return st;
  lk_grasp_mesh_object_report rep;
  memset(&rep, 0, sizeof rep);
  rep.file_parts = np;
  if (np == 1 && (st = decompose_single(path, o, &part, &np, &rep, err))) {
    free_parts(part, np);
    return st;
  }
  /* Mass properties in the file's frame. */
  double V = 0, zmin = INFINITY;
  lk_vec3 com = lk_v3_zero();
  for (int i = 0; i < np; i++) {
    double v = lk_mesh_volume(part[i]);
    V += v;
    com = lk_v3_madd(com, lk_mesh_centroid(part[i]), v);
    lk_vec3 lo, hi;
    lk_mesh_bounds(part[i], &lo, &hi);
    zmin = fmin(zmin, lo.z);
  }
  com = lk_v3_scale(com, 1 / V);
  double rho = o->mass / V;
  lk_mat3 I = lk_m3_zero();
  for (int i = 0; i < np; i++) {
    double v = lk_mesh_volume(part[i]);
    lk_mat3 Iu = lk_mesh_inertia(part[i]);
    lk_vec3 d = lk_v3_sub(lk_mesh_centroid(part[i]), com);
    double d2 = lk_v3_norm2(d);
    lk_mat3 dd = lk_m3_outer(d, d);
    for (int r = 0; r < 3; r++)
      for (int c = 0; c < 3; c++)
        I.m[r][c] += rho * (Iu.m[r][c] + v * ((r == c ? d2 : 0) - dd.m[r][c]));
  }
  for (int r = 0; r < 3; r++)
    for (int c = r + 1; c < 3; c++) I.m[r][c] = I.m[c][r] = 0.5 * (I.m[r][c] + I.m[c][r]);
  rep.parts = np;
  rep.parts_volume = V;
  if (o->report) *o->report = rep;

  char mat[LK_ERROR_MESSAGE_MAX];
  snprintf(mat, sizeof mat, "%s_material", name);
  lk_material_spec ms;
  lk_material_spec_default(&ms);
  ms.name = mat;
  ms.mu_static = o->mu_static;
  ms.mu_dynamic = o->mu_dynamic;
  st = lk_model_add_material(m, &ms, err);
  if (!st) {
    lk_link_spec ls;
    lk_link_spec_default(&ls);
    ls.name = name;
    ls.joint.type = LK_JOINT_FREE;
    /* Standing at the origin: the link frame is the file's, moved. */
    ls.origin = lk_tf_identity();
    ls.origin.p = lk_v3(-com.x, -com.y, -zmin);
    ls.mass = o->mass;
    ls.com = com;
    ls.inertia = I;
    st = lk_model_add_link(m, &ls, err);
  }
  for (int i = 0; i < np && !st; i++) {
    lk_geom_spec gs;
    lk_geom_spec_default(&gs);
    gs.link = name;
    gs.type = LK_GEOM_MESH;
    gs.mesh = part[i];
    gs.material = mat;
    st = lk_model_add_geom(m, &gs, err);
  }
  free_parts(part, np);
  return st;
}
