/* SPDX-License-Identifier: MIT */
/*
 * tests/unit/external.h — the public sample inputs in FL_EXTERNAL_DIR
 * (tests/data/external, see its PROVENANCE.md). A test program that reads
 * them calls need_external() first in main(): when one is missing (a
 * packaging that dropped the folder), the program prints which and exits
 * FL_TEST_SKIP, which ctest reports as skipped (SKIP_RETURN_CODE).
 * Header-only.
 */
#ifndef FABRICLINT_TESTS_EXTERNAL_H
#define FABRICLINT_TESTS_EXTERNAL_H

#include <stdio.h>
#include <unistd.h>

#define FL_TEST_SKIP 77
#define EXT(name)    FL_EXTERNAL_DIR "/" name

/* 0 when every path of the NULL-terminated @paths is readable, else
 * FL_TEST_SKIP after naming the first missing one on stderr. */
static int need_external(const char *const *paths) {
  for (; *paths; paths++)
    if (access(*paths, R_OK) != 0) {
      fprintf(stderr,
              "SKIP: public sample %s is missing (see "
              "tests/data/external/PROVENANCE.md)\n",
              *paths);
      return FL_TEST_SKIP;
    }
  return 0;
}

#endif
