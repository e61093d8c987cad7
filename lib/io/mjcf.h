/* The MJCF reader (mjcf.c), for load.c. Not installed. */
#ifndef LK_IO_MJCF_H
#define LK_IO_MJCF_H

#include <stddef.h>

#include "linkage/io.h"
#include "linkage/model.h"

/* As lk_yaml_read (builder.h). */
lk_status lk_mjcf_read(lk_model *m, const lk_merge_options *mo, const char *text, size_t len,
                       const char *label, const lk_load_options *o, lk_error *err);

/* The same, telling record (when not NULL) of every spec the builder hands
 * the model (builder.h's record hook), and mesh_file (when not NULL) of
 * each <mesh> read (the lk_mesh its geoms' specs point to, the file, the
 * scale as given: negative for a mirrored mesh), for `linkage convert`. */
lk_status lk_mjcf_read_recorded(lk_model *m, const lk_merge_options *mo, const char *text,
                                size_t len, const char *label, const lk_load_options *o,
                                void (*record)(void *user, int kind, const void *spec),
                                void (*mesh_file)(void *user, const lk_mesh *mesh,
                                                  const char *path, const double scale[3]),
                                void *record_user, lk_error *err);

#endif
