/* The URDF reader (urdf.c), for load.c and the YAML reader's `include:`.
 * Not installed. */
#ifndef LK_IO_URDF_H
#define LK_IO_URDF_H

#include <stddef.h>

#include "linkage/io.h"
#include "linkage/model.h"

/* What a caller decides about a URDF that the file does not say. */
typedef struct {
  int base;             /* the root link's joint to the world: LK_JOINT_FIXED
                           (the default) or LK_JOINT_FREE */
  const char *material; /* of the collision geoms; NULL: the default */
} lk_urdf_options;

void lk_urdf_options_default(lk_urdf_options *o);

/* As lk_yaml_read (builder.h); uo may be NULL (the defaults). */
lk_status lk_urdf_read(lk_model *m, const lk_merge_options *mo, const char *text, size_t len,
                       const char *label, const lk_load_options *o, const lk_urdf_options *uo,
                       lk_error *err);

#endif
