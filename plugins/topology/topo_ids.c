/* SPDX-License-Identifier: MIT */
/*
 * plugins/topology/topo_ids.c — identities: GUIDs unique in the subnet
 * (duplicate-guid) and LID ranges that do not overlap and stay unicast (lid).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabriclint/json_buf.h"
#include "fabriclint/plugin.h"
#include "topology.h"

/* ---- topology.duplicate-guid
 * ---------------------------------------------------- */

typedef struct guid_ent {
  uint64_t guid;
  fl_id node;
  uint32_t port; /* UINT32_MAX for a node GUID */
} guid_ent;

static int cmp_guid(const void *x, const void *y) {
  const guid_ent *a = x, *b = y;
  if (a->guid != b->guid)
    return a->guid < b->guid ? -1 : 1;
  if (a->node != b->node)
    return a->node < b->node ? -1 : 1;
  return a->port < b->port ? -1 : a->port > b->port;
}

/* Node GUIDs, and port GUIDs where they differ from their node's GUID (a
 * switch's port 0 GUID equals its node GUID; so does port 1 of many CAs). */
static size_t collect_guids(const fl_host_api *api, const fl_fabric *f,
                            guid_ent *v) {
  size_t n = 0;
  uint32_t nn = api->node_count(f);
  for (fl_id i = 0; i < nn; i++) {
    uint64_t g = api->node_guid(f, i);
    if (g)
      v[n++] = (guid_ent){g, i, UINT32_MAX};
    fl_id first = api->node_first_port(f, i);
    uint32_t cnt = api->node_port_count(f, i);
    for (uint32_t k = 0; first != FL_NONE && k < cnt; k++) {
      uint64_t pg = api->port_guid(f, first + k);
      if (pg && pg != g)
        v[n++] = (guid_ent){pg, i, api->port_num(f, first + k)};
    }
  }
  return n;
}

static int report_dup(const fl_host_api *api, fl_ctx *ctx, const fl_fabric *f,
                      const guid_ent *v, size_t n) {
  fl_id *nodes = calloc(n, sizeof *nodes);
  if (!nodes) {
    api->fail(ctx, "out of memory");
    return 1;
  }
  jbuf ev;
  jb_init(&ev);
  jb_obj_open(&ev);
  char gs[24];
  snprintf(gs, sizeof gs, "0x%016llx", (unsigned long long)v[0].guid);
  jb_key_str(&ev, "guid", gs);
  jb_key(&ev, "holders");
  jb_arr_open(&ev);
  for (size_t i = 0; i < n; i++) {
    nodes[i] = v[i].node;
    jb_obj_open(&ev);
    jb_key_str(&ev, "node", api->node_name(f, v[i].node));
    if (v[i].port != UINT32_MAX)
      jb_key_int(&ev, "port", v[i].port);
    else
      jb_key_str(&ev, "as", "node GUID");
    jb_obj_close(&ev);
  }
  jb_arr_close(&ev);
  jb_obj_close(&ev);
  char msg[1024];
  snprintf(msg, sizeof msg,
           "GUID %s is used %zu times (\"%s\" and \"%s\"%s); GUIDs must be "
           "unique in a subnet",
           gs, n, api->node_name(f, v[0].node), api->node_name(f, v[1].node),
           n > 2 ? ", ..." : "");
  /* the same pattern on many nodes is one cause (160 findings on a real
   * simulated storage fabric): one node's port GUID is another node's node
   * GUID, as a numbering of port GUIDs as node GUID + 1 makes them */
  int pattern = n == 2 && v[0].node != v[1].node &&
                (v[0].port == UINT32_MAX) != (v[1].port == UINT32_MAX);
  int rc = fl_emit_cause(
      api, ctx, 0, msg, nodes, (uint32_t)n, NULL, 0, NULL, 0, jb_str(&ev),
      pattern ? "port-guid-is-node-guid" : NULL,
      pattern ? "{count} GUIDs are the port GUID of one node and the node GUID "
                "of another; GUIDs must be unique in a subnet (port GUIDs "
                "numbered as node GUID + 1 collide with the next node's: a "
                "generator's or simulator's numbering, or a vendor GUID plan "
                "that overlaps)"
              : NULL);
  jb_free(&ev);
  free(nodes);
  return rc;
}

int topo_check_dup_guid(const fl_host_api *api, fl_ctx *ctx, void *pd) {
  (void)pd;
  const fl_fabric *f = api->fabric(ctx);
  guid_ent *v =
      malloc(((size_t)api->node_count(f) + api->port_count(f) + 1) * sizeof *v);
  if (!v) {
    api->fail(ctx, "out of memory");
    return 1;
  }
  size_t n = collect_guids(api, f, v);
  if (n > 1)
    qsort(v, n, sizeof *v, cmp_guid);
  int rc = 0;
  for (size_t i = 0; i < n && !rc;) {
    size_t j = i + 1;
    while (j < n && v[j].guid == v[i].guid)
      j++;
    /* several ports of one node sharing one GUID is not a duplicate node,
     * but still a duplicate GUID; the same (node, port) cannot repeat. */
    if (j - i > 1)
      rc = report_dup(api, ctx, f, v + i, j - i);
    i = j;
  }
  free(v);
  return rc;
}

/* ---- topology.lid
 * ------------------------------------------------------------------ */

typedef struct lid_ent {
  uint32_t lo, hi; /* LID range [lo, hi] */
  fl_id port;
} lid_ent;

static int cmp_lid(const void *x, const void *y) {
  const lid_ent *a = x, *b = y;
  if (a->lo != b->lo)
    return a->lo < b->lo ? -1 : 1;
  return a->port < b->port ? -1 : a->port > b->port;
}

/* The LIDs a port answers to: base LID to base + 2^LMC - 1 (IBA 7.11.1). */
static int lid_problem(const fl_host_api *api, fl_ctx *ctx, const fl_fabric *f,
                       fl_id p, fl_id q, const char *what, const char *cause,
                       const char *cause_msg) {
  fl_id nodes[2] = {api->port_node(f, p),
                    q == FL_NONE ? FL_NONE : api->port_node(f, q)};
  fl_port_ref ports[2] = {{nodes[0], api->port_num(f, p)},
                          {nodes[1], q == FL_NONE ? 0 : api->port_num(f, q)}};
  uint32_t lid = api->port_lid(f, p);
  char msg[1024];
  if (q == FL_NONE)
    snprintf(msg, sizeof msg, "\"%s\" port %u has LID %u (0x%04x): %s",
             api->node_name(f, nodes[0]), ports[0].port, lid, lid, what);
  else
    snprintf(msg, sizeof msg,
             "LID %u (0x%04x) of \"%s\" port %u is also answered by \"%s\" "
             "port %u (LID %u, LMC %u): %s",
             lid, lid, api->node_name(f, nodes[0]), ports[0].port,
             api->node_name(f, nodes[1]), ports[1].port, api->port_lid(f, q),
             api->port_lmc(f, q), what);
  jbuf ev;
  jb_init(&ev);
  jb_obj_open(&ev);
  jb_key_int(&ev, "lid", lid);
  jb_key_int(&ev, "lmc", api->port_lmc(f, p));
  jb_obj_close(&ev);
  /* one structural fact per cause (an SM that never ran, ...) */
  int rc = fl_emit_cause(api, ctx, 0, msg, nodes, q == FL_NONE ? 1 : 2, ports,
                         q == FL_NONE ? 1 : 2, NULL, 0, jb_str(&ev), cause,
                         cause_msg);
  jb_free(&ev);
  return rc;
}

/* 1 when port @p of node @n, typed CA by a capture that contradicts
 * itself (`kind-conflict=switch-asic`: an opensm-subnet.lst record with a
 * switch-ASIC device id, more than 2 ports and one LID on all of them,
 * core/io/subnet_lst.c; F10), answers the LID of a lower-numbered port of
 * the same node: a switch answers one LID on every port, so it is counted
 * once. */
static int same_lid_asic(const fl_host_api *api, const fl_fabric *f, fl_id n,
                         fl_id p) {
  const char *v = api->attr(f, FL_ENT_NODE, n, "kind-conflict");
  if (!v || strcmp(v, "switch-asic") != 0)
    return 0;
  uint32_t lid = api->port_lid(f, p), num = api->port_num(f, p);
  for (uint32_t k = 0; k < num; k++) {
    fl_id q = api->find_port(f, n, k);
    if (q != FL_NONE && api->port_lid(f, q) == lid)
      return 1;
  }
  return 0;
}

int topo_check_lids(const fl_host_api *api, fl_ctx *ctx, void *pd) {
  (void)pd;
  const fl_fabric *f = api->fabric(ctx);
  uint32_t np = api->port_count(f), n = 0;
  lid_ent *v = malloc(((size_t)np + 1) * sizeof *v);
  if (!v) {
    api->fail(ctx, "out of memory");
    return 1;
  }
  int rc = 0;
  for (fl_id p = 0; p < np && !rc; p++) {
    uint32_t lid = api->port_lid(f, p);
    fl_id node = api->port_node(f, p);
    /* a switch answers on port 0 only; its other ports carry no LID */
    if (!lid ||
        (api->node_kind(f, node) == FL_NODE_SWITCH && api->port_num(f, p)) ||
        same_lid_asic(api, f, node, p))
      continue;
    if (lid == 0xffff)
      rc = lid_problem(api, ctx, f, p, FL_NONE,
                       "0xFFFF is the permissive LID: the port was never "
                       "configured by a subnet manager",
                       "lid-permissive",
                       "{count} ports have LID 0xFFFF (the permissive LID): "
                       "never configured by a subnet manager");
    else if (lid >= 0xc000)
      rc = lid_problem(api, ctx, f, p, FL_NONE,
                       "LIDs 0xC000-0xFFFE are multicast (IBA 4.1.3), not a "
                       "port address",
                       "lid-multicast",
                       "{count} ports have a multicast LID (0xC000-0xFFFE, "
                       "IBA 4.1.3) as their address");
    else
      v[n++] = (lid_ent){lid, lid + (1u << (api->port_lmc(f, p) & 7)) - 1, p};
  }
  if (n > 1)
    qsort(v, n, sizeof *v, cmp_lid);
  uint32_t far = 0; /* the entry whose range reaches farthest so far */
  for (uint32_t i = 1; i < n && !rc; i++) {
    if (v[i].lo <= v[far].hi)
      rc = lid_problem(api, ctx, f, v[i].port, v[far].port,
                       "two ports answer the same LID; the subnet manager "
                       "cannot route to both",
                       "lid-duplicate",
                       "{count} ports answer a LID another port also "
                       "answers: the subnet manager cannot route to both");
    if (v[i].hi > v[far].hi)
      far = i;
  }
  free(v);
  return rc;
}
