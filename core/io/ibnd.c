/*
 * core/io/ibnd.c — loaders for ibnetdiscover topology output (default and -g
 * modes), the ibnetdiscover -p ports report, and ibsim net files.
 *
 * Why hand-written: a 65,536-CA fabric dump is ~400k port lines; the loader
 * reads the whole file with one fread() and tokenises each line in place
 * (no sscanf/regex), so loading is dominated by the model's own inserts.
 *
 * Sources of the formats (see also notes/formats.md §1):
 *  - rdma-core infiniband-diags/ibnetdiscover.c: dump_topology(), out_ids(),
 *    out_switch()/out_switch_detail(), out_ca()/out_ca_detail(),
 *    out_switch_port(), out_ca_port(), node_name() (the "S-/H-/R-/?-" ids),
 *    dump_linkwidth_compat()/dump_linkspeed[ext]_compat() (the 4xHDR tokens),
 *    out_chassis() and the -g comments, dump_ports_report() (-p).
 *  - rdma-core libibnetdisc/ibnetdisc_cache.c: the binary --cache magic
 *    0x8FE7832B, rejected here with a clear message.
 *  - linux-rdma/ibsim ibsim/sim_net.c: parse_netconf(), parse_switch(),
 *    parse_endnode(), parse_port(), parse_port_opt(), parse_guidbase(),
 *    parse_include(), new_node() (GUID assignment), get_active_linkwidth()/
 *    get_active_linkspeed() (the active width/speed of a cable).
 *
 * Descriptions are not escaped by ibnetdiscover: they may hold '"', '#' and
 * leading/trailing blanks. Every quoted description is therefore taken
 * greedily up to the LAST '"' of the line (the tails that follow it never
 * contain a quote).
 *
 * Links: ibnetdiscover lists each cable once from each end. All listings are
 * collected first; after the whole input is read, peers are resolved by node
 * GUID (a peer may be declared later) and each listing A:p -> B:q is merged
 * with B's listing of port q when that one points back at A:p. Otherwise the
 * listing becomes a link seen from one end only (FL_LINK_SEEN_A); a port that
 * two listings claim ends up with two links (topology reports both cases);
 * core/io/listings.c does the merging.
 *
 * Ownership: the loaders own every buffer they allocate and free it before
 * returning; strings handed to the builder are copied by it.
 */
#include "io/fileio.h"
#include "io/formats.h"
#include "io/listings.h"
#include "io/loaders.h"
#include "io/textscan.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "io/nodemap.h"
#include "model/build.h"
#include "model/file_digest.h"
#include "model/hashmap.h"

#define MAX_PORT          255u
#define MAX_LID           65535u
#define MAX_LMC           7u
#define IBSIM_MAX_INCLUDE 9 /* ibsim/sim_net.c MAX_INCLUDE */
/* Includes read for one net file, in all: 9 levels of 10 includes each
 * would otherwise read 10^9 files (docs/cli.md "Limits"). */
#define IBSIM_MAX_FILES 1000

/* ======================================================================
 * Reading a whole file
 * ====================================================================== */

typedef struct text {
  char *buf;
  size_t len;
} text;

static const unsigned char CACHE_MAGIC[4] = {0x2b, 0x83, 0xe7, 0x8f};

/* The bytes of input @in as a text (borrowed: never freed here). */
static text text_of(const fl_input *in) {
  text t = {in->buf, in->len};
  return t;
}

static int reject_cache_file(const text *t, const char *path, fl_error *err) {
  if (t->len >= 4 && memcmp(t->buf, CACHE_MAGIC, 4) == 0)
    return fl_error_set(err, FL_EPARSE, path, 1, 1,
                        "this is an ibnetdiscover --cache file (binary, magic "
                        "2b 83 e7 8f), not text: run `ibnetdiscover "
                        "--load-cache FILE > topo.txt` and load topo.txt");
  return FL_OK;
}

/* ======================================================================
 * Line cursor and error context
 * ====================================================================== */

typedef struct pctx {
  fl_fabric *fab;
  fl_error *err;
  const char *path;
  uint32_t file;         /* fl_b_file() id */
  const char *cur, *end; /* unread text */
  const char *ls, *le;   /* current line, without "\r\n" */
  uint32_t lineno;
  int terminated;   /* current line ended with '\n' */
  int nul;          /* next_line() stopped at a NUL byte before the end */
  const char *what; /* kind of the current line, for "truncated" errors */
} pctx;

static void pctx_init(pctx *c, fl_fabric *fab, const char *path, const text *t,
                      fl_error *err) {
  memset(c, 0, sizeof *c);
  c->fab = fab;
  c->err = err;
  c->path = path;
  c->file = fl_b_file(fab, path);
  c->cur = t->buf;
  c->end = t->buf + t->len;
}

/* Advance to the next line; 0 at end of input, or at a NUL byte before
 * it (c->nul set). The line search is the input's NUL check (as in
 * core/io/routing_read.h): strchr() stops at a '\n' or a NUL, and the only
 * NUL allowed is the one fl_input puts after the last byte, so the input
 * is not walked a second time for it (FL_FORMAT_NUL_INLINE). */
static int next_line(pctx *c) {
  if (c->cur >= c->end)
    return 0;
  const char *nl = strchr(c->cur, '\n');
  if (!nl && c->cur + strlen(c->cur) < c->end) {
    c->nul = 1;
    c->cur = c->end;
    return 0;
  }
  c->ls = c->cur;
  c->le = nl ? nl : c->end;
  c->terminated = nl != NULL;
  c->cur = nl ? nl + 1 : c->end;
  if (c->le > c->ls && c->le[-1] == '\r')
    c->le--;
  c->lineno++;
  return 1;
}

static fl_prov prov_here(const pctx *c) {
  fl_prov p = {c->file, c->lineno, 1};
  return p;
}

/* FL_EPARSE at column of @at (NULL: no column) of the current line. */
static int perr(pctx *c, const char *at, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
static int perr(pctx *c, const char *at, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int rc = fl_text_verror(c->err, c->path, c->lineno, c->ls, at,
                          !c->terminated && c->what, c->what, fmt, ap);
  va_end(ap);
  return rc;
}

static int oom(pctx *c) {
  return fl_error_set(c->err, FL_ENOMEM, c->path, c->lineno, 0,
                      "out of memory");
}

/* ======================================================================
 * Tokens
 * ====================================================================== */

/* Keyword @kw at p (whole word: followed by a blank, end or @stop). */
static const char *match_word(const char *p, const char *e, const char *kw) {
  size_t n = strlen(kw);
  if ((size_t)(e - p) < n || memcmp(p, kw, n) != 0)
    return NULL;
  if (p + n < e && !is_blank(p[n]))
    return NULL;
  return p + n;
}

static const char *last_quote(const char *p, const char *e) {
  for (const char *q = e; q > p;)
    if (*--q == '"')
      return q;
  return NULL;
}

/* "0x" then 1..16 hex digits. */
static int parse_0xhex(pctx *c, const char **pp, const char *e, uint64_t *v,
                       const char *what) {
  const char *p = *pp;
  if (!starts_with(p, e, "0x") && !starts_with(p, e, "0X"))
    return perr(c, p, "expected 0x and hex digits for %s", what);
  p += 2;
  const char *d = p;
  int n = scan_hex(&p, e, v);
  if (n == 0)
    return perr(c, d, "expected hex digits after 0x for %s", what);
  if (n > 16)
    return perr(c, d, "%s has %d hex digits; a GUID has at most 16", what, n);
  *pp = p;
  return FL_OK;
}

/* Number in [lo, hi] at *pp; @what names it in errors. */
static int parse_num(pctx *c, const char **pp, const char *e, uint32_t lo,
                     uint32_t hi, const char *what, uint32_t *out) {
  uint64_t v;
  const char *p = *pp;
  if (!scan_dec(&p, e, &v))
    return perr(c, *pp, "expected %s (a decimal number)", what);
  if (v > hi || v < lo)
    return perr(c, *pp, "%s %.*s%s is out of range (allowed %u..%u)", what,
                NUMQ(*pp, p), lo, hi);
  *out = (uint32_t)v;
  *pp = p;
  return FL_OK;
}

/* `"K-HEX16"`: kind letter and node GUID. */
static int parse_quoted_id(pctx *c, const char **pp, const char *e, char *kind,
                           uint64_t *guid) {
  const char *p = *pp;
  if (p >= e || *p != '"')
    return perr(c, p,
                "expected a quoted node id (\"S-\", \"H-\", \"R-\" or \"?-\" "
                "and 16 hex digits)");
  p++;
  if (p + 1 >= e || !strchr("SHR?", *p) || p[1] != '-' || *p == '\0')
    return perr(c, p, "expected S-, H-, R- or ?- at the start of a node id");
  *kind = *p;
  p += 2;
  const char *d = p;
  int n = scan_hex(&p, e, guid);
  if (n != 16)
    return perr(c, d, "GUID is not 16 hex digits (found %d)", n);
  if (p >= e || *p != '"')
    return perr(c, p, "expected '\"' to close the node id");
  *pp = p + 1;
  return FL_OK;
}

static uint32_t kind_of_letter(char k) {
  return k == 'S' ? FL_NODE_SWITCH : k == 'R' ? FL_NODE_ROUTER : FL_NODE_CA;
}

/* "4xHDR", "??SDR", "4x???", "?????": width lanes and speed code. */
static int parse_width_speed(pctx *c, const char *p, const char *e,
                             uint8_t *width, uint8_t *speed) {
  const char *s = p;
  uint32_t w = 0;
  if (starts_with(p, e, "??")) {
    s = p + 2;
  } else {
    while (s < e && *s >= '0' && *s <= '9')
      s++;
    if (s < e && (*s == 'x' || *s == 'X'))
      s++;
    w = fl_width_parse(p, (size_t)(s - p));
    if (w == 0)
      return perr(c, p,
                  "expected a link width (1x 2x 4x 8x 12x or \?\?) in \"%.*s\"",
                  EXCERPT(p, e));
  }
  uint32_t sp = 0;
  if (!(e - s == 3 && memcmp(s, "???", 3) == 0)) {
    sp = fl_speed_parse(s, (size_t)(e - s));
    if (sp == FL_SPEED_UNKNOWN || sp > FL_SPEED_XDR)
      return perr(c, s,
                  "expected a link speed (SDR DDR QDR FDR10 FDR EDR HDR NDR "
                  "XDR or \?\?\?) in \"%.*s\"",
                  EXCERPT(p, e));
  }
  *width = (uint8_t)w;
  *speed = (uint8_t)sp;
  return FL_OK;
}

/* ======================================================================
 * ibnetdiscover topology output
 * ====================================================================== */

/* Id lines seen since the last header (out_ids() and the guid line). */
typedef struct pending {
  uint64_t sysimg, guid, pguid;
  uint32_t vendid, devid, guid_line;
  uint32_t guid_kind; /* FL_NODE_* of the switchguid/caguid/rtguid line */
  uint8_t has_vendid, has_devid, has_sysimg, has_guid, has_pguid;
} pending;

typedef struct ibnd {
  pctx c;
  fl_lstate s;
  const text *t;
  pending pend;
  uint32_t cur;        /* node index of the current block, UINT32_MAX none */
  uint32_t cur_line;   /* its header line */
  uint32_t noise;      /* skipped non-topology lines */
  uint32_t noise_line; /* the first of them */
  uint32_t blocks;     /* node blocks seen so far */
} ibnd;

static int pending_any(const pending *p) {
  return p->has_vendid || p->has_devid || p->has_sysimg || p->has_guid;
}

/* After an id value: blanks, then an optional "# comment" (-g mode). */
static int id_line_tail(pctx *c, const char *p, const char *e) {
  p = skip_ws(p, e);
  if (p < e && *p != '#')
    return perr(c, p, "unexpected text \"%.*s\" after the value",
                EXCERPT(p, e));
  return FL_OK;
}

/* vendid= devid= sysimgguid= switchguid= caguid= rtguid= */
static int ib_id_line(ibnd *b, const char *p, const char *e) {
  pctx *c = &b->c;
  pending *pd = &b->pend;
  uint64_t v;
  int rc;
  c->what = "node id";
  if (starts_with(p, e, "vendid=") || starts_with(p, e, "devid=")) {
    int ven = *p == 'v';
    p += ven ? 7 : 6;
    if ((rc = parse_0xhex(c, &p, e, &v, ven ? "vendid" : "devid")))
      return rc;
    if (v > 0xffffffffull)
      return perr(c, p, "%s does not fit in 32 bits", ven ? "vendid" : "devid");
    if (ven) {
      pd->vendid = (uint32_t)v;
      pd->has_vendid = 1;
    } else {
      pd->devid = (uint32_t)v;
      pd->has_devid = 1;
    }
    return id_line_tail(c, p, e);
  }
  if (starts_with(p, e, "sysimgguid=")) {
    p += 11;
    if ((rc = parse_0xhex(c, &p, e, &pd->sysimg, "sysimgguid")))
      return rc;
    pd->has_sysimg = 1;
    return id_line_tail(c, p, e);
  }
  uint32_t kind = *p == 's'   ? FL_NODE_SWITCH
                  : *p == 'c' ? FL_NODE_CA
                              : FL_NODE_ROUTER;
  p = memchr(p, '=', (size_t)(e - p)) + 1;
  if ((rc = parse_0xhex(c, &p, e, &pd->guid, "the node GUID")))
    return rc;
  pd->has_guid = 1;
  pd->guid_kind = kind;
  pd->guid_line = c->lineno;
  /* ibnetdiscover before 1.3 (2006) printed "switchguid=0x..." without
   * "(port GUID)": accepted, the port GUID is then unknown */
  if (kind == FL_NODE_SWITCH && (p >= e || *p != '('))
    return id_line_tail(c, p, e);
  if (kind == FL_NODE_SWITCH) {
    if (p >= e || *p != '(')
      return perr(c, p, "expected \"(\" and the port GUID after switchguid");
    p++;
    const char *d = p;
    int n = scan_hex(&p, e, &pd->pguid);
    if (n == 0 || n > 16)
      return perr(c, d, "port GUID is not 1 to 16 hex digits");
    if (p >= e || *p != ')')
      return perr(c, p, "expected \")\" after the port GUID");
    p++;
    pd->has_pguid = 1;
  }
  return id_line_tail(c, p, e);
}

/* " (base|enhanced) port 0 lid N lmc N" after a switch description. */
static int ib_switch_tail(pctx *c, const char *p, const char *e, uint32_t *lid,
                          uint32_t *lmc, int *has) {
  const char *q;
  int rc;
  *has = 0;
  if (p >= e)
    return FL_OK;
  if (!(q = match_word(p, e, "base")) && !(q = match_word(p, e, "enhanced")))
    return perr(c, p,
                "expected \"base port 0\" or \"enhanced port 0\" after "
                "the switch description");
  p = skip_ws(q, e);
  if (!(q = match_word(p, e, "port")))
    return perr(c, p, "expected \"port 0\"");
  p = skip_ws(q, e);
  if (!(q = match_word(p, e, "0")))
    return perr(c, p, "expected \"port 0\"");
  p = skip_ws(q, e);
  if (!(q = match_word(p, e, "lid")))
    return perr(c, p, "expected \"lid\" after \"port 0\"");
  p = skip_ws(q, e);
  if ((rc = parse_num(c, &p, e, 0, MAX_LID, "LID", lid)))
    return rc;
  p = skip_ws(p, e);
  if (!(q = match_word(p, e, "lmc")))
    return perr(c, p, "expected \"lmc\" after the switch LID");
  p = skip_ws(q, e);
  if ((rc = parse_num(c, &p, e, 0, MAX_LMC, "LMC", lmc)))
    return rc;
  p = skip_ws(p, e);
  if (p < e)
    return perr(c, p, "unexpected text \"%.*s\" at the end of the header",
                EXCERPT(p, e));
  *has = 1;
  return FL_OK;
}

/* Everything about the header that is not the fabric call. */
typedef struct header {
  uint64_t guid;
  uint32_t nports, lid, lmc;
  const char *desc;
  size_t desc_len;
  int has_lid;
} header;

static int ib_parse_header(pctx *c, const char *p, const char *e, uint32_t kind,
                           header *h) {
  int rc;
  char k;
  p = skip_ws(p, e);
  if ((rc = parse_num(c, &p, e, 1, MAX_PORT, "port count", &h->nports)))
    return rc;
  p = skip_ws(p, e);
  if ((rc = parse_quoted_id(c, &p, e, &k, &h->guid)))
    return rc;
  if (k == '?' || kind_of_letter(k) != kind)
    return perr(c, p - 20, "node id \"%c-\" does not match the %s header", k,
                fl_node_kind_name(kind));
  p = skip_ws(p, e);
  if (p >= e)
    return FL_OK; /* no comment: generated files */
  if (*p != '#')
    return perr(c, p, "expected \"#\" and the quoted node description");
  p = skip_ws(p + 1, e);
  if (p >= e || *p != '"')
    return perr(c, p, "expected '\"' before the node description");
  const char *q = last_quote(p + 1, e);
  if (!q)
    return perr(c, e, "expected '\"' to close the node description");
  h->desc = p + 1;
  h->desc_len = (size_t)(q - p - 1);
  p = skip_ws(q + 1, e);
  if (kind == FL_NODE_SWITCH)
    return ib_switch_tail(c, p, e, &h->lid, &h->lmc, &h->has_lid);
  if (starts_with(p, e, "(scp)")) /* Xsigo, -g only */
    p = skip_ws(p + 5, e);
  if (p < e)
    return perr(c, p, "unexpected text \"%.*s\" after the node description",
                EXCERPT(p, e));
  return FL_OK;
}

/* Check the pending guid line against the header's id. A 2006-era
 * "switchguid=0x..." (no "(port GUID)") that disagrees is loaded with the
 * header's id, which every port line names the node by, and said in a
 * note; in the modern form both come from the same NodeInfo GUID
 * (ibnetdiscover.c out_switch()), so a disagreement is an input error. */
static int ib_check_guid_line(ibnd *b, uint32_t kind, uint64_t guid) {
  const pending *pd = &b->pend;
  if (!pd->has_guid)
    return FL_OK;
  if (pd->guid_kind != kind)
    return perr(&b->c, b->c.ls,
                "%s header follows a guid line of another kind (line %u)",
                fl_node_kind_name(kind), pd->guid_line);
  if (pd->guid == guid)
    return FL_OK;
  if (kind == FL_NODE_SWITCH && !pd->has_pguid) {
    fl_b_note(b->c.fab, "topology", (fl_prov){b->c.file, pd->guid_line, 1},
              "switchguid=0x%llx (old form, no port GUID) differs from the "
              "id S-%016llx of its Switch header on line %u; the header's "
              "id is used, as every port line names the switch by it",
              (unsigned long long)pd->guid, (unsigned long long)guid,
              b->c.lineno);
    return FL_OK;
  }
  return perr(&b->c, b->c.ls,
              "header id %016llx does not match the GUID 0x%llx on line %u",
              (unsigned long long)guid, (unsigned long long)pd->guid,
              pd->guid_line);
}

static int ib_header(ibnd *b, const char *p, const char *e, uint32_t kind,
                     size_t kwlen) {
  pctx *c = &b->c;
  header h;
  memset(&h, 0, sizeof h);
  c->what = "header";
  int rc = ib_parse_header(c, p + kwlen, e, kind, &h);
  if (rc == FL_OK)
    rc = ib_check_guid_line(b, kind, h.guid);
  if (rc)
    return rc;
  uint32_t idx =
      fl_ls_add_node(&b->s, c->fab, kind, h.guid, h.nports, prov_here(c));
  if (idx == UINT32_MAX)
    return oom(c);
  fl_lnode *n = &b->s.nodes[idx];
  n->has_block = 1;
  if (fl_u64map_put(&b->s.by_guid, h.guid, idx) == FL_MAP_ABSENT)
    return oom(c);
  if (h.desc)
    fl_b_node_set_desc(c->fab, n->id, h.desc, h.desc_len);
  pending *pd = &b->pend;
  if (pd->has_vendid || pd->has_devid || pd->has_sysimg)
    fl_b_node_set_ids(c->fab, n->id, pd->vendid, pd->devid, pd->sysimg);
  if (kind == FL_NODE_SWITCH && (h.has_lid || pd->has_pguid)) {
    fl_id p0 = fl_b_port(c->fab, n->id, 0, prov_here(c));
    if (p0 == FL_NONE)
      return oom(c);
    if (pd->has_pguid)
      fl_b_port_set_guid(c->fab, p0, pd->pguid);
    if (h.has_lid)
      fl_b_port_set_lid(c->fab, p0, h.lid, h.lmc);
  }
  memset(pd, 0, sizeof *pd);
  b->cur = idx;
  b->cur_line = c->lineno;
  return FL_OK;
}

/* "[ext N]" (-g, Voltaire/MF0 boards): skipped. */
static int ib_skip_ext(pctx *c, const char **pp, const char *e) {
  const char *p = *pp;
  if (!starts_with(p, e, "[ext"))
    return FL_OK;
  p = skip_ws(p + 4, e);
  uint32_t v;
  int rc = parse_num(c, &p, e, 0, 0xffffffffu, "external port number", &v);
  if (rc)
    return rc;
  if (p >= e || *p != ']')
    return perr(c, p, "expected \"]\" after the external port number");
  *pp = skip_ws(p + 1, e);
  return FL_OK;
}

/* "(HEX)" port GUID, optional. */
static int ib_opt_pguid(pctx *c, const char **pp, const char *e, uint64_t *g) {
  const char *p = *pp;
  if (p >= e || *p != '(')
    return FL_OK;
  p++;
  const char *d = p;
  int n = scan_hex(&p, e, g);
  if (n == 0 || n > 16)
    return perr(c, d, "port GUID is not 1 to 16 hex digits");
  if (p >= e || *p != ')')
    return perr(c, p, "expected \")\" after the port GUID");
  *pp = skip_ws(p + 1, e);
  return FL_OK;
}

/* "(LABEL)" after the local port number: the front-panel label ibdiagnet
 * writes in its .ibnetdiscover ("[1](1/1/1)": Quantum-2 ASIC/cage/port
 * [/split], "[1](1)" on a CA, whose port GUID then follows in a second
 * group: "[1](1)(b0cf0e0300e5b948)"; the file's header explains the
 * numbering). ibnetdiscover itself writes no label: a switch port line has
 * no group there, a CA's one group is its port GUID. So a group is a label
 * when a second group follows it, or on a switch's line. The label is
 * borrowed from the line into *@lab and *@lablen (0: none). */
static int ib_opt_label(pctx *c, const char **pp, const char *e, int on_switch,
                        const char **lab, size_t *lablen) {
  const char *p = *pp, *q;
  *lablen = 0;
  if (p >= e || *p != '(')
    return FL_OK;
  for (q = p + 1; q < e && *q != ')' && *q != '(' && *q != '"'; q++)
    ;
  if (q >= e || *q != ')')
    return FL_OK; /* not a label: ib_opt_pguid() says what is wrong */
  if (!(on_switch || (q + 1 < e && q[1] == '(')))
    return FL_OK; /* a CA's port GUID */
  if (q == p + 1 || q - p - 1 > 64)
    return perr(c, p + 1,
                "port label in \"(...)\" is empty or longer than 64 "
                "characters");
  *lab = p + 1;
  *lablen = (size_t)(q - p - 1);
  *pp = q + 1;
  return FL_OK;
}

/* "[N]" port number in 1..255. */
static int ib_port_num(pctx *c, const char **pp, const char *e, uint32_t *port,
                       const char *what) {
  const char *p = *pp;
  if (p >= e || *p != '[')
    return perr(c, p, "expected \"[\" and the %s port number", what);
  p++;
  int rc = parse_num(c, &p, e, 1, MAX_PORT, "port number", port);
  if (rc)
    return rc;
  if (p >= e || *p != ']')
    return perr(c, p, "expected \"]\" after port number");
  *pp = p + 1;
  return FL_OK;
}

/* Local "lid N lmc N" of CA/router port lines. */
static int ib_local_lid(pctx *c, const char **pp, const char *e, fl_listing *l,
                        uint32_t *lid, uint32_t *lmc) {
  const char *p = *pp, *q;
  int rc;
  (void)l;
  if (!(q = match_word(p, e, "lid")))
    return 0;
  p = skip_ws(q, e);
  if ((rc = parse_num(c, &p, e, 0, MAX_LID, "LID", lid)))
    return rc;
  p = skip_ws(p, e);
  if (!(q = match_word(p, e, "lmc")))
    return perr(c, p, "expected \"lmc\" after the local LID");
  p = skip_ws(q, e);
  if ((rc = parse_num(c, &p, e, 0, MAX_LMC, "LMC", lmc)))
    return rc;
  *pp = skip_ws(p, e);
  return 1;
}

/* After the peer description: lid N [WxS] [s= w= v=] [slot N|(scp)]. */
static int ib_port_tail(pctx *c, const char *p, const char *e, fl_listing *l) {
  const char *q;
  int rc;
  uint32_t v;
  p = skip_ws(p, e);
  if (!(q = match_word(p, e, "lid")))
    return perr(c, p, "expected \"lid\" after the peer description");
  p = skip_ws(q, e);
  if ((rc = parse_num(c, &p, e, 0, MAX_LID, "peer LID", &l->peer_lid)))
    return rc;
  l->has_lid = 1;
  p = skip_ws(p, e);
  if (p < e && !starts_with(p, e, "s=")) {
    q = p;
    while (q < e && !is_blank(*q))
      q++;
    if ((rc = parse_width_speed(c, p, q, &l->width, &l->speed)))
      return rc;
    p = skip_ws(q, e);
  }
  if (starts_with(p, e, "s=")) { /* -f: s=<speed> w=<width> v=<vlcap> */
    static const char *const keys[3] = {"s=", "w=", "v="};
    for (int i = 0; i < 3; i++) {
      if (!starts_with(p, e, keys[i]))
        return perr(c, p, "expected \"%s\" in the -f suffix", keys[i]);
      p += 2;
      if ((rc = parse_num(c, &p, e, 0, 0xffffffffu, "-f value", &v)))
        return rc;
      p = skip_ws(p, e);
    }
  }
  if ((q = match_word(p, e, "slot"))) { /* Xsigo */
    p = skip_ws(q, e);
    if ((rc = parse_num(c, &p, e, 0, 0xffffffffu, "slot", &v)))
      return rc;
    p = skip_ws(p, e);
  } else if (starts_with(p, e, "(scp)")) {
    p = skip_ws(p + 5, e);
  }
  if (p < e)
    return perr(c, p, "unexpected text \"%.*s\" at the end of the port line",
                EXCERPT(p, e));
  return FL_OK;
}

/* The parse of one port line into @l (no fabric calls). */
static int ib_parse_port(ibnd *b, const char *p, const char *e, fl_listing *l,
                         uint64_t *pguid, uint32_t *lid, uint32_t *lmc,
                         int *has_lid, const char **lab, size_t *lablen) {
  pctx *c = &b->c;
  uint32_t port, peer_port;
  char k;
  int rc;
  if ((rc = ib_port_num(c, &p, e, &port, "local")))
    return rc;
  p = skip_ws(p, e);
  int on_switch = b->s.nodes[b->cur].kind == FL_NODE_SWITCH;
  if ((rc = ib_skip_ext(c, &p, e)) ||
      (rc = ib_opt_label(c, &p, e, on_switch, lab, lablen)) ||
      (rc = ib_opt_pguid(c, &p, e, pguid)))
    return rc;
  p = skip_ws(p, e);
  if ((rc = parse_quoted_id(c, &p, e, &k, &l->peer_guid)))
    return rc;
  if ((rc = ib_port_num(c, &p, e, &peer_port, "peer")))
    return rc;
  p = skip_ws(p, e);
  if ((rc = ib_skip_ext(c, &p, e)) ||
      (rc = ib_opt_pguid(c, &p, e, &l->peer_pguid)))
    return rc;
  p = skip_ws(p, e);
  if (p >= e || *p != '#')
    return perr(c, p, "expected \"#\" before the peer description");
  p = skip_ws(p + 1, e);
  if ((*has_lid = ib_local_lid(c, &p, e, l, lid, lmc)) < 0)
    return *has_lid;
  if (p >= e || *p != '"')
    return perr(c, p, "expected '\"' before the peer description");
  const char *q = last_quote(p + 1, e);
  if (!q)
    return perr(c, e, "expected '\"' to close the peer description");
  l->desc_off = (uint32_t)(p + 1 - b->t->buf);
  l->desc_len = (uint32_t)(q - p - 1);
  l->port = (uint16_t)port;
  l->peer_port = (uint16_t)peer_port;
  l->peer_kind = (uint8_t)k;
  return ib_port_tail(c, q + 1, e, l);
}

static int ib_port_line(ibnd *b, const char *p, const char *e) {
  pctx *c = &b->c;
  c->what = "port";
  if (b->cur == UINT32_MAX)
    return perr(c, p, "port line before any Switch/Ca/Rt header");
  if (pending_any(&b->pend))
    return perr(c, p,
                "port line between node id lines and their Switch/Ca/Rt "
                "header");
  fl_listing *l = fl_ls_add_listing(&b->s);
  if (!l)
    return oom(c);
  uint64_t pguid = 0;
  uint32_t lid = 0, lmc = 0;
  int has_lid = 0;
  const char *lab = NULL;
  size_t lablen = 0;
  int rc =
      ib_parse_port(b, p, e, l, &pguid, &lid, &lmc, &has_lid, &lab, &lablen);
  if (rc)
    return rc;
  l->node = b->cur;
  l->file = c->file;
  l->line = c->lineno;
  fl_id pid = fl_b_port(c->fab, b->s.nodes[b->cur].id, l->port, prov_here(c));
  if (pid == FL_NONE)
    return oom(c);
  if (pguid)
    fl_b_port_set_guid(c->fab, pid, pguid);
  if (has_lid)
    fl_b_port_set_lid(c->fab, pid, lid, lmc);
  if (lablen)
    fl_b_port_set_label(c->fab, pid, lab, lablen);
  return FL_OK;
}

/* A line that is not topology: fine, unless it carries a node id. */
static int ib_noise(ibnd *b, const char *p, const char *e) {
  for (const char *q = p; q + 19 < e; q++) {
    if (q[0] != '"' || !strchr("SHR?", q[1]) || q[1] == '\0' || q[2] != '-')
      continue;
    int ok = 1;
    for (int i = 3; i < 19 && ok; i++)
      ok = hexval(q[i]) >= 0;
    if (ok && q[19] == '"')
      return perr(&b->c, p,
                  "unrecognised line with a node id: expected a Switch/Ca/Rt "
                  "header or a \"[port]\" line");
  }
  if (b->noise++ == 0)
    b->noise_line = b->c.lineno;
  return FL_OK;
}

static int header_kw(const char *p, const char *e, const char *kw) {
  size_t n = strlen(kw);
  if ((size_t)(e - p) <= n || memcmp(p, kw, n) != 0)
    return 0;
  char ch = p[n];
  return is_blank(ch) || (ch >= '0' && ch <= '9');
}

/* The banner ibnetdiscover prints once, before the first block
 * (ibnetdiscover.c dump_topology(): "# Topology file: generated on ..."):
 * met again after blocks, the file holds two captures (`ibnetdiscover >>
 * topo.txt` run twice). Merged, every node would be listed twice: thousands
 * of duplicate-GUID and one-sided "faults" that are one mistake. */
static int ib_comment(ibnd *b, const char *p, const char *e) {
  static const char banner[] = "Topology file:";
  p = skip_ws(p + 1, e);
  if (b->blocks && (size_t)(e - p) >= sizeof banner - 1 &&
      memcmp(p, banner, sizeof banner - 1) == 0)
    return perr(&b->c, p,
                "a second ibnetdiscover banner \"# Topology file:\" after %u "
                "node block(s): the file holds two captures (appended with "
                ">>?); give one capture per file",
                b->blocks);
  return FL_OK;
}

static int ib_line(ibnd *b) {
  const char *p = skip_ws(b->c.ls, b->c.le), *e = b->c.le;
  if (p < e && *p == '#')
    return ib_comment(b, p, e);
  if (p >= e)
    return FL_OK;
  if (*p == '[' && p + 1 < e && p[1] >= '0' && p[1] <= '9')
    return ib_port_line(b, p, e);
  if (header_kw(p, e, "Switch"))
    return b->blocks++, ib_header(b, p, e, FL_NODE_SWITCH, 6);
  if (header_kw(p, e, "Ca"))
    return b->blocks++, ib_header(b, p, e, FL_NODE_CA, 2);
  if (header_kw(p, e, "Rt"))
    return b->blocks++, ib_header(b, p, e, FL_NODE_ROUTER, 2);
  /* -g: "Chassis N (guid 0x...)" and "Non-Chassis Nodes" open groups
   * (out_chassis(), dump_topology()); the blocks follow */
  if (header_kw(p, e, "Chassis") || starts_with(p, e, "Non-Chassis Nodes"))
    return FL_OK;
  static const char *const ids[] = {
      "vendid=", "devid=", "sysimgguid=", "switchguid=", "caguid=", "rtguid="};
  for (size_t i = 0; i < sizeof ids / sizeof *ids; i++)
    if (starts_with(p, e, ids[i]))
      return ib_id_line(b, p, e);
  return ib_noise(b, p, e);
}

/* Peers that have no block: create them from what the port line says. */
static int ib_resolve_peers(ibnd *b) {
  fl_lstate *s = &b->s;
  for (size_t i = 0; i < s->nl; i++) {
    fl_listing *l = &s->ls[i];
    uint32_t idx = fl_u64map_get(&s->by_guid, l->peer_guid);
    if (idx == FL_MAP_ABSENT) {
      fl_prov prov = {l->file, l->line, 1};
      idx = fl_ls_add_node(s, b->c.fab, kind_of_letter((char)l->peer_kind),
                           l->peer_guid, 0, prov);
      if (idx == UINT32_MAX ||
          fl_u64map_put(&s->by_guid, l->peer_guid, idx) == FL_MAP_ABSENT)
        return FL_ENOMEM;
      fl_b_node_set_desc(b->c.fab, s->nodes[idx].id, b->t->buf + l->desc_off,
                         l->desc_len);
      l = &s->ls[i];
    }
    l->peer = idx;
  }
  return FL_OK;
}

static int ib_finish(ibnd *b) {
  pctx *c = &b->c;
  if (pending_any(&b->pend))
    return fl_error_set(c->err, FL_EPARSE, c->path, c->lineno, 0,
                        "truncated: file ends after node id lines without "
                        "their Switch/Ca/Rt header");
  if (b->s.nn == 0)
    return fl_error_set(c->err, FL_EPARSE, c->path, c->lineno ? 1 : 0, 0,
                        "no Switch/Ca/Rt node found: not ibnetdiscover "
                        "topology output");
  if (ib_resolve_peers(b) || fl_ls_merge_links(&b->s, c->fab))
    return fl_error_set(c->err, FL_ENOMEM, c->path, 0, 0, "out of memory");
  if (b->noise) /* prompts, ibwarn: and -s progress lines, banners */
    fl_b_note(c->fab, "topology", (fl_prov){c->file, b->noise_line, 1},
              "%u line(s) that are not ibnetdiscover output were skipped "
              "(the first is line %u)",
              b->noise, b->noise_line);
  return FL_OK;
}

int fl_load_ibnetdiscover(fl_fabric *fab, const fl_input *in,
                          const fl_load_options *opts, fl_error *err) {
  const char *path = in->path;
  text t = text_of(in);
  int rc;
  ibnd b;
  memset(&b, 0, sizeof b);
  b.t = &t;
  b.cur = UINT32_MAX;
  rc = reject_cache_file(&t, path, err);
  if (rc == FL_OK)
    rc = fl_ls_names(&b.s, opts, err);
  if (rc == FL_OK) {
    pctx_init(&b.c, fab, path, &t, err);
    while (rc == FL_OK && next_line(&b.c))
      rc = ib_line(&b);
    if (rc == FL_OK && b.c.nul)
      rc = fl_input_nul_check(in, err);
    else if (rc == FL_OK)
      rc = ib_finish(&b);
  }
  fl_ls_free(&b.s);
  return rc;
}

/* ======================================================================
 * ibnetdiscover -p ports report (dump_ports_report)
 *
 *   %2s %5d %2d 0x%016x %s %s - %2s %5d %2d 0x%016x ( '%s' - '%s' )
 *   %2s %5d %2d 0x%016x %s %s<36 blanks>'%s'
 *
 * Node identity: the report has no node GUIDs. A switch is keyed by its port
 * GUID (all ports of a switch share the port-0 GUID). A CA or router port
 * is keyed by port GUID - port number: libibnetdisc/firmware give port n of
 * a multi-port HCA the GUID node_guid + n (mlx4, InfiniHost), so both ports
 * of one HCA share the key, while single-port functions (mlx5) get distinct
 * keys. Switch nodes get their port GUID as node GUID; CA/router node GUIDs
 * stay unknown (0).
 * ====================================================================== */

typedef struct pside {
  uint32_t kind, lid, port;
  uint64_t pguid;
} pside;

typedef struct preport {
  pctx c;
  fl_lstate s;
  uint32_t noise, noise_line; /* lines that are no port line */
  fl_u64map keys[4];          /* per FL_NODE_* kind: key -> node index */
} preport;

static int pr_type(const char *p, const char *e, uint32_t *kind) {
  if (e - p < 2)
    return 0;
  if (!memcmp(p, "SW", 2))
    *kind = FL_NODE_SWITCH;
  else if (!memcmp(p, "CA", 2))
    *kind = FL_NODE_CA;
  else if (!memcmp(p, "RT", 2))
    *kind = FL_NODE_ROUTER;
  else if (!memcmp(p, "??", 2))
    *kind = FL_NODE_CA;
  else
    return 0;
  return p + 2 == e || is_blank(p[2]);
}

/* TYPE LID PORT 0xGUID */
static int pr_side(pctx *c, const char **pp, const char *e, pside *sd) {
  const char *p = *pp;
  int rc;
  if (!pr_type(p, e, &sd->kind))
    return perr(c, p, "expected a node type (SW, CA, RT or \?\?)");
  p = skip_ws(p + 2, e);
  if ((rc = parse_num(c, &p, e, 0, MAX_LID, "LID", &sd->lid)))
    return rc;
  p = skip_ws(p, e);
  if ((rc = parse_num(c, &p, e, 1, MAX_PORT, "port number", &sd->port)))
    return rc;
  p = skip_ws(p, e);
  if ((rc = parse_0xhex(c, &p, e, &sd->pguid, "the port GUID")))
    return rc;
  *pp = skip_ws(p, e);
  return FL_OK;
}

/* "4x EDR": width and speed as two tokens. */
static int pr_width_speed(pctx *c, const char **pp, const char *e, uint8_t *w,
                          uint8_t *s) {
  const char *p = *pp, *q = p;
  while (q < e && !is_blank(*q))
    q++;
  const char *r = skip_ws(q, e), *t = r;
  while (t < e && !is_blank(*t))
    t++;
  if (q == p || t == r)
    return perr(c, p, "expected a width and a speed (e.g. \"4x EDR\")");
  /* reuse the joined parser on a small buffer "4xEDR" */
  char buf[32];
  size_t n1 = (size_t)(q - p), n2 = (size_t)(t - r);
  if (n1 + n2 >= sizeof buf)
    return perr(c, p, "expected a width and a speed (e.g. \"4x EDR\")");
  memcpy(buf, p, n1);
  memcpy(buf + n1, r, n2);
  pctx tmp = *c; /* columns would point into buf: report at p instead */
  int rc = parse_width_speed(&tmp, buf, buf + n1 + n2, w, s);
  if (rc) {
    fl_error_clear(c->err);
    return perr(c, p,
                "expected a width (1x 2x 4x 8x 12x \?\?) and a speed "
                "(SDR ... XDR, \?\?\?), got \"%.*s\"",
                EXCERPT(p, t));
  }
  *pp = skip_ws(t, e);
  return FL_OK;
}

/* Find or create the node of @sd; @desc names it on creation. */
static uint32_t pr_node(preport *r, const pside *sd, const char *desc,
                        size_t dlen) {
  uint64_t key = sd->kind == FL_NODE_SWITCH ? sd->pguid : sd->pguid - sd->port;
  uint32_t idx = fl_u64map_get(&r->keys[sd->kind], key);
  if (idx != FL_MAP_ABSENT)
    return idx;
  uint64_t guid = sd->kind == FL_NODE_SWITCH ? sd->pguid : 0;
  idx = fl_ls_add_node(&r->s, r->c.fab, sd->kind, guid, 0, prov_here(&r->c));
  if (idx == UINT32_MAX ||
      fl_u64map_put(&r->keys[sd->kind], key, idx) == FL_MAP_ABSENT)
    return UINT32_MAX;
  fl_id id = r->s.nodes[idx].id;
  fl_b_node_set_desc(r->c.fab, id, desc, dlen);
  if (sd->kind != FL_NODE_SWITCH && r->s.have_names) {
    const char *nm = fl_nodemap_lookup(&r->s.names, key);
    if (!nm)
      nm = fl_nodemap_lookup(&r->s.names, sd->pguid);
    if (nm)
      fl_b_node_set_name(r->c.fab, id, nm, (size_t)-1);
  }
  return idx;
}

/* "( 'a' - 'b' )" or "( a - b )": the two descriptions. */
static int pr_descs(pctx *c, const char *p, const char *e, const char **d1,
                    size_t *l1, const char **d2, size_t *l2) {
  if (p >= e || *p != '(')
    return perr(c, p, "expected \"( '\" before the descriptions");
  while (e > p && is_blank(e[-1]))
    e--;
  if (e[-1] != ')')
    return perr(c, e, "expected \")\" at the end of the line");
  p = skip_ws(p + 1, e);
  const char *ce = e - 1;
  while (ce > p && is_blank(ce[-1]))
    ce--;
  int quoted = p < ce && *p == '\'' && ce[-1] == '\'' && ce - 1 > p;
  const char *sep = quoted ? "' - '" : " - ";
  size_t sl = strlen(sep);
  const char *a = quoted ? p + 1 : p, *z = quoted ? ce - 1 : ce;
  for (const char *q = a; q + sl <= z; q++) {
    if (memcmp(q, sep, sl) == 0) {
      *d1 = a;
      *l1 = (size_t)(q - a);
      *d2 = q + sl;
      *l2 = (size_t)(z - q - sl);
      return FL_OK;
    }
  }
  return perr(c, p, "expected \"' - '\" between the two descriptions");
}

static int pr_local_port(preport *r, uint32_t idx, const pside *sd) {
  fl_lnode *n = &r->s.nodes[idx];
  n->has_block = 1;
  fl_fabric *fab = r->c.fab;
  fl_id pid = fl_b_port(fab, n->id, sd->port, prov_here(&r->c));
  if (pid == FL_NONE)
    return oom(&r->c);
  if (n->kind == FL_NODE_SWITCH) {
    fl_id p0 = fl_b_port(fab, n->id, 0, prov_here(&r->c));
    if (p0 == FL_NONE)
      return oom(&r->c);
    fl_b_port_set_guid(fab, p0, sd->pguid);
    fl_b_port_set_lid(fab, p0, sd->lid, 0);
  } else {
    fl_b_port_set_guid(fab, pid, sd->pguid);
    fl_b_port_set_lid(fab, pid, sd->lid, 0);
  }
  return FL_OK;
}

static int pr_line(preport *r, const char *p, const char *e) {
  pctx *c = &r->c;
  pside a, b;
  uint8_t w, s;
  int rc;
  c->what = "port";
  if ((rc = pr_side(c, &p, e, &a)) || (rc = pr_width_speed(c, &p, e, &w, &s)))
    return rc;
  if (p < e && *p == '-' && p + 1 < e && is_blank(p[1])) {
    p = skip_ws(p + 1, e);
    if ((rc = pr_side(c, &p, e, &b)))
      return rc;
    const char *d1 = NULL, *d2 = NULL;
    size_t l1 = 0, l2 = 0;
    if ((rc = pr_descs(c, p, e, &d1, &l1, &d2, &l2)))
      return rc;
    uint32_t ia = pr_node(r, &a, d1, l1);
    uint32_t ib = ia == UINT32_MAX ? ia : pr_node(r, &b, d2, l2);
    if (ib == UINT32_MAX || pr_local_port(r, ia, &a))
      return oom(c);
    fl_listing *l = fl_ls_add_listing(&r->s);
    if (!l)
      return oom(c);
    l->node = ia;
    l->peer = ib;
    l->port = (uint16_t)a.port;
    l->peer_port = (uint16_t)b.port;
    l->width = w;
    l->speed = s;
    l->file = c->file;
    l->line = c->lineno;
    l->peer_lid = b.lid;
    l->has_lid = 1;
    l->peer_pguid = b.pguid;
    return FL_OK;
  }
  /* unconnected: blanks then 'desc' (quotes optional in old captures) */
  while (e > p && is_blank(e[-1]))
    e--;
  if (e - p >= 2 && *p == '\'' && e[-1] == '\'') {
    p++;
    e--;
  }
  uint32_t ia = pr_node(r, &a, p, (size_t)(e - p));
  if (ia == UINT32_MAX)
    return oom(c);
  return pr_local_port(r, ia, &a);
}

int fl_load_ibnd_ports(fl_fabric *fab, const fl_input *in,
                       const fl_load_options *opts, fl_error *err) {
  const char *path = in->path;
  text t = text_of(in);
  int rc;
  preport r;
  memset(&r, 0, sizeof r);
  rc = reject_cache_file(&t, path, err);
  if (rc == FL_OK)
    rc = fl_ls_names(&r.s, opts, err);
  if (rc == FL_OK) {
    pctx_init(&r.c, fab, path, &t, err);
    while (rc == FL_OK && next_line(&r.c)) {
      const char *p = skip_ws(r.c.ls, r.c.le);
      uint32_t k;
      if (p < r.c.le && pr_type(p, r.c.le, &k))
        rc = pr_line(&r, p, r.c.le);
      else if (p < r.c.le && r.noise++ == 0)
        r.noise_line = r.c.lineno;
    }
  }
  if (rc == FL_OK && r.noise)
    fl_b_note(fab, "topology", (fl_prov){r.c.file, r.noise_line, 1},
              "%u line(s) that are not ibnetdiscover -p port lines were "
              "skipped (the first is line %u)",
              r.noise, r.noise_line);
  if (rc == FL_OK && r.s.nn == 0)
    rc = fl_error_set(err, FL_EPARSE, path, 0, 0,
                      "no port line found: not an ibnetdiscover -p report");
  if (rc == FL_OK && fl_ls_merge_links(&r.s, fab))
    rc = fl_error_set(err, FL_ENOMEM, path, 0, 0, "out of memory");
  for (int i = 0; i < 4; i++)
    fl_u64map_free(&r.keys[i]);
  fl_ls_free(&r.s);
  return rc;
}

/* ======================================================================
 * ibsim net files (ibsim/sim_net.c parse_netconf)
 *
 * Records: a `Switch N "id"`, `Hca N "id"`/`Ca N "id"` or `Rt N "id"`
 * header, then its port lines `[p] "peer"[rp]` (rp defaults to 1) with
 * optional w=/s=/e= enabled-width/speed/extended-speed masks; '#' lines
 * inside a record are skipped and any other line ends it. Ids are free
 * strings; an optional `# "desc"` after the id gives the description
 * (default: the id). A node is named by its id, except an id of
 * ibnetdiscover's form (S-/H-/R- and 16 hex digits) with a description,
 * which is named by the description as the ibnetdiscover reader names it.
 * Switch headers may carry `lid N lmc N`, CA port lines
 * `# lid N lmc N`. A port line whose comment ends with `lid N 4xQDR`
 * (ibnetdiscover output fed to ibsim) takes width and speed from there.
 * Directives at the start of a line: vendid=, devid=, sysimgguid=, width=,
 * speed=, extspeed= (defaults for following nodes/ports), switchguid=,
 * caguid=/hcaguids=, rtguid= (GUID bases, `=` absolute or `+` relative, as in
 * parse_guidbase()), include "file" (relative to the including file here;
 * at most 9 levels and 1,000 included files in all, cycles rejected), do/pdebug
 * (ignored). Aliases (`@`) and module= prefixes are rejected as unsupported.
 * Other lines are ignored, as ibsim does.
 *
 * GUIDs follow new_node(): a switch takes the switch base and advances it by
 * 1; a CA/router takes its base and advances it by ports + 1; CA port n has
 * GUID node + n; switch ports share the node GUID. Active width/speed of a
 * cable: the best lane count/speed enabled at both ends
 * (get_active_linkwidth(), get_active_linkspeed(); an extended speed when
 * both ends enable one).
 * ====================================================================== */

/* ibsim width bits (LINKWIDTH_*): 1 1x, 2 4x, 4 8x, 8 12x, 16 2x. */
static uint8_t sim_best_width(uint32_t m) {
  return m & 8 ? 12 : m & 4 ? 8 : m & 2 ? 4 : m & 16 ? 2 : m & 1 ? 1 : 0;
}

static uint8_t sim_best_speed(uint32_t s, uint32_t x) {
  if (x & 32)
    return FL_SPEED_XDR;
  if (x & 8)
    return FL_SPEED_NDR;
  if (x & 4)
    return FL_SPEED_HDR;
  if (x & 2)
    return FL_SPEED_EDR;
  if (x & 1)
    return FL_SPEED_FDR;
  return s & 4   ? FL_SPEED_QDR
         : s & 2 ? FL_SPEED_DDR
         : s & 1 ? FL_SPEED_SDR
                 : FL_SPEED_UNKNOWN;
}

typedef struct ibsim {
  fl_lstate s;
  fl_fabric *fab;
  fl_error *err;
  fl_strmap ids;     /* node id string -> id index */
  uint32_t *id_node; /* id index -> node index (UINT32_MAX: no node) */
  size_t id_cap;
  uint64_t base[4], absbase[4]; /* per FL_NODE_* kind */
  uint64_t sysimg;
  uint32_t vendid, devid, width, speed, ext;
  char *stack[IBSIM_MAX_INCLUDE]; /* realpath of the files being read */
  int depth;
  int n_included; /* includes read so far (IBSIM_MAX_FILES) */
  int digest;     /* fl_load_options.digest: record each include's bytes */
  /* of the file being read: lines ibsim ignores, `do` console commands */
  uint32_t ignored, ignored_line, dos, do_line;
} ibsim;

static uint32_t sim_id(ibsim *m, const char *s, size_t len) {
  uint32_t n = (uint32_t)fl_strmap_len(&m->ids);
  uint32_t v = fl_strmap_put(&m->ids, s, len, n);
  if (v == FL_MAP_ABSENT)
    return v;
  if (v == n) {
    if (n >= m->id_cap) {
      size_t cap = m->id_cap ? m->id_cap * 2 : 256;
      uint32_t *nv = realloc(m->id_node, cap * sizeof *nv);
      if (!nv)
        return FL_MAP_ABSENT;
      m->id_node = nv;
      m->id_cap = cap;
    }
    m->id_node[n] = UINT32_MAX;
  }
  return v;
}

/* `"id"`: the text between the first two quotes from p. */
static int sim_quoted(pctx *c, const char **pp, const char *e, const char **s,
                      size_t *len) {
  *s = NULL; /* set on every path: callers read them only on FL_OK */
  *len = 0;
  const char *p = memchr(*pp, '"', (size_t)(e - *pp));
  if (!p)
    return perr(c, *pp, "expected a quoted node id");
  const char *q = memchr(p + 1, '"', (size_t)(e - p - 1));
  if (!q)
    return perr(c, p, "expected '\"' to close the node id");
  *s = p + 1;
  *len = (size_t)(q - p - 1);
  *pp = q + 1;
  return FL_OK;
}

/* An id of ibnetdiscover's own form, S-, H- or R- and 16 hex digits (a
 * dump fed to ibsim, which ibsim reads): it names nothing a person chose,
 * so the node is named by its description, as the ibnetdiscover reader
 * names it, and hosts, systems and rails come out the same (outside
 * tester, session 11: under --input-format ibsim-net the rail demo's hosts
 * were "H-0002c9..." and its crossed pair vanished). */
static int ibnd_style_id(const char *id, size_t len) {
  if (len != 18 || (id[0] != 'S' && id[0] != 'H' && id[0] != 'R') ||
      id[1] != '-')
    return 0;
  for (size_t i = 2; i < len; i++)
    if (!isxdigit((unsigned char)id[i]))
      return 0;
  return 1;
}

/* Value of "<key> N" anywhere in [p, e) (strstr + strtoul in ibsim). */
static int sim_find_num(const char *p, const char *e, const char *key,
                        uint32_t *v) {
  size_t n = strlen(key);
  for (const char *q = p; q + n <= e; q++) {
    if (memcmp(q, key, n) == 0) {
      const char *d = q + n;
      uint64_t x;
      if (!scan_dec(&d, e, &x))
        return 0;
      *v = (uint32_t)x;
      return 1;
    }
  }
  return 0;
}

static int sim_header(ibsim *m, pctx *c, const char *p, const char *e,
                      uint32_t kind, uint32_t *cur) {
  c->what = "header";
  const char *q = p;
  while (q < e && !(*q >= '0' && *q <= '9') && *q != '"')
    q++;
  uint32_t nports;
  int rc = parse_num(c, &q, e, 1, MAX_PORT, "port count", &nports);
  const char *id, *desc = NULL;
  size_t idlen, dlen = 0;
  if (rc || (rc = sim_quoted(c, &q, e, &id, &idlen)))
    return rc;
  const char *hash = memchr(q, '#', (size_t)(e - q));
  if (hash) { /* parse_node_desc() */
    const char *d = skip_ws(hash + 1, e);
    const char *de = NULL;
    if (d < e && *d == '"') {
      d++;
      de = memchr(d, '"', (size_t)(e - d));
    }
    desc = d;
    dlen = (size_t)((de ? de : e) - d);
  }
  uint32_t iid = sim_id(m, id, idlen);
  if (iid == FL_MAP_ABSENT)
    return oom(c);
  if (m->id_node[iid] != UINT32_MAX)
    return perr(c, p, "node id \"%.*s\" is already declared",
                EXCERPT(id, id + idlen));
  uint64_t guid = m->base[kind];
  m->base[kind] += kind == FL_NODE_SWITCH ? 1 : nports + 1;
  uint32_t idx =
      fl_ls_add_node(&m->s, m->fab, kind, guid, nports, prov_here(c));
  if (idx == UINT32_MAX)
    return oom(c);
  m->id_node[iid] = idx;
  fl_lnode *n = &m->s.nodes[idx];
  n->has_block = 1;
  if (!(desc && dlen && ibnd_style_id(id, idlen)))
    fl_b_node_set_name(m->fab, n->id, id, idlen);
  if (m->s.have_names && fl_nodemap_lookup(&m->s.names, guid))
    fl_b_node_set_name(m->fab, n->id, fl_nodemap_lookup(&m->s.names, guid),
                       (size_t)-1);
  fl_b_node_set_desc(m->fab, n->id, desc && dlen ? desc : id,
                     desc && dlen ? dlen : idlen);
  fl_b_node_set_ids(m->fab, n->id, m->vendid, m->devid,
                    m->sysimg ? m->sysimg : guid);
  if (kind == FL_NODE_SWITCH) {
    fl_id p0 = fl_b_port(m->fab, n->id, 0, prov_here(c));
    if (p0 == FL_NONE)
      return oom(c);
    fl_b_port_set_guid(m->fab, p0, guid);
    uint32_t lid = 0, lmc = 0;
    const char *t = desc ? desc + dlen : q;
    if (sim_find_num(t, e, "lid ", &lid)) {
      sim_find_num(t, e, "lmc ", &lmc);
      fl_b_port_set_lid(m->fab, p0, lid > MAX_LID ? 0 : lid, lmc & 7);
    }
  }
  *cur = idx;
  return FL_OK;
}

/* w=/s=/e= options before the comment (parse_port_opt). */
static int sim_options(pctx *c, const char *p, const char *e, fl_listing *l) {
  for (const char *q = p; q < e; q++) {
    if (*q != '=' || q == p || !strchr("wse", q[-1]))
      continue;
    const char *d = q + 1;
    uint64_t v;
    if (starts_with(d, e, "0x")) {
      d += 2;
      if (!scan_hex(&d, e, &v))
        return perr(c, q + 1, "expected a number after %c=", q[-1]);
    } else if (!scan_dec(&d, e, &v)) {
      return perr(c, q + 1, "expected a number after %c=", q[-1]);
    }
    if (q[-1] == 'w' && (v < 1 || v > 31))
      return perr(c, q + 1, "bad enabled width %llu: should be 1 to 31",
                  (unsigned long long)v);
    if (q[-1] == 's' && v > 7)
      return perr(c, q + 1, "bad speed %llu: should be 1 to 7",
                  (unsigned long long)v);
    if (q[-1] == 'e' && v > 63)
      return perr(c, q + 1, "bad extended speed %llu", (unsigned long long)v);
    if (q[-1] == 'w')
      l->wmask = (uint8_t)v;
    else if (q[-1] == 's')
      l->smask = (uint8_t)(v ? v : 4); /* 0 means QDR in ibsim */
    else
      l->emask = (uint8_t)v;
  }
  return FL_OK;
}

/* "lid N WxS" at the end of the comment, after its last quote. */
static void sim_comment_ws(pctx *c, const char *hash, const char *e,
                           fl_listing *l) {
  const char *q = last_quote(hash, e);
  const char *p = q ? q + 1 : hash + 1;
  const char *t = NULL;
  for (const char *r = p; r + 4 <= e; r++)
    if (memcmp(r, "lid ", 4) == 0)
      t = r;
  if (!t)
    return;
  t = skip_ws(t + 4, e);
  uint64_t lid;
  if (!scan_dec(&t, e, &lid))
    return;
  t = skip_ws(t, e);
  const char *z = t;
  while (z < e && !is_blank(*z))
    z++;
  uint8_t w, s;
  pctx tmp = *c;
  fl_error scratch;
  memset(&scratch, 0, sizeof scratch);
  tmp.err = &scratch;
  if (z > t && parse_width_speed(&tmp, t, z, &w, &s) == FL_OK) {
    l->width = w;
    l->speed = s;
    l->explicit_ws = 1;
  }
}

static int sim_port(ibsim *m, pctx *c, const char *p, const char *e,
                    uint32_t cur) {
  c->what = "port";
  const fl_lnode *n = &m->s.nodes[cur];
  const char *q = p + 1;
  uint32_t port, rport = 1, lid = 0, lmc = 0;
  int rc = parse_num(c, &q, e, 1, n->nports, "port number", &port);
  const char *id;
  size_t idlen;
  if (rc == FL_OK && (q >= e || *q != ']'))
    rc = perr(c, q, "expected \"]\" after port number");
  if (rc || (rc = sim_quoted(c, &q, e, &id, &idlen)))
    return rc;
  if (q < e && *q == '[') {
    q++;
    if ((rc = parse_num(c, &q, e, 1, MAX_PORT, "peer port number", &rport)))
      return rc;
    if (q >= e || *q != ']')
      return perr(c, q, "expected \"]\" after port number");
    q++;
  }
  uint32_t iid = sim_id(m, id, idlen);
  fl_listing *l = iid == FL_MAP_ABSENT ? NULL : fl_ls_add_listing(&m->s);
  if (!l)
    return oom(c);
  const char *hash = memchr(q, '#', (size_t)(e - q));
  if ((rc = sim_options(c, q, hash ? hash : e, l)))
    return rc;
  l->node = cur;
  l->peer_guid = iid;
  l->port = (uint16_t)port;
  l->peer_port = (uint16_t)rport;
  l->file = c->file;
  l->line = c->lineno;
  l->wmask = l->wmask ? l->wmask : (uint8_t)m->width;
  l->smask = l->smask ? l->smask : (uint8_t)m->speed;
  l->emask = l->emask ? l->emask : (uint8_t)m->ext;
  if (hash)
    sim_comment_ws(c, hash, e, l);
  fl_id pid = fl_b_port(m->fab, n->id, port, prov_here(c));
  if (pid == FL_NONE)
    return oom(c);
  if (n->kind != FL_NODE_SWITCH) {
    fl_b_port_set_guid(m->fab, pid, n->guid + port);
    if (hash && sim_find_num(hash, e, "lid ", &lid)) {
      sim_find_num(hash, e, "lmc ", &lmc);
      fl_b_port_set_lid(m->fab, pid, lid > MAX_LID ? 0 : lid, lmc & 7);
    }
  }
  return FL_OK;
}

/* "key=N" / "key+N" directives. */
static int sim_assign(pctx *c, const char *p, const char *e, int allow_rel,
                      int *rel, uint64_t *v) {
  const char *q = p;
  while (q < e && *q != '=' && !(allow_rel && *q == '+'))
    q++;
  if (q >= e)
    return perr(c, p, "bad assignment: missing '='%s sign",
                allow_rel ? " or '+'" : "");
  *rel = *q == '+';
  char buf[40];
  const char *d = skip_ws(q + 1, e);
  size_t n =
      (size_t)(e - d) < sizeof buf - 1 ? (size_t)(e - d) : sizeof buf - 1;
  memcpy(buf, d, n);
  buf[n] = '\0';
  char *end;
  *v = strtoull(buf, &end, 0);
  if (end == buf)
    return perr(c, d, "expected a number after '%c'", *q);
  return FL_OK;
}

static int sim_read_file(ibsim *m, const char *path);

static int sim_include(ibsim *m, pctx *c, const char *p, const char *e) {
  const char *s, *z;
  size_t len;
  p = skip_ws(p + 7, e);
  if (p < e && *p == '"') {
    if (sim_quoted(c, &p, e, &s, &len))
      return FL_EPARSE;
  } else {
    for (z = e; z > p && is_blank(z[-1]);)
      z--;
    s = p;
    len = (size_t)(z - p);
  }
  if (len == 0)
    return perr(c, p, "bad include file name");
  const char *slash = strrchr(c->path, '/');
  size_t dlen = (*s == '/' || !slash) ? 0 : (size_t)(slash - c->path + 1);
  char *full = malloc(dlen + len + 1);
  if (!full)
    return oom(c);
  memcpy(full, c->path, dlen);
  memcpy(full + dlen, s, len);
  full[dlen + len] = '\0';
  int rc = sim_read_file(m, full);
  if (rc == FL_EIO || (rc && m->err->line == 0)) {
    /* name the include line as well */
    char msg[FL_ERROR_MSG_MAX];
    snprintf(msg, sizeof msg, "%s", m->err->message);
    int code = m->err->code;
    fl_error_clear(m->err);
    fl_error_set(m->err, code, c->path, c->lineno, 1, "include \"%s\": %s",
                 full, msg);
  }
  free(full);
  return rc;
}

/* One top-level directive line. */
static int sim_directive(ibsim *m, pctx *c, const char *p, const char *e) {
  static const struct {
    const char *kw;
    int kind; /* >0: GUID base of that kind; <0: other */
  } dirs[] = {{"switchguid", FL_NODE_SWITCH},
              {"hcaguids", FL_NODE_CA},
              {"caguid", FL_NODE_CA},
              {"rtguid", FL_NODE_ROUTER},
              {"vendid", -1},
              {"devid", -2},
              {"sysimgguid", -3},
              {"width", -4},
              {"speed", -5},
              {"extspeed", -6}};
  c->what = "directive";
  for (size_t i = 0; i < sizeof dirs / sizeof *dirs; i++) {
    if (!starts_with(p, e, dirs[i].kw))
      continue;
    int rel = 0, k = dirs[i].kind, rc;
    uint64_t v = 0;
    if ((rc = sim_assign(c, p, e, k > 0, &rel, &v)))
      return rc;
    if (k > 0) {
      if (!rel)
        m->absbase[k] = v;
      m->base[k] = m->absbase[k] + (rel ? v : 0);
    } else if (k == -1) {
      m->vendid = (uint32_t)v;
    } else if (k == -2) {
      m->devid = (uint32_t)v;
    } else if (k == -3) {
      m->sysimg = v;
    } else if (k == -4) {
      m->width = (uint32_t)v;
    } else if (k == -5) {
      m->speed = (uint32_t)v;
    } else {
      m->ext = (uint32_t)v;
    }
    return FL_OK;
  }
  if (starts_with(p, e, "include"))
    return sim_include(m, c, p, e);
  if (starts_with(p, e, "module"))
    return perr(c, p, "ibsim module= prefixes are not supported");
  /* ignored, as in ibsim, but counted (sim_parse() notes them): blank and
   * '#' lines are comments, pdebug only sets ibsim's parser tracing */
  const char *q = skip_ws(p, e);
  if (q >= e || *q == '#' || starts_with(p, e, "pdebug"))
    return FL_OK;
  if (starts_with(p, e, "do")) {
    if (m->dos++ == 0)
      m->do_line = c->lineno;
  } else if (m->ignored++ == 0) {
    m->ignored_line = c->lineno;
  }
  return FL_OK;
}

/* A port line of the ibsim console's `Dump` command (sim_cmd.c dump_net):
 * the port GUID in hex, blanks, then "[port]". No net file line looks like
 * this (ibsim would silently ignore it, losing the cable). */
static int is_console_port_line(const char *p, const char *e) {
  const char *q = p;
  while (q < e && isxdigit((unsigned char)*q))
    q++;
  if (q == p || q >= e || (*q != ' ' && *q != '\t'))
    return 0;
  while (q < e && (*q == ' ' || *q == '\t'))
    q++;
  return q < e && *q == '[';
}

/* Console `Dump` output (its "# Net status" title or a port line) given as
 * a net file: refused, since its port lines are no net-file syntax. */
static int sim_console(pctx *c, const char *p, const char *e) {
  if (!starts_with(p, e, "# Net status") && !is_console_port_line(p, e))
    return FL_OK;
  return perr(c, p,
              "ibsim console output, not a net file: this is the text of "
              "the ibsim console's Dump command, whose port lines (\"GUID "
              "[port] ...\") a net file does not have; give the net file "
              "ibsim was started with, or ibnetdiscover output of the "
              "simulated fabric");
}

static int sim_line(ibsim *m, pctx *c, uint32_t *cur) {
  const char *p = c->ls, *e = c->le;
  int rc = sim_console(c, p, e);
  if (rc != FL_OK)
    return rc;
  if (*cur != UINT32_MAX) {
    if (p < e && *p == '#')
      return FL_OK;
    if (p < e && *p == '[')
      return sim_port(m, c, p, e, *cur);
    if (p < e && *p == '@')
      return perr(c, p, "ibsim port aliases (@) are not supported");
    *cur = UINT32_MAX; /* end of record */
  }
  if (p < e && *p == '[')
    return perr(c, p,
                "port line outside a node record (a record ends at the "
                "first line that is not a port line or a comment)");
  if (starts_with(p, e, "Switch"))
    return sim_header(m, c, p + 6, e, FL_NODE_SWITCH, cur);
  if (starts_with(p, e, "Hca"))
    return sim_header(m, c, p + 3, e, FL_NODE_CA, cur);
  if (starts_with(p, e, "Ca"))
    return sim_header(m, c, p + 2, e, FL_NODE_CA, cur);
  if (starts_with(p, e, "Rt"))
    return sim_header(m, c, p + 2, e, FL_NODE_ROUTER, cur);
  return sim_directive(m, c, p, e);
}

/* Parse text @t of file @path (its realpath @real, taken over) as one more
 * level of the include stack. */
static int sim_parse(ibsim *m, const char *path, char *real, text *t) {
  m->stack[m->depth++] = real;
  int rc = reject_cache_file(t, path, m->err);
  pctx c;
  pctx_init(&c, m->fab, path, t, m->err);
  uint32_t cur = UINT32_MAX;
  uint32_t outer[4] = {m->ignored, m->ignored_line, m->dos, m->do_line};
  m->ignored = m->ignored_line = m->dos = m->do_line = 0;
  while (rc == FL_OK && next_line(&c))
    rc = sim_line(m, &c, &cur);
  if (rc == FL_OK && m->ignored)
    fl_b_note(m->fab, "topology", (fl_prov){c.file, m->ignored_line, 1},
              "%u line(s) that are no net-file syntax were ignored, as ibsim "
              "ignores them (the first is line %u)",
              m->ignored, m->ignored_line);
  if (rc == FL_OK && m->dos)
    fl_b_note(m->fab, "topology", (fl_prov){c.file, m->do_line, 1},
              "%u `do` console command(s) were not applied: ibsim runs them "
              "when it reads the file (they may link or unlink ports), "
              "fabriclint loads the cabling as written (the first is line "
              "%u)",
              m->dos, m->do_line);
  m->ignored = outer[0];
  m->ignored_line = outer[1];
  m->dos = outer[2];
  m->do_line = outer[3];
  free(m->stack[--m->depth]);
  return rc;
}

/* An included file: read through the shared reader (size limit, no
 * devices, no NUL byte), within the include budget (depth, file count,
 * no cycle). */
static int sim_read_file(ibsim *m, const char *path) {
  if (m->depth >= IBSIM_MAX_INCLUDE)
    return fl_error_set(m->err, FL_EPARSE, path, 0, 0,
                        "includes nested deeper than %d levels",
                        IBSIM_MAX_INCLUDE);
  if (++m->n_included > IBSIM_MAX_FILES)
    return fl_error_set(m->err, FL_EPARSE, path, 0, 0,
                        "more than %d includes in one net file (the include "
                        "budget; each include of a file counts)",
                        IBSIM_MAX_FILES);
  /* The canonical name is only the identity for include-cycle detection. A
   * pipe or memfd (/dev/fd/N from `<(...)`, /proc/self/fd/N) has no path
   * realpath() can resolve: the name as given identifies it then, and
   * text_read() reports a file that really cannot be opened. */
  char *real = realpath(path, NULL);
  if (!real && !(real = strdup(path)))
    return fl_error_set(m->err, FL_ENOMEM, path, 0, 0, "out of memory");
  for (int i = 0; i < m->depth; i++) {
    if (strcmp(m->stack[i], real) == 0) {
      free(real);
      return fl_error_set(m->err, FL_EPARSE, path, 0, 0,
                          "include cycle: this file is already being read");
    }
  }
  fl_input in;
  int rc = fl_input_read(&in, path, "net file", FL_IN_TEXT, m->err);
  if (rc) {
    free(real);
    return rc;
  }
  if (m->digest) {
    fl_file_digest d;
    fl_digest_of(&d, in.buf, in.len);
    if (fl_b_file_digest(m->fab, fl_b_file(m->fab, path), &d) != FL_OK)
      rc = fl_error_set(m->err, FL_ENOMEM, path, 0, 0, "out of memory");
  }
  text t = text_of(&in);
  if (rc == FL_OK)
    rc = sim_parse(m, path, real, &t);
  fl_input_free(&in);
  return rc;
}

/* Resolve peer ids; an undeclared id is an error, as in connect_ports(). */
static int sim_resolve(ibsim *m) {
  for (size_t i = 0; i < m->s.nl; i++) {
    fl_listing *l = &m->s.ls[i];
    uint32_t idx = m->id_node[l->peer_guid];
    if (idx == UINT32_MAX)
      return fl_error_set(m->err, FL_EPARSE, fl_b_file_path(m->fab, l->file),
                          l->line, 0,
                          "peer node \"%s\" is not declared by any Switch/Hca/"
                          "Rt record",
                          fl_strmap_key(&m->ids, l->peer_guid));
    l->peer = idx;
  }
  return FL_OK;
}

/* Active width/speed of each fl_listing from both ends' enabled masks. */
static void sim_active(ibsim *m) {
  fl_lstate *s = &m->s;
  for (size_t i = 0; i < s->nl; i++) {
    fl_listing *l = &s->ls[i];
    if (l->explicit_ws)
      continue;
    uint32_t w = l->wmask, sp = l->smask, x = l->emask;
    uint32_t j = fl_ls_partner(s, i);
    if (j != UINT32_MAX) {
      w &= s->ls[j].wmask;
      sp &= s->ls[j].smask;
      x &= s->ls[j].emask;
    }
    l->width = sim_best_width(w);
    l->speed = sim_best_speed(sp, x);
  }
}

int fl_load_ibsim_net(fl_fabric *fab, const fl_input *in,
                      const fl_load_options *opts, fl_error *err) {
  const char *path = in->path;
  ibsim m;
  memset(&m, 0, sizeof m);
  m.fab = fab;
  m.err = err;
  m.digest = opts->digest;
  m.absbase[FL_NODE_CA] = m.base[FL_NODE_CA] = 0x100000;
  m.absbase[FL_NODE_SWITCH] = m.base[FL_NODE_SWITCH] = 0x200000;
  m.width = 2; /* DEFAULT_LINKWIDTH: 4x */
  m.speed = 1; /* DEFAULT_LINKSPEED: SDR */
  int rc = fl_ls_names(&m.s, opts, err);
  if (rc == FL_OK) {
    char *real = realpath(path, NULL);
    text t = text_of(in);
    if (!real)
      real = strdup(path); /* "-", a pipe: nothing can include it */
    rc = real ? sim_parse(&m, path, real, &t)
              : fl_error_set(err, FL_ENOMEM, path, 0, 0, "out of memory");
  }
  if (rc == FL_OK && m.s.nn == 0)
    rc = fl_error_set(err, FL_EPARSE, path, 0, 0,
                      "no Switch/Hca/Ca/Rt record found: not an ibsim net "
                      "file");
  if (rc == FL_OK)
    rc = sim_resolve(&m);
  if (rc == FL_OK) {
    if (fl_ls_index(&m.s))
      rc = fl_error_set(err, FL_ENOMEM, path, 0, 0, "out of memory");
    else
      sim_active(&m);
  }
  if (rc == FL_OK && fl_ls_merge_links(&m.s, fab))
    rc = fl_error_set(err, FL_ENOMEM, path, 0, 0, "out of memory");
  fl_strmap_free(&m.ids);
  free(m.id_node);
  fl_ls_free(&m.s);
  return rc;
}

/* ---- the format registry row (formats.h) ---- */

const fl_format_def fl_fmt_ibnetdiscover = {
    FL_FMT_IBNETDISCOVER,
    "ibnetdiscover",
    NULL,
    FL_FORMAT_TOPOLOGY | FL_FORMAT_NUL_INLINE,
    fl_load_ibnetdiscover,
    fl_detect_ibnd_family,
    "ibnetdiscover output (Switch/Ca lines with \"S-\"/\"H-\" GUID ids)"};

const fl_format_def fl_fmt_ibnd_ports = {
    FL_FMT_IBND_PORTS,           "ibnetdiscover-ports", NULL,
    FL_FORMAT_TOPOLOGY,          fl_load_ibnd_ports,    fl_detect_ibnd_family,
    "an ibnetdiscover -p report"};

const fl_format_def fl_fmt_ibsim_net = {
    FL_FMT_IBSIM_NET,   "ibsim-net",       "ibsim",
    FL_FORMAT_TOPOLOGY, fl_load_ibsim_net, fl_detect_ibnd_family,
    "an ibsim net file"};
