/* linkage: the command-line front end. Subcommands are looked up in one
 * table; adding one means a cmd_<name>.c and a line here. */
#include <stdio.h>
#include <string.h>

#include "config.h"
#include "tools/cli.h"
#include "tools/commands.h"

static const lk_command kCommands[] = {
    {"simulate", "run a mechanism file and write its trajectory (CSV, SVG plot)", lk_cmd_simulate,
     lk_cmd_simulate_usage},
    {"check", "validate mechanism files and summarize them", lk_cmd_check, lk_cmd_check_usage},
    {"info", "print a mechanism's kinematic tree and elements", lk_cmd_info, lk_cmd_info_usage},
    {"lcp", "solve a linear complementarity problem read from a file", lk_cmd_lcp,
     lk_cmd_lcp_usage},
    {"view", "write a 3-D viewer page (HTML) of a mechanism or a trajectory", lk_cmd_view,
     lk_cmd_view_usage},
    {"static", "quasi-static analysis: load increments with frictional supports", lk_cmd_static,
     lk_cmd_static_usage},
    {"convert", "write a URDF robot (or an MJCF model) as the equivalent YAML file", lk_cmd_convert,
     lk_cmd_convert_usage},
    {NULL, NULL, NULL, NULL},
};

int lk_tool_is_help(const char *arg) {
  return strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0;
}

void lk_tool_yaml_string(FILE *out, const char *s) {
  fputc('"', out);
  for (; s && *s; s++) {
    unsigned char c = (unsigned char)*s;
    if (c == '"' || c == '\\')
      fprintf(out, "\\%c", c);
    else if (c < 0x20)
      fprintf(out, "\\x%02x", c);
    else
      fputc(c, out);
  }
  fputc('"', out);
}

static void usage(FILE *out) {
  fprintf(out,
          "usage: linkage COMMAND [ARGS...]\n"
          "       linkage COMMAND --help\n"
          "       linkage --version\n\n"
          "Articulated multibody dynamics with complementarity contact.\n\n"
          "commands:\n");
  for (const lk_command *c = kCommands; c->name; c++) fprintf(out, "  %-10s %s\n", c->name, c->summary);
  fprintf(out,
          "\nExit status: 0 success, 1 the work failed, 2 usage error or invalid file.\n"
          "See linkage(1) and docs/format.md for the mechanism file format.\n");
}

static const lk_command *find(const char *name) {
  for (const lk_command *c = kCommands; c->name; c++)
    if (strcmp(c->name, name) == 0) return c;
  return NULL;
}

static int unknown(const char *name) {
  const char *names[sizeof kCommands / sizeof kCommands[0]];
  int n = 0;
  for (const lk_command *c = kCommands; c->name; c++) names[n++] = c->name;
  names[n] = NULL;
  const char *sug = lk_cli_suggest(name, names);
  if (sug)
    fprintf(stderr, "linkage: unknown command '%s' (did you mean '%s'?)\n", name, sug);
  else
    fprintf(stderr, "linkage: unknown command '%s'\n", name);
  fprintf(stderr, "Try 'linkage --help'.\n");
  return LK_EXIT_USAGE;
}

static int run(int argc, char **argv) {
  if (argc < 2) {
    usage(stderr);
    return LK_EXIT_USAGE;
  }
  const char *cmd = argv[1];
  if (lk_tool_is_help(cmd)) {
    usage(stdout);
    return LK_EXIT_OK;
  }
  if (strcmp(cmd, "--version") == 0) {
    printf("linkage %s\n", PACKAGE_VERSION);
    return LK_EXIT_OK;
  }
  if (strcmp(cmd, "help") == 0) {
    if (argc < 3) {
      usage(stdout);
      return LK_EXIT_OK;
    }
    const lk_command *c = find(argv[2]);
    if (!c) return unknown(argv[2]);
    c->usage(stdout);
    return LK_EXIT_OK;
  }
  const lk_command *c = find(cmd);
  if (!c) return unknown(cmd);
  return c->run(argc - 1, argv + 1);
}

int main(int argc, char **argv) {
  int status = run(argc, argv);
  /* Every command's stdout (a summary, --help, a solution) is checked
   * here, once: `linkage info x.yaml > /dev/full` fails with exit 1. */
  const lk_command *c = argc >= 2 ? find(argv[1]) : NULL;
  return lk_cli_finish_stdout(c ? c->name : NULL, status);
}
