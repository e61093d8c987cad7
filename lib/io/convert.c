/* lk_model_convert_file(): a URDF robot, or an MJCF model of what YAML
 * says (links, geoms and meshes, materials, actuators, exclusions,
 * couplings, loops, options, the initial state and keyframes), as the
 * equivalent YAML description; what YAML cannot say is refused, each
 * element named
 * (`linkage convert robot.urdf -o robot.yaml`).
 *
 * "Equivalent" is to the bit: loading the YAML gives the same model as
 * loading the URDF. Finalize normalizes axes and re-orthonormalizes
 * rotations, and doing that twice does not give the same bits (about 40%
 * of random rotations differ in the last place), so the YAML is written
 * from what the reader handed the model *before* finalize (the builder's
 * record hook), not from the finalized model: the same specs in, the same
 * model out. Numbers are the shortest text that reads back as the same
 * double (lk_format_double); a rotation is written as rpy when rpy gives
 * it back to the bit, else as the matrix itself (`rotation:`). */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/internal.h"
#include "io/io_internal.h"
#include "io/builder.h"
#include "io/mjcf.h"
#include "io/urdf.h"
#include "io/xml.h"
#include "io/ydoc.h"
#include "linkage/io.h"

typedef struct {
  char *p;
  size_t n, cap;
  int failed; /* out of memory */
} sbuf;

static void put(sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(sbuf *b, const char *fmt, ...) {
  if (b->failed) return;
  for (;;) {
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(b->p ? b->p + b->n : NULL, b->p ? b->cap - b->n : 0, fmt, ap);
    va_end(ap);
    if (k < 0) {
      b->failed = 1;
      return;
    }
    if (b->p && b->n + (size_t)k < b->cap) {
      b->n += (size_t)k;
      return;
    }
    size_t nc = b->cap ? 2 * b->cap : 4096;
    while (nc < b->n + (size_t)k + 1) nc *= 2;
    char *q = lk_realloc(b->p, nc);
    if (!q) {
      b->failed = 1;
      return;
    }
    b->p = q;
    b->cap = nc;
  }
}

typedef struct {
  const lk_mesh *mesh;
  char *path; /* absolute when it can be */
  double scale[3];
} mesh_entry;

typedef struct {
  sbuf links, couplings, loops, exclude, world, materials, actuators;
  const char *link; /* the link whose geoms come next */
  int geoms;        /* of that link, so far */
  sbuf cannot;      /* what YAML cannot say, each named: "a; b; c" */
  int ncannot;
  char mesh[4096]; /* URDF: the next mesh geom's file (absolute) and scale */
  double mesh_scale[3];
  mesh_entry *meshes; /* MJCF: each <mesh>'s file */
  int nmeshes;
} writer;

static void cannot(writer *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void cannot(writer *w, const char *fmt, ...) {
  char item[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(item, sizeof item, fmt, ap);
  va_end(ap);
  put(&w->cannot, "%s%s", w->ncannot++ ? "; " : "", item);
}

/* A number that reads back as itself. */
static const char *num(double x, char b[LK_FORMAT_DOUBLE_MAX]) { return lk_format_double(x, b); }

static void vec(sbuf *s, const double *v, int n) {
  char b[LK_FORMAT_DOUBLE_MAX];
  put(s, "[");
  for (int i = 0; i < n; i++) put(s, "%s%s", i ? ", " : "", num(v[i], b));
  put(s, "]");
}

/* Names are [A-Za-z0-9_-]; those YAML would read as something else are
 * quoted. */
static void name(sbuf *s, const char *n) {
  static const char *const words[] = {"true", "false", "null", "yes", "no", "on", "off", "y", "n"};
  int quote = !((n[0] >= 'a' && n[0] <= 'z') || (n[0] >= 'A' && n[0] <= 'Z') || n[0] == '_');
  for (size_t i = 0; i < sizeof words / sizeof words[0] && !quote; i++)
    quote = strcasecmp(n, words[i]) == 0;
  put(s, quote ? "\"%s\"" : "%s", n);
}

/* A YAML double-quoted string. */
static void quoted(sbuf *s, const char *t) {
  put(s, "\"");
  for (const char *c = t; *c; c++)
    put(s, (*c == '"' || *c == '\\') ? "\\%c" : (*c < 0x20 ? "\\x%02x" : "%c"), *c);
  put(s, "\"");
}

static int is_identity(const lk_mat3 *R) {
  lk_mat3 I = lk_m3_identity();
  return memcmp(R, &I, sizeof I) == 0;
}

static int has_p(const lk_transform *T) {
  return T->p.x != 0 || T->p.y != 0 || T->p.z != 0 || signbit(T->p.x) || signbit(T->p.y) ||
         signbit(T->p.z);
}

/* {xyz, rpy | rotation} ("{}" for the identity). */
static void transform(sbuf *s, const lk_transform *T) {
  int hp = has_p(T), hr = !is_identity(&T->R);
  double p[3] = {T->p.x, T->p.y, T->p.z};
  put(s, "{");
  if (hp) {
    put(s, "xyz: ");
    vec(s, p, 3);
  }
  if (hr) {
    double rpy[3];
    lk_m3_to_rpy(&T->R, &rpy[0], &rpy[1], &rpy[2]);
    lk_mat3 back = lk_m3_from_rpy(rpy[0], rpy[1], rpy[2]);
    put(s, "%s", hp ? ", " : "");
    if (memcmp(&back, &T->R, sizeof back) == 0) {
      put(s, "rpy: ");
      vec(s, rpy, 3);
    } else {
      put(s, "rotation: [");
      for (int r = 0; r < 3; r++) {
        put(s, "%s", r ? ", " : "");
        vec(s, T->R.m[r], 3);
      }
      put(s, "]");
    }
  }
  put(s, "}");
}

/* origin: {xyz, rpy | rotation}, or nothing for the identity. */
static void origin(sbuf *s, const char *indent, const lk_transform *T) {
  if (!has_p(T) && is_identity(&T->R)) return;
  put(s, "%sorigin: ", indent);
  transform(s, T);
  put(s, "\n");
}

static void one_link(writer *w, const lk_link_spec *l) {
  sbuf *s = &w->links;
  char b[LK_FORMAT_DOUBLE_MAX];
  put(s, "  - name: ");
  name(s, l->name);
  put(s, "\n");
  if (l->parent && strcmp(l->parent, "world") != 0) {
    put(s, "    parent: ");
    name(s, l->parent);
    put(s, "\n");
  }
  const lk_joint_spec *j = &l->joint;
  int named = j->name && *j->name && strcmp(j->name, l->name) != 0;
  int one_dof = j->type == LK_JOINT_REVOLUTE || j->type == LK_JOINT_PRISMATIC;
  if (named || j->type != LK_JOINT_FIXED) {
    put(s, "    joint: {");
    if (named) {
      put(s, "name: ");
      name(s, j->name);
      put(s, ", ");
    }
    put(s, "type: %s", lk_joint_type_name(j->type));
    if (one_dof) {
      double a[3] = {j->axis.x, j->axis.y, j->axis.z};
      put(s, ", axis: ");
      vec(s, a, 3);
    }
    if (j->limited && one_dof) {
      double lim[2] = {j->lower, j->upper};
      put(s, ", limit: ");
      vec(s, lim, 2);
    }
    if (j->type != LK_JOINT_FIXED) {
      if (j->damping != 0) put(s, ", damping: %s", num(j->damping, b));
      if (j->stiffness != 0) put(s, ", stiffness: %s", num(j->stiffness, b));
      if (j->rest != 0 && one_dof) put(s, ", rest: %s", num(j->rest, b));
      if (j->armature != 0) put(s, ", armature: %s", num(j->armature, b));
      if (j->friction != 0) put(s, ", friction: %s", num(j->friction, b));
    }
    put(s, "}\n");
  }
  origin(s, "    ", &l->origin);
  const lk_mat3 *I = &l->inertia;
  int has_inertia = 0;
  for (int r = 0; r < 3; r++)
    for (int c = 0; c < 3; c++) has_inertia |= I->m[r][c] != 0;
  if (l->mass != 0 || j->type != LK_JOINT_FIXED || has_inertia)
    put(s, "    mass: %s\n", num(l->mass, b));
  if (l->com.x != 0 || l->com.y != 0 || l->com.z != 0) {
    double c[3] = {l->com.x, l->com.y, l->com.z};
    put(s, "    com: ");
    vec(s, c, 3);
    put(s, "\n");
  }
  if (has_inertia || l->mass > 0) {
    double v[6] = {I->m[0][0], I->m[1][1], I->m[2][2], I->m[0][1], I->m[0][2], I->m[1][2]};
    put(s, "    inertia: ");
    vec(s, v, 6);
    put(s, "\n");
  }
  w->link = l->name;
  w->geoms = 0;
}

/* "geom 'g' of link 'l'" for messages. */
static const char *geom_what(const lk_geom_spec *g, char *buf, size_t n) {
  const char *l = g->link ? g->link : "world";
  if (g->name)
    snprintf(buf, n, "geom '%.60s' of %s%.60s%s", g->name, strcmp(l, "world") ? "link '" : "",
             l, strcmp(l, "world") ? "'" : "");
  else
    snprintf(buf, n, "a geom of %s%.60s%s", strcmp(l, "world") ? "link '" : "", l,
             strcmp(l, "world") ? "'" : "");
  return buf;
}

static void one_geom(writer *w, const lk_geom_spec *g) {
  char b[LK_FORMAT_DOUBLE_MAX], what[160];
  /* A world geom (MJCF's floor) goes to the world section. */
  int world = !g->link || strcmp(g->link, "world") == 0;
  sbuf *s = world ? &w->world : &w->links;
  const char *in = world ? "  " : "    "; /* the list's indent */
  if (!world && (!w->link || strcmp(g->link, w->link) != 0)) {
    cannot(w, "%s (after another link's)", geom_what(g, what, sizeof what));
    return;
  }
  if (g->type == LK_GEOM_PLANE &&
      (!world || g->size[0] != 0 || g->size[1] != 0 || g->size[2] != 0)) {
    cannot(w, "%s (a plane %s)", geom_what(g, what, sizeof what),
           world ? "of limited size" : "on a link");
    return;
  }
  /* The mesh's file: URDF tells it just before, MJCF at its <mesh>. */
  const char *file = NULL;
  const double *scale = NULL;
  if (g->type == LK_GEOM_MESH) {
    if (w->mesh[0]) {
      file = w->mesh;
      scale = w->mesh_scale;
    }
    for (int i = 0; i < w->nmeshes && !file; i++)
      if (w->meshes[i].mesh == g->mesh) file = w->meshes[i].path, scale = w->meshes[i].scale;
    if (!file) {
      cannot(w, "%s (an ellipsoid: a mesh of no file)", geom_what(g, what, sizeof what));
      return;
    }
  }
  if (world ? !s->p : w->geoms++ == 0) put(s, "%sgeoms:\n", in);
  put(s, "%s  - type: %s\n", in, lk_geom_type_name(g->type));
  if (g->name) {
    put(s, "%s    name: ", in);
    name(s, g->name);
    put(s, "\n");
  }
  switch (g->type) {
    case LK_GEOM_MESH:
      /* The same file and scale read back as the same hull. */
      put(s, "%s    file: ", in);
      quoted(s, file);
      put(s, "\n%s    scale: ", in);
      vec(s, scale, 3);
      put(s, "\n");
      w->mesh[0] = 0;
      break;
    case LK_GEOM_BOX:
      put(s, "%s    half_extents: ", in);
      vec(s, g->size, 3);
      put(s, "\n");
      break;
    case LK_GEOM_PLANE: /* the half-space z <= 0 of its pose */
      break;
    case LK_GEOM_SPHERE:
      put(s, "%s    radius: %s\n", in, num(g->size[0], b));
      break;
    default:
      put(s, "%s    radius: %s\n", in, num(g->size[0], b));
      put(s, "%s    half_length: %s\n", in, num(g->size[1], b));
      break;
  }
  char oin[16];
  snprintf(oin, sizeof oin, "%s    ", in);
  origin(s, oin, &g->pose);
  if (g->material) {
    put(s, "%s    material: ", in);
    name(s, g->material);
    put(s, "\n");
  }
  if (g->group != 1) put(s, "%s    group: %u\n", in, g->group);
  if (g->mask != 1) put(s, "%s    mask: %u\n", in, g->mask);
  if (g->collide_parent) put(s, "%s    collide_parent: true\n", in);
  /* NAN: the options' contact_margin */
  if (!isnan(g->margin)) put(s, "%s    margin: %s\n", in, num(g->margin, b));
}

static void one_coupling(writer *w, const lk_coupling_spec *c) {
  sbuf *s = &w->couplings;
  char b[LK_FORMAT_DOUBLE_MAX];
  put(s, "    - {");
  if (c->name && *c->name) {
    put(s, "name: ");
    name(s, c->name);
    put(s, ", ");
  }
  put(s, "joint_a: ");
  name(s, c->joint_a);
  put(s, ", joint_b: ");
  name(s, c->joint_b);
  put(s, ", ratio: %s", num(c->ratio, b));
  put(s, ", offset: %s}\n", num(c->offset, b));
}

/* MJCF's connect and weld equalities. */
static void one_loop(writer *w, const lk_loop_spec *l) {
  static const char *const type[] = {"ball", "pin", "rigid"};
  sbuf *s = &w->loops;
  if ((unsigned)l->type > LK_LOOP_RIGID) {
    cannot(w, "loop '%s' (type %d)", l->name ? l->name : "", (int)l->type);
    return;
  }
  put(s, "    - {");
  if (l->name && *l->name) {
    put(s, "name: ");
    name(s, l->name);
    put(s, ", ");
  }
  put(s, "type: %s, link_a: ", type[l->type]);
  name(s, l->link_a);
  put(s, ", link_b: ");
  name(s, l->link_b ? l->link_b : "world");
  put(s, ", frame_a: ");
  transform(s, &l->frame_a);
  put(s, ", frame_b: ");
  transform(s, &l->frame_b);
  put(s, "}\n");
}

/* MJCF's motor, position, velocity and general actuators (a schedule is
 * not something a reader makes). */
static void one_actuator(writer *w, const lk_actuator_spec *a) {
  sbuf *s = &w->actuators;
  char b[LK_FORMAT_DOUBLE_MAX];
  if (a->nschedule > 0) {
    cannot(w, "actuator '%s' (a schedule)", a->name ? a->name : a->joint);
    return;
  }
  put(s, "  - {");
  if (a->name && *a->name && strcmp(a->name, a->joint) != 0) {
    put(s, "name: ");
    name(s, a->name);
    put(s, ", ");
  }
  put(s, "joint: ");
  name(s, a->joint);
  put(s, ", type: %s", lk_actuator_type_name(a->type));
  if (a->kp != 0) put(s, ", kp: %s", num(a->kp, b));
  if (a->kv != 0) put(s, ", kv: %s", num(a->kv, b));
  if (a->target != 0) put(s, ", target: %s", num(a->target, b));
  if (isfinite(a->max_effort)) put(s, ", max_effort: %s", num(a->max_effort, b));
  put(s, "}\n");
}

/* A material (MJCF's friction): its coefficients; the compliant laws are
 * not written. */
static void one_material(writer *w, const lk_material_spec *m) {
  sbuf *s = &w->materials;
  char b[LK_FORMAT_DOUBLE_MAX];
  if (m->contact != LK_CONTACT_RIGID) {
    cannot(w, "material '%s' (compliant)", m->name);
    return;
  }
  put(s, "  - {name: ");
  name(s, m->name);
  put(s, ", mu_static: %s", num(m->mu_static, b));
  put(s, ", mu_dynamic: %s", num(m->mu_dynamic, b));
  if (m->restitution != 0) put(s, ", restitution: %s", num(m->restitution, b));
  if (m->mu_rolling != 0) put(s, ", mu_rolling: %s", num(m->mu_rolling, b));
  if (m->mu_torsional != 0) put(s, ", mu_torsional: %s", num(m->mu_torsional, b));
  if (m->patch_radius != 0) put(s, ", patch_radius: %s", num(m->patch_radius, b));
  put(s, "}\n");
}

static void mesh_file(void *user, const char *path, const double scale[3]) {
  writer *w = user;
  /* Absolute, since the YAML file need not be next to the URDF. */
  char *abs = realpath(path, NULL);
  snprintf(w->mesh, sizeof w->mesh, "%s", abs ? abs : path);
  free(abs);
  for (int k = 0; k < 3; k++) w->mesh_scale[k] = scale[k];
}

/* MJCF: each <mesh> read; its geoms' specs point to it. */
static void mjcf_mesh(void *user, const lk_mesh *mesh, const char *path, const double scale[3]) {
  writer *w = user;
  mesh_entry *grown = lk_realloc(w->meshes, (size_t)(w->nmeshes + 1) * sizeof *grown);
  if (!grown) {
    w->links.failed = 1;
    return;
  }
  w->meshes = grown;
  char *abs = realpath(path, NULL);
  mesh_entry *e = &w->meshes[w->nmeshes];
  e->mesh = mesh;
  e->path = lk_strdup(abs ? abs : path);
  free(abs);
  if (!e->path) {
    w->links.failed = 1;
    return;
  }
  for (int k = 0; k < 3; k++) e->scale[k] = scale[k];
  w->nmeshes++;
}

static void record(void *user, int kind, const void *spec) {
  writer *w = user;
  switch ((lk_bkind)kind) {
    case LK_BK_LINK:
      one_link(w, spec);
      break;
    case LK_BK_GEOM:
      one_geom(w, spec);
      break;
    case LK_BK_COUPLING:
      one_coupling(w, spec);
      break;
    case LK_BK_LOOP:
      one_loop(w, spec);
      break;
    case LK_BK_ACTUATOR:
      one_actuator(w, spec);
      break;
    case LK_BK_MATERIAL:
      one_material(w, spec);
      break;
    case LK_BK_EXCLUDE: {
      const char *const *ab = spec;
      put(&w->exclude, "  - [");
      name(&w->exclude, ab[0]);
      put(&w->exclude, ", ");
      name(&w->exclude, ab[1]);
      put(&w->exclude, "]\n");
      break;
    }
    default:
      cannot(w, "an element of kind %d", kind);
      break;
  }
}

/* The options that differ from YAML's defaults, among those a reader sets
 * (MJCF: timestep, gravity, integrator, collision filter); 1 when another
 * one differs (not written yet). */
static int options(sbuf *s, const lk_options *o) {
  lk_options d;
  lk_options_default(&d);
  char b[LK_FORMAT_DOUBLE_MAX];
  int any = 0;
  if (o->timestep != d.timestep) {
    put(s, "%stimestep: %s", any++ ? ", " : "", num(o->timestep, b));
  }
  if (memcmp(&o->gravity, &d.gravity, sizeof d.gravity) != 0) {
    double g[3] = {o->gravity.x, o->gravity.y, o->gravity.z};
    put(s, "%sgravity: ", any++ ? ", " : "");
    vec(s, g, 3);
  }
  if (o->integrator != d.integrator)
    put(s, "%sintegrator: %s", any++ ? ", " : "",
        o->integrator == LK_INTEGRATOR_RK4 ? "rk4" : "euler");
  if (o->collision_filter != d.collision_filter)
    put(s, "%scollision_filter: %s", any++ ? ", " : "",
        o->collision_filter == LK_FILTER_EITHER ? "either" : "both");
  lk_options rest = *o;
  rest.timestep = d.timestep;
  rest.gravity = d.gravity;
  rest.integrator = d.integrator;
  rest.collision_filter = d.collision_filter;
  return memcmp(&rest, &d, sizeof d) != 0;
}

/* lk_io_initial_overlaps' callback: there is one. */
static lk_status one_overlap(void *user, int ga, int gb, double depth, double size) {
  (void)ga, (void)gb, (void)depth, (void)size;
  *(int *)user = 1;
  return LK_OK;
}

/* Positions of joint ji (nq values from q at its address) as YAML: a number
 * for a 1-DoF joint, else a list. */
static void joint_q(sbuf *s, const double *q, int nq) {
  char b[LK_FORMAT_DOUBLE_MAX];
  if (nq == 1)
    put(s, "%s", num(q[0], b));
  else
    vec(s, q, nq);
}

static int joint_nq(lk_joint_type t) {
  return t == LK_JOINT_FREE ? 7 : t == LK_JOINT_BALL ? 4 : t == LK_JOINT_FIXED ? 0 : 1;
}

/* The initial state where it is not q = 0 (identity quaternions) at rest,
 * and every keyframe whole, from the finalized model. */
static lk_status states(sbuf *init, sbuf *keys, const lk_model *m) {
  int nq = lk_model_nq(m);
  lk_data *d = lk_data_new(m);
  double *q = LK_NEW_ARRAY(double, (size_t)(nq > 0 ? nq : 1));
  if (!d || !q) {
    lk_data_free(d);
    lk_free(q);
    return LK_OUT_OF_MEMORY;
  }
  for (int pass = -1; pass < lk_model_nkeyframe(m); pass++) {
    sbuf *s = pass < 0 ? init : keys;
    const double *src = lk_data_q(d);
    if (pass >= 0) {
      lk_model_keyframe_q(m, pass, q);
      src = q;
      put(s, "  - name: ");
      name(s, lk_model_keyframe_name(m, pass));
      put(s, "\n    q: {");
    }
    int first = 1;
    for (int l = 1; l < lk_model_nlink(m); l++) {
      lk_link_spec ls;
      lk_model_link(m, l, &ls);
      int n = joint_nq(ls.joint.type);
      if (n == 0) continue;
      int ji = lk_model_joint_index(m, ls.joint.name);
      const double *x = src + lk_model_joint_qadr(m, ji);
      if (pass < 0) {
        int zero = 1;
        for (int k = 0; k < n; k++) {
          double z = (n == 7 && k == 3) || (n == 4 && k == 0) ? 1 : 0;
          zero &= x[k] == z && !signbit(x[k]);
        }
        if (zero) continue;
        put(s, "  - {joint: ");
        name(s, ls.joint.name);
        put(s, ", q: ");
        joint_q(s, x, n);
        put(s, "}\n");
      } else {
        put(s, "%s", first ? "" : ", ");
        name(s, ls.joint.name);
        put(s, ": ");
        joint_q(s, x, n);
      }
      first = 0;
    }
    if (pass >= 0) put(s, "}\n");
  }
  lk_data_free(d);
  lk_free(q);
  return LK_OK;
}

lk_status lk_model_convert_file(const char *path, const lk_load_options *opts, FILE *out,
                                lk_error *err) {
  lk_error local;
  if (!err) err = &local;
  lk_error_clear(err);
  if (!path || !out) return lk_error_set(err, LK_INVALID_ARGUMENT, "NULL path or stream");
  size_t max = opts && opts->max_bytes ? opts->max_bytes : LK_IO_MAX_BYTES_DEFAULT;
  char *text;
  size_t len;
  lk_status st = lk_io_input(opts, path, 0, err);
  if (!st) st = lk_ydoc_read_file(path, max, &text, &len, err);
  if (st) return st;
  char root[32];
  lk_xml_root_name(text, len, root, sizeof root);
  int mjcf = strcmp(root, "mujoco") == 0;
  if (strcmp(root, "robot") != 0 && !mjcf) {
    lk_free(text);
    return lk_error_set_at(err, LK_UNSUPPORTED, path, 0, 0,
                           "convert reads URDF (<robot>) and MJCF (<mujoco>) files; this one is %s",
                           root[0] ? "another XML file" : "YAML already");
  }
  writer w;
  memset(&w, 0, sizeof w);
  lk_urdf_options uo;
  lk_urdf_options_default(&uo);
  uo.record = record;
  uo.record_user = &w;
  uo.mesh_file = mesh_file;
  lk_model *m = lk_model_new();
  if (!m)
    st = lk_error_set(err, LK_OUT_OF_MEMORY, "out of memory");
  else if (mjcf)
    st = lk_mjcf_read_recorded(m, NULL, text, len, path, opts, record, mjcf_mesh, &w, err);
  else
    st = lk_urdf_read(m, NULL, text, len, path, opts, &uo, err);
  lk_free(text);
  /* What the model has that no record told and YAML cannot say (MJCF's
   * sensors and pairs): named, refused rather than dropped. */
  for (int i = 0; !st && i < lk_model_nsensor(m); i++) {
    lk_sensor_spec ss;
    if (!lk_model_sensor(m, i, &ss)) cannot(&w, "sensor '%s'", ss.name);
  }
  for (int i = 0; !st && i < lk_model_ngeom_pair(m); i++) {
    int ga, gb, mat;
    if (lk_model_geom_pair(m, i, &ga, &gb, &mat)) continue;
    lk_geom_spec a, b;
    lk_model_geom(m, ga, &a);
    lk_model_geom(m, gb, &b);
    cannot(&w, "contact pair '%s'/'%s'", a.name ? a.name : "?", b.name ? b.name : "?");
  }
  sbuf opt, init, keys;
  memset(&opt, 0, sizeof opt);
  memset(&init, 0, sizeof init);
  memset(&keys, 0, sizeof keys);
  if (!st && options(&opt, lk_model_options(m)))
    cannot(&w, "options other than timestep, gravity, integrator and collision_filter");
  /* Shapes that overlap deeply at the initial state: the MJCF and URDF
   * readers take them as they are (MuJoCo and the URDF rule collide them,
   * or not), YAML's plausibility check would warn or refuse; the YAML says
   * they are meant, so that it loads as its source does. */
  int overlaps = 0;
  if (!st && lk_io_initial_overlaps(m, one_overlap, &overlaps) == LK_OUT_OF_MEMORY)
    st = lk_error_set(err, LK_OUT_OF_MEMORY, "out of memory");
  if (!st && overlaps) put(&opt, "%sinitial_overlaps: allowed", opt.p ? ", " : "");
  if (!st && !w.ncannot && states(&init, &keys, m))
    st = lk_error_set(err, LK_OUT_OF_MEMORY, "out of memory");
  /* The sections, in the YAML's order (name and options first). */
  static const struct {
    const char *head;
    size_t off; /* of its sbuf in writer */
    int local;  /* 0: the writer's; 1: init, 2: keys */
  } kSections[] = {
      {"materials:\n", offsetof(writer, materials), 0},
      {"world:\n", offsetof(writer, world), 0},
      {"links:\n", offsetof(writer, links), 0},
      {"actuators:\n", offsetof(writer, actuators), 0},
      {"constraints:\n  loops:\n", offsetof(writer, loops), 0},
      {"  couplings:\n", offsetof(writer, couplings), 0},
      {"exclude:\n", offsetof(writer, exclude), 0},
      {"initial:\n", 0, 1},
      {"keyframes:\n", 0, 2},
  };
  enum { NSEC = sizeof kSections / sizeof kSections[0] };
  sbuf *sec[NSEC];
  for (int i = 0; i < NSEC; i++)
    sec[i] = kSections[i].local == 1   ? &init
             : kSections[i].local == 2 ? &keys
                                       : (sbuf *)((char *)&w + kSections[i].off);
  int failed = opt.failed || w.cannot.failed;
  for (int i = 0; i < NSEC; i++) failed |= sec[i]->failed;
  if (!st && failed) st = lk_error_set(err, LK_OUT_OF_MEMORY, "out of memory");
  if (!st && w.ncannot)
    st = lk_error_set_at(err, LK_UNSUPPORTED, path, 0, 0,
                         "convert cannot write, as YAML has no way to say it: %s",
                         w.cannot.p ? w.cannot.p : "");
  if (!st) {
    const char *base = strrchr(path, '/');
    fprintf(out, "# Converted from %s by linkage convert: loading this file gives the same\n"
                 "# model as loading the %s.\n",
            base ? base + 1 : path, mjcf ? "MJCF" : "URDF");
    if (lk_model_name(m) && *lk_model_name(m)) {
      sbuf nb;
      memset(&nb, 0, sizeof nb);
      put(&nb, "name: ");
      quoted(&nb, lk_model_name(m));
      put(&nb, "\n");
      if (nb.p) fputs(nb.p, out);
      lk_free(nb.p);
    }
    if (opt.p) fprintf(out, "options: {%s}\n", opt.p);
    for (int i = 0; i < NSEC; i++) {
      const char *head = kSections[i].head;
      /* couplings share loops' constraints: heading */
      if (sec[i] == &w.couplings && !w.loops.p) head = "constraints:\n  couplings:\n";
      if (sec[i]->p)
        fprintf(out, "%s%s", head, sec[i]->p);
      else if (sec[i] == &w.links)
        fputs(head, out); /* links: always */
    }
    if (ferror(out)) st = lk_error_set(err, LK_IO_ERROR, "could not write the YAML");
  }
  for (int i = 0; i < NSEC; i++) lk_free(sec[i]->p);
  lk_free(w.cannot.p);
  lk_free(opt.p);
  for (int i = 0; i < w.nmeshes; i++) lk_free(w.meshes[i].path);
  lk_free(w.meshes);
  lk_model_free(m);
  return st;
}
