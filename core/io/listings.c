/*
 * core/io/listings.c — merging the two listings of each cable into one link
 * (listings.h explains the contract). Moved out of core/io/ibnd.c when the
 * iblinkinfo loader became its second user.
 */
#include <stdlib.h>
#include <string.h>

#include "io/listings.h"

void fl_ls_free(fl_lstate *s) {
  free(s->nodes);
  free(s->ls);
  fl_u64map_free(&s->by_guid);
  fl_u64map_free(&s->by_port);
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
    fl_lnode *nv = realloc(s->nodes, cap * sizeof *nv);
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
    fl_listing *nv = realloc(s->ls, cap * sizeof *nv);
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

static inline uint64_t port_key(uint32_t node, uint32_t port) {
  return ((uint64_t)node << 8) | (port & 0xffu);
}

int fl_ls_index(fl_lstate *s) {
  for (size_t i = 0; i < s->nl; i++)
    if (fl_u64map_put(&s->by_port, port_key(s->ls[i].node, s->ls[i].port),
                      (uint32_t)i) == FL_MAP_ABSENT)
      return FL_ENOMEM;
  return FL_OK;
}

uint32_t fl_ls_partner(const fl_lstate *s, size_t i) {
  const fl_listing *l = &s->ls[i];
  uint32_t j = fl_u64map_get(&s->by_port, port_key(l->peer, l->peer_port));
  if (j == FL_MAP_ABSENT)
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
