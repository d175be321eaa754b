/* SPDX-License-Identifier: MIT */
/* core/util/unionfind.h — union-find (disjoint sets) over dense uint32_t
 * ids in a caller's array: the one implementation behind chassis grouping,
 * tier and SU inference, LID subnets and back-to-back host components. The
 * root of a set is always its smallest id, so roots are reproducible and
 * callers may use them as the set's name. */
#ifndef FL_UTIL_UNIONFIND_H
#define FL_UTIL_UNIONFIND_H

#include <stddef.h>
#include <stdint.h>

/* Makes @up[0..@n) @n singleton sets (up[i] = i). @up is the caller's
 * array of at least @n entries; nothing is allocated. */
void fl_uf_init(uint32_t *up, size_t n);

/* The root (smallest id) of @x's set; halves the path it walks. @x must be
 * below the @n given to fl_uf_init(). */
uint32_t fl_uf_find(uint32_t *up, uint32_t x);

/* Joins the sets of @a and @b: the larger root points to the smaller.
 * Returns the root of the joined set. */
uint32_t fl_uf_join(uint32_t *up, uint32_t a, uint32_t b);

#endif
