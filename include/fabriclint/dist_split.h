/* SPDX-License-Identifier: MIT */
/*
 * fabriclint/dist_split.h — split a rule's independent items (what-ifs,
 * traffic patterns) over the processes of a distributed run and report
 * their findings in item order, as one process would.
 *
 * Declarations and inline wrappers only (issue 29): recording, gathering
 * and replaying run in the host (core/host/split_record.c,
 * split_replay.c), reached through fl_host_api.split_emit / split_finish
 * (ABI 1.6) over fl_host_api.dist (ABI 1.3). On an older host a split
 * works alone: every process takes every item and reports at once.
 *
 * Use (every process runs the same rule on the same fabric):
 *
 *   fl_split sp;
 *   fl_split_init(&sp, api, ctx);
 *   for (item = 0; !rc && item < n; item++)
 *     if (fl_split_mine(&sp, item))
 *       rc = ...work, reporting with fl_split_emit(&sp, api, ctx, item, &f)...;
 *   rc = fl_split_finish(&sp, api, ctx, rc);   // every process, always
 *
 * Process r of N takes the items with item mod N = r. Alone (no
 * distributed run: fl_host_api.dist absent or NULL) every item is its own
 * and fl_split_emit() reports at once, exactly fl_emit_cause(). In a
 * distributed run (also with one process) fl_split_emit() records a copy
 * of the finding; fl_split_finish() gathers every process's records with
 * the allgather collective and reports them, on every process, merged by
 * item (ascending; the records of one item in the order they were
 * emitted), which is the order of a single process that takes the items
 * in ascending order. A process must emit its items in ascending order.
 *
 * Failure: a process whose work failed (it called api->fail()) passes
 * non-zero to fl_split_finish(), which still takes part in the collective
 * (the others would wait for it forever otherwise); then no process
 * reports the findings, and the processes that did not fail call
 * api->fail() ("... failed on another process"). Every process returns 1.
 *
 * Source of the contract: fabriclint/dist.h (fl_dist.allgather: MPI 3.1
 * MPI_Allgatherv, rank order); docs/mpi.md.
 */
#ifndef FABRICLINT_DIST_SPLIT_H
#define FABRICLINT_DIST_SPLIT_H

#include <stdint.h>
#include <string.h>

#include "fabriclint/dist.h"
#include "fabriclint/plugin.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * fl_split — one rule's split over the processes of a run (see the file
 * comment). Fill with fl_split_init(); the members are read-only to the
 * rule (ABI 1.6: the host writes it, within @struct_size).
 * @dist: the run (borrowed), or NULL when the process runs alone.
 * @rank/@size: this process and the number of processes (0 and 1 alone).
 * @buf/@len/@cap: this process's recorded findings (owned; freed by
 *   fl_split_finish()).
 * @oom: 1 when a record could not be stored (reported by finish).
 */
typedef struct fl_split {
  uint32_t struct_size; /* sizeof(fl_split), set by fl_split_init() */
  uint32_t reserved0;
  const fl_dist *dist;
  uint32_t rank, size;
  unsigned char *buf;
  size_t len, cap;
  int oom;
} fl_split;

/**
 * fl_split_init() — take the run of @ctx from @api (fl_host_api.dist when
 * the host has it, ABI 1.6, and returns a table with allgather), else work
 * alone.
 * Never fails; allocates nothing.
 */
static inline void fl_split_init(fl_split *s, const fl_host_api *api,
                                 fl_ctx *ctx) {
  memset(s, 0, sizeof *s);
  s->struct_size = (uint32_t)sizeof *s;
  s->size = 1;
  /* the host records and replays (ABI 1.6); an older one: alone */
  const fl_dist *d =
      FL_API_HAS(api, split_finish) && api->dist ? api->dist(ctx) : 0;
  if (d && d->size >= 1 && d->rank < d->size && d->allgather) {
    s->dist = d;
    s->rank = d->rank;
    s->size = d->size;
  }
}

/** fl_split_mine() — 1 when item @item (0-based) is this process's share:
 * @item mod size = rank. */
static inline int fl_split_mine(const fl_split *s, uint64_t item) {
  return item % s->size == s->rank;
}

/**
 * fl_split_emit() — report finding @f of item @item. Alone: through
 * api->report() at once. In a run: a copy is recorded for
 * fl_split_finish() (the finding's strings and arrays are copied; @f is
 * borrowed). A fix (fl_finding.fix) is not carried: a finding with one is
 * refused in a run. Returns 0, or 1 after api->fail() (report refused,
 * out of memory, a fix in a run).
 */
static inline int fl_split_emit(fl_split *s, const fl_host_api *api,
                                fl_ctx *ctx, uint64_t item,
                                const fl_finding *f) {
  if (FL_API_HAS(api, split_emit))
    return (api->split_emit)(s, api, ctx, item, f);
  if ((api->report)(ctx, f) == 0) /* a host older than 1.6: alone */
    return 0;
  (api->fail)(ctx, "could not record a finding (out of memory or bad data)");
  return 1;
}

/**
 * fl_split_finish() — end the split: alone, returns @failed ? 1 : 0. In a
 * run, a collective (every process calls it once per fl_split_init(),
 * also when its work failed): gathers every process's records (@failed:
 * this process's work failed and called api->fail()) and reports them in
 * item order on every process. Frees the records. Returns 0, or 1 after
 * api->fail() on this process (here, or before when @failed).
 */
static inline int fl_split_finish(fl_split *s, const fl_host_api *api,
                                  fl_ctx *ctx, int failed) {
  if (FL_API_HAS(api, split_finish))
    return (api->split_finish)(s, api, ctx, failed);
  return failed ? 1 : 0; /* a host older than 1.6: alone, nothing kept */
}

#ifdef __cplusplus
}
#endif
#endif /* FABRICLINT_DIST_SPLIT_H */
