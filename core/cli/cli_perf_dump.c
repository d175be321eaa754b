/* SPDX-License-Identifier: MIT */
/*
 * core/cli/cli_perf_dump.c — `perf --dump-flows FILE` (cli_perf_dump.h):
 * what the ns-3 harness needs to rebuild the model's input packet by
 * packet: the switches and the job's NICs, the cables between them with
 * their rates, each switch's LFT output port toward every NIC, and every
 * flow of one step of each collective.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <jansson.h>

#include "cli/cli.h"
#include "cli/cli_common.h"
#include "cli/cli_perf_dump.h"
#include "fabriclint/routing.h"
#include "io/outfile.h"

static int same_file(const char *a, const char *b) {
  struct stat sa, sb;
  return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev &&
         sa.st_ino == sb.st_ino;
}

static int refuse_read(const char *path, const fl_fabric *fab,
                       const fl_workload *w) {
  const char *hit = same_file(path, w->path) ? w->path : NULL;
  for (uint32_t i = 0; !hit && i < fl_fabric_file_count(fab); i++) {
    const char *in = fl_fabric_file_path(fab, i);
    if (strcmp(in, "-") != 0 && same_file(path, in))
      hit = in;
  }
  if (!hit)
    return 0;
  fprintf(stderr,
          "fabriclint: %s: --dump-flows would overwrite %s, a file this run "
          "read; refusing\n",
          path, hit);
  return FL_EXIT_USAGE;
}

/* Node index in the dump of every fabric node (UINT32_MAX: not listed). */
typedef struct dump_ctx {
  const fl_fabric *f;
  const fl_perf_job *job;
  uint32_t *idx;
  json_t *nodes;
  uint32_t n;
} dump_ctx;

static void add_node(dump_ctx *c, fl_id node, const char *kind, uint32_t lid) {
  json_t *j = json_object();
  json_object_set_new(j, "name", json_string(fl_fabric_node_name(c->f, node)));
  json_object_set_new(j, "kind", json_string(kind));
  json_object_set_new(j, "lid", json_integer(lid));
  json_array_append_new(c->nodes, j);
  c->idx[node] = c->n++;
}

static json_t *dump_links(const dump_ctx *c) {
  json_t *a = json_array();
  for (fl_id l = 0; l < fl_fabric_link_count(c->f); l++) {
    fl_id pa = fl_fabric_link_port(c->f, l, 0),
          pb = fl_fabric_link_port(c->f, l, 1);
    if (pa == FL_NONE || pb == FL_NONE)
      continue;
    fl_id na = fl_fabric_port_node(c->f, pa),
          nb = fl_fabric_port_node(c->f, pb);
    if (c->idx[na] == UINT32_MAX || c->idx[nb] == UINT32_MAX || na == nb)
      continue;
    json_t *j = json_object();
    json_object_set_new(j, "a", json_integer(c->idx[na]));
    json_object_set_new(j, "a_port",
                        json_integer(fl_fabric_port_num(c->f, pa)));
    json_object_set_new(j, "b", json_integer(c->idx[nb]));
    json_object_set_new(j, "b_port",
                        json_integer(fl_fabric_port_num(c->f, pb)));
    json_object_set_new(j, "gbps", json_real(fl_fabric_link_gbps(c->f, l)));
    json_array_append_new(a, j);
  }
  return a;
}

static json_t *dump_routes(const dump_ctx *c) {
  json_t *a = json_array();
  uint32_t nn = fl_perf_job_nic_count(c->job);
  for (fl_id s = 0; s < fl_fabric_node_count(c->f); s++) {
    uint32_t len = 0;
    const uint8_t *row;
    if (fl_fabric_node_kind(c->f, s) != FL_NODE_SWITCH ||
        !(row = fl_fabric_lft(c->f, s, &len)))
      continue;
    json_t *j = json_object(), *ports = json_array();
    json_object_set_new(j, "switch", json_integer(c->idx[s]));
    for (uint32_t i = 0; i < nn; i++) {
      uint32_t lid = 0;
      fl_perf_job_nic(c->job, i, &lid, NULL);
      uint32_t p = lid && lid < len && row[lid] != FL_LFT_NONE ? row[lid] : 0;
      json_array_append_new(ports, json_integer(p));
    }
    json_object_set_new(j, "ports", ports);
    json_array_append_new(a, j);
  }
  return a;
}

static int dump_colls(const dump_ctx *c, const fl_workload *w,
                      const fl_perf_result *res, json_t *out) {
  for (size_t i = 0; i < w->n_colls; i++) {
    fl_perf_flow *fl = NULL;
    size_t n = 0;
    uint32_t steps = 0;
    fl_error err;
    fl_error_clear(&err);
    if (fl_perf_step_flows(c->job, &w->colls[i], &fl, &n, &steps, &err) !=
        FL_OK) {
      fl_cli_print_error(&err);
      return FL_EXIT_USAGE;
    }
    json_t *j = json_object(), *fa = json_array();
    json_object_set_new(j, "op", json_string(fl_wl_op_name(w->colls[i].op)));
    json_object_set_new(j, "bytes", json_integer((json_int_t)res[i].bytes));
    json_object_set_new(j, "steps", json_integer(steps));
    json_object_set_new(j, "step_time_s", json_real(res[i].step_time_s));
    json_object_set_new(j, "time_s", json_real(res[i].time_s));
    for (size_t k = 0; k < n; k++)
      json_array_append_new(fa, json_pack("[IIf]", (json_int_t)fl[k].src,
                                          (json_int_t)fl[k].dst, fl[k].bytes));
    json_object_set_new(j, "flows", fa);
    json_array_append_new(out, j);
    free(fl);
  }
  return 0;
}

int fl_cli_perf_dump(const char *path, const fl_fabric *fab,
                     const fl_workload *w, const fl_perf_job *job,
                     const fl_perf_result *res) {
  for (size_t i = 0; i < w->n_colls; i++)
    if (res[i].error[0] || res[i].routing != FL_WL_ROUTE_LFT) {
      int rer = 0;
      fl_perf_job_failed(job, NULL, 0, &rer);
      fprintf(stderr,
              "fabriclint: --dump-flows: collective %zu %s%s%s; the dump "
              "needs routable flows over loaded LFTs\n",
              i + 1, res[i].error[0] ? "cannot be routed" : "uses ",
              res[i].error[0] ? "" : fl_wl_routing_name(res[i].routing),
              res[i].error[0] ? ""
              : rer ? " routing (--fail replaced the LFTs by the subnet "
                      "manager's modelled re-run)"
                    : " routing");
      return FL_EXIT_USAGE;
    }
  if (refuse_read(path, fab, w))
    return FL_EXIT_USAGE;
  dump_ctx c = {fab, job, NULL, json_array(), 0};
  uint32_t nn = fl_fabric_node_count(fab);
  c.idx = malloc((nn ? nn : 1) * sizeof *c.idx);
  if (!c.idx) {
    json_decref(c.nodes);
    fprintf(stderr, "fabriclint: --dump-flows: out of memory\n");
    return FL_EXIT_USAGE;
  }
  memset(c.idx, 0xff, (nn ? nn : 1) * sizeof *c.idx);
  for (fl_id s = 0; s < nn; s++)
    if (fl_fabric_node_kind(fab, s) == FL_NODE_SWITCH) {
      fl_id p0 = fl_fabric_find_port(fab, s, 0);
      add_node(&c, s, "switch",
               p0 == FL_NONE ? 0 : fl_fabric_port_lid(fab, p0));
    }
  json_t *nics = json_array();
  for (uint32_t i = 0; i < fl_perf_job_nic_count(job); i++) {
    uint32_t lid = 0;
    fl_id n = fl_perf_job_nic(job, i, &lid, NULL);
    add_node(&c, n, "nic", lid);
    json_array_append_new(nics, json_integer(c.idx[n]));
  }
  json_t *root = json_object(), *colls = json_array();
  json_object_set_new(root, "format", json_string("fabriclint-perf-flows/1"));
  json_object_set_new(root, "workload", json_string(w->path));
  json_object_set_new(root, "nodes", c.nodes);
  json_object_set_new(root, "nics", nics);
  json_object_set_new(root, "links", dump_links(&c));
  json_object_set_new(root, "routes", dump_routes(&c));
  int rc = dump_colls(&c, w, res, colls);
  json_object_set_new(root, "collectives", colls);
  free(c.idx);
  fl_outfile of = {0};
  fl_error err;
  fl_error_clear(&err);
  if (rc == 0 && fl_outfile_open(&of, path, &err) != FL_OK)
    rc = FL_EXIT_USAGE;
  if (rc == 0) {
    json_dumpf(root, of.f, JSON_COMPACT);
    fputc('\n', of.f);
    if (fl_outfile_commit(&of, &err) != FL_OK)
      rc = FL_EXIT_USAGE;
  }
  if (err.message[0])
    fl_cli_print_error(&err);
  json_decref(root);
  return rc;
}
