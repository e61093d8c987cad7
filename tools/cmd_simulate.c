/* linkage simulate FILE: run a mechanism and write its trajectory as
 * CSV (and optionally its contacts as CSV and chosen columns as an SVG
 * plot), then summarize the run on stderr. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "tools/cli.h"
#include "tools/commands.h"

void lk_cmd_simulate_usage(FILE *f) {
  fprintf(f,
          "usage: linkage simulate FILE [OPTION]...\n"
          "\n"
          "Simulate a mechanism from its initial state and write the trajectory as CSV:\n"
          "a column t, then <link>.x/.y/.z (world position of every link frame), then\n"
          "<joint>.q and <joint>.v for 1-DoF joints or <joint>.q0.. and <joint>.v0.. for\n"
          "ball and free joints. A summary of the run goes to stderr.\n"
          "\n"
          "  -d, --duration T        simulated time in seconds (default: the file's\n"
          "                          simulate.duration, else 1)\n"
          "  -o, --output PATH       trajectory CSV (default, and '-': standard output)\n"
          "  -c, --contacts PATH     contact CSV, one row per contact per written step:\n"
          "                          t,link,other,x,y,z,nx,ny,nz,fn,ft,slip,state,utilization,\n"
          "                          depth,geom,other_geom\n"
          "  -e, --every N           write every N-th step (default: the file's\n"
          "                          simulate.every, else 1); the initial state and the\n"
          "                          steps N, 2N, ... are written\n"
          "  -s, --set KEY=VALUE     override a value of the file by dotted path, e.g.\n"
          "                          options.timestep=0.0005 or materials.wood.mu_static=0.5;\n"
          "                          repeatable\n"
          "  -V, --view PATH         write the run as a 3-D viewer page: one HTML file\n"
          "                          that opens offline in a browser (60 frames/s of\n"
          "                          simulated time, and one at a change of contact\n"
          "                          between two; see docs/viewer.md)\n"
          "  -p, --plot PATH         write an SVG plot of chosen columns against time,\n"
          "                          one panel per unit (m, rad, N, ...)\n"
          "      --plot-columns A,B  the columns to plot (default: the file's\n"
          "                          simulate.plot_columns, else the joint positions):\n"
          "                          any trajectory column of any group, and\n"
          "                          <link>.utilization, <link>.slip_speed\n"
          "      --columns GROUPS    more trajectory columns, comma-separated: pose\n"
          "                          (<link>.qw..qz), actuators (<actuator>.force),\n"
          "                          energy (kinetic, potential, energy), tactile\n"
          "                          (<link>.slip, .slip_score, .fn, .shear), sensors\n"
          "                          (<sensor>, <sensor>.x..z: MJCF <sensor>s)\n"
          "      --keyframe NAME     start from the file's keyframe NAME (an MJCF\n"
          "                          <key>; an unnamed one by its index, 0, 1, ...)\n"
          "      --partial           when a step fails or a signal stops the run, keep\n"
          "                          what was written, each CSV ending in a line\n"
          "                          '# partial: WHY' (default: replace no file)\n"
          "      --explain[=steps]   how each island was solved: a table at the end of the\n"
          "                          islands by the strategy planned first, why, and the\n"
          "                          one whose answer was taken (with =steps, also a\n"
          "                          line per island per step), on stderr\n"
          "  -q, --quiet             no progress bar and no summary\n"
          "      --package-path DIR  look for a URDF's package:// files in DIR\n"
          "                          (repeatable; then in $ROS_PACKAGE_PATH)\n"
          LK_CLI_LOAD_HELP
          "  -h, --help              show this help\n"
          "\n"
          "The output files are replaced all together when the run is complete, or\n"
          "none is: each is written to a temporary name beside it and renamed at the\n"
          "end, keeping the old file's mode and writing through a symbolic link;\n"
          "devices, FIFOs and '-' are written directly. Two options naming one file\n"
          "are a usage error. SIGINT, SIGTERM or SIGHUP stop the run at the end of a\n"
          "step and remove the temporaries.\n"
          "Exit status: 0 success, 1 a step failed or an output could not be written,\n"
          "2 a usage error or an invalid mechanism file, 129, 130, 143 stopped by\n"
          "SIGHUP, SIGINT, SIGTERM.\n");
}

typedef struct {
  const char *file, *output, *contacts, *plot, *plot_columns, *view, *keyframe;
  unsigned groups; /* --columns */
  double duration;
  long every;
  int has_duration, has_every, quiet, partial;
  int explain; /* 0, 1 the table, 2 and every step's islands */
  const char *set[256];
  int nset;
} args;

static int parse_args(int argc, char **argv, args *a) {
  static const struct option longopts[] = {{"duration", required_argument, NULL, 'd'},
                                           {"output", required_argument, NULL, 'o'},
                                           {"contacts", required_argument, NULL, 'c'},
                                           {"every", required_argument, NULL, 'e'},
                                           {"set", required_argument, NULL, 's'},
                                           {"package-path", required_argument, NULL, 'K'},
                                           LK_CLI_LOAD_LONGOPTS,
                                           {"plot", required_argument, NULL, 'p'},
                                           {"view", required_argument, NULL, 'V'},
                                           {"plot-columns", required_argument, NULL, 'P'},
                                           {"columns", required_argument, NULL, 'C'},
                                           {"partial", no_argument, NULL, 'R'},
                                           {"keyframe", required_argument, NULL, 'F'},
                                           {"explain", optional_argument, NULL, 'X'},
                                           {"quiet", no_argument, NULL, 'q'},
                                           {"help", no_argument, NULL, 'h'},
                                           {NULL, 0, NULL, 0}};
  static const char *const names[] = {"duration",     "output",  "contacts", "every",
                                      "set",          "plot",    "plot-columns", "columns",
                                      "package-path", LK_CLI_LOAD_NAMES, "partial", "view",     "quiet",
                                      "help",         "keyframe", "explain",  NULL};
  memset(a, 0, sizeof *a);
  int c;
  optind = 0;
  opterr = 0;
  while ((optopt = 0, c = getopt_long(argc, argv, ":d:o:c:e:s:p:V:qh", longopts, NULL)) != -1) {
    char *end;
    switch (c) {
      case 'd':
        if (lk_parse_double(optarg, &a->duration, &(lk_error){0}) || a->duration < 0)
          return lk_cli_usage_error("simulate", "--duration '%s': expected a time in seconds >= 0",
                                    optarg);
        a->has_duration = 1;
        break;
      case 'e':
        errno = 0;
        a->every = strtol(optarg, &end, 10);
        if (end == optarg || *end || errno || a->every < 1)
          return lk_cli_usage_error("simulate", "--every '%s': expected an integer >= 1", optarg);
        a->has_every = 1;
        break;
      case 'o':
        a->output = optarg;
        break;
      case 'c':
        a->contacts = optarg;
        break;
      case 'p':
        a->plot = optarg;
        break;
      case 'V':
        a->view = optarg;
        break;
      case 'P':
        a->plot_columns = optarg;
        break;
      case 'K':
        if (lk_cli_add_package_path("simulate", optarg)) return LK_EXIT_USAGE;
        break;
      case 's':
        if (a->nset == 256)
          return lk_cli_usage_error("simulate", "too many --set options (256 at most)");
        a->set[a->nset++] = optarg;
        break;
      case 'C': {
        char bad[64];
        if (lk_trajectory_groups_parse(optarg, &a->groups, bad, sizeof bad))
          return lk_cli_usage_error("simulate",
                                    "--columns: unknown group '%s' (groups: pose, actuators, "
                                    "energy, tactile, sensors)",
                                    bad);
        break;
      }
      case 'R':
        a->partial = 1;
        break;
      case 'F':
        a->keyframe = optarg;
        break;
      case 'X':
        if (optarg && strcmp(optarg, "steps"))
          return lk_cli_usage_error("simulate", "--explain=%s: expected --explain or --explain=steps",
                                    optarg);
        a->explain = optarg ? 2 : 1;
        break;
      case 'q':
        a->quiet = 1;
        break;
      case 'h':
        lk_cmd_simulate_usage(stdout);
        return -1;
      default:
        if (lk_cli_load_flag(c)) break;
        return lk_cli_bad_option("simulate", c, argv, optind, optopt, names);
    }
  }
  if (optind >= argc) return lk_cli_usage_error("simulate", "no mechanism file given");
  if (optind + 1 < argc)
    return lk_cli_usage_error("simulate", "one mechanism file at a time (got '%s' too)",
                              argv[optind + 1]);
  a->file = argv[optind];
  if (a->plot_columns && !a->plot)
    return lk_cli_usage_error("simulate", "--plot-columns needs --plot PATH");
  return 0;
}

/* ------------------------------------------------------------ plotting */

/* The plot may show any trajectory column, of every group whatever
 * --columns says, and two per-link contact figures no CSV column has:
 * "<link>.utilization" (lk_tactile.utilization: the share of the static
 * friction grip in use) and "<link>.slip_speed" (m/s). */
#define PLOT_GROUPS (LK_COLUMNS_POSE | LK_COLUMNS_ACTUATORS | LK_COLUMNS_ENERGY | LK_COLUMNS_TACTILE)
enum { EXTRA_UTILIZATION, EXTRA_SLIP_SPEED };

typedef struct {
  int n;                               /* columns plotted */
  int col[LK_IO_MAX_PLOT_COLUMNS];     /* their trajectory indices (-1: extra) */
  int extra_link[LK_IO_MAX_PLOT_COLUMNS], extra_kind[LK_IO_MAX_PLOT_COLUMNS];
  char name[LK_IO_MAX_PLOT_COLUMNS][LK_IO_COLUMN_MAX];
  const char *unit[LK_IO_MAX_PLOT_COLUMNS];
  double *t, *y[LK_IO_MAX_PLOT_COLUMNS];
  long len, cap;
} plot;

static int add_column(const lk_model *m, plot *p, const char *name) {
  const unsigned groups = PLOT_GROUPS;
  int c = lk_trajectory_column_index_in(m, groups, name);
  int extra_link = -1, extra_kind = 0;
  const char *dot = strrchr(name, '.');
  if (c < 0 && lk_plot_column_index(m, name) >= 0) {
    char base[LK_IO_COLUMN_MAX];
    snprintf(base, sizeof base, "%.*s", (int)(dot - name), name);
    extra_link = lk_model_link_index(m, base);
    extra_kind = !strcmp(dot, ".utilization") ? EXTRA_UTILIZATION : EXTRA_SLIP_SPEED;
  }
  if (c < 0 && extra_link < 1) {
    int nc = lk_trajectory_ncolumns_in(m, groups);
    char(*all)[LK_IO_COLUMN_MAX] = calloc((size_t)nc, LK_IO_COLUMN_MAX);
    const char **ptr = calloc((size_t)nc + 1, sizeof *ptr);
    const char *sug = NULL;
    if (all && ptr) {
      for (int i = 0; i < nc; i++) {
        lk_trajectory_column_name_in(m, groups, i, all[i], LK_IO_COLUMN_MAX);
        ptr[i] = all[i];
      }
      sug = lk_cli_suggest(name, ptr);
    }
    int r = sug ? lk_cli_usage_error("simulate", "--plot-columns: no column '%s' (did you mean '%s'?)",
                                     name, sug)
                : lk_cli_usage_error("simulate",
                                     "--plot-columns: no column '%s' (columns are t, "
                                     "<link>.x/.y/.z, <joint>.q/.v, the --columns groups, "
                                     "<link>.utilization and <link>.slip_speed)",
                                     name);
    free(all);
    free(ptr);
    return r;
  }
  if (p->n == LK_IO_MAX_PLOT_COLUMNS)
    return lk_cli_usage_error("simulate", "--plot-columns: at most %d columns", LK_IO_MAX_PLOT_COLUMNS);
  p->col[p->n] = c;
  p->extra_link[p->n] = extra_link;
  p->extra_kind[p->n] = extra_kind;
  snprintf(p->name[p->n], sizeof p->name[p->n], "%s", name);
  p->unit[p->n] = lk_plot_column_unit(m, name);
  p->n++;
  return 0;
}

/* Columns from --plot-columns, else from the file, else the positions of
 * the 1-DoF joints, else the height of every link (a free body's z is what
 * one looks at first). */
static int choose_columns(const lk_model *m, const args *a, const lk_run_settings *run, plot *p) {
  int r;
  if (a->plot_columns) {
    char buf[4096];
    snprintf(buf, sizeof buf, "%s", a->plot_columns);
    for (char *save, *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
      while (*tok == ' ') tok++;
      if (*tok && (r = add_column(m, p, tok))) return r;
    }
    if (p->n == 0) return lk_cli_usage_error("simulate", "--plot-columns: no column given");
    return 0;
  }
  if (run->nplot > 0) {
    for (int i = 0; i < run->nplot; i++)
      if ((r = add_column(m, p, run->plot_columns[i]))) return r;
    return 0;
  }
  int nl = lk_model_nlink(m);
  for (int l = 1; l < nl && p->n < 8; l++)
    if (lk_model_joint_nq(m, l) == 1) {
      char name[LK_IO_COLUMN_MAX];
      snprintf(name, sizeof name, "%s.q", lk_model_joint_name(m, l));
      if ((r = add_column(m, p, name))) return r;
    }
  for (int l = 1; l < nl && p->n == 0; l++)
    if (lk_model_joint_nq(m, l) > 1) {
      char name[LK_IO_COLUMN_MAX];
      snprintf(name, sizeof name, "%s.z", lk_model_link_name(m, l));
      if ((r = add_column(m, p, name))) return r;
    }
  if (p->n == 0) return add_column(m, p, "t");
  return 0;
}

static int plot_append(plot *p, const double *row, const lk_data *d) {
  if (p->len == p->cap) {
    long nc = p->cap ? 2 * p->cap : 1024;
    double *t = realloc(p->t, (size_t)nc * sizeof *t);
    if (!t) return 0;
    p->t = t;
    for (int k = 0; k < p->n; k++) {
      double *y = realloc(p->y[k], (size_t)nc * sizeof *y);
      if (!y) return 0;
      p->y[k] = y;
    }
    p->cap = nc;
  }
  p->t[p->len] = row[0];
  for (int k = 0; k < p->n; k++) {
    if (p->col[k] >= 0) {
      p->y[k][p->len] = row[p->col[k]];
      continue;
    }
    lk_tactile tac;
    int ok = lk_data_tactile(d, p->extra_link[k], &tac) == LK_OK;
    p->y[k][p->len] = !ok ? NAN : p->extra_kind[k] == EXTRA_UTILIZATION ? tac.utilization : tac.slip_speed;
  }
  p->len++;
  return 1;
}

static void plot_free(plot *p) {
  free(p->t);
  for (int k = 0; k < p->n; k++) free(p->y[k]);
}

/* ----------------------------------------------------------- progress */

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* A bar on stderr, only on a terminal and only once a run has taken long
 * enough to be worth watching. */
typedef struct {
  int enabled, shown;
  double start, last;
} progress;

static void progress_update(progress *pr, long step, long nsteps, double t, double duration) {
  if (!pr->enabled) return;
  double w = now();
  if (w - pr->start < 0.5 || w - pr->last < 0.1) return;
  pr->last = w;
  pr->shown = 1;
  double f = nsteps > 0 ? (double)step / (double)nsteps : 1;
  int width = 30, fill = (int)(f * width);
  char bar[40];
  for (int i = 0; i < width; i++) bar[i] = i < fill ? '#' : '.';
  bar[width] = '\0';
  double eta = f > 0 ? (w - pr->start) * (1 - f) / f : 0;
  fprintf(stderr, "\r[%s] %3d%%  t = %.3f / %g s  (%.0f s left) ", bar, (int)(100 * f), t,
          duration, eta);
  fflush(stderr);
}

static void progress_clear(progress *pr) {
  if (pr->shown) fprintf(stderr, "\r\033[K");
}

/* ---------------------------------------------------------------- run */

/* Where the run's files go: one lk_outputs set, so that the trajectory,
 * the contacts and the plot are replaced together or not at all. */
typedef struct {
  lk_outputs *set;
  int traj, contacts, plot, view; /* member indices (-1: not asked for) */
} outputs;

/* Name the outputs before anything runs; a path that cannot be an output
 * (empty, a directory, one file named twice) is a usage error. */
static int outputs_add(outputs *o, const args *a) {
  o->set = lk_outputs_new();
  o->traj = o->contacts = o->plot = o->view = -1;
  if (!o->set) {
    fprintf(stderr, "linkage simulate: out of memory\n");
    return LK_EXIT_FAILED;
  }
  lk_error err;
  lk_error_clear(&err);
  const char *path[4] = {a->output ? a->output : "-", a->contacts, a->plot, a->view};
  const char *opt[4] = {"--output", "--contacts", "--plot", "--view"};
  int *idx[4] = {&o->traj, &o->contacts, &o->plot, &o->view};
  for (int k = 0; k < 4; k++) {
    if (!path[k]) continue;
    if ((*idx[k] = lk_outputs_add(o->set, path[k], &err)) >= 0) continue;
    if (err.status == LK_OUT_OF_MEMORY) {
      fprintf(stderr, "linkage simulate: out of memory\n");
      return LK_EXIT_FAILED;
    }
    return lk_cli_usage_error("simulate", "%s '%s': %s", opt[k], path[k], err.message);
  }
  return 0;
}

/* The line that ends a partial CSV, so that no reader takes it for a
 * whole run. */
static void mark_partial(FILE *f, const char *why) {
  if (f) fprintf(f, "# partial: %s\n", why);
}

/* ------------------------------------------------------------ explain */

/* The islands of a run by (planned, reason, answered): at most one entry
 * per rule of the planner and answering strategy, so a fixed table. */
#define EXPLAIN_ROWS 128
typedef struct {
  lk_island_strategy planned, answered;
  const char *reason;
  long islands, unsettled;
  double rows, solves, iterations; /* summed */
} explain_row;
typedef struct {
  explain_row row[EXPLAIN_ROWS];
  int n;
  long dropped; /* islands beyond the table's room (not expected) */
} explain;

static void explain_step(explain *x, const lk_data *d, long step, int lines) {
  const lk_step_report *rep = lk_data_step_report(d);
  for (int k = 0; k < rep->nislands; k++) {
    const lk_island_report *ir = lk_data_island_report(d, k);
    if (!ir) continue;
    if (lines)
      fprintf(stderr, "step %ld (t = %g s) island %d: %d rows, %d contacts: %s -> %s%s (%s)\n",
              step, lk_data_time(d), k, ir->rows, ir->contacts, lk_island_strategy_name(ir->planned),
              lk_island_strategy_name(ir->answered), ir->settled ? "" : ", unsettled", ir->reason);
    int e = 0;
    while (e < x->n && !(x->row[e].planned == ir->planned && x->row[e].answered == ir->answered &&
                         x->row[e].reason == ir->reason))
      e++;
    if (e == x->n) {
      if (x->n == EXPLAIN_ROWS) {
        x->dropped++;
        continue;
      }
      x->row[x->n++] = (explain_row){ir->planned, ir->answered, ir->reason, 0, 0, 0, 0, 0};
    }
    x->row[e].islands++;
    x->row[e].unsettled += !ir->settled;
    x->row[e].rows += ir->rows;
    x->row[e].solves += ir->solves;
    x->row[e].iterations += (double)ir->iterations;
  }
}

static void explain_print(const explain *x) {
  long total = 0;
  for (int e = 0; e < x->n; e++) total += x->row[e].islands;
  fprintf(stderr, "islands solved, by plan (%ld islands over all steps; docs/contact.md, "
                  "\"The island planner\"):\n",
          total);
  fprintf(stderr, "  %-15s %-15s %9s %9s %6s %6s %10s  %s\n", "planned", "answered", "islands",
          "unsettled", "rows", "solves", "iterations", "why planned so");
  for (int e = 0; e < x->n; e++) {
    const explain_row *r = &x->row[e];
    double n = (double)r->islands;
    fprintf(stderr, "  %-15s %-15s %9ld %9ld %6.1f %6.1f %10.1f  %s\n",
            lk_island_strategy_name(r->planned), lk_island_strategy_name(r->answered), r->islands,
            r->unsettled, r->rows / n, r->solves / n, r->iterations / n, r->reason);
  }
  fprintf(stderr, "  (rows, solves and iterations -- pivots, Newton iterations and NSGS sweeps -- "
                  "are means an island)\n");
  if (x->dropped) fprintf(stderr, "  (%ld islands not tabulated: the table is full)\n", x->dropped);
}

static void print_summary(const lk_model *m, const args *a, const outputs *o, const plot *p,
                          const char *verb, long steps, double h, double simt, double wall,
                          int seen_contacts,
                          double max_depth, long solver_failures, long fallbacks, long unsettled,
                          long rows, int ncol, long crows, long view_frames,
                          const char *stability) {
  const char *name = lk_model_name(m) ? lk_model_name(m) : a->file;
  fprintf(stderr, "simulated %s for %g s: %ld steps of %g s in %.3f s wall time", name, simt,
          steps, h, wall);
  if (wall > 0 && simt > 0)
    fprintf(stderr, simt / wall >= 100 ? " (%.0fx real time)\n" : " (%.3gx real time)\n",
            simt / wall);
  else
    fprintf(stderr, "\n");
  if (seen_contacts)
    fprintf(stderr, "  max penetration: %.3g m\n", max_depth);
  else
    fprintf(stderr, "  max penetration: n/a (no contacts were reported)\n");
  fprintf(stderr,
          "  solver failures: %ld (steps solved by a fallback: %ld; friction cone unsettled: %ld)\n",
          solver_failures, fallbacks, unsettled);
  fprintf(stderr, "  unstable: %s\n", stability);
  if (!lk_outputs_replaces(o->set, o->traj))
    fprintf(stderr, "  trajectory: %ld rows x %d columns on %s\n", rows, ncol,
            strcmp(lk_outputs_path(o->set, o->traj), "-") ? lk_outputs_path(o->set, o->traj)
                                                          : "standard output");
  else
    fprintf(stderr, "  %s %s: %ld rows x %d columns\n", verb, a->output, rows, ncol);
  if (a->contacts) fprintf(stderr, "  %s %s: %ld contact rows\n", verb, a->contacts, crows);
  if (a->plot) {
    fprintf(stderr, "  %s %s: ", verb, a->plot);
    for (int k = 0; k < p->n; k++) fprintf(stderr, "%s%s", k ? ", " : "", p->name[k]);
    fprintf(stderr, " against t\n");
  }
  if (a->view)
    fprintf(stderr, "  %s %s: viewer page, %ld frames (open it in a web browser)\n", verb, a->view,
            view_frames);
}

int lk_cmd_simulate(int argc, char **argv) {
  args a;
  int r = parse_args(argc, argv, &a);
  if (r) return r < 0 ? LK_EXIT_OK : r;
  outputs o;
  if ((r = outputs_add(&o, &a))) {
    lk_outputs_free(o.set);
    return r;
  }
  lk_run_settings run;
  lk_model *m = lk_cli_load_for("simulate", a.file, a.set, a.nset, &run, o.set);
  if (!m) {
    lk_outputs_free(o.set);
    return LK_EXIT_USAGE;
  }
  lk_cli_print_warnings(a.file, m); /* as linkage check does (issue 18.9) */
  double duration = a.has_duration ? a.duration : (run.duration >= 0 ? run.duration : 1.0);
  long every = a.has_every ? a.every : (run.every > 0 ? run.every : 1);
  double h = lk_model_options(m)->timestep;
  /* Whole steps covering the duration, with a relative hair of slack so
   * that 1 s / 1 ms is exactly 1000 steps, not 1001 from rounding. */
  double steps_d = ceil(duration / h * (1 - 1e-12));
  if (steps_d > 1e12) {
    lk_model_free(m);
    lk_outputs_free(o.set);
    return lk_cli_usage_error("simulate", "--duration %g s at a timestep of %g s is %.3g steps; too many",
                              duration, h, steps_d);
  }
  long nsteps = (long)steps_d;

  plot p;
  memset(&p, 0, sizeof p);
  if (a.plot && (r = choose_columns(m, &a, &run, &p))) {
    lk_model_free(m);
    lk_outputs_free(o.set);
    return r;
  }

  lk_error err;
  lk_error_clear(&err);
  int status = LK_EXIT_OK;
  lk_trajectory_writer *tw = NULL;
  lk_contact_writer *cw = NULL;
  lk_view *view = NULL;
  lk_data *d = NULL;
  double *row = NULL;
  explain *ex = NULL; /* --explain's table */
  char why[256] = ""; /* set when the run stops early */
  /* From here a signal stops the run at the end of a step. */
  lk_cli_catch_signals();
  if (lk_outputs_open(o.set, &err)) {
    if (lk_cli_signal()) goto interrupted_early;
    goto io_failed;
  }
  tw = lk_trajectory_writer_stream_in(lk_outputs_file(o.set, o.traj), m, a.groups, &err);
  if (!tw) goto io_failed;
  if (a.contacts && !(cw = lk_contact_writer_stream(lk_outputs_file(o.set, o.contacts), &err)))
    goto io_failed;
  if (a.view) {
    lk_view_options vo;
    lk_view_options_default(&vo);
    /* Room for a frame at a change of contact between every two regular
     * ones (below), so that recording does not allocate in the loop. */
    vo.frames = (long)fmin(2 * ceil(duration * vo.fps) + 2, 2e7);
    if (!(view = lk_view_new(&vo, &err)) ||
        lk_view_add_scene(view, m, NULL, run.description[0] ? run.description : NULL, &err) < 0)
      goto io_failed;
  }
  d = lk_data_new(m);
  row = calloc((size_t)lk_trajectory_ncolumns_in(m, a.groups | (a.plot ? PLOT_GROUPS : 0u)),
               sizeof *row);
  if (!d || !row) {
    fprintf(stderr, "linkage simulate: out of memory\n");
    status = LK_EXIT_FAILED;
    goto done;
  }
  if (a.keyframe) {
    int k = lk_model_keyframe_index(m, a.keyframe);
    if (k < 0) {
      char list[512] = "";
      for (int i = 0; i < lk_model_nkeyframe(m); i++) {
        size_t l = strlen(list);
        snprintf(list + l, sizeof list - l, "%s'%s'", i ? ", " : "", lk_model_keyframe_name(m, i));
      }
      fprintf(stderr, "linkage simulate: %s: no keyframe '%s' (%s%s)\n", a.file, a.keyframe,
              list[0] ? "the file has " : "the file has none", list);
      status = LK_EXIT_USAGE;
      goto done;
    }
    lk_model_keyframe_q(m, k, lk_data_q(d));
    memset(lk_data_v(d), 0, (size_t)lk_model_nv(m) * sizeof(double));
    lk_forward_kinematics(m, d);
  }

  progress pr = {isatty(STDERR_FILENO) && !a.quiet, 0, now(), 0};
  double wall0 = now();
  long step = 0;
  double max_depth = 0;
  int seen_contacts = 0;
  long solver_failures = 0, fallbacks = 0, unsettled = 0;
  long unstable = 0; /* steps whose energy grew without input (sim.h) */
  double unstable_t = 0, unstable_growth = 0;
  /* The page's frames: every 1/fps s, and also the first step after the
   * last frame at which contact changed (a contact started carrying
   * force, or the number sliding changed), so that an impact that lasts a
   * step or two between the regular frames is seen (issue 33); at most
   * one such frame between two regular ones. */
  int view_event = 0, event_room = 1, pressing = 0, sliding = 0;
  ex = a.explain ? calloc(1, sizeof *ex) : NULL;
  if (a.explain && !ex) {
    fprintf(stderr, "linkage simulate: out of memory\n");
    status = LK_EXIT_FAILED;
    goto done;
  }
  for (;;) {
    int write_now = step % every == 0;
    /* The page samples the run at its own rate, whatever --every says; it
     * always gets the last state. */
    int view_due = view && (step == nsteps || lk_view_frame_due(view, 0, lk_data_time(d)));
    int view_now = view_due || (view && view_event && event_room);
    if (view_now) event_room = view_due;
    view_event = 0;
    if (write_now || view_now) {
      lk_status st = lk_forward_kinematics(m, d);
      if (st) {
        snprintf(why, sizeof why, "at t = %g s the state is invalid: %s", lk_data_time(d),
                 lk_strerror(st));
        status = LK_EXIT_FAILED;
        break;
      }
      if (view_now && lk_view_add_frame(view, 0, m, d, &err)) goto io_failed;
    }
    if (write_now) {
      if (lk_trajectory_writer_add(tw, d, &err)) goto io_failed;
      if (a.plot) {
        lk_trajectory_row_in(m, PLOT_GROUPS, d, row);
        if (!plot_append(&p, row, d)) {
          fprintf(stderr, "linkage simulate: out of memory collecting the plot\n");
          status = LK_EXIT_FAILED;
          goto done;
        }
      }
      if (cw && lk_contact_writer_add_data(cw, m, d, NULL, &err)) goto io_failed;
    }
    if (step == nsteps) break;
    if (lk_cli_signal()) {
      snprintf(why, sizeof why, "interrupted by %s after step %ld of %ld (t = %g s)",
               lk_cli_signal_name(lk_cli_signal()), step, nsteps, lk_data_time(d));
      status = 128 + lk_cli_signal();
      break;
    }
    lk_status st = lk_step(m, d);
    if (st) {
      const lk_step_report *rep = lk_data_step_report(d); /* what stopped it, if said */
      const char *said = rep->message[0] ? rep->message : rep->detail ? rep->detail : "";
      snprintf(why, sizeof why, "step %ld (t = %g s) failed: %s%s%.160s", step + 1, lk_data_time(d),
               lk_strerror(st), *said ? ": " : "", said);
      status = LK_EXIT_FAILED;
      break;
    }
    step++;
    if (ex) explain_step(ex, d, step, a.explain == 2);
    if (view) {
      lk_view_add_step(view, 0, d);
      int np = 0, ns = 0;
      for (int i = 0, nc = lk_data_ncontacts(d); i < nc; i++) {
        const lk_contact_report *c = lk_data_contact_report(d, i);
        np += c->fn > 0;
        ns += c->fn > 0 && c->state == LK_FRICTION_DYNAMIC;
      }
      view_event = np > pressing || ns != sliding;
      pressing = np, sliding = ns;
    }
    /* The deepest penetration over every step, not only the written ones. */
    for (int i = 0, nc = lk_data_ncontacts(d); i < nc; i++) {
      double depth = lk_data_contact_report(d, i)->depth;
      seen_contacts = 1;
      if (depth > max_depth) max_depth = depth;
    }
    const lk_step_report *rep = lk_data_step_report(d);
    solver_failures += rep->solver_failures;
    fallbacks += rep->fallbacks;
    unsettled += rep->friction_unconverged;
    if (rep->unstable) {
      if (unstable++ == 0) unstable_t = lk_data_time(d);
      if (rep->energy_growth > unstable_growth) unstable_growth = rep->energy_growth;
    }
    if (rep->unphysical) { /* issue 18.9: a failed step, though it was taken */
      snprintf(why, sizeof why, "step %ld (t = %g s) failed: unphysical state: %.150s", step,
               lk_data_time(d), rep->message);
      status = LK_EXIT_FAILED;
      break;
    }
    if ((step & 255) == 0) progress_update(&pr, step, nsteps, lk_data_time(d), duration);
  }
  double wall = now() - wall0;
  progress_clear(&pr);
  if (ex) {
    explain_print(ex);
    free(ex);
    ex = NULL;
  }

  /* A run that stopped early replaces nothing, unless --partial asks for
   * what it wrote, marked as such. */
  int keep = !why[0] || a.partial;
  if (why[0] && a.partial) {
    mark_partial(lk_outputs_file(o.set, o.traj), why);
    if (cw) mark_partial(lk_outputs_file(o.set, o.contacts), why);
  }
  long rows = lk_trajectory_writer_rows(tw);
  int ncol = lk_trajectory_ncolumns_in(m, a.groups);
  long crows = lk_contact_writer_rows(cw);
  lk_status st = lk_trajectory_writer_close(tw, &err);
  tw = NULL;
  if (!st && cw) st = lk_contact_writer_close(cw, &err);
  cw = NULL;
  if (st) goto io_failed;
  if (a.plot && keep && p.len > 0) {
    lk_plot_series ps[LK_IO_MAX_PLOT_COLUMNS];
    for (int k = 0; k < p.n; k++) ps[k].name = p.name[k], ps[k].unit = p.unit[k], ps[k].y = p.y[k];
    lk_plot_options po;
    lk_plot_options_default(&po);
    char title[600];
    snprintf(title, sizeof title, "%s%s%s%s", lk_model_name(m) ? lk_model_name(m) : a.file,
             why[0] ? " (partial: " : "", why, why[0] ? ")" : "");
    po.title = title;
    /* The file's phases (simulate.phases) marked across the panels. */
    const char *phase_label[LK_IO_MAX_PHASES];
    for (int k = 0; k < run.nphases; k++) phase_label[k] = run.phase_name[k];
    po.nmarks = run.nphases;
    po.mark_x = run.phase_t;
    po.mark_label = phase_label;
    /* One panel per unit: metres, radians and newtons on axes of their own. */
    if ((st = lk_plot_svg_panels_stream(lk_outputs_file(o.set, o.plot), &po, p.t, (int)p.len, ps,
                                        p.n, &err)))
      goto io_failed;
  }
  if (view && (st = lk_view_write(view, lk_outputs_file(o.set, o.view), &err))) goto io_failed;
  if (keep) {
    if (lk_outputs_commit(o.set, &err)) goto io_failed;
  } else {
    lk_outputs_discard(o.set);
  }
  if (why[0])
    fprintf(stderr, "linkage simulate: %s; %s\n", why,
            a.partial ? "the output so far is kept, its CSV ending in a '# partial:' line"
                      : "no output file was written");
  if (!a.quiet) {
    char stability[384] = "no (the energy never grew without input)";
    if (unstable) {
      /* The step's explicit parts are the joint springs and, when chosen,
       * the velocity forces (damping and servos are implicit): name the
       * one the model has (issue 31.4: a spinning body has no spring). */
      int springs = 0;
      for (int i = 1; i < lk_model_nlink(m) && !springs; i++) {
        lk_link_spec ls;
        if (lk_model_link(m, i, &ls) == LK_OK && ls.joint.stiffness > 0) springs = 1;
      }
      const char *cause =
          lk_model_options(m)->velocity_forces == LK_VELOCITY_FORCES_EXPLICIT
              ? "the velocity forces are explicit (options.velocity_forces: explicit) and a "
                "fast rotation gains energy with them; the default, midpoint, keeps it"
          : springs ? "a joint spring is too stiff for the timestep (springs are explicit: "
                      "h sqrt(k/I) must stay below 2)"
                    : "a rotation is too fast for the timestep (h |omega| near 1: the midpoint "
                      "velocity forces could not settle and were taken explicitly)";
      snprintf(stability, sizeof stability,
               "the energy grew without input (by up to %.3g J) in %ld steps from t = %g s; %s",
               unstable_growth, unstable, unstable_t, cause);
    }
    print_summary(m, &a, &o, &p, why[0] && !a.partial ? "not written:" : "wrote", step, h,
                  lk_data_time(d), wall,
                  seen_contacts, max_depth, solver_failures, fallbacks, unsettled, rows, ncol,
                  crows, view ? lk_view_nframes(view, 0) : 0, stability);
  }
  goto done;

interrupted_early:
  fprintf(stderr, "linkage simulate: interrupted by %s before the run; no output file was written\n",
          lk_cli_signal_name(lk_cli_signal()));
  status = 128 + lk_cli_signal();
  goto done;
io_failed:
  {
    /* A writer's failure on a stream: the set names the file and errno. */
    lk_error named;
    if (err.status == LK_IO_ERROR && !err.path[0] && lk_outputs_error(o.set, &named)) err = named;
  }
  lk_cli_print_error("simulate", &err);
  if (lk_outputs_count(o.set) > 1 || lk_outputs_replaces(o.set, 0))
    fprintf(stderr, "linkage simulate: no output file was written\n");
  status = LK_EXIT_FAILED;
done:
  lk_trajectory_writer_discard(tw);
  lk_contact_writer_discard(cw);
  lk_outputs_free(o.set);
  lk_view_free(view);
  lk_data_free(d);
  free(row);
  free(ex);
  plot_free(&p);
  lk_model_free(m);
  return status;
}
