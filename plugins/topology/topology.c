/*
 * plugins/topology/topology.c — structural sanity of a fabric (rule id
 * prefix `topology`).
 *
 * These are the checks every other analysis presumes: that the inputs
 * describe one consistent, connected fabric. They read only the model
 * (nodes, ports, links, listing flags, tiers) through fl_host_api, exactly
 * as a third-party plugin would (DESIGN.md §3).
 *
 * Sources: a cable is listed from both ends in ibnetdiscover output
 * (rdma-core infiniband-diags/ibnetdiscover.c, out_switch_port/out_ca_port),
 * so a one-sided listing is a truncated or stale capture; node and port GUIDs
 * are EUI-64s that must be unique in a subnet (IBA vol. 1, 4.1.1); active
 * width/speed are negotiated per link, so both ends report the same values
 * (IBA vol. 1, 5.6.4 / PortInfo LinkWidthActive, LinkSpeedActive).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "direct.h"
#include "fabriclint/json_buf.h"
#include "fabriclint/plugin.h"
#include "topology.h"

#define MAX_NAMED 50 /* nodes named in one finding; the rest are counted */

/* ---- helpers
 * ------------------------------------------------------------------ */

static void port_ref(const fl_host_api *api, const fl_fabric *f, fl_id p,
                     fl_port_ref *out) {
  out->node = api->port_node(f, p);
  out->port = api->port_num(f, p);
}

static int report(const fl_host_api *api, fl_ctx *ctx, const char *msg,
                  const fl_id *nodes, uint32_t n_nodes,
                  const fl_port_ref *ports, uint32_t n_ports,
                  const fl_id *links, uint32_t n_links, const char *evidence) {
  return fl_emit(api, ctx, 0, msg, nodes, n_nodes, ports, n_ports, links,
                 n_links, evidence);
}

static const char *kind_word(uint32_t k) {
  return k == 1 ? "switch" : k == 2 ? "CA" : k == 3 ? "router" : "node";
}

static void link_type(const fl_host_api *api, uint32_t w, uint32_t s, char *buf,
                      size_t size) {
  if (w)
    snprintf(buf, size, "%ux%s", w, api->speed_name(s));
  else
    snprintf(buf, size, "??%s", api->speed_name(s));
}

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
static int one_sided_counts(const fl_host_api *api, const fl_fabric *f,
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
  if (!one_sided_counts(api, f, &one, &by_ca))
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
  int rc = report(api, ctx, msg, NULL, 0, NULL, 0, NULL, 0, jb_str(&ev));
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
  int rc = report(api, ctx, msg, &first, 1, NULL, 0, NULL, 0, jb_str(&ev));
  jb_free(&ev);
  return rc;
}

static int check_one_sided(const fl_host_api *api, fl_ctx *ctx, void *pd) {
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
    port_ref(api, f, lister, &ports[0]);
    port_ref(api, f, silent, &ports[1]);
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
    rc = report(api, ctx, msg, nodes, 2, ports, 2, &l, 1, jb_str(&ev));
    jb_free(&ev);
  }
  free(lists);
  free(counted);
  if (!rc)
    rc = absent_listings(api, ctx, f, absent, absent_cables, absent_first);
  return rc ? rc : neighbour_views(api, ctx, f);
}

/* ---- topology.link-mismatch
 * ----------------------------------------------------- */

static int check_mismatch(const fl_host_api *api, fl_ctx *ctx, void *pd) {
  (void)pd;
  const fl_fabric *f = api->fabric(ctx);
  uint32_t nl = api->link_count(f);
  for (fl_id l = 0; l < nl; l++) {
    uint32_t fl = api->link_flags(f, l);
    if (!(fl & (FL_LINK_WIDTH_MISMATCH | FL_LINK_SPEED_MISMATCH)))
      continue;
    fl_port_ref ports[2];
    port_ref(api, f, api->link_port(f, l, 0), &ports[0]);
    port_ref(api, f, api->link_port(f, l, 1), &ports[1]);
    fl_id nodes[2] = {ports[0].node, ports[1].node};
    char ta[32], tb[32], msg[1024], pa[FL_PORT_TEXT], pb[FL_PORT_TEXT];
    link_type(api, api->link_width(f, l), api->link_speed(f, l), ta, sizeof ta);
    link_type(api, api->link_width_b(f, l), api->link_speed_b(f, l), tb,
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
    int rc = report(api, ctx, msg, nodes, 2, ports, 2, &l, 1, jb_str(&ev));
    jb_free(&ev);
    if (rc)
      return rc;
  }
  return 0;
}

/* ---- topology.port-connected-twice
 * --------------------------------------------- */

static int check_twice(const fl_host_api *api, fl_ctx *ctx, void *pd) {
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
    port_ref(api, f, p, &ports[0]);
    jbuf ev;
    jb_init(&ev);
    jb_obj_open(&ev);
    jb_key(&ev, "peers");
    jb_arr_open(&ev);
    for (uint32_t i = 0; i < c; i++) {
      links[i] = api->port_link(f, p, i);
      fl_id o = api->link_other(f, links[i], p);
      port_ref(api, f, o, &ports[i + 1]);
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
             kind_word(api->node_kind(f, node)), api->node_name(f, node),
             fl_port_text(api, f, p, pn, sizeof pn), c,
             api->node_name(f, ports[1].node),
             fl_port_text(api, f, far[0], p1, sizeof p1),
             api->node_name(f, ports[2].node),
             fl_port_text(api, f, far[1], p2, sizeof p2), c > 2 ? ", ..." : "");
    int rc = report(api, ctx, msg, nodes, c + 1, ports, c + 1, links, c,
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

static int check_range(const fl_host_api *api, fl_ctx *ctx, void *pd) {
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
               kind_word(api->node_kind(f, n)), api->node_name(f, n));
    else
      snprintf(msg, sizeof msg,
               "%s \"%s\" uses port %u but declares only %u ports",
               kind_word(api->node_kind(f, n)), api->node_name(f, n), num, max);
    jbuf ev;
    jb_init(&ev);
    jb_obj_open(&ev);
    jb_key_int(&ev, "port", num);
    jb_key_int(&ev, "declared_ports", max);
    jb_obj_close(&ev);
    fl_id l = has_link ? api->port_link(f, p, 0) : FL_NONE;
    int rc = report(api, ctx, msg, &n, 1, &ref, 1, has_link ? &l : NULL,
                    has_link ? 1 : 0, jb_str(&ev));
    jb_free(&ev);
    if (rc)
      return rc;
  }
  return 0;
}

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

static int check_dup_guid(const fl_host_api *api, fl_ctx *ctx, void *pd) {
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

/* ---- topology.unlinked-ca
 * --------------------------------------------------------- */

static int node_links(const fl_host_api *api, const fl_fabric *f, fl_id n) {
  fl_id first = api->node_first_port(f, n);
  uint32_t c = api->node_port_count(f, n), total = 0;
  for (uint32_t k = 0; first != FL_NONE && k < c; k++)
    total += api->port_link_count(f, first + k);
  return (int)total;
}

static int check_unlinked(const fl_host_api *api, fl_ctx *ctx, void *pd) {
  (void)pd;
  const fl_fabric *f = api->fabric(ctx);
  uint32_t nn = api->node_count(f);
  for (fl_id n = 0; n < nn; n++) {
    if (api->node_kind(f, n) == FL_NODE_SWITCH || node_links(api, f, n) > 0)
      continue;
    char msg[1024];
    snprintf(msg, sizeof msg,
             "%s \"%s\" has no cable: it is isolated from the fabric",
             kind_word(api->node_kind(f, n)), api->node_name(f, n));
    int rc = report(api, ctx, msg, &n, 1, NULL, 0, NULL, 0, NULL);
    if (rc)
      return rc;
  }
  return 0;
}

/* ---- topology.disconnected
 * -------------------------------------------------------- */

/* The nodes of an incomplete capture whose own listing is missing: the
 * silent ends of cables listed by one end only (a cut or excerpted dump,
 * `ibnetdiscover -p` lines of some ports, a neighbour whose LLDP listing
 * was not given). Their unlisted cables may join parts of the fabric that
 * look cut off. Returns how many, *@first the first, 0 when none. */
static uint32_t unlisted_nodes(const fl_host_api *api, const fl_fabric *f,
                               fl_id *first) {
  uint32_t nl = api->link_count(f), nn = api->node_count(f), n = 0;
  uint32_t both = FL_LINK_SEEN_A | FL_LINK_SEEN_B;
  uint8_t *seen = calloc(nn + 1, 1);
  *first = FL_NONE;
  for (fl_id l = 0; seen && l < nl; l++) {
    uint32_t fl = api->link_flags(f, l);
    if ((fl & FL_LINK_DECLARED) || (fl & both) == both || !(fl & both))
      continue;
    fl_id lister = api->link_port(f, l, (fl & FL_LINK_SEEN_A) ? 0 : 1);
    fl_id v = api->port_node(f, api->link_other(f, l, lister));
    if (v < nn && !seen[v]) {
      seen[v] = 1;
      if (!n++)
        *first = v;
    }
  }
  free(seen);
  return n;
}

static int report_component(const fl_host_api *api, fl_ctx *ctx,
                            const fl_fabric *f, const uint32_t *memb,
                            uint32_t c, uint32_t size, uint32_t main_size,
                            int via_cas, int switchless, uint32_t n_unlisted,
                            fl_id unlisted, int fleet) {
  uint32_t nn = api->node_count(f), named = 0, sw = 0, ca = 0;
  fl_id nodes[MAX_NAMED];
  jbuf ev;
  jb_init(&ev);
  jb_obj_open(&ev);
  jb_key(&ev, "nodes");
  jb_arr_open(&ev);
  for (fl_id n = 0; n < nn; n++) {
    if (memb[n] != c)
      continue;
    if (api->node_kind(f, n) == FL_NODE_SWITCH)
      sw++;
    else
      ca++;
    if (named < MAX_NAMED) {
      nodes[named++] = n;
      jb_str_item(&ev, api->node_name(f, n));
    }
  }
  jb_arr_close(&ev);
  jb_key_int(&ev, "size", size);
  jb_key_int(&ev, "switches", sw);
  jb_key_int(&ev, "cas", ca);
  jb_key_int(&ev, "main_component_size", main_size);
  jb_key_bool(&ev, "joined_only_through_cas", via_cas);
  if (switchless) /* only then: other fabrics' evidence stays as it was */
    jb_key_bool(&ev, "switchless", 1);
  if (n_unlisted)
    jb_key_int(&ev, "unlisted_nodes", n_unlisted);
  if (fleet)
    jb_key_str(&ev, "fleet", "lab-graph");
  jb_obj_close(&ev);
  char msg[1024], why[320] = "";
  /* unknown is not wrong: an incomplete capture cannot show a cut */
  if (fleet)
    snprintf(why, sizeof why,
             "; by design: the input is a fleet of separate testbeds (a "
             "SONiC lab graph), each its own network");
  else if (n_unlisted)
    snprintf(why, sizeof why,
             "; not judged: the capture lacks the listings of %u node(s) "
             "(e.g. \"%s\"), whose unlisted cables may join the parts",
             n_unlisted, api->node_name(f, unlisted));
  if (switchless)
    snprintf(msg, sizeof msg,
             "%u node(s) (%u CAs/routers) starting with \"%s\" are not cabled "
             "to the other hosts of this switchless fabric (%u nodes): no "
             "chain of back-to-back cables joins them%s",
             size, ca, api->node_name(f, nodes[0]), main_size, why);
  else
    snprintf(msg, sizeof msg,
             "%u node(s) (%u switches, %u CAs/routers) starting with \"%s\" "
             "are cut off from the main part of the fabric (%u nodes)%s%s",
             size, sw, ca, api->node_name(f, nodes[0]), main_size,
             via_cas ? "; they are joined to it only through multi-port CAs, "
                       "which do not forward: a separate subnet"
                     : "",
             why);
  int rc = fl_emit(api, ctx, n_unlisted || fleet ? FL_SEV_INFO : 0, msg, nodes,
                   named, NULL, 0, NULL, 0, jb_str(&ev));
  jb_free(&ev);
  return rc;
}

/* Every node of component @c is part of a fleet of separate networks (the
 * `fleet` attribute a SONiC lab graph's loader sets): its islands are
 * testbeds by design (real-corpus class F15). */
static int component_fleet(const fl_host_api *api, const fl_fabric *f,
                           const uint32_t *memb, uint32_t c) {
  uint32_t nn = api->node_count(f), seen = 0;
  for (fl_id n = 0; n < nn; n++) {
    if (memb[n] != c)
      continue;
    if (!api->attr(f, FL_ENT_NODE, n, "fleet"))
      return 0;
    seen++;
  }
  return seen > 0;
}

/* The plane of component @c: the plane attribute shared by all its
 * switches, or NULL when one lacks it or they differ. */
static const char *component_plane(const fl_host_api *api, const fl_fabric *f,
                                   const uint32_t *memb, uint32_t c) {
  const char *plane = NULL;
  uint32_t nn = api->node_count(f);
  for (fl_id n = 0; n < nn; n++) {
    if (memb[n] != c || api->node_kind(f, n) != FL_NODE_SWITCH)
      continue;
    const char *p = api->attr(f, FL_ENT_NODE, n, "plane");
    if (!p || (plane && strcmp(p, plane) != 0))
      return NULL;
    plane = p;
  }
  return plane;
}

/* 1 when a CA of component @c is also cabled into component @other: the
 * two are joined only through multi-port CAs, which do not forward. */
static int joined_by_cas(const fl_host_api *api, const fl_fabric *f,
                         const uint32_t *memb, uint32_t c, uint32_t other) {
  uint32_t nn = api->node_count(f);
  for (fl_id n = 0; n < nn; n++) {
    if (memb[n] != c || api->node_kind(f, n) != FL_NODE_CA)
      continue;
    fl_id first = api->node_first_port(f, n);
    for (uint32_t k = 0; first != FL_NONE && k < api->node_port_count(f, n);
         k++) {
      fl_id l = api->port_link(f, first + k, 0);
      if (l != FL_NONE &&
          memb[api->port_node(f, api->link_other(f, l, first + k))] == other)
        return 1;
    }
  }
  return 0;
}

static int check_disconnected(const fl_host_api *api, fl_ctx *ctx, void *pd) {
  (void)pd;
  const fl_fabric *f = api->fabric(ctx);
  uint32_t one = 0, by_ca = 0;
  if (one_sided_counts(api, f, &one, &by_ca))
    return 0; /* a partial capture (topology.one-sided-link says so) cannot
                 show how the parts join: not judged */
  uint32_t nn = api->node_count(f), nc = 0, nsw = 0;
  for (fl_id n = 0; n < nn; n++)
    nsw += api->node_kind(f, n) == FL_NODE_SWITCH;
  fl_id unlisted;
  uint32_t n_unlisted = unlisted_nodes(api, f, &unlisted);
  /* no switch at all: hosts cabled back to back, each cable its own link
   * by design; what matters is whether cables join every host (hosts
   * route for each other), not that no CA forwards */
  int switchless = nsw == 0;
  uint32_t *memb = calloc(nn + 1, sizeof *memb);
  uint32_t *size = calloc(nn + 1, sizeof *size);
  int rc = 0;
  if (!memb || !size ||
      (switchless ? topo_host_components(api, f, memb, &nc)
                  : api->components(f, memb, &nc)) != 0) {
    api->fail(ctx, "could not compute connected components");
    rc = 1;
  }
  uint32_t main_c = 0;
  for (fl_id n = 0; !rc && n < nn; n++)
    size[memb[n]]++;
  for (uint32_t c = 0; !rc && c < nc; c++)
    if (size[c] > size[main_c])
      main_c = c;
  for (uint32_t c = 0; !rc && c < nc; c++) {
    if (c == main_c)
      continue;
    /* a lone node with no cable is topology.unlinked-ca's business */
    if (size[c] == 1) {
      fl_id lone = 0;
      while (memb[lone] != c)
        lone++;
      if (node_links(api, f, lone) == 0)
        continue;
    }
    /* another plane by design (plane attributes): a separate subnet is
     * what was meant */
    const char *pc = component_plane(api, f, memb, c);
    const char *pm = component_plane(api, f, memb, main_c);
    if (pc && pm && strcmp(pc, pm) != 0)
      continue;
    rc = report_component(api, ctx, f, memb, c, size[c], size[main_c],
                          !switchless && joined_by_cas(api, f, memb, c, main_c),
                          switchless, n_unlisted, unlisted,
                          component_fleet(api, f, memb, c) &&
                              component_fleet(api, f, memb, main_c));
  }
  free(memb);
  free(size);
  return rc;
}

/* ---- topology.self-loop
 * ------------------------------------------------------------ */

static int check_self_loop(const fl_host_api *api, fl_ctx *ctx, void *pd) {
  (void)pd;
  const fl_fabric *f = api->fabric(ctx);
  uint32_t nl = api->link_count(f);
  for (fl_id l = 0; l < nl; l++) {
    fl_port_ref ports[2];
    port_ref(api, f, api->link_port(f, l, 0), &ports[0]);
    port_ref(api, f, api->link_port(f, l, 1), &ports[1]);
    if (ports[0].node != ports[1].node)
      continue;
    char msg[1024], pa[FL_PORT_TEXT], pb[FL_PORT_TEXT];
    snprintf(msg, sizeof msg,
             "cable loops back into the same %s: \"%s\" %s <-> %s",
             kind_word(api->node_kind(f, ports[0].node)),
             api->node_name(f, ports[0].node),
             fl_port_text(api, f, api->link_port(f, l, 0), pa, sizeof pa),
             fl_port_text(api, f, api->link_port(f, l, 1), pb, sizeof pb));
    int rc = report(api, ctx, msg, &ports[0].node, 1, ports, 2, &l, 1, NULL);
    if (rc)
      return rc;
  }
  return 0;
}

/* ---- topology.degraded-link and topology.mixed-speed
 * ------------------------------ */

/* SHARP Aggregation Nodes sit on an internal switch port (devid 0xcf09,
 * description "Mellanox Technologies Aggregation Node"); their links are not
 * cables and are left out of link-type statistics. */
static int is_an(const fl_host_api *api, const fl_fabric *f, fl_id n) {
  return api->node_kind(f, n) == FL_NODE_CA &&
         (api->node_devid(f, n) == 0xcf09 ||
          strstr(api->node_desc(f, n), "Aggregation Node") != NULL);
}

/* Links left out of link-type statistics: SHARP AN links (internal) and
 * loop-back cables (test fixtures, reported by topology.self-loop). */
static int internal_link(const fl_host_api *api, const fl_fabric *f, fl_id l) {
  fl_id a = api->port_node(f, api->link_port(f, l, 0));
  fl_id b = api->port_node(f, api->link_port(f, l, 1));
  return a == b || is_an(api, f, a) || is_an(api, f, b);
}

static int add_unique(fl_id *v, uint32_t *n, fl_id x) {
  for (uint32_t i = 0; i < *n; i++)
    if (v[i] == x)
      return 0;
  v[(*n)++] = x;
  return 1;
}

/* Links are grouped by the tiers they join ("0-1" host access, "1-2"
 * leaf-spine, ...): within a group the design intends one link type. Tiers
 * 0 to MAX_GT - 1 have a group per pair (a five-tier fabric's 3-4 cables are
 * a pair of their own, not "unknown"); a link with an end of no tier, or of
 * a tier beyond them, is in the last group, UNKNOWN_G. */
#define MAX_GT    8u
#define UNKNOWN_G (MAX_GT * MAX_GT)
#define GROUPS    (UNKNOWN_G + 1)
static uint32_t group_of(const fl_host_api *api, const fl_fabric *f, fl_id l) {
  uint32_t ta = api->node_tier(f, api->port_node(f, api->link_port(f, l, 0)));
  uint32_t tb = api->node_tier(f, api->port_node(f, api->link_port(f, l, 1)));
  if (ta >= MAX_GT || tb >= MAX_GT)
    return UNKNOWN_G;
  uint32_t lo = ta < tb ? ta : tb, hi = ta < tb ? tb : ta;
  return lo * MAX_GT + hi;
}

static void group_name(uint32_t g, char *buf, size_t size) {
  if (g == UNKNOWN_G)
    snprintf(buf, size, "unknown tiers");
  else
    snprintf(buf, size, "tier %u-%u", g / MAX_GT, g % MAX_GT);
}

typedef struct type_hist {
  uint32_t width[13];
  uint32_t speed[32];
} type_hist;

/* The most common index of histogram @v; on a tie the largest index (the
 * widest link), so that the links judged degraded are the narrow minority
 * by capacity, never the healthy wider ones. */
static uint32_t mode_of(const uint32_t *v, uint32_t n) {
  uint32_t best = 0;
  for (uint32_t i = 1; i < n; i++)
    if (v[i] && v[i] >= v[best])
      best = i;
  return v[best] ? best : 0;
}

static int check_degraded(const fl_host_api *api, fl_ctx *ctx, void *pd) {
  (void)pd;
  const fl_fabric *f = api->fabric(ctx);
  uint32_t nl = api->link_count(f);
  int64_t want_w = 0;
  const char *want_s_txt = NULL;
  int wrc = api->param_int(ctx, "expected-width", &want_w);
  if (wrc == FL_EINVAL || (wrc == 0 && want_w != 1 && want_w != 2 &&
                           want_w != 4 && want_w != 8 && want_w != 12)) {
    fl_param_error(api, ctx, "expected-width",
                   "expected a lane count: 1, 2, 4, 8 or 12 (e.g. 4 for 4x)");
    return 1;
  }
  if (wrc != 0)
    want_w = 0;
  if (api->param_string(ctx, "expected-speed", &want_s_txt) != 0)
    want_s_txt = NULL;
  uint32_t want_s = 0;
  for (uint32_t s = 1; want_s_txt && *want_s_txt && s < 32; s++)
    if (strcmp(api->speed_name(s), want_s_txt) == 0)
      want_s = s;
  if (want_s_txt && *want_s_txt && !want_s) {
    fl_param_error(api, ctx, "expected-speed",
                   "not a speed name (SDR..XDR, 100G..)");
    return 1;
  }
  type_hist h[GROUPS];
  memset(h, 0, sizeof h);
  for (fl_id l = 0; l < nl; l++) {
    uint32_t g = group_of(api, f, l), w = api->link_width(f, l);
    if (!internal_link(api, f, l))
      h[g].width[w <= 12 ? w : 0]++;
  }
  for (fl_id l = 0; l < nl; l++) {
    if (internal_link(api, f, l))
      continue;
    uint32_t g = group_of(api, f, l), w = api->link_width(f, l);
    uint32_t s = api->link_speed(f, l);
    uint32_t ew = want_w ? (uint32_t)want_w : mode_of(h[g].width, 13);
    int bad_w = w && ew && w < ew;
    int bad_s =
        want_s && s && api->speed_lane_gbps(s) < api->speed_lane_gbps(want_s);
    if (!bad_w && !bad_s)
      continue;
    fl_port_ref ports[2];
    port_ref(api, f, api->link_port(f, l, 0), &ports[0]);
    port_ref(api, f, api->link_port(f, l, 1), &ports[1]);
    fl_id nodes[2] = {ports[0].node, ports[1].node};
    char seen[32], exp[32], gname[32], msg[1024], pa[FL_PORT_TEXT],
        pb[FL_PORT_TEXT];
    link_type(api, w, s, seen, sizeof seen);
    link_type(api, bad_w ? ew : w, bad_s ? want_s : s, exp, sizeof exp);
    group_name(g, gname, sizeof gname);
    snprintf(msg, sizeof msg,
             "degraded link %s %s <-> %s %s runs at %s, below the "
             "%s expected (%s)",
             api->node_name(f, nodes[0]),
             fl_port_text(api, f, api->link_port(f, l, 0), pa, sizeof pa),
             api->node_name(f, nodes[1]),
             fl_port_text(api, f, api->link_port(f, l, 1), pb, sizeof pb), seen,
             exp, want_w || want_s ? "policy" : gname);
    jbuf ev;
    jb_init(&ev);
    jb_obj_open(&ev);
    jb_key_str(&ev, "seen", seen);
    jb_key_str(&ev, "expected", exp);
    jb_key_str(&ev, "expected_from",
               want_w || want_s ? "parameters" : "majority of the tier pair");
    jb_key_str(&ev, "group", gname);
    jb_key_double(&ev, "seen_gbps", api->link_gbps(f, l));
    jb_obj_close(&ev);
    /* one cause per (tier pair, rate seen, rate expected): a batch of
     * cables trained down together is one fact, not one per cable */
    char cause[128], cmsg[256];
    snprintf(cause, sizeof cause, "%s|%s|%s", gname, seen, exp);
    snprintf(cmsg, sizeof cmsg,
             "{count} links of %s run at %s, below the %s expected (%s)", gname,
             seen, exp,
             want_w || want_s ? "policy" : "majority of the tier pair");
    /* the fix: the width and/or speed expected */
    char wv[8];
    snprintf(wv, sizeof wv, "%ux", ew);
    fl_fix_change chg[2];
    const fl_fix_change *pc[2];
    uint32_t nc = 0;
    memset(chg, 0, sizeof chg);
    if (bad_w)
      chg[nc++] =
          (fl_fix_change){sizeof chg[0], FL_FIX_SET_WIDTH, l, 0, 0, 0, wv};
    if (bad_s)
      chg[nc++] = (fl_fix_change){
          sizeof chg[0], FL_FIX_SET_SPEED, l, 0, 0, 0, api->speed_name(want_s)};
    for (uint32_t k = 0; k < nc; k++)
      pc[k] = &chg[k];
    char how[256];
    snprintf(how, sizeof how,
             "make the link run at %s (reseat, then replace "
             "the cable or transceiver)",
             exp);
    fl_fix fx = {sizeof fx, nc, how, pc};
    /* the cable is the root: what other rules find only because it runs
     * slow (an uplink short of capacity, a mixed ECMP group) attaches here */
    fl_root root = {FL_ROOT_LINK, FL_ROOT_PRIMARY, l, NULL};
    int rc = fl_emit_rooted(api, ctx, 0, msg, nodes, 2, ports, 2, &l, 1,
                            jb_str(&ev), cause, cmsg, &fx, &root);
    jb_free(&ev);
    if (rc)
      return rc;
  }
  return 0;
}

/* The reference speed of a histogram: the most common; on a tie the fastest
 * (by lane rate), so that the links named are the slow minority by
 * capacity, never the healthy faster ones. *@tie is set when another speed
 * has as many links. */
static uint32_t major_speed(const fl_host_api *api, const uint32_t *v,
                            uint32_t n, int *tie) {
  uint32_t best = 0;
  *tie = 0;
  for (uint32_t i = 1; i < n; i++) {
    if (!v[i])
      continue;
    if (best && v[i] == v[best])
      *tie = 1;
    if (!best || v[i] > v[best] ||
        (v[i] == v[best] &&
         api->speed_lane_gbps(i) > api->speed_lane_gbps(best))) {
      if (best && v[i] > v[best])
        *tie = 0;
      best = i;
    }
  }
  return best;
}

static int check_mixed_speed(const fl_host_api *api, fl_ctx *ctx, void *pd) {
  (void)pd;
  const fl_fabric *f = api->fabric(ctx);
  uint32_t nl = api->link_count(f);
  type_hist h[GROUPS];
  memset(h, 0, sizeof h);
  for (fl_id l = 0; l < nl; l++) {
    uint32_t s = api->link_speed(f, l);
    if (s && s < 32 && !internal_link(api, f, l))
      h[group_of(api, f, l)].speed[s]++;
  }
  for (uint32_t g = 0; g < GROUPS; g++) {
    int tie = 0;
    uint32_t distinct = 0, major = major_speed(api, h[g].speed, 32, &tie);
    for (uint32_t s = 1; s < 32; s++)
      distinct += h[g].speed[s] > 0;
    if (distinct < 2)
      continue;
    /* name the switches/CAs on the minority links, and the links (their
     * design <link> elements locate the finding) */
    fl_id nodes[MAX_NAMED], links[MAX_NAMED];
    uint32_t named = 0, n_links = 0, minority = 0;
    for (fl_id l = 0; l < nl; l++) {
      uint32_t s = api->link_speed(f, l);
      if (group_of(api, f, l) != g || !s || s == major ||
          internal_link(api, f, l))
        continue;
      minority++;
      if (n_links < MAX_NAMED)
        links[n_links++] = l;
      if (named + 2 > MAX_NAMED)
        continue;
      add_unique(nodes, &named, api->port_node(f, api->link_port(f, l, 0)));
      add_unique(nodes, &named, api->port_node(f, api->link_port(f, l, 1)));
    }
    char gname[32], msg[1024];
    group_name(g, gname, sizeof gname);
    jbuf ev;
    jb_init(&ev);
    jb_obj_open(&ev);
    jb_key_str(&ev, "group", gname);
    jb_key(&ev, "links_by_speed");
    jb_obj_open(&ev);
    size_t off = 0;
    char list[512] = "";
    for (uint32_t s = 1; s < 32; s++)
      if (h[g].speed[s]) {
        jb_key_int(&ev, api->speed_name(s), h[g].speed[s]);
        off += (size_t)snprintf(
            list + off, off < sizeof list ? sizeof list - off : 0, "%s%u %s",
            off ? ", " : "", h[g].speed[s], api->speed_name(s));
      }
    jb_obj_close(&ev);
    jb_key_str(&ev, "reference_speed", api->speed_name(major));
    jb_key_bool(&ev, "tie", tie);
    jb_obj_close(&ev);
    /* Links whose tiers are unknown (no compute endpoint ranks their
     * switches: one device's minigraph, a switch-only plan, a fleet of lab
     * testbeds) cannot be said to share a tier: downlinks and uplinks of
     * different roles run at different speeds by design (real corpus F13,
     * F15). Unknown is not wrong: said as info, with no fix. */
    int unknown = g == UNKNOWN_G;
    if (unknown)
      snprintf(msg, sizeof msg,
               "links whose tiers are unknown run at %u different speeds "
               "(%s); not judged: without tiers (no compute endpoint ranks "
               "their switches) links of different roles cannot be told "
               "apart; give `tier` attributes to judge them",
               distinct, list);
    else
      snprintf(msg, sizeof msg,
               "links of %s run at %u different speeds (%s); mixed speeds in "
               "one tier make ECMP and collective bandwidth uneven; named: the "
               "nodes on links not at %s (the %s)",
               gname, distinct, list, api->speed_name(major),
               tie ? "fastest of the speeds tied for most links"
                   : "speed of most links");
    /* the fix, when the reference speed is clear and every minority link
     * is listed: each runs at the reference speed */
    fl_fix_change chg[MAX_NAMED];
    const fl_fix_change *pc[MAX_NAMED];
    for (uint32_t k = 0; k < n_links; k++) {
      memset(&chg[k], 0, sizeof chg[k]);
      chg[k].struct_size = sizeof chg[k];
      chg[k].kind = FL_FIX_SET_SPEED;
      chg[k].link = links[k];
      chg[k].value = api->speed_name(major);
      pc[k] = &chg[k];
    }
    char how[256];
    snprintf(how, sizeof how, "make the %u link(s) of %s not at %s run at %s",
             minority, gname, api->speed_name(major), api->speed_name(major));
    fl_fix fx = {sizeof fx, n_links, how, pc};
    /* one cable off its tier's speed is the root of what ECMP finds
     * because of it (a mixed next-hop set, an uplink short of capacity):
     * they attach here, as under a degraded width (outside tester, session
     * 11: a 4xDDR cable among 48 4xEDR leaf-spine cables gave 5 findings) */
    fl_root root = {FL_ROOT_LINK, FL_ROOT_PRIMARY, links[0], NULL};
    int rc =
        fl_emit_rooted(api, ctx, unknown ? FL_SEV_INFO : 0, msg, nodes, named,
                       NULL, 0, links, n_links, jb_str(&ev), NULL, NULL,
                       !unknown && !tie && minority == n_links ? &fx : NULL,
                       !unknown && !tie && minority == 1 ? &root : NULL);
    jb_free(&ev);
    if (rc)
      return rc;
  }
  return 0;
}

/* ---- topology.same-tier-link
 * ------------------------------------------------- */

/* In a hierarchical fabric (switches on two or more tiers) cables join
 * adjacent tiers (the cables inside a director chassis, whose ASICs are one
 * switch of one tier, are not fabric cables and are skipped); a leaf-to-leaf or
 * spine-to-spine cable is a miswire that breaks up/down routing (it is how the
 * extra-leaf-link fixtures create credit loops under minhop). Flat fabrics
 * (rings, tori, all switches on one tier) are left alone. */
static int check_same_tier(const fl_host_api *api, fl_ctx *ctx, void *pd) {
  (void)pd;
  const fl_fabric *f = api->fabric(ctx);
  uint32_t nn = api->node_count(f), nl = api->link_count(f);
  uint32_t tiers_seen = 0, lo = UINT32_MAX, hi = 0;
  for (fl_id n = 0; n < nn; n++) {
    uint32_t t = api->node_tier(f, n);
    if (api->node_kind(f, n) != FL_NODE_SWITCH || t == FL_TIER_UNKNOWN)
      continue;
    if (t < lo)
      lo = t;
    if (t > hi)
      hi = t;
    tiers_seen = 1;
  }
  if (!tiers_seen || lo == hi)
    return 0;
  for (fl_id l = 0; l < nl; l++) {
    fl_port_ref ports[2];
    port_ref(api, f, api->link_port(f, l, 0), &ports[0]);
    port_ref(api, f, api->link_port(f, l, 1), &ports[1]);
    fl_id a = ports[0].node, b = ports[1].node;
    uint32_t ta = api->node_tier(f, a), tb = api->node_tier(f, b);
    if (a == b || api->node_kind(f, a) != FL_NODE_SWITCH ||
        api->node_kind(f, b) != FL_NODE_SWITCH || ta != tb ||
        ta == FL_TIER_UNKNOWN)
      continue;
    if (FL_API_HAS(api, link_internal) && api->link_internal(f, l))
      continue; /* inside a director chassis: one switch, one tier */
    fl_id nodes[2] = {a, b};
    char msg[1024];
    snprintf(
        msg, sizeof msg,
        "cable \"%s\" port %u <-> \"%s\" port %u joins two switches of "
        "tier %u; in a %u-tier fabric cables join adjacent tiers (this one "
        "breaks up/down routing)",
        api->node_name(f, a), ports[0].port, api->node_name(f, b),
        ports[1].port, ta, hi);
    jbuf ev;
    jb_init(&ev);
    jb_obj_open(&ev);
    jb_key_int(&ev, "tier", ta);
    jb_key_int(&ev, "top_tier", hi);
    jb_obj_close(&ev);
    int rc = report(api, ctx, msg, nodes, 2, ports, 2, &l, 1, jb_str(&ev));
    jb_free(&ev);
    if (rc)
      return rc;
  }
  return 0;
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

static int check_lids(const fl_host_api *api, fl_ctx *ctx, void *pd) {
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

/* ---- descriptors
 * -------------------------------------------------------------------- */

#define RULE(var, sev, rid, summ, hlp, fn, prm, nprm)                          \
  static const fl_rule_def var = {                                             \
      sizeof(fl_rule_def), sev, rid, summ, hlp, 1, 0, prm, nprm, fn}

RULE(R_ONE_SIDED, FL_SEV_ERROR, "topology.one-sided-link",
     "a cable is listed by one end only",
     "ibnetdiscover lists every cable twice, once from each end. A cable that "
     "only one end lists means the capture is truncated or stale, or a cable "
     "moved while the fabric was being discovered. Re-run ibnetdiscover.",
     check_one_sided, NULL, 0);
RULE(R_MISMATCH, FL_SEV_ERROR, "topology.link-mismatch",
     "the two ends of a cable report different width or speed",
     "A link negotiates one active width and speed (IBA PortInfo "
     "LinkWidthActive/LinkSpeedActive); two listings that disagree come from "
     "captures taken at different times or a hand-edited file.",
     check_mismatch, NULL, 0);
RULE(R_TWICE, FL_SEV_ERROR, "topology.port-connected-twice",
     "a port appears at the end of two or more cables",
     "Each port holds one cable. Two cables on one port come from merged or "
     "edited dumps, or from a plan that reuses a port.",
     check_twice, NULL, 0);
RULE(R_RANGE, FL_SEV_ERROR, "topology.port-out-of-range",
     "a port number exceeds the node's port count, or port 0 is cabled",
     "NodeInfo NumPorts bounds the physical ports of a node (switch port 0 is "
     "internal). A port beyond it is a typo in a plan or a corrupted dump.",
     check_range, NULL, 0);
RULE(R_DUPGUID, FL_SEV_ERROR, "topology.duplicate-guid",
     "two nodes or ports share a GUID",
     "Node and port GUIDs are EUI-64s and unique in a subnet; a duplicate "
     "breaks subnet management and routing (OpenSM reports duplicate GUIDs "
     "too). Usually a cloned VM/BMC image or a mis-flashed adapter.",
     check_dup_guid, NULL, 0);
RULE(R_UNLINKED, FL_SEV_WARNING, "topology.unlinked-ca",
     "a CA or router has no cable",
     "A host adapter listed without any link is not part of the fabric: a "
     "cable is missing or the port is down.",
     check_unlinked, NULL, 0);
RULE(R_DISCONNECTED, FL_SEV_ERROR, "topology.disconnected",
     "the fabric is split into several components",
     "Every node should reach every other. Each component other than the "
     "largest is reported with the nodes it cuts off. Connectivity runs "
     "through switches (a CA does not forward); in a fabric with no switch "
     "at all (hosts cabled back to back) it runs through the hosts' cables.",
     check_disconnected, NULL, 0);
RULE(R_DIRECT_INDEX, FL_SEV_WARNING, "topology.direct-port-index",
     "back-to-back cables between hosts mix equal and different port indexes",
     "Hosts cabled to each other without a switch (a ring of dual-port "
     "hosts) join either equal port indexes on every cable (p0-p0, p1-p1: "
     "NICs paired by index, NCCL's default, always share a cable; impossible "
     "in a ring of an odd number of hosts) or p0 to p1 on every cable (a "
     "crossed ring; NICs paired by subnet). A mix is neither. Indexes are a "
     "host's back-to-back ports in natural order of their names. The finding "
     "names the cables of each kind and the fewest hosts whose two cables to "
     "swap.",
     topo_check_direct_port_index, NULL, 0);
RULE(R_SELF_LOOP, FL_SEV_WARNING, "topology.self-loop",
     "a cable connects two ports of the same node",
     "Loop-back cables are left from burn-in tests; they consume ports and "
     "confuse routing engines.",
     check_self_loop, NULL, 0);

static const fl_param_def P_WIDTH = {
    sizeof(fl_param_def),
    FL_PARAM_INT,
    "expected-width",
    NULL,
    "lanes",
    "expected link width in lanes (1, 2, 4, 8, 12); default: the most common "
    "width of links joining the same tiers",
    "1",
    "12"};
static const fl_param_def P_SPEED = {
    sizeof(fl_param_def),
    FL_PARAM_STRING,
    "expected-speed",
    NULL,
    NULL,
    "expected lane speed (SDR..XDR, or an Ethernet rate such as 400G); "
    "default: speed is not checked",
    NULL,
    NULL};
static const fl_param_def *const DEGRADED_PARAMS[] = {&P_WIDTH, &P_SPEED};

RULE(R_DEGRADED, FL_SEV_WARNING, "topology.degraded-link",
     "a link runs below the expected width or speed",
     "A 4x cable that trains at 1x or 2x (a bad lane, a dirty connector) "
     "silently cuts bandwidth. Expected values come from the parameters, or "
     "from the majority width of links joining the same tiers.",
     check_degraded, DEGRADED_PARAMS, 2);
RULE(R_MIXED, FL_SEV_WARNING, "topology.mixed-speed",
     "links joining the same tiers run at different speeds",
     "Within one tier pair a design uses one link speed; a mix (e.g. EDR "
     "cables among HDR ones) makes ECMP groups and collectives uneven.",
     check_mixed_speed, NULL, 0);

RULE(R_SAME_TIER, FL_SEV_WARNING, "topology.same-tier-link",
     "a cable joins two switches of the same tier in a hierarchical fabric",
     "Leaf-to-leaf or spine-to-spine cables are miswires in a fat tree or "
     "rail-optimised fabric: they create valley routes and, under minimal "
     "routing, credit loops. Flat topologies (rings, tori) are not checked.",
     check_same_tier, NULL, 0);
RULE(R_LID, FL_SEV_ERROR, "topology.lid",
     "two ports answer the same LID, or a port has a multicast/permissive LID",
     "Each port answers base LID .. base LID + 2^LMC - 1 (IBA 7.11.1); ranges "
     "must not overlap, and unicast LIDs are 0x0001-0xBFFF (IBA 4.1.3).",
     check_lids, NULL, 0);

static const fl_rule_def *const RULES[] = {&R_ONE_SIDED,
                                           &R_MISMATCH,
                                           &R_TWICE,
                                           &R_RANGE,
                                           &R_DUPGUID,
                                           &R_UNLINKED,
                                           &R_DISCONNECTED,
                                           &R_SELF_LOOP,
                                           &R_DEGRADED,
                                           &R_MIXED,
                                           &R_SAME_TIER,
                                           &R_LID,
                                           &TOPO_R_LID_SPACE,
                                           &TOPO_R_MISSING_UPLINKS,
                                           &TOPO_R_LINK_INACTIVE,
                                           &TOPO_R_PORT_DISABLED,
                                           &TOPO_R_PORT_DOWN,
                                           &TOPO_R_BELOW_CAP,
                                           &TOPO_R_INPUT,
                                           &R_DIRECT_INDEX};

static const fl_plugin_desc DESC = {sizeof(fl_plugin_desc),
                                    FL_ABI_MAJOR,
                                    FL_ABI_MINOR,
                                    sizeof RULES / sizeof *RULES,
                                    "topology",
                                    "0.1.0",
                                    "fabriclint",
                                    "MIT",
                                    NULL,
                                    NULL,
                                    RULES};

FL_PLUGIN_EXPORT const fl_plugin_desc *fabriclint_plugin_v1(void) {
  return &DESC;
}
