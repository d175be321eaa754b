/* SPDX-License-Identifier: MIT */
/*
 * core/model/hashmap.h — open-addressing hash maps used by the loaders and the
 * model (internal to the core).
 *
 * fl_u64map maps a uint64_t key to a uint32_t value (GUIDs, (node, port)
 * pairs). fl_strmap maps a byte string to a uint32_t value; it copies keys
 * into its own arena. Both grow at 50% load (linear probing), so inserts and
 * lookups are O(1) expected. Zero-initialise, use, then *_free().
 */
#ifndef FABRICLINT_CORE_HASHMAP_H
#define FABRICLINT_CORE_HASHMAP_H

#include <stddef.h>
#include <stdint.h>

/** Value returned by lookups when the key is absent. */
#define FL_MAP_ABSENT UINT32_MAX

/* One slot: key and value side by side, so that a probe costs one cache
 * line, not one in a key array and another in a value array (loading a
 * 65,536-host capture inserts about 900,000 keys; issue 33). */
typedef struct fl_u64slot {
  uint64_t key;
  uint32_t val; /* the value + 1; 0 marks an empty slot */
} fl_u64slot;

typedef struct fl_u64map {
  fl_u64slot *slots;
  size_t cap; /* power of two, or 0 */
  size_t len;
} fl_u64map;

/** Value of @key, or FL_MAP_ABSENT. */
uint32_t fl_u64map_get(const fl_u64map *m, uint64_t key);
/**
 * Insert @key -> @val unless present. Returns the value now stored (the old
 * one if @key was present), or FL_MAP_ABSENT when out of memory.
 * @val must not be FL_MAP_ABSENT.
 */
uint32_t fl_u64map_put(fl_u64map *m, uint64_t key, uint32_t val);
/** Insert or overwrite. Returns 0, or -1 when out of memory. */
int fl_u64map_set(fl_u64map *m, uint64_t key, uint32_t val);
/**
 * Make room for @n keys in all without a regrowth (a loader that knows, or
 * can estimate, how many keys it will insert). Returns 0, or -1 when out of
 * memory (the map is then unchanged).
 */
int fl_u64map_reserve(fl_u64map *m, size_t n);
/**
 * Slot @i (0 <= @i < m->cap) of the table, for a walk over every entry:
 * 1 with *@key and *@val set when the slot holds an entry, else 0.
 */
static inline int fl_u64map_slot(const fl_u64map *m, size_t i, uint64_t *key,
                                 uint32_t *val) {
  if (m->slots[i].val == 0)
    return 0;
  *key = m->slots[i].key;
  *val = m->slots[i].val - 1;
  return 1;
}
void fl_u64map_free(fl_u64map *m);

typedef struct fl_strmap {
  uint32_t *slots; /* entry index + 1, 0 = empty */
  size_t cap;      /* power of two, or 0 */
  size_t len;
  uint64_t *hashes; /* per entry */
  uint32_t *offs;   /* per entry: offset of key in arena */
  uint32_t *lens;   /* per entry: key length */
  uint32_t *vals;   /* per entry */
  size_t ecap;
  char *arena;
  size_t alen, acap;
} fl_strmap;

/** Value of key (@s, @len), or FL_MAP_ABSENT. */
uint32_t fl_strmap_get(const fl_strmap *m, const char *s, size_t len);
/** Insert unless present; returns the stored value, FL_MAP_ABSENT on ENOMEM. */
uint32_t fl_strmap_put(fl_strmap *m, const char *s, size_t len, uint32_t val);
/** Number of entries. */
static inline size_t fl_strmap_len(const fl_strmap *m) {
  return m->len;
}
/**
 * fl_strmap_copy() — make empty map @dst (zero-initialised or freed) a
 * copy of @src: the same entries, values and entry order, so that an index
 * (an atom) valid in @src names the same key in @dst. O(size of @src), no
 * hashing. Returns 0, or -1 when out of memory (@dst stays empty).
 */
int fl_strmap_copy(fl_strmap *dst, const fl_strmap *src);
/** Key of entry @i (insertion order), NUL-terminated, valid until next put. */
const char *fl_strmap_key(const fl_strmap *m, size_t i);
void fl_strmap_free(fl_strmap *m);

/** 64-bit hash of bytes (FNV-1a folded with a final mix). */
uint64_t fl_hash_bytes(const char *s, size_t len);

#endif
