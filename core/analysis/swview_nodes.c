/* SPDX-License-Identifier: MIT */
/*
 * core/analysis/swview_nodes.c — per-node questions of fabriclint/view.h
 * (fl_host_api.view_peer, view_port_switch, view_is_sharp_an,
 * view_ca_switch, view_design_ratio, ABI 1.6): what a port is cabled to,
 * whether a CA is a SHARP Aggregation Node, the switch a NIC is cabled to,
 * and the oversubscription a plan declares for a switch.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/swview.h"

/**
 * fl_view_peer() — the node at the other end of port @p's first cable.
 * Takes the host table @api, fabric @f and a port id @p; on success stores
 * the cable in *@link and the far port in *@peer_port and returns the far
 * node. Returns FL_NONE (outputs untouched) when @p is not cabled or its
 * cable loops back to @p. O(1).
 */
fl_id fl_swview_peer(const fl_host_api *api, const fl_fabric *f, fl_id p,
                     fl_id *link, fl_id *peer_port) {
  if (api->port_link_count(f, p) == 0)
    return FL_NONE;
  fl_id l = api->port_link(f, p, 0);
  fl_id q = l == FL_NONE ? FL_NONE : api->link_other(f, l, p);
  if (q == FL_NONE || q == p)
    return FL_NONE;
  *link = l;
  *peer_port = q;
  return api->port_node(f, q);
}

/**
 * fl_view_port_switch() — the switch that port @p's first cable lands on.
 * Returns the switch node and stores the cable in *@link and the switch's
 * port in *@sw_port; returns FL_NONE (outputs untouched) when @p is not
 * cabled or its cable ends on something other than a switch. O(1).
 */
fl_id fl_swview_port_switch(const fl_host_api *api, const fl_fabric *f, fl_id p,
                            fl_id *link, fl_id *sw_port) {
  fl_id l = FL_NONE, q = FL_NONE;
  fl_id s = fl_swview_peer(api, f, p, &l, &q);
  if (s == FL_NONE || api->node_kind(f, s) != FL_NODE_SWITCH)
    return FL_NONE;
  *link = l;
  *sw_port = q;
  return s;
}

/**
 * fl_view_is_sharp_an() — 1 when node @n is a CA that is a SHARP
 * Aggregation Node (device id 0xcf09, or a node description containing
 * "Aggregation Node"): a function inside a switch on its internal port,
 * not a host NIC; 0 otherwise (switches and routers too). O(description).
 */
int fl_swview_is_sharp_an(const fl_host_api *api, const fl_fabric *f, fl_id n) {
  return api->node_kind(f, n) == FL_NODE_CA &&
         (api->node_devid(f, n) == 0xcf09 ||
          strstr(api->node_desc(f, n), "Aggregation Node") != NULL);
}

/**
 * fl_view_design_ratio() — the oversubscription (down:up) switch @n is
 * designed for: its node attribute `oversubscription` ("2:1", "3:2" or a
 * plain ratio "1.5"; docs/design-xml.md), which a plan sets where a tier is
 * oversubscribed by design (`fabriclint gen ... --oversubscription 2:1`).
 * Returns that ratio when the attribute is present and well-formed
 * (positive terms), else @policy, the rule's max-ratio. The plan's own
 * figure replaces the policy for that switch: a leaf designed 2:1 and
 * built 2:1 is as planned; built 4:1 it still lacks cables. O(attribute).
 */
double fl_swview_design_ratio(const fl_host_api *api, const fl_fabric *f,
                              fl_id n, double policy) {
  const char *s = api->attr(f, FL_ENT_NODE, n, "oversubscription");
  if (!s || !*s)
    return policy;
  char *end;
  double d = strtod(s, &end), u = 1;
  if (end == s || !(d > 0))
    return policy;
  if (*end == ':') {
    const char *t = end + 1;
    u = strtod(t, &end);
    if (end == t || !(u > 0))
      return policy;
  }
  return *end ? policy : d / u;
}

/**
 * fl_view_ca_switch() — host -> NIC -> leaf: the switch a CA node @n (one
 * NIC, e.g. "dgx-001 mlx5_3"; its host is api->node_system) is cabled to,
 * through its lowest-numbered port whose first cable lands on a switch.
 * Returns the switch node and stores the NIC's port number in *@port and
 * the switch's port number in *@sw_port; FL_NONE (outputs untouched) when
 * no port of @n reaches a switch. O(ports of @n).
 */
fl_id fl_swview_ca_switch(const fl_host_api *api, const fl_fabric *f, fl_id n,
                          uint32_t *port, uint32_t *sw_port) {
  fl_id first = api->node_first_port(f, n);
  uint32_t np = first == FL_NONE ? 0 : api->node_port_count(f, n);
  for (uint32_t k = 0; k < np; k++) {
    fl_id l = FL_NONE, q = FL_NONE;
    fl_id s = fl_swview_port_switch(api, f, first + k, &l, &q);
    if (s == FL_NONE)
      continue;
    *port = api->port_num(f, first + k);
    *sw_port = api->port_num(f, q);
    return s;
  }
  return FL_NONE;
}
