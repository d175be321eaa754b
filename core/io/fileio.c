/*
 * core/fileio.c — see fileio.h. Loaders parse whole buffers in place, which
 * is both the fastest way to tokenise text and the simplest way to report a
 * line and column.
 */
#include "io/fileio.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fabriclint/types.h"

int fl_read_file(const char *path, const char *what, char **out, size_t *outlen,
                 fl_error *err) {
  const char *w = what ? what : "file";
  *out = NULL;
  *outlen = 0;
  FILE *f = fopen(path, "rb");
  if (!f)
    return fl_error_set(err, FL_EIO, path, 0, 0, "cannot open %s: %s", w,
                        strerror(errno));
  struct stat st;
  size_t cap = 1 << 16;
  if (fstat(fileno(f), &st) == 0) {
    if (S_ISDIR(st.st_mode)) {
      fclose(f);
      return fl_error_set(err, FL_EIO, path, 0, 0, "is a directory, not a %s",
                          w);
    }
    if (S_ISREG(st.st_mode) && st.st_size > 0)
      cap = (size_t)st.st_size + 1;
  }
  char *buf = malloc(cap);
  size_t len = 0;
  while (buf) {
    size_t got = fread(buf + len, 1, cap - len - 1, f);
    len += got;
    if (got == 0 || len + 1 < cap)
      break;
    char *nb = realloc(buf, cap * 2);
    if (!nb) {
      free(buf);
      buf = NULL;
      break;
    }
    buf = nb;
    cap *= 2;
  }
  int bad = ferror(f);
  fclose(f);
  if (!buf)
    return fl_error_set(err, FL_ENOMEM, path, 0, 0, "out of memory");
  if (bad) {
    free(buf);
    return fl_error_set(err, FL_EIO, path, 0, 0, "cannot read %s", w);
  }
  buf[len] = '\0';
  *out = buf;
  *outlen = len;
  return FL_OK;
}

int fl_yaml_depth_check(const char *text, size_t len, unsigned max,
                        const char *path, fl_error *err) {
  unsigned depth = 0;
  uint32_t line = 1, col = 0;
  char quote = 0;
  for (size_t i = 0; i < len; i++) {
    char c = text[i];
    col++;
    if (c == '\n') {
      line++;
      col = 0;
      if (quote == 0)
        continue;
    }
    if (quote) {
      if (c == quote && !(quote == '"' && i && text[i - 1] == '\\'))
        quote = 0;
      continue;
    }
    if (c == '#' && (i == 0 || text[i - 1] == ' ' || text[i - 1] == '\t' ||
                     text[i - 1] == '\n')) {
      while (i + 1 < len && text[i + 1] != '\n')
        i++;
      continue;
    }
    if (c == '"' || c == '\'')
      quote = c;
    else if (c == '[' || c == '{') {
      if (++depth > max)
        return fl_error_set(err, FL_EPARSE, path, line, col,
                            "YAML nested deeper than %u levels", max);
    } else if ((c == ']' || c == '}') && depth)
      depth--;
  }
  return FL_OK;
}

int fl_text_verror(fl_error *err, const char *path, uint32_t line,
                   const char *ls, const char *at, int truncated,
                   const char *what, const char *fmt, va_list ap) {
  char msg[FL_ERROR_MSG_MAX];
  vsnprintf(msg, sizeof msg, fmt, ap);
  uint32_t col = at && ls ? (uint32_t)(at - ls) + 1 : 0;
  if (truncated)
    return fl_error_set(err, FL_EPARSE, path, line, col,
                        "truncated: file ends inside a %s line (%s)",
                        what ? what : "text", msg);
  return fl_error_set(err, FL_EPARSE, path, line, col, "%s", msg);
}
