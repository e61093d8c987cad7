/* linkage: the command-line front end. Subcommands are looked up in one
 * table; adding one means a cmd_<name>.c and a line here. */
#include <stdio.h>
#include <string.h>

#include "config.h"
#include "tools/commands.h"

static const lk_command kCommands[] = {
    {"lcp", "solve a linear complementarity problem read from a file", lk_cmd_lcp,
     lk_cmd_lcp_usage},
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
          "usage: linkage <command> [options]\n"
          "       linkage <command> --help\n"
          "       linkage --version\n\n"
          "Articulated multibody dynamics with complementarity contact.\n\n"
          "commands:\n");
  for (const lk_command *c = kCommands; c->name; c++) fprintf(out, "  %-10s %s\n", c->name, c->summary);
}

static const lk_command *find(const char *name) {
  for (const lk_command *c = kCommands; c->name; c++)
    if (strcmp(c->name, name) == 0) return c;
  return NULL;
}

int main(int argc, char **argv) {
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
    if (!c) {
      fprintf(stderr, "linkage: unknown command '%s' (see linkage --help)\n", argv[2]);
      return LK_EXIT_USAGE;
    }
    c->usage(stdout);
    return LK_EXIT_OK;
  }
  const lk_command *c = find(cmd);
  if (!c) {
    fprintf(stderr, "linkage: unknown command '%s' (see linkage --help)\n", cmd);
    return LK_EXIT_USAGE;
  }
  return c->run(argc - 1, argv + 1);
}
