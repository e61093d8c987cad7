/* linkage: the command-line program. One subcommand a file (cmd_*.c); this
 * file only dispatches. */
#include <stdio.h>
#include <string.h>

#include "config.h"
#include "cli.h"
#include "commands.h"

static const struct {
  const char *name;
  int (*run)(int argc, char **argv);
  const char *summary;
} kCommands[] = {
    {"simulate", lk_cmd_simulate, "run a mechanism file and write its trajectory (CSV, SVG)"},
    {"check", lk_cmd_check, "validate mechanism files and summarize them"},
    {"info", lk_cmd_info, "print a mechanism's kinematic tree and elements"},
};
enum { NCOMMANDS = sizeof kCommands / sizeof kCommands[0] };

static void usage(FILE *f) {
  fprintf(f,
          "usage: linkage COMMAND [ARGS...]\n"
          "       linkage COMMAND --help\n"
          "\n"
          "Articulated multibody dynamics with complementarity contact.\n"
          "\n"
          "commands:\n");
  for (int i = 0; i < NCOMMANDS; i++) fprintf(f, "  %-10s %s\n", kCommands[i].name, kCommands[i].summary);
  fprintf(f,
          "\n"
          "Exit status: 0 success, 1 the work failed, 2 usage error or invalid file.\n"
          "See linkage(1) and docs/format.md for the mechanism file format.\n");
}

int main(int argc, char **argv) {
  if (argc < 2) {
    usage(stderr);
    return LK_EXIT_USAGE;
  }
  const char *cmd = argv[1];
  if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0 || strcmp(cmd, "help") == 0) {
    usage(stdout);
    return LK_EXIT_OK;
  }
  if (strcmp(cmd, "--version") == 0) {
    printf("linkage %s\n", PACKAGE_VERSION);
    return LK_EXIT_OK;
  }
  for (int i = 0; i < NCOMMANDS; i++)
    if (strcmp(cmd, kCommands[i].name) == 0) return kCommands[i].run(argc - 1, argv + 1);
  const char *names[NCOMMANDS + 1];
  for (int i = 0; i < NCOMMANDS; i++) names[i] = kCommands[i].name;
  names[NCOMMANDS] = NULL;
  const char *sug = lk_cli_suggest(cmd, names);
  if (sug)
    fprintf(stderr, "linkage: unknown command '%s' (did you mean '%s'?)\n", cmd, sug);
  else
    fprintf(stderr, "linkage: unknown command '%s'\n", cmd);
  fprintf(stderr, "Try 'linkage --help'.\n");
  return LK_EXIT_USAGE;
}
