/*
 * core/analysis/updown.c — the design-mode channel dependency graph in
 * closed form on layered fabrics with nested covers (see updown.h).
 */
#include "analysis/updown.h"

#include <stdlib.h>
#include <string.h>

#include "fabriclint/types.h"

#define NO_CLASS  UINT32_MAX
#define MAX_TIERS 64u

typedef struct ud {
  const fl_updown_in *in;
  uint32_t t0, levels;
  uint32_t *by_tier; /* switches sorted by tier (counting sort) */
  uint32_t *start;   /* [levels + 1] first switch of each tier */
  uint32_t *cls;     /* [n_sw] cover class */
  uint32_t *pc;      /* [classes] the class of the switches above */
  uint32_t *n_below; /* [classes] distinct classes below (members check) */
  uint64_t *roots;   /* [classes] roots in the cover */
  uint32_t *n_dist;  /* [n_sw] distinct classes below the switch */
  uint32_t *buf;     /* one switch's ports */
  uint32_t n_cls;
} ud;

static int cmp_u32(const void *a, const void *b) {
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return x < y ? -1 : x > y;
}

static uint32_t level(const ud *u, uint32_t s) {
  return u->in->tier[s] - u->t0;
}

/* The cable of slot @i of switch @s comes back to @s at the port of slot
 * @i (its far end's first cable is this one). */
static int mirrored(const fl_updown_in *in, uint32_t s, uint32_t i) {
  uint32_t t = (uint32_t)in->peer[i], q = in->peer_port[i];
  uint32_t j = in->lo[t] + q - 1;
  return q >= 1 && j < in->hi[t] && in->peer[j] == (int32_t)s &&
         in->peer_port[j] == i - in->lo[s] + 1;
}

/* Tiers known, within MAX_TIERS levels; cables between adjacent tiers
 * only, each seen from both ends; sources on the lowest tier; every switch but
 * the top ones has one above it and every switch but the lowest one below it.
 */
static int layered(ud *u) {
  const fl_updown_in *in = u->in;
  uint32_t lo_t = UINT32_MAX, hi_t = 0;
  for (uint32_t s = 0; s < in->n_sw; s++) {
    if (in->tier[s] == FL_TIER_UNKNOWN)
      return 0;
    lo_t = in->tier[s] < lo_t ? in->tier[s] : lo_t;
    hi_t = in->tier[s] > hi_t ? in->tier[s] : hi_t;
  }
  if (hi_t - lo_t >= MAX_TIERS)
    return 0;
  u->t0 = lo_t;
  u->levels = hi_t - lo_t + 1;
  for (uint32_t s = 0; s < in->n_sw; s++) {
    uint32_t l = level(u, s), ups = 0, downs = 0;
    if (in->is_root[s] && l != 0)
      return 0;
    for (uint32_t i = in->lo[s]; i < in->hi[s]; i++) {
      if (in->peer[i] < 0)
        continue;
      uint32_t q = (uint32_t)in->peer[i];
      if (q == s || !mirrored(in, s, i))
        return 0;
      uint32_t lq = level(u, q);
      if (lq == l + 1)
        ups++;
      else if (lq + 1 == l)
        downs++;
      else
        return 0;
    }
    if ((l + 1 < u->levels && !ups) || (l > 0 && !downs))
      return 0;
  }
  return 1;
}

static void sort_by_tier(ud *u) {
  const fl_updown_in *in = u->in;
  memset(u->start, 0, (u->levels + 1) * sizeof *u->start);
  for (uint32_t s = 0; s < in->n_sw; s++)
    u->start[level(u, s) + 1]++;
  for (uint32_t l = 0; l < u->levels; l++)
    u->start[l + 1] += u->start[l];
  uint32_t fill[MAX_TIERS];
  memcpy(fill, u->start, u->levels * sizeof *fill);
  for (uint32_t s = 0; s < in->n_sw; s++)
    u->by_tier[fill[level(u, s)]++] = s;
}

/* Distinct classes of the switches below @x (tier @l) into u->buf. */
static uint32_t classes_below(ud *u, uint32_t x, uint32_t l) {
  const fl_updown_in *in = u->in;
  uint32_t n = 0;
  for (uint32_t i = in->lo[x]; i < in->hi[x]; i++)
    if (in->peer[i] >= 0 && level(u, (uint32_t)in->peer[i]) + 1 == l)
      u->buf[n++] = u->cls[in->peer[i]];
  qsort(u->buf, n, sizeof *u->buf, cmp_u32);
  uint32_t d = 0;
  for (uint32_t i = 0; i < n; i++)
    if (!d || u->buf[d - 1] != u->buf[i])
      u->buf[d++] = u->buf[i];
  return d;
}

/* Class of switch @x from the classes below it: the one those classes
 * already belong to, else a new one. 0 when two disagree (covers that
 * overlap without being equal). */
static int assign_class(ud *u, uint32_t x, uint32_t l) {
  uint32_t d = classes_below(u, x, l), c = NO_CLASS;
  for (uint32_t i = 0; i < d; i++) {
    uint32_t p = u->pc[u->buf[i]];
    if (p != NO_CLASS && c != NO_CLASS && p != c)
      return 0;
    if (p != NO_CLASS)
      c = p;
  }
  if (c == NO_CLASS) {
    c = u->n_cls++;
    u->pc[c] = NO_CLASS;
    u->n_below[c] = 0;
    u->roots[c] = 0;
  }
  for (uint32_t i = 0; i < d; i++)
    if (u->pc[u->buf[i]] == NO_CLASS) {
      u->pc[u->buf[i]] = c;
      u->n_below[c]++;
      u->roots[c] += u->roots[u->buf[i]];
    }
  u->cls[x] = c;
  u->n_dist[x] = d;
  return 1;
}

/* Cover classes, lowest tier first. 0 when they do not form a tree or the
 * top tier is more than one class. */
static int cover_classes(ud *u) {
  const fl_updown_in *in = u->in;
  for (uint32_t k = u->start[0]; k < u->start[1]; k++) {
    uint32_t s = u->by_tier[k], c = u->n_cls++;
    u->cls[s] = c;
    u->pc[c] = NO_CLASS;
    u->n_below[c] = 0;
    u->roots[c] = in->is_root[s] != 0;
  }
  for (uint32_t l = 1; l < u->levels; l++) {
    for (uint32_t k = u->start[l]; k < u->start[l + 1]; k++)
      if (!assign_class(u, u->by_tier[k], l))
        return 0;
    /* every member of a class has all the classes below it */
    for (uint32_t k = u->start[l]; k < u->start[l + 1]; k++) {
      uint32_t x = u->by_tier[k];
      if (u->n_dist[x] != u->n_below[u->cls[x]])
        return 0;
    }
  }
  uint32_t top = u->cls[u->by_tier[u->start[u->levels - 1]]];
  for (uint32_t k = u->start[u->levels - 1]; k < u->start[u->levels]; k++)
    if (u->cls[u->by_tier[k]] != top)
      return 0;
  return 1;
}

/* The turns at switch @t (updown.h) added to @out. */
static void count_at(ud *u, uint32_t t, uint64_t all_roots,
                     fl_updown_counts *out) {
  const fl_updown_in *in = u->in;
  uint32_t l = level(u, t), up = 0, n = 0;
  if (l == 0)
    return;
  for (uint32_t i = in->lo[t]; i < in->hi[t]; i++) {
    if (in->peer[i] < 0)
      continue;
    uint32_t q = (uint32_t)in->peer[i];
    if (level(u, q) == l + 1)
      up++;
    else if (u->roots[u->cls[q]])
      u->buf[n++] = u->cls[q];
  }
  int outside = u->roots[u->cls[t]] < all_roots;
  qsort(u->buf, n, sizeof *u->buf, cmp_u32);
  uint64_t sq = 0;
  for (uint32_t i = 0, j; i < n; i = j) {
    for (j = i; j < n && u->buf[j] == u->buf[i]; j++)
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

static void ud_free(ud *u) {
  free(u->by_tier), free(u->start), free(u->cls), free(u->pc);
  free(u->n_below), free(u->roots), free(u->n_dist), free(u->buf);
}

int fl_updown_count(const fl_updown_in *in, fl_updown_counts *out) {
  memset(out, 0, sizeof *out);
  if (!in->n_sw)
    return 0;
  ud u;
  memset(&u, 0, sizeof u);
  u.in = in;
  if (!layered(&u))
    return 0;
  size_t n = (size_t)in->n_sw + 1;
  uint32_t max_deg = 1;
  for (uint32_t s = 0; s < in->n_sw; s++)
    if (in->hi[s] - in->lo[s] > max_deg)
      max_deg = in->hi[s] - in->lo[s];
  u.by_tier = malloc(n * sizeof *u.by_tier);
  u.start = malloc((MAX_TIERS + 1) * sizeof *u.start);
  u.cls = malloc(n * sizeof *u.cls);
  u.pc = malloc(n * sizeof *u.pc);
  u.n_below = malloc(n * sizeof *u.n_below);
  u.roots = malloc(n * sizeof *u.roots);
  u.n_dist = calloc(n, sizeof *u.n_dist);
  u.buf = malloc(max_deg * sizeof *u.buf);
  if (!u.by_tier || !u.start || !u.cls || !u.pc || !u.n_below || !u.roots ||
      !u.n_dist || !u.buf) {
    ud_free(&u);
    return -1;
  }
  sort_by_tier(&u);
  int ok = cover_classes(&u);
  uint64_t all_roots = 0;
  for (uint32_t s = 0; ok && s < in->n_sw; s++)
    all_roots += in->is_root[s] != 0;
  for (uint32_t s = 0; ok && s < in->n_sw; s++)
    count_at(&u, s, all_roots, out);
  if (ok)
    out->roots = (uint32_t)all_roots;
  else
    memset(out, 0, sizeof *out);
  ud_free(&u);
  return ok;
}
