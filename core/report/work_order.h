/* SPDX-License-Identifier: MIT */
/*
 * core/report/work_order.h — the diff's work order: one row per physical
 * action for the field team (fabriclint diff --format csv; the rows are
 * made by diff/diff_emit.c, the columns are in docs/rules/diff.md).
 */
#ifndef FABRICLINT_CORE_REPORT_WORK_ORDER_H
#define FABRICLINT_CORE_REPORT_WORK_ORDER_H

#include <stddef.h>
#include <stdio.h>

/** One physical action of the work order. Strings are owned ("" if none). */
typedef struct fl_wo_row {
  char *action;                   /* add, remove, move, swap, replace, check */
  char *finding;                  /* rule id that asks for it */
  char *a_node, *a_port, *a_rack; /* the end that stays (or end A) */
  char *b_node, *b_port, *b_rack; /* where it must go (or end B) */
  char *from_node, *from_port;    /* move/swap: where the end is now */
  char *cable;                    /* the design's cable id */
  char *detail;
  /* issue 34 §4, the columns after `fingerprint` (appended, so that a
   * reader of the earlier columns by position keeps working): */
  char *a_u, *b_u; /* rack unit of each end's node (node attribute `u`) */
  char *cable_b;   /* swap: the second cable's id (at the b end) */
  char *media, *length, *part; /* the planned cable's link attributes
                                  `media`, `length` (m), `part-number` */
  char *fix;         /* the finding's fix, as JSON `fix.description` says it
                        ("" when the finding has none) */
  char *fingerprint; /* the finding's fingerprint (JSON, SARIF, baselines) */
  /* appended after `part` (issue 34, the same rule): */
  char *from_rack, *from_u; /* move: rack and unit of the node the end is on
                               now (design node attributes `rack`, `u`) */
  char *media_b, *length_b, *part_b; /* swap: the second cable's (cable_b)
                                        media, length and part number */
} fl_wo_row;

typedef struct fl_work_order {
  fl_wo_row *v;
  size_t n, cap;
} fl_work_order;

/** Sort the rows (by action, then ends) so output is deterministic. */
void fl_work_order_sort(fl_work_order *wo);
/** The column names of the work order, in CSV order ("row" first), and
 * their number: the CSV header and the workbook's header row. */
extern const char *const FL_WO_COLUMNS[];
extern const size_t FL_WO_NCOLUMNS;
/** fl_work_order_cells() — row @r's cells in FL_WO_COLUMNS order after
 * "row" (FL_WO_NCOLUMNS - 1 of them, "" for none) into @out, borrowed
 * from @r. */
void fl_work_order_cells(const fl_wo_row *r, const char **out);
/** Write @wo as CSV (RFC 4180, header line first; columns in
 * docs/rules/diff.md). 0 or -1 on write error. */
int fl_work_order_csv(FILE *out, const fl_work_order *wo);
/** Free the rows' strings and the row array; @wo is left empty. */
void fl_work_order_free(fl_work_order *wo);

#endif /* FABRICLINT_CORE_REPORT_WORK_ORDER_H */
