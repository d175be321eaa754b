/* SPDX-License-Identifier: MIT */
/*
 * plugins/topology/topo_util.c — what the topology rules share: a port's
 * reference, a plain finding, the words for node kinds and link types
 * (topology.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabriclint/json_buf.h"
#include "fabriclint/plugin.h"
#include "topology.h"

void topo_port_ref(const fl_host_api *api, const fl_fabric *f, fl_id p,
                   fl_port_ref *out) {
  out->node = api->port_node(f, p);
  out->port = api->port_num(f, p);
}

int topo_report(const fl_host_api *api, fl_ctx *ctx, const char *msg,
                const fl_id *nodes, uint32_t n_nodes, const fl_port_ref *ports,
                uint32_t n_ports, const fl_id *links, uint32_t n_links,
                const char *evidence) {
  return fl_emit(api, ctx, 0, msg, nodes, n_nodes, ports, n_ports, links,
                 n_links, evidence);
}

const char *topo_kind_word(uint32_t k) {
  return k == 1 ? "switch" : k == 2 ? "CA" : k == 3 ? "router" : "node";
}

void topo_link_type(const fl_host_api *api, uint32_t w, uint32_t s, char *buf,
                    size_t size) {
  if (w)
    snprintf(buf, size, "%ux%s", w, api->speed_name(s));
  else
    snprintf(buf, size, "??%s", api->speed_name(s));
}
