/*
 * core/cli/cli_perf_out.c — the pieces of `fabriclint perf`'s reports that
 * the single-placement report (cli_perf.c) and the placements report
 * (cli_perf_place.c) share: a bottleneck link's text and JSON, the head
 * of a collective's JSON object.
 */
#include <math.h>
#include <stdio.h>

#include "cli/cli_perf_out.h"

const char *fl_cli_perf_routing_name(uint32_t routing) {
  return routing == FL_WL_ROUTE_LFT ? "lft" : "ar";
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
    fprintf(o, "  bottleneck %s: %.4g flows share %.0f Gb/s (%.3f Gb/s each)\n",
            lt, b->flows, b->gbps, b->share_gbps);
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
