/* SPDX-License-Identifier: MIT */
/*
 * core/analysis/cdg_design.c — design mode over the modelled engines: twin
 * roots (analysis/twins.h) and the walks of the roots over several threads.
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

/* ---- twin roots (analysis/twins.h) -----------------------------------------
 *
 * A root switch whose twin (the smallest member of its class) was walked
 * already is not walked again: the twin's distances and used marks, with
 * the two switches' entries exchanged, are this root's (the exchange is an
 * automorphism of the switch graph). The turns can then differ from the
 * twin's only at switches whose neighbours' entries changed: the twin
 * itself and the root's neighbours; everywhere else the turn pattern is
 * the one the twin's walk hashed, so it is skipped as seen, exactly as the
 * full walk would skip it. Witness DLIDs, counts and the order roots are
 * taken in are unchanged. Cost per twin O(P^2) instead of O(S + E). */

/* Memory for stored walks: at most this many bytes (9 per switch). */
#define TWIN_STORE_BYTES (256u << 20)

typedef struct twin_walks {
  fl_twins tw;
  uint32_t *a, *b;    /* [n_store x n_sw]: dist (minhop) or dn, up (updn) */
  uint8_t *used;      /* [n_store x n_sw] */
  uint64_t *unrouted; /* [n_store] */
} twin_walks;

static void twin_walks_free(twin_walks *t) {
  fl_twins_free(&t->tw);
  free(t->a), free(t->b), free(t->used), free(t->unrouted);
  memset(t, 0, sizeof *t);
}

/* Switch s's routing channels as slots lo[s]..hi[s]-1 (port 0 routes
 * nothing), the form twins.h and updown.h take. */
void cdg_slot_ranges(const cdg *g, uint32_t *lo, uint32_t *hi) {
  for (uint32_t s = 0; s < g->n_sw; s++) {
    lo[s] = g->sw[s].base + 1;
    hi[s] = g->sw[s].base + (g->sw[s].P ? g->sw[s].P : 1);
  }
}

/* Find the twins among the roots; with @two arrays per walk (updn) and
 * ranks compared (a neighbour of the same rank breaks the symmetry of the
 * up/down order). An empty @t (no stored class) when g->exhaustive. */
static int twin_walks_init(cdg *g, const uint8_t *is_root, int two,
                           twin_walks *t) {
  memset(t, 0, sizeof *t);
  size_t n = (size_t)g->n_sw + 1;
  uint32_t *lo = malloc(n * sizeof *lo), *hi = malloc(n * sizeof *hi);
  uint32_t *rank = malloc(n * sizeof *rank);
  int rc = lo && hi && rank ? FL_OK : FL_ENOMEM;
  if (rc == FL_OK)
    cdg_slot_ranges(g, lo, hi);
  for (uint32_t s = 0; rc == FL_OK && s < g->n_sw; s++)
    rank[s] = cdg_sw_rank(g, s);
  uint32_t max_store = g->exhaustive ? 0 : TWIN_STORE_BYTES / (9u * n);
  if (rc == FL_OK && fl_twins_find(&t->tw, g->n_sw, lo, hi, g->peer_sw, rank,
                                   is_root, !two, max_store) != 0)
    rc = FL_ENOMEM;
  free(lo), free(hi), free(rank);
  size_t cells = (size_t)t->tw.n_store * g->n_sw + 1;
  if (rc == FL_OK) {
    t->a = malloc(cells * sizeof *t->a);
    t->b = two ? malloc(cells * sizeof *t->b) : NULL;
    t->used = malloc(cells);
    t->unrouted = calloc((size_t)t->tw.n_store + 1, sizeof *t->unrouted);
    if (!t->a || (two && !t->b) || !t->used || !t->unrouted)
      rc = FL_ENOMEM;
  }
  if (rc != FL_OK)
    twin_walks_free(t);
  return rc;
}

/* Stored class of root @s's twin, or FL_TWIN_NONE (walk in full); *@rep
 * its representative. */
static uint32_t twin_class(const twin_walks *t, uint32_t s, uint32_t *rep) {
  if (!t->tw.rep)
    return FL_TWIN_NONE;
  *rep = t->tw.rep[s];
  return t->tw.store[*rep];
}

static void swap_u32(uint32_t *v, uint32_t i, uint32_t j) {
  uint32_t x = v[i];
  v[i] = v[j], v[j] = x;
}

static void swap_u8(uint8_t *v, uint32_t i, uint32_t j) {
  uint8_t x = v[i];
  v[i] = v[j], v[j] = x;
}

/* Exchange twins @r and @s in a stored walk (an involution). */
static void twin_swap(uint32_t *a, uint32_t *b, uint8_t *used, uint32_t r,
                      uint32_t s) {
  swap_u32(a, r, s);
  if (b)
    swap_u32(b, r, s);
  swap_u8(used, r, s);
}

/* The turns at switch @t that use a port toward @a or @b: (in, out) with
 * bit 0/1 of codes[in] matching bit 2/3 of codes[out] (updn_codes()). */
static int add_turns_touching(worker *w, uint32_t t, const uint8_t *codes,
                              uint32_t a, uint32_t b, uint32_t dlid) {
  const cdg *g = w->g;
  const sw_rec *r = &g->sw[t];
  for (uint32_t c = 1; c < r->P; c++) {
    int32_t n = g->peer_sw[r->base + c];
    if (n < 0 || ((uint32_t)n != a && (uint32_t)n != b))
      continue;
    for (uint32_t o = 1; o < r->P; o++) {
      if ((((codes[c] & 3) << 2) & codes[o]) &&
          cdg_add_dep(w, t, c, o, 0, 0, dlid) != FL_OK)
        return FL_ENOMEM;
      if ((((codes[o] & 3) << 2) & codes[c]) &&
          cdg_add_dep(w, t, o, c, 0, 0, dlid) != FL_OK)
        return FL_ENOMEM;
    }
  }
  return FL_OK;
}

/* minhop toward root @s, the twin of @rep whose walk is stored in @k. At a
 * neighbour t of @s only the ports toward @s and @rep changed their
 * codes, and every turn of t's pattern for @rep is in the table already
 * (added by @rep's walk or, when the pattern was seen, before it): the
 * turns through those ports are the only ones that can be new. @rep
 * itself turns nothing toward @s: all its neighbours are @s's, one hop
 * from @s, so none arrives at @rep from farther away (in either state of
 * updn). */
static int minimal_twin(worker *w, twin_walks *t, uint32_t k, uint32_t rep,
                        uint32_t s, uint32_t dlid, uint8_t *codes) {
  cdg *g = w->g;
  uint32_t *dist = t->a + (size_t)k * g->n_sw;
  uint8_t *used = t->used + (size_t)k * g->n_sw;
  twin_swap(dist, NULL, used, rep, s);
  w->destinations++;
  w->unrouted_pairs += t->unrouted[k];
  int rc = FL_OK;
  const sw_rec *r = &g->sw[s];
  for (uint32_t p = 1; rc == FL_OK && p < r->P; p++) {
    int32_t n = g->peer_sw[r->base + p];
    if (n < 0 || !used[n] || dist[n] == UINT32_MAX)
      continue;
    cdg_minimal_codes(g, (uint32_t)n, dist, used, codes);
    rc = add_turns_touching(w, (uint32_t)n, codes, s, rep, dlid);
  }
  twin_swap(dist, NULL, used, rep, s);
  return rc;
}

/* updn/ftree toward root @s, the twin of @rep whose walk is stored in @k
 * (as minimal_twin()). */
static int updn_twin(worker *w, twin_walks *t, uint32_t k, uint32_t rep,
                     uint32_t s, uint32_t dlid, const updn_work *u) {
  cdg *g = w->g;
  updn_work v = *u;
  v.dn = t->a + (size_t)k * g->n_sw;
  v.up = t->b + (size_t)k * g->n_sw;
  v.used = t->used + (size_t)k * g->n_sw;
  twin_swap(v.dn, v.up, v.used, rep, s);
  w->destinations++;
  w->unrouted_pairs += t->unrouted[k];
  int rc = FL_OK;
  const sw_rec *r = &g->sw[s];
  for (uint32_t p = 1; rc == FL_OK && p < r->P; p++) {
    int32_t n = g->peer_sw[r->base + p];
    if (n >= 0 && v.used[n] && cdg_updn_codes(g, &v, (uint32_t)n, v.codes))
      rc = add_turns_touching(w, (uint32_t)n, v.codes, s, rep, dlid);
  }
  twin_swap(v.dn, v.up, v.used, rep, s);
  return rc;
}

/* Keep the walk of a class representative (stored class @k). */
static void twin_keep(twin_walks *t, const cdg *g, uint32_t k,
                      const uint32_t *a, const uint32_t *b, const uint8_t *used,
                      uint64_t unrouted) {
  size_t n = g->n_sw;
  memcpy(t->a + k * n, a, n * sizeof *a);
  if (b)
    memcpy(t->b + k * n, b, n * sizeof *b);
  memcpy(t->used + k * n, used, n);
  t->unrouted[k] = unrouted;
}

/* ---- design mode over several threads -------------------------------------
 *
 * The roots are dealt to workers by twin class: a class, its stored walk
 * and its representative (walked first) stay with one worker, and whole
 * classes go round-robin, so each worker does about the same number of
 * full walks. Each worker keeps its own seen turn patterns (a pattern
 * another worker saw is enumerated again: the turns are the same). A
 * turn's witness must be the one a single thread keeps: the DLID of the
 * first root, in switch order, whose routes make the turn (a root's walk
 * adds every turn of its routes that an earlier root of the same worker
 * did not add). So the workers share one table and lower each entry
 * atomically to the smallest witness (dep_min()): the root's DLID when the
 * roots' DLIDs increase in switch order (the usual case), else root index
 * + 1, turned into that root's DLID after the walks. One worker stores
 * DLIDs with plain writes, as before. */

typedef struct design_run {
  cdg *g;
  const uint8_t *is_root;
  uint8_t *owner; /* per switch: the worker that walks it (roots) */
  uint32_t *dlid; /* per switch: root_dlid() (roots) */
  int indexed;    /* the table holds root index + 1, not DLIDs */
  twin_walks tw;
  uint32_t *order; /* updn: switches in up order (updn_order()) */
  uint8_t *kind;   /* updn: per slot, MOVE_* (updn_kinds()) */
  uint64_t roots;
  atomic_uint_fast64_t done;
} design_run;

typedef struct design_job {
  worker w;
  design_run *d;
} design_job;

static uint32_t design_witness(const design_run *d, uint32_t s) {
  return d->indexed ? s + 1 : d->dlid[s];
}

/* Count one root walked; the calling thread (worker 0) reports. */
static void design_progress(worker *w, design_run *d) {
  uint64_t done = atomic_fetch_add(&d->done, 1) + 1;
  if (w->id == 0)
    cdg_progress(w->g, "root switches", done, d->roots);
}

static int updn_walks(worker *w, design_run *d) {
  cdg *g = w->g;
  size_t n = (size_t)g->n_sw + 1;
  updn_work u;
  memset(&u, 0, sizeof u);
  u.dn = malloc(n * sizeof *u.dn);
  u.up = malloc(n * sizeof *u.up);
  u.queue = malloc(n * sizeof *u.queue);
  u.bucket = malloc((2 * n + 2) * sizeof *u.bucket);
  u.sorted = malloc(2 * n * sizeof *u.sorted);
  u.used = malloc(n);
  u.codes = malloc(MAX_PORTS);
  u.order = d->order;
  u.kind = d->kind;
  int rc =
      (u.dn && u.up && u.queue && u.bucket && u.sorted && u.used && u.codes)
          ? FL_OK
          : FL_ENOMEM;
  for (uint32_t s = 0; rc == FL_OK && s < g->n_sw; s++) {
    if (!d->is_root[s] || d->owner[s] != w->id)
      continue;
    uint32_t rep = s, k = twin_class(&d->tw, s, &rep);
    if (k != FL_TWIN_NONE && rep != s)
      rc = updn_twin(w, &d->tw, k, rep, s, design_witness(d, s), &u);
    else {
      uint64_t before = w->unrouted_pairs;
      rc = cdg_updn_for_root(w, s, design_witness(d, s), &u);
      if (k != FL_TWIN_NONE)
        twin_keep(&d->tw, g, k, u.dn, u.up, u.used, w->unrouted_pairs - before);
    }
    design_progress(w, d);
  }
  u.order = NULL; /* shared */
  u.kind = NULL;
  cdg_updn_work_free(&u);
  return rc;
}

static int minhop_walks(worker *w, design_run *d) {
  cdg *g = w->g;
  uint32_t *dist = malloc((g->n_sw + 1) * sizeof *dist);
  uint32_t *queue = malloc((g->n_sw + 1) * sizeof *queue);
  uint8_t *used = malloc(g->n_sw + 1);
  uint8_t *codes = malloc(MAX_PORTS);
  int rc = dist && queue && used && codes ? FL_OK : FL_ENOMEM;
  for (uint32_t s = 0; rc == FL_OK && s < g->n_sw; s++) {
    if (!d->is_root[s] || d->owner[s] != w->id)
      continue;
    uint32_t rep = s, k = twin_class(&d->tw, s, &rep);
    if (k != FL_TWIN_NONE && rep != s)
      rc = minimal_twin(w, &d->tw, k, rep, s, design_witness(d, s), codes);
    else {
      uint64_t before = w->unrouted_pairs;
      rc = cdg_minimal_for_root(w, s, design_witness(d, s), dist, queue, used,
                                codes);
      if (k != FL_TWIN_NONE)
        twin_keep(&d->tw, g, k, dist, NULL, used, w->unrouted_pairs - before);
    }
    design_progress(w, d);
  }
  free(dist), free(queue), free(used), free(codes);
  return rc;
}

static void *design_main(void *arg) {
  design_job *j = arg;
  j->w.rc = j->d->g->o.engine != FL_CDG_ENGINE_MINHOP
                ? updn_walks(&j->w, j->d)
                : minhop_walks(&j->w, j->d);
  return NULL;
}

/* Deal the roots to @n workers (design_run): a twin goes with its class's
 * representative, every other root (a representative or a root walked in
 * full) to the next worker in turn. Returns the number of full walks. */
static uint64_t deal_roots(design_run *d, uint32_t n) {
  uint64_t full = 0;
  for (uint32_t s = 0; s < d->g->n_sw; s++) {
    if (!d->is_root[s])
      continue;
    uint32_t rep = s, k = twin_class(&d->tw, s, &rep);
    if (k != FL_TWIN_NONE && rep != s)
      d->owner[s] = d->owner[rep];
    else
      d->owner[s] = (uint8_t)(full++ % n);
  }
  return full;
}

/* Workers for the root walks: fl_cdg_options.threads (0:
 * fl_threads_available()), at most FL_THREADS_MAX and at most one per full
 * walk. */
static uint32_t design_threads(const cdg *g, uint64_t full) {
  uint32_t t = g->o.threads ? g->o.threads : fl_threads_available();
  if (t > FL_THREADS_MAX)
    t = FL_THREADS_MAX;
  if (t > full)
    t = (uint32_t)full;
  return t ? t : 1;
}

static int design_job_init(design_job *j, design_run *d, uint32_t id,
                           uint32_t n) {
  cdg *g = d->g;
  memset(j, 0, sizeof *j);
  j->d = d;
  j->w.g = g;
  j->w.id = id;
  j->w.n_workers = n;
  j->w.dep = g->dep;
  j->w.atomic_dep = n > 1;
  j->w.turn_ports = malloc(4 * MAX_PORTS * sizeof *j->w.turn_ports);
  return j->w.turn_ports ? FL_OK : FL_ENOMEM;
}

static void design_job_free(design_job *j) {
  fl_u64map_free(&j->w.vdep); /* the turn patterns seen */
  free(j->w.turn_ports);
}

/* Root index + 1 to that root's DLID (design_run.indexed). */
static void design_unindex(cdg *g, const design_run *d) {
  for (uint64_t i = 0; i < g->n_dep_entries; i++)
    g->dep[i] = g->dep[i] ? d->dlid[g->dep[i] - 1] : 0;
}

/* 1 when the roots' DLIDs increase in switch order. */
static int dlids_increase(const design_run *d) {
  uint32_t last = 0;
  for (uint32_t s = 0; s < d->g->n_sw; s++) {
    if (!d->is_root[s])
      continue;
    if (d->dlid[s] <= last)
      return 0;
    last = d->dlid[s];
  }
  return 1;
}

/* Run the workers (worker 0 on the calling thread) and merge them. */
static int design_run_jobs(cdg *g, design_run *d, uint32_t n) {
  design_job *j = calloc(n, sizeof *j);
  int rc = j ? FL_OK : FL_ENOMEM;
  for (uint32_t k = 0; rc == FL_OK && k < n; k++)
    rc = design_job_init(&j[k], d, k, n);
  if (rc == FL_OK)
    rc = cdg_run_on_threads(j, sizeof *j, offsetof(design_job, w.rc), n,
                            design_main);
  if (n > 1) /* the end, whichever worker finished last */
    cdg_progress(g, "root switches", d->roots, d->roots);
  for (uint32_t k = 0; rc == FL_OK && k < n; k++) {
    rc = j[k].w.rc;
    g->rep->destinations += j[k].w.destinations;
    g->rep->unrouted_pairs += j[k].w.unrouted_pairs;
  }
  if (rc == FL_OK && d->indexed)
    design_unindex(g, d);
  for (uint32_t k = 0; j && k < n; k++)
    design_job_free(&j[k]);
  free(j);
  return rc;
}

int cdg_run_minimal(cdg *g) {
  design_run d;
  memset(&d, 0, sizeof d);
  atomic_init(&d.done, 0);
  d.g = g;
  uint8_t *is_root = calloc(g->n_sw + 1, 1);
  d.is_root = is_root;
  d.owner = calloc(g->n_sw + 1, 1);
  d.dlid = calloc(g->n_sw + 1, sizeof *d.dlid);
  int updn = g->o.engine != FL_CDG_ENGINE_MINHOP;
  if (updn) {
    d.order = malloc((g->n_sw + 1) * sizeof *d.order);
    d.kind = malloc((size_t)g->n_slots + 1);
  }
  int rc = is_root && d.owner && d.dlid && (!updn || (d.order && d.kind))
               ? FL_OK
               : FL_ENOMEM;
  for (uint32_t i = 0; rc == FL_OK && i < g->n_src; i++)
    is_root[g->src[i].sw] = 1;
  for (uint32_t s = 0; rc == FL_OK && s < g->n_sw; s++)
    if (is_root[s]) {
      d.dlid[s] = cdg_root_dlid(g, s);
      d.roots++;
    }
  if (rc == FL_OK && updn) {
    rc = cdg_updn_order(g, d.order);
    cdg_updn_kinds(g, d.kind);
  }
  if (rc == FL_OK)
    rc = twin_walks_init(g, is_root, updn, &d.tw);
  if (rc == FL_OK) {
    uint32_t n = design_threads(g, deal_roots(&d, 64));
    d.indexed = n > 1 && !dlids_increase(&d);
    deal_roots(&d, n);
    rc = design_run_jobs(g, &d, n);
  }
  twin_walks_free(&d.tw);
  free(is_root), free(d.owner), free(d.dlid), free(d.order), free(d.kind);
  return rc;
}
