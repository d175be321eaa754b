/* SPDX-License-Identifier: MIT */
/*
 * core/io/ctr_perfquery.c — loader for `perfquery` output (infiniband-diags):
 * PortCounters (`perfquery`), PortCountersExtended (`perfquery -x`),
 * PortRcvErrorDetails (`-E`) and PortXmitDiscardDetails (`-D`), per port or
 * for every port of a node (`-a -l`), one or many runs concatenated.
 *
 * Grammar (rdma-core infiniband-diags/perfquery.c: a header per attribute
 * read, then one `Name:....value` line per field, as mad_dump_fields()
 * prints them; the real outputs under tests/data/counters/ and the OSC
 * captures of treydock/infiniband_exporter's fixtures follow it):
 *
 *   # captured 2026-12-01T10:22:23Z           (optional: the capture recipe)
 *   # Port counters: Lid 6 port 4 (CapMask: 0x1300)
 *   # Port extended counters: Lid 1719 port 1 (CapMask: 0x5300 CapMask2: ...)
 *   # PortRcvErrorDetails counters: Lid 3 port 3
 *   # PortXmitDiscardDetails counters: Lid 3 port 3
 *   PortSelect:......................4
 *   CounterSelect:...................0x0000
 *   SymbolErrorCounter:..............17
 *
 * A block's port is named by the LID of the node (a switch's port-0 LID or
 * the CA port's LID) and the port number; the model resolves the LID at
 * finalize. Blocks of other attributes (`-X`, `-S`, `-T`, PortSamples*)
 * and the node totals of `perfquery -a` without `-l` (port 255: the sum of
 * every port, no port's own value) are parsed and skipped, counted in a
 * note; so are field names that are no counter fabriclint keeps. A value
 * that is not a number, a field before any header, or a PortSelect that
 * contradicts its header is an error naming file:line:col.
 *
 * Cost: one pass, a few byte compares per line (~25 lines per port).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/ctr_read.h"
#include "io/formats.h"
#include "io/loaders.h"

enum { BLK_NONE, BLK_KEEP, BLK_SKIP_OTHER, BLK_SKIP_ALL };

typedef struct pq_state {
  ctr_rd r;
  fl_ctr_batch *b;
  int blk;
  uint32_t lid, port;
  uint32_t hdr_line;
  uint64_t mask, vals[FL_CTR_COUNT];
  uint64_t skipped_blocks, skipped_all, skipped_fields;
  char skipped_names[160];
} pq_state;

/* Emit the record of the block that just ended. */
static int pq_flush(pq_state *s) {
  if (s->blk == BLK_KEEP && s->mask) {
    fl_ctr_key key;
    memset(&key, 0, sizeof key);
    key.lid = s->lid;
    key.port = s->port;
    fl_prov pv = {0, s->hdr_line, 1};
    if (fl_ctr_add(s->b, &key, s->mask, s->vals, pv) != FL_OK)
      return fl_error_set(s->r.err, FL_ENOMEM, s->r.path, 0, 0,
                          "out of memory");
  }
  s->blk = BLK_NONE;
  s->mask = 0;
  return FL_OK;
}

/* `# <attribute> counters: Lid <lid> port <port> ...`: 1 header, 0 not a
 * header (another comment), FL_EPARSE malformed. */
static int pq_header(pq_state *s, const char *p, const char *e) {
  ctr_rd *r = &s->r;
  static const char *const KEEP[] = {
      "Port counters:", "Port extended counters:",
      "PortRcvErrorDetails counters:", "PortXmitDiscardDetails counters:"};
  const char *colon = memchr(p, ':', (size_t)(e - p));
  if (!colon || colon - p < 9 || memcmp(colon - 8, "counters", 8) != 0)
    return 0;
  int keep = 0;
  for (size_t i = 0; i < sizeof KEEP / sizeof *KEEP; i++)
    keep |= starts_with(p, e, KEEP[i]) && p + strlen(KEEP[i]) == colon + 1;
  const char *q = skip_ws(colon + 1, e);
  uint64_t lid, port;
  if (!starts_with(q, e, "Lid "))
    return ctr_fail(r, q, "expected `Lid <lid> port <port>` after `%.*s`",
                    (int)(colon + 1 - p), p);
  q = skip_ws(q + 4, e);
  if (!ctr_u64(&q, e, &lid) || lid > 0xffff)
    return ctr_fail(r, q, "expected a LID (0..65535)");
  q = skip_ws(q, e);
  if (!starts_with(q, e, "port "))
    return ctr_fail(r, q, "expected `port <port>` after the LID");
  q = skip_ws(q + 5, e);
  if (!ctr_u64(&q, e, &port) || port > 255)
    return ctr_fail(r, q, "expected a port number (0..255)");
  int rc = pq_flush(s);
  if (rc != FL_OK)
    return rc;
  s->lid = (uint32_t)lid;
  s->port = (uint32_t)port;
  s->hdr_line = r->line;
  if (port == 255) {
    s->blk = BLK_SKIP_ALL;
    s->skipped_all++;
  } else if (!keep) {
    s->blk = BLK_SKIP_OTHER;
    s->skipped_blocks++;
  } else {
    s->blk = BLK_KEEP;
  }
  return 1;
}

static void pq_skip_name(pq_state *s, const char *p, const char *e) {
  s->skipped_fields++;
  size_t n = strlen(s->skipped_names);
  if (n + (size_t)(e - p) + 3 < sizeof s->skipped_names &&
      !strstr(s->skipped_names, "...")) {
    snprintf(s->skipped_names + n, sizeof s->skipped_names - n, "%s%.*s",
             n ? ", " : "", (int)(e - p), p);
  } else if (!strstr(s->skipped_names, "...")) {
    snprintf(s->skipped_names + n, sizeof s->skipped_names - n, ", ...");
  }
}

/* `Name:.....value` inside a block. */
static int pq_field(pq_state *s, const char *p, const char *e) {
  ctr_rd *r = &s->r;
  const char *n0 = p;
  while (p < e && ((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') ||
                   (*p >= '0' && *p <= '9')))
    p++;
  if (p == n0 || p >= e || *p != ':')
    return ctr_fail(r, n0,
                    "expected `Name:....value` (a perfquery counter line) or "
                    "a `# Port counters: Lid <lid> port <port>` header");
  const char *n1 = p++;
  while (p < e && *p == '.')
    p++;
  uint64_t v;
  const char *vs = p;
  if (!ctr_u64(&p, e, &v) || skip_ws(p, e) != e)
    return ctr_fail(r, vs, "expected the value of %.*s (a number)",
                    (int)(n1 - n0), n0);
  if (s->blk == BLK_NONE)
    return ctr_fail(r, n0,
                    "counter line before any `# Port counters: Lid <lid> "
                    "port <port>` header");
  if (s->blk != BLK_KEEP)
    return FL_OK;
  size_t len = (size_t)(n1 - n0);
  if (len == 10 && memcmp(n0, "PortSelect", 10) == 0) {
    if (v != s->port)
      return ctr_fail(r, vs, "PortSelect %llu contradicts the header's port %u",
                      (unsigned long long)v, s->port);
    return FL_OK;
  }
  if ((len == 13 && memcmp(n0, "CounterSelect", 13) == 0) ||
      (len == 14 && memcmp(n0, "CounterSelect2", 14) == 0))
    return FL_OK;
  uint32_t id = fl_counter_parse(n0, len);
  if (id == FL_CTR_COUNT)
    pq_skip_name(s, n0, n1);
  else
    ctr_set(&s->mask, s->vals, id, v);
  return FL_OK;
}

int fl_load_perfquery(fl_fabric *fab, const fl_input *in,
                      const fl_load_options *opts, fl_error *err) {
  (void)opts;
  pq_state *s = calloc(1, sizeof *s);
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
    if (p == e)
      continue;
    if (*p == '#') {
      int c = ctr_captured(&s->r);
      if (c == 0)
        c = pq_header(s, skip_ws(p + 1, e), e);
      rc = c < 0 ? c : FL_OK;
      continue; /* other comments are comments */
    }
    rc = pq_field(s, p, e);
  }
  if (rc == FL_OK)
    rc = pq_flush(s);
  if (rc == FL_OK && fl_ctr_batch_records(s->b) == 0 && s->skipped_all == 0 &&
      s->skipped_blocks == 0)
    rc = fl_error_set(err, FL_EPARSE, in->path, s->r.line, 0,
                      "no `# Port counters: Lid <lid> port <port>` block: not "
                      "perfquery output");
  fl_prov pv = {fl_b_file(fab, in->path), 0, 0};
  if (rc == FL_OK && s->skipped_all)
    fl_b_note(fab, "counters", pv,
              "%llu node totals (port 255: perfquery -a without -l) skipped: "
              "they sum every port of a node; run perfquery -a -l for the "
              "counters of each port",
              (unsigned long long)s->skipped_all);
  if (rc == FL_OK && s->skipped_blocks)
    fl_b_note(fab, "counters", pv,
              "%llu blocks of other attributes (per-SL data, extended "
              "speeds, samples) skipped",
              (unsigned long long)s->skipped_blocks);
  if (rc == FL_OK && s->skipped_fields)
    fl_b_note(fab, "counters", pv,
              "%llu values of fields fabriclint does not keep skipped (%s)",
              (unsigned long long)s->skipped_fields, s->skipped_names);
  rc = ctr_close(s->b, rc, s->r.timed, s->r.time, 0, err);
  free(s);
  return rc;
}

/* A `# Port [extended ]counters: Lid <n> port <n>` header (or a details
 * header) at the start of a line within the window. */
static uint32_t detect_perfquery(const fl_detect_ctx *c, fl_error *err) {
  (void)err;
  if (c->xml_root)
    return FL_FMT_AUTO;
  static const char *const MARK[] = {"# Port counters: Lid ",
                                     "# Port extended counters: Lid ",
                                     "# PortRcvErrorDetails counters: Lid ",
                                     "# PortXmitDiscardDetails counters: Lid "};
  const char *p = c->text, *end = c->text + c->len;
  while (p < end) {
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    const char *le = nl ? nl : end;
    for (size_t i = 0; i < sizeof MARK / sizeof *MARK; i++)
      if (fl_detect_prefix(p, le, MARK[i]))
        return FL_FMT_PERFQUERY;
    p = nl ? nl + 1 : end;
  }
  return FL_FMT_AUTO;
}

const fl_format_def fl_fmt_perfquery = {
    FL_FMT_PERFQUERY,
    "perfquery",
    NULL,
    0,
    fl_load_perfquery,
    detect_perfquery,
    "perfquery [-x] output (\"# Port counters: Lid N port P\" blocks)"};
