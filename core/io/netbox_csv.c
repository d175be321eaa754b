/* SPDX-License-Identifier: MIT */
/*
 * core/io/netbox_csv.c — NetBox cables as CSV: the cable list's "Export"
 * (table view) and the bulk-import CSV of dcim.Cable (docs/formats/
 * netbox-cables.md). NetBox is the DCIM where many fabrics' cabling is
 * recorded, so its cables are a plan (FL_LINK_DECLARED).
 *
 * Sources: netbox-community/netbox (Apache-2.0) dcim/tables/cables.py, whose
 * column verbose names are the export header, and dcim/forms/bulk_import.py
 * (CableImportForm: side_a_device, side_a_type, side_a_name, ...). Three
 * header dialects are read; a header is matched cell by cell without case,
 * blanks, `_` or `-`:
 *   - export, NetBox 2.x-3.2: `ID,Label,Side A,Termination A,Side B,
 *     Termination B,Status,Type,...` (Side = the device);
 *   - export, NetBox >= 3.3: `ID,Label,Termination A,Termination B,
 *     Device A,Device B,Status,Type,...` — Device A/B are not default
 *     columns: an export without them names no device and is refused with
 *     what to add;
 *   - import: `side_a_device,side_a_type,side_a_name,side_b_device,
 *     side_b_type,side_b_name,type,status,label,color,length,length_unit`.
 * Cells are RFC 4180 CSV: quoted cells may hold commas, doubled quotes and
 * line breaks. Rows are read as:
 *   - a cable between two device interfaces: nodes and ports by name;
 *     Status, Type, Label and Length (with length_unit) are kept as link
 *     attributes `status`, `cable-type`, `label`, `length`;
 *   - a cable with an end that is not on a device (a circuit termination,
 *     a power feed: no device name), with several terminations on one end
 *     (`Eth1,Eth2` from NetBox >= 3.3), or (import) whose end type is not
 *     dcim.interface (console, power, patch-panel ports): skipped, counted
 *     in a note with its first line;
 *   - an unterminated quote, a row shorter than the header's device and
 *     termination columns: an error at line:column.
 * Devices are switches unless another input says otherwise: NetBox's cable
 * table names no device role, so the nodes carry `kind-from=cable-plan` and
 * `fabriclint diff` does not compare their kind.
 */
#include "io/formats.h"
#include "io/loaders.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "model/fabric_impl.h"
#include "util/csv.h"

#define NB_MAX_CELLS 512

enum {
  C_DEV_A,
  C_TERM_A,
  C_DEV_B,
  C_TERM_B,
  C_TYPE_A,
  C_TYPE_B,
  C_STATUS,
  C_CABLE_TYPE,
  C_LABEL,
  C_LENGTH,
  C_LENGTH_UNIT,
  C_N
};

typedef struct nb {
  const char *path;
  fl_error *err;
  fl_csv r; /* the record reader (util/csv.h) and the record read last */
  int col[C_N];
  size_t need; /* cells a row must have: 1 + the highest required column */
} nb;

static int oom(nb *x) {
  return fl_error_set(x->err, FL_ENOMEM, x->path, x->r.cur_line, 0,
                      "out of memory");
}

/* One RFC 4180 record into x->r. 1: read, 0: end of input, <0: error. */
static int read_record(nb *x) {
  int r = fl_csv_next(&x->r);
  if (r == FL_CSV_EQUOTE)
    return fl_error_set(x->err, FL_EPARSE, x->path, x->r.err_line, x->r.err_col,
                        "unterminated quoted field");
  if (r == FL_CSV_ECELLS)
    return fl_error_set(x->err, FL_EPARSE, x->path, x->r.err_line, x->r.err_col,
                        "more than %d fields in a row", NB_MAX_CELLS);
  return r == FL_CSV_ENOMEM ? oom(x) : r;
}

/* Cell @i of the current record, blanks around it trimmed, in place. */
static char *cell_str(nb *x, size_t i) {
  char *s = fl_csv_cell_text(&x->r, i);
  if (!s)
    return NULL;
  size_t n = x->r.c[i].len;
  while (n && isspace((unsigned char)s[n - 1]))
    n--;
  s[n] = '\0';
  while (*s && isspace((unsigned char)*s))
    s++;
  return s;
}

/* A header cell without case, blanks, `_` and `-`, into @out. */
static void norm(const char *s, char *out, size_t size) {
  size_t k = 0;
  for (; *s && k + 1 < size; s++)
    if (!isspace((unsigned char)*s) && *s != '_' && *s != '-')
      out[k++] = (char)tolower((unsigned char)*s);
  out[k] = '\0';
}

static const struct {
  const char *name;
  int col;
} HEADER[] = {
    {"sidea", C_DEV_A},
    {"devicea", C_DEV_A},
    {"sideadevice", C_DEV_A},
    {"terminationa", C_TERM_A},
    {"sideaname", C_TERM_A},
    {"sideb", C_DEV_B},
    {"deviceb", C_DEV_B},
    {"sidebdevice", C_DEV_B},
    {"terminationb", C_TERM_B},
    {"sidebname", C_TERM_B},
    {"sideatype", C_TYPE_A},
    {"sidebtype", C_TYPE_B},
    {"status", C_STATUS},
    {"type", C_CABLE_TYPE},
    {"label", C_LABEL},
    {"length", C_LENGTH},
    {"lengthunit", C_LENGTH_UNIT},
};

static const char EXPECT[] =
    "expected a NetBox cable export (`Side A,Termination A,Side B,"
    "Termination B`, or `Termination A,Termination B,Device A,Device B`) or "
    "the cable import CSV (`side_a_device,side_a_type,side_a_name,"
    "side_b_device,side_b_type,side_b_name`)";

static int read_header(nb *x) {
  for (int k = 0; k < C_N; k++)
    x->col[k] = -1;
  for (size_t i = 0; i < x->r.n; i++) {
    char h[64];
    norm(cell_str(x, i), h, sizeof h);
    for (size_t k = 0; k < sizeof HEADER / sizeof *HEADER; k++)
      if (strcmp(h, HEADER[k].name) == 0 && x->col[HEADER[k].col] < 0)
        x->col[HEADER[k].col] = (int)i;
  }
  static const char *const what[4] = {
      "Side A/Device A/side_a_device", "Termination A/side_a_name",
      "Side B/Device B/side_b_device", "Termination B/side_b_name"};
  if (x->col[C_TERM_A] >= 0 && x->col[C_TERM_B] >= 0 &&
      (x->col[C_DEV_A] < 0 || x->col[C_DEV_B] < 0))
    return fl_error_set(
        x->err, FL_EPARSE, x->path, x->r.line, 1,
        "the cable export has Termination A/B but no Device A/Device B "
        "column, so it names no device: in NetBox 3.3 and later add the "
        "Device A and Device B columns to the cable table (Configure Table) "
        "and export the current view");
  for (int k = 0; k < 4; k++)
    if (x->col[k] < 0)
      return fl_error_set(x->err, FL_EPARSE, x->path, x->r.line, 1,
                          "the header has no %s column; %s", what[k], EXPECT);
  x->need = 0;
  for (int k = 0; k < 4; k++)
    if ((size_t)x->col[k] + 1 > x->need)
      x->need = (size_t)x->col[k] + 1;
  return FL_OK;
}

typedef struct skips {
  size_t off_device, multi, not_iface;
  uint32_t off_device_line, multi_line, not_iface_line;
} skips;

static void count(size_t *n, uint32_t *line, uint32_t at) {
  if ((*n)++ == 0)
    *line = at;
}

static int set_attr(nb *x, fl_fabric *fab, fl_id l, int k, const char *key) {
  char *v = x->col[k] >= 0 ? cell_str(x, (size_t)x->col[k]) : NULL;
  if (!v || !*v)
    return FL_OK;
  char buf[512];
  if (k == C_LENGTH && x->col[C_LENGTH_UNIT] >= 0) {
    char *u = cell_str(x, (size_t)x->col[C_LENGTH_UNIT]);
    if (u && *u) {
      snprintf(buf, sizeof buf, "%s %s", v, u);
      v = buf;
    }
  }
  return fl_b_attr(fab, FL_ENT_LINK, l, key, v) == FL_OK ? FL_OK : oom(x);
}

static int add_row(nb *x, fl_nbr *b, skips *k) {
  const uint32_t line = x->r.line;
  if (x->r.n < x->need) {
    const fl_csv_cell *last = &x->r.c[x->r.n - 1];
    return fl_error_set(x->err, FL_EPARSE, x->path, last->line,
                        last->col + (uint32_t)last->len,
                        "the row ends after %zu field(s); the header places "
                        "the cable's devices and terminations in the first "
                        "%zu",
                        x->r.n, x->need);
  }
  char *v[4];
  for (int i = 0; i < 4; i++)
    v[i] = cell_str(x, (size_t)x->col[i]);
  if (!*v[C_DEV_A] || !*v[C_DEV_B] || !*v[C_TERM_A] || !*v[C_TERM_B]) {
    count(&k->off_device, &k->off_device_line, line);
    return FL_OK;
  }
  for (int s = C_TYPE_A; s <= C_TYPE_B; s++) {
    char *t = x->col[s] >= 0 ? cell_str(x, (size_t)x->col[s]) : NULL;
    if (t && *t && strcasecmp(t, "dcim.interface") != 0) {
      count(&k->not_iface, &k->not_iface_line, line);
      return FL_OK;
    }
  }
  for (int i = 0; i < 4; i++)
    if (strchr(v[i], ',')) {
      count(&k->multi, &k->multi_line, line);
      return FL_OK;
    }
  if (strcmp(v[C_DEV_A], v[C_DEV_B]) == 0 &&
      strcmp(v[C_TERM_A], v[C_TERM_B]) == 0) {
    const fl_csv_cell *c = &x->r.c[x->col[C_TERM_B]];
    return fl_error_set(x->err, FL_EPARSE, x->path, c->line, c->col,
                        "cable joins %s %s to itself", v[C_DEV_A], v[C_TERM_A]);
  }
  fl_prov prov = {fl_nbr_file(b), line, 0};
  fl_id a = fl_nbr_node(b, v[C_DEV_A], 0, prov);
  fl_id z = a == FL_NONE ? FL_NONE : fl_nbr_node(b, v[C_DEV_B], 0, prov);
  fl_id pa = z == FL_NONE ? FL_NONE : fl_nbr_port(b, a, v[C_TERM_A], prov);
  fl_id pb = pa == FL_NONE ? FL_NONE : fl_nbr_port(b, z, v[C_TERM_B], prov);
  fl_id l =
      pb == FL_NONE ? FL_NONE : fl_nbr_link(b, pa, pb, FL_LINK_DECLARED, prov);
  if (l == FL_NONE)
    return oom(x);
  fl_fabric *fab = fl_nbr_fabric(b);
  /* the cable table names no device role: `fabriclint diff` compares the
   * kind of these nodes with nothing (as for a Cisco plan's destChassis) */
  if (fl_b_attr(fab, FL_ENT_NODE, a, "kind-from", "cable-plan") != FL_OK ||
      fl_b_attr(fab, FL_ENT_NODE, z, "kind-from", "cable-plan") != FL_OK)
    return oom(x);
  int rc = set_attr(x, fab, l, C_STATUS, "status");
  if (rc == FL_OK)
    rc = set_attr(x, fab, l, C_CABLE_TYPE, "cable-type");
  if (rc == FL_OK)
    rc = set_attr(x, fab, l, C_LABEL, "label");
  if (rc == FL_OK)
    rc = set_attr(x, fab, l, C_LENGTH, "length");
  return rc;
}

static int blank_record(const nb *x) {
  return x->r.n == 1 && x->r.c[0].len == 0;
}

static void report(fl_fabric *fab, uint32_t file, const skips *k) {
  if (k->off_device)
    fl_b_note(fab, "input", (fl_prov){file, k->off_device_line, 0},
              "%zu cable(s) with an end on no device interface (circuit, "
              "power feed, unterminated) skipped, the first at line %u",
              k->off_device, k->off_device_line);
  if (k->multi)
    fl_b_note(fab, "input", (fl_prov){file, k->multi_line, 0},
              "%zu cable(s) with several terminations on one end skipped, "
              "the first at line %u",
              k->multi, k->multi_line);
  if (k->not_iface)
    fl_b_note(fab, "input", (fl_prov){file, k->not_iface_line, 0},
              "%zu cable(s) not between interfaces (console, power or "
              "patch-panel ports) skipped, the first at line %u",
              k->not_iface, k->not_iface_line);
}

static int load_netbox(fl_fabric *fab, const fl_input *in,
                       const fl_load_options *opts, fl_error *err) {
  (void)opts;
  nb x;
  memset(&x, 0, sizeof x);
  x.path = in->path;
  x.err = err;
  /* a spreadsheet export's byte order mark is skipped by the reader */
  fl_csv_init(&x.r, ',', NB_MAX_CELLS, FL_CSV_BOM);
  fl_csv_start(&x.r, in->buf, in->len);
  int r;
  while ((r = read_record(&x)) == 1 && blank_record(&x))
    ;
  int rc = r < 0    ? r
           : r == 0 ? fl_error_set(err, FL_EPARSE, in->path, 1, 1,
                                   "empty file; %s", EXPECT)
                    : read_header(&x);
  fl_nbr *b = rc == FL_OK ? fl_nbr_begin(fab, in->path) : NULL;
  if (rc == FL_OK && !b)
    rc = oom(&x);
  if (b)
    fl_nbr_once(b);
  skips k;
  memset(&k, 0, sizeof k);
  size_t cables = 0;
  while (rc == FL_OK && (r = read_record(&x)) == 1) {
    if (blank_record(&x))
      continue;
    rc = add_row(&x, b, &k);
    cables++;
  }
  if (rc == FL_OK && r < 0)
    rc = r;
  if (rc == FL_OK && cables == 0)
    rc = fl_error_set(err, FL_EPARSE, in->path, x.r.cur_line, 0,
                      "no cable after the header");
  if (rc == FL_OK)
    report(fab, fl_nbr_file(b), &k);
  if (b)
    fl_nbr_end(b);
  fl_csv_free(&x.r);
  return rc;
}

/* ---- the format registry row (formats.h) ---- */

/* The first non-blank line names the four device/termination columns of
 * one dialect (or Termination A/B alone, refused by the loader with what
 * to add). Only cells up to the first quote are looked at. */
static uint32_t detect_netbox(const fl_detect_ctx *c, fl_error *err) {
  (void)err;
  if (c->xml_root)
    return FL_FMT_AUTO;
  const char *p = c->text, *e = c->text + c->len;
  p = fl_detect_skip_ws(p, e);
  const char *le = memchr(p, '\n', (size_t)(e - p));
  if (!le)
    le = e;
  int ta = 0, tb = 0, sa = 0, sb = 0;
  while (p < le) {
    const char *q = p;
    while (q < le && *q != ',')
      q++;
    char raw[64], h[64];
    size_t n = (size_t)(q - p);
    if (n < sizeof raw) {
      memcpy(raw, p, n);
      raw[n] = '\0';
      if (n && raw[0] == '"' && raw[n - 1] == '"' && n >= 2) {
        raw[n - 1] = '\0';
        memmove(raw, raw + 1, n - 1);
      }
      norm(raw, h, sizeof h);
      ta |= strcmp(h, "terminationa") == 0 || strcmp(h, "sideaname") == 0;
      tb |= strcmp(h, "terminationb") == 0 || strcmp(h, "sidebname") == 0;
      sa |= strcmp(h, "sideadevice") == 0;
      sb |= strcmp(h, "sidebdevice") == 0;
    }
    p = q + 1;
  }
  return (ta && tb) || (sa && sb) ? FL_FMT_NETBOX_CABLES : FL_FMT_AUTO;
}

const fl_format_def fl_fmt_netbox_cables = {
    FL_FMT_NETBOX_CABLES,
    "netbox-cables",
    "netbox",
    FL_FORMAT_TOPOLOGY,
    load_netbox,
    detect_netbox,
    "a NetBox cable export or import CSV (Termination A/B columns)"};
