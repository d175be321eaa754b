/* SPDX-License-Identifier: MIT */
/*
 * plugins/topology/topo_ports.c — port-level consistency of the cables: both
 * ends agree on width and speed (link-mismatch), no port holds two cables
 * (port-connected-twice) or lies beyond its node's port count
 * (port-out-of-range), no cable joins a node to itself (self-loop).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabriclint/json_buf.h"
#include "fabriclint/plugin.h"
#include "topology.h"

/* ---- topology.link-mismatch
 * ----------------------------------------------------- */

int topo_check_mismatch(const fl_host_api *api, fl_ctx *ctx, void *pd) {
  (void)pd;
  const fl_fabric *f = api->fabric(ctx);
  uint32_t nl = api->link_count(f);
  for (fl_id l = 0; l < nl; l++) {
    uint32_t fl = api->link_flags(f, l);
    if (!(fl & (FL_LINK_WIDTH_MISMATCH | FL_LINK_SPEED_MISMATCH)))
      continue;
    fl_port_ref ports[2];
    topo_port_ref(api, f, api->link_port(f, l, 0), &ports[0]);
    topo_port_ref(api, f, api->link_port(f, l, 1), &ports[1]);
    fl_id nodes[2] = {ports[0].node, ports[1].node};
    char ta[32], tb[32], msg[1024], pa[FL_PORT_TEXT], pb[FL_PORT_TEXT];
    topo_link_type(api, api->link_width(f, l), api->link_speed(f, l), ta,
                   sizeof ta);
    topo_link_type(api, api->link_width_b(f, l), api->link_speed_b(f, l), tb,
                   sizeof tb);
    snprintf(msg, sizeof msg,
             "the two ends of cable %s %s <-> %s %s disagree: %s "
             "from the first, %s from the second (a link negotiates one "
             "width and speed; the capture is inconsistent)",
             api->node_name(f, nodes[0]),
             fl_port_text(api, f, api->link_port(f, l, 0), pa, sizeof pa),
             api->node_name(f, nodes[1]),
             fl_port_text(api, f, api->link_port(f, l, 1), pb, sizeof pb), ta,
             tb);
    jbuf ev;
    jb_init(&ev);
    jb_obj_open(&ev);
    jb_key_str(&ev, "end_a", ta);
    jb_key_str(&ev, "end_b", tb);
    jb_obj_close(&ev);
    int rc = topo_report(api, ctx, msg, nodes, 2, ports, 2, &l, 1, jb_str(&ev));
    jb_free(&ev);
    if (rc)
      return rc;
  }
  return 0;
}

/* ---- topology.port-connected-twice
 * --------------------------------------------- */

int topo_check_twice(const fl_host_api *api, fl_ctx *ctx, void *pd) {
  (void)pd;
  const fl_fabric *f = api->fabric(ctx);
  uint32_t np = api->port_count(f);
  for (fl_id p = 0; p < np; p++) {
    uint32_t c = api->port_link_count(f, p);
    if (c < 2)
      continue;
    fl_id node = api->port_node(f, p);
    fl_id far[2] = {api->link_other(f, api->port_link(f, p, 0), p),
                    api->link_other(f, api->port_link(f, p, 1), p)};
    fl_id *nodes = calloc(c + 1, sizeof *nodes);
    fl_port_ref *ports = calloc(c + 1, sizeof *ports);
    fl_id *links = calloc(c, sizeof *links);
    if (!nodes || !ports || !links) {
      free(nodes), free(ports), free(links);
      api->fail(ctx, "out of memory");
      return 1;
    }
    nodes[0] = node;
    topo_port_ref(api, f, p, &ports[0]);
    jbuf ev;
    jb_init(&ev);
    jb_obj_open(&ev);
    jb_key(&ev, "peers");
    jb_arr_open(&ev);
    for (uint32_t i = 0; i < c; i++) {
      links[i] = api->port_link(f, p, i);
      fl_id o = api->link_other(f, links[i], p);
      topo_port_ref(api, f, o, &ports[i + 1]);
      nodes[i + 1] = ports[i + 1].node;
      jb_obj_open(&ev);
      jb_key_str(&ev, "node", api->node_name(f, ports[i + 1].node));
      jb_key_int(&ev, "port", ports[i + 1].port);
      jb_obj_close(&ev);
    }
    jb_arr_close(&ev);
    jb_obj_close(&ev);
    char msg[1024], pn[FL_PORT_TEXT], p1[FL_PORT_TEXT], p2[FL_PORT_TEXT];
    snprintf(msg, sizeof msg,
             "%s \"%s\" %s is connected %u times (to \"%s\" %s and "
             "\"%s\" %s%s); a port holds one cable",
             topo_kind_word(api->node_kind(f, node)), api->node_name(f, node),
             fl_port_text(api, f, p, pn, sizeof pn), c,
             api->node_name(f, ports[1].node),
             fl_port_text(api, f, far[0], p1, sizeof p1),
             api->node_name(f, ports[2].node),
             fl_port_text(api, f, far[1], p2, sizeof p2), c > 2 ? ", ..." : "");
    int rc = topo_report(api, ctx, msg, nodes, c + 1, ports, c + 1, links, c,
                         jb_str(&ev));
    jb_free(&ev);
    free(nodes), free(ports), free(links);
    if (rc)
      return rc;
  }
  return 0;
}

/* ---- topology.port-out-of-range
 * ----------------------------------------------- */

int topo_check_range(const fl_host_api *api, fl_ctx *ctx, void *pd) {
  (void)pd;
  const fl_fabric *f = api->fabric(ctx);
  uint32_t np = api->port_count(f);
  for (fl_id p = 0; p < np; p++) {
    fl_id n = api->port_node(f, p);
    uint32_t num = api->port_num(f, p), max = api->node_nports(f, n);
    int has_link = api->port_link_count(f, p) > 0;
    int bad = (max && num > max) || (num == 0 && has_link);
    if (!bad)
      continue;
    fl_port_ref ref = {n, num};
    char msg[1024];
    if (num == 0)
      snprintf(msg, sizeof msg,
               "%s \"%s\" has a cable on port 0; port 0 is a switch's internal "
               "management port and CAs have no port 0",
               topo_kind_word(api->node_kind(f, n)), api->node_name(f, n));
    else
      snprintf(
          msg, sizeof msg, "%s \"%s\" uses port %u but declares only %u ports",
          topo_kind_word(api->node_kind(f, n)), api->node_name(f, n), num, max);
    jbuf ev;
    jb_init(&ev);
    jb_obj_open(&ev);
    jb_key_int(&ev, "port", num);
    jb_key_int(&ev, "declared_ports", max);
    jb_obj_close(&ev);
    fl_id l = has_link ? api->port_link(f, p, 0) : FL_NONE;
    int rc = topo_report(api, ctx, msg, &n, 1, &ref, 1, has_link ? &l : NULL,
                         has_link ? 1 : 0, jb_str(&ev));
    jb_free(&ev);
    if (rc)
      return rc;
  }
  return 0;
}

/* ---- topology.self-loop
 * ------------------------------------------------------------ */

int topo_check_self_loop(const fl_host_api *api, fl_ctx *ctx, void *pd) {
  (void)pd;
  const fl_fabric *f = api->fabric(ctx);
  uint32_t nl = api->link_count(f);
  for (fl_id l = 0; l < nl; l++) {
    fl_port_ref ports[2];
    topo_port_ref(api, f, api->link_port(f, l, 0), &ports[0]);
    topo_port_ref(api, f, api->link_port(f, l, 1), &ports[1]);
    if (ports[0].node != ports[1].node)
      continue;
    char msg[1024], pa[FL_PORT_TEXT], pb[FL_PORT_TEXT];
    snprintf(msg, sizeof msg,
             "cable loops back into the same %s: \"%s\" %s <-> %s",
             topo_kind_word(api->node_kind(f, ports[0].node)),
             api->node_name(f, ports[0].node),
             fl_port_text(api, f, api->link_port(f, l, 0), pa, sizeof pa),
             fl_port_text(api, f, api->link_port(f, l, 1), pb, sizeof pb));
    int rc =
        topo_report(api, ctx, msg, &ports[0].node, 1, ports, 2, &l, 1, NULL);
    if (rc)
      return rc;
  }
  return 0;
}
