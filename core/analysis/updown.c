/* SPDX-License-Identifier: MIT */
/*
 * core/analysis/updown.c — the design-mode channel dependency graph in
 * closed form on layered fabrics with nested covers (see updown.h).
 */
#include "analysis/updown.h"

#include <stdlib.h>
#include <string.h>

#include "fabriclint/covers.h"

/* fl_cover_graph.mirrored over the input (@ctx): the cable of slot @i of
 * switch @s comes back to @s at the port of slot @i (its far end's first
 * cable is this one). */
static int mirrored(const void *ctx, uint32_t s, uint32_t i) {
  const fl_updown_in *in = (const fl_updown_in *)ctx;
  uint32_t t = (uint32_t)in->peer[i], q = in->peer_port[i];
  uint32_t j = in->lo[t] + q - 1;
  return q >= 1 && j < in->hi[t] && in->peer[j] == (int32_t)s &&
         in->peer_port[j] == i - in->lo[s] + 1;
}

static int cmp_u32(const void *a, const void *b) {
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return x < y ? -1 : x > y;
}

/* Roots under each class ([c->nc]): each root adds itself to its class and
 * every class above. */
static void roots_per_class(const fl_updown_in *in, const fl_covers *c,
                            uint64_t *roots) {
  memset(roots, 0, (size_t)c->nc * sizeof *roots);
  for (uint32_t s = 0; s < in->n_sw; s++)
    for (uint32_t k = in->is_root[s] ? c->cls[s] : FL_COVER_NONE;
         k != FL_COVER_NONE; k = c->cup[k])
      roots[k]++;
}

/* The turns at switch @t (updown.h) added to @out; @buf has room for its
 * ports. */
static void count_at(const fl_updown_in *in, const fl_covers *c,
                     const uint64_t *roots, uint64_t all_roots, uint32_t t,
                     uint32_t *buf, fl_updown_counts *out) {
  uint32_t l = in->tier[t] - c->t0, up = 0, n = 0;
  if (l == 0)
    return;
  for (uint32_t i = in->lo[t]; i < in->hi[t]; i++) {
    if (in->peer[i] < 0)
      continue;
    uint32_t q = (uint32_t)in->peer[i];
    if (in->tier[q] == in->tier[t] + 1)
      up++;
    else if (roots[c->cls[q]])
      buf[n++] = c->cls[q];
  }
  int outside = roots[c->cls[t]] < all_roots;
  qsort(buf, n, sizeof *buf, cmp_u32);
  uint64_t sq = 0;
  for (uint32_t i = 0, j; i < n; i = j) {
    for (j = i; j < n && buf[j] == buf[i]; j++)
      ;
    uint64_t m = j - i;
    sq += m * m;
    /* a child port turns into another class's child, or up */
    if ((outside && up) || m < n)
      out->channels += (uint32_t)m;
  }
  out->dependencies += (uint64_t)n * n - sq;
  if (outside) {
    out->dependencies += 2ull * n * up;
    if (n)
      out->channels += up;
  }
}

/* The counts over every switch of nested @in with classes @c; 0, or -1
 * out of memory. */
static int count_all(const fl_updown_in *in, const fl_covers *c,
                     fl_updown_counts *out) {
  uint32_t max_deg = 1;
  for (uint32_t s = 0; s < in->n_sw; s++)
    if (in->hi[s] - in->lo[s] > max_deg)
      max_deg = in->hi[s] - in->lo[s];
  uint64_t *roots = malloc(((size_t)c->nc + 1) * sizeof *roots);
  uint32_t *buf = malloc(max_deg * sizeof *buf);
  if (!roots || !buf) {
    free(roots), free(buf);
    return -1;
  }
  roots_per_class(in, c, roots);
  uint64_t all_roots = 0;
  for (uint32_t s = 0; s < in->n_sw; s++)
    all_roots += in->is_root[s] != 0;
  for (uint32_t s = 0; s < in->n_sw; s++)
    count_at(in, c, roots, all_roots, s, buf, out);
  out->roots = (uint32_t)all_roots;
  free(roots), free(buf);
  return 0;
}

int fl_updown_count(const fl_updown_in *in, fl_updown_counts *out) {
  memset(out, 0, sizeof *out);
  fl_cover_graph g = {in->n_sw, in->tier, in->lo, in->hi,
                      in->peer, mirrored, in};
  fl_covers c;
  int rc = fl_cover_classes(&g, &c);
  /* sources only on the lowest tier */
  for (uint32_t s = 0; rc == 1 && s < in->n_sw; s++)
    if (in->is_root[s] && in->tier[s] != c.t0)
      rc = 0;
  if (rc == 1 && count_all(in, &c, out) != 0)
    rc = -1;
  if (rc != 1)
    memset(out, 0, sizeof *out);
  fl_covers_free(&c);
  return rc;
}
