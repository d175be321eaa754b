/* SPDX-License-Identifier: MIT */
/*
 * core/model/fabric_impl.h — the layout of struct fl_fabric (internal to the
 * core).
 *
 * Struct-of-records arrays indexed by fl_id. Only the core sources include
 * this; plugins and embedders see the accessors of fabriclint/fabric.h.
 */
#ifndef FABRICLINT_CORE_FABRIC_IMPL_H
#define FABRICLINT_CORE_FABRIC_IMPL_H

#include <igraph.h>

#include "model/build.h"
#include "model/hashmap.h"
#include "model/portdir.h"

typedef struct fl_node_rec {
  uint64_t guid;
  uint64_t sysimgguid;
  uint32_t kind;
  uint32_t name;   /* atom */
  uint32_t desc;   /* atom */
  uint32_t system; /* atom */
  uint32_t device; /* atom */
  uint32_t vendid, devid;
  uint32_t nports;
  uint32_t tier;
  uint32_t tier_derived;
  fl_id first_port; /* valid after finalize */
  uint32_t port_recs;
  fl_prov prov;
} fl_node_rec;

typedef struct fl_port_rec {
  uint64_t guid;
  fl_id node;
  uint32_t num;
  uint32_t lid;
  uint32_t lmc;
  uint32_t label; /* atom */
  fl_prov prov;
} fl_port_rec;

typedef struct fl_link_rec {
  fl_id a, b; /* port ids */
  uint8_t width, speed, width_b, speed_b;
  uint32_t flags;
  fl_prov prov;
} fl_link_rec;

/* Director chassis position of a node (core/model/chassis.c). */
typedef struct fl_slot_rec {
  uint32_t chassis; /* chassis index, UINT32_MAX: none */
  uint32_t next;    /* next ASIC of the same chassis, UINT32_MAX ends */
  uint32_t name;    /* atom: <name> of MF0;<name>:<model>/..., 0 none */
  uint32_t model;   /* atom: <model> */
  uint16_t board;   /* board number (L<nn>, S<nn>), 0 none */
  uint16_t asic;    /* ASIC on the board (U<k>), 0 none */
  uint8_t kind;     /* FL_BOARD_* */
} fl_slot_rec;

typedef struct fl_chassis_rec {
  uint32_t name, model; /* atoms */
  uint64_t sysimgguid;
  fl_id first; /* lowest node id; members chain through fl_slot_rec.next */
  uint32_t n_asics;
} fl_chassis_rec;

typedef struct fl_attr_rec {
  uint32_t ent_kind;
  fl_id id;
  uint32_t key; /* atom */
  uint32_t val; /* atom */
  uint32_t seq; /* insertion order, for "last set wins" */
} fl_attr_rec;

typedef struct fl_note_rec {
  uint32_t category; /* atom */
  uint32_t message;  /* atom */
  fl_prov prov;
} fl_note_rec;

/* Adaptive-routing tables of one switch (core/ar_load.c, ibdiagnet2.far):
 * the AR group table (group number -> member ports, the union of its
 * sub-groups) and the AR LFT (per LID: state and group). */
typedef struct fl_ar_sw {
  uint8_t *state;        /* per LID: FL_AR_STATE_*, 0 = no entry */
  uint16_t *group;       /* per LID: AR group number */
  uint32_t len;          /* entries in state/group (LIDs 0..len-1) */
  uint32_t n_groups;     /* group numbers 0..n_groups-1 have a slot */
  uint8_t (*gports)[32]; /* per group: bitmap of member port numbers */
  uint8_t *gdefined;     /* per group: 1 when the table defines it */
} fl_ar_sw;

/* Routing state (core/routing.c). */
typedef struct fl_routing {
  uint8_t **lft;     /* per node: LFT row or NULL */
  uint32_t *lft_len; /* per node: entries in the row */
  size_t cap_nodes;  /* size of lft/lft_len */
  uint32_t n_lfts;
  fl_id *lid_port; /* after finalize: LID -> port, max_lid + 1 entries */
  uint32_t max_lid;
  fl_u64map lid_hints; /* port GUID -> LID */
  fl_u64map sl2vl_idx; /* (node << 32 | in << 16 | out) -> table index */
  uint64_t *sl2vl;     /* tables: 16 x 4-bit VLs, SL i in bits 4i..4i+3 */
  size_t n_sl2vl, cap_sl2vl;
  fl_u64map path_sl;       /* (src node << 32 | dlid) -> SL */
  fl_u64map port_guid_idx; /* build: port GUID -> port id */
  fl_u64map node_guid_idx; /* build: node GUID -> first node */
  fl_note_rec *notes;
  size_t n_notes, cap_notes;
  fl_ar_sw **ar; /* per node: AR tables or NULL (core/ar_load.c) */
  size_t cap_ar; /* size of ar */
  uint32_t n_ar; /* switches with AR tables */
} fl_routing;

struct fl_fabric {
  fl_node_rec *nodes;
  size_t n_nodes, cap_nodes;
  fl_port_rec *ports;
  size_t n_ports, cap_ports;
  fl_link_rec *links;
  size_t n_links, cap_links;
  fl_attr_rec *attrs;
  size_t n_attrs, cap_attrs;
  fl_strmap atoms; /* atom = entry index; atom 0 is "" */
  uint32_t *files; /* atoms of input paths, by file id */
  size_t n_files, cap_files;
  struct fl_file_digest *file_digest; /* per file id (file_digest.c) */
  size_t cap_file_digest;
  /* the fabric size cap (fl_b_set_caps()): 0 = none; cap_hit is the
   * FL_CAP_* of the first cap a builder call was refused by, 0 none */
  uint32_t max_nodes, max_ports, max_links;
  int cap_hit;
  fl_portdir port_dir;     /* build: (node, num) -> port id */
  fl_u64map guid_map;      /* node GUID -> first node, after finalize */
  fl_strmap name_map;      /* display name -> first node, after finalize */
  uint32_t *port_link_off; /* CSR, n_ports + 1 entries, after finalize */
  fl_id *port_links;
  char *system_pattern; /* owned; NULL = default */
  fl_routing rt;
  struct fl_counters *counters; /* port counters (counters.c), or NULL */
  struct fl_hp_rec *hostprofs;  /* GPU<->NIC host profiles (hostprof.c) */
  size_t n_hostprofs, cap_hostprofs;
  int finalized;
  int has_graph;
  /* shape (derive.c): switch cables within a tier or skipping one, and
   * switches above tier 1 that carry compute endpoints */
  uint32_t shape_flat_links, shape_skip_links, shape_upper_hosts;
  struct fl_infer *infer;  /* inference evidence, after finalize (infer.c) */
  fl_slot_rec *slots;      /* per node, after finalize (chassis.c) */
  fl_chassis_rec *chassis; /* director chassis, after finalize */
  size_t n_chassis;
  /* planes (planes.c): file tags while building, the rest after finalize */
  uint32_t *file_plane; /* per file id: atom of its --plane tag, 0 none */
  size_t cap_file_plane;
  uint32_t n_planes, planes_source;
  uint32_t *plane_names; /* atoms, natural order */
  uint32_t *node_plane;  /* per node: plane index or FL_NONE */
  uint32_t *port_plane;  /* per port: plane index or FL_NONE */
  uint32_t *port_home;   /* per port: home plane index or FL_NONE */
  igraph_t graph;        /* vertex = node, edge = link; after finalize */
};

/**
 * fl_b_seal() — the record store's part of fl_fabric_finalize(): sort ports
 * by (node, number) and rewrite link ends, build the per-port link index,
 * sort attributes, fill default names and the GUID and name indexes, and
 * mark the fabric finalized. FL_OK, FL_EINVAL (@err says which record), or
 * FL_ENOMEM. core/model/fabric.c; called only by core/model/finalize.c.
 */
int fl_b_seal(fl_fabric *fab, fl_error *err);

/**
 * fl_b_unique_names() — the step of fl_fabric_finalize() after systems are
 * derived: nodes that share a display name (a NodeDescription left at the
 * factory default, "Quantum Mellanox Technologies", on many switches; or a
 * node-name map naming two GUIDs alike) and have a GUID no other node has
 * are renamed "<name> (0x<16 hex GUID>)", and the name index is rebuilt,
 * so that messages, finding keys and fingerprints tell them apart. Systems and
 * descriptions keep the shared text. FL_OK or FL_ENOMEM. O(nodes).
 */
int fl_b_unique_names(fl_fabric *fab, fl_error *err);

/**
 * fl_b_attr_sealed() — fl_b_attr() for a step of fl_fabric_finalize() that
 * runs after fl_b_seal() (host profiles attach to CAs once systems are
 * known): the record goes after every attribute set while loading, so it
 * wins over one of the same key; call fl_b_attrs_reindex() after the last.
 * Not for `tier`. FL_OK, FL_EINVAL (not sealed) or FL_ENOMEM.
 */
int fl_b_attr_sealed(fl_fabric *fab, uint32_t ent_kind, fl_id id,
                     const char *key, const char *value);

/** fl_b_attrs_reindex() — sort and deduplicate the attributes again after
 * fl_b_attr_sealed() (as fl_b_seal() does). O(A log A). */
void fl_b_attrs_reindex(fl_fabric *fab);

/** Which cap of the fabric size a builder call hit (fl_fabric.cap_hit). */
#define FL_CAP_NODES 1
#define FL_CAP_PORTS 2
#define FL_CAP_LINKS 3

/**
 * fl_b_set_caps() — refuse (FL_NONE, and @fab->cap_hit set) any node, port
 * or link past @max_nodes, @max_ports, @max_links records (0: no cap): the
 * fabric size cap of loaded inputs, so an input that expands (IBNL systems,
 * DOT subgraph products) stops at the cap instead of at memory's end.
 */
void fl_b_set_caps(fl_fabric *fab, uint32_t max_nodes, uint32_t max_ports,
                   uint32_t max_links);

/** fl_b_free_records() — free the store's arrays and indexes (not @fab
 * itself, nor routing state or graph). core/model/fabric.c. */
void fl_b_free_records(fl_fabric *fab);

#endif
