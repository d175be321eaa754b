/* SPDX-License-Identifier: MIT */
/*
 * core/io/sl2vl_dump.c — SL-to-VL mapping tables.
 *
 * Format (see also docs/routing-inputs.md):
 * fl_load_sl2vl(): OpenSM osm_dump.c dump_sl2vl_tbl() (`opensm-sl2vl.dump`:
 * `<Channel Adapter|Switch|Router> 0x<portguid>, base LID <n>, "<desc>"`,
 * `#in out : 0 1 .. 15`, rows `%-3d %-3d : v0 .. v15`), and
 * infiniband-diags smpquery.c sl2vl_table()/sl2vl_dump_table_entry() with
 * libibmad dump.c mad_dump_sltovl() (`# SL2VL table: Lid <n>`, rows
 * `ports: in %2d, out %2d: | v0| v1|..|v15|`).
 *
 * The shared line reader, token parsers and GUID/LID resolution are in
 * routing_read.h.
 */
#include "io/formats.h"
#include "io/routing_read.h"

/* ======================================================================
 * SL2VL: opensm-sl2vl.dump, smpquery sl2vl
 * ====================================================================== */

typedef struct sl2vl {
  rd r;
  int in_block;
  fl_id node; /* FL_NONE: block skipped */
  lidmap lids;
} sl2vl;

/* "<Channel Adapter|Switch|Router> 0x<portguid>, base LID <n>, "<desc>"" */
static int sl_osm_header(sl2vl *s, const char *p, const char *e) {
  rd *r = &s->r;
  r->what = "SL2VL header";
  uint64_t guid;
  uint32_t lid;
  int rc;
  p = memchr(p, '0', (size_t)(e - p));
  if ((rc = parse_guid(r, &p, e, &guid, "port GUID")))
    return rc;
  if (!starts_with(p, e, ", base LID "))
    return perr(r, p, "expected \", base LID <n>\" after the port GUID");
  p += 11;
  if ((rc = parse_num(r, &p, e, 0xffff, "base LID", &lid)))
    return rc;
  if (!starts_with(p, e, ", \""))
    return perr(r, p, "expected \", \\\"<description>\\\"\" after the LID");
  const char *end = rtrim(p, e);
  if (end - p < 4 || end[-1] != '"')
    return perr(r, end, "expected '\"' to close the node description");
  s->in_block = 1;
  s->node = node_of_guid(r->fab, guid);
  if (s->node == FL_NONE) {
    fl_b_note(r->fab, "routing", rd_prov(r, NULL),
              "SL2VL tables for port 0x%016llx which the topology lacks",
              (unsigned long long)guid);
    return FL_OK;
  }
  if (fl_b_lid_hint(r->fab, lid, guid) != FL_OK)
    return oom(r);
  return FL_OK;
}

/* "# SL2VL table: Lid <n>" or "# SL2VL table: DR path ..." */
static int sl_smp_header(sl2vl *s, const char *p, const char *e) {
  rd *r = &s->r;
  r->what = "SL2VL header";
  p = skip_ws(p + strlen("# SL2VL table:"), e);
  s->in_block = 1;
  s->node = FL_NONE;
  if (!starts_with(p, e, "Lid ")) {
    fl_b_note(r->fab, "routing", rd_prov(r, p),
              "SL2VL table addressed by \"%.*s\": only \"Lid <n>\" can be "
              "matched to the topology; block skipped",
              EXCERPT(p, e));
    return FL_OK;
  }
  p += 4;
  uint32_t lid;
  int rc = parse_num(r, &p, e, FL_MAX_UCAST_LID, "LID", &lid);
  if (rc || (rc = expect_end(r, p, e, "the LID")))
    return rc;
  s->node = lidmap_node(&s->lids, r->fab, lid, &rc);
  if (rc)
    return oom(r);
  if (s->node == FL_NONE)
    fl_b_note(r->fab, "routing", rd_prov(r, NULL),
              "SL2VL table of LID %u, which no port of the topology has; "
              "block skipped",
              lid);
  return FL_OK;
}

/* "<in> <out> : v0 .. v15" (opensm) or "ports: in N, out M: | v0|..|v15|" */
static int sl_row(sl2vl *s, const char *p, const char *e, int smp) {
  rd *r = &s->r;
  r->what = "SL2VL row";
  if (!s->in_block)
    return perr(r, p, "SL2VL row before any table header");
  uint32_t in, out;
  int rc;
  if (smp) {
    p = skip_ws(p + strlen("ports: in"), e);
    if ((rc = parse_num(r, &p, e, MAX_PORT_NUM, "in port", &in)))
      return rc;
    if (!starts_with(p, e, ", out"))
      return perr(r, p, "expected \", out\" after the in port");
    p = skip_ws(p + 5, e);
  } else {
    if ((rc = parse_num(r, &p, e, MAX_PORT_NUM, "in port", &in)))
      return rc;
    p = skip_ws(p, e);
  }
  if ((rc = parse_num(r, &p, e, MAX_PORT_NUM, "out port", &out)))
    return rc;
  p = skip_ws(p, e);
  if (p >= e || *p != ':')
    return perr(r, p, "expected \":\" after the out port");
  p++;
  uint8_t vl[16];
  for (int sl = 0; sl < 16; sl++) {
    while (p < e && (is_blank(*p) || *p == '|'))
      p++;
    uint32_t v;
    if (p >= e)
      return perr(r, p, "expected 16 VLs, found %d", sl);
    if ((rc = parse_num(r, &p, e, 15, "VL", &v)))
      return rc;
    vl[sl] = (uint8_t)v;
  }
  while (p < e && (is_blank(*p) || *p == '|'))
    p++;
  if ((rc = expect_end(r, p, e, "the 16 VLs")))
    return rc;
  if (s->node != FL_NONE && fl_b_sl2vl(r->fab, s->node, in, out, vl) != FL_OK)
    return oom(r);
  return FL_OK;
}

static int sl_line(sl2vl *s) {
  rd *r = &s->r;
  const char *p = skip_ws(r->ls, r->le), *e = r->le;
  if (p >= e)
    return FL_OK;
  if (starts_with(p, e, "# SL2VL table:"))
    return sl_smp_header(s, p, e);
  if (*p == '#')
    return FL_OK;
  if (*p >= '0' && *p <= '9')
    return sl_row(s, p, e, 0);
  if (starts_with(p, e, "ports: in"))
    return sl_row(s, p, e, 1);
  if (starts_with(p, e, "Switch 0x") ||
      starts_with(p, e, "Channel Adapter 0x") || starts_with(p, e, "Router 0x"))
    return sl_osm_header(s, p, e);
  r->what = NULL;
  return perr(r, p,
              "unrecognised line \"%.*s\" in an SL2VL dump: expected a "
              "\"<Switch|Channel Adapter|Router> 0x<guid>, base LID\" "
              "or \"# SL2VL table:\" header, or a table row",
              EXCERPT(p, e));
}

int fl_load_sl2vl(fl_fabric *fab, const fl_input *in,
                  const fl_load_options *opts, fl_error *err) {
  (void)opts;
  sl2vl s;
  memset(&s, 0, sizeof s);
  s.node = FL_NONE;
  int rc = rd_open(&s.r, fab, in, err);
  if (rc)
    return rc;
  while ((rc = rd_next(&s.r)) == 1) {
    rc = sl_line(&s);
    if (rc == FL_OK)
      rc = rd_tail_ok(&s.r);
    if (rc)
      break;
  }
  fl_u64map_free(&s.lids.m);
  rd_close(&s.r);
  return rc;
}

/* ---- the format registry row (formats.h) ---- */

const fl_format_def fl_fmt_sl2vl = {
    FL_FMT_SL2VL,
    "sl2vl",
    NULL,
    FL_FORMAT_NUL_INLINE,
    fl_load_sl2vl,
    fl_detect_routing,
    "an SL2VL dump (opensm-sl2vl.dump, smpquery sl2vl)"};
