/* SPDX-License-Identifier: MIT */
/*
 * plugins/ecmp-balance/ecmp.c — does the routing spread load evenly over the
 * links the design paid for? (rule id prefix `ecmp-balance`)
 *
 * Structural rules (a plan or a dump; no routing needed; tiers from the
 * `tier` attributes or derived from the shape):
 *  - uplink-asymmetry: switches of a tier differ in uplink count or
 *    capacity, or a switch's parallel cables differ per upper neighbour;
 *  - oversubscription: down-capacity / up-capacity (Gb/s = width x lane
 *    rate, api->link_gbps) above the policy ratio;
 *  - mixed-speed-group: a minimal next-hop set mixes link speeds (plain
 *    ECMP splits by count, not capacity: needs weighted ECMP);
 *  - group-width: a minimal next-hop set wider than the hardware ECMP
 *    group limit, or narrower than min-width where the switch has that many
 *    uplinks and the hop goes up;
 * Routing-based rules:
 *  - port-imbalance: per switch, destination LIDs routed per egress port
 *    among equivalent ports (the uplinks; same-tier ports), from the LFTs:
 *    the check_lft_balance question (infiniband-diags; that script stops
 *    at port 36) for any radix: max - min against a tolerance, with the
 *    coefficient of variation;
 *  - link-load: link loads and effective bisection bandwidth under named
 *    traffic patterns (traffic.c), from the LFTs or, with none, from fluid
 *    ECMP over minimal next hops;
 *  - summary (info): path diversity per tier (distribution of minimal
 *    next-hop set sizes), capacities and oversubscription per tier, port
 *    balance and eBB figures — every figure in evidence, so two plans can
 *    be compared.
 *
 * Minimal next-hop sets come from one BFS per destination switch
 * (fabriclint/view.h), so every structural figure costs O(destination switches
 * x switch ports), never per path. One view serves all rules: it is cached in
 * the plugin state (init/fini), keyed by the fabric.
 *
 * Files: ecmp_state.c (cached view, helpers), ecmp_capacity.c,
 * ecmp_groups.c, ecmp_balance.c, ecmp_load.c (with traffic.c),
 * ecmp_summary.c; this file: the parameters, rules and descriptor.
 *
 * Sources: docs/rules/ecmp-balance.md (ECMP balance checks on a Clos,
 * group width limits, W-ECMP; eBB, ORCS, check_lft_balance); Hoefler,
 * Schneider, Lumsdaine, Cluster 2008.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ecmp.h"
#include "fabriclint/json_buf.h"
#include "fabriclint/plugin.h"
#include "fabriclint/routing.h"
#include "fabriclint/view.h"
#include "traffic.h"

/* ---- descriptors
 * ------------------------------------------------------------------ */

#define PDR(var, type, name, def, unit, lo, hi, doc)                           \
  static const fl_param_def var = {                                            \
      sizeof(fl_param_def), type, name, def, unit, doc, lo, hi}
#define PD(var, type, name, def, unit, doc)                                    \
  PDR(var, type, name, def, unit, NULL, NULL, doc)
PDR(P_RATIO, FL_PARAM_DOUBLE, "max-ratio", "1.0", "down:up", "0", NULL,
    "largest down-capacity / up-capacity ratio allowed per switch (1.0 = "
    "non-blocking, as for compute fabrics)");
PDR(P_LIMIT, FL_PARAM_INT, "group-limit", "64", "next hops", "1", "4294967295",
    "hardware ECMP group limit (e.g. 64; Dell OS9 2..64, Junos up to 512)");
PDR(P_MINW, FL_PARAM_INT, "min-width", "2", "next hops", "0", "4294967295",
    "an upward minimal next-hop set narrower than this, at a switch with at "
    "least this many uplinks, is reported");
PD(P_WECMP, FL_PARAM_BOOL, "weighted-ecmp", "false", NULL,
   "weighted ECMP (W-ECMP, BGP link bandwidth) is configured: mixed speeds "
   "are fine");
PDR(P_TOL, FL_PARAM_INT, "tolerance", "1", "LIDs", "0", "4294967295",
    "largest allowed difference between the most and least loaded equivalent "
    "ports (check_lft_balance flags max > min + 1)");
PD(P_METRIC, FL_PARAM_STRING, "metric", "dlids", NULL,
   "port balance metric: dlids (destination LIDs per port, as "
   "check_lft_balance) or paths (CA-to-CA paths per port, what SSSP "
   "balances; costs endpoints x leaves x hops)");
PD(P_DOWN, FL_PARAM_BOOL, "include-down", "false", NULL,
   "also compare down ports toward lower-tier switches (check_lft_balance "
   "ignores them: they carry their subtree's destinations)");
PD(P_ROUTING, FL_PARAM_STRING, "routing", "auto", NULL,
   "auto: the LFTs when loaded, else ECMP; lft; ecmp (flows split evenly "
   "over minimal next hops at each hop)");
PD(P_PATTERNS, FL_PARAM_STRING, "patterns", "all-to-all,bisect,shift,ring",
   NULL,
   "comma-separated traffic patterns: all-to-all, bisect (random pairings "
   "both ways, ORCS eBB), permutation (uniform random), shift, ring "
   "(rail-aligned ring all-reduce within each SU)");
PDR(P_COUNT, FL_PARAM_INT, "count", "100", "patterns", "1", "1000000",
    "random patterns per random pattern kind, at most (see ci)");
PDR(P_CI, FL_PARAM_DOUBLE, "ci", "0.001", NULL, "0", "1",
    "stop drawing random patterns once the 99% confidence half-width of "
    "the eBB is at most this, after at least 10 patterns (0: draw all "
    "count patterns)");
PDR(P_SEED, FL_PARAM_INT, "seed", "1", NULL, "0", NULL,
    "seed of the random patterns");
PDR(P_SHIFT, FL_PARAM_INT, "shift", "0", "endpoints", "0", "4294967295",
    "shift distance of the shift pattern (0: half the endpoints)");
PDR(P_TOP, FL_PARAM_INT, "top-links", "5", "links", "0", "32",
    "hottest links listed per pattern (at most 32)");
PDR(P_MINEBB, FL_PARAM_DOUBLE, "min-ebb", "0", NULL, "0", "1",
    "a pattern whose eBB is below this is a warning (0: always info)");
PD(P_LOADS, FL_PARAM_BOOL, "link-loads", "false", NULL,
   "list every directed switch cable's mean load in the evidence "
   "(link_loads: [from, from_port, load]); `check --view load` sets it to "
   "draw the heat map");

/* Each rule lists the parameters it reads (`fabriclint rules` shows them
 * under it); a plugin-wide --param ecmp-balance.NAME reaches every rule
 * that has NAME. uplink-asymmetry reads none. */
static const fl_param_def *const P_OVER[] = {&P_RATIO};
static const fl_param_def *const P_MIXED[] = {&P_WECMP};
static const fl_param_def *const P_WIDTH[] = {&P_LIMIT, &P_MINW};
static const fl_param_def *const P_IMB[] = {&P_TOL, &P_METRIC, &P_DOWN};
static const fl_param_def *const P_LOAD[] = {&P_ROUTING, &P_PATTERNS, &P_COUNT,
                                             &P_SEED,    &P_SHIFT,    &P_TOP,
                                             &P_MINEBB,  &P_LOADS,    &P_CI};
static const fl_param_def *const P_SUM[] = {&P_TOL,      &P_METRIC, &P_ROUTING,
                                            &P_PATTERNS, &P_COUNT,  &P_SEED,
                                            &P_SHIFT,    &P_TOP,    &P_CI};
#define PARAMS_OF(a) a, (uint32_t)(sizeof a / sizeof *a)
#define NO_PARAMS    NULL, 0

#define RULE(var, sev, on, rid, summ, hlp, fn, needs, params)                  \
  static const fl_rule_def var = {                                             \
      sizeof(fl_rule_def), sev, rid, summ, hlp, on, needs, params, fn}

RULE(R_ASYM, FL_SEV_WARNING, 1, "ecmp-balance.uplink-asymmetry",
     "switches of a tier differ in uplinks, or in cables per upper switch",
     "In a Clos every leaf should have the same number of uplinks of the "
     "same speed, the same number of parallel cables to every spine, and no "
     "missing spine; otherwise ECMP sends equal shares into unequal pipes. "
     "Reports each switch whose uplink count or capacity differs from the "
     "majority of its tier, and each switch whose parallel cables differ per "
     "upper neighbour.",
     eb_check_asym, 0, NO_PARAMS);
RULE(R_OVER, FL_SEV_WARNING, 1, "ecmp-balance.oversubscription",
     "down-capacity / up-capacity of a switch exceeds the policy ratio",
     "Capacity is width x lane rate (Gb/s) summed over cabled ports toward "
     "lower tiers (down, including hosts) and higher tiers (up). Compute "
     "fabrics are built non-blocking (1:1); set max-ratio for storage or "
     "front-end fabrics. The tier ratio is in the evidence.",
     eb_check_oversub, 0, PARAMS_OF(P_OVER));
RULE(R_MIXED, FL_SEV_WARNING, 1, "ecmp-balance.mixed-speed-group",
     "a minimal next-hop set mixes link speeds",
     "Plain ECMP (and IB AR groups) split flows by count, not capacity: with "
     "400G and 800G next hops, the 400G ones saturate first. Configure "
     "weighted ECMP (set weighted-ecmp) or make the links equal.",
     eb_check_mixed, 0, PARAMS_OF(P_MIXED));
RULE(R_WIDTH, FL_SEV_WARNING, 1, "ecmp-balance.group-width",
     "a minimal next-hop set exceeds the ECMP group limit, or is too narrow",
     "One ECMP group toward a destination has one member per minimal next-hop "
     "link; beyond the platform's limit the excess links carry nothing. A "
     "set narrower than min-width where the switch has the uplinks for more "
     "(e.g. a spine missing its cable to one leaf) forces all traffic onto "
     "one path.",
     eb_check_width, 0, PARAMS_OF(P_WIDTH));
RULE(R_IMB, FL_SEV_WARNING, 1, "ecmp-balance.port-imbalance",
     "destination LIDs are routed unevenly over equivalent ports",
     "From the LFTs: per switch, the destination LIDs routed through each "
     "uplink (and each same-tier port), compared as check_lft_balance does "
     "(max > min + tolerance) but for any radix; the coefficient of "
     "variation and every port's count are in the evidence.",
     eb_check_imbalance, FL_NEEDS_ROUTING, PARAMS_OF(P_IMB));
RULE(R_LOAD, FL_SEV_INFO, 0, "ecmp-balance.link-load",
     "link loads and effective bisection bandwidth under traffic patterns",
     "One finding per pattern: eBB as in Hoefler et al. (Cluster 2008) and "
     "ORCS (mean over flows of 1 / the most congested cable of the flow's "
     "route, mean over random patterns, 99% confidence), the largest link "
     "load and the hottest links. Static routing follows the LFTs; without "
     "LFTs flows split evenly over minimal next hops (ECMP). Warning when the "
     "eBB is below min-ebb.",
     eb_check_link_load, 0, PARAMS_OF(P_LOAD));
RULE(R_SUM, FL_SEV_INFO, 0, "ecmp-balance.summary",
     "path diversity, capacities, port balance and eBB in one finding",
     "Per tier: switches, down/up Gb/s and oversubscription, and the "
     "distribution of minimal next-hop set sizes over (switch, destination) "
     "pairs (weighted by endpoints); port-balance figures from the LFTs; the "
     "traffic results. Meant for comparing two plans.",
     eb_check_summary, 0, PARAMS_OF(P_SUM));

static const fl_rule_def *const RULES[] = {&R_ASYM, &R_OVER, &R_MIXED, &R_WIDTH,
                                           &R_IMB,  &R_LOAD, &R_SUM};

static const fl_plugin_desc DESC = {sizeof(fl_plugin_desc),
                                    FL_ABI_MAJOR,
                                    FL_ABI_MINOR,
                                    sizeof RULES / sizeof *RULES,
                                    "ecmp-balance",
                                    "0.1.0",
                                    "fabriclint",
                                    "MIT",
                                    eb_init,
                                    eb_fini,
                                    RULES};

FL_PLUGIN_EXPORT const fl_plugin_desc *fabriclint_plugin_v1(void) {
  return &DESC;
}
