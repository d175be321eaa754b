/* SPDX-License-Identifier: MIT */
/*
 * plugins/ecmp-balance/ecmp_summary.c — the summary rule: path diversity,
 * capacities, port balance and eBB per tier, every figure in evidence.
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

/* ---- ecmp-balance.summary
 * ------------------------------------------------------ */

/* The widths of switch s's minimal next-hop sets, endpoint-weighted. */
typedef struct sum_widths {
  fl_view_group *g; /* fl_view_groups_new() room (cover classes), or NULL */
  uint64_t *hist;   /* [FL_VIEW_NMASK + 1] endpoints per width */
  uint64_t pairs, multi, unreach;
  uint32_t wmin, wmax;
} sum_widths;

static void width_add(sum_widths *w, uint32_t width, uint64_t wt) {
  w->hist[width] += wt;
  w->pairs += wt;
  w->multi += width >= 2 ? wt : 0;
  w->wmin = width < w->wmin ? width : w->wmin;
  w->wmax = width > w->wmax ? width : w->wmax;
}

/* Switch @s's terms into @w: one per group of destinations with cover
 * classes, one per destination with the rows. */
static void widths_of(const fl_view *v, uint32_t s, sum_widths *w) {
  if (v->nc) {
    uint32_t n = fl_view_groups(v, s, w->g);
    for (uint32_t i = 0; i < n; i++)
      width_add(w, w->g[i].nmin & FL_VIEW_NMASK, w->g[i].eps);
    return;
  }
  for (uint32_t d = 0; d < v->nd; d++) {
    if (v->dsw[d] == s)
      continue;
    uint32_t wt = v->sw_nep[v->dsw[d]];
    if (v->dist[(size_t)d * v->ns + s] == FL_VIEW_FAR)
      w->unreach += wt;
    else
      width_add(w, v->nmin[(size_t)d * v->ns + s] & FL_VIEW_NMASK, wt);
  }
}

int eb_check_summary(const fl_host_api *api, fl_ctx *ctx, void *data) {
  eb_state *st = data;
  const fl_view *v = eb_view(api, ctx, st, 1);
  if (!v)
    return 1;
  const fl_fabric *f = api->fabric(ctx);
  eb_units U;
  uint32_t *cnt = calloc(v->ns + 1, sizeof *cnt);
  fl_view_group *grp = v->nc ? fl_view_groups_new(v) : NULL;
  int urc = eb_units_build(v, &U);
  if (!cnt || (v->nc && !grp) || urc) {
    free(cnt), free(grp), eb_units_free(&U);
    api->fail(ctx, "out of memory");
    return 1;
  }
  /* tiers present */
  uint32_t maxt = 0;
  for (uint32_t s = 0; s < v->ns; s++)
    if (v->tier[s] != FL_TIER_UNKNOWN && v->tier[s] > maxt && v->tier[s] < 64)
      maxt = v->tier[s];
  jbuf ev;
  jb_init(&ev);
  jb_obj_open(&ev);
  jb_key_int(&ev, "switches", v->ns);
  jb_key_int(&ev, "endpoints", v->ne);
  jb_key_int(&ev, "destination_switches", v->nd);
  jb_key(&ev, "tiers");
  jb_arr_open(&ev);
  uint64_t pairs_all = 0, multi_all = 0, unreach = 0;
  for (uint32_t t = 1; t <= maxt; t++) {
    uint32_t n = 0;
    double up = 0, down = 0;
    uint64_t *hist = calloc(FL_VIEW_NMASK + 1, sizeof *hist);
    if (!hist) {
      jb_free(&ev), free(cnt), free(grp), eb_units_free(&U);
      api->fail(ctx, "out of memory");
      return 1;
    }
    uint64_t pairs = 0, multi = 0;
    uint32_t wmin = UINT32_MAX, wmax = 0;
    for (uint32_t s = 0; s < v->ns; s++) {
      if (v->tier[s] != t)
        continue;
      n++;
      sw_cap c;
      if (U.unit[s] == s) { /* a chassis once, at its representative */
        eb_capacities(v, &U, s, &c, cnt);
        up += c.up_g, down += c.down_g;
      }
      sum_widths sw = {grp, hist, 0, 0, 0, wmin, wmax};
      widths_of(v, s, &sw);
      pairs += sw.pairs, multi += sw.multi, unreach += sw.unreach;
      wmin = sw.wmin, wmax = sw.wmax;
    }
    pairs_all += pairs, multi_all += multi;
    jb_obj_open(&ev);
    jb_key_int(&ev, "tier", t);
    jb_key_int(&ev, "switches", n);
    jb_key_double(&ev, "down_gbps", down);
    jb_key_double(&ev, "up_gbps", up);
    if (up > 0)
      jb_key_double(&ev, "oversubscription", down / up);
    jb_key_int(&ev, "pairs", (int64_t)pairs);
    jb_key_int(&ev, "multipath_pairs", (int64_t)multi);
    if (pairs) {
      jb_key_int(&ev, "min_next_hops", wmin);
      jb_key_int(&ev, "max_next_hops", wmax);
    }
    jb_key(&ev, "next_hop_histogram");
    jb_obj_open(&ev);
    for (uint32_t w = 0; w <= FL_VIEW_NMASK; w++)
      if (hist[w]) {
        char key[16];
        snprintf(key, sizeof key, "%u", w);
        jb_key_int(&ev, key, (int64_t)hist[w]);
      }
    jb_obj_close(&ev);
    jb_obj_close(&ev);
    free(hist);
  }
  jb_arr_close(&ev);
  jb_key_int(&ev, "pairs", (int64_t)pairs_all);
  jb_key_int(&ev, "multipath_pairs", (int64_t)multi_all);
  jb_key_int(&ev, "unreachable_pairs", (int64_t)unreach);
  free(cnt), free(grp), eb_units_free(&U);
  char bal[256] = "";
  if (api->lft_count(f)) {
    pb_total t;
    int64_t tol = eb_pint(api, ctx, "tolerance", 1);
    const char *metric = "dlids";
    api->param_string(ctx, "metric", &metric);
    uint64_t *paths = NULL;
    if (!strcmp(metric, "paths") && !(paths = eb_paths_per_slot(v))) {
      jb_free(&ev);
      api->fail(ctx, "out of memory");
      return 1;
    }
    int brc = eb_balance_total(v, tol, paths, &t);
    free(paths);
    if (brc != 0) {
      jb_free(&ev);
      api->fail(ctx, "out of memory");
      return 1;
    }
    jb_key(&ev, "port_balance");
    jb_obj_open(&ev);
    jb_key_str(&ev, "metric", paths ? "paths" : "dlids");
    jb_key_int(&ev, "switches", t.switches);
    jb_key_int(&ev, "imbalanced_switches", t.imbalanced);
    jb_key_double(&ev, "mean_cv", t.classes ? t.cv_sum / t.classes : 0);
    jb_key_double(&ev, "max_cv", t.cv_max);
    jb_key_int(&ev, "worst_spread", (int64_t)t.worst_spread);
    if (t.worst_spread)
      jb_key_str(&ev, "worst_switch", eb_nm(v, t.worst_sw));
    jb_key_int(&ev, "tolerance", tol);
    jb_obj_close(&ev);
    snprintf(bal, sizeof bal,
             "; LFT port balance: %u of %u switches uneven, mean CV %.3f",
             t.imbalanced, t.switches, t.classes ? t.cv_sum / t.classes : 0);
  }
  char ebb[256] = "";
  if (eb_traffic(api, ctx, st, 1) != 0) {
    jb_free(&ev);
    return 1;
  }
  jb_key(&ev, "traffic");
  jb_arr_open(&ev);
  const char *rw = strncmp(st->tr_key, "1|", 2) == 0 ? "LFT" : "ECMP";
  for (uint32_t k = 0; k < st->n_tr; k++) {
    jb_obj_open(&ev);
    eb_tr_evidence(v, &st->tr[k], rw, &ev);
    jb_obj_close(&ev);
    if (!strcmp(st->tr[k].name, "bisect") ||
        !strcmp(st->tr[k].name, "permutation"))
      snprintf(ebb, sizeof ebb, "; eBB (%s, %s routing) %.4g", st->tr[k].name,
               rw, st->tr[k].ebb_mean);
  }
  jb_arr_close(&ev);
  jb_obj_close(&ev);
  char msg[1024];
  snprintf(msg, sizeof msg,
           "ECMP summary: %u switches, %u endpoints; %.1f%% of (switch, "
           "destination) pairs have 2 or more minimal next hops%s%s",
           v->ns, v->ne,
           pairs_all ? 100.0 * (double)multi_all / (double)pairs_all : 0.0, bal,
           ebb);
  int rc = eb_report(api, ctx, 0, msg, NULL, 0, NULL, 0, jb_str(&ev));
  jb_free(&ev);
  return rc;
}
