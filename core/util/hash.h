/* SPDX-License-Identifier: MIT */
/* core/util/hash.h — the FNV-1a hash (Fowler, Noll, Vo; 64-bit parameters
 * of http://www.isthe.com/chongo/tech/comp/fnv/): the project's one string
 * hash (hash tables, finding fingerprints) and the one mixing step of its
 * word-keyed hashes (twin switches, turn patterns). */
#ifndef FL_UTIL_HASH_H
#define FL_UTIL_HASH_H

#include <stddef.h>
#include <stdint.h>

/* The FNV-1a 64-bit offset basis (14695981039346656037) and prime. */
#define FL_FNV64_BASIS 0xcbf29ce484222325ull
#define FL_FNV64_PRIME 0x100000001b3ull

/* One FNV-1a step: @h with the value @x folded in ((h ^ x) * prime). For
 * a byte, the FNV-1a step proper; for a wider word, the same step on the
 * whole word (the word-keyed hashes then add their own shift). */
static inline uint64_t fl_fnv64_step(uint64_t h, uint64_t x) {
  return (h ^ x) * FL_FNV64_PRIME;
}

/* FNV-1a of the @n bytes at @p, continuing from @h (FL_FNV64_BASIS to
 * start; a previous result to hash a sequence of pieces). @p may be NULL
 * when @n is 0. Returns the hash. */
uint64_t fl_fnv1a64(const void *p, size_t n, uint64_t h);

/* fl_fnv1a64() of the NUL-terminated string @s (its bytes without the NUL),
 * continuing from @h. @s may not be NULL. */
uint64_t fl_fnv1a64_str(const char *s, uint64_t h);

#endif
