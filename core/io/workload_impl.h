/* SPDX-License-Identifier: MIT */
/*
 * core/io/workload_impl.h — the pieces of the workload reader shared by
 * workload.c (hosts, collectives, placements) and workload_train.c (the
 * `training:` section): one reader, split by concern. Internal.
 */
#ifndef FABRICLINT_CORE_IO_WORKLOAD_IMPL_H
#define FABRICLINT_CORE_IO_WORKLOAD_IMPL_H

#include <stdint.h>

#include <yaml.h>

#include "fabriclint/error.h"
#include "io/workload.h"

/** The document being read, its file name and the error to fill. */
typedef struct wrd {
  yaml_document_t *doc;
  const char *path;
  fl_error *err;
} wrd;

/** wl_fail() — FL_EPARSE at @n's position (line 1 when NULL) with @fmt,
 * whose one `%s` is @arg ("" when NULL). */
int wl_fail(wrd *r, const yaml_node_t *n, const char *fmt, const char *arg);
/** wl_node() — node @id of the document (NULL when out of range). */
yaml_node_t *wl_node(wrd *r, int id);
/** wl_scalar() — @n's text when it is a scalar, else NULL. */
const char *wl_scalar(const yaml_node_t *n);
/** wl_parse_bytes() — an unsigned size with an optional suffix (B; K, M,
 * G, T, P (or KB..PB) powers of 1000; KiB..PiB powers of 1024) into
 * *@out; a decimal mantissa (2.45TB, 1.28e11) when the result is a whole
 * number of bytes; at most 2^64 - 1. 0, or -1. */
int wl_parse_bytes(const char *s, uint64_t *out);
/** wl_parse_u64() — an unsigned decimal integer, no suffix: 0, or -1. */
int wl_parse_u64(const char *s, uint64_t *out);
/** wl_parse_decimal() — a decimal number as YAML writes one (no hex, inf,
 * nan, no over- or underflow): 0, or -1. */
int wl_parse_decimal(const char *s, double *out);

/** wl_training() — parse the `training:` mapping @m into @t (docs/perf.md,
 * "Training step"). FL_OK or FL_EPARSE naming the key and what it wants. */
int wl_training(wrd *r, fl_wl_training *t, yaml_node_t *m);

#endif
