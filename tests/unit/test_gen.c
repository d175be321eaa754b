/* SPDX-License-Identifier: MIT */
/*
 * tests/unit/test_gen.c — the topology generators (core/gen.c) and the
 * ibsim net writer (core/ibsim_write.c).
 *
 * The counts are the formulas of fabriclint/gen.h evaluated by hand, so a
 * change of shape shows up here as a changed number, not only as a changed
 * fixture: fat trees of radix 4 and 8 in 2 and 3 tiers, the radix-64
 * three-tier tree of DESIGN.md §8 (65,536 hosts, 5,120 switches, 196,608
 * links), DGX SuperPOD rail-optimised SUs (RA Table 4 spine counts), the
 * DGX H100 HCA-to-rail map, rings and 2-D tori (wraparound cabling, port
 * plan, GUIDs that tests/routing/make_fixtures.sh relies on for its
 * torus-2QoS seeds), the fat tree's extra leaf-to-leaf cable, and every
 * parameter error.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "build.h"
#include "fabriclint/gen.h"
#include "fabriclint/write.h"

/* ---- helpers ------------------------------------------------------------- */

static fl_fabric *fat_tree(uint32_t radix, uint32_t tiers, uint32_t hosts,
                           uint32_t parallel) {
  fl_gen_fat_tree_params p = {0};
  fl_error err;
  fl_fabric *fab = NULL;
  fl_error_clear(&err);
  p.radix = radix;
  p.tiers = tiers;
  p.hosts = hosts;
  p.parallel = parallel;
  int rc = fl_gen_fat_tree(&p, &fab, &err);
  if (rc != FL_OK)
    fprintf(stderr, "fl_gen_fat_tree: %s\n", err.message);
  assert_int_equal(rc, FL_OK);
  assert_non_null(fab);
  return fab;
}

static fl_fabric *rail_su(uint32_t sus, uint32_t hosts_per_su) {
  fl_gen_rail_su_params p = {0};
  fl_error err;
  fl_fabric *fab = NULL;
  fl_error_clear(&err);
  p.sus = sus;
  p.hosts_per_su = hosts_per_su;
  int rc = fl_gen_rail_su(&p, &fab, &err);
  if (rc != FL_OK)
    fprintf(stderr, "fl_gen_rail_su: %s\n", err.message);
  assert_int_equal(rc, FL_OK);
  assert_non_null(fab);
  return fab;
}

static void assert_counts(const fl_fabric *fab, uint32_t cas, uint32_t sws,
                          uint32_t links) {
  assert_int_equal(fl_fabric_count_kind(fab, FL_NODE_CA), cas);
  assert_int_equal(fl_fabric_count_kind(fab, FL_NODE_SWITCH), sws);
  assert_int_equal(fl_fabric_count_kind(fab, FL_NODE_ROUTER), 0);
  assert_int_equal(fl_fabric_node_count(fab), cas + sws);
  assert_int_equal(fl_fabric_link_count(fab), links);
}

static fl_id node(const fl_fabric *fab, const char *name) {
  fl_id n = fl_fabric_find_node_name(fab, name);
  if (n == FL_NONE)
    fprintf(stderr, "no node named '%s'\n", name);
  assert_int_not_equal(n, FL_NONE);
  return n;
}

/** Name and port number of the peer of port @num of node @name. */
static const char *peer(const fl_fabric *fab, const char *name, uint32_t num,
                        uint32_t *peer_port) {
  fl_id p = fl_fabric_find_port(fab, node(fab, name), num);
  assert_int_not_equal(p, FL_NONE);
  assert_int_equal(fl_fabric_port_link_count(fab, p), 1);
  fl_id q = fl_fabric_link_other(fab, fl_fabric_port_link(fab, p, 0), p);
  assert_int_not_equal(q, FL_NONE);
  *peer_port = fl_fabric_port_num(fab, q);
  return fl_fabric_node_name(fab, fl_fabric_port_node(fab, q));
}

static void assert_peer(const fl_fabric *fab, const char *name, uint32_t num,
                        const char *want, uint32_t want_port) {
  uint32_t got_port;
  assert_string_equal(peer(fab, name, num, &got_port), want);
  assert_int_equal(got_port, want_port);
}

static const char *attr(const fl_fabric *fab, const char *name,
                        const char *key) {
  const char *v = fl_fabric_attr(fab, FL_ENT_NODE, node(fab, name), key);
  return v ? v : "(none)";
}

/** Cables between nodes @a and @b. */
static uint32_t cables_between(const fl_fabric *fab, fl_id a, fl_id b) {
  uint32_t n = 0;
  fl_id first = fl_fabric_node_first_port(fab, a);
  for (uint32_t i = 0; i < fl_fabric_node_port_count(fab, a); i++) {
    fl_id p = first + i;
    for (uint32_t j = 0; j < fl_fabric_port_link_count(fab, p); j++) {
      fl_id q = fl_fabric_link_other(fab, fl_fabric_port_link(fab, p, j), p);
      if (fl_fabric_port_node(fab, q) == b)
        n++;
    }
  }
  return n;
}

static char *ibsim_text(const fl_fabric *fab) {
  char *buf = NULL;
  size_t len = 0;
  fl_error err;
  fl_error_clear(&err);
  FILE *f = open_memstream(&buf, &len);
  assert_non_null(f);
  assert_int_equal(fl_write_ibsim_net(fab, f, &err), FL_OK);
  fclose(f);
  return buf;
}

/* ---- fat trees ----------------------------------------------------------- */

static void ft_radix4_2tier(void **state) {
  (void)state;
  fl_fabric *fab = fat_tree(4, 2, 0, 0);
  /* k leaves of k/2 hosts, k/2 spines: 8 hosts, 6 switches, 8 + 8 links */
  assert_counts(fab, 8, 6, 16);
  assert_peer(fab, "node0001 mlx5_0", 1, "leaf-p01-01", 1);
  assert_peer(fab, "leaf-p01-01", 3, "spine-p01-01", 1);
  assert_peer(fab, "leaf-p01-04", 4, "spine-p01-02", 4);
  assert_string_equal(attr(fab, "spine-p01-02", "tier"), "2");
  assert_string_equal(attr(fab, "leaf-p01-03", "pod"), "1");
  assert_string_equal(attr(fab, "node0008 mlx5_0", "role"), "compute");
  assert_int_equal(fl_fabric_node_tier(fab, node(fab, "node0008 mlx5_0")), 0);
  fl_id n = node(fab, "node0003 mlx5_0");
  assert_string_equal(fl_fabric_node_system(fab, n), "node0003");
  assert_string_equal(fl_fabric_node_device(fab, n), "mlx5_0");
  fl_fabric_free(fab);
}

static void ft_radix8_2tier(void **state) {
  (void)state;
  fl_fabric *fab = fat_tree(8, 2, 0, 0);
  /* 8 leaves x 4 hosts = 32, 4 spines; 32 + 8*4 links */
  assert_counts(fab, 32, 12, 64);
  assert_peer(fab, "leaf-p01-08", 8, "spine-p01-04", 8);
  assert_int_equal(fl_fabric_link_width(fab, 0), 4);
  assert_int_equal(fl_fabric_link_speed(fab, 0), FL_SPEED_NDR);
  fl_fabric_free(fab);
}

static void ft_radix4_3tier(void **state) {
  (void)state;
  fl_fabric *fab = fat_tree(4, 3, 0, 0);
  /* k³/4 = 16 hosts, 5k²/4 = 20 switches, 3k³/4 = 48 links */
  assert_counts(fab, 16, 20, 48);
  assert_string_equal(attr(fab, "core-004", "tier"), "3");
  assert_string_equal(attr(fab, "core-004", "pod"), "(none)");
  assert_string_equal(attr(fab, "leaf-p04-02", "pod"), "4");
  /* spine j of every pod goes to core group j: spine-p03-02 -> cores 3,4 */
  assert_peer(fab, "spine-p03-02", 3, "core-003", 3);
  assert_peer(fab, "spine-p03-02", 4, "core-004", 3);
  assert_peer(fab, "leaf-p02-01", 4, "spine-p02-02", 1);
  fl_fabric_free(fab);
}

static void ft_radix8_3tier(void **state) {
  (void)state;
  fl_gen_shape s;
  fl_gen_fat_tree_params p = {.radix = 8, .tiers = 3};
  assert_int_equal(fl_gen_fat_tree_shape(&p, &s, NULL), FL_OK);
  assert_int_equal(s.hosts, 128);
  assert_int_equal(s.leaves, 32);
  assert_int_equal(s.spines, 32);
  assert_int_equal(s.cores, 16);
  assert_int_equal(s.pods, 8);
  fl_fabric *fab = fat_tree(8, 3, 0, 0);
  assert_counts(fab, 128, 80, 384);
  assert_peer(fab, "node0128 mlx5_0", 1, "leaf-p08-04", 4);
  fl_fabric_free(fab);
}

static void ft_radix64_3tier(void **state) {
  (void)state;
  fl_fabric *fab = fat_tree(64, 3, 0, 0);
  assert_counts(fab, 65536, 5120, 196608);
  /* port 0 of every switch, and both ends of every cable */
  assert_int_equal(fl_fabric_port_count(fab), 5120 + 2 * 196608);
  /* LIDs run out at 0xBFFF: switches first, then CAs in order. */
  fl_id leaf1 = node(fab, "leaf-p01-01");
  assert_int_equal(fl_fabric_port_lid(fab, fl_fabric_find_port(fab, leaf1, 0)),
                   1);
  fl_id core = node(fab, "core-1024");
  assert_int_equal(fl_fabric_port_lid(fab, fl_fabric_find_port(fab, core, 0)),
                   5120);
  fl_id h1 = node(fab, "node00001 mlx5_0");
  assert_int_equal(fl_fabric_port_lid(fab, fl_fabric_find_port(fab, h1, 1)),
                   5121);
  fl_id hl = node(fab, "node65536 mlx5_0");
  assert_int_equal(fl_fabric_port_lid(fab, fl_fabric_find_port(fab, hl, 1)), 0);
  assert_int_equal(fl_fabric_node_guid(fab, h1), FL_GEN_CA_GUID_BASE + 2);
  assert_int_equal(fl_fabric_port_guid(fab, fl_fabric_find_port(fab, h1, 1)),
                   FL_GEN_CA_GUID_BASE + 3);
  assert_int_equal(fl_fabric_node_guid(fab, leaf1),
                   FL_GEN_SWITCH_GUID_BASE + 1);
  fl_fabric_free(fab);
}

static void ft_parallel_and_partial(void **state) {
  (void)state;
  /* m = 2: k/m = 4 leaves, k/(2m) = 2 spines, 2 cables per pair */
  fl_fabric *fab = fat_tree(8, 2, 0, 2);
  assert_counts(fab, 16, 6, 16 + 4 * 2 * 2);
  assert_int_equal(
      cables_between(fab, node(fab, "leaf-p01-03"), node(fab, "spine-p01-02")),
      2);
  assert_peer(fab, "leaf-p01-03", 7, "spine-p01-02", 5);
  assert_peer(fab, "leaf-p01-03", 8, "spine-p01-02", 6);
  fl_fabric_free(fab);

  /* 10 hosts on radix 8: 3 leaves (4+4+2), all 4 spines */
  fab = fat_tree(8, 2, 10, 0);
  assert_counts(fab, 10, 7, 10 + 3 * 4);
  assert_int_equal(fl_fabric_find_node_name(fab, "leaf-p01-04"), FL_NONE);
  fl_fabric_free(fab);

  /* 3 tiers, 6 hosts on radix 4: 3 leaves in 2 pods, their 4 spines, and
   * all 4 cores; every pod spine keeps its 2 core uplinks */
  fab = fat_tree(4, 3, 6, 0);
  assert_counts(fab, 6, 3 + 4 + 4, 6 + 3 * 2 + 4 * 2);
  fl_fabric_free(fab);
}

static void ft_extra_leaf_link(void **state) {
  (void)state;
  fl_gen_fat_tree_params p = {.radix = 8, .hosts = 16, .extra_leaf_link = 1};
  fl_gen_shape s;
  assert_int_equal(fl_gen_fat_tree_shape(&p, &s, NULL), FL_OK);
  assert_int_equal(s.links, 16 + 4 * 4 + 1);
  fl_fabric *fab = NULL;
  assert_int_equal(fl_gen_fat_tree(&p, &fab, NULL), FL_OK);
  /* 4 leaves of 4 hosts, 4 spines; leaf 1 port 9 <-> leaf 4 port 9 */
  assert_counts(fab, 16, 8, 33);
  assert_peer(fab, "leaf-p01-01", 9, "leaf-p01-04", 9);
  assert_int_equal(fl_fabric_node_nports(fab, node(fab, "leaf-p01-01")), 9);
  assert_int_equal(fl_fabric_node_nports(fab, node(fab, "leaf-p01-04")), 9);
  assert_int_equal(fl_fabric_node_nports(fab, node(fab, "leaf-p01-02")), 8);
  assert_int_equal(
      cables_between(fab, node(fab, "leaf-p01-01"), node(fab, "leaf-p01-04")),
      1);
  fl_fabric_free(fab);

  /* 3 tiers: first leaf of pod 1 to the last leaf of pod 4 */
  fab = NULL;
  p = (fl_gen_fat_tree_params){.radix = 4, .tiers = 3, .extra_leaf_link = 1};
  assert_int_equal(fl_gen_fat_tree(&p, &fab, NULL), FL_OK);
  assert_counts(fab, 16, 20, 49);
  assert_peer(fab, "leaf-p04-02", 5, "leaf-p01-01", 5);
  fl_fabric_free(fab);
}

/* ---- rings and tori -------------------------------------------------------
 */

static fl_fabric *torus(uint32_t x, uint32_t y, uint32_t h) {
  fl_gen_torus_params p = {.x = x, .y = y, .hosts_per_switch = h};
  fl_error err;
  fl_fabric *fab = NULL;
  fl_error_clear(&err);
  int rc = fl_gen_torus(&p, &fab, &err);
  if (rc != FL_OK)
    fprintf(stderr, "fl_gen_torus: %s\n", err.message);
  assert_int_equal(rc, FL_OK);
  assert_non_null(fab);
  return fab;
}

static void ring_6x2(void **state) {
  (void)state;
  fl_gen_torus_params p = {.x = 6, .hosts_per_switch = 2};
  fl_gen_shape s;
  assert_int_equal(fl_gen_torus_shape(&p, &s, NULL), FL_OK);
  assert_int_equal(s.switches, 6);
  assert_int_equal(s.leaves, 6);
  assert_int_equal(s.spines + s.cores + s.pods, 0);
  assert_int_equal(s.hosts, 12);
  assert_int_equal(s.host_links, 12);
  assert_int_equal(s.links, 12 + 6);
  assert_int_equal(s.lids, 18);
  fl_fabric *fab = torus(6, 0, 2); /* y = 0: the default, a ring */
  assert_counts(fab, 12, 6, 18);
  /* ports: hosts 1..2, x+ 3, x- 4; 4 ports per switch */
  assert_int_equal(fl_fabric_node_nports(fab, node(fab, "sw-x00")), 4);
  assert_peer(fab, "sw-x00", 3, "sw-x01", 4);
  assert_peer(fab, "sw-x05", 3, "sw-x00", 4); /* wraparound */
  assert_peer(fab, "sw-x00", 4, "sw-x05", 3);
  assert_peer(fab, "node0003 mlx5_0", 1, "sw-x01", 1);
  assert_peer(fab, "node0012 mlx5_0", 1, "sw-x05", 2);
  assert_string_equal(attr(fab, "sw-x04", "tier"), "1");
  assert_string_equal(attr(fab, "sw-x04", "x"), "4");
  assert_string_equal(attr(fab, "sw-x04", "y"), "0");
  assert_string_equal(attr(fab, "node0010 mlx5_0", "x"), "4");
  assert_string_equal(attr(fab, "node0010 mlx5_0", "tier"), "0");
  assert_string_equal(attr(fab, "node0010 mlx5_0", "role"), "compute");
  assert_int_equal(fl_fabric_node_tier(fab, node(fab, "sw-x02")), 1);
  assert_int_equal(fl_fabric_node_guid(fab, node(fab, "sw-x05")),
                   FL_GEN_SWITCH_GUID_BASE + 6);
  /* LIDs: switches first, then CAs */
  fl_id h = node(fab, "node0001 mlx5_0");
  assert_int_equal(fl_fabric_port_lid(fab, fl_fabric_find_port(fab, h, 1)), 7);
  fl_fabric_free(fab);
}

static void torus_4x4(void **state) {
  (void)state;
  fl_fabric *fab = torus(4, 4, 1);
  /* 16 switches, 16 CAs; 2*16 switch links + 16 host links */
  assert_counts(fab, 16, 16, 48);
  fl_id s = node(fab, "sw-x01-y02");
  assert_int_equal(fl_fabric_node_nports(fab, s), 5);
  /* switch (i, j) is node i + 4j: GUID base + i + 4j + 1 */
  assert_int_equal(fl_fabric_node_guid(fab, s), FL_GEN_SWITCH_GUID_BASE + 10);
  /* x+ port 2, x- 3, y+ 4, y- 5 */
  assert_peer(fab, "sw-x01-y02", 2, "sw-x02-y02", 3);
  assert_peer(fab, "sw-x01-y02", 3, "sw-x00-y02", 2);
  assert_peer(fab, "sw-x01-y02", 4, "sw-x01-y03", 5);
  assert_peer(fab, "sw-x01-y02", 5, "sw-x01-y01", 4);
  assert_peer(fab, "sw-x03-y03", 2, "sw-x00-y03", 3); /* x wraparound */
  assert_peer(fab, "sw-x03-y03", 4, "sw-x03-y00", 5); /* y wraparound */
  assert_peer(fab, "node0010 mlx5_0", 1, "sw-x01-y02", 1);
  assert_string_equal(attr(fab, "sw-x01-y02", "x"), "1");
  assert_string_equal(attr(fab, "sw-x01-y02", "y"), "2");
  assert_string_equal(attr(fab, "node0010 mlx5_0", "y"), "2");
  assert_int_equal(
      cables_between(fab, node(fab, "sw-x00-y00"), node(fab, "sw-x02-y00")), 0);
  fl_fabric_free(fab);

  /* a dimension of size 2: both wraparound directions join the same pair */
  fab = torus(2, 3, 2);
  assert_counts(fab, 12, 6, 12 + 12);
  assert_int_equal(
      cables_between(fab, node(fab, "sw-x00-y01"), node(fab, "sw-x01-y01")), 2);
  assert_int_equal(
      cables_between(fab, node(fab, "sw-x00-y01"), node(fab, "sw-x00-y02")), 1);
  fl_fabric_free(fab);

  fl_gen_torus_params p = {.x = 16, .y = 16, .hosts_per_switch = 4};
  fl_gen_shape sh;
  assert_int_equal(fl_gen_torus_shape(&p, &sh, NULL), FL_OK);
  assert_int_equal(sh.switches, 256);
  assert_int_equal(sh.cas, 1024);
  assert_int_equal(sh.links, 1024 + 512);
}

static void torus_ibsim(void **state) {
  (void)state;
  fl_gen_torus_params p = {
      .x = 3, .hosts_per_switch = 1, .no_lids = 1, .speed = FL_SPEED_HDR};
  fl_fabric *fab = NULL;
  assert_int_equal(fl_gen_torus(&p, &fab, NULL), FL_OK);
  char *t = ibsim_text(fab);
  assert_non_null(strstr(t,
                         "switchguid=0x2c90301000003\n"
                         "Switch\t3 \"sw-x02\"\t\t# \"sw-x02\"\n"
                         "[1]\t\"node0003 mlx5_0\"[1]\t\t# "
                         "\"node0003 mlx5_0\" lid 0 4xHDR\n"
                         "[2]\t\"sw-x00\"[3]\t\t# \"sw-x00\" lid 0 4xHDR\n"
                         "[3]\t\"sw-x01\"[2]\t\t# \"sw-x01\" lid 0 4xHDR\n"));
  assert_non_null(strstr(t, "# Simulate with: ibsim -s -N 6 -S 3 -P 15 FILE"));
  free(t);
  fl_fabric_free(fab);
}

/* ---- rail-optimised SUs -------------------------------------------------- */

static void rail_su_4x32(void **state) {
  (void)state;
  fl_fabric *fab = rail_su(4, 32);
  /* 128 DGX x 8 HCAs; 32 rail leaves + 16 spines; 1024 + 32*32 links */
  assert_counts(fab, 1024, 48, 2048);
  fl_id h = node(fab, "dgx-001 mlx5_3");
  assert_string_equal(attr(fab, "dgx-001 mlx5_3", "rail"), "1");
  assert_string_equal(attr(fab, "dgx-001 mlx5_3", "su"), "1");
  assert_string_equal(attr(fab, "dgx-001 mlx5_3", "role"), "compute");
  assert_string_equal(fl_fabric_node_system(fab, h), "dgx-001");
  assert_string_equal(fl_fabric_node_device(fab, h), "mlx5_3");
  assert_string_equal(fl_fabric_node_desc(fab, h), "dgx-001 mlx5_3");
  assert_peer(fab, "dgx-001 mlx5_3", 1, "leaf-su01-r1", 1);
  assert_string_equal(attr(fab, "leaf-su01-r1", "rail"), "1");
  assert_string_equal(attr(fab, "leaf-su01-r1", "su"), "1");
  assert_string_equal(attr(fab, "leaf-su01-r1", "tier"), "1");
  /* DGX H100 map: rails 0..7 = mlx5_0,3,4,5,6,9,10,11 */
  assert_peer(fab, "dgx-033 mlx5_11", 1, "leaf-su02-r7", 1);
  assert_peer(fab, "dgx-128 mlx5_0", 1, "leaf-su04-r0", 32);
  assert_string_equal(attr(fab, "dgx-128 mlx5_9", "rail"), "5");
  assert_int_equal(fl_fabric_find_node_name(fab, "dgx-001 mlx5_1"), FL_NONE);
  /* 32 uplinks over 16 spines: 2 cables per leaf-spine pair */
  assert_int_equal(
      cables_between(fab, node(fab, "leaf-su03-r4"), node(fab, "spine-16")), 2);
  assert_string_equal(attr(fab, "spine-16", "tier"), "2");
  fl_fabric_free(fab);
}

static void rail_su_spine_defaults(void **state) {
  (void)state;
  /* DGX H100 SuperPOD RA Table 4: 1 SU 4 spines, 2: 8, 3: 16, 4: 16 */
  const uint32_t want[5] = {0, 4, 8, 16, 16};
  for (uint32_t sus = 1; sus <= 4; sus++) {
    fl_gen_rail_su_params p = {.sus = sus};
    fl_gen_shape s;
    assert_int_equal(fl_gen_rail_su_shape(&p, &s, NULL), FL_OK);
    assert_int_equal(s.spines, want[sus]);
    assert_int_equal(s.leaves, 8 * sus);
    assert_int_equal(s.links, 2 * 256 * sus); /* 32 hosts: 1:1 */
  }
  fl_gen_rail_su_params p = {.sus = 8};
  fl_gen_shape s;
  assert_int_equal(fl_gen_rail_su_shape(&p, &s, NULL), FL_OK);
  assert_int_equal(s.spines, 32);
  assert_int_equal(s.parallel, 1);
}

static void rail_su_custom_names(void **state) {
  (void)state;
  static const char *const names[4] = {"ib0", "ib1", "ib2", "ib3"};
  fl_gen_rail_su_params p = {.sus = 2,
                             .hosts_per_su = 4,
                             .rails = 4,
                             .leaf_radix = 16,
                             .hca_names = names,
                             .host_prefix = "gpu"};
  fl_fabric *fab = NULL;
  assert_int_equal(fl_gen_rail_su(&p, &fab, NULL), FL_OK);
  assert_counts(fab, 32, 8 + 4, 32 + 8 * 8);
  assert_peer(fab, "gpu-005 ib2", 1, "leaf-su02-r2", 1);
  fl_fabric_free(fab);
  p.hca_names = NULL;
  assert_int_equal(fl_gen_rail_su(&p, &fab, NULL), FL_OK);
  assert_peer(fab, "gpu-008 mlx5_3", 1, "leaf-su02-r3", 4);
  fl_fabric_free(fab);
}

/* ---- errors -------------------------------------------------------------- */

static void expect_ft_error(fl_gen_fat_tree_params p, const char *needle) {
  fl_error err;
  fl_fabric *fab = (fl_fabric *)&err; /* must be reset to NULL */
  fl_error_clear(&err);
  assert_int_equal(fl_gen_fat_tree(&p, &fab, &err), FL_EINVAL);
  assert_null(fab);
  assert_int_equal(err.code, FL_EINVAL);
  if (!strstr(err.message, needle))
    fprintf(stderr, "message '%s' lacks '%s'\n", err.message, needle);
  assert_non_null(strstr(err.message, needle));
}

static void expect_rail_error(fl_gen_rail_su_params p, const char *needle) {
  fl_error err;
  fl_fabric *fab = NULL;
  fl_error_clear(&err);
  assert_int_equal(fl_gen_rail_su(&p, &fab, &err), FL_EINVAL);
  assert_null(fab);
  if (!strstr(err.message, needle))
    fprintf(stderr, "message '%s' lacks '%s'\n", err.message, needle);
  assert_non_null(strstr(err.message, needle));
}

static void expect_torus_error(fl_gen_torus_params p, const char *needle) {
  fl_error err;
  fl_fabric *fab = (fl_fabric *)&err; /* must be reset to NULL */
  fl_error_clear(&err);
  assert_int_equal(fl_gen_torus(&p, &fab, &err), FL_EINVAL);
  assert_null(fab);
  if (!strstr(err.message, needle))
    fprintf(stderr, "message '%s' lacks '%s'\n", err.message, needle);
  assert_non_null(strstr(err.message, needle));
}

static void param_errors(void **state) {
  (void)state;
  expect_ft_error((fl_gen_fat_tree_params){.radix = 0}, "even number");
  expect_ft_error((fl_gen_fat_tree_params){.radix = 7}, "even number");
  expect_ft_error((fl_gen_fat_tree_params){.radix = 2}, "even number");
  expect_ft_error((fl_gen_fat_tree_params){.radix = 256}, "even number");
  expect_ft_error((fl_gen_fat_tree_params){.radix = 8, .tiers = 4},
                  "tiers must be 2 or 3");
  expect_ft_error((fl_gen_fat_tree_params){.radix = 8, .hosts = 33},
                  "at most 32 hosts");
  expect_ft_error((fl_gen_fat_tree_params){.radix = 8, .parallel = 3},
                  "must divide");
  expect_ft_error((fl_gen_fat_tree_params){.radix = 8, .width = 3},
                  "link width");
  expect_ft_error((fl_gen_fat_tree_params){.radix = 8,
                                           .speed = FL_SPEED_ETH_400G,
                                           .width = 4},
                  "whole-port");
  expect_ft_error((fl_gen_fat_tree_params){.radix = 8, .speed = 99},
                  "unknown link speed");
  expect_ft_error((fl_gen_fat_tree_params){.radix = 254, .tiers = 3}, "limit");
  expect_ft_error(
      (fl_gen_fat_tree_params){.radix = 254, .hosts = 8, .extra_leaf_link = 1},
      "at most 252");
  expect_ft_error(
      (fl_gen_fat_tree_params){.radix = 8, .hosts = 4, .extra_leaf_link = 1},
      "at least 2 leaves");
  expect_ft_error((fl_gen_fat_tree_params){.radix = 8, .extra_leaf_link = 2},
                  "0 or 1");
  expect_torus_error((fl_gen_torus_params){.x = 0}, "x (switches");
  expect_torus_error((fl_gen_torus_params){.x = 1}, "x (switches");
  expect_torus_error((fl_gen_torus_params){.x = 4097}, "x (switches");
  expect_torus_error((fl_gen_torus_params){.x = 4, .y = 5000}, "y (switches");
  expect_torus_error((fl_gen_torus_params){.x = 4, .hosts_per_switch = 251},
                     "hosts per switch");
  expect_torus_error((fl_gen_torus_params){.x = 4, .width = 3}, "link width");
  expect_torus_error(
      (fl_gen_torus_params){.x = 4096, .y = 4096, .hosts_per_switch = 1},
      "limit");

  expect_rail_error((fl_gen_rail_su_params){.sus = 0}, "at least 1");
  expect_rail_error((fl_gen_rail_su_params){.sus = 1, .hosts_per_su = 33},
                    "do not fit");
  expect_rail_error((fl_gen_rail_su_params){.sus = 9}, "core tier");
  expect_rail_error((fl_gen_rail_su_params){.sus = 1, .spines = 3},
                    "divide evenly");
  expect_rail_error((fl_gen_rail_su_params){.sus = 4, .spines = 8}, "too few");
  expect_rail_error((fl_gen_rail_su_params){.sus = 1, .leaf_radix = 63},
                    "leaf radix");
  static const char *const bad[8] = {"mlx5_0", "mlx 5", "a", "b",
                                     "c",      "d",     "e", "f"};
  expect_rail_error((fl_gen_rail_su_params){.sus = 1, .hca_names = bad},
                    "rail 1");
  expect_rail_error((fl_gen_rail_su_params){.sus = 1, .host_prefix = "a#b"},
                    "host prefix");
  assert_int_equal(fl_gen_kind_parse("fat-tree"), FL_GEN_FAT_TREE);
  assert_int_equal(fl_gen_kind_parse("rail-su"), FL_GEN_RAIL_SU);
  assert_int_equal(fl_gen_kind_parse("mesh"), 0);
  assert_int_equal(fl_gen_kind_parse("torus"), FL_GEN_TORUS);
  assert_int_equal(fl_gen_kind_parse("ring"), FL_GEN_RING);
  assert_string_equal(fl_gen_kind_name(FL_GEN_RING), "ring");
  assert_string_equal(fl_gen_dgx_h100_hca(5), "mlx5_9");
  assert_null(fl_gen_dgx_h100_hca(8));
}

/* ---- ibsim net writer ---------------------------------------------------- */

static void ibsim_deterministic(void **state) {
  (void)state;
  fl_fabric *a = rail_su(1, 4), *b = rail_su(1, 4);
  char *ta = ibsim_text(a), *tb = ibsim_text(b);
  assert_string_equal(ta, tb);
  assert_non_null(strstr(ta,
                         "caguid=0x2c90302000004\n"
                         "Ca\t1 \"dgx-001 mlx5_3\"\t\t# \"dgx-001 mlx5_3\"\n"
                         "[1]\t\"leaf-su01-r1\"[1]\t\t# lid 14 lmc 0 "
                         "\"leaf-su01-r1\" lid 2 4xNDR\n"));
  assert_non_null(strstr(ta, "Switch\t64 \"leaf-su01-r1\"\t\t# "
                             "\"leaf-su01-r1\" lid 2 lmc 0\n"));
  assert_non_null(strstr(ta, "# Simulate with: ibsim -s -N 44 -S 12 -P 812"));
  free(ta);
  free(tb);
  fl_fabric_free(a);
  fl_fabric_free(b);
}

/** Duplicate names, a doubly-cabled port, a name with '#', no GUID. */
static void ibsim_awkward_inputs(void **state) {
  (void)state;
  fl_fabric *fab = fl_fabric_new();
  fl_prov pv = {0, 0, 0};
  fl_id s = fl_b_node(fab, FL_NODE_SWITCH, 0x10, 8, pv);
  fl_id c1 = fl_b_node(fab, FL_NODE_CA, 0x20, 1, pv);
  fl_id c2 = fl_b_node(fab, FL_NODE_CA, 0x20, 1, pv);
  fl_id c3 = fl_b_node(fab, FL_NODE_CA, 0, 1, pv);
  fl_b_node_set_name(fab, s, "sw#1", (size_t)-1);
  fl_b_node_set_name(fab, c1, "host mlx5_0", (size_t)-1);
  fl_b_node_set_name(fab, c2, "host mlx5_0", (size_t)-1);
  fl_b_node_set_name(fab, c3, "say \"hi\"", (size_t)-1);
  fl_b_link(fab, fl_b_port(fab, s, 1, pv), fl_b_port(fab, c1, 1, pv), 4,
            FL_SPEED_HDR, FL_LINK_DECLARED, pv);
  fl_b_link(fab, fl_b_port(fab, s, 2, pv), fl_b_port(fab, c2, 1, pv), 4,
            FL_SPEED_HDR, FL_LINK_DECLARED, pv);
  fl_b_link(fab, fl_b_port(fab, s, 3, pv), fl_b_port(fab, c3, 1, pv), 4,
            FL_SPEED_HDR, FL_LINK_DECLARED, pv);
  assert_int_equal(fl_fabric_finalize(fab, NULL), FL_OK);
  char *t = ibsim_text(fab);
  /* the switch's name has '#': synthetic id ~0; desc keeps the name */
  assert_non_null(strstr(t, "Switch\t8 \"~0\"\t\t# \"sw#1\"\n"));
  assert_non_null(strstr(t, "[1]\t\"host mlx5_0\"[1]"));
  /* second "host mlx5_0" and the quoted name get ~2, ~3 */
  assert_non_null(strstr(t, "Ca\t1 \"~2\"\t\t# \"host mlx5_0\"\n"));
  assert_non_null(strstr(t, "Ca\t1 \"~3\"\t\t# \"say 'hi'\"\n"));
  /* duplicate GUID 0x20 and GUID 0 are replaced */
  assert_non_null(strstr(t, "caguid=0x20\n"));
  assert_non_null(strstr(t, "caguid=0x2c903ff000200\n"));
  assert_non_null(strstr(t, "caguid=0x2c903ff000300\n"));
  free(t);
  fl_fabric_free(fab);
}

/* A port with two cables cannot be said in a net file (one peer per
 * port): refused naming the node and port, nothing dropped (issue #32
 * case 3; it used to be a comment and two lost cables). */
static void ibsim_refuses_double_booked(void **state) {
  (void)state;
  fl_fabric *fab = fl_fabric_new();
  fl_prov pv = {0, 0, 0};
  fl_id s = fl_b_node(fab, FL_NODE_SWITCH, 0x10, 8, pv);
  fl_id c1 = fl_b_node(fab, FL_NODE_CA, 0x20, 1, pv);
  fl_id c2 = fl_b_node(fab, FL_NODE_CA, 0x30, 1, pv);
  fl_b_node_set_name(fab, s, "sw1", (size_t)-1);
  fl_b_node_set_name(fab, c1, "h1 mlx5_0", (size_t)-1);
  fl_b_node_set_name(fab, c2, "h2 mlx5_0", (size_t)-1);
  fl_b_link(fab, fl_b_port(fab, s, 2, pv), fl_b_port(fab, c1, 1, pv), 4,
            FL_SPEED_HDR, FL_LINK_DECLARED, pv);
  fl_b_link(fab, fl_b_port(fab, s, 2, pv), fl_b_port(fab, c2, 1, pv), 4,
            FL_SPEED_HDR, FL_LINK_DECLARED, pv);
  assert_int_equal(fl_fabric_finalize(fab, NULL), FL_OK);
  char *buf = NULL;
  size_t len = 0;
  fl_error err;
  fl_error_clear(&err);
  FILE *f = open_memstream(&buf, &len);
  assert_non_null(f);
  assert_int_equal(fl_write_ibsim_net(fab, f, &err), FL_EINVAL);
  fclose(f);
  assert_int_equal(len, 0); /* nothing written */
  assert_non_null(strstr(err.message, "cannot say port 2 of \"sw1\": it "
                                      "has several cables"));
  free(buf);
  fl_fabric_free(fab);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(ft_radix4_2tier),
      cmocka_unit_test(ft_radix8_2tier),
      cmocka_unit_test(ft_radix4_3tier),
      cmocka_unit_test(ft_radix8_3tier),
      cmocka_unit_test(ft_radix64_3tier),
      cmocka_unit_test(ft_parallel_and_partial),
      cmocka_unit_test(ft_extra_leaf_link),
      cmocka_unit_test(ring_6x2),
      cmocka_unit_test(torus_4x4),
      cmocka_unit_test(torus_ibsim),
      cmocka_unit_test(rail_su_4x32),
      cmocka_unit_test(rail_su_spine_defaults),
      cmocka_unit_test(rail_su_custom_names),
      cmocka_unit_test(param_errors),
      cmocka_unit_test(ibsim_deterministic),
      cmocka_unit_test(ibsim_awkward_inputs),
      cmocka_unit_test(ibsim_refuses_double_booked),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
