/* SPDX-License-Identifier: MIT */
/*
 * tests/unit/test_portdir.c — the builder's port directory
 * (core/model/portdir.c) against the hash it replaced (fl_u64map keyed by
 * node << 32 | number), the oracle: 300,000 random puts and gets over 500
 * nodes with port numbers that cross every table width (0..300, so both
 * the per-node tables, their widening and the hash for numbers of
 * FL_PORTDIR_DIRECT and above are hit), declared port counts from 0 to
 * 70. Then the boundaries: number 255 (last in a table) and 256 (first in
 * the hash), a hint past the cap.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "model/hashmap.h"
#include "model/portdir.h"

static uint64_t next(uint64_t *x) { /* xorshift64* */
  *x ^= *x >> 12;
  *x ^= *x << 25;
  *x ^= *x >> 27;
  return *x * 2685821657736338717ULL;
}

static void test_oracle(void **state) {
  (void)state;
  fl_portdir d;
  fl_u64map ref;
  memset(&d, 0, sizeof d);
  memset(&ref, 0, sizeof ref);
  uint64_t x = 0x243f6a8885a308d3ULL;
  uint32_t hint[500];
  for (int n = 0; n < 500; n++)
    hint[n] = (uint32_t)(next(&x) % 71);
  uint32_t val = 0, stored = 0;
  for (int i = 0; i < 300000; i++) {
    uint64_t r = next(&x);
    uint32_t node = (uint32_t)(r % 500), num = (uint32_t)((r >> 16) % 301);
    uint64_t key = ((uint64_t)node << 32) | num;
    if ((r >> 40) & 1) {
      uint32_t want = fl_u64map_put(&ref, key, val);
      uint32_t got = fl_portdir_put(&d, node, num, val, hint[node]);
      assert_int_equal(got, want);
      stored += got == val;
      val++;
    } else {
      assert_int_equal(fl_portdir_get(&d, node, num), fl_u64map_get(&ref, key));
    }
  }
  /* every (node, number) pair stored once: 500 x 301 at most */
  assert_int_equal(stored, ref.len);
  assert_true(stored > 80000 && stored <= 500 * 301); /* about 95,000 */
  for (uint32_t node = 0; node < 500; node++)
    for (uint32_t num = 0; num <= 300; num++)
      assert_int_equal(fl_portdir_get(&d, node, num),
                       fl_u64map_get(&ref, ((uint64_t)node << 32) | num));
  fl_portdir_free(&d);
  fl_u64map_free(&ref);
}

static void test_boundaries(void **state) {
  (void)state;
  fl_portdir d;
  memset(&d, 0, sizeof d);
  /* a node never seen, a number never stored */
  assert_int_equal(fl_portdir_get(&d, 7, 1), FL_MAP_ABSENT);
  /* 255 is the last number of a table, 256 the first of the hash */
  assert_int_equal(fl_portdir_put(&d, 7, 255, 10, 0), 10);
  assert_int_equal(fl_portdir_put(&d, 7, 256, 11, 0), 11);
  assert_int_equal(d.width[7], FL_PORTDIR_DIRECT);
  assert_int_equal(d.big.len, 1);
  assert_int_equal(fl_portdir_get(&d, 7, 255), 10);
  assert_int_equal(fl_portdir_get(&d, 7, 256), 11);
  assert_int_equal(fl_portdir_get(&d, 7, 254), FL_MAP_ABSENT);
  /* put keeps the first value */
  assert_int_equal(fl_portdir_put(&d, 7, 255, 12, 0), 10);
  assert_int_equal(fl_portdir_put(&d, 7, 256, 13, 0), 11);
  /* the hint sizes the first table: 64 ports -> numbers 0..64; a hint past
   * the cap gets a full table, not an overflow */
  assert_int_equal(fl_portdir_put(&d, 8, 1, 20, 64), 20);
  assert_int_equal(d.width[8], 65);
  assert_int_equal(fl_portdir_put(&d, 9, 0, 21, UINT32_MAX), 21);
  assert_int_equal(d.width[9], FL_PORTDIR_DIRECT);
  /* widening keeps what the table held */
  assert_int_equal(fl_portdir_put(&d, 10, 1, 30, 0), 30);
  assert_int_equal(d.width[10], 4);
  assert_int_equal(fl_portdir_put(&d, 10, 4, 31, 0), 31);
  assert_int_equal(d.width[10], 8);
  assert_int_equal(fl_portdir_get(&d, 10, 1), 30);
  assert_int_equal(fl_portdir_get(&d, 10, 4), 31);
  fl_portdir_free(&d);
  assert_null(d.pool);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_oracle),
      cmocka_unit_test(test_boundaries),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
