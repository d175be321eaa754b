/* SPDX-License-Identifier: MIT */
/*
 * bench/ecmp_scale.c — the ecmp-balance and adaptive-routing plugins at
 * data-centre scale (issue 7 targets: port balance and AR coverage on a
 * 65,536-endpoint fat tree under 2 s; eBB with 100 random patterns on
 * 8,192 endpoints under 10 s).
 *
 * Builds a radix-K 3-tier fat tree with fl_gen_fat_tree, copies it with
 * D-mod-k minimal LFTs exactly as bench/cdg_scale.c does (per destination
 * leaf a BFS; the LFT entry is the (DLID mod n)-th minimal port) and with
 * `ar=true` on every switch, then loads the built plugins through the real
 * host (core/host.h: dlopen, fl_host_api, parameters) and times single rule
 * runs with fl_host_run(). Each plugin builds its switch view once and
 * caches it; the first rule timed in a plugin pays for that, so it is
 * reported separately.
 *
 * One InfiniBand subnet has 49,151 unicast LIDs (IBA 4.1.3): at K=64 only
 * the first 44,031 CAs get a LID, so LFT port balance covers 44,031
 * destination LIDs, while AR coverage (design attributes) covers all
 * 65,536 endpoints.
 *
 * Usage: ecmp_scale [K_balance=64] [K_ebb=32] [patterns=100]
 * (run from the build folder: plugins are read from ./plugins/).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "build.h"
#include "fabriclint/gen.h"
#include "fabriclint/routing.h"
#include "fattree_lfts.h"
#include "host.h"

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void run(fl_host *h, const fl_fabric *f, const char *rule,
                const char *what) {
  fl_findings out;
  memset(&out, 0, sizeof out);
  fl_error err;
  fl_error_clear(&err);
  size_t n_run = 0;
  double t0 = now();
  if (fl_host_run(h, f, rule, &out, &n_run, &err) != FL_OK) {
    fprintf(stderr, "%s: %s\n", rule, err.message);
    exit(1);
  }
  double t1 = now();
  printf("%-34s %-44s %7.3f s, %zu finding(s)\n", rule, what, t1 - t0, out.n);
  for (size_t i = 0; i < out.n && i < 2; i++)
    if (out.v[i].severity == FL_SEV_INFO || i == 0)
      printf("    %.*s\n", 300, out.v[i].message);
  fl_findings_free(&out);
}

static void load(fl_host *h, const char *name) {
  char path[512];
  snprintf(path, sizeof path, "plugins/%s.so", name);
  fl_error err;
  fl_error_clear(&err);
  if (fl_host_load_file(h, path, &err) != FL_OK) {
    fprintf(stderr, "%s: %s (run from the build folder)\n", path, err.message);
    exit(1);
  }
}

int main(int argc, char **argv) {
  uint32_t kb = argc > 1 ? (uint32_t)atoi(argv[1]) : 64;
  uint32_t ke = argc > 2 ? (uint32_t)atoi(argv[2]) : 32;
  const char *count = argc > 3 ? argv[3] : "100";
  fl_error err;
  fl_error_clear(&err);

  double t0 = now();
  fl_fabric *f = make_vl(kb, 1, 0);
  printf("radix %u: %u switches, %u CAs, %u links, %u LFTs, max LID %u "
         "(setup %.2f s)\n",
         kb, fl_fabric_count_kind(f, FL_NODE_SWITCH),
         fl_fabric_count_kind(f, FL_NODE_CA), fl_fabric_link_count(f),
         fl_fabric_lft_count(f), fl_fabric_max_lid(f), now() - t0);
  fl_host h;
  fl_host_init(&h);
  load(&h, "ecmp-balance");
  load(&h, "adaptive-routing");
  run(&h, f, "ecmp-balance.port-imbalance", "(+ switch view)");
  run(&h, f, "ecmp-balance.port-imbalance", "(view cached)");
  run(&h, f, "adaptive-routing.coverage", "(+ view + minimal next hops)");
  run(&h, f, "adaptive-routing.summary", "(cached)");
  fl_host_free(&h);
  fl_fabric_free(f);

  t0 = now();
  f = make_vl(ke, 0, 0);
  printf("radix %u: %u switches, %u CAs, %u links, %u LFTs (setup %.2f s)\n",
         ke, fl_fabric_count_kind(f, FL_NODE_SWITCH),
         fl_fabric_count_kind(f, FL_NODE_CA), fl_fabric_link_count(f),
         fl_fabric_lft_count(f), now() - t0);
  for (int ecmp = 0; ecmp < 2; ecmp++) {
    fl_host_init(&h);
    load(&h, "ecmp-balance");
    char spec[128];
    snprintf(spec, sizeof spec, "ecmp-balance.link-load.count=%s", count);
    /* all `count` patterns (ci=0), as the figures in docs/performance.md */
    if (fl_host_set_param(&h, spec, &err) != FL_OK ||
        fl_host_set_param(&h, "ecmp-balance.link-load.ci=0", &err) != FL_OK ||
        fl_host_set_param(&h, "ecmp-balance.link-load.patterns=bisect", &err) !=
            FL_OK ||
        fl_host_set_param(&h,
                          ecmp ? "ecmp-balance.link-load.routing=ecmp"
                               : "ecmp-balance.link-load.routing=lft",
                          &err) != FL_OK) {
      fprintf(stderr, "param: %s\n", err.message);
      return 1;
    }
    run(&h, f, "ecmp-balance.link-load",
        ecmp ? "bisect, fluid ECMP (+ view + minimal)"
             : "bisect, D-mod-k LFTs (+ view)");
    fl_host_free(&h);
  }
  fl_fabric_free(f);
  return 0;
}
