/* SPDX-License-Identifier: MIT */
/*
 * core/io/iblinkinfo.c — iblinkinfo output (infiniband-diags) as an as-built
 * topology: every port of every node with its link state, active width and
 * speed, the far end, and iblinkinfo's "Could be" hints.
 *
 * Source of the format: rdma-core infiniband-diags/iblinkinfo.c
 * (print_node_header(), print_port()), ibdiag_common.c (get_max_msg(): the
 * hints) and libibmad dump.c (mad_dump_linkwidth/linkspeed[ext]/portstate/
 * physportstate: the words). docs/formats/iblinkinfo.md has the grammar;
 * in short:
 *
 *   default:  Switch: 0x<port GUID> <name>:
 *                       <lid> <port>[<ext>] ==(<link>)==>  <far end>
 *             CA: <name>:            (also Router:, ??:)
 *                   0x<port GUID> <lid> <port>[<ext>] ==(<link>)==>  <far end>
 *   -l:       0x<port GUID> "<name, %30s>" <lid> <port>[<ext>] ==(<link>)==>
 *                 0x<far port GUID> <far end>
 *   <link>    <width> <speed> <State>/<PhysState>   ("1X".."12X", "2.5 Gbps"
 *             .. "212.5 Gbps", "10.0 Gbps (FDR10)"), or only <State>/<Phys>
 *             for a Down port; -p appends " (HOQ:n VL_Stall:n)" after ")"
 *   far end   <lid> <port>[<ext>] "<name>" (<hints>), where <hints> is
 *             "Could be <width>" and/or "Could be <speed>"; a Down port has
 *             `[  ] "" ( )`, a port up whose far end was not discovered
 *             `"Port not available"`.
 *
 * Identity. The default form names a far end only by its LID, port and
 * name: peers are resolved through the LIDs the local lines carry (a
 * switch's port-0 LID on each of its lines, a CA port's own LID); a LID that
 * two nodes hold (0 before the subnet manager ran) cannot name a far end,
 * and such a line is an error asking for the -l form. The -l form prints
 * port GUIDs but no node type: all ports of a switch share one port GUID,
 * while each CA port has its own, so a GUID seen on two or more port
 * numbers is a switch, any other a CA; CA ports with GUIDs G - n equal
 * (port n of one HCA, as -p reports are read) and the same name are one
 * CA. A far end that has no lines of its own (--switches-only, --cas-only,
 * a partial scan) is created from what the lines say, by the same rule:
 * a switch when it is seen on two or more ports, else a CA. Switch node
 * GUIDs are their port GUIDs; CA node GUIDs are not printed and stay 0.
 *
 * What becomes of a line:
 *   - every port line: a port record, with attribute `state` =
 *     "<State>/<PhysState>" as printed ("Active/LinkUp", "Down/Polling");
 *   - a port line with a far end: one listing of that cable; the two
 *     listings of a cable merge into one link (listings.h) with the active
 *     width and speed, and attributes `could-be-width` / `could-be-speed`
 *     (fabriclint width and speed names, "4x", "HDR") from the hints;
 *   - "Port not available": the port and its state, no cable, and a
 *     counted note (one per file, with the first line);
 *   - any other non-blank line: counted and noted (one note per file with
 *     the count and the first line), or an error when it looks like a
 *     header or a port line but does not parse.
 * iblinkinfo --diff output (lines marked "< " and "> ") compares two
 * captures and is refused.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/fileio.h"
#include "io/formats.h"
#include "io/listings.h"
#include "io/loaders.h"
#include "io/port_state.h"
#include "io/textscan.h"
#include "model/build.h"
#include "model/hashmap.h"

#define MAX_PORT 255u
#define MAX_LID  65535u

/* ---- vocabulary (libibmad dump.c) ----------------------------------------
 */

#define ST_DOWN  1u
#define ST_OTHER 0xffu /* "?(n)" */

/* Active speeds as mad_dump_linkspeed[ext]() and print_port() write them,
 * and "Could be" speed hints (get_max_msg()). */
static const struct {
  const char *text;
  uint8_t code;
} SPEEDS[] = {
    {"2.5 Gbps", FL_SPEED_SDR},
    {"5.0 Gbps", FL_SPEED_DDR},
    {"10.0 Gbps (FDR10)", FL_SPEED_FDR10},
    {"10.0 Gbps", FL_SPEED_QDR},
    {"14.0625 Gbps", FL_SPEED_FDR},
    {"25.78125 Gbps", FL_SPEED_EDR},
    {"53.125 Gbps", FL_SPEED_HDR},
    {"106.25 Gbps", FL_SPEED_NDR},
    {"212.5 Gbps", FL_SPEED_XDR},
    {"FDR10", FL_SPEED_FDR10}, /* hint: "Could be FDR10 (Found link at ...)" */
};

/* ---- parse state -----------------------------------------------------------
 */

/* One port line, as read (names are offsets into the input). */
typedef struct rec {
  uint64_t lguid, rguid; /* local / far port GUID (0: not printed) */
  uint32_t line, block;  /* block: default-form header index, or NONE */
  uint32_t llid, rlid;
  uint32_t lname_off, lname_len; /* -l: the local name */
  uint32_t rname_off, rname_len;
  uint32_t st_off, ph_off; /* the state words, for the attribute */
  uint32_t li;             /* its listing, or NONE */
  uint16_t lport, rport;
  uint8_t st_len, ph_len, st;
  uint8_t width, speed, cw, cs; /* active, and "Could be" width/speed */
  uint8_t far;                  /* FAR_* */
} rec;

#define NONE            UINT32_MAX
#define FAR_DOWN        0 /* `[  ] "" ( )` */
#define FAR_PEER        1
#define FAR_UNAVAILABLE 2 /* "Port not available" */

/* A default-form header. */
typedef struct block {
  uint32_t kind, line;
  uint64_t guid;
  uint32_t name_off, name_len;
  uint32_t node; /* node index once built */
} block;

#define FORM_UNKNOWN 0
#define FORM_DEFAULT 1
#define FORM_LINE    2 /* -l */

typedef struct ibl {
  fl_fabric *fab;
  fl_error *err;
  const char *path, *buf; /* the input */
  uint32_t file, lineno;
  const char *ls, *le; /* current line */
  int terminated, form;
  uint32_t form_line;
  rec *recs;
  size_t nr, rcap;
  block *blocks;
  size_t nb, bcap;
  uint32_t noise, noise_line, unavail, unavail_line, unknown_kind;
  fl_lstate s;
} ibl;

static int perr(ibl *b, const char *at, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
static int perr(ibl *b, const char *at, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int rc = fl_text_verror(b->err, b->path, b->lineno, b->ls, at, !b->terminated,
                          "port", fmt, ap);
  va_end(ap);
  return rc;
}

static int oom(ibl *b) {
  return fl_error_set(b->err, FL_ENOMEM, b->path, b->lineno, 0,
                      "out of memory");
}

static uint32_t off_of(const ibl *b, const char *p) {
  return (uint32_t)(p - b->buf);
}

/* The form of the current line: the first line fixes the file's. */
static int set_form(ibl *b, int form, const char *at) {
  if (b->form == FORM_UNKNOWN) {
    b->form = form;
    b->form_line = b->lineno;
    return FL_OK;
  }
  if (b->form == form)
    return FL_OK;
  return perr(b, at,
              "this line is in iblinkinfo's %s form but line %u is in its %s "
              "form; give one capture",
              form == FORM_LINE ? "-l (one line per port)" : "default",
              b->form_line,
              b->form == FORM_LINE ? "-l (one line per port)" : "default");
}

/* ---- tokens ---------------------------------------------------------------
 */

/* "0x" and 1..16 hex digits. */
static int parse_guid(ibl *b, const char **pp, const char *e, uint64_t *g) {
  const char *p = *pp;
  if (!starts_with(p, e, "0x"))
    return perr(b, p, "expected a GUID (0x and 16 hex digits)");
  p += 2;
  int n = scan_hex(&p, e, g);
  if (n == 0 || n > 16)
    return perr(b, *pp, "expected a GUID (0x and 16 hex digits)");
  *pp = p;
  return FL_OK;
}

static int parse_num(ibl *b, const char **pp, const char *e, uint32_t lo,
                     uint32_t hi, const char *what, uint32_t *v) {
  uint64_t x;
  const char *p = *pp;
  if (!scan_dec(&p, e, &x))
    return perr(b, *pp, "expected %s (a decimal number)", what);
  if (x < lo || x > hi)
    return perr(b, *pp, "%s %llu is out of range (%u to %u)", what,
                (unsigned long long)x, lo, hi);
  *v = (uint32_t)x;
  *pp = p;
  return FL_OK;
}

/* "<lid> <port>[<ext>]": LID, port number; the external port number (-g
 * style, director line boards) is skipped. */
static int parse_lid_port(ibl *b, const char **pp, const char *e, uint32_t *lid,
                          uint32_t *port, uint32_t port_lo) {
  const char *p = skip_ws(*pp, e);
  int rc = parse_num(b, &p, e, 0, MAX_LID, "a LID", lid);
  if (rc)
    return rc;
  p = skip_ws(p, e);
  if ((rc = parse_num(b, &p, e, port_lo, MAX_PORT, "a port number", port)))
    return rc;
  if (p >= e || *p != '[')
    return perr(b, p,
                "expected \"[\" and the external port number (blank "
                "when none) after the port number");
  const char *q = skip_ws(p + 1, e);
  while (q < e && *q >= '0' && *q <= '9')
    q++;
  q = skip_ws(q, e);
  if (q >= e || *q != ']')
    return perr(b, q, "expected \"]\" after the external port number");
  *pp = q + 1;
  return FL_OK;
}

/* A width word: "1X" .. "12X", or "undefined (n)" (unknown: 0). Advances
 * *@pp past it; 0 when there is none. */
static int width_word(const char **pp, const char *e, uint8_t *w) {
  const char *p = *pp;
  if (starts_with(p, e, "undefined (")) {
    const char *q = memchr(p, ')', (size_t)(e - p));
    if (!q)
      return 0;
    *w = 0;
    *pp = q + 1;
    return 1;
  }
  const char *q = p;
  while (q < e && *q >= '0' && *q <= '9')
    q++;
  if (q == p || q >= e || (*q != 'X' && *q != 'x'))
    return 0;
  uint32_t lanes = fl_width_parse(p, (size_t)(q + 1 - p));
  if (!lanes || (q + 1 < e && !is_blank(q[1]) && q[1] != ')'))
    return 0;
  *w = (uint8_t)lanes;
  *pp = q + 1;
  return 1;
}

/* A speed text of SPEEDS at *@pp (longest first), or "undefined (n)" /
 * "Extended speed" / "No Extended Speed" (unknown: 0). */
static int speed_words(const char **pp, const char *e, uint8_t *s) {
  const char *p = *pp;
  for (size_t i = 0; i < sizeof SPEEDS / sizeof *SPEEDS; i++) {
    size_t n = strlen(SPEEDS[i].text);
    if ((size_t)(e - p) >= n && memcmp(p, SPEEDS[i].text, n) == 0 &&
        (p + n == e || is_blank(p[n]) || p[n] == ')')) {
      *s = SPEEDS[i].code;
      *pp = p + n;
      return 1;
    }
  }
  static const char *const unknown[] = {"Extended speed", "No Extended Speed"};
  for (size_t i = 0; i < 2; i++)
    if (starts_with(p, e, unknown[i])) {
      *s = 0;
      *pp = p + strlen(unknown[i]);
      return 1;
    }
  if (starts_with(p, e, "undefined (")) {
    const char *q = memchr(p, ')', (size_t)(e - p));
    if (q) {
      *s = 0;
      *pp = q + 1;
      return 1;
    }
  }
  return 0;
}

/* Index of word [p, e) in @v (n words), ST_OTHER for "?(n)", or -1. */
static int word_index(const char *p, const char *e, const char *const *v,
                      size_t n) {
  for (size_t i = 0; i < n; i++)
    if ((size_t)(e - p) == strlen(v[i]) &&
        memcmp(p, v[i], (size_t)(e - p)) == 0)
      return (int)i;
  if (e - p >= 4 && p[0] == '?' && p[1] == '(' && e[-1] == ')')
    return ST_OTHER;
  return -1;
}

/* The last '"' in [p, e), or NULL. */
static const char *last_quote_of(const char *p, const char *e) {
  for (const char *q = e; q > p;)
    if (*--q == '"')
      return q;
  return NULL;
}

/* ---- one port line ---------------------------------------------------------
 */

/* "(<width> <speed> <State>/<Phys>)" between "==(" at @open and "==>" at
 * @arrow, with -p's " (HOQ:n VL_Stall:n)" before the arrow. */
static int parse_link(ibl *b, const char *open, const char *arrow, rec *r) {
  const char *p = open + 3, *z = arrow;
  if (z - p >= 1 && z[-1] == ')') {
    /* -p: "... LinkUp) (HOQ:14 VL_Stall:7)" */
    const char *h = NULL;
    for (const char *q = z - 1; q > p && !h; q--)
      if (*q == '(' && starts_with(q, z, "(HOQ:"))
        h = q;
    if (h)
      z = rtrim(p, h);
  }
  if (z <= p || z[-1] != ')')
    return perr(b, arrow,
                "expected \")\" to close the link state before "
                "\"==>\"");
  z--; /* the ')' */
  const char *slash = NULL;
  for (const char *q = z; q > p && !slash; q--)
    if (q[-1] == '/')
      slash = q - 1;
  if (!slash)
    return perr(b, p,
                "expected the port state as <State>/<PhysState> "
                "(\"Active/LinkUp\", \"Down/Polling\")");
  const char *ph = skip_ws(slash + 1, z), *phe = rtrim(ph, z);
  const char *ste = rtrim(p, slash), *st = ste;
  while (st > p && !is_blank(st[-1]))
    st--;
  int si = word_index(st, ste, fl_port_state_words, FL_PORT_STATES);
  if (si < 0)
    return perr(b, st,
                "expected a port state (NoChange, Down, Initialize, Armed, "
                "Active) before \"/\", got \"%.*s\"",
                EXCERPT(st, ste));
  if (word_index(ph, phe, fl_phys_state_words, FL_PHYS_STATES) < 0)
    return perr(b, ph,
                "expected a physical port state (Sleep, Polling, Disabled, "
                "PortConfigurationTraining, LinkUp, LinkErrorRecovery, "
                "PhyTest) after \"/\", got \"%.*s\"",
                EXCERPT(ph, phe));
  r->st = (uint8_t)si;
  r->st_off = off_of(b, st);
  r->st_len = (uint8_t)(ste - st < 255 ? ste - st : 255);
  r->ph_off = off_of(b, ph);
  r->ph_len = (uint8_t)(phe - ph < 255 ? phe - ph : 255);
  /* width and speed, absent on a Down port */
  const char *q = skip_ws(p, st);
  if (q == st)
    return FL_OK;
  if (!width_word(&q, st, &r->width))
    return perr(b, q,
                "expected a link width (1X 2X 4X 8X 12X) before the speed, "
                "got \"%.*s\"",
                EXCERPT(q, st));
  q = skip_ws(q, st);
  if (!speed_words(&q, st, &r->speed))
    return perr(b, q,
                "expected a link speed (2.5 Gbps .. 212.5 Gbps, or 10.0 Gbps "
                "(FDR10)), got \"%.*s\"",
                EXCERPT(q, st));
  if (skip_ws(q, st) != st)
    return perr(b, q, "unexpected text \"%.*s\" before the port state",
                EXCERPT(q, st));
  return FL_OK;
}

/* "(Could be 4X Could be 53.125 Gbps)", "( )", "()". */
static int parse_hints(ibl *b, const char *p, const char *e, rec *r) {
  p = skip_ws(p, e);
  e = rtrim(p, e);
  if (p >= e || *p != '(' || e[-1] != ')')
    return perr(b, p,
                "expected the \"Could be\" hints in parentheses after "
                "the far end's name");
  const char *q = skip_ws(p + 1, e - 1), *end = e - 1;
  while (q < end) {
    if (!starts_with(q, end, "Could be "))
      return perr(b, q,
                  "expected \"Could be\" and a width or a speed, got "
                  "\"%.*s\"",
                  EXCERPT(q, end));
    const char *v = skip_ws(q + 9, end);
    uint8_t w, s;
    if (width_word(&v, end, &w) && w) {
      r->cw = w;
    } else if (speed_words(&v, end, &s) && s) {
      r->cs = s;
      if (s == FL_SPEED_FDR10 && starts_with(skip_ws(v, end), end, "(Found")) {
        const char *c = memchr(v, ')', (size_t)(end - v));
        v = c ? c + 1 : end;
      }
    } else {
      return perr(b, v,
                  "expected a width (1X..12X) or a speed (2.5 Gbps .. "
                  "212.5 Gbps, FDR10) after \"Could be\", got \"%.*s\"",
                  EXCERPT(v, end));
    }
    q = skip_ws(v, end);
  }
  return FL_OK;
}

/* The far end, after "==>". */
static int parse_far(ibl *b, const char *p, const char *e, rec *r) {
  int rc;
  p = skip_ws(p, e);
  const char *z = rtrim(p, e);
  if (z - p == 20 && memcmp(p, "\"Port not available\"", 20) == 0) {
    r->far = FAR_UNAVAILABLE;
    return FL_OK;
  }
  if (p < e && *p == '[') { /* Down: `[  ] "" ( )` */
    const char *c = memchr(p, ']', (size_t)(e - p));
    const char *q = c ? skip_ws(c + 1, e) : e;
    if (!c || !starts_with(q, e, "\"\""))
      return perr(b, p,
                  "expected `[  ] \"\" ( )` after a port with no far "
                  "end");
    r->far = FAR_DOWN;
    return parse_hints(b, q + 2, e, r);
  }
  r->far = FAR_PEER;
  if (starts_with(p, e, "0x")) {
    if ((rc = set_form(b, FORM_LINE, p)) ||
        (rc = parse_guid(b, &p, e, &r->rguid)))
      return rc;
  } else if (b->form == FORM_LINE) {
    return perr(b, p,
                "expected the far end's port GUID (0x and 16 hex "
                "digits) in an -l line");
  }
  uint32_t lid, port;
  if ((rc = parse_lid_port(b, &p, e, &lid, &port, 0)))
    return rc;
  r->rlid = lid;
  r->rport = (uint16_t)port;
  p = skip_ws(p, e);
  const char *close = p < e && *p == '"' ? last_quote_of(p + 1, e) : NULL;
  if (!close)
    return perr(b, p, "expected the far end's name in quotes");
  r->rname_off = off_of(b, p + 1);
  r->rname_len = (uint32_t)(close - p - 1);
  return parse_hints(b, close + 1, e, r);
}

static rec *new_rec(ibl *b) {
  if (b->nr == b->rcap) {
    size_t cap = b->rcap ? b->rcap * 2 : 1024;
    rec *v = realloc(b->recs, cap * sizeof *v);
    if (!v)
      return NULL;
    b->recs = v;
    b->rcap = cap;
  }
  rec *r = &b->recs[b->nr++];
  memset(r, 0, sizeof *r);
  r->line = b->lineno;
  r->block = NONE;
  r->li = NONE;
  return r;
}

/* A port line: the local end, "==(", the link, "==>", the far end. */
static int port_line(ibl *b, const char *p, const char *e, const char *open) {
  int rc;
  const char *arrow = NULL;
  for (const char *q = open + 3; q + 3 <= e && !arrow; q++)
    if (memcmp(q, "==>", 3) == 0)
      arrow = q;
  if (!arrow)
    return perr(b, open, "expected \"==>\" after the link state");
  rec *r = new_rec(b);
  if (!r)
    return oom(b);
  uint32_t lid, port;
  if (starts_with(p, open, "0x")) {
    if ((rc = parse_guid(b, &p, open, &r->lguid)))
      return rc;
    const char *q = skip_ws(p, open);
    if (q < open && *q == '"') { /* -l: 0x<guid> "<name>" */
      const char *close = last_quote_of(q + 1, open);
      if ((rc = set_form(b, FORM_LINE, q)))
        return rc;
      if (!close)
        return perr(b, q, "expected '\"' to close the node name");
      const char *n = skip_ws(q + 1, close); /* %30s padding */
      r->lname_off = off_of(b, n);
      r->lname_len = (uint32_t)(close - n);
      p = close + 1;
    } else {
      if ((rc = set_form(b, FORM_DEFAULT, q)))
        return rc;
      if (b->nb == 0 || b->blocks[b->nb - 1].kind == FL_NODE_SWITCH)
        return perr(b, b->ls,
                    "a CA port line (it starts with the port GUID) must "
                    "follow a \"CA: <name>:\" or \"Router: <name>:\" header");
    }
  } else {
    if ((rc = set_form(b, FORM_DEFAULT, p)))
      return rc;
    if (b->nb == 0 || b->blocks[b->nb - 1].kind != FL_NODE_SWITCH)
      return perr(b, p,
                  "a switch port line (it starts with the LID) must follow "
                  "a \"Switch: 0x<GUID> <name>:\" header");
  }
  if (b->form == FORM_DEFAULT)
    r->block = (uint32_t)(b->nb - 1);
  if ((rc = parse_lid_port(b, &p, open, &lid, &port, 1)))
    return rc;
  if (skip_ws(p, open) != open)
    return perr(b, p, "expected \"==(\" after the port number");
  r->llid = lid;
  r->lport = (uint16_t)port;
  if ((rc = parse_link(b, open, arrow, r)) ||
      (rc = parse_far(b, arrow + 3, e, r)))
    return rc;
  if (r->far == FAR_UNAVAILABLE && b->unavail++ == 0)
    b->unavail_line = b->lineno;
  return FL_OK;
}

/* "Switch: 0x<GUID> <name>:", "CA: <name>:", "Router: <name>:",
 * "??: <name>:" (print_node_header()); 0 when the line is none of these. */
static int header_line(ibl *b, const char *p, const char *e, int *rc) {
  static const struct {
    const char *kw;
    uint32_t kind;
  } K[] = {{"Switch:", FL_NODE_SWITCH},
           {"CA:", FL_NODE_CA},
           {"Router:", FL_NODE_ROUTER},
           {"??:", FL_NODE_CA}};
  size_t k = 0;
  while (k < 4 && !starts_with(p, e, K[k].kw))
    k++;
  if (k == 4)
    return 0;
  const char *q = skip_ws(p + strlen(K[k].kw), e);
  e = rtrim(q, e);
  if ((*rc = set_form(b, FORM_DEFAULT, p)))
    return 1;
  if (b->nb == b->bcap) {
    size_t cap = b->bcap ? b->bcap * 2 : 256;
    block *v = realloc(b->blocks, cap * sizeof *v);
    if (!v) {
      *rc = oom(b);
      return 1;
    }
    b->blocks = v;
    b->bcap = cap;
  }
  block *h = &b->blocks[b->nb];
  memset(h, 0, sizeof *h);
  h->kind = K[k].kind;
  h->line = b->lineno;
  h->node = NONE;
  if (k == 3)
    b->unknown_kind++;
  if (K[k].kind == FL_NODE_SWITCH) {
    if ((*rc = parse_guid(b, &q, e, &h->guid)))
      return 1;
    if (q < e && !is_blank(*q)) {
      *rc = perr(b, q, "expected a blank after the switch's port GUID");
      return 1;
    }
    q = skip_ws(q, e);
  }
  if (q >= e || e[-1] != ':') {
    *rc = perr(b, e, "expected \":\" at the end of the %s header",
               fl_node_kind_name(K[k].kind));
    return 1;
  }
  h->name_off = off_of(b, q);
  h->name_len = (uint32_t)(e - 1 - q);
  b->nb++;
  *rc = FL_OK;
  return 1;
}

static int one_line(ibl *b) {
  const char *p = skip_ws(b->ls, b->le), *e = b->le;
  if (p >= e)
    return FL_OK;
  if ((e - p >= 2 && (p[0] == '<' || p[0] == '>') && p[1] == ' ') ||
      starts_with(p, e, "numports = "))
    return perr(b, p,
                "iblinkinfo --diff output (lines marked \"<\" and \">\") "
                "compares two captures; give the plain iblinkinfo output of "
                "one fabric");
  int rc = FL_OK;
  if (header_line(b, p, e, &rc))
    return rc;
  for (const char *q = p; q + 3 <= e; q++)
    if (memcmp(q, "==(", 3) == 0)
      return port_line(b, p, e, q);
  if (b->noise++ == 0) /* shell prompts, ibwarn: lines, stderr text */
    b->noise_line = b->lineno;
  return FL_OK;
}

/* ---- building the fabric ---------------------------------------------------
 */

/* How one key (a -l port GUID, a default-form phantom's LID) was seen. */
typedef struct seen {
  uint64_t key;
  uint32_t node;       /* node index, NONE until made */
  uint32_t lrec, rrec; /* first record with it as the local / far end */
  uint16_t port;       /* first port number seen */
  uint8_t multi;       /* seen on 2+ port numbers */
} seen;

typedef struct seenset {
  fl_u64map idx; /* key -> index in v */
  seen *v;
  size_t n, cap;
} seenset;

static void seen_free(seenset *t) {
  fl_u64map_free(&t->idx);
  free(t->v);
}

/* Record that @key was seen on @port by record @ri, as its local end
 * (@local) or as its far end; NULL on ENOMEM. */
static seen *seen_add(seenset *t, uint64_t key, uint32_t port, uint32_t ri,
                      int local) {
  uint32_t i = fl_u64map_get(&t->idx, key);
  if (i == FL_MAP_ABSENT) {
    if (t->n == t->cap) {
      size_t cap = t->cap ? t->cap * 2 : 256;
      seen *v = realloc(t->v, cap * sizeof *v);
      if (!v)
        return NULL;
      t->v = v;
      t->cap = cap;
    }
    i = (uint32_t)t->n++;
    if (fl_u64map_put(&t->idx, key, i) == FL_MAP_ABSENT)
      return NULL;
    t->v[i] = (seen){key, NONE, NONE, NONE, (uint16_t)port, 0};
  } else if (t->v[i].port != port) {
    t->v[i].multi = 1;
  }
  uint32_t *first = local ? &t->v[i].lrec : &t->v[i].rrec;
  if (*first == NONE)
    *first = ri;
  return &t->v[i];
}

static seen *seen_get(const seenset *t, uint64_t key) {
  uint32_t i = fl_u64map_get(&t->idx, key);
  return i == FL_MAP_ABSENT ? NULL : &t->v[i];
}

/* A node named [name, name + len) of the input. */
static uint32_t make_node(ibl *b, uint32_t kind, uint64_t guid, uint32_t off,
                          uint32_t len, uint32_t line, int has_block) {
  fl_prov prov = {b->file, line, 1};
  uint32_t idx = fl_ls_add_node(&b->s, b->fab, kind, guid, 0, prov);
  if (idx == UINT32_MAX)
    return NONE;
  b->s.nodes[idx].has_block = (uint32_t)has_block;
  fl_b_node_set_desc(b->fab, b->s.nodes[idx].id, b->buf + off, len);
  return idx;
}

/* A CA's node-name-map entry: by node GUID = port GUID - port number, then
 * by the port GUID (as for the -p report, core/io/ibnd_ports.c). */
static void ca_map_name(ibl *b, uint32_t idx, uint64_t pguid, uint32_t port) {
  if (!b->s.have_names || !pguid)
    return;
  const char *nm = fl_nodemap_lookup(&b->s.names, pguid - port);
  if (!nm)
    nm = fl_nodemap_lookup(&b->s.names, pguid);
  if (nm)
    fl_b_node_set_name(b->fab, b->s.nodes[idx].id, nm, (size_t)-1);
}

/* The name a key is known by: its own lines' name, else a far end's; and
 * the line that names it. */
static void seen_name(const ibl *b, const seen *v, uint32_t *off, uint32_t *len,
                      uint32_t *line) {
  const rec *r = &b->recs[v->lrec != NONE ? v->lrec : v->rrec];
  *off = v->lrec != NONE ? r->lname_off : r->rname_off;
  *len = v->lrec != NONE ? r->lname_len : r->rname_len;
  *line = r->line;
}

static int same_name(const ibl *b, const seen *x, const seen *y) {
  uint32_t xo, xl, yo, yl, line;
  seen_name(b, x, &xo, &xl, &line);
  seen_name(b, y, &yo, &yl, &line);
  return xl == yl && memcmp(b->buf + xo, b->buf + yo, xl) == 0;
}

/* -l form: nodes by port GUID (see the header comment). */
static int build_line_nodes(ibl *b, seenset *g) {
  fl_u64map cas = {0}; /* port GUID - port -> seen index of the CA's first */
  int rc = FL_OK;
  for (size_t i = 0; i < b->nr && rc == FL_OK; i++) {
    const rec *r = &b->recs[i];
    if (!seen_add(g, r->lguid, r->lport, (uint32_t)i, 1) ||
        (r->far == FAR_PEER &&
         !seen_add(g, r->rguid, r->rport, (uint32_t)i, 0)))
      rc = FL_ENOMEM;
  }
  /* nodes with lines of their own first (named by them), then far ends */
  for (int pass = 1; pass >= 0 && rc == FL_OK; pass--) {
    for (size_t k = 0; k < g->n && rc == FL_OK; k++) {
      seen *v = &g->v[k];
      if ((v->lrec != NONE) != pass || v->node != NONE)
        continue;
      uint32_t off, len, line;
      seen_name(b, v, &off, &len, &line);
      if (v->multi) {
        v->node = make_node(b, FL_NODE_SWITCH, v->key, off, len, line, pass);
        if (v->node == NONE)
          rc = FL_ENOMEM;
        continue;
      }
      /* a CA: port n of one HCA has port GUID G + n (mlx4, ibsim) */
      uint64_t key = v->key - v->port;
      uint32_t first = fl_u64map_get(&cas, key);
      if (first != FL_MAP_ABSENT && (g->v[first].lrec != NONE) == pass &&
          same_name(b, &g->v[first], v)) {
        v->node = g->v[first].node;
        continue;
      }
      v->node = make_node(b, FL_NODE_CA, 0, off, len, line, pass);
      if (v->node == NONE ||
          (first == FL_MAP_ABSENT &&
           fl_u64map_put(&cas, key, (uint32_t)k) == FL_MAP_ABSENT))
        rc = FL_ENOMEM;
      else
        ca_map_name(b, v->node, v->key, v->port);
    }
  }
  fl_u64map_free(&cas);
  return rc;
}

/* Values of the default form's LID index: a switch (its port-0 LID) or a
 * CA port (its own LID); a LID two holders claim is AMBIGUOUS. */
#define LID_AMBIGUOUS (UINT32_MAX - 1)
static inline uint32_t lid_switch(uint32_t node) {
  return node << 1;
}
static inline uint32_t lid_ca(uint32_t ri) {
  return (ri << 1) | 1u;
}

static int lid_index(ibl *b, fl_u64map *lids) {
  for (size_t i = 0; i < b->nr; i++) {
    const rec *r = &b->recs[i];
    const block *h = &b->blocks[r->block];
    uint32_t v =
        h->kind == FL_NODE_SWITCH ? lid_switch(h->node) : lid_ca((uint32_t)i);
    uint32_t old = fl_u64map_put(lids, r->llid, v);
    if (old == FL_MAP_ABSENT)
      return FL_ENOMEM;
    if (old != v && fl_u64map_set(lids, r->llid, LID_AMBIGUOUS))
      return FL_ENOMEM;
  }
  return FL_OK;
}

static int rec_error(ibl *b, const rec *r, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
static int rec_error(ibl *b, const rec *r, const char *fmt, ...) {
  char msg[FL_ERROR_MSG_MAX];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  return fl_error_set(b->err, FL_EPARSE, b->path, r->line, 0, "%s", msg);
}

/* Default form: the node and port a far end's LID names, or a phantom
 * (seen in @ph by LID) when no line of the input holds that LID. */
static int resolve_far(ibl *b, const fl_u64map *lids, seenset *ph, rec *r,
                       uint32_t ri, uint32_t *node, int collect) {
  uint32_t v = fl_u64map_get(lids, r->rlid);
  *node = NONE;
  if (v == LID_AMBIGUOUS)
    return rec_error(b, r,
                     "iblinkinfo's default form names a far end only by its "
                     "LID, and LID %u is held by more than one port of this "
                     "capture (LIDs not yet assigned by a subnet manager?): "
                     "capture with `iblinkinfo -l`, which prints port GUIDs",
                     r->rlid);
  if (v == FL_MAP_ABSENT) {
    if (r->rlid == 0)
      return rec_error(b, r,
                       "the far end \"%.*s\" has LID 0 (not assigned) and no "
                       "line of its own, so nothing names it: capture with "
                       "`iblinkinfo -l`, which prints port GUIDs",
                       (int)(r->rname_len > 60 ? 60 : r->rname_len),
                       b->buf + r->rname_off);
    seen *s = collect ? seen_add(ph, r->rlid, r->rport, ri, 0)
                      : seen_get(ph, r->rlid);
    if (!s)
      return oom(b);
    *node = s->node;
    return FL_OK;
  }
  if (!(v & 1u)) {
    *node = v >> 1;
    return FL_OK;
  }
  const rec *o = &b->recs[v >> 1];
  if (o->lport != r->rport)
    return rec_error(b, r,
                     "the far end is LID %u port %u, but LID %u is port %u "
                     "of \"%.*s\" (line %u)",
                     r->rlid, r->rport, r->rlid, o->lport,
                     (int)(b->blocks[o->block].name_len > 60
                               ? 60
                               : b->blocks[o->block].name_len),
                     b->buf + b->blocks[o->block].name_off, o->line);
  *node = b->blocks[o->block].node;
  return FL_OK;
}

/* Default form: one node per header, far ends resolved by LID. Sets each
 * record's peer node in @peer. */
static int build_default_nodes(ibl *b, uint32_t *peer) {
  for (size_t i = 0; i < b->nb; i++) {
    block *h = &b->blocks[i];
    h->node = make_node(b, h->kind, h->kind == FL_NODE_SWITCH ? h->guid : 0,
                        h->name_off, h->name_len, h->line, 1);
    if (h->node == NONE)
      return oom(b);
  }
  fl_u64map lids = {0};
  seenset ph = {0};
  int rc = lid_index(b, &lids) ? oom(b) : FL_OK;
  /* collect the phantoms, make them (a switch when seen on 2+ ports),
   * then resolve every far end */
  for (int collect = 1; collect >= 0 && rc == FL_OK; collect--) {
    for (size_t i = 0; i < b->nr && rc == FL_OK; i++) {
      rec *r = &b->recs[i];
      if (r->far == FAR_PEER)
        rc = resolve_far(b, &lids, &ph, r, (uint32_t)i, &peer[i], collect);
    }
    for (size_t k = 0; collect && k < ph.n && rc == FL_OK; k++) {
      seen *v = &ph.v[k];
      uint32_t off, len, line;
      seen_name(b, v, &off, &len, &line);
      v->node = make_node(b, v->multi ? FL_NODE_SWITCH : FL_NODE_CA, 0, off,
                          len, line, 0);
      if (v->node == NONE)
        rc = oom(b);
    }
  }
  fl_u64map_free(&lids);
  seen_free(&ph);
  return rc;
}

/* The local port of record @r on node index @ni: GUID, LID and state. */
static int local_port(ibl *b, const rec *r, uint32_t ni) {
  fl_lnode *n = &b->s.nodes[ni];
  fl_prov prov = {b->file, r->line, 1};
  fl_id p = fl_b_port(b->fab, n->id, r->lport, prov);
  if (p == FL_NONE)
    return FL_ENOMEM;
  if (n->kind == FL_NODE_SWITCH) {
    /* iblinkinfo prints every port of a switch, up or down (infiniband-
     * diags iblinkinfo.c: 1..numports): the highest listed is its port
     * count, as the ibnetdiscover header says it. Without it the free
     * ports of a leaf short of uplinks were unknown and
     * topology.missing-uplinks stayed silent on an iblinkinfo capture of
     * the fabric it flags in the ibnetdiscover one (outside tester). */
    if (r->lport > n->nports) {
      n->nports = r->lport;
      fl_b_node_set_nports(b->fab, n->id, r->lport);
    }
    fl_id p0 = fl_b_port(b->fab, n->id, 0, prov);
    if (p0 == FL_NONE)
      return FL_ENOMEM;
    if (n->guid)
      fl_b_port_set_guid(b->fab, p0, n->guid);
    fl_b_port_set_lid(b->fab, p0, r->llid, 0);
  } else {
    if (r->lguid)
      fl_b_port_set_guid(b->fab, p, r->lguid);
    fl_b_port_set_lid(b->fab, p, r->llid, 0);
  }
  char state[520]; /* "<State>/<Phys>": two words of at most 255 bytes */
  memcpy(state, b->buf + r->st_off, r->st_len);
  state[r->st_len] = '/';
  memcpy(state + r->st_len + 1, b->buf + r->ph_off, r->ph_len);
  state[r->st_len + 1 + r->ph_len] = '\0';
  return fl_b_attr(b->fab, FL_ENT_PORT, p, "state", state);
}

/* Ports, listings, links and their hint attributes, once every record's
 * local node (@local) and far node (@peer) are known. */
static int build_links(ibl *b, const uint32_t *local, const uint32_t *peer) {
  for (size_t i = 0; i < b->nr; i++) {
    rec *r = &b->recs[i];
    if (local_port(b, r, local[i]))
      return FL_ENOMEM;
    if (r->far != FAR_PEER)
      continue;
    fl_listing *l = fl_ls_add_listing(&b->s);
    if (!l)
      return FL_ENOMEM;
    l->node = local[i];
    l->peer = peer[i];
    l->port = r->lport;
    l->peer_port = r->rport;
    l->width = r->width;
    l->speed = r->speed;
    l->file = b->file;
    l->line = r->line;
    l->peer_pguid = r->rguid;
    l->peer_lid = r->rlid;
    l->has_lid = 1;
    r->li = (uint32_t)(b->s.nl - 1);
  }
  if (fl_ls_merge_links(&b->s, b->fab))
    return FL_ENOMEM;
  for (size_t i = 0; i < b->nr; i++) {
    const rec *r = &b->recs[i];
    if (r->li == NONE || (!r->cw && !r->cs))
      continue;
    fl_id lk = b->s.ls[r->li].link;
    char w[8];
    snprintf(w, sizeof w, "%ux", r->cw);
    if ((r->cw && fl_b_attr(b->fab, FL_ENT_LINK, lk, "could-be-width", w)) ||
        (r->cs && fl_b_attr(b->fab, FL_ENT_LINK, lk, "could-be-speed",
                            fl_speed_name(r->cs))))
      return FL_ENOMEM;
  }
  return FL_OK;
}

/* What was read but not loaded, said once per file (topology.input). */
static void notes(ibl *b) {
  if (b->noise)
    fl_b_note(b->fab, "topology", (fl_prov){b->file, b->noise_line, 1},
              "%u line(s) that are not iblinkinfo output were skipped (the "
              "first is line %u)",
              b->noise, b->noise_line);
  if (b->unavail)
    fl_b_note(b->fab, "topology", (fl_prov){b->file, b->unavail_line, 1},
              "%u port(s) are up but iblinkinfo could not reach their far "
              "end (\"Port not available\"): no cable is loaded for them "
              "(the first is line %u)",
              b->unavail, b->unavail_line);
  if (b->unknown_kind)
    fl_b_note(b->fab, "topology", (fl_prov){b->file, b->form_line, 1},
              "%u node(s) of unknown type (\"??:\" headers) are loaded as "
              "CAs",
              b->unknown_kind);
}

/* A filtered capture (--switches-only, --cas-only: every node with lines of
 * its own is of one kind) lists the other nodes only as far ends: they are
 * marked `peer-only`, so that their cables, listed from one end by the
 * filter's design, are not taken for a cut capture (topology.one-sided-link);
 * a note says so. In a capture of mixed kinds a far end without lines of its
 * own stays unmarked: lines are missing. */
static int mark_peer_only(ibl *b) {
  uint32_t kinds = 0, peers = 0, first = 0;
  for (size_t i = 0; i < b->s.nn; i++) {
    if (b->s.nodes[i].has_block)
      kinds |= 1u << b->s.nodes[i].kind;
    else if (peers++ == 0)
      first = (uint32_t)i;
  }
  if (!peers || (kinds & (kinds - 1)))
    return FL_OK;
  for (size_t i = 0; i < b->s.nn; i++)
    if (!b->s.nodes[i].has_block &&
        fl_b_attr(b->fab, FL_ENT_NODE, b->s.nodes[i].id, "peer-only", "yes"))
      return FL_ENOMEM;
  const char *k = kinds == 1u << FL_NODE_SWITCH ? "switches" : "CAs";
  fl_prov pv;
  if (fl_fabric_provenance(b->fab, FL_ENT_NODE, b->s.nodes[first].id, NULL,
                           &pv.line, &pv.col) != FL_OK)
    pv.line = pv.col = 0;
  pv.file = b->file;
  fl_b_note(b->fab, "topology", pv,
            "the capture lists the ports of %s only (iblinkinfo "
            "--switches-only or --cas-only): %u node(s) are known only as "
            "the far end of their cables, which are listed from one end",
            k, peers);
  return FL_OK;
}

static int build(ibl *b) {
  int rc = FL_OK;
  uint32_t *local = malloc((b->nr + 1) * sizeof *local);
  uint32_t *peer = malloc((b->nr + 1) * sizeof *peer);
  seenset g = {0};
  if (!local || !peer)
    rc = oom(b);
  for (size_t i = 0; rc == FL_OK && i < b->nr; i++)
    peer[i] = NONE;
  if (rc == FL_OK && b->form == FORM_LINE) {
    if (build_line_nodes(b, &g))
      rc = oom(b);
    for (size_t i = 0; rc == FL_OK && i < b->nr; i++) {
      const rec *r = &b->recs[i];
      local[i] = seen_get(&g, r->lguid)->node;
      if (r->far == FAR_PEER)
        peer[i] = seen_get(&g, r->rguid)->node;
    }
  } else if (rc == FL_OK) {
    rc = build_default_nodes(b, peer);
    for (size_t i = 0; rc == FL_OK && i < b->nr; i++)
      local[i] = b->blocks[b->recs[i].block].node;
  }
  if (rc == FL_OK && (build_links(b, local, peer) || mark_peer_only(b)))
    rc = oom(b);
  if (rc == FL_OK)
    notes(b);
  seen_free(&g);
  free(local);
  free(peer);
  return rc;
}

int fl_load_iblinkinfo(fl_fabric *fab, const fl_input *in,
                       const fl_load_options *opts, fl_error *err) {
  ibl b;
  memset(&b, 0, sizeof b);
  b.fab = fab;
  b.err = err;
  b.path = in->path;
  b.buf = in->buf;
  b.file = fl_b_file(fab, in->path);
  int rc = fl_ls_names(&b.s, opts, err);
  const char *cur = in->buf + fl_utf8_bom(in->buf, in->len);
  const char *end = in->buf + in->len;
  while (rc == FL_OK && cur < end) {
    const char *nl = memchr(cur, '\n', (size_t)(end - cur));
    b.ls = cur;
    b.le = nl ? nl : end;
    b.terminated = nl != NULL;
    if (b.le > b.ls && b.le[-1] == '\r')
      b.le--;
    b.lineno++;
    cur = nl ? nl + 1 : end;
    rc = one_line(&b);
  }
  if (rc == FL_OK && b.nr == 0)
    rc = fl_error_set(err, FL_EPARSE, in->path, 0, 0,
                      "no iblinkinfo port line (\"... ==( 4X 53.125 Gbps "
                      "Active/  LinkUp)==> ...\") found");
  if (rc == FL_OK)
    rc = build(&b);
  free(b.recs);
  free(b.blocks);
  fl_ls_free(&b.s);
  return rc;
}

/* ---- detection and the registry row (formats.h) ---------------------------
 */

/* 1 when the window holds a line with "==(" and later ")==>" (a port line;
 * no other format fabriclint reads has one). */
static int has_port_line(const char *buf, const char *end) {
  for (const char *s = buf; s < end;) {
    const char *nl = memchr(s, '\n', (size_t)(end - s));
    const char *le = nl ? nl : end, *open = NULL;
    for (const char *q = s; le - q >= 3 && !open; q++)
      if (memcmp(q, "==(", 3) == 0)
        open = q;
    for (const char *q = open; q && le - q >= 4; q++)
      if (memcmp(q, ")==>", 4) == 0)
        return 1;
    s = nl ? nl + 1 : end;
  }
  return 0;
}

static uint32_t detect_iblinkinfo(const fl_detect_ctx *c, fl_error *err) {
  (void)err;
  if (c->xml_root || !has_port_line(c->text, c->text + c->len))
    return FL_FMT_AUTO;
  return FL_FMT_IBLINKINFO;
}

const fl_format_def fl_fmt_iblinkinfo = {
    FL_FMT_IBLINKINFO,
    "iblinkinfo",
    NULL,
    FL_FORMAT_TOPOLOGY,
    fl_load_iblinkinfo,
    detect_iblinkinfo,
    "iblinkinfo output (default, -l, --switches-only; \"==( 4X ... "
    "Active/ LinkUp)==>\" port lines)"};
