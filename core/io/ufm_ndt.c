/* SPDX-License-Identifier: MIT */
/*
 * core/io/ufm_ndt.c — the NVIDIA UFM Network Design Tool cabling plan (`.ndt`,
 * CSV): the as-designed input of UFM's NDT plugin, which compares it with the
 * discovered fabric (docs/formats/ufm-ndt.md).
 *
 * Sources: Mellanox/ufm_sdk_3.0 plugins/UFM_NDT_Plugin — topo_diff.py (the
 * reader: csv.DictReader on the header `#StartDevice,StartPort,EndDevice,
 * EndPort,LinkType`, ports matched by `^Port (\d+)$` and configured
 * patterns, links compared upper-cased) and ibnetdiscover-to-ndt.py /
 * ibnetdiscover_to_ndt.py (the writer: switch ports `Port N`, director
 * ports `Blade <LL>_Port <U>/<p>` for port p of ASIC `MF0;name:MODEL/L<LL>/
 * U<U>`, host ports `<HOST> <ibdev>` with LinkType ` Data`); the public
 * samples tests/other_ndts/ndt.csv and ndth2s.csv (a spreadsheet export:
 * leading columns before the header names, `#Fields:` glued to the first
 * name, extra columns) and tests/negative_flow_ndts/.
 *
 * Grammar, as read here:
 *   - the header is the first non-blank line; its cells name columns
 *     (case-insensitive, blanks trimmed, a leading `#` and `Fields:`
 *     dropped); StartDevice, StartPort, EndDevice and EndPort are required,
 *     LinkType and `Cable Length` are kept as link attributes `link-type`
 *     and `length`, other columns are ignored (as DictReader does);
 *   - each later record is one cable; cells are CSV (RFC 4180, read by the
 *     project's reader util/csv.h: a quoted cell may hold commas, doubled
 *     quotes and line breaks), blanks around a cell are dropped (` Data`);
 *   - a port cell is `Port N` (switch port N), `Blade B_Port U/P` (front
 *     panel of a director chassis; written back as `Blade BB_Port U/P`), or
 *     a host port: `<device> <interface>` (UFM's form, the HCA's node
 *     description) or a cell the device name ends with (`Server 1 IB Port 1`
 *     / `IB Port 1`): the HCA is then a CA node named by the longer string,
 *     port 1. Anything else is an error at its line and column;
 *   - a line whose four required cells are all empty (a spreadsheet's blank
 *     row) is skipped and counted in a note; a line with some of them empty
 *     is an error.
 * Device names are kept as written; the alias layer compares them without
 * case, as UFM does.
 */
#include "io/formats.h"
#include "io/loaders.h"
#include "io/write_common.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "model/chassis.h"
#include "model/fabric_impl.h"
#include "util/csv.h"

#define NDT_MAX_CELLS 256
#define NDT_MAX_CELL  512

enum { C_SDEV, C_SPORT, C_EDEV, C_EPORT, C_LTYPE, C_LEN, C_N };
static const char *const COLS[C_N] = {"StartDevice", "StartPort",
                                      "EndDevice",   "EndPort",
                                      "LinkType",    "Cable Length"};

typedef struct cell {
  const char *s; /* trimmed, unquoted text (the reader's, util/csv.h) */
  size_t n;
  uint32_t col; /* 1-based column of the cell's first byte */
  int quoted;
} cell;

typedef struct ndt {
  fl_fabric *fab;
  fl_nbr *b;
  const char *path;
  fl_error *err;
  uint32_t line;
  int colx[C_N]; /* cell index of each column, -1 absent */
  uint32_t empty_rows, first_empty;
} ndt;

static int is_sp(char c) {
  return c == ' ' || c == '\t';
}

/* The reader's options for NDT (util/csv.h): blanks around cells dropped
 * (` Data`), text after a closing quote ignored. */
#define NDT_CSV_FLAGS (FL_CSV_TRIM | FL_CSV_DROP_AFTER_QUOTE)

/* The record @r read last as cells in @out (texts borrowed from @r until
 * its next record). Returns their count. */
static int to_cells(const fl_csv *r, cell *out) {
  for (size_t i = 0; i < r->n; i++) {
    out[i].s = fl_csv_cell_text(r, i);
    out[i].n = r->c[i].len;
    out[i].col = r->c[i].col;
    out[i].quoted = r->c[i].quoted;
  }
  return (int)r->n;
}

/* Copy cell @c into @buf (the reader undid doubled quotes; the single quote the
 * NDT writer puts before a formula-like cell, fl_wr_csv_cell(), taken off
 * again: `'=x` reads as `=x`, `''=x` as `'=x`). */
static const char *cell_str(const cell *c, char *buf, size_t size) {
  size_t o = 0, i = 0;
  if (c->n > 1 && c->s[0] == '\'') {
    size_t q = 0;
    while (q < c->n && c->s[q] == '\'')
      q++;
    if (q < c->n && c->s[q] && strchr(FL_WR_CSV_FORMULA_LEADS, c->s[q]))
      i = 1;
  }
  for (; i < c->n && o + 1 < size; i++)
    buf[o++] = c->s[i];
  buf[o] = '\0';
  while (o > 0 && is_sp(buf[o - 1]))
    buf[--o] = '\0';
  return buf;
}

/* Column name of a header cell: blanks, a leading '#' and "Fields:" off. */
static int header_col(const cell *c) {
  char b[NDT_MAX_CELL];
  const char *s = cell_str(c, b, sizeof b);
  while (*s == '#' || is_sp(*s))
    s++;
  if (strncasecmp(s, "Fields:", 7) == 0)
    s += 7;
  while (is_sp(*s))
    s++;
  for (int k = 0; k < C_N; k++)
    if (strcasecmp(s, COLS[k]) == 0)
      return k;
  return -1;
}

static int fail(ndt *x, uint32_t col, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int fail(ndt *x, uint32_t col, const char *fmt, ...) {
  char msg[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  return fl_error_set(x->err, FL_EPARSE, x->path, x->line, col, "%s", msg);
}

static const char EXPECT_HEADER[] =
    "expected the NDT header #StartDevice,StartPort,EndDevice,EndPort,"
    "LinkType";

static int read_header(ndt *x, const cell *c, int n) {
  for (int k = 0; k < C_N; k++)
    x->colx[k] = -1;
  for (int i = 0; i < n; i++) {
    int k = header_col(&c[i]);
    if (k >= 0 && x->colx[k] < 0)
      x->colx[k] = i;
  }
  for (int k = C_SDEV; k <= C_EPORT; k++)
    if (x->colx[k] < 0) {
      if (x->colx[C_SDEV] < 0 && x->colx[C_EDEV] < 0)
        return fail(x, 1, "%s", EXPECT_HEADER);
      return fail(x, 1, "the NDT header has no %s column; %s", COLS[k],
                  EXPECT_HEADER);
    }
  return FL_OK;
}

/* Port @pc of device @dev (cells of one end). Creates the node and port;
 * *@port set. */
static int end_port(ndt *x, const cell *dc, const cell *pc, fl_id *port) {
  char dev[NDT_MAX_CELL], lab[NDT_MAX_CELL], name[NDT_MAX_CELL];
  cell_str(dc, dev, sizeof dev);
  cell_str(pc, lab, sizeof lab);
  fl_prov prov = {fl_nbr_file(x->b), x->line, pc->col};
  fl_prov dprov = {fl_nbr_file(x->b), x->line, dc->col};
  size_t dn = strlen(dev), ln = strlen(lab);
  uint32_t bl, u, p;
  fl_id node;
  if (ln > 5 && strncasecmp(lab, "Port ", 5) == 0 &&
      strspn(lab + 5, "0123456789") == ln - 5 && ln - 5 <= 5 &&
      atoi(lab + 5) > 0) {
    node = fl_nbr_node(x->b, dev, FL_NODE_SWITCH, dprov);
    if (node == FL_NONE)
      return FL_ENOMEM;
    *port = fl_b_port(x->fab, node, (uint32_t)atoi(lab + 5), prov);
    return *port == FL_NONE ? FL_ENOMEM : FL_OK;
  }
  if (fl_panel_parse(lab, ln, &bl, &u, &p) == 0) {
    node = fl_nbr_node(x->b, dev, FL_NODE_SWITCH, dprov);
    if (node == FL_NONE)
      return FL_ENOMEM;
    fl_panel_format(name, sizeof name, bl, u, p);
    *port = fl_nbr_port(x->b, node, name, prov);
    return *port == FL_NONE ? FL_ENOMEM : FL_OK;
  }
  /* a host port: "<device> <interface>", or the tail of the device name */
  const char *hca = NULL;
  if (ln > dn + 1 && strncasecmp(lab, dev, dn) == 0 && is_sp(lab[dn]) &&
      !is_sp(lab[ln - 1]))
    hca = lab;
  else if (dn > ln + 1 && strcasecmp(dev + dn - ln, lab) == 0 &&
           is_sp(dev[dn - ln - 1]))
    hca = dev;
  if (!hca)
    return fail(x, pc->col,
                "port '%s' of '%s': expected `Port N` (a switch port), "
                "`Blade B_Port U/P` (a director port) or a host port "
                "`<device> <interface>`",
                lab, dev);
  node = fl_nbr_node(x->b, hca, FL_NODE_CA, dprov);
  if (node == FL_NONE)
    return FL_ENOMEM;
  *port = fl_b_port(x->fab, node, 1, prov);
  return *port == FL_NONE ? FL_ENOMEM : FL_OK;
}

/* Optional column @k of a row of @n cells as link attribute @key: nothing
 * when the header has no such column or the row ends before it (a cell
 * beyond @n is the previous row's, whose text the reader has since moved:
 * a use after free found by fuzz_convert_rt). */
static int set_attr(ndt *x, fl_id l, const cell *c, int n, int k,
                    const char *key) {
  if (x->colx[k] < 0 || x->colx[k] >= n)
    return FL_OK;
  char v[NDT_MAX_CELL];
  cell_str(&c[x->colx[k]], v, sizeof v);
  return *v ? fl_b_attr(x->fab, FL_ENT_LINK, l, key, v) : FL_OK;
}

static int read_row(ndt *x, const cell *c, int n, uint32_t eol_col) {
  int need = 0, empty = 0;
  for (int k = C_SDEV; k <= C_EPORT; k++) {
    if (x->colx[k] + 1 > need)
      need = x->colx[k] + 1;
    empty += x->colx[k] >= n || c[x->colx[k]].n == 0;
  }
  if (empty == 4) {
    if (!x->empty_rows++)
      x->first_empty = x->line;
    return FL_OK;
  }
  if (n < need)
    return fail(x, eol_col,
                "the row ends after %d field(s); the header places the "
                "cable's ends in the first %d",
                n, need);
  for (int k = C_SDEV; k <= C_EPORT; k++)
    if (c[x->colx[k]].n == 0)
      return fail(x, c[x->colx[k]].col,
                  "empty %s; every cable needs a start and an end device "
                  "and port",
                  COLS[k]);
  /* a longer cell would be cut, and two names cut alike would be one
   * device (issue #32 case 2): refused, never truncated */
  for (int k = 0; k < C_N; k++)
    if (x->colx[k] >= 0 && x->colx[k] < n && c[x->colx[k]].n >= NDT_MAX_CELL)
      return fail(x, c[x->colx[k]].col,
                  "%s of %zu bytes; the limit is %d bytes per cell", COLS[k],
                  c[x->colx[k]].n, NDT_MAX_CELL - 1);
  fl_id pa, pb;
  int rc = end_port(x, &c[x->colx[C_SDEV]], &c[x->colx[C_SPORT]], &pa);
  if (rc == FL_OK)
    rc = end_port(x, &c[x->colx[C_EDEV]], &c[x->colx[C_EPORT]], &pb);
  if (rc != FL_OK)
    return rc;
  fl_prov prov = {fl_nbr_file(x->b), x->line, c[x->colx[C_SDEV]].col};
  fl_id l = fl_nbr_link(x->b, pa, pb, FL_LINK_DECLARED, prov);
  if (l == FL_NONE)
    return FL_ENOMEM;
  rc = set_attr(x, l, c, n, C_LTYPE, "link-type");
  return rc == FL_OK ? set_attr(x, l, c, n, C_LEN, "length") : rc;
}

static int read_lines(ndt *x, const char *p, const char *e) {
  cell *cells = malloc(NDT_MAX_CELLS * sizeof *cells);
  if (!cells)
    return FL_ENOMEM;
  fl_csv rd;
  fl_csv_init(&rd, ',', NDT_MAX_CELLS, NDT_CSV_FLAGS);
  fl_csv_start(&rd, p, (size_t)(e - p));
  int rc = FL_OK, have_header = 0, r;
  x->line = 0;
  while (rc == FL_OK && (r = fl_csv_next(&rd)) == 1) {
    x->line = rd.line;
    if (rd.n == 1 && rd.c[0].len == 0 && !rd.c[0].quoted)
      continue; /* blank line */
    int n = to_cells(&rd, cells);
    if (!have_header) {
      rc = read_header(x, cells, n);
      have_header = 1;
    } else {
      rc = read_row(x, cells, n, rd.end_col);
    }
  }
  if (rc == FL_OK && r < 0) {
    x->line = rd.err_line;
    rc = r == FL_CSV_EQUOTE   ? fail(x, rd.err_col, "unterminated quoted field")
         : r == FL_CSV_ECELLS ? fail(x, 1, "more than %d fields", NDT_MAX_CELLS)
                              : FL_ENOMEM;
  }
  free(cells);
  fl_csv_free(&rd);
  if (rc == FL_OK && !have_header)
    rc = fl_error_set(x->err, FL_EPARSE, x->path, 1, 1, "empty file; %s",
                      EXPECT_HEADER);
  return rc;
}

int fl_load_ufm_ndt(fl_fabric *fab, const fl_input *in,
                    const fl_load_options *opts, fl_error *err) {
  (void)opts;
  ndt x;
  memset(&x, 0, sizeof x);
  x.fab = fab;
  x.path = in->path;
  x.err = err;
  x.b = fl_nbr_begin(fab, in->path);
  if (!x.b)
    return fl_error_set(err, FL_ENOMEM, in->path, 0, 0, "out of memory");
  fl_nbr_once(x.b);
  const char *p = in->buf, *e = in->buf + in->len;
  if (in->len >= 3 && memcmp(p, "\xef\xbb\xbf", 3) == 0)
    p += 3; /* UTF-8 byte order mark of a spreadsheet export */
  int rc = read_lines(&x, p, e);
  if (rc == FL_OK && x.empty_rows) {
    fl_prov prov = {fl_nbr_file(x.b), x.first_empty, 1};
    fl_b_note(fab, "input", prov,
              "%u row(s) with no device or port (blank spreadsheet rows, "
              "the first at line %u) skipped",
              x.empty_rows, x.first_empty);
  }
  fl_nbr_end(x.b);
  if (rc == FL_ENOMEM)
    return fl_error_set(err, FL_ENOMEM, in->path, x.line, 0, "out of memory");
  return rc;
}

/* ---- the format registry row (formats.h) ---- */

/* The first non-blank line names StartDevice and EndDevice columns. */
static uint32_t detect_ufm_ndt(const fl_detect_ctx *c, fl_error *err) {
  (void)err;
  if (c->xml_root)
    return FL_FMT_AUTO;
  const char *s = c->text, *end = c->text + c->len, *line, *le;
  while ((line = fl_detect_line(&s, end, &le)) != NULL) {
    if (fl_detect_skip_ws(line, le) < le) {
      cell cells[NDT_MAX_CELLS];
      fl_csv rd;
      fl_csv_init(&rd, ',', NDT_MAX_CELLS, NDT_CSV_FLAGS);
      fl_csv_start(&rd, line, (size_t)(le - line));
      int n = fl_csv_next(&rd) == 1 ? to_cells(&rd, cells) : 0;
      int sd = 0, ed = 0;
      for (int i = 0; i < n; i++) {
        int k = header_col(&cells[i]);
        sd |= k == C_SDEV;
        ed |= k == C_EDEV;
      }
      fl_csv_free(&rd);
      return sd && ed ? FL_FMT_UFM_NDT : FL_FMT_AUTO;
    }
  }
  return FL_FMT_AUTO;
}

const fl_format_def fl_fmt_ufm_ndt = {
    FL_FMT_UFM_NDT,
    "ufm-ndt",
    "ndt",
    FL_FORMAT_TOPOLOGY,
    fl_load_ufm_ndt,
    detect_ufm_ndt,
    "a UFM NDT cabling plan (CSV header #StartDevice,StartPort,EndDevice,"
    "EndPort,LinkType)"};
