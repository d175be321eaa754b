/* SPDX-License-Identifier: MIT */
/*
 * tests/unit/test_roots.c — one cause across rules (core/host/roots.c):
 * which findings attach under which, severities, set-aside findings, the
 * interplay with per-rule causes, and the root keys of cables read from
 * either end.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "build.h"
#include "fabriclint/fabric.h"
#include "fabriclint/plugin.h"
#include "findings.h"
#include "roots.h"

/* A finding of @rule at @sev about node @node, rooted in @root (or none). */
static void add(fl_findings *fs, const char *rule, uint32_t sev,
                const char *msg, const char *root, uint32_t role) {
  fl_finding_rec r;
  memset(&r, 0, sizeof r);
  r.rule = strdup(rule);
  r.severity = sev;
  r.message = strdup(msg);
  r.nodes = calloc(1, sizeof *r.nodes);
  r.ports = calloc(1, sizeof *r.ports);
  r.key = strdup(msg);
  if (root) {
    r.root = strdup(root);
    r.root_role = role;
  }
  assert_int_equal(fl_findings_push(fs, &r), 0);
}

static const fl_finding_rec *find(const fl_findings *fs, const char *msg) {
  for (size_t i = 0; i < fs->n; i++)
    if (strcmp(fs->v[i].message, msg) == 0)
      return &fs->v[i];
  return NULL;
}

#define LINK "link:leaf-01 port 33 - spine-01 port 17"
#define PRI  FL_ROOT_PRIMARY
#define CON  FL_ROOT_CONSEQUENCE

/* The README demo's shape: a degraded cable and three consequences. */
static void test_consequences_attach_to_primary(void **state) {
  (void)state;
  fl_findings fs = {0};
  add(&fs, "ecmp-balance.oversubscription", FL_SEV_WARNING, "over", LINK, CON);
  add(&fs, "topology.degraded-link", FL_SEV_WARNING, "slow", LINK, PRI);
  add(&fs, "ecmp-balance.mixed-speed-group", FL_SEV_WARNING, "mixed", LINK,
      CON);
  add(&fs, "rail-alignment.swapped", FL_SEV_ERROR, "swap", NULL, 0);
  assert_int_equal(fl_findings_attach_roots(&fs), 0);
  assert_int_equal(fs.n, 2);
  const fl_finding_rec *p = find(&fs, "slow");
  assert_non_null(p);
  assert_int_equal(p->n_related, 2);
  assert_int_equal(p->severity, FL_SEV_WARNING);
  /* report order: rule ids sort mixed-speed-group before oversubscription */
  assert_string_equal(p->related[0].message, "mixed");
  assert_string_equal(p->related[1].message, "over");
  assert_non_null(find(&fs, "swap"));
  assert_int_equal(fl_findings_count_related(&fs), 2);
  assert_int_equal(fl_findings_count_active(&fs, FL_SEV_WARNING), 1);
  fl_findings_free(&fs);
}

/* Unknown is not wrong: without a primary nothing is hidden. */
static void test_no_primary_keeps_findings(void **state) {
  (void)state;
  fl_findings fs = {0};
  add(&fs, "ecmp-balance.oversubscription", FL_SEV_WARNING, "over", LINK, CON);
  add(&fs, "ecmp-balance.uplink-asymmetry", FL_SEV_WARNING, "asym", LINK, CON);
  assert_int_equal(fl_findings_attach_roots(&fs), 0);
  assert_int_equal(fs.n, 2);
  assert_int_equal(fs.v[0].n_related + fs.v[1].n_related, 0);
  fl_findings_free(&fs);
}

/* A consequence more severe than its primary raises the primary (the
 * cause counts as its worst effect), and the most severe primary leads. */
static void test_severity_and_leading_primary(void **state) {
  (void)state;
  fl_findings fs = {0};
  add(&fs, "b.rule", FL_SEV_WARNING, "primary-warning", "node:leaf", PRI);
  add(&fs, "a.rule", FL_SEV_ERROR, "primary-error", "node:leaf", PRI);
  add(&fs, "c.rule", FL_SEV_INFO, "consequence", "node:leaf", CON);
  assert_int_equal(fl_findings_attach_roots(&fs), 0);
  /* the other primary stays a finding of its own (two planes judged as
   * one fabric may name one root key each) */
  assert_int_equal(fs.n, 2);
  const fl_finding_rec *lead = find(&fs, "primary-error");
  assert_non_null(lead);
  assert_int_equal(lead->n_related, 1);
  assert_string_equal(lead->related[0].message, "consequence");
  assert_int_equal(find(&fs, "primary-warning")->n_related, 0);
  fl_findings_free(&fs);

  fl_findings gs = {0};
  add(&gs, "t.degraded", FL_SEV_WARNING, "slow", LINK, PRI);
  add(&gs, "e.over", FL_SEV_ERROR, "over", LINK, CON);
  assert_int_equal(fl_findings_attach_roots(&gs), 0);
  assert_int_equal(gs.n, 1);
  assert_string_equal(gs.v[0].message, "slow");
  assert_int_equal(gs.v[0].severity, FL_SEV_ERROR);
  fl_findings_free(&gs);
}

/* Waived and baselined findings are judged on their own, never attached;
 * distinct roots never mix. */
static void test_set_aside_and_distinct_roots(void **state) {
  (void)state;
  fl_findings fs = {0};
  add(&fs, "t.degraded", FL_SEV_WARNING, "slow", LINK, PRI);
  add(&fs, "e.over", FL_SEV_WARNING, "over-waived", LINK, CON);
  add(&fs, "e.asym", FL_SEV_WARNING, "asym-baseline", LINK, CON);
  add(&fs, "e.mixed", FL_SEV_WARNING, "other-cable",
      "link:leaf-01 port 34 - spine-02 port 17", CON);
  fs.v[1].waived = 1;
  fs.v[2].baseline = 1;
  assert_int_equal(fl_findings_attach_roots(&fs), 0);
  assert_int_equal(fs.n, 4);
  for (size_t i = 0; i < fs.n; i++)
    assert_int_equal(fs.v[i].n_related, 0);
  fl_findings_free(&fs);
}

/* Two degraded cables of one per-rule cause merge into one finding, which
 * carries both cables' consequences. */
static void test_aggregate_carries_related(void **state) {
  (void)state;
  fl_findings fs = {0};
  const char *l2 = "link:leaf-02 port 33 - spine-01 port 18";
  add(&fs, "t.degraded", FL_SEV_WARNING, "slow-1", LINK, PRI);
  add(&fs, "t.degraded", FL_SEV_WARNING, "slow-2", l2, PRI);
  add(&fs, "e.over", FL_SEV_WARNING, "over-1", LINK, CON);
  add(&fs, "e.over", FL_SEV_WARNING, "over-2", l2, CON);
  for (size_t i = 0; i < 2; i++) {
    fs.v[i].cause = strdup("tier 1-2|1xHDR|4xHDR");
    fs.v[i].cause_msg = strdup("{count} links run slow");
  }
  assert_int_equal(fl_findings_attach_roots(&fs), 0);
  assert_int_equal(fs.n, 2);
  assert_int_equal(fl_findings_aggregate(&fs), 0);
  assert_int_equal(fs.n, 1);
  assert_int_equal(fs.v[0].merged, 2);
  assert_int_equal(fs.v[0].n_related, 2);
  assert_string_equal(fs.v[0].related[0].message, "over-1");
  assert_string_equal(fs.v[0].related[1].message, "over-2");
  fl_findings_free(&fs);
}

/* A merged finding is as severe as its worst member: of two slow cables of
 * one cause, the second (by message) has an error consequence, which raises
 * it to error; the merge of both is an error, not the first's warning. */
static void test_aggregate_worst_severity(void **state) {
  (void)state;
  fl_findings fs = {0};
  const char *l2 = "link:leaf-02 port 33 - spine-01 port 18";
  add(&fs, "t.degraded", FL_SEV_WARNING, "slow-1", LINK, PRI);
  add(&fs, "t.degraded", FL_SEV_WARNING, "slow-2", l2, PRI);
  add(&fs, "e.over", FL_SEV_ERROR, "over-2", l2, CON);
  for (size_t i = 0; i < 2; i++) {
    fs.v[i].cause = strdup("tier 1-2|1xHDR|4xHDR");
    fs.v[i].cause_msg = strdup("{count} links run slow");
  }
  assert_int_equal(fl_findings_attach_roots(&fs), 0);
  assert_int_equal(find(&fs, "slow-1")->severity, FL_SEV_WARNING);
  assert_int_equal(find(&fs, "slow-2")->severity, FL_SEV_ERROR);
  assert_int_equal(fl_findings_aggregate(&fs), 0);
  assert_int_equal(fs.n, 1);
  assert_int_equal(fs.v[0].merged, 2);
  assert_int_equal(fs.v[0].severity, FL_SEV_ERROR);
  assert_int_equal(fl_findings_count_active(&fs, FL_SEV_ERROR), 1);
  fl_findings_free(&fs);
}

/* The root key of a cable is the same from either end (both orientations
 * of the symmetric input), and bad roots are refused. */
static void test_root_keys(void **state) {
  (void)state;
  fl_fabric *f = fl_fabric_new();
  assert_non_null(f);
  fl_prov pv = {fl_b_file(f, "built"), 1, 1};
  fl_id leaf = fl_b_node(f, FL_NODE_SWITCH, 0x10, 40, pv);
  fl_b_node_set_name(f, leaf, "leaf-01", (size_t)-1);
  fl_id spine = fl_b_node(f, FL_NODE_SWITCH, 0x20, 40, pv);
  fl_b_node_set_name(f, spine, "spine-01", (size_t)-1);
  fl_id ab = fl_b_link(f, fl_b_port(f, leaf, 33, pv),
                       fl_b_port(f, spine, 17, pv), 4, FL_SPEED_HDR, 0, pv);
  fl_id ba = fl_b_link(f, fl_b_port(f, spine, 18, pv),
                       fl_b_port(f, leaf, 34, pv), 4, FL_SPEED_HDR, 0, pv);
  fl_error err;
  assert_int_equal(fl_fabric_finalize(f, &err), FL_OK);
  char *k = NULL;
  assert_int_equal(fl_root_key(f, FL_ROOT_LINK, PRI, ab, NULL, &k), FL_OK);
  assert_string_equal(k, "link:leaf-01 port 33 - spine-01 port 17");
  free(k);
  assert_int_equal(fl_root_key(f, FL_ROOT_LINK, CON, ba, NULL, &k), FL_OK);
  assert_string_equal(k, "link:leaf-01 port 34 - spine-01 port 18");
  free(k);
  assert_int_equal(fl_root_key(f, FL_ROOT_NODE, PRI, spine, NULL, &k), FL_OK);
  assert_string_equal(k, "node:spine-01");
  free(k);
  assert_int_equal(fl_root_key(f, FL_ROOT_FACT, CON, 0, "speed", &k), FL_OK);
  assert_string_equal(k, "fact:speed");
  free(k);
  assert_int_equal(fl_root_key(f, FL_ROOT_NONE, 0, 0, NULL, &k), FL_OK);
  assert_null(k);
  /* refused: no role, an id past the end, an empty fact, an unknown kind */
  assert_int_equal(fl_root_key(f, FL_ROOT_LINK, 0, ab, NULL, &k), FL_EINVAL);
  assert_int_equal(fl_root_key(f, FL_ROOT_LINK, PRI, 2, NULL, &k), FL_EINVAL);
  assert_int_equal(fl_root_key(f, FL_ROOT_NODE, PRI, 2, NULL, &k), FL_EINVAL);
  assert_int_equal(fl_root_key(f, FL_ROOT_FACT, PRI, 0, "", &k), FL_EINVAL);
  assert_int_equal(fl_root_key(f, 4, PRI, 0, NULL, &k), FL_EINVAL);
  fl_fabric_free(f);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_consequences_attach_to_primary),
      cmocka_unit_test(test_no_primary_keeps_findings),
      cmocka_unit_test(test_severity_and_leading_primary),
      cmocka_unit_test(test_set_aside_and_distinct_roots),
      cmocka_unit_test(test_aggregate_carries_related),
      cmocka_unit_test(test_aggregate_worst_severity),
      cmocka_unit_test(test_root_keys),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
