/* SPDX-License-Identifier: MIT */
/* core/util/natcmp.c — natural order and edit distance of names
 * (natcmp.h). The project's one natural comparator: the core and every
 * plugin link it from the util library (fabriclint_util). */
#include "util/natcmp.h"

#include <ctype.h>
#include <stddef.h>
#include <string.h>

/* Skips leading zeros of a digit run, keeping its last digit. */
static const char *skip_zeros(const char *s) {
  while (*s == '0' && isdigit((unsigned char)s[1]))
    s++;
  return s;
}

static size_t digit_run(const char *s) {
  size_t n = 0;
  while (isdigit((unsigned char)s[n]))
    n++;
  return n;
}

int fl_natcmp(const char *a, const char *b) {
  while (*a && *b) {
    if (isdigit((unsigned char)*a) && isdigit((unsigned char)*b)) {
      a = skip_zeros(a);
      b = skip_zeros(b);
      size_t la = digit_run(a), lb = digit_run(b);
      if (la != lb)
        return la < lb ? -1 : 1;
      int c = strncmp(a, b, la);
      if (c)
        return c;
      a += la;
      b += lb;
      continue;
    }
    if (*a != *b)
      return (unsigned char)*a < (unsigned char)*b ? -1 : 1;
    a++;
    b++;
  }
  return *a ? 1 : *b ? -1 : 0;
}

int fl_natcmp_strict(const char *a, const char *b) {
  int c = fl_natcmp(a, b);
  return c ? c : strcmp(a, b);
}

int fl_natcmp_ptr(const void *a, const void *b) {
  return fl_natcmp(*(const char *const *)a, *(const char *const *)b);
}

int fl_natcmp_strict_ptr(const void *a, const void *b) {
  return fl_natcmp_strict(*(const char *const *)a, *(const char *const *)b);
}

static unsigned min3(unsigned x, unsigned y, unsigned z) {
  unsigned m = x < y ? x : y;
  return m < z ? m : z;
}

unsigned fl_edit_distance(const char *a, const char *b, unsigned cap) {
  size_t n = strlen(a), m = strlen(b);
  if (n > FL_EDIT_MAX_LEN || m > FL_EDIT_MAX_LEN)
    return cap;
  /* three rows of the table: i - 2, i - 1, i */
  unsigned rows[3][FL_EDIT_MAX_LEN + 1];
  for (size_t j = 0; j <= m; j++)
    rows[0][j] = (unsigned)j;
  unsigned *pp = rows[2], *prev = rows[0], *cur = rows[1];
  for (size_t i = 1; i <= n; i++) {
    cur[0] = (unsigned)i;
    for (size_t j = 1; j <= m; j++) {
      unsigned v = min3(prev[j] + 1, cur[j - 1] + 1,
                        prev[j - 1] + (a[i - 1] != b[j - 1]));
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
          pp[j - 2] + 1 < v)
        v = pp[j - 2] + 1;
      cur[j] = v;
    }
    unsigned *t = pp;
    pp = prev, prev = cur, cur = t;
  }
  return prev[m] < cap ? prev[m] : cap;
}
