/* SPDX-License-Identifier: MIT */
/*
 * fabriclint/fabric.h — the fabric model: nodes, ports, links, attributes,
 * provenance (DESIGN.md §4), and the read-only accessors every rule uses.
 *
 * Storage is index based: nodes, ports and links live in arrays and are named
 * by dense fl_id values; strings are interned and owned by the fabric. After
 * fl_fabric_finalize() the fabric is read-only, and every pointer returned by
 * an accessor stays valid until fl_fabric_free().
 *
 * Ports of one node occupy a contiguous id range ordered by port number
 * (fl_fabric_node_first_port()/fl_fabric_node_port_count()); only ports that
 * some input mentions exist, so a 64-port switch with 10 cabled ports has 10
 * port records. A port can carry several links only in broken inputs
 * (a port connected twice); fl_fabric_port_link() returns the first.
 *
 * Accessors do not check ids beyond an assert-free bounds test: an id out of
 * range returns 0, NULL or FL_NONE as documented, never crashes.
 */
#ifndef FABRICLINT_FABRIC_H
#define FABRICLINT_FABRIC_H

#include <stddef.h>
#include <stdint.h>

#include "fabriclint/error.h"
#include "fabriclint/types.h"

#include "fabriclint/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/** fl_fabric — opaque fabric model. Create with fl_fabric_new(). */
typedef struct fl_fabric fl_fabric;

/**
 * fl_fabric_new() — an empty fabric, ready for loaders.
 * Returns NULL when out of memory. Free with fl_fabric_free().
 */
FL_EXTERN(fl_fabric *) fl_fabric_new(void);

/** fl_fabric_free() — free @fab and everything it owns. NULL is a no-op. */
FL_EXTERN(void) fl_fabric_free(fl_fabric *fab);

/**
 * fl_fabric_finalize() — end the loading phase: sort ports per node, index
 * links per port and attributes per element, derive systems/devices from
 * node descriptions and tiers from the shape where inputs gave none, and build
 * the igraph view (vertex = node, edge = link).
 * Tier derivation: CAs are tier 0; switches are ranked up*\/down* over the
 * switch graph from the leaves that hold most compute endpoints (SHARP
 * Aggregation Nodes and CAs with a non-compute role attribute are no
 * endpoints; the ASICs of one director chassis are one switch), so service
 * hosts on a core and management leaves do not reshape the tree; switches in
 * a switch-graph component without endpoints stay FL_TIER_UNKNOWN (details:
 * docs/architecture.md, core/model/derive.c). Cost O(nodes + ports + links)
 * plus sorting.
 * Returns FL_OK, or FL_ENOMEM with @err set. Calling it twice is an error
 * (FL_EINVAL).
 */
FL_EXTERN(int) fl_fabric_finalize(fl_fabric *fab, fl_error *err);

/* ---- counts ---------------------------------------------------------- */

/** Number of nodes (switches + CAs + routers). */
FL_EXTERN(uint32_t) fl_fabric_node_count(const fl_fabric *fab);
/** Number of port records (only ports mentioned by some input). */
FL_EXTERN(uint32_t) fl_fabric_port_count(const fl_fabric *fab);
/** Number of links (cables). */
FL_EXTERN(uint32_t) fl_fabric_link_count(const fl_fabric *fab);
/** Number of nodes of @kind (FL_NODE_*). */
FL_EXTERN(uint32_t) fl_fabric_count_kind(const fl_fabric *fab, uint32_t kind);

/* ---- nodes ----------------------------------------------------------- */

/** Kind of node @n: FL_NODE_SWITCH, FL_NODE_CA or FL_NODE_ROUTER; 0 if bad id.
 */
FL_EXTERN(uint32_t) fl_fabric_node_kind(const fl_fabric *fab, fl_id n);
/**
 * Display name of node @n: the design name, else the node-name-map entry,
 * else the node description (NodeDescription, IBA 14.2.5.2) trimmed, else
 * the GUID as 0x%016x. When two or more nodes would share a display name
 * (switches often keep the factory NodeDescription, e.g. "Quantum Mellanox
 * Technologies"), each of them with a GUID of its own is named "<name>
 * (0x<16 hex GUID>)" instead, so names, messages and finding fingerprints
 * tell them apart; fl_fabric_node_desc() keeps the shared text. Never NULL
 * for a valid id; "" for a bad id.
 */
FL_EXTERN(const char *) fl_fabric_node_name(const fl_fabric *fab, fl_id n);
/**
 * fl_fabric_node_base_name() — the name node @n had before
 * fl_fabric_node_name() told it apart from nodes of the same name by its
 * GUID: "leaf01 (0x0002c90301000001)" -> "leaf01" (two planes' leaf01 in
 * one capture); its display name otherwise. Returns the display name (owned
 * by the fabric, as fl_fabric_node_name()) and sets *@len to the length of
 * the base name, a prefix of it (not NUL-terminated there). A bad id gives
 * "" and 0. O(name length).
 */
FL_EXTERN(const char *)
fl_fabric_node_base_name(const fl_fabric *fab, fl_id n, size_t *len);
/** Raw node description as discovered ("" when none). */
FL_EXTERN(const char *) fl_fabric_node_desc(const fl_fabric *fab, fl_id n);
/** Node GUID, 0 when unknown (designs). */
FL_EXTERN(uint64_t) fl_fabric_node_guid(const fl_fabric *fab, fl_id n);
/** System image GUID, 0 when unknown. */
FL_EXTERN(uint64_t) fl_fabric_node_sysimgguid(const fl_fabric *fab, fl_id n);
/** Vendor id (24-bit IEEE OUI) and device id; 0 when unknown. */
FL_EXTERN(uint32_t) fl_fabric_node_vendid(const fl_fabric *fab, fl_id n);
FL_EXTERN(uint32_t) fl_fabric_node_devid(const fl_fabric *fab, fl_id n);
/**
 * System (host or chassis) of node @n: e.g. "dgx-001" for the description
 * "dgx-001 mlx5_0"; "" when unknown.
 */
FL_EXTERN(const char *) fl_fabric_node_system(const fl_fabric *fab, fl_id n);
/** Device of node @n within its system, e.g. "mlx5_0"; "" when unknown. */
FL_EXTERN(const char *) fl_fabric_node_device(const fl_fabric *fab, fl_id n);
/**
 * Declared port count (NodeInfo NumPorts, which excludes switch port 0), or
 * the design's `ports`; 0 when unknown.
 */
FL_EXTERN(uint32_t) fl_fabric_node_nports(const fl_fabric *fab, fl_id n);
/**
 * Tier: 0 for CAs, 1 for leaves, 2 for spines, 3 for cores...; from the
 * `tier` attribute when an input gave one, else derived (finalize()).
 * FL_TIER_UNKNOWN when neither.
 */
FL_EXTERN(uint32_t) fl_fabric_node_tier(const fl_fabric *fab, fl_id n);
/** 1 when the tier of @n was derived from the shape, 0 when given. */
FL_EXTERN(int) fl_fabric_node_tier_derived(const fl_fabric *fab, fl_id n);
/** First port id of node @n (ports are contiguous, by ascending number). */
FL_EXTERN(fl_id) fl_fabric_node_first_port(const fl_fabric *fab, fl_id n);
/** Number of port records of node @n. */
FL_EXTERN(uint32_t) fl_fabric_node_port_count(const fl_fabric *fab, fl_id n);
/**
 * fl_fabric_find_port() — port @num of node @n, or FL_NONE. O(log ports).
 */
FL_EXTERN(fl_id)
fl_fabric_find_port(const fl_fabric *fab, fl_id n, uint32_t num);
/**
 * fl_fabric_find_node_guid() — the node whose node GUID is @guid, or FL_NONE.
 * With duplicate GUIDs, the first loaded. O(1) expected.
 */
FL_EXTERN(fl_id) fl_fabric_find_node_guid(const fl_fabric *fab, uint64_t guid);
/**
 * fl_fabric_find_node_name() — the node whose display name is @name
 * (exact, case-sensitive), or FL_NONE. O(1) expected.
 */
FL_EXTERN(fl_id)
fl_fabric_find_node_name(const fl_fabric *fab, const char *name);

/* ---- ports ----------------------------------------------------------- */

/** Node owning port @p (FL_NONE for a bad id). */
FL_EXTERN(fl_id) fl_fabric_port_node(const fl_fabric *fab, fl_id p);
/** Port number (1-based for physical ports; 0 is a switch's management port).
 */
FL_EXTERN(uint32_t) fl_fabric_port_num(const fl_fabric *fab, fl_id p);
/** Port GUID, 0 when unknown. */
FL_EXTERN(uint64_t) fl_fabric_port_guid(const fl_fabric *fab, fl_id p);
/** Base LID of the port (switches: port 0 LID), 0 when unassigned/unknown. */
FL_EXTERN(uint32_t) fl_fabric_port_lid(const fl_fabric *fab, fl_id p);
/** LMC of the port: the port answers LIDs lid .. lid + 2^lmc - 1. */
FL_EXTERN(uint32_t) fl_fabric_port_lmc(const fl_fabric *fab, fl_id p);
/** Front-panel or OS label ("swp1", "Ethernet1/1"); "" when none. */
FL_EXTERN(const char *) fl_fabric_port_label(const fl_fabric *fab, fl_id p);
/** Number of links attached to port @p: 0, 1, or more in broken inputs. */
FL_EXTERN(uint32_t) fl_fabric_port_link_count(const fl_fabric *fab, fl_id p);
/** The @i-th link of port @p (by link id order), or FL_NONE. */
FL_EXTERN(fl_id) fl_fabric_port_link(const fl_fabric *fab, fl_id p, uint32_t i);
/**
 * The port at the other end of link @l from port @p, or FL_NONE when @p is
 * not an end of @l. A self-loop cable on one port returns @p.
 */
FL_EXTERN(fl_id) fl_fabric_link_other(const fl_fabric *fab, fl_id l, fl_id p);

/* ---- links ----------------------------------------------------------- */

/** End @end (0 = A, 1 = B) of link @l, a port id; FL_NONE for bad input. */
FL_EXTERN(fl_id)
fl_fabric_link_port(const fl_fabric *fab, fl_id l, uint32_t end);
/** Active (as-built) or planned (design) width of link @l, in lanes; 0 unknown.
 */
FL_EXTERN(uint32_t) fl_fabric_link_width(const fl_fabric *fab, fl_id l);
/** Speed code of link @l (FL_SPEED_*). */
FL_EXTERN(uint32_t) fl_fabric_link_speed(const fl_fabric *fab, fl_id l);
/**
 * Width and speed as listed from end B when they differ from end A's listing
 * (FL_LINK_WIDTH_MISMATCH / FL_LINK_SPEED_MISMATCH); otherwise equal to
 * fl_fabric_link_width()/fl_fabric_link_speed().
 */
FL_EXTERN(uint32_t) fl_fabric_link_width_b(const fl_fabric *fab, fl_id l);
FL_EXTERN(uint32_t) fl_fabric_link_speed_b(const fl_fabric *fab, fl_id l);
/** FL_LINK_* flags of link @l. */
FL_EXTERN(uint32_t) fl_fabric_link_flags(const fl_fabric *fab, fl_id l);
/** Nominal bandwidth of link @l in Gb/s: width x lane rate (0 if unknown). */
FL_EXTERN(double) fl_fabric_link_gbps(const fl_fabric *fab, fl_id l);

/* ---- attributes and provenance -------------------------------------- */

/**
 * fl_fabric_attr() — value of attribute @key on element (@ent_kind, @id),
 * where @ent_kind is FL_ENT_NODE, FL_ENT_PORT or FL_ENT_LINK; NULL when the
 * element has no such attribute. Known keys (DESIGN.md §4): tier, rail, su,
 * pod, plane, rack, row, pdu, power-feed, hall, ar, role, cable, length,
 * media. O(attributes of the element).
 */
FL_EXTERN(const char *)
fl_fabric_attr(const fl_fabric *fab, uint32_t ent_kind, fl_id id,
               const char *key);
/** Number of attributes on an element, and the @i-th key/value pair. */
FL_EXTERN(uint32_t)
fl_fabric_attr_count(const fl_fabric *fab, uint32_t ent_kind, fl_id id);
FL_EXTERN(int)
fl_fabric_attr_at(const fl_fabric *fab, uint32_t ent_kind, fl_id id, uint32_t i,
                  const char **key, const char **value);

/**
 * fl_fabric_provenance() — where element (@ent_kind, @id) was read from:
 * the input file path as given, and 1-based line and column (0 = unknown).
 * Outputs may be NULL. Returns FL_OK, or FL_ENOTFOUND for a bad id.
 */
FL_EXTERN(int)
fl_fabric_provenance(const fl_fabric *fab, uint32_t ent_kind, fl_id id,
                     const char **file, uint32_t *line, uint32_t *col);

/**
 * fl_fabric_file_count() — how many files were read into @fab: every input,
 * every file in an input folder, and every file an input pulled in (ibsim
 * `include`), each once. O(1).
 */
FL_EXTERN(uint32_t) fl_fabric_file_count(const fl_fabric *fab);

/**
 * fl_fabric_file_path() — path of the @i-th file read into @fab
 * (0 <= @i < fl_fabric_file_count()), as it was opened ("-" for standard
 * input; includes relative to the including file's folder). Borrowed,
 * valid while @fab lives; NULL for a bad @i. Callers use the list to
 * refuse writing a report over anything the run read.
 */
FL_EXTERN(const char *) fl_fabric_file_path(const fl_fabric *fab, uint32_t i);

/* ---- director chassis --------------------------------------------------
 * A director (NVIDIA CS7500, CS8500/MCS8500, QM9790-class) is discovered as
 * many switch ASICs. fl_fabric_finalize() groups them (core/model/chassis.c;
 * rules and sources: docs/formats/ufm-ndt.md "Director chassis"): switches
 * described `MF0;<name>:<model>/<L|S><nn>/U<k>` with one <name>, and
 * switches cabled to each other that share a non-zero system image GUID.
 * Chassis are numbered 0..fl_fabric_chassis_count()-1 in order of their
 * lowest node id. Tiers treat a chassis as one switch. */

/** Number of director chassis found. O(1). */
FL_EXTERN(uint32_t) fl_fabric_chassis_count(const fl_fabric *fab);
/** Chassis of node @n, or FL_NONE (not a chassis ASIC, or a bad id). O(1). */
FL_EXTERN(uint32_t) fl_fabric_node_chassis(const fl_fabric *fab, fl_id n);
/** Name of chassis @c: the <name> of its MF0 descriptions, else its first
 * ASIC's name; "" for a bad @c. Borrowed. */
FL_EXTERN(const char *)
fl_fabric_chassis_name(const fl_fabric *fab, uint32_t c);
/** Model of chassis @c (`MCS8500`), "" when unknown. Borrowed. */
FL_EXTERN(const char *)
fl_fabric_chassis_model(const fl_fabric *fab, uint32_t c);
/** Number of ASICs (switch nodes) of chassis @c; 0 for a bad @c. */
FL_EXTERN(uint32_t)
fl_fabric_chassis_asic_count(const fl_fabric *fab, uint32_t c);
/**
 * fl_fabric_node_slot() — board position of chassis ASIC @n: @kind
 * FL_BOARD_LEAF / FL_BOARD_SPINE / FL_BOARD_NONE (grouped by GUID only),
 * @board (the nn of L<nn>/S<nn>) and @asic (the k of U<k>), 0 when unknown.
 * Outputs may be NULL. FL_OK, or FL_ENOTFOUND when @n is in no chassis.
 */
FL_EXTERN(int)
fl_fabric_node_slot(const fl_fabric *fab, fl_id n, uint32_t *kind,
                    uint32_t *board, uint32_t *asic);
/** 1 when link @l joins two ASICs of one chassis (a cable inside the
 * chassis, not a fabric cable), else 0. O(1). */
FL_EXTERN(int) fl_fabric_link_internal(const fl_fabric *fab, fl_id l);
/**
 * fl_fabric_port_panel_name() — front-panel name of port @p of a leaf-board
 * ASIC in UFM NDT spelling, `Blade <bb>_Port <k>/<port>` (board L<bb>,
 * ASIC U<k>), into @buf (@size bytes, NUL-terminated). Returns the length,
 * 0 (and "") when @p is not a front-panel port (not a leaf-board ASIC port,
 * or cabled inside the chassis).
 */
FL_EXTERN(size_t)
fl_fabric_port_panel_name(const fl_fabric *fab, fl_id p, char *buf,
                          size_t size);
/**
 * fl_fabric_chassis_panel_port() — the ASIC port a front-panel name of
 * chassis @c stands for: `Blade b_Port k/port` is port @port of the ASIC
 * `L<b>/U<k>` (*@node). The port record need not exist (an empty port).
 * FL_OK, or FL_ENOTFOUND when @label is no such name or the chassis has no
 * such ASIC. O(ASICs of the chassis).
 */
FL_EXTERN(int)
fl_fabric_chassis_panel_port(const fl_fabric *fab, uint32_t c,
                             const char *label, fl_id *node, uint32_t *port);

/* ---- vocabulary helpers ---------------------------------------------- */

/** Name of speed @speed: "SDR".."XDR", "100G".., or "??". Never NULL. */
FL_EXTERN(const char *) fl_speed_name(uint32_t speed);
/** Parse a speed name ("HDR", "hdr", "400G", "FDR10"); FL_SPEED_UNKNOWN if not.
 */
FL_EXTERN(uint32_t) fl_speed_parse(const char *s, size_t len);
/** Nominal lane rate of @speed in Gb/s (whole-port rate for Ethernet). */
FL_EXTERN(double) fl_speed_lane_gbps(uint32_t speed);
/** Parse a width ("4x", "4X", "12x", "2x"); returns lanes, 0 if not a width. */
FL_EXTERN(uint32_t) fl_width_parse(const char *s, size_t len);
/** Name of kind @kind: "switch", "ca", "router", or "?". */
FL_EXTERN(const char *) fl_node_kind_name(uint32_t kind);

#ifdef __cplusplus
}
#endif
#endif /* FABRICLINT_FABRIC_H */
