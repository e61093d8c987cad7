/* Helpers shared by the linkage subcommands: loading a mechanism with
 * overrides and printing errors the way compilers do, so that editors can
 * jump to "file:line:column". */
#ifndef LK_TOOLS_CLI_H
#define LK_TOOLS_CLI_H

#include "linkage/linkage.h"
#include "tools/commands.h"

/* Print "cmd: message" and the usual hint; returns LK_EXIT_USAGE. */
int lk_cli_usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Print an error from the library: "file:line:column: error: message". */
void lk_cli_print_error(const char *cmd, const lk_error *err);

/* Load a mechanism file; on failure prints the error and returns NULL
 * (the caller exits with LK_EXIT_USAGE). */
lk_model *lk_cli_load(const char *cmd, const char *path, const char *const *set, int nset,
                      lk_run_settings *run);
/* The same for a command that writes: every file the load reads (the
 * description, its includes, its meshes) is given to outputs as an input
 * (lk_outputs_input), so that an output naming one of them fails the load
 * with a message naming both (exit LK_EXIT_USAGE). */
lk_model *lk_cli_load_for(const char *cmd, const char *path, const char *const *set, int nset,
                          lk_run_settings *run, lk_outputs *outputs);

/* Print a loaded model's warnings to stderr: FILE:LINE:COLUMN: warning:
 * MESSAGE when the loader located it ("LINE:COLUMN: " in front), else
 * FILE: warning: MESSAGE. */
void lk_cli_print_warnings(const char *path, const lk_model *m);

/* --package-path DIR (repeatable): directories where a URDF's
 * package://PKG/ names are looked for, before those of ROS_PACKAGE_PATH,
 * for every later lk_cli_load. Returns LK_EXIT_USAGE when the paths are
 * too long, else 0. */
int lk_cli_add_package_path(const char *cmd, const char *dir);
/* --package-path's directories, then ROS_PACKAGE_PATH's (':' separated). */
const char *lk_cli_package_path(void);

/* --strict-meshes and --keep-rest-overlaps (long options only: these are
 * their getopt codes): lk_load_options.strict_meshes and
 * .keep_rest_overlaps for every later load. lk_cli_load_flag takes the
 * code getopt_long returned and answers 1 when it was one of them. */
#define LK_CLI_STRICT_MESHES 1001
#define LK_CLI_KEEP_REST_OVERLAPS 1002
#define LK_CLI_LOAD_LONGOPTS                                              \
  {"strict-meshes", no_argument, NULL, LK_CLI_STRICT_MESHES},             \
  {                                                                       \
    "keep-rest-overlaps", no_argument, NULL, LK_CLI_KEEP_REST_OVERLAPS    \
  }
#define LK_CLI_LOAD_NAMES "strict-meshes", "keep-rest-overlaps"
/* Their --help lines. */
#define LK_CLI_LOAD_HELP                                                           \
  "      --strict-meshes     a URDF collision mesh that is not found is an error\n" \
  "                          (default: that shape is left out, with a warning)\n"   \
  "      --keep-rest-overlaps  URDF links whose shapes overlap with every joint\n"  \
  "                          at 0 collide too (default: never with each other)\n"
int lk_cli_load_flag(int code);
/* lk_load_options_default, then --package-path's directories and the
 * flags above. */
void lk_cli_load_options(lk_load_options *o);

/* The name of names[] (NULL-terminated) nearest to word, or NULL. */
const char *lk_cli_suggest(const char *word, const char *const *names);

/* The option of longopts nearest to an unknown one ("--durat"), or NULL. */
const char *lk_cli_suggest_option(const char *arg, const char *const *names);

/* Report what getopt_long returned for a bad option (c is '?' or ':');
 * returns LK_EXIT_USAGE. */
int lk_cli_bad_option(const char *cmd, int c, char **argv, int optind_now, int optopt_now,
                      const char *const *names);

/* SIGINT, SIGTERM and SIGHUP from now on only set a flag, which a long
 * run reads between steps (lk_cli_signal) to stop cleanly: temporaries
 * removed, old outputs kept. Interrupted system calls are not restarted,
 * so that a wait (a FIFO's open) ends too. */
void lk_cli_catch_signals(void);
/* The first signal caught since lk_cli_catch_signals (0: none). */
int lk_cli_signal(void);
/* "SIGINT", "SIGTERM", "SIGHUP" (else "signal"). */
const char *lk_cli_signal_name(int sig);

/* A program's status once its standard output is flushed and closed: a
 * failed write or close of stdout (a full disk, /dev/full) is reported on
 * stderr and turns a successful status into LK_EXIT_FAILED. */
int lk_cli_finish_stdout(const char *cmd, int status);

#endif
