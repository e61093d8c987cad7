/* linkage view FILE.yaml [--trajectory traj.csv] -o page.html: the viewer
 * page (lk_view_*) of a mechanism at rest, or of a trajectory CSV that
 * `linkage simulate` wrote for it: each row's joint coordinates are put
 * back into the state and its link poses computed again. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/cli.h"
#include "tools/commands.h"

void lk_cmd_view_usage(FILE *f) {
  fprintf(f,
          "usage: linkage view FILE.yaml [--trajectory TRAJ.csv] -o PAGE.html [OPTION]...\n"
          "\n"
          "Write a 3-D viewer page of a mechanism: one HTML file that opens offline\n"
          "in a web browser (see docs/viewer.md). Without --trajectory it shows the\n"
          "mechanism in its initial state; with it, it plays the trajectory back.\n"
          "\n"
          "  -o, --output PATH       the page (required; '-': standard output)\n"
          "  -t, --trajectory CSV    a trajectory written by 'linkage simulate' for this\n"
          "                          file (with the same --set overrides): its joint\n"
          "                          coordinate columns (<joint>.q, <joint>.q0..) give\n"
          "                          each frame's pose; contacts are not shown\n"
          "      --fps N             frames per simulated second kept (default 60)\n"
          "  -s, --set KEY=VALUE     override a value of the file by dotted path;\n"
          "                          repeatable\n"
          "      --package-path DIR  look for a URDF's package:// files in DIR\n"
          "                          (repeatable; then in $ROS_PACKAGE_PATH)\n"
          LK_CLI_LOAD_HELP
          "  -q, --quiet             no summary\n"
          "  -h, --help              show this help\n"
          "\n"
          "Exit status: 0 success, 1 the page could not be written or the trajectory\n"
          "does not fit the mechanism, 2 a usage error or an invalid mechanism file.\n");
}

typedef struct {
  const char *file, *output, *trajectory;
  double fps;
  int quiet;
  const char *set[256];
  int nset;
} args;

static int parse_args(int argc, char **argv, args *a) {
  static const struct option longopts[] = {{"output", required_argument, NULL, 'o'},
                                           {"trajectory", required_argument, NULL, 't'},
                                           {"fps", required_argument, NULL, 'F'},
                                           {"set", required_argument, NULL, 's'},
                                           {"package-path", required_argument, NULL, 'K'},
                                           LK_CLI_LOAD_LONGOPTS,
                                           {"quiet", no_argument, NULL, 'q'},
                                           {"help", no_argument, NULL, 'h'},
                                           {NULL, 0, NULL, 0}};
  static const char *const names[] = {"output", "trajectory", "fps", "set", "package-path",
                                      LK_CLI_LOAD_NAMES, "quiet", "help", NULL};
  memset(a, 0, sizeof *a);
  a->fps = 60;
  int c;
  optind = 0;
  opterr = 0;
  while ((optopt = 0, c = getopt_long(argc, argv, ":o:t:s:qh", longopts, NULL)) != -1) {
    switch (c) {
      case 'o': a->output = optarg; break;
      case 't': a->trajectory = optarg; break;
      case 'F':
        if (lk_parse_double(optarg, &a->fps, &(lk_error){0}) || a->fps <= 0 || a->fps > 10000)
          return lk_cli_usage_error("view", "--fps '%s': expected a number of frames per second in (0, 10000]",
                                    optarg);
        break;
      case 's':
        if (a->nset == 256) return lk_cli_usage_error("view", "too many --set options (256 at most)");
        a->set[a->nset++] = optarg;
        break;
      case 'K':
        if (lk_cli_add_package_path("view", optarg)) return LK_EXIT_USAGE;
        break;
      case 'q': a->quiet = 1; break;
      case 'h': lk_cmd_view_usage(stdout); return -1;
      default:
        if (lk_cli_load_flag(c)) break;
        return lk_cli_bad_option("view", c, argv, optind, optopt, names);
    }
  }
  if (optind >= argc) return lk_cli_usage_error("view", "no mechanism file given");
  if (optind + 1 < argc)
    return lk_cli_usage_error("view", "one mechanism file at a time (got '%s' too)", argv[optind + 1]);
  a->file = argv[optind];
  if (!a->output) return lk_cli_usage_error("view", "no page given: -o PAGE.html");
  return 0;
}

/* One line of a file, any length (the caller frees *buf). */
static long read_line(FILE *f, char **buf, size_t *cap) {
  ssize_t n = getline(buf, cap, f);
  if (n < 0) return -1;
  while (n > 0 && ((*buf)[n - 1] == '\n' || (*buf)[n - 1] == '\r')) (*buf)[--n] = '\0';
  return n;
}

/* Split a CSV line in place (no quoting: the trajectory has none). */
static int split(char *line, char **field, int max) {
  int n = 0;
  for (char *p = line;; p++) {
    if (n < max) field[n] = p;
    n++;
    p = strchr(p, ',');
    if (!p) break;
    *p = '\0';
  }
  return n;
}

/* The frames of a trajectory CSV: for every joint coordinate of the model
 * the column that holds it; each row sets q and the time, then the link
 * poses are computed. Returns an exit status (messages printed). */
static int play_csv(const args *a, const lk_model *m, lk_view *v, lk_data *d) {
  FILE *f = fopen(a->trajectory, "r");
  if (!f) {
    fprintf(stderr, "linkage view: %s: cannot open the trajectory: %s\n", a->trajectory, strerror(errno));
    return LK_EXIT_FAILED;
  }
  int status = LK_EXIT_FAILED, nq = lk_model_nq(m), nl = lk_model_nlink(m);
  char *line = NULL, **field = NULL;
  size_t cap = 0;
  int *qcol = calloc((size_t)nq + 1, sizeof *qcol);
  long lineno = 1;
  int ncol = 0, tcol = -1;
  if (!qcol || read_line(f, &line, &cap) < 0) {
    fprintf(stderr, "linkage view: %s: %s\n", a->trajectory, qcol ? "the file is empty" : "out of memory");
    goto done;
  }
  /* The header. */
  ncol = 1;
  for (const char *p = line; (p = strchr(p, ',')); p++) ncol++;
  field = calloc((size_t)ncol, sizeof *field);
  if (!field) goto done;
  split(line, field, ncol);
  for (int i = 0; i < ncol; i++)
    if (strcmp(field[i], "t") == 0) tcol = i;
  if (tcol < 0) {
    fprintf(stderr, "linkage view: %s:1: no column 't': not a trajectory written by linkage simulate\n",
            a->trajectory);
    goto done;
  }
  for (int l = 1; l < nl; l++) {
    int k = lk_model_joint_nq(m, l), adr = lk_model_joint_qadr(m, l);
    for (int j = 0; j < k; j++) {
      char want[LK_IO_COLUMN_MAX + 8];
      if (k == 1)
        snprintf(want, sizeof want, "%s.q", lk_model_joint_name(m, l));
      else
        snprintf(want, sizeof want, "%s.q%d", lk_model_joint_name(m, l), j);
      qcol[adr + j] = -1;
      for (int i = 0; i < ncol; i++)
        if (strcmp(field[i], want) == 0) qcol[adr + j] = i;
      if (qcol[adr + j] < 0) {
        fprintf(stderr,
                "linkage view: %s:1: no column '%s': the trajectory is not of %s (or of it with "
                "other --set overrides)\n",
                a->trajectory, want, a->file);
        goto done;
      }
    }
  }
  /* The rows. */
  double *q = lk_data_q(d);
  long rows = 0;
  double t_prev = -INFINITY;
  int have_pending = 0;
  lk_error err;
  for (;;) {
    long n = read_line(f, &line, &cap);
    lineno++;
    if (n < 0) break;
    /* A '#' line is a comment: the "# partial: why" that ends the CSV of
     * a run stopped early (simulate --partial) is played up to there. */
    if (n == 0 || line[0] == '#') continue;
    if (split(line, field, ncol) != ncol) {
      fprintf(stderr, "linkage view: %s:%ld: expected %d values as in the header\n", a->trajectory,
              lineno, ncol);
      goto done;
    }
    double t;
    if (lk_parse_double(field[tcol], &t, &(lk_error){0}) || t < t_prev) {
      fprintf(stderr, "linkage view: %s:%ld: the time '%s' is not a number after the last row's\n",
              a->trajectory, lineno, field[tcol]);
      goto done;
    }
    t_prev = t;
    for (int i = 0; i < nq; i++) {
      if (lk_parse_double(field[qcol[i]], &q[i], &(lk_error){0})) {
        fprintf(stderr, "linkage view: %s:%ld: '%s' is not a finite number\n", a->trajectory,
                lineno, field[qcol[i]]);
        goto done;
      }
    }
    rows++;
    lk_data_set_time(d, t);
    have_pending = 1;
    if (!lk_view_frame_due(v, 0, t)) continue;
    if (lk_forward_kinematics(m, d) != LK_OK || lk_view_add_frame(v, 0, m, d, &err) != LK_OK) {
      fprintf(stderr, "linkage view: %s:%ld: the row is not a valid state\n", a->trajectory, lineno);
      goto done;
    }
    have_pending = 0;
  }
  /* The last row always makes a frame. */
  if (have_pending && (lk_forward_kinematics(m, d) != LK_OK || lk_view_add_frame(v, 0, m, d, &err))) {
    fprintf(stderr, "linkage view: %s: the last row is not a valid state\n", a->trajectory);
    goto done;
  }
  if (rows == 0) {
    fprintf(stderr, "linkage view: %s: no rows after the header\n", a->trajectory);
    goto done;
  }
  status = LK_EXIT_OK;
done:
  free(line);
  free(field);
  free(qcol);
  fclose(f);
  return status;
}

int lk_cmd_view(int argc, char **argv) {
  args a;
  int r = parse_args(argc, argv, &a);
  if (r) return r < 0 ? LK_EXIT_OK : r;
  /* The page is named first and every file read is checked against it,
   * so that -o never replaces the description, a file it references or
   * the trajectory (exit 2, before anything is written). */
  lk_error err;
  lk_error_clear(&err);
  lk_outputs *set = lk_outputs_new();
  if (!set) {
    fprintf(stderr, "linkage view: out of memory\n");
    return LK_EXIT_FAILED;
  }
  if (lk_outputs_add(set, a.output, &err) < 0) {
    lk_outputs_free(set);
    return lk_cli_usage_error("view", "--output '%s': %s", a.output, err.message);
  }
  lk_run_settings run;
  lk_model *m = lk_cli_load_for("view", a.file, a.set, a.nset, &run, set);
  if (!m) {
    lk_outputs_free(set);
    return LK_EXIT_USAGE;
  }
  if (a.trajectory && lk_outputs_input(set, a.trajectory, &err)) {
    lk_model_free(m);
    lk_outputs_free(set);
    return lk_cli_usage_error("view", "--output '%s': %s", a.output, err.message);
  }
  lk_view_options vo;
  lk_view_options_default(&vo);
  vo.fps = a.fps;
  lk_view *v = lk_view_new(&vo, &err);
  lk_data *d = lk_data_new(m);
  int status = LK_EXIT_FAILED;
  if (!v || !d || lk_view_add_scene(v, m, NULL, run.description[0] ? run.description : NULL, &err) < 0) {
    fprintf(stderr, "linkage view: out of memory\n");
    goto done;
  }
  if (a.trajectory && (status = play_csv(&a, m, v, d)) != LK_EXIT_OK) goto done;
  status = LK_EXIT_FAILED;
  if (lk_outputs_open(set, &err) || lk_view_write(v, lk_outputs_file(set, 0), &err) ||
      lk_outputs_commit(set, &err)) {
    if (err.status == LK_IO_ERROR && !err.path[0]) {
      lk_error named;
      if (lk_outputs_error(set, &named)) err = named;
    }
    lk_cli_print_error("view", &err);
    goto done;
  }
  status = LK_EXIT_OK;
  if (!a.quiet)
  {
    if (a.trajectory)
      fprintf(stderr, "wrote %s: viewer page of %s, %ld frames (open it in a web browser)\n",
              a.output, lk_model_name(m) ? lk_model_name(m) : a.file, lk_view_nframes(v, 0));
    else
      fprintf(stderr, "wrote %s: viewer page of %s in its initial state (open it in a web browser)\n",
              a.output, lk_model_name(m) ? lk_model_name(m) : a.file);
  }
done:
  lk_outputs_free(set);
  lk_view_free(v);
  lk_data_free(d);
  lk_model_free(m);
  return status;
}
