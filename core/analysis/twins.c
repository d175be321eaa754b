/* SPDX-License-Identifier: MIT */
/*
 * core/analysis/twins.c — twin destination switches (see twins.h).
 */
#include "analysis/twins.h"

#include <stdlib.h>
#include <string.h>

#include "model/hashmap.h"
#include "util/hash.h"

static int cmp_u32(const void *a, const void *b) {
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return x < y ? -1 : x > y;
}

/* Switch s's neighbour switches, sorted, into @nb; their number, or -1
 * when s is not a candidate (cabled to itself, or a neighbour of its own
 * rank while !@same_rank_ok). */
static int64_t neighbours(uint32_t s, const uint32_t *lo, const uint32_t *hi,
                          const int32_t *peer, const uint32_t *rank,
                          int same_rank_ok, uint32_t *nb) {
  uint32_t n = 0;
  for (uint32_t i = lo[s]; i < hi[s]; i++) {
    if (peer[i] < 0)
      continue;
    uint32_t q = (uint32_t)peer[i];
    if (q == s || (!same_rank_ok && rank[q] == rank[s]))
      return -1;
    nb[n++] = q;
  }
  qsort(nb, n, sizeof *nb, cmp_u32);
  return n;
}

static uint64_t list_hash(const uint32_t *nb, uint32_t n, uint32_t rank) {
  uint64_t h = FL_FNV64_BASIS ^ ((uint64_t)rank << 32) ^ n;
  for (uint32_t i = 0; i < n; i++) {
    h = fl_fnv64_step(h, nb[i]);
    h ^= h >> 29;
  }
  return h;
}

void fl_twins_free(fl_twins *t) {
  free(t->rep);
  free(t->store);
  memset(t, 0, sizeof *t);
}

int fl_twins_find(fl_twins *t, uint32_t n, const uint32_t *lo,
                  const uint32_t *hi, const int32_t *peer, const uint32_t *rank,
                  const uint8_t *cand, int same_rank_ok, uint32_t max_store) {
  memset(t, 0, sizeof *t);
  size_t slots = 0;
  for (uint32_t s = 0; s < n; s++)
    if (cand[s])
      slots += hi[s] - lo[s];
  t->rep = malloc(((size_t)n + 1) * sizeof *t->rep);
  t->store = malloc(((size_t)n + 1) * sizeof *t->store);
  uint32_t *nb = malloc((slots + 1) * sizeof *nb);
  size_t *off = malloc(((size_t)n + 1) * sizeof *off);
  uint32_t *len = malloc(((size_t)n + 1) * sizeof *len);
  uint32_t *count = calloc((size_t)n + 1, sizeof *count);
  fl_u64map first = {0};
  int rc = t->rep && t->store && nb && off && len && count ? 0 : -1;
  size_t used = 0;
  for (uint32_t s = 0; rc == 0 && s < n; s++) {
    t->rep[s] = s;
    t->store[s] = FL_TWIN_NONE;
    int64_t k = cand[s]
                    ? neighbours(s, lo, hi, peer, rank, same_rank_ok, nb + used)
                    : -1;
    if (k < 0)
      continue;
    off[s] = used, len[s] = (uint32_t)k;
    uint64_t h = list_hash(nb + used, (uint32_t)k, rank[s]);
    uint32_t a = fl_u64map_put(&first, h, s);
    if (a == FL_MAP_ABSENT) {
      rc = -1;
      break;
    }
    used += (size_t)k;
    if (a != s && rank[a] == rank[s] && len[a] == (uint32_t)k &&
        memcmp(nb + off[a], nb + off[s], (size_t)k * sizeof *nb) == 0)
      t->rep[s] = a; /* else a hash collision: s stays alone */
    count[t->rep[s]]++;
  }
  for (uint32_t s = 0; rc == 0 && s < n; s++)
    if (t->rep[s] == s && count[s] >= 2 && t->n_store < max_store)
      t->store[s] = t->n_store++;
  fl_u64map_free(&first);
  free(nb), free(off), free(len), free(count);
  if (rc != 0)
    fl_twins_free(t);
  return rc;
}
