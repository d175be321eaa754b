/* SPDX-License-Identifier: MIT */
/*
 * tests/unit/tmpdir.h — what every loader test needs: a temporary folder
 * for the program (cmocka group setup/teardown: setup_all, teardown_all)
 * and fixture files written into it. Header-only; include it once per test
 * program, after <cmocka.h>.
 */
#ifndef FABRICLINT_TESTS_TMPDIR_H
#define FABRICLINT_TESTS_TMPDIR_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char tmpdir[256];

static int setup_all(void **state) {
  (void)state;
  snprintf(tmpdir, sizeof tmpdir, "/tmp/fl_test_XXXXXX");
  return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown_all(void **state) {
  (void)state;
  char cmd[300];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
  return system(cmd) == 0 ? 0 : -1;
}

/* Write @len bytes of @text ((size_t)-1: strlen) to tmpdir/@name; returns
 * its path from a ring of 8 buffers (valid for the next 7 calls). */
static const char *fixture_n(const char *name, const char *text, size_t len) {
  static char paths[8][512];
  static int slot;
  char *path = paths[slot++ % 8];
  snprintf(path, 512, "%s/%s", tmpdir, name);
  FILE *f = fopen(path, "wb");
  assert_non_null(f);
  size_t n = len == (size_t)-1 ? strlen(text) : len;
  assert_int_equal(fwrite(text, 1, n, f), n);
  assert_int_equal(fclose(f), 0);
  return path;
}

/* fixture_n() for a NUL-terminated @text. */
static inline const char *fixture(const char *name, const char *text) {
  return fixture_n(name, text, (size_t)-1);
}

#endif
