/*
 * core/fabric_impl.h — the layout of struct fl_fabric (internal to the core).
 *
 * Struct-of-records arrays indexed by fl_id. Only the core sources include this;
 * plugins and embedders see the accessors of fabriclint/fabric.h.
 */
#ifndef FABRICLINT_CORE_FABRIC_IMPL_H
#define FABRICLINT_CORE_FABRIC_IMPL_H

#include <igraph.h>

#include "build.h"
#include "hashmap.h"

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

typedef struct fl_attr_rec {
  uint32_t ent_kind;
  fl_id id;
  uint32_t key; /* atom */
  uint32_t val; /* atom */
  uint32_t seq; /* insertion order, for "last set wins" */
} fl_attr_rec;

struct fl_fabric {
  fl_node_rec *nodes;
  size_t n_nodes, cap_nodes;
  fl_port_rec *ports;
  size_t n_ports, cap_ports;
  fl_link_rec *links;
  size_t n_links, cap_links;
  fl_attr_rec *attrs;
  size_t n_attrs, cap_attrs;
  fl_strmap atoms;  /* atom = entry index; atom 0 is "" */
  uint32_t *files;  /* atoms of input paths, by file id */
  size_t n_files, cap_files;
  fl_u64map port_map; /* build: (node << 32 | num) -> port id */
  fl_u64map guid_map; /* node GUID -> first node, after finalize */
  fl_strmap name_map; /* display name -> first node, after finalize */
  uint32_t *port_link_off; /* CSR, n_ports + 1 entries, after finalize */
  fl_id *port_links;
  char *system_pattern; /* owned; NULL = default */
  int finalized;
  int has_graph;
  igraph_t graph; /* vertex = node, edge = link; after finalize */
};

#endif
