/*
 * bench/perf_scale.c — the collective performance model at data-centre
 * scale (issue #17: one all-to-all step of 65,536 endpoints in under
 * 10 s). Builds the radix-K 3-tier fat tree with fl_gen_fat_tree, copies
 * it with D-mod-k LFTs (fattree_lfts.h, as a subnet manager's fat-tree
 * routing would), and times fl_perf_run() on one all-to-all (max-min on
 * the LFTs plus the no-contention ideal):
 *   - LFT routing over every endpoint that holds a LID (one subnet has
 *     49,151 unicast LIDs: at radix 64, 44,031 of the 65,536 CAs);
 *   - ideal adaptive routing over all 65,536 endpoints.
 * Usage: build/bench/perf_scale [K] (default 64). Setup is not timed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "analysis/perf.h"
#include "fattree_lfts.h"
#include "io/workload.h"

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void run(const fl_fabric *f, int with_lid_only, uint32_t routing) {
  fl_workload w;
  memset(&w, 0, sizeof w);
  w.path = "bench";
  w.min_share = 0.9;
  uint32_t nn = fl_fabric_node_count(f);
  w.hosts = malloc(nn * sizeof *w.hosts);
  for (fl_id n = 0; n < nn; n++) {
    if (fl_fabric_node_kind(f, n) != FL_NODE_CA)
      continue;
    fl_id p = fl_fabric_node_first_port(f, n);
    if (with_lid_only && (p == FL_NONE || fl_fabric_port_lid(f, p) == 0))
      continue;
    w.hosts[w.n_hosts++] = (char *)fl_fabric_node_system(f, n);
  }
  fl_wl_coll c = {.op = FL_WL_ALL_TO_ALL, .bytes = 1ull << 30};
  fl_error err;
  fl_error_clear(&err);
  double t0 = now();
  fl_perf_job *job = NULL;
  if (fl_perf_job_new(f, &w, routing, &job, &err) != FL_OK) {
    fprintf(stderr, "job: %s\n", err.message);
    exit(1);
  }
  double t1 = now();
  fl_perf_result r;
  if (fl_perf_run(job, &c, &r, &err) != FL_OK) {
    fprintf(stderr, "run: %s\n", err.message);
    exit(1);
  }
  double t2 = now();
  printf("%s, %zu endpoints, %.0f flows: job %.2f s, all-to-all step "
         "(max-min + ideal) %.2f s, %u rounds; busbw %.2f of %.2f Gb/s%s%s\n",
         routing == FL_WL_ROUTE_LFT ? "LFT" : "AR", w.n_hosts, r.flows,
         t1 - t0, t2 - t1, r.solver_rounds, r.busbw_gbps, r.ideal_busbw_gbps,
         r.error[0] ? " ERROR " : "", r.error);
  fl_perf_job_free(job);
  free(w.hosts);
}

int main(int argc, char **argv) {
  uint32_t k = argc > 1 ? (uint32_t)atoi(argv[1]) : 64;
  double t0 = now();
  fl_fabric *f = make_vl(k, 0, 0);
  printf("radix %u: %u switches, %u CAs, %u links, %u LFTs (setup %.2f s)\n",
         k, fl_fabric_count_kind(f, FL_NODE_SWITCH),
         fl_fabric_count_kind(f, FL_NODE_CA), fl_fabric_link_count(f),
         fl_fabric_lft_count(f), now() - t0);
  run(f, 1, FL_WL_ROUTE_LFT);
  run(f, 0, FL_WL_ROUTE_AR);
  fl_fabric_free(f);
  return 0;
}
