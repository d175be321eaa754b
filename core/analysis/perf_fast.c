/* SPDX-License-Identifier: MIT */
/*
 * core/analysis/perf_fast.c — the one-pass max-min solver for steps whose
 * flows all carry the same bytes (every collective perf_flows.c builds).
 *
 * With equal bytes the step time is set by the slowest flow, and the
 * slowest max-min rate is the first saturation level of progressive
 * filling: x1 = min over directed links of capacity / flows crossing it
 * (nothing is frozen before it). Later levels only rise (Bertsekas &
 * Gallager, §6.5.2), so they change neither the step time nor the links
 * saturated at the slowest flow's rate (the bottlenecks). One pass that
 * counts the flows on every directed link is then enough; pf_maxmin()
 * (perf_maxmin.c) computes every level and is the reference the unit test
 * compares this pass with (tests/unit/test_perf.c).
 *
 * The pass, per destination NIC: its flow classes are put on their source
 * switches, then the counts move one hop per level (level-synchronous:
 * every switch holding flows toward the destination at this level forwards
 * them along its LFT entry, read from the row pointer cached in pf_net, or
 * splits them over the minimal next hops (equally for spray, by AR's
 * load-aware shares, perf_ar.c); counts that meet at a
 * switch merge). A loop-free route ends within nsw levels, so a frontier
 * still alive after that is a forwarding loop. Cost per destination:
 * O(classes + switch visits), a switch being visited once per distinct hop
 * count at which flows reach it (once on minimal routes). No per-flow
 * state, no topological sort.
 *
 * LFT: destinations go in blocks of FAST_BLOCK consecutive NICs, each
 * switch of the frontier holding a vector (one entry per destination of
 * the block, with the list of its nonzero entries), so a switch's LFT row
 * (consecutive LIDs), hop records and link counters are read once per
 * block instead of once per destination; all-to-all's first hop is taken
 * straight from the source groups. AR: the destinations cabled to one
 * switch walk together (their next hops differ only at that switch).
 *
 * LFT and the ideal count integers (flows are whole), so the sums are exact
 * in any order: destinations are split over threads, each with its own
 * link counts, added at the end. AR splits into fractions, so it runs in
 * one thread, switch by switch (deterministic results).
 *
 * A routing problem (a hole, a dead port, a loop) or a loaded link of
 * unknown capacity makes pf_maxmin_first() return pf_maxmin()'s result,
 * which names the first problem exactly as it always has.
 */
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/perf_impl.h"
#include "fabriclint/threads.h"

#define FAST_MAX_HOPS   256u
#define FAST_MAX_THREAD 8u
#define FAST_BLOCK      256u /* LFT: destinations walked together (<= 256) */
/* fewer destinations per thread: one thread. Builds for ThreadSanitizer
 * (-DFABRICLINT_SANITIZE=thread) define FL_PERF_THREAD_DESTS as 1 so that
 * test-size jobs take the threaded path (tests/tsan/run.sh). */
#ifdef FL_PERF_THREAD_DESTS
#define FAST_MIN_DESTS FL_PERF_THREAD_DESTS
#else
#define FAST_MIN_DESTS 2048u
#endif

/* One worker: destinations [d0, d1) into its own counts. */
typedef struct fw {
  const pf_net *net;
  const pf_nic *nic;
  const pf_flows *fl;
  uint32_t mode, d0, d1;
  double *cnt;  /* [ndl] flows crossing each directed link */
  double *gcnt; /* [ng] flows each group injects (all members together) */
  uint32_t *stamp, *pos, tag;
  uint32_t *fs[2];  /* frontier switches, this level and the next */
  double *fv[2];    /* flows they hold toward the destination */
  double *bv[2];    /* LFT blocks: [slot * FAST_BLOCK + j] flows of frontier
                       switch fs[k][slot] toward the block's destination j;
                       all zero between uses (an entry is reset once read) */
  uint8_t *nz[2];   /* [slot * FAST_BLOCK + i]: the i-th nonzero j of slot */
  uint32_t *nzc[2]; /* [slot]: how many */
  uint32_t hdl[FAST_MAX_HOPS], hnx[FAST_MAX_HOPS];
  double hfr[FAST_MAX_HOPS];
  pf_class *cbuf;
  size_t cap_c;
  pf_router rt;
  int failed; /* 1: a routing problem (pf_maxmin names it), -1: no memory */
} fw;

static uint32_t next_tag(fw *w) {
  if (++w->tag == 0) {
    memset(w->stamp, 0, w->net->nsw * sizeof *w->stamp);
    w->tag = 1;
  }
  return w->tag;
}

/* Add @v flows at switch @s to frontier @k (merging with flows already
 * there at this level); returns the new frontier size. */
static uint32_t put(fw *w, int k, uint32_t n, uint32_t s, double v) {
  if (w->stamp[s] == w->tag) {
    w->fv[k][w->pos[s]] += v;
    return n;
  }
  w->stamp[s] = w->tag;
  w->pos[s] = n;
  w->fs[k][n] = s;
  w->fv[k][n] = v;
  return n + 1;
}

/* Add @v (> 0) flows toward block destination @j at switch @s of block
 * frontier @k (*@n slots so far). */
static void badd(fw *w, int k, uint32_t *n, uint32_t s, uint32_t j, double v) {
  uint32_t i;
  if (w->stamp[s] == w->tag) {
    i = w->pos[s];
  } else {
    w->stamp[s] = w->tag;
    w->pos[s] = i = (*n)++;
    w->fs[k][i] = s;
    w->nzc[k][i] = 0;
  }
  double *x = w->bv[k] + (size_t)i * FAST_BLOCK + j;
  if (*x == 0)
    w->nz[k][(size_t)i * FAST_BLOCK + w->nzc[k][i]++] = (uint8_t)j;
  *x += v;
}

/* Frontier 0 of a block of explicit flows: every class toward destination
 * d0 + @j at its source switch. */
static void block_sources(fw *w, uint32_t j, uint32_t *n) {
  const pf_flows *fl = w->fl;
  uint32_t d = w->d0 + j;
  for (uint32_t k = fl->dst_off[d]; k < fl->dst_off[d + 1]; k++) {
    const pf_class *c = &fl->cls[k];
    w->gcnt[c->group] += c->count;
    if (c->count > 0)
      badd(w, 0, n, fl->groups[c->group].sw, j, c->count);
  }
}

/* One LFT hop of @x flows toward block destination @j (LID @lid, port
 * @port) from switch @s (row @row of @len LIDs, hops @hs): counted on the
 * link, then ejected or added to frontier @k (*@n slots). 1: no route. */
static inline int lft_hop(fw *w, const uint8_t *row, uint32_t len,
                          const pf_hop *hs, uint32_t lid, fl_id port,
                          uint32_t j, double x, int k, uint32_t *n) {
  if (lid >= len || row[lid] == 0 || row[lid] == 255)
    return 1;
  const pf_hop *h = &hs[row[lid]];
  if (h->dl == PF_NONE)
    return 1;
  w->cnt[h->dl] += x;
  if (h->port == port)
    return 0;
  if (h->next == PF_NONE)
    return 1;
  badd(w, k, n, h->next, j, x);
  return 0;
}

static int cmp_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

/* All-to-all, the sources' first hop straight from the groups (no level-0
 * frontier): for every rail of the block, every group of that rail sends
 * m (m - 1 to its own members) flows to each of the block's destinations
 * of the rail; the hops fill frontier 0. */
static int a2a_first_hop(fw *w, uint32_t nb, const uint32_t *lid,
                         const fl_id *port, uint32_t *n) {
  const pf_flows *fl = w->fl;
  const pf_net *net = w->net;
  uint64_t by_rail[FAST_BLOCK]; /* rail << 32 | j */
  for (uint32_t j = 0; j < nb; j++)
    by_rail[j] = (uint64_t)((w->d0 + j) % fl->rails) << 32 | j;
  qsort(by_rail, nb, sizeof *by_rail, cmp_u64);
  for (uint32_t a = 0, b; a < nb; a = b) {
    uint32_t r = (uint32_t)(by_rail[a] >> 32);
    for (b = a; b < nb && (uint32_t)(by_rail[b] >> 32) == r; b++)
      ;
    for (uint32_t g = fl->rail_goff[r]; g < fl->rail_goff[r + 1]; g++) {
      const pf_group *gr = &fl->groups[g];
      uint32_t s = gr->sw;
      const uint8_t *row = net->lft_row[s];
      uint32_t len = net->lft_len[s];
      const pf_hop *hs = net->hop + (size_t)s * 256;
      for (uint32_t q = a; q < b; q++) {
        uint32_t j = (uint32_t)by_rail[q];
        double c = gr->m - (fl->grp_of[w->d0 + j] == g ? 1.0 : 0.0);
        if (c <= 0)
          continue;
        w->gcnt[g] += c;
        if (lft_hop(w, row, len, hs, lid[j], port[j], j, c, 0, n))
          return 1;
      }
    }
  }
  return 0;
}

/* LFT routing, @nb <= FAST_BLOCK destinations from w->d0 at once: the
 * level-synchronous walk with a vector of flows per switch (one entry per
 * destination), so a switch's LFT row, hop table and links are read once
 * for the block. Returns 1 on a routing problem or a loop. */
static int block_lft(fw *w, uint32_t nb) {
  const pf_net *net = w->net;
  uint32_t lid[FAST_BLOCK];
  fl_id port[FAST_BLOCK];
  for (uint32_t j = 0; j < nb; j++) {
    lid[j] = w->nic[w->d0 + j].lid;
    port[j] = w->nic[w->d0 + j].port;
  }
  next_tag(w);
  uint32_t n = 0;
  if (w->fl->a2a) {
    if (a2a_first_hop(w, nb, lid, port, &n))
      return 1;
  } else {
    for (uint32_t j = 0; j < nb; j++)
      block_sources(w, j, &n);
  }
  int cur = 0;
  for (uint32_t lvl = 0; n; lvl++) {
    if (lvl > net->nsw)
      return 1; /* still moving after nsw hops: a forwarding loop */
    next_tag(w);
    uint32_t nn = 0;
    for (uint32_t i = 0; i < n; i++) {
      uint32_t s = w->fs[cur][i];
      double *v = w->bv[cur] + (size_t)i * FAST_BLOCK;
      const uint8_t *nz = w->nz[cur] + (size_t)i * FAST_BLOCK;
      const uint8_t *row = net->lft_row[s];
      uint32_t len = net->lft_len[s];
      const pf_hop *hs = net->hop + (size_t)s * 256;
      for (uint32_t k = 0; k < w->nzc[cur][i]; k++) {
        uint32_t j = nz[k];
        double x = v[j];
        v[j] = 0;
        if (lft_hop(w, row, len, hs, lid[j], port[j], j, x, cur ^ 1, &nn))
          return 1;
      }
    }
    cur ^= 1;
    n = nn;
  }
  return 0;
}

/* AR and spray: move the flows of frontier 0 (@n switches) toward switch
 * @S (where NIC @d is cabled), splitting them over each switch's minimal
 * next hops (pf_next) by their shares (pf_next_frac: equal for spray, the
 * load-aware split for AR); what reaches @S stops there (its destinations'
 * cables are counted by the caller). 1: a switch has no path. */
static int ar_walk(fw *w, const pf_nic *d, uint32_t S, uint32_t n) {
  int cur = 0;
  for (uint32_t lvl = 0; n; lvl++) {
    if (lvl > w->net->nsw)
      return 1; /* cannot happen on minimal paths; kept as a guard */
    next_tag(w);
    uint32_t nn = 0;
    for (uint32_t i = 0; i < n; i++) {
      uint32_t s = w->fs[cur][i], why;
      if (s == S)
        continue;
      uint32_t k = pf_next(&w->rt, s, d, w->hdl, w->hnx, FAST_MAX_HOPS, &why);
      if (k == 0)
        return 1;
      pf_next_frac(&w->rt, s, d, k, w->hfr);
      for (uint32_t j = 0; j < k; j++) {
        double v = w->fv[cur][i] * w->hfr[j];
        w->cnt[w->hdl[j]] += v;
        nn = put(w, cur ^ 1, nn, w->hnx[j], v);
      }
    }
    cur ^= 1;
    n = nn;
  }
  return 0;
}

/* The ideal: every class toward @d straight into @d's cable (pf_classes_for
 * enumerated in place). */
static void ideal_dest(fw *w, uint32_t d) {
  const pf_flows *fl = w->fl;
  double tot = 0;
  if (fl->a2a) {
    uint32_t r = d % fl->rails, own = fl->grp_of[d];
    for (uint32_t g = fl->rail_goff[r]; g < fl->rail_goff[r + 1]; g++) {
      double c = fl->groups[g].m - (own == g ? 1.0 : 0.0);
      if (c > 0) {
        w->gcnt[g] += c;
        tot += c;
      }
    }
  } else {
    for (uint32_t k = fl->dst_off[d]; k < fl->dst_off[d + 1]; k++) {
      w->gcnt[fl->cls[k].group] += fl->cls[k].count;
      tot += fl->cls[k].count;
    }
  }
  w->cnt[w->nic[d].dl_in] += tot;
}

/* AR, the destinations @ds[@nd] cabled to one switch S: their hops agree
 * everywhere but at S (ideal AR splits toward the destination's switch), so
 * their flows walk to S together; each one's cable carries all of its
 * flows. */
static int ar_switch(fw *w, const uint32_t *ds, uint32_t nd) {
  const pf_nic *d0 = &w->nic[ds[0]];
  next_tag(w);
  uint32_t n = 0;
  for (uint32_t i = 0; i < nd; i++) {
    size_t nc = pf_classes_for(w->fl, ds[i], w->cbuf, w->cap_c);
    double tot = 0;
    for (size_t k = 0; k < nc; k++) {
      const pf_class *c = &w->cbuf[k];
      w->gcnt[c->group] += c->count;
      tot += c->count;
      n = put(w, 0, n, w->fl->groups[c->group].sw, c->count);
    }
    w->cnt[w->nic[ds[i]].dl_in] += tot;
  }
  return ar_walk(w, d0, d0->sw, n);
}

/* AR: destinations by switch (then index), each switch's together. */
static int ar_all(fw *w) {
  uint32_t nd = w->d1 - w->d0;
  uint64_t *key = malloc((nd ? nd : 1) * sizeof *key);
  uint32_t *ds = malloc((nd ? nd : 1) * sizeof *ds);
  if (!key || !ds) {
    free(key), free(ds);
    return -1;
  }
  for (uint32_t i = 0; i < nd; i++)
    key[i] = (uint64_t)w->nic[w->d0 + i].sw << 32 | (w->d0 + i);
  qsort(key, nd, sizeof *key, cmp_u64);
  int rc = 0;
  for (uint32_t a = 0, b; a < nd && rc == 0; a = b) {
    uint32_t k = 0;
    for (b = a; b < nd && key[b] >> 32 == key[a] >> 32; b++)
      ds[k++] = (uint32_t)key[b];
    rc = ar_switch(w, ds, k);
  }
  free(key), free(ds);
  return rc;
}

static void *work(void *arg) {
  fw *w = arg;
  if (w->mode == FL_WL_ROUTE_LFT) {
    uint32_t end = w->d1;
    for (; w->d0 < end && !w->failed; w->d0 += FAST_BLOCK)
      w->failed =
          block_lft(w, end - w->d0 < FAST_BLOCK ? end - w->d0 : FAST_BLOCK);
    return NULL;
  }
  if (w->mode == PF_ROUTE_IDEAL) {
    for (uint32_t d = w->d0; d < w->d1; d++)
      ideal_dest(w, d);
    return NULL;
  }
  w->failed = ar_all(w);
  return NULL;
}

static void fw_free(fw *w) {
  pf_router_free(&w->rt);
  free(w->cnt), free(w->gcnt), free(w->stamp), free(w->pos);
  free(w->fs[0]), free(w->fs[1]), free(w->fv[0]), free(w->fv[1]);
  for (int k = 0; k < 2; k++)
    free(w->bv[k]), free(w->nz[k]), free(w->nzc[k]);
  free(w->cbuf);
}

static int fw_init(fw *w, const pf_net *net, const pf_nic *nic,
                   const pf_flows *fl, uint32_t mode, size_t cap_c) {
  memset(w, 0, sizeof *w);
  w->net = net, w->nic = nic, w->fl = fl, w->mode = mode;
  size_t ns = net->nsw ? net->nsw : 1;
  w->cnt = calloc(net->ndl ? net->ndl : 1, sizeof *w->cnt);
  w->gcnt = calloc(fl->ng ? fl->ng : 1, sizeof *w->gcnt);
  w->stamp = calloc(ns, sizeof *w->stamp);
  w->pos = malloc(ns * sizeof *w->pos);
  int blocks = mode == FL_WL_ROUTE_LFT;
  for (int k = 0; k < 2; k++) {
    w->fs[k] = malloc(ns * sizeof *w->fs[k]);
    w->fv[k] = malloc(ns * sizeof *w->fv[k]);
    if (!blocks)
      continue;
    w->bv[k] = calloc(ns * FAST_BLOCK, sizeof *w->bv[k]);
    w->nz[k] = malloc(ns * FAST_BLOCK * sizeof *w->nz[k]);
    w->nzc[k] = malloc(ns * sizeof *w->nzc[k]);
    if (!w->bv[k] || !w->nz[k] || !w->nzc[k])
      return -1;
  }
  w->cap_c = cap_c;
  w->cbuf = malloc((cap_c ? cap_c : 1) * sizeof *w->cbuf);
  if (!w->cnt || !w->gcnt || !w->stamp || !w->pos || !w->fs[0] || !w->fs[1] ||
      !w->fv[0] || !w->fv[1] || !w->cbuf)
    return -1;
  return pf_router_init(&w->rt, net, mode) == FL_OK ? 0 : -1;
}

int pf_uniform_bytes(const pf_flows *fl) {
  if (fl->a2a)
    return 1;
  for (size_t i = 1; i < fl->ncls; i++)
    if (fl->cls[i].bytes != fl->cls[0].bytes)
      return 0;
  return 1;
}

/* Workers for @nd destinations: LFT and the ideal only (exact sums). @want
 * 0: one per CPU of fl_threads_available(), with at least FAST_MIN_DESTS
 * destinations each; else @want, at most one per destination (the unit
 * tests thread small inputs so). Never more than FAST_MAX_THREAD. */
static uint32_t thread_count(uint32_t mode, uint32_t nd, uint32_t want) {
  if (mode == FL_WL_ROUTE_AR || mode == FL_WL_ROUTE_SPRAY || nd == 0)
    return 1;
  uint32_t most = nd;
  if (want == 0) {
    want = fl_threads_available();
    most = nd / FAST_MIN_DESTS;
  }
  if (want > FAST_MAX_THREAD)
    want = FAST_MAX_THREAD;
  if (want > most)
    want = most;
  return want ? want : 1;
}

/* Run the workers (worker 0 in this thread); a thread that cannot start
 * leaves its range to be run here. */
static void run_workers(fw *w, uint32_t nt) {
  pthread_t th[FAST_MAX_THREAD];
  int started[FAST_MAX_THREAD] = {0};
  for (uint32_t t = 1; t < nt; t++)
    started[t] = pthread_create(&th[t], NULL, work, &w[t]) == 0;
  work(&w[0]);
  for (uint32_t t = 1; t < nt; t++) {
    if (started[t])
      pthread_join(th[t], NULL);
    else
      work(&w[t]);
  }
}

/* The first saturation level from the link counts, as pf_maxmin's first
 * round would (same expressions, so the same doubles). Returns 1 when a
 * loaded link has no known capacity (pf_maxmin names it). */
static int first_level(const pf_net *net, const double *cnt, pf_solution *sol,
                       double bytes) {
  double x = INFINITY;
  for (uint32_t dl = 0; dl < net->ndl; dl++) {
    if (cnt[dl] <= 1e-12)
      continue;
    if (isnan(net->cap[dl]))
      return 1;
    double rest = net->cap[dl];
    double s = (rest > 0 ? rest : 0) / cnt[dl];
    if (s < x)
      x = s;
  }
  for (uint32_t dl = 0; dl < net->ndl; dl++) {
    if (cnt[dl] <= 1e-12)
      continue;
    double rest = net->cap[dl];
    double s = (rest > 0 ? rest : 0) / cnt[dl];
    if (s <= x * (1 + 1e-9) + 1e-15)
      sol->level[dl] = x;
  }
  sol->slow_level = x;
  sol->step_time_s = isfinite(x) ? bytes * 8.0 / (x * 1e9) : 0;
  sol->rounds = 1;
  return 0;
}

int pf_maxmin_first(const pf_net *net, const pf_nic *nic, const pf_flows *fl,
                    uint32_t mode, uint32_t threads, pf_solution *sol,
                    fl_error *err) {
  memset(sol, 0, sizeof *sol);
  sol->slow_level = INFINITY;
  size_t nd = net->ndl ? net->ndl : 1;
  sol->level = malloc(nd * sizeof *sol->level);
  sol->weight = calloc(nd, sizeof *sol->weight);
  size_t cap_c = pf_classes_cap(fl);
  uint32_t nt = thread_count(mode, fl->nnic, threads);
  fw w[FAST_MAX_THREAD];
  int bad = !sol->level || !sol->weight;
  for (uint32_t t = 0; t < nt; t++) {
    bad |= fw_init(&w[t], net, nic, fl, mode, cap_c) != 0;
    w[t].d0 = (uint32_t)((uint64_t)fl->nnic * t / nt);
    w[t].d1 = (uint32_t)((uint64_t)fl->nnic * (t + 1) / nt);
  }
  int failed = 0, brc = FL_OK;
  if (!bad && mode == FL_WL_ROUTE_AR) { /* one worker */
    brc = pf_router_balance(&w[0].rt, nic, fl, err);
    bad = brc != FL_OK;
    pf_solution_ar(sol, &w[0].rt);
  }
  if (!bad) {
    for (size_t i = 0; i < nd; i++)
      sol->level[i] = INFINITY;
    run_workers(w, nt);
    /* integer counts (LFT, ideal) sum exactly in this order; AR has one
     * worker */
    for (uint32_t t = 0; t < nt; t++) {
      failed |= w[t].failed;
      for (uint32_t dl = 0; dl < net->ndl; dl++)
        sol->weight[dl] += w[t].cnt[dl];
      if (t > 0)
        for (uint32_t g = 0; g < fl->ng; g++)
          w[0].gcnt[g] += w[t].gcnt[g];
    }
    for (uint32_t g = 0; g < fl->ng; g++)
      sol->weight[fl->groups[g].inj_dl] += w[0].gcnt[g] / fl->groups[g].m;
  }
  for (uint32_t t = 0; t < nt; t++)
    fw_free(&w[t]);
  if (brc != FL_OK && brc != FL_ENOMEM) {
    pf_solution_free(sol);
    return brc;
  }
  if (bad || failed < 0) {
    pf_solution_free(sol);
    return fl_error_set(err, FL_ENOMEM, NULL, 0, 0, "out of memory");
  }
  double bytes = fl->a2a ? fl->a2a_bytes : fl->ncls ? fl->cls[0].bytes : 0;
  if (failed || first_level(net, sol->weight, sol, bytes)) {
    pf_solution_free(sol); /* pf_maxmin says what is wrong */
    return pf_maxmin(net, nic, fl, mode, sol, err);
  }
  return FL_OK;
}

/* The workers pf_solve() asks for: 0 (fl_threads_available()) without a
 * budget, else the budget net->threads, at most one per FAST_MIN_DESTS
 * destinations, at least 1. */
static uint32_t budget(const pf_net *net, uint32_t nd) {
  if (net->threads == 0)
    return 0;
  uint32_t most = nd / FAST_MIN_DESTS;
  uint32_t t = net->threads < most ? net->threads : most;
  return t ? t : 1;
}

int pf_solve(const pf_net *net, const pf_nic *nic, const pf_flows *fl,
             uint32_t mode, pf_solution *sol, fl_error *err) {
  if (pf_uniform_bytes(fl))
    return pf_maxmin_first(net, nic, fl, mode, budget(net, fl->nnic), sol, err);
  return pf_maxmin(net, nic, fl, mode, sol, err);
}
