/* SPDX-License-Identifier: MIT */
/*
 * core/io/saquery_pr.c — saquery -p PathRecord dumps.
 *
 * Format (see also docs/routing-inputs.md):
 * fl_load_saquery_pr(): infiniband-diags saquery.c dump_path_record()
 * (`PathRecord dump:` then `\t\t<field>....<value>` lines; sgid is an
 * IPv6-style GID whose low 64 bits are the port GUID; dlid/slid decimal,
 * sl hex).
 *
 * The shared line reader, token parsers and GUID/LID resolution are in
 * routing_read.h.
 */
#include "io/formats.h"
#include "io/routing_read.h"

#include <arpa/inet.h>

/* ======================================================================
 * saquery -p: PathRecord dumps
 * ====================================================================== */

typedef struct prec {
  uint32_t line;
  uint64_t sguid; /* low 64 bits of the SGID */
  uint32_t slid, dlid, sl;
  uint8_t has_sgid, has_slid, has_dlid, has_sl;
} prec;

typedef struct saq {
  rd r;
  int in_rec;
  prec cur;
  lidmap lids;
  uint32_t stored;
} saq;

/* A record is complete: the SL of (source CA node, DLID). */
static int saq_flush(saq *s) {
  rd *r = &s->r;
  if (!s->in_rec)
    return FL_OK;
  s->in_rec = 0;
  prec *c = &s->cur;
  fl_prov pv = {r->file, c->line, 1};
  if (!c->has_dlid || !c->has_sl || (!c->has_sgid && !c->has_slid))
    return fl_error_set(r->err, FL_EPARSE, r->path, c->line, 0,
                        "PathRecord without %s",
                        !c->has_dlid ? "a dlid"
                        : !c->has_sl ? "an sl"
                                     : "sgid or slid");
  if (c->dlid == 0 || c->dlid > FL_MAX_UCAST_LID) {
    fl_b_note(r->fab, "routing", pv,
              "PathRecord with DLID %u (not a unicast LID); skipped", c->dlid);
    return FL_OK;
  }
  fl_id node = c->has_sgid ? node_of_guid(r->fab, c->sguid) : FL_NONE;
  int rc = FL_OK;
  if (node == FL_NONE && c->has_slid && c->slid)
    node = lidmap_node(&s->lids, r->fab, c->slid, &rc);
  if (rc)
    return oom(r);
  if (node == FL_NONE) {
    fl_b_note(r->fab, "routing", pv,
              "PathRecord from port 0x%016llx (SLID %u) which the topology "
              "lacks; skipped",
              (unsigned long long)c->sguid, c->slid);
    return FL_OK;
  }
  if (r->fab->nodes[node].kind == FL_NODE_SWITCH)
    return FL_OK; /* path SLs are kept for traffic sources: CAs, routers */
  if (fl_b_path_sl(r->fab, node, c->dlid, c->sl) != FL_OK)
    return oom(r);
  s->stored++;
  return FL_OK;
}

/* "fe80::2:c903:100:1" -> the low 64 bits (the port GUID). */
static int saq_gid(saq *s, const char *p, const char *e) {
  char buf[64];
  size_t n = (size_t)(e - p);
  if (n == 0 || n >= sizeof buf)
    return perr(&s->r, p, "expected a GID (IPv6 notation)");
  memcpy(buf, p, n);
  buf[n] = '\0';
  unsigned char g[16];
  if (inet_pton(AF_INET6, buf, g) != 1)
    return perr(&s->r, p, "\"%s\" is not a GID in IPv6 notation", buf);
  uint64_t v = 0;
  for (int i = 8; i < 16; i++)
    v = (v << 8) | g[i];
  s->cur.sguid = v;
  s->cur.has_sgid = 1;
  return FL_OK;
}

/* "<key>....<value>" inside a record. */
static int saq_field(saq *s, const char *p, const char *e) {
  rd *r = &s->r;
  r->what = "PathRecord field";
  const char *k = p;
  while (p < e && *p != '.' && !is_blank(*p))
    p++;
  const char *ke = p;
  while (p < e && *p == '.')
    p++;
  if (ke == k || p == ke)
    return perr(r, k, "expected \"<field>....<value>\" in a PathRecord");
  const char *v = p, *ve = rtrim(p, e);
  size_t kl = (size_t)(ke - k);
  int rc;
  if (kl == 4 && memcmp(k, "sgid", 4) == 0)
    return saq_gid(s, v, ve);
  uint32_t *dst = NULL;
  uint8_t *has = NULL;
  uint64_t hi = 0xffff;
  if (kl == 4 && memcmp(k, "slid", 4) == 0)
    dst = &s->cur.slid, has = &s->cur.has_slid;
  else if (kl == 4 && memcmp(k, "dlid", 4) == 0)
    dst = &s->cur.dlid, has = &s->cur.has_dlid;
  else if (kl == 2 && memcmp(k, "sl", 2) == 0)
    dst = &s->cur.sl, has = &s->cur.has_sl, hi = 15;
  if (!dst)
    return FL_OK;
  if ((rc = parse_num(r, &v, ve, hi, "value", dst)) ||
      (rc = expect_end(r, v, ve, "the value")))
    return rc;
  *has = 1;
  return FL_OK;
}

static int saq_line(saq *s) {
  rd *r = &s->r;
  const char *p = skip_ws(r->ls, r->le), *e = r->le;
  if (p >= e)
    return FL_OK;
  if (starts_with(p, e, "PathRecord dump:")) {
    int rc = saq_flush(s);
    if (rc)
      return rc;
    r->what = "PathRecord header";
    memset(&s->cur, 0, sizeof s->cur);
    s->cur.line = r->lineno;
    s->in_rec = 1;
    return expect_end(r, p + 16, e, "\"PathRecord dump:\"");
  }
  if (*p == '#')
    return FL_OK;
  if (!s->in_rec)
    return perr(r, p,
                "unrecognised line \"%.*s\": expected \"PathRecord "
                "dump:\" (saquery -p output)",
                EXCERPT(p, e));
  return saq_field(s, p, e);
}

int fl_load_saquery_pr(fl_fabric *fab, const fl_input *in,
                       const fl_load_options *opts, fl_error *err) {
  (void)opts;
  saq s;
  memset(&s, 0, sizeof s);
  int rc = rd_open(&s.r, fab, in, err);
  if (rc)
    return rc;
  while ((rc = rd_next(&s.r)) == 1) {
    rc = saq_line(&s);
    if (rc == FL_OK)
      rc = rd_tail_ok(&s.r);
    if (rc)
      break;
  }
  if (rc == FL_OK)
    rc = saq_flush(&s);
  fl_u64map_free(&s.lids.m);
  rd_close(&s.r);
  return rc;
}

/* ---- the format registry row (formats.h) ---- */

const fl_format_def fl_fmt_saquery_pr = {
    FL_FMT_SAQUERY_PR,
    "saquery-pr",
    NULL,
    FL_FORMAT_NUL_INLINE,
    fl_load_saquery_pr,
    fl_detect_routing,
    "saquery -p output (\"PathRecord dump:\")"};
