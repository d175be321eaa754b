/* SPDX-License-Identifier: MIT */
/*
 * core/io/data_path.h — locating the data files shipped with fabriclint
 * (schema, built-in plugins, documentation) at run time, relative to the
 * running executable, so an install tree can be moved or unpacked under
 * another prefix (core/io/data_path.c).
 */
#ifndef FABRICLINT_CORE_DATA_PATH_H
#define FABRICLINT_CORE_DATA_PATH_H

#include <stddef.h>

/**
 * fl_data_where — where one shipped folder may be, in the order tried.
 * @build: relative to the folder of the executable in a build tree
 *         ("schema" for build/schema), or NULL.
 * @from_bin: relative to the folder of an installed executable
 *         (<prefix>/<bindir>), e.g. "../share/fabriclint/schema": CMake
 *         computes it from the install directories (FL_REL_BIN_*), or NULL.
 * @from_lib: relative to the folder of libfabriclint.so when a program
 *         other than fabriclint embeds it (FL_REL_LIB_*), or NULL.
 * @configured: the absolute configure-time path, last resort (an install
 *         at the configured prefix whose executable is elsewhere), or NULL.
 */
typedef struct fl_data_where {
  const char *build;
  const char *from_bin;
  const char *from_lib;
  const char *configured;
} fl_data_where;

/**
 * fl_data_dir() — the first existing, readable folder of @w: <dir of
 * /proc/self/exe>/@build, <dir of /proc/self/exe>/@from_bin, <dir of the
 * library or executable holding this code (dladdr)>/@build and /@from_lib,
 * then @configured. Writes the folder into @buf of @size bytes; returns
 * @buf, or NULL when none exists. No allocation, no global state.
 */
const char *fl_data_dir(const fl_data_where *w, char *buf, size_t size);

/**
 * fl_schema_path() — path of the shipped schema file @name ("design.rng"):
 * in build/schema/ beside a build's executable, else in the install's
 * share/fabriclint/schema/ relative to the executable or to
 * libfabriclint.so, else under the configured prefix, else in the source
 * tree (unit tests). Writes into @buf; returns @buf or NULL when not found.
 */
const char *fl_schema_path(const char *name, char *buf, size_t size);

#endif
