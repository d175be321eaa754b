/* SPDX-License-Identifier: MIT */
/*
 * fabriclint/error.h — one error record, filled by whatever failed.
 *
 * The record is a plain struct with fixed buffers: it is owned by the caller
 * (usually on the stack), needs no freeing, and carries the location of bad
 * input as file, line and column so that the CLI can print the conventional
 * `file:line[:col]: message` form (GNU Coding Standards, "Formatting Error
 * Messages").
 */
#ifndef FABRICLINT_ERROR_H
#define FABRICLINT_ERROR_H

#include <stdint.h>

#include "fabriclint/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Size of the message buffer of fl_error, including the NUL. */
#define FL_ERROR_MSG_MAX 1024
/** Size of the file-name buffer of fl_error, including the NUL. */
#define FL_ERROR_FILE_MAX 1024

/**
 * fl_error — what went wrong and where.
 * @code: one of the FL_E* codes of types.h (0 when no error was recorded).
 * @file: the input file concerned, or "" when not about a file.
 * @line: 1-based line in @file, 0 when unknown.
 * @col:  1-based column in @file, 0 when unknown.
 * @message: a human-readable sentence saying what was expected.
 */
typedef struct fl_error {
  int code;
  uint32_t line;
  uint32_t col;
  char file[FL_ERROR_FILE_MAX];
  char message[FL_ERROR_MSG_MAX];
} fl_error;

/**
 * fl_error_clear() — reset @err to "no error". @err may be NULL.
 */
FL_EXTERN(void) fl_error_clear(fl_error *err);

/**
 * fl_error_set() — record an error; returns @code so callers can write
 * `return fl_error_set(err, FL_EPARSE, path, line, 0, "...")`.
 * @err may be NULL (the error is then only returned). @file may be NULL.
 * The message is printf-formatted and truncated to FL_ERROR_MSG_MAX - 1 bytes;
 * control characters in it and in @file are escaped (fl_escape_controls()).
 * Only the first error is kept: a second call on an error already set is a
 * no-op, so the root cause survives cleanup paths.
 */
FL_EXTERN(int)
fl_error_set(fl_error *err, int code, const char *file, uint32_t line,
             uint32_t col, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 6, 7)))
#endif
    ;

/**
 * fl_escape_controls() — copy @src into @dst (@size bytes, always
 * NUL-terminated when @size > 0) with everything a terminal could act on
 * made visible: C0 control bytes and DEL as `\xNN` (ESC -> `\x1b`), the
 * UTF-8 C1 controls U+0080..U+009F and the bidirectional overrides and
 * isolates (U+202A..U+202E, U+2066..U+2069) as `\uNNNN`, and bytes that
 * are not valid UTF-8 as `\xNN`. Other text is copied as it is. An escape
 * that does not fit is left out whole (never cut in half). Returns @dst.
 * Used by fl_error_set() for the message and the file name, so every
 * message that quotes input (names, paths, values) is safe to print on a
 * terminal or a CI log (ECMA-48 escape and OSC sequences never reach it).
 */
FL_EXTERN(char *) fl_escape_controls(char *dst, uint32_t size, const char *src);

/**
 * fl_error_format() — write `file:line:col: message` (parts that are unknown
 * are left out) into @buf of @size bytes; returns @buf.
 */
FL_EXTERN(char *)
fl_error_format(const fl_error *err, char *buf, uint32_t size);

#ifdef __cplusplus
}
#endif
#endif /* FABRICLINT_ERROR_H */
