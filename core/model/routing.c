/* SPDX-License-Identifier: MIT */
/*
 * core/model/routing.c — routing state of a fabric (see fabriclint/routing.h
 * and the builder functions at the end of core/build.h).
 *
 * LFTs are stored as one byte per LID per switch, exactly as the hardware
 * holds them (IBA 14.2.5.10 LinearForwardingTable): a 5,120-switch fabric
 * with 49,151 LIDs takes 250 MB, and a route walk reads one byte per hop.
 * Rows are allocated per switch, so a fabric of several thousand switches
 * never needs one huge contiguous block.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabriclint/routing.h"
#include "model/fabric_impl.h"
#include "model/routing_impl.h"

static void fl_ar_free(fl_routing *rt);

/* ---- builder ----------------------------------------------------------------
 */

static int ensure_nodes(fl_routing *rt, size_t n) {
  if (n <= rt->cap_nodes)
    return 0;
  size_t nc = rt->cap_nodes ? rt->cap_nodes : 64;
  while (nc < n)
    nc *= 2;
  uint8_t **l = realloc(rt->lft, nc * sizeof *l);
  if (!l)
    return -1;
  rt->lft = l;
  uint32_t *len = realloc(rt->lft_len, nc * sizeof *len);
  if (!len)
    return -1;
  rt->lft_len = len;
  memset(rt->lft + rt->cap_nodes, 0, (nc - rt->cap_nodes) * sizeof *l);
  memset(rt->lft_len + rt->cap_nodes, 0, (nc - rt->cap_nodes) * sizeof *len);
  rt->cap_nodes = nc;
  return 0;
}

uint8_t *fl_b_lft_row(fl_fabric *fab, fl_id sw, uint32_t top) {
  fl_routing *rt = &fab->rt;
  if (fab->finalized || sw >= fab->n_nodes || top > FL_MAX_UCAST_LID ||
      ensure_nodes(rt, fab->n_nodes) != 0)
    return NULL;
  uint32_t need = top + 1, have = rt->lft_len[sw];
  if (rt->lft[sw] && need <= have)
    return rt->lft[sw];
  uint8_t *row = realloc(rt->lft[sw], need);
  if (!row)
    return NULL;
  memset(row + have, FL_LFT_NONE, need - have);
  if (!rt->lft[sw])
    rt->n_lfts++;
  rt->lft[sw] = row;
  rt->lft_len[sw] = need;
  return row;
}

int fl_b_lid_hint(fl_fabric *fab, uint32_t lid, uint64_t port_guid) {
  if (lid == 0 || lid > FL_MAX_UCAST_LID || port_guid == 0)
    return FL_OK;
  return fl_u64map_put(&fab->rt.lid_hints, port_guid, lid) == FL_MAP_ABSENT
             ? FL_ENOMEM
             : FL_OK;
}

int fl_b_sl2vl(fl_fabric *fab, fl_id node, uint32_t in_port, uint32_t out_port,
               const uint8_t vl[16]) {
  fl_routing *rt = &fab->rt;
  uint64_t packed = 0;
  for (int sl = 0; sl < 16; sl++)
    packed |= (uint64_t)(vl[sl] & 0xf) << (4 * sl);
  uint64_t key = ((uint64_t)node << 32) | ((uint64_t)(in_port & 0xffff) << 16) |
                 (out_port & 0xffff);
  uint32_t idx = fl_u64map_get(&rt->sl2vl_idx, key);
  if (idx != FL_MAP_ABSENT) {
    rt->sl2vl[idx] = packed;
    return FL_OK;
  }
  if (rt->n_sl2vl == rt->cap_sl2vl) {
    size_t nc = rt->cap_sl2vl ? rt->cap_sl2vl * 2 : 256;
    uint64_t *v = realloc(rt->sl2vl, nc * sizeof *v);
    if (!v)
      return FL_ENOMEM;
    rt->sl2vl = v;
    rt->cap_sl2vl = nc;
  }
  rt->sl2vl[rt->n_sl2vl] = packed;
  if (fl_u64map_set(&rt->sl2vl_idx, key, (uint32_t)rt->n_sl2vl) != 0)
    return FL_ENOMEM;
  rt->n_sl2vl++;
  return FL_OK;
}

int fl_b_path_sl(fl_fabric *fab, fl_id src, uint32_t dlid, uint32_t sl) {
  return fl_u64map_set(&fab->rt.path_sl, ((uint64_t)src << 32) | dlid, sl) == 0
             ? FL_OK
             : FL_ENOMEM;
}

void fl_b_note(fl_fabric *fab, const char *category, fl_prov prov,
               const char *fmt, ...) {
  fl_routing *rt = &fab->rt;
  if (rt->n_notes == rt->cap_notes) {
    size_t nc = rt->cap_notes ? rt->cap_notes * 2 : 16;
    fl_note_rec *v = realloc(rt->notes, nc * sizeof *v);
    if (!v)
      return;
    rt->notes = v;
    rt->cap_notes = nc;
  }
  char msg[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  fl_note_rec *r = &rt->notes[rt->n_notes++];
  r->category = fl_b_intern(fab, category, (size_t)-1);
  r->message = fl_b_intern(fab, msg, (size_t)-1);
  r->prov = prov;
}

/* ---- finalize
 * ----------------------------------------------------------------- */

/* Ports without a LID take the one a routing dump gave for their GUID; then
 * the LID -> port map is built from base LIDs and LMCs. */
int fl_routing_finalize(fl_fabric *fab, fl_error *err) {
  fl_routing *rt = &fab->rt;
  if (ensure_nodes(rt, fab->n_nodes) != 0)
    return fl_error_set(err, FL_ENOMEM, NULL, 0, 0, "out of memory");
  uint32_t max = 0;
  for (size_t p = 0; p < fab->n_ports; p++) {
    fl_port_rec *r = &fab->ports[p];
    if (r->lid == 0 && rt->lid_hints.len) {
      uint64_t g = r->guid;
      if (!g && r->num == 0)
        g = fab->nodes[r->node].guid;
      uint32_t hint = g ? fl_u64map_get(&rt->lid_hints, g) : FL_MAP_ABSENT;
      if (hint != FL_MAP_ABSENT)
        r->lid = hint;
    }
    if (r->lid == 0 || r->lid > FL_MAX_UCAST_LID)
      continue;
    uint32_t top = r->lid + (1u << (r->lmc & 7)) - 1;
    if (top > FL_MAX_UCAST_LID)
      top = FL_MAX_UCAST_LID;
    if (top > max)
      max = top;
  }
  rt->max_lid = max;
  rt->lid_port = malloc((size_t)(max + 1) * sizeof *rt->lid_port);
  if (!rt->lid_port)
    return fl_error_set(err, FL_ENOMEM, NULL, 0, 0, "out of memory");
  for (uint32_t l = 0; l <= max; l++)
    rt->lid_port[l] = FL_NONE;
  for (size_t p = 0; p < fab->n_ports; p++) {
    const fl_port_rec *r = &fab->ports[p];
    if (r->lid == 0 || r->lid > FL_MAX_UCAST_LID)
      continue;
    /* a switch answers only on port 0; its other ports' LIDs are not its */
    if (fab->nodes[r->node].kind == FL_NODE_SWITCH && r->num != 0)
      continue;
    uint32_t top = r->lid + (1u << (r->lmc & 7)) - 1;
    for (uint32_t l = r->lid; l <= top && l <= max; l++)
      if (rt->lid_port[l] == FL_NONE)
        rt->lid_port[l] = (fl_id)p;
  }
  fl_u64map_free(&rt->lid_hints);
  fl_u64map_free(&rt->port_guid_idx);
  fl_u64map_free(&rt->node_guid_idx);
  return FL_OK;
}

void fl_routing_free(fl_routing *rt) {
  for (size_t i = 0; i < rt->cap_nodes; i++)
    free(rt->lft[i]);
  free(rt->lft);
  free(rt->lft_len);
  free(rt->lid_port);
  fl_u64map_free(&rt->lid_hints);
  fl_u64map_free(&rt->sl2vl_idx);
  free(rt->sl2vl);
  fl_u64map_free(&rt->path_sl);
  fl_u64map_free(&rt->port_guid_idx);
  fl_u64map_free(&rt->node_guid_idx);
  free(rt->notes);
  fl_ar_free(rt);
  memset(rt, 0, sizeof *rt);
}

/* ---- accessors
 * ---------------------------------------------------------------- */

uint32_t fl_fabric_lft_count(const fl_fabric *fab) {
  return fab->rt.n_lfts;
}

const uint8_t *fl_fabric_lft(const fl_fabric *fab, fl_id sw, uint32_t *len) {
  if (sw >= fab->rt.cap_nodes || !fab->rt.lft[sw]) {
    if (len)
      *len = 0;
    return NULL;
  }
  if (len)
    *len = fab->rt.lft_len[sw];
  return fab->rt.lft[sw];
}

uint32_t fl_fabric_max_lid(const fl_fabric *fab) {
  return fab->rt.max_lid;
}

fl_id fl_fabric_lid_port(const fl_fabric *fab, uint32_t lid) {
  if (!fab->rt.lid_port || lid > fab->rt.max_lid)
    return FL_NONE;
  return fab->rt.lid_port[lid];
}

int fl_fabric_has_sl2vl(const fl_fabric *fab) {
  return fab->rt.n_sl2vl > 0;
}

uint32_t fl_fabric_sl2vl(const fl_fabric *fab, fl_id node, uint32_t in_port,
                         uint32_t out_port, uint32_t sl) {
  if (sl > 15)
    return FL_VL_UNKNOWN;
  uint64_t key = ((uint64_t)node << 32) | ((uint64_t)(in_port & 0xffff) << 16) |
                 (out_port & 0xffff);
  uint32_t idx = fl_u64map_get(&fab->rt.sl2vl_idx, key);
  if (idx == FL_MAP_ABSENT)
    return FL_VL_UNKNOWN;
  return (uint32_t)(fab->rt.sl2vl[idx] >> (4 * sl)) & 0xf;
}

int fl_fabric_has_path_sl(const fl_fabric *fab) {
  return fab->rt.path_sl.len > 0;
}

uint32_t fl_fabric_path_sl(const fl_fabric *fab, fl_id src, uint32_t dlid) {
  uint32_t v = fl_u64map_get(&fab->rt.path_sl, ((uint64_t)src << 32) | dlid);
  return v == FL_MAP_ABSENT ? FL_SL_UNKNOWN : v;
}

uint32_t fl_fabric_note_count(const fl_fabric *fab) {
  return (uint32_t)fab->rt.n_notes;
}

int fl_fabric_note(const fl_fabric *fab, uint32_t i, const char **category,
                   const char **file, uint32_t *line, const char **message) {
  if (i >= fab->rt.n_notes)
    return FL_ENOTFOUND;
  const fl_note_rec *r = &fab->rt.notes[i];
  if (category)
    *category = fl_b_atom_str(fab, r->category);
  if (file)
    *file = fl_b_file_path(fab, r->prov.file);
  if (line)
    *line = r->prov.line;
  if (message)
    *message = fl_b_atom_str(fab, r->message);
  return FL_OK;
}

/* ---- adaptive routing (AR) tables
 * ----------------------------------------------
 *
 * What NVIDIA's SM programs into AR-capable switches (ibdiagnet2.far, see
 * core/ar_load.c): an AR group table (group -> port set) and an AR LFT
 * (per LID: static port, state Static/HBF/Free, group). The static port is
 * the ordinary LFT entry, so it is kept there (fl_b_lft_row), not here.
 * Storage is per switch and allocated only for switches with AR data:
 * 3 bytes per LID (state + group), like the LFT's one byte. */

static void fl_ar_free(fl_routing *rt) {
  for (size_t i = 0; i < rt->cap_ar; i++) {
    fl_ar_sw *a = rt->ar[i];
    if (!a)
      continue;
    free(a->state);
    free(a->group);
    free(a->gports);
    free(a->gdefined);
    free(a);
  }
  free(rt->ar);
  rt->ar = NULL;
  rt->cap_ar = 0;
  rt->n_ar = 0;
}

static fl_ar_sw *ar_sw(fl_fabric *fab, fl_id sw) {
  fl_routing *rt = &fab->rt;
  if (fab->finalized || sw >= fab->n_nodes)
    return NULL;
  if (sw >= rt->cap_ar) {
    size_t nc = rt->cap_ar ? rt->cap_ar : 64;
    while (nc <= sw)
      nc *= 2;
    fl_ar_sw **v = realloc(rt->ar, nc * sizeof *v);
    if (!v)
      return NULL;
    memset(v + rt->cap_ar, 0, (nc - rt->cap_ar) * sizeof *v);
    rt->ar = v;
    rt->cap_ar = nc;
  }
  if (!rt->ar[sw]) {
    rt->ar[sw] = calloc(1, sizeof(fl_ar_sw));
    if (!rt->ar[sw])
      return NULL;
    rt->n_ar++;
  }
  return rt->ar[sw];
}

int fl_b_ar_switch(fl_fabric *fab, fl_id sw) {
  return ar_sw(fab, sw) ? FL_OK : FL_ENOMEM;
}

int fl_b_ar_group(fl_fabric *fab, fl_id sw, uint32_t group,
                  const uint8_t ports[32]) {
  if (group > 0xffffu)
    return FL_EINVAL;
  fl_ar_sw *a = ar_sw(fab, sw);
  if (!a)
    return FL_ENOMEM;
  if (group >= a->n_groups) {
    uint32_t nc = a->n_groups ? a->n_groups : 8;
    while (nc <= group)
      nc *= 2;
    uint8_t(*g)[32] = realloc(a->gports, (size_t)nc * sizeof *g);
    if (!g)
      return FL_ENOMEM;
    a->gports = g;
    uint8_t *d = realloc(a->gdefined, nc);
    if (!d)
      return FL_ENOMEM;
    a->gdefined = d;
    memset(a->gports + a->n_groups, 0, (size_t)(nc - a->n_groups) * 32);
    memset(a->gdefined + a->n_groups, 0, nc - a->n_groups);
    a->n_groups = nc;
  }
  for (int i = 0; i < 32; i++)
    a->gports[group][i] |= ports[i];
  a->gdefined[group] = 1;
  return FL_OK;
}

int fl_b_ar_lid(fl_fabric *fab, fl_id sw, uint32_t lid, uint32_t state,
                uint32_t group) {
  if (lid == 0 || lid > FL_MAX_UCAST_LID || group > 0xffffu || state == 0 ||
      state > FL_AR_STATE_FREE)
    return FL_EINVAL;
  fl_ar_sw *a = ar_sw(fab, sw);
  if (!a)
    return FL_ENOMEM;
  if (lid >= a->len) {
    uint32_t nc = a->len ? a->len : 64;
    while (nc <= lid)
      nc *= 2;
    if (nc > FL_MAX_UCAST_LID + 1)
      nc = FL_MAX_UCAST_LID + 1;
    uint8_t *s = realloc(a->state, nc);
    if (!s)
      return FL_ENOMEM;
    a->state = s;
    uint16_t *g = realloc(a->group, (size_t)nc * sizeof *g);
    if (!g)
      return FL_ENOMEM;
    a->group = g;
    memset(a->state + a->len, 0, nc - a->len);
    memset(a->group + a->len, 0, (size_t)(nc - a->len) * sizeof *g);
    a->len = nc;
  }
  a->state[lid] = (uint8_t)state;
  a->group[lid] = (uint16_t)group;
  return FL_OK;
}

uint32_t fl_fabric_ar_count(const fl_fabric *fab) {
  return fab->rt.n_ar;
}

static const fl_ar_sw *ar_get(const fl_fabric *fab, fl_id sw) {
  return sw < fab->rt.cap_ar ? fab->rt.ar[sw] : NULL;
}

int fl_fabric_ar_has(const fl_fabric *fab, fl_id sw) {
  return ar_get(fab, sw) != NULL;
}

const uint8_t *fl_fabric_ar_lid_state(const fl_fabric *fab, fl_id sw,
                                      uint32_t *len) {
  const fl_ar_sw *a = ar_get(fab, sw);
  if (len)
    *len = a ? a->len : 0;
  return a && a->len ? a->state : NULL;
}

const uint16_t *fl_fabric_ar_lid_group(const fl_fabric *fab, fl_id sw,
                                       uint32_t *len) {
  const fl_ar_sw *a = ar_get(fab, sw);
  if (len)
    *len = a ? a->len : 0;
  return a && a->len ? a->group : NULL;
}

uint32_t fl_fabric_ar_group_count(const fl_fabric *fab, fl_id sw) {
  const fl_ar_sw *a = ar_get(fab, sw);
  uint32_t n = 0;
  for (uint32_t g = 0; a && g < a->n_groups; g++)
    if (a->gdefined[g])
      n = g + 1;
  return n;
}

int fl_fabric_ar_group(const fl_fabric *fab, fl_id sw, uint32_t group,
                       uint8_t ports[32]) {
  const fl_ar_sw *a = ar_get(fab, sw);
  if (!a || group >= a->n_groups || !a->gdefined[group])
    return FL_ENOTFOUND;
  int n = 0;
  for (int i = 0; i < 32; i++) {
    if (ports)
      ports[i] = a->gports[group][i];
    n += __builtin_popcount(a->gports[group][i]);
  }
  return n;
}
