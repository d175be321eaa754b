/* SPDX-License-Identifier: MIT */
/*
 * core/model/portdir.c — see portdir.h.
 */
#include "model/portdir.h"

#include <stdlib.h>
#include <string.h>

#include "model/grow.h"

static uint64_t big_key(uint32_t node, uint32_t num) {
  return ((uint64_t)node << 32) | num;
}

uint32_t fl_portdir_get(const fl_portdir *d, uint32_t node, uint32_t num) {
  if (num >= FL_PORTDIR_DIRECT)
    return fl_u64map_get(&d->big, big_key(node, num));
  if (node >= d->n_nodes || num >= d->width[node])
    return FL_MAP_ABSENT;
  return d->pool[d->off[node] + num];
}

/* Room for nodes 0..@node in the per-node arrays (new ones without a
 * table). 0, or -1 when out of memory. */
static int have_node(fl_portdir *d, uint32_t node) {
  if (node < d->n_nodes)
    return 0;
  size_t n = (size_t)node + 1, cap = d->n_nodes;
  /* both arrays grow to the same capacity: realloc each to n doubled */
  size_t nc = cap ? cap : 64;
  while (nc < n)
    nc *= 2;
  uint32_t *off =
      fl_big_realloc(d->off, d->n_nodes * sizeof *off, nc * sizeof *off);
  if (!off)
    return -1;
  d->off = off;
  uint16_t *w =
      fl_big_realloc(d->width, d->n_nodes * sizeof *w, nc * sizeof *w);
  if (!w)
    return -1;
  d->width = w;
  memset(d->width + d->n_nodes, 0, (nc - d->n_nodes) * sizeof *w);
  d->n_nodes = nc;
  return 0;
}

/* Give @node a table of at least @need entries (copying the old one; its
 * space in the pool is left unused). 0, or -1 when out of memory. */
static int widen(fl_portdir *d, uint32_t node, uint32_t need, uint32_t hint) {
  uint32_t old = d->width[node], nw = old ? 2 * old : 4;
  if (!old && hint >= nw)
    nw = hint >= FL_PORTDIR_DIRECT ? FL_PORTDIR_DIRECT : hint + 1;
  if (nw < need)
    nw = need;
  if (nw > FL_PORTDIR_DIRECT)
    nw = FL_PORTDIR_DIRECT;
  if (d->n_pool + nw > UINT32_MAX ||
      fl_grow((void **)&d->pool, &d->cap_pool, d->n_pool + nw,
              sizeof *d->pool) != 0)
    return -1;
  uint32_t *t = d->pool + d->n_pool;
  if (old)
    memcpy(t, d->pool + d->off[node], old * sizeof *t);
  memset(t + old, 0xff, (nw - old) * sizeof *t); /* FL_MAP_ABSENT */
  d->off[node] = (uint32_t)d->n_pool;
  d->width[node] = (uint16_t)nw;
  d->n_pool += nw;
  return 0;
}

uint32_t fl_portdir_put(fl_portdir *d, uint32_t node, uint32_t num,
                        uint32_t val, uint32_t hint) {
  if (num >= FL_PORTDIR_DIRECT)
    return fl_u64map_put(&d->big, big_key(node, num), val);
  if (have_node(d, node) != 0 ||
      (num >= d->width[node] && widen(d, node, num + 1, hint) != 0))
    return FL_MAP_ABSENT;
  uint32_t *e = &d->pool[d->off[node] + num];
  if (*e == FL_MAP_ABSENT)
    *e = val;
  return *e;
}

void fl_portdir_free(fl_portdir *d) {
  free(d->off);
  free(d->width);
  free(d->pool);
  fl_u64map_free(&d->big);
  memset(d, 0, sizeof *d);
}
