/* SPDX-License-Identifier: MIT */
/*
 * core/cli/cli_compare_perf.c — `compare --workload JOB.yaml`: the job's
 * collectives modelled on each side (the flow model of `perf`, docs/perf.md)
 * and their bus bandwidth compared (issue 34 §1: "with --workload, the
 * collective bus bandwidth and its bottleneck"; docs/cli.md "compare").
 *
 * The same workload runs on BASE and HEAD, so collective k of one side is
 * collective k of the other: the delta is taken index by index. `hosts:
 * all` takes each side's own hosts (a change that adds an SU adds ranks).
 * The compared figure is the fabric's bus bandwidth (`busbw_GBps`, what the
 * fabric and its routing give the collective); NCCL's predicted busbw is
 * reported beside it, but its latency and protocol terms do not depend on
 * the design, so it is not what --fail-on busbw-drop judges.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "analysis/perf.h"
#include "cli/cli.h"
#include "cli/cli_compare.h"
#include "cli/cli_perf_out.h"

int fl_cmp_workload_load(const char *path, fl_workload *w) {
  fl_error err;
  fl_error_clear(&err);
  if (fl_workload_load(w, path, &err) != FL_OK) {
    fl_cli_print_error(&err);
    return FL_EXIT_USAGE;
  }
  if (w->place.on)
    return fl_cli_usage_error("compare --workload %s: holds `placements:`; "
                              "compare models one placement (name the "
                              "hosts in `hosts:`, or `hosts: all`)",
                              path);
  return 0;
}

/* "all-to-all \"a2a\"": the collective's label in reports. */
static void label_of(const fl_perf_result *r, char *buf, size_t size) {
  snprintf(buf, size, "%s%s%s%s", fl_wl_op_name(r->op), r->name ? " \"" : "",
           r->name ? r->name : "", r->name ? "\"" : "");
}

/* One collective's figures on one side. */
static json_t *one_json(const fl_fabric *f, const fl_perf_result *r) {
  json_t *j = json_object();
  char lab[256];
  label_of(r, lab, sizeof lab);
  fl_cli_perf_json_head(j, r);
  json_object_set_new(j, "label", json_string(lab));
  if (r->error[0]) {
    json_object_set_new(j, "error", json_string(r->error));
    json_object_set_new(j, "busbw_GBps", json_null());
    return j;
  }
  int t = r->fabric_traffic;
  const fl_perf_nccl_alg *pick = &r->nccl.alg[r->nccl.pick];
  json_object_set_new(j, "fabric_traffic", json_boolean(t));
  json_object_set_new(j, "busbw_GBps",
                      t ? fl_cli_perf_json_num(r->busbw_GBps) : json_null());
  json_object_set_new(j, "ideal_busbw_GBps",
                      t ? fl_cli_perf_json_num(r->ideal_busbw_GBps)
                        : json_null());
  json_object_set_new(j, "ratio",
                      t ? fl_cli_perf_json_num(r->ratio) : json_null());
  json_object_set_new(j, "time_s",
                      t ? fl_cli_perf_json_num(r->time_s) : json_null());
  json_object_set_new(j, "nccl_busbw_GBps",
                      t && pick->on ? fl_cli_perf_json_num(pick->busbw_GBps)
                                    : json_null());
  json_object_set_new(j, "bottleneck_links", json_integer(r->n_bottlenecks));
  json_object_set_new(j, "bottleneck",
                      r->n_bottlenecks
                          ? fl_cli_perf_json_bottleneck(f, &r->bottlenecks[0])
                          : json_null());
  return j;
}

json_t *fl_cmp_workload_json(const fl_cli_opts *o, const fl_workload *w,
                             const fl_fabric *fab, const char *input, int *rc) {
  fl_error err;
  fl_error_clear(&err);
  fl_perf_job *job = NULL;
  *rc = 0;
  if (fl_perf_job_new(fab, w, w->routing, &job, &err) != FL_OK) {
    fprintf(stderr, "fabriclint: --workload on %s:\n", input);
    fl_cli_print_error(&err);
    *rc = FL_EXIT_USAGE;
    return NULL;
  }
  fl_perf_job_set_threads(job, o->threads); /* --jobs */
  json_t *arr = json_array();
  json_t *doc =
      json_pack("{s:s,s:i,s:i,s:o}", "file", w->path, "hosts",
                (json_int_t)fl_perf_job_hosts(job), "nics_per_host",
                (json_int_t)fl_perf_job_rails(job), "collectives", arr);
  if (doc && w->train.on) { /* a training step (cli_compare_step.c) */
    json_t *st = fl_cmp_step_json(job, w, input, rc);
    if (st)
      json_object_set_new(doc, "step", st);
  }
  for (size_t i = 0; doc && *rc == 0 && i < w->n_colls; i++) {
    fl_perf_result res;
    if (fl_perf_run(job, &w->colls[i], &res, &err) != FL_OK) {
      if (!err.file[0])
        snprintf(err.file, sizeof err.file, "%s", w->path);
      fprintf(stderr, "fabriclint: --workload on %s:\n", input);
      fl_cli_print_error(&err);
      *rc = FL_EXIT_USAGE;
    } else if (json_array_append_new(arr, one_json(fab, &res))) {
      *rc = FL_EXIT_USAGE;
    }
  }
  fl_perf_job_free(job);
  if (!doc && *rc == 0)
    *rc = FL_EXIT_USAGE;
  if (*rc != 0) {
    json_decref(doc);
    return NULL;
  }
  return doc;
}

json_t *fl_cmp_workload_delta(const json_t *b, const json_t *h) {
  json_t *arr = json_array();
  const json_t *cb = json_object_get(b, "collectives"),
               *ch = json_object_get(h, "collectives");
  static const char *const K[] = {"busbw_GBps", "ideal_busbw_GBps", "ratio",
                                  "time_s", "nccl_busbw_GBps"};
  for (size_t i = 0; arr && i < json_array_size(cb); i++) {
    const json_t *x = json_array_get(cb, i), *y = json_array_get(ch, i);
    json_t *d = json_pack("{s:O}", "label", json_object_get(x, "label"));
    for (size_t k = 0; d && k < sizeof K / sizeof *K; k++)
      if (json_object_set_new(d, K[k], fl_cmp_num_delta(x, y, K[k], 1e-9))) {
        json_decref(d);
        d = NULL;
      }
    if (!d || json_array_append_new(arr, d)) {
      json_decref(arr);
      return NULL;
    }
  }
  json_t *d = arr ? json_pack("{s:o}", "collectives", arr) : NULL;
  if (d && json_object_get(b, "step") && json_object_get(h, "step"))
    json_object_set_new(d, "step",
                        fl_cmp_step_delta(json_object_get(b, "step"),
                                          json_object_get(h, "step")));
  return d;
}

int fl_cmp_judge_busbw(const json_t *m, double tol, char *why, size_t size) {
  const json_t *cb = json_object_get(
      json_object_get(json_object_get(m, "base"), "workload"), "collectives");
  const json_t *ch = json_object_get(
      json_object_get(json_object_get(m, "head"), "workload"), "collectives");
  if (json_object_get(json_object_get(json_object_get(m, "base"), "workload"),
                      "step")) {
    snprintf(why, size,
             "the workload holds a training step, no list of "
             "collectives (judge it with step-rise)");
    return 2;
  }
  if (!json_is_array(cb) || !json_is_array(ch)) {
    snprintf(why, size, "no collectives modelled (give --workload JOB.yaml)");
    return 2;
  }
  double worst = -INFINITY, wb = 0, wh = 0;
  const char *wl = NULL;
  for (size_t i = 0; i < json_array_size(cb); i++) {
    const json_t *x = json_array_get(cb, i), *y = json_array_get(ch, i);
    const json_t *vb = json_object_get(x, "busbw_GBps"),
                 *vh = json_object_get(y, "busbw_GBps");
    const char *err = json_string_value(json_object_get(x, "error"));
    if (err) { /* BASE has no figure to fall from: not a pass (outside
                  tester: "ok" with nothing routable) */
      snprintf(why, size, "%s cannot be routed in BASE: %s",
               json_string_value(json_object_get(x, "label")), err);
      return 2;
    }
    if (!json_is_number(vb) || !(json_number_value(vb) > 0))
      continue; /* nothing on the fabric in BASE: no drop to judge */
    double b = json_number_value(vb);
    /* unroutable in HEAD (an error, no figure): all of it is lost */
    double h = json_is_number(vh) ? json_number_value(vh) : 0.0;
    double drop = (b - h) / b;
    if (!wl || drop > worst) {
      worst = drop, wb = b, wh = h;
      wl = json_string_value(json_object_get(x, "label"));
    }
  }
  if (!wl) {
    snprintf(why, size, "no collective crosses the fabric in BASE");
    return 0;
  }
  int failed = worst > tol + 1e-9;
  snprintf(why, size, "%s busbw %.2f -> %.2f GB/s (%+.1f %%; %s %g %%)", wl, wb,
           wh, -100 * worst, failed ? "falls more than" : "within", 100 * tol);
  return failed;
}
