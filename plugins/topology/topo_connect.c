/* SPDX-License-Identifier: MIT */
/*
 * plugins/topology/topo_connect.c — connectivity: CAs without a cable
 * (unlinked-ca) and fabrics in pieces (disconnected).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "direct.h"
#include "fabriclint/json_buf.h"
#include "fabriclint/plugin.h"
#include "topology.h"

/* ---- topology.unlinked-ca
 * --------------------------------------------------------- */

static int node_links(const fl_host_api *api, const fl_fabric *f, fl_id n) {
  fl_id first = api->node_first_port(f, n);
  uint32_t c = api->node_port_count(f, n), total = 0;
  for (uint32_t k = 0; first != FL_NONE && k < c; k++)
    total += api->port_link_count(f, first + k);
  return (int)total;
}

int topo_check_unlinked(const fl_host_api *api, fl_ctx *ctx, void *pd) {
  (void)pd;
  const fl_fabric *f = api->fabric(ctx);
  uint32_t nn = api->node_count(f);
  for (fl_id n = 0; n < nn; n++) {
    if (api->node_kind(f, n) == FL_NODE_SWITCH || node_links(api, f, n) > 0)
      continue;
    char msg[1024];
    snprintf(msg, sizeof msg,
             "%s \"%s\" has no cable: it is isolated from the fabric",
             topo_kind_word(api->node_kind(f, n)), api->node_name(f, n));
    int rc = topo_report(api, ctx, msg, &n, 1, NULL, 0, NULL, 0, NULL);
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

int topo_check_disconnected(const fl_host_api *api, fl_ctx *ctx, void *pd) {
  (void)pd;
  const fl_fabric *f = api->fabric(ctx);
  uint32_t one = 0, by_ca = 0;
  if (topo_one_sided_counts(api, f, &one, &by_ca))
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
