/* SPDX-License-Identifier: MIT */
/*
 * core/io/design_edit.c — text edits of a design XML <link> element (see
 * design_edit.h). A small scanner of one start tag (XML 1.0 §3.1: Name
 * S? '=' S? AttValue, AttValue in '"' or '\''; §4.1 character and entity
 * references in values), not a parser: the file was parsed and validated
 * when it was loaded, and the element's position is its provenance.
 */
#include "io/design_edit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabriclint/plugin.h"
#include "util/xml_escape.h"

#define MAX_ATTRS 32

typedef struct attr {
  const char *name;
  size_t name_len;
  size_t v0, v1; /* value bytes [v0, v1) */
  char quote;
} attr;

int fl_text_index_build(fl_text_index *t, const char *buf, size_t len) {
  memset(t, 0, sizeof *t);
  t->buf = buf;
  t->len = len;
  size_t n = 1;
  for (size_t i = 0; i < len; i++)
    n += buf[i] == '\n';
  if (!(t->line = malloc(n * sizeof *t->line)))
    return -1;
  t->line[t->n_lines++] = 0;
  for (size_t i = 0; i < len; i++)
    if (buf[i] == '\n')
      t->line[t->n_lines++] = i + 1;
  return 0;
}

void fl_text_index_free(fl_text_index *t) {
  free(t->line);
  memset(t, 0, sizeof *t);
}

/* Byte offset of the start of line @line (1-based), or len when absent. */
static size_t line_start(const fl_text_index *t, uint32_t line) {
  return line >= 1 && line <= t->n_lines ? t->line[line - 1] : t->len;
}

/* Offset of the @col-th code point (1-based) from @o, within its line. */
static size_t col_offset(const char *buf, size_t len, size_t o, uint32_t col) {
  for (uint32_t c = 1; c < col && o < len && buf[o] != '\n'; c++) {
    o++;
    while (o < len && ((unsigned char)buf[o] & 0xc0) == 0x80)
      o++;
  }
  return o;
}

static int is_link_at(const char *buf, size_t len, size_t o) {
  return o + 6 <= len && memcmp(buf + o, "<link", 5) == 0 &&
         strchr(" \t\r\n/>", buf[o + 5]);
}

/* The <link start tag at line:col (code points, else bytes, else the only
 * one of the line); len when none. */
static size_t find_link(const fl_text_index *t, uint32_t line, uint32_t col) {
  const char *buf = t->buf;
  size_t len = t->len;
  size_t ls = line_start(t, line);
  if (ls >= len)
    return len;
  size_t o = col_offset(buf, len, ls, col ? col : 1);
  if (is_link_at(buf, len, o))
    return o;
  if (col && ls + col - 1 < len && is_link_at(buf, len, ls + col - 1))
    return ls + col - 1;
  size_t found = len;
  for (o = ls; o < len && buf[o] != '\n'; o++)
    if (is_link_at(buf, len, o)) {
      if (found != len)
        return len; /* two on the line: ambiguous */
      found = o;
    }
  return found;
}

static int space(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/* Scan the attributes of the start tag at @o; *@end gets the offset just
 * after the last attribute value (where a new one goes). Count or -1. */
static int scan_attrs(const char *buf, size_t len, size_t o, attr *v,
                      size_t *end) {
  int n = 0;
  o += 5; /* "<link" */
  *end = o;
  for (;;) {
    while (o < len && space(buf[o]))
      o++;
    if (o >= len)
      return -1;
    if (buf[o] == '>' || buf[o] == '/')
      return n;
    size_t n0 = o;
    while (o < len && !space(buf[o]) && buf[o] != '=' && buf[o] != '>' &&
           buf[o] != '/')
      o++;
    size_t n1 = o;
    while (o < len && space(buf[o]))
      o++;
    if (o >= len || buf[o] != '=' || n1 == n0 || n >= MAX_ATTRS)
      return -1;
    o++;
    while (o < len && space(buf[o]))
      o++;
    if (o >= len || (buf[o] != '"' && buf[o] != '\''))
      return -1;
    char q = buf[o++];
    size_t v0 = o;
    while (o < len && buf[o] != q && buf[o] != '<')
      o++;
    if (o >= len || buf[o] != q)
      return -1;
    v[n++] = (attr){buf + n0, n1 - n0, v0, o, q};
    *end = ++o;
  }
}

static const attr *get(const attr *v, int n, const char *name) {
  size_t l = strlen(name);
  for (int i = 0; i < n; i++)
    if (v[i].name_len == l && memcmp(v[i].name, name, l) == 0)
      return &v[i];
  return NULL;
}

/* Append code point @u as UTF-8. */
static size_t put_utf8(char *d, unsigned long u) {
  if (u < 0x80) {
    d[0] = (char)u;
    return 1;
  }
  if (u < 0x800) {
    d[0] = (char)(0xc0 | (u >> 6));
    d[1] = (char)(0x80 | (u & 0x3f));
    return 2;
  }
  if (u < 0x10000) {
    d[0] = (char)(0xe0 | (u >> 12));
    d[1] = (char)(0x80 | ((u >> 6) & 0x3f));
    d[2] = (char)(0x80 | (u & 0x3f));
    return 3;
  }
  d[0] = (char)(0xf0 | (u >> 18));
  d[1] = (char)(0x80 | ((u >> 12) & 0x3f));
  d[2] = (char)(0x80 | ((u >> 6) & 0x3f));
  d[3] = (char)(0x80 | (u & 0x3f));
  return 4;
}

/* The value of @a with references decoded (malloc'd), or NULL (ENOMEM or
 * a reference this scanner does not know: then nothing matches). */
static char *decode(const char *buf, const attr *a) {
  size_t n = a->v1 - a->v0;
  char *d = malloc(n + 1), *p = d;
  if (!d)
    return NULL;
  static const struct {
    const char *ref;
    char c;
  } NAMED[] = {{"lt;", '<'},
               {"gt;", '>'},
               {"amp;", '&'},
               {"quot;", '"'},
               {"apos;", '\''}};
  for (size_t i = a->v0; i < a->v1;) {
    if (buf[i] != '&') {
      *p++ = buf[i++];
      continue;
    }
    size_t k;
    for (k = 0; k < 5; k++) {
      size_t rl = strlen(NAMED[k].ref);
      if (i + 1 + rl <= a->v1 && memcmp(buf + i + 1, NAMED[k].ref, rl) == 0) {
        *p++ = NAMED[k].c;
        i += 1 + rl;
        break;
      }
    }
    if (k < 5)
      continue;
    if (i + 2 < a->v1 && buf[i + 1] == '#') {
      int hex = buf[i + 2] == 'x';
      char *end;
      unsigned long u = strtoul(buf + i + 2 + hex, &end, hex ? 16 : 10);
      if (end > buf + i + 2 + hex && (size_t)(end - buf) < a->v1 &&
          *end == ';' && u && u <= 0x10ffff) {
        p += put_utf8(p, u); /* a reference is longer than its UTF-8 */
        i = (size_t)(end - buf) + 1;
        continue;
      }
    }
    free(d);
    return NULL;
  }
  *p = '\0';
  return d;
}

static int value_is(const char *buf, const attr *a, const char *want) {
  char *v = a ? decode(buf, a) : NULL;
  int same = v && strcmp(v, want) == 0;
  free(v);
  return same;
}

static int port_is(const char *buf, const attr *a, uint32_t want) {
  char num[16];
  snprintf(num, sizeof num, "%u", want);
  return value_is(buf, a, num);
}

/* @s escaped for an attribute value quoted with @q (XML 1.0 §2.4, §3.3.3). */
static char *escape(const char *s, char q) {
  char *d = malloc(strlen(s) * 6 + 1), *p = d;
  if (!d)
    return NULL;
  unsigned flags = q == '"' ? FL_XML_QUOT : FL_XML_APOS;
  for (; *s; s++) {
    const char *e = fl_xml_entity((unsigned char)*s, flags);
    if (e)
      p += sprintf(p, "%s", e);
    else
      *p++ = *s;
  }
  *p = '\0';
  return d;
}

/* (line, code-point column) of byte offset @o: the last line start at or
 * before @o (binary search), then code points to @o. */
static void position(const fl_text_index *t, size_t o, uint32_t *line,
                     uint32_t *col) {
  size_t lo = 0, hi = t->n_lines;
  while (hi - lo > 1) {
    size_t mid = (lo + hi) / 2;
    if (t->line[mid] <= o)
      lo = mid;
    else
      hi = mid;
  }
  uint32_t c = 1;
  for (size_t i = t->line[lo]; i < o; i++)
    c += ((unsigned char)t->buf[i] & 0xc0) != 0x80;
  *line = (uint32_t)lo + 1;
  *col = c;
}

/* Edit replacing bytes [o0, o1) by @text (owned). */
static int add_edit(const fl_text_index *t, size_t o0, size_t o1, char *text,
                    fl_text_edit *out, uint32_t *n) {
  if (!text)
    return -2;
  fl_text_edit *e = &out[(*n)++];
  position(t, o0, &e->line, &e->col);
  position(t, o1, &e->end_line, &e->end_col);
  e->text = text;
  return 0;
}

/* Replace the value of @a by @want (escaped) unless it already is. */
static int set_value(const fl_text_index *t, const attr *a, const char *want,
                     fl_text_edit *out, uint32_t *n) {
  if (value_is(t->buf, a, want))
    return 0;
  return add_edit(t, a->v0, a->v1, escape(want, a->quote), out, n);
}

int fl_design_link_edits(const fl_text_index *t, uint32_t line, uint32_t col,
                         const fl_link_change *c, fl_text_edit out[2],
                         uint32_t *n) {
  const char *buf = t->buf;
  size_t at = find_link(t, line, col), end;
  attr v[MAX_ATTRS];
  int na = at < t->len ? scan_attrs(buf, t->len, at, v, &end) : -1;
  if (na < 0)
    return -1;
  const attr *an = get(v, na, "a"), *ap = get(v, na, "a-port"),
             *bn = get(v, na, "b"), *bp = get(v, na, "b-port");
  /* xml side 0 = a, 1 = b; which holds cable end 0? */
  int direct = value_is(buf, an, c->node[0]) && port_is(buf, ap, c->port[0]) &&
               value_is(buf, bn, c->node[1]) && port_is(buf, bp, c->port[1]);
  int crossed = value_is(buf, an, c->node[1]) && port_is(buf, ap, c->port[1]) &&
                value_is(buf, bn, c->node[0]) && port_is(buf, bp, c->port[0]);
  if (!direct && !crossed)
    return -1;
  uint32_t n0 = *n;
  int rc = 0;
  if (c->kind == FL_FIX_MOVE_END) {
    int side_b = direct ? c->end == 1 : c->end == 0;
    char num[16];
    snprintf(num, sizeof num, "%u", c->to_port);
    rc = set_value(t, side_b ? bn : an, c->to_node, out, n);
    if (rc == 0)
      rc = set_value(t, side_b ? bp : ap, num, out, n);
  } else {
    const char *name = c->kind == FL_FIX_SET_SPEED ? "speed" : "width";
    const attr *a = get(v, na, name);
    if (a) {
      rc = set_value(t, a, c->value, out, n);
    } else { /* a new attribute after the last one */
      char *esc = escape(c->value, '"');
      char *text = esc ? malloc(strlen(name) + strlen(esc) + 5) : NULL;
      if (text)
        sprintf(text, " %s=\"%s\"", name, esc);
      free(esc);
      rc = add_edit(t, end, end, text, out, n);
    }
  }
  if (rc != 0) {
    for (uint32_t i = n0; i < *n; i++)
      free(out[i].text);
    *n = n0;
  }
  return rc;
}
