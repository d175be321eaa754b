/* SPDX-License-Identifier: MIT */
/*
 * core/analysis/cdg_cycles.c — cycles in the channel dependency graph: the
 * graph, Tarjan's components, witness loops and the up*-down* certificate.
 *
 * Cycles. Tarjan's strongly connected components over the slot graph
 * (iterative, no recursion: real CDGs have millions of channels). Each
 * component with a cycle yields one loop; a shortest cycle through its
 * smallest channel is found by BFS inside the component.
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

/* ---- the channel graph
 * --------------------------------------------------------- */

typedef struct cgraph {
  uint32_t n;    /* vertices: slot (blind) or slot * 16 + vl (VL-aware) */
  uint32_t *off; /* CSR, n + 1 */
  uint32_t *to;
  uint32_t *dlid; /* per edge */
  uint64_t m;
} cgraph;

int cdg_for_each_dep(const cdg *g, dep_visit fn, void *ctx) {
  if (!g->vl) {
    for (uint32_t t = 0; t < g->n_sw; t++) {
      const sw_rec *r = &g->sw[t];
      for (uint32_t in = 0; in < r->P; in++) {
        int32_t p = g->peer_sw[r->base + in];
        if (p < 0)
          continue;
        uint32_t from = g->sw[p].base + g->peer_port[r->base + in];
        const uint32_t *row = &g->dep[r->dep_off + (uint64_t)in * r->P];
        for (uint32_t out = 0; out < r->P; out++)
          if (row[out] && fn(ctx, from, r->base + out, row[out]) != 0)
            return FL_ENOMEM;
      }
    }
    return FL_OK;
  }
  const fl_u64map *m = &g->vdep;
  for (size_t i = 0; i < m->cap; i++) {
    uint64_t k;
    uint32_t dlid;
    if (!fl_u64map_slot(m, i, &k, &dlid))
      continue;
    uint32_t t = (uint32_t)(k >> 24), in = (k >> 16) & 0xff,
             out = (k >> 8) & 0xff;
    uint32_t vin = (k >> 4) & 0xf, vout = k & 0xf;
    const sw_rec *r = &g->sw[t];
    int32_t p = g->peer_sw[r->base + in];
    if (p < 0)
      continue;
    uint32_t from = (g->sw[p].base + g->peer_port[r->base + in]) * 16 + vin;
    if (fn(ctx, from, (r->base + out) * 16 + vout, dlid) != 0)
      return FL_ENOMEM;
  }
  return FL_OK;
}

static int count_dep(void *ctx, uint32_t from, uint32_t to, uint32_t dlid) {
  (void)to, (void)dlid;
  ((cgraph *)ctx)->off[from + 1]++;
  ((cgraph *)ctx)->m++;
  return 0;
}

typedef struct fill_ctx {
  cgraph *c;
  uint32_t *pos;
} fill_ctx;

static int fill_dep(void *ctx, uint32_t from, uint32_t to, uint32_t dlid) {
  fill_ctx *fc = ctx;
  uint32_t i = fc->pos[from]++;
  fc->c->to[i] = to;
  fc->c->dlid[i] = dlid;
  return 0;
}

static int build_cgraph(const cdg *g, cgraph *c) {
  memset(c, 0, sizeof *c);
  c->n = g->n_slots * (g->vl ? 16u : 1u);
  c->off = calloc((size_t)c->n + 2, sizeof *c->off);
  if (!c->off)
    return FL_ENOMEM;
  cdg_for_each_dep(g, count_dep, c);
  for (uint32_t v = 0; v < c->n; v++)
    c->off[v + 1] += c->off[v];
  c->to = malloc((c->m + 1) * sizeof *c->to);
  c->dlid = malloc((c->m + 1) * sizeof *c->dlid);
  uint32_t *pos = malloc(((size_t)c->n + 1) * sizeof *pos);
  if (!c->to || !c->dlid || !pos) {
    free(pos);
    return FL_ENOMEM;
  }
  memcpy(pos, c->off, (size_t)c->n * sizeof *pos);
  fill_ctx fc = {c, pos};
  cdg_for_each_dep(g, fill_dep, &fc);
  free(pos);
  return FL_OK;
}

static void free_cgraph(cgraph *c) {
  free(c->off);
  free(c->to);
  free(c->dlid);
}

/* Tarjan's SCC, iterative. comp[v] = component id, or UINT32_MAX for
 * vertices without edges. Returns the number of components, or -1. */
static int64_t tarjan(const cgraph *c, uint32_t *comp) {
  uint32_t n = c->n;
  uint32_t *idx = malloc((size_t)(n + 1) * sizeof *idx);
  uint32_t *low = malloc((size_t)(n + 1) * sizeof *low);
  uint32_t *stk = malloc((size_t)(n + 1) * sizeof *stk);
  uint32_t *cs_v = malloc((size_t)(n + 1) * sizeof *cs_v);
  uint32_t *cs_e = malloc((size_t)(n + 1) * sizeof *cs_e);
  uint8_t *on = calloc((size_t)n + 1, 1);
  if (!idx || !low || !stk || !cs_v || !cs_e || !on) {
    free(idx), free(low), free(stk), free(cs_v), free(cs_e), free(on);
    return -1;
  }
  for (uint32_t v = 0; v < n; v++) {
    idx[v] = UINT32_MAX;
    comp[v] = UINT32_MAX;
  }
  uint32_t next = 0, sp = 0, ncomp = 0;
  for (uint32_t root = 0; root < n; root++) {
    if (idx[root] != UINT32_MAX || c->off[root] == c->off[root + 1])
      continue;
    uint32_t cd = 0;
    cs_v[cd] = root;
    cs_e[cd++] = c->off[root];
    idx[root] = low[root] = next++;
    stk[sp++] = root;
    on[root] = 1;
    while (cd) {
      uint32_t v = cs_v[cd - 1];
      if (cs_e[cd - 1] < c->off[v + 1]) {
        uint32_t w = c->to[cs_e[cd - 1]++];
        if (idx[w] == UINT32_MAX) {
          idx[w] = low[w] = next++;
          stk[sp++] = w;
          on[w] = 1;
          cs_v[cd] = w;
          cs_e[cd++] = c->off[w];
        } else if (on[w] && idx[w] < low[v]) {
          low[v] = idx[w];
        }
        continue;
      }
      if (low[v] == idx[v]) {
        uint32_t w;
        do {
          w = stk[--sp];
          on[w] = 0;
          comp[w] = ncomp;
        } while (w != v);
        ncomp++;
      }
      cd--;
      if (cd) {
        uint32_t u = cs_v[cd - 1];
        if (low[v] < low[u])
          low[u] = low[v];
      }
    }
  }
  free(idx), free(low), free(stk), free(cs_v), free(cs_e), free(on);
  return ncomp;
}

/* ---- witnesses
 * ------------------------------------------------------------------ */

static void slot_hop(const cdg *g, uint32_t v, fl_cdg_hop *h) {
  uint32_t slot = g->vl ? v / 16 : v;
  /* find the switch owning the slot: binary search on base */
  uint32_t lo = 0, hi = g->n_sw;
  while (hi - lo > 1) {
    uint32_t mid = (lo + hi) / 2;
    if (g->sw[mid].base <= slot)
      lo = mid;
    else
      hi = mid;
  }
  const sw_rec *r = &g->sw[lo];
  memset(h, 0, sizeof *h);
  h->from_node = r->node;
  h->from_port = slot - r->base;
  int32_t p = g->peer_sw[slot];
  h->to_node = p >= 0 ? g->sw[p].node : FL_NONE;
  h->to_port = g->peer_port[slot];
  h->vl = g->vl ? v % 16 : FL_VL_UNKNOWN;
  h->src = FL_NONE;
}

/* A source whose route to @dlid uses channel @a then channel @b (slots);
 * FL_NONE when none (minimal routing has no single route). */
static fl_id witness_source(cdg *g, uint32_t a, uint32_t b, uint32_t dlid) {
  if (g->minimal)
    return FL_NONE;
  dest_ctx d;
  if (!cdg_is_destination(g, dlid, &d))
    return FL_NONE;
  for (uint32_t i = 0; i < g->n_src; i++) {
    uint32_t s = g->src[i].sw, prev = NO_SLOT;
    for (uint32_t hops = 0; hops <= g->n_sw && (int32_t)s != d.dsw; hops++) {
      uint32_t out = cdg_entry(&g->sw[s], dlid);
      if (cdg_bad_hop(g, s, out, &d))
        break;
      uint32_t slot = g->sw[s].base + out;
      if (prev == a && slot == b)
        return g->src[i].node;
      if (g->peer_sw[slot] < 0)
        break;
      prev = slot;
      s = (uint32_t)g->peer_sw[slot];
    }
  }
  return FL_NONE;
}

static uint32_t edge_dlid(const cgraph *c, uint32_t u, uint32_t v) {
  for (uint32_t e = c->off[u]; e < c->off[u + 1]; e++)
    if (c->to[e] == v)
      return c->dlid[e];
  return 0;
}

/* Shortest cycle through @u inside component @cid (BFS). Appends the hops
 * to g->hops and a loop record. */
static int witness_cycle(cdg *g, const cgraph *c, const uint32_t *comp,
                         uint32_t cid, uint32_t u, uint32_t size,
                         uint32_t *parent, uint32_t *queue) {
  uint32_t head = 0, tail = 0, last = UINT32_MAX;
  parent[u] = u;
  queue[tail++] = u;
  while (head < tail && last == UINT32_MAX) {
    uint32_t v = queue[head++];
    for (uint32_t e = c->off[v]; e < c->off[v + 1]; e++) {
      uint32_t w = c->to[e];
      if (comp[w] != cid)
        continue;
      if (w == u) {
        last = v;
        break;
      }
      if (parent[w] == UINT32_MAX) {
        parent[w] = v;
        queue[tail++] = w;
      }
    }
  }
  /* reset parents for the next component */
  uint32_t nseq = 0;
  for (uint32_t v = last; v != u; v = parent[v])
    nseq++;
  nseq++;
  uint32_t *seq = malloc((size_t)nseq * sizeof *seq);
  if (!seq)
    return FL_ENOMEM;
  uint32_t k = nseq;
  for (uint32_t v = last; v != u; v = parent[v])
    seq[--k] = v;
  seq[0] = u;
  for (uint32_t i = 0; i < tail; i++)
    parent[queue[i]] = UINT32_MAX;
  size_t first = g->hops.n;
  for (uint32_t i = 0; i < nseq; i++) {
    fl_cdg_hop h;
    uint32_t a = seq[i], b = seq[(i + 1) % nseq];
    slot_hop(g, a, &h);
    h.dlid = edge_dlid(c, a, b);
    h.src = witness_source(g, g->vl ? a / 16 : a, g->vl ? b / 16 : b, h.dlid);
    if (cdg_gb_push(&g->hops, &h) != 0) {
      free(seq);
      return FL_ENOMEM;
    }
  }
  free(seq);
  fl_cdg_loop lp;
  lp.n_hops = nseq;
  lp.scc_channels = size;
  lp.hops = (const fl_cdg_hop *)(uintptr_t)first; /* offset, fixed later */
  return cdg_gb_push(&g->loops, &lp) ? FL_ENOMEM : FL_OK;
}

/* ---- the up*-down* certificate ------------------------------------------
 *
 * Rank the switches in a strict total order (updn_order(): tier, then GUID,
 * then index) and call a channel up when it climbs that order. If no
 * dependency turns from a down channel into an up channel, the channel
 * dependency graph is acyclic (the up*-down* argument of Schroeder et al.,
 * Autonet, IEEE JSAC 1991): along a cycle, once a channel goes down every
 * later one does, so the cycle is all up or all down, and the order would
 * rise or fall all the way round. One pass over the dependency table
 * proves it and counts the channels and dependencies find_loops() would
 * count, with no graph built; a fabric that fails the test (a down-up turn,
 * or a cable from a switch to itself) is searched in full. Any VL-blind
 * dependency table: design mode, and the turns of real LFTs (a D-mod-k or
 * ftree routing makes no down-up turn); not with g->exhaustive, which
 * always searches. Returns 1 when proven, 0 when not, FL_ENOMEM as a
 * negative value. */
static int acyclic_by_ranking(cdg *g) {
  uint32_t *order = malloc(((size_t)g->n_sw + 1) * sizeof *order);
  uint32_t *pos = malloc(((size_t)g->n_sw + 1) * sizeof *pos);
  uint64_t *from = calloc((size_t)g->n_slots / 64 + 1, sizeof *from);
  int rc = order && pos && from && cdg_updn_order(g, order) == FL_OK ? 1 : -1;
  for (uint32_t k = 0; rc > 0 && k < g->n_sw; k++)
    pos[order[k]] = g->n_sw - k; /* higher: further up */
  uint64_t deps = 0;
  uint32_t channels = 0;
  for (uint32_t t = 0; rc > 0 && t < g->n_sw; t++) {
    const sw_rec *r = &g->sw[t];
    for (uint32_t in = 0; rc > 0 && in < r->P; in++) {
      int32_t p = g->peer_sw[r->base + in];
      if (p < 0)
        continue;
      const uint32_t *row = &g->dep[r->dep_off + (uint64_t)in * r->P];
      uint32_t n_out = 0;
      for (uint32_t out = 0; out < r->P; out++) {
        if (!row[out])
          continue;
        n_out++;
        int32_t n = g->peer_sw[r->base + out];
        int self = (uint32_t)p == t || (n >= 0 && (uint32_t)n == t);
        int down_up = n >= 0 && pos[p] > pos[t] && pos[n] > pos[t];
        if (self || down_up)
          rc = 0; /* search in full */
      }
      uint32_t f = g->sw[p].base + g->peer_port[r->base + in];
      if (n_out && !(from[f / 64] & (1ull << (f % 64)))) {
        from[f / 64] |= 1ull << (f % 64);
        channels++;
      }
      deps += n_out;
    }
  }
  if (rc > 0) {
    g->rep->dependencies = deps;
    g->rep->channels = channels;
  }
  free(order), free(pos), free(from);
  return rc;
}

int cdg_find_loops(cdg *g) {
  if (!g->vl && !g->exhaustive) {
    int proven = acyclic_by_ranking(g);
    if (proven != 0)
      return proven > 0 ? FL_OK : FL_ENOMEM;
  }
  cgraph c;
  int rc = build_cgraph(g, &c);
  uint32_t *comp =
      rc == FL_OK ? malloc(((size_t)c.n + 1) * sizeof *comp) : NULL;
  if (rc != FL_OK || !comp) {
    free_cgraph(&c);
    free(comp);
    return FL_ENOMEM;
  }
  g->rep->dependencies = c.m;
  int64_t ncomp = tarjan(&c, comp);
  uint32_t *size = ncomp >= 0 ? calloc((size_t)ncomp + 1, sizeof *size) : NULL;
  uint32_t *rep_v =
      ncomp >= 0 ? malloc(((size_t)ncomp + 1) * sizeof *rep_v) : NULL;
  uint32_t *parent = malloc(((size_t)c.n + 1) * sizeof *parent);
  uint32_t *queue = malloc(((size_t)c.n + 1) * sizeof *queue);
  if (ncomp < 0 || !size || !rep_v || !parent || !queue)
    rc = FL_ENOMEM;
  uint32_t channels = 0;
  for (uint32_t v = 0; rc == FL_OK && v < c.n; v++) {
    if (c.off[v] != c.off[v + 1])
      channels++;
    parent[v] = UINT32_MAX;
    if (comp[v] == UINT32_MAX)
      continue;
    if (size[comp[v]]++ == 0)
      rep_v[comp[v]] = v; /* smallest vertex of the component */
  }
  g->rep->channels = channels;
  for (int64_t k = 0; rc == FL_OK && k < ncomp; k++) {
    uint32_t u = rep_v[k];
    int cyclic = size[k] > 1;
    for (uint32_t e = c.off[u]; !cyclic && e < c.off[u + 1]; e++)
      cyclic = c.to[e] == u;
    if (cyclic)
      rc = witness_cycle(g, &c, comp, (uint32_t)k, u, size[k], parent, queue);
  }
  free(size), free(rep_v), free(parent), free(queue), free(comp);
  free_cgraph(&c);
  return rc;
}
