/* SPDX-License-Identifier: MIT */
/*
 * tests/unit/test_annotate.c — the attribute side file loader
 * (core/annotate.c): CSV and YAML forms, the four name-matching rules,
 * unknown names (error with file:line, or a note in warn mode), content
 * detection, and malformed files.
 *
 * The topology is built with the builder API so that names, descriptions
 * and systems are exactly what each matching rule needs: a design-named
 * switch, a Mellanox "MF0;<system>:<type>" switch, and two HCAs of one host
 * known only by their node descriptions.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "tmpdir.h"

#include "build.h"
#include "fabriclint/fabric.h"
#include "fabriclint/load.h"
#include "fabriclint/routing.h"

/* leaf-01 (design name), "MF0;sw-core-7:MQM8700/U1" (description only),
 * "dgx-001 mlx5_0" and "dgx-001 mlx5_1" (descriptions only), all cabled. */
static fl_fabric *small_fabric(void) {
  fl_fabric *f = fl_fabric_new();
  assert_non_null(f);
  fl_prov pv = {fl_b_file(f, "built"), 1, 1};
  fl_id leaf = fl_b_node(f, FL_NODE_SWITCH, 0x10, 8, pv);
  fl_b_node_set_name(f, leaf, "leaf-01", (size_t)-1);
  fl_id core = fl_b_node(f, FL_NODE_SWITCH, 0x20, 8, pv);
  fl_b_node_set_desc(f, core, "MF0;sw-core-7:MQM8700/U1", (size_t)-1);
  fl_id h0 = fl_b_node(f, FL_NODE_CA, 0x30, 1, pv);
  fl_b_node_set_desc(f, h0, "dgx-001 mlx5_0", (size_t)-1);
  fl_id h1 = fl_b_node(f, FL_NODE_CA, 0x40, 1, pv);
  fl_b_node_set_desc(f, h1, "dgx-001 mlx5_1", (size_t)-1);
  fl_b_link(f, fl_b_port(f, leaf, 1, pv), fl_b_port(f, h0, 1, pv), 4,
            FL_SPEED_NDR, 0, pv);
  fl_b_link(f, fl_b_port(f, leaf, 2, pv), fl_b_port(f, h1, 1, pv), 4,
            FL_SPEED_NDR, 0, pv);
  fl_b_link(f, fl_b_port(f, leaf, 8, pv), fl_b_port(f, core, 1, pv), 4,
            FL_SPEED_NDR, 0, pv);
  return f;
}

static const char *attr(const fl_fabric *f, const char *node, const char *key) {
  fl_id n = fl_fabric_find_node_name(f, node);
  assert_int_not_equal(n, FL_NONE);
  return fl_fabric_attr(f, FL_ENT_NODE, n, key);
}

static void finalize(fl_fabric *f) {
  fl_error err;
  fl_error_clear(&err);
  assert_int_equal(fl_fabric_finalize(f, &err), FL_OK);
}

static void test_csv_matching(void **state) {
  (void)state;
  fl_fabric *f = small_fabric();
  const char *p = fixture(
      "a.csv", "# racks from the DCIM export\n"
               "node,rack,pdu,power-feed\n"
               "leaf-01,R01,A3,A\n"                 /* exact name */
               "SW-CORE-7,R09,B1,\"B\"\n"           /* system, any case */
               "dgx-001.cluster.example,R12,,B\n"); /* short host name */
  assert_int_equal(fl_detect_format(p, NULL), FL_FMT_ANNOTATIONS);
  fl_error err;
  fl_error_clear(&err);
  assert_int_equal(fl_fabric_load(f, p, FL_FMT_AUTO, NULL, &err), FL_OK);
  finalize(f);
  assert_string_equal(attr(f, "leaf-01", "rack"), "R01");
  assert_string_equal(attr(f, "leaf-01", "power-feed"), "A");
  assert_string_equal(attr(f, "MF0;sw-core-7:MQM8700/U1", "pdu"), "B1");
  assert_string_equal(attr(f, "MF0;sw-core-7:MQM8700/U1", "power-feed"), "B");
  /* a host row annotates every HCA of the host; an empty cell sets nothing */
  assert_string_equal(attr(f, "dgx-001 mlx5_0", "rack"), "R12");
  assert_string_equal(attr(f, "dgx-001 mlx5_1", "rack"), "R12");
  assert_null(attr(f, "dgx-001 mlx5_1", "pdu"));
  fl_fabric_free(f);
}

static void test_exact_before_case(void **state) {
  (void)state;
  /* an exact node name wins over the host rule: only mlx5_1 gets R2 */
  fl_fabric *f = small_fabric();
  const char *p =
      fixture("b.csv", "name;rack\ndgx-001;R1\ndgx-001 mlx5_1;R2\n");
  fl_error err;
  fl_error_clear(&err);
  assert_int_equal(fl_fabric_load(f, p, FL_FMT_ANNOTATIONS, NULL, &err), FL_OK);
  finalize(f);
  assert_string_equal(attr(f, "dgx-001 mlx5_0", "rack"), "R1");
  assert_string_equal(attr(f, "dgx-001 mlx5_1", "rack"), "R2");
  fl_fabric_free(f);
}

/* misspelt keys, duplicate columns and contradictory rows are errors naming
 * the line; x- keys are free-form */
static void test_key_checks(void **state) {
  (void)state;
  static const struct {
    const char *text;
    uint32_t line;
    const char *msg;
  } cases[] = {
      {"node,rakc\nleaf-01,R1\n", 2, "did you mean `rack`"},
      {"node,rack,rack\nleaf-01,R1,R2\n", 1, "appears twice"},
      {"node,rack\nleaf-01,R1\nleaf-01,R2\n", 3, "one value per name and key"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    fl_fabric *f = small_fabric();
    const char *p = fixture("k.csv", cases[i].text);
    fl_error err;
    fl_error_clear(&err);
    assert_int_equal(fl_fabric_load(f, p, FL_FMT_ANNOTATIONS, NULL, &err),
                     FL_EPARSE);
    assert_int_equal(err.line, cases[i].line);
    assert_non_null(strstr(err.message, cases[i].msg));
    fl_fabric_free(f);
  }
  fl_fabric *f = small_fabric();
  const char *p = fixture("x.csv", "node,x-asset,rack\nleaf-01,A7,R1\n"
                                   "leaf-01,A7,R1\n");
  fl_error err;
  fl_error_clear(&err);
  assert_int_equal(fl_fabric_load(f, p, FL_FMT_ANNOTATIONS, NULL, &err), FL_OK);
  finalize(f);
  assert_string_equal(attr(f, "leaf-01", "x-asset"), "A7");
  fl_fabric_free(f);
}

static void test_yaml(void **state) {
  (void)state;
  fl_fabric *f = small_fabric();
  const char *p = fixture("c.yaml", "nodes:\n"
                                    "  leaf-01: {rack: R01, pdu: A3}\n"
                                    "  dgx-001:\n"
                                    "    rack: R12\n"
                                    "    plane: a\n");
  assert_int_equal(fl_detect_format(p, NULL), FL_FMT_ANNOTATIONS);
  fl_error err;
  fl_error_clear(&err);
  int rc = fl_fabric_load(f, p, FL_FMT_AUTO, NULL, &err);
  if (rc != FL_OK && strstr(err.message, "need libyaml")) {
    fl_fabric_free(f);
    skip(); /* built without libyaml */
  }
  assert_int_equal(rc, FL_OK);
  const char *q = fixture("d.yaml", "unknown-nodes: warn\n"
                                    "nodes:\n"
                                    "  - name: MF0;sw-core-7:MQM8700/U1\n"
                                    "    rack: R09\n"
                                    "  - name: ghost\n"
                                    "    rack: R99\n");
  assert_int_equal(fl_fabric_load(f, q, FL_FMT_ANNOTATIONS, NULL, &err), FL_OK);
  finalize(f);
  assert_string_equal(attr(f, "leaf-01", "pdu"), "A3");
  assert_string_equal(attr(f, "dgx-001 mlx5_1", "plane"), "a");
  assert_string_equal(attr(f, "MF0;sw-core-7:MQM8700/U1", "rack"), "R09");
  /* the unknown name became a note with its line */
  assert_int_equal(fl_fabric_note_count(f), 1);
  const char *cat, *file, *msg;
  uint32_t line;
  assert_int_equal(fl_fabric_note(f, 0, &cat, &file, &line, &msg), FL_OK);
  assert_string_equal(cat, "annotations");
  assert_int_equal(line, 5);
  assert_non_null(strstr(msg, "\"ghost\""));
  fl_fabric_free(f);
}

/* The flow forms the failure-domain docs show are detected by content and
 * land on the named nodes, as the block form does; so does a file that
 * starts with a YAML document marker. */
static void test_yaml_flow_forms(void **state) {
  (void)state;
  fl_fabric *f = small_fabric();
  const char *p =
      fixture("flow-list.yaml", "nodes: [{name: leaf-01, rack: R01}, "
                                "{name: dgx-001, rack: R12, pdu: B1}]\n");
  const char *q = fixture(
      "flow-map.yaml", "# racks\n"
                       "nodes: {\"MF0;sw-core-7:MQM8700/U1\": {rack: R09}}\n");
  const char *r = fixture("marker.yaml", "---\nnodes:  # all racks\n"
                                         "  leaf-01: {row: '3'}\n");
  assert_int_equal(fl_detect_format(p, NULL), FL_FMT_ANNOTATIONS);
  assert_int_equal(fl_detect_format(q, NULL), FL_FMT_ANNOTATIONS);
  assert_int_equal(fl_detect_format(r, NULL), FL_FMT_ANNOTATIONS);
  /* a key that only starts like nodes: is not taken for the side file */
  const char *s = fixture("other.yaml", "nodesx: [1]\n");
  assert_int_equal(fl_detect_format(s, NULL), FL_FMT_AUTO);
  fl_error err;
  fl_error_clear(&err);
  assert_int_equal(fl_fabric_load(f, p, FL_FMT_AUTO, NULL, &err), FL_OK);
  assert_int_equal(fl_fabric_load(f, q, FL_FMT_AUTO, NULL, &err), FL_OK);
  assert_int_equal(fl_fabric_load(f, r, FL_FMT_AUTO, NULL, &err), FL_OK);
  finalize(f);
  assert_string_equal(attr(f, "leaf-01", "rack"), "R01");
  assert_string_equal(attr(f, "leaf-01", "row"), "3");
  assert_string_equal(attr(f, "dgx-001 mlx5_0", "rack"), "R12");
  assert_string_equal(attr(f, "dgx-001 mlx5_1", "pdu"), "B1");
  assert_string_equal(attr(f, "MF0;sw-core-7:MQM8700/U1", "rack"), "R09");
  fl_fabric_free(f);
}

static void test_errors(void **state) {
  (void)state;
  struct {
    const char *name, *text, *want;
  } cases[] = {
      {"e1.csv", "node,rack\nleaf-01,R1\nleaf-99,R2\n",
       ":3:1: unknown node \"leaf-99\""},
      {"e2.csv", "node,rack\nleaf-01,R1,extra\n",
       ":2: 3 fields, but the header has 2"},
      {"e3.csv", "node,,rack\n", ":1:6: header column 2 is empty"},
      {"e4.csv", "node,rack\n\"leaf-01,R1\n", ":2: bad CSV record"},
      {"e5.csv", "node\nleaf-01\n", "names no attribute column"},
      {"e6.yaml", "nodes:\n  leaf-01: R1\n",
       ":2:12: expected a mapping of attributes"},
      {"e7.yaml", "nodes:\n  leaf-01: {rack: [a, b]}\n",
       "expected a scalar attribute value"},
      {"e8.yaml", "nodez: 1\nnodes:\n", ":1:1: unknown key `nodez`"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    fl_fabric *f = small_fabric();
    const char *p = fixture(cases[i].name, cases[i].text);
    fl_error err;
    fl_error_clear(&err);
    int rc = fl_fabric_load(f, p, FL_FMT_ANNOTATIONS, NULL, &err);
    char buf[600];
    fl_error_format(&err, buf, sizeof buf);
    if (strstr(buf, "need libyaml")) {
      fl_fabric_free(f);
      continue;
    }
    if (rc == FL_OK || !strstr(buf, cases[i].want))
      fail_msg("%s: got rc %d, '%s'; want '%s'", cases[i].name, rc, buf,
               cases[i].want);
    fl_fabric_free(f);
  }
  /* a side file before any topology */
  fl_fabric *f = fl_fabric_new();
  const char *p = fixture("alone.csv", "node,rack\nleaf-01,R1\n");
  fl_error err;
  fl_error_clear(&err);
  assert_int_not_equal(fl_fabric_load(f, p, FL_FMT_ANNOTATIONS, NULL, &err),
                       FL_OK);
  assert_non_null(strstr(err.message, "topology loaded first"));
  fl_fabric_free(f);
}

/* A tier is 0..255 (mutant l2-ann-tier): 255 is taken, 256 refused. */
static void test_tier_bounds(void **state) {
  (void)state;
  fl_fabric *f = small_fabric();
  const char *p = fixture("t255.csv", "node,tier\nleaf-01,255\n");
  fl_error err;
  fl_error_clear(&err);
  assert_int_equal(fl_fabric_load(f, p, FL_FMT_ANNOTATIONS, NULL, &err), FL_OK);
  finalize(f);
  assert_string_equal(attr(f, "leaf-01", "tier"), "255");
  fl_fabric_free(f);
  f = small_fabric();
  p = fixture("t256.csv", "node,tier\nleaf-01,256\n");
  fl_error_clear(&err);
  assert_int_equal(fl_fabric_load(f, p, FL_FMT_ANNOTATIONS, NULL, &err),
                   FL_EPARSE);
  assert_non_null(strstr(err.message, "tier=256: expected a number 0..255"));
  fl_fabric_free(f);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_tier_bounds),
      cmocka_unit_test(test_csv_matching),
      cmocka_unit_test(test_exact_before_case),
      cmocka_unit_test(test_key_checks),
      cmocka_unit_test(test_yaml),
      cmocka_unit_test(test_yaml_flow_forms),
      cmocka_unit_test(test_errors),
  };
  return cmocka_run_group_tests(tests, setup_all, teardown_all);
}
