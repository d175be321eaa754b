/*
 * core/routing_load.c — loaders for routing state (LFTs, SL2VL tables, path
 * SLs) and for OpenSM's opensm-subnet.lst topology dump.
 *
 * Why hand-written, and why chunked: the target fabric (5,120 switches x
 * 49,151 LIDs) has 250 M LFT entries, i.e. a ~20 GB opensm-lfts.dump. The
 * file is read in 4 MiB chunks (so memory stays bounded and pipes work),
 * lines are found with memchr(), and an LFT entry costs a handful of byte
 * compares: the LID and the port are parsed, the destination info is only
 * searched for its port GUID the first time a LID is seen (every switch
 * repeats it). No sscanf, no regex. Errors name file:line:col.
 *
 * Formats and where they come from (see also docs/routing-inputs.md):
 *  - LFTs, fl_load_lfts():
 *    - OpenSM opensm/osm_dump.c dump_ucast_lfts(): header
 *      `Unicast lids [0-<maxlid>] of switch Lid <n> guid 0x<guid> ('<desc>'):`,
 *      entries `0x%04x %03u # <type> portguid 0x<guid>: '<desc>'` or
 *      `# unknown node and type`, footer `<maxlid> lids dumped`.
 *    - infiniband-diags ibroute.c / dump_fts.c dump_unicast_tables() and
 *      dump_lid(): header `Unicast lids [0x<s>-0x<e>] of switch <portid>
 *      guid 0x<guid> (<name>):` where <portid> is `Lid <n>` or
 *      `DR path slid 0; dlid 0; 0,1,...`; two column-title lines; entries
 *      `0x%04x %03u : (<type> portguid 0x<guid>: '<name>')` and the LMC /
 *      illegal-port / unknown variants, or nothing after the port (-n);
 *      footer `<n> valid lids dumped ` (`<n> lids dumped ` with -a).
 *      scripts/dump_lfts.sh appends `*** WARNING ***` lines.
 *  - fl_load_fdbs(): OpenSM opensm/osm_ucast_mgr.c dump_ucast_routes()
 *    (`opensm.fdbs`), also ibutils/ibdiagnet `.fdbs`: `dump_ucast_routes:
 *    Switch 0x<guid>`, `LID : Port : Hops : Optimal`, rows
 *    `0x%04X : %03u  : %02u   : yes`, `0x%04X : UNREACHABLE`, and free text
 *    after the port (`No N hop path possible via port P!`, `HOPS UNKNOWN`).
 *  - fl_load_sl2vl(): OpenSM osm_dump.c dump_sl2vl_tbl() (`opensm-sl2vl.dump`:
 *    `<Channel Adapter|Switch|Router> 0x<portguid>, base LID <n>, "<desc>"`,
 *    `#in out : 0 1 .. 15`, rows `%-3d %-3d : v0 .. v15`), and
 *    infiniband-diags smpquery.c sl2vl_table()/sl2vl_dump_table_entry() with
 *    libibmad dump.c mad_dump_sltovl() (`# SL2VL table: Lid <n>`, rows
 *    `ports: in %2d, out %2d: | v0| v1|..|v15|`).
 *  - fl_load_path_sl(): ibutils ibdmchk -c / ibdiagnet path-SL file,
 *    `0x<source CA node GUID> <DLID decimal> <SL>` per line, `#` comments.
 *  - fl_load_saquery_pr(): infiniband-diags saquery.c dump_path_record()
 *    (`PathRecord dump:` then `\t\t<field>....<value>` lines; sgid is an
 *    IPv6-style GID whose low 64 bits are the port GUID; dlid/slid decimal,
 *    sl hex).
 *  - fl_load_subnet_lst(): OpenSM osm_dump.c dump_topology_node(), one line
 *    per connected port listing both ends: `{ <SW|CA|Rt>[-SM] Ports:<hex>
 *    SystemGUID:<hex> NodeGUID:<hex> PortGUID:<hex> VenID:<hex> DevID:<hex>
 *    Rev:<hex> {<desc>} LID:<hex> PN:<hex> } { <peer> } PHY=<w> LOG=<s>
 *    SPD=<s>`. Ports/PN/LID are hex. A DevID of more than 4 hex digits is the
 *    byte-swapped 32-bit quirk: its upper 16 bits are the device id.
 *
 * Resolution against the topology: switches and ports are found by GUID
 * (fl_b_node_by_guid / fl_b_port_by_guid), nodes named by LID (smpquery,
 * saquery) through the LIDs the topology already carries. A block for a
 * switch the topology lacks is skipped with a note (fl_b_note), never an
 * error: dumps and topology are often taken minutes apart.
 *
 * Truncation: every one of these files is written by a tool and ends with a
 * newline; a last line without one is reported as truncated (FL_EPARSE), as
 * is an LFT block without its footer at the end of the file.
 *
 * Ownership: each loader owns its reader buffer and scratch state and frees
 * them before returning; strings handed to the builder are copied by it.
 */
#define _GNU_SOURCE /* memmem */
#include "io/fileio.h"
#include "io/loaders.h"
#include "io/textscan.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/build.h"
#include "model/fabric_impl.h"
#include "fabriclint/routing.h"
#include "model/hashmap.h"
#include "io/nodemap.h"

#define MAX_PORT_NUM 255u

/* ======================================================================
 * Line reader over the whole input and error context
 * ====================================================================== */

typedef struct rd {
  fl_fabric *fab;
  fl_error *err;
  const char *path;
  uint32_t file; /* fl_b_file() id */
  char *buf;
  size_t len, pos;     /* the whole input: [pos, len) unread */
  const char *ls, *le; /* current line, without "\r\n" */
  uint32_t lineno;
  int terminated;   /* current line ended with '\n' */
  const char *what; /* kind of the current line, for "truncated" errors */
} rd;

/* Lines of input @in (borrowed), read whole by fl_fabric_load(). */
static int rd_open(rd *r, fl_fabric *fab, const fl_input *in, fl_error *err) {
  memset(r, 0, sizeof *r);
  r->fab = fab;
  r->err = err;
  r->path = in->path;
  r->buf = in->buf;
  r->len = in->len;
  r->file = fl_b_file(fab, in->path);
  return FL_OK;
}

static void rd_close(rd *r) {
  r->buf = NULL;
}

/* Advance to the next line: 1 a line, 0 end of input, <0 FL_E* error. */
static inline __attribute__((always_inline)) int rd_next(rd *r) {
  char *s = r->buf + r->pos, *e = r->buf + r->len;
  if (s >= e)
    return 0;
  char *nl = memchr(s, '\n', (size_t)(e - s));
  r->terminated = nl != NULL;
  r->ls = s;
  r->le = nl ? nl : e;
  r->pos = (size_t)((nl ? nl + 1 : e) - r->buf);
  if (r->le > r->ls && r->le[-1] == '\r')
    r->le--;
  r->lineno++;
  return 1;
}

static fl_prov rd_prov(const rd *r, const char *at) {
  fl_prov p = {r->file, r->lineno, at ? (uint32_t)(at - r->ls) + 1 : 1};
  return p;
}

/* FL_EPARSE at the column of @at (NULL: no column) of the current line. */
static int perr(rd *r, const char *at, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
static int perr(rd *r, const char *at, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int rc = fl_text_verror(r->err, r->path, r->lineno, r->ls, at, !r->terminated,
                          r->what, fmt, ap);
  va_end(ap);
  return rc;
}

static int oom(rd *r) {
  return fl_error_set(r->err, FL_ENOMEM, r->path, r->lineno, 0,
                      "out of memory");
}

/* After a line parsed: a last line without '\n' means a cut-off file. */
static int rd_tail_ok(rd *r) {
  if (r->terminated)
    return FL_OK;
  return fl_error_set(r->err, FL_EPARSE, r->path, r->lineno,
                      (uint32_t)(r->le - r->ls) + 1,
                      "truncated: the file ends inside a %s line (no final "
                      "newline)",
                      r->what ? r->what : "text");
}

/* ======================================================================
 * Tokens
 * ====================================================================== */

/* "0x" and 1..16 hex digits: a GUID. */
static int parse_guid(rd *r, const char **pp, const char *e, uint64_t *g,
                      const char *what) {
  const char *p = *pp;
  if (!starts_with(p, e, "0x") && !starts_with(p, e, "0X"))
    return perr(r, p, "expected 0x and the %s", what);
  p += 2;
  const char *d = p;
  int n = scan_hex(&p, e, g);
  if (n == 0 || n > 16)
    return perr(r, d, "%s is not 1 to 16 hex digits", what);
  *pp = p;
  return FL_OK;
}

/* A number in [0, @hi]: decimal, or hex after "0x". */
static int parse_num(rd *r, const char **pp, const char *e, uint64_t hi,
                     const char *what, uint32_t *out) {
  const char *p = *pp, *d;
  uint64_t v;
  int n;
  if (starts_with(p, e, "0x") || starts_with(p, e, "0X")) {
    d = p + 2;
    p = d;
    n = scan_hex(&p, e, &v);
    if (n > 8)
      v = UINT64_MAX;
  } else {
    d = p;
    n = scan_dec(&p, e, &v);
  }
  if (n == 0)
    return perr(r, d, "expected %s (a number)", what);
  if (v > hi)
    return perr(r, *pp, "%s %.*s exceeds %llu", what, (int)(p - *pp), *pp,
                (unsigned long long)hi);
  *out = (uint32_t)v;
  *pp = p;
  return FL_OK;
}

static int expect_end(rd *r, const char *p, const char *e, const char *what) {
  p = skip_ws(p, e);
  if (p < e)
    return perr(r, p, "unexpected text \"%.*s\" after %s", EXCERPT(p, e), what);
  return FL_OK;
}

/* The node of a port GUID (a CA port, or a switch's port 0 / node GUID),
 * else the node whose node GUID it is; FL_NONE when the topology has none. */
static fl_id node_of_guid(fl_fabric *fab, uint64_t guid) {
  fl_id p = fl_b_port_by_guid(fab, guid);
  if (p != FL_NONE && p < fab->n_ports)
    return fab->ports[p].node;
  return fl_b_node_by_guid(fab, guid);
}

/* LID -> node from the LIDs the topology carries (built on first use). */
typedef struct lidmap {
  fl_u64map m;
  int built;
} lidmap;

static int lidmap_build(lidmap *lm, const fl_fabric *fab) {
  lm->built = 1;
  for (size_t i = 0; i < fab->n_ports; i++) {
    const fl_port_rec *pr = &fab->ports[i];
    if (pr->lid == 0 || pr->lid > FL_MAX_UCAST_LID)
      continue;
    uint32_t top = pr->lid + (1u << (pr->lmc & 7)) - 1;
    for (uint32_t l = pr->lid; l <= top && l <= FL_MAX_UCAST_LID; l++)
      if (fl_u64map_put(&lm->m, l, pr->node) == FL_MAP_ABSENT)
        return FL_ENOMEM;
  }
  return FL_OK;
}

static fl_id lidmap_node(lidmap *lm, const fl_fabric *fab, uint32_t lid,
                         int *rc) {
  *rc = FL_OK;
  if (!lm->built && (*rc = lidmap_build(lm, fab)) != FL_OK)
    return FL_NONE;
  uint32_t v = fl_u64map_get(&lm->m, lid);
  return v == FL_MAP_ABSENT ? FL_NONE : v;
}

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
    if (p - d >= 4)
      return perr(r, d, "LID has more than 4 hex digits");
    p++;
  }
  if (p == d)
    return perr(r, d, "expected hex digits of the LID after 0x");
  if (p >= e || !is_blank(*p))
    return perr(r, p, "expected a blank and the output port after the LID");
  p = skip_ws(p, e);
  const char *pd = p;
  uint32_t port = 0;
  while (p < e && *p >= '0' && *p <= '9' && p - pd < 4)
    port = port * 10 + (uint32_t)(*p++ - '0');
  if (p == pd)
    return perr(r, p, "expected the output port (decimal) after the LID");
  if (p < e && !is_blank(*p))
    return perr(r, p, "unexpected character after the output port");
  if (port > MAX_PORT_NUM)
    return perr(r, pd,
                "output port %u is not a port number (0..254, 255 = "
                "no route)",
                port);
  *lidp = lid;
  *portp = port;
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
                "output port %u is not a port number (0..254, "
                "255 = no route)",
                port);
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
      return perr(r, d, "output port %llu is not a port number",
                  (unsigned long long)v);
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

/* ======================================================================
 * opensm-subnet.lst (topology)
 * ====================================================================== */

/* One half of a line: one end of the cable. */
typedef struct half {
  uint32_t kind, nports, vendid, devid, lid, pn;
  uint64_t sysguid, nodeguid, portguid;
  const char *desc;
  size_t desc_len;
} half;

typedef struct snode {
  fl_id id;
  uint32_t kind;
} snode;

typedef struct slisting {
  uint32_t a, b;   /* snode indices */
  uint32_t pa, pb; /* port numbers */
  uint32_t line;
  uint8_t width, speed;
} slisting;

typedef struct slst {
  rd r;
  snode *nodes;
  size_t nn, ncap;
  slisting *ls;
  size_t nl, lcap;
  fl_u64map by_guid; /* node GUID -> snode index */
  fl_u64map by_port; /* snode << 8 | port -> first listing there */
  fl_nodemap names;
  int have_names;
} slst;

static void slst_free(slst *s) {
  free(s->nodes);
  free(s->ls);
  fl_u64map_free(&s->by_guid);
  fl_u64map_free(&s->by_port);
  fl_nodemap_free(&s->names);
}

/* "SW", "CA", "Rt", "**", optionally followed by "-SM". */
static int sn_type(rd *r, const char **pp, const char *e, uint32_t *kind) {
  const char *p = *pp, *q = p;
  while (q < e && !is_blank(*q))
    q++;
  size_t n = (size_t)(q - p);
  if (n > 3 && memcmp(q - 3, "-SM", 3) == 0)
    n -= 3;
  if (n == 2 && memcmp(p, "SW", 2) == 0)
    *kind = FL_NODE_SWITCH;
  else if (n == 2 && memcmp(p, "CA", 2) == 0)
    *kind = FL_NODE_CA;
  else if (n == 2 && (memcmp(p, "Rt", 2) == 0 || memcmp(p, "RT", 2) == 0))
    *kind = FL_NODE_ROUTER;
  else if (n == 2 && memcmp(p, "**", 2) == 0)
    *kind = 0;
  else
    return perr(r, p, "expected a node type (SW, CA, Rt or **) after \"{\"");
  *pp = q;
  return FL_OK;
}

/* "Key:HEX" fields up to the "{desc}". */
static int sn_fields(rd *r, const char **pp, const char *e, half *h) {
  const char *p = *pp;
  for (;;) {
    p = skip_ws(p, e);
    if (p >= e)
      return perr(r, p, "expected \"{<description>}\"");
    if (*p == '{')
      break;
    const char *k = p;
    while (p < e && *p != ':' && !is_blank(*p))
      p++;
    if (p >= e || *p != ':')
      return perr(r, k, "expected \"<Key>:<hex>\" or \"{<description>}\"");
    size_t kl = (size_t)(p - k);
    const char *d = ++p;
    uint64_t v;
    int n = scan_hex(&p, e, &v);
    if (n == 0 || n > 16)
      return perr(r, d, "expected 1 to 16 hex digits after \"%.*s:\"", (int)kl,
                  k);
    if (kl == 5 && memcmp(k, "Ports", 5) == 0)
      h->nports = (uint32_t)(v & 0xff);
    else if (kl == 10 && memcmp(k, "SystemGUID", 10) == 0)
      h->sysguid = v;
    else if (kl == 8 && memcmp(k, "NodeGUID", 8) == 0)
      h->nodeguid = v;
    else if (kl == 8 && memcmp(k, "PortGUID", 8) == 0)
      h->portguid = v;
    else if (kl == 5 && memcmp(k, "VenID", 5) == 0)
      h->vendid = (uint32_t)(v & 0xffffff);
    else if (kl == 5 && memcmp(k, "DevID", 5) == 0)
      h->devid = n > 4 ? (uint32_t)((v >> 16) & 0xffff) : (uint32_t)v;
  }
  *pp = p;
  return FL_OK;
}

/* "{ T Ports:.. ... {desc} LID:hhhh PN:hh }" */
static int sn_half(rd *r, const char **pp, const char *e, half *h) {
  const char *p = skip_ws(*pp, e);
  int rc;
  memset(h, 0, sizeof *h);
  if (p >= e || *p != '{')
    return perr(r, p, "expected \"{\" and a port description");
  p = skip_ws(p + 1, e);
  if ((rc = sn_type(r, &p, e, &h->kind)) || (rc = sn_fields(r, &p, e, h)))
    return rc;
  const char *d = p + 1;
  const char *q = memmem(d, (size_t)(e - d), "} LID:", 6);
  if (!q)
    return perr(r, p, "expected \"} LID:\" after the node description");
  h->desc = d;
  h->desc_len = (size_t)(q - d);
  p = q + 6;
  const char *ld = p;
  uint64_t v;
  int n = scan_hex(&p, e, &v);
  if (n == 0 || n > 4)
    return perr(r, ld, "expected the LID as 1 to 4 hex digits");
  h->lid = (uint32_t)v;
  p = skip_ws(p, e);
  if (!starts_with(p, e, "PN:"))
    return perr(r, p, "expected \"PN:<hex port number>\"");
  ld = p += 3;
  n = scan_hex(&p, e, &v);
  if (n == 0 || n > 2)
    return perr(r, ld, "expected the port number as 1 or 2 hex digits");
  h->pn = (uint32_t)v;
  p = skip_ws(p, e);
  if (p >= e || *p != '}')
    return perr(r, p, "expected \"}\" closing the port description");
  *pp = p + 1;
  return FL_OK;
}

static uint32_t sn_speed(const char *p, size_t n) {
  static const struct {
    const char *s;
    uint32_t code;
  } map[] = {
      {"2.5", FL_SPEED_SDR},     {"5", FL_SPEED_DDR},   {"10", FL_SPEED_QDR},
      {"FDR10", FL_SPEED_FDR10}, {"14", FL_SPEED_FDR},  {"25", FL_SPEED_EDR},
      {"50", FL_SPEED_HDR},      {"100", FL_SPEED_NDR}, {"200", FL_SPEED_XDR}};
  for (size_t i = 0; i < sizeof map / sizeof *map; i++)
    if (strlen(map[i].s) == n && memcmp(map[i].s, p, n) == 0)
      return map[i].code;
  return FL_SPEED_UNKNOWN;
}

/* "PHY=4x LOG=ACT SPD=50" (SPD absent in old files). */
static int sn_tail(rd *r, const char *p, const char *e, slisting *l) {
  for (;;) {
    p = skip_ws(p, e);
    if (p >= e)
      return FL_OK;
    const char *t = p;
    while (p < e && !is_blank(*p))
      p++;
    const char *eq = memchr(t, '=', (size_t)(p - t));
    if (!eq)
      return perr(r, t, "expected PHY=, LOG= or SPD= after the two ports");
    const char *v = eq + 1;
    size_t kl = (size_t)(eq - t), vl = (size_t)(p - v);
    if (kl == 3 && memcmp(t, "PHY", 3) == 0)
      l->width = (uint8_t)fl_width_parse(v, vl);
    else if (kl == 3 && memcmp(t, "SPD", 3) == 0)
      l->speed = (uint8_t)sn_speed(v, vl);
  }
}

/* The snode of @h, created with its description on first sight. */
static uint32_t sn_node(slst *s, const half *h) {
  rd *r = &s->r;
  uint32_t idx = fl_u64map_get(&s->by_guid, h->nodeguid);
  if (idx != FL_MAP_ABSENT)
    return idx;
  if (s->nn == s->ncap) {
    size_t cap = s->ncap ? s->ncap * 2 : 256;
    snode *nv = realloc(s->nodes, cap * sizeof *nv);
    if (!nv)
      return UINT32_MAX;
    s->nodes = nv;
    s->ncap = cap;
  }
  uint32_t kind = h->kind ? h->kind : FL_NODE_CA;
  fl_id id = fl_b_node(r->fab, kind, h->nodeguid, h->nports, rd_prov(r, NULL));
  if (id == FL_NONE)
    return UINT32_MAX;
  fl_b_node_set_desc(r->fab, id, h->desc, h->desc_len);
  fl_b_node_set_ids(r->fab, id, h->vendid, h->devid, h->sysguid);
  if (s->have_names) {
    const char *nm = fl_nodemap_lookup(&s->names, h->nodeguid);
    if (nm)
      fl_b_node_set_name(r->fab, id, nm, (size_t)-1);
  }
  if (!h->kind)
    fl_b_note(r->fab, "topology", rd_prov(r, NULL),
              "node 0x%016llx has node type \"**\" (unknown); taken as a CA",
              (unsigned long long)h->nodeguid);
  s->nodes[s->nn].id = id;
  s->nodes[s->nn].kind = kind;
  if (fl_u64map_put(&s->by_guid, h->nodeguid, (uint32_t)s->nn) == FL_MAP_ABSENT)
    return UINT32_MAX;
  return (uint32_t)s->nn++;
}

/* Port records of one end: a switch's LID and port GUID sit on port 0. */
static int sn_port(slst *s, uint32_t idx, const half *h) {
  rd *r = &s->r;
  fl_fabric *fab = r->fab;
  fl_id n = s->nodes[idx].id;
  fl_id p = fl_b_port(fab, n, h->pn, rd_prov(r, NULL));
  if (p == FL_NONE)
    return FL_ENOMEM;
  fl_id lp = p;
  if (s->nodes[idx].kind == FL_NODE_SWITCH) {
    lp = fl_b_port(fab, n, 0, rd_prov(r, NULL));
    if (lp == FL_NONE)
      return FL_ENOMEM;
  }
  if (h->portguid)
    fl_b_port_set_guid(fab, lp, h->portguid);
  if (h->lid)
    fl_b_port_set_lid(fab, lp, h->lid, 0);
  return FL_OK;
}

static int sn_line(slst *s) {
  rd *r = &s->r;
  const char *p = skip_ws(r->ls, r->le), *e = r->le;
  if (p >= e || *p == '#')
    return FL_OK;
  r->what = "subnet.lst";
  half a, b;
  int rc;
  if ((rc = sn_half(r, &p, e, &a)) || (rc = sn_half(r, &p, e, &b)))
    return rc;
  if (s->nl == s->lcap) {
    size_t cap = s->lcap ? s->lcap * 2 : 1024;
    slisting *nv = realloc(s->ls, cap * sizeof *nv);
    if (!nv)
      return oom(r);
    s->ls = nv;
    s->lcap = cap;
  }
  slisting *l = &s->ls[s->nl];
  memset(l, 0, sizeof *l);
  if ((rc = sn_tail(r, p, e, l)))
    return rc;
  l->a = sn_node(s, &a);
  l->b = sn_node(s, &b);
  if (l->a == UINT32_MAX || l->b == UINT32_MAX)
    return oom(r);
  l->pa = a.pn;
  l->pb = b.pn;
  l->line = r->lineno;
  if (sn_port(s, l->a, &a) || sn_port(s, l->b, &b))
    return oom(r);
  s->nl++;
  return FL_OK;
}

/* Both listings of one cable become one link (as core/ibnd.c merges). */
static int sn_merge(slst *s) {
  fl_fabric *fab = s->r.fab;
  for (size_t i = 0; i < s->nl; i++)
    if (fl_u64map_put(&s->by_port, ((uint64_t)s->ls[i].a << 8) | s->ls[i].pa,
                      (uint32_t)i) == FL_MAP_ABSENT)
      return FL_ENOMEM;
  uint8_t *done = calloc(s->nl ? s->nl : 1, 1);
  if (!done)
    return FL_ENOMEM;
  int rc = FL_OK;
  for (size_t i = 0; i < s->nl && rc == FL_OK; i++) {
    if (done[i])
      continue;
    done[i] = 1;
    const slisting *l = &s->ls[i];
    fl_prov pv = {s->r.file, l->line, 1};
    fl_id pa = fl_b_port(fab, s->nodes[l->a].id, l->pa, pv);
    fl_id pb = fl_b_port(fab, s->nodes[l->b].id, l->pb, pv);
    uint32_t j = fl_u64map_get(&s->by_port, ((uint64_t)l->b << 8) | l->pb);
    uint32_t flags = FL_LINK_SEEN_A;
    if (j != FL_MAP_ABSENT &&
        (s->ls[j].b != l->a || s->ls[j].pb != l->pa || (j != i && done[j])))
      j = FL_MAP_ABSENT;
    if (j != FL_MAP_ABSENT)
      flags |= FL_LINK_SEEN_B;
    fl_id lk = pa == FL_NONE || pb == FL_NONE
                   ? FL_NONE
                   : fl_b_link(fab, pa, pb, l->width, l->speed, flags, pv);
    if (lk == FL_NONE) {
      rc = FL_ENOMEM;
      break;
    }
    if (j != FL_MAP_ABSENT && j != i) {
      done[j] = 1;
      const slisting *m = &s->ls[j];
      if (m->width != l->width || m->speed != l->speed)
        fl_b_link_set_b_listing(fab, lk, m->width, m->speed);
    }
  }
  free(done);
  return rc;
}

int fl_load_subnet_lst(fl_fabric *fab, const fl_input *in,
                       const fl_load_options *opts, fl_error *err) {
  const char *path = in->path;
  slst s;
  memset(&s, 0, sizeof s);
  int rc;
  if (opts && opts->node_name_map) {
    s.have_names = 1;
    if ((rc = fl_nodemap_load(&s.names, opts->node_name_map, err)) != FL_OK) {
      slst_free(&s);
      return rc;
    }
  }
  if ((rc = rd_open(&s.r, fab, in, err)) != FL_OK) {
    slst_free(&s);
    return rc;
  }
  while ((rc = rd_next(&s.r)) == 1) {
    rc = sn_line(&s);
    if (rc == FL_OK)
      rc = rd_tail_ok(&s.r);
    if (rc)
      break;
  }
  if (rc == FL_OK && sn_merge(&s) != FL_OK)
    rc = fl_error_set(err, FL_ENOMEM, path, 0, 0, "out of memory");
  rd_close(&s.r);
  slst_free(&s);
  return rc;
}
