/* The linkage program's subcommands. Each lives in its own cmd_<name>.c
 * and is listed once in the table of linkage.c. (The same shape as the LCP
 * work's tools/commands.h, so that the two tables merge as a union.) */
#ifndef LK_TOOLS_COMMANDS_H
#define LK_TOOLS_COMMANDS_H

#include <stdio.h>

/* Exit statuses shared by every subcommand. */
enum {
  LK_EXIT_OK = 0,     /* done, and the result is what was asked for */
  LK_EXIT_FAILED = 1, /* ran, but failed: a simulation step, an output file */
  LK_EXIT_USAGE = 2   /* bad arguments or an unreadable/invalid file */
};

typedef struct {
  const char *name;
  const char *summary;               /* one line for `linkage --help` */
  int (*run)(int argc, char **argv); /* argv[0] is the subcommand name */
  void (*usage)(FILE *out);          /* `linkage <name> --help` */
} lk_command;

int lk_cmd_simulate(int argc, char **argv);
void lk_cmd_simulate_usage(FILE *out);
int lk_cmd_check(int argc, char **argv);
void lk_cmd_check_usage(FILE *out);
int lk_cmd_info(int argc, char **argv);
void lk_cmd_info_usage(FILE *out);

#endif
