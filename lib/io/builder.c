/* The shared part of the mechanism readers (see builder.h): registries,
 * references, placement, builder calls that remember their source, and
 * finalize's errors located again. */
#include "io/builder.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/internal.h"
#include "io/ydoc.h" /* lk_suggest */
#include "model/model_impl.h" /* finalize's warnings, located */

void lk_builder_init(lk_builder *b, lk_model *m, const lk_merge_options *mo,
                     const lk_source *ops, void *src, lk_error *err) {
  memset(b, 0, sizeof *b);
  b->m = m;
  b->mo = mo;
  b->ops = ops;
  b->src = src;
  b->err = err;
}

void lk_builder_free(lk_builder *b) {
  lk_free(b->links);
  lk_free(b->link_names);
  lk_free(b->joint_names);
  lk_free(b->mats);
  lk_free(b->mat_names);
  for (int i = 0; i < b->nnames; i++) lk_free((char *)b->names[i].name);
  lk_free(b->names);
  lk_free(b->sites);
  for (int i = 0; i < b->npool; i++) lk_free(b->pool[i]);
  lk_free(b->pool);
  lk_name_index_free(&b->link_index);
  lk_name_index_free(&b->joint_index);
  lk_name_index_free(&b->name_index);
  memset(b, 0, sizeof *b);
}

lk_status lk_builder_oom(lk_builder *b) {
  return lk_error_set(b->err, LK_OUT_OF_MEMORY, "out of memory");
}

lk_status lk_builder_error(lk_builder *b, int loc, lk_status status, const char *fmt, ...) {
  char msg[LK_ERROR_MESSAGE_MAX];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  if (!b->err) return status;
  return b->ops->error(b->src, loc, status, b->err, msg);
}

/* Grow an array of n elements of size sz to hold one more. */
static int grow(lk_builder *b, void **p, int n, int *cap, size_t sz) {
  if (n < *cap) return 1;
  int nc = *cap ? 2 * *cap : 16;
  void *q = lk_realloc(*p, (size_t)nc * sz);
  if (!q) return 0;
  *p = q;
  *cap = nc;
  (void)b;
  return 1;
}

static const char *pool_take(lk_builder *b, char *s) {
  if (!s) return NULL;
  if (!grow(b, (void **)&b->pool, b->npool, &b->cappool, sizeof *b->pool)) {
    lk_free(s);
    return NULL;
  }
  b->pool[b->npool++] = s;
  return s;
}

const char *lk_builder_strdup(lk_builder *b, const char *s) { return pool_take(b, lk_strdup(s)); }

/* ------------------------------------------------------------ registries */

lk_status lk_builder_unique(lk_builder *b, const char *kind_label, const char *name, int loc) {
  char key[LK_IO_NAME_MAX + 48];
  snprintf(key, sizeof key, "%s:%s", kind_label, name);
  int i = lk_name_index_get(&b->name_index, key);
  if (i >= 0) {
      int line, col;
      b->ops->position(b->src, b->names[i].loc, &line, &col);
      if (b->ops->columns)
        return lk_builder_error(b, loc, LK_SCHEMA_ERROR,
                                "%s '%s' is defined twice (first at line %d, column %d)",
                                kind_label, name, line, col);
      return lk_builder_error(b, loc, LK_SCHEMA_ERROR, "%s '%s' is defined twice (first at line %d)",
                              kind_label, name, line);
    }
  if (!grow(b, (void **)&b->names, b->nnames, &b->capnames, sizeof *b->names))
    return lk_builder_oom(b);
  char *copy = lk_strdup(key);
  if (!copy) return lk_builder_oom(b);
  if (lk_name_index_put(&b->name_index, copy, b->nnames, NULL) < 0) {
    lk_free(copy);
    return lk_builder_oom(b);
  }
  b->names[b->nnames].name = copy;
  b->names[b->nnames].loc = loc;
  b->nnames++;
  return LK_OK;
}

lk_status lk_builder_push_link(lk_builder *b, const lk_blink *l, int *index) {
  if (!grow(b, (void **)&b->links, b->nlinks, &b->caplinks, sizeof *b->links))
    return lk_builder_oom(b);
  if ((l->name && lk_name_index_put(&b->link_index, l->name, b->nlinks, NULL) < 0) ||
      (l->joint && lk_name_index_put(&b->joint_index, l->joint, b->nlinks, NULL) < 0))
    return lk_builder_oom(b);
  if (index) *index = b->nlinks;
  b->links[b->nlinks++] = *l;
  return LK_OK;
}

lk_status lk_builder_push_material(lk_builder *b, const char *name, int loc) {
  if (!grow(b, (void **)&b->mats, b->nmats, &b->capmats, sizeof *b->mats))
    return lk_builder_oom(b);
  b->mats[b->nmats].name = name;
  b->mats[b->nmats].loc = loc;
  b->nmats++;
  if (strcmp(name, "default") == 0) b->defines_default = 1;
  return LK_OK;
}

lk_status lk_builder_names_done(lk_builder *b) {
  lk_free(b->link_names);
  lk_free(b->joint_names);
  lk_free(b->mat_names);
  b->link_names = LK_NEW_ARRAY(const char *, b->nlinks + 1);
  b->joint_names = LK_NEW_ARRAY(const char *, b->nlinks + 1);
  b->mat_names = LK_NEW_ARRAY(const char *, b->nmats + 1);
  if (!b->link_names || !b->joint_names || !b->mat_names) return lk_builder_oom(b);
  for (int i = 0; i < b->nlinks; i++) {
    b->link_names[i] = b->links[i].name;
    b->joint_names[i] = b->links[i].joint;
  }
  b->link_names[b->nlinks] = "world";
  for (int i = 0; i < b->nmats; i++) b->mat_names[i] = b->mats[i].name;
  b->mat_names[b->nmats] = "default";
  return LK_OK;
}

/* The index answers at once; a reader may still rename a registered link
 * or joint (URDF names a link's joint only when it reads the joint), so
 * an answer is checked and a miss falls back to the scan. */
int lk_builder_find_link(const lk_builder *b, const char *name) {
  int i = lk_name_index_get(&b->link_index, name);
  if (i >= 0 && i < b->nlinks && b->links[i].name && strcmp(b->links[i].name, name) == 0) return i;
  for (i = 0; i < b->nlinks; i++)
    if (b->links[i].name && strcmp(b->links[i].name, name) == 0) return i;
  return -1;
}

int lk_builder_find_joint(const lk_builder *b, const char *name) {
  int i = lk_name_index_get(&b->joint_index, name);
  if (i >= 0 && i < b->nlinks && b->links[i].joint && strcmp(b->links[i].joint, name) == 0) return i;
  for (i = 0; i < b->nlinks; i++)
    if (b->links[i].joint && strcmp(b->links[i].joint, name) == 0) return i;
  return -1;
}

int lk_builder_has_material(const lk_builder *b, const char *name) {
  if (strcmp(name, "default") == 0) return 1;
  for (int i = 0; i < b->nmats; i++)
    if (strcmp(b->mats[i].name, name) == 0) return 1;
  return 0;
}

lk_status lk_builder_ref_link(lk_builder *b, int loc, const char *what, const char *name,
                              const char *shown, int world_ok, const char **out, int *index) {
  if (strcmp(name, "world") == 0) {
    if (!world_ok)
      return lk_builder_error(b, loc, LK_SCHEMA_ERROR, "%s: must be a link, not the world", what);
    *out = name;
    if (index) *index = -1;
    return LK_OK;
  }
  int i = lk_builder_find_link(b, name);
  if (i < 0) {
    const char *sug = lk_suggest(name, b->link_names, b->nlinks + (world_ok ? 1 : 0));
    if (sug)
      return lk_builder_error(b, loc, LK_SCHEMA_ERROR, "%s: unknown link %s (did you mean '%s'?)",
                              what, shown, sug);
    return lk_builder_error(b, loc, LK_SCHEMA_ERROR, "%s: unknown link %s (no link has that name)",
                            what, shown);
  }
  *out = b->links[i].name;
  if (index) *index = i;
  return LK_OK;
}

lk_status lk_builder_ref_joint(lk_builder *b, int loc, const char *what, const char *name,
                               const char *shown, int one_dof, const char **out, int *index) {
  int i = lk_builder_find_joint(b, name);
  if (i < 0) {
    const char *sug = lk_suggest(name, b->joint_names, b->nlinks);
    if (sug)
      return lk_builder_error(b, loc, LK_SCHEMA_ERROR, "%s: unknown joint %s (did you mean '%s'?)",
                              what, shown, sug);
    return lk_builder_error(b, loc, LK_SCHEMA_ERROR,
                            "%s: unknown joint %s (no joint has that name)", what, shown);
  }
  int t = b->links[i].jtype;
  if (one_dof && t >= 0 && t != LK_JOINT_REVOLUTE && t != LK_JOINT_PRISMATIC)
    return lk_builder_error(
        b, loc, LK_SCHEMA_ERROR,
        "%s: joint '%s' is %s; only revolute and prismatic joints can be used here", what, name,
        lk_joint_type_name((lk_joint_type)t));
  *out = b->links[i].joint;
  if (index) *index = i;
  return LK_OK;
}

lk_status lk_builder_ref_material(lk_builder *b, int loc, const char *what, const char *name,
                                  const char *shown, const char **out) {
  if (!lk_builder_has_material(b, name)) {
    const char *sug = lk_suggest(name, b->mat_names, b->nmats + 1);
    if (sug)
      return lk_builder_error(b, loc, LK_SCHEMA_ERROR,
                              "%s: unknown material %s (did you mean '%s'?)", what, shown, sug);
    return lk_builder_error(b, loc, LK_SCHEMA_ERROR,
                            "%s: unknown material %s (define it under materials:)", what, shown);
  }
  *out = name;
  return LK_OK;
}

/* A link on a cycle of parents, or -1: each link's parents are walked
 * until a link already known to reach the world (O(n) in all; walking
 * every link to the root was O(n * depth), 50 M steps for a 10 000-link
 * chain). */
static int on_cycle(const lk_builder *b) {
  unsigned char *mark = lk_calloc((size_t)b->nlinks + 1, 1); /* 0 new, 1 this walk, 2 reaches the world */
  if (!mark) return -2;
  int found = -1;
  for (int i = 0; i < b->nlinks && found < 0; i++) {
    int cur = i;
    while (cur >= 0 && !mark[cur]) mark[cur] = 1, cur = b->links[cur].parent;
    if (cur >= 0 && mark[cur] == 1) found = cur; /* met this walk again: a cycle */
    for (int c = i; c >= 0 && mark[c] == 1; c = b->links[c].parent) mark[c] = 2;
  }
  lk_free(mark);
  return found;
}

int lk_builder_find_cycle(const lk_builder *b, char *path, size_t size) {
  /* The usual answer, none, in O(n); only a tree with a cycle (an error)
   * is searched for the first link on one, as before. */
  if (on_cycle(b) == -1) return -1;
  for (int i = 0; i < b->nlinks; i++) {
    int cur = b->links[i].parent, steps = 0;
    while (cur >= 0 && cur != i && steps++ <= b->nlinks) cur = b->links[cur].parent;
    if (cur != i) continue;
    int len = snprintf(path, size, "%s", b->links[i].name);
    for (int c = b->links[i].parent; len < (int)size; c = b->links[c].parent) {
      len += snprintf(path + len, size - (size_t)len, " -> %s", b->links[c].name);
      if (c == i) break;
    }
    return i;
  }
  return -1;
}

/* ------------------------------------------------------------- placement */

/* In lk_model_load_*_into(), every name the file defines or refers to gets
 * the prefix, and the file's world becomes the frame mo->pose on the link
 * mo->parent. These translate a spec's names and world-frame quantities
 * just before the model sees them (the source's own names are kept for
 * messages and for locating finalize's errors). */

static int has_prefix(const lk_builder *b) { return b->mo && b->mo->prefix && *b->mo->prefix; }

static lk_status placed(lk_builder *b, const char *name, const char **out) {
  *out = name;
  if (!name || !has_prefix(b)) return LK_OK;
  size_t a = strlen(b->mo->prefix), n = strlen(name);
  char *c = lk_malloc(a + n + 1);
  if (!c) return lk_builder_oom(b);
  memcpy(c, b->mo->prefix, a);
  memcpy(c + a, name, n + 1);
  if (!(*out = pool_take(b, c))) return lk_builder_oom(b);
  return LK_OK;
}

/* A link reference: "world" (or NULL) is the file's world, which is
 * mo->parent; *world says so, so that the caller moves world-frame
 * quantities into the parent's frame. */
static lk_status placed_link(lk_builder *b, const char *name, const char **out, int *world) {
  int w = !name || strcmp(name, "world") == 0;
  *world = w;
  if (w) {
    *out = b->mo && b->mo->parent && *b->mo->parent ? b->mo->parent : "world";
    return LK_OK;
  }
  return placed(b, name, out);
}

/* A material reference (NULL: the default material). A file that defines
 * its own "default" keeps it to itself under a prefix. */
static lk_status placed_material(lk_builder *b, const char *name, const char **out) {
  *out = name;
  if (!has_prefix(b)) return LK_OK;
  if (!name || strcmp(name, "default") == 0)
    return b->defines_default ? placed(b, "default", out) : LK_OK;
  return placed(b, name, out);
}

static lk_transform place_tf(const lk_builder *b, const lk_transform *t) {
  return b->mo ? lk_tf_mul(&b->mo->pose, t) : *t;
}
static lk_vec3 place_point(const lk_builder *b, lk_vec3 p) {
  return b->mo ? lk_tf_point(&b->mo->pose, p) : p;
}
static lk_vec3 place_dir(const lk_builder *b, lk_vec3 v) {
  return b->mo ? lk_tf_dir(&b->mo->pose, v) : v;
}

static lk_status site(lk_builder *b, lk_bkind kind, const char *name, int loc) {
  if (!grow(b, (void **)&b->sites, b->nsites, &b->capsites, sizeof *b->sites))
    return lk_builder_oom(b);
  b->sites[b->nsites].kind = kind;
  b->sites[b->nsites].name = name;
  b->sites[b->nsites].loc = loc;
  b->nsites++;
  return LK_OK;
}

/* ------------------------------------------------------------- building */

lk_status lk_builder_add_link(lk_builder *b, const lk_link_spec *s, int loc, int joint_loc) {
  lk_link_spec p = *s;
  int world = 0;
  lk_status st = placed(b, s->name, &p.name);
  if (!st) st = placed(b, s->joint.name, &p.joint.name);
  if (!st) st = placed_link(b, s->parent, &p.parent, &world);
  if (!st && world) p.origin = place_tf(b, &s->origin);
  if (!st) st = lk_model_add_link(b->m, &p, b->err);
  if (!st && b->record) b->record(b->record_user, LK_BK_LINK, &p);
  if (!st) st = site(b, LK_BK_LINK, s->name, loc);
  if (!st) st = site(b, LK_BK_JOINT, s->joint.name, joint_loc);
  return st;
}

lk_status lk_builder_add_geom(lk_builder *b, const lk_geom_spec *s, int loc) {
  lk_geom_spec p = *s;
  int world;
  lk_status st = placed(b, s->name, &p.name);
  if (!st) st = placed_link(b, s->link, &p.link, &world);
  if (!st) st = placed_material(b, s->material, &p.material);
  if (st) return st;
  if (world) p.pose = place_tf(b, &s->pose);
  st = lk_model_add_geom(b->m, &p, b->err);
  if (!st && b->record) b->record(b->record_user, LK_BK_GEOM, &p);
  if (!st) st = site(b, LK_BK_GEOM, s->name, loc);
  return st;
}

lk_status lk_builder_add_material(lk_builder *b, const lk_material_spec *s, int loc) {
  lk_material_spec p = *s;
  lk_status st = placed(b, s->name, &p.name);
  if (!st) st = lk_model_add_material(b->m, &p, b->err);
  if (!st && b->record) b->record(b->record_user, LK_BK_MATERIAL, &p);
  if (!st) st = site(b, LK_BK_MATERIAL, s->name, loc);
  return st;
}

lk_status lk_builder_add_actuator(lk_builder *b, const lk_actuator_spec *s, int loc) {
  lk_actuator_spec p = *s;
  lk_status st = placed(b, s->name, &p.name);
  if (!st) st = placed(b, s->joint, &p.joint);
  if (!st) st = lk_model_add_actuator(b->m, &p, b->err);
  if (!st && b->record) b->record(b->record_user, LK_BK_ACTUATOR, &p);
  if (!st) st = site(b, LK_BK_ACTUATOR, s->name ? s->name : s->joint, loc);
  return st;
}

lk_status lk_builder_add_load(lk_builder *b, const lk_load_spec *s, int loc) {
  lk_load_spec p = *s;
  lk_status st = placed(b, s->name, &p.name);
  if (!st) st = placed(b, s->link, &p.link);
  if (!st) st = lk_model_add_load(b->m, &p, b->err);
  if (!st && b->record) b->record(b->record_user, LK_BK_LOAD, &p);
  if (!st) st = site(b, LK_BK_LOAD, s->name ? s->name : s->link, loc);
  return st;
}

lk_status lk_builder_add_contact(lk_builder *b, const lk_contact_spec *s, int loc) {
  lk_contact_spec p = *s;
  int world;
  lk_status st = placed(b, s->name, &p.name);
  if (!st) st = placed(b, s->link, &p.link);
  if (!st) st = placed_link(b, s->other, &p.other, &world);
  if (!st) st = placed_material(b, s->material, &p.material);
  if (st) return st;
  if (world) {
    p.other_point = place_point(b, s->other_point);
    p.normal = place_dir(b, s->normal);
  }
  st = lk_model_add_contact(b->m, &p, b->err);
  if (!st && b->record) b->record(b->record_user, LK_BK_CONTACT, &p);
  if (!st) st = site(b, LK_BK_CONTACT, s->name, loc);
  return st;
}

lk_status lk_builder_add_support(lk_builder *b, const lk_support_spec *s, int loc) {
  lk_support_spec p = *s;
  lk_status st = placed(b, s->name, &p.name);
  if (!st) st = placed(b, s->joint, &p.joint);
  if (!st) st = placed(b, s->link, &p.link);
  if (st) return st;
  p.normal = place_dir(b, s->normal); /* a world-frame direction */
  st = lk_model_add_support(b->m, &p, b->err);
  if (!st && b->record) b->record(b->record_user, LK_BK_SUPPORT, &p);
  if (!st) st = site(b, LK_BK_SUPPORT, s->name, loc);
  return st;
}

lk_status lk_builder_add_loop(lk_builder *b, const lk_loop_spec *s, int loc) {
  lk_loop_spec p = *s;
  int world;
  lk_status st = placed(b, s->name, &p.name);
  if (!st) st = placed(b, s->link_a, &p.link_a);
  if (!st) st = placed_link(b, s->link_b, &p.link_b, &world);
  if (st) return st;
  if (world) p.frame_b = place_tf(b, &s->frame_b);
  st = lk_model_add_loop(b->m, &p, b->err);
  if (!st && b->record) b->record(b->record_user, LK_BK_LOOP, &p);
  if (!st) st = site(b, LK_BK_LOOP, s->name ? s->name : s->link_a, loc);
  return st;
}

lk_status lk_builder_add_exclude(lk_builder *b, const char *link_a, const char *link_b) {
  const char *a, *c;
  int wa, wc;
  lk_status st = placed_link(b, link_a, &a, &wa);
  if (!st) st = placed_link(b, link_b, &c, &wc);
  if (!st) st = lk_model_add_exclude(b->m, a, c, b->err);
  const char *pair[2] = {a, c};
  if (!st && b->record) b->record(b->record_user, LK_BK_EXCLUDE, pair);
  return st;
}

lk_status lk_builder_add_geom_pair(lk_builder *b, const lk_geom_pair_spec *s) {
  lk_geom_pair_spec p = *s;
  lk_status st = placed(b, s->geom_a, &p.geom_a);
  if (!st) st = placed(b, s->geom_b, &p.geom_b);
  if (!st && s->material) st = placed_material(b, s->material, &p.material);
  if (!st) st = lk_model_add_geom_pair(b->m, &p, b->err);
  return st;
}

lk_status lk_builder_add_coupling(lk_builder *b, const lk_coupling_spec *s, int loc) {
  lk_coupling_spec p = *s;
  lk_status st = placed(b, s->name, &p.name);
  if (!st) st = placed(b, s->joint_a, &p.joint_a);
  if (!st) st = placed(b, s->joint_b, &p.joint_b);
  if (!st) st = lk_model_add_coupling(b->m, &p, b->err);
  if (!st && b->record) b->record(b->record_user, LK_BK_COUPLING, &p);
  if (!st) st = site(b, LK_BK_COUPLING, s->name ? s->name : s->joint_a, loc);
  return st;
}

lk_status lk_builder_add_tether(lk_builder *b, const lk_tether_spec *s, int loc) {
  lk_tether_spec p = *s;
  int world;
  lk_status st = placed(b, s->name, &p.name);
  if (!st) st = placed(b, s->link, &p.link);
  if (!st) st = placed_link(b, s->other, &p.other, &world);
  if (st) return st;
  if (world) p.other_point = place_point(b, s->other_point);
  st = lk_model_add_tether(b->m, &p, b->err);
  if (!st && b->record) b->record(b->record_user, LK_BK_TETHER, &p);
  if (!st) st = site(b, LK_BK_TETHER, s->name ? s->name : s->link, loc);
  return st;
}

lk_status lk_builder_set_initial(lk_builder *b, const char *joint, const double *q, int nq,
                                 const double *v, int nv, int loc) {
  const char *pj;
  lk_status st = placed(b, joint, &pj);
  if (!st) st = lk_model_set_initial(b->m, pj, q, nq, v, nv, b->err);
  if (!st) st = site(b, LK_BK_INITIAL, joint, loc);
  return st;
}

lk_status lk_builder_add_keyframe(lk_builder *b, const lk_keyframe_spec *s) {
  lk_keyframe_spec p = *s;
  const char **joints = s->njoint > 0 ? LK_NEW_ARRAY(const char *, (size_t)s->njoint) : NULL;
  if (s->njoint > 0 && !joints) return lk_builder_oom(b);
  lk_status st = placed(b, s->name, &p.name);
  for (int i = 0; i < s->njoint && !st; i++) st = placed(b, s->joints[i], &joints[i]);
  p.joints = joints;
  if (!st) st = lk_model_add_keyframe(b->m, &p, b->err);
  lk_free(joints);
  return st;
}

lk_status lk_builder_set_options(lk_builder *b, const lk_options *o, int loc) {
  b->options_loc = loc;
  if (b->mo && !b->mo->options) return LK_OK; /* checked, not applied */
  lk_status st = lk_model_set_options(b->m, o, b->err);
  if (st) lk_builder_locate(b);
  return st;
}

lk_status lk_builder_set_name(lk_builder *b, const char *name) {
  if (b->mo && !b->mo->name) return LK_OK;
  return lk_model_set_name(b->m, name, b->err);
}

/* ------------------------------------------------ finalize, located again */

/* lk_model_finalize() names the element at fault ("link 'arm': ...",
 * "geom #3 (on 'base'): ...", "options: ..."). Find where the source
 * described it; the source may then point at the part the message names. */
static int find_site(const lk_builder *b, const char *msg, const char **restp) {
  static const struct {
    const char *prefix;
    lk_bkind kind;
  } kinds[] = {
      {"link '", LK_BK_LINK},         {"joint '", LK_BK_JOINT},
      {"material '", LK_BK_MATERIAL}, {"geom '", LK_BK_GEOM},
      {"actuator '", LK_BK_ACTUATOR}, {"load '", LK_BK_LOAD},
      {"contact '", LK_BK_CONTACT},   {"loop '", LK_BK_LOOP},
      {"coupling '", LK_BK_COUPLING}, {"tether '", LK_BK_TETHER},
      {"duplicate link name '", LK_BK_LINK},
      {"duplicate material name '", LK_BK_MATERIAL},
  };
  int loc = 0;
  const char *rest = msg;
  if (strncmp(msg, "options:", 8) == 0) {
    loc = b->options_loc;
  } else if (strstr(msg, "initial") && strstr(msg, "joint '")) {
    const char *q = strstr(msg, "joint '") + 7;
    for (int i = 0; i < b->nsites && !loc; i++) {
      const lk_bsite *s = &b->sites[i];
      if (s->kind == LK_BK_INITIAL && strncmp(q, s->name, strlen(s->name)) == 0 &&
          q[strlen(s->name)] == '\'')
        loc = s->loc;
    }
  } else if (strncmp(msg, "geom #", 6) == 0 || strncmp(msg, "contact #", 9) == 0) {
    lk_bkind kind = msg[0] == 'g' ? LK_BK_GEOM : LK_BK_CONTACT;
    int idx = atoi(msg + (kind == LK_BK_GEOM ? 6 : 9)), seen = 0;
    for (int i = 0; i < b->nsites && !loc; i++)
      if (b->sites[i].kind == kind && seen++ == idx) loc = b->sites[i].loc;
    rest = strchr(msg, ':') ? strchr(msg, ':') : msg;
  } else {
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0] && !loc; k++) {
      size_t pl = strlen(kinds[k].prefix);
      if (strncmp(msg, kinds[k].prefix, pl) != 0) continue;
      const char *nm = msg + pl;
      for (int i = 0; i < b->nsites && !loc; i++) {
        const char *rn = b->sites[i].name;
        if (b->sites[i].kind == kinds[k].kind && rn && strncmp(nm, rn, strlen(rn)) == 0 &&
            nm[strlen(rn)] == '\'') {
          loc = b->sites[i].loc;
          rest = nm + strlen(rn);
        }
      }
    }
  }
  if (!loc) return 0;
  int at = b->ops->refine ? b->ops->refine(b->src, loc, rest) : loc;
  *restp = rest;
  return at ? at : loc;
}

void lk_builder_locate(lk_builder *b) {
  lk_error *e = b->err;
  if (!e) return;
  const char *rest;
  int at = find_site(b, e->message, &rest);
  if (!at) return; /* keep finalize's message, with the file but no line */
  char copy[LK_ERROR_MESSAGE_MAX];
  snprintf(copy, sizeof copy, "%s", e->message);
  b->ops->error(b->src, at, e->status, e, copy);
}

/* Finalize's warnings (plausible.c) located as its errors are, written
 * "LINE:COLUMN: MESSAGE" as the loader's own (sources with columns). */
static void locate_warnings(lk_builder *b) {
  if (!b->ops->columns || !b->ops->position) return;
  for (int w = 0; w < b->m->nwarn; w++) {
    char *text = b->m->warn[w];
    const char *rest;
    int line = 0, col = 0, at = find_site(b, text, &rest);
    if (!at) continue;
    b->ops->position(b->src, at, &line, &col);
    if (line <= 0 || col <= 0) continue;
    char out[sizeof b->m->warn[0] + 32];
    snprintf(out, sizeof out, "%d:%d: %s", line, col, text);
    size_t n = strlen(out);
    if (n >= sizeof b->m->warn[0]) n = sizeof b->m->warn[0] - 1;
    memcpy(text, out, n);
    text[n] = '\0';
  }
}

void lk_builder_warn(lk_builder *b, int loc, const char *fmt, ...) {
  int cap = (int)(sizeof b->warn / sizeof b->warn[0]);
  if (b->nwarn > cap) return;
  if (b->nwarn == cap) {
    snprintf(b->warn[cap - 1], sizeof b->warn[0], "more warnings than %d: the rest are not listed",
             cap - 1);
    b->nwarn++;
    return;
  }
  char *w = b->warn[b->nwarn++];
  int line = 0, col = 0, k = 0;
  if (loc > 0 && b->ops->position) b->ops->position(b->src, loc, &line, &col);
  if (line > 0 && col > 0)
    k = snprintf(w, sizeof b->warn[0], "%d:%d: ", line, col);
  else if (line > 0)
    k = snprintf(w, sizeof b->warn[0], "%d: ", line);
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(w + k, sizeof b->warn[0] - (size_t)k, fmt, ap);
  va_end(ap);
}

/* The reader's warnings after finalize's (which starts the list afresh). */
static void add_warnings(lk_builder *b) {
  int cap = (int)(sizeof b->warn / sizeof b->warn[0]);
  int n = b->nwarn < cap ? b->nwarn : cap;
  for (int i = 0; i < n && b->m->nwarn < LK_MODEL_MAX_WARNINGS; i++)
    snprintf(b->m->warn[b->m->nwarn++], sizeof b->m->warn[0], "%s", b->warn[i]);
}

lk_status lk_builder_finalize(lk_builder *b) {
  if (b->mo) {
    add_warnings(b);
    return LK_OK; /* the caller finalizes the whole */
  }
  lk_status st = lk_model_finalize(b->m, b->err);
  if (st) lk_builder_locate(b);
  else locate_warnings(b);
  if (!st) add_warnings(b);
  return st;
}

/* ------------------------------------------------------- mass properties */

/* A solid's centroid in the link frame: the frame origin of a primitive,
 * a mesh's volume centroid. */
static lk_vec3 geom_centroid(const lk_geom_spec *g) {
  if (g->type == LK_GEOM_MESH && g->mesh) return lk_tf_point(&g->pose, lk_mesh_centroid(g->mesh));
  return g->pose.p;
}

int lk_inertia_from_geoms(const lk_geom_spec *g, int n, double mass, int com_given,
                          lk_vec3 *com, lk_mat3 *I) {
  double V = 0;
  lk_vec3 c = lk_v3_zero();
  for (int i = 0; i < n; i++) {
    double v = lk_geom_volume(&g[i]);
    V += v;
    c = lk_v3_madd(c, geom_centroid(&g[i]), v);
  }
  if (!(V > 0)) return 0;
  if (!com_given) *com = lk_v3_scale(c, 1.0 / V);
  lk_mat3 acc = lk_m3_zero();
  for (int i = 0; i < n; i++) {
    double v = lk_geom_volume(&g[i]);
    if (v <= 0) continue;
    double mi = mass * v / V;
    lk_mat3 Ig;
    if (g[i].type == LK_GEOM_MESH) {
      lk_mat3 Iu = lk_mesh_inertia(g[i].mesh);
      Ig = lk_m3_scale(&Iu, mi / v); /* the density is mi / v */
    } else if (lk_geom_solid_inertia(g[i].type, g[i].size, mi, &Ig, NULL))
      continue;
    lk_mat3 Ir = lk_m3_rotate_tensor(&g[i].pose.R, &Ig);
    lk_vec3 d = lk_v3_sub(geom_centroid(&g[i]), *com);
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

lk_mat3 lk_rotation_z_to(lk_vec3 n) {
  lk_vec3 z = lk_v3(0, 0, 1);
  double c = lk_v3_dot(z, n);
  lk_vec3 ax = lk_v3_cross(z, n);
  double s = lk_v3_norm(ax);
  if (s < 1e-12) return c > 0 ? lk_m3_identity() : lk_m3_diag(1, -1, -1);
  return lk_m3_from_axis_angle(lk_v3_scale(ax, 1.0 / s), atan2(s, c));
}

lk_status lk_builder_check_range(lk_builder *b, int loc, const char *what, int range, double v) {
  switch (range) {
    case LK_RANGE_POSITIVE:
      if (!(v > 0))
        return lk_builder_error(b, loc, LK_SCHEMA_ERROR, "%s must be positive, got %g", what, v);
      break;
    case LK_RANGE_NONNEG:
      if (!(v >= 0))
        return lk_builder_error(b, loc, LK_SCHEMA_ERROR, "%s must be >= 0, got %g", what, v);
      break;
    case LK_RANGE_UNIT:
      if (!(v >= 0 && v <= 1))
        return lk_builder_error(b, loc, LK_SCHEMA_ERROR, "%s must be in [0, 1], got %g", what, v);
      break;
    default:
      break;
  }
  return LK_OK;
}
