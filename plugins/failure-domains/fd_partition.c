/* SPDX-License-Identifier: MIT */
/*
 * plugins/failure-domains/fd_partition.c — failure-domains.domain-partition:
 * removing every element of one domain value (pdu=A3) disconnects the hosts
 * outside it; components_masked per value, O(V + E) each.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fd_rules.h"

typedef struct grp {
  uint32_t comp, eps;
} grp;

static int cmp_grp(const void *x, const void *y) {
  const grp *a = x, *b = y;
  if (a->eps != b->eps)
    return a->eps > b->eps ? -1 : 1;
  return a->comp < b->comp ? -1 : a->comp > b->comp;
}

static int report_partition(const fl_host_api *api, fl_ctx *ctx, fl_split *sp,
                            const fd_model *m, const fd_whatif *w, uint32_t vi,
                            uint32_t base, const uint32_t *cnt, uint32_t n_new,
                            int allow, uint32_t lost_with) {
  const fd_value *dv = &m->vals[vi];
  grp *g = malloc(((size_t)n_new + 1) * sizeof *g);
  uint32_t *gidx = malloc(((size_t)n_new + 1) * sizeof *gidx);
  if (!g || !gidx) {
    free(g), free(gidx);
    api->fail(ctx, "out of memory");
    return 1;
  }
  uint32_t ng = 0;
  for (fl_id e = 0; e < m->nn; e++) {
    if (!m->ep[e] || w->node_off[e] || m->comp[e] != base ||
        (allow && !fd_keeps_cable(m, w, e)))
      continue;
    uint32_t c = w->memb[e];
    if (cnt[c] == UINT32_MAX)
      continue;
    uint32_t j = 0;
    while (j < ng && g[j].comp != c)
      j++;
    if (j == ng)
      g[ng++] = (grp){c, cnt[c]};
  }
  if (ng > 1)
    qsort(g, ng, sizeof *g, cmp_grp);
  for (uint32_t j = 0; j < ng; j++)
    gidx[g[j].comp] = j;
  host_set *hs = calloc(ng, sizeof *hs);
  fl_id ids[MAX_NAMED + 16];
  uint32_t n_ids = 0, sw_off = 0, ep_off = 0;
  if (!hs) {
    free(g), free(gidx);
    api->fail(ctx, "out of memory");
    return 1;
  }
  for (uint32_t i = 0; i < dv->n_nodes; i++) {
    fl_id v = m->dom_nodes[dv->node_off + i];
    if (m->sw[v] && n_ids < 16)
      ids[n_ids++] = v;
    sw_off += m->sw[v];
    ep_off += m->ep[v];
  }
  for (fl_id e = 0; e < m->nn; e++) {
    if (!m->ep[e] || w->node_off[e] || m->comp[e] != base ||
        (allow && !fd_keeps_cable(m, w, e)))
      continue;
    uint32_t j = gidx[w->memb[e]];
    fd_hs_add(&hs[j], m->host[e]);
    if (j > 0 && n_ids < MAX_NAMED + 16)
      ids[n_ids++] = e;
  }
  /* the cause, when the value holds every switch of the top tier: the
   * spines (or cores) all sit in this one domain */
  uint32_t top_all = 0, top_off = 0;
  for (fl_id v = 0;
       m->top_tier != FL_TIER_UNKNOWN && m->top_tier >= 2 && v < m->nn; v++)
    if (m->sw[v] && m->tier[v] == m->top_tier) {
      top_all++;
      top_off += w->node_off[v];
    }
  char spines[120] = "";
  if (top_all >= 2 && top_off == top_all)
    snprintf(spines, sizeof spines, ": all %u %s sit in it", top_all,
             m->top_tier >= 3 ? "cores" : "spines");
  jbuf ev;
  jb_init(&ev);
  jb_obj_open(&ev);
  jb_key_str(&ev, "domain", dv->key);
  jb_key_str(&ev, "value", dv->value);
  jb_key_int(&ev, "removed_switches", sw_off);
  jb_key_int(&ev, "removed_endpoints", ep_off);
  jb_key_int(&ev, "removed_cables", dv->n_links);
  jb_key_int(&ev, "lost_with_their_switch", lost_with);
  jb_key_int(&ev, "top_tier_switches", top_all);
  jb_key_int(&ev, "top_tier_switches_removed", top_off);
  jb_key(&ev, "groups");
  jb_arr_open(&ev);
  for (uint32_t j = 0; j < ng; j++) {
    jb_obj_open(&ev);
    jb_key_int(&ev, "endpoints", g[j].eps);
    fd_hs_json(&ev, "hosts", &hs[j]);
    jb_obj_close(&ev);
  }
  jb_arr_close(&ev);
  jb_obj_close(&ev);
  char sizes[200] = "", list[600], msg[1200];
  size_t off = 0;
  /* sizes in runs: "64 x 32", "32 + 2 x 16" (groups are sorted by size) */
  for (uint32_t j = 0; j < ng && off < sizeof sizes;) {
    uint32_t run = 1;
    while (j + run < ng && g[j + run].eps == g[j].eps)
      run++;
    if (run > 1)
      off += (size_t)snprintf(sizes + off, sizeof sizes - off, "%s%u x %u",
                              j ? " + " : "", run, g[j].eps);
    else
      off += (size_t)snprintf(sizes + off, sizeof sizes - off, "%s%u",
                              j ? " + " : "", g[j].eps);
    j += run;
  }
  fd_hs_text(&hs[ng > 1 ? 1 : 0], 8, list, sizeof list);
  snprintf(
      msg, sizeof msg,
      "losing %s=%s (%u switch(es)%s, %u cable(s)) splits the remaining "
      "hosts into %u groups (%s endpoints); cut off from the largest: %s%s",
      dv->key, dv->value, sw_off, spines, dv->n_links, ng, sizes, list,
      ng > 2 ? " (and further groups)" : "");
  int rc =
      fd_report_item(sp, api, ctx, vi, msg, ids, n_ids,
                     dv->n_links ? m->dom_links + dv->link_off : NULL,
                     dv->n_links > 16 ? 16 : dv->n_links, jb_str(&ev), NULL);
  jb_free(&ev);
  free(hs), free(g), free(gidx);
  return rc;
}

static int check_partition(const fl_host_api *api, fl_ctx *ctx, void *pd) {
  fd_state *st = pd;
  st->part_ran = fl_fabric_key_of(api, ctx);
  fl_split sp; /* mpirun: the domain values split over the ranks */
  fl_split_init(&sp, api, ctx);
  fd_model *m = fd_get_model(
      api, ctx, st, fd_param_str(api, ctx, "domains", FD_DEFAULT_DOMAINS));
  if (!m)
    return fl_split_finish(&sp, api, ctx, 1);
  int allow = fd_param_bool(api, ctx, "allow-single-homed", 1);
  fd_whatif w;
  memset(&w, 0, sizeof w);
  uint32_t *first = malloc(((size_t)m->n_comp + 1) * sizeof *first);
  uint8_t *split = calloc((size_t)m->n_comp + 1, 1);
  uint32_t *cnt = malloc(((size_t)m->nn + 1) * sizeof *cnt);
  uint32_t *touched = malloc(((size_t)m->n_comp + 1) * sizeof *touched);
  int rc = 0;
  if (!first || !split || !cnt || !touched || fd_wi_init(m, &w) != 0) {
    api->fail(ctx, "out of memory");
    rc = 1;
  }
  for (uint32_t c = 0; !rc && c < m->n_comp; c++)
    first[c] = UINT32_MAX;
  for (uint32_t i = 0; !rc && i < m->nn; i++)
    cnt[i] = UINT32_MAX;
  for (uint32_t vi = 0; !rc && vi < m->n_vals; vi++) {
    if (!fl_split_mine(&sp, vi))
      continue;
    const fd_value *dv = &m->vals[vi];
    fd_wi_set(m, &w, dv, 1);
    uint32_t n_new = 0, n_touched = 0, lost_with = 0;
    if (api->components_masked(m->fab, w.node_off, w.link_off, w.memb,
                               &n_new) != FL_OK) {
      api->fail(ctx, "could not compute components");
      rc = 1;
      break;
    }
    for (fl_id e = 0; e < m->nn; e++) {
      if (!m->ep[e] || w.node_off[e])
        continue;
      if (allow && !fd_keeps_cable(m, &w, e)) {
        lost_with++;
        continue;
      }
      uint32_t b = m->comp[e], c = w.memb[e];
      if (first[b] == UINT32_MAX) {
        first[b] = c;
        touched[n_touched++] = b;
      } else if (first[b] != c) {
        split[b] = 1;
      }
      cnt[c] = cnt[c] == UINT32_MAX ? 1 : cnt[c] + 1;
    }
    for (uint32_t t = 0; !rc && t < n_touched; t++)
      if (split[touched[t]])
        rc = report_partition(api, ctx, &sp, m, &w, vi, touched[t], cnt, n_new,
                              allow, lost_with);
    /* reset what this value touched */
    for (uint32_t t = 0; t < n_touched; t++) {
      first[touched[t]] = UINT32_MAX;
      split[touched[t]] = 0;
    }
    for (fl_id e = 0; e < m->nn; e++)
      if (m->ep[e] && w.memb[e] != UINT32_MAX)
        cnt[w.memb[e]] = UINT32_MAX;
    fd_wi_set(m, &w, dv, 0);
  }
  fd_wi_free(&w);
  free(first), free(split), free(cnt), free(touched);
  return fl_split_finish(&sp, api, ctx, rc);
}

static const fl_param_def *const PARAMS_PART[] = {&FD_P_DOMAINS, &FD_P_SINGLE};

const fl_rule_def FD_R_PART = {
    sizeof(fl_rule_def),
    FL_SEV_ERROR,
    "failure-domains.domain-partition",
    "losing one rack, PDU, feed, row or hall disconnects the other hosts",
    "Every node and cable carrying one value of a domain key (pdu=A3, "
    "rack=R12) is removed together; the hosts outside the domain must stay "
    "connected. Names the domain and the separated groups.",
    1,
    FL_NEEDS_ALL_PLANES,
    PARAMS_PART,
    sizeof PARAMS_PART / sizeof *PARAMS_PART,
    check_partition};
