/* linkage convert FILE.urdf|FILE.xml [-o FILE.yaml]: a URDF robot, or an
 * MJCF model of what YAML says, as the equivalent YAML description
 * (lk_model_convert_file). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/cli.h"

void lk_cmd_convert_usage(FILE *f) {
  fprintf(f,
          "usage: linkage convert [-o OUT.yaml] [--package-path DIR]... FILE.urdf|FILE.xml\n"
          "\n"
          "Write a URDF robot description as the equivalent YAML mechanism file\n"
          "(docs/format.md): loading the YAML gives the same model, to the bit, as\n"
          "loading the URDF. Add materials, actuators, contacts and the initial state\n"
          "to it, or include the URDF from a YAML file instead. Errors are printed as\n"
          "FILE:LINE: error: MESSAGE.\n"
          "\n"
          "An MJCF file (<mujoco>) converts the same way when YAML can say all of\n"
          "it: bodies, joints, geoms and meshes, friction, exclusions, options,\n"
          "actuators, joint equalities, connect and weld (as loops), the initial\n"
          "state and <keyframe>s (then `linkage simulate --keyframe NAME` on the\n"
          "YAML). What YAML cannot say (sensors, pairs, ellipsoids) is refused,\n"
          "each element named, and nothing is written.\n"
          "\n"
          "  -o, --output FILE       write the YAML here (default: standard output);\n"
          "                          replaced only when the whole file was written\n"
          "      --package-path DIR  look for a URDF's package:// files in DIR\n"
          "                          (repeatable; then in $ROS_PACKAGE_PATH)\n"
          LK_CLI_LOAD_HELP
          "  -h, --help              show this help\n"
          "\n"
          "Exit status: 0 converted, 1 the output could not be written, 2 a usage\n"
          "error or an invalid or unsupported file.\n");
}

int lk_cmd_convert(int argc, char **argv) {
  static const struct option longopts[] = {{"output", required_argument, NULL, 'o'},
                                           {"package-path", required_argument, NULL, 'K'},
                                           LK_CLI_LOAD_LONGOPTS,
                                           {"help", no_argument, NULL, 'h'},
                                           {NULL, 0, NULL, 0}};
  static const char *const names[] = {"output", "package-path", LK_CLI_LOAD_NAMES, "help", NULL};
  const char *output = "-";
  int c;
  optind = 0;
  opterr = 0;
  while ((optopt = 0, c = getopt_long(argc, argv, ":o:h", longopts, NULL)) != -1) {
    switch (c) {
      case 'o':
        output = optarg;
        break;
      case 'K':
        if (lk_cli_add_package_path("convert", optarg)) return LK_EXIT_USAGE;
        break;
      case 'h':
        lk_cmd_convert_usage(stdout);
        return LK_EXIT_OK;
      default:
        if (lk_cli_load_flag(c)) break;
        return lk_cli_bad_option("convert", c, argv, optind, optopt, names);
    }
  }
  if (optind >= argc) return lk_cli_usage_error("convert", "no URDF or MJCF file given");
  if (optind + 1 < argc)
    return lk_cli_usage_error("convert", "one file at a time ('%s' is extra)", argv[optind + 1]);
  const char *path = argv[optind];
  lk_error err;
  lk_outputs *set = lk_outputs_new();
  if (!set) {
    fprintf(stderr, "linkage convert: out of memory\n");
    return LK_EXIT_FAILED;
  }
  if (lk_outputs_add(set, output, &err) < 0) {
    lk_outputs_free(set);
    return lk_cli_usage_error("convert", "--output '%s': %s", output, err.message);
  }
  if (lk_outputs_open(set, &err)) {
    lk_cli_print_error("convert", &err);
    lk_outputs_free(set);
    return LK_EXIT_FAILED;
  }
  lk_load_options o;
  lk_cli_load_options(&o);
  o.input = lk_outputs_input; /* -o must not name the URDF or a mesh it reads */
  o.input_ctx = set;
  lk_status st = lk_model_convert_file(path, &o, lk_outputs_file(set, 0), &err);
  if (st) {
    lk_cli_print_error("convert", &err);
    lk_outputs_free(set);
    return LK_EXIT_USAGE;
  }
  if (lk_outputs_commit(set, &err)) {
    lk_cli_print_error("convert", &err);
    lk_outputs_free(set);
    return LK_EXIT_FAILED;
  }
  lk_outputs_free(set);
  return LK_EXIT_OK;
}
