/* SPDX-License-Identifier: MIT */
/*
 * tests/unit/test_perf.c — the performance model's internals:
 *   - the all-to-all aggregation (sources on one switch with one rail and
 *     capacity as one class per destination) gives exactly the max-min
 *     solution of the per-flow expansion (every NIC pair its own flow):
 *     same step time, same flows and same saturation level on every
 *     directed link; on c03's collision LFTs (two saturation levels), on a
 *     subset of c03's hosts (groups of 3 and 4), on OpenSM's ftree LFTs of
 *     a 3-tier fat tree and under AR's equal split;
 *   - max-min by hand on c03's collision: the colliding uplink gets 8
 *     flows at 25 Gb/s, the other flows of those NICs get the rest;
 *   - the one-pass solver fl_perf_run uses (perf_fast.c) against
 *     progressive filling: identical flows on every directed link, step
 *     time, slow level and first-level links, for all-to-all, sendrecv and
 *     ring all-reduce over c03's collision LFTs, OpenSM ftree LFTs and AR,
 *     with 1, 2 and 3 threads.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "analysis/perf_impl.h"
#include "fabriclint/fabric.h"
#include "fabriclint/load.h"
#include "io/workload.h"
#include "model/build.h"

#define C03                                                                    \
  FL_SOURCE_DIR "/tests/data/cases/c03-nccl325-static-routing-collision/"
#define FT3 FL_SOURCE_DIR "/tests/fixtures/routing/fat-tree-3tier-ftree/"

static fl_fabric *load2(const char *a, const char *b) {
  fl_fabric *f = fl_fabric_new();
  fl_error err;
  fl_error_clear(&err);
  assert_int_equal(fl_fabric_load(f, a, 0, NULL, &err), FL_OK);
  if (b)
    assert_int_equal(fl_fabric_load(f, b, 0, NULL, &err), FL_OK);
  assert_int_equal(fl_fabric_finalize(f, &err), FL_OK);
  return f;
}

static fl_perf_job *job_for(const fl_fabric *f, const char *yaml,
                            uint32_t routing) {
  fl_workload w;
  fl_error err;
  fl_error_clear(&err);
  assert_int_equal(fl_workload_parse(&w, "t.yaml", yaml, strlen(yaml), &err),
                   FL_OK);
  fl_perf_job *job = NULL;
  int rc = fl_perf_job_new(f, &w, routing, &job, &err);
  if (rc != FL_OK)
    fprintf(stderr, "%s\n", err.message);
  assert_int_equal(rc, FL_OK);
  fl_workload_free(&w);
  return job;
}

/* The per-flow expansion of an all-to-all: one group per NIC, one class
 * per ordered pair of NICs of one rail on different hosts. */
static void expand_a2a(const fl_perf_job *job, double bytes, pf_flows *fl) {
  uint32_t n = job->hosts * job->rails, k = job->rails;
  memset(fl, 0, sizeof *fl);
  fl->nnic = n;
  fl->rails = k;
  fl->ng = n;
  fl->groups = calloc(n, sizeof *fl->groups);
  fl->members = calloc(n, sizeof *fl->members);
  fl->dst_off = calloc((size_t)n + 1, sizeof *fl->dst_off);
  fl->cls = calloc((size_t)n * n, sizeof *fl->cls);
  for (uint32_t i = 0; i < n; i++) {
    fl->groups[i] =
        (pf_group){job->nic[i].sw, job->nic[i].dl_out, 1, i, job->nic[i].gbps};
    fl->members[i] = i;
  }
  for (uint32_t d = 0; d < n; d++) {
    for (uint32_t s = 0; s < n; s++)
      if (s / k != d / k && s % k == d % k) {
        fl->cls[fl->ncls++] = (pf_class){s, d, 1, bytes, 0};
        fl->total_flows += 1;
      }
    fl->dst_off[d + 1] = (uint32_t)fl->ncls;
  }
}

static void check_exact(const fl_fabric *f, const char *yaml, uint32_t routing,
                        double want_ratio_min) {
  fl_perf_job *job = job_for(f, yaml, routing);
  fl_wl_coll c = {.op = FL_WL_ALL_TO_ALL, .bytes = 1u << 30};
  pf_flows agg, exp;
  uint32_t steps, ranks;
  fl_error err;
  fl_error_clear(&err);
  assert_int_equal(pf_flows_build(job, &c, &agg, &steps, &ranks, &err), FL_OK);
  expand_a2a(job, agg.a2a_bytes, &exp);
  assert_true(agg.a2a);
  assert_true(agg.ng < exp.ng); /* the aggregation did aggregate */
  assert_true(fabs(agg.total_flows - exp.total_flows) < 1e-9);
  pf_solution sa, se;
  assert_int_equal(
      pf_maxmin(&job->net, job->nic, &agg, job->routing, &sa, &err), FL_OK);
  assert_int_equal(
      pf_maxmin(&job->net, job->nic, &exp, job->routing, &se, &err), FL_OK);
  assert_string_equal(sa.error, "");
  assert_string_equal(se.error, "");
  assert_true(se.step_time_s > 0);
  assert_true(fabs(sa.step_time_s - se.step_time_s) <= 1e-12 * se.step_time_s);
  assert_true(fabs(sa.slow_level - se.slow_level) <= 1e-9 * se.slow_level);
  for (uint32_t dl = 0; dl < job->net.ndl; dl++) {
    /* the injection cable stands for each member's own cable */
    if (sa.weight[dl] == 0 && se.weight[dl] == 0)
      continue;
    int inj = 0;
    for (uint32_t g = 0; g < agg.ng; g++)
      for (uint32_t m = 0; m < agg.groups[g].m; m++)
        if (job->nic[agg.members[agg.groups[g].first + m]].dl_out == dl)
          inj = 1;
    if (!inj) {
      assert_true(fabs(sa.weight[dl] - se.weight[dl]) < 1e-9);
      if (isfinite(se.level[dl]) || isfinite(sa.level[dl]))
        assert_true(fabs(sa.level[dl] - se.level[dl]) <= 1e-9 * se.level[dl]);
    }
  }
  /* a2a ideal is 7 flows per NIC: the ratio is ideal time / time */
  pf_solution si;
  assert_int_equal(
      pf_maxmin(&job->net, job->nic, &agg, PF_ROUTE_IDEAL, &si, &err), FL_OK);
  assert_true(si.step_time_s / sa.step_time_s >= want_ratio_min - 1e-12);
  pf_solution_free(&si);
  pf_solution_free(&sa);
  pf_solution_free(&se);
  pf_flows_free(&agg);
  pf_flows_free(&exp);
  fl_perf_job_free(job);
}

static const char ALL[] =
    "hosts: all\ncollectives:\n  - {op: all-to-all, bytes: 1GiB}\n";

static void test_exact_c03_collision(void **state) {
  (void)state;
  fl_fabric *f =
      load2(C03 "topo.ibnetdiscover", C03 "opensm-lfts-collision.dump");
  check_exact(f, ALL, FL_WL_ROUTE_LFT, 0.875);
  /* groups of 3 (leaf-0) and 4 (leaf-1) */
  check_exact(f,
              "hosts: [gpu00, gpu02, gpu03, gpu04, gpu05, gpu06, gpu07]\n"
              "collectives:\n  - {op: all-to-all, bytes: 1GiB}\n",
              FL_WL_ROUTE_LFT, 0.5);
  check_exact(f, ALL, FL_WL_ROUTE_AR, 1.0);
  fl_fabric_free(f);
}

static void test_exact_ftree(void **state) {
  (void)state;
  fl_fabric *f = load2(FT3 "topology.ibnetdiscover", FT3 "opensm-lfts.dump");
  check_exact(f, ALL, FL_WL_ROUTE_LFT, 1.0);
  check_exact(f, ALL, FL_WL_ROUTE_AR, 1.0);
  fl_fabric_free(f);
}

/* Progressive filling by hand on c03's collision all-to-all: leaf-0's
 * port 5 uplink carries gpu00..03 -> gpu04, gpu05: 8 flows, 25 Gb/s each
 * (first level). Second level: the cable into gpu01 carries 7 unfrozen
 * flows, 200 / 7 Gb/s each, and every other unfrozen flow meets the same
 * share (gpu06's cable: 5 flows at 200/7 leave 2 x 200/7 for its two flows
 * to gpu04 and gpu05), so the rest freezes at 200/7; gpu00's own cable then
 * carries 2 x 25 + 5 x 200/7 = 192.9 Gb/s and never saturates. */
static void test_levels_by_hand(void **state) {
  (void)state;
  fl_fabric *f =
      load2(C03 "topo.ibnetdiscover", C03 "opensm-lfts-collision.dump");
  fl_perf_job *job = job_for(f, ALL, FL_WL_ROUTE_LFT);
  fl_wl_coll c = {.op = FL_WL_ALL_TO_ALL, .bytes = 1u << 30};
  pf_flows fl;
  uint32_t steps, ranks;
  fl_error err;
  fl_error_clear(&err);
  assert_int_equal(pf_flows_build(job, &c, &fl, &steps, &ranks, &err), FL_OK);
  pf_solution s;
  assert_int_equal(
      pf_maxmin(&job->net, job->nic, &fl, FL_WL_ROUTE_LFT, &s, &err), FL_OK);
  fl_id leaf0 = fl_fabric_find_node_name(f, "leaf-0");
  fl_id p5 = fl_fabric_find_port(f, leaf0, 5);
  uint32_t up = pf_dl(f, fl_fabric_port_link(f, p5, 0), p5);
  assert_true(fabs(s.level[up] - 25.0) < 1e-9);
  assert_true(fabs(s.weight[up] - 8.0) < 1e-9);
  fl_id g0 = fl_fabric_find_node_name(f, "gpu00 mlx5_0");
  fl_id gp = fl_fabric_node_first_port(f, g0);
  uint32_t inj = pf_dl(f, fl_fabric_port_link(f, gp, 0), gp);
  assert_true(isinf(s.level[inj]));
  assert_true(fabs(s.weight[inj] - 7.0) < 1e-9);
  fl_id p2 = fl_fabric_find_port(f, leaf0, 2); /* leaf-0 -> gpu01 */
  uint32_t ej = pf_dl(f, fl_fabric_port_link(f, p2, 0), p2);
  assert_true(fabs(s.level[ej] - 200.0 / 7) < 1e-9);
  assert_true(fabs(s.weight[ej] - 7.0) < 1e-9);
  assert_true(fabs(s.slow_level - 25.0) < 1e-9);
  /* 1 GiB / 8 ranks per flow at 25 Gb/s */
  assert_true(fabs(s.step_time_s - (double)(1u << 27) * 8 / 25e9) < 1e-12);
  assert_int_equal(s.rounds, 3);
  pf_solution_free(&s);
  pf_flows_free(&fl);
  fl_perf_job_free(job);
  fl_fabric_free(f);
}

/* Equal, or within @rel of @b when @rel > 0. */
static int same(double a, double b, double rel) {
  if (rel == 0)
    return a == b;
  return fabs(a - b) <= rel * fabs(b) + 1e-300;
}

/* The one-pass solver (pf_maxmin_first) against progressive filling
 * (pf_maxmin) for collective @c of @yaml on @f, over the routing and over
 * the ideal, with 1, 2 and 3 threads: the same flows on every directed link
 * (exactly for LFT and the ideal: whole counts; within 1e-12 under AR's
 * fractional split), the same step time and slow level, and the first
 * level on exactly the links pf_maxmin saturates at the slowest flow's
 * rate (later levels are left out: INFINITY). Returns how many links
 * pf_maxmin saturates at a later level (the part the pass skips). */
static uint32_t check_fast(const fl_fabric *f, const char *yaml,
                           uint32_t routing, fl_wl_coll c) {
  fl_perf_job *job = job_for(f, yaml, routing);
  pf_flows fl;
  uint32_t steps, ranks, later = 0;
  fl_error err;
  fl_error_clear(&err);
  assert_int_equal(pf_flows_build(job, &c, &fl, &steps, &ranks, &err), FL_OK);
  assert_true(pf_uniform_bytes(&fl));
  uint32_t modes[2] = {job->routing, PF_ROUTE_IDEAL};
  for (int mi = 0; mi < 2; mi++) {
    double rel = modes[mi] == FL_WL_ROUTE_AR ? 1e-12 : 0;
    pf_solution full;
    assert_int_equal(
        pf_maxmin(&job->net, job->nic, &fl, modes[mi], &full, &err), FL_OK);
    assert_string_equal(full.error, "");
    for (uint32_t th = 1; th <= 3; th++) {
      pf_solution fast;
      assert_int_equal(
          pf_maxmin_first(&job->net, job->nic, &fl, modes[mi], th, &fast, &err),
          FL_OK);
      assert_string_equal(fast.error, "");
      assert_int_equal(fast.rounds, 1);
      assert_true(full.step_time_s > 0);
      assert_true(same(fast.step_time_s, full.step_time_s, rel));
      assert_true(same(fast.slow_level, full.slow_level, rel));
      uint32_t first = 0;
      for (uint32_t dl = 0; dl < job->net.ndl; dl++) {
        if (!same(fast.weight[dl], full.weight[dl], rel))
          fprintf(stderr, "dl %u: fast %.17g full %.17g flows\n", dl,
                  fast.weight[dl], full.weight[dl]);
        assert_true(same(fast.weight[dl], full.weight[dl], rel));
        int at_first = isfinite(full.level[dl]) &&
                       same(full.level[dl], full.slow_level, rel);
        if (at_first) {
          assert_true(same(fast.level[dl], full.level[dl], rel));
          first++;
        } else {
          assert_true(isinf(fast.level[dl]));
          if (isfinite(full.level[dl]) && th == 1 && mi == 0)
            later++;
        }
      }
      assert_true(first > 0);
      pf_solution_free(&fast);
    }
    pf_solution_free(&full);
  }
  pf_flows_free(&fl);
  fl_perf_job_free(job);
  return later;
}

static void test_fast_c03_collision(void **state) {
  (void)state;
  fl_fabric *f =
      load2(C03 "topo.ibnetdiscover", C03 "opensm-lfts-collision.dump");
  fl_wl_coll a2a = {.op = FL_WL_ALL_TO_ALL, .bytes = 1u << 30};
  fl_wl_coll sr = {.op = FL_WL_SENDRECV, .shift = 4, .bytes = 1u << 30};
  fl_wl_coll ring = {.op = FL_WL_ALL_REDUCE, .bytes = 1u << 30};
  /* two saturation levels (25 and 200/7 Gb/s): the second is skipped */
  assert_true(check_fast(f, ALL, FL_WL_ROUTE_LFT, a2a) > 0);
  check_fast(f, ALL, FL_WL_ROUTE_LFT, sr);
  check_fast(f, ALL, FL_WL_ROUTE_LFT, ring);
  check_fast(f,
             "hosts: [gpu00, gpu02, gpu03, gpu04, gpu05, gpu06, gpu07]\n"
             "collectives:\n  - {op: all-to-all, bytes: 1GiB}\n",
             FL_WL_ROUTE_LFT, a2a);
  check_fast(f, ALL, FL_WL_ROUTE_AR, a2a);
  check_fast(f, ALL, FL_WL_ROUTE_AR, sr);
  fl_fabric_free(f);
}

static void test_fast_ftree(void **state) {
  (void)state;
  fl_fabric *f = load2(FT3 "topology.ibnetdiscover", FT3 "opensm-lfts.dump");
  fl_wl_coll a2a = {.op = FL_WL_ALL_TO_ALL, .bytes = 1u << 30};
  fl_wl_coll sr = {.op = FL_WL_SENDRECV, .shift = 3, .bytes = 1u << 30};
  check_fast(f, ALL, FL_WL_ROUTE_LFT, a2a);
  check_fast(f, ALL, FL_WL_ROUTE_LFT, sr);
  check_fast(f, ALL, FL_WL_ROUTE_AR, a2a);
  fl_fabric_free(f);
}

/* By hand, c03's collision all-to-all through the pass: leaf-0's port 5
 * uplink 8 flows at 25 Gb/s (the first and only level it computes), the
 * cable into gpu01 7 flows and no level (pf_maxmin gives it 200/7 in its
 * second round), gpu00's own cable 7 flows. */
static void test_fast_by_hand(void **state) {
  (void)state;
  fl_fabric *f =
      load2(C03 "topo.ibnetdiscover", C03 "opensm-lfts-collision.dump");
  fl_perf_job *job = job_for(f, ALL, FL_WL_ROUTE_LFT);
  fl_wl_coll c = {.op = FL_WL_ALL_TO_ALL, .bytes = 1u << 30};
  pf_flows fl;
  uint32_t steps, ranks;
  fl_error err;
  fl_error_clear(&err);
  assert_int_equal(pf_flows_build(job, &c, &fl, &steps, &ranks, &err), FL_OK);
  pf_solution s;
  assert_int_equal(
      pf_solve(&job->net, job->nic, &fl, FL_WL_ROUTE_LFT, &s, &err), FL_OK);
  fl_id leaf0 = fl_fabric_find_node_name(f, "leaf-0");
  fl_id p5 = fl_fabric_find_port(f, leaf0, 5);
  uint32_t up = pf_dl(f, fl_fabric_port_link(f, p5, 0), p5);
  assert_true(s.level[up] == 25.0);
  assert_true(s.weight[up] == 8.0);
  fl_id p2 = fl_fabric_find_port(f, leaf0, 2);
  uint32_t ej = pf_dl(f, fl_fabric_port_link(f, p2, 0), p2);
  assert_true(isinf(s.level[ej]));
  assert_true(s.weight[ej] == 7.0);
  fl_id g0 = fl_fabric_find_node_name(f, "gpu00 mlx5_0");
  fl_id gp = fl_fabric_node_first_port(f, g0);
  uint32_t inj = pf_dl(f, fl_fabric_port_link(f, gp, 0), gp);
  assert_true(s.weight[inj] == 7.0);
  assert_true(s.slow_level == 25.0);
  assert_true(s.step_time_s == (double)(1u << 27) * 8 / (25.0 * 1e9));
  assert_int_equal(s.rounds, 1);
  pf_solution_free(&s);
  pf_flows_free(&fl);
  fl_perf_job_free(job);
  fl_fabric_free(f);
}

/* A forwarding loop: h1 - sw-a = sw-b - h2, sw-b forwards h2's LID back
 * to sw-a. The one pass must stop (a frontier alive after nsw levels) and
 * report what pf_maxmin reports: the loop toward LID 2, two switches. */
static void test_fast_loop(void **state) {
  (void)state;
  fl_fabric *f = fl_fabric_new();
  fl_prov pv = {fl_b_file(f, "built in test_perf.c"), 0, 0};
  fl_id n[4];
  const char *name[4] = {"sw-a", "sw-b", "h1 mlx5_0", "h2 mlx5_0"};
  for (int i = 0; i < 4; i++) {
    n[i] = fl_b_node(f, i < 2 ? FL_NODE_SWITCH : FL_NODE_CA, 0x100u + i,
                     i < 2 ? 2 : 1, pv);
    fl_b_node_set_name(f, n[i], name[i], (size_t)-1);
  }
  fl_b_node_set_system(f, n[2], "h1", (size_t)-1);
  fl_b_node_set_system(f, n[3], "h2", (size_t)-1);
  fl_b_port_set_lid(f, fl_b_port(f, n[0], 0, pv), 3, 0);
  fl_b_port_set_lid(f, fl_b_port(f, n[1], 0, pv), 4, 0);
  fl_id c1 = fl_b_port(f, n[2], 1, pv), c2 = fl_b_port(f, n[3], 1, pv);
  fl_b_port_set_lid(f, c1, 1, 0);
  fl_b_port_set_lid(f, c2, 2, 0);
  fl_b_link(f, fl_b_port(f, n[0], 1, pv), c1, 4, FL_SPEED_NDR, FL_LINK_DECLARED,
            pv);
  fl_b_link(f, fl_b_port(f, n[1], 1, pv), c2, 4, FL_SPEED_NDR, FL_LINK_DECLARED,
            pv);
  fl_b_link(f, fl_b_port(f, n[0], 2, pv), fl_b_port(f, n[1], 2, pv), 4,
            FL_SPEED_NDR, FL_LINK_DECLARED, pv);
  uint8_t *a = fl_b_lft_row(f, n[0], 4), *b = fl_b_lft_row(f, n[1], 4);
  a[1] = 1, a[2] = 2; /* sw-a: h1 down, h2 across */
  b[1] = 2, b[2] = 2; /* sw-b: h2 back across: the loop */
  fl_error err;
  fl_error_clear(&err);
  assert_int_equal(fl_fabric_finalize(f, &err), FL_OK);
  fl_perf_job *job = job_for(f,
                             "hosts: [h1, h2]\ncollectives:\n"
                             "  - {op: all-to-all, bytes: 1GiB}\n",
                             FL_WL_ROUTE_LFT);
  fl_wl_coll c = {.op = FL_WL_ALL_TO_ALL, .bytes = 1u << 30};
  pf_flows fl;
  uint32_t steps, ranks;
  assert_int_equal(pf_flows_build(job, &c, &fl, &steps, &ranks, &err), FL_OK);
  pf_solution s;
  assert_int_equal(
      pf_solve(&job->net, job->nic, &fl, FL_WL_ROUTE_LFT, &s, &err), FL_OK);
  assert_string_equal(s.error, "the LFTs toward LID 2 (h2 mlx5_0) loop: 2 "
                               "switch(es) forward in a cycle");
  pf_solution_free(&s);
  pf_flows_free(&fl);
  fl_perf_job_free(job);
  fl_fabric_free(f);
}

/* The workload's run-time cap (issue 32 #11): placements x collectives x
 * hosts <= FL_WL_MAX_WORK (2^24), at the boundary and one past, with and
 * without `placements:`. */
static int parse_work(uint32_t count, uint32_t colls, uint32_t hosts,
                      int placements, fl_error *err) {
  size_t cap = 256 + (size_t)colls * 40 + (size_t)hosts * 12;
  char *y = malloc(cap);
  assert_non_null(y);
  size_t o = 0;
  if (placements) {
    o += (size_t)snprintf(y + o, cap - o,
                          "hosts: %u\nplacements: {count: %u, seed: 1, "
                          "from: all}\n",
                          hosts, count);
  } else {
    o += (size_t)snprintf(y + o, cap - o, "hosts: [");
    for (uint32_t i = 0; i < hosts; i++)
      o += (size_t)snprintf(y + o, cap - o, "%sh%u", i ? ", " : "", i);
    o += (size_t)snprintf(y + o, cap - o, "]\n");
  }
  o += (size_t)snprintf(y + o, cap - o, "collectives:\n");
  for (uint32_t i = 0; i < colls; i++)
    o += (size_t)snprintf(y + o, cap - o, "  - {op: all-reduce, bytes: 1M}\n");
  fl_workload w;
  fl_error_clear(err);
  int rc = fl_workload_parse(&w, "cap.yaml", y, o, err);
  fl_workload_free(&w);
  free(y);
  return rc;
}

static void test_workload_work_cap(void **state) {
  (void)state;
  fl_error err;
  /* 65,536 x 1 x 256 = 2^24: accepted; 257 hosts: refused */
  assert_int_equal(parse_work(65536, 1, 256, 1, &err), FL_OK);
  assert_int_equal(parse_work(65536, 1, 257, 1, &err), FL_EPARSE);
  assert_string_equal(err.message,
                      "65536 placement(s) x 1 collective(s) x 257 hosts = "
                      "16842752 host-collectives, past the cap of 16777216 "
                      "(the workload's run time; evaluate fewer placements "
                      "or collectives per run)");
  /* the same product the other way round: 256 x 1 x 65,536 */
  assert_int_equal(parse_work(256, 1, 65536, 1, &err), FL_OK);
  assert_int_equal(parse_work(257, 1, 65536, 1, &err), FL_EPARSE);
  /* the review's workload: 65,536 x 4,096 x 128 */
  assert_int_equal(parse_work(65536, 4096, 128, 1, &err), FL_EPARSE);
  assert_non_null(strstr(err.message, "= 34359738368 host-collectives"));
  /* without placements: collectives x listed hosts (4,096 x 4,096 = 2^24) */
  assert_int_equal(parse_work(1, 4096, 4096, 0, &err), FL_OK);
  assert_int_equal(parse_work(1, 4096, 4097, 0, &err), FL_EPARSE);
  assert_non_null(strstr(err.message, "1 placement(s) x 4096 collective(s) x "
                                      "4097 hosts = 16781312"));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_workload_work_cap),
      cmocka_unit_test(test_exact_c03_collision),
      cmocka_unit_test(test_exact_ftree),
      cmocka_unit_test(test_levels_by_hand),
      cmocka_unit_test(test_fast_c03_collision),
      cmocka_unit_test(test_fast_ftree),
      cmocka_unit_test(test_fast_by_hand),
      cmocka_unit_test(test_fast_loop),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
