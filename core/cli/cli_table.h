/* SPDX-License-Identifier: MIT */
/*
 * core/cli/cli_table.h — the one table of the command line: commands, their
 * options, the kinds of `gen`, environment variables and exit codes
 * (internal to the CLI).
 *
 * Everything the user is told about the command line is made from this
 * table: the option scanner (cli_args.c) accepts exactly the options a
 * command's rows list, `--help` of every command, the man page
 * `fabriclint.1` and the bash and zsh completion scripts (cli_usage.c,
 * written at build time by `fabriclint help --man` / `--completion SHELL`)
 * render it. Adding an option is one row here and one case in the parser of
 * the command that uses it; help, man page and completion follow.
 */
#ifndef FABRICLINT_CORE_CLI_TABLE_H
#define FABRICLINT_CORE_CLI_TABLE_H

#include <stddef.h>
#include <stdint.h>

/** Commands, as bits (fl_cli_opt.cmds). */
#define FL_CMD_CHECK   0x01u
#define FL_CMD_INFO    0x02u
#define FL_CMD_RULES   0x04u
#define FL_CMD_GEN     0x08u
#define FL_CMD_DIFF    0x10u
#define FL_CMD_HELP    0x20u
#define FL_CMD_EXPLAIN 0x40u
#define FL_CMD_PERF    0x80u
#define FL_CMD_CONVERT 0x100u
#define FL_CMD_COMPARE 0x200u
#define FL_CMD_BOM     0x400u
#define FL_CMD_SWEEP   0x800u
#define FL_CMD_ALL     0xfffu
/** The commands whose options go through fl_cli_parse() (cli_common.h). */
#define FL_CMD_SHARED                                                          \
  (FL_CMD_CHECK | FL_CMD_INFO | FL_CMD_RULES | FL_CMD_DIFF | FL_CMD_EXPLAIN |  \
   FL_CMD_PERF | FL_CMD_CONVERT | FL_CMD_COMPARE | FL_CMD_BOM | FL_CMD_SWEEP)

/** Kinds of `gen`, as bits (fl_cli_opt.kinds; 0 = every kind). */
#define FL_KIND_FAT_TREE 0x1u
#define FL_KIND_RAIL_SU  0x2u
#define FL_KIND_RING     0x4u
#define FL_KIND_TORUS    0x8u

/** What completes a value or an operand (fl_cli_opt.complete,
 * fl_cli_cmd.operands). */
enum fl_cli_complete {
  FL_CPL_NONE = 0,     /**< nothing to offer (a number, a name) */
  FL_CPL_FILE,         /**< a file name */
  FL_CPL_DIR,          /**< a folder name */
  FL_CPL_VALUES,       /**< fl_cli_opt.values, space-separated */
  FL_CPL_REPORT,       /**< the report writers' --format names */
  FL_CPL_INPUT_FORMAT, /**< "auto" and the loaders' format names */
  FL_CPL_RULES,        /**< comma-separated rule ids and plugin names */
  FL_CPL_PARAM,        /**< RULE.PARAM=VALUE of the loaded rules */
  FL_CPL_KIND,         /**< a kind of gen */
  FL_CPL_COMMAND,      /**< a command name */
};

/** Option ids: what the parser of a command switches on. */
enum fl_cli_opt_id {
  FL_OPT_FORMAT = 256,
  FL_OPT_OUTPUT,
  FL_OPT_FAIL_ON,
  FL_OPT_EXIT_ZERO,
  FL_OPT_POLICY,
  FL_OPT_BASELINE,
  FL_OPT_WRITE_BASELINE,
  FL_OPT_MAX_PER_RULE,
  FL_OPT_JOBS,
  FL_OPT_SM_CONFIG,
  FL_OPT_RULES,
  FL_OPT_PARAM,
  FL_OPT_PLUGIN,
  FL_OPT_PLUGIN_PATH,
  FL_OPT_NO_BUILTIN,
  FL_OPT_NODE_MAP,
  FL_OPT_PLANE,
  FL_OPT_INPUT_FORMAT,
  FL_OPT_SYSTEM_PATTERN,
  FL_OPT_RELAXNG,
  FL_OPT_LENIENT,
  FL_OPT_VIEW,
  FL_OPT_FOCUS,
  FL_OPT_QUIET,
  FL_OPT_VERBOSE,
  FL_OPT_VERSION,
  FL_OPT_HELP,
  /* diff */
  FL_OPT_DESIGN,
  FL_OPT_AS_BUILT,
  FL_OPT_DESIGN_FORMAT,
  FL_OPT_AS_BUILT_FORMAT,
  FL_OPT_DESIGN_PLANE,
  FL_OPT_AS_BUILT_PLANE,
  FL_OPT_COMPARE_LIDS,
  FL_OPT_NO_GUID,
  FL_OPT_AS_GIVEN,
  /* gen */
  FL_OPT_RADIX,
  FL_OPT_TIERS,
  FL_OPT_HOSTS,
  FL_OPT_PARALLEL,
  FL_OPT_EXTRA_LEAF_LINK,
  FL_OPT_SUS,
  FL_OPT_HOSTS_PER_SU,
  FL_OPT_RAILS,
  FL_OPT_SPINES,
  FL_OPT_LEAF_RADIX,
  FL_OPT_HCA_MAP,
  FL_OPT_HOST_PREFIX,
  FL_OPT_SWITCHES,
  FL_OPT_HOSTS_PER_SWITCH,
  FL_OPT_X,
  FL_OPT_Y,
  FL_OPT_SPEED,
  FL_OPT_WIDTH,
  FL_OPT_NO_LIDS,
  FL_OPT_DRY_RUN,
  FL_OPT_PLANES,
  FL_OPT_ALLOW_LID_OVERFLOW,
  FL_OPT_OVERSUBSCRIPTION,
  FL_OPT_UPLINKS,
  FL_OPT_SUS_PER_GROUP,
  FL_OPT_LAYOUT,
  FL_OPT_HOSTS_PER_RACK,
  FL_OPT_SWITCHES_PER_RACK,
  FL_OPT_RACKS_PER_ROW,
  FL_OPT_HOST_U,
  FL_OPT_RACK_U,
  FL_OPT_STORAGE_NODES,
  FL_OPT_INBAND_MGMT,
  /* perf */
  FL_OPT_WORKLOAD,
  FL_OPT_ROUTING,
  FL_OPT_MIN_SHARE,
  FL_OPT_DUMP_FLOWS,
  FL_OPT_JOB,
  FL_OPT_NO_OVERLAP,
  FL_OPT_MEASURED,
  FL_OPT_CALIBRATE,
  FL_OPT_FAIL,
  /* info */
  FL_OPT_EXPLAIN_INFER,
  /* convert */
  FL_OPT_FORCE,
  /* bom */
  FL_OPT_CATALOGUE,
  FL_OPT_VARY,
  /* compare */
  FL_OPT_SUMMARY_PATTERNS,
  FL_OPT_WITH,
  /* help */
  FL_OPT_MAN,
  FL_OPT_COMPLETION,
  FL_OPT_LIST,
};

/**
 * fl_cli_opt — one option row. An option name may have several rows when
 * its value or meaning differs between commands (`--format`); within one
 * command, a name has one row.
 * @id: fl_cli_opt_id. @name: long name without "--". @short_name: 0 or the
 * one-letter form. @arg: placeholder of the value ("FILE"), NULL for a flag.
 * @cmds: FL_CMD_* bits of the commands that take it. @kinds: for gen, the
 * FL_KIND_* bits of the kinds that take it (0: all). @complete/@values:
 * how its value completes. @help: one paragraph, wrapped when rendered;
 * plain text (no markup), first word lower case, no final full stop.
 */
typedef struct fl_cli_opt {
  int id;
  const char *name;
  char short_name;
  const char *arg;
  uint32_t cmds;
  uint32_t kinds;
  enum fl_cli_complete complete;
  const char *values;
  const char *help;
} fl_cli_opt;

/**
 * fl_cli_cmd — one command. @bit: FL_CMD_*. @synopsis: what follows the
 * command name in the usage line. @summary: one line for command lists.
 * @description: paragraphs (separated by "\n\n") for its --help and the
 * man page. @operands: how its operands complete.
 */
typedef struct fl_cli_cmd {
  const char *name;
  uint32_t bit;
  const char *synopsis;
  const char *summary;
  const char *description;
  enum fl_cli_complete operands;
} fl_cli_cmd;

/** fl_cli_kind — one kind of `gen`: @bit FL_KIND_*, @name, @summary. */
typedef struct fl_cli_kind {
  const char *name;
  uint32_t bit;
  const char *summary;
} fl_cli_kind;

/** fl_cli_note — a name and its meaning (environment variable, exit code,
 * example command line). */
typedef struct fl_cli_note {
  const char *name;
  const char *text;
} fl_cli_note;

/** The rows. Each array ends with a row whose name is NULL. */
extern const fl_cli_cmd FL_CLI_CMDS[];
extern const fl_cli_opt FL_CLI_OPTS[];
extern const fl_cli_kind FL_CLI_KINDS[];
extern const fl_cli_note FL_CLI_ENV[];
extern const fl_cli_note FL_CLI_EXIT[];
extern const fl_cli_note FL_CLI_EXAMPLES[];

/** The one-paragraph description of fabriclint (help, man page NAME). */
extern const char FL_CLI_ABOUT[];

/** fl_cli_find_cmd() — the command named @name, or NULL. */
const fl_cli_cmd *fl_cli_find_cmd(const char *name);

/** fl_cli_cmd_of() — the command of bit @bit (FL_CMD_*), or NULL. */
const fl_cli_cmd *fl_cli_cmd_of(uint32_t bit);

/** fl_cli_find_kind() — the gen kind named @name, or NULL. */
const fl_cli_kind *fl_cli_find_kind(const char *name);

/**
 * fl_cli_cmds_text() — the names of the commands in @cmds (FL_CMD_* bits)
 * as English ("check and diff", "check, info and rules") into @buf of
 * @size bytes; returns @buf.
 */
const char *fl_cli_cmds_text(uint32_t cmds, char *buf, size_t size);

#endif
