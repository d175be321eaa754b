/* SPDX-License-Identifier: MIT */
/*
 * core/analysis/perf.c — one collective through the model: its flows
 * (perf_flows.c), max-min rates over the job's routing and over the
 * no-contention ideal (perf_maxmin.c), then time, algbw, NCCL's busbw and
 * the bottleneck links with the flows that share them.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/perf_impl.h"

/* NCCL's bus-bandwidth factor (nccl-tests doc/PERFORMANCE.md). */
static double busbw_factor(uint32_t op, double n) {
  switch (op) {
  case FL_WL_ALL_REDUCE:
    return 2.0 * (n - 1) / n;
  case FL_WL_ALL_GATHER:
  case FL_WL_REDUCE_SCATTER:
  case FL_WL_ALL_TO_ALL:
    return (n - 1) / n;
  default:
    return 1.0;
  }
}

typedef struct bn_ent {
  uint32_t dl;
  double w;
} bn_ent;

static int cmp_bn(const void *x, const void *y) {
  const bn_ent *a = x, *b = y;
  if (a->w != b->w)
    return a->w > b->w ? -1 : 1;
  return a->dl < b->dl ? -1 : a->dl > b->dl;
}

static void add_example(fl_perf_bottleneck *b, fl_id src, fl_id dst) {
  if (b->n_ex < FL_PERF_MAX_EXAMPLES) {
    b->ex_src[b->n_ex] = src;
    b->ex_dst[b->n_ex++] = dst;
  }
}

/* Example flows of each bottleneck: walk the single LFT route of every
 * class (only for LFT routing and at most 2^20 flows). */
static void examples(const fl_perf_job *job, const pf_flows *fl,
                     fl_perf_result *res) {
  if (job->routing != FL_WL_ROUTE_LFT || fl->total_flows > 1048576.0)
    return;
  pf_router rt;
  size_t cap = fl->a2a ? fl->ng : fl->ncls;
  pf_class *buf = malloc((cap ? cap : 1) * sizeof *buf);
  if (!buf || pf_router_init(&rt, &job->net, job->routing) != FL_OK) {
    free(buf);
    return;
  }
  for (uint32_t d = 0; d < fl->nnic; d++) {
    size_t nc = pf_classes_for(fl, d, buf, cap);
    const pf_nic *dn = &job->nic[d];
    for (size_t i = 0; i < nc; i++) {
      const pf_group *g = &fl->groups[buf[i].group];
      uint32_t hit = 0; /* bit b: bottleneck b on the fabric part */
      uint32_t s = g->sw, dl, nx, why, guard = 0;
      while (guard++ < job->net.nsw + 1 &&
             pf_next(&rt, s, dn, &dl, &nx, 1, &why) == 1) {
        for (uint32_t b = 0; b < res->n_bottlenecks; b++)
          if (res->bottlenecks[b].dl == dl)
            hit |= 1u << b;
        if (nx == PF_EJECT)
          break;
        s = nx;
      }
      for (uint32_t k = 0; k < g->m; k++) {
        uint32_t src = fl->members[g->first + k];
        if (src == d)
          continue;
        for (uint32_t b = 0; b < res->n_bottlenecks; b++)
          if ((hit >> b & 1u) || job->nic[src].dl_out == res->bottlenecks[b].dl)
            add_example(&res->bottlenecks[b], job->nic[src].node, dn->node);
      }
    }
  }
  pf_router_free(&rt);
  free(buf);
}

double fl_perf_eps(uint32_t routing) {
  return routing == FL_WL_ROUTE_AR ? 1e-6 : 1e-9;
}

int pf_bottlenecks(const fl_perf_job *job, const double *level,
                   const double *weight, double slow, fl_perf_bottleneck *out,
                   uint32_t *n_out) {
  const pf_net *n = &job->net;
  size_t k = 0, cap = 64;
  bn_ent *v = malloc(cap * sizeof *v);
  if (!v)
    return -1;
  for (uint32_t dl = 0; dl < n->ndl; dl++) {
    double x = level[dl];
    if (!isfinite(x) || weight[dl] <= 0 ||
        fabs(x - slow) > fl_perf_eps(job->routing) * slow)
      continue;
    if (k == cap) {
      bn_ent *t = realloc(v, (cap *= 2) * sizeof *v);
      if (!t) {
        free(v);
        return -1;
      }
      v = t;
    }
    v[k++] = (bn_ent){dl, weight[dl]};
  }
  qsort(v, k, sizeof *v, cmp_bn);
  *n_out = 0;
  for (size_t i = 0; i < k && i < FL_PERF_MAX_BOTTLENECKS; i++) {
    fl_perf_bottleneck *b = &out[(*n_out)++];
    memset(b, 0, sizeof *b);
    fl_id l = v[i].dl / 2;
    fl_id pa = fl_fabric_link_port(job->f, l, v[i].dl & 1u),
          pb = fl_fabric_link_port(job->f, l, 1u - (v[i].dl & 1u));
    b->link = l;
    b->dl = v[i].dl;
    b->from = fl_fabric_port_node(job->f, pa);
    b->from_port = fl_fabric_port_num(job->f, pa);
    b->to = fl_fabric_port_node(job->f, pb);
    b->to_port = fl_fabric_port_num(job->f, pb);
    b->gbps = n->cap[v[i].dl];
    b->nominal_gbps = n->nom[v[i].dl];
    b->flows = v[i].w;
    b->share_gbps = level[v[i].dl];
  }
  free(v);
  return 0;
}

/* The saturated links at the level of the slowest flow, most shared first. */
static int bottlenecks(const fl_perf_job *job, const pf_solution *sol,
                       fl_perf_result *res) {
  return pf_bottlenecks(job, sol->level, sol->weight, sol->slow_level,
                        res->bottlenecks, &res->n_bottlenecks);
}

int fl_perf_run(const fl_perf_job *job, const fl_wl_coll *c,
                fl_perf_result *res, fl_error *err) {
  memset(res, 0, sizeof *res);
  res->op = c->op;
  res->name = c->name;
  res->bytes = c->bytes;
  res->rails = job->rails;
  res->hosts = job->hosts;
  res->routing = job->routing;
  pf_flows fl;
  int rc = pf_flows_build(job, c, &fl, &res->steps, &res->ranks, err);
  if (rc != FL_OK)
    return rc;
  res->flows = fl.total_flows;
  res->fabric_traffic = fl.total_flows > 0;
  if (!res->fabric_traffic) {
    pf_flows_free(&fl);
    return FL_OK;
  }
  pf_solution real, ideal;
  rc = pf_solve(&job->net, job->nic, &fl, job->routing, &real, err);
  if (rc == FL_OK) {
    /* the ideal at the cables' nominal rates (perf_nominal.c) */
    pf_net nominal = job->net;
    nominal.cap = job->net.nom;
    rc = pf_solve(&nominal, job->nic, &fl, PF_ROUTE_IDEAL, &ideal, err);
    if (rc != FL_OK)
      pf_solution_free(&real);
  }
  if (rc != FL_OK) {
    pf_flows_free(&fl);
    return rc;
  }
  if (real.error[0] || ideal.error[0]) {
    snprintf(res->error, sizeof res->error, "%s",
             real.error[0] ? real.error : ideal.error);
  } else {
    double n = res->ranks, f = busbw_factor(c->op, n);
    res->solver_rounds = real.rounds;
    res->ar.sweeps = real.ar_sweeps;
    res->ar.converged = real.ar_converged;
    res->ar.residual = real.ar_residual;
    res->ar.capped = real.ar_capped;
    res->step_time_s = real.step_time_s;
    res->time_s = real.step_time_s * res->steps;
    res->algbw_GBps = (double)c->bytes / res->time_s / 1e9;
    res->busbw_GBps = res->algbw_GBps * f;
    res->ideal_time_s = ideal.step_time_s * res->steps;
    res->ideal_busbw_GBps = (double)c->bytes / res->ideal_time_s / 1e9 * f;
    res->ratio = res->busbw_GBps / res->ideal_busbw_GBps;
    fl_perf_nccl_predict(c->op, c->bytes, res->ranks, res->hosts,
                         res->busbw_GBps, &res->nccl);
    /* at the ideal the NIC cables are the limit, as in the ideal itself:
     * no fabric link holds the collective back */
    if (res->ratio < 1 - fl_perf_eps(job->routing) &&
        bottlenecks(job, &real, res) != 0)
      rc = fl_error_set(err, FL_ENOMEM, NULL, 0, 0, "out of memory");
    else
      examples(job, &fl, res);
  }
  pf_solution_free(&real);
  pf_solution_free(&ideal);
  pf_flows_free(&fl);
  return rc;
}
