/* SPDX-License-Identifier: MIT */
/*
 * fabriclint/pfc.h — lossless-Ethernet (PFC) deadlock analysis run by the
 * core (core/analysis/pfc.c), offered to plugins as api->pfc_analyze().
 *
 * RoCE runs its traffic on lossless priorities: a switch pauses its
 * upstream neighbour (PFC) when the ingress buffer of that priority fills,
 * so a packet waiting in the ingress queue of switch S (arrived over link
 * U->S) depends on the ingress queue of the next switch V (link S->V).
 * When these buffer dependencies form a cycle on one priority, the pauses
 * can hold each other forever: a PFC deadlock, the Ethernet twin of an
 * InfiniBand credit loop (Hu et al., "Deadlocks in Datacenter Networks:
 * Why Do They Form, and How to Avoid Them", HotNets 2016; Hu et al.,
 * "Tagger: Practical PFC Deadlock Prevention in Data Center Networks",
 * CoNEXT 2016).
 *
 * Routing modelled: what a Clos runs (BGP or OSPF ECMP): every switch
 * forwards toward a destination over all its shortest paths in the switch
 * graph. Destinations are the switches that have hosts (CAs) attached.
 * When none has (a cable plan of switches only), traffic still ends at the
 * edge, never at a spine: per switch-graph component, the switches of the
 * lowest known tier; without tiers, when the component is bipartite (every
 * 2-tier Clos is), its larger side (a tie: the side of its first switch),
 * ranked tier 1 and the other side tier 2; else every switch (a ring or a
 * mesh has no edge to tell). Healthy, such routing is valley-free (up*
 * then down*) and so cannot have a cycle; after a link failure a switch
 * that lost its only downward path detours down and up again (a *valley*),
 * and valleys are what close cycles. Every priority runs the same routing,
 * so one graph stands for each lossless priority.
 *
 * The result structs are frozen for ABI major 1 (new information comes in
 * new structs); fl_pfc_options grows at the end (struct_size).
 */
#ifndef FABRICLINT_PFC_H
#define FABRICLINT_PFC_H

#include <stdint.h>

#include "fabriclint/fabric.h"

#include "fabriclint/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * fl_pfc_options — what to analyse.
 * @struct_size: sizeof(fl_pfc_options) as the caller knows it.
 * @failures: 0 = the fabric as it is only; 1 = also every single
 *   switch-to-switch link failure (each failed link rerouted and checked
 *   for valleys and cycles).
 * @max_failures: at most this many link failures are analysed (0: no
 *   limit); the report says how many were and how many there are.
 * @max_examples: valley turns kept in fl_pfc_report.valleys (0: 20).
 * @max_table: the cap on destinations x switches (0: FL_PFC_MAX_TABLE);
 *   past it fl_pfc_analyze() returns FL_PFC_TOO_LARGE before allocating.
 */
typedef struct fl_pfc_options {
  uint32_t struct_size;
  uint32_t failures;
  uint32_t max_failures;
  uint32_t max_examples;
  uint64_t max_table;
} fl_pfc_options;

/**
 * fl_pfc_turn — one buffer dependency: traffic toward switch @dest that
 * arrives at switch @via from switch @from over link @in_link waits for the
 * ingress buffer of switch @to over link @out_link.
 */
typedef struct fl_pfc_turn {
  fl_id from, via, to; /**< switches */
  fl_id in_link, out_link;
  fl_id dest; /**< destination switch whose routes take the turn */
} fl_pfc_turn;

/**
 * fl_pfc_failure — one link failure that makes the rerouted fabric take a
 * valley (down then up) on the lossless priorities.
 * @link: the failed link. @n_valleys: distinct valley turns after it.
 * @example: the first of them. @cycle: 1 when the buffer dependency graph
 * after the failure has a cycle (a deadlock is then possible, not only a
 * valley), 0 when it has none, 2 when it was not searched (the whole turn
 * graph, destinations x sum of squared switch degrees, exceeds 5e7 turns:
 * 65,536-endpoint fat trees; the healthy-fabric analysis is not limited).
 */
typedef struct fl_pfc_failure {
  fl_id link;
  uint32_t n_valleys;
  fl_pfc_turn example;
  uint32_t cycle;
} fl_pfc_failure;

/**
 * fl_pfc_report — the analysis (owned by the core; free with
 * fl_pfc_report_free() / api->pfc_free()).
 * @n_switches, @n_dests: switches and destination switches analysed.
 * @n_channels: directed switch-to-switch links (ingress buffers).
 * @n_deps: distinct buffer dependencies (turns) found, all destinations.
 * @n_valleys: distinct valley turns in the fabric as it is; the first
 *   @n_valleys_kept are in @valleys.
 * @cycle_len: 0 when the dependency graph is acyclic; else the length of
 *   one concrete cycle, whose turns are @cycle[0..cycle_len-1] in order
 *   (each turn's @out_link is the next turn's @in_link).
 * @failures_total: switch-to-switch links whose failure could be analysed;
 *   @failures_checked of them were (see fl_pfc_options.max_failures).
 * @n_failures: failures that create a valley, in @failures (by link id).
 */
/** Most destinations x switches fl_pfc_analyze() takes on: 2^29 entries of
 * its distance table (1 GiB). A 100,000-GPU Clos (~3,000 leaf
 * destinations x ~5,000 switches) is 1.5 x 10^7; a NetBox export whose
 * 41,000 devices are all switches (no kind) would be 1.7 x 10^9. */
#define FL_PFC_MAX_TABLE 536870912ull

/** fl_pfc_analyze() result: the fabric is past the table cap (a positive
 * value: not an error of the analysis, a limit of it). */
#define FL_PFC_TOO_LARGE 1

typedef struct fl_pfc_report {
  uint32_t struct_size;
  uint32_t n_switches, n_dests, n_channels;
  uint64_t n_deps;
  uint32_t n_valleys, n_valleys_kept;
  fl_pfc_turn *valleys;
  uint32_t cycle_len;
  fl_pfc_turn *cycle;
  uint32_t failures_total, failures_checked;
  uint32_t n_failures;
  fl_pfc_failure *failures;
} fl_pfc_report;

/**
 * fl_pfc_analyze() — build the PFC buffer dependency graph of the modelled
 * ECMP routing of finalized fabric @f and look for valleys and a cycle,
 * optionally after each single link failure (@opts; NULL: defaults).
 * Tiers come from fl_fabric_node_tier() (given or derived).
 * Cost: one BFS per destination switch, O(D x (S + L)) for D destinations,
 * S switches and L switch links, plus O(turns) for the cycle search when a
 * valley exists; each analysed failure re-runs only the destinations whose
 * distances it changes. On success *@out is a new report (caller frees).
 * Memory: a distance table of D x S 2-byte entries; past FL_PFC_MAX_TABLE
 * entries nothing is analysed and FL_PFC_TOO_LARGE is returned with *@out a
 * report holding only n_switches and n_dests (caller frees), so the rule can
 * say the fabric is too large for it instead of failing on an allocation.
 * Returns 0, FL_PFC_TOO_LARGE, or FL_ENOMEM / FL_EINVAL (f NULL or not
 * finalized).
 */
FL_EXTERN(int)
fl_pfc_analyze(const fl_fabric *f, const fl_pfc_options *opts,
               fl_pfc_report **out);

/** fl_pfc_report_free() — free a report from fl_pfc_analyze(); NULL is a
 * no-op. */
FL_EXTERN(void) fl_pfc_report_free(fl_pfc_report *r);

#ifdef __cplusplus
}
#endif

#endif
