/* SPDX-License-Identifier: MIT */
/*
 * bench/diff_scale.c — time `fabriclint diff` stage by stage on two large
 * fabrics (issue #5: two 65,536-endpoint fabrics, design XML vs
 * ibnetdiscover, under 3 s). Results: docs/performance.md.
 *
 *   build/fabriclint gen fat-tree --radix 64 --tiers 3 --allow-lid-overflow -o /tmp/ft.xml
 *   build/fabriclint gen fat-tree --radix 64 --tiers 3 --allow-lid-overflow \
 *       --format ibnetdiscover -o /tmp/ft.ibnd
 *   build/bench/diff_scale /tmp/ft.xml /tmp/ft.ibnd [RUNS]
 *
 * Prints the load, finalize and diff times of each run and the best run.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "diff.h"
#include "fabriclint/fabric.h"
#include "fabriclint/load.h"

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static fl_fabric *load(const char *path, double *t_load, double *t_fin) {
  fl_error err;
  fl_error_clear(&err);
  fl_fabric *f = fl_fabric_new();
  double t0 = now();
  if (!f || fl_fabric_load(f, path, FL_FMT_AUTO, NULL, &err) != FL_OK) {
    fprintf(stderr, "diff_scale: %s: %s\n", path, err.message);
    exit(2);
  }
  double t1 = now();
  if (fl_fabric_finalize(f, &err) != FL_OK) {
    fprintf(stderr, "diff_scale: finalize: %s\n", err.message);
    exit(2);
  }
  *t_load = t1 - t0;
  *t_fin = now() - t1;
  return f;
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: diff_scale DESIGN AS_BUILT [RUNS]\n");
    return 2;
  }
  int runs = argc > 3 ? atoi(argv[3]) : 3;
  double best = 1e9;
  for (int r = 0; r < runs; r++) {
    double ld, fd, lb, fb;
    fl_fabric *d = load(argv[1], &ld, &fd);
    fl_fabric *b = load(argv[2], &lb, &fb);
    fl_findings fs = {0};
    fl_work_order wo = {0};
    fl_diff_stats st;
    fl_error err;
    fl_error_clear(&err);
    double t0 = now();
    if (fl_diff(d, b, NULL, &fs, &wo, &st, &err) != FL_OK) {
      fprintf(stderr, "diff_scale: %s\n", err.message);
      return 2;
    }
    fl_findings_sort(&fs);
    double td = now() - t0;
    double total = ld + fd + lb + fb + td;
    printf("run %d: design load %.3f s + finalize %.3f s; as-built load %.3f "
           "s + finalize %.3f s; diff %.3f s; total %.3f s; %zu finding(s); "
           "%u cables as planned of %u\n",
           r + 1, ld, fd, lb, fb, td, total, fs.n, st.cables_ok,
           st.cables_design);
    if (total < best)
      best = total;
    fl_findings_free(&fs);
    fl_work_order_free(&wo);
    fl_fabric_free(d);
    fl_fabric_free(b);
  }
  printf("best total %.3f s\n", best);
  return 0;
}
