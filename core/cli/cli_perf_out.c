/* SPDX-License-Identifier: MIT */
/*
 * core/cli/cli_perf_out.c — the pieces of `fabriclint perf`'s reports that
 * the single-placement report (cli_perf.c) and the placements report
 * (cli_perf_place.c) share: a bottleneck link's text and JSON, the head
 * of a collective's JSON object.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli/cli_perf_out.h"
#include "util/natcmp.h"

const char *fl_cli_perf_routing_name(uint32_t routing) {
  return fl_wl_routing_name(routing);
}

void fl_cli_perf_text_ar(FILE *o, const char *indent, uint32_t routing,
                         const fl_perf_ar *a) {
  if (routing != FL_WL_ROUTE_AR)
    return;
  if (a->capped) {
    fprintf(o,
            "%snote: adaptive routing's load-aware split would need %zu "
            "values, more than its cap of %u: the flows are split equally "
            "over the minimal next hops (as --routing spray)\n",
            indent, a->capped, (unsigned)FL_PERF_AR_MAX_SPLIT);
    return;
  }
  if (a->converged || a->sweeps == 0) /* 0: no figures (not routable) */
    return;
  fprintf(o,
          "%snote: adaptive routing's split did not settle in %u sweeps (its "
          "last moved %.3g of the largest demand); the figures are those of "
          "the last sweep\n",
          indent, a->sweeps, a->residual);
}

void fl_cli_perf_json_ar(json_t *j, uint32_t routing, const fl_perf_ar *a) {
  if (routing != FL_WL_ROUTE_AR)
    return;
  json_t *o = json_object();
  json_object_set_new(o, "sweeps", json_integer(a->sweeps));
  json_object_set_new(o, "converged", json_boolean(a->converged));
  json_object_set_new(o, "residual", json_real(a->residual));
  if (a->capped)
    json_object_set_new(o, "capped_need", json_integer((json_int_t)a->capped));
  json_object_set_new(j, "ar", o);
}

/* "A port 1 - B port 2" of cable @l, its ends in natural name order (one
 * cable reads the same whichever end the capture lists first). */
static void cable_text(const fl_fabric *f, fl_id l, char *buf, size_t n) {
  fl_id a = fl_fabric_link_port(f, l, 0), b = fl_fabric_link_port(f, l, 1);
  if (fl_natcmp(fl_fabric_node_name(f, fl_fabric_port_node(f, b)),
                fl_fabric_node_name(f, fl_fabric_port_node(f, a))) < 0) {
    fl_id t = a;
    a = b;
    b = t;
  }
  snprintf(buf, n, "%s port %u - %s port %u",
           fl_fabric_node_name(f, fl_fabric_port_node(f, a)),
           fl_fabric_port_num(f, a),
           fl_fabric_node_name(f, fl_fabric_port_node(f, b)),
           fl_fabric_port_num(f, b));
}

void fl_cli_perf_text_fail(FILE *o, const fl_fabric *f,
                           const fl_perf_job *job) {
  fl_id l[8];
  int rer = 0;
  uint32_t n = fl_perf_job_failed(job, l, 8, &rer);
  if (n == 0)
    return;
  fprintf(o, "what if (--fail): without %u cable%s:", n, n == 1 ? "" : "s");
  for (uint32_t i = 0; i < n && i < 8; i++) {
    char c[600];
    cable_text(f, l[i], c, sizeof c);
    fprintf(o, "%s %s", i ? "," : "", c);
  }
  if (n > 8)
    fprintf(o, " and %u more", n - 8);
  fputc('\n', o);
  if (rer)
    fprintf(o, "  the loaded LFTs are the subnet manager's from before the "
               "failure; its re-run is modelled as minimal paths split "
               "equally (spray routing): the LFTs it dumps after would give "
               "its own choices, and --routing spray without --fail gives "
               "the same model without the failure\n");
}

void fl_cli_perf_json_fail(json_t *root, const fl_fabric *f,
                           const fl_perf_job *job) {
  int rer = 0;
  uint32_t n = fl_perf_job_failed(job, NULL, 0, &rer);
  if (n == 0)
    return;
  fl_id *l = malloc((size_t)n * sizeof *l);
  json_t *a = json_array();
  if (l) {
    fl_perf_job_failed(job, l, n, NULL);
    for (uint32_t i = 0; i < n; i++) {
      char c[600];
      cable_text(f, l[i], c, sizeof c);
      json_array_append_new(a, json_string(c));
    }
  }
  free(l);
  json_object_set_new(root, "failed", a);
  json_object_set_new(root, "rerouted", json_boolean(rer));
}

json_t *fl_cli_perf_json_num(double x) {
  return isfinite(x) ? json_real(x) : json_null();
}

void fl_cli_perf_json_head(json_t *j, const fl_perf_result *r) {
  json_object_set_new(j, "op", json_string(fl_wl_op_name(r->op)));
  if (r->name)
    json_object_set_new(j, "name", json_string(r->name));
  json_object_set_new(j, "bytes", json_integer((json_int_t)r->bytes));
  json_object_set_new(j, "ranks", json_integer(r->ranks));
  json_object_set_new(j, "routing",
                      json_string(fl_cli_perf_routing_name(r->routing)));
  fl_cli_perf_json_ar(j, r->routing, &r->ar);
}

void fl_cli_perf_link_text(const fl_fabric *f, const fl_perf_bottleneck *b,
                           char *buf, size_t n) {
  snprintf(buf, n, "%s port %u -> %s port %u", fl_fabric_node_name(f, b->from),
           b->from_port, fl_fabric_node_name(f, b->to), b->to_port);
}

void fl_cli_perf_text_bottlenecks(FILE *o, const fl_fabric *f,
                                  const fl_perf_result *r) {
  for (uint32_t i = 0; i < r->n_bottlenecks; i++) {
    const fl_perf_bottleneck *b = &r->bottlenecks[i];
    char lt[600];
    fl_cli_perf_link_text(f, b, lt, sizeof lt);
    fprintf(o, "  bottleneck %s: %.4g flows share %.6g Gb/s (%.3f Gb/s each)",
            lt, b->flows, b->gbps, b->share_gbps);
    if (b->nominal_gbps > b->gbps)
      fprintf(o, "; the cable runs below its nominal %.6g Gb/s",
              b->nominal_gbps);
    fputc('\n', o);
    for (uint32_t k = 0; k < b->n_ex; k++)
      fprintf(o, "    %s -> %s\n", fl_fabric_node_name(f, b->ex_src[k]),
              fl_fabric_node_name(f, b->ex_dst[k]));
  }
}

json_t *fl_cli_perf_json_bottleneck(const fl_fabric *f,
                                    const fl_perf_bottleneck *b) {
  json_t *j = json_object(), *ex = json_array();
  char lt[600];
  fl_cli_perf_link_text(f, b, lt, sizeof lt);
  json_object_set_new(j, "link", json_string(lt));
  json_object_set_new(j, "from", json_string(fl_fabric_node_name(f, b->from)));
  json_object_set_new(j, "from_port", json_integer(b->from_port));
  json_object_set_new(j, "to", json_string(fl_fabric_node_name(f, b->to)));
  json_object_set_new(j, "to_port", json_integer(b->to_port));
  json_object_set_new(j, "capacity_gbps", fl_cli_perf_json_num(b->gbps));
  json_object_set_new(j, "flow_count", fl_cli_perf_json_num(b->flows));
  json_object_set_new(j, "share_gbps", fl_cli_perf_json_num(b->share_gbps));
  json_object_set_new(j, "nominal_gbps", fl_cli_perf_json_num(b->nominal_gbps));
  json_object_set_new(j, "degraded", json_boolean(b->nominal_gbps > b->gbps));
  for (uint32_t k = 0; k < b->n_ex; k++) {
    json_t *fl = json_object();
    json_object_set_new(fl, "src",
                        json_string(fl_fabric_node_name(f, b->ex_src[k])));
    json_object_set_new(fl, "dst",
                        json_string(fl_fabric_node_name(f, b->ex_dst[k])));
    json_array_append_new(ex, fl);
  }
  json_object_set_new(j, "flows", ex);
  return j;
}

/* The picked algorithm spends most of its time in latency: a small
 * message, where NCCL switches to LL/LL128 (not modelled: outside tester,
 * session 11, 1 MiB all-reduce predicted at 2.1 GB/s). */
static int latency_bound(const fl_perf_nccl *p) {
  const fl_perf_nccl_alg *x = &p->alg[p->pick];
  return x->on && x->time_s > 0 && x->latency_s * 2 > x->time_s;
}

void fl_cli_perf_text_nccl(FILE *o, const fl_perf_result *r) {
  const fl_perf_nccl *p = &r->nccl;
  for (uint32_t a = 0; a < FL_PERF_NCCL_ALGS; a++) {
    const fl_perf_nccl_alg *x = &p->alg[a];
    if (x->on)
      fprintf(o,
              "  nccl %s%s: time %.6g s  algbw %.2f GB/s  busbw %.2f GB/s  "
              "(latency %.1f us, efficiency %.2f)\n",
              fl_perf_nccl_alg_name(a), p->pick == a ? " (picked)" : "",
              x->time_s, x->algbw_GBps, x->busbw_GBps, x->latency_s * 1e6,
              x->efficiency);
  }
  if (latency_bound(p))
    fprintf(o, "  nccl: latency-bound (latency is most of the time): NCCL "
               "runs such sizes with its LL/LL128 protocols, which this "
               "model (Simple protocol) does not have; read the time as an "
               "upper bound (docs/performance-model.md)\n");
}

json_t *fl_cli_perf_json_nccl(const fl_perf_result *r) {
  const fl_perf_nccl *p = &r->nccl;
  json_t *j = json_object(), *algs = json_object();
  const fl_perf_nccl_alg *pk = &p->alg[p->pick];
  if (pk->on) {
    json_object_set_new(j, "algorithm",
                        json_string(fl_perf_nccl_alg_name(p->pick)));
    json_object_set_new(j, "time_s", fl_cli_perf_json_num(pk->time_s));
    json_object_set_new(j, "algbw_GBps", fl_cli_perf_json_num(pk->algbw_GBps));
    json_object_set_new(j, "busbw_GBps", fl_cli_perf_json_num(pk->busbw_GBps));
    json_object_set_new(j, "latency_bound", json_boolean(latency_bound(p)));
  }
  for (uint32_t a = 0; a < FL_PERF_NCCL_ALGS; a++) {
    const fl_perf_nccl_alg *x = &p->alg[a];
    if (!x->on)
      continue;
    json_t *e = json_object();
    json_object_set_new(e, "latency_us",
                        fl_cli_perf_json_num(x->latency_s * 1e6));
    json_object_set_new(e, "efficiency", fl_cli_perf_json_num(x->efficiency));
    json_object_set_new(e, "time_s", fl_cli_perf_json_num(x->time_s));
    json_object_set_new(e, "algbw_GBps", fl_cli_perf_json_num(x->algbw_GBps));
    json_object_set_new(e, "busbw_GBps", fl_cli_perf_json_num(x->busbw_GBps));
    json_object_set_new(algs, fl_perf_nccl_alg_name(a), e);
  }
  json_object_set_new(j, "algorithms", algs);
  return j;
}

void fl_cli_perf_degraded_note(const fl_fabric *f, const fl_perf_result *r,
                               char *buf, size_t n) {
  buf[0] = 0;
  for (uint32_t i = 0; i < r->n_bottlenecks; i++) {
    const fl_perf_bottleneck *b = &r->bottlenecks[i];
    if (!(b->nominal_gbps > b->gbps))
      continue;
    char lt[600];
    fl_cli_perf_link_text(f, b, lt, sizeof lt);
    snprintf(buf, n,
             "; the cable %s runs at %.6g Gb/s, below its nominal %.6g Gb/s",
             lt, b->gbps, b->nominal_gbps);
    return;
  }
}
