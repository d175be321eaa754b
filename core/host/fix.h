/* SPDX-License-Identifier: MIT */
/*
 * core/host/fix.h — a finding's fix as the host keeps it (internal): the
 * copy of a plugin's fl_fix (fabriclint/plugin.h) in names, with each
 * cable's current ends and values and its location, so that every
 * renderer can write it (JSON `fix`, SARIF `fixes`, the work order)
 * without the fabric. core/host/fix.c.
 */
#ifndef FABRICLINT_CORE_FIX_H
#define FABRICLINT_CORE_FIX_H

#include <stdint.h>

#include "fabriclint/error.h"
#include "fabriclint/plugin.h"

struct json_t;

/** A cable end by name: node, port number, port label ("" when none). */
typedef struct fl_fix_end {
  char *node;
  uint32_t port;
  char *label;
} fl_fix_end;

/**
 * fl_fix_change_rec — one change (fl_fix_change) in names.
 * @kind: FL_FIX_*. @cable: the cable's two ends as they are now.
 * @end: FL_FIX_MOVE_END: the index (0, 1) of the end of @cable that moves;
 *   @to: where it goes.
 * @from_value/@value: FL_FIX_SET_*: the cable's value now ("HDR", "4x"; ""
 *   when unknown) and the value it must have.
 * @file/@line/@col: where the cable is described (its provenance: a design
 *   XML <link> element, an ibnetdiscover line); @file NULL when unknown.
 */
typedef struct fl_fix_change_rec {
  uint32_t kind;
  fl_fix_end cable[2];
  uint32_t end;
  fl_fix_end to;
  char *from_value, *value;
  char *file;
  uint32_t line, col;
} fl_fix_change_rec;

/**
 * fl_fix_rec — a finding's fix. @kind: "swap" (two ends that trade
 * places), "move" (other end moves), "set" (values only) or "mixed";
 * @description: one sentence; @v/@n: the changes (at least one).
 */
typedef struct fl_fix_rec {
  char *kind;
  char *description;
  fl_fix_change_rec *v;
  uint32_t n;
} fl_fix_rec;

/**
 * fl_fix_copy() — check plugin fix @fix against finalized fabric @fab
 * (every change of a known kind, link/node ids in range, end 0 or 1, a
 * value for FL_FIX_SET_*, a description) and copy it into a new
 * fl_fix_rec (*@out; caller frees with fl_fix_free()). Struct sizes are
 * honoured (fields past a plugin's struct_size read as zero).
 * Returns FL_OK, FL_EINVAL (an invalid fix) or FL_ENOMEM.
 */
int fl_fix_copy(const struct fl_fabric *fab, const fl_fix *fix,
                fl_fix_rec **out);

/** fl_fix_new() — an empty fix with @description (copied) and room for
 * @cap changes, for fixes built by the core itself (diff); NULL on ENOMEM.
 * Fill v[n++] with fl_fix_end_set() / strdup'ed strings, then
 * fl_fix_finish() computes the kind. */
fl_fix_rec *fl_fix_new(const char *description, uint32_t cap);
/** Set @e to (@node, @port, @label) (copied); 0 or -1 on ENOMEM. */
int fl_fix_end_set(fl_fix_end *e, const char *node, uint32_t port,
                   const char *label);
/** Compute @f->kind from its changes; 0 or -1 on ENOMEM. */
int fl_fix_finish(fl_fix_rec *f);

/**
 * fl_fix_merge() — the fix of a merged finding (findings.h): every change
 * of the @n fixes @v (NULL entries skipped) in order, the description the
 * members' joined by "; " (at most 3, then "and N more"). NULL when no
 * member has a fix or on ENOMEM (*@nomem set then).
 */
fl_fix_rec *fl_fix_merge(const fl_fix_rec *const *v, uint32_t n, int *nomem);

/** fl_fix_clone() — a deep copy of @f (NULL on ENOMEM or when @f is NULL). */
fl_fix_rec *fl_fix_clone(const fl_fix_rec *f);

/** fl_fix_free() — free @f and everything it owns; NULL is fine. */
void fl_fix_free(fl_fix_rec *f);

/**
 * fl_fix_json() — the JSON `fix` object of @f (schema/findings.schema.json):
 * {"kind", "description", "changes": [{"action": "move-end" | "set-speed" |
 * "set-width", "cable": [end, end], "from", "to", "location"?}]}, where an
 * end is {"node": string, "port": integer[, "label": string]}; move-end
 * "from"/"to" are ends, set-* "from"/"to" strings. New reference, NULL on
 * ENOMEM.
 */
struct json_t *fl_fix_json(const fl_fix_rec *f);

/** "move-end", "set-speed", "set-width" for an FL_FIX_* kind. */
const char *fl_fix_action_name(uint32_t kind);

#endif
