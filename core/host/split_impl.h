/* SPDX-License-Identifier: MIT */
/*
 * core/host/split_impl.h — the host's side of fabriclint/dist_split.h
 * (fl_host_api.split_emit / split_finish, ABI 1.6; issue 29): recording a
 * process's findings (split_record.c) and replaying every process's
 * records in item order after the allgather (split_replay.c). The public
 * header keeps fl_split and inline wrappers only.
 */
#ifndef FABRICLINT_CORE_SPLIT_IMPL_H
#define FABRICLINT_CORE_SPLIT_IMPL_H

#include <stddef.h>
#include <stdint.h>

#include "fabriclint/dist_split.h"

/* The header of each process's part of the gathered bytes. */
#define FL_SPLIT_MAGIC 0x504c5346u /* "FSLP" little-endian */
#define FL_SPLIT_HDR   16u         /* u32 magic, u32 failed, u64 length */
#define FL_SPLIT_NULL  UINT32_MAX  /* string length of a NULL string */

/* fl_host_api.split_emit / split_finish: semantics of fl_split_emit() and
 * fl_split_finish() in fabriclint/dist_split.h (split_record.c). */
int fl_split_record(fl_split *s, const fl_host_api *api, fl_ctx *ctx,
                    uint64_t item, const fl_finding *f);
int fl_split_end(fl_split *s, const fl_host_api *api, fl_ctx *ctx, int failed);

/**
 * fl_split_replay() — report the findings in @all (@n bytes: the parts of
 * @size processes, each FL_SPLIT_HDR bytes of header and its records,
 * concatenated in rank order, as fl_split_finish() gathers them) through
 * api->report(), merged by item: ascending item, ties in rank order, each
 * part's records in their order. Returns 0; 1 when a part says its
 * process failed (nothing is reported); -1 when the bytes are malformed,
 * memory runs out or a report is refused (the findings before it are
 * reported). Calls neither fail() nor any collective.
 */
int fl_split_replay(const fl_host_api *api, fl_ctx *ctx, const void *all,
                    size_t n, uint32_t size);

#endif
