/* SPDX-License-Identifier: MIT */
/*
 * core/io/ctr_read.h — what the port-counter loaders share (internal):
 * a line cursor over the input read whole, the `# captured <time>` line of
 * the capture recipes (docs/formats/perfquery.md), number scanning with
 * overflow checks, and the error helper naming file:line:col.
 *
 * The loaders (ctr_perfquery.c, ctr_ibqueryerrors.c, ctr_pm.c, ctr_prom.c)
 * hand records to the model through core/model/counters.h; static inline
 * here because each of them runs these on every line of inputs of a few
 * hundred MB (a 65,536-endpoint fabric).
 */
#ifndef FABRICLINT_CORE_IO_CTR_READ_H
#define FABRICLINT_CORE_IO_CTR_READ_H

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "io/fileio.h"
#include "io/textscan.h"
#include "model/build.h"
#include "model/counters.h"

/** A line cursor. @ls/@le: the current line without its end of line. */
typedef struct ctr_rd {
  const char *path;
  fl_error *err;
  const char *p, *end; /* rest of the input */
  const char *ls, *le;
  uint32_t line;
  int timed;   /* a `# captured` line was seen */
  double time; /* its time */
} ctr_rd;

static inline void ctr_rd_init(ctr_rd *r, const fl_input *in, fl_error *err) {
  memset(r, 0, sizeof *r);
  r->path = in->path;
  r->err = err;
  r->p = in->buf;
  r->end = in->buf + in->len;
}

/** Next line: 1 read, 0 end of input, FL_EPARSE when the input ends inside
 * a line (a capture cut short). */
static inline int ctr_next(ctr_rd *r) {
  if (r->p >= r->end)
    return 0;
  const char *nl = memchr(r->p, '\n', (size_t)(r->end - r->p));
  r->line++;
  r->ls = r->p;
  if (!nl) {
    r->le = r->end;
    r->p = r->end;
    return fl_error_set(r->err, FL_EPARSE, r->path, r->line,
                        (uint32_t)(r->le - r->ls) + 1,
                        "truncated: the file ends inside a line (no final "
                        "newline)");
  }
  r->le = nl > r->ls && nl[-1] == '\r' ? nl - 1 : nl;
  r->p = nl + 1;
  return 1;
}

/**
 * ctr_open() — start a counter loader: the cursor over @in and the model's
 * batch for @fab (*@b, NULL on failure). FL_OK, or FL_ENOMEM with @err set.
 */
static inline int ctr_open(ctr_rd *r, fl_ctr_batch **b, fl_fabric *fab,
                           const fl_input *in, fl_error *err) {
  ctr_rd_init(r, in, err);
  *b = fl_ctr_begin(fab, in->path);
  return *b ? FL_OK
            : fl_error_set(err, FL_ENOMEM, in->path, 0, 0, "out of memory");
}

/**
 * ctr_line() — the next line with blanks trimmed at both ends, in [*@p,
 * *@e) (empty for a blank line). Same returns as ctr_next().
 */
static inline int ctr_line(ctr_rd *r, const char **p, const char **e) {
  int got = ctr_next(r);
  if (got > 0) {
    *p = skip_ws(r->ls, r->le);
    *e = rtrim(*p, r->le);
  }
  return got;
}

/**
 * ctr_close() — end a counter loader that got @rc so far: on FL_OK the
 * batch @b is handed to the model (fl_ctr_end() with @timed, @time and
 * @sparse), otherwise dropped. @b is freed either way. Returns the result.
 */
static inline int ctr_close(fl_ctr_batch *b, int rc, int timed, double time,
                            int sparse, fl_error *err) {
  if (rc == FL_OK)
    return fl_ctr_end(b, timed, time, sparse, err);
  if (b)
    fl_ctr_abort(b);
  return rc;
}

/** A parse error at column of @at in the current line (NULL: no column). */
static inline int ctr_fail(ctr_rd *r, const char *at, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
static inline int ctr_fail(ctr_rd *r, const char *at, const char *fmt, ...) {
  char msg[600];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  return fl_error_set(r->err, FL_EPARSE, r->path, r->line,
                      at ? (uint32_t)(at - r->ls) + 1 : 0, "%s", msg);
}

/** Provenance of the current line at @at. */
static inline fl_prov ctr_prov(const ctr_rd *r, const char *at) {
  fl_prov pv = {0, r->line, at ? (uint32_t)(at - r->ls) + 1 : 1};
  return pv;
}

/**
 * ctr_captured() — when the current line is `# captured <time>` (the first
 * word after `#` may also be `Captured` or `captured:`), record the time
 * and return 1; a malformed time, or a second different one, is FL_EPARSE.
 * 0 for any other line.
 */
static inline int ctr_captured(ctr_rd *r) {
  const char *p = skip_ws(r->ls, r->le);
  if (p >= r->le || *p != '#')
    return 0;
  p = skip_ws(p + 1, r->le);
  if (!starts_with(p, r->le, "captured") && !starts_with(p, r->le, "Captured"))
    return 0;
  p += 8;
  if (p < r->le && *p == ':')
    p++;
  if (p >= r->le || !is_blank(*p))
    return 0;
  double t;
  if (fl_ctr_parse_time(p, r->le, &t) != 0)
    return ctr_fail(r, skip_ws(p, r->le),
                    "expected a capture time: `# captured "
                    "2024-05-01T12:00:00Z` (ISO 8601, UTC or with an "
                    "offset) or `# captured @<seconds since the epoch>`");
  if (r->timed && r->time != t)
    return ctr_fail(r, p,
                    "a second, different capture time in one file: one "
                    "file is one snapshot (give each snapshot a file)");
  r->timed = 1;
  r->time = t;
  return 1;
}

/**
 * ctr_u64() — an unsigned integer at *@pp: decimal, or hexadecimal after
 * `0x`. 1 with *@v and *@pp advanced past it; 0 when there is none or it
 * does not fit 64 bits.
 */
static inline int ctr_u64(const char **pp, const char *e, uint64_t *v) {
  const char *p = *pp;
  uint64_t x = 0;
  if (e - p > 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
    p += 2;
    const char *s = p;
    int h;
    while (p < e && (h = hexval(*p)) >= 0) {
      if (x >> 60)
        return 0;
      x = (x << 4) | (uint64_t)h;
      p++;
    }
    if (p == s)
      return 0;
  } else {
    const char *s = p;
    while (p < e && *p >= '0' && *p <= '9') {
      uint64_t d = (uint64_t)(*p - '0');
      if (x > (UINT64_MAX - d) / 10)
        return 0;
      x = x * 10 + d;
      p++;
    }
    if (p == s)
      return 0;
  }
  *v = x;
  *pp = p;
  return 1;
}

/** Set counter @id to @v in a record being built. */
static inline void ctr_set(uint64_t *mask, uint64_t *vals, uint32_t id,
                           uint64_t v) {
  *mask |= (uint64_t)1 << id;
  vals[id] = v;
}

#endif
