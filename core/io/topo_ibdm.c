/* SPDX-License-Identifier: MIT */
/*
 * core/io/topo_ibdm.c — the IBDM topology file: the as-designed InfiniBand plan
 * that `ibdiagnet -t`, `ibdmchk -t`, `ibtopodiff` and NVIDIA's UFM cable
 * validation read and `ibdiagnet -w` / UFM "Download Topology" write.
 *
 * Sources: ibutils ibdm/doc/ibdm-topo-file.pod and the parser
 * ibdm/ibdm/Fabric.cpp IBFabric::parseTopology() (the regular expressions
 * quoted below), notes/formats.md §2.4, docs/formats/ibdm-topo.md.
 *
 *   # comment
 *   MTS2400 SL1-1 [CFG: b1=mod,...]        system line: TYPE NAME
 *      P1 -4x-5G-> MT23108 H-1 P1           connection: PORT -[W-][S-]> TYPE
 * NAME PORT L1/P1 -> MTS2400 SL2-1 P3
 *
 *  - system line  ^\s*([^/\s]+)\s+([^/\s]+)\s*( CFG:(.*))?$
 *  - connection
 * ^\s*(\S+)\s+-((1|4|8|12)x-)?((2.5|5|10)G-)?>\s+(\S+)\s+(\S+)\s+(\S+) Sections
 * are separated by blank lines. fabriclint also accepts 2x and lane rates
 * 14G/25G/50G/100G/200G and speed names (SDR..XDR, FDR10) in the arrow, which
 * newer writers use (`-4x-50G->`).
 *
 * System types. ibdm resolves a TYPE through an IBNL file (the system's
 * internal switch ASICs and how front-panel ports map to them). fabriclint
 * ships no IBNL library, so every system is one node whose ports are the
 * front-panel names: `P<n>` is port n (label `P<n>`), other names
 * (`L1/P1`, `S3/P12`) keep their name as the label and get a number in order
 * of appearance; a CA port written `mlx5_0/P1` (UFM style) makes the node
 * "<system> mlx5_0" with port 1. A note per type says that its IBNL
 * definition was not used. The kind is a CA for HCA types (HCA*, MT23108,
 * MT25xxx, MT26xxx, MT4xxx, Cougar, ConnectX*) and for systems that never
 * get their own section and use only ports 1-2 (as hosts are written in
 * every sample), else a switch.
 *
 * Each cable is usually listed from both ends; the two listings are merged
 * (core/lldp_xml.c, the neighbour builder), cables are FL_LINK_DECLARED.
 */
#include "io/fileio.h"
#include "io/formats.h"
#include "io/ibnl.h"
#include "io/loaders.h"
#include "io/textscan.h"
#include "model/file_digest.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "model/alias.h"
#include "model/fabric_impl.h"
#include "model/grow.h"
#include "model/hashmap.h"

typedef struct tok {
  const char *s;
  size_t n;
  uint32_t col;
} tok;

typedef struct conn {
  uint32_t sys; /* index of the local system */
  tok lport, rtype, rname, rport;
  uint32_t width, speed;
  uint32_t line;
} conn;

typedef struct sysrec {
  const char *type, *name;
  size_t type_n, name_n;
  uint32_t line, col;
  int declared;  /* has its own section */
  uint32_t maxp; /* highest P<n> used */
  int dev_ports; /* uses "dev/P<n>" port names */
  fl_id node;
  const char *cfg; /* CFG: text of its system line, or NULL */
  size_t cfg_n;
  uint32_t x;   /* expanded through IBNL: index into topo.xs, else NONE */
  fl_id *asics; /* expanded: node id per IBNL node */
} sysrec;

/* A system type expanded through its IBNL definition (one per type and
 * CFG text). */
typedef struct xsys {
  const fl_ibnl_file *file;
  char *type, *cfg;
  fl_ibnl_sys sys;
} xsys;

typedef struct topo {
  fl_fabric *fab;
  const char *path;
  fl_error *err;
  char *buf;
  size_t len;
  sysrec *sys;
  size_t n_sys, cap_sys;
  fl_strmap sys_idx; /* canonical name -> sys index */
  conn *conns;
  size_t n_conns, cap_conns;
  fl_ibnl_lib *lib;
  xsys *xs;
  size_t n_xs, cap_xs;
  int failed; /* an error other than ENOMEM was recorded (its code) */
} topo;

static int split(const char *s, const char *end, const char *line0, tok *t,
                 int max) {
  int n = 0;
  while (s < end && n < max + 1) {
    while (s < end && isspace((unsigned char)*s))
      s++;
    if (s >= end)
      break;
    const char *b = s;
    while (s < end && !isspace((unsigned char)*s))
      s++;
    if (n < max)
      t[n] = (tok){b, (size_t)(s - b), (uint32_t)(b - line0) + 1};
    n++;
  }
  return n;
}

/* Width and speed of an arrow "-4x-5G->"; 0 when malformed. */
static int parse_arrow(const tok *a, uint32_t *width, uint32_t *speed) {
  return fl_ibdm_arrow_parse(a->s, a->n, width, speed);
}

static int is_hca_type(const char *t, size_t n) {
  if (n >= 3 && strncasecmp(t, "HCA", 3) == 0)
    return 1;
  if (n >= 8 && strncasecmp(t, "ConnectX", 8) == 0)
    return 1;
  if (n == 6 && strncasecmp(t, "Cougar", 6) == 0)
    return 1;
  if (n >= 6 && strncasecmp(t, "MT", 2) == 0 && isdigit((unsigned char)t[2])) {
    /* MT23108 MT25204 MT25208 MT25218 MT25408.. MT26428, MT4099..MT4131 */
    if (t[2] == '2' && (t[3] == '3' || t[3] == '5' || t[3] == '6'))
      return 1;
    if (t[2] == '4' && n == 6)
      return 1;
  }
  return 0;
}

/* 0 when @p is a valid port name; for `P<digits>` the number must be
 * 1..65535 (IBA ports are 1..254; Ethernet chassis ports stay far below). */
static int bad_port_name(const tok *p) {
  if (p->n < 2 || (p->s[0] != 'P' && p->s[0] != 'p'))
    return 0;
  uint64_t v = 0;
  for (size_t i = 1; i < p->n; i++) {
    if (!isdigit((unsigned char)p->s[i]))
      return 0; /* a label such as P1/2 or Port1: not a bare number */
    v = v * 10 + (uint64_t)(p->s[i] - '0');
    if (v > 65535)
      return 1;
  }
  return v == 0;
}

/* P<n> -> n, else 0. */
static uint32_t p_num(const char *s, size_t n) {
  if (n < 2 || (s[0] != 'P' && s[0] != 'p'))
    return 0;
  uint32_t v = 0;
  for (size_t i = 1; i < n; i++) {
    if (!isdigit((unsigned char)s[i]) || v > 100000)
      return 0;
    v = v * 10 + (uint32_t)(s[i] - '0');
  }
  return v;
}

static int topo_fail(topo *t, uint32_t line, uint32_t col, const char *msg,
                     const char *tokstr, size_t tokn) {
  /* the token quoted up to 40 bytes, then "...": a huge token must neither
   * fill the message nor be cut without saying so */
  size_t q = tokn > 40 ? 40 : tokn;
  return fl_error_set(t->err, FL_EPARSE, t->path, line, col, "%s%s%.*s%s%s",
                      msg, tokn ? " ('" : "", (int)q, tokstr ? tokstr : "",
                      tokn > q ? "..." : "", tokn ? "')" : "");
}

/* The system called (@name, @n) of @type, created on first mention. */
static int sys_get(topo *t, const tok *type, const tok *name, uint32_t line,
                   uint32_t *out) {
  char canon[FL_ALIAS_MAX];
  size_t cn = fl_alias_node(name->s, name->n, canon, sizeof canon);
  uint32_t i = fl_strmap_get(&t->sys_idx, canon, cn);
  if (i == FL_MAP_ABSENT) {
    if (fl_grow((void **)&t->sys, &t->cap_sys, t->n_sys + 1, sizeof *t->sys) !=
        0)
      return FL_ENOMEM;
    i = (uint32_t)t->n_sys++;
    t->sys[i] =
        (sysrec){type->s, name->s, type->n, name->n, line, name->col,  0,
                 0,       0,       FL_NONE, NULL,    0,    UINT32_MAX, NULL};
    if (fl_strmap_put(&t->sys_idx, canon, cn, i) == FL_MAP_ABSENT)
      return FL_ENOMEM;
  } else if (t->sys[i].type_n != type->n ||
             memcmp(t->sys[i].type, type->s, type->n) != 0) {
    return fl_error_set(t->err, FL_EPARSE, t->path, line, type->col,
                        "system %.*s is of type %.*s here but %.*s at line %u",
                        (int)name->n, name->s, (int)type->n, type->s,
                        (int)t->sys[i].type_n, t->sys[i].type, t->sys[i].line);
  }
  *out = i;
  return FL_OK;
}

static void note_port(sysrec *s, const tok *p) {
  uint32_t n = p_num(p->s, p->n);
  if (n > s->maxp)
    s->maxp = n;
  const char *slash = memchr(p->s, '/', p->n);
  if (slash && p_num(slash + 1, (size_t)(p->s + p->n - slash - 1)) &&
      !(p->s[0] == 'L' || p->s[0] == 'S' || p->s[0] == 'l' || p->s[0] == 's'))
    s->dev_ports = 1;
  if (!n && !s->dev_ports)
    s->maxp = 1000; /* a named port (L1/P1): a chassis, not a host */
}

static int parse(topo *t) {
  const char *s = t->buf, *end = t->buf + t->len;
  uint32_t line = 0, cur = UINT32_MAX;
  tok tk[8];
  while (s < end) {
    const char *nl = memchr(s, '\n', (size_t)(end - s));
    const char *le = nl ? nl : end;
    line++;
    const char *hash = memchr(s, '#', (size_t)(le - s));
    const char *ce = hash ? hash : le;
    int n = split(s, ce, s, tk, 8);
    /* names are never cut into each other (issue #32 case 2) */
    for (int k = 0; k < n && k < 8; k++)
      if (tk[k].n >= FL_ALIAS_MAX)
        return fl_error_set(t->err, FL_EPARSE, t->path, line, tk[k].col,
                            "a field of %zu bytes; system names, types and "
                            "ports are at most %d bytes",
                            tk[k].n, FL_ALIAS_MAX - 1);
    if (n == 0) {
      if (!hash)
        cur = UINT32_MAX; /* a blank line ends the section */
    } else if (n >= 2 && tk[1].n >= 2 && tk[1].s[0] == '-' &&
               tk[1].s[tk[1].n - 1] == '>') {
      conn c = {0};
      if (cur == UINT32_MAX)
        return topo_fail(t, line, tk[0].col,
                         "connection line outside a system section; expected "
                         "a system line `TYPE NAME` first",
                         NULL, 0);
      if (n != 5)
        return topo_fail(t, line, tk[0].col,
                         "expected `PORT -> TYPE NAME PORT` (5 fields)", NULL,
                         0);
      if (!parse_arrow(&tk[1], &c.width, &c.speed))
        return topo_fail(t, line, tk[1].col,
                         "bad link arrow; expected ->, -4x->, -4x-5G-> "
                         "(widths 1x 2x 4x 8x 12x, speeds 2.5G..200G or "
                         "SDR..XDR)",
                         tk[1].s, tk[1].n);
      for (int k = 0; k < 5; k += 4)
        if (bad_port_name(&tk[k]))
          return fl_error_set(t->err, FL_EPARSE, t->path, line, tk[k].col,
                              "port number %.*s%s is out of range (allowed "
                              "P1 to P65535)",
                              NUMQ(tk[k].s, tk[k].s + tk[k].n));
      c.sys = cur;
      c.lport = tk[0];
      c.rtype = tk[2];
      c.rname = tk[3];
      c.rport = tk[4];
      c.line = line;
      uint32_t r;
      int rc = sys_get(t, &tk[2], &tk[3], line, &r);
      if (rc != FL_OK)
        return rc == FL_ENOMEM ? fl_error_set(t->err, FL_ENOMEM, t->path, 0, 0,
                                              "out of memory")
                               : rc;
      note_port(&t->sys[cur], &tk[0]);
      note_port(&t->sys[r], &tk[4]);
      if (fl_grow((void **)&t->conns, &t->cap_conns, t->n_conns + 1,
                  sizeof c) != 0)
        return fl_error_set(t->err, FL_ENOMEM, t->path, 0, 0, "out of memory");
      t->conns[t->n_conns++] = c;
    } else if (n == 2 ||
               (n >= 3 && tk[2].n >= 4 && strncmp(tk[2].s, "CFG:", 4) == 0)) {
      if (memchr(tk[0].s, '/', tk[0].n) || memchr(tk[1].s, '/', tk[1].n))
        return topo_fail(t, line, tk[0].col,
                         "system type and name may not contain '/'", NULL, 0);
      int rc = sys_get(t, &tk[0], &tk[1], line, &cur);
      if (rc != FL_OK)
        return rc == FL_ENOMEM ? fl_error_set(t->err, FL_ENOMEM, t->path, 0, 0,
                                              "out of memory")
                               : rc;
      if (t->sys[cur].declared)
        return fl_error_set(t->err, FL_EPARSE, t->path, line, tk[1].col,
                            "system %.*s has a second section (first at line "
                            "%u)",
                            (int)tk[1].n, tk[1].s, t->sys[cur].line);
      t->sys[cur].declared = 1;
      t->sys[cur].line = line;
      if (n >= 3) { /* CFG: the rest of the line */
        const char *cs = tk[2].s + 4;
        while (cs < ce && isspace((unsigned char)*cs))
          cs++;
        const char *cz = ce;
        while (cz > cs && isspace((unsigned char)cz[-1]))
          cz--;
        t->sys[cur].cfg = cs;
        t->sys[cur].cfg_n = (size_t)(cz - cs);
      }
    } else {
      return topo_fail(t, line, tk[0].col,
                       "expected a system line `TYPE NAME [CFG: ...]` or an "
                       "indented connection `PORT -> TYPE NAME PORT`",
                       NULL, 0);
    }
    s = nl ? nl + 1 : end;
  }
  return FL_OK;
}

/* Node and port of (@sys, @port). */
static fl_id endpoint(topo *t, fl_nbr *b, uint32_t si, const tok *port,
                      fl_prov prov) {
  sysrec *s = &t->sys[si];
  char name[FL_ALIAS_MAX * 2], label[FL_ALIAS_MAX];
  snprintf(label, sizeof label, "%.*s", (int)port->n, port->s);
  if (s->x != UINT32_MAX) {
    const xsys *x = &t->xs[s->x];
    const fl_ibnl_port *fp = fl_ibnl_port_find(&x->sys, port->s, port->n);
    if (!fp) {
      t->failed = fl_error_set(
          t->err, FL_EPARSE, t->path, prov.line, port->col,
          "port %.*s of %.*s is not a front-panel port of its type "
          "%s (IBNL %s defines %zu, e.g. %s)",
          (int)port->n, port->s, (int)s->name_n, s->name, x->type,
          fl_ibnl_path(x->file), x->sys.n_ports,
          x->sys.n_ports ? x->sys.ports[0].name : "none");
      return FL_NONE;
    }
    fl_id p = fl_b_port(t->fab, s->asics[fp->node], fp->port, prov);
    if (p != FL_NONE)
      fl_b_port_set_label(t->fab, p, port->s, port->n);
    return p;
  }
  fl_id node = s->node;
  const char *slash = memchr(port->s, '/', port->n);
  if (s->dev_ports && slash &&
      p_num(slash + 1, (size_t)(port->s + port->n - slash - 1))) {
    /* "mlx5_0/P1" on a host: node "<system> mlx5_0", port 1 */
    snprintf(name, sizeof name, "%.*s %.*s", (int)s->name_n, s->name,
             (int)(slash - port->s), port->s);
    node = fl_nbr_node(b, name, FL_NODE_CA, prov);
    if (node == FL_NONE)
      return FL_NONE;
    fl_b_node_set_system(t->fab, node, s->name, s->name_n);
    fl_b_node_set_device(t->fab, node, port->s, (size_t)(slash - port->s));
    snprintf(label, sizeof label, "%s", slash + 1);
    label[port->s + port->n - slash - 1] = '\0';
  } else if (node == FL_NONE) {
    snprintf(name, sizeof name, "%.*s", (int)s->name_n, s->name);
    node = s->node = fl_nbr_node(b, name, FL_NODE_CA, prov);
    if (node == FL_NONE)
      return FL_NONE;
  }
  return fl_nbr_port(b, node, label, prov);
}

static int oom(topo *t) {
  return fl_error_set(t->err, FL_ENOMEM, t->path, 0, 0, "out of memory");
}

/* The expansion of @type with @cfg, flattened on first use; its index
 * into t->xs, UINT32_MAX when no IBNL file defines @type, or an error. */
static int xsys_get(topo *t, const sysrec *s, fl_prov prov, uint32_t *out) {
  *out = UINT32_MAX;
  const fl_ibnl_file *f = fl_ibnl_lib_find(t->lib, s->type, s->type_n);
  if (!f)
    return FL_OK;
  for (size_t i = 0; i < t->n_xs; i++)
    if (t->xs[i].file == f && strlen(t->xs[i].type) == s->type_n &&
        memcmp(t->xs[i].type, s->type, s->type_n) == 0 &&
        strlen(t->xs[i].cfg) == s->cfg_n &&
        (!s->cfg_n || memcmp(t->xs[i].cfg, s->cfg, s->cfg_n) == 0)) {
      *out = (uint32_t)i;
      return FL_OK;
    }
  if (fl_grow((void **)&t->xs, &t->cap_xs, t->n_xs + 1, sizeof *t->xs) != 0)
    return oom(t);
  xsys *x = &t->xs[t->n_xs];
  memset(x, 0, sizeof *x);
  x->file = f;
  x->type = strndup(s->type, s->type_n);
  x->cfg = strndup(s->cfg ? s->cfg : "", s->cfg_n);
  if (!x->type || !x->cfg) {
    free(x->type);
    free(x->cfg);
    return oom(t);
  }
  int rc = fl_ibnl_flatten(f, x->cfg, &x->sys, t->err);
  if (rc != FL_OK) {
    free(x->type);
    free(x->cfg);
    return rc;
  }
  *out = (uint32_t)t->n_xs++;
  fl_b_note(t->fab, "topology", prov,
            "system type %s: IBNL %s (TOPSYSTEM %s): %zu ASIC(s), %zu cable(s) "
            "inside, %zu front-panel port(s)%s%s%s",
            x->type, fl_ibnl_path(f), fl_ibnl_top_name(f), x->sys.n_nodes,
            x->sys.n_links, x->sys.n_ports, *x->cfg ? "; CFG: " : "", x->cfg,
            x->sys.removed ? " (R: boards removed)" : "");
  return FL_OK;
}

/* System @s as the ASICs of its IBNL definition: one node named like the
 * system when the definition has one ASIC, else "<system>/<instance path>"
 * per ASIC, with the cables inside the system. *@known = 0 when no IBNL
 * file defines its type (the system is then one node, as before). */
static int expand(topo *t, fl_nbr *b, sysrec *s, int *known) {
  fl_prov prov = {fl_nbr_file(b), s->line, s->col};
  uint32_t xi;
  int rc = xsys_get(t, s, prov, &xi);
  *known = xi != UINT32_MAX;
  if (rc != FL_OK || !*known)
    return rc;
  const fl_ibnl_sys *x = &t->xs[xi].sys;
  s->x = xi;
  s->asics = calloc(x->n_nodes + 1, sizeof *s->asics);
  if (!s->asics)
    return oom(t);
  for (size_t i = 0; i < x->n_nodes; i++) {
    char name[FL_ALIAS_MAX * 2];
    if (x->n_nodes == 1)
      snprintf(name, sizeof name, "%.*s", (int)s->name_n, s->name);
    else
      snprintf(name, sizeof name, "%.*s/%s", (int)s->name_n, s->name,
               x->nodes[i].name);
    fl_id n = fl_nbr_node(b, name, x->nodes[i].kind, prov);
    if (n == FL_NONE)
      return oom(t);
    s->asics[i] = n;
    if (!i)
      s->node = n;
    fl_b_node_set_nports(t->fab, n, x->nodes[i].ports);
    fl_b_node_set_system(t->fab, n, s->name, s->name_n);
    if (x->n_nodes > 1)
      fl_b_node_set_device(t->fab, n, x->nodes[i].name, (size_t)-1);
    if (fl_b_attr(t->fab, FL_ENT_NODE, n, "system-type", t->xs[xi].type) !=
            FL_OK ||
        fl_b_attr(t->fab, FL_ENT_NODE, n, "model", x->nodes[i].model) != FL_OK)
      return oom(t);
  }
  for (size_t i = 0; x->n_nodes > 1 && i < x->n_ports; i++) {
    /* the front panel, cabled or not: findings name L1/P12, not port 12 */
    fl_id p =
        fl_b_port(t->fab, s->asics[x->ports[i].node], x->ports[i].port, prov);
    if (p == FL_NONE)
      return oom(t);
    fl_b_port_set_label(t->fab, p, x->ports[i].name, (size_t)-1);
  }
  char sysname[FL_ALIAS_MAX];
  snprintf(sysname, sizeof sysname, "%.*s", (int)s->name_n, s->name);
  for (size_t i = 0; i < x->n_links; i++) {
    const fl_ibnl_link *k = &x->links[i];
    fl_id pa = fl_b_port(t->fab, s->asics[k->a], k->pa, prov);
    fl_id pb = fl_b_port(t->fab, s->asics[k->b], k->pb, prov);
    fl_id l = pa == FL_NONE || pb == FL_NONE
                  ? FL_NONE
                  : fl_nbr_link(b, pa, pb, FL_LINK_DECLARED, prov);
    if (l == FL_NONE)
      return oom(t);
    fl_link_rec *lr = &t->fab->links[l];
    lr->width = lr->width_b = k->width;
    lr->speed = lr->speed_b = k->speed;
    fl_b_link_add_flags(t->fab, l, FL_LINK_IN_SYSTEM);
    if (fl_b_attr(t->fab, FL_ENT_LINK, l, "inside-system", sysname) != FL_OK)
      return oom(t);
  }
  return FL_OK;
}

/* Every IBNL file the lookups read is a file this run read: listed with
 * the inputs (HTML provenance, with the size and SHA-256 of its bytes), and
 * never replaced by --output. */
static int ibnl_files_read(topo *t) {
  const fl_file_digest *d;
  const char *p;
  for (size_t i = 0; (p = fl_ibnl_lib_read(t->lib, i, &d)) != NULL; i++)
    if (fl_b_file_digest(t->fab, fl_b_file(t->fab, p), d) != FL_OK)
      return fl_error_set(t->err, FL_ENOMEM, t->path, 0, 0, "out of memory");
  return FL_OK;
}

int fl_load_topo_ibdm(fl_fabric *fab, const fl_input *in,
                      const fl_load_options *opts, fl_error *err) {
  const char *path = in->path;
  (void)opts;
  topo t = {.fab = fab, .path = path, .err = err};
  t.buf = in->buf;
  t.len = in->len;
  int rc = parse(&t);
  if (rc == FL_OK && !(t.lib = fl_ibnl_lib_new(NULL)))
    rc = fl_error_set(err, FL_ENOMEM, path, 0, 0, "out of memory");
  fl_nbr *b = rc == FL_OK ? fl_nbr_begin(fab, path) : NULL;
  if (rc == FL_OK && !b)
    rc = fl_error_set(err, FL_ENOMEM, path, 0, 0, "out of memory");
  if (b)
    fl_nbr_declared(b);
  /* nodes: one per system (host systems with dev/P ports: one per device) */
  fl_strmap types = {0};
  for (size_t i = 0; rc == FL_OK && i < t.n_sys; i++) {
    sysrec *s = &t.sys[i];
    int ca = is_hca_type(s->type, s->type_n) || s->dev_ports ||
             (!s->declared && s->maxp <= 2);
    fl_prov prov = {fl_nbr_file(b), s->line, s->col};
    char name[FL_ALIAS_MAX];
    snprintf(name, sizeof name, "%.*s", (int)s->name_n, s->name);
    int known = 0; /* an IBNL type wins over the dev/P<n> host guess
                      (Gnu's M/P1 is a front-panel name, not mlx5_0/P1) */
    rc = expand(&t, b, s, &known);
    if (rc != FL_OK)
      break;
    if (known)
      continue;
    if (!s->dev_ports) {
      char type[FL_ALIAS_MAX];
      snprintf(type, sizeof type, "%.*s", (int)s->type_n, s->type);
      s->node = fl_nbr_node(b, name, ca ? FL_NODE_CA : FL_NODE_SWITCH, prov);
      if (s->node == FL_NONE ||
          fl_b_attr(fab, FL_ENT_NODE, s->node, "system-type", type) != FL_OK) {
        rc = fl_error_set(err, FL_ENOMEM, path, 0, 0, "out of memory");
        break;
      }
      fl_b_node_set_system(fab, s->node, s->name, s->name_n);
    }
    if (fl_strmap_get(&types, s->type, s->type_n) == FL_MAP_ABSENT) {
      fl_strmap_put(&types, s->type, s->type_n, 1);
      fl_b_note(fab, "topology", prov,
                "system type %.*s: no IBNL definition in the search path "
                "\"%s\" (FABRICLINT_IBNL_PATH); its systems are loaded as "
                "%s with the ports the file names (P<n> is port n)",
                (int)s->type_n, s->type, fl_ibnl_lib_path(t.lib),
                ca ? "CAs" : "one switch each");
    }
  }
  fl_strmap_free(&types);
  for (size_t i = 0; rc == FL_OK && fl_ibnl_lib_skipped(t.lib, i); i++)
    fl_b_note(fab, "topology", (fl_prov){fl_nbr_file(b), 0, 0},
              "IBNL file not used: %s", fl_ibnl_lib_skipped(t.lib, i));
  rc = rc == FL_OK ? ibnl_files_read(&t) : rc;
  for (size_t i = 0; rc == FL_OK && i < t.n_conns; i++) {
    conn *c = &t.conns[i];
    fl_prov prov = {fl_nbr_file(b), c->line, c->lport.col};
    char canon[FL_ALIAS_MAX];
    size_t cn = fl_alias_node(c->rname.s, c->rname.n, canon, sizeof canon);
    uint32_t r = fl_strmap_get(&t.sys_idx, canon, cn);
    fl_id pa = endpoint(&t, b, c->sys, &c->lport, prov);
    fl_id pb = pa == FL_NONE ? FL_NONE : endpoint(&t, b, r, &c->rport, prov);
    if (pb == FL_NONE) {
      rc = t.failed ? t.failed
                    : fl_error_set(err, FL_ENOMEM, path, 0, 0, "out of memory");
      break;
    }
    if (pa == pb) {
      rc = fl_error_set(err, FL_EPARSE, path, c->line, c->lport.col,
                        "port %.*s of %.*s is connected to itself",
                        (int)c->lport.n, c->lport.s, (int)t.sys[c->sys].name_n,
                        t.sys[c->sys].name);
      break;
    }
    size_t before = fab->n_links;
    fl_id l = fl_nbr_link(b, pa, pb, FL_LINK_DECLARED, prov);
    if (l == FL_NONE) {
      rc = fl_error_set(err, FL_ENOMEM, path, 0, 0, "out of memory");
      break;
    }
    fl_link_rec *lr = &fab->links[l];
    if (fab->n_links > before) {
      lr->width = (uint8_t)c->width;
      lr->speed = (uint8_t)c->speed;
      lr->width_b = (uint8_t)c->width;
      lr->speed_b = (uint8_t)c->speed;
    } else if ((c->width && c->width != lr->width) ||
               (c->speed && c->speed != lr->speed)) {
      if (!lr->width && !lr->speed) {
        lr->width = lr->width_b = (uint8_t)c->width;
        lr->speed = lr->speed_b = (uint8_t)c->speed;
      } else {
        fl_b_link_set_b_listing(fab, l, c->width, c->speed);
      }
    }
  }
  fl_nbr_end(b);
  fl_strmap_free(&t.sys_idx);
  for (size_t i = 0; i < t.n_sys; i++)
    free(t.sys[i].asics);
  for (size_t i = 0; i < t.n_xs; i++) {
    free(t.xs[i].type);
    free(t.xs[i].cfg);
    fl_ibnl_sys_free(&t.xs[i].sys);
  }
  free(t.xs);
  fl_ibnl_lib_free(t.lib);
  free(t.sys);
  free(t.conns);
  return rc;
}

/* ---- the format registry row (formats.h) ---- */

const fl_format_def fl_fmt_topo_ibdm = {
    FL_FMT_TOPO_IBDM,
    "ibdm-topo",
    NULL,
    FL_FORMAT_TOPOLOGY,
    fl_load_topo_ibdm,
    fl_detect_ibnd_family,
    "an ibdm topology file (indented \"PORT -> TYPE NAME PORT\" lines)"};
