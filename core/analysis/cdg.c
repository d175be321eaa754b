/* SPDX-License-Identifier: MIT */
/*
 * core/analysis/cdg.c — channel dependency graph analysis, its entry points
 * (see fabriclint/cdg.h): options, the valley scan, the report. The model
 * and its layout are in analysis/cdg_impl.h; the walks in cdg_walk.c and
 * cdg_drivers.c, design mode in cdg_models.c and cdg_design.c, the cycle
 * search in cdg_cycles.c.
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
#include "model/derive.h"
#include "model/hashmap.h"

static double now_seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ---- valleys
 * --------------------------------------------------------------------- */

typedef struct valley_ctx {
  cdg *g;
} valley_ctx;

static uint32_t slot_switch(const cdg *g, uint32_t slot) {
  uint32_t lo = 0, hi = g->n_sw;
  while (hi - lo > 1) {
    uint32_t mid = (lo + hi) / 2;
    if (g->sw[mid].base <= slot)
      lo = mid;
    else
      hi = mid;
  }
  return lo;
}

static int visit_valley(void *ctx, uint32_t from, uint32_t to, uint32_t dlid) {
  cdg *g = ((valley_ctx *)ctx)->g;
  uint32_t fs = g->vl ? from / 16 : from, ts = g->vl ? to / 16 : to;
  uint32_t p = slot_switch(g, fs), t = slot_switch(g, ts);
  int32_t n = g->peer_sw[ts];
  if (n < 0)
    return 0;
  uint32_t tp = g->sw[p].tier, tt = g->sw[t].tier, tn = g->sw[n].tier;
  if (tp == FL_TIER_UNKNOWN || tt == FL_TIER_UNKNOWN || tn == FL_TIER_UNKNOWN)
    return 0;
  if (!(tp > tt && tn > tt))
    return 0;
  g->rep->valley_count++;
  if (g->valleys.n >= g->o.max_examples)
    return 0;
  fl_cdg_valley v = {dlid, g->sw[p].node, g->sw[t].node, g->sw[n].node};
  return cdg_gb_push(&g->valleys, &v);
}

/* ---- entry points
 * ------------------------------------------------------------------ */

static void fix_offsets(cdg *g) {
  fl_cdg_report *r = g->rep;
  fl_cdg_loop *loops = g->loops.v;
  for (size_t i = 0; i < g->loops.n; i++)
    loops[i].hops = (const fl_cdg_hop *)g->hops.v + (uintptr_t)loops[i].hops;
  fl_cdg_fwd_loop *fw = g->fwd.v;
  for (size_t i = 0; i < g->fwd.n; i++)
    fw[i].switches =
        (const fl_id *)g->fwd_switches.v + (uintptr_t)fw[i].switches;
  r->loops = loops;
  r->n_loops = (uint32_t)g->loops.n;
  r->fwd_loops = fw;
  r->n_fwd_loops = (uint32_t)g->fwd.n;
  r->unrouted = g->unrouted.v;
  r->n_unrouted = (uint32_t)g->unrouted.n;
  r->valleys = g->valleys.v;
  r->n_valleys = (uint32_t)g->valleys.n;
}

/* The report owns its arrays through this trailer (freed by fl_cdg_free). */
typedef struct report_box {
  fl_cdg_report rep;
  void *hops, *fwd_switches;
} report_box;

static int check_opts(const fl_fabric *fab, const fl_cdg_options *in,
                      fl_cdg_options *o) {
  memset(o, 0, sizeof *o);
  if (in)
    memcpy(o, in,
           in->struct_size && in->struct_size < sizeof *o ? in->struct_size
                                                          : sizeof *o);
  o->struct_size = sizeof *o;
  if (!o->max_examples)
    o->max_examples = 1000;
  if (o->routing == FL_CDG_ROUTING_AUTO)
    o->routing =
        fl_fabric_lft_count(fab) ? FL_CDG_ROUTING_LFT : FL_CDG_ROUTING_MINIMAL;
  if (o->routing == FL_CDG_ROUTING_LFT && !fl_fabric_lft_count(fab))
    return FL_EINVAL;
  if (o->vl_mode == FL_CDG_VL_AWARE && !fl_fabric_has_sl2vl(fab))
    return FL_EINVAL;
  if (o->engine > FL_CDG_ENGINE_FTREE)
    return FL_EINVAL;
  if (o->dist && (!o->dist->size || o->dist->rank >= o->dist->size ||
                  !o->dist->allreduce_min_u32 || !o->dist->allreduce_sum_u64 ||
                  !o->dist->allgather))
    return FL_EINVAL;
  return FL_OK;
}

static void free_work(cdg *g) {
  free(g->sw);
  free(g->sw_of_node);
  free(g->peer_sw);
  free(g->peer_port);
  free(g->peer_portid);
  free(g->dep);
  fl_u64map_free(&g->vdep);
  free(g->src);
  free(g->src_of_port);
}

/* VL-blind valleys straight from the dependency table: only (in, out) pairs
 * whose in-neighbour and out-neighbour are both on a higher tier can be
 * valleys, so no dependency is decoded and no slot is searched. */
static int scan_valleys(cdg *g) {
  for (uint32_t t = 0; t < g->n_sw; t++) {
    const sw_rec *r = &g->sw[t];
    if (r->tier == FL_TIER_UNKNOWN)
      continue;
    for (uint32_t in = 0; in < r->P; in++) {
      int32_t p = g->peer_sw[r->base + in];
      if (p < 0 || g->sw[p].tier == FL_TIER_UNKNOWN || g->sw[p].tier <= r->tier)
        continue;
      const uint32_t *row = &g->dep[r->dep_off + (uint64_t)in * r->P];
      for (uint32_t out = 0; out < r->P; out++) {
        int32_t n = g->peer_sw[r->base + out];
        if (!row[out] || n < 0 || g->sw[n].tier == FL_TIER_UNKNOWN ||
            g->sw[n].tier <= r->tier)
          continue;
        g->rep->valley_count++;
        if (g->valleys.n >= g->o.max_examples)
          continue;
        fl_cdg_valley v = {row[out], g->sw[p].node, r->node, g->sw[n].node};
        if (cdg_gb_push(&g->valleys, &v) != 0)
          return FL_ENOMEM;
      }
    }
  }
  return FL_OK;
}

/* Design mode on a layered fabric with nested covers (analysis/updown.h):
 * the graph counted in closed form, acyclic and without valleys or
 * unrouted pairs, so no walk, table or search is needed. Returns 1 when
 * the report is complete, 0 when the walks must run, FL_ENOMEM. */
static int closed_form(cdg *g) {
  size_t n = (size_t)g->n_sw + 1;
  uint32_t *tier = malloc(n * sizeof *tier), *lo = malloc(n * sizeof *lo);
  uint32_t *hi = malloc(n * sizeof *hi);
  uint8_t *is_root = calloc(n, 1);
  int rc = tier && lo && hi && is_root ? 0 : -1;
  if (rc == 0)
    cdg_slot_ranges(g, lo, hi);
  for (uint32_t s = 0; rc == 0 && s < g->n_sw; s++)
    tier[s] = g->sw[s].tier;
  for (uint32_t i = 0; rc == 0 && i < g->n_src; i++)
    is_root[g->src[i].sw] = 1;
  fl_updown_in in = {g->n_sw, tier, lo, hi, g->peer_sw, g->peer_port, is_root};
  fl_updown_counts c;
  if (rc == 0)
    rc = fl_updown_count(&in, &c);
  free(tier), free(lo), free(hi), free(is_root);
  if (rc <= 0)
    return rc < 0 ? FL_ENOMEM : 0;
  g->rep->channels = c.channels;
  g->rep->dependencies = c.dependencies;
  g->rep->destinations = c.roots;
  cdg_progress(g, "root switches", c.roots, c.roots);
  g->closed = 1;
  return 1;
}

static int analyze(cdg *g) {
  int rc = cdg_setup_switches(g);
  if (rc == FL_OK)
    rc = cdg_setup_peers(g);
  if (rc == FL_OK)
    rc = cdg_setup_sources(g);
  if (rc != FL_OK)
    return rc;
  g->rep->sources = g->n_src;
  if (g->minimal && !g->vl && !g->exhaustive) {
    rc = closed_form(g);
    if (rc != 0)
      return rc == 1 ? FL_OK : rc;
  }
  if (g->minimal) {
    g->dep = calloc(g->n_dep_entries + 1, sizeof *g->dep);
    if (!g->dep)
      return FL_ENOMEM;
  }
  rc = g->minimal ? cdg_run_minimal(g) : cdg_run_lft_walks(g);
  if (rc == FL_OK)
    rc = cdg_find_loops(g);
  valley_ctx vc = {g};
  if (rc == FL_OK)
    rc = g->vl ? cdg_for_each_dep(g, visit_valley, &vc) : scan_valleys(g);
  return rc;
}

static int cdg_analyze(const fl_fabric *fab, const fl_cdg_options *opts,
                       int exhaustive, int *closed, const fl_cdg_report **out) {
  if (!fab || !out)
    return FL_EINVAL;
  *out = NULL;
  double t0 = now_seconds();
  cdg g;
  memset(&g, 0, sizeof g);
  atomic_init(&g.lids_done, 0);
  g.f = fab;
  int rc = check_opts(fab, opts, &g.o);
  if (rc != FL_OK)
    return rc;
  g.minimal = g.o.routing == FL_CDG_ROUTING_MINIMAL;
  g.exhaustive = exhaustive;
  g.vl = !g.minimal &&
         (g.o.vl_mode == FL_CDG_VL_AWARE ||
          (g.o.vl_mode == FL_CDG_VL_AUTO && fl_fabric_has_sl2vl(fab)));
  g.parts = 1;
  /* only VL-blind LFT walks are split (fl_cdg_options.dist) */
  if (!g.minimal && !g.vl && g.o.dist && g.o.dist->size > 1) {
    g.dist = g.o.dist;
    g.part = g.dist->rank;
    g.parts = g.dist->size;
  }
  report_box *box = calloc(1, sizeof *box);
  if (!box)
    return FL_ENOMEM;
  g.rep = &box->rep;
  g.rep->routing = g.o.routing;
  g.rep->vl_aware = (uint32_t)g.vl;
  g.rep->traffic = g.o.traffic;
  g.loops.elem = sizeof(fl_cdg_loop);
  g.fwd.elem = sizeof(fl_cdg_fwd_loop);
  g.unrouted.elem = sizeof(fl_cdg_unrouted);
  g.valleys.elem = sizeof(fl_cdg_valley);
  g.fwd_switches.elem = sizeof(fl_id);
  g.hops.elem = sizeof(fl_cdg_hop);
  rc = analyze(&g);
  free_work(&g);
  fix_offsets(&g);
  box->hops = g.hops.v;
  box->fwd_switches = g.fwd_switches.v;
  if (rc != FL_OK) {
    fl_cdg_free(&box->rep);
    return rc;
  }
  box->rep.seconds = now_seconds() - t0;
  if (closed)
    *closed = g.closed;
  *out = &box->rep;
  return FL_OK;
}

int fl_cdg_analyze(const fl_fabric *fab, const fl_cdg_options *opts,
                   const fl_cdg_report **out) {
  return cdg_analyze(fab, opts, 0, NULL, out);
}

int fl_cdg_analyze_closed(const fl_fabric *fab, const fl_cdg_options *opts,
                          int *closed, const fl_cdg_report **out) {
  return cdg_analyze(fab, opts, 0, closed, out);
}

int fl_cdg_analyze_exhaustive(const fl_fabric *fab, const fl_cdg_options *opts,
                              const fl_cdg_report **out) {
  return cdg_analyze(fab, opts, 1, NULL, out);
}

void fl_cdg_free(const fl_cdg_report *report) {
  if (!report)
    return;
  report_box *box = (report_box *)(uintptr_t)report;
  free((void *)(uintptr_t)box->rep.loops);
  free((void *)(uintptr_t)box->rep.fwd_loops);
  free((void *)(uintptr_t)box->rep.unrouted);
  free((void *)(uintptr_t)box->rep.valleys);
  free(box->hops);
  free(box->fwd_switches);
  free(box);
}
