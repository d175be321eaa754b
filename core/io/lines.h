/* SPDX-License-Identifier: MIT */
/*
 * core/io/lines.h — where the lines of a whole input end: a bitmap of the
 * '\n' bytes, 64 bytes at a time, with NUL bytes found in the same pass.
 *
 * Why: the routing dumps are tens of millions of short lines (an
 * opensm-lfts.dump line is about 70 bytes). One memchr() or strchr() call
 * per line pays the library's set-up for every line: on a 0.9 GB dump of
 * 12 M lines, strchr() was two thirds of the load's time and the load 4.9x
 * `wc -l` (docs/performance.md, "LFT reader"). Here the '\n' and NUL bytes
 * of 64 bytes are compared at once (SSE2 on x86-64, a plain loop that
 * compilers vectorise elsewhere) into two 64-bit masks, and each line end
 * is then a count of trailing zeros: a few instructions a line.
 *
 * The NUL check is the same pass: fl_input puts one NUL after the last
 * byte, so any other NUL before the end is an error, reported by the
 * caller at its line and column (fl_input_nul_check()).
 *
 * The scanner never reads past [buf, buf + len): the last partial block
 * is compared byte by byte. State is the caller's (no globals), and the
 * buffer is borrowed.
 */
#ifndef FABRICLINT_CORE_LINES_H
#define FABRICLINT_CORE_LINES_H

#include <stddef.h>
#include <stdint.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/** Line-end scanner state over one buffer; zero it (or fl_lines_init). */
typedef struct fl_lines {
  const char *buf;
  size_t len;  /* bytes in buf (the NUL after them is not scanned) */
  size_t scan; /* bytes [0, scan) are in blocks already compared */
  size_t base; /* offset of the block @nl describes */
  uint64_t nl; /* '\n' positions of that block not yet handed out */
} fl_lines;

/** Start scanning @len bytes at @buf (borrowed). */
static inline void fl_lines_init(fl_lines *l, const char *buf, size_t len) {
  l->buf = buf;
  l->len = len;
  l->scan = 0;
  l->base = 0;
  l->nl = 0;
}

/* Masks of the '\n' and NUL bytes among the @n (<= 64) bytes at @p, bit i
 * for byte i. */
static inline void fl_lines_mask(const char *p, size_t n, uint64_t *nl,
                                 uint64_t *nul) {
#if defined(__SSE2__)
  if (n == 64) {
    const __m128i lf = _mm_set1_epi8('\n'), z = _mm_setzero_si128();
    uint64_t a = 0, b = 0;
    for (int k = 0; k < 4; k++) {
      __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(p + 16 * k));
      a |= (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(v, lf))
           << (16 * k);
      b |= (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(v, z))
           << (16 * k);
    }
    *nl = a;
    *nul = b;
    return;
  }
#endif
  uint64_t a = 0, b = 0;
  for (size_t i = 0; i < n; i++) {
    a |= (uint64_t)(p[i] == '\n') << i;
    b |= (uint64_t)(p[i] == '\0') << i;
  }
  *nl = a;
  *nul = b;
}

/**
 * fl_lines_next() — offset of the next '\n' at or after the last one handed
 * out, @len when the rest of the buffer has none, or SIZE_MAX when a NUL
 * byte comes before it (the caller reports it; the scanner stops there).
 */
static inline size_t fl_lines_next(fl_lines *l) {
  while (!l->nl) {
    if (l->scan >= l->len)
      return l->len;
    size_t n = l->len - l->scan < 64 ? l->len - l->scan : 64;
    uint64_t nul;
    l->base = l->scan;
    fl_lines_mask(l->buf + l->scan, n, &l->nl, &nul);
    l->scan += n;
    if (nul) {
      /* a NUL before this block's next '\n' (or with none) stops the scan;
       * one after it is found when the scan gets there */
      uint64_t first_nul = nul & -nul;
      if (!l->nl || first_nul < (l->nl & -l->nl)) {
        l->nl = 0;
        l->scan = l->len;
        return SIZE_MAX;
      }
      l->scan = l->base + (size_t)__builtin_ctzll(nul); /* rescan from it */
      l->nl &= first_nul - 1;
    }
  }
  size_t at = l->base + (size_t)__builtin_ctzll(l->nl);
  l->nl &= l->nl - 1;
  return at;
}

#endif
