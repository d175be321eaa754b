/* SPDX-License-Identifier: MIT */
/*
 * tests/unit/test_util_bigmem.c — core/util/bigmem.c, large arrays on huge
 * pages (issue 33): from FL_BIGMEM_MIN bytes on (exactly at it and one
 * past it) a block starts on a 2 MiB boundary; fl_big_realloc() keeps the
 * old bytes whether it copies (large) or reallocs (small); fl_big_calloc()
 * is zeroed on both sides of the threshold and refuses an overflowing
 * size.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "util/bigmem.h"

#define HUGE ((uintptr_t)2 << 20)

static void test_aligned_from_threshold(void **st) {
  (void)st;
  size_t sizes[] = {FL_BIGMEM_MIN, FL_BIGMEM_MIN + 1, 3 * FL_BIGMEM_MIN};
  for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
    unsigned char *p = fl_big_malloc(sizes[i]);
    assert_non_null(p);
    assert_int_equal((uintptr_t)p % HUGE, 0);
    p[0] = 1;
    p[sizes[i] - 1] = 2; /* the whole size is usable */
    assert_int_equal(p[0] + p[sizes[i] - 1], 3);
    free(p);
  }
  unsigned char *q = fl_big_malloc(FL_BIGMEM_MIN - 1); /* plain malloc */
  assert_non_null(q);
  q[FL_BIGMEM_MIN - 2] = 7;
  assert_int_equal(q[FL_BIGMEM_MIN - 2], 7);
  free(q);
}

static void fill(unsigned char *p, size_t n) {
  for (size_t i = 0; i < n; i++)
    p[i] = (unsigned char)(i * 131u + 7u);
}

static int same(const unsigned char *p, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (p[i] != (unsigned char)(i * 131u + 7u))
      return 0;
  return 1;
}

static void test_realloc_keeps_bytes(void **st) {
  (void)st;
  size_t old = 4096, cap = old;
  unsigned char *p = fl_big_realloc(NULL, 0, old);
  assert_non_null(p);
  fill(p, old);
  /* below the threshold (realloc), exactly at it, one past, then doubled */
  size_t next[] = {FL_BIGMEM_MIN - 1, FL_BIGMEM_MIN, FL_BIGMEM_MIN + 1,
                   2 * FL_BIGMEM_MIN + 2};
  for (size_t i = 0; i < sizeof next / sizeof *next; i++) {
    p = fl_big_realloc(p, cap, next[i]);
    assert_non_null(p);
    assert_true(same(p, cap));
    if (next[i] >= FL_BIGMEM_MIN)
      assert_int_equal((uintptr_t)p % HUGE, 0);
    cap = next[i];
    fill(p, cap);
  }
  free(p);
}

static void test_calloc_zero(void **st) {
  (void)st;
  size_t counts[] = {FL_BIGMEM_MIN / 8 - 1, FL_BIGMEM_MIN / 8,
                     FL_BIGMEM_MIN / 8 + 1};
  for (size_t i = 0; i < sizeof counts / sizeof *counts; i++) {
    uint64_t *p = fl_big_calloc(counts[i], sizeof *p);
    assert_non_null(p);
    uint64_t any = 0;
    for (size_t k = 0; k < counts[i]; k++)
      any |= p[k];
    assert_int_equal(any, 0);
    free(p);
  }
  assert_null(fl_big_calloc(SIZE_MAX / 4, 8)); /* n * elem overflows */
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_aligned_from_threshold),
      cmocka_unit_test(test_realloc_keeps_bytes),
      cmocka_unit_test(test_calloc_zero),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
