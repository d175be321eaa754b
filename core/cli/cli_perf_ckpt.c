/* SPDX-License-Identifier: MIT */
/*
 * core/cli/cli_perf_ckpt.c — a training job's checkpoint in the report of
 * `fabriclint perf --job` (docs/perf.md, "Checkpoint").
 */
#include "cli/cli_perf_ckpt.h"

#include "cli/cli_perf_out.h"

void fl_cli_perf_text_ckpt(FILE *o, const fl_fabric *f,
                           const fl_step_result *r) {
  const fl_step_ckpt *c = &r->ckpt;
  if (!c->on)
    return;
  if (c->error[0]) {
    fprintf(o,
            "  checkpoint: %.6g bytes to %u storage host(s): cannot be "
            "routed: %s\n",
            c->bytes, c->storage, c->error);
    return;
  }
  fprintf(o,
          "  checkpoint: %.6g bytes from %u hosts (%u NICs) to %u storage "
          "host(s) (%u NICs), %.0f flows of %.6g bytes: %.6g s alone "
          "(ideal %.6g s; slowest flow %.6g Gb/s), %.6g s during the step's "
          "traffic (%.6g Gb/s)\n",
          c->bytes, c->writers, c->writers * r->rails, c->storage,
          c->storage_nics, c->flows, c->flow_bytes, c->alone_s, c->ideal_s,
          c->rate_alone_gbps, c->during_s, c->rate_during_gbps);
  fprintf(o, "    step time during it %.6g s (%+.1f%% on %.6g s)",
          c->step_during_s, 100 * (c->step_during_s / r->step_s - 1),
          r->step_s);
  int first = 1;
  for (uint32_t p = 0; p < FL_STEP_PHASES; p++)
    if (r->ph[p].on && r->ph[p].fabric &&
        c->ph_during_s[p] > r->ph[p].time_s * (1 + fl_perf_eps(r->routing))) {
      fprintf(o, "%s %s %.6g s (%.6g s without it)", first ? ";" : ",",
              fl_step_phase_name(p), c->ph_during_s[p], r->ph[p].time_s);
      first = 0;
    }
  fputc('\n', o);
  for (uint32_t i = 0; i < c->n_bottlenecks; i++) {
    char link[600];
    fl_cli_perf_link_text(f, &c->bottlenecks[i], link, sizeof link);
    fprintf(o, "    alone, bottleneck %s: %.4g flows share %.6g Gb/s\n", link,
            c->bottlenecks[i].flows, c->bottlenecks[i].gbps);
  }
}

void fl_cli_perf_json_ckpt(json_t *root, const fl_fabric *f,
                           const fl_step_result *r) {
  const fl_step_ckpt *c = &r->ckpt;
  if (!c->on)
    return;
  json_t *j = json_object(), *ph = json_object(), *bn = json_array();
  json_object_set_new(j, "bytes", json_real(c->bytes));
  if (c->error[0])
    json_object_set_new(j, "error", json_string(c->error));
  json_object_set_new(j, "flow_bytes", json_real(c->flow_bytes));
  json_object_set_new(j, "flows", json_integer((json_int_t)c->flows));
  json_object_set_new(j, "writers", json_integer(c->writers));
  json_object_set_new(j, "storage_hosts", json_integer(c->storage));
  json_object_set_new(j, "storage_nics", json_integer(c->storage_nics));
  json_object_set_new(j, "alone_s", fl_cli_perf_json_num(c->alone_s));
  json_object_set_new(j, "ideal_s", fl_cli_perf_json_num(c->ideal_s));
  json_object_set_new(j, "during_s", fl_cli_perf_json_num(c->during_s));
  json_object_set_new(j, "rate_alone_gbps",
                      fl_cli_perf_json_num(c->rate_alone_gbps));
  json_object_set_new(j, "rate_during_gbps",
                      fl_cli_perf_json_num(c->rate_during_gbps));
  json_object_set_new(j, "step_time_during_s",
                      fl_cli_perf_json_num(c->step_during_s));
  for (uint32_t p = 0; p < FL_STEP_PHASES; p++)
    if (r->ph[p].on && r->ph[p].fabric)
      json_object_set_new(ph, fl_step_phase_name(p),
                          fl_cli_perf_json_num(c->ph_during_s[p]));
  json_object_set_new(j, "phases_during_s", ph);
  for (uint32_t i = 0; i < c->n_bottlenecks; i++)
    json_array_append_new(bn,
                          fl_cli_perf_json_bottleneck(f, &c->bottlenecks[i]));
  json_object_set_new(j, "bottlenecks", bn);
  json_object_set_new(root, "checkpoint", j);
}
