/* SPDX-License-Identifier: MIT */
/*
 * core/cli/cli_bom_xlsx.c — fl_bom_write_xlsx(): `bom --format xlsx`
 * (issue 34), the bill of materials as a workbook a purchasing team opens
 * as it is.
 *
 * Why libxlsxwriter: the brief's rule (a well-kept library outside the
 * analysis), and a workbook is a ZIP of XML parts whose every detail
 * (shared strings, styles, content types) that library gets right; it is
 * written through a temporary file (cli_xlsx.h). Built only when CMake
 * finds libxlsxwriter (FL_HAVE_XLSXWRITER); otherwise the format is
 * refused, saying so.
 */
#include <stdio.h>

#include "cli/cli_bom.h"
#include "cli/cli_xlsx.h"

#ifdef FL_HAVE_XLSXWRITER

static const char *const COLUMNS[] = {
    "category",    "item",       "count",       "part",   "unit_price",
    "total_price", "unit_watts", "total_watts", "reach_m"};
#define NCOL (sizeof COLUMNS / sizeof *COLUMNS)

/* A number cell when @have, else left empty. */
static void num(lxw_worksheet *ws, lxw_row_t r, lxw_col_t c, int have,
                double v) {
  if (have)
    worksheet_write_number(ws, r, c, v, NULL);
}

static void bom_sheet(lxw_workbook *wb, const fl_bom_line *lines, size_t n) {
  lxw_worksheet *ws = workbook_add_worksheet(wb, "BOM");
  lxw_format *bold = workbook_add_format(wb);
  format_set_bold(bold);
  for (lxw_col_t c = 0; c < NCOL; c++)
    worksheet_write_string(ws, 0, c, COLUMNS[c], bold);
  worksheet_set_column(ws, 0, 0, 12, NULL);
  worksheet_set_column(ws, 1, 1, 48, NULL);
  worksheet_set_column(ws, 2, 8, 12, NULL);
  worksheet_freeze_panes(ws, 1, 0);
  double price = 0, watts = 0;
  int all_price = 1, all_watts = 1;
  for (size_t i = 0; i < n; i++) {
    const fl_bom_line *l = &lines[i];
    const fl_bom_part *p = l->part;
    lxw_row_t r = (lxw_row_t)(i + 1);
    double k = (double)l->count;
    worksheet_write_string(ws, r, 0, l->category, NULL);
    worksheet_write_string(ws, r, 1, l->item, NULL);
    worksheet_write_number(ws, r, 2, k, NULL);
    if (p && p->part)
      worksheet_write_string(ws, r, 3, p->part, NULL);
    num(ws, r, 4, p && p->has_price, p ? p->price : 0);
    num(ws, r, 5, p && p->has_price, p ? p->price * k : 0);
    num(ws, r, 6, p && p->has_watts, p ? p->watts : 0);
    num(ws, r, 7, p && p->has_watts, p ? p->watts * k : 0);
    num(ws, r, 8, p && p->has_reach, p ? p->reach_m : 0);
    all_price &= p && p->has_price;
    all_watts &= p && p->has_watts;
    price += p && p->has_price ? p->price * k : 0;
    watts += p && p->has_watts ? p->watts * k : 0;
  }
  lxw_row_t t = (lxw_row_t)(n + 1);
  worksheet_write_string(ws, t, 0, "total", bold);
  num(ws, t, 5, all_price, price);
  num(ws, t, 7, all_watts, watts);
}

static void about_sheet(lxw_workbook *wb, const char *const *inputs,
                        size_t n_inputs, const char *catalogue,
                        const char *version) {
  lxw_worksheet *ws = workbook_add_worksheet(wb, "about");
  worksheet_set_column(ws, 0, 0, 14, NULL);
  worksheet_set_column(ws, 1, 1, 60, NULL);
  worksheet_write_string(ws, 0, 0, "made by", NULL);
  char v[64];
  snprintf(v, sizeof v, "fabriclint %s bom", version);
  worksheet_write_string(ws, 0, 1, v, NULL);
  worksheet_write_string(ws, 1, 0, "catalogue", NULL);
  worksheet_write_string(ws, 1, 1, catalogue ? catalogue : "(none)", NULL);
  for (size_t i = 0; i < n_inputs; i++) {
    worksheet_write_string(ws, (lxw_row_t)(2 + i), 0, "input", NULL);
    worksheet_write_string(ws, (lxw_row_t)(2 + i), 1, inputs[i], NULL);
  }
}

int fl_bom_write_xlsx(FILE *out, const fl_bom_line *lines, size_t n,
                      const char *const *inputs, size_t n_inputs,
                      const char *catalogue, const char *version, char *msg,
                      size_t size) {
  fl_xlsx x;
  if (fl_xlsx_open(&x, "bom", msg, size) != 0)
    return -1;
  bom_sheet(x.wb, lines, n);
  about_sheet(x.wb, inputs, n_inputs, catalogue, version);
  return fl_xlsx_close(&x, out, msg, size);
}

#else

int fl_bom_write_xlsx(FILE *out, const fl_bom_line *lines, size_t n,
                      const char *const *inputs, size_t n_inputs,
                      const char *catalogue, const char *version, char *msg,
                      size_t size) {
  (void)out, (void)lines, (void)n, (void)inputs, (void)n_inputs;
  (void)catalogue, (void)version;
  return fl_xlsx_missing(msg, size);
}

#endif
