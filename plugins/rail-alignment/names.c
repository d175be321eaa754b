/* SPDX-License-Identifier: MIT */
/*
 * plugins/rail-alignment/names.c — sets of names: hash index by exact name,
 * natural order (see names.h).
 */
#include "names.h"

#include "util/hash.h"

#include <stdlib.h>
#include <string.h>

void rn_set_free(rn_set *h) {
  free(h->slot);
  h->slot = NULL;
  h->mask = 0;
}

/* Slot of @s in @h over strings @v: its index + 1, or the empty slot
 * where it would go (value 0). */
uint32_t *rn_set_find(const rn_set *h, char *const *v, const char *s) {
  for (uint64_t i = fl_fnv1a64_str(s, FL_FNV64_BASIS) & h->mask;;
       i = (i + 1) & h->mask) {
    uint32_t *e = &h->slot[i];
    if (*e == 0 || strcmp(v[*e - 1], s) == 0)
      return e;
  }
}

/* (Re)build @h over the @n strings of @v with room for @room >= @n
 * (table at most half full). 0, or -1 out of memory (@h unchanged). */
static int rn_set_index(rn_set *h, char *const *v, uint32_t n, uint32_t room) {
  uint32_t size = 64;
  while (size < 2 * (uint64_t)room)
    size *= 2;
  rn_set g = {calloc(size, sizeof *g.slot), size - 1};
  if (!g.slot)
    return -1;
  for (uint32_t i = 0; i < n; i++)
    *rn_set_find(&g, v, v[i]) = i + 1;
  rn_set_free(h);
  *h = g;
  return 0;
}

/* Make room in @h for a string added to the @n of @v. 0, or -1. */
static int rn_set_reserve(rn_set *h, char *const *v, uint32_t n) {
  if (h->slot && 2 * ((uint64_t)n + 1) <= (uint64_t)h->mask + 1)
    return 0;
  return rn_set_index(h, v, n, n + 1);
}

static int32_t rn_find_sorted(char **v, uint32_t n, const char *s) {
  uint32_t lo = 0, hi = n;
  while (lo < hi) {
    uint32_t mid = (lo + hi) / 2;
    int c = fl_natcmp(v[mid], s);
    if (c == 0)
      return (int32_t)mid;
    if (c < 0)
      lo = mid + 1;
    else
      hi = mid;
  }
  return -1;
}

/* Index the naturally sorted set @v[@n] by exact name in @h; @natdup = 1
 * when two of its names compare equal naturally ("a01", "a1"). 0, or -1. */
int rn_sorted_index(char **v, uint32_t n, rn_set *h, uint8_t *natdup) {
  *natdup = 0;
  for (uint32_t i = 0; i + 1 < n && !*natdup; i++)
    *natdup = fl_natcmp(v[i], v[i + 1]) == 0;
  return rn_set_index(h, v, n, n);
}

/* rn_find_sorted(@v, @n, @s) in O(1) on average: the exact name's index from
 * the hash @h. That is rn_find_sorted()'s answer whenever no two names of @v
 * compare equal naturally (fl_natcmp() is a total preorder, so the only
 * element equal to @s is @s); otherwise, or when @s is not in @v (it may
 * still equal a name naturally), the binary search decides, as before. */
int32_t rn_sorted_find(char **v, uint32_t n, const rn_set *h, uint8_t natdup,
                       const char *s) {
  if (h->slot && !natdup) {
    uint32_t e = *rn_set_find(h, v, s);
    if (e)
      return (int32_t)(e - 1);
  }
  return rn_find_sorted(v, n, s);
}

/* Add @s to the string set @v (unsorted while collecting, first occurrence
 * order; @h indexes it). */
int rn_add_unique(char ***v, uint32_t *n, uint32_t *cap, rn_set *h,
                  const char *s) {
  if (rn_set_reserve(h, *v, *n) != 0)
    return -1;
  uint32_t *e = rn_set_find(h, *v, s);
  if (*e)
    return 0;
  if (*n == *cap) {
    uint32_t nc = *cap ? *cap * 2 : 16;
    char **nv = realloc(*v, nc * sizeof *nv);
    if (!nv)
      return -1;
    *v = nv;
    *cap = nc;
  }
  (*v)[*n] = strdup(s);
  if (!(*v)[*n])
    return -1;
  *e = ++*n;
  return 0;
}
