/* SPDX-License-Identifier: MIT */
/*
 * bench/ibnd_load.c — time loading one file into the model:
 * fl_fabric_load() and fl_fabric_finalize() separately, with counts.
 *
 * Usage: ibnd_load FILE [FORMAT]   (FORMAT as fl_format_parse(), default auto)
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "fabriclint/fabric.h"
#include "fabriclint/load.h"

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: ibnd_load FILE [FORMAT]\n");
    return 2;
  }
  uint32_t fmt = argc > 2 ? fl_format_parse(argv[2]) : FL_FMT_AUTO;
  fl_fabric *fab = fl_fabric_new();
  fl_error err;
  fl_error_clear(&err);
  char buf[2048];
  double t0 = now();
  int rc = fl_fabric_load(fab, argv[1], fmt, NULL, &err);
  double t1 = now();
  if (rc == FL_OK)
    rc = fl_fabric_finalize(fab, &err);
  double t2 = now();
  if (rc != FL_OK) {
    fprintf(stderr, "%s\n", fl_error_format(&err, buf, sizeof buf));
    fl_fabric_free(fab);
    return 2;
  }
  printf("switches %u cas %u ports %u links %u\n",
         fl_fabric_count_kind(fab, FL_NODE_SWITCH),
         fl_fabric_count_kind(fab, FL_NODE_CA), fl_fabric_port_count(fab),
         fl_fabric_link_count(fab));
  printf("load %.3f s  finalize %.3f s  total %.3f s\n", t1 - t0, t2 - t1,
         t2 - t0);
  fl_fabric_free(fab);
  return 0;
}
