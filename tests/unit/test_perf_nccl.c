/* SPDX-License-Identifier: MIT */
/*
 * tests/unit/test_perf_nccl.c — the performance model's nominal rates and
 * NCCL prediction (docs/performance-model.md):
 *   - pf_net_nominal (perf_nominal.c) on c03's cables with their rates
 *     rewritten: the host cables' majority is their nominal rate; a tie (4
 *     of 8 at 100, 4 at 200) takes the larger, one past it (5 at 100) the
 *     smaller, and a cable above the majority keeps its own rate; unknown
 *     rates stay unknown and do not vote; the uplinks are another group;
 *   - fl_perf_nccl_predict (perf_nccl.c) by hand: ring latency and
 *     efficiency, tree on 2 hosts, NCCL's pick on both sides of the
 *     ring/tree crossover size, no tree on 1 host, the tree's traffic
 *     factor for 2, 3 and 4 hosts, p2p for all-to-all.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "analysis/perf_impl.h"
#include "fabriclint/fabric.h"
#include "fabriclint/load.h"

#define C03                                                                    \
  FL_SOURCE_DIR "/tests/data/cases/c03-nccl325-static-routing-collision/"

static fl_fabric *load_c03(void) {
  fl_fabric *f = fl_fabric_new();
  fl_error err;
  fl_error_clear(&err);
  assert_int_equal(fl_fabric_load(f, C03 "topo.ibnetdiscover", 0, NULL, &err),
                   FL_OK);
  assert_int_equal(fl_fabric_finalize(f, &err), FL_OK);
  return f;
}

static int host_link(const fl_fabric *f, fl_id l) {
  for (uint32_t e = 0; e < 2; e++)
    if (fl_fabric_node_kind(
            f, fl_fabric_port_node(f, fl_fabric_link_port(f, l, e))) ==
        FL_NODE_CA)
      return 1;
  return 0;
}

/* Set the first @k host cables to @lo Gb/s and the others to @hi, every
 * uplink to @up; run pf_net_nominal; return the host cables' count. */
static uint32_t rates(pf_net *n, uint32_t k, double lo, double hi, double up) {
  uint32_t h = 0;
  free(n->nom);
  n->nom = NULL;
  for (fl_id l = 0; l < n->ndl / 2; l++) {
    double c = up;
    if (host_link(n->f, l))
      c = h++ < k ? lo : hi;
    n->cap[2 * l] = n->cap[2 * l + 1] = c;
  }
  fl_error err;
  fl_error_clear(&err);
  assert_int_equal(pf_net_nominal(n, &err), FL_OK);
  return h;
}

static void test_nominal(void **state) {
  (void)state;
  fl_fabric *f = load_c03();
  pf_net n;
  fl_error err;
  fl_error_clear(&err);
  assert_int_equal(pf_net_build(&n, f, &err), FL_OK);
  /* as loaded: every cable 4x HDR, nominal = trained */
  for (uint32_t dl = 0; dl < n.ndl; dl++)
    assert_true(n.nom[dl] == n.cap[dl] && n.cap[dl] == 200.0);
  /* one host cable at half rate: nominal 200 */
  assert_int_equal(rates(&n, 1, 100, 200, 200), 8);
  for (fl_id l = 0, h = 0; l < n.ndl / 2; l++)
    if (host_link(f, l) && h++ == 0)
      assert_true(n.nom[2 * l] == 200.0 && n.nom[2 * l + 1] == 200.0);
  /* the tie: 4 at 100, 4 at 200 -> 200 for all */
  rates(&n, 4, 100, 200, 400);
  for (fl_id l = 0; l < n.ndl / 2; l++)
    assert_true(n.nom[2 * l] == (host_link(f, l) ? 200.0 : 400.0));
  /* one past: 5 at 100 -> 100 the design; the 200 ones keep 200 */
  rates(&n, 5, 100, 200, 400);
  for (fl_id l = 0, h = 0; l < n.ndl / 2; l++) {
    if (!host_link(f, l)) {
      assert_true(n.nom[2 * l] == 400.0); /* the uplinks' own group */
      continue;
    }
    assert_true(n.nom[2 * l] == (h++ < 5 ? 100.0 : 200.0));
  }
  /* unknown rates: 5 unknown, 3 at 100: unknown stays, the others 100 */
  rates(&n, 5, NAN, 100, 200);
  for (fl_id l = 0, h = 0; l < n.ndl / 2; l++)
    if (host_link(f, l)) {
      if (h++ < 5)
        assert_true(isnan(n.nom[2 * l]));
      else
        assert_true(n.nom[2 * l] == 100.0);
    }
  pf_net_free(&n);
  fl_fabric_free(f);
}

static int near(double a, double b) {
  return fabs(a - b) <= 1e-9 * fabs(b);
}

static void test_ring_by_hand(void **state) {
  (void)state;
  fl_perf_nccl p;
  /* 16 ranks on 2 hosts, 1 GiB, fabric busbw 200 GB/s: 30 steps, 2 over
   * the network; (8.4 + 28 x 3.4 + 2 x 9.6) x 1.9 us */
  fl_perf_nccl_predict(FL_WL_ALL_REDUCE, 1u << 30, 16, 2, 200, &p);
  const fl_perf_nccl_alg *r = &p.alg[FL_PERF_NCCL_RING];
  assert_true(r->on);
  assert_true(near(r->latency_s, (8.4 + 28 * 3.4 + 2 * 9.6) * 1.9e-6));
  assert_true(near(r->efficiency, 0.94));
  double t =
      r->latency_s + (double)(1u << 30) / (200 * 0.94 / (30.0 / 16) * 1e9);
  assert_true(near(r->time_s, t));
  assert_true(near(r->algbw_GBps, (double)(1u << 30) / t / 1e9));
  assert_true(near(r->busbw_GBps, r->algbw_GBps * 30 / 16));
  /* the tree: 2 x (7 x 28 + 1 x 50) us, 200 x 0.9 GB/s of algbw */
  const fl_perf_nccl_alg *tr = &p.alg[FL_PERF_NCCL_TREE];
  assert_true(tr->on);
  assert_true(near(tr->latency_s, 2 * (7 * 28 + 50) * 1e-6));
  assert_true(near(tr->time_s, tr->latency_s + (double)(1u << 30) / 180e9));
  assert_int_equal(p.pick, FL_PERF_NCCL_TREE); /* 2 nodes: tree */
  assert_false(p.alg[FL_PERF_NCCL_P2P].on);
  /* reduce-scatter: ring alone, n-1 steps, no plateau */
  fl_perf_nccl_predict(FL_WL_REDUCE_SCATTER, 1u << 30, 16, 2, 200, &p);
  assert_true(near(p.alg[FL_PERF_NCCL_RING].latency_s,
                   (8.4 + 14 * 3.4 + 1 * 9.6) * 1e-6));
  assert_false(p.alg[FL_PERF_NCCL_TREE].on);
  assert_int_equal(p.pick, FL_PERF_NCCL_RING);
}

/* NCCL's pick on both sides of the size where ring and tree take the same
 * time, and the tree's host boundaries. */
static void test_pick_boundary(void **state) {
  (void)state;
  fl_perf_nccl p;
  /* 64 ranks, 1 per host, 25 GB/s: tree algbw 25 x 0.9 / 2, ring algbw
   * 25 x 0.94 x 64/126; ring latency (8.4 + 126 x 9.6) x 1.9 us, tree
   * 2 x 6 x 50 us. The ring is faster per byte and slower to start. */
  double lr = (8.4 + 126 * 9.6) * 1.9e-6, lt = 2 * 6 * 50e-6;
  double br = 25 * 0.94 * 64 / 126 * 1e9, bt = 25 * 0.9 / 2 * 1e9;
  double s = (lr - lt) / (1 / bt - 1 / br);
  assert_true(s > 1e8 && s < 1e9); /* about 333 MB */
  uint64_t below = (uint64_t)floor(s), above = below + 1;
  fl_perf_nccl_predict(FL_WL_ALL_REDUCE, below, 64, 64, 25, &p);
  assert_int_equal(p.pick, FL_PERF_NCCL_TREE);
  fl_perf_nccl_predict(FL_WL_ALL_REDUCE, above, 64, 64, 25, &p);
  assert_int_equal(p.pick, FL_PERF_NCCL_RING);
  /* one host: no tree (its inter-node part is empty) */
  fl_perf_nccl_predict(FL_WL_ALL_REDUCE, 1u << 20, 8, 1, 25, &p);
  assert_false(p.alg[FL_PERF_NCCL_TREE].on);
  /* the tree's network traffic per host: 1 on 2 hosts, 1.5 on 3, 2 on 4 */
  double want[5] = {0, 0, 1.0, 1.5, 2.0};
  for (uint32_t h = 2; h <= 4; h++) {
    fl_perf_nccl_predict(FL_WL_ALL_REDUCE, 1u << 30, h * 8, h, 100, &p);
    const fl_perf_nccl_alg *t = &p.alg[FL_PERF_NCCL_TREE];
    double bw = 100 * 0.9 / want[h] * 1e9;
    assert_true(near(t->time_s, t->latency_s + (double)(1u << 30) / bw));
  }
  /* all-to-all: p2p, one network step, efficiency 0.94 */
  fl_perf_nccl_predict(FL_WL_ALL_TO_ALL, 1u << 30, 8, 8, 25, &p);
  assert_int_equal(p.pick, FL_PERF_NCCL_P2P);
  assert_true(near(p.alg[FL_PERF_NCCL_P2P].latency_s, 18e-6));
  assert_false(p.alg[FL_PERF_NCCL_RING].on);
  /* nothing to predict */
  fl_perf_nccl_predict(FL_WL_ALL_REDUCE, 1u << 30, 1, 1, 25, &p);
  assert_false(p.alg[FL_PERF_NCCL_RING].on);
  fl_perf_nccl_predict(FL_WL_ALL_REDUCE, 1u << 30, 8, 8, 0, &p);
  assert_false(p.alg[FL_PERF_NCCL_RING].on);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_nominal),
      cmocka_unit_test(test_ring_by_hand),
      cmocka_unit_test(test_pick_boundary),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
