/* SPDX-License-Identifier: MIT */
/*
 * plugins/topology/topo_rates.c — link rates and tiers: links below the
 * expected width or speed (degraded-link), speeds mixed within a tier pair
 * (mixed-speed), cables within one tier of a hierarchy (same-tier-link).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabriclint/json_buf.h"
#include "fabriclint/plugin.h"
#include "topology.h"

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

int topo_check_degraded(const fl_host_api *api, fl_ctx *ctx, void *pd) {
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
    topo_port_ref(api, f, api->link_port(f, l, 0), &ports[0]);
    topo_port_ref(api, f, api->link_port(f, l, 1), &ports[1]);
    fl_id nodes[2] = {ports[0].node, ports[1].node};
    char seen[32], exp[32], gname[32], msg[1024], pa[FL_PORT_TEXT],
        pb[FL_PORT_TEXT];
    topo_link_type(api, w, s, seen, sizeof seen);
    topo_link_type(api, bad_w ? ew : w, bad_s ? want_s : s, exp, sizeof exp);
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

int topo_check_mixed_speed(const fl_host_api *api, fl_ctx *ctx, void *pd) {
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
int topo_check_same_tier(const fl_host_api *api, fl_ctx *ctx, void *pd) {
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
    topo_port_ref(api, f, api->link_port(f, l, 0), &ports[0]);
    topo_port_ref(api, f, api->link_port(f, l, 1), &ports[1]);
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
    int rc = topo_report(api, ctx, msg, nodes, 2, ports, 2, &l, 1, jb_str(&ev));
    jb_free(&ev);
    if (rc)
      return rc;
  }
  return 0;
}
