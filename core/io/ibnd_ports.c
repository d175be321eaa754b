/* SPDX-License-Identifier: MIT */
/*
 * core/io/ibnd_ports.c — the loader for the ibnetdiscover -p ports report
 * (rdma-core infiniband-diags/ibnetdiscover.c dump_ports_report()); the
 * line cursor and tokens are ibnd_scan.c's. Links are collected as
 * listings and merged by core/io/listings.c, as for ibnetdiscover output.
 */
#include "io/formats.h"
#include "io/ibnd_scan.h"
#include "io/listings.h"
#include "io/loaders.h"
#include "io/textscan.h"

#include <string.h>

#include "io/nodemap.h"
#include "model/build.h"

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

/* ---- the format registry row (formats.h) ---- */

const fl_format_def fl_fmt_ibnd_ports = {
    FL_FMT_IBND_PORTS,           "ibnetdiscover-ports", NULL,
    FL_FORMAT_TOPOLOGY,          fl_load_ibnd_ports,    fl_detect_ibnd_family,
    "an ibnetdiscover -p report"};
