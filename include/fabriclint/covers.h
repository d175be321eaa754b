/* SPDX-License-Identifier: MIT */
/*
 * fabriclint/covers.h — cover classes of a layered switch graph: the test
 * that a fabric is "nested", shared by the routing-deadlock model of the
 * core (core/analysis/updown.c) and the switch view plugins read
 * (fabriclint/view.h).
 *
 * The cover of a switch is the set of lowest-tier switches (leaves) it
 * reaches going down only. The graph is nested when every switch has a
 * known tier (at most 64 tiers), every switch-to-switch cable joins
 * adjacent tiers and is seen from both ends (none joins a switch to
 * itself), every switch but the top ones has one above it and every switch
 * but the lowest ones one below it, the switches above any one switch all
 * have one cover, switches with one cover have the same covers below them,
 * and the top tier is one cover (every leaf). Switches with one cover form
 * a class; the classes form a tree (a class's parent is the cover of the
 * switches above its members). On such a graph a shortest path from a
 * switch s to a leaf t climbs to the lowest tier at which s's ancestors
 * cover t and descends; the argument is in core/analysis/updown.h.
 *
 * Declarations only: the functions are the core's (core/analysis/covers.c),
 * exported from libfabriclint and handed to plugins as
 * fl_host_api.cover_classes / covers_free (ABI 1.6; a plugin links nothing
 * of fabriclint). Compiles as C99 and C++11. No global state.
 */
#ifndef FABRICLINT_COVERS_H
#define FABRICLINT_COVERS_H

#include <stdint.h>

#include "fabriclint/common.h"
#include "fabriclint/types.h"

#ifdef __cplusplus
extern "C" {
#endif

/** fl_covers.cup value: no class above (the top class). */
#define FL_COVER_NONE 0xffffffffu

/**
 * fl_cover_graph — the switch graph fl_cover_classes() judges.
 * @n: switches, indexed 0..n-1.
 * @tier: [n] tier per switch (FL_TIER_UNKNOWN: the graph is not nested).
 * @lo/@hi: [n] switch s's channels are slots lo[s]..hi[s]-1 of @peer.
 * @peer: per slot, the switch at the other end of its cable, or negative
 *   (a CA, a router, no cable: skipped).
 * @mirrored: called as mirrored(@ctx, s, slot) for each switch-facing
 *   slot; returns 1 when the far end sees the same cable back to s at the
 *   same port (a port cabled twice is seen by one end only), else 0.
 */
typedef struct fl_cover_graph {
  uint32_t n;
  const uint32_t *tier;
  const uint32_t *lo, *hi;
  const int32_t *peer;
  int (*mirrored)(const void *ctx, uint32_t s, uint32_t slot);
  const void *ctx;
} fl_cover_graph;

/**
 * fl_covers — the cover classes of a nested graph (fl_cover_classes()).
 * @nc: classes, 0..nc-1.
 * @t0 / @levels: the lowest tier and the number of tiers; a switch's level
 *   is its tier minus @t0.
 * @cls: [n] class of each switch.
 * @cup: [n, nc used] class of the switches above a class's members,
 *   FL_COVER_NONE for the top class.
 * @clev: [n, nc used] level of each class.
 * Owned by the caller once filled: free with fl_covers_free(), or take the
 * arrays (each from malloc()).
 */
typedef struct fl_covers {
  uint32_t nc, t0, levels;
  uint32_t *cls, *cup, *clev;
} fl_covers;

/** fl_covers_free() — free @c's arrays and zero it. Safe on a zeroed one. */
FL_EXTERN(void) fl_covers_free(fl_covers *c);

/**
 * fl_cover_classes() — the cover classes of @g when it is nested (see the
 * file comment). @c is overwritten. Returns 1 with @c filled (the caller
 * frees it with fl_covers_free()), 0 when @g is not nested, -1 when out of
 * memory (@c zeroed either way). Time O(slots x log(ports per switch)),
 * memory O(n + ports per switch).
 */
FL_EXTERN(int) fl_cover_classes(const fl_cover_graph *g, fl_covers *c);

#ifdef __cplusplus
}
#endif
#endif
