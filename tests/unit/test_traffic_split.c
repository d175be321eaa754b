/* SPDX-License-Identifier: MIT */
/*
 * tests/unit/test_traffic_split.c — the random traffic patterns of
 * ecmp-balance (plugins/ecmp-balance/traffic.c) split over the ranks of an
 * MPI run: instance i on rank i mod N, rounds of N x workers, values and
 * switch-link loads gathered and accounted in instance order with the stop
 * rule. Every rank must end with bit for bit the result of one process
 * (doubles compared by their bytes: the JSON report rounds to 6 digits and
 * would hide a sum taken in another order).
 *
 * The ranks are threads here and the collectives real ones among them (a
 * pthread barrier, as in test_dist_split.c); tests/cli/mpi_identical.sh
 * runs the same under mpirun. Fabric: tests/fixtures/mpi/fattree12-ftree
 * (ibsim + OpenSM ftree + ibnetdiscover; make_fixtures.sh): 72 hosts,
 * 12 leaves, 6 spines, real LFTs.
 */
#define _GNU_SOURCE /* sched_getaffinity */
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "fabriclint/fabric.h"
#include "fabriclint/load.h"
#include "fabriclint/view.h"
#include "host/host.h"
#include "traffic.h"

#define FT12 FL_SOURCE_DIR "/tests/fixtures/mpi/fattree12-ftree"
#define MAXR 5

/* |a - b| <= eps in double (cmocka's assert_near takes floats) */
#define assert_near(a, b, eps) assert_true(fabs((double)(a) - (b)) <= (eps))

/* ---- the fabric, loaded once ---- */
typedef struct world {
  fl_host h;
  fl_fabric *f;
  fl_view v;
} world;

static int setup(void **state) {
  world *w = calloc(1, sizeof *w);
  fl_error err;
  memset(&err, 0, sizeof err);
  fl_host_init(&w->h);
  w->f = fl_fabric_new();
  if (!w->f ||
      fl_fabric_load(w->f, FT12 "/topology.ibnetdiscover", FL_FMT_AUTO, NULL,
                     &err) != FL_OK ||
      fl_fabric_load(w->f, FT12 "/opensm-lfts.dump", FL_FMT_AUTO, NULL, &err) !=
          FL_OK ||
      fl_fabric_finalize(w->f, &err) != FL_OK ||
      fl_view_build(&w->v, &w->h.api, w->f) != 0 || fl_view_minimal(&w->v))
    return -1;
  *state = w;
  return 0;
}

static int teardown(void **state) {
  world *w = *state;
  fl_view_free(&w->v);
  fl_fabric_free(w->f);
  fl_host_free(&w->h);
  free(w);
  return 0;
}

/* ---- a run of threads: allgather and allreduce_min_u32 ---- */
typedef struct run {
  pthread_barrier_t bar;
  const void *part[MAXR];
  size_t len[MAXR];
  uint32_t size;
  int broken;                /* 1: the allgather fails (a transport error) */
  uint32_t gathers, reduces; /* calls of rank 0 */
} run;

typedef struct rank {
  run *run;
  fl_dist dist;
  const fl_view *v;
  const char *pattern;
  tr_opts o;
  tr_result r;
  int rc;
} rank;

static int gather(void *ctx, const void *in, size_t n, void **out,
                  size_t *out_n) {
  rank *p = ctx;
  run *r = p->run;
  r->part[p->dist.rank] = in;
  r->len[p->dist.rank] = n;
  if (p->dist.rank == 0)
    r->gathers++;
  pthread_barrier_wait(&r->bar);
  size_t total = 0;
  for (uint32_t i = 0; i < r->size; i++)
    total += r->len[i];
  unsigned char *b = total ? malloc(total) : NULL;
  size_t off = 0;
  for (uint32_t i = 0; i < r->size; i++) {
    memcpy(b + off, r->part[i], r->len[i]);
    off += r->len[i];
  }
  pthread_barrier_wait(&r->bar); /* every part read before it is reused */
  if (r->broken) {
    free(b);
    *out = NULL;
    *out_n = 0;
    return -1;
  }
  *out = b;
  *out_n = total;
  return 0;
}

static int reduce_min(void *ctx, uint32_t *buf, size_t n) {
  rank *p = ctx;
  run *r = p->run;
  assert_true(n <= 4);
  r->part[p->dist.rank] = buf;
  r->len[p->dist.rank] = n;
  if (p->dist.rank == 0)
    r->reduces++;
  pthread_barrier_wait(&r->bar);
  uint32_t m[4];
  for (size_t k = 0; k < n; k++) {
    m[k] = UINT32_MAX;
    for (uint32_t i = 0; i < r->size; i++) {
      uint32_t x = ((const uint32_t *)r->part[i])[k];
      m[k] = x < m[k] ? x : m[k];
    }
  }
  pthread_barrier_wait(&r->bar);
  memcpy(buf, m, n * sizeof *buf);
  return 0;
}

static void *rank_main(void *arg) {
  rank *p = arg;
  p->rc = tr_eval(p->v, p->pattern, &p->o, &p->r);
  return NULL;
}

/* Run @pattern with @o on @size simulated ranks (@broken: the gather
 * fails); results in @out[0..size). */
static void run_ranks(const fl_view *v, const char *pattern, const tr_opts *o,
                      uint32_t size, int broken, rank *out, run *rn) {
  memset(rn, 0, sizeof *rn);
  rn->size = size;
  rn->broken = broken;
  pthread_barrier_init(&rn->bar, NULL, size);
  pthread_t th[MAXR];
  for (uint32_t i = 0; i < size; i++) {
    rank *p = &out[i];
    memset(p, 0, sizeof *p);
    p->run = rn;
    p->v = v;
    p->pattern = pattern;
    p->o = *o;
    p->dist.struct_size = sizeof p->dist;
    p->dist.rank = i;
    p->dist.size = size;
    p->dist.ctx = p;
    p->dist.allgather = gather;
    p->dist.allreduce_min_u32 = reduce_min;
    p->o.dist = &p->dist;
    assert_int_equal(pthread_create(&th[i], NULL, rank_main, p), 0);
  }
  for (uint32_t i = 0; i < size; i++)
    pthread_join(th[i], NULL);
  pthread_barrier_destroy(&rn->bar);
}

/* Two results the same, doubles by their bytes, loads over @nslots. */
static void same_result(const tr_result *a, const tr_result *b, uint32_t nslots,
                        const tr_opts *o) {
  assert_string_equal(a->name, b->name);
  assert_int_equal(a->patterns, b->patterns);
  assert_int_equal(a->flows, b->flows);
  assert_int_equal(a->unrouted, b->unrouted);
  assert_memory_equal(&a->ebb_mean, &b->ebb_mean, sizeof a->ebb_mean);
  assert_memory_equal(&a->ebb_min, &b->ebb_min, sizeof a->ebb_min);
  assert_memory_equal(&a->ebb_max, &b->ebb_max, sizeof a->ebb_max);
  assert_memory_equal(&a->ebb_ci99, &b->ebb_ci99, sizeof a->ebb_ci99);
  assert_memory_equal(&a->worst_flow, &b->worst_flow, sizeof a->worst_flow);
  assert_memory_equal(&a->max_load, &b->max_load, sizeof a->max_load);
  assert_memory_equal(&a->mean_load, &b->mean_load, sizeof a->mean_load);
  assert_int_equal(a->n_hot, b->n_hot);
  assert_memory_equal(a->hot_slot, b->hot_slot, a->n_hot * sizeof(uint32_t));
  assert_memory_equal(a->hot_load, b->hot_load, a->n_hot * sizeof(double));
  assert_memory_equal(a->hot_max, b->hot_max, a->n_hot * sizeof(double));
  if (o->all_loads) {
    assert_non_null(a->loads);
    assert_non_null(b->loads);
    assert_memory_equal(a->loads, b->loads, nslots * sizeof(double));
  }
}

/* The plain result of @pattern/@o, then 1..4 ranks: all the same. */
static void check_split(const world *w, const char *pattern, const tr_opts *o,
                        tr_result *plain) {
  tr_opts alone = *o;
  alone.dist = NULL;
  assert_int_equal(tr_eval(&w->v, pattern, &alone, plain), 0);
  uint32_t nslots = w->v.poff[w->v.ns];
  for (uint32_t n = 1; n <= 4; n++) {
    rank rk[MAXR];
    run rn;
    run_ranks(&w->v, pattern, o, n, 0, rk, &rn);
    for (uint32_t i = 0; i < n; i++) {
      assert_int_equal(rk[i].rc, 0);
      same_result(plain, &rk[i].r, nslots, o);
      tr_result_free(&rk[i].r);
    }
  }
}

static tr_opts lft_opts(double ci, uint32_t count) {
  tr_opts o;
  memset(&o, 0, sizeof o);
  o.routing = TR_ROUTE_LFT;
  o.count = count;
  o.ci = ci;
  o.seed = 1;
  o.top = 5;
  o.all_loads = 1;
  return o;
}

/* ci = 0.025: the CI target is met at 29 bisect instances (not a multiple
 * of any round: 1..4 ranks x 2 workers), 22 permutations; the stop equals
 * count = n, ci = 0 exactly */
static void test_ci_stop(void **state) {
  world *w = *state;
  tr_opts o = lft_opts(0.025, 100);
  tr_result a, b;
  check_split(w, "bisect", &o, &a);
  assert_int_equal(a.patterns, 29);
  assert_near(a.ebb_mean, 0.718391, 5e-7);
  assert_near(a.ebb_ci99, 0.0248521, 5e-8);
  assert_true(a.ebb_ci99 <= 0.025);
  assert_int_equal(a.flows, 72);
  tr_opts o29 = lft_opts(0, 29);
  assert_int_equal(tr_eval(&w->v, "bisect", &o29, &b), 0);
  same_result(&a, &b, w->v.poff[w->v.ns], &o);
  tr_result_free(&a);
  tr_result_free(&b);
  check_split(w, "permutation", &o, &a);
  assert_int_equal(a.patterns, 22);
  assert_near(a.ebb_mean, 0.722482, 5e-7);
  tr_result_free(&a);
}

/* count = 17 before the CI target is met: stop at count */
static void test_count_stop(void **state) {
  world *w = *state;
  tr_opts o = lft_opts(0.025, 17);
  tr_result a;
  check_split(w, "bisect", &o, &a);
  assert_int_equal(a.patterns, 17);
  assert_near(a.ebb_mean, 0.722222, 5e-7);
  assert_near(a.ebb_ci99, 0.0348449, 5e-8);
  tr_result_free(&a);
  /* the default: 100, the CI (0.011) never within 0.001 */
  o = lft_opts(0.001, 100);
  check_split(w, "bisect", &o, &a);
  assert_int_equal(a.patterns, 100);
  assert_near(a.ebb_mean, 0.715139, 5e-7);
  tr_result_free(&a);
}

/* fluid ECMP on the non-blocking tree: every instance scores 1, the CI is
 * 0 after the 10 the rule always draws */
static void test_ecmp_min_patterns(void **state) {
  world *w = *state;
  tr_opts o = lft_opts(0.001, 100);
  o.routing = TR_ROUTE_ECMP;
  tr_result a;
  check_split(w, "bisect", &o, &a);
  assert_int_equal(a.patterns, TR_MIN_PATTERNS);
  assert_near(a.ebb_mean, 1.0, 0);
  assert_near(a.ebb_ci99, 0.0, 0);
  tr_result_free(&a);
}

/* The collectives: one agreement, then one gather per slot of a round; a
 * failed gather fails every rank with -3 */
static void test_collectives(void **state) {
  world *w = *state;
  tr_opts o = lft_opts(0.025, 100);
  rank rk[MAXR];
  run rn;
  run_ranks(&w->v, "bisect", &o, 3, 0, rk, &rn);
  assert_int_equal(rn.reduces, 1);
  /* rounds of 3 x P, P the workers of a rank (traffic.c job_count: CPUs
   * this process may use, at most FL_VIEW_THREADS and ceil(100 / 3)): 29
   * instances end in round 28 / 3P at slot (28 mod 3P) / 3 */
  cpu_set_t set;
  uint32_t P = sched_getaffinity(0, sizeof set, &set) == 0
                   ? (uint32_t)CPU_COUNT(&set)
                   : 1;
  P = P < 1 ? 1 : P > FL_VIEW_THREADS ? FL_VIEW_THREADS : P;
  assert_int_equal(rn.gathers, (28 / (3 * P)) * P + (28 % (3 * P)) / 3 + 1);
  for (uint32_t i = 0; i < 3; i++)
    tr_result_free(&rk[i].r);
  run_ranks(&w->v, "bisect", &o, 2, 1, rk, &rn);
  for (uint32_t i = 0; i < 2; i++) {
    assert_int_equal(rk[i].rc, -3);
    tr_result_free(&rk[i].r);
  }
  assert_int_equal(rn.gathers, 1);
}

/* tr_stop_take: never before TR_MIN_PATTERNS, the 2.576 s / sqrt(n) rule,
 * always at count */
static void test_stop_rule(void **state) {
  (void)state;
  tr_stop s;
  memset(&s, 0, sizeof s);
  for (int i = 0; i < 9; i++) /* constant values: CI 0, but n < 10 */
    assert_int_equal(tr_stop_take(&s, 0.5, 100, 1.0), 0);
  assert_int_equal(tr_stop_take(&s, 0.5, 100, 1.0), 1);
  assert_int_equal(s.n, 10);
  memset(&s, 0, sizeof s); /* ci 0: only count stops */
  for (int i = 0; i < 11; i++)
    assert_int_equal(tr_stop_take(&s, 0, 12, 1.0), 0);
  assert_int_equal(tr_stop_take(&s, 0, 12, 1.0), 1);
  /* alternating 0 / 1: sd = sqrt(n / (4 (n - 1))); at n = 10 the half-width
   * is 2.576 * 0.527 / 3.162 = 0.4293 */
  memset(&s, 0, sizeof s);
  for (int i = 0; i < 9; i++)
    assert_int_equal(tr_stop_take(&s, 0.43, 100, i % 2), 0);
  assert_int_equal(tr_stop_take(&s, 0.43, 100, 1), 1);
  memset(&s, 0, sizeof s);
  for (int i = 0; i < 10; i++)
    assert_int_equal(tr_stop_take(&s, 0.429, 100, i % 2), 0);
  memset(&s, 0, sizeof s); /* count 1: the first value ends it */
  assert_int_equal(tr_stop_take(&s, 1, 1, 5.0), 1);
}

/* tr_instance_of: the rounds cover every instance once, in rank order
 * within a slot, slot by slot */
static void test_instances(void **state) {
  (void)state;
  for (uint32_t size = 1; size <= 5; size++)
    for (uint32_t per = 1; per <= 3; per++) {
      uint8_t seen[64] = {0};
      uint64_t expect = 0;
      for (uint64_t base = 0; base < 60; base += (uint64_t)per * size)
        for (uint32_t j = 0; j < per; j++)
          for (uint32_t r = 0; r < size; r++) {
            uint64_t i = tr_instance_of(base, j, size, r);
            assert_int_equal(i, expect++); /* gathered = instance order */
            assert_int_equal(i % size, r); /* instance i on rank i mod N */
            if (i < 64)
              seen[i]++;
          }
      for (uint32_t i = 0; i < 60; i++)
        assert_int_equal(seen[i], 1);
    }
  /* fl_view_rand_skip: the state after n draws */
  uint64_t s = 12345, t = 12345;
  for (int k = 0; k < 71; k++)
    (void)fl_view_rand(&s);
  assert_int_equal(fl_view_rand_skip(t, 71), s);
}

int main(void) {
  /* ranks that disagree on the number of collectives wait for each other
   * forever: end the test (a failure) instead of hanging */
  alarm(120);
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_stop_rule),
      cmocka_unit_test(test_instances),
      cmocka_unit_test(test_ci_stop),
      cmocka_unit_test(test_count_stop),
      cmocka_unit_test(test_ecmp_min_patterns),
      cmocka_unit_test(test_collectives),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
