/* SPDX-License-Identifier: MIT */
/*
 * tests/unit/test_view.c — include/fabriclint/view.h, the switch-centred
 * fabric view plugins share, run against the real host function table
 * (fl_host_api from fl_host_init) as a plugin sees it.
 *
 *  - fabrics/fat-tree-2tier.ibnetdiscover (ibsim): 16 leaves (tier 1) with
 *    8 hosts and one cable to each of 8 spines (tier 2): slot counts, the
 *    up/down relation, endpoints and LIDs, minimal next hops (leaf to leaf:
 *    2 hops over 8 spines).
 *  - the real NDR dump of NVIDIA/topograph (tests/data/external): 40 SHARP
 *    Aggregation Nodes on switch port 65 and 542 NICs cabled to a leaf; one
 *    NIC checked against the dump's own text.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "analysis/swview.h"
#include "external.h"
#include "fabriclint/fabric.h"
#include "fabriclint/gen.h"
#include "fabriclint/load.h"
#include "fabriclint/view.h"
#include "host/host.h"
#include "view_compact.h"

#define FAT_TREE FL_SOURCE_DIR "/fabrics/fat-tree-2tier.ibnetdiscover"
#define TOPOGRAPH                                                              \
  EXT("NVIDIA__topograph__tests__output__ibnetdiscover__example.out")

static fl_fabric *load(const char *path) {
  fl_error err;
  memset(&err, 0, sizeof err);
  fl_fabric *f = fl_fabric_new();
  assert_non_null(f);
  assert_int_equal(fl_fabric_load(f, path, FL_FMT_AUTO, NULL, &err), FL_OK);
  assert_int_equal(fl_fabric_finalize(f, &err), FL_OK);
  return f;
}

static void test_tier_dir(void **state) {
  (void)state;
  assert_int_equal(fl_view_tier_dir(1, 2), 1);
  assert_int_equal(fl_view_tier_dir(2, 1), -1);
  assert_int_equal(fl_view_tier_dir(2, 2), 0);
  assert_int_equal(fl_view_tier_dir(FL_TIER_UNKNOWN, 1), 0);
  assert_int_equal(fl_view_tier_dir(1, FL_TIER_UNKNOWN), 0);
}

static void test_fat_tree(void **state) {
  (void)state;
  fl_host h;
  fl_host_init(&h);
  fl_fabric *f = load(FAT_TREE);
  fl_view v;
  assert_int_equal(fl_view_build(&v, &h.api, f), 0);
  assert_int_equal(v.ns, 24);
  assert_int_equal(v.ne, 128);
  assert_int_equal(v.nd, 16);
  assert_int_equal(v.poff[v.ns], 384);
  assert_int_equal(v.nlids, 128);
  uint32_t up = 0, down = 0, same = 0, leaves = 0;
  for (uint32_t s = 0; s < v.ns; s++) {
    for (uint32_t i = v.poff[s]; i < v.poff[s + 1]; i++) {
      int d = fl_view_dir(&v, s, i);
      up += d == 1, down += d == -1, same += d == 0;
    }
    if (v.tier[s] == 1) {
      leaves++;
      assert_int_equal(v.psw_end[s] - v.poff[s], 8); /* 8 spines */
      assert_int_equal(v.sw_nep[s], 8);              /* 8 hosts */
      assert_int_not_equal(v.sw_d[s], FL_VIEW_NONE);
    } else {
      assert_int_equal(v.tier[s], 2);
      assert_int_equal(v.psw_end[s] - v.poff[s], 16); /* 16 leaves */
      assert_int_equal(v.sw_nep[s], 0);
      assert_int_equal(v.sw_d[s], FL_VIEW_NONE);
    }
  }
  assert_int_equal(leaves, 16);
  assert_int_equal(up, 128);         /* leaf -> spine */
  assert_int_equal(down, 128 + 128); /* spine -> leaf, leaf -> host */
  assert_int_equal(same, 0);
  for (uint32_t e = 0; e < v.ne; e++) {
    assert_int_equal(v.pnb[v.ep_slot[e]], FL_VIEW_NONE);
    assert_int_equal(v.pnode[v.ep_slot[e]], v.ep_node[e]);
    assert_int_not_equal(v.ep_lid[e], 0);
  }
  assert_int_equal(fl_view_minimal(&v), 0);
  for (uint32_t d = 0; d < v.nd; d++)
    for (uint32_t s = 0; s < v.ns; s++) {
      uint8_t dist = v.dist[(size_t)d * v.ns + s];
      uint16_t nm = v.nmin[(size_t)d * v.ns + s];
      if (s == v.dsw[d])
        assert_int_equal(dist, 0);
      else if (v.tier[s] == 2)
        assert_true(dist == 1 && nm == 1);
      else
        assert_true(dist == 2 && nm == 8); /* one way up per spine */
    }
  fl_view_free(&v);
  assert_null(v.poff);
  fl_fabric_free(f);
  fl_host_free(&h);
}

static void test_nics_and_sharp(void **state) {
  (void)state;
  fl_host h;
  fl_host_init(&h);
  const fl_host_api *api = &h.api;
  fl_fabric *f = load(TOPOGRAPH);
  uint32_t an = 0, nics = 0;
  for (fl_id n = 0; n < api->node_count(f); n++) {
    if (api->node_kind(f, n) != FL_NODE_CA)
      continue;
    uint32_t port = 0, sw_port = 0;
    fl_id s = fl_view_ca_switch(api, f, n, &port, &sw_port);
    if (fl_view_is_sharp_an(api, f, n)) {
      an++;
      assert_int_not_equal(s, FL_NONE);
      assert_int_equal(sw_port, 65); /* the Quantum-2 SHARP port */
    } else if (s != FL_NONE) {
      nics++;
      assert_int_equal(api->node_kind(f, s), FL_NODE_SWITCH);
    }
  }
  assert_int_equal(an, 40);
  assert_int_equal(nics, 542);
  /* "[1](e09d7303007a4bd8) "S-2c5eab0300b87b40"[1] # ... "MF0;A09-P1-..." */
  fl_id n = fl_fabric_find_node_name(f, "a08-p1-dgx-04-c01 mlx5_5");
  assert_int_not_equal(n, FL_NONE);
  assert_int_equal(fl_view_is_sharp_an(api, f, n), 0);
  uint32_t port = 0, sw_port = 0;
  fl_id s = fl_view_ca_switch(api, f, n, &port, &sw_port);
  assert_int_not_equal(s, FL_NONE);
  assert_string_equal(api->node_name(f, s),
                      "MF0;A09-P1-IBLEAF-04-04:MQM9701/U1");
  assert_int_equal(port, 1);
  assert_int_equal(sw_port, 1);
  fl_id link = FL_NONE, far = FL_NONE;
  fl_id p = api->find_port(f, n, 1);
  assert_int_equal(fl_view_port_switch(api, f, p, &link, &far), s);
  assert_int_equal(api->port_node(f, far), s);
  assert_int_equal(api->link_other(f, link, p), far);
  /* from the leaf's side the same cable ends on a CA, not a switch */
  fl_id l2 = 7, q2 = 7;
  assert_int_equal(fl_view_port_switch(api, f, far, &l2, &q2), FL_NONE);
  assert_true(l2 == 7 && q2 == 7); /* outputs untouched */
  /* a switch is neither an AN nor a NIC with a leaf */
  assert_int_equal(fl_view_is_sharp_an(api, f, s), 0);
  fl_fabric_free(f);
  fl_host_free(&h);
}

/* Reference rows: a plain BFS per destination switch over the view's
 * switch-facing slots (no twins), |M| counted and the mixed-speed flag set
 * as fl_view_minimal() documents. */
static void check_rows(const fl_view *v) {
  uint8_t *dist = malloc(v->ns);
  uint32_t *queue = malloc(v->ns * sizeof *queue);
  assert_non_null(dist);
  assert_non_null(queue);
  for (uint32_t d = 0; d < v->nd; d++) {
    memset(dist, FL_VIEW_FAR, v->ns);
    uint32_t head = 0, tail = 0;
    dist[v->dsw[d]] = 0;
    queue[tail++] = v->dsw[d];
    while (head < tail) {
      uint32_t u = queue[head++];
      for (uint32_t i = v->poff[u]; i < v->psw_end[u]; i++)
        if (dist[v->pnb[i]] == FL_VIEW_FAR) {
          dist[v->pnb[i]] = (uint8_t)(dist[u] + 1);
          queue[tail++] = v->pnb[i];
        }
    }
    for (uint32_t s = 0; s < v->ns; s++) {
      uint16_t n = 0;
      double lo = 0, hi = 0;
      for (uint32_t i = v->poff[s]; i < v->psw_end[s]; i++)
        if (dist[s] != FL_VIEW_FAR && dist[v->pnb[i]] + 1 == dist[s]) {
          /* an unknown speed (0) is neither slower nor faster */
          if (v->pgbps[i] > 0 && (!(lo > 0) || v->pgbps[i] < lo))
            lo = v->pgbps[i];
          if (v->pgbps[i] > hi)
            hi = v->pgbps[i];
          n++;
        }
      if (hi > lo)
        n |= FL_VIEW_MIXED;
      assert_int_equal(v->dist[(size_t)d * v->ns + s], dist[s]);
      assert_int_equal(v->nmin[(size_t)d * v->ns + s], n);
    }
  }
  free(dist), free(queue);
}

/* fl_view_minimal() computes one BFS per class of twin destination
 * switches and derives the others' rows: every row equals a plain BFS on
 * fat trees (every leaf of a pod a twin), a tree with parallel cables and
 * a partial one, an as-built fabric with degraded (mixed-speed) links, and
 * a ring (no twins). */
static void test_twin_rows(void **state) {
  (void)state;
  fl_host h;
  fl_host_init(&h);
  const char *files[] = {
      FAT_TREE, FL_SOURCE_DIR "/fabrics/fat-tree-3tier.ibnetdiscover",
      FL_SOURCE_DIR "/fabrics/rail-su-asbuilt.ibnetdiscover",
      FL_SOURCE_DIR "/tests/fixtures/ibsim-faults/rates.asbuilt.ibnetdiscover"};
  for (size_t k = 0; k < sizeof files / sizeof files[0]; k++) {
    fl_fabric *f = load(files[k]);
    fl_view v;
    assert_int_equal(fl_view_build(&v, &h.api, f), 0);
    assert_int_equal(fl_view_minimal(&v), 0);
    check_rows(&v);
    fl_view_free(&v);
    fl_fabric_free(f);
  }
  const uint32_t ft[][4] = {{8, 3, 0, 1}, {8, 3, 0, 2}, {12, 3, 70, 1}};
  for (size_t k = 0; k < 3; k++) {
    fl_gen_fat_tree_params p;
    memset(&p, 0, sizeof p);
    p.radix = ft[k][0], p.tiers = ft[k][1], p.hosts = ft[k][2];
    p.parallel = ft[k][3];
    fl_fabric *f = NULL;
    fl_error err;
    fl_error_clear(&err);
    assert_int_equal(fl_gen_fat_tree(&p, &f, &err), FL_OK);
    fl_view v;
    assert_int_equal(fl_view_build(&v, &h.api, f), 0);
    uint32_t *rep = malloc(v.nd * sizeof *rep);
    assert_int_equal(fl_view_twins(&v, rep), 0);
    uint32_t classes = 0;
    for (uint32_t d = 0; d < v.nd; d++)
      classes += rep[d] == d;
    if (k < 2) /* 8 pods of 4 leaves; 4 pods of 2 with cables in pairs */
      assert_int_equal(classes, k == 0 ? 8 : 4);
    free(rep);
    assert_int_equal(fl_view_minimal(&v), 0);
    check_rows(&v);
    fl_view_free(&v);
    fl_fabric_free(f);
  }
  fl_host_free(&h);
}

/* fl_view_minimal_compact() on generated and repository fabrics: the
 * nested ones (fat trees full, partial, with parallel cables; rail SUs;
 * the ibsim and as-built dumps whose cables all join adjacent tiers) give
 * classes that agree with the matrix everywhere; the others (a leaf-to-leaf
 * cable, a ring, the SHARP ANs and NICs of the topograph dump, two planes)
 * get the matrix. */
static void test_compact(void **state) {
  (void)state;
  fl_host h;
  fl_host_init(&h);
  const char *files[] = {
      FAT_TREE,
      FL_SOURCE_DIR "/fabrics/fat-tree-3tier.ibnetdiscover",
      FL_SOURCE_DIR "/fabrics/rail-su.ibnetdiscover",
      FL_SOURCE_DIR "/fabrics/rail-su-asbuilt.ibnetdiscover",
      FL_SOURCE_DIR "/tests/fixtures/ibsim-faults/rates.asbuilt.ibnetdiscover",
      FL_SOURCE_DIR "/tests/fixtures/routing/"
                    "fat-tree-3tier-extra-leaf-link-minhop/fabric.net",
      TOPOGRAPH};
  uint32_t nested = 0;
  for (size_t k = 0; k < sizeof files / sizeof files[0]; k++) {
    fl_fabric *f = load(files[k]);
    int got = check_compact(&h, f);
    if (got != (k < 5))
      fail_msg("%s: nested %d, expected %d", files[k], got, k < 5);
    nested += (uint32_t)got;
    fl_fabric_free(f);
  }
  const uint32_t ft[][5] = {{8, 2, 0, 1, 0},  {8, 3, 0, 1, 0},
                            {8, 3, 0, 2, 0},  {12, 3, 70, 1, 0},
                            {8, 3, 16, 1, 0}, {8, 3, 0, 1, 1}};
  fl_error err;
  fl_error_clear(&err);
  for (size_t k = 0; k < sizeof ft / sizeof ft[0]; k++) {
    fl_gen_fat_tree_params p;
    memset(&p, 0, sizeof p);
    p.radix = ft[k][0], p.tiers = ft[k][1], p.hosts = ft[k][2];
    p.parallel = ft[k][3], p.extra_leaf_link = ft[k][4];
    fl_fabric *f = NULL;
    assert_int_equal(fl_gen_fat_tree(&p, &f, &err), FL_OK);
    assert_int_equal(check_compact(&h, f), !ft[k][4]);
    if (k == 0) { /* two planes of it: two top covers */
      fl_fabric *two = NULL;
      assert_int_equal(fl_gen_planes(f, 2, &two, &err), FL_OK);
      assert_int_equal(check_compact(&h, two), 0);
      fl_fabric_free(two);
    }
    fl_fabric_free(f);
  }
  fl_gen_torus_params tp;
  memset(&tp, 0, sizeof tp);
  tp.x = 4, tp.y = 1, tp.hosts_per_switch = 1;
  fl_fabric *f = NULL;
  assert_int_equal(fl_gen_torus(&tp, &f, &err), FL_OK);
  assert_int_equal(check_compact(&h, f), 0);
  fl_fabric_free(f);
  assert_int_equal(nested, 5);
  fl_host_free(&h);
}

int main(void) {
  const char *const need[] = {TOPOGRAPH, NULL};
  int rc = need_external(need);
  if (rc)
    return rc;
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_twin_rows), cmocka_unit_test(test_tier_dir),
      cmocka_unit_test(test_fat_tree),  cmocka_unit_test(test_nics_and_sharp),
      cmocka_unit_test(test_compact),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
