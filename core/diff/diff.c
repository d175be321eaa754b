/*
 * core/diff.c — as-designed vs as-built, cable by cable (DESIGN.md §7;
 * docs/rules/diff.md).
 *
 * Why it works this way:
 *
 * 1. Nodes are matched first: by GUID where both sides have one (two
 *    ibnetdiscover dumps, or a design that carries GUIDs), then by the
 *    canonical name of the alias layer (core/alias.h: case, FQDN vs short,
 *    blanks), then by system ("H-1" in an ibdm plan is the host whose HCA
 *    is "H-1 HCA-1"). A name that two nodes share on one side matches
 *    nothing, and the finding says why. Everything later works on matched
 *    nodes only; the cables of an unmatched node are folded into its
 *    diff.missing-node / diff.unexpected-node finding (a powered-off host is
 *    one fault, not eight).
 *    With planes on both sides (planes_setup()), the planes are paired (by
 *    name, else by order); when a node name repeats across planes (each
 *    plane's leaf01), names are matched within the paired plane, on the
 *    name before the GUID that tells such nodes apart in a dump ("leaf01
 *    (0x...)"). A switch matched in another plane than planned is one
 *    finding naming both planes, its cables folded (split_cross_plane()).
 *
 * 2. Every cable becomes an edge between two *endpoints* in the as-built
 *    fabric's port space: (as-built node, port number). A design port is
 *    mapped by its label (canonical spelling) when both sides label ports
 *    (Ethernet: swp1 vs Ethernet1), else by number (InfiniBand). A design
 *    port the as-built never mentions gets a virtual endpoint, so "nothing
 *    is plugged there" falls out naturally.
 *
 * 3. Edges are classified in a fixed order, each step consuming what it
 *    explains, so each fault is reported once:
 *      exact      same two endpoints on both sides (then width/speed:
 *                 diff.different when below plan)
 *      duplicate  the same two endpoints listed twice on one side
 *      plan       Cisco cable plan constraints (at least / at most N
 *                 cables between two chassis on given port sets)
 *      swapped    planned a-b, c-d; built a-d, c-b: one finding, one fix
 *      misconnected  planned a-b, built a-x: "move the end at x to b"
 *      missing / unexpected   what is left
 *    Iteration follows link ids, so the output is deterministic.
 *
 * Cost: O(nodes + ports + links) expected (open-addressing hash maps);
 * endpoint degrees are tiny (one cable per port), so the swap and
 * misconnection searches are O(1) per edge.
 */
#define _GNU_SOURCE /* vasprintf */
#include "diff/diff.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "fabriclint/planes.h"
#include "io/loaders.h"
#include "io/write_common.h"
#include "model/alias.h"
#include "model/hashmap.h"
#include "model/natcmp.h"

#define VIRT 0x80000000u
#define NIL  UINT32_MAX

/* how a design node was matched; HOW_CHASSIS: a design switch is a director
 * chassis of the as-built (its ASICs, core/model/chassis.c), its ports
 * front-panel names; HOW_NIC: a per-NIC design node ("host-01
 * ens1f0np0") is a labelled port of an as-built host node (LLDP chassis);
 * HOW_HOST: a design host node whose labelled ports are NICs is a group of
 * as-built per-NIC nodes of that system (InfiniBand HCAs "host-01 mlx5_0");
 * HOW_IN_CHASSIS: the other way round from HOW_CHASSIS, a design ASIC of a
 * director chassis is part of one as-built switch named like the chassis,
 * its ports the as-built's front-panel labels; HOW_CABLE: reached by a
 * cable from a matched node, at the same port numbers on both sides, with
 * the same system name (the ASICs of an IBNL-expanded system, all described
 * by the system's name in the as-built) */
enum {
  HOW_NONE,
  HOW_GUID,
  HOW_NAME,
  HOW_SYSTEM,
  HOW_NIC,
  HOW_HOST,
  HOW_CHASSIS,
  HOW_IN_CHASSIS,
  HOW_CABLE
};
enum { E_OPEN, E_DONE };

typedef struct edge {
  uint64_t k[2]; /* endpoints */
  fl_id link;    /* link id in its own fabric */
  uint32_t next[2];
  uint8_t state;
  uint8_t side; /* 0 design, 1 built */
} edge;

typedef struct dctx {
  const fl_fabric *D, *B;
  const fl_diff_opts *o;
  fl_findings *fs;
  fl_work_order *wo;
  fl_diff_stats *st;
  fl_error *err;
  int nomem;
  int failed; /* an input error was recorded in err */
  fl_id *mD, *mB;
  uint8_t *howD;
  uint8_t *b_labels; /* per B node: has labelled ports */
  fl_strmap blabel;  /* B node (4 bytes) + canonical label -> B port */
  fl_strmap vlabel;  /* B node + canonical label -> virtual index */
  char **vnames;     /* virtual index -> label as the design writes it */
  size_t n_v, cap_v;
  fl_u64map key_dport; /* endpoint -> D port */
  edge *e;             /* design edges, then built edges */
  size_t n_e, cap_e, n_de;
  fl_u64map headD, headB; /* endpoint -> first edge of that side */
  uint32_t *planD;        /* plan-constraint D links */
  size_t n_plan;
  uint32_t *planB; /* plan-constraint B links (the as-built is a plan) */
  uint8_t *planB_used;
  size_t n_planB;
  uint32_t *cables_of_D, *cables_of_B; /* per node: cables not compared */
  fl_strmap sysdev; /* B "system\x1fdevice" (canonical) -> per-NIC B node */
  /* planes, when both sides have them (planes_setup()) */
  uint32_t n_plD, n_plB;   /* plane counts; 0 on either side: no plane logic */
  uint8_t oneD, oneB;      /* a side without planes against one with planes:
                              it is one plane, index 0 (planes_setup()) */
  const char *one_name;    /* that side's --*-plane tag, or NULL */
  uint32_t *mapDB, *mapBD; /* plane index on one side -> the other's, or NIL */
  int per_plane; /* a node name repeats across planes on a side: names are
                    matched within a plane, keys and work order name it */
  int qual;      /* ep_str(): name the plane of switch ends (a finding that
                    spans planes, names repeating across planes) */
  fl_id *xplD;   /* per D switch matched in another plane: its B node */
  uint8_t *xplB; /* per B node: part of such a pair (no finding of its own) */
} dctx;

/* ---- small helpers --------------------------------------------------- */

static char *xstrdup(dctx *c, const char *s) {
  char *d = strdup(s ? s : "");
  if (!d)
    c->nomem = 1;
  return d;
}

static char *xprintf(dctx *c, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static char *xprintf(dctx *c, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *s = NULL;
  if (vasprintf(&s, fmt, ap) < 0) {
    s = NULL;
    c->nomem = 1;
  }
  va_end(ap);
  return s;
}

static size_t node_key(char *key, size_t size, fl_id node, const char *canon) {
  memcpy(key, &node, 4);
  size_t n = strlen(canon);
  if (n > size - 4)
    n = size - 4;
  memcpy(key + 4, canon, n);
  return n + 4;
}

static uint64_t mkkey(fl_id bnode, uint32_t port) {
  return (uint64_t)bnode << 32 | port;
}
static fl_id key_node(uint64_t k) {
  return (fl_id)(k >> 32);
}
static uint32_t key_port(uint64_t k) {
  return (uint32_t)k;
}

/* The design node a built node stands for (always matched for keys). */
static fl_id key_dnode(const dctx *c, uint64_t k) {
  return c->mB[key_node(k)];
}

static fl_id key_dport(const dctx *c, uint64_t k);

/* Node name users know: the design's (the node of the design port at @k
 * first: several per-NIC design nodes may share one as-built host). */
static const char *key_name(const dctx *c, uint64_t k) {
  fl_id dp = key_dport(c, k);
  fl_id d = dp != FL_NONE ? fl_fabric_port_node(c->D, dp) : key_dnode(c, k);
  if (d != FL_NONE && c->howD[d] == HOW_IN_CHASSIS)
    d = FL_NONE; /* an ASIC of the chassis: the box's name */
  return d != FL_NONE ? fl_fabric_node_name(c->D, d)
                      : fl_fabric_node_name(c->B, key_node(k));
}

static fl_id key_bport(const dctx *c, uint64_t k) {
  if (key_port(k) & VIRT)
    return FL_NONE;
  return fl_fabric_find_port(c->B, key_node(k), key_port(k));
}

static fl_id key_dport(const dctx *c, uint64_t k) {
  uint32_t p = fl_u64map_get(&c->key_dport, k);
  return p == FL_MAP_ABSENT ? FL_NONE : p;
}

/* Port as users write it: the design's label, else the built label, else
 * the number. Into @buf. */
static const char *key_port_str(const dctx *c, uint64_t k, char *buf,
                                size_t size) {
  fl_id dp = key_dport(c, k), bp = key_bport(c, k);
  const char *lab = dp != FL_NONE ? fl_fabric_port_label(c->D, dp) : "";
  if (!*lab && (key_port(k) & VIRT))
    lab = c->vnames[key_port(k) & ~VIRT];
  if (!*lab && bp != FL_NONE)
    lab = fl_fabric_port_label(c->B, bp);
  fl_id dn = c->mB[key_node(k)];
  if (!*lab && !(key_port(k) & VIRT) && dn != FL_NONE &&
      c->howD[dn] == HOW_CABLE) {
    /* an uncabled port of an IBNL-expanded ASIC: its front-panel name */
    fl_id p = fl_fabric_find_port(c->D, dn, key_port(k));
    if (p != FL_NONE)
      lab = fl_fabric_port_label(c->D, p);
  }
  if (!*lab && bp != FL_NONE && c->mB[key_node(k)] != FL_NONE &&
      c->howD[c->mB[key_node(k)]] == HOW_CHASSIS &&
      fl_fabric_port_panel_name(c->B, bp, buf, size))
    return buf; /* a chassis port the design does not name: its panel name */
  if (*lab)
    snprintf(buf, size, "%s", lab);
  else
    snprintf(buf, size, "%u",
             dp != FL_NONE ? fl_fabric_port_num(c->D, dp) : key_port(k));
  return buf;
}

static uint32_t key_port_num(const dctx *c, uint64_t k) {
  fl_id dp = key_dport(c, k);
  if (dp != FL_NONE)
    return fl_fabric_port_num(c->D, dp);
  return key_port(k) & VIRT ? 0 : key_port(k);
}

/* Plane of node @n of side @side (0 design, 1 as built): 0 on a side that
 * is one plane against the other's several (c->oneD, c->oneB), else the
 * fabric's (FL_NONE: none). */
static uint32_t node_plane(const dctx *c, int side, fl_id n) {
  if (side ? c->oneB : c->oneD)
    return n == FL_NONE ? FL_NONE : 0;
  return fl_fabric_node_plane(side ? c->B : c->D, n);
}

/* Plane of port @p of side @side, as node_plane(). */
static uint32_t port_plane(const dctx *c, int side, fl_id p) {
  if (side ? c->oneB : c->oneD)
    return p == FL_NONE ? FL_NONE : 0;
  return fl_fabric_port_plane(side ? c->B : c->D, p);
}

/* Name of design plane @pl, or NULL (FL_NONE). A design that is one plane
 * against several as built says its tag, else the as-built plane's name. */
static const char *plane_name_d(const dctx *c, uint32_t pl) {
  if (pl == FL_NONE)
    return NULL;
  if (c->oneD)
    return c->one_name          ? c->one_name
           : c->mapDB[0] != NIL ? fl_fabric_plane_name(c->B, c->mapDB[0])
                                : NULL;
  return fl_fabric_plane_name(c->D, pl);
}

/* Name of as-built plane @pl as findings say it: the name of the design
 * plane it is mapped to (planes_setup()), else its own; NULL (FL_NONE). */
static const char *plane_name_b(const dctx *c, uint32_t pl) {
  if (pl == FL_NONE)
    return NULL;
  if (c->mapBD && pl < c->n_plB && c->mapBD[pl] != NIL)
    return plane_name_d(c, c->mapBD[pl]);
  return c->oneB ? c->one_name : fl_fabric_plane_name(c->B, pl);
}

/* The plane of the switch or router at endpoint @k (as built), or NULL (a
 * CA: hosts are shared by the planes and their names are unique). */
static const char *ep_plane(const dctx *c, uint64_t k) {
  fl_id bn = key_node(k);
  uint32_t kind = fl_fabric_node_kind(c->B, bn);
  if (kind != FL_NODE_SWITCH && kind != FL_NODE_ROUTER)
    return NULL;
  return plane_name_b(c, node_plane(c, 1, bn));
}

/* `"node" port 3` or `"node" swp3`; `"leaf01" port 3 of plane 2` when
 * c->qual (switch names repeat across planes and the finding spans
 * planes). */
static char *ep_str(dctx *c, uint64_t k) {
  char pb[FL_ALIAS_MAX];
  key_port_str(c, k, pb, sizeof pb);
  int num = pb[0] >= '0' && pb[0] <= '9';
  const char *pl = c->qual ? ep_plane(c, k) : NULL;
  return xprintf(c, "\"%s\" %s%s%s%s", key_name(c, k), num ? "port " : "", pb,
                 pl ? " of plane " : "", pl ? pl : "");
}

/* Plane of endpoint @k in the as-built's plane indexes: of its design port
 * when @design (mapped, planes_setup()), else of its as-built port; NIL
 * when unknown. */
static uint32_t ep_plane_ix(const dctx *c, uint64_t k, int design) {
  if (design) {
    fl_id dp = key_dport(c, k);
    uint32_t pl = dp != FL_NONE ? port_plane(c, 0, dp) : FL_NONE;
    return pl != FL_NONE && pl < c->n_plD ? c->mapDB[pl] : NIL;
  }
  fl_id bp = key_bport(c, k);
  return bp != FL_NONE ? port_plane(c, 1, bp) : node_plane(c, 1, key_node(k));
}

/* Set c->qual for the finding about endpoints @eps[0..n): names repeat
 * across planes and the ends (planned and built) are in more than one. */
static void qualify(dctx *c, const uint64_t *eps, int n) {
  c->qual = 0;
  if (!c->per_plane)
    return;
  uint32_t seen = NIL;
  for (int i = 0; i < n; i++)
    for (int design = 0; design < 2; design++) {
      uint32_t pl = ep_plane_ix(c, eps[i], design);
      if (pl == NIL)
        continue;
      if (seen != NIL && pl != seen)
        c->qual = 1;
      seen = pl;
    }
}

static const char *rack_of(const dctx *c, uint64_t k) {
  fl_id d = key_dnode(c, k);
  const char *r =
      d != FL_NONE ? fl_fabric_attr(c->D, FL_ENT_NODE, d, "rack") : NULL;
  return r ? r : "";
}

/* ---- output ---------------------------------------------------------- */

typedef struct fnd {
  const char *rule;
  uint32_t sev;
  const fl_fabric *loc_fab;
  uint32_t loc_ent;
  fl_id loc_id;
  uint64_t eps[4];
  int n_eps;
  const char *extra_nodes[2];
  int n_extra;
  int ids; /* 1: the planes of the extra node are those of design node
              @xd and as-built node @xb (FL_NONE: none), not of the
              nodes named like it (names that repeat across planes) */
  fl_id xd, xb;
  json_t *ev;
  const char *cause;     /* one finding per cause (host/findings.h), or NULL */
  const char *cause_msg; /* its message, "{count}" replaced */
  fl_fix_rec *fix;       /* how to fix it (host/fix.h), or NULL; taken */
} fnd;

/* Add plane name @nm (NULL: none) to the distinct names @v[0..*n), kept
 * in natural order. */
static void add_plane(const char *nm, const char **v, size_t *n, size_t cap) {
  if (!nm)
    return;
  size_t i = 0;
  while (i < *n && fl_natcmp(v[i], nm) < 0)
    i++;
  if ((i < *n && strcmp(v[i], nm) == 0) || *n == cap)
    return;
  memmove(v + i + 1, v + i, (*n - i) * sizeof *v);
  v[i] = nm;
  (*n)++;
}

/* The planes finding @f touches on a multi-plane fabric: for each cable end
 * the plane of its port in the design and in the as-built (a cable moved
 * between planes names both), for each other node its plane in either;
 * "1", "1,2", or NULL (no planes). */
static char *finding_planes(dctx *c, const fnd *f) {
  const char *v[16];
  size_t n = 0;
  for (int i = 0; i < f->n_eps; i++) {
    fl_id dp = key_dport(c, f->eps[i]), bp = key_bport(c, f->eps[i]);
    fl_id dn = key_dnode(c, f->eps[i]), bn = key_node(f->eps[i]);
    add_plane(plane_name_d(c, dp != FL_NONE ? port_plane(c, 0, dp)
                                            : node_plane(c, 0, dn)),
              v, &n, 16);
    add_plane(plane_name_b(c, bp != FL_NONE ? port_plane(c, 1, bp)
                                            : node_plane(c, 1, bn)),
              v, &n, 16);
  }
  if (f->ids) {
    add_plane(plane_name_d(c, node_plane(c, 0, f->xd)), v, &n, 16);
    add_plane(plane_name_b(c, node_plane(c, 1, f->xb)), v, &n, 16);
  }
  for (int i = 0; !f->ids && i < f->n_extra; i++) {
    const char *nm = f->extra_nodes[i];
    add_plane(
        plane_name_d(c, node_plane(c, 0, fl_fabric_find_node_name(c->D, nm))),
        v, &n, 16);
    add_plane(
        plane_name_b(c, node_plane(c, 1, fl_fabric_find_node_name(c->B, nm))),
        v, &n, 16);
  }
  if (!n)
    return NULL;
  size_t len = 1;
  for (size_t i = 0; i < n; i++)
    len += strlen(v[i]) + 1;
  char *s = malloc(len);
  if (!s) {
    c->nomem = 1;
    return NULL;
  }
  s[0] = 0;
  for (size_t i = 0; i < n; i++) {
    if (i)
      strcat(s, ",");
    strcat(s, v[i]);
  }
  return s;
}

static void emit(dctx *c, fnd *f, char *msg) {
  fl_finding_rec r;
  memset(&r, 0, sizeof r);
  r.rule = xstrdup(c, f->rule);
  r.severity = f->sev;
  r.message = msg ? msg : xstrdup(c, "");
  size_t cap = (size_t)f->n_eps + (size_t)f->n_extra;
  r.nodes = calloc(cap ? cap : 1, sizeof *r.nodes);
  r.ports = calloc(f->n_eps ? (size_t)f->n_eps : 1, sizeof *r.ports);
  if (!r.nodes || !r.ports)
    c->nomem = 1;
  for (int i = 0; r.nodes && i < f->n_extra; i++)
    r.nodes[r.n_nodes++] = xstrdup(c, f->extra_nodes[i]);
  for (int i = 0; r.nodes && r.ports && i < f->n_eps; i++) {
    const char *nm = key_name(c, f->eps[i]);
    int seen = 0;
    for (uint32_t j = 0; j < r.n_nodes; j++)
      seen |= strcmp(r.nodes[j], nm) == 0;
    if (!seen)
      r.nodes[r.n_nodes++] = xstrdup(c, nm);
    r.ports[r.n_ports].node = xstrdup(c, nm);
    uint32_t num = key_port_num(c, f->eps[i]);
    char pb[FL_ALIAS_MAX], nb[16];
    const char *lab = key_port_str(c, f->eps[i], pb, sizeof pb);
    snprintf(nb, sizeof nb, "%u", num);
    if (strcmp(lab, nb) != 0) /* a label, not the number printed */
      r.ports[r.n_ports].label = xstrdup(c, lab);
    r.ports[r.n_ports++].port = num;
  }
  if (f->ev) {
    r.evidence = json_dumps(f->ev, JSON_COMPACT | JSON_SORT_KEYS);
    json_decref(f->ev);
  }
  const char *file = NULL;
  uint32_t line = 0, col = 0;
  if (f->loc_fab &&
      fl_fabric_provenance(f->loc_fab, f->loc_ent, f->loc_id, &file, &line,
                           &col) == FL_OK &&
      file && *file) {
    r.file = xstrdup(c, file);
    r.line = line;
    r.col = col;
  }
  r.plane = finding_planes(c, f);
  /* names repeating across planes: two planes' findings may read alike;
   * the planes keep their keys (fingerprints, baselines) apart, as a
   * plane's rule run prefixes them in check (core/host/host.c) */
  if (c->per_plane && r.plane)
    r.key = xprintf(c, "%s|%s|%s", r.plane, f->rule, r.message);
  else
    r.key = xprintf(c, "%s|%s", f->rule, r.message);
  r.fix = f->fix;
  f->fix = NULL;
  if (f->cause) {
    r.cause = xstrdup(c, f->cause);
    r.cause_msg = xstrdup(c, f->cause_msg ? f->cause_msg : f->cause);
  }
  if (fl_findings_push(c->fs, &r) != 0)
    c->nomem = 1;
}

/* A new zeroed row at the end of the work order, or NULL (no work order
 * asked for, or out of memory: c->nomem set). */
static fl_wo_row *wo_push(dctx *c) {
  fl_work_order *w = c->wo;
  if (!w)
    return NULL;
  if (w->n == w->cap) {
    size_t nc = w->cap ? w->cap * 2 : 16;
    fl_wo_row *v = realloc(w->v, nc * sizeof *v);
    if (!v) {
      c->nomem = 1;
      return NULL;
    }
    w->v = v;
    w->cap = nc;
  }
  fl_wo_row *r = &w->v[w->n++];
  memset(r, 0, sizeof *r);
  return r;
}

/* Names repeating across planes: row @r of the work order for @finding
 * (emitted just before) says its planes in front of the detail, "plane 2:
 * ..." (the node names alone do not tell the planes' switches apart). */
static void wo_plane(dctx *c, fl_wo_row *r, const char *finding) {
  const fl_finding_rec *f = c->fs->n ? &c->fs->v[c->fs->n - 1] : NULL;
  if (!c->per_plane || !f || !f->plane || strcmp(f->rule, finding) != 0 ||
      !r->detail)
    return;
  char *d = xprintf(c, "%s %s: %s", strchr(f->plane, ',') ? "planes" : "plane",
                    f->plane, r->detail);
  if (d) {
    free(r->detail);
    r->detail = d;
  }
}

static void wo_add(dctx *c, const char *action, const char *finding, uint64_t a,
                   uint64_t b, int has_b, uint64_t from, int has_from,
                   fl_id dlink, const char *detail) {
  fl_wo_row *r = wo_push(c);
  if (!r)
    return;
  char pb[FL_ALIAS_MAX];
  r->action = xstrdup(c, action);
  r->finding = xstrdup(c, finding);
  r->a_node = xstrdup(c, key_name(c, a));
  r->a_port = xstrdup(c, key_port_str(c, a, pb, sizeof pb));
  r->a_rack = xstrdup(c, rack_of(c, a));
  r->b_node = xstrdup(c, has_b ? key_name(c, b) : "");
  r->b_port = xstrdup(c, has_b ? key_port_str(c, b, pb, sizeof pb) : "");
  r->b_rack = xstrdup(c, has_b ? rack_of(c, b) : "");
  r->from_node = xstrdup(c, has_from ? key_name(c, from) : "");
  r->from_port =
      xstrdup(c, has_from ? key_port_str(c, from, pb, sizeof pb) : "");
  const char *cable = dlink != FL_NONE
                          ? fl_fabric_attr(c->D, FL_ENT_LINK, dlink, "cable")
                          : NULL;
  r->cable = xstrdup(c, cable ? cable : "");
  r->detail = xstrdup(c, detail ? detail : "");
  /* the finding this row carries out: emitted just before */
  const fl_finding_rec *f = c->fs->n ? &c->fs->v[c->fs->n - 1] : NULL;
  char fp[17] = "";
  if (f && strcmp(f->rule, finding) == 0)
    fl_finding_fingerprint(f, fp);
  r->fix = xstrdup(c, *fp && f->fix ? f->fix->description : "");
  r->fingerprint = xstrdup(c, fp);
  wo_plane(c, r, finding);
}

static void wo_node(dctx *c, const char *action, const char *finding,
                    const char *node, const char *rack, const char *detail);

/* One work-order row per planned cable of design node @n (a node that was
 * not found): a technician needs the port, the far end and the cable id of
 * each, not only the node's name. "a" is the missing node's end. */
static void wo_node_cables(dctx *c, const char *action, const char *finding,
                           fl_id n, const char *detail) {
  const fl_fabric *D = c->D;
  uint32_t nl = fl_fabric_link_count(D);
  char num[16];
  for (fl_id l = 0; l < nl && c->wo; l++) {
    fl_id p0 = fl_fabric_link_port(D, l, 0), p1 = fl_fabric_link_port(D, l, 1);
    int side = fl_fabric_port_node(D, p0) == n   ? 0
               : fl_fabric_port_node(D, p1) == n ? 1
                                                 : -1;
    if (side < 0)
      continue;
    fl_id pa = side ? p1 : p0, pb = side ? p0 : p1;
    fl_id nb = fl_fabric_port_node(D, pb);
    wo_node(c, action, finding, fl_fabric_node_name(D, n),
            fl_fabric_attr(D, FL_ENT_NODE, n, "rack"), detail);
    if (c->nomem || !c->wo->n)
      return;
    fl_wo_row *r = &c->wo->v[c->wo->n - 1];
    const char *la = fl_fabric_port_label(D, pa),
               *lb = fl_fabric_port_label(D, pb);
    const char *rb = fl_fabric_attr(D, FL_ENT_NODE, nb, "rack");
    const char *cable = fl_fabric_attr(D, FL_ENT_LINK, l, "cable");
    free(r->a_port), free(r->b_node), free(r->b_port), free(r->b_rack);
    free(r->cable);
    snprintf(num, sizeof num, "%u", fl_fabric_port_num(D, pa));
    r->a_port = xstrdup(c, *la ? la : num);
    r->b_node = xstrdup(c, fl_fabric_node_name(D, nb));
    snprintf(num, sizeof num, "%u", fl_fabric_port_num(D, pb));
    r->b_port = xstrdup(c, *lb ? lb : num);
    r->b_rack = xstrdup(c, rb ? rb : "");
    r->cable = xstrdup(c, cable ? cable : "");
  }
}

static void wo_node(dctx *c, const char *action, const char *finding,
                    const char *node, const char *rack, const char *detail) {
  fl_wo_row *r = wo_push(c);
  if (!r)
    return;
  r->action = xstrdup(c, action);
  r->finding = xstrdup(c, finding);
  r->a_node = xstrdup(c, node);
  r->a_port = xstrdup(c, "");
  r->a_rack = xstrdup(c, rack ? rack : "");
  r->b_node = xstrdup(c, "");
  r->b_port = xstrdup(c, "");
  r->b_rack = xstrdup(c, "");
  r->from_node = xstrdup(c, "");
  r->from_port = xstrdup(c, "");
  r->cable = xstrdup(c, "");
  r->detail = xstrdup(c, detail);
  wo_plane(c, r, finding);
}

/* {"node", "port"[, "label"]}: a port is always a number (JSON output is
 * consistent, schema/findings.schema.json); the label an Ethernet plan or
 * capture gives it (`Ethernet1/3`, `swp3`) is said apart, and a planned
 * label the as-built does not have has no number. */
static json_t *ep_json(dctx *c, uint64_t k) {
  char pb[FL_ALIAS_MAX], num[16];
  const char *txt = key_port_str(c, k, pb, sizeof pb);
  uint32_t n = key_port_num(c, k);
  json_t *o = json_pack("{s:s}", "node", key_name(c, k));
  if (n)
    json_object_set_new(o, "port", json_integer(n));
  snprintf(num, sizeof num, "%u", n);
  if (!n || strcmp(txt, num) != 0)
    json_object_set_new(o, "label", json_string(txt));
  return o;
}

/* A cable end of the fix: node, number, label as the work order says it. */
static void fix_end(dctx *c, uint64_t k, fl_fix_end *e) {
  char pb[FL_ALIAS_MAX], num[16];
  const char *txt = key_port_str(c, k, pb, sizeof pb);
  uint32_t n = key_port_num(c, k);
  snprintf(num, sizeof num, "%u", n);
  if (fl_fix_end_set(e, key_name(c, k), n, strcmp(txt, num) ? txt : "") != 0)
    c->nomem = 1;
}

/* A fix of one change or two moving cable ends: the as-built cable
 * (@cable0, @cable1) has its end @from moved to @to. */
static void fix_move(dctx *c, fl_fix_rec *fx, uint64_t cable0, uint64_t cable1,
                     uint64_t from, uint64_t to) {
  fl_fix_change_rec *ch = &fx->v[fx->n++];
  ch->kind = FL_FIX_MOVE_END;
  fix_end(c, cable0, &ch->cable[0]);
  fix_end(c, cable1, &ch->cable[1]);
  ch->end = from == cable1;
  fix_end(c, to, &ch->to);
}

static json_t *cable_json(dctx *c, uint64_t a, uint64_t b) {
  return json_pack("[o,o]", ep_json(c, a), ep_json(c, b));
}

/* ---- 1. nodes -------------------------------------------------------- */

static size_t canon_name(const fl_fabric *f, fl_id n, char *buf, size_t size) {
  const char *nm = fl_fabric_node_name(f, n);
  return fl_alias_node(nm, strlen(nm), buf, size);
}

static size_t full_name(const fl_fabric *f, fl_id n, char *buf, size_t size) {
  const char *nm = fl_fabric_node_name(f, n);
  return fl_alias_node_full(nm, strlen(nm), buf, size);
}

/* canonical name -> node, with NIL - 1 marking "ambiguous"; three indexes:
 * [0] full names (domain kept), [1] short names, [2] systems */
#define AMBIG (NIL - 1)
typedef struct name_ix {
  fl_strmap m[3];
  uint32_t *v[3];
} name_ix;

static void name_ix_free(name_ix *x) {
  for (int i = 0; i < 3; i++) {
    fl_strmap_free(&x->m[i]);
    free(x->v[i]);
  }
}

static int ix_put(name_ix *x, int which, const char *canon, size_t len,
                  fl_id node) {
  size_t before = fl_strmap_len(&x->m[which]);
  uint32_t slot = fl_strmap_put(&x->m[which], canon, len, (uint32_t)before);
  if (slot == FL_MAP_ABSENT)
    return -1;
  if (fl_strmap_len(&x->m[which]) > before)
    x->v[which][slot] = node;
  else if (x->v[which][slot] != node)
    x->v[which][slot] = AMBIG;
  return 0;
}

/* The node of @which named @canon: a node id, AMBIG, or NIL. */
static uint32_t ix_get(const name_ix *x, int which, const char *canon,
                       size_t len) {
  uint32_t slot = fl_strmap_get(&x->m[which], canon, len);
  return slot == FL_MAP_ABSENT ? NIL : x->v[which][slot];
}

static int index_names(const fl_fabric *f, name_ix *x) {
  uint32_t n = fl_fabric_node_count(f);
  for (int i = 0; i < 3; i++) {
    x->v[i] = malloc(((size_t)n + 1) * sizeof *x->v[i]);
    if (!x->v[i])
      return -1;
  }
  char canon[FL_ALIAS_MAX];
  for (fl_id i = 0; i < n; i++) {
    size_t len = full_name(f, i, canon, sizeof canon);
    if (ix_put(x, 0, canon, len, i) != 0)
      return -1;
    len = canon_name(f, i, canon, sizeof canon);
    if (ix_put(x, 1, canon, len, i) != 0)
      return -1;
    const char *sys = fl_fabric_node_system(f, i);
    if (*sys) {
      len = fl_alias_node(sys, strlen(sys), canon, sizeof canon);
      if (ix_put(x, 2, canon, len, i) != 0)
        return -1;
    }
  }
  return 0;
}

/* ---- planes -------------------------------------------------------- */

/* Canonical base name of @n (@full: domain kept) into @buf. */
static size_t canon_base(const fl_fabric *f, fl_id n, int full, char *buf,
                         size_t size) {
  size_t len;
  const char *nm = fl_fabric_node_base_name(f, n, &len);
  return full ? fl_alias_node_full(nm, len, buf, size)
              : fl_alias_node(nm, len, buf, size);
}

/* Plane of design node @i in the as-built's plane indexes (mapped), or
 * NIL (no plane, or a plane the as-built does not have). */
static uint32_t dplane_ix(const dctx *c, fl_id i) {
  uint32_t pl = node_plane(c, 0, i);
  return pl != FL_NONE && pl < c->n_plD ? c->mapDB[pl] : NIL;
}

/* 1 when a node name (canonical base name) is used in two planes of @f. */
static int names_repeat(const fl_fabric *f, int *rc) {
  fl_strmap seen;
  memset(&seen, 0, sizeof seen);
  uint32_t nn = fl_fabric_node_count(f), *first = NULL;
  int rep = 0;
  char canon[FL_ALIAS_MAX];
  *rc = -1;
  first = malloc(((size_t)nn + 1) * sizeof *first);
  if (!first)
    goto out;
  for (fl_id i = 0; i < nn && !rep; i++) {
    uint32_t pl = fl_fabric_node_plane(f, i);
    if (pl == FL_NONE)
      continue;
    size_t len = canon_base(f, i, 0, canon, sizeof canon);
    size_t before = fl_strmap_len(&seen);
    uint32_t slot = fl_strmap_put(&seen, canon, len, (uint32_t)before);
    if (slot == FL_MAP_ABSENT)
      goto out;
    if (fl_strmap_len(&seen) > before)
      first[slot] = pl;
    else
      rep = first[slot] != pl;
  }
  *rc = 0;
out:
  fl_strmap_free(&seen);
  free(first);
  return rep;
}

/* The one plane tag every node of @f carries (--design-plane A:plan.xml
 * alone), or NULL. */
static const char *one_tag(const fl_fabric *f) {
  const char *tag = NULL;
  uint32_t n = fl_fabric_node_count(f);
  for (fl_id i = 0; i < n; i++) {
    const char *v = fl_fabric_attr(f, FL_ENT_NODE, i, "plane");
    if (!v || (tag && strcmp(v, tag) != 0))
      return NULL;
    tag = v;
  }
  return tag;
}

/* Name of plane @j of side @side (a side that is one plane: its tag). */
static const char *side_plane_name(const dctx *c, int side, uint32_t j) {
  if (side ? c->oneB : c->oneD)
    return c->one_name;
  return fl_fabric_plane_name(side ? c->B : c->D, j);
}

/* When either side has planes: map them (by name when the two sides share
 * a plane name, else by order: the k-th design plane is the k-th as-built
 * one, natural order) and find whether names repeat across planes, which
 * makes node names per plane (c->per_plane). A side without planes against
 * one with planes (a plan of every plane against one plane's capture, or
 * the reverse) is one plane (c->oneD / c->oneB), paired with the plane its
 * --design-plane / --as-built-plane tag names, else the first: the other
 * planes' nodes are missing (unexpected), "the as-built fabric has no plane
 * B", instead of every name that repeats across planes matching nothing.
 * Nothing when neither side has planes. 0, or -1 out of memory. O(nodes)
 * with planes, O(1) without. */
static int planes_setup(dctx *c) {
  uint32_t nd = fl_fabric_plane_count(c->D), nb = fl_fabric_plane_count(c->B);
  if (!nd && !nb)
    return 0;
  if (!nd || !nb) {
    /* names unique across the other side's planes (pl1-leaf01, pl2-leaf01)
     * match without planes: a plan of every plane without plane tags then
     * matches every plane's capture, as before (pairing it with one plane
     * would put the other planes' switches "in another plane") */
    int rc, rep = names_repeat(nd ? c->D : c->B, &rc);
    if (rc != 0 || !rep)
      return rc;
    c->oneD = !nd;
    c->oneB = !nb;
    c->one_name = one_tag(nd ? c->B : c->D);
    nd += !nd;
    nb += !nb;
  }
  c->n_plD = nd;
  c->n_plB = nb;
  c->mapDB = malloc((size_t)nd * sizeof *c->mapDB);
  c->mapBD = malloc((size_t)nb * sizeof *c->mapBD);
  if (!c->mapDB || !c->mapBD)
    return -1;
  for (uint32_t i = 0; i < nd; i++)
    c->mapDB[i] = NIL;
  for (uint32_t j = 0; j < nb; j++)
    c->mapBD[j] = NIL;
  int common = 0;
  for (uint32_t i = 0; i < nd; i++)
    for (uint32_t j = 0; j < nb; j++) {
      const char *a = side_plane_name(c, 0, i), *b = side_plane_name(c, 1, j);
      if (c->mapBD[j] == NIL && a && b && strcmp(a, b) == 0) {
        c->mapDB[i] = j;
        c->mapBD[j] = i;
        common = 1;
        break;
      }
    }
  for (uint32_t i = 0; !common && i < nd && i < nb; i++)
    c->mapDB[i] = c->mapBD[i] = i;
  int rc;
  c->per_plane = names_repeat(c->D, &rc);
  if (rc == 0 && !c->per_plane)
    c->per_plane = names_repeat(c->B, &rc);
  return rc;
}

/* Index the canonical base names of @side's nodes within their planes
 * (as-built plane index; design nodes by their mapped plane): keys are the
 * plane (4 bytes) + the name; [0] full, [1] short, [2] systems. */
static int index_plane_names(const dctx *c, int side, name_ix *x) {
  const fl_fabric *f = side ? c->B : c->D;
  uint32_t n = fl_fabric_node_count(f);
  for (int i = 0; i < 3; i++) {
    x->v[i] = malloc(((size_t)n + 1) * sizeof *x->v[i]);
    if (!x->v[i])
      return -1;
  }
  char canon[FL_ALIAS_MAX], key[FL_ALIAS_MAX + 4];
  for (fl_id i = 0; i < n; i++) {
    uint32_t pl = side ? node_plane(c, 1, i) : dplane_ix(c, i);
    if (pl == NIL)
      continue;
    for (int full = 1; full >= 0; full--) {
      canon_base(f, i, full, canon, sizeof canon);
      size_t k = node_key(key, sizeof key, pl, canon);
      if (ix_put(x, !full, key, k, i) != 0)
        return -1;
    }
    const char *sys = fl_fabric_node_system(f, i);
    if (*sys) {
      fl_alias_node(sys, strlen(sys), canon, sizeof canon);
      size_t k = node_key(key, sizeof key, pl, canon);
      if (ix_put(x, 2, key, k, i) != 0)
        return -1;
    }
  }
  return 0;
}

/* Name matching within a plane: design node @i's base name (pass 0 full,
 * else short) looked up among the design (*@di) and as-built (*@b) nodes
 * of its plane; both NIL when @i has no plane the as-built has. */
static void plane_lookup(const dctx *c, const name_ix *dpx, const name_ix *bpx,
                         int pass, fl_id i, uint32_t *di, uint32_t *b) {
  *di = *b = NIL;
  uint32_t pl = dplane_ix(c, i);
  if (pl == NIL)
    return;
  char canon[FL_ALIAS_MAX], key[FL_ALIAS_MAX + 4];
  canon_base(c->D, i, pass == 0, canon, sizeof canon);
  size_t k = node_key(key, sizeof key, pl, canon);
  *di = ix_get(dpx, pass ? 1 : 0, key, k);
  *b = ix_get(bpx, pass, key, k);
}

/* Narrowed as-built (fl_diff_opts.whole_side 1): the home plane a port of
 * as-built node @b is marked with (`home-plane`, fl_fabric_plane_subset():
 * a host's NIC k cabled into another plane than k), or NULL. */
static const char *home_plane_mark(const dctx *c, fl_id b) {
  if (!c->o->whole || c->o->whole_side != 1)
    return NULL;
  fl_id p0 = fl_fabric_node_first_port(c->B, b);
  for (uint32_t k = 0; k < fl_fabric_node_port_count(c->B, b); k++) {
    const char *h = fl_fabric_attr(c->B, FL_ENT_PORT, p0 + k, "home-plane");
    if (h)
      return h;
  }
  return NULL;
}

/* Narrowed comparison (fl_diff_opts.whole): the plane of the node named
 * @name (a CA, @ca) or with GUID @guid in the whole side, when it is
 * another plane than the one compared; NULL otherwise. */
static const char *left_out_plane(const dctx *c, int ca, const char *name,
                                  uint64_t guid) {
  const fl_fabric *w = c->o->whole;
  if (!w || !c->o->plane)
    return NULL;
  /* a host's NIC is the same device whichever plane it is cabled into; a
   * switch of the same name in another plane is another switch (planes
   * name their switches alike), the same one only by its GUID */
  fl_id n = ca ? fl_fabric_find_node_name(w, name) : FL_NONE;
  if (n == FL_NONE && guid && !c->o->no_guid)
    n = fl_fabric_find_node_guid(w, guid);
  uint32_t pl = n != FL_NONE ? fl_fabric_node_plane(w, n) : FL_NONE;
  const char *pn = pl != FL_NONE ? fl_fabric_plane_name(w, pl) : NULL;
  return pn && strcmp(pn, c->o->plane) != 0 ? pn : NULL;
}

/* Why design node @i matched nothing, when names are per plane: in its
 * plane, or that plane is not in the as-built; NULL when @i has no plane
 * (the reasons of the whole fabric apply). Owned by the caller. */
static char *why_in_plane(dctx *c, const name_ix *dpx, const name_ix *bpx,
                          fl_id i) {
  uint32_t pl = dplane_ix(c, i);
  const char *pn = plane_name_d(c, node_plane(c, 0, i));
  if (pl == NIL && pn)
    return xprintf(c,
                   "the as-built fabric has no plane %s (planes are paired "
                   "by name: a plane name is on both sides)",
                   pn);
  if (pl == NIL)
    return NULL;
  char full[FL_ALIAS_MAX], canon[FL_ALIAS_MAX], key[FL_ALIAS_MAX + 4];
  canon_base(c->D, i, 1, full, sizeof full);
  canon_base(c->D, i, 0, canon, sizeof canon);
  size_t kf = node_key(key, sizeof key, pl, full);
  uint32_t dfull = ix_get(dpx, 0, key, kf), bfull = ix_get(bpx, 0, key, kf);
  size_t ks = node_key(key, sizeof key, pl, canon);
  uint32_t dshort = ix_get(dpx, 1, key, ks), bshort = ix_get(bpx, 1, key, ks);
  if (dfull != i)
    return xprintf(c,
                   "another design node of plane %s has the same name "
                   "after normalising",
                   pn);
  if (bfull == AMBIG || (bfull == NIL && bshort == AMBIG))
    return xprintf(c,
                   "several as-built nodes of plane %s have this name "
                   "after normalising",
                   pn);
  if (bfull == NIL && bshort != NIL && dshort != i)
    return xprintf(c,
                   "another design node of plane %s has the same short "
                   "name, so only the full name \"%s\" is compared and no "
                   "as-built node of that plane has it",
                   pn, full);
  if (bfull != NIL || bshort != NIL)
    return xprintf(c,
                   "the as-built node of this name in plane %s is already "
                   "matched to another design node (by GUID, or by a name "
                   "it shares)",
                   pn);
  if (fl_fabric_node_guid(c->D, i))
    return xprintf(c,
                   "no as-built node of plane %s is named \"%s\" (compared "
                   "after normalising case, domain and blanks) and none "
                   "has GUID 0x%016" PRIx64,
                   pn, canon, fl_fabric_node_guid(c->D, i));
  return xprintf(c,
                 "no as-built node of plane %s is named \"%s\" (compared "
                 "after normalising case, domain and blanks)",
                 pn, canon);
}

/* A switch or router matched in another plane than its planned one (by
 * GUID, or by a name no other plane uses) is one finding naming both
 * planes (cross_plane_node()), not one per cable: the pair is unmatched
 * and its cables folded. Both sides must have planes. 0, or -1. */
static int split_cross_plane(dctx *c) {
  uint32_t nd = fl_fabric_node_count(c->D), nb = fl_fabric_node_count(c->B);
  if (!c->n_plD)
    return 0;
  c->xplD = malloc(((size_t)nd + 1) * sizeof *c->xplD);
  c->xplB = calloc((size_t)nb + 1, 1);
  if (!c->xplD || !c->xplB)
    return -1;
  for (fl_id i = 0; i < nd; i++) {
    c->xplD[i] = FL_NONE;
    fl_id b = c->mD[i];
    uint32_t how = c->howD[i], kind = fl_fabric_node_kind(c->D, i);
    if (b == FL_NONE || c->mB[b] != i ||
        (how != HOW_GUID && how != HOW_NAME && how != HOW_SYSTEM &&
         how != HOW_CABLE) ||
        (kind != FL_NODE_SWITCH && kind != FL_NODE_ROUTER) ||
        fl_fabric_node_kind(c->B, b) != kind)
      continue;
    uint32_t pd = dplane_ix(c, i), pb = node_plane(c, 1, b);
    if (node_plane(c, 0, i) == FL_NONE || pb == FL_NONE || pd == pb)
      continue;
    c->xplD[i] = b;
    c->xplB[b] = 1;
    c->mD[i] = FL_NONE;
    c->mB[b] = FL_NONE;
  }
  return 0;
}

/* The finding of a switch planned in one plane and built in another
 * (split_cross_plane()): design node @i, as-built node @b. */
static void cross_plane_node(dctx *c, fl_id i, fl_id b) {
  const fl_fabric *D = c->D, *B = c->B;
  const char *pd = plane_name_d(c, node_plane(c, 0, i));
  const char *pb = plane_name_b(c, node_plane(c, 1, b));
  const char *kind = fl_node_kind_name(fl_fabric_node_kind(D, i));
  uint32_t ncd = c->cables_of_D[i], ncb = c->cables_of_B[b];
  fnd f = {.rule = "diff.missing-node",
           .sev = FL_SEV_ERROR,
           .loc_fab = D,
           .loc_ent = FL_ENT_NODE,
           .loc_id = i,
           .extra_nodes = {fl_fabric_node_name(D, i)},
           .n_extra = 1,
           .ids = 1,
           .xd = i,
           .xb = b};
  char *why = xprintf(c, "it is in plane %s as built", pb);
  f.ev = json_pack("{s:s,s:s,s:i,s:s,s:s,s:s,s:i}", "reason", why ? why : "",
                   "kind", kind, "planned_cables", (json_int_t)ncd,
                   "planned_plane", pd, "built_plane", pb, "as_built_node",
                   fl_fabric_node_name(B, b), "cables", (json_int_t)ncb);
  emit(c, &f,
       xprintf(c,
               "planned %s \"%s\" of plane %s is in plane %s as built "
               "(\"%s\", cabled to that plane's switches): move it to plane "
               "%s and cable it as planned (its %u planned and %u built "
               "cable(s) are not reported one by one)",
               kind, fl_fabric_node_name(D, i), pd, pb,
               fl_fabric_node_name(B, b), pd, ncd, ncb));
  free(why);
  const char *detail = "node found in another plane: move it to its planned "
                       "plane; check this planned cable";
  if (ncd)
    wo_node_cables(c, "check", "diff.missing-node", i, detail);
  else
    wo_node(c, "check", "diff.missing-node", fl_fabric_node_name(D, i),
            fl_fabric_attr(D, FL_ENT_NODE, i, "rack"),
            "node found in another plane: move it to its planned plane");
}

/* How GUIDs of matched nodes are judged. With --no-guid they are not
 * compared. When the plan has GUIDs but not one matched node's GUID agrees
 * with the as-built (a generated plan, or placeholders written before the
 * hardware arrived), a GUID finding per node would bury the real ones:
 * one info finding says so instead, and GUIDs are not compared. */
enum { GUIDS_COMPARE, GUIDS_OFF, GUIDS_PLACEHOLDER };

static int guid_policy(dctx *c) {
  if (c->o->no_guid)
    return GUIDS_OFF;
  uint32_t nd = fl_fabric_node_count(c->D), pairs = 0, agree = 0;
  for (fl_id i = 0; i < nd; i++) {
    if (c->mD[i] == FL_NONE)
      continue;
    uint64_t gd = fl_fabric_node_guid(c->D, i);
    uint64_t gb = fl_fabric_node_guid(c->B, c->mD[i]);
    pairs += gd && gb;
    agree += gd && gb && gd == gb;
  }
  if (pairs < 2 || agree)
    return GUIDS_COMPARE;
  fnd f = {.rule = "diff.different", .sev = FL_SEV_INFO};
  f.ev = json_pack("{s:s,s:i,s:i}", "attribute", "guid", "compared",
                   (json_int_t)pairs, "agreeing", (json_int_t)0);
  emit(c, &f,
       xprintf(c,
               "none of the %u planned node GUIDs matches the as-built one: "
               "the plan's GUIDs look like placeholders, so nodes were "
               "matched by name and GUIDs not compared (--no-guid says so "
               "and silences this note)",
               pairs));
  return GUIDS_PLACEHOLDER;
}

/* 1 when as-built node @b has a port labelled @dev (canonical port names). */
static int has_port_label(const fl_fabric *B, fl_id b, const char *dev) {
  char want[FL_ALIAS_MAX], got[FL_ALIAS_MAX];
  fl_alias_port(dev, strlen(dev), want, sizeof want);
  fl_id first = fl_fabric_node_first_port(B, b);
  for (uint32_t k = 0; first != FL_NONE && k < fl_fabric_node_port_count(B, b);
       k++) {
    const char *lb = fl_fabric_port_label(B, first + k);
    if (*lb && (fl_alias_port(lb, strlen(lb), got, sizeof got),
                strcmp(want, got) == 0))
      return 1;
  }
  return 0;
}

/* One host model, design per NIC and as-built per host: an unmatched
 * design CA with a system and a device ("host-01 ens1f0np0", system
 * host-01, device ens1f0np0) is the port labelled ens1f0np0 of the
 * as-built CA named host-01 (an LLDP chassis). Several design nodes then
 * share one as-built node; mB keeps the first. */
static int match_nics(dctx *c, const name_ix *bx) {
  const fl_fabric *D = c->D, *B = c->B;
  uint32_t nd = fl_fabric_node_count(D);
  char canon[FL_ALIAS_MAX];
  for (fl_id i = 0; i < nd; i++) {
    const char *sys = fl_fabric_node_system(D, i);
    const char *dev = fl_fabric_node_device(D, i);
    if (c->mD[i] != FL_NONE || fl_fabric_node_kind(D, i) != FL_NODE_CA ||
        !*sys || !*dev)
      continue;
    size_t len = fl_alias_node_full(sys, strlen(sys), canon, sizeof canon);
    uint32_t b = ix_get(bx, 0, canon, len);
    if (b == NIL) {
      len = fl_alias_node(sys, strlen(sys), canon, sizeof canon);
      b = ix_get(bx, 1, canon, len);
    }
    if (b == NIL || b == AMBIG || fl_fabric_node_kind(B, b) != FL_NODE_CA ||
        !has_port_label(B, b, dev))
      continue;
    c->mD[i] = b;
    if (c->mB[b] == FL_NONE)
      c->mB[b] = i;
    c->howD[i] = HOW_NIC;
    c->st->nodes_by_system++;
  }
  return 0;
}

/* The "system\x1fdevice" key of a per-NIC node or of a host's port. */
static size_t sysdev_key(const char *sys, const char *dev, char *key,
                         size_t size) {
  char a[FL_ALIAS_MAX], b[FL_ALIAS_MAX];
  fl_alias_node(sys, strlen(sys), a, sizeof a);
  fl_alias_port(dev, strlen(dev), b, sizeof b);
  int n = snprintf(key, size, "%s\x1f%s", a, b);
  return n < 0 ? 0 : (size_t)n < size ? (size_t)n : size - 1;
}

/* One host model, design per host and as-built per NIC: an unmatched
 * design CA whose name is the system of several unmatched as-built CAs
 * ("host-01" and "host-01 mlx5_0", "host-01 mlx5_3") stands for all of
 * them; each of its labelled ports is the as-built NIC of that device
 * (dkey()). */
static int match_hosts(dctx *c) {
  const fl_fabric *D = c->D, *B = c->B;
  uint32_t nd = fl_fabric_node_count(D), nb = fl_fabric_node_count(B);
  fl_strmap hosts;
  memset(&hosts, 0, sizeof hosts);
  char canon[FL_ALIAS_MAX], key[2 * FL_ALIAS_MAX + 2];
  int rc = -1;
  for (fl_id i = 0; i < nd; i++) {
    if (c->mD[i] != FL_NONE || fl_fabric_node_kind(D, i) != FL_NODE_CA)
      continue;
    const char *nm = fl_fabric_node_name(D, i);
    size_t len = fl_alias_node(nm, strlen(nm), canon, sizeof canon);
    if (fl_strmap_put(&hosts, canon, len, i) == FL_MAP_ABSENT)
      goto out;
  }
  if (!fl_strmap_len(&hosts))
    return 0;
  for (fl_id b = 0; b < nb; b++) {
    const char *sys = fl_fabric_node_system(B, b);
    const char *dev = fl_fabric_node_device(B, b);
    if (c->mB[b] != FL_NONE || fl_fabric_node_kind(B, b) != FL_NODE_CA ||
        !*sys || !*dev)
      continue;
    size_t len = fl_alias_node(sys, strlen(sys), canon, sizeof canon);
    uint32_t i = fl_strmap_get(&hosts, canon, len);
    if (i == FL_MAP_ABSENT)
      continue;
    size_t k = sysdev_key(sys, dev, key, sizeof key);
    if (fl_strmap_put(&c->sysdev, key, k, b) == FL_MAP_ABSENT)
      goto out;
    c->mB[b] = i;
    if (c->mD[i] == FL_NONE) {
      c->mD[i] = b;
      c->howD[i] = HOW_HOST;
      c->st->nodes_by_system++;
    }
  }
  rc = 0;
out:
  fl_strmap_free(&hosts);
  return rc;
}

/* The as-built endpoint of labelled port @p of a HOW_HOST design node: the
 * cabled port of the as-built NIC of that system and device. 0 when found. */
static int host_nic_key(dctx *c, fl_id p, uint64_t *out) {
  fl_id n = fl_fabric_port_node(c->D, p);
  const char *lb = fl_fabric_port_label(c->D, p);
  char key[2 * FL_ALIAS_MAX + 2];
  size_t k = sysdev_key(fl_fabric_node_name(c->D, n), lb, key, sizeof key);
  uint32_t b = *lb ? fl_strmap_get(&c->sysdev, key, k) : FL_MAP_ABSENT;
  if (b == FL_MAP_ABSENT)
    return -1;
  fl_id first = fl_fabric_node_first_port(c->B, b);
  uint32_t num = 1;
  for (uint32_t j = 0;
       first != FL_NONE && j < fl_fabric_node_port_count(c->B, b); j++)
    if (fl_fabric_port_link(c->B, first + j, 0) != FL_NONE) {
      num = fl_fabric_port_num(c->B, first + j);
      break;
    }
  *out = mkkey(b, num);
  return 0;
}

/* 1 when the design does not say what kind of device node @i is: a Cisco
 * cable plan's destChassis that is no sourceChassis (core/io/cisco_plan.c). */
static int kind_unknown(const fl_fabric *D, fl_id i) {
  const char *from = fl_fabric_attr(D, FL_ENT_NODE, i, "kind-from");
  return from && strcmp(from, "cable-plan") == 0 &&
         !fl_fabric_attr(D, FL_ENT_NODE, i, "model");
}

/* A design switch that matched no as-built node by GUID or name and is
 * named like an as-built director chassis (the <name> of its ASICs'
 * `MF0;<name>:...` descriptions, compared by the alias layer) stands for
 * all its ASICs, none of which may be matched already. Its ports are
 * front-panel names (dkey()); cables inside the chassis are not compared
 * (build_edges()). */
static int match_chassis(dctx *c) {
  const fl_fabric *D = c->D, *B = c->B;
  uint32_t nc = fl_fabric_chassis_count(B), nb = fl_fabric_node_count(B);
  if (!nc)
    return 0;
  fl_strmap names;
  memset(&names, 0, sizeof names);
  uint32_t *claim = malloc((size_t)nc * sizeof *claim);
  uint8_t *taken = calloc(nc, 1);
  int rc = -1;
  char canon[FL_ALIAS_MAX];
  if (!claim || !taken)
    goto out;
  for (uint32_t k = 0; k < nc; k++) {
    const char *nm = fl_fabric_chassis_name(B, k);
    claim[k] = FL_NONE;
    size_t len = fl_alias_node(nm, strlen(nm), canon, sizeof canon);
    if (fl_strmap_put(&names, canon, len, k) == FL_MAP_ABSENT)
      goto out;
  }
  for (fl_id b = 0; b < nb; b++) /* a chassis with a matched ASIC is taken */
    if (c->mB[b] != FL_NONE && fl_fabric_node_chassis(B, b) != FL_NONE)
      taken[fl_fabric_node_chassis(B, b)] = 1;
  for (fl_id i = 0; i < fl_fabric_node_count(D); i++) {
    if (c->mD[i] != FL_NONE || fl_fabric_node_kind(D, i) != FL_NODE_SWITCH)
      continue;
    size_t len = canon_name(D, i, canon, sizeof canon);
    uint32_t k = fl_strmap_get(&names, canon, len);
    if (k == FL_MAP_ABSENT || taken[k])
      continue;
    taken[k] = 1;
    claim[k] = i;
    c->howD[i] = HOW_CHASSIS;
    c->st->nodes_by_chassis++;
  }
  for (fl_id b = 0; b < nb; b++) {
    uint32_t k = fl_fabric_node_chassis(B, b);
    if (k == FL_NONE || claim[k] == FL_NONE)
      continue;
    c->mB[b] = claim[k];
    if (c->mD[claim[k]] == FL_NONE)
      c->mD[claim[k]] = b; /* its first ASIC stands for it */
  }
  rc = 0;
out:
  fl_strmap_free(&names);
  free(claim);
  free(taken);
  return rc;
}

/* The other way round (a plan that lists the ASICs, an as-built that
 * names the box: an ASIC-level dump used as the plan against a UFM NDT):
 * a design director chassis none of whose ASICs matched, named like one
 * unmatched as-built switch, is that switch; each ASIC is part of it
 * (HOW_IN_CHASSIS) and its front-panel ports are the as-built's labels
 * (dkey()); the design's cables inside the chassis are not compared
 * (build_edges()). */
static int match_chassis_built(dctx *c, const name_ix *bx) {
  const fl_fabric *D = c->D, *B = c->B;
  uint32_t nc = fl_fabric_chassis_count(D), nd = fl_fabric_node_count(D);
  if (!nc)
    return 0;
  fl_id *box = malloc((size_t)nc * sizeof *box);
  if (!box)
    return -1;
  char canon[FL_ALIAS_MAX];
  for (uint32_t k = 0; k < nc; k++) {
    const char *nm = fl_fabric_chassis_name(D, k);
    size_t len = fl_alias_node(nm, strlen(nm), canon, sizeof canon);
    uint32_t b = ix_get(bx, 1, canon, len);
    box[k] = b == NIL || b == AMBIG || c->mB[b] != FL_NONE ||
                     fl_fabric_node_kind(B, b) != FL_NODE_SWITCH
                 ? FL_NONE
                 : b;
  }
  for (fl_id i = 0; i < nd; i++) /* a chassis with a matched ASIC stays */
    if (c->mD[i] != FL_NONE && fl_fabric_node_chassis(D, i) != FL_NONE)
      box[fl_fabric_node_chassis(D, i)] = FL_NONE;
  for (uint32_t k = 0; k < nc; k++)
    if (box[k] != FL_NONE)
      c->st->nodes_by_chassis++;
  for (fl_id i = 0; i < nd; i++) {
    uint32_t k = fl_fabric_node_chassis(D, i);
    if (k == FL_NONE || box[k] == FL_NONE)
      continue;
    c->mD[i] = box[k];
    c->howD[i] = HOW_IN_CHASSIS;
    if (c->mB[box[k]] == FL_NONE)
      c->mB[box[k]] = i; /* its first ASIC stands for it */
  }
  free(box);
  return 0;
}

/* Canonical system of node @n (its name when it has none). */
static size_t sys_canon(const fl_fabric *f, fl_id n, char *buf, size_t size) {
  const char *s = fl_fabric_node_system(f, n);
  if (!*s)
    s = fl_fabric_node_name(f, n);
  return fl_alias_node(s, strlen(s), buf, size);
}

/* Nodes a name cannot tell apart (the ASICs of a director that an
 * opensm-subnet.lst describes all as "SL1-1 MT47396 ...") are matched by
 * position, breadth first from the matched nodes: the planned cable at port
 * P of a matched design node reaches unmatched design node X at port Q; the
 * as-built cable at port P of its match reaches unmatched as-built node Y at
 * port Q; X and Y have the same system name and Y's description is shared
 * by other as-built nodes (so no name can tell them apart; a renamed node
 * is not matched this way): X is Y. Only nodes whose ports are numbered on both
 * sides (InfiniBand) take part. O(ports). */
static int match_cables(dctx *c) {
  const fl_fabric *D = c->D, *B = c->B;
  uint32_t nd = fl_fabric_node_count(D);
  uint32_t nb = fl_fabric_node_count(B);
  fl_id *queue = malloc(((size_t)nd + 1) * sizeof *queue);
  uint8_t *shared = calloc((size_t)nb + 1, 1);
  fl_strmap descs;
  memset(&descs, 0, sizeof descs);
  int rc = -1;
  if (!queue || !shared)
    goto out;
  for (fl_id y = 0; y < nb; y++) { /* as-built descriptions used twice */
    const char *d = fl_fabric_node_desc(B, y);
    uint32_t v = *d ? fl_strmap_put(&descs, d, strlen(d), y) : y;
    if (v == FL_MAP_ABSENT)
      goto out;
    if (v != y)
      shared[v] = shared[y] = 1;
  }
  size_t head = 0, tail = 0;
  for (fl_id i = 0; i < nd; i++)
    if (c->mD[i] != FL_NONE &&
        (c->howD[i] == HOW_GUID || c->howD[i] == HOW_NAME ||
         c->howD[i] == HOW_SYSTEM))
      queue[tail++] = i;
  char cd[FL_ALIAS_MAX], cb[FL_ALIAS_MAX];
  while (head < tail) {
    fl_id i = queue[head++], b = c->mD[i];
    if (c->b_labels[b])
      continue;
    fl_id first = fl_fabric_node_first_port(D, i);
    for (uint32_t k = 0;
         first != FL_NONE && k < fl_fabric_node_port_count(D, i); k++) {
      fl_id p = first + k, l = fl_fabric_port_link(D, p, 0);
      if (l == FL_NONE)
        continue;
      fl_id q = fl_fabric_link_port(D, l, fl_fabric_link_port(D, l, 0) == p);
      fl_id x = fl_fabric_port_node(D, q);
      if (c->mD[x] != FL_NONE)
        continue;
      fl_id bp = fl_fabric_find_port(B, b, fl_fabric_port_num(D, p));
      fl_id bl = bp == FL_NONE ? FL_NONE : fl_fabric_port_link(B, bp, 0);
      if (bl == FL_NONE)
        continue;
      fl_id bq =
          fl_fabric_link_port(B, bl, fl_fabric_link_port(B, bl, 0) == bp);
      fl_id y = fl_fabric_port_node(B, bq);
      if (c->mB[y] != FL_NONE || c->b_labels[y] ||
          fl_fabric_port_num(B, bq) != fl_fabric_port_num(D, q))
        continue;
      if (!shared[y])
        continue;
      size_t ld = sys_canon(D, x, cd, sizeof cd);
      size_t lb = sys_canon(B, y, cb, sizeof cb);
      if (ld != lb || memcmp(cd, cb, ld) != 0)
        continue;
      c->mD[x] = y;
      c->mB[y] = x;
      c->howD[x] = HOW_CABLE;
      c->st->nodes_by_cable++;
      queue[tail++] = x;
    }
  }
  rc = 0;
out:
  fl_strmap_free(&descs);
  free(shared);
  free(queue);
  return rc;
}

static int match_nodes(dctx *c) {
  const fl_fabric *D = c->D, *B = c->B;
  uint32_t nd = fl_fabric_node_count(D), nb = fl_fabric_node_count(B);
  c->mD = malloc(((size_t)nd + 1) * sizeof *c->mD);
  c->mB = malloc(((size_t)nb + 1) * sizeof *c->mB);
  c->howD = calloc((size_t)nd + 1, 1);
  if (!c->mD || !c->mB || !c->howD || planes_setup(c) != 0)
    return -1;
  for (uint32_t i = 0; i < nd; i++)
    c->mD[i] = FL_NONE;
  for (uint32_t i = 0; i < nb; i++)
    c->mB[i] = FL_NONE;
  /* GUIDs */
  if (!c->o->no_guid)
    for (fl_id i = 0; i < nd; i++) {
      uint64_t g = fl_fabric_node_guid(D, i);
      if (!g)
        continue;
      fl_id b = fl_fabric_find_node_guid(B, g);
      if (b == FL_NONE || c->mB[b] != FL_NONE ||
          fl_fabric_find_node_guid(D, g) != i)
        continue;
      c->mD[i] = b;
      c->mB[b] = i;
      c->howD[i] = HOW_GUID;
      c->st->nodes_by_guid++;
    }
  /* names: full names first, then short names that are unambiguous on both
   * sides (two nodes sharing a short name match on their full names only),
   * then systems */
  name_ix bx, dx, bpx, dpx; /* whole fabric; within planes (c->per_plane) */
  memset(&bx, 0, sizeof bx);
  memset(&dx, 0, sizeof dx);
  memset(&bpx, 0, sizeof bpx);
  memset(&dpx, 0, sizeof dpx);
  int rc = -1;
  if (index_names(B, &bx) != 0 || index_names(D, &dx) != 0)
    goto out;
  /* names within planes: only needed for nodes GUIDs did not match */
  int left = 0;
  for (fl_id i = 0; c->per_plane && i < nd && !left; i++)
    left = c->mD[i] == FL_NONE;
  if (left && (index_plane_names(c, 1, &bpx) != 0 ||
               index_plane_names(c, 0, &dpx) != 0))
    goto out;
  char canon[FL_ALIAS_MAX];
  for (int pass = 0; pass < 3; pass++)
    for (fl_id i = 0; i < nd; i++) {
      if (c->mD[i] != FL_NONE)
        continue;
      size_t len = pass == 0 ? full_name(D, i, canon, sizeof canon)
                             : canon_name(D, i, canon, sizeof canon);
      /* the design's own index: full for pass 0, short for 1 and 2 */
      uint32_t di = ix_get(&dx, pass ? 1 : 0, canon, len);
      uint32_t b = ix_get(&bx, pass, canon, len);
      /* names repeat across planes: the node of this name in its plane
       * first ("leaf01 (0x...)" is leaf01 there), else the whole fabric's
       * (a name only another plane has) */
      if (left) {
        uint32_t pdi, pb;
        plane_lookup(c, &dpx, &bpx, pass, i, &pdi, &pb);
        if ((pdi == i && pb != NIL && pb != AMBIG && c->mB[pb] == FL_NONE) ||
            di != i || b == NIL || b == AMBIG) {
          di = pdi;
          b = pb;
        }
      }
      if (di != i)
        continue; /* ambiguous within the design (or its plane) */
      if (b == NIL || b == AMBIG || c->mB[b] != FL_NONE)
        continue;
      if (pass == 2 && fl_fabric_node_kind(B, b) != fl_fabric_node_kind(D, i))
        continue;
      c->mD[i] = b;
      c->mB[b] = i;
      c->howD[i] = pass == 2 ? HOW_SYSTEM : HOW_NAME;
      if (pass == 2)
        c->st->nodes_by_system++;
      else
        c->st->nodes_by_name++;
    }
  /* systems the other way round: a design node whose system is the name
   * of an as-built node ("MF0;leaf-01:MQM8700/U1", system leaf-01, in an
   * ASIC-level dump used as the plan; LEAF-01 in the as-built NDT) */
  for (fl_id i = 0; i < nd; i++) {
    const char *sys = fl_fabric_node_system(D, i);
    if (c->mD[i] != FL_NONE || !*sys)
      continue;
    size_t len = fl_alias_node(sys, strlen(sys), canon, sizeof canon);
    if (ix_get(&dx, 2, canon, len) != i)
      continue; /* several design nodes of this system */
    uint32_t b = ix_get(&bx, 1, canon, len);
    if (b == NIL || b == AMBIG || c->mB[b] != FL_NONE ||
        fl_fabric_node_kind(B, b) != fl_fabric_node_kind(D, i))
      continue;
    c->mD[i] = b;
    c->mB[b] = i;
    c->howD[i] = HOW_SYSTEM;
    c->st->nodes_by_system++;
  }
  if (match_chassis(c) != 0 || match_chassis_built(c, &bx) != 0 ||
      match_nics(c, &bx) != 0 || match_hosts(c) != 0 || match_cables(c) != 0 ||
      split_cross_plane(c) != 0)
    goto out;
  /* unmatched nodes */
  for (fl_id i = 0; i < nd; i++) {
    if (c->mD[i] != FL_NONE)
      continue;
    if (c->xplD && c->xplD[i] != FL_NONE) {
      cross_plane_node(c, i, c->xplD[i]);
      continue;
    }
    char full[FL_ALIAS_MAX];
    size_t flen = full_name(D, i, full, sizeof full);
    size_t len = canon_name(D, i, canon, sizeof canon);
    uint32_t bfull = ix_get(&bx, 0, full, flen);
    uint32_t bshort = ix_get(&bx, 1, canon, len);
    const char *why;
    char *whys = left ? why_in_plane(c, &dpx, &bpx, i) : NULL;
    const char *lo =
        c->o->whole_side == 1
            ? left_out_plane(c, fl_fabric_node_kind(D, i) == FL_NODE_CA,
                             fl_fabric_node_name(D, i),
                             fl_fabric_node_guid(D, i))
            : NULL;
    if (whys)
      why = whys;
    else if (lo)
      why = whys = xprintf(c,
                           "it is in plane %s as built, which this "
                           "comparison leaves out (the design is plane %s "
                           "alone)",
                           lo, c->o->plane);
    else if (ix_get(&dx, 0, full, flen) != i)
      why = "another design node has the same name after normalising";
    else if (bfull == AMBIG || (bfull == NIL && bshort == AMBIG))
      why = "several as-built nodes have this name after normalising";
    else if (bfull == NIL && bshort != NIL && ix_get(&dx, 1, canon, len) != i)
      why = whys = xprintf(c,
                           "another design node has the same short name, so "
                           "only the full name \"%s\" is compared and no "
                           "as-built node has it",
                           full);
    else if (bfull != NIL || bshort != NIL)
      why = whys = xprintf(
          c, "the as-built node of this name is already matched to another "
             "design node (by GUID, or by a name it shares)");
    else if (fl_fabric_node_guid(D, i))
      why = whys = xprintf(c,
                           "no as-built node is named \"%s\" (compared "
                           "after normalising case, domain and blanks) "
                           "or has GUID 0x%016" PRIx64,
                           canon, fl_fabric_node_guid(D, i));
    else
      why = whys = xprintf(c,
                           "no as-built node is named \"%s\" (compared "
                           "after normalising case, domain and blanks)",
                           canon);
    uint32_t ncab = c->cables_of_D ? c->cables_of_D[i] : 0;
    fnd f = {.rule = "diff.missing-node",
             .sev = FL_SEV_ERROR,
             .loc_fab = D,
             .loc_ent = FL_ENT_NODE,
             .loc_id = i,
             .extra_nodes = {fl_fabric_node_name(D, i)},
             .n_extra = 1,
             .ids = c->per_plane,
             .xd = i,
             .xb = FL_NONE};
    f.ev = json_pack("{s:s,s:s,s:i}", "reason", why ? why : "", "kind",
                     fl_node_kind_name(fl_fabric_node_kind(D, i)),
                     "planned_cables", (json_int_t)ncab);
    emit(c, &f,
         xprintf(c,
                 "planned %s \"%s\" is not in %s%s: %s (its %u planned "
                 "cable(s) are not reported one by one)",
                 fl_node_kind_name(fl_fabric_node_kind(D, i)),
                 fl_fabric_node_name(D, i),
                 lo ? "plane " : "the as-built fabric", lo ? c->o->plane : "",
                 why, ncab));
    const char *rack = fl_fabric_attr(D, FL_ENT_NODE, i, "rack");
    if (ncab) /* each planned cable: its port, far end and cable id */
      wo_node_cables(c, "check", "diff.missing-node", i,
                     "node not discovered: power, install or name it as "
                     "planned; check this planned cable");
    else
      wo_node(c, "check", "diff.missing-node", fl_fabric_node_name(D, i), rack,
              "node not discovered: power, install or name it as planned");
    free(whys);
  }
  for (fl_id b = 0; b < nb; b++) {
    if (c->mB[b] != FL_NONE || (c->xplB && c->xplB[b]))
      continue;
    const char *desc = fl_fabric_node_desc(B, b);
    int an = strstr(desc, "Aggregation Node") != NULL;
    uint32_t ncab = c->cables_of_B ? c->cables_of_B[b] : 0;
    fnd f = {.rule = "diff.unexpected-node",
             .sev = an ? FL_SEV_INFO : FL_SEV_ERROR,
             .loc_fab = B,
             .loc_ent = FL_ENT_NODE,
             .loc_id = b,
             .extra_nodes = {fl_fabric_node_name(B, b)},
             .n_extra = 1,
             .ids = c->per_plane,
             .xd = FL_NONE,
             .xb = b};
    uint64_t g = fl_fabric_node_guid(B, b);
    const char *pl = c->per_plane ? plane_name_b(c, node_plane(c, 1, b)) : NULL;
    char gs[32] = "";
    if (g)
      snprintf(gs, sizeof gs, "0x%016" PRIx64, g);
    f.ev = json_pack("{s:s,s:s,s:i}", "kind",
                     fl_node_kind_name(fl_fabric_node_kind(B, b)), "guid", gs,
                     "cables", (json_int_t)ncab);
    const char *lo =
        c->o->whole_side == 0
            ? left_out_plane(c, fl_fabric_node_kind(B, b) == FL_NODE_CA,
                             fl_fabric_node_name(B, b), g)
            : NULL;
    const char *home = lo ? NULL : home_plane_mark(c, b);
    const char *kind = fl_node_kind_name(fl_fabric_node_kind(B, b));
    const char *nm = fl_fabric_node_name(B, b), *gl = g ? " GUID " : "";
    char *msg;
    if (home)
      msg =
          xprintf(c,
                  "%s \"%s\"%s%s is not in the design of plane %s: it "
                  "belongs in plane %s (its host's NIC for that plane) and "
                  "is cabled into plane %s; move its cable to plane %s (its "
                  "%u cable(s) are not reported one by one)",
                  kind, nm, gl, gs, c->o->plane, home, c->o->plane, home, ncab);
    else if (lo)
      msg = xprintf(c,
                    "%s \"%s\"%s%s is not in plane %s of the design: the "
                    "design puts it in plane %s, which this comparison "
                    "leaves out (the as-built is plane %s alone; its %u "
                    "cable(s) are not reported one by one)",
                    kind, nm, gl, gs, c->o->plane, lo, c->o->plane, ncab);
    else
      msg =
          xprintf(c,
                  "%s \"%s\"%s%s is not in the design: no planned node%s%s "
                  "has this name or GUID (its %u cable(s) are not reported "
                  "one by one)%s",
                  kind, nm, gl, gs, pl ? " of plane " : "", pl ? pl : "", ncab,
                  an ? "; a SHARP Aggregation Node, usually left out of "
                       "plans"
                     : "");
    emit(c, &f, msg);
    if (!an)
      wo_node(c, "check", "diff.unexpected-node", fl_fabric_node_name(B, b), "",
              "node found that the plan does not have: remove or add it "
              "to the plan");
  }
  /* attributes of matched nodes */
  int guids = guid_policy(c);
  for (fl_id i = 0; i < nd; i++) {
    fl_id b = c->mD[i];
    if (b == FL_NONE)
      continue;
    uint64_t gd = fl_fabric_node_guid(D, i), gb = fl_fabric_node_guid(B, b);
    if (guids != GUIDS_COMPARE)
      gd = gb = 0; /* --no-guid, or placeholders: GUIDs are not compared */
    char cd[FL_ALIAS_MAX], cb[FL_ALIAS_MAX];
    if (c->per_plane) { /* "leaf01 (0x...)" of one side is leaf01 */
      canon_base(D, i, 0, cd, sizeof cd);
      canon_base(B, b, 0, cb, sizeof cb);
    } else {
      canon_name(D, i, cd, sizeof cd);
      canon_name(B, b, cb, sizeof cb);
    }
    const char *what = NULL;
    char *msg = NULL;
    if (gd && gb && gd != gb) {
      what = "guid";
      msg = xprintf(c,
                    "\"%s\" has GUID 0x%016" PRIx64 ", planned 0x%016" PRIx64
                    " (hardware replaced? update the plan or the "
                    "node-name map)",
                    fl_fabric_node_name(D, i), gb, gd);
    } else if (c->howD[i] == HOW_GUID && strcmp(cd, cb) != 0) {
      what = "description";
      msg = xprintf(c,
                    "GUID 0x%016" PRIx64 " is \"%s\" in the design but "
                    "describes itself as \"%s\"",
                    gd, fl_fabric_node_name(D, i), fl_fabric_node_name(B, b));
    } else if (fl_fabric_node_kind(D, i) != fl_fabric_node_kind(B, b) &&
               !kind_unknown(D, i)) {
      what = "kind";
      msg = xprintf(c, "\"%s\" is a %s in the design but a %s as built",
                    fl_fabric_node_name(D, i),
                    fl_node_kind_name(fl_fabric_node_kind(D, i)),
                    fl_node_kind_name(fl_fabric_node_kind(B, b)));
    }
    if (!what)
      continue;
    fnd f = {.rule = "diff.different",
             .sev = FL_SEV_WARNING,
             .loc_fab = D,
             .loc_ent = FL_ENT_NODE,
             .loc_id = i,
             .extra_nodes = {fl_fabric_node_name(D, i)},
             .n_extra = 1,
             .ids = c->per_plane,
             .xd = i,
             .xb = b};
    f.ev = json_pack("{s:s,s:s,s:s}", "attribute", what, "design",
                     fl_fabric_node_name(D, i), "as_built",
                     fl_fabric_node_name(B, b));
    if (strcmp(what, "guid") == 0) {
      f.cause = "guid";
      f.cause_msg = "{count} nodes have another GUID than planned (hardware "
                    "replaced? update the plan or the node-name map)";
    }
    emit(c, &f, msg);
  }
  rc = 0;
out:
  name_ix_free(&bx);
  name_ix_free(&dx);
  name_ix_free(&bpx);
  name_ix_free(&dpx);
  return rc;
}

/* ---- 2. endpoints and edges ----------------------------------------- */

static int index_built_labels(dctx *c) {
  const fl_fabric *B = c->B;
  uint32_t nb = fl_fabric_node_count(B), np = fl_fabric_port_count(B);
  c->b_labels = calloc((size_t)nb + 1, 1);
  if (!c->b_labels)
    return -1;
  char canon[FL_ALIAS_MAX], key[FL_ALIAS_MAX + 4];
  for (fl_id p = 0; p < np; p++) {
    const char *lb = fl_fabric_port_label(B, p);
    if (!*lb)
      continue;
    fl_id n = fl_fabric_port_node(B, p);
    c->b_labels[n] = 1;
    fl_alias_port(lb, strlen(lb), canon, sizeof canon);
    size_t k = node_key(key, sizeof key, n, canon);
    if (fl_strmap_put(&c->blabel, key, k, p) == FL_MAP_ABSENT)
      return -1;
  }
  return 0;
}

/* Endpoint of design port @p (its node matched to @bn). */
static int dkey(dctx *c, fl_id p, fl_id bn, uint64_t *out) {
  const char *lb = fl_fabric_port_label(c->D, p);
  fl_id dn = fl_fabric_port_node(c->D, p);
  char nbuf[16];
  if (c->howD[dn] == HOW_HOST && host_nic_key(c, p, out) == 0)
    goto found;
  if (c->howD[dn] == HOW_CHASSIS && *lb) {
    fl_id asic;
    uint32_t num;
    if (fl_fabric_chassis_panel_port(c->B, fl_fabric_node_chassis(c->B, bn), lb,
                                     &asic, &num) == FL_OK) {
      *out = mkkey(asic, num);
      goto found;
    }
  }
  if (!*lb && c->howD[dn] == HOW_NIC)
    lb = fl_fabric_node_device(c->D, dn); /* the NIC is the host's port */
  char panel[FL_ALIAS_MAX];
  if (!*lb && c->howD[dn] == HOW_IN_CHASSIS) {
    /* the as-built names the box's ports: the ASIC port's panel name, or
     * (a spine ASIC port cabled out of the box) one no box port has */
    if (!fl_fabric_port_panel_name(c->D, p, panel, sizeof panel))
      snprintf(panel, sizeof panel, "%s port %u", fl_fabric_node_name(c->D, dn),
               fl_fabric_port_num(c->D, p));
    lb = panel;
  }
  if (!*lb && c->b_labels[bn]) {
    /* an unlabelled design port N on a switch whose as-built ports are
     * labelled: the one labelled N, or 1/N (`Ethernet1/31` is port 31) */
    snprintf(nbuf, sizeof nbuf, "%u", fl_fabric_port_num(c->D, p));
    char alt[FL_ALIAS_MAX], key[FL_ALIAS_MAX + 4];
    size_t k = node_key(key, sizeof key, bn, nbuf);
    uint32_t bp = fl_strmap_get(&c->blabel, key, k);
    if (bp == FL_MAP_ABSENT && fl_alias_port_alt(nbuf, alt, sizeof alt))
      bp = fl_strmap_get(&c->blabel, key, node_key(key, sizeof key, bn, alt));
    if (bp != FL_MAP_ABSENT) {
      *out = mkkey(bn, fl_fabric_port_num(c->B, bp));
      goto found;
    }
  }
  if (*lb && c->b_labels[bn]) {
    char canon[FL_ALIAS_MAX], alt[FL_ALIAS_MAX], key[FL_ALIAS_MAX + 4];
    fl_alias_port(lb, strlen(lb), canon, sizeof canon);
    size_t k = node_key(key, sizeof key, bn, canon);
    uint32_t bp = fl_strmap_get(&c->blabel, key, k);
    if (bp == FL_MAP_ABSENT && fl_alias_port_alt(canon, alt, sizeof alt)) {
      size_t k2 = node_key(key, sizeof key, bn, alt);
      bp = fl_strmap_get(&c->blabel, key, k2);
      node_key(key, sizeof key, bn, canon);
    }
    if (bp != FL_MAP_ABSENT) {
      *out = mkkey(bn, fl_fabric_port_num(c->B, bp));
    } else {
      uint32_t v = fl_strmap_put(&c->vlabel, key, k, (uint32_t)c->n_v);
      if (v == FL_MAP_ABSENT)
        return -1;
      if (v == c->n_v) {
        if (c->n_v == c->cap_v) {
          size_t nc = c->cap_v ? c->cap_v * 2 : 16;
          char **nv = realloc(c->vnames, nc * sizeof *nv);
          if (!nv)
            return -1;
          c->vnames = nv;
          c->cap_v = nc;
        }
        c->vnames[c->n_v++] = xstrdup(c, lb);
      }
      *out = mkkey(bn, VIRT | v);
    }
  } else {
    *out = mkkey(bn, fl_fabric_port_num(c->D, p));
  }
found:
  if (fl_u64map_put(&c->key_dport, *out, p) == FL_MAP_ABSENT)
    return -1;
  return 0;
}

static int add_edge(dctx *c, uint64_t a, uint64_t b, fl_id link, int side) {
  if (c->n_e == c->cap_e) {
    size_t nc = c->cap_e ? c->cap_e * 2 : 1024;
    edge *ne = realloc(c->e, nc * sizeof *ne);
    if (!ne)
      return -1;
    c->e = ne;
    c->cap_e = nc;
  }
  uint32_t id = (uint32_t)c->n_e++;
  edge *e = &c->e[id];
  e->k[0] = a;
  e->k[1] = b;
  e->link = link;
  e->state = E_OPEN;
  e->side = (uint8_t)side;
  fl_u64map *head = side ? &c->headB : &c->headD;
  for (int end = 0; end < 2; end++) {
    e->next[end] = NIL;
    if (end == 1 && a == b)
      break;
    uint32_t h = fl_u64map_get(head, e->k[end]);
    if (h != FL_MAP_ABSENT)
      e->next[end] = h;
    if (fl_u64map_set(head, e->k[end], id) != 0)
      return -1;
  }
  return 0;
}

/* Iterate the edges of one side at endpoint @k. */
static uint32_t first_at(const dctx *c, int side, uint64_t k) {
  uint32_t h = fl_u64map_get(side ? &c->headB : &c->headD, k);
  return h == FL_MAP_ABSENT ? NIL : h;
}
static uint32_t next_at(const dctx *c, uint32_t id, uint64_t k) {
  const edge *e = &c->e[id];
  return e->k[0] == k ? e->next[0] : e->next[1];
}
static uint64_t other(const edge *e, uint64_t k) {
  return e->k[0] == k ? e->k[1] : e->k[0];
}

/* The open edge of @side at @k other than @skip, or NIL. */
static uint32_t open_at(const dctx *c, int side, uint64_t k, uint32_t skip) {
  for (uint32_t id = first_at(c, side, k); id != NIL; id = next_at(c, id, k))
    if (c->e[id].state == E_OPEN && id != skip)
      return id;
  return NIL;
}

static int build_edges(dctx *c) {
  const fl_fabric *D = c->D, *B = c->B;
  uint32_t ld = fl_fabric_link_count(D), lb = fl_fabric_link_count(B);
  for (fl_id l = 0; l < ld; l++) {
    fl_id pa = fl_fabric_link_port(D, l, 0), pb = fl_fabric_link_port(D, l, 1);
    fl_id na = fl_fabric_port_node(D, pa), nb = fl_fabric_port_node(D, pb);
    if (fl_fabric_attr(D, FL_ENT_LINK, l, "plan-min")) {
      uint32_t *np = realloc(c->planD, (c->n_plan + 1) * sizeof *np);
      if (!np)
        return -1;
      c->planD = np;
      c->planD[c->n_plan++] = l;
      continue;
    }
    if (c->howD[na] == HOW_IN_CHASSIS && fl_fabric_link_internal(D, l))
      continue; /* inside a chassis the as-built names as one switch */
    c->st->cables_design++;
    if (c->mD[na] == FL_NONE || c->mD[nb] == FL_NONE)
      continue;
    uint64_t ka, kb;
    if (dkey(c, pa, c->mD[na], &ka) != 0 || dkey(c, pb, c->mD[nb], &kb) != 0 ||
        add_edge(c, ka, kb, l, 0) != 0)
      return -1;
  }
  c->n_de = c->n_e;
  for (fl_id l = 0; l < lb; l++) {
    fl_id pa = fl_fabric_link_port(B, l, 0), pb = fl_fabric_link_port(B, l, 1);
    fl_id na = fl_fabric_port_node(B, pa), nb = fl_fabric_port_node(B, pb);
    if (fl_fabric_attr(B, FL_ENT_LINK, l, "plan-min")) {
      /* a constraint, not a cable: only another constraint can match it */
      uint32_t *np = realloc(c->planB, (c->n_planB + 1) * sizeof *np);
      if (!np)
        return -1;
      c->planB = np;
      c->planB[c->n_planB++] = l;
      continue;
    }
    if (c->mB[na] != FL_NONE && c->howD[c->mB[na]] == HOW_CHASSIS &&
        fl_fabric_link_internal(B, l))
      continue; /* inside a chassis the design names as one switch */
    c->st->cables_built++;
    if (c->mB[na] == FL_NONE || c->mB[nb] == FL_NONE)
      continue;
    if (add_edge(c, mkkey(na, fl_fabric_port_num(B, pa)),
                 mkkey(nb, fl_fabric_port_num(B, pb)), l, 1) != 0)
      return -1;
  }
  return 0;
}

/* Cables folded into node findings: per unmatched node, its cables. */
static int count_folded(dctx *c) {
  /* computed before node matching reports, from a dry node match: the
   * counts only need "cables with an end on the node" */
  const fl_fabric *D = c->D, *B = c->B;
  c->cables_of_D =
      calloc((size_t)fl_fabric_node_count(D) + 1, sizeof(uint32_t));
  c->cables_of_B =
      calloc((size_t)fl_fabric_node_count(B) + 1, sizeof(uint32_t));
  if (!c->cables_of_D || !c->cables_of_B)
    return -1;
  for (int side = 0; side < 2; side++) {
    const fl_fabric *F = side ? B : D;
    uint32_t *cnt = side ? c->cables_of_B : c->cables_of_D;
    uint32_t nl = fl_fabric_link_count(F);
    for (fl_id l = 0; l < nl; l++) {
      fl_id na = fl_fabric_port_node(F, fl_fabric_link_port(F, l, 0));
      fl_id nb = fl_fabric_port_node(F, fl_fabric_link_port(F, l, 1));
      cnt[na]++;
      if (nb != na)
        cnt[nb]++;
    }
  }
  return 0;
}

/* ---- 3. classification ---------------------------------------------- */

static void link_rate(const fl_fabric *f, fl_id l, uint32_t *w, uint32_t *s) {
  uint32_t w1 = fl_fabric_link_width(f, l), w2 = fl_fabric_link_width_b(f, l);
  uint32_t s1 = fl_fabric_link_speed(f, l), s2 = fl_fabric_link_speed_b(f, l);
  *w = w1 && w2 && w2 < w1 ? w2 : (w1 ? w1 : w2);
  *s = s1 && s2 && fl_speed_lane_gbps(s2) < fl_speed_lane_gbps(s1)
           ? s2
           : (s1 ? s1 : s2);
}

static void rate_str(uint32_t w, uint32_t s, char *buf, size_t size) {
  if (w && s && s < FL_SPEED_ETH_1G)
    snprintf(buf, size, "%ux%s", w, fl_speed_name(s));
  else if (s)
    snprintf(buf, size, "%s", fl_speed_name(s));
  else if (w)
    snprintf(buf, size, "%ux", w);
  else
    snprintf(buf, size, "?");
}

static void check_rate(dctx *c, const edge *de, const edge *be) {
  uint32_t wd, sd, wb, sb;
  link_rate(c->D, de->link, &wd, &sd);
  link_rate(c->B, be->link, &wb, &sb);
  int w_low = wd && wb && wb < wd;
  int s_low = sd && sb && fl_speed_lane_gbps(sb) < fl_speed_lane_gbps(sd);
  if (!w_low && !s_low)
    return;
  char rd[32], rb[32];
  rate_str(wd, sd, rd, sizeof rd);
  rate_str(wb, sb, rb, sizeof rb);
  char *a = ep_str(c, de->k[0]), *b = ep_str(c, de->k[1]);
  fnd f = {.rule = "diff.different",
           .sev = FL_SEV_WARNING,
           .loc_fab = c->D,
           .loc_ent = FL_ENT_LINK,
           .loc_id = de->link,
           .eps = {de->k[0], de->k[1]},
           .n_eps = 2};
  f.ev = json_pack("{s:s,s:o,s:s,s:s}", "attribute",
                   w_low && s_low ? "width,speed"
                   : w_low        ? "width"
                                  : "speed",
                   "cable", cable_json(c, de->k[0], de->k[1]), "design", rd,
                   "as_built", rb);
  /* the fix: the planned width and/or speed */
  char *how = xprintf(c,
                      "make the cable run at %s as planned (reseat, then "
                      "replace the cable or transceiver)",
                      rd);
  f.fix = how ? fl_fix_new(how, 2) : NULL;
  free(how);
  for (int k = 0; f.fix && k < 2; k++) {
    if (!(k == 0 ? w_low : s_low))
      continue;
    fl_fix_change_rec *ch = &f.fix->v[f.fix->n++];
    ch->kind = k == 0 ? FL_FIX_SET_WIDTH : FL_FIX_SET_SPEED;
    fix_end(c, de->k[0], &ch->cable[0]);
    fix_end(c, de->k[1], &ch->cable[1]);
    ch->from_value =
        k == 0 ? xprintf(c, "%ux", wb) : xstrdup(c, fl_speed_name(sb));
    ch->value = k == 0 ? xprintf(c, "%ux", wd) : xstrdup(c, fl_speed_name(sd));
  }
  if (!f.fix || fl_fix_finish(f.fix) != 0)
    c->nomem = 1;
  emit(c, &f,
       xprintf(c,
               "cable %s - %s runs at %s, planned %s (%s below plan: "
               "reseat or replace the cable)",
               a, b, rb, rd,
               w_low && s_low ? "width and speed"
               : w_low        ? "width"
                              : "speed"));
  wo_add(c, "replace", "diff.different", de->k[0], de->k[1], 1, 0, 0, de->link,
         "reseat, then replace if still below plan");
  free(a);
  free(b);
}

static int same_pair(const edge *x, const edge *y) {
  return (x->k[0] == y->k[0] && x->k[1] == y->k[1]) ||
         (x->k[0] == y->k[1] && x->k[1] == y->k[0]);
}

static void report_duplicate(dctx *c, const edge *e, int side) {
  char *a = ep_str(c, e->k[0]), *b = ep_str(c, e->k[1]);
  fnd f = {.rule = "diff.duplicate",
           .sev = FL_SEV_ERROR,
           .loc_fab = side ? c->B : c->D,
           .loc_ent = FL_ENT_LINK,
           .loc_id = e->link,
           .eps = {e->k[0], e->k[1]},
           .n_eps = 2};
  f.ev = json_pack("{s:s,s:o}", "side", side ? "as-built" : "design", "cable",
                   cable_json(c, e->k[0], e->k[1]));
  emit(c, &f,
       xprintf(c, "the %s lists cable %s - %s more than once%s",
               side ? "as-built input" : "design", a, b,
               side ? " (two cables on the same ports, or a stale or "
                      "merged capture)"
                    : ""));
  if (side)
    wo_add(c, "remove", "diff.duplicate", e->k[0], e->k[1], 1, 0, 0, FL_NONE,
           "extra cable on the same two ports");
  free(a);
  free(b);
}

static void exact(dctx *c) {
  for (uint32_t i = 0; i < c->n_de; i++) {
    edge *de = &c->e[i];
    /* a duplicate of an earlier design edge */
    for (uint32_t j = first_at(c, 0, de->k[0]); j != NIL;
         j = next_at(c, j, de->k[0]))
      if (j < i && same_pair(&c->e[j], de)) {
        de->state = E_DONE;
        report_duplicate(c, de, 0);
        break;
      }
    if (de->state != E_OPEN)
      continue;
    for (uint32_t j = first_at(c, 1, de->k[0]); j != NIL;
         j = next_at(c, j, de->k[0])) {
      edge *be = &c->e[j];
      if (be->state == E_OPEN && other(be, de->k[0]) == de->k[1]) {
        be->state = de->state = E_DONE;
        c->st->cables_ok++;
        check_rate(c, de, be);
        break;
      }
    }
  }
  /* built duplicates: an open built edge equal to a consumed one */
  for (uint32_t j = (uint32_t)c->n_de; j < c->n_e; j++) {
    edge *be = &c->e[j];
    if (be->state != E_OPEN)
      continue;
    for (uint32_t k = first_at(c, 1, be->k[0]); k != NIL;
         k = next_at(c, k, be->k[0]))
      if (k != j && same_pair(&c->e[k], be) &&
          (c->e[k].state == E_DONE || k < j)) {
        be->state = E_DONE;
        report_duplicate(c, be, 1);
        break;
      }
  }
}

/* A design port with two different planned cables (not one cable listed
 * twice): no work order can satisfy both, so say so once per port and take
 * the open cables there (and what is built at their other ends) out of the
 * later steps rather than suggest moving a cable onto an occupied port. */
static void double_booked(dctx *c) {
  for (uint32_t i = 0; i < c->n_de; i++) {
    for (int end = 0; end < 2; end++) {
      uint64_t k = c->e[i].k[end];
      /* report at the first design edge of the port only */
      uint32_t first = NIL, n = 0, n_open = 0;
      for (uint32_t j = first_at(c, 0, k); j != NIL; j = next_at(c, j, k)) {
        int dup = 0;
        for (uint32_t m = first_at(c, 0, k); m != NIL; m = next_at(c, m, k))
          dup |= m < j && same_pair(&c->e[m], &c->e[j]);
        if (dup)
          continue;
        if (first == NIL || j < first)
          first = j;
        n++;
        n_open += c->e[j].state == E_OPEN;
      }
      if (n < 2 || !n_open || first != i)
        continue;
      json_t *cables = json_array();
      size_t len = 0;
      char *list = NULL;
      for (uint32_t j = first_at(c, 0, k); j != NIL; j = next_at(c, j, k)) {
        edge *de = &c->e[j];
        uint64_t o = other(de, k);
        char *so = ep_str(c, o);
        char *nl = xprintf(c, "%s%s%s", list ? list : "", list ? ", " : "",
                           so ? so : "");
        free(list);
        free(so);
        list = nl;
        len++;
        json_array_append_new(cables, cable_json(c, k, o));
        if (de->state != E_OPEN)
          continue;
        de->state = E_DONE;
        /* what is built at the other end is explained by the plan error */
        for (uint32_t b = first_at(c, 1, o); b != NIL; b = next_at(c, b, o))
          if (c->e[b].state == E_OPEN && other(&c->e[b], o) != k)
            c->e[b].state = E_DONE;
      }
      char *sk = ep_str(c, k);
      fnd f = {.rule = "diff.duplicate",
               .sev = FL_SEV_ERROR,
               .loc_fab = c->D,
               .loc_ent = FL_ENT_LINK,
               .loc_id = c->e[i].link,
               .eps = {k},
               .n_eps = 1};
      f.ev = json_pack("{s:s,s:o}", "side", "design", "cables", cables);
      emit(c, &f,
           xprintf(c,
                   "the design puts %zu cables on %s (to %s): a port takes "
                   "one cable; fix the plan (no move is suggested for them)",
                   len, sk, list ? list : ""));
      char *d =
          xprintf(c, "the plan has %zu cables on this port: fix the plan", len);
      wo_add(c, "check", "diff.duplicate", k, 0, 0, 0, 0, c->e[i].link, d);
      free(d);
      free(sk);
      free(list);
    }
  }
}

/* Cisco plan constraints: count open built cables between the two nodes on
 * the allowed port sets. */
static int in_set(dctx *c, uint64_t k, const char *exp) {
  if (!exp)
    return 1;
  fl_id bp = key_bport(c, k);
  char canon[FL_ALIAS_MAX], alt[FL_ALIAS_MAX];
  const char *lb = bp != FL_NONE ? fl_fabric_port_label(c->B, bp) : "";
  if (*lb)
    fl_alias_port(lb, strlen(lb), canon, sizeof canon);
  else
    snprintf(canon, sizeof canon, "%u", key_port(k));
  size_t an = fl_alias_port_alt(canon, alt, sizeof alt);
  for (const char *p = exp; *p; p += strlen(p) + 1)
    if (strcmp(p, canon) == 0 || (an && strcmp(p, alt) == 0))
      return 1;
  return 0;
}

/* Two expanded port sets (NUL-separated lists; NULL = any) are the same
 * set. */
static int same_set(const char *x, const char *y) {
  if (!x || !y)
    return !x && !y;
  size_t nx = 0, ny = 0;
  for (const char *p = x; *p; p += strlen(p) + 1)
    nx++;
  for (const char *p = y; *p; p += strlen(p) + 1)
    ny++;
  if (nx != ny)
    return 0;
  for (const char *p = x; *p; p += strlen(p) + 1) {
    int found = 0;
    for (const char *q = y; *q && !found; q += strlen(q) + 1)
      found = strcmp(p, q) == 0;
    if (!found)
      return 0;
  }
  return 1;
}

static int same_count(const char *x, const char *y) {
  if (!x || !y)
    return !x && !y;
  return atol(x) == atol(y);
}

/* Expands port set attribute @key of plan link @l of @fab into a new
 * buffer sized for it (fl_plan_ports_size) in *@out; an absent set (any
 * port) gives NULL. Returns 0, or -1 after recording why (out of memory, or
 * a malformed set: an input error naming the link's file and line), so that
 * no comparison is ever skipped silently. */
static int expand_set(dctx *c, const fl_fabric *fab, fl_id l, const char *key,
                      char **out) {
  const char *set = fl_fabric_attr(fab, FL_ENT_LINK, l, key);
  const char *why = "";
  *out = NULL;
  if (!set)
    return 0;
  long size = fl_plan_ports_size(set, &why);
  if (size > 0 && !(*out = malloc((size_t)size))) {
    c->nomem = 1;
    return -1;
  }
  if (size > 0 && fl_plan_ports_expand(set, *out, (size_t)size) > 0)
    return 0;
  free(*out);
  *out = NULL;
  const char *file = NULL;
  uint32_t line = 0, col = 0;
  fl_fabric_provenance(fab, FL_ENT_LINK, l, &file, &line, &col);
  fl_error_set(c->err, FL_EPARSE, file, line, col,
               "plan port set %s='%s' cannot be compared: %s", key, set,
               size > 0 ? "it does not expand" : why);
  c->failed = 1;
  return -1;
}

/* The open as-built constraint that is the same as design constraint @l
 * (between B nodes @ba, @bb on expanded sets @ea / @eb, NULL = any), or
 * SIZE_MAX. When the as-built input is itself a plan, its constraints are
 * not cables: the design's constraint is met by the same constraint. */
static size_t same_constraint(dctx *c, fl_id l, fl_id ba, fl_id bb,
                              const char *ea, const char *eb) {
  const fl_fabric *D = c->D, *B = c->B;
  for (size_t i = 0; i < c->n_planB; i++) {
    if (c->planB_used[i])
      continue;
    fl_id m = c->planB[i];
    fl_id xa = fl_fabric_port_node(B, fl_fabric_link_port(B, m, 0));
    fl_id xb = fl_fabric_port_node(B, fl_fabric_link_port(B, m, 1));
    int fwd = xa == ba && xb == bb, rev = xa == bb && xb == ba;
    if (!fwd && !rev)
      continue;
    if (!same_count(fl_fabric_attr(D, FL_ENT_LINK, l, "plan-min"),
                    fl_fabric_attr(B, FL_ENT_LINK, m, "plan-min")) ||
        !same_count(fl_fabric_attr(D, FL_ENT_LINK, l, "plan-max"),
                    fl_fabric_attr(B, FL_ENT_LINK, m, "plan-max")))
      continue;
    char *pa = NULL, *pb = NULL;
    if (expand_set(c, B, m, "plan-a-ports", &pa) != 0 ||
        expand_set(c, B, m, "plan-b-ports", &pb) != 0) {
      free(pa);
      return SIZE_MAX;
    }
    int same = (fwd && same_set(ea, pa) && same_set(eb, pb)) ||
               (rev && same_set(ea, pb) && same_set(eb, pa));
    free(pa);
    free(pb);
    if (same)
      return i;
  }
  return SIZE_MAX;
}

/* As-built constraints no design constraint matched. */
static void plans_left(dctx *c) {
  const fl_fabric *B = c->B;
  for (size_t i = 0; i < c->n_planB; i++) {
    if (c->planB_used[i])
      continue;
    fl_id m = c->planB[i];
    fl_id xa = fl_fabric_port_node(B, fl_fabric_link_port(B, m, 0));
    fl_id xb = fl_fabric_port_node(B, fl_fabric_link_port(B, m, 1));
    if (c->mB[xa] == FL_NONE || c->mB[xb] == FL_NONE)
      continue; /* folded into the node finding */
    const char *an = fl_fabric_node_name(B, xa),
               *bn = fl_fabric_node_name(B, xb);
    const char *sa = fl_fabric_attr(B, FL_ENT_LINK, m, "plan-a-ports");
    const char *sb = fl_fabric_attr(B, FL_ENT_LINK, m, "plan-b-ports");
    const char *mn = fl_fabric_attr(B, FL_ENT_LINK, m, "plan-min");
    const char *mx = fl_fabric_attr(B, FL_ENT_LINK, m, "plan-max");
    fnd f = {.rule = "diff.unexpected",
             .sev = FL_SEV_ERROR,
             .loc_fab = B,
             .loc_ent = FL_ENT_LINK,
             .loc_id = m,
             .extra_nodes = {an, bn},
             .n_extra = 2};
    f.ev = json_pack("{s:s,s:s,s:s,s:s,s:s,s:s}", "min", mn ? mn : "", "max",
                     mx ? mx : "", "a", an, "b", bn, "a_ports", sa ? sa : "any",
                     "b_ports", sb ? sb : "any");
    emit(c, &f,
         xprintf(c,
                 "the as-built plan asks for %s..%s cable(s) between \"%s\" "
                 "(%s) and \"%s\" (%s); the design has no such constraint",
                 mn ? mn : "1", mx ? mx : "any", an, sa ? sa : "any port", bn,
                 sb ? sb : "any port"));
  }
}

/* Design constraint @l between D nodes @na, @nb: at least @min (at most
 * @max, -1 = no limit) cables between port sets @sa / @sb as written, @ea /
 * @eb expanded (NULL = any port). */
static void plan_one(dctx *c, fl_id l, fl_id na, fl_id nb, long min, long max,
                     const char *sa, const char *sb, const char *ea,
                     const char *eb) {
  const fl_fabric *D = c->D;
  fl_id ba = c->mD[na], bb = c->mD[nb];
  size_t same = same_constraint(c, l, ba, bb, ea, eb);
  if (c->failed)
    return;
  if (same != SIZE_MAX) {
    c->planB_used[same] = 1;
    c->st->cables_ok++;
    return;
  }
  long got = 0;
  for (uint32_t j = (uint32_t)c->n_de; j < c->n_e; j++) {
    edge *be = &c->e[j];
    if (be->state != E_OPEN || (max >= 0 && got >= max))
      continue;
    for (int o = 0; o < 2; o++) {
      uint64_t x = be->k[o], y = be->k[1 - o];
      if (key_node(x) == ba && key_node(y) == bb && in_set(c, x, ea) &&
          in_set(c, y, eb)) {
        be->state = E_DONE;
        got++;
        break;
      }
    }
  }
  if (got >= min)
    return;
  const char *an = fl_fabric_node_name(D, na), *bn = fl_fabric_node_name(D, nb);
  fnd f = {.rule = "diff.missing",
           .sev = FL_SEV_ERROR,
           .loc_fab = D,
           .loc_ent = FL_ENT_LINK,
           .loc_id = l,
           .extra_nodes = {an, bn},
           .n_extra = 2};
  f.ev = json_pack("{s:i,s:i,s:s,s:s,s:s,s:s}", "min", (json_int_t)min, "found",
                   (json_int_t)got, "a", an, "b", bn, "a_ports",
                   sa ? sa : "any", "b_ports", sb ? sb : "any");
  emit(c, &f,
       xprintf(c,
               "the plan asks for at least %ld cable(s) between "
               "\"%s\" (%s) and \"%s\" (%s); %ld found",
               min, an, sa ? sa : "any port", bn, sb ? sb : "any port", got));
  if (c->wo) {
    char *d = xprintf(c, "add %ld cable(s): %s ports %s to %s ports %s",
                      min - got, an, sa ? sa : "any", bn, sb ? sb : "any");
    wo_node(c, "add", "diff.missing", an,
            fl_fabric_attr(D, FL_ENT_NODE, na, "rack"), d);
    free(d);
  }
}

static void plans(dctx *c) {
  if (c->n_planB) {
    c->planB_used = calloc(c->n_planB, 1);
    if (!c->planB_used) {
      c->nomem = 1;
      return;
    }
  }
  for (size_t i = 0; i < c->n_plan && !c->failed && !c->nomem; i++) {
    fl_id l = c->planD[i];
    const fl_fabric *D = c->D;
    fl_id na = fl_fabric_port_node(D, fl_fabric_link_port(D, l, 0));
    fl_id nb = fl_fabric_port_node(D, fl_fabric_link_port(D, l, 1));
    if (c->mD[na] == FL_NONE || c->mD[nb] == FL_NONE)
      continue; /* folded into the node finding */
    long min = atol(fl_fabric_attr(D, FL_ENT_LINK, l, "plan-min"));
    const char *mx = fl_fabric_attr(D, FL_ENT_LINK, l, "plan-max");
    long max = mx ? atol(mx) : -1;
    const char *sa = fl_fabric_attr(D, FL_ENT_LINK, l, "plan-a-ports");
    const char *sb = fl_fabric_attr(D, FL_ENT_LINK, l, "plan-b-ports");
    char *ea = NULL, *eb = NULL;
    if (expand_set(c, D, l, "plan-a-ports", &ea) == 0 &&
        expand_set(c, D, l, "plan-b-ports", &eb) == 0)
      plan_one(c, l, na, nb, min, max, sa, sb, ea, eb);
    free(ea);
    free(eb);
  }
  if (!c->failed && !c->nomem)
    plans_left(c);
}

/* Which pair of ends to swap: same node, else same system, else @alt. */
static int prefer_pair(dctx *c, uint64_t x, uint64_t y) {
  if (key_node(x) == key_node(y))
    return 2;
  const char *sx = fl_fabric_node_system(c->B, key_node(x));
  const char *sy = fl_fabric_node_system(c->B, key_node(y));
  return *sx && strcmp(sx, sy) == 0;
}

static void swaps(dctx *c) {
  for (uint32_t i = 0; i < c->n_de; i++) {
    edge *d1 = &c->e[i];
    for (int o = 0; o < 2 && d1->state == E_OPEN; o++) {
      uint64_t a = d1->k[o], b = d1->k[1 - o];
      for (uint32_t f1 = first_at(c, 1, a); f1 != NIL; f1 = next_at(c, f1, a)) {
        if (c->e[f1].state != E_OPEN)
          continue;
        uint64_t d = other(&c->e[f1], a);
        if (d == b || d == a)
          continue;
        uint32_t d2 = open_at(c, 0, d, i);
        if (d2 == NIL)
          continue;
        uint64_t cc = other(&c->e[d2], d);
        if (cc == a || cc == b)
          continue;
        uint32_t f2 = NIL;
        for (uint32_t j = first_at(c, 1, cc); j != NIL; j = next_at(c, j, cc))
          if (c->e[j].state == E_OPEN && j != f1 && other(&c->e[j], cc) == b)
            f2 = j;
        if (f2 == NIL)
          continue;
        /* planned a-b, c-d; built a-d, c-b */
        d1->state = c->e[d2].state = c->e[f1].state = c->e[f2].state = E_DONE;
        uint64_t x = a, y = cc, xto = b, yto = d; /* swap at a and c */
        if (prefer_pair(c, b, d) > prefer_pair(c, a, cc)) {
          x = b, y = d, xto = a, yto = cc;
        }
        /* after the swap the end now at x... the cable ends at x and y trade
         * places */
        uint64_t ends[4] = {a, b, cc, d};
        qualify(c, ends, 4);
        char *sa = ep_str(c, a), *sb = ep_str(c, b), *sc = ep_str(c, cc),
             *sd = ep_str(c, d), *sx = ep_str(c, x), *sy = ep_str(c, y);
        fnd f = {.rule = "diff.swapped",
                 .sev = FL_SEV_ERROR,
                 .loc_fab = c->D,
                 .loc_ent = FL_ENT_LINK,
                 .loc_id = d1->link,
                 .eps = {a, b, cc, d},
                 .n_eps = 4};
        f.ev = json_pack("{s:[o,o],s:[o,o],s:[o,o]}", "planned",
                         cable_json(c, a, b), cable_json(c, cc, d), "as_built",
                         cable_json(c, a, d), cable_json(c, cc, b), "swap",
                         ep_json(c, x), ep_json(c, y));
        /* built a-d and c-b: the cable ends at x and y trade places */
        char *how = xprintf(c, "swap the two cable ends at %s and %s", sx, sy);
        f.fix = how ? fl_fix_new(how, 2) : NULL;
        if (f.fix) {
          uint64_t xc = x == a ? d : cc, yc = y == cc ? b : a; /* far ends */
          fix_move(c, f.fix, x, xc, x, y);
          fix_move(c, f.fix, y, yc, y, x);
          if (fl_fix_finish(f.fix) != 0)
            c->nomem = 1;
        } else {
          c->nomem = 1;
        }
        free(how);
        emit(c, &f,
             xprintf(c,
                     "cables crossed: planned %s - %s and %s - %s, built "
                     "%s - %s and %s - %s; fix: swap the two cable ends at "
                     "%s and %s",
                     sa, sb, sc, sd, sa, sd, sc, sb, sx, sy));
        (void)xto;
        (void)yto;
        wo_add(c, "swap", "diff.swapped", x, y, 1, 0, 0, d1->link,
               "exchange the two cable ends at these ports");
        free(sa), free(sb), free(sc), free(sd), free(sx), free(sy);
        c->qual = 0;
        break;
      }
    }
  }
}

static void misconnected(dctx *c) {
  for (uint32_t i = 0; i < c->n_de; i++) {
    edge *d1 = &c->e[i];
    if (d1->state != E_OPEN)
      continue;
    int best = -1, best_o = 0;
    uint32_t best_f = NIL;
    for (int o = 0; o < 2; o++) {
      uint64_t a = d1->k[o], b = d1->k[1 - o];
      for (uint32_t f = first_at(c, 1, a); f != NIL; f = next_at(c, f, a)) {
        if (c->e[f].state != E_OPEN)
          continue;
        uint64_t x = other(&c->e[f], a);
        int score =
            (open_at(c, 0, x, NIL) == NIL) + (open_at(c, 1, b, f) == NIL);
        if (score > best) {
          best = score;
          best_o = o;
          best_f = f;
        }
      }
    }
    if (best_f == NIL)
      continue;
    uint64_t a = d1->k[best_o], b = d1->k[1 - best_o];
    uint64_t x = other(&c->e[best_f], a);
    d1->state = c->e[best_f].state = E_DONE;
    uint64_t ends[3] = {a, b, x};
    qualify(c, ends, 3);
    char *sa = ep_str(c, a), *sb = ep_str(c, b), *sx = ep_str(c, x);
    fnd f = {.rule = "diff.misconnected",
             .sev = FL_SEV_ERROR,
             .loc_fab = c->D,
             .loc_ent = FL_ENT_LINK,
             .loc_id = d1->link,
             .eps = {a, b, x},
             .n_eps = 3};
    f.ev = json_pack("{s:o,s:o,s:o,s:o}", "planned", cable_json(c, a, b),
                     "as_built", cable_json(c, a, x), "move_from",
                     ep_json(c, x), "move_to", ep_json(c, b));
    char *how = xprintf(c, "move the cable end at %s to %s", sx, sb);
    f.fix = how ? fl_fix_new(how, 1) : NULL;
    free(how);
    if (f.fix) { /* the built cable a-x: its end x goes to b */
      fix_move(c, f.fix, a, x, x, b);
      if (fl_fix_finish(f.fix) != 0)
        c->nomem = 1;
    } else {
      c->nomem = 1;
    }
    emit(c, &f,
         xprintf(c,
                 "cable from %s lands on %s; the plan puts it on %s: "
                 "move that end from %s to %s",
                 sa, sx, sb, sx, sb));
    wo_add(c, "move", "diff.misconnected", a, b, 1, x, 1, d1->link,
           "move the cable end to the planned port");
    free(sa), free(sb), free(sx);
    c->qual = 0;
  }
}

static void leftovers(dctx *c) {
  for (uint32_t i = 0; i < c->n_e; i++) {
    edge *e = &c->e[i];
    if (e->state != E_OPEN)
      continue;
    e->state = E_DONE;
    qualify(c, e->k, 2);
    char *a = ep_str(c, e->k[0]), *b = ep_str(c, e->k[1]);
    int built = e->side == 1;
    fnd f = {.rule = built ? "diff.unexpected" : "diff.missing",
             .sev = FL_SEV_ERROR,
             .loc_fab = built ? c->B : c->D,
             .loc_ent = FL_ENT_LINK,
             .loc_id = e->link,
             .eps = {e->k[0], e->k[1]},
             .n_eps = 2};
    char ra[32], rb2[32] = "";
    uint32_t w, s;
    link_rate(built ? c->B : c->D, e->link, &w, &s);
    rate_str(w, s, ra, sizeof ra);
    /* what the free end of a missing cable meets instead */
    f.ev = json_pack("{s:o,s:s}", "cable", cable_json(c, e->k[0], e->k[1]),
                     "rate", ra);
    (void)rb2;
    if (built)
      emit(c, &f,
           xprintf(c,
                   "cable %s - %s is not in the plan: remove it or "
                   "add it to the plan",
                   a, b));
    else
      emit(c, &f, xprintf(c, "planned cable %s - %s is not there", a, b));
    wo_add(c, built ? "remove" : "add", f.rule, e->k[0], e->k[1], 1, 0, 0,
           built ? FL_NONE : e->link,
           built ? "cable not in the plan" : "planned cable not found");
    free(a), free(b);
    c->qual = 0;
  }
}

static void compare_lids(dctx *c) {
  uint32_t nd = fl_fabric_node_count(c->D);
  for (fl_id i = 0; i < nd; i++) {
    fl_id b = c->mD[i];
    if (b == FL_NONE)
      continue;
    fl_id p0 = fl_fabric_node_first_port(c->D, i);
    uint32_t np = fl_fabric_node_port_count(c->D, i);
    for (uint32_t k = 0; k < np; k++) {
      fl_id p = p0 + k;
      uint32_t num = fl_fabric_port_num(c->D, p);
      fl_id bp = fl_fabric_find_port(c->B, b, num);
      uint32_t ld = fl_fabric_port_lid(c->D, p);
      uint32_t lb = bp != FL_NONE ? fl_fabric_port_lid(c->B, bp) : 0;
      if (!ld || !lb || ld == lb)
        continue;
      uint64_t key = mkkey(b, num);
      fnd f = {.rule = "diff.different",
               .sev = FL_SEV_WARNING,
               .loc_fab = c->D,
               .loc_ent = FL_ENT_PORT,
               .loc_id = p,
               .eps = {key},
               .n_eps = 1};
      fl_u64map_put(&c->key_dport, key, p);
      f.ev = json_pack("{s:s,s:i,s:i}", "attribute", "lid", "design",
                       (json_int_t)ld, "as_built", (json_int_t)lb);
      char *s = ep_str(c, key);
      emit(c, &f, xprintf(c, "%s has LID %u, was %u", s, lb, ld));
      free(s);
    }
  }
}

int fl_diff(const fl_fabric *design, const fl_fabric *built,
            const fl_diff_opts *opts, fl_findings *fs, fl_work_order *wo,
            fl_diff_stats *stats, fl_error *err) {
  fl_diff_opts defaults = {0};
  fl_diff_stats st_local;
  memset(&st_local, 0, sizeof st_local);
  dctx c = {.D = design,
            .B = built,
            .o = opts ? opts : &defaults,
            .fs = fs,
            .wo = wo,
            .st = stats ? stats : &st_local,
            .err = err};
  memset(c.st, 0, sizeof *c.st);
  int ok = count_folded(&c) == 0 && index_built_labels(&c) == 0 &&
           match_nodes(&c) == 0 && build_edges(&c) == 0;
  if (ok) {
    exact(&c);
    double_booked(&c);
    plans(&c);
    swaps(&c);
    misconnected(&c);
    leftovers(&c);
    if (c.o->compare_lids)
      compare_lids(&c);
  }
  free(c.mD);
  free(c.mB);
  free(c.howD);
  free(c.b_labels);
  fl_strmap_free(&c.blabel);
  fl_strmap_free(&c.vlabel);
  for (size_t i = 0; i < c.n_v; i++)
    free(c.vnames[i]);
  free(c.vnames);
  fl_u64map_free(&c.key_dport);
  fl_u64map_free(&c.headD);
  fl_u64map_free(&c.headB);
  free(c.e);
  free(c.planD);
  free(c.planB);
  free(c.planB_used);
  free(c.cables_of_D);
  free(c.cables_of_B);
  fl_strmap_free(&c.sysdev);
  free(c.mapDB);
  free(c.mapBD);
  free(c.xplD);
  free(c.xplB);
  if (c.failed)
    return err ? err->code : FL_EPARSE;
  if (!ok || c.nomem)
    return fl_error_set(err, FL_ENOMEM, NULL, 0, 0, "out of memory in diff");
  return FL_OK;
}

/* ---- the finding kinds as rules ------------------------------------- */

/* The finding kinds of DESIGN.md section 7 (docs/rules/diff.md), sorted. */
static const fl_diff_rule DIFF_RULES[] = {
    {"diff.different",
     "a planned cable is built with another attribute "
     "(width/speed below plan, GUID, description)",
     "Both ends of the cable are where the plan puts them, but something "
     "else differs: the width or speed is below plan (1xHDR where 4xHDR is "
     "planned: reseat, then replace the cable; work order `replace`), or a "
     "node's GUID, description or kind differs (one finding per cause), or "
     "a LID (with --compare-lids). With --no-guid GUIDs are neither matched "
     "nor compared.",
     FL_SEV_WARNING},
    {"diff.duplicate", "the same two ports are joined twice",
     "The same two ports are joined twice on one side (a stale or merged "
     "capture, or a plan that lists a cable twice: work order `remove`), or "
     "a design port is given two different cables (double-booked: fix the "
     "plan; work order `check`).",
     FL_SEV_ERROR},
    {"diff.misconnected", "one end of a cable lands elsewhere than planned",
     "One end of a planned cable is plugged into another port than planned. "
     "The finding says where the end is and where it goes; the work order "
     "has a `move` row (keep a, take the end now at from to b).",
     FL_SEV_ERROR},
    {"diff.missing", "a planned cable was not found",
     "A planned cable is not in the as-built fabric (unplugged, dead, or "
     "never run), or a Cisco plan's \"at least N cables between A and B\" "
     "is not met. Work order `add`.",
     FL_SEV_ERROR},
    {"diff.missing-node", "a planned node was not found",
     "A planned node matches nothing as built (by GUID, name or system); "
     "the reason is given, and its cables are folded into this one finding "
     "(a powered-off host is one fault). Work order `check`: one row per "
     "planned cable of the node, with the far end's port and rack.",
     FL_SEV_ERROR},
    {"diff.swapped", "two cables are crossed",
     "Two cables are crossed: planned a-b and c-d, built a-d and c-b. One "
     "finding names the two cable ends to exchange (on one node or system "
     "when possible); the work order has one `swap` row.",
     FL_SEV_ERROR},
    {"diff.unexpected", "a cable was found that is not in the plan",
     "A cable exists as built that the plan does not have (or a constraint "
     "of an as-built plan the design lacks): remove it or add it to the "
     "plan. Work order `remove`.",
     FL_SEV_ERROR},
    {"diff.unexpected-node", "a node was found that is not in the plan",
     "A node exists as built that the plan does not have; its cables are "
     "folded into this finding (info for SHARP Aggregation Nodes). Work "
     "order `check`.",
     FL_SEV_ERROR},
};

const fl_diff_rule *fl_diff_rules(size_t *n) {
  *n = sizeof DIFF_RULES / sizeof *DIFF_RULES;
  return DIFF_RULES;
}

/* ---- work order ------------------------------------------------------- */

static int cmp_row(const void *x, const void *y) {
  const fl_wo_row *a = x, *b = y;
  const char *fa[] = {a->a_node, a->a_port,    a->action,    a->b_node,
                      a->b_port, a->from_node, a->from_port, a->detail};
  const char *fb[] = {b->a_node, b->a_port,    b->action,    b->b_node,
                      b->b_port, b->from_node, b->from_port, b->detail};
  for (size_t i = 0; i < sizeof fa / sizeof *fa; i++) {
    int r = strcmp(fa[i], fb[i]);
    if (r)
      return r;
  }
  return 0;
}

void fl_work_order_sort(fl_work_order *wo) {
  if (wo->n > 1)
    if (wo->n > 1)
      qsort(wo->v, wo->n, sizeof *wo->v, cmp_row);
}

int fl_work_order_csv(FILE *out, const fl_work_order *wo) {
  fputs("row,action,finding,a_node,a_port,a_rack,b_node,b_port,b_rack,"
        "from_node,from_port,cable,detail,fix,fingerprint\r\n",
        out);
  for (size_t i = 0; i < wo->n; i++) {
    const fl_wo_row *r = &wo->v[i];
    fprintf(out, "%zu,", i + 1);
    const char *f[] = {r->action,    r->finding,    r->a_node, r->a_port,
                       r->a_rack,    r->b_node,     r->b_port, r->b_rack,
                       r->from_node, r->from_port,  r->cable,  r->detail,
                       r->fix,       r->fingerprint};
    for (size_t k = 0; k < sizeof f / sizeof *f; k++) {
      fl_wr_csv_cell(out, f[k] ? f[k] : "");
      fputs(k + 1 == sizeof f / sizeof *f ? "\r\n" : ",", out);
    }
  }
  return ferror(out) ? -1 : 0;
}

void fl_work_order_free(fl_work_order *wo) {
  for (size_t i = 0; i < wo->n; i++) {
    fl_wo_row *r = &wo->v[i];
    free(r->action), free(r->finding), free(r->a_node), free(r->a_port);
    free(r->a_rack), free(r->b_node), free(r->b_port), free(r->b_rack);
    free(r->from_node), free(r->from_port), free(r->cable), free(r->detail);
    free(r->fix), free(r->fingerprint);
  }
  free(wo->v);
  memset(wo, 0, sizeof *wo);
}
