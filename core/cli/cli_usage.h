/* SPDX-License-Identifier: MIT */
/*
 * core/cli/cli_usage.h — renderers of the command-line table (cli_table.h):
 * the --help texts, the man page and the bash and zsh completion scripts
 * (internal to the CLI). One source, four renderings, so none of them can
 * list an option the scanner does not take or miss one it does.
 *
 * Every function writes to @out and returns 0, or -1 when writing failed
 * (ferror).
 */
#ifndef FABRICLINT_CORE_CLI_USAGE_H
#define FABRICLINT_CORE_CLI_USAGE_H

#include <stdio.h>

#include "cli/cli_table.h"

/** fl_cli_usage() — `fabriclint --help`: the commands and the options of
 * check, wrapped at 79 columns. */
int fl_cli_usage(FILE *out);

/** fl_cli_usage_cmd() — `fabriclint CMD --help`: usage line, description,
 * the options of @cmd (for gen grouped by kind), exit codes. */
int fl_cli_usage_cmd(FILE *out, const fl_cli_cmd *cmd);

/** fl_cli_man() — the man page fabriclint.1 in roff (man(7) macros):
 * NAME, SYNOPSIS, DESCRIPTION, COMMANDS, OPTIONS, GEN KINDS, HELP OPTIONS,
 * ENVIRONMENT, EXIT STATUS, EXAMPLES, FILES, SEE ALSO. No date, so the same
 * table gives byte-identical pages. */
int fl_cli_man(FILE *out);

/** fl_cli_completion_bash() — a bash completion script (standalone: needs
 * no bash-completion package) registering `complete -F _fabriclint
 * fabriclint`. Commands, options per command (per kind for gen), fixed
 * values and file names come from the table; rule ids and parameters are
 * asked of the fabriclint being completed (`help --list rules|params`, with
 * the --plugin, --plugin-path and --no-builtin-plugins of the line), so
 * third-party plugins complete too. */
int fl_cli_completion_bash(FILE *out);

/** fl_cli_completion_zsh() — the zsh completion function `_fabriclint`
 * (#compdef file for a folder of $fpath), built on _arguments, with the
 * same sources as the bash script. */
int fl_cli_completion_zsh(FILE *out);

/**
 * fl_cli_list_static() — `fabriclint help --list WHAT` for the lists the
 * table holds: "commands", "options" (of @cmd, long names with "--", then
 * short ones), "formats" (the --format values of @cmd), "input-formats",
 * "kinds". One name a line. Returns 0, -1 on a write error, 1 when @what is
 * none of these.
 */
int fl_cli_list_static(FILE *out, const char *what, const fl_cli_cmd *cmd);

#endif
