/* SPDX-License-Identifier: MIT */
/*
 * core/cli/cli_perf_dump.h — `fabriclint perf --dump-flows FILE`: the job's
 * fabric, LFT next hops and flows as JSON, the input of the ns-3 harness
 * (tests/ns3/, docs/performance-model.md). Internal to the CLI.
 */
#ifndef FABRICLINT_CORE_CLI_PERF_DUMP_H
#define FABRICLINT_CORE_CLI_PERF_DUMP_H

#include "analysis/perf.h"
#include "fabriclint/fabric.h"
#include "io/workload.h"

/**
 * fl_cli_perf_dump() — write to @path (through io/outfile.h; never over a
 * file the run read: @fab's inputs or the workload) one JSON object
 * (format "fabriclint-perf-flows/1", documented in
 * docs/performance-model.md):
 *   nodes[]       {name, kind: "switch"|"nic", lid} — every switch of @fab
 *                 and the NICs of @job (index = position);
 *   nics[]        node index of job NIC i (host-major, rail-minor);
 *   links[]       {a, a_port, b, b_port, gbps} — cables between listed
 *                 nodes;
 *   routes[]      {switch, ports[]}: for every switch with an LFT, the
 *                 output port toward each job NIC (nics order; 0 = no
 *                 entry), the LFT entry of the NIC's base LID;
 *   collectives[] {op, bytes, steps, flows[] of [src, dst, bytes]} — the
 *                 flows of one step (job NIC indexes), and the model's
 *                 step_time_s / time_s from @res[i].
 * @res[n_colls] are the model's results (one per workload collective).
 * Returns 0, or FL_EXIT_USAGE with the message printed (LFT routing not
 * in use, a path the run read, an I/O error, no memory).
 */
int fl_cli_perf_dump(const char *path, const fl_fabric *fab,
                     const fl_workload *w, const fl_perf_job *job,
                     const fl_perf_result *res);

#endif
