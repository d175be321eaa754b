/* SPDX-License-Identifier: MIT */
/*
 * fabriclint/cdg.h — routing analysis on the channel dependency graph (CDG):
 * credit loops, forwarding loops, unrouted destinations and valley turns.
 *
 * Theory (Dally & Seitz, "Deadlock-Free Message Routing in Multiprocessor
 * Interconnection Networks", IEEE TC 1987): a channel is a directed link
 * (per virtual lane when VLs are known); channel c1 depends on c2 when some
 * route uses c2 right after c1. A deterministic routing function is free of
 * routing deadlock iff its CDG is acyclic. InfiniBand forwarding is
 * destination based (one LFT entry per switch per DLID), so the routes to
 * one destination form an in-tree; fabriclint walks each destination's tree
 * once from every traffic source, stopping where it joins a part already
 * walked, so the whole analysis costs O(switches x destinations) and never
 * enumerates source-destination paths. Dependencies are de-duplicated per
 * switch (in port, out port), and strongly connected components are found once
 * at the end (Tarjan, 1972); every non-trivial component is one independent
 * credit loop, reported with one concrete cycle.
 *
 * Routing used: the loaded LFTs, or, for a design with no dumps, a model
 * of the engine the fabric would run (fl_cdg_options.engine): "all minimal
 * next hops" (minhop: the union of every shortest path, as ECMP or adaptive
 * routing may use them), or the union of every shortest up*-down* (updn)
 * or tier-monotone (ftree) path, whose CDG says whether that engine on the
 * topology can deadlock.
 *
 * VLs: with SL2VL tables loaded (and path SLs for engines that assign SLs
 * per path: LASH, DFSSSP, Nue, Torus-2QoS), channels are (link direction,
 * VL) and the verdict is VL-aware; otherwise channels are link directions
 * and the verdict is VL-blind (it may report loops that VLs break).
 *
 * The result structs below are frozen for ABI major 1 (they never grow; new
 * information will come in new structs), so arrays of them are safe to index
 * across versions. fl_cdg_options grows at the end (struct_size).
 */
#ifndef FABRICLINT_CDG_H
#define FABRICLINT_CDG_H

#include <stdint.h>

#include "fabriclint/dist.h"
#include "fabriclint/fabric.h"

#include "fabriclint/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Traffic considered (fl_cdg_options.traffic). */
#define FL_CDG_TRAFFIC_CA  0u /**< every CA port to every CA LID (default) */
#define FL_CDG_TRAFFIC_ALL 1u /**< also switch-sourced and switch-destined */

/** VL handling (fl_cdg_options.vl_mode). */
#define FL_CDG_VL_AUTO  0u /**< VL-aware when SL2VL tables are loaded */
#define FL_CDG_VL_BLIND 1u /**< channels are link directions */
#define FL_CDG_VL_AWARE 2u /**< channels are (direction, VL); needs SL2VL */

/** Routing analysed (fl_cdg_options.routing, fl_cdg_report.routing). */
#define FL_CDG_ROUTING_AUTO    0u /**< LFTs when loaded, else minimal */
#define FL_CDG_ROUTING_LFT     1u /**< the loaded LFTs */
#define FL_CDG_ROUTING_MINIMAL 2u /**< all minimal next hops (design mode) */

/**
 * Routing engine modelled when routing is FL_CDG_ROUTING_MINIMAL (design
 * mode, no LFTs): fl_cdg_options.engine. Each is the union of every route
 * the engine may choose, so a cycle-free verdict holds whichever of them
 * the engine picks per destination.
 * - MINHOP: every minimal next hop (OpenSM minhop, ECMP, adaptive routing).
 * - UPDN: every shortest legal up*-down* path (OpenSM updn): switches are
 *   ranked by tier (higher tier = nearer the roots); a cable between two
 *   switches of the same tier goes up toward the smaller node GUID (then
 *   node index); a route never goes up after going down.
 * - FTREE: every shortest path that climbs tiers and then descends them
 *   (OpenSM ftree); cables between switches of the same tier are unused.
 * Unknown tiers count as tier 0. Up*-down* and ftree routes have an acyclic
 * CDG by construction (Schroeder et al., Autonet, 1991); the analysis still
 * builds it, so the verdict is computed, not assumed.
 */
#define FL_CDG_ENGINE_MINHOP 0u
#define FL_CDG_ENGINE_UPDN   1u
#define FL_CDG_ENGINE_FTREE  2u

/** Why a destination is unrouted at a switch (fl_cdg_unrouted.reason). */
#define FL_CDG_NO_ENTRY  1u /**< LFT entry 255 or beyond the LFT's end */
#define FL_CDG_DEAD_PORT 2u /**< the entry's port has no cable */
#define FL_CDG_WRONG_NODE                                                      \
  3u /**< the port leads to a CA that is not the                               \
          destination, or entry 0 at a switch that                             \
          is not the destination */
/** A switch on the route has no LFT at all. Not reported any more: such a
 * switch is unknown, not a dead end (partial routing dumps, e.g. one
 * `ibroute`); walks stop there and callers say what was not judged. */
#define FL_CDG_NO_LFT 4u

/**
 * fl_cdg_options — what to analyse. Zero-initialise, set struct_size.
 * @threads: worker threads for the walks (0 = fl_threads_available(), max 64):
 *   the LFT walks (blocks of 64 destinations) and, in minimal (design)
 *   mode, the root-switch walks (twin classes dealt round-robin). The
 *   report does not depend on it.
 * @max_examples: cap on stored forwarding-loop, unrouted and valley
 *   examples (0 = 1000). Counts are always complete.
 * @engine: FL_CDG_ENGINE_*, the routing modelled in minimal (design) mode;
 *   ignored with LFT routing. Added in ABI 1.x after @max_examples: a
 *   caller whose struct_size ends before it gets MINHOP.
 * @progress/@progress_ctx (ABI 1.2; NULL: none): called on the calling
 *   thread as the walks advance, with @what the unit ("destinations" with
 *   LFTs, "root switches" in design mode), @done of @total units (@total
 *   fixed for one walk; design mode with a modelled engine other than
 *   minhop walks once per engine). About once per 64 destinations or per
 *   root switch; the loop search and valley scan after the walks are not
 *   counted. A design-mode graph counted in closed form (a layered fabric
 *   whose down-closures nest, see Cost below) walks nothing and reports
 *   once, all roots done. A plugin passes fl_host_api.progress through it (see
 *   plugins/deadlock). Not part of what the analysis computes: two option
 *   sets differing only here give the same report.
 * @dist (ABI 1.3; NULL or size 1: this process does everything): a
 *   distributed run (fabriclint/dist.h). Every process of the run calls
 *   fl_cdg_analyze() with the same fabric and options. VL-blind analysis of
 *   loaded LFTs is split by destination: process r walks the blocks of 64
 *   consecutive DLIDs b with b mod size = r and records the turns their
 *   routes make; the dependency tables are merged with an element-wise
 *   minimum (the smallest DLID making each turn), counts summed and
 *   examples gathered, and every process then finds the loops on the merged
 *   graph, so each gets the report a single process would. VL-aware and
 *   design-mode (modelled engine) analyses are not split: each process
 *   computes the whole (same report). FL_EIO when a collective fails.
 */
typedef struct fl_cdg_options {
  uint32_t struct_size;
  uint32_t traffic;
  uint32_t vl_mode;
  uint32_t routing;
  uint32_t threads;
  uint32_t max_examples;
  uint32_t engine;
  uint32_t reserved0; /**< 0 (alignment of @progress) */
  void (*progress)(void *ctx, const char *what, uint64_t done, uint64_t total);
  void *progress_ctx;
  const fl_dist *dist;
} fl_cdg_options;

/**
 * fl_cdg_hop — one channel of a credit-loop cycle: the cable from
 * @from_node port @from_port to @to_node port @to_port on virtual lane @vl
 * (FL_VL_UNKNOWN when VL-blind). The dependency on the next hop's channel
 * is created by traffic to @dlid, e.g. from CA node @src (FL_NONE when no
 * single source was identified, as in design mode).
 */
typedef struct fl_cdg_hop {
  fl_id from_node;
  uint32_t from_port;
  fl_id to_node;
  uint32_t to_port;
  uint32_t vl;
  uint32_t dlid;
  fl_id src;
  uint32_t reserved;
} fl_cdg_hop;

/**
 * fl_cdg_loop — one independent credit loop: a cycle of @n_hops channels
 * (hops[k] depends on hops[k+1], the last on the first) inside a strongly
 * connected component of @scc_channels channels.
 */
typedef struct fl_cdg_loop {
  uint32_t n_hops;
  uint32_t scc_channels;
  const fl_cdg_hop *hops;
} fl_cdg_loop;

/**
 * fl_cdg_fwd_loop — following the LFTs toward @dlid from switch
 * @switches[0] revisits a switch: @switches[0..n-1] is the cycle.
 */
typedef struct fl_cdg_fwd_loop {
  uint32_t dlid;
  uint32_t n_switches;
  const fl_id *switches;
} fl_cdg_fwd_loop;

/**
 * fl_cdg_unrouted — destination @dlid (answered by port @dest_port, a port
 * id, or FL_NONE) cannot be reached from @n_switches switches, e.g. from
 * @example_switch whose LFT entry is @example_port (FL_LFT_NONE = 255 when
 * absent), for reason @reason. @on_traffic_path is 1 when CA traffic is
 * actually dropped (a CA's route runs into the hole), 0 when only the
 * switch's own entry is bad.
 */
typedef struct fl_cdg_unrouted {
  uint32_t dlid;
  fl_id dest_port;
  uint32_t n_switches;
  fl_id example_switch;
  uint32_t example_port;
  uint32_t reason;
  uint32_t on_traffic_path;
  uint32_t reserved;
} fl_cdg_unrouted;

/**
 * fl_cdg_valley — a route toward @dlid enters switch @at from higher-tier
 * switch @from and leaves it to higher-tier switch @to (a down-then-up
 * turn, illegal under up*-down* routing and the usual cause of credit loops
 * in fat trees). Needs tiers (given or derived).
 */
typedef struct fl_cdg_valley {
  uint32_t dlid;
  fl_id from;
  fl_id at;
  fl_id to;
} fl_cdg_valley;

/**
 * fl_cdg_report — the result of fl_cdg_analyze(). Owned by the core; free
 * with fl_cdg_free().
 * @routing: FL_CDG_ROUTING_LFT or _MINIMAL, as analysed.
 * @vl_aware: 1 when channels carried VLs.
 * @channels / @dependencies: CDG size (channels that carry traffic).
 * @destinations / @sources: LIDs and source ports considered.
 * @missing_sl2vl: hops whose (switch, in, out) had no SL2VL table (VL 0
 *   assumed) in VL-aware mode.
 * @unrouted_pairs: (switch, destination) pairs with no usable route.
 * @fwd_loop_count / @valley_count: totals (examples may be capped).
 * @seconds: wall time of the analysis.
 */
typedef struct fl_cdg_report {
  uint32_t routing;
  uint32_t vl_aware;
  uint32_t channels;
  uint32_t destinations;
  uint64_t dependencies;
  uint32_t sources;
  uint32_t n_loops;
  const fl_cdg_loop *loops;
  uint32_t n_fwd_loops;
  uint32_t n_unrouted;
  const fl_cdg_fwd_loop *fwd_loops;
  const fl_cdg_unrouted *unrouted;
  uint64_t fwd_loop_count;
  uint64_t unrouted_pairs;
  uint64_t valley_count;
  uint64_t missing_sl2vl;
  uint32_t n_valleys;
  uint32_t traffic;
  const fl_cdg_valley *valleys;
  double seconds;
} fl_cdg_report;

/**
 * fl_cdg_analyze() — analyse the routing of finalized fabric @fab.
 * @opts may be NULL (defaults). On success *@out is a new report (free it
 * with fl_cdg_free()). Returns FL_OK; FL_EINVAL when @opts asks for LFT
 * routing and none is loaded, or VL-aware analysis without SL2VL tables;
 * FL_ENOMEM.
 * Cost: LFT routing O(S x D) time for S switches and D destinations, plus
 * O(C + E) for the SCCs of C channels and E dependencies; memory O(S x
 * radix^2) for the dependency table. Minimal routing: O(L x (V + E_dag))
 * for L destination switches, where E_dag counts (in, out) pairs of minimal
 * hops — except on a layered fabric (every switch-to-switch cable joins
 * adjacent tiers and is seen from both ends, CA traffic enters only on the
 * lowest tier, every switch
 * but the top ones has one above it) whose down-closures nest (the
 * switches above any switch all reach the same leaves going down, and the
 * top tier reaches every leaf), as fat trees, rail-optimised leaf/spine
 * plans and one plane of a multi-plane fabric are. There every engine's
 * shortest routes climb to the lowest common tier and descend, the graph
 * is acyclic by the up*-down* argument (Schroeder et al., "Autonet", IEEE
 * JSAC 9(8), 1991) and its channels and dependencies are counted per
 * switch from the classes of its neighbours: O(sum over switches of P log
 * P) time, O(S + ports) memory, no dependency table, the same report.
 */
FL_EXTERN(int)
fl_cdg_analyze(const fl_fabric *fab, const fl_cdg_options *opts,
               const fl_cdg_report **out);

/** fl_cdg_free() — free a report from fl_cdg_analyze(). NULL is a no-op. */
FL_EXTERN(void) fl_cdg_free(const fl_cdg_report *report);

#ifdef __cplusplus
}
#endif
#endif
