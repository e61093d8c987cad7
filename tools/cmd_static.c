/* linkage static FILE: the quasi-static analysis of a mechanism file
 * (its `analysis:` section, docs/format.md), one YAML record per load
 * increment: displacements, support and contact reactions and states. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/cli.h"
#include "tools/commands.h"

void lk_cmd_static_usage(FILE *f) {
  fprintf(f,
          "usage: linkage static [--set KEY=VALUE]... [--steps N] FILE\n"
          "\n"
          "Quasi-static analysis: apply the file's loads (and gravity) in increments\n"
          "(its analysis: section; without one, a single increment) and print, per\n"
          "increment, as YAML: whether it converged, the iterations and support\n"
          "state changes, the out-of-balance force, the displacement of every DoF,\n"
          "and every support's and contact's state and reaction.\n"
          "\n"
          "  -s, --set KEY=VALUE  override a value by dotted path; repeatable\n"
          "  -n, --steps N        N equal increments (overrides the file's steps)\n"
          "      --package-path DIR\n                       look for a URDF's package:// files in DIR\n"
          "                       (repeatable; then in $ROS_PACKAGE_PATH)\n"
          LK_CLI_LOAD_HELP
          "  -h, --help           show this help\n"
          "\n"
          "Exit status: 0 every increment converged, 1 an increment failed or did not\n"
          "converge, 2 usage error or invalid file.\n");
}

static const char *state_name(lk_friction_state s) {
  return s == LK_FRICTION_DYNAMIC ? "sliding" : "static";
}

typedef struct {
  double *du;
} ctx_t;

/* Numbers as every output of the project writes them: the shortest text
 * that reads back as the same double. */
static char fbuf[8][LK_FORMAT_DOUBLE_MAX];
static int fnext;
static const char *F(double x) { return lk_format_double(x, fbuf[fnext++ & 7]); }

static int print_increment(void *vctx, const lk_model *m, const lk_data *d,
                           const lk_static_report *r) {
  ctx_t *c = vctx;
  printf("  - increment: %d\n", r->increment + 1);
  printf("    load_factor: %s\n", F(r->load_factor));
  printf("    converged: %s\n", r->converged ? "true" : "false");
  printf("    iterations: %d\n", r->iterations);
  printf("    state_changes: %d\n", r->state_changes);
  printf("    sliding: %d\n", r->nsliding);
  printf("    out_of_balance: %s\n", F(r->out_of_balance));
  lk_data_static_displacement(m, d, c->du);
  printf("    displacements:\n");
  for (int i = 1; i < lk_model_nlink(m); i++) {
    int nv = lk_model_joint_nv(m, i), v0 = lk_model_joint_vadr(m, i);
    for (int k = 0; k < nv; k++) {
      printf("      ");
      if (nv == 1)
        lk_tool_yaml_string(stdout, lk_model_joint_name(m, i));
      else {
        char buf[96];
        snprintf(buf, sizeof buf, "%s.v%d", lk_model_joint_name(m, i), k);
        lk_tool_yaml_string(stdout, buf);
      }
      printf(": %s\n", F(c->du[v0 + k]));
    }
  }
  if (lk_model_nsupport(m) > 0) printf("    supports:\n");
  for (int i = 0; i < lk_model_nsupport(m); i++) {
    lk_support_spec s;
    lk_support_report sr;
    lk_model_support(m, i, &s);
    lk_data_support_report(m, d, i, &sr);
    printf("      - {name: ");
    if (s.name)
      lk_tool_yaml_string(stdout, s.name);
    else
      printf("\"#%d\"", i);
    if (s.joint)
      printf(", state: %s, reaction: %s, slip: %s}\n", state_name(sr.state), F(sr.reaction),
             F(sr.slip));
    else
      printf(", state: %s, force: [%s, %s, %s], slip: %s}\n", state_name(sr.state),
             F(sr.force.x), F(sr.force.y), F(sr.force.z), F(sr.slip));
  }
  int nc = lk_data_ncontacts(d);
  if (nc > 0) printf("    contacts:\n");
  for (int i = 0; i < nc; i++) {
    const lk_contact_report *cr = lk_data_contact_report(d, i);
    printf("      - {link: ");
    lk_tool_yaml_string(stdout, lk_model_link_name(m, cr->link));
    printf(", other: ");
    lk_tool_yaml_string(stdout, lk_model_link_name(m, cr->other));
    printf(", fn: %s, ft: [%s, %s, %s], state: %s}\n", F(cr->fn), F(cr->ft.x), F(cr->ft.y),
           F(cr->ft.z), cr->fn > 0 ? state_name(cr->state) : "open");
  }
  return 0;
}

int lk_cmd_static(int argc, char **argv) {
  static const struct option longopts[] = {{"set", required_argument, NULL, 's'},
                                           {"package-path", required_argument, NULL, 'K'},
                                           LK_CLI_LOAD_LONGOPTS,
                                           {"steps", required_argument, NULL, 'n'},
                                           {"help", no_argument, NULL, 'h'},
                                           {NULL, 0, NULL, 0}};
  static const char *const names[] = {"set", "package-path", LK_CLI_LOAD_NAMES, "steps", "help", NULL};
  const char *set[256];
  int nset = 0, c, steps = 0;
  optind = 0;
  opterr = 0;
  while ((optopt = 0, c = getopt_long(argc, argv, ":s:n:h", longopts, NULL)) != -1) {
    switch (c) {
      case 'K':
        if (lk_cli_add_package_path("static", optarg)) return LK_EXIT_USAGE;
        break;
      case 's':
        if (nset == 256) return lk_cli_usage_error("static", "too many --set options (256 at most)");
        set[nset++] = optarg;
        break;
      case 'n': {
        char *end;
        long v = strtol(optarg, &end, 10);
        if (*end || v < 1 || v > 1000000)
          return lk_cli_usage_error("static", "--steps needs a whole number from 1 to 1000000, "
                                              "got '%s'", optarg);
        steps = (int)v;
        break;
      }
      case 'h':
        lk_cmd_static_usage(stdout);
        return LK_EXIT_OK;
      default:
        if (lk_cli_load_flag(c)) break;
        return lk_cli_bad_option("static", c, argv, optind, optopt, names);
    }
  }
  if (optind >= argc) return lk_cli_usage_error("static", "no mechanism file given");
  if (optind + 1 < argc) return lk_cli_usage_error("static", "one mechanism file at a time");
  const char *path = argv[optind];
  lk_run_settings run;
  lk_run_settings_default(&run);
  lk_model *m = lk_cli_load("static", path, set, nset, &run);
  if (!m) return LK_EXIT_USAGE;
  for (int i = 0; i < lk_model_nwarnings(m); i++)
    fprintf(stderr, "%s: warning: %s\n", path, lk_model_warning(m, i));
  lk_static_options o = run.statics;
  if (run.nload_steps > 0) o.load_factors = run.load_steps;
  if (steps > 0) {
    o.nsteps = steps;
    o.load_factors = NULL;
  }
  lk_data *d = lk_data_new(m);
  ctx_t ctx;
  ctx.du = calloc((size_t)(lk_model_nv(m) > 0 ? lk_model_nv(m) : 1), sizeof(double));
  if (!d || !ctx.du) {
    fprintf(stderr, "linkage static: out of memory\n");
    lk_data_free(d);
    free(ctx.du);
    lk_model_free(m);
    return LK_EXIT_FAILED;
  }
  printf("file: ");
  lk_tool_yaml_string(stdout, path);
  printf("\nanalysis: static\nincrements:\n");
  lk_error err;
  lk_status st = lk_static_solve(m, d, &o, print_increment, &ctx, &err);
  int status = LK_EXIT_OK;
  if (st) {
    fflush(stdout);
    fprintf(stderr, "linkage static: %s: %s\n", path, err.message);
    status = LK_EXIT_FAILED;
  }
  printf("status: %s\n", st ? lk_strerror(st) : "converged");
  free(ctx.du);
  lk_data_free(d);
  lk_model_free(m);
  return status;
}
