/* SPDX-License-Identifier: MIT */
/*
 * core/model/build.h — the loaders' side of the fabric model (internal to the
 * core).
 *
 * Loaders add nodes, ports, links and attributes through these functions, in
 * any order, before fl_fabric_finalize(). Each added element records its
 * provenance: the file id from fl_b_file() and a 1-based line and column.
 * Strings are copied (interned); callers keep ownership of what they pass.
 *
 * All functions that allocate return FL_NONE (ids) or a negative FL_E* code
 * on allocation failure; loaders turn that into fl_error_set(err, FL_ENOMEM).
 */
#ifndef FABRICLINT_CORE_BUILD_H
#define FABRICLINT_CORE_BUILD_H

#include <stddef.h>
#include <stdint.h>

#include "fabriclint/fabric.h"

/** Provenance of one element: file id (fl_b_file), line, column (1-based). */
typedef struct fl_prov {
  uint32_t file;
  uint32_t line;
  uint32_t col;
} fl_prov;

/** fl_b_file() — register input file @path; returns its file id. */
uint32_t fl_b_file(fl_fabric *fab, const char *path);

/** fl_b_file_path() — path of file id @file ("" when unknown). */
const char *fl_b_file_path(const fl_fabric *fab, uint32_t file);

/**
 * fl_b_intern() — intern @len bytes of @s; returns an atom (0 is the empty
 * string), or UINT32_MAX when out of memory. Same bytes, same atom.
 */
uint32_t fl_b_intern(fl_fabric *fab, const char *s, size_t len);

/** fl_b_atom_str() — the NUL-terminated string of atom @atom. */
const char *fl_b_atom_str(const fl_fabric *fab, uint32_t atom);

/**
 * fl_b_adopt_atoms() — give new fabric @fab (nothing added to it yet) a
 * copy of @src's atoms, so that every atom of @src names the same string in
 * @fab and a copy of @src's records (fl_fabric_plane_subset()) can take
 * them as they are instead of interning each string again. FL_OK,
 * FL_EINVAL when @fab already holds strings, FL_ENOMEM.
 */
int fl_b_adopt_atoms(fl_fabric *fab, const fl_fabric *src);

/**
 * fl_b_reserve() — make room for @nodes nodes, @ports ports and @links
 * links in all, and in the GUID indexes (a copy that knows its size), so
 * that adding them grows no array. FL_OK or FL_ENOMEM (what was reserved
 * before the failure stays reserved).
 */
int fl_b_reserve(fl_fabric *fab, size_t nodes, size_t ports, size_t links);

/**
 * fl_b_node() — add a node of @kind (FL_NODE_*) with node GUID @guid (0 when
 * unknown), declared port count @nports (0 unknown). Returns its id.
 * Duplicate GUIDs are allowed (topology.duplicate-guid reports them).
 */
fl_id fl_b_node(fl_fabric *fab, uint32_t kind, uint64_t guid, uint32_t nports,
                fl_prov prov);

/** Setters for node fields; strings are interned (len may be (size_t)-1 for
 * strlen). */
void fl_b_node_set_name(fl_fabric *fab, fl_id n, const char *name, size_t len);
void fl_b_node_set_desc(fl_fabric *fab, fl_id n, const char *desc, size_t len);
void fl_b_node_set_system(fl_fabric *fab, fl_id n, const char *sys, size_t len);
void fl_b_node_set_device(fl_fabric *fab, fl_id n, const char *dev, size_t len);
void fl_b_node_set_ids(fl_fabric *fab, fl_id n, uint32_t vendid, uint32_t devid,
                       uint64_t sysimgguid);
void fl_b_node_set_nports(fl_fabric *fab, fl_id n, uint32_t nports);
/** Set the tier as given by an input (not derived). */
void fl_b_node_set_tier(fl_fabric *fab, fl_id n, uint32_t tier);

/**
 * fl_b_port() — port @num of node @n, created on first use (find-or-create,
 * O(1) expected). @prov is recorded on creation only. Port numbers beyond the
 * node's declared count are accepted (topology.port-out-of-range reports
 * them). Returns the port id (a build-time id: finalize renumbers ports so
 * each node's ports are contiguous, and fixes links accordingly).
 */
fl_id fl_b_port(fl_fabric *fab, fl_id n, uint32_t num, fl_prov prov);

/** fl_b_port_find() — existing port @num of @n, or FL_NONE. */
fl_id fl_b_port_find(const fl_fabric *fab, fl_id n, uint32_t num);

void fl_b_port_set_guid(fl_fabric *fab, fl_id p, uint64_t guid);
void fl_b_port_set_lid(fl_fabric *fab, fl_id p, uint32_t lid, uint32_t lmc);
void fl_b_port_set_label(fl_fabric *fab, fl_id p, const char *label,
                         size_t len);

/**
 * fl_b_link() — add a link between ports @a and @b with @width (lanes),
 * @speed (FL_SPEED_*) and FL_LINK_* @flags. Returns the link id.
 * The loader is responsible for merging the two listings of one cable
 * (ibnetdiscover lists each cable from both ends) before calling this.
 */
fl_id fl_b_link(fl_fabric *fab, fl_id a, fl_id b, uint32_t width,
                uint32_t speed, uint32_t flags, fl_prov prov);

/** Record end B's listing of width/speed and set the mismatch flags if they
 * differ. */
void fl_b_link_set_b_listing(fl_fabric *fab, fl_id l, uint32_t width_b,
                             uint32_t speed_b);
void fl_b_link_add_flags(fl_fabric *fab, fl_id l, uint32_t flags);

/**
 * fl_b_attr() — set attribute @key = @value on element (@ent_kind, @id).
 * Setting a key twice keeps the last value. Keys and values are interned.
 * The key "tier" on a node also sets the node's tier when it is a number.
 * Returns FL_OK or FL_ENOMEM.
 */
int fl_b_attr(fl_fabric *fab, uint32_t ent_kind, fl_id id, const char *key,
              const char *value);

/** fl_b_node_count()/fl_b_link_count() — counts during loading. */
uint32_t fl_b_node_count(const fl_fabric *fab);

/** fl_b_is_finalized() — 1 after fl_fabric_finalize(). */
int fl_b_is_finalized(const fl_fabric *fab);

/* ---- routing state (core/routing.c) ------------------------------------ */

/**
 * fl_b_lft_row() — the writable LFT of switch @sw with room for LIDs
 * 0..@top, created filled with FL_LFT_NONE or grown (keeping entries) when
 * @top exceeds the current size. Returns NULL on ENOMEM or when @top >
 * FL_MAX_UCAST_LID. Loaders write entries straight into the row.
 */
uint8_t *fl_b_lft_row(fl_fabric *fab, fl_id sw, uint32_t top);

/**
 * fl_b_lid_hint() — a routing dump says LID @lid belongs to port GUID
 * @port_guid (or, for a switch, node/port-0 GUID). At finalize, a port with
 * that GUID and no LID of its own takes @lid. Returns FL_OK or FL_ENOMEM.
 */
int fl_b_lid_hint(fl_fabric *fab, uint32_t lid, uint64_t port_guid);

/**
 * fl_b_sl2vl() — set the SL-to-VL table of (@node, @in_port, @out_port):
 * @vl[16], one VL (0..15) per SL. Returns FL_OK or FL_ENOMEM.
 */
int fl_b_sl2vl(fl_fabric *fab, fl_id node, uint32_t in_port, uint32_t out_port,
               const uint8_t vl[16]);

/** fl_b_path_sl() — the SL of the path from CA node @src to @dlid. */
int fl_b_path_sl(fl_fabric *fab, fl_id src, uint32_t dlid, uint32_t sl);

/** fl_b_port_by_guid() — during loading: the port with GUID @guid (a CA
 * port, or a switch's port 0 / node GUID), or FL_NONE. Builds its index on
 * first use; O(1) expected after that. */
fl_id fl_b_port_by_guid(fl_fabric *fab, uint64_t guid);

/** fl_b_node_by_guid() — during loading: first node with node GUID @guid. */
fl_id fl_b_node_by_guid(fl_fabric *fab, uint64_t guid);

/**
 * fl_b_note() — record a non-fatal problem found in an input (e.g. an LFT
 * block for a switch GUID the topology lacks), with its location and a
 * category ("routing", "topology"). Rules report notes as findings
 * (fl_fabric_note()). printf-style message.
 */
void fl_b_note(fl_fabric *fab, const char *category, fl_prov prov,
               const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

/* ---- adaptive-routing tables (core/routing.c, loaded by core/ar_load.c) -- */

/** fl_b_ar_switch() — mark switch @sw as having AR tables (possibly empty). */
int fl_b_ar_switch(fl_fabric *fab, fl_id sw);

/**
 * fl_b_ar_group() — add the ports of bitmap @ports (bit p%8 of byte p/8) to
 * AR group @group (0..65535) of switch @sw; sub-groups of one group are
 * added one call each and end up united. FL_OK, FL_EINVAL, FL_ENOMEM.
 */
int fl_b_ar_group(fl_fabric *fab, fl_id sw, uint32_t group,
                  const uint8_t ports[32]);

/**
 * fl_b_ar_lid() — AR LFT entry of switch @sw for @lid: @state
 * (FL_AR_STATE_*) and AR group @group. FL_OK, FL_EINVAL, FL_ENOMEM.
 */
int fl_b_ar_lid(fl_fabric *fab, fl_id sw, uint32_t lid, uint32_t state,
                uint32_t group);

#endif /* FABRICLINT_CORE_BUILD_H */
