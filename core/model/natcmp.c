/* core/model/natcmp.c — natural order of names (natcmp.h). */
#include "model/natcmp.h"

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
