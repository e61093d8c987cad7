/* The URDF reader: a robot description (ROS's Unified Robot Description
 * Format, http://wiki.ros.org/urdf/XML) -> the model builder (builder.h),
 * with libxml2 (xml.h). docs/format.md lists what is read, element by
 * element.
 *
 * URDF and Linkage agree on frames: a joint's <origin> is the child link's
 * frame in the parent link's frame at q = 0, its <axis> is in that frame,
 * and a link's <inertial>, <collision> and <visual> origins are in the link
 * frame, so a joint becomes the joint of its child link as it is. What
 * needs translating:
 *   - the root link (the one that is no joint's child) hangs from the world
 *     on a fixed joint, or a free one when the caller says so (a YAML
 *     include's `base: free`), as PyBullet's useFixedBase and MuJoCo do;
 *   - an inertia tensor given in a rotated frame (<inertial><origin rpy>)
 *     is turned into link axes, I = R I' R^T (symmetrized, so that the
 *     model sees an exactly symmetric tensor);
 *   - box sizes are full extents and cylinder lengths full lengths (halved
 *     here, exactly);
 *   - continuous is an unlimited revolute joint, floating a free joint;
 *     <mimic> is a coupling q = multiplier q_mimicked + offset;
 *   - <visual> shapes are kept as geoms that collide with nothing (group
 *     0, mask 0), for drawing.
 * Two passes, as the YAML reader: the first registers every link with its
 * joint (name and type) so that references are checked where they are
 * written; the second builds. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/internal.h"
#include "io/builder.h"
#include "io/io_internal.h"
#include "io/urdf.h"
#include "io/xml.h"
#include "linkage/collision.h"
#include "linkage/io.h"
#include "model/model_impl.h" /* lk_geom_volume */

typedef enum {
  U_REVOLUTE,
  U_CONTINUOUS,
  U_PRISMATIC,
  U_FIXED,
  U_FLOATING,
  U_PLANAR,
  U_NTYPES
} utype;
static const char *const kTypes[] = {"revolute", "continuous", "prismatic",
                                     "fixed",    "floating",   "planar"};
static const int kLkType[] = {LK_JOINT_REVOLUTE, LK_JOINT_REVOLUTE, LK_JOINT_PRISMATIC,
                              LK_JOINT_FIXED,    LK_JOINT_FREE,     -1};

typedef struct {
  const char *name;
  xmlNode *e;
  utype type;
  int parent, child; /* link indices */
} ujoint;

typedef struct {
  const char *name;
  xmlNode *e;
  int joint;            /* its parent joint, -1 for the root */
  lk_transform origin;  /* its joint's frame in the parent link's (identity
                           for the root): its pose with every joint at 0 */
} ulink;

/* A collision shape as the model got it, kept (its mesh too) for the
 * rest-pose overlap rule (rest_overlaps). */
typedef struct {
  int link;
  lk_geom_spec g;
} ushape;

typedef struct {
  lk_xdoc x;
  lk_builder b;
  const lk_urdf_options *uo;
  const lk_load_options *o; /* its input hook sees each mesh file */
  const char *package_path;
  ulink *links;
  int nlinks;
  ujoint *joints;
  int njoints;
  int root;
  xmlNode *world; /* a link named "world" (the ROS convention for a fixed
                     base): the world itself, not a link */
  char **mu_mats; /* materials made for PyBullet's lateral_friction */
  double *mu_val;
  int nmu;
  char novisual[400]; /* visual meshes not found: "file (line N), ..." */
  int novisual_n;
  ushape *shapes; /* the collision shapes added, in order */
  int nshapes, capshapes;
  int cur_link; /* the link whose shapes are being read */
  char nocollision[170]; /* links whose collision meshes were not found */
  int nocollision_n;
  int mesh_missing; /* the last mesh file looked for is not there (not: is
                       there and is no regular file) */
  const char *nocollision_last; /* the last link listed there */
} ureader;

#define X (&R->x)
#define B (&R->b)

void lk_urdf_options_default(lk_urdf_options *o) {
  memset(o, 0, sizeof *o);
  o->base = LK_JOINT_FIXED;
}

/* ------------------------------------------------------------- values */

/* A name as the model gets it: with the caller's prefix. */
static const char *pfx(ureader *R, const char *name) {
  if (!R->uo->prefix || !*R->uo->prefix || !name) return name;
  size_t a = strlen(R->uo->prefix), n = strlen(name);
  char *c = lk_malloc(a + n + 1);
  if (!c) return NULL;
  memcpy(c, R->uo->prefix, a);
  memcpy(c + a, name, n + 1);
  const char *out = lk_builder_strdup(B, c);
  lk_free(c);
  return out;
}

static lk_status name_attr(ureader *R, xmlNode *e, const char *ctx, const char **out) {
  const char *s = lk_xml_attr(e, "name");
  if (!s || !*s)
    return lk_xdoc_error(X, e, LK_SCHEMA_ERROR, "%s: missing required attribute 'name'", ctx);
  size_t n = strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-");
  if (s[n] || n > LK_IO_NAME_MAX)
    return lk_xdoc_error(X, e, LK_SCHEMA_ERROR,
                         "%s: name \"%.80s\" is not a valid name (use at most %d letters, digits, "
                         "'_' and '-')",
                         ctx, s, LK_IO_NAME_MAX);
  *out = s;
  return LK_OK;
}

/* <origin xyz rpy> (absent: identity). */
static lk_status origin(ureader *R, const xmlNode *parent, const char *ctx, lk_transform *out) {
  *out = lk_tf_identity();
  xmlNode *o = lk_xml_child(parent, "origin");
  if (!o) return LK_OK;
  if (lk_xml_count(parent, "origin") > 1)
    return lk_xdoc_error(X, lk_xml_next(o), LK_SCHEMA_ERROR, "%s: more than one <origin>", ctx);
  double xyz[3] = {0, 0, 0}, rpy[3] = {0, 0, 0};
  char what[200];
  snprintf(what, sizeof what, "%s: origin", ctx);
  lk_status st = lk_xdoc_doubles(X, o, "xyz", what, 3, 0, xyz);
  if (!st) st = lk_xdoc_doubles(X, o, "rpy", what, 3, 0, rpy);
  if (st) return st;
  lk_mat3 Rm = lk_m3_from_rpy(rpy[0], rpy[1], rpy[2]);
  *out = lk_tf(&Rm, lk_v3(xyz[0], xyz[1], xyz[2]));
  return LK_OK;
}

static lk_status positive(ureader *R, const xmlNode *e, const char *what, const char *attr,
                          double v) {
  if (v > 0) return LK_OK;
  return lk_xdoc_error(X, e, LK_SCHEMA_ERROR, "%s: %s must be positive, got %g", what, attr, v);
}

/* ------------------------------------------------------------- meshes */

static int is_file(const char *p) {
  struct stat s;
  return stat(p, &s) == 0 && S_ISREG(s.st_mode);
}

/* A mesh path that is not a regular file: what it is instead (the guard's
 * words: "is a FIFO (a named pipe), not a regular file"), else not found. */
static lk_status not_a_mesh(ureader *R, xmlNode *e, const char *ctx, const char *path) {
  lk_error why;
  struct stat s;
  if (stat(path, &s) == 0 && lk_io_regular_file(path, &why))
    return lk_xdoc_error(X, e, LK_IO_ERROR, "%s: mesh file '%s' %s", ctx, path, why.message);
  R->mesh_missing = 1;
  return lk_xdoc_error(X, e, LK_IO_ERROR, "%s: mesh file '%s' not found", ctx, path);
}

static int is_dir(const char *p) {
  struct stat s;
  return stat(p, &s) == 0 && S_ISDIR(s.st_mode);
}

/* Remember dir/pkg (len dlen, pl) in found when it is a directory and none
 * was found before: the package exists, the file in it may not. */
static void note_package(char *found, size_t size, const char *dir, size_t dlen) {
  if (found[0]) return;
  char d[4096];
  int n = snprintf(d, sizeof d, "%.*s", (int)dlen, dir);
  if (n > 0 && (size_t)n < sizeof d && is_dir(d)) snprintf(found, size, "%s", d);
}

/* Try dir/rest into out; 1 when it is a file. */
static int try_path(char *out, size_t size, const char *dir, size_t dlen, const char *rest) {
  int n = snprintf(out, size, "%.*s/%s", (int)dlen, dir, rest);
  return n > 0 && (size_t)n < size && is_file(out);
}

/* The directory part of the file's label ("." when it has none). */
static size_t label_dir(const char *label, const char **dir) {
  const char *slash = strrchr(label, '/');
  if (!slash) {
    *dir = ".";
    return 1;
  }
  *dir = label;
  return slash == label ? 1 : (size_t)(slash - label);
}

/* package://PKG/rest: PKG is looked for in each directory of the search
 * path (D/PKG/rest, or D/rest when D is the package itself), then among
 * the directories that hold the URDF file (the conventional
 * PKG/urdf/robot.urdf). A relative name is relative to the URDF file's
 * directory, file:// is an absolute path. */
static lk_status resolve_mesh(ureader *R, xmlNode *e, const char *ctx, const char *name, char *out,
                              size_t size) {
  if (strncmp(name, "file://", 7) == 0) {
    snprintf(out, size, "%s", name + 7);
    if (is_file(out)) return LK_OK;
    return not_a_mesh(R, e, ctx, out);
  }
  if (strncmp(name, "package://", 10) != 0) {
    if (name[0] == '/') {
      snprintf(out, size, "%s", name);
    } else {
      const char *dir;
      size_t dl = label_dir(R->x.path, &dir);
      snprintf(out, size, "%.*s/%s", (int)dl, dir, name);
    }
    if (is_file(out)) return LK_OK;
    return not_a_mesh(R, e, ctx, out);
  }
  const char *pkg = name + 10, *slash = strchr(pkg, '/');
  if (!slash || slash == pkg)
    return lk_xdoc_error(X, e, LK_SCHEMA_ERROR,
                         "%s: '%s' is not of the form package://PACKAGE/PATH", ctx, name);
  size_t pl = (size_t)(slash - pkg);
  const char *rest = slash + 1;
  char sub[4096], found[4096] = "";
  snprintf(sub, sizeof sub, "%.*s/%s", (int)pl, pkg, rest);
  for (const char *p = R->package_path; p && *p;) {
    size_t dl = strcspn(p, ":");
    if (dl > 0) {
      if (try_path(out, size, p, dl, sub)) return LK_OK;
      char pd[4096];
      int n = snprintf(pd, sizeof pd, "%.*s/%.*s", (int)dl, p, (int)pl, pkg);
      if (n > 0 && (size_t)n < sizeof pd) note_package(found, sizeof found, pd, (size_t)n);
      /* D is the package directory itself */
      if (dl >= pl && memcmp(p + dl - pl, pkg, pl) == 0 && (dl == pl || p[dl - pl - 1] == '/')) {
        if (try_path(out, size, p, dl, rest)) return LK_OK;
        note_package(found, sizeof found, p, dl);
      }
    }
    p += dl + (p[dl] == ':');
  }
  /* The directories above the URDF file. */
  const char *dir;
  size_t dl = label_dir(R->x.path, &dir);
  for (;;) {
    size_t start = dl;
    while (start > 0 && dir[start - 1] != '/') start--;
    if (dl - start == pl && memcmp(dir + start, pkg, pl) == 0) {
      if (try_path(out, size, dir, dl, rest)) return LK_OK;
      note_package(found, sizeof found, dir, dl);
    }
    if (start == 0) break;
    dl = start - 1;
    if (dl == 0) break;
  }
  /* The package was found but not the file: name the file. */
  R->mesh_missing = 1;
  if (found[0])
    return lk_xdoc_error(X, e, LK_IO_ERROR,
                         "%s: mesh '%s': package '%.*s' is %s, which has no file '%s'", ctx, name,
                         (int)pl, pkg, found, rest);
  return lk_xdoc_error(X, e, LK_IO_ERROR,
                       "%s: mesh '%s': package '%.*s' not found (give its parent directory with "
                       "--package-path DIR or in ROS_PACKAGE_PATH)",
                       ctx, name, (int)pl, pkg);
}

/* ----------------------------------------------------------- geometry */

/* <geometry> of a collision or visual element -> g (type, size). */
static lk_status geometry(ureader *R, xmlNode *owner, const char *ctx, lk_geom_spec *g) {
  xmlNode *ge = lk_xml_child(owner, "geometry");
  if (!ge) return lk_xdoc_error(X, owner, LK_SCHEMA_ERROR, "%s: missing <geometry>", ctx);
  static const char *const shapes[] = {"box", "cylinder", "sphere", "mesh", "capsule", NULL};
  char what[200];
  snprintf(what, sizeof what, "%s: geometry", ctx);
  lk_status st = lk_xdoc_children(X, ge, what, shapes, NULL);
  if (st) return st;
  xmlNode *s = lk_xml_first(ge);
  if (!s)
    return lk_xdoc_error(X, ge, LK_SCHEMA_ERROR,
                         "%s: empty <geometry> (give one of <box>, <cylinder>, <sphere>, <mesh>)",
                         ctx);
  if (lk_xml_next(s))
    return lk_xdoc_error(X, lk_xml_next(s), LK_SCHEMA_ERROR,
                         "%s: more than one shape in <geometry> (give each its own element)",
                         ctx);
  snprintf(what, sizeof what, "%s: %s", ctx, (const char *)s->name);
  if (lk_xml_is(s, "box")) {
    double sz[3];
    if ((st = lk_xdoc_doubles(X, s, "size", what, 3, 1, sz))) return st;
    for (int i = 0; i < 3; i++)
      if ((st = positive(R, s, what, "size", sz[i]))) return st;
    g->type = LK_GEOM_BOX;
    for (int i = 0; i < 3; i++) g->size[i] = 0.5 * sz[i];
  } else if (lk_xml_is(s, "sphere")) {
    g->type = LK_GEOM_SPHERE;
    if ((st = lk_xdoc_double(X, s, "radius", what, 1, &g->size[0]))) return st;
    if ((st = positive(R, s, what, "radius", g->size[0]))) return st;
  } else if (lk_xml_is(s, "cylinder") || lk_xml_is(s, "capsule")) {
    double r, l;
    g->type = lk_xml_is(s, "cylinder") ? LK_GEOM_CYLINDER : LK_GEOM_CAPSULE;
    if ((st = lk_xdoc_double(X, s, "radius", what, 1, &r))) return st;
    if ((st = positive(R, s, what, "radius", r))) return st;
    if ((st = lk_xdoc_double(X, s, "length", what, 1, &l))) return st;
    if (g->type == LK_GEOM_CYLINDER ? !(l > 0) : !(l >= 0))
      return lk_xdoc_error(X, s, LK_SCHEMA_ERROR, "%s: length must be %s, got %g", what,
                           g->type == LK_GEOM_CYLINDER ? "positive" : ">= 0", l);
    g->size[0] = r;
    g->size[1] = 0.5 * l;
  } else {
    const char *fn = lk_xml_attr(s, "filename");
    if (!fn || !*fn)
      return lk_xdoc_error(X, s, LK_SCHEMA_ERROR, "%s: missing required attribute 'filename'",
                           what);
    double scale[3] = {1, 1, 1};
    if ((st = lk_xdoc_doubles(X, s, "scale", what, 3, 0, scale))) return st;
    for (int i = 0; i < 3; i++)
      if (!(scale[i] > 0))
        return lk_xdoc_error(X, s, LK_SCHEMA_ERROR,
                             "%s: scale must be positive, got %g %g %g (a mirrored mesh is not "
                             "supported: mirror the file instead)",
                             what, scale[0], scale[1], scale[2]);
    char path[4096];
    R->mesh_missing = 0;
    if ((st = resolve_mesh(R, s, what, fn, path, sizeof path))) return st;
    /* The geom's shape is the hull of the file's vertices, scaled; the
     * caller frees it once the model has its copy. */
    lk_mesh *mesh = NULL;
    lk_error e;
    lk_error_clear(&e);
    if ((st = lk_io_input(R->o, path, 1, &e)) || (st = lk_mesh_load_file(path, scale, &mesh, &e)))
      return lk_xdoc_error(X, s, st == LK_OUT_OF_MEMORY ? st : LK_SCHEMA_ERROR,
                           "%s: mesh '%s': %s", what, path, e.message);
    g->type = LK_GEOM_MESH;
    g->mesh = mesh;
    if (R->uo->mesh_file) R->uo->mesh_file(R->uo->record_user, path, scale);
  }
  return LK_OK;
}

/* ---------------------------------------------------------- inertial */

static lk_status collision_shapes(ureader *R, xmlNode *le, const char *ctx, lk_geom_spec *g,
                                  int *n);

/* Inertias that real files carry and the model refuses, repaired by one
 * stated rule each, with a warning:
 *   - a massless link with rotational inertia: the inertia is dropped;
 *   - principal moments not all positive, or breaking the triangle
 *     inequality (A + B >= C): the inertia of the link's collision shapes
 *     as uniform solids of the link's mass about the given centre of mass
 *     (MuJoCo's inertiafromgeom), and without a shape each moment replaced
 *     by their mean on the same axes (MuJoCo's balanceinertia), or when
 *     that is not positive a solid sphere of the link's mass and radius
 *     1 cm (2/5 m r^2). */
static lk_status repair_inertia(ureader *R, xmlNode *le, xmlNode *in, const char *ctx,
                                lk_link_spec *s) {
  lk_mat3 *I = &s->inertia;
  double scale = 0;
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) scale = fmax(scale, fabs(I->m[i][j]));
  if (!lk_m3_isfinite(I)) return LK_OK; /* the model's message says it */
  int strict = R->o && R->o->strict_inertia;
  if (s->mass == 0) {
    if (scale != 0 && strict)
      return lk_xdoc_error(X, in, LK_SCHEMA_ERROR,
                           "%s: inertial: mass 0 with a nonzero inertia (refused: strict inertia; "
                           "the rule would drop the inertia)", ctx);
    if (scale != 0) {
      *I = lk_m3_zero();
      lk_builder_warn(B, lk_xdoc_loc(X, in),
                      "%s: inertial: mass 0 with a nonzero inertia: the inertia is dropped", ctx);
    }
    return LK_OK;
  }
  if (!(s->mass > 0)) return LK_OK;
  lk_vec3 ev;
  lk_mat3 V;
  lk_m3_sym_eigen(I, &ev, &V);
  int bad = !(ev.x > 1e-12 * fmax(ev.z, DBL_MIN)) || ev.x + ev.y < ev.z * (1 - 1e-9);
  if (!bad) return LK_OK;
  const char *why = ev.x > 1e-12 * fmax(ev.z, DBL_MIN) ? "not a triangle" : "not all positive";
  if (strict)
    return lk_xdoc_error(X, in, LK_SCHEMA_ERROR,
                         "%s: inertial: principal moments %.3g %.3g %.3g are %s (refused: strict "
                         "inertia; the rule would take the collision shapes' inertia, else the "
                         "moments' mean)",
                         ctx, ev.x, ev.y, ev.z, why);
  lk_geom_spec *g = LK_NEW_ARRAY(lk_geom_spec, 32);
  if (!g) return lk_builder_oom(B);
  int n = 0;
  lk_status st = collision_shapes(R, le, ctx, g, &n);
  double vol = 0;
  for (int i = 0; i < n; i++) vol += lk_geom_volume(&g[i]);
  if (!st && vol > 0) {
    lk_vec3 com = s->com;
    lk_inertia_from_geoms(g, n, s->mass, 1, &com, I);
    lk_builder_warn(B, lk_xdoc_loc(X, in),
                    "%s: inertial: principal moments %.3g %.3g %.3g are %s: replaced by the "
                    "inertia of the collision shapes as solids of mass %g kg",
                    ctx, ev.x, ev.y, ev.z, why, s->mass);
  }
  for (int i = 0; i < n; i++) lk_mesh_free((lk_mesh *)g[i].mesh);
  lk_free(g);
  if (st || vol > 0) return st;
  double mean = (ev.x + ev.y + ev.z) / 3, k = mean;
  if (!(mean > 0)) k = 0.4 * s->mass * 1e-4;
  lk_mat3 D = lk_m3_diag(k, k, k);
  *I = lk_m3_rotate_tensor(&V, &D);
  for (int r = 0; r < 3; r++)
    for (int c = r + 1; c < 3; c++) I->m[r][c] = I->m[c][r] = 0.5 * (I->m[r][c] + I->m[c][r]);
  lk_builder_warn(B, lk_xdoc_loc(X, in),
                  "%s: inertial: principal moments %.3g %.3g %.3g are %s: each set to %.3g (%s)",
                  ctx, ev.x, ev.y, ev.z, why, k,
                  mean > 0 ? "their mean" : "a 1 cm sphere of the link's mass");
  return LK_OK;
}

static lk_status inertial(ureader *R, xmlNode *le, const char *ctx, lk_link_spec *s, int *has) {
  xmlNode *in = lk_xml_child(le, "inertial");
  *has = in != NULL;
  if (!in) return LK_OK;
  if (lk_xml_count(le, "inertial") > 1) {
    xmlNode *second = in;
    while ((second = lk_xml_next(second)) && !lk_xml_is(second, "inertial")) {
    }
    return lk_xdoc_error(X, second, LK_SCHEMA_ERROR, "%s: more than one <inertial>", ctx);
  }
  char what[200];
  snprintf(what, sizeof what, "%s: inertial", ctx);
  static const char *const known[] = {"origin", "mass", "inertia", NULL};
  lk_status st = lk_xdoc_children(X, in, what, known, NULL);
  lk_transform T;
  if (!st) st = origin(R, in, what, &T);
  if (st) return st;
  xmlNode *me = lk_xml_child(in, "mass"), *ie = lk_xml_child(in, "inertia");
  if (!me) return lk_xdoc_error(X, in, LK_SCHEMA_ERROR, "%s: missing <mass>", what);
  char w2[220];
  snprintf(w2, sizeof w2, "%s: mass", what);
  if ((st = lk_xdoc_double(X, me, "value", w2, 1, &s->mass))) return st;
  if (!(s->mass >= 0))
    return lk_xdoc_error(X, me, LK_SCHEMA_ERROR, "%s must be >= 0, got %g", w2, s->mass);
  if (!ie) return lk_xdoc_error(X, in, LK_SCHEMA_ERROR, "%s: missing <inertia>", what);
  static const char *const keys[] = {"ixx", "iyy", "izz", "ixy", "ixz", "iyz"};
  double v[6];
  snprintf(w2, sizeof w2, "%s: inertia", what);
  for (int i = 0; i < 6; i++)
    if ((st = lk_xdoc_double(X, ie, keys[i], w2, 1, &v[i]))) return st;
  lk_mat3 I = {{{v[0], v[3], v[4]}, {v[3], v[1], v[5]}, {v[4], v[5], v[2]}}};
  /* The tensor is about the centre of mass in the axes of the inertial
   * origin: into link axes. */
  lk_mat3 Il = lk_m3_rotate_tensor(&T.R, &I);
  for (int r = 0; r < 3; r++)
    for (int c = r + 1; c < 3; c++) Il.m[r][c] = Il.m[c][r] = 0.5 * (Il.m[r][c] + Il.m[c][r]);
  s->inertia = Il;
  s->com = T.p;
  return repair_inertia(R, le, in, ctx, s);
}

/* Every collision shape of a link (up to 32), meshes loaded (the caller
 * frees them); *n of them. */
static lk_status collision_shapes(ureader *R, xmlNode *le, const char *ctx, lk_geom_spec *g,
                                  int *n) {
  *n = 0;
  for (xmlNode *c = lk_xml_first(le); c && *n < 32; c = lk_xml_next(c)) {
    if (!lk_xml_is(c, "collision")) continue;
    lk_geom_spec_default(&g[*n]);
    lk_status st = origin(R, c, ctx, &g[*n].pose);
    if (!st) st = geometry(R, c, ctx, &g[*n]);
    if (st == LK_IO_ERROR && R->mesh_missing && !(R->o && R->o->strict_meshes)) {
      /* a mesh file not found: the shape is left out (shapes() warns) */
      if (R->b.err) lk_error_clear(R->b.err);
      continue;
    }
    if (st) return st;
    ++*n;
  }
  return LK_OK;
}

/* A moving link without <inertial>: URDF makes it massless, which a
 * moving link cannot be. The rule, as MuJoCo's for URDF (inertiafromgeom
 * auto): a uniform solid of density 1000 kg/m^3 filling its collision
 * shapes, with a warning. Without a collision shape it stays an error. */
static lk_status inertia_from_collision(ureader *R, xmlNode *le, const char *ctx, lk_link_spec *s,
                                        int *done) {
  *done = 0;
  lk_geom_spec *g = LK_NEW_ARRAY(lk_geom_spec, 32);
  if (!g) return lk_builder_oom(B);
  int n = 0;
  lk_status st = collision_shapes(R, le, ctx, g, &n);
  double V = 0;
  for (int i = 0; i < n; i++) V += lk_geom_volume(&g[i]);
  if (!st && n > 0 && V > 0) {
    s->mass = 1000 * V;
    lk_inertia_from_geoms(g, n, s->mass, 0, &s->com, &s->inertia);
    *done = 1;
    lk_builder_warn(B, lk_xdoc_loc(X, le),
                    "%s: no <inertial> on a moving link: mass %.6g kg and inertia of its "
                    "collision shapes filled at 1000 kg/m^3",
                    ctx, s->mass);
  }
  for (int i = 0; i < n; i++) lk_mesh_free((lk_mesh *)g[i].mesh);
  lk_free(g);
  return st;
}

/* ------------------------------------------------------------- joints */

static lk_status joint_spec(ureader *R, const ujoint *j, lk_link_spec *s) {
  xmlNode *e = j->e;
  char ctx[128];
  snprintf(ctx, sizeof ctx, "joint '%s'", j->name);
  static const char *const known[] = {"parent", "child",    "origin",      "axis",
                                      "limit",  "dynamics", "mimic",       NULL};
  static const char *const ignored[] = {"calibration", "safety_controller", NULL};
  lk_status st = lk_xdoc_children(X, e, ctx, known, ignored);
  if (!st) st = origin(R, e, ctx, &s->origin);
  if (st) return st;
  s->joint.type = (lk_joint_type)kLkType[j->type];
  int one_dof = j->type == U_REVOLUTE || j->type == U_CONTINUOUS || j->type == U_PRISMATIC;
  char what[200];
  xmlNode *ax = lk_xml_child(e, "axis");
  if (one_dof) {
    double a[3] = {1, 0, 0}; /* URDF's default axis */
    snprintf(what, sizeof what, "%s: axis", ctx);
    if (ax && (st = lk_xdoc_doubles(X, ax, "xyz", what, 3, 0, a))) return st;
    if (a[0] == 0 && a[1] == 0 && a[2] == 0)
      return lk_xdoc_error(X, ax, LK_SCHEMA_ERROR, "%s: the axis is zero", what);
    s->joint.axis = lk_v3(a[0], a[1], a[2]);
  }
  xmlNode *lim = lk_xml_child(e, "limit");
  if ((j->type == U_REVOLUTE || j->type == U_PRISMATIC) && !lim)
    return lk_xdoc_error(X, e, LK_SCHEMA_ERROR,
                         "%s: a %s joint needs <limit lower upper effort velocity>%s", ctx,
                         kTypes[j->type],
                         j->type == U_REVOLUTE ? " (an unlimited one is continuous)" : "");
  if (lim && one_dof) {
    snprintf(what, sizeof what, "%s: limit", ctx);
    double lo = 0, hi = 0, effort = 0, vel = 0;
    if ((st = lk_xdoc_double(X, lim, "effort", what, 0, &effort))) return st;
    if ((st = lk_xdoc_double(X, lim, "velocity", what, 0, &vel))) return st;
    if (!(effort >= 0) || !(vel >= 0))
      return lk_xdoc_error(X, lim, LK_SCHEMA_ERROR, "%s: effort and velocity must be >= 0", what);
    if (j->type != U_CONTINUOUS) {
      if ((st = lk_xdoc_double(X, lim, "lower", what, 0, &lo))) return st;
      if ((st = lk_xdoc_double(X, lim, "upper", what, 0, &hi))) return st;
      if (lo > hi)
        return lk_xdoc_error(X, lim, LK_SCHEMA_ERROR, "%s: lower %g is above upper %g", what, lo,
                             hi);
      s->joint.limited = 1;
      s->joint.lower = lo;
      s->joint.upper = hi;
    }
  }
  xmlNode *dyn = lk_xml_child(e, "dynamics");
  if (dyn && j->type != U_FIXED) {
    snprintf(what, sizeof what, "%s: dynamics", ctx);
    if ((st = lk_xdoc_double(X, dyn, "damping", what, 0, &s->joint.damping))) return st;
    if ((st = lk_xdoc_double(X, dyn, "friction", what, 0, &s->joint.friction))) return st;
    if (!(s->joint.damping >= 0) || !(s->joint.friction >= 0))
      return lk_xdoc_error(X, dyn, LK_SCHEMA_ERROR, "%s: damping and friction must be >= 0", what);
  }
  return LK_OK;
}

/* <mimic joint multiplier offset>: q = multiplier q_joint + offset. */
static lk_status mimic(ureader *R, const ujoint *j) {
  xmlNode *mi = lk_xml_child(j->e, "mimic");
  if (!mi) return LK_OK;
  char what[160];
  snprintf(what, sizeof what, "joint '%s': mimic", j->name);
  if (!(j->type == U_REVOLUTE || j->type == U_CONTINUOUS || j->type == U_PRISMATIC))
    return lk_xdoc_error(X, mi, LK_SCHEMA_ERROR,
                         "%s: only a revolute, continuous or prismatic joint can mimic another "
                         "(this one is %s)",
                         what, kTypes[j->type]);
  const char *other = lk_xml_attr(mi, "joint");
  if (!other || !*other)
    return lk_xdoc_error(X, mi, LK_SCHEMA_ERROR, "%s: missing required attribute 'joint'", what);
  char shown[96];
  snprintf(shown, sizeof shown, "'%.80s'", other);
  lk_coupling_spec c;
  memset(&c, 0, sizeof c);
  c.ratio = 1;
  int loc = lk_xdoc_loc(X, mi), idx;
  lk_status st = lk_builder_ref_joint(B, loc, what, other, shown, 1, &c.joint_b, &idx);
  if (st) return st;
  if (strcmp(c.joint_b, j->name) == 0)
    return lk_xdoc_error(X, mi, LK_SCHEMA_ERROR, "%s: a joint cannot mimic itself", what);
  if ((st = lk_xdoc_double(X, mi, "multiplier", what, 0, &c.ratio))) return st;
  if ((st = lk_xdoc_double(X, mi, "offset", what, 0, &c.offset))) return st;
  c.joint_a = pfx(R, j->name);
  c.joint_b = pfx(R, c.joint_b);
  if (!c.joint_a || !c.joint_b) return lk_builder_oom(B);
  return lk_builder_add_coupling(B, &c, loc);
}

/* -------------------------------------------------------------- links */

/* A material of sliding friction mu (one a value). */
static lk_status friction_material(ureader *R, xmlNode *e, const char *what, double mu,
                                   const char **out) {
  if (!(mu >= 0) || !isfinite(mu))
    return lk_xdoc_error(X, e, LK_SCHEMA_ERROR, "%s: friction must be >= 0, got %g", what, mu);
  for (int i = 0; i < R->nmu; i++)
    if (R->mu_val[i] == mu) {
      *out = R->mu_mats[i];
      return LK_OK;
    }
  char nm[64];
  snprintf(nm, sizeof nm, "%surdf_mu_%d", R->uo->prefix ? R->uo->prefix : "", R->nmu);
  char **m2 = lk_realloc(R->mu_mats, (size_t)(R->nmu + 1) * sizeof *m2);
  if (m2) R->mu_mats = m2;
  double *v2 = lk_realloc(R->mu_val, (size_t)(R->nmu + 1) * sizeof *v2);
  if (v2) R->mu_val = v2;
  const char *name = lk_builder_strdup(B, nm);
  if (!m2 || !v2 || !name) return lk_builder_oom(B);
  R->mu_mats[R->nmu] = (char *)name;
  R->mu_val[R->nmu++] = mu;
  lk_material_spec ms;
  lk_material_spec_default(&ms);
  ms.name = name;
  ms.mu_static = ms.mu_dynamic = mu;
  *out = name;
  return lk_builder_add_material(B, &ms, lk_xdoc_loc(X, e));
}

/* PyBullet's <contact> in a <link>: lateral_friction is the link's
 * Coulomb coefficient (a material of its own); the rest (stiffness,
 * damping, rolling and spinning friction, friction_anchor...) is
 * PyBullet's contact model and noted as not read. */
static lk_status link_contact(ureader *R, xmlNode *le, const char *ctx, const char **mat) {
  *mat = NULL;
  xmlNode *ce = lk_xml_child(le, "contact");
  if (!ce) return LK_OK;
  char what[200];
  snprintf(what, sizeof what, "%s: contact", ctx);
  for (xmlNode *k = lk_xml_first(ce); k; k = lk_xml_next(k)) {
    if (!lk_xml_is(k, "lateral_friction")) {
      lk_xdoc_unread(X, k, "<contact>");
      continue;
    }
    double mu;
    lk_status st = lk_xdoc_double(X, k, "value", what, 1, &mu);
    if (!st && !R->uo->material) st = friction_material(R, k, what, mu, mat);
    if (st) return st;
  }
  return LK_OK;
}

static lk_status shapes(ureader *R, xmlNode *le, const char *lname, const char *ctx,
                        const char *elem, int visual, const char *link_mat) {
  int k = 0;
  for (xmlNode *c = lk_xml_first(le); c; c = lk_xml_next(c)) {
    if (!lk_xml_is(c, elem)) continue;
    char what[200];
    snprintf(what, sizeof what, "%s: %s #%d", ctx, elem, k++);
    static const char *const kc[] = {"origin", "geometry", NULL};
    static const char *const kv[] = {"origin", "geometry", NULL};
    /* <material> draws (PyBullet's files have it in <collision> too);
     * Gazebo's <contact_coefficients mu> is the collision's friction. */
    static const char *const ig[] = {"material", "contact_coefficients", NULL};
    lk_status st = lk_xdoc_children(X, c, what, visual ? kv : kc, ig);
    lk_geom_spec g;
    lk_geom_spec_default(&g);
    if (!(g.link = pfx(R, lname))) return lk_builder_oom(B);
    if (!st) st = origin(R, c, what, &g.pose);
    if (!st) st = geometry(R, c, what, &g);
    if (st == LK_IO_ERROR && visual) {
      /* A shape that only draws never blocks loading: without its file,
       * the visual is left out, listed in one warning. */
      xmlNode *mesh = lk_xml_child(lk_xml_child(c, "geometry"), "mesh");
      const char *fn = mesh ? lk_xml_attr(mesh, "filename") : NULL;
      size_t l = strlen(R->novisual);
      if (!R->novisual_n++ || l + 8 < sizeof R->novisual)
        snprintf(R->novisual + l, sizeof R->novisual - l, "%s%s (line %d)", l ? ", " : "",
                 fn ? fn : "?", lk_xdoc_line(c));
      if (R->b.err) lk_error_clear(R->b.err);
      continue;
    }
    if (st == LK_IO_ERROR && R->mesh_missing && !visual && !(R->o && R->o->strict_meshes)) {
      /* A collision mesh whose file is not there (a package not shipped
       * with the description): the shape is left out and the link
       * collides without it, as Bullet's URDF importer does ("cannot
       * extract mesh from ...", the link loaded without that shape);
       * MuJoCo refuses the file. The first is warned about with its
       * reason, the links concerned in one warning at the end. */
      xmlNode *mesh = lk_xml_child(lk_xml_child(c, "geometry"), "mesh");
      if (!R->nocollision_n)
        lk_builder_warn(B, lk_xdoc_loc(X, mesh ? mesh : c), "%s: the shape is left out",
                        R->b.err ? R->b.err->message : "collision mesh not found");
      R->nocollision_n++;
      size_t l = strlen(R->nocollision), nl = strlen(lname);
      if (R->nocollision_last != lname) { /* each link once */
        if (l + nl + 10 < sizeof R->nocollision)
          snprintf(R->nocollision + l, sizeof R->nocollision - l, "%s%s", l ? ", " : "", lname);
        else if (l < 3 || strcmp(R->nocollision + l - 3, "...") != 0)
          snprintf(R->nocollision + l, sizeof R->nocollision - l, ", ...");
        R->nocollision_last = lname;
      }
      if (R->b.err) lk_error_clear(R->b.err);
      continue;
    }
    if (st) return st; /* geometry() keeps no mesh when it fails */
    if (visual) {
      g.group = 0;
      g.mask = 0;
    } else {
      g.material = R->uo->material ? R->uo->material : link_mat;
      xmlNode *coef = lk_xml_child(c, "contact_coefficients");
      if (coef && !R->uo->material && !st) {
        double mu = NAN;
        char w2[240];
        snprintf(w2, sizeof w2, "%s: contact_coefficients", what);
        if ((st = lk_xdoc_double(X, coef, "mu", w2, 0, &mu))) return st;
        if (!isnan(mu) && (st = friction_material(R, coef, w2, mu, &g.material))) return st;
        for (xmlAttr *a = coef->properties; a; a = a->next)
          if (strcmp((const char *)a->name, "mu") != 0) {
            lk_xdoc_unread(X, coef, (const char *)a->name);
            break;
          }
      }
      for (int i = 0; i < R->uo->noverrides; i++)
        if (strcmp(R->uo->overrides[i].link, lname) == 0 && R->uo->overrides[i].material)
          g.material = R->uo->overrides[i].material;
    }
    st = lk_builder_add_geom(B, &g, lk_xdoc_loc(X, c));
    if (!st && !visual) { /* kept for rest_overlaps, which frees it */
      if (R->nshapes == R->capshapes) {
        int cap = R->capshapes ? 2 * R->capshapes : 16;
        ushape *ns = lk_realloc(R->shapes, (size_t)cap * sizeof *ns);
        if (!ns) st = lk_builder_oom(B);
        else {
          R->shapes = ns;
          R->capshapes = cap;
        }
      }
      if (!st) {
        R->shapes[R->nshapes++] = (ushape){R->cur_link, g};
        continue;
      }
    }
    lk_mesh_free((lk_mesh *)g.mesh); /* the model keeps its own copy */
    if (st) return st;
  }
  return LK_OK;
}

static lk_status one_link(ureader *R, int i) {
  const ulink *l = &R->links[i];
  char ctx[128];
  snprintf(ctx, sizeof ctx, "link '%s'", l->name);
  static const char *const known[] = {"inertial", "collision", "visual", "contact", NULL};
  lk_status st = lk_xdoc_children(X, l->e, ctx, known, NULL);
  if (st) return st;
  lk_link_spec s;
  lk_link_spec_default(&s);
  if (!(s.name = pfx(R, l->name))) return lk_builder_oom(B);
  int jloc;
  if (l->joint >= 0) {
    const ujoint *j = &R->joints[l->joint];
    s.parent = j->parent < 0 ? "world" : pfx(R, R->links[j->parent].name);
    s.joint.name = pfx(R, j->name);
    if (!s.parent || !s.joint.name) return lk_builder_oom(B);
    if ((st = joint_spec(R, j, &s))) return st;
    R->links[i].origin = s.origin;
    jloc = lk_xdoc_loc(X, j->e);
  } else {
    s.parent = "world";
    s.joint.name = s.name;
    s.joint.type = (lk_joint_type)R->uo->base;
    jloc = lk_xdoc_loc(X, l->e);
  }
  int has, filled = 0;
  if ((st = inertial(R, l->e, ctx, &s, &has))) return st;
  if (!has && s.joint.type != LK_JOINT_FIXED && !(R->o && R->o->strict_inertia) &&
      (st = inertia_from_collision(R, l->e, ctx, &s, &filled)))
    return st;
  if (s.joint.type != LK_JOINT_FIXED && !(s.mass > 0)) {
    const char *jt = lk_joint_type_name(s.joint.type);
    if (has)
      return lk_xdoc_error(X, lk_xml_child(lk_xml_child(l->e, "inertial"), "mass"),
                           LK_SCHEMA_ERROR,
                           "%s: mass must be positive on a %s joint (only a link on a fixed "
                           "joint may be massless), got %g",
                           ctx, jt, s.mass);
    return lk_xdoc_error(X, l->e, LK_SCHEMA_ERROR,
                         "%s: no <inertial>; a link on a %s joint must have mass%s", ctx, jt,
                         l->joint < 0 ? " (the root link, on a free base)" : "");
  }
  if ((st = lk_builder_add_link(B, &s, lk_xdoc_loc(X, l->e), jloc))) return st;
  const char *mat;
  if ((st = link_contact(R, l->e, ctx, &mat))) return st;
  R->cur_link = i;
  if ((st = shapes(R, l->e, l->name, ctx, "collision", 0, mat))) return st;
  return shapes(R, l->e, l->name, ctx, "visual", 1, NULL);
}

/* ------------------------------------------------------ the first pass */

/* <parent link=...> or <child link=...> of a joint. */
static lk_status joint_end(ureader *R, xmlNode *je, const char *jname, const char *which,
                           int *out) {
  char what[160];
  snprintf(what, sizeof what, "joint '%s': %s", jname, which);
  int n = lk_xml_count(je, which);
  xmlNode *e = lk_xml_child(je, which);
  if (n != 1)
    return lk_xdoc_error(X, n ? lk_xml_next(e) : je, LK_SCHEMA_ERROR,
                         "joint '%s': %s <%s link=\"...\"/>", jname, n ? "more than one" : "missing",
                         which);
  const char *ln = lk_xml_attr(e, "link");
  if (!ln || !*ln)
    return lk_xdoc_error(X, e, LK_SCHEMA_ERROR, "%s: missing required attribute 'link'", what);
  char shown[96];
  snprintf(shown, sizeof shown, "'%.80s'", ln);
  const char *name;
  /* The world may be a parent when the file has a link named world. */
  int world_ok = R->world && strcmp(which, "parent") == 0;
  return lk_builder_ref_link(B, lk_xdoc_loc(X, e), what, ln, shown, world_ok, &name, out);
}

static lk_status collect(ureader *R, xmlNode *robot) {
  int nl = lk_xml_count(robot, "link"), nj = lk_xml_count(robot, "joint");
  R->links = LK_NEW_ARRAY(ulink, nl);
  R->joints = LK_NEW_ARRAY(ujoint, nj);
  if (!R->links || !R->joints) return lk_builder_oom(B);
  lk_status st;
  for (xmlNode *c = lk_xml_first(robot); c; c = lk_xml_next(c)) {
    if (!lk_xml_is(c, "link")) continue;
    ulink *l = &R->links[R->nlinks];
    if ((st = name_attr(R, c, "link", &l->name))) return st;
    if (strcmp(l->name, "world") == 0) {
      /* ROS's fixed base: a link named world, joined to the robot. It is
       * the world; what it holds is not read (noted). */
      if (R->world)
        return lk_xdoc_error(X, c, LK_SCHEMA_ERROR, "link 'world': a second link named 'world' "
                             "(line %d)", lk_xdoc_line(R->world));
      R->world = c;
      for (xmlNode *k = lk_xml_first(c); k; k = lk_xml_next(k))
        lk_xdoc_unread(X, k, "link 'world':");
      continue;
    }
    if ((st = lk_builder_unique(B, "link", l->name, lk_xdoc_loc(X, c)))) return st;
    l->e = c;
    l->joint = -1;
    l->origin = lk_tf_identity();
    R->nlinks++;
  }
  if (R->nlinks == 0)
    return lk_xdoc_error(X, robot, LK_SCHEMA_ERROR, "robot: no <link>; a mechanism needs a link");
  /* The link names first, for the joints' references. */
  for (int i = 0; i < R->nlinks; i++) {
    lk_blink r = {R->links[i].name, R->links[i].name, -1, -1, lk_xdoc_loc(X, R->links[i].e), 0,
                  lk_xdoc_loc(X, R->links[i].e), 0};
    if ((st = lk_builder_push_link(B, &r, NULL))) return st;
  }
  if ((st = lk_builder_names_done(B))) return st;
  for (xmlNode *c = lk_xml_first(robot); c; c = lk_xml_next(c)) {
    if (!lk_xml_is(c, "joint")) continue;
    ujoint *j = &R->joints[R->njoints];
    j->e = c;
    if ((st = name_attr(R, c, "joint", &j->name))) return st;
    char ctx[128];
    snprintf(ctx, sizeof ctx, "joint '%s'", j->name);
    const char *t = lk_xml_attr(c, "type");
    if (!t) return lk_xdoc_error(X, c, LK_SCHEMA_ERROR, "%s: missing required attribute 'type'", ctx);
    int k = 0;
    while (k < U_NTYPES && strcmp(t, kTypes[k]) != 0) k++;
    if (k == U_NTYPES)
      return lk_xdoc_error(X, c, LK_SCHEMA_ERROR,
                           "%s: unknown type \"%.40s\" (expected revolute, continuous, prismatic, "
                           "fixed, floating or planar)",
                           ctx, t);
    if (k == U_PLANAR)
      return lk_xdoc_error(X, c, LK_UNSUPPORTED,
                           "%s: planar joints are unsupported (Linkage has no planar joint: chain "
                           "two prismatic joints and a revolute one instead)",
                           ctx);
    j->type = (utype)k;
    if ((st = joint_end(R, c, j->name, "parent", &j->parent))) return st;
    if ((st = joint_end(R, c, j->name, "child", &j->child))) return st;
    if (j->parent == j->child)
      return lk_xdoc_error(X, lk_xml_child(c, "child"), LK_SCHEMA_ERROR,
                           "%s: a link cannot be its own parent", ctx);
    ulink *ch = &R->links[j->child];
    if (ch->joint >= 0) {
      const ujoint *o = &R->joints[ch->joint];
      return lk_xdoc_error(X, lk_xml_child(c, "child"), LK_SCHEMA_ERROR,
                           "%s: link '%s' is already the child of joint '%s' (line %d); a link "
                           "has one parent joint (close loops in YAML, under constraints: loops)",
                           ctx, ch->name, o->name, lk_xdoc_line(o->e));
    }
    ch->joint = R->njoints;
    lk_blink *bl = &B->links[j->child];
    bl->joint = j->name;
    bl->jtype = kLkType[k];
    bl->parent = j->parent;
    bl->parent_loc = lk_xdoc_loc(X, lk_xml_child(c, "parent"));
    bl->joint_loc = lk_xdoc_loc(X, c);
    R->njoints++;
  }
  /* Joint names: unique, and not the root link's (which names its joint). */
  R->root = -1;
  for (int i = 0; i < R->nlinks; i++) {
    if (R->links[i].joint < 0) {
      if (R->root >= 0)
        return lk_xdoc_error(X, R->links[i].e, LK_SCHEMA_ERROR,
                             "link '%s': no joint has it as child, and neither has link '%s' "
                             "(line %d); a URDF has one root link",
                             R->links[i].name, R->links[R->root].name,
                             lk_xdoc_line(R->links[R->root].e));
      R->root = i;
      B->links[i].jtype = R->uo->base;
    }
  }
  char path[256];
  int cyc = lk_builder_find_cycle(B, path, sizeof path);
  if (R->world && R->root >= 0)
    return lk_xdoc_error(X, R->links[R->root].e, LK_SCHEMA_ERROR,
                         "link '%s': no joint has it as child, and the file has a link named "
                         "'world' (line %d) as the root",
                         R->links[R->root].name, lk_xdoc_line(R->world));
  if (cyc >= 0 || (R->root < 0 && !R->world)) {
    if (cyc < 0) cyc = 0;
    return lk_xdoc_error(X, R->joints[R->links[cyc].joint].e, LK_SCHEMA_ERROR,
                         "joint '%s': makes a cycle (%s); links form a tree", B->links[cyc].joint,
                         path);
  }
  for (int i = 0; i < R->nlinks; i++) {
    const lk_blink *bl = &B->links[i];
    if ((st = lk_builder_unique(B, "joint", bl->joint, bl->joint_loc))) return st;
  }
  for (int i = 0; i < R->nlinks && R->uo->on_link; i++) {
    const lk_blink *bl = &B->links[i];
    if ((st = R->uo->on_link(R->uo->user, bl->name, bl->joint, bl->jtype))) return st;
  }
  return lk_builder_names_done(B);
}

/* ---------------------------------------------------------- the whole */

/* ------------------------------------------------ rest-pose overlaps */

/* The body a link is welded into by fixed joints: its own index, or -1 for
 * the world (the root on a fixed base, and what is welded to it). */
static int weld_body(const ureader *R, int i) {
  while (i >= 0) {
    const ulink *l = &R->links[i];
    int fixed = l->joint >= 0 ? R->joints[l->joint].type == U_FIXED
                              : R->uo->base == LK_JOINT_FIXED;
    if (!fixed) return i;
    i = l->joint >= 0 ? R->joints[l->joint].parent : -1;
  }
  return -1;
}

/* The body the joint of body b hangs from (-2: none, a free joint connects
 * nothing), as lk_collide_filter's parent-child rule takes it. */
static int parent_body(const ureader *R, int b) {
  if (b < 0) return -2;
  const ulink *l = &R->links[b];
  if (l->joint < 0) return R->uo->base == LK_JOINT_FREE ? -2 : -1;
  if (R->joints[l->joint].type == U_FLOATING) return -2;
  return weld_body(R, R->joints[l->joint].parent);
}

/* Pose of link i with every joint at 0 (relative to the root's frame). */
static lk_transform rest_pose(const ureader *R, int i) {
  lk_transform T = lk_tf_identity();
  for (int depth = 0; i >= 0 && depth <= R->nlinks; depth++) {
    T = lk_tf_mul(&R->links[i].origin, &T);
    i = R->links[i].joint >= 0 ? R->joints[R->links[i].joint].parent : -1;
  }
  return T;
}

static double shape_radius(const lk_geom_spec *g) {
  switch (g->type) {
    case LK_GEOM_SPHERE: return g->size[0];
    case LK_GEOM_CAPSULE: return g->size[0] + g->size[1];
    case LK_GEOM_BOX: return sqrt(g->size[0] * g->size[0] + g->size[1] * g->size[1] +
                                  g->size[2] * g->size[2]);
    case LK_GEOM_CYLINDER: return hypot(g->size[0], g->size[1]);
    case LK_GEOM_MESH: return g->mesh ? lk_mesh_radius(g->mesh) : INFINITY;
    default: return INFINITY;
  }
}

/* URDF has no way to say which links may touch, and its files are written
 * for engines that do not collide a robot with itself unless asked:
 * PyBullet's loadURDF by default (URDF_USE_SELF_COLLISION off), ROS's
 * MoveIt through the SRDF its Setup Assistant writes, whose "Default"
 * reason disables every pair of links in collision in the robot's default
 * pose. A gripper whose four-bar linkage URDF cannot close (its knuckles
 * and fingers pinned together in the real part, coupled here by <mimic>)
 * has them overlapping at rest; Linkage's contact would fight the coupling
 * (PyBullet's Robotiq 85: 11.5 mm deep, 6e7 N). The rule kept here is
 * MoveIt's: two links whose collision shapes overlap with every joint at
 * 0 never collide with each other (lk_model_add_exclude), listed in a
 * warning; every other pair of links that are not parent and child
 * collides. lk_load_options.keep_rest_overlaps turns it off. */
static lk_status rest_overlaps(ureader *R) {
  if (R->nshapes < 2 || (R->o && R->o->keep_rest_overlaps)) return LK_OK;
  lk_transform *T = LK_NEW_ARRAY(lk_transform, (size_t)R->nshapes);
  double *rad = LK_NEW_ARRAY(double, (size_t)R->nshapes);
  int *body = LK_NEW_ARRAY(int, (size_t)R->nshapes);
  lk_status st = T && rad && body ? LK_OK : lk_builder_oom(B);
  for (int k = 0; k < R->nshapes && !st; k++) {
    lk_transform L = rest_pose(R, R->shapes[k].link);
    T[k] = lk_tf_mul(&L, &R->shapes[k].g.pose);
    rad[k] = shape_radius(&R->shapes[k].g);
    body[k] = weld_body(R, R->shapes[k].link);
  }
  char list[200] = "";
  int npairs = 0, cappairs = 0, *pairs = NULL; /* the link pairs excluded */
  for (int a = 0; a < R->nshapes && !st; a++)
    for (int b = a + 1; b < R->nshapes && !st; b++) {
      int la = R->shapes[a].link, lb = R->shapes[b].link;
      if (body[a] == body[b] || parent_body(R, body[a]) == body[b] ||
          parent_body(R, body[b]) == body[a])
        continue; /* never tested anyway */
      int seen = 0;
      for (int i = 0; i < npairs && !seen; i++)
        seen = pairs[2 * i] == la && pairs[2 * i + 1] == lb;
      if (seen) continue; /* excluded already, for another shape */
      lk_vec3 d = lk_v3_sub(T[a].p, T[b].p);
      if (lk_v3_norm(d) > rad[a] + rad[b]) continue;
      lk_manifold mf;
      lk_error e;
      if (lk_collide_specs(&R->shapes[a].g, &T[a], &R->shapes[b].g, &T[b], &mf, &e)) continue;
      double depth = 0;
      for (int i = 0; i < mf.n; i++) depth = fmax(depth, mf.pt[i].depth);
      if (!(depth > 0)) continue;
      const char *na = pfx(R, R->links[la].name), *nb = pfx(R, R->links[lb].name);
      if (!na || !nb) st = lk_builder_oom(B);
      if (!st) st = lk_builder_add_exclude(B, na, nb);
      if (!st && npairs == cappairs) {
        int cap = cappairs ? 2 * cappairs : 16;
        int *np = lk_realloc(pairs, (size_t)cap * 2 * sizeof *np);
        if (!np) st = lk_builder_oom(B);
        else {
          pairs = np;
          cappairs = cap;
        }
      }
      if (st) break;
      pairs[2 * npairs] = la;
      pairs[2 * npairs + 1] = lb;
      npairs++;
      size_t l = strlen(list);
      char one[160];
      snprintf(one, sizeof one, "%s%s/%s %.2g mm", l ? ", " : "", R->links[la].name,
               R->links[lb].name, 1e3 * depth);
      if (l + strlen(one) + 6 < sizeof list)
        snprintf(list + l, sizeof list - l, "%s", one);
      else if (l < 3 || strcmp(list + l - 3, "...") != 0)
        snprintf(list + l, sizeof list - l, ", ...");
    }
  if (!st && npairs)
    lk_builder_warn(B, 0,
                    "%d pair%s of links overlapping with every joint at 0 never collide "
                    "(MoveIt's default-pose rule): %s",
                    npairs, npairs > 1 ? "s" : "", list);
  lk_free(T);
  lk_free(rad);
  lk_free(body);
  lk_free(pairs);
  return st;
}

static lk_status build(ureader *R) {
  xmlNode *robot = xmlDocGetRootElement(R->x.doc);
  if (!lk_xml_is(robot, "robot"))
    return lk_xdoc_error(X, robot, LK_SCHEMA_ERROR, "expected a <robot> element, got <%s>",
                         robot ? (const char *)robot->name : "");
  lk_status st;
  const char *name = lk_xml_attr(robot, "name");
  if (name && *name && (st = lk_builder_set_name(B, name))) return st;
  if ((st = collect(R, robot))) return st;
  for (int i = 0; i < R->nlinks; i++)
    if ((st = one_link(R, i))) return st;
  for (int i = 0; i < R->njoints; i++)
    if ((st = mimic(R, &R->joints[i]))) return st;
  if ((st = rest_overlaps(R))) return st;
  /* What URDF has beyond links and joints: <material> draws; the rest
   * (transmissions, Gazebo's and other tools' extensions) is noted. */
  for (xmlNode *c = lk_xml_first(robot); c; c = lk_xml_next(c))
    if (!lk_xml_is(c, "link") && !lk_xml_is(c, "joint") && !lk_xml_is(c, "material"))
      lk_xdoc_unread(X, c, NULL);
  if (R->x.version[0])
    lk_builder_warn(B, 0, "XML version \"%s\" read as 1.0", R->x.version);
  if (R->novisual_n)
    lk_builder_warn(B, 0, "%d visual mesh%s not found, left out (only drawn): %s",
                    R->novisual_n, R->novisual_n > 1 ? "es" : "", R->novisual);
  if (R->nocollision_n)
    lk_builder_warn(B, 0,
                    "%d collision mesh%s not found, left out: these links collide without "
                    "them: %s",
                    R->nocollision_n, R->nocollision_n > 1 ? "es" : "", R->nocollision);
  if (R->x.unread[0])
    lk_builder_warn(B, 0, "not read: %s", R->x.unread);
  return lk_builder_finalize(B);
}

lk_status lk_urdf_read(lk_model *m, const lk_merge_options *mo, const char *text, size_t len,
                       const char *label, const lk_load_options *o, const lk_urdf_options *uo,
                       lk_error *err) {
  lk_urdf_options dflt;
  if (!uo) {
    lk_urdf_options_default(&dflt);
    uo = &dflt;
  }
  if (uo->base != LK_JOINT_FIXED && uo->base != LK_JOINT_FREE)
    return lk_error_set(err, LK_INVALID_ARGUMENT, "a URDF's base is fixed or free");
  if (o && o->nset > 0)
    return lk_error_set_at(err, LK_INVALID_ARGUMENT, label, 0, 0,
                           "--set overrides apply to YAML descriptions; include the URDF in a "
                           "YAML file to change it");
  ureader R;
  memset(&R, 0, sizeof R);
  R.uo = uo;
  R.o = o;
  R.package_path = o ? o->package_path : NULL;
  lk_status st = lk_xdoc_parse(&R.x, text, len, label, err);
  if (!st) {
    lk_builder_init(&R.b, m, mo, &lk_xdoc_source, &R.x, err);
    R.b.record = (void (*)(void *, lk_bkind, const void *))uo->record;
    R.b.record_user = uo->record_user;
    st = build(&R);
    lk_builder_free(&R.b);
  }
  for (int k = 0; k < R.nshapes; k++) lk_mesh_free((lk_mesh *)R.shapes[k].g.mesh);
  lk_free(R.shapes);
  lk_free(R.links);
  lk_free(R.joints);
  lk_free(R.mu_mats);
  lk_free(R.mu_val);
  lk_xdoc_free(&R.x);
  return st;
}
