/* The MJCF reader (a subset of MuJoCo's XML, https://mujoco.readthedocs.io
 * /en/latest/XMLreference.html) -> the model builder (builder.h), with
 * libxml2 (xml.h). docs/format.md lists what is read.
 *
 * MuJoCo and Linkage differ in how a body moves on its joints:
 *   - a MuJoCo body may have several joints, each turning it about its own
 *     anchor `pos` in the body frame, one after the other; Linkage has one
 *     joint a link. A body with k joints becomes a chain of k links, the
 *     first k - 1 named after their joints and nearly massless (1e-12 kg,
 *     1e-14 kg m^2: their share of M is below 1e-11), the last one the body
 *     itself. Link j's frame is the body frame moved to joint j's anchor, so
 *     the chain's origins are T(p_j - p_{j-1}) and the body's geoms and
 *     inertia sit at -p_k in its link;
 *   - a free joint's qpos is the body's world pose, as in MuJoCo: its link's
 *     origin is the identity and the body's pos/quat its initial q. Its
 *     angular velocity is in world axes in Linkage, in body axes in MuJoCo
 *     (equal while the body is not turned);
 *   - without <inertial>, mass and inertia come from the geoms, MuJoCo's
 *     rule: each geom's mass is `mass` or `density` (default 1000) times its
 *     volume, solid bodies combined about their centre of mass.
 * <default> classes (nested, `class` and `childclass`) apply to joint, geom,
 * motor and position attributes. <asset><mesh> files are read into hulls
 * (lk_mesh_load_file) that mesh geoms name; a mesh geom's vertices sit at
 * its pos/quat as in the file (MuJoCo recentres a mesh on its inertial
 * frame and moves the geom frame to match: the same place). Elements that
 * only draw (textures and materials, visual, light, camera, site,
 * statistic) are ignored; any other element this reader does not know is
 * an error naming it and its line. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/internal.h"
#include "io/builder.h"
#include "io/io_internal.h"
#include "io/mjcf.h"
#include "io/xml.h"
#include "io/ydoc.h" /* lk_ydoc_read_file */
#include "linkage/io.h"
#include "model/model_impl.h" /* lk_geom_volume */

#define MAX_CLASSES 64
/* geom()'s answer for a visual geom whose mesh is missing: left out. */
#define LK_NOT_FOUND_VISUAL ((lk_status)-1000)
#define TINY_MASS 1e-12
#define TINY_INERTIA 1e-14

/* The elements a <default> class gives defaults for. */
static const char *const kKinds[] = {"joint",   "geom",    "motor", "position",
                                     "velocity", "general", "mesh",  NULL};
#define NKINDS 7

typedef struct {
  const char *name;
  int parent;
  xmlNode *node[NKINDS]; /* the class's element of each kind, or NULL */
} mclass;

typedef struct {
  lk_xdoc x;
  lk_builder b;
  mclass cls[MAX_CLASSES];
  int ncls;
  int degree; /* compiler angle */
  char eulerseq[4]; /* compiler eulerseq (MuJoCo's default "xyz") */
  int inertia_from_geom; /* 0 false, 1 true, 2 auto */
  int nunnamed;
  int nincludes;
  /* The joints in MuJoCo's qpos order (the file's), for <keyframe>. */
  const char **jorder;
  int *jnq;
  int njorder, capjorder;
  lk_options opt;
  int has_opt;
  char **mats; /* friction materials made so far ("mjcf_mu_<f>") */
  double *mat_mu;
  int nmats;
  char meshdir[4096]; /* <compiler meshdir|assetdir>, as given */
  struct {
    const char *name;
    lk_mesh *mesh; /* owned here; the model copies it per geom; NULL when
                      its file could not be read (why: the message) */
    char *why;
    xmlNode *e;
    lk_mesh_solid solid; /* the solid its triangles bound, when has_solid */
    int has_solid;       /* 0: the hull's (inertia="convex", or an open
                            surface) */
  } *meshes;       /* <asset><mesh> */
  int nmeshes;
  const lk_load_options *o; /* its input hook sees each mesh file */
  /* convert's: each <mesh> read, its file and scale (negative: mirrored) */
  void (*mesh_file)(void *user, const lk_mesh *mesh, const char *path, const double scale[3]);
  /* Every body as the file places it (MuJoCo's qpos0 pose: joints at
   * their ref), for <equality>: its world frame, and where its link's
   * frame sits in it (the last joint's anchor). */
  struct mbody {
    const char *name;
    lk_transform world;
    lk_vec3 off;
    lk_vec3 com; /* its centre of mass in its link's frame */
  } *bodies;
  int nbodies, capbodies;
  /* Each joint's ref as Linkage's q reads it (0 where ref is not read),
   * and MuJoCo's ref (qpos0), for <equality><joint>. */
  struct mjref {
    const char *name;
    double read, ref;
  } *jrefs;
  int njrefs, capjrefs;
  /* The joint equalities read, in Linkage's q: q_a = ratio q_b + offset
   * (for tendon actuators), and the fixed tendons. */
  struct mcoup {
    const char *a, *b;
    double ratio, offset;
  } coup[64];
  int ncoup;
  struct mtendon {
    const char *name;
    const char *joint[16];
    double coef[16];
    int n;
  } *tendons;
  int ntendons;
  const char **gnames; /* the geoms' names that the model keeps */
  int ngnames, capgnames;
  struct msite {
    const char *name, *link;
    lk_vec3 point; /* in the link's frame */
  } *sites;        /* <site>s, for <sensor> */
  int nsites, capsites;
} mreader;

#define X (&R->x)
#define B (&R->b)

static const char *const kIgnored[] = {"light", "camera", "site", NULL};

/* ------------------------------------------------------------ defaults */

static int find_class(const mreader *R, const char *name) {
  for (int i = 0; i < R->ncls; i++)
    if (strcmp(R->cls[i].name, name) == 0) return i;
  return -1;
}

static lk_status read_default(mreader *R, xmlNode *e, int parent);

/* A class's own elements (one of each kind) and its nested classes.
 * Defaults of elements this reader does not read are ignored: the
 * elements themselves are noted where they are used. */
static lk_status fill_class(mreader *R, xmlNode *e, int me) {
  static const char *const known[] = {"default",  "joint",   "geom", "motor", "position",
                                      "velocity", "general", "mesh", NULL};
  static const char *const ignored[] = {"site",     "camera",      "light",  "material",
                                        "pair",     "equality",    "tendon", "muscle",
                                        "damper",   "intvelocity", "cylinder", "adhesion",
                                        "flex",     "skin",        NULL};
  lk_status st = lk_xdoc_children(X, e, "default", known, ignored);
  if (st) return st;
  for (xmlNode *k = lk_xml_first(e); k; k = lk_xml_next(k)) {
    for (int i = 0; i < NKINDS; i++)
      if (lk_xml_is(k, kKinds[i])) R->cls[me].node[i] = k;
    if (lk_xml_is(k, "default") && (st = read_default(R, k, me))) return st;
  }
  return LK_OK;
}

static lk_status read_default(mreader *R, xmlNode *e, int parent) {
  if (R->ncls == MAX_CLASSES)
    return lk_xdoc_error(X, e, LK_UNSUPPORTED, "default: more than %d classes", MAX_CLASSES);
  mclass *c = &R->cls[R->ncls];
  c->name = lk_xml_attr(e, "class");
  if (c->name && find_class(R, c->name) >= 0) /* MuJoCo refuses it too; the first must not win */
    return lk_xdoc_error(X, e, LK_SCHEMA_ERROR, "<default>: class '%.60s' is defined twice",
                         c->name);
  if (!c->name) c->name = parent < 0 ? "main" : NULL;
  if (!c->name) return lk_xdoc_error(X, e, LK_SCHEMA_ERROR, "a nested <default> needs a class");
  c->parent = parent;
  int me = R->ncls++;
  return fill_class(R, e, me);
}

/* The class of element e: its own `class`, else the one it inherits. */
static lk_status class_of(mreader *R, xmlNode *e, int inherited, int *out) {
  const char *c = lk_xml_attr(e, "class");
  *out = inherited;
  if (!c) return LK_OK;
  if ((*out = find_class(R, c)) < 0)
    return lk_xdoc_error(X, e, LK_SCHEMA_ERROR, "<%s>: unknown class '%.60s'", (const char *)e->name,
                         c);
  return LK_OK;
}

/* An attribute of e, or of its kind's default in class cls and up. */
static const char *attr(const mreader *R, const xmlNode *e, const char *name, int cls) {
  const char *v = lk_xml_attr(e, name);
  int kind = 0;
  while (kind < NKINDS && !lk_xml_is(e, kKinds[kind])) kind++;
  if (kind == NKINDS) return v;
  for (int c = cls; !v && c >= 0; c = R->cls[c].parent) {
    const xmlNode *d = R->cls[c].node[kind];
    if (d) v = lk_xml_attr(d, name);
  }
  return v;
}

/* Numbers of an attribute (own or default); n_min..n values. */
static lk_status nums(mreader *R, const xmlNode *e, const char *name, int cls, int n, double *out,
                      int *count) {
  const char *v = attr(R, e, name, cls);
  if (count) *count = 0;
  if (!v) return LK_OK;
  int k = 0;
  const char *bad = v;
  size_t badlen = 0;
  int r = lk_xml_numbers(v, n, out, &k, &bad, &badlen); /* the one number reader */
  if (r == LK_NUMBER_OVERFLOW || r == LK_NUMBER_UNDERFLOW)
    return lk_xdoc_error(X, e, LK_SCHEMA_ERROR, "<%s>: %s=\"%.60s\": %.*s %s",
                         (const char *)e->name, name, v, (int)(badlen < 40 ? badlen : 40), bad,
                         lk_number_why(r));
  if (r || (!count && k != n) || k == 0)
    return lk_xdoc_error(X, e, LK_SCHEMA_ERROR, "<%s>: %s=\"%.60s\" is not %s%d finite numbers",
                         (const char *)e->name, name, v, count ? "up to " : "", n);
  if (count) *count = k;
  return LK_OK;
}

static int is_true(const char *v) { return v && strcmp(v, "true") == 0; }

/* --------------------------------------------------------------- poses */

/* MuJoCo's euler angles: three rotations about the axes eulerseq names,
 * a lower-case axis moving with the frame (intrinsic: q = q r), an
 * upper-case one fixed (extrinsic: q = r q) (MJCF reference, compiler
 * eulerseq). */
static lk_quat euler_quat(const char *seq, const double a[3], double f) {
  lk_quat q = lk_q(1, 0, 0, 0);
  for (int i = 0; i < 3; i++) {
    char c = seq[i];
    double h = 0.5 * a[i] * f;
    lk_quat r = lk_q(cos(h), 0, 0, 0);
    if (c == 'x' || c == 'X') r.x = sin(h);
    if (c == 'y' || c == 'Y') r.y = sin(h);
    if (c == 'z' || c == 'Z') r.z = sin(h);
    q = (c >= 'a') ? lk_q_mul(q, r) : lk_q_mul(r, q);
  }
  return q;
}

/* pos + (quat | axisangle | euler | xyaxes | zaxis) of e. */
static lk_status frame(mreader *R, const xmlNode *e, int cls, lk_transform *T) {
  double p[3] = {0, 0, 0}, q[4] = {1, 0, 0, 0}, aa[4], z[3], xy[6];
  lk_status st = nums(R, e, "pos", cls, 3, p, NULL);
  if (st) return st;
  lk_mat3 Rm = lk_m3_identity();
  int nrot = (attr(R, e, "quat", cls) != NULL) + (attr(R, e, "axisangle", cls) != NULL) +
             (attr(R, e, "zaxis", cls) != NULL) + (attr(R, e, "euler", cls) != NULL) +
             (attr(R, e, "xyaxes", cls) != NULL);
  if (nrot > 1)
    return lk_xdoc_error(X, e, LK_SCHEMA_ERROR, "<%s>: give one orientation", (const char *)e->name);
  if (attr(R, e, "euler", cls)) {
    if ((st = nums(R, e, "euler", cls, 3, aa, NULL))) return st;
    lk_quat eq = euler_quat(R->eulerseq, aa, R->degree ? LK_PI / 180 : 1);
    Rm = lk_q_to_mat3(lk_q_normalize(eq));
  } else if (attr(R, e, "xyaxes", cls)) {
    /* x, then y made orthogonal to it, z = x cross y: the columns */
    if ((st = nums(R, e, "xyaxes", cls, 6, xy, NULL))) return st;
    lk_vec3 x = lk_v3(xy[0], xy[1], xy[2]), y = lk_v3(xy[3], xy[4], xy[5]);
    double nx = lk_v3_norm(x);
    if (!(nx > 0))
      return lk_xdoc_error(X, e, LK_SCHEMA_ERROR, "<%s>: xyaxes: x is zero", (const char *)e->name);
    x = lk_v3_scale(x, 1 / nx);
    y = lk_v3_sub(y, lk_v3_scale(x, lk_v3_dot(x, y)));
    double ny = lk_v3_norm(y);
    if (!(ny > 0))
      return lk_xdoc_error(X, e, LK_SCHEMA_ERROR, "<%s>: xyaxes: y is parallel to x",
                           (const char *)e->name);
    y = lk_v3_scale(y, 1 / ny);
    lk_vec3 zz = lk_v3_cross(x, y);
    lk_mat3 C = {{{x.x, y.x, zz.x}, {x.y, y.y, zz.y}, {x.z, y.z, zz.z}}};
    Rm = C;
  }
  if (attr(R, e, "quat", cls)) {
    if ((st = nums(R, e, "quat", cls, 4, q, NULL))) return st;
    Rm = lk_q_to_mat3(lk_q_normalize(lk_q(q[0], q[1], q[2], q[3])));
  } else if (attr(R, e, "axisangle", cls)) {
    if ((st = nums(R, e, "axisangle", cls, 4, aa, NULL))) return st;
    Rm = lk_m3_from_axis_angle(lk_v3(aa[0], aa[1], aa[2]), R->degree ? aa[3] * LK_PI / 180 : aa[3]);
  } else if (attr(R, e, "zaxis", cls)) {
    if ((st = nums(R, e, "zaxis", cls, 3, z, NULL))) return st;
    Rm = lk_rotation_z_to(lk_v3_normalize(lk_v3(z[0], z[1], z[2])));
  }
  *T = lk_tf(&Rm, lk_v3(p[0], p[1], p[2]));
  return LK_OK;
}

/* ---------------------------------------------------------------- geoms */

/* A material for MuJoCo's sliding friction mu (made once a value). */
static lk_status friction_material(mreader *R, double mu, const char **out) {
  for (int i = 0; i < R->nmats; i++)
    if (R->mat_mu[i] == mu) {
      *out = R->mats[i];
      return LK_OK;
    }
  char nm[64];
  snprintf(nm, sizeof nm, "mjcf_mu_%d", R->nmats);
  char **m2 = lk_realloc(R->mats, (size_t)(R->nmats + 1) * sizeof *m2);
  if (m2) R->mats = m2;
  double *u2 = lk_realloc(R->mat_mu, (size_t)(R->nmats + 1) * sizeof *u2);
  if (u2) R->mat_mu = u2;
  const char *s = lk_builder_strdup(B, nm);
  if (!m2 || !u2 || !s) return lk_builder_oom(B);
  R->mats[R->nmats] = (char *)s;
  R->mat_mu[R->nmats++] = mu;
  lk_material_spec ms;
  lk_material_spec_default(&ms);
  ms.name = s;
  ms.mu_static = ms.mu_dynamic = mu;
  *out = s;
  return lk_builder_add_material(B, &ms, 0);
}

/* An ellipsoid's shape: the hull of 8 rings of 16 points and the poles
 * on the surface (its volume 2.6 % below the ellipsoid's; the mass
 * properties use the exact solid: body()). */
static lk_status ellipsoid_mesh(mreader *R, xmlNode *e, const double abc[3], lk_mesh **out) {
  double v[(8 * 16 + 2) * 3];
  int n = 0;
  for (int i = 1; i <= 8; i++) {
    double th = LK_PI * i / 9;
    for (int k = 0; k < 16; k++) {
      double ph = 2 * LK_PI * k / 16;
      v[3 * n] = abc[0] * sin(th) * cos(ph);
      v[3 * n + 1] = abc[1] * sin(th) * sin(ph);
      v[3 * n + 2] = abc[2] * cos(th);
      n++;
    }
  }
  v[3 * n] = v[3 * n + 1] = 0, v[3 * n + 2] = abc[2], n++;
  v[3 * n] = v[3 * n + 1] = 0, v[3 * n + 2] = -abc[2], n++;
  lk_mesh_spec ms;
  lk_mesh_spec_default(&ms);
  ms.vertices = v;
  ms.count = n;
  lk_error me;
  lk_status st = lk_mesh_new(&ms, out, &me);
  if (st) return lk_xdoc_error(X, e, st, "<geom>: ellipsoid: %s", me.message);
  return LK_OK;
}

/* One <geom> -> g (in the body frame) and its mass. An ellipsoid's mesh
 * is made here (*own: the caller frees it once the model has its copy). */
static lk_status geom(mreader *R, xmlNode *e, int cls, const char *link, lk_geom_spec *g,
                      double *mass, lk_mesh **own, double ell[3], const lk_mesh_solid **solid) {
  lk_geom_spec_default(g);
  g->link = link;
  *own = NULL;
  *solid = NULL;
  /* Its name when it is one the model accepts (MuJoCo's may hold any
   * character; such a geom stays unnamed, as it is in messages' labels). */
  const char *gn = lk_xml_attr(e, "name");
  if (gn && *gn && strlen(gn) <= LK_IO_NAME_MAX &&
      gn[strspn(gn, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-")] == 0)
    g->name = gn;
  ell[0] = ell[1] = ell[2] = 0;
  const char *t = attr(R, e, "type", cls);
  if (!t) t = "sphere";
  static const char *const types[] = {"plane", "sphere", "capsule",  "box",
                                      "cylinder", "mesh", "ellipsoid"};
  int k = 0;
  while (k < 7 && strcmp(t, types[k]) != 0) k++;
  if (k == 7)
    return lk_xdoc_error(X, e, LK_UNSUPPORTED, "<geom>: type \"%.40s\" is not supported (plane, "
                         "sphere, capsule, box, cylinder, ellipsoid, mesh)", t);
  int ellipsoid = k == 6;
  g->type = ellipsoid ? LK_GEOM_MESH : (lk_geom_type)k;
  if (ellipsoid && attr(R, e, "fromto", cls))
    return lk_xdoc_error(X, e, LK_UNSUPPORTED, "<geom>: fromto on an ellipsoid is not supported");
  if (ellipsoid) {
    double sz[3] = {0, 0, 0};
    lk_status st = nums(R, e, "size", cls, 3, sz, NULL);
    if (st) return st;
    if (!(sz[0] > 0 && sz[1] > 0 && sz[2] > 0))
      return lk_xdoc_error(X, e, LK_SCHEMA_ERROR, "<geom>: an ellipsoid's 3 sizes must be positive");
    if ((st = ellipsoid_mesh(R, e, sz, own))) return st;
    g->mesh = *own;
    memcpy(ell, sz, sizeof sz);
  }
  if (g->type == LK_GEOM_MESH && !ellipsoid) {
    const char *mn = attr(R, e, "mesh", cls);
    if (!mn)
      return lk_xdoc_error(X, e, LK_SCHEMA_ERROR, "<geom>: a mesh geom needs mesh=\"NAME\"");
    int i = 0;
    while (i < R->nmeshes && strcmp(R->meshes[i].name, mn) != 0) i++;
    if (i == R->nmeshes)
      return lk_xdoc_error(X, e, LK_SCHEMA_ERROR, "<geom>: no <mesh name=\"%.60s\"> in <asset>",
                           mn);
    g->mesh = R->meshes[i].mesh;
    if (R->meshes[i].has_solid) *solid = &R->meshes[i].solid;
    if (!g->mesh) {
      /* A mesh that could not be read: a geom that only draws is left out
       * (noted); one that collides is refused with the reason. */
      double ct = 1, ca = 1;
      lk_status s2 = nums(R, e, "contype", cls, 1, &ct, NULL);
      if (!s2) s2 = nums(R, e, "conaffinity", cls, 1, &ca, NULL);
      if (s2) return s2;
      if (ct == 0 && ca == 0) {
        lk_xdoc_unread(X, R->meshes[i].e, "mesh file missing, its visual geoms left out:");
        return LK_NOT_FOUND_VISUAL;
      }
      return lk_xdoc_error(X, e, LK_SCHEMA_ERROR, "<geom>: mesh '%s': %s", mn, R->meshes[i].why);
    }
  }
  if (attr(R, e, "hfield", cls))
    return lk_xdoc_error(X, e, LK_UNSUPPORTED, "<geom>: height fields are not supported");
  double size[3] = {0, 0, 0}, ft[6];
  int ns;
  lk_status st = nums(R, e, "size", cls, 3, size, &ns);
  if (!st) st = frame(R, e, cls, &g->pose);
  if (st) return st;
  if (attr(R, e, "fromto", cls)) {
    if (g->type != LK_GEOM_CAPSULE && g->type != LK_GEOM_CYLINDER)
      return lk_xdoc_error(X, e, LK_UNSUPPORTED, "<geom>: fromto on a %s is not supported", t);
    if ((st = nums(R, e, "fromto", cls, 6, ft, NULL))) return st;
    lk_vec3 a = lk_v3(ft[0], ft[1], ft[2]), b = lk_v3(ft[3], ft[4], ft[5]);
    lk_vec3 d = lk_v3_sub(b, a);
    double len = lk_v3_norm(d);
    if (!(len > 0)) return lk_xdoc_error(X, e, LK_SCHEMA_ERROR, "<geom>: fromto of zero length");
    lk_mat3 Rm = lk_rotation_z_to(lk_v3_scale(d, 1.0 / len));
    g->pose = lk_tf(&Rm, lk_v3_scale(lk_v3_add(a, b), 0.5));
    size[1] = 0.5 * len;
  }
  switch (g->type) {
    case LK_GEOM_PLANE:
      break;
    case LK_GEOM_SPHERE:
      g->size[0] = size[0];
      break;
    case LK_GEOM_BOX:
      memcpy(g->size, size, sizeof size);
      break;
    default:
      g->size[0] = size[0];
      g->size[1] = size[1];
      break;
  }
  if (g->type != LK_GEOM_PLANE && g->type != LK_GEOM_MESH && !(g->size[0] > 0))
    return lk_xdoc_error(X, e, LK_SCHEMA_ERROR, "<geom>: size must be positive");
  if (g->type == LK_GEOM_CYLINDER && !(g->size[1] > 0)) {
    /* A cylinder of zero length has no volume: a disc is not a solid this
     * engine has; MuJoCo gives it no mass either. Kept as the thinnest
     * cylinder that is one (1e-6 of its radius), noted. */
    g->size[1] = 1e-6 * g->size[0];
    lk_xdoc_unread(X, e, "zero-length cylinder, made 1e-6 radius long:");
  }
  double ct = 1, ca = 1, fr[3] = {1, 0.005, 0.0001}, dens = 1000;
  int nf;
  if ((st = nums(R, e, "contype", cls, 1, &ct, NULL))) return st;
  if ((st = nums(R, e, "conaffinity", cls, 1, &ca, NULL))) return st;
  if ((st = nums(R, e, "friction", cls, 3, fr, &nf))) return st;
  if ((st = nums(R, e, "density", cls, 1, &dens, NULL))) return st;
  /* MuJoCo collides a pair when either geom's contype meets the other's
   * conaffinity: the model's LK_FILTER_EITHER (set in build()). */
  g->group = (unsigned)ct;
  g->mask = (unsigned)ca;
  if ((st = friction_material(R, fr[0], &g->material))) return st;
  *mass = ellipsoid  ? dens * 4.0 / 3 * LK_PI * ell[0] * ell[1] * ell[2]
          : *solid ? dens * (*solid)->volume
                   : dens * lk_geom_volume(g);
  if (attr(R, e, "mass", cls) && (st = nums(R, e, "mass", cls, 1, mass, NULL))) return st;
  return LK_OK;
}

/* ---------------------------------------------------------------- bodies */

/* A solid geom's centre of volume in the body frame (a primitive's is its
 * origin, a mesh's its solid's centroid, or its hull's). */
static lk_vec3 solid_centre(const lk_geom_spec *g, const lk_mesh_solid *solid) {
  if (solid) return lk_tf_point(&g->pose, solid->centroid);
  if (g->type == LK_GEOM_MESH && g->mesh) return lk_tf_point(&g->pose, lk_mesh_centroid(g->mesh));
  return g->pose.p;
}

typedef struct {
  lk_geom_spec g[64];
  double mass[64];
  xmlNode *e[64];
  lk_mesh *own[64]; /* an ellipsoid's mesh */
  double ell[64][3]; /* its semi-axes (0: not an ellipsoid) */
  const lk_mesh_solid *solid[64]; /* a mesh's solid (NULL: its hull) */
  int n;
} body_geoms;

static const char *unnamed(mreader *R, const char *kind) {
  char nm[64];
  snprintf(nm, sizeof nm, "%s%d", kind, R->nunnamed++);
  return lk_builder_strdup(B, nm);
}

static lk_status name_of(mreader *R, xmlNode *e, const char *kind, const char **out) {
  const char *s = lk_xml_attr(e, "name");
  if (!s) {
    *out = unnamed(R, kind);
    return *out ? LK_OK : lk_builder_oom(B);
  }
  size_t n = strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-");
  if (!*s || s[n] || n > LK_IO_NAME_MAX)
    return lk_xdoc_error(X, e, LK_SCHEMA_ERROR,
                         "<%s>: name \"%.80s\" is not a valid name (use at most %d letters, "
                         "digits, '_' and '-')",
                         kind, s, LK_IO_NAME_MAX);
  *out = s;
  return LK_OK;
}

static lk_status add_link(mreader *R, lk_link_spec *s, xmlNode *e, xmlNode *je) {
  lk_blink r = {s->name, s->joint.name, (int)s->joint.type, -1, lk_xdoc_loc(X, e), 0,
                lk_xdoc_loc(X, je ? je : e), 0};
  lk_status st = lk_builder_unique(B, "link", s->name, r.loc);
  if (!st) st = lk_builder_unique(B, "joint", s->joint.name, r.joint_loc);
  if (!st) st = lk_builder_push_link(B, &r, NULL);
  if (!st) st = lk_builder_add_link(B, s, r.loc, r.joint_loc);
  return st;
}

/* A joint's ref (its position in the file's pose), in its units. */
static lk_status joint_ref(mreader *R, xmlNode *e, int cls, double *ref) {
  *ref = 0;
  if (lk_xml_is(e, "freejoint")) return LK_OK;
  lk_status st = nums(R, e, "ref", cls, 1, ref, NULL);
  const char *t = attr(R, e, "type", cls);
  if (!st && R->degree && (!t || strcmp(t, "hinge") == 0)) *ref *= LK_PI / 180;
  return st;
}

/* One joint element -> the joint spec (the anchor into *anchor). */
static lk_status joint(mreader *R, xmlNode *e, int cls, lk_joint_spec *j, lk_vec3 *anchor) {
  const char *t = lk_xml_is(e, "freejoint") ? "free" : attr(R, e, "type", cls);
  if (!t) t = "hinge";
  double p[3] = {0, 0, 0}, ax[3] = {0, 0, 1}, range[2] = {0, 0};
  lk_status st = LK_OK;
  if (!lk_xml_is(e, "freejoint")) {
    if (!st) st = nums(R, e, "pos", cls, 3, p, NULL);
    if (!st) st = nums(R, e, "axis", cls, 3, ax, NULL);
    if (!st) st = nums(R, e, "range", cls, 2, range, NULL);
    if (!st) st = nums(R, e, "damping", cls, 1, &j->damping, NULL);
    if (!st) st = nums(R, e, "stiffness", cls, 1, &j->stiffness, NULL);
    if (!st) st = nums(R, e, "armature", cls, 1, &j->armature, NULL);
    if (!st) st = nums(R, e, "frictionloss", cls, 1, &j->friction, NULL);
    if (!st) st = nums(R, e, "springref", cls, 1, &j->rest, NULL);
    if (st) return st;
    /* MuJoCo 3's clamp of the actuators' total force on the joint: not
     * read (the actuators' own forcerange is). */
    if (attr(R, e, "actuatorfrcrange", cls)) lk_xdoc_unread(X, e, "actuatorfrcrange of");
  }
  *anchor = lk_v3(p[0], p[1], p[2]);
  j->axis = lk_v3(ax[0], ax[1], ax[2]);
  int angular = 0;
  if (strcmp(t, "hinge") == 0) {
    j->type = LK_JOINT_REVOLUTE;
    angular = 1;
  } else if (strcmp(t, "slide") == 0) {
    j->type = LK_JOINT_PRISMATIC;
  } else if (strcmp(t, "ball") == 0) {
    j->type = LK_JOINT_BALL;
    angular = 1;
  } else if (strcmp(t, "free") == 0) {
    j->type = LK_JOINT_FREE;
    return LK_OK;
  } else {
    return lk_xdoc_error(X, e, LK_UNSUPPORTED, "<joint>: type \"%.40s\" is not supported", t);
  }
  double f = angular && R->degree ? LK_PI / 180 : 1;
  const char *lim = attr(R, e, "limited", cls);
  int has_range = attr(R, e, "range", cls) != NULL;
  if (is_true(lim) || ((!lim || strcmp(lim, "auto") == 0) && has_range)) {
    j->limited = 1;
    j->lower = j->type == LK_JOINT_BALL ? 0 : range[0] * f;
    j->upper = j->type == LK_JOINT_BALL ? range[1] * f : range[1] * f;
  }
  return LK_OK;
}

/* A body and its subtree. parent: the link the body's frame hangs from
 * (its last link), whose frame is the parent body's moved by poff;
 * pworld: the parent is the world or welded to it. */
/* The named <site>s of a body (or the world): their place on its link
 * (the body frame moved by -off), for <sensor>. */
static lk_status note_sites(mreader *R, xmlNode *e, const char *link, lk_vec3 off) {
  for (xmlNode *c = lk_xml_first(e); c; c = lk_xml_next(c)) {
    if (!lk_xml_is(c, "site")) continue;
    const char *nm = lk_xml_attr(c, "name");
    if (!nm) continue;
    double p[3] = {0, 0, 0};
    lk_status st = nums(R, c, "pos", -1, 3, p, NULL);
    if (st) return st;
    if (R->nsites == R->capsites) {
      int cap = R->capsites ? 2 * R->capsites : 32;
      struct msite *g = lk_realloc(R->sites, (size_t)cap * sizeof *g);
      if (!g) return lk_builder_oom(B);
      R->sites = g;
      R->capsites = cap;
    }
    R->sites[R->nsites].name = nm;
    R->sites[R->nsites].link = link;
    R->sites[R->nsites++].point = lk_v3_sub(lk_v3(p[0], p[1], p[2]), off);
  }
  return LK_OK;
}

static lk_status note_geom_name(mreader *R, const char *name) {
  if (!name) return LK_OK;
  if (R->ngnames == R->capgnames) {
    int cap = R->capgnames ? 2 * R->capgnames : 64;
    const char **g = lk_realloc(R->gnames, (size_t)cap * sizeof *g);
    if (!g) return lk_builder_oom(B);
    R->gnames = g;
    R->capgnames = cap;
  }
  R->gnames[R->ngnames++] = name;
  return LK_OK;
}

static lk_status push_body(mreader *R, const char *name, const lk_transform *world, lk_vec3 off,
                           lk_vec3 com) {
  if (R->nbodies == R->capbodies) {
    int cap = R->capbodies ? 2 * R->capbodies : 32;
    struct mbody *g = lk_realloc(R->bodies, (size_t)cap * sizeof *g);
    if (!g) return lk_builder_oom(B);
    R->bodies = g;
    R->capbodies = cap;
  }
  R->bodies[R->nbodies].name = name;
  R->bodies[R->nbodies].world = *world;
  R->bodies[R->nbodies].com = com;
  R->bodies[R->nbodies++].off = off;
  return LK_OK;
}

static lk_status push_jref(mreader *R, const char *name, double read, double ref) {
  if (R->njrefs == R->capjrefs) {
    int cap = R->capjrefs ? 2 * R->capjrefs : 32;
    struct mjref *g = lk_realloc(R->jrefs, (size_t)cap * sizeof *g);
    if (!g) return lk_builder_oom(B);
    R->jrefs = g;
    R->capjrefs = cap;
  }
  R->jrefs[R->njrefs].name = name;
  R->jrefs[R->njrefs].read = read;
  R->jrefs[R->njrefs++].ref = ref;
  return LK_OK;
}

static lk_status body(mreader *R, xmlNode *e, const char *parent, lk_vec3 poff, int inherited,
                      int pworld, const lk_transform *pw) {
  static const char *const known[] = {"body", "joint", "freejoint", "geom", "inertial", NULL};
  lk_status st = lk_xdoc_children(X, e, "body", known, kIgnored);
  if (st) return st;
  int cls = inherited;
  if ((st = class_of(R, e, inherited, &cls))) return st;
  int child_cls = cls;
  const char *cc = lk_xml_attr(e, "childclass");
  if (cc && (child_cls = find_class(R, cc)) < 0)
    return lk_xdoc_error(X, e, LK_SCHEMA_ERROR, "<body>: unknown childclass '%.60s'", cc);
  const char *bname;
  if ((st = name_of(R, e, "body", &bname))) return st;
  /* Gravity compensation (MuJoCo 3) changes the dynamics: not read. */
  const char *gcomp = lk_xml_attr(e, "gravcomp");
  if (gcomp && strtod(gcomp, NULL) != 0) lk_xdoc_unread(X, e, "gravcomp of");
  lk_transform local;
  if ((st = frame(R, e, -1, &local))) return st;
  lk_transform world = lk_tf_mul(pw, &local); /* the body's, at qpos0 */
  /* In the parent link's frame. */
  local.p = lk_v3_sub(local.p, poff);

  /* The joints, in order: a chain of links. */
  xmlNode *joints[16];
  int nj = 0;
  for (xmlNode *c = lk_xml_first(e); c; c = lk_xml_next(c))
    if (lk_xml_is(c, "joint") || lk_xml_is(c, "freejoint")) {
      if (nj == 16) return lk_xdoc_error(X, c, LK_UNSUPPORTED, "<body>: more than 16 joints");
      joints[nj++] = c;
    }
  /* Each joint's name, once (an unnamed one gets the next free
   * "jointN"). */
  const char *jnames[16];
  for (int i = 0; i < nj; i++)
    if ((st = name_of(R, joints[i], "joint", &jnames[i]))) return st;
  for (int i = 0; i < nj; i++) { /* qpos order, for keyframes */
    int jc;
    if ((st = class_of(R, joints[i], child_cls, &jc))) return st;
    const char *t = lk_xml_is(joints[i], "freejoint") ? "free" : attr(R, joints[i], "type", jc);
    if (R->njorder == R->capjorder) {
      int cap = R->capjorder ? 2 * R->capjorder : 64;
      const char **o = lk_realloc(R->jorder, (size_t)cap * sizeof *o);
      if (o) R->jorder = o;
      int *q = lk_realloc(R->jnq, (size_t)cap * sizeof *q);
      if (q) R->jnq = q;
      if (!o || !q) return lk_builder_oom(B);
      R->capjorder = cap;
    }
    R->jorder[R->njorder] = jnames[i];
    R->jnq[R->njorder++] = t && !strcmp(t, "free") ? 7 : t && !strcmp(t, "ball") ? 4 : 1;
  }
  const char *prev = parent;
  lk_vec3 prev_anchor = lk_v3_zero();
  lk_transform first = local;
  for (int i = 0; i < nj; i++) {
    int jc;
    if ((st = class_of(R, joints[i], child_cls, &jc))) return st;
    lk_link_spec s;
    lk_link_spec_default(&s);
    lk_vec3 anchor;
    if ((st = joint(R, joints[i], jc, &s.joint, &anchor))) return st;
    s.joint.name = jnames[i];
    if (s.joint.type == LK_JOINT_FREE) {
      if (nj != 1 || strcmp(parent, "world") != 0)
        return lk_xdoc_error(X, joints[i], LK_UNSUPPORTED,
                             "<%s>: a free joint must be the only joint of a body on the world",
                             (const char *)joints[i]->name);
      anchor = lk_v3_zero();
    }
    s.name = i == nj - 1 ? bname : s.joint.name;
    s.parent = prev;
    if (i == 0) {
      s.origin = lk_tf(&first.R, lk_v3_add(first.p, lk_m3_mulv(&first.R, anchor)));
    } else {
      lk_mat3 I = lk_m3_identity();
      s.origin = lk_tf(&I, lk_v3_sub(anchor, prev_anchor));
    }
    if (s.joint.type == LK_JOINT_FREE) {
      /* qpos is the world pose, as in MuJoCo */
      lk_quat q = lk_q_from_mat3(&local.R);
      double q0[7] = {local.p.x, local.p.y, local.p.z, q.w, q.x, q.y, q.z};
      s.origin = lk_tf_identity();
      s.mass = 1; /* replaced below (the body) */
      if ((st = lk_builder_set_initial(B, s.joint.name, q0, 7, NULL, 0, lk_xdoc_loc(X, joints[i]))))
        return st;
    }
    if (i < nj - 1) {
      s.mass = TINY_MASS;
      s.inertia = lk_m3_diag(TINY_INERTIA, TINY_INERTIA, TINY_INERTIA);
      if ((st = add_link(R, &s, joints[i], joints[i]))) return st;
    } else {
      /* the body itself: added with its mass below */
      prev_anchor = anchor;
      break;
    }
    prev = s.name;
    prev_anchor = anchor;
  }

  /* Geoms and mass, in the body's last link (moved by -anchor). */
  body_geoms *bg = LK_NEW_ARRAY(body_geoms, 1);
  if (!bg) return lk_builder_oom(B);
  for (xmlNode *c = lk_xml_first(e); c && !st; c = lk_xml_next(c)) {
    if (!lk_xml_is(c, "geom")) continue;
    if (bg->n == 64) {
      st = lk_xdoc_error(X, c, LK_UNSUPPORTED, "<body>: more than 64 geoms");
      break;
    }
    int gc;
    if ((st = class_of(R, c, child_cls, &gc))) break;
    st = geom(R, c, gc, bname, &bg->g[bg->n], &bg->mass[bg->n], &bg->own[bg->n], bg->ell[bg->n],
              &bg->solid[bg->n]);
    if (st == LK_NOT_FOUND_VISUAL) {
      st = LK_OK;
      continue;
    }
    if (!st && bg->g[bg->n].type == LK_GEOM_PLANE)
      st = lk_xdoc_error(X, c, LK_UNSUPPORTED, "<geom>: a plane on a body is not supported");
    bg->g[bg->n].pose.p = lk_v3_sub(bg->g[bg->n].pose.p, prev_anchor);
    bg->e[bg->n++] = c;
  }
  lk_link_spec s;
  lk_link_spec_default(&s);
  s.name = bname;
  s.parent = prev;
  if (nj == 0) {
    s.origin = local;
    s.joint.name = bname;
  } else {
    int jc;
    lk_vec3 anchor;
    double ref = 0;
    if (!st) st = class_of(R, joints[nj - 1], child_cls, &jc);
    if (!st) st = joint(R, joints[nj - 1], jc, &s.joint, &anchor);
    if (!st) st = joint_ref(R, joints[nj - 1], jc, &ref);
    s.joint.name = jnames[nj - 1];
    if (nj == 1) {
      s.origin = lk_tf(&local.R, lk_v3_add(local.p, lk_m3_mulv(&local.R, anchor)));
    } else {
      lk_mat3 I = lk_m3_identity();
      /* anchor of the joint before the last */
      double pp[3] = {0, 0, 0};
      int pc;
      if (!st) st = class_of(R, joints[nj - 2], child_cls, &pc);
      if (!st) st = nums(R, joints[nj - 2], "pos", pc, 3, pp, NULL);
      s.origin = lk_tf(&I, lk_v3_sub(anchor, lk_v3(pp[0], pp[1], pp[2])));
    }
    if (s.joint.type == LK_JOINT_FREE) s.origin = lk_tf_identity();
    /* ref: the file's pose is the joint at q = ref (MuJoCo's qpos0), so
     * the link's origin is that pose moved back by ref along the joint,
     * and the joint starts at ref. Read on a body's only joint. */
    if (!st && ref != 0 && nj == 1 &&
        (s.joint.type == LK_JOINT_REVOLUTE || s.joint.type == LK_JOINT_PRISMATIC)) {
      lk_vec3 ax = lk_v3_normalize(s.joint.axis);
      if (s.joint.type == LK_JOINT_REVOLUTE) {
        lk_mat3 Rr = lk_m3_from_axis_angle(ax, -ref);
        s.origin.R = lk_m3_mul(&s.origin.R, &Rr);
      } else {
        s.origin.p = lk_v3_add(s.origin.p, lk_m3_mulv(&s.origin.R, lk_v3_scale(ax, -ref)));
      }
      st = lk_builder_set_initial(B, s.joint.name, &ref, 1, NULL, 0, lk_xdoc_loc(X, joints[0]));
    } else if (!st && ref != 0) {
      lk_xdoc_unread(X, joints[nj - 1], "ref on a body of several joints:");
    }
    /* Each joint's ref, for <equality><joint> (read on a body's only
     * joint, as above). */
    for (int i = 0; i < nj && !st; i++) {
      int jc2;
      double r = 0;
      st = class_of(R, joints[i], child_cls, &jc2);
      if (!st) st = joint_ref(R, joints[i], jc2, &r);
      int read = nj == 1 && (s.joint.type == LK_JOINT_REVOLUTE || s.joint.type == LK_JOINT_PRISMATIC);
      if (!st) st = push_jref(R, jnames[i], read ? r : 0, r);
    }
  }
  /* Mass properties: <inertial>, else from the geoms. */
  xmlNode *in = lk_xml_child(e, "inertial");
  if (!st && in && R->inertia_from_geom != 1) {
    double m = 0, di[3] = {0, 0, 0}, fi[6];
    lk_transform T;
    st = frame(R, in, -1, &T);
    if (!st) st = nums(R, in, "mass", -1, 1, &m, NULL);
    if (!st && lk_xml_attr(in, "fullinertia")) {
      st = nums(R, in, "fullinertia", -1, 6, fi, NULL);
      lk_mat3 I = {{{fi[0], fi[3], fi[4]}, {fi[3], fi[1], fi[5]}, {fi[4], fi[5], fi[2]}}};
      s.inertia = lk_m3_rotate_tensor(&T.R, &I);
    } else if (!st) {
      st = nums(R, in, "diaginertia", -1, 3, di, NULL);
      lk_mat3 I = lk_m3_diag(di[0], di[1], di[2]);
      s.inertia = lk_m3_rotate_tensor(&T.R, &I);
    }
    for (int r = 0; r < 3; r++)
      for (int c = r + 1; c < 3; c++)
        s.inertia.m[r][c] = s.inertia.m[c][r] = 0.5 * (s.inertia.m[r][c] + s.inertia.m[c][r]);
    s.mass = m;
    s.com = lk_v3_sub(T.p, prev_anchor);
  } else if (!st && bg->n > 0) {
    /* Each geom's own mass (density x volume, or given), combined. */
    double M = 0;
    lk_vec3 c = lk_v3_zero();
    for (int i = 0; i < bg->n; i++) {
      M += bg->mass[i];
      c = lk_v3_madd(c, solid_centre(&bg->g[i], bg->solid[i]), bg->mass[i]);
    }
    if (M > 0) {
      c = lk_v3_scale(c, 1.0 / M);
      lk_mat3 acc = lk_m3_zero();
      for (int i = 0; i < bg->n; i++) {
        lk_mat3 Ig;
        if (bg->ell[i][0] > 0) {
          /* the solid ellipsoid: m/5 (b^2 + c^2), ... */
          double a2 = bg->ell[i][0] * bg->ell[i][0], b2 = bg->ell[i][1] * bg->ell[i][1],
                 c2 = bg->ell[i][2] * bg->ell[i][2], f = bg->mass[i] / 5;
          Ig = lk_m3_diag(f * (b2 + c2), f * (a2 + c2), f * (a2 + b2));
        } else if (bg->solid[i]) {
          /* the solid's, at a density of mass / volume */
          Ig = lk_m3_scale(&bg->solid[i]->inertia, bg->mass[i] / bg->solid[i]->volume);
        } else if (bg->g[i].type == LK_GEOM_MESH) {
          /* the hull's, at a density of mass / volume */
          lk_mat3 Iu = lk_mesh_inertia(bg->g[i].mesh);
          Ig = lk_m3_scale(&Iu, bg->mass[i] / lk_mesh_volume(bg->g[i].mesh));
        } else if (lk_geom_solid_inertia(bg->g[i].type, bg->g[i].size, bg->mass[i], &Ig, NULL)) {
          continue;
        }
        lk_mat3 Ir = lk_m3_rotate_tensor(&bg->g[i].pose.R, &Ig);
        lk_vec3 d = lk_v3_sub(solid_centre(&bg->g[i], bg->solid[i]), c);
        double d2 = lk_v3_norm2(d);
        lk_mat3 dd = lk_m3_outer(d, d);
        for (int r = 0; r < 3; r++)
          for (int k = 0; k < 3; k++)
            acc.m[r][k] += Ir.m[r][k] + bg->mass[i] * ((r == k ? d2 : 0) - dd.m[r][k]);
      }
      for (int r = 0; r < 3; r++)
        for (int k = r + 1; k < 3; k++) acc.m[r][k] = acc.m[k][r] = 0.5 * (acc.m[r][k] + acc.m[k][r]);
      s.mass = M;
      s.com = c;
      s.inertia = acc;
    }
  }
  if (!st && s.joint.type != LK_JOINT_FIXED && !(s.mass > 0))
    st = lk_xdoc_error(X, e, LK_SCHEMA_ERROR, "body '%s': no mass (no <inertial>, no solid geom)",
                       bname);
  if (!st) st = push_body(R, bname, &world, prev_anchor, s.com);
  if (!st) st = note_sites(R, e, bname, prev_anchor);
  if (!st) st = add_link(R, &s, e, nj ? joints[nj - 1] : e);
  /* MuJoCo never collides a body with its parent (unless the parent is
   * the world). Linkage's own rule sees the parent link, which for a body
   * of several joints is the massless link before the last joint: the
   * pair is excluded explicitly. */
  if (!st && nj > 1 && !pworld)
    st = lk_builder_add_exclude(B, bname, parent);
  for (int i = 0; i < bg->n && !st; i++) {
    st = lk_builder_add_geom(B, &bg->g[i], lk_xdoc_loc(X, bg->e[i]));
    if (!st) st = note_geom_name(R, bg->g[i].name);
  }
  for (int i = 0; i < bg->n; i++) lk_mesh_free(bg->own[i]);
  lk_free(bg);
  if (st) return st;
  for (xmlNode *c = lk_xml_first(e); c; c = lk_xml_next(c))
    if (lk_xml_is(c, "body") &&
        (st = body(R, c, bname, prev_anchor, child_cls, pworld && nj == 0, &world)))
      return st;
  return LK_OK;
}

/* ------------------------------------------------------------ sections */

static lk_status worldbody(mreader *R, xmlNode *e) {
  static const char *const known[] = {"body", "geom", NULL};
  lk_status st = lk_xdoc_children(X, e, "worldbody", known, kIgnored);
  if (!st) st = note_sites(R, e, "world", lk_v3_zero());
  for (xmlNode *c = lk_xml_first(e); c && !st; c = lk_xml_next(c)) {
    if (lk_xml_is(c, "geom")) {
      lk_geom_spec g;
      double m, ell[3];
      lk_mesh *own = NULL;
      int gc;
      st = class_of(R, c, 0, &gc);
      const lk_mesh_solid *sol;
      if (!st) st = geom(R, c, gc, "world", &g, &m, &own, ell, &sol);
      if (st == LK_NOT_FOUND_VISUAL) {
        st = LK_OK;
        continue;
      }
      if (!st) st = lk_builder_add_geom(B, &g, lk_xdoc_loc(X, c));
      if (!st) st = note_geom_name(R, g.name);
      lk_mesh_free(own);
    } else if (lk_xml_is(c, "body")) {
      lk_transform I = lk_tf_identity();
      st = body(R, c, "world", lk_v3_zero(), 0, 1, &I);
    }
  }
  return st;
}


/* -------------------------------------------------------------- tendons */

/* <tendon><fixed name><joint joint coef/>...: a length L = sum coef_i q_i
 * (MJCF reference, "tendon/fixed"), kept for the actuators that name it.
 * Its own properties (range, limited, stiffness, damping, springlength,
 * frictionloss) and spatial tendons are listed as not read. */
static lk_status tendons(mreader *R, xmlNode *e) {
  static const char *const known[] = {"fixed", NULL};
  static const char *const unread[] = {"spatial", NULL};
  lk_status st = lk_xdoc_children_unread(X, e, "tendon", known, NULL, unread, NULL);
  for (xmlNode *c = lk_xml_first(e); c && !st; c = lk_xml_next(c)) {
    if (!lk_xml_is(c, "fixed")) continue;
    static const char *const jknown[] = {"joint", NULL};
    if ((st = lk_xdoc_children(X, c, "fixed", jknown, NULL))) break;
    static const char *const props[] = {"range", "limited", "stiffness", "damping",
                                        "springlength", "frictionloss", NULL};
    for (int k = 0; props[k]; k++)
      if (lk_xml_attr(c, props[k])) {
        char w[40];
        snprintf(w, sizeof w, "(%s) of", props[k]);
        lk_xdoc_unread(X, c, w);
      }
    void *g = lk_realloc(R->tendons, (size_t)(R->ntendons + 1) * sizeof *R->tendons);
    if (!g) return lk_builder_oom(B);
    R->tendons = g;
    struct mtendon *t = &R->tendons[R->ntendons];
    memset(t, 0, sizeof *t);
    t->name = lk_xml_attr(c, "name");
    if (!t->name) {
      lk_xdoc_unread(X, c, "(unnamed: no actuator can name it)");
      continue;
    }
    for (int i = 0; i < R->ntendons; i++)
      if (strcmp(R->tendons[i].name, t->name) == 0)
        return lk_xdoc_error(X, c, LK_SCHEMA_ERROR, "<fixed>: a second tendon named '%.60s'",
                             t->name);
    for (xmlNode *j = lk_xml_first(c); j && !st; j = lk_xml_next(j)) {
      const char *jn = lk_xml_attr(j, "joint");
      if (!jn) return lk_xdoc_error(X, j, LK_SCHEMA_ERROR, "<joint>: missing required attribute 'joint'");
      if (!lk_xml_attr(j, "coef"))
        return lk_xdoc_error(X, j, LK_SCHEMA_ERROR, "<joint>: missing required attribute 'coef'");
      if (t->n == 16) return lk_xdoc_error(X, j, LK_UNSUPPORTED, "<fixed>: more than 16 joints");
      char shown[96];
      snprintf(shown, sizeof shown, "'%.80s'", jn);
      if ((st = lk_builder_ref_joint(B, lk_xdoc_loc(X, j), "<fixed> tendon: joint", jn, shown, 1,
                                     &t->joint[t->n], NULL)))
        break;
      t->joint[t->n] = jn;
      if ((st = nums(R, j, "coef", -1, 1, &t->coef[t->n], NULL))) break;
      t->n++;
    }
    if (!st && t->n == 0)
      return lk_xdoc_error(X, c, LK_SCHEMA_ERROR, "<fixed> tendon '%.60s': no <joint>", t->name);
    if (!st) R->ntendons++;
  }
  return st;
}

/* A fixed tendon as one joint: its joints tied to the first one by the
 * joint equalities read (q_i = r_i q_0 + o_i, found along the chain of
 * equalities), its length is L = G q_0 + const, G = sum coef_i r_i, and
 * a force f along it does the work of a torque G f on joint 0. An
 * actuator on the tendon is then one on joint 0 with its gear times G:
 * exact while the equalities hold (here they are rigid). *O: the
 * constant of L (a servo's target moves by -O / G). 0 when some
 * joint is not tied to the first one (or G is 0). */
static int tendon_as_joint(const mreader *R, const struct mtendon *t, const char **joint,
                           double *G, double *O) {
  const char *name[96];
  double r[96], o[96];
  int n = 1;
  name[0] = t->joint[0];
  r[0] = 1;
  o[0] = 0;
  for (int pass = 0, grew = 1; grew && pass <= R->ncoup; pass++) {
    grew = 0;
    for (int k = 0; k < R->ncoup && n < 96; k++) {
      const struct mcoup *c = &R->coup[k];
      int ia = -1, ib = -1;
      for (int i = 0; i < n; i++) {
        if (strcmp(name[i], c->a) == 0) ia = i;
        if (strcmp(name[i], c->b) == 0) ib = i;
      }
      if (ib >= 0 && ia < 0) { /* q_a = ratio q_b + offset */
        name[n] = c->a;
        o[n] = c->ratio * o[ib] + c->offset;
        r[n++] = c->ratio * r[ib];
        grew = 1;
      } else if (ia >= 0 && ib < 0 && c->ratio != 0) {
        name[n] = c->b;
        o[n] = (o[ia] - c->offset) / c->ratio;
        r[n++] = r[ia] / c->ratio;
        grew = 1;
      }
    }
  }
  double g = 0, off = 0;
  for (int j = 0; j < t->n; j++) {
    int i = 0;
    while (i < n && strcmp(name[i], t->joint[j]) != 0) i++;
    if (i == n) return 0;
    g += t->coef[j] * r[i];
    off += t->coef[j] * o[i];
  }
  if (!(g != 0)) return 0;
  *joint = t->joint[0];
  *G = g;
  *O = off;
  return 1;
}

/* <actuator>: motor, position, velocity and general on a joint, as
 * Linkage's actuators (joint torque = gear x actuator force):
 *   - motor: an effort actuator, |tau| <= |gear| max|ctrlrange| when the
 *     control is limited, and <= |gear| max|forcerange| when the force is;
 *   - position (kp, kv) and velocity (kv): servos with the gains times
 *     gear^2 (the force is gear x kp (ctrl - gear q));
 *   - general: gain gainprm[0] and bias biasprm (biastype affine: force =
 *     g ctrl + b0 + b1 q + b2 v): with b1 = -g and b0 = 0 a position servo
 *     of kp g and kv -b2, with b1 = 0 and b2 < 0 and b0 = 0 a velocity one
 *     of kv -b2 (when g = -b2); biastype none (a motor) an effort one.
 * Other transmissions (tendon, site, body), activation dynamics and gain
 * types are noted as not read, and the actuator left out. */
static lk_status actuators(mreader *R, xmlNode *e) {
  static const char *const known[] = {"motor", "position", "velocity", "general", NULL};
  static const char *const unread[] = {"muscle", "cylinder", "damper", "intvelocity",
                                       "adhesion", "plugin", NULL};
  lk_status st = lk_xdoc_children_unread(X, e, "actuator", known, NULL, unread, NULL);
  for (xmlNode *c = lk_xml_first(e); c && !st; c = lk_xml_next(c)) {
    int k = 0;
    while (known[k] && !lk_xml_is(c, known[k])) k++;
    if (!known[k]) continue;
    int cls;
    if ((st = class_of(R, c, 0, &cls))) break;
    lk_actuator_spec a;
    lk_actuator_spec_default(&a);
    const char *jn = lk_xml_attr(c, "joint"), *tn = lk_xml_attr(c, "tendon");
    double tendon_gear = 1, tendon_off = 0;
    if (!jn && tn) {
      int t = 0;
      while (t < R->ntendons && strcmp(R->tendons[t].name, tn) != 0) t++;
      if (t == R->ntendons) {
        st = lk_xdoc_error(X, c, LK_SCHEMA_ERROR, "<%s>: no fixed <tendon> named '%.60s'",
                           (const char *)c->name, tn);
        break;
      }
      if (!tendon_as_joint(R, &R->tendons[t], &jn, &tendon_gear, &tendon_off)) {
        char w[160];
        const char *an = lk_xml_attr(c, "name");
        snprintf(w, sizeof w, "%s%.60s%s(on tendon '%.60s', whose joints no joint equality ties)",
                 an ? "'" : "", an ? an : "", an ? "' " : "", tn);
        lk_xdoc_unread(X, c, w);
        continue;
      }
      if (tendon_off != 0)
        lk_builder_warn(B, lk_xdoc_loc(X, c),
                        "<%s>: tendon '%s' is %g longer than %g times joint '%s': a servo's "
                        "target is MuJoCo's less %g",
                        (const char *)c->name, tn, tendon_off, tendon_gear, jn,
                        tendon_off / tendon_gear);
    }
    if (!jn) {
      lk_xdoc_unread(X, c, "(not on a joint)");
      continue;
    }
    const char *dyn = attr(R, c, "dyntype", cls), *gt = attr(R, c, "gaintype", cls);
    if ((dyn && strcmp(dyn, "none") != 0) || (gt && strcmp(gt, "fixed") != 0)) {
      lk_xdoc_unread(X, c, "(dyntype or gaintype)");
      continue;
    }
    char shown[96];
    snprintf(shown, sizeof shown, "'%.80s'", jn);
    char what[64];
    snprintf(what, sizeof what, "<%s>: joint", (const char *)c->name);
    if ((st = lk_builder_ref_joint(B, lk_xdoc_loc(X, c), what, jn, shown, 1, &a.joint, NULL)))
      break;
    if (lk_xml_attr(c, "name") && (st = name_of(R, c, "actuator", &a.name))) break;
    double gear = 1, cr[2] = {0, 0}, fr[2] = {0, 0}, kp = 1, kv = 0;
    double gain[3] = {1, 0, 0}, bias[3] = {0, 0, 0};
    int ng, nb;
    if ((st = nums(R, c, "gear", cls, 1, &gear, NULL))) break;
    gear *= tendon_gear; /* a tendon's: its gear on its first joint */
    if ((st = nums(R, c, "ctrlrange", cls, 2, cr, NULL))) break;
    if ((st = nums(R, c, "forcerange", cls, 2, fr, NULL))) break;
    a.max_effort = INFINITY;
    const char *cl = attr(R, c, "ctrllimited", cls), *fl = attr(R, c, "forcelimited", cls);
    int ctrl_limited = is_true(cl) || (attr(R, c, "ctrlrange", cls) && (!cl || !strcmp(cl, "auto")));
    int force_limited =
        is_true(fl) || (attr(R, c, "forcerange", cls) && (!fl || !strcmp(fl, "auto")));
    if (force_limited) a.max_effort = fabs(gear) * fmax(fabs(fr[0]), fabs(fr[1]));
    if (lk_xml_is(c, "motor")) {
      if (ctrl_limited)
        a.max_effort = fmin(a.max_effort, fabs(gear) * fmax(fabs(cr[0]), fabs(cr[1])));
    } else if (lk_xml_is(c, "position")) {
      if ((st = nums(R, c, "kp", cls, 1, &kp, NULL))) break;
      if ((st = nums(R, c, "kv", cls, 1, &kv, NULL))) break;
      a.type = LK_ACTUATOR_POSITION;
      a.kp = kp * gear * gear;
      a.kv = kv * gear * gear;
    } else if (lk_xml_is(c, "velocity")) {
      if ((st = nums(R, c, "kv", cls, 1, &kv, NULL))) break;
      a.type = LK_ACTUATOR_VELOCITY;
      a.kv = kv * gear * gear;
    } else { /* general */
      if ((st = nums(R, c, "gainprm", cls, 3, gain, &ng))) break;
      if ((st = nums(R, c, "biasprm", cls, 3, bias, &nb))) break;
      const char *bt = attr(R, c, "biastype", cls);
      int affine = bt && strcmp(bt, "affine") == 0;
      if (bt && !affine && strcmp(bt, "none") != 0) {
        lk_xdoc_unread(X, c, "(biastype)");
        continue;
      }
      if (!affine) {
        if (ctrl_limited)
          a.max_effort =
              fmin(a.max_effort, fabs(gear * gain[0]) * fmax(fabs(cr[0]), fabs(cr[1])));
      } else if (bias[0] == 0 && bias[1] < 0 && bias[2] <= 0 && gain[0] > 0) {
        /* force = kp (s ctrl - L) - kv dL/dt, kp = -biasprm[1], s =
         * gain / kp: a position servo whose target (in the joint's
         * units) is s ctrl / gear, told when s is not 1 */
        a.type = LK_ACTUATOR_POSITION;
        a.kp = -bias[1] * gear * gear;
        a.kv = -bias[2] * gear * gear;
        if (gain[0] != -bias[1])
          lk_builder_warn(B, lk_xdoc_loc(X, c),
                          "<general>: gainprm %g and biasprm[1] %g: a position servo of kp %g "
                          "whose target is MuJoCo's ctrl times %.6g",
                          gain[0], bias[1], -bias[1], gain[0] / -bias[1] / gear);
      } else if (bias[0] == 0 && bias[1] == 0 && bias[2] == -gain[0]) {
        a.type = LK_ACTUATOR_VELOCITY;
        a.kv = gain[0] * gear * gear;
      } else {
        lk_xdoc_unread(X, c, "(affine bias other than a servo's)");
        continue;
      }
    }
    st = lk_builder_add_actuator(B, &a, lk_xdoc_loc(X, c));
  }
  return st;
}

/* <keyframe><key name qpos>: named states (lk_model_add_keyframe), qpos in
 * MuJoCo's order (the joints as the file has them); an unnamed key is
 * named by its index ("0", "1", ...). qvel, act, ctrl and mocap values
 * are noted as not read. */
static lk_status keyframes(mreader *R, xmlNode *e) {
  static const char *const known[] = {"key", NULL};
  if (B->mo) { /* loaded into another model: its joints are placed there */
    lk_xdoc_unread(X, e, "(into another model)");
    return LK_OK;
  }
  lk_status st = lk_xdoc_children(X, e, "keyframe", known, NULL);
  int total = 0;
  for (int i = 0; i < R->njorder; i++) total += R->jnq[i];
  double *q = LK_NEW_ARRAY(double, total);
  if (!q) return lk_builder_oom(B);
  int index = 0;
  for (xmlNode *c = lk_xml_first(e); c && !st; c = lk_xml_next(c), index++) {
    int n = 0;
    st = nums(R, c, "qpos", -1, total > 0 ? total : 1, q, &n);
    if (st) break;
    if (lk_xml_attr(c, "qpos") && n != total) {
      st = lk_xdoc_error(X, c, LK_SCHEMA_ERROR, "<key>: qpos has %d values, the model's joints %d",
                         n, total);
      break;
    }
    static const char *const other[] = {"qvel", "act", "ctrl", "mpos", "mquat", NULL};
    for (int k = 0; other[k]; k++)
      if (lk_xml_attr(c, other[k])) {
        char w[32];
        snprintf(w, sizeof w, "%s of", other[k]);
        lk_xdoc_unread(X, c, w);
      }
    char nm[32];
    const char *name = lk_xml_attr(c, "name");
    if (!name) {
      snprintf(nm, sizeof nm, "%d", index);
      name = nm;
    }
    lk_keyframe_spec ks = {name, n ? R->njorder : 0, R->jorder, R->jnq, q};
    if ((st = lk_model_add_keyframe(B->m, &ks, B->err)))
      st = lk_xdoc_error(X, c, st, "<key>: %s", B->err ? B->err->message : "refused");
  }
  lk_free(q);
  return st;
}

/* <pair geom1 geom2 friction condim>: the two geoms collide whatever
 * contype, conaffinity, <exclude> and the parent-child rule say (MJCF
 * reference, "contact/pair"), with friction[0] as the sliding friction
 * (condim 1: none) in a material of their own; no friction given: the
 * geoms' (mixed as any contact's). margin, gap, solref, solimp, the
 * torsional and rolling coefficients of condim 4 and 6, and a class: listed
 * as not read. */
static lk_status pair(mreader *R, xmlNode *c) {
  const char *g[2] = {lk_xml_attr(c, "geom1"), lk_xml_attr(c, "geom2")};
  for (int i = 0; i < 2; i++) {
    if (!g[i])
      return lk_xdoc_error(X, c, LK_SCHEMA_ERROR, "<pair>: missing required attribute 'geom%d'",
                           i + 1);
    int k = 0;
    while (k < R->ngnames && strcmp(R->gnames[k], g[i]) != 0) k++;
    if (k == R->ngnames)
      return lk_xdoc_error(X, c, LK_SCHEMA_ERROR, "<pair>: geom%d '%.60s' is not a named geom",
                           i + 1, g[i]);
  }
  if (strcmp(g[0], g[1]) == 0)
    return lk_xdoc_error(X, c, LK_SCHEMA_ERROR, "<pair>: geom1 and geom2 are the same geom");
  double fr[5] = {1, 1, 0.005, 0.0001, 0.0001}, cd = 3;
  int nf = 0;
  lk_status st = nums(R, c, "friction", -1, 5, fr, &nf);
  if (!st) st = nums(R, c, "condim", -1, 1, &cd, NULL);
  if (st) return st;
  if (cd != 1 && cd != 3 && cd != 4 && cd != 6)
    return lk_xdoc_error(X, c, LK_SCHEMA_ERROR, "<pair>: condim %g (expected 1, 3, 4 or 6)", cd);
  static const char *const other[] = {"margin", "gap", "solref", "solimp", "solreffriction",
                                      "class", NULL};
  for (int k = 0; other[k]; k++)
    if (lk_xml_attr(c, other[k])) {
      char w[32];
      snprintf(w, sizeof w, "%s of", other[k]);
      lk_xdoc_unread(X, c, w);
    }
  if (cd > 3) lk_xdoc_unread(X, c, "torsional and rolling friction (condim 4, 6) of");
  lk_geom_pair_spec ps = {g[0], g[1], NULL};
  if (nf > 0 || cd == 1)
    if ((st = friction_material(R, cd == 1 ? 0 : fr[0], &ps.material))) return st;
  return lk_builder_add_geom_pair(B, &ps);
}

/* <contact>: <exclude body1 body2> (their geoms never collide), <pair>. */
static lk_status contacts(mreader *R, xmlNode *e) {
  static const char *const known[] = {"exclude", "pair", NULL};
  lk_status st = lk_xdoc_children_unread(X, e, "contact", known, NULL, NULL, NULL);
  for (xmlNode *c = lk_xml_first(e); c && !st; c = lk_xml_next(c)) {
    if (lk_xml_is(c, "pair")) {
      st = pair(R, c);
      continue;
    }
    if (!lk_xml_is(c, "exclude")) continue;
    const char *b[2] = {lk_xml_attr(c, "body1"), lk_xml_attr(c, "body2")}, *out[2];
    for (int i = 0; i < 2 && !st; i++) {
      if (!b[i]) {
        st = lk_xdoc_error(X, c, LK_SCHEMA_ERROR, "<exclude>: missing required attribute 'body%d'",
                           i + 1);
        break;
      }
      char shown[96], what[40];
      snprintf(shown, sizeof shown, "'%.80s'", b[i]);
      snprintf(what, sizeof what, "<exclude>: body%d", i + 1);
      st = lk_builder_ref_link(B, lk_xdoc_loc(X, c), what, b[i], shown, 1, &out[i], NULL);
    }
    if (!st) st = lk_builder_add_exclude(B, out[0], out[1]);
  }
  return st;
}


/* ------------------------------------------------------------ equality */

/* A body of the file (or the world) for <equality>: its link's name, its
 * world frame at qpos0 and its link frame's place in the body frame. */
static lk_status eq_body(mreader *R, xmlNode *c, const char *attr_name, int required,
                         const char **link, lk_transform *world, lk_vec3 *off) {
  const char *nm = lk_xml_attr(c, attr_name);
  *world = lk_tf_identity();
  *off = lk_v3_zero();
  *link = "world";
  if (!nm) {
    if (required)
      return lk_xdoc_error(X, c, LK_SCHEMA_ERROR, "<%s>: missing required attribute '%s'",
                           (const char *)c->name, attr_name);
    return LK_OK;
  }
  char shown[96], what[48];
  snprintf(shown, sizeof shown, "'%.80s'", nm);
  snprintf(what, sizeof what, "<%s>: %s", (const char *)c->name, attr_name);
  lk_status st = lk_builder_ref_link(B, lk_xdoc_loc(X, c), what, nm, shown, 1, link, NULL);
  if (st || strcmp(nm, "world") == 0) return st;
  for (int i = 0; i < R->nbodies; i++)
    if (strcmp(R->bodies[i].name, nm) == 0) {
      *world = R->bodies[i].world;
      *off = R->bodies[i].off;
      return LK_OK;
    }
  /* a link the reader made for a joint of a body of several joints */
  return lk_xdoc_error(X, c, LK_SCHEMA_ERROR, "<%s>: %s '%.60s' is not a body",
                       (const char *)c->name, attr_name, nm);
}

static const struct mjref *find_jref(const mreader *R, const char *name) {
  for (int i = 0; i < R->njrefs; i++)
    if (strcmp(R->jrefs[i].name, name) == 0) return &R->jrefs[i];
  return NULL;
}

/* <equality> (MJCF reference, "equality"; MuJoCo 2.2.2's meaning, whose
 * compiled eq_data a test reads back), as Linkage's rigid constraints
 * (solref and solimp, which soften MuJoCo's, are not read):
 *   - connect body1 body2 anchor: a ball loop; the anchor is in body1's
 *     frame, and body2's point is the one at the same place in the file's
 *     pose (MuJoCo's qpos0);
 *   - weld body1 body2 relpose anchor: a rigid loop holding body2's frame
 *     at relpose in body1's (its quaternion all zeros, the default: the
 *     relative pose of the file's), body2's anchor on body1's point
 *     relpose.pos (given relpose) or relpose.pos + relpose.quat anchor
 *     (from the file's pose);
 *   - joint joint1 joint2 polycoef: q1 - ref1 = c0 + c1 (q2 - ref2), a
 *     coupling; c2..c4 other than 0 and a missing joint2 are refused.
 * body2 absent: the world. active="false": left out, listed as not read
 * (a loop cannot be switched on later here). tendon and distance
 * equalities: listed as not read. */
static lk_status equalities(mreader *R, xmlNode *e) {
  static const char *const known[] = {"connect", "weld", "joint", NULL};
  static const char *const unread[] = {"tendon", "distance", "flex", NULL};
  lk_status st = lk_xdoc_children_unread(X, e, "equality", known, NULL, unread, NULL);
  for (xmlNode *c = lk_xml_first(e); c && !st; c = lk_xml_next(c)) {
    int k = 0;
    while (known[k] && !lk_xml_is(c, known[k])) k++;
    if (!known[k]) continue;
    const char *act = lk_xml_attr(c, "active");
    if (act && strcmp(act, "false") != 0 && strcmp(act, "true") != 0)
      return lk_xdoc_error(X, c, LK_SCHEMA_ERROR, "<%s>: active=\"%.40s\" (expected true or false)",
                           (const char *)c->name, act);
    if (act && strcmp(act, "false") == 0) {
      lk_xdoc_unread(X, c, "(active=\"false\")");
      continue;
    }
    const char *name = NULL;
    if (lk_xml_attr(c, "name") && (st = name_of(R, c, (const char *)c->name, &name))) break;
    if (k < 2) { /* connect, weld */
      lk_loop_spec L;
      lk_loop_spec_default(&L);
      L.name = name;
      lk_transform W1, W2;
      lk_vec3 o1, o2;
      if ((st = eq_body(R, c, "body1", 1, &L.link_a, &W1, &o1))) break;
      if ((st = eq_body(R, c, "body2", 0, &L.link_b, &W2, &o2))) break;
      if (strcmp(L.link_a, L.link_b) == 0) {
        st = lk_xdoc_error(X, c, LK_SCHEMA_ERROR, "<%s>: body1 and body2 are the same body",
                           (const char *)c->name);
        break;
      }
      double an[3] = {0, 0, 0}, rp[7] = {0, 1, 0, 0, 0, 0, 0};
      if ((st = nums(R, c, "anchor", -1, 3, an, NULL))) break;
      lk_vec3 anchor = lk_v3(an[0], an[1], an[2]);
      lk_mat3 I = lk_m3_identity();
      if (k == 0) {
        lk_vec3 P = lk_tf_point(&W1, anchor);
        L.type = LK_LOOP_BALL;
        L.frame_a = lk_tf(&I, lk_v3_sub(anchor, o1));
        L.frame_b = lk_tf(&I, lk_v3_sub(lk_tf_inv_point(&W2, P), o2));
      } else {
        if ((st = nums(R, c, "relpose", -1, 7, rp, NULL))) break;
        lk_transform rel;
        lk_vec3 pa;
        if (rp[3] != 0 || rp[4] != 0 || rp[5] != 0 || rp[6] != 0) {
          lk_mat3 Rr = lk_q_to_mat3(lk_q_normalize(lk_q(rp[3], rp[4], rp[5], rp[6])));
          rel = lk_tf(&Rr, lk_v3(rp[0], rp[1], rp[2]));
          pa = rel.p;
        } else {
          rel = lk_tf_inv_mul(&W1, &W2);
          pa = lk_tf_point(&rel, anchor);
        }
        L.type = LK_LOOP_RIGID;
        L.frame_a = lk_tf(&rel.R, lk_v3_sub(pa, o1));
        L.frame_b = lk_tf(&I, lk_v3_sub(anchor, o2));
      }
      st = lk_builder_add_loop(B, &L, lk_xdoc_loc(X, c));
      if (st) lk_builder_locate(B);
    } else { /* joint */
      double pc[5] = {0, 1, 0, 0, 0};
      int npc = 0;
      if ((st = nums(R, c, "polycoef", -1, 5, pc, &npc))) break;
      if (pc[2] != 0 || pc[3] != 0 || pc[4] != 0) {
        st = lk_xdoc_error(X, c, LK_UNSUPPORTED,
                           "<joint> equality: polycoef=\"%.60s\": only a linear relation "
                           "(polycoef[2..4] zero) is supported",
                           lk_xml_attr(c, "polycoef"));
        break;
      }
      const char *j[2] = {lk_xml_attr(c, "joint1"), lk_xml_attr(c, "joint2")};
      if (!j[0]) {
        st = lk_xdoc_error(X, c, LK_SCHEMA_ERROR, "<joint> equality: missing required attribute 'joint1'");
        break;
      }
      if (!j[1]) {
        st = lk_xdoc_error(X, c, LK_UNSUPPORTED,
                           "<joint> equality without joint2 (a joint held at a value) is not "
                           "supported");
        break;
      }
      lk_coupling_spec cs = {name, NULL, NULL, pc[1], 0};
      const struct mjref *r[2];
      for (int i = 0; i < 2 && !st; i++) {
        char shown[96], what[48];
        snprintf(shown, sizeof shown, "'%.80s'", j[i]);
        snprintf(what, sizeof what, "<joint> equality: joint%d", i + 1);
        st = lk_builder_ref_joint(B, lk_xdoc_loc(X, c), what, j[i], shown, 1,
                                  i ? &cs.joint_b : &cs.joint_a, NULL);
        r[i] = find_jref(R, j[i]);
      }
      if (st) break;
      if (strcmp(j[0], j[1]) == 0) {
        st = lk_xdoc_error(X, c, LK_SCHEMA_ERROR, "<joint> equality: joint1 and joint2 are the same");
        break;
      }
      /* Linkage's q is MuJoCo's qpos where ref is read, qpos - ref where
       * it is not: q1 - s1 = c0 + c1 (q2 - s2), s the ref read (or 0). */
      double s1 = r[0] ? r[0]->read : 0, s2 = r[1] ? r[1]->read : 0;
      cs.offset = s1 + pc[0] - pc[1] * s2;
      st = lk_builder_add_coupling(B, &cs, lk_xdoc_loc(X, c));
      if (!st && R->ncoup < (int)(sizeof R->coup / sizeof R->coup[0]))
        R->coup[R->ncoup++] = (struct mcoup){j[0], j[1], cs.ratio, cs.offset};
    }
  }
  return st;
}


/* ------------------------------------------------------------- sensors */

/* <sensor> (MJCF reference, "sensor"): the quantities Linkage has become
 * named sensors (lk_model_add_sensor), written as trajectory columns:
 * jointpos and jointvel of a hinge or slide; framepos of a site, of a
 * body's frame (objtype xbody) or of its centre of mass (body); touch of
 * a site: the normal force on the site's body (MuJoCo sums the contacts
 * inside the site's volume only). The others (force, torque, framequat,
 * accelerometer, gyro, actuator and tendon sensors, ...) and attributes
 * that change the value (reftype, refname, cutoff, noise) are listed by
 * name in one warning. */
static lk_status sensors(mreader *R, xmlNode *e) {
  if (B->mo) { /* loaded into another model: its names are placed there */
    lk_xdoc_unread(X, e, "(into another model)");
    return LK_OK;
  }
  char unread[200] = "";
  int nunread = 0;
  lk_status st = LK_OK;
  for (xmlNode *c = lk_xml_first(e); c && !st; c = lk_xml_next(c)) {
    const char *kind = (const char *)c->name, *nm = lk_xml_attr(c, "name");
    lk_sensor_spec ss;
    memset(&ss, 0, sizeof ss);
    int ok = 0;
    if (lk_xml_attr(c, "reftype") || lk_xml_attr(c, "refname")) {
      /* a relative frame: not read */
    } else if (lk_xml_is(c, "jointpos") || lk_xml_is(c, "jointvel")) {
      const char *jn = lk_xml_attr(c, "joint");
      if (!jn) return lk_xdoc_error(X, c, LK_SCHEMA_ERROR, "<%s>: missing required attribute 'joint'", kind);
      char shown[96], what[48];
      snprintf(shown, sizeof shown, "'%.80s'", jn);
      snprintf(what, sizeof what, "<%s>: joint", kind);
      if ((st = lk_builder_ref_joint(B, lk_xdoc_loc(X, c), what, jn, shown, 1, &ss.joint, NULL)))
        break;
      ss.joint = jn;
      ss.type = lk_xml_is(c, "jointpos") ? LK_SENSOR_JOINTPOS : LK_SENSOR_JOINTVEL;
      ok = 1;
    } else if (lk_xml_is(c, "framepos") || lk_xml_is(c, "touch")) {
      const char *ot = lk_xml_is(c, "touch") ? "site" : lk_xml_attr(c, "objtype");
      const char *on = lk_xml_attr(c, lk_xml_is(c, "touch") ? "site" : "objname");
      if (!on)
        return lk_xdoc_error(X, c, LK_SCHEMA_ERROR, "<%s>: missing required attribute '%s'", kind,
                             lk_xml_is(c, "touch") ? "site" : "objname");
      if (!ot || strcmp(ot, "site") == 0) {
        int k = 0;
        while (k < R->nsites && strcmp(R->sites[k].name, on) != 0) k++;
        if (k == R->nsites)
          return lk_xdoc_error(X, c, LK_SCHEMA_ERROR, "<%s>: no <site name=\"%.60s\">", kind, on);
        ss.link = R->sites[k].link;
        ss.point = R->sites[k].point;
        ok = 1;
      } else if (strcmp(ot, "xbody") == 0 || strcmp(ot, "body") == 0) {
        int k = 0;
        while (k < R->nbodies && strcmp(R->bodies[k].name, on) != 0) k++;
        if (k == R->nbodies)
          return lk_xdoc_error(X, c, LK_SCHEMA_ERROR, "<%s>: no <body name=\"%.60s\">", kind, on);
        ss.link = on;
        if (strcmp(ot, "xbody") == 0) {
          ss.point = lk_v3_scale(R->bodies[k].off, -1);
          ok = 1;
        } else {
          /* the body's centre of mass, in its link's frame */
          ss.point = R->bodies[k].com;
          ok = 1;
        }
      } /* other objtypes (geom, camera): not read */
      ss.type = lk_xml_is(c, "touch") ? LK_SENSOR_TOUCH : LK_SENSOR_FRAMEPOS;
      if (ss.type == LK_SENSOR_TOUCH && ok && strcmp(ss.link, "world") == 0)
        ok = 0; /* a world site: no body's contacts to count */
    }
    if (ok && !nm) ok = 0; /* unnamed: no column can name it */
    if (ok && (lk_xml_attr(c, "noise") || lk_xml_attr(c, "cutoff")))
      lk_xdoc_unread(X, c, "noise or cutoff of");
    if (ok) {
      ss.name = nm;
      if (B->m->finalized || (st = lk_model_add_sensor(B->m, &ss, B->err)))
        st = lk_xdoc_error(X, c, st ? st : LK_INVALID_MODEL, "<%s>: %s", kind,
                           B->err ? B->err->message : "refused");
      continue;
    }
    /* not read: its name (or its kind) in the list */
    size_t l = strlen(unread);
    if (l + 64 < sizeof unread)
      snprintf(unread + l, sizeof unread - l, "%s%.40s", l ? ", " : "", nm ? nm : kind);
    nunread++;
  }
  if (!st && nunread)
    lk_builder_warn(B, lk_xdoc_loc(X, e), "<sensor>: %d not read (quantities Linkage has not): %s%s",
                    nunread, unread, strlen(unread) + 64 >= sizeof unread ? ", ..." : "");
  return st;
}

/* <asset>: meshes are read (their hulls, lk_mesh_load_file); textures,
 * materials and the rest only draw. A mesh's file is relative to meshdir
 * (or assetdir), itself relative to the model file's directory. */
static lk_status assets(mreader *R, xmlNode *e) {
  static const char *const known[] = {"mesh", NULL};
  static const char *const ignored[] = {"texture", "material", "hfield", "skin", NULL};
  lk_status st = lk_xdoc_children(X, e, "asset", known, ignored);
  for (xmlNode *c = lk_xml_first(e); c && !st; c = lk_xml_next(c)) {
    if (!lk_xml_is(c, "mesh")) continue;
    static const char *const unsupported[] = {"vertex", "face", "normal", "refpos", "refquat",
                                              "smoothnormal", "texcoord", NULL};
    for (int k = 0; unsupported[k]; k++)
      if (lk_xml_attr(c, unsupported[k]))
        return lk_xdoc_error(X, c, LK_UNSUPPORTED,
                             "<mesh>: %s is not supported (give the mesh as a file)",
                             unsupported[k]);
    const char *file = lk_xml_attr(c, "file");
    if (!file || !*file)
      return lk_xdoc_error(X, c, LK_SCHEMA_ERROR, "<mesh>: missing required attribute 'file'");
    double scale[3] = {1, 1, 1};
    int mc;
    if ((st = class_of(R, c, 0, &mc))) return st;
    if ((st = nums(R, c, "scale", mc, 3, scale, NULL))) return st;
    if (!(scale[0] != 0 && scale[1] != 0 && scale[2] != 0))
      return lk_xdoc_error(X, c, LK_SCHEMA_ERROR, "<mesh>: scale must not be zero, got %g %g %g",
                           scale[0], scale[1], scale[2]);
    /* The name: given, else the file's name without its extension. */
    const char *name = lk_xml_attr(c, "name");
    char base[256];
    if (!name) {
      const char *b = strrchr(file, '/');
      b = b ? b + 1 : file;
      snprintf(base, sizeof base, "%s", b);
      char *dot = strrchr(base, '.');
      if (dot && dot != base) *dot = 0;
      name = lk_builder_strdup(B, base);
      if (!name) return lk_builder_oom(B);
    }
    for (int i = 0; i < R->nmeshes; i++)
      if (strcmp(R->meshes[i].name, name) == 0)
        return lk_xdoc_error(X, c, LK_SCHEMA_ERROR, "<mesh>: a second mesh named '%.60s'", name);
    char path[3 * 4096];
    const char *slash = strrchr(R->x.path, '/');
    int dl = slash ? (int)(slash - R->x.path) : 1;
    const char *dir = slash ? R->x.path : ".";
    if (file[0] == '/')
      snprintf(path, sizeof path, "%s", file);
    else if (R->meshdir[0] == '/')
      snprintf(path, sizeof path, "%s/%s", R->meshdir, file);
    else if (R->meshdir[0])
      snprintf(path, sizeof path, "%.*s/%s/%s", dl, dir, R->meshdir, file);
    else
      snprintf(path, sizeof path, "%.*s/%s", dl, dir, file);
    void *grown = lk_realloc(R->meshes, (size_t)(R->nmeshes + 1) * sizeof *R->meshes);
    if (!grown) return lk_builder_oom(B);
    R->meshes = grown;
    memset(&R->meshes[R->nmeshes], 0, sizeof R->meshes[0]);
    lk_mesh *mesh = NULL;
    lk_error me;
    lk_error_clear(&me);
    /* A mirrored mesh (a negative scale: Cassie's, the Shadow hand's left
     * one): the hull of the file at |scale|, its vertices mirrored. */
    double ascale[3] = {fabs(scale[0]), fabs(scale[1]), fabs(scale[2])};
    /* Its mass and inertia (docs/format.md, "Mesh mass"): without an
     * inertia attribute MuJoCo 2.2.2's rule (tetrahedra from the
     * surface's centroid counted positive, the mass that of the box of
     * the same inertia); inertia="legacy" (MuJoCo 3's) the same
     * tetrahedra's volume; "exact" the solid the triangles bound;
     * "convex" the hull's. */
    const char *inert = attr(R, c, "inertia", mc);
    if (inert && strcmp(inert, "convex") != 0 && strcmp(inert, "exact") != 0 &&
        strcmp(inert, "legacy") != 0 && strcmp(inert, "shell") != 0)
      return lk_xdoc_error(X, c, LK_SCHEMA_ERROR,
                           "<mesh>: inertia=\"%.40s\" (expected convex, exact, legacy or shell)",
                           inert);
    if (inert && strcmp(inert, "shell") == 0)
      lk_xdoc_unread(X, c, "inertia=\"shell\" (read as exact) of");
    int want_solid = !inert || strcmp(inert, "convex") != 0, solid_ok = 0;
    int legacy = !inert || strcmp(inert, "legacy") == 0, box = !inert;
    lk_mesh_solid solid;
    if ((st = lk_io_input(R->o, path, 1, &me)) ||
        (st = want_solid
                  ? lk_mesh_load_solid(path, ascale, legacy, &mesh, &solid, &solid_ok, &me)
                  : lk_mesh_load_file(path, ascale, &mesh, &me))) {
      if (st == LK_OUT_OF_MEMORY) return lk_xdoc_error(X, c, st, "<mesh> '%s': %s", name, me.message);
      /* kept as missing: refused only where a colliding geom uses it */
      char why[LK_ERROR_MESSAGE_MAX + 4200];
      snprintf(why, sizeof why, "%.4000s: %s", path, me.message);
      R->meshes[R->nmeshes].why = lk_strdup(why);
      if (!R->meshes[R->nmeshes].why) return lk_builder_oom(B);
      st = LK_OK;
    } else if (scale[0] < 0 || scale[1] < 0 || scale[2] < 0) {
      st = lk_mesh_mirror(&mesh, scale, &me);
      if (st == LK_OUT_OF_MEMORY) return lk_builder_oom(B);
      if (st) return lk_xdoc_error(X, c, st, "<mesh> '%s': mirrored: %s", name, me.message);
    }
    if (mesh && want_solid && !solid_ok)
      lk_builder_warn(B, lk_xdoc_loc(X, c),
                      "<mesh> '%.60s': its triangles bound no volume (an open surface?): "
                      "its mass is its hull's",
                      name);
    if (mesh && solid_ok && box) {
      /* MuJoCo 2.2.2: the mass of the box of the same inertia, the
       * inertia per unit mass unchanged */
      double vb = lk_mesh_solid_box_volume(&solid);
      if (vb > 0) {
        solid.inertia = lk_m3_scale(&solid.inertia, vb / solid.volume);
        solid.volume = vb;
      }
    }
    if (mesh && solid_ok) {
      /* mirrored: the solid at |scale| mirrored the same way */
      for (int a = 0; a < 3; a++) {
        if (!(scale[a] < 0)) continue;
        if (a == 0) solid.centroid.x = -solid.centroid.x;
        if (a == 1) solid.centroid.y = -solid.centroid.y;
        if (a == 2) solid.centroid.z = -solid.centroid.z;
        for (int b = 0; b < 3; b++)
          if (b != a) solid.inertia.m[a][b] = solid.inertia.m[b][a] = -solid.inertia.m[a][b];
      }
      R->meshes[R->nmeshes].solid = solid;
      R->meshes[R->nmeshes].has_solid = 1;
    }
    if (mesh && R->mesh_file) R->mesh_file(R->b.record_user, mesh, path, scale);
    R->meshes[R->nmeshes].name = name;
    R->meshes[R->nmeshes].e = c;
    R->meshes[R->nmeshes++].mesh = mesh;
  }
  return st;
}

/* <include file="..."/>, anywhere: the included file's <mujoco> children
 * put in its place (MuJoCo's rule), its name relative to the model
 * file's directory; includes inside included files too (at most 16
 * deep). Messages about included elements give their line in the
 * included file. At most 256 includes in all (a file that includes
 * itself is refused there). */
static lk_status expand_includes(mreader *R, xmlNode *e) {
  for (xmlNode *c = lk_xml_first(e), *next; c; c = next) {
    next = lk_xml_next(c);
    if (!lk_xml_is(c, "include")) {
      lk_status st = expand_includes(R, c);
      if (st) return st;
      continue;
    }
    const char *file = lk_xml_attr(c, "file");
    if (!file || !*file)
      return lk_xdoc_error(X, c, LK_SCHEMA_ERROR, "<include>: missing required attribute 'file'");
    char path[4096 + 512];
    const char *slash = strrchr(R->x.path, '/');
    if (file[0] == '/' || !slash)
      snprintf(path, sizeof path, "%s", file);
    else
      snprintf(path, sizeof path, "%.*s/%s", (int)(slash - R->x.path), R->x.path, file);
    char *text = NULL;
    size_t len = 0;
    lk_error fe;
    lk_error_clear(&fe);
    size_t max = R->o && R->o->max_bytes ? R->o->max_bytes : LK_IO_MAX_BYTES_DEFAULT;
    if (lk_io_input(R->o, path, 1, &fe) || lk_ydoc_read_file(path, max, &text, &len, &fe))
      return lk_xdoc_error(X, c, fe.status ? fe.status : LK_IO_ERROR, "<include>: %s: %s", path,
                           fe.message);
    lk_xdoc inc;
    lk_status st = lk_xdoc_parse(&inc, text, len, path, &fe);
    lk_free(text);
    if (st) {
      lk_xdoc_free(&inc);
      return lk_xdoc_error(X, c, st, "<include>: %s:%d: %s", path, fe.line, fe.message);
    }
    xmlNode *iroot = xmlDocGetRootElement(inc.doc);
    if (!lk_xml_is(iroot, "mujoco")) {
      lk_xdoc_free(&inc);
      return lk_xdoc_error(X, c, LK_SCHEMA_ERROR, "<include>: %s: the root is not <mujoco>", path);
    }
    /* Copies of its children before the <include>, which goes. */
    if (++R->nincludes > 256) {
      lk_xdoc_free(&inc);
      return lk_xdoc_error(X, c, LK_SCHEMA_ERROR, "<include>: more than 256 includes (a cycle?)");
    }
    xmlNode *first = NULL;
    for (xmlNode *k = lk_xml_first(iroot); k; k = lk_xml_next(k)) {
      xmlNode *cp = xmlDocCopyNode(k, R->x.doc, 1);
      if (!cp || !xmlAddPrevSibling(c, cp)) {
        xmlFreeNode(cp);
        lk_xdoc_free(&inc);
        return lk_builder_oom(B);
      }
      if (!first) first = cp;
    }
    lk_xdoc_free(&inc);
    xmlUnlinkNode(c);
    xmlFreeNode(c);
    if (first) next = first; /* the copies next, with their own includes */
  }
  return LK_OK;
}

static lk_status build(mreader *R) {
  xmlNode *root = xmlDocGetRootElement(R->x.doc);
  lk_status st;
  if (!lk_xml_is(root, "mujoco"))
    return lk_xdoc_error(X, root, LK_SCHEMA_ERROR, "expected a <mujoco> element");
  if ((st = expand_includes(R, root))) return st;
  static const char *const known[] = {"compiler", "option",  "default",  "worldbody",
                                      "actuator", "asset",   "contact",  "keyframe",
                                      "equality", "tendon", "sensor", NULL};
  static const char *const ignored[] = {"visual", "statistic", "size", NULL};
  /* Part of MJCF, not read (listed in one warning). */
  static const char *const unread[] = {"custom", "extension",
                                       "deformable", NULL};
  if ((st = lk_xdoc_children_unread(X, root, "mujoco", known, ignored, unread, NULL))) return st;
  const char *model = lk_xml_attr(root, "model");
  if (model && *model && (st = lk_builder_set_name(B, model))) return st;
  R->degree = 1;
  snprintf(R->eulerseq, sizeof R->eulerseq, "xyz");
  R->inertia_from_geom = 2;
  lk_options_default(&R->opt);
  R->opt.timestep = 0.002; /* MuJoCo's default */
  R->opt.collision_filter = LK_FILTER_EITHER; /* contype/conaffinity */
  R->cls[0].name = "main";
  R->cls[0].parent = -1;
  R->ncls = 1;
  for (xmlNode *c = lk_xml_first(root); c; c = lk_xml_next(c)) {
    if (lk_xml_is(c, "compiler")) {
      const char *a = lk_xml_attr(c, "angle");
      if (a && strcmp(a, "radian") != 0 && strcmp(a, "degree") != 0)
        return lk_xdoc_error(X, c, LK_SCHEMA_ERROR,
                             "<compiler>: angle=\"%.40s\" (expected radian or degree)", a);
      if (a) R->degree = strcmp(a, "radian") != 0;
      const char *ig = lk_xml_attr(c, "inertiafromgeom");
      if (ig) R->inertia_from_geom = strcmp(ig, "true") == 0 ? 1 : strcmp(ig, "false") == 0 ? 0 : 2;
      const char *co = lk_xml_attr(c, "coordinate");
      if (co && strcmp(co, "local") != 0)
        return lk_xdoc_error(X, c, LK_UNSUPPORTED,
                             "<compiler>: coordinate=\"%.40s\" is not supported (local only)", co);
      const char *es = lk_xml_attr(c, "eulerseq");
      if (es) {
        if (strlen(es) != 3 || strspn(es, "xyzXYZ") != 3)
          return lk_xdoc_error(X, c, LK_SCHEMA_ERROR,
                               "<compiler>: eulerseq=\"%.40s\" is not 3 of x, y, z, X, Y, Z", es);
        snprintf(R->eulerseq, sizeof R->eulerseq, "%s", es);
      }
      const char *md = lk_xml_attr(c, "meshdir");
      if (!md) md = lk_xml_attr(c, "assetdir");
      if (md) snprintf(R->meshdir, sizeof R->meshdir, "%s", md);
    } else if (lk_xml_is(c, "option")) {
      double g[3];
      for (xmlNode *k = lk_xml_first(c); k; k = lk_xml_next(k)) lk_xdoc_unread(X, k, "<option>");
      /* MuJoCo's fluid forces (a medium's density and viscosity, a wind)
       * move the bodies; Linkage has none: named, not dropped silently. */
      static const char *const fluid[][2] = {
          {"density", "density of"}, {"viscosity", "viscosity of"}, {"wind", "wind of"}};
      for (int f = 0; f < 3; f++) {
        const char *v = lk_xml_attr(c, fluid[f][0]);
        for (const char *p = v; p && *p;) {
          char *e;
          double x = strtod(p, &e);
          if (x != 0) {
            lk_xdoc_unread(X, c, fluid[f][1]);
            break;
          }
          if (*e && !strchr(" \t\n\r", *e)) break; /* not a number: MuJoCo's error, not ours */
          for (p = e; *p && strchr(" \t\n\r", *p);) p++;
        }
      }
      if ((st = lk_xdoc_double(X, c, "timestep", "option", 0, &R->opt.timestep))) return st;
      g[0] = R->opt.gravity.x, g[1] = R->opt.gravity.y, g[2] = R->opt.gravity.z;
      if ((st = lk_xdoc_doubles(X, c, "gravity", "option", 3, 0, g))) return st;
      R->opt.gravity = lk_v3(g[0], g[1], g[2]);
      const char *in = lk_xml_attr(c, "integrator");
      if (in && strcmp(in, "Euler") != 0 && strcmp(in, "RK4") != 0 &&
          strcmp(in, "implicit") != 0 && strcmp(in, "implicitfast") != 0)
        return lk_xdoc_error(X, c, LK_UNSUPPORTED, "<option>: integrator %s is not supported", in);
      if (in && strcmp(in, "RK4") == 0) R->opt.integrator = LK_INTEGRATOR_RK4;
      if (in && strncmp(in, "implicit", 8) == 0)
        lk_builder_warn(B, lk_xdoc_loc(X, c),
                        "<option>: integrator %s is read as Euler (semi-implicit, with joint "
                        "damping and servo gains implicit and the velocity forces at the "
                        "step's midpoint)",
                        in);
    } else if (lk_xml_is(c, "default")) {
      /* the top <default> is the class "main" */
      if ((st = fill_class(R, c, 0))) return st;
    }
  }
  if ((st = lk_builder_set_options(B, &R->opt, lk_xdoc_loc(X, root)))) return st;
  for (xmlNode *c = lk_xml_first(root); c; c = lk_xml_next(c))
    if (lk_xml_is(c, "asset") && (st = assets(R, c))) return st;
  /* Every <worldbody> (a file and the files it includes may each have
   * one): their bodies are the world's. */
  xmlNode *wb = NULL;
  for (xmlNode *c = lk_xml_first(root); c; c = lk_xml_next(c))
    if (lk_xml_is(c, "worldbody")) {
      if (!wb) wb = c;
      if ((st = worldbody(R, c))) return st;
    }
  if (!wb) return lk_xdoc_error(X, root, LK_SCHEMA_ERROR, "<mujoco>: no <worldbody>");
  if (B->nlinks == 0) return lk_xdoc_error(X, wb, LK_SCHEMA_ERROR, "<worldbody>: no <body>");
  if ((st = lk_builder_names_done(B))) return st;
  for (xmlNode *c = lk_xml_first(root); c; c = lk_xml_next(c))
    if (lk_xml_is(c, "equality") && (st = equalities(R, c))) return st;
  for (xmlNode *c = lk_xml_first(root); c; c = lk_xml_next(c))
    if (lk_xml_is(c, "tendon") && (st = tendons(R, c))) return st;
  for (xmlNode *c = lk_xml_first(root); c; c = lk_xml_next(c))
    if (lk_xml_is(c, "actuator") && (st = actuators(R, c))) return st;
  for (xmlNode *c = lk_xml_first(root); c; c = lk_xml_next(c))
    if (lk_xml_is(c, "contact") && (st = contacts(R, c))) return st;
  for (xmlNode *c = lk_xml_first(root); c; c = lk_xml_next(c))
    if (lk_xml_is(c, "keyframe") && (st = keyframes(R, c))) return st;
  for (xmlNode *c = lk_xml_first(root); c; c = lk_xml_next(c))
    if (lk_xml_is(c, "sensor") && (st = sensors(R, c))) return st;
  if (R->x.unread[0]) lk_builder_warn(B, 0, "not read: %s", R->x.unread);
  return lk_builder_finalize(B);
}

lk_status lk_mjcf_read(lk_model *m, const lk_merge_options *mo, const char *text, size_t len,
                       const char *label, const lk_load_options *o, lk_error *err) {
  return lk_mjcf_read_recorded(m, mo, text, len, label, o, NULL, NULL, NULL, err);
}

lk_status lk_mjcf_read_recorded(lk_model *m, const lk_merge_options *mo, const char *text,
                                size_t len, const char *label, const lk_load_options *o,
                                void (*record)(void *user, int kind, const void *spec),
                                void (*mesh_file)(void *user, const lk_mesh *mesh,
                                                  const char *path, const double scale[3]),
                                void *record_user, lk_error *err) {
  if (o && o->nset > 0)
    return lk_error_set_at(err, LK_INVALID_ARGUMENT, label, 0, 0,
                           "--set overrides apply to YAML descriptions");
  mreader *R = LK_NEW_ARRAY(mreader, 1);
  if (!R) return lk_error_set(err, LK_OUT_OF_MEMORY, "out of memory");
  R->o = o;
  R->mesh_file = mesh_file;
  lk_status st = lk_xdoc_parse(&R->x, text, len, label, err);
  if (!st) {
    lk_builder_init(&R->b, m, mo, &lk_xdoc_source, &R->x, err);
    R->b.record = (void (*)(void *, lk_bkind, const void *))record;
    R->b.record_user = record_user;
    st = build(R);
    lk_builder_free(&R->b);
  }
  for (int i = 0; i < R->nmeshes; i++) {
    lk_mesh_free(R->meshes[i].mesh);
    lk_free(R->meshes[i].why);
  }
  lk_free(R->meshes);
  lk_free(R->jorder);
  lk_free(R->jnq);
  lk_free(R->bodies);
  lk_free(R->jrefs);
  lk_free(R->tendons);
  lk_free(R->gnames);
  lk_free(R->sites);
  lk_free(R->mats);
  lk_free(R->mat_mu);
  lk_xdoc_free(&R->x);
  lk_free(R);
  return st;
}
