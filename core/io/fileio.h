/* SPDX-License-Identifier: MIT */
/*
 * core/io/fileio.h — reading an input file whole (internal).
 */
#ifndef FABRICLINT_CORE_FILEIO_H
#define FABRICLINT_CORE_FILEIO_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "fabriclint/error.h"

/*
 * Every file a run reads (inputs, ibsim includes, the policy, the
 * node-name map, the baseline, annotation files, routing dumps) is read
 * once, whole, by fl_input_read(): format detection and the loader see the
 * same bytes, so pipes, FIFOs, `/dev/stdin`, `<(...)` and `-` (standard
 * input) load like files. What cannot be read to an end (a character
 * device such as /dev/zero) is refused, and no file may exceed the input
 * size limit (docs/cli.md "Limits").
 */

/** Default input size limit: 64 GiB (an opensm-lfts.dump of a 5,120-switch
 * fabric with 49,151 LIDs is ~19 GB). */
#define FL_INPUT_MAX_DEFAULT ((uint64_t)64 << 30)
/** Regular files from this size on are mapped rather than read. */
#define FL_INPUT_MAP_MIN ((off_t)1 << 20)

/** fl_input_read() flags. */
#define FL_IN_TEXT 1u /**< refuse a NUL byte anywhere (file:line:col) */
#define FL_IN_MALLOC                                                           \
  2u /**< buffer from malloc (never mapped): caller may                        \
          take it and free() it */

/** One input, read whole. @buf is writable, NUL-terminated at @len. */
typedef struct fl_input {
  const char *path; /**< as given (borrowed); "-" is standard input */
  char *buf;
  size_t len;
  size_t map_len; /**< non-zero: @buf is a private mapping of that size */
  int fd;         /**< when @map_len: the file, open for fl_input_pread() */
  /* Set by format detection (core/io/load.c), FL_FMT_AUTO (0) before: */
  uint32_t detected;    /**< the format detection chose */
  uint32_t detect_also; /**< another format the same window fits */
  uint32_t detect_line; /**< 1-based line where the deciding window starts */
} fl_input;

/**
 * fl_input_read() — read @path ("-": standard input) whole into @in: a
 * regular file of 1 MiB or more is mapped privately (copy on write), other
 * files, pipes, FIFOs, sockets and terminals are read into memory. @what
 * names the file in errors ("policy", "node-name-map"; NULL: "input").
 * @flags: FL_IN_TEXT, FL_IN_MALLOC. Free with fl_input_free().
 * Returns FL_OK; FL_EIO (cannot open or read, a folder, a device, larger
 * than the limit of fl_input_max_bytes()), FL_EPARSE (FL_IN_TEXT and a NUL
 * byte: its line and column), FL_EINVAL (a bad FABRICLINT_MAX_INPUT_SIZE)
 * or FL_ENOMEM, with @err set and @in empty.
 */
int fl_input_read(fl_input *in, const char *path, const char *what,
                  unsigned flags, fl_error *err);

/**
 * fl_utf8_bom() — 3 when the @n bytes at @s start with a UTF-8 byte order
 * mark (EF BB BF, which Windows editors and PowerShell write), else 0: the
 * bytes a reader skips before its first line. Line numbers are unchanged;
 * columns of line 1 still count the mark's 3 bytes where a reader keeps
 * the line start.
 */
static inline size_t fl_utf8_bom(const char *s, size_t n) {
  return n >= 3 && (unsigned char)s[0] == 0xef && (unsigned char)s[1] == 0xbb &&
                 (unsigned char)s[2] == 0xbf
             ? 3
             : 0;
}

/** fl_input_free() — release @in's buffer; @in may be empty. */
void fl_input_free(fl_input *in);

/**
 * fl_input_nul_check() — FL_OK when @in holds no NUL byte, else FL_EPARSE
 * naming the line and column (1-based) of the first one. O(length).
 */
int fl_input_nul_check(const fl_input *in, fl_error *err);

/**
 * fl_input_pread() — copy the @n bytes of input @in from offset @off to
 * @dst; [off, off + n) must lie within @in->len. A mapped input is read
 * through its descriptor (read(2) into a buffer the caller reuses is 3x
 * faster than touching the mapping's pages, and keeps no page of the file
 * resident: core/io/routing_read.h); others are copied from @buf.
 * FL_OK; FL_EIO with @err set when the file cannot be read or became
 * shorter since it was opened.
 */
int fl_input_pread(const fl_input *in, size_t off, char *dst, size_t n,
                   fl_error *err);

/**
 * fl_input_max_bytes() — the per-file input size limit in bytes: the
 * environment variable FABRICLINT_MAX_INPUT_SIZE (bytes, or with a K, M, G
 * or T suffix, binary units), else FL_INPUT_MAX_DEFAULT. FL_EINVAL with
 * @err set when the variable is not a positive size.
 */
int fl_input_max_bytes(uint64_t *max, fl_error *err);

/**
 * fl_read_file() — fl_input_read() with FL_IN_TEXT | FL_IN_MALLOC for files
 * that are not fabric inputs (policy, node-name map): the new
 * NUL-terminated buffer *@buf of *@len bytes is the caller's to free().
 */
int fl_read_file(const char *path, const char *what, char **buf, size_t *len,
                 fl_error *err);

/**
 * fl_text_verror() — the parse error of a line-oriented loader: FL_EPARSE at
 * @path:@line, column of @at within the line starting at @ls (no column
 * when @at is NULL), message printf(@fmt, @ap). When @truncated, the file
 * ended inside that line, and the message says so, naming the kind of line
 * (@what, e.g. "port"). Returns FL_EPARSE (the first error is kept).
 */
int fl_text_verror(fl_error *err, const char *path, uint32_t line,
                   const char *ls, const char *at, int truncated,
                   const char *what, const char *fmt, va_list ap);

/**
 * fl_yaml_depth_check() — refuse YAML nested deeper than @max levels before
 * handing it to libyaml's composer, which takes quadratic time on deep flow
 * nesting (100,000 levels: 45 s) and ~300 bytes per level of block nesting
 * (`- - - ... x`). First a byte scan of flow collections ([ and {; quoted
 * strings and comments skipped), then libyaml's event parser for both
 * styles, stopping at the first collection too deep. O(length). Returns FL_OK,
 * or FL_EPARSE with @err naming @path, the line and column of the first bracket
 * too deep.
 */
int fl_yaml_depth_check(const char *text, size_t len, unsigned max,
                        const char *path, fl_error *err);

#endif
