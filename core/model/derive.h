/* SPDX-License-Identifier: MIT */
/*
 * core/model/derive.h — facts derived from the shape and the descriptions of a
 * fabric at finalize time (internal).
 */
#ifndef FABRICLINT_CORE_DERIVE_H
#define FABRICLINT_CORE_DERIVE_H

#include "fabriclint/fabric.h"

/**
 * fl_derive_systems() — for CA and router nodes without a system, apply
 * @pattern (NULL = default) to the display name (node-name-map entry,
 * else the description); for switches, take the
 * system from Mellanox "MF0;<system>:<type>/<board>" descriptions.
 * Returns FL_OK, or FL_EINVAL when @pattern does not compile or has fewer
 * than two groups.
 */
int fl_derive_systems(fl_fabric *fab, const char *pattern, fl_error *err);

/**
 * fl_derive_tiers() — nodes without a given tier: CAs tier 0; switches
 * ranked up*\/down* from the leaves holding most compute endpoints (see
 * derive.c for the five steps; director chassis ASICs are one switch), so
 * service hosts on a core or a management leaf with two uplinks do not
 * reshape the tree. SHARP Aggregation Nodes (devid 0xcf09 or description
 * "Aggregation Node") and CAs whose role attribute is not "compute" are no
 * endpoints. Routers and switches of a switch-graph component without
 * endpoints keep FL_TIER_UNKNOWN. O(V + E) plus a small step for the few
 * switches that carry endpoints but are not among the fullest leaves.
 * Also counts the shape facts (fl_shape_facts_get()).
 */
int fl_derive_tiers(fl_fabric *fab, fl_error *err);

/** Shape facts counted by fl_derive_tiers() over the final tiers (given or
 * derived): switch-to-switch cables within one tier or skipping a tier
 * (director-internal cables excluded), and switches (director chassis
 * counted once) above tier 1 that carry compute endpoints (e.g. service
 * hosts on a core). All zero for a regular fat tree. */
typedef struct fl_shape_facts {
  uint32_t flat_links;
  uint32_t skip_links;
  uint32_t upper_endpoint_switches;
} fl_shape_facts;

/** fl_shape_facts_get() — copy the counts above into @out. O(1). */
void fl_shape_facts_get(const fl_fabric *fab, fl_shape_facts *out);

/** 1 when node @n is a SHARP Aggregation Node (see fl_derive_tiers). */
int fl_is_aggregation_node(const fl_fabric *fab, fl_id n);

/**
 * fl_type_tier_conflict() — a switch cabled to switch @n that contradicts
 * the tier @n's device type states (model/tier_type.h): its tier (else its
 * own type's) is the same as that one or two or more layers away (a Clos
 * cables adjacent layers only). FL_NONE when none does, or @n's type
 * states no tier. O(degree of @n).
 */
fl_id fl_type_tier_conflict(const fl_fabric *fab, fl_id n);

#endif
