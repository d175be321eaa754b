/* SPDX-License-Identifier: MIT */
/*
 * core/analysis/swview_build.c — fl_view_build() and fl_view_free() of
 * fabriclint/view.h (fl_host_api.view_build / view_free, ABI 1.6): the
 * switches, their cabled ports ("slots") and the endpoints of a fabric,
 * read through the host table the caller gives.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/swview.h"
#include "fabriclint/routing.h"

/* Time O(nodes + ports + links + 49,151) (a LID bitmap); memory about
 * 1 KB per switch (the pslot table) plus about 40 bytes per slot and per
 * endpoint. @v->struct_size is the caller's sizeof(fl_view). */
int fl_swview_build(fl_view *v, const fl_host_api *api, const fl_fabric *f) {
  uint32_t size = v->struct_size;
  if (size < FL_VIEW_SIZE_1_6)
    return -1; /* a view of a layout this host does not know */
  memset(v, 0, size < sizeof *v ? size : sizeof *v); /* the caller's only */
  v->struct_size = size;
  v->api = api;
  v->f = f;
  v->nn = api->node_count(f);
  v->node_sw = (uint32_t *)malloc((size_t)v->nn * sizeof *v->node_sw + 1);
  if (!v->node_sw)
    return -1;
  uint32_t ns = 0, slots = 0, ne = 0;
  for (fl_id n = 0; n < v->nn; n++) {
    v->node_sw[n] = FL_VIEW_NONE;
    if (api->node_kind(f, n) != FL_NODE_SWITCH)
      continue;
    v->node_sw[n] = ns++;
    fl_id first = api->node_first_port(f, n);
    for (uint32_t k = 0; k < api->node_port_count(f, n); k++)
      if (api->port_link_count(f, first + k))
        slots++;
  }
  v->ns = ns;
  size_t S = ns ? ns : 1, P = slots ? slots : 1;
  v->sw_node = (fl_id *)malloc(S * sizeof *v->sw_node);
  v->tier = (uint32_t *)malloc(S * sizeof *v->tier);
  v->poff = (uint32_t *)calloc(S + 1, sizeof *v->poff);
  v->psw_end = (uint32_t *)calloc(S, sizeof *v->psw_end);
  v->pnb = (uint32_t *)malloc(P * sizeof *v->pnb);
  v->pnode = (fl_id *)malloc(P * sizeof *v->pnode);
  v->pnum = (uint16_t *)malloc(P * sizeof *v->pnum);
  v->pnbport = (uint16_t *)malloc(P * sizeof *v->pnbport);
  v->plink = (fl_id *)malloc(P * sizeof *v->plink);
  v->pgbps = (double *)malloc(P * sizeof *v->pgbps);
  v->pslot = (uint32_t *)malloc(S * 256 * sizeof *v->pslot);
  v->sw_nep = (uint32_t *)calloc(S, sizeof *v->sw_nep);
  v->sw_d = (uint32_t *)malloc(S * sizeof *v->sw_d);
  if (!v->sw_node || !v->tier || !v->poff || !v->psw_end || !v->pnb ||
      !v->pnode || !v->pnum || !v->pnbport || !v->plink || !v->pgbps ||
      !v->pslot || !v->sw_nep || !v->sw_d)
    return -1;
  memset(v->pslot, 0xff, S * 256 * sizeof *v->pslot);
  uint32_t at = 0;
  for (fl_id n = 0; n < v->nn; n++) {
    uint32_t s = v->node_sw[n];
    if (s == FL_VIEW_NONE)
      continue;
    v->sw_node[s] = n;
    v->tier[s] = api->node_tier(f, n);
    v->poff[s] = at;
    fl_id first = api->node_first_port(f, n);
    uint32_t np = api->node_port_count(f, n);
    for (int pass = 0; pass < 2; pass++) {
      for (uint32_t k = 0; k < np; k++) {
        fl_id p = first + k, l = FL_NONE, q = FL_NONE;
        fl_id m = fl_swview_peer(api, f, p, &l, &q);
        if (m == FL_NONE)
          continue;
        int is_sw = api->node_kind(f, m) == FL_NODE_SWITCH;
        if (is_sw != (pass == 0))
          continue;
        uint32_t num = api->port_num(f, p);
        v->pnb[at] = is_sw ? v->node_sw[m] : FL_VIEW_NONE;
        v->pnode[at] = m;
        v->pnum[at] = (uint16_t)num;
        v->pnbport[at] = (uint16_t)api->port_num(f, q);
        v->plink[at] = l;
        v->pgbps[at] = api->link_gbps(f, l);
        if (num < 256)
          v->pslot[(size_t)s * 256 + num] = at;
        if (!is_sw && api->node_kind(f, m) == FL_NODE_CA)
          ne++;
        at++;
      }
      if (pass == 0)
        v->psw_end[s] = at;
    }
  }
  v->poff[ns] = at;
  v->ne = ne;
  /* BFS working set: 2 bytes per switch-facing slot, and speeds looked at
   * only where a switch's links differ (memory traffic, not compute, is
   * what a 2,048 x 262,144-slot BFS sweep costs) */
  v->sw_mixed = (uint8_t *)calloc(S, 1);
  if (!v->sw_mixed)
    return -1;
  for (uint32_t s = 0; s < ns; s++)
    for (uint32_t i = v->poff[s]; i < v->psw_end[s]; i++)
      if (v->pgbps[i] != v->pgbps[v->poff[s]])
        v->sw_mixed[s] = 1;
  if (ns < 0xffffu) {
    v->pnb16 = (uint16_t *)malloc(P * sizeof *v->pnb16);
    if (!v->pnb16)
      return -1;
    for (uint32_t i = 0; i < at; i++)
      v->pnb16[i] = (uint16_t)(v->pnb[i] == FL_VIEW_NONE ? 0xffffu : v->pnb[i]);
  }
  size_t E = ne ? ne : 1;
  v->ep_node = (fl_id *)malloc(E * sizeof *v->ep_node);
  v->ep_sw = (uint32_t *)malloc(E * sizeof *v->ep_sw);
  v->ep_slot = (uint32_t *)malloc(E * sizeof *v->ep_slot);
  v->ep_lid = (uint32_t *)malloc(E * sizeof *v->ep_lid);
  v->ep_lmc = (uint32_t *)malloc(E * sizeof *v->ep_lmc);
  v->ep_gbps = (double *)malloc(E * sizeof *v->ep_gbps);
  v->dsw = (uint32_t *)malloc(S * sizeof *v->dsw);
  if (!v->ep_node || !v->ep_sw || !v->ep_slot || !v->ep_lid || !v->ep_lmc ||
      !v->ep_gbps || !v->dsw)
    return -1;
  uint32_t e = 0;
  for (uint32_t s = 0; s < ns; s++)
    for (uint32_t i = v->psw_end[s]; i < v->poff[s + 1]; i++) {
      fl_id m = v->pnode[i];
      if (api->node_kind(f, m) != FL_NODE_CA)
        continue;
      fl_id cp = api->find_port(f, m, v->pnbport[i]);
      v->ep_node[e] = m;
      v->ep_sw[e] = s;
      v->ep_slot[e] = i;
      v->ep_lid[e] = cp == FL_NONE ? 0 : api->port_lid(f, cp);
      v->ep_lmc[e] = cp == FL_NONE ? 0 : api->port_lmc(f, cp);
      v->ep_gbps[e] = v->pgbps[i];
      v->sw_nep[s]++;
      e++;
    }
  /* every endpoint LID, ascending (LFT scans then stream each row) */
  size_t nl = 0;
  for (uint32_t k = 0; k < ne; k++)
    nl += v->ep_lid[k] ? 1u << (v->ep_lmc[k] & 7) : 0;
  v->lids = (uint32_t *)malloc((nl ? nl : 1) * sizeof *v->lids);
  uint8_t *seen = (uint8_t *)calloc(FL_MAX_UCAST_LID + 1, 1);
  if (!v->lids || !seen) {
    free(seen);
    return -1;
  }
  for (uint32_t k = 0; k < ne; k++)
    for (uint32_t l = v->ep_lid[k];
         l && l < v->ep_lid[k] + (1u << (v->ep_lmc[k] & 7)) &&
         l <= FL_MAX_UCAST_LID;
         l++)
      seen[l] = 1;
  v->nlids = 0;
  for (uint32_t l = 1; l <= FL_MAX_UCAST_LID; l++)
    if (seen[l])
      v->lids[v->nlids++] = l;
  free(seen);
  v->nd = 0;
  for (uint32_t s = 0; s < ns; s++) {
    v->sw_d[s] = FL_VIEW_NONE;
    if (v->sw_nep[s]) {
      v->sw_d[s] = v->nd;
      v->dsw[v->nd++] = s;
    }
  }
  return 0;
}

void fl_swview_free(fl_view *v) {
  free(v->sw_node), free(v->node_sw), free(v->tier), free(v->poff);
  free(v->psw_end), free(v->pnb), free(v->pnode), free(v->pnum);
  free(v->pnbport), free(v->plink), free(v->pgbps), free(v->pslot);
  free(v->ep_node), free(v->ep_sw), free(v->ep_slot), free(v->ep_lid);
  free(v->ep_lmc), free(v->ep_gbps), free(v->sw_nep), free(v->dsw);
  free(v->sw_d), free(v->dist), free(v->nmin), free(v->lids);
  free(v->sw_mixed), free(v->pnb16);
  free(v->ccls), free(v->cup), free(v->clev), free(v->ceps), free(v->cnd);
  free(v->cfirst), free(v->cout);
  /* struct_size too: a zeroed view, within the caller's layout (a plugin
   * of ABI 1.6 has no fl_view.threads) */
  size_t size = v->struct_size;
  memset(v, 0, size && size < sizeof *v ? size : sizeof *v);
}
