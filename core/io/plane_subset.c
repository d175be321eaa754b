/* SPDX-License-Identifier: MIT */
/*
 * core/io/plane_subset.c — one plane of a multi-plane fabric as a fabric of
 * its own (fl_fabric_plane_subset(), fabriclint/planes.h).
 *
 * Why a subset instead of plane-aware analyses: every LID-based analysis
 * (credit loops, ECMP load, AR coverage, LID checks) was written for one
 * subnet's LID space, and in a multi-plane fabric the same LID names a port
 * in each plane. Copying one plane into its own fabric gives those analyses
 * exactly the input they were written for, with no risk of mixing LID
 * spaces, and keeps them unchanged. The host builds one plane at a time,
 * so the extra memory is one plane's share of the model. It sits above the
 * model because it builds and finalizes a new fabric; it reads the store's
 * records directly (model/fabric_impl.h) to copy them whole.
 *
 * Cost: O(V + E) plus the plane's LFT bytes and its ports' counter records.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabriclint/planes.h"
#include "fabriclint/routing.h"
#include "model/counters.h"
#include "model/fabric_impl.h"

static int is_switch(const fl_fabric *fab, fl_id n) {
  return fab->nodes[n].kind != FL_NODE_CA;
}

/* ---- one plane as its own fabric -------------------------------------- */

typedef struct subset {
  const fl_fabric *src;
  fl_fabric *dst;
  uint32_t plane;
  unsigned flags;  /* FL_SUBSET_* */
  fl_id *node_map; /* src node -> dst node, FL_NONE when left out */
  fl_id *port_map; /* src port -> dst port (build id), FL_NONE */
} subset;

static int keep_port(const subset *s, fl_id p) {
  return s->src->port_plane[p] == s->plane;
}

static int copy_attrs(subset *s) {
  const fl_fabric *f = s->src;
  for (size_t i = 0; i < f->n_attrs; i++) {
    const fl_attr_rec *a = &f->attrs[i];
    fl_id id = FL_NONE;
    if (a->ent_kind == FL_ENT_NODE)
      id = s->node_map[a->id];
    else if (a->ent_kind == FL_ENT_PORT)
      id = s->port_map[a->id];
    else
      continue; /* link attributes: copied with their links */
    if (strcmp(fl_b_atom_str(f, a->key), "home-plane") == 0)
      continue; /* the subset's own mark (mark_misplaced()) */
    if (id != FL_NONE &&
        fl_b_attr(s->dst, a->ent_kind, id, fl_b_atom_str(f, a->key),
                  fl_b_atom_str(f, a->val)) != FL_OK)
      return FL_ENOMEM;
  }
  return FL_OK;
}

/* A CA port cabled into this plane that belongs in another (its home
 * plane) keeps its cable, LID and routes but is marked `home-plane`: it is
 * not a member of this plane's rail structure (fabriclint/planes.h). */
static int mark_misplaced(subset *s, fl_id p, fl_id q) {
  uint32_t home = fl_fabric_port_home_plane(s->src, p);
  if (is_switch(s->src, s->src->ports[p].node) || home == FL_NONE ||
      home == s->plane)
    return FL_OK;
  return fl_b_attr(s->dst, FL_ENT_PORT, q, "home-plane",
                   fl_fabric_plane_name(s->src, home));
}

/* Length of node @n's name as the subset gives it: its display name, or
 * with FL_SUBSET_BASE_NAMES its base name (fl_fabric_node_base_name(): the
 * " (0x<GUID>)" finalize added because another plane has a node of the
 * same name dropped; the subset's finalize adds it again if the name
 * repeats within the plane). */
static size_t subset_name_len(const subset *s, fl_id n) {
  size_t len;
  const char *nm = fl_fabric_node_base_name(s->src, n, &len);
  return s->flags & FL_SUBSET_BASE_NAMES ? len : strlen(nm);
}

/* 1 when node @i is in the plane: a switch of the plane, or a CA with a
 * port cabled into it. */
static int keep_node(const subset *s, fl_id i) {
  const fl_node_rec *r = &s->src->nodes[i];
  if (is_switch(s->src, i))
    return s->src->node_plane[i] == s->plane;
  for (uint32_t k = 0; k < r->port_recs; k++)
    if (keep_port(s, r->first_port + k))
      return 1;
  return 0;
}

/* 1 when port @p of a node in the plane is copied: every port of a switch,
 * a CA's ports of the plane. */
static int copied_port(const subset *s, fl_id p) {
  return keep_port(s, p) || is_switch(s->src, s->src->ports[p].node);
}

/* Mark the nodes in the plane (node_map 0, the rest FL_NONE) and make room
 * for the copy's nodes, ports and links at once: a plane of a
 * 1,048,576-endpoint fabric would otherwise grow every array and GUID
 * index from 64 entries by doubling (issue 33). */
static int size_copy(subset *s) {
  const fl_fabric *f = s->src;
  size_t nodes = 0, ports = 0, links = 0;
  for (size_t i = 0; i < f->n_nodes; i++) {
    s->node_map[i] = keep_node(s, (fl_id)i) ? 0 : FL_NONE;
    if (s->node_map[i] == FL_NONE)
      continue;
    nodes++;
    for (uint32_t k = 0; k < f->nodes[i].port_recs; k++)
      ports += (size_t)copied_port(s, f->nodes[i].first_port + k);
  }
  for (size_t i = 0; i < f->n_links; i++) {
    fl_id a = f->links[i].a, b = f->links[i].b;
    links += s->node_map[f->ports[a].node] != FL_NONE &&
             s->node_map[f->ports[b].node] != FL_NONE && copied_port(s, a) &&
             copied_port(s, b);
  }
  return fl_b_reserve(s->dst, nodes, ports, links);
}

/* The copy takes @src's atoms as they are (fl_b_adopt_atoms()): names,
 * descriptions and labels are set by atom, not interned again; only a
 * base name (FL_SUBSET_BASE_NAMES) that differs is a new string. */
static int copy_nodes(subset *s) {
  const fl_fabric *f = s->src;
  fl_fabric *d = s->dst;
  for (size_t i = 0; i < f->n_nodes; i++) {
    const fl_node_rec *r = &f->nodes[i];
    if (s->node_map[i] == FL_NONE)
      continue;
    fl_id n = fl_b_node(d, r->kind, r->guid, r->nports, r->prov);
    if (n == FL_NONE)
      return FL_ENOMEM;
    s->node_map[i] = n;
    size_t len = subset_name_len(s, (fl_id)i);
    const char *name = fl_fabric_node_name(f, (fl_id)i);
    if (name[len] == '\0')
      d->nodes[n].name = r->name;
    else
      fl_b_node_set_name(d, n, name, len);
    d->nodes[n].desc = r->desc;
    d->nodes[n].system = r->system;
    d->nodes[n].device = r->device;
    fl_b_node_set_ids(d, n, r->vendid, r->devid, r->sysimgguid);
    if (!r->tier_derived && r->tier)
      fl_b_node_set_tier(d, n, r->tier);
    for (uint32_t k = 0; k < r->port_recs; k++) {
      fl_id p = r->first_port + k;
      if (!copied_port(s, p))
        continue;
      const fl_port_rec *pr = &f->ports[p];
      fl_id q = fl_b_port(d, n, pr->num, pr->prov);
      if (q == FL_NONE)
        return FL_ENOMEM;
      s->port_map[p] = q;
      fl_b_port_set_guid(d, q, pr->guid);
      fl_b_port_set_lid(d, q, pr->lid, pr->lmc);
      d->ports[q].label = pr->label;
      if (mark_misplaced(s, p, q) != FL_OK)
        return FL_ENOMEM;
    }
  }
  return FL_OK;
}

static int copy_links(subset *s) {
  const fl_fabric *f = s->src;
  for (size_t i = 0; i < f->n_links; i++) {
    const fl_link_rec *l = &f->links[i];
    fl_id a = s->port_map[l->a], b = s->port_map[l->b];
    if (a == FL_NONE || b == FL_NONE)
      continue;
    fl_id k = fl_b_link(s->dst, a, b, l->width, l->speed, l->flags, l->prov);
    if (k == FL_NONE)
      return FL_ENOMEM;
    if (l->width_b || l->speed_b)
      fl_b_link_set_b_listing(s->dst, k, l->width_b, l->speed_b);
    fl_b_link_add_flags(s->dst, k, l->flags);
    for (uint32_t j = 0; j < fl_fabric_attr_count(f, FL_ENT_LINK, (fl_id)i);
         j++) {
      const char *key, *val;
      if (fl_fabric_attr_at(f, FL_ENT_LINK, (fl_id)i, j, &key, &val) == FL_OK &&
          fl_b_attr(s->dst, FL_ENT_LINK, k, key, val) != FL_OK)
        return FL_ENOMEM;
    }
  }
  return FL_OK;
}

static int copy_ar(subset *s, fl_id from, fl_id to) {
  const fl_ar_sw *a = s->src->rt.ar[from];
  if (fl_b_ar_switch(s->dst, to) != FL_OK)
    return FL_ENOMEM;
  for (uint32_t g = 0; g < a->n_groups; g++)
    if (a->gdefined[g] && fl_b_ar_group(s->dst, to, g, a->gports[g]) != FL_OK)
      return FL_ENOMEM;
  for (uint32_t lid = 1; lid < a->len; lid++)
    if (a->state[lid] &&
        fl_b_ar_lid(s->dst, to, lid, a->state[lid], a->group[lid]) != FL_OK)
      return FL_ENOMEM;
  return FL_OK;
}

static int copy_routing(subset *s) {
  const fl_fabric *f = s->src;
  const fl_routing *rt = &f->rt;
  for (size_t i = 0; i < f->n_nodes; i++) {
    fl_id n = s->node_map[i];
    if (n == FL_NONE)
      continue;
    if (i < rt->cap_nodes && rt->lft[i]) {
      uint8_t *row = fl_b_lft_row(s->dst, n, rt->lft_len[i] - 1);
      if (!row)
        return FL_ENOMEM;
      memcpy(row, rt->lft[i], rt->lft_len[i]);
    }
    if (i < rt->cap_ar && rt->ar[i] && copy_ar(s, (fl_id)i, n) != FL_OK)
      return FL_ENOMEM;
  }
  for (size_t k = 0; k < rt->sl2vl_idx.cap; k++) {
    uint64_t key;
    uint32_t idx;
    if (!fl_u64map_slot(&rt->sl2vl_idx, k, &key, &idx))
      continue;
    fl_id n = s->node_map[key >> 32];
    if (n == FL_NONE)
      continue;
    uint8_t vl[16];
    for (int sl = 0; sl < 16; sl++)
      vl[sl] = (uint8_t)((rt->sl2vl[idx] >> (4 * sl)) & 0xf);
    if (fl_b_sl2vl(s->dst, n, (uint32_t)(key >> 16) & 0xffff,
                   (uint32_t)key & 0xffff, vl) != FL_OK)
      return FL_ENOMEM;
  }
  for (size_t k = 0; k < rt->path_sl.cap; k++) {
    uint64_t key;
    uint32_t sl;
    if (!fl_u64map_slot(&rt->path_sl, k, &key, &sl))
      continue;
    fl_id n = s->node_map[key >> 32];
    if (n != FL_NONE && fl_b_path_sl(s->dst, n, (uint32_t)key, sl) != FL_OK)
      return FL_ENOMEM;
  }
  uint32_t first = f->n_planes ? f->plane_names[0] : 0;
  for (size_t i = 0; i < rt->n_notes; i++) {
    const fl_note_rec *r = &rt->notes[i];
    uint32_t tag =
        r->prov.file < f->cap_file_plane ? f->file_plane[r->prov.file] : 0;
    if ((tag ? tag : first) != f->plane_names[s->plane])
      continue;
    fl_b_note(s->dst, fl_b_atom_str(f, r->category), r->prov, "%s",
              fl_b_atom_str(f, r->message));
  }
  return FL_OK;
}

int fl_fabric_plane_subset(const fl_fabric *fab, uint32_t plane,
                           fl_fabric **out, fl_error *err) {
  return fl_fabric_plane_subset_ex(fab, plane, 0, out, err);
}

int fl_fabric_plane_subset_ex(const fl_fabric *fab, uint32_t plane,
                              unsigned flags, fl_fabric **out, fl_error *err) {
  *out = NULL;
  if (!fab || !fab->finalized || plane >= fab->n_planes)
    return fl_error_set(err, FL_EINVAL, NULL, 0, 0,
                        "no plane %u in this fabric", plane);
  subset s = {fab, fl_fabric_new(), plane, flags, NULL, NULL};
  s.node_map = malloc((fab->n_nodes + 1) * sizeof *s.node_map);
  s.port_map = malloc((fab->n_ports + 1) * sizeof *s.port_map);
  int rc = FL_ENOMEM;
  if (!s.dst || !s.node_map || !s.port_map)
    goto fail;
  for (size_t i = 0; i < fab->n_ports; i++)
    s.port_map[i] = FL_NONE;
  if (fl_b_adopt_atoms(s.dst, fab) != FL_OK || size_copy(&s) != FL_OK)
    goto fail;
  for (size_t i = 0; i < fab->n_files; i++)
    if (fl_b_file(s.dst, fl_b_atom_str(fab, fab->files[i])) != i)
      goto fail;
  if (fab->system_pattern &&
      !(s.dst->system_pattern = strdup(fab->system_pattern)))
    goto fail;
  if (copy_nodes(&s) != FL_OK || copy_links(&s) != FL_OK ||
      copy_attrs(&s) != FL_OK || copy_routing(&s) != FL_OK ||
      fl_counters_copy_plane(s.dst, fab, plane, s.node_map) != FL_OK)
    goto fail;
  free(s.node_map);
  free(s.port_map);
  s.node_map = s.port_map = NULL;
  if ((rc = fl_fabric_finalize(s.dst, err)) != FL_OK)
    goto done;
  *out = s.dst;
  return FL_OK;
fail:
  rc = fl_error_set(err, FL_ENOMEM, NULL, 0, 0, "out of memory");
done:
  free(s.node_map);
  free(s.port_map);
  fl_fabric_free(s.dst);
  return rc;
}
