/* linkage check FILE...: validate mechanism files and summarize them. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "tools/cli.h"
#include "tools/commands.h"

void lk_cmd_check_usage(FILE *f) {
  fprintf(f,
          "usage: linkage check [--set KEY=VALUE]... FILE...\n"
          "\n"
          "Load and validate mechanism files; for each valid one print its links,\n"
          "joints, nq and nv, geoms, materials and the other elements. Errors are\n"
          "printed as FILE:LINE:COLUMN: error: MESSAGE, warnings (an angle beyond\n"
          "2 pi where radians are expected: degrees?) as ...: warning: MESSAGE; a\n"
          "velocity servo's target is rad/s and never warned about: not degrees/s.\n"
          "\n"
          "  -s, --set KEY=VALUE  override a value by dotted path before validating\n"
          "                       (e.g. options.timestep=0.0005); repeatable\n"
          "  -q, --quiet          print nothing for valid files\n"
          "      --package-path DIR\n                       look for a URDF's package:// files in DIR\n"
          "                       (repeatable; then in $ROS_PACKAGE_PATH)\n"
          LK_CLI_LOAD_HELP
          "  -h, --help           show this help\n"
          "\n"
          "Exit status: 0 all files valid, 1 standard output could not be written,\n"
          "2 a file is invalid or a usage error.\n");
}

static void summary(const char *path, const lk_model *m) {
  int nl = lk_model_nlink(m);
  int types[LK_JOINT_TYPE_COUNT] = {0};
  for (int i = 1; i < nl; i++) types[lk_model_joint_type(m, i)]++;
  printf("%s: ok\n", path);
  if (lk_model_name(m)) printf("  name:       %s\n", lk_model_name(m));
  printf("  links:      %d (and the world)\n", nl - 1);
  printf("  joints:     %d (", nl - 1);
  int first = 1;
  for (int t = LK_JOINT_TYPE_COUNT - 1; t >= 0; t--)
    if (types[t]) {
      printf("%s%d %s", first ? "" : ", ", types[t], lk_joint_type_name((lk_joint_type)t));
      first = 0;
    }
  printf(")\n");
  printf("  nq, nv:     %d, %d\n", lk_model_nq(m), lk_model_nv(m));
  printf("  geoms:      %d\n", lk_model_ngeom(m));
  printf("  materials:  %d (", lk_model_nmaterial(m));
  for (int k = 0; k < lk_model_nmaterial(m); k++) {
    lk_material_spec s;
    lk_model_material(m, k, &s);
    printf("%s%s", k ? ", " : "", s.name);
  }
  printf(")\n");
  printf("  actuators:  %d\n", lk_model_nactuator(m));
  printf("  loads:      %d\n", lk_model_nload(m));
  printf("  contacts:   %d explicit\n", lk_model_ncontact(m));
  printf("  constraints: %d loops, %d couplings, %d tethers\n", lk_model_nloop(m),
         lk_model_ncoupling(m), lk_model_ntether(m));
  printf("  total mass: %g kg\n", lk_model_total_mass(m));
}

int lk_cmd_check(int argc, char **argv) {
  static const struct option longopts[] = {{"set", required_argument, NULL, 's'},
                                           {"package-path", required_argument, NULL, 'K'},
                                           LK_CLI_LOAD_LONGOPTS,
                                           {"quiet", no_argument, NULL, 'q'},
                                           {"help", no_argument, NULL, 'h'},
                                           {NULL, 0, NULL, 0}};
  static const char *const names[] = {"set", "package-path", LK_CLI_LOAD_NAMES, "quiet", "help", NULL};
  const char *set[256];
  int nset = 0, quiet = 0, c;
  optind = 0;
  opterr = 0;
  while ((optopt = 0, c = getopt_long(argc, argv, ":s:qh", longopts, NULL)) != -1) {
    switch (c) {
      case 'K':
        if (lk_cli_add_package_path("check", optarg)) return LK_EXIT_USAGE;
        break;
      case 's':
        if (nset == 256) return lk_cli_usage_error("check", "too many --set options (256 at most)");
        set[nset++] = optarg;
        break;
      case 'q':
        quiet = 1;
        break;
      case 'h':
        lk_cmd_check_usage(stdout);
        return LK_EXIT_OK;
      default:
        if (lk_cli_load_flag(c)) break;
        return lk_cli_bad_option("check", c, argv, optind, optopt, names);
    }
  }
  if (optind >= argc) return lk_cli_usage_error("check", "no mechanism file given");
  int status = LK_EXIT_OK;
  for (int i = optind; i < argc; i++) {
    lk_model *m = lk_cli_load("check", argv[i], set, nset, NULL);
    if (!m) {
      status = LK_EXIT_USAGE;
      continue;
    }
    /* A located warning starts "LINE:COLUMN: " (the loader's): printed
     * as FILE:LINE:COLUMN: warning: MESSAGE, like the errors. */
    lk_cli_print_warnings(argv[i], m);
    if (!quiet) summary(argv[i], m);
    lk_model_free(m);
  }
  return status;
}
