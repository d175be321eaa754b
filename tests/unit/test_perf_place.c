/* SPDX-License-Identifier: MIT */
/*
 * tests/unit/test_perf_place.c — the placement draw of `perf` workloads
 * with `placements:` (core/analysis/perf_place.c, docs/perf.md):
 *   - every placement holds n distinct hosts of the pool, sorted in pool
 *     order, and `order: random` draws the same set in another order;
 *   - placement i depends on (seed, i) alone: pinned hosts for seed 1,
 *     placement 0 of 8 out of 32 (the first placement of
 *     tests/cli/perf_placements.sh), other seeds and indexes differ;
 *   - uniform: over 20,000 placements of 3 out of 10 every host is drawn
 *     in 30 % of them and first in 10 % (within 4.5 standard deviations;
 *     the draws are deterministic, so the test is too).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "analysis/perf_place.h"

static int cmp_u32(const void *x, const void *y) {
  uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
  return a < b ? -1 : a > b;
}

static void test_draw_properties(void **state) {
  (void)state;
  static const uint32_t POOL[] = {1, 2, 7, 32, 1000};
  uint32_t *scr = malloc(1000 * sizeof *scr), *a = malloc(1000 * sizeof *a),
           *b = malloc(1000 * sizeof *b);
  uint8_t *seen = malloc(1000);
  assert_non_null(scr);
  assert_non_null(a);
  assert_non_null(b);
  assert_non_null(seen);
  for (size_t p = 0; p < sizeof POOL / sizeof *POOL; p++) {
    uint32_t pool = POOL[p], ns[3] = {1, (pool + 1) / 2, pool};
    for (int k = 0; k < 3; k++)
      for (uint64_t i = 0; i < 40; i++) {
        uint32_t n = ns[k];
        fl_perf_draw(7, i, pool, n, FL_WL_ORDER_POOL, scr, a);
        fl_perf_draw(7, i, pool, n, FL_WL_ORDER_RANDOM, scr, b);
        memset(seen, 0, pool);
        for (uint32_t j = 0; j < n; j++) {
          assert_true(a[j] < pool);
          assert_int_equal(seen[a[j]]++, 0); /* distinct */
          if (j)
            assert_true(a[j - 1] < a[j]); /* pool order */
        }
        qsort(b, n, sizeof *b, cmp_u32); /* random order: the same set */
        assert_memory_equal(a, b, n * sizeof *a);
      }
  }
  free(scr), free(a), free(b), free(seen);
}

static void test_draw_pinned(void **state) {
  (void)state;
  uint32_t scr[32], a[8], b[8];
  /* node0004, node0005, node0009, node0017, node0018, node0020, node0022,
   * node0031 of tests/fixtures/ns3/ft32 (pool: node0001..node0032) */
  static const uint32_t WANT[8] = {3, 4, 8, 16, 17, 19, 21, 30};
  fl_perf_draw(1, 0, 32, 8, FL_WL_ORDER_POOL, scr, a);
  assert_memory_equal(a, WANT, sizeof WANT);
  fl_perf_draw(1, 0, 32, 8, FL_WL_ORDER_POOL, scr, b); /* again: the same */
  assert_memory_equal(a, b, sizeof a);
  fl_perf_draw(2, 0, 32, 8, FL_WL_ORDER_POOL, scr, b); /* another seed */
  assert_memory_not_equal(a, b, sizeof a);
  fl_perf_draw(1, 1, 32, 8, FL_WL_ORDER_POOL, scr, b); /* another index */
  assert_memory_not_equal(a, b, sizeof a);
  /* placement 1 of seed 1: the all-to-all's worst in perf_placements.sh
   * (node0011, node0014, node0015, node0016, node0019, node0020, node0025,
   * node0031) */
  static const uint32_t ONE[8] = {10, 13, 14, 15, 18, 19, 24, 30};
  assert_memory_equal(b, ONE, sizeof ONE);
}

static void test_draw_uniform(void **state) {
  (void)state;
  enum { POOL = 10, N = 3, DRAWS = 20000 };
  uint32_t scr[POOL], a[N];
  double in[POOL] = {0}, first[POOL] = {0};
  for (uint64_t i = 0; i < DRAWS; i++) {
    fl_perf_draw(5, i, POOL, N, FL_WL_ORDER_RANDOM, scr, a);
    first[a[0]]++;
    for (int j = 0; j < N; j++)
      in[a[j]]++;
  }
  /* within 4.5 standard deviations: squared, (x - mean)^2 < 4.5^2 var */
  double p_in = (double)N / POOL, p_first = 1.0 / POOL;
  double var_in = DRAWS * p_in * (1 - p_in),
         var_first = DRAWS * p_first * (1 - p_first);
  for (int h = 0; h < POOL; h++) {
    double d_in = in[h] - DRAWS * p_in, d_first = first[h] - DRAWS * p_first;
    assert_true(d_in * d_in < 20.25 * var_in);
    assert_true(d_first * d_first < 20.25 * var_first);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_draw_properties),
      cmocka_unit_test(test_draw_pinned),
      cmocka_unit_test(test_draw_uniform),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
