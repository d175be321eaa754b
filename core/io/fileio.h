/*
 * core/fileio.h — reading an input file whole (internal).
 */
#ifndef FABRICLINT_CORE_FILEIO_H
#define FABRICLINT_CORE_FILEIO_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "fabriclint/error.h"

/**
 * fl_read_file() — read @path whole into a new NUL-terminated buffer
 * *@buf of *@len bytes (the caller frees it). One allocation for regular
 * files (sized by fstat), doubling for pipes. @what names the file in
 * errors ("node-name-map", "policy"; NULL for an input). Returns FL_OK,
 * FL_EIO (cannot open or read, or a directory) or FL_ENOMEM, with @err set.
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
 * fl_yaml_depth_check() — refuse YAML nested deeper than @max levels of
 * flow collections ([ and {) before handing it to libyaml, whose composer
 * takes quadratic time on deep nesting (100,000 levels: 45 s). Quoted
 * strings and comments are skipped. Returns FL_OK, or FL_EPARSE with @err
 * naming @path, the line and column of the first bracket too deep.
 */
int fl_yaml_depth_check(const char *text, size_t len, unsigned max,
                        const char *path, fl_error *err);

#endif
