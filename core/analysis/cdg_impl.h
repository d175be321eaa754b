/* SPDX-License-Identifier: MIT */
/*
 * core/analysis/cdg_impl.h — the channel dependency graph model shared by
 * the files of the deadlock analysis (cdg*.c); internal.
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
 */
#ifndef FABRICLINT_CORE_ANALYSIS_CDG_IMPL_H
#define FABRICLINT_CORE_ANALYSIS_CDG_IMPL_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "fabriclint/cdg.h"
#include "fabriclint/routing.h"
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

typedef struct dest_ctx {
  uint32_t dlid;
  fl_id port;  /* the destination port */
  int32_t dsw; /* destination switch index (switch LIDs), or -1 */
} dest_ctx;
/* Lower *@cell to @v (0 = empty) atomically: design-mode workers share one
 * table (design_run). */
static inline void dep_min(uint32_t *cell, uint32_t v) {
  uint32_t cur = __atomic_load_n(cell, __ATOMIC_RELAXED);
  while ((cur == 0 || cur > v) &&
         !__atomic_compare_exchange_n(cell, &cur, v, 1, __ATOMIC_RELAXED,
                                      __ATOMIC_RELAXED))
    ;
}

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

/* Visit every dependency as (from vertex, to vertex, dlid). */
typedef int (*dep_visit)(void *ctx, uint32_t from, uint32_t to, uint32_t dlid);

/* ---- cdg_setup.c */

void cdg_progress(const cdg *g, const char *what, uint64_t done,
                  uint64_t total);
int cdg_gb_push(growbuf *b, const void *x);
int cdg_setup_switches(cdg *g);
int cdg_setup_peers(cdg *g);
int cdg_setup_sources(cdg *g);
int cdg_add_dep(worker *w, uint32_t t, uint32_t in, uint32_t out, uint32_t vin,
                uint32_t vout, uint32_t dlid);

/* ---- cdg_walk.c */

uint32_t cdg_entry(const sw_rec *r, uint32_t dlid);
void cdg_load_block(worker *w, uint32_t lo);
uint32_t cdg_bad_hop(const cdg *g, uint32_t s, uint32_t out, const dest_ctx *d);
int cdg_is_destination(const cdg *g, uint32_t lid, dest_ctx *d);
int cdg_walk_destination(worker *w, uint32_t lid);
void cdg_block_deps(worker *w);
int cdg_block_reach(worker *w, uint32_t hi);

/* ---- cdg_drivers.c */

int cdg_run_on_threads(void *items, size_t size, size_t rc_off, uint32_t n,
                       void *(*fn)(void *));
int cdg_run_lft_walks(cdg *g);

/* ---- cdg_models.c */

void cdg_minimal_codes(const cdg *g, uint32_t t, const uint32_t *dist,
                       const uint8_t *used, uint8_t *codes);
uint32_t cdg_root_dlid(const cdg *g, uint32_t root);
int cdg_minimal_for_root(worker *w, uint32_t root, uint32_t dlid,
                         uint32_t *dist, uint32_t *queue, uint8_t *used,
                         uint8_t *codes);
uint32_t cdg_sw_rank(const cdg *g, uint32_t s);
void cdg_updn_kinds(const cdg *g, uint8_t *kind);
int cdg_updn_order(const cdg *g, uint32_t *order);
int cdg_updn_codes(const cdg *g, const updn_work *u, uint32_t t,
                   uint8_t *codes);
int cdg_updn_for_root(worker *w, uint32_t root, uint32_t dlid, updn_work *u);
void cdg_updn_work_free(updn_work *u);

/* ---- cdg_design.c */

void cdg_slot_ranges(const cdg *g, uint32_t *lo, uint32_t *hi);
int cdg_run_minimal(cdg *g);

/* ---- cdg_cycles.c */

int cdg_for_each_dep(const cdg *g, dep_visit fn, void *ctx);
int cdg_find_loops(cdg *g);

#endif /* FABRICLINT_CORE_ANALYSIS_CDG_IMPL_H */
