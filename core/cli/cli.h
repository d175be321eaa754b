/*
 * core/cli.h — subcommands of the fabriclint executable (internal).
 * Each takes the subcommand's arguments (argv[0] is the subcommand name)
 * and returns the process exit code (DESIGN.md §2: 0, 1, 2 or 3).
 */
#ifndef FABRICLINT_CORE_CLI_H
#define FABRICLINT_CORE_CLI_H

int fl_cli_check(int argc, char **argv);
int fl_cli_info(int argc, char **argv);
int fl_cli_rules(int argc, char **argv);
/** `fabriclint gen KIND [PARAMS]`, core/cli_gen.c. */
int fl_cli_gen(int argc, char **argv);
/** `fabriclint diff [OPTIONS] DESIGN AS_BUILT`, core/cli_diff.c. */
int fl_cli_diff(int argc, char **argv);
/** `fabriclint help [COMMAND] [--man|--completion SHELL|--list WHAT]`,
 * core/cli/cli_help.c. */
int fl_cli_help(int argc, char **argv);

#endif
