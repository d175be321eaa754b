/* SPDX-License-Identifier: MIT */
/*
 * core/host/roots.h — one cause across rules: findings rooted in one cable,
 * node or fabric-wide fact are attached to the finding that names the root
 * (internal; the plugin side is fl_finding.root_* in fabriclint/plugin.h).
 */
#ifndef FABRICLINT_CORE_ROOTS_H
#define FABRICLINT_CORE_ROOTS_H

#include "fabriclint/fabric.h"
#include "host/findings.h"

/**
 * fl_findings_attach_roots() — for every root (fl_finding_rec.root) that
 * has a primary finding among the active findings (neither waived nor
 * baselined), move every active consequence of that root under the
 * primary: into its @related list, in report order, leaving @fs without
 * them. Other primaries of the same root stay where they are. The primary is the most severe primary of the root, the first in
 * report order among equals (fl_finding_rec_cmp()); it takes the highest
 * severity of its group, so --fail-on and the totals judge the cause as
 * severely as its worst consequence. Findings of a root with no primary,
 * set-aside findings and findings without a root are left as they are.
 * Run before fl_findings_aggregate(), which carries the related lists of
 * the findings it merges. Leaves @fs unsorted. Returns 0, or -1 on ENOMEM
 * (@fs unchanged). O(n log n) in the findings with a root.
 */
int fl_findings_attach_roots(fl_findings *fs);

/**
 * fl_root_key() — the root of a reported finding as the host keeps it
 * (fl_finding_rec.root): "link:A port 1 - B port 2" (the two ends of
 * link @id in name order, so either end gives one key), "node:A" (node
 * @id) or "fact:@fact". Stores a new string in @out (owned by the caller),
 * or NULL when @kind is FL_ROOT_NONE. Returns FL_OK, FL_EINVAL for an
 * unknown kind or role, an id out of range or an empty fact, or FL_ENOMEM.
 */
int fl_root_key(const fl_fabric *fab, uint32_t kind, uint32_t role, fl_id id,
                const char *fact, char **out);

/** Findings attached under the findings of @fs (their related lists). */
size_t fl_findings_count_related(const fl_findings *fs);

#endif
