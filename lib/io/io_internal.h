/* Helpers shared by the files of lib/io (not installed). */
#ifndef LK_IO_INTERNAL_H
#define LK_IO_INTERNAL_H

#include <locale.h>
#include <stdio.h>

#include "linkage/error.h"
#include "linkage/io.h"

/* The "C" locale, created once: numbers in files never depend on the
 * locale a program has set. (locale_t)0 if it could not be created, in
 * which case callers fall back to the current locale. */
locale_t lk_io_c_locale(void);

/* strerror() without its thread-safety problem. */
const char *lk_io_strerror(int errnum, char *buf, size_t size);

/* An output file that appears at its destination only when committed: a
 * set of one (lk_outputs, outputs.c), so a regular file is written to
 * "<dir>/.<name>.XXXXXX" and renamed over the destination by
 * lk_outfile_commit(), and "-", devices and FIFOs are written directly. A
 * "stream" outfile writes to a FILE the caller owns and only flushes. */
typedef struct lk_outputs lk_outputs;
typedef struct {
  FILE *f;
  lk_outputs *set; /* NULL for a stream */
  int failed;      /* a write failed (errno saved in err_no) */
  int err_no;
} lk_outfile;

lk_status lk_outfile_open(lk_outfile *o, const char *path, lk_error *err);
void lk_outfile_stream(lk_outfile *o, FILE *f);
/* printf into the file in the C locale; remembers failures. */
void lk_outfile_printf(lk_outfile *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void lk_outfile_puts(lk_outfile *o, const char *s);
/* Flush, close and rename; the temporary file is removed on failure. */
lk_status lk_outfile_commit(lk_outfile *o, lk_error *err);
void lk_outfile_discard(lk_outfile *o);

/* The guard of every file a reader opens (input.c). A referenced file
 * (an included file, a mesh: referenced = 1) must be a regular file:
 * LK_IO_ERROR "is a FIFO (a named pipe), not a regular file" (a directory,
 * a device, a socket), or "cannot open the file: ..." when it cannot be
 * found. Then o's input hook, if any, sees the path (an output must not
 * replace it). The description a program names itself may be a FIFO
 * (referenced = 0: `linkage check <(generate)`). */
struct lk_load_options_s;
lk_status lk_io_input(const lk_load_options *o, const char *path, int referenced,
                      lk_error *err);
/* Only the regular-file test of lk_io_input. */
lk_status lk_io_regular_file(const char *path, lk_error *err);

/* lk_mesh_load_file, and the solid the file's triangles bound at the
 * same scale (*solid_ok 0 when they bound none: an open surface), exact
 * (signed tetrahedra) or by MuJoCo's legacy rule (legacy 1: tetrahedra
 * from the surface's centroid, each counted positive): meshfile.c,
 * model/mesh_solid.h. */
#include "model/mesh_solid.h"
lk_status lk_mesh_load_solid(const char *path, const double scale[3], int legacy, lk_mesh **out,
                             lk_mesh_solid *solid, int *solid_ok, lk_error *err);
/* A mesh read at |scale| made the mirrored one of a negative scale: its
 * vertices negated along each axis whose factor is negative, the hull
 * again (MJCF's and YAML's mirrored meshes); nothing to do without a
 * negative factor. On failure *mesh is freed and NULL. */
lk_status lk_mesh_mirror(lk_mesh **mesh, const double scale[3], lk_error *err);

/* Each pair of geoms that overlap at the model's initial state by more
 * than a tenth of the smaller one's size (lk_model_geom_extent), deepest
 * point of the pair, in contact order, given to fn until it returns
 * non-zero (that status is returned); LK_OK when the state cannot be
 * computed (the step reports it). YAML's plausibility check (yaml.c) and
 * linkage convert (which says in the YAML that the source's overlaps are
 * meant: options initial_overlaps) share it. */
struct lk_model;
lk_status lk_io_initial_overlaps(const struct lk_model *m,
                                 lk_status (*fn)(void *user, int ga, int gb, double depth,
                                                 double size),
                                 void *user);

#endif
