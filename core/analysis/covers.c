/* SPDX-License-Identifier: MIT */
/*
 * core/analysis/covers.c — fl_cover_classes() and fl_covers_free() of
 * fabriclint/covers.h: the test that a layered switch graph is nested and
 * its cover classes. One copy, in the core: the routing-deadlock model
 * (core/analysis/updown.c) and the switch view (swview_classes.c) call it,
 * plugins through fl_host_api.cover_classes (ABI 1.6).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fabriclint/covers.h"

void fl_covers_free(fl_covers *c) {
  free(c->cls), free(c->cup), free(c->clev);
  memset(c, 0, sizeof *c);
}

/* Internal: ascending uint32 for qsort(). */
static int fl_cover_u32_cmp(const void *a, const void *b) {
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return x < y ? -1 : x > y;
}

/* Internal: the layering (known tiers within 64 levels; mirrored
 * adjacent-tier cables; a switch above and one below where the tiers
 * allow) into c->t0 and c->levels; 1 when layered. */
static int fl_cover_layered(const fl_cover_graph *g, fl_covers *c) {
  uint32_t lo = UINT32_MAX, hi = 0;
  for (uint32_t s = 0; s < g->n; s++) {
    if (g->tier[s] == FL_TIER_UNKNOWN)
      return 0;
    lo = g->tier[s] < lo ? g->tier[s] : lo;
    hi = g->tier[s] > hi ? g->tier[s] : hi;
  }
  if (!g->n || hi - lo >= 64)
    return 0;
  c->t0 = lo, c->levels = hi - lo + 1;
  for (uint32_t s = 0; s < g->n; s++) {
    uint32_t l = g->tier[s] - lo, ups = 0, downs = 0;
    for (uint32_t i = g->lo[s]; i < g->hi[s]; i++) {
      if (g->peer[i] < 0)
        continue;
      uint32_t w = (uint32_t)g->peer[i];
      if (w == s || !g->mirrored(g->ctx, s, i))
        return 0;
      if (g->tier[w] == g->tier[s] + 1)
        ups++;
      else if (g->tier[w] + 1 == g->tier[s])
        downs++;
      else
        return 0;
    }
    if ((l + 1 < c->levels && !ups) || (l && !downs))
      return 0;
  }
  return 1;
}

/* Internal: scratch of the class assignment. */
typedef struct fl_cover_work {
  uint32_t *order, *start; /* switches by level; [levels + 1] starts */
  uint32_t *buf, *ndist;   /* one switch's classes; [n] distinct below */
  uint32_t *nbelow;        /* [nc] classes below a class */
} fl_cover_work;

/* Internal: class of switch @x (level @l >= 1) from the distinct classes
 * of the switches below it; 0 when two of them belong to different
 * classes above (covers that overlap without being equal). */
static int fl_cover_class_of(const fl_cover_graph *g, fl_covers *c,
                             fl_cover_work *w, uint32_t x, uint32_t l) {
  uint32_t n = 0, d = 0, k = FL_COVER_NONE;
  for (uint32_t i = g->lo[x]; i < g->hi[x]; i++)
    if (g->peer[i] >= 0 && g->tier[(uint32_t)g->peer[i]] - c->t0 + 1 == l)
      w->buf[n++] = c->cls[(uint32_t)g->peer[i]];
  qsort(w->buf, n, sizeof *w->buf, fl_cover_u32_cmp);
  for (uint32_t i = 0; i < n; i++)
    if (!d || w->buf[d - 1] != w->buf[i])
      w->buf[d++] = w->buf[i];
  for (uint32_t i = 0; i < d; i++) {
    uint32_t p = c->cup[w->buf[i]];
    if (p != FL_COVER_NONE && k != FL_COVER_NONE && p != k)
      return 0;
    k = p != FL_COVER_NONE ? p : k;
  }
  if (k == FL_COVER_NONE) {
    k = c->nc++;
    c->cup[k] = FL_COVER_NONE, c->clev[k] = l, w->nbelow[k] = 0;
  }
  for (uint32_t i = 0; i < d; i++)
    if (c->cup[w->buf[i]] == FL_COVER_NONE)
      c->cup[w->buf[i]] = k, w->nbelow[k]++;
  c->cls[x] = k;
  w->ndist[x] = d;
  return 1;
}

/* Internal: the classes, lowest level first; 1 when nested. */
static int fl_cover_assign(const fl_cover_graph *g, fl_covers *c,
                           fl_cover_work *w) {
  uint32_t levels = c->levels, fill[64];
  memset(w->start, 0, (levels + 1) * sizeof *w->start);
  for (uint32_t s = 0; s < g->n; s++)
    w->start[g->tier[s] - c->t0 + 1]++;
  for (uint32_t l = 0; l < levels; l++)
    w->start[l + 1] += w->start[l];
  memcpy(fill, w->start, levels * sizeof *fill);
  for (uint32_t s = 0; s < g->n; s++)
    w->order[fill[g->tier[s] - c->t0]++] = s;
  for (uint32_t k = w->start[0]; k < w->start[1]; k++) {
    uint32_t x = c->nc++;
    c->cls[w->order[k]] = x;
    c->cup[x] = FL_COVER_NONE, c->clev[x] = 0, w->nbelow[x] = 0;
  }
  for (uint32_t l = 1; l < levels; l++) {
    for (uint32_t k = w->start[l]; k < w->start[l + 1]; k++)
      if (!fl_cover_class_of(g, c, w, w->order[k], l))
        return 0;
    for (uint32_t k = w->start[l]; k < w->start[l + 1]; k++)
      if (w->ndist[w->order[k]] != w->nbelow[c->cls[w->order[k]]])
        return 0; /* a member lacks some class below: covers differ */
  }
  for (uint32_t k = w->start[levels - 1]; k < w->start[levels]; k++)
    if (c->cls[w->order[k]] != c->cls[w->order[w->start[levels - 1]]])
      return 0;
  return 1;
}

int fl_cover_classes(const fl_cover_graph *g, fl_covers *c) {
  memset(c, 0, sizeof *c);
  if (!fl_cover_layered(g, c))
    return 0;
  uint32_t maxdeg = 1;
  for (uint32_t s = 0; s < g->n; s++)
    if (g->hi[s] - g->lo[s] > maxdeg)
      maxdeg = g->hi[s] - g->lo[s];
  size_t n = (size_t)g->n + 1;
  fl_cover_work w;
  w.order = (uint32_t *)malloc(n * sizeof *w.order);
  w.start = (uint32_t *)malloc(65 * sizeof *w.start);
  w.buf = (uint32_t *)malloc((size_t)maxdeg * sizeof *w.buf);
  w.ndist = (uint32_t *)calloc(n, sizeof *w.ndist);
  w.nbelow = (uint32_t *)malloc(n * sizeof *w.nbelow);
  c->cls = (uint32_t *)malloc(n * sizeof *c->cls);
  c->cup = (uint32_t *)malloc(n * sizeof *c->cup);
  c->clev = (uint32_t *)malloc(n * sizeof *c->clev);
  int rc = w.order && w.start && w.buf && w.ndist && w.nbelow && c->cls &&
                   c->cup && c->clev
               ? fl_cover_assign(g, c, &w)
               : -1;
  free(w.order), free(w.start), free(w.buf), free(w.ndist), free(w.nbelow);
  if (rc != 1)
    fl_covers_free(c);
  return rc;
}
