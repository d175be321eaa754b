/* SPDX-License-Identifier: MIT */
/*
 * core/io/ctr_ibqueryerrors.c — loader for `ibqueryerrors` output
 * (infiniband-diags), with or without `--details`, `--data`, `-r`, and the
 * `--counters` (data counters only) mode.
 *
 * Grammar (rdma-core infiniband-diags/ibqueryerrors.c print_results(),
 * print_data_cnts(), print_summary(); the captures under
 * tests/data/counters/ were made with it against ibsim):
 *
 *   Errors for 0x2c90301000005 "spine-p01-01"      (a switch: its GUID)
 *   Errors for "node0003 mlx5_0"                   (a CA or router)
 *   Data Counters for 0x2c90301000005 "spine-p01-01"      (--counters)
 *      GUID 0x2c90301000005 port ALL: [SymbolErrorCounter == 17] ...
 *      GUID 0x2c90301000005 port 3: [SymbolErrorCounter == 17]
 *      GUID 0x2c90301000005 port 4: [PortXmitData == 12096 (47.250KB)]
 *          Link info:      6   4[  ] ==( 4X 53.125 Gbps Active/ LinkUp)==> ...
 *
 *   ## Summary: 14 nodes checked, 1 bad nodes found
 *   ##          32 ports checked, 2 ports have errors beyond threshold
 *
 * A port line names the port by the GUID the tool prints (a switch's GUID,
 * a CA's port GUID) and its number; the node name of the `Errors for` line
 * before it is kept as a second key (a plan without GUIDs is matched by
 * name through the alias layer). `port ALL` lines repeat the sum of the
 * node's ports and are skipped; `Link info` lines (-r) and the summary are
 * read past. The tool lists only ports whose counters exceed its
 * thresholds (default: any non-zero error), so such a snapshot is sparse:
 * a port it does not list was read and found below them
 * (fl_fabric_counter_complete() is 0); the --counters mode lists every
 * port. Note: with --details, ibqueryerrors (rdma-core up to at least
 * v50) labels the PortXmitDiscardDetails values with the PortRcvErrorDetails
 * field names and vice versa; values are kept under the names printed.
 * `ibwarn:` lines (a PMA query that failed, when stderr was captured too)
 * are counted in a note. Anything else is an error naming file:line:col.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/ctr_read.h"
#include "io/formats.h"
#include "io/loaders.h"

typedef struct iq_state {
  ctr_rd r;
  fl_ctr_batch *b;
  const char *name; /* of the current node, in the input (not NUL-ended) */
  size_t name_len;
  int have_node, data_mode, summary;
  uint64_t warnings, skipped_fields;
  char skipped_names[160];
} iq_state;

/* `"<name>"` at @p: the name's bytes; NULL when not quoted. */
static const char *quoted(const char *p, const char *e, size_t *len,
                          const char **after) {
  if (p >= e || *p != '"')
    return NULL;
  const char *q = e;
  while (q > p + 1 && q[-1] != '"')
    q--;
  if (q <= p + 1)
    return NULL;
  *len = (size_t)(q - 1 - (p + 1));
  *after = q;
  return p + 1;
}

/* `Errors for ...` / `Data Counters for ...`. */
static int iq_node(iq_state *s, const char *p, const char *e, int data) {
  ctr_rd *r = &s->r;
  const char *q = skip_ws(p, e), *after;
  uint64_t guid;
  if (starts_with(q, e, "0x")) {
    if (!ctr_u64(&q, e, &guid))
      return ctr_fail(r, q, "expected the node GUID (0x<hex>)");
    q = skip_ws(q, e);
  }
  s->name = quoted(q, e, &s->name_len, &after);
  if (!s->name || skip_ws(after, e) != e)
    return ctr_fail(r, q, "expected the node name in double quotes");
  s->have_node = 1;
  s->data_mode |= data;
  return FL_OK;
}

static void iq_skip_name(iq_state *s, const char *p, const char *e) {
  s->skipped_fields++;
  size_t n = strlen(s->skipped_names);
  if (strstr(s->skipped_names, "..."))
    return;
  if (n + (size_t)(e - p) + 8 < sizeof s->skipped_names)
    snprintf(s->skipped_names + n, sizeof s->skipped_names - n, "%s%.*s",
             n ? ", " : "", (int)(e - p), p);
  else
    snprintf(s->skipped_names + n, sizeof s->skipped_names - n, ", ...");
}

/* `GUID 0x<guid> port <n|ALL>: [Name == value (...)] ...` */
static int iq_port(iq_state *s, const char *p, const char *e) {
  ctr_rd *r = &s->r;
  const char *q = skip_ws(p + 4, e), *at = p;
  uint64_t guid, port = 0;
  if (!s->have_node)
    return ctr_fail(r, p, "port line before any `Errors for ...` line");
  if (!ctr_u64(&q, e, &guid) || guid == 0)
    return ctr_fail(r, q, "expected the GUID (0x<hex>)");
  q = skip_ws(q, e);
  if (!starts_with(q, e, "port "))
    return ctr_fail(r, q, "expected `port <number>:` after the GUID");
  q = skip_ws(q + 5, e);
  int all = starts_with(q, e, "ALL");
  if (all)
    q += 3;
  else if (!ctr_u64(&q, e, &port) || port > 255)
    return ctr_fail(r, q, "expected a port number (0..255) or ALL");
  if (q >= e || *q != ':')
    return ctr_fail(r, q, "expected `:` after the port");
  q++;
  uint64_t mask = 0, vals[FL_CTR_COUNT];
  for (q = skip_ws(q, e); q < e; q = skip_ws(q, e)) {
    if (*q != '[')
      return ctr_fail(r, q, "expected `[Counter == value]`");
    const char *n0 = ++q;
    while (q < e && *q != ' ' && *q != ']')
      q++;
    const char *n1 = q;
    q = skip_ws(q, e);
    if (n1 == n0 || !starts_with(q, e, "=="))
      return ctr_fail(r, n0, "expected `[Counter == value]`");
    q = skip_ws(q + 2, e);
    uint64_t v;
    const char *vs = q;
    if (!ctr_u64(&q, e, &v))
      return ctr_fail(r, vs, "expected the value of %.*s (a number)",
                      (int)(n1 - n0), n0);
    const char *close = memchr(q, ']', (size_t)(e - q));
    if (!close)
      return ctr_fail(r, q, "expected `]` closing the counter");
    q = close + 1;
    uint32_t id = fl_counter_parse(n0, (size_t)(n1 - n0));
    if (id == FL_CTR_COUNT)
      iq_skip_name(s, n0, n1);
    else
      ctr_set(&mask, vals, id, v);
  }
  if (all || !mask)
    return FL_OK; /* node totals: the sum of the port lines */
  fl_ctr_key key;
  memset(&key, 0, sizeof key);
  key.guid = guid;
  key.port = (uint32_t)port;
  key.name = s->name;
  key.name_len = s->name_len;
  if (fl_ctr_add(s->b, &key, mask, vals, ctr_prov(r, at)) != FL_OK)
    return fl_error_set(r->err, FL_ENOMEM, r->path, 0, 0, "out of memory");
  return FL_OK;
}

static int iq_line(iq_state *s, const char *p, const char *e) {
  if (*p == '#') {
    int c = ctr_captured(&s->r);
    if (c == 0 && starts_with(p, e, "## Summary:"))
      s->summary = 1;
    return c < 0 ? c : FL_OK;
  }
  if (starts_with(p, e, "Errors for "))
    return iq_node(s, p + 11, e, 0);
  if (starts_with(p, e, "Data Counters for "))
    return iq_node(s, p + 18, e, 1);
  if (starts_with(p, e, "GUID "))
    return iq_port(s, p, e);
  if (starts_with(p, e, "Link info:"))
    return FL_OK;
  if (starts_with(p, e, "ibwarn:")) {
    s->warnings++;
    return FL_OK;
  }
  return ctr_fail(&s->r, p,
                  "expected an ibqueryerrors line: `Errors for ...`, `GUID "
                  "0x<guid> port <n>: [Counter == value]`, `Link info:` or "
                  "`## Summary`");
}

int fl_load_ibqueryerrors(fl_fabric *fab, const fl_input *in,
                          const fl_load_options *opts, fl_error *err) {
  (void)opts;
  iq_state *s = calloc(1, sizeof *s);
  if (!s)
    return fl_error_set(err, FL_ENOMEM, in->path, 0, 0, "out of memory");
  int rc = ctr_open(&s->r, &s->b, fab, in, err);
  int got;
  const char *p, *e;
  while (rc == FL_OK && (got = ctr_line(&s->r, &p, &e)) != 0) {
    if (got < 0) {
      rc = got;
      break;
    }
    if (p != e)
      rc = iq_line(s, p, e);
  }
  if (rc == FL_OK && !s->summary && !s->have_node)
    rc = fl_error_set(err, FL_EPARSE, in->path, s->r.line, 0,
                      "no `Errors for ...` line and no `## Summary`: not "
                      "ibqueryerrors output");
  fl_prov pv = {fl_b_file(fab, in->path), 0, 0};
  if (rc == FL_OK && s->warnings)
    fl_b_note(fab, "counters", pv,
              "%llu ibwarn lines: the tool could not read some ports (their "
              "counters are missing from this capture)",
              (unsigned long long)s->warnings);
  if (rc == FL_OK && s->skipped_fields)
    fl_b_note(fab, "counters", pv,
              "%llu values of fields fabriclint does not keep skipped (%s)",
              (unsigned long long)s->skipped_fields, s->skipped_names);
  rc = ctr_close(s->b, rc, s->r.timed, s->r.time, !s->data_mode, err);
  free(s);
  return rc;
}

/* An `Errors for` / `Data Counters for` line followed by a `GUID 0x.. port`
 * line, or the `## Summary: N nodes checked` line. */
static uint32_t detect_ibqueryerrors(const fl_detect_ctx *c, fl_error *err) {
  (void)err;
  if (c->xml_root)
    return FL_FMT_AUTO;
  const char *p = c->text, *end = c->text + c->len;
  int node = 0;
  while (p < end) {
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    const char *le = nl ? nl : end, *q = fl_detect_skip_ws(p, le);
    if (fl_detect_prefix(p, le, "## Summary: ") && le - p > 12 &&
        p[12] >= '0' && p[12] <= '9')
      return FL_FMT_IBQUERYERRORS;
    if (fl_detect_prefix(p, le, "Errors for ") ||
        fl_detect_prefix(p, le, "Data Counters for 0x"))
      node = 1;
    else if (node && fl_detect_prefix(q, le, "GUID 0x"))
      return FL_FMT_IBQUERYERRORS;
    else
      node = 0;
    p = nl ? nl + 1 : end;
  }
  return FL_FMT_AUTO;
}

const fl_format_def fl_fmt_ibqueryerrors = {
    FL_FMT_IBQUERYERRORS,
    "ibqueryerrors",
    NULL,
    0,
    fl_load_ibqueryerrors,
    detect_ibqueryerrors,
    "ibqueryerrors output (\"Errors for ...\", \"GUID 0x.. port N: [... == "
    "N]\")"};
