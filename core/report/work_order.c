/* SPDX-License-Identifier: MIT */
/*
 * core/report/work_order.c — the diff's work order: rows sorted, written as
 * CSV (docs/rules/diff.md), freed (report/work_order.h).
 */
#include <stdlib.h>
#include <string.h>

#include "io/write_common.h"
#include "report/work_order.h"
#include "util/natcmp.h"

/* ---- work order ------------------------------------------------------- */

/* Rows in the order a technician walks the floor: by node, then port, in
 * natural order (port 2 before port 10, leaf-2 before leaf-10; the
 * project's one natural comparator, util/natcmp.h), then the action. A
 * byte-wise tie-break keeps the order total. */
static int cmp_row(const void *x, const void *y) {
  const fl_wo_row *a = x, *b = y;
  const char *fa[] = {a->a_node, a->a_port,    a->action,    a->b_node,
                      a->b_port, a->from_node, a->from_port, a->detail};
  const char *fb[] = {b->a_node, b->a_port,    b->action,    b->b_node,
                      b->b_port, b->from_node, b->from_port, b->detail};
  for (size_t i = 0; i < sizeof fa / sizeof *fa; i++) {
    int r = fl_natcmp(fa[i], fb[i]);
    if (!r)
      r = strcmp(fa[i], fb[i]);
    if (r)
      return r;
  }
  return 0;
}

void fl_work_order_sort(fl_work_order *wo) {
  if (wo->n > 1)
    qsort(wo->v, wo->n, sizeof *wo->v, cmp_row);
}

const char *const FL_WO_COLUMNS[] = {
    "row",      "action", "finding",     "a_node",    "a_port",    "a_rack",
    "b_node",   "b_port", "b_rack",      "from_node", "from_port", "cable",
    "detail",   "fix",    "fingerprint", "a_u",       "b_u",       "cable_b",
    "media",    "length", "part",        "from_rack", "from_u",    "media_b",
    "length_b", "part_b"};
const size_t FL_WO_NCOLUMNS = sizeof FL_WO_COLUMNS / sizeof *FL_WO_COLUMNS;

void fl_work_order_cells(const fl_wo_row *r, const char **out) {
  const char *f[] = {
      r->action,    r->finding, r->a_node,  r->a_port,      r->a_rack,
      r->b_node,    r->b_port,  r->b_rack,  r->from_node,   r->from_port,
      r->cable,     r->detail,  r->fix,     r->fingerprint, r->a_u,
      r->b_u,       r->cable_b, r->media,   r->length,      r->part,
      r->from_rack, r->from_u,  r->media_b, r->length_b,    r->part_b};
  for (size_t k = 0; k < sizeof f / sizeof *f; k++)
    out[k] = f[k] ? f[k] : "";
}

int fl_work_order_csv(FILE *out, const fl_work_order *wo) {
  for (size_t k = 0; k < FL_WO_NCOLUMNS; k++) {
    fputs(FL_WO_COLUMNS[k], out);
    fputs(k + 1 == FL_WO_NCOLUMNS ? "\r\n" : ",", out);
  }
  const char *f[sizeof FL_WO_COLUMNS / sizeof *FL_WO_COLUMNS];
  for (size_t i = 0; i < wo->n; i++) {
    fprintf(out, "%zu,", i + 1);
    fl_work_order_cells(&wo->v[i], f);
    for (size_t k = 0; k + 1 < FL_WO_NCOLUMNS; k++) {
      fl_wr_csv_cell(out, f[k]);
      fputs(k + 2 == FL_WO_NCOLUMNS ? "\r\n" : ",", out);
    }
  }
  return ferror(out) ? -1 : 0;
}

void fl_work_order_free(fl_work_order *wo) {
  for (size_t i = 0; i < wo->n; i++) {
    fl_wo_row *r = &wo->v[i];
    free(r->action), free(r->finding), free(r->a_node), free(r->a_port);
    free(r->a_rack), free(r->b_node), free(r->b_port), free(r->b_rack);
    free(r->from_node), free(r->from_port), free(r->cable), free(r->detail);
    free(r->fix), free(r->fingerprint);
    free(r->a_u), free(r->b_u), free(r->cable_b), free(r->media);
    free(r->length), free(r->part);
    free(r->from_rack), free(r->from_u), free(r->media_b), free(r->length_b);
    free(r->part_b);
  }
  free(wo->v);
  memset(wo, 0, sizeof *wo);
}
