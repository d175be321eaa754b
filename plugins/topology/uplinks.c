/* SPDX-License-Identifier: MIT */
/*
 * plugins/topology/uplinks.c — topology.missing-uplinks: a leaf of a
 * non-blocking compute fabric short of uplinks, and the cables that fix it.
 *
 * A rail-optimised or fat-tree compute fabric is built non-blocking: each
 * leaf has as much capacity up to the spines as down to its hosts (1:1).
 * ecmp-balance reports the ratio (oversubscription, uplink-asymmetry) as
 * warnings, since a ratio alone may be a design choice. This rule says what
 * is missing, and is an error, when the policy's ratio (`max-ratio`, 1.0:
 * non-blocking) is exceeded *and* the cabling shows that cables are missing
 * rather than chosen:
 *
 *  - a leaf has fewer cables to a spine than its peers (the leaves that
 *    share a spine with it) have, and those spines have the free ports for
 *    them: one finding per leaf, naming each spine with the cables missing
 *    and its free ports (journey-4su m-a: leaf-su02-r3 without its 2 + 2
 *    cables to spine-15 and spine-16); spines without room mean the design
 *    never planned them (a management leaf with two uplinks);
 *  - every short leaf has its peers' pattern but the pattern itself is
 *    short, and each leaf's free ports are exactly the cables it lacks
 *    (built to its radix: hosts + uplinks + missing = ports): a spine is
 *    missing (or the spines' free ports are unused). One finding for the
 *    leaves that lack the same number of cables, with the fix: "add 2
 *    cables per leaf to a 16th spine" (m-c, spine-16 and its 64 cables
 *    gone); the missing spine is named from the others' names when they
 *    are numbered (a gap, else the next number).
 *
 * A leaf short of more than a quarter of its peers' cables (a management
 * leaf with 2 uplinks beside compute leaves with 20; a partial capture) is
 * built otherwise or seen in part, and is left to ecmp-balance too.
 * A leaf without free ports for what it lacks (2:1 with every port used),
 * or with many more (a small test fabric on radix-64 switches), may be a
 * design choice and is left to ecmp-balance.oversubscription. Leaves are
 * tier-1 switches with compute endpoints (CAs other than SHARP Aggregation
 * Nodes whose `role` is absent or `compute`); uplinks go to higher tiers.
 * Cost: O(ports + links) to count, plus, per short leaf, its peers' cables.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabriclint/json_buf.h"
#include "fabriclint/plugin.h"
#include "fabriclint/view.h"
#include "topology.h"

#define UPL_LISTED 16 /* ports listed in a message */

typedef struct upair {
  fl_id sw;
  uint32_t cables;
} upair;

typedef struct uleaf {
  fl_id n;
  double down, up, up_gbps_each;
  uint32_t n_down, n_up;
  uint32_t pair_off, n_pairs; /* into ctx.pairs: cables per upper switch */
  uint32_t need;              /* cables short of max-ratio */
  uint32_t free_ports;        /* unused ports of the leaf */
  double ratio;               /* max-ratio, or the plan's (design_ratio) */
} uleaf;

typedef struct uctx {
  const fl_host_api *api;
  const fl_fabric *f;
  uleaf *leaf;
  uint32_t n_leaf;
  upair *pairs;
  uint32_t n_pairs;
  uint32_t *leaf_of; /* node -> leaf index or UINT32_MAX */
} uctx;

static int is_compute_ep(const fl_host_api *api, const fl_fabric *f, fl_id n) {
  if (api->node_kind(f, n) != FL_NODE_CA || fl_view_is_sharp_an(api, f, n))
    return 0;
  const char *role = api->attr(f, FL_ENT_NODE, n, "role");
  return !role || !*role || strcmp(role, "compute") == 0;
}

static int is_up(const fl_host_api *api, const fl_fabric *f, fl_id v, fl_id u) {
  if (api->node_kind(f, u) != FL_NODE_SWITCH)
    return 0;
  uint32_t a = api->node_tier(f, v), b = api->node_tier(f, u);
  return a != FL_TIER_UNKNOWN && b != FL_TIER_UNKNOWN && b > a;
}

/* Unused port numbers of switch @n (1..nports without a cable) into @out
 * (up to @max); returns how many there are. */
static uint32_t free_ports(const fl_host_api *api, const fl_fabric *f, fl_id n,
                           uint32_t *out, uint32_t max) {
  uint32_t np = api->node_nports(f, n), k = 0;
  for (uint32_t num = 1; num <= np; num++) {
    fl_id p = api->find_port(f, n, num);
    if (p != FL_NONE && api->port_link_count(f, p) > 0)
      continue;
    if (k < max && out)
      out[k] = num;
    k++;
  }
  return k;
}

static int cmp_pair(const void *x, const void *y) {
  const upair *a = x, *b = y;
  if (a->sw != b->sw)
    return a->sw < b->sw ? -1 : 1;
  return (a->cables > b->cables) - (a->cables < b->cables);
}

/* Leaves and their cables per upper switch. */
static int collect(uctx *c, double ratio) {
  const fl_host_api *api = c->api;
  const fl_fabric *f = c->f;
  uint32_t nn = api->node_count(f);
  c->leaf = calloc((size_t)nn + 1, sizeof *c->leaf);
  c->pairs = malloc(((size_t)api->link_count(f) + 1) * sizeof *c->pairs);
  c->leaf_of = malloc(((size_t)nn + 1) * sizeof *c->leaf_of);
  if (!c->leaf || !c->pairs || !c->leaf_of)
    return -1;
  for (fl_id n = 0; n < nn; n++) {
    c->leaf_of[n] = UINT32_MAX;
    if (api->node_kind(f, n) != FL_NODE_SWITCH || api->node_tier(f, n) != 1)
      continue;
    /* an ASIC of a director chassis is judged with its chassis, by
     * ecmp-balance: its uplinks are the chassis's */
    if (FL_API_HAS(api, node_chassis) && api->node_chassis(f, n) != FL_NONE)
      continue;
    uleaf L;
    memset(&L, 0, sizeof L);
    L.n = n;
    L.pair_off = c->n_pairs;
    fl_id first = api->node_first_port(f, n);
    uint32_t cnt = api->node_port_count(f, n);
    for (uint32_t i = 0; first != FL_NONE && i < cnt; i++)
      for (uint32_t j = 0; j < api->port_link_count(f, first + i); j++) {
        fl_id l = api->port_link(f, first + i, j);
        if (FL_API_HAS(api, link_internal) && api->link_internal(f, l))
          continue;
        fl_id u = api->port_node(f, api->link_other(f, l, first + i));
        double g = api->link_gbps(f, l);
        if (g <= 0)
          g = 1; /* unknown speed: count cables */
        if (is_compute_ep(api, f, u)) {
          L.down += g;
          L.n_down++;
        } else if (is_up(api, f, n, u)) {
          L.up += g;
          L.n_up++;
          c->pairs[c->n_pairs++] = (upair){u, 1};
        }
      }
    if (!L.n_down)
      continue;
    /* one pair per upper switch with its cable count */
    L.n_pairs = c->n_pairs - L.pair_off;
    upair *pp = c->pairs + L.pair_off;
    if (L.n_pairs > 1)
      qsort(pp, L.n_pairs, sizeof *pp, cmp_pair);
    uint32_t k = 0;
    for (uint32_t i = 0; i < L.n_pairs; i++) {
      if (k && pp[k - 1].sw == pp[i].sw)
        pp[k - 1].cables++;
      else
        pp[k++] = pp[i];
    }
    c->n_pairs = L.pair_off + k;
    L.n_pairs = k;
    L.up_gbps_each = L.n_up ? L.up / L.n_up : L.down / L.n_down;
    /* a leaf the plan declares oversubscribed is judged at its ratio */
    L.ratio = fl_view_design_ratio(api, f, n, ratio);
    double short_gbps = L.down / L.ratio - L.up;
    if (short_gbps > 1e-6) {
      double q = short_gbps / L.up_gbps_each - 1e-9;
      L.need = (uint32_t)q + ((double)(uint32_t)q < q); /* ceil */
    }
    L.free_ports = free_ports(api, f, n, NULL, 0);
    c->leaf_of[n] = c->n_leaf;
    c->leaf[c->n_leaf++] = L;
  }
  return 0;
}

/* What leaf @L's peers (leaves sharing an upper switch with it) have: per
 * upper switch reached by more than half of them, the most common cable
 * count. Fills @exp (pairs, ascending switch id); returns their number, or
 * UINT32_MAX when out of memory. */
/* A leaf may lack at most 1/UPL_MAX_SHORT_DEN of its peers' cables to be
 * judged short of cables (at the boundary, exactly a quarter: judged). */
#define UPL_MAX_SHORT_DEN 4u

static uint32_t expected_pattern(const uctx *c, const uleaf *L, upair *exp) {
  uint32_t nl = c->n_leaf;
  uint8_t *peer = calloc((size_t)nl + 1, 1);
  upair *all = NULL;
  uint32_t n_all = 0, n_peer = 0, n_exp = 0;
  if (!peer)
    return UINT32_MAX;
  /* peers: leaves with a pair on one of L's upper switches */
  for (uint32_t i = 0; i < nl; i++) {
    const uleaf *P = &c->leaf[i];
    if (P == L)
      continue;
    for (uint32_t a = 0; a < P->n_pairs && !peer[i]; a++)
      for (uint32_t b = 0; b < L->n_pairs && !peer[i]; b++)
        peer[i] = c->pairs[P->pair_off + a].sw == c->pairs[L->pair_off + b].sw;
    if (!L->n_pairs)
      peer[i] = P->n_pairs > 0; /* no uplink at all: every leaf is a peer */
    if (peer[i]) {
      n_peer++;
      n_all += P->n_pairs;
    }
  }
  all = malloc(((size_t)n_all + 1) * sizeof *all);
  if (!all) {
    free(peer);
    return UINT32_MAX;
  }
  n_all = 0;
  for (uint32_t i = 0; i < nl; i++)
    if (peer[i])
      for (uint32_t a = 0; a < c->leaf[i].n_pairs; a++)
        all[n_all++] = c->pairs[c->leaf[i].pair_off + a];
  if (n_all > 1)
    qsort(all, n_all, sizeof *all, cmp_pair);
  for (uint32_t i = 0; i < n_all;) {
    uint32_t j = i, reach = 0, best = 0, best_n = 0;
    while (j < n_all && all[j].sw == all[i].sw) {
      uint32_t k = j;
      while (k < n_all && all[k].sw == all[j].sw &&
             all[k].cables == all[j].cables)
        k++;
      if (k - j > best_n)
        best_n = k - j, best = all[j].cables;
      reach += k - j;
      j = k;
    }
    if (2 * reach > n_peer)
      exp[n_exp++] = (upair){all[i].sw, best};
    i = j;
  }
  free(all), free(peer);
  return n_exp;
}

static uint32_t pair_cables(const uctx *c, const uleaf *L, fl_id sw) {
  for (uint32_t a = 0; a < L->n_pairs; a++)
    if (c->pairs[L->pair_off + a].sw == sw)
      return c->pairs[L->pair_off + a].cables;
  return 0;
}

/* "61, 62, 63, 64" */
static void port_list(const uint32_t *v, uint32_t n, uint32_t total, char *buf,
                      size_t size) {
  size_t off = 0;
  buf[0] = '\0';
  for (uint32_t i = 0; i < n && off < size; i++)
    off += (size_t)snprintf(buf + off, size - off, "%s%u", i ? ", " : "", v[i]);
  if (total > n && off < size)
    snprintf(buf + off, size - off, " and %u more", total - n);
}

/* What a capture with port states (iblinkinfo: "Down/Polling",
 * "Down/Disabled") says of the @n free ports @v of node @sw that a fix
 * names, into @buf ("" when it says nothing). A Polling port sees no
 * partner: no cable, or a cable that does not train (outside tester,
 * session 10: "add a cable on port 3" where a dead cable may sit); a
 * Disabled port will not come up until it is enabled, cable or not. */
static void port_states_note(const fl_host_api *api, const fl_fabric *f,
                             fl_id sw, const uint32_t *v, uint32_t n, char *buf,
                             size_t size) {
  uint32_t polling = 0, disabled = 0, dis_first = 0;
  buf[0] = '\0';
  for (uint32_t i = 0; i < n; i++) {
    fl_id p = api->find_port(f, sw, v[i]);
    char st[64], ph[64];
    if (p == FL_NONE || !topo_port_state(api, f, p, st, ph, sizeof st))
      continue;
    if (!strcmp(ph, "Disabled")) {
      if (!disabled++)
        dis_first = v[i];
    } else if (!strcmp(ph, "Polling")) {
      polling++;
    }
  }
  size_t off = 0;
  if (polling)
    off += (size_t)snprintf(buf, size,
                            " (the capture shows %s Down/Polling: no "
                            "partner, so if a cable is plugged there it does "
                            "not train: reseat or replace it)",
                            polling == 1 ? "it" : "them");
  if (disabled == 1 && off < size)
    snprintf(buf + off, size - off,
             " (port %u is Disabled: a cable may be there already; enable "
             "the port first, with `ibportstate` or the subnet manager)",
             dis_first);
  else if (disabled && off < size)
    snprintf(buf + off, size - off,
             " (%u of them are Disabled, e.g. port %u: cables may be there "
             "already; enable the ports first, with `ibportstate` or the "
             "subnet manager)",
             disabled, dis_first);
}

/* One leaf short of the cables its peers have. */
static int report_leaf(const uctx *c, fl_ctx *ctx, const uleaf *L,
                       const upair *exp, uint32_t n_exp, double ratio) {
  const fl_host_api *api = c->api;
  const fl_fabric *f = c->f;
  char what[1400] = "", ports[200], msg[2400];
  size_t off = 0;
  uint32_t missing = 0, n_sw = 0;
  fl_id ids[1 + 32];
  ids[0] = L->n;
  jbuf ev;
  jb_init(&ev);
  jb_obj_open(&ev);
  jb_key_str(&ev, "leaf", api->node_name(f, L->n));
  jb_key_double(&ev, "down_gbps", L->down);
  jb_key_double(&ev, "up_gbps", L->up);
  jb_key_int(&ev, "uplinks", L->n_up);
  jb_key_double(&ev, "max_ratio", ratio);
  jb_key(&ev, "missing");
  jb_arr_open(&ev);
  for (uint32_t i = 0; i < n_exp; i++) {
    uint32_t have = pair_cables(c, L, exp[i].sw);
    if (have >= exp[i].cables)
      continue;
    uint32_t lack = exp[i].cables - have, fp[UPL_LISTED];
    uint32_t nf = free_ports(api, f, exp[i].sw, fp, UPL_LISTED);
    uint32_t show = nf < lack ? nf : lack;
    port_list(fp, show, show, ports, sizeof ports);
    if (off < sizeof what)
      off += (size_t)snprintf(what + off, sizeof what - off,
                              "%s%u to \"%s\" (%s%s)", missing ? ", " : "",
                              lack, api->node_name(f, exp[i].sw),
                              nf ? "free ports " : "no free port", ports);
    missing += lack;
    if (n_sw < 32)
      ids[1 + n_sw++] = exp[i].sw;
    jb_obj_open(&ev);
    jb_key_str(&ev, "spine", api->node_name(f, exp[i].sw));
    jb_key_int(&ev, "cables", lack);
    jb_key_int(&ev, "peers_have", exp[i].cables);
    jb_key(&ev, "free_ports");
    jb_arr_open(&ev);
    for (uint32_t k = 0; k < show; k++)
      jb_int_item(&ev, fp[k]);
    jb_arr_close(&ev);
    jb_obj_close(&ev);
  }
  jb_arr_close(&ev);
  uint32_t lp[UPL_LISTED];
  uint32_t nlf = free_ports(api, f, L->n, lp, UPL_LISTED);
  jb_key(&ev, "leaf_free_ports");
  jb_arr_open(&ev);
  for (uint32_t k = 0; k < nlf && k < UPL_LISTED; k++)
    jb_int_item(&ev, lp[k]);
  jb_arr_close(&ev);
  jb_obj_close(&ev);
  /* the fix names as many of its free ports as cables it lacks */
  uint32_t use = nlf < missing ? nlf : missing;
  port_list(lp, use < UPL_LISTED ? use : UPL_LISTED, use, ports, sizeof ports);
  /* With the cables its peers have, is it still above the policy? Then the
   * design itself is oversubscribed (Selene's storage leaves run at about
   * 1.38:1 by design): say so, rather than ask for cables no peer has
   * (outside tester, session 10: "and 6 more beyond what its peers have;
   * add them on its free ports 3, 5, 29, 37, 41" for 2 missing cables). */
  char beyond[320] = "";
  if (L->need > missing && L->n_up && L->up > 0) {
    double peer_up = L->up * (double)(L->n_up + missing) / L->n_up;
    double pr = L->down / peer_up;
    snprintf(beyond, sizeof beyond,
             " (with them it would run at %.2f:1, still above the "
             "policy's %.2f:1, so the design itself is oversubscribed; "
             "if that is intended, set topology.missing-uplinks.max-ratio "
             "to %.2f)",
             pr, ratio, ceil(pr * 100) / 100);
  }
  char states[200];
  port_states_note(api, f, L->n, lp, use < UPL_LISTED ? use : UPL_LISTED,
                   states, sizeof states);
  snprintf(msg, sizeof msg,
           "leaf \"%s\" has %u uplink(s), %.6g Gb/s, for %.6g Gb/s down "
           "(%.2f:1; the policy allows %.2f:1): it lacks %u cable(s) its "
           "peers have: %s; add %s%s%s%s%s",
           api->node_name(f, L->n), L->n_up, L->up, L->down,
           L->up > 0 ? L->down / L->up : 0.0, ratio, missing, what,
           missing == 1 ? "it" : "them",
           use == 1  ? " on its free port "
           : use > 1 ? " on its free ports "
                     : "",
           use ? ports : "", states, beyond);
  /* the leaf is the root (one cause across rules): ecmp-balance's
   * oversubscription and uplink asymmetry of this leaf attach here when
   * the cables it lacks explain them whole */
  fl_root root = {FL_ROOT_NODE, FL_ROOT_PRIMARY, L->n, NULL};
  int rc = fl_emit_rooted(api, ctx, 0, msg, ids, 1 + n_sw, NULL, 0, NULL, 0,
                          jb_str(&ev), NULL, NULL, NULL, &root);
  jb_free(&ev);
  return rc;
}

static void ordinal(uint32_t n, char *buf, size_t size) {
  const char *s = (n % 100 >= 11 && n % 100 <= 13) ? "th"
                  : n % 10 == 1                    ? "st"
                  : n % 10 == 2                    ? "nd"
                  : n % 10 == 3                    ? "rd"
                                                   : "th";
  snprintf(buf, size, "%u%s", n, s);
}

/* The name of the missing spine from the others' when they are one prefix
 * and numbers (a gap in the numbers, else the next one): "" when not. */
static void missing_name(const uctx *c, const upair *exp, uint32_t n_exp,
                         char *buf, size_t size) {
  buf[0] = '\0';
  if (!n_exp)
    return;
  const char *n0 = c->api->node_name(c->f, exp[0].sw);
  size_t plen = strlen(n0), width = 0;
  while (plen && n0[plen - 1] >= '0' && n0[plen - 1] <= '9')
    plen--;
  width = strlen(n0) - plen;
  if (!width || width > 4)
    return;
  uint8_t seen[10000 / 8 + 1];
  uint32_t maxn = 0;
  memset(seen, 0, sizeof seen);
  for (uint32_t i = 0; i < n_exp; i++) {
    const char *s = c->api->node_name(c->f, exp[i].sw);
    if (strlen(s) != plen + width || strncmp(s, n0, plen) != 0)
      return;
    uint32_t v = (uint32_t)strtoul(s + plen, NULL, 10);
    seen[v / 8] |= (uint8_t)(1u << (v % 8));
    if (v > maxn)
      maxn = v;
  }
  uint32_t pick = maxn + 1;
  for (uint32_t v = 1; v < maxn; v++)
    if (!(seen[v / 8] & (1u << (v % 8)))) {
      pick = v;
      break;
    }
  snprintf(buf, size, "%.*s%0*u", (int)plen, n0, (int)width, pick);
}

/* Leaves that have their peers' pattern, but the pattern is short by
 * @need cables per leaf: one finding, a spine (or spine ports) missing. */
static int report_pattern(const uctx *c, fl_ctx *ctx, const uint32_t *li,
                          uint32_t n, const upair *exp, uint32_t n_exp,
                          double ratio) {
  const fl_host_api *api = c->api;
  const fl_fabric *f = c->f;
  const uleaf *L0 = &c->leaf[li[0]];
  uint32_t need = L0->need, spine_free = 0, spine_ports = 0;
  for (uint32_t i = 0; i < n_exp; i++) {
    spine_free += free_ports(api, f, exp[i].sw, NULL, 0);
    uint32_t np = api->node_nports(f, exp[i].sw);
    if (np > spine_ports)
      spine_ports = np;
  }
  uint64_t total = (uint64_t)need * n;
  char fix[600], name[128], ord[32], lports[200];
  uint32_t lp[UPL_LISTED];
  uint32_t nlf = free_ports(api, f, L0->n, lp, UPL_LISTED);
  port_list(lp, nlf < need ? nlf : need, nlf < need ? nlf : need, lports,
            sizeof lports);
  uint32_t new_spines = 0;
  if (spine_free >= total) {
    snprintf(fix, sizeof fix,
             "add %u cable(s) per leaf to the %u free port(s) of its %u "
             "spines",
             need, spine_free, n_exp);
  } else {
    new_spines =
        spine_ports
            ? (uint32_t)((total - spine_free + spine_ports - 1) / spine_ports)
            : 1;
    missing_name(c, exp, n_exp, name, sizeof name);
    ordinal(n_exp + 1, ord, sizeof ord);
    if (new_spines == 1)
      snprintf(
          fix, sizeof fix,
          "a spine is missing: add %u %s per leaf to a %s spine (%s%s%s%llu "
          "cables, on leaf ports %s)",
          need, need == 1 ? "cable" : "cables", ord, name[0] ? "\"" : "", name,
          name[0] ? "\" by the others' names; " : "", (unsigned long long)total,
          lports);
    else
      snprintf(fix, sizeof fix,
               "%u spines are missing: add %u cable(s) per leaf spread over "
               "%u new spines from the %s on (%llu cables)",
               new_spines, need, new_spines, ord, (unsigned long long)total);
  }
  char msg[2000];
  snprintf(msg, sizeof msg,
           "%u leaf(s) (e.g. \"%s\") have %u uplink(s), %.6g Gb/s, to %u "
           "spines for %.6g Gb/s down (%.2f:1; the policy allows %.2f:1), "
           "and %u free port(s) each: %s",
           n, api->node_name(f, L0->n), L0->n_up, L0->up, n_exp, L0->down,
           L0->up > 0 ? L0->down / L0->up : 0.0, ratio, nlf, fix);
  fl_id *ids = malloc(((size_t)n + 1) * sizeof *ids);
  if (!ids) {
    api->fail(ctx, "out of memory");
    return 1;
  }
  jbuf ev;
  jb_init(&ev);
  jb_obj_open(&ev);
  jb_key_int(&ev, "leaves", n);
  jb_key_int(&ev, "cables_per_leaf", need);
  jb_key_int(&ev, "cables", (int64_t)total);
  jb_key_int(&ev, "spines", n_exp);
  jb_key_int(&ev, "spine_free_ports", spine_free);
  jb_key_int(&ev, "new_spines", new_spines);
  if (new_spines == 1 && name[0])
    jb_key_str(&ev, "missing_spine", name);
  jb_key_double(&ev, "max_ratio", ratio);
  jb_key_str(&ev, "fix", fix);
  jb_key(&ev, "members");
  jb_arr_open(&ev);
  for (uint32_t i = 0; i < n; i++) {
    ids[i] = c->leaf[li[i]].n;
    jb_str_item(&ev, api->node_name(f, ids[i]));
  }
  jb_arr_close(&ev);
  jb_obj_close(&ev);
  /* the tier-wide shortfall is the root of every leaf's oversubscription
   * that the leaves' free ports explain (ecmp-balance names the same fact:
   * "uplinks-short:tier-1") */
  fl_root root = {FL_ROOT_FACT, FL_ROOT_PRIMARY, 0, "uplinks-short:tier-1"};
  int rc = fl_emit_rooted(api, ctx, 0, msg, ids, n, NULL, 0, NULL, 0,
                          jb_str(&ev), NULL, NULL, NULL, &root);
  jb_free(&ev);
  free(ids);
  return rc;
}

/* The plane slot of leaf @n: its plane index, or 0 in a one-plane fabric. */
static uint32_t plane_slot(const uctx *c, fl_id n, uint32_t n_planes) {
  if (n_planes < 2)
    return 0;
  uint32_t p = c->api->node_plane(c->f, n);
  return p < n_planes ? p : 0;
}

/* The tier-wide case, plane by plane: the leaves of @slot in @cand with the
 * first leaf's shortfall, judged at the first leaf's ratio. */
static int report_slot(uctx *c, fl_ctx *ctx, const uint32_t *cand,
                       uint32_t slot, uint32_t n_planes, uint32_t *group,
                       upair *exp) {
  uint32_t n = 0, need = 0;
  for (uint32_t i = 0; i < c->n_leaf; i++) {
    if (!cand[i] || plane_slot(c, c->leaf[i].n, n_planes) != slot)
      continue;
    if (n && cand[i] != need)
      continue; /* a second shortfall in one plane: the first is judged */
    need = cand[i];
    group[n++] = i;
  }
  if (!n)
    return 0;
  uint32_t n_exp = expected_pattern(c, &c->leaf[group[0]], exp);
  if (n_exp == UINT32_MAX) {
    c->api->fail(ctx, "out of memory");
    return 1;
  }
  return report_pattern(c, ctx, group, n, exp, n_exp, c->leaf[group[0]].ratio);
}

static int check_missing_uplinks(const fl_host_api *api, fl_ctx *ctx,
                                 void *pd) {
  (void)pd;
  double ratio = 1.0;
  if (api->param_double(ctx, "max-ratio", &ratio) != FL_OK || ratio <= 0)
    ratio = 1.0;
  uctx c;
  memset(&c, 0, sizeof c);
  c.api = api;
  c.f = api->fabric(ctx);
  uint32_t n_planes = FL_API_HAS(api, plane_count) ? api->plane_count(c.f) : 0;
  upair *exp = NULL;
  uint32_t *group = NULL, *cand = NULL;
  int rc = collect(&c, ratio) ? -1 : 0;
  if (!rc) {
    exp = malloc(((size_t)api->node_count(c.f) + 1) * sizeof *exp);
    group = malloc(((size_t)c.n_leaf + 1) * sizeof *group);
    cand = calloc((size_t)c.n_leaf + 1, sizeof *cand);
    if (!exp || !group || !cand)
      rc = -1;
  }
  for (uint32_t i = 0; !rc && i < c.n_leaf; i++) {
    const uleaf *L = &c.leaf[i];
    if (!L->need)
      continue;
    uint32_t n_exp = expected_pattern(&c, L, exp);
    if (n_exp == UINT32_MAX) {
      rc = -1;
      break;
    }
    uint32_t lacks = 0, room = 1, expect = 0;
    for (uint32_t k = 0; k < n_exp; k++) {
      uint32_t have = pair_cables(&c, L, exp[k].sw);
      expect += exp[k].cables;
      if (have >= exp[k].cables)
        continue;
      lacks += exp[k].cables - have;
      /* the spine kept ports for them; a full spine means the design never
       * had room for them (a management leaf with two uplinks) */
      room &= free_ports(api, c.f, exp[k].sw, NULL, 0) >= exp[k].cables - have;
    }
    /* a leaf short of more than a quarter of its peers' cables is built
     * otherwise (a management leaf with 2 uplinks beside compute leaves
     * with 20: Selene) or seen in part (a partial capture): not cables
     * that fell out; ecmp-balance's warnings say it */
    if (lacks && (uint64_t)lacks * UPL_MAX_SHORT_DEN > expect)
      continue;
    if (lacks && room) {
      rc = report_leaf(&c, ctx, L, exp, n_exp, L->ratio) ? 1 : 0;
      continue;
    }
    if (lacks)
      continue; /* a design choice: ecmp-balance.uplink-asymmetry says it */
    /* the peers' pattern itself is short: a missing spine, when the leaf
     * was built to its radix (its free ports are exactly the cables it
     * lacks: hosts + uplinks + missing = ports); more free ports, or too
     * few, and the ratio may be a design choice (ecmp-balance says it) */
    if (n_exp && L->free_ports == L->need)
      cand[i] = L->need;
  }
  /* per plane; in a multi-plane fabric where some plane is not short, the
   * planes differ in shape: planes.shape reports that, naming the switch
   * the short plane lacks (one cause, one finding) */
  uint32_t slots = n_planes < 2 ? 1 : n_planes, short_slots = 0;
  uint8_t *seen = rc ? NULL : calloc(slots, 1);
  if (!rc && !seen)
    rc = -1;
  for (uint32_t i = 0; !rc && i < c.n_leaf; i++)
    if (cand[i] && !seen[plane_slot(&c, c.leaf[i].n, n_planes)]++)
      short_slots++;
  for (uint32_t sl = 0; !rc && short_slots == slots && sl < slots; sl++)
    rc = report_slot(&c, ctx, cand, sl, n_planes, group, exp) ? 1 : 0;
  if (rc < 0)
    api->fail(ctx, "out of memory");
  free(seen);
  free(c.leaf), free(c.pairs), free(c.leaf_of), free(exp), free(group);
  free(cand);
  return rc ? 1 : 0;
}

static const fl_param_def P_RATIO = {
    sizeof(fl_param_def),
    FL_PARAM_DOUBLE,
    "max-ratio",
    "1.0",
    "down:up",
    "the leaf oversubscription the design allows (1.0: non-blocking, the "
    "compute fabric of a DGX SuperPOD); above it, missing cables are errors",
    "0",
    NULL};
static const fl_param_def *const UPLINK_PARAMS[] = {&P_RATIO};

const fl_rule_def TOPO_R_MISSING_UPLINKS = {
    sizeof(fl_rule_def),
    FL_SEV_ERROR,
    "topology.missing-uplinks",
    "a leaf of a non-blocking compute fabric lacks uplinks, or a spine is "
    "missing",
    "A compute leaf whose down capacity exceeds max-ratio (1.0: "
    "non-blocking) times its up capacity, when the cabling shows what is "
    "missing: fewer cables to a spine than the leaves that share its spines "
    "have (the spines and their free ports are named), or the same shortfall "
    "on every leaf whose free ports are exactly the cables it lacks (a spine "
    "is missing: "
    "\"add 2 cables per leaf to a 16th spine\"). A leaf with no free port "
    "for them is a design choice, left to ecmp-balance.oversubscription.",
    1,
    FL_NEEDS_ALL_PLANES,
    UPLINK_PARAMS,
    1,
    check_missing_uplinks};
