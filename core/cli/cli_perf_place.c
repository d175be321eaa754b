/* SPDX-License-Identifier: MIT */
/*
 * core/cli/cli_perf_place.c — `fabriclint perf` over many placements of
 * the job (workload `placements:`, docs/perf.md "Placements"): builds the
 * pool's job (the `from:` hosts, or every host), runs the model on every
 * placement (analysis/perf_place.c; placement i on MPI rank i mod N) and
 * reports per collective the distribution over placements, the worst
 * placement (its hosts and bottleneck links) and the placement judged
 * against min-share, with a `performance.collective-contention` finding
 * naming its index and seed when it falls below.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/perf_place.h"
#include "cli/cli.h"
#include "cli/cli_common.h"
#include "cli/cli_perf_out.h"
#include "cli/cli_perf_place.h"

/* Hosts shown in text per placement (JSON lists them all). */
#define TEXT_HOSTS 8u

typedef struct pctx {
  const fl_fabric *f;
  const fl_workload *w;
  const fl_perf_job *pool;
  const fl_perf_places *pl;
  uint32_t *scratch, *hosts; /* [pool], [hosts] */
} pctx;

/* The name of pool host @h: the `from:` entry, or the fabric's host. */
static const char *pool_name(const pctx *x, uint32_t h) {
  if (!x->w->place.from_all && h < x->w->place.n_from)
    return x->w->place.from[h];
  return fl_perf_job_host_name(x->pool, h);
}

/* x->hosts = the hosts of placement @index, in rank order. */
static void draw(pctx *x, uint64_t index) {
  fl_perf_draw(x->pl->seed, index, x->pl->pool, x->pl->hosts, x->pl->order,
               x->scratch, x->hosts);
}

/* 1 when sample @s is below min-share (routable, fabric traffic). */
static int below_share(const fl_perf_sample *s, double min_share,
                       uint32_t routing) {
  return !s->error && s->ratio < min_share * (1 - fl_perf_eps(routing));
}

static int judged_bad(const fl_perf_place_coll *pc, double min_share) {
  return pc->n_error > 0 || below_share(&pc->samples[pc->judged], min_share,
                                        pc->worst_res.routing);
}

static void coll_title(char *buf, size_t n, const fl_perf_result *r) {
  snprintf(buf, n, "%s%s%s%s", fl_wl_op_name(r->op), r->name ? " \"" : "",
           r->name ? r->name : "", r->name ? "\"" : "");
}

static void pct_label(char *buf, size_t n, double pct) {
  snprintf(buf, n, "percentile %.6g", pct);
}

/* ---- text ---------------------------------------------------------------- */

static void text_hosts(FILE *o, pctx *x, uint64_t index) {
  draw(x, index);
  uint32_t n = x->pl->hosts, k = n < TEXT_HOSTS ? n : TEXT_HOSTS;
  fprintf(o, "; hosts");
  for (uint32_t i = 0; i < k; i++)
    fprintf(o, "%s %s", i ? "," : "", pool_name(x, x->hosts[i]));
  if (n > k)
    fprintf(o, ", ... (%u more)", n - k);
  fputc('\n', o);
}

/* "  worst: placement 7 (seed 1): ..." with the hosts and bottlenecks */
static void text_placement(FILE *o, pctx *x, const char *label,
                           const fl_perf_sample *s, const fl_perf_result *r,
                           int full) {
  fprintf(o, "  %s: placement %" PRIu64 " (seed %" PRIu64 ")", label, s->index,
          x->pl->seed);
  if (s->error)
    fprintf(o, ": error: %s", full ? r->error : "flows cannot be routed");
  else
    fprintf(o, ": step %.6g s, busbw %.2f GB/s, ratio %.4f", s->step_time_s,
            s->busbw_GBps, s->ratio);
  text_hosts(o, x, s->index);
  if (full && !s->error)
    fl_cli_perf_text_bottlenecks(o, x->f, r);
}

static void text_coll(FILE *o, pctx *x, const fl_perf_place_coll *pc,
                      double min_share, double pct) {
  const fl_perf_result *r = &pc->worst_res;
  char title[300];
  coll_title(title, sizeof title, r);
  fprintf(o, "%s: %llu bytes, %u ranks (%u per host), %s routing\n", title,
          (unsigned long long)r->bytes, r->ranks ? r->ranks : 0, r->rails,
          fl_cli_perf_routing_name(r->routing));
  fl_cli_perf_text_ar(o, "  ", r->routing, &r->ar);
  char which[64];
  if (x->pl->n == 1)
    snprintf(which, sizeof which, "index %" PRIu64, x->pl->first);
  else
    snprintf(which, sizeof which, "indexes %" PRIu64 "-%" PRIu64, x->pl->first,
             x->pl->first + x->pl->n - 1);
  fprintf(o,
          "  %u placement(s) of %u hosts drawn from %u (seed %" PRIu64
          ", %s, ranks in %s order)\n",
          x->pl->n, x->pl->hosts, x->pl->pool, x->pl->seed, which,
          x->pl->order == FL_WL_ORDER_POOL ? "pool" : "drawn");
  if (pc->n_error)
    fprintf(o, "  error: the flows cannot be routed on %u of %u placement(s)\n",
            pc->n_error, pc->n);
  if (pc->ok && !r->error[0] && !r->fabric_traffic) {
    fprintf(o, "  no fabric traffic (every transfer stays inside a host)\n");
    return;
  }
  if (pc->ok) {
    fprintf(o,
            "  step time min %.6g s  median %.6g s  max %.6g s  (%u step(s), "
            "%.0f flows per step)\n",
            pc->step_time_s.min, pc->step_time_s.median, pc->step_time_s.max,
            r->steps, r->flows);
    fprintf(o,
            "  busbw min %.2f  median %.2f  max %.2f GB/s  ideal busbw %.2f "
            "GB/s\n",
            pc->busbw_GBps.min, pc->busbw_GBps.median, pc->busbw_GBps.max,
            r->ideal_busbw_GBps);
    fprintf(o, "  ratio min %.4f  median %.4f  max %.4f\n", pc->ratio.min,
            pc->ratio.median, pc->ratio.max);
  }
  text_placement(o, x, "worst", &pc->samples[pc->worst], r, 1);
  char lab[64] = "worst";
  if (pc->judged != pc->worst) {
    pct_label(lab, sizeof lab, pct);
    text_placement(o, x, lab, &pc->samples[pc->judged], &pc->judged_res,
                   pc->judged_full);
  }
  const fl_perf_sample *j = &pc->samples[pc->judged];
  if (below_share(j, min_share, pc->worst_res.routing))
    fprintf(o,
            "  warning [performance.collective-contention]: %s placement "
            "%" PRIu64 " (seed %" PRIu64 "): busbw is %.1f%% of the ideal "
            "(min-share %.0f%%)\n",
            lab, j->index, x->pl->seed, 100 * j->ratio, 100 * min_share);
}

/* ---- JSON ---------------------------------------------------------------- */

static json_t *json_u64(uint64_t v) {
  if (v <= (uint64_t)INT64_MAX)
    return json_integer((json_int_t)v);
  char b[32];
  snprintf(b, sizeof b, "%" PRIu64, v);
  return json_string(b);
}

static json_t *json_d3(const fl_perf_dist3 *d) {
  json_t *j = json_object();
  json_object_set_new(j, "min", fl_cli_perf_json_num(d->min));
  json_object_set_new(j, "median", fl_cli_perf_json_num(d->median));
  json_object_set_new(j, "max", fl_cli_perf_json_num(d->max));
  return j;
}

static json_t *json_hosts(pctx *x, uint64_t index) {
  draw(x, index);
  json_t *a = json_array();
  for (uint32_t i = 0; i < x->pl->hosts; i++)
    json_array_append_new(a, json_string(pool_name(x, x->hosts[i])));
  return a;
}

static json_t *json_bns(const fl_fabric *f, const fl_perf_result *r) {
  json_t *bn = json_array();
  for (uint32_t i = 0; i < r->n_bottlenecks; i++)
    json_array_append_new(bn,
                          fl_cli_perf_json_bottleneck(f, &r->bottlenecks[i]));
  return bn;
}

static json_t *json_placement(pctx *x, const fl_perf_sample *s,
                              const fl_perf_result *r, int full) {
  json_t *j = json_object();
  json_object_set_new(j, "index", json_u64(s->index));
  json_object_set_new(j, "hosts", json_hosts(x, s->index));
  if (s->error) {
    json_object_set_new(
        j, "error", json_string(full ? r->error : "flows cannot be routed"));
    return j;
  }
  json_object_set_new(j, "step_time_s", fl_cli_perf_json_num(s->step_time_s));
  json_object_set_new(j, "time_s", fl_cli_perf_json_num(s->time_s));
  json_object_set_new(j, "busbw_GBps", fl_cli_perf_json_num(s->busbw_GBps));
  json_object_set_new(j, "ratio", fl_cli_perf_json_num(s->ratio));
  if (full)
    json_object_set_new(j, "bottlenecks", json_bns(x->f, r));
  return j;
}

static json_t *json_coll(pctx *x, const fl_perf_place_coll *pc, double pct) {
  const fl_perf_result *r = &pc->worst_res;
  json_t *j = json_object();
  fl_cli_perf_json_head(j, r);
  json_object_set_new(j, "placements", json_integer(pc->n));
  json_object_set_new(j, "unroutable", json_integer(pc->n_error));
  if (pc->ok) {
    json_object_set_new(j, "fabric_traffic", json_boolean(r->fabric_traffic));
    json_object_set_new(j, "steps", json_integer(r->steps));
    json_object_set_new(j, "flows_per_step", fl_cli_perf_json_num(r->flows));
  }
  if (pc->ok && r->fabric_traffic) {
    json_object_set_new(j, "ideal_busbw_GBps",
                        fl_cli_perf_json_num(r->ideal_busbw_GBps));
    json_object_set_new(j, "step_time_s", json_d3(&pc->step_time_s));
    json_object_set_new(j, "busbw_GBps", json_d3(&pc->busbw_GBps));
    json_object_set_new(j, "ratio", json_d3(&pc->ratio));
  }
  json_object_set_new(j, "worst",
                      json_placement(x, &pc->samples[pc->worst], r, 1));
  json_t *jd = json_placement(x, &pc->samples[pc->judged], &pc->judged_res,
                              pc->judged_full);
  json_object_set_new(jd, "percentile", json_real(pct));
  json_object_set_new(j, "judged", jd);
  json_t *all = json_array();
  for (uint32_t i = 0; i < pc->n; i++) {
    const fl_perf_sample *s = &pc->samples[i];
    json_t *e = json_object();
    json_object_set_new(e, "index", json_u64(s->index));
    if (s->error)
      json_object_set_new(e, "error", json_true());
    else {
      json_object_set_new(e, "step_time_s",
                          fl_cli_perf_json_num(s->step_time_s));
      json_object_set_new(e, "busbw_GBps", fl_cli_perf_json_num(s->busbw_GBps));
      json_object_set_new(e, "ratio", fl_cli_perf_json_num(s->ratio));
    }
    json_array_append_new(all, e);
  }
  json_object_set_new(j, "samples", all);
  return j;
}

static json_t *json_finding(pctx *x, const fl_perf_place_coll *pc,
                            double min_share, double pct) {
  const fl_perf_sample *s = &pc->samples[pc->judged];
  const fl_perf_result *r = &pc->judged_res;
  char title[300], lab[64], msg[700];
  coll_title(title, sizeof title, &pc->worst_res);
  if (pc->judged == pc->worst)
    snprintf(lab, sizeof lab, "the worst");
  else
    pct_label(lab, sizeof lab, pct);
  snprintf(msg, sizeof msg,
           "%s reaches %.1f%% of its no-contention bus bandwidth on placement "
           "%" PRIu64 " of seed %" PRIu64
           " (%s of %u; %.2f of %.2f GB/s; min-share %.0f%%)",
           title, 100 * s->ratio, s->index, x->pl->seed, lab, pc->n,
           s->busbw_GBps, pc->worst_res.ideal_busbw_GBps, 100 * min_share);
  json_t *j = json_object();
  json_object_set_new(j, "rule",
                      json_string("performance.collective-contention"));
  json_object_set_new(j, "severity", json_string("warning"));
  json_object_set_new(j, "message", json_string(msg));
  json_t *p = json_object();
  json_object_set_new(p, "index", json_u64(s->index));
  json_object_set_new(p, "seed", json_u64(x->pl->seed));
  json_object_set_new(p, "percentile", json_real(pct));
  json_object_set_new(p, "hosts", json_hosts(x, s->index));
  json_object_set_new(j, "placement", p);
  json_object_set_new(j, "links",
                      pc->judged_full ? json_bns(x->f, r) : json_array());
  return j;
}

static void print_json(FILE *o, pctx *x, uint32_t rails) {
  const fl_workload *w = x->w;
  const fl_wl_placements *wp = &w->place;
  json_t *root = json_object(), *cs = json_array(), *fs = json_array();
  json_object_set_new(root, "workload", json_string(w->path));
  json_object_set_new(root, "hosts", json_integer(x->pl->hosts));
  json_object_set_new(root, "nics_per_host", json_integer(rails));
  json_object_set_new(root, "min_share", json_real(w->min_share));
  fl_cli_perf_json_fail(root, x->f, x->pool);
  json_t *p = json_object();
  json_object_set_new(p, "count", json_integer(x->pl->n));
  json_object_set_new(p, "first_index", json_u64(x->pl->first));
  json_object_set_new(p, "seed", json_u64(x->pl->seed));
  json_object_set_new(p, "pool_hosts", json_integer(x->pl->pool));
  json_object_set_new(p, "from", json_string(wp->from_all ? "all" : "list"));
  json_object_set_new(
      p, "order",
      json_string(x->pl->order == FL_WL_ORDER_POOL ? "pool" : "random"));
  json_object_set_new(p, "percentile", json_real(wp->percentile));
  json_object_set_new(root, "placements", p);
  for (uint32_t k = 0; k < x->pl->n_coll; k++) {
    const fl_perf_place_coll *pc = &x->pl->coll[k];
    json_array_append_new(cs, json_coll(x, pc, wp->percentile));
    if (below_share(&pc->samples[pc->judged], w->min_share,
                    pc->worst_res.routing))
      json_array_append_new(fs,
                            json_finding(x, pc, w->min_share, wp->percentile));
  }
  json_object_set_new(root, "collectives", cs);
  json_object_set_new(root, "findings", fs);
  json_dumpf(root, o, JSON_INDENT(2));
  fputc('\n', o);
  json_decref(root);
}

/* ---- command ------------------------------------------------------------- */

/* The pool's job: the `from:` hosts (their lines in errors), or all. */
static int pool_job(const fl_cli_opts *o, const fl_workload *w,
                    const fl_fabric *fab, fl_perf_job **pool) {
  fl_workload pw = *w;
  pw.hosts = w->place.from;
  pw.n_hosts = w->place.n_from;
  pw.host_line = w->place.from_line;
  pw.host_col = w->place.from_col;
  pw.all_hosts = w->place.from_all;
  fl_error err;
  fl_error_clear(&err);
  if (fl_perf_job_new(fab, &pw, w->routing, pool, &err) != FL_OK) {
    fl_cli_print_error(&err);
    return FL_EXIT_USAGE;
  }
  fl_perf_job_set_threads(*pool, o->threads); /* --jobs */
  return 0;
}

static int report(const fl_cli_opts *o, pctx *x) {
  fl_outfile out = {0};
  int rc = fl_cli_open_output(o, &out);
  x->scratch = malloc((size_t)x->pl->pool * sizeof *x->scratch);
  x->hosts = malloc((size_t)x->pl->hosts * sizeof *x->hosts);
  if (rc == 0 && (!x->scratch || !x->hosts))
    rc = fl_cli_usage_error("out of memory%s", "");
  if (rc == 0) {
    if (o->out_format == FL_OUT_JSON)
      print_json(out.f, x, fl_perf_job_rails(x->pool));
    else {
      fl_cli_perf_text_fail(out.f, x->f, x->pool);
      for (uint32_t k = 0; k < x->pl->n_coll; k++)
        text_coll(out.f, x, &x->pl->coll[k], x->w->min_share,
                  x->w->place.percentile);
    }
  }
  free(x->scratch), free(x->hosts);
  return fl_cli_close_output(&out, rc);
}

int fl_cli_perf_places(const fl_cli_opts *o, const fl_workload *w,
                       const fl_fabric *fab, const fl_dist *dist) {
  fl_perf_job *pool = NULL;
  int rc = pool_job(o, w, fab, &pool);
  if (rc != 0)
    return rc;
  int writer = !dist || dist->rank == 0;
  fl_perf_places pl;
  fl_error err;
  fl_error_clear(&err);
  if (fl_perf_places_run(pool, w, dist, writer, &pl, &err) != FL_OK) {
    if (!err.file[0])
      snprintf(err.file, sizeof err.file, "%s", w->path);
    fl_cli_print_error(&err);
    fl_perf_job_free(pool);
    return FL_EXIT_USAGE;
  }
  pctx x = {fab, w, pool, &pl, NULL, NULL};
  int bad = 0;
  for (uint32_t k = 0; k < pl.n_coll; k++)
    bad |= judged_bad(&pl.coll[k], w->min_share);
  rc = writer ? report(o, &x) : 0;
  if (rc == 0 && bad)
    rc = FL_EXIT_FINDINGS;
  fl_perf_places_free(&pl);
  fl_perf_job_free(pool);
  return rc;
}
