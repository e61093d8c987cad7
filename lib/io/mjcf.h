/* The MJCF reader (mjcf.c), for load.c. Not installed. */
#ifndef LK_IO_MJCF_H
#define LK_IO_MJCF_H

#include <stddef.h>

#include "linkage/io.h"
#include "linkage/model.h"

/* As lk_yaml_read (builder.h). */
lk_status lk_mjcf_read(lk_model *m, const lk_merge_options *mo, const char *text, size_t len,
                       const char *label, const lk_load_options *o, lk_error *err);

#endif
