/*
 * core/model/hashmap.c — see hashmap.h. Linear probing over power-of-two
 * tables.
 */
#include "model/hashmap.h"

#include <stdlib.h>
#include <string.h>

static uint64_t mix64(uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ULL;
  x ^= x >> 33;
  return x;
}

uint64_t fl_hash_bytes(const char *s, size_t len) {
  uint64_t h = 1469598103934665603ULL;
  for (size_t i = 0; i < len; i++) {
    h ^= (unsigned char)s[i];
    h *= 1099511628211ULL;
  }
  return mix64(h);
}

/* ---- u64 -> u32 ---------------------------------------------------------- */

uint32_t fl_u64map_get(const fl_u64map *m, uint64_t key) {
  if (m->cap == 0)
    return FL_MAP_ABSENT;
  size_t mask = m->cap - 1;
  for (size_t i = mix64(key) & mask;; i = (i + 1) & mask) {
    const fl_u64slot *e = &m->slots[i];
    if (e->val == FL_MAP_ABSENT)
      return FL_MAP_ABSENT;
    if (e->key == key)
      return e->val;
  }
}

static int u64_grow(fl_u64map *m) {
  size_t ncap = m->cap ? m->cap * 2 : 64;
  fl_u64slot *ns = malloc(ncap * sizeof *ns);
  if (!ns)
    return -1;
  for (size_t i = 0; i < ncap; i++)
    ns[i].val = FL_MAP_ABSENT;
  size_t mask = ncap - 1;
  for (size_t j = 0; j < m->cap; j++) {
    if (m->slots[j].val == FL_MAP_ABSENT)
      continue;
    size_t i = mix64(m->slots[j].key) & mask;
    while (ns[i].val != FL_MAP_ABSENT)
      i = (i + 1) & mask;
    ns[i] = m->slots[j];
  }
  free(m->slots);
  m->slots = ns;
  m->cap = ncap;
  return 0;
}

static uint32_t u64_insert(fl_u64map *m, uint64_t key, uint32_t val,
                           int overwrite) {
  if ((m->len + 1) * 2 > m->cap && u64_grow(m) != 0)
    return FL_MAP_ABSENT;
  size_t mask = m->cap - 1;
  size_t i = mix64(key) & mask;
  while (m->slots[i].val != FL_MAP_ABSENT) {
    if (m->slots[i].key == key) {
      if (overwrite)
        m->slots[i].val = val;
      return m->slots[i].val;
    }
    i = (i + 1) & mask;
  }
  m->slots[i].key = key;
  m->slots[i].val = val;
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
  uint32_t *ns = calloc(ncap, sizeof *ns);
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
  uint64_t *h = realloc(m->hashes, n * sizeof *h);
  if (!h)
    return -1;
  m->hashes = h;
  uint32_t *o = realloc(m->offs, n * sizeof *o);
  if (!o)
    return -1;
  m->offs = o;
  uint32_t *l = realloc(m->lens, n * sizeof *l);
  if (!l)
    return -1;
  m->lens = l;
  uint32_t *v = realloc(m->vals, n * sizeof *v);
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
  char *a = realloc(m->arena, n);
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
