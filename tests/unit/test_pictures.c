/* SPDX-License-Identifier: MIT */
/*
 * tests/unit/test_pictures.c — the parts of the pictures (core/report/pic_*,
 * docs/pictures.md) that need no layout: element ids, natural order, the
 * --view parser, the scene's id map and classes, the findings as marks,
 * and the tier scene of a real ibsim dump (fabrics/rail-su-asbuilt) with
 * findings made here: what is drawn alone, folded, bundled and coloured.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "fabriclint/fabric.h"
#include "fabriclint/load.h"
#include "host/findings.h"
#include "report/pic_scene.h"
#include "report/pic_view.h"
#include "report/picture.h"
#include "util/natcmp.h"

static void test_ids(void **state) {
  (void)state;
  char b[PIC_ID_MAX];
  assert_string_equal(pic_id(b, sizeof b, "node-", "dgx-001 mlx5_0"),
                      "node-dgx-001+mlx5_0");
  assert_string_equal(pic_id(b, sizeof b, "node-", "a~b%c+d/\xc3\xa9."),
                      "node-a%7Eb%25c%2Bd%2F%C3%A9.");
  /* ends ordered by name, then by port number */
  assert_string_equal(
      pic_id_link(b, sizeof b, "spine-01", 17, "leaf-su01-r2", 33),
      "link-leaf-su01-r2~33~spine-01~17");
  assert_string_equal(
      pic_id_link(b, sizeof b, "leaf-su01-r2", 33, "spine-01", 17),
      "link-leaf-su01-r2~33~spine-01~17");
  assert_string_equal(pic_id_link(b, sizeof b, "sw", 9, "sw", 2),
                      "link-sw~2~sw~9");
  assert_string_equal(pic_id_pair(b, sizeof b, "swap-", "h 2", "h 1"),
                      "swap-h+1~h+2");
  /* cut at the buffer, still terminated */
  char small[8];
  assert_string_equal(pic_id(small, sizeof small, "node-", "abcdef"),
                      "node-ab");
}

/* The distance behind every "did you mean" hint (options, policy keys,
 * annotation keys, rule ids). */
static void test_edit_distance(void **state) {
  (void)state;
  assert_int_equal(fl_edit_distance("radix", "radix", 3), 0);
  assert_int_equal(fl_edit_distance("radx", "radix", 3), 1);   /* insert */
  assert_int_equal(fl_edit_distance("raddix", "radix", 3), 1); /* delete */
  assert_int_equal(fl_edit_distance("radox", "radix", 3), 1);  /* change */
  assert_int_equal(fl_edit_distance("rdaix", "radix", 3), 1);  /* swap */
  assert_int_equal(fl_edit_distance("ca", "abc", 99), 3);      /* OSA */
  assert_int_equal(fl_edit_distance("", "tiers", 99), 5);
  assert_int_equal(fl_edit_distance("kitten", "sitting", 99), 3);
  assert_int_equal(fl_edit_distance("kitten", "sitting", 2), 2); /* capped */
  char longer[FL_EDIT_MAX_LEN + 2];
  memset(longer, 'a', sizeof longer - 1);
  longer[sizeof longer - 1] = '\0';
  assert_int_equal(fl_edit_distance(longer, longer, 7), 7); /* too long */
  assert_int_equal(fl_edit_distance(longer + 1, longer + 1, 7), 0);
}

static void test_natcmp(void **state) {
  (void)state;
  assert_true(fl_natcmp("mlx5_9", "mlx5_10") < 0);
  assert_true(fl_natcmp("mlx5_10", "mlx5_9") > 0);
  assert_true(fl_natcmp("leaf-2", "leaf-10") < 0);
  assert_true(fl_natcmp("leaf-su01-r7", "leaf-su02-r0") < 0);
  assert_int_equal(fl_natcmp("dgx-001", "dgx-001"), 0);
  assert_true(fl_natcmp("a", "b") < 0);
  assert_true(fl_natcmp("ab", "a") > 0);
  assert_int_equal(fl_natcmp("x007", "x7"), 0); /* same number */
}

static void test_views_parse(void **state) {
  (void)state;
  uint32_t v[FL_VIEW_MAX];
  size_t n = 0;
  char msg[256];
  assert_int_equal(
      fl_views_parse("rails,tiers,load", 0, v, &n, msg, sizeof msg), 0);
  assert_int_equal(n, 3);
  assert_int_equal(v[0], FL_VIEW_RAILS);
  assert_int_equal(v[1], FL_VIEW_TIERS);
  assert_int_equal(v[2], FL_VIEW_LOAD);
  assert_int_equal(fl_views_parse("diff", 1, v, &n, msg, sizeof msg), 0);
  assert_int_equal(n, 1);
  assert_int_equal(fl_views_parse("diff", 0, v, &n, msg, sizeof msg), -1);
  assert_non_null(strstr(msg, "drawn by `fabriclint diff`"));
  assert_int_equal(fl_views_parse("tiers", 1, v, &n, msg, sizeof msg), -1);
  assert_int_equal(fl_views_parse("tier", 0, v, &n, msg, sizeof msg), -1);
  assert_non_null(strstr(msg, "got 'tier'"));
  assert_int_equal(fl_views_parse("load,load", 0, v, &n, msg, sizeof msg), -1);
  assert_non_null(strstr(msg, "listed twice"));
  assert_int_equal(fl_views_parse("", 0, v, &n, msg, sizeof msg), -1);
  assert_string_equal(fl_view_name(FL_VIEW_DOMAINS), "domains");
}

static void test_scene(void **state) {
  (void)state;
  pic_scene s;
  pic_scene_init(&s);
  int added = 0;
  uint32_t a = pic_scene_node(&s, "node-x", PIC_SHAPE_SWITCH, &added);
  assert_int_equal(added, 1);
  uint32_t b = pic_scene_node(&s, "node-x", PIC_SHAPE_HOST, &added);
  assert_int_equal(added, 0);
  assert_int_equal(a, b);
  assert_int_equal(s.nodes[a].shape, PIC_SHAPE_SWITCH);
  assert_int_equal(pic_scene_find(&s, "node-x"), a);
  assert_int_equal(pic_scene_find(&s, "node-y"), PIC_NONE);
  char *cls = NULL;
  for (uint32_t f = 1; f <= 40; f++) {
    cls = pic_cls_add(&s, cls, f);
    cls = pic_cls_add(&s, cls, f); /* a finding once */
  }
  assert_string_equal(cls, "f1 f2 f3 f4 f5 f6 f7 f8 f9 f10 f11 f12 f13 f14 "
                           "f15 f16");
  assert_string_equal(pic_cls_add(&s, "f12 f1", 1), "f12 f1");
  assert_string_equal(pic_cls_add(&s, "f12", 1), "f12 f1");
  pic_scene_free(&s);
  assert_int_equal(s.n_nodes, 0);
}

/* ---- marks and the tier scene of a real dump
 * ---------------------------------
 */

static fl_fabric *load_asbuilt(void) {
  fl_error err;
  fl_error_clear(&err);
  fl_fabric *f = fl_fabric_new();
  assert_non_null(f);
  assert_int_equal(
      fl_fabric_load(f, FL_SOURCE_DIR "/fabrics/rail-su-asbuilt.ibnetdiscover",
                     FL_FMT_AUTO, NULL, &err),
      FL_OK);
  assert_int_equal(fl_fabric_finalize(f, &err), FL_OK);
  return f;
}

/* A finding of @rule at @sev naming @nn nodes and the @np ports of @pn/@pp. */
static void add(fl_findings *fs, const char *rule, uint32_t sev,
                const char *const *nodes, uint32_t nn, const char *const *pn,
                const uint32_t *pp, uint32_t np) {
  fl_finding_rec r;
  memset(&r, 0, sizeof r);
  r.rule = strdup(rule);
  r.severity = sev;
  r.message = strdup("message");
  r.key = strdup(rule);
  r.nodes = calloc(nn + 1, sizeof *r.nodes);
  for (uint32_t i = 0; i < nn; i++)
    r.nodes[i] = strdup(nodes[i]);
  r.n_nodes = nn;
  r.ports = calloc(np + 1, sizeof *r.ports);
  for (uint32_t i = 0; i < np; i++)
    r.ports[i] = (fl_port_name){strdup(pn[i]), pp[i], NULL};
  r.n_ports = np;
  assert_int_equal(fl_findings_push(fs, &r), 0);
}

static const pic_node *node(const pic_scene *s, const char *id) {
  uint32_t i = pic_scene_find(s, id);
  assert_int_not_equal(i, PIC_NONE);
  return &s->nodes[i];
}

static const pic_edge *edge(const pic_scene *s, const char *id) {
  for (size_t i = 0; i < s->n_edges; i++)
    if (strcmp(s->edges[i].id, id) == 0)
      return &s->edges[i];
  fail_msg("no edge %s", id);
  return NULL;
}

static void test_marks_and_tiers(void **state) {
  (void)state;
  fl_fabric *f = load_asbuilt();
  fl_findings fs = {0};
  static const char *const ONEX_N[] = {"leaf-su01-r2", "spine-01"};
  static const uint32_t ONEX_P[] = {33, 17};
  static const char *const NIC[] = {"dgx-001 mlx5_0"};
  static const uint32_t ONE[] = {1};
  static const char *const GHOST[] = {"no-such-node"};
  add(&fs, "t.onex", FL_SEV_WARNING, NULL, 0, ONEX_N, ONEX_P, 2);
  add(&fs, "t.nic", FL_SEV_ERROR, NIC, 1, NULL, NULL, 0);
  add(&fs, "t.ghost", FL_SEV_ERROR, GHOST, 1, GHOST, ONE, 1);
  add(&fs, "t.waived", FL_SEV_ERROR, ONEX_N, 2, NULL, NULL, 0);
  fs.v[3].waived = 1; /* set aside: marks nothing */

  pic_marks m;
  assert_int_equal(pic_marks_build(&m, f, NULL, &fs), 0);
  assert_int_equal(m.marked_links, 1); /* the 1x cable only */
  assert_int_equal(m.marked_nodes, 3); /* its two switches and the NIC */
  fl_id leaf = fl_fabric_find_node_name(f, "leaf-su01-r2");
  assert_int_equal(m.node_sev[leaf], FL_SEV_WARNING);
  assert_int_equal(m.node_off[leaf + 1] - m.node_off[leaf], 1);
  assert_int_equal(m.node_f[m.node_off[leaf]], 1);
  fl_id nic = fl_fabric_find_node_name(f, "dgx-001 mlx5_0");
  assert_int_equal(m.node_sev[nic], FL_SEV_ERROR);
  pic_marks_free(&m);

  fl_fabric_counts counts;
  fl_fabric_counts_of(f, &counts);
  fl_report_picture pic;
  memset(&pic, 0, sizeof pic);
  pic.fab = f;
  pic.views[0] = FL_VIEW_TIERS;
  pic.n_views = 1;
  fl_report_input in;
  memset(&in, 0, sizeof in);
  in.fs = &fs;
  in.counts = &counts;
  in.picture = &pic;
  pic_scene s;
  pic_scene_init(&s);
  assert_int_equal(pic_build_view(&s, &in, FL_VIEW_TIERS), 0);
  /* 12 switches and the named NIC alone, the other CAs in 8 hosts nodes */
  assert_int_equal(s.n_nodes, 12 + 1 + 8);
  assert_int_equal(node(&s, "node-spine-01")->rank, 2);
  assert_int_equal(node(&s, "node-leaf-su01-r2")->rank, 1);
  assert_int_equal(node(&s, "node-leaf-su01-r2")->sev, FL_SEV_WARNING);
  assert_string_equal(node(&s, "node-leaf-su01-r2")->cls, "f1");
  assert_int_equal(node(&s, "node-dgx-001+mlx5_0")->sev, FL_SEV_ERROR);
  assert_int_equal(node(&s, "node-dgx-001+mlx5_0")->rank, 0);
  assert_string_equal(node(&s, "hosts-leaf-su01-r1")->label, "31 hosts");
  assert_string_equal(node(&s, "hosts-leaf-su01-r0")->label, "32 hosts");
  assert_int_equal(node(&s, "node-leaf-su01-r3")->sev, 0);
  const pic_edge *e = edge(&s, "link-leaf-su01-r2~33~spine-01~17");
  assert_int_equal(e->sev, FL_SEV_WARNING);
  assert_string_equal(e->label, "17 - 33, 1xHDR");
  assert_int_equal(e->a, pic_scene_find(&s, "node-spine-01")); /* from above */
  assert_string_equal(edge(&s, "bundle-node-leaf-su01-r2~node-spine-01")->label,
                      "x7");
  assert_string_equal(edge(&s, "bundle-node-leaf-su01-r3~node-spine-01")->label,
                      "x8");
  assert_int_equal(edge(&s, "bundle-node-leaf-su01-r3~node-spine-01")->sev, 0);
  /* the NIC's cable was named by nothing: it joins no bundle, it is alone
   * only because its NIC is */
  assert_int_equal(s.n_notes, 3); /* active findings listed */
  assert_int_equal(s.notes[0].finding, 1);
  pic_scene_free(&s);

  /* --focus spine-01: the spine, the leaf its finding names with it, and
   * their cable neighbours: 4 spines, 8 leaves, that leaf's hosts */
  pic.focus = "spine-01";
  pic_scene_init(&s);
  assert_int_equal(pic_build_view(&s, &in, FL_VIEW_TIERS), 0);
  assert_int_equal(s.n_nodes, 13);
  assert_int_not_equal(pic_scene_find(&s, "hosts-leaf-su01-r2"), PIC_NONE);
  assert_int_equal(pic_scene_find(&s, "hosts-leaf-su01-r3"), PIC_NONE);
  pic_scene_free(&s);
  /* --focus spine-03 (no finding): the spine and its 8 leaves */
  pic.focus = "spine-03";
  pic_scene_init(&s);
  assert_int_equal(pic_build_view(&s, &in, FL_VIEW_TIERS), 0);
  assert_int_equal(s.n_nodes, 9);
  assert_int_equal(pic_scene_find(&s, "node-spine-02"), PIC_NONE);
  assert_int_equal(pic_scene_find(&s, "hosts-leaf-su01-r0"), PIC_NONE);
  assert_int_not_equal(pic_scene_find(&s, "node-leaf-su01-r7"), PIC_NONE);
  size_t bundles = 0;
  for (size_t i = 0; i < s.n_edges; i++)
    bundles += strncmp(s.edges[i].id, "bundle-", 7) == 0;
  assert_int_equal(bundles, 8);
  pic_scene_free(&s);
  fl_findings_free(&fs);
  fl_fabric_free(f);
}

/* Which CAs are drawn alone: findings naming at most
 * PIC_ALONE_PER_FINDING of them, while PIC_MAX_EXPAND last. */
static void test_alone_budget(void **state) {
  (void)state;
  fl_fabric *f = load_asbuilt();
  static const char *const DEV[] = {"mlx5_0", "mlx5_3", "mlx5_4",  "mlx5_5",
                                    "mlx5_6", "mlx5_9", "mlx5_10", "mlx5_11"};
  char name[9][32];
  const char *v[9];
  fl_findings fs = {0};
  /* 9 NICs in one finding: too many to draw alone */
  for (int i = 0; i < 8; i++)
    snprintf(name[i], sizeof name[i], "dgx-002 %s", DEV[i]);
  snprintf(name[8], sizeof name[8], "dgx-003 mlx5_0");
  for (int i = 0; i < 9; i++)
    v[i] = name[i];
  add(&fs, "t.nine", FL_SEV_ERROR, v, 9, NULL, NULL, 0);
  /* three findings of 8 NICs each: 24, the whole budget */
  char hosts[3][8][32];
  for (int h = 0; h < 3; h++) {
    const char *w[8];
    for (int i = 0; i < 8; i++) {
      snprintf(hosts[h][i], sizeof hosts[h][i], "dgx-01%d %s", h, DEV[i]);
      w[i] = hosts[h][i];
    }
    add(&fs, "t.eight", FL_SEV_WARNING, w, 8, NULL, NULL, 0);
  }
  static const char *const LAST[] = {"dgx-020 mlx5_0"};
  add(&fs, "t.one", FL_SEV_INFO, LAST, 1, NULL, NULL, 0);
  fl_report_picture pic;
  memset(&pic, 0, sizeof pic);
  pic.fab = f;
  fl_report_input in;
  memset(&in, 0, sizeof in);
  in.fs = &fs;
  in.picture = &pic;
  pic_ctx c;
  assert_int_equal(pic_ctx_init(&c, &in, f), 0);
  uint32_t alone = 0;
  for (fl_id n = 0; n < fl_fabric_node_count(f); n++)
    alone += c.alone[n];
  assert_int_equal(alone, 24);
  assert_int_equal(c.alone[fl_fabric_find_node_name(f, "dgx-002 mlx5_0")], 0);
  assert_int_equal(c.alone[fl_fabric_find_node_name(f, "dgx-003 mlx5_0")], 0);
  assert_int_equal(c.alone[fl_fabric_find_node_name(f, "dgx-010 mlx5_0")], 1);
  assert_int_equal(c.alone[fl_fabric_find_node_name(f, "dgx-012 mlx5_11")], 1);
  assert_int_equal(c.alone[fl_fabric_find_node_name(f, "dgx-020 mlx5_0")], 0);
  /* home switches: a NIC's leaf, none for a switch */
  assert_int_equal(c.home[fl_fabric_find_node_name(f, "dgx-010 mlx5_3")],
                   fl_fabric_find_node_name(f, "leaf-su01-r1"));
  assert_int_equal(c.home[fl_fabric_find_node_name(f, "spine-01")], FL_NONE);
  pic_ctx_free(&c);
  fl_findings_free(&fs);
  fl_fabric_free(f);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_ids),
      cmocka_unit_test(test_natcmp),
      cmocka_unit_test(test_edit_distance),
      cmocka_unit_test(test_views_parse),
      cmocka_unit_test(test_scene),
      cmocka_unit_test(test_marks_and_tiers),
      cmocka_unit_test(test_alone_budget),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
