/* The URDF reader (urdf.c), for load.c and the YAML reader's `include:`.
 * Not installed. */
#ifndef LK_IO_URDF_H
#define LK_IO_URDF_H

#include <stddef.h>

#include "linkage/io.h"
#include "linkage/model.h"

/* A link's own setting in a YAML include (by the URDF's link name). */
typedef struct {
  const char *link;
  const char *material; /* of its collision geoms (the model's name) */
} lk_urdf_link_override;

/* What a caller decides about a URDF that the file does not say. */
typedef struct {
  int base;             /* the root link's joint to the world: LK_JOINT_FIXED
                           (the default) or LK_JOINT_FREE */
  const char *material; /* of the collision geoms; NULL: the default */
  const char *prefix;   /* put before every link and joint name in the
                           model (messages keep the file's names) */
  const lk_urdf_link_override *overrides;
  int noverrides;
  /* Called for every link once the file's tree is known: its name, its
   * joint's name (the file's), the joint type. */
  lk_status (*on_link)(void *user, const char *link, const char *joint, int jtype);
  void *user;
  /* Optional: the builder's record hook (builder.h), for convert.c. */
  void (*record)(void *user, int kind, const void *spec);
  void *record_user;
  /* Optional, for convert.c: called with record_user for a mesh geom
   * (before its record) with the file's resolved path and the scale. */
  void (*mesh_file)(void *user, const char *path, const double scale[3]);
} lk_urdf_options;

void lk_urdf_options_default(lk_urdf_options *o);

/* As lk_yaml_read (builder.h); uo may be NULL (the defaults). */
lk_status lk_urdf_read(lk_model *m, const lk_merge_options *mo, const char *text, size_t len,
                       const char *label, const lk_load_options *o, const lk_urdf_options *uo,
                       lk_error *err);

#endif
