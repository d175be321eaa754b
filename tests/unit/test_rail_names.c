/* SPDX-License-Identifier: MIT */
/*
 * tests/unit/test_rail_names.c — plugins/rail-alignment/names.c, the name
 * sets that replaced the rail-alignment plugin's quadratic duplicate scan
 * (issue 14), against the code they replaced:
 *
 *  - fl_natcmp() (core/util/natcmp.c, which replaced the plugin's
 *    rn_natcmp() in issue 29) against the former comparison (strtoul on
 *    digit runs), on fixed cases and 200,000 random pairs over digits,
 *    letters and separators; pairs with runs past ULONG_MAX, where strtoul
 *    saturated and the former comparison called "...991" and "...992"
 *    equal, are compared exactly instead;
 *  - rn_add_unique() on 20,000 names with repeats: every distinct name
 *    once, in first-occurrence order, each found at its index;
 *  - rn_sorted_find() against the former binary search, for names present
 *    and absent, on sets with and without natural duplicates ("n01" and
 *    "n1").
 *
 * The plugin's source is compiled in: plugins are not linked into the
 * library, and names.c depends on nothing but libc and the util library
 * (which the test links through fabriclint_internal).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../../plugins/rail-alignment/names.c"

/* The natural comparison as rail.c had it before issue 14. */
static int old_natcmp(const char *a, const char *b) {
  while (*a && *b) {
    if (*a >= '0' && *a <= '9' && *b >= '0' && *b <= '9') {
      char *ea, *eb;
      unsigned long x = strtoul(a, &ea, 10), y = strtoul(b, &eb, 10);
      if (x != y)
        return x < y ? -1 : 1;
      a = ea;
      b = eb;
      continue;
    }
    if (*a != *b)
      return (unsigned char)*a < (unsigned char)*b ? -1 : 1;
    a++, b++;
  }
  return *a ? 1 : *b ? -1 : 0;
}

/* The lookup as rail.c had it before issue 14. */
static int32_t old_find(char **v, uint32_t n, const char *s) {
  uint32_t lo = 0, hi = n;
  while (lo < hi) {
    uint32_t mid = (lo + hi) / 2;
    int c = old_natcmp(v[mid], s);
    if (c == 0)
      return (int32_t)mid;
    if (c < 0)
      lo = mid + 1;
    else
      hi = mid;
  }
  return -1;
}

static int sign(int x) {
  return (x > 0) - (x < 0);
}

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint32_t next(void) { /* xorshift64*: fixed seed, reproducible */
  rng ^= rng >> 12, rng ^= rng << 25, rng ^= rng >> 27;
  return (uint32_t)((rng * 2685821657736338717ull) >> 32);
}

/* A random name of at most 53 bytes from a small alphabet, with long
 * digit runs now and then (22 digits: past ULONG_MAX). */
static void random_name(char *out) {
  static const char al[] = "0123456789ab-_0019";
  uint32_t len = next() % 12;
  size_t k = 0;
  for (uint32_t i = 0; i < len; i++) {
    if (next() % 16 == 0)
      for (uint32_t d = 0; d < 22; d++)
        out[k++] = (char)('0' + next() % 10);
    else
      out[k++] = al[next() % (sizeof al - 1)];
    if (k > 30)
      break;
  }
  out[k] = '\0';
}

static void natcmp_fixed(void **state) {
  (void)state;
  assert_true(fl_natcmp("dgx-2", "dgx-10") < 0);
  assert_true(fl_natcmp("mlx5_10", "mlx5_3") > 0);
  assert_int_equal(fl_natcmp("a01", "a1"), 0);
  assert_int_equal(fl_natcmp("", ""), 0);
  assert_true(fl_natcmp("a", "") > 0);
  assert_true(fl_natcmp("a1", "a1b") < 0);
  assert_true(fl_natcmp("h\xc3\xa9", "hz") > 0); /* bytes are unsigned */
  /* numbers past ULONG_MAX compare exactly (strtoul saturated: equal) */
  assert_true(
      fl_natcmp("n99999999999999999999999", "n88888888888888888888888") > 0);
  assert_true(fl_natcmp("n18446744073709551614", "n18446744073709551615") < 0);
  assert_true(fl_natcmp("n18446744073709551615", "n18446744073709551616") < 0);
  assert_true(fl_natcmp("n18446744073709551616", "n18446744073709551615") > 0);
}

/* 1 when @s has a digit run of more than 19 digits after its leading
 * zeros, where strtoul() may saturate. */
static int has_long_run(const char *s) {
  while (*s) {
    if (*s < '0' || *s > '9') {
      s++;
      continue;
    }
    while (*s == '0')
      s++;
    size_t n = 0;
    while (s[n] >= '0' && s[n] <= '9')
      n++;
    if (n > 19)
      return 1;
    s += n;
  }
  return 0;
}

static void natcmp_random(void **state) {
  (void)state;
  char a[160], b[160];
  for (int i = 0; i < 200000; i++) {
    random_name(a);
    b[0] = '\0';
    if (next() % 4 == 0) /* shared prefixes exercise the digit runs */
      memcpy(b, a, sizeof b);
    random_name(b + (next() % 2 ? strlen(b) / 2 : 0));
    if (has_long_run(a) || has_long_run(b))
      continue; /* covered exactly by test_util_natcmp */
    int want = sign(old_natcmp(a, b)), got = sign(fl_natcmp(a, b));
    if (want != got)
      fail_msg("fl_natcmp(\"%s\", \"%s\") = %d, strtoul comparison %d", a, b,
               got, want);
  }
}

static void add_unique_many(void **state) {
  (void)state;
  char **v = NULL, name[32];
  uint32_t n = 0, cap = 0;
  rn_set h = {0};
  for (uint32_t i = 0; i < 20000; i++) { /* 7,000 distinct, repeated */
    snprintf(name, sizeof name, "host-%05u", (i * 7919u) % 7000u);
    assert_int_equal(rn_add_unique(&v, &n, &cap, &h, name), 0);
  }
  assert_int_equal(n, 7000);
  for (uint32_t i = 0; i < 7000; i++) { /* first-occurrence order */
    snprintf(name, sizeof name, "host-%05u", (i * 7919u) % 7000u);
    assert_string_equal(v[i], name);
    assert_int_equal(*rn_set_find(&h, v, name), i + 1);
  }
  assert_int_equal(*rn_set_find(&h, v, "host-07000"), 0);
  assert_int_equal(*rn_set_find(&h, v, ""), 0);
  for (uint32_t i = 0; i < n; i++)
    free(v[i]);
  free(v);
  rn_set_free(&h);
}

/* Build a sorted, indexed set of @count names ("nN"; with @natural_dups
 * every 50th also as "n%04u", naturally equal to "nN"), and compare
 * rn_sorted_find() with the old binary search on every member and on
 * random absent names. Returns the set's natdup flag. */
static uint8_t check_lookup(uint32_t count, int natural_dups) {
  char **v = NULL, name[64];
  uint32_t n = 0, cap = 0;
  rn_set h = {0};
  for (uint32_t i = 0; i < count; i++) {
    snprintf(name, sizeof name, natural_dups && i % 50 == 7 ? "n%04u" : "n%u",
             i);
    assert_int_equal(rn_add_unique(&v, &n, &cap, &h, name), 0);
    if (natural_dups && i % 50 == 7) { /* also "n7" next to "n0007" */
      snprintf(name, sizeof name, "n%u", i);
      assert_int_equal(rn_add_unique(&v, &n, &cap, &h, name), 0);
    }
  }
  qsort(v, n, sizeof *v, fl_natcmp_ptr);
  uint8_t natdup = 2;
  assert_int_equal(rn_sorted_index(v, n, &h, &natdup), 0);
  for (uint32_t i = 0; i < n; i++) {
    int32_t got = rn_sorted_find(v, n, &h, natdup, v[i]);
    assert_int_equal(got, old_find(v, n, v[i]));
    if (!natdup)
      assert_int_equal(got, (int32_t)i);
  }
  for (int i = 0; i < 2000; i++) {
    snprintf(name, sizeof name, i % 2 ? "n%06u" : "m%u", next() % (count * 2));
    assert_int_equal(rn_sorted_find(v, n, &h, natdup, name),
                     old_find(v, n, name));
  }
  for (uint32_t i = 0; i < n; i++)
    free(v[i]);
  free(v);
  rn_set_free(&h);
  return natdup;
}

static void sorted_find_plain(void **state) {
  (void)state;
  assert_int_equal(check_lookup(5000, 0), 0);
}

static void sorted_find_natural_dups(void **state) {
  (void)state;
  assert_int_equal(check_lookup(5000, 1), 1);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(natcmp_fixed),
      cmocka_unit_test(natcmp_random),
      cmocka_unit_test(add_unique_many),
      cmocka_unit_test(sorted_find_plain),
      cmocka_unit_test(sorted_find_natural_dups),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
