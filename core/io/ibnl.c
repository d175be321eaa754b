/* SPDX-License-Identifier: MIT */
/*
 * core/io/ibnl.c — IBNL system definitions (ibnl.h; docs/formats/ibnl.md).
 *
 * Source of the grammar: ibutils ibdm-ibnl-file(1) (the BNF of ibdm's
 * ibnl_parser.yy), checked against every file of Debian's libibdm1
 * 1.5.7 (/usr/lib/x86_64-linux-gnu/ibdm1.5.7/ibnl). Line oriented:
 *
 *   SYSTEM LEAF,LEAF:4x,LEAF:4X          a board, several names
 *   NODE SW 24 MT47396 U1                an ASIC: type, ports, model, name
 *       1  -> P13                        ASIC port 1 is board connector P13
 *       2 -4x-> U2 3                     ASIC port to another instance's port
 *   TOPSYSTEM MTS14400,Rhino             the system (last definition)
 *   spine1/U1=isChaBma                   instance attribute (kept as count)
 *   SUBSYSTEM LEAF leaf1                 a board instance
 *      P1 -> spine2 P1                   board port to an instance's port
 *      P13 -> L1/P1                      board port to a front-panel name
 *
 * Names are ibnl(1)'s NAME characters plus '-' (system names such as
 * MTS14400-48 use it); '#' starts a comment (ibdm's scanner skips them).
 * Flattening follows ibdm SysDef: instances are numbered by path
 * ("leaf1/U1"), a connection listed from both ends is one cable, and a
 * connection to a board port the chosen board variant lacks is dropped
 * (NOTE-1 of ibnl(1): a 4x leaf has no 12x connectors).
 */
#define _GNU_SOURCE /* strndup */
#include "io/ibnl.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include <fabriclint/fabric.h>
#include <fabriclint/types.h>

#include "io/fileio.h"
#include "model/file_digest.h"
#include "model/grow.h"
#include "model/hashmap.h"

typedef struct sp {
  uint32_t o, n; /* offset into the file's text, length */
} sp;

typedef struct inst {
  uint8_t is_node;
  sp name, type; /* node: model; subsystem: board type */
  uint32_t kind, nports;
  uint32_t line, col;
  uint32_t first_conn, n_conn;
} inst;

typedef struct iconn {
  sp from, to_inst, to_port; /* to_inst.n == 0: a connector of the board */
  uint8_t width, speed;
  uint32_t line, col_from, col_to;
} iconn;

typedef struct def {
  uint32_t first_name, n_names;
  uint32_t first_inst, n_inst;
  uint32_t line;
} def;

struct fl_ibnl_file {
  char *path, *text;
  size_t len;
  def *defs;
  size_t n_defs, cap_defs;
  sp *names;
  size_t n_names, cap_names;
  inst *insts;
  size_t n_insts, cap_insts;
  iconn *conns;
  size_t n_conns, cap_conns;
  uint32_t attrs; /* instance attributes seen (U1=isChaBma) */
  char *top;      /* first TOPSYSTEM name */
};

static int same(const fl_ibnl_file *f, sp a, const char *s, size_t n) {
  return a.n == n && memcmp(f->text + a.o, s, n) == 0;
}
static int same_ci(const fl_ibnl_file *f, sp a, const char *s, size_t n) {
  return a.n == n && strncasecmp(f->text + a.o, s, n) == 0;
}

/* ---- arrows (shared with the .topo loader) ---------------------------- */

int fl_ibdm_arrow_parse(const char *s, size_t n, uint32_t *width,
                        uint32_t *speed) {
  *width = 0;
  *speed = 0;
  if (n == 2)
    return s[0] == '-' && s[1] == '>';
  if (n < 2 || s[0] != '-' || s[n - 1] != '>' || s[n - 2] != '-')
    return 0;
  const char *p = s + 1, *end = s + n - 2;
  while (p < end) {
    const char *e = memchr(p, '-', (size_t)(end - p));
    if (!e)
      e = end;
    size_t k = (size_t)(e - p);
    if (!k)
      return 0;
    uint32_t w = fl_width_parse(p, k);
    if (w && !*width && !*speed) {
      *width = w;
    } else {
      static const struct {
        const char *s;
        uint32_t sp;
      } RATES[] = {{"2.5G", FL_SPEED_SDR}, {"5G", FL_SPEED_DDR},
                   {"10G", FL_SPEED_QDR},  {"14G", FL_SPEED_FDR},
                   {"25G", FL_SPEED_EDR},  {"50G", FL_SPEED_HDR},
                   {"100G", FL_SPEED_NDR}, {"200G", FL_SPEED_XDR}};
      uint32_t v = 0;
      for (size_t i = 0; i < sizeof RATES / sizeof *RATES; i++)
        if (strlen(RATES[i].s) == k && strncasecmp(p, RATES[i].s, k) == 0)
          v = RATES[i].sp;
      if (!v) {
        v = fl_speed_parse(p, k);
        if (v >= FL_SPEED_ETH_1G)
          v = 0;
      }
      if (!v || *speed)
        return 0;
      *speed = v;
    }
    p = e + 1;
  }
  return 1;
}

/* ---- parsing ----------------------------------------------------------- */

typedef struct pst {
  fl_ibnl_file *f;
  fl_error *err;
  uint32_t line;
  const char *ls; /* start of the current line */
  int in_def, has_top, cur_inst;
  fl_strmap inst_names; /* of the current definition -> instance index */
} pst;

static int perr(pst *p, const char *at, const char *fmt, const char *tok,
                size_t tn) {
  size_t q = tn > 40 ? 40 : tn;
  char msg[512];
  snprintf(msg, sizeof msg, fmt, (int)q, tok ? tok : "");
  return fl_error_set(p->err, FL_EPARSE, p->f->path, p->line,
                      at ? (uint32_t)(at - p->ls) + 1 : 0, "%s%s", msg,
                      tn > q ? "..." : "");
}

static int nomem(pst *p) {
  return fl_error_set(p->err, FL_ENOMEM, p->f->path, 0, 0, "out of memory");
}

static int name_char(int c) {
  return isalnum(c) || strchr("[]\\*/_.:%@~-", c) != NULL;
}

/* Next blank-separated token in [*pp, e); its span and start. */
static int next_tok(pst *p, const char **pp, const char *e, sp *t,
                    const char **at) {
  const char *s = *pp;
  while (s < e && isspace((unsigned char)*s))
    s++;
  if (s >= e)
    return 0;
  const char *b = s;
  while (s < e && !isspace((unsigned char)*s))
    s++;
  *t = (sp){(uint32_t)(b - p->f->text), (uint32_t)(s - b)};
  *at = b;
  *pp = s;
  return 1;
}

static int check_name(pst *p, sp t, const char *at, const char *what) {
  for (uint32_t i = 0; i < t.n; i++)
    if (!name_char((unsigned char)p->f->text[t.o + i])) {
      char fmt[160];
      snprintf(fmt, sizeof fmt,
               "bad character in %s '%%.*s'; names use "
               "letters, digits and []\\*/_.:%%%%@~-",
               what);
      return perr(p, at + i, fmt, at, t.n);
    }
  return FL_OK;
}

/* 1..65535 into *v, else 0. */
static int parse_uint(const char *s, size_t n, uint32_t *v) {
  uint32_t x = 0;
  if (!n || n > 5)
    return 0;
  for (size_t i = 0; i < n; i++) {
    if (!isdigit((unsigned char)s[i]))
      return 0;
    x = x * 10 + (uint32_t)(s[i] - '0');
  }
  if (!x || x > 65535)
    return 0;
  *v = x;
  return 1;
}

/* "SYSTEM a, b,c" / "TOPSYSTEM ..." from just after the keyword. */
static int p_system(pst *p, const char *s, const char *e, int top,
                    const char *kw) {
  fl_ibnl_file *f = p->f;
  if (p->has_top)
    return perr(p, kw,
                "%.*s after the TOPSYSTEM; the TOPSYSTEM is the last "
                "definition of a file",
                kw, top ? 9 : 6);
  if (fl_grow((void **)&f->defs, &f->cap_defs, f->n_defs + 1,
              sizeof *f->defs) != 0)
    return nomem(p);
  def *d = &f->defs[f->n_defs++];
  *d = (def){(uint32_t)f->n_names, 0, (uint32_t)f->n_insts, 0, p->line};
  for (;;) {
    while (s < e && isspace((unsigned char)*s))
      s++;
    const char *b = s;
    while (s < e && *s != ',' && !isspace((unsigned char)*s))
      s++;
    if (s == b)
      return perr(p, b, "expected a system name%.*s", "", 0);
    sp t = {(uint32_t)(b - f->text), (uint32_t)(s - b)};
    int rc = check_name(p, t, b, "system name");
    if (rc != FL_OK)
      return rc;
    if (fl_grow((void **)&f->names, &f->cap_names, f->n_names + 1,
                sizeof *f->names) != 0)
      return nomem(p);
    f->names[f->n_names++] = t;
    d->n_names++;
    while (s < e && isspace((unsigned char)*s))
      s++;
    if (s >= e)
      break;
    if (*s != ',')
      return perr(p, s,
                  "expected ',' or the end of the line after a system "
                  "name%.*s",
                  "", 0);
    s++;
  }
  if (top) {
    p->has_top = 1;
    sp t = f->names[d->first_name];
    f->top = strndup(f->text + t.o, t.n);
    if (!f->top)
      return nomem(p);
  }
  p->in_def = 1;
  p->cur_inst = -1;
  fl_strmap_free(&p->inst_names);
  memset(&p->inst_names, 0, sizeof p->inst_names);
  return FL_OK;
}

static int add_inst(pst *p, inst *in) {
  fl_ibnl_file *f = p->f;
  if (fl_grow((void **)&f->insts, &f->cap_insts, f->n_insts + 1,
              sizeof *f->insts) != 0)
    return nomem(p);
  def *d = &f->defs[f->n_defs - 1];
  /* instance names are unique within a definition */
  uint32_t i = fl_strmap_put(&p->inst_names, f->text + in->name.o, in->name.n,
                             (uint32_t)f->n_insts);
  if (i == FL_MAP_ABSENT)
    return nomem(p);
  if (i != f->n_insts) {
    char fmt[128];
    snprintf(fmt, sizeof fmt,
             "instance '%%.*s' is defined twice in this system (first at "
             "line %u)",
             f->insts[i].line);
    return perr(p, p->ls + in->col - 1, fmt, f->text + in->name.o, in->name.n);
  }
  in->first_conn = (uint32_t)f->n_conns;
  f->insts[f->n_insts++] = *in;
  d->n_inst++;
  p->cur_inst = (int)(f->n_insts - 1);
  return FL_OK;
}

/* NODE SW|CA|HCA <ports> <model> <name> */
static int p_node(pst *p, const char *s, const char *e) {
  sp t[5];
  const char *at[5];
  int n = 0;
  while (n < 5 && next_tok(p, &s, e, &t[n], &at[n]))
    n++;
  sp extra;
  const char *xat;
  if (n < 4)
    return perr(p, n ? at[n - 1] + t[n - 1].n : s,
                "expected `NODE SW|CA|HCA <ports> <model> <name>`%.*s", "", 0);
  if (next_tok(p, &s, e, &extra, &xat) || n > 4)
    return perr(p, n > 4 ? at[4] : xat, "unexpected '%.*s' after the node name",
                n > 4 ? at[4] : xat, n > 4 ? t[4].n : extra.n);
  inst in = {0};
  in.is_node = 1;
  const fl_ibnl_file *f = p->f;
  if (same(f, t[0], "SW", 2))
    in.kind = FL_NODE_SWITCH;
  else if (same(f, t[0], "CA", 2) || same(f, t[0], "HCA", 3))
    in.kind = FL_NODE_CA;
  else
    return perr(p, at[0], "node type '%.*s'; expected SW, CA or HCA", at[0],
                t[0].n);
  if (!parse_uint(at[1], t[1].n, &in.nports) || in.nports > 255)
    return perr(p, at[1], "port count '%.*s'; expected 1 to 255", at[1],
                t[1].n);
  int rc = check_name(p, t[2], at[2], "node model");
  if (rc == FL_OK)
    rc = check_name(p, t[3], at[3], "node name");
  if (rc != FL_OK)
    return rc;
  in.type = t[2];
  in.name = t[3];
  in.line = p->line;
  in.col = (uint32_t)(at[3] - p->ls) + 1;
  return add_inst(p, &in);
}

/* SUBSYSTEM <type> <name> */
static int p_subsystem(pst *p, const char *s, const char *e) {
  sp t[3];
  const char *at[3];
  int n = 0;
  while (n < 3 && next_tok(p, &s, e, &t[n], &at[n]))
    n++;
  if (n < 2)
    return perr(p, n ? at[0] + t[0].n : s,
                "expected `SUBSYSTEM <board type> <instance name>`%.*s", "", 0);
  if (n > 2)
    return perr(p, at[2], "unexpected '%.*s' after the instance name", at[2],
                t[2].n);
  int rc = check_name(p, t[0], at[0], "board type");
  if (rc == FL_OK)
    rc = check_name(p, t[1], at[1], "instance name");
  if (rc != FL_OK)
    return rc;
  inst in = {0};
  in.type = t[0];
  in.name = t[1];
  in.line = p->line;
  in.col = (uint32_t)(at[1] - p->ls) + 1;
  return add_inst(p, &in);
}

/* FROM -[W-][S-]> TO [PORT] ; @arrow points at the '-' of "->". */
static int p_conn(pst *p, const char *s, const char *e, const char *gt) {
  fl_ibnl_file *f = p->f;
  if (p->cur_inst < 0)
    return perr(p, s,
                "connection before any NODE or SUBSYSTEM of this "
                "system%.*s",
                "", 0);
  /* the arrow token starts after a blank */
  const char *a = gt;
  while (a > s && !isspace((unsigned char)a[-1]))
    a--;
  if (*a != '-')
    return perr(p, a,
                "expected blanks before the link arrow in '%.*s' "
                "(`PORT -> NAME [PORT]`)",
                a, (size_t)(gt + 2 - a));
  uint32_t w, sd;
  if (!fl_ibdm_arrow_parse(a, (size_t)(gt + 2 - a), &w, &sd))
    return perr(p, a,
                "bad link arrow '%.*s'; expected ->, -4x->, -4x-5G-> (widths "
                "1x 4x 8x 12x, speeds 2.5G 5G 10G..200G)",
                a, (size_t)(gt + 2 - a));
  iconn c = {0};
  c.width = (uint8_t)w;
  c.speed = (uint8_t)sd;
  c.line = p->line;
  const char *q = s, *at;
  if (!next_tok(p, &q, a, &c.from, &at))
    return perr(p, a, "expected the port before the link arrow%.*s", "", 0);
  c.col_from = (uint32_t)(at - p->ls) + 1;
  sp extra;
  const char *xat;
  if (next_tok(p, &q, a, &extra, &xat))
    return perr(p, xat, "unexpected '%.*s' before the link arrow", xat,
                extra.n);
  const inst *cur = &f->insts[p->cur_inst];
  uint32_t num;
  if (cur->is_node) {
    if (!parse_uint(at, c.from.n, &num))
      return perr(p, at, "node port '%.*s'; expected a port number", at,
                  c.from.n);
  } else {
    int rc = check_name(p, c.from, at, "board port");
    if (rc != FL_OK)
      return rc;
  }
  q = gt + 2;
  sp t1, t2;
  const char *a1, *a2;
  if (!next_tok(p, &q, e, &t1, &a1))
    return perr(p, gt + 2,
                "expected a connector name, or an instance and its port, "
                "after the link arrow%.*s",
                "", 0);
  int rc = check_name(p, t1, a1, "name");
  if (rc != FL_OK)
    return rc;
  c.col_to = (uint32_t)(a1 - p->ls) + 1;
  if (next_tok(p, &q, e, &t2, &a2)) {
    rc = check_name(p, t2, a2, "port");
    if (rc != FL_OK)
      return rc;
    if (next_tok(p, &q, e, &extra, &xat))
      return perr(p, xat, "unexpected '%.*s' after the far port", xat, extra.n);
    c.to_inst = t1;
    c.to_port = t2;
  } else {
    c.to_port = t1;
  }
  if (fl_grow((void **)&f->conns, &f->cap_conns, f->n_conns + 1,
              sizeof *f->conns) != 0)
    return nomem(p);
  f->conns[f->n_conns++] = c;
  f->insts[p->cur_inst].n_conn++;
  return FL_OK;
}

/* NAME=NAME[=NAME|INT] */
static int p_attr(pst *p, const char *s, const char *e) {
  fl_ibnl_file *f = p->f;
  if (!p->in_def || p->cur_inst >= 0 || f->n_defs == 0 ||
      f->defs[f->n_defs - 1].n_inst)
    return perr(p, s,
                "instance attribute outside the head of a system (expected "
                "right after the SYSTEM/TOPSYSTEM line)%.*s",
                "", 0);
  int parts = 0;
  const char *b = s;
  for (const char *q = s; q <= e; q++) {
    if (q == e || *q == '=') {
      if (q == b)
        return perr(p, q, "expected `NAME=VALUE[=VALUE]`%.*s", "", 0);
      for (const char *r = b; r < q; r++)
        if (!name_char((unsigned char)*r))
          return perr(p, r, "bad character in attribute '%.*s'", b,
                      (size_t)(q - b));
      parts++;
      b = q + 1;
    }
  }
  if (parts < 2 || parts > 3)
    return perr(p, s, "expected `NAME=VALUE[=VALUE]`, got '%.*s'", s,
                (size_t)(e - s));
  f->attrs++;
  return FL_OK;
}

static int p_line(pst *p, const char *s, const char *e) {
  while (s < e && isspace((unsigned char)*s))
    s++;
  while (e > s && isspace((unsigned char)e[-1]))
    e--;
  if (s == e)
    return FL_OK;
  const char *k = s;
  while (k < e && !isspace((unsigned char)*k))
    k++;
  size_t kn = (size_t)(k - s);
  if (kn == 9 && memcmp(s, "TOPSYSTEM", 9) == 0)
    return p_system(p, k, e, 1, s);
  if (kn == 6 && memcmp(s, "SYSTEM", 6) == 0)
    return p_system(p, k, e, 0, s);
  if (!p->in_def)
    return perr(p, s, "expected SYSTEM or TOPSYSTEM, got '%.*s'", s, kn);
  if (kn == 4 && memcmp(s, "NODE", 4) == 0)
    return p_node(p, k, e);
  if (kn == 9 && memcmp(s, "SUBSYSTEM", 9) == 0)
    return p_subsystem(p, k, e);
  const char *gt = NULL;
  for (const char *q = s; q + 1 < e; q++)
    if (q[0] == '-' && q[1] == '>') {
      gt = q;
      break;
    }
  if (gt)
    return p_conn(p, s, e, gt);
  if (memchr(s, '=', (size_t)(e - s)) && kn == (size_t)(e - s))
    return p_attr(p, s, e);
  return perr(p, s,
              "expected NODE, SUBSYSTEM, a connection `PORT -> NAME [PORT]` "
              "or an attribute `NAME=VALUE`, got '%.*s'",
              s, kn);
}

int fl_ibnl_parse(const char *path, const char *buf, size_t len,
                  fl_ibnl_file **out, fl_error *err) {
  *out = NULL;
  size_t bom = fl_utf8_bom(buf, len);
  buf += bom;
  len -= bom;
  fl_ibnl_file *f = calloc(1, sizeof *f);
  if (!f || len > UINT32_MAX / 2)
    goto oom;
  f->path = strdup(path ? path : "");
  f->text = malloc(len + 1);
  if (!f->path || !f->text)
    goto oom;
  memcpy(f->text, buf, len);
  f->text[len] = '\0';
  f->len = len;
  pst p = {f, err, 0, f->text, 0, 0, -1, {0}};
  const char *s = f->text, *end = f->text + len;
  int rc = FL_OK;
  while (s < end && rc == FL_OK) {
    const char *nl = memchr(s, '\n', (size_t)(end - s));
    const char *le = nl ? nl : end;
    p.line++;
    p.ls = s;
    const char *nul = memchr(s, '\0', (size_t)(le - s));
    if (nul) {
      rc = perr(&p, nul, "NUL byte in a text file%.*s", "", 0);
      break;
    }
    const char *hash = memchr(s, '#', (size_t)(le - s));
    rc = p_line(&p, s, hash ? hash : le);
    s = nl ? nl + 1 : end;
  }
  fl_strmap_free(&p.inst_names);
  if (rc == FL_OK && !p.has_top)
    rc = fl_error_set(err, FL_EPARSE, f->path, p.line ? p.line : 1, 0,
                      "no TOPSYSTEM; an IBNL file defines one system with "
                      "`TOPSYSTEM <name>[,<alias>...]`");
  if (rc != FL_OK) {
    fl_ibnl_free(f);
    return rc;
  }
  *out = f;
  return FL_OK;
oom:
  fl_ibnl_free(f);
  return fl_error_set(err, FL_ENOMEM, path, 0, 0, "out of memory");
}

void fl_ibnl_free(fl_ibnl_file *f) {
  if (!f)
    return;
  free(f->path);
  free(f->text);
  free(f->defs);
  free(f->names);
  free(f->insts);
  free(f->conns);
  free(f->top);
  free(f);
}

const char *fl_ibnl_path(const fl_ibnl_file *f) {
  return f->path;
}

const char *fl_ibnl_top_name(const fl_ibnl_file *f) {
  return f->top;
}

static const def *top_def(const fl_ibnl_file *f) {
  return &f->defs[f->n_defs - 1];
}

int fl_ibnl_names(const fl_ibnl_file *f, const char *name, size_t len) {
  const def *d = top_def(f);
  for (uint32_t i = 0; i < d->n_names; i++)
    if (same(f, f->names[d->first_name + i], name, len))
      return 2;
  for (uint32_t i = 0; i < d->n_names; i++)
    if (same_ci(f, f->names[d->first_name + i], name, len))
      return 1;
  return 0;
}

/* ---- flattening -------------------------------------------------------- */

typedef struct term {
  uint32_t node, port; /* node UINT32_MAX: none (a dangling board port) */
} term;

typedef struct pmap { /* the connectors of one instantiated board */
  sp *name;
  term *t;
  size_t n, cap;
  fl_strmap idx; /* name -> entry */
} pmap;

typedef struct fst {
  const fl_ibnl_file *f;
  const char *cfg;
  fl_ibnl_sys *out;
  fl_error *err;
  size_t cap_nodes, cap_links, cap_ports;
  fl_u64map used;             /* node << 32 | port -> link index */
  fl_strmap defs, defs_lower; /* board name (as is, lower case) -> def */
  uint32_t work;              /* instances expanded so far */
} fst;

/* More instances than any real system (a 648-port director has 54 ASICs
 * on 36 boards): boards nested in boards multiply, so a definition that
 * instantiates 10 boards of 10 boards ... is refused instead of exhausting
 * memory. */
#define MAX_INSTANCES (1u << 20)

static size_t lower(const char *s, size_t n, char *out, size_t size) {
  if (n > size)
    n = size;
  for (size_t k = 0; k < n; k++)
    out[k] = (char)tolower((unsigned char)s[k]);
  return n;
}

/* The boards' names, indexed once per flattening. */
static int index_defs(fst *s) {
  const fl_ibnl_file *f = s->f;
  char low[256];
  for (size_t d = 0; d + 1 < f->n_defs; d++)
    for (uint32_t k = 0; k < f->defs[d].n_names; k++) {
      sp nm = f->names[f->defs[d].first_name + k];
      size_t ln = lower(f->text + nm.o, nm.n, low, sizeof low);
      if (fl_strmap_put(&s->defs, f->text + nm.o, nm.n, (uint32_t)d) ==
              FL_MAP_ABSENT ||
          fl_strmap_put(&s->defs_lower, low, ln, (uint32_t)d) == FL_MAP_ABSENT)
        return -1;
    }
  return 0;
}

static int ferr(fst *s, uint32_t line, uint32_t col, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static int ferr(fst *s, uint32_t line, uint32_t col, const char *fmt, ...) {
  char msg[FL_ERROR_MSG_MAX];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  return fl_error_set(s->err, FL_EPARSE, s->f->path, line, col, "%s", msg);
}

static int fnomem(fst *s) {
  return fl_error_set(s->err, FL_ENOMEM, s->f->path, 0, 0, "out of memory");
}

static int pmap_put(const fl_ibnl_file *f, pmap *m, sp name, term t) {
  if (fl_strmap_put(&m->idx, f->text + name.o, name.n, (uint32_t)m->n) != m->n)
    return -1; /* ENOMEM (callers put only absent names) */
  if (m->n == m->cap) {
    size_t nc = m->cap ? m->cap * 2 : 16;
    sp *nn = realloc(m->name, nc * sizeof *nn);
    if (!nn)
      return -1;
    m->name = nn;
    term *nt = realloc(m->t, nc * sizeof *nt);
    if (!nt)
      return -1;
    m->t = nt;
    m->cap = nc;
  }
  m->name[m->n] = name;
  m->t[m->n++] = t;
  return 0;
}

static const term *pmap_get(const fl_ibnl_file *f, const pmap *m, sp name) {
  uint32_t i = fl_strmap_get(&m->idx, f->text + name.o, name.n);
  return i == FL_MAP_ABSENT ? NULL : &m->t[i];
}

static void pmap_free(pmap *m) {
  free(m->name);
  free(m->t);
  fl_strmap_free(&m->idx);
}

/* The definition named @n (a board type, with the modifier the CFG gives
 * instance @path, if any). */
static const def *find_def(fst *s, sp n, const char *path, const inst *in,
                           int *rc, int *removed) {
  const fl_ibnl_file *f = s->f;
  char want[256];
  int mod_r = 0;
  snprintf(want, sizeof want, "%.*s", (int)n.n, f->text + n.o);
  /* CFG: "name=mod" pairs separated by ',' or blanks */
  const char *c = s->cfg ? s->cfg : "";
  size_t pl = strlen(path);
  while (*c) {
    while (*c == ',' || isspace((unsigned char)*c))
      c++;
    const char *b = c;
    while (*c && *c != ',' && !isspace((unsigned char)*c))
      c++;
    const char *eq = memchr(b, '=', (size_t)(c - b));
    if (eq && (size_t)(eq - b) == pl && strncmp(b, path, pl) == 0) {
      snprintf(want, sizeof want, "%.*s:%.*s", (int)n.n, f->text + n.o,
               (int)(c - eq - 1), eq + 1);
      mod_r = c - eq - 1 == 1 && eq[1] == 'R';
      break;
    }
  }
  size_t wl = strlen(want);
  uint32_t d = fl_strmap_get(&s->defs, want, wl);
  if (d == FL_MAP_ABSENT) {
    char low[256];
    size_t ln = lower(want, wl, low, sizeof low);
    d = fl_strmap_get(&s->defs_lower, low, ln);
  }
  if (d != FL_MAP_ABSENT)
    return &f->defs[d];
  if (mod_r) { /* `leaf3=R`: the board is not there (ibdm-topo-file(1)) */
    *removed = 1;
    return NULL;
  }
  *rc = ferr(s, in->line, in->col - (uint32_t)n.n - 1,
             "board type %s of instance %s is not defined by a SYSTEM of "
             "this file",
             want, path);
  return NULL;
}

static int add_link(fst *s, term a, term b, const iconn *c) {
  fl_ibnl_sys *o = s->out;
  uint64_t ka = (uint64_t)a.node << 32 | a.port,
           kb = (uint64_t)b.node << 32 | b.port;
  if (ka == kb)
    return ferr(s, c->line, c->col_from, "port %u of %s is connected to itself",
                a.port, o->nodes[a.node].name);
  uint32_t la = fl_u64map_get(&s->used, ka), lb = fl_u64map_get(&s->used, kb);
  if (la != FL_MAP_ABSENT && la == lb)
    return FL_OK; /* the same cable listed from its other end */
  if (la != FL_MAP_ABSENT || lb != FL_MAP_ABSENT) {
    term t = la != FL_MAP_ABSENT ? a : b;
    return ferr(s, c->line, c->col_from,
                "port %u of %s is already connected (a port takes one "
                "cable)",
                t.port, o->nodes[t.node].name);
  }
  if (fl_grow((void **)&o->links, &s->cap_links, o->n_links + 1,
              sizeof *o->links) != 0)
    return fnomem(s);
  uint32_t id = (uint32_t)o->n_links;
  o->links[o->n_links++] =
      (fl_ibnl_link){a.node, a.port, b.node, b.port, c->width, c->speed};
  if (fl_u64map_put(&s->used, ka, id) == FL_MAP_ABSENT ||
      fl_u64map_put(&s->used, kb, id) == FL_MAP_ABSENT)
    return fnomem(s);
  return FL_OK;
}

static int flatten_def(fst *s, const def *d, const char *prefix, int depth,
                       pmap *mine);

/* Where (instance @name, port @port) of definition @d ends: a node port or
 * a connector of an instantiated board. *@t .node UINT32_MAX: dangling. */
static int resolve(fst *s, const def *d, const fl_strmap *names,
                   const term *base, const pmap *subs, sp name, sp port,
                   uint32_t line, uint32_t col, term *t) {
  const fl_ibnl_file *f = s->f;
  uint32_t i = fl_strmap_get(names, f->text + name.o, name.n);
  if (i != FL_MAP_ABSENT) {
    const inst *in = &f->insts[d->first_inst + i];
    if (in->is_node) {
      uint32_t num;
      if (!parse_uint(f->text + port.o, port.n, &num) || num > in->nports)
        return ferr(s, line, col,
                    "port '%.*s' of node %.*s; expected a number from 1 to "
                    "%u",
                    (int)port.n, f->text + port.o, (int)in->name.n,
                    f->text + in->name.o, in->nports);
      *t = (term){base[i].node, num};
      return FL_OK;
    }
    const term *x = pmap_get(f, &subs[i], port);
    *t = x ? *x : (term){UINT32_MAX, 0};
    return FL_OK;
  }
  return ferr(s, line, col, "no instance '%.*s' in this system", (int)name.n,
              f->text + name.o);
}

static int flatten_def(fst *s, const def *d, const char *prefix, int depth,
                       pmap *mine) {
  const fl_ibnl_file *f = s->f;
  fl_ibnl_sys *o = s->out;
  if (depth > 16)
    return ferr(s, d->line, 1,
                "boards nested more than 16 deep (does a SYSTEM contain "
                "itself?)");
  s->work += d->n_inst + 1;
  if (s->work > MAX_INSTANCES)
    return ferr(s, d->line, 1,
                "the system expands to more than %u instances (boards "
                "nested in boards); no real system has that many",
                MAX_INSTANCES);
  term *base = calloc(d->n_inst + 1, sizeof *base);
  pmap *subs = calloc(d->n_inst + 1, sizeof *subs);
  fl_strmap names;
  memset(&names, 0, sizeof names);
  int rc = FL_OK;
  if (!base || !subs) {
    rc = fnomem(s);
    goto out;
  }
  for (uint32_t i = 0; i < d->n_inst; i++) {
    sp nm = f->insts[d->first_inst + i].name;
    if (fl_strmap_put(&names, f->text + nm.o, nm.n, i) == FL_MAP_ABSENT) {
      rc = fnomem(s);
      goto out;
    }
  }
  for (uint32_t i = 0; i < d->n_inst && rc == FL_OK; i++) {
    const inst *in = &f->insts[d->first_inst + i];
    char path[1024];
    int pn = snprintf(path, sizeof path, "%s%.*s", prefix, (int)in->name.n,
                      f->text + in->name.o);
    if (pn < 0 || (size_t)pn >= sizeof path) {
      rc = ferr(s, in->line, in->col, "instance path too long");
      break;
    }
    if (in->is_node) {
      if (fl_grow((void **)&o->nodes, &s->cap_nodes, o->n_nodes + 1,
                  sizeof *o->nodes) != 0) {
        rc = fnomem(s);
        break;
      }
      fl_ibnl_node *nd = &o->nodes[o->n_nodes];
      nd->name = strdup(path);
      nd->model = strndup(f->text + in->type.o, in->type.n);
      nd->kind = in->kind;
      nd->ports = in->nports;
      o->n_nodes++;
      if (!nd->name || !nd->model) {
        rc = fnomem(s);
        break;
      }
      base[i] = (term){(uint32_t)o->n_nodes - 1, 0};
    } else {
      int removed = 0;
      const def *sub = find_def(s, in->type, path, in, &rc, &removed);
      if (removed) {
        o->removed++; /* its connections dangle */
        continue;
      }
      if (!sub)
        break;
      char pre[1030];
      snprintf(pre, sizeof pre, "%s/", path);
      rc = flatten_def(s, sub, pre, depth + 1, &subs[i]);
    }
  }
  for (uint32_t i = 0; i < d->n_inst && rc == FL_OK; i++) {
    const inst *in = &f->insts[d->first_inst + i];
    for (uint32_t k = 0; k < in->n_conn && rc == FL_OK; k++) {
      const iconn *c = &f->conns[in->first_conn + k];
      term a, b;
      rc = resolve(s, d, &names, base, subs, in->name, c->from, c->line,
                   c->col_from, &a);
      if (rc != FL_OK)
        break;
      if (c->to_inst.n) {
        rc = resolve(s, d, &names, base, subs, c->to_inst, c->to_port, c->line,
                     c->col_to, &b);
        if (rc != FL_OK)
          break;
        if (a.node == UINT32_MAX || b.node == UINT32_MAX) {
          if (!o->dangling++)
            o->dangling_line = c->line;
        } else
          rc = add_link(s, a, b, c);
      } else if (a.node == UINT32_MAX) {
        if (!o->dangling++)
          o->dangling_line = c->line;
      } else {
        const term *x = pmap_get(f, mine, c->to_port);
        if (x && (x->node != a.node || x->port != a.port))
          rc = ferr(s, c->line, c->col_to,
                    "connector %.*s is wired to two ports (a connector "
                    "takes one)",
                    (int)c->to_port.n, f->text + c->to_port.o);
        else if (!x && pmap_put(f, mine, c->to_port, a) != 0)
          rc = fnomem(s);
      }
    }
  }
out:
  fl_strmap_free(&names);
  for (uint32_t i = 0; subs && i < d->n_inst; i++)
    pmap_free(&subs[i]);
  free(subs);
  free(base);
  return rc;
}

int fl_ibnl_flatten(const fl_ibnl_file *f, const char *cfg, fl_ibnl_sys *out,
                    fl_error *err) {
  memset(out, 0, sizeof *out);
  fst s = {.f = f, .cfg = cfg, .out = out, .err = err};
  pmap top = {0};
  int rc = index_defs(&s) != 0 ? fnomem(&s)
                               : flatten_def(&s, top_def(f), "", 0, &top);
  /* the front panel; a port wired inside the system and to a connector
   * too is an error */
  for (size_t i = 0; rc == FL_OK && i < top.n; i++) {
    uint64_t k = (uint64_t)top.t[i].node << 32 | top.t[i].port;
    if (fl_u64map_get(&s.used, k) != FL_MAP_ABSENT) {
      rc = fl_error_set(err, FL_EPARSE, f->path, top_def(f)->line, 0,
                        "connector %.*s is port %u of %s, which is also "
                        "cabled inside the system",
                        (int)top.name[i].n, f->text + top.name[i].o,
                        top.t[i].port, out->nodes[top.t[i].node].name);
      break;
    }
    if (fl_grow((void **)&out->ports, &s.cap_ports, out->n_ports + 1,
                sizeof *out->ports) != 0) {
      rc = fnomem(&s);
      break;
    }
    fl_ibnl_port *p = &out->ports[out->n_ports++];
    p->node = top.t[i].node;
    p->port = top.t[i].port;
    p->name = strndup(f->text + top.name[i].o, top.name[i].n);
    if (!p->name) {
      rc = fnomem(&s);
      break;
    }
    char low[256];
    size_t n = lower(p->name, strlen(p->name), low, sizeof low);
    if (fl_strmap_put(&out->by_name, p->name, strlen(p->name), (uint32_t)i) ==
            FL_MAP_ABSENT ||
        fl_strmap_put(&out->by_lower, low, n, (uint32_t)i) == FL_MAP_ABSENT)
      rc = fnomem(&s);
  }
  pmap_free(&top);
  fl_u64map_free(&s.used);
  fl_strmap_free(&s.defs);
  fl_strmap_free(&s.defs_lower);
  if (rc != FL_OK)
    fl_ibnl_sys_free(out);
  return rc;
}

void fl_ibnl_sys_free(fl_ibnl_sys *s) {
  for (size_t i = 0; i < s->n_nodes; i++) {
    free(s->nodes[i].name);
    free(s->nodes[i].model);
  }
  for (size_t i = 0; i < s->n_ports; i++)
    free(s->ports[i].name);
  free(s->nodes);
  free(s->links);
  free(s->ports);
  fl_strmap_free(&s->by_name);
  fl_strmap_free(&s->by_lower);
  memset(s, 0, sizeof *s);
}

const fl_ibnl_port *fl_ibnl_port_find(const fl_ibnl_sys *s, const char *name,
                                      size_t len) {
  uint32_t i = fl_strmap_get(&s->by_name, name, len);
  if (i == FL_MAP_ABSENT && len <= 256) {
    char low[256];
    for (size_t k = 0; k < len; k++)
      low[k] = (char)tolower((unsigned char)name[k]);
    i = fl_strmap_get(&s->by_lower, low, len);
  }
  return i == FL_MAP_ABSENT ? NULL : &s->ports[i];
}

/* ---- the search path ----------------------------------------------------- */

struct fl_ibnl_lib {
  char *path;
  int read;
  fl_ibnl_file **files;
  size_t n_files, cap_files;
  char **skipped;
  size_t n_skipped, cap_skipped;
  char **read_paths; /* every file read, parsed or not, with its bytes' */
  fl_file_digest *read_digests; /* size and SHA-256 */
  size_t n_read, cap_read, cap_read_digests;
};

fl_ibnl_lib *fl_ibnl_lib_new(const char *dirs) {
  fl_ibnl_lib *l = calloc(1, sizeof *l);
  if (!l)
    return NULL;
  if (!dirs)
    dirs = getenv("FABRICLINT_IBNL_PATH");
  struct stat st;
  if (!dirs) /* unset: the system's; set but empty: none */
    dirs = stat(FL_IBNL_SYSTEM_DIR, &st) == 0 ? FL_IBNL_SYSTEM_DIR : "";
  l->path = strdup(dirs);
  if (!l->path) {
    free(l);
    return NULL;
  }
  return l;
}

void fl_ibnl_lib_free(fl_ibnl_lib *lib) {
  if (!lib)
    return;
  for (size_t i = 0; i < lib->n_files; i++)
    fl_ibnl_free(lib->files[i]);
  for (size_t i = 0; i < lib->n_skipped; i++)
    free(lib->skipped[i]);
  for (size_t i = 0; i < lib->n_read; i++)
    free(lib->read_paths[i]);
  free(lib->read_paths);
  free(lib->read_digests);
  free(lib->files);
  free(lib->skipped);
  free(lib->path);
  free(lib);
}

static int cmp_str(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

static int skip(fl_ibnl_lib *l, const fl_error *e) {
  char buf[FL_ERROR_FILE_MAX + FL_ERROR_MSG_MAX + 32];
  if (e->line && e->col)
    snprintf(buf, sizeof buf, "%s:%u:%u: %s", e->file, e->line, e->col,
             e->message);
  else if (e->line)
    snprintf(buf, sizeof buf, "%s:%u: %s", e->file, e->line, e->message);
  else
    snprintf(buf, sizeof buf, "%s: %s", e->file, e->message);
  if (fl_grow((void **)&l->skipped, &l->cap_skipped, l->n_skipped + 1,
              sizeof *l->skipped) != 0)
    return -1;
  l->skipped[l->n_skipped] = strdup(buf);
  if (!l->skipped[l->n_skipped])
    return -1;
  l->n_skipped++;
  return 0;
}

/* Keep @path and the size and SHA-256 of its @len bytes at @buf: a file
 * the run read (provenance; --output never replaces it). */
static void note_read(fl_ibnl_lib *l, const char *path, const char *buf,
                      size_t len) {
  if (fl_grow((void **)&l->read_paths, &l->cap_read, l->n_read + 1,
              sizeof *l->read_paths) != 0 ||
      fl_grow((void **)&l->read_digests, &l->cap_read_digests, l->n_read + 1,
              sizeof *l->read_digests) != 0)
    return;
  if (!(l->read_paths[l->n_read] = strdup(path)))
    return;
  fl_digest_of(&l->read_digests[l->n_read], buf, len);
  l->n_read++;
}

static void read_dir(fl_ibnl_lib *l, const char *dir) {
  DIR *d = opendir(dir);
  if (!d) {
    fl_error e;
    fl_error_clear(&e);
    fl_error_set(&e, FL_EIO, dir, 0, 0,
                 "IBNL folder of the search path cannot be read (%s)",
                 strerror(errno));
    skip(l, &e);
    return;
  }
  char **names = NULL;
  size_t n = 0, cap = 0;
  struct dirent *de;
  while ((de = readdir(d)) != NULL) {
    size_t k = strlen(de->d_name);
    if (k < 6 || strcmp(de->d_name + k - 5, ".ibnl") != 0)
      continue;
    if (fl_grow((void **)&names, &cap, n + 1, sizeof *names) != 0)
      break;
    names[n] = strdup(de->d_name);
    if (names[n])
      n++;
  }
  closedir(d);
  qsort(names, n, sizeof *names, cmp_str);
  for (size_t i = 0; i < n; i++) {
    char path[4096];
    int pl = snprintf(path, sizeof path, "%s/%s", dir, names[i]);
    free(names[i]);
    if (pl < 0 || (size_t)pl >= sizeof path)
      continue;
    char *buf = NULL;
    size_t len = 0;
    fl_error e;
    fl_error_clear(&e);
    fl_ibnl_file *f = NULL;
    struct stat st;
    /* regular files only: a FIFO named *.ibnl would block the run */
    if (stat(path, &st) != 0)
      fl_error_set(&e, FL_EIO, path, 0, 0, "cannot read: %s", strerror(errno));
    else if (!S_ISREG(st.st_mode))
      fl_error_set(&e, FL_EIO, path, 0, 0,
                   "not a regular file; an IBNL definition must be one");
    else if (fl_read_file(path, "IBNL file", &buf, &len, &e) == FL_OK) {
      note_read(l, path, buf, len);
      fl_ibnl_parse(path, buf, len, &f, &e);
    }
    free(buf);
    if (!f) {
      skip(l, &e);
      continue;
    }
    if (fl_grow((void **)&l->files, &l->cap_files, l->n_files + 1,
                sizeof *l->files) != 0) {
      fl_ibnl_free(f);
      continue;
    }
    l->files[l->n_files++] = f;
  }
  free(names);
}

const fl_ibnl_file *fl_ibnl_lib_find(fl_ibnl_lib *lib, const char *type,
                                     size_t len) {
  if (!lib)
    return NULL;
  if (!lib->read) {
    lib->read = 1;
    const char *p = lib->path;
    while (*p) {
      const char *c = strchr(p, ':');
      size_t n = c ? (size_t)(c - p) : strlen(p);
      if (n) {
        char dir[4096];
        snprintf(dir, sizeof dir, "%.*s", (int)n, p);
        read_dir(lib, dir);
      }
      p += n + (c ? 1 : 0);
    }
  }
  for (int want = 2; want >= 1; want--)
    for (size_t i = 0; i < lib->n_files; i++)
      if (fl_ibnl_names(lib->files[i], type, len) == want)
        return lib->files[i];
  return NULL;
}

const char *fl_ibnl_lib_read(const fl_ibnl_lib *lib, size_t i,
                             const fl_file_digest **digest) {
  if (!lib || i >= lib->n_read)
    return NULL;
  if (digest)
    *digest = &lib->read_digests[i];
  return lib->read_paths[i];
}

size_t fl_ibnl_lib_files(const fl_ibnl_lib *lib) {
  return lib ? lib->n_files : 0;
}

const char *fl_ibnl_lib_skipped(const fl_ibnl_lib *lib, size_t i) {
  return lib && i < lib->n_skipped ? lib->skipped[i] : NULL;
}

const char *fl_ibnl_lib_path(const fl_ibnl_lib *lib) {
  return lib ? lib->path : "";
}
