/* SPDX-License-Identifier: MIT */
/*
 * core/model/counters.h — the loaders' side of port counters (internal; the
 * read side is include/fabriclint/counters.h).
 *
 * A counter loader reads one input into a batch: fl_ctr_begin(), one
 * fl_ctr_add() per port record, fl_ctr_end() with the input's capture time
 * (if its format has one) and whether it lists every port it read or only
 * those beyond the tool's thresholds. The batch becomes part of a snapshot:
 * inputs with the same capture time (or none) share one, a second time
 * opens the second, a third is refused (fl_ctr_end() says so). Records are
 * attached to ports at fl_fabric_finalize() (fl_counters_finalize()), when
 * LIDs, names and the alias layer are settled; two records of one port in
 * one snapshot are merged (equal values for a counter both give, else a
 * parse error naming both lines).
 */
#ifndef FABRICLINT_CORE_MODEL_COUNTERS_H
#define FABRICLINT_CORE_MODEL_COUNTERS_H

#include <stdint.h>

#include "fabriclint/counters.h"
#include "fabriclint/error.h"
#include "model/build.h"

/** How a record names its port; several may be set, tried in this order. */
typedef struct fl_ctr_key {
  uint64_t guid;    /**< port GUID or node GUID (0: none) */
  uint32_t lid;     /**< a LID of the node (0: none) */
  const char *name; /**< node name (NULL: none); copied */
  size_t name_len;
  uint32_t port; /**< port number */
} fl_ctr_key;

/** One batch (one input file) being loaded. Opaque. */
typedef struct fl_ctr_batch fl_ctr_batch;

/** fl_ctr_begin() — start loading counter input @path into @fab; NULL on
 * ENOMEM. */
fl_ctr_batch *fl_ctr_begin(fl_fabric *fab, const char *path);

/**
 * fl_ctr_add() — one port record: counters whose bit is set in @mask, with
 * values @vals[counter id] (the other entries are ignored), for the port
 * named by @key, read at @prov. FL_OK or FL_ENOMEM.
 */
int fl_ctr_add(fl_ctr_batch *b, const fl_ctr_key *key, uint64_t mask,
               const uint64_t vals[FL_CTR_COUNT], fl_prov prov);

/** Records added to batch @b so far. */
uint32_t fl_ctr_batch_records(const fl_ctr_batch *b);

/**
 * fl_ctr_end() — close batch @b (freed in every case). @timed: whether the
 * input has a capture time, @time (seconds since the Unix epoch, UTC).
 * @sparse: 1 when the input lists only ports beyond the tool's thresholds.
 * Returns FL_OK; FL_EPARSE with @err naming the input when its capture time
 * is a third one, or when timed and untimed inputs are mixed (which of the
 * two snapshots an untimed input belongs to cannot be told); FL_ENOMEM.
 * On error the batch's records are dropped.
 */
int fl_ctr_end(fl_ctr_batch *b, int timed, double time, int sparse,
               fl_error *err);

/** fl_ctr_abort() — drop batch @b and its records (a loader that failed). */
void fl_ctr_abort(fl_ctr_batch *b);

/**
 * fl_ctr_parse_time() — a capture time in [@s, @e): ISO 8601
 * `YYYY-MM-DD[T ]hh:mm:ss[.frac]` followed by `Z`, `UTC`, `+hh:mm`,
 * `+hhmm` (optionally after `UTC `, as ibdiagnet writes `UTC +0000`) or
 * nothing (UTC); or `@<seconds since the epoch>`. Trailing blanks are
 * allowed. Returns 0 and *@t, or -1. Pure.
 */
int fl_ctr_parse_time(const char *s, const char *e, double *t);

/**
 * fl_counters_finalize() — attach every record to its port (called by
 * fl_fabric_finalize() after names, LIDs and the routing state are final).
 * FL_OK, FL_EPARSE (two values for one counter of one port in one
 * snapshot: @err names both places), FL_ENOMEM.
 */
int fl_counters_finalize(fl_fabric *fab, fl_error *err);

/**
 * fl_counters_copy_plane() — give @dst (a plane subset being built,
 * fl_fabric_plane_subset()) the counter records that finalized @src
 * attached to the ports of plane @plane, per snapshot, with their values,
 * capture times and provenance; @node_map sends an @src node to its @dst
 * node (FL_NONE: left out). Each record names its @dst node directly, so
 * fl_counters_finalize() of @dst attaches it to the same port whatever key
 * (a LID of another plane, a name) the input used. Unmapped records go to
 * their input's --plane, else the plane of the node they named, else the
 * first plane, and stay unmapped. Nothing to do when @src has no counters.
 * FL_OK or FL_ENOMEM. O(ports x snapshots + records copied).
 */
int fl_counters_copy_plane(fl_fabric *dst, const fl_fabric *src, uint32_t plane,
                           const fl_id *node_map);

/** fl_counters_free() — free the counter state of @fab. */
void fl_counters_free(fl_fabric *fab);

#endif
