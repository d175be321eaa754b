/* SPDX-License-Identifier: MIT */
/*
 * plugins/topology/topo_capture.c — topology.one-sided-link: a cable listed by
 * one end only (a truncated, stale or per-device capture), judged once per
 * capture with what the input holds.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabriclint/json_buf.h"
#include "fabriclint/plugin.h"
#include "topology.h"

/* ---- topology.one-sided-link
 * ---------------------------------------------------- */

/* A cable listed by one end whose other end is a node a filtered capture
 * lists only as a far end (fl_node_peer_only()): one-sided by the filter's
 * design (iblinkinfo --switches-only), not a cut capture. */
static int filtered_one_sided(const fl_host_api *api, const fl_fabric *f,
                              fl_id l, uint32_t fl) {
  fl_id lister = api->link_port(f, l, (fl & FL_LINK_SEEN_A) ? 0 : 1);
  fl_id silent = api->link_other(f, l, lister);
  return fl_node_peer_only(api, f, api->port_node(f, silent));
}

/* Every listed cable is one-sided (2 or more): the capture holds only one
 * side's blocks (`ibnetdiscover -p | grep ^CA`, a cut dump). One finding for
 * the capture instead of one per cable; returns 1 when reported, -1 on
 * failure, 0 when the capture is not of that kind. */
int topo_one_sided_counts(const fl_host_api *api, const fl_fabric *f,
                          uint32_t *one_out, uint32_t *by_ca_out) {
  uint32_t nl = api->link_count(f), listed = 0, one = 0, by_ca = 0;
  uint32_t both = FL_LINK_SEEN_A | FL_LINK_SEEN_B;
  for (fl_id l = 0; l < nl; l++) {
    uint32_t fl = api->link_flags(f, l);
    if ((fl & FL_LINK_DECLARED) || (fl & both) == 0)
      continue;
    if ((fl & both) != both && filtered_one_sided(api, f, l, fl))
      continue;
    listed++;
    if ((fl & both) == both)
      continue;
    one++;
    fl_id lister = api->link_port(f, l, (fl & FL_LINK_SEEN_A) ? 0 : 1);
    by_ca += api->node_kind(f, api->port_node(f, lister)) == FL_NODE_CA;
  }
  *one_out = one;
  *by_ca_out = by_ca;
  return listed >= 2 && one == listed;
}

static int partial_capture(const fl_host_api *api, fl_ctx *ctx,
                           const fl_fabric *f) {
  uint32_t one = 0, by_ca = 0;
  if (!topo_one_sided_counts(api, f, &one, &by_ca))
    return 0;
  char msg[512];
  snprintf(msg, sizeof msg,
           "partial capture: all %u cables are listed by one end only (%u by "
           "a CA, %u by a switch); the other ends' blocks are missing (a "
           "filtered report such as `ibnetdiscover -p | grep ^CA`, or a cut "
           "dump), so cabling beyond these ports was not captured",
           one, by_ca, one - by_ca);
  jbuf ev;
  jb_init(&ev);
  jb_obj_open(&ev);
  jb_key_int(&ev, "one_sided_links", one);
  jb_key_int(&ev, "listed_by_ca", by_ca);
  jb_key_int(&ev, "listed_by_switch", one - by_ca);
  jb_obj_close(&ev);
  int rc = topo_report(api, ctx, msg, NULL, 0, NULL, 0, NULL, 0, jb_str(&ev));
  jb_free(&ev);
  return rc ? -1 : 1;
}

static int attr_yes(const fl_host_api *api, const fl_fabric *f, fl_id n,
                    const char *key) {
  const char *v = api->attr(f, FL_ENT_NODE, n, key);
  return v && strcmp(v, "yes") == 0;
}

/* Per-device neighbour listings (LLDP, NX-OS, Junos) are one-ended by
 * nature: the neighbours whose own listings were not given are `peer-only`
 * (core/model/views.c) and their cables are not one-sided faults. Say once,
 * as info, whose views the input holds and how many neighbours it names
 * only from the other end, so that nobody reads the silence as a complete
 * fabric. Returns 0, or 1 after api->fail(). */
static int neighbour_views(const fl_host_api *api, fl_ctx *ctx,
                           const fl_fabric *f) {
  uint32_t nl = api->link_count(f), nn = api->node_count(f);
  uint32_t cables = 0, listers = 0, silent = 0;
  for (fl_id l = 0; l < nl; l++) {
    uint32_t fl = api->link_flags(f, l);
    uint32_t both = FL_LINK_SEEN_A | FL_LINK_SEEN_B;
    if ((fl & FL_LINK_DECLARED) || (fl & both) == both || !(fl & both))
      continue;
    fl_id lister = api->link_port(f, l, (fl & FL_LINK_SEEN_A) ? 0 : 1);
    fl_id far = api->port_node(f, api->link_other(f, l, lister));
    cables += fl_node_peer_only(api, f, far) &&
              attr_yes(api, f, far, "listed-as-neighbour");
  }
  if (!cables)
    return 0;
  for (fl_id n = 0; n < nn; n++) {
    listers += attr_yes(api, f, n, "lists-neighbours");
    silent += fl_node_peer_only(api, f, n) &&
              attr_yes(api, f, n, "listed-as-neighbour");
  }
  char msg[512];
  snprintf(msg, sizeof msg,
           "the input holds the neighbour listings of %u device(s); %u "
           "cable(s) lead to %u neighbour(s) whose own listings were not "
           "given: those cables are seen from one end, and the neighbours' "
           "other cables are unknown (give their listings too for a whole "
           "fabric)",
           listers, cables, silent);
  jbuf ev;
  jb_init(&ev);
  jb_obj_open(&ev);
  jb_key_int(&ev, "listing_devices", listers);
  jb_key_int(&ev, "cables_from_one_end", cables);
  jb_key_int(&ev, "neighbours_not_listed", silent);
  jb_obj_close(&ev);
  int rc = fl_emit(api, ctx, FL_SEV_INFO, msg, NULL, 0, NULL, 0, NULL, 0,
                   jb_str(&ev));
  jb_free(&ev);
  return rc;
}

/* Per node: 1 when it lists at least one of its cables itself (its block,
 * its listing, was in the capture). NULL on ENOMEM. */
static uint8_t *listing_nodes(const fl_host_api *api, const fl_fabric *f) {
  uint32_t nl = api->link_count(f), nn = api->node_count(f);
  uint8_t *lists = calloc(nn + 1, 1);
  for (fl_id l = 0; lists && l < nl; l++) {
    uint32_t fl = api->link_flags(f, l);
    if (fl & FL_LINK_SEEN_A)
      lists[api->port_node(f, api->link_port(f, l, 0))] = 1;
    if (fl & FL_LINK_SEEN_B)
      lists[api->port_node(f, api->link_port(f, l, 1))] = 1;
  }
  return lists;
}

/* Nodes that list none of their cables while others name them as peers
 * (a capture cut short before their blocks, or an excerpt): one finding for
 * the capture, not one per cable (646 on a dump cut at a line boundary).
 * Returns 0, or 1 after api->fail(). */
static int absent_listings(const fl_host_api *api, fl_ctx *ctx,
                           const fl_fabric *f, uint32_t nodes, uint32_t cables,
                           fl_id first) {
  if (!nodes)
    return 0;
  char msg[512];
  snprintf(msg, sizeof msg,
           "the capture lacks the blocks (listings) of %u node(s) that other "
           "blocks name as peers, e.g. \"%s\": it was cut short, excerpted "
           "or filtered; %u cable(s) to them are seen from one end only, "
           "and their other cables are unknown",
           nodes, api->node_name(f, first), cables);
  jbuf ev;
  jb_init(&ev);
  jb_obj_open(&ev);
  jb_key_int(&ev, "nodes_without_listing", nodes);
  jb_key_int(&ev, "cables_from_one_end", cables);
  jb_key_str(&ev, "example", api->node_name(f, first));
  jb_obj_close(&ev);
  int rc = topo_report(api, ctx, msg, &first, 1, NULL, 0, NULL, 0, jb_str(&ev));
  jb_free(&ev);
  return rc;
}

int topo_check_one_sided(const fl_host_api *api, fl_ctx *ctx, void *pd) {
  (void)pd;
  const fl_fabric *f = api->fabric(ctx);
  uint32_t nl = api->link_count(f), nn = api->node_count(f);
  int part = partial_capture(api, ctx, f);
  if (part)
    return part < 0;
  uint8_t *lists = listing_nodes(api, f);
  uint8_t *counted = calloc(nn + 1, 1);
  if (!lists || !counted) {
    free(lists), free(counted);
    api->fail(ctx, "out of memory");
    return 1;
  }
  uint32_t absent = 0, absent_cables = 0;
  fl_id absent_first = FL_NONE;
  int rc = 0;
  for (fl_id l = 0; l < nl && !rc; l++) {
    uint32_t fl = api->link_flags(f, l);
    if (fl & FL_LINK_DECLARED)
      continue;
    uint32_t both = FL_LINK_SEEN_A | FL_LINK_SEEN_B;
    if ((fl & both) == both || (fl & both) == 0 ||
        filtered_one_sided(api, f, l, fl))
      continue;
    fl_id lister = api->link_port(f, l, (fl & FL_LINK_SEEN_A) ? 0 : 1);
    fl_id silent = api->link_other(f, l, lister);
    fl_id sn = api->port_node(f, silent);
    if (!lists[sn]) { /* its listing is absent: one finding below */
      absent_cables++;
      if (!counted[sn]) {
        counted[sn] = 1;
        if (!absent++)
          absent_first = sn;
      }
      continue;
    }
    fl_port_ref ports[2];
    topo_port_ref(api, f, lister, &ports[0]);
    topo_port_ref(api, f, silent, &ports[1]);
    fl_id nodes[2] = {ports[0].node, ports[1].node};
    char msg[1024], pa[FL_PORT_TEXT], pb[FL_PORT_TEXT];
    snprintf(msg, sizeof msg,
             "cable %s %s -> %s %s is listed only by \"%s\"; \"%s\" "
             "does not list it (truncated or stale capture, or a cable that "
             "moved during discovery)",
             api->node_name(f, nodes[0]),
             fl_port_text(api, f, lister, pa, sizeof pa),
             api->node_name(f, nodes[1]),
             fl_port_text(api, f, silent, pb, sizeof pb),
             api->node_name(f, nodes[0]), api->node_name(f, nodes[1]));
    jbuf ev;
    jb_init(&ev);
    jb_obj_open(&ev);
    jb_key_str(&ev, "listed_by", api->node_name(f, nodes[0]));
    jb_key_int(&ev, "listed_port", ports[0].port);
    jb_key_str(&ev, "silent_end", api->node_name(f, nodes[1]));
    jb_key_int(&ev, "silent_port", ports[1].port);
    jb_obj_close(&ev);
    rc = topo_report(api, ctx, msg, nodes, 2, ports, 2, &l, 1, jb_str(&ev));
    jb_free(&ev);
  }
  free(lists);
  free(counted);
  if (!rc)
    rc = absent_listings(api, ctx, f, absent, absent_cables, absent_first);
  return rc ? rc : neighbour_views(api, ctx, f);
}
