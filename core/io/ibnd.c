/* SPDX-License-Identifier: MIT */
/*
 * core/io/ibnd.c — the loader for ibnetdiscover topology output (default and
 * -g modes). The ibnetdiscover -p ports report is read by ibnd_ports.c,
 * ibsim net files by ibsim_net.c; the three share ibnd_scan.c's line
 * cursor and tokens.
 *
 * Sources of the format (see also notes/formats.md §1):
 *  - rdma-core infiniband-diags/ibnetdiscover.c: dump_topology(), out_ids(),
 *    out_switch()/out_switch_detail(), out_ca()/out_ca_detail(),
 *    out_switch_port(), out_ca_port(), node_name() (the "S-/H-/R-/?-" ids),
 *    dump_linkwidth_compat()/dump_linkspeed[ext]_compat() (the 4xHDR tokens),
 *    out_chassis() and the -g comments.
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
#include "io/ibnd_scan.h"
#include "io/listings.h"
#include "io/loaders.h"
#include "io/textscan.h"

#include <string.h>

#include "model/build.h"

#define MAX_LMC 7u

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
  rc = fl_ls_names(&b.s, opts, err);
  if (rc == FL_OK) {
    pctx_init(&b.c, fab, path, &t, err);
    while (rc == FL_OK && next_line(&b.c))
      rc = ib_line(&b);
    if (rc == FL_OK)
      rc = ib_finish(&b);
  }
  fl_ls_free(&b.s);
  return rc;
}

/* ---- the format registry row (formats.h) ---- */

const fl_format_def fl_fmt_ibnetdiscover = {
    FL_FMT_IBNETDISCOVER,
    "ibnetdiscover",
    NULL,
    FL_FORMAT_TOPOLOGY,
    fl_load_ibnetdiscover,
    fl_detect_ibnd_family,
    "ibnetdiscover output (Switch/Ca lines with \"S-\"/\"H-\" GUID ids)"};
