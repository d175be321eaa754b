/* SPDX-License-Identifier: MIT */
/*
 * tests/unit/test_util_hostlist.c — core/util/hostlist.c, the hostlist
 * folding of Slurm's topology files (convert --format slurm-*): exact
 * foldings of the cases people have (zero-padded host numbers, unpadded
 * ones crossing a power of ten, "n09" beside "n9", names without digits,
 * runs too long to fold), and an oracle: random name sets, folded, then
 * expanded as Slurm's hostlist reader does (every number of a bracket
 * printed zero-padded to the width of the low end of its range,
 * src/common/hostlist.c), give back exactly the names, in any input order.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "util/hostlist.h"

static void expect_fold(const char *const *names, size_t n, const char *want) {
  char *got = fl_hostlist_fold(names, n);
  assert_non_null(got);
  assert_string_equal(got, want);
  free(got);
}

static void test_exact(void **st) {
  (void)st;
  const char *pad[] = {"dgx-003", "dgx-001", "dgx-002", "dgx-010"};
  expect_fold(pad, 4, "dgx-[001-003,010]");
  const char *cross[] = {"dgx-100", "dgx-097", "dgx-099", "dgx-098"};
  expect_fold(cross, 4, "dgx-[097-100]");
  const char *unpad[] = {"H-10", "H-9", "H-1", "H-64", "H-11"};
  expect_fold(unpad, 5, "H-[1,9-11,64]");
  const char *mixed[] = {"n9", "n09", "n10"};
  expect_fold(mixed, 3, "n09,n[9-10]"); /* 09 sorts first; 9 cannot join */
  const char *words[] = {"login", "dgx-01", "cache"};
  expect_fold(words, 3, "cache,dgx-01,login");
  const char *one[] = {"leaf-su01"};
  expect_fold(one, 1, "leaf-su01");
  const char *prefixes[] = {"a2", "b1", "a1", "a10"};
  expect_fold(prefixes, 4, "a[1-2,10],b1");
  const char *longrun[] = {"x1234567890", "x1234567891"}; /* 10 digits */
  expect_fold(longrun, 2, "x1234567890,x1234567891");
  const char *nine[] = {"x123456789", "x123456790"}; /* 9: folded */
  expect_fold(nine, 2, "x[123456789-123456790]");
  expect_fold(NULL, 0, "");
}

static void test_name_ok(void **st) {
  (void)st;
  assert_true(fl_hostlist_name_ok("dgx-001"));
  assert_true(fl_hostlist_name_ok("a.b_c:d-1"));
  assert_false(fl_hostlist_name_ok(""));
  assert_false(fl_hostlist_name_ok(NULL));
  const char *bad[] = {"a b", "a,b", "a[1]", "a]", "a=b", "a#", "a\"b", "a\\b"};
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
    assert_false(fl_hostlist_name_ok(bad[i]));
}

/* ---- the oracle: Slurm's expansion --------------------------------------- */

/* Appends the names of one element ("pfx", "pfx[1-3,05]") to @out. */
static size_t expand_one(const char *e, size_t len, char (*out)[32], size_t n) {
  const char *br = memchr(e, '[', len);
  if (!br) {
    snprintf(out[n], 32, "%.*s", (int)len, e);
    return n + 1;
  }
  int plen = (int)(br - e);
  const char *p = br + 1;
  while (*p != ']') {
    char *end;
    unsigned long lo = strtoul(p, &end, 10);
    int w = (int)(end - p); /* the width of the low end */
    unsigned long hi = lo;
    if (*end == '-')
      hi = strtoul(end + 1, &end, 10);
    for (unsigned long v = lo; v <= hi; v++)
      snprintf(out[n++], 32, "%.*s%0*lu", plen, e, w, v);
    p = *end == ',' ? end + 1 : end;
  }
  return n;
}

static size_t expand(const char *list, char (*out)[32]) {
  size_t n = 0;
  const char *p = list;
  while (*p) {
    size_t len = strcspn(p, ",[");
    if (p[len] == '[')
      len += strcspn(p + len, "]") + 1;
    n = expand_one(p, len, out, n);
    p += len;
    if (*p == ',')
      p++;
  }
  return n;
}

static int cmp_str(const void *a, const void *b) {
  return strcmp((const char *)a, (const char *)b);
}

static uint64_t rng_next(uint64_t *s) {
  *s ^= *s << 13;
  *s ^= *s >> 7;
  *s ^= *s << 17;
  return *s;
}

static void test_oracle(void **st) {
  (void)st;
  static const char *const pfx[] = {"n", "dgx-", "a1b", "leaf-su0", ""};
  uint64_t s = 88172645463325252ull;
  static char want[64][32], got[4096][32];
  for (int round = 0; round < 20000; round++) {
    size_t n = 1 + rng_next(&s) % 40, k = 0;
    for (size_t i = 0; i < n; i++) {
      const char *p = pfx[rng_next(&s) % 5];
      unsigned v = (unsigned)(rng_next(&s) % 130);
      int w = (int)(rng_next(&s) % 4); /* 0: no padding, else width w */
      char name[32];
      if (*p == '\0' && rng_next(&s) % 2)
        snprintf(name, sizeof name, "login%c", 'a' + (int)(v % 3));
      else
        snprintf(name, sizeof name, "%s%0*u", p, w, v);
      int dup = 0;
      for (size_t j = 0; j < k; j++)
        dup |= strcmp(want[j], name) == 0;
      if (!dup && name[0])
        snprintf(want[k++], 32, "%s", name);
    }
    if (k == 0)
      continue;
    const char *ptr[64];
    for (size_t i = 0; i < k; i++)
      ptr[i] = want[i];
    char *list = fl_hostlist_fold(ptr, k);
    assert_non_null(list);
    size_t m = expand(list, got);
    if (m != k)
      fail_msg("round %d: '%s' expands to %zu names, %zu given", round, list, m,
               k);
    qsort(want, k, 32, cmp_str);
    qsort(got, m, 32, cmp_str);
    for (size_t i = 0; i < k; i++)
      if (strcmp(want[i], got[i]) != 0)
        fail_msg("round %d: '%s' gives '%s' where '%s' was given", round, list,
                 got[i], want[i]);
    free(list);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_exact),
      cmocka_unit_test(test_name_ok),
      cmocka_unit_test(test_oracle),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
