/* SPDX-License-Identifier: MIT */
/*
 * core/io/dbcsv_load.c — ibdiagnet's internal database dump
 * (`ibdiagnet2.db_csv`): the section reader both its roles share
 * (dbcsv_impl.h), its AR_INFO section (per switch, whether adaptive routing
 * (AR) is enabled and on which SLs), its routing-state role (format
 * "ibdiagnet-db-csv": AR_INFO on a fabric another input describes) and
 * the detection of both roles. The topology role (NODES, PORTS, LINKS,
 * CABLE_INFO) is core/io/dbcsv_topo.c.
 *
 * Why: issue 7 asks for AR enablement "from ibdiagnet's AR dumps
 * (ibdiagnet2.far, AR_INFO in ibdiagnet2.db_csv)". The .far (core/ar_load.c)
 * carries AR groups and AR LFTs but is only written with `-r`; db_csv is
 * written by every ibdiagnet run, and AR_INFO holds each AR-capable
 * switch's AdaptiveRoutingInfo MAD (enable bit, SL mask). The AR plugin
 * (plugins/adaptive-routing/ar.c) reads that state as the switch attributes
 * `ar` ("true" / "false"; it takes "true" or "1" as on, anything else as
 * off) and `ar-sl-mask` (a 16-bit mask, strtoul base 0), so this loader
 * sets exactly those. A loaded .far still wins over them (ar.c).
 *
 * Layout (ibutils2 ibdiag db_csv, see docs/formats/ibdiagnet-db-csv.md; no
 * real public db_csv was found, the tests use files written from the
 * documented layout):
 *
 *   # banner comments
 *   START_<NAME>
 *   <header: comma-separated column names>
 *   <rows: comma-separated values>
 *   END_<NAME>
 *   (blank line, next section)
 *
 * Values are decimal, 0x-hex (GUIDs, masks), "quoted" strings (NodeDesc,
 * may hold commas; "" is a quote) or N/A; all may carry surrounding spaces
 * (opensm-smdb.dump pads them). Column sets and orders vary between
 * ibdiagnet versions, so every section is parsed generically and columns
 * are found by header name. AR_INFO's header was never seen in a public
 * file ("NodeGUID followed by the AdaptiveRoutingInfo MAD fields"), so
 * names are matched leniently: case-insensitive, ignoring `_`, `-` and
 * spaces:
 *   switch:   NodeGUID | GUID | SwitchGUID
 *   enable:   is_ar_enabled | ar_enabled | ar_enable | enabled | enable | e
 *             (first present in this order; 0/1, true/false, yes/no)
 *   SL mask:  enable_by_sl_mask | by_sl_mask | sl_mask (0..0xffff); not
 *             set when a by_sl_en column says 0 (the mask is then unused:
 *             every SL may adapt)
 * N/A leaves the attribute unset. In the routing-state role the other
 * sections (NODES, PORTS, LINKS, LINEAR_FORWARDING_TABLE_SPLIT, ...) are
 * checked for well-formedness only; a NODES section gets one note (the
 * topology came from another input).
 *
 * Strictness: END_<X> without START_<X>, START_ inside an open section, a
 * section never closed, a row with more or fewer fields than its header, an
 * unterminated quoted string, a bad GUID or a bad enable / mask value in
 * AR_INFO are FL_EPARSE naming file:line:col and what was expected. A GUID
 * the topology lacks (or that is not a switch) is skipped with a "routing"
 * note (dumps and topology are often taken at different times); free text
 * outside sections is noted once.
 *
 * Cost: one pass with getline(), memory O(longest line + columns).
 */
#include "io/formats.h"
#include "io/loaders.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "io/dbcsv_impl.h"
#include "io/fileio.h"
#include "model/fabric_impl.h"

int dbc_err(dbc_rd *r, uint32_t col, const char *fmt, ...) {
  char msg[FL_ERROR_MSG_MAX];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  return fl_error_set(r->err, FL_EPARSE, r->path, r->line, col, "%s", msg);
}

int dbc_nomem(dbc_rd *r) {
  return fl_error_set(r->err, FL_ENOMEM, r->path, r->line, 0, "out of memory");
}

static int is_blank(char c) {
  return c == ' ' || c == '\t';
}

/* Split the text at @p (inside line @ls, which gives the columns) into
 * r->f with the project's CSV reader (util/csv.h: blanks trimmed, "" a
 * quote, nothing but blanks after a closing quote). Returns FL_OK,
 * FL_EPARSE or FL_ENOMEM. */
static int split_csv(dbc_rd *r, const char *ls, const char *p) {
  r->nf = 0;
  fl_csv_start(&r->csv, p, strlen(p));
  int rc = fl_csv_next(&r->csv);
  uint32_t at = (uint32_t)(p - ls); /* columns of the line, not of @p */
  if (rc == FL_CSV_EQUOTE)
    return dbc_err(r, at + r->csv.err_col,
                   "unterminated quoted string: expected a closing `\"`");
  if (rc == FL_CSV_EAFTER)
    return dbc_err(r, at + r->csv.err_col,
                   "expected `,` or the end of the line after a quoted "
                   "string");
  if (rc == FL_CSV_ENOMEM || r->csv.n > r->capf) {
    dbf *v = rc == FL_CSV_ENOMEM ? NULL : realloc(r->f, r->csv.n * sizeof *v);
    if (!v)
      return dbc_nomem(r);
    r->f = v;
    r->capf = r->csv.n;
  }
  for (size_t i = 0; i < r->csv.n; i++) {
    r->f[i].s = fl_csv_cell_text(&r->csv, i);
    r->f[i].col = at + r->csv.c[i].col;
  }
  r->nf = r->csv.n;
  return FL_OK;
}

/* `START_<NAME>` / `END_<NAME>` alone on the (trimmed) line @p: returns 1
 * (START) or 2 (END) with the name in @name, else 0. */
static int marker(const char *p, const char **name, size_t *nlen) {
  int kind;
  const char *s;
  if (strncmp(p, "START_", 6) == 0)
    kind = 1, s = p + 6;
  else if (strncmp(p, "END_", 4) == 0)
    kind = 2, s = p + 4;
  else
    return 0;
  const char *e = s;
  while (isalnum((unsigned char)*e) || *e == '_')
    e++;
  if (e == s || *e != '\0')
    return 0;
  *name = s;
  *nlen = (size_t)(e - s);
  return kind;
}

/* Header name normalised: lower case without `_`, `-`, blanks. */
static void norm(const char *s, char *out, size_t size) {
  size_t n = 0;
  for (; *s && n + 1 < size; s++)
    if (*s != '_' && *s != '-' && !is_blank(*s))
      out[n++] = (char)tolower((unsigned char)*s);
  out[n] = '\0';
}

/* Index of the first header column whose normalised name is one of
 * @names (in the order of @names); -1 if none. */
long dbc_find_col(char *const *hdr, size_t n, const char *const *names) {
  char b[64];
  for (size_t k = 0; names[k]; k++)
    for (size_t i = 0; i < n; i++) {
      norm(hdr[i], b, sizeof b);
      if (strcmp(b, names[k]) == 0)
        return (long)i;
    }
  return -1;
}

int dbc_is_na(const char *s) {
  return strcasecmp(s, "N/A") == 0 || strcasecmp(s, "NA") == 0;
}

/* Unsigned number (decimal or 0x-hex) no larger than @max; -1 if not. */
int64_t dbc_num(const char *s, uint64_t max) {
  int base = 10;
  if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
    base = 16, s += 2;
  if (!*s)
    return -1;
  uint64_t v = 0;
  for (; *s; s++) {
    int d = isdigit((unsigned char)*s) ? *s - '0'
            : base == 16 && isxdigit((unsigned char)*s)
                ? tolower((unsigned char)*s) - 'a' + 10
                : -1;
    if (d < 0)
      return -1;
    v = v * (uint64_t)base + (uint64_t)d;
    if (v > max)
      return -1;
  }
  return (int64_t)v;
}

/* 0x-hex GUID of 1..16 digits. */
int dbc_guid(const char *s, uint64_t *out) {
  if (s[0] != '0' || (s[1] != 'x' && s[1] != 'X'))
    return -1;
  size_t n = strlen(s + 2);
  if (n < 1 || n > 16)
    return -1;
  uint64_t v = 0;
  for (const char *p = s + 2; *p; p++) {
    if (!isxdigit((unsigned char)*p))
      return -1;
    v = v << 4 | (uint64_t)(isdigit((unsigned char)*p)
                                ? *p - '0'
                                : tolower((unsigned char)*p) - 'a' + 10);
  }
  *out = v;
  return 0;
}

/* Boolean value: 1, 0, or -1 when not one. */
int dbc_bool(const char *s) {
  static const char *const on[] = {"1", "true", "yes", "on", "enabled", "0x1"};
  static const char *const off[] = {"0",   "false",    "no",
                                    "off", "disabled", "0x0"};
  for (size_t i = 0; i < sizeof on / sizeof *on; i++)
    if (strcasecmp(s, on[i]) == 0)
      return 1;
  for (size_t i = 0; i < sizeof off / sizeof *off; i++)
    if (strcasecmp(s, off[i]) == 0)
      return 0;
  return -1;
}

static const char *const GUID_COLS[] = {"nodeguid", "guid", "switchguid", NULL};
static const char *const ENABLE_COLS[] = {
    "isarenabled", "arenabled", "arenable", "enabled", "enable", "e", NULL};
static const char *const MASK_COLS[] = {"enablebyslmask", "byslmask", "slmask",
                                        NULL};
static const char *const BYSLEN_COLS[] = {"byslen", NULL};

/* AR_INFO's header: the switch's column is required, and a note says so
 * when neither the enable bit nor the SL mask is there. */
int dbc_ar_begin(dbc_ar *a, dbc_rd *r, fl_prov pv) {
  a->guid = dbc_find_col(r->hdr, r->nhdr, GUID_COLS);
  a->enable = dbc_find_col(r->hdr, r->nhdr, ENABLE_COLS);
  a->mask = dbc_find_col(r->hdr, r->nhdr, MASK_COLS);
  a->by_sl_en = dbc_find_col(r->hdr, r->nhdr, BYSLEN_COLS);
  if (a->guid < 0)
    return dbc_err(r, pv.col,
                   "expected an AR_INFO header with a NodeGUID column "
                   "(the switch of each row)");
  if (a->enable < 0 && a->mask < 0)
    fl_b_note(r->fab, "routing", pv,
              "AR_INFO header has no enable column (e, enable, "
              "ar_enable, is_ar_enabled) and no SL mask column "
              "(enable_by_sl_mask, by_sl_mask, sl_mask): no AR state "
              "read");
  return FL_OK;
}

/* One AR_INFO row (fields in r->f, r->nf == header size). */
int dbc_ar_row(const dbc_ar *c, dbc_rd *r, fl_prov pv) {
  const dbf *g = &r->f[c->guid];
  uint64_t id;
  if (dbc_guid(g->s, &id) != 0)
    return dbc_err(r, g->col,
                   "expected a node GUID 0x<hex, up to 16 digits> in column "
                   "NodeGUID, got `%.40s%s`",
                   g->s, strlen(g->s) > 40 ? "..." : "");
  fl_id sw = fl_b_node_by_guid(r->fab, id);
  if (sw == FL_NONE || r->fab->nodes[sw].kind != FL_NODE_SWITCH) {
    fl_b_note(r->fab, "routing", pv,
              "AR_INFO row for switch GUID 0x%016llx skipped: no such switch "
              "in the topology",
              (unsigned long long)id);
    return FL_OK;
  }
  int en = -1;
  if (c->enable >= 0) {
    const dbf *e = &r->f[c->enable];
    if (!dbc_is_na(e->s) && (en = dbc_bool(e->s)) < 0)
      return dbc_err(r, e->col,
                     "expected the AR enable bit (0 or 1, true or false, "
                     "N/A), got `%.40s%s`",
                     e->s, strlen(e->s) > 40 ? "..." : "");
  }
  int64_t mask = -1;
  if (c->mask >= 0) {
    const dbf *m = &r->f[c->mask];
    if (!dbc_is_na(m->s) && (mask = dbc_num(m->s, 0xffff)) < 0)
      return dbc_err(r, m->col,
                     "expected the AR SL mask (0..0xffff, decimal or "
                     "0x-hex, or N/A), got `%.40s%s`",
                     m->s, strlen(m->s) > 40 ? "..." : "");
  }
  if (mask >= 0 && c->by_sl_en >= 0) {
    const dbf *b = &r->f[c->by_sl_en];
    int on = dbc_is_na(b->s) ? -1 : dbc_bool(b->s);
    if (on < 0 && !dbc_is_na(b->s))
      return dbc_err(r, b->col,
                     "expected by_sl_en 0 or 1 (or N/A), got "
                     "`%.40s%s`",
                     b->s, strlen(b->s) > 40 ? "..." : "");
    if (on == 0)
      mask = -1; /* the mask is not applied: every SL may adapt */
  }
  if (en >= 0 &&
      fl_b_attr(r->fab, FL_ENT_NODE, sw, "ar", en ? "true" : "false") != FL_OK)
    return dbc_nomem(r);
  if (mask >= 0) {
    char v[8];
    snprintf(v, sizeof v, "0x%04x", (unsigned)mask);
    if (fl_b_attr(r->fab, FL_ENT_NODE, sw, "ar-sl-mask", v) != FL_OK)
      return dbc_nomem(r);
  }
  return FL_OK;
}

static void free_hdr(char **hdr, size_t n) {
  for (size_t i = 0; i < n; i++)
    free(hdr[i]);
  free(hdr);
}

enum { ST_OUT, ST_HEADER, ST_ROWS };

/* The current line's header into r->hdr (copies: the fields live in the
 * CSV reader's buffer until the next line). */
static int keep_header(dbc_rd *r) {
  r->hdr = calloc(r->nf ? r->nf : 1, sizeof *r->hdr);
  if (!r->hdr)
    return dbc_nomem(r);
  for (r->nhdr = 0; r->nhdr < r->nf; r->nhdr++)
    if (!(r->hdr[r->nhdr] = strdup(r->f[r->nhdr].s)))
      return dbc_nomem(r);
  return FL_OK;
}

int dbc_walk(fl_fabric *fab, const fl_input *in, fl_error *err,
             const dbc_handler *h) {
  const char *path = in->path;
  /* the bytes fl_fabric_load() read, as a stream for getline() */
  FILE *fp = fmemopen(in->buf, in->len, "r");
  if (!fp)
    return fl_error_set(err, FL_ENOMEM, path, 0, 0, "cannot read: %s",
                        strerror(errno));
  char sec[128] = "";
  dbc_rd r = {fab, err,  path, fl_b_file(fab, path), 0, NULL, 0, 0, {0},
              sec, NULL, 0};
  fl_csv_init(&r.csv, ',', SIZE_MAX, FL_CSV_TRIM | FL_CSV_STRICT_QUOTE);
  char *buf = NULL;
  size_t cap = 0;
  ssize_t n;
  int rc = FL_OK, st = ST_OUT, want = 0;
  uint32_t sec_line = 0, hdr_line = 0, sections = 0;
  uint64_t stray = 0;
  while ((n = getline(&buf, &cap, fp)) > 0) {
    r.line++;
    while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == '\r'))
      buf[--n] = '\0';
    char *p = buf;
    if (r.line == 1 && (unsigned char)p[0] == 0xef &&
        (unsigned char)p[1] == 0xbb && (unsigned char)p[2] == 0xbf)
      p += 3;
    while (is_blank(*p))
      p++;
    char *e = p + strlen(p);
    while (e > p && is_blank(e[-1]))
      *--e = '\0';
    fl_prov pv = {r.file, r.line, (uint32_t)(p - buf) + 1};
    uint32_t col = pv.col;
    if (*p == '\0' || *p == '#')
      continue;
    const char *name;
    size_t nlen;
    int mk = marker(p, &name, &nlen);
    if (mk == 1) {
      if (st != ST_OUT) {
        rc = dbc_err(&r, col,
                     "expected END_%s (section START_%s of line %u is not "
                     "closed) before START_%.*s",
                     sec, sec, sec_line, (int)nlen, name);
        break;
      }
      if (nlen >= sizeof sec) {
        rc = dbc_err(&r, col + 6, "section name longer than %zu characters",
                     sizeof sec - 1);
        break;
      }
      memcpy(sec, name, nlen);
      sec[nlen] = '\0';
      sec_line = r.line;
      st = ST_HEADER;
      sections++;
      continue;
    }
    if (mk == 2) {
      if (st == ST_OUT) {
        rc = dbc_err(&r, col, "END_%.*s without START_%.*s", (int)nlen, name,
                     (int)nlen, name);
        break;
      }
      if (strlen(sec) != nlen || memcmp(sec, name, nlen) != 0) {
        rc = dbc_err(&r, col,
                     "expected END_%s (closing START_%s of line %u), found "
                     "END_%.*s",
                     sec, sec, sec_line, (int)nlen, name);
        break;
      }
      st = ST_OUT;
      free_hdr(r.hdr, r.nhdr);
      r.hdr = NULL, r.nhdr = 0;
      continue;
    }
    if (st == ST_OUT) {
      if (!stray++)
        fl_b_note(fab, "routing", pv,
                  "text outside any START_<NAME>/END_<NAME> section of the "
                  "db_csv ignored: %.80s",
                  p);
      continue;
    }
    if ((rc = split_csv(&r, buf, p)) != FL_OK)
      break;
    if (st == ST_HEADER) {
      if ((rc = keep_header(&r)) != FL_OK)
        break;
      hdr_line = r.line;
      st = ST_ROWS;
      want = 0;
      if ((rc = h->begin(h->ctx, &r, pv, &want)) != FL_OK)
        break;
      continue;
    }
    if (r.nf != r.nhdr) {
      /* the first extra field, or the end of the line */
      uint32_t at = r.nf > r.nhdr ? r.f[r.nhdr].col : (uint32_t)(e - buf) + 1;
      rc = dbc_err(&r, at,
                   "section %s: row has %zu fields, expected %zu as in the "
                   "header of line %u",
                   sec, r.nf, r.nhdr, hdr_line);
      break;
    }
    if (want && (rc = h->row(h->ctx, &r, pv)) != FL_OK)
      break;
  }
  if (rc == FL_OK && ferror(fp))
    rc = fl_error_set(err, FL_EIO, path, r.line, 0, "read error");
  if (rc == FL_OK && st != ST_OUT)
    rc = fl_error_set(err, FL_EPARSE, path, sec_line, 1,
                      "section START_%s is never closed: expected END_%s "
                      "before the end of the file (line %u)",
                      sec, sec, r.line);
  if (rc == FL_OK && sections == 0)
    rc = fl_error_set(err, FL_EPARSE, path, r.line, 0,
                      "no START_<NAME> ... END_<NAME> section: not an "
                      "ibdiagnet2.db_csv");
  if (rc == FL_OK && stray > 1) {
    fl_prov pv = {r.file, 0, 0};
    fl_b_note(fab, "routing", pv,
              "%llu lines of text outside db_csv sections ignored in all",
              (unsigned long long)stray);
  }
  free_hdr(r.hdr, r.nhdr);
  free(r.f);
  fl_csv_free(&r.csv);
  free(buf);
  fclose(fp);
  return rc;
}

/* ---- the routing-state role: AR_INFO on another input's fabric ---- */

typedef struct ar_role {
  dbc_ar ar;
  int is_ar;
} ar_role;

static int ar_role_begin(void *ctx, dbc_rd *r, fl_prov pv, int *want) {
  ar_role *a = ctx;
  a->is_ar = strcasecmp(r->sec, "AR_INFO") == 0;
  if (strcasecmp(r->sec, "NODES") == 0)
    fl_b_note(r->fab, "topology", pv,
              "the NODES, PORTS and LINKS sections of this db_csv are not "
              "read: another input describes the fabric (its AR_INFO is)");
  *want = a->is_ar;
  return a->is_ar ? dbc_ar_begin(&a->ar, r, pv) : FL_OK;
}

static int ar_role_row(void *ctx, dbc_rd *r, fl_prov pv) {
  ar_role *a = ctx;
  return dbc_ar_row(&a->ar, r, pv);
}

int fl_load_dbcsv(fl_fabric *fab, const fl_input *in,
                  const fl_load_options *opts, fl_error *err) {
  (void)opts;
  ar_role a = {{-1, -1, -1, -1}, 0};
  dbc_handler h = {ar_role_begin, ar_role_row, &a};
  return dbc_walk(fab, in, err, &h);
}

/* ---- detection (formats.h) ---- */

/* `START_<NAME>` alone on a line (blanks and a CR around it allowed):
 * writes the name's start and length, else returns 0. @kw is "START_" or
 * "END_". */
static int section_marker(const char *s, const char *end, const char *kw,
                          const char **name, size_t *nlen) {
  s = fl_detect_skip_ws(s, end);
  if (!fl_detect_prefix(s, end, kw))
    return 0;
  const char *p = s + strlen(kw), *q = p;
  while (q < end && (isalnum((unsigned char)*q) || *q == '_'))
    q++;
  if (q == p || fl_detect_skip_ws(q, end) != end)
    return 0;
  *name = p;
  *nlen = (size_t)(q - p);
  return 1;
}

int fl_dbcsv_has_section(const char *buf, size_t len, const char *name) {
  size_t want = strlen(name), nlen;
  const char *s = buf, *end = buf + len, *le, *line, *got;
  while ((line = fl_detect_line(&s, end, &le)))
    if (section_marker(line, le, "START_", &got, &nlen) && nlen == want &&
        memcmp(got, name, nlen) == 0)
      return 1;
  return 0;
}

int fl_dbcsv_file_sections(const char *path, int *links, size_t *size) {
  fl_input in;
  fl_error e;
  fl_error_clear(&e);
  if (fl_input_read(&in, path, NULL, 0, &e) != FL_OK)
    return 0;
  int nodes = fl_dbcsv_has_section(in.buf, in.len, "NODES");
  if (links)
    *links = fl_dbcsv_has_section(in.buf, in.len, "LINKS");
  if (size)
    *size = in.len;
  fl_input_free(&in);
  return nodes;
}

int dbc_window_has_nodes(const char *text, size_t len) {
  const char *s = text, *end = text + len, *le, *line;
  int after = 0; /* the line after START_NODES */
  while ((line = fl_detect_line(&s, end, &le))) {
    const char *name;
    size_t nlen;
    if (le > line && le[-1] == '\r')
      le--;
    const char *first = fl_detect_skip_ws(line, le);
    if (first == le || *first == '#')
      continue; /* blank and comment lines, as the reader skips them */
    if (after) {
      /* the header: NodeGUID and NodeType among its names */
      char raw[64], b[64];
      int guid = 0, type = 0;
      for (const char *c = line; c < le;) {
        const char *ce = memchr(c, ',', (size_t)(le - c));
        ce = ce ? ce : le;
        size_t k = 0; /* the name without its quotes, as the reader has it */
        for (const char *q = c; q < ce && k + 1 < sizeof raw; q++)
          if (*q != '"')
            raw[k++] = *q;
        raw[k] = '\0';
        norm(raw, b, sizeof b);
        guid |= strcmp(b, "nodeguid") == 0;
        type |= strcmp(b, "nodetype") == 0;
        c = ce < le ? ce + 1 : le;
      }
      return guid && type;
    }
    after = section_marker(line, le, "START_", &name, &nlen) && nlen == 5 &&
            memcmp(name, "NODES", 5) == 0;
  }
  return 0;
}

/* The role of a dump: a topology when it has a NODES section (every
 * ibdiagnet run writes one, first), else routing state (AR_INFO). */
static uint32_t role(const fl_detect_ctx *c) {
  return dbc_window_has_nodes(c->text, c->len) ? FL_FMT_IBDIAG_DB
                                               : FL_FMT_DBCSV;
}

/* ibdiagnet2.db_csv (ibutils2 ibdiag, docs/formats/ibdiagnet-db-csv.md): a
 * line `START_<NAME>` (NODES, AR_INFO, ...) followed later by
 * `END_<NAME>`. When the first section is longer than the detection window
 * (a big PORTS section), `START_<NAME>` and a comma-separated header line
 * right after it suffice. */
static uint32_t detect_dbcsv(const fl_detect_ctx *c, fl_error *err) {
  (void)err;
  if (c->xml_root)
    return FL_FMT_AUTO;
  const char *s = c->text, *end = c->text + c->len, *open = NULL;
  size_t open_len = 0;
  int header = 0; /* the line after the open START_ is a CSV header */
  while (s < end) {
    const char *nl = memchr(s, '\n', (size_t)(end - s));
    const char *le = nl ? nl : end;
    const char *name;
    size_t nlen;
    if (!open && section_marker(s, le, "START_", &name, &nlen)) {
      open = name, open_len = nlen, header = -1;
    } else if (open && section_marker(s, le, "END_", &name, &nlen)) {
      if (nlen == open_len && memcmp(name, open, nlen) == 0)
        return role(c);
    } else if (open && header == -1) {
      header = memchr(s, ',', (size_t)(le - s)) != NULL;
    }
    s = nl ? nl + 1 : end;
  }
  return open && header == 1 && c->window_full ? role(c) : FL_FMT_AUTO;
}

const fl_format_def fl_fmt_dbcsv = {
    FL_FMT_DBCSV,
    "ibdiagnet-db-csv",
    NULL,
    0,
    fl_load_dbcsv,
    detect_dbcsv,
    "ibdiagnet2.db_csv (START_<NAME> ... END_<NAME> sections)"};
