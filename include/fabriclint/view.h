/* SPDX-License-Identifier: MIT */
/*
 * fabriclint/view.h — a switch-centred view of a fabric for rule plugins:
 * switches, their cabled ports ("slots": switch-facing first, each part in
 * port order), their tiers, the endpoints (CA ports on a switch) with LIDs,
 * and the minimal next hops M(s, t) of every switch s toward every switch t
 * with endpoints, as a matrix or, on a nested fabric, as cover classes.
 *
 * Declarations and small inline accessors only (issue 29): the algorithms
 * run in the host (core/analysis/swview*.c) through fl_host_api (ABI 1.6),
 * so a fix reaches built plugins, which link nothing of fabriclint. A
 * built view is read-only, for any thread; build it in check() and cache
 * it keyed by fl_fabric_key_of(). Costs: docs/plugins.md.
 */
#ifndef FABRICLINT_VIEW_H
#define FABRICLINT_VIEW_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fabriclint/covers.h"
#include "fabriclint/plugin.h"
#include "fabriclint/routing.h"

#define FL_VIEW_NONE    0xffffffffu /**< no such index (switch, slot) */
#define FL_VIEW_FAR     0xffu       /**< fl_view.dist: unreachable */
#define FL_VIEW_MIXED   0x8000u     /**< fl_view.nmin: next hops mix speeds */
#define FL_VIEW_NMASK   0x7fffu     /**< fl_view.nmin: |M(s, d)|, saturating */
#define FL_VIEW_THREADS 8           /**< most threads fl_view_minimal() runs */

/** fl_view — the view of one fabric, filled by the host (ABI 1.6; grows at
 * its end only). Arrays: [ns] by switch, [slots] by slot (poff[ns] in all),
 * [ne] by endpoint, [nd] by destination switch. Link speeds in Gb/s (0:
 * unknown). Ports numbered above 255 have a slot but no pslot entry. */
typedef struct fl_view {
  uint32_t struct_size;   /**< sizeof(fl_view) of the caller (ABI 1.6) */
  uint32_t reserved0;     /**< 0 */
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
  /* cover classes (fl_view_minimal_compact(), nested fabrics): switches
   * with one cover (the leaves they reach going down) (fabriclint/covers.h) */
  uint32_t nc;        /**< cover classes; 0: none (rows, if any, in dist) */
  uint32_t *ccls;     /**< [ns] cover class of each switch */
  uint32_t *cup;      /**< [nc] class of the switches above, or FL_VIEW_NONE */
  uint32_t *clev;     /**< [nc] level: tier minus the lowest tier */
  uint64_t *ceps;     /**< [nc] endpoints on destination switches under it */
  uint32_t *cnd;      /**< [nc] destination switches under it */
  uint32_t *cfirst;   /**< [nc] smallest destination index under it */
  uint32_t *cout;     /**< [nc] smallest one not under it, or FL_VIEW_NONE */
  uint64_t eps_all;   /**< endpoints on all destination switches */
  uint32_t threads;   /**< ABI 1.7: set before fl_view_minimal(), the run's
                           budget (fl_run_threads()); 0: all CPUs usable */
  uint32_t reserved1; /**< 0 */
} fl_view;

/** fl_view_group — destinations s reaches by one next-hop set. */
typedef struct fl_view_group {
  uint32_t first_d; /**< the smallest destination index in the group */
  uint32_t n_dest;  /**< destination switches in it */
  uint64_t eps;     /**< their endpoints */
  uint32_t cls;     /**< class below s over them; FL_VIEW_NONE: not under s */
  uint16_t nmin;    /**< |M(s, d)| | FL_VIEW_MIXED, one value for the group */
  int16_t dir;      /**< 1: the next hops are up-links, -1: down-links */
  float gmin, gmax; /**< slowest, fastest of them of known Gb/s (0: none) */
} fl_view_group;

/** fl_view_build() — the view of fabric @f through @api, without minimal
 * next hops. Returns 0, or -1 (out of memory, host older than ABI 1.6);
 * free @v with fl_view_free() either way. O(nodes + ports + links). */
static inline int fl_view_build(fl_view *v, const fl_host_api *api,
                                const fl_fabric *f) {
  memset(v, 0, sizeof *v);
  v->struct_size = (uint32_t)sizeof *v;
  return FL_API_HAS(api, view_build) ? (api->view_build)(v, api, f) : -1;
}

/** fl_view_free() — free what @v owns, zero it (also after a failed build). */
static inline void fl_view_free(fl_view *v) {
  if (v->api && FL_API_HAS(v->api, view_free))
    (v->api->view_free)(v);
  else
    memset(v, 0, sizeof *v);
}

/** fl_view_minimal() — fill v->dist (hops) and v->nmin (|M(s, d)|) at
 * [d*ns+s]: one BFS per destination switch, threaded from 10^6 cells.
 * Returns 0, or -1 when out of memory. Call once per view. */
static inline int fl_view_minimal(fl_view *v) {
  return v->api ? (v->api->view_minimal)(v) : -1;
}

/** fl_view_minimal_compact() — instead of fl_view_minimal(): cover classes
 * on a nested fabric (v->nc > 0; dist, nmin NULL), else the matrix. Read
 * it with the three functions below. Returns 0, or -1 out of memory. */
static inline int fl_view_minimal_compact(fl_view *v) {
  return v->api ? (v->api->view_minimal_compact)(v) : -1;
}

/** fl_view_rows() — the matrix, built when missing (0, or -1 no memory). */
static inline int fl_view_rows(fl_view *v) {
  return v->dist ? 0 : fl_view_minimal(v);
}

/** fl_view_dist_at() — hops from switch @s to destination switch dsw[@d]
 * (FL_VIEW_FAR: unreachable): O(1) from the matrix, O(tiers) classes. */
static inline uint32_t fl_view_dist_at(const fl_view *v, uint32_t d,
                                       uint32_t s) {
  if (!v->nc)
    return v->dist[(size_t)d * v->ns + s];
  return (v->api->view_dist_at)(v, d, s);
}

/** fl_view_nmin_at() — |M(s, d)| | FL_VIEW_MIXED of switch @s toward
 * dsw[@d] (0 when s is that switch): O(1) matrix, O(ports of s) classes. */
static inline uint16_t fl_view_nmin_at(const fl_view *v, uint32_t d,
                                       uint32_t s) {
  if (!v->nc)
    return v->nmin[(size_t)d * v->ns + s];
  return (v->api->view_nmin_at)(v, d, s);
}

/** fl_view_groups() — the destinations other than @s in groups of equal
 * minimal next hops from @s, ascending first_d; needs v->nc > 0. @g from
 * fl_view_groups_new(); returns the count. O(ports of s log). */
static inline uint32_t fl_view_groups(const fl_view *v, uint32_t s,
                                      fl_view_group *g) {
  return (v->api->view_groups)(v, s, g);
}

/** fl_view_groups_new() — room for any switch's groups (free() it). */
static inline fl_view_group *fl_view_groups_new(const fl_view *v) {
  uint32_t most = 0;
  for (uint32_t s = 0; s < v->ns; s++)
    if (v->psw_end[s] - v->poff[s] > most)
      most = v->psw_end[s] - v->poff[s];
  return (fl_view_group *)malloc(((size_t)most + 1) * sizeof(fl_view_group));
}

/** fl_view_tier_dir() — tier @from to @to: 1 up, -1 down, 0 same/unknown. */
static inline int fl_view_tier_dir(uint32_t from, uint32_t to) {
  if (from == FL_TIER_UNKNOWN || to == FL_TIER_UNKNOWN || from == to)
    return 0;
  return to > from ? 1 : -1;
}

/** fl_view_dir() — fl_view_tier_dir() of slot @i of switch @s (a CA: -1). */
static inline int fl_view_dir(const fl_view *v, uint32_t s, uint32_t i) {
  uint32_t w = v->pnb[i];
  return w == FL_VIEW_NONE ? -1 : fl_view_tier_dir(v->tier[s], v->tier[w]);
}

/** fl_view_peer() — the node at the far end of port @p's first cable (cable
 * in *@link, far port in *@peer_port), else FL_NONE (outputs untouched). */
static inline fl_id fl_view_peer(const fl_host_api *api, const fl_fabric *f,
                                 fl_id p, fl_id *link, fl_id *peer_port) {
  return FL_API_HAS(api, view_peer)
             ? (api->view_peer)(api, f, p, link, peer_port)
             : FL_NONE;
}

/** fl_view_port_switch() — fl_view_peer() if a switch (port in *@sw_port). */
static inline fl_id fl_view_port_switch(const fl_host_api *api,
                                        const fl_fabric *f, fl_id p,
                                        fl_id *link, fl_id *sw_port) {
  return FL_API_HAS(api, view_port_switch)
             ? (api->view_port_switch)(api, f, p, link, sw_port)
             : FL_NONE;
}

/** fl_view_is_sharp_an() — 1 when node @n is a SHARP Aggregation Node (a
 * switch function, not a host), else 0; 0 from a host older than 1.6. */
static inline int fl_view_is_sharp_an(const fl_host_api *api,
                                      const fl_fabric *f, fl_id n) {
  return FL_API_HAS(api, view_is_sharp_an) ? (api->view_is_sharp_an)(api, f, n)
                                           : 0;
}

/** fl_view_ca_switch() — host -> NIC -> leaf: the switch CA @n is cabled
 * to by its lowest port that reaches one (port numbers in *@port and
 * *@sw_port), or FL_NONE (outputs untouched; a host older than 1.6). */
static inline fl_id fl_view_ca_switch(const fl_host_api *api,
                                      const fl_fabric *f, fl_id n,
                                      uint32_t *port, uint32_t *sw_port) {
  return FL_API_HAS(api, view_ca_switch)
             ? (api->view_ca_switch)(api, f, n, port, sw_port)
             : FL_NONE;
}

/** fl_view_design_ratio() — the oversubscription switch @n is designed for:
 * its attribute `oversubscription` ("2:1", "3:2", "1.5") when well-formed,
 * else @policy (also from a host older than ABI 1.6). */
static inline double fl_view_design_ratio(const fl_host_api *api,
                                          const fl_fabric *f, fl_id n,
                                          double policy) {
  return FL_API_HAS(api, view_design_ratio)
             ? (api->view_design_ratio)(api, f, n, policy)
             : policy;
}

/** fl_view_rand() — splitmix64 (state in *@state): the next 64 bits. */
static inline uint64_t fl_view_rand(uint64_t *state) {
  uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

/** fl_view_rand_skip() — the state after @n draws from @state, in O(1). */
static inline uint64_t fl_view_rand_skip(uint64_t state, uint64_t n) {
  return state + n * 0x9e3779b97f4a7c15ull;
}

#endif
