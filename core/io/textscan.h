/* SPDX-License-Identifier: MIT */
/*
 * core/io/textscan.h — the lexical helpers the hand-written text loaders share
 * (ibnetdiscover, routing dumps). static inline: they sit on the parsers'
 * hot paths (hundreds of millions of LFT entries), so they must inline.
 * All work on a byte range [p, e) that need not be NUL-terminated.
 */
#ifndef FABRICLINT_CORE_TEXTSCAN_H
#define FABRICLINT_CORE_TEXTSCAN_H

#include <stdint.h>
#include <string.h>

/** A blank inside a line: space or tab. */
static inline int is_blank(char ch) {
  return ch == ' ' || ch == '\t';
}

/** First non-blank at or after @p (or @e). */
static inline const char *skip_ws(const char *p, const char *e) {
  while (p < e && is_blank(*p))
    p++;
  return p;
}

/** End of [p, e) without its trailing blanks. */
static inline const char *rtrim(const char *p, const char *e) {
  while (e > p && is_blank(e[-1]))
    e--;
  return e;
}

/** Value of hex digit @ch, or -1. */
static inline int hexval(char ch) {
  if (ch >= '0' && ch <= '9')
    return ch - '0';
  if (ch >= 'a' && ch <= 'f')
    return ch - 'a' + 10;
  if (ch >= 'A' && ch <= 'F')
    return ch - 'A' + 10;
  return -1;
}

/** 1 when [p, e) starts with the string @s. */
static inline int starts_with(const char *p, const char *e, const char *s) {
  size_t n = strlen(s);
  return (size_t)(e - p) >= n && memcmp(p, s, n) == 0;
}

/** Decimal digits at *@pp: their count (0: none, *@v = 0), the value in *@v
 * (saturating just above UINT32_MAX, so overflow is still detectable), *@pp
 * advanced past them. */
static inline int scan_dec(const char **pp, const char *e, uint64_t *v) {
  const char *p = *pp;
  uint64_t x = 0;
  while (p < e && *p >= '0' && *p <= '9') {
    if (x <= 0xffffffffull)
      x = x * 10 + (uint64_t)(*p - '0');
    p++;
  }
  int n = (int)(p - *pp);
  *v = x;
  *pp = p;
  return n;
}

/** Hex digits at *@pp (no 0x): their count (0: none); the value of the last
 * 16 in *@v; *@pp advanced past them. */
static inline int scan_hex(const char **pp, const char *e, uint64_t *v) {
  const char *p = *pp;
  uint64_t x = 0;
  int h;
  while (p < e && (h = hexval(*p)) >= 0) {
    x = (x << 4) | (uint64_t)h;
    p++;
  }
  int n = (int)(p - *pp);
  *v = x;
  *pp = p;
  return n;
}

/** Most bytes of a number an error message quotes (NUMQ). A 64-bit value
 * has at most 20 decimal digits; longer tokens are garbage either way. */
#define NUMQ_MAX 20

/** printf arguments for "%.*s%s": the number token [p, e) as the input
 * spells it (never a converted, saturated or truncated value), cut at
 * NUMQ_MAX bytes with "..." after it. Every "out of range" message quotes
 * the value this way and then says the allowed range. */
#define NUMQ(p, e)                                                             \
  (int)((e) - (p) > NUMQ_MAX ? NUMQ_MAX : (e) - (p)), (p),                     \
      ((e) - (p) > NUMQ_MAX ? "..." : "")

/** printf arguments for a bounded excerpt of [p, e): use with "%.*s". */
#define EXCERPT(p, e) (int)((e) - (p) > 40 ? 40 : (e) - (p)), (p)

#endif
