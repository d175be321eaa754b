/* SPDX-License-Identifier: MIT */
/*
 * core/analysis/updown.h — the design-mode routing models' channel
 * dependency graph counted in closed form on layered fabrics whose
 * down-closures nest (internal to the core; used by cdg.c, closed_form()).
 *
 * The class: a nested switch graph (the test is fabriclint/covers.h,
 * shared with the switch view of the plugins) whose traffic sources sit
 * only on switches of the lowest tier t0 (the roots, i.e. the leaves with
 * CAs). Nested: every switch has a tier; every switch-to-switch cable joins
 * tiers t and t+1 (none joins a switch to itself) and is seen from both
 * ends;
 * every switch above t0 has a switch below it and every switch below the
 * top tier one above it; and the switches' cover classes form a tree. The
 * cover of a switch is the set of tier-t0 switches it reaches by going
 * down only. The condition: all the switches above any one switch have the
 * same cover, all switches with one cover have the same set of covers
 * below them, and the top tier is one cover (every leaf). A fat tree, a
 * rail-optimised leaf/spine plan and a fat tree whose spines each have
 * their own group of core switches all are; a tree with a cable missing
 * between a pod's leaf and spine, a leaf-to-leaf cable, a spine with
 * sources or switch traffic (FL_CDG_TRAFFIC_ALL) are not, and keep the
 * per-destination walks of cdg_models.c.
 *
 * What holds there. A path from a switch x to a root r that peaks below
 * the lowest tier H at which x's ancestors cover r stays inside the
 * switches under one cover that lacks r (the class tree is closed under
 * moving up and down below H), so the shortest paths are exactly the
 * climbs to tier H and descents from it: minhop, updn and ftree route
 * alike, with every parent an equal-cost next hop on a climb and every
 * child covering r one on a descent. The turns at a switch t of tier > t0
 * are then, with U ports to parents, n ports to children that cover at
 * least one root (m_k of them to children of cover class k), and "out"
 * true when some root lies outside t's cover:
 *   child -> parent   U x n  when out (a source below climbs past t);
 *   child -> child    n^2 - sum m_k^2  (covers are disjoint or equal);
 *   parent -> child   U x n  when out (a source outside descends via t);
 * and none from a parent to a parent (no valley), so the graph is acyclic
 * (Schroeder et al., "Autonet", IEEE JSAC 9(8), 1991: no down-then-up
 * turn under a strict ranking). Channels are the (switch, in port) pairs
 * with at least one turn. This is what the walks of cdg_models.c count; it is
 * checked against them (every engine, every traffic class) in
 * tests/unit/test_cdg_shortcuts.c.
 *
 * Cost O(sum over switches of P log P) time and O(S + slots) memory: no
 * per-destination walk and no P x P dependency table. No global state.
 */
#ifndef FABRICLINT_CORE_UPDOWN_H
#define FABRICLINT_CORE_UPDOWN_H

#include <stdint.h>

/**
 * fl_updown_in — the switch graph as the deadlock analysis holds it
 * (cdg_impl.h).
 * @n_sw: switches, indexed 0..n_sw-1.
 * @tier: [n_sw] tier per switch (FL_TIER_UNKNOWN: not in the class).
 * @lo/@hi: [n_sw] switch s's channels are slots lo[s]..hi[s]-1 of @peer,
 *   one per port (port 0 left out: it routes nothing).
 * @peer: per slot, the index of the switch at the other end of the cable,
 *   negative when none (a CA, or no cable).
 * @peer_port: per slot, the port number the cable lands on at that switch;
 *   slot lo[s] + k is port k + 1 (so port q of t is slot lo[t] + q - 1). A
 *   cable must be seen from both ends (a port cabled twice is seen by one
 *   end only): else the fabric is not in the class.
 * @is_root: [n_sw] 1 on switches with traffic sources.
 */
typedef struct fl_updown_in {
  uint32_t n_sw;
  const uint32_t *tier;
  const uint32_t *lo, *hi;
  const int32_t *peer;
  const uint16_t *peer_port;
  const uint8_t *is_root;
} fl_updown_in;

/**
 * fl_updown_counts — what fl_updown_count() computes.
 * @dependencies: turns (switch, in port, out port) any route makes.
 * @channels: channels (switch-to-switch cables, one direction) out of which
 *   a route turns.
 * @roots: switches with sources (the destinations the models route to).
 */
typedef struct fl_updown_counts {
  uint64_t dependencies;
  uint32_t channels;
  uint32_t roots;
} fl_updown_counts;

/**
 * fl_updown_count() — count the channel dependency graph of the minhop,
 * updn and ftree models on @in when the fabric is in the class described
 * above. Returns 1 with *@out filled, 0 when the fabric is not in the
 * class (*@out zeroed), -1 when out of memory.
 */
int fl_updown_count(const fl_updown_in *in, fl_updown_counts *out);

#endif
