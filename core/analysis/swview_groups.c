/* SPDX-License-Identifier: MIT */
/*
 * core/analysis/swview_groups.c — fl_view_groups() of fabriclint/view.h
 * (fl_host_api.view_groups, ABI 1.6): the destinations a switch reaches
 * through the same minimal next hops, from the cover classes.
 */
#include <stdint.h>
#include <stdlib.h>

#include "analysis/swview.h"

/* Internal: group order for qsort(): by class (merge), by first_d. */
static int fl_view_group_cls_cmp(const void *a, const void *b) {
  const fl_view_group *x = (const fl_view_group *)a,
                      *y = (const fl_view_group *)b;
  return x->cls < y->cls ? -1 : x->cls > y->cls;
}
static int fl_view_group_first_cmp(const void *a, const void *b) {
  const fl_view_group *x = (const fl_view_group *)a,
                      *y = (const fl_view_group *)b;
  return x->first_d < y->first_d ? -1 : x->first_d > y->first_d;
}

/**
 * fl_view_groups() — the destinations other than s itself, in groups of
 * equal minimal next hops from switch @s, in ascending @first_d (so the
 * first destination in index order with a property is the @first_d of the
 * first group with it). Needs cover classes (v->nc > 0). @g has room for
 * psw_end[s] - poff[s] + 1 entries; returns how many were written. A rule
 * summing over (switch, destination) pairs sums over groups instead:
 * O(ports of s log) per switch, with no matrix.
 */
uint32_t fl_swview_groups(const fl_view *v, uint32_t s, fl_view_group *g) {
  uint32_t ks = v->ccls[s], ls = v->clev[ks], n = 0, up = 0;
  float ulo = 0, uhi = 0;
  for (uint32_t i = v->poff[s]; i < v->psw_end[s]; i++) {
    uint32_t k = v->ccls[v->pnb[i]];
    float gb = (float)v->pgbps[i];
    if (v->clev[k] == ls + 1) {
      fl_view_gspan(gb, &ulo, &uhi);
      up++;
    } else if (v->cnd[k]) {
      g[n].cls = k, g[n].gmin = g[n].gmax = 0, g[n].nmin = 1;
      fl_view_gspan(gb, &g[n].gmin, &g[n].gmax);
      n++;
    }
  }
  qsort(g, n, sizeof *g, fl_view_group_cls_cmp);
  uint32_t m = 0;
  for (uint32_t i = 0; i < n; i++) {
    if (m && g[m - 1].cls == g[i].cls) {
      fl_view_group *a = &g[m - 1];
      a->nmin++;
      fl_view_gspan(g[i].gmin, &a->gmin, &a->gmax);
      fl_view_gspan(g[i].gmax, &a->gmin, &a->gmax);
      continue;
    }
    g[m] = g[i];
    g[m].first_d = v->cfirst[g[i].cls], g[m].n_dest = v->cnd[g[i].cls];
    g[m].eps = v->ceps[g[i].cls], g[m].dir = -1;
    m++;
  }
  for (uint32_t i = 0; i < m; i++)
    if (g[i].gmax > g[i].gmin)
      g[i].nmin |= FL_VIEW_MIXED;
  if (v->nd > v->cnd[ks]) {
    fl_view_group *o = &g[m++];
    o->first_d = v->cout[ks], o->n_dest = v->nd - v->cnd[ks];
    o->eps = v->eps_all - v->ceps[ks], o->cls = FL_VIEW_NONE;
    o->nmin = (uint16_t)(up | (uhi > ulo ? FL_VIEW_MIXED : 0));
    o->dir = 1, o->gmin = ulo, o->gmax = uhi;
  }
  qsort(g, m, sizeof *g, fl_view_group_first_cmp);
  return m;
}
