/* SPDX-License-Identifier: MIT */
/*
 * core/model/error.c — the fl_error record and the control-character
 * escaper of every message (see fabriclint/error.h).
 */
#include "fabriclint/error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "model/utf8.h"

/* The code point of the valid @len-byte sequence at @s. */
static uint32_t utf8_cp(const unsigned char *s, size_t len) {
  static const unsigned char lead_mask[] = {0, 0x7f, 0x1f, 0x0f, 0x07};
  uint32_t cp = s[0] & lead_mask[len];
  for (size_t i = 1; i < len; i++)
    cp = (cp << 6) | (s[i] & 0x3f);
  return cp;
}

static int is_bidi_control(uint32_t cp) {
  return (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069);
}

char *fl_escape_controls(char *dst, uint32_t size, const char *src) {
  if (!dst || size == 0)
    return dst;
  const unsigned char *s = (const unsigned char *)(src ? src : "");
  size_t n = strlen((const char *)s), o = 0;
  for (size_t i = 0; i < n;) {
    size_t k = fl_utf8_seq(s + i, n - i);
    uint32_t cp = k ? utf8_cp(s + i, k) : 0;
    char esc[8];
    size_t w;
    if (!k || s[i] < 0x20 || s[i] == 0x7f) {
      w = (size_t)snprintf(esc, sizeof esc, "\\x%02x", s[i]);
      k = 1;
    } else if ((cp >= 0x80 && cp <= 0x9f) || is_bidi_control(cp)) {
      w = (size_t)snprintf(esc, sizeof esc, "\\u%04x", (unsigned)cp);
    } else {
      if (o + k >= size)
        break;
      memcpy(dst + o, s + i, k);
      o += k;
      i += k;
      continue;
    }
    if (o + w >= size)
      break;
    memcpy(dst + o, esc, w);
    o += w;
    i += k;
  }
  dst[o] = '\0';
  return dst;
}

void fl_error_clear(fl_error *err) {
  if (err)
    memset(err, 0, sizeof *err);
}

int fl_error_set(fl_error *err, int code, const char *file, uint32_t line,
                 uint32_t col, const char *fmt, ...) {
  if (!err || err->code != 0)
    return code;
  err->code = code;
  err->line = line;
  err->col = col;
  fl_escape_controls(err->file, sizeof err->file, file);
  char raw[FL_ERROR_MSG_MAX];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(raw, sizeof raw, fmt, ap);
  va_end(ap);
  fl_escape_controls(err->message, sizeof err->message, raw);
  return code;
}

char *fl_error_format(const fl_error *err, char *buf, uint32_t size) {
  if (!buf || size == 0)
    return buf;
  if (!err) {
    buf[0] = '\0';
    return buf;
  }
  if (err->file[0] && err->line && err->col)
    snprintf(buf, size, "%s:%u:%u: %s", err->file, err->line, err->col,
             err->message);
  else if (err->file[0] && err->line)
    snprintf(buf, size, "%s:%u: %s", err->file, err->line, err->message);
  else if (err->file[0])
    snprintf(buf, size, "%s: %s", err->file, err->message);
  else
    snprintf(buf, size, "%s", err->message);
  return buf;
}
