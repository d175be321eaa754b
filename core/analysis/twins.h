/* SPDX-License-Identifier: MIT */
/*
 * core/analysis/twins.h — twin destination switches of the design-mode
 * routing models (internal to the core; used by cdg_design.c).
 *
 * Two switches a and b are twins when they have the same multiset of
 * neighbour switches, the same rank, neither is cabled to itself and
 * (when @same_rank_ok is 0) no neighbour has their rank. Exchanging a and b
 * (and their cables to each neighbour, one for one) is then an automorphism
 * σ of the switch graph that fixes every other switch, keeps ranks and so
 * the up/down direction of every channel, so any routing model computed
 * from distances and directions gives for root b exactly what it gives for
 * root a with σ applied: dist_b(s) = dist_a(σ(s)). Leaves of one pod of a
 * fat tree are twins (same aggregation switches): a radix-k 3-tier tree
 * has k classes of k/2 leaves, so one full walk per class instead of per
 * leaf.
 *
 * Time O(sum of degrees x log(degree)) for the sort; memory one uint32 per
 * switch and per switch port. No global state.
 */
#ifndef FABRICLINT_CORE_TWINS_H
#define FABRICLINT_CORE_TWINS_H

#include <stddef.h>
#include <stdint.h>

/** fl_twins.store value: the class is not stored (walk it in full). */
#define FL_TWIN_NONE UINT32_MAX

/**
 * fl_twins — the twin classes of the candidate switches.
 * @rep: [n] the smallest member of s's class (s itself when s has no twin
 *   or was no candidate).
 * @store: [n] per representative of a class of two or more members, its
 *   storage index 0..n_store-1 (classes in order of their representative),
 *   FL_TWIN_NONE otherwise and past @max_store classes.
 * @n_store: classes with a storage index.
 */
typedef struct fl_twins {
  uint32_t *rep;
  uint32_t *store;
  uint32_t n_store;
} fl_twins;

/**
 * fl_twins_find() — group the switches s with @cand[s] != 0 into twin
 * classes. Switch s's channels are the slots lo[s]..hi[s]-1 of @peer
 * (neighbour switch index, negative: no switch); @rank[s] is its rank.
 * At most @max_store classes get storage. @t is overwritten; free with
 * fl_twins_free(). Returns 0, or -1 when out of memory (@t freed).
 */
int fl_twins_find(fl_twins *t, uint32_t n, const uint32_t *lo,
                  const uint32_t *hi, const int32_t *peer, const uint32_t *rank,
                  const uint8_t *cand, int same_rank_ok, uint32_t max_store);

/** fl_twins_free() — free what fl_twins_find() allocated; zeroes @t. */
void fl_twins_free(fl_twins *t);

#endif
