/* SPDX-License-Identifier: MIT */
/* core/util/hash.c — FNV-1a over bytes (hash.h). */
#include "util/hash.h"

uint64_t fl_fnv1a64(const void *p, size_t n, uint64_t h) {
  const unsigned char *s = p;
  for (size_t i = 0; i < n; i++)
    h = fl_fnv64_step(h, s[i]);
  return h;
}

uint64_t fl_fnv1a64_str(const char *s, uint64_t h) {
  for (const unsigned char *u = (const unsigned char *)s; *u; u++)
    h = fl_fnv64_step(h, *u);
  return h;
}
