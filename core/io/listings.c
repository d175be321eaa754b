/* SPDX-License-Identifier: MIT */
/*
 * core/io/listings.c — merging the two listings of each cable into one link
 * (listings.h explains the contract). Moved out of core/io/ibnd.c when the
 * iblinkinfo loader became its second user.
 */
#include <stdlib.h>
#include <string.h>

#include "io/listings.h"
#include "util/bigmem.h"

void fl_ls_free(fl_lstate *s) {
  free(s->nodes);
  free(s->ls);
  fl_u64map_free(&s->by_guid);
  free(s->port_off);
  free(s->port_slot);
  fl_nodemap_free(&s->names);
}

int fl_ls_names(fl_lstate *s, const fl_load_options *opts, fl_error *err) {
  if (!opts || !opts->node_name_map)
    return FL_OK;
  s->have_names = 1;
  return fl_nodemap_read(&s->names, opts, err);
}

uint32_t fl_ls_add_node(fl_lstate *s, fl_fabric *fab, uint32_t kind,
                        uint64_t guid, uint32_t nports, fl_prov prov) {
  if (s->nn == s->ncap) {
    size_t cap = s->ncap ? s->ncap * 2 : 256;
    fl_lnode *nv =
        fl_big_realloc(s->nodes, s->ncap * sizeof *nv, cap * sizeof *nv);
    if (!nv)
      return UINT32_MAX;
    s->nodes = nv;
    s->ncap = cap;
  }
  fl_id id = fl_b_node(fab, kind, guid, nports, prov);
  if (id == FL_NONE)
    return UINT32_MAX;
  fl_lnode *n = &s->nodes[s->nn];
  n->id = id;
  n->guid = guid;
  n->kind = kind;
  n->has_block = 0;
  n->nports = nports;
  if (guid && s->have_names) {
    const char *nm = fl_nodemap_lookup(&s->names, guid);
    if (nm)
      fl_b_node_set_name(fab, id, nm, (size_t)-1);
  }
  return (uint32_t)s->nn++;
}

fl_listing *fl_ls_add_listing(fl_lstate *s) {
  if (s->nl == s->lcap) {
    size_t cap = s->lcap ? s->lcap * 2 : 1024;
    fl_listing *nv =
        fl_big_realloc(s->ls, s->lcap * sizeof *nv, cap * sizeof *nv);
    if (!nv)
      return NULL;
    s->ls = nv;
    s->lcap = cap;
  }
  fl_listing *l = &s->ls[s->nl++];
  memset(l, 0, sizeof *l);
  l->peer = UINT32_MAX;
  l->link = FL_NONE;
  return l;
}

int fl_ls_index(fl_lstate *s) {
  free(s->port_off);
  free(s->port_slot);
  s->port_slot = NULL;
  s->port_nn = 0;
  s->port_off = calloc(s->nn + 1, sizeof *s->port_off);
  if (!s->port_off)
    return FL_ENOMEM;
  size_t *off = s->port_off;
  /* off[k + 1]: node k's table width (its highest port listed, plus one) */
  for (size_t i = 0; i < s->nl; i++) {
    const fl_listing *l = &s->ls[i];
    size_t w = (size_t)(l->port & 0xffu) + 1;
    if (l->node < s->nn && w > off[l->node + 1])
      off[l->node + 1] = w;
  }
  for (size_t k = 0; k < s->nn; k++)
    off[k + 1] += off[k];
  s->port_slot =
      fl_big_malloc((off[s->nn] ? off[s->nn] : 1) * sizeof *s->port_slot);
  if (!s->port_slot)
    return FL_ENOMEM;
  memset(s->port_slot, 0xff, off[s->nn] * sizeof *s->port_slot);
  for (size_t i = 0; i < s->nl; i++) { /* the first listed there wins */
    const fl_listing *l = &s->ls[i];
    if (l->node >= s->nn)
      continue;
    uint32_t *slot = &s->port_slot[off[l->node] + (l->port & 0xffu)];
    if (*slot == UINT32_MAX)
      *slot = (uint32_t)i;
  }
  s->port_nn = s->nn;
  return FL_OK;
}

uint32_t fl_ls_partner(const fl_lstate *s, size_t i) {
  const fl_listing *l = &s->ls[i];
  if (l->peer >= s->port_nn)
    return UINT32_MAX;
  size_t base = s->port_off[l->peer], pp = l->peer_port & 0xffu;
  if (pp >= s->port_off[l->peer + 1] - base)
    return UINT32_MAX;
  uint32_t j = s->port_slot[base + pp];
  if (j == UINT32_MAX)
    return UINT32_MAX;
  const fl_listing *m = &s->ls[j];
  if (m->peer == l->node && m->peer_port == l->port)
    return j;
  return UINT32_MAX;
}

/* A peer that has no block: record what the listing says. */
static void fill_unlisted_peer(fl_lstate *s, fl_fabric *fab,
                               const fl_listing *l, fl_id pb) {
  const fl_lnode *b = &s->nodes[l->peer];
  if (b->has_block)
    return;
  fl_prov prov = {l->file, l->line, 1};
  fl_id target = pb;
  if (b->kind == FL_NODE_SWITCH)
    target = fl_b_port(fab, b->id, 0, prov);
  if (target == FL_NONE)
    return;
  if (l->peer_pguid)
    fl_b_port_set_guid(fab, target, l->peer_pguid);
  if (l->has_lid)
    fl_b_port_set_lid(fab, target, l->peer_lid, 0);
}

int fl_ls_merge_links(fl_lstate *s, fl_fabric *fab) {
  if (fl_ls_index(s))
    return FL_ENOMEM;
  uint8_t *done = calloc(s->nl ? s->nl : 1, 1);
  if (!done)
    return FL_ENOMEM;
  int rc = FL_OK;
  for (size_t i = 0; i < s->nl && rc == FL_OK; i++) {
    if (done[i])
      continue;
    done[i] = 1;
    fl_listing *l = &s->ls[i];
    fl_prov prov = {l->file, l->line, 1};
    fl_id pa = fl_b_port(fab, s->nodes[l->node].id, l->port, prov);
    fl_id pb = fl_b_port(fab, s->nodes[l->peer].id, l->peer_port, prov);
    if (pa == FL_NONE || pb == FL_NONE) {
      rc = FL_ENOMEM;
      break;
    }
    uint32_t j = fl_ls_partner(s, i);
    uint32_t flags = FL_LINK_SEEN_A;
    if (j != UINT32_MAX && (j == i || !done[j]))
      flags |= FL_LINK_SEEN_B;
    else
      fill_unlisted_peer(s, fab, l, pb);
    fl_id lk = fl_b_link(fab, pa, pb, l->width, l->speed, flags, prov);
    if (lk == FL_NONE) {
      rc = FL_ENOMEM;
      break;
    }
    l->link = lk;
    if ((flags & FL_LINK_SEEN_B) && j != i) {
      done[j] = 1;
      fl_listing *m = &s->ls[j];
      m->link = lk;
      if (m->width != l->width || m->speed != l->speed)
        fl_b_link_set_b_listing(fab, lk, m->width, m->speed);
    }
  }
  free(done);
  return rc;
}
