/* SPDX-License-Identifier: MIT */
/*
 * fabriclint/planes.h — the planes of a multi-plane fabric: several
 * InfiniBand subnets (or RoCE planes) side by side in one model, each with
 * its own switches, LID space, LFTs and SL2VL tables, sharing the hosts (a
 * host's NIC k lives in plane k). Read-only after fl_fabric_finalize().
 *
 * Where planes come from (fl_fabric_planes_source()), in this order:
 *  1. `plane` attributes: design XML `plane` on a node or port, an
 *     annotation file, or `--plane NAME:FILE` (fl_load_options.plane), which
 *     gives every node an input adds that plane. A switch without one takes
 *     the plane of the tagged switches it is cabled to.
 *  2. detection, when no element carries a `plane` attribute: the switch
 *     graph has two or more components (connectivity never runs through a
 *     CA), every component has LIDs, and each component reuses a LID that
 *     another component also uses. One subnet's LIDs are unique (IBA
 *     4.1.3), so such components cannot be one subnet: each is a plane,
 *     named "1", "2", ... by the NIC position most compute hosts' ports in
 *     it have (a host's k-th port, devices in natural order, mod the plane
 *     count: plane k holds the NICs k), then by its first switch name
 *     (natural order), then its lowest switch GUID; never by input order.
 *     Components with disjoint LIDs are a broken subnet, not planes, and
 *     stay one plane (topology.disconnected reports them).
 *  3. otherwise the fabric has no planes (fl_fabric_plane_count() 0).
 *
 * Plane of an element: a switch or router, its plane; a CA port, the plane
 * of the switch at the other end of its first cable (where it is cabled,
 * whatever its tag says), else its own `plane` attribute (port, then node);
 * a CA node, the plane of its ports when they agree, else FL_NONE (a
 * dual-plane NIC). Plane names are ordered naturally ("2" before "10",
 * "A" before "B"); plane index k is the k-th name in that order.
 */
#ifndef FABRICLINT_PLANES_H
#define FABRICLINT_PLANES_H

#include <stdint.h>

#include "fabriclint/common.h"
#include "fabriclint/error.h"
#include "fabriclint/fabric.h"

#ifdef __cplusplus
extern "C" {
#endif

/** fl_fabric_planes_source() values: how the planes were found. */
#define FL_PLANES_NONE     0u /**< one plane (no planes) */
#define FL_PLANES_ATTR     1u /**< `plane` attributes or --plane tags */
#define FL_PLANES_DETECTED 2u /**< disconnected switch components, own LIDs */

/** Number of planes (0 when the fabric has none: one subnet). O(1). */
FL_EXTERN(uint32_t) fl_fabric_plane_count(const fl_fabric *fab);

/** Name of plane @i (0-based, natural order), or NULL past the end. Owned
 * by the fabric. */
FL_EXTERN(const char *) fl_fabric_plane_name(const fl_fabric *fab, uint32_t i);

/** How the planes were found: FL_PLANES_*. */
FL_EXTERN(uint32_t) fl_fabric_planes_source(const fl_fabric *fab);

/** Plane index of node @n (see the header comment), or FL_NONE (no planes,
 * a CA cabled into several planes, an unknown id). O(1). */
FL_EXTERN(uint32_t) fl_fabric_node_plane(const fl_fabric *fab, fl_id n);

/** Plane index of port @p (a CA port: where it is cabled), or FL_NONE.
 * O(1). */
FL_EXTERN(uint32_t) fl_fabric_port_plane(const fl_fabric *fab, fl_id p);

/**
 * fl_fabric_port_home_plane() — the plane port @p belongs in, as opposed to
 * the plane it is cabled into (fl_fabric_port_plane()): a CA port's own
 * `plane` tag (port, then node) when it names a plane; else, for a CA of a
 * compute host (a `system`, no `role` other than "compute") with two or
 * more ports cabled into planes, the plane its position implies: the
 * host's k-th such port (devices in natural order, then port number) is in
 * plane k mod N, the default profile of planes.host-planes; else (switch
 * ports, one-port hosts, service hosts) where it is cabled. A port whose
 * home plane differs from where it is cabled is misplaced: planes.host-
 * planes (or failure-domains.plane-crossing, when tagged) reports it, and
 * the plane subset marks it (fl_fabric_plane_subset()). Plane index, or
 * FL_NONE (no planes, uncabled and untagged, unknown id). O(1).
 */
FL_EXTERN(uint32_t) fl_fabric_port_home_plane(const fl_fabric *fab, fl_id p);

/**
 * fl_fabric_plane_subset() — a new, finalized fabric holding plane @plane of
 * @fab alone: its switches and routers, the CA nodes with a port in it
 * (with only those ports), the cables between them, their attributes,
 * provenance (same file paths, lines, columns), LFT rows, SL2VL tables,
 * path SLs and AR tables, and the loader notes of inputs tagged with that
 * plane (untagged inputs' notes go to plane 0). Node names are @fab's
 * display names. A CA port cabled into the plane whose home plane
 * (fl_fabric_port_home_plane()) is another one is copied (it is in this
 * subnet: it has a LID here and the LFTs route to it) with the attribute
 * `home-plane` = its home plane's name, so that rules judging the plane's
 * structure (rail-alignment) leave it to the cross-plane rules. Port
 * counters of its ports are copied (fl_counters_copy_plane(), internal):
 * a LID-keyed record of a --plane input maps within that plane. The subset has
 * one LID space, so every per-subnet analysis runs on it unchanged. *@out is
 * the caller's (fl_fabric_free()). FL_OK, FL_EINVAL (@fab not finalized, @plane
 * out of range), FL_ENOMEM. O(V + E + LFT bytes of the plane).
 */
FL_EXTERN(int)
fl_fabric_plane_subset(const fl_fabric *fab, uint32_t plane, fl_fabric **out,
                       fl_error *err);

/** fl_fabric_plane_subset_ex() flag: name each node of the subset by its
 * name without the " (0x<GUID>)" that fl_fabric_node_name() adds when
 * another plane has a node of the same name (leaf01 of plane 2 is "leaf01"
 * in plane 2's subset, as the plane's own capture names it; a name that
 * repeats within the plane keeps its GUID). Used by `diff` to compare a
 * plan of one plane with that plane of a multi-plane capture. */
#define FL_SUBSET_BASE_NAMES 1u

/**
 * fl_fabric_plane_subset_ex() — fl_fabric_plane_subset() with @flags
 * (FL_SUBSET_* bits; 0 is fl_fabric_plane_subset()). Same ownership,
 * errors and cost.
 */
FL_EXTERN(int)
fl_fabric_plane_subset_ex(const fl_fabric *fab, uint32_t plane, unsigned flags,
                          fl_fabric **out, fl_error *err);

#ifdef __cplusplus
}
#endif
#endif
