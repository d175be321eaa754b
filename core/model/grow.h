/* SPDX-License-Identifier: MIT */
/*
 * core/model/grow.h — growing a malloc'd array by doubling (internal),
 * shared by the model's record store and the loaders that collect records
 * before building (topo_ibdm.c, sonic_xml.c, counters.c).
 */
#ifndef FABRICLINT_CORE_MODEL_GROW_H
#define FABRICLINT_CORE_MODEL_GROW_H

#include <stdint.h>
#include <stdlib.h>

#include "util/bigmem.h"

/**
 * fl_grow() — make room in array *@arr of *@cap elements of @elem bytes for
 * at least @need elements: the capacity doubles from 64 until it suffices,
 * and *@arr is realloc'd (it stays the caller's). 0, or -1 when out of
 * memory or the size would overflow (*@arr and *@cap then unchanged).
 */
static inline int fl_grow(void **arr, size_t *cap, size_t need, size_t elem) {
  if (need <= *cap)
    return 0;
  size_t nc = *cap ? *cap : 64;
  while (nc < need) {
    if (nc > SIZE_MAX / 2)
      return -1;
    nc *= 2;
  }
  if (elem && nc > SIZE_MAX / elem)
    return -1;
  void *p = fl_big_realloc(*arr, *cap * elem, nc * elem);
  if (!p)
    return -1;
  *arr = p;
  *cap = nc;
  return 0;
}

#endif
