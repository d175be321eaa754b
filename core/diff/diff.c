/* SPDX-License-Identifier: MIT */
/*
 * core/diff/diff.c — as-designed vs as-built, cable by cable (DESIGN.md §7;
 * docs/rules/diff.md).
 *
 * Why it works this way:
 *
 * 1. Nodes are matched first: by GUID where both sides have one (two
 *    ibnetdiscover dumps, or a design that carries GUIDs), then by the
 *    canonical name of the alias layer (core/alias.h: case, FQDN vs short,
 *    blanks), then by system ("H-1" in an ibdm plan is the host whose HCA
 *    is "H-1 HCA-1"). A name that two nodes share on one side matches
 *    nothing, and the finding says why. Everything later works on matched
 *    nodes only; the cables of an unmatched node are folded into its
 *    diff.missing-node / diff.unexpected-node finding (a powered-off host is
 *    one fault, not eight).
 *    With planes on both sides (planes_setup()), the planes are paired (by
 *    name, else by order); when a node name repeats across planes (each
 *    plane's leaf01), names are matched within the paired plane, on the
 *    name before the GUID that tells such nodes apart in a dump ("leaf01
 *    (0x...)"). A switch matched in another plane than planned is one
 *    finding naming both planes, its cables folded (split_cross_plane()).
 *
 * 2. Every cable becomes an edge between two *endpoints* in the as-built
 *    fabric's port space: (as-built node, port number). A design port is
 *    mapped by its label (canonical spelling) when both sides label ports
 *    (Ethernet: swp1 vs Ethernet1), else by number (InfiniBand). A design
 *    port the as-built never mentions gets a virtual endpoint, so "nothing
 *    is plugged there" falls out naturally.
 *
 * 3. Edges are classified in a fixed order, each step consuming what it
 *    explains, so each fault is reported once:
 *      exact      same two endpoints on both sides (then width/speed:
 *                 diff.different when below plan)
 *      duplicate  the same two endpoints listed twice on one side
 *      plan       Cisco cable plan constraints (at least / at most N
 *                 cables between two chassis on given port sets)
 *      swapped    planned a-b, c-d; built a-d, c-b: one finding, one fix
 *      misconnected  planned a-b, built a-x: "move the end at x to b"
 *      missing / unexpected   what is left
 *    Before the moves, the switch-to-switch cables still unexplained are
 *    counted per pair of tiers: a layer cabled to another layout is one
 *    cause (diff_layout.c).
 *    Iteration follows link ids, so the output is deterministic.
 *
 * The steps are in diff_match.c (with diff_planes.c), diff_edges.c and
 * diff_classify.c, rates below plan in diff_rates.c; keys and names in
 * diff_keys.c, findings and work-order rows in diff_emit.c; the work order's
 * CSV writer is report/work_order.c.
 *
 * Cost: O(nodes + ports + links) expected (open-addressing hash maps);
 * endpoint degrees are tiny (one cable per port), so the swap and
 * misconnection searches are O(1) per edge.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "diff/diff.h"
#include "diff/diff_impl.h"
#include "fabriclint/planes.h"
#include "io/loaders.h"
#include "io/write_common.h"
#include "model/alias.h"
#include "model/hashmap.h"
#include "util/natcmp.h"

/* What the cables of @f are: a plan (declared), a capture (observed by
 * their ends), or neither clearly. Nine in ten of the cables decide. */
enum { SIDE_MIXED, SIDE_PLAN, SIDE_CAPTURE };

static int side_kind(const fl_fabric *f) {
  uint32_t nl = fl_fabric_link_count(f), declared = 0, seen = 0;
  for (fl_id l = 0; l < nl; l++) {
    uint32_t fl = fl_fabric_link_flags(f, l);
    if (fl & FL_LINK_DECLARED)
      declared++;
    else if (fl & (FL_LINK_SEEN_A | FL_LINK_SEEN_B))
      seen++;
  }
  if (!nl)
    return SIDE_MIXED;
  if ((uint64_t)declared * 10 >= (uint64_t)nl * 9)
    return SIDE_PLAN;
  if ((uint64_t)seen * 10 >= (uint64_t)nl * 9)
    return SIDE_CAPTURE;
  return SIDE_MIXED;
}

/* The arguments reversed: a capture given as DESIGN and a plan as AS_BUILT
 * (issue #30). Compared as given, every fault reads backwards, and a cable
 * below plan reads as above plan and vanishes. So they are compared the
 * other way round (unless --as-given, or a plane narrowing is in play),
 * and a warning says so either way. */
static void reversed_finding(dctx *c, int swapped) {
  fnd f = {.rule = "diff.reversed", .sev = FL_SEV_WARNING};
  f.ev = json_pack("{s:s,s:s,s:b}", "design_input", "capture", "as_built_input",
                   "plan", "swapped", swapped);
  diff_emit(
      c, &f,
      diff_xstrdup(
          c, swapped
                 ? "the DESIGN input is a capture (its cables were observed) "
                   "and the AS_BUILT input a plan (its cables are declared): "
                   "the arguments look reversed, so the plan was compared as "
                   "the design and the capture as built (give --as-given to "
                   "compare them in the order given)"
                 : "the DESIGN input is a capture (its cables were observed) "
                   "and the AS_BUILT input a plan (its cables are declared): "
                   "the arguments look reversed; compared as given "
                   "(--as-given), every finding reads the other way round "
                   "and a cable below plan is not reported"));
}

int fl_diff(const fl_fabric *design, const fl_fabric *built,
            const fl_diff_opts *opts, fl_findings *fs, fl_work_order *wo,
            fl_diff_stats *stats, fl_error *err) {
  fl_diff_opts defaults = {0};
  fl_diff_stats st_local;
  memset(&st_local, 0, sizeof st_local);
  const fl_diff_opts *o = opts ? opts : &defaults;
  int reversed =
      side_kind(design) == SIDE_CAPTURE && side_kind(built) == SIDE_PLAN;
  int swap = reversed && !o->as_given && !o->whole;
  if (swap) {
    const fl_fabric *t = design;
    design = built;
    built = t;
  }
  dctx c = {.D = design,
            .B = built,
            .o = o,
            .fs = fs,
            .wo = wo,
            .st = stats ? stats : &st_local,
            .err = err};
  memset(c.st, 0, sizeof *c.st);
  c.st->reversed = (uint32_t)reversed;
  if (reversed)
    reversed_finding(&c, swap);
  int ok = diff_count_folded(&c) == 0 && diff_index_built_labels(&c) == 0 &&
           diff_match_nodes(&c) == 0 && diff_build_edges(&c) == 0;
  if (ok) {
    diff_exact(&c);
    diff_rates_judge(&c);
    diff_double_booked(&c);
    diff_plans(&c);
    diff_swaps(&c);
    diff_layout_judge(&c);
    diff_misconnected(&c);
    diff_leftovers(&c);
    if (!c.nomem)
      diff_layout_roots(&c);
    if (c.o->compare_lids)
      diff_compare_lids(&c);
  }
  free(c.mD);
  free(c.mB);
  free(c.howD);
  free(c.b_labels);
  fl_strmap_free(&c.blabel);
  fl_strmap_free(&c.vlabel);
  for (size_t i = 0; i < c.n_v; i++)
    free(c.vnames[i]);
  free(c.vnames);
  fl_u64map_free(&c.key_dport);
  fl_u64map_free(&c.headD);
  fl_u64map_free(&c.headB);
  free(c.e);
  free(c.planD);
  free(c.planB);
  free(c.planB_used);
  free(c.cables_of_D);
  free(c.cables_of_B);
  fl_strmap_free(&c.sysdev);
  free(c.mapDB);
  free(c.mapBD);
  free(c.xplD);
  free(c.xplB);
  diff_rates_free(&c.rates);
  diff_layout_free(&c.lay);
  free(c.gdoubtB);
  if (c.failed)
    return err ? err->code : FL_EPARSE;
  if (!ok || c.nomem)
    return fl_error_set(err, FL_ENOMEM, NULL, 0, 0, "out of memory in diff");
  return FL_OK;
}

/* ---- the finding kinds as rules ------------------------------------- */

/* The finding kinds of DESIGN.md section 7 (docs/rules/diff.md), sorted. */
static const fl_diff_rule DIFF_RULES[] = {
    {"diff.different",
     "a planned cable is built with another attribute "
     "(width/speed below plan, GUID, description)",
     "Both ends of the cable are where the plan puts them, but something "
     "else differs: the width or speed is below plan (1xHDR where 4xHDR is "
     "planned: reseat, then replace the cable; work order `replace`; the "
     "same shortfall on most of the fabric, or on every cable of a node, is "
     "one finding for that cause, work order `check`), or a "
     "node's GUID, description or kind differs (one finding per cause), or "
     "a LID (with --compare-lids). With --no-guid GUIDs are neither matched "
     "nor compared.",
     FL_SEV_WARNING},
    {"diff.duplicate", "the same two ports are joined twice",
     "The same two ports are joined twice on one side (a stale or merged "
     "capture, or a plan that lists a cable twice: work order `remove`), or "
     "a design port is given two different cables (double-booked: fix the "
     "plan; work order `check`).",
     FL_SEV_ERROR},
    {"diff.misconnected", "one end of a cable lands elsewhere than planned",
     "One end of a planned cable is plugged into another port than planned. "
     "The finding says where the end is and where it goes; the work order "
     "has a `move` row (keep a, take the end now at from to b). Moves of "
     "one cause are one finding: a rotation of 3 or more cables; hosts in "
     "other hosts' places (names shifted, a host left out: cause "
     "name-shift, the name left over attached); a switch layer cabled to "
     "another layout (half the planned cables between two tiers: cause "
     "layout, its missing and unexpected cables attached).",
     FL_SEV_ERROR},
    {"diff.missing", "a planned cable was not found",
     "A planned cable is not in the as-built fabric (unplugged, dead, or "
     "never run), or a Cisco plan's \"at least N cables between A and B\" "
     "is not met. Work order `add`.",
     FL_SEV_ERROR},
    {"diff.missing-node", "a planned node was not found",
     "A planned node matches nothing as built (by GUID, name or system); "
     "the reason is given, and its cables are folded into this one finding "
     "(a powered-off host is one fault). A scalable unit or a host of "
     "which nothing is there, or two or more spines (switches of one tier "
     "outside SUs), is one finding with its nodes and cables counted. "
     "Work order `check`: one row per planned cable of the node, with the "
     "far end's port and rack.",
     FL_SEV_ERROR},
    {"diff.reversed",
     "the design is a capture and the as-built a plan: arguments reversed",
     "Nine in ten of the DESIGN input's cables were observed (a dump, LLDP "
     "listings) and nine in ten of the AS_BUILT input's are declared (a "
     "plan): the arguments look reversed. Compared as given, every finding "
     "would read the other way round and a cable below plan would vanish, "
     "so the plan is compared as the design and the capture as built, and "
     "this warning says so; --as-given keeps the order given (the warning "
     "stays). No work-order row.",
     FL_SEV_WARNING},
    {"diff.swapped", "two cables are crossed",
     "Two cables are crossed: planned a-b and c-d, built a-d and c-b. One "
     "finding names the two cable ends to exchange (on one node or system "
     "when possible); the work order has one `swap` row.",
     FL_SEV_ERROR},
    {"diff.unexpected", "a cable was found that is not in the plan",
     "A cable exists as built that the plan does not have (or a constraint "
     "of an as-built plan the design lacks): remove it or add it to the "
     "plan. Work order `remove`.",
     FL_SEV_ERROR},
    {"diff.unexpected-node", "a node was found that is not in the plan",
     "A node exists as built that the plan does not have; its cables are "
     "folded into this finding (info for SHARP Aggregation Nodes). Work "
     "order `check`.",
     FL_SEV_ERROR},
};

const fl_diff_rule *fl_diff_rules(size_t *n) {
  *n = sizeof DIFF_RULES / sizeof *DIFF_RULES;
  return DIFF_RULES;
}
