/* SPDX-License-Identifier: MIT */
/*
 * fabriclint/routing.h — routing state attached to a fabric: linear
 * forwarding tables (LFTs), the LID -> port map, SL-to-VL tables and path
 * service levels; read-only after fl_fabric_finalize().
 *
 * Sources of the state (loaders in core/io/, one file per format):
 *  - LFTs: OpenSM `opensm-lfts.dump` (osm_dump.c dump_ucast_lfts),
 *    `ibroute` / `dump_fts` / `dump_lfts.sh` output (infiniband-diags
 *    ibroute.c dump_unicast_tables), OpenSM `opensm.fdbs`
 *    (dump_ucast_routes).
 *  - SL2VL: OpenSM `opensm-sl2vl.dump` (dump_sl2vl_tbl), `smpquery sl2vl`.
 *  - Path SLs: the `ibdmchk -c` / ibdiagnet path-SL file
 *    (`0x<source CA node GUID> <DLID> <SL>` per line).
 *
 * One fabric holds one InfiniBand subnet's LID space (IBA 4.1.3: unicast
 * LIDs 0x0001-0xBFFF). An LFT entry is an output port number; FL_LFT_NONE
 * (255, "no route") marks an unrouted LID, as in the switch's table.
 */
#ifndef FABRICLINT_ROUTING_H
#define FABRICLINT_ROUTING_H

#include <stdint.h>

#include "fabriclint/common.h"
#include "fabriclint/fabric.h"

#ifdef __cplusplus
extern "C" {
#endif

/** LFT entry meaning "no route" (IBA 14.2.5.10: port 255 = invalid). */
#define FL_LFT_NONE 255u
/** Largest unicast LID (IBA 4.1.3). */
#define FL_MAX_UCAST_LID 0xbfffu
/** VL value meaning "no SL2VL table known". */
#define FL_VL_UNKNOWN 255u
/** SL value meaning "no path SL known" (routing then uses SL 0). */
#define FL_SL_UNKNOWN 255u

/** Number of switches that have an LFT. */
FL_EXTERN(uint32_t) fl_fabric_lft_count(const fl_fabric *fab);

/**
 * fl_fabric_lft() — the LFT of switch @sw: an array of *@len entries indexed
 * by LID (entry 0 unused), each an output port number or FL_LFT_NONE.
 * Returns NULL (and *@len = 0) when @sw has no LFT. Owned by the fabric.
 */
FL_EXTERN(const uint8_t *)
fl_fabric_lft(const fl_fabric *fab, fl_id sw, uint32_t *len);

/** Largest LID any port answers to (0 when no LIDs are known). */
FL_EXTERN(uint32_t) fl_fabric_max_lid(const fl_fabric *fab);

/**
 * fl_fabric_lid_port() — the port that answers LID @lid: a switch's port 0,
 * or a CA/router port whose [base LID, base LID + 2^LMC) range holds @lid.
 * FL_NONE when no port answers. O(1).
 */
FL_EXTERN(fl_id) fl_fabric_lid_port(const fl_fabric *fab, uint32_t lid);

/** 1 when some SL2VL table was loaded. */
FL_EXTERN(int) fl_fabric_has_sl2vl(const fl_fabric *fab);

/**
 * fl_fabric_sl2vl() — the VL that a packet of service level @sl leaving
 * node @node through port @out_port gets, having entered through
 * @in_port (0 for traffic a CA sends, as in OpenSM's CA rows `0 0 :`).
 * FL_VL_UNKNOWN when no table covers (@node, @in_port, @out_port).
 */
FL_EXTERN(uint32_t)
fl_fabric_sl2vl(const fl_fabric *fab, fl_id node, uint32_t in_port,
                uint32_t out_port, uint32_t sl);

/** 1 when path SLs were loaded (LASH, DFSSSP, Nue, Torus-2QoS routing). */
FL_EXTERN(int) fl_fabric_has_path_sl(const fl_fabric *fab);

/**
 * fl_fabric_path_sl() — the SL of the path from CA node @src to @dlid, or
 * FL_SL_UNKNOWN when none was given.
 */
FL_EXTERN(uint32_t)
fl_fabric_path_sl(const fl_fabric *fab, fl_id src, uint32_t dlid);

/**
 * Loader notes: non-fatal problems found in inputs (an LFT block for a
 * switch the topology lacks, an entry naming a port the switch does not
 * have, a LID no port answers). fl_fabric_note_count() gives how many;
 * fl_fabric_note() the @i-th: its category ("routing", "topology"), input
 * file, line and message (all owned by the fabric). FL_ENOTFOUND past the
 * end.
 */
FL_EXTERN(uint32_t) fl_fabric_note_count(const fl_fabric *fab);
FL_EXTERN(int)
fl_fabric_note(const fl_fabric *fab, uint32_t i, const char **category,
               const char **file, uint32_t *line, const char **message);

/* ---- adaptive routing (AR) tables ---------------------------------------
 * Loaded from ibdiagnet's `ibdiagnet2.far` dump (core/ar_load.c, whose
 * header gives the grammar): per AR switch, an AR group table (group number ->
 * member ports, the union of its sub-groups) and an AR LFT giving, per LID,
 * the AR state and the AR group. The entry's static port is the ordinary
 * LFT entry (fl_fabric_lft()). A switch with no AR data has none of this;
 * design inputs express AR only as the `ar` attribute on switches.
 */

/** AR LFT states (fl_fabric_ar_lid_state()); 0 = no entry for the LID. */
#define FL_AR_STATE_STATIC 1u /**< "Static": the static port only */
#define FL_AR_STATE_HBF    2u /**< "HBF": hash-based forwarding in the group */
#define FL_AR_STATE_FREE   3u /**< "Free": adaptive choice in the group */

/** Number of switches with AR tables loaded. */
FL_EXTERN(uint32_t) fl_fabric_ar_count(const fl_fabric *fab);

/** 1 when switch @sw has AR tables loaded, else 0. */
FL_EXTERN(int) fl_fabric_ar_has(const fl_fabric *fab, fl_id sw);

/**
 * fl_fabric_ar_lid_state() / fl_fabric_ar_lid_group() — the AR LFT of
 * switch @sw: arrays of *@len entries indexed by LID; state FL_AR_STATE_* (0
 * where the dump had no entry) and AR group number. NULL and *@len = 0 when
 * @sw has no AR LFT. Owned by the fabric.
 */
FL_EXTERN(const uint8_t *)
fl_fabric_ar_lid_state(const fl_fabric *fab, fl_id sw, uint32_t *len);
FL_EXTERN(const uint16_t *)
fl_fabric_ar_lid_group(const fl_fabric *fab, fl_id sw, uint32_t *len);

/** One more than the largest AR group number defined on @sw (0: none). */
FL_EXTERN(uint32_t) fl_fabric_ar_group_count(const fl_fabric *fab, fl_id sw);

/**
 * fl_fabric_ar_group() — member ports of AR group @group of switch @sw as a
 * bitmap (bit p%8 of @ports[p/8] set for port p; @ports may be NULL).
 * Returns the number of member ports, or FL_ENOTFOUND when the group is
 * not defined.
 */
FL_EXTERN(int)
fl_fabric_ar_group(const fl_fabric *fab, fl_id sw, uint32_t group,
                   uint8_t ports[32]);

#ifdef __cplusplus
}
#endif
#endif
