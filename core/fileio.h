/*
 * core/fileio.h — reading an input file whole (internal).
 */
#ifndef FABRICLINT_CORE_FILEIO_H
#define FABRICLINT_CORE_FILEIO_H

#include <stddef.h>

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
 * fl_yaml_depth_check() — refuse YAML nested deeper than @max levels of
 * flow collections ([ and {) before handing it to libyaml, whose composer
 * takes quadratic time on deep nesting (100,000 levels: 45 s). Quoted
 * strings and comments are skipped. Returns FL_OK, or FL_EPARSE with @err
 * naming @path, the line and column of the first bracket too deep.
 */
int fl_yaml_depth_check(const char *text, size_t len, unsigned max,
                        const char *path, fl_error *err);

#endif
