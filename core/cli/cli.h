/* SPDX-License-Identifier: MIT */
/*
 * core/cli/cli.h — subcommands of the fabriclint executable (internal).
 * Each takes the subcommand's arguments (argv[0] is the subcommand name)
 * and returns the process exit code (DESIGN.md §2: 0, 1, 2 or 3).
 */
#ifndef FABRICLINT_CORE_CLI_H
#define FABRICLINT_CORE_CLI_H

#include <stdint.h>

#include "fabriclint/dist.h"

int fl_cli_check(int argc, char **argv);
/* `check` as one rank of a distributed run (@dist, NULL: alone): the rules
 * get it through fl_host_api.dist; rank 0 alone writes the report. */
int fl_cli_check_dist(int argc, char **argv, const fl_dist *dist);
int fl_cli_info(int argc, char **argv);
/** `fabriclint rules [OPTIONS]` (and `rules --help RULE...`, which is
 * `explain`), core/cli/cli_info.c. */
int fl_cli_rules(int argc, char **argv);
/** `fabriclint explain [OPTIONS] RULE...`: a rule's full help, parameters,
 * inputs it needs and an example; core/cli/cli_explain.c. */
int fl_cli_explain(int argc, char **argv);

struct fl_rule_def;
struct json_t;
/** The JSON object of one rule as `rules --format json` lists it (id,
 * summary, severity, enabled_by_default, help, needs, params); new
 * reference. core/cli/cli_info.c. */
struct json_t *fl_cli_rule_json(const struct fl_rule_def *r);
/** "int", "double", "string", "bool" for an FL_PARAM_* type. */
const char *fl_cli_param_type_name(uint32_t t);
/** `fabriclint gen KIND [PARAMS]`, core/cli_gen.c. */
int fl_cli_gen(int argc, char **argv);
/** `fabriclint diff [OPTIONS] DESIGN AS_BUILT`, core/cli_diff.c. */
int fl_cli_diff(int argc, char **argv);
/** `fabriclint perf --workload JOB.yaml INPUT...`, core/cli/cli_perf.c. */
int fl_cli_perf(int argc, char **argv);
/** `perf` as one rank of a distributed run (@dist, NULL: alone): the
 * placements of the workload are split over the ranks (docs/mpi.md); rank
 * 0 alone writes the report. */
int fl_cli_perf_dist(int argc, char **argv, const fl_dist *dist);
/** `fabriclint help [COMMAND] [--man|--completion SHELL|--list WHAT]`,
 * core/cli/cli_help.c. */
int fl_cli_help(int argc, char **argv);
/** `fabriclint compare [OPTIONS] BASE HEAD`: what a design change does,
 * core/cli/cli_compare.c. */
int fl_cli_compare(int argc, char **argv);
/** `fabriclint convert`: write the loaded fabric in another format. */
int fl_cli_convert(int argc, char **argv);
/** `fabriclint bom`: the bill of materials of a plan (cli_bom.c). */
int fl_cli_bom(int argc, char **argv);
/** fl_cli_sweep() — `fabriclint sweep` (cli_sweep.c): designs side by side
 * over generator parameters, the Pareto front marked. */
int fl_cli_sweep(int argc, char **argv);

#endif
