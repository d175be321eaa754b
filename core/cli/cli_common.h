/* SPDX-License-Identifier: MIT */
/*
 * core/cli/cli_common.h — option parsing and steps shared by the subcommands of
 * the fabriclint executable (internal to the CLI).
 */
#ifndef FABRICLINT_CORE_CLI_COMMON_H
#define FABRICLINT_CORE_CLI_COMMON_H

#include <stdio.h>

#include "cli/cli_args.h"
#include "cli/cli_table.h"
#include "fabriclint/load.h"
#include "host/host.h"
#include "host/policy.h"
#include "io/outfile.h"
#include "report/picture.h"
#include "report/report.h"

#define FL_EXIT_OK       0
#define FL_EXIT_FINDINGS 1
#define FL_EXIT_USAGE    2
#define FL_EXIT_PLUGIN   3

typedef struct fl_cli_opts {
  int out_format; /* FL_OUT_* */
  const char *output;
  uint32_t fail_on;
  const char *rules;
  const char **params;
  size_t n_params;
  const char **plugins;
  size_t n_plugins;
  const char **plugin_paths;
  size_t n_plugin_paths;
  int no_builtin;
  uint32_t input_format;
  fl_load_options load;
  int quiet, verbose;
  int explain;         /* info --explain: the inferences and their evidence */
  const char **inputs; /* the operands, then the FILEs of --plane */
  size_t n_inputs;
  const char **input_plane;  /* per input: its --plane NAME or NULL; owned */
  const char **inputs_owned; /* the array behind inputs; owned */
  size_t n_input_plane;
  const char **plane_specs; /* --plane NAME:FILE as given */
  size_t n_plane_specs;
  const char *command;        /* argv[0]: "check", "diff", "info", "rules" */
  const fl_cli_cmd *cmd;      /* its row of the command table */
  fl_cli_args args;           /* what the scanner found (owned) */
  const char *policy_path;    /* --policy */
  fl_policy *policy;          /* parsed by fl_cli_parse(), owned */
  const char *baseline_path;  /* --baseline */
  const char *write_baseline; /* --write-baseline */
  int exit_zero;              /* --exit-zero */
  uint32_t max_per_rule;      /* --max-findings-per-rule (0: no cap) */
  const char *view;           /* --view (pictures), or NULL */
  const char *focus;          /* --focus (pictures), or NULL */
  struct fl_cli_progress *progress; /* borrowed, may be NULL (check) */
  char *node_name_map_text;         /* --node-name-map, read once (owned) */
  uint32_t jobs;                    /* --jobs N (0: not given) */
  uint32_t threads;         /* the run's budget: --jobs, FABRICLINT_THREADS
                               or fl_threads_available() (fl_cli_parse) */
  const char *threads_from; /* which of the three (a static string) */
  const char *sm_config;    /* --sm-config (check), or NULL */
  char **sm_params;         /* the --param values it implies (owned) */
  size_t n_sm_params;
} fl_cli_opts;

/** The rules of the policy itself (policy.expired-waiver,
 * policy.unused-waiver; docs/ci.md), as renderers and `explain` see them. */
extern const fl_report_rule FL_CLI_POLICY_RULES[2];

/** Print @err to stderr as "fabriclint: FILE:LINE:COL: message". */
void fl_cli_print_error(const fl_error *err);

/**
 * fl_cli_parse() — parse the arguments of command argv[0] (check, info,
 * rules, explain, diff or perf) into @o (zero-filled first): options anywhere
 * among the inputs, `--` ends them (cli_args.h). Returns 0 to go on, -1 when
 * done (help or version printed: exit 0), else an exit code (message printed).
 * Free @o with fl_cli_opts_free() whatever the result.
 */
int fl_cli_parse(int argc, char **argv, fl_cli_opts *o);

/**
 * fl_cli_extra_fn — a command's own options (diff's --design, ...): called
 * for each option given, in order, before the shared handling; returns 1
 * when it handled @it (setting *@rc to 0 or an exit code), 0 to let
 * fl_cli_parse() handle it.
 */
typedef int (*fl_cli_extra_fn)(void *ctx, const fl_cli_item *it, int *rc);

/** fl_cli_parse_ext() — fl_cli_parse() with @extra (and its @ctx) handling
 * the options of the command that the shared parser does not. */
int fl_cli_parse_ext(int argc, char **argv, fl_cli_opts *o,
                     fl_cli_extra_fn extra, void *ctx);
void fl_cli_opts_free(fl_cli_opts *o);
/**
 * fl_cli_format_arg() — the FL_FMT_* code of format name @arg given to
 * option @opt (`--input-format`, `--design-format`, ...). `list` prints the
 * names (from the format registry) and exits 0; an unknown name prints a
 * usage error listing them and returns (uint32_t)-1.
 */
uint32_t fl_cli_format_arg(const char *opt, const char *arg);
/** Print "fabriclint: <fmt with arg>" and a hint; returns FL_EXIT_USAGE. */
int fl_cli_usage_error(const char *fmt, const char *arg);
/** fl_cli_usage_errorf() — fl_cli_usage_error() with a printf format of
 * any arguments (the message cut at 1,200 bytes). */
int fl_cli_usage_errorf(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

/** fl_cli_link_rate() — link @l's rate as compare and bom print it:
 * "4xNDR", "1x400G", "??NDR" (width unknown) or "unknown". */
void fl_cli_link_rate(const struct fl_fabric *f, fl_id l, char *buf,
                      size_t size);
/** Refuse standard input ('-') named more than once among inputs @a (@na)
 * and @b (@nb; either may be NULL) and the policy, baseline and node-name
 * map of @o: the second read would be empty. 0 or FL_EXIT_USAGE (message
 * "standard input given twice" printed). */
int fl_cli_check_stdin(const fl_cli_opts *o, const char *const *a, size_t na,
                       const char *const *b, size_t nb);
/**
 * fl_cli_forced_format_check() — input @path given with a forced routing
 * format @fmt (by command-line @option, e.g. "--input-format", named in the
 * message): parse it on its own, into an empty fabric,
 * so that a file of another format is named at the first line the loader
 * cannot read ("this is not lfts input ...: unrecognised line ...").
 * Returns 0 when it parses or when @fmt is auto, a topology format or
 * annotations (which need a topology to parse); else FL_EXIT_USAGE with the
 * message printed. Reads @path ('-': standard input, consumed).
 */
int fl_cli_forced_format_check(const fl_cli_opts *o, const char *path,
                               uint32_t fmt, const char *option);
/** Initialise @h and load plugins per the options; 0 or an exit code. The
 * host's events go to fl_cli_log_event() until a progress display is
 * attached (cli_progress.h). */
int fl_cli_load_plugins(const fl_cli_opts *o, fl_host *h);

/** fl_cli_log_event() — a host event receiver (fl_host_event_fn) that
 * prints rules' log lines of warning level and above (all when the host
 * @ctx, an fl_host, is verbose) and the host's notes to stderr as
 * "fabriclint: RULE: [plane P: ]LEVEL: message" / "fabriclint: note: ...";
 * ignores the other events. */
void fl_cli_log_event(void *ctx, const fl_host_event *ev);
/** Load and finalize every input, each read once; 0 or FL_EXIT_USAGE (error
 * printed). With @o->progress, each input and the finalising are phases.
 * @formats: NULL, or n_inputs entries that receive the format each input was
 * loaded as. Refuses (FL_EXIT_USAGE) when --output or
 * --write-baseline names a file the run read (fl_cli_check_outputs_read). */
int fl_cli_load_fabric(const fl_cli_opts *o, struct fl_fabric **out,
                       uint32_t *formats);
/** Open --output (refusing to overwrite an input) through a temporary file
 * (io/outfile.h), or standard output without --output or with `-`;
 * @out->f is where to write. 0 or FL_EXIT_USAGE (message printed). */
int fl_cli_open_output(const fl_cli_opts *o, fl_outfile *out);
/** Refuse --output / --write-baseline paths that would overwrite an input
 * (or a file in an input folder), the policy, the baseline or the
 * node-name map; 0 or FL_EXIT_USAGE (message printed). */
int fl_cli_check_outputs(const fl_cli_opts *o, const char *const *inputs,
                         size_t n_inputs);
/** An MPI run (docs/mpi.md): every rank reads every input itself, so
 * standard input (`-`, which reaches rank 0 only), pipes, FIFOs and devices
 * (one reader gets the bytes) are refused, for the inputs, the policy, the
 * baseline, the node-name map and @workload (NULL: none). Every rank sees
 * the same command line and decides alike, before any reads: no rank waits
 * for another. 0 or FL_EXIT_USAGE (message printed). */
int fl_cli_dist_inputs(const fl_cli_opts *o, const char *workload);
/** Refuse --output / --write-baseline when it names @path, a file the
 * command reads besides the inputs, policy, baseline and node-name map
 * (perf: the workload), @what naming it ("the workload"); 0 or
 * FL_EXIT_USAGE (message printed). */
int fl_cli_check_output_other(const fl_cli_opts *o, const char *path,
                              const char *what);
/** Refuse --output / --write-baseline paths that name any file read into
 * @fab (fl_fabric_file_path(): inputs, folder members, ibsim includes); 0
 * or FL_EXIT_USAGE (message printed). */
int fl_cli_check_outputs_read(const fl_cli_opts *o,
                              const struct fl_fabric *fab);
/** Finish the --output file given the command's exit code @rc: with
 * FL_EXIT_USAGE the report is incomplete and dropped (an existing file keeps
 * its previous content), otherwise it is put in place. Returns @rc, or
 * FL_EXIT_USAGE when writing failed (message names the file and the errno
 * text). Safe on an @out never opened (zero-filled). */
int fl_cli_close_output(fl_outfile *out, int rc);

/** 1 when @o asks for a picture format (dot, svg, html). */
int fl_cli_is_picture(const fl_cli_opts *o);

/**
 * fl_cli_picture() — fill @pic from the options for a picture format:
 * the views of --view (default tiers for check, diff for diff; dot and svg
 * draw one), --focus, the policy and baseline paths, and the command line
 * @argc/@argv (provenance); the fabrics are the caller's to set. 0, or
 * FL_EXIT_USAGE (message printed).
 */
int fl_cli_picture(const fl_cli_opts *o, int is_diff, int argc, char **argv,
                   fl_report_picture *pic);

/** fl_cli_report_diag() — the picture renderer's messages
 * (fl_report_input.diag) on stderr: an error, or "warning: ...". */
void fl_cli_report_diag(void *ctx, int is_error, const char *msg);

/**
 * fl_cli_report() — the common tail of `check` and `diff`: apply the
 * policy's waivers (today = $FABRICLINT_TODAY, else the UTC date), sort,
 * apply --baseline, write --write-baseline, render @fs in the chosen format
 * to @out and compute the exit code: 3 when @run_failed, else 1 when an
 * active finding is at or above --fail-on (0 with --exit-zero), else 0;
 * 2 on a write or baseline error (printed).
 * @rules/@n_rules: the rules run (any order; sorted here). The policy's own
 * rules are added when it has waivers. @fs is modified (marks, sorting).
 * @pic: what the picture formats draw (fl_cli_picture()), or NULL; its
 * --focus is checked against the fabrics and the rules run (exit 2).
 */
int fl_cli_report(const fl_cli_opts *o, FILE *out, fl_findings *fs,
                  const fl_fabric_counts *counts, const fl_report_rule *rules,
                  size_t n_rules, int run_failed, const fl_report_picture *pic);

/**
 * fl_cli_settle_findings() — what fl_cli_report() does to the findings of
 * a run before rendering them, without a baseline and without rendering:
 * the policy's waivers (today = $FABRICLINT_TODAY, else the UTC date), one
 * finding per cause (roots, then within a rule) and the report order; so
 * that `compare` judges the findings `check` would print. 0, or
 * FL_EXIT_USAGE (message printed).
 */
int fl_cli_settle_findings(const fl_cli_opts *o, fl_findings *fs);

#endif
