/* SPDX-License-Identifier: MIT */
/*
 * core/io/fdbs_dump.c — OpenSM/ibdiagnet unicast routes (.fdbs).
 *
 * Format (see also docs/routing-inputs.md):
 * fl_load_fdbs(): OpenSM opensm/osm_ucast_mgr.c dump_ucast_routes()
 * (`opensm.fdbs`), also ibutils/ibdiagnet `.fdbs`: `dump_ucast_routes:
 * Switch 0x<guid>`, `LID : Port : Hops : Optimal`, rows
 * `0x%04X : %03u  : %02u   : yes`, `0x%04X : UNREACHABLE`, and free text
 * after the port (`No N hop path possible via port P!`, `HOPS UNKNOWN`).
 *
 * The shared line reader, token parsers and GUID/LID resolution are in
 * routing_read.h.
 */
#define _GNU_SOURCE /* memmem */
#include "io/formats.h"
#include "io/routing_read.h"

/* ======================================================================
 * opensm.fdbs (dump_ucast_routes)
 * ====================================================================== */

typedef struct fdbs {
  rd r;
  int in_block;
  uint64_t guid;
  fl_id sw;
  uint32_t maxlid;
  uint8_t *scratch; /* FL_MAX_UCAST_LID + 1 entries of the current block */
} fdbs;

/* The block is complete: copy its entries into the switch's row. */
static int fdbs_flush(fdbs *s) {
  if (s->in_block && s->sw != FL_NONE && s->maxlid > 0) {
    uint8_t *row = fl_b_lft_row(s->r.fab, s->sw, s->maxlid);
    if (!row)
      return oom(&s->r);
    memcpy(row + 1, s->scratch + 1, s->maxlid);
  }
  s->in_block = 0;
  return FL_OK;
}

static int fdbs_header(fdbs *s, const char *p, const char *e) {
  rd *r = &s->r;
  r->what = "dump_ucast_routes header";
  int rc = fdbs_flush(s);
  if (rc)
    return rc;
  p += strlen("dump_ucast_routes: Switch ");
  if ((rc = parse_guid(r, &p, e, &s->guid, "switch GUID")) ||
      (rc = expect_end(r, p, e, "the switch GUID")))
    return rc;
  s->in_block = 1;
  s->maxlid = 0;
  memset(s->scratch, FL_LFT_NONE, FL_MAX_UCAST_LID + 1);
  s->sw = fl_b_node_by_guid(r->fab, s->guid);
  if (s->sw != FL_NONE && r->fab->nodes[s->sw].kind != FL_NODE_SWITCH)
    s->sw = FL_NONE;
  if (s->sw == FL_NONE)
    fl_b_note(r->fab, "routing", rd_prov(r, NULL),
              "LFT block for switch 0x%016llx which the topology lacks",
              (unsigned long long)s->guid);
  return FL_OK;
}

/* "0x%04X : %03u  : ..." or "0x%04X : UNREACHABLE" */
static int fdbs_row(fdbs *s, const char *p, const char *e) {
  rd *r = &s->r;
  r->what = "dump_ucast_routes row";
  if (!s->in_block)
    return perr(r, p, "row before any \"dump_ucast_routes: Switch\" line");
  uint32_t lid, port;
  int rc = parse_num(r, &p, e, FL_MAX_UCAST_LID, "LID", &lid);
  if (rc)
    return rc;
  p = skip_ws(p, e);
  if (p >= e || *p != ':')
    return perr(r, p, "expected \":\" after the LID");
  p = skip_ws(p + 1, e);
  if (starts_with(p, e, "UNREACHABLE")) {
    port = FL_LFT_NONE;
    p += 11;
  } else {
    const char *d = p;
    uint64_t v;
    if (scan_dec(&p, e, &v) == 0)
      return perr(r, d, "expected the output port or UNREACHABLE");
    if (v > MAX_PORT_NUM)
      return perr(r, d,
                  "output port %.*s%s is out of range (allowed 0..254, 255 = "
                  "no route)",
                  NUMQ(d, p));
    port = (uint32_t)v;
  }
  p = skip_ws(p, e);
  if (p < e && *p != ':')
    return perr(r, p, "expected \":\" or the end of the line after the port");
  s->scratch[lid] = (uint8_t)port;
  if (lid > s->maxlid)
    s->maxlid = lid;
  return FL_OK;
}

static int fdbs_line(fdbs *s) {
  rd *r = &s->r;
  const char *p = skip_ws(r->ls, r->le), *e = r->le;
  if (p >= e || *p == '#')
    return FL_OK;
  if (starts_with(p, e, "0x") || starts_with(p, e, "0X"))
    return fdbs_row(s, p, e);
  const char *h = memmem(p, (size_t)(e - p), "dump_ucast_routes: Switch ", 26);
  if (h && memchr(p, ' ', (size_t)(h - p)) == NULL)
    return fdbs_header(s, h, e);
  if (starts_with(p, e, "LID") && memmem(p, (size_t)(e - p), "Port", 4))
    return FL_OK;
  r->what = NULL;
  return perr(r, p,
              "unrecognised line \"%.*s\" in an fdbs dump: expected "
              "\"dump_ucast_routes: Switch 0x...\" or \"0x<lid> : "
              "<port> ...\"",
              EXCERPT(p, e));
}

int fl_load_fdbs(fl_fabric *fab, const fl_input *in,
                 const fl_load_options *opts, fl_error *err) {
  const char *path = in->path;
  (void)opts;
  fdbs s;
  memset(&s, 0, sizeof s);
  s.sw = FL_NONE;
  int rc = rd_open(&s.r, fab, in, err);
  if (rc)
    return rc;
  s.scratch = malloc(FL_MAX_UCAST_LID + 1);
  if (!s.scratch) {
    rd_close(&s.r);
    return fl_error_set(err, FL_ENOMEM, path, 0, 0, "out of memory");
  }
  while ((rc = rd_next(&s.r)) == 1) {
    rc = fdbs_line(&s);
    if (rc == FL_OK)
      rc = rd_tail_ok(&s.r);
    if (rc)
      break;
  }
  if (rc == FL_OK)
    rc = fdbs_flush(&s);
  free(s.scratch);
  rd_close(&s.r);
  return rc;
}

/* ---- the format registry row (formats.h) ---- */

const fl_format_def fl_fmt_fdbs = {
    FL_FMT_FDBS,
    "fdbs",
    NULL,
    FL_FORMAT_NUL_INLINE,
    fl_load_fdbs,
    fl_detect_routing,
    "opensm.fdbs (\"dump_ucast_routes: Switch 0x...\")"};
