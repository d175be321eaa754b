/* SPDX-License-Identifier: MIT */
/*
 * core/io/fileio.c — see fileio.h. Loaders parse whole buffers in place, which
 * is both the fastest way to tokenise text and the simplest way to report a
 * line and column.
 */
#include "io/fileio.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <yaml.h>

#include "fabriclint/types.h"

/* Default cap on one input (FL_INPUT_MAX_DEFAULT) unless
 * FABRICLINT_MAX_INPUT_SIZE says otherwise: bytes, or a number with a K, M,
 * G or T suffix (binary units). */
int fl_input_max_bytes(uint64_t *max, fl_error *err) {
  const char *env = getenv("FABRICLINT_MAX_INPUT_SIZE");
  *max = FL_INPUT_MAX_DEFAULT;
  if (!env || !*env)
    return FL_OK;
  char *end;
  errno = 0;
  unsigned long long v = strtoull(env, &end, 10);
  unsigned shift = 0;
  if (end != env && *end && !end[1]) {
    const char *u = strchr("KMGT", *end);
    shift = u ? 10u * (unsigned)(u - "KMGT" + 1) : 0;
    end += u != NULL;
  }
  if (end == env || *end || errno || env[0] == '-' || v == 0 ||
      v > (UINT64_MAX >> shift))
    return fl_error_set(err, FL_EINVAL, NULL, 0, 0,
                        "FABRICLINT_MAX_INPUT_SIZE='%s' is not a size; "
                        "expected a positive number of bytes, optionally "
                        "with a K, M, G or T suffix (e.g. 200G)",
                        env);
  *max = (uint64_t)v << shift;
  return FL_OK;
}

static int too_large(const char *path, const char *w, uint64_t max,
                     fl_error *err) {
  return fl_error_set(err, FL_EIO, path, 0, 0,
                      "%s is larger than the input size limit of %llu bytes "
                      "(set FABRICLINT_MAX_INPUT_SIZE to raise it)",
                      w, (unsigned long long)max);
}

/* Map regular file @fd of @len bytes privately (copy on write) with a zero
 * byte after it: the file's pages, then anonymous zero memory, so the
 * buffer is NUL-terminated even when @len is a multiple of the page
 * size. */
static int map_file(fl_input *in, int fd, size_t len, fl_error *err) {
  size_t pg = (size_t)sysconf(_SC_PAGESIZE);
  size_t maplen = (len / pg + 1) * pg;
  void *base = mmap(NULL, maplen, PROT_READ | PROT_WRITE,
                    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (base == MAP_FAILED)
    return fl_error_set(err, FL_ENOMEM, in->path, 0, 0,
                        "cannot map %zu bytes: %s", len, strerror(errno));
  void *m =
      mmap(base, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_FIXED, fd, 0);
  if (m == MAP_FAILED) {
    int e = errno;
    munmap(base, maplen);
    return fl_error_set(err, FL_EIO, in->path, 0, 0, "cannot map: %s",
                        strerror(e));
  }
  madvise(base, len, MADV_SEQUENTIAL);
  in->buf = base;
  in->len = len;
  in->map_len = maplen;
  in->fd = fd;
  return FL_OK;
}

/* Read a stream (pipe, FIFO, terminal, or a small regular file) until end
 * of file into a malloc'd buffer, refusing more than @max bytes. */
static int slurp(fl_input *in, int fd, size_t hint, uint64_t max, const char *w,
                 fl_error *err) {
  size_t cap = hint ? hint + 2 : (size_t)1 << 16, len = 0;
  char *buf = malloc(cap);
  for (;;) {
    if (!buf)
      return fl_error_set(err, FL_ENOMEM, in->path, 0, 0, "out of memory");
    if (len + 1 == cap) {
      char *nb = realloc(buf, cap * 2);
      if (!nb)
        free(buf);
      buf = nb;
      cap *= 2;
      continue;
    }
    ssize_t got = read(fd, buf + len, cap - len - 1);
    if (got < 0 && errno == EINTR)
      continue;
    if (got < 0) {
      int e = errno;
      free(buf);
      return fl_error_set(err, FL_EIO, in->path, 0, 0, "cannot read %s: %s", w,
                          strerror(e));
    }
    if (got == 0)
      break;
    len += (size_t)got;
    if (len > max) {
      free(buf);
      return too_large(in->path, w, max, err);
    }
  }
  buf[len] = '\0';
  in->buf = buf;
  in->len = len;
  return FL_OK;
}

/* 1 when character device @st is /dev/null (`fabriclint check - </dev/null`):
 * it reads as empty at once, so it is read like a pipe and reported as an
 * empty input, not refused as a device that may never end. */
static int is_dev_null(const struct stat *st) {
  struct stat null;
  return S_ISCHR(st->st_mode) && stat("/dev/null", &null) == 0 &&
         S_ISCHR(null.st_mode) && st->st_rdev == null.st_rdev;
}

/* What fl_input_read() accepts: regular files, pipes and FIFOs, sockets,
 * terminals and /dev/null; FL_EIO naming what else @st is. */
static int check_kind(const struct stat *st, int fd, const char *path,
                      const char *w, fl_error *err) {
  if (S_ISDIR(st->st_mode))
    return fl_error_set(err, FL_EIO, path, 0, 0, "is a directory, not a %s", w);
  if (S_ISREG(st->st_mode) || S_ISFIFO(st->st_mode) || S_ISSOCK(st->st_mode) ||
      (S_ISCHR(st->st_mode) && (isatty(fd) || is_dev_null(st))))
    return FL_OK;
  return fl_error_set(err, FL_EIO, path, 0, 0,
                      "not a regular file (a %s device, which may never end); "
                      "expected the %s as a file, a pipe or standard input",
                      S_ISCHR(st->st_mode) ? "character" : "block", w);
}

int fl_input_read(fl_input *in, const char *path, const char *what,
                  unsigned flags, fl_error *err) {
  const char *w = what ? what : "input";
  memset(in, 0, sizeof *in);
  in->path = path;
  uint64_t max;
  int rc = fl_input_max_bytes(&max, err);
  if (rc != FL_OK)
    return rc;
  int is_stdin = strcmp(path, "-") == 0;
  int fd = is_stdin ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return what ? fl_error_set(err, FL_EIO, path, 0, 0, "cannot open %s: %s", w,
                               strerror(errno))
                : fl_error_set(err, FL_EIO, path, 0, 0, "cannot read: %s",
                               strerror(errno));
  struct stat st;
  if (fstat(fd, &st) != 0)
    rc = fl_error_set(err, FL_EIO, path, 0, 0, "cannot read %s: %s", w,
                      strerror(errno));
  else
    rc = check_kind(&st, fd, path, w, err);
  if (rc == FL_OK && S_ISREG(st.st_mode) && (uint64_t)st.st_size > max)
    rc = too_large(path, w, max, err);
  else if (rc == FL_OK && S_ISREG(st.st_mode) && !(flags & FL_IN_MALLOC) &&
           st.st_size >= FL_INPUT_MAP_MIN && (uint64_t)st.st_size < SIZE_MAX)
    rc = map_file(in, fd, (size_t)st.st_size, err);
  else if (rc == FL_OK)
    rc = slurp(in, fd, S_ISREG(st.st_mode) ? (size_t)st.st_size : 0, max, w,
               err);
  if (!is_stdin && !in->map_len) /* a mapped input keeps its descriptor */
    close(fd);
  if (rc == FL_OK && (flags & FL_IN_TEXT))
    rc = fl_input_nul_check(in, err);
  if (rc != FL_OK)
    fl_input_free(in);
  return rc;
}

void fl_input_free(fl_input *in) {
  if (in->map_len) {
    munmap(in->buf, in->map_len);
    close(in->fd);
  } else
    free(in->buf);
  in->buf = NULL;
  in->len = in->map_len = 0;
}

/* The @n bytes of @in at @off: in the buffer itself, or for a mapped input
 * read into @tmp through its descriptor, never through the mapping: a file
 * that became shorter since it was mapped would fault (SIGBUS) on the pages
 * past its new end, or read them as NUL bytes (the tester's dump truncated
 * while it was read). NULL with @err set (FL_EIO) when it cannot be read. */
static const char *bytes_at(const fl_input *in, size_t off, size_t n, char *tmp,
                            fl_error *err) {
  if (!in->map_len)
    return in->buf + off;
  return fl_input_pread(in, off, tmp, n, err) == FL_OK ? tmp : NULL;
}

enum { NUL_SCAN = 1 << 16 };

int fl_input_nul_check(const fl_input *in, fl_error *err) {
  char tmp[NUL_SCAN];
  size_t at = in->len; /* the first NUL byte's offset */
  for (size_t off = 0; off < in->len && at == in->len; off += NUL_SCAN) {
    size_t n = in->len - off < NUL_SCAN ? in->len - off : NUL_SCAN;
    const char *p = bytes_at(in, off, n, tmp, err), *nul;
    if (!p)
      return FL_EIO;
    if ((nul = memchr(p, '\0', n)))
      at = off + (size_t)(nul - p);
  }
  if (at == in->len)
    return FL_OK;
  /* only now its line and column: lines are counted up to it */
  uint32_t line = 1, col = 1;
  for (size_t off = 0; off < at; off += NUL_SCAN) {
    size_t n = at - off < NUL_SCAN ? at - off : NUL_SCAN;
    const char *p = bytes_at(in, off, n, tmp, err), *q = p, *nl;
    if (!p)
      return FL_EIO;
    for (; (nl = memchr(q, '\n', (size_t)(p + n - q))); q = nl + 1)
      line++, col = 1;
    col += (uint32_t)(p + n - q);
  }
  return fl_error_set(err, FL_EPARSE, in->path, line, col,
                      "NUL byte: a binary file (or a text file with binary "
                      "garbage), not text");
}

int fl_input_pread(const fl_input *in, size_t off, char *dst, size_t n,
                   fl_error *err) {
  if (!in->map_len) {
    memcpy(dst, in->buf + off, n);
    return FL_OK;
  }
  while (n) {
    ssize_t got = pread(in->fd, dst, n, (off_t)off);
    if (got < 0 && errno == EINTR)
      continue;
    if (got < 0)
      return fl_error_set(err, FL_EIO, in->path, 0, 0, "cannot read: %s",
                          strerror(errno));
    if (got == 0) /* the file is shorter than when it was opened */
      return fl_error_set(err, FL_EIO, in->path, 0, 0,
                          "the file changed while it was read: it ends at "
                          "byte %zu, %zu bytes before its size when opened",
                          off, n);
    dst += got;
    off += (size_t)got;
    n -= (size_t)got;
  }
  return FL_OK;
}

int fl_read_file(const char *path, const char *what, char **out, size_t *outlen,
                 fl_error *err) {
  fl_input in;
  *out = NULL;
  *outlen = 0;
  int rc = fl_input_read(&in, path, what, FL_IN_TEXT | FL_IN_MALLOC, err);
  if (rc == FL_OK) {
    *out = in.buf;
    *outlen = in.len;
  }
  return rc;
}

static int yaml_flow_depth(const char *text, size_t len, unsigned max,
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

/* Nesting of collections of either style, by libyaml's event parser
 * (which builds nothing): stops at the first collection deeper than @max,
 * so a deep block nesting costs no more than @max levels. */
static int yaml_event_depth(const char *text, size_t len, unsigned max,
                            const char *path, fl_error *err) {
  yaml_parser_t p;
  if (!yaml_parser_initialize(&p))
    return fl_error_set(err, FL_ENOMEM, path, 0, 0, "out of memory");
  yaml_parser_set_input_string(&p, (const unsigned char *)text, len);
  unsigned depth = 0;
  int rc = FL_OK;
  for (;;) {
    yaml_event_t ev;
    if (!yaml_parser_parse(&p, &ev))
      break; /* a syntax error: the real parse reports it */
    yaml_event_type_t t = ev.type;
    uint32_t line = (uint32_t)ev.start_mark.line + 1,
             col = (uint32_t)ev.start_mark.column + 1;
    yaml_event_delete(&ev);
    if (t == YAML_STREAM_END_EVENT)
      break;
    if (t == YAML_SEQUENCE_START_EVENT || t == YAML_MAPPING_START_EVENT) {
      if (++depth > max) {
        rc = fl_error_set(err, FL_EPARSE, path, line, col,
                          "YAML nested deeper than %u levels", max);
        break;
      }
    } else if ((t == YAML_SEQUENCE_END_EVENT || t == YAML_MAPPING_END_EVENT) &&
               depth) {
      depth--;
    }
  }
  yaml_parser_delete(&p);
  return rc;
}

int fl_yaml_depth_check(const char *text, size_t len, unsigned max,
                        const char *path, fl_error *err) {
  int rc = yaml_flow_depth(text, len, max, path, err);
  return rc != FL_OK ? rc : yaml_event_depth(text, len, max, path, err);
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
