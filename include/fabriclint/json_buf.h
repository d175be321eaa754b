/* SPDX-License-Identifier: MIT */
/*
 * fabriclint/json_buf.h — a tiny header-only JSON writer for plugins that
 * build the `evidence_json` of a finding (fl_finding.evidence_json).
 *
 * Header-only on purpose: plugins must not link against the host
 * (DESIGN.md §3), and a JSON library dependency for a few objects would be
 * out of proportion. Strings are escaped per RFC 8259 §7. Commas are
 * inserted automatically. Out of memory turns the buffer into an error
 * state; jb_str() then returns NULL and report() accepts NULL evidence.
 *
 * Usage: jbuf b; jb_init(&b); jb_obj_open(&b); jb_key_int(&b, "n", 3);
 *        jb_obj_close(&b); ... use jb_str(&b) ...; jb_free(&b);
 */
#ifndef FABRICLINT_JSON_BUF_H
#define FABRICLINT_JSON_BUF_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/** jbuf — growable JSON text; owned by the caller, freed with jb_free(). */
typedef struct jbuf {
  char *s;
  size_t len, cap;
  int need_comma; /* a value was written at the current nesting level */
  int failed;
} jbuf;

static inline void jb_init(jbuf *b) {
  memset(b, 0, sizeof *b);
}
static inline void jb_free(jbuf *b) {
  free(b->s);
  memset(b, 0, sizeof *b);
}
/** The JSON text (NUL-terminated), or NULL after an allocation failure. */
static inline const char *jb_str(const jbuf *b) {
  return b->failed ? NULL : (b->s ? b->s : "{}");
}

static inline void jb_raw(jbuf *b, const char *t, size_t n) {
  if (b->failed)
    return;
  if (b->len + n + 1 > b->cap) {
    size_t nc = b->cap ? b->cap * 2 : 256;
    while (nc < b->len + n + 1)
      nc *= 2;
    char *p = (char *)realloc(b->s, nc);
    if (!p) {
      b->failed = 1;
      return;
    }
    b->s = p;
    b->cap = nc;
  }
  memcpy(b->s + b->len, t, n);
  b->len += n;
  b->s[b->len] = '\0';
}

static inline void jb_sep(jbuf *b) {
  if (b->need_comma)
    jb_raw(b, ",", 1);
  b->need_comma = 1;
}

static inline void jb_escaped(jbuf *b, const char *s) {
  jb_raw(b, "\"", 1);
  for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
    char esc[8];
    if (*p == '"' || *p == '\\') {
      esc[0] = '\\';
      esc[1] = (char)*p;
      jb_raw(b, esc, 2);
    } else if (*p < 0x20) {
      snprintf(esc, sizeof esc, "\\u%04x", *p);
      jb_raw(b, esc, 6);
    } else {
      jb_raw(b, (const char *)p, 1);
    }
  }
  jb_raw(b, "\"", 1);
}

static inline void jb_obj_open(jbuf *b) {
  jb_sep(b);
  jb_raw(b, "{", 1);
  b->need_comma = 0;
}
static inline void jb_obj_close(jbuf *b) {
  jb_raw(b, "}", 1);
  b->need_comma = 1;
}
static inline void jb_arr_open(jbuf *b) {
  jb_sep(b);
  jb_raw(b, "[", 1);
  b->need_comma = 0;
}
static inline void jb_arr_close(jbuf *b) {
  jb_raw(b, "]", 1);
  b->need_comma = 1;
}
/** Write a key; the next value written belongs to it. */
static inline void jb_key(jbuf *b, const char *k) {
  jb_sep(b);
  jb_escaped(b, k);
  jb_raw(b, ":", 1);
  b->need_comma = 0;
}
static inline void jb_str_item(jbuf *b, const char *v) {
  jb_sep(b);
  jb_escaped(b, v);
}
static inline void jb_int_item(jbuf *b, int64_t v) {
  char t[32];
  int n = snprintf(t, sizeof t, "%lld", (long long)v);
  jb_sep(b);
  jb_raw(b, t, (size_t)n);
}
static inline void jb_double_item(jbuf *b, double v) {
  char t[40];
  int n = snprintf(t, sizeof t, "%.6g", v);
  jb_sep(b);
  jb_raw(b, t, (size_t)n);
}
static inline void jb_key_str(jbuf *b, const char *k, const char *v) {
  jb_key(b, k);
  jb_str_item(b, v);
}
static inline void jb_key_int(jbuf *b, const char *k, int64_t v) {
  jb_key(b, k);
  jb_int_item(b, v);
}
static inline void jb_key_bool(jbuf *b, const char *k, int v) {
  jb_key(b, k);
  jb_sep(b);
  jb_raw(b, v ? "true" : "false", v ? 4 : 5);
}
static inline void jb_key_double(jbuf *b, const char *k, double v) {
  jb_key(b, k);
  jb_double_item(b, v);
}

#endif
