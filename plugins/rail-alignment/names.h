/* SPDX-License-Identifier: MIT */
/*
 * plugins/rail-alignment/names.h — sets of names for the rail-alignment
 * plugin (internal): host names and rail labels collected in linear time,
 * then sorted in natural order ("dgx-2" < "dgx-10") and looked up in O(1).
 *
 * A set is an array of owned strings (char **, count, capacity) as the
 * analysis keeps it, plus an rn_set: an open-addressing hash index (FNV-1a,
 * at most half full, linear probing) from the exact name (strcmp) to its
 * array index. Before issue 14 the plugin found duplicates by scanning the
 * whole array for every NIC (O(NICs x hosts): 8.4 s for 65,536 single-NIC
 * hosts) and looked names up by binary search with natural comparison;
 * these functions give the same answers in O(1) per name on average.
 */
#ifndef FABRICLINT_PLUGINS_RAIL_NAMES_H
#define FABRICLINT_PLUGINS_RAIL_NAMES_H

#include <stdint.h>

#include "util/natcmp.h" /* fl_natcmp(), fl_natcmp_ptr(): the order of sets */

/** Hash index over an array of strings: slots hold index + 1 (0 empty). */
typedef struct rn_set {
  uint32_t *slot;
  uint32_t mask; /* table size - 1 (a power of two); 0 when unallocated */
} rn_set;

/** Free @h's table; @h is then empty (and may be reused). */
void rn_set_free(rn_set *h);

/**
 * rn_set_find() — the slot of name @s in @h, which indexes strings @v:
 * *slot is @s's index in @v + 1, or 0 when @s is absent (the slot where it
 * would go). @h must have been built (rn_set_index(), rn_add_unique()).
 */
uint32_t *rn_set_find(const rn_set *h, char *const *v, const char *s);

/**
 * rn_add_unique() — add a copy of @s to the set @v (*@n names, capacity
 * *@cap; grown with realloc) unless an equal name (strcmp) is there; @h
 * indexes @v and is kept up to date. Names stay in first-occurrence order.
 * 0, or -1 out of memory (@v then still valid and owned by the caller).
 */
int rn_add_unique(char ***v, uint32_t *n, uint32_t *cap, rn_set *h,
                  const char *s);

/**
 * rn_sorted_index() — after @v[@n] was sorted with fl_natcmp_ptr(): (re)build
 * @h over it and set *@natdup to 1 when two of its names are equal
 * naturally but not exactly ("a01", "a1"). 0, or -1 out of memory.
 */
int rn_sorted_index(char **v, uint32_t n, rn_set *h, uint8_t *natdup);

/**
 * rn_sorted_find() — the index of @s in the naturally sorted set @v[@n]
 * indexed by rn_sorted_index(): exactly the element a binary search by
 * fl_natcmp() finds (a natural-equal name when @s itself is absent), or
 * -1. O(1) on average when @natdup is 0 and @s is present; a binary search
 * otherwise, so the answer never depends on the hash.
 */
int32_t rn_sorted_find(char **v, uint32_t n, const rn_set *h, uint8_t natdup,
                       const char *s);

#endif
