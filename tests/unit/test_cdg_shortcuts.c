/* SPDX-License-Identifier: MIT */
/*
 * tests/unit/test_cdg_shortcuts.c — the design-mode shortcuts of the
 * routing analysis (issue 19): twin root switches (analysis/twins.h) and
 * the up*-down* certificate that replaces the cycle search. The shortcut
 * analysis must give the same report as the exhaustive one (every root
 * walked, Tarjan run) in every field but the time, on generated fat trees
 * (full, partial, parallel cables, a leaf-to-leaf cable that gives minhop
 * credit loops), rail SUs, rings and tori, and on the repository's fabrics
 * (ibsim dumps, as-built with same-tier cables), for every engine and both
 * traffic classes.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "analysis/cdg_ref.h"
#include "analysis/swview.h"
#include "analysis/twins.h"
#include "fabriclint/cdg.h"
#include "fabriclint/fabric.h"
#include "fabriclint/gen.h"
#include "fabriclint/load.h"
#include "fabriclint/view.h"
#include "fabriclint/write.h"
#include "host/host.h"

#include "cdg_same.h"
#include "tmpdir.h"
#include "view_compact.h"

/* Twin classes of a hand-made switch graph. Switches 0-3 rank 1, 4-6 rank
 * 2. Slots (2 per switch): 0: {4, 5}, 1: {5, 4}, 2: {4, 6}, 3: {4, 5},
 * 4: {0, 2}, 5: {1, 3}, 6: {2, 6 (itself)}. 0, 1 and 3 are twins (same
 * neighbours in any order); 2 is alone; 6 is cabled to itself. */
static void test_twin_classes(void **state) {
  (void)state;
  const int32_t peer[14] = {4, 5, 5, 4, 4, 6, 4, 5, 0, 2, 1, 3, 2, 6};
  uint32_t lo[7], hi[7];
  for (uint32_t s = 0; s < 7; s++)
    lo[s] = 2 * s, hi[s] = 2 * s + 2;
  const uint32_t rank[7] = {1, 1, 1, 1, 2, 2, 2};
  const uint8_t all[7] = {1, 1, 1, 1, 1, 1, 1};
  fl_twins t;
  assert_int_equal(fl_twins_find(&t, 7, lo, hi, peer, rank, all, 0, 10), 0);
  const uint32_t rep[7] = {0, 0, 2, 0, 4, 5, 6};
  for (uint32_t s = 0; s < 7; s++)
    assert_int_equal(t.rep[s], rep[s]);
  assert_int_equal(t.n_store, 1);
  assert_int_equal(t.store[0], 0);
  for (uint32_t s = 1; s < 7; s++)
    assert_int_equal(t.store[s], FL_TWIN_NONE);
  fl_twins_free(&t);
  /* not a candidate: 1 is left out, 0 and 3 stay twins */
  const uint8_t some[7] = {1, 0, 1, 1, 1, 1, 1};
  assert_int_equal(fl_twins_find(&t, 7, lo, hi, peer, rank, some, 0, 10), 0);
  assert_int_equal(t.rep[1], 1);
  assert_int_equal(t.rep[3], 0);
  fl_twins_free(&t);
  /* a neighbour of the same rank breaks the symmetry of the up/down
   * order: with switch 5 at rank 1, 0, 1 and 3 are no twins (unless
   * ranks are not compared) */
  const uint32_t rank5[7] = {1, 1, 1, 1, 2, 1, 2};
  assert_int_equal(fl_twins_find(&t, 7, lo, hi, peer, rank5, all, 0, 10), 0);
  assert_int_equal(t.rep[1], 1);
  assert_int_equal(t.rep[3], 3);
  assert_int_equal(t.n_store, 0);
  fl_twins_free(&t);
  assert_int_equal(fl_twins_find(&t, 7, lo, hi, peer, rank5, all, 1, 10), 0);
  assert_int_equal(t.rep[3], 0);
  fl_twins_free(&t);
  /* no storage: classes found, none stored */
  assert_int_equal(fl_twins_find(&t, 7, lo, hi, peer, rank, all, 0, 0), 0);
  assert_int_equal(t.rep[3], 0);
  assert_int_equal(t.n_store, 0);
  assert_int_equal(t.store[0], FL_TWIN_NONE);
  fl_twins_free(&t);
}

typedef struct tally {
  uint32_t runs, looped, unrouted, closed;
} tally;

/* Every engine and traffic class on @f: shortcut == exhaustive. */
static void compare_all(const fl_fabric *f, tally *t) {
  for (uint32_t e = FL_CDG_ENGINE_MINHOP; e <= FL_CDG_ENGINE_FTREE; e++)
    for (uint32_t tr = FL_CDG_TRAFFIC_CA; tr <= FL_CDG_TRAFFIC_ALL; tr++) {
      fl_cdg_options o;
      memset(&o, 0, sizeof o);
      o.struct_size = sizeof o;
      o.routing = FL_CDG_ROUTING_MINIMAL;
      o.engine = e;
      o.traffic = tr;
      const fl_cdg_report *fast = NULL, *full = NULL;
      o.threads = 1;
      int closed = -1;
      assert_int_equal(fl_cdg_analyze_closed(f, &o, &closed, &fast), FL_OK);
      assert_true(closed == 0 || closed == 1);
      assert_int_equal(fl_cdg_analyze_exhaustive(f, &o, &full), FL_OK);
      same_report(fast, full);
      /* the roots dealt to 2 or 3 threads (twin classes kept together,
       * one shared table lowered to the first root's DLID): the same */
      for (uint32_t th = 2; th <= 3; th++) {
        const fl_cdg_report *par = NULL, *par_full = NULL;
        o.threads = th;
        assert_int_equal(fl_cdg_analyze(f, &o, &par), FL_OK);
        assert_int_equal(fl_cdg_analyze_exhaustive(f, &o, &par_full), FL_OK);
        same_report(fast, par);
        same_report(fast, par_full);
        fl_cdg_free(par);
        fl_cdg_free(par_full);
      }
      t->runs++;
      t->looped += fast->n_loops > 0;
      t->unrouted += fast->unrouted_pairs > 0;
      t->closed += (uint32_t)closed;
      fl_cdg_free(fast);
      fl_cdg_free(full);
    }
}

static fl_fabric *fat_tree(uint32_t radix, uint32_t tiers, uint32_t hosts,
                           uint32_t parallel, uint32_t extra) {
  fl_gen_fat_tree_params p;
  memset(&p, 0, sizeof p);
  p.radix = radix, p.tiers = tiers, p.hosts = hosts, p.parallel = parallel;
  p.extra_leaf_link = extra;
  fl_fabric *f = NULL;
  fl_error err;
  fl_error_clear(&err);
  assert_int_equal(fl_gen_fat_tree(&p, &f, &err), FL_OK);
  return f;
}

/* The counts of the closed form (analysis/updown.h) on a run of CA
 * traffic, by hand: a radix-8 2-tier tree (8 leaves, 4 spines) turns
 * 8 x 8 - 8 times at each spine (leaf to another leaf), 224 in all, out of
 * the 32 leaf-to-spine channels; the radix-8 3-tier tree (8 pods of 4
 * leaves and 4 spines, 16 cores) 2 x 4 x 4 + 4 x 4 - 4 = 44 times at each
 * of 32 spines and 8 x 8 - 8 = 56 at each of 16 cores: 2,304 out of 384
 * channels (8 per spine, 8 per core). */
static void test_closed_counts(void **state) {
  (void)state;
  const uint32_t ft[][4] = {{8, 2, 224, 32}, {8, 3, 2304, 384}};
  for (size_t i = 0; i < 2; i++) {
    fl_fabric *f = fat_tree(ft[i][0], ft[i][1], 0, 1, 0);
    for (uint32_t e = FL_CDG_ENGINE_MINHOP; e <= FL_CDG_ENGINE_FTREE; e++) {
      fl_cdg_options o;
      memset(&o, 0, sizeof o);
      o.struct_size = sizeof o;
      o.routing = FL_CDG_ROUTING_MINIMAL;
      o.engine = e;
      const fl_cdg_report *r = NULL;
      int closed = -1;
      assert_int_equal(fl_cdg_analyze_closed(f, &o, &closed, &r), FL_OK);
      assert_int_equal(closed, 1);
      assert_int_equal(r->dependencies, ft[i][2]);
      assert_int_equal(r->channels, ft[i][3]);
      assert_int_equal(r->destinations, ft[i][1] == 2 ? 8 : 32);
      assert_int_equal(r->n_loops, 0);
      assert_int_equal(r->valley_count, 0);
      assert_int_equal(r->unrouted_pairs, 0);
      fl_cdg_free(r);
    }
    fl_fabric_free(f);
  }
}

/* A radix-8 3-tier tree's design XML with the @n_drop cable lines that
 * contain @drop left out and the cable lines @add added. Port 9 is spare
 * (the model takes ports past the radix, as gen's extra leaf cable). */
static fl_fabric *edited_tree(const char *name, const char *drop, size_t n_drop,
                              const char *add) {
  fl_fabric *g = fat_tree(8, 3, 0, 1, 0);
  char *xml = NULL;
  size_t len = 0;
  FILE *m = open_memstream(&xml, &len);
  assert_non_null(m);
  fl_error err;
  fl_error_clear(&err);
  assert_int_equal(fl_write_design_xml(g, m, &err), FL_OK);
  assert_int_equal(fclose(m), 0);
  fl_fabric_free(g);
  char *out = malloc(len + strlen(add) + 1), *o = out;
  assert_non_null(out);
  size_t dropped = 0;
  for (char *line = xml; *line;) {
    char *end = strchr(line, '\n');
    end = end ? end + 1 : line + strlen(line);
    size_t n = (size_t)(end - line);
    char was = *end;
    *end = 0; /* the line alone, for strstr() */
    int keep = !drop || !strstr(line, drop);
    *end = was;
    dropped += !keep;
    if (!strncmp(line, "</fabric>", 9))
      o = memcpy(o, add, strlen(add)), o += strlen(add);
    if (keep)
      memcpy(o, line, n), o += n;
    line = end;
  }
  *o = 0;
  assert_int_equal(dropped, n_drop);
  const char *path = fixture(name, out);
  free(out), free(xml);
  fl_fabric *f = fl_fabric_new();
  if (fl_fabric_load(f, path, FL_FMT_AUTO, NULL, &err) != FL_OK ||
      fl_fabric_finalize(f, &err) != FL_OK)
    fail_msg("%s: %s", path, err.message);
  return f;
}

#define LINK(a, ap, b, bp)                                                     \
  "  <link a=\"" a "\" a-port=\"" ap "\" b=\"" b "\" b-port=\"" bp             \
  "\" width=\"4x\" speed=\"NDR\"/>\n"

/* The view of @f (fabriclint/view.h) in compact form against its matrix,
 * entry by entry and group by group (view_compact.h); 1 when it built
 * cover classes. */
static int same_view(const fl_fabric *f) {
  fl_host h;
  fl_host_init(&h);
  int nested = check_compact(&h, f);
  fl_host_free(&h);
  return nested;
}

/* Near misses of the closed form's class (analysis/updown.h) on the
 * radix-8 3-tier tree, each with shortcut == exhaustive for every engine
 * and traffic class: three stay in the class (a second leaf-spine cable; a
 * spine cabled to a core of another group, since every core covers every
 * leaf; a pod without hosts), the others leave it by one defect each and
 * are walked. */
static void test_closed_class(void **state) {
  (void)state;
  const struct {
    const char *name, *drop;
    size_t n_drop;
    const char *add;
    uint32_t closed; /* runs of 3 engines x 2 traffic classes */
  } v[] = {
      {"parallel.xml", NULL, 0, LINK("leaf-p01-01", "9", "spine-p01-01", "9"),
       3},
      {"cross-group.xml", NULL, 0, LINK("spine-p01-01", "9", "core-005", "9"),
       3},
      /* pod 8 without hosts: its spines turn nothing, though sources
       * outside and cores above them exist */
      {"pod-no-hosts.xml", "b=\"leaf-p08-0", 16, "", 3},
      /* leaf-p01-01 port 5 cabled twice (to spine 1 and spine 2): each
       * end sees only its port's first cable, so spine 2 has a channel to
       * the leaf and the leaf none back */
      {"port-twice.xml", NULL, 0, LINK("leaf-p01-01", "5", "spine-p01-02", "9"),
       0},
      /* a storage host on a spine: CA traffic enters above the leaves
       * (and the view's destinations include a spine) */
      {"host-on-spine.xml", NULL, 0,
       "  <node kind=\"ca\" name=\"store mlx5_0\" guid=\"0x0002c903ffff0001\" "
       "ports=\"1\" system=\"store\" device=\"mlx5_0\">\n"
       "    <port num=\"1\" guid=\"0x0002c903ffff0002\" lid=\"999\"/>\n"
       "  </node>\n" LINK("store mlx5_0", "1", "spine-p01-01", "9"),
       0},
      {"missing-cable.xml", "a=\"leaf-p01-01\" a-port=\"5\"", 1, "", 0},
      {"leaf-two-pods.xml", NULL, 0,
       LINK("leaf-p01-01", "9", "spine-p02-01", "9"), 0},
      /* spine-p02-02 over leaf-p01-01 instead of leaf-p02-01: its four
       * leaves are as many as a pod's, but of two pods */
      {"spine-two-pods.xml", "a=\"leaf-p02-01\" a-port=\"6\"", 1,
       LINK("leaf-p01-01", "9", "spine-p02-02", "1"), 0},
      {"spine-spine.xml", NULL, 0,
       LINK("spine-p01-01", "9", "spine-p01-02", "9"), 0},
      {"leaf-core.xml", NULL, 0, LINK("leaf-p01-01", "9", "core-001", "9"), 0},
      {"core-short.xml", "a=\"spine-p01-01\" a-port=\"5\"", 1, "", 0},
      {"core-bare.xml", "b=\"core-001\"", 8, "", 0},
      {"leaf-alone.xml", "a=\"leaf-p01-01\" a-port=\"", 4, "", 0},
  };
  for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
    fl_fabric *f = edited_tree(v[i].name, v[i].drop, v[i].n_drop, v[i].add);
    tally t = {0, 0, 0, 0};
    compare_all(f, &t);
    if (t.closed != v[i].closed)
      fail_msg("%s: %u runs in closed form, expected %u", v[i].name, t.closed,
               v[i].closed);
    /* the view's cover classes (fabriclint/view.h) judge alike */
    if (same_view(f) != (v[i].closed > 0))
      fail_msg("%s: the view's classes disagree", v[i].name);
    fl_fabric_free(f);
  }
  /* two planes: two top tiers that cover half the leaves each */
  fl_fabric *one = fat_tree(8, 2, 0, 1, 0), *two = NULL;
  fl_error err;
  fl_error_clear(&err);
  assert_int_equal(fl_gen_planes(one, 2, &two, &err), FL_OK);
  tally t = {0, 0, 0, 0};
  compare_all(two, &t);
  assert_int_equal(t.closed, 0);
  assert_int_equal(t.unrouted, 6);
  assert_int_equal(same_view(two), 0);
  fl_fabric_free(one);
  fl_fabric_free(two);
}

/* Generated fabrics. Where minhop has credit loops the certificate fails
 * and the full search runs; partial trees leave pods with fewer leaves
 * (classes of other sizes) and some leaves without hosts. */
static void test_generated(void **state) {
  (void)state;
  tally t = {0, 0, 0, 0};
  const uint32_t ft[][5] = {
      {8, 2, 0, 1, 0},    {8, 3, 0, 1, 0},  {8, 3, 0, 1, 1},
      {12, 3, 100, 1, 0}, {8, 2, 0, 2, 0},  {12, 3, 0, 2, 1},
      {16, 3, 0, 1, 0},   {8, 3, 37, 1, 1}, {8, 3, 16, 1, 0}};
  for (size_t i = 0; i < sizeof ft / sizeof ft[0]; i++) {
    fl_fabric *f = fat_tree(ft[i][0], ft[i][1], ft[i][2], ft[i][3], ft[i][4]);
    compare_all(f, &t);
    fl_fabric_free(f);
  }
  fl_gen_rail_su_params rp;
  memset(&rp, 0, sizeof rp);
  rp.sus = 2, rp.hosts_per_su = 8, rp.rails = 4, rp.leaf_radix = 16;
  fl_fabric *f = NULL;
  fl_error err;
  fl_error_clear(&err);
  assert_int_equal(fl_gen_rail_su(&rp, &f, &err), FL_OK);
  compare_all(f, &t);
  fl_fabric_free(f);
  /* a ring of 4: switches 0 and 2 (1 and 3) share both neighbours, of
   * their own tier: twins for minhop, not for updn (GUID order) */
  const uint32_t tor[][3] = {{6, 1, 2}, {4, 3, 1}, {3, 3, 2}, {4, 1, 1}};
  for (size_t i = 0; i < 4; i++) {
    fl_gen_torus_params tp;
    memset(&tp, 0, sizeof tp);
    tp.x = tor[i][0], tp.y = tor[i][1], tp.hosts_per_switch = tor[i][2];
    f = NULL;
    assert_int_equal(fl_gen_torus(&tp, &f, &err), FL_OK);
    compare_all(f, &t);
    fl_fabric_free(f);
  }
  assert_int_equal(t.runs, 14 * 3 * 2);
  /* minhop loops: with CA traffic on the 3 extra-leaf-link trees and the 3
   * rings/tori; with switch traffic too (valleys between switches) on all
   * 13; updn and ftree never loop */
  assert_int_equal(t.looped, 7 + 14);
  /* unrouted: updn and ftree with switch traffic on the 9 Clos fabrics
   * (top-tier switches are reached by no down path), ftree on the 4
   * rings/tori with both classes (it uses no same-tier cable) */
  assert_int_equal(t.unrouted, 10 * 2 + 4 * 2);
  /* closed form (CA traffic, 3 engines): the 6 Clos trees without the
   * extra leaf cable and the rail SUs; not the 3 with it, nor the rings.
   * The last tree's hosts fill pod 1 only: its spines cover every source,
   * so they turn nothing up although they have cores above them. */
  assert_int_equal(t.closed, 7 * 3);
}

static const char *const FILES[] = {
    "fabrics/fat-tree-2tier.ibnetdiscover",
    "fabrics/fat-tree-3tier.ibnetdiscover",
    "fabrics/rail-su.ibnetdiscover",
    "fabrics/rail-su-asbuilt.ibnetdiscover",
    "tests/fixtures/routing/fat-tree-3tier-extra-leaf-link-minhop/fabric.net",
    "tests/fixtures/ibsim-faults/rates.asbuilt.ibnetdiscover",
    "tests/fixtures/ibsim-faults/rail-split.ibnetdiscover",
};

static void test_repository_fabrics(void **state) {
  (void)state;
  tally t = {0, 0, 0, 0};
  for (size_t i = 0; i < sizeof FILES / sizeof FILES[0]; i++) {
    char path[512];
    snprintf(path, sizeof path, "%s/%s", FL_SOURCE_DIR, FILES[i]);
    fl_fabric *f = fl_fabric_new();
    fl_error err;
    fl_error_clear(&err);
    if (fl_fabric_load(f, path, FL_FMT_AUTO, NULL, &err) != FL_OK ||
        fl_fabric_finalize(f, &err) != FL_OK)
      fail_msg("%s: %s", path, err.message);
    compare_all(f, &t);
    fl_fabric_free(f);
  }
  assert_int_equal(t.runs, 7 * 3 * 2);
  /* the same split as above, counted on these files: loops under minhop
   * (switch traffic everywhere, CA traffic with the extra leaf cable),
   * unrouted pairs under updn/ftree with switch traffic */
  assert_int_equal(t.looped, 8);
  assert_int_equal(t.unrouted, 14);
  /* closed form (CA traffic, 3 engines) on all but the extra-leaf-cable
   * tree: the as-built files' cables all join adjacent tiers */
  assert_int_equal(t.closed, 6 * 3);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_twin_classes),
      cmocka_unit_test(test_generated),
      cmocka_unit_test(test_repository_fabrics),
      cmocka_unit_test(test_closed_counts),
      cmocka_unit_test(test_closed_class),
  };
  return cmocka_run_group_tests(tests, setup_all, teardown_all);
}
