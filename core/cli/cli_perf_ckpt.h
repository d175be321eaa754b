/* SPDX-License-Identifier: MIT */
/*
 * core/cli/cli_perf_ckpt.h — a training job's checkpoint (the step model's
 * fl_step_ckpt, core/analysis/perf_step.c) in `fabriclint perf --job`'s
 * report, as text lines and as the JSON object `checkpoint`.
 */
#ifndef FABRICLINT_CORE_CLI_PERF_CKPT_H
#define FABRICLINT_CORE_CLI_PERF_CKPT_H

#include <stdio.h>

#include <jansson.h>

#include "analysis/perf_step.h"

/** fl_cli_perf_text_ckpt() — the "  checkpoint: ..." lines of @r on @o
 * (what it writes, its time alone, at its ideal and during the step's
 * traffic, the step time then and the phases it slows, the links holding
 * it alone); nothing without a checkpoint. */
void fl_cli_perf_text_ckpt(FILE *o, const fl_fabric *f,
                           const fl_step_result *r);

/** fl_cli_perf_json_ckpt() — key `checkpoint` of @r set in @root
 * (borrowed): bytes, flow_bytes, flows, writers, storage_hosts,
 * storage_nics, alone_s, ideal_s, during_s, rate_alone_gbps,
 * rate_during_gbps, step_time_during_s, phases_during_s {phase: s} of the
 * fabric phases, bottlenecks[]; nothing without a checkpoint. */
void fl_cli_perf_json_ckpt(json_t *root, const fl_fabric *f,
                           const fl_step_result *r);

#endif
