/* lk_model_load(): a YAML mechanism description -> a finalized lk_model.
 *
 * Two passes over the document. The first collects the names everything
 * refers to (links, their joints and joint types, materials), so that the
 * second can check each reference where it is written and point at that
 * node: "unknown parent 'uper_arm' (did you mean 'upper_arm'?)" at the
 * parent's line and column, rather than a message from finalize about a
 * name with no position. The second pass walks the top-level sections in
 * the order the file gives them, checks every key, type and range, and
 * feeds the builder. What lk_model_finalize() still rejects (inertia not
 * positive definite, mu_dynamic above mu_static, ...) is mapped back to
 * the node that described the element (see locate_finalize_error). The
 * key-by-key format is documented in docs/format.md; keep the two in step. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/internal.h"
#include "io/ydoc.h"
#include "linkage/io.h"

/* ------------------------------------------------------------ the keys */

static const char *const kTopKeys[] = {"name",     "description", "options", "materials",
                                       "world",    "links",       "actuators", "loads",
                                       "contacts", "constraints", "initial", "simulate",
                                       "supports", "analysis", NULL};
static const char *const kOptionKeys[] = {
    "timestep",          "gravity",           "integrator",           "solver",
    "friction_cone",     "cone_edges",        "friction_mix",         "max_contacts",
    "contact_erp",       "contact_tolerance", "restitution_threshold", "slip_threshold",
    "friction_iterations", "constraint_erp",  "projection_iterations", "cfm",
    "max_island_rows",   "slip_speed_threshold", "utilization_threshold", "slip_filter_tau",
    "slip_on",           "slip_off",          "friction_law",         "friction_eps_v",
    "smoothing_iterations", NULL};
static const char *const kMaterialKeys[] = {"name",       "mu",           "mu_static",
                                            "mu_dynamic", "restitution",  "mu_rolling",
                                            "mu_torsional", "patch_radius", "contact",
                                            "normal",     "k_n",          "damping",
                                            "tangential", "k_t",          "x_gamma_t", NULL};
static const char *const kSupportKeys[] = {"name",      "joint", "link",       "point", "normal",
                                           "normal_force", "mu", "mu_static", "mu_dynamic", NULL};
static const char *const kAnalysisKeys[] = {"type",      "load_steps",     "steps",
                                            "gravity",   "max_iterations", "tolerance",
                                            "slip_tolerance", "regularization", "initial_state",
                                            NULL};
static const char *const kAnalysisTypes[] = {"static"};
static const char *const kFrictionStates[] = {"static", "sliding"};
static const char *const kFrictionLaws[] = {"complementarity", "smoothed"};
static const char *const kContactModels[] = {"rigid", "compliant"};
static const char *const kNormalModels[] = {"hooke", "hertz"};
static const char *const kWorldKeys[] = {"geoms", NULL};
static const char *const kLinkKeys[] = {"name", "parent", "joint",   "origin",
                                        "mass", "com",    "inertia", "geoms", NULL};
static const char *const kJointKeys[] = {"name",      "type",     "axis", "limit",    "damping",
                                         "stiffness", "rest",     "armature", "friction", NULL};
static const char *const kOriginKeys[] = {"xyz", "rpy", "quat", NULL};
static const char *const kGeomKeys[] = {"name",     "type",   "radius",   "half_length",
                                        "half_extents", "normal", "point", "origin",
                                        "material", "group",  "mask",     "collide_parent", NULL};
static const char *const kActuatorKeys[] = {"name",   "joint",      "type",     "kp", "kv",
                                            "target", "max_effort", "schedule", NULL};
static const char *const kLoadKeys[] = {"name",  "link",  "force", "torque", "point",
                                        "frame", "start", "end",   NULL};
static const char *const kContactKeys[] = {"name",        "type",   "link",   "point",
                                           "other",       "other_point", "normal", "radius",
                                           "tolerance",   "material", "patch_radius", NULL};
static const char *const kConstraintKeys[] = {"loops", "couplings", "tethers", NULL};
static const char *const kLoopKeys[] = {"name", "type", "link_a", "link_b", "frame_a", "frame_b",
                                        NULL};
static const char *const kCouplingKeys[] = {"name", "joint_a", "joint_b", "ratio", "offset", NULL};
static const char *const kTetherKeys[] = {"name",        "link",   "point", "other",
                                          "other_point", "length", NULL};
static const char *const kInitialKeys[] = {"joint", "q", "v", NULL};
static const char *const kSimulateKeys[] = {"duration", "every", "plot_columns", NULL};

static const char *const kJointTypes[] = {"fixed", "revolute", "prismatic", "ball", "free"};
static const char *const kGeomTypes[] = {"plane", "sphere", "capsule", "box", "cylinder"};
static const char *const kActuatorTypes[] = {"effort", "position", "velocity"};
static const char *const kIntegrators[] = {"euler", "rk4"};
static const char *const kSolvers[] = {"lemke", "dantzig"};
static const char *const kCones[] = {"circle", "pyramid", "box"};
static const char *const kMixes[] = {"geometric", "min", "max", "mean"};
static const char *const kFrames[] = {"world", "link"};
static const char *const kContactTypes[] = {"friction", "rolling"};
static const char *const kLoopTypes[] = {"ball", "pin", "rigid"};

/* ---------------------------------------------------------- the loader */

typedef struct {
  const char *name;
  int item;       /* the link's mapping */
  int name_node;
  int parent_node;   /* 0: world by default */
  int parent;        /* index in links, -1 for the world (after pass 2) */
  const char *joint; /* joint name (the link's name unless given) */
  int joint_node;    /* the joint's mapping, or the link's when none */
  int jtype;         /* -1 when missing or invalid (pass 2 reports it) */
} link_rec;

typedef struct {
  const char *name;
  int node;
} name_rec;

typedef enum {
  R_LINK,
  R_JOINT,
  R_MATERIAL,
  R_GEOM,
  R_ACTUATOR,
  R_LOAD,
  R_CONTACT,
  R_LOOP,
  R_COUPLING,
  R_TETHER,
  R_INITIAL,
  R_SUPPORT,
} reg_kind;

/* Where each element handed to the builder came from, to locate what
 * lk_model_finalize() reports by name. */
typedef struct {
  reg_kind kind;
  const char *name; /* the name finalize uses for it (may be NULL) */
  int node;         /* its mapping */
} reg_rec;

typedef struct {
  lk_ydoc *y;
  lk_error *err;
  lk_model *m;
  link_rec *links;
  int nlinks;
  const char **link_names; /* nlinks + "world", for suggestions */
  const char **joint_names;
  name_rec *mats;
  int nmats;
  const char **mat_names; /* nmats + "default" */
  name_rec *names;        /* other named elements, for duplicate checks */
  int nnames, capnames;
  reg_rec *reg;
  int nreg, capreg;
  int options_node;
  int simulate_node;
  lk_run_settings *run;
  /* Loading into an existing model (lk_model_load_*_into): how the file is
   * placed; NULL for an ordinary load. Prefixed names live in `pool`. */
  const lk_merge_options *mo;
  char **pool;
  int npool, cappool;
  int defines_default; /* the file has a material named "default" */
} loader;

/* snprintf for message contexts: truncating a long context is fine. */
static void say(char *buf, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void say(char *buf, size_t size, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, size, fmt, ap);
  va_end(ap);
}

#define Y (L->y)
#define ERR (L->err)

static lk_status oom(loader *L) { return lk_error_set(ERR, LK_OUT_OF_MEMORY, "out of memory"); }

static lk_status reg_add(loader *L, reg_kind k, const char *name, int node) {
  if (L->nreg == L->capreg) {
    int nc = L->capreg ? 2 * L->capreg : 32;
    reg_rec *r = lk_realloc(L->reg, (size_t)nc * sizeof *r);
    if (!r) return oom(L);
    L->reg = r;
    L->capreg = nc;
  }
  L->reg[L->nreg].kind = k;
  L->reg[L->nreg].name = name;
  L->reg[L->nreg].node = node;
  L->nreg++;
  return LK_OK;
}

/* ------------------------------------------------------- placement */

/* In lk_model_load_*_into(), every name the file defines or refers to gets
 * the prefix, and the file's world becomes the frame mo->pose on the link
 * mo->parent. These translate a spec's names and world-frame quantities
 * just before the builder sees them (the document's own names are kept for
 * messages and for locating finalize's errors). */

static int has_prefix(const loader *L) { return L->mo && L->mo->prefix && *L->mo->prefix; }

static lk_status placed(loader *L, const char *name, const char **out) {
  *out = name;
  if (!name || !has_prefix(L)) return LK_OK;
  if (L->npool == L->cappool) {
    int nc = L->cappool ? 2 * L->cappool : 32;
    char **p = lk_realloc(L->pool, (size_t)nc * sizeof *p);
    if (!p) return oom(L);
    L->pool = p;
    L->cappool = nc;
  }
  size_t a = strlen(L->mo->prefix), b = strlen(name);
  char *c = lk_malloc(a + b + 1);
  if (!c) return oom(L);
  memcpy(c, L->mo->prefix, a);
  memcpy(c + a, name, b + 1);
  L->pool[L->npool++] = c;
  *out = c;
  return LK_OK;
}

/* A link reference: "world" (or NULL) is the file's world, which is
 * mo->parent; *world (may be NULL) says so, so that the caller moves
 * world-frame quantities into the parent's frame with place_tf/place_point. */
static lk_status placed_link(loader *L, const char *name, const char **out, int *world) {
  int w = !name || strcmp(name, "world") == 0;
  if (world) *world = w;
  if (w) {
    *out = L->mo && L->mo->parent && *L->mo->parent ? L->mo->parent : "world";
    return LK_OK;
  }
  return placed(L, name, out);
}

/* A material reference (NULL: the default material). A file that defines
 * its own "default" keeps it to itself under a prefix. */
static lk_status placed_material(loader *L, const char *name, const char **out) {
  *out = name;
  if (!has_prefix(L)) return LK_OK;
  if (!name || strcmp(name, "default") == 0)
    return L->defines_default ? placed(L, "default", out) : LK_OK;
  return placed(L, name, out);
}

static lk_transform place_tf(const loader *L, const lk_transform *t) {
  return L->mo ? lk_tf_mul(&L->mo->pose, t) : *t;
}
static lk_vec3 place_point(const loader *L, lk_vec3 p) {
  return L->mo ? lk_tf_point(&L->mo->pose, p) : p;
}
static lk_vec3 place_dir(const loader *L, lk_vec3 v) {
  return L->mo ? lk_tf_dir(&L->mo->pose, v) : v;
}

/* A name in a file: 1..LK_IO_NAME_MAX characters of [A-Za-z0-9_-]. */
static lk_status read_name(loader *L, int id, const char *what, const char **out) {
  const char *s;
  lk_status st = lk_ydoc_string(Y, id, what, LK_IO_NAME_MAX, &s, ERR);
  if (st) return st;
  size_t n = strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-");
  if (s[n]) {
    char d[96];
    return lk_ydoc_error(Y, id, LK_SCHEMA_ERROR, ERR,
                         "%s: %s is not a valid name (use letters, digits, '_' and '-')", what,
                         lk_ydoc_describe(Y, id, d, sizeof d));
  }
  *out = s;
  return LK_OK;
}

/* A name unique among the elements of one kind (kind_label: "geom"). */
static lk_status unique_name(loader *L, const char *kind_label, const char *name, int node) {
  char prefixed[LK_IO_NAME_MAX + 24];
  say(prefixed, sizeof prefixed, "%s:%s", kind_label, name);
  for (int i = 0; i < L->nnames; i++)
    if (strcmp(L->names[i].name, prefixed) == 0) {
      int line, col;
      lk_ydoc_position(Y, L->names[i].node, &line, &col);
      return lk_ydoc_error(Y, node, LK_SCHEMA_ERROR, ERR,
                           "%s '%s' is defined twice (first at line %d, column %d)", kind_label,
                           name, line, col);
    }
  if (L->nnames == L->capnames) {
    int nc = L->capnames ? 2 * L->capnames : 16;
    name_rec *r = lk_realloc(L->names, (size_t)nc * sizeof *r);
    if (!r) return oom(L);
    L->names = r;
    L->capnames = nc;
  }
  char *copy = lk_strdup(prefixed);
  if (!copy) return oom(L);
  L->names[L->nnames].name = copy;
  L->names[L->nnames].node = node;
  L->nnames++;
  return LK_OK;
}

/* An element's optional "name": read, checked unique among its kind, and
 * from then on the element's context in messages ("loop 'hinge'"). */
static lk_status element_name(loader *L, int item, const char *kind, char *ctx, size_t ctx_size,
                              const char **name) {
  int nid = lk_ydoc_map_get(Y, item, "name");
  if (!nid) return LK_OK;
  char what[200];
  say(what, sizeof what, "%s: name", ctx);
  lk_status st = read_name(L, nid, what, name);
  if (!st) st = unique_name(L, kind, *name, nid);
  if (!st) say(ctx, ctx_size, "%s '%s'", kind, *name);
  return st;
}

static int find_link(loader *L, const char *name) {
  for (int i = 0; i < L->nlinks; i++)
    if (strcmp(L->links[i].name, name) == 0) return i;
  return -1;
}

static int find_joint(loader *L, const char *name) {
  for (int i = 0; i < L->nlinks; i++)
    if (strcmp(L->links[i].joint, name) == 0) return i;
  return -1;
}

static int find_material(loader *L, const char *name) {
  if (strcmp(name, "default") == 0) return 0;
  for (int i = 0; i < L->nmats; i++)
    if (strcmp(L->mats[i].name, name) == 0) return 1;
  return -1;
}

/* A reference to a link (world_ok: "world" too). */
static lk_status ref_link(loader *L, int id, const char *what, int world_ok, const char **out,
                          int *index) {
  const char *s;
  lk_status st = lk_ydoc_string(Y, id, what, 4096, &s, ERR);
  if (st) return st;
  if (strcmp(s, "world") == 0) {
    if (!world_ok)
      return lk_ydoc_error(Y, id, LK_SCHEMA_ERROR, ERR, "%s: must be a link, not the world", what);
    *out = s;
    if (index) *index = -1;
    return LK_OK;
  }
  int i = find_link(L, s);
  if (i < 0) {
    char d[96];
    const char *sug = lk_suggest(s, L->link_names, L->nlinks + (world_ok ? 1 : 0));
    if (sug)
      return lk_ydoc_error(Y, id, LK_SCHEMA_ERROR, ERR, "%s: unknown link %s (did you mean '%s'?)",
                           what, lk_ydoc_describe(Y, id, d, sizeof d), sug);
    return lk_ydoc_error(Y, id, LK_SCHEMA_ERROR, ERR, "%s: unknown link %s (no link has that name)",
                         what, lk_ydoc_describe(Y, id, d, sizeof d));
  }
  *out = L->links[i].name;
  if (index) *index = i;
  return LK_OK;
}

/* A reference to a joint; one_dof: it must be revolute or prismatic. */
static lk_status ref_joint(loader *L, int id, const char *what, int one_dof, const char **out,
                           int *index) {
  const char *s;
  char d[96];
  lk_status st = lk_ydoc_string(Y, id, what, 4096, &s, ERR);
  if (st) return st;
  int i = find_joint(L, s);
  if (i < 0) {
    const char *sug = lk_suggest(s, L->joint_names, L->nlinks);
    if (sug)
      return lk_ydoc_error(Y, id, LK_SCHEMA_ERROR, ERR, "%s: unknown joint %s (did you mean '%s'?)",
                           what, lk_ydoc_describe(Y, id, d, sizeof d), sug);
    return lk_ydoc_error(Y, id, LK_SCHEMA_ERROR, ERR,
                         "%s: unknown joint %s (no joint has that name)", what,
                         lk_ydoc_describe(Y, id, d, sizeof d));
  }
  int t = L->links[i].jtype;
  if (one_dof && t >= 0 && t != LK_JOINT_REVOLUTE && t != LK_JOINT_PRISMATIC)
    return lk_ydoc_error(Y, id, LK_SCHEMA_ERROR, ERR,
                         "%s: joint '%s' is %s; only revolute and prismatic joints can be used here",
                         what, s, lk_joint_type_name((lk_joint_type)t));
  *out = L->links[i].joint;
  if (index) *index = i;
  return LK_OK;
}

static lk_status ref_material(loader *L, int id, const char *what, const char **out) {
  const char *s;
  char d[96];
  lk_status st = lk_ydoc_string(Y, id, what, 4096, &s, ERR);
  if (st) return st;
  if (find_material(L, s) < 0) {
    const char *sug = lk_suggest(s, L->mat_names, L->nmats + 1);
    if (sug)
      return lk_ydoc_error(Y, id, LK_SCHEMA_ERROR, ERR,
                           "%s: unknown material %s (did you mean '%s'?)", what,
                           lk_ydoc_describe(Y, id, d, sizeof d), sug);
    return lk_ydoc_error(Y, id, LK_SCHEMA_ERROR, ERR,
                         "%s: unknown material %s (define it under materials:)", what,
                         lk_ydoc_describe(Y, id, d, sizeof d));
  }
  *out = s;
  return LK_OK;
}

/* ------------------------------------------------------- typed values */

enum { ANY = 0, POSITIVE = 1, NONNEG = 2, UNIT = 3, RANGE_MASK = 3, INF_OK = 8 };

/* The number under key, if present (*present says; NULL: don't care). */
static lk_status num(loader *L, int map, const char *key, const char *ctx, int flags, double *out,
                     int *present) {
  int id = lk_ydoc_map_get(Y, map, key);
  if (present) *present = id != 0;
  if (!id) return LK_OK;
  char what[192];
  say(what, sizeof what, "%s: %s", ctx, key);
  double v;
  lk_status st = lk_ydoc_double(Y, id, what, flags & INF_OK, &v, ERR);
  if (st) return st;
  switch (flags & RANGE_MASK) {
    case POSITIVE:
      if (!(v > 0))
        return lk_ydoc_error(Y, id, LK_SCHEMA_ERROR, ERR, "%s must be positive, got %g", what, v);
      break;
    case NONNEG:
      if (!(v >= 0))
        return lk_ydoc_error(Y, id, LK_SCHEMA_ERROR, ERR, "%s must be >= 0, got %g", what, v);
      break;
    case UNIT:
      if (!(v >= 0 && v <= 1))
        return lk_ydoc_error(Y, id, LK_SCHEMA_ERROR, ERR, "%s must be in [0, 1], got %g", what, v);
      break;
    default:
      break;
  }
  *out = v;
  return LK_OK;
}

static lk_status vec3(loader *L, int map, const char *key, const char *ctx, lk_vec3 *out,
                      int *present) {
  int id = lk_ydoc_map_get(Y, map, key);
  if (present) *present = id != 0;
  if (!id) return LK_OK;
  char what[192];
  say(what, sizeof what, "%s: %s", ctx, key);
  double v[3];
  lk_status st = lk_ydoc_doubles(Y, id, what, 3, 0, v, NULL, ERR);
  if (st) return st;
  *out = lk_v3_from(v);
  return LK_OK;
}

static lk_status nonzero_vec3(loader *L, int map, const char *key, const char *ctx, lk_vec3 *out,
                              int *present) {
  int p;
  lk_status st = vec3(L, map, key, ctx, out, &p);
  if (present) *present = p;
  if (st || !p) return st;
  if (!(lk_v3_norm(*out) > 1e-12))
    return lk_ydoc_error(Y, lk_ydoc_map_get(Y, map, key), LK_SCHEMA_ERROR, ERR,
                         "%s: %s must not be the zero vector", ctx, key);
  return LK_OK;
}

static lk_status enumv(loader *L, int map, const char *key, const char *ctx,
                       const char *const *names, int n, int *out, int *present) {
  int id = lk_ydoc_map_get(Y, map, key);
  if (present) *present = id != 0;
  if (!id) return LK_OK;
  char what[192];
  say(what, sizeof what, "%s: %s", ctx, key);
  return lk_ydoc_enum(Y, id, what, names, n, out, ERR);
}

static lk_status required(loader *L, int map, const char *key, const char *ctx, int *id) {
  *id = lk_ydoc_map_get(Y, map, key);
  if (*id && !lk_ydoc_is_null(Y, *id)) return LK_OK;
  return lk_ydoc_error(Y, *id ? *id : map, LK_SCHEMA_ERROR, ERR, "%s: missing required key '%s'",
                       ctx, key);
}

/* A key that the element's kind does not take. */
static lk_status not_for(loader *L, int map, const char *const *keys, const char *ctx,
                         const char *kind) {
  for (int i = 0; keys[i]; i++) {
    int k = lk_ydoc_map_get_key(Y, map, keys[i]);
    if (k)
      return lk_ydoc_error(Y, k, LK_SCHEMA_ERROR, ERR, "%s: '%s' does not apply to %s", ctx,
                           keys[i], kind);
  }
  return LK_OK;
}

/* xyz + (rpy | quat) -> a rigid transform. */
static lk_status origin(loader *L, int id, const char *ctx, lk_transform *out) {
  char what[192];
  say(what, sizeof what, "%s: origin", ctx);
  lk_status st = lk_ydoc_check_keys(Y, id, what, kOriginKeys, ERR);
  if (st) return st;
  lk_vec3 p = lk_v3_zero(), rpy = lk_v3_zero();
  int has_rpy;
  if ((st = vec3(L, id, "xyz", what, &p, NULL))) return st;
  if ((st = vec3(L, id, "rpy", what, &rpy, &has_rpy))) return st;
  lk_mat3 R = lk_m3_from_rpy(rpy.x, rpy.y, rpy.z);
  int qid = lk_ydoc_map_get(Y, id, "quat");
  if (qid) {
    if (has_rpy)
      return lk_ydoc_error(Y, lk_ydoc_map_get_key(Y, id, "quat"), LK_SCHEMA_ERROR, ERR,
                           "%s: give either rpy or quat, not both", what);
    double q[4];
    char w2[208];
    say(w2, sizeof w2, "%s: quat", what);
    if ((st = lk_ydoc_doubles(Y, qid, w2, 4, 0, q, NULL, ERR))) return st;
    lk_quat qq = lk_q(q[0], q[1], q[2], q[3]);
    double n = lk_q_norm(qq);
    /* Hand-written quaternions carry a few digits; anything further from
     * unit than that is a mistake (often x, y, z, w order). */
    if (!(fabs(n - 1) <= 1e-3))
      return lk_ydoc_error(Y, qid, LK_SCHEMA_ERROR, ERR,
                           "%s has norm %g; expected a unit quaternion [w, x, y, z]", w2, n);
    R = lk_q_to_mat3(lk_q_normalize(qq));
  }
  *out = lk_tf(&R, p);
  return LK_OK;
}

/* The rotation taking +z to the unit vector n (the shortest one). */
static lk_mat3 rotation_z_to(lk_vec3 n) {
  lk_vec3 z = lk_v3(0, 0, 1);
  double c = lk_v3_dot(z, n);
  lk_vec3 ax = lk_v3_cross(z, n);
  double s = lk_v3_norm(ax);
  if (s < 1e-12) return c > 0 ? lk_m3_identity() : lk_m3_diag(1, -1, -1);
  return lk_m3_from_axis_angle(lk_v3_scale(ax, 1.0 / s), atan2(s, c));
}

static void locate_finalize_error(loader *L);

/* ------------------------------------------------------------ options */

static lk_status sec_options(loader *L, int id) {
  const char *ctx = "options";
  lk_status st = lk_ydoc_check_keys(Y, id, ctx, kOptionKeys, ERR);
  if (st) return st;
  L->options_node = id;
  lk_options o;
  lk_options_default(&o);
  int e;
  if ((st = num(L, id, "timestep", ctx, POSITIVE, &o.timestep, NULL))) return st;
  if ((st = vec3(L, id, "gravity", ctx, &o.gravity, NULL))) return st;
  e = (int)o.integrator;
  if ((st = enumv(L, id, "integrator", ctx, kIntegrators, 2, &e, NULL))) return st;
  o.integrator = (lk_integrator)e;
  e = (int)o.solver;
  if ((st = enumv(L, id, "solver", ctx, kSolvers, 2, &e, NULL))) return st;
  o.solver = (lk_solver_kind)e;
  e = (int)o.friction_cone;
  if ((st = enumv(L, id, "friction_cone", ctx, kCones, 3, &e, NULL))) return st;
  o.friction_cone = (lk_cone)e;
  e = (int)o.friction_mix;
  if ((st = enumv(L, id, "friction_mix", ctx, kMixes, 4, &e, NULL))) return st;
  o.friction_mix = (lk_mix_rule)e;
  e = (int)o.friction_law;
  if ((st = enumv(L, id, "friction_law", ctx, kFrictionLaws, 2, &e, NULL))) return st;
  o.friction_law = (lk_friction_law)e;
  long v;
  int k = lk_ydoc_map_get(Y, id, "cone_edges");
  if (k) {
    if ((st = lk_ydoc_long(Y, k, "options: cone_edges", 3, 64, &v, ERR))) return st;
    o.cone_edges = (int)v;
  }
  k = lk_ydoc_map_get(Y, id, "max_contacts");
  if (k) {
    if ((st = lk_ydoc_long(Y, k, "options: max_contacts", 0, 1000000, &v, ERR))) return st;
    o.max_contacts = (int)v;
  }
  /* The solver and sensing parameters: read here, their ranges checked by
   * the model (lk_model_set_options), whose message is then located at the
   * key it names. */
  const struct {
    const char *key;
    double *p;
  } reals[] = {{"contact_erp", &o.contact_erp},
               {"contact_tolerance", &o.contact_tolerance},
               {"restitution_threshold", &o.restitution_threshold},
               {"slip_threshold", &o.slip_threshold},
               {"constraint_erp", &o.constraint_erp},
               {"cfm", &o.cfm},
               {"slip_speed_threshold", &o.slip_speed_threshold},
               {"utilization_threshold", &o.utilization_threshold},
               {"slip_filter_tau", &o.slip_filter_tau},
               {"slip_on", &o.slip_on},
               {"slip_off", &o.slip_off},
               {"friction_eps_v", &o.friction_eps_v}};
  for (size_t i = 0; i < sizeof reals / sizeof reals[0]; i++)
    if ((st = num(L, id, reals[i].key, ctx, ANY, reals[i].p, NULL))) return st;
  const struct {
    const char *key;
    int *p;
  } ints[] = {{"friction_iterations", &o.friction_iterations},
              {"projection_iterations", &o.projection_iterations},
              {"max_island_rows", &o.max_island_rows},
              {"smoothing_iterations", &o.smoothing_iterations}};
  for (size_t i = 0; i < sizeof ints / sizeof ints[0]; i++) {
    if (!(k = lk_ydoc_map_get(Y, id, ints[i].key))) continue;
    char what[96];
    say(what, sizeof what, "options: %s", ints[i].key);
    if ((st = lk_ydoc_long(Y, k, what, 0, 1000000, &v, ERR))) return st;
    *ints[i].p = (int)v;
  }
  if (L->mo && !L->mo->options) return LK_OK; /* checked, not applied */
  if ((st = lk_model_set_options(L->m, &o, ERR))) locate_finalize_error(L);
  return st;
}

/* ---------------------------------------------------------- materials */

static lk_status sec_materials(loader *L, int id) {
  int n = lk_ydoc_seq_len(Y, id);
  for (int i = 0; i < n; i++) {
    int it = lk_ydoc_seq_item(Y, id, i);
    lk_material_spec s;
    lk_material_spec_default(&s);
    s.name = L->mats[i].name;
    char ctx[128];
    say(ctx, sizeof ctx, "material '%s'", s.name);
    lk_status st = lk_ydoc_check_keys(Y, it, ctx, kMaterialKeys, ERR);
    if (st) return st;
    int has_mu, has_ms, has_md;
    double mu = 0;
    if ((st = num(L, it, "mu", ctx, NONNEG, &mu, &has_mu))) return st;
    if ((st = num(L, it, "mu_static", ctx, NONNEG, &s.mu_static, &has_ms))) return st;
    if ((st = num(L, it, "mu_dynamic", ctx, NONNEG, &s.mu_dynamic, &has_md))) return st;
    if (has_mu && (has_ms || has_md))
      return lk_ydoc_error(Y, lk_ydoc_map_get_key(Y, it, "mu"), LK_SCHEMA_ERROR, ERR,
                           "%s: 'mu' sets both coefficients; give either mu or mu_static and "
                           "mu_dynamic",
                           ctx);
    if (has_mu) s.mu_static = s.mu_dynamic = mu;
    /* A material that gives only the static coefficient slides with it too:
     * the builder's default (0.5) could exceed it and be rejected. */
    if (has_ms && !has_md) s.mu_dynamic = s.mu_static;
    if (has_md && !has_ms && s.mu_dynamic > s.mu_static) s.mu_static = s.mu_dynamic;
    if ((st = num(L, it, "restitution", ctx, UNIT, &s.restitution, NULL))) return st;
    if ((st = num(L, it, "mu_rolling", ctx, NONNEG, &s.mu_rolling, NULL))) return st;
    if ((st = num(L, it, "mu_torsional", ctx, NONNEG, &s.mu_torsional, NULL))) return st;
    if ((st = num(L, it, "patch_radius", ctx, NONNEG, &s.patch_radius, NULL))) return st;
    /* Compliant contact (docs/contact-models.md). */
    int e = (int)s.contact;
    if ((st = enumv(L, it, "contact", ctx, kContactModels, 2, &e, NULL))) return st;
    s.contact = (lk_contact_model)e;
    e = (int)s.normal;
    if ((st = enumv(L, it, "normal", ctx, kNormalModels, 2, &e, NULL))) return st;
    s.normal = (lk_normal_model)e;
    int tid = lk_ydoc_map_get(Y, it, "tangential");
    if (tid) {
      const char *names[LK_TANGENTIAL_COUNT];
      for (int t = 0; t < LK_TANGENTIAL_COUNT; t++) names[t] = lk_tangential_model_name(t);
      char what[192];
      say(what, sizeof what, "%s: tangential", ctx);
      if ((st = lk_ydoc_enum(Y, tid, what, names, LK_TANGENTIAL_COUNT, &e, ERR))) return st;
      s.tangential = (lk_tangential_model)e;
    }
    if ((st = num(L, it, "k_n", ctx, NONNEG, &s.k_n, NULL))) return st;
    if ((st = num(L, it, "damping", ctx, NONNEG, &s.damping, NULL))) return st;
    if ((st = num(L, it, "k_t", ctx, NONNEG, &s.k_t, NULL))) return st;
    if ((st = num(L, it, "x_gamma_t", ctx, NONNEG, &s.x_gamma_t, NULL))) return st;
    if (s.contact != LK_CONTACT_COMPLIANT) {
      static const char *const rigid_not[] = {"normal", "k_n", "damping", "tangential", "k_t",
                                              "x_gamma_t", NULL};
      if ((st = not_for(L, it, rigid_not, ctx, "a rigid material (set contact: compliant)")))
        return st;
    } else if (!(s.k_n > 0)) {
      return lk_ydoc_error(Y, lk_ydoc_map_get(Y, it, "k_n") ? lk_ydoc_map_get(Y, it, "k_n") : it,
                           LK_SCHEMA_ERROR, ERR, "%s: compliant contact needs k_n > 0", ctx);
    }
    const char *docname = s.name;
    if ((st = placed(L, docname, &s.name))) return st;
    if ((st = lk_model_add_material(L->m, &s, ERR))) return st;
    if ((st = reg_add(L, R_MATERIAL, docname, it))) return st;
  }
  return LK_OK;
}

/* -------------------------------------------------------------- geoms */

static double geom_volume(const lk_geom_spec *g) {
  const double *s = g->size;
  switch (g->type) {
    case LK_GEOM_SPHERE:
      return 4.0 / 3.0 * LK_PI * s[0] * s[0] * s[0];
    case LK_GEOM_BOX:
      return 8.0 * s[0] * s[1] * s[2];
    case LK_GEOM_CYLINDER:
      return LK_PI * s[0] * s[0] * 2.0 * s[1];
    case LK_GEOM_CAPSULE:
      return LK_PI * s[0] * s[0] * 2.0 * s[1] + 4.0 / 3.0 * LK_PI * s[0] * s[0] * s[0];
    default:
      return 0;
  }
}

/* One geom mapping -> spec (strings point into the document). */
static lk_status geom(loader *L, int it, const char *link, const char *ctx_in, lk_geom_spec *g) {
  lk_geom_spec_default(g);
  g->link = link;
  char ctx[192];
  say(ctx, sizeof ctx, "%s", ctx_in);
  lk_status st = lk_ydoc_check_keys(Y, it, ctx, kGeomKeys, ERR);
  if (st) return st;
  int nid = lk_ydoc_map_get(Y, it, "name");
  if (nid) {
    char what[200];
    say(what, sizeof what, "%s: name", ctx);
    if ((st = read_name(L, nid, what, &g->name))) return st;
    if ((st = unique_name(L, "geom", g->name, nid))) return st;
    say(ctx, sizeof ctx, "geom '%s'", g->name);
  }
  int tid, type;
  if ((st = required(L, it, "type", ctx, &tid))) return st;
  if ((st = enumv(L, it, "type", ctx, kGeomTypes, 5, &type, NULL))) return st;
  g->type = (lk_geom_type)type;
  static const char *const plane_only[] = {"normal", "point", NULL};
  static const char *const radius[] = {"radius", NULL};
  static const char *const half_length[] = {"half_length", NULL};
  static const char *const half_extents[] = {"half_extents", NULL};
  static const char *const kinds[] = {"a plane", "a sphere", "a capsule", "a box", "a cylinder"};
  const char *kind = kinds[type];
  if (type != LK_GEOM_PLANE && (st = not_for(L, it, plane_only, ctx, kind))) return st;
  if ((type == LK_GEOM_PLANE || type == LK_GEOM_BOX) && (st = not_for(L, it, radius, ctx, kind)))
    return st;
  if (type != LK_GEOM_CAPSULE && type != LK_GEOM_CYLINDER &&
      (st = not_for(L, it, half_length, ctx, kind)))
    return st;
  if (type != LK_GEOM_BOX && (st = not_for(L, it, half_extents, ctx, kind))) return st;
  int k;
  switch (type) {
    case LK_GEOM_SPHERE:
      if ((st = required(L, it, "radius", ctx, &k))) return st;
      if ((st = num(L, it, "radius", ctx, POSITIVE, &g->size[0], NULL))) return st;
      break;
    case LK_GEOM_CAPSULE:
    case LK_GEOM_CYLINDER:
      if ((st = required(L, it, "radius", ctx, &k))) return st;
      if ((st = num(L, it, "radius", ctx, POSITIVE, &g->size[0], NULL))) return st;
      if ((st = required(L, it, "half_length", ctx, &k))) return st;
      /* A capsule of half length 0 is a sphere, a cylinder of 0 is nothing. */
      if ((st = num(L, it, "half_length", ctx, type == LK_GEOM_CAPSULE ? NONNEG : POSITIVE,
                    &g->size[1], NULL)))
        return st;
      break;
    case LK_GEOM_BOX: {
      if ((st = required(L, it, "half_extents", ctx, &k))) return st;
      lk_vec3 h;
      if ((st = vec3(L, it, "half_extents", ctx, &h, NULL))) return st;
      if (!(h.x > 0 && h.y > 0 && h.z > 0))
        return lk_ydoc_error(Y, k, LK_SCHEMA_ERROR, ERR,
                             "%s: half_extents must all be positive, got [%g, %g, %g]", ctx, h.x,
                             h.y, h.z);
      lk_v3_to(h, g->size);
      break;
    }
    default:
      break;
  }
  int oid = lk_ydoc_map_get(Y, it, "origin");
  if (oid && (st = origin(L, oid, ctx, &g->pose))) return st;
  if (type == LK_GEOM_PLANE) {
    int has_n, has_p;
    lk_vec3 n = lk_v3(0, 0, 1), p = lk_v3_zero();
    if ((st = nonzero_vec3(L, it, "normal", ctx, &n, &has_n))) return st;
    if ((st = vec3(L, it, "point", ctx, &p, &has_p))) return st;
    if (oid && (has_n || has_p))
      return lk_ydoc_error(Y, lk_ydoc_map_get_key(Y, it, has_n ? "normal" : "point"),
                           LK_SCHEMA_ERROR, ERR,
                           "%s: give a plane either normal/point or origin, not both", ctx);
    if (!oid) {
      /* The plane is the half-space z <= 0 of its pose: put the pose's z
       * axis along the normal and its origin on the point. */
      lk_mat3 R = rotation_z_to(lk_v3_normalize(n));
      g->pose = lk_tf(&R, p);
    }
  }
  int mid = lk_ydoc_map_get(Y, it, "material");
  if (mid) {
    char what[200];
    say(what, sizeof what, "%s: material", ctx);
    if ((st = ref_material(L, mid, what, &g->material))) return st;
  }
  long v;
  if ((k = lk_ydoc_map_get(Y, it, "group"))) {
    char what[200];
    say(what, sizeof what, "%s: group", ctx);
    if ((st = lk_ydoc_long(Y, k, what, 0, 0xFFFFFFFFL, &v, ERR))) return st;
    g->group = (unsigned)v;
  }
  if ((k = lk_ydoc_map_get(Y, it, "mask"))) {
    char what[200];
    say(what, sizeof what, "%s: mask", ctx);
    if ((st = lk_ydoc_long(Y, k, what, 0, 0xFFFFFFFFL, &v, ERR))) return st;
    g->mask = (unsigned)v;
  }
  if ((k = lk_ydoc_map_get(Y, it, "collide_parent"))) {
    char what[200];
    say(what, sizeof what, "%s: collide_parent", ctx);
    if ((st = lk_ydoc_bool(Y, k, what, &g->collide_parent, ERR))) return st;
  }
  return LK_OK;
}

/* Geoms of a list under key "geoms" of map, into a new array. */
static lk_status geoms(loader *L, int map, const char *link, const char *ctx, lk_geom_spec **out,
                       int **nodes, int *count) {
  *out = NULL;
  *nodes = NULL;
  *count = 0;
  int id = lk_ydoc_map_get(Y, map, "geoms");
  if (!id) return LK_OK;
  char what[192];
  say(what, sizeof what, "%s: geoms", ctx);
  lk_status st = lk_ydoc_expect_seq(Y, id, what, ERR);
  if (st) return st;
  int n = lk_ydoc_seq_len(Y, id);
  if (n == 0) return LK_OK;
  lk_geom_spec *g = LK_NEW_ARRAY(lk_geom_spec, n);
  int *nd = LK_NEW_ARRAY(int, n);
  if (!g || !nd) {
    lk_free(g);
    lk_free(nd);
    return oom(L);
  }
  for (int i = 0; i < n; i++) {
    char c[220];
    say(c, sizeof c, "%s: geoms[%d]", ctx, i);
    nd[i] = lk_ydoc_seq_item(Y, id, i);
    if ((st = geom(L, nd[i], link, c, &g[i]))) {
      lk_free(g);
      lk_free(nd);
      return st;
    }
  }
  *out = g;
  *nodes = nd;
  *count = n;
  return LK_OK;
}

static lk_status add_geoms(loader *L, const lk_geom_spec *g, const int *nodes, int n) {
  for (int i = 0; i < n; i++) {
    lk_geom_spec s = g[i];
    int world;
    lk_status st = placed(L, g[i].name, &s.name);
    if (!st) st = placed_link(L, g[i].link, &s.link, &world);
    if (!st) st = placed_material(L, g[i].material, &s.material);
    if (st) return st;
    if (world) s.pose = place_tf(L, &g[i].pose);
    st = lk_model_add_geom(L->m, &s, ERR);
    if (!st) st = reg_add(L, R_GEOM, g[i].name, nodes[i]);
    if (st) return st;
  }
  return LK_OK;
}

static lk_status sec_world(loader *L, int id) {
  lk_status st = lk_ydoc_check_keys(Y, id, "world", kWorldKeys, ERR);
  if (st) return st;
  lk_geom_spec *g;
  int *nodes, n;
  if ((st = geoms(L, id, "world", "world", &g, &nodes, &n))) return st;
  /* Loading into a model without the file's world geoms: checked, dropped. */
  if (!L->mo || L->mo->world_geoms) st = add_geoms(L, g, nodes, n);
  lk_free(g);
  lk_free(nodes);
  return st;
}

/* --------------------------------------------------------------- links */

/* Mass properties from the link's solid geoms: the mass is split in
 * proportion to volume (uniform density), the centre of mass is the volume
 * centroid unless the file gives one, and the inertia is each solid's,
 * rotated into the link frame and moved to the centre of mass (parallel
 * axes). Overlapping geoms count twice. Returns 0 when there is no solid. */
static int inertia_from_geoms(const lk_geom_spec *g, int n, double mass, int com_given,
                              lk_vec3 *com, lk_mat3 *I) {
  double V = 0;
  lk_vec3 c = lk_v3_zero();
  for (int i = 0; i < n; i++) {
    double v = geom_volume(&g[i]);
    V += v;
    c = lk_v3_madd(c, g[i].pose.p, v);
  }
  if (!(V > 0)) return 0;
  if (!com_given) *com = lk_v3_scale(c, 1.0 / V);
  lk_mat3 acc = lk_m3_zero();
  for (int i = 0; i < n; i++) {
    double v = geom_volume(&g[i]);
    if (v <= 0) continue;
    double mi = mass * v / V;
    lk_mat3 Ig;
    if (lk_geom_solid_inertia(g[i].type, g[i].size, mi, &Ig, NULL)) continue;
    lk_mat3 Ir = lk_m3_rotate_tensor(&g[i].pose.R, &Ig);
    lk_vec3 d = lk_v3_sub(g[i].pose.p, *com);
    double d2 = lk_v3_norm2(d);
    lk_mat3 dd = lk_m3_outer(d, d);
    for (int r = 0; r < 3; r++)
      for (int s = 0; s < 3; s++) acc.m[r][s] += Ir.m[r][s] + mi * ((r == s ? d2 : 0) - dd.m[r][s]);
  }
  /* Symmetrize away rounding so finalize's symmetry test sees exact zeros. */
  for (int r = 0; r < 3; r++)
    for (int s = r + 1; s < 3; s++) acc.m[r][s] = acc.m[s][r] = 0.5 * (acc.m[r][s] + acc.m[s][r]);
  *I = acc;
  return 1;
}

static lk_status joint(loader *L, link_rec *lr, int id, const char *lctx, lk_joint_spec *j) {
  char ctx[192];
  say(ctx, sizeof ctx, "%s: joint", lctx);
  lk_status st;
  int type = LK_JOINT_FIXED;
  if (!id) {
    j->type = LK_JOINT_FIXED;
    return LK_OK;
  }
  if (lk_ydoc_is_scalar(Y, id)) {
    /* "joint: revolute" shorthand: a joint of that type named after the link. */
    if ((st = lk_ydoc_enum(Y, id, ctx, kJointTypes, 5, &type, ERR))) return st;
    j->type = (lk_joint_type)type;
    return LK_OK;
  }
  if ((st = lk_ydoc_check_keys(Y, id, ctx, kJointKeys, ERR))) return st;
  say(ctx, sizeof ctx, "%s: joint '%s'", lctx, lr->joint);
  int tid;
  if ((st = required(L, id, "type", ctx, &tid))) return st;
  if ((st = enumv(L, id, "type", ctx, kJointTypes, 5, &type, NULL))) return st;
  j->type = (lk_joint_type)type;
  static const char *const moving[] = {"axis",     "limit",    "damping", "stiffness",
                                       "rest",     "armature", "friction", NULL};
  static const char *const no_axis[] = {"axis", "rest", NULL};
  static const char *const free_only[] = {"axis", "rest", "limit", NULL};
  static const char *const kinds[] = {"a fixed joint", "a revolute joint", "a prismatic joint",
                                      "a ball joint", "a free joint"};
  if (type == LK_JOINT_FIXED && (st = not_for(L, id, moving, ctx, kinds[type]))) return st;
  if (type == LK_JOINT_BALL && (st = not_for(L, id, no_axis, ctx, kinds[type]))) return st;
  if (type == LK_JOINT_FREE && (st = not_for(L, id, free_only, ctx, kinds[type]))) return st;
  if ((st = nonzero_vec3(L, id, "axis", ctx, &j->axis, NULL))) return st;
  int k = lk_ydoc_map_get(Y, id, "limit");
  if (k) {
    char what[220];
    say(what, sizeof what, "%s: limit", ctx);
    if (type == LK_JOINT_BALL) {
      /* A ball joint's limit is a cone: the largest rotation angle. */
      double a;
      if ((st = lk_ydoc_double(Y, k, what, 0, &a, ERR))) return st;
      if (!(a > 0 && a <= LK_PI))
        return lk_ydoc_error(Y, k, LK_SCHEMA_ERROR, ERR,
                             "%s: a ball joint's limit is a cone angle in (0, pi], got %g", what, a);
      j->limited = 1;
      j->lower = 0;
      j->upper = a;
    } else {
      double lim[2];
      if ((st = lk_ydoc_doubles(Y, k, what, 2, 0, lim, NULL, ERR))) return st;
      if (lim[0] > lim[1])
        return lk_ydoc_error(Y, k, LK_SCHEMA_ERROR, ERR,
                             "%s: lower %g is above upper %g (expected [lower, upper])", what,
                             lim[0], lim[1]);
      j->limited = 1;
      j->lower = lim[0];
      j->upper = lim[1];
    }
  }
  if ((st = num(L, id, "damping", ctx, NONNEG, &j->damping, NULL))) return st;
  if ((st = num(L, id, "stiffness", ctx, NONNEG, &j->stiffness, NULL))) return st;
  if ((st = num(L, id, "rest", ctx, ANY, &j->rest, NULL))) return st;
  if ((st = num(L, id, "armature", ctx, NONNEG, &j->armature, NULL))) return st;
  if ((st = num(L, id, "friction", ctx, NONNEG, &j->friction, NULL))) return st;
  return LK_OK;
}

static lk_status one_link(loader *L, link_rec *lr) {
  int it = lr->item;
  char ctx[128];
  say(ctx, sizeof ctx, "link '%s'", lr->name);
  lk_status st = lk_ydoc_check_keys(Y, it, ctx, kLinkKeys, ERR);
  if (st) return st;
  lk_link_spec s;
  lk_link_spec_default(&s);
  s.name = lr->name;
  s.joint.name = lr->joint;
  s.parent = "world";
  int pid = lk_ydoc_map_get(Y, it, "parent");
  lr->parent = -1;
  if (pid) {
    char what[160];
    say(what, sizeof what, "%s: parent", ctx);
    if ((st = ref_link(L, pid, what, 1, &s.parent, &lr->parent))) return st;
    if (lr->parent >= 0 && &L->links[lr->parent] == lr)
      return lk_ydoc_error(Y, pid, LK_SCHEMA_ERROR, ERR, "%s: a link cannot be its own parent", ctx);
    lr->parent_node = pid;
  }
  if ((st = joint(L, lr, lk_ydoc_map_get(Y, it, "joint"), ctx, &s.joint))) return st;
  s.joint.name = lr->joint;
  int oid = lk_ydoc_map_get(Y, it, "origin");
  if (oid && (st = origin(L, oid, ctx, &s.origin))) return st;
  int has_mass, has_com, kid;
  if ((st = num(L, it, "mass", ctx, NONNEG, &s.mass, &has_mass))) return st;
  if (!has_mass && s.joint.type != LK_JOINT_FIXED)
    return lk_ydoc_error(Y, it, LK_SCHEMA_ERROR, ERR,
                         "%s: missing required key 'mass' (a link on a %s joint must have mass)",
                         ctx, lk_joint_type_name(s.joint.type));
  if (has_mass && s.mass == 0 && s.joint.type != LK_JOINT_FIXED)
    return lk_ydoc_error(Y, lk_ydoc_map_get(Y, it, "mass"), LK_SCHEMA_ERROR, ERR,
                         "%s: mass must be positive on a %s joint (only a link on a fixed joint "
                         "may be massless), got 0",
                         ctx, lk_joint_type_name(s.joint.type));
  if ((st = vec3(L, it, "com", ctx, &s.com, &has_com))) return st;
  if ((kid = lk_ydoc_map_get(Y, it, "inertia"))) {
    double v[6];
    int cnt;
    char what[160];
    say(what, sizeof what, "%s: inertia", ctx);
    if ((st = lk_ydoc_doubles(Y, kid, what, 6, 3, v, &cnt, ERR))) return st;
    if (cnt == 3) v[3] = v[4] = v[5] = 0;
    /* [ixx, iyy, izz, ixy, ixz, iyz] */
    lk_mat3 I = {{{v[0], v[3], v[4]}, {v[3], v[1], v[5]}, {v[4], v[5], v[2]}}};
    s.inertia = I;
  }
  lk_geom_spec *g;
  int *nodes, ng;
  if ((st = geoms(L, it, lr->name, ctx, &g, &nodes, &ng))) return st;
  if (!kid && s.mass > 0 && !inertia_from_geoms(g, ng, s.mass, has_com, &s.com, &s.inertia)) {
    lk_free(g);
    lk_free(nodes);
    return lk_ydoc_error(Y, it, LK_SCHEMA_ERROR, ERR,
                         "%s: no inertia given, and no solid geoms to compute it from", ctx);
  }
  int world = 0;
  if (!st) st = placed(L, lr->name, &s.name);
  if (!st) st = placed(L, lr->joint, &s.joint.name);
  if (!st) st = placed_link(L, s.parent, &s.parent, &world);
  if (!st && world) s.origin = place_tf(L, &s.origin);
  if (!st) st = lk_model_add_link(L->m, &s, ERR);
  if (!st) st = reg_add(L, R_LINK, lr->name, it);
  if (!st) st = reg_add(L, R_JOINT, lr->joint, lr->joint_node);
  if (!st) st = add_geoms(L, g, nodes, ng);
  lk_free(g);
  lk_free(nodes);
  return st;
}

static lk_status sec_links(loader *L, int id) {
  for (int i = 0; i < L->nlinks; i++) {
    lk_status st = one_link(L, &L->links[i]);
    if (st) return st;
  }
  /* Cycles: a link whose ancestry comes back to it. Report it at the
   * parent key of the first such link in the file. */
  for (int i = 0; i < L->nlinks; i++) {
    int cur = L->links[i].parent, steps = 0;
    while (cur >= 0 && cur != i && steps++ <= L->nlinks) cur = L->links[cur].parent;
    if (cur == i) {
      char path[256];
      int len = snprintf(path, sizeof path, "%s", L->links[i].name);
      for (int c = L->links[i].parent; len < (int)sizeof path; c = L->links[c].parent) {
        len += snprintf(path + len, sizeof path - (size_t)len, " -> %s", L->links[c].name);
        if (c == i) break;
      }
      return lk_ydoc_error(Y, L->links[i].parent_node, LK_SCHEMA_ERROR, ERR,
                           "link '%s': parent '%s' makes a cycle (%s); links form a tree rooted "
                           "at the world (close loops under constraints: loops)",
                           L->links[i].name, L->links[L->links[i].parent].name, path);
    }
  }
  return LK_OK;
}

/* ----------------------------------------------------------- actuators */

static lk_status sec_actuators(loader *L, int id) {
  lk_status st = lk_ydoc_expect_seq(Y, id, "actuators", ERR);
  if (st) return st;
  int n = lk_ydoc_seq_len(Y, id);
  for (int i = 0; i < n; i++) {
    int it = lk_ydoc_seq_item(Y, id, i);
    char ctx[160];
    say(ctx, sizeof ctx, "actuators[%d]", i);
    if ((st = lk_ydoc_check_keys(Y, it, ctx, kActuatorKeys, ERR))) return st;
    lk_actuator_spec s;
    lk_actuator_spec_default(&s);
    int k, nid = lk_ydoc_map_get(Y, it, "name");
    char what[200];
    if ((st = required(L, it, "joint", ctx, &k))) return st;
    say(what, sizeof what, "%s: joint", ctx);
    if ((st = ref_joint(L, k, what, 1, &s.joint, NULL))) return st;
    if (nid) {
      say(what, sizeof what, "%s: name", ctx);
      if ((st = read_name(L, nid, what, &s.name))) return st;
    }
    const char *aname = s.name ? s.name : s.joint;
    if ((st = unique_name(L, "actuator", aname, nid ? nid : k))) return st;
    say(ctx, sizeof ctx, "actuator '%s'", aname);
    int type = LK_ACTUATOR_EFFORT;
    if ((st = enumv(L, it, "type", ctx, kActuatorTypes, 3, &type, NULL))) return st;
    s.type = (lk_actuator_type)type;
    static const char *const effort_not[] = {"kp", "kv", NULL};
    static const char *const velocity_not[] = {"kp", "schedule", NULL};
    static const char *const position_not[] = {"schedule", NULL};
    static const char *const kinds[] = {"an effort actuator", "a position actuator",
                                        "a velocity actuator"};
    const char *const *nots = type == LK_ACTUATOR_EFFORT     ? effort_not
                              : type == LK_ACTUATOR_VELOCITY ? velocity_not
                                                             : position_not;
    if ((st = not_for(L, it, nots, ctx, kinds[type]))) return st;
    if ((st = num(L, it, "kp", ctx, NONNEG, &s.kp, NULL))) return st;
    if ((st = num(L, it, "kv", ctx, NONNEG, &s.kv, NULL))) return st;
    if ((st = num(L, it, "target", ctx, ANY, &s.target, NULL))) return st;
    if ((st = num(L, it, "max_effort", ctx, POSITIVE | INF_OK, &s.max_effort, NULL))) return st;
    double *sched = NULL;
    if ((k = lk_ydoc_map_get(Y, it, "schedule"))) {
      say(what, sizeof what, "%s: schedule", ctx);
      if ((st = lk_ydoc_expect_seq(Y, k, what, ERR))) return st;
      int ns = lk_ydoc_seq_len(Y, k);
      if (ns == 0)
        return lk_ydoc_error(Y, k, LK_SCHEMA_ERROR, ERR,
                             "%s: expected a list of [time, effort] pairs, got an empty list", what);
      sched = LK_NEW_ARRAY(double, 2 * ns);
      if (!sched) return oom(L);
      for (int p = 0; p < ns; p++) {
        char w[220];
        double te[2];
        say(w, sizeof w, "%s[%d]", what, p);
        int pid = lk_ydoc_seq_item(Y, k, p);
        if ((st = lk_ydoc_doubles(Y, pid, w, 2, 0, te, NULL, ERR))) break;
        if (p > 0 && !(te[0] > sched[p - 1])) {
          st = lk_ydoc_error(Y, pid, LK_SCHEMA_ERROR, ERR,
                             "%s: time %g does not come after %g (times must increase)", w, te[0],
                             sched[p - 1]);
          break;
        }
        sched[p] = te[0];
        sched[ns + p] = te[1];
      }
      if (st) {
        lk_free(sched);
        return st;
      }
      s.schedule_t = sched;
      s.schedule_effort = sched + ns;
      s.nschedule = ns;
    }
    if (!(st = placed(L, s.name, &s.name))) st = placed(L, s.joint, &s.joint);
    if (!st) st = lk_model_add_actuator(L->m, &s, ERR);
    lk_free(sched);
    if (!st) st = reg_add(L, R_ACTUATOR, aname, it);
    if (st) return st;
  }
  return LK_OK;
}

/* --------------------------------------------------------------- loads */

static lk_status sec_loads(loader *L, int id) {
  lk_status st = lk_ydoc_expect_seq(Y, id, "loads", ERR);
  if (st) return st;
  int n = lk_ydoc_seq_len(Y, id);
  for (int i = 0; i < n; i++) {
    int it = lk_ydoc_seq_item(Y, id, i);
    char ctx[160], what[200];
    say(ctx, sizeof ctx, "loads[%d]", i);
    if ((st = lk_ydoc_check_keys(Y, it, ctx, kLoadKeys, ERR))) return st;
    lk_load_spec s;
    lk_load_spec_default(&s);
    int k;
    if ((st = element_name(L, it, "load", ctx, sizeof ctx, &s.name))) return st;
    if ((st = required(L, it, "link", ctx, &k))) return st;
    say(what, sizeof what, "%s: link", ctx);
    if ((st = ref_link(L, k, what, 0, &s.link, NULL))) return st;
    int e = 0;
    if ((st = vec3(L, it, "force", ctx, &s.force, NULL))) return st;
    if ((st = vec3(L, it, "torque", ctx, &s.torque, NULL))) return st;
    if ((st = vec3(L, it, "point", ctx, &s.point, NULL))) return st;
    if ((st = enumv(L, it, "frame", ctx, kFrames, 2, &e, NULL))) return st;
    s.frame = (lk_frame)e;
    if ((st = num(L, it, "start", ctx, NONNEG, &s.start, NULL))) return st;
    if ((st = num(L, it, "end", ctx, NONNEG | INF_OK, &s.end, NULL))) return st;
    if (s.end < s.start)
      return lk_ydoc_error(Y, lk_ydoc_map_get(Y, it, "end"), LK_SCHEMA_ERROR, ERR,
                           "%s: end %g comes before start %g", ctx, s.end, s.start);
    const char *docname = s.name ? s.name : s.link;
    if ((st = placed(L, s.name, &s.name)) || (st = placed(L, s.link, &s.link))) return st;
    if ((st = lk_model_add_load(L->m, &s, ERR))) return st;
    if ((st = reg_add(L, R_LOAD, docname, it))) return st;
  }
  return LK_OK;
}

/* ------------------------------------------------------------ contacts */

static lk_status sec_contacts(loader *L, int id) {
  lk_status st = lk_ydoc_expect_seq(Y, id, "contacts", ERR);
  if (st) return st;
  int n = lk_ydoc_seq_len(Y, id);
  for (int i = 0; i < n; i++) {
    int it = lk_ydoc_seq_item(Y, id, i);
    char ctx[160], what[200];
    say(ctx, sizeof ctx, "contacts[%d]", i);
    if ((st = lk_ydoc_check_keys(Y, it, ctx, kContactKeys, ERR))) return st;
    lk_contact_spec s;
    lk_contact_spec_default(&s);
    int k;
    if ((st = element_name(L, it, "contact", ctx, sizeof ctx, &s.name))) return st;
    int type = LK_CONTACT_FRICTION;
    if ((st = enumv(L, it, "type", ctx, kContactTypes, 2, &type, NULL))) return st;
    s.type = (lk_contact_type)type;
    static const char *const friction_not[] = {"patch_radius", NULL};
    if (type == LK_CONTACT_FRICTION &&
        (st = not_for(L, it, friction_not, ctx, "a friction contact (only rolling ones)")))
      return st;
    if ((st = required(L, it, "link", ctx, &k))) return st;
    say(what, sizeof what, "%s: link", ctx);
    int li, oi = -1;
    if ((st = ref_link(L, k, what, 0, &s.link, &li))) return st;
    s.other = "world";
    if ((k = lk_ydoc_map_get(Y, it, "other"))) {
      say(what, sizeof what, "%s: other", ctx);
      if ((st = ref_link(L, k, what, 1, &s.other, &oi))) return st;
      if (oi == li)
        return lk_ydoc_error(Y, k, LK_SCHEMA_ERROR, ERR,
                             "%s: other is the touching link itself", ctx);
    }
    if ((st = vec3(L, it, "point", ctx, &s.point, NULL))) return st;
    if ((st = vec3(L, it, "other_point", ctx, &s.other_point, NULL))) return st;
    if ((st = nonzero_vec3(L, it, "normal", ctx, &s.normal, NULL))) return st;
    if ((st = num(L, it, "radius", ctx, NONNEG, &s.radius, NULL))) return st;
    if ((st = num(L, it, "tolerance", ctx, NONNEG, &s.tolerance, NULL))) return st;
    if ((st = num(L, it, "patch_radius", ctx, NONNEG, &s.patch_radius, NULL))) return st;
    if ((k = lk_ydoc_map_get(Y, it, "material"))) {
      say(what, sizeof what, "%s: material", ctx);
      if ((st = ref_material(L, k, what, &s.material))) return st;
    }
    const char *docname = s.name;
    int world;
    if ((st = placed(L, s.name, &s.name)) || (st = placed(L, s.link, &s.link)) ||
        (st = placed_link(L, s.other, &s.other, &world)) ||
        (st = placed_material(L, s.material, &s.material)))
      return st;
    if (world) {
      s.other_point = place_point(L, s.other_point);
      s.normal = place_dir(L, s.normal);
    }
    if ((st = lk_model_add_contact(L->m, &s, ERR))) return st;
    if ((st = reg_add(L, R_CONTACT, docname, it))) return st;
  }
  return LK_OK;
}

/* ------------------------------------------------------------ supports */

static lk_status sec_supports(loader *L, int id) {
  lk_status st = lk_ydoc_expect_seq(Y, id, "supports", ERR);
  if (st) return st;
  int n = lk_ydoc_seq_len(Y, id);
  for (int i = 0; i < n; i++) {
    int it = lk_ydoc_seq_item(Y, id, i);
    char ctx[160], what[200];
    say(ctx, sizeof ctx, "supports[%d]", i);
    if ((st = lk_ydoc_check_keys(Y, it, ctx, kSupportKeys, ERR))) return st;
    lk_support_spec s;
    lk_support_spec_default(&s);
    int k;
    if ((st = element_name(L, it, "support", ctx, sizeof ctx, &s.name))) return st;
    int jk = lk_ydoc_map_get(Y, it, "joint"), lk = lk_ydoc_map_get(Y, it, "link");
    if (!!jk == !!lk)
      return lk_ydoc_error(Y, jk ? lk_ydoc_map_get_key(Y, it, "link") : it, LK_SCHEMA_ERROR, ERR,
                           "%s: give either a joint or a link (with a point), not %s", ctx,
                           jk ? "both" : "neither");
    if (jk) {
      say(what, sizeof what, "%s: joint", ctx);
      if ((st = ref_joint(L, jk, what, 1, &s.joint, NULL))) return st;
      static const char *const joint_not[] = {"point", "normal", NULL};
      if ((st = not_for(L, it, joint_not, ctx, "a joint support"))) return st;
    } else {
      say(what, sizeof what, "%s: link", ctx);
      if ((st = ref_link(L, lk, what, 0, &s.link, NULL))) return st;
      if ((st = vec3(L, it, "point", ctx, &s.point, NULL))) return st;
      if ((st = nonzero_vec3(L, it, "normal", ctx, &s.normal, NULL))) return st;
    }
    if ((st = required(L, it, "normal_force", ctx, &k))) return st;
    if ((st = num(L, it, "normal_force", ctx, NONNEG, &s.normal_force, NULL))) return st;
    int has_mu, has_ms, has_md;
    double mu = 0;
    if ((st = num(L, it, "mu", ctx, NONNEG, &mu, &has_mu))) return st;
    if ((st = num(L, it, "mu_static", ctx, NONNEG, &s.mu_static, &has_ms))) return st;
    if ((st = num(L, it, "mu_dynamic", ctx, NONNEG, &s.mu_dynamic, &has_md))) return st;
    if (has_mu && (has_ms || has_md))
      return lk_ydoc_error(Y, lk_ydoc_map_get_key(Y, it, "mu"), LK_SCHEMA_ERROR, ERR,
                           "%s: give either mu or mu_static and mu_dynamic", ctx);
    if (has_mu) s.mu_static = s.mu_dynamic = mu;
    if (has_ms && !has_md) s.mu_dynamic = s.mu_static;
    if (has_md && !has_ms && s.mu_dynamic > s.mu_static) s.mu_static = s.mu_dynamic;
    if (s.mu_dynamic > s.mu_static)
      return lk_ydoc_error(Y, lk_ydoc_map_get(Y, it, "mu_dynamic"), LK_SCHEMA_ERROR, ERR,
                           "%s: mu_dynamic %g exceeds mu_static %g", ctx, s.mu_dynamic,
                           s.mu_static);
    const char *docname = s.name;
    if ((st = placed(L, s.name, &s.name)) || (st = placed(L, s.joint, &s.joint)) ||
        (st = placed(L, s.link, &s.link)))
      return st;
    s.normal = place_dir(L, s.normal); /* a world-frame direction */
    if ((st = lk_model_add_support(L->m, &s, ERR))) return st;
    if ((st = reg_add(L, R_SUPPORT, docname, it))) return st;
  }
  return LK_OK;
}

/* ------------------------------------------------------------ analysis */

/* analysis: static, or a mapping with type: static and the load steps. */
static lk_status sec_analysis(loader *L, int id) {
  lk_run_settings *r = L->run;
  int type = 0;
  lk_status st;
  if (lk_ydoc_is_scalar(Y, id)) {
    if ((st = lk_ydoc_enum(Y, id, "analysis", kAnalysisTypes, 1, &type, ERR))) return st;
    if (r) r->analysis = LK_ANALYSIS_STATIC;
    return LK_OK;
  }
  const char *ctx = "analysis";
  if ((st = lk_ydoc_expect_map(Y, id, ctx, ERR))) return st;
  if ((st = lk_ydoc_check_keys(Y, id, ctx, kAnalysisKeys, ERR))) return st;
  int k;
  if ((st = required(L, id, "type", ctx, &k))) return st;
  if ((st = lk_ydoc_enum(Y, k, "analysis: type", kAnalysisTypes, 1, &type, ERR))) return st;
  lk_static_options so;
  lk_static_options_default(&so);
  double factors[LK_IO_MAX_LOAD_STEPS];
  int nf = 0;
  int ls = lk_ydoc_map_get(Y, id, "load_steps"), ns = lk_ydoc_map_get(Y, id, "steps");
  if (ls && ns)
    return lk_ydoc_error(Y, lk_ydoc_map_get_key(Y, id, "steps"), LK_SCHEMA_ERROR, ERR,
                         "analysis: give either load_steps (the factors) or steps (equal ones)");
  if (ls) {
    if ((st = lk_ydoc_expect_seq(Y, ls, "analysis: load_steps", ERR))) return st;
    nf = lk_ydoc_seq_len(Y, ls);
    if (nf < 1 || nf > LK_IO_MAX_LOAD_STEPS)
      return lk_ydoc_error(Y, ls, LK_SCHEMA_ERROR, ERR,
                           "analysis: load_steps: %d factors; give 1 to %d", nf,
                           LK_IO_MAX_LOAD_STEPS);
    for (int i = 0; i < nf; i++) {
      char what[64];
      say(what, sizeof what, "analysis: load_steps[%d]", i);
      if ((st = lk_ydoc_double(Y, lk_ydoc_seq_item(Y, ls, i), what, 0, &factors[i], ERR)))
        return st;
    }
    so.nsteps = nf;
  }
  long v;
  if (ns) {
    if ((st = lk_ydoc_long(Y, ns, "analysis: steps", 1, 1000000, &v, ERR))) return st;
    so.nsteps = (int)v;
  }
  if ((k = lk_ydoc_map_get(Y, id, "max_iterations"))) {
    if ((st = lk_ydoc_long(Y, k, "analysis: max_iterations", 1, 1000000, &v, ERR))) return st;
    so.max_iterations = (int)v;
  }
  if ((k = lk_ydoc_map_get(Y, id, "gravity"))) {
    if ((st = lk_ydoc_bool(Y, k, "analysis: gravity", &so.gravity, ERR))) return st;
  }
  if ((st = num(L, id, "tolerance", ctx, NONNEG, &so.tolerance, NULL))) return st;
  if ((st = num(L, id, "slip_tolerance", ctx, NONNEG, &so.slip_tolerance, NULL))) return st;
  if ((st = num(L, id, "regularization", ctx, NONNEG, &so.regularization, NULL))) return st;
  int e = 0;
  if ((st = enumv(L, id, "initial_state", ctx, kFrictionStates, 2, &e, NULL))) return st;
  so.initial_state = e ? LK_FRICTION_DYNAMIC : LK_FRICTION_STATIC;
  if (r) {
    r->analysis = LK_ANALYSIS_STATIC;
    r->statics = so;
    r->statics.load_factors = NULL;
    r->nload_steps = nf;
    for (int i = 0; i < nf; i++) r->load_steps[i] = factors[i];
  }
  return LK_OK;
}

/* --------------------------------------------------------- constraints */

static lk_status loops(loader *L, int id) {
  lk_status st = lk_ydoc_expect_seq(Y, id, "constraints: loops", ERR);
  if (st) return st;
  int n = lk_ydoc_seq_len(Y, id);
  for (int i = 0; i < n; i++) {
    int it = lk_ydoc_seq_item(Y, id, i);
    char ctx[160], what[200];
    say(ctx, sizeof ctx, "loops[%d]", i);
    if ((st = lk_ydoc_check_keys(Y, it, ctx, kLoopKeys, ERR))) return st;
    lk_loop_spec s;
    lk_loop_spec_default(&s);
    int k;
    if ((st = element_name(L, it, "loop", ctx, sizeof ctx, &s.name))) return st;
    int type, a, b = -1;
    if ((st = required(L, it, "type", ctx, &k))) return st;
    if ((st = enumv(L, it, "type", ctx, kLoopTypes, 3, &type, NULL))) return st;
    s.type = (lk_loop_type)type;
    if ((st = required(L, it, "link_a", ctx, &k))) return st;
    say(what, sizeof what, "%s: link_a", ctx);
    if ((st = ref_link(L, k, what, 0, &s.link_a, &a))) return st;
    s.link_b = "world";
    if ((k = lk_ydoc_map_get(Y, it, "link_b"))) {
      say(what, sizeof what, "%s: link_b", ctx);
      if ((st = ref_link(L, k, what, 1, &s.link_b, &b))) return st;
      if (a == b)
        return lk_ydoc_error(Y, k, LK_SCHEMA_ERROR, ERR, "%s: link_b is link_a itself", ctx);
    }
    if ((k = lk_ydoc_map_get(Y, it, "frame_a"))) {
      say(what, sizeof what, "%s: frame_a", ctx);
      if ((st = origin(L, k, what, &s.frame_a))) return st;
    }
    if ((k = lk_ydoc_map_get(Y, it, "frame_b"))) {
      say(what, sizeof what, "%s: frame_b", ctx);
      if ((st = origin(L, k, what, &s.frame_b))) return st;
    }
    const char *docname = s.name ? s.name : s.link_a;
    int world;
    if ((st = placed(L, s.name, &s.name)) || (st = placed(L, s.link_a, &s.link_a)) ||
        (st = placed_link(L, s.link_b, &s.link_b, &world)))
      return st;
    if (world) s.frame_b = place_tf(L, &s.frame_b);
    if ((st = lk_model_add_loop(L->m, &s, ERR))) return st;
    if ((st = reg_add(L, R_LOOP, docname, it))) return st;
  }
  return LK_OK;
}

static lk_status couplings(loader *L, int id) {
  lk_status st = lk_ydoc_expect_seq(Y, id, "constraints: couplings", ERR);
  if (st) return st;
  int n = lk_ydoc_seq_len(Y, id);
  for (int i = 0; i < n; i++) {
    int it = lk_ydoc_seq_item(Y, id, i);
    char ctx[160], what[200];
    say(ctx, sizeof ctx, "couplings[%d]", i);
    if ((st = lk_ydoc_check_keys(Y, it, ctx, kCouplingKeys, ERR))) return st;
    lk_coupling_spec s;
    memset(&s, 0, sizeof s);
    s.ratio = 1;
    int k, a, b;
    if ((st = element_name(L, it, "coupling", ctx, sizeof ctx, &s.name))) return st;
    if ((st = required(L, it, "joint_a", ctx, &k))) return st;
    say(what, sizeof what, "%s: joint_a", ctx);
    if ((st = ref_joint(L, k, what, 1, &s.joint_a, &a))) return st;
    if ((st = required(L, it, "joint_b", ctx, &k))) return st;
    say(what, sizeof what, "%s: joint_b", ctx);
    if ((st = ref_joint(L, k, what, 1, &s.joint_b, &b))) return st;
    if (a == b) return lk_ydoc_error(Y, k, LK_SCHEMA_ERROR, ERR, "%s: joint_b is joint_a itself", ctx);
    if ((st = num(L, it, "ratio", ctx, ANY, &s.ratio, NULL))) return st;
    if ((st = num(L, it, "offset", ctx, ANY, &s.offset, NULL))) return st;
    const char *docname = s.name ? s.name : s.joint_a;
    if ((st = placed(L, s.name, &s.name)) || (st = placed(L, s.joint_a, &s.joint_a)) ||
        (st = placed(L, s.joint_b, &s.joint_b)))
      return st;
    if ((st = lk_model_add_coupling(L->m, &s, ERR))) return st;
    if ((st = reg_add(L, R_COUPLING, docname, it))) return st;
  }
  return LK_OK;
}

static lk_status tethers(loader *L, int id) {
  lk_status st = lk_ydoc_expect_seq(Y, id, "constraints: tethers", ERR);
  if (st) return st;
  int n = lk_ydoc_seq_len(Y, id);
  for (int i = 0; i < n; i++) {
    int it = lk_ydoc_seq_item(Y, id, i);
    char ctx[160], what[200];
    say(ctx, sizeof ctx, "tethers[%d]", i);
    if ((st = lk_ydoc_check_keys(Y, it, ctx, kTetherKeys, ERR))) return st;
    lk_tether_spec s;
    memset(&s, 0, sizeof s);
    int k, li, oi = -1;
    if ((st = element_name(L, it, "tether", ctx, sizeof ctx, &s.name))) return st;
    if ((st = required(L, it, "link", ctx, &k))) return st;
    say(what, sizeof what, "%s: link", ctx);
    if ((st = ref_link(L, k, what, 0, &s.link, &li))) return st;
    s.other = "world";
    if ((k = lk_ydoc_map_get(Y, it, "other"))) {
      say(what, sizeof what, "%s: other", ctx);
      if ((st = ref_link(L, k, what, 1, &s.other, &oi))) return st;
      if (oi == li) return lk_ydoc_error(Y, k, LK_SCHEMA_ERROR, ERR, "%s: other is link itself", ctx);
    }
    if ((st = vec3(L, it, "point", ctx, &s.point, NULL))) return st;
    if ((st = vec3(L, it, "other_point", ctx, &s.other_point, NULL))) return st;
    if ((st = required(L, it, "length", ctx, &k))) return st;
    if ((st = num(L, it, "length", ctx, POSITIVE, &s.length, NULL))) return st;
    const char *docname = s.name ? s.name : s.link;
    int world;
    if ((st = placed(L, s.name, &s.name)) || (st = placed(L, s.link, &s.link)) ||
        (st = placed_link(L, s.other, &s.other, &world)))
      return st;
    if (world) s.other_point = place_point(L, s.other_point);
    if ((st = lk_model_add_tether(L->m, &s, ERR))) return st;
    if ((st = reg_add(L, R_TETHER, docname, it))) return st;
  }
  return LK_OK;
}

static lk_status sec_constraints(loader *L, int id) {
  lk_status st = lk_ydoc_check_keys(Y, id, "constraints", kConstraintKeys, ERR);
  if (st) return st;
  int k;
  if ((k = lk_ydoc_map_get(Y, id, "loops")) && (st = loops(L, k))) return st;
  if ((k = lk_ydoc_map_get(Y, id, "couplings")) && (st = couplings(L, k))) return st;
  if ((k = lk_ydoc_map_get(Y, id, "tethers")) && (st = tethers(L, k))) return st;
  return LK_OK;
}

/* ------------------------------------------------------------- initial */

/* q or v of an initial entry: n numbers (1-DoF joints may give a bare
 * number). */
static lk_status state_values(loader *L, int id, const char *what, int n, double *out) {
  if (n == 1 && lk_ydoc_is_scalar(Y, id)) return lk_ydoc_double(Y, id, what, 0, out, ERR);
  if (n == 0)
    return lk_ydoc_error(Y, id, LK_SCHEMA_ERROR, ERR, "%s: a fixed joint has no state", what);
  return lk_ydoc_doubles(Y, id, what, n, 0, out, NULL, ERR);
}

static lk_status sec_initial(loader *L, int id) {
  lk_status st = lk_ydoc_expect_seq(Y, id, "initial", ERR);
  if (st) return st;
  int n = lk_ydoc_seq_len(Y, id);
  for (int i = 0; i < n; i++) {
    int it = lk_ydoc_seq_item(Y, id, i);
    char ctx[160], what[200];
    say(ctx, sizeof ctx, "initial[%d]", i);
    if ((st = lk_ydoc_check_keys(Y, it, ctx, kInitialKeys, ERR))) return st;
    int k, li;
    const char *jn;
    if ((st = required(L, it, "joint", ctx, &k))) return st;
    say(what, sizeof what, "%s: joint", ctx);
    if ((st = ref_joint(L, k, what, 0, &jn, &li))) return st;
    if ((st = unique_name(L, "initial state for joint", jn, k))) return st;
    say(ctx, sizeof ctx, "initial state of joint '%s'", jn);
    int t = L->links[li].jtype;
    if (t < 0) t = LK_JOINT_FIXED; /* reported with the link */
    int nq = lk_joint_type_nq((lk_joint_type)t), nv = lk_joint_type_nv((lk_joint_type)t);
    double q[7], v[6];
    int qid = lk_ydoc_map_get(Y, it, "q"), vid = lk_ydoc_map_get(Y, it, "v");
    if (qid) {
      say(what, sizeof what, "%s: q (%s joint)", ctx, lk_joint_type_name((lk_joint_type)t));
      if ((st = state_values(L, qid, what, nq, q))) return st;
      int qo = t == LK_JOINT_BALL ? 0 : (t == LK_JOINT_FREE ? 3 : -1);
      if (qo >= 0) {
        double nn = sqrt(q[qo] * q[qo] + q[qo + 1] * q[qo + 1] + q[qo + 2] * q[qo + 2] +
                         q[qo + 3] * q[qo + 3]);
        if (!(fabs(nn - 1) <= 1e-3))
          return lk_ydoc_error(Y, qid, LK_SCHEMA_ERROR, ERR,
                               "%s: the quaternion (w, x, y, z) in q[%d..%d] has norm %g, expected 1",
                               ctx, qo, qo + 3, nn);
      }
    }
    if (vid) {
      say(what, sizeof what, "%s: v (%s joint)", ctx, lk_joint_type_name((lk_joint_type)t));
      if ((st = state_values(L, vid, what, nv, v))) return st;
    }
    const char *pj;
    if ((st = placed(L, jn, &pj))) return st;
    if ((st = lk_model_set_initial(L->m, pj, qid ? q : NULL, nq, vid ? v : NULL, nv, ERR)))
      return st;
    if ((st = reg_add(L, R_INITIAL, jn, it))) return st;
  }
  return LK_OK;
}

/* ------------------------------------------------------------ simulate */

static lk_status sec_simulate(loader *L, int id) {
  lk_status st = lk_ydoc_check_keys(Y, id, "simulate", kSimulateKeys, ERR);
  if (st) return st;
  L->simulate_node = id;
  lk_run_settings *r = L->run;
  double d = -1;
  int present, k;
  if ((st = num(L, id, "duration", "simulate", NONNEG, &d, &present))) return st;
  if (present && r) r->duration = d;
  if ((k = lk_ydoc_map_get(Y, id, "every"))) {
    long e;
    if ((st = lk_ydoc_long(Y, k, "simulate: every", 1, 1000000000L, &e, ERR))) return st;
    if (r) r->every = (int)e;
  }
  if ((k = lk_ydoc_map_get(Y, id, "plot_columns"))) {
    if ((st = lk_ydoc_expect_seq(Y, k, "simulate: plot_columns", ERR))) return st;
    int n = lk_ydoc_seq_len(Y, k);
    if (n > LK_IO_MAX_PLOT_COLUMNS)
      return lk_ydoc_error(Y, k, LK_SCHEMA_ERROR, ERR,
                           "simulate: plot_columns: %d columns, at most %d can be plotted", n,
                           LK_IO_MAX_PLOT_COLUMNS);
    for (int i = 0; i < n; i++) {
      const char *s;
      char what[64];
      say(what, sizeof what, "simulate: plot_columns[%d]", i);
      if ((st = lk_ydoc_string(Y, lk_ydoc_seq_item(Y, k, i), what, LK_IO_COLUMN_MAX - 1, &s, ERR)))
        return st;
      if (r) snprintf(r->plot_columns[i], sizeof r->plot_columns[i], "%s", s);
    }
    if (r) r->nplot = n;
  }
  return LK_OK;
}

/* Plot columns name trajectory columns: check them once the model exists. */
static lk_status check_plot_columns(loader *L) {
  int k = L->simulate_node ? lk_ydoc_map_get(Y, L->simulate_node, "plot_columns") : 0;
  if (!k) return LK_OK;
  int n = lk_ydoc_seq_len(Y, k), nc = lk_trajectory_ncolumns(L->m);
  char(*names)[LK_IO_COLUMN_MAX] = lk_calloc((size_t)nc, LK_IO_COLUMN_MAX);
  const char **ptrs = LK_NEW_ARRAY(const char *, nc);
  if (!names || !ptrs) {
    lk_free(names);
    lk_free(ptrs);
    return oom(L);
  }
  for (int c = 0; c < nc; c++) {
    lk_trajectory_column_name(L->m, c, names[c], LK_IO_COLUMN_MAX);
    ptrs[c] = names[c];
  }
  lk_status st = LK_OK;
  for (int i = 0; i < n && !st; i++) {
    int id = lk_ydoc_seq_item(Y, k, i);
    const char *s = lk_ydoc_scalar(Y, id, NULL);
    if (lk_trajectory_column_index(L->m, s) >= 0) continue;
    const char *sug = lk_suggest(s, ptrs, nc);
    if (sug)
      st = lk_ydoc_error(Y, id, LK_SCHEMA_ERROR, ERR,
                         "simulate: plot_columns[%d]: no trajectory column '%s' (did you mean '%s'?)",
                         i, s, sug);
    else
      st = lk_ydoc_error(Y, id, LK_SCHEMA_ERROR, ERR,
                         "simulate: plot_columns[%d]: no trajectory column '%s' (columns are "
                         "t, <link>.x/.y/.z, <joint>.q/.v)",
                         i, s);
  }
  lk_free(names);
  lk_free(ptrs);
  return st;
}

/* ------------------------------------------------------ the first pass */

static lk_status collect_materials(loader *L, int id) {
  lk_status st = lk_ydoc_expect_seq(Y, id, "materials", ERR);
  if (st) return st;
  int n = lk_ydoc_seq_len(Y, id);
  L->mats = LK_NEW_ARRAY(name_rec, n);
  L->mat_names = LK_NEW_ARRAY(const char *, n + 1);
  if (!L->mats || !L->mat_names) return oom(L);
  for (int i = 0; i < n; i++) {
    int it = lk_ydoc_seq_item(Y, id, i), k;
    char ctx[64];
    say(ctx, sizeof ctx, "materials[%d]", i);
    if ((st = lk_ydoc_expect_map(Y, it, ctx, ERR))) return st;
    if ((st = required(L, it, "name", ctx, &k))) return st;
    strcat(ctx, ": name");
    if ((st = read_name(L, k, ctx, &L->mats[i].name))) return st;
    L->mats[i].node = k;
    if ((st = unique_name(L, "material", L->mats[i].name, k))) return st;
    L->mat_names[i] = L->mats[i].name;
    if (strcmp(L->mats[i].name, "default") == 0) L->defines_default = 1;
    L->nmats++;
  }
  return LK_OK;
}

static lk_status collect_links(loader *L, int id) {
  lk_status st = lk_ydoc_expect_seq(Y, id, "links", ERR);
  if (st) return st;
  int n = lk_ydoc_seq_len(Y, id);
  L->links = LK_NEW_ARRAY(link_rec, n);
  L->link_names = LK_NEW_ARRAY(const char *, n + 1);
  L->joint_names = LK_NEW_ARRAY(const char *, n);
  if (!L->links || !L->link_names || !L->joint_names) return oom(L);
  for (int i = 0; i < n; i++) {
    link_rec *r = &L->links[i];
    int it = lk_ydoc_seq_item(Y, id, i), k;
    char ctx[64];
    say(ctx, sizeof ctx, "links[%d]", i);
    if ((st = lk_ydoc_expect_map(Y, it, ctx, ERR))) return st;
    if ((st = required(L, it, "name", ctx, &k))) return st;
    char what[80];
    say(what, sizeof what, "%s: name", ctx);
    if ((st = read_name(L, k, what, &r->name))) return st;
    if (strcmp(r->name, "world") == 0)
      return lk_ydoc_error(Y, k, LK_SCHEMA_ERROR, ERR,
                           "%s: 'world' is the name of the world; give the link another name", ctx);
    if ((st = unique_name(L, "link", r->name, k))) return st;
    r->item = it;
    r->name_node = k;
    r->joint = r->name;
    r->joint_node = it;
    /* The joint's name and type, for references to it; the second pass
     * checks the joint itself (jtype -1: not known yet). */
    int j = lk_ydoc_map_get(Y, it, "joint"), jn = 0;
    if (!j) {
      r->jtype = LK_JOINT_FIXED;
    } else if (lk_ydoc_is_scalar(Y, j)) {
      r->jtype = lk_joint_type_from_name(lk_ydoc_scalar(Y, j, NULL));
    } else if (lk_ydoc_is_map(Y, j)) {
      r->joint_node = j;
      if ((jn = lk_ydoc_map_get(Y, j, "name"))) {
        say(what, sizeof what, "link '%s': joint: name", r->name);
        if ((st = read_name(L, jn, what, &r->joint))) return st;
      }
      int jt = lk_ydoc_map_get(Y, j, "type");
      r->jtype = jt ? lk_joint_type_from_name(lk_ydoc_scalar(Y, jt, NULL)) : -1;
    } else {
      r->jtype = -1;
    }
    if ((st = unique_name(L, "joint", r->joint, jn ? jn : k))) return st;
    L->link_names[i] = r->name;
    L->joint_names[i] = r->joint;
    L->nlinks++;
  }
  L->link_names[n] = "world";
  return LK_OK;
}

/* --------------------------------------------- finalize, located again */

/* lk_model_finalize() names the element at fault ("link 'arm': ...",
 * "geom #3 (on 'base'): ...", "options: ..."). Find the node that described
 * it, and within it the key the message talks about, so the report points
 * at the value to change. */
static void locate_finalize_error(loader *L) {
  lk_error *e = ERR;
  if (!e) return;
  static const struct {
    const char *prefix;
    reg_kind kind;
  } kinds[] = {
      {"link '", R_LINK},         {"joint '", R_JOINT},       {"material '", R_MATERIAL},
      {"geom '", R_GEOM},         {"actuator '", R_ACTUATOR}, {"load '", R_LOAD},
      {"contact '", R_CONTACT},   {"loop '", R_LOOP},         {"coupling '", R_COUPLING},
      {"tether '", R_TETHER},     {"duplicate link name '", R_LINK},
      {"duplicate material name '", R_MATERIAL},
  };
  const char *msg = e->message;
  int node = 0;
  const char *rest = msg;
  if (strncmp(msg, "options:", 8) == 0) {
    node = L->options_node;
  } else if (strstr(msg, "initial") && strstr(msg, "joint '")) {
    const char *q = strstr(msg, "joint '") + 7;
    for (int i = 0; i < L->nreg && !node; i++)
      if (L->reg[i].kind == R_INITIAL && strncmp(q, L->reg[i].name, strlen(L->reg[i].name)) == 0 &&
          q[strlen(L->reg[i].name)] == '\'')
        node = L->reg[i].node;
  } else if (strncmp(msg, "geom #", 6) == 0 || strncmp(msg, "contact #", 9) == 0) {
    reg_kind kind = msg[0] == 'g' ? R_GEOM : R_CONTACT;
    int idx = atoi(msg + (kind == R_GEOM ? 6 : 9)), seen = 0;
    for (int i = 0; i < L->nreg && !node; i++)
      if (L->reg[i].kind == kind && seen++ == idx) node = L->reg[i].node;
    rest = strchr(msg, ':') ? strchr(msg, ':') : msg;
  } else {
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0] && !node; k++) {
      size_t pl = strlen(kinds[k].prefix);
      if (strncmp(msg, kinds[k].prefix, pl) != 0) continue;
      const char *nm = msg + pl;
      for (int i = 0; i < L->nreg && !node; i++) {
        const char *rn = L->reg[i].name;
        if (L->reg[i].kind == kinds[k].kind && rn && strncmp(nm, rn, strlen(rn)) == 0 &&
            nm[strlen(rn)] == '\'') {
          node = L->reg[i].node;
          rest = nm + strlen(rn);
        }
      }
    }
  }
  if (!node) return; /* keep finalize's message, with the file but no line */
  /* The earliest key of the element that the message names. */
  int best = 0;
  const char *bestpos = NULL;
  int n = lk_ydoc_map_len(Y, node);
  for (int i = 0; i < n; i++) {
    const char *k = lk_ydoc_scalar(Y, lk_ydoc_map_key(Y, node, i), NULL);
    if (!k) continue;
    size_t kl = strlen(k);
    for (const char *p = strstr(rest, k); p; p = strstr(p + 1, k)) {
      int left = p == rest || !(p[-1] == '_' || (p[-1] >= 'a' && p[-1] <= 'z'));
      int right = !(p[kl] == '_' || (p[kl] >= 'a' && p[kl] <= 'z'));
      if (left && right) {
        if (!bestpos || p < bestpos) {
          bestpos = p;
          best = lk_ydoc_map_value(Y, node, i);
        }
        break;
      }
    }
  }
  /* Messages that describe a key's value without naming the key. */
  static const struct {
    const char *phrase, *key;
  } synonyms[] = {{"principal moments", "inertia"}, {"inertia tensor", "inertia"},
                  {"rotational inertia", "inertia"}, {"centre of mass", "com"},
                  {"lower limit", "limit"},          {"limits", "limit"},
                  {"pose", "origin"},                {"size", "radius"}};
  for (size_t i = 0; i < sizeof synonyms / sizeof synonyms[0]; i++) {
    const char *p = strstr(rest, synonyms[i].phrase);
    int v = lk_ydoc_map_get(Y, node, synonyms[i].key);
    if (p && v && (!bestpos || p < bestpos)) {
      bestpos = p;
      best = v;
    }
  }
  char copy[LK_ERROR_MESSAGE_MAX];
  snprintf(copy, sizeof copy, "%s", msg);
  lk_ydoc_error(Y, best ? best : node, e->status, e, "%s", copy);
}

/* ----------------------------------------------------------- the whole */

static lk_status build(loader *L) {
  int root = lk_ydoc_root(Y);
  lk_status st = lk_ydoc_expect_map(Y, root, "the mechanism description", ERR);
  if (st) return st;
  if ((st = lk_ydoc_check_keys(Y, root, "the mechanism description", kTopKeys, ERR))) return st;
  int k;
  if ((k = lk_ydoc_map_get(Y, root, "materials")) && (st = collect_materials(L, k))) return st;
  if (!L->mat_names) {
    L->mat_names = LK_NEW_ARRAY(const char *, 1);
    if (!L->mat_names) return oom(L);
  }
  L->mat_names[L->nmats] = "default";
  if (!(k = lk_ydoc_map_get(Y, root, "links")) || lk_ydoc_is_null(Y, k)) {
    /* A world of only fixed geoms is not a mechanism: nothing would move,
     * and an empty file section is more likely a mistake. */
    return lk_ydoc_error(Y, k ? k : root, LK_SCHEMA_ERROR, ERR,
                         "the mechanism description: missing required key 'links'");
  }
  if ((st = collect_links(L, k))) return st;
  if (L->nlinks == 0)
    return lk_ydoc_error(Y, k, LK_SCHEMA_ERROR, ERR, "links: the list is empty; a mechanism needs a link");

  int n = lk_ydoc_map_len(Y, root);
  for (int i = 0; i < n; i++) {
    const char *key = lk_ydoc_scalar(Y, lk_ydoc_map_key(Y, root, i), NULL);
    int v = lk_ydoc_map_value(Y, root, i);
    if (strcmp(key, "name") == 0) {
      const char *s;
      if ((st = lk_ydoc_string(Y, v, "name", 255, &s, ERR))) return st;
      if ((!L->mo || L->mo->name) && (st = lk_model_set_name(L->m, s, ERR))) return st;
    } else if (strcmp(key, "description") == 0) {
      const char *s;
      if ((st = lk_ydoc_string(Y, v, "description", 1 << 20, &s, ERR))) return st;
      if (L->run) snprintf(L->run->description, sizeof L->run->description, "%s", s);
    } else if (lk_ydoc_is_null(Y, v)) {
      /* "contacts:" with nothing under it: an empty section. */
      continue;
    } else if (strcmp(key, "options") == 0) {
      st = sec_options(L, v);
    } else if (strcmp(key, "materials") == 0) {
      st = sec_materials(L, v);
    } else if (strcmp(key, "world") == 0) {
      st = sec_world(L, v);
    } else if (strcmp(key, "links") == 0) {
      st = sec_links(L, v);
    } else if (strcmp(key, "actuators") == 0) {
      st = sec_actuators(L, v);
    } else if (strcmp(key, "loads") == 0) {
      st = sec_loads(L, v);
    } else if (strcmp(key, "contacts") == 0) {
      st = sec_contacts(L, v);
    } else if (strcmp(key, "constraints") == 0) {
      st = sec_constraints(L, v);
    } else if (strcmp(key, "initial") == 0) {
      st = sec_initial(L, v);
    } else if (strcmp(key, "simulate") == 0) {
      st = sec_simulate(L, v);
    } else if (strcmp(key, "supports") == 0) {
      st = sec_supports(L, v);
    } else if (strcmp(key, "analysis") == 0) {
      st = sec_analysis(L, v);
    }
    if (st) return st;
  }
  if (L->mo) return LK_OK; /* the caller finalizes the whole */
  if ((st = lk_model_finalize(L->m, ERR))) {
    locate_finalize_error(L);
    return st;
  }
  return check_plot_columns(L);
}

void lk_load_options_default(lk_load_options *o) {
  if (o) memset(o, 0, sizeof *o);
}

void lk_run_settings_default(lk_run_settings *r) {
  if (!r) return;
  memset(r, 0, sizeof *r);
  r->duration = -1;
  lk_static_options_default(&r->statics);
}

/* The whole load, into a new model (mo == NULL: *model receives it,
 * finalized) or into the caller's *model (mo given: not finalized). */
static lk_status load_text(lk_model **model, const char *text, size_t len, const char *name,
                           const lk_load_options *opts, const lk_merge_options *mo,
                           lk_error *err) {
  if (!text && len > 0) return lk_error_set(err, LK_INVALID_ARGUMENT, "NULL text");
  lk_load_options o;
  lk_load_options_default(&o);
  if (opts) o = *opts;
  size_t max = o.max_bytes ? o.max_bytes : LK_IO_MAX_BYTES_DEFAULT;
  const char *label = name ? name : "<string>";
  if (len > max)
    return lk_error_set_at(err, LK_IO_ERROR, label, 0, 0,
                           "the text has %zu bytes, more than the %zu this loader accepts", len,
                           max);
  if (o.run) lk_run_settings_default(o.run);
  lk_ydoc y;
  lk_status st = lk_ydoc_load(&y, text ? text : "", len, label, err);
  if (st) return st;
  loader L;
  memset(&L, 0, sizeof L);
  L.y = &y;
  L.err = err;
  L.run = o.run;
  L.mo = mo;
  for (int i = 0; i < o.nset && !st; i++) st = lk_ydoc_override(&y, o.set[i], err);
  if (!st) {
    L.m = mo ? *model : lk_model_new();
    st = L.m ? build(&L) : lk_error_set(err, LK_OUT_OF_MEMORY, "out of memory");
  }
  lk_free(L.links);
  lk_free(L.link_names);
  lk_free(L.joint_names);
  lk_free(L.mats);
  lk_free(L.mat_names);
  for (int i = 0; i < L.nnames; i++) lk_free((char *)L.names[i].name);
  lk_free(L.names);
  lk_free(L.reg);
  for (int i = 0; i < L.npool; i++) lk_free(L.pool[i]);
  lk_free(L.pool);
  lk_ydoc_free(&y);
  if (st) {
    if (!mo) lk_model_free(L.m);
    if (o.run) lk_run_settings_default(o.run);
    return st;
  }
  if (!mo) *model = L.m;
  return LK_OK;
}

lk_model *lk_model_load_string(const char *text, size_t len, const char *name,
                               const lk_load_options *opts, lk_error *err) {
  lk_error local;
  if (!err) err = &local;
  lk_error_clear(err);
  lk_model *m = NULL;
  return load_text(&m, text, len, name, opts, NULL, err) ? NULL : m;
}

lk_model *lk_model_load_file(const char *path, const lk_load_options *opts, lk_error *err) {
  lk_error local;
  if (!err) err = &local;
  lk_error_clear(err);
  if (!path) {
    lk_error_set(err, LK_INVALID_ARGUMENT, "NULL path");
    return NULL;
  }
  size_t max = opts && opts->max_bytes ? opts->max_bytes : LK_IO_MAX_BYTES_DEFAULT;
  char *text;
  size_t len;
  if (lk_ydoc_read_file(path, max, &text, &len, err)) return NULL;
  lk_model *m = lk_model_load_string(text, len, path, opts, err);
  lk_free(text);
  return m;
}

/* ------------------------------------------------ into an existing model */

void lk_merge_options_default(lk_merge_options *o) {
  if (!o) return;
  memset(o, 0, sizeof *o);
  o->pose = lk_tf_identity();
  o->world_geoms = 1;
}

static lk_status check_merge(lk_model *m, const lk_merge_options *mo, lk_error *err) {
  if (!m) return lk_error_set(err, LK_INVALID_ARGUMENT, "NULL model");
  if (lk_model_is_finalized(m))
    return lk_error_set(err, LK_INVALID_MODEL,
                        "the model is finalized: a file can only be loaded into a model that "
                        "is still being built");
  if (mo->prefix) {
    size_t n = strlen(mo->prefix);
    if (n > LK_IO_NAME_MAX ||
        strspn(mo->prefix, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-") != n)
      return lk_error_set(err, LK_INVALID_ARGUMENT,
                          "name prefix '%s': use at most %d letters, digits, '_' and '-'",
                          mo->prefix, LK_IO_NAME_MAX);
  }
  if (!lk_m3_isfinite(&mo->pose.R) || !lk_v3_isfinite(mo->pose.p))
    return lk_error_set(err, LK_NON_FINITE, "the placement pose is not finite");
  lk_mat3 rtr = lk_m3_tmul(&mo->pose.R, &mo->pose.R);
  double off = 0;
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) off = fmax(off, fabs(rtr.m[i][j] - (i == j ? 1.0 : 0.0)));
  if (off > 1e-9 || lk_m3_det(&mo->pose.R) < 0)
    return lk_error_set(err, LK_INVALID_ARGUMENT,
                        "the placement pose's R is not a rotation (|R^T R - 1| = %.3g)", off);
  return LK_OK;
}

lk_status lk_model_load_string_into(lk_model *m, const char *text, size_t len, const char *name,
                                    const lk_load_options *opts, const lk_merge_options *mo,
                                    lk_error *err) {
  lk_error local;
  if (!err) err = &local;
  lk_error_clear(err);
  lk_merge_options dflt;
  if (!mo) {
    lk_merge_options_default(&dflt);
    mo = &dflt;
  }
  lk_status st = check_merge(m, mo, err);
  if (st) return st;
  return load_text(&m, text, len, name, opts, mo, err);
}

lk_status lk_model_load_file_into(lk_model *m, const char *path, const lk_load_options *opts,
                                  const lk_merge_options *mo, lk_error *err) {
  lk_error local;
  if (!err) err = &local;
  lk_error_clear(err);
  if (!path) return lk_error_set(err, LK_INVALID_ARGUMENT, "NULL path");
  size_t max = opts && opts->max_bytes ? opts->max_bytes : LK_IO_MAX_BYTES_DEFAULT;
  char *text;
  size_t len;
  lk_status st = lk_ydoc_read_file(path, max, &text, &len, err);
  if (st) return st;
  st = lk_model_load_string_into(m, text, len, path, opts, mo, err);
  lk_free(text);
  return st;
}
