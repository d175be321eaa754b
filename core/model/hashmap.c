/* SPDX-License-Identifier: MIT */
/*
 * core/model/hashmap.c — see hashmap.h. Linear probing over power-of-two
 * tables.
 */
#include "model/hashmap.h"

#include <stdlib.h>
#include <string.h>

#include "util/bigmem.h"
#include "util/hash.h"

static uint64_t mix64(uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ULL;
  x ^= x >> 33;
  return x;
}

uint64_t fl_hash_bytes(const char *s, size_t len) {
  return mix64(fl_fnv1a64(s, len, FL_FNV64_BASIS));
}

/* ---- u64 -> u32 ---------------------------------------------------------- */

/* A slot stores its value plus one, so that 0 marks an empty slot and a
 * table is calloc'd: a large one is then fresh zero pages the kernel maps
 * on first touch, not a pass writing FL_MAP_ABSENT over every slot. (A
 * value is never FL_MAP_ABSENT, so value + 1 never wraps to 0.) */
uint32_t fl_u64map_get(const fl_u64map *m, uint64_t key) {
  if (m->cap == 0)
    return FL_MAP_ABSENT;
  size_t mask = m->cap - 1;
  for (size_t i = mix64(key) & mask;; i = (i + 1) & mask) {
    const fl_u64slot *e = &m->slots[i];
    if (e->val == 0)
      return FL_MAP_ABSENT;
    if (e->key == key)
      return e->val - 1;
  }
}

/* Move every entry into a table of @ncap slots (a power of two). */
static int u64_rehash(fl_u64map *m, size_t ncap) {
  fl_u64slot *ns = fl_big_calloc(ncap, sizeof *ns);
  if (!ns)
    return -1;
  size_t mask = ncap - 1;
  for (size_t j = 0; j < m->cap; j++) {
    if (m->slots[j].val == 0)
      continue;
    size_t i = mix64(m->slots[j].key) & mask;
    while (ns[i].val != 0)
      i = (i + 1) & mask;
    ns[i] = m->slots[j];
  }
  free(m->slots);
  m->slots = ns;
  m->cap = ncap;
  return 0;
}

static int u64_grow(fl_u64map *m) {
  return u64_rehash(m, m->cap ? m->cap * 2 : 64);
}

int fl_u64map_reserve(fl_u64map *m, size_t n) {
  size_t ncap = m->cap ? m->cap : 64;
  while (ncap / 2 < n) {
    if (ncap > SIZE_MAX / 2 / sizeof(fl_u64slot))
      return -1;
    ncap *= 2;
  }
  return ncap == m->cap ? 0 : u64_rehash(m, ncap);
}

static uint32_t u64_insert(fl_u64map *m, uint64_t key, uint32_t val,
                           int overwrite) {
  if ((m->len + 1) * 2 > m->cap && u64_grow(m) != 0)
    return FL_MAP_ABSENT;
  size_t mask = m->cap - 1;
  size_t i = mix64(key) & mask;
  while (m->slots[i].val != 0) {
    if (m->slots[i].key == key) {
      if (overwrite)
        m->slots[i].val = val + 1;
      return m->slots[i].val - 1;
    }
    i = (i + 1) & mask;
  }
  m->slots[i].key = key;
  m->slots[i].val = val + 1;
  m->len++;
  return val;
}

uint32_t fl_u64map_put(fl_u64map *m, uint64_t key, uint32_t val) {
  return u64_insert(m, key, val, 0);
}

int fl_u64map_set(fl_u64map *m, uint64_t key, uint32_t val) {
  return u64_insert(m, key, val, 1) == FL_MAP_ABSENT ? -1 : 0;
}

void fl_u64map_free(fl_u64map *m) {
  free(m->slots);
  memset(m, 0, sizeof *m);
}

/* ---- string -> u32 ------------------------------------------------------ */

static int key_eq(const fl_strmap *m, uint32_t e, const char *s, size_t len,
                  uint64_t h) {
  return m->hashes[e] == h && m->lens[e] == len &&
         memcmp(m->arena + m->offs[e], s, len) == 0;
}

uint32_t fl_strmap_get(const fl_strmap *m, const char *s, size_t len) {
  if (m->cap == 0)
    return FL_MAP_ABSENT;
  uint64_t h = fl_hash_bytes(s, len);
  size_t mask = m->cap - 1;
  for (size_t i = h & mask;; i = (i + 1) & mask) {
    uint32_t slot = m->slots[i];
    if (slot == 0)
      return FL_MAP_ABSENT;
    if (key_eq(m, slot - 1, s, len, h))
      return m->vals[slot - 1];
  }
}

static int str_grow_slots(fl_strmap *m) {
  size_t ncap = m->cap ? m->cap * 2 : 64;
  uint32_t *ns = fl_big_calloc(ncap, sizeof *ns);
  if (!ns)
    return -1;
  size_t mask = ncap - 1;
  for (size_t e = 0; e < m->len; e++) {
    size_t i = m->hashes[e] & mask;
    while (ns[i] != 0)
      i = (i + 1) & mask;
    ns[i] = (uint32_t)e + 1;
  }
  free(m->slots);
  m->slots = ns;
  m->cap = ncap;
  return 0;
}

static int str_grow_entries(fl_strmap *m) {
  size_t n = m->ecap ? m->ecap * 2 : 64;
  uint64_t *h = fl_big_realloc(m->hashes, m->ecap * sizeof *h, n * sizeof *h);
  if (!h)
    return -1;
  m->hashes = h;
  uint32_t *o = fl_big_realloc(m->offs, m->ecap * sizeof *o, n * sizeof *o);
  if (!o)
    return -1;
  m->offs = o;
  uint32_t *l = fl_big_realloc(m->lens, m->ecap * sizeof *l, n * sizeof *l);
  if (!l)
    return -1;
  m->lens = l;
  uint32_t *v = fl_big_realloc(m->vals, m->ecap * sizeof *v, n * sizeof *v);
  if (!v)
    return -1;
  m->vals = v;
  m->ecap = n;
  return 0;
}

static int arena_reserve(fl_strmap *m, size_t need) {
  if (m->alen + need <= m->acap)
    return 0;
  size_t n = m->acap ? m->acap : 4096;
  while (n < m->alen + need)
    n *= 2;
  if (n > UINT32_MAX)
    return -1;
  char *a = fl_big_realloc(m->arena, m->acap, n);
  if (!a)
    return -1;
  m->arena = a;
  m->acap = n;
  return 0;
}

uint32_t fl_strmap_put(fl_strmap *m, const char *s, size_t len, uint32_t val) {
  /* @s may point into our own arena (interning a substring of an interned
   * string): growing the arena would free it under our feet, so copy it. */
  if (m->arena && s >= m->arena && s < m->arena + m->acap) {
    char stack[256];
    char *copy = len < sizeof stack ? stack : malloc(len + 1);
    if (!copy)
      return FL_MAP_ABSENT;
    memcpy(copy, s, len);
    uint32_t r = fl_strmap_put(m, copy, len, val);
    if (copy != stack)
      free(copy);
    return r;
  }
  uint64_t h = fl_hash_bytes(s, len);
  if ((m->len + 1) * 2 > m->cap && str_grow_slots(m) != 0)
    return FL_MAP_ABSENT;
  size_t mask = m->cap - 1;
  size_t i = h & mask;
  while (m->slots[i] != 0) {
    uint32_t e = m->slots[i] - 1;
    if (key_eq(m, e, s, len, h))
      return m->vals[e];
    i = (i + 1) & mask;
  }
  if (m->len == m->ecap && str_grow_entries(m) != 0)
    return FL_MAP_ABSENT;
  if (arena_reserve(m, len + 1) != 0)
    return FL_MAP_ABSENT;
  size_t e = m->len++;
  memcpy(m->arena + m->alen, s, len);
  m->arena[m->alen + len] = '\0';
  m->offs[e] = (uint32_t)m->alen;
  m->lens[e] = (uint32_t)len;
  m->hashes[e] = h;
  m->vals[e] = val;
  m->alen += len + 1;
  m->slots[i] = (uint32_t)e + 1;
  return val;
}

/* A fresh block of @n elements of @size holding @src's first @len. */
static void *dup_block(const void *src, size_t n, size_t len, size_t size) {
  if (!n)
    return NULL;
  void *p = fl_big_malloc(n * size);
  if (p && len)
    memcpy(p, src, len * size);
  return p;
}

int fl_strmap_copy(fl_strmap *dst, const fl_strmap *src) {
  memset(dst, 0, sizeof *dst);
  if (!src->cap)
    return 0;
  dst->slots = dup_block(src->slots, src->cap, src->cap, sizeof *src->slots);
  dst->hashes =
      dup_block(src->hashes, src->ecap, src->len, sizeof *src->hashes);
  dst->offs = dup_block(src->offs, src->ecap, src->len, sizeof *src->offs);
  dst->lens = dup_block(src->lens, src->ecap, src->len, sizeof *src->lens);
  dst->vals = dup_block(src->vals, src->ecap, src->len, sizeof *src->vals);
  dst->arena = dup_block(src->arena, src->acap, src->alen, 1);
  dst->cap = src->cap;
  dst->len = src->len;
  dst->ecap = src->ecap;
  dst->alen = src->alen;
  dst->acap = src->acap;
  if (!dst->slots ||
      (src->ecap && (!dst->hashes || !dst->offs || !dst->lens || !dst->vals)) ||
      (src->acap && !dst->arena)) {
    fl_strmap_free(dst);
    return -1;
  }
  return 0;
}

const char *fl_strmap_key(const fl_strmap *m, size_t i) {
  return i < m->len ? m->arena + m->offs[i] : "";
}

void fl_strmap_free(fl_strmap *m) {
  free(m->slots);
  free(m->hashes);
  free(m->offs);
  free(m->lens);
  free(m->vals);
  free(m->arena);
  memset(m, 0, sizeof *m);
}
