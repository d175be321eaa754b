/* SPDX-License-Identifier: MIT */
/*
 * core/analysis/cdg_models.c — design mode's modelled routing engines: the
 * reference routing (all minimal next hops) and up*-down* / ftree.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "analysis/cdg_impl.h"
#include "analysis/cdg_ref.h"
#include "analysis/twins.h"
#include "analysis/updown.h"
#include "fabriclint/cdg.h"
#include "fabriclint/routing.h"
#include "model/derive.h"
#include "model/hashmap.h"
#include "util/hash.h"

/* ---- reference routing: all minimal next hops -------------------------------
 */

static uint32_t first_lid_at(const cdg *g, uint32_t s) {
  const sw_rec *r = &g->sw[s];
  for (uint32_t p = 0; p < r->P; p++) {
    uint32_t slot = r->base + p;
    if (g->peer_sw[slot] == PEER_CA &&
        !fl_is_aggregation_node(
            g->f, fl_fabric_port_node(g->f, g->peer_portid[slot]))) {
      uint32_t lid = fl_fabric_port_lid(g->f, g->peer_portid[slot]);
      if (lid)
        return lid;
    }
  }
  fl_id p0 = fl_fabric_find_port(g->f, r->node, 0);
  return p0 == FL_NONE ? 0 : fl_fabric_port_lid(g->f, p0);
}

static void bfs_dist(const cdg *g, uint32_t root, uint32_t *dist,
                     uint32_t *queue) {
  for (uint32_t s = 0; s < g->n_sw; s++)
    dist[s] = UINT32_MAX;
  uint32_t head = 0, tail = 0;
  dist[root] = 0;
  queue[tail++] = root;
  while (head < tail) {
    uint32_t s = queue[head++];
    const sw_rec *r = &g->sw[s];
    for (uint32_t p = 1; p < r->P; p++) {
      int32_t t = g->peer_sw[r->base + p];
      if (t >= 0 && dist[t] == UINT32_MAX) {
        dist[t] = dist[s] + 1;
        queue[tail++] = (uint32_t)t;
      }
    }
  }
}

/* Mark switches that carry traffic toward root: sources, and everything on
 * a minimal path from a source. Visits switches in decreasing distance. */
static void mark_used(const cdg *g, const uint32_t *dist, const uint32_t *order,
                      uint32_t n_order, uint8_t *used) {
  memset(used, 0, g->n_sw);
  for (uint32_t i = 0; i < g->n_src; i++)
    used[g->src[i].sw] = 1;
  for (uint32_t k = n_order; k-- > 0;) {
    uint32_t s = order[k];
    if (!used[s])
      continue;
    const sw_rec *r = &g->sw[s];
    for (uint32_t p = 1; p < r->P; p++) {
      int32_t t = g->peer_sw[r->base + p];
      if (t >= 0 && dist[t] + 1 == dist[s])
        used[t] = 1;
    }
  }
}

/* The turns minimal routing makes at switch @t toward a root depend only on
 * which neighbours are one hop closer (out ports) and which used neighbours
 * are one hop farther (in ports). Symmetric fabrics repeat the same pattern
 * for most roots (a spine routes every other pod's leaves the same way), so
 * the pattern is hashed (two independent 64-bit hashes, collision odds
 * ~2^-128) and enumerated only the first time. Returns 1 when new, 0 when
 * seen, -1 on ENOMEM. */
static int turn_pattern_is_new(worker *w, uint32_t t, const uint32_t *dist,
                               const uint8_t *used) {
  const cdg *g = w->g;
  const sw_rec *r = &g->sw[t];
  uint64_t h1 = 0x9e3779b97f4a7c15ull ^ t, h2 = 0xc2b2ae3d27d4eb4full + t;
  for (uint32_t p = 1; p < r->P; p++) {
    int32_t n = g->peer_sw[r->base + p];
    uint64_t cls = 0;
    if (n >= 0 && dist[n] + 1 == dist[t])
      cls = 1;
    else if (n >= 0 && used[n] && dist[n] == dist[t] + 1)
      cls = 2;
    uint64_t x = ((uint64_t)p << 2) | cls;
    h1 = fl_fnv64_step(h1, x);
    h1 ^= h1 >> 29;
    h2 = (h2 + x * 0xff51afd7ed558ccdull) * 0xc4ceb9fe1a85ec53ull;
    h2 ^= h2 >> 31;
  }
  uint64_t key = h1 ^ (h2 << 1) ^ ((uint64_t)t << 40);
  uint32_t got = fl_u64map_get(&w->vdep, key);
  if (got != FL_MAP_ABSENT)
    return got == (uint32_t)(h2 >> 33) ? 0 : 1;
  return fl_u64map_put(&w->vdep, key, (uint32_t)(h2 >> 33)) == FL_MAP_ABSENT
             ? -1
             : 1;
}

/* Add the turns (in, out) at switch @t whose codes match: bit 0/1 of
 * codes[in] (arrivals in state 0/1) with bit 2/3 of codes[out] (next hops
 * out of state 0/1). Ports are listed first, so the cost is O(P) plus the
 * turns added, not O(P^2). @list holds 4 x MAX_PORTS entries. */
static int add_coded_turns(worker *w, uint32_t t, const uint8_t *codes,
                           uint16_t *list, uint32_t dlid) {
  const sw_rec *r = &w->g->sw[t];
  uint32_t n[4] = {0, 0, 0, 0};
  for (uint32_t p = 1; p < r->P; p++)
    for (uint32_t b = 0; b < 4; b++)
      if (codes[p] & (1u << b))
        list[b * MAX_PORTS + n[b]++] = (uint16_t)p;
  /* design mode: VL-blind, no seen bitmap (add_dep() in short) */
  uint32_t *tab = w->dep + r->dep_off;
  for (uint32_t st = 0; st < 2; st++)
    for (uint32_t i = 0; i < n[st]; i++) {
      uint32_t *row = tab + (size_t)list[st * MAX_PORTS + i] * r->P;
      const uint16_t *out = &list[(st + 2) * MAX_PORTS];
      if (w->atomic_dep)
        for (uint32_t o = 0; o < n[st + 2]; o++)
          dep_min(&row[out[o]], dlid);
      else
        for (uint32_t o = 0; o < n[st + 2]; o++)
          if (!row[out[o]])
            row[out[o]] = dlid;
    }
  return FL_OK;
}

/* minhop's turns at @t as codes: bit 0 a used switch one hop farther
 * arrives by the port, bit 2 the port is a minimal next hop. */
void cdg_minimal_codes(const cdg *g, uint32_t t, const uint32_t *dist,
                       const uint8_t *used, uint8_t *codes) {
  const sw_rec *r = &g->sw[t];
  for (uint32_t p = 0; p < r->P; p++) {
    int32_t n = p ? g->peer_sw[r->base + p] : -1;
    codes[p] = 0;
    if (n < 0)
      continue;
    if (used[n] && dist[n] == dist[t] + 1)
      codes[p] |= 1;
    if (dist[n] + 1 == dist[t])
      codes[p] |= 4;
  }
}

/* The minimal turns at switch @t toward the root whose distances and used
 * marks are @dist and @used (witness @dlid), unless @t's turn pattern was
 * seen for an earlier root. @codes: MAX_PORTS bytes of scratch. */
static int minimal_turns_at(worker *w, uint32_t t, const uint32_t *dist,
                            const uint8_t *used, uint32_t dlid,
                            uint8_t *codes) {
  int fresh = turn_pattern_is_new(w, t, dist, used);
  if (fresh <= 0)
    return fresh < 0 ? FL_ENOMEM : FL_OK; /* seen: added for an earlier root */
  cdg_minimal_codes(w->g, t, dist, used, codes);
  return add_coded_turns(w, t, codes, w->turn_ports, dlid);
}

/* (switch, root) pairs of used switches that cannot reach the root. */
static uint64_t minimal_unrouted(const cdg *g, const uint32_t *dist,
                                 const uint8_t *used) {
  uint64_t n = 0;
  for (uint32_t s = 0; s < g->n_sw; s++)
    n += used[s] && dist[s] == UINT32_MAX;
  return n;
}

uint32_t cdg_root_dlid(const cdg *g, uint32_t root) {
  uint32_t dlid = first_lid_at(g, root);
  return dlid ? dlid : 1;
}

int cdg_minimal_for_root(worker *w, uint32_t root, uint32_t dlid,
                         uint32_t *dist, uint32_t *queue, uint8_t *used,
                         uint8_t *codes) {
  cdg *g = w->g;
  bfs_dist(g, root, dist, queue);
  /* queue now holds the reachable switches in BFS order */
  uint32_t n_order = 0;
  for (uint32_t s = 0; s < g->n_sw; s++)
    n_order += dist[s] != UINT32_MAX;
  mark_used(g, dist, queue, n_order, used);
  w->destinations++;
  w->unrouted_pairs += minimal_unrouted(g, dist, used);
  for (uint32_t t = 0; t < g->n_sw; t++) {
    if (!used[t] || t == root || dist[t] == UINT32_MAX)
      continue;
    if (minimal_turns_at(w, t, dist, used, dlid, codes) != FL_OK)
      return FL_ENOMEM;
  }
  return FL_OK;
}

/* ---- modelled engines: up*-down* and ftree ---------------------------------
 *
 * A route is a climb (channels that go up) then a descent (channels that go
 * down). Per destination switch (the root of the walk) two distances are
 * kept: dn[s], the shortest all-down path from s to the root, and up[s], the
 * shortest legal path (climb then descend). A packet is in state 0 (may
 * still climb; distance up[s]) or state 1 (descending; distance dn[s]).
 * The moves that keep a route shortest from a state are the engine's next
 * hops; the turns (in port -> out port) at a switch are those that join a
 * used move into the switch with a move out of it in the same state. Cost
 * per destination switch: O(S + E) plus O(P^2) per switch whose turn
 * pattern was not seen before (as for minhop). */

uint32_t cdg_sw_rank(const cdg *g, uint32_t s) {
  uint32_t t = g->sw[s].tier;
  return t == FL_TIER_UNKNOWN ? 0 : t;
}

/* Direction of the channel s -> t under the modelled engine. Up is toward
 * a higher rank, then (same rank, updn only) toward the smaller GUID, then
 * the smaller index: a strict total order, so climbs cannot cycle. */
static int move_kind(const cdg *g, uint32_t s, uint32_t t) {
  uint32_t a = cdg_sw_rank(g, s), b = cdg_sw_rank(g, t);
  if (a != b)
    return b > a ? MOVE_UP : MOVE_DOWN;
  if (g->o.engine == FL_CDG_ENGINE_FTREE || s == t)
    return MOVE_NONE;
  uint64_t gs = fl_fabric_node_guid(g->f, g->sw[s].node);
  uint64_t gt = fl_fabric_node_guid(g->f, g->sw[t].node);
  if (gs != gt)
    return gt < gs ? MOVE_UP : MOVE_DOWN;
  return t < s ? MOVE_UP : MOVE_DOWN;
}

/* The reverse channel of a move of kind @k. */
static int reverse_kind(int k) {
  return k == MOVE_NONE ? MOVE_NONE : MOVE_UP + MOVE_DOWN - k;
}

void cdg_updn_kinds(const cdg *g, uint8_t *kind) {
  for (uint32_t s = 0; s < g->n_sw; s++) {
    const sw_rec *r = &g->sw[s];
    for (uint32_t p = 0; p < r->P; p++) {
      int32_t t = g->peer_sw[r->base + p];
      kind[r->base + p] =
          (uint8_t)(t >= 0 && p ? move_kind(g, s, (uint32_t)t) : MOVE_NONE);
    }
  }
}

/* Highest first in the up order of move_kind(). */
static int cmp_upward(const void *a, const void *b) {
  const updn_key *x = a, *y = b;
  if (x->rank != y->rank)
    return x->rank > y->rank ? -1 : 1;
  if (x->guid != y->guid)
    return x->guid < y->guid ? -1 : 1;
  return x->idx < y->idx ? -1 : x->idx > y->idx;
}

int cdg_updn_order(const cdg *g, uint32_t *order) {
  updn_key *k = malloc((g->n_sw + 1) * sizeof *k);
  if (!k)
    return FL_ENOMEM;
  for (uint32_t s = 0; s < g->n_sw; s++) {
    k[s].rank = cdg_sw_rank(g, s);
    k[s].idx = s;
    k[s].guid = g->o.engine == FL_CDG_ENGINE_FTREE
                    ? 0
                    : fl_fabric_node_guid(g->f, g->sw[s].node);
  }
  qsort(k, g->n_sw, sizeof *k, cmp_upward);
  for (uint32_t s = 0; s < g->n_sw; s++)
    order[s] = k[s].idx;
  free(k);
  return FL_OK;
}

/* dn[] by BFS from the root over reversed down moves; up[] in one pass
 * over the switches, highest first. */
static void updn_dist(const cdg *g, uint32_t root, updn_work *u) {
  for (uint32_t s = 0; s < g->n_sw; s++)
    u->dn[s] = u->up[s] = DIST_INF;
  uint32_t head = 0, tail = 0;
  u->dn[root] = 0;
  u->queue[tail++] = root;
  while (head < tail) {
    uint32_t s = u->queue[head++];
    const sw_rec *r = &g->sw[s];
    for (uint32_t p = 1; p < r->P; p++) {
      int32_t t = g->peer_sw[r->base + p];
      if (t >= 0 && u->dn[t] == DIST_INF &&
          u->kind[r->base + p] == MOVE_UP) { /* t -> s goes down */
        u->dn[t] = u->dn[s] + 1;
        u->queue[tail++] = (uint32_t)t;
      }
    }
  }
  for (uint32_t k = 0; k < g->n_sw; k++) {
    uint32_t s = u->order[k], best = u->dn[s];
    const sw_rec *r = &g->sw[s];
    for (uint32_t p = 1; p < r->P; p++) {
      int32_t t = g->peer_sw[r->base + p];
      if (t >= 0 && u->kind[r->base + p] == MOVE_UP && u->up[t] != DIST_INF &&
          u->up[t] + 1 < best)
        best = u->up[t] + 1;
    }
    u->up[s] = best;
  }
}

/* Distance of switch s in state st (0 climbing, 1 descending). */
static inline __attribute__((always_inline)) uint32_t
st_dist(const updn_work *u, uint32_t s, uint32_t st) {
  return st ? u->dn[s] : u->up[s];
}

/* The state a shortest move s(st) -> t of kind @k enters, or -1 if it is
 * not one. */
static inline __attribute__((always_inline)) int
next_state(const updn_work *u, uint32_t s, uint32_t st, uint32_t t, int k) {
  uint32_t d = st_dist(u, s, st);
  if (d == DIST_INF || d == 0 || k == MOVE_NONE)
    return -1;
  if (k == MOVE_UP && st == 0 && u->up[t] + 1 == d)
    return 0;
  if (k == MOVE_DOWN && u->dn[t] != DIST_INF && u->dn[t] + 1 == d)
    return 1;
  return -1;
}

/* Mark the states that carry traffic toward the root: the sources (state
 * 0), then every shortest move out of a used state, farthest first
 * (states sorted by distance with a counting sort). */
static void updn_mark(const cdg *g, updn_work *u) {
  memset(u->used, 0, g->n_sw);
  uint32_t maxd = 0, n = 0;
  for (uint32_t s = 0; s < g->n_sw; s++)
    for (uint32_t st = 0; st < 2; st++) {
      uint32_t d = st_dist(u, s, st);
      if (d != DIST_INF && d > maxd)
        maxd = d;
    }
  memset(u->bucket, 0, (size_t)(maxd + 2) * sizeof *u->bucket);
  for (uint32_t s = 0; s < g->n_sw; s++)
    for (uint32_t st = 0; st < 2; st++)
      if (st_dist(u, s, st) != DIST_INF)
        u->bucket[st_dist(u, s, st) + 1]++;
  for (uint32_t d = 1; d <= maxd + 1; d++)
    u->bucket[d] += u->bucket[d - 1];
  for (uint32_t s = 0; s < g->n_sw; s++)
    for (uint32_t st = 0; st < 2; st++)
      if (st_dist(u, s, st) != DIST_INF)
        u->sorted[u->bucket[st_dist(u, s, st)]++] = s * 2 + st, n++;
  for (uint32_t i = 0; i < g->n_src; i++)
    u->used[g->src[i].sw] |= 1;
  for (uint32_t k = n; k-- > 0;) {
    uint32_t s = u->sorted[k] / 2, st = u->sorted[k] % 2;
    if (!(u->used[s] & (1u << st)))
      continue;
    const sw_rec *r = &g->sw[s];
    for (uint32_t p = 1; p < r->P; p++) {
      int32_t t = g->peer_sw[r->base + p];
      int ns =
          t >= 0 ? next_state(u, s, st, (uint32_t)t, u->kind[r->base + p]) : -1;
      if (ns >= 0)
        u->used[t] |= (uint8_t)(1u << ns);
    }
  }
}

/* Per port of switch t: bit 0/1 = a used state-0 or state-1 arrival comes
 * in through it, bit 2/3 = it is a shortest move out of state 0 / 1.
 * Returns 1 when any turn exists. */
int cdg_updn_codes(const cdg *g, const updn_work *u, uint32_t t,
                   uint8_t *codes) {
  const sw_rec *r = &g->sw[t];
  int any = 0;
  for (uint32_t p = 0; p < r->P; p++) {
    codes[p] = 0;
    int32_t a = g->peer_sw[r->base + p];
    if (p == 0 || a < 0)
      continue;
    int k = u->kind[r->base + p];
    if (k == MOVE_NONE)
      continue;
    for (uint32_t st = 0; st < 2; st++) {
      int ns = (u->used[a] & (1u << st))
                   ? next_state(u, (uint32_t)a, st, t, reverse_kind(k))
                   : -1;
      if (ns >= 0)
        codes[p] |= (uint8_t)(1u << ns);
      if ((u->used[t] & (1u << st)) &&
          next_state(u, t, st, (uint32_t)a, k) >= 0)
        codes[p] |= (uint8_t)(4u << st);
    }
    any |= codes[p];
  }
  return any != 0;
}

/* As turn_pattern_is_new(), keyed by the per-port codes. */
static int codes_are_new(worker *w, uint32_t t, const uint8_t *codes,
                         uint32_t P) {
  uint64_t h1 = 0x9e3779b97f4a7c15ull ^ t, h2 = 0xc2b2ae3d27d4eb4full + t;
  for (uint32_t p = 1; p < P; p++) {
    uint64_t x = ((uint64_t)p << 4) | codes[p];
    h1 = fl_fnv64_step(h1, x);
    h1 ^= h1 >> 29;
    h2 = (h2 + x * 0xff51afd7ed558ccdull) * 0xc4ceb9fe1a85ec53ull;
    h2 ^= h2 >> 31;
  }
  uint64_t key = h1 ^ (h2 << 1) ^ ((uint64_t)t << 40);
  uint32_t got = fl_u64map_get(&w->vdep, key);
  if (got != FL_MAP_ABSENT)
    return got == (uint32_t)(h2 >> 33) ? 0 : 1;
  return fl_u64map_put(&w->vdep, key, (uint32_t)(h2 >> 33)) == FL_MAP_ABSENT
             ? -1
             : 1;
}

/* The turns at switch @t toward @root (state @u), unless @t's pattern was
 * seen for an earlier root. */
static int updn_turns_at(worker *w, uint32_t root, uint32_t t,
                         const updn_work *u, uint32_t dlid) {
  const cdg *g = w->g;
  const sw_rec *r = &g->sw[t];
  if (!u->used[t] || t == root || !cdg_updn_codes(g, u, t, u->codes))
    return FL_OK;
  int fresh = codes_are_new(w, t, u->codes, r->P);
  if (fresh <= 0)
    return fresh < 0 ? FL_ENOMEM : FL_OK;
  return add_coded_turns(w, t, u->codes, w->turn_ports, dlid);
}

static uint64_t updn_unrouted(const cdg *g, const updn_work *u) {
  uint64_t n = 0;
  for (uint32_t i = 0; i < g->n_src; i++)
    n += u->up[g->src[i].sw] == DIST_INF;
  return n;
}

int cdg_updn_for_root(worker *w, uint32_t root, uint32_t dlid, updn_work *u) {
  cdg *g = w->g;
  updn_dist(g, root, u);
  updn_mark(g, u);
  w->destinations++;
  w->unrouted_pairs += updn_unrouted(g, u);
  for (uint32_t t = 0; t < g->n_sw; t++)
    if (updn_turns_at(w, root, t, u, dlid) != FL_OK)
      return FL_ENOMEM;
  return FL_OK;
}

void cdg_updn_work_free(updn_work *u) {
  free(u->dn), free(u->up), free(u->queue), free(u->order);
  free(u->bucket), free(u->sorted), free(u->used), free(u->codes);
  free(u->kind);
}
