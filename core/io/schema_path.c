/*
 * core/io/schema_path.c — finding the data files fabriclint ships (the
 * design XML RelaxNG schema) at run time: beside the library, so a build
 * folder works wherever it is; else under the install prefix; else in the
 * source tree. Its own file because both the loader dispatch (load.c) and the
 * design XML loader need it, and neither should depend on the other for it.
 */
#define _GNU_SOURCE /* dladdr */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "io/schema_path.h"

static int readable(const char *p) {
  return access(p, R_OK) == 0;
}

const char *fl_schema_path(const char *name, char *buf, size_t size) {
  Dl_info info;
  if (dladdr((void *)fl_schema_path, &info) && info.dli_fname) {
    const char *slash = strrchr(info.dli_fname, '/');
    if (slash) {
      snprintf(buf, size, "%.*s/schema/%s", (int)(slash - info.dli_fname),
               info.dli_fname, name);
      if (readable(buf))
        return buf;
    }
  }
  snprintf(buf, size, "%s/%s", FL_SCHEMA_INSTALL_DIR, name);
  if (readable(buf))
    return buf;
  snprintf(buf, size, "%s/%s", FL_SCHEMA_SOURCE_DIR, name);
  if (readable(buf))
    return buf;
  return NULL;
}
