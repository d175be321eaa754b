/* SPDX-License-Identifier: MIT */
/*
 * core/cli/cli_perf_place.h — `fabriclint perf` with `placements:` in the
 * workload (docs/perf.md "Placements"): the model over many placements of
 * the job (analysis/perf_place.h), split over the ranks of an MPI run, and
 * its text and JSON reports (cli_perf_place.c). The single-placement
 * report stays in cli_perf.c; both write bottlenecks with cli_perf_out.h.
 */
#ifndef FABRICLINT_CORE_CLI_PERF_PLACE_H
#define FABRICLINT_CORE_CLI_PERF_PLACE_H

#include "analysis/perf.h"
#include "cli/cli_common.h"
#include "fabriclint/dist.h"
#include "io/workload.h"

/**
 * fl_cli_perf_places() — run workload @w (place.on) over fabric @fab with
 * options @o: the pool's job, every placement (over the ranks of @dist, or
 * alone when NULL), and, on the process that writes (rank 0 or alone), the
 * report in text or JSON. Returns the exit status: 0, 1 (a contention
 * finding or an unroutable placement), 2 (input error, printed), the same
 * on every rank.
 */
int fl_cli_perf_places(const fl_cli_opts *o, const fl_workload *w,
                       const fl_fabric *fab, const fl_dist *dist);

#endif
