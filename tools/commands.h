/* The linkage program's subcommands. Each lives in its own cmd_<name>.c
 * and is listed once in the table of linkage.c. */
#ifndef LK_TOOLS_COMMANDS_H
#define LK_TOOLS_COMMANDS_H

#include <stdio.h>

/* Exit statuses shared by every subcommand. */
enum {
  LK_EXIT_OK = 0,      /* done, and the result is what was asked for */
  LK_EXIT_FAILED = 1,  /* ran, but the answer is a failure (no solution, a
                          failed simulation step, an unwritable output) */
  LK_EXIT_USAGE = 2    /* bad arguments or an unreadable/invalid file */
};

typedef struct {
  const char *name;
  const char *summary;                 /* one line for `linkage --help` */
  int (*run)(int argc, char **argv);   /* argv[0] is the subcommand name */
  void (*usage)(FILE *out);            /* `linkage <name> --help` */
} lk_command;

int lk_cmd_lcp(int argc, char **argv);
void lk_cmd_lcp_usage(FILE *out);
int lk_cmd_simulate(int argc, char **argv);
void lk_cmd_simulate_usage(FILE *out);
int lk_cmd_check(int argc, char **argv);
void lk_cmd_check_usage(FILE *out);
int lk_cmd_info(int argc, char **argv);
void lk_cmd_info_usage(FILE *out);
int lk_cmd_view(int argc, char **argv);
void lk_cmd_view_usage(FILE *out);
int lk_cmd_static(int argc, char **argv);
void lk_cmd_static_usage(FILE *out);
int lk_cmd_convert(int argc, char **argv);
void lk_cmd_convert_usage(FILE *out);

/* Helpers for subcommands (linkage.c). */
int lk_tool_is_help(const char *arg);
/* Write s as a YAML double-quoted scalar. */
void lk_tool_yaml_string(FILE *out, const char *s);

#endif
