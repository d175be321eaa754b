/* SPDX-License-Identifier: MIT */
/*
 * core/analysis/perf_place.c — the collective model over many placements
 * (perf_place.h, docs/perf.md "Placements").
 *
 * Each process evaluates its share of the placements (placement i on
 * process i mod N) and writes one part: a header (failed?, its error), one
 * record per (placement, collective) with the numbers the distributions
 * need, and per collective the full result of its own worst placement.
 * The parts are gathered (fl_dist.allgather, rank order) and every process
 * merges them the same way; alone, the process merges its own part through
 * the same code. The worst placement overall is the worst of the parts'
 * worsts under one total order (unroutable first, then the lowest ratio,
 * then the lowest index), so it, the distributions and the judged
 * placement do not depend on N.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/perf_impl.h"
#include "analysis/perf_place.h"
#include "fabriclint/view.h"

/* ---- drawing ------------------------------------------------------------ */

/* SplitMix64 (Steele, Lea, Flood 2014): fl_view_rand() is one draw of it.
 * A seed is mixed by one draw from it as the state. */
static uint64_t mix64(uint64_t z) {
  return fl_view_rand(&z);
}

/* Uniform in [0, n), n >= 1: Lemire, "Fast random integer generation in an
 * interval" (ACM TOMACS 2019), multiply and reject the biased low part. */
static uint32_t below(uint64_t *s, uint32_t n) {
  uint64_t m = (fl_view_rand(s) >> 32) * (uint64_t)n;
  uint32_t lo = (uint32_t)m;
  if (lo < n) {
    uint32_t t = (uint32_t)(-n) % n;
    while (lo < t) {
      m = (fl_view_rand(s) >> 32) * (uint64_t)n;
      lo = (uint32_t)m;
    }
  }
  return (uint32_t)(m >> 32);
}

static int cmp_u32(const void *x, const void *y) {
  uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
  return a < b ? -1 : a > b;
}

void fl_perf_draw(uint64_t seed, uint64_t i, uint32_t pool, uint32_t n,
                  uint32_t order, uint32_t *scratch, uint32_t *out) {
  uint64_t s = mix64(seed ^ mix64(i));
  for (uint32_t k = 0; k < pool; k++)
    scratch[k] = k;
  for (uint32_t j = 0; j < n; j++) {
    uint32_t t = j + below(&s, pool - j), x = scratch[t];
    scratch[t] = scratch[j];
    scratch[j] = x;
    out[j] = x;
  }
  if (order == FL_WL_ORDER_POOL)
    qsort(out, n, sizeof *out, cmp_u32);
}

int fl_perf_job_place(const fl_perf_job *pool, const uint32_t *hosts,
                      uint32_t n, fl_perf_job **out, fl_error *err) {
  *out = NULL;
  fl_perf_job *j = malloc(sizeof *j);
  if (!j)
    return fl_error_set(err, FL_ENOMEM, NULL, 0, 0, "out of memory");
  *j = *pool;
  j->net_borrowed = 1;
  j->hosts = n;
  size_t nn = (size_t)n * pool->rails;
  j->nic = malloc((nn ? nn : 1) * sizeof *j->nic);
  if (!j->nic) {
    free(j);
    return fl_error_set(err, FL_ENOMEM, NULL, 0, 0, "out of memory");
  }
  for (uint32_t h = 0; h < n; h++) {
    if (hosts[h] >= pool->hosts) {
      fl_perf_job_free(j);
      return fl_error_set(err, FL_EINVAL, NULL, 0, 0,
                          "placement host %u is not one of the %u pool hosts",
                          hosts[h], pool->hosts);
    }
    memcpy(&j->nic[(size_t)h * pool->rails],
           &pool->nic[(size_t)hosts[h] * pool->rails],
           pool->rails * sizeof *j->nic);
  }
  *out = j;
  return FL_OK;
}

const char *fl_perf_job_host_name(const fl_perf_job *job, uint32_t h) {
  if (!job || h >= job->hosts || !job->rails)
    return NULL;
  fl_id n = job->nic[(size_t)h * job->rails].node;
  const char *sys = fl_fabric_node_system(job->f, n);
  return sys && *sys ? sys : fl_fabric_node_name(job->f, n);
}

/* ---- one process's part ------------------------------------------------- */

/* a grown byte buffer */
typedef struct bbuf {
  unsigned char *p;
  size_t n, cap;
  int oom;
} bbuf;

static void put(bbuf *b, const void *x, size_t n) {
  if (b->oom)
    return;
  if (b->n + n > b->cap) {
    size_t cap = b->cap ? b->cap : 4096;
    while (cap < b->n + n)
      cap *= 2;
    unsigned char *q = realloc(b->p, cap);
    if (!q) {
      b->oom = 1;
      return;
    }
    b->p = q, b->cap = cap;
  }
  memcpy(b->p + b->n, x, n);
  b->n += n;
}

/* one record of a part: a placement's numbers for collective @coll */
typedef struct prec {
  uint32_t coll, reserved;
  fl_perf_sample s;
} prec;

/* 1 when @a is worse than @b: unroutable first, then the lower ratio,
 * then the lower index (a total order: indexes differ). */
static int worse(const fl_perf_sample *a, const fl_perf_sample *b) {
  if (a->error != b->error)
    return a->error > b->error;
  if (!a->error && a->ratio != b->ratio)
    return a->ratio < b->ratio;
  return a->index < b->index;
}

static void sample_of(const fl_perf_result *r, uint64_t index,
                      fl_perf_sample *s) {
  memset(s, 0, sizeof *s);
  s->index = index;
  if (r->error[0]) {
    s->error = 1;
    return;
  }
  if (!r->fabric_traffic) { /* the same on every placement: never judged */
    s->ratio = 1;
    return;
  }
  s->step_time_s = r->step_time_s;
  s->time_s = r->time_s;
  s->busbw_GBps = r->busbw_GBps;
  s->ratio = r->ratio;
}

/* Model every collective on placement @index; results in @res[n_colls]. */
static int run_one(const fl_perf_job *pool, const fl_workload *w,
                   uint64_t index, uint32_t *scratch, uint32_t *hosts,
                   fl_perf_result *res, size_t only, fl_error *err) {
  const fl_wl_placements *pl = &w->place;
  fl_perf_draw(pl->seed, index, pool->hosts, pl->job_hosts, pl->order, scratch,
               hosts);
  fl_perf_job *job;
  int rc = fl_perf_job_place(pool, hosts, pl->job_hosts, &job, err);
  for (size_t c = 0; rc == FL_OK && c < w->n_colls; c++)
    if (only == (size_t)-1 || only == c)
      rc = fl_perf_run(job, &w->colls[c], &res[c], err);
  fl_perf_job_free(job);
  return rc;
}

/* Evaluate this process's placements into part @b. */
static void my_part(const fl_perf_job *pool, const fl_workload *w,
                    const fl_perf_places *out, uint32_t rank, uint32_t size,
                    bbuf *b) {
  uint32_t failed = 0;
  fl_error err;
  fl_error_clear(&err);
  size_t nc = w->n_colls;
  fl_perf_result *res = calloc(nc, sizeof *res);
  fl_perf_result *lw = calloc(nc, sizeof *lw); /* my worst per collective */
  fl_perf_sample *lws = calloc(nc, sizeof *lws);
  uint32_t *has = calloc(nc, sizeof *has);
  uint32_t *scratch = malloc((size_t)out->pool * sizeof *scratch);
  uint32_t *hosts = malloc((size_t)out->hosts * sizeof *hosts);
  bbuf recs = {0};
  uint32_t nrec = 0;
  if (!res || !lw || !lws || !has || !scratch || !hosts) {
    failed = 1;
    fl_error_set(&err, FL_ENOMEM, NULL, 0, 0, "out of memory");
  }
  for (uint32_t p = rank; !failed && p < out->n; p += size) {
    uint64_t index = out->first + p;
    if (run_one(pool, w, index, scratch, hosts, res, (size_t)-1, &err) !=
        FL_OK) {
      failed = 1;
      break;
    }
    for (size_t c = 0; c < nc; c++) {
      prec r;
      memset(&r, 0, sizeof r);
      r.coll = (uint32_t)c;
      sample_of(&res[c], index, &r.s);
      put(&recs, &r, sizeof r);
      nrec++;
      if (!has[c] || worse(&r.s, &lws[c])) {
        has[c] = 1;
        lws[c] = r.s;
        lw[c] = res[c];
        lw[c].name = NULL; /* bytes travel: the merge sets it again */
      }
    }
  }
  if (recs.oom && !failed) {
    failed = 1;
    fl_error_set(&err, FL_ENOMEM, NULL, 0, 0, "out of memory");
  }
  put(b, &failed, sizeof failed);
  put(b, &err, sizeof err);
  if (!failed) {
    put(b, &nrec, sizeof nrec);
    put(b, recs.p, recs.n);
    for (size_t c = 0; c < nc; c++) {
      put(b, &has[c], sizeof has[c]);
      if (has[c]) {
        put(b, &lws[c], sizeof lws[c]);
        put(b, &lw[c], sizeof lw[c]);
      }
    }
  }
  free(recs.p);
  free(res), free(lw), free(lws), free(has), free(scratch), free(hosts);
}

/* ---- merging ------------------------------------------------------------ */

typedef struct cur {
  const unsigned char *p, *end;
} cur;

static int get(cur *c, void *x, size_t n) {
  if ((size_t)(c->end - c->p) < n)
    return -1;
  memcpy(x, c->p, n);
  c->p += n;
  return 0;
}

static int cmp_dbl(const void *x, const void *y) {
  double a = *(const double *)x, b = *(const double *)y;
  return a < b ? -1 : a > b;
}

static fl_perf_dist3 dist3(double *v, uint32_t k) {
  fl_perf_dist3 d = {0, 0, 0};
  if (!k)
    return d;
  qsort(v, k, sizeof *v, cmp_dbl);
  d.min = v[0];
  d.max = v[k - 1];
  d.median = k % 2 ? v[k / 2] : (v[k / 2 - 1] + v[k / 2]) / 2;
  return d;
}

/* The distributions of collective @pc over its routable placements. */
static int stats(fl_perf_place_coll *pc) {
  double *v = malloc((pc->n ? pc->n : 1) * sizeof *v);
  if (!v)
    return -1;
  uint32_t k;
  pc->n_error = 0;
  for (uint32_t i = 0; i < pc->n; i++)
    pc->n_error += pc->samples[i].error != 0;
  pc->ok = pc->n - pc->n_error;
#define DIST(field, member)                                                    \
  k = 0;                                                                       \
  for (uint32_t i = 0; i < pc->n; i++)                                         \
    if (!pc->samples[i].error)                                                 \
      v[k++] = pc->samples[i].member;                                          \
  pc->field = dist3(v, k)
  DIST(step_time_s, step_time_s);
  DIST(busbw_GBps, busbw_GBps);
  DIST(ratio, ratio);
#undef DIST
  free(v);
  return 0;
}

/* Positions of @pc's samples, worst first; the @pct-th percentile's. */
static int judged_pos(const fl_perf_place_coll *pc, double pct, uint32_t *pos) {
  uint32_t *ord = malloc((pc->n ? pc->n : 1) * sizeof *ord);
  if (!ord)
    return -1;
  for (uint32_t i = 0; i < pc->n; i++)
    ord[i] = i;
  /* insertion into a sorted prefix would be O(n^2); a merge sort keeps
   * qsort's context-free comparator out of global state */
  for (uint32_t width = 1; width < pc->n; width *= 2) {
    uint32_t *tmp = malloc(pc->n * sizeof *tmp);
    if (!tmp) {
      free(ord);
      return -1;
    }
    for (uint32_t lo = 0; lo < pc->n; lo += 2 * width) {
      uint32_t mid = lo + width < pc->n ? lo + width : pc->n;
      uint32_t hi = lo + 2 * width < pc->n ? lo + 2 * width : pc->n;
      uint32_t a = lo, b = mid, t = lo;
      while (a < mid || b < hi)
        tmp[t++] = b >= hi || (a < mid && !worse(&pc->samples[ord[b]],
                                                 &pc->samples[ord[a]]))
                       ? ord[a++]
                       : ord[b++];
    }
    memcpy(ord, tmp, pc->n * sizeof *ord);
    free(tmp);
  }
  double r = ceil(pct / 100.0 * pc->n) - 1;
  uint32_t k = r < 0 ? 0 : r >= pc->n ? pc->n - 1 : (uint32_t)r;
  *pos = ord[k];
  free(ord);
  return 0;
}

/* Merge the gathered parts (@all, @n bytes, @size parts in rank order). */
static int merge(const fl_workload *w, fl_perf_places *out,
                 const unsigned char *all, size_t n, uint32_t size,
                 fl_error *err) {
  cur c = {all, all + n};
  size_t nc = out->n_coll;
  uint8_t *seen = calloc((size_t)out->n * (nc ? nc : 1) + 1, 1);
  fl_perf_sample *best = calloc(nc ? nc : 1, sizeof *best);
  uint32_t *have = calloc(nc ? nc : 1, sizeof *have);
  int rc = seen && best && have ? FL_OK : FL_ENOMEM;
  if (rc != FL_OK)
    fl_error_set(err, FL_ENOMEM, NULL, 0, 0, "out of memory");
  int bad = 0;
  for (uint32_t r = 0; rc == FL_OK && !bad && r < size; r++) {
    uint32_t failed, nrec;
    fl_error perr;
    bad = get(&c, &failed, sizeof failed) || get(&c, &perr, sizeof perr);
    if (!bad && failed) { /* the lowest failing rank's error, everywhere */
      *err = perr;
      rc = perr.code ? perr.code : FL_ENOMEM;
      break;
    }
    bad = bad || get(&c, &nrec, sizeof nrec);
    for (uint32_t i = 0; !bad && i < nrec; i++) {
      prec pr;
      bad = get(&c, &pr, sizeof pr) || pr.coll >= nc ||
            pr.s.index < out->first || pr.s.index - out->first >= out->n;
      if (bad)
        break;
      uint64_t pos = pr.s.index - out->first;
      bad = seen[pos * nc + pr.coll]++ != 0;
      out->coll[pr.coll].samples[pos] = pr.s;
    }
    for (size_t k = 0; !bad && k < nc; k++) {
      uint32_t h;
      bad = get(&c, &h, sizeof h);
      if (bad || !h)
        continue;
      fl_perf_sample s;
      fl_perf_result res;
      bad = get(&c, &s, sizeof s) || get(&c, &res, sizeof res);
      if (!bad && (!have[k] || worse(&s, &best[k]))) {
        have[k] = 1;
        best[k] = s;
        out->coll[k].worst_res = res;
        out->coll[k].worst_res.name = w->colls[k].name;
      }
    }
  }
  for (size_t i = 0; rc == FL_OK && !bad && i < (size_t)out->n * nc; i++)
    bad = seen[i] != 1;
  if (rc == FL_OK && (bad || c.p != c.end))
    rc = fl_error_set(err, FL_EINVAL, NULL, 0, 0,
                      "placements: the parts gathered from the processes do "
                      "not add up (internal error)");
  for (size_t k = 0; rc == FL_OK && k < nc; k++) {
    fl_perf_place_coll *pc = &out->coll[k];
    pc->worst = (uint32_t)(best[k].index - out->first);
    if (stats(pc) != 0)
      rc = fl_error_set(err, FL_ENOMEM, NULL, 0, 0, "out of memory");
  }
  free(seen), free(best), free(have);
  return rc;
}

/* The judged placement of every collective (and its result if asked). */
static int judge(const fl_perf_job *pool, const fl_workload *w,
                 fl_perf_places *out, int detail, fl_error *err) {
  uint32_t *scratch = malloc((size_t)out->pool * sizeof *scratch);
  uint32_t *hosts = malloc((size_t)out->hosts * sizeof *hosts);
  fl_perf_result *res = calloc(out->n_coll ? out->n_coll : 1, sizeof *res);
  int rc = scratch && hosts && res ? FL_OK : FL_ENOMEM;
  if (rc != FL_OK)
    fl_error_set(err, FL_ENOMEM, NULL, 0, 0, "out of memory");
  for (size_t k = 0; rc == FL_OK && k < out->n_coll; k++) {
    fl_perf_place_coll *pc = &out->coll[k];
    if (judged_pos(pc, w->place.percentile, &pc->judged) != 0) {
      rc = fl_error_set(err, FL_ENOMEM, NULL, 0, 0, "out of memory");
      break;
    }
    if (pc->judged == pc->worst) {
      pc->judged_res = pc->worst_res;
      pc->judged_full = 1;
    } else if (detail) {
      rc = run_one(pool, w, pc->samples[pc->judged].index, scratch, hosts, res,
                   k, err);
      if (rc == FL_OK) {
        pc->judged_res = res[k];
        pc->judged_full = 1;
      }
    }
  }
  free(scratch), free(hosts), free(res);
  return rc;
}

int fl_perf_places_run(const fl_perf_job *pool, const fl_workload *w,
                       const fl_dist *dist, int judged_detail,
                       fl_perf_places *out, fl_error *err) {
  memset(out, 0, sizeof *out);
  const fl_wl_placements *pl = &w->place;
  if (pl->job_hosts > pool->hosts)
    return fl_error_set(err, FL_EPARSE, w->path, pl->hosts_line, pl->hosts_col,
                        "`hosts: %u` is more than the %u host(s) the "
                        "placements draw from (`from:`)",
                        pl->job_hosts, pool->hosts);
  out->pool = pool->hosts;
  out->hosts = pl->job_hosts;
  out->seed = pl->seed;
  out->order = pl->order;
  out->first = pl->index >= 0 ? (uint64_t)pl->index : 0;
  out->n = pl->index >= 0 ? 1 : pl->count;
  out->n_coll = (uint32_t)w->n_colls;
  out->coll = calloc(w->n_colls ? w->n_colls : 1, sizeof *out->coll);
  int oom = !out->coll;
  for (size_t k = 0; !oom && k < w->n_colls; k++) {
    out->coll[k].n = out->n;
    oom =
        !(out->coll[k].samples = calloc(out->n, sizeof *out->coll[k].samples));
  }
  /* every process takes part in the gather, also after running out of
   * memory here (the part then says it failed) */
  uint32_t rank = dist ? dist->rank : 0, size = dist ? dist->size : 1;
  bbuf part = {0};
  if (!oom)
    my_part(pool, w, out, rank, size, &part);
  /* a part that could not be built says so in a header of its own */
  unsigned char nomem[sizeof(uint32_t) + sizeof(fl_error)];
  if (oom || part.oom) {
    uint32_t failed = 1;
    fl_error e;
    fl_error_clear(&e);
    fl_error_set(&e, FL_ENOMEM, NULL, 0, 0, "out of memory");
    memcpy(nomem, &failed, sizeof failed);
    memcpy(nomem + sizeof failed, &e, sizeof e);
  }
  const void *mine = oom || part.oom ? (const void *)nomem : part.p;
  size_t n_mine = oom || part.oom ? sizeof nomem : part.n;
  int rc = FL_OK;
  void *all = NULL;
  size_t n_all = 0;
  if (dist) { /* a collective: called whatever happened above */
    if (dist->allgather(dist->ctx, mine, n_mine, &all, &n_all) != 0)
      rc = fl_error_set(err, FL_ENOMEM, NULL, 0, 0,
                        "gathering the placements of the MPI ranks failed");
    if (rc == FL_OK)
      rc = merge(w, out, all, n_all, size, err);
  } else
    rc = merge(w, out, mine, n_mine, size, err);
  free(part.p);
  free(all);
  if (rc == FL_OK)
    rc = judge(pool, w, out, judged_detail, err);
  if (rc != FL_OK)
    fl_perf_places_free(out);
  return rc;
}

void fl_perf_places_free(fl_perf_places *p) {
  for (uint32_t k = 0; p->coll && k < p->n_coll; k++)
    free(p->coll[k].samples);
  free(p->coll);
  memset(p, 0, sizeof *p);
}
