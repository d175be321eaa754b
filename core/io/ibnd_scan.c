/* SPDX-License-Identifier: MIT */
/*
 * core/io/ibnd_scan.c — the scanner the ibnetdiscover, ibnetdiscover -p and
 * ibsim net readers share (ibnd_scan.h): the input as a text, the line
 * cursor with its file:line error
 * context, and the tokens common to the three formats (hex GUIDs, bounded
 * numbers, width/speed tokens, the last quote of a line).
 *
 * Why hand-written: a 65,536-CA fabric dump is ~400k port lines; the
 * readers take the whole file as one buffer and tokenise each line in place
 * (no sscanf/regex), so loading is dominated by the model's own inserts.
 *
 * A binary --cache file given as text is refused before any reader sees it
 * (core/io/load.c; it is read through libibnetdisc, core/io/ibnd_cache.c).
 */
#include "io/ibnd_scan.h"

#include <stdarg.h>
#include <string.h>

#include "io/textscan.h"

/* ======================================================================
 * Reading a whole file
 * ====================================================================== */

/* The bytes of input @in as a text (borrowed: never freed here). */
text text_of(const fl_input *in) {
  text t = {in->buf, in->len};
  return t;
}

/* ======================================================================
 * Line cursor and error context
 * ====================================================================== */

void pctx_init(pctx *c, fl_fabric *fab, const char *path, const text *t,
               fl_error *err) {
  memset(c, 0, sizeof *c);
  c->fab = fab;
  c->err = err;
  c->path = path;
  c->file = fab ? fl_b_file(fab, path) : 0;
  c->cur = t->buf;
  c->end = t->buf + t->len;
}

/* Advance to the next line; 0 at end of input. */
int next_line(pctx *c) {
  if (c->cur >= c->end)
    return 0;
  const char *nl = memchr(c->cur, '\n', (size_t)(c->end - c->cur));
  c->ls = c->cur;
  c->le = nl ? nl : c->end;
  c->terminated = nl != NULL;
  c->cur = nl ? nl + 1 : c->end;
  if (c->le > c->ls && c->le[-1] == '\r')
    c->le--;
  c->lineno++;
  return 1;
}

fl_prov prov_here(const pctx *c) {
  fl_prov p = {c->file, c->lineno, 1};
  return p;
}

/* FL_EPARSE at column of @at (NULL: no column) of the current line. */
int perr(pctx *c, const char *at, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int rc = fl_text_verror(c->err, c->path, c->lineno, c->ls, at,
                          !c->terminated && c->what, c->what, fmt, ap);
  va_end(ap);
  return rc;
}

int oom(pctx *c) {
  return fl_error_set(c->err, FL_ENOMEM, c->path, c->lineno, 0,
                      "out of memory");
}

/* ======================================================================
 * Tokens
 * ====================================================================== */
const char *last_quote(const char *p, const char *e) {
  for (const char *q = e; q > p;)
    if (*--q == '"')
      return q;
  return NULL;
}

/* "0x" then 1..16 hex digits. */
int parse_0xhex(pctx *c, const char **pp, const char *e, uint64_t *v,
                const char *what) {
  const char *p = *pp;
  if (!starts_with(p, e, "0x") && !starts_with(p, e, "0X"))
    return perr(c, p, "expected 0x and hex digits for %s", what);
  p += 2;
  const char *d = p;
  int n = scan_hex(&p, e, v);
  if (n == 0)
    return perr(c, d, "expected hex digits after 0x for %s", what);
  if (n > 16)
    return perr(c, d, "%s has %d hex digits; a GUID has at most 16", what, n);
  *pp = p;
  return FL_OK;
}

/* Number in [lo, hi] at *pp; @what names it in errors. */
int parse_num(pctx *c, const char **pp, const char *e, uint32_t lo, uint32_t hi,
              const char *what, uint32_t *out) {
  uint64_t v;
  const char *p = *pp;
  if (!scan_dec(&p, e, &v))
    return perr(c, *pp, "expected %s (a decimal number)", what);
  if (v > hi || v < lo)
    return perr(c, *pp, "%s %.*s%s is out of range (allowed %u..%u)", what,
                NUMQ(*pp, p), lo, hi);
  *out = (uint32_t)v;
  *pp = p;
  return FL_OK;
}

/* "4xHDR", "??SDR", "4x???", "?????": width lanes and speed code. */
int parse_width_speed(pctx *c, const char *p, const char *e, uint8_t *width,
                      uint8_t *speed) {
  const char *s = p;
  uint32_t w = 0;
  if (starts_with(p, e, "??")) {
    s = p + 2;
  } else {
    while (s < e && *s >= '0' && *s <= '9')
      s++;
    if (s < e && (*s == 'x' || *s == 'X'))
      s++;
    w = fl_width_parse(p, (size_t)(s - p));
    if (w == 0)
      return perr(c, p,
                  "expected a link width (1x 2x 4x 8x 12x or \?\?) in \"%.*s\"",
                  EXCERPT(p, e));
  }
  uint32_t sp = 0;
  if (!(e - s == 3 && memcmp(s, "???", 3) == 0)) {
    sp = fl_speed_parse(s, (size_t)(e - s));
    if (sp == FL_SPEED_UNKNOWN || sp > FL_SPEED_XDR)
      return perr(c, s,
                  "expected a link speed (SDR DDR QDR FDR10 FDR EDR HDR NDR "
                  "XDR or \?\?\?) in \"%.*s\"",
                  EXCERPT(p, e));
  }
  *width = (uint8_t)w;
  *speed = (uint8_t)sp;
  return FL_OK;
}
