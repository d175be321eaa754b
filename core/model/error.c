/*
 * core/model/error.c — the fl_error record (see fabriclint/error.h).
 */
#include "fabriclint/error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

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
  snprintf(err->file, sizeof err->file, "%s", file ? file : "");
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(err->message, sizeof err->message, fmt, ap);
  va_end(ap);
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
