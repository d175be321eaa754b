/* SPDX-License-Identifier: MIT */
/*
 * core/io/data_path.c — finding the data files fabriclint ships at run
 * time: relative to the running executable (/proc/self/exe) first, so a
 * build folder works wherever it is and an install works under any prefix
 * it is moved or unpacked to; then relative to the library (a program
 * embedding libfabriclint.so); the configure-time paths only last. Its own
 * file because the loaders (schema), the plugin host (built-in plugins)
 * and the command line (documentation) all need it.
 */
#define _GNU_SOURCE /* dladdr */
#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io/data_path.h"

#ifndef FL_REL_BIN_SCHEMA
#define FL_REL_BIN_SCHEMA "../share/fabriclint/schema"
#endif
#ifndef FL_REL_LIB_SCHEMA
#define FL_REL_LIB_SCHEMA "../share/fabriclint/schema"
#endif
#ifndef FL_SCHEMA_INSTALL_DIR
#define FL_SCHEMA_INSTALL_DIR ""
#endif
#ifndef FL_SCHEMA_SOURCE_DIR
#define FL_SCHEMA_SOURCE_DIR ""
#endif

static int is_dir(const char *p) {
  struct stat st;
  return stat(p, &st) == 0 && S_ISDIR(st.st_mode) &&
         access(p, R_OK | X_OK) == 0;
}

/* <@base>/<@rel> into @buf when that is a readable folder. */
static const char *try_dir(const char *base, const char *rel, char *buf,
                           size_t size) {
  if (!base || !*base || !rel || !*rel)
    return NULL;
  int n = snprintf(buf, size, "%s/%s", base, rel);
  if (n < 0 || (size_t)n >= size)
    return NULL;
  return is_dir(buf) ? buf : NULL;
}

/* The folder of the file @path (its text up to the last '/'), or "". */
static void dir_of(const char *path, char *out, size_t size) {
  const char *slash = strrchr(path, '/');
  size_t n = slash ? (size_t)(slash - path) : 0;
  if (n >= size)
    n = 0;
  memcpy(out, path, n);
  out[n] = '\0';
}

const char *fl_data_dir(const fl_data_where *w, char *buf, size_t size) {
  char exe[PATH_MAX], dir[PATH_MAX];
  ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (len > 0) {
    exe[len] = '\0';
    dir_of(exe, dir, sizeof dir);
    if (try_dir(dir, w->build, buf, size) ||
        try_dir(dir, w->from_bin, buf, size))
      return buf;
  }
  Dl_info info;
  if (dladdr((void *)fl_data_dir, &info) && info.dli_fname &&
      info.dli_fname[0] == '/') {
    dir_of(info.dli_fname, dir, sizeof dir);
    if (try_dir(dir, w->build, buf, size) ||
        try_dir(dir, w->from_lib, buf, size))
      return buf;
  }
  if (w->configured && *w->configured && is_dir(w->configured)) {
    int n = snprintf(buf, size, "%s", w->configured);
    if (n >= 0 && (size_t)n < size)
      return buf;
  }
  return NULL;
}

const char *fl_schema_path(const char *name, char *buf, size_t size) {
  static const fl_data_where where = {"schema", FL_REL_BIN_SCHEMA,
                                      FL_REL_LIB_SCHEMA, FL_SCHEMA_INSTALL_DIR};
  static const fl_data_where source = {NULL, NULL, NULL, FL_SCHEMA_SOURCE_DIR};
  char dir[PATH_MAX];
  const fl_data_where *tries[2] = {&where, &source};
  for (int i = 0; i < 2; i++) {
    if (!fl_data_dir(tries[i], dir, sizeof dir))
      continue;
    int n = snprintf(buf, size, "%s/%s", dir, name);
    if (n >= 0 && (size_t)n < size && access(buf, R_OK) == 0)
      return buf;
  }
  return NULL;
}
