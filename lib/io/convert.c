/* lk_model_convert_file(): a URDF robot, or an MJCF model of what YAML
 * says (links, geoms, materials, exclusions, couplings, options, the
 * initial state and keyframes), as the equivalent YAML description
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
  sbuf links, couplings, exclude, world, materials;
  const char *link; /* the link whose geoms come next */
  int geoms;        /* of that link, so far */
  char unsupported[64];
  char mesh[4096]; /* the next mesh geom's file (absolute) and scale */
  double mesh_scale[3];
} writer;

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

static int is_identity(const lk_mat3 *R) {
  lk_mat3 I = lk_m3_identity();
  return memcmp(R, &I, sizeof I) == 0;
}

/* origin: {xyz, rpy | rotation}, or nothing for the identity. */
static void origin(sbuf *s, const char *indent, const lk_transform *T) {
  int has_p = T->p.x != 0 || T->p.y != 0 || T->p.z != 0 || signbit(T->p.x) || signbit(T->p.y) ||
              signbit(T->p.z);
  int has_r = !is_identity(&T->R);
  if (!has_p && !has_r) return;
  double p[3] = {T->p.x, T->p.y, T->p.z};
  put(s, "%sorigin: {", indent);
  if (has_p) {
    put(s, "xyz: ");
    vec(s, p, 3);
  }
  if (has_r) {
    double rpy[3];
    lk_m3_to_rpy(&T->R, &rpy[0], &rpy[1], &rpy[2]);
    lk_mat3 back = lk_m3_from_rpy(rpy[0], rpy[1], rpy[2]);
    put(s, "%s", has_p ? ", " : "");
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
  put(s, "}\n");
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

static void one_geom(writer *w, const lk_geom_spec *g) {
  char b[LK_FORMAT_DOUBLE_MAX];
  /* A world geom (MJCF's floor) goes to the world section. */
  int world = !g->link || strcmp(g->link, "world") == 0;
  sbuf *s = world ? &w->world : &w->links;
  const char *in = world ? "  " : "    "; /* the list's indent */
  if ((!world && (!w->link || strcmp(g->link, w->link) != 0)) ||
      (g->type == LK_GEOM_PLANE && (!world || g->size[0] != 0 || g->size[1] != 0 ||
                                    g->size[2] != 0)) ||
      !isnan(g->margin)) { /* NAN: the options' contact_margin, as URDF gives */
    snprintf(w->unsupported, sizeof w->unsupported, "this geom");
    return;
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
      if (!w->mesh[0]) {
        snprintf(w->unsupported, sizeof w->unsupported, "a mesh geom without its file");
        return;
      }
      put(s, "%s    file: \"", in);
      for (const char *c = w->mesh; *c; c++)
        put(s, (*c == '"' || *c == '\\') ? "\\%c" : (*c < 0x20 ? "\\x%02x" : "%c"), *c);
      put(s, "\"\n%s    scale: ", in);
      vec(s, w->mesh_scale, 3);
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
}

static void one_coupling(writer *w, const lk_coupling_spec *c) {
  sbuf *s = &w->couplings;
  char b[LK_FORMAT_DOUBLE_MAX];
  if (c->name) {
    snprintf(w->unsupported, sizeof w->unsupported, "a named coupling");
    return;
  }
  put(s, "    - {joint_a: ");
  name(s, c->joint_a);
  put(s, ", joint_b: ");
  name(s, c->joint_b);
  put(s, ", ratio: %s", num(c->ratio, b));
  put(s, ", offset: %s}\n", num(c->offset, b));
}

/* A material (MJCF's friction): its coefficients; the compliant laws are
 * not written. */
static void one_material(writer *w, const lk_material_spec *m) {
  sbuf *s = &w->materials;
  char b[LK_FORMAT_DOUBLE_MAX];
  if (m->contact != LK_CONTACT_RIGID) {
    snprintf(w->unsupported, sizeof w->unsupported, "a compliant material");
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
      snprintf(w->unsupported, sizeof w->unsupported, "element kind %d", kind);
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
    st = lk_mjcf_read_recorded(m, NULL, text, len, path, opts, record, &w, err);
  else
    st = lk_urdf_read(m, NULL, text, len, path, opts, &uo, err);
  lk_free(text);
  /* What the model has that no record told (MJCF's sensors and pairs):
   * refused rather than dropped. */
  if (!st && !w.unsupported[0] && lk_model_nsensor(m) > 0)
    snprintf(w.unsupported, sizeof w.unsupported, "sensors");
  if (!st && !w.unsupported[0] && lk_model_ngeom_pair(m) > 0)
    snprintf(w.unsupported, sizeof w.unsupported, "geom pairs");
  sbuf opt, init, keys;
  memset(&opt, 0, sizeof opt);
  memset(&init, 0, sizeof init);
  memset(&keys, 0, sizeof keys);
  if (!st && !w.unsupported[0] && options(&opt, lk_model_options(m)))
    snprintf(w.unsupported, sizeof w.unsupported, "these options");
  if (!st && !w.unsupported[0] && states(&init, &keys, m))
    st = lk_error_set(err, LK_OUT_OF_MEMORY, "out of memory");
  if (!st && (opt.failed || init.failed || keys.failed || w.world.failed || w.materials.failed))
    st = lk_error_set(err, LK_OUT_OF_MEMORY, "out of memory");
  if (!st && (w.links.failed || w.couplings.failed || w.exclude.failed))
    st = lk_error_set(err, LK_OUT_OF_MEMORY, "out of memory");
  if (!st && w.unsupported[0])
    st = lk_error_set_at(err, LK_UNSUPPORTED, path, 0, 0, "convert cannot write %s yet",
                         w.unsupported);
  if (!st) {
    const char *base = strrchr(path, '/');
    fprintf(out, "# Converted from %s by linkage convert: loading this file gives the same\n"
                 "# model as loading the %s.\n",
            base ? base + 1 : path, mjcf ? "MJCF" : "URDF");
    if (lk_model_name(m) && *lk_model_name(m)) {
      sbuf nb;
      memset(&nb, 0, sizeof nb);
      put(&nb, "name: \"");
      for (const char *c = lk_model_name(m); *c; c++)
        put(&nb, (*c == '"' || *c == '\\') ? "\\%c" : (*c < 0x20 ? "\\x%02x" : "%c"), *c);
      put(&nb, "\"\n");
      if (nb.p) fputs(nb.p, out);
      lk_free(nb.p);
    }
    if (opt.p) fprintf(out, "options: {%s}\n", opt.p);
    if (w.materials.p) {
      fputs("materials:\n", out);
      fputs(w.materials.p, out);
    }
    if (w.world.p) {
      fputs("world:\n", out);
      fputs(w.world.p, out);
    }
    fputs("links:\n", out);
    if (w.links.p) fputs(w.links.p, out);
    if (w.couplings.p) {
      fputs("constraints:\n  couplings:\n", out);
      fputs(w.couplings.p, out);
    }
    if (w.exclude.p) {
      fputs("exclude:\n", out);
      fputs(w.exclude.p, out);
    }
    if (init.p) {
      fputs("initial:\n", out);
      fputs(init.p, out);
    }
    if (keys.p) {
      fputs("keyframes:\n", out);
      fputs(keys.p, out);
    }
    if (ferror(out)) st = lk_error_set(err, LK_IO_ERROR, "could not write the YAML");
  }
  lk_free(w.links.p);
  lk_free(w.couplings.p);
  lk_free(w.exclude.p);
  lk_free(w.world.p);
  lk_free(w.materials.p);
  lk_free(opt.p);
  lk_free(init.p);
  lk_free(keys.p);
  lk_model_free(m);
  return st;
}
