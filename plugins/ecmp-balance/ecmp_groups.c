/* SPDX-License-Identifier: MIT */
/*
 * plugins/ecmp-balance/ecmp_groups.c — minimal next-hop sets per switch and the
 * rules on them: mixed-speed-group, group-width.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ecmp.h"
#include "fabriclint/json_buf.h"
#include "fabriclint/plugin.h"
#include "fabriclint/routing.h"
#include "fabriclint/view.h"
#include "traffic.h"

/* ---- minimal next-hop statistics per switch -------------------------------
 */

typedef struct sw_min {
  uint64_t mixed, wide, narrow;       /* destinations (endpoints) affected */
  uint32_t mixed_d, wide_d, narrow_d; /* an example destination switch */
  uint32_t max_w, max_w_d;
} sw_min;

/* The statistics of every switch (@m: v->ns entries), in one pass over the
 * destination rows of the view (dist and nmin are stored per destination:
 * reading them a switch at a time strides across every row). Per switch
 * the destinations are still met in index order, so each example is the
 * first one, as before. */
/* One (switch, destinations) term of min_stats(): @wt endpoints, the first
 * on destination switch @d, reached over next hops @x (|M| | MIXED) that
 * go up when @up; @narrow_ok: the narrow test applies (the switch has
 * min_width up-links, the destination sits on a leaf). */
static void min_add(sw_min *ms, uint32_t d, uint64_t wt, uint16_t x, int up,
                    uint32_t limit, uint32_t min_width, int narrow_ok) {
  uint32_t w = x & FL_VIEW_NMASK;
  if (w > ms->max_w)
    ms->max_w = w, ms->max_w_d = d;
  if (x & FL_VIEW_MIXED) {
    if (!ms->mixed)
      ms->mixed_d = d;
    ms->mixed += wt;
  }
  if (w > limit) {
    if (!ms->wide)
      ms->wide_d = d;
    ms->wide += wt;
  }
  if (w < min_width && narrow_ok && up) {
    if (!ms->narrow)
      ms->narrow_d = d;
    ms->narrow += wt;
  }
}

/* min_stats() from the cover classes: one term per group of destinations
 * (fl_view_groups(), in first-destination order, so the examples are the
 * ones the rows give). */
static int min_stats_groups(const fl_view *v, uint32_t limit,
                            uint32_t min_width, const uint32_t *ups,
                            sw_min *m) {
  fl_view_group *g = fl_view_groups_new(v);
  if (!g)
    return -1;
  for (uint32_t s = 0; s < v->ns; s++) {
    uint32_t n = fl_view_groups(v, s, g);
    for (uint32_t i = 0; i < n; i++) {
      uint32_t t = v->dsw[g[i].first_d];
      int on_leaf = v->tier[t] == 1 || v->tier[t] == FL_TIER_UNKNOWN;
      if (g[i].nmin & FL_VIEW_NMASK)
        min_add(&m[s], g[i].first_d, g[i].eps, g[i].nmin, g[i].dir > 0, limit,
                min_width, ups[s] >= min_width && on_leaf);
    }
  }
  free(g);
  return 0;
}

static int min_stats(const fl_view *v, uint32_t limit, uint32_t min_width,
                     sw_min *m) {
  memset(m, 0, (size_t)v->ns * sizeof *m);
  uint32_t *ups = calloc((size_t)v->ns + 1, sizeof *ups);
  if (!ups)
    return -1;
  for (uint32_t s = 0; s < v->ns; s++)
    for (uint32_t i = v->poff[s]; i < v->psw_end[s]; i++)
      ups[s] += fl_view_dir(v, s, i) > 0;
  if (v->nc) {
    int rc = min_stats_groups(v, limit, min_width, ups, m);
    free(ups);
    return rc;
  }
  for (uint32_t d = 0; d < v->nd; d++) {
    uint32_t t = v->dsw[d];
    const uint8_t *dist = v->dist + (size_t)d * v->ns;
    const uint16_t *nmin = v->nmin + (size_t)d * v->ns;
    uint32_t wt = v->sw_nep[t];
    /* a destination on an upper switch (a service host on a core, a SHARP
     * AN) is reached through that one switch: its width is the cables to
     * it, a fact of the shape, not a fault */
    int on_leaf = v->tier[t] == 1 || v->tier[t] == FL_TIER_UNKNOWN;
    for (uint32_t s = 0; s < v->ns; s++) {
      uint16_t x = nmin[s];
      if (s == t || dist[s] == FL_VIEW_FAR || !(x & FL_VIEW_NMASK))
        continue;
      int narrow_ok = ups[s] >= min_width && on_leaf, up = 0;
      /* does the minimal hop go up? (only asked when it matters) */
      for (uint32_t i = v->poff[s];
           narrow_ok && (x & FL_VIEW_NMASK) < min_width && i < v->psw_end[s];
           i++)
        if ((uint32_t)dist[v->pnb[i]] + 1 == dist[s] &&
            fl_view_dir(v, s, i) > 0)
          up = 1;
      min_add(&m[s], d, wt, x, up, limit, min_width, narrow_ok);
    }
  }
  free(ups);
  return 0;
}

/* min_stats() into a new array (free it), or NULL when out of memory. */
static sw_min *min_stats_new(const fl_view *v, uint32_t limit,
                             uint32_t min_width) {
  sw_min *m = malloc(((size_t)v->ns + 1) * sizeof *m);
  if (m && min_stats(v, limit, min_width, m) != 0) {
    free(m);
    m = NULL;
  }
  return m;
}

/* At most MAX_LISTED ports are named in a message; the rest are counted,
 * with the number of next hops at each speed (a lab fan-out has 40 next
 * hops: a list of 40 ran past the buffer and ended in ", ;", real corpus
 * F15). */
#define MAX_LISTED 12u
#define MAX_SPEEDS 8u

/* The minimal ports of @s toward destination index @d, as text and refs. */
static uint32_t min_ports(const fl_view *v, uint32_t s, uint32_t d, char *buf,
                          size_t size, jbuf *ev) {
  uint32_t ds = fl_view_dist_at(v, d, s);
  size_t off = 0;
  uint32_t n = 0, ns = 0, cnt[MAX_SPEEDS] = {0};
  double sp[MAX_SPEEDS];
  buf[0] = 0;
  if (ev) {
    jb_key(ev, "next_hops");
    jb_arr_open(ev);
  }
  for (uint32_t i = v->poff[s]; i < v->psw_end[s]; i++) {
    if (fl_view_dist_at(v, d, v->pnb[i]) + 1 != ds)
      continue;
    uint32_t k = 0;
    while (k < ns && sp[k] != v->pgbps[i])
      k++;
    if (k == ns && ns < MAX_SPEEDS)
      sp[ns++] = v->pgbps[i];
    if (k < ns)
      cnt[k]++;
    if (n < MAX_LISTED && off < size && v->pgbps[i] > 0)
      off += (size_t)snprintf(buf + off, size - off, "%s%u (%.0f Gb/s)",
                              n ? ", " : "", v->pnum[i], v->pgbps[i]);
    else if (n < MAX_LISTED && off < size)
      off += (size_t)snprintf(buf + off, size - off, "%s%u (speed unknown)",
                              n ? ", " : "", v->pnum[i]);
    if (ev) {
      jb_obj_open(ev);
      jb_key_int(ev, "port", v->pnum[i]);
      jb_key_str(ev, "to", eb_nm(v, v->pnb[i]));
      jb_key_double(ev, "gbps", v->pgbps[i]);
      jb_obj_close(ev);
    }
    n++;
  }
  if (n > MAX_LISTED && off < size) {
    off += (size_t)snprintf(buf + off, size - off, " and %u more (",
                            n - MAX_LISTED);
    for (uint32_t k = 0; k < ns && off < size; k++)
      off += (size_t)(sp[k] > 0
                          ? snprintf(buf + off, size - off, "%s%u at %.0f Gb/s",
                                     k ? ", " : "", cnt[k], sp[k])
                          : snprintf(buf + off, size - off,
                                     "%s%u of unknown speed", k ? ", " : "",
                                     cnt[k]));
    if (off < size)
      snprintf(buf + off, size - off, ")");
  }
  if (ev)
    jb_arr_close(ev);
  return n;
}

/* ---- ecmp-balance.mixed-speed-group ----------------------------------------
 */

/* The cables of switch @s's minimal next hops toward destination switch @d
 * that are slower than the fastest of them, into @links (at most @cap):
 * the cables a pull-request annotation should point at. */
static uint32_t slow_links(const fl_view *v, uint32_t s, uint32_t d,
                           fl_id *links, uint32_t cap) {
  uint32_t ds = fl_view_dist_at(v, d, s);
  double best = 0;
  for (uint32_t i = v->poff[s]; i < v->psw_end[s]; i++)
    if (fl_view_dist_at(v, d, v->pnb[i]) + 1 == ds && v->pgbps[i] > best)
      best = v->pgbps[i];
  uint32_t n = 0;
  /* a link of unknown speed (0) is not a slow one */
  for (uint32_t i = v->poff[s]; i < v->psw_end[s] && n < cap; i++)
    if (fl_view_dist_at(v, d, v->pnb[i]) + 1 == ds && v->pgbps[i] > 0 &&
        v->pgbps[i] < best)
      links[n++] = v->plink[i];
  return n;
}

/* How many of switch @s's minimal next hops toward destination index @d
 * run at an unknown speed (0: a cable inside a chassis expanded from IBNL,
 * a plan without a rate): left out of the comparison, and said so. */
static uint32_t unknown_hops(const fl_view *v, uint32_t s, uint32_t d) {
  uint32_t ds = fl_view_dist_at(v, d, s), n = 0;
  for (uint32_t i = v->poff[s]; i < v->psw_end[s]; i++)
    n += fl_view_dist_at(v, d, v->pnb[i]) + 1 == ds && !(v->pgbps[i] > 0);
  return n;
}

/* Switch @s is wiring of a fleet plan (attribute `fleet`: a SONiC lab
 * graph's fan-outs and DUTs, separate testbeds, core/model/derive.c gives
 * them no tier): not a routed fabric whose ECMP groups are judged (real
 * corpus F15). */
static int fleet_switch(const fl_view *v, uint32_t s) {
  const char *fl = v->api->attr(v->f, FL_ENT_NODE, v->sw_node[s], "fleet");
  return fl && *fl;
}

int eb_check_mixed(const fl_host_api *api, fl_ctx *ctx, void *data) {
  if (eb_pint(api, ctx, "weighted-ecmp", 0))
    return 0;
  const fl_view *v = eb_view(api, ctx, data, 1);
  if (!v)
    return 1;
  sw_min *all = min_stats_new(v, UINT32_MAX, 0);
  if (!all)
    return 1;
  int rc = 0;
  for (uint32_t s = 0; s < v->ns && !rc; s++) {
    sw_min m = all[s];
    if (!m.mixed || fleet_switch(v, s))
      continue;
    char ports[512];
    jbuf ev;
    jb_init(&ev);
    jb_obj_open(&ev);
    jb_key_int(&ev, "destinations", (int64_t)m.mixed);
    jb_key_str(&ev, "example_destination_switch", eb_nm(v, v->dsw[m.mixed_d]));
    min_ports(v, s, m.mixed_d, ports, sizeof ports, &ev);
    uint32_t unk = unknown_hops(v, s, m.mixed_d);
    jb_key_int(&ev, "unknown_speed_next_hops", unk);
    jb_obj_close(&ev);
    char msg[1200], note[96] = "";
    if (unk)
      snprintf(note, sizeof note,
               " (%u next hop(s) of unknown speed not compared)", unk);
    snprintf(msg, sizeof msg,
             "switch \"%s\" splits traffic toward %llu destination(s) (e.g. "
             "those on \"%s\") over next hops of different speeds: ports "
             "%s%s; plain ECMP splits by flow count, not capacity (configure "
             "weighted ECMP, or make the links equal)",
             eb_nm(v, s), (unsigned long long)m.mixed,
             eb_nm(v, v->dsw[m.mixed_d]), ports, note);
    fl_id nodes[2] = {v->sw_node[s], v->sw_node[v->dsw[m.mixed_d]]};
    fl_id links[16];
    uint32_t nl = slow_links(v, s, m.mixed_d, links, 16);
    /* the slow cable is the root (one cause across rules): with it at the
     * others' rate the group would not be mixed; topology.degraded-link
     * names it when it runs below its tier pair's majority */
    fl_root root = {FL_ROOT_LINK, FL_ROOT_CONSEQUENCE, nl ? links[0] : 0, NULL};
    rc = fl_emit_rooted(api, ctx, 0, msg, nodes, 2, NULL, 0, links, nl,
                        jb_str(&ev), NULL, NULL, NULL, nl == 1 ? &root : NULL);
    jb_free(&ev);
  }
  free(all);
  return rc;
}

/* ---- ecmp-balance.group-width -----------------------------------------------
 */

int eb_check_width(const fl_host_api *api, fl_ctx *ctx, void *data) {
  int64_t limit = eb_pint(api, ctx, "group-limit", 64);
  int64_t minw = eb_pint(api, ctx, "min-width", 2);
  if (limit < 1 || minw < 0) {
    fl_param_error(api, ctx, "(several)",
                   "parameters group-limit >= 1 and min-width >= 0 expected");
    return 1;
  }
  const fl_view *v = eb_view(api, ctx, data, 1);
  if (!v)
    return 1;
  sw_min *all = min_stats_new(v, (uint32_t)limit, (uint32_t)minw);
  if (!all)
    return 1;
  int rc = 0;
  for (uint32_t s = 0; s < v->ns && !rc; s++) {
    sw_min m = all[s];
    for (int kind = 0; kind < 2 && !rc && !fleet_switch(v, s); kind++) {
      uint64_t cnt = kind ? m.narrow : m.wide;
      uint32_t d = kind ? m.narrow_d : m.wide_d;
      if (!cnt)
        continue;
      char ports[512], msg[1200];
      jbuf ev;
      jb_init(&ev);
      jb_obj_open(&ev);
      jb_key_str(&ev, "kind", kind ? "narrow" : "wide");
      jb_key_int(&ev, "destinations", (int64_t)cnt);
      jb_key_int(&ev, "group_limit", limit);
      jb_key_int(&ev, "min_width", minw);
      jb_key_int(&ev, "max_width", m.max_w);
      jb_key_str(&ev, "example_destination_switch", eb_nm(v, v->dsw[d]));
      uint32_t w = min_ports(v, s, d, ports, sizeof ports, &ev);
      jb_key_int(&ev, "width", w);
      jb_obj_close(&ev);
      if (kind)
        snprintf(msg, sizeof msg,
                 "switch \"%s\" has only %u minimal next hop(s) toward %llu "
                 "destination(s) (e.g. those on \"%s\": port %s) although it "
                 "has uplinks for at least %lld: traffic there cannot spread",
                 eb_nm(v, s), w, (unsigned long long)cnt, eb_nm(v, v->dsw[d]),
                 ports, (long long)minw);
      else
        snprintf(msg, sizeof msg,
                 "switch \"%s\" has %u minimal next hops toward %llu "
                 "destination(s) (e.g. those on \"%s\"), more than the ECMP "
                 "group limit of %lld: the excess links carry no traffic",
                 eb_nm(v, s), w, (unsigned long long)cnt, eb_nm(v, v->dsw[d]),
                 (long long)limit);
      fl_id nodes[2] = {v->sw_node[s], v->sw_node[v->dsw[d]]};
      char cause[32], cmsg[256];
      snprintf(cause, sizeof cause, "%s-tier-%u", kind ? "narrow" : "wide",
               v->tier[s]);
      if (kind)
        snprintf(cmsg, sizeof cmsg,
                 "{count} tier-%u switches have fewer than %lld minimal next "
                 "hops toward some destinations although they have the "
                 "uplinks: traffic there cannot spread",
                 v->tier[s], (long long)minw);
      else
        snprintf(cmsg, sizeof cmsg,
                 "{count} tier-%u switches have more minimal next hops than "
                 "the ECMP group limit of %lld toward some destinations: the "
                 "excess links carry no traffic",
                 v->tier[s], (long long)limit);
      rc = eb_report_cause(api, ctx, msg, nodes, 2, jb_str(&ev), cause, cmsg);
      jb_free(&ev);
    }
  }
  free(all);
  return rc;
}
