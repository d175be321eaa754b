/* SPDX-License-Identifier: MIT */
/*
 * plugins/rail-alignment/rail_naming.c — rails by cabling when hosts name
 * their NICs differently (device mode).
 *
 * In device mode a NIC's rail is its device name. Two OS images may name
 * the same slots differently (one `mlx5_0/3/5/8`, another `mlx5_0/1/4/5`:
 * NVIDIA/nccl#1277), or some hosts use another scheme (`mlx5_5` among
 * `HCA-N`); judged by name, a correctly cabled fabric then gets cross-rail
 * errors. Here the name is only the tie-breaker:
 *  1. hosts are grouped by their naming: the set of their compute NICs'
 *     names ("mlx5_0/mlx5_1/mlx5_4/mlx5_5"); the largest group (ties: the
 *     naturally smallest naming) is the reference, its names are the rails;
 *  2. leaf rails are taken from the reference group's NICs alone (strict
 *     majority, or the leaf's `rail` attribute);
 *  3. a group whose names are not all the reference's (a host missing a
 *     NIC is a subset: its names are trusted) maps each of its names to the
 *     rail of the leaves its cables land on, when at least MIN_AGREE of its
 *     hosts agree and they are a strict majority, and the mapping is one to
 *     one and covers all its names; else its names stay (and NICs of a
 *     foreign scheme stay unresolved, unless the group (at least MIN_AGREE
 *     hosts) has leaves of its own, each receiving one of its names only:
 *     an SU of another OS image, whose names are then its rails);
 *  4. leaf rails are recomputed with every NIC.
 * A host cabled unlike the rest of its group (a real swap) stays visible:
 * the group's majority, not the host, sets the mapping. Unless the host's
 * own names explain its cabling (own_reading()): hosts with one set of
 * names may number the same slots differently (a real NDR fabric: two
 * hosts named HCA-1..8 put HCA-3 on rail HCA-5, a third put it on rail
 * HCA-3 like the 29 reference hosts); a host whose NICs land one on each
 * rail leaf, whose NICs named like rails all land on those rails, and
 * which so contradicts the mapping on at least NAMES_AGREE such NICs, is
 * read by its names (its other NICs by their leaves), not by the mapping. A
 * mapping backed by fewer than STRONG_HOSTS hosts or by less than two thirds of
 * the group's cables is weak: the rules then report at most a warning, without
 * a physical fix. One info line says what was assumed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabriclint/plugin.h"
#include "names.h"
#include "rail.h"

#define MIN_AGREE    2 /* hosts of a group that must agree on a mapping */
#define STRONG_HOSTS 3 /* below: the mapping is weak */
#define NAMES_AGREE  2 /* NICs of a host whose names beat the mapping */

typedef struct vote {
  uint32_t group, named, rail;
} vote;

static int cmp_vote(const void *x, const void *y) {
  const vote *a = x, *b = y;
  if (a->group != b->group)
    return a->group < b->group ? -1 : 1;
  if (a->named != b->named)
    return a->named < b->named ? -1 : 1;
  return a->rail < b->rail ? -1 : a->rail > b->rail;
}

/* One mapping of a group's name to a rail, with its support. */
typedef struct tmap {
  uint32_t group, named, rail, best, total;
} tmap;

typedef struct work {
  uint32_t *off, *idx; /* compute NICs by host (CSR) */
  int32_t *hg;         /* host -> naming group, -1: not grouped */
  uint32_t *gc;        /* hosts per group */
  uint8_t *tr;         /* group needs translating */
  uint8_t *voted;      /* a cable of the group lands on a leaf of known rail */
  uint8_t *own;        /* unvoted group with leaves of its own, cabled alike */
  uint8_t *in_ref;     /* label -> a name of the reference group */
  uint8_t *kept;       /* host -> read by its own names (own_reading()) */
  tmap *map;
  uint32_t n_map;
} work;

static void work_free(work *w) {
  free(w->off), free(w->idx), free(w->hg), free(w->gc), free(w->tr);
  free(w->voted), free(w->own), free(w->in_ref), free(w->kept);
  free(w->map);
}

static int is_grouped(const nic *x) {
  return x->host >= 0 && x->rail >= 0;
}

/* Compute NICs by host; hosts with a NIC of explicit rail are not grouped. */
static int by_host(analysis *a, work *w) {
  w->off = calloc((size_t)a->n_hosts + 2, sizeof *w->off);
  w->idx = malloc(((size_t)a->n_nics + 1) * sizeof *w->idx);
  w->hg = malloc(((size_t)a->n_hosts + 1) * sizeof *w->hg);
  if (!w->off || !w->idx || !w->hg)
    return -1;
  for (uint32_t h = 0; h < a->n_hosts; h++)
    w->hg[h] = 0;
  for (uint32_t i = 0; i < a->n_nics; i++)
    if (is_grouped(&a->nics[i])) {
      w->off[a->nics[i].host + 2]++;
      if (a->nics[i].rail_attr)
        w->hg[a->nics[i].host] = -1;
    }
  for (uint32_t h = 0; h < a->n_hosts; h++)
    w->off[h + 2] += w->off[h + 1];
  for (uint32_t i = 0; i < a->n_nics; i++)
    if (is_grouped(&a->nics[i]))
      w->idx[w->off[a->nics[i].host + 1]++] = i;
  return 0;
}

/* The naming of host @h: its NICs' labels in label order, '/'-joined.
 * 0, or -1 when it does not fit @size (the host is then not grouped). */
static int signature(const analysis *a, const work *w, uint32_t h, char *buf,
                     size_t size) {
  uint32_t n = w->off[h + 1] - w->off[h];
  int32_t r[64];
  if (n == 0 || n > 64)
    return -1;
  for (uint32_t k = 0; k < n; k++) {
    int32_t v = a->nics[w->idx[w->off[h] + k]].rail;
    uint32_t j = k;
    for (; j > 0 && r[j - 1] > v; j--)
      r[j] = r[j - 1];
    r[j] = v;
  }
  size_t len = 0;
  buf[0] = '\0';
  for (uint32_t k = 0; k < n; k++) {
    int m =
        snprintf(buf + len, size - len, "%s%s", k ? "/" : "", a->labels[r[k]]);
    if (m < 0 || (size_t)m >= size - len)
      return -1;
    len += (size_t)m;
  }
  return 0;
}

/* Group hosts by naming; returns the reference group, or -1 (no group). */
static int32_t make_groups(analysis *a, work *w) {
  uint32_t cap = 0;
  rn_set hs = {0};
  char sig[1024];
  int32_t ref = -1;
  for (uint32_t h = 0; h < a->n_hosts; h++) {
    if (w->hg[h] < 0 || signature(a, w, h, sig, sizeof sig) != 0) {
      w->hg[h] = -1;
      continue;
    }
    if (rn_add_unique(&a->groups, &a->n_groups, &cap, &hs, sig) != 0) {
      rn_set_free(&hs);
      return -2;
    }
    w->hg[h] = (int32_t)(*rn_set_find(&hs, a->groups, sig) - 1);
  }
  rn_set_free(&hs);
  w->gc = calloc((size_t)a->n_groups + 1, sizeof *w->gc);
  w->tr = calloc((size_t)a->n_groups + 1, 1);
  w->voted = calloc((size_t)a->n_groups + 1, 1);
  if (!w->gc || !w->tr || !w->voted)
    return -2;
  for (uint32_t h = 0; h < a->n_hosts; h++)
    if (w->hg[h] >= 0)
      w->gc[w->hg[h]]++;
  for (uint32_t g = 0; g < a->n_groups; g++)
    if (ref < 0 || w->gc[g] > w->gc[ref] ||
        (w->gc[g] == w->gc[ref] && fl_natcmp(a->groups[g], a->groups[ref]) < 0))
      ref = (int32_t)g;
  return ref;
}

/* Flag the groups with a name the reference group does not use. */
static int flag_foreign_groups(const analysis *a, work *w, int32_t ref) {
  uint8_t *in = w->in_ref = calloc((size_t)a->n_labels + 1, 1);
  if (!in)
    return -1;
  for (uint32_t i = 0; i < a->n_nics; i++)
    if (is_grouped(&a->nics[i]) && w->hg[a->nics[i].host] == ref)
      in[a->nics[i].rail] = 1;
  for (uint32_t i = 0; i < a->n_nics; i++) {
    const nic *x = &a->nics[i];
    if (is_grouped(x) && w->hg[x->host] >= 0 && !in[x->rail])
      w->tr[w->hg[x->host]] = 1;
  }
  return 0;
}

/* Steps 2 and 3: leaf rails from the reference group, votes of the other
 * groups' cables, mappings. 0, or -1 out of memory. */
static int vote_rails(const fl_host_api *api, const fl_fabric *f, analysis *a,
                      work *w, int32_t ref, int infer) {
  int32_t *saved = malloc(((size_t)a->n_nics + 1) * sizeof *saved);
  vote *v = malloc(((size_t)a->n_nics + 1) * sizeof *v);
  if (!saved || !v) {
    free(saved), free(v);
    return -1;
  }
  for (uint32_t i = 0; i < a->n_nics; i++) {
    nic *x = &a->nics[i];
    saved[i] = x->rail;
    if (is_grouped(x) && w->hg[x->host] >= 0 && w->hg[x->host] != ref)
      x->rail = NO_RAIL;
  }
  int rc = rl_leaf_rails(api, f, a, infer);
  uint32_t nv = 0;
  for (uint32_t i = 0; i < a->n_nics; i++) {
    nic *x = &a->nics[i];
    x->rail = saved[i];
    int32_t lr = a->leaves[a->leaf_of_node[x->leaf]].rail;
    if (is_grouped(x) && w->hg[x->host] >= 0 && w->tr[w->hg[x->host]] &&
        lr >= 0) {
      v[nv++] =
          (vote){(uint32_t)w->hg[x->host], (uint32_t)x->rail, (uint32_t)lr};
      w->voted[w->hg[x->host]] = 1;
    }
  }
  free(saved);
  if (nv > 1)
    qsort(v, nv, sizeof *v, cmp_vote);
  w->map = malloc(((size_t)nv + 1) * sizeof *w->map);
  if (rc != 0 || !w->map) {
    free(v);
    return -1;
  }
  for (uint32_t s = 0; s < nv;) {
    uint32_t e = s, best = 0, run = 0, rail = 0;
    for (; e < nv && v[e].group == v[s].group && v[e].named == v[s].named;
         e++) {
      run = e > s && v[e].rail == v[e - 1].rail ? run + 1 : 1;
      if (run > best) {
        best = run;
        rail = v[e].rail;
      }
    }
    if (best >= MIN_AGREE && best * 2 > e - s)
      w->map[w->n_map++] = (tmap){v[s].group, v[s].named, rail, best, e - s};
    s = e;
  }
  free(v);
  return 0;
}

/* The mapping of name @named in group @g, or NULL (w->map is sorted by
 * group, then name: the votes were). */
static const tmap *find_map(const work *w, uint32_t g, uint32_t named) {
  uint32_t lo = 0, hi = w->n_map;
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    const tmap *m = &w->map[mid];
    if (m->group < g || (m->group == g && m->named < named))
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo < w->n_map && w->map[lo].group == g && w->map[lo].named == named
             ? &w->map[lo]
             : NULL;
}

/* ok[g]: group g is translated: it needs it, every name of its hosts has a
 * mapping and no two names map to one rail. O(NICs + mappings). 0, or -1
 * out of memory. */
static int groups_ok(const analysis *a, const work *w, uint8_t *ok) {
  uint32_t *seen = calloc((size_t)a->n_labels + 1, sizeof *seen);
  if (!seen)
    return -1;
  for (uint32_t g = 0; g < a->n_groups; g++)
    ok[g] = w->tr[g];
  for (uint32_t i = 0; i < a->n_nics; i++) {
    const nic *x = &a->nics[i];
    if (is_grouped(x) && w->hg[x->host] >= 0 && ok[w->hg[x->host]] &&
        !find_map(w, (uint32_t)w->hg[x->host], (uint32_t)x->rail))
      ok[w->hg[x->host]] = 0;
  }
  for (uint32_t k = 0; k < w->n_map; k++) {
    uint32_t stamp = w->map[k].group + 1; /* a group's mappings are a run */
    if (seen[w->map[k].rail] == stamp)
      ok[w->map[k].group] = 0;
    seen[w->map[k].rail] = stamp;
  }
  free(seen);
  return 0;
}

/* The rail of the leaf NIC @x is cabled to, from the reference group's
 * NICs (step 2), or NO_RAIL. */
static int32_t leaf_rail(const analysis *a, const nic *x) {
  int32_t l = x->leaf == FL_NONE ? -1 : a->leaf_of_node[x->leaf];
  return l < 0 ? NO_RAIL : a->leaves[l].rail;
}

/* kept[h]: host h of a group that needs translating is read by its own
 * names, not by the group's mapping (or, without one, by names nobody
 * else uses), when
 *  - its NICs land on leaves of known rail, one on each (no two on one
 *    rail): whatever its names, its cabling is one NIC per rail;
 *  - at least NAMES_AGREE of its NICs named like a rail of the reference
 *    group land on that rail where the mapping would put them elsewhere
 *    (without a mapping: land on that rail): its names are the
 *    reference's, not the group's numbering;
 *  - its names misplace fewer NICs than the mapping does.
 * Its NICs named like rails keep them (a swap of two of them is judged by
 * name and stays visible); names of its own (mlx5_1 where the reference
 * has none) take the rail of their leaf. O(NICs). 0, or -1 out of memory. */
static int own_reading(const analysis *a, work *w, const uint8_t *ok) {
  uint32_t *seen = calloc((size_t)a->n_labels + 1, sizeof *seen);
  w->kept = calloc((size_t)a->n_hosts + 1, 1);
  if (!seen || !w->kept) {
    free(seen);
    return -1;
  }
  for (uint32_t h = 0; h < a->n_hosts; h++) {
    int32_t g = w->hg[h];
    if (g < 0 || !w->tr[g])
      continue;
    uint32_t against = 0, own_bad = 0, map_bad = 0;
    int fits = 1;
    for (uint32_t k = w->off[h]; k < w->off[h + 1]; k++) {
      const nic *x = &a->nics[w->idx[k]];
      int32_t lr = leaf_rail(a, x);
      if (lr < 0 || seen[lr] == h + 1) {
        fits = 0; /* a leaf of unknown rail, or two NICs on one rail */
        break;
      }
      seen[lr] = h + 1;
      const tmap *m =
          ok[g] ? find_map(w, (uint32_t)g, (uint32_t)x->rail) : NULL;
      map_bad += m && m->rail != (uint32_t)lr;
      if (!w->in_ref[x->rail])
        continue;
      own_bad += lr != x->rail;
      against += lr == x->rail && (!ok[g] || (m && m->rail != (uint32_t)lr));
    }
    w->kept[h] =
        fits && against >= NAMES_AGREE && (!ok[g] || own_bad < map_bad);
  }
  free(seen);
  return 0;
}

/* Step 3's result applied; NICs of a foreign scheme left unplaced become
 * unresolved. Returns how many NICs changed rail. */
static uint32_t apply(analysis *a, const work *w, const uint8_t *ok) {
  uint32_t moved = 0;
  for (uint32_t i = 0; i < a->n_nics; i++) {
    nic *x = &a->nics[i];
    x->named_rail = x->rail;
    x->group = is_grouped(x) ? w->hg[x->host] : -1;
    const tmap *m = x->group >= 0 && ok[x->group]
                        ? find_map(w, (uint32_t)x->group, (uint32_t)x->rail)
                        : NULL;
    if (x->group >= 0 && w->kept[x->host]) {
      if (!w->in_ref[x->rail]) { /* a name of its own: its leaf's rail */
        x->rail = leaf_rail(a, x);
        moved++;
      }
      x->foreign = 0;
    } else if (m && (m->rail != (uint32_t)x->rail || x->foreign)) {
      x->rail = (int32_t)m->rail;
      x->by_cabling = 1;
      x->tr_best = m->best;
      x->tr_total = m->total;
      x->weak = m->best < STRONG_HOSTS || m->best * 3 < m->total * 2;
      moved++;
    } else if (x->foreign && !m && x->group >= 0 && w->own[x->group]) {
      x->foreign = 0; /* hosts named alike have leaves of their own (an SU
                         of another OS image): their names are the rails */
    } else if (x->foreign && !m) {
      if (x->host >= 0)
        a->host_partial[x->host] = 1;
      x->unresolved = "device named unlike the other NICs, and where the "
                      "cables of hosts named alike land does not tell its "
                      "rail (give a node-name map, a profile or map=FILE)";
      x->rail = NO_RAIL;
      x->host = -1;
    }
  }
  return moved;
}

/* Groups whose cables all land on leaves of unknown rail (no reference
 * host there) and that have at least MIN_AGREE hosts, each leaf receiving
 * one name of the group only (its hosts cabled alike): an SU of another OS
 * image, whose names can be its rails. 0, or -1 out of memory. */
static int own_leaves(const analysis *a, work *w) {
  vote *v = malloc(((size_t)a->n_nics + 1) * sizeof *v);
  w->own = calloc((size_t)a->n_groups + 1, 1);
  if (!v || !w->own) {
    free(v);
    return -1;
  }
  uint32_t nv = 0;
  for (uint32_t g = 0; g < a->n_groups; g++)
    w->own[g] = w->tr[g] && !w->voted[g] && w->gc[g] >= MIN_AGREE;
  for (uint32_t i = 0; i < a->n_nics; i++) {
    const nic *x = &a->nics[i];
    if (is_grouped(x) && w->hg[x->host] >= 0 && w->own[w->hg[x->host]])
      v[nv++] = (vote){(uint32_t)w->hg[x->host],
                       (uint32_t)a->leaf_of_node[x->leaf], (uint32_t)x->rail};
  }
  if (nv > 1)
    qsort(v, nv, sizeof *v, cmp_vote);
  for (uint32_t k = 1; k < nv; k++)
    if (v[k].group == v[k - 1].group && v[k].named == v[k - 1].named &&
        v[k].rail != v[k - 1].rail)
      w->own[v[k].group] = 0; /* two names on one leaf */
  free(v);
  return 0;
}

/* One info line: the namings and what was assumed. */
static void say(const fl_host_api *api, fl_ctx *ctx, const analysis *a,
                const work *w, int32_t ref, const uint8_t *ok) {
  char msg[1024];
  int n = snprintf(msg, sizeof msg,
                   "hosts name their NICs differently; rails are the names "
                   "of the %u hosts named %s; for the others, from where "
                   "their cables land:",
                   w->gc[ref], a->groups[ref]);
  uint32_t kept = 0, first = 0;
  for (uint32_t h = 0; h < a->n_hosts; h++)
    if (w->kept[h] && !kept++)
      first = h;
  if (kept && n > 0 && (size_t)n < sizeof msg)
    n += snprintf(msg + n, sizeof msg - (size_t)n,
                  " %u host(s) (e.g. %s) keep their own names (those of the "
                  "reference land on their rails, one NIC on each rail);",
                  kept, a->hosts[first]);
  for (uint32_t k = 0; k < w->n_map && n > 0 && (size_t)n < sizeof msg; k++) {
    const tmap *m = &w->map[k];
    if (!ok[m->group])
      continue;
    n += snprintf(msg + n, sizeof msg - (size_t)n,
                  " %s on hosts named %s -> rail %s (%u of %u cables);",
                  a->labels[m->named], a->groups[m->group], a->labels[m->rail],
                  m->best, m->total);
  }
  api->log(ctx, FL_SEV_INFO, msg);
}

int rl_rails_by_cabling(const fl_host_api *api, fl_ctx *ctx, const fl_fabric *f,
                        analysis *a, int infer) {
  work w;
  memset(&w, 0, sizeof w);
  int foreign = 0;
  for (uint32_t i = 0; i < a->n_nics; i++)
    foreign |= a->nics[i].foreign;
  if (by_host(a, &w) != 0) {
    work_free(&w);
    return -1;
  }
  int32_t ref = make_groups(a, &w);
  if (ref == -2 || (ref >= 0 && flag_foreign_groups(a, &w, ref) != 0)) {
    work_free(&w);
    return -1;
  }
  int any = 0;
  for (uint32_t g = 0; ref >= 0 && g < a->n_groups; g++)
    any |= w.tr[g];
  if (!any && !foreign) {
    work_free(&w);
    return 0; /* one naming: names are the rails */
  }
  uint8_t *ok = calloc((size_t)a->n_groups + 1, 1);
  int rc = ok && (!any || vote_rails(api, f, a, &w, ref, infer) == 0) &&
                   (ref < 0 || own_leaves(a, &w) == 0)
               ? 0
               : -1;
  if (rc == 0)
    rc = groups_ok(a, &w, ok);
  if (rc == 0)
    rc = own_reading(a, &w, ok);
  uint32_t moved = rc == 0 ? apply(a, &w, ok) : 0;
  if (rc == 0)
    rc = rl_leaf_rails(api, f, a, infer);
  if (rc == 0 && moved)
    say(api, ctx, a, &w, ref, ok);
  free(ok);
  work_free(&w);
  return rc;
}

const char *rl_naming_assumption(const analysis *a, const nic *x, char *buf,
                                 size_t size) {
  if (!x->by_cabling || x->group < 0 || (uint32_t)x->group >= a->n_groups)
    return NULL;
  snprintf(buf, size,
           "its rail %s is assumed from where the %s NICs of hosts named %s "
           "land (%u of %u cables), not from its name",
           a->labels[x->rail], a->labels[x->named_rail], a->groups[x->group],
           x->tr_best, x->tr_total);
  return buf;
}
