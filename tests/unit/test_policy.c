/* SPDX-License-Identifier: MIT */
/*
 * tests/unit/test_policy.c — the policy reader (core/policy.c): shapes,
 * positions of errors, waiver matching and expiry, and the baseline's
 * fingerprints (entity names, never lines).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "fabriclint/types.h"
#include "findings.h"
#include "policy.h"

static int parse(fl_policy *p, const char *text, fl_error *err) {
  fl_error_clear(err);
  return fl_policy_parse(p, "p.yaml", text, strlen(text), err);
}

static void test_full_policy(void **state) {
  (void)state;
  fl_policy p;
  fl_error err;
  assert_int_equal(parse(&p,
                         "version: 1\n"
                         "rules:\n"
                         "  enable: ecmp-balance\n"
                         "  disable: [a.b, 'c.*']\n"
                         "severity:\n"
                         "  a.b: warning\n"
                         "  'a.*': info\n"
                         "params:\n"
                         "  a.b: {x: 1, y: \"s\"}\n"
                         "waivers:\n"
                         "  - rule: a.b\n"
                         "    nodes: n1\n"
                         "    ports: [\"n2/3\"]\n"
                         "    reason: why\n"
                         "    expires: 2024-02-29\n"
                         "    owner: me\n",
                         &err),
                   FL_OK);
  assert_int_equal(p.n_enable, 1);
  assert_string_equal(p.enable[0].text, "ecmp-balance");
  assert_int_equal(p.enable[0].line, 3);
  assert_int_equal(p.enable[0].col, 11);
  assert_int_equal(p.n_disable, 2);
  assert_int_equal(p.n_params, 2);
  assert_int_equal(p.params[0].quoted, 0);
  assert_int_equal(p.params[1].quoted, 1);
  assert_string_equal(p.params[1].name.text, "y");
  assert_int_equal(p.n_waivers, 1);
  assert_int_equal(p.waivers[0].line, 11);
  assert_int_equal(p.waivers[0].col, 5);
  /* the last matching severity wins; a plugin name matches its rules */
  assert_int_equal(fl_policy_severity_of(&p, "a.b"), FL_SEV_INFO);
  assert_int_equal(fl_policy_severity_of(&p, "b.a"), 0);
  assert_true(fl_policy_enables(&p, "ecmp-balance.link-load"));
  assert_false(fl_policy_enables(&p, "ecmp-balancer.x"));
  assert_true(fl_policy_disables(&p, "c.d"));
  fl_policy_free(&p);
}

static void expect_error(const char *text, uint32_t line, uint32_t col,
                         const char *needle) {
  fl_policy p;
  fl_error err;
  assert_int_not_equal(parse(&p, text, &err), FL_OK);
  if (err.line != line || err.col != col || !strstr(err.message, needle))
    fail_msg("%s: got %u:%u %s", text, err.line, err.col, err.message);
  assert_string_equal(err.file, "p.yaml");
  fl_policy_free(&p);
}

static void test_errors(void **state) {
  (void)state;
  expect_error("rulez: {}\n", 1, 1, "did you mean 'rules'");
  expect_error("rules:\n  enable: {a: b}\n", 2, 11,
               "expected a string or a list");
  expect_error("severity:\n  a: loud\n", 2, 6,
               "expected error, warning or info");
  expect_error("params:\n  a.b: 3\n", 2, 8, "expected a mapping");
  expect_error(
      "waivers:\n  - rule: a\n    reason: r\n    expires: 2023-02-29\n", 4, 14,
      "not a date");
  expect_error("waivers:\n  - rule: a\n    expires: 2023-02-28\n", 2, 5,
               "needs 'reason'");
  expect_error("waivers: {rule: a}\n", 1, 10, "expected a list of waivers");
  expect_error("- a\n", 1, 1, "expected a mapping");
  expect_error("a: [\n", 2, 1, "YAML");
  expect_error("rules: {}\n---\nrules: {}\n", 3, 1, "one YAML document");
}

static void test_dates(void **state) {
  (void)state;
  assert_true(fl_policy_date_valid("2024-02-29"));
  assert_false(fl_policy_date_valid("2023-02-29"));
  assert_true(fl_policy_date_valid("2000-02-29"));
  assert_false(fl_policy_date_valid("1900-02-29"));
  assert_false(fl_policy_date_valid("2024-4-01"));
  assert_false(fl_policy_date_valid("2024-04-31"));
  assert_false(fl_policy_date_valid("20240401"));
}

/* A finding of @rule about nodes a, b and port b/7. */
static void add_finding(fl_findings *fs, const char *rule) {
  fl_finding_rec r;
  memset(&r, 0, sizeof r);
  r.rule = strdup(rule);
  r.severity = FL_SEV_ERROR;
  r.message = strdup("m");
  r.n_nodes = 2;
  r.nodes = calloc(2, sizeof *r.nodes);
  r.nodes[0] = strdup("leaf-01");
  r.nodes[1] = strdup("spine-02");
  r.n_ports = 1;
  r.ports = calloc(1, sizeof *r.ports);
  r.ports[0].node = strdup("spine-02");
  r.ports[0].port = 7;
  r.key = strdup("k");
  assert_int_equal(fl_findings_push(fs, &r), 0);
}

/* A port with a label ("spine-02" Ethernet1/7, port 7) is named by either:
 * a waiver glob "spine-02/7" or "spine-02/Ethernet1/7". */
static void test_waiver_port_labels(void **state) {
  (void)state;
  fl_policy p;
  fl_error err;
  assert_int_equal(parse(&p,
                         "waivers:\n"
                         "  - {rule: x, ports: ['spine-02/Ethernet1/7'], "
                         "reason: a, expires: 2099-01-01}\n"
                         "  - {rule: x, ports: ['spine-02/Ethernet1/*'], "
                         "reason: b, expires: 2099-01-01}\n"
                         "  - {rule: x, ports: ['spine-02/7'], "
                         "reason: c, expires: 2099-01-01}\n"
                         "  - {rule: x, ports: ['spine-02/Ethernet1/8'], "
                         "reason: d, expires: 2099-01-01}\n"
                         "  - {rule: x, ports: ['leaf-01/Ethernet1/7'], "
                         "reason: e, expires: 2099-01-01}\n",
                         &err),
                   FL_OK);
  fl_findings fs = {0};
  add_finding(&fs, "x");
  /* without a label only the number names the port */
  assert_false(fl_policy_waiver_matches(&p.waivers[0], &fs.v[0]));
  assert_true(fl_policy_waiver_matches(&p.waivers[2], &fs.v[0]));
  fs.v[0].ports[0].label = strdup("Ethernet1/7");
  assert_true(fl_policy_waiver_matches(&p.waivers[0], &fs.v[0]));
  assert_true(fl_policy_waiver_matches(&p.waivers[1], &fs.v[0]));
  assert_true(fl_policy_waiver_matches(&p.waivers[2], &fs.v[0]));
  assert_false(fl_policy_waiver_matches(&p.waivers[3], &fs.v[0]));
  assert_false(fl_policy_waiver_matches(&p.waivers[4], &fs.v[0]));
  fl_findings_free(&fs);
  fl_policy_free(&p);
}

static void test_waivers(void **state) {
  (void)state;
  fl_policy p;
  fl_error err;
  assert_int_equal(parse(&p,
                         "waivers:\n"
                         "  - rule: x.one\n"
                         "    nodes: ['leaf-*', spine-02]\n"
                         "    ports: ['spine-0?/7']\n"
                         "    reason: ok\n"
                         "    expires: 2025-06-30\n"
                         "  - rule: x\n"
                         "    nodes: nosuch\n"
                         "    reason: stale\n"
                         "    expires: 2099-01-01\n"
                         "  - rule: x.two\n"
                         "    reason: old\n"
                         "    expires: 2025-01-01\n",
                         &err),
                   FL_OK);
  fl_findings fs = {0};
  add_finding(&fs, "x.one");
  add_finding(&fs, "x.two");
  assert_true(fl_policy_waiver_matches(&p.waivers[0], &fs.v[0]));
  assert_false(fl_policy_waiver_matches(&p.waivers[0], &fs.v[1]));
  assert_false(fl_policy_waiver_matches(&p.waivers[1], &fs.v[0]));
  assert_true(fl_policy_waiver_matches(&p.waivers[2], &fs.v[1]));
  /* valid through the expiry day itself */
  assert_int_equal(fl_policy_apply_waivers(&p, &fs, "2025-06-30", &err), FL_OK);
  assert_int_equal(fs.n, 4); /* + expired (x.two), + unused (x) */
  assert_true(fs.v[0].waived);
  assert_string_equal(fs.v[0].waiver.where, "p.yaml:2:5");
  assert_false(fs.v[1].waived); /* its waiver expired */
  /* policy findings follow the waivers' order in the file */
  assert_string_equal(fs.v[2].rule, FL_POLICY_RULE_UNUSED);
  assert_int_equal(fs.v[2].severity, FL_SEV_INFO);
  assert_int_equal(fs.v[2].line, 7);
  assert_string_equal(fs.v[3].rule, FL_POLICY_RULE_EXPIRED);
  assert_int_equal(fs.v[3].severity, FL_SEV_WARNING);
  assert_int_equal(fs.v[3].line, 11);
  assert_int_equal(fl_findings_count_active(&fs, FL_SEV_ERROR), 1);
  fl_findings_free(&fs);
  /* the next day, the first waiver has expired too */
  add_finding(&fs, "x.one");
  assert_int_equal(fl_policy_apply_waivers(&p, &fs, "2025-07-01", &err), FL_OK);
  assert_false(fs.v[0].waived);
  fl_findings_free(&fs);
  fl_policy_free(&p);
}

static void test_fingerprint(void **state) {
  (void)state;
  fl_finding_rec a, b;
  memset(&a, 0, sizeof a);
  memset(&b, 0, sizeof b);
  a.rule = b.rule = "r.x";
  a.key = b.key = "r.x|leaf-01|spine-02";
  a.line = 10;
  b.line = 99;
  a.message = "one";
  b.message = "two";
  char fa[17], fb[17];
  assert_string_equal(fl_finding_fingerprint(&a, fa),
                      fl_finding_fingerprint(&b, fb));
  assert_int_equal(strlen(fa), 16);
  b.key = "r.x|leaf-01|spine-03";
  assert_string_not_equal(fa, fl_finding_fingerprint(&b, fb));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_full_policy),
      cmocka_unit_test(test_errors),
      cmocka_unit_test(test_dates),
      cmocka_unit_test(test_waivers),
      cmocka_unit_test(test_waiver_port_labels),
      cmocka_unit_test(test_fingerprint),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
