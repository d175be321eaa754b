/* SPDX-License-Identifier: MIT */
/*
 * core/diff/diff_keys.c — the vocabulary of the diff: endpoint keys, the
 * names and planes they print as, and the name indexes nodes are matched
 * by (diff/diff_impl.h).
 */
#define _GNU_SOURCE /* vasprintf */
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "diff/diff.h"
#include "diff/diff_impl.h"
#include "fabriclint/planes.h"
#include "io/loaders.h"
#include "io/write_common.h"
#include "model/alias.h"
#include "model/hashmap.h"
#include "util/natcmp.h"

/* ---- small helpers --------------------------------------------------- */

char *diff_xstrdup(dctx *c, const char *s) {
  char *d = strdup(s ? s : "");
  if (!d)
    c->nomem = 1;
  return d;
}

char *diff_xprintf(dctx *c, const char *fmt, ...) {
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

size_t diff_node_key(char *key, size_t size, fl_id node, const char *canon) {
  memcpy(key, &node, 4);
  size_t n = strlen(canon);
  if (n > size - 4)
    n = size - 4;
  memcpy(key + 4, canon, n);
  return n + 4;
}

uint64_t diff_mkkey(fl_id bnode, uint32_t port) {
  return (uint64_t)bnode << 32 | port;
}
fl_id diff_key_node(uint64_t k) {
  return (fl_id)(k >> 32);
}
uint32_t diff_key_port(uint64_t k) {
  return (uint32_t)k;
}

/* The design node a built node stands for (always matched for keys). */
fl_id diff_key_dnode(const dctx *c, uint64_t k) {
  return c->mB[diff_key_node(k)];
}

/* Node name users know: the design's (the node of the design port at @k
 * first: several per-NIC design nodes may share one as-built host). */
const char *diff_key_name(const dctx *c, uint64_t k) {
  fl_id dp = diff_key_dport(c, k);
  fl_id d =
      dp != FL_NONE ? fl_fabric_port_node(c->D, dp) : diff_key_dnode(c, k);
  if (d != FL_NONE && c->howD[d] == HOW_IN_CHASSIS)
    d = FL_NONE; /* an ASIC of the chassis: the box's name */
  return d != FL_NONE ? fl_fabric_node_name(c->D, d)
                      : fl_fabric_node_name(c->B, diff_key_node(k));
}

fl_id diff_key_bport(const dctx *c, uint64_t k) {
  if (diff_key_port(k) & VIRT)
    return FL_NONE;
  return fl_fabric_find_port(c->B, diff_key_node(k), diff_key_port(k));
}

fl_id diff_key_dport(const dctx *c, uint64_t k) {
  uint32_t p = fl_u64map_get(&c->key_dport, k);
  return p == FL_MAP_ABSENT ? FL_NONE : p;
}

/* Port as users write it: the design's label, else the built label, else
 * the number. Into @buf. */
const char *diff_key_port_str(const dctx *c, uint64_t k, char *buf,
                              size_t size) {
  fl_id dp = diff_key_dport(c, k), bp = diff_key_bport(c, k);
  const char *lab = dp != FL_NONE ? fl_fabric_port_label(c->D, dp) : "";
  if (!*lab && (diff_key_port(k) & VIRT))
    lab = c->vnames[diff_key_port(k) & ~VIRT];
  if (!*lab && bp != FL_NONE)
    lab = fl_fabric_port_label(c->B, bp);
  fl_id dn = c->mB[diff_key_node(k)];
  if (!*lab && !(diff_key_port(k) & VIRT) && dn != FL_NONE &&
      c->howD[dn] == HOW_CABLE) {
    /* an uncabled port of an IBNL-expanded ASIC: its front-panel name */
    fl_id p = fl_fabric_find_port(c->D, dn, diff_key_port(k));
    if (p != FL_NONE)
      lab = fl_fabric_port_label(c->D, p);
  }
  if (!*lab && bp != FL_NONE && c->mB[diff_key_node(k)] != FL_NONE &&
      c->howD[c->mB[diff_key_node(k)]] == HOW_CHASSIS &&
      fl_fabric_port_panel_name(c->B, bp, buf, size))
    return buf; /* a chassis port the design does not name: its panel name */
  if (*lab)
    snprintf(buf, size, "%s", lab);
  else
    snprintf(buf, size, "%u",
             dp != FL_NONE ? fl_fabric_port_num(c->D, dp) : diff_key_port(k));
  return buf;
}

uint32_t diff_key_port_num(const dctx *c, uint64_t k) {
  fl_id dp = diff_key_dport(c, k);
  if (dp != FL_NONE)
    return fl_fabric_port_num(c->D, dp);
  return diff_key_port(k) & VIRT ? 0 : diff_key_port(k);
}

/* Plane of node @n of side @side (0 design, 1 as built): 0 on a side that
 * is one plane against the other's several (c->oneD, c->oneB), else the
 * fabric's (FL_NONE: none). */
uint32_t diff_node_plane(const dctx *c, int side, fl_id n) {
  if (side ? c->oneB : c->oneD)
    return n == FL_NONE ? FL_NONE : 0;
  return fl_fabric_node_plane(side ? c->B : c->D, n);
}

/* Plane of port @p of side @side, as node_plane(). */
uint32_t diff_port_plane(const dctx *c, int side, fl_id p) {
  if (side ? c->oneB : c->oneD)
    return p == FL_NONE ? FL_NONE : 0;
  return fl_fabric_port_plane(side ? c->B : c->D, p);
}

/* Name of design plane @pl, or NULL (FL_NONE). A design that is one plane
 * against several as built says its tag, else the as-built plane's name. */
const char *diff_plane_name_d(const dctx *c, uint32_t pl) {
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
const char *diff_plane_name_b(const dctx *c, uint32_t pl) {
  if (pl == FL_NONE)
    return NULL;
  if (c->mapBD && pl < c->n_plB && c->mapBD[pl] != NIL)
    return diff_plane_name_d(c, c->mapBD[pl]);
  return c->oneB ? c->one_name : fl_fabric_plane_name(c->B, pl);
}

/* The plane of the switch or router at endpoint @k (as built), or NULL (a
 * CA: hosts are shared by the planes and their names are unique). */
static const char *ep_plane(const dctx *c, uint64_t k) {
  fl_id bn = diff_key_node(k);
  uint32_t kind = fl_fabric_node_kind(c->B, bn);
  if (kind != FL_NODE_SWITCH && kind != FL_NODE_ROUTER)
    return NULL;
  return diff_plane_name_b(c, diff_node_plane(c, 1, bn));
}

/* `"node" port 3` or `"node" swp3`; `"leaf01" port 3 of plane 2` when
 * c->qual (switch names repeat across planes and the finding spans
 * planes). */
char *diff_ep_str(dctx *c, uint64_t k) {
  char pb[FL_ALIAS_MAX];
  diff_key_port_str(c, k, pb, sizeof pb);
  int num = pb[0] >= '0' && pb[0] <= '9';
  const char *pl = c->qual ? ep_plane(c, k) : NULL;
  return diff_xprintf(c, "\"%s\" %s%s%s%s", diff_key_name(c, k),
                      num ? "port " : "", pb, pl ? " of plane " : "",
                      pl ? pl : "");
}

/* Plane of endpoint @k in the as-built's plane indexes: of its design port
 * when @design (mapped, planes_setup()), else of its as-built port; NIL
 * when unknown. */
static uint32_t ep_plane_ix(const dctx *c, uint64_t k, int design) {
  if (design) {
    fl_id dp = diff_key_dport(c, k);
    uint32_t pl = dp != FL_NONE ? diff_port_plane(c, 0, dp) : FL_NONE;
    return pl != FL_NONE && pl < c->n_plD ? c->mapDB[pl] : NIL;
  }
  fl_id bp = diff_key_bport(c, k);
  return bp != FL_NONE ? diff_port_plane(c, 1, bp)
                       : diff_node_plane(c, 1, diff_key_node(k));
}

/* Set c->qual for the finding about endpoints @eps[0..n): names repeat
 * across planes and the ends (planned and built) are in more than one. */
void diff_qualify(dctx *c, const uint64_t *eps, int n) {
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

const char *diff_dnode_attr(const dctx *c, uint64_t k, const char *name) {
  fl_id d = diff_key_dnode(c, k);
  const char *r =
      d != FL_NONE ? fl_fabric_attr(c->D, FL_ENT_NODE, d, name) : NULL;
  return r ? r : "";
}

const char *diff_rack_of(const dctx *c, uint64_t k) {
  return diff_dnode_attr(c, k, "rack");
}

/* ---- 1. nodes -------------------------------------------------------- */

size_t diff_canon_name(const fl_fabric *f, fl_id n, char *buf, size_t size) {
  const char *nm = fl_fabric_node_name(f, n);
  return fl_alias_node(nm, strlen(nm), buf, size);
}

size_t diff_full_name(const fl_fabric *f, fl_id n, char *buf, size_t size) {
  const char *nm = fl_fabric_node_name(f, n);
  return fl_alias_node_full(nm, strlen(nm), buf, size);
}

/* canonical name -> node, with NIL - 1 marking "ambiguous"; three indexes:
 * [0] full names (domain kept), [1] short names, [2] systems */

void diff_name_ix_free(name_ix *x) {
  for (int i = 0; i < 3; i++) {
    fl_strmap_free(&x->m[i]);
    free(x->v[i]);
  }
}

int diff_ix_put(name_ix *x, int which, const char *canon, size_t len,
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
uint32_t diff_ix_get(const name_ix *x, int which, const char *canon,
                     size_t len) {
  uint32_t slot = fl_strmap_get(&x->m[which], canon, len);
  return slot == FL_MAP_ABSENT ? NIL : x->v[which][slot];
}

int diff_index_names(const fl_fabric *f, name_ix *x) {
  uint32_t n = fl_fabric_node_count(f);
  for (int i = 0; i < 3; i++) {
    x->v[i] = malloc(((size_t)n + 1) * sizeof *x->v[i]);
    if (!x->v[i])
      return -1;
  }
  char canon[FL_ALIAS_MAX];
  for (fl_id i = 0; i < n; i++) {
    size_t len = diff_full_name(f, i, canon, sizeof canon);
    if (diff_ix_put(x, 0, canon, len, i) != 0)
      return -1;
    len = diff_canon_name(f, i, canon, sizeof canon);
    if (diff_ix_put(x, 1, canon, len, i) != 0)
      return -1;
    const char *sys = fl_fabric_node_system(f, i);
    if (*sys) {
      len = fl_alias_node(sys, strlen(sys), canon, sizeof canon);
      if (diff_ix_put(x, 2, canon, len, i) != 0)
        return -1;
    }
  }
  return 0;
}
