/* SPDX-License-Identifier: MIT */
/*
 * core/diff/diff_edges.c — step 2 of the diff: every cable as an edge
 * between two endpoints in the as-built port space.
 */
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

/* ---- 2. endpoints and edges ----------------------------------------- */

int diff_index_built_labels(dctx *c) {
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
    size_t k = diff_node_key(key, sizeof key, n, canon);
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
  if (c->howD[dn] == HOW_HOST && diff_host_nic_key(c, p, out) == 0)
    goto found;
  if (c->howD[dn] == HOW_CHASSIS && *lb) {
    fl_id asic;
    uint32_t num;
    if (fl_fabric_chassis_panel_port(c->B, fl_fabric_node_chassis(c->B, bn), lb,
                                     &asic, &num) == FL_OK) {
      *out = diff_mkkey(asic, num);
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
    size_t k = diff_node_key(key, sizeof key, bn, nbuf);
    uint32_t bp = fl_strmap_get(&c->blabel, key, k);
    if (bp == FL_MAP_ABSENT && fl_alias_port_alt(nbuf, alt, sizeof alt))
      bp = fl_strmap_get(&c->blabel, key,
                         diff_node_key(key, sizeof key, bn, alt));
    if (bp != FL_MAP_ABSENT) {
      *out = diff_mkkey(bn, fl_fabric_port_num(c->B, bp));
      goto found;
    }
  }
  if (*lb && c->b_labels[bn]) {
    char canon[FL_ALIAS_MAX], alt[FL_ALIAS_MAX], key[FL_ALIAS_MAX + 4];
    fl_alias_port(lb, strlen(lb), canon, sizeof canon);
    size_t k = diff_node_key(key, sizeof key, bn, canon);
    uint32_t bp = fl_strmap_get(&c->blabel, key, k);
    if (bp == FL_MAP_ABSENT && fl_alias_port_alt(canon, alt, sizeof alt)) {
      size_t k2 = diff_node_key(key, sizeof key, bn, alt);
      bp = fl_strmap_get(&c->blabel, key, k2);
      diff_node_key(key, sizeof key, bn, canon);
    }
    if (bp != FL_MAP_ABSENT) {
      *out = diff_mkkey(bn, fl_fabric_port_num(c->B, bp));
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
        c->vnames[c->n_v++] = diff_xstrdup(c, lb);
      }
      *out = diff_mkkey(bn, VIRT | v);
    }
  } else {
    *out = diff_mkkey(bn, fl_fabric_port_num(c->D, p));
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
uint32_t diff_first_at(const dctx *c, int side, uint64_t k) {
  uint32_t h = fl_u64map_get(side ? &c->headB : &c->headD, k);
  return h == FL_MAP_ABSENT ? NIL : h;
}
uint32_t diff_next_at(const dctx *c, uint32_t id, uint64_t k) {
  const edge *e = &c->e[id];
  return e->k[0] == k ? e->next[0] : e->next[1];
}
uint64_t diff_other(const edge *e, uint64_t k) {
  return e->k[0] == k ? e->k[1] : e->k[0];
}

/* The open edge of @side at @k other than @skip, or NIL. */
uint32_t diff_open_at(const dctx *c, int side, uint64_t k, uint32_t skip) {
  for (uint32_t id = diff_first_at(c, side, k); id != NIL;
       id = diff_next_at(c, id, k))
    if (c->e[id].state == E_OPEN && id != skip)
      return id;
  return NIL;
}

int diff_build_edges(dctx *c) {
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
    if (add_edge(c, diff_mkkey(na, fl_fabric_port_num(B, pa)),
                 diff_mkkey(nb, fl_fabric_port_num(B, pb)), l, 1) != 0)
      return -1;
  }
  return 0;
}

/* Cables folded into node findings: per unmatched node, its cables. */
int diff_count_folded(dctx *c) {
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
