/* SPDX-License-Identifier: MIT */
/*
 * fabriclint/infer.h — inferred properties with their evidence and
 * confidence (docs/inference.md).
 *
 * fl_fabric_finalize() infers, once, what the inputs do not say: the tier
 * of each switch (core/model/derive.c ranks them; core/model/infer.c
 * records why), the scalable unit (SU) of each host NIC and leaf, and
 * which nodes are known only from their neighbours' side (views.c). Each
 * inference has a value, a confidence and its evidence, which `fabriclint
 * info --explain` (and info's JSON) prints. What an input gives (a `tier`
 * or `su` attribute of a design or an annotation file) is not inferred:
 * its confidence is FL_CONF_GIVEN. Consumers read the value; a rule that
 * rests on a low-confidence inference reports at most a warning and says
 * what it assumed.
 */
#ifndef FABRICLINT_INFER_H
#define FABRICLINT_INFER_H

#include <stddef.h>
#include <stdint.h>

#include "fabriclint/common.h"
#include "fabriclint/fabric.h"

/** Confidence of an inference, weakest first. */
enum fl_confidence {
  FL_CONF_NONE = 0,   /**< not inferred (no evidence): the value is unknown */
  FL_CONF_LOW = 1,    /**< the evidence disagrees; a fallback was used */
  FL_CONF_MEDIUM = 2, /**< one kind of evidence, or an irregular shape */
  FL_CONF_HIGH = 3,   /**< the evidence agrees and nothing contradicts it */
  FL_CONF_GIVEN = 4   /**< given by an input (attribute), not inferred */
};

/** fl_confidence_name() — "none", "low", "medium", "high", "given"; "?"
 * for another value. Static storage. */
FL_EXTERN(const char *) fl_confidence_name(uint32_t conf);

/**
 * fl_fabric_node_tier_explain() — why switch @n of finalized fabric @fab
 * has its tier (fl_fabric_node_tier()): into @buf (@size bytes,
 * NUL-terminated, truncated), e.g. "tier 2: 8 switch neighbours at tier 1,
 * none above, no endpoints". Returns the confidence; FL_CONF_NONE with ""
 * for a node that is not a switch or a bad id. O(1) (the counts are
 * recorded at finalize).
 */
FL_EXTERN(uint32_t)
fl_fabric_node_tier_explain(const fl_fabric *fab, fl_id n, char *buf,
                            size_t size);

/**
 * fl_fabric_node_su() — the scalable unit inferred for node @n: a CA cabled
 * to a leaf (a host NIC) or a leaf (a switch cabled to compute CAs). SUs
 * are numbered from 1: by the site's names when they are consistent (every
 * leaf that carries hosts has `su<N>` in its name, e.g. leaf-su02-r3, and
 * no host reaches leaves of two numbers), else by grouping the leaves that
 * share hosts, numbered in node order of their first leaf. 0 when no SU is
 * inferred (not such a node, or the fabric has an `su` attribute on it or
 * its leaf: then the attribute is the SU). Borrowed nothing. O(1).
 */
FL_EXTERN(uint32_t) fl_fabric_node_su(const fl_fabric *fab, fl_id n);

/**
 * fl_fabric_node_su_explain() — the evidence of fl_fabric_node_su() for
 * node @n into @buf (@size bytes, NUL-terminated), e.g. "SU 2: its 8
 * leaves are named su02 (leaf-su02-r0 ...)". Returns the confidence:
 * FL_CONF_GIVEN when an `su` attribute gives it (the text names it),
 * FL_CONF_NONE with "" when there is no SU. O(degree of @n).
 */
FL_EXTERN(uint32_t)
fl_fabric_node_su_explain(const fl_fabric *fab, fl_id n, char *buf,
                          size_t size);

/** fl_fabric_su_source() — how the SUs of @fab were inferred: "names"
 * (su<N> in leaf names), "groups" (leaves that share hosts), or "" when no
 * SU was inferred. Static storage. */
FL_EXTERN(const char *) fl_fabric_su_source(const fl_fabric *fab);

/**
 * fl_fabric_node_view_explain() — whether node @n of finalized fabric @fab
 * is known only from its neighbours' side (node attribute `peer-only`,
 * core/model/views.c): named only as a neighbour by per-device LLDP,
 * NX-OS or Junos listings whose device's own listing was not given, or
 * only as a far end by a filtered capture (iblinkinfo --switches-only).
 * Its other cables are then unknown, and rules do not judge its cabling as
 * complete. Writes the evidence into @buf (@size bytes, NUL-terminated,
 * truncated), e.g. "only a neighbour in 2 listing(s) of other devices (e.g.
 * "leaf-r0"); its own listing was not given: ...". Returns FL_CONF_HIGH
 * (the inputs say so), or FL_CONF_NONE with "" for a node whose own view
 * was given or a bad id. O(degree of @n).
 */
FL_EXTERN(uint32_t)
fl_fabric_node_view_explain(const fl_fabric *fab, fl_id n, char *buf,
                            size_t size);

#endif
