/* SPDX-License-Identifier: MIT */
/*
 * core/io/lft_dump.c — linear forwarding tables.
 *
 * Format (see also docs/routing-inputs.md):
 * LFTs, fl_load_lfts():
 * - OpenSM opensm/osm_dump.c dump_ucast_lfts(): header
 *   `Unicast lids [0-<maxlid>] of switch Lid <n> guid 0x<guid> ('<desc>'):`,
 *   entries `0x%04x %03u # <type> portguid 0x<guid>: '<desc>'` or
 *   `# unknown node and type`, footer `<maxlid> lids dumped`.
 * - infiniband-diags ibroute.c / dump_fts.c dump_unicast_tables() and
 *   dump_lid(): header `Unicast lids [0x<s>-0x<e>] of switch <portid>
 *   guid 0x<guid> (<name>):` where <portid> is `Lid <n>` or
 *   `DR path slid 0; dlid 0; 0,1,...`; two column-title lines; entries
 *   `0x%04x %03u : (<type> portguid 0x<guid>: '<name>')` and the LMC /
 *   illegal-port / unknown variants, or nothing after the port (-n);
 *   footer `<n> valid lids dumped ` (`<n> lids dumped ` with -a).
 *   scripts/dump_lfts.sh appends `*** WARNING ***` lines.
 *
 * The shared line reader, token parsers and GUID/LID resolution are in
 * routing_read.h.
 */
#define _GNU_SOURCE /* memmem */
#include "io/formats.h"
#include "io/routing_read.h"

/* ======================================================================
 * LFTs: opensm-lfts.dump, ibroute, dump_fts, dump_lfts.sh
 * ====================================================================== */

typedef struct lft {
  rd r;
  int in_block;
  int opensm;       /* header style: decimal range and ('desc') */
  uint64_t guid;    /* switch of the current block */
  fl_id sw;         /* FL_NONE: block skipped */
  uint8_t *row;     /* the switch's LFT row, or NULL */
  uint32_t top;     /* header range end */
  uint32_t nports;  /* the switch's declared port count, 0 unknown */
  uint32_t entries; /* entries of the current block */
  uint32_t block_line;
  uint32_t bad_ports, bad_lid, bad_port; /* entries beyond the port count */
  uint8_t *hinted; /* LID -> 1 once a port GUID hint was taken */
} lft;

/* A block ends: a note if it routed LIDs to ports the switch lacks. */
static void lft_close_block(lft *s) {
  if (s->bad_ports && s->sw != FL_NONE) {
    fl_prov pv = {s->r.file, s->block_line, 1};
    fl_b_note(s->r.fab, "routing", pv,
              "LFT of switch 0x%016llx routes %u LID(s) to ports beyond its "
              "%u ports (first: LID %u -> port %u)",
              (unsigned long long)s->guid, s->bad_ports, s->nports, s->bad_lid,
              s->bad_port);
  }
  s->in_block = 0;
  s->bad_ports = 0;
  s->row = NULL;
  s->sw = FL_NONE;
}

/* "Unicast lids [S-E] of switch <portid> guid 0x<G> (<name>):" */
static int lft_parse_header(lft *s, const char *p, const char *e, uint32_t *lid,
                            int *has_lid, char *name, size_t name_size) {
  rd *r = &s->r;
  uint32_t start;
  int rc;
  p += strlen("Unicast lids [");
  s->opensm = !starts_with(p, e, "0x");
  if ((rc = parse_num(r, &p, e, FL_MAX_UCAST_LID, "first LID", &start)))
    return rc;
  if (p >= e || *p != '-')
    return perr(r, p, "expected \"-\" between the LIDs of the range");
  p++;
  if ((rc = parse_num(r, &p, e, FL_MAX_UCAST_LID, "last LID of the range",
                      &s->top)))
    return rc;
  if (p >= e || *p != ']')
    return perr(r, p, "expected \"]\" after the LID range");
  if (start > s->top)
    return perr(r, p, "LID range starts after it ends");
  p++;
  if (!starts_with(p, e, " of switch "))
    return perr(r, p, "expected \" of switch \" after the LID range");
  p += strlen(" of switch ");
  *has_lid = 0;
  if (starts_with(p, e, "Lid ")) {
    const char *q = p + 4;
    if ((rc = parse_num(r, &q, e, FL_MAX_UCAST_LID, "switch LID", lid)))
      return rc;
    *has_lid = 1;
  } else if (!starts_with(p, e, "DR path ")) {
    return perr(r, p,
                "expected \"Lid <n>\" or \"DR path ...\" after \"of "
                "switch\"");
  }
  const char *g = memmem(p, (size_t)(e - p), " guid ", 6);
  if (!g)
    return perr(r, p, "expected \" guid 0x<node GUID>\" in the header");
  p = g + 6;
  if ((rc = parse_guid(r, &p, e, &s->guid, "switch node GUID")))
    return rc;
  p = skip_ws(p, e);
  const char *end = rtrim(p, e);
  if (p >= end || *p != '(' || end - p < 3 || end[-1] != ':' || end[-2] != ')')
    return perr(r, p < end ? p : e,
                "expected \"(<switch name>):\" at the end of the header");
  const char *n0 = p + 1, *n1 = end - 2; /* inside the parentheses */
  if (n1 - n0 >= 2 && *n0 == '\'' && n1[-1] == '\'')
    n0++, n1--;
  size_t n =
      (size_t)(n1 - n0) < name_size - 1 ? (size_t)(n1 - n0) : name_size - 1;
  memcpy(name, n0, n);
  name[n] = '\0';
  return FL_OK;
}

/* The dump names the switch too: a name that differs from the topology's
 * (description or node-name-map name) means the dump and the topology were
 * probably taken from different fabrics whose GUIDs happen to collide. */
static void check_switch_name(lft *s, const char *dumped) {
  rd *r = &s->r;
  const fl_node_rec *nd = &r->fab->nodes[s->sw];
  if (!*dumped)
    return;
  const char *a = fl_b_atom_str(r->fab, nd->desc),
             *b = fl_b_atom_str(r->fab, nd->name);
  size_t dl = strlen(dumped);
  int same = 0, known = 0;
  for (int k = 0; k < 2 && !same; k++) {
    const char *t = k ? b : a;
    while (*t == ' ')
      t++;
    size_t tl = strlen(t);
    while (tl && t[tl - 1] == ' ')
      tl--;
    if (!tl)
      continue;
    known = 1;
    same = tl == dl && memcmp(t, dumped, dl) == 0;
  }
  if (known && !same)
    fl_b_note(r->fab, "routing", rd_prov(r, NULL),
              "the LFT block of switch 0x%016llx names it '%s', but the "
              "topology calls it '%s': the dump and the topology may come "
              "from different fabrics",
              (unsigned long long)s->guid, dumped, *b ? b : a);
}

static int lft_header(lft *s, const char *p, const char *e) {
  rd *r = &s->r;
  if (s->in_block) {
    fl_prov pv = {r->file, s->block_line, 1};
    fl_b_note(r->fab, "routing", pv,
              "LFT block of switch 0x%016llx has no \"lids dumped\" footer "
              "before the next block (line %u); its entries are kept",
              (unsigned long long)s->guid, r->lineno);
    lft_close_block(s);
  }
  r->what = "LFT header";
  uint32_t lid = 0;
  int has_lid = 0;
  char dumped[256];
  int rc = lft_parse_header(s, p, e, &lid, &has_lid, dumped, sizeof dumped);
  if (rc)
    return rc;
  s->in_block = 1;
  s->entries = 0;
  s->block_line = r->lineno;
  s->sw = fl_b_node_by_guid(r->fab, s->guid);
  if (s->sw != FL_NONE && r->fab->nodes[s->sw].kind != FL_NODE_SWITCH) {
    fl_b_note(r->fab, "routing", rd_prov(r, NULL),
              "LFT block for GUID 0x%016llx, which the topology has as a %s, "
              "not a switch; block skipped",
              (unsigned long long)s->guid,
              fl_node_kind_name(r->fab->nodes[s->sw].kind));
    s->sw = FL_NONE;
    return FL_OK;
  }
  if (s->sw == FL_NONE) {
    fl_b_note(r->fab, "routing", rd_prov(r, NULL),
              "LFT block for switch 0x%016llx which the topology lacks",
              (unsigned long long)s->guid);
    return FL_OK;
  }
  check_switch_name(s, dumped);
  if (fl_fabric_lft_count(r->fab) && s->sw < r->fab->rt.cap_nodes &&
      r->fab->rt.lft[s->sw])
    fl_b_note(r->fab, "routing", rd_prov(r, NULL),
              "a second LFT block for switch 0x%016llx: its entries replace "
              "those of the earlier block where they differ",
              (unsigned long long)s->guid);
  s->nports = r->fab->nodes[s->sw].nports;
  s->row = fl_b_lft_row(r->fab, s->sw, s->top);
  if (!s->row)
    return oom(r);
  if (has_lid) {
    if (fl_b_port(r->fab, s->sw, 0, rd_prov(r, NULL)) == FL_NONE ||
        fl_b_lid_hint(r->fab, lid, s->guid) != FL_OK)
      return oom(r);
  }
  return FL_OK;
}

/* The destination info of a LID seen for the first time: its port GUID. */
static int lft_hint(lft *s, uint32_t lid, const char *p, const char *e) {
  const char *g = memmem(p, (size_t)(e - p), "portguid 0x", 11);
  if (!g)
    return FL_OK;
  const char *d = g + 11, *q = d;
  uint64_t guid;
  int n = scan_hex(&q, e, &guid);
  if (n == 0 || n > 16)
    return perr(&s->r, d, "port GUID is not 1 to 16 hex digits");
  if (fl_b_lid_hint(s->r.fab, lid, guid) != FL_OK)
    return oom(&s->r);
  s->hinted[lid] = 1;
  return FL_OK;
}

/* Hex digit value + 1 (0: not a hex digit), for the entry fast path. */
static const uint8_t HEX1[256] = {
    ['0'] = 1,  ['1'] = 2,  ['2'] = 3,  ['3'] = 4,  ['4'] = 5,  ['5'] = 6,
    ['6'] = 7,  ['7'] = 8,  ['8'] = 9,  ['9'] = 10, ['a'] = 11, ['b'] = 12,
    ['c'] = 13, ['d'] = 14, ['e'] = 15, ['f'] = 16, ['A'] = 11, ['B'] = 12,
    ['C'] = 13, ['D'] = 14, ['E'] = 15, ['F'] = 16};

/* The exact printf layout of every dumper, "0x%04x %03u": 4 hex digits, a
 * blank, 3 decimal digits, then a blank or the end. 1 when it matched. */
static inline int lft_fixed(const char *p, const char *e, uint32_t *lid,
                            uint32_t *port) {
  const unsigned char *u = (const unsigned char *)p;
  if (e - p < 10 || u[6] != ' ' || (e - p > 10 && !is_blank(p[10])))
    return 0;
  unsigned a = HEX1[u[2]], b = HEX1[u[3]], c = HEX1[u[4]], d = HEX1[u[5]];
  unsigned x = u[7] - '0', y = u[8] - '0', z = u[9] - '0';
  if (!a || !b || !c || !d || x > 9 || y > 9 || z > 9)
    return 0;
  *lid = ((a - 1) << 12) | ((b - 1) << 8) | ((c - 1) << 4) | (d - 1);
  *port = x * 100 + y * 10 + z;
  return 1;
}

/* Any other layout of "0x<lid> <port>": 1..4 hex digits, blanks, 1..3
 * decimal digits. Sets *@pp past the port. */
static int lft_general(lft *s, const char **pp, const char *e, uint32_t *lidp,
                       uint32_t *portp) {
  rd *r = &s->r;
  const char *d = *pp + 2, *p = d;
  uint32_t lid = 0;
  int h;
  while (p < e && (h = hexval(*p)) >= 0) {
    lid = (lid << 4) | (uint32_t)h;
    p++;
  }
  if (p == d)
    return perr(r, d, "expected hex digits of the LID after 0x");
  if (p - d > 4)
    return perr(r, *pp,
                "LID 0x%.*s%s is out of range (allowed 0x0000..0xffff, 4 hex "
                "digits)",
                NUMQ(d, p));
  if (p >= e || !is_blank(*p))
    return perr(r, p, "expected a blank and the output port after the LID");
  p = skip_ws(p, e);
  const char *pd = p;
  uint64_t port = 0;
  int nd = scan_dec(&p, e, &port);
  if (nd == 0)
    return perr(r, p, "expected the output port (decimal) after the LID");
  if (p < e && !is_blank(*p))
    return perr(r, p, "unexpected character after the output port");
  if (port > MAX_PORT_NUM)
    return perr(r, pd,
                "output port %.*s%s is out of range (allowed 0..254, 255 = "
                "no route)",
                NUMQ(pd, p));
  *lidp = lid;
  *portp = (uint32_t)port;
  *pp = p;
  return FL_OK;
}

/* The hot path: "0x<lid> <port>[ <info>]". */
static int lft_entry(lft *s, const char *p, const char *e) {
  rd *r = &s->r;
  if (!s->in_block)
    return perr(r, p,
                "LFT entry outside a block: expected a \"Unicast "
                "lids [...] of switch ...\" header first");
  uint32_t lid = 0, port = 0;
  if (lft_fixed(p, e, &lid, &port)) {
    p += 10;
  } else {
    int rc = lft_general(s, &p, e, &lid, &port);
    if (rc)
      return rc;
  }
  if (port > MAX_PORT_NUM) /* only the fixed layout gets here */
    return perr(r, p - 3,
                "output port %.*s%s is out of range (allowed 0..254, 255 = "
                "no route)",
                NUMQ(p - 3, p));
  if (lid > s->top)
    return perr(r, s->r.ls + 2,
                "LID 0x%x is outside the block's range "
                "(up to 0x%x)",
                lid, s->top);
  s->entries++;
  if (s->row) {
    s->row[lid] = (uint8_t)port;
    if (port > s->nports && s->nports && port != FL_LFT_NONE &&
        s->bad_ports++ == 0) {
      s->bad_lid = lid;
      s->bad_port = port;
    }
  }
  if (!s->hinted[lid] && p < e)
    return lft_hint(s, lid, p, e);
  return FL_OK;
}

/* "<n> valid lids dumped" / "<n> lids dumped" */
static int lft_footer(lft *s, const char *p, const char *e) {
  rd *r = &s->r;
  r->what = "LFT footer";
  uint64_t n;
  const char *q = p;
  scan_dec(&q, e, &n);
  if (!s->in_block)
    return perr(r, p, "\"lids dumped\" footer without a block");
  q = skip_ws(q, e);
  if (starts_with(q, e, "valid "))
    q += 6;
  if (!starts_with(q, e, "lids dumped"))
    return perr(r, q, "expected \"lids dumped\" after the count");
  int rc = expect_end(r, q + 11, e, "the footer");
  if (rc)
    return rc;
  if (n != s->entries && n != s->top)
    return perr(r, p,
                "footer says %llu LIDs but the block (line %u) lists %u "
                "entries for LIDs up to %u: lines are missing",
                (unsigned long long)n, s->block_line, s->entries, s->top);
  lft_close_block(s);
  return FL_OK;
}

static int lft_line(lft *s) {
  rd *r = &s->r;
  const char *p = r->ls, *e = r->le;
  if (p + 1 < e && p[0] == '0' && p[1] == 'x') {
    r->what = "LFT entry";
    return lft_entry(s, p, e);
  }
  p = skip_ws(p, e);
  if (p >= e || *p == '#')
    return FL_OK;
  if (starts_with(p, e, "Unicast lids ["))
    return lft_header(s, p, e);
  if (*p >= '0' && *p <= '9')
    return lft_footer(s, p, e);
  if (starts_with(p, e, "***")) /* dump_lfts.sh trailer */
    return FL_OK;
  if (s->in_block && (starts_with(p, e, "Lid ") || starts_with(p, e, "Port ")))
    return FL_OK; /* ibroute column titles */
  if (starts_with(p, e, "Multicast mlids"))
    return perr(r, p,
                "multicast forwarding tables are not read; dump the "
                "unicast LFTs (ibroute/dump_fts without -M)");
  r->what = NULL;
  return perr(r, p,
              "unrecognised line \"%.*s\" in an LFT dump: expected a "
              "\"Unicast lids\" header, a \"0x<lid> <port>\" entry or "
              "a \"lids dumped\" footer",
              EXCERPT(p, e));
}

int fl_load_lfts(fl_fabric *fab, const fl_input *in,
                 const fl_load_options *opts, fl_error *err) {
  const char *path = in->path;
  (void)opts;
  lft s;
  memset(&s, 0, sizeof s);
  s.sw = FL_NONE;
  int rc = rd_open(&s.r, fab, in, err);
  if (rc)
    return rc;
  s.hinted = calloc(FL_MAX_UCAST_LID + 1, 1);
  if (!s.hinted) {
    rd_close(&s.r);
    return fl_error_set(err, FL_ENOMEM, path, 0, 0, "out of memory");
  }
  while ((rc = rd_next(&s.r)) == 1) {
    rc = lft_line(&s);
    if (rc == FL_OK)
      rc = rd_tail_ok(&s.r);
    if (rc)
      break;
  }
  if (rc == FL_OK && s.in_block)
    rc = fl_error_set(err, FL_EPARSE, path, s.r.lineno, 0,
                      "truncated: the LFT block of switch 0x%016llx (line "
                      "%u) has no \"lids dumped\" footer",
                      (unsigned long long)s.guid, s.block_line);
  free(s.hinted);
  rd_close(&s.r);
  return rc;
}

/* ---- the format registry row (formats.h) ---- */

const fl_format_def fl_fmt_lfts = {
    FL_FMT_LFTS,
    "lfts",
    NULL,
    FL_FORMAT_NUL_INLINE,
    fl_load_lfts,
    fl_detect_routing,
    "an LFT dump (opensm-lfts.dump, ibroute, dump_fts: \"Unicast lids [\")"};
