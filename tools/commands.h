/* The subcommands of the linkage program. Each takes the arguments from its
 * own name on (argv[0] is "simulate", ...), prints what it has to say, and
 * returns the exit status: 0 success, 1 the work failed (a simulation step,
 * writing an output), 2 a usage error or a file that is not a valid
 * mechanism description. */
#ifndef LK_TOOLS_COMMANDS_H
#define LK_TOOLS_COMMANDS_H

int lk_cmd_simulate(int argc, char **argv);
int lk_cmd_check(int argc, char **argv);
int lk_cmd_info(int argc, char **argv);

#endif
