/* SPDX-License-Identifier: MIT */
/*
 * tests/unit/test_util_unionfind.c — core/util/unionfind.c, the one
 * union-find of the core and the plugins (issue 29): the smallest id is
 * the root whichever way round two sets are joined, joins are idempotent,
 * and a long chain is flattened by the path halving of fl_uf_find().
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "util/unionfind.h"

static void test_roots(void **st) {
  (void)st;
  uint32_t up[8];
  fl_uf_init(up, 8);
  for (uint32_t i = 0; i < 8; i++)
    assert_int_equal(fl_uf_find(up, i), i);
  assert_int_equal(fl_uf_join(up, 5, 3), 3); /* larger first */
  assert_int_equal(fl_uf_join(up, 2, 6), 2); /* smaller first */
  assert_int_equal(fl_uf_find(up, 5), 3);
  assert_int_equal(fl_uf_find(up, 6), 2);
  assert_int_equal(fl_uf_join(up, 5, 6), 2); /* two sets: smaller root */
  assert_int_equal(fl_uf_join(up, 6, 5), 2); /* again, other way: no-op */
  for (uint32_t i = 0; i < 8; i++)
    assert_int_equal(fl_uf_find(up, i),
                     i == 2 || i == 3 || i == 5 || i == 6 ? 2 : i);
  assert_int_equal(fl_uf_join(up, 7, 7), 7);
  assert_int_equal(fl_uf_join(up, 0, 7), 0);
  assert_int_equal(fl_uf_find(up, 7), 0);
}

/* A chain n-1 -> n-2 -> ... -> 0 built by joining neighbours from the top:
 * every find answers 0, and after one find of the deepest element its path
 * is at most half as long. */
static void test_chain(void **st) {
  (void)st;
  enum { N = 1000 };
  uint32_t *up = malloc(N * sizeof *up);
  assert_non_null(up);
  fl_uf_init(up, N);
  for (uint32_t i = N - 1; i > 0; i--)
    up[i] = i - 1; /* worst case by hand: a path of N - 1 links */
  assert_int_equal(fl_uf_find(up, N - 1), 0);
  uint32_t len = 0;
  for (uint32_t x = N - 1; up[x] != x; x = up[x])
    len++;
  assert_true(len <= N / 2);
  for (uint32_t i = 0; i < N; i++)
    assert_int_equal(fl_uf_find(up, i), 0);
  free(up);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_roots),
      cmocka_unit_test(test_chain),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
