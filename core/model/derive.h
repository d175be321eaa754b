/*
 * core/derive.h — facts derived from the shape and the descriptions of a
 * fabric at finalize time (internal).
 */
#ifndef FABRICLINT_CORE_DERIVE_H
#define FABRICLINT_CORE_DERIVE_H

#include "fabriclint/fabric.h"

/**
 * The default system/device pattern (POSIX ERE, group 1 = system, group 2 =
 * device): "<host> <rdma device>" where the device looks like mlx5_0,
 * HCA-1, hfi1_0, qib0, irdma0, bnxt_re0, rocep..., ibp...
 */
extern const char FL_DEFAULT_SYSTEM_PATTERN[];

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
 * 1 + hop distance to the nearest CA (multi-source BFS, O(V + E)). SHARP
 * Aggregation Nodes (devid 0xcf09 or description "Aggregation Node") are
 * not seeds: every Quantum switch hosts one, which would make every switch
 * a leaf. Routers and switches no CA reaches keep FL_TIER_UNKNOWN.
 */
int fl_derive_tiers(fl_fabric *fab, fl_error *err);

/** 1 when node @n is a SHARP Aggregation Node (see fl_derive_tiers). */
int fl_is_aggregation_node(const fl_fabric *fab, fl_id n);

/**
 * fl_pattern_check() — 0 when @pattern compiles as a POSIX ERE with at
 * least two groups; else FL_EINVAL with @err saying why.
 */
int fl_pattern_check(const char *pattern, fl_error *err);

#endif
