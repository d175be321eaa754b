/* SPDX-License-Identifier: MIT */
/*
 * plugins/ecmp-balance/ecmp_state.c — the ecmp-balance plugin's state (the view
 * and traffic results cached per fabric) and the helpers its rules share:
 * reporting, parameters, names.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ecmp.h"
#include "fabriclint/json_buf.h"
#include "fabriclint/plugin.h"
#include "fabriclint/routing.h"
#include "fabriclint/threads.h"
#include "fabriclint/view.h"
#include "traffic.h"

int eb_init(const fl_host_api *api, void **data) {
  eb_state *st = calloc(1, sizeof *st);
  if (!st)
    return 1;
  st->api = api;
  *data = st;
  return 0;
}

void eb_fini(void *data) {
  eb_state *st = data;
  if (st) {
    fl_view_free(&st->v);
    for (uint32_t k = 0; k < st->n_tr; k++)
      tr_result_free(&st->tr[k]);
  }
  free(st);
}

const fl_view *eb_view(const fl_host_api *api, fl_ctx *ctx, eb_state *st,
                       int need_min) {
  const fl_fabric *f = api->fabric(ctx);
  fl_fabric_key key = fl_fabric_key_of(api, ctx);
  if (st->have_view && !fl_fabric_key_eq(st->key, key)) {
    fl_view_free(&st->v);
    st->have_view = st->have_min = st->have_tr = 0;
  }
  if (!st->have_view) {
    if (fl_view_build(&st->v, api, f) != 0) {
      fl_view_free(&st->v);
      api->fail(ctx, "out of memory");
      return NULL;
    }
    st->v.threads = fl_run_threads(api, ctx); /* the run's budget (--jobs) */
    st->key = key;
    st->have_view = 1;
  }
  /* 1: minimal next hops in either form (cover classes where the fabric
   * allows); 2: the matrix rows (the traffic model reads them) */
  if (need_min && !st->have_min) {
    if (fl_view_minimal_compact(&st->v) != 0) {
      api->fail(ctx, "out of memory");
      return NULL;
    }
    st->have_min = 1;
  }
  if (need_min == 2 && fl_view_rows(&st->v) != 0) {
    api->fail(ctx, "out of memory");
    return NULL;
  }
  return &st->v;
}

int eb_report(const fl_host_api *api, fl_ctx *ctx, uint32_t sev,
              const char *msg, const fl_id *nodes, uint32_t n_nodes,
              const fl_port_ref *ports, uint32_t n_ports, const char *ev) {
  return fl_emit(api, ctx, sev, msg, nodes, n_nodes, ports, n_ports, NULL, 0,
                 ev);
}

/* One instance of a structural cause: the host merges the rule's findings
 * that share @cause into one (fl_emit_cause, plugin.h). */
int eb_report_cause(const fl_host_api *api, fl_ctx *ctx, const char *msg,
                    const fl_id *nodes, uint32_t n_nodes, const char *ev,
                    const char *cause, const char *cause_msg) {
  return fl_emit_cause(api, ctx, 0, msg, nodes, n_nodes, NULL, 0, NULL, 0, ev,
                       cause, cause_msg);
}

int eb_report_rooted(const fl_host_api *api, fl_ctx *ctx, const char *msg,
                     const fl_id *nodes, uint32_t n_nodes, const char *ev,
                     const char *cause, const char *cause_msg,
                     const fl_root *root) {
  return fl_emit_rooted(api, ctx, 0, msg, nodes, n_nodes, NULL, 0, NULL, 0, ev,
                        cause, cause_msg, NULL, root);
}

const char *eb_nm(const fl_view *v, uint32_t s) {
  return v->api->node_name(v->f, v->sw_node[s]);
}

int64_t eb_pint(const fl_host_api *api, fl_ctx *ctx, const char *name,
                int64_t def) {
  int64_t x = def;
  api->param_int(ctx, name, &x);
  return x;
}

double eb_pdbl(const fl_host_api *api, fl_ctx *ctx, const char *name,
               double def) {
  double x = def;
  api->param_double(ctx, name, &x);
  return x;
}
