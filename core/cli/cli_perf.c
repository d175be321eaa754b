/* SPDX-License-Identifier: MIT */
/*
 * core/cli/cli_perf.c — `fabriclint perf --workload JOB.yaml INPUTS...`:
 * the collective-communication performance model (docs/perf.md) on the
 * loaded fabric and routing, as text or JSON, with a
 * `performance.collective-contention` finding for every collective whose
 * bus bandwidth is below min-share of the no-contention ideal.
 *
 * Its own options (--workload, --routing, --min-share) are rows of the
 * command-line table (cli_table.c), handled by perf_option() during the
 * shared parse, so they may come anywhere among the inputs.
 *
 * --dump-flows FILE also writes the flows for the ns-3 harness
 * (cli_perf_dump.c). With `placements:` in the workload the model runs
 * over many placements of the job (cli_perf_place.c), split over the
 * ranks of an MPI run (fl_cli_perf_dist, docs/mpi.md).
 *
 * --measured [OP:]LOG compares an nccl-tests log with the model on the
 * fabric instead (cli_perf_measured.c).
 *
 * Exit codes: 0 every collective at or above min-share, 1 a contention
 * finding or a collective whose flows cannot be routed, 2 usage or input
 * error.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "analysis/perf.h"
#include "cli/cli.h"
#include "cli/cli_common.h"
#include "cli/cli_perf_dump.h"
#include "cli/cli_perf_measured.h"
#include "cli/cli_perf_out.h"
#include "cli/cli_perf_place.h"
#include "cli/cli_perf_step.h"
#include "io/workload.h"

/* Most --fail options one run takes. */
#define PERF_MAX_FAIL 256

typedef struct perf_args {
  const char *workload, *routing, *min_share, *dump_flows, *job, *measured;
  int no_overlap, calibrate;
  const char *fail[PERF_MAX_FAIL];
  size_t n_fail;
} perf_args;

/* The options only perf takes (rows of cli_table.c; fl_cli_extra_fn). */
static int perf_option(void *ctx, const fl_cli_item *it, int *rc) {
  perf_args *a = ctx;
  *rc = 0;
  switch (it->opt->id) {
  case FL_OPT_WORKLOAD:
    a->workload = it->value;
    return 1;
  case FL_OPT_ROUTING:
    a->routing = it->value;
    return 1;
  case FL_OPT_MIN_SHARE:
    a->min_share = it->value;
    return 1;
  case FL_OPT_DUMP_FLOWS:
    a->dump_flows = it->value;
    return 1;
  case FL_OPT_JOB:
    a->job = it->value;
    return 1;
  case FL_OPT_NO_OVERLAP:
    a->no_overlap = 1;
    return 1;
  case FL_OPT_MEASURED:
    a->measured = it->value;
    return 1;
  case FL_OPT_CALIBRATE:
    a->calibrate = 1;
    return 1;
  case FL_OPT_FAIL:
    if (a->n_fail == PERF_MAX_FAIL) {
      *rc = fl_cli_usage_error("--fail: at most 256 switches and cables "
                               "(give the rest as a design without them)%s",
                               "");
      return 1;
    }
    a->fail[a->n_fail++] = it->value;
    return 1;
  default:
    return 0;
  }
}

/* --routing as FL_WL_ROUTE_* (-1: bad, message printed). */
static int routing_arg(const char *r) {
  int m = r ? fl_wl_routing_parse(r) : FL_WL_ROUTE_AUTO;
  if (m < 0)
    fl_cli_usage_error("--routing: expected auto, lft, ar or spray, got '%s'",
                       r);
  return m;
}

static int apply_overrides(const perf_args *a, fl_workload *w) {
  if (a->n_fail) {
    w->fail = calloc(a->n_fail, sizeof *w->fail);
    if (!w->fail)
      return fl_cli_usage_error("out of memory%s", "");
    for (size_t i = 0; i < a->n_fail; i++) {
      w->fail[i] = strdup(a->fail[i]);
      if (!w->fail[i])
        return fl_cli_usage_error("out of memory%s", "");
      w->n_fail = i + 1;
    }
  }
  if (a->routing) {
    int m = routing_arg(a->routing);
    if (m < 0)
      return FL_EXIT_USAGE;
    w->routing = (uint32_t)m;
  }
  if (a->min_share) {
    char *end;
    double d = strtod(a->min_share, &end);
    if (end == a->min_share || *end || !(d > 0.0 && d <= 1.0))
      return fl_cli_usage_error("--min-share: expected a number in (0, 1], "
                                "got '%s'",
                                a->min_share);
    w->min_share = d;
  }
  return 0;
}

static int contended(const fl_perf_result *r, double min_share) {
  return !r->error[0] && r->fabric_traffic &&
         r->ratio < min_share * (1 - fl_perf_eps(r->routing));
}

/* ---- text ---------------------------------------------------------------- */

static void text_one(FILE *o, const fl_fabric *f, const fl_perf_result *r,
                     double min_share) {
  fprintf(o, "%s%s%s%s: %llu bytes, %u ranks (%u per host), %s routing\n",
          fl_wl_op_name(r->op), r->name ? " \"" : "", r->name ? r->name : "",
          r->name ? "\"" : "", (unsigned long long)r->bytes, r->ranks, r->rails,
          fl_cli_perf_routing_name(r->routing));
  fl_cli_perf_text_ar(o, "  ", r->routing, &r->ar);
  if (r->error[0]) {
    fprintf(o, "  error: %s\n", r->error);
    return;
  }
  if (!r->fabric_traffic) {
    fprintf(o, "  no fabric traffic (every transfer stays inside a host)\n");
    return;
  }
  fprintf(o,
          "  time %.6g s (%u step(s) of %.6g s, %.0f flows per step)\n"
          "  fabric algbw %.2f GB/s  busbw %.2f GB/s  ideal busbw %.2f GB/s  "
          "ratio %.4f\n",
          r->time_s, r->steps, r->step_time_s, r->flows, r->algbw_GBps,
          r->busbw_GBps, r->ideal_busbw_GBps, r->ratio);
  fl_cli_perf_text_nccl(o, r);
  fl_cli_perf_text_bottlenecks(o, f, r);
  if (contended(r, min_share)) {
    char note[800];
    fl_cli_perf_degraded_note(f, r, note, sizeof note);
    fprintf(o,
            "  warning [performance.collective-contention]: busbw is %.1f%% "
            "of the ideal (min-share %.0f%%)%s\n",
            100 * r->ratio, 100 * min_share, note);
  }
}

/* ---- JSON ---------------------------------------------------------------- */

static json_t *json_one(const fl_fabric *f, const fl_perf_result *r) {
  json_t *j = json_object();
  fl_cli_perf_json_head(j, r);
  if (r->error[0]) {
    json_object_set_new(j, "error", json_string(r->error));
    return j;
  }
  json_object_set_new(j, "fabric_traffic", json_boolean(r->fabric_traffic));
  json_object_set_new(j, "steps", json_integer(r->steps));
  json_object_set_new(j, "flows_per_step", fl_cli_perf_json_num(r->flows));
  if (r->fabric_traffic) {
    json_object_set_new(j, "step_time_s", fl_cli_perf_json_num(r->step_time_s));
    json_object_set_new(j, "time_s", fl_cli_perf_json_num(r->time_s));
    json_object_set_new(j, "algbw_GBps", fl_cli_perf_json_num(r->algbw_GBps));
    json_object_set_new(j, "busbw_GBps", fl_cli_perf_json_num(r->busbw_GBps));
    json_object_set_new(j, "ideal_time_s",
                        fl_cli_perf_json_num(r->ideal_time_s));
    json_object_set_new(j, "ideal_busbw_GBps",
                        fl_cli_perf_json_num(r->ideal_busbw_GBps));
    json_object_set_new(j, "ratio", fl_cli_perf_json_num(r->ratio));
    json_object_set_new(j, "nccl", fl_cli_perf_json_nccl(r));
  }
  json_t *bn = json_array();
  for (uint32_t i = 0; i < r->n_bottlenecks; i++)
    json_array_append_new(bn,
                          fl_cli_perf_json_bottleneck(f, &r->bottlenecks[i]));
  json_object_set_new(j, "bottlenecks", bn);
  return j;
}

static json_t *json_finding(const fl_fabric *f, const fl_perf_result *r,
                            double min_share) {
  json_t *j = json_object();
  char msg[1400], note[800];
  fl_cli_perf_degraded_note(f, r, note, sizeof note);
  snprintf(msg, sizeof msg,
           "%s%s%s%s reaches %.1f%% of its no-contention bus bandwidth "
           "(%.2f of %.2f GB/s; min-share %.0f%%)%s",
           fl_wl_op_name(r->op), r->name ? " \"" : "", r->name ? r->name : "",
           r->name ? "\"" : "", 100 * r->ratio, r->busbw_GBps,
           r->ideal_busbw_GBps, 100 * min_share, note);
  json_object_set_new(j, "rule",
                      json_string("performance.collective-contention"));
  json_object_set_new(j, "severity", json_string("warning"));
  json_object_set_new(j, "message", json_string(msg));
  json_t *links = json_array();
  for (uint32_t i = 0; i < r->n_bottlenecks; i++)
    json_array_append_new(links,
                          fl_cli_perf_json_bottleneck(f, &r->bottlenecks[i]));
  json_object_set_new(j, "links", links);
  return j;
}

static void print_json(FILE *o, const fl_fabric *f, const fl_workload *w,
                       const fl_perf_result *res, size_t n,
                       const fl_perf_job *job) {
  json_t *root = json_object(), *cs = json_array(), *fs = json_array();
  json_object_set_new(root, "workload", json_string(w->path));
  json_object_set_new(root, "hosts", json_integer(fl_perf_job_hosts(job)));
  json_object_set_new(root, "nics_per_host",
                      json_integer(fl_perf_job_rails(job)));
  json_object_set_new(root, "min_share", json_real(w->min_share));
  fl_cli_perf_json_fail(root, f, job);
  for (size_t i = 0; i < n; i++) {
    json_array_append_new(cs, json_one(f, &res[i]));
    if (contended(&res[i], w->min_share))
      json_array_append_new(fs, json_finding(f, &res[i], w->min_share));
  }
  json_object_set_new(root, "collectives", cs);
  json_object_set_new(root, "findings", fs);
  json_dumpf(root, o, JSON_INDENT(2));
  fputc('\n', o);
  json_decref(root);
}

/* ---- command ------------------------------------------------------------- */

static int run(const fl_cli_opts *o, const fl_workload *w, fl_fabric *fab,
               const char *dump_flows) {
  fl_error err;
  fl_error_clear(&err);
  fl_perf_job *job = NULL;
  if (fl_perf_job_new(fab, w, w->routing, &job, &err) != FL_OK) {
    fl_cli_print_error(&err);
    return FL_EXIT_USAGE;
  }
  fl_perf_job_set_threads(job, o->threads); /* --jobs */
  fl_perf_result *res = calloc(w->n_colls, sizeof *res);
  int rc = res ? 0 : FL_EXIT_USAGE;
  for (size_t i = 0; rc == 0 && i < w->n_colls; i++)
    if (fl_perf_run(job, &w->colls[i], &res[i], &err) != FL_OK) {
      if (!err.file[0])
        snprintf(err.file, sizeof err.file, "%s", w->path);
      fl_cli_print_error(&err);
      rc = FL_EXIT_USAGE;
    }
  if (rc == 0 && dump_flows)
    rc = fl_cli_perf_dump(dump_flows, fab, w, job, res);
  fl_outfile out = {0};
  if (rc == 0)
    rc = fl_cli_open_output(o, &out);
  if (rc == 0) {
    if (o->out_format == FL_OUT_JSON) {
      print_json(out.f, fab, w, res, w->n_colls, job);
    } else {
      fl_cli_perf_text_fail(out.f, fab, job);
      for (size_t i = 0; i < w->n_colls; i++)
        text_one(out.f, fab, &res[i], w->min_share);
    }
    for (size_t i = 0; i < w->n_colls; i++)
      if (res[i].error[0] || contended(&res[i], w->min_share))
        rc = FL_EXIT_FINDINGS;
  }
  rc = fl_cli_close_output(&out, rc);
  free(res);
  fl_perf_job_free(job);
  return rc;
}

/* --measured LOG: the options that go with it. */
static int check_measured_args(const perf_args *a) {
  if (a->calibrate && !a->measured)
    return fl_cli_usage_error("--calibrate fits NCCL's latency and "
                              "efficiency to a log: give it with --measured "
                              "[OP:]LOG%s",
                              "");
  if (a->measured && (a->workload || a->job))
    return fl_cli_usage_error("--measured compares an nccl-tests log with "
                              "the model on its own: no --workload or "
                              "--job%s",
                              "");
  if (a->measured &&
      (a->dump_flows || a->no_overlap || a->min_share || a->n_fail))
    return fl_cli_usage_error("--dump-flows, --no-overlap, --min-share and "
                              "--fail do not apply to --measured%s",
                              "");
  return 0;
}

/* `perf --measured [OP:]LOG [--calibrate] INPUT...` */
static int run_measured(perf_args *a, fl_cli_opts *o, const fl_dist *dist) {
  int route = routing_arg(a->routing);
  if (route < 0)
    return FL_EXIT_USAGE;
  int rc = fl_cli_check_output_other(o, fl_cli_perf_measured_log(a->measured),
                                     "the nccl-tests log");
  if (rc == 0 && o->n_inputs == 0)
    rc = fl_cli_usage_error("perf needs at least one fabric INPUT%s", "");
  if (dist && dist->rank != 0)
    o->output = NULL; /* rank 0 alone writes (other ranks' stdout: null) */
  fl_fabric *fab = NULL;
  if (rc == 0)
    rc = fl_cli_load_fabric(o, &fab, NULL);
  if (rc == 0)
    rc = fl_cli_perf_measured(o, a->measured, a->calibrate, (uint32_t)route,
                              fab);
  fl_fabric_free(fab);
  return rc;
}

/* --workload (collectives) or --job (a training step), not both. */
static int check_job_args(const perf_args *a) {
  if (a->job && a->workload)
    return fl_cli_usage_error("perf takes --workload (collectives) or --job "
                              "(a training step), not both%s",
                              "");
  if (!a->job && !a->workload)
    return fl_cli_usage_error("perf needs --workload JOB.yaml, --job "
                              "JOB.yaml or --measured [OP:]LOG%s",
                              "");
  if (a->job && a->dump_flows)
    return fl_cli_usage_error("--dump-flows writes a workload's collectives; "
                              "--job models a training step%s",
                              "");
  if (a->no_overlap && !a->job)
    return fl_cli_usage_error("--no-overlap applies to --job (a training "
                              "step)%s",
                              "");
  return 0;
}

/* The file's content matches the option that named it. */
static int job_vs_workload(const perf_args *a, const fl_workload *w) {
  if (a->job && !w->train.on)
    return fl_cli_usage_error("--job %s: expected a `training:` section "
                              "(docs/perf.md, \"Training step\"); a list of "
                              "collectives is a --workload",
                              a->job);
  if (!a->job && w->train.on)
    return fl_cli_usage_error("--workload %s holds `training:`: a training "
                              "step is modelled with --job",
                              a->workload);
  return 0;
}

int fl_cli_perf(int argc, char **argv) {
  return fl_cli_perf_dist(argc, argv, NULL);
}

int fl_cli_perf_dist(int argc, char **argv, const fl_dist *dist) {
  perf_args a = {0};
  fl_cli_opts o;
  memset(&o, 0, sizeof o);
  fl_workload w;
  memset(&w, 0, sizeof w);
  fl_fabric *fab = NULL;
  int rc = fl_cli_parse_ext(argc, argv, &o, perf_option, &a);
  if (rc == 0)
    rc = check_measured_args(&a);
  if (rc == 0 && a.measured) {
    rc = run_measured(&a, &o, dist);
    fl_cli_opts_free(&o);
    return rc < 0 ? 0 : rc;
  }
  if (rc == 0)
    rc = check_job_args(&a);
  if (rc == 0 && a.job)
    a.workload = a.job; /* one reader: the job is a workload */
  if (rc == 0)
    rc = fl_cli_check_output_other(&o, a.workload, "the workload");
  if (rc == 0 && dist)
    rc = fl_cli_dist_inputs(&o, a.workload);
  if (rc == 0 && o.n_inputs == 0)
    rc = fl_cli_usage_error("perf needs at least one fabric INPUT%s", "");
  if (rc == 0) {
    fl_error err;
    fl_error_clear(&err);
    if (fl_workload_load(&w, a.workload, &err) != FL_OK) {
      fl_cli_print_error(&err);
      rc = FL_EXIT_USAGE;
    }
  }
  if (rc == 0)
    rc = job_vs_workload(&a, &w);
  if (rc == 0)
    rc = apply_overrides(&a, &w);
  if (rc == 0 && w.place.on && a.dump_flows)
    rc = fl_cli_usage_error("--dump-flows writes one placement's flows: name "
                            "its hosts in `hosts:` instead of `placements:`%s",
                            "");
  if (dist && dist->rank != 0)
    o.output = NULL; /* rank 0 alone writes (other ranks' stdout: null) */
  if (rc == 0)
    rc = fl_cli_load_fabric(&o, &fab, NULL);
  if (rc == 0 && a.job)
    rc = fl_cli_perf_step(&o, &w, fab, !a.no_overlap);
  else if (rc == 0 && w.place.on)
    rc = fl_cli_perf_places(&o, &w, fab, dist);
  else if (rc == 0)
    rc = run(&o, &w, fab, a.dump_flows);
  fl_workload_free(&w);
  fl_fabric_free(fab);
  fl_cli_opts_free(&o);
  return rc < 0 ? 0 : rc;
}
