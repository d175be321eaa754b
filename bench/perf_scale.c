/* SPDX-License-Identifier: MIT */
/*
 * bench/perf_scale.c — the collective performance model at data-centre
 * scale (issue #17: one all-to-all step of 65,536 endpoints over the real
 * LFTs in under 10 s). Builds a radix-K 3-tier fat tree with
 * fl_gen_fat_tree, copies it with D-mod-k LFTs (fattree_lfts.h, as a
 * subnet manager's fat-tree routing would), and times fl_perf_run() on one
 * all-to-all of 1 GiB (max-min on the routing plus the no-contention
 * ideal). Scenarios (one per run of the program, so peak RSS is its own):
 *   lft    one subnet, LFT routing over every CA that holds a LID (one
 *          subnet has 49,151 unicast LIDs: at radix 64, 44,031 of the
 *          65,536 CAs, the other 5,120 LIDs are the switches');
 *   planes P separate subnets (planes) of k^3/(4P) hosts each, every host
 *          with one NIC per plane, all in one fabric, LFT routing: at
 *          radix 64 and P = 2, 32,768 hosts x 2 NICs = 65,536 endpoints,
 *          every one with a LID of its plane and routed by its LFTs;
 *   ar     one subnet, load-aware adaptive routing over all k^3/4 CAs;
 *   spray  the same with AR's old equal split (perf_ar.c's cost is the
 *          difference);
 *   place  the `lft` subnet as the pool of a job of N hosts placed RUNS
 *          times at random (workload `placements:`, seed 1, perf_place.c)
 *          with one all-to-all and one ring all-reduce of 1 GiB each:
 *          the distribution over placements and the time of all of them.
 * Usage: build/bench/perf_scale [K [lft|planes|ar|spray [RUNS [P]]]]
 *        build/bench/perf_scale K place COUNT N
 * (default 64 lft 3 2). Prints each run's wall and CPU seconds (user + sys
 * of the whole process, every thread), their medians, and the process's
 * peak RSS. Setup (generation, LFTs, finalize) is not timed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "analysis/perf.h"
#include "analysis/perf_place.h"
#include "fattree_lfts.h"
#include "io/workload.h"

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double cpu(void) {
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec * 1e-6 +
         (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec * 1e-6;
}

static int cmp_d(const void *x, const void *y) {
  double a = *(const double *)x, b = *(const double *)y;
  return a < b ? -1 : a > b;
}

/* Every host (system, else the CA's name) with a CA that holds a LID, in
 * node order. With planes every host has one CA per plane and the planes
 * follow each other: the list ends where the first host comes back. */
static void job_hosts(const fl_fabric *f, fl_workload *w) {
  uint32_t nn = fl_fabric_node_count(f);
  w->hosts = malloc(nn * sizeof *w->hosts);
  for (fl_id n = 0; n < nn; n++) {
    if (fl_fabric_node_kind(f, n) != FL_NODE_CA)
      continue;
    fl_id p = fl_fabric_node_first_port(f, n);
    if (p == FL_NONE || fl_fabric_port_lid(f, p) == 0)
      continue;
    const char *sys = fl_fabric_node_system(f, n);
    if (!sys || !*sys)
      sys = fl_fabric_node_name(f, n);
    if (w->n_hosts && strcmp(w->hosts[0], sys) == 0)
      break;
    w->hosts[w->n_hosts++] = (char *)sys;
  }
}

/* `place`: COUNT placements of an N-host job drawn from every host of
 * @f with a LID (one process, no MPI). */
static int placements(fl_fabric *f, uint32_t count, uint32_t n) {
  fl_workload w;
  memset(&w, 0, sizeof w);
  w.path = "bench";
  w.min_share = 0.9;
  job_hosts(f, &w);
  fl_perf_job *pool = NULL;
  fl_error err;
  fl_error_clear(&err);
  if (fl_perf_job_new(f, &w, FL_WL_ROUTE_LFT, &pool, &err) != FL_OK)
    return fprintf(stderr, "pool: %s\n", err.message), 1;
  fl_wl_coll c[2] = {{.op = FL_WL_ALL_TO_ALL, .bytes = 1ull << 30},
                     {.op = FL_WL_ALL_REDUCE, .bytes = 1ull << 30}};
  w.colls = c;
  w.n_colls = 2;
  w.place = (fl_wl_placements){.on = 1,
                               .count = count,
                               .seed = 1,
                               .from_all = 1,
                               .index = -1,
                               .job_hosts = n};
  fl_perf_places pl;
  double w0 = now(), c0 = cpu();
  if (fl_perf_places_run(pool, &w, NULL, 1, &pl, &err) != FL_OK)
    return fprintf(stderr, "placements: %s\n", err.message), 1;
  double wall = now() - w0, cpu_s = cpu() - c0;
  printf("%u placements of %u hosts from %u: %.2f s wall, %.2f s CPU\n", count,
         n, fl_perf_job_hosts(pool), wall, cpu_s);
  for (uint32_t k = 0; k < pl.n_coll; k++) {
    const fl_perf_place_coll *pc = &pl.coll[k];
    printf("  %s: busbw min %.2f median %.2f max %.2f of %.2f GB/s; worst "
           "placement %llu, %u bottleneck(s)\n",
           fl_wl_op_name(c[k].op), pc->busbw_GBps.min, pc->busbw_GBps.median,
           pc->busbw_GBps.max, pc->worst_res.ideal_busbw_GBps,
           (unsigned long long)pc->samples[pc->worst].index,
           pc->worst_res.n_bottlenecks);
  }
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  printf("peak RSS %.0f MB\n", (double)ru.ru_maxrss / 1024.0);
  fl_perf_places_free(&pl);
  fl_perf_job_free(pool);
  free(w.hosts);
  return 0;
}

int main(int argc, char **argv) {
  uint32_t k = argc > 1 ? (uint32_t)atoi(argv[1]) : 64;
  const char *what = argc > 2 ? argv[2] : "lft";
  if (strcmp(what, "place") == 0) {
    uint32_t count = argc > 3 ? (uint32_t)atoi(argv[3]) : 16,
             n = argc > 4 ? (uint32_t)atoi(argv[4]) : 4096;
    if (k < 4 || k > 128 || count < 1 || count > FL_WL_MAX_PLACEMENTS || n < 2)
      return fprintf(stderr, "usage: perf_scale K place COUNT N\n"), 2;
    double t0 = now();
    fl_fabric *f = make_vl(k, 0, 0);
    printf("radix %u place: %u switches, %u CAs (setup %.2f s)\n", k,
           fl_fabric_count_kind(f, FL_NODE_SWITCH),
           fl_fabric_count_kind(f, FL_NODE_CA), now() - t0);
    int rc = placements(f, count, n);
    fl_fabric_free(f);
    return rc;
  }
  int runs = argc > 3 ? atoi(argv[3]) : 3;
  uint32_t planes = argc > 4 ? (uint32_t)atoi(argv[4]) : 2;
  if (runs < 1 || runs > 15 || planes < 1 || k < 4 || k > 128)
    return fprintf(stderr, "usage: perf_scale [K [lft|planes|ar|spray [RUNS "
                           "[PLANES]]]]\n"),
           2;
  uint32_t routing = strcmp(what, "ar") == 0      ? FL_WL_ROUTE_AR
                     : strcmp(what, "spray") == 0 ? FL_WL_ROUTE_SPRAY
                                                  : FL_WL_ROUTE_LFT;
  int use_planes = strcmp(what, "planes") == 0;
  double t0 = now();
  fl_fabric *f = use_planes ? make_planes(k, planes) : make_vl(k, 0, 0);
  printf("radix %u %s%s: %u switches, %u CAs, %u links, %u LFTs, max LID "
         "%u (setup %.2f s)\n",
         k, what, use_planes ? " (planes in one fabric)" : "",
         fl_fabric_count_kind(f, FL_NODE_SWITCH),
         fl_fabric_count_kind(f, FL_NODE_CA), fl_fabric_link_count(f),
         fl_fabric_lft_count(f), fl_fabric_max_lid(f), now() - t0);
  fl_workload w;
  memset(&w, 0, sizeof w);
  w.path = "bench";
  w.min_share = 0.9;
  if (routing != FL_WL_ROUTE_LFT && !use_planes) {
    w.all_hosts = 1; /* every CA, LID or not: AR needs none */
  } else {
    job_hosts(f, &w);
  }
  fl_error err;
  fl_error_clear(&err);
  fl_perf_job *job = NULL;
  double j0 = now();
  if (fl_perf_job_new(f, &w, routing, &job, &err) != FL_OK) {
    fprintf(stderr, "job: %s\n", err.message);
    return 1;
  }
  printf("job: %u hosts x %u NICs = %u endpoints (%.2f s)\n",
         fl_perf_job_hosts(job), fl_perf_job_rails(job),
         fl_perf_job_hosts(job) * fl_perf_job_rails(job), now() - j0);
  fl_wl_coll c = {.op = FL_WL_ALL_TO_ALL, .bytes = 1ull << 30};
  double wall[15], cpus[15];
  for (int i = 0; i < runs; i++) {
    fl_perf_result r;
    double w0 = now(), c0 = cpu();
    if (fl_perf_run(job, &c, &r, &err) != FL_OK) {
      fprintf(stderr, "run: %s\n", err.message);
      return 1;
    }
    wall[i] = now() - w0;
    cpus[i] = cpu() - c0;
    printf("run %d: %s, %u ranks, %.0f flows: %.2f s wall, %.2f s CPU, %u "
           "round(s); busbw %.3f of %.3f GB/s, %u bottleneck link(s)%s%s\n",
           i + 1, routing == FL_WL_ROUTE_LFT ? "LFT" : "AR", r.ranks, r.flows,
           wall[i], cpus[i], r.solver_rounds, r.busbw_GBps, r.ideal_busbw_GBps,
           r.n_bottlenecks, r.error[0] ? " ERROR " : "", r.error);
  }
  qsort(wall, (size_t)runs, sizeof *wall, cmp_d);
  qsort(cpus, (size_t)runs, sizeof *cpus, cmp_d);
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  printf("median of %d: %.2f s wall, %.2f s CPU; peak RSS %.0f MB\n", runs,
         wall[runs / 2], cpus[runs / 2], (double)ru.ru_maxrss / 1024.0);
  fl_perf_job_free(job);
  free(w.hosts);
  fl_fabric_free(f);
  return 0;
}
