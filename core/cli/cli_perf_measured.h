/* SPDX-License-Identifier: MIT */
/*
 * core/cli/cli_perf_measured.h — `fabriclint perf --measured [OP:]LOG`:
 * an nccl-tests log compared, size by size, with the NCCL prediction on
 * the loaded fabric, and with --calibrate NCCL's latency and efficiency
 * fitted to it (cli_perf_measured.c; docs/perf.md "Measured").
 */
#ifndef FABRICLINT_CORE_CLI_PERF_MEASURED_H
#define FABRICLINT_CORE_CLI_PERF_MEASURED_H

#include "cli/cli_common.h"
#include "fabriclint/fabric.h"

/**
 * fl_cli_perf_measured() — read the log of @arg ([OP:]LOG), place its
 * ranks on fabric @fab (its hosts when the fabric has them all, else the
 * fabric's first hosts in name order), model the collective once with
 * @routing (FL_WL_ROUTE_*) and print the comparison (and, @calibrate, the
 * fit) to @o's output as text or JSON. Returns 0, or FL_EXIT_USAGE (a
 * bad log, an OP it cannot tell, a fit refused) with the message printed,
 * or FL_EXIT_FINDINGS when the job's flows cannot be routed.
 */
int fl_cli_perf_measured(const fl_cli_opts *o, const char *arg, int calibrate,
                         uint32_t routing, fl_fabric *fab);

/** fl_cli_perf_measured_log() — the log's path within @arg ([OP:]LOG):
 * @arg past a known OP prefix (the file the command reads). */
const char *fl_cli_perf_measured_log(const char *arg);

#endif
