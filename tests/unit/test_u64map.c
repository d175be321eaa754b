/* SPDX-License-Identifier: MIT */
/*
 * tests/unit/test_u64map.c — the u64 -> u32 map (core/model/hashmap.c)
 * since its slots store value + 1 with 0 for empty (issue 33): value 0 and
 * the largest value (FL_MAP_ABSENT - 1) round-trip; put keeps the first
 * value, set overwrites; fl_u64map_reserve() for n keys leaves room for
 * exactly n without regrowth (capacity unchanged at n, grown at n + 1)
 * and keeps every entry; fl_u64map_slot() walks each entry exactly once,
 * against a sorted array of 20,000 random keys across three regrowths.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "model/hashmap.h"

static void test_values(void **st) {
  (void)st;
  fl_u64map m;
  memset(&m, 0, sizeof m);
  assert_int_equal(fl_u64map_get(&m, 5), FL_MAP_ABSENT);
  assert_int_equal(fl_u64map_put(&m, 5, 0), 0);
  assert_int_equal(fl_u64map_get(&m, 5), 0);
  assert_int_equal(fl_u64map_put(&m, 0, FL_MAP_ABSENT - 1), FL_MAP_ABSENT - 1);
  assert_int_equal(fl_u64map_get(&m, 0), FL_MAP_ABSENT - 1);
  assert_int_equal(fl_u64map_put(&m, 5, 9), 0); /* put keeps the first */
  assert_int_equal(fl_u64map_set(&m, 5, 9), 0); /* set overwrites */
  assert_int_equal(fl_u64map_get(&m, 5), 9);
  assert_int_equal(m.len, 2);
  fl_u64map_free(&m);
}

static void test_reserve(void **st) {
  (void)st;
  fl_u64map m;
  memset(&m, 0, sizeof m);
  assert_int_equal(fl_u64map_put(&m, 77, 1), 1);
  assert_int_equal(fl_u64map_reserve(&m, 1000), 0);
  size_t cap = m.cap;
  assert_true(cap / 2 >= 1000);
  assert_int_equal(fl_u64map_get(&m, 77), 1); /* kept across the rehash */
  for (uint64_t k = 1; k < cap / 2; k++)      /* cap / 2 keys in all */
    fl_u64map_put(&m, k * 0x9e3779b97f4a7c15ULL, (uint32_t)k);
  assert_int_equal(m.len, cap / 2);
  assert_int_equal(m.cap, cap); /* exactly at the reserve: no regrowth */
  fl_u64map_put(&m, 3, 3);      /* one past it */
  assert_int_equal(m.cap, 2 * cap);
  assert_int_equal(fl_u64map_reserve(&m, 10), 0); /* never shrinks */
  assert_int_equal(m.cap, 2 * cap);
  fl_u64map_free(&m);
}

static int cmp_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

static void test_slot_walk(void **st) {
  (void)st;
  enum { N = 20000 };
  uint64_t *keys = malloc(N * sizeof *keys), *seen = malloc(N * sizeof *seen);
  assert_non_null(keys);
  assert_non_null(seen);
  fl_u64map m;
  memset(&m, 0, sizeof m);
  uint64_t x = 0x243f6a8885a308d3ULL;
  for (uint32_t i = 0; i < N; i++) {
    x ^= x >> 12, x ^= x << 25, x ^= x >> 27;
    keys[i] = x * 2685821657736338717ULL;
    assert_int_equal(fl_u64map_put(&m, keys[i], i), i);
  }
  size_t n = 0;
  for (size_t i = 0; i < m.cap; i++) {
    uint64_t k;
    uint32_t v;
    if (!fl_u64map_slot(&m, i, &k, &v))
      continue;
    assert_true(n < N);
    assert_int_equal(keys[v], k); /* each value is its key's index */
    seen[n++] = k;
  }
  assert_int_equal(n, N);
  qsort(keys, N, sizeof *keys, cmp_u64);
  qsort(seen, N, sizeof *seen, cmp_u64);
  assert_memory_equal(keys, seen, N * sizeof *keys);
  fl_u64map_free(&m);
  free(keys);
  free(seen);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_values),
      cmocka_unit_test(test_reserve),
      cmocka_unit_test(test_slot_walk),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
