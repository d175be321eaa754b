/* SPDX-License-Identifier: MIT */
/*
 * tests/unit/test_ar_load.c — the ibdiagnet2.far loader (core/ar_load.c),
 * its detection (core/load.c) and the AR accessors (fabriclint/routing.h).
 *
 * The .far fixtures in tests/fixtures/ar/ are hand-written from the
 * documented grammar (no tool here produces .far files), with the static
 * ports of real OpenSM ftree LFTs of tests/fixtures/routing/
 * fat-tree-2tier-ftree, whose topology dump is loaded first.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "fabriclint/fabric.h"
#include "fabriclint/load.h"
#include "fabriclint/routing.h"

#define TOPO                                                                   \
  FL_SOURCE_DIR                                                                \
  "/tests/fixtures/routing/fat-tree-2tier-ftree/topology.ibnetdiscover"
#define FAR(n) FL_SOURCE_DIR "/tests/fixtures/ar/" n

static fl_fabric *load(const char *far, int *rc, fl_error *err) {
  fl_fabric *f = fl_fabric_new();
  fl_error_clear(err);
  assert_int_equal(fl_fabric_load(f, TOPO, FL_FMT_AUTO, NULL, err), FL_OK);
  *rc = fl_fabric_load(f, far, FL_FMT_AUTO, NULL, err);
  if (*rc == FL_OK)
    assert_int_equal(fl_fabric_finalize(f, err), FL_OK);
  return f;
}

static void test_good(void **state) {
  (void)state;
  int rc;
  fl_error err;
  fl_fabric *f = load(FAR("good.far"), &rc, &err);
  assert_int_equal(rc, FL_OK);
  assert_int_equal(fl_fabric_ar_count(f), 6); /* 4 leaves, 2 spines */
  fl_id leaf1 = fl_fabric_find_node_name(f, "leaf-p01-01");
  assert_true(leaf1 != FL_NONE);
  assert_int_equal(fl_fabric_ar_has(f, leaf1), 1);
  uint32_t len = 0, glen = 0;
  const uint8_t *st = fl_fabric_ar_lid_state(f, leaf1, &len);
  const uint16_t *g = fl_fabric_ar_lid_group(f, leaf1, &glen);
  assert_non_null(st);
  assert_true(len > 14 && glen == len);
  assert_int_equal(st[1], FL_AR_STATE_STATIC); /* node0001, local */
  assert_int_equal(st[12], FL_AR_STATE_FREE);  /* node0006, remote */
  assert_int_equal(g[12], 1);
  assert_int_equal(st[2], 0); /* own LID: no entry */
  uint8_t ports[32];
  assert_int_equal(fl_fabric_ar_group(f, leaf1, 1, ports), 2);
  assert_int_equal(ports[0], (1u << 3) | (1u << 4));
  assert_int_equal(fl_fabric_ar_group(f, leaf1, 0, ports), FL_ENOTFOUND);
  assert_int_equal(fl_fabric_ar_group_count(f, leaf1), 2);
  /* the static port is not turned into LFTs */
  assert_int_equal(fl_fabric_lft_count(f), 0);
  fl_id ca = fl_fabric_find_node_name(f, "node0001 mlx5_0");
  assert_int_equal(fl_fabric_ar_has(f, ca), 0);
  assert_null(fl_fabric_ar_lid_state(f, ca, &len));
  assert_int_equal(len, 0);
  fl_fabric_free(f);
}

static void test_partial(void **state) {
  (void)state;
  int rc;
  fl_error err;
  fl_fabric *f = load(FAR("partial-group.far"), &rc, &err);
  assert_int_equal(rc, FL_OK);
  fl_id leaf1 = fl_fabric_find_node_name(f, "leaf-p01-01");
  uint8_t ports[32];
  assert_int_equal(fl_fabric_ar_group(f, leaf1, 1, ports), 1);
  assert_int_equal(ports[0], 1u << 3);
  fl_fabric_free(f);
}

static void write_file(const char *path, const char *text) {
  FILE *f = fopen(path, "w");
  assert_non_null(f);
  fputs(text, f);
  fclose(f);
}

static void test_malformed(void **state) {
  (void)state;
  static const struct {
    const char *text, *want;
    uint32_t line;
  } cases[] = {
      {"File version: 1\nSwitch 0x0002c90301000001 x\nGroups Definition:\n"
       "1 0 0 3,4\n",
       "expected `,` after port 4", 4},
      {"File version: 1\nSwitch 0x0002c90301000001 x\nLFT Definition:\n"
       "0x0003 3 Adaptive 1\n",
       "LID state", 4},
      {"File version: x\n", "File version", 1},
      {"File version: 1\nSwitch 0x0002c90301000001 x\nLFT Definition:\n"
       "0x0003 3 Free\n",
       "AR group number", 4},
      {"File version: 1\nSwitch 0x0002c90301000001 x\nGroups Definition:\n"
       "1 0 0 3,4,",
       "truncated", 4},
      {"# only comments\n", "no `Switch 0x<guid>` block", 1},
  };
  char path[256];
  snprintf(path, sizeof path, "%s/tests/bad-%d.far", FL_BUILD_DIR,
           (int)getpid());
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    write_file(path, cases[i].text);
    fl_fabric *f = fl_fabric_new();
    fl_error err;
    fl_error_clear(&err);
    assert_int_equal(fl_fabric_load(f, TOPO, FL_FMT_AUTO, NULL, &err), FL_OK);
    int rc = fl_fabric_load(f, path, FL_FMT_AR, NULL, &err);
    if (rc != FL_EPARSE || !strstr(err.message, cases[i].want) ||
        err.line != cases[i].line)
      fail_msg("case %zu: rc %d line %u: %s", i, rc, err.line, err.message);
    fl_fabric_free(f);
  }
  remove(path);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_good),
      cmocka_unit_test(test_partial),
      cmocka_unit_test(test_malformed),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
