/* SPDX-License-Identifier: MIT */
/*
 * fabriclint/types.h — fixed-width vocabulary shared by the core, the CLI and
 * every plugin: ids, node kinds, link widths and speeds, severities, flags.
 *
 * Everything here is plain data (macros and fixed-width typedefs) so that it
 * can cross the plugin ABI boundary unchanged (DESIGN.md §3: "fixed-width
 * integer fields only"). Enumerations are #defines on uint32_t, never C enums,
 * because an enum's size is implementation-defined.
 */
#ifndef FABRICLINT_TYPES_H
#define FABRICLINT_TYPES_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * fl_id — a dense index of a node, port or link inside one loaded fabric.
 * Node i is igraph vertex i and link j is igraph edge j (DESIGN.md §1).
 * Ids are stable for the life of the fabric object and are assigned in load
 * order, so the same inputs always give the same ids.
 */
typedef uint32_t fl_id;

/** FL_NONE — "no such element" (e.g. the link of an unconnected port). */
#define FL_NONE ((fl_id)0xffffffffu)

/** Node kinds, as in the IBA NodeInfo NodeType (IBA vol. 1, 14.2.5.3). */
#define FL_NODE_SWITCH 1u
#define FL_NODE_CA     2u
#define FL_NODE_ROUTER 3u

/** Entity kinds, for attributes and provenance lookups. */
#define FL_ENT_NODE 1u
#define FL_ENT_PORT 2u
#define FL_ENT_LINK 3u

/**
 * Link speeds. InfiniBand codes follow PortInfo LinkSpeedActive /
 * LinkSpeedExtActive / LinkSpeedExtActive2 as printed by ibnetdiscover
 * (rdma-core infiniband-diags, dump_linkspeed_compat /
 * dump_linkspeedext_compat). Ethernet codes are whole-port rates (a width of 1
 * is then recorded). Use fl_speed_lane_gbps() for the nominal lane rate.
 */
#define FL_SPEED_UNKNOWN   0u
#define FL_SPEED_SDR       1u /**< 2.5 Gb/s per lane */
#define FL_SPEED_DDR       2u /**< 5 Gb/s per lane */
#define FL_SPEED_QDR       3u /**< 10 Gb/s per lane */
#define FL_SPEED_FDR10     4u /**< 10 Gb/s per lane (64b/66b, Mellanox ext.) */
#define FL_SPEED_FDR       5u /**< 14 Gb/s per lane */
#define FL_SPEED_EDR       6u /**< 25 Gb/s per lane */
#define FL_SPEED_HDR       7u /**< 50 Gb/s per lane */
#define FL_SPEED_NDR       8u /**< 100 Gb/s per lane */
#define FL_SPEED_XDR       9u /**< 200 Gb/s per lane */
#define FL_SPEED_ETH_1G    20u
#define FL_SPEED_ETH_10G   21u
#define FL_SPEED_ETH_25G   22u
#define FL_SPEED_ETH_40G   23u
#define FL_SPEED_ETH_50G   24u
#define FL_SPEED_ETH_100G  25u
#define FL_SPEED_ETH_200G  26u
#define FL_SPEED_ETH_400G  27u
#define FL_SPEED_ETH_800G  28u
#define FL_SPEED_ETH_1600G 29u

/**
 * Link widths are lane counts: 1, 2, 4, 8 or 12 (IBA LinkWidthActive as
 * printed by ibnetdiscover: 1x 2x 4x 8x 12x). FL_WIDTH_UNKNOWN is `??`.
 */
#define FL_WIDTH_UNKNOWN 0u

/** Finding severities, ordered: a larger value is more severe. */
#define FL_SEV_INFO    1u
#define FL_SEV_WARNING 2u
#define FL_SEV_ERROR   3u

/**
 * Link flags (fl_fabric_link_flags()).
 * A cable in an ibnetdiscover dump is listed once from each end. The loader
 * records which ends listed it; a link listed from one end only is a sign of a
 * truncated or stale capture (topology.one-sided-link).
 */
#define FL_LINK_SEEN_A         0x1u /**< listed by the block of end A */
#define FL_LINK_SEEN_B         0x2u /**< listed by the block of end B */
#define FL_LINK_DECLARED       0x4u /**< declared once as a whole (design, plan) */
#define FL_LINK_WIDTH_MISMATCH 0x8u /**< the two listings disagree on width */
#define FL_LINK_SPEED_MISMATCH                                                 \
  0x10u /**< the two listings disagree on speed                                \
         */
/** A cable inside one system, from the system's definition (an IBNL file
 * expanding a `.topo` system into its ASICs): its two switch ends are one
 * chassis (fl_fabric_node_chassis()). */
#define FL_LINK_IN_SYSTEM 0x20u

/** Board kinds of a director chassis ASIC (fl_fabric_node_slot()): none
 * (a chassis grouped by system image GUID only), a leaf (line) board, whose
 * ASICs carry the front panel, or a spine (fabric) board. */
#define FL_BOARD_NONE  0u
#define FL_BOARD_LEAF  1u
#define FL_BOARD_SPINE 2u

/** Tier value meaning "unknown" (fl_fabric_node_tier()). */
#define FL_TIER_UNKNOWN 0xffffffffu

/** Return codes of fallible core and plugin functions. 0 is success. */
#define FL_OK      0
#define FL_EINVAL  (-1) /**< bad argument or bad option value */
#define FL_EIO     (-2) /**< a file could not be read or written */
#define FL_EPARSE  (-3) /**< an input did not follow its format */
#define FL_ENOMEM  (-4) /**< allocation failed */
#define FL_EPLUGIN (-5) /**< a plugin could not be loaded or failed to run */
#define FL_ENOTFOUND                                                           \
  (-6) /**< a looked-up name, parameter or file is absent                      \
        */

#ifdef __cplusplus
}
#endif
#endif /* FABRICLINT_TYPES_H */
