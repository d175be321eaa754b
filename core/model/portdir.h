/* SPDX-License-Identifier: MIT */
/*
 * core/model/portdir.h — the builder's port directory: (node, port number)
 * -> port id while a fabric is being built (internal).
 *
 * Why not one hash keyed by (node, number): loaders look up a node's ports
 * together (a switch block, the two ends of each cable), and a hash spreads
 * them over the memory, one cache miss per lookup; on a 65,536-host
 * capture that was the top of the load profile (issue 33). Here each node
 * has a small table indexed by port number in one shared pool, sized from
 * the node's declared port count and doubled when a higher number comes.
 * Numbers of FL_PORTDIR_DIRECT and above (Ethernet interface indexes, odd
 * plans) go to a hash.
 */
#ifndef FABRICLINT_CORE_MODEL_PORTDIR_H
#define FABRICLINT_CORE_MODEL_PORTDIR_H

#include <stddef.h>
#include <stdint.h>

#include "model/hashmap.h"

/** Port numbers below this are in the per-node tables. */
#define FL_PORTDIR_DIRECT 256u

/** The directory. Zero-initialise; free with fl_portdir_free(). */
typedef struct fl_portdir {
  uint32_t *off;   /* per node: its table's first entry in @pool */
  uint16_t *width; /* per node: its table's entries (0: none yet) */
  size_t n_nodes;  /* nodes with an entry in @off / @width */
  uint32_t *pool;  /* the tables; FL_MAP_ABSENT marks a free entry */
  size_t n_pool, cap_pool;
  fl_u64map big; /* (node << 32 | number) for numbers >= FL_PORTDIR_DIRECT */
} fl_portdir;

/** fl_portdir_get() — the id stored for (@node, @num), or FL_MAP_ABSENT. */
uint32_t fl_portdir_get(const fl_portdir *d, uint32_t node, uint32_t num);

/**
 * fl_portdir_put() — the id stored for (@node, @num) when there is one,
 * else store @val and return it; FL_MAP_ABSENT when out of memory. @hint:
 * the node's declared port count (its first table holds numbers 0..@hint),
 * 0 when unknown.
 */
uint32_t fl_portdir_put(fl_portdir *d, uint32_t node, uint32_t num,
                        uint32_t val, uint32_t hint);

/** fl_portdir_free() — release everything; @d is zeroed. */
void fl_portdir_free(fl_portdir *d);

#endif
