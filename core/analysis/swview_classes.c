/* SPDX-License-Identifier: MIT */
/*
 * core/analysis/swview_classes.c — the compact form of the view's minimal
 * next hops (fl_view_minimal_compact(), fl_view_dist_at(),
 * fl_view_nmin_at() of fabriclint/view.h; fl_host_api.view_minimal_compact,
 * view_dist_at, view_nmin_at, ABI 1.6): cover classes instead of the
 * destination x switch matrix where the fabric is nested.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/swview.h"
#include "fabriclint/covers.h"

/* ---- cover classes: minimal next hops without the matrix -----------------
 *
 * On a nested fabric the shortest paths have a closed form (the argument
 * is in core/analysis/updown.h, where the routing-deadlock model uses the
 * same classes, fabriclint/covers.h): every switch-to-switch cable joins
 * adjacent tiers and is seen from both ends (port for port), the
 * destination switches all sit on the lowest tier, every switch but the
 * top ones has one above it and every switch above the lowest tier one
 * below, the switches above any one switch have one cover, switches with
 * one cover have the same covers below them, and the top tier is one
 * cover (it reaches every leaf). Then
 * the shortest paths from switch s to destination switch t climb to the
 * lowest tier at which s's ancestors reach t and descend, so M(s, t) is
 * s's up-links when t is not under s, and s's down-links to the switches
 * of the class over t one level below s when it is. A full or partial fat
 * tree (parallel cables too), a rail-optimised leaf/spine plan and one
 * plane of a multi-plane fabric are nested; a missing, extra or same-tier
 * cable or a host on a spine is not. */

/* Internal: fl_cover_graph.mirrored of a view (@ctx): the cable of slot
 * @i of switch @s comes back to @s at the same port. */
static int fl_view_slot_mirrored(const void *ctx, uint32_t s, uint32_t i) {
  const fl_view *v = (const fl_view *)ctx;
  uint32_t w = v->pnb[i];
  if (v->pnum[i] > 255 || v->pnbport[i] > 255)
    return 0;
  uint32_t j = v->pslot[(size_t)w * 256 + v->pnbport[i]];
  return j != FL_VIEW_NONE && v->pnb[j] == s && v->pnbport[j] == v->pnum[i];
}

/* Internal: destination @d's class at level @l (l >= its own level 0). */
uint32_t fl_view_class_at(const fl_view *v, uint32_t d, uint32_t l) {
  uint32_t k = v->ccls[v->dsw[d]];
  while (v->clev[k] < l)
    k = v->cup[k];
  return k;
}

/* Internal: endpoints, destinations and first destinations per class. */
static void fl_view_class_sums(fl_view *v) {
  for (uint32_t k = 0; k < v->nc; k++)
    v->ceps[k] = 0, v->cnd[k] = 0, v->cfirst[k] = v->cout[k] = FL_VIEW_NONE;
  v->eps_all = 0;
  for (uint32_t d = 0; d < v->nd; d++) {
    v->eps_all += v->sw_nep[v->dsw[d]];
    for (uint32_t k = v->ccls[v->dsw[d]]; k != FL_COVER_NONE; k = v->cup[k]) {
      v->ceps[k] += v->sw_nep[v->dsw[d]];
      if (!v->cnd[k]++)
        v->cfirst[k] = d;
    }
  }
  /* the first destination not under k: the scan passes only k's own */
  for (uint32_t k = 0; k < v->nc; k++) {
    uint32_t d = 0;
    while (d < v->nd && fl_view_class_at(v, d, v->clev[k]) == k)
      d++;
    v->cout[k] = d < v->nd ? d : FL_VIEW_NONE;
  }
}

/* Internal: the classes into @v (v->nc > 0) when nested
 * (fabriclint/covers.h over the switch-facing slots, and the destination
 * switches on the lowest tier); 0 when not (v->nc = 0), -1 when out of
 * memory. */
static int fl_view_covers(fl_view *v) {
  /* switch-facing slots hold switch indexes (< ns <= INT32_MAX) */
  fl_cover_graph g = {v->ns,
                      v->tier,
                      v->poff,
                      v->psw_end,
                      (const int32_t *)v->pnb,
                      fl_view_slot_mirrored,
                      v};
  fl_covers c;
  int rc = fl_cover_classes(&g, &c);
  for (uint32_t d = 0; rc == 1 && d < v->nd; d++)
    if (v->tier[v->dsw[d]] != c.t0)
      rc = 0; /* endpoints above the lowest tier */
  if (rc != 1) {
    fl_covers_free(&c);
    return rc;
  }
  size_t n = (size_t)c.nc + 1;
  v->ccls = c.cls, v->cup = c.cup, v->clev = c.clev; /* the view's now */
  v->ceps = (uint64_t *)malloc(n * sizeof *v->ceps);
  v->cnd = (uint32_t *)malloc(n * sizeof *v->cnd);
  v->cfirst = (uint32_t *)malloc(n * sizeof *v->cfirst);
  v->cout = (uint32_t *)malloc(n * sizeof *v->cout);
  if (!v->ceps || !v->cnd || !v->cfirst || !v->cout)
    return -1; /* v->nc stays 0; fl_view_free() frees the arrays */
  v->nc = c.nc;
  fl_view_class_sums(v);
  return 1;
}

/**
 * fl_view_minimal_compact() — what fl_view_minimal() makes available,
 * without the nd x ns matrix where the fabric allows: on a nested fabric
 * (above) the cover classes are built (v->nc > 0, v->dist and v->nmin
 * stay NULL), else the matrix is (fl_view_minimal(), v->nc = 0). Read
 * either form with fl_view_dist_at(), fl_view_nmin_at() and
 * fl_view_groups(); call fl_view_rows() before reading v->dist or v->nmin
 * directly. Time O(switch slots log + nd x tiers) when nested. Returns 0,
 * or -1 when out of memory (free @v with fl_view_free()). Call once per
 * view, instead of fl_view_minimal().
 */
int fl_swview_compact(fl_view *v) {
  int rc = fl_view_covers(v);
  if (rc < 0)
    return -1;
  return rc == 1 ? 0 : fl_swview_minimal(v);
}

/**
 * fl_view_dist_at() — hops from switch @s to destination switch dsw[@d]
 * (FL_VIEW_FAR: unreachable), from the matrix or the cover classes. O(1)
 * with the matrix, O(tiers) with classes.
 */
uint32_t fl_swview_dist_at(const fl_view *v, uint32_t d, uint32_t s) {
  if (!v->nc)
    return v->dist[(size_t)d * v->ns + s];
  if (v->dsw[d] == s)
    return 0;
  uint32_t ks = v->ccls[s], ls = v->clev[ks], kd = fl_view_class_at(v, d, ls);
  uint32_t h = ls;
  while (kd != ks)
    kd = v->cup[kd], ks = v->cup[ks], h++;
  return 2 * h - ls;
}

/**
 * fl_view_nmin_at() — |M(s, d)| | FL_VIEW_MIXED of switch @s toward
 * destination switch dsw[@d] (0 when s is that switch), from the matrix or
 * the cover classes. O(1) with the matrix, O(tiers + ports of s) with
 * classes.
 */
uint16_t fl_swview_nmin_at(const fl_view *v, uint32_t d, uint32_t s) {
  if (!v->nc)
    return v->nmin[(size_t)d * v->ns + s];
  if (v->dsw[d] == s)
    return 0;
  uint32_t ls = v->clev[v->ccls[s]];
  int under = fl_view_class_at(v, d, ls) == v->ccls[s];
  uint32_t below = under ? fl_view_class_at(v, d, ls - 1) : FL_VIEW_NONE;
  uint32_t n = 0;
  float lo = 0, hi = 0;
  for (uint32_t i = v->poff[s]; i < v->psw_end[s]; i++) {
    uint32_t k = v->ccls[v->pnb[i]];
    if (under ? k != below : v->clev[k] != ls + 1)
      continue;
    fl_view_gspan((float)v->pgbps[i], &lo, &hi);
    n++;
  }
  return (uint16_t)(n | (hi > lo ? FL_VIEW_MIXED : 0));
}
