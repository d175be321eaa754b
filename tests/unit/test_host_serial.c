/* SPDX-License-Identifier: MIT */
/*
 * tests/unit/test_host_serial.c — fl_host_api.fabric_serial, the key plugins
 * cache their analyses by (include/fabriclint/plugin.h, fl_fabric_key).
 *
 * A cache keyed by the fabric pointer alone was taken for another fabric:
 * `fabriclint compare` runs the rules twice on one fabric of two planes,
 * the host freed the first run's plane subsets, and a subset of the second
 * run allocated where one of the first had been got ecmp-balance's cached
 * view of the other plane (tier-1 capacity 12000 instead of 12400 Gb/s,
 * about one run in seven; tests/cli/compare_delta.sh). The test plugin
 * tests/plugins/fabric_serial.c reports, from each of its two rules, the
 * serial and fabric it saw; here they run on a two-plane fat tree twice.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "fabriclint/fabric.h"
#include "fabriclint/gen.h"
#include "host/findings.h"
#include "host/host.h"

#define SERIAL_PLUGIN FL_BUILD_DIR "/tests/plugins/fabric_serial.so"

typedef struct seen {
  unsigned long long serial;
  void *fab;
  unsigned nodes;
  int second; /* 1: rule tp-serial.second */
} seen;

/* Run both rules once on @f; their @n findings (2 rules x planes) into
 * @out in report order. */
static void run_once(fl_host *h, const fl_fabric *f, seen *out, size_t n) {
  fl_findings fs;
  memset(&fs, 0, sizeof fs);
  fl_error err;
  fl_error_clear(&err);
  size_t n_run = 0;
  assert_int_equal(fl_host_run(h, f, "tp-serial.*", &fs, &n_run, &err), FL_OK);
  assert_int_equal(n_run, 2);
  assert_int_equal(fs.n, n);
  for (size_t i = 0; i < fs.n; i++) {
    assert_int_equal(sscanf(fs.v[i].message, "serial=%llu fabric=%p nodes=%u",
                            &out[i].serial, &out[i].fab, &out[i].nodes),
                     3);
    out[i].second = strcmp(fs.v[i].rule, "tp-serial.second") == 0;
    assert_true((n == 4) == (fs.v[i].plane != NULL));
  }
  fl_findings_free(&fs);
}

static void test_serial_per_pass(void **state) {
  (void)state;
  fl_host h;
  fl_host_init(&h);
  fl_error err;
  fl_error_clear(&err);
  if (fl_host_load_file(&h, SERIAL_PLUGIN, &err) != FL_OK) {
    fl_host_free(&h);
    fail_msg("could not load %s: %s", SERIAL_PLUGIN, err.message);
  }
  fl_gen_fat_tree_params p;
  memset(&p, 0, sizeof p);
  p.radix = 8, p.tiers = 2, p.parallel = 1;
  fl_fabric *one = NULL, *two = NULL;
  assert_int_equal(fl_gen_fat_tree(&p, &one, &err), FL_OK);
  assert_int_equal(fl_gen_planes(one, 2, &two, &err), FL_OK);
  seen a[4], b[4];
  run_once(&h, two, a, 4);
  run_once(&h, two, b, 4);
  seen all[8];
  memcpy(all, a, sizeof a);
  memcpy(all + 4, b, sizeof b);
  /* a pass is a plane: within it both rules share the serial and the
   * subset (half the nodes of the two-plane fabric) */
  uint32_t half = fl_fabric_node_count(one);
  for (size_t i = 0; i < 8; i++) {
    assert_true(all[i].serial != 0);
    assert_int_equal(all[i].nodes, half);
  }
  for (size_t i = 0; i < 8; i++)
    for (size_t j = i + 1; j < 8; j++) {
      int same_pass = all[i].serial == all[j].serial;
      /* two findings of one pass: the two rules, on one subset */
      if (same_pass) {
        assert_int_not_equal(all[i].second, all[j].second);
        assert_ptr_equal(all[i].fab, all[j].fab);
      }
    }
  /* 4 passes in all (2 planes x 2 runs), each with both rules */
  size_t passes = 0;
  for (size_t i = 0; i < 8; i++) {
    size_t same = 0, earlier = 0;
    for (size_t j = 0; j < 8; j++) {
      same += all[j].serial == all[i].serial;
      earlier += j < i && all[j].serial == all[i].serial;
    }
    assert_int_equal(same, 2);
    passes += earlier == 0;
  }
  assert_int_equal(passes, 4);
  /* the second run's serials are all new */
  for (size_t i = 0; i < 4; i++)
    for (size_t j = 0; j < 4; j++)
      assert_true(b[i].serial > a[j].serial);
  /* one plane: one pass per run, a new serial each time */
  seen c[2], d[2];
  run_once(&h, one, c, 2);
  run_once(&h, one, d, 2);
  assert_true(c[0].serial == c[1].serial && d[0].serial == d[1].serial);
  assert_ptr_equal(c[0].fab, one);
  assert_true(d[0].serial > c[0].serial && c[0].serial > b[3].serial);
  fl_fabric_free(two);
  fl_fabric_free(one);
  fl_host_free(&h);
}

/* Keys: equal only for the same pointer and serial; a zero key (nothing
 * cached) equals nothing, not even another zero key. */
static void test_key_eq(void **state) {
  (void)state;
  char two[2];
  const fl_fabric *f = (const fl_fabric *)&two[0],
                  *g = (const fl_fabric *)&two[1];
  fl_fabric_key z = {NULL, 0}, a = {f, 7}, b = {f, 7}, c = {f, 8}, d = {g, 7};
  assert_int_equal(fl_fabric_key_eq(a, b), 1);
  assert_int_equal(fl_fabric_key_eq(b, a), 1);
  assert_int_equal(fl_fabric_key_eq(a, c), 0);
  assert_int_equal(fl_fabric_key_eq(c, a), 0);
  assert_int_equal(fl_fabric_key_eq(a, d), 0);
  assert_int_equal(fl_fabric_key_eq(d, a), 0);
  assert_int_equal(fl_fabric_key_eq(z, z), 0);
  assert_int_equal(fl_fabric_key_eq(z, a), 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_serial_per_pass),
      cmocka_unit_test(test_key_eq),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
