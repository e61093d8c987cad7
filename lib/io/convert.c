/* lk_model_convert_file(): a URDF robot as the equivalent YAML description
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
  sbuf links, couplings, exclude;
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
  sbuf *s = &w->links;
  char b[LK_FORMAT_DOUBLE_MAX];
  if (!w->link || !g->link || strcmp(g->link, w->link) != 0 || g->type == LK_GEOM_PLANE ||
      !isnan(g->margin) || g->name) { /* NAN: the options' contact_margin, as URDF gives */
    snprintf(w->unsupported, sizeof w->unsupported, "this geom");
    return;
  }
  if (w->geoms++ == 0) put(s, "    geoms:\n");
  put(s, "      - type: %s\n", lk_geom_type_name(g->type));
  switch (g->type) {
    case LK_GEOM_MESH:
      /* The same file and scale read back as the same hull. */
      if (!w->mesh[0]) {
        snprintf(w->unsupported, sizeof w->unsupported, "a mesh geom without its file");
        return;
      }
      put(s, "        file: \"");
      for (const char *c = w->mesh; *c; c++)
        put(s, (*c == '"' || *c == '\\') ? "\\%c" : (*c < 0x20 ? "\\x%02x" : "%c"), *c);
      put(s, "\"\n        scale: ");
      vec(s, w->mesh_scale, 3);
      put(s, "\n");
      w->mesh[0] = 0;
      break;
    case LK_GEOM_BOX:
      put(s, "        half_extents: ");
      vec(s, g->size, 3);
      put(s, "\n");
      break;
    case LK_GEOM_SPHERE:
      put(s, "        radius: %s\n", num(g->size[0], b));
      break;
    default:
      put(s, "        radius: %s\n", num(g->size[0], b));
      put(s, "        half_length: %s\n", num(g->size[1], b));
      break;
  }
  origin(s, "        ", &g->pose);
  if (g->material) {
    put(s, "        material: ");
    name(s, g->material);
    put(s, "\n");
  }
  if (g->group != 1) put(s, "        group: %u\n", g->group);
  if (g->mask != 1) put(s, "        mask: %u\n", g->mask);
  if (g->collide_parent) put(s, "        collide_parent: true\n");
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
  if (strcmp(root, "robot") != 0) {
    lk_free(text);
    return lk_error_set_at(err, LK_UNSUPPORTED, path, 0, 0,
                           "convert reads URDF (<robot>) files; this one is %s",
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
  st = m ? lk_urdf_read(m, NULL, text, len, path, opts, &uo, err)
         : lk_error_set(err, LK_OUT_OF_MEMORY, "out of memory");
  lk_free(text);
  if (!st && (w.links.failed || w.couplings.failed || w.exclude.failed))
    st = lk_error_set(err, LK_OUT_OF_MEMORY, "out of memory");
  if (!st && w.unsupported[0])
    st = lk_error_set_at(err, LK_UNSUPPORTED, path, 0, 0, "convert cannot write %s yet",
                         w.unsupported);
  if (!st) {
    const char *base = strrchr(path, '/');
    fprintf(out, "# Converted from %s by linkage convert: loading this file gives the same\n"
                 "# model as loading the URDF.\n",
            base ? base + 1 : path);
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
    if (ferror(out)) st = lk_error_set(err, LK_IO_ERROR, "could not write the YAML");
  }
  lk_free(w.links.p);
  lk_free(w.couplings.p);
  lk_free(w.exclude.p);
  lk_model_free(m);
  return st;
}
