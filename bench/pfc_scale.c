/* SPDX-License-Identifier: MIT */
/*
 * bench/pfc_scale.c — the lossless-Ethernet (PFC) deadlock analysis
 * (core/analysis/pfc.c) at data-centre scale.
 *
 * Builds a radix-K 3-tier fat tree with fl_gen_fat_tree (K=64: 65,536
 * endpoints, 5,120 switches, 196,608 cables, 2,048 leaves as destinations)
 * and times fl_pfc_analyze() on the healthy fabric, then with the
 * single-link-failure sweep bounded to F failures (the first F switch
 * links: leaf-to-spine links first, each changing the routes to one leaf;
 * then spine-to-core links, each changing those to a pod's leaves).
 *
 * Usage: pfc_scale [K] [F]   (default 64 200). Prints wall times, the
 * number of destinations and channels, valleys and whether a cycle was
 * found.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "fabriclint/gen.h"
#include "fabriclint/pfc.h"

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv) {
  uint32_t k = argc > 1 ? (uint32_t)atoi(argv[1]) : 64;
  uint32_t nf = argc > 2 ? (uint32_t)atoi(argv[2]) : 200;
  fl_gen_fat_tree_params gp = {0};
  gp.radix = k;
  gp.tiers = 3;
  fl_fabric *f = NULL;
  fl_error err;
  double t0 = now();
  if (fl_gen_fat_tree(&gp, &f, &err) != FL_OK) {
    fprintf(stderr, "gen: %s\n", err.message);
    return 1;
  }
  double t1 = now();
  printf("fat tree radix %u: %u nodes, %u links, built in %.2f s\n", k,
         fl_fabric_node_count(f), fl_fabric_link_count(f), t1 - t0);
  fl_pfc_report *r = NULL;
  fl_pfc_options o = {sizeof o, 0, 0, 0, 0};
  t0 = now();
  if (fl_pfc_analyze(f, &o, &r) != 0) {
    fprintf(stderr, "pfc: out of memory\n");
    return 1;
  }
  t1 = now();
  printf("healthy: %u switches, %u destinations, %u channels, %u valleys, "
         "cycle %u: %.2f s\n",
         r->n_switches, r->n_dests, r->n_channels, r->n_valleys, r->cycle_len,
         t1 - t0);
  fl_pfc_report_free(r);
  double healthy = t1 - t0;
  o.failures = 1;
  o.max_failures = nf;
  t0 = now();
  if (fl_pfc_analyze(f, &o, &r) != 0) {
    fprintf(stderr, "pfc: out of memory\n");
    return 1;
  }
  t1 = now();
  printf("with failures: %u of %u link failures checked, %u create a "
         "valley: %.2f s (%.1f ms per failure beyond the healthy pass)\n",
         r->failures_checked, r->failures_total, r->n_failures, t1 - t0,
         r->failures_checked ? 1e3 * (t1 - t0 - healthy) / r->failures_checked
                             : 0.0);
  fl_pfc_report_free(r);
  fl_fabric_free(f);
  return 0;
}
