/* SPDX-License-Identifier: MIT */
/*
 * core/host/param_check.c — rule parameter values: parsing and range checks in
 * one place (see param_check.h).
 *
 * Why here and not in each plugin: a threshold of `nan` compares false with
 * everything, so a rule that tests `coverage < threshold` silently reports
 * nothing; `inf` reaches the evidence JSON, which cannot hold it, and the
 * rule dies. Each plugin would have to remember both. The host knows each
 * parameter's type and (since fl_param_def grew min_value / max_value) its
 * range, so it refuses such values before any rule runs, with exit 2.
 */
#include "host/param_check.h"

#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabriclint/types.h"

#define DEF_HAS(d, member)                                                     \
  ((d)->struct_size >= offsetof(fl_param_def, member) + sizeof((d)->member))

const char *fl_param_min(const fl_param_def *d) {
  return DEF_HAS(d, min_value) ? d->min_value : NULL;
}

const char *fl_param_max(const fl_param_def *d) {
  return DEF_HAS(d, max_value) ? d->max_value : NULL;
}

int fl_param_parse_int(const char *s, int64_t *out) {
  if (strcmp(s, "true") == 0 || strcmp(s, "yes") == 0) {
    *out = 1;
    return FL_OK;
  }
  if (strcmp(s, "false") == 0 || strcmp(s, "no") == 0) {
    *out = 0;
    return FL_OK;
  }
  char *end;
  errno = 0;
  long long v = strtoll(s, &end, 0);
  if (errno || end == s || *end)
    return FL_EINVAL;
  *out = v;
  return FL_OK;
}

int fl_param_parse_double(const char *s, double *out) {
  char *end;
  errno = 0;
  double v = strtod(s, &end);
  if (errno || end == s || *end || !isfinite(v))
    return FL_EINVAL;
  *out = v;
  return FL_OK;
}

/* "from A to B", ">= A", "<= B" or "" for the declared range of @d. */
static void range_text(const fl_param_def *d, char *buf, size_t n) {
  const char *lo = fl_param_min(d), *hi = fl_param_max(d);
  const char *unit = d->unit && *d->unit ? d->unit : NULL;
  char u[64] = "";
  if (unit)
    snprintf(u, sizeof u, " (%s)", unit);
  if (lo && hi)
    snprintf(buf, n, " from %s to %s%s", lo, hi, u);
  else if (lo)
    snprintf(buf, n, " >= %s%s", lo, u);
  else if (hi)
    snprintf(buf, n, " <= %s%s", hi, u);
  else
    snprintf(buf, n, "%s", u);
}

static int expected(const fl_param_def *d, char *why, size_t n) {
  char range[160];
  range_text(d, range, sizeof range);
  switch (d->type) {
  case FL_PARAM_BOOL:
    snprintf(why, n, "expected true, false, 1 or 0");
    break;
  case FL_PARAM_INT:
    snprintf(why, n, "expected an integer%s", range);
    break;
  default:
    snprintf(why, n, "expected a finite number%s", range);
  }
  return FL_EINVAL;
}

/* Compare @v with the bound text @b parsed as @d's type: -1, 0, 1; 0 also
 * when @b is NULL or does not parse (fl_param_check_def reports that). */
static int cmp_int(int64_t v, const char *b) {
  int64_t x;
  if (!b || fl_param_parse_int(b, &x) != FL_OK)
    return 0;
  return v < x ? -1 : v > x;
}

static int cmp_double(double v, const char *b) {
  double x;
  if (!b || fl_param_parse_double(b, &x) != FL_OK)
    return 0;
  return v < x ? -1 : v > x;
}

int fl_param_check_value(const fl_param_def *d, const char *text, char *why,
                         size_t n) {
  const char *lo = fl_param_min(d), *hi = fl_param_max(d);
  if (d->type == FL_PARAM_BOOL) {
    int64_t v;
    if (fl_param_parse_int(text, &v) != FL_OK || (v != 0 && v != 1))
      return expected(d, why, n);
  } else if (d->type == FL_PARAM_INT) {
    int64_t v;
    if (fl_param_parse_int(text, &v) != FL_OK || cmp_int(v, lo) < 0 ||
        cmp_int(v, hi) > 0)
      return expected(d, why, n);
  } else if (d->type == FL_PARAM_DOUBLE) {
    double v;
    if (fl_param_parse_double(text, &v) != FL_OK || cmp_double(v, lo) < 0 ||
        cmp_double(v, hi) > 0)
      return expected(d, why, n);
  }
  return FL_OK;
}

int fl_param_check_def(const fl_param_def *d, char *why, size_t n) {
  const char *b[2] = {fl_param_min(d), fl_param_max(d)};
  int64_t iv[2];
  double dv[2];
  for (int k = 0; k < 2; k++) {
    if (!b[k])
      continue;
    int ok = d->type == FL_PARAM_INT      ? fl_param_parse_int(b[k], &iv[k])
             : d->type == FL_PARAM_DOUBLE ? fl_param_parse_double(b[k], &dv[k])
                                          : FL_EINVAL;
    if (ok != FL_OK) {
      snprintf(why, n, "declared %s '%s' is not a valid bound for its type",
               k ? "max_value" : "min_value", b[k]);
      return FL_EINVAL;
    }
  }
  if (b[0] && b[1] &&
      (d->type == FL_PARAM_INT ? iv[0] > iv[1] : dv[0] > dv[1])) {
    snprintf(why, n, "declared min_value %s exceeds max_value %s", b[0], b[1]);
    return FL_EINVAL;
  }
  if (d->default_value && *d->default_value &&
      fl_param_check_value(d, d->default_value, why, n) != FL_OK) {
    char tail[200];
    snprintf(tail, sizeof tail, "%s", why);
    snprintf(why, n, "default '%s' does not fit its declaration (%s)",
             d->default_value, tail);
    return FL_EINVAL;
  }
  return FL_OK;
}
