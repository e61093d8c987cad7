/* The YAML reader: a mechanism description (docs/format.md) -> the model
 * builder (builder.h).
 *
 * Every mapping of the format is a table of its keys (the ykey rows below:
 * key, type, range and flags, where the value goes in the spec, or a small
 * handler for what is more than a value). The table is the list of allowed
 * keys, in the order docs/format.md gives them and messages list them; one
 * engine (ymap_open, ymap_read) checks the keys with a did-you-mean, reads
 * every row in table order and reports each problem at its node, with the
 * same words for every section. A key that applies to some kinds of
 * element only (a radius: not on a box) names them in `applies`; the
 * element's kind is its VARIANT row (a geom's type). To add a key: add a
 * row (and, for a new meaning, a handler), document it in docs/format.md.
 *
 * Two passes over the document. The first collects the names everything
 * refers to (links, their joints and joint types, materials) into the
 * builder, so that the second can check each reference where it is written
 * and point at that node: "unknown parent 'uper_arm' (did you mean
 * 'upper_arm'?)" at the parent's line and column, rather than a message
 * from finalize about a name with no position. The second pass walks the
 * top-level sections in the order the file gives them and feeds the
 * builder. What lk_model_finalize() still rejects is located by the
 * builder at the element and here at the key the message names
 * (yaml_refine). */
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/internal.h"
#include "io/builder.h"
#include "io/io_internal.h"
#include "io/urdf.h"
#include "io/xml.h"
#include "io/ydoc.h"
#include "linkage/collision.h"
#include "linkage/dynamics.h"
#include "linkage/io.h"
#include "model/model_impl.h" /* the load's own warnings, added after finalize */

/* Enums are stored through int pointers. */
_Static_assert(sizeof(lk_geom_type) == sizeof(int) && sizeof(lk_joint_type) == sizeof(int) &&
                   sizeof(lk_friction_state) == sizeof(int),
               "enums are int-sized");

#define COUNT(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* ------------------------------------------------------------ the engine */

typedef struct {
  lk_ydoc *y;
  lk_builder b;
  lk_error *err;
  lk_run_settings *run;
  int simulate_node;
  const lk_load_options *o;
  const char *label;
  int degrees; /* options: {angle: degree} (issue 14.8) */
  int overlaps_allowed; /* options: {initial_overlaps: allowed} */
  int nwarn;   /* warnings of the reading, located; added to the model after
                  lk_model_finalize (which starts the model's list afresh) */
  char warn[LK_MODEL_MAX_WARNINGS][160];
} yreader;

#define Y (R->y)
#define B (&R->b)
#define ERR (R->err)

typedef struct ymap ymap;
/* A handler reads the value at node (0 for an ALWAYS row whose key is
 * absent) into dst (the spec plus the row's offset); `what` is
 * "context: key" for messages. */
typedef lk_status (*yfn)(ymap *mp, int node, void *dst, const char *what);

typedef enum {
  K_SKIP,     /* read elsewhere (the first pass) */
  K_NUM,      /* double */
  K_INT,      /* integer in [lo, hi] -> int */
  K_UINT,     /* integer in [lo, hi] -> unsigned */
  K_BOOL,     /* -> int */
  K_VEC3,     /* [x, y, z] -> 3 doubles (lk_vec3 or double[3]) */
  K_ENUM,     /* one of names[n] -> int (an enum) */
  K_ORIGIN,   /* xyz/rpy/quat -> lk_transform */
  K_NAME,     /* a name -> const char * */
  K_LINK,     /* a link's name -> const char * */
  K_JOINT,    /* a joint's name -> const char * */
  K_MATERIAL, /* a material's name -> const char * */
  K_FN,       /* the handler */
} ytype;

enum {
  ANY = LK_RANGE_ANY, /* K_NUM, K_VEC3 (each component): the range */
  POSITIVE = LK_RANGE_POSITIVE,
  NONNEG = LK_RANGE_NONNEG,
  UNIT = LK_RANGE_UNIT,
  RANGE = 3,
  INF_OK = 1 << 2,   /* K_NUM: .inf and -.inf too */
  NONZERO = 1 << 3,  /* K_VEC3: not the zero vector */
  REQUIRED = 1 << 4, /* missing or empty is an error (for the variants in needs) */
  NAMED = 1 << 5,    /* K_NAME: the element's name, unique in the table's kind;
                        from then on messages say "kind 'name'" */
  WORLD_OK = 1 << 6, /* K_LINK: or "world" */
  ONE_DOF = 1 << 7,  /* K_JOINT: revolute or prismatic */
  VARIANT = 1 << 8,  /* K_ENUM: the element's kind, which decides what applies */
  ALWAYS = 1 << 9,   /* K_FN: called when the key is absent too */
  SECTION = 1 << 10, /* top level: "key:" with nothing is an empty section */
};

typedef struct {
  const char *key;
  unsigned char type;
  unsigned short flags;
  unsigned short off;       /* of the destination in the spec */
  const char *const *names; /* K_ENUM */
  int n;
  long lo, hi; /* K_INT, K_UINT */
  yfn fn;      /* K_FN */
  /* K_LINK, K_JOINT: the offset of an earlier row's name (plus 1) that
   * this one must differ from, and the message when it does not. */
  unsigned short same;
  const char *itself;
  unsigned char applies; /* variants (bit v) the key applies to; 0: all */
  unsigned char needs;   /* with REQUIRED: variants that need it; 0: all */
} ykey;

typedef struct {
  const ykey *keys;
  int n;
  const char *kind;            /* NAMED rows: what the names name ("geom") */
  const char *const *variants; /* per variant, for "does not apply to a box" */
} ytable;

#define ROW(k, t, fl, o) .key = k, .type = t, .flags = fl, .off = o
#define TABLE(keys_, kind_, variants_) \
  {.keys = keys_, .n = COUNT(keys_), .kind = kind_, .variants = variants_}
#define ENUM(a) .names = a, .n = COUNT(a)
#define BIT(v) (1u << (v))

struct ymap {
  yreader *R;
  const ytable *t;
  int node;
  int variant; /* -1 until known */
  unsigned long long present;
  char ctx[200]; /* what messages call the mapping */
};

/* snprintf for message contexts: truncating a long context is fine. */
static void say(char *buf, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void say(char *buf, size_t size, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, size, fmt, ap);
  va_end(ap);
}

/* Check node's keys against the table (did-you-mean, duplicates). */
static lk_status ymap_open(yreader *R, ymap *mp, int node, const ytable *t, const char *ctx) {
  mp->R = R;
  mp->t = t;
  mp->node = node;
  mp->variant = -1;
  mp->present = 0;
  say(mp->ctx, sizeof mp->ctx, "%s", ctx);
  const char *allowed[64];
  int n = t->n < 63 ? t->n : 63;
  for (int i = 0; i < n; i++) allowed[i] = t->keys[i].key;
  allowed[n] = NULL;
  return lk_ydoc_check_keys(Y, node, ctx, allowed, ERR);
}

static int ymap_row(const ymap *mp, const char *key) {
  for (int i = 0; i < mp->t->n; i++)
    if (strcmp(mp->t->keys[i].key, key) == 0) return i;
  return -1;
}

static int ymap_has(const ymap *mp, const char *key) {
  int i = ymap_row(mp, key);
  return i >= 0 && (mp->present >> i & 1);
}

static int ymap_value(const ymap *mp, const char *key) {
  yreader *R = mp->R;
  return lk_ydoc_map_get(Y, mp->node, key);
}

static int ymap_key(const ymap *mp, const char *key) {
  yreader *R = mp->R;
  return lk_ydoc_map_get_key(Y, mp->node, key);
}

/* The element's variant is known: every key given that does not apply to
 * it is an error. */
static lk_status ymap_variant(ymap *mp, int v) {
  yreader *R = mp->R;
  mp->variant = v;
  for (int i = 0; i < mp->t->n; i++) {
    const ykey *k = &mp->t->keys[i];
    if (!k->applies || (k->applies >> v & 1)) continue;
    int kid = ymap_key(mp, k->key);
    if (kid)
      return lk_ydoc_error(Y, kid, LK_SCHEMA_ERROR, ERR, "%s: '%s' does not apply to %s", mp->ctx,
                           k->key, mp->t->variants[v]);
  }
  return LK_OK;
}

/* A name in a file: 1..LK_IO_NAME_MAX characters of [A-Za-z0-9_-]. */
static lk_status read_name(yreader *R, int id, const char *what, const char **out) {
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

/* The text of a reference (checked by the builder) and how to quote it. */
static lk_status ref_text(yreader *R, int id, const char *what, const char **s, char *d,
                          size_t dsize) {
  lk_status st = lk_ydoc_string(Y, id, what, 4096, s, ERR);
  if (!st) lk_ydoc_describe(Y, id, d, dsize);
  return st;
}

static lk_status ref_link(yreader *R, int id, const char *what, int world_ok, const char **out,
                          int *index) {
  const char *s;
  char d[96];
  lk_status st = ref_text(R, id, what, &s, d, sizeof d);
  return st ? st : lk_builder_ref_link(B, id, what, s, d, world_ok, out, index);
}

static lk_status ref_joint(yreader *R, int id, const char *what, int one_dof, const char **out,
                           int *index) {
  const char *s;
  char d[96];
  lk_status st = ref_text(R, id, what, &s, d, sizeof d);
  return st ? st : lk_builder_ref_joint(B, id, what, s, d, one_dof, out, index);
}

static lk_status origin(yreader *R, int id, const char *ctx, lk_transform *out);

/* One row's value at id into dst. */
static lk_status read_value(ymap *mp, const ykey *k, int id, void *dst, const char *what) {
  yreader *R = mp->R;
  lk_status st = LK_OK;
  switch ((ytype)k->type) {
    case K_NUM: {
      double v;
      if ((st = lk_ydoc_double(Y, id, what, k->flags & INF_OK, &v, ERR))) return st;
      if ((st = lk_builder_check_range(B, id, what, k->flags & RANGE, v))) return st;
      *(double *)dst = v;
      return LK_OK;
    }
    case K_INT:
    case K_UINT: {
      long v;
      if ((st = lk_ydoc_long(Y, id, what, k->lo, k->hi, &v, ERR))) return st;
      if (k->type == K_INT)
        *(int *)dst = (int)v;
      else
        *(unsigned *)dst = (unsigned)v;
      return LK_OK;
    }
    case K_BOOL:
      return lk_ydoc_bool(Y, id, what, (int *)dst, ERR);
    case K_VEC3: {
      double v[3];
      if ((st = lk_ydoc_doubles(Y, id, what, 3, 0, v, NULL, ERR))) return st;
      if ((k->flags & NONZERO) && !(lk_v3_norm(lk_v3_from(v)) > 1e-12))
        return lk_ydoc_error(Y, id, LK_SCHEMA_ERROR, ERR, "%s must not be the zero vector", what);
      if ((k->flags & RANGE) == POSITIVE && !(v[0] > 0 && v[1] > 0 && v[2] > 0))
        return lk_ydoc_error(Y, id, LK_SCHEMA_ERROR, ERR,
                             "%s must all be positive, got [%g, %g, %g]", what, v[0], v[1], v[2]);
      memcpy(dst, v, sizeof v);
      return LK_OK;
    }
    case K_ENUM: {
      int e;
      if ((st = lk_ydoc_enum(Y, id, what, k->names, k->n, &e, ERR))) return st;
      *(int *)dst = e;
      return LK_OK;
    }
    case K_ORIGIN:
      /* Messages call the mapping "origin" ("loops[0]: frame_a: origin"). */
      return origin(R, id, strcmp(k->key, "origin") == 0 ? mp->ctx : what, (lk_transform *)dst);
    case K_NAME: {
      const char **out = dst;
      if ((st = read_name(R, id, what, out))) return st;
      if (!(k->flags & NAMED)) return LK_OK;
      if ((st = lk_builder_unique(B, mp->t->kind, *out, id))) return st;
      say(mp->ctx, sizeof mp->ctx, "%s '%s'", mp->t->kind, *out);
      return LK_OK;
    }
    case K_LINK:
    case K_JOINT: {
      int i;
      if (k->type == K_LINK)
        st = ref_link(R, id, what, k->flags & WORLD_OK, dst, &i);
      else
        st = ref_joint(R, id, what, k->flags & ONE_DOF, dst, &i);
      if (st || !k->same) return st;
      const char *first = *(const char **)((char *)dst - k->off + (k->same - 1));
      int j = k->type == K_LINK ? lk_builder_find_link(B, first) : lk_builder_find_joint(B, first);
      if (i == j)
        return lk_ydoc_error(Y, id, LK_SCHEMA_ERROR, ERR, "%s: %s", mp->ctx, k->itself);
      return LK_OK;
    }
    case K_MATERIAL: {
      const char *s;
      char d[96];
      if ((st = ref_text(R, id, what, &s, d, sizeof d))) return st;
      return lk_builder_ref_material(B, id, what, s, d, dst);
    }
    case K_FN:
      return k->fn(mp, id, dst, what);
    case K_SKIP:
      break;
  }
  return LK_OK;
}

/* Every row of the table, in order, into spec. */
static lk_status ymap_read(ymap *mp, void *spec) {
  yreader *R = mp->R;
  for (int i = 0; i < mp->t->n; i++) {
    const ykey *k = &mp->t->keys[i];
    if (k->type == K_SKIP) continue;
    void *dst = (char *)spec + k->off;
    int id = ymap_value(mp, k->key);
    int needed = (k->flags & REQUIRED) &&
                 (!k->needs || (mp->variant >= 0 && (k->needs >> mp->variant & 1)));
    if (needed && (!id || lk_ydoc_is_null(Y, id)))
      return lk_ydoc_error(Y, id ? id : mp->node, LK_SCHEMA_ERROR, ERR,
                           "%s: missing required key '%s'", mp->ctx, k->key);
    char what[256];
    say(what, sizeof what, "%s: %s", mp->ctx, k->key);
    lk_status st = LK_OK;
    if (id) {
      mp->present |= 1ull << i;
      st = read_value(mp, k, id, dst, what);
    } else if (k->type == K_FN && (k->flags & ALWAYS)) {
      st = k->fn(mp, 0, dst, what);
    }
    if (!st && (k->flags & VARIANT)) st = ymap_variant(mp, *(int *)dst);
    if (st) return st;
  }
  return LK_OK;
}

/* ------------------------------------------------------------ the names */

static const char *const kJointTypes[] = {"fixed", "revolute", "prismatic", "ball", "free"};
static const char *const kGeomTypes[] = {"plane", "sphere", "capsule", "box", "cylinder",
                                         "mesh"};
static const char *const kActuatorTypes[] = {"effort", "position", "velocity",
                                             "prescribed_position", "prescribed_velocity"};
static const char *const kIntegrators[] = {"euler", "rk4"};
static const char *const kVelocityForces[] = {"midpoint", "explicit"};
static const char *const kImpacts[] = {"simultaneous", "propagating"};
static const char *const kSolvers[] = {"lemke", "dantzig"};
static const char *const kCones[] = {"circle", "pyramid", "box"};
/* by lk_island_strategy's values (finalize refuses those an island does
 * not start with: fixed_normals, coupled) */
static const char *const kIslandStrategies[] = {"planned", "guess",  "sticking", "held",
                                                "fixed_normals", "coupled", "lcp", "nsgs",
                                                "newton"};
static const char *const kMixes[] = {"geometric", "min", "max", "mean"};
static const char *const kFilters[] = {"both", "either"};
static const char *const kFrames[] = {"world", "link"};
static const char *const kContactTypes[] = {"friction", "rolling"};
static const char *const kLoopTypes[] = {"ball", "pin", "rigid"};
static const char *const kAnalysisTypes[] = {"static"};
static const char *const kFrictionStates[] = {"static", "sliding"};
static const char *const kFrictionLaws[] = {"complementarity", "smoothed"};
static const char *const kContactModels[] = {"rigid", "compliant"};
static const char *const kNormalModels[] = {"hooke", "hertz"};

/* -------------------------------------------------------------- angles */

/* Issue 14.8: `options: {angle: degree}` (as MJCF's compiler angle) makes
 * the file's rpy, revolute and ball joint limits and revolute rest angles
 * degrees; everything else angular (initial q and v, servo targets and
 * gains) stays in radians, as MJCF keeps qpos and gains. In radians, a
 * value beyond 2 pi there is almost always degrees: a warning at it. */
#define LK_DEG (LK_PI / 180.0)

static void warn_at(yreader *R, int node, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void warn_at(yreader *R, int node, const char *fmt, ...) {
  if (R->nwarn >= LK_MODEL_MAX_WARNINGS) return;
  char *w = R->warn[R->nwarn++];
  int line = 0, col = 0;
  lk_ydoc_position(Y, node, &line, &col);
  int k = snprintf(w, sizeof R->warn[0], "%d:%d: ", line, col);
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(w + k, sizeof R->warn[0] - (size_t)k, fmt, ap);
  va_end(ap);
}

/* One angle read in the file's unit, in radians; what/key name it. */
static double angle(yreader *R, int node, const char *what, const char *key, double v) {
  if (R->degrees) return v * LK_DEG;
  if (node && fabs(v) > 2 * LK_PI)
    warn_at(R, node, "%s: %g is beyond 2 pi: degrees? (%s is in radians unless options: "
            "{angle: degree})", what, v, key);
  return v;
}

/* An angle that is radians whatever options.angle says (initial q, servo
 * targets: docs/format.md): beyond 2 pi it warns as the others do. */
static void radians_only(yreader *R, int node, const char *what, const char *key, double v) {
  if (node && fabs(v) > 2 * LK_PI)
    warn_at(R, node, "%s: %s: %g is beyond 2 pi: degrees? (%s is in radians, also under "
            "options: {angle: degree})", what, key, v, key);
}

static lk_vec3 angles(yreader *R, int node, const char *what, const char *key, lk_vec3 v) {
  if (R->degrees) return lk_v3_scale(v, LK_DEG);
  if (node && (fabs(v.x) > 2 * LK_PI || fabs(v.y) > 2 * LK_PI || fabs(v.z) > 2 * LK_PI))
    warn_at(R, node, "%s: %s [%g, %g, %g] is beyond 2 pi: degrees? (%s is in radians unless "
            "options: {angle: degree})", what, key, v.x, v.y, v.z, key);
  return v;
}

/* -------------------------------------------------------------- origins */

typedef struct {
  lk_vec3 xyz, rpy;
  double quat[4];
  lk_mat3 rot;
} origin_in;

static lk_status origin_quat(ymap *mp, int id, void *dst, const char *what) {
  yreader *R = mp->R;
  double *q = dst;
  if (ymap_has(mp, "rpy"))
    return lk_ydoc_error(Y, ymap_key(mp, "quat"), LK_SCHEMA_ERROR, ERR,
                         "%s: give either rpy or quat, not both", mp->ctx);
  lk_status st = lk_ydoc_doubles(Y, id, what, 4, 0, q, NULL, ERR);
  if (st) return st;
  /* Hand-written quaternions carry a few digits; anything further from
   * unit than that is a mistake (often x, y, z, w order). */
  double n = lk_q_norm(lk_q(q[0], q[1], q[2], q[3]));
  if (!(fabs(n - 1) <= 1e-3))
    return lk_ydoc_error(Y, id, LK_SCHEMA_ERROR, ERR,
                         "%s has norm %g; expected a unit quaternion [w, x, y, z]", what, n);
  return LK_OK;
}

/* rotation: [[r00, r01, r02], [r10, r11, r12], [r20, r21, r22]], the
 * matrix itself (what `linkage convert` writes when no rpy gives it to
 * the bit): a rotation to 1e-9. */
static lk_status origin_rotation(ymap *mp, int id, void *dst, const char *what) {
  yreader *R = mp->R;
  lk_mat3 *M = dst;
  if (ymap_has(mp, "rpy") || ymap_has(mp, "quat"))
    return lk_ydoc_error(Y, ymap_key(mp, "rotation"), LK_SCHEMA_ERROR, ERR,
                         "%s: give one of rpy, quat and rotation", mp->ctx);
  lk_status st = lk_ydoc_expect_seq(Y, id, what, ERR);
  if (st) return st;
  if (lk_ydoc_seq_len(Y, id) != 3)
    return lk_ydoc_error(Y, id, LK_SCHEMA_ERROR, ERR, "%s: expected 3 rows of 3 numbers", what);
  for (int r = 0; r < 3; r++) {
    char w[220];
    say(w, sizeof w, "%s[%d]", what, r);
    if ((st = lk_ydoc_doubles(Y, lk_ydoc_seq_item(Y, id, r), w, 3, 0, M->m[r], NULL, ERR)))
      return st;
  }
  lk_mat3 rtr = lk_m3_tmul(M, M);
  double off = 0;
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) off = fmax(off, fabs(rtr.m[i][j] - (i == j ? 1.0 : 0.0)));
  if (!(off <= 1e-9) || lk_m3_det(M) < 0)
    return lk_ydoc_error(Y, id, LK_SCHEMA_ERROR, ERR,
                         "%s is not a rotation (|R^T R - 1| = %.3g, det %.6g)", what, off,
                         lk_m3_det(M));
  return LK_OK;
}

#define OR(f) (unsigned short)offsetof(origin_in, f)
static const ykey kOriginKeys[] = {
    {ROW("xyz", K_VEC3, 0, OR(xyz))},
    {ROW("rpy", K_VEC3, 0, OR(rpy))},
    {ROW("quat", K_FN, 0, OR(quat)), .fn = origin_quat},
    {ROW("rotation", K_FN, 0, OR(rot)), .fn = origin_rotation},
};
static const ytable kOrigin = TABLE(kOriginKeys, NULL, NULL);

/* xyz + (rpy | quat) -> a rigid transform. */
static lk_status origin(yreader *R, int id, const char *ctx, lk_transform *out) {
  char what[192];
  say(what, sizeof what, "%s: origin", ctx);
  ymap mp;
  origin_in in = {lk_v3_zero(), lk_v3_zero(), {1, 0, 0, 0}, lk_m3_identity()};
  lk_status st = ymap_open(R, &mp, id, &kOrigin, what);
  if (!st) st = ymap_read(&mp, &in);
  if (st) return st;
  in.rpy = angles(R, lk_ydoc_map_get(Y, id, "rpy"), what, "rpy", in.rpy);
  lk_mat3 Rm = lk_m3_from_rpy(in.rpy.x, in.rpy.y, in.rpy.z);
  if (ymap_has(&mp, "quat"))
    Rm = lk_q_to_mat3(lk_q_normalize(lk_q(in.quat[0], in.quat[1], in.quat[2], in.quat[3])));
  if (ymap_has(&mp, "rotation")) Rm = in.rot;
  *out = lk_tf(&Rm, in.xyz);
  return LK_OK;
}

/* ------------------------------------------------------------ options */

#define OP(f) (unsigned short)offsetof(lk_options, f)
/* The solver and sensing parameters are read here and their ranges checked
 * by the model (lk_model_set_options), whose message is then located at
 * the key it names. */
static const ykey kOptionKeys[] = {
    {ROW("timestep", K_NUM, POSITIVE, OP(timestep))},
    {ROW("gravity", K_VEC3, 0, OP(gravity))},
    {ROW("integrator", K_ENUM, 0, OP(integrator)), ENUM(kIntegrators)},
    {ROW("velocity_forces", K_ENUM, 0, OP(velocity_forces)), ENUM(kVelocityForces)},
    {ROW("solver", K_ENUM, 0, OP(solver)), ENUM(kSolvers)},
    {ROW("friction_cone", K_ENUM, 0, OP(friction_cone)), ENUM(kCones)},
    {ROW("cone_edges", K_INT, 0, OP(cone_edges)), .lo = 3, .hi = 64},
    {ROW("friction_mix", K_ENUM, 0, OP(friction_mix)), ENUM(kMixes)},
    {ROW("collision_filter", K_ENUM, 0, OP(collision_filter)), ENUM(kFilters)},
    {ROW("max_contacts", K_INT, 0, OP(max_contacts)), .lo = 0, .hi = 1000000},
    {ROW("contact_erp", K_NUM, ANY, OP(contact_erp))},
    {ROW("contact_tolerance", K_NUM, ANY, OP(contact_tolerance))},
    {ROW("contact_margin", K_NUM, ANY, OP(contact_margin))},
    {ROW("max_depenetration_speed", K_NUM, ANY, OP(max_depenetration_speed))},
    {ROW("restitution_threshold", K_NUM, ANY, OP(restitution_threshold))},
    {ROW("impacts", K_ENUM, 0, OP(impacts)), ENUM(kImpacts)},
    {ROW("anchor_contacts", K_BOOL, 0, OP(anchor_contacts))},
    {ROW("slip_threshold", K_NUM, ANY, OP(slip_threshold))},
    {ROW("friction_iterations", K_INT, 0, OP(friction_iterations)), .lo = 0, .hi = 1000000},
    {ROW("constraint_erp", K_NUM, ANY, OP(constraint_erp))},
    {ROW("projection_iterations", K_INT, 0, OP(projection_iterations)), .lo = 0, .hi = 1000000},
    {ROW("cfm", K_NUM, ANY, OP(cfm))},
    {ROW("max_island_rows", K_INT, 0, OP(max_island_rows)), .lo = 0, .hi = 1000000},
    {ROW("slip_speed_threshold", K_NUM, ANY, OP(slip_speed_threshold))},
    {ROW("utilization_threshold", K_NUM, ANY, OP(utilization_threshold))},
    {ROW("slip_filter_tau", K_NUM, ANY, OP(slip_filter_tau))},
    {ROW("slip_on", K_NUM, ANY, OP(slip_on))},
    {ROW("slip_off", K_NUM, ANY, OP(slip_off))},
    {ROW("friction_law", K_ENUM, 0, OP(friction_law)), ENUM(kFrictionLaws)},
    {ROW("friction_eps_v", K_NUM, ANY, OP(friction_eps_v))},
    {ROW("smoothing_iterations", K_INT, 0, OP(smoothing_iterations)), .lo = 0, .hi = 1000000},
    {ROW("island_strategy", K_ENUM, 0, OP(island_strategy)), ENUM(kIslandStrategies)},
    {ROW("angle", K_SKIP, 0, 0)}, /* radian | degree: read first (build) */
    {ROW("initial_overlaps", K_SKIP, 0, 0)}, /* checked | allowed: read first (build) */
};
static const char *const kAngleUnits[] = {"radian", "degree"};
static const char *const kOverlaps[] = {"checked", "allowed"};
static const ytable kOptions = TABLE(kOptionKeys, NULL, NULL);

static lk_status sec_options(yreader *R, int id) {
  ymap mp;
  lk_options o;
  lk_options_default(&o);
  lk_status st = ymap_open(R, &mp, id, &kOptions, "options");
  if (!st) st = ymap_read(&mp, &o);
  return st ? st : lk_builder_set_options(B, &o, id);
}

/* ---------------------------------------------------------- materials */

/* mu, or mu_static and mu_dynamic (of a material or a support). */
typedef struct {
  double mu, ms, md;
} mu_in;

typedef struct {
  lk_material_spec s;
  mu_in mu;
} material_in;

/* The coefficients once mu_dynamic (the last of them) is read: mu sets
 * both; a material that gives only the static coefficient slides with it
 * too (the builder's default, 0.5, could exceed it and be rejected). */
static lk_status mu_pair(ymap *mp, int md_node, mu_in *t, const char *conflict) {
  yreader *R = mp->R;
  lk_status st;
  if (md_node) {
    char what[220];
    say(what, sizeof what, "%s: mu_dynamic", mp->ctx);
    if ((st = lk_ydoc_double(Y, md_node, what, 0, &t->md, ERR))) return st;
    if ((st = lk_builder_check_range(B, md_node, what, NONNEG, t->md))) return st;
  }
  int has_mu = ymap_has(mp, "mu"), has_ms = ymap_has(mp, "mu_static"), has_md = md_node != 0;
  if (has_mu && (has_ms || has_md))
    return lk_ydoc_error(Y, ymap_key(mp, "mu"), LK_SCHEMA_ERROR, ERR, "%s: %s", mp->ctx, conflict);
  if (has_mu) t->ms = t->md = t->mu;
  if (has_ms && !has_md) t->md = t->ms;
  if (has_md && !has_ms && t->md > t->ms) t->ms = t->md;
  return LK_OK;
}

static lk_status material_mu(ymap *mp, int id, void *dst, const char *what) {
  (void)what;
  return mu_pair(mp, id, dst,
                 "'mu' sets both coefficients; give either mu or mu_static and mu_dynamic");
}

static lk_status material_tangential(ymap *mp, int id, void *dst, const char *what) {
  yreader *R = mp->R;
  const char *names[LK_TANGENTIAL_COUNT];
  for (int t = 0; t < LK_TANGENTIAL_COUNT; t++) names[t] = lk_tangential_model_name(t);
  return lk_ydoc_enum(Y, id, what, names, LK_TANGENTIAL_COUNT, (int *)dst, ERR);
}

#define MA(f) (unsigned short)offsetof(material_in, f)
#define COMPLIANT BIT(LK_CONTACT_COMPLIANT)
static const ykey kMaterialKeys[] = {
    {ROW("name", K_SKIP, 0, 0)},
    {ROW("mu", K_NUM, NONNEG, MA(mu.mu))},
    {ROW("mu_static", K_NUM, NONNEG, MA(mu.ms))},
    {ROW("mu_dynamic", K_FN, ALWAYS, MA(mu)), .fn = material_mu},
    {ROW("restitution", K_NUM, UNIT, MA(s.restitution))},
    {ROW("mu_rolling", K_NUM, NONNEG, MA(s.mu_rolling))},
    {ROW("mu_torsional", K_NUM, NONNEG, MA(s.mu_torsional))},
    {ROW("patch_radius", K_NUM, NONNEG, MA(s.patch_radius))},
    /* Compliant contact (docs/contact-models.md). */
    {ROW("contact", K_ENUM, 0, MA(s.contact)), ENUM(kContactModels)},
    {ROW("normal", K_ENUM, 0, MA(s.normal)), ENUM(kNormalModels), .applies = COMPLIANT},
    {ROW("k_n", K_NUM, NONNEG, MA(s.k_n)), .applies = COMPLIANT},
    {ROW("damping", K_NUM, NONNEG, MA(s.damping)), .applies = COMPLIANT},
    {ROW("tangential", K_FN, 0, MA(s.tangential)), .fn = material_tangential,
     .applies = COMPLIANT},
    {ROW("k_t", K_NUM, NONNEG, MA(s.k_t)), .applies = COMPLIANT},
    {ROW("x_gamma_t", K_NUM, NONNEG, MA(s.x_gamma_t)), .applies = COMPLIANT},
};
static const char *const kMaterialKinds[] = {"a rigid material (set contact: compliant)",
                                             "a compliant material"};
static const ytable kMaterial = TABLE(kMaterialKeys, "material", kMaterialKinds);

static lk_status sec_materials(yreader *R, int id) {
  int n = lk_ydoc_seq_len(Y, id);
  for (int i = 0; i < n; i++) {
    int it = lk_ydoc_seq_item(Y, id, i);
    material_in in;
    lk_material_spec_default(&in.s);
    in.mu = (mu_in){0, in.s.mu_static, in.s.mu_dynamic};
    in.s.name = B->mats[i].name;
    char ctx[128];
    say(ctx, sizeof ctx, "material '%s'", in.s.name);
    ymap mp;
    lk_status st = ymap_open(R, &mp, it, &kMaterial, ctx);
    if (!st) st = ymap_read(&mp, &in);
    in.s.mu_static = in.mu.ms;
    in.s.mu_dynamic = in.mu.md;
    /* The compliant keys are checked once every value was read. */
    if (!st) st = ymap_variant(&mp, (int)in.s.contact);
    if (st) return st;
    if (in.s.contact == LK_CONTACT_COMPLIANT && !(in.s.k_n > 0)) {
      int k = ymap_value(&mp, "k_n");
      return lk_ydoc_error(Y, k ? k : it, LK_SCHEMA_ERROR, ERR,
                           "%s: compliant contact needs k_n > 0", ctx);
    }
    if ((st = lk_builder_add_material(B, &in.s, it))) return st;
  }
  return LK_OK;
}

/* -------------------------------------------------------------- geoms */

typedef struct {
  lk_geom_spec g;
  lk_vec3 normal, point; /* a plane's */
  double scale[3];       /* a mesh's */
  int part;              /* a mesh's part of its file, -1: all */
} geom_in;

/* A capsule of half length 0 is a sphere, a cylinder of 0 is nothing. */
static lk_status geom_half_length(ymap *mp, int id, void *dst, const char *what) {
  yreader *R = mp->R;
  lk_status st = lk_ydoc_double(Y, id, what, 0, dst, ERR);
  if (st) return st;
  return lk_builder_check_range(B, id, what, mp->variant == LK_GEOM_CAPSULE ? NONNEG : POSITIVE,
                                *(double *)dst);
}

/* origin, or for a plane normal and point: the geom's pose. */
static lk_status geom_pose(ymap *mp, int id, void *dst, const char *what) {
  (void)what;
  yreader *R = mp->R;
  geom_in *in = dst;
  lk_status st;
  if (id && (st = origin(R, id, mp->ctx, &in->g.pose))) return st;
  if (in->g.type != LK_GEOM_PLANE) return LK_OK;
  static const ykey normal = {ROW("normal", K_VEC3, NONZERO, 0)},
                    point = {ROW("point", K_VEC3, 0, 0)};
  int nid = ymap_value(mp, "normal"), pid = ymap_value(mp, "point");
  char w[220];
  say(w, sizeof w, "%s: normal", mp->ctx);
  if (nid && (st = read_value(mp, &normal, nid, &in->normal, w))) return st;
  say(w, sizeof w, "%s: point", mp->ctx);
  if (pid && (st = read_value(mp, &point, pid, &in->point, w))) return st;
  if (id && (nid || pid))
    return lk_ydoc_error(Y, ymap_key(mp, nid ? "normal" : "point"), LK_SCHEMA_ERROR, ERR,
                         "%s: give a plane either normal/point or origin, not both", mp->ctx);
  if (!id) {
    /* The plane is the half-space z <= 0 of its pose: put the pose's z
     * axis along the normal and its origin on the point. */
    lk_mat3 Rm = lk_rotation_z_to(lk_v3_normalize(in->normal));
    in->g.pose = lk_tf(&Rm, in->point);
  }
  return LK_OK;
}

/* A mesh's scale: one factor or [sx, sy, sz]; a negative one mirrors. */
static lk_status geom_scale(ymap *mp, int id, void *dst, const char *what) {
  yreader *R = mp->R;
  double *v = dst;
  lk_status st;
  if (lk_ydoc_scalar(Y, id, NULL)) {
    if ((st = lk_ydoc_double(Y, id, what, 0, v, ERR))) return st;
    v[1] = v[2] = v[0];
  } else if ((st = lk_ydoc_doubles(Y, id, what, 3, 0, v, NULL, ERR))) {
    return st;
  }
  if (!(v[0] != 0 && v[1] != 0 && v[2] != 0))
    return lk_ydoc_error(Y, id, LK_SCHEMA_ERROR, ERR,
                         "%s must be non-zero (negative: mirrored), got [%g, %g, %g]", what, v[0],
                         v[1], v[2]);
  return LK_OK;
}

/* A mesh's file, relative to the directory of the file being read (or
 * absolute): read into its hull, which the geom list owns until it is
 * added. */
static lk_status geom_file(ymap *mp, int id, void *dst, const char *what) {
  yreader *R = mp->R;
  geom_in *in = dst;
  const char *name;
  lk_status st = lk_ydoc_string(Y, id, what, 4096, &name, ERR);
  if (st) return st;
  char path[LK_ERROR_PATH_MAX + 4096];
  const char *slash = strrchr(Y->path, '/');
  if (name[0] == '/' || !slash)
    snprintf(path, sizeof path, "%s", name);
  else
    snprintf(path, sizeof path, "%.*s/%s", (int)(slash - Y->path), Y->path, name);
  lk_mesh *mesh = NULL;
  lk_error e;
  lk_error_clear(&e);
  /* mirrored: the hull at |scale|, mirrored (lk_mesh_mirror), as MJCF's */
  double ascale[3] = {fabs(in->scale[0]), fabs(in->scale[1]), fabs(in->scale[2])};
  if ((st = lk_io_input(R->o, path, 1, &e)) ||
      (st = lk_mesh_load_part(path, in->part, ascale, &mesh, &e)) ||
      (st = lk_mesh_mirror(&mesh, in->scale, &e)))
    return lk_ydoc_error(Y, id, st == LK_OUT_OF_MEMORY ? st : LK_SCHEMA_ERROR, ERR,
                         "%s: mesh '%s': %s", what, path, e.message);
  in->g.mesh = mesh;
  return LK_OK;
}

#define GE(f) (unsigned short)offsetof(geom_in, f)
#define ROUND (BIT(LK_GEOM_SPHERE) | BIT(LK_GEOM_CAPSULE) | BIT(LK_GEOM_CYLINDER))
#define AXIAL (BIT(LK_GEOM_CAPSULE) | BIT(LK_GEOM_CYLINDER))
#define PLANE BIT(LK_GEOM_PLANE)
static const ykey kGeomKeys[] = {
    {ROW("name", K_NAME, NAMED, GE(g.name))},
    {ROW("type", K_ENUM, REQUIRED | VARIANT, GE(g.type)), ENUM(kGeomTypes)},
    {ROW("radius", K_NUM, POSITIVE | REQUIRED, GE(g.size[0])), .applies = ROUND, .needs = ROUND},
    {ROW("half_length", K_FN, REQUIRED, GE(g.size[1])), .fn = geom_half_length,
     .applies = AXIAL, .needs = AXIAL},
    {ROW("half_extents", K_VEC3, POSITIVE | REQUIRED, GE(g.size)), .applies = BIT(LK_GEOM_BOX),
     .needs = BIT(LK_GEOM_BOX)},
    /* scale and part before file: the file is read when its row comes. */
    {ROW("scale", K_FN, 0, GE(scale)), .fn = geom_scale, .applies = BIT(LK_GEOM_MESH)},
    {ROW("part", K_INT, 0, GE(part)), .lo = 0, .hi = 1000000, .applies = BIT(LK_GEOM_MESH)},
    {ROW("file", K_FN, REQUIRED, 0), .fn = geom_file, .applies = BIT(LK_GEOM_MESH),
     .needs = BIT(LK_GEOM_MESH)},
    /* A plane's normal and point are read with the origin. */
    {ROW("normal", K_SKIP, 0, 0), .applies = PLANE},
    {ROW("point", K_SKIP, 0, 0), .applies = PLANE},
    {ROW("origin", K_FN, ALWAYS, 0), .fn = geom_pose},
    {ROW("material", K_MATERIAL, 0, GE(g.material))},
    {ROW("group", K_UINT, 0, GE(g.group)), .lo = 0, .hi = 0xFFFFFFFFL},
    {ROW("mask", K_UINT, 0, GE(g.mask)), .lo = 0, .hi = 0xFFFFFFFFL},
    {ROW("collide_parent", K_BOOL, 0, GE(g.collide_parent))},
    {ROW("margin", K_NUM, NONNEG, GE(g.margin))},
};
static const char *const kGeomKinds[] = {"a plane", "a sphere", "a capsule", "a box",
                                         "a cylinder", "a mesh"};
static const ytable kGeom = TABLE(kGeomKeys, "geom", kGeomKinds);

/* One geom mapping -> spec (strings point into the document). */
static lk_status geom(yreader *R, int it, const char *link, const char *ctx, lk_geom_spec *g) {
  geom_in in;
  lk_geom_spec_default(&in.g);
  in.g.link = link;
  in.normal = lk_v3(0, 0, 1);
  in.point = lk_v3_zero();
  in.scale[0] = in.scale[1] = in.scale[2] = 1;
  in.part = -1;
  ymap mp;
  lk_status st = ymap_open(R, &mp, it, &kGeom, ctx);
  if (!st) st = ymap_read(&mp, &in);
  if (st) {
    lk_mesh_free((lk_mesh *)in.g.mesh);
    return st;
  }
  *g = in.g;
  return LK_OK;
}

/* The geoms of a link (or of the world), read before they are added. */
typedef struct {
  const char *link;
  lk_geom_spec *g;
  int *nodes;
  int n;
} geom_list;

static void geom_list_free(geom_list *gl) {
  /* The meshes read are the list's (the model keeps copies). */
  for (int i = 0; i < gl->n; i++) lk_mesh_free((lk_mesh *)gl->g[i].mesh);
  lk_free(gl->g);
  lk_free(gl->nodes);
  gl->g = NULL;
  gl->nodes = NULL;
  gl->n = 0;
}

static lk_status read_geoms(ymap *mp, int id, void *dst, const char *what) {
  yreader *R = mp->R;
  geom_list *gl = dst;
  lk_status st = lk_ydoc_expect_seq(Y, id, what, ERR);
  if (st) return st;
  int n = lk_ydoc_seq_len(Y, id);
  if (n == 0) return LK_OK;
  gl->g = LK_NEW_ARRAY(lk_geom_spec, n);
  gl->nodes = LK_NEW_ARRAY(int, n);
  if (!gl->g || !gl->nodes) return lk_builder_oom(B);
  for (int i = 0; i < n; i++) {
    char c[220];
    say(c, sizeof c, "%s[%d]", what, i);
    gl->nodes[i] = lk_ydoc_seq_item(Y, id, i);
    if ((st = geom(R, gl->nodes[i], gl->link, c, &gl->g[i]))) return st;
    gl->n = i + 1;
  }
  return LK_OK;
}

static lk_status add_geoms(yreader *R, const geom_list *gl) {
  for (int i = 0; i < gl->n; i++) {
    lk_status st = lk_builder_add_geom(B, &gl->g[i], gl->nodes[i]);
    if (st) return st;
  }
  return LK_OK;
}

static const ykey kWorldKeys[] = {{"geoms", K_FN, 0, 0, .fn = read_geoms}};
static const ytable kWorld = TABLE(kWorldKeys, NULL, NULL);

static lk_status sec_world(yreader *R, int id) {
  geom_list gl = {"world", NULL, NULL, 0};
  ymap mp;
  lk_status st = ymap_open(R, &mp, id, &kWorld, "world");
  if (!st) st = ymap_read(&mp, &gl);
  /* Loading into a model without the file's world geoms: checked, dropped. */
  if (!st && (!B->mo || B->mo->world_geoms)) st = add_geoms(R, &gl);
  geom_list_free(&gl);
  return st;
}

/* --------------------------------------------------------------- joints */

/* A ball joint's limit is a cone: the largest rotation angle. */
static lk_status joint_limit(ymap *mp, int id, void *dst, const char *what) {
  yreader *R = mp->R;
  lk_joint_spec *j = dst;
  lk_status st;
  if (mp->variant == LK_JOINT_BALL) {
    double a;
    if ((st = lk_ydoc_double(Y, id, what, 0, &a, ERR))) return st;
    if (R->degrees) a *= LK_DEG;
    if (!(a > 0 && a <= LK_PI))
      return lk_ydoc_error(Y, id, LK_SCHEMA_ERROR, ERR,
                           "%s: a ball joint's limit is a cone angle in (0, pi], got %g", what, a);
    j->limited = 1;
    j->lower = 0;
    j->upper = a;
    return LK_OK;
  }
  double lim[2];
  if ((st = lk_ydoc_doubles(Y, id, what, 2, 0, lim, NULL, ERR))) return st;
  if (mp->variant == LK_JOINT_REVOLUTE) {
    lim[0] = angle(R, id, what, "limit", lim[0]);
    if (fabs(lim[0]) <= 2 * LK_PI || R->degrees) lim[1] = angle(R, id, what, "limit", lim[1]);
  }
  if (lim[0] > lim[1])
    return lk_ydoc_error(Y, id, LK_SCHEMA_ERROR, ERR,
                         "%s: lower %g is above upper %g (expected [lower, upper])", what, lim[0],
                         lim[1]);
  j->limited = 1;
  j->lower = lim[0];
  j->upper = lim[1];
  return LK_OK;
}

#define JO(f) (unsigned short)offsetof(lk_joint_spec, f)
#define ONE_DOF_JOINTS (BIT(LK_JOINT_REVOLUTE) | BIT(LK_JOINT_PRISMATIC))
#define MOVING (ONE_DOF_JOINTS | BIT(LK_JOINT_BALL) | BIT(LK_JOINT_FREE))
static const ykey kJointKeys[] = {
    {ROW("name", K_SKIP, 0, 0)},
    {ROW("type", K_ENUM, REQUIRED | VARIANT, JO(type)), ENUM(kJointTypes)},
    {ROW("axis", K_VEC3, NONZERO, JO(axis)), .applies = ONE_DOF_JOINTS},
    {ROW("limit", K_FN, 0, 0), .fn = joint_limit, .applies = ONE_DOF_JOINTS | BIT(LK_JOINT_BALL)},
    {ROW("damping", K_NUM, NONNEG, JO(damping)), .applies = MOVING},
    {ROW("stiffness", K_NUM, NONNEG, JO(stiffness)), .applies = MOVING},
    {ROW("rest", K_NUM, ANY, JO(rest)), .applies = ONE_DOF_JOINTS},
    {ROW("armature", K_NUM, NONNEG, JO(armature)), .applies = MOVING},
    {ROW("friction", K_NUM, NONNEG, JO(friction)), .applies = MOVING},
};
static const char *const kJointKinds[] = {"a fixed joint", "a revolute joint",
                                          "a prismatic joint", "a ball joint", "a free joint"};
static const ytable kJoint = TABLE(kJointKeys, NULL, kJointKinds);

/* ---------------------------------------------------------------- links */

typedef struct {
  lk_link_spec s; /* first: link_mass gets a pointer to it */
  int index;      /* in the builder's registry */
  geom_list geoms;
  double density; /* kg/m^3; 0 when not given (then mass is) */
} link_in;

static lk_status link_parent(ymap *mp, int id, void *dst, const char *what) {
  yreader *R = mp->R;
  link_in *in = dst;
  lk_blink *lr = &B->links[in->index];
  lk_status st = ref_link(R, id, what, 1, &in->s.parent, &lr->parent);
  if (st) return st;
  if (lr->parent == in->index)
    return lk_ydoc_error(Y, id, LK_SCHEMA_ERROR, ERR, "%s: a link cannot be its own parent",
                         mp->ctx);
  lr->parent_loc = id;
  return LK_OK;
}

static lk_status link_joint(ymap *mp, int id, void *dst, const char *what) {
  yreader *R = mp->R;
  link_in *in = dst;
  lk_status st;
  if (lk_ydoc_is_scalar(Y, id)) {
    /* "joint: revolute" shorthand: a joint of that type named after the link. */
    return lk_ydoc_enum(Y, id, what, kJointTypes, COUNT(kJointTypes), (int *)&in->s.joint.type,
                        ERR);
  }
  ymap jm;
  if ((st = ymap_open(R, &jm, id, &kJoint, what))) return st;
  say(jm.ctx, sizeof jm.ctx, "%s: joint '%s'", mp->ctx, B->links[in->index].joint);
  st = ymap_read(&jm, &in->s.joint);
  if (!st && R->degrees && in->s.joint.type == LK_JOINT_REVOLUTE) in->s.joint.rest *= LK_DEG;
  return st;
}

/* mass: required on a moving joint (the joint is read before), and
 * positive there; a link on a fixed joint may be a massless frame. */
static lk_status link_mass(ymap *mp, int id, void *dst, const char *what) {
  yreader *R = mp->R;
  lk_link_spec *s = dst;
  const char *jt = lk_joint_type_name(s->joint.type);
  int moving = s->joint.type != LK_JOINT_FIXED;
  const link_in *in = dst; /* s is link_in's first member */
  if (in->density > 0) {
    if (id)
      return lk_ydoc_error(Y, id, LK_SCHEMA_ERROR, ERR,
                           "%s: give mass or density, not both", mp->ctx);
    return LK_OK; /* the mass comes from the geoms' volume (one_link) */
  }
  if (!id) {
    if (!moving) return LK_OK;
    return lk_ydoc_error(Y, mp->node, LK_SCHEMA_ERROR, ERR,
                         "%s: missing required key 'mass' (a link on a %s joint must have mass)",
                         mp->ctx, jt);
  }
  lk_status st = lk_ydoc_double(Y, id, what, 0, &s->mass, ERR);
  if (!st) st = lk_builder_check_range(B, id, what, NONNEG, s->mass);
  if (!st && s->mass > 0 && s->mass < DBL_MIN)
    st = lk_ydoc_error(Y, id, LK_SCHEMA_ERROR, ERR,
                       "%s: mass %g is too small to simulate (below %g)", mp->ctx, s->mass,
                       DBL_MIN);
  if (!st && s->mass == 0 && moving)
    st = lk_ydoc_error(Y, id, LK_SCHEMA_ERROR, ERR,
                       "%s: mass must be positive on a %s joint (only a link on a fixed joint "
                       "may be massless), got 0",
                       mp->ctx, jt);
  return st;
}

/* [ixx, iyy, izz, ixy, ixz, iyz] or [ixx, iyy, izz]. */
static lk_status link_inertia(ymap *mp, int id, void *dst, const char *what) {
  yreader *R = mp->R;
  double v[6];
  int cnt;
  lk_status st = lk_ydoc_doubles(Y, id, what, 6, 3, v, &cnt, ERR);
  if (st) return st;
  if (cnt == 3) v[3] = v[4] = v[5] = 0;
  lk_mat3 I = {{{v[0], v[3], v[4]}, {v[3], v[1], v[5]}, {v[4], v[5], v[2]}}};
  *(lk_mat3 *)dst = I;
  return LK_OK;
}

#define LI(f) (unsigned short)offsetof(link_in, f)
static const ykey kLinkKeys[] = {
    {ROW("name", K_SKIP, 0, 0)},
    {ROW("parent", K_FN, 0, 0), .fn = link_parent},
    {ROW("joint", K_FN, 0, 0), .fn = link_joint},
    {ROW("origin", K_ORIGIN, 0, LI(s.origin))},
    /* density before mass: link_mass knows whether it was given. */
    {ROW("density", K_NUM, POSITIVE, LI(density))},
    {ROW("mass", K_FN, ALWAYS, LI(s)), .fn = link_mass},
    {ROW("com", K_VEC3, 0, LI(s.com))},
    {ROW("inertia", K_FN, 0, LI(s.inertia)), .fn = link_inertia},
    {ROW("geoms", K_FN, 0, LI(geoms)), .fn = read_geoms},
};
static const ytable kLink = TABLE(kLinkKeys, NULL, NULL);

static lk_status one_link(yreader *R, int index) {
  lk_blink *lr = &B->links[index];
  int it = lr->loc;
  char ctx[128];
  say(ctx, sizeof ctx, "link '%s'", lr->name);
  link_in in;
  lk_link_spec_default(&in.s);
  in.s.name = lr->name;
  in.s.parent = "world";
  in.index = index;
  in.geoms = (geom_list){lr->name, NULL, NULL, 0};
  in.density = 0;
  lr->parent = -1;
  ymap mp;
  lk_status st = ymap_open(R, &mp, it, &kLink, ctx);
  if (!st) st = ymap_read(&mp, &in);
  in.s.joint.name = lr->joint;
  if (!st && in.density > 0) {
    /* mass = density x the solids' volume (meshes' hulls included). */
    double V = 0;
    for (int i = 0; i < in.geoms.n; i++) V += lk_geom_volume(&in.geoms.g[i]);
    if (!(V > 0))
      st = lk_ydoc_error(Y, ymap_key(&mp, "density"), LK_SCHEMA_ERROR, ERR,
                         "%s: density needs solid geoms to give the mass", ctx);
    in.s.mass = in.density * V;
  }
  if (!st && !ymap_has(&mp, "inertia") && in.s.mass > 0 &&
      !lk_inertia_from_geoms(in.geoms.g, in.geoms.n, in.s.mass, ymap_has(&mp, "com"), &in.s.com,
                             &in.s.inertia))
    st = lk_ydoc_error(Y, it, LK_SCHEMA_ERROR, ERR,
                       "%s: no inertia given, and no solid geoms to compute it from", ctx);
  if (!st) st = lk_builder_add_link(B, &in.s, it, lr->joint_loc);
  if (!st) st = add_geoms(R, &in.geoms);
  geom_list_free(&in.geoms);
  return st;
}

static lk_status sec_links(yreader *R, int id) {
  (void)id; /* the first pass has the links */
  for (int i = 0; i < B->nlinks; i++) {
    if (B->links[i].external) continue; /* an included file's */
    lk_status st = one_link(R, i);
    if (st) return st;
  }
  /* Cycles: a link whose ancestry comes back to it. Report it at the
   * parent key of the first such link in the file. */
  char path[256];
  int i = lk_builder_find_cycle(B, path, sizeof path);
  if (i < 0) return LK_OK;
  return lk_ydoc_error(Y, B->links[i].parent_loc, LK_SCHEMA_ERROR, ERR,
                       "link '%s': parent '%s' makes a cycle (%s); links form a tree rooted "
                       "at the world (close loops under constraints: loops)",
                       B->links[i].name, B->links[B->links[i].parent].name, path);
}

/* ----------------------------------------------------------- actuators */

typedef struct {
  lk_actuator_spec s;
  double *schedule; /* 2 n: the times, then the efforts or targets */
  int link;         /* the joint's link in the builder */
} actuator_in;

/* The joint, then the actuator's name: its own or the joint's. */
static lk_status actuator_joint(ymap *mp, int id, void *dst, const char *what) {
  yreader *R = mp->R;
  actuator_in *in = dst;
  lk_status st = ref_joint(R, id, what, 1, &in->s.joint, &in->link);
  if (st) return st;
  const char *aname = in->s.name ? in->s.name : in->s.joint;
  int nid = ymap_value(mp, "name");
  if ((st = lk_builder_unique(B, "actuator", aname, nid ? nid : id))) return st;
  say(mp->ctx, sizeof mp->ctx, "actuator '%s'", aname);
  return LK_OK;
}

static lk_status actuator_schedule(ymap *mp, int id, void *dst, const char *what) {
  yreader *R = mp->R;
  actuator_in *in = dst;
  lk_status st = lk_ydoc_expect_seq(Y, id, what, ERR);
  if (st) return st;
  int ns = lk_ydoc_seq_len(Y, id);
  if (ns == 0)
    return lk_ydoc_error(Y, id, LK_SCHEMA_ERROR, ERR,
                         "%s: expected a list of [time, value] pairs, got an empty list", what);
  double *sched = in->schedule = LK_NEW_ARRAY(double, 2 * ns);
  if (!sched) return lk_builder_oom(B);
  for (int p = 0; p < ns; p++) {
    char w[220];
    double te[2];
    say(w, sizeof w, "%s[%d]", what, p);
    int pid = lk_ydoc_seq_item(Y, id, p);
    if ((st = lk_ydoc_doubles(Y, pid, w, 2, 0, te, NULL, ERR))) return st;
    if (p > 0 && !(te[0] > sched[p - 1]))
      return lk_ydoc_error(Y, pid, LK_SCHEMA_ERROR, ERR,
                           "%s: time %g does not come after %g (times must increase)", w, te[0],
                           sched[p - 1]);
    sched[p] = te[0];
    sched[ns + p] = te[1];
  }
  in->s.schedule_t = sched;
  in->s.schedule_effort = sched + ns;
  in->s.nschedule = ns;
  return LK_OK;
}

#define AC(f) (unsigned short)offsetof(actuator_in, f)
static const ykey kActuatorKeys[] = {
    {ROW("name", K_NAME, 0, AC(s.name))},
    {ROW("joint", K_FN, REQUIRED, 0), .fn = actuator_joint},
    {ROW("type", K_ENUM, VARIANT, AC(s.type)), ENUM(kActuatorTypes)},
    {ROW("kp", K_NUM, NONNEG, AC(s.kp)), .applies = BIT(LK_ACTUATOR_POSITION)},
    {ROW("kv", K_NUM, NONNEG, AC(s.kv)),
     .applies = BIT(LK_ACTUATOR_POSITION) | BIT(LK_ACTUATOR_VELOCITY)},
    {ROW("target", K_NUM, ANY, AC(s.target))},
    {ROW("max_effort", K_NUM, POSITIVE | INF_OK, AC(s.max_effort))},
    {ROW("schedule", K_FN, 0, 0), .fn = actuator_schedule},
};
static const char *const kActuatorKinds[] = {"an effort actuator", "a position actuator",
                                             "a velocity actuator", "a prescribed position",
                                             "a prescribed velocity"};
static const ytable kActuator = TABLE(kActuatorKeys, "actuator", kActuatorKinds);

/* ------------------------------------------------ the lists of elements */

/* A section that is a list of elements, each read by `one` with the
 * context "label[i]". */
static lk_status each_item(yreader *R, int id, const char *what, const char *label,
                           lk_status (*one)(yreader *R, int it, const char *ctx)) {
  lk_status st = lk_ydoc_expect_seq(Y, id, what, ERR);
  int n = lk_ydoc_seq_len(Y, id);
  for (int i = 0; i < n && !st; i++) {
    char ctx[160];
    say(ctx, sizeof ctx, "%s[%d]", label, i);
    st = one(R, lk_ydoc_seq_item(Y, id, i), ctx);
  }
  return st;
}

static lk_status one_actuator(yreader *R, int it, const char *ctx) {
  actuator_in in;
  lk_actuator_spec_default(&in.s);
  in.schedule = NULL;
  in.link = -1;
  ymap mp;
  lk_status st = ymap_open(R, &mp, it, &kActuator, ctx);
  if (!st) st = ymap_read(&mp, &in);
  /* A position servo's targets on a revolute joint are radians (as initial
   * q): warned beyond 2 pi like every other angle. */
  if (!st && in.s.type == LK_ACTUATOR_POSITION && in.link >= 0 &&
      B->links[in.link].jtype == LK_JOINT_REVOLUTE) {
    int tid = ymap_value(&mp, "target"), sid = ymap_value(&mp, "schedule");
    if (tid) radians_only(R, tid, mp.ctx, "target", in.s.target);
    for (int k = 0; sid && k < in.s.nschedule; k++)
      radians_only(R, lk_ydoc_seq_item(Y, sid, k), mp.ctx, "schedule target",
                   in.s.schedule_effort[k]);
  }
  if (!st) st = lk_builder_add_actuator(B, &in.s, it);
  lk_free(in.schedule);
  return st;
}

static lk_status sec_actuators(yreader *R, int id) {
  return each_item(R, id, "actuators", "actuators", one_actuator);
}

/* --------------------------------------------------------------- loads */

#define LO(f) (unsigned short)offsetof(lk_load_spec, f)
static const ykey kLoadKeys[] = {
    {ROW("name", K_NAME, NAMED, LO(name))},
    {ROW("link", K_LINK, REQUIRED, LO(link))},
    {ROW("force", K_VEC3, 0, LO(force))},
    {ROW("torque", K_VEC3, 0, LO(torque))},
    {ROW("point", K_VEC3, 0, LO(point))},
    {ROW("frame", K_ENUM, 0, LO(frame)), ENUM(kFrames)},
    {ROW("start", K_NUM, NONNEG, LO(start))},
    {ROW("end", K_NUM, NONNEG | INF_OK, LO(end))},
};
static const ytable kLoad = TABLE(kLoadKeys, "load", NULL);

static lk_status one_load(yreader *R, int it, const char *ctx) {
  lk_load_spec s;
  lk_load_spec_default(&s);
  ymap mp;
  lk_status st = ymap_open(R, &mp, it, &kLoad, ctx);
  if (!st) st = ymap_read(&mp, &s);
  if (st) return st;
  if (s.end < s.start)
    return lk_ydoc_error(Y, ymap_value(&mp, "end"), LK_SCHEMA_ERROR, ERR,
                         "%s: end %g comes before start %g", mp.ctx, s.end, s.start);
  return lk_builder_add_load(B, &s, it);
}

static lk_status sec_loads(yreader *R, int id) {
  return each_item(R, id, "loads", "loads", one_load);
}

/* ------------------------------------------------------------ contacts */

#define CO(f) (unsigned short)offsetof(lk_contact_spec, f)
static const ykey kContactKeys[] = {
    {ROW("name", K_NAME, NAMED, CO(name))},
    {ROW("type", K_ENUM, VARIANT, CO(type)), ENUM(kContactTypes)},
    {ROW("link", K_LINK, REQUIRED, CO(link))},
    {ROW("point", K_VEC3, 0, CO(point))},
    {ROW("other", K_LINK, WORLD_OK, CO(other)), .same = CO(link) + 1,
     .itself = "other is the touching link itself"},
    {ROW("other_point", K_VEC3, 0, CO(other_point))},
    {ROW("normal", K_VEC3, NONZERO, CO(normal))},
    {ROW("radius", K_NUM, NONNEG, CO(radius))},
    {ROW("tolerance", K_NUM, NONNEG, CO(tolerance))},
    {ROW("material", K_MATERIAL, 0, CO(material))},
    {ROW("patch_radius", K_NUM, NONNEG, CO(patch_radius)), .applies = BIT(LK_CONTACT_ROLLING)},
};
static const char *const kContactKinds[] = {"a friction contact (only rolling ones)",
                                            "a rolling contact"};
static const ytable kContact = TABLE(kContactKeys, "contact", kContactKinds);

static lk_status one_contact(yreader *R, int it, const char *ctx) {
  lk_contact_spec s;
  lk_contact_spec_default(&s);
  s.other = "world";
  ymap mp;
  lk_status st = ymap_open(R, &mp, it, &kContact, ctx);
  if (!st) st = ymap_read(&mp, &s);
  return st ? st : lk_builder_add_contact(B, &s, it);
}

static lk_status sec_contacts(yreader *R, int id) {
  return each_item(R, id, "contacts", "contacts", one_contact);
}

/* ------------------------------------------------------------ supports */

typedef struct {
  lk_support_spec s;
  mu_in mu;
} support_in;

enum { LINK_SUPPORT, JOINT_SUPPORT };

/* A support is on a joint or at a point of a link: which one decides what
 * applies. */
static lk_status support_joint(ymap *mp, int id, void *dst, const char *what) {
  yreader *R = mp->R;
  support_in *in = dst;
  int lk = ymap_value(mp, "link");
  if (!!id == !!lk)
    return lk_ydoc_error(Y, id ? ymap_key(mp, "link") : mp->node, LK_SCHEMA_ERROR, ERR,
                         "%s: give either a joint or a link (with a point), not %s", mp->ctx,
                         id ? "both" : "neither");
  if (!id) return ymap_variant(mp, LINK_SUPPORT);
  lk_status st = ref_joint(R, id, what, 1, &in->s.joint, NULL);
  return st ? st : ymap_variant(mp, JOINT_SUPPORT);
}

static lk_status support_mu(ymap *mp, int id, void *dst, const char *what) {
  (void)what;
  yreader *R = mp->R;
  mu_in *t = dst;
  lk_status st = mu_pair(mp, id, t, "give either mu or mu_static and mu_dynamic");
  if (st) return st;
  if (t->md > t->ms)
    return lk_ydoc_error(Y, id, LK_SCHEMA_ERROR, ERR, "%s: mu_dynamic %g exceeds mu_static %g",
                         mp->ctx, t->md, t->ms);
  return LK_OK;
}

#define SU(f) (unsigned short)offsetof(support_in, f)
static const ykey kSupportKeys[] = {
    {ROW("name", K_NAME, NAMED, SU(s.name))},
    {ROW("joint", K_FN, ALWAYS, 0), .fn = support_joint},
    {ROW("link", K_LINK, 0, SU(s.link))},
    {ROW("point", K_VEC3, 0, SU(s.point)), .applies = BIT(LINK_SUPPORT)},
    {ROW("normal", K_VEC3, NONZERO, SU(s.normal)), .applies = BIT(LINK_SUPPORT)},
    {ROW("normal_force", K_NUM, NONNEG | REQUIRED, SU(s.normal_force))},
    {ROW("mu", K_NUM, NONNEG, SU(mu.mu))},
    {ROW("mu_static", K_NUM, NONNEG, SU(mu.ms))},
    {ROW("mu_dynamic", K_FN, ALWAYS, SU(mu)), .fn = support_mu},
};
static const char *const kSupportKinds[] = {"a link support", "a joint support"};
static const ytable kSupport = TABLE(kSupportKeys, "support", kSupportKinds);

static lk_status one_support(yreader *R, int it, const char *ctx) {
  support_in in;
  lk_support_spec_default(&in.s);
  in.mu = (mu_in){0, in.s.mu_static, in.s.mu_dynamic};
  ymap mp;
  lk_status st = ymap_open(R, &mp, it, &kSupport, ctx);
  if (!st) st = ymap_read(&mp, &in);
  if (st) return st;
  in.s.mu_static = in.mu.ms;
  in.s.mu_dynamic = in.mu.md;
  return lk_builder_add_support(B, &in.s, it);
}

static lk_status sec_supports(yreader *R, int id) {
  return each_item(R, id, "supports", "supports", one_support);
}

/* ------------------------------------------------------------- exclude */

/* [link_a, link_b]: the two links' geoms never collide with each other
 * (lk_model_add_exclude; what a URDF's rest-pose overlaps and MJCF's
 * <contact><exclude> become). */
static lk_status one_exclude(yreader *R, int it, const char *ctx) {
  lk_status st = lk_ydoc_expect_seq(Y, it, ctx, ERR);
  if (st) return st;
  if (lk_ydoc_seq_len(Y, it) != 2)
    return lk_ydoc_error(Y, it, LK_SCHEMA_ERROR, ERR, "%s: give two link names, [a, b]", ctx);
  const char *ab[2];
  for (int k = 0; k < 2 && !st; k++) {
    char what[200];
    say(what, sizeof what, "%s[%d]", ctx, k);
    st = ref_link(R, lk_ydoc_seq_item(Y, it, k), what, 0, &ab[k], NULL);
  }
  return st ? st : lk_builder_add_exclude(B, ab[0], ab[1]);
}

static lk_status sec_exclude(yreader *R, int id) {
  return each_item(R, id, "exclude", "exclude", one_exclude);
}

/* ----------------------------------------------------------- keyframes */

/* {name: NAME, q: {JOINT: q, ...}}: a named state (lk_model_add_keyframe,
 * MJCF's <key>): each joint's positions (a number for a 1-DoF joint, 4
 * for a ball, 7 for a free joint), the other joints at their initial
 * positions. */
static lk_status one_keyframe(yreader *R, int it, const char *ctx) {
  static const char *const keys[] = {"name", "q", NULL};
  lk_status st = lk_ydoc_expect_map(Y, it, ctx, ERR);
  if (!st) st = lk_ydoc_check_keys(Y, it, ctx, keys, ERR);
  if (st) return st;
  int nid = lk_ydoc_map_get(Y, it, "name"), qid = lk_ydoc_map_get(Y, it, "q");
  if (!nid) return lk_ydoc_error(Y, it, LK_SCHEMA_ERROR, ERR, "%s: missing 'name'", ctx);
  const char *name;
  char what[200];
  say(what, sizeof what, "%s: name", ctx);
  if ((st = lk_ydoc_string(Y, nid, what, LK_IO_NAME_MAX, &name, ERR))) return st;
  say(what, sizeof what, "keyframe '%s'", name);
  if ((st = lk_builder_unique(B, "keyframe", name, nid))) return st;
  int n = qid ? lk_ydoc_map_len(Y, qid) : 0;
  if (qid && (st = lk_ydoc_expect_map(Y, qid, what, ERR))) return st;
  const char **joints = LK_NEW_ARRAY(const char *, (size_t)(n > 0 ? n : 1));
  int *nq = LK_NEW_ARRAY(int, (size_t)(n > 0 ? n : 1));
  double *q = LK_NEW_ARRAY(double, (size_t)(7 * (n > 0 ? n : 1)));
  if (!joints || !nq || !q) st = lk_builder_oom(B);
  int total = 0;
  for (int i = 0; i < n && !st; i++) {
    int k = lk_ydoc_map_key(Y, qid, i), v = lk_ydoc_map_value(Y, qid, i);
    char w2[240];
    say(w2, sizeof w2, "%s: q", what);
    if ((st = ref_joint(R, k, w2, 0, &joints[i], NULL))) break;
    say(w2, sizeof w2, "%s: q: %s", what, joints[i]);
    if (lk_ydoc_is_seq(Y, v)) {
      nq[i] = lk_ydoc_seq_len(Y, v);
      if (nq[i] < 1 || nq[i] > 7) {
        st = lk_ydoc_error(Y, v, LK_SCHEMA_ERROR, ERR, "%s: 1 to 7 numbers, got %d", w2, nq[i]);
        break;
      }
      for (int j = 0; j < nq[i] && !st; j++)
        st = lk_ydoc_double(Y, lk_ydoc_seq_item(Y, v, j), w2, 0, &q[total + j], ERR);
    } else {
      nq[i] = 1;
      st = lk_ydoc_double(Y, v, w2, 0, &q[total], ERR);
    }
    total += nq[i];
  }
  if (!st) {
    lk_keyframe_spec ks = {name, n, joints, nq, q};
    if ((st = lk_builder_add_keyframe(B, &ks))) {
      char msg[sizeof ERR->message];
      snprintf(msg, sizeof msg, "%s", ERR ? ERR->message : "keyframe refused");
      st = lk_ydoc_error(Y, it, st, ERR, "%s", msg);
    }
  }
  lk_free(joints);
  lk_free(nq);
  lk_free(q);
  return st;
}

static lk_status sec_keyframes(yreader *R, int id) {
  return each_item(R, id, "keyframes", "keyframes", one_keyframe);
}

/* ------------------------------------------------------------ analysis */

typedef struct {
  lk_static_options so;
  int type;
  int nf;
  double factors[LK_IO_MAX_LOAD_STEPS];
} analysis_in;

static lk_status analysis_load_steps(ymap *mp, int id, void *dst, const char *what) {
  yreader *R = mp->R;
  analysis_in *in = dst;
  if (ymap_value(mp, "steps"))
    return lk_ydoc_error(Y, ymap_key(mp, "steps"), LK_SCHEMA_ERROR, ERR,
                         "%s: give either load_steps (the factors) or steps (equal ones)", mp->ctx);
  lk_status st = lk_ydoc_expect_seq(Y, id, what, ERR);
  if (st) return st;
  int nf = lk_ydoc_seq_len(Y, id);
  if (nf < 1 || nf > LK_IO_MAX_LOAD_STEPS)
    return lk_ydoc_error(Y, id, LK_SCHEMA_ERROR, ERR, "%s: %d factors; give 1 to %d", what, nf,
                         LK_IO_MAX_LOAD_STEPS);
  for (int i = 0; i < nf; i++) {
    char w[64];
    say(w, sizeof w, "%s[%d]", what, i);
    if ((st = lk_ydoc_double(Y, lk_ydoc_seq_item(Y, id, i), w, 0, &in->factors[i], ERR)))
      return st;
  }
  in->nf = in->so.nsteps = nf;
  return LK_OK;
}

#define AN(f) (unsigned short)offsetof(analysis_in, f)
static const ykey kAnalysisKeys[] = {
    {ROW("type", K_ENUM, REQUIRED, AN(type)), ENUM(kAnalysisTypes)},
    {ROW("load_steps", K_FN, 0, 0), .fn = analysis_load_steps},
    {ROW("steps", K_INT, 0, AN(so.nsteps)), .lo = 1, .hi = 1000000},
    {ROW("gravity", K_BOOL, 0, AN(so.gravity))},
    {ROW("max_iterations", K_INT, 0, AN(so.max_iterations)), .lo = 1, .hi = 1000000},
    {ROW("tolerance", K_NUM, NONNEG, AN(so.tolerance))},
    {ROW("slip_tolerance", K_NUM, NONNEG, AN(so.slip_tolerance))},
    {ROW("regularization", K_NUM, NONNEG, AN(so.regularization))},
    {ROW("initial_state", K_ENUM, 0, AN(so.initial_state)), ENUM(kFrictionStates)},
};
static const ytable kAnalysis = TABLE(kAnalysisKeys, NULL, NULL);

/* analysis: static, or a mapping with type: static and the load steps. */
static lk_status sec_analysis(yreader *R, int id) {
  lk_run_settings *r = R->run;
  int type;
  lk_status st;
  if (lk_ydoc_is_scalar(Y, id)) {
    if ((st = lk_ydoc_enum(Y, id, "analysis", kAnalysisTypes, 1, &type, ERR))) return st;
    if (r) r->analysis = LK_ANALYSIS_STATIC;
    return LK_OK;
  }
  analysis_in in;
  memset(&in, 0, sizeof in);
  lk_static_options_default(&in.so);
  ymap mp;
  if ((st = lk_ydoc_expect_map(Y, id, "analysis", ERR))) return st;
  if ((st = ymap_open(R, &mp, id, &kAnalysis, "analysis"))) return st;
  if ((st = ymap_read(&mp, &in))) return st;
  if (r) {
    r->analysis = LK_ANALYSIS_STATIC;
    r->statics = in.so;
    r->statics.load_factors = NULL;
    r->nload_steps = in.nf;
    for (int i = 0; i < in.nf; i++) r->load_steps[i] = in.factors[i];
  }
  return LK_OK;
}

/* --------------------------------------------------------- constraints */

#define LP(f) (unsigned short)offsetof(lk_loop_spec, f)
static const ykey kLoopKeys[] = {
    {ROW("name", K_NAME, NAMED, LP(name))},
    {ROW("type", K_ENUM, REQUIRED, LP(type)), ENUM(kLoopTypes)},
    {ROW("link_a", K_LINK, REQUIRED, LP(link_a))},
    {ROW("link_b", K_LINK, WORLD_OK, LP(link_b)), .same = LP(link_a) + 1,
     .itself = "link_b is link_a itself"},
    {ROW("frame_a", K_ORIGIN, 0, LP(frame_a))},
    {ROW("frame_b", K_ORIGIN, 0, LP(frame_b))},
};
static const ytable kLoop = TABLE(kLoopKeys, "loop", NULL);

static lk_status one_loop(yreader *R, int it, const char *ctx) {
  lk_loop_spec s;
  lk_loop_spec_default(&s);
  s.link_b = "world";
  ymap mp;
  lk_status st = ymap_open(R, &mp, it, &kLoop, ctx);
  if (!st) st = ymap_read(&mp, &s);
  return st ? st : lk_builder_add_loop(B, &s, it);
}

#define CP(f) (unsigned short)offsetof(lk_coupling_spec, f)
static const ykey kCouplingKeys[] = {
    {ROW("name", K_NAME, NAMED, CP(name))},
    {ROW("joint_a", K_JOINT, REQUIRED | ONE_DOF, CP(joint_a))},
    {ROW("joint_b", K_JOINT, REQUIRED | ONE_DOF, CP(joint_b)), .same = CP(joint_a) + 1,
     .itself = "joint_b is joint_a itself"},
    {ROW("ratio", K_NUM, ANY, CP(ratio))},
    {ROW("offset", K_NUM, ANY, CP(offset))},
};
static const ytable kCoupling = TABLE(kCouplingKeys, "coupling", NULL);

static lk_status one_coupling(yreader *R, int it, const char *ctx) {
  lk_coupling_spec s;
  memset(&s, 0, sizeof s);
  s.ratio = 1;
  ymap mp;
  lk_status st = ymap_open(R, &mp, it, &kCoupling, ctx);
  if (!st) st = ymap_read(&mp, &s);
  return st ? st : lk_builder_add_coupling(B, &s, it);
}

#define TE(f) (unsigned short)offsetof(lk_tether_spec, f)
static const ykey kTetherKeys[] = {
    {ROW("name", K_NAME, NAMED, TE(name))},
    {ROW("link", K_LINK, REQUIRED, TE(link))},
    {ROW("point", K_VEC3, 0, TE(point))},
    {ROW("other", K_LINK, WORLD_OK, TE(other)), .same = TE(link) + 1,
     .itself = "other is link itself"},
    {ROW("other_point", K_VEC3, 0, TE(other_point))},
    {ROW("length", K_NUM, POSITIVE | REQUIRED, TE(length))},
};
static const ytable kTether = TABLE(kTetherKeys, "tether", NULL);

static lk_status one_tether(yreader *R, int it, const char *ctx) {
  lk_tether_spec s;
  memset(&s, 0, sizeof s);
  s.other = "world";
  ymap mp;
  lk_status st = ymap_open(R, &mp, it, &kTether, ctx);
  if (!st) st = ymap_read(&mp, &s);
  return st ? st : lk_builder_add_tether(B, &s, it);
}

static lk_status constraint_loops(ymap *mp, int id, void *dst, const char *what) {
  (void)dst;
  return each_item(mp->R, id, what, "loops", one_loop);
}
static lk_status constraint_couplings(ymap *mp, int id, void *dst, const char *what) {
  (void)dst;
  return each_item(mp->R, id, what, "couplings", one_coupling);
}
static lk_status constraint_tethers(ymap *mp, int id, void *dst, const char *what) {
  (void)dst;
  return each_item(mp->R, id, what, "tethers", one_tether);
}

static const ykey kConstraintKeys[] = {
    {ROW("loops", K_FN, 0, 0), .fn = constraint_loops},
    {ROW("couplings", K_FN, 0, 0), .fn = constraint_couplings},
    {ROW("tethers", K_FN, 0, 0), .fn = constraint_tethers},
};
static const ytable kConstraints = TABLE(kConstraintKeys, NULL, NULL);

static lk_status sec_constraints(yreader *R, int id) {
  ymap mp;
  int none; /* the lists are added as they are read */
  lk_status st = ymap_open(R, &mp, id, &kConstraints, "constraints");
  return st ? st : ymap_read(&mp, &none);
}

/* ------------------------------------------------------------- initial */

typedef struct {
  const char *joint;
  int type, nq, nv;
  double q[7], v[6];
} initial_in;

static lk_status initial_joint(ymap *mp, int id, void *dst, const char *what) {
  yreader *R = mp->R;
  initial_in *in = dst;
  int li;
  lk_status st = ref_joint(R, id, what, 0, &in->joint, &li);
  if (!st) st = lk_builder_unique(B, "initial state for joint", in->joint, id);
  if (st) return st;
  say(mp->ctx, sizeof mp->ctx, "initial state of joint '%s'", in->joint);
  int t = B->links[li].jtype;
  in->type = t < 0 ? LK_JOINT_FIXED : t; /* an invalid type is reported with the link */
  in->nq = lk_joint_type_nq((lk_joint_type)in->type);
  in->nv = lk_joint_type_nv((lk_joint_type)in->type);
  return LK_OK;
}

/* q or v of an initial entry: n numbers (1-DoF joints may give a bare
 * number). */
static lk_status state_values(ymap *mp, const initial_in *in, int id, const char *key, int n,
                              double *out) {
  yreader *R = mp->R;
  char what[220];
  say(what, sizeof what, "%s: %s (%s joint)", mp->ctx, key,
      lk_joint_type_name((lk_joint_type)in->type));
  if (n == 1 && lk_ydoc_is_scalar(Y, id)) return lk_ydoc_double(Y, id, what, 0, out, ERR);
  if (n == 0)
    return lk_ydoc_error(Y, id, LK_SCHEMA_ERROR, ERR, "%s: a fixed joint has no state", what);
  return lk_ydoc_doubles(Y, id, what, n, 0, out, NULL, ERR);
}

static lk_status initial_q(ymap *mp, int id, void *dst, const char *what) {
  (void)what;
  yreader *R = mp->R;
  initial_in *in = dst;
  lk_status st = state_values(mp, in, id, "q", in->nq, in->q);
  if (st) return st;
  if (in->type == LK_JOINT_REVOLUTE) radians_only(R, id, mp->ctx, "initial q", in->q[0]);
  int qo = in->type == LK_JOINT_BALL ? 0 : (in->type == LK_JOINT_FREE ? 3 : -1);
  if (qo < 0) return LK_OK;
  const double *q = in->q + qo;
  double nn = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
  if (!(fabs(nn - 1) <= 1e-3))
    return lk_ydoc_error(Y, id, LK_SCHEMA_ERROR, ERR,
                         "%s: the quaternion (w, x, y, z) in q[%d..%d] has norm %g, expected 1",
                         mp->ctx, qo, qo + 3, nn);
  return LK_OK;
}

static lk_status initial_v(ymap *mp, int id, void *dst, const char *what) {
  (void)what;
  initial_in *in = dst;
  return state_values(mp, in, id, "v", in->nv, in->v);
}

static const ykey kInitialKeys[] = {
    {ROW("joint", K_FN, REQUIRED, 0), .fn = initial_joint},
    {ROW("q", K_FN, 0, 0), .fn = initial_q},
    {ROW("v", K_FN, 0, 0), .fn = initial_v},
};
static const ytable kInitial = TABLE(kInitialKeys, NULL, NULL);

static lk_status one_initial(yreader *R, int it, const char *ctx) {
  initial_in in;
  memset(&in, 0, sizeof in);
  ymap mp;
  lk_status st = ymap_open(R, &mp, it, &kInitial, ctx);
  if (!st) st = ymap_read(&mp, &in);
  if (st) return st;
  return lk_builder_set_initial(B, in.joint, ymap_has(&mp, "q") ? in.q : NULL, in.nq,
                                ymap_has(&mp, "v") ? in.v : NULL, in.nv, it);
}

static lk_status sec_initial(yreader *R, int id) {
  return each_item(R, id, "initial", "initial", one_initial);
}

/* ------------------------------------------------------------ simulate */

typedef struct {
  double duration;
  int every, nplot;
  const char *plot[LK_IO_MAX_PLOT_COLUMNS];
  int nphases;
  double phase_t[LK_IO_MAX_PHASES];
  const char *phase_name[LK_IO_MAX_PHASES];
} simulate_in;

/* phases: [[t, name], ...], times increasing: marked on the plot. */
static lk_status simulate_phases(ymap *mp, int id, void *dst, const char *what) {
  yreader *R = mp->R;
  simulate_in *in = dst;
  lk_status st = lk_ydoc_expect_seq(Y, id, what, ERR);
  if (st) return st;
  int n = lk_ydoc_seq_len(Y, id);
  if (n > LK_IO_MAX_PHASES)
    return lk_ydoc_error(Y, id, LK_SCHEMA_ERROR, ERR, "%s: %d phases, at most %d", what, n,
                         LK_IO_MAX_PHASES);
  for (int i = 0; i < n; i++) {
    char w[64];
    say(w, sizeof w, "%s[%d]", what, i);
    int it = lk_ydoc_seq_item(Y, id, i);
    if (!lk_ydoc_is_seq(Y, it) || lk_ydoc_seq_len(Y, it) != 2)
      return lk_ydoc_error(Y, it, LK_SCHEMA_ERROR, ERR,
                           "%s: expected [time, name], e.g. [1.5, lift]", w);
    if ((st = lk_ydoc_double(Y, lk_ydoc_seq_item(Y, it, 0), w, 0, &in->phase_t[i], ERR)) ||
        (st = lk_ydoc_string(Y, lk_ydoc_seq_item(Y, it, 1), w, LK_IO_NAME_MAX, &in->phase_name[i],
                             ERR)))
      return st;
    if (i > 0 && !(in->phase_t[i] > in->phase_t[i - 1]))
      return lk_ydoc_error(Y, it, LK_SCHEMA_ERROR, ERR,
                           "%s: time %g does not come after %g (times must increase)", w,
                           in->phase_t[i], in->phase_t[i - 1]);
  }
  in->nphases = n;
  return LK_OK;
}

static lk_status simulate_plot_columns(ymap *mp, int id, void *dst, const char *what) {
  yreader *R = mp->R;
  simulate_in *in = dst;
  lk_status st = lk_ydoc_expect_seq(Y, id, what, ERR);
  if (st) return st;
  int n = lk_ydoc_seq_len(Y, id);
  if (n > LK_IO_MAX_PLOT_COLUMNS)
    return lk_ydoc_error(Y, id, LK_SCHEMA_ERROR, ERR, "%s: %d columns, at most %d can be plotted",
                         what, n, LK_IO_MAX_PLOT_COLUMNS);
  for (int i = 0; i < n; i++) {
    char w[64];
    say(w, sizeof w, "%s[%d]", what, i);
    if ((st = lk_ydoc_string(Y, lk_ydoc_seq_item(Y, id, i), w, LK_IO_COLUMN_MAX - 1, &in->plot[i],
                             ERR)))
      return st;
  }
  in->nplot = n;
  return LK_OK;
}

#define SI(f) (unsigned short)offsetof(simulate_in, f)
static const ykey kSimulateKeys[] = {
    {ROW("duration", K_NUM, NONNEG, SI(duration))},
    {ROW("every", K_INT, 0, SI(every)), .lo = 1, .hi = 1000000000L},
    {ROW("plot_columns", K_FN, 0, 0), .fn = simulate_plot_columns},
    {ROW("phases", K_FN, 0, 0), .fn = simulate_phases},
};
static const ytable kSimulate = TABLE(kSimulateKeys, NULL, NULL);

static lk_status sec_simulate(yreader *R, int id) {
  R->simulate_node = id;
  simulate_in in;
  memset(&in, 0, sizeof in);
  ymap mp;
  lk_status st = ymap_open(R, &mp, id, &kSimulate, "simulate");
  if (!st) st = ymap_read(&mp, &in);
  lk_run_settings *r = R->run;
  if (st || !r) return st;
  if (ymap_has(&mp, "duration")) r->duration = in.duration;
  if (ymap_has(&mp, "every")) r->every = in.every;
  if (ymap_has(&mp, "plot_columns")) {
    for (int i = 0; i < in.nplot; i++)
      snprintf(r->plot_columns[i], sizeof r->plot_columns[i], "%s", in.plot[i]);
    r->nplot = in.nplot;
  }
  if (ymap_has(&mp, "phases")) {
    for (int i = 0; i < in.nphases; i++) {
      r->phase_t[i] = in.phase_t[i];
      snprintf(r->phase_name[i], sizeof r->phase_name[i], "%s", in.phase_name[i]);
    }
    r->nphases = in.nphases;
  }
  return LK_OK;
}

/* Plot columns name trajectory columns: check them once the model exists. */
static lk_status check_plot_columns(yreader *R) {
  int k = R->simulate_node ? lk_ydoc_map_get(Y, R->simulate_node, "plot_columns") : 0;
  if (!k) return LK_OK;
  lk_model *m = B->m;
  int n = lk_ydoc_seq_len(Y, k), nc = lk_trajectory_ncolumns(m);
  char(*names)[LK_IO_COLUMN_MAX] = lk_calloc((size_t)nc, LK_IO_COLUMN_MAX);
  const char **ptrs = LK_NEW_ARRAY(const char *, nc);
  if (!names || !ptrs) {
    lk_free(names);
    lk_free(ptrs);
    return lk_builder_oom(B);
  }
  for (int c = 0; c < nc; c++) {
    lk_trajectory_column_name(m, c, names[c], LK_IO_COLUMN_MAX);
    ptrs[c] = names[c];
  }
  lk_status st = LK_OK;
  for (int i = 0; i < n && !st; i++) {
    int id = lk_ydoc_seq_item(Y, k, i);
    const char *s = lk_ydoc_scalar(Y, id, NULL);
    if (lk_plot_column_index(m, s) >= 0) continue; /* any plottable column */
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

/* ------------------------------------------------------------ include */

/* `include:` a URDF (docs/format.md): read by its reader (urdf.c) into the
 * same model during the first pass, its links and joints registered here
 * under the include's prefix so that the YAML can refer to them (a loop,
 * an actuator, an initial state, a link hanging from one). */

typedef struct {
  const char *file, *prefix, *material;
  lk_transform origin;
  int base; /* 0 fixed, 1 free */
  int links;
} include_in;

static const char *const kBases[] = {"fixed", "free"};

static lk_status include_file(ymap *mp, int id, void *dst, const char *what) {
  yreader *R = mp->R;
  return lk_ydoc_string(Y, id, what, 4000, dst, ERR);
}

static lk_status include_prefix(ymap *mp, int id, void *dst, const char *what) {
  return read_name(mp->R, id, what, dst);
}

static lk_status include_links(ymap *mp, int id, void *dst, const char *what) {
  yreader *R = mp->R;
  lk_status st = lk_ydoc_expect_map(Y, id, what, ERR);
  if (!st) *(int *)dst = id;
  return st;
}

#define IN(f) (unsigned short)offsetof(include_in, f)
static const ykey kIncludeKeys[] = {
    {ROW("file", K_FN, REQUIRED, IN(file)), .fn = include_file},
    {ROW("prefix", K_FN, 0, IN(prefix)), .fn = include_prefix},
    {ROW("parent", K_SKIP, 0, 0)},
    {ROW("origin", K_ORIGIN, 0, IN(origin))},
    {ROW("base", K_ENUM, 0, IN(base)), ENUM(kBases)},
    {ROW("material", K_MATERIAL, 0, IN(material))},
    {ROW("links", K_FN, 0, IN(links)), .fn = include_links},
};
static const ytable kInclude = TABLE(kIncludeKeys, NULL, NULL);

static const ykey kIncludeLinkKeys[] = {
    {ROW("material", K_MATERIAL, 0, 0)},
};
static const ytable kIncludeLink = TABLE(kIncludeLinkKeys, NULL, NULL);

/* The outer placement's prefix (loading this file into another model). */
static const char *outer_prefix(yreader *R) {
  return B->mo && B->mo->prefix ? B->mo->prefix : "";
}

static const char *joined(yreader *R, const char *a, const char *b) {
  char buf[3 * LK_IO_NAME_MAX + 8];
  snprintf(buf, sizeof buf, "%s%s", a, b);
  return lk_builder_strdup(B, buf);
}

/* A material as the model names it (the builder's rule for placement). */
static const char *model_material(yreader *R, const char *name) {
  if (!name || !*outer_prefix(R)) return name;
  if (strcmp(name, "default") == 0 && !B->defines_default) return name;
  return joined(R, outer_prefix(R), name);
}

typedef struct {
  yreader *R;
  int item;
  const char *prefix;
  const char **names; /* the URDF's link names, as the file gives them */
  int n, cap;
} include_ctx;

static lk_status include_on_link(void *user, const char *link, const char *joint, int jtype) {
  include_ctx *c = user;
  yreader *R = c->R;
  if (c->n == c->cap) {
    int nc = c->cap ? 2 * c->cap : 16;
    const char **p = lk_realloc(c->names, (size_t)nc * sizeof *p);
    if (!p) return lk_builder_oom(B);
    c->names = p;
    c->cap = nc;
  }
  lk_blink r = {joined(R, c->prefix, link), joined(R, c->prefix, joint), jtype, -1, c->item, 0,
                c->item, 1};
  if (!r.name || !r.joint || !(c->names[c->n++] = lk_builder_strdup(B, link)))
    return lk_builder_oom(B);
  lk_status st = lk_builder_unique(B, "link", r.name, c->item);
  if (!st) st = lk_builder_unique(B, "joint", r.joint, c->item);
  if (!st) st = lk_builder_push_link(B, &r, NULL);
  return st;
}

static lk_status one_include(yreader *R, int it, const char *ctx) {
  include_in in;
  memset(&in, 0, sizeof in);
  in.origin = lk_tf_identity();
  ymap mp;
  lk_status st = ymap_open(R, &mp, it, &kInclude, ctx);
  if (!st) st = ymap_read(&mp, &in);
  if (st) return st;
  /* The file, relative to this one. */
  char path[4200];
  const char *slash = R->label ? strrchr(R->label, '/') : NULL;
  if (in.file[0] == '/' || !slash)
    snprintf(path, sizeof path, "%s", in.file);
  else
    snprintf(path, sizeof path, "%.*s/%s", (int)(slash - R->label), R->label, in.file);
  int fk = ymap_value(&mp, "file");
  size_t max = R->o && R->o->max_bytes ? R->o->max_bytes : LK_IO_MAX_BYTES_DEFAULT;
  char *text;
  size_t len;
  lk_error ferr;
  if (lk_io_input(R->o, path, 1, &ferr) || lk_ydoc_read_file(path, max, &text, &len, &ferr))
    return lk_ydoc_error(Y, fk, ferr.status, ERR, "%s: file '%s': %s", ctx, path, ferr.message);
  char root[32];
  lk_xml_root_name(text, len, root, sizeof root);
  if (strcmp(root, "robot") != 0) {
    lk_free(text);
    return lk_ydoc_error(Y, fk, LK_SCHEMA_ERROR, ERR,
                         "%s: file: '%s' is not a URDF (<robot>); only URDF files are included "
                         "(YAML files are composed with lk_model_load_file_into)",
                         ctx, in.file);
  }
  /* Where it goes: under the parent (default the world) at origin. */
  int pk = ymap_value(&mp, "parent");
  const char *parent = "world";
  if (pk && (st = lk_ydoc_string(Y, pk, "include: parent", LK_IO_NAME_MAX, &parent, ERR))) {
    lk_free(text);
    return st;
  }
  lk_merge_options mo;
  lk_merge_options_default(&mo);
  mo.pose = in.origin;
  if (strcmp(parent, "world") == 0) {
    if (B->mo) {
      mo.parent = B->mo->parent;
      mo.pose = lk_tf_mul(&B->mo->pose, &in.origin);
    }
  } else {
    mo.parent = joined(R, outer_prefix(R), parent);
  }
  include_ctx c = {R, it, in.prefix ? in.prefix : "", NULL, 0, 0};
  lk_urdf_link_override *ov = NULL;
  int nov = in.links ? lk_ydoc_map_len(Y, in.links) : 0;
  if (nov && !(ov = LK_NEW_ARRAY(lk_urdf_link_override, nov))) st = lk_builder_oom(B);
  for (int i = 0; i < nov && !st; i++) {
    int k = lk_ydoc_map_key(Y, in.links, i), v = lk_ydoc_map_value(Y, in.links, i);
    char w[200];
    ov[i].link = lk_ydoc_scalar(Y, k, NULL);
    say(w, sizeof w, "%s: links: %s", ctx, ov[i].link ? ov[i].link : "?");
    ymap lm;
    const char *mat = NULL;
    st = ymap_open(R, &lm, v, &kIncludeLink, w);
    if (!st) st = ymap_read(&lm, &mat);
    ov[i].material = model_material(R, mat);
  }
  lk_urdf_options uo;
  lk_urdf_options_default(&uo);
  uo.base = in.base ? LK_JOINT_FREE : LK_JOINT_FIXED;
  uo.material = model_material(R, in.material);
  uo.prefix = joined(R, outer_prefix(R), c.prefix);
  uo.overrides = ov;
  uo.noverrides = nov;
  uo.on_link = include_on_link;
  uo.user = &c;
  lk_load_options lo;
  lk_load_options_default(&lo);
  lo.max_bytes = max;
  lo.package_path = R->o ? R->o->package_path : NULL;
  if (R->o) lo.input = R->o->input, lo.input_ctx = R->o->input_ctx;
  if (!st && !uo.prefix) st = lk_builder_oom(B);
  const char *label = lk_builder_strdup(B, path);
  if (!st && !label) st = lk_builder_oom(B);
  if (!st) st = lk_urdf_read(B->m, &mo, text, len, label, &lo, &uo, ERR);
  /* Every per-link setting names a link of the file. */
  for (int i = 0; i < nov && !st; i++) {
    int found = 0;
    for (int j = 0; j < c.n && !found; j++) found = strcmp(c.names[j], ov[i].link) == 0;
    if (found) continue;
    int k = lk_ydoc_map_key(Y, in.links, i);
    const char *sug = lk_suggest(ov[i].link, c.names, c.n);
    if (sug)
      st = lk_ydoc_error(Y, k, LK_SCHEMA_ERROR, ERR,
                         "%s: links: '%s' is not a link of %s (did you mean '%s'?)", ctx,
                         ov[i].link, in.file, sug);
    else
      st = lk_ydoc_error(Y, k, LK_SCHEMA_ERROR, ERR, "%s: links: '%s' is not a link of %s", ctx,
                         ov[i].link, in.file);
  }
  lk_free(ov);
  lk_free(c.names);
  lk_free(text);
  return st;
}

static lk_status collect_includes(yreader *R, int id) {
  return each_item(R, id, "include", "include", one_include);
}

/* Once every link is registered: an include's parent is a link or the
 * world. */
static lk_status check_include_parents(yreader *R, int id) {
  int n = lk_ydoc_seq_len(Y, id);
  for (int i = 0; i < n; i++) {
    int it = lk_ydoc_seq_item(Y, id, i), pk = lk_ydoc_map_get(Y, it, "parent");
    char what[64];
    say(what, sizeof what, "include[%d]: parent", i);
    const char *out;
    lk_status st = pk ? ref_link(R, pk, what, 1, &out, NULL) : LK_OK;
    if (st) return st;
  }
  return LK_OK;
}

static lk_status top_include(ymap *mp, int id, void *dst, const char *w) {
  (void)mp, (void)id, (void)dst, (void)w; /* read in the first pass */
  return LK_OK;
}

/* ------------------------------------------------------ the first pass */

static lk_status collect_materials(yreader *R, int id) {
  lk_status st = lk_ydoc_expect_seq(Y, id, "materials", ERR);
  if (st) return st;
  int n = lk_ydoc_seq_len(Y, id);
  for (int i = 0; i < n; i++) {
    int it = lk_ydoc_seq_item(Y, id, i), k;
    char ctx[64];
    const char *name;
    say(ctx, sizeof ctx, "materials[%d]", i);
    if ((st = lk_ydoc_expect_map(Y, it, ctx, ERR))) return st;
    k = lk_ydoc_map_get(Y, it, "name");
    if (!k || lk_ydoc_is_null(Y, k))
      return lk_ydoc_error(Y, k ? k : it, LK_SCHEMA_ERROR, ERR, "%s: missing required key 'name'",
                           ctx);
    strcat(ctx, ": name");
    if ((st = read_name(R, k, ctx, &name))) return st;
    if ((st = lk_builder_unique(B, "material", name, k))) return st;
    if ((st = lk_builder_push_material(B, name, k))) return st;
  }
  return LK_OK;
}

static lk_status collect_links(yreader *R, int id) {
  lk_status st = lk_ydoc_expect_seq(Y, id, "links", ERR);
  if (st) return st;
  int n = lk_ydoc_seq_len(Y, id);
  for (int i = 0; i < n; i++) {
    lk_blink r = {NULL, NULL, -1, -1, 0, 0, 0, 0};
    int it = lk_ydoc_seq_item(Y, id, i), k;
    char ctx[64], what[80];
    say(ctx, sizeof ctx, "links[%d]", i);
    if ((st = lk_ydoc_expect_map(Y, it, ctx, ERR))) return st;
    k = lk_ydoc_map_get(Y, it, "name");
    if (!k || lk_ydoc_is_null(Y, k))
      return lk_ydoc_error(Y, k ? k : it, LK_SCHEMA_ERROR, ERR, "%s: missing required key 'name'",
                           ctx);
    say(what, sizeof what, "%s: name", ctx);
    if ((st = read_name(R, k, what, &r.name))) return st;
    if (strcmp(r.name, "world") == 0)
      return lk_ydoc_error(Y, k, LK_SCHEMA_ERROR, ERR,
                           "%s: 'world' is the name of the world; give the link another name", ctx);
    if ((st = lk_builder_unique(B, "link", r.name, k))) return st;
    r.loc = it;
    r.joint = r.name;
    r.joint_loc = it;
    /* The joint's name and type, for references to it; the second pass
     * checks the joint itself (jtype -1: not known yet). */
    int j = lk_ydoc_map_get(Y, it, "joint"), jn = 0;
    if (!j) {
      r.jtype = LK_JOINT_FIXED;
    } else if (lk_ydoc_is_scalar(Y, j)) {
      r.jtype = lk_joint_type_from_name(lk_ydoc_scalar(Y, j, NULL));
    } else if (lk_ydoc_is_map(Y, j)) {
      r.joint_loc = j;
      if ((jn = lk_ydoc_map_get(Y, j, "name"))) {
        say(what, sizeof what, "link '%s': joint: name", r.name);
        if ((st = read_name(R, jn, what, &r.joint))) return st;
      }
      int jt = lk_ydoc_map_get(Y, j, "type");
      r.jtype = jt ? lk_joint_type_from_name(lk_ydoc_scalar(Y, jt, NULL)) : -1;
    }
    if ((st = lk_builder_unique(B, "joint", r.joint, jn ? jn : k))) return st;
    if ((st = lk_builder_push_link(B, &r, NULL))) return st;
  }
  return LK_OK;
}

/* ----------------------------------------------------------- the whole */

static lk_status top_name(ymap *mp, int id, void *dst, const char *what) {
  (void)dst, (void)what;
  yreader *R = mp->R;
  const char *s;
  lk_status st = lk_ydoc_string(Y, id, "name", 255, &s, ERR);
  return st ? st : lk_builder_set_name(B, s);
}

static lk_status top_description(ymap *mp, int id, void *dst, const char *what) {
  (void)dst, (void)what;
  yreader *R = mp->R;
  const char *s;
  lk_status st = lk_ydoc_string(Y, id, "description", 1 << 20, &s, ERR);
  if (!st && R->run) snprintf(R->run->description, sizeof R->run->description, "%s", s);
  return st;
}

/* The sections, as handlers of the top-level mapping. */
#define SECTION_FN(name)                                                   \
  static lk_status top_##name(ymap *mp, int id, void *dst, const char *w) { \
    (void)dst, (void)w;                                                    \
    return sec_##name(mp->R, id);                                          \
  }
SECTION_FN(options)
SECTION_FN(materials)
SECTION_FN(world)
SECTION_FN(links)
SECTION_FN(actuators)
SECTION_FN(loads)
SECTION_FN(contacts)
SECTION_FN(constraints)
SECTION_FN(initial)
SECTION_FN(simulate)
SECTION_FN(supports)
SECTION_FN(exclude)
SECTION_FN(keyframes)
SECTION_FN(analysis)

static const ykey kTopKeys[] = {
    {ROW("name", K_FN, 0, 0), .fn = top_name},
    {ROW("description", K_FN, 0, 0), .fn = top_description},
    {ROW("options", K_FN, SECTION, 0), .fn = top_options},
    {ROW("materials", K_FN, SECTION, 0), .fn = top_materials},
    {ROW("world", K_FN, SECTION, 0), .fn = top_world},
    {ROW("links", K_FN, SECTION, 0), .fn = top_links},
    {ROW("actuators", K_FN, SECTION, 0), .fn = top_actuators},
    {ROW("loads", K_FN, SECTION, 0), .fn = top_loads},
    {ROW("contacts", K_FN, SECTION, 0), .fn = top_contacts},
    {ROW("constraints", K_FN, SECTION, 0), .fn = top_constraints},
    {ROW("initial", K_FN, SECTION, 0), .fn = top_initial},
    {ROW("simulate", K_FN, SECTION, 0), .fn = top_simulate},
    {ROW("supports", K_FN, SECTION, 0), .fn = top_supports},
    {ROW("exclude", K_FN, SECTION, 0), .fn = top_exclude},
    {ROW("keyframes", K_FN, SECTION, 0), .fn = top_keyframes},
    {ROW("analysis", K_FN, SECTION, 0), .fn = top_analysis},
    {ROW("include", K_FN, SECTION, 0), .fn = top_include},
};
static const ytable kTop = TABLE(kTopKeys, NULL, NULL);

/* ---------------------------------------------- initial penetration */

/* Issue 14.8: two geoms overlapping at the initial state by more than the
 * smaller one's size is a unit or placement mistake (a sphere of radius 40
 * sunk 40 m into the floor): an error at the geom; by more than a tenth of
 * it, a warning. options: {initial_overlaps: allowed} says they are meant
 * (what linkage convert writes where the MJCF or URDF source, whose readers
 * have no such check, overlaps). geom k of the model is the k-th geom site
 * (the builder adds geoms in order and finalize keeps it). */
static int geom_loc(const lk_builder *b, int g) {
  int n = 0, loc = 0;
  for (int i = 0; i < b->nsites; i++)
    if (b->sites[i].kind == LK_BK_GEOM && n++ == g) loc = b->sites[i].loc;
  /* Geoms from an included file are not this file's sites: then the
   * mapping is not one to one, and the report is at the file. */
  return n == lk_model_ngeom(b->m) ? loc : 0;
}

lk_status lk_io_initial_overlaps(const lk_model *m,
                                 lk_status (*fn)(void *user, int ga, int gb, double depth,
                                                 double size),
                                 void *user) {
  if (lk_model_ngeom(m) < 2) return LK_OK;
  lk_data *d = lk_data_new(m);
  if (!d) return LK_OUT_OF_MEMORY;
  lk_status st = lk_forward_kinematics(m, d);
  if (!st) st = lk_collide(m, d, NULL);
  if (st) { /* a state the step would refuse too: reported there */
    lk_data_free(d);
    return LK_OK;
  }
  for (int i = 0, n = lk_data_ncontact(d); i < n && !st;) {
    const lk_contact *c = lk_data_contact(d, i);
    double depth = c->depth; /* the deepest point of the pair (canonical order: adjacent) */
    for (i++; i < n && lk_data_contact(d, i)->geom_a == c->geom_a &&
              lk_data_contact(d, i)->geom_b == c->geom_b;
         i++)
      depth = fmax(depth, lk_data_contact(d, i)->depth);
    double size = fmin(lk_model_geom_extent(&m->geom[c->geom_a].spec),
                       lk_model_geom_extent(&m->geom[c->geom_b].spec));
    if (depth > 0.1 * size) st = fn(user, c->geom_a, c->geom_b, depth, size);
  }
  lk_data_free(d);
  return st;
}

/* One overlap of the initial state: an error at the geom when as deep as
 * the shapes' size, else a warning. */
static lk_status one_overlap(void *user, int ga, int gb, double depth, double size) {
  yreader *R = user;
  const lk_model *m = B->m;
  char a[96], b[96];
  lk_model_geom_label(m, ga, a, sizeof a);
  lk_model_geom_label(m, gb, b, sizeof b);
  int loc = geom_loc(B, ga);
  if (depth >= size)
    return lk_ydoc_error(Y, loc, LK_SCHEMA_ERROR, ERR,
                         "geom '%s': at the initial state it overlaps geom '%s' by %g m, as "
                         "much as or more than the size of the shapes (%g m): check the units "
                         "(m) and the placement",
                         a, b, depth, size);
  warn_at(R, loc,
          "geom '%s': at the initial state it overlaps geom '%s' by %g m, %.0f%% of the "
          "size of the shapes (%g m)",
          a, b, depth, 100 * depth / size, size);
  return LK_OK;
}

static lk_status check_penetration(yreader *R) {
  lk_status st = lk_io_initial_overlaps(B->m, one_overlap, R);
  /* LK_OUT_OF_MEMORY: the data's (one_overlap returns none) */
  return st == LK_OUT_OF_MEMORY ? lk_builder_oom(B) : st;
}

static lk_status build(yreader *R) {
  int root = lk_ydoc_root(Y);
  const char *ctx = "the mechanism description";
  lk_status st = lk_ydoc_expect_map(Y, root, ctx, ERR);
  ymap mp;
  if (!st) st = ymap_open(R, &mp, root, &kTop, ctx);
  if (st) return st;
  int k, inc = lk_ydoc_map_get(Y, root, "include");
  if (inc && lk_ydoc_is_null(Y, inc)) inc = 0;
  /* The unit of angles first: options may come after the links. */
  if ((k = lk_ydoc_map_get(Y, root, "options")) && !lk_ydoc_is_null(Y, k)) {
    int a = lk_ydoc_is_scalar(Y, k) ? 0 : lk_ydoc_map_get(Y, k, "angle");
    if (a && (st = lk_ydoc_enum(Y, a, "options: angle", kAngleUnits, COUNT(kAngleUnits),
                                &R->degrees, ERR)))
      return st;
    int ov = lk_ydoc_is_scalar(Y, k) ? 0 : lk_ydoc_map_get(Y, k, "initial_overlaps");
    if (ov && (st = lk_ydoc_enum(Y, ov, "options: initial_overlaps", kOverlaps, COUNT(kOverlaps),
                                 &R->overlaps_allowed, ERR)))
      return st;
  }
  if ((k = lk_ydoc_map_get(Y, root, "materials")) && (st = collect_materials(R, k))) return st;
  if (inc && (st = lk_builder_names_done(B))) return st; /* materials, for the includes */
  if (inc && (st = collect_includes(R, inc))) return st;
  if (inc && (!(k = lk_ydoc_map_get(Y, root, "links")) || lk_ydoc_is_null(Y, k))) {
    /* The included robot is the mechanism. */
  } else if (!(k = lk_ydoc_map_get(Y, root, "links")) || lk_ydoc_is_null(Y, k)) {
    /* A world of only fixed geoms is not a mechanism: nothing would move,
     * and an empty file section is more likely a mistake. */
    return lk_ydoc_error(Y, k ? k : root, LK_SCHEMA_ERROR, ERR,
                         "%s: missing required key 'links'", ctx);
  }
  if (k && !lk_ydoc_is_null(Y, k) && (st = collect_links(R, k))) return st;
  if (B->nlinks == 0)
    return lk_ydoc_error(Y, k ? k : root, LK_SCHEMA_ERROR, ERR,
                         "links: the list is empty; a mechanism needs a link");
  if ((st = lk_builder_names_done(B))) return st;
  if (inc && (st = check_include_parents(R, inc))) return st;

  /* The sections in the file's order. */
  int n = lk_ydoc_map_len(Y, root);
  for (int i = 0; i < n && !st; i++) {
    const ykey *key = &kTop.keys[ymap_row(&mp, lk_ydoc_scalar(Y, lk_ydoc_map_key(Y, root, i), NULL))];
    int v = lk_ydoc_map_value(Y, root, i);
    /* "contacts:" with nothing under it: an empty section. */
    if ((key->flags & SECTION) && lk_ydoc_is_null(Y, v)) continue;
    st = key->fn(&mp, v, NULL, key->key);
  }
  if (!st) st = lk_builder_finalize(B);
  if (!st && !B->mo) st = check_plot_columns(R);
  if (!st && !B->mo && !R->overlaps_allowed) st = check_penetration(R);
  for (int i = 0; i < R->nwarn && B->m->nwarn < LK_MODEL_MAX_WARNINGS; i++)
    snprintf(B->m->warn[B->m->nwarn++], sizeof B->m->warn[0], "%s", R->warn[i]);
  return st;
}

/* --------------------------------------------- finalize, located again */

/* lk_model_finalize() names the element at fault; the builder found its
 * mapping. Point within it at the earliest key the message names, so the
 * report points at the value to change. */
static int yaml_refine(void *src, int node, const char *rest) {
  lk_ydoc *y = src;
  int best = 0;
  const char *bestpos = NULL;
  int n = lk_ydoc_map_len(y, node);
  for (int i = 0; i < n; i++) {
    const char *k = lk_ydoc_scalar(y, lk_ydoc_map_key(y, node, i), NULL);
    if (!k) continue;
    size_t kl = strlen(k);
    for (const char *p = strstr(rest, k); p; p = strstr(p + 1, k)) {
      int left = p == rest || !(p[-1] == '_' || (p[-1] >= 'a' && p[-1] <= 'z'));
      int right = !(p[kl] == '_' || (p[kl] >= 'a' && p[kl] <= 'z'));
      if (left && right) {
        if (!bestpos || p < bestpos) {
          bestpos = p;
          best = lk_ydoc_map_value(y, node, i);
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
    int v = lk_ydoc_map_get(y, node, synonyms[i].key);
    if (p && v && (!bestpos || p < bestpos)) {
      bestpos = p;
      best = v;
    }
  }
  return best;
}

static lk_status yaml_error(void *src, int loc, lk_status status, lk_error *err, const char *msg) {
  return lk_ydoc_error(src, loc, status, err, "%s", msg);
}

static void yaml_position(void *src, int loc, int *line, int *column) {
  lk_ydoc_position(src, loc, line, column);
}

static const lk_source kYamlSource = {yaml_error, yaml_position, yaml_refine, 1};

lk_status lk_yaml_read(lk_model *m, const lk_merge_options *mo, const char *text, size_t len,
                       const char *label, const lk_load_options *o, lk_error *err) {
  lk_ydoc y;
  lk_status st = lk_ydoc_load(&y, text, len, label, err);
  if (st) return st;
  for (int i = 0; i < o->nset && !st; i++) st = lk_ydoc_override(&y, o->set[i], err);
  if (!st) {
    yreader R;
    memset(&R, 0, sizeof R);
    R.y = &y;
    R.err = err;
    R.run = o->run;
    R.o = o;
    R.label = label;
    lk_builder_init(&R.b, m, mo, &kYamlSource, &y, err);
    st = build(&R);
    lk_builder_free(&R.b);
  }
  lk_ydoc_free(&y);
  return st;
}
