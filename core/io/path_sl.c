/* SPDX-License-Identifier: MIT */
/*
 * core/io/path_sl.c — path SLs (ibdmchk -c / ibdiagnet path-SL file).
 *
 * Format (see also docs/routing-inputs.md):
 * fl_load_path_sl(): ibutils ibdmchk -c / ibdiagnet path-SL file,
 * `0x<source CA node GUID> <DLID decimal> <SL>` per line, `#` comments.
 *
 * The shared line reader, token parsers and GUID/LID resolution are in
 * routing_read.h.
 */
#include "io/formats.h"
#include "io/routing_read.h"

/* ======================================================================
 * Path SLs: `0x<source CA node GUID> <DLID> <SL>`
 * ====================================================================== */

typedef struct psl {
  rd r;
  uint64_t last_guid; /* one-entry cache: files are grouped by source */
  fl_id last_node;
  fl_u64map unknown; /* GUIDs already noted as unknown */
} psl;

static int psl_line(psl *s) {
  rd *r = &s->r;
  const char *p = skip_ws(r->ls, r->le), *e = r->le;
  if (p >= e || *p == '#')
    return FL_OK;
  r->what = "path-SL";
  uint64_t guid;
  uint32_t dlid, sl;
  int rc;
  if ((rc = parse_guid(r, &p, e, &guid, "source node GUID")))
    return rc;
  if (p >= e || !is_blank(*p))
    return perr(r, p, "expected a blank and the DLID after the GUID");
  p = skip_ws(p, e);
  const char *d = p;
  if ((rc = parse_num(r, &p, e, FL_MAX_UCAST_LID, "DLID", &dlid)))
    return rc;
  if (dlid == 0)
    return perr(r, d, "DLID 0 is not a unicast LID");
  if (p >= e || !is_blank(*p))
    return perr(r, p, "expected a blank and the SL after the DLID");
  p = skip_ws(p, e);
  if ((rc = parse_num(r, &p, e, 15, "SL", &sl)) ||
      (rc = expect_end(r, p, e, "the SL")))
    return rc;
  if (guid != s->last_guid || s->last_node == FL_NONE) {
    s->last_guid = guid;
    s->last_node = fl_b_node_by_guid(r->fab, guid);
    if (s->last_node == FL_NONE)
      s->last_node = node_of_guid(r->fab, guid);
  }
  if (s->last_node == FL_NONE) {
    uint32_t had = fl_u64map_get(&s->unknown, guid);
    if (had == FL_MAP_ABSENT) {
      if (fl_u64map_put(&s->unknown, guid, 1) == FL_MAP_ABSENT)
        return oom(r);
      fl_b_note(r->fab, "routing", rd_prov(r, NULL),
                "path SLs for source 0x%016llx which the topology lacks; "
                "its lines are skipped",
                (unsigned long long)guid);
    }
    return FL_OK;
  }
  if (fl_b_path_sl(r->fab, s->last_node, dlid, sl) != FL_OK)
    return oom(r);
  return FL_OK;
}

int fl_load_path_sl(fl_fabric *fab, const fl_input *in,
                    const fl_load_options *opts, fl_error *err) {
  (void)opts;
  psl s;
  memset(&s, 0, sizeof s);
  s.last_node = FL_NONE;
  int rc = rd_open(&s.r, fab, in, err);
  if (rc)
    return rc;
  while ((rc = rd_next(&s.r)) == 1) {
    rc = psl_line(&s);
    if (rc == FL_OK)
      rc = rd_tail_ok(&s.r);
    if (rc)
      break;
  }
  fl_u64map_free(&s.unknown);
  rd_close(&s.r);
  return rc;
}

/* ---- the format registry row (formats.h) ---- */

const fl_format_def fl_fmt_path_sl = {
    FL_FMT_PATH_SL,
    "path-sl",
    NULL,
    FL_FORMAT_NUL_INLINE,
    fl_load_path_sl,
    fl_detect_routing,
    "a path-SL file (\"0x<source GUID> <DLID> <SL>\" lines)"};
