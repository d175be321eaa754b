/* SPDX-License-Identifier: MIT */
/*
 * core/diff/diff.h — as-designed vs as-built comparison (DESIGN.md §7), the
 * engine behind `fabriclint diff` (internal to the core and the CLI).
 *
 * fl_diff() compares two finalized fabrics cable by cable and appends one
 * finding per fault to a findings list, plus the field team's work order
 * (one row per physical action). See docs/rules/diff.md for the taxonomy,
 * how nodes and ports are matched, and what each finding says.
 */
#ifndef FABRICLINT_CORE_DIFF_H
#define FABRICLINT_CORE_DIFF_H

#include <stdio.h>

#include "fabriclint/error.h"
#include "fabriclint/fabric.h"
#include "host/findings.h"
#include "report/work_order.h"

/**
 * fl_diff_opts — zero-initialise.
 * @compare_lids: 1 to report LIDs that differ (diff.different); by default
 *   LIDs are ignored (an SM reassigns them; a design rarely has them).
 * @no_guid: 1 to match nodes by name only, never by GUID.
 * @as_given: see below.
 */
typedef struct fl_diff_opts {
  int compare_lids;
  int no_guid;
  /* 1: compare in the order given even when the design is a capture and the
   * as-built a plan (by default they are swapped: diff.reversed) */
  int as_given;
  /* One side is one plane of a multi-plane other side (`diff --design-plane
   * 1:plan.xml` against every plane's capture): the CLI compares that
   * plane of the other side alone (fl_fabric_plane_subset_ex()) and sets
   * @whole to the other side before narrowing (borrowed), @whole_side to it
   * (0 design, 1 as-built) and @plane to the compared plane's name, so that
   * a node the narrowed side lacks because it is in another plane says so
   * instead of "not in the fabric". NULL: no narrowing. */
  const fl_fabric *whole;
  int whole_side;
  const char *plane;
} fl_diff_opts;

/**
 * fl_diff_rule — one kind of diff finding, described as a rule (for
 * renderers, `fabriclint rules` and `fabriclint explain`). Static strings.
 * @id: "diff.swapped"; @summary: one line; @help: a paragraph (what is
 * compared, what the finding says, the work-order action); @level: FL_SEV_*.
 */
typedef struct fl_diff_rule {
  const char *id, *summary, *help;
  uint32_t level;
} fl_diff_rule;

/** fl_diff_rules() — the diff finding kinds, sorted by id; *@n their
 * count (docs/rules/diff.md). */
const fl_diff_rule *fl_diff_rules(size_t *n);

/** Counts of what matched (for -v and the tests). */
typedef struct fl_diff_stats {
  uint32_t nodes_by_guid, nodes_by_name, nodes_by_system;
  uint32_t nodes_by_chassis; /* design switches matched to a director */
  uint32_t nodes_by_cable;   /* nodes matched by the cable that reaches them
                                from a matched node (ASICs of one system) */
  uint32_t cables_ok, cables_design, cables_built;
  uint32_t reversed; /* 1: the design was a capture and the as-built a plan,
                        compared the other way round (diff.reversed) */
} fl_diff_stats;

/**
 * fl_diff() — compare @design with @built (both finalized) and append the
 * findings (rule ids diff.*) to @fs and the actions to @wo (may be NULL).
 * When both have planes (fabriclint/planes.h) and a node name repeats
 * across the planes of one, nodes are matched within their plane
 * (docs/rules/diff.md, Planes). Cost: O(nodes + ports + links) expected
 * (hash maps), plus the sort of the output. Returns FL_OK or FL_ENOMEM with
 * @err set.
 */
int fl_diff(const fl_fabric *design, const fl_fabric *built,
            const fl_diff_opts *opts, fl_findings *fs, fl_work_order *wo,
            fl_diff_stats *stats, fl_error *err);

#endif /* FABRICLINT_CORE_DIFF_H */
