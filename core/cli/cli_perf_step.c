/* SPDX-License-Identifier: MIT */
/*
 * core/cli/cli_perf_step.c — `fabriclint perf --job JOB.yaml INPUTS...`:
 * the training-step model (core/analysis/perf_step.c, docs/perf.md
 * "Training step") as text or JSON. Per phase: its communicators, the
 * collectives a GPU runs per step and their sizes, bytes, time (with the
 * other fabric phases at once, alone, ideal), exposed time, nccl-tests'
 * busbw in GB/s and the bottleneck links; then the step time.
 *
 * A `performance.collective-contention` warning for a fabric phase whose
 * time alone is above its ideal by more than 1 / min-share (the fabric or
 * its routing, not the other phases, slows it), naming its links.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "analysis/perf.h"
#include "analysis/perf_step.h"
#include "cli/cli_perf_ckpt.h"
#include "cli/cli_perf_out.h"
#include "cli/cli_perf_step.h"

#define TEXT_LINKS 4u /* bottleneck lines per phase in the text report */

static int contended(const fl_step_result *r, const fl_step_phase *ph,
                     double min_share) {
  return ph->on && ph->fabric && ph->alone_s > 0 &&
         ph->ideal_s / ph->alone_s < min_share * (1 - fl_perf_eps(r->routing));
}

static void ops_text(FILE *o, const fl_step_phase *ph) {
  for (uint32_t i = 0; i < ph->n_ops; i++)
    fprintf(o, "%s%.6g x %s of %.0f bytes (%.6g s each)", i ? ", " : "",
            ph->ops[i].count, fl_wl_op_name(ph->ops[i].op), ph->ops[i].bytes,
            ph->ops[i].time_s);
}

/* "; the cable A port 1 -> B port 2 runs at 100 Gb/s, below its nominal
 * 200 Gb/s" for the first degraded link the phase alone is held back by,
 * else "; bottleneck A port 1 -> B port 2" for the first, else "". */
static void degraded_note(const fl_fabric *f, const fl_step_phase *ph,
                          char *buf, size_t n) {
  buf[0] = '\0';
  char lt[600];
  for (uint32_t i = 0; i < ph->n_alone; i++) {
    const fl_perf_bottleneck *b = &ph->alone[i];
    if (b->nominal_gbps > b->gbps) {
      fl_cli_perf_link_text(f, b, lt, sizeof lt);
      snprintf(buf, n,
               "; the cable %s runs at %.6g Gb/s, below its nominal %.6g Gb/s",
               lt, b->gbps, b->nominal_gbps);
      return;
    }
  }
  if (ph->n_alone) {
    fl_cli_perf_link_text(f, &ph->alone[0], lt, sizeof lt);
    snprintf(buf, n, "; bottleneck %s", lt);
  }
}

/* Bottleneck lines of @b[@n] under @title: the first TEXT_LINKS. */
static void text_links(FILE *o, const fl_fabric *f, const char *title,
                       const fl_perf_bottleneck *bv, uint32_t n) {
  uint32_t shown = n < TEXT_LINKS ? n : TEXT_LINKS;
  for (uint32_t i = 0; i < shown; i++) {
    const fl_perf_bottleneck *b = &bv[i];
    char lt[600];
    fl_cli_perf_link_text(f, b, lt, sizeof lt);
    fprintf(o,
            "    %s %s: %.4g of the phase's flows, %.6g Gb/s (%.3f Gb/s each)",
            title, lt, b->flows, b->gbps, b->share_gbps);
    if (b->nominal_gbps > b->gbps)
      fprintf(o, "; the cable runs below its nominal %.6g Gb/s",
              b->nominal_gbps);
    fputc('\n', o);
  }
  if (n > shown)
    fprintf(o, "    ... %s%u more (--format json lists %u)\n",
            n == FL_PERF_MAX_BOTTLENECKS ? "at least " : "", n - shown, n);
}

static void finding_msg(const fl_fabric *f, const fl_step_phase *ph,
                        const char *name, double min_share, char *buf,
                        size_t n) {
  char note[800];
  degraded_note(f, ph, note, sizeof note);
  snprintf(buf, n,
           "%s phase alone takes %.6g s, %.1f%% of its no-contention speed "
           "(ideal %.6g s; min-share %.0f%%)%s",
           name, ph->alone_s, 100 * ph->ideal_s / ph->alone_s, ph->ideal_s,
           100 * min_share, note);
}

static void text_phase(FILE *o, const fl_fabric *f, const fl_step_result *r,
                       uint32_t p, double min_share) {
  const fl_step_phase *ph = &r->ph[p];
  const char *name = fl_step_phase_name(p);
  fprintf(o, "  %s: %u ranks x %u communicators", name, ph->ranks, ph->groups);
  if (ph->fabric)
    fprintf(o, ", each over %u hosts (fabric)\n", ph->hosts);
  else
    fprintf(o, ", each inside one server (scale-up %.6g GB/s)\n",
            ph->busbw_GBps);
  fputs("    per GPU per step: ", o);
  ops_text(o, ph);
  fprintf(o, "\n    bytes %.0f per GPU (on the wire %.0f)\n", ph->bytes,
          ph->wire_bytes);
  if (ph->fabric)
    fprintf(o,
            "    time %.6g s with the other fabric phases (alone %.6g s, "
            "ideal %.6g s); busbw %.2f GB/s, slowest flow %.3f Gb/s\n",
            ph->time_s, ph->alone_s, ph->ideal_s, ph->busbw_GBps,
            ph->rate_gbps);
  else
    fprintf(o, "    time %.6g s; busbw %.2f GB/s\n", ph->time_s,
            ph->busbw_GBps);
  fprintf(o, "    exposed %.6g s\n", ph->exposed_s);
  text_links(o, f, "bottleneck", ph->bottlenecks, ph->n_bottlenecks);
  text_links(o, f, "alone, bottleneck", ph->alone, ph->n_alone);
  if (contended(r, ph, min_share)) {
    char msg[1400];
    finding_msg(f, ph, name, min_share, msg, sizeof msg);
    fprintf(o, "    warning [performance.collective-contention]: %s\n", msg);
  }
}

static void print_text(FILE *o, const fl_fabric *f, const fl_workload *w,
                       const fl_step_result *r, const fl_perf_job *job) {
  fl_cli_perf_text_fail(o, f, job);
  const fl_wl_training *t = &w->train;
  fprintf(o,
          "training step: %u GPUs (tp %u x cp %u x pp %u x dp %u, ep %u) on "
          "%u of %u hosts, %u GPUs per server (%s), %u NICs per host, %s "
          "routing\n",
          r->gpus, t->tp, t->cp, t->pp, t->dp, t->ep, r->hosts_used, r->hosts,
          r->per_server, r->per_server_from, r->rails,
          fl_cli_perf_routing_name(r->routing));
  fl_cli_perf_text_ar(o, "  ", r->routing, &r->ar);
  if (r->error[0]) {
    fprintf(o, "  error: %s\n", r->error);
    return;
  }
  fprintf(o,
          "  model: %.6g parameters, %.0f layers, hidden %.0f, sequence "
          "%.0f, global batch %.0f, micro-batch %.0f (%.6g micro-batches "
          "per step), %.0f-byte precision, ZeRO %u\n",
          t->params, t->layers, t->hidden, t->seq_len, t->global_batch,
          t->micro_batch, r->micro_batches, t->precision_bytes, t->zero);
  fprintf(o,
          "  compute: 6 x params x %.6g tokens = %.6g FLOP, %.6g s at %.6g "
          "TFLOP/s x MFU %.3g per GPU (backward %.6g s)\n",
          r->tokens, r->flops, r->compute_s, t->peak_tflops, t->mfu,
          r->backward_s);
  for (uint32_t p = 0; p < FL_STEP_PHASES; p++)
    if (r->ph[p].on)
      text_phase(o, f, r, p, w->min_share);
  fprintf(o,
          "  step time %.6g s = compute %.6g s + exposed communication "
          "%.6g s",
          r->step_s, r->compute_s, r->comm_s);
  if (r->ph[FL_STEP_DP].on && r->overlap)
    fprintf(o,
            " (dp hidden behind %.6g s of compute but for its last of "
            "%.0f bucket(s))\n",
            r->dp_window_s, r->dp_buckets);
  else
    fprintf(o, "%s\n", r->ph[FL_STEP_DP].on ? " (no overlap)" : "");
  fprintf(o,
          "  step time %.6g s with each fabric phase alone (exposed "
          "communication %.6g s)\n",
          r->step_alone_s, r->comm_alone_s);
  fl_cli_perf_text_ckpt(o, f, r);
}

static json_t *json_phase(const fl_fabric *f, const fl_step_result *r,
                          uint32_t p) {
  const fl_step_phase *ph = &r->ph[p];
  json_t *j = json_object(), *ops = json_array(), *bn = json_array();
  json_object_set_new(j, "phase", json_string(fl_step_phase_name(p)));
  json_object_set_new(j, "scope",
                      json_string(ph->fabric ? "fabric" : "scale-up"));
  json_object_set_new(j, "ranks", json_integer(ph->ranks));
  json_object_set_new(j, "communicators", json_integer(ph->groups));
  json_object_set_new(j, "hosts", json_integer(ph->fabric ? ph->hosts : 1));
  for (uint32_t i = 0; i < ph->n_ops; i++) {
    json_t *x = json_object();
    json_object_set_new(x, "op", json_string(fl_wl_op_name(ph->ops[i].op)));
    json_object_set_new(x, "bytes", json_real(ph->ops[i].bytes));
    json_object_set_new(x, "count", json_real(ph->ops[i].count));
    json_object_set_new(x, "time_s", fl_cli_perf_json_num(ph->ops[i].time_s));
    json_array_append_new(ops, x);
  }
  json_object_set_new(j, "collectives", ops);
  json_object_set_new(j, "bytes_per_gpu", json_real(ph->bytes));
  json_object_set_new(j, "wire_bytes_per_gpu", json_real(ph->wire_bytes));
  json_object_set_new(j, "time_s", fl_cli_perf_json_num(ph->time_s));
  json_object_set_new(j, "alone_s", fl_cli_perf_json_num(ph->alone_s));
  json_object_set_new(j, "ideal_s", fl_cli_perf_json_num(ph->ideal_s));
  json_object_set_new(j, "exposed_s", fl_cli_perf_json_num(ph->exposed_s));
  json_object_set_new(j, "busbw_GBps", fl_cli_perf_json_num(ph->busbw_GBps));
  json_object_set_new(j, "rate_gbps", fl_cli_perf_json_num(ph->rate_gbps));
  for (uint32_t i = 0; i < ph->n_bottlenecks; i++)
    json_array_append_new(bn,
                          fl_cli_perf_json_bottleneck(f, &ph->bottlenecks[i]));
  json_object_set_new(j, "bottlenecks", bn);
  json_t *al = json_array();
  for (uint32_t i = 0; i < ph->n_alone; i++)
    json_array_append_new(al, fl_cli_perf_json_bottleneck(f, &ph->alone[i]));
  json_object_set_new(j, "alone_bottlenecks", al);
  return j;
}

static json_t *json_step(const fl_workload *w, const fl_step_result *r) {
  const fl_wl_training *t = &w->train;
  json_t *j = json_object();
  json_object_set_new(j, "gpus", json_integer(r->gpus));
  json_object_set_new(j, "hosts", json_integer(r->hosts));
  json_object_set_new(j, "hosts_used", json_integer(r->hosts_used));
  json_object_set_new(j, "gpus_per_server", json_integer(r->per_server));
  json_object_set_new(j, "gpus_per_server_from",
                      json_string(r->per_server_from));
  json_object_set_new(j, "nics_per_host", json_integer(r->rails));
  const struct {
    const char *k;
    uint32_t v;
  } par[] = {{"tp", t->tp}, {"cp", t->cp}, {"pp", t->pp},
             {"dp", t->dp}, {"ep", t->ep}, {"zero", t->zero}};
  for (size_t i = 0; i < sizeof par / sizeof *par; i++)
    json_object_set_new(j, par[i].k, json_integer(par[i].v));
  json_object_set_new(j, "micro_batches", json_real(r->micro_batches));
  json_object_set_new(j, "tokens", json_real(r->tokens));
  json_object_set_new(j, "flops", json_real(r->flops));
  json_object_set_new(j, "compute_s", json_real(r->compute_s));
  json_object_set_new(j, "backward_s", json_real(r->backward_s));
  json_object_set_new(j, "overlap", json_boolean(r->overlap));
  json_object_set_new(j, "dp_buckets", json_real(r->dp_buckets));
  json_object_set_new(j, "dp_window_s", json_real(r->dp_window_s));
  json_object_set_new(j, "comm_s", json_real(r->comm_s));
  json_object_set_new(j, "step_time_s", json_real(r->step_s));
  json_object_set_new(j, "comm_alone_s", json_real(r->comm_alone_s));
  json_object_set_new(j, "step_time_alone_s", json_real(r->step_alone_s));
  return j;
}

static void print_json(FILE *o, const fl_fabric *f, const fl_workload *w,
                       const fl_step_result *r, const fl_perf_job *job) {
  json_t *root = json_object(), *ps = json_array(), *fs = json_array();
  json_object_set_new(root, "workload", json_string(w->path));
  fl_cli_perf_json_fail(root, f, job);
  json_object_set_new(root, "routing",
                      json_string(fl_cli_perf_routing_name(r->routing)));
  fl_cli_perf_json_ar(root, r->routing, &r->ar);
  json_object_set_new(root, "min_share", json_real(w->min_share));
  if (r->error[0])
    json_object_set_new(root, "error", json_string(r->error));
  else {
    json_object_set_new(root, "step", json_step(w, r));
    fl_cli_perf_json_ckpt(root, f, r);
    for (uint32_t p = 0; p < FL_STEP_PHASES; p++) {
      if (!r->ph[p].on)
        continue;
      json_array_append_new(ps, json_phase(f, r, p));
      if (!contended(r, &r->ph[p], w->min_share))
        continue;
      json_t *x = json_object(), *links = json_array();
      char msg[1400];
      finding_msg(f, &r->ph[p], fl_step_phase_name(p), w->min_share, msg,
                  sizeof msg);
      json_object_set_new(x, "rule",
                          json_string("performance.collective-contention"));
      json_object_set_new(x, "severity", json_string("warning"));
      json_object_set_new(x, "phase", json_string(fl_step_phase_name(p)));
      json_object_set_new(x, "message", json_string(msg));
      for (uint32_t i = 0; i < r->ph[p].n_alone; i++)
        json_array_append_new(
            links, fl_cli_perf_json_bottleneck(f, &r->ph[p].alone[i]));
      json_object_set_new(x, "links", links);
      json_array_append_new(fs, x);
    }
  }
  json_object_set_new(root, "phases", ps);
  json_object_set_new(root, "findings", fs);
  json_dumpf(root, o, JSON_INDENT(2));
  fputc('\n', o);
  json_decref(root);
}

int fl_cli_perf_step(const fl_cli_opts *o, const fl_workload *w, fl_fabric *fab,
                     int overlap) {
  fl_error err;
  fl_error_clear(&err);
  fl_perf_job *job = NULL;
  if (fl_perf_job_new(fab, w, w->routing, &job, &err) != FL_OK) {
    fl_cli_print_error(&err);
    return FL_EXIT_USAGE;
  }
  fl_perf_job_set_threads(job, o->threads); /* --jobs */
  fl_step_result *r = calloc(1, sizeof *r);
  int rc = r ? 0 : FL_EXIT_USAGE;
  if (r && fl_perf_step(job, &w->train, overlap, r, &err) != FL_OK) {
    if (!err.file[0])
      snprintf(err.file, sizeof err.file, "%s", w->path);
    fl_cli_print_error(&err);
    rc = FL_EXIT_USAGE;
  }
  fl_outfile out = {0};
  if (rc == 0)
    rc = fl_cli_open_output(o, &out);
  if (rc == 0) {
    if (o->out_format == FL_OUT_JSON)
      print_json(out.f, fab, w, r, job);
    else
      print_text(out.f, fab, w, r, job);
    if (r->error[0] || r->ckpt.error[0])
      rc = FL_EXIT_FINDINGS;
    for (uint32_t p = 0; p < FL_STEP_PHASES; p++)
      if (contended(r, &r->ph[p], w->min_share))
        rc = FL_EXIT_FINDINGS;
  }
  rc = fl_cli_close_output(&out, rc);
  free(r);
  fl_perf_job_free(job);
  return rc;
}
