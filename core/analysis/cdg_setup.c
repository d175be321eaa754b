/* SPDX-License-Identifier: MIT */
/*
 * core/analysis/cdg_setup.c — the channel model of the deadlock analysis:
 * switches, port slots, peers, traffic sources and the dependency store
 * (analysis/cdg_impl.h).
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

/* Tell the caller @done of @total @what are walked (fl_cdg_options). */
void cdg_progress(const cdg *g, const char *what, uint64_t done,
                  uint64_t total) {
  if (g->o.progress)
    g->o.progress(g->o.progress_ctx, what, done, total);
}

int cdg_gb_push(growbuf *b, const void *x) {
  if (b->n == b->cap) {
    size_t nc = b->cap ? b->cap * 2 : 16;
    void *v = realloc(b->v, nc * b->elem);
    if (!v)
      return -1;
    b->v = v;
    b->cap = nc;
  }
  memcpy((char *)b->v + b->n * b->elem, x, b->elem);
  b->n++;
  return 0;
}

/* ---- setup
 * ------------------------------------------------------------------- */

static uint32_t port_slots(const fl_fabric *f, fl_id n) {
  uint32_t P = fl_fabric_node_nports(f, n) + 1;
  fl_id first = fl_fabric_node_first_port(f, n);
  uint32_t cnt = fl_fabric_node_port_count(f, n);
  if (cnt && first != FL_NONE) {
    uint32_t top = fl_fabric_port_num(f, first + cnt - 1) + 1;
    if (top > P)
      P = top;
  }
  return P > MAX_PORTS ? MAX_PORTS : P;
}

int cdg_setup_switches(cdg *g) {
  const fl_fabric *f = g->f;
  uint32_t nn = fl_fabric_node_count(f);
  g->sw_of_node = malloc((nn + 1) * sizeof *g->sw_of_node);
  g->sw = calloc(nn + 1, sizeof *g->sw);
  if (!g->sw_of_node || !g->sw)
    return FL_ENOMEM;
  uint32_t slots = 0, max_p = 1;
  uint64_t deps = 0;
  for (fl_id n = 0; n < nn; n++) {
    g->sw_of_node[n] = -1;
    if (fl_fabric_node_kind(f, n) != FL_NODE_SWITCH)
      continue;
    sw_rec *s = &g->sw[g->n_sw];
    s->node = n;
    s->lft = fl_fabric_lft(f, n, &s->lft_len);
    s->tier = fl_fabric_node_tier(f, n);
    s->P = port_slots(f, n);
    s->base = slots;
    s->dep_off = deps;
    s->first_ca = FL_NONE;
    slots += s->P;
    deps += (uint64_t)s->P * s->P;
    if (s->P > max_p)
      max_p = s->P;
    g->sw_of_node[n] = (int32_t)g->n_sw++;
  }
  g->n_slots = slots;
  g->n_dep_entries = deps;
  g->seen_words = (max_p + 63) / 64;
  return FL_OK;
}

int cdg_setup_peers(cdg *g) {
  const fl_fabric *f = g->f;
  size_t ns = g->n_slots ? g->n_slots : 1;
  g->peer_sw = malloc(ns * sizeof *g->peer_sw);
  g->peer_port = calloc(ns, sizeof *g->peer_port);
  g->peer_portid = malloc(ns * sizeof *g->peer_portid);
  if (!g->peer_sw || !g->peer_port || !g->peer_portid)
    return FL_ENOMEM;
  for (size_t i = 0; i < ns; i++) {
    g->peer_sw[i] = PEER_NONE;
    g->peer_portid[i] = FL_NONE;
  }
  for (uint32_t s = 0; s < g->n_sw; s++) {
    sw_rec *r = &g->sw[s];
    fl_id first = fl_fabric_node_first_port(f, r->node);
    uint32_t cnt = fl_fabric_node_port_count(f, r->node);
    for (uint32_t k = 0; first != FL_NONE && k < cnt; k++) {
      fl_id p = first + k;
      uint32_t num = fl_fabric_port_num(f, p);
      fl_id l = fl_fabric_port_link(f, p, 0);
      if (num >= r->P || l == FL_NONE)
        continue;
      fl_id q = fl_fabric_link_other(f, l, p);
      fl_id qn = fl_fabric_port_node(f, q);
      uint32_t slot = r->base + num;
      g->peer_portid[slot] = q;
      g->peer_port[slot] = (uint16_t)fl_fabric_port_num(f, q);
      if (fl_fabric_node_kind(f, qn) == FL_NODE_SWITCH)
        g->peer_sw[slot] = g->sw_of_node[qn];
      else {
        g->peer_sw[slot] = PEER_CA;
        if (r->first_ca == FL_NONE)
          r->first_ca = qn;
      }
    }
  }
  return FL_OK;
}

/* Sources: every CA port cabled to a switch (VL-aware: each port, since SLs
 * may differ per source; blind: one per switch is enough, since routing is
 * destination based). With FL_CDG_TRAFFIC_ALL every switch is a source too. */
int cdg_setup_sources(cdg *g) {
  g->src = malloc(((size_t)g->n_slots + g->n_sw + 1) * sizeof *g->src);
  if (!g->src)
    return FL_ENOMEM;
  if (!g->vl && !g->minimal) {
    size_t np = (size_t)fl_fabric_port_count(g->f) + 1;
    if (!(g->src_of_port = malloc(np * sizeof *g->src_of_port)))
      return FL_ENOMEM;
    memset(g->src_of_port, 0xff, np * sizeof *g->src_of_port);
  }
  for (uint32_t s = 0; s < g->n_sw; s++) {
    const sw_rec *r = &g->sw[s];
    int have = 0;
    for (uint32_t p = 0; p < r->P; p++) {
      uint32_t slot = r->base + p;
      if (g->peer_sw[slot] != PEER_CA)
        continue;
      fl_id ca = fl_fabric_port_node(g->f, g->peer_portid[slot]);
      /* SHARP Aggregation Nodes live inside switches: their traffic is
       * switch traffic (FL_CDG_TRAFFIC_ALL) */
      if (g->o.traffic != FL_CDG_TRAFFIC_ALL &&
          fl_is_aggregation_node(g->f, ca))
        continue;
      if (have && !g->vl)
        break;
      if (g->src_of_port)
        g->src_of_port[g->peer_portid[slot]] = (int32_t)g->n_src;
      src_rec *x = &g->src[g->n_src++];
      x->sw = s;
      x->in_port = p;
      x->node = fl_fabric_port_node(g->f, g->peer_portid[slot]);
      have = 1;
    }
    if (g->o.traffic == FL_CDG_TRAFFIC_ALL && (!have || g->vl)) {
      src_rec *x = &g->src[g->n_src++];
      x->sw = s;
      x->in_port = NO_SLOT;
      x->node = r->node;
    }
  }
  return FL_OK;
}

/* ---- dependencies -----------------------------------------------------------
 */

static uint64_t vkey(uint32_t t, uint32_t in, uint32_t out, uint32_t vin,
                     uint32_t vout) {
  return ((uint64_t)t << 24) | ((uint64_t)(in & 0xff) << 16) |
         ((uint64_t)(out & 0xff) << 8) | ((vin & 0xf) << 4) | (vout & 0xf);
}

int cdg_add_dep(worker *w, uint32_t t, uint32_t in, uint32_t out, uint32_t vin,
                uint32_t vout, uint32_t dlid) {
  const cdg *g = w->g;
  if (g->vl)
    return fl_u64map_put(&w->vdep, vkey(t, in, out, vin, vout), dlid) ==
                   FL_MAP_ABSENT
               ? FL_ENOMEM
               : FL_OK;
  uint64_t i = g->sw[t].dep_off + (uint64_t)in * g->sw[t].P + out;
  if (w->atomic_dep)
    dep_min(&w->dep[i], dlid);
  else if (w->dep[i] == 0)
    w->dep[i] = dlid;
  return FL_OK;
}
