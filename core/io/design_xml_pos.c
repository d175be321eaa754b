/* SPDX-License-Identifier: MIT */
/*
 * core/io/design_xml_pos.c — where in a design XML file: the byte scanner
 * that walks the same bytes as libxml2's reader and finds each element's
 * start tag (the k-th element event is the k-th start tag), giving exact
 * line and column of elements and attributes, and dx_fail()/dx_nomem(),
 * which report an error at such a position (design_xml.c's opening comment
 * says why the reader's own positions do not do).
 */
#include "io/design_xml_impl.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* ---- errors ------------------------------------------------------------ */

int dx_fail(dx *d, uint32_t line, uint32_t col, const char *fmt, ...) {
  char msg[FL_ERROR_MSG_MAX];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  if (d->rc == 0)
    d->rc = FL_EPARSE;
  fl_error_set(d->err, FL_EPARSE, d->path, line, col, "%s", msg);
  return -1;
}

int dx_nomem(dx *d) {
  if (d->rc == 0)
    d->rc = FL_ENOMEM;
  fl_error_set(d->err, FL_ENOMEM, d->path, 0, 0,
               "out of memory while loading design XML");
  return -1;
}

/* ---- the byte scanner: positions of start tags ----------------------------
 */

static int is_cont(unsigned char c) {
  return (c & 0xC0u) == 0x80u;
}

/* Advance the scanner's line bookkeeping over [pos, to). */
static void scan_lines(dx_scan *s, size_t to) {
  const char *p = s->buf + s->pos, *e = s->buf + to;
  while (p < e) {
    const char *nl = memchr(p, '\n', (size_t)(e - p));
    if (!nl)
      break;
    s->line++;
    s->line_start = (size_t)(nl - s->buf) + 1;
    p = nl + 1;
  }
  s->pos = to;
}

/* Column (1-based, in characters) of offset @off on the current line. */
static uint32_t scan_col(dx_scan *s, size_t off) {
  if (s->col_off < s->line_start || s->col_off > off) {
    s->col_off = s->line_start;
    s->col = 1;
  }
  for (size_t i = s->col_off; i < off; i++)
    s->col += !is_cont((unsigned char)s->buf[i]);
  s->col_off = off;
  return s->col;
}

/* Line and column of @to, counting from a known position (@off, @line, @col).
 */
void pos_from(const char *buf, size_t off, uint32_t line, uint32_t col,
              size_t to, uint32_t *oline, uint32_t *ocol) {
  for (size_t i = off; i < to; i++) {
    if (buf[i] == '\n') {
      line++;
      col = 1;
    } else if (!is_cont((unsigned char)buf[i])) {
      col++;
    }
  }
  *oline = line;
  *ocol = col;
}

/* Offset just past the first @pat at or after @from, or @len. */
size_t skip_past(const char *buf, size_t len, size_t from, const char *pat) {
  size_t pl = strlen(pat);
  while (from + pl <= len) {
    const char *p = memchr(buf + from, pat[0], len - from - pl + 1);
    if (!p)
      break;
    from = (size_t)(p - buf);
    if (memcmp(p, pat, pl) == 0)
      return from + pl;
    from++;
  }
  return len;
}

/* Offset of the '>' closing a tag starting at @from, honouring quotes. */
size_t tag_close(const char *buf, size_t len, size_t from) {
  size_t i = from;
  while (i < len && buf[i] != '>') {
    if (buf[i] == '"' || buf[i] == '\'') {
      const char *q = memchr(buf + i + 1, buf[i], len - i - 1);
      if (!q)
        return len;
      i = (size_t)(q - buf);
    }
    i++;
  }
  return i;
}

/*
 * scan_next() — find the next start tag. Comments, CDATA sections,
 * processing instructions and end tags are skipped; a <!DOCTYPE is reported
 * through @doctype (set to its offset + 1) and stops the scan.
 * Returns 0 with @t filled, or -1 at the end of the buffer.
 */
int scan_next(dx_scan *s, dx_tag *t, size_t *doctype) {
  const char *b = s->buf;
  size_t n = s->len;
  for (;;) {
    const char *p = memchr(b + s->pos, '<', n - s->pos);
    if (!p)
      return -1;
    size_t i = (size_t)(p - b);
    scan_lines(s, i);
    if (i + 1 >= n)
      return -1;
    char c = b[i + 1];
    size_t next;
    if (c == '!') {
      if (n - i >= 4 && memcmp(b + i, "<!--", 4) == 0)
        next = skip_past(b, n, i + 4, "-->");
      else if (n - i >= 9 && memcmp(b + i, "<![CDATA[", 9) == 0)
        next = skip_past(b, n, i + 9, "]]>");
      else {
        if (doctype)
          *doctype = i + 1;
        return -1;
      }
    } else if (c == '?') {
      next = skip_past(b, n, i + 2, "?>");
    } else if (c == '/') {
      next = tag_close(b, n, i + 2) + 1;
    } else {
      t->off = i;
      t->line = s->line;
      t->col = scan_col(s, i);
      t->end = tag_close(b, n, i + 1);
      scan_lines(s, t->end < n ? t->end + 1 : n);
      return 0;
    }
    scan_lines(s, next < n ? next : n);
  }
}

/* Line/column of attribute @name in start tag @t (the tag's own if absent). */
void attr_pos(const dx *d, const dx_tag *t, const char *name, uint32_t *line,
              uint32_t *col) {
  const char *b = d->scan.buf;
  size_t i = t->off + 1, e = t->end, nl = strlen(name);
  *line = t->line;
  *col = t->col;
  if (d->scan.broken || e > d->scan.len)
    return;
  while (i < e && !strchr(" \t\r\n/>", b[i]))
    i++; /* element name */
  for (;;) {
    while (i < e && strchr(" \t\r\n", b[i]))
      i++;
    if (i >= e || b[i] == '/')
      return;
    size_t ns = i;
    while (i < e && !strchr(" \t\r\n=", b[i]))
      i++;
    if (i - ns == nl && memcmp(b + ns, name, nl) == 0) {
      pos_from(b, t->off, t->line, t->col, ns, line, col);
      return;
    }
    while (i < e && b[i] != '"' && b[i] != '\'')
      i++;
    if (i >= e)
      return;
    const char *q = memchr(b + i + 1, b[i], e - i - 1);
    if (!q)
      return;
    i = (size_t)(q - b) + 1;
  }
}
