/* SPDX-License-Identifier: MIT */
/*
 * core/cli/cli.c — the fabriclint command line (DESIGN.md §2, a contract):
 *
 *   fabriclint check [OPTIONS] INPUT...   run rules
 *   fabriclint info  [OPTIONS] INPUT...   summarise what was loaded
 *   fabriclint rules [OPTIONS]            list plugins, rules, parameters
 *   fabriclint explain [OPTIONS] RULE...  one rule's help, parameters, example
 *   fabriclint gen   KIND [PARAMS]        write a standard topology
 *   fabriclint diff  [OPTIONS] DESIGN AS_BUILT
 *   fabriclint help  [COMMAND] [--man | --completion SHELL | --list WHAT]
 *   fabriclint perf  --workload JOB.yaml INPUT...   collective model
 *   fabriclint convert INPUT... -o OUT --format FMT  write in another format
 *   fabriclint bom INPUT... [--catalogue FILE]       bill of materials
 *   fabriclint compare [OPTIONS] BASE HEAD   what a design change does
 *   fabriclint sweep --vary OPT=V,... -- KIND  designs over gen parameters
 *
 * The commands and their options are rows of one table (cli_table.c); the
 * scanner (cli_args.c), --help, the man page and the completion scripts
 * (cli_usage.c) are made from it.
 * This file holds main(), the command dispatch and `check`; the other
 * commands have a file each, and what they share is in cli_common.c.
 *
 * Exit codes: 0 no finding at or above --fail-on; 1 findings at or above
 * it; 2 usage or input error; 3 a plugin failed to load or run.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/cli_common.h"
#include "cli/cli_mpi.h"
#include "cli/cli_progress.h"
#include "cli/cli_signals.h"
#include "cli/cli_smconf.h"
#include "cli/cli_table.h"
#include "cli/cli_usage.h"
#include "fabriclint/fabric.h"
#include "host/host.h"
#include "report/report.h"

/* ---- check
 * ---------------------------------------------------------------------- */

#define LINK_LOAD_RULE "ecmp-balance.link-load"

/* 1 when @pic draws the load view. */
static int draws_load(const fl_report_picture *pic) {
  for (size_t i = 0; pic && i < pic->n_views; i++)
    if (pic->views[i] == FL_VIEW_LOAD)
      return 1;
  return 0;
}

/* The load view draws the loads the ecmp-balance plugin computes: ask it
 * for every cable's load (link-loads=true), when it is loaded and has that
 * parameter. */
static int ask_link_loads(fl_host *host) {
  if (!fl_host_find_param(host, LINK_LOAD_RULE, "link-loads"))
    return 0;
  return fl_host_add_param(host, LINK_LOAD_RULE, "link-loads", "true") == FL_OK
             ? 0
             : FL_EXIT_USAGE;
}

/* With the load view, run ecmp-balance.link-load after the selected rules
 * when they did not include it (it is opt-in), adding its findings and its
 * run to @fs and *@runs. */
static int run_link_load(fl_host *host, const fl_fabric *fab,
                         const char *patterns, fl_findings *fs,
                         fl_rule_run **runs, size_t *n_run, fl_error *err) {
  const fl_rule_def *r = fl_host_find_rule(host, LINK_LOAD_RULE);
  if (!r || fl_host_rule_runs(host, r, patterns) ||
      !fl_host_rule_runs(host, r, LINK_LOAD_RULE))
    return FL_OK;
  fl_rule_run *more = NULL;
  size_t n_more = 0;
  int rc =
      fl_host_run_rules(host, fab, LINK_LOAD_RULE, fs, &more, &n_more, err);
  fl_rule_run *all =
      more ? realloc(*runs, (*n_run + n_more) * sizeof *all) : NULL;
  if (all) {
    memcpy(all + *n_run, more, n_more * sizeof *all);
    *runs = all;
    *n_run += n_more;
  }
  free(more);
  return rc;
}

int fl_cli_check(int argc, char **argv) {
  return fl_cli_check_dist(argc, argv, NULL);
}

int fl_cli_check_dist(int argc, char **argv, const fl_dist *dist) {
  fl_cli_opts o;
  int rc = fl_cli_parse(argc, argv, &o);
  if (rc == 0 && o.sm_config)
    rc = fl_cli_sm_config(&o); /* before the plugins take --param */
  if (rc != 0) {
    fl_cli_opts_free(&o);
    return rc < 0 ? 0 : rc;
  }
  if (dist && (rc = fl_cli_dist_inputs(&o, NULL)) != 0) {
    fl_cli_opts_free(&o);
    return rc;
  }
  if (dist && dist->rank != 0)
    o.output = NULL; /* rank 0 alone writes (other ranks' stdout: null) */
  /* progress on a terminal, times with -v (cli_progress.h) */
  o.progress =
      fl_cli_progress_new(stderr, isatty(STDERR_FILENO) && !o.quiet, o.verbose);
  fl_host host;
  fl_host_init(&host);
  fl_fabric *fab = NULL;
  fl_outfile out = {0};
  fl_findings fs = {0};
  fl_rule_run *runs = NULL;
  fl_report_rule *rules = NULL;
  size_t n_run = 0;
  fl_report_picture pic, *picp = NULL;
  rc = fl_cli_check_outputs(&o, o.inputs, o.n_inputs);
  if (rc == 0 && fl_cli_is_picture(&o) &&
      (rc = fl_cli_picture(&o, 0, argc, argv, &pic)) == 0)
    picp = &pic;
  if (rc == 0)
    rc = fl_cli_load_plugins(&o, &host);
  host.dist = dist;
  if (rc == 0 && draws_load(picp))
    rc = ask_link_loads(&host);
  if (rc == 0)
    fl_cli_progress_attach(o.progress, &host, o.verbose);
  if (rc == 0)
    rc = fl_cli_load_fabric(&o, &fab, NULL);
  if (rc == 0 && fl_fabric_node_count(fab) == 0)
    /* an empty capture or plan must not pass a CI gate as clean */
    rc = fl_cli_usage_error("the inputs describe no node: nothing to check "
                            "(an empty capture or plan?)%s",
                            "");
  if (rc == 0)
    rc = fl_cli_open_output(&o, &out);
  if (rc != 0)
    goto done;
  fl_error err;
  fl_error_clear(&err);
  int run_rc = fl_host_run_rules(&host, fab, o.rules, &fs, &runs, &n_run, &err);
  if (run_rc == FL_OK && n_run && draws_load(picp))
    run_rc = run_link_load(&host, fab, o.rules, &fs, &runs, &n_run, &err);
  if (o.rules && n_run == 0 && run_rc == FL_OK) {
    rc = fl_cli_usage_error("--rules '%s' selects no loaded rule (see "
                            "fabriclint rules)",
                            o.rules);
    goto done;
  }
  if (n_run == 0 && run_rc == FL_OK) { /* a gate that checks nothing */
    rc = fl_cli_usage_error("no rule ran: no plugin is loaded, or the policy "
                            "disables every rule (see fabriclint rules)%s",
                            "");
    goto done;
  }
  if (run_rc == FL_EINVAL) { /* a user's parameter value: a usage error */
    fl_cli_print_error(&err);
    rc = FL_EXIT_USAGE;
    goto done;
  }
  if (run_rc != FL_OK && !runs) { /* out of memory before any rule ran */
    fl_cli_print_error(&err);
    rc = FL_EXIT_PLUGIN;
    goto done;
  }
  rules = calloc(n_run + 1, sizeof *rules);
  if (!rules) {
    rc = FL_EXIT_USAGE;
    goto done;
  }
  for (size_t i = 0; i < n_run; i++)
    rules[i] = (fl_report_rule){runs[i].rule->id,
                                runs[i].rule->summary,
                                runs[i].rule->help,
                                fl_host_rule_severity(&host, runs[i].rule),
                                runs[i].failed,
                                runs[i].message,
                                NULL};
  fl_fabric_counts counts;
  fl_fabric_counts_of(fab, &counts);
  fl_cli_progress_hide(o.progress); /* the report may go to this terminal */
  fl_cli_progress_phase(o.progress, "report", NULL, 0, 0);
  if (picp)
    pic.fab = fab;
  rc = fl_cli_report(&o, out.f, &fs, &counts, rules, n_run, run_rc != FL_OK,
                     picp);
  fl_cli_progress_summary(o.progress);
  if (run_rc != FL_OK)
    fl_cli_print_error(&err);
done:
  rc = fl_cli_close_output(&out, rc);
  free(rules);
  free(runs);
  fl_findings_free(&fs);
  fl_fabric_free(fab);
  fl_host_free(&host);
  fl_cli_progress_free(o.progress);
  fl_cli_opts_free(&o);
  return rc;
}

/* `rules --help RULE...` (or -h) is `explain RULE...`. Returns -1 when
 * there is no help option, else the exit code of the help given. */
static int rules_help(int argc, char **argv) {
  int help = -1;
  for (int i = 1; i < argc && help < 0; i++)
    if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0)
      help = i;
  if (help < 0)
    return -1;
  char **rest = calloc((size_t)argc + 1, sizeof *rest);
  if (!rest)
    return FL_EXIT_USAGE;
  for (int i = 0, k = 0; i < argc; i++)
    if (i != help)
      rest[k++] = argv[i];
  fl_cli_opts o; /* the same parser decides what is an argument */
  int rc = fl_cli_parse(argc - 1, rest, &o);
  size_t n = o.n_inputs;
  fl_cli_opts_free(&o);
  if (rc == 0 && n)
    rc = fl_cli_explain(argc - 1, rest);
  else if (rc == 0)
    fl_cli_usage_cmd(stdout, fl_cli_find_cmd("rules"));
  free(rest);
  return rc < 0 ? 0 : rc;
}

/* `rules`, or `rules --help RULE...` (explain). */
static int rules_cmd(int argc, char **argv) {
  int rc = rules_help(argc, argv);
  return rc >= 0 ? rc : fl_cli_rules(argc, argv);
}

/* ---- main
 * -------------------------------------------------------------------------- */

/* The function of each command of the table (cli_table.c). */
static const struct {
  uint32_t bit;
  int (*run)(int argc, char **argv);
} COMMANDS[] = {
    {FL_CMD_CHECK, fl_cli_check},     {FL_CMD_INFO, fl_cli_info},
    {FL_CMD_RULES, rules_cmd},        {FL_CMD_EXPLAIN, fl_cli_explain},
    {FL_CMD_GEN, fl_cli_gen},         {FL_CMD_DIFF, fl_cli_diff},
    {FL_CMD_PERF, fl_cli_perf},       {FL_CMD_HELP, fl_cli_help},
    {FL_CMD_CONVERT, fl_cli_convert}, {FL_CMD_COMPARE, fl_cli_compare},
    {FL_CMD_BOM, fl_cli_bom},         {FL_CMD_SWEEP, fl_cli_sweep},
};

static int dispatch(int argc, char **argv, const fl_dist *dist) {
  const char *name = argv[1];
  const fl_cli_cmd *cmd = fl_cli_find_cmd(name);
  if (cmd && cmd->bit == FL_CMD_CHECK && dist)
    return fl_cli_check_dist(argc - 1, argv + 1, dist);
  if (cmd && cmd->bit == FL_CMD_PERF && dist)
    return fl_cli_perf_dist(argc - 1, argv + 1, dist);
  for (size_t i = 0; cmd && i < sizeof COMMANDS / sizeof *COMMANDS; i++)
    if (COMMANDS[i].bit == cmd->bit)
      return COMMANDS[i].run(argc - 1, argv + 1);
  if (strcmp(name, "--version") == 0) {
    printf("fabriclint %s\n", FL_VERSION);
    return 0;
  }
  if (strcmp(name, "--help") == 0 || strcmp(name, "-h") == 0) {
    fl_cli_usage(stdout);
    return 0;
  }
  return fl_cli_usage_error("unknown command '%s' (fabriclint help --list "
                            "commands)",
                            name);
}

/* Under an MPI launcher: join the job through the MPI module; ranks other
 * than 0 write nothing (docs/mpi.md). Returns 1 when MPI started, 0 when
 * not, -1 on failure (said on standard error). */
static int start_mpi(int *argc, char ***argv, fl_dist *dist, fl_cli_mpi *m) {
  char msg[PATH_MAX + 256];
  int mpi = fl_cli_mpi_start(m, argc, argv, dist, msg, sizeof msg);
  if (mpi < 0)
    fprintf(stderr, "fabriclint: %s\n", msg);
  if (mpi > 0 && dist->rank != 0 &&
      (!freopen("/dev/null", "w", stdout) ||
       !freopen("/dev/null", "w", stderr)))
    mpi = -1;
  return mpi;
}

static int stop_mpi(fl_cli_mpi *m, int rc) {
  fl_cli_mpi_stop(m);
  return rc;
}

int main(int argc, char **argv) {
  fl_dist dist;
  fl_cli_mpi m;
  int mpi = start_mpi(&argc, &argv, &dist, &m);
  if (mpi < 0)
    return FL_EXIT_USAGE;
  fl_cli_signals_install(); /* after MPI_Init: ours win for these three */
  if (argc < 2) {
    fl_cli_usage(stderr);
    return stop_mpi(&m, FL_EXIT_USAGE);
  }
  int rc = dispatch(argc, argv, mpi > 0 && dist.size > 1 ? &dist : NULL);
  /* a report that could not be written (disk full, closed pipe) must not
   * look like a clean run */
  if (fflush(stdout) != 0 || ferror(stdout)) {
    fprintf(stderr, "fabriclint: error writing to standard output: %s\n",
            strerror(errno));
    return stop_mpi(&m, FL_EXIT_USAGE);
  }
  return stop_mpi(&m, rc);
}
