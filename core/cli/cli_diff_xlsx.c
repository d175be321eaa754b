/* SPDX-License-Identifier: MIT */
/*
 * core/cli/cli_diff_xlsx.c — `diff --format xlsx`: the work order as a
 * workbook a field team works from (issue 34 §4): sheet "work order" with
 * every row, then one sheet per rack with the rows whose either end is in
 * it (a cable between two racks is on both; a `move` row also on the sheet
 * of the rack its end is taken from), a sheet "no rack" for rows with no
 * rack at any end, and "about". The columns are the CSV's
 * (report/work_order.h), the `row` number the same in every sheet, so a
 * rack's sheet and the whole order refer to the same action. Written
 * through cli_xlsx.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli/cli_diff_xlsx.h"
#include "cli/cli_xlsx.h"
#include "util/natcmp.h"

#ifdef FL_HAVE_XLSXWRITER

/* Excel's limits on a sheet name: 31 characters, none of []:*?/\ and not
 * starting or ending with an apostrophe; names compare without case. */
#define SHEET_NAME_MAX 31

/* Length in bytes of the UTF-8 sequence starting with byte @c (1 for a
 * byte that starts none: the model keeps names valid UTF-8). */
static size_t seq_len(unsigned char c) {
  return c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc0 ? 2 : 1;
}

/* @rack as a sheet name into @buf (at least 4 * SHEET_NAME_MAX + 1 bytes):
 * the characters Excel refuses as "_", cut to 31 characters (UTF-16 code
 * units, as Excel counts them: a 4-byte UTF-8 character is two) without
 * splitting a character; "History", which Excel keeps for itself, and any
 * name already in @taken (@n; compared without case) get a "~k" suffix. */
static void sheet_name(const char *rack, char *const *taken, size_t n,
                       char *buf) {
  char base[4 * SHEET_NAME_MAX + 1];
  size_t len = 0, units = 0;
  for (const char *s = rack; *s;) {
    size_t k = seq_len((unsigned char)*s), u = k == 4 ? 2 : 1;
    for (size_t i = 1; i < k; i++)
      if (!s[i]) /* a cut sequence: stop before it */
        k = 0;
    if (!k || units + u > SHEET_NAME_MAX)
      break;
    if (k == 1 && strchr("[]:*?/\\'", *s))
      base[len++] = '_';
    else
      memcpy(base + len, s, k), len += k;
    units += u;
    s += k;
  }
  base[len] = '\0';
  snprintf(buf, 4 * SHEET_NAME_MAX + 1, "%s", base);
  for (unsigned k = 2;; k++) {
    int clash = strcasecmp(buf, "History") == 0;
    for (size_t i = 0; i < n && !clash; i++)
      clash = strcasecmp(taken[i], buf) == 0;
    if (!clash)
      return;
    /* drop whole characters from the end until the suffix fits */
    char suf[16];
    int sl = snprintf(suf, sizeof suf, "~%u", k);
    size_t keep = len, kunits = units;
    while (keep > 0 && kunits + (size_t)sl > SHEET_NAME_MAX) {
      size_t b = keep - 1;
      while (b > 0 && ((unsigned char)base[b] & 0xc0) == 0x80)
        b--;
      kunits -= keep - b == 4 ? 2 : 1;
      keep = b;
    }
    snprintf(buf, 4 * SHEET_NAME_MAX + 1, "%.*s%s", (int)keep, base, suf);
  }
}

/* A cell: a plain decimal number (a port, a rack unit, a length) as a
 * number, so that a spreadsheet sorts 7 before 10; anything else (a port
 * label "1/2", a GUID, "007") as the text it is. */
static void write_cell(lxw_worksheet *ws, lxw_row_t r, lxw_col_t c,
                       const char *v) {
  char *end = NULL;
  double d = strtod(v, &end);
  int plain = *v >= '0' && *v <= '9' && end && !*end && strlen(v) < 16 &&
              !(v[0] == '0' && v[1] >= '0' && v[1] <= '9') &&
              !strpbrk(v, "eExXpP");
  if (plain)
    worksheet_write_number(ws, r, c, d, NULL);
  else
    worksheet_write_string(ws, r, c, v, NULL);
}

/* A sheet with the header row and the rows of @wo for which @keep[i]. */
static void rows_sheet(lxw_workbook *wb, const char *name,
                       const fl_work_order *wo, const unsigned char *keep,
                       lxw_format *bold) {
  lxw_worksheet *ws = workbook_add_worksheet(wb, name);
  for (size_t c = 0; c < FL_WO_NCOLUMNS; c++)
    worksheet_write_string(ws, 0, (lxw_col_t)c, FL_WO_COLUMNS[c], bold);
  worksheet_freeze_panes(ws, 1, 0);
  worksheet_set_column(ws, 1, (lxw_col_t)(FL_WO_NCOLUMNS - 1), 14, NULL);
  const char *cells[64];
  lxw_row_t r = 1;
  for (size_t i = 0; i < wo->n; i++) {
    if (keep && !keep[i])
      continue;
    worksheet_write_number(ws, r, 0, (double)(i + 1), NULL);
    fl_work_order_cells(&wo->v[i], cells);
    for (size_t c = 1; c < FL_WO_NCOLUMNS; c++)
      if (*cells[c - 1])
        write_cell(ws, r, (lxw_col_t)c, cells[c - 1]);
    r++;
  }
}

/* Whether row @r touches rack @rack: either end, or where a moved end is
 * taken from. */
static int row_in_rack(const fl_wo_row *r, const char *rack) {
  return (r->a_rack && !strcmp(r->a_rack, rack)) ||
         (r->b_rack && !strcmp(r->b_rack, rack)) ||
         (r->from_rack && !strcmp(r->from_rack, rack));
}

/* The distinct racks of @wo's rows (either end, or a move's from), in natural
 * order; their number in *@n. NULL with *@n 0 when none; -1 in *@n when out of
 * memory. */
static const char **racks_of(const fl_work_order *wo, long *n) {
  const char **v = malloc((3 * wo->n + 1) * sizeof *v);
  *n = 0;
  if (!v) {
    *n = -1;
    return NULL;
  }
  for (size_t i = 0; i < wo->n; i++) {
    const char *ends[3] = {wo->v[i].a_rack, wo->v[i].b_rack,
                           wo->v[i].from_rack};
    for (int e = 0; e < 3; e++)
      if (ends[e] && *ends[e])
        v[(*n)++] = ends[e];
  }
  qsort(v, (size_t)*n, sizeof *v, fl_natcmp_strict_ptr);
  long w = 0;
  for (long i = 0; i < *n; i++)
    if (w == 0 || strcmp(v[w - 1], v[i]) != 0)
      v[w++] = v[i];
  *n = w;
  return v;
}

static int rack_sheets(lxw_workbook *wb, const fl_work_order *wo,
                       lxw_format *bold) {
  long nr;
  const char **racks = racks_of(wo, &nr);
  unsigned char *keep = calloc(wo->n + 1, 1);
  char **taken = calloc((size_t)(nr > 0 ? nr : 0) + 3, sizeof *taken);
  int rc = nr < 0 || !keep || !taken ? -1 : 0;
  size_t nt = 0;
  if (rc == 0) { /* the fixed sheets' names are taken first */
    taken[nt++] = "work order", taken[nt++] = "no rack", taken[nt++] = "about";
  }
  for (long k = 0; rc == 0 && k < nr; k++) {
    for (size_t i = 0; i < wo->n; i++)
      keep[i] = row_in_rack(&wo->v[i], racks[k]);
    char *name = malloc(4 * SHEET_NAME_MAX + 1);
    if (!name) {
      rc = -1;
      break;
    }
    sheet_name(racks[k], taken, nt, name);
    taken[nt++] = name;
    rows_sheet(wb, name, wo, keep, bold);
  }
  int none = 0;
  for (size_t i = 0; rc == 0 && nr > 0 && i < wo->n; i++) {
    keep[i] = !(wo->v[i].a_rack && *wo->v[i].a_rack) &&
              !(wo->v[i].b_rack && *wo->v[i].b_rack) &&
              !(wo->v[i].from_rack && *wo->v[i].from_rack);
    none |= keep[i];
  }
  if (rc == 0 && none)
    rows_sheet(wb, "no rack", wo, keep, bold);
  for (size_t i = 3; taken && i < nt; i++)
    free(taken[i]);
  free(taken);
  free(keep);
  free((void *)racks);
  return rc;
}

int fl_diff_write_xlsx(FILE *out, const fl_work_order *wo, const char *design,
                       const char *as_built, const char *version, char *msg,
                       size_t size) {
  fl_xlsx x;
  if (fl_xlsx_open(&x, "work-order", msg, size) != 0)
    return -1;
  lxw_format *bold = workbook_add_format(x.wb);
  format_set_bold(bold);
  rows_sheet(x.wb, "work order", wo, NULL, bold);
  if (rack_sheets(x.wb, wo, bold) != 0) {
    fl_xlsx_close(&x, NULL, msg, size);
    snprintf(msg, size, "out of memory making the workbook");
    return -1;
  }
  lxw_worksheet *ws = workbook_add_worksheet(x.wb, "about");
  worksheet_set_column(ws, 1, 1, 60, NULL);
  char v[64];
  snprintf(v, sizeof v, "fabriclint %s diff", version);
  const char *rows[][2] = {
      {"made by", v}, {"design", design}, {"as-built", as_built}};
  for (lxw_row_t r = 0; r < 3; r++) {
    worksheet_write_string(ws, r, 0, rows[r][0], NULL);
    worksheet_write_string(ws, r, 1, rows[r][1] ? rows[r][1] : "", NULL);
  }
  return fl_xlsx_close(&x, out, msg, size);
}

#else

int fl_diff_write_xlsx(FILE *out, const fl_work_order *wo, const char *design,
                       const char *as_built, const char *version, char *msg,
                       size_t size) {
  (void)out, (void)wo, (void)design, (void)as_built, (void)version;
  return fl_xlsx_missing(msg, size);
}

#endif
