/*
 * fabriclint/covers.h — cover classes of a layered switch graph: the test
 * that a fabric is "nested", shared by the routing-deadlock model of the
 * core (core/analysis/updown.c) and the switch view plugins read
 * (fabriclint/view.h).
 *
 * The cover of a switch is the set of lowest-tier switches (leaves) it
 * reaches going down only. The graph is nested when every switch has a
 * known tier (at most 64 tiers), every switch-to-switch cable joins
 * adjacent tiers and is seen from both ends (none joins a switch to
 * itself), every switch but the top ones has one above it and every switch
 * but the lowest ones one below it, the switches above any one switch all
 * have one cover, switches with one cover have the same covers below them,
 * and the top tier is one cover (every leaf). Switches with one cover form
 * a class; the classes form a tree (a class's parent is the cover of the
 * switches above its members). On such a graph a shortest path from a
 * switch s to a leaf t climbs to the lowest tier at which s's ancestors
 * cover t and descends; the argument is in core/analysis/updown.h.
 *
 * Header-only (static inline), for the same reason as view.h: a plugin
 * links against nothing but libc. Compiles as C99 and C++11. No global
 * state.
 */
#ifndef FABRICLINT_COVERS_H
#define FABRICLINT_COVERS_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fabriclint/types.h"

/** fl_covers.cup value: no class above (the top class). */
#define FL_COVER_NONE 0xffffffffu

/**
 * fl_cover_graph — the switch graph fl_cover_classes() judges.
 * @n: switches, indexed 0..n-1.
 * @tier: [n] tier per switch (FL_TIER_UNKNOWN: the graph is not nested).
 * @lo/@hi: [n] switch s's channels are slots lo[s]..hi[s]-1 of @peer.
 * @peer: per slot, the switch at the other end of its cable, or negative
 *   (a CA, a router, no cable: skipped).
 * @mirrored: called as mirrored(@ctx, s, slot) for each switch-facing
 *   slot; returns 1 when the far end sees the same cable back to s at the
 *   same port (a port cabled twice is seen by one end only), else 0.
 */
typedef struct fl_cover_graph {
  uint32_t n;
  const uint32_t *tier;
  const uint32_t *lo, *hi;
  const int32_t *peer;
  int (*mirrored)(const void *ctx, uint32_t s, uint32_t slot);
  const void *ctx;
} fl_cover_graph;

/**
 * fl_covers — the cover classes of a nested graph (fl_cover_classes()).
 * @nc: classes, 0..nc-1.
 * @t0 / @levels: the lowest tier and the number of tiers; a switch's level
 *   is its tier minus @t0.
 * @cls: [n] class of each switch.
 * @cup: [n, nc used] class of the switches above a class's members,
 *   FL_COVER_NONE for the top class.
 * @clev: [n, nc used] level of each class.
 * Owned by the caller once filled: free with fl_covers_free(), or take the
 * arrays (each from malloc()).
 */
typedef struct fl_covers {
  uint32_t nc, t0, levels;
  uint32_t *cls, *cup, *clev;
} fl_covers;

/** fl_covers_free() — free @c's arrays and zero it. Safe on a zeroed one. */
static inline void fl_covers_free(fl_covers *c) {
  free(c->cls), free(c->cup), free(c->clev);
  memset(c, 0, sizeof *c);
}

/* Internal: ascending uint32 for qsort(). */
static inline int fl_cover_u32_cmp(const void *a, const void *b) {
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return x < y ? -1 : x > y;
}

/* Internal: the layering (known tiers within 64 levels; mirrored
 * adjacent-tier cables; a switch above and one below where the tiers
 * allow) into c->t0 and c->levels; 1 when layered. */
static inline int fl_cover_layered(const fl_cover_graph *g, fl_covers *c) {
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
static inline int fl_cover_class_of(const fl_cover_graph *g, fl_covers *c,
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
static inline int fl_cover_assign(const fl_cover_graph *g, fl_covers *c,
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

/**
 * fl_cover_classes() — the cover classes of @g when it is nested (see the
 * file comment). @c is overwritten. Returns 1 with @c filled (the caller
 * frees it with fl_covers_free()), 0 when @g is not nested, -1 when out of
 * memory (@c zeroed either way). Time O(slots x log(ports per switch)),
 * memory O(n + ports per switch).
 */
static inline int fl_cover_classes(const fl_cover_graph *g, fl_covers *c) {
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

#endif
