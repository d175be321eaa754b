/* SPDX-License-Identifier: MIT */
/* core/util/unionfind.c — union-find with path halving and the smallest id
 * as root (unionfind.h). */
#include "util/unionfind.h"

void fl_uf_init(uint32_t *up, size_t n) {
  for (size_t i = 0; i < n; i++)
    up[i] = (uint32_t)i;
}

uint32_t fl_uf_find(uint32_t *up, uint32_t x) {
  while (up[x] != x)
    x = up[x] = up[up[x]];
  return x;
}

uint32_t fl_uf_join(uint32_t *up, uint32_t a, uint32_t b) {
  a = fl_uf_find(up, a);
  b = fl_uf_find(up, b);
  if (a == b)
    return a;
  if (a < b) {
    up[b] = a;
    return a;
  }
  up[a] = b;
  return b;
}
