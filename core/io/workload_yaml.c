/* SPDX-License-Identifier: MIT */
/*
 * core/io/workload_yaml.c — the YAML helpers of the workload reader
 * (workload.c: hosts, collectives, placements; workload_train.c: the
 * `training:` section): errors at a node's line and column, node access,
 * and the number and size syntax both accept.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "io/workload_impl.h"

int wl_fail(wrd *r, const yaml_node_t *n, const char *fmt, const char *arg) {
  return fl_error_set(
      r->err, FL_EPARSE, r->path, n ? (uint32_t)n->start_mark.line + 1 : 1,
      n ? (uint32_t)n->start_mark.column + 1 : 0, fmt, arg ? arg : "");
}

yaml_node_t *wl_node(wrd *r, int id) {
  return yaml_document_get_node(r->doc, id);
}

const char *wl_scalar(const yaml_node_t *n) {
  return n && n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value
                                          : NULL;
}

/* An unsigned size: digits, optionally followed by B, K, M, G, T (powers of
 * 1000) or KiB, MiB, GiB, TiB (powers of 1024). */
static const struct {
  const char *suf;
  uint64_t mul;
} SUF[] = {{"", 1},
           {"B", 1},
           {"K", 1000ull},
           {"KB", 1000ull},
           {"M", 1000000ull},
           {"MB", 1000000ull},
           {"G", 1000000000ull},
           {"GB", 1000000000ull},
           {"T", 1000000000000ull},
           {"TB", 1000000000000ull},
           {"P", 1000000000000000ull},
           {"PB", 1000000000000000ull},
           {"KiB", 1ull << 10},
           {"MiB", 1ull << 20},
           {"GiB", 1ull << 30},
           {"TiB", 1ull << 40},
           {"PiB", 1ull << 50}};

static int suffix_of(const char *end, uint64_t *mul) {
  for (size_t i = 0; i < sizeof SUF / sizeof SUF[0]; i++)
    if (strcmp(end, SUF[i].suf) == 0) {
      *mul = SUF[i].mul;
      return 0;
    }
  return -1;
}

int wl_parse_bytes(const char *s, uint64_t *out) {
  if (!s || *s < '0' || *s > '9')
    return -1;
  errno = 0;
  char *end;
  unsigned long long v = strtoull(s, &end, 10);
  if (errno)
    return -1;
  uint64_t mul;
  if (*end != '.' && *end != 'e' && *end != 'E') {
    if (suffix_of(end, &mul) != 0 || v > UINT64_MAX / mul)
      return -1;
    *out = (uint64_t)v * mul;
    return 0;
  }
  /* a decimal mantissa (2.45TB, 1.28e11): a whole number of bytes below
   * 2^64 once multiplied */
  errno = 0;
  double d = strtod(s, &end);
  if (errno || suffix_of(end, &mul) != 0)
    return -1;
  double b = d * (double)mul;
  if (!isfinite(b) || b < 0 || b >= 18446744073709551616.0 ||
      fabs(b - nearbyint(b)) > 1e-6 * (b > 1 ? b : 1))
    return -1;
  *out = (uint64_t)nearbyint(b);
  return 0;
}

/* An unsigned decimal integer (no sign, no suffix): 0, or -1. */
int wl_parse_u64(const char *s, uint64_t *out) {
  if (!s || *s < '0' || *s > '9')
    return -1;
  errno = 0;
  char *end;
  unsigned long long v = strtoull(s, &end, 10);
  if (errno || *end)
    return -1;
  *out = (uint64_t)v;
  return 0;
}

/* A decimal number as YAML and JSON write one (digits, one point, an
 * exponent; no hexadecimal, inf or nan, no under- or overflow): 0, or -1. */
int wl_parse_decimal(const char *s, double *out) {
  if (!s || !*s || strspn(s, "0123456789.eE+-") != strlen(s))
    return -1;
  errno = 0;
  char *end;
  double d = strtod(s, &end);
  if (end == s || *end || errno == ERANGE)
    return -1;
  *out = d;
  return 0;
}
