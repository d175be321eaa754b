/* SPDX-License-Identifier: MIT */
/*
 * tests/unit/test_cdg.c — the channel dependency graph analysis on fabrics
 * whose verdict is known by construction: rings with clockwise routing
 * (one credit loop, the exact cycle), a ring whose routing avoids one link
 * (no loop), a LASH-style SL layering (no loop VL-aware, a loop VL-blind),
 * forwarding loops, unrouted destinations, valleys, and reference minimal
 * routing on rings and fat trees.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "build.h"
#include "fabriclint/cdg.h"
#include "fabriclint/gen.h"
#include "fabriclint/routing.h"

#define N_RING    4
#define CA_LID(i) ((uint32_t)(i) + 1)
#define SW_LID(i) ((uint32_t)(i) + 20)

typedef struct ring {
  fl_fabric *f;
  fl_id sw[8], ca[8];
  uint32_t n;
} ring;

/* Switch i: port 1 -> CA i (LID @ca_lid0 + i), port 2 -> switch i+1 port 3
 * (clockwise). */
static void build_ring_at(ring *r, uint32_t n, uint32_t ca_lid0) {
  fl_prov pv = {0, 1, 1};
  r->n = n;
  r->f = fl_fabric_new();
  for (uint32_t i = 0; i < n; i++) {
    char name[32];
    r->sw[i] = fl_b_node(r->f, FL_NODE_SWITCH, 0x100 + i, 3, pv);
    snprintf(name, sizeof name, "sw%u", i);
    fl_b_node_set_name(r->f, r->sw[i], name, (size_t)-1);
    fl_b_port_set_lid(r->f, fl_b_port(r->f, r->sw[i], 0, pv), SW_LID(i), 0);
    r->ca[i] = fl_b_node(r->f, FL_NODE_CA, 0x200 + i, 1, pv);
    snprintf(name, sizeof name, "host%u mlx5_0", i);
    fl_b_node_set_name(r->f, r->ca[i], name, (size_t)-1);
    fl_id cp = fl_b_port(r->f, r->ca[i], 1, pv);
    fl_b_port_set_lid(r->f, cp, ca_lid0 + i, 0);
    fl_b_link(r->f, fl_b_port(r->f, r->sw[i], 1, pv), cp, 4, FL_SPEED_HDR,
              FL_LINK_DECLARED, pv);
  }
  for (uint32_t i = 0; i < n; i++)
    fl_b_link(r->f, fl_b_port(r->f, r->sw[i], 2, pv),
              fl_b_port(r->f, r->sw[(i + 1) % n], 3, pv), 4, FL_SPEED_HDR,
              FL_LINK_DECLARED, pv);
}

static void build_ring(ring *r, uint32_t n) {
  build_ring_at(r, n, CA_LID(0));
}

/* Clockwise LFTs: deliver locally, else port 2. */
static void lft_clockwise(ring *r) {
  for (uint32_t i = 0; i < r->n; i++) {
    uint8_t *row = fl_b_lft_row(r->f, r->sw[i], 40);
    for (uint32_t j = 0; j < r->n; j++) {
      row[CA_LID(j)] = j == i ? 1 : 2;
      row[SW_LID(j)] = j == i ? 0 : 2;
    }
  }
}

static const fl_cdg_report *analyze(fl_fabric *f, uint32_t vl_mode,
                                    uint32_t routing) {
  fl_cdg_options o;
  memset(&o, 0, sizeof o);
  o.struct_size = sizeof o;
  o.vl_mode = vl_mode;
  o.routing = routing;
  const fl_cdg_report *rep = NULL;
  assert_int_equal(fl_cdg_analyze(f, &o, &rep), FL_OK);
  assert_non_null(rep);
  return rep;
}

static void finalize(fl_fabric *f) {
  fl_error err;
  fl_error_clear(&err);
  assert_int_equal(fl_fabric_finalize(f, &err), FL_OK);
}

static void test_ring_clockwise_one_loop(void **state) {
  (void)state;
  ring r;
  build_ring(&r, N_RING);
  lft_clockwise(&r);
  finalize(r.f);
  const fl_cdg_report *rep = analyze(r.f, FL_CDG_VL_AUTO, FL_CDG_ROUTING_AUTO);
  assert_int_equal(rep->routing, FL_CDG_ROUTING_LFT);
  assert_int_equal(rep->vl_aware, 0);
  assert_int_equal(rep->destinations, N_RING);
  assert_int_equal(rep->n_loops, 1);
  const fl_cdg_loop *lp = &rep->loops[0];
  assert_int_equal(lp->n_hops, N_RING);
  assert_int_equal(lp->scc_channels, N_RING);
  /* the cycle is sw0:2 -> sw1:2 -> sw2:2 -> sw3:2 (smallest channel first) */
  for (uint32_t k = 0; k < N_RING; k++) {
    const fl_cdg_hop *h = &lp->hops[k];
    assert_int_equal(h->from_node, r.sw[k]);
    assert_int_equal(h->from_port, 2);
    assert_int_equal(h->to_node, r.sw[(k + 1) % N_RING]);
    assert_int_equal(h->to_port, 3);
    assert_int_equal(h->vl, FL_VL_UNKNOWN);
    /* the dependency hop k -> hop k+1 is made by traffic through switch k+1
     * to a CA at least one more switch away, sent by a CA that really uses
     * both channels: re-verify by following the clockwise LFTs */
    uint32_t dsw = h->dlid - 1; /* CA_LID(j) = j + 1 */
    assert_true(h->dlid >= 1 && h->dlid <= N_RING);
    assert_true(dsw != (k + 1) % N_RING);
    assert_true(h->src != FL_NONE);
    uint32_t ssw = N_RING;
    for (uint32_t i = 0; i < N_RING; i++)
      if (r.ca[i] == h->src)
        ssw = i;
    assert_true(ssw < N_RING);
    /* clockwise from ssw to dsw passes switch k, then k+1, then k+2 */
    int uses = 0;
    for (uint32_t s = ssw; s != dsw; s = (s + 1) % N_RING)
      if (s == k && (s + 1) % N_RING != dsw)
        uses = 1;
    assert_true(uses);
  }
  assert_int_equal(rep->fwd_loop_count, 0);
  assert_int_equal(rep->unrouted_pairs, 0);
  fl_cdg_free(rep);
  fl_fabric_free(r.f);
}

/* Shortest-path routing that never uses the link sw3 -> sw0: no loop. */
static void test_ring_cut_link_no_loop(void **state) {
  (void)state;
  ring r;
  build_ring(&r, N_RING);
  for (uint32_t i = 0; i < N_RING; i++) {
    uint8_t *row = fl_b_lft_row(r.f, r.sw[i], 40);
    for (uint32_t j = 0; j < N_RING; j++) {
      /* go clockwise when j > i (never wraps), counter-clockwise when j < i */
      row[CA_LID(j)] = j == i ? 1 : j > i ? 2 : 3;
      row[SW_LID(j)] = j == i ? 0 : j > i ? 2 : 3;
    }
  }
  finalize(r.f);
  const fl_cdg_report *rep = analyze(r.f, FL_CDG_VL_AUTO, FL_CDG_ROUTING_AUTO);
  assert_int_equal(rep->n_loops, 0);
  assert_true(rep->dependencies > 0);
  fl_cdg_free(rep);
  fl_fabric_free(r.f);
}

/* LASH-style layering: each SL's paths avoid one link, SL = VL. */
static uint32_t lash_sl(uint32_t s, uint32_t d) {
  /* clockwise path s -> d uses links (s,s+1) ... (d-1,d); link k = k->k+1 */
  static const uint32_t order[4] = {3, 1, 2,
                                    0}; /* avoid 3->0, 1->2, 2->3, 0->1 */
  for (uint32_t sl = 0; sl < 4; sl++) {
    uint32_t avoid = order[sl], used = 0;
    for (uint32_t k = s; k != d; k = (k + 1) % N_RING)
      used |= k == avoid;
    if (!used)
      return sl;
  }
  return 0;
}

static void test_vl_layers_break_loop(void **state) {
  (void)state;
  ring r;
  build_ring(&r, N_RING);
  lft_clockwise(&r);
  uint8_t ident[16];
  for (int i = 0; i < 16; i++)
    ident[i] = (uint8_t)(i & 7);
  for (uint32_t i = 0; i < N_RING; i++)
    for (uint32_t in = 0; in <= 3; in++)
      for (uint32_t out = 1; out <= 3; out++)
        fl_b_sl2vl(r.f, r.sw[i], in, out, ident);
  for (uint32_t s = 0; s < N_RING; s++)
    for (uint32_t d = 0; d < N_RING; d++)
      if (s != d)
        fl_b_path_sl(r.f, r.ca[s], CA_LID(d), lash_sl(s, d));
  finalize(r.f);
  const fl_cdg_report *aware =
      analyze(r.f, FL_CDG_VL_AUTO, FL_CDG_ROUTING_AUTO);
  assert_int_equal(aware->vl_aware, 1);
  assert_int_equal(aware->n_loops, 0);
  assert_int_equal(aware->missing_sl2vl, 0);
  fl_cdg_free(aware);
  const fl_cdg_report *blind =
      analyze(r.f, FL_CDG_VL_BLIND, FL_CDG_ROUTING_AUTO);
  assert_int_equal(blind->vl_aware, 0);
  assert_int_equal(blind->n_loops, 1);
  assert_int_equal(blind->loops[0].n_hops, N_RING);
  fl_cdg_free(blind);
  fl_fabric_free(r.f);
}

/* All traffic on SL 0 with the same tables: the loop is on VL 0. */
static void test_vl_aware_loop_has_vls(void **state) {
  (void)state;
  ring r;
  build_ring(&r, N_RING);
  lft_clockwise(&r);
  uint8_t vl2[16];
  memset(vl2, 2, sizeof vl2);
  for (uint32_t i = 0; i < N_RING; i++)
    for (uint32_t in = 0; in <= 3; in++)
      for (uint32_t out = 1; out <= 3; out++)
        fl_b_sl2vl(r.f, r.sw[i], in, out, vl2);
  finalize(r.f);
  const fl_cdg_report *rep = analyze(r.f, FL_CDG_VL_AUTO, FL_CDG_ROUTING_AUTO);
  assert_int_equal(rep->vl_aware, 1);
  assert_int_equal(rep->n_loops, 1);
  for (uint32_t k = 0; k < rep->loops[0].n_hops; k++)
    assert_int_equal(rep->loops[0].hops[k].vl, 2);
  fl_cdg_free(rep);
  fl_fabric_free(r.f);
}

/* SL2VL tables are indexed (in port, out port): on the clockwise ring the
 * clockwise turns (in 3 -> out 2, and injection in 0/1 -> out 2) map every
 * SL to VL 5, the reverse turns (in 2 -> out 3 or 1) to VL 9, which no
 * clockwise packet may use. The loop sw0:2 -> sw1:2 -> sw2:2 -> sw3:2 is on
 * VL 5 at every hop, with no hop lacking a table; a lookup by (out, in)
 * would put it on VL 9 and miss the injection tables (mutant dl-sl2vl-dir
 * in tests/mutation/mutants.txt). */
static void test_sl2vl_in_out_direction(void **state) {
  (void)state;
  ring r;
  build_ring(&r, N_RING);
  lft_clockwise(&r);
  uint8_t v5[16], v9[16];
  memset(v5, 5, sizeof v5);
  memset(v9, 9, sizeof v9);
  for (uint32_t i = 0; i < N_RING; i++) {
    fl_b_sl2vl(r.f, r.sw[i], 3, 2, v5);
    fl_b_sl2vl(r.f, r.sw[i], 1, 2, v5);
    fl_b_sl2vl(r.f, r.sw[i], 0, 2, v5);
    fl_b_sl2vl(r.f, r.sw[i], 3, 1, v5);
    fl_b_sl2vl(r.f, r.sw[i], 2, 3, v9);
    fl_b_sl2vl(r.f, r.sw[i], 2, 1, v9);
  }
  finalize(r.f);
  const fl_cdg_report *rep = analyze(r.f, FL_CDG_VL_AUTO, FL_CDG_ROUTING_AUTO);
  assert_int_equal(rep->vl_aware, 1);
  assert_int_equal(rep->missing_sl2vl, 0);
  assert_int_equal(rep->n_loops, 1);
  const fl_cdg_loop *lp = &rep->loops[0];
  assert_int_equal(lp->n_hops, N_RING);
  for (uint32_t k = 0; k < N_RING; k++) {
    assert_int_equal(lp->hops[k].from_node, r.sw[k]);
    assert_int_equal(lp->hops[k].from_port, 2);
    assert_int_equal(lp->hops[k].to_port, 3);
    assert_int_equal(lp->hops[k].vl, 5);
  }
  fl_cdg_free(rep);
  fl_fabric_free(r.f);
}

/* A dateline: sw0 maps its transit turn (in 3 -> out 2) to VL 6 and its
 * injection turn (in 1 -> out 2) to VL 5; every other turn anywhere is on
 * VL 5. Traffic to CA 2 is walked first from CA 0 (sw0 left on VL 5), then
 * from CA 3 through sw0 again, now leaving on VL 6: a walk that stopped at
 * the first switch already walked for (destination, SL) would never record
 * sw0:2@6 -> sw1:2@5 and would miss the one real cycle
 * sw0:2@6 -> sw1:2@5 -> sw2:2@5 -> sw3:2@5. */
static void test_vl_dateline_second_arrival(void **state) {
  (void)state;
  ring r;
  build_ring(&r, N_RING);
  lft_clockwise(&r);
  uint8_t v5[16], v6[16];
  memset(v5, 5, sizeof v5);
  memset(v6, 6, sizeof v6);
  for (uint32_t i = 0; i < N_RING; i++)
    for (uint32_t in = 0; in <= 3; in++)
      for (uint32_t out = 1; out <= 3; out++)
        if (in != out)
          fl_b_sl2vl(r.f, r.sw[i], in, out,
                     i == 0 && in == 3 && out == 2 ? v6 : v5);
  finalize(r.f);
  const fl_cdg_report *rep = analyze(r.f, FL_CDG_VL_AUTO, FL_CDG_ROUTING_AUTO);
  assert_int_equal(rep->vl_aware, 1);
  assert_int_equal(rep->missing_sl2vl, 0);
  assert_int_equal(rep->fwd_loop_count, 0);
  assert_int_equal(rep->n_loops, 1);
  const fl_cdg_loop *lp = &rep->loops[0];
  assert_int_equal(lp->n_hops, N_RING);
  assert_int_equal(lp->scc_channels, N_RING);
  static const uint32_t vl[N_RING] = {6, 5, 5, 5};
  for (uint32_t k = 0; k < N_RING; k++) {
    assert_int_equal(lp->hops[k].from_node, r.sw[k]);
    assert_int_equal(lp->hops[k].from_port, 2);
    assert_int_equal(lp->hops[k].to_node, r.sw[(k + 1) % N_RING]);
    assert_int_equal(lp->hops[k].to_port, 3);
    assert_int_equal(lp->hops[k].vl, vl[k]);
  }
  fl_cdg_free(rep);
  fl_fabric_free(r.f);
}

/* Leaves L0..L3 (tier 1, one CA each), spines S0, S1 (tier 2), cables
 * L0-S0, L1-S0, L1-S1, L2-S1, L3-S1 and one leaf-leaf cable L1-L2. Toward
 * h3 (on L3) L0 sends up to S0, S0 down to L1, L1 up to S1: one valley
 * (S0, L1, S1). Toward h2 (on L2) L1 takes the leaf-leaf cable: S0 -> L1 ->
 * L2 enters from above and leaves sideways, which is not a valley (its out
 * neighbour is on the same tier, not higher). Kills dl-valley-tier (VL-blind:
 * a same-tier out neighbour counted as up) and dl-valley-vl (VL-aware: down
 * OR up instead of down AND up). */
enum { VL0, VL1, VL2, VL3, VS0, VS1, V_SW };

static void build_valley(fl_fabric **out, fl_id *sw, uint32_t *dl) {
  fl_prov pv = {0, 1, 1};
  fl_fabric *f = fl_fabric_new();
  static const char *names[V_SW] = {"L0", "L1", "L2", "L3", "S0", "S1"};
  for (uint32_t i = 0; i < V_SW; i++) {
    sw[i] = fl_b_node(f, FL_NODE_SWITCH, 0x100 + i, 8, pv);
    fl_b_node_set_name(f, sw[i], names[i], (size_t)-1);
    fl_b_port_set_lid(f, fl_b_port(f, sw[i], 0, pv), 20 + i, 0);
  }
  for (uint32_t i = 0; i < 4; i++) { /* CA hi on port 1 of Li, LID i + 1 */
    char name[32];
    fl_id ca = fl_b_node(f, FL_NODE_CA, 0x200 + i, 1, pv);
    snprintf(name, sizeof name, "h%u mlx5_0", i);
    fl_b_node_set_name(f, ca, name, (size_t)-1);
    fl_id cp = fl_b_port(f, ca, 1, pv);
    fl_b_port_set_lid(f, cp, i + 1, 0);
    fl_b_link(f, fl_b_port(f, sw[i], 1, pv), cp, 4, FL_SPEED_HDR,
              FL_LINK_DECLARED, pv);
    dl[i] = i + 1;
  }
  /* cables: {switch, port, switch, port} */
  static const uint32_t cab[6][4] = {{VL0, 2, VS0, 1}, {VL1, 2, VS0, 2},
                                     {VL1, 3, VS1, 1}, {VL2, 2, VS1, 2},
                                     {VL3, 2, VS1, 3}, {VL1, 4, VL2, 4}};
  for (uint32_t k = 0; k < 6; k++)
    fl_b_link(f, fl_b_port(f, sw[cab[k][0]], cab[k][1], pv),
              fl_b_port(f, sw[cab[k][2]], cab[k][3], pv), 4, FL_SPEED_HDR,
              FL_LINK_DECLARED, pv);
  /* LFTs toward h2 and h3 only (other entries stay empty: no route) */
  uint8_t *r[V_SW];
  for (uint32_t i = 0; i < V_SW; i++)
    r[i] = fl_b_lft_row(f, sw[i], 40);
  static const uint8_t to_h2[V_SW] = {2, 4, 1, 2, 2, 2}; /* LID 3 */
  static const uint8_t to_h3[V_SW] = {2, 3, 2, 1, 2, 3}; /* LID 4 */
  for (uint32_t i = 0; i < V_SW; i++) {
    r[i][3] = to_h2[i];
    r[i][4] = to_h3[i];
  }
  *out = f;
}

static void test_valleys_exact(void **state) {
  (void)state;
  for (int vl = 0; vl < 2; vl++) {
    fl_fabric *f;
    fl_id sw[V_SW];
    uint32_t dl[4];
    build_valley(&f, sw, dl);
    if (vl) { /* every turn on VL 0: VL-aware walks, same verdict */
      uint8_t v0[16] = {0};
      for (uint32_t i = 0; i < V_SW; i++)
        for (uint32_t in = 0; in <= 4; in++)
          for (uint32_t out = 1; out <= 4; out++)
            if (in != out)
              fl_b_sl2vl(f, sw[i], in, out, v0);
    }
    finalize(f);
    assert_int_equal(fl_fabric_node_tier(f, sw[VL1]), 1);
    assert_int_equal(fl_fabric_node_tier(f, sw[VL2]), 1);
    assert_int_equal(fl_fabric_node_tier(f, sw[VS0]), 2);
    const fl_cdg_report *rep = analyze(f, FL_CDG_VL_AUTO, FL_CDG_ROUTING_LFT);
    assert_int_equal(rep->vl_aware, vl);
    assert_int_equal(rep->valley_count, 1);
    assert_int_equal(rep->n_valleys, 1);
    assert_int_equal(rep->valleys[0].dlid, dl[3]);
    assert_int_equal(rep->valleys[0].from, sw[VS0]);
    assert_int_equal(rep->valleys[0].at, sw[VL1]);
    assert_int_equal(rep->valleys[0].to, sw[VS1]);
    assert_int_equal(rep->n_loops, 0);
    fl_cdg_free(rep);
    fl_fabric_free(f);
  }
}

/* Witness DLIDs do not depend on the thread count: with every switch a
 * destination (switch LIDs 20..23, block 0 of 64 LIDs) and the CAs at LIDs
 * 65..68 (block 1), two workers each see every dependency of the clockwise
 * loop; the merge keeps the smallest witness, as one thread does. The
 * dependency sw_k:2 -> sw_k+1:2 is made by traffic to sw_k+2 and sw_k+3,
 * so its witness is the smaller of their LIDs (kills dl-merge-min). */
static void test_thread_merge_witness(void **state) {
  (void)state;
  ring r;
  build_ring_at(&r, N_RING, 65);
  for (uint32_t i = 0; i < N_RING; i++) {
    uint8_t *row = fl_b_lft_row(r.f, r.sw[i], 70);
    for (uint32_t j = 0; j < N_RING; j++) {
      row[65 + j] = j == i ? 1 : 2;
      row[SW_LID(j)] = j == i ? 0 : 2;
    }
  }
  finalize(r.f);
  for (uint32_t threads = 1; threads <= 2; threads++) {
    fl_cdg_options o;
    memset(&o, 0, sizeof o);
    o.struct_size = sizeof o;
    o.traffic = FL_CDG_TRAFFIC_ALL;
    o.threads = threads;
    const fl_cdg_report *rep = NULL;
    assert_int_equal(fl_cdg_analyze(r.f, &o, &rep), FL_OK);
    assert_int_equal(rep->destinations, 2 * N_RING);
    assert_int_equal(rep->n_loops, 1);
    const fl_cdg_loop *lp = &rep->loops[0];
    assert_int_equal(lp->n_hops, N_RING);
    for (uint32_t k = 0; k < N_RING; k++) {
      uint32_t a = SW_LID((k + 2) % N_RING), b = SW_LID((k + 3) % N_RING);
      assert_int_equal(lp->hops[k].from_node, r.sw[k]);
      assert_int_equal(lp->hops[k].dlid, a < b ? a : b);
    }
    fl_cdg_free(rep);
  }
  fl_fabric_free(r.f);
}

/* The threads' dependency tables are merged row by row: switch LIDs 20..23
 * (block 0, worker 0) route clockwise (port 2), the CAs at LIDs 65..68
 * (block 1, worker 1) counter-clockwise (port 3), so each direction's loop
 * exists only in one worker's table. Two threads must give what one does:
 * 2 loops, 8 channels, 12 dependencies (4 turns on round each way, and the
 * 4 deliveries of the CA traffic into the CA links: a switch delivers to
 * itself on port 0, no turn), and the counter-clockwise loop's
 * witnesses are CA LIDs (the two destinations behind each turn, the
 * smaller). A merge that writes worker 1's turns into other rows loses or
 * bends that loop (kills dl-blk-seen-merge, dl-merge-min). */
static void test_thread_merge_rows(void **state) {
  (void)state;
  ring r;
  build_ring_at(&r, N_RING, 65);
  for (uint32_t i = 0; i < N_RING; i++) {
    uint8_t *row = fl_b_lft_row(r.f, r.sw[i], 70);
    for (uint32_t j = 0; j < N_RING; j++) {
      row[65 + j] = j == i ? 1 : 3;
      row[SW_LID(j)] = j == i ? 0 : 2;
    }
  }
  finalize(r.f);
  for (uint32_t threads = 1; threads <= 2; threads++) {
    fl_cdg_options o;
    memset(&o, 0, sizeof o);
    o.struct_size = sizeof o;
    o.traffic = FL_CDG_TRAFFIC_ALL;
    o.threads = threads;
    const fl_cdg_report *rep = NULL;
    assert_int_equal(fl_cdg_analyze(r.f, &o, &rep), FL_OK);
    assert_int_equal(rep->destinations, 2 * N_RING);
    assert_int_equal(rep->channels, 2 * N_RING);
    assert_int_equal(rep->dependencies, 3 * N_RING);
    assert_int_equal(rep->n_loops, 2);
    uint32_t ccw = 0;
    for (uint32_t l = 0; l < rep->n_loops; l++) {
      const fl_cdg_loop *lp = &rep->loops[l];
      assert_int_equal(lp->n_hops, N_RING);
      if (lp->hops[0].dlid < 65)
        continue; /* the clockwise loop: switch LIDs */
      ccw++;
      for (uint32_t k = 0; k < N_RING; k++)
        assert_true(lp->hops[k].dlid >= 65 && lp->hops[k].dlid < 65 + N_RING);
    }
    assert_int_equal(ccw, 1);
    fl_cdg_free(rep);
  }
  fl_fabric_free(r.f);
}

/* A destination switch is where its routes end, whatever its own LFT entry
 * says: sw0's entry for its own LID points back out of the port the traffic
 * came in by (3), which would be a U-turn (sw0: 3 -> 3) if it were followed.
 * Traffic from every switch and CA, clockwise: 4 turns on round (t: 3 -> 2)
 * and 4 deliveries into the CA links (t: 3 -> 1), 8 dependencies, one loop;
 * the U-turn is none of them (kills dl-blk-dsw). */
static void test_dest_switch_entry_ignored(void **state) {
  (void)state;
  ring r;
  build_ring(&r, N_RING);
  lft_clockwise(&r);
  uint8_t *row0 = fl_b_lft_row(r.f, r.sw[0], 40);
  row0[SW_LID(0)] = 3;
  finalize(r.f);
  fl_cdg_options o;
  memset(&o, 0, sizeof o);
  o.struct_size = sizeof o;
  o.traffic = FL_CDG_TRAFFIC_ALL;
  const fl_cdg_report *rep = NULL;
  assert_int_equal(fl_cdg_analyze(r.f, &o, &rep), FL_OK);
  assert_int_equal(rep->destinations, 2 * N_RING);
  assert_int_equal(rep->dependencies, 2 * N_RING);
  assert_int_equal(rep->channels, N_RING);
  assert_int_equal(rep->n_loops, 1);
  assert_int_equal(rep->unrouted_pairs, 0);
  fl_cdg_free(rep);
  fl_fabric_free(r.f);
}

/* A CA sends to no one through its own LID, so a switch whose only CA is
 * the destination is no source for it. D - A - B - C in a line, a CA on D
 * (LID 1) and on A (LID 2); toward LID 2, D has no entry (traffic from D
 * ends there: unrouted, on its path), and A -> B -> C -> B would loop, but
 * nothing arrives at A for LID 2, so that loop is on no route: no
 * forwarding loop, one unrouted pair, and the one dependency of A's traffic
 * to D (D: 2 -> 1). Walking from A toward its own CA would report the
 * B - C loop and add its turns (kills dl-walk-self). */
static void test_own_ca_no_source(void **state) {
  (void)state;
  enum { D, A, B, C, N };
  fl_prov pv = {0, 1, 1};
  fl_fabric *f = fl_fabric_new();
  fl_id sw[N];
  for (uint32_t i = 0; i < N; i++) {
    sw[i] = fl_b_node(f, FL_NODE_SWITCH, 0x100 + i, 4, pv);
    fl_b_port_set_lid(f, fl_b_port(f, sw[i], 0, pv), 20 + i, 0);
  }
  for (uint32_t i = D; i <= A; i++) {
    fl_id cp = fl_b_port(f, fl_b_node(f, FL_NODE_CA, 0x200 + i, 1, pv), 1, pv);
    fl_b_port_set_lid(f, cp, i + 1, 0);
    fl_b_link(f, fl_b_port(f, sw[i], 1, pv), cp, 4, FL_SPEED_HDR,
              FL_LINK_DECLARED, pv);
  }
  /* D:2 - A:2, A:3 - B:2, B:3 - C:2 */
  static const uint32_t cab[3][4] = {{D, 2, A, 2}, {A, 3, B, 2}, {B, 3, C, 2}};
  for (uint32_t k = 0; k < 3; k++)
    fl_b_link(f, fl_b_port(f, sw[cab[k][0]], cab[k][1], pv),
              fl_b_port(f, sw[cab[k][2]], cab[k][3], pv), 4, FL_SPEED_HDR,
              FL_LINK_DECLARED, pv);
  /* toward LID 1 (D's CA) and LID 2 (A's CA); FL_LFT_NONE: no entry */
  static const uint8_t to1[N] = {1, 2, 2, 2}, to2[N] = {FL_LFT_NONE, 3, 3, 2};
  for (uint32_t i = 0; i < N; i++) {
    uint8_t *row = fl_b_lft_row(f, sw[i], 30);
    row[1] = to1[i];
    row[2] = to2[i];
  }
  finalize(f);
  const fl_cdg_report *rep = analyze(f, FL_CDG_VL_AUTO, FL_CDG_ROUTING_AUTO);
  assert_int_equal(rep->routing, FL_CDG_ROUTING_LFT);
  assert_int_equal(rep->destinations, 2);
  assert_int_equal(rep->fwd_loop_count, 0);
  assert_int_equal(rep->unrouted_pairs, 1);
  assert_int_equal(rep->n_unrouted, 1);
  assert_int_equal(rep->unrouted[0].dlid, 2);
  assert_int_equal(rep->unrouted[0].example_switch, sw[D]);
  assert_int_equal(rep->unrouted[0].on_traffic_path, 1);
  assert_int_equal(rep->dependencies, 1);
  assert_int_equal(rep->n_loops, 0);
  fl_cdg_free(rep);
  fl_fabric_free(f);
}

/* Reference minimal routing turns only toward a neighbour one hop closer.
 * R-A, A-B, A-C, B-C, B-D with CAs on R, A, B, D (C has none, so it is no
 * destination): the minimal turns are A: B->R, R->B and B: A->D, D->A, 4 in
 * all, no loop. Turning also toward an equally distant neighbour would add
 * B: D->C (toward R) and A: R->C (toward D), 6 (kills dl-minimal-hop). */
static void test_minimal_turns_exact(void **state) {
  (void)state;
  enum { R, A, B, C, D, N };
  static const uint32_t cab[5][2] = {{R, A}, {A, B}, {A, C}, {B, C}, {B, D}};
  fl_prov pv = {0, 1, 1};
  fl_fabric *f = fl_fabric_new();
  fl_id sw[N];
  uint32_t next_port[N];
  for (uint32_t i = 0; i < N; i++) {
    sw[i] = fl_b_node(f, FL_NODE_SWITCH, 0x100 + i, 8, pv);
    fl_b_port_set_lid(f, fl_b_port(f, sw[i], 0, pv), 20 + i, 0);
    next_port[i] = 2;
    if (i == C)
      continue;
    fl_id ca = fl_b_node(f, FL_NODE_CA, 0x200 + i, 1, pv);
    fl_id cp = fl_b_port(f, ca, 1, pv);
    fl_b_port_set_lid(f, cp, i + 1, 0);
    fl_b_link(f, fl_b_port(f, sw[i], 1, pv), cp, 4, FL_SPEED_HDR,
              FL_LINK_DECLARED, pv);
  }
  for (uint32_t k = 0; k < 5; k++) {
    uint32_t a = cab[k][0], b = cab[k][1];
    fl_b_link(f, fl_b_port(f, sw[a], next_port[a]++, pv),
              fl_b_port(f, sw[b], next_port[b]++, pv), 4, FL_SPEED_HDR,
              FL_LINK_DECLARED, pv);
  }
  finalize(f);
  const fl_cdg_report *rep = analyze(f, FL_CDG_VL_AUTO, FL_CDG_ROUTING_AUTO);
  assert_int_equal(rep->routing, FL_CDG_ROUTING_MINIMAL);
  assert_int_equal(rep->destinations, 4);
  assert_int_equal(rep->dependencies, 4);
  assert_int_equal(rep->n_loops, 0);
  fl_cdg_free(rep);
  fl_fabric_free(f);
}

/* An LFT entry 0 ("deliver here") at a switch that is not the destination
 * sends the packet to the wrong node, not out of a dead port (kills
 * dl-reason): on the clockwise ring, sw1 delivers CA 3's LID to itself. */
static void test_unrouted_deliver_here(void **state) {
  (void)state;
  ring r;
  build_ring(&r, N_RING);
  lft_clockwise(&r);
  fl_b_lft_row(r.f, r.sw[1], 40)[CA_LID(3)] = 0;
  finalize(r.f);
  const fl_cdg_report *rep = analyze(r.f, FL_CDG_VL_AUTO, FL_CDG_ROUTING_AUTO);
  assert_int_equal(rep->n_unrouted, 1);
  assert_int_equal(rep->unrouted[0].dlid, CA_LID(3));
  assert_int_equal(rep->unrouted[0].example_switch, r.sw[1]);
  assert_int_equal(rep->unrouted[0].example_port, 0);
  assert_int_equal(rep->unrouted[0].reason, FL_CDG_WRONG_NODE);
  assert_int_equal(rep->unrouted[0].on_traffic_path, 1);
  fl_cdg_free(rep);
  fl_fabric_free(r.f);
}

static void test_forwarding_loop_and_unrouted(void **state) {
  (void)state;
  ring r;
  build_ring(&r, N_RING);
  lft_clockwise(&r);
  /* toward CA 3: sw1 sends back counter-clockwise to sw0, which sends to sw1 */
  uint8_t *row1 = fl_b_lft_row(r.f, r.sw[1], 40);
  row1[CA_LID(3)] = 3;
  /* toward CA 2: sw3 (off every CA route to CA 2? no: sw3 -> sw0 -> sw1 ->
   * sw2 is CA 3's route) has no entry */
  uint8_t *row3 = fl_b_lft_row(r.f, r.sw[3], 40);
  row3[CA_LID(2)] = 255;
  finalize(r.f);
  const fl_cdg_report *rep = analyze(r.f, FL_CDG_VL_AUTO, FL_CDG_ROUTING_AUTO);
  assert_int_equal(rep->fwd_loop_count, 1);
  assert_int_equal(rep->n_fwd_loops, 1);
  const fl_cdg_fwd_loop *fl = &rep->fwd_loops[0];
  assert_int_equal(fl->dlid, CA_LID(3));
  assert_int_equal(fl->n_switches, 2);
  /* the walk from sw0 visits sw0, sw1, then sw0 again */
  assert_true((fl->switches[0] == r.sw[0] && fl->switches[1] == r.sw[1]) ||
              (fl->switches[0] == r.sw[1] && fl->switches[1] == r.sw[0]));
  assert_int_equal(rep->unrouted_pairs, 1);
  assert_int_equal(rep->n_unrouted, 1);
  assert_int_equal(rep->unrouted[0].dlid, CA_LID(2));
  assert_int_equal(rep->unrouted[0].example_switch, r.sw[3]);
  assert_int_equal(rep->unrouted[0].reason, FL_CDG_NO_ENTRY);
  assert_int_equal(rep->unrouted[0].on_traffic_path, 1); /* host3 -> host2 */
  fl_cdg_free(rep);
  fl_fabric_free(r.f);
}

/* A port with no cable, off every CA route: a warning-level hole. */
static void test_dead_port_off_path(void **state) {
  (void)state;
  ring r;
  build_ring(&r, N_RING);
  lft_clockwise(&r);
  /* sw0's entry for its own CA points at port 3... make it a dead port 7 */
  uint8_t *row0 = fl_b_lft_row(r.f, r.sw[0], 40);
  row0[SW_LID(1)] = 7; /* switch LIDs are not CA destinations by default */
  row0[CA_LID(1)] = 2;
  finalize(r.f);
  fl_cdg_options o;
  memset(&o, 0, sizeof o);
  o.struct_size = sizeof o;
  o.traffic = FL_CDG_TRAFFIC_ALL;
  const fl_cdg_report *rep = NULL;
  assert_int_equal(fl_cdg_analyze(r.f, &o, &rep), FL_OK);
  assert_int_equal(rep->unrouted_pairs, 1);
  assert_int_equal(rep->unrouted[0].dlid, SW_LID(1));
  assert_int_equal(rep->unrouted[0].reason, FL_CDG_DEAD_PORT);
  assert_int_equal(rep->unrouted[0].example_port, 7);
  fl_cdg_free(rep);
  fl_fabric_free(r.f);
}

/* Design mode: all minimal next hops on a ring of 5 close a loop each way. */
static void test_minimal_ring_two_loops(void **state) {
  (void)state;
  ring r;
  build_ring(&r, 5);
  finalize(r.f);
  const fl_cdg_report *rep = analyze(r.f, FL_CDG_VL_AUTO, FL_CDG_ROUTING_AUTO);
  assert_int_equal(rep->routing, FL_CDG_ROUTING_MINIMAL);
  assert_int_equal(rep->n_loops, 2);
  for (uint32_t i = 0; i < 2; i++) {
    assert_int_equal(rep->loops[i].n_hops, 5);
    assert_int_equal(rep->loops[i].scc_channels, 5);
  }
  fl_cdg_free(rep);
  fl_fabric_free(r.f);
}

static void test_minimal_fat_trees_clean(void **state) {
  (void)state;
  for (uint32_t tiers = 2; tiers <= 3; tiers++) {
    fl_gen_fat_tree_params p;
    memset(&p, 0, sizeof p);
    p.radix = 8;
    p.tiers = tiers;
    fl_fabric *f = NULL;
    fl_error err;
    fl_error_clear(&err);
    assert_int_equal(fl_gen_fat_tree(&p, &f, &err), FL_OK);
    const fl_cdg_report *rep = analyze(f, FL_CDG_VL_AUTO, FL_CDG_ROUTING_AUTO);
    assert_int_equal(rep->routing, FL_CDG_ROUTING_MINIMAL);
    assert_int_equal(rep->n_loops, 0);
    assert_int_equal(rep->valley_count, 0);
    assert_true(rep->dependencies > 0);
    fl_cdg_free(rep);
    fl_fabric_free(f);
  }
}

static const fl_cdg_report *analyze_engine(fl_fabric *f, uint32_t engine,
                                           uint32_t struct_size) {
  fl_cdg_options o;
  memset(&o, 0, sizeof o);
  o.struct_size = struct_size;
  o.routing = FL_CDG_ROUTING_MINIMAL;
  o.engine = engine;
  const fl_cdg_report *rep = NULL;
  assert_int_equal(fl_cdg_analyze(f, &o, &rep), FL_OK);
  assert_non_null(rep);
  return rep;
}

/* Modelled engines on a ring of 5 (every switch tier 1): minhop has a loop
 * each way; updn ranks by GUID alone and never climbs after descending: no
 * loop, every pair routed; ftree uses no same-tier cable: nothing routed. */
static void test_engines_on_ring(void **state) {
  (void)state;
  ring r;
  build_ring(&r, 5);
  finalize(r.f);
  const fl_cdg_report *rep =
      analyze_engine(r.f, FL_CDG_ENGINE_MINHOP, sizeof(fl_cdg_options));
  assert_int_equal(rep->n_loops, 2);
  fl_cdg_free(rep);
  rep = analyze_engine(r.f, FL_CDG_ENGINE_UPDN, sizeof(fl_cdg_options));
  assert_int_equal(rep->n_loops, 0);
  assert_int_equal(rep->unrouted_pairs, 0);
  assert_int_equal(rep->destinations, 5);
  /* GUIDs rise with the index, so sw0 is the top: the routes of two or
   * more hops are 2-1-0, 3-2-1(-0), 4-0-1, 0-1-2(-3), 4-3-2, 1-2-3, 1-0-4,
   * 2-3-4: 8 turns over 8 channels */
  assert_int_equal(rep->channels, 8);
  assert_int_equal(rep->dependencies, 8);
  fl_cdg_free(rep);
  rep = analyze_engine(r.f, FL_CDG_ENGINE_FTREE, sizeof(fl_cdg_options));
  assert_int_equal(rep->n_loops, 0);
  assert_int_equal(rep->dependencies, 0);
  assert_int_equal(rep->unrouted_pairs, 20); /* 5 roots x 4 other sources */
  fl_cdg_free(rep);
  /* a caller built before @engine existed gets minhop */
  rep =
      analyze_engine(r.f, FL_CDG_ENGINE_UPDN, offsetof(fl_cdg_options, engine));
  assert_int_equal(rep->n_loops, 2);
  fl_cdg_free(rep);
  fl_cdg_options o;
  memset(&o, 0, sizeof o);
  o.struct_size = sizeof o;
  o.engine = FL_CDG_ENGINE_FTREE + 1;
  assert_int_equal(fl_cdg_analyze(r.f, &o, &rep), FL_EINVAL);
  fl_fabric_free(r.f);
}

/* Modelled engines on fat trees: no loop, and updn/ftree route every pair. */
static void test_engines_fat_trees_clean(void **state) {
  (void)state;
  fl_gen_fat_tree_params p;
  memset(&p, 0, sizeof p);
  p.radix = 8;
  p.tiers = 3;
  fl_fabric *f = NULL;
  fl_error err;
  fl_error_clear(&err);
  assert_int_equal(fl_gen_fat_tree(&p, &f, &err), FL_OK);
  const fl_cdg_report *mh =
      analyze_engine(f, FL_CDG_ENGINE_MINHOP, sizeof(fl_cdg_options));
  for (uint32_t e = FL_CDG_ENGINE_UPDN; e <= FL_CDG_ENGINE_FTREE; e++) {
    const fl_cdg_report *rep = analyze_engine(f, e, sizeof(fl_cdg_options));
    assert_int_equal(rep->n_loops, 0);
    assert_int_equal(rep->unrouted_pairs, 0);
    assert_int_equal(rep->valley_count, 0);
    /* in a fat tree every shortest path is up*-down*: same turns */
    assert_int_equal(rep->dependencies, mh->dependencies);
    assert_int_equal(rep->channels, mh->channels);
    fl_cdg_free(rep);
  }
  fl_cdg_free(mh);
  fl_fabric_free(f);
}

/* LFTs of some switches only: a route that reaches a switch without one
 * stops there, unjudged: no unrouted pair, and the ring's loop (which
 * needs sw2's turn) is not claimed. */
static void test_partial_lfts(void **state) {
  (void)state;
  ring r;
  build_ring(&r, N_RING);
  for (uint32_t i = 0; i < r.n; i++) {
    if (i == 2)
      continue;
    uint8_t *row = fl_b_lft_row(r.f, r.sw[i], 40);
    for (uint32_t j = 0; j < r.n; j++) {
      row[CA_LID(j)] = j == i ? 1 : 2;
      row[SW_LID(j)] = j == i ? 0 : 2;
    }
  }
  finalize(r.f);
  const fl_cdg_report *rep = analyze(r.f, FL_CDG_VL_AUTO, FL_CDG_ROUTING_AUTO);
  assert_int_equal(rep->routing, FL_CDG_ROUTING_LFT);
  assert_int_equal(rep->unrouted_pairs, 0);
  assert_int_equal(rep->n_unrouted, 0);
  assert_int_equal(rep->n_loops, 0);
  assert_true(rep->dependencies > 0);
  fl_cdg_free(rep);
  fl_fabric_free(r.f);
}

static void test_options_refused(void **state) {
  (void)state;
  ring r;
  build_ring(&r, N_RING);
  finalize(r.f);
  fl_cdg_options o;
  memset(&o, 0, sizeof o);
  o.struct_size = sizeof o;
  o.routing = FL_CDG_ROUTING_LFT;
  const fl_cdg_report *rep = NULL;
  assert_int_equal(fl_cdg_analyze(r.f, &o, &rep), FL_EINVAL);
  o.routing = FL_CDG_ROUTING_AUTO;
  o.vl_mode = FL_CDG_VL_AWARE;
  assert_int_equal(fl_cdg_analyze(r.f, &o, &rep), FL_EINVAL);
  assert_null(rep);
  fl_fabric_free(r.f);
}

/* What fl_cdg_options.progress received. */
typedef struct progress_log {
  uint32_t n;
  uint64_t done[64], total[64];
  char what[64][24];
} progress_log;

static void on_progress(void *ctx, const char *what, uint64_t done,
                        uint64_t total) {
  progress_log *l = ctx;
  if (l->n < 64) {
    l->done[l->n] = done;
    l->total[l->n] = total;
    snprintf(l->what[l->n], sizeof l->what[l->n], "%s", what);
  }
  l->n++;
}

/* Options reporting progress into @log (both zeroed first). */
static void progress_opts(fl_cdg_options *o, progress_log *log,
                          uint32_t routing, uint32_t threads) {
  memset(log, 0, sizeof *log);
  memset(o, 0, sizeof *o);
  o->struct_size = sizeof *o;
  o->routing = routing;
  o->threads = threads;
  o->progress = on_progress;
  o->progress_ctx = log;
}

/* Progress (ABI 1.2): design mode reports each root switch once, 1..N of
 * N, for every engine, when it walks them (here: a leaf-to-leaf cable
 * takes the tree out of the closed form's class), and the whole count
 * once when the graph is counted in closed form; LFT walks report
 * destinations up to max LID + 1; a caller whose struct_size ends before
 * the member gets no call; the report does not depend on it. */
static void test_progress_reports(void **state) {
  (void)state;
  fl_gen_fat_tree_params p;
  memset(&p, 0, sizeof p);
  p.radix = 8;
  p.tiers = 3; /* 32 leaves, each with hosts: 32 root switches */
  p.extra_leaf_link = 1;
  fl_fabric *f = NULL;
  fl_error err;
  fl_error_clear(&err);
  assert_int_equal(fl_gen_fat_tree(&p, &f, &err), FL_OK);
  for (uint32_t e = FL_CDG_ENGINE_MINHOP; e <= FL_CDG_ENGINE_FTREE; e++) {
    progress_log log;
    memset(&log, 0, sizeof log);
    fl_cdg_options o;
    memset(&o, 0, sizeof o);
    o.struct_size = sizeof o;
    o.routing = FL_CDG_ROUTING_MINIMAL;
    o.engine = e;
    o.threads = 1;
    o.progress = on_progress;
    o.progress_ctx = &log;
    const fl_cdg_report *rep = NULL;
    assert_int_equal(fl_cdg_analyze(f, &o, &rep), FL_OK);
    assert_int_equal(log.n, 32);
    for (uint32_t i = 0; i < 32; i++) {
      assert_int_equal(log.done[i], i + 1);
      assert_int_equal(log.total[i], 32);
      assert_string_equal(log.what[i], "root switches");
    }
    fl_cdg_free(rep);
    /* two threads: whole twin classes go to each in turn (leaf 1 alone,
     * leaves 2-4, the pods 2 to 7, leaves 29-31, leaf 32 alone: 16 roots
     * each); the calling thread reports after each of its 16 roots what
     * both have done so far, then the end once more */
    memset(&log, 0, sizeof log);
    o.threads = 2;
    assert_int_equal(fl_cdg_analyze(f, &o, &rep), FL_OK);
    assert_int_equal(log.n, 17);
    for (uint32_t i = 0; i < 17; i++) {
      assert_true(log.done[i] >= i + 1 && log.done[i] <= 32);
      assert_true(i == 0 || log.done[i] >= log.done[i - 1]);
      assert_int_equal(log.total[i], 32);
      assert_string_equal(log.what[i], "root switches");
    }
    assert_int_equal(log.done[16], 32);
    const fl_cdg_report *plain = analyze_engine(f, e, sizeof o);
    assert_int_equal(rep->dependencies, plain->dependencies);
    assert_int_equal(rep->channels, plain->channels);
    fl_cdg_free(plain);
    fl_cdg_free(rep);
    /* built before 1.2: the members past struct_size are not read */
    memset(&log, 0, sizeof log);
    o.struct_size = offsetof(fl_cdg_options, reserved0);
    assert_int_equal(fl_cdg_analyze(f, &o, &rep), FL_OK);
    assert_int_equal(log.n, 0);
    fl_cdg_free(rep);
  }
  fl_fabric_free(f);
  /* without the extra cable: counted in closed form, one report */
  p.extra_leaf_link = 0;
  assert_int_equal(fl_gen_fat_tree(&p, &f, &err), FL_OK);
  for (uint32_t threads = 1; threads <= 2; threads++) {
    progress_log log;
    fl_cdg_options o;
    progress_opts(&o, &log, FL_CDG_ROUTING_MINIMAL, threads);
    const fl_cdg_report *rep = NULL;
    assert_int_equal(fl_cdg_analyze(f, &o, &rep), FL_OK);
    assert_int_equal(log.n, 1);
    assert_int_equal(log.done[0], 32);
    assert_int_equal(log.total[0], 32);
    assert_string_equal(log.what[0], "root switches");
    assert_int_equal(rep->destinations, 32);
    fl_cdg_free(rep);
  }
  fl_fabric_free(f);
  /* LFT walks on a ring whose CA LIDs 65..68 put the destinations in two
   * blocks of 64 LIDs (max LID 68: 69 in all). One thread walks both and
   * reports after each (64, then 69), and the end once more (69). With two
   * threads, each takes one block; the calling thread reports its block
   * with what both have done so far (64 or 69), then the end (69). */
  ring r;
  build_ring_at(&r, N_RING, 65);
  for (uint32_t i = 0; i < N_RING; i++) {
    uint8_t *row = fl_b_lft_row(r.f, r.sw[i], 70);
    for (uint32_t j = 0; j < N_RING; j++) {
      row[65 + j] = j == i ? 1 : 2;
      row[SW_LID(j)] = j == i ? 0 : 2;
    }
  }
  finalize(r.f);
  for (uint32_t threads = 1; threads <= 2; threads++) {
    progress_log log;
    fl_cdg_options o;
    progress_opts(&o, &log, FL_CDG_ROUTING_AUTO, threads);
    const fl_cdg_report *rep = NULL;
    assert_int_equal(fl_cdg_analyze(r.f, &o, &rep), FL_OK);
    assert_int_equal(rep->routing, FL_CDG_ROUTING_LFT);
    assert_int_equal(log.n, threads == 1 ? 3 : 2);
    for (uint32_t i = 0; i < log.n; i++) {
      assert_int_equal(log.total[i], 69);
      assert_string_equal(log.what[i], "destinations");
    }
    if (threads == 1)
      assert_int_equal(log.done[0], 64);
    else
      assert_true(log.done[0] == 64 || log.done[0] == 69);
    assert_int_equal(log.done[log.n - 2], threads == 1 ? 69 : log.done[0]);
    assert_int_equal(log.done[log.n - 1], 69);
    fl_cdg_free(rep);
  }
  fl_fabric_free(r.f);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_ring_clockwise_one_loop),
      cmocka_unit_test(test_ring_cut_link_no_loop),
      cmocka_unit_test(test_vl_layers_break_loop),
      cmocka_unit_test(test_vl_aware_loop_has_vls),
      cmocka_unit_test(test_sl2vl_in_out_direction),
      cmocka_unit_test(test_vl_dateline_second_arrival),
      cmocka_unit_test(test_valleys_exact),
      cmocka_unit_test(test_thread_merge_witness),
      cmocka_unit_test(test_thread_merge_rows),
      cmocka_unit_test(test_dest_switch_entry_ignored),
      cmocka_unit_test(test_own_ca_no_source),
      cmocka_unit_test(test_minimal_turns_exact),
      cmocka_unit_test(test_unrouted_deliver_here),
      cmocka_unit_test(test_forwarding_loop_and_unrouted),
      cmocka_unit_test(test_dead_port_off_path),
      cmocka_unit_test(test_minimal_ring_two_loops),
      cmocka_unit_test(test_minimal_fat_trees_clean),
      cmocka_unit_test(test_options_refused),
      cmocka_unit_test(test_engines_on_ring),
      cmocka_unit_test(test_engines_fat_trees_clean),
      cmocka_unit_test(test_partial_lfts),
      cmocka_unit_test(test_progress_reports),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
