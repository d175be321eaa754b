/* SPDX-License-Identifier: MIT */
/* core/util/bigmem.c — see bigmem.h. */
#include "util/bigmem.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif

#define HUGE_PAGE ((uintptr_t)2 << 20)

void *fl_bigmem_hint(void *p, size_t bytes) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  if (p && bytes >= FL_BIGMEM_MIN) {
    uintptr_t lo = ((uintptr_t)p + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
    uintptr_t hi = ((uintptr_t)p + bytes) & ~(HUGE_PAGE - 1);
    if (hi > lo) /* a refusal (no THP in this kernel) changes nothing */
      (void)madvise((void *)lo, hi - lo, MADV_HUGEPAGE);
  }
#else
  (void)bytes;
#endif
  return p;
}

/* A large block starts on a huge-page boundary and is a whole number of
 * huge pages long, so that all of it can be huge pages (malloc's own
 * blocks start 16 bytes into a 4 KiB page: their first and last 2 MiB
 * would stay small pages). */
void *fl_big_malloc(size_t bytes) {
  if (bytes < FL_BIGMEM_MIN || bytes > SIZE_MAX - HUGE_PAGE)
    return malloc(bytes);
  size_t n = (bytes + HUGE_PAGE - 1) & ~(size_t)(HUGE_PAGE - 1);
  return fl_bigmem_hint(aligned_alloc(HUGE_PAGE, n), n);
}

void *fl_big_calloc(size_t n, size_t elem) {
  if (elem && n > SIZE_MAX / elem)
    return NULL;
  if (n * elem < FL_BIGMEM_MIN)
    return calloc(n, elem);
  void *p = fl_big_malloc(n * elem);
  return p ? memset(p, 0, n * elem) : NULL;
}

void *fl_big_realloc(void *p, size_t old, size_t bytes) {
  if (!p || bytes < FL_BIGMEM_MIN || old == 0 || old > bytes)
    return p ? realloc(p, bytes) : fl_big_malloc(bytes);
  void *q = fl_big_malloc(bytes);
  if (!q)
    return NULL;
  memcpy(q, p, old);
  free(p);
  return q;
}
