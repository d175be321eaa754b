/* SPDX-License-Identifier: MIT */
/* core/util/bigmem.h — large growing arrays on huge pages (issue 33).
 *
 * Loading a 65,536-endpoint fabric writes ~130 MB of fresh arrays (records,
 * hash tables, sort buffers); with 4 KiB pages that is ~35,000 page faults,
 * each a trip through the hypervisor on a virtual machine: a fifth of the
 * load's CPU time in `perf record`. Asking for transparent huge pages on
 * the large arrays (one fault per 2 MiB) removes most of them. This is a
 * hint only: where the kernel has no transparent huge pages, or they are
 * off, nothing changes; the memory reads and writes the same either way. */
#ifndef FL_UTIL_BIGMEM_H
#define FL_UTIL_BIGMEM_H

#include <stddef.h>

/* Arrays from this size on get the hint (a huge page is 2 MiB on x86-64
 * and arm64 with 4 KiB pages; smaller arrays could not hold one). */
#define FL_BIGMEM_MIN ((size_t)4 << 20)

/* fl_bigmem_hint() — ask for huge pages on the 2 MiB-aligned part of the
 * @bytes bytes at @p (memory this process allocated, e.g. by malloc) when
 * @bytes is at least FL_BIGMEM_MIN; otherwise, or when @p is NULL, nothing.
 * Returns @p. */
void *fl_bigmem_hint(void *p, size_t bytes);

/* malloc / calloc, then fl_bigmem_hint() on the result (before anything
 * touches it: a page already there stays a small page). */
void *fl_big_malloc(size_t bytes);
void *fl_big_calloc(size_t n, size_t elem);

/* fl_big_realloc() — realloc(@p, @bytes) for an array of @old bytes (the
 * caller's capacity, at most @bytes): from FL_BIGMEM_MIN on, a new hinted
 * block, the @old bytes copied in, @p freed. (realloc itself would copy
 * into, or move pages to, a block not yet hinted.) NULL when out of
 * memory, @p then untouched. */
void *fl_big_realloc(void *p, size_t old, size_t bytes);

#endif
