/* SPDX-License-Identifier: MIT */
/*
 * core/analysis/cdg_walk.c — the LFT walks of the deadlock analysis: one
 * destination at a time (VL-aware) and 64 destinations at once (VL-blind).
 *
 * Walks. For each destination LID d, every traffic source walks the LFTs
 * toward d and stops at the first switch already walked for d (after
 * recording the turn into it): each switch is expanded once per destination,
 * so the cost is O(S x D). A switch seen twice in the same walk is a
 * forwarding loop. In VL-aware mode the stop is keyed on (switch, SL, out
 * VL): the out port is fixed by the LFT, but the VL a packet leaves on
 * depends on the port it came in by (SL2VL is per (in, out)), and the next
 * dependency's source channel is that VL. Beyond the next switch the walk
 * no longer depends on it (the next VL is a function of the next switch's
 * in port, out port and SL only), so keying on the out VL is exact, and each
 * switch is expanded at most once per (SL, out VL) and destination: at most
 * 16 x 16 x S x D in theory, and in practice little more than S x D (only a
 * switch whose in ports map one SL to different VLs, e.g. a torus dateline,
 * is expanded again, and the walk stops one switch later).
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

/* ---- LFT walks
 * ---------------------------------------------------------------- */

uint32_t cdg_entry(const sw_rec *r, uint32_t dlid) {
  if (!r->lft || dlid >= r->lft_len)
    return FL_LFT_NONE;
  return r->lft[dlid];
}

/* The entry of switch @s for @dlid from the worker's block buffer. */
static uint32_t block_entry(const worker *w, uint32_t s, uint32_t dlid) {
  return w->blk[(size_t)s * BLOCK + (dlid - w->blk_lo)];
}

void cdg_load_block(worker *w, uint32_t lo) {
  const cdg *g = w->g;
  w->blk_lo = lo;
  for (uint32_t s = 0; s < g->n_sw; s++) {
    const sw_rec *r = &g->sw[s];
    uint8_t *dst = &w->blk[(size_t)s * BLOCK];
    /* rows are an LFT apart (a page or more): ask for later ones early */
    const sw_rec *ahead = &g->sw[s + 16 < g->n_sw ? s + 16 : s];
    if (ahead->lft && lo < ahead->lft_len)
      __builtin_prefetch(ahead->lft + lo);
    uint32_t n = 0;
    if (r->lft && lo < r->lft_len) {
      n = r->lft_len - lo < BLOCK ? r->lft_len - lo : BLOCK;
      memcpy(dst, r->lft + lo, n);
    }
    memset(dst + n, FL_LFT_NONE, BLOCK - n);
  }
}

/* The common case, decided with one load: (s, out) leads to a switch. */
static inline int hop_to_switch(const cdg *g, const sw_rec *r, uint32_t out) {
  return out - 1u < r->P - 1u && g->peer_sw[r->base + out] >= 0;
}

/* Why (s, out) does not carry traffic toward @d, or 0 when it does. */
uint32_t cdg_bad_hop(const cdg *g, uint32_t s, uint32_t out,
                     const dest_ctx *d) {
  const sw_rec *r = &g->sw[s];
  if (!r->lft)
    return FL_CDG_NO_LFT;
  if (out == FL_LFT_NONE)
    return FL_CDG_NO_ENTRY;
  if (out == 0)
    return FL_CDG_WRONG_NODE; /* "deliver here" at a switch that is not d */
  if (out >= r->P || g->peer_sw[r->base + out] == PEER_NONE)
    return FL_CDG_DEAD_PORT;
  uint32_t slot = r->base + out;
  if (g->peer_sw[slot] == PEER_CA && g->peer_portid[slot] != d->port)
    return FL_CDG_WRONG_NODE;
  return 0;
}

static void note_unrouted(worker *w, uint32_t s, uint32_t out, uint32_t reason,
                          int on_path) {
  unr_acc *u = &w->unr;
  if (u->n == 0 || (on_path && !u->on_path)) {
    u->example_switch = w->g->sw[s].node;
    u->example_port = out;
    u->reason = reason;
  }
  u->n++;
  u->on_path |= on_path;
}

static int record_fwd_loop(worker *w, const dest_ctx *d, uint32_t len,
                           uint32_t at) {
  w->fwd_loop_count++;
  if (w->fwd.n >= w->g->o.max_examples)
    return FL_OK;
  uint32_t start = 0;
  while (start < len && w->path[start] != at)
    start++;
  fl_cdg_fwd_loop fl;
  fl.dlid = d->dlid;
  fl.n_switches = len - start;
  fl.switches = (const fl_id *)(uintptr_t)w->fwd_switches.n; /* offset */
  for (uint32_t i = start; i < len; i++)
    if (cdg_gb_push(&w->fwd_switches, &w->g->sw[w->path[i]].node) != 0)
      return FL_ENOMEM;
  return cdg_gb_push(&w->fwd, &fl) ? FL_ENOMEM : FL_OK;
}

static uint32_t hop_vl(worker *w, const sw_rec *r, uint32_t in, uint32_t out,
                       uint32_t sl) {
  uint32_t v =
      fl_fabric_sl2vl(w->g->f, r->node, in == NO_SLOT ? 0 : in, out, sl);
  if (v == FL_VL_UNKNOWN) {
    w->missing_sl2vl++;
    v = 0;
  }
  return v;
}

/* Marks switch @s as reached for @dlid on @sl; returns the set of out VLs
 * it was expanded on for them (VL-aware mode), reset on first reach. */
static uint16_t *reach(worker *w, uint32_t s, uint32_t dlid, uint32_t sl) {
  uint16_t bit = (uint16_t)(1u << sl);
  if (w->stamp[s] != dlid) {
    w->stamp[s] = dlid;
    w->slmask[s] = 0;
  }
  if (!(w->slmask[s] & bit)) {
    w->slmask[s] |= bit;
    if (w->vlmask)
      w->vlmask[(size_t)s * 16 + sl] = 0;
  }
  return w->vlmask ? &w->vlmask[(size_t)s * 16 + sl] : NULL;
}

/* Whether switch @s was already expanded for @dlid on (@sl, @vout), marking
 * it expanded when not. VL-blind mode keys on the switch alone (the
 * stamp/slmask test of the hot path, nothing more). */
static inline int expanded(worker *w, uint32_t s, uint32_t dlid, uint32_t sl,
                           uint32_t vout) {
  uint16_t bit = (uint16_t)(1u << sl);
  int seen_sl = w->stamp[s] == dlid && (w->slmask[s] & bit);
  if (!seen_sl) {
    if (w->stamp[s] != dlid) {
      w->stamp[s] = dlid;
      w->slmask[s] = 0;
    }
    w->slmask[s] |= bit;
  }
  if (!w->vlmask)
    return seen_sl;
  uint16_t *vls = &w->vlmask[(size_t)s * 16 + sl];
  uint16_t vb = (uint16_t)(1u << (vout & 15));
  if (!seen_sl) {
    *vls = vb;
    return 0;
  }
  if (*vls & vb)
    return 1;
  *vls |= vb;
  return 0;
}

/* One walk from source @x toward destination @d with service level @sl. */
static int walk(worker *w, const src_rec *x, const dest_ctx *d, uint32_t sl,
                int *fwd_seen) {
  const cdg *g = w->g;
  uint32_t s = x->sw, in = x->in_port, vin = 0, len = 0;
  uint16_t bit = (uint16_t)(1u << sl);
  int have_prev = 0;
  w->cur_walk++;
  for (;;) {
    if ((int32_t)s == d->dsw)
      return FL_OK; /* arrived at a destination switch */
    const sw_rec *r = &g->sw[s];
    uint32_t out = block_entry(w, s, d->dlid);
    uint32_t why =
        r->lft && hop_to_switch(g, r, out) ? 0 : cdg_bad_hop(g, s, out, d);
    if (why) {
      /* a switch with no LFT is unknown, not a dead end: the walk stops */
      if (why != FL_CDG_NO_LFT &&
          (w->stamp[s] != d->dlid || !(w->slmask[s] & bit)))
        note_unrouted(w, s, out, why, 1);
      reach(w, s, d->dlid, sl);
      return FL_OK;
    }
    uint32_t vout = g->vl ? hop_vl(w, r, in, out, sl) : 0;
    /* blind mode: the turns are added per block (block_deps) */
    if (have_prev && g->vl &&
        cdg_add_dep(w, s, in, out, vin, vout, d->dlid) != FL_OK)
      return FL_ENOMEM;
    int seen = expanded(w, s, d->dlid, sl, vout);
    if (!seen && w->reached)
      w->reached[s] |= 1ull << (d->dlid - w->blk_lo);
    /* walked in this walk: the LFTs send it round for ever (blind mode: only
     * a switch already expanded can be, so new switches skip the load) */
    if ((seen || g->vl) && w->walkid[s] == w->cur_walk) {
      if (*fwd_seen)
        return FL_OK;
      *fwd_seen = 1;
      return record_fwd_loop(w, d, len, s);
    }
    if (seen)
      return FL_OK; /* joined a part of the tree already walked */
    w->walkid[s] = w->cur_walk;
    w->path[len++] = s;
    uint32_t slot = r->base + out;
    if (g->peer_sw[slot] == PEER_CA)
      return FL_OK; /* delivered */
    in = g->peer_port[slot];
    vin = vout;
    have_prev = 1;
    s = (uint32_t)g->peer_sw[slot];
  }
}

static int flush_unrouted(worker *w, const dest_ctx *d) {
  if (w->unr.n == 0)
    return FL_OK;
  w->unrouted_pairs += w->unr.n;
  if (w->unrouted.n < w->g->o.max_examples) {
    fl_cdg_unrouted u;
    memset(&u, 0, sizeof u);
    u.dlid = d->dlid;
    u.dest_port = d->port;
    u.n_switches = w->unr.n;
    u.example_switch = w->unr.example_switch;
    u.example_port = w->unr.example_port;
    u.reason = w->unr.reason;
    u.on_traffic_path = w->unr.on_path;
    if (cdg_gb_push(&w->unrouted, &u) != 0)
      return FL_ENOMEM;
  }
  return FL_OK;
}

/* Switches no walk reached still need a usable entry for @d (their own
 * management traffic, and failover). */
static void scan_off_path(worker *w, const dest_ctx *d) {
  const cdg *g = w->g;
  for (uint32_t s = 0; s < g->n_sw; s++) {
    if (w->stamp[s] == d->dlid || (int32_t)s == d->dsw || !g->sw[s].lft)
      continue;
    uint32_t out = block_entry(w, s, d->dlid);
    if (hop_to_switch(g, &g->sw[s], out))
      continue;
    uint32_t why = cdg_bad_hop(g, s, out, d);
    if (why)
      note_unrouted(w, s, out, why, 0);
  }
}

int cdg_is_destination(const cdg *g, uint32_t lid, dest_ctx *d) {
  fl_id p = fl_fabric_lid_port(g->f, lid);
  if (p == FL_NONE)
    return 0;
  fl_id n = fl_fabric_port_node(g->f, p);
  uint32_t kind = fl_fabric_node_kind(g->f, n);
  d->dlid = lid;
  d->port = p;
  d->dsw = -1;
  if (kind == FL_NODE_SWITCH) {
    if (g->o.traffic != FL_CDG_TRAFFIC_ALL)
      return 0;
    d->dsw = g->sw_of_node[n];
    return 1;
  }
  if (g->o.traffic != FL_CDG_TRAFFIC_ALL && fl_is_aggregation_node(g->f, n))
    return 0;
  return fl_fabric_port_link_count(g->f, p) > 0;
}

int cdg_walk_destination(worker *w, uint32_t lid) {
  const cdg *g = w->g;
  dest_ctx d;
  if (!cdg_is_destination(g, lid, &d))
    return FL_OK;
  w->destinations++;
  w->bport[lid - w->blk_lo] = d.port;
  w->bdsw[lid - w->blk_lo] = d.dsw;
  memset(&w->unr, 0, sizeof w->unr);
  int fwd_seen = 0;
  for (uint32_t i = 0; i < g->n_src; i++) {
    const src_rec *x = &g->src[i];
    if (x->in_port != NO_SLOT &&
        g->peer_portid[g->sw[x->sw].base + x->in_port] == d.port)
      continue; /* a CA does not send to itself */
    uint32_t sl = 0;
    if (g->vl && fl_fabric_has_path_sl(g->f)) {
      sl = fl_fabric_path_sl(g->f, x->node, lid);
      if (sl == FL_SL_UNKNOWN)
        sl = 0;
    }
    int rc = walk(w, x, &d, sl & 15, &fwd_seen);
    if (rc != FL_OK)
      return rc;
  }
  scan_off_path(w, &d);
  return flush_unrouted(w, &d);
}

/* VL-blind turns of the block just walked, switch by switch: a route to
 * destination d enters switch t from switch s, a switch d's walks expanded
 * (w->reached), and leaves t by t's entry for d when that hop carries the
 * traffic (t is not d's switch, the entry is usable). These are exactly the
 * turns the walks cross (every arrival at t comes from an expanded s), but
 * visiting them switch-major keeps the (t, in) rows of one s and the block
 * buffer rows of s and its neighbours in cache, instead of one random row
 * of the dependency table per step of a walk. The same turn is only made
 * from s (the in port fixes s), and s's destinations are visited in
 * increasing DLID, so the first DLID recorded is the smallest, as the
 * walks in DLID order recorded it. */
void cdg_block_deps(worker *w) {
  const cdg *g = w->g;
  for (uint32_t s = 0; s < g->n_sw; s++) {
    uint64_t m = w->reached[s];
    if (!m)
      continue;
    w->reached[s] = 0;
    const sw_rec *r = &g->sw[s];
    const uint8_t *row = &w->blk[(size_t)s * BLOCK];
    for (; m; m &= m - 1) {
      uint32_t j = (uint32_t)__builtin_ctzll(m), out = row[j];
      if (!hop_to_switch(g, r, out))
        continue;
      uint32_t slot = r->base + out, t = (uint32_t)g->peer_sw[slot];
      if ((int32_t)t == w->bdsw[j])
        continue; /* arrived: no turn at the destination switch */
      const sw_rec *rt = &g->sw[t];
      uint32_t out_t = w->blk[(size_t)t * BLOCK + j];
      if (!(rt->lft && hop_to_switch(g, rt, out_t))) {
        dest_ctx d = {w->blk_lo + j, w->bport[j], w->bdsw[j]};
        if (cdg_bad_hop(g, t, out_t, &d))
          continue; /* the route ends at t: no turn */
      }
      /* a turn not seen by this worker has no DLID yet, so the DLID is
       * stored without reading the table first */
      uint64_t *word = &w->seen[(size_t)slot * g->seen_words + (out_t >> 6)];
      uint64_t bit = 1ull << (out_t & 63);
      if (!(*word & bit)) {
        *word |= bit;
        w->dep[rt->dep_off + (uint64_t)g->peer_port[slot] * rt->P + out_t] =
            w->blk_lo + j;
      }
    }
  }
}

/* ---- VL-blind blocks: the walks of 64 destinations at once ---------------
 *
 * The walks of one destination expand exactly the closure of the traffic
 * sources under "follow the LFT entry", stopping at the destination's
 * switch, at a delivery to a CA and at an unusable entry. block_reach()
 * computes that closure for the block's 64 destinations together, one bit
 * each, in rounds (every source in round 0, the switches first reached in
 * round r in round r + 1): each (switch, destination) pair is visited once
 * and the visits are independent loads, not a chain of dependent ones, so
 * the processor overlaps them. A destination whose routes have something
 * to report on the way (an unusable entry on a route, a forwarding loop)
 * is walked again by walk_destination(), whose order of discovery names
 * the examples, so reports are the same as walking everything. */

/* Whether following the LFTs toward block destination @j from switch @t,
 * already reached, ends (delivery, destination switch, unusable entry)
 * rather than coming back to @t. Switches proven to end are remembered in
 * w->term. A cycle that avoids @t is found from its own last-reached
 * switch (see block_reach), so a walk longer than the switch count stops
 * without a verdict on @t. */
static int block_route_ends(worker *w, uint32_t t, uint32_t j) {
  const cdg *g = w->g;
  uint64_t bit = 1ull << j;
  uint32_t x = t, len = 0;
  while (!(w->term[x] & bit)) {
    if (len > g->n_sw)
      return 1;
    w->path[len++] = x;
    const sw_rec *r = &g->sw[x];
    uint32_t out = w->blk[(size_t)x * BLOCK + j];
    if (!hop_to_switch(g, r, out))
      break;
    uint32_t y = (uint32_t)g->peer_sw[r->base + out];
    if ((int32_t)y == w->bdsw[j])
      break;
    if (y == t)
      return 0;
    x = y;
  }
  for (uint32_t i = 0; i < len; i++)
    w->term[w->path[i]] |= bit;
  return 1;
}

/* Round 0 of the closure: every source switch, for the block destinations
 * it sends to (not its own CA, not when it is the destination's switch). */
static uint32_t block_sources(worker *w, uint64_t valid) {
  const cdg *g = w->g;
  uint32_t n = 0;
  for (uint32_t i = 0; i < g->n_src; i++) {
    uint32_t s = g->src[i].sw;
    if (!w->front[s])
      w->list[n++] = s;
    w->front[s] |= valid;
  }
  for (uint64_t m = valid; m; m &= m - 1) {
    uint32_t j = (uint32_t)__builtin_ctzll(m);
    int32_t i = g->src_of_port[w->bport[j]];
    if (i >= 0 && g->src[i].in_port != NO_SLOT)
      w->front[g->src[i].sw] &= ~(1ull << j);
    if (w->bdsw[j] >= 0)
      w->front[w->bdsw[j]] &= ~(1ull << j);
  }
  for (uint32_t k = 0; k < n; k++)
    w->reached[w->list[k]] = w->front[w->list[k]];
  return n;
}

/* Expand switch @s for the destinations @m of the current round: returns
 * the destinations that need an exact walk. */
static uint64_t block_expand(worker *w, uint32_t s, uint64_t m,
                             uint32_t *n_next) {
  const cdg *g = w->g;
  const sw_rec *r = &g->sw[s];
  const uint8_t *row = &w->blk[(size_t)s * BLOCK];
  uint64_t redo = 0;
  for (; m; m &= m - 1) {
    uint32_t j = (uint32_t)__builtin_ctzll(m), out = row[j];
    uint64_t bit = 1ull << j;
    if (!hop_to_switch(g, r, out)) {
      dest_ctx d = {w->blk_lo + j, w->bport[j], w->bdsw[j]};
      uint32_t why = cdg_bad_hop(g, s, out, &d);
      if (why && why != FL_CDG_NO_LFT)
        redo |= bit; /* unrouted on a route: name it as the walks do */
      continue;
    }
    uint32_t t = (uint32_t)g->peer_sw[r->base + out];
    if ((int32_t)t == w->bdsw[j])
      continue;
    if (w->reached[t] & bit) {
      /* reached in an earlier round: the one edge of a cycle that any
       * forwarding loop has (its last-reached switch leads back) */
      if (!(w->next[t] & bit) && !block_route_ends(w, t, j))
        redo |= bit;
      continue;
    }
    w->reached[t] |= bit;
    if (!w->next[t])
      w->nlist[(*n_next)++] = t;
    w->next[t] |= bit;
  }
  return redo;
}

/* Unusable entries at switches no route to @j crosses (walks' scan_off_path
 * for every block destination in @m at once, in switch order). */
static void block_off_path(worker *w, uint64_t m, unr_acc *acc) {
  const cdg *g = w->g;
  for (uint32_t s = 0; s < g->n_sw; s++) {
    const sw_rec *r = &g->sw[s];
    if (!r->lft)
      continue;
    const uint8_t *row = &w->blk[(size_t)s * BLOCK];
    for (uint64_t x = m & ~w->reached[s]; x; x &= x - 1) {
      uint32_t j = (uint32_t)__builtin_ctzll(x), out = row[j];
      if (hop_to_switch(g, r, out) || w->bdsw[j] == (int32_t)s)
        continue;
      dest_ctx d = {w->blk_lo + j, w->bport[j], w->bdsw[j]};
      uint32_t why = cdg_bad_hop(g, s, out, &d);
      if (why) {
        if (acc[j].n++ == 0) {
          acc[j].example_switch = r->node;
          acc[j].example_port = out;
          acc[j].reason = why;
        }
      }
    }
  }
}

/* The destinations of the block ending at LID @hi, VL-blind: reach sets in
 * w->reached (for block_deps), unrouted and forwarding-loop reports. */
int cdg_block_reach(worker *w, uint32_t hi) {
  const cdg *g = w->g;
  uint64_t valid = 0, redo = 0;
  for (uint32_t lid = w->blk_lo ? w->blk_lo : 1; lid <= hi; lid++) {
    dest_ctx d;
    if (!cdg_is_destination(g, lid, &d))
      continue;
    valid |= 1ull << (lid - w->blk_lo);
    w->bport[lid - w->blk_lo] = d.port;
    w->bdsw[lid - w->blk_lo] = d.dsw;
  }
  memset(w->term, 0, (size_t)g->n_sw * sizeof *w->term);
  uint32_t n = block_sources(w, valid);
  while (n) {
    uint32_t nn = 0;
    for (uint32_t k = 0; k < n; k++) {
      uint32_t s = w->list[k];
      uint64_t m = w->front[s];
      w->front[s] = 0;
      redo |= block_expand(w, s, m, &nn);
    }
    for (uint32_t k = 0; k < nn; k++) {
      w->front[w->nlist[k]] = w->next[w->nlist[k]];
      w->next[w->nlist[k]] = 0;
    }
    uint32_t *t = w->list;
    w->list = w->nlist;
    w->nlist = t;
    n = nn;
  }
  if (redo)
    for (uint32_t s = 0; s < g->n_sw; s++)
      w->reached[s] &= ~redo;
  unr_acc acc[BLOCK];
  memset(acc, 0, sizeof acc);
  block_off_path(w, valid & ~redo, acc);
  for (uint64_t m = valid; m; m &= m - 1) {
    uint32_t j = (uint32_t)__builtin_ctzll(m), lid = w->blk_lo + j;
    int rc = FL_OK;
    if (redo & (1ull << j))
      rc = cdg_walk_destination(w, lid);
    else {
      w->destinations++;
      w->unr = acc[j];
      dest_ctx d = {lid, w->bport[j], w->bdsw[j]};
      rc = flush_unrouted(w, &d);
    }
    if (rc != FL_OK)
      return rc;
  }
  return FL_OK;
}

/* Worker @w takes blocks id, id + n, id + 2n, ... */
