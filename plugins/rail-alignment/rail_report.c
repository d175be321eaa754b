/* SPDX-License-Identifier: MIT */
/*
 * plugins/rail-alignment/rail_report.c — helpers the rail-alignment rules
 * report with: one finding with its nodes, ports and evidence; the names of
 * rails and ports; a rail's leaf in an SU; a NIC's cable and a free leaf
 * port; the fix that moves a cable's leaf end; the basis of a leaf's rail
 * in the evidence; a misplaced NIC's swap partner.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabriclint/json_buf.h"
#include "fabriclint/plugin.h"
#include "rail.h"
#include "rail_rules.h"

/* ---- reporting helpers
 * ------------------------------------------------------------ */

int report(const fl_host_api *api, fl_ctx *ctx, uint32_t sev, const char *msg,
           const fl_id *nodes, uint32_t nn, const fl_port_ref *ports,
           uint32_t np, const char *ev) {
  return fl_emit(api, ctx, sev, msg, nodes, nn, ports, np, NULL, 0, ev);
}

const char *rail_name(const analysis *a, int32_t r) {
  return r >= 0 && (uint32_t)r < a->n_labels ? a->labels[r] : "?";
}

const leaf *leaf_of(const analysis *a, fl_id s) {
  return &a->leaves[a->leaf_of_node[s]];
}

/* A leaf of rail @r in SU @su (the fix target), or FL_NONE. */
fl_id rail_leaf(const analysis *a, int32_t r, uint32_t su) {
  for (uint32_t L = 0; L < a->n_leaves; L++)
    if (a->leaves[L].rail == r && a->leaves[L].su == su)
      return a->leaves[L].node;
  return FL_NONE;
}

/* A free port of switch @s (no cable), preferring @want; 0 when none. */
uint32_t free_port(const fl_host_api *api, const fl_fabric *f, fl_id s,
                   uint32_t want) {
  uint32_t n = api->node_nports(f, s);
  fl_id p = api->find_port(f, s, want);
  if (want && want <= n && (p == FL_NONE || api->port_link_count(f, p) == 0))
    return want;
  for (uint32_t k = 1; k <= n; k++) {
    p = api->find_port(f, s, k);
    if (p == FL_NONE || api->port_link_count(f, p) == 0)
      return k;
  }
  return 0;
}

/* Port @num of @node as users know it: its label (`Ethernet1/3`, `swp3`)
 * when it has one, else `port N`. Returns @buf. */
const char *port_str(const fl_host_api *api, const fl_fabric *f, fl_id node,
                     uint32_t num, char *buf, size_t size) {
  fl_id p = api->find_port(f, node, num);
  const char *lb = p == FL_NONE ? "" : api->port_label(f, p);
  if (*lb)
    snprintf(buf, size, "%s", lb);
  else
    snprintf(buf, size, "port %u", num);
  return buf;
}

/* The cable of NIC @x (its port to its leaf): the link id, and in *@leaf_end
 * the index (0, 1) of the link's end on the leaf. FL_NONE when the NIC's
 * port has no such cable (never for a NIC: make_nic() found it). */
static fl_id nic_link(const fl_host_api *api, const fl_fabric *f, const nic *x,
                      uint32_t *leaf_end) {
  fl_id p = api->find_port(f, x->node, x->port);
  for (uint32_t k = 0; p != FL_NONE && k < api->port_link_count(f, p); k++) {
    fl_id l = api->port_link(f, p, k);
    for (uint32_t e = 0; e < 2; e++) {
      fl_id q = api->link_port(f, l, e);
      if (api->port_node(f, q) == x->leaf &&
          api->port_num(f, q) == x->leaf_port) {
        *leaf_end = e;
        return l;
      }
    }
  }
  return FL_NONE;
}

/* A change moving the leaf end of NIC @x's cable to @to port @port. */
fl_fix_change move_leaf_end(const fl_host_api *api, const fl_fabric *f,
                            const nic *x, fl_id to, uint32_t port) {
  fl_fix_change c;
  memset(&c, 0, sizeof c);
  c.struct_size = sizeof c;
  c.kind = FL_FIX_MOVE_END;
  c.link = nic_link(api, f, x, &c.end);
  c.node = to;
  c.port = port;
  return c;
}

void basis(const analysis *a, const leaf *lf, jbuf *ev) {
  jb_key_str(ev, "profile", a->map.name);
  jb_key_str(ev, "leaf_rail_from",
             lf->inferred ? "majority of its NICs (inferred)"
                          : "rail attribute");
}

/* Is NIC @i one half of a same-host swap? Returns the partner index or -1. */
int32_t swap_partner(const analysis *a, uint32_t i) {
  const nic *x = &a->nics[i];
  if (x->rail < 0 || x->host < 0)
    return -1;
  int32_t lr = leaf_of(a, x->leaf)->rail;
  if (lr < 0 || lr == x->rail)
    return -1;
  for (uint32_t k = a->host_off[x->host]; k < a->host_off[x->host + 1]; k++) {
    uint32_t j = a->host_idx[k];
    const nic *y = &a->nics[j];
    if (j == i || y->rail != lr)
      continue;
    const leaf *ly = leaf_of(a, y->leaf);
    if (ly->rail == x->rail && ly->su == leaf_of(a, x->leaf)->su)
      return (int32_t)j;
  }
  return -1;
}
