/* SPDX-License-Identifier: MIT */
/*
 * core/cli/cli_args.h — the option scanner of every command (internal to the
 * CLI): splits a command's arguments into options (rows of cli_table.h) and
 * operands, the way GNU tools do.
 *
 *  - Options may come before, between or after the operands:
 *    `fabriclint check plan.xml --format json` is `check --format json
 *    plan.xml`. Operands keep their order.
 *  - `--` ends the options: every later argument is an operand, even one
 *    that starts with a dash (`fabriclint check -- -x`).
 *  - `-` alone is an operand (standard input).
 *  - `--name VALUE`, `--name=VALUE`, `-o VALUE`, `-oVALUE`; flags cluster
 *    (`-qv`). A long name may be abbreviated to an unambiguous prefix of the
 *    command's options (`--fail` for `--fail-on`), as getopt_long allows.
 *  - A value is taken whatever it looks like (`--max-findings-per-rule -1`
 *    passes "-1" to the option, which judges it).
 * Only the rows of the command are options: an option of another command is
 * refused naming the commands it belongs to, an unknown one with the
 * nearest option names. Nothing is global: the scanner keeps no state
 * between calls (getopt's optind is not used).
 */
#ifndef FABRICLINT_CORE_CLI_ARGS_H
#define FABRICLINT_CORE_CLI_ARGS_H

#include <stddef.h>

#include "cli/cli_table.h"

/** One option given: its row (of the command) and its value (NULL for a
 * flag), borrowed from argv. */
typedef struct fl_cli_item {
  const fl_cli_opt *opt;
  const char *value;
} fl_cli_item;

/** What fl_cli_args_scan() found, in command-line order. The arrays are
 * owned (fl_cli_args_free()); the strings are argv's. */
typedef struct fl_cli_args {
  fl_cli_item *items;
  size_t n_items;
  const char **operands;
  size_t n_operands;
} fl_cli_args;

/**
 * fl_cli_args_scan() — scan @argv[1..@argc-1], the arguments of command
 * @cmd (argv[0] is its name), into @out (zero-filled first).
 * Returns 0, or 2 (FL_EXIT_USAGE) after printing "fabriclint: MESSAGE" and
 * a pointer to `fabriclint CMD --help` on stderr: unknown or ambiguous
 * option, option of another command, missing value, value given to a flag,
 * out of memory. On error @out holds nothing to free.
 */
int fl_cli_args_scan(const fl_cli_cmd *cmd, int argc, char **argv,
                     fl_cli_args *out);

/** fl_cli_args_free() — free the arrays of @a (not the strings); zeroes @a. */
void fl_cli_args_free(fl_cli_args *a);

/** fl_cli_opt_find() — the row of option @name (long, without "--") that
 * command @cmd_bit takes, or NULL. Exact names only. */
const fl_cli_opt *fl_cli_opt_find(uint32_t cmd_bit, const char *name);

#endif
