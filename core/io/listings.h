/* SPDX-License-Identifier: MIT */
/*
 * core/io/listings.h — the cable-listing merger shared by the loaders of
 * dumps that list every cable once from each end (internal): ibnetdiscover
 * output and its -p report, ibsim net files (core/io/ibnd.c, ibnd_ports.c,
 * ibsim_net.c) and iblinkinfo output (core/io/iblinkinfo.c).
 *
 * A loader adds its nodes (fl_ls_add_node: to the fabric and to the loader's
 * own index) and one listing per port line ("local node:port -> peer
 * node:port, width, speed", fl_ls_add_listing), resolves each listing's
 * peer to a node index, then calls fl_ls_merge_links(): each listing A:p ->
 * B:q is merged with B's listing of port q when that one points back at
 * A:p (FL_LINK_SEEN_A | FL_LINK_SEEN_B, the B listing's width/speed kept
 * as end B's when they differ); otherwise it becomes a link seen from one
 * end only (FL_LINK_SEEN_A), and a port two listings claim ends up with two
 * links (the topology plugin reports both cases). Cost O(listings)
 * expected (one hash insert and lookup each).
 *
 * Ownership: an fl_lstate is the loader's (zero-initialise, fl_ls_free()
 * at the end); the fabric copies what it is given.
 */
#ifndef FABRICLINT_CORE_IO_LISTINGS_H
#define FABRICLINT_CORE_IO_LISTINGS_H

#include <stddef.h>
#include <stdint.h>

#include "fabriclint/error.h"
#include "fabriclint/load.h"
#include "io/nodemap.h"
#include "model/build.h"
#include "model/hashmap.h"

/** fl_lnode — a node as a loader knows it. */
typedef struct fl_lnode {
  fl_id id;           /**< the fabric's node id */
  uint64_t guid;      /**< node GUID (0 unknown) */
  uint32_t kind;      /**< FL_NODE_* */
  uint32_t has_block; /**< 1 when the input lists this node's own ports */
  uint32_t nports;    /**< declared port count, 0 unknown */
} fl_lnode;

/** fl_listing — one port line: local node/port -> peer, as listed from the
 * local end. The meaning of @peer_guid is the loader's (ibnetdiscover: the
 * peer's node GUID; ibsim: an id index); the merger reads only @node,
 * @port, @peer, @peer_port, @width, @speed, @file, @line and, for a peer
 * that has no block of its own, @peer_pguid / @peer_lid / @has_lid. */
typedef struct fl_listing {
  uint64_t peer_guid;
  uint64_t peer_pguid; /**< peer port GUID when listed, else 0 */
  uint32_t node, peer; /**< indices into nodes[]; peer UINT32_MAX unresolved */
  uint32_t file, line;
  uint32_t desc_off, desc_len; /**< peer name in the text (phantom nodes) */
  uint32_t peer_lid;
  fl_id link; /**< set by fl_ls_merge_links(): the link made from it */
  uint16_t port, peer_port;
  uint8_t peer_kind, width, speed, has_lid;
  uint8_t wmask, smask, emask, explicit_ws; /**< ibsim link options */
} fl_listing;

/** fl_lstate — a loader's nodes and listings. */
typedef struct fl_lstate {
  fl_lnode *nodes;
  size_t nn, ncap;
  fl_listing *ls;
  size_t nl, lcap;
  fl_u64map by_guid; /**< loader's key (node GUID, ...) -> node index */
  /** fl_ls_index(): the first listing at (node k, port p & 0xff) is
   * port_slot[port_off[k] + (p & 0xff)] (UINT32_MAX: none), for nodes
   * k < port_nn and ports below port_off[k + 1] - port_off[k]. A table per
   * node, not a hash: a node's ports are looked up together, and a hash
   * spread them over the memory (a cache miss per lookup; issue 33). */
  size_t *port_off;
  uint32_t *port_slot;
  size_t port_nn;
  fl_nodemap names; /**< --node-name-map, when given */
  int have_names;
} fl_lstate;

/** fl_ls_free() — release everything @s holds (the fabric keeps its
 * nodes and links). */
void fl_ls_free(fl_lstate *s);

/** fl_ls_names() — load @opts->node_name_map, when set, into @s->names.
 * FL_OK or the node-name-map loader's error. */
int fl_ls_names(fl_lstate *s, const fl_load_options *opts, fl_error *err);

/**
 * fl_ls_add_node() — add a node of @kind, node GUID @guid (0 unknown) and
 * declared port count @nports to @fab and to @s (not to @s->by_guid: the
 * loader keys its nodes). A node-name-map entry for a non-zero @guid names
 * it. Returns its index in @s->nodes, or UINT32_MAX when out of memory.
 */
uint32_t fl_ls_add_node(fl_lstate *s, fl_fabric *fab, uint32_t kind,
                        uint64_t guid, uint32_t nports, fl_prov prov);

/** fl_ls_add_listing() — a new zeroed listing (peer unresolved, no link),
 * or NULL when out of memory. The pointer is valid until the next call. */
fl_listing *fl_ls_add_listing(fl_lstate *s);

/** fl_ls_index() — index every listing by its local (node, port); the
 * first one listed there wins. FL_OK or FL_ENOMEM. Called by
 * fl_ls_merge_links(); a loader calls it earlier when it needs
 * fl_ls_partner() before merging (ibsim's active width/speed). */
int fl_ls_index(fl_lstate *s);

/** fl_ls_partner() — the listing of B:q that points back at listing @i
 * (A:p -> B:q), or UINT32_MAX. Needs fl_ls_index(). */
uint32_t fl_ls_partner(const fl_lstate *s, size_t i);

/**
 * fl_ls_merge_links() — turn the resolved listings (every @peer set) into
 * links of @fab (see the header comment) and record each listing's link in
 * its @link field. A peer that has no block of its own takes the port GUID
 * and LID the listing gives it. FL_OK or FL_ENOMEM.
 */
int fl_ls_merge_links(fl_lstate *s, fl_fabric *fab);

#endif
