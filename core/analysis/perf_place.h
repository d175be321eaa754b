/* SPDX-License-Identifier: MIT */
/*
 * core/analysis/perf_place.h — the collective model over many placements
 * (workload key `placements:`, docs/perf.md "Placements"): the job's n
 * hosts are placed `count` times on hosts drawn at random from a pool,
 * placement i from (seed, i) alone, and every collective is modelled on
 * every placement (fl_perf_run); the result is, per collective, the
 * distribution over placements (min / median / max step time, busbw and
 * ratio), the worst placement with its bottleneck links, and the placement
 * judged against min-share (a percentile of the ratio, the worst by
 * default).
 *
 * A distributed run (fabriclint/dist.h, docs/mpi.md) splits the placements
 * over the processes: placement i on rank i mod N; the per-placement
 * numbers and each rank's worst result per collective are gathered with
 * fl_dist.allgather, so every process holds the whole result and it does
 * not depend on N. Internal to the library; `fabriclint perf` is the
 * caller.
 */
#ifndef FABRICLINT_CORE_ANALYSIS_PERF_PLACE_H
#define FABRICLINT_CORE_ANALYSIS_PERF_PLACE_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/perf.h"
#include "fabriclint/dist.h"
#include "fabriclint/error.h"
#include "io/workload.h"

/**
 * fl_perf_draw() — placement @i of @seed: @n distinct host indexes into a
 * pool of @pool hosts, in *@out[@n], uniformly at random (a partial
 * Fisher–Yates shuffle driven by SplitMix64 seeded with mix(seed ^
 * mix(i)), bounded draws by Lemire's unbiased multiply-and-reject).
 * @order FL_WL_ORDER_POOL sorts them (ranks follow the pool's order),
 * FL_WL_ORDER_RANDOM keeps the draw order. Depends on (@seed, @i, @pool,
 * @n, @order) alone: the same on every process and machine. @scratch
 * holds @pool entries (overwritten). Requires 1 <= @n <= @pool. Cost
 * O(pool + n log n).
 */
void fl_perf_draw(uint64_t seed, uint64_t i, uint32_t pool, uint32_t n,
                  uint32_t order, uint32_t *scratch, uint32_t *out);

/**
 * fl_perf_job_place() — a job of the @n hosts @hosts[] (indexes into
 * @pool's hosts, in rank order) of pool job @pool: the same fabric, routing
 * and switch tables (borrowed from @pool, which must outlive it), the NICs
 * of the chosen hosts. Free with fl_perf_job_free(). FL_OK, FL_EINVAL
 * (@err: an index out of range) or FL_ENOMEM.
 */
int fl_perf_job_place(const fl_perf_job *pool, const uint32_t *hosts,
                      uint32_t n, fl_perf_job **out, fl_error *err);

/**
 * fl_perf_job_host_name() — the name of host @h of @job as a workload
 * names it (its system name, or its CA's name when the CA has none);
 * borrowed from the fabric. NULL when @h is out of range.
 */
const char *fl_perf_job_host_name(const fl_perf_job *job, uint32_t h);

/**
 * fl_perf_sample — one placement of one collective: its @index, and
 * (@error 0) the step time, whole time (s), busbw (GB/s, 10^9 bytes/s) and
 * ratio to the ideal of fl_perf_run; @error 1: its flows could not be routed.
 */
typedef struct fl_perf_sample {
  uint64_t index;
  double step_time_s, time_s, busbw_GBps, ratio;
  uint32_t error;
} fl_perf_sample;

/** fl_perf_dist3 — minimum, median (the mean of the two middle values for
 * an even count) and maximum. */
typedef struct fl_perf_dist3 {
  double min, median, max;
} fl_perf_dist3;

/**
 * fl_perf_place_coll — one collective over the placements.
 * @samples[@n] by placement index (ascending). @n_error placements could
 * not be routed. @ok: placements that could (the distributions are over
 * them; all zero when @ok is 0). @worst: position in @samples of the worst
 * placement (an unroutable one first, else the lowest ratio; ties: the
 * lowest index), @worst_res its full result (bottlenecks, error text).
 * @judged: position of the placement judged against min-share (the
 * @percentile-th of the samples ordered worst first, nearest rank: position
 * ceil(p/100 × n) − 1, at least 0); @judged_res its full result when
 * @judged_full (always when judged == worst; else only when asked for).
 */
typedef struct fl_perf_place_coll {
  uint32_t n, n_error, ok;
  fl_perf_sample *samples;
  fl_perf_dist3 step_time_s, busbw_GBps, ratio;
  uint32_t worst, judged;
  int judged_full;
  fl_perf_result worst_res, judged_res;
} fl_perf_place_coll;

/**
 * fl_perf_places — the placements of a workload. @pool hosts to draw
 * from, @hosts per placement, @first and @n: the placement indexes
 * evaluated (first .. first + n − 1: 0 .. count − 1, or the one `index:`),
 * @seed, @order; @coll[@n_coll] one per collective of the workload.
 */
typedef struct fl_perf_places {
  uint32_t pool, hosts, n, n_coll, order;
  uint64_t first, seed;
  fl_perf_place_coll *coll;
} fl_perf_places;

/**
 * fl_perf_places_run() — model every collective of @w on every placement
 * of @w->place (on) over @pool (the job of the pool's hosts, from
 * fl_perf_job_new with the pool's names). @dist: a distributed run
 * (placement i on rank i mod size; a collective call on every process,
 * also when this one fails), or NULL alone. @judged_detail: also compute
 * the judged placement's full result when it is not the worst (one more
 * model run per collective; the process that writes the report asks).
 * Fills @out (free with fl_perf_places_free). Returns FL_OK; FL_EPARSE
 * with @err at `hosts:` when the job has more hosts than the pool;
 * FL_EINVAL (@err, from fl_perf_run: a collective that cannot run on n
 * ranks) or FL_ENOMEM, the same on every process of a run (the error of
 * the lowest failing rank is reported by all).
 */
int fl_perf_places_run(const fl_perf_job *pool, const fl_workload *w,
                       const fl_dist *dist, int judged_detail,
                       fl_perf_places *out, fl_error *err);

/** fl_perf_places_free() — release what @p owns; zeroes it. */
void fl_perf_places_free(fl_perf_places *p);

#endif
