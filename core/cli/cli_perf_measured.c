/* SPDX-License-Identifier: MIT */
/*
 * core/cli/cli_perf_measured.c — `fabriclint perf --measured [OP:]LOG
 * [--calibrate] INPUT...` (docs/perf.md "Measured: nccl-tests logs"):
 *
 *   1. the log (core/io/nccl_tests.c): its rows, ranks, hosts, test name
 *      and NCCL_ALGO; OP names the collective when the log does not;
 *   2. the job: the log's hosts when every one is a host of the fabric,
 *      else the fabric's first H hosts in name order (as `hosts: all`
 *      orders them), with a note; NICs per host from the fabric;
 *   3. one run of the flow model (fl_perf_run): its bus bandwidth does
 *      not depend on the size (max-min rates), so each size is
 *      fl_perf_nccl_predict() on that one figure, with the log's ranks
 *      and hosts;
 *   4. per size: measured busbw (out-of-place), predicted (the algorithm
 *      NCCL_ALGO forced, else NCCL's pick), error = predicted / measured −
 *      1 and the gap's name (gap_name());
 *   5. --calibrate: alpha and eta of that algorithm fitted to the measured
 *      times (fl_perf_fit_alpha_eta), beside NCCL's constants, and each
 *      size's residual.
 */
#include "cli/cli_perf_measured.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <jansson.h>

#include "analysis/perf.h"
#include "analysis/perf_place.h"
#include "cli/cli_perf_out.h"
#include "io/nccl_tests.h"
#include "io/workload.h"

/* |error| within this is "agrees"; a predicted time with at least this
 * share of latency is "latency" (docs/perf.md "Measured"). */
#define AGREE_WITHIN  0.10
#define LATENCY_SHARE 0.5

static const struct {
  const char *name;
  uint32_t op;
} OPS[] = {{"all-reduce", FL_WL_ALL_REDUCE},
           {"all-gather", FL_WL_ALL_GATHER},
           {"reduce-scatter", FL_WL_REDUCE_SCATTER},
           {"all-to-all", FL_WL_ALL_TO_ALL},
           {"sendrecv", FL_WL_SENDRECV}};
#define N_OPS (sizeof OPS / sizeof OPS[0])

#define OP_LIST "all-reduce, all-gather, reduce-scatter, all-to-all, sendrecv"

/* OP of "OP:LOG" (0 when @arg has no known OP prefix), *@path the rest. */
static uint32_t split_arg(const char *arg, const char **path) {
  *path = arg;
  const char *colon = strchr(arg, ':');
  if (!colon)
    return 0;
  for (size_t i = 0; i < N_OPS; i++)
    if (strlen(OPS[i].name) == (size_t)(colon - arg) &&
        memcmp(OPS[i].name, arg, (size_t)(colon - arg)) == 0) {
      *path = colon + 1;
      return OPS[i].op;
    }
  return 0;
}

const char *fl_cli_perf_measured_log(const char *arg) {
  const char *path;
  split_arg(arg, &path);
  return path;
}

/* A prefix of lower-case letters and '-' before ':' that is no OP. */
static int bad_op_prefix(const char *arg) {
  const char *colon = strchr(arg, ':'), *p = arg;
  if (!colon || colon == arg)
    return 0;
  for (; p < colon; p++)
    if (!((*p >= 'a' && *p <= 'z') || *p == '-'))
      return 0;
  return 1;
}

/* ---- the collective ------------------------------------------------------ */

/* The op to model: the log's test, else OP; a conflict or neither is a
 * usage error naming the fix. */
static int pick_op(const fl_nccl_log *log, uint32_t given, const char *arg,
                   uint32_t *op) {
  *op = given;
  if (log->test[0]) {
    uint32_t t = fl_nccl_test_op(log->test);
    if (!t)
      return fl_cli_usage_errorf(
          "--measured %s: %s (line %u) is not modelled; perf "
          "compares " OP_LIST,
          arg, log->test, log->test_line);
    if (given && given != t)
      return fl_cli_usage_errorf(
          "--measured %s: the log is %s's output (line %u), not "
          "%s: drop the OP or give the log of that test",
          arg, log->test, log->test_line, fl_wl_op_name(given));
    *op = t;
    return 0;
  }
  if (!given)
    return fl_cli_usage_errorf(
        "--measured %s: the log does not name its test (no `# "
        "Collective test` line or all_reduce_perf, ... command "
        "line): give the collective as OP:LOG, e.g. --measured "
        "all-reduce:%s (OP: " OP_LIST ")",
        arg, log->path);
  return 0;
}

/* NCCL_ALGO the log shows: FL_PERF_NCCL_RING / _TREE, or UINT32_MAX (not
 * shown, or not modelled: NCCL's pick is compared, *@note says so). */
static uint32_t forced_alg(const fl_nccl_log *log, uint32_t op, char *note,
                           size_t n) {
  note[0] = '\0';
  if (!log->algo[0])
    return UINT32_MAX;
  if (strcasecmp(log->algo, "ring") == 0)
    return op == FL_WL_ALL_TO_ALL || op == FL_WL_SENDRECV ? FL_PERF_NCCL_P2P
                                                          : FL_PERF_NCCL_RING;
  if (strcasecmp(log->algo, "tree") == 0 && op == FL_WL_ALL_REDUCE &&
      log->n_hosts >= 2)
    return FL_PERF_NCCL_TREE;
  snprintf(note, n,
           "NCCL_ALGO=%s (line %u) is not modelled for %s: NCCL's pick is "
           "compared",
           log->algo, log->algo_line, fl_wl_op_name(op));
  return UINT32_MAX;
}

/* ---- placing the log's ranks --------------------------------------------- */

typedef struct mjob {
  fl_perf_job *pool, *job;
  uint32_t *idx;
  char note[1024];
} mjob;

static void mjob_free(mjob *m) {
  fl_perf_job_free(m->job);
  fl_perf_job_free(m->pool);
  free(m->idx);
}

static void host_list(const fl_perf_job *pool, const uint32_t *idx, uint32_t n,
                      char *buf, size_t size) {
  size_t len = 0;
  buf[0] = '\0';
  for (uint32_t i = 0; i < n && len + 1 < size; i++) {
    if (i == 8) {
      snprintf(buf + len, size - len, ", ...");
      return;
    }
    int w = snprintf(buf + len, size - len, "%s%s", i ? ", " : "",
                     fl_perf_job_host_name(pool, idx[i]));
    if (w < 0)
      return;
    len += (size_t)w;
  }
}

static int place(mjob *m, const fl_nccl_log *log, fl_fabric *fab,
                 uint32_t routing) {
  fl_error err;
  fl_error_clear(&err);
  fl_workload w;
  memset(&w, 0, sizeof w);
  w.path = log->path;
  w.all_hosts = 1;
  w.routing = routing;
  w.min_share = 0.9;
  if (fl_perf_job_new(fab, &w, routing, &m->pool, &err) != FL_OK) {
    fl_cli_print_error(&err);
    return FL_EXIT_USAGE;
  }
  uint32_t pool = fl_perf_job_hosts(m->pool), h = (uint32_t)log->n_hosts;
  if (h > pool)
    return fl_cli_usage_errorf(
        "--measured %s: the log's ranks are on %u hosts, the fabric "
        "has %u host(s) with a NIC cabled to a switch",
        log->path, h, pool);
  m->idx = calloc(h, sizeof *m->idx);
  if (!m->idx)
    return fl_cli_usage_errorf("%s", "out of memory");
  uint32_t found = 0;
  for (uint32_t i = 0; i < h; i++) {
    m->idx[i] = UINT32_MAX;
    for (uint32_t j = 0; j < pool; j++)
      if (strcmp(fl_perf_job_host_name(m->pool, j), log->hosts[i]) == 0) {
        m->idx[i] = j;
        found++;
        break;
      }
  }
  if (found < h) {
    for (uint32_t i = 0; i < h; i++)
      m->idx[i] = i;
    char hl[600], ll[600];
    host_list(m->pool, m->idx, h, hl, sizeof hl);
    size_t len = 0;
    ll[0] = '\0';
    for (uint32_t i = 0; i < h && i < 8; i++)
      len += (size_t)snprintf(ll + len, sizeof ll - len, "%s%.60s",
                              i ? ", " : "", log->hosts[i]);
    if (h > 8)
      snprintf(ll + len, sizeof ll - len, ", ...");
    snprintf(m->note, sizeof m->note,
             "%u of the log's %u hosts (%s) are not hosts of the fabric: "
             "modelled on its first %u hosts in name order (%s)",
             h - found, h, ll, h, hl);
  }
  if (fl_perf_job_place(m->pool, m->idx, h, &m->job, &err) != FL_OK) {
    fl_cli_print_error(&err);
    return FL_EXIT_USAGE;
  }
  return 0;
}

/* ---- per size ------------------------------------------------------------ */

typedef struct msize {
  const fl_nccl_row *row;
  uint32_t alg;
  double meas_busbw, meas_time_s, pred_busbw, pred_time_s, latency_share;
  double ideal_busbw, error;
  const char *gap;
  double fit_time_s, residual;
} msize;

/* The gap's name (docs/perf.md "Measured"): agrees within 10 %; latency
 * when the predicted time is mostly alpha; fabric when the flow model
 * finds contention (ratio < 1) and the measurement is below what the
 * fabric without it would give; else host. */
static const char *gap_name(const msize *z, double ratio) {
  if (fabs(z->error) <= AGREE_WITHIN)
    return "agrees";
  if (z->latency_share >= LATENCY_SHARE)
    return "latency";
  if (ratio < 1 - 1e-9 && z->meas_busbw < (1 - AGREE_WITHIN) * z->ideal_busbw)
    return "fabric";
  return "host";
}

static void predict(msize *z, uint32_t op, uint32_t ranks, uint32_t hosts,
                    uint32_t forced, const fl_perf_result *res) {
  fl_perf_nccl pr, pi;
  const fl_nccl_row *r = z->row;
  fl_perf_nccl_predict(op, r->bytes, ranks, hosts, res->busbw_GBps, &pr);
  fl_perf_nccl_predict(op, r->bytes, ranks, hosts, res->ideal_busbw_GBps, &pi);
  z->alg = forced != UINT32_MAX && pr.alg[forced].on ? forced : pr.pick;
  const fl_perf_nccl_alg *a = &pr.alg[z->alg];
  /* nccl-tests' busbw from the time, not its 2-decimal print (0.00 GB/s
   * at small sizes): bytes / time × the op's busbw factor, its formula */
  z->meas_time_s = r->time_us[0] * 1e-6;
  z->meas_busbw = (double)r->bytes / z->meas_time_s / 1e9 *
                  fl_perf_nccl_factor(op, FL_PERF_NCCL_RING, ranks, hosts);
  z->pred_busbw = a->busbw_GBps;
  z->pred_time_s = a->time_s;
  z->latency_share = a->time_s > 0 ? a->latency_s / a->time_s : 0;
  z->ideal_busbw = pi.alg[z->alg].busbw_GBps;
  z->error = z->meas_busbw > 0 ? z->pred_busbw / z->meas_busbw - 1 : INFINITY;
  z->gap = gap_name(z, res->ratio);
}

/* ---- calibration --------------------------------------------------------- */

typedef struct mfit {
  int on;
  uint32_t alg;
  double alpha_s, eta, nccl_alpha_s, nccl_eta;
} mfit;

static int calibrate(mfit *f, msize *z, size_t n, uint32_t op, uint32_t ranks,
                     uint32_t hosts, uint32_t forced, const fl_perf_result *res,
                     const char *arg) {
  f->on = 1;
  f->alg = forced != UINT32_MAX ? forced : z[n - 1].alg;
  double g = fl_perf_nccl_factor(op, f->alg, ranks, hosts);
  double *x = calloc(n ? n : 1, sizeof *x), *t = calloc(n ? n : 1, sizeof *t);
  if (!x || !t) {
    free(x);
    free(t);
    return fl_cli_usage_errorf("%s", "out of memory");
  }
  for (size_t i = 0; i < n; i++) {
    x[i] = (double)z[i].row->bytes * g / (res->busbw_GBps * 1e9);
    t[i] = z[i].meas_time_s;
  }
  fl_error err;
  fl_error_clear(&err);
  int rc = fl_perf_fit_alpha_eta(x, t, n, &f->alpha_s, &f->eta, &err);
  if (rc == FL_OK)
    for (size_t i = 0; i < n; i++) {
      z[i].fit_time_s = f->alpha_s + x[i] / f->eta;
      z[i].residual = z[i].fit_time_s / t[i] - 1;
    }
  free(x);
  free(t);
  if (rc != FL_OK)
    return fl_cli_usage_errorf("--measured %s --calibrate: %s", arg,
                               err.message);
  fl_perf_nccl pr;
  fl_perf_nccl_predict(op, z[n - 1].row->bytes, ranks, hosts, res->busbw_GBps,
                       &pr);
  f->nccl_alpha_s = pr.alg[f->alg].latency_s;
  f->nccl_eta = pr.alg[f->alg].efficiency;
  return 0;
}

/* ---- output -------------------------------------------------------------- */

typedef struct mrep {
  const fl_nccl_log *log;
  const char *arg;
  uint32_t op, forced, rails, skipped;
  const mjob *m;
  const fl_perf_result *res;
  msize *z;
  size_t n;
  mfit fit;
  char algo_note[400], rails_note[200];
} mrep;

/* A bandwidth as nccl-tests prints it (2 decimals), with 3 significant
 * digits below 1 GB/s, where 2 decimals print 0.00. */
static const char *bw_text(double v, char *buf, size_t n) {
  snprintf(buf, n, v >= 1 ? "%.2f" : "%.3g", v);
  return buf;
}

static void text(FILE *o, const fl_fabric *fab, const mrep *p) {
  const fl_nccl_log *log = p->log;
  const fl_perf_result *res = p->res;
  fprintf(o, "measured: %s (%s, %u ranks on %zu hosts", log->path,
          log->test[0] ? log->test : fl_wl_op_name(p->op), log->ranks,
          log->n_hosts);
  if (log->algo[0])
    fprintf(o, ", NCCL_ALGO=%s", log->algo);
  fprintf(o, ")\n");
  if (p->m->note[0])
    fprintf(o, "  note: %s\n", p->m->note);
  if (p->rails_note[0])
    fprintf(o, "  note: %s\n", p->rails_note);
  if (p->algo_note[0])
    fprintf(o, "  note: %s\n", p->algo_note);
  if (p->skipped)
    fprintf(o,
            "  note: %u row(s) without an out-of-place measurement "
            "(0 bytes, or its time N/A) left out\n",
            p->skipped);
  fprintf(o,
          "fabric: %s over %u hosts x %u NICs, %s routing: busbw %.2f GB/s, "
          "ideal %.2f GB/s, ratio %.4f\n",
          fl_wl_op_name(p->op), res->hosts, p->rails,
          fl_cli_perf_routing_name(res->routing), res->busbw_GBps,
          res->ideal_busbw_GBps, res->ratio);
  fl_cli_perf_text_bottlenecks(o, fab, res);
  if (p->forced != UINT32_MAX)
    fprintf(o, "predicted: %s (NCCL_ALGO=%s)\n",
            fl_perf_nccl_alg_name(p->forced), log->algo);
  else
    fprintf(o, "predicted: NCCL's pick per size\n");
  fprintf(o, "%14s %10s %10s %5s %8s  %s\n", "size (B)", "measured",
          "predicted", "alg", "error", "gap");
  for (size_t i = 0; i < p->n; i++) {
    const msize *z = &p->z[i];
    char mb[32], pb[32];
    fprintf(o, "%14llu %10s %10s %5s %+7.1f%%  %s\n",
            (unsigned long long)z->row->bytes,
            bw_text(z->meas_busbw, mb, sizeof mb),
            bw_text(z->pred_busbw, pb, sizeof pb),
            fl_perf_nccl_alg_name(z->alg), 100 * z->error, z->gap);
  }
  fprintf(o, "(busbw in GB/s; error = predicted / measured - 1)\n");
  if (!p->fit.on)
    return;
  const mfit *f = &p->fit;
  fprintf(o,
          "calibration (%s, %zu sizes, weights 1/t^2): alpha %.2f us "
          "(NCCL's %.2f us), eta %.4f (NCCL's %.2f)\n",
          fl_perf_nccl_alg_name(f->alg), p->n, f->alpha_s * 1e6,
          f->nccl_alpha_s * 1e6, f->eta, f->nccl_eta);
  fprintf(o, "%14s %14s %14s %9s\n", "size (B)", "measured (us)", "fitted (us)",
          "residual");
  for (size_t i = 0; i < p->n; i++) {
    const msize *z = &p->z[i];
    fprintf(o, "%14llu %14.1f %14.1f %+8.1f%%\n",
            (unsigned long long)z->row->bytes, z->meas_time_s * 1e6,
            z->fit_time_s * 1e6, 100 * z->residual);
  }
}

static json_t *jnum(double x) {
  return fl_cli_perf_json_num(x);
}

static void json(FILE *o, const fl_fabric *fab, const mrep *p) {
  const fl_nccl_log *log = p->log;
  const fl_perf_result *res = p->res;
  json_t *root = json_object(), *hosts = json_array(), *per = json_array(),
         *mh = json_array(), *notes = json_array(), *sizes = json_array();
  json_object_set_new(root, "log", json_string(log->path));
  json_object_set_new(root, "test",
                      log->test[0] ? json_string(log->test) : json_null());
  json_object_set_new(root, "op", json_string(fl_wl_op_name(p->op)));
  json_object_set_new(root, "ranks", json_integer(log->ranks));
  for (size_t h = 0; h < log->n_hosts; h++) {
    json_array_append_new(hosts, json_string(log->hosts[h]));
    json_array_append_new(per, json_integer(log->host_ranks[h]));
    json_array_append_new(
        mh, json_string(fl_perf_job_host_name(p->m->pool, p->m->idx[h])));
  }
  json_object_set_new(root, "hosts", hosts);
  json_object_set_new(root, "ranks_per_host", per);
  json_object_set_new(root, "nccl_algo",
                      log->algo[0] ? json_string(log->algo) : json_null());
  json_object_set_new(root, "modelled_hosts", mh);
  json_object_set_new(root, "nics_per_host", json_integer(p->rails));
  const char *nt[3] = {p->m->note, p->rails_note, p->algo_note};
  for (int i = 0; i < 3; i++)
    if (nt[i][0])
      json_array_append_new(notes, json_string(nt[i]));
  json_object_set_new(root, "notes", notes);
  json_object_set_new(root, "skipped_rows", json_integer(p->skipped));
  json_t *fj = json_object(), *bn = json_array();
  json_object_set_new(fj, "routing",
                      json_string(fl_cli_perf_routing_name(res->routing)));
  json_object_set_new(fj, "busbw_GBps", jnum(res->busbw_GBps));
  json_object_set_new(fj, "ideal_busbw_GBps", jnum(res->ideal_busbw_GBps));
  json_object_set_new(fj, "ratio", jnum(res->ratio));
  for (uint32_t i = 0; i < res->n_bottlenecks; i++)
    json_array_append_new(
        bn, fl_cli_perf_json_bottleneck(fab, &res->bottlenecks[i]));
  json_object_set_new(fj, "bottlenecks", bn);
  json_object_set_new(root, "fabric", fj);
  json_object_set_new(root, "algorithm",
                      p->forced != UINT32_MAX
                          ? json_string(fl_perf_nccl_alg_name(p->forced))
                          : json_null());
  for (size_t i = 0; i < p->n; i++) {
    const msize *z = &p->z[i];
    json_t *s = json_object();
    json_object_set_new(s, "bytes", json_integer((json_int_t)z->row->bytes));
    json_object_set_new(s, "line", json_integer(z->row->line));
    json_object_set_new(s, "measured_busbw_GBps", jnum(z->meas_busbw));
    json_object_set_new(s, "measured_time_us", jnum(z->meas_time_s * 1e6));
    json_object_set_new(s, "algorithm",
                        json_string(fl_perf_nccl_alg_name(z->alg)));
    json_object_set_new(s, "predicted_busbw_GBps", jnum(z->pred_busbw));
    json_object_set_new(s, "predicted_time_us", jnum(z->pred_time_s * 1e6));
    json_object_set_new(s, "latency_share", jnum(z->latency_share));
    json_object_set_new(s, "error", jnum(z->error));
    json_object_set_new(s, "gap", json_string(z->gap));
    json_array_append_new(sizes, s);
  }
  json_object_set_new(root, "sizes", sizes);
  if (p->fit.on) {
    const mfit *f = &p->fit;
    json_t *c = json_object(), *cs = json_array();
    json_object_set_new(c, "algorithm",
                        json_string(fl_perf_nccl_alg_name(f->alg)));
    json_object_set_new(c, "alpha_us", jnum(f->alpha_s * 1e6));
    json_object_set_new(c, "eta", jnum(f->eta));
    json_object_set_new(c, "nccl_alpha_us", jnum(f->nccl_alpha_s * 1e6));
    json_object_set_new(c, "nccl_eta", jnum(f->nccl_eta));
    for (size_t i = 0; i < p->n; i++) {
      json_t *s = json_object();
      json_object_set_new(s, "bytes",
                          json_integer((json_int_t)p->z[i].row->bytes));
      json_object_set_new(s, "measured_time_us",
                          jnum(p->z[i].meas_time_s * 1e6));
      json_object_set_new(s, "fitted_time_us", jnum(p->z[i].fit_time_s * 1e6));
      json_object_set_new(s, "residual", jnum(p->z[i].residual));
      json_array_append_new(cs, s);
    }
    json_object_set_new(c, "sizes", cs);
    json_object_set_new(root, "calibration", c);
  }
  json_dumpf(root, o, JSON_INDENT(2));
  fputc('\n', o);
  json_decref(root);
}

/* ---- command ------------------------------------------------------------- */

static int compare(const fl_cli_opts *o, const fl_nccl_log *log,
                   const char *arg, uint32_t op, int calibrate_on,
                   const mjob *m, fl_fabric *fab) {
  fl_error err;
  fl_error_clear(&err);
  fl_wl_coll c;
  memset(&c, 0, sizeof c);
  c.op = op;
  c.bytes = (uint64_t)1 << 30; /* any: the rates do not depend on it */
  c.shift = 1;                 /* sendrecv_perf: rank i -> i + 1 */
  fl_perf_result *res = calloc(1, sizeof *res);
  msize *z = calloc(log->n_rows, sizeof *z);
  if (!res || !z) {
    free(res);
    free(z);
    return fl_cli_usage_errorf("%s", "out of memory");
  }
  int rc = 0;
  if (fl_perf_run(m->job, &c, res, &err) != FL_OK) {
    if (!err.file[0])
      snprintf(err.file, sizeof err.file, "%s", log->path);
    fl_cli_print_error(&err);
    rc = FL_EXIT_USAGE;
  } else if (res->error[0]) {
    fprintf(stderr,
            "fabriclint: --measured %s: the job's flows cannot be "
            "routed: %s\n",
            arg, res->error);
    rc = FL_EXIT_FINDINGS;
  } else if (!res->fabric_traffic || !(res->busbw_GBps > 0))
    rc = fl_cli_usage_errorf(
        "--measured %s: every rank is on one host: no fabric traffic "
        "to compare",
        arg);
  mrep p;
  memset(&p, 0, sizeof p);
  p.log = log;
  p.arg = arg;
  p.op = op;
  p.m = m;
  p.res = res;
  p.z = z;
  p.rails = fl_perf_job_rails(m->job);
  p.forced = forced_alg(log, op, p.algo_note, sizeof p.algo_note);
  uint32_t hosts = (uint32_t)log->n_hosts;
  for (size_t i = 0; rc == 0 && i < log->n_rows; i++) {
    const fl_nccl_row *r = &log->rows[i];
    if (r->bytes == 0 || !(r->time_us[0] > 0)) {
      p.skipped++;
      continue;
    }
    z[p.n].row = r;
    predict(&z[p.n], op, log->ranks, hosts, p.forced, res);
    p.n++;
  }
  if (rc == 0 && p.n == 0)
    rc = fl_cli_usage_errorf(
        "--measured %s: no row with an out-of-place measurement "
        "(every one is 0 bytes, or its time N/A)",
        arg);
  if (rc == 0 && log->ranks != hosts * p.rails)
    snprintf(p.rails_note, sizeof p.rails_note,
             "the log has %u ranks on %u hosts, the fabric %u NICs per "
             "host: the fabric's bandwidth is modelled with one flow per "
             "NIC, NCCL's latency with the log's ranks",
             log->ranks, hosts, p.rails);
  if (rc == 0 && calibrate_on)
    rc = calibrate(&p.fit, z, p.n, op, log->ranks, hosts, p.forced, res, arg);
  fl_outfile out = {0};
  if (rc == 0)
    rc = fl_cli_open_output(o, &out);
  if (rc == 0) {
    if (o->out_format == FL_OUT_JSON)
      json(out.f, fab, &p);
    else
      text(out.f, fab, &p);
    rc = fl_cli_close_output(&out, rc);
  }
  free(z);
  free(res);
  return rc;
}

int fl_cli_perf_measured(const fl_cli_opts *o, const char *arg,
                         int calibrate_on, uint32_t routing, fl_fabric *fab) {
  const char *path;
  uint32_t given = split_arg(arg, &path);
  if (!given && bad_op_prefix(arg)) {
    FILE *f = fopen(arg, "r");
    if (!f)
      return fl_cli_usage_errorf(
          "--measured %s: unknown OP before ':' (expected " OP_LIST ")", arg);
    fclose(f);
  }
  fl_nccl_log log;
  fl_error err;
  fl_error_clear(&err);
  if (fl_nccl_log_load(&log, path, &err) != FL_OK) {
    fl_cli_print_error(&err);
    fl_nccl_log_free(&log);
    return FL_EXIT_USAGE;
  }
  uint32_t op = 0;
  int rc = pick_op(&log, given, arg, &op);
  if (rc == 0 && log.ranks == 0)
    rc = fl_cli_usage_errorf(
        "--measured %s: the log lists no `#  Rank N ... on HOST` "
        "lines: its ranks and hosts are unknown (keep nccl-tests' "
        "header with the rows)",
        arg);
  mjob m;
  memset(&m, 0, sizeof m);
  if (rc == 0)
    rc = place(&m, &log, fab, routing);
  if (rc == 0)
    rc = compare(o, &log, arg, op, calibrate_on, &m, fab);
  mjob_free(&m);
  fl_nccl_log_free(&log);
  return rc;
}
