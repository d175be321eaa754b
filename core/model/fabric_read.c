/* SPDX-License-Identifier: MIT */
/*
 * core/model/fabric_read.c — the read-only accessors of fabriclint/fabric.h.
 *
 * Every accessor bounds-checks its id and returns a neutral value (0, "",
 * FL_NONE) for a bad one, so a buggy plugin gets wrong answers, not a crash.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/fabric_impl.h"

#define NODE(fab, n) ((n) < (fab)->n_nodes ? &(fab)->nodes[n] : NULL)
#define PORT(fab, p) ((p) < (fab)->n_ports ? &(fab)->ports[p] : NULL)
#define LINK(fab, l) ((l) < (fab)->n_links ? &(fab)->links[l] : NULL)

uint32_t fl_fabric_node_count(const fl_fabric *f) {
  return (uint32_t)f->n_nodes;
}
uint32_t fl_fabric_port_count(const fl_fabric *f) {
  return (uint32_t)f->n_ports;
}
uint32_t fl_fabric_link_count(const fl_fabric *f) {
  return (uint32_t)f->n_links;
}

uint32_t fl_fabric_count_kind(const fl_fabric *f, uint32_t kind) {
  uint32_t c = 0;
  for (size_t i = 0; i < f->n_nodes; i++)
    c += f->nodes[i].kind == kind;
  return c;
}

uint32_t fl_fabric_node_kind(const fl_fabric *f, fl_id n) {
  const fl_node_rec *r = NODE(f, n);
  return r ? r->kind : 0;
}
const char *fl_fabric_node_name(const fl_fabric *f, fl_id n) {
  const fl_node_rec *r = NODE(f, n);
  return r ? fl_b_atom_str(f, r->name) : "";
}
const char *fl_fabric_node_base_name(const fl_fabric *f, fl_id n, size_t *len) {
  const char *nm = fl_fabric_node_name(f, n);
  size_t l = strlen(nm);
  uint64_t g = fl_fabric_node_guid(f, n);
  char suf[32]; /* the suffix fabric.c adds to names that repeat */
  int k = snprintf(suf, sizeof suf, " (0x%016llx)", (unsigned long long)g);
  if (g && k > 0 && l > (size_t)k && memcmp(nm + l - k, suf, (size_t)k) == 0)
    l -= (size_t)k;
  *len = l;
  return nm;
}
const char *fl_fabric_node_desc(const fl_fabric *f, fl_id n) {
  const fl_node_rec *r = NODE(f, n);
  return r ? fl_b_atom_str(f, r->desc) : "";
}
uint64_t fl_fabric_node_guid(const fl_fabric *f, fl_id n) {
  const fl_node_rec *r = NODE(f, n);
  return r ? r->guid : 0;
}
uint64_t fl_fabric_node_sysimgguid(const fl_fabric *f, fl_id n) {
  const fl_node_rec *r = NODE(f, n);
  return r ? r->sysimgguid : 0;
}
uint32_t fl_fabric_node_vendid(const fl_fabric *f, fl_id n) {
  const fl_node_rec *r = NODE(f, n);
  return r ? r->vendid : 0;
}
uint32_t fl_fabric_node_devid(const fl_fabric *f, fl_id n) {
  const fl_node_rec *r = NODE(f, n);
  return r ? r->devid : 0;
}
const char *fl_fabric_node_system(const fl_fabric *f, fl_id n) {
  const fl_node_rec *r = NODE(f, n);
  return r ? fl_b_atom_str(f, r->system) : "";
}
const char *fl_fabric_node_device(const fl_fabric *f, fl_id n) {
  const fl_node_rec *r = NODE(f, n);
  return r ? fl_b_atom_str(f, r->device) : "";
}
uint32_t fl_fabric_node_nports(const fl_fabric *f, fl_id n) {
  const fl_node_rec *r = NODE(f, n);
  return r ? r->nports : 0;
}
uint32_t fl_fabric_node_tier(const fl_fabric *f, fl_id n) {
  const fl_node_rec *r = NODE(f, n);
  return r ? r->tier : FL_TIER_UNKNOWN;
}
int fl_fabric_node_tier_derived(const fl_fabric *f, fl_id n) {
  const fl_node_rec *r = NODE(f, n);
  return r ? (int)r->tier_derived : 0;
}
fl_id fl_fabric_node_first_port(const fl_fabric *f, fl_id n) {
  const fl_node_rec *r = NODE(f, n);
  return r && r->port_recs ? r->first_port : FL_NONE;
}
uint32_t fl_fabric_node_port_count(const fl_fabric *f, fl_id n) {
  const fl_node_rec *r = NODE(f, n);
  return r ? r->port_recs : 0;
}

fl_id fl_fabric_find_node_guid(const fl_fabric *f, uint64_t guid) {
  uint32_t v = fl_u64map_get(&f->guid_map, guid);
  return v == FL_MAP_ABSENT ? FL_NONE : v;
}

fl_id fl_fabric_find_node_name(const fl_fabric *f, const char *name) {
  if (!name)
    return FL_NONE;
  uint32_t v = fl_strmap_get(&f->name_map, name, strlen(name));
  return v == FL_MAP_ABSENT ? FL_NONE : v;
}

fl_id fl_fabric_port_node(const fl_fabric *f, fl_id p) {
  const fl_port_rec *r = PORT(f, p);
  return r ? r->node : FL_NONE;
}
uint32_t fl_fabric_port_num(const fl_fabric *f, fl_id p) {
  const fl_port_rec *r = PORT(f, p);
  return r ? r->num : 0;
}
uint64_t fl_fabric_port_guid(const fl_fabric *f, fl_id p) {
  const fl_port_rec *r = PORT(f, p);
  return r ? r->guid : 0;
}
uint32_t fl_fabric_port_lid(const fl_fabric *f, fl_id p) {
  const fl_port_rec *r = PORT(f, p);
  return r ? r->lid : 0;
}
uint32_t fl_fabric_port_lmc(const fl_fabric *f, fl_id p) {
  const fl_port_rec *r = PORT(f, p);
  return r ? r->lmc : 0;
}
const char *fl_fabric_port_label(const fl_fabric *f, fl_id p) {
  const fl_port_rec *r = PORT(f, p);
  return r ? fl_b_atom_str(f, r->label) : "";
}
uint32_t fl_fabric_port_link_count(const fl_fabric *f, fl_id p) {
  if (!f->finalized || p >= f->n_ports)
    return 0;
  return f->port_link_off[p + 1] - f->port_link_off[p];
}
fl_id fl_fabric_port_link(const fl_fabric *f, fl_id p, uint32_t i) {
  if (i >= fl_fabric_port_link_count(f, p))
    return FL_NONE;
  return f->port_links[f->port_link_off[p] + i];
}

fl_id fl_fabric_link_other(const fl_fabric *f, fl_id l, fl_id p) {
  const fl_link_rec *r = LINK(f, l);
  if (!r)
    return FL_NONE;
  if (r->a == p)
    return r->b;
  if (r->b == p)
    return r->a;
  return FL_NONE;
}
fl_id fl_fabric_link_port(const fl_fabric *f, fl_id l, uint32_t end) {
  const fl_link_rec *r = LINK(f, l);
  if (!r || end > 1)
    return FL_NONE;
  return end == 0 ? r->a : r->b;
}
uint32_t fl_fabric_link_width(const fl_fabric *f, fl_id l) {
  const fl_link_rec *r = LINK(f, l);
  return r ? r->width : 0;
}
uint32_t fl_fabric_link_speed(const fl_fabric *f, fl_id l) {
  const fl_link_rec *r = LINK(f, l);
  return r ? r->speed : 0;
}
uint32_t fl_fabric_link_width_b(const fl_fabric *f, fl_id l) {
  const fl_link_rec *r = LINK(f, l);
  return r ? r->width_b : 0;
}
uint32_t fl_fabric_link_speed_b(const fl_fabric *f, fl_id l) {
  const fl_link_rec *r = LINK(f, l);
  return r ? r->speed_b : 0;
}
uint32_t fl_fabric_link_flags(const fl_fabric *f, fl_id l) {
  const fl_link_rec *r = LINK(f, l);
  return r ? r->flags : 0;
}
double fl_fabric_link_gbps(const fl_fabric *f, fl_id l) {
  const fl_link_rec *r = LINK(f, l);
  if (!r)
    return 0;
  return (double)r->width * fl_speed_lane_gbps(r->speed);
}

/* ---- attributes ------------------------------------------------------------
 */

/* First index of element (kind, id) in the sorted attribute array. */
static size_t attr_lower(const fl_fabric *f, uint32_t kind, fl_id id) {
  size_t lo = 0, hi = f->n_attrs;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    const fl_attr_rec *a = &f->attrs[mid];
    if (a->ent_kind < kind || (a->ent_kind == kind && a->id < id))
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

uint32_t fl_fabric_attr_count(const fl_fabric *f, uint32_t kind, fl_id id) {
  if (!f->finalized)
    return 0;
  size_t i = attr_lower(f, kind, id), c = 0;
  while (i + c < f->n_attrs && f->attrs[i + c].ent_kind == kind &&
         f->attrs[i + c].id == id)
    c++;
  return (uint32_t)c;
}

int fl_fabric_attr_at(const fl_fabric *f, uint32_t kind, fl_id id, uint32_t i,
                      const char **key, const char **value) {
  if (i >= fl_fabric_attr_count(f, kind, id))
    return FL_ENOTFOUND;
  const fl_attr_rec *a = &f->attrs[attr_lower(f, kind, id) + i];
  if (key)
    *key = fl_b_atom_str(f, a->key);
  if (value)
    *value = fl_b_atom_str(f, a->val);
  return FL_OK;
}

const char *fl_fabric_attr(const fl_fabric *f, uint32_t kind, fl_id id,
                           const char *key) {
  if (!f->finalized || !key)
    return NULL;
  uint32_t k = fl_strmap_get(&f->atoms, key, strlen(key));
  if (k == FL_MAP_ABSENT)
    return NULL;
  for (size_t i = attr_lower(f, kind, id);
       i < f->n_attrs && f->attrs[i].ent_kind == kind && f->attrs[i].id == id;
       i++)
    if (f->attrs[i].key == k)
      return fl_b_atom_str(f, f->attrs[i].val);
  return NULL;
}

int fl_fabric_provenance(const fl_fabric *f, uint32_t kind, fl_id id,
                         const char **file, uint32_t *line, uint32_t *col) {
  const fl_prov *p = NULL;
  if (kind == FL_ENT_NODE && id < f->n_nodes)
    p = &f->nodes[id].prov;
  else if (kind == FL_ENT_PORT && id < f->n_ports)
    p = &f->ports[id].prov;
  else if (kind == FL_ENT_LINK && id < f->n_links)
    p = &f->links[id].prov;
  if (!p)
    return FL_ENOTFOUND;
  if (file)
    *file = fl_b_file_path(f, p->file);
  if (line)
    *line = p->line;
  if (col)
    *col = p->col;
  return FL_OK;
}

uint32_t fl_fabric_file_count(const fl_fabric *fab) {
  return fab ? (uint32_t)fab->n_files : 0;
}

const char *fl_fabric_file_path(const fl_fabric *fab, uint32_t i) {
  return fab && i < fab->n_files ? fl_b_file_path(fab, i) : NULL;
}
