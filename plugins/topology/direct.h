/* SPDX-License-Identifier: MIT */
/*
 * plugins/topology/direct.h — hosts cabled back to back, without a switch
 * (a ring of DGX Spark-style dual-port hosts, a pair of servers joined by a
 * cable): what the topology plugin checks of them (direct.c).
 */
#ifndef FL_TOPOLOGY_DIRECT_H
#define FL_TOPOLOGY_DIRECT_H

#include <stdint.h>

#include "fabriclint/plugin.h"

/**
 * topo_host_components() — connected components of a fabric with no switch,
 * where hosts are what joins: nodes of one system (a host's HCAs) are one
 * vertex and every cable joins its two ends' vertices. Back-to-back hosts
 * route for each other (IP forwarding, NCCL rings through neighbours), so a
 * switchless ring is one fabric even though no CA forwards InfiniBand
 * packets. Fills @memb[node] with a component index and *@n_comp with their
 * number. Returns 0, or -1 when out of memory. O(nodes + links) (union-find
 * with path halving; hosts are matched through a sort of their names).
 */
int topo_host_components(const fl_host_api *api, const fl_fabric *f,
                         uint32_t *memb, uint32_t *n_comp);

/**
 * topo_check_direct_port_index() — the check() of rule
 * topology.direct-port-index: among hosts cabled back to back, each cable
 * joins port index i of one host to index j of the other (indexes: a
 * host's back-to-back ports in natural order of their names, p0, p1, ...).
 * A group of such hosts whose cables mix equal (p0-p0) and different
 * (p0-p1) indexes follows neither consistent scheme. One finding per group,
 * with the cables of each kind and, for hosts of two ports each, the
 * fewest hosts whose two cables to swap to make the group consistent.
 * Returns 0, or 1 after api->fail().
 */
int topo_check_direct_port_index(const fl_host_api *api, fl_ctx *ctx, void *pd);

#endif
