/* SPDX-License-Identifier: MIT */
/*
 * core/analysis/cdg_drivers.c — running the LFT walks: worker threads, the
 * merge of their tables and examples, and distributed (MPI) runs.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "analysis/cdg_impl.h"
#include "analysis/cdg_ref.h"
#include "analysis/twins.h"
#include "analysis/updown.h"
#include "fabriclint/cdg.h"
#include "fabriclint/routing.h"
#include "fabriclint/threads.h"
#include "model/derive.h"
#include "model/hashmap.h"

static void *worker_main(void *arg) {
  worker *w = arg;
  uint32_t max = fl_fabric_max_lid(w->g->f);
  uint32_t parts = w->g->parts;
  for (uint64_t b = w->g->part + (uint64_t)parts * w->id;
       w->rc == FL_OK && b * BLOCK <= max;
       b += (uint64_t)parts * w->n_workers) {
    uint32_t lo = (uint32_t)b * BLOCK, hi = lo + BLOCK - 1;
    if (hi > max)
      hi = max;
    cdg_load_block(w, lo);
    if (w->reached)
      w->rc = cdg_block_reach(w, hi);
    else
      for (uint32_t lid = lo ? lo : 1; w->rc == FL_OK && lid <= hi; lid++)
        w->rc = cdg_walk_destination(w, lid);
    if (w->rc == FL_OK && w->reached)
      cdg_block_deps(w);
    /* all workers count; the calling thread (worker 0) reports */
    uint64_t done =
        atomic_fetch_add(&w->g->lids_done, hi - lo + 1) + (hi - lo + 1);
    if (w->id == 0)
      cdg_progress(w->g, "destinations", done, (uint64_t)max + 1);
  }
  return NULL;
}

static int worker_init(worker *w, cdg *g, uint32_t id, uint32_t n) {
  memset(w, 0, sizeof *w);
  w->g = g;
  w->id = id;
  w->n_workers = n;
  w->fwd.elem = sizeof(fl_cdg_fwd_loop);
  w->unrouted.elem = sizeof(fl_cdg_unrouted);
  w->fwd_switches.elem = sizeof(fl_id);
  if (!g->vl) {
    w->dep = calloc(g->n_dep_entries + 1, sizeof *w->dep);
    w->seen = calloc((size_t)g->n_slots * g->seen_words + 1, sizeof *w->seen);
    size_t ns = (size_t)g->n_sw + 1;
    w->reached = calloc(ns, sizeof *w->reached);
    w->front = calloc(ns, sizeof *w->front);
    w->next = calloc(ns, sizeof *w->next);
    w->term = calloc(ns, sizeof *w->term);
    w->list = malloc(ns * sizeof *w->list);
    w->nlist = malloc(ns * sizeof *w->nlist);
    if (!w->dep || !w->seen || !w->reached || !w->front || !w->next ||
        !w->term || !w->list || !w->nlist)
      return FL_ENOMEM;
  }
  w->stamp = calloc(g->n_sw + 1, sizeof *w->stamp);
  w->walkid = calloc(g->n_sw + 1, sizeof *w->walkid);
  w->slmask = calloc(g->n_sw + 1, sizeof *w->slmask);
  if (g->vl &&
      !(w->vlmask = calloc(((size_t)g->n_sw + 1) * 16, sizeof *w->vlmask)))
    return FL_ENOMEM;
  w->path = malloc((g->n_sw + 2) * sizeof *w->path);
  w->blk = malloc(((size_t)g->n_sw + 1) * BLOCK);
  if (!w->stamp || !w->walkid || !w->slmask || !w->path || !w->blk)
    return FL_ENOMEM;
  return FL_OK;
}

static void worker_free(worker *w) {
  free(w->dep);
  free(w->seen);
  free(w->reached);
  free(w->front), free(w->next), free(w->term);
  free(w->list), free(w->nlist);
  fl_u64map_free(&w->vdep);
  free(w->stamp);
  free(w->walkid);
  free(w->slmask);
  free(w->vlmask);
  free(w->path);
  free(w->blk);
  free(w->fwd.v);
  free(w->unrouted.v);
  free(w->fwd_switches.v);
}

/* Lower g->dep to worker @w's DLIDs of the turns it stored from slots
 * [@lo, @hi) (its seen bits, keyed by the slot each turn is entered from:
 * worker.seen). A slot fixes the (switch, in port) row of its turns, so
 * disjoint slot ranges write disjoint parts of g->dep. */
static void merge_seen_deps(const cdg *g, const worker *w, uint32_t lo,
                            uint32_t hi) {
  for (uint32_t slot = lo; slot < hi; slot++) {
    if (g->peer_sw[slot] < 0)
      continue;
    const sw_rec *rt = &g->sw[g->peer_sw[slot]];
    uint64_t row = rt->dep_off + (uint64_t)g->peer_port[slot] * rt->P;
    const uint64_t *word = &w->seen[(size_t)slot * g->seen_words];
    for (uint32_t k = 0; k < g->seen_words; k++)
      for (uint64_t bits = word[k]; bits; bits &= bits - 1) {
        uint64_t i = row + k * 64u + (uint64_t)__builtin_ctzll(bits);
        uint32_t v = w->dep[i];
        if (v && (!g->dep[i] || v < g->dep[i]))
          g->dep[i] = v;
      }
  }
}

/* One thread's share of merge_deps(): slots [lo, hi) of workers 1.. */
typedef struct merge_part {
  const cdg *g;
  const worker *ws;
  uint32_t n, lo, hi;
  int rc;
} merge_part;

static void *merge_part_main(void *arg) {
  const merge_part *m = arg;
  for (uint32_t k = 1; k < m->n; k++)
    merge_seen_deps(m->g, &m->ws[k], m->lo, m->hi);
  return NULL;
}

/* Smallest non-zero DLID per dependency: what one thread would keep. The
 * VL-blind tables are merged into worker 0's on @n threads, each over its
 * own range of slots. */
static int merge_deps(cdg *g, worker *ws, uint32_t n) {
  if (!g->vl) {
    g->dep = ws[0].dep;
    ws[0].dep = NULL;
    if (n < 2)
      return FL_OK;
    merge_part part[64];
    for (uint32_t k = 0; k < n; k++)
      part[k] = (merge_part){g,
                             ws,
                             n,
                             (uint32_t)((uint64_t)g->n_slots * k / n),
                             (uint32_t)((uint64_t)g->n_slots * (k + 1) / n),
                             FL_OK};
    int rc = cdg_run_on_threads(part, sizeof *part, offsetof(merge_part, rc), n,
                                merge_part_main);
    for (uint32_t k = 0; rc == FL_OK && k < n; k++)
      rc = part[k].rc;
    return rc;
  }
  for (uint32_t k = 0; k < n; k++) {
    const fl_u64map *m = &ws[k].vdep;
    for (size_t i = 0; i < m->cap; i++) {
      uint64_t key;
      uint32_t val;
      if (!fl_u64map_slot(m, i, &key, &val))
        continue;
      uint32_t cur = fl_u64map_get(&g->vdep, key);
      if ((cur == FL_MAP_ABSENT || val < cur) &&
          fl_u64map_set(&g->vdep, key, val) != 0)
        return FL_ENOMEM;
    }
  }
  return FL_OK;
}

static int cmp_unrouted(const void *a, const void *b) {
  const fl_cdg_unrouted *x = a, *y = b;
  return x->dlid < y->dlid ? -1 : x->dlid > y->dlid;
}

/* Concatenate the workers' examples in DLID order, keep the first
 * max_examples (each worker's list is in DLID order, so the union holds the
 * global first max_examples). */
static int merge_examples(cdg *g, worker *ws, uint32_t n) {
  for (uint32_t k = 0; k < n; k++) {
    g->rep->fwd_loop_count += ws[k].fwd_loop_count;
    g->rep->unrouted_pairs += ws[k].unrouted_pairs;
    g->rep->missing_sl2vl += ws[k].missing_sl2vl;
    g->rep->destinations += ws[k].destinations;
    const fl_cdg_unrouted *u = ws[k].unrouted.v;
    for (size_t i = 0; i < ws[k].unrouted.n; i++)
      if (cdg_gb_push(&g->unrouted, &u[i]) != 0)
        return FL_ENOMEM;
    const fl_cdg_fwd_loop *fl = ws[k].fwd.v;
    const fl_id *sw = ws[k].fwd_switches.v;
    for (size_t i = 0; i < ws[k].fwd.n; i++) {
      fl_cdg_fwd_loop c = fl[i];
      c.switches = (const fl_id *)(uintptr_t)g->fwd_switches.n;
      for (uint32_t j = 0; j < fl[i].n_switches; j++)
        if (cdg_gb_push(&g->fwd_switches, &sw[(uintptr_t)fl[i].switches + j]) !=
            0)
          return FL_ENOMEM;
      if (cdg_gb_push(&g->fwd, &c) != 0)
        return FL_ENOMEM;
    }
  }
  if (g->unrouted.n > 1)
    if (g->unrouted.n > 1)
      qsort(g->unrouted.v, g->unrouted.n, g->unrouted.elem, cmp_unrouted);
  if (g->unrouted.n > g->o.max_examples)
    g->unrouted.n = g->o.max_examples;
  /* forwarding loops: sort by DLID, keeping switch offsets with them */
  fl_cdg_fwd_loop *f = g->fwd.v;
  for (size_t i = 1; i < g->fwd.n; i++)
    for (size_t j = i; j > 0 && f[j - 1].dlid > f[j].dlid; j--) {
      fl_cdg_fwd_loop t = f[j];
      f[j] = f[j - 1];
      f[j - 1] = t;
    }
  if (g->fwd.n > g->o.max_examples)
    g->fwd.n = g->o.max_examples;
  return FL_OK;
}

/* ---- distributed runs (fl_cdg_options.dist) -------------------------------
 *
 * Each process walked its share of the destination blocks. The merged
 * result must be what one process walking every block computes: each turn's
 * witness is the smallest DLID over all processes (0 = none, so it is sent
 * as UINT32_MAX); counts add up; the examples are gathered and, as
 * merge_examples() does for threads, sorted by DLID and cut at
 * max_examples (a process keeps its own first max_examples, so the union
 * holds the global first ones). */

static int dist_deps(cdg *g) {
  for (uint64_t i = 0; i < g->n_dep_entries; i++)
    g->dep[i] = g->dep[i] ? g->dep[i] : UINT32_MAX;
  if (g->dist->allreduce_min_u32(g->dist->ctx, g->dep, g->n_dep_entries))
    return FL_EIO;
  for (uint64_t i = 0; i < g->n_dep_entries; i++)
    g->dep[i] = g->dep[i] == UINT32_MAX ? 0 : g->dep[i];
  return FL_OK;
}

static int dist_counts(cdg *g) {
  fl_cdg_report *r = g->rep;
  uint64_t c[4] = {r->fwd_loop_count, r->unrouted_pairs, r->missing_sl2vl,
                   r->destinations};
  if (g->dist->allreduce_sum_u64(g->dist->ctx, c, 4))
    return FL_EIO;
  r->fwd_loop_count = c[0];
  r->unrouted_pairs = c[1];
  r->missing_sl2vl = c[2];
  r->destinations = (uint32_t)c[3];
  return FL_OK;
}

static int dist_unrouted(cdg *g) {
  void *all = NULL;
  size_t n = 0;
  if (g->dist->allgather(g->dist->ctx, g->unrouted.v,
                         g->unrouted.n * sizeof(fl_cdg_unrouted), &all, &n))
    return FL_EIO;
  free(g->unrouted.v);
  g->unrouted.v = all;
  g->unrouted.n = g->unrouted.cap = n / sizeof(fl_cdg_unrouted);
  if (g->unrouted.n > 1)
    qsort(g->unrouted.v, g->unrouted.n, g->unrouted.elem, cmp_unrouted);
  if (g->unrouted.n > g->o.max_examples)
    g->unrouted.n = g->o.max_examples;
  return FL_OK;
}

/* Forwarding loops travel as (dlid, n, switches...) words. */
static int dist_fwd(cdg *g) {
  const fl_cdg_fwd_loop *f = g->fwd.v;
  const fl_id *sw = g->fwd_switches.v;
  size_t words = 0;
  for (size_t i = 0; i < g->fwd.n; i++)
    words += 2 + f[i].n_switches;
  uint32_t *mine = malloc((words + 1) * sizeof *mine);
  if (!mine)
    return FL_ENOMEM;
  size_t k = 0;
  for (size_t i = 0; i < g->fwd.n; i++) {
    mine[k++] = f[i].dlid;
    mine[k++] = f[i].n_switches;
    for (uint32_t j = 0; j < f[i].n_switches; j++)
      mine[k++] = sw[(uintptr_t)f[i].switches + j];
  }
  void *all = NULL;
  size_t n = 0;
  int rc = g->dist->allgather(g->dist->ctx, mine, k * sizeof *mine, &all, &n)
               ? FL_EIO
               : FL_OK;
  free(mine);
  g->fwd.n = g->fwd_switches.n = 0;
  const uint32_t *a = all;
  for (size_t i = 0; rc == FL_OK && i + 2 <= n / sizeof *a;) {
    fl_cdg_fwd_loop c = {a[i], a[i + 1],
                         (const fl_id *)(uintptr_t)g->fwd_switches.n};
    for (uint32_t j = 0; rc == FL_OK && j < c.n_switches; j++)
      rc = cdg_gb_push(&g->fwd_switches, &a[i + 2 + j]) ? FL_ENOMEM : FL_OK;
    if (rc == FL_OK)
      rc = cdg_gb_push(&g->fwd, &c) ? FL_ENOMEM : FL_OK;
    i += 2 + c.n_switches;
  }
  free(all);
  fl_cdg_fwd_loop *x = g->fwd.v; /* by DLID (stable: one per DLID) */
  for (size_t i = 1; rc == FL_OK && i < g->fwd.n; i++)
    for (size_t j = i; j > 0 && x[j - 1].dlid > x[j].dlid; j--) {
      fl_cdg_fwd_loop t = x[j];
      x[j] = x[j - 1];
      x[j - 1] = t;
    }
  if (g->fwd.n > g->o.max_examples)
    g->fwd.n = g->o.max_examples;
  return rc;
}

static int dist_merge(cdg *g) {
  int rc = dist_deps(g);
  if (rc == FL_OK)
    rc = dist_counts(g);
  if (rc == FL_OK)
    rc = dist_unrouted(g);
  if (rc == FL_OK)
    rc = dist_fwd(g);
  return rc;
}

static uint32_t thread_count(const cdg *g) {
  uint32_t t = g->o.threads ? g->o.threads : fl_threads_available();
  if (t > FL_THREADS_MAX)
    t = FL_THREADS_MAX;
  uint32_t blocks = fl_fabric_max_lid(g->f) / BLOCK + 1;
  if (t > blocks)
    t = blocks;
  /* each worker holds a dependency table: keep them under ~1 GB together */
  if (!g->vl && g->n_dep_entries * 4 * t > (1ull << 30))
    t = (uint32_t)((1ull << 30) / (g->n_dep_entries * 4 + 1));
  return t ? t : 1;
}

/* Runs @fn on each of the @n items of @size bytes at @items: item 0 on the
 * calling thread, the others on threads of their own, and returns when all
 * are done. An item whose thread cannot start gets FL_ENOMEM in the int at
 * @rc_off of it (the items after it do not run). FL_ENOMEM when nothing
 * could run. */
int cdg_run_on_threads(void *items, size_t size, size_t rc_off, uint32_t n,
                       void *(*fn)(void *)) {
  char *item = items;
  pthread_t *th = calloc(n, sizeof *th);
  if (!th)
    return FL_ENOMEM;
  uint32_t started = 0;
  for (uint32_t k = 1; k < n; k++, started++)
    if (pthread_create(&th[k], NULL, fn, item + k * size) != 0) {
      *(int *)(item + k * size + rc_off) = FL_ENOMEM;
      break;
    }
  fn(item);
  for (uint32_t k = 1; k <= started; k++)
    pthread_join(th[k], NULL);
  free(th);
  return FL_OK;
}

int cdg_run_lft_walks(cdg *g) {
  uint32_t n = thread_count(g);
  worker *ws = calloc(n, sizeof *ws);
  int rc = ws ? FL_OK : FL_ENOMEM;
  for (uint32_t k = 0; rc == FL_OK && k < n; k++)
    rc = worker_init(&ws[k], g, k, n);
  if (rc == FL_OK)
    rc = cdg_run_on_threads(ws, sizeof *ws, offsetof(worker, rc), n,
                            worker_main);
  uint64_t all = (uint64_t)fl_fabric_max_lid(g->f) + 1;
  cdg_progress(g, "destinations", all, all);
  for (uint32_t k = 0; rc == FL_OK && k < n; k++)
    rc = ws[k].rc;
  if (rc == FL_OK)
    rc = merge_deps(g, ws, n);
  if (rc == FL_OK)
    rc = merge_examples(g, ws, n);
  if (rc == FL_OK && g->parts > 1)
    rc = dist_merge(g);
  for (uint32_t k = 0; ws && k < n; k++)
    worker_free(&ws[k]);
  free(ws);
  return rc;
}
