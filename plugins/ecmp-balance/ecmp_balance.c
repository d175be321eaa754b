/* SPDX-License-Identifier: MIT */
/*
 * plugins/ecmp-balance/ecmp_balance.c — port balance from the LFTs:
 * destinations and paths per egress port among equivalent ports
 * (port-imbalance).
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

/* ---- port balance from the LFTs ---------------------------------------------
 */

typedef struct pb_class {
  uint32_t n;
  uint64_t min, max, sum;
  double cv;
  uint32_t min_slot, max_slot;
} pb_class;

/* Paths (CA source, CA destination LID pairs) routed through every slot,
 * from the LFTs: per destination, a walk from each source switch carrying
 * its endpoint count — the "paths" balance metric that SSSP/DFSSSP
 * balance, as opposed to destination LIDs (ibdiagnet -r reports both).
 * O(endpoints x source switches x hops). */
uint64_t *eb_paths_per_slot(const fl_view *v) {
  uint64_t *paths = calloc((size_t)v->poff[v->ns] + 1, sizeof *paths);
  if (!paths)
    return NULL;
  for (uint32_t b = 0; b < v->ne; b++) {
    uint32_t dlid = v->ep_lid[b];
    if (!dlid)
      continue;
    for (uint32_t q = 0; q < v->nd; q++) {
      uint32_t s = v->dsw[q];
      uint64_t amount = v->sw_nep[s] - (s == v->ep_sw[b]);
      for (int h = 0; amount && h < 64; h++) {
        uint32_t len = 0;
        const uint8_t *row = v->api->lft(v->f, v->sw_node[s], &len);
        if (!row || dlid >= len || row[dlid] == FL_LFT_NONE)
          break;
        uint32_t i = v->pslot[(size_t)s * 256 + row[dlid]];
        if (i == FL_VIEW_NONE)
          break;
        paths[i] += amount;
        if (v->pnb[i] == FL_VIEW_NONE)
          break;
        s = v->pnb[i];
      }
    }
  }
  return paths;
}

/* Count destination LIDs (or, with @paths, paths) per slot of @s; per class
 * (0 up, 1 same, 2 down). */
static int balance(const fl_view *v, uint32_t s, uint64_t *cnt, pb_class cls[3],
                   int include_down, const uint64_t *paths) {
  uint32_t len = 0;
  const uint8_t *row = v->api->lft(v->f, v->sw_node[s], &len);
  if (!row)
    return 0;
  uint32_t nsl = v->poff[s + 1] - v->poff[s];
  memset(cnt, 0, (size_t)nsl * sizeof *cnt);
  const uint32_t *ps = v->pslot + (size_t)s * 256;
  if (paths)
    memcpy(cnt, paths + v->poff[s], (size_t)nsl * sizeof *cnt);
  if (!paths) {
    /* tight loop: count per port number, then map ports to slots */
    uint64_t byport[256];
    memset(byport, 0, sizeof byport);
    const uint32_t *lids = v->lids;
    uint32_t n = v->nlids;
    while (n && lids[n - 1] >= len)
      n--;
    for (uint32_t k = 0; k < n; k++)
      byport[row[lids[k]]]++;
    for (uint32_t p = 0; p < 255; p++)
      if (byport[p] && ps[p] != FL_VIEW_NONE)
        cnt[ps[p] - v->poff[s]] += byport[p];
  }
  memset(cls, 0, 3 * sizeof *cls);
  for (uint32_t i = v->poff[s]; i < v->psw_end[s]; i++) {
    int d = fl_view_dir(v, s, i);
    int c = d > 0 ? 0 : d == 0 ? 1 : 2;
    if (c == 2 && !include_down)
      continue;
    uint64_t x = cnt[i - v->poff[s]];
    pb_class *k = &cls[c];
    if (!k->n || x < k->min)
      k->min = x, k->min_slot = i;
    if (!k->n || x > k->max)
      k->max = x, k->max_slot = i;
    k->sum += x;
    k->n++;
  }
  for (int c = 0; c < 3; c++) {
    pb_class *k = &cls[c];
    if (k->n < 2 || !k->sum)
      continue;
    double mean = (double)k->sum / k->n, var = 0;
    for (uint32_t i = v->poff[s]; i < v->psw_end[s]; i++) {
      int d = fl_view_dir(v, s, i);
      if ((d > 0 ? 0 : d == 0 ? 1 : 2) != c)
        continue;
      double dx = (double)cnt[i - v->poff[s]] - mean;
      var += dx * dx;
    }
    k->cv = sqrt(var / k->n) / mean;
  }
  return 1;
}

static const char *const CLASS_NAME[3] = {"up", "same-tier", "down"};

int eb_check_imbalance(const fl_host_api *api, fl_ctx *ctx, void *data) {
  const fl_fabric *f = api->fabric(ctx);
  if (!api->lft_count(f))
    return 0;
  int64_t tol = eb_pint(api, ctx, "tolerance", 1);
  int include_down = (int)eb_pint(api, ctx, "include-down", 0);
  const char *metric = "dlids";
  api->param_string(ctx, "metric", &metric);
  int use_paths = !strcmp(metric, "paths");
  if (!use_paths && strcmp(metric, "dlids")) {
    fl_param_error(api, ctx, "metric", "expected dlids or paths");
    return 1;
  }
  const fl_view *v = eb_view(api, ctx, data, 0);
  if (!v)
    return 1;
  uint64_t *cnt = calloc(256, sizeof *cnt);
  uint64_t *paths = use_paths ? eb_paths_per_slot(v) : NULL;
  if (!cnt || (use_paths && !paths)) {
    free(cnt), free(paths);
    api->fail(ctx, "out of memory");
    return 1;
  }
  const char *unit = use_paths ? "paths" : "destination LIDs";
  int rc = 0;
  for (uint32_t s = 0; s < v->ns && !rc; s++) {
    pb_class cls[3];
    if (!balance(v, s, cnt, cls, include_down, paths))
      continue;
    int worst = -1;
    for (int c = 0; c < 3; c++)
      if (cls[c].n >= 2 && cls[c].max - cls[c].min > (uint64_t)tol &&
          (worst < 0 ||
           cls[c].max - cls[c].min > cls[worst].max - cls[worst].min))
        worst = c;
    if (worst < 0)
      continue;
    const pb_class *k = &cls[worst];
    jbuf ev;
    jb_init(&ev);
    jb_obj_open(&ev);
    jb_key_str(&ev, "ports_compared", CLASS_NAME[worst]);
    jb_key_str(&ev, "metric", use_paths ? "paths" : "dlids");
    jb_key_int(&ev, "port_count",
               k->n); /* "ports" is a list of ports elsewhere */
    jb_key_int(&ev, "min", (int64_t)k->min);
    jb_key_int(&ev, "max", (int64_t)k->max);
    jb_key_double(&ev, "mean", (double)k->sum / k->n);
    jb_key_double(&ev, "cv", k->cv);
    jb_key_double(&ev, "max_over_min", k->min ? (double)k->max / k->min : 0);
    jb_key_int(&ev, "tolerance", tol);
    jb_key(&ev, use_paths ? "paths_per_port" : "dlids_per_port");
    jb_obj_open(&ev);
    for (uint32_t i = v->poff[s]; i < v->psw_end[s]; i++) {
      int d = fl_view_dir(v, s, i);
      if ((d > 0 ? 0 : d == 0 ? 1 : 2) != worst)
        continue;
      char key[16];
      snprintf(key, sizeof key, "%u", v->pnum[i]);
      jb_key_int(&ev, key, (int64_t)cnt[i - v->poff[s]]);
    }
    jb_obj_close(&ev);
    jb_obj_close(&ev);
    char msg[768];
    snprintf(msg, sizeof msg,
             "switch \"%s\" routes unevenly over its %u %s ports: port %u "
             "carries %llu %s, port %u only %llu (mean %.1f, "
             "CV %.3f; tolerance %lld)",
             eb_nm(v, s), k->n, CLASS_NAME[worst], v->pnum[k->max_slot],
             (unsigned long long)k->max, unit, v->pnum[k->min_slot],
             (unsigned long long)k->min, (double)k->sum / k->n, k->cv,
             (long long)tol);
    fl_id node = v->sw_node[s];
    fl_port_ref ports[2] = {{node, v->pnum[k->max_slot]},
                            {node, v->pnum[k->min_slot]}};
    rc = eb_report(api, ctx, 0, msg, &node, 1, ports, 2, jb_str(&ev));
    jb_free(&ev);
  }
  free(cnt), free(paths);
  return rc;
}

/* Whole-fabric port-balance figures (for the summary). */
int eb_balance_total(const fl_view *v, int64_t tol, const uint64_t *paths,
                     pb_total *t) {
  memset(t, 0, sizeof *t);
  uint64_t *cnt = calloc(256, sizeof *cnt);
  if (!cnt)
    return -1;
  for (uint32_t s = 0; s < v->ns; s++) {
    pb_class cls[3];
    if (!balance(v, s, cnt, cls, 0, paths))
      continue;
    t->switches++;
    int bad = 0;
    for (int c = 0; c < 2; c++) {
      if (cls[c].n < 2 || !cls[c].sum)
        continue;
      t->classes++;
      t->cv_sum += cls[c].cv;
      if (cls[c].cv > t->cv_max)
        t->cv_max = cls[c].cv;
      double r = cls[c].min ? (double)cls[c].max / cls[c].min : INFINITY;
      if (r > t->worst_ratio)
        t->worst_ratio = r;
      if (cls[c].max - cls[c].min > t->worst_spread)
        t->worst_spread = cls[c].max - cls[c].min, t->worst_sw = s;
      bad |= cls[c].max - cls[c].min > (uint64_t)tol;
    }
    t->imbalanced += bad;
  }
  free(cnt);
  return 0;
}
