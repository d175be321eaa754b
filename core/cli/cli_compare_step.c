/* SPDX-License-Identifier: MIT */
/*
 * core/cli/cli_compare_step.c — `compare --workload STEP.yaml` with a
 * `training:` section: the training step modelled on each side (the step
 * model of `perf --job`, core/analysis/perf_step.c; docs/perf.md "Training
 * step"), its step time and each phase's time compared, and the policy
 * step-rise[=X] (issue 35 item 5: two designs side by side for one job).
 *
 * The same job runs on BASE and HEAD; a phase is matched by name (which
 * phases exist depends on the job, their scope on each side's servers).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/perf_step.h"
#include "cli/cli.h"
#include "cli/cli_compare.h"
#include "cli/cli_perf_out.h"

static json_t *phase_json(const fl_step_result *r, uint32_t p) {
  const fl_step_phase *ph = &r->ph[p];
  return json_pack("{s:s,s:s,s:o,s:o,s:o,s:o}", "phase", fl_step_phase_name(p),
                   "scope", ph->fabric ? "fabric" : "scale-up", "time_s",
                   fl_cli_perf_json_num(ph->time_s), "alone_s",
                   fl_cli_perf_json_num(ph->alone_s), "ideal_s",
                   fl_cli_perf_json_num(ph->ideal_s), "exposed_s",
                   fl_cli_perf_json_num(ph->exposed_s));
}

json_t *fl_cmp_step_json(const fl_perf_job *job, const fl_workload *w,
                         const char *input, int *rc) {
  fl_error err;
  fl_error_clear(&err);
  fl_step_result *r = calloc(1, sizeof *r);
  if (!r) {
    *rc = FL_EXIT_USAGE;
    return NULL;
  }
  if (fl_perf_step(job, &w->train, 1, r, &err) != FL_OK) {
    if (!err.file[0])
      snprintf(err.file, sizeof err.file, "%s", w->path);
    fprintf(stderr, "fabriclint: --workload on %s:\n", input);
    fl_cli_print_error(&err);
    free(r);
    *rc = FL_EXIT_USAGE;
    return NULL;
  }
  json_t *j = json_object(), *ps = json_array();
  json_object_set_new(j, "gpus", json_integer(r->gpus));
  json_object_set_new(j, "hosts_used", json_integer(r->hosts_used));
  json_object_set_new(j, "routing",
                      json_string(fl_cli_perf_routing_name(r->routing)));
  if (r->error[0]) {
    json_object_set_new(j, "error", json_string(r->error));
    json_object_set_new(j, "step_time_s", json_null());
  } else {
    json_object_set_new(j, "step_time_s", json_real(r->step_s));
    json_object_set_new(j, "compute_s", json_real(r->compute_s));
    json_object_set_new(j, "comm_s", json_real(r->comm_s));
    json_object_set_new(j, "step_time_alone_s", json_real(r->step_alone_s));
    for (uint32_t p = 0; p < FL_STEP_PHASES; p++)
      if (r->ph[p].on)
        json_array_append_new(ps, phase_json(r, p));
    if (r->ckpt.on) {
      const fl_step_ckpt *c = &r->ckpt;
      json_t *ck = json_object();
      if (c->error[0])
        json_object_set_new(ck, "error", json_string(c->error));
      json_object_set_new(ck, "alone_s", fl_cli_perf_json_num(c->alone_s));
      json_object_set_new(ck, "ideal_s", fl_cli_perf_json_num(c->ideal_s));
      json_object_set_new(ck, "during_s", fl_cli_perf_json_num(c->during_s));
      json_object_set_new(ck, "step_time_during_s",
                          fl_cli_perf_json_num(c->step_during_s));
      json_object_set_new(j, "checkpoint", ck);
    }
  }
  json_object_set_new(j, "phases", ps);
  free(r);
  return j;
}

/* (the collectives' delta, cli_compare_perf.c, takes it too) */
json_t *fl_cmp_num_delta(const json_t *b, const json_t *h, const char *k,
                         double zero) {
  const json_t *x = json_object_get(b, k), *y = json_object_get(h, k);
  if (!json_is_number(x) || !json_is_number(y))
    return json_null();
  double d = json_number_value(y) - json_number_value(x);
  return json_real(fabs(d) < zero ? 0.0 : d);
}

const json_t *fl_cmp_step_phase(const json_t *ps, const char *name) {
  for (size_t i = 0; i < json_array_size(ps); i++)
    if (strcmp(
            json_string_value(json_object_get(json_array_get(ps, i), "phase")),
            name) == 0)
      return json_array_get(ps, i);
  return NULL;
}

json_t *fl_cmp_step_delta(const json_t *b, const json_t *h) {
  json_t *d = json_object(), *ps = json_array();
  static const char *const K[] = {"step_time_s", "compute_s", "comm_s",
                                  "step_time_alone_s"};
  for (size_t k = 0; k < sizeof K / sizeof *K; k++)
    json_object_set_new(d, K[k], fl_cmp_num_delta(b, h, K[k], 1e-12));
  const json_t *pb = json_object_get(b, "phases"),
               *ph = json_object_get(h, "phases");
  for (size_t i = 0; i < json_array_size(pb); i++) {
    const json_t *x = json_array_get(pb, i);
    const char *name = json_string_value(json_object_get(x, "phase"));
    const json_t *y = fl_cmp_step_phase(ph, name);
    json_array_append_new(
        ps, json_pack("{s:s,s:o,s:o}", "phase", name, "time_s",
                      fl_cmp_num_delta(x, y, "time_s", 1e-12), "exposed_s",
                      fl_cmp_num_delta(x, y, "exposed_s", 1e-12)));
  }
  json_object_set_new(d, "phases", ps);
  const json_t *cb = json_object_get(b, "checkpoint"),
               *ch = json_object_get(h, "checkpoint");
  if (cb && ch) {
    json_t *cd = json_object();
    static const char *const C[] = {"alone_s", "ideal_s", "during_s",
                                    "step_time_during_s"};
    for (size_t k = 0; k < sizeof C / sizeof *C; k++)
      json_object_set_new(cd, C[k], fl_cmp_num_delta(cb, ch, C[k], 1e-12));
    json_object_set_new(d, "checkpoint", cd);
  }
  return d;
}

int fl_cmp_judge_step(const json_t *m, double tol, char *why, size_t size) {
  const json_t *sb = json_object_get(
      json_object_get(json_object_get(m, "base"), "workload"), "step");
  const json_t *sh = json_object_get(
      json_object_get(json_object_get(m, "head"), "workload"), "step");
  if (!json_is_object(sb) || !json_is_object(sh)) {
    snprintf(why, size,
             "no training step modelled (give --workload with a "
             "`training:` section)");
    return 2;
  }
  const json_t *vb = json_object_get(sb, "step_time_s"),
               *vh = json_object_get(sh, "step_time_s");
  if (!json_is_number(vb)) {
    snprintf(why, size, "the step cannot be routed in BASE: %s",
             json_string_value(json_object_get(sb, "error")));
    return 2;
  }
  double b = json_number_value(vb);
  if (!json_is_number(vh)) {
    snprintf(why, size, "the step cannot be routed in HEAD: %s",
             json_string_value(json_object_get(sh, "error")));
    return 1;
  }
  double h = json_number_value(vh), rise = (h - b) / b;
  int failed = rise > tol + 1e-9;
  snprintf(why, size, "step time %.6g -> %.6g s (%+.1f %%; %s %g %%)", b, h,
           100 * rise, failed ? "rises more than" : "within", 100 * tol);
  return failed;
}
