/* SPDX-License-Identifier: MIT */
/*
 * core/report/baseline.h — accepted findings, so that CI fails only on new ones
 * (DESIGN.md §6; `--write-baseline FILE`, `--baseline FILE`).
 *
 * Why a separate, machine-written file beside the human-written policy
 * waivers: a baseline records "what was already there when we adopted the
 * gate", hundreds of entries nobody wants to justify one by one, and it is
 * regenerated rather than edited. It has no expiry; waivers do.
 *
 * Identity is fl_finding_fingerprint(): rule id + the finding's key (entity
 * names), never line numbers, so reformatting or reordering an input keeps
 * every match. The file is JSON written with sorted, one-per-line entries
 * and no timestamp, so it is byte-identical for identical findings and its
 * diffs read well in review:
 *
 *   {"fabriclint_baseline": 1,
 *    "findings": [{"fingerprint": "…16 hex…", "rule": "…", "key": "…",
 *                  "message": "…"}, …]}
 *
 * Only "fingerprint" is used for matching; rule, key and message are there
 * for the reviewer. Entries form a multiset: two identical findings need
 * two entries. Waived findings and the policy's own findings (policy.*) are
 * neither written nor matched.
 */
#ifndef FABRICLINT_CORE_BASELINE_H
#define FABRICLINT_CORE_BASELINE_H

#include <stddef.h>

#include "fabriclint/error.h"
#include "host/findings.h"
#include "model/file_digest.h"

typedef struct fl_baseline {
  char (*fps)[17]; /* sorted fingerprints, owned */
  size_t n;
  fl_file_digest digest; /* size and SHA-256 of the bytes read */
} fl_baseline;

/** Load @path into @b; FL_OK, or FL_EIO / FL_EPARSE with file:line:col. */
int fl_baseline_load(fl_baseline *b, const char *path, fl_error *err);
void fl_baseline_free(fl_baseline *b);

/** Mark the findings of @fs that @b holds as baseline (each entry matches
 * one finding; an entry for a merged finding of one cause, key
 * "cause:<cause>", matches every finding of that cause, so a baseline
 * written from a merged finding keeps accepting it as its count changes);
 * returns how many were marked. Run before fl_findings_aggregate(). */
size_t fl_baseline_apply(const fl_baseline *b, fl_findings *fs);

/** Write the baseline of @fs to @path; FL_OK or FL_EIO / FL_ENOMEM. */
int fl_baseline_write(const fl_findings *fs, const char *path, fl_error *err);

#endif
