/* SPDX-License-Identifier: MIT */
/*
 * bench/picture_scale.c — time the tier picture of a large fabric stage by
 * stage (issue 15: a 65,536-host plan's tier view in under 10 s and under
 * 5 MB). Results: docs/performance.md.
 *
 *   build/fabriclint gen fat-tree --radix 64 --tiers 3 --allow-lid-overflow -o /tmp/dc.xml
 *   build/bench/picture_scale /tmp/dc.xml [RUNS] [VIEW]
 *
 * Loads and finalizes the fabric, then per run builds the scene of VIEW
 * (default tiers; no findings, as a clean plan has none) and renders it to
 * SVG with Graphviz. Prints the load, finalize, scene and render times,
 * the drawn nodes and edges and the SVG size of each run, and the best.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fabriclint/fabric.h"
#include "fabriclint/load.h"
#include "report/pic_graphviz.h"
#include "report/pic_view.h"
#include "report/picture.h"

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: picture_scale FABRIC [RUNS] [VIEW]\n");
    return 2;
  }
  int runs = argc > 2 ? atoi(argv[2]) : 3;
  uint32_t views[FL_VIEW_MAX];
  size_t nv = 0;
  char msg[256];
  if (fl_views_parse(argc > 3 ? argv[3] : "tiers", 0, views, &nv, msg,
                     sizeof msg) != 0) {
    fprintf(stderr, "picture_scale: %s\n", msg);
    return 2;
  }
  fl_error err;
  fl_error_clear(&err);
  fl_fabric *f = fl_fabric_new();
  double t0 = now();
  if (!f || fl_fabric_load(f, argv[1], FL_FMT_AUTO, NULL, &err) != FL_OK) {
    fprintf(stderr, "picture_scale: %s: %s\n", argv[1], err.message);
    return 2;
  }
  double t1 = now();
  if (fl_fabric_finalize(f, &err) != FL_OK) {
    fprintf(stderr, "picture_scale: finalize: %s\n", err.message);
    return 2;
  }
  double t2 = now();
  printf("load %.3f s, finalize %.3f s: %u nodes, %u cables\n", t1 - t0,
         t2 - t1, fl_fabric_node_count(f), fl_fabric_link_count(f));
  fl_findings fs = {0};
  fl_fabric_counts counts;
  fl_fabric_counts_of(f, &counts);
  const char *inputs[1] = {argv[1]};
  fl_report_picture pic;
  memset(&pic, 0, sizeof pic);
  pic.fab = f;
  pic.views[0] = views[0];
  pic.n_views = 1;
  fl_report_input in;
  memset(&in, 0, sizeof in);
  in.fs = &fs;
  in.counts = &counts;
  in.inputs = inputs;
  in.n_inputs = 1;
  in.picture = &pic;
  double best = 1e9;
  for (int r = 0; r < runs; r++) {
    pic_scene s;
    pic_scene_init(&s);
    double a = now();
    if (pic_build_view(&s, &in, views[0]) != 0) {
      fprintf(stderr, "picture_scale: scene: out of memory\n");
      return 2;
    }
    double b = now();
    char *svg = NULL;
    size_t len = 0;
    if (pic_render(&s, PIC_RENDER_SVG, &svg, &len, msg, sizeof msg) != 0) {
      fprintf(stderr, "picture_scale: render: %s\n", msg);
      return 2;
    }
    double c = now();
    printf("run %d: scene %.3f s (%zu nodes, %zu edges), render %.3f s, "
           "SVG %zu bytes; picture %.3f s\n",
           r + 1, b - a, s.n_nodes, s.n_edges, c - b, len, c - a);
    if (c - a < best)
      best = c - a;
    free(svg);
    pic_scene_free(&s);
  }
  printf("best picture (scene + render) %.3f s; with load and finalize "
         "%.3f s\n",
         best, best + (t2 - t0));
  fl_fabric_free(f);
  return 0;
}
