/* The model builder that every reader of a mechanism description feeds
 * (YAML, URDF, MJCF: lib/io/yaml.c, urdf.c, mjcf.c). Not installed.
 *
 * What a reader shares with the others lives here, once:
 *   - the registries of names: links with their joints (and joint types,
 *     known before the joints themselves are read), materials, and every
 *     other named element, each unique within its kind;
 *   - references to links, joints and materials, checked where they are
 *     written, with a did-you-mean;
 *   - placement into an existing model (lk_model_load_*_into: a prefix for
 *     every name, the file's world made a frame on a link);
 *   - the builder calls themselves (lk_builder_add_*), which also remember
 *     where each element came from, so that what lk_model_finalize() rejects
 *     is reported at the element (lk_builder_finalize);
 *   - mass properties from solid geoms (primitives and mesh hulls).
 * A reader knows its syntax only. It describes a place in its source by an
 * int `loc` (a YAML node id, an XML element's index), and an lk_source
 * turns a loc into FILE:LINE[:COLUMN]; loc 0 is the file itself. */
#ifndef LK_IO_BUILDER_H
#define LK_IO_BUILDER_H

#include "core/names.h"
#include <stddef.h>

#include "linkage/io.h"
#include "linkage/model.h"

typedef struct {
  /* Report msg at loc (status returned). */
  lk_status (*error)(void *src, int loc, lk_status status, lk_error *err, const char *msg);
  /* 1-based line and column of loc; column 0 when the source has none. */
  void (*position)(void *src, int loc, int *line, int *column);
  /* Optional: a finer loc within the element at loc for a message of
   * lk_model_finalize() (`rest` is its part after the element's name),
   * for instance the key it names. */
  int (*refine)(void *src, int loc, const char *rest);
  int columns; /* 1: positions have columns ("line 3, column 5") */
} lk_source;

/* Kinds of the elements handed to the model, to locate finalize's reports. */
typedef enum {
  LK_BK_LINK,
  LK_BK_JOINT,
  LK_BK_MATERIAL,
  LK_BK_GEOM,
  LK_BK_ACTUATOR,
  LK_BK_LOAD,
  LK_BK_CONTACT,
  LK_BK_LOOP,
  LK_BK_COUPLING,
  LK_BK_TETHER,
  LK_BK_INITIAL,
  LK_BK_SUPPORT,
  LK_BK_EXCLUDE, /* recorded as a const char *[2] (the two links) */
} lk_bkind;

/* A link as the source names it, known before it is built. */
typedef struct {
  const char *name;
  const char *joint; /* its joint's name (the link's unless given) */
  int jtype;         /* lk_joint_type, or -1 while missing or invalid */
  int parent;        /* index in the registry, -1 the world (once read) */
  int loc;           /* the link's element */
  int parent_loc;    /* where the parent is named (0: the world by default) */
  int joint_loc;     /* the joint's element (the link's when it has none) */
  int external;      /* registered for an included file, whose reader
                        builds it (a YAML `include:` of a URDF) */
} lk_blink;

typedef struct {
  const char *name;
  int loc;
} lk_bname;

typedef struct {
  lk_bkind kind;
  const char *name; /* the name finalize uses for it (may be NULL) */
  int loc;
} lk_bsite;

typedef struct {
  lk_model *m;
  lk_error *err;
  const lk_merge_options *mo; /* NULL: an ordinary load */
  const lk_source *ops;
  void *src;
  lk_blink *links;
  int nlinks, caplinks;
  const char **link_names;  /* nlinks + "world", for suggestions */
  const char **joint_names; /* nlinks */
  lk_bname *mats;
  int nmats, capmats;
  const char **mat_names; /* nmats + "default" */
  lk_bname *names;        /* "kind:name" of every named element */
  int nnames, capnames;
  lk_bsite *sites;
  int nsites, capsites;
  char **pool; /* prefixed names and other strings the builder owns */
  int npool, cappool;
  int defines_default; /* the source has a material named "default" */
  /* Hashed lookups (a registry of n names searched n times was quadratic):
   * link name -> index, joint name -> index, "kind:name" -> names[] index. */
  lk_name_index link_index, joint_index, name_index;
  int options_loc;
  /* Optional: told of every spec the model accepted (as placed), in
   * order, before finalize; `linkage convert` writes them out (convert.c). */
  void (*record)(void *user, lk_bkind kind, const void *spec);
  void *record_user;
  /* The reader's own warnings ("LINE: text" or "LINE:COLUMN: text"),
   * added to the model's list once it is finalized. */
  int nwarn;
  char warn[16][256];
} lk_builder;

void lk_builder_init(lk_builder *b, lk_model *m, const lk_merge_options *mo,
                     const lk_source *ops, void *src, lk_error *err);
void lk_builder_free(lk_builder *b);

/* A located error: printf-style message at loc. */
lk_status lk_builder_error(lk_builder *b, int loc, lk_status status, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
lk_status lk_builder_oom(lk_builder *b);
/* A warning at loc (0: the file), kept for the model (beyond the list's
 * capacity, dropped: the list says so in its last entry). */
void lk_builder_warn(lk_builder *b, int loc, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* A copy of s that lives as long as the builder (NULL when out of memory). */
const char *lk_builder_strdup(lk_builder *b, const char *s);

/* ----------------------------------------------------------- registries */

/* A name unique among the elements of one kind (kind_label: "geom"); the
 * second definition is reported with the first one's position. */
lk_status lk_builder_unique(lk_builder *b, const char *kind_label, const char *name, int loc);
/* Register a link (after its name and its joint's name were checked
 * unique); *index (may be NULL) receives its index. Names are not copied. */
lk_status lk_builder_push_link(lk_builder *b, const lk_blink *l, int *index);
/* Register a material name (not copied). */
lk_status lk_builder_push_material(lk_builder *b, const char *name, int loc);
/* Call once every link and material is registered: completes the name
 * lists that suggestions use. */
lk_status lk_builder_names_done(lk_builder *b);

int lk_builder_find_link(const lk_builder *b, const char *name);
int lk_builder_find_joint(const lk_builder *b, const char *name);
/* 1 for a defined material or "default", else 0. */
int lk_builder_has_material(const lk_builder *b, const char *name);

/* References, checked with a did-you-mean. `what` names the value in the
 * message ("link 'arm': parent"), `shown` is how the value is quoted
 * ("'uper_arm'"). */
lk_status lk_builder_ref_link(lk_builder *b, int loc, const char *what, const char *name,
                              const char *shown, int world_ok, const char **out, int *index);
/* one_dof: the joint must be revolute or prismatic. */
lk_status lk_builder_ref_joint(lk_builder *b, int loc, const char *what, const char *name,
                               const char *shown, int one_dof, const char **out, int *index);
lk_status lk_builder_ref_material(lk_builder *b, int loc, const char *what, const char *name,
                                  const char *shown, const char **out);

/* The first link (in registry order) whose ancestry comes back to it, or
 * -1; path receives "a -> b -> a". */
int lk_builder_find_cycle(const lk_builder *b, char *path, size_t size);

/* ------------------------------------------------------------- building */
/* Specs carry the source's own names; these apply the placement (prefix,
 * parent, pose) and remember loc for lk_builder_finalize. */

lk_status lk_builder_add_link(lk_builder *b, const lk_link_spec *s, int loc, int joint_loc);
lk_status lk_builder_add_geom(lk_builder *b, const lk_geom_spec *s, int loc);
lk_status lk_builder_add_material(lk_builder *b, const lk_material_spec *s, int loc);
lk_status lk_builder_add_actuator(lk_builder *b, const lk_actuator_spec *s, int loc);
lk_status lk_builder_add_load(lk_builder *b, const lk_load_spec *s, int loc);
lk_status lk_builder_add_contact(lk_builder *b, const lk_contact_spec *s, int loc);
lk_status lk_builder_add_support(lk_builder *b, const lk_support_spec *s, int loc);
lk_status lk_builder_add_loop(lk_builder *b, const lk_loop_spec *s, int loc);
lk_status lk_builder_add_coupling(lk_builder *b, const lk_coupling_spec *s, int loc);
/* The geoms of two links (the source's names) never collide. */
lk_status lk_builder_add_exclude(lk_builder *b, const char *link_a, const char *link_b);
/* A keyframe, its name and joints placed. */
lk_status lk_builder_add_keyframe(lk_builder *b, const lk_keyframe_spec *s);
/* A geom pair (the source's geom and material names). */
lk_status lk_builder_add_geom_pair(lk_builder *b, const lk_geom_pair_spec *s);
lk_status lk_builder_add_tether(lk_builder *b, const lk_tether_spec *s, int loc);
lk_status lk_builder_set_initial(lk_builder *b, const char *joint, const double *q, int nq,
                                 const double *v, int nv, int loc);
/* Options (loc: their element): applied unless the placement says to
 * ignore them; the model's range checks located like finalize's. */
lk_status lk_builder_set_options(lk_builder *b, const lk_options *o, int loc);
/* The model's name, unless the placement says to ignore it. */
lk_status lk_builder_set_name(lk_builder *b, const char *name);

/* Finalize (unless loading into a model, whose caller finalizes) and
 * report a failure at the element it names. */
lk_status lk_builder_finalize(lk_builder *b);
/* Relocate the error in b->err, which lk_model_finalize() or a builder
 * call reported by name, to the element's loc (left as it is when no
 * element matches). */
void lk_builder_locate(lk_builder *b);

/* ------------------------------------------------------ mass properties */

/* lk_geom_volume: model/model_impl.h. */
/* Mass properties of a link from its solid geoms: the mass split in
 * proportion to volume (uniform density), the centre of mass the volume
 * centroid unless com_given, the inertia each solid's rotated into the
 * link frame and moved to the centre of mass (parallel axes). Overlapping
 * geoms count twice. Returns 0 when there is no solid. */
int lk_inertia_from_geoms(const lk_geom_spec *g, int n, double mass, int com_given,
                          lk_vec3 *com, lk_mat3 *inertia);
/* The rotation taking +z to the unit vector n (the shortest one). */
lk_mat3 lk_rotation_z_to(lk_vec3 n);

/* Numbers' ranges, the same words for every reader. */
enum { LK_RANGE_ANY = 0, LK_RANGE_POSITIVE, LK_RANGE_NONNEG, LK_RANGE_UNIT };
/* LK_OK when v is in range, else a located error "WHAT must be ..., got V". */
lk_status lk_builder_check_range(lk_builder *b, int loc, const char *what, int range, double v);

/* --------------------------------------------------------------- readers */

/* Each reads a description (text, len bytes; `label` is what messages call
 * it) into m, which it finalizes when mo is NULL; with mo it places the
 * description as lk_model_load_*_into() says and leaves m unfinalized. */
lk_status lk_yaml_read(lk_model *m, const lk_merge_options *mo, const char *text, size_t len,
                       const char *label, const lk_load_options *o, lk_error *err);
/* URDF: lib/io/urdf.h. */

#endif
