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
 * coordinate), the contact CSV, and an SVG plot. A regular file is written
 * to a temporary file next to its destination and renamed into place when
 * it is closed, so a destination is either untouched or complete, never half
 * written; standard output ("-"), devices and FIFOs are written directly
 * (see lk_outputs below, which also replaces several files together).
 * Numbers are read and written in the C locale whatever the program's
 * locale is. */
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
/* Flow collections ([ ] and { }) nested deeper than this are refused
 * before parsing (libyaml's time grows with the square of the depth). */
#define LK_IO_MAX_FLOW_DEPTH 256
#define LK_IO_MAX_PLOT_COLUMNS 16
#define LK_IO_COLUMN_MAX (LK_IO_NAME_MAX + 8)
#define LK_IO_MAX_LOAD_STEPS 64
#define LK_IO_MAX_PHASES 16

typedef enum { LK_ANALYSIS_NONE = 0, LK_ANALYSIS_STATIC } lk_analysis_kind;

/* What a file says about running it (its `simulate:` section and its
 * `description`); filled by the loader when asked for. */
typedef struct {
  double duration; /* s; < 0 when the file does not say */
  int every;       /* write every N-th step; 0 when the file does not say */
  int nplot;       /* number of plot_columns given (0: none) */
  char plot_columns[LK_IO_MAX_PLOT_COLUMNS][LK_IO_COLUMN_MAX];
  /* simulate.phases: named stretches of the run, each from its start time
   * (increasing), marked on the plot. */
  int nphases;
  double phase_t[LK_IO_MAX_PHASES];
  char phase_name[LK_IO_MAX_PHASES][LK_IO_NAME_MAX + 1];
  char description[512]; /* "" when none; truncated if longer */
  /* The `analysis:` section (docs/format.md). */
  lk_analysis_kind analysis;  /* LK_ANALYSIS_NONE when the file has none */
  lk_static_options statics;  /* its settings (load_factors NULL: point it
                                 at load_steps when nload_steps > 0) */
  int nload_steps;            /* load_steps given (0: statics.nsteps equal ones) */
  double load_steps[LK_IO_MAX_LOAD_STEPS];
} lk_run_options;
/* Deprecated (issue 33: every other settings struct is an _options), kept
 * for the 0.1 series: the same struct and its default. */
typedef lk_run_options lk_run_settings;

typedef struct {
  /* "KEY=VALUE" overrides, applied in order before the model is built. KEY
   * is a dotted path from the top of the document; a list item is addressed
   * by its `name` (or, for items without one, its `joint`), else by its
   * 0-based index. VALUE is YAML ("0.5", "[0, 0, -1.62]", "{mu: 0.3}"). */
  const char *const *set;
  int nset;
  size_t max_bytes;        /* 0: LK_IO_MAX_BYTES_DEFAULT */
  lk_run_settings *run;    /* optional output: the file's run settings */
  /* Where a URDF's package://PKG/... names are looked for: directories
   * separated by ':', each holding PKG (or being PKG); NULL: only the
   * directories above the file. The library reads no environment: the
   * linkage program passes --package-path, then ROS_PACKAGE_PATH. */
  const char *package_path;
  /* Called with the path of every file the load reads, before it is read:
   * the description itself (lk_model_load_file*), the files it includes
   * and the mesh files it names. A status other than LK_OK (err filled)
   * stops the load with that error. NULL: none. The linkage program
   * passes lk_outputs_input so that no output replaces a file read. */
  lk_status (*input)(void *input_ctx, const char *path, lk_error *err);
  void *input_ctx;
  /* 1: a URDF's inertia that the model refuses (not positive definite,
   * breaking the triangle inequality, a massless link with inertia, a
   * moving link without <inertial>) is refused, naming the rule that would
   * repair it; 0 (default): repaired by that rule, with a warning
   * (docs/format.md, "URDF"). */
  int strict_inertia;
  /* 1: a URDF collision mesh whose file is not found is an error at its
   * element; 0 (default): that collision shape is left out and the load
   * goes on, with a warning naming the file and each link concerned (as
   * Bullet's URDF importer does; docs/format.md, "URDF"). A file that is
   * found but cannot be read as a mesh is an error either way, and so is a
   * moving link left without mass. A missing visual mesh is always a
   * warning. */
  int strict_meshes;
  /* 0 (default): two URDF links whose collision shapes overlap with every
   * joint at 0 (a four-bar gripper's pinned links, a wrist folded onto its
   * forearm) never collide with each other, listed in a warning (MoveIt's
   * default-pose rule; docs/format.md, "URDF"); 1: they collide as any
   * other pair. */
  int keep_rest_overlaps;
} lk_load_options;

void lk_load_options_default(lk_load_options *o);
void lk_run_options_default(lk_run_options *r);
void lk_run_settings_default(lk_run_settings *r);

/* A finalized model from a mechanism file (free it with lk_model_free), or
 * NULL with err filled. opts may be NULL (no overrides). */
lk_model *lk_model_load_file(const char *path, const lk_load_options *opts, lk_error *err);

/* The same from text in memory (len bytes, need not be NUL-terminated);
 * `name` is what messages call the text (NULL: "<string>"). */
lk_model *lk_model_load_string(const char *text, size_t len, const char *name,
                               const lk_load_options *opts, lk_error *err);

/* ---------------------------------------------------------- mesh files */

/* The convex hull (lk_mesh_new) of every vertex of a mesh file (STL binary
 * or ASCII, OBJ, or another format assimp reads; node transforms
 * applied), each vertex scaled per axis by scale (NULL: 1, 1, 1). Errors
 * name the file: LK_IO_ERROR when it cannot be opened, LK_PARSE_ERROR when
 * it is not a mesh, and lk_mesh_new's (flat, too few vertices). */
lk_status lk_mesh_load_file(const char *path, const double scale[3], lk_mesh **out,
                            lk_error *err);
/* A mesh file that is not a regular file (a FIFO, a directory, a device,
 * a socket) is LK_IO_ERROR saying which, without opening it (a FIFO's open
 * would wait for a writer forever). */
/* The same for one part of the file (assimp's mesh `part`, from 0: an OBJ
 * file's objects in order), so that one file holds a pre-decomposed
 * object's convex parts; part < 0: all of them. A part past the last is
 * LK_INVALID_ARGUMENT naming the count. */
lk_status lk_mesh_load_part(const char *path, int part, const double scale[3], lk_mesh **out,
                            lk_error *err);

/* A URDF file, or an MJCF file, as the equivalent YAML description,
 * written to out (loading the YAML gives the same model, to the bit).
 * Fails with LK_UNSUPPORTED for another file, and for an MJCF model that
 * has what YAML cannot say (sensors, pairs, ellipsoids),
 * the message naming each such element; nothing is written to out unless
 * the whole conversion succeeded. */
lk_status lk_model_convert_file(const char *path, const lk_load_options *opts, FILE *out,
                                lk_error *err);

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
  int free_base;      /* 1: a URDF's root link, welded to the world by the
                         URDF convention, gets a free joint (as an include's
                         `base: free`): an object file such as YCB's
                         model.urdf; other formats say their joints */
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

/* ----------------------------------------------------------- output sets */

/* A run's output files, replaced all together or not at all.
 *
 * Name every destination with lk_outputs_add() before anything runs (the
 * usage errors come out there), lk_outputs_open() them, write each through
 * lk_outputs_file() (the writers below take a FILE *), then
 * lk_outputs_commit(): only when every member has been written, flushed and
 * closed without error are they put in place, else none is. After a failed
 * commit, lk_outputs_discard() or lk_outputs_free() of an uncommitted set,
 * every destination is as it was and no temporary file is left.
 *
 * How a destination is written depends on what it is:
 *  - a regular file, or a name that does not exist yet: to a hidden
 *    temporary ".<name>.XXXXXX" in the same directory, flushed, fsync'ed and
 *    closed at the commit, then renamed over the destination. An existing
 *    file keeps its mode (and its owner and group where the process may set
 *    them); one that is not writable is refused as the shell's `>` would; a
 *    symbolic link is followed, so its target is replaced and the link
 *    stays. Should one rename of several fail, the files renamed before it
 *    are put back from hard links made before the first rename (on a file
 *    system without hard links, they cannot be).
 *  - "-": standard output, written directly.
 *  - a character device, FIFO or other special file (/dev/null, /dev/full,
 *    a named pipe): opened and written directly, never replaced. Its write
 *    and close errors are reported ("No space left on device" on
 *    /dev/full). What was written there cannot be taken back, so a commit
 *    that fails elsewhere still leaves those bytes written.
 * A write error (a full disk: ENOSPC; a file size limit: EFBIG) is kept
 * with its errno and reported by the commit, naming the file. */
typedef struct lk_outputs lk_outputs;

lk_outputs *lk_outputs_new(void);
/* Add a destination; returns its index (0, 1, ... in the order added), or
 * -1 with err: LK_INVALID_ARGUMENT for an empty path, a directory, "-"
 * given twice, or a file an earlier member names too, after following
 * symbolic links ("x" and "./x", a link and its target, two hard links,
 * "-" and the file standard output is redirected to; character devices
 * such as /dev/null may take several members); LK_IO_ERROR for a loop of
 * symbolic links. Nothing is created or opened yet. */
int lk_outputs_add(lk_outputs *s, const char *path, lk_error *err);
/* A file the run reads (s is a void * so that lk_outputs_input can be a
 * load option's input hook): LK_INVALID_ARGUMENT, naming both, when a
 * member names it (after following symbolic links, by device and inode:
 * "x", "./x", "../d/x", a link to it, a hard link of it), now or when a
 * member is added later; nothing else. A path that does not exist or is
 * not a regular file is no member's business and is LK_OK. */
lk_status lk_outputs_input(void *s, const char *path, lk_error *err);
/* Create the temporaries and open the direct members (a FIFO's open waits
 * for its reader). On failure nothing is left behind (LK_IO_ERROR, with the
 * path: a missing directory, no permission). */
lk_status lk_outputs_open(lk_outputs *s, lk_error *err);
/* Member i's stream once open (NULL before, after the commit or discard). */
FILE *lk_outputs_file(lk_outputs *s, int i);
int lk_outputs_count(const lk_outputs *s);
const char *lk_outputs_path(const lk_outputs *s, int i); /* as added */
/* 1 when member i is a regular file replaced at the commit (0: written
 * directly, so what was written is already there). */
int lk_outputs_replaces(const lk_outputs *s, int i);
/* LK_OK while no member has had a write error; else LK_IO_ERROR with err
 * naming the first member that failed and why ("No space left on device"),
 * as the commit would. For a writer's failure on a member's stream, whose
 * own message cannot name the file. The set stays as it is. */
lk_status lk_outputs_error(const lk_outputs *s, lk_error *err);
/* Finish and put every member in place, or none (see above). Either way
 * the set is done: only lk_outputs_free() remains. */
lk_status lk_outputs_commit(lk_outputs *s, lk_error *err);
/* Drop every temporary now (an interrupted run); destinations untouched. */
void lk_outputs_discard(lk_outputs *s);
/* Free the set, discarding it first unless it was committed. NULL is
 * harmless. */
void lk_outputs_free(lk_outputs *s);

/* ------------------------------------------------------------- numbers */

/* Room for any double as text, with its terminating NUL. */
#define LK_FORMAT_DOUBLE_MAX 32

/* x as the shortest decimal text that reads back (strtod) as the same
 * double: "0.1", "1e-05", "0.30000000000000004", "-0"; "nan", "inf",
 * "-inf". C locale. Every number the library and its programs write to
 * a file or report uses this rule. Returns buf. */
const char *lk_format_double(double x, char buf[LK_FORMAT_DOUBLE_MAX]);

/* The whole of s as one decimal number, by the rule every description
 * format follows (docs/format.md, "Numbers"): [+-]digits[.digits][e[+-]digits],
 * of any length, C locale; no blanks, hexadecimal, "inf" or "nan". A
 * program reads its options' numbers here so that "-d 0x1p3" means what it
 * would in a file. LK_OK with *out, or LK_INVALID_ARGUMENT with why the
 * text is no number ("is not a decimal number", "is out of range ...",
 * "is too small ..."), *out untouched. */
lk_status lk_parse_double(const char *s, double *out, lk_error *err);

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

/* Column groups beyond the default ones (positions and joint
 * coordinates), after them in this order when asked for:
 *   LK_COLUMNS_POSE       "<link>.qw" .. ".qz": the link frame's world
 *                         orientation, a unit quaternion (w, x, y, z)
 *   LK_COLUMNS_ACTUATORS  "<actuator>.force": the effort it applied in the
 *                         last step (N m or N, after clamping)
 *   LK_COLUMNS_ENERGY     "kinetic", "potential" (gravity and joint
 *                         springs), "energy" (their sum), J
 *   LK_COLUMNS_TACTILE    per link "<link>.slip" (the hysteretic slip flag,
 *                         0/1), ".slip_score" (the filtered score), ".fn"
 *                         (normal force, N), ".shear" (|shear force|, N):
 *                         lk_data_tactile of the last step
 *   LK_COLUMNS_SENSORS    per sensor (lk_model_add_sensor) "<sensor>", or
 *                         "<sensor>.x" .. ".z" for a framepos: lk_data_sensor */
enum {
  LK_COLUMNS_POSE = 1u << 0,
  LK_COLUMNS_ACTUATORS = 1u << 1,
  LK_COLUMNS_ENERGY = 1u << 2,
  LK_COLUMNS_TACTILE = 1u << 3,
  LK_COLUMNS_SENSORS = 1u << 4,
};
/* "pose,actuators,energy,tactile,sensors" (any of them, any order) into groups;
 * -1 with the unknown word in bad (may be NULL) otherwise. */
int lk_trajectory_groups_parse(const char *list, unsigned *groups, char *bad, size_t bad_size);
/* The functions above with column groups (0: the default columns). */
int lk_trajectory_ncolumns_in(const lk_model *m, unsigned groups);
const char *lk_trajectory_column_name_in(const lk_model *m, unsigned groups, int i, char *buf,
                                         size_t size);
int lk_trajectory_column_index_in(const lk_model *m, unsigned groups, const char *name);
/* Energies run the kinematics of the current q and v (d's other state is
 * unchanged). */
lk_status lk_trajectory_row_in(const lk_model *m, unsigned groups, lk_data *d, double *row);

typedef struct lk_trajectory_writer lk_trajectory_writer;

/* A CSV trajectory file at path (written atomically, see above; "-" is
 * standard output), whose header is written at once. Numbers are written
 * as lk_format_double writes them: they read back as the same doubles. */
lk_trajectory_writer *lk_trajectory_writer_open(const char *path, const lk_model *m,
                                                lk_error *err);
/* The same on a stream the caller owns (stdout, or a member of an
 * lk_outputs set, which makes it atomic with the set). */
lk_trajectory_writer *lk_trajectory_writer_stream(FILE *f, const lk_model *m, lk_error *err);
/* The same two with column groups. */
lk_trajectory_writer *lk_trajectory_writer_open_in(const char *path, const lk_model *m,
                                                   unsigned groups, lk_error *err);
lk_trajectory_writer *lk_trajectory_writer_stream_in(FILE *f, const lk_model *m, unsigned groups,
                                                     lk_error *err);
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
  double utilization; /* ft / (mu_static fn), mu_static the mixed static
                         coefficient whatever the state (one definition
                         with lk_contact_report.utilization): 1 on the
                         edge of the static cone, mu_d/mu_s while sliding;
                         0 if fn = 0 */
  double depth;       /* penetration (> 0) or gap (< 0) of the shapes, m */
  const char *geom, *other_geom; /* the two geoms (lk_model_geom_label), on
                         link and on other; NULL for an explicit contact */
  char geom_buf[LK_IO_COLUMN_MAX], other_geom_buf[LK_IO_COLUMN_MAX];
} lk_contact_row;

/* Row i of the contacts a data holds (linkage/collision.h: lk_data_contact,
 * filled by the last collision pass of the step): fn and ft from the
 * contact's impulses divided by the time step, slip from the link
 * velocities of the last lk_forward_kinematics(). Reads only: nothing of
 * the data's contact state changes. LK_INVALID_ARGUMENT for a bad index. */
lk_status lk_contact_row_of(const lk_model *m, const lk_data *d, int i, lk_contact_row *row);

/* The contact CSV columns, comma-separated, without a newline:
 * t,link,other,x,y,z,nx,ny,nz,fn,ft,slip,state,utilization,depth,geom,
 * other_geom (empty geoms for explicit contacts). */
const char *lk_contact_csv_header(void);

typedef struct lk_contact_writer lk_contact_writer;
lk_contact_writer *lk_contact_writer_open(const char *path, lk_error *err);
/* The same on a stream the caller owns (as lk_trajectory_writer_stream). */
lk_contact_writer *lk_contact_writer_stream(FILE *f, lk_error *err);
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
  /* Marks: a dashed vertical line at each x = mark_x[k] across every panel,
   * labelled mark_label[k] (may be NULL) above the top panel: the phases of
   * a run. 0 marks: none. */
  int nmarks;
  const double *mark_x;
  const char *const *mark_label;
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
/* The same onto a stream the caller owns (flushed, not closed). */
lk_status lk_plot_svg_stream(FILE *f, const lk_plot_options *o, const double *x, int n,
                             const double *const *y, const char *const *names, int nseries,
                             lk_error *err);
/* Every plot keeps its series inside the frame with a margin of 8 pixels
 * on every side (a constant series is drawn in the middle of its panel).
 * The second, fourth, ... series of a panel are drawn dashed, so that a
 * series equal to an earlier one (two fingers' equal grip forces) shows
 * both colours. */

/* A series with its unit, for plots of several quantities. */
typedef struct {
  const char *name; /* legend entry */
  const char *unit; /* "m", "rad", "m/s", "rad/s", "N", "N m", "J", "1"
                       (a ratio), ... ; NULL or "": none */
  const double *y;  /* n samples */
} lk_plot_series;

/* One panel per unit, stacked over a shared x axis in the order the units
 * first appear, each with its own y axis labelled with its quantity and
 * unit ("position (m)", "force (N)", "ratio") and its own legend: metres
 * and radians never share an axis. Height: o->height, else 190 pixels a
 * panel. Otherwise as lk_plot_svg (atomic to path; the _stream variant
 * onto a stream the caller owns). */
lk_status lk_plot_svg_panels(const char *path, const lk_plot_options *o, const double *x, int n,
                             const lk_plot_series *s, int nseries, lk_error *err);
lk_status lk_plot_svg_panels_stream(FILE *f, const lk_plot_options *o, const double *x, int n,
                                    const lk_plot_series *s, int nseries, lk_error *err);
/* The quantity a panel of unit u is labelled with ("m": "position", "N":
 * "force", "1": "ratio", ...), NULL for a unit it does not know. */
const char *lk_plot_unit_quantity(const char *unit);

/* The columns a plot of a run may show: every trajectory column of every
 * group (lk_trajectory_column_index_in with all groups), then per link but
 * the world "<link>.utilization" (lk_tactile.utilization, the share of the
 * static friction grip in use) and "<link>.slip_speed" (its largest slip
 * speed, m/s). The index among them, or -1. */
int lk_plot_column_index(const lk_model *m, const char *name);
/* The unit of such a column, from what it is: "s", "m", "rad", "m/s",
 * "rad/s", "N", "N m", "J", "1" (quaternion components, flags, ratios);
 * "" when unknown. */
const char *lk_plot_column_unit(const lk_model *m, const char *name);

/* A strip chart: point i at x[i] in row row[i] (0 .. nrows-1, named
 * rows[k] and labelled with its count), spread vertically within its row by
 * a fixed pattern so that equal values stay visible; points whose x is not
 * finite are counted but not drawn. For the grasp planner's summary:
 * epsilon (o->xlabel) against each candidate's outcome (held, dropped,
 * no contact, ...). Onto a stream the caller owns (a member of an
 * lk_outputs set). */
lk_status lk_plot_strip_svg(FILE *f, const lk_plot_options *o, const double *x, const int *row,
                            int n, const char *const *rows, int nrows, lk_error *err);

/* ---------------------------------------------------------------- viewer */

/* A trajectory viewer page: ONE self-contained HTML file (three.js and the
 * page's script inlined, no network needed) that draws the model's geoms
 * and world planes in 3-D and plays the recorded frames back: play/pause,
 * a time slider, speed, an orbiting camera (drag: orbit; right-drag or
 * shift-drag: pan; wheel: zoom); contacts as points with their normal and
 * friction force arrows coloured by friction state (open, static,
 * dynamic); links whose tactile slip flag is on tinted red; link frames
 * and names on request; the time and the last step's solver report in a
 * corner. Several scenes (the grasps of a planner, each with its own
 * model) may share a page, chosen from a list. docs/viewer.md says how to
 * open, control and share it.
 *
 * Record: lk_view_new(), lk_view_add_scene() per model, then during the run
 * lk_view_add_step() after every lk_step (sums the solver reports between
 * frames) and lk_view_add_frame() whenever lk_view_frame_due() says so
 * (after lk_forward_kinematics: the frame keeps the link poses of the last
 * kinematics and the contacts of the last step). Then lk_view_write() onto
 * a member of an lk_outputs set, or lk_view_write_file().
 *
 * Frames are stored compactly (positions and quaternions as 32-bit floats,
 * base64 in the page): 10 s of the rover at 60 frames/s is about 1.3 MB,
 * most of it three.js. The view allocates as it grows (doubling its
 * arrays, or once with lk_view_options.frames); it is never part of the
 * step. */
typedef struct {
  const char *title; /* page title; NULL: the first scene's name */
  double fps;        /* frames per simulated second lk_view_frame_due()
                        asks for (default 60; <= 0: every time) */
  long frames;       /* frames to reserve room for per scene (0: grow) */
} lk_view_options;

void lk_view_options_default(lk_view_options *o);

typedef struct lk_view lk_view;

/* NULL with err (LK_OUT_OF_MEMORY, LK_INVALID_ARGUMENT). o may be NULL. */
lk_view *lk_view_new(const lk_view_options *o, lk_error *err);
void lk_view_free(lk_view *v); /* NULL is harmless */

/* A scene for the finalized model m; its geoms (shapes, poses, labels) and
 * link names are copied, so m need not outlive the view. name: the list's
 * entry (NULL: the model's name); caption: a line under it (NULL: none;
 * e.g. "epsilon 0.12, held"). Returns the scene's index, or -1 with err. */
int lk_view_add_scene(lk_view *v, const lk_model *m, const char *name, const char *caption,
                      lk_error *err);
int lk_view_nscenes(const lk_view *v);

/* 1 when a frame at time t is due: the scene has none yet, or t has
 * reached the next multiple of 1/fps after its last frame. */
int lk_view_frame_due(const lk_view *v, int scene, double t);
/* Add the report of the step just taken to the sums the next frame shows
 * (solver failures, fallbacks, unsettled friction cones, steps). */
void lk_view_add_step(lk_view *v, int scene, const lk_data *d);
/* Record a frame of d (a data of the scene's model m): time, link poses,
 * tactile slip flags, contacts (position, normal force and friction force
 * vectors, friction state) and the last step's report. */
lk_status lk_view_add_frame(lk_view *v, int scene, const lk_model *m, const lk_data *d,
                            lk_error *err);
long lk_view_nframes(const lk_view *v, int scene);

/* The page onto a stream the caller owns (a member of an lk_outputs set:
 * flushed, not closed); LK_IO_ERROR when a write fails. A scene without
 * frames shows its model at rest (q = the initial state). */
lk_status lk_view_write(const lk_view *v, FILE *f, lk_error *err);
/* The same to path, atomically (a set of one: see lk_outputs). */
lk_status lk_view_write_file(const lk_view *v, const char *path, lk_error *err);

#ifdef __cplusplus
}
#endif

#endif
