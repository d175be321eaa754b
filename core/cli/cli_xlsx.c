/* SPDX-License-Identifier: MIT */
/*
 * core/cli/cli_xlsx.c — a workbook through a temporary file (cli_xlsx.h).
 *
 * Why a temporary file: libxlsxwriter writes a ZIP to a path, not a
 * stream (Debian 12's 1.1.4 has no output buffer); the command's output is
 * an fl_outfile (standard output, or a file replaced only on success).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli_xlsx.h"

int fl_xlsx_missing(char *msg, size_t size) {
  snprintf(msg, size,
           "--format xlsx: this fabriclint was built without "
           "libxlsxwriter (Debian: libxlsxwriter-dev); use csv");
  return -1;
}

#ifdef FL_HAVE_XLSXWRITER

int fl_xlsx_open(fl_xlsx *x, const char *what, char *msg, size_t size) {
  const char *dir = getenv("TMPDIR");
  snprintf(x->path, sizeof x->path, "%s/fabriclint-%s-XXXXXX",
           dir && *dir ? dir : "/tmp", what);
  int fd = mkstemp(x->path);
  if (fd < 0) {
    snprintf(msg, size, "%s: cannot make a temporary file: %s", x->path,
             strerror(errno));
    return -1;
  }
  close(fd);
  x->wb = workbook_new(x->path);
  if (!x->wb) {
    unlink(x->path);
    snprintf(msg, size, "out of memory making the workbook");
    return -1;
  }
  return 0;
}

/* Copy the file @path to @out; 0 or -1. */
static int copy_to(const char *path, FILE *out) {
  FILE *in = fopen(path, "rb");
  if (!in)
    return -1;
  char buf[65536];
  size_t k;
  int rc = 0;
  while ((k = fread(buf, 1, sizeof buf, in)) > 0)
    if (fwrite(buf, 1, k, out) != k)
      rc = -1;
  if (ferror(in))
    rc = -1;
  fclose(in);
  return rc || fflush(out) != 0 || ferror(out) ? -1 : 0;
}

int fl_xlsx_close(fl_xlsx *x, FILE *out, char *msg, size_t size) {
  lxw_error e = workbook_close(x->wb);
  x->wb = NULL;
  int rc = e == LXW_NO_ERROR && out ? copy_to(x->path, out) : -1;
  if (rc != 0 && out)
    snprintf(msg, size, "writing the workbook failed: %s",
             e == LXW_NO_ERROR ? strerror(errno) : lxw_strerror(e));
  unlink(x->path);
  return rc;
}

#endif
