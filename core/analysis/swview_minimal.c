/* SPDX-License-Identifier: MIT */
/*
 * core/analysis/swview_minimal.c — fl_view_minimal() of fabriclint/view.h
 * (fl_host_api.view_minimal, ABI 1.6): per destination switch and switch,
 * the hop count and the number of minimal next hops, one BFS per
 * destination switch that is not the twin of an earlier one, split over
 * threads on large fabrics. No host calls.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/swview.h"
#include "fabriclint/threads.h"

/* Internal: twin destination switches. Two destination switches a and b
 * are twins when their switch-facing slots reach the same neighbour
 * switches with the same link speeds (as multisets) and neither is cabled
 * to itself: exchanging them is then an automorphism of the switch graph
 * that keeps every link's speed, so the row of b is the row of a with the
 * entries of a and b exchanged (dist_b(s) = dist_a(σ(s)), and likewise
 * |M| and the mixed-speed flag). The leaves of one pod of a fat tree are
 * twins: a radix-k 3-tier tree needs k BFS runs instead of k^2/2. */
typedef struct fl_view_nb {
  uint32_t sw;
  float gbps;
} fl_view_nb;

static int fl_view_nb_cmp(const void *a, const void *b) {
  const fl_view_nb *x = (const fl_view_nb *)a, *y = (const fl_view_nb *)b;
  if (x->sw != y->sw)
    return x->sw < y->sw ? -1 : 1;
  return x->gbps < y->gbps ? -1 : x->gbps > y->gbps;
}

typedef struct fl_view_key {
  uint64_t h;
  uint32_t d;
} fl_view_key;

static int fl_view_key_cmp(const void *a, const void *b) {
  const fl_view_key *x = (const fl_view_key *)a, *y = (const fl_view_key *)b;
  if (x->h != y->h)
    return x->h < y->h ? -1 : 1;
  return x->d < y->d ? -1 : x->d > y->d;
}

/* rep[d]: the smallest twin of destination d (d itself when none). Time
 * O(slots log) for the sorts. Returns 0, or -1 when out of memory. */
int fl_view_twins(const fl_view *v, uint32_t *rep) {
  size_t n = v->poff[v->ns] + 1;
  fl_view_nb *nb = (fl_view_nb *)malloc(n * sizeof *nb);
  fl_view_key *key = (fl_view_key *)malloc(((size_t)v->nd + 1) * sizeof *key);
  if (!nb || !key) {
    free(nb), free(key);
    return -1;
  }
  for (uint32_t d = 0; d < v->nd; d++) {
    uint32_t s = v->dsw[d], i0 = v->poff[s], i1 = v->psw_end[s];
    rep[d] = d;
    for (uint32_t i = i0; i < i1; i++)
      nb[i].sw = v->pnb[i], nb[i].gbps = (float)v->pgbps[i];
    qsort(nb + i0, i1 - i0, sizeof *nb, fl_view_nb_cmp);
    uint64_t h = 0xcbf29ce484222325ull ^ (i1 - i0);
    for (uint32_t i = i0; i < i1; i++) {
      uint32_t g;
      memcpy(&g, &nb[i].gbps, sizeof g);
      h = (h ^ nb[i].sw ^ ((uint64_t)g << 32)) * 0x100000001b3ull;
      h ^= h >> 29;
      if (nb[i].sw == s)
        h = 0, i = i1; /* cabled to itself: no twin */
    }
    key[d].h = h, key[d].d = d;
  }
  qsort(key, v->nd, sizeof *key, fl_view_key_cmp);
  for (uint32_t k = 1; k < v->nd; k++) {
    uint32_t a = key[k - 1].d, b = key[k].d;
    if (key[k].h == 0 || key[k].h != key[k - 1].h)
      continue;
    a = rep[a]; /* the group's smallest member when the lists match */
    uint32_t sa = v->dsw[a], sb = v->dsw[b];
    uint32_t la = v->psw_end[sa] - v->poff[sa],
             lb = v->psw_end[sb] - v->poff[sb];
    if (la == lb && (la == 0 || memcmp(nb + v->poff[sa], nb + v->poff[sb],
                                       la * sizeof *nb) == 0))
      rep[b] = a; /* else a hash collision: b stays alone */
  }
  free(nb), free(key);
  return 0;
}

/* Internal: one worker of fl_view_minimal(), BFS toward destination
 * switches d0, d0 + step, ... that are their own twin (rep[d] == d;
 * writes only those rows; no host calls). */
typedef struct fl_view_job {
  fl_view *v;
  const uint32_t *rep;
  uint32_t d0, step;
  int rc;
} fl_view_job;

static void *fl_view_minimal_worker(void *arg) {
  fl_view_job *j = (fl_view_job *)arg;
  fl_view *v = j->v;
  uint32_t *queue = (uint32_t *)malloc(((size_t)v->ns + 1) * sizeof *queue);
  float *gmin = (float *)malloc(((size_t)v->ns + 1) * sizeof *gmin);
  float *gmax = (float *)malloc(((size_t)v->ns + 1) * sizeof *gmax);
  if (!queue || !gmin || !gmax) {
    free(queue), free(gmin), free(gmax);
    j->rc = -1;
    return NULL;
  }
  for (uint32_t d = j->d0; d < v->nd; d += j->step) {
    if (j->rep[d] != d)
      continue; /* a twin's row: copied after the BFS runs */
    uint8_t *dist = v->dist + (size_t)d * v->ns;
    uint16_t *nm = v->nmin + (size_t)d * v->ns;
    memset(dist, FL_VIEW_FAR, v->ns);
    memset(nm, 0, (size_t)v->ns * sizeof *nm);
    uint32_t t = v->dsw[d], head = 0, tail = 0;
    dist[t] = 0;
    queue[tail++] = t;
    while (head < tail) {
      uint32_t u = queue[head++];
      uint32_t du = dist[u];
      if (du + 1 >= FL_VIEW_FAR)
        continue;
      uint8_t dn = (uint8_t)(du + 1);
      uint32_t i0 = v->poff[u], i1 = v->psw_end[u];
      if (v->pnb16 && !v->sw_mixed[u]) {
        /* one speed at u: only counts (the flag needs min/max per w) */
        float g = (float)v->pgbps[i0];
        for (uint32_t i = i0; i < i1; i++) {
          uint32_t w = v->pnb16[i];
          if (dist[w] == FL_VIEW_FAR) {
            dist[w] = dn;
            queue[tail++] = w;
            nm[w] = 1;
            gmin[w] = gmax[w] = 0;
            fl_view_gspan(g, &gmin[w], &gmax[w]);
          } else if (dist[w] == dn) {
            nm[w]++;
            fl_view_gspan(g, &gmin[w], &gmax[w]);
          }
        }
        continue;
      }
      for (uint32_t i = i0; i < i1; i++) {
        uint32_t w = v->pnb[i];
        float g = (float)v->pgbps[i];
        if (dist[w] == FL_VIEW_FAR) {
          dist[w] = dn;
          queue[tail++] = w;
          nm[w] = 1;
          gmin[w] = gmax[w] = 0;
          fl_view_gspan(g, &gmin[w], &gmax[w]);
        } else if (dist[w] == dn) {
          if ((nm[w] & FL_VIEW_NMASK) < FL_VIEW_NMASK)
            nm[w]++;
          fl_view_gspan(g, &gmin[w], &gmax[w]);
        }
      }
    }
    for (uint32_t k = 1; k < tail; k++) {
      uint32_t w = queue[k];
      if (gmax[w] > gmin[w])
        nm[w] |= FL_VIEW_MIXED;
    }
  }
  free(queue), free(gmin), free(gmax);
  j->rc = 0;
  return NULL;
}

/* FL_VIEW_THREADS (view.h): most worker threads, this one included. */
/**
 * Matrix cells (nd x ns) from which fl_view_minimal() splits over threads.
 * Builds for ThreadSanitizer (-DFABRICLINT_SANITIZE=thread) define it as 1
 * so that test-size fabrics take the threaded path (tests/tsan/run.sh).
 */
#ifndef FL_VIEW_THREAD_CELLS
#define FL_VIEW_THREAD_CELLS 1000000u
#endif
/**
 * fl_view_minimal() — fill v->dist and v->nmin of a built view: per
 * destination switch d and switch s, the hop count dist[d*ns+s] and the
 * number of minimal next hops |M(s, d)| (switch-facing slots of s whose
 * neighbour is one hop closer), with FL_VIEW_MIXED set when those links
 * differ in speed. One BFS per destination switch: time O(nd x switch
 * slots), memory 3 bytes x nd x ns. Split over up to min(online CPUs,
 * FL_VIEW_THREADS) threads when the matrix has FL_VIEW_THREAD_CELLS (10^6)
 * cells or more (rows are independent; the result does not depend on the
 * thread count; no host calls). Returns 0, or -1 when out of memory (free @v
 * with fl_view_free()). Call once per view.
 */
int fl_swview_minimal(fl_view *v) {
  size_t cells = (size_t)v->nd * v->ns;
  v->dist = (uint8_t *)malloc(cells ? cells : 1);
  v->nmin = (uint16_t *)malloc((cells ? cells : 1) * sizeof *v->nmin);
  uint32_t *rep = (uint32_t *)malloc(((size_t)v->nd + 1) * sizeof *rep);
  if (!v->dist || !v->nmin || !rep || fl_view_twins(v, rep) != 0) {
    free(rep);
    return -1;
  }
  /* the caller's budget (fl_view.threads), else fl_threads_available() */
  uint32_t nt = fl_swview_threads(v);
  if (nt == 0)
    nt = fl_threads_available();
  if (nt > FL_VIEW_THREADS)
    nt = FL_VIEW_THREADS;
  if (cells < FL_VIEW_THREAD_CELLS)
    nt = 1; /* not worth a thread */
  fl_view_job jobs[FL_VIEW_THREADS];
  pthread_t th[FL_VIEW_THREADS];
  uint32_t started = 0;
  for (uint32_t k = 0; k < nt; k++) {
    jobs[k].v = v, jobs[k].rep = rep, jobs[k].d0 = k, jobs[k].step = nt;
    jobs[k].rc = -1;
    if (k > 0 &&
        pthread_create(&th[k], NULL, fl_view_minimal_worker, &jobs[k]) == 0)
      started |= 1u << k;
  }
  fl_view_minimal_worker(&jobs[0]);
  int rc = jobs[0].rc;
  for (uint32_t k = 1; k < nt; k++) {
    if (started & (1u << k))
      pthread_join(th[k], NULL);
    else
      fl_view_minimal_worker(&jobs[k]); /* could not start: do it here */
    if (jobs[k].rc != 0)
      rc = -1;
  }
  for (uint32_t d = 0; rc == 0 && d < v->nd; d++) {
    uint32_t a = rep[d];
    if (a == d)
      continue;
    uint32_t sa = v->dsw[a], sd = v->dsw[d];
    uint8_t *dist = v->dist + (size_t)d * v->ns;
    uint16_t *nm = v->nmin + (size_t)d * v->ns;
    memcpy(dist, v->dist + (size_t)a * v->ns, v->ns);
    memcpy(nm, v->nmin + (size_t)a * v->ns, (size_t)v->ns * sizeof *nm);
    uint8_t x = dist[sa];
    dist[sa] = dist[sd], dist[sd] = x;
    uint16_t y = nm[sa];
    nm[sa] = nm[sd], nm[sd] = y;
  }
  free(rep);
  return rc;
}
