/* Mechanism descriptions and simulation output.
 *
 * Loading: lk_model_load_file() reads a YAML mechanism description (the format is
 * documented key by key in docs/format.md) into a finalized lk_model. Every
 * mistake is reported once, in the lk_error, with the file, the 1-based line
 * and column of the YAML node at fault, and what was expected:
 *   LK_IO_ERROR       the file cannot be read (or is larger than max_bytes)
 *   LK_PARSE_ERROR    the text is not YAML (syntax, encoding, control bytes)
 *   LK_SCHEMA_ERROR   YAML, but not a mechanism: unknown key (with a
 *                     did-you-mean), wrong type, missing key, unknown name,
 *                     value out of range, bad --set override
 *   LK_INVALID_MODEL  whatever lk_model_finalize() rejects, mapped back to
 *                     the node that described the offending element
 *   LK_OUT_OF_MEMORY
 * Overrides ("options.timestep=0.0005", "materials.wood.mu_static=0.5") are
 * applied to the document before the model is built, so they are checked
 * exactly like the file's own values.
 *
 * Output: the trajectory CSV (one column per link coordinate and joint
 * coordinate), the contact CSV, and an SVG plot. Every file is written to a
 * temporary file next to its destination and renamed into place when it is
 * closed, so a destination is either untouched or complete, never half
 * written. Numbers are read and written in the C locale whatever the
 * program's locale is. */
#ifndef LINKAGE_IO_H
#define LINKAGE_IO_H

#include <stddef.h>
#include <stdio.h>

#include "linkage/data.h"
#include "linkage/error.h"
#include "linkage/math.h"
#include "linkage/model.h"
#include "linkage/statics.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Names (links, joints, geoms, materials, actuators, ...) in a file are 1 to
 * LK_IO_NAME_MAX characters from [A-Za-z0-9_-], so that they can be used
 * unquoted in CSV headers and in dotted --set paths. */
#define LK_IO_NAME_MAX 64
/* Files larger than this are refused unless lk_load_options.max_bytes says
 * otherwise (libyaml's document tree costs ~100 bytes a node). */
#define LK_IO_MAX_BYTES_DEFAULT ((size_t)16 << 20)
#define LK_IO_MAX_PLOT_COLUMNS 16
#define LK_IO_COLUMN_MAX (LK_IO_NAME_MAX + 8)
#define LK_IO_MAX_LOAD_STEPS 64

typedef enum { LK_ANALYSIS_NONE = 0, LK_ANALYSIS_STATIC } lk_analysis_kind;

/* What a file says about running it (its `simulate:` section and its
 * `description`); filled by the loader when asked for. */
typedef struct {
  double duration; /* s; < 0 when the file does not say */
  int every;       /* write every N-th step; 0 when the file does not say */
  int nplot;       /* number of plot_columns given (0: none) */
  char plot_columns[LK_IO_MAX_PLOT_COLUMNS][LK_IO_COLUMN_MAX];
  char description[512]; /* "" when none; truncated if longer */
  /* The `analysis:` section (docs/format.md). */
  lk_analysis_kind analysis;  /* LK_ANALYSIS_NONE when the file has none */
  lk_static_options statics;  /* its settings (load_factors NULL: point it
                                 at load_steps when nload_steps > 0) */
  int nload_steps;            /* load_steps given (0: statics.nsteps equal ones) */
  double load_steps[LK_IO_MAX_LOAD_STEPS];
} lk_run_settings;

typedef struct {
  /* "KEY=VALUE" overrides, applied in order before the model is built. KEY
   * is a dotted path from the top of the document; a list item is addressed
   * by its `name` (or, for items without one, its `joint`), else by its
   * 0-based index. VALUE is YAML ("0.5", "[0, 0, -1.62]", "{mu: 0.3}"). */
  const char *const *set;
  int nset;
  size_t max_bytes;        /* 0: LK_IO_MAX_BYTES_DEFAULT */
  lk_run_settings *run;    /* optional output: the file's run settings */
} lk_load_options;

void lk_load_options_default(lk_load_options *o);
void lk_run_settings_default(lk_run_settings *r);

/* A finalized model from a mechanism file (free it with lk_model_free), or
 * NULL with err filled. opts may be NULL (no overrides). */
lk_model *lk_model_load_file(const char *path, const lk_load_options *opts, lk_error *err);

/* The same from text in memory (len bytes, need not be NUL-terminated);
 * `name` is what messages call the text (NULL: "<string>"). */
lk_model *lk_model_load_string(const char *text, size_t len, const char *name,
                               const lk_load_options *opts, lk_error *err);

/* ------------------------------------------------- composing mechanisms */

/* How lk_model_load_*_into() places a file into a model that is still
 * being built, so that several files (a hand and an object, a robot and a
 * fixture) make one mechanism. The file's world becomes the frame `pose`
 * on the link `parent`: its root links hang from `parent` with their
 * origins composed with `pose`, its world geoms are put on `parent` (when
 * world_geoms is set), and explicit contacts, loops and tethers that name
 * the world take `parent` instead, their world-frame points, normals and
 * frames moved by `pose`; supports' normals (world directions) are turned
 * by it too. Gravity (an option) stays in world coordinates.
 * Every name the file defines or refers to (links, joints, geoms,
 * materials, actuators, loads, contacts, supports, loops, couplings,
 * tethers and the joints of `initial`) gets `prefix` in front; a file that defines its own
 * "default" material keeps it to itself under a prefix. */
typedef struct {
  const char *prefix; /* NULL or "": none; else up to LK_IO_NAME_MAX of
                         [A-Za-z0-9_-] (for example "hand_") */
  const char *parent; /* a link already added to the model; NULL or
                         "world": the world */
  lk_transform pose;  /* the file's world frame in parent's frame */
  int world_geoms;    /* 1: add the file's world geoms; 0: check them and
                         leave them out (a floor the object stood on) */
  int options;        /* 1: the file's options replace the model's; 0: they
                         are checked and ignored */
  int name;           /* 1: the file's name becomes the model's name */
} lk_merge_options;

/* Defaults: no prefix, the world, identity pose, world geoms added, options
 * and name ignored. */
void lk_merge_options_default(lk_merge_options *o);

/* Load a mechanism file into m, which must not be finalized yet (finalize
 * it once everything is in: that is where cross-file problems such as a
 * duplicate name or an unknown parent are reported, without a file
 * position). The file is checked exactly as lk_model_load_file() checks
 * it, overrides included; its `simulate` section fills opts->run if given.
 * mo may be NULL (defaults). On failure m holds the part of the file added
 * before the error: discard it. */
lk_status lk_model_load_file_into(lk_model *m, const char *path, const lk_load_options *opts,
                                  const lk_merge_options *mo, lk_error *err);
lk_status lk_model_load_string_into(lk_model *m, const char *text, size_t len, const char *name,
                                    const lk_load_options *opts, const lk_merge_options *mo,
                                    lk_error *err);

/* ------------------------------------------------------------ trajectory */

/* The trajectory columns of a finalized model: "t"; then for every link but
 * the world "<link>.x", "<link>.y", "<link>.z" (world position of the link
 * frame, m); then for every joint with coordinates, in link order, 1-DoF
 * joints "<joint>.q" and "<joint>.v", ball and free joints "<joint>.q0".. and
 * "<joint>.v0".. (all q components, then all v components; see
 * linkage/model.h for their meaning). */
int lk_trajectory_ncolumns(const lk_model *m);
/* Name of column i into buf; returns buf, or NULL for a bad index. */
const char *lk_trajectory_column_name(const lk_model *m, int i, char *buf, size_t size);
/* Index of a column by name, or -1. */
int lk_trajectory_column_index(const lk_model *m, const char *name);
/* The values of every column for the current state of d into row
 * (lk_trajectory_ncolumns entries). Link positions come from the last
 * lk_forward_kinematics(). */
void lk_trajectory_row(const lk_model *m, const lk_data *d, double *row);

typedef struct lk_trajectory_writer lk_trajectory_writer;

/* A CSV trajectory file at path (written atomically, see above), whose
 * header is written at once. Numbers are written with 10 significant
 * digits. */
lk_trajectory_writer *lk_trajectory_writer_open(const char *path, const lk_model *m,
                                                lk_error *err);
/* The same on a stream the caller owns (e.g. stdout); not atomic. */
lk_trajectory_writer *lk_trajectory_writer_stream(FILE *f, const lk_model *m, lk_error *err);
/* Append one row for the current state of d (see lk_trajectory_row). */
lk_status lk_trajectory_writer_add(lk_trajectory_writer *w, const lk_data *d, lk_error *err);
long lk_trajectory_writer_rows(const lk_trajectory_writer *w);
/* Finish: flush and rename into place (or just flush a stream). The writer
 * is freed whatever happens; on failure the destination is untouched. */
lk_status lk_trajectory_writer_close(lk_trajectory_writer *w, lk_error *err);
/* Drop the temporary file and free; the destination is untouched. NULL is
 * harmless. */
void lk_trajectory_writer_discard(lk_trajectory_writer *w);

/* -------------------------------------------------------------- contacts */

/* One row of the contact CSV: one contact at one written step. */
typedef struct {
  double t;           /* s */
  const char *link;   /* the body that touches */
  const char *other;  /* the surface's link, "world" for the world */
  lk_vec3 position;   /* contact point, world frame (m) */
  lk_vec3 normal;     /* unit normal, world frame, from other towards link */
  double fn;          /* normal force (N, >= 0) */
  double ft;          /* magnitude of the friction force (N) */
  double slip;        /* tangential slip speed (m/s) */
  const char *state;  /* "static" or "dynamic" (the friction state) when the
                         contact carries a normal force, else "open" */
  double utilization; /* ft / (mu fn), mu the mixed static or dynamic
                         coefficient of the state: 1 on the edge of the
                         cone; 0 if fn = 0 */
} lk_contact_row;

/* Row i of the contacts a data holds (linkage/collision.h: lk_data_contact,
 * filled by the last collision pass of the step): fn and ft from the
 * contact's impulses divided by the time step, slip from the link
 * velocities of the last lk_forward_kinematics(). Reads only: nothing of
 * the data's contact state changes. LK_INVALID_ARGUMENT for a bad index. */
lk_status lk_contact_row_of(const lk_model *m, const lk_data *d, int i, lk_contact_row *row);

/* The contact CSV columns, comma-separated, without a newline:
 * t,link,other,x,y,z,nx,ny,nz,fn,ft,slip,state,utilization */
const char *lk_contact_csv_header(void);

typedef struct lk_contact_writer lk_contact_writer;
lk_contact_writer *lk_contact_writer_open(const char *path, lk_error *err);
lk_status lk_contact_writer_add(lk_contact_writer *w, const lk_contact_row *r, lk_error *err);
/* One row per contact the data holds now (see lk_contact_row_of); raises
 * *max_depth (if given) to the deepest penetration among them. */
lk_status lk_contact_writer_add_data(lk_contact_writer *w, const lk_model *m, const lk_data *d,
                                     double *max_depth, lk_error *err);
long lk_contact_writer_rows(const lk_contact_writer *w);
lk_status lk_contact_writer_close(lk_contact_writer *w, lk_error *err);
void lk_contact_writer_discard(lk_contact_writer *w);

/* ------------------------------------------------------------------ plot */

typedef struct {
  const char *title;  /* NULL: none */
  const char *xlabel; /* NULL: "t (s)" */
  const char *ylabel; /* NULL: none */
  int width, height;  /* pixels; 0: 800 x 480 */
} lk_plot_options;

void lk_plot_options_default(lk_plot_options *o);

/* A self-contained SVG line plot of nseries series y[k][0..n-1] against
 * x[0..n-1], with axes, ticks, tick labels, axis labels and a legend of the
 * series names, written atomically to path. Non-finite samples break the
 * line. Long series are thinned to what the width can show, keeping each
 * pixel column's minimum and maximum. */
lk_status lk_plot_svg(const char *path, const lk_plot_options *o, const double *x, int n,
                      const double *const *y, const char *const *names, int nseries,
                      lk_error *err);

#ifdef __cplusplus
}
#endif

#endif
