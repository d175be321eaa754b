/* SPDX-License-Identifier: MIT */
/*
 * core/model/graph.h — the igraph view of a fabric and the graph queries the
 * core answers on it (internal; exposed to plugins through fl_host_api).
 *
 * igraph stays inside the core (DESIGN.md §3): its Debian build is not
 * thread-safe and its 1.0 release changes signatures, so every igraph call
 * lives in core/graph.c behind these functions.
 */
#ifndef FABRICLINT_CORE_GRAPH_H
#define FABRICLINT_CORE_GRAPH_H

#include "fabriclint/fabric.h"

/** Build the undirected multigraph (vertex = node, edge = link). O(V + E). */
int fl_graph_build(fl_fabric *fab, fl_error *err);

/** See fl_host_api.components. */
int fl_graph_components(const fl_fabric *fab, uint32_t *membership,
                        uint32_t *n_comp);
/** See fl_host_api.articulation_points. */
int fl_graph_articulation_points(const fl_fabric *fab, fl_id *out, uint32_t *n);
/** See fl_host_api.bridges. */
int fl_graph_bridges(const fl_fabric *fab, fl_id *out, uint32_t *n);
/** See fl_host_api.bfs_distances. */
int fl_graph_bfs_distances(const fl_fabric *fab, fl_id src, int32_t *dist);

/** See fl_host_api.components_masked. */
int fl_graph_components_masked(const fl_fabric *fab, const uint8_t *node_off,
                               const uint8_t *link_off, uint32_t *membership,
                               uint32_t *n_comp);
/** See fl_host_api.maxflow. */
int fl_graph_maxflow(const fl_fabric *fab, const fl_id *src, uint32_t n_src,
                     const fl_id *dst, uint32_t n_dst, const double *capacity,
                     const uint8_t *node_off, const uint8_t *link_off,
                     double *value);

#endif
