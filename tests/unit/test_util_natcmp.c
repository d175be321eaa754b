/* SPDX-License-Identifier: MIT */
/*
 * tests/unit/test_util_natcmp.c — core/util/natcmp.c, the one natural
 * comparator of the core and the plugins (issue 29): digit runs by value
 * at any length (no strtoul saturation), leading zeros, bytes unsigned,
 * each case both ways round; the strict order; the edit distance's cap.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "util/natcmp.h"

static int sign(int x) {
  return (x > 0) - (x < 0);
}

/* fl_natcmp(@a, @b) has sign @want and fl_natcmp(@b, @a) the opposite. */
static void both_ways(const char *a, const char *b, int want) {
  if (sign(fl_natcmp(a, b)) != want || sign(fl_natcmp(b, a)) != -want)
    fail_msg("fl_natcmp(\"%s\", \"%s\") = %d, reversed %d, want %d", a, b,
             fl_natcmp(a, b), fl_natcmp(b, a), want);
}

static void test_values(void **st) {
  (void)st;
  both_ways("leaf-9", "leaf-10", -1);
  both_ways("2", "10", -1);
  both_ways("mlx5_3", "mlx5_10", -1);
  both_ways("p2", "p10", -1);
  both_ways("enp1s0f0np0", "enp1s0f1np1", -1);
  both_ways("a", "a", 0);
  both_ways("", "", 0);
  both_ways("a", "", 1);
  both_ways("a1", "a1b", -1);
  both_ways("a1b", "a1c", -1);
  both_ways("a9b", "a10a", -1);    /* the number decides before the tail */
  both_ways("abc", "ab1", 1);      /* 'c' > '1' as bytes */
  both_ways("h\xc3\xa9", "hz", 1); /* bytes are unsigned */
}

/* Runs past ULONG_MAX: strtoul read both as ULONG_MAX and the former
 * comparators of rail-alignment, failure-domains and planes called them
 * equal. */
static void test_long_runs(void **st) {
  (void)st;
  both_ways("n18446744073709551615", "n18446744073709551616", -1);
  both_ways("host99999999999999999999991", "host99999999999999999999992", -1);
  both_ways("x1234567890123456789012345678901234567890", /* 40 digits */
            "x1234567890123456789012345678901234567891", -1);
  both_ways("n99999999999999999999999", "n100000000000000000000000", -1);
  both_ways("n18446744073709551615", "n18446744073709551614", 1);
  both_ways("n18446744073709551615", "n18446744073709551615", 0);
}

/* Leading zeros do not count in fl_natcmp (a preorder: rail-alignment
 * reports names equal in value as natural duplicates); fl_natcmp_strict
 * orders them by bytes, more zeros first, and is 0 only for equal
 * strings. */
static void test_leading_zeros(void **st) {
  (void)st;
  both_ways("a01", "a1", 0);
  both_ways("a0001", "a1", 0);
  both_ways("a0", "a00", 0);
  both_ways("a01", "a2", -1);
  both_ways("a010", "a9", 1);
  both_ways("a00000000000000000000000000001", "a2", -1);
  assert_true(fl_natcmp_strict("a01", "a1") < 0);
  assert_true(fl_natcmp_strict("a1", "a01") > 0);
  assert_true(fl_natcmp_strict("a001", "a01") < 0);
  assert_true(fl_natcmp_strict("a01", "a001") > 0);
  assert_int_equal(fl_natcmp_strict("a01", "a01"), 0);
  assert_true(fl_natcmp_strict("a01", "a2") < 0); /* value first */
  assert_true(fl_natcmp_strict("a2", "a01") > 0);
}

static void test_sort(void **st) {
  (void)st;
  const char *v[] = {"leaf-10", "leaf-9",   "leaf-01",
                     "leaf-1",  "leaf-100", "leaf-2"};
  size_t n = sizeof v / sizeof *v;
  qsort(v, n, sizeof *v, fl_natcmp_strict_ptr);
  const char *want[] = {"leaf-01", "leaf-1",  "leaf-2",
                        "leaf-9",  "leaf-10", "leaf-100"};
  for (size_t i = 0; i < n; i++)
    assert_string_equal(v[i], want[i]);
  const char *w[] = {"b", "a10", "a9"};
  qsort(w, 3, sizeof *w, fl_natcmp_ptr);
  assert_string_equal(w[0], "a9");
  assert_string_equal(w[1], "a10");
  assert_string_equal(w[2], "b");
}

static void test_edit_distance(void **st) {
  (void)st;
  assert_int_equal(fl_edit_distance("severity", "severity", 3), 0);
  assert_int_equal(fl_edit_distance("sevreity", "severity", 3), 1); /* swap */
  assert_int_equal(fl_edit_distance("severity", "sevreity", 3), 1);
  assert_int_equal(fl_edit_distance("abc", "", 9), 3);
  assert_int_equal(fl_edit_distance("", "abc", 9), 3);
  assert_int_equal(fl_edit_distance("abcdef", "uvwxyz", 3), 3); /* capped */
  char longer[FL_EDIT_MAX_LEN + 2], at_cap[FL_EDIT_MAX_LEN + 1];
  memset(longer, 'a', sizeof longer - 1);
  longer[sizeof longer - 1] = '\0';
  memset(at_cap, 'a', sizeof at_cap - 1);
  at_cap[sizeof at_cap - 1] = '\0';
  assert_int_equal(fl_edit_distance(at_cap, at_cap, 5), 0); /* at the cap */
  assert_int_equal(fl_edit_distance(longer, longer, 5), 5); /* one past */
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_values),        cmocka_unit_test(test_long_runs),
      cmocka_unit_test(test_leading_zeros), cmocka_unit_test(test_sort),
      cmocka_unit_test(test_edit_distance),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
