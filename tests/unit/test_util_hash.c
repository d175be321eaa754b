/* SPDX-License-Identifier: MIT */
/*
 * tests/unit/test_util_hash.c — core/util/hash.c, the one FNV-1a of the
 * core and the plugins (issue 29): the published 64-bit test vectors, a
 * hash continued over pieces equal to the hash of the whole, and the
 * finding fingerprint (FNV-1a of "<rule>\n<key>") unchanged by the move.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "host/findings.h"
#include "util/hash.h"

/* Test vectors of the FNV reference (fnv-5 test suite, FNV-1a 64-bit). */
static void test_vectors(void **st) {
  (void)st;
  assert_true(FL_FNV64_BASIS == 14695981039346656037ull);
  assert_true(fl_fnv1a64("", 0, FL_FNV64_BASIS) == 0xcbf29ce484222325ull);
  assert_true(fl_fnv1a64_str("a", FL_FNV64_BASIS) == 0xaf63dc4c8601ec8cull);
  assert_true(fl_fnv1a64_str("foobar", FL_FNV64_BASIS) ==
              0x85944171f73967e8ull);
  assert_true(fl_fnv1a64("foobar", 6, FL_FNV64_BASIS) == 0x85944171f73967e8ull);
  assert_true(fl_fnv1a64(NULL, 0, 42) == 42);
}

static void test_pieces(void **st) {
  (void)st;
  uint64_t whole = fl_fnv1a64_str("leaf-01\nport 3", FL_FNV64_BASIS);
  uint64_t h = fl_fnv1a64_str("leaf-01", FL_FNV64_BASIS);
  h = fl_fnv1a64("\n", 1, h);
  assert_true(fl_fnv1a64_str("port 3", h) == whole);
  /* a step on a byte is the byte-wise hash; bytes are unsigned */
  assert_true(fl_fnv64_step(FL_FNV64_BASIS, 0xe9) ==
              fl_fnv1a64_str("\xe9", FL_FNV64_BASIS));
  assert_true(fl_fnv1a64_str("ab", FL_FNV64_BASIS) !=
              fl_fnv1a64_str("ba", FL_FNV64_BASIS));
}

/* The fingerprint baselines store (docs/baseline.md): the same 16 hex
 * digits as before the util layer. */
static void test_fingerprint(void **st) {
  (void)st;
  fl_finding_rec r;
  memset(&r, 0, sizeof r);
  r.rule = "topology.degraded";
  r.key = "leaf-1/3";
  char buf[17];
  uint64_t h = 0xcbf29ce484222325ull;
  for (const char *s = "topology.degraded\nleaf-1/3"; *s; s++)
    h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
  char want[17];
  for (int i = 15; i >= 0; i--, h >>= 4)
    want[i] = "0123456789abcdef"[h & 0xf];
  want[16] = '\0';
  assert_string_equal(fl_finding_fingerprint(&r, buf), want);
  r.rule = NULL, r.key = NULL; /* both empty: the hash of "\n" */
  h = fl_fnv1a64_str("\n", FL_FNV64_BASIS);
  for (int i = 15; i >= 0; i--, h >>= 4)
    want[i] = "0123456789abcdef"[h & 0xf];
  assert_string_equal(fl_finding_fingerprint(&r, buf), want);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_vectors),
      cmocka_unit_test(test_pieces),
      cmocka_unit_test(test_fingerprint),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
