/*
 * core/cdg.c — channel dependency graph analysis (see fabriclint/cdg.h).
 *
 * Layout. Switches get dense indexes 0..S-1. Every switch owns P "slots",
 * one per port number 0..P-1, numbered base + port; a slot is the channel
 * leaving the switch through that port. Per slot we keep the peer: another
 * switch (its index and the port it arrives on), a CA/router port, or
 * nothing. Dependencies are turns (in port -> out port) at a switch; in
 * VL-blind mode they live in a dense per-switch P x P table holding the first
 * DLID that created them (0 = none), which both de-duplicates and keeps a
 * witness. In VL-aware mode they live in a hash keyed by (switch, in, out,
 * VL in, VL out).
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

#include "analysis/cdg_ref.h"
#include "analysis/twins.h"
#include "analysis/updown.h"
#include "fabriclint/cdg.h"
#include "fabriclint/routing.h"
#include "model/derive.h"
#include "model/hashmap.h"

#define PEER_NONE (-1)
#define PEER_CA   (-2)
#define NO_SLOT   UINT32_MAX
#define MAX_PORTS 256u

typedef struct sw_rec {
  fl_id node;
  const uint8_t *lft;
  uint32_t lft_len;
  uint32_t tier;
  uint32_t P;       /* port slots 0..P-1 */
  uint32_t base;    /* first slot */
  uint64_t dep_off; /* first entry of the P x P dependency table */
  fl_id first_ca;   /* a CA attached here (for witnesses), or FL_NONE */
} sw_rec;

typedef struct src_rec {
  uint32_t sw;      /* switch index */
  uint32_t in_port; /* port of the switch facing the source, or NO_SLOT */
  fl_id node;       /* source node (CA, or the switch itself) */
} src_rec;

typedef struct unr_acc {
  uint32_t n;
  fl_id example_switch;
  uint32_t example_port;
  uint32_t reason;
  uint32_t on_path;
} unr_acc;

typedef struct growbuf {
  void *v;
  size_t n, cap, elem;
} growbuf;

typedef struct cdg {
  const fl_fabric *f;
  fl_cdg_options o;
  int vl;         /* VL-aware */
  int minimal;    /* reference routing */
  int exhaustive; /* design mode: walk every root (no twins) */
  int closed;     /* design mode: counted in closed form (updown.h) */
  uint32_t n_sw;
  sw_rec *sw;
  int32_t *sw_of_node;
  uint32_t n_slots;
  int32_t *peer_sw;
  uint16_t *peer_port;
  fl_id *peer_portid;
  uint32_t *dep; /* blind: dependency table (merged) */
  uint64_t n_dep_entries;
  uint32_t seen_words; /* blind: words of a worker's seen bits per slot */
  fl_u64map vdep;      /* VL-aware: key -> dlid (merged) */
  src_rec *src;
  uint32_t n_src;
  int32_t *src_of_port; /* blind: source index of a CA port, or -1 */
  /* outputs being built */
  growbuf loops, fwd, unrouted, valleys, fwd_switches, hops;
  fl_cdg_report *rep;
  atomic_uint_fast64_t lids_done; /* LFT walks: destinations walked */
  const fl_dist *dist;            /* split the blind LFT walks (NULL: not) */
  uint32_t part, parts; /* this process's share: blocks b, b % parts == part */
} cdg;

/* Tell the caller @done of @total @what are walked (fl_cdg_options). */
static void progress(const cdg *g, const char *what, uint64_t done,
                     uint64_t total) {
  if (g->o.progress)
    g->o.progress(g->o.progress_ctx, what, done, total);
}

/* Destinations are processed in blocks of BLOCK consecutive LIDs: the LFT
 * entries of a block are first copied, switch by switch, into a small
 * contiguous buffer (S x BLOCK bytes), so the walks read cache-resident
 * memory instead of touching one page per switch per destination (5,120
 * rows of 49 KB thrash the TLB otherwise). */
#define BLOCK 64u

/* Per-thread state of the LFT walks. Workers own their dependency tables;
 * they are merged (smallest DLID per dependency, as a single thread would
 * keep) after the walks, so results do not depend on the thread count. */
typedef struct worker {
  cdg *g;
  uint32_t id, n_workers;
  uint32_t *dep;
  /* blind: the turns this worker stored, keyed by the slot they are entered
   * from: (s, out) leads into (t, in), so word slot(s, out) * seen_words +
   * out_t / 64, bit out_t % 64 is the turn (t, in, out_t). Keyed by the
   * upstream slot, the words block_deps() tests for switch s are the
   * contiguous P(s) x seen_words words of s's slots, read in switch order,
   * instead of one random word of a table larger than the cache per turn. */
  uint64_t *seen;
  fl_u64map vdep;
  uint32_t *stamp, *walkid;
  uint16_t *slmask; /* SLs that reached the switch for stamp's destination */
  uint16_t *vlmask; /* VL-aware: [s * 16 + sl] out VLs expanded for it */
  uint32_t *path;
  uint16_t *turn_ports; /* design mode: 4 x MAX_PORTS ports (add_coded_turns) */
  uint32_t cur_walk;
  unr_acc unr;
  uint8_t *blk;      /* n_sw x BLOCK entries of the current block */
  uint32_t blk_lo;   /* first LID of the block */
  uint64_t *reached; /* blind: per switch, block destinations expanded */
  uint64_t *front, *next, *term; /* blind: block closure (block_reach) */
  uint32_t *list, *nlist;        /* switches of front / next */
  fl_id bport[BLOCK];            /* blind: per block destination, its port */
  int32_t bdsw[BLOCK]; /* ... and its switch index (switch LIDs) or -1 */
  growbuf fwd, unrouted, fwd_switches;
  uint64_t fwd_loop_count, unrouted_pairs, missing_sl2vl;
  uint32_t destinations;
  int atomic_dep; /* design mode, several workers: one table, atomic min */
  int rc;
} worker;

static int gb_push(growbuf *b, const void *x) {
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

static double now_seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
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

static int setup_switches(cdg *g) {
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

static int setup_peers(cdg *g) {
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
static int setup_sources(cdg *g) {
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

/* Lower *@cell to @v (0 = empty) atomically: design-mode workers share one
 * table (design_run). */
static inline void dep_min(uint32_t *cell, uint32_t v) {
  uint32_t cur = __atomic_load_n(cell, __ATOMIC_RELAXED);
  while ((cur == 0 || cur > v) &&
         !__atomic_compare_exchange_n(cell, &cur, v, 1, __ATOMIC_RELAXED,
                                      __ATOMIC_RELAXED))
    ;
}

static int add_dep(worker *w, uint32_t t, uint32_t in, uint32_t out,
                   uint32_t vin, uint32_t vout, uint32_t dlid) {
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

/* ---- LFT walks
 * ---------------------------------------------------------------- */

typedef struct dest_ctx {
  uint32_t dlid;
  fl_id port;  /* the destination port */
  int32_t dsw; /* destination switch index (switch LIDs), or -1 */
} dest_ctx;

static uint32_t entry(const sw_rec *r, uint32_t dlid) {
  if (!r->lft || dlid >= r->lft_len)
    return FL_LFT_NONE;
  return r->lft[dlid];
}

/* The entry of switch @s for @dlid from the worker's block buffer. */
static uint32_t block_entry(const worker *w, uint32_t s, uint32_t dlid) {
  return w->blk[(size_t)s * BLOCK + (dlid - w->blk_lo)];
}

static void load_block(worker *w, uint32_t lo) {
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
static uint32_t bad_hop(const cdg *g, uint32_t s, uint32_t out,
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
    if (gb_push(&w->fwd_switches, &w->g->sw[w->path[i]].node) != 0)
      return FL_ENOMEM;
  return gb_push(&w->fwd, &fl) ? FL_ENOMEM : FL_OK;
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
        r->lft && hop_to_switch(g, r, out) ? 0 : bad_hop(g, s, out, d);
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
        add_dep(w, s, in, out, vin, vout, d->dlid) != FL_OK)
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
    if (gb_push(&w->unrouted, &u) != 0)
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
    uint32_t why = bad_hop(g, s, out, d);
    if (why)
      note_unrouted(w, s, out, why, 0);
  }
}

static int is_destination(const cdg *g, uint32_t lid, dest_ctx *d) {
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

static int walk_destination(worker *w, uint32_t lid) {
  const cdg *g = w->g;
  dest_ctx d;
  if (!is_destination(g, lid, &d))
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
static void block_deps(worker *w) {
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
        if (bad_hop(g, t, out_t, &d))
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
      uint32_t why = bad_hop(g, s, out, &d);
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
      uint32_t why = bad_hop(g, s, out, &d);
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
static int block_reach(worker *w, uint32_t hi) {
  const cdg *g = w->g;
  uint64_t valid = 0, redo = 0;
  for (uint32_t lid = w->blk_lo ? w->blk_lo : 1; lid <= hi; lid++) {
    dest_ctx d;
    if (!is_destination(g, lid, &d))
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
      rc = walk_destination(w, lid);
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
static void *worker_main(void *arg) {
  worker *w = arg;
  uint32_t max = fl_fabric_max_lid(w->g->f);
  uint32_t parts = w->g->parts;
  for (uint64_t b = w->g->part + (uint64_t)parts * w->id;
       w->rc == FL_OK && b * BLOCK <= max;
       b += (uint64_t)parts * w->n_workers) {
    uint32_t lo = (uint32_t)b * BLOCK, hi = lo + BLOCK - 1;
    if (hi > max)
      hi = max;
    load_block(w, lo);
    if (w->reached)
      w->rc = block_reach(w, hi);
    else
      for (uint32_t lid = lo ? lo : 1; w->rc == FL_OK && lid <= hi; lid++)
        w->rc = walk_destination(w, lid);
    if (w->rc == FL_OK && w->reached)
      block_deps(w);
    /* all workers count; the calling thread (worker 0) reports */
    uint64_t done =
        atomic_fetch_add(&w->g->lids_done, hi - lo + 1) + (hi - lo + 1);
    if (w->id == 0)
      progress(w->g, "destinations", done, (uint64_t)max + 1);
  }
  return NULL;
}

static int worker_init(worker *w, cdg *g, uint32_t id, uint32_t n) {
  memset(w, 0, sizeof *w);
  w->g = g;
  w->id = id;
  w->n_workers = n;
  w->fwd.elem = sizeof(fl_cdg_fwd_loop);
  w->unrouted.elem = sizeof(fl_cdg_unrouted);
  w->fwd_switches.elem = sizeof(fl_id);
  if (!g->vl) {
    w->dep = calloc(g->n_dep_entries + 1, sizeof *w->dep);
    w->seen = calloc((size_t)g->n_slots * g->seen_words + 1, sizeof *w->seen);
    size_t ns = (size_t)g->n_sw + 1;
    w->reached = calloc(ns, sizeof *w->reached);
    w->front = calloc(ns, sizeof *w->front);
    w->next = calloc(ns, sizeof *w->next);
    w->term = calloc(ns, sizeof *w->term);
    w->list = malloc(ns * sizeof *w->list);
    w->nlist = malloc(ns * sizeof *w->nlist);
    if (!w->dep || !w->seen || !w->reached || !w->front || !w->next ||
        !w->term || !w->list || !w->nlist)
      return FL_ENOMEM;
  }
  w->stamp = calloc(g->n_sw + 1, sizeof *w->stamp);
  w->walkid = calloc(g->n_sw + 1, sizeof *w->walkid);
  w->slmask = calloc(g->n_sw + 1, sizeof *w->slmask);
  if (g->vl &&
      !(w->vlmask = calloc(((size_t)g->n_sw + 1) * 16, sizeof *w->vlmask)))
    return FL_ENOMEM;
  w->path = malloc((g->n_sw + 2) * sizeof *w->path);
  w->blk = malloc(((size_t)g->n_sw + 1) * BLOCK);
  if (!w->stamp || !w->walkid || !w->slmask || !w->path || !w->blk)
    return FL_ENOMEM;
  return FL_OK;
}

static void worker_free(worker *w) {
  free(w->dep);
  free(w->seen);
  free(w->reached);
  free(w->front), free(w->next), free(w->term);
  free(w->list), free(w->nlist);
  fl_u64map_free(&w->vdep);
  free(w->stamp);
  free(w->walkid);
  free(w->slmask);
  free(w->vlmask);
  free(w->path);
  free(w->blk);
  free(w->fwd.v);
  free(w->unrouted.v);
  free(w->fwd_switches.v);
}

/* Lower g->dep to worker @w's DLIDs of the turns it stored from slots
 * [@lo, @hi) (its seen bits, keyed by the slot each turn is entered from:
 * worker.seen). A slot fixes the (switch, in port) row of its turns, so
 * disjoint slot ranges write disjoint parts of g->dep. */
static void merge_seen_deps(const cdg *g, const worker *w, uint32_t lo,
                            uint32_t hi) {
  for (uint32_t slot = lo; slot < hi; slot++) {
    if (g->peer_sw[slot] < 0)
      continue;
    const sw_rec *rt = &g->sw[g->peer_sw[slot]];
    uint64_t row = rt->dep_off + (uint64_t)g->peer_port[slot] * rt->P;
    const uint64_t *word = &w->seen[(size_t)slot * g->seen_words];
    for (uint32_t k = 0; k < g->seen_words; k++)
      for (uint64_t bits = word[k]; bits; bits &= bits - 1) {
        uint64_t i = row + k * 64u + (uint64_t)__builtin_ctzll(bits);
        uint32_t v = w->dep[i];
        if (v && (!g->dep[i] || v < g->dep[i]))
          g->dep[i] = v;
      }
  }
}

/* One thread's share of merge_deps(): slots [lo, hi) of workers 1.. */
typedef struct merge_part {
  const cdg *g;
  const worker *ws;
  uint32_t n, lo, hi;
  int rc;
} merge_part;

static void *merge_part_main(void *arg) {
  const merge_part *m = arg;
  for (uint32_t k = 1; k < m->n; k++)
    merge_seen_deps(m->g, &m->ws[k], m->lo, m->hi);
  return NULL;
}

static int run_on_threads(void *items, size_t size, size_t rc_off, uint32_t n,
                          void *(*fn)(void *));

/* Smallest non-zero DLID per dependency: what one thread would keep. The
 * VL-blind tables are merged into worker 0's on @n threads, each over its
 * own range of slots. */
static int merge_deps(cdg *g, worker *ws, uint32_t n) {
  if (!g->vl) {
    g->dep = ws[0].dep;
    ws[0].dep = NULL;
    if (n < 2)
      return FL_OK;
    merge_part part[64];
    for (uint32_t k = 0; k < n; k++)
      part[k] = (merge_part){g,
                             ws,
                             n,
                             (uint32_t)((uint64_t)g->n_slots * k / n),
                             (uint32_t)((uint64_t)g->n_slots * (k + 1) / n),
                             FL_OK};
    int rc = run_on_threads(part, sizeof *part, offsetof(merge_part, rc), n,
                            merge_part_main);
    for (uint32_t k = 0; rc == FL_OK && k < n; k++)
      rc = part[k].rc;
    return rc;
  }
  for (uint32_t k = 0; k < n; k++) {
    const fl_u64map *m = &ws[k].vdep;
    for (size_t i = 0; i < m->cap; i++) {
      if (m->vals[i] == FL_MAP_ABSENT)
        continue;
      uint32_t cur = fl_u64map_get(&g->vdep, m->keys[i]);
      if ((cur == FL_MAP_ABSENT || m->vals[i] < cur) &&
          fl_u64map_set(&g->vdep, m->keys[i], m->vals[i]) != 0)
        return FL_ENOMEM;
    }
  }
  return FL_OK;
}

static int cmp_unrouted(const void *a, const void *b) {
  const fl_cdg_unrouted *x = a, *y = b;
  return x->dlid < y->dlid ? -1 : x->dlid > y->dlid;
}

/* Concatenate the workers' examples in DLID order, keep the first
 * max_examples (each worker's list is in DLID order, so the union holds the
 * global first max_examples). */
static int merge_examples(cdg *g, worker *ws, uint32_t n) {
  for (uint32_t k = 0; k < n; k++) {
    g->rep->fwd_loop_count += ws[k].fwd_loop_count;
    g->rep->unrouted_pairs += ws[k].unrouted_pairs;
    g->rep->missing_sl2vl += ws[k].missing_sl2vl;
    g->rep->destinations += ws[k].destinations;
    const fl_cdg_unrouted *u = ws[k].unrouted.v;
    for (size_t i = 0; i < ws[k].unrouted.n; i++)
      if (gb_push(&g->unrouted, &u[i]) != 0)
        return FL_ENOMEM;
    const fl_cdg_fwd_loop *fl = ws[k].fwd.v;
    const fl_id *sw = ws[k].fwd_switches.v;
    for (size_t i = 0; i < ws[k].fwd.n; i++) {
      fl_cdg_fwd_loop c = fl[i];
      c.switches = (const fl_id *)(uintptr_t)g->fwd_switches.n;
      for (uint32_t j = 0; j < fl[i].n_switches; j++)
        if (gb_push(&g->fwd_switches, &sw[(uintptr_t)fl[i].switches + j]) != 0)
          return FL_ENOMEM;
      if (gb_push(&g->fwd, &c) != 0)
        return FL_ENOMEM;
    }
  }
  if (g->unrouted.n > 1)
    if (g->unrouted.n > 1)
      qsort(g->unrouted.v, g->unrouted.n, g->unrouted.elem, cmp_unrouted);
  if (g->unrouted.n > g->o.max_examples)
    g->unrouted.n = g->o.max_examples;
  /* forwarding loops: sort by DLID, keeping switch offsets with them */
  fl_cdg_fwd_loop *f = g->fwd.v;
  for (size_t i = 1; i < g->fwd.n; i++)
    for (size_t j = i; j > 0 && f[j - 1].dlid > f[j].dlid; j--) {
      fl_cdg_fwd_loop t = f[j];
      f[j] = f[j - 1];
      f[j - 1] = t;
    }
  if (g->fwd.n > g->o.max_examples)
    g->fwd.n = g->o.max_examples;
  return FL_OK;
}

/* ---- distributed runs (fl_cdg_options.dist) -------------------------------
 *
 * Each process walked its share of the destination blocks. The merged
 * result must be what one process walking every block computes: each turn's
 * witness is the smallest DLID over all processes (0 = none, so it is sent
 * as UINT32_MAX); counts add up; the examples are gathered and, as
 * merge_examples() does for threads, sorted by DLID and cut at
 * max_examples (a process keeps its own first max_examples, so the union
 * holds the global first ones). */

static int dist_deps(cdg *g) {
  for (uint64_t i = 0; i < g->n_dep_entries; i++)
    g->dep[i] = g->dep[i] ? g->dep[i] : UINT32_MAX;
  if (g->dist->allreduce_min_u32(g->dist->ctx, g->dep, g->n_dep_entries))
    return FL_EIO;
  for (uint64_t i = 0; i < g->n_dep_entries; i++)
    g->dep[i] = g->dep[i] == UINT32_MAX ? 0 : g->dep[i];
  return FL_OK;
}

static int dist_counts(cdg *g) {
  fl_cdg_report *r = g->rep;
  uint64_t c[4] = {r->fwd_loop_count, r->unrouted_pairs, r->missing_sl2vl,
                   r->destinations};
  if (g->dist->allreduce_sum_u64(g->dist->ctx, c, 4))
    return FL_EIO;
  r->fwd_loop_count = c[0];
  r->unrouted_pairs = c[1];
  r->missing_sl2vl = c[2];
  r->destinations = (uint32_t)c[3];
  return FL_OK;
}

static int dist_unrouted(cdg *g) {
  void *all = NULL;
  size_t n = 0;
  if (g->dist->allgather(g->dist->ctx, g->unrouted.v,
                         g->unrouted.n * sizeof(fl_cdg_unrouted), &all, &n))
    return FL_EIO;
  free(g->unrouted.v);
  g->unrouted.v = all;
  g->unrouted.n = g->unrouted.cap = n / sizeof(fl_cdg_unrouted);
  if (g->unrouted.n > 1)
    qsort(g->unrouted.v, g->unrouted.n, g->unrouted.elem, cmp_unrouted);
  if (g->unrouted.n > g->o.max_examples)
    g->unrouted.n = g->o.max_examples;
  return FL_OK;
}

/* Forwarding loops travel as (dlid, n, switches...) words. */
static int dist_fwd(cdg *g) {
  const fl_cdg_fwd_loop *f = g->fwd.v;
  const fl_id *sw = g->fwd_switches.v;
  size_t words = 0;
  for (size_t i = 0; i < g->fwd.n; i++)
    words += 2 + f[i].n_switches;
  uint32_t *mine = malloc((words + 1) * sizeof *mine);
  if (!mine)
    return FL_ENOMEM;
  size_t k = 0;
  for (size_t i = 0; i < g->fwd.n; i++) {
    mine[k++] = f[i].dlid;
    mine[k++] = f[i].n_switches;
    for (uint32_t j = 0; j < f[i].n_switches; j++)
      mine[k++] = sw[(uintptr_t)f[i].switches + j];
  }
  void *all = NULL;
  size_t n = 0;
  int rc = g->dist->allgather(g->dist->ctx, mine, k * sizeof *mine, &all, &n)
               ? FL_EIO
               : FL_OK;
  free(mine);
  g->fwd.n = g->fwd_switches.n = 0;
  const uint32_t *a = all;
  for (size_t i = 0; rc == FL_OK && i + 2 <= n / sizeof *a;) {
    fl_cdg_fwd_loop c = {a[i], a[i + 1],
                         (const fl_id *)(uintptr_t)g->fwd_switches.n};
    for (uint32_t j = 0; rc == FL_OK && j < c.n_switches; j++)
      rc = gb_push(&g->fwd_switches, &a[i + 2 + j]) ? FL_ENOMEM : FL_OK;
    if (rc == FL_OK)
      rc = gb_push(&g->fwd, &c) ? FL_ENOMEM : FL_OK;
    i += 2 + c.n_switches;
  }
  free(all);
  fl_cdg_fwd_loop *x = g->fwd.v; /* by DLID (stable: one per DLID) */
  for (size_t i = 1; rc == FL_OK && i < g->fwd.n; i++)
    for (size_t j = i; j > 0 && x[j - 1].dlid > x[j].dlid; j--) {
      fl_cdg_fwd_loop t = x[j];
      x[j] = x[j - 1];
      x[j - 1] = t;
    }
  if (g->fwd.n > g->o.max_examples)
    g->fwd.n = g->o.max_examples;
  return rc;
}

static int dist_merge(cdg *g) {
  int rc = dist_deps(g);
  if (rc == FL_OK)
    rc = dist_counts(g);
  if (rc == FL_OK)
    rc = dist_unrouted(g);
  if (rc == FL_OK)
    rc = dist_fwd(g);
  return rc;
}

static uint32_t thread_count(const cdg *g) {
  uint32_t t = g->o.threads;
  if (t == 0) {
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    t = n > 0 ? (uint32_t)n : 1;
  }
  if (t > 64)
    t = 64;
  uint32_t blocks = fl_fabric_max_lid(g->f) / BLOCK + 1;
  if (t > blocks)
    t = blocks;
  /* each worker holds a dependency table: keep them under ~1 GB together */
  if (!g->vl && g->n_dep_entries * 4 * t > (1ull << 30))
    t = (uint32_t)((1ull << 30) / (g->n_dep_entries * 4 + 1));
  return t ? t : 1;
}

/* Runs @fn on each of the @n items of @size bytes at @items: item 0 on the
 * calling thread, the others on threads of their own, and returns when all
 * are done. An item whose thread cannot start gets FL_ENOMEM in the int at
 * @rc_off of it (the items after it do not run). FL_ENOMEM when nothing
 * could run. */
static int run_on_threads(void *items, size_t size, size_t rc_off, uint32_t n,
                          void *(*fn)(void *)) {
  char *item = items;
  pthread_t *th = calloc(n, sizeof *th);
  if (!th)
    return FL_ENOMEM;
  uint32_t started = 0;
  for (uint32_t k = 1; k < n; k++, started++)
    if (pthread_create(&th[k], NULL, fn, item + k * size) != 0) {
      *(int *)(item + k * size + rc_off) = FL_ENOMEM;
      break;
    }
  fn(item);
  for (uint32_t k = 1; k <= started; k++)
    pthread_join(th[k], NULL);
  free(th);
  return FL_OK;
}

static int run_lft_walks(cdg *g) {
  uint32_t n = thread_count(g);
  worker *ws = calloc(n, sizeof *ws);
  int rc = ws ? FL_OK : FL_ENOMEM;
  for (uint32_t k = 0; rc == FL_OK && k < n; k++)
    rc = worker_init(&ws[k], g, k, n);
  if (rc == FL_OK)
    rc = run_on_threads(ws, sizeof *ws, offsetof(worker, rc), n, worker_main);
  uint64_t all = (uint64_t)fl_fabric_max_lid(g->f) + 1;
  progress(g, "destinations", all, all);
  for (uint32_t k = 0; rc == FL_OK && k < n; k++)
    rc = ws[k].rc;
  if (rc == FL_OK)
    rc = merge_deps(g, ws, n);
  if (rc == FL_OK)
    rc = merge_examples(g, ws, n);
  if (rc == FL_OK && g->parts > 1)
    rc = dist_merge(g);
  for (uint32_t k = 0; ws && k < n; k++)
    worker_free(&ws[k]);
  free(ws);
  return rc;
}

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
    h1 = (h1 ^ x) * 0x100000001b3ull;
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
static void minimal_codes(const cdg *g, uint32_t t, const uint32_t *dist,
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
  minimal_codes(w->g, t, dist, used, codes);
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

static uint32_t root_dlid(const cdg *g, uint32_t root) {
  uint32_t dlid = first_lid_at(g, root);
  return dlid ? dlid : 1;
}

static int minimal_for_root(worker *w, uint32_t root, uint32_t dlid,
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

#define MOVE_NONE 0
#define MOVE_UP   1
#define MOVE_DOWN 2
#define DIST_INF  UINT32_MAX

typedef struct updn_key {
  uint32_t rank;
  uint32_t idx;
  uint64_t guid;
} updn_key;

typedef struct updn_work {
  uint32_t *dn, *up, *queue, *order, *bucket, *sorted;
  uint8_t *kind;  /* per slot: MOVE_* of the channel it leaves through */
  uint8_t *used;  /* bit 0: state 0 used, bit 1: state 1 used */
  uint8_t *codes; /* per port of the switch being enumerated */
} updn_work;

static uint32_t sw_rank(const cdg *g, uint32_t s) {
  uint32_t t = g->sw[s].tier;
  return t == FL_TIER_UNKNOWN ? 0 : t;
}

/* Direction of the channel s -> t under the modelled engine. Up is toward
 * a higher rank, then (same rank, updn only) toward the smaller GUID, then
 * the smaller index: a strict total order, so climbs cannot cycle. */
static int move_kind(const cdg *g, uint32_t s, uint32_t t) {
  uint32_t a = sw_rank(g, s), b = sw_rank(g, t);
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

static void updn_kinds(const cdg *g, uint8_t *kind) {
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

static int updn_order(const cdg *g, uint32_t *order) {
  updn_key *k = malloc((g->n_sw + 1) * sizeof *k);
  if (!k)
    return FL_ENOMEM;
  for (uint32_t s = 0; s < g->n_sw; s++) {
    k[s].rank = sw_rank(g, s);
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
static int updn_codes(const cdg *g, const updn_work *u, uint32_t t,
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
    h1 = (h1 ^ x) * 0x100000001b3ull;
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
  if (!u->used[t] || t == root || !updn_codes(g, u, t, u->codes))
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

static int updn_for_root(worker *w, uint32_t root, uint32_t dlid,
                         updn_work *u) {
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

static void updn_work_free(updn_work *u) {
  free(u->dn), free(u->up), free(u->queue), free(u->order);
  free(u->bucket), free(u->sorted), free(u->used), free(u->codes);
  free(u->kind);
}

/* ---- twin roots (analysis/twins.h) -----------------------------------------
 *
 * A root switch whose twin (the smallest member of its class) was walked
 * already is not walked again: the twin's distances and used marks, with
 * the two switches' entries exchanged, are this root's (the exchange is an
 * automorphism of the switch graph). The turns can then differ from the
 * twin's only at switches whose neighbours' entries changed: the twin
 * itself and the root's neighbours; everywhere else the turn pattern is
 * the one the twin's walk hashed, so it is skipped as seen, exactly as the
 * full walk would skip it. Witness DLIDs, counts and the order roots are
 * taken in are unchanged. Cost per twin O(P^2) instead of O(S + E). */

/* Memory for stored walks: at most this many bytes (9 per switch). */
#define TWIN_STORE_BYTES (256u << 20)

typedef struct twin_walks {
  fl_twins tw;
  uint32_t *a, *b;    /* [n_store x n_sw]: dist (minhop) or dn, up (updn) */
  uint8_t *used;      /* [n_store x n_sw] */
  uint64_t *unrouted; /* [n_store] */
} twin_walks;

static void twin_walks_free(twin_walks *t) {
  fl_twins_free(&t->tw);
  free(t->a), free(t->b), free(t->used), free(t->unrouted);
  memset(t, 0, sizeof *t);
}

/* Switch s's routing channels as slots lo[s]..hi[s]-1 (port 0 routes
 * nothing), the form twins.h and updown.h take. */
static void slot_ranges(const cdg *g, uint32_t *lo, uint32_t *hi) {
  for (uint32_t s = 0; s < g->n_sw; s++) {
    lo[s] = g->sw[s].base + 1;
    hi[s] = g->sw[s].base + (g->sw[s].P ? g->sw[s].P : 1);
  }
}

/* Find the twins among the roots; with @two arrays per walk (updn) and
 * ranks compared (a neighbour of the same rank breaks the symmetry of the
 * up/down order). An empty @t (no stored class) when g->exhaustive. */
static int twin_walks_init(cdg *g, const uint8_t *is_root, int two,
                           twin_walks *t) {
  memset(t, 0, sizeof *t);
  size_t n = (size_t)g->n_sw + 1;
  uint32_t *lo = malloc(n * sizeof *lo), *hi = malloc(n * sizeof *hi);
  uint32_t *rank = malloc(n * sizeof *rank);
  int rc = lo && hi && rank ? FL_OK : FL_ENOMEM;
  if (rc == FL_OK)
    slot_ranges(g, lo, hi);
  for (uint32_t s = 0; rc == FL_OK && s < g->n_sw; s++)
    rank[s] = sw_rank(g, s);
  uint32_t max_store = g->exhaustive ? 0 : TWIN_STORE_BYTES / (9u * n);
  if (rc == FL_OK && fl_twins_find(&t->tw, g->n_sw, lo, hi, g->peer_sw, rank,
                                   is_root, !two, max_store) != 0)
    rc = FL_ENOMEM;
  free(lo), free(hi), free(rank);
  size_t cells = (size_t)t->tw.n_store * g->n_sw + 1;
  if (rc == FL_OK) {
    t->a = malloc(cells * sizeof *t->a);
    t->b = two ? malloc(cells * sizeof *t->b) : NULL;
    t->used = malloc(cells);
    t->unrouted = calloc((size_t)t->tw.n_store + 1, sizeof *t->unrouted);
    if (!t->a || (two && !t->b) || !t->used || !t->unrouted)
      rc = FL_ENOMEM;
  }
  if (rc != FL_OK)
    twin_walks_free(t);
  return rc;
}

/* Stored class of root @s's twin, or FL_TWIN_NONE (walk in full); *@rep
 * its representative. */
static uint32_t twin_class(const twin_walks *t, uint32_t s, uint32_t *rep) {
  if (!t->tw.rep)
    return FL_TWIN_NONE;
  *rep = t->tw.rep[s];
  return t->tw.store[*rep];
}

static void swap_u32(uint32_t *v, uint32_t i, uint32_t j) {
  uint32_t x = v[i];
  v[i] = v[j], v[j] = x;
}

static void swap_u8(uint8_t *v, uint32_t i, uint32_t j) {
  uint8_t x = v[i];
  v[i] = v[j], v[j] = x;
}

/* Exchange twins @r and @s in a stored walk (an involution). */
static void twin_swap(uint32_t *a, uint32_t *b, uint8_t *used, uint32_t r,
                      uint32_t s) {
  swap_u32(a, r, s);
  if (b)
    swap_u32(b, r, s);
  swap_u8(used, r, s);
}

/* The turns at switch @t that use a port toward @a or @b: (in, out) with
 * bit 0/1 of codes[in] matching bit 2/3 of codes[out] (updn_codes()). */
static int add_turns_touching(worker *w, uint32_t t, const uint8_t *codes,
                              uint32_t a, uint32_t b, uint32_t dlid) {
  const cdg *g = w->g;
  const sw_rec *r = &g->sw[t];
  for (uint32_t c = 1; c < r->P; c++) {
    int32_t n = g->peer_sw[r->base + c];
    if (n < 0 || ((uint32_t)n != a && (uint32_t)n != b))
      continue;
    for (uint32_t o = 1; o < r->P; o++) {
      if ((((codes[c] & 3) << 2) & codes[o]) &&
          add_dep(w, t, c, o, 0, 0, dlid) != FL_OK)
        return FL_ENOMEM;
      if ((((codes[o] & 3) << 2) & codes[c]) &&
          add_dep(w, t, o, c, 0, 0, dlid) != FL_OK)
        return FL_ENOMEM;
    }
  }
  return FL_OK;
}

/* minhop toward root @s, the twin of @rep whose walk is stored in @k. At a
 * neighbour t of @s only the ports toward @s and @rep changed their
 * codes, and every turn of t's pattern for @rep is in the table already
 * (added by @rep's walk or, when the pattern was seen, before it): the
 * turns through those ports are the only ones that can be new. @rep
 * itself turns nothing toward @s: all its neighbours are @s's, one hop
 * from @s, so none arrives at @rep from farther away (in either state of
 * updn). */
static int minimal_twin(worker *w, twin_walks *t, uint32_t k, uint32_t rep,
                        uint32_t s, uint32_t dlid, uint8_t *codes) {
  cdg *g = w->g;
  uint32_t *dist = t->a + (size_t)k * g->n_sw;
  uint8_t *used = t->used + (size_t)k * g->n_sw;
  twin_swap(dist, NULL, used, rep, s);
  w->destinations++;
  w->unrouted_pairs += t->unrouted[k];
  int rc = FL_OK;
  const sw_rec *r = &g->sw[s];
  for (uint32_t p = 1; rc == FL_OK && p < r->P; p++) {
    int32_t n = g->peer_sw[r->base + p];
    if (n < 0 || !used[n] || dist[n] == UINT32_MAX)
      continue;
    minimal_codes(g, (uint32_t)n, dist, used, codes);
    rc = add_turns_touching(w, (uint32_t)n, codes, s, rep, dlid);
  }
  twin_swap(dist, NULL, used, rep, s);
  return rc;
}

/* updn/ftree toward root @s, the twin of @rep whose walk is stored in @k
 * (as minimal_twin()). */
static int updn_twin(worker *w, twin_walks *t, uint32_t k, uint32_t rep,
                     uint32_t s, uint32_t dlid, const updn_work *u) {
  cdg *g = w->g;
  updn_work v = *u;
  v.dn = t->a + (size_t)k * g->n_sw;
  v.up = t->b + (size_t)k * g->n_sw;
  v.used = t->used + (size_t)k * g->n_sw;
  twin_swap(v.dn, v.up, v.used, rep, s);
  w->destinations++;
  w->unrouted_pairs += t->unrouted[k];
  int rc = FL_OK;
  const sw_rec *r = &g->sw[s];
  for (uint32_t p = 1; rc == FL_OK && p < r->P; p++) {
    int32_t n = g->peer_sw[r->base + p];
    if (n >= 0 && v.used[n] && updn_codes(g, &v, (uint32_t)n, v.codes))
      rc = add_turns_touching(w, (uint32_t)n, v.codes, s, rep, dlid);
  }
  twin_swap(v.dn, v.up, v.used, rep, s);
  return rc;
}

/* Keep the walk of a class representative (stored class @k). */
static void twin_keep(twin_walks *t, const cdg *g, uint32_t k,
                      const uint32_t *a, const uint32_t *b, const uint8_t *used,
                      uint64_t unrouted) {
  size_t n = g->n_sw;
  memcpy(t->a + k * n, a, n * sizeof *a);
  if (b)
    memcpy(t->b + k * n, b, n * sizeof *b);
  memcpy(t->used + k * n, used, n);
  t->unrouted[k] = unrouted;
}

/* ---- design mode over several threads -------------------------------------
 *
 * The roots are dealt to workers by twin class: a class, its stored walk
 * and its representative (walked first) stay with one worker, and whole
 * classes go round-robin, so each worker does about the same number of
 * full walks. Each worker keeps its own seen turn patterns (a pattern
 * another worker saw is enumerated again: the turns are the same). A
 * turn's witness must be the one a single thread keeps: the DLID of the
 * first root, in switch order, whose routes make the turn (a root's walk
 * adds every turn of its routes that an earlier root of the same worker
 * did not add). So the workers share one table and lower each entry
 * atomically to the smallest witness (dep_min()): the root's DLID when the
 * roots' DLIDs increase in switch order (the usual case), else root index
 * + 1, turned into that root's DLID after the walks. One worker stores
 * DLIDs with plain writes, as before. */

typedef struct design_run {
  cdg *g;
  const uint8_t *is_root;
  uint8_t *owner; /* per switch: the worker that walks it (roots) */
  uint32_t *dlid; /* per switch: root_dlid() (roots) */
  int indexed;    /* the table holds root index + 1, not DLIDs */
  twin_walks tw;
  uint32_t *order; /* updn: switches in up order (updn_order()) */
  uint8_t *kind;   /* updn: per slot, MOVE_* (updn_kinds()) */
  uint64_t roots;
  atomic_uint_fast64_t done;
} design_run;

typedef struct design_job {
  worker w;
  design_run *d;
} design_job;

static uint32_t design_witness(const design_run *d, uint32_t s) {
  return d->indexed ? s + 1 : d->dlid[s];
}

/* Count one root walked; the calling thread (worker 0) reports. */
static void design_progress(worker *w, design_run *d) {
  uint64_t done = atomic_fetch_add(&d->done, 1) + 1;
  if (w->id == 0)
    progress(w->g, "root switches", done, d->roots);
}

static int updn_walks(worker *w, design_run *d) {
  cdg *g = w->g;
  size_t n = (size_t)g->n_sw + 1;
  updn_work u;
  memset(&u, 0, sizeof u);
  u.dn = malloc(n * sizeof *u.dn);
  u.up = malloc(n * sizeof *u.up);
  u.queue = malloc(n * sizeof *u.queue);
  u.bucket = malloc((2 * n + 2) * sizeof *u.bucket);
  u.sorted = malloc(2 * n * sizeof *u.sorted);
  u.used = malloc(n);
  u.codes = malloc(MAX_PORTS);
  u.order = d->order;
  u.kind = d->kind;
  int rc =
      (u.dn && u.up && u.queue && u.bucket && u.sorted && u.used && u.codes)
          ? FL_OK
          : FL_ENOMEM;
  for (uint32_t s = 0; rc == FL_OK && s < g->n_sw; s++) {
    if (!d->is_root[s] || d->owner[s] != w->id)
      continue;
    uint32_t rep = s, k = twin_class(&d->tw, s, &rep);
    if (k != FL_TWIN_NONE && rep != s)
      rc = updn_twin(w, &d->tw, k, rep, s, design_witness(d, s), &u);
    else {
      uint64_t before = w->unrouted_pairs;
      rc = updn_for_root(w, s, design_witness(d, s), &u);
      if (k != FL_TWIN_NONE)
        twin_keep(&d->tw, g, k, u.dn, u.up, u.used, w->unrouted_pairs - before);
    }
    design_progress(w, d);
  }
  u.order = NULL; /* shared */
  u.kind = NULL;
  updn_work_free(&u);
  return rc;
}

static int minhop_walks(worker *w, design_run *d) {
  cdg *g = w->g;
  uint32_t *dist = malloc((g->n_sw + 1) * sizeof *dist);
  uint32_t *queue = malloc((g->n_sw + 1) * sizeof *queue);
  uint8_t *used = malloc(g->n_sw + 1);
  uint8_t *codes = malloc(MAX_PORTS);
  int rc = dist && queue && used && codes ? FL_OK : FL_ENOMEM;
  for (uint32_t s = 0; rc == FL_OK && s < g->n_sw; s++) {
    if (!d->is_root[s] || d->owner[s] != w->id)
      continue;
    uint32_t rep = s, k = twin_class(&d->tw, s, &rep);
    if (k != FL_TWIN_NONE && rep != s)
      rc = minimal_twin(w, &d->tw, k, rep, s, design_witness(d, s), codes);
    else {
      uint64_t before = w->unrouted_pairs;
      rc = minimal_for_root(w, s, design_witness(d, s), dist, queue, used,
                            codes);
      if (k != FL_TWIN_NONE)
        twin_keep(&d->tw, g, k, dist, NULL, used, w->unrouted_pairs - before);
    }
    design_progress(w, d);
  }
  free(dist), free(queue), free(used), free(codes);
  return rc;
}

static void *design_main(void *arg) {
  design_job *j = arg;
  j->w.rc = j->d->g->o.engine != FL_CDG_ENGINE_MINHOP
                ? updn_walks(&j->w, j->d)
                : minhop_walks(&j->w, j->d);
  return NULL;
}

/* Deal the roots to @n workers (design_run): a twin goes with its class's
 * representative, every other root (a representative or a root walked in
 * full) to the next worker in turn. Returns the number of full walks. */
static uint64_t deal_roots(design_run *d, uint32_t n) {
  uint64_t full = 0;
  for (uint32_t s = 0; s < d->g->n_sw; s++) {
    if (!d->is_root[s])
      continue;
    uint32_t rep = s, k = twin_class(&d->tw, s, &rep);
    if (k != FL_TWIN_NONE && rep != s)
      d->owner[s] = d->owner[rep];
    else
      d->owner[s] = (uint8_t)(full++ % n);
  }
  return full;
}

/* Workers for the root walks: fl_cdg_options.threads (0: one per online
 * CPU), at most 64 and at most one per full walk. */
static uint32_t design_threads(const cdg *g, uint64_t full) {
  uint32_t t = g->o.threads;
  if (t == 0) {
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    t = n > 0 ? (uint32_t)n : 1;
  }
  if (t > 64)
    t = 64;
  if (t > full)
    t = (uint32_t)full;
  return t ? t : 1;
}

static int design_job_init(design_job *j, design_run *d, uint32_t id,
                           uint32_t n) {
  cdg *g = d->g;
  memset(j, 0, sizeof *j);
  j->d = d;
  j->w.g = g;
  j->w.id = id;
  j->w.n_workers = n;
  j->w.dep = g->dep;
  j->w.atomic_dep = n > 1;
  j->w.turn_ports = malloc(4 * MAX_PORTS * sizeof *j->w.turn_ports);
  return j->w.turn_ports ? FL_OK : FL_ENOMEM;
}

static void design_job_free(design_job *j) {
  fl_u64map_free(&j->w.vdep); /* the turn patterns seen */
  free(j->w.turn_ports);
}

/* Root index + 1 to that root's DLID (design_run.indexed). */
static void design_unindex(cdg *g, const design_run *d) {
  for (uint64_t i = 0; i < g->n_dep_entries; i++)
    g->dep[i] = g->dep[i] ? d->dlid[g->dep[i] - 1] : 0;
}

/* 1 when the roots' DLIDs increase in switch order. */
static int dlids_increase(const design_run *d) {
  uint32_t last = 0;
  for (uint32_t s = 0; s < d->g->n_sw; s++) {
    if (!d->is_root[s])
      continue;
    if (d->dlid[s] <= last)
      return 0;
    last = d->dlid[s];
  }
  return 1;
}

/* Run the workers (worker 0 on the calling thread) and merge them. */
static int design_run_jobs(cdg *g, design_run *d, uint32_t n) {
  design_job *j = calloc(n, sizeof *j);
  int rc = j ? FL_OK : FL_ENOMEM;
  for (uint32_t k = 0; rc == FL_OK && k < n; k++)
    rc = design_job_init(&j[k], d, k, n);
  if (rc == FL_OK)
    rc = run_on_threads(j, sizeof *j, offsetof(design_job, w.rc), n,
                        design_main);
  if (n > 1) /* the end, whichever worker finished last */
    progress(g, "root switches", d->roots, d->roots);
  for (uint32_t k = 0; rc == FL_OK && k < n; k++) {
    rc = j[k].w.rc;
    g->rep->destinations += j[k].w.destinations;
    g->rep->unrouted_pairs += j[k].w.unrouted_pairs;
  }
  if (rc == FL_OK && d->indexed)
    design_unindex(g, d);
  for (uint32_t k = 0; j && k < n; k++)
    design_job_free(&j[k]);
  free(j);
  return rc;
}

static int run_minimal(cdg *g) {
  design_run d;
  memset(&d, 0, sizeof d);
  atomic_init(&d.done, 0);
  d.g = g;
  uint8_t *is_root = calloc(g->n_sw + 1, 1);
  d.is_root = is_root;
  d.owner = calloc(g->n_sw + 1, 1);
  d.dlid = calloc(g->n_sw + 1, sizeof *d.dlid);
  int updn = g->o.engine != FL_CDG_ENGINE_MINHOP;
  if (updn) {
    d.order = malloc((g->n_sw + 1) * sizeof *d.order);
    d.kind = malloc((size_t)g->n_slots + 1);
  }
  int rc = is_root && d.owner && d.dlid && (!updn || (d.order && d.kind))
               ? FL_OK
               : FL_ENOMEM;
  for (uint32_t i = 0; rc == FL_OK && i < g->n_src; i++)
    is_root[g->src[i].sw] = 1;
  for (uint32_t s = 0; rc == FL_OK && s < g->n_sw; s++)
    if (is_root[s]) {
      d.dlid[s] = root_dlid(g, s);
      d.roots++;
    }
  if (rc == FL_OK && updn) {
    rc = updn_order(g, d.order);
    updn_kinds(g, d.kind);
  }
  if (rc == FL_OK)
    rc = twin_walks_init(g, is_root, updn, &d.tw);
  if (rc == FL_OK) {
    uint32_t n = design_threads(g, deal_roots(&d, 64));
    d.indexed = n > 1 && !dlids_increase(&d);
    deal_roots(&d, n);
    rc = design_run_jobs(g, &d, n);
  }
  twin_walks_free(&d.tw);
  free(is_root), free(d.owner), free(d.dlid), free(d.order), free(d.kind);
  return rc;
}

/* ---- the channel graph
 * --------------------------------------------------------- */

typedef struct cgraph {
  uint32_t n;    /* vertices: slot (blind) or slot * 16 + vl (VL-aware) */
  uint32_t *off; /* CSR, n + 1 */
  uint32_t *to;
  uint32_t *dlid; /* per edge */
  uint64_t m;
} cgraph;

/* Visit every dependency as (from vertex, to vertex, dlid). */
typedef int (*dep_visit)(void *ctx, uint32_t from, uint32_t to, uint32_t dlid);

static int for_each_dep(const cdg *g, dep_visit fn, void *ctx) {
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
    if (m->vals[i] == FL_MAP_ABSENT)
      continue;
    uint64_t k = m->keys[i];
    uint32_t t = (uint32_t)(k >> 24), in = (k >> 16) & 0xff,
             out = (k >> 8) & 0xff;
    uint32_t vin = (k >> 4) & 0xf, vout = k & 0xf;
    const sw_rec *r = &g->sw[t];
    int32_t p = g->peer_sw[r->base + in];
    if (p < 0)
      continue;
    uint32_t from = (g->sw[p].base + g->peer_port[r->base + in]) * 16 + vin;
    if (fn(ctx, from, (r->base + out) * 16 + vout, m->vals[i]) != 0)
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
  for_each_dep(g, count_dep, c);
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
  for_each_dep(g, fill_dep, &fc);
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
  if (!is_destination(g, dlid, &d))
    return FL_NONE;
  for (uint32_t i = 0; i < g->n_src; i++) {
    uint32_t s = g->src[i].sw, prev = NO_SLOT;
    for (uint32_t hops = 0; hops <= g->n_sw && (int32_t)s != d.dsw; hops++) {
      uint32_t out = entry(&g->sw[s], dlid);
      if (bad_hop(g, s, out, &d))
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
    if (gb_push(&g->hops, &h) != 0) {
      free(seq);
      return FL_ENOMEM;
    }
  }
  free(seq);
  fl_cdg_loop lp;
  lp.n_hops = nseq;
  lp.scc_channels = size;
  lp.hops = (const fl_cdg_hop *)(uintptr_t)first; /* offset, fixed later */
  return gb_push(&g->loops, &lp) ? FL_ENOMEM : FL_OK;
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
  int rc = order && pos && from && updn_order(g, order) == FL_OK ? 1 : -1;
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

static int find_loops(cdg *g) {
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

/* ---- valleys
 * --------------------------------------------------------------------- */

typedef struct valley_ctx {
  cdg *g;
} valley_ctx;

static uint32_t slot_switch(const cdg *g, uint32_t slot) {
  uint32_t lo = 0, hi = g->n_sw;
  while (hi - lo > 1) {
    uint32_t mid = (lo + hi) / 2;
    if (g->sw[mid].base <= slot)
      lo = mid;
    else
      hi = mid;
  }
  return lo;
}

static int visit_valley(void *ctx, uint32_t from, uint32_t to, uint32_t dlid) {
  cdg *g = ((valley_ctx *)ctx)->g;
  uint32_t fs = g->vl ? from / 16 : from, ts = g->vl ? to / 16 : to;
  uint32_t p = slot_switch(g, fs), t = slot_switch(g, ts);
  int32_t n = g->peer_sw[ts];
  if (n < 0)
    return 0;
  uint32_t tp = g->sw[p].tier, tt = g->sw[t].tier, tn = g->sw[n].tier;
  if (tp == FL_TIER_UNKNOWN || tt == FL_TIER_UNKNOWN || tn == FL_TIER_UNKNOWN)
    return 0;
  if (!(tp > tt && tn > tt))
    return 0;
  g->rep->valley_count++;
  if (g->valleys.n >= g->o.max_examples)
    return 0;
  fl_cdg_valley v = {dlid, g->sw[p].node, g->sw[t].node, g->sw[n].node};
  return gb_push(&g->valleys, &v);
}

/* ---- entry points
 * ------------------------------------------------------------------ */

static void fix_offsets(cdg *g) {
  fl_cdg_report *r = g->rep;
  fl_cdg_loop *loops = g->loops.v;
  for (size_t i = 0; i < g->loops.n; i++)
    loops[i].hops = (const fl_cdg_hop *)g->hops.v + (uintptr_t)loops[i].hops;
  fl_cdg_fwd_loop *fw = g->fwd.v;
  for (size_t i = 0; i < g->fwd.n; i++)
    fw[i].switches =
        (const fl_id *)g->fwd_switches.v + (uintptr_t)fw[i].switches;
  r->loops = loops;
  r->n_loops = (uint32_t)g->loops.n;
  r->fwd_loops = fw;
  r->n_fwd_loops = (uint32_t)g->fwd.n;
  r->unrouted = g->unrouted.v;
  r->n_unrouted = (uint32_t)g->unrouted.n;
  r->valleys = g->valleys.v;
  r->n_valleys = (uint32_t)g->valleys.n;
}

/* The report owns its arrays through this trailer (freed by fl_cdg_free). */
typedef struct report_box {
  fl_cdg_report rep;
  void *hops, *fwd_switches;
} report_box;

static int check_opts(const fl_fabric *fab, const fl_cdg_options *in,
                      fl_cdg_options *o) {
  memset(o, 0, sizeof *o);
  if (in)
    memcpy(o, in,
           in->struct_size && in->struct_size < sizeof *o ? in->struct_size
                                                          : sizeof *o);
  o->struct_size = sizeof *o;
  if (!o->max_examples)
    o->max_examples = 1000;
  if (o->routing == FL_CDG_ROUTING_AUTO)
    o->routing =
        fl_fabric_lft_count(fab) ? FL_CDG_ROUTING_LFT : FL_CDG_ROUTING_MINIMAL;
  if (o->routing == FL_CDG_ROUTING_LFT && !fl_fabric_lft_count(fab))
    return FL_EINVAL;
  if (o->vl_mode == FL_CDG_VL_AWARE && !fl_fabric_has_sl2vl(fab))
    return FL_EINVAL;
  if (o->engine > FL_CDG_ENGINE_FTREE)
    return FL_EINVAL;
  if (o->dist && (!o->dist->size || o->dist->rank >= o->dist->size ||
                  !o->dist->allreduce_min_u32 || !o->dist->allreduce_sum_u64 ||
                  !o->dist->allgather))
    return FL_EINVAL;
  return FL_OK;
}

static void free_work(cdg *g) {
  free(g->sw);
  free(g->sw_of_node);
  free(g->peer_sw);
  free(g->peer_port);
  free(g->peer_portid);
  free(g->dep);
  fl_u64map_free(&g->vdep);
  free(g->src);
  free(g->src_of_port);
}

/* VL-blind valleys straight from the dependency table: only (in, out) pairs
 * whose in-neighbour and out-neighbour are both on a higher tier can be
 * valleys, so no dependency is decoded and no slot is searched. */
static int scan_valleys(cdg *g) {
  for (uint32_t t = 0; t < g->n_sw; t++) {
    const sw_rec *r = &g->sw[t];
    if (r->tier == FL_TIER_UNKNOWN)
      continue;
    for (uint32_t in = 0; in < r->P; in++) {
      int32_t p = g->peer_sw[r->base + in];
      if (p < 0 || g->sw[p].tier == FL_TIER_UNKNOWN || g->sw[p].tier <= r->tier)
        continue;
      const uint32_t *row = &g->dep[r->dep_off + (uint64_t)in * r->P];
      for (uint32_t out = 0; out < r->P; out++) {
        int32_t n = g->peer_sw[r->base + out];
        if (!row[out] || n < 0 || g->sw[n].tier == FL_TIER_UNKNOWN ||
            g->sw[n].tier <= r->tier)
          continue;
        g->rep->valley_count++;
        if (g->valleys.n >= g->o.max_examples)
          continue;
        fl_cdg_valley v = {row[out], g->sw[p].node, r->node, g->sw[n].node};
        if (gb_push(&g->valleys, &v) != 0)
          return FL_ENOMEM;
      }
    }
  }
  return FL_OK;
}

/* Design mode on a layered fabric with nested covers (analysis/updown.h):
 * the graph counted in closed form, acyclic and without valleys or
 * unrouted pairs, so no walk, table or search is needed. Returns 1 when
 * the report is complete, 0 when the walks must run, FL_ENOMEM. */
static int closed_form(cdg *g) {
  size_t n = (size_t)g->n_sw + 1;
  uint32_t *tier = malloc(n * sizeof *tier), *lo = malloc(n * sizeof *lo);
  uint32_t *hi = malloc(n * sizeof *hi);
  uint8_t *is_root = calloc(n, 1);
  int rc = tier && lo && hi && is_root ? 0 : -1;
  if (rc == 0)
    slot_ranges(g, lo, hi);
  for (uint32_t s = 0; rc == 0 && s < g->n_sw; s++)
    tier[s] = g->sw[s].tier;
  for (uint32_t i = 0; rc == 0 && i < g->n_src; i++)
    is_root[g->src[i].sw] = 1;
  fl_updown_in in = {g->n_sw, tier, lo, hi, g->peer_sw, g->peer_port, is_root};
  fl_updown_counts c;
  if (rc == 0)
    rc = fl_updown_count(&in, &c);
  free(tier), free(lo), free(hi), free(is_root);
  if (rc <= 0)
    return rc < 0 ? FL_ENOMEM : 0;
  g->rep->channels = c.channels;
  g->rep->dependencies = c.dependencies;
  g->rep->destinations = c.roots;
  progress(g, "root switches", c.roots, c.roots);
  g->closed = 1;
  return 1;
}

static int analyze(cdg *g) {
  int rc = setup_switches(g);
  if (rc == FL_OK)
    rc = setup_peers(g);
  if (rc == FL_OK)
    rc = setup_sources(g);
  if (rc != FL_OK)
    return rc;
  g->rep->sources = g->n_src;
  if (g->minimal && !g->vl && !g->exhaustive) {
    rc = closed_form(g);
    if (rc != 0)
      return rc == 1 ? FL_OK : rc;
  }
  if (g->minimal) {
    g->dep = calloc(g->n_dep_entries + 1, sizeof *g->dep);
    if (!g->dep)
      return FL_ENOMEM;
  }
  rc = g->minimal ? run_minimal(g) : run_lft_walks(g);
  if (rc == FL_OK)
    rc = find_loops(g);
  valley_ctx vc = {g};
  if (rc == FL_OK)
    rc = g->vl ? for_each_dep(g, visit_valley, &vc) : scan_valleys(g);
  return rc;
}

static int cdg_analyze(const fl_fabric *fab, const fl_cdg_options *opts,
                       int exhaustive, int *closed, const fl_cdg_report **out) {
  if (!fab || !out)
    return FL_EINVAL;
  *out = NULL;
  double t0 = now_seconds();
  cdg g;
  memset(&g, 0, sizeof g);
  atomic_init(&g.lids_done, 0);
  g.f = fab;
  int rc = check_opts(fab, opts, &g.o);
  if (rc != FL_OK)
    return rc;
  g.minimal = g.o.routing == FL_CDG_ROUTING_MINIMAL;
  g.exhaustive = exhaustive;
  g.vl = !g.minimal &&
         (g.o.vl_mode == FL_CDG_VL_AWARE ||
          (g.o.vl_mode == FL_CDG_VL_AUTO && fl_fabric_has_sl2vl(fab)));
  g.parts = 1;
  /* only VL-blind LFT walks are split (fl_cdg_options.dist) */
  if (!g.minimal && !g.vl && g.o.dist && g.o.dist->size > 1) {
    g.dist = g.o.dist;
    g.part = g.dist->rank;
    g.parts = g.dist->size;
  }
  report_box *box = calloc(1, sizeof *box);
  if (!box)
    return FL_ENOMEM;
  g.rep = &box->rep;
  g.rep->routing = g.o.routing;
  g.rep->vl_aware = (uint32_t)g.vl;
  g.rep->traffic = g.o.traffic;
  g.loops.elem = sizeof(fl_cdg_loop);
  g.fwd.elem = sizeof(fl_cdg_fwd_loop);
  g.unrouted.elem = sizeof(fl_cdg_unrouted);
  g.valleys.elem = sizeof(fl_cdg_valley);
  g.fwd_switches.elem = sizeof(fl_id);
  g.hops.elem = sizeof(fl_cdg_hop);
  rc = analyze(&g);
  free_work(&g);
  fix_offsets(&g);
  box->hops = g.hops.v;
  box->fwd_switches = g.fwd_switches.v;
  if (rc != FL_OK) {
    fl_cdg_free(&box->rep);
    return rc;
  }
  box->rep.seconds = now_seconds() - t0;
  if (closed)
    *closed = g.closed;
  *out = &box->rep;
  return FL_OK;
}

int fl_cdg_analyze(const fl_fabric *fab, const fl_cdg_options *opts,
                   const fl_cdg_report **out) {
  return cdg_analyze(fab, opts, 0, NULL, out);
}

int fl_cdg_analyze_closed(const fl_fabric *fab, const fl_cdg_options *opts,
                          int *closed, const fl_cdg_report **out) {
  return cdg_analyze(fab, opts, 0, closed, out);
}

int fl_cdg_analyze_exhaustive(const fl_fabric *fab, const fl_cdg_options *opts,
                              const fl_cdg_report **out) {
  return cdg_analyze(fab, opts, 1, NULL, out);
}

void fl_cdg_free(const fl_cdg_report *report) {
  if (!report)
    return;
  report_box *box = (report_box *)(uintptr_t)report;
  free((void *)(uintptr_t)box->rep.loops);
  free((void *)(uintptr_t)box->rep.fwd_loops);
  free((void *)(uintptr_t)box->rep.unrouted);
  free((void *)(uintptr_t)box->rep.valleys);
  free(box->hops);
  free(box->fwd_switches);
  free(box);
}
