/* SPDX-License-Identifier: MIT */
/*
 * tests/unit/test_strmap.c — the string map (core/model/hashmap.c) and its
 * copy, fl_strmap_copy(), which a plane's copy of the model uses to take the
 * whole fabric's atoms as they are (core/io/plane_subset.c, issue 33).
 *
 * The oracle is a plain array of the keys in insertion order searched
 * linearly: 20,000 random puts over keys of 0..12 bytes from a 4-letter
 * alphabet (many repeats, the empty key, keys that are prefixes of others),
 * every get checked against it; then a copy taken at a point where the
 * tables are not at a power-of-two boundary, both maps grown apart
 * afterwards (each must see only its own new keys), and the boundaries:
 * copying an empty map, a map of one key, and a map whose slot table is
 * exactly at its 50 % regrowth point.
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

#define MAXKEYS 20000

typedef struct oracle {
  char keys[MAXKEYS][16];
  size_t n;
} oracle;

static uint64_t next(uint64_t *x) { /* xorshift64* */
  *x ^= *x >> 12;
  *x ^= *x << 25;
  *x ^= *x >> 27;
  return *x * 2685821657736338717ULL;
}

static void random_key(uint64_t *rng, char *buf) {
  size_t len = next(rng) % 13;
  for (size_t i = 0; i < len; i++)
    buf[i] = "abcd"[next(rng) % 4];
  buf[len] = '\0';
}

static uint32_t oracle_find(const oracle *o, const char *k) {
  for (size_t i = 0; i < o->n; i++)
    if (strcmp(o->keys[i], k) == 0)
      return (uint32_t)i;
  return FL_MAP_ABSENT;
}

/* Put @k into @m as its insertion index (as fl_b_intern() does) and into
 * @o; the map must return the oracle's index. */
static void put_both(fl_strmap *m, oracle *o, const char *k) {
  uint32_t want = oracle_find(o, k);
  if (want == FL_MAP_ABSENT) {
    want = (uint32_t)o->n;
    snprintf(o->keys[o->n++], sizeof o->keys[0], "%s", k);
  }
  uint32_t got = fl_strmap_put(m, k, strlen(k), (uint32_t)fl_strmap_len(m));
  assert_int_equal(got, want);
}

/* Every key of @o is in @m at its index, with the same bytes back. */
static void check_all(const fl_strmap *m, const oracle *o) {
  assert_int_equal(fl_strmap_len(m), o->n);
  for (size_t i = 0; i < o->n; i++) {
    assert_int_equal(fl_strmap_get(m, o->keys[i], strlen(o->keys[i])), i);
    assert_string_equal(fl_strmap_key(m, i), o->keys[i]);
  }
}

static void test_oracle_and_copy(void **state) {
  (void)state;
  static oracle a, b;
  a.n = b.n = 0;
  fl_strmap m;
  memset(&m, 0, sizeof m);
  uint64_t rng = 0x9e3779b97f4a7c15ULL;
  char k[16];
  for (int i = 0; i < 3000; i++) {
    random_key(&rng, k);
    put_both(&m, &a, k);
  }
  check_all(&m, &a);
  assert_true(a.n > 1000); /* not a power of two: a table mid-way */

  fl_strmap c;
  assert_int_equal(fl_strmap_copy(&c, &m), 0);
  b = a;
  check_all(&c, &b);
  /* grown apart: keys of 13..15 bytes are new to both */
  for (int i = 0; i < 4000; i++) {
    random_key(&rng, k);
    strcat(k, i % 2 ? "xyz" : "zy");
    if (i % 3 == 0)
      put_both(&m, &a, k);
    else
      put_both(&c, &b, k);
  }
  check_all(&m, &a);
  check_all(&c, &b);
  /* a key only the copy took is absent from the source, and back */
  for (size_t i = 0; i < b.n; i++)
    if (oracle_find(&a, b.keys[i]) == FL_MAP_ABSENT)
      assert_int_equal(fl_strmap_get(&m, b.keys[i], strlen(b.keys[i])),
                       FL_MAP_ABSENT);
  for (size_t i = 0; i < a.n; i++)
    if (oracle_find(&b, a.keys[i]) == FL_MAP_ABSENT)
      assert_int_equal(fl_strmap_get(&c, a.keys[i], strlen(a.keys[i])),
                       FL_MAP_ABSENT);
  fl_strmap_free(&m);
  /* the copy owns its memory: still whole after the source is freed */
  check_all(&c, &b);
  /* a substring of the copy's own arena is interned safely */
  const char *own = fl_strmap_key(&c, b.n - 1);
  size_t own_len = strlen(own);
  assert_true(own_len >= 2);
  char want[16];
  snprintf(want, sizeof want, "%.*s", (int)(own_len - 1), own);
  uint32_t v = fl_strmap_put(&c, own, own_len - 1, (uint32_t)fl_strmap_len(&c));
  assert_string_equal(fl_strmap_key(&c, v), want);
  fl_strmap_free(&c);
}

static void test_boundaries(void **state) {
  (void)state;
  fl_strmap m, c;
  memset(&m, 0, sizeof m);
  /* empty: the copy is empty and usable */
  assert_int_equal(fl_strmap_copy(&c, &m), 0);
  assert_int_equal(fl_strmap_len(&c), 0);
  assert_int_equal(fl_strmap_get(&c, "", 0), FL_MAP_ABSENT);
  assert_int_equal(fl_strmap_put(&c, "x", 1, 7), 7);
  assert_int_equal(fl_strmap_get(&c, "x", 1), 7);
  fl_strmap_free(&c);
  /* one key, the empty string (atom 0 of every fabric) */
  assert_int_equal(fl_strmap_put(&m, "", 0, 0), 0);
  assert_int_equal(fl_strmap_copy(&c, &m), 0);
  assert_int_equal(fl_strmap_len(&c), 1);
  assert_int_equal(fl_strmap_get(&c, "", 0), 0);
  assert_string_equal(fl_strmap_key(&c, 0), "");
  fl_strmap_free(&c);
  /* 32 keys: the first slot table (64) is at its 50 % load, so the next
   * put into the copy regrows the copy's table, never the source's */
  char k[16];
  for (int i = 1; i < 32; i++) {
    snprintf(k, sizeof k, "k%d", i);
    assert_int_equal(fl_strmap_put(&m, k, strlen(k), (uint32_t)i), i);
  }
  assert_int_equal(m.cap, 64);
  assert_int_equal(fl_strmap_copy(&c, &m), 0);
  assert_int_equal(c.cap, 64);
  assert_int_equal(fl_strmap_put(&c, "k32", 3, 32), 32);
  assert_int_equal(c.cap, 128);
  assert_int_equal(m.cap, 64);
  assert_int_equal(fl_strmap_get(&m, "k32", 3), FL_MAP_ABSENT);
  for (int i = 1; i <= 32; i++) {
    snprintf(k, sizeof k, "k%d", i);
    assert_int_equal(fl_strmap_get(&c, k, strlen(k)), i);
  }
  fl_strmap_free(&m);
  fl_strmap_free(&c);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_oracle_and_copy),
      cmocka_unit_test(test_boundaries),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
