/* SPDX-License-Identifier: MIT */
/*
 * core/cli/cli_perf_step.h — `fabriclint perf --job JOB.yaml`: one training
 * step (core/analysis/perf_step.c) reported as text or JSON.
 */
#ifndef FABRICLINT_CORE_CLI_PERF_STEP_H
#define FABRICLINT_CORE_CLI_PERF_STEP_H

#include "cli/cli_common.h"
#include "fabriclint/fabric.h"
#include "io/workload.h"

/**
 * fl_cli_perf_step() — model the step of workload @w (w->train.on) on
 * @fab and write the report to @o's output. @overlap 0: --no-overlap.
 * Returns 0; 1 (FL_EXIT_FINDINGS) when a phase alone reaches less than
 * min-share of its ideal or the flows cannot be routed; 2 on an input
 * error (printed).
 */
int fl_cli_perf_step(const fl_cli_opts *o, const fl_workload *w, fl_fabric *fab,
                     int overlap);

#endif
