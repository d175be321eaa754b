/* SPDX-License-Identifier: MIT */
/*
 * plugins/ecmp-balance/traffic.c — link loads and effective bisection
 * bandwidth (eBB) under traffic patterns.
 *
 * Metric (Hoefler, Schneider, Lumsdaine, "Multistage switches are not
 * crossbars", Cluster 2008; the ORCS simulator of Schneider & Hoefler):
 * for one pattern, count the flows on every directed cable (divided by the
 * cable's capacity relative to the host links, so a 2x faster cable counts
 * half); a flow gets 1 / (the largest such congestion on its route); the
 * pattern's value is the mean over its flows; eBB is the mean over
 * patterns, here with a 99 % confidence half-width as ORCS prints. A flow
 * with no route counts 0. Patterns (ORCS names in brackets):
 *  - bisect [bisect_fb_sym]: a random pairing of all endpoints, both
 *    directions — the random permutation behind ORCS's eBB; @count
 *    patterns from @seed;
 *  - permutation [rand]: a uniformly random permutation (fixed points
 *    dropped);
 *  - shift: endpoint i sends to i + @shift (default half the endpoints);
 *  - ring: rail-aligned ring all-reduce: within each SU (attribute `su`,
 *    else `pod`) and rail (attribute `rail`), host k sends to host k+1;
 *  - all-to-all: every endpoint to every other; its value is normalised by
 *    (endpoints - 1), so a non-blocking fabric scores 1.
 *
 * Routing: TR_ROUTE_LFT follows the loaded LFTs hop by hop (a permutation
 * costs flows x hops); TR_ROUTE_ECMP splits a flow evenly over the minimal
 * next hops at every hop (fluid ECMP, the expectation of per-flow hashing).
 * ECMP loads are computed per destination switch, never per path: the
 * flows toward switch t are injected at their source switches and pushed
 * down the minimal-path DAG in decreasing distance order, touching only
 * loaded switches; a flow's worst congestion is then the largest load on
 * any branch of its DAG, computed for all sources of t at once in
 * increasing distance order (O(switch ports touched) per destination).
 * Cost: O(patterns x destination switches x touched ports).
 *
 * Random kinds: instance i is drawn from the seed alone (its shuffle starts
 * i * (endpoints - 1) draws into the stream: fl_view_rand_skip), evaluated
 * by a worker, and accounted in instance order with the stop rule; in an
 * MPI run (tr_opts.dist) instance i runs on rank i mod N and every rank
 * gathers and accounts every instance (random_patterns, docs/mpi.md).
 */
#define _GNU_SOURCE /* sched_getaffinity */
#include "traffic.h"

#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct tr_ws {
  const fl_view *v;
  const tr_opts *o;
  uint32_t nslots;
  double *load, *cap, *ein, *ecap, *acc, *amax;
  const uint8_t **rows;
  uint32_t *rowlen;
  double *x, *M;
  uint32_t *touched, *next, *head;
  uint8_t *inq;
  uint32_t maxd;
  uint32_t *src, *dst;
  uint8_t *bad; /* per flow: unrouted */
  uint64_t nf;
  uint32_t *foff, *forder;
  uint32_t *perm;
  double *vals;
  /* ECMP: each destination's touched switches from the loading pass
   * (tl[tl_off[d] .. tl_off[d + 1]), decreasing distance), reused by the
   * worst-congestion pass instead of a second propagation */
  uint32_t *tl;
  size_t tl_n, tl_cap, *tl_off;
  double *fbw; /* per flow: its bandwidth (ECMP), for worst_flow() */
  /* all-to-all: per switch s, the injection congestion c = (endpoints -
   * 1) / capacity of its CA slots, ascending (ic[ioff[s] .. ioff[s + 1])),
   * the slots (islot) and suffix sums of 1 / c (irs), so that the sum over
   * a switch's sources of 1 / max(c, m) is O(log) instead of O(CAs) */
  uint32_t *ioff, *islot;
  double *ic, *irs;
} tr_ws;

static void ws_free(tr_ws *w) {
  free(w->load), free(w->cap), free(w->ein), free(w->ecap), free(w->acc);
  free(w->amax), free(w->rows), free(w->rowlen), free(w->x), free(w->M);
  free(w->touched), free(w->next), free(w->head), free(w->inq), free(w->src);
  free(w->dst), free(w->bad), free(w->foff), free(w->forder), free(w->perm);
  free(w->vals), free(w->tl), free(w->tl_off), free(w->fbw);
  free(w->ioff), free(w->islot), free(w->ic), free(w->irs);
}

static int ws_init(tr_ws *w, const fl_view *v, const tr_opts *o) {
  memset(w, 0, sizeof *w);
  w->v = v;
  w->o = o;
  w->nslots = v->poff[v->ns];
  size_t P = w->nslots + 1, S = v->ns + 1, E = v->ne + 1;
  w->load = calloc(P, sizeof *w->load);
  w->cap = malloc(P * sizeof *w->cap);
  w->acc = calloc(P, sizeof *w->acc);
  w->amax = calloc(P, sizeof *w->amax);
  w->ein = calloc(E, sizeof *w->ein);
  w->ecap = malloc(E * sizeof *w->ecap);
  w->x = calloc(S, sizeof *w->x);
  w->M = calloc(S, sizeof *w->M);
  w->touched = malloc(S * sizeof *w->touched);
  w->next = malloc(S * sizeof *w->next);
  w->head = malloc(256 * sizeof *w->head);
  w->inq = calloc(S, 1);
  w->src = malloc(E * sizeof *w->src);
  w->dst = malloc(E * sizeof *w->dst);
  w->bad = calloc(E, 1);
  w->foff = calloc(v->nd + 2, sizeof *w->foff);
  w->forder = malloc(E * sizeof *w->forder);
  w->perm = malloc(E * sizeof *w->perm);
  w->tl_off = calloc(v->nd + 1, sizeof *w->tl_off);
  w->tl_cap = 4096; /* grown by keep_touched(); never NULL */
  w->tl = malloc(w->tl_cap * sizeof *w->tl);
  w->fbw = malloc(E * sizeof *w->fbw);
  if (!w->load || !w->cap || !w->acc || !w->amax || !w->ein || !w->ecap ||
      !w->x || !w->M || !w->touched || !w->next || !w->head || !w->inq ||
      !w->src || !w->dst || !w->bad || !w->foff || !w->forder || !w->perm ||
      !w->tl_off || !w->tl || !w->fbw)
    return -1;
  for (int k = 0; k < 256; k++)
    w->head[k] = FL_VIEW_NONE;
  /* capacities relative to the fastest host link (ORCS counts flows) */
  double ref = 0;
  for (uint32_t e = 0; e < v->ne; e++)
    if (v->ep_gbps[e] > ref)
      ref = v->ep_gbps[e];
  for (uint32_t i = 0; i < w->nslots; i++)
    w->cap[i] = ref > 0 && v->pgbps[i] > 0 ? v->pgbps[i] / ref : 1.0;
  for (uint32_t e = 0; e < v->ne; e++)
    w->ecap[e] = w->cap[v->ep_slot[e]];
  if (o->routing == TR_ROUTE_LFT) {
    w->rows = calloc(S, sizeof *w->rows);
    w->rowlen = calloc(S, sizeof *w->rowlen);
    if (!w->rows || !w->rowlen)
      return -1;
    for (uint32_t s = 0; s < v->ns; s++)
      w->rows[s] = v->api->lft(v->f, v->sw_node[s], &w->rowlen[s]);
  }
  return 0;
}

/* ---- all-to-all sources per switch ----------------------------------------
 */

typedef struct inj_key {
  double c;
  uint32_t slot;
} inj_key;

static int inj_cmp(const void *pa, const void *pb) {
  const inj_key *a = pa, *b = pb;
  if (a->c != b->c)
    return a->c < b->c ? -1 : 1;
  return (a->slot > b->slot) - (a->slot < b->slot);
}

/* The CA slots of every switch with their injection congestion (all-to-all:
 * each CA sends endpoints - 1 flows), sorted, with suffix sums of 1 / c.
 * 0, or -1 out of memory. */
static int inj_build(tr_ws *w) {
  const fl_view *v = w->v;
  double nm1 = v->ne > 1 ? (double)(v->ne - 1) : 1;
  w->ioff = calloc((size_t)v->ns + 1, sizeof *w->ioff);
  size_t n = 0;
  for (uint32_t s = 0; w->ioff && s < v->ns; s++) {
    for (uint32_t i = v->psw_end[s]; i < v->poff[s + 1]; i++)
      n += v->pnb[i] == FL_VIEW_NONE &&
           v->api->node_kind(v->f, v->pnode[i]) == FL_NODE_CA;
    w->ioff[s + 1] = (uint32_t)n;
  }
  w->islot = malloc((n + 1) * sizeof *w->islot);
  w->ic = malloc((n + 1) * sizeof *w->ic);
  w->irs = malloc((n + 1) * sizeof *w->irs);
  inj_key *k = malloc((n + 1) * sizeof *k);
  if (!w->ioff || !w->islot || !w->ic || !w->irs || !k) {
    free(k);
    return -1;
  }
  for (uint32_t s = 0; s < v->ns; s++) {
    uint32_t a = w->ioff[s], m = a;
    for (uint32_t i = v->psw_end[s]; i < v->poff[s + 1]; i++)
      if (v->pnb[i] == FL_VIEW_NONE &&
          v->api->node_kind(v->f, v->pnode[i]) == FL_NODE_CA)
        k[m++] = (inj_key){nm1 / w->cap[i], i};
    qsort(k + a, m - a, sizeof *k, inj_cmp);
    double rs = 0;
    for (uint32_t j = m; j-- > a;) {
      w->islot[j] = k[j].slot;
      w->ic[j] = k[j].c;
      rs += 1.0 / k[j].c;
      w->irs[j] = rs;
    }
  }
  free(k);
  return 0;
}

/* Sum over the CA slots j of switch @s other than @skip of
 * 1 / max(c_j, @m): the flows they send toward one destination endpoint,
 * whose worst congestion past the source is @m. O(log CAs of s). */
static double inj_sum(const tr_ws *w, uint32_t s, double m, uint32_t skip) {
  uint32_t a = w->ioff[s], b = w->ioff[s + 1];
  double sum = 0;
  if (skip != FL_VIEW_NONE) {
    for (uint32_t j = a; j < b; j++) /* the destination's own switch */
      if (w->islot[j] != skip)
        sum += 1.0 / (w->ic[j] > m ? w->ic[j] : m);
    return sum;
  }
  uint32_t lo = a, hi = b; /* first c_j > m: 1 / m below it, 1 / c_j from it */
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (w->ic[mid] > m)
      hi = mid;
    else
      lo = mid + 1;
  }
  sum = (double)(lo - a) / m;
  if (lo < b)
    sum += w->irs[lo];
  return sum;
}

/* ---- static routing: follow the LFTs ------------------------------------ */

/* Slots from switch @s to endpoint @dst into @path; hops, or -1 unrouted. */
static int lft_walk(const tr_ws *w, uint32_t s, uint32_t dst, uint32_t *path) {
  const fl_view *v = w->v;
  uint32_t dlid = v->ep_lid[dst];
  if (!dlid)
    return -1;
  for (int h = 0; h < 64; h++) {
    const uint8_t *row = w->rows[s];
    if (!row || dlid >= w->rowlen[s])
      return -1;
    uint32_t port = row[dlid];
    if (port == FL_LFT_NONE)
      return -1;
    uint32_t i = v->pslot[(size_t)s * 256 + port];
    if (i == FL_VIEW_NONE)
      return -1;
    path[h] = i;
    if (v->pnb[i] == FL_VIEW_NONE)
      return i == v->ep_slot[dst] ? h + 1 : -1;
    s = v->pnb[i];
  }
  return -1;
}

/* ---- ECMP: push the flows toward one destination switch down its DAG --- */

static void seed(tr_ws *w, uint32_t d, uint32_t s, double amount) {
  const uint8_t *dist = w->v->dist + (size_t)d * w->v->ns;
  if (!w->inq[s]) {
    w->inq[s] = 1;
    w->x[s] = 0;
    if (dist[s] > 0) {
      w->next[s] = w->head[dist[s]];
      w->head[dist[s]] = s;
      if (dist[s] > w->maxd)
        w->maxd = dist[s];
    }
  }
  w->x[s] += amount;
}

/* Returns the number of touched switches (w->touched, decreasing distance;
 * the destination switch last); clears inq. */
static uint32_t propagate(tr_ws *w, uint32_t d, int addload) {
  const fl_view *v = w->v;
  const uint8_t *dist = v->dist + (size_t)d * v->ns;
  const uint16_t *nm = v->nmin + (size_t)d * v->ns;
  uint32_t nt = 0, t = v->dsw[d];
  for (uint32_t k = w->maxd; k >= 1; k--) {
    uint32_t s = w->head[k];
    w->head[k] = FL_VIEW_NONE;
    while (s != FL_VIEW_NONE) {
      uint32_t nx = w->next[s];
      w->touched[nt++] = s;
      double share = w->x[s] / (double)(nm[s] & FL_VIEW_NMASK);
      for (uint32_t i = v->poff[s]; i < v->psw_end[s]; i++) {
        uint32_t u = v->pnb[i];
        if ((uint32_t)dist[u] + 1 != dist[s])
          continue;
        if (addload)
          w->load[i] += share;
        seed(w, d, u, share);
      }
      s = nx;
    }
  }
  w->maxd = 0;
  if (w->inq[t])
    w->touched[nt++] = t;
  for (uint32_t k = 0; k < nt; k++)
    w->inq[w->touched[k]] = 0;
  return nt;
}

/* Append the @nt switches propagate() touched for destination @d to the
 * touched lists (destinations in increasing order). 0, or -1. */
static int keep_touched(tr_ws *w, uint32_t d, uint32_t nt) {
  if (w->tl_n + nt > w->tl_cap) {
    size_t cap = w->tl_cap;
    while (cap < w->tl_n + nt)
      cap *= 2;
    uint32_t *n = realloc(w->tl, cap * sizeof *n);
    if (!n)
      return -1;
    w->tl = n, w->tl_cap = cap;
  }
  memcpy(w->tl + w->tl_n, w->touched, (size_t)nt * sizeof *w->touched);
  w->tl_n += nt;
  w->tl_off[d + 1] = w->tl_n;
  return 0;
}

/* M[s] = worst congestion from s to destination @d, for the switches
 * @touched[@nt] of a propagate() toward @d (in its order: decreasing
 * distance, so they are visited closest first). M[s] depends only on s,
 * d and the loads: the largest load / capacity on any minimal path. */
static void worst_down(tr_ws *w, uint32_t d, const uint32_t *touched,
                       uint32_t nt) {
  const fl_view *v = w->v;
  const uint8_t *dist = v->dist + (size_t)d * v->ns;
  for (uint32_t k = nt; k-- > 0;) {
    uint32_t s = touched[k];
    double m = 0;
    if (dist[s] > 0)
      for (uint32_t i = v->poff[s]; i < v->psw_end[s]; i++) {
        uint32_t u = v->pnb[i];
        if ((uint32_t)dist[u] + 1 != dist[s])
          continue;
        double c = w->load[i] / w->cap[i];
        if (w->M[u] > c)
          c = w->M[u];
        if (c > m)
          m = c;
      }
    w->M[s] = m;
  }
}

/* ---- one permutation-type pattern (flows in w->src/dst) ------------------ */

/* The mean flow bandwidth of the flows in w->src/dst into *@val. 0, or -1
 * out of memory. */
static int eval_flows(tr_ws *w, uint64_t *unrouted, double *val) {
  const fl_view *v = w->v;
  memset(w->load, 0, (size_t)w->nslots * sizeof *w->load);
  memset(w->ein, 0, (size_t)v->ne * sizeof *w->ein);
  memset(w->bad, 0, (size_t)v->ne);
  uint32_t path[64];
  double sum = 0;
  if (w->o->routing == TR_ROUTE_LFT) {
    for (uint64_t f = 0; f < w->nf; f++) {
      uint32_t a = w->src[f], b = w->dst[f];
      w->ein[a] += 1;
      int h = lft_walk(w, v->ep_sw[a], b, path);
      if (h < 0) {
        w->bad[f] = 1;
        continue;
      }
      for (int k = 0; k < h; k++)
        w->load[path[k]] += 1;
    }
    for (uint64_t f = 0; f < w->nf; f++) {
      if (w->bad[f])
        continue;
      uint32_t a = w->src[f], b = w->dst[f];
      int h = lft_walk(w, v->ep_sw[a], b, path);
      double m = w->ein[a] / w->ecap[a];
      for (int k = 0; k < h; k++) {
        double c = w->load[path[k]] / w->cap[path[k]];
        if (c > m)
          m = c;
      }
      sum += 1.0 / m;
    }
  } else {
    /* group flows by destination switch (counting sort) */
    memset(w->foff, 0, (size_t)(v->nd + 2) * sizeof *w->foff);
    for (uint64_t f = 0; f < w->nf; f++)
      w->foff[v->sw_d[v->ep_sw[w->dst[f]]] + 2]++;
    for (uint32_t d = 0; d < v->nd; d++)
      w->foff[d + 2] += w->foff[d + 1];
    for (uint64_t f = 0; f < w->nf; f++)
      w->forder[w->foff[v->sw_d[v->ep_sw[w->dst[f]]] + 1]++] = (uint32_t)f;
    /* pass 1: loads, and each destination's touched switches */
    w->tl_n = 0;
    for (uint32_t d = 0; d < v->nd; d++) {
      const uint8_t *dist = v->dist + (size_t)d * v->ns;
      uint32_t t = v->dsw[d];
      for (uint32_t k = w->foff[d]; k < w->foff[d + 1]; k++) {
        uint32_t f = w->forder[k], a = w->src[f], b = w->dst[f];
        uint32_t s = v->ep_sw[a];
        w->ein[a] += 1;
        w->load[v->ep_slot[b]] += 1;
        if (dist[s] == FL_VIEW_FAR) {
          w->bad[f] = 1;
          continue;
        }
        if (s != t)
          seed(w, d, s, 1.0);
      }
      if (keep_touched(w, d, propagate(w, d, 1)) != 0)
        return -1;
    }
    /* pass 2: each flow's worst congestion on its minimal-path DAG */
    for (uint32_t d = 0; d < v->nd; d++) {
      uint32_t t = v->dsw[d];
      worst_down(w, d, w->tl + w->tl_off[d],
                 (uint32_t)(w->tl_off[d + 1] - w->tl_off[d]));
      for (uint32_t k = w->foff[d]; k < w->foff[d + 1]; k++) {
        uint32_t f = w->forder[k], a = w->src[f], b = w->dst[f];
        if (w->bad[f])
          continue;
        uint32_t s = v->ep_sw[a];
        double m = w->ein[a] / w->ecap[a];
        double c = w->load[v->ep_slot[b]] / w->cap[v->ep_slot[b]];
        if (c > m)
          m = c;
        if (s != t && w->M[s] > m)
          m = w->M[s];
        w->fbw[f] = 1.0 / m;
        sum += 1.0 / m;
      }
    }
  }
  for (uint64_t f = 0; f < w->nf; f++)
    *unrouted += w->bad[f];
  *val = w->nf ? sum / (double)w->nf : 0;
  return 0;
}

/* Worst flow bandwidth of the last pattern (for rings: the ring's pace). */
static double worst_flow(tr_ws *w) {
  const fl_view *v = w->v;
  double worst = 1e300;
  uint32_t path[64];
  for (uint64_t f = 0; f < w->nf; f++) {
    if (w->bad[f])
      return 0;
    uint32_t a = w->src[f], b = w->dst[f], s = v->ep_sw[a];
    double m = w->ein[a] / w->ecap[a];
    double c = w->load[v->ep_slot[b]] / w->cap[v->ep_slot[b]];
    if (c > m)
      m = c;
    if (w->o->routing == TR_ROUTE_LFT) {
      int h = lft_walk(w, s, b, path);
      for (int k = 0; k < h; k++)
        if (w->load[path[k]] / w->cap[path[k]] > m)
          m = w->load[path[k]] / w->cap[path[k]];
    } else {
      /* eval_flows() computed it: M[s] depends only on the flow's source
       * switch, destination and the loads */
      if (w->fbw[f] < worst)
        worst = w->fbw[f];
      continue;
    }
    if (1.0 / m < worst)
      worst = 1.0 / m;
  }
  return w->nf ? worst : 0;
}

/* ---- all-to-all --------------------------------------------------------- */

/* All-to-all: its normalised mean flow bandwidth into *@val. 0, or -1 out
 * of memory. */
static int eval_all_to_all(tr_ws *w, uint64_t *unrouted, double *val) {
  const fl_view *v = w->v;
  if (!w->ioff && inj_build(w) != 0)
    return -1;
  memset(w->load, 0, (size_t)w->nslots * sizeof *w->load);
  double nm1 = v->ne > 1 ? (double)(v->ne - 1) : 1;
  for (uint32_t e = 0; e < v->ne; e++) {
    w->ein[e] = nm1;
    w->load[v->ep_slot[e]] = nm1;
  }
  uint32_t path[64];
  double sum = 0;
  uint64_t bad = 0;
  if (w->o->routing == TR_ROUTE_LFT) {
    for (int pass = 0; pass < 2; pass++)
      for (uint32_t b = 0; b < v->ne; b++)
        for (uint32_t d = 0; d < v->nd; d++) {
          uint32_t s = v->dsw[d];
          uint32_t amount = v->sw_nep[s] - (s == v->ep_sw[b]);
          if (!amount)
            continue;
          int h = lft_walk(w, s, b, path);
          if (h < 0) {
            if (pass == 1)
              bad += amount;
            continue;
          }
          if (pass == 0) {
            for (int k = 0; k + 1 < h; k++)
              w->load[path[k]] += amount;
            continue;
          }
          double m = w->load[v->ep_slot[b]] / w->cap[v->ep_slot[b]];
          for (int k = 0; k < h; k++)
            if (w->load[path[k]] / w->cap[path[k]] > m)
              m = w->load[path[k]] / w->cap[path[k]];
          /* the CAs of s send to b, each limited by its injection too */
          sum +=
              inj_sum(w, s, m, s == v->ep_sw[b] ? v->ep_slot[b] : FL_VIEW_NONE);
        }
  } else {
    w->tl_n = 0;
    for (uint32_t d = 0; d < v->nd; d++) {
      const uint8_t *dist = v->dist + (size_t)d * v->ns;
      uint32_t t = v->dsw[d];
      for (uint32_t q = 0; q < v->nd; q++) {
        uint32_t s = v->dsw[q];
        if (s != t && dist[s] != FL_VIEW_FAR)
          seed(w, d, s, (double)v->sw_nep[s] * v->sw_nep[t]);
      }
      if (keep_touched(w, d, propagate(w, d, 1)) != 0)
        return -1;
    }
    for (uint32_t d = 0; d < v->nd; d++) {
      const uint8_t *dist = v->dist + (size_t)d * v->ns;
      uint32_t t = v->dsw[d];
      worst_down(w, d, w->tl + w->tl_off[d],
                 (uint32_t)(w->tl_off[d + 1] - w->tl_off[d]));
      for (uint32_t i = v->psw_end[t]; i < v->poff[t + 1]; i++) {
        if (v->pnb[i] != FL_VIEW_NONE ||
            v->api->node_kind(v->f, v->pnode[i]) != FL_NODE_CA)
          continue;
        double out = w->load[i] / w->cap[i];
        for (uint32_t q = 0; q < v->nd; q++) {
          uint32_t s = v->dsw[q];
          if (dist[s] == FL_VIEW_FAR) {
            bad += v->sw_nep[s];
            continue;
          }
          double m = out;
          if (s != t && w->M[s] > m)
            m = w->M[s];
          sum += inj_sum(w, s, m, s == t ? i : FL_VIEW_NONE);
        }
      }
    }
  }
  *unrouted += bad;
  w->nf = (uint64_t)v->ne * (v->ne ? v->ne - 1 : 0);
  *val = w->nf ? sum * nm1 / (double)w->nf : 0;
  return 0;
}

/* ---- patterns ------------------------------------------------------------ */

static void shuffle(uint32_t *a, uint32_t n, uint64_t *rng) {
  for (uint32_t i = 0; i < n; i++)
    a[i] = i;
  for (uint32_t i = n; i > 1; i--) {
    uint32_t j = (uint32_t)(fl_view_rand(rng) % i);
    uint32_t t = a[i - 1];
    a[i - 1] = a[j];
    a[j] = t;
  }
}

typedef struct ring_key {
  const char *su, *rail;
  uint32_t ep;
} ring_key;

static int ring_cmp(const void *pa, const void *pb) {
  const ring_key *a = pa, *b = pb;
  int c = strcmp(a->su, b->su);
  if (!c)
    c = strcmp(a->rail, b->rail);
  return c ? c : (a->ep > b->ep) - (a->ep < b->ep);
}

static int ring_flows(tr_ws *w) {
  const fl_view *v = w->v;
  ring_key *k = malloc(((size_t)v->ne + 1) * sizeof *k);
  if (!k)
    return -1;
  for (uint32_t e = 0; e < v->ne; e++) {
    const char *su = v->api->attr(v->f, FL_ENT_NODE, v->ep_node[e], "su");
    if (!su)
      su = v->api->attr(v->f, FL_ENT_NODE, v->ep_node[e], "pod");
    const char *rail = v->api->attr(v->f, FL_ENT_NODE, v->ep_node[e], "rail");
    k[e].su = su ? su : "";
    k[e].rail = rail ? rail : "";
    k[e].ep = e;
  }
  if (v->ne > 1)
    qsort(k, v->ne, sizeof *k, ring_cmp);
  w->nf = 0;
  for (uint32_t i = 0; i < v->ne;) {
    uint32_t j = i;
    while (j < v->ne && !strcmp(k[j].su, k[i].su) &&
           !strcmp(k[j].rail, k[i].rail))
      j++;
    if (j - i >= 2)
      for (uint32_t q = i; q < j; q++) {
        w->src[w->nf] = k[q].ep;
        w->dst[w->nf] = k[q + 1 < j ? q + 1 : i].ep;
        w->nf++;
      }
    i = j;
  }
  free(k);
  return 0;
}

/* Add one pattern's link loads @load (and value @val) to the running
 * figures of @r; the accumulators are @w's. */
static void account(tr_ws *w, const double *load, tr_result *r, double val) {
  const fl_view *v = w->v;
  double mx = 0, sum = 0;
  uint32_t n = 0;
  for (uint32_t s = 0; s < v->ns; s++)
    for (uint32_t i = v->poff[s]; i < v->psw_end[s]; i++) {
      double c = load[i] / w->cap[i];
      w->acc[i] += c;
      if (c > w->amax[i])
        w->amax[i] = c;
      if (c > mx)
        mx = c;
      sum += c;
      n++;
    }
  if (mx > r->max_load)
    r->max_load = mx;
  r->mean_load += n ? sum / n : 0;
  if (r->patterns == 0 || val < r->ebb_min)
    r->ebb_min = val;
  if (r->patterns == 0 || val > r->ebb_max)
    r->ebb_max = val;
  w->vals[r->patterns++] = val;
}

/* The first random-number state of instance @i of a random kind: an
 * instance draws one shuffle of the endpoints, ne - 1 numbers (shuffle()),
 * so instance i starts i * (ne - 1) draws after the seed, reached without
 * drawing the instances before it. */
static uint64_t instance_rng(const tr_ws *w, uint64_t i) {
  uint32_t ne = w->v->ne;
  return fl_view_rand_skip(w->o->seed, i * (ne > 1 ? ne - 1 : 0));
}

/* The flows of instance @inst of random pattern @kind (2 bisect, 3
 * permutation) into @w. */
static void random_flows(tr_ws *w, int kind, uint64_t inst) {
  const fl_view *v = w->v;
  uint64_t rng = instance_rng(w, inst);
  w->nf = 0;
  shuffle(w->perm, v->ne, &rng);
  if (kind == 2)
    for (uint32_t i = 0; i + 1 < v->ne; i += 2) {
      w->src[w->nf] = w->perm[i], w->dst[w->nf++] = w->perm[i + 1];
      w->src[w->nf] = w->perm[i + 1], w->dst[w->nf++] = w->perm[i];
    }
  else
    for (uint32_t i = 0; i < v->ne; i++)
      if (w->perm[i] != i)
        w->src[w->nf] = i, w->dst[w->nf++] = w->perm[i];
}

/* One worker's instance of a round of random patterns. */
typedef struct tr_job {
  tr_ws w;
  uint64_t inst; /* the instance (its flows are drawn from it alone) */
  int kind;
  double val;
  uint64_t unrouted;
  int rc;
} tr_job;

static void *job_run(void *arg) {
  tr_job *j = arg;
  j->unrouted = 0;
  random_flows(&j->w, j->kind, j->inst);
  j->rc = eval_flows(&j->w, &j->unrouted, &j->val);
  return NULL;
}

/* Workers for random patterns: min(the run's thread budget, which the
 * view carries (fl_view.threads: --jobs, FABRICLINT_THREADS, else the CPUs
 * the host found this process may use), FL_VIEW_THREADS, count). A view
 * without a budget (a host older than ABI 1.7: fl_run_threads() gives 0)
 * counts the affinity mask. */
static uint32_t job_count(const fl_view *v, uint32_t npat) {
  long cpus = v->threads;
  cpu_set_t set;
  if (cpus == 0)
    cpus = sched_getaffinity(0, sizeof set, &set) == 0
               ? CPU_COUNT(&set)
               : sysconf(_SC_NPROCESSORS_ONLN);
  uint32_t n = cpus < 1                 ? 1
               : cpus > FL_VIEW_THREADS ? FL_VIEW_THREADS
                                        : (uint32_t)cpus;
  return n < npat ? n : npat;
}

int tr_stop_take(tr_stop *s, double ci, uint32_t count, double val) {
  s->n++;
  double d = val - s->mean;
  s->mean += d / s->n;
  s->m2 += d * (val - s->mean);
  if (s->n >= count)
    return 1;
  if (ci <= 0 || s->n < TR_MIN_PATTERNS)
    return 0;
  return 2.576 * sqrt(s->m2 / (s->n - 1)) / sqrt(s->n) <= ci;
}

uint64_t tr_instance_of(uint64_t base, uint32_t j, uint32_t size,
                        uint32_t rank) {
  return base + (uint64_t)j * size + rank;
}

/* Take an instance's results as the next in instance order: its value
 * @val, @unrouted flows, @nf flows and its switch-link loads @load (by
 * slot; only the switch-facing slots are read). 1 when the stop rule ends
 * the drawing here, else 0. */
static int fold(tr_ws *w, tr_result *r, tr_stop *st, uint32_t npat, double val,
                uint64_t unrouted, uint64_t nf, const double *load) {
  r->unrouted += unrouted;
  r->flows = nf;
  account(w, load, r, val);
  return tr_stop_take(st, w->o->ci, npat, val);
}

/* Run jobs[0..@nb) (one instance each) on @nb threads, this one included. */
static void run_jobs(tr_job *jobs, pthread_t *th, uint32_t nb) {
  uint32_t started = 0;
  for (uint32_t k = 1; k < nb; k++)
    if (pthread_create(&th[k], NULL, job_run, &jobs[k]) == 0)
      started |= 1u << k;
  if (nb)
    job_run(&jobs[0]);
  for (uint32_t k = 1; k < nb; k++) {
    if (started & (1u << k))
      pthread_join(th[k], NULL);
    else
      job_run(&jobs[k]); /* could not start: do it here */
  }
}

/* ---- a random kind's instances over the ranks of an MPI run -------------
 * Each rank's part of a gather (one per slot of a round): u32 failed, u32
 * present, and when present (and not failed) the instance's value (double),
 * unrouted flows and flows (u64), then the loads of the switch-facing
 * slots (doubles, switch by switch, poff[s] .. psw_end[s]). */
#define TR_PART_HDR 8u
#define TR_PART_NUM 24u

/* Switch-facing slots of @v (those account() reads). */
static size_t sw_slots(const fl_view *v) {
  size_t n = 0;
  for (uint32_t s = 0; s < v->ns; s++)
    n += v->psw_end[s] - v->poff[s];
  return n;
}

/* Write job @j's part into @p (room for TR_PART_HDR + TR_PART_NUM + 8 *
 * switch slots); its length. @j NULL: an absent instance. */
static size_t pack_part(const fl_view *v, const tr_job *j, unsigned char *p) {
  uint32_t hdr[2] = {0, j != NULL};
  memcpy(p, hdr, TR_PART_HDR);
  if (!j)
    return TR_PART_HDR;
  unsigned char *q = p + TR_PART_HDR;
  uint64_t nf = j->w.nf;
  memcpy(q, &j->val, 8);
  memcpy(q + 8, &j->unrouted, 8);
  memcpy(q + 16, &nf, 8);
  q += TR_PART_NUM;
  for (uint32_t s = 0; s < v->ns; s++) {
    size_t n = v->psw_end[s] - v->poff[s];
    memcpy(q, j->w.load + v->poff[s], n * sizeof(double));
    q += n * sizeof(double);
  }
  return (size_t)(q - p);
}

/* Check the @size parts of a gather (@all, @n bytes) and find each one:
 * part r at @at[r] (NULL when absent). 0; 1 when a rank says it failed; -1
 * malformed (a present part whose instance @want says absent, or the
 * reverse, or a wrong length). */
static int parts_check(const unsigned char *all, size_t n, uint32_t size,
                       size_t full, uint64_t base, uint32_t j, uint32_t npat,
                       const unsigned char **at) {
  const unsigned char *p = all, *end = all + n;
  int failed = 0;
  for (uint32_t r = 0; r < size; r++) {
    uint32_t hdr[2];
    if ((size_t)(end - p) < TR_PART_HDR)
      return -1;
    memcpy(hdr, p, TR_PART_HDR);
    at[r] = NULL;
    if (hdr[0]) {
      failed = 1;
      p += TR_PART_HDR;
      continue;
    }
    int want = tr_instance_of(base, j, size, r) < npat;
    if ((uint32_t)want != hdr[1])
      return -1;
    if (want) {
      if ((size_t)(end - p) < full)
        return -1;
      at[r] = p;
      p += full;
    } else
      p += TR_PART_HDR;
  }
  if (p != end)
    return -1;
  return failed;
}

/* Fold a gathered part (present, checked) into the results; the loads go
 * through @sload (by slot). 1 when the stop rule ends the drawing. */
static int fold_part(tr_ws *w, tr_result *r, tr_stop *st, uint32_t npat,
                     const unsigned char *p, double *sload) {
  const fl_view *v = w->v;
  double val;
  uint64_t unrouted, nf;
  p += TR_PART_HDR;
  memcpy(&val, p, 8);
  memcpy(&unrouted, p + 8, 8);
  memcpy(&nf, p + 16, 8);
  p += TR_PART_NUM;
  for (uint32_t s = 0; s < v->ns; s++) {
    size_t n = v->psw_end[s] - v->poff[s];
    memcpy(sload + v->poff[s], p, n * sizeof(double));
    p += n * sizeof(double);
  }
  return fold(w, r, st, npat, val, unrouted, nf, sload);
}

/* Random patterns (@kind 2 or 3): up to @npat instances. Alone: rounds of
 * one instance per worker, accounted in instance order. In an MPI run
 * (w->o->dist) a collective: the ranks agree on the workers per rank P
 * (the largest), instance i is evaluated by rank i mod N in rounds of N x
 * P, and after a round P gathers (slot j: the instances base + j N + r of
 * the ranks r, in rank order = instance order) give every rank every
 * value and load, accounted in instance order. Either way each instance is
 * evaluated exactly as alone and the stop rule (tr_stop_take) is applied
 * in instance order, so neither the figures nor the stopping point depend
 * on the number of workers or ranks; instances evaluated past the stop are
 * discarded. @failed: tr_eval's set-up failed on this rank (it still takes
 * part in the collectives). 0; -1 out of memory here; -3 another rank
 * failed or a collective failed. */
static int random_patterns(tr_ws *w, int kind, uint32_t npat, tr_result *r,
                           int failed) {
  const fl_view *v = w->v;
  const fl_dist *d = w->o->dist;
  uint32_t size = d ? d->size : 1, rank = d ? d->rank : 0;
  uint32_t mine = (uint32_t)((npat + (uint64_t)size - 1) / size);
  uint32_t per = job_count(v, mine ? mine : 1);
  if (d) { /* agree on P: the largest worker count (min of complements) */
    uint32_t agree = UINT32_MAX - per;
    if (d->allreduce_min_u32(d->ctx, &agree, 1) != 0)
      return failed ? -1 : -3;
    per = UINT32_MAX - agree;
    if (per < 1 || per > FL_VIEW_THREADS)
      return failed ? -1 : -3;
  } else if (failed)
    return -1;
  uint32_t ready = 0;
  tr_job *jobs = failed ? NULL : calloc(per, sizeof *jobs);
  pthread_t *th = failed ? NULL : calloc(per, sizeof *th);
  int local = failed || !jobs || !th;
  for (uint32_t k = 0; !local && k < per; k++, ready++) {
    jobs[k].kind = kind;
    local = ws_init(&jobs[k].w, v, w->o) != 0;
  }
  size_t full = TR_PART_HDR + TR_PART_NUM + sw_slots(v) * sizeof(double);
  unsigned char *part = NULL, fail_hdr[TR_PART_HDR];
  const unsigned char **at = NULL;
  double *sload = NULL;
  if (d && !local) {
    part = malloc(full);
    at = calloc(size, sizeof *at);
    sload = calloc((size_t)v->poff[v->ns] + 1, sizeof *sload);
    local = !part || !at || !sload;
  }
  uint32_t fl1[2] = {1, 0};
  memcpy(fail_hdr, fl1, TR_PART_HDR);
  tr_stop st = {0, 0, 0};
  int rc = 0, stop = 0;
  for (uint64_t base = 0; !stop && base < npat; base += (uint64_t)per * size) {
    uint32_t nb = 0; /* this rank's instances of the round: a prefix */
    while (nb < per && tr_instance_of(base, nb, size, rank) < npat)
      nb++;
    if (!local) {
      for (uint32_t k = 0; k < nb; k++)
        jobs[k].inst = tr_instance_of(base, k, size, rank);
      run_jobs(jobs, th, nb);
      for (uint32_t k = 0; k < nb; k++)
        local |= jobs[k].rc != 0;
    }
    if (!d) {
      if (local) {
        rc = -1;
        break;
      }
      for (uint32_t k = 0; !stop && k < nb; k++)
        stop = fold(w, r, &st, npat, jobs[k].val, jobs[k].unrouted,
                    jobs[k].w.nf, jobs[k].w.load);
      continue;
    }
    for (uint32_t j = 0; !stop && rc == 0 && j < per; j++) {
      const void *out = local ? (const void *)fail_hdr : part;
      size_t n_out =
          local ? TR_PART_HDR : pack_part(v, j < nb ? &jobs[j] : NULL, part);
      void *all = NULL;
      size_t n_all = 0;
      if (d->allgather(d->ctx, out, n_out, &all, &n_all) != 0) {
        rc = local ? -1 : -3;
        break;
      }
      int prc =
          local ? 1 : parts_check(all, n_all, size, full, base, j, npat, at);
      if (prc != 0)
        rc = local ? -1 : -3;
      for (uint32_t q = 0; rc == 0 && !stop && q < size; q++)
        if (at[q])
          stop = fold_part(w, r, &st, npat, at[q], sload);
      free(all);
    }
    if (rc)
      break;
  }
  for (uint32_t k = 0; k < ready; k++)
    ws_free(&jobs[k].w);
  free(jobs), free(th), free(part), free(at), free(sload);
  return rc;
}

void tr_result_free(tr_result *r) {
  free(r->loads);
  memset(r, 0, sizeof *r);
}

/* 1 all-to-all, 2 bisect, 3 permutation, 4 shift, 5 ring; 0 unknown */
static int pattern_kind(const char *name) {
  return !strcmp(name, "all-to-all")    ? 1
         : !strcmp(name, "bisect")      ? 2
         : !strcmp(name, "permutation") ? 3
         : !strcmp(name, "shift")       ? 4
         : !strcmp(name, "ring")        ? 5
                                        : 0;
}

int tr_pattern_known(const char *name) {
  return pattern_kind(name) != 0;
}

int tr_pattern_random(const char *name) {
  int k = pattern_kind(name);
  return k == 2 || k == 3;
}

int tr_eval(const fl_view *v, const char *name, const tr_opts *o,
            tr_result *r) {
  memset(r, 0, sizeof *r);
  snprintf(r->name, sizeof r->name, "%s", name);
  int kind = pattern_kind(name);
  if (!kind)
    return -2;
  int random = kind == 2 || kind == 3;
  tr_ws w;
  int init = ws_init(&w, v, o);
  uint32_t npat = random ? (o->count ? o->count : 1) : 1;
  if (init == 0) {
    w.vals = calloc(npat, sizeof *w.vals);
    init = w.vals ? 0 : -1;
  }
  if (init != 0 && !(random && o->dist)) {
    ws_free(&w);
    return -1;
  }
  r->worst_flow = 1e300;
  double val = 0;
  int rc = 0;
  if (random) /* in an MPI run a collective: also when init failed */
    rc = random_patterns(&w, kind, npat, r, init != 0);
  else if (kind == 1)
    rc = eval_all_to_all(&w, &r->unrouted, &val);
  else {
    w.nf = 0;
    if (kind == 4) {
      uint32_t sh = o->shift ? o->shift % (v->ne ? v->ne : 1) : v->ne / 2;
      for (uint32_t i = 0; sh && i < v->ne; i++)
        w.src[w.nf] = i, w.dst[w.nf++] = (i + sh) % v->ne;
    } else
      rc = ring_flows(&w);
    if (rc == 0)
      rc = eval_flows(&w, &r->unrouted, &val);
    if (rc == 0)
      r->worst_flow = worst_flow(&w);
  }
  if (rc != 0) {
    ws_free(&w);
    return rc == -3 ? -3 : -1;
  }
  if (!random) {
    r->flows = w.nf;
    account(&w, w.load, r, val);
  }
  if (r->worst_flow > 1e299)
    r->worst_flow = -1; /* not computed */
  double mean = 0, var = 0;
  for (uint32_t p = 0; p < r->patterns; p++)
    mean += w.vals[p];
  mean /= r->patterns ? r->patterns : 1;
  for (uint32_t p = 0; p < r->patterns; p++)
    var += (w.vals[p] - mean) * (w.vals[p] - mean);
  r->ebb_mean = mean;
  r->ebb_ci99 = r->patterns > 1
                    ? 2.576 * sqrt(var / (r->patterns - 1)) / sqrt(r->patterns)
                    : 0;
  r->mean_load /= r->patterns ? r->patterns : 1;
  if (o->slot_load) {
    memset(o->slot_load, 0, v->poff[v->ns] * sizeof *o->slot_load);
    for (uint32_t s = 0; s < v->ns; s++)
      for (uint32_t i = v->poff[s]; i < v->psw_end[s]; i++)
        o->slot_load[i] = w.acc[i] / (r->patterns ? r->patterns : 1);
  }
  if (o->all_loads) { /* every switch cable's mean load (--view load) */
    uint32_t ns = v->poff[v->ns];
    r->loads = calloc(ns + 1, sizeof *r->loads);
    if (!r->loads) {
      ws_free(&w);
      return -1;
    }
    for (uint32_t s = 0; s < v->ns; s++)
      for (uint32_t i = v->poff[s]; i < v->psw_end[s]; i++)
        r->loads[i] = w.acc[i] / (r->patterns ? r->patterns : 1);
  }
  /* hottest switch links by mean load over the patterns */
  uint32_t top = o->top < TR_HOT_MAX ? o->top : TR_HOT_MAX;
  for (uint32_t s = 0; s < v->ns; s++)
    for (uint32_t i = v->poff[s]; i < v->psw_end[s]; i++) {
      double a = w.acc[i] / r->patterns;
      if (a <= 0)
        continue;
      uint32_t k;
      if (r->n_hot < top)
        k = r->n_hot++;
      else if (top && a > r->hot_load[top - 1])
        k = top - 1;
      else
        continue;
      while (k > 0 && r->hot_load[k - 1] < a) {
        r->hot_load[k] = r->hot_load[k - 1];
        r->hot_slot[k] = r->hot_slot[k - 1];
        r->hot_max[k] = r->hot_max[k - 1];
        k--;
      }
      r->hot_load[k] = a;
      r->hot_slot[k] = i;
      r->hot_max[k] = w.amax[i];
    }
  ws_free(&w);
  return 0;
}
