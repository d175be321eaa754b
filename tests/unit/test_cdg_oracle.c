/* SPDX-License-Identifier: MIT */
/*
 * tests/unit/test_cdg_oracle.c — the exhaustive channel-dependency analysis
 * (core/analysis/cdg_ref.h: every root walked, Tarjan always run) as the
 * oracle of the fast paths on real routing (issue 31). The up*-down*
 * certificate also judges real LFTs; a wrong down-up test there reports a
 * credit loop as clean, so:
 *  - every LFT fixture of the repository (OpenSM dumps of ibsim fabrics:
 *    tests/fixtures/routing*, mpi, ns3; the one-directional 3-rings of
 *    tests/routing/make_one_way.sh, made with OpenSM's file engine) is
 *    analysed both ways, VL-blind and VL-aware when SL2VL is loaded, CA and
 *    switch traffic, 1 and 2 threads: the reports must be the same;
 *  - generated one-directional loops: rings and tori routed in one
 *    direction only (dimension order, +x then +y, and the mirror: -x then
 *    -y), and fat trees with an extra leaf cable routed by shortest paths
 *    (lowest or highest port on ties), written as text in the exact format
 *    of OpenSM's opensm-lfts.dump (osm_dump.c dump_ucast_lfts) and loaded
 *    through the real loader: the same, and every ring/torus has its loops.
 * The design-mode version (generated fabrics, minimal routing models) is
 * tests/unit/test_cdg_shortcuts.c.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "analysis/cdg_ref.h"
#include "fabriclint/cdg.h"
#include "fabriclint/fabric.h"
#include "fabriclint/gen.h"
#include "fabriclint/load.h"
#include "fabriclint/routing.h"
#include "fabriclint/write.h"

#include "cdg_same.h"
#include "tmpdir.h"

static fl_fabric *load(const char *const *paths, size_t n) {
  fl_fabric *f = fl_fabric_new();
  fl_error err;
  fl_error_clear(&err);
  for (size_t i = 0; i < n; i++)
    if (fl_fabric_load(f, paths[i], FL_FMT_AUTO, NULL, &err) != FL_OK)
      fail_msg("%s: %s", paths[i], err.message);
  if (fl_fabric_finalize(f, &err) != FL_OK)
    fail_msg("%s: %s", paths[0], err.message);
  return f;
}

/* Fast == exhaustive on the loaded LFTs of @f, for each VL mode that
 * applies, both traffic classes and 1 or 2 threads; returns the loops of
 * the VL-blind analysis of CA traffic. */
static uint32_t compare_lft(const fl_fabric *f, int has_sl2vl) {
  uint32_t loops = UINT32_MAX;
  for (uint32_t vl = FL_CDG_VL_BLIND; vl <= FL_CDG_VL_AWARE; vl++) {
    if (vl == FL_CDG_VL_AWARE && !has_sl2vl)
      continue;
    for (uint32_t tr = FL_CDG_TRAFFIC_CA; tr <= FL_CDG_TRAFFIC_ALL; tr++)
      for (uint32_t th = 1; th <= 2; th++) {
        fl_cdg_options o;
        memset(&o, 0, sizeof o);
        o.struct_size = sizeof o;
        o.routing = FL_CDG_ROUTING_LFT;
        o.vl_mode = vl;
        o.traffic = tr;
        o.threads = th;
        const fl_cdg_report *fast = NULL, *full = NULL;
        assert_int_equal(fl_cdg_analyze(f, &o, &fast), FL_OK);
        assert_int_equal(fl_cdg_analyze_exhaustive(f, &o, &full), FL_OK);
        assert_int_equal(fast->routing, FL_CDG_ROUTING_LFT);
        same_report(fast, full);
        if (vl == FL_CDG_VL_BLIND && tr == FL_CDG_TRAFFIC_CA && th == 1)
          loops = fast->n_loops;
        fl_cdg_free(fast);
        fl_cdg_free(full);
      }
  }
  return loops;
}

/* The repository's LFT fixtures: topology, LFT dump, SL2VL dump (or
 * NULL), and the VL-blind credit loops of CA traffic (ibdmchk's verdicts
 * where tests/fixtures/routing/<x>/engine.txt has one). */
static const struct {
  const char *topo, *lfts, *sl2vl;
  uint32_t loops;
} LFT_FIXTURES[] = {
#define R(x)                                                                   \
  "tests/fixtures/routing/" x "/topology.ibnetdiscover",                       \
      "tests/fixtures/routing/" x "/opensm-lfts.dump"
#define RV(x) R(x), "tests/fixtures/routing/" x "/opensm-sl2vl.dump"
    {R("ring3-one-way-cw"), NULL, 1},
    {R("ring3-one-way-ccw"), NULL, 1},
    {R("ring-minhop"), NULL, 2},
    {R("torus-minhop"), NULL, 1},
    {R("fat-tree-2tier-ftree"), NULL, 0},
    {R("fat-tree-2tier-updn"), NULL, 0},
    {R("fat-tree-3tier-ftree"), NULL, 0},
    {R("fat-tree-3tier-updn"), NULL, 0},
    {R("fat-tree-extra-leaf-link-minhop"), NULL, 0},
    {R("fat-tree-3tier-extra-leaf-link-minhop"), NULL, 2},
    {R("fat-tree-3tier-extra-leaf-link-updn"), NULL, 0},
    {R("fat-tree-3tier-extra-leaf-link-ftree"), NULL, 0},
    {RV("ring-lash"), 2},
    {RV("ring-dfsssp"), 2},
    {RV("ring-nue"), 2},
    {RV("ring-torus-2QoS"), 2},
    {RV("torus-torus-2QoS"), 0},
    {"tests/fixtures/routing-balance/topology-minhop.ibnetdiscover",
     "tests/fixtures/routing-balance/minhop-lfts.dump", NULL, 0},
    {"tests/fixtures/routing-balance/topology-ftree.ibnetdiscover",
     "tests/fixtures/routing-balance/ftree-lfts.dump", NULL, 0},
    {"tests/fixtures/routing-loaders/minhop/topo.ibnetdiscover",
     "tests/fixtures/routing-loaders/minhop/opensm-lfts.dump", NULL, 0},
    {"tests/fixtures/routing-loaders/lash-qos/topo.ibnetdiscover",
     "tests/fixtures/routing-loaders/lash-qos/opensm-lfts.dump",
     "tests/fixtures/routing-loaders/lash-qos/opensm-sl2vl.dump", 0},
    {"tests/fixtures/mpi/fattree12-ftree/topology.ibnetdiscover",
     "tests/fixtures/mpi/fattree12-ftree/opensm-lfts.dump", NULL, 0},
    {"tests/fixtures/mpi/ring8-minhop/topology.ibnetdiscover",
     "tests/fixtures/mpi/ring8-minhop/opensm-lfts.dump", NULL, 2},
    {"tests/fixtures/ns3/ft16/topology.ibnetdiscover",
     "tests/fixtures/ns3/ft16/opensm-lfts.dump", NULL, 0},
    {"tests/fixtures/ns3/ft16/topology.ibnetdiscover",
     "tests/fixtures/ns3/ft16/opensm-lfts-collision.dump", NULL, 0},
    {"tests/fixtures/ns3/ft32/topology.ibnetdiscover",
     "tests/fixtures/ns3/ft32/opensm-lfts.dump", NULL, 0},
#undef R
#undef RV
};

static void test_lft_fixtures(void **state) {
  (void)state;
  for (size_t i = 0; i < sizeof LFT_FIXTURES / sizeof LFT_FIXTURES[0]; i++) {
    char p[3][512];
    const char *paths[3] = {p[0], p[1], p[2]};
    snprintf(p[0], sizeof p[0], "%s/%s", FL_SOURCE_DIR, LFT_FIXTURES[i].topo);
    snprintf(p[1], sizeof p[1], "%s/%s", FL_SOURCE_DIR, LFT_FIXTURES[i].lfts);
    size_t n = 2;
    if (LFT_FIXTURES[i].sl2vl)
      snprintf(p[n++], sizeof p[2], "%s/%s", FL_SOURCE_DIR,
               LFT_FIXTURES[i].sl2vl);
    fl_fabric *f = load(paths, n);
    uint32_t loops = compare_lft(f, LFT_FIXTURES[i].sl2vl != NULL);
    if (loops != LFT_FIXTURES[i].loops)
      fail_msg("%s: %u VL-blind loops, expected %u", LFT_FIXTURES[i].lfts,
               loops, LFT_FIXTURES[i].loops);
    fl_fabric_free(f);
  }
}

/* ---- generated routing, written as opensm-lfts.dump text ---------------
 */

/* How a generated fabric is routed. */
enum { ONE_WAY_PLUS, ONE_WAY_MINUS, SHORTEST_LOW, SHORTEST_HIGH };

typedef struct gen_net {
  const fl_fabric *f;
  uint32_t n;     /* nodes */
  uint32_t X, Y;  /* torus size (one-way routing) */
  uint32_t *att;  /* [n] the switch a CA is cabled to (switch: itself) */
  uint32_t *dist; /* [n] hops to the current target switch (BFS) */
} gen_net;

/* Node at the other end of @port's first cable, FL_NONE when none. */
static fl_id peer_node(const fl_fabric *f, fl_id port, uint32_t *peer_port) {
  if (fl_fabric_port_link_count(f, port) == 0)
    return FL_NONE;
  fl_id l = fl_fabric_port_link(f, port, 0);
  fl_id o = fl_fabric_link_other(f, l, port);
  if (peer_port)
    *peer_port = fl_fabric_port_num(f, o);
  return fl_fabric_port_node(f, o);
}

/* Torus index of generated switch @s (its GUID: base + i + j*X + 1). */
static uint32_t torus_index(const fl_fabric *f, fl_id s) {
  return (uint32_t)(fl_fabric_node_guid(f, s) - FL_GEN_SWITCH_GUID_BASE - 1);
}

/* BFS hop counts from switch @t over switch-to-switch cables. */
static void bfs(gen_net *g, fl_id t) {
  const fl_fabric *f = g->f;
  uint32_t *q = malloc(g->n * sizeof *q);
  assert_non_null(q);
  for (uint32_t v = 0; v < g->n; v++)
    g->dist[v] = UINT32_MAX;
  size_t head = 0, tail = 0;
  g->dist[t] = 0, q[tail++] = t;
  while (head < tail) {
    fl_id v = q[head++];
    fl_id p0 = fl_fabric_node_first_port(f, v);
    for (uint32_t k = 0; k < fl_fabric_node_port_count(f, v); k++) {
      fl_id w = peer_node(f, p0 + k, NULL);
      if (w == FL_NONE || fl_fabric_node_kind(f, w) != FL_NODE_SWITCH ||
          g->dist[w] != UINT32_MAX)
        continue;
      g->dist[w] = g->dist[v] + 1, q[tail++] = w;
    }
  }
  free(q);
}

/* The output port of switch @s toward switch @t (@t != @s). */
static uint32_t next_port(const gen_net *g, fl_id s, fl_id t, int how) {
  const fl_fabric *f = g->f;
  fl_id want = FL_NONE;
  if (how == ONE_WAY_PLUS || how == ONE_WAY_MINUS) {
    uint32_t a = torus_index(f, s), b = torus_index(f, t);
    uint32_t i = a % g->X, j = a / g->X, step = how == ONE_WAY_PLUS ? 1 : 0;
    if (i != b % g->X)
      i = step ? (i + 1) % g->X : (i + g->X - 1) % g->X;
    else
      j = step ? (j + 1) % g->Y : (j + g->Y - 1) % g->Y;
    want = fl_fabric_find_node_guid(f, FL_GEN_SWITCH_GUID_BASE + i +
                                           (uint64_t)j * g->X + 1);
    assert_int_not_equal(want, FL_NONE);
  }
  uint32_t best = 0;
  fl_id p0 = fl_fabric_node_first_port(f, s);
  for (uint32_t k = 0; k < fl_fabric_node_port_count(f, s); k++) {
    fl_id w = peer_node(f, p0 + k, NULL);
    if (w == FL_NONE || fl_fabric_node_kind(f, w) != FL_NODE_SWITCH)
      continue;
    int ok = want != FL_NONE ? w == want : g->dist[w] + 1 == g->dist[s];
    if (!ok)
      continue;
    uint32_t num = fl_fabric_port_num(f, p0 + k);
    if (!best || (how == SHORTEST_HIGH ? num > best : num < best))
      best = num;
  }
  assert_true(best > 0);
  return best;
}

/* The LID of node @v (a switch's port 0, a CA's first port) or 0. */
static uint32_t node_lid(const fl_fabric *f, fl_id v) {
  fl_id p0 = fl_fabric_node_first_port(f, v);
  uint32_t n = fl_fabric_node_port_count(f, v);
  return n ? fl_fabric_port_lid(f, p0) : 0;
}

/* @f's LFTs routed as @how, written as OpenSM writes opensm-lfts.dump
 * (osm_dump.c dump_ucast_lfts: header, "0x%04x %03u # <kind> portguid
 * 0x%016lx: '<desc>'" per routed LID, "N lids dumped"). */
static const char *write_lfts(gen_net *g, const char *name, int how) {
  const fl_fabric *f = g->f;
  uint32_t max_lid = 0;
  for (uint32_t v = 0; v < g->n; v++)
    if (node_lid(f, v) > max_lid)
      max_lid = node_lid(f, v);
  fl_id *by_lid = calloc(max_lid + 1, sizeof *by_lid);
  assert_non_null(by_lid);
  for (uint32_t l = 0; l <= max_lid; l++)
    by_lid[l] = FL_NONE;
  for (uint32_t v = 0; v < g->n; v++)
    if (node_lid(f, v))
      by_lid[node_lid(f, v)] = v;
  char *text = NULL;
  size_t len = 0;
  FILE *m = open_memstream(&text, &len);
  assert_non_null(m);
  for (uint32_t s = 0; s < g->n; s++) {
    if (fl_fabric_node_kind(f, s) != FL_NODE_SWITCH)
      continue;
    fprintf(m, "Unicast lids [0-%u] of switch Lid %u guid 0x%016llx ('%s'):\n",
            max_lid, node_lid(f, s),
            (unsigned long long)fl_fabric_node_guid(f, s),
            fl_fabric_node_name(f, s));
    uint32_t dumped = 0;
    for (uint32_t lid = 1; lid <= max_lid; lid++) {
      fl_id v = by_lid[lid];
      if (v == FL_NONE)
        continue;
      uint32_t port = 0;
      int is_sw = fl_fabric_node_kind(f, v) == FL_NODE_SWITCH;
      if (v != s && g->att[v] == s) { /* a CA of this switch */
        peer_node(f, fl_fabric_node_first_port(f, v), &port);
      } else if (v != s) {
        if (how == SHORTEST_LOW || how == SHORTEST_HIGH)
          bfs(g, g->att[v]);
        port = next_port(g, s, g->att[v], how);
      }
      fprintf(m, "0x%04x %03u # %s portguid 0x%016llx: '%s'\n", lid, port,
              is_sw ? "Switch" : "Channel Adapter",
              (unsigned long long)fl_fabric_port_guid(
                  f, fl_fabric_node_first_port(f, v)),
              fl_fabric_node_name(f, v));
      dumped++;
    }
    fprintf(m, "%u lids dumped\n", dumped);
  }
  assert_int_equal(fclose(m), 0);
  free(by_lid);
  const char *path = fixture(name, text);
  free(text);
  return path;
}

/* @gen's fabric with its LFTs routed as @how, through the loaders: its
 * ibnetdiscover text and its opensm-lfts.dump text; returns the VL-blind
 * loops of CA traffic (fast == exhaustive checked). */
static uint32_t routed_loops(const fl_fabric *gen, uint32_t X, uint32_t Y,
                             int how) {
  gen_net g = {gen, fl_fabric_node_count(gen), X, Y, NULL, NULL};
  g.att = malloc(g.n * sizeof *g.att);
  g.dist = malloc(g.n * sizeof *g.dist);
  assert_non_null(g.att);
  assert_non_null(g.dist);
  for (uint32_t v = 0; v < g.n; v++) {
    g.att[v] = v;
    if (fl_fabric_node_kind(gen, v) == FL_NODE_CA) {
      fl_id s = peer_node(gen, fl_fabric_node_first_port(gen, v), NULL);
      assert_int_not_equal(s, FL_NONE);
      g.att[v] = s;
    }
  }
  char *text = NULL;
  size_t len = 0;
  FILE *m = open_memstream(&text, &len);
  assert_non_null(m);
  fl_error err;
  fl_error_clear(&err);
  assert_int_equal(fl_write_ibnetdiscover(gen, m, &err), FL_OK);
  assert_int_equal(fclose(m), 0);
  const char *paths[2];
  static char topo[512];
  snprintf(topo, sizeof topo, "%s", fixture("gen.ibnetdiscover", text));
  free(text);
  paths[0] = topo;
  paths[1] = write_lfts(&g, "gen-lfts.dump", how);
  fl_fabric *f = load(paths, 2);
  assert_int_equal(fl_fabric_lft_count(f),
                   fl_fabric_count_kind(f, FL_NODE_SWITCH));
  uint32_t loops = compare_lft(f, 0);
  fl_fabric_free(f);
  free(g.att);
  free(g.dist);
  return loops;
}

/* Rings and tori routed one way (dimension order, every hop +x until the
 * column is reached, then +y; or the mirror image): each ring of 3 or more
 * switches that some route crosses by 2 or more hops is a credit loop, in
 * either orientation. Loops per torus: one per row when X >= 3 plus one per
 * column when Y >= 3 (a row's and a column's channels are never in one
 * cycle: no route turns from y back to x). */
static void test_one_way_tori(void **state) {
  (void)state;
  const uint32_t t[][4] = {
      /* X, Y, hosts per switch, loops */
      {3, 1, 1, 1}, {4, 1, 1, 1}, {5, 1, 2, 1},
      {3, 3, 1, 6}, {4, 3, 1, 7}, {4, 2, 1, 2},
  };
  for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
    fl_gen_torus_params p;
    memset(&p, 0, sizeof p);
    p.x = t[i][0], p.y = t[i][1], p.hosts_per_switch = t[i][2];
    fl_fabric *f = NULL;
    fl_error err;
    fl_error_clear(&err);
    assert_int_equal(fl_gen_torus(&p, &f, &err), FL_OK);
    for (int how = ONE_WAY_PLUS; how <= ONE_WAY_MINUS; how++) {
      uint32_t loops = routed_loops(f, p.x, p.y, how);
      if (loops != t[i][3])
        fail_msg("%ux%u torus routed %s: %u loops, expected %u", p.x, p.y,
                 how == ONE_WAY_PLUS ? "+x+y" : "-x-y", loops, t[i][3]);
    }
    fl_fabric_free(f);
  }
}

/* Fat trees with an extra leaf-to-leaf cable (fabriclint gen
 * --extra-leaf-link), routed by shortest paths with the lowest or the
 * highest port on ties (minhop's LFTs make credit loops through such a
 * cable: tests/fixtures/routing/fat-tree-3tier-extra-leaf-link-minhop), and
 * the same trees without the cable (no loop either way). */
static void test_shortest_fat_trees(void **state) {
  (void)state;
  const uint32_t ft[][5] = {
      /* radix, tiers, hosts, extra cable, loops (either tie-break): as
       * OpenSM's minhop on the same trees (routing/ fixtures) */
      {8, 2, 0, 1, 0},
      {8, 3, 0, 1, 2},
      {8, 3, 0, 0, 0},
      {8, 2, 0, 0, 0}};
  uint32_t looped = 0;
  for (size_t i = 0; i < sizeof ft / sizeof ft[0]; i++) {
    fl_gen_fat_tree_params p;
    memset(&p, 0, sizeof p);
    p.radix = ft[i][0], p.tiers = ft[i][1], p.hosts = ft[i][2], p.parallel = 1;
    p.extra_leaf_link = ft[i][3];
    fl_fabric *f = NULL;
    fl_error err;
    fl_error_clear(&err);
    assert_int_equal(fl_gen_fat_tree(&p, &f, &err), FL_OK);
    for (int how = SHORTEST_LOW; how <= SHORTEST_HIGH; how++) {
      uint32_t loops = routed_loops(f, 0, 0, how);
      if (loops != ft[i][4])
        fail_msg("radix-%u %u-tier tree%s, %s port on ties: %u loops, "
                 "expected %u",
                 p.radix, p.tiers, ft[i][3] ? " + leaf cable" : "",
                 how == SHORTEST_LOW ? "lowest" : "highest", loops, ft[i][4]);
      looped += loops > 0;
    }
    fl_fabric_free(f);
  }
  assert_int_equal(looped, 2);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_lft_fixtures),
      cmocka_unit_test(test_one_way_tori),
      cmocka_unit_test(test_shortest_fat_trees),
  };
  return cmocka_run_group_tests(tests, setup_all, teardown_all);
}
