/*
 * fabriclint/view.h — a compact, switch-centred view of a loaded fabric for
 * rule plugins: switches and their cabled ports ("slots") grouped by what is
 * on the other end, the tier relation of every slot (up-links, down-links),
 * endpoints (CA ports cabled to a switch) with their LIDs, and on request
 * the minimal next-hop sets toward every destination switch. The
 * ecmp-balance and adaptive-routing plugins are built on it; a vendor
 * plugin gets the same figures by including this header.
 *
 * Header-only on purpose: a plugin is its own shared object built with
 * -Wl,-z,defs and links against nothing but libc, libm and pthreads
 * (DESIGN.md §3). Everything here is built from the public function table
 * (fl_host_api, fabriclint/plugin.h) the host hands to check(); nothing
 * reaches into the core. All functions are `static inline`; the header
 * compiles as C99 and C++11.
 *
 * Why this layout: path diversity, ECMP group widths, AR coverage and
 * ECMP link loads are all questions about the minimal next-hop set M(s, t)
 * of switch s toward destination switch t. M(s, t) is the set of cabled
 * ports of s whose neighbour switch is one hop closer to t, so one BFS per
 * destination switch over the switch graph gives dist(., t) and |M(., t)|
 * for every switch at once: O(destination switches x switch ports) in all,
 * never per source-destination path. Destinations attached to the same
 * switch share its BFS, so a 65,536-endpoint radix-64 fat tree needs 2,048
 * BFS runs over 5,120 switches. dist is kept as a destination-major uint8
 * matrix and |M| as a uint16 matrix (bit 15: the set mixes link speeds),
 * 3 bytes per (switch, destination switch): 31 MB at that size.
 *
 * Slots: every cabled port of a switch is one "slot" (an egress channel);
 * a switch's slots are contiguous, switch-facing ones first (ascending port
 * number), then those facing CAs or routers (ascending port number). A
 * port with several cables (a loaded file may hold that) counts once, by
 * its first cable.
 *
 * Indexes: switches are numbered 0..ns-1 in node-id order ("switch index",
 * not an fl_id; sw_node[] maps back), destination switches 0..nd-1 in
 * switch order, endpoints 0..ne-1 in (switch, port) order.
 *
 * Usage:
 *     fl_view v;
 *     if (fl_view_build(&v, api, api->fabric(ctx)) != 0 ||
 *         fl_view_minimal(&v) != 0) { fl_view_free(&v); out of memory }
 *     for (uint32_t s = 0; s < v.ns; s++)
 *       for (uint32_t i = v.poff[s]; i < v.psw_end[s]; i++)
 *         if (fl_view_dir(&v, s, i) == 1) ... slot i is an up-link of s
 *     fl_view_free(&v);
 *
 * Ownership and threads: the caller owns the fl_view struct and everything
 * it points to, and frees it with fl_view_free() (also after a failed
 * build). A built view is read-only: any number of threads may read it.
 * fl_view_build() calls the host API and so must run on the thread that
 * runs check() (rules run one at a time); fl_view_minimal() never calls
 * the host and may start worker threads of its own. A plugin usually
 * builds the view once per fabric and caches it in its init() state,
 * keyed by fl_fabric_key_of() (plugin.h: the pointer and the pass's
 * serial; a freed fabric's address is reused).
 */
#ifndef FABRICLINT_VIEW_H
#define FABRICLINT_VIEW_H

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fabriclint/covers.h"
#include "fabriclint/plugin.h"
#include "fabriclint/routing.h"

/** "No such index" (a CA-facing slot's neighbour switch, a node that is
 *  not a switch, a port number with no slot). */
#define FL_VIEW_NONE 0xffffffffu
/** fl_view.dist value: the destination switch is unreachable. */
#define FL_VIEW_FAR 0xffu
/** fl_view.nmin flag bit: the minimal next hops mix link speeds. */
#define FL_VIEW_MIXED 0x8000u
/** fl_view.nmin mask of the count |M(s, d)| (saturates at 0x7fff). */
#define FL_VIEW_NMASK 0x7fffu

/**
 * fl_view — the switch-centred view of one fabric (see the file comment).
 * Built by fl_view_build(), minimal next hops added by fl_view_minimal(),
 * freed by fl_view_free(). Arrays are indexed as noted: [ns] by switch
 * index, [slots] by slot (poff[ns] slots in all), [ne] by endpoint, [nd] by
 * destination switch. Link speeds are in Gb/s (api->link_gbps; 0: unknown).
 * Port numbers above 255 have a slot but no pslot entry.
 */
typedef struct fl_view {
  const fl_host_api *api; /**< the table the view was built with */
  const fl_fabric *f;     /**< the fabric it describes (borrowed) */
  uint32_t nn;            /**< nodes in the fabric */
  uint32_t ns;            /**< switches */
  uint32_t ne;            /**< endpoints: CA ports cabled to a switch */
  uint32_t nd;            /**< destination switches (>= 1 endpoint) */
  fl_id *sw_node;         /**< [ns] switch index -> node id */
  uint32_t *node_sw;      /**< [nn] node id -> switch index, FL_VIEW_NONE */
  uint32_t *tier;         /**< [ns] tier (FL_TIER_UNKNOWN possible) */
  /* slots */
  uint32_t *poff;    /**< [ns+1] first slot of each switch */
  uint32_t *psw_end; /**< [ns] end of the switch-facing slots of s */
  uint8_t *sw_mixed; /**< [ns] 1: s's switch-facing links differ in speed */
  uint16_t *pnb16;   /**< [slots] pnb as 16 bits (ns < 65535), else NULL */
  uint32_t *pnb;     /**< [slots] neighbour switch index, or FL_VIEW_NONE */
  fl_id *pnode;      /**< [slots] neighbour node */
  uint16_t *pnum;    /**< [slots] port number */
  uint16_t *pnbport; /**< [slots] neighbour's port number */
  fl_id *plink;      /**< [slots] link id */
  double *pgbps;     /**< [slots] link Gb/s (0 unknown) */
  uint32_t *pslot;   /**< [ns*256] (s, port number) -> slot, FL_VIEW_NONE */
  /* endpoints */
  fl_id *ep_node;    /**< [ne] CA node */
  uint32_t *ep_sw;   /**< [ne] switch index it is cabled to */
  uint32_t *ep_slot; /**< [ne] that switch's slot toward it */
  uint32_t *ep_lid;  /**< [ne] base LID of the CA port, 0 none */
  uint32_t *ep_lmc;  /**< [ne] LMC of the CA port */
  double *ep_gbps;   /**< [ne] link Gb/s (0 unknown) */
  uint32_t *sw_nep;  /**< [ns] endpoints on each switch */
  uint32_t *lids;    /**< [nlids] every endpoint LID (LMC ranges), ascending */
  uint32_t nlids;    /**< entries in lids */
  /* destination switches (switches with >= 1 endpoint) */
  uint32_t *dsw;  /**< [nd] destination index -> switch index */
  uint32_t *sw_d; /**< [ns] switch index -> destination index, FL_VIEW_NONE */
  /* minimal next hops (fl_view_minimal; NULL before) */
  uint8_t *dist;  /**< [nd*ns] hops from s to dsw[d], FL_VIEW_FAR: none */
  uint16_t *nmin; /**< [nd*ns] |M(s, d)| | FL_VIEW_MIXED */
  /* cover classes (fl_view_minimal_compact() on a nested fabric; nc = 0
   * otherwise). The cover of a switch is the set of destination-tier
   * switches it reaches going down only; switches with one cover form a
   * class. */
  uint32_t nc;      /**< cover classes; 0: none (rows, if any, in dist) */
  uint32_t *ccls;   /**< [ns] cover class of each switch */
  uint32_t *cup;    /**< [nc] class of the switches above, or FL_VIEW_NONE */
  uint32_t *clev;   /**< [nc] level: tier minus the lowest tier */
  uint64_t *ceps;   /**< [nc] endpoints on destination switches under it */
  uint32_t *cnd;    /**< [nc] destination switches under it */
  uint32_t *cfirst; /**< [nc] smallest destination index under it */
  uint32_t *cout;   /**< [nc] smallest one not under it, or FL_VIEW_NONE */
  uint64_t eps_all; /**< endpoints on all destination switches */
} fl_view;

/**
 * fl_view_free() — free everything @v owns and zero it. Safe on a zeroed
 * view and after a failed fl_view_build() or fl_view_minimal(); the
 * fl_view struct itself stays the caller's.
 */
static inline void fl_view_free(fl_view *v) {
  free(v->sw_node), free(v->node_sw), free(v->tier), free(v->poff);
  free(v->psw_end), free(v->pnb), free(v->pnode), free(v->pnum);
  free(v->pnbport), free(v->plink), free(v->pgbps), free(v->pslot);
  free(v->ep_node), free(v->ep_sw), free(v->ep_slot), free(v->ep_lid);
  free(v->ep_lmc), free(v->ep_gbps), free(v->sw_nep), free(v->dsw);
  free(v->sw_d), free(v->dist), free(v->nmin), free(v->lids);
  free(v->sw_mixed), free(v->pnb16);
  free(v->ccls), free(v->cup), free(v->clev), free(v->ceps), free(v->cnd);
  free(v->cfirst), free(v->cout);
  memset(v, 0, sizeof *v);
}

/**
 * fl_view_peer() — the node at the other end of port @p's first cable.
 * Takes the host table @api, fabric @f and a port id @p; on success stores
 * the cable in *@link and the far port in *@peer_port and returns the far
 * node. Returns FL_NONE (outputs untouched) when @p is not cabled or its
 * cable loops back to @p. O(1).
 */
static inline fl_id fl_view_peer(const fl_host_api *api, const fl_fabric *f,
                                 fl_id p, fl_id *link, fl_id *peer_port) {
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
 * fl_view_tier_dir() — the direction of a cable from a switch of tier
 * @from to a switch of tier @to (api->node_tier values): 1 up (@to is
 * higher), -1 down, 0 when the tiers are equal or either is
 * FL_TIER_UNKNOWN. A switch's uplink group is its cables to switches with
 * fl_view_tier_dir() == 1. O(1), pure.
 */
static inline int fl_view_tier_dir(uint32_t from, uint32_t to) {
  if (from == FL_TIER_UNKNOWN || to == FL_TIER_UNKNOWN || from == to)
    return 0;
  return to > from ? 1 : -1;
}

/**
 * fl_view_is_sharp_an() — 1 when node @n is a CA that is a SHARP
 * Aggregation Node (device id 0xcf09, or a node description containing
 * "Aggregation Node"): a function inside a switch on its internal port,
 * not a host NIC; 0 otherwise (switches and routers too). O(description).
 */
static inline int fl_view_is_sharp_an(const fl_host_api *api,
                                      const fl_fabric *f, fl_id n) {
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
static inline double fl_view_design_ratio(const fl_host_api *api,
                                          const fl_fabric *f, fl_id n,
                                          double policy) {
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
 * fl_view_port_switch() — the switch that port @p's first cable lands on.
 * Returns the switch node and stores the cable in *@link and the switch's
 * port in *@sw_port; returns FL_NONE (outputs untouched) when @p is not
 * cabled or its cable ends on something other than a switch. O(1).
 */
static inline fl_id fl_view_port_switch(const fl_host_api *api,
                                        const fl_fabric *f, fl_id p,
                                        fl_id *link, fl_id *sw_port) {
  fl_id l = FL_NONE, q = FL_NONE;
  fl_id s = fl_view_peer(api, f, p, &l, &q);
  if (s == FL_NONE || api->node_kind(f, s) != FL_NODE_SWITCH)
    return FL_NONE;
  *link = l;
  *sw_port = q;
  return s;
}

/**
 * fl_view_ca_switch() — host -> NIC -> leaf: the switch a CA node @n (one
 * NIC, e.g. "dgx-001 mlx5_3"; its host is api->node_system) is cabled to,
 * through its lowest-numbered port whose first cable lands on a switch.
 * Returns the switch node and stores the NIC's port number in *@port and
 * the switch's port number in *@sw_port; FL_NONE (outputs untouched) when
 * no port of @n reaches a switch. O(ports of @n).
 */
static inline fl_id fl_view_ca_switch(const fl_host_api *api,
                                      const fl_fabric *f, fl_id n,
                                      uint32_t *port, uint32_t *sw_port) {
  fl_id first = api->node_first_port(f, n);
  uint32_t np = first == FL_NONE ? 0 : api->node_port_count(f, n);
  for (uint32_t k = 0; k < np; k++) {
    fl_id l = FL_NONE, q = FL_NONE;
    fl_id s = fl_view_port_switch(api, f, first + k, &l, &q);
    if (s == FL_NONE)
      continue;
    *port = api->port_num(f, first + k);
    *sw_port = api->port_num(f, q);
    return s;
  }
  return FL_NONE;
}

/**
 * fl_view_build() — build the view of fabric @f through @api (no minimal
 * next hops yet: fl_view_minimal() adds them). @v is overwritten (not
 * freed first). Returns 0, or -1 when out of memory; either way the caller
 * frees @v with fl_view_free(). Time O(nodes + ports + links + 49,151)
 * (a LID bitmap); memory about 1 KB per switch (the pslot table) plus
 * about 40 bytes per slot and per endpoint. Calls the host, so it must run
 * on the thread that runs check().
 */
static inline int fl_view_build(fl_view *v, const fl_host_api *api,
                                const fl_fabric *f) {
  memset(v, 0, sizeof *v);
  v->api = api;
  v->f = f;
  v->nn = api->node_count(f);
  v->node_sw = (uint32_t *)malloc((size_t)v->nn * sizeof *v->node_sw + 1);
  if (!v->node_sw)
    return -1;
  uint32_t ns = 0, slots = 0, ne = 0;
  for (fl_id n = 0; n < v->nn; n++) {
    v->node_sw[n] = FL_VIEW_NONE;
    if (api->node_kind(f, n) != FL_NODE_SWITCH)
      continue;
    v->node_sw[n] = ns++;
    fl_id first = api->node_first_port(f, n);
    for (uint32_t k = 0; k < api->node_port_count(f, n); k++)
      if (api->port_link_count(f, first + k))
        slots++;
  }
  v->ns = ns;
  size_t S = ns ? ns : 1, P = slots ? slots : 1;
  v->sw_node = (fl_id *)malloc(S * sizeof *v->sw_node);
  v->tier = (uint32_t *)malloc(S * sizeof *v->tier);
  v->poff = (uint32_t *)calloc(S + 1, sizeof *v->poff);
  v->psw_end = (uint32_t *)calloc(S, sizeof *v->psw_end);
  v->pnb = (uint32_t *)malloc(P * sizeof *v->pnb);
  v->pnode = (fl_id *)malloc(P * sizeof *v->pnode);
  v->pnum = (uint16_t *)malloc(P * sizeof *v->pnum);
  v->pnbport = (uint16_t *)malloc(P * sizeof *v->pnbport);
  v->plink = (fl_id *)malloc(P * sizeof *v->plink);
  v->pgbps = (double *)malloc(P * sizeof *v->pgbps);
  v->pslot = (uint32_t *)malloc(S * 256 * sizeof *v->pslot);
  v->sw_nep = (uint32_t *)calloc(S, sizeof *v->sw_nep);
  v->sw_d = (uint32_t *)malloc(S * sizeof *v->sw_d);
  if (!v->sw_node || !v->tier || !v->poff || !v->psw_end || !v->pnb ||
      !v->pnode || !v->pnum || !v->pnbport || !v->plink || !v->pgbps ||
      !v->pslot || !v->sw_nep || !v->sw_d)
    return -1;
  memset(v->pslot, 0xff, S * 256 * sizeof *v->pslot);
  uint32_t at = 0;
  for (fl_id n = 0; n < v->nn; n++) {
    uint32_t s = v->node_sw[n];
    if (s == FL_VIEW_NONE)
      continue;
    v->sw_node[s] = n;
    v->tier[s] = api->node_tier(f, n);
    v->poff[s] = at;
    fl_id first = api->node_first_port(f, n);
    uint32_t np = api->node_port_count(f, n);
    for (int pass = 0; pass < 2; pass++) {
      for (uint32_t k = 0; k < np; k++) {
        fl_id p = first + k, l = FL_NONE, q = FL_NONE;
        fl_id m = fl_view_peer(api, f, p, &l, &q);
        if (m == FL_NONE)
          continue;
        int is_sw = api->node_kind(f, m) == FL_NODE_SWITCH;
        if (is_sw != (pass == 0))
          continue;
        uint32_t num = api->port_num(f, p);
        v->pnb[at] = is_sw ? v->node_sw[m] : FL_VIEW_NONE;
        v->pnode[at] = m;
        v->pnum[at] = (uint16_t)num;
        v->pnbport[at] = (uint16_t)api->port_num(f, q);
        v->plink[at] = l;
        v->pgbps[at] = api->link_gbps(f, l);
        if (num < 256)
          v->pslot[(size_t)s * 256 + num] = at;
        if (!is_sw && api->node_kind(f, m) == FL_NODE_CA)
          ne++;
        at++;
      }
      if (pass == 0)
        v->psw_end[s] = at;
    }
  }
  v->poff[ns] = at;
  v->ne = ne;
  /* BFS working set: 2 bytes per switch-facing slot, and speeds looked at
   * only where a switch's links differ (memory traffic, not compute, is
   * what a 2,048 x 262,144-slot BFS sweep costs) */
  v->sw_mixed = (uint8_t *)calloc(S, 1);
  if (!v->sw_mixed)
    return -1;
  for (uint32_t s = 0; s < ns; s++)
    for (uint32_t i = v->poff[s]; i < v->psw_end[s]; i++)
      if (v->pgbps[i] != v->pgbps[v->poff[s]])
        v->sw_mixed[s] = 1;
  if (ns < 0xffffu) {
    v->pnb16 = (uint16_t *)malloc(P * sizeof *v->pnb16);
    if (!v->pnb16)
      return -1;
    for (uint32_t i = 0; i < at; i++)
      v->pnb16[i] = (uint16_t)(v->pnb[i] == FL_VIEW_NONE ? 0xffffu : v->pnb[i]);
  }
  size_t E = ne ? ne : 1;
  v->ep_node = (fl_id *)malloc(E * sizeof *v->ep_node);
  v->ep_sw = (uint32_t *)malloc(E * sizeof *v->ep_sw);
  v->ep_slot = (uint32_t *)malloc(E * sizeof *v->ep_slot);
  v->ep_lid = (uint32_t *)malloc(E * sizeof *v->ep_lid);
  v->ep_lmc = (uint32_t *)malloc(E * sizeof *v->ep_lmc);
  v->ep_gbps = (double *)malloc(E * sizeof *v->ep_gbps);
  v->dsw = (uint32_t *)malloc(S * sizeof *v->dsw);
  if (!v->ep_node || !v->ep_sw || !v->ep_slot || !v->ep_lid || !v->ep_lmc ||
      !v->ep_gbps || !v->dsw)
    return -1;
  uint32_t e = 0;
  for (uint32_t s = 0; s < ns; s++)
    for (uint32_t i = v->psw_end[s]; i < v->poff[s + 1]; i++) {
      fl_id m = v->pnode[i];
      if (api->node_kind(f, m) != FL_NODE_CA)
        continue;
      fl_id cp = api->find_port(f, m, v->pnbport[i]);
      v->ep_node[e] = m;
      v->ep_sw[e] = s;
      v->ep_slot[e] = i;
      v->ep_lid[e] = cp == FL_NONE ? 0 : api->port_lid(f, cp);
      v->ep_lmc[e] = cp == FL_NONE ? 0 : api->port_lmc(f, cp);
      v->ep_gbps[e] = v->pgbps[i];
      v->sw_nep[s]++;
      e++;
    }
  /* every endpoint LID, ascending (LFT scans then stream each row) */
  size_t nl = 0;
  for (uint32_t k = 0; k < ne; k++)
    nl += v->ep_lid[k] ? 1u << (v->ep_lmc[k] & 7) : 0;
  v->lids = (uint32_t *)malloc((nl ? nl : 1) * sizeof *v->lids);
  uint8_t *seen = (uint8_t *)calloc(FL_MAX_UCAST_LID + 1, 1);
  if (!v->lids || !seen) {
    free(seen);
    return -1;
  }
  for (uint32_t k = 0; k < ne; k++)
    for (uint32_t l = v->ep_lid[k];
         l && l < v->ep_lid[k] + (1u << (v->ep_lmc[k] & 7)) &&
         l <= FL_MAX_UCAST_LID;
         l++)
      seen[l] = 1;
  v->nlids = 0;
  for (uint32_t l = 1; l <= FL_MAX_UCAST_LID; l++)
    if (seen[l])
      v->lids[v->nlids++] = l;
  free(seen);
  v->nd = 0;
  for (uint32_t s = 0; s < ns; s++) {
    v->sw_d[s] = FL_VIEW_NONE;
    if (v->sw_nep[s]) {
      v->sw_d[s] = v->nd;
      v->dsw[v->nd++] = s;
    }
  }
  return 0;
}

/* Internal: twin destination switches. Two destination switches a and b
 * are twins when their switch-facing slots reach the same neighbour
 * switches with the same link speeds (as multisets) and neither is cabled
 * to itself: exchanging them is then an automorphism of the switch graph
 * that keeps every link's speed, so the row of b is the row of a with the
 * entries of a and b exchanged (dist_b(s) = dist_a(σ(s)), and likewise
 * |M| and the mixed-speed flag). The leaves of one pod of a fat tree are
 * twins: a radix-k 3-tier tree needs k BFS runs instead of k^2/2. */
typedef struct fl_view_nb {
  uint32_t sw;
  float gbps;
} fl_view_nb;

static inline int fl_view_nb_cmp(const void *a, const void *b) {
  const fl_view_nb *x = (const fl_view_nb *)a, *y = (const fl_view_nb *)b;
  if (x->sw != y->sw)
    return x->sw < y->sw ? -1 : 1;
  return x->gbps < y->gbps ? -1 : x->gbps > y->gbps;
}

typedef struct fl_view_key {
  uint64_t h;
  uint32_t d;
} fl_view_key;

static inline int fl_view_key_cmp(const void *a, const void *b) {
  const fl_view_key *x = (const fl_view_key *)a, *y = (const fl_view_key *)b;
  if (x->h != y->h)
    return x->h < y->h ? -1 : 1;
  return x->d < y->d ? -1 : x->d > y->d;
}

/* rep[d]: the smallest twin of destination d (d itself when none). Time
 * O(slots log) for the sorts. Returns 0, or -1 when out of memory. */
static inline int fl_view_twins(const fl_view *v, uint32_t *rep) {
  size_t n = v->poff[v->ns] + 1;
  fl_view_nb *nb = (fl_view_nb *)malloc(n * sizeof *nb);
  fl_view_key *key = (fl_view_key *)malloc(((size_t)v->nd + 1) * sizeof *key);
  if (!nb || !key) {
    free(nb), free(key);
    return -1;
  }
  for (uint32_t d = 0; d < v->nd; d++) {
    uint32_t s = v->dsw[d], i0 = v->poff[s], i1 = v->psw_end[s];
    rep[d] = d;
    for (uint32_t i = i0; i < i1; i++)
      nb[i].sw = v->pnb[i], nb[i].gbps = (float)v->pgbps[i];
    qsort(nb + i0, i1 - i0, sizeof *nb, fl_view_nb_cmp);
    uint64_t h = 0xcbf29ce484222325ull ^ (i1 - i0);
    for (uint32_t i = i0; i < i1; i++) {
      uint32_t g;
      memcpy(&g, &nb[i].gbps, sizeof g);
      h = (h ^ nb[i].sw ^ ((uint64_t)g << 32)) * 0x100000001b3ull;
      h ^= h >> 29;
      if (nb[i].sw == s)
        h = 0, i = i1; /* cabled to itself: no twin */
    }
    key[d].h = h, key[d].d = d;
  }
  qsort(key, v->nd, sizeof *key, fl_view_key_cmp);
  for (uint32_t k = 1; k < v->nd; k++) {
    uint32_t a = key[k - 1].d, b = key[k].d;
    if (key[k].h == 0 || key[k].h != key[k - 1].h)
      continue;
    a = rep[a]; /* the group's smallest member when the lists match */
    uint32_t sa = v->dsw[a], sb = v->dsw[b];
    uint32_t la = v->psw_end[sa] - v->poff[sa],
             lb = v->psw_end[sb] - v->poff[sb];
    if (la == lb && (la == 0 || memcmp(nb + v->poff[sa], nb + v->poff[sb],
                                       la * sizeof *nb) == 0))
      rep[b] = a; /* else a hash collision: b stays alone */
  }
  free(nb), free(key);
  return 0;
}

/* Internal: one worker of fl_view_minimal(), BFS toward destination
 * switches d0, d0 + step, ... that are their own twin (rep[d] == d;
 * writes only those rows; no host calls). */
/**
 * fl_view_gspan() — widen the speed span [*@lo, *@hi] (Gb/s, both 0 while
 * no speed is known) by a link of @g Gb/s. An unknown speed (@g <= 0: a
 * cable inside a chassis expanded from IBNL, a plan without a rate) is
 * neither slower nor faster than the others and leaves the span as it is,
 * so it never makes a set of links "mixed" (unknown is not wrong). A span
 * is mixed when *@hi > *@lo.
 */
static inline void fl_view_gspan(float g, float *lo, float *hi) {
  if (!(g > 0))
    return;
  if (!(*lo > 0) || g < *lo)
    *lo = g;
  if (g > *hi)
    *hi = g;
}

typedef struct fl_view_job {
  fl_view *v;
  const uint32_t *rep;
  uint32_t d0, step;
  int rc;
} fl_view_job;

static inline void *fl_view_minimal_worker(void *arg) {
  fl_view_job *j = (fl_view_job *)arg;
  fl_view *v = j->v;
  uint32_t *queue = (uint32_t *)malloc(((size_t)v->ns + 1) * sizeof *queue);
  float *gmin = (float *)malloc(((size_t)v->ns + 1) * sizeof *gmin);
  float *gmax = (float *)malloc(((size_t)v->ns + 1) * sizeof *gmax);
  if (!queue || !gmin || !gmax) {
    free(queue), free(gmin), free(gmax);
    j->rc = -1;
    return NULL;
  }
  for (uint32_t d = j->d0; d < v->nd; d += j->step) {
    if (j->rep[d] != d)
      continue; /* a twin's row: copied after the BFS runs */
    uint8_t *dist = v->dist + (size_t)d * v->ns;
    uint16_t *nm = v->nmin + (size_t)d * v->ns;
    memset(dist, FL_VIEW_FAR, v->ns);
    memset(nm, 0, (size_t)v->ns * sizeof *nm);
    uint32_t t = v->dsw[d], head = 0, tail = 0;
    dist[t] = 0;
    queue[tail++] = t;
    while (head < tail) {
      uint32_t u = queue[head++];
      uint32_t du = dist[u];
      if (du + 1 >= FL_VIEW_FAR)
        continue;
      uint8_t dn = (uint8_t)(du + 1);
      uint32_t i0 = v->poff[u], i1 = v->psw_end[u];
      if (v->pnb16 && !v->sw_mixed[u]) {
        /* one speed at u: only counts (the flag needs min/max per w) */
        float g = (float)v->pgbps[i0];
        for (uint32_t i = i0; i < i1; i++) {
          uint32_t w = v->pnb16[i];
          if (dist[w] == FL_VIEW_FAR) {
            dist[w] = dn;
            queue[tail++] = w;
            nm[w] = 1;
            gmin[w] = gmax[w] = 0;
            fl_view_gspan(g, &gmin[w], &gmax[w]);
          } else if (dist[w] == dn) {
            nm[w]++;
            fl_view_gspan(g, &gmin[w], &gmax[w]);
          }
        }
        continue;
      }
      for (uint32_t i = i0; i < i1; i++) {
        uint32_t w = v->pnb[i];
        float g = (float)v->pgbps[i];
        if (dist[w] == FL_VIEW_FAR) {
          dist[w] = dn;
          queue[tail++] = w;
          nm[w] = 1;
          gmin[w] = gmax[w] = 0;
          fl_view_gspan(g, &gmin[w], &gmax[w]);
        } else if (dist[w] == dn) {
          if ((nm[w] & FL_VIEW_NMASK) < FL_VIEW_NMASK)
            nm[w]++;
          fl_view_gspan(g, &gmin[w], &gmax[w]);
        }
      }
    }
    for (uint32_t k = 1; k < tail; k++) {
      uint32_t w = queue[k];
      if (gmax[w] > gmin[w])
        nm[w] |= FL_VIEW_MIXED;
    }
  }
  free(queue), free(gmin), free(gmax);
  j->rc = 0;
  return NULL;
}

/** Most worker threads fl_view_minimal() starts (itself included). */
#define FL_VIEW_THREADS 8
/**
 * Matrix cells (nd x ns) from which fl_view_minimal() splits over threads.
 * Builds for ThreadSanitizer (-DFABRICLINT_SANITIZE=thread) define it as 1
 * so that test-size fabrics take the threaded path (tests/tsan/run.sh).
 */
#ifndef FL_VIEW_THREAD_CELLS
#define FL_VIEW_THREAD_CELLS 1000000u
#endif
/**
 * fl_view_minimal() — fill v->dist and v->nmin of a built view: per
 * destination switch d and switch s, the hop count dist[d*ns+s] and the
 * number of minimal next hops |M(s, d)| (switch-facing slots of s whose
 * neighbour is one hop closer), with FL_VIEW_MIXED set when those links
 * differ in speed. One BFS per destination switch: time O(nd x switch
 * slots), memory 3 bytes x nd x ns. Split over up to min(online CPUs,
 * FL_VIEW_THREADS) threads when the matrix has FL_VIEW_THREAD_CELLS (10^6)
 * cells or more (rows are independent; the result does not depend on the
 * thread count; no host calls). Returns 0, or -1 when out of memory (free @v
 * with fl_view_free()). Call once per view.
 */
static inline int fl_view_minimal(fl_view *v) {
  size_t cells = (size_t)v->nd * v->ns;
  v->dist = (uint8_t *)malloc(cells ? cells : 1);
  v->nmin = (uint16_t *)malloc((cells ? cells : 1) * sizeof *v->nmin);
  uint32_t *rep = (uint32_t *)malloc(((size_t)v->nd + 1) * sizeof *rep);
  if (!v->dist || !v->nmin || !rep || fl_view_twins(v, rep) != 0) {
    free(rep);
    return -1;
  }
  long cpus = sysconf(_SC_NPROCESSORS_ONLN);
  uint32_t nt = cpus < 1                 ? 1
                : cpus > FL_VIEW_THREADS ? FL_VIEW_THREADS
                                         : (uint32_t)cpus;
  if (cells < FL_VIEW_THREAD_CELLS)
    nt = 1; /* not worth a thread */
  fl_view_job jobs[FL_VIEW_THREADS];
  pthread_t th[FL_VIEW_THREADS];
  uint32_t started = 0;
  for (uint32_t k = 0; k < nt; k++) {
    jobs[k].v = v, jobs[k].rep = rep, jobs[k].d0 = k, jobs[k].step = nt;
    jobs[k].rc = -1;
    if (k > 0 &&
        pthread_create(&th[k], NULL, fl_view_minimal_worker, &jobs[k]) == 0)
      started |= 1u << k;
  }
  fl_view_minimal_worker(&jobs[0]);
  int rc = jobs[0].rc;
  for (uint32_t k = 1; k < nt; k++) {
    if (started & (1u << k))
      pthread_join(th[k], NULL);
    else
      fl_view_minimal_worker(&jobs[k]); /* could not start: do it here */
    if (jobs[k].rc != 0)
      rc = -1;
  }
  for (uint32_t d = 0; rc == 0 && d < v->nd; d++) {
    uint32_t a = rep[d];
    if (a == d)
      continue;
    uint32_t sa = v->dsw[a], sd = v->dsw[d];
    uint8_t *dist = v->dist + (size_t)d * v->ns;
    uint16_t *nm = v->nmin + (size_t)d * v->ns;
    memcpy(dist, v->dist + (size_t)a * v->ns, v->ns);
    memcpy(nm, v->nmin + (size_t)a * v->ns, (size_t)v->ns * sizeof *nm);
    uint8_t x = dist[sa];
    dist[sa] = dist[sd], dist[sd] = x;
    uint16_t y = nm[sa];
    nm[sa] = nm[sd], nm[sd] = y;
  }
  free(rep);
  return rc;
}

/* ---- cover classes: minimal next hops without the matrix -----------------
 *
 * On a nested fabric the shortest paths have a closed form (the argument
 * is in core/analysis/updown.h, where the routing-deadlock model uses the
 * same classes, fabriclint/covers.h): every switch-to-switch cable joins
 * adjacent tiers and is seen from both ends (port for port), the
 * destination switches all sit on the lowest tier, every switch but the
 * top ones has one above it and every switch above the lowest tier one
 * below, the switches above any one switch have one cover, switches with
 * one cover have the same covers below them, and the top tier is one
 * cover (it reaches every leaf). Then
 * the shortest paths from switch s to destination switch t climb to the
 * lowest tier at which s's ancestors reach t and descend, so M(s, t) is
 * s's up-links when t is not under s, and s's down-links to the switches
 * of the class over t one level below s when it is. A full or partial fat
 * tree (parallel cables too), a rail-optimised leaf/spine plan and one
 * plane of a multi-plane fabric are nested; a missing, extra or same-tier
 * cable or a host on a spine is not. */

/* Internal: fl_cover_graph.mirrored of a view (@ctx): the cable of slot
 * @i of switch @s comes back to @s at the same port. */
static inline int fl_view_slot_mirrored(const void *ctx, uint32_t s,
                                        uint32_t i) {
  const fl_view *v = (const fl_view *)ctx;
  uint32_t w = v->pnb[i];
  if (v->pnum[i] > 255 || v->pnbport[i] > 255)
    return 0;
  uint32_t j = v->pslot[(size_t)w * 256 + v->pnbport[i]];
  return j != FL_VIEW_NONE && v->pnb[j] == s && v->pnbport[j] == v->pnum[i];
}

/* Internal: destination @d's class at level @l (l >= its own level 0). */
static inline uint32_t fl_view_class_at(const fl_view *v, uint32_t d,
                                        uint32_t l) {
  uint32_t k = v->ccls[v->dsw[d]];
  while (v->clev[k] < l)
    k = v->cup[k];
  return k;
}

/* Internal: endpoints, destinations and first destinations per class. */
static inline void fl_view_class_sums(fl_view *v) {
  for (uint32_t k = 0; k < v->nc; k++)
    v->ceps[k] = 0, v->cnd[k] = 0, v->cfirst[k] = v->cout[k] = FL_VIEW_NONE;
  v->eps_all = 0;
  for (uint32_t d = 0; d < v->nd; d++) {
    v->eps_all += v->sw_nep[v->dsw[d]];
    for (uint32_t k = v->ccls[v->dsw[d]]; k != FL_COVER_NONE; k = v->cup[k]) {
      v->ceps[k] += v->sw_nep[v->dsw[d]];
      if (!v->cnd[k]++)
        v->cfirst[k] = d;
    }
  }
  /* the first destination not under k: the scan passes only k's own */
  for (uint32_t k = 0; k < v->nc; k++) {
    uint32_t d = 0;
    while (d < v->nd && fl_view_class_at(v, d, v->clev[k]) == k)
      d++;
    v->cout[k] = d < v->nd ? d : FL_VIEW_NONE;
  }
}

/* Internal: the classes into @v (v->nc > 0) when nested
 * (fabriclint/covers.h over the switch-facing slots, and the destination
 * switches on the lowest tier); 0 when not (v->nc = 0), -1 when out of
 * memory. */
static inline int fl_view_covers(fl_view *v) {
  /* switch-facing slots hold switch indexes (< ns <= INT32_MAX) */
  fl_cover_graph g = {v->ns,
                      v->tier,
                      v->poff,
                      v->psw_end,
                      (const int32_t *)v->pnb,
                      fl_view_slot_mirrored,
                      v};
  fl_covers c;
  int rc = fl_cover_classes(&g, &c);
  for (uint32_t d = 0; rc == 1 && d < v->nd; d++)
    if (v->tier[v->dsw[d]] != c.t0)
      rc = 0; /* endpoints above the lowest tier */
  if (rc != 1) {
    fl_covers_free(&c);
    return rc;
  }
  size_t n = (size_t)c.nc + 1;
  v->ccls = c.cls, v->cup = c.cup, v->clev = c.clev; /* the view's now */
  v->ceps = (uint64_t *)malloc(n * sizeof *v->ceps);
  v->cnd = (uint32_t *)malloc(n * sizeof *v->cnd);
  v->cfirst = (uint32_t *)malloc(n * sizeof *v->cfirst);
  v->cout = (uint32_t *)malloc(n * sizeof *v->cout);
  if (!v->ceps || !v->cnd || !v->cfirst || !v->cout)
    return -1; /* v->nc stays 0; fl_view_free() frees the arrays */
  v->nc = c.nc;
  fl_view_class_sums(v);
  return 1;
}

/**
 * fl_view_minimal_compact() — what fl_view_minimal() makes available,
 * without the nd x ns matrix where the fabric allows: on a nested fabric
 * (above) the cover classes are built (v->nc > 0, v->dist and v->nmin
 * stay NULL), else the matrix is (fl_view_minimal(), v->nc = 0). Read
 * either form with fl_view_dist_at(), fl_view_nmin_at() and
 * fl_view_groups(); call fl_view_rows() before reading v->dist or v->nmin
 * directly. Time O(switch slots log + nd x tiers) when nested. Returns 0,
 * or -1 when out of memory (free @v with fl_view_free()). Call once per
 * view, instead of fl_view_minimal().
 */
static inline int fl_view_minimal_compact(fl_view *v) {
  int rc = fl_view_covers(v);
  if (rc < 0)
    return -1;
  return rc == 1 ? 0 : fl_view_minimal(v);
}

/**
 * fl_view_rows() — make sure v->dist and v->nmin hold the matrix (after
 * fl_view_minimal_compact(), which may have built classes only): builds
 * it when missing. Returns 0, or -1 when out of memory.
 */
static inline int fl_view_rows(fl_view *v) {
  return v->dist ? 0 : fl_view_minimal(v);
}

/**
 * fl_view_dist_at() — hops from switch @s to destination switch dsw[@d]
 * (FL_VIEW_FAR: unreachable), from the matrix or the cover classes. O(1)
 * with the matrix, O(tiers) with classes.
 */
static inline uint32_t fl_view_dist_at(const fl_view *v, uint32_t d,
                                       uint32_t s) {
  if (!v->nc)
    return v->dist[(size_t)d * v->ns + s];
  if (v->dsw[d] == s)
    return 0;
  uint32_t ks = v->ccls[s], ls = v->clev[ks], kd = fl_view_class_at(v, d, ls);
  uint32_t h = ls;
  while (kd != ks)
    kd = v->cup[kd], ks = v->cup[ks], h++;
  return 2 * h - ls;
}

/**
 * fl_view_nmin_at() — |M(s, d)| | FL_VIEW_MIXED of switch @s toward
 * destination switch dsw[@d] (0 when s is that switch), from the matrix or
 * the cover classes. O(1) with the matrix, O(tiers + ports of s) with
 * classes.
 */
static inline uint16_t fl_view_nmin_at(const fl_view *v, uint32_t d,
                                       uint32_t s) {
  if (!v->nc)
    return v->nmin[(size_t)d * v->ns + s];
  if (v->dsw[d] == s)
    return 0;
  uint32_t ls = v->clev[v->ccls[s]];
  int under = fl_view_class_at(v, d, ls) == v->ccls[s];
  uint32_t below = under ? fl_view_class_at(v, d, ls - 1) : FL_VIEW_NONE;
  uint32_t n = 0;
  float lo = 0, hi = 0;
  for (uint32_t i = v->poff[s]; i < v->psw_end[s]; i++) {
    uint32_t k = v->ccls[v->pnb[i]];
    if (under ? k != below : v->clev[k] != ls + 1)
      continue;
    fl_view_gspan((float)v->pgbps[i], &lo, &hi);
    n++;
  }
  return (uint16_t)(n | (hi > lo ? FL_VIEW_MIXED : 0));
}

/**
 * fl_view_group — destinations that switch s reaches through the same
 * minimal next hops (fl_view_groups()).
 * @first_d: the smallest destination index in the group.
 * @n_dest / @eps: destination switches in it and their endpoints.
 * @cls: the class of the switches below s over the group (its down-links
 *   lead there), FL_VIEW_NONE for the destinations not under s.
 * @nmin: |M(s, d)| | FL_VIEW_MIXED, the same for every d of the group
 *   (never FL_VIEW_FAR: a nested fabric reaches everything).
 * @dir: 1 when the next hops are up-links, -1 down-links.
 * @gmin / @gmax: the slowest and fastest of those links of known speed,
 *   Gb/s (as float; both 0 when no speed is known: fl_view_gspan()).
 */
typedef struct fl_view_group {
  uint32_t first_d;
  uint32_t n_dest;
  uint64_t eps;
  uint32_t cls;
  uint16_t nmin;
  int16_t dir;
  float gmin, gmax;
} fl_view_group;

/* Internal: group order for qsort(): by class (merge), by first_d. */
static inline int fl_view_group_cls_cmp(const void *a, const void *b) {
  const fl_view_group *x = (const fl_view_group *)a,
                      *y = (const fl_view_group *)b;
  return x->cls < y->cls ? -1 : x->cls > y->cls;
}
static inline int fl_view_group_first_cmp(const void *a, const void *b) {
  const fl_view_group *x = (const fl_view_group *)a,
                      *y = (const fl_view_group *)b;
  return x->first_d < y->first_d ? -1 : x->first_d > y->first_d;
}

/**
 * fl_view_groups() — the destinations other than s itself, in groups of
 * equal minimal next hops from switch @s, in ascending @first_d (so the
 * first destination in index order with a property is the @first_d of the
 * first group with it). Needs cover classes (v->nc > 0). @g has room for
 * psw_end[s] - poff[s] + 1 entries; returns how many were written. A rule
 * summing over (switch, destination) pairs sums over groups instead:
 * O(ports of s log) per switch, with no matrix.
 */
static inline uint32_t fl_view_groups(const fl_view *v, uint32_t s,
                                      fl_view_group *g) {
  uint32_t ks = v->ccls[s], ls = v->clev[ks], n = 0, up = 0;
  float ulo = 0, uhi = 0;
  for (uint32_t i = v->poff[s]; i < v->psw_end[s]; i++) {
    uint32_t k = v->ccls[v->pnb[i]];
    float gb = (float)v->pgbps[i];
    if (v->clev[k] == ls + 1) {
      fl_view_gspan(gb, &ulo, &uhi);
      up++;
    } else if (v->cnd[k]) {
      g[n].cls = k, g[n].gmin = g[n].gmax = 0, g[n].nmin = 1;
      fl_view_gspan(gb, &g[n].gmin, &g[n].gmax);
      n++;
    }
  }
  qsort(g, n, sizeof *g, fl_view_group_cls_cmp);
  uint32_t m = 0;
  for (uint32_t i = 0; i < n; i++) {
    if (m && g[m - 1].cls == g[i].cls) {
      fl_view_group *a = &g[m - 1];
      a->nmin++;
      fl_view_gspan(g[i].gmin, &a->gmin, &a->gmax);
      fl_view_gspan(g[i].gmax, &a->gmin, &a->gmax);
      continue;
    }
    g[m] = g[i];
    g[m].first_d = v->cfirst[g[i].cls], g[m].n_dest = v->cnd[g[i].cls];
    g[m].eps = v->ceps[g[i].cls], g[m].dir = -1;
    m++;
  }
  for (uint32_t i = 0; i < m; i++)
    if (g[i].gmax > g[i].gmin)
      g[i].nmin |= FL_VIEW_MIXED;
  if (v->nd > v->cnd[ks]) {
    fl_view_group *o = &g[m++];
    o->first_d = v->cout[ks], o->n_dest = v->nd - v->cnd[ks];
    o->eps = v->eps_all - v->ceps[ks], o->cls = FL_VIEW_NONE;
    o->nmin = (uint16_t)(up | (uhi > ulo ? FL_VIEW_MIXED : 0));
    o->dir = 1, o->gmin = ulo, o->gmax = uhi;
  }
  qsort(g, m, sizeof *g, fl_view_group_first_cmp);
  return m;
}

/**
 * fl_view_groups_new() — an array with room for fl_view_groups() of any
 * switch of @v (the most switch-facing slots of a switch, plus one).
 * Returns it (the caller frees it with free()), or NULL when out of memory.
 */
static inline fl_view_group *fl_view_groups_new(const fl_view *v) {
  uint32_t most = 0;
  for (uint32_t s = 0; s < v->ns; s++)
    if (v->psw_end[s] - v->poff[s] > most)
      most = v->psw_end[s] - v->poff[s];
  return (fl_view_group *)malloc(((size_t)most + 1) * sizeof(fl_view_group));
}

/**
 * fl_view_dir() — tier relation of slot @i of switch @s (a switch index and
 * one of its slots): 1 an up-link (neighbour switch of a higher tier), -1 a
 * down-link (lower tier, or a CA/router), 0 same tier or a tier unknown.
 * An uplink group of s is its slots with fl_view_dir() == 1. O(1).
 */
static inline int fl_view_dir(const fl_view *v, uint32_t s, uint32_t i) {
  uint32_t w = v->pnb[i];
  if (w == FL_VIEW_NONE)
    return -1;
  return fl_view_tier_dir(v->tier[s], v->tier[w]);
}

/**
 * fl_view_rand() — splitmix64, a small deterministic PRNG whose state the
 * caller keeps in *@state (seed it with any value). Returns the next 64
 * random bits. Re-entrant (no hidden state).
 */
static inline uint64_t fl_view_rand(uint64_t *state) {
  uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

/**
 * fl_view_rand_skip() — the state fl_view_rand() reaches from @state after
 * @n draws, in O(1): splitmix64's state only advances by a constant per
 * draw (modulo 2^64), so draw k of a stream can be made without the ones
 * before it (the random patterns of ecmp-balance split over MPI ranks
 * start each pattern there). Pure; takes and returns the 64-bit state.
 */
static inline uint64_t fl_view_rand_skip(uint64_t state, uint64_t n) {
  return state + n * 0x9e3779b97f4a7c15ull;
}

#endif
