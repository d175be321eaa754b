/* SPDX-License-Identifier: MIT */
/*
 * core/analysis/perf_fail.c — what a job does when switches or cables have
 * failed (`perf --fail`, issue 35 item 5): the named elements are taken out
 * of the job's net (their cables leave the per-port hop table and the
 * switch-to-switch adjacency), and the flows are routed around them.
 *
 * Routing after a failure: adaptive routing (`ar`) and spraying take the
 * minimal paths of the reduced fabric by themselves. Static LFTs are the
 * subnet manager's from before the failure and would send flows into the
 * dead cables; the SM's re-run (OpenSM recomputes every LFT on the fabric
 * it finds) is modelled by minimal-path routing with an equal split per
 * switch (`spray`): the balanced result ftree, updn and minhop aim at,
 * spread over destinations, not their per-destination choices (give the
 * LFTs dumped after the re-route for those).
 *
 * A NIC's cable, or a switch holding a NIC of the job, is refused: the job
 * cannot run as placed without that NIC (a job placed elsewhere is another
 * workload).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/perf_impl.h"

/* "NAME port N": the name and N (*@port; N out of 1..255 or not a number
 * gives *@port 0 and *@bad 1); else the whole spec is a name (*@port 0).
 * Names may hold spaces ("dgx-001 mlx5_0"). */
static void split_spec(const char *spec, char *name, size_t cap, uint32_t *port,
                       int *bad) {
  *port = 0;
  *bad = 0;
  snprintf(name, cap, "%s", spec);
  const char *p = strstr(spec, " port ");
  while (p && strstr(p + 1, " port "))
    p = strstr(p + 1, " port ");
  if (!p)
    return;
  const char *d = p + 6;
  unsigned long v = 0;
  size_t k = 0;
  for (; d[k] >= '0' && d[k] <= '9' && k < 4; k++)
    v = v * 10 + (unsigned long)(d[k] - '0');
  size_t len = (size_t)(p - spec);
  if (len >= cap)
    len = cap - 1;
  if (k == 0 || d[k] != '\0' || v == 0 || v > 255) {
    *bad = 1; /* the caller decides: a bad port, or a name ending so */
    char tmp[512];
    snprintf(tmp, sizeof tmp, "%.*s", (int)len, spec);
    snprintf(name, cap, "%s", tmp);
    return;
  }
  memcpy(name, spec, len);
  name[len] = '\0';
  *port = (uint32_t)v;
}

/* What naming the failures needs: the job, and the job NIC on each cable
 * (PF_NONE: none), built once rather than searched for each CA cable met. */
typedef struct fail_ctx {
  fl_perf_job *job;
  uint32_t *nic_on; /* [links] */
} fail_ctx;

/* The job NIC whose cable is @l, or -1. */
static long job_nic_on(const fail_ctx *x, fl_id l) {
  return x->nic_on[l] == PF_NONE ? -1 : (long)x->nic_on[l];
}

static int add_link(pf_net *n, fl_id l) {
  for (uint32_t i = 0; i < n->nfailed; i++)
    if (n->failed[i] == l)
      return 0;
  fl_id *t = realloc(n->failed, (n->nfailed + 1) * sizeof *t);
  if (!t)
    return -1;
  n->failed = t;
  n->failed[n->nfailed++] = l;
  return 0;
}

static int nic_refused(const fl_perf_job *job, const char *spec, long i,
                       fl_error *err) {
  const fl_fabric *f = job->f;
  return fl_error_set(err, FL_EINVAL, NULL, 0, 0,
                      "--fail '%s': the cable of %s, a NIC of the job, would "
                      "go with it; --fail takes switches and the cables "
                      "between them (a job without that NIC is another "
                      "workload)",
                      spec, fl_fabric_node_name(f, job->nic[i].node));
}

/* One cable of switch port @p (its first), refusing a NIC's. */
static int fail_port(const fail_ctx *x, const char *spec, fl_id p,
                     fl_error *err) {
  fl_perf_job *job = x->job;
  const fl_fabric *f = job->f;
  if (fl_fabric_port_link_count(f, p) == 0)
    return fl_error_set(err, FL_EINVAL, NULL, 0, 0,
                        "--fail '%s': no cable on that port", spec);
  fl_id l = fl_fabric_port_link(f, p, 0);
  fl_id q = fl_fabric_link_other(f, l, p);
  if (q == FL_NONE ||
      fl_fabric_node_kind(f, fl_fabric_port_node(f, q)) != FL_NODE_SWITCH) {
    long i = job_nic_on(x, l);
    if (i >= 0)
      return nic_refused(job, spec, i, err);
    return fl_error_set(
        err, FL_EINVAL, NULL, 0, 0,
        "--fail '%s': the cable goes to %s, not a switch; "
        "--fail takes switches and the cables between them",
        spec,
        q == FL_NONE ? "nothing"
                     : fl_fabric_node_name(f, fl_fabric_port_node(f, q)));
  }
  return add_link(&job->net, l) ? FL_ENOMEM : FL_OK;
}

/* Every switch-to-switch cable of switch @v; a NIC of the job on it is
 * refused. */
static int fail_switch(const fail_ctx *x, const char *spec, fl_id v,
                       fl_error *err) {
  fl_perf_job *job = x->job;
  const fl_fabric *f = job->f;
  fl_id first = fl_fabric_node_first_port(f, v);
  uint32_t np = first == FL_NONE ? 0 : fl_fabric_node_port_count(f, v);
  for (uint32_t k = 0; k < np; k++)
    for (uint32_t c = 0; c < fl_fabric_port_link_count(f, first + k); c++) {
      fl_id l = fl_fabric_port_link(f, first + k, c);
      fl_id q = fl_fabric_link_other(f, l, first + k);
      if (q == FL_NONE || q == first + k)
        continue;
      if (fl_fabric_node_kind(f, fl_fabric_port_node(f, q)) != FL_NODE_SWITCH) {
        long i = job_nic_on(x, l);
        if (i >= 0)
          return nic_refused(job, spec, i, err);
        continue; /* a CA outside the job: cut off, nothing of ours */
      }
      if (add_link(&job->net, l))
        return FL_ENOMEM;
    }
  return FL_OK;
}

/* Nodes shown as "@name (GUID)": one name on several nodes. How many, the
 * first in *@first. */
static uint32_t same_name(const fl_fabric *f, const char *name,
                          const char **first) {
  size_t n = strlen(name);
  uint32_t k = 0;
  for (fl_id v = 0; v < fl_fabric_node_count(f); v++) {
    const char *s = fl_fabric_node_name(f, v);
    if (strncmp(s, name, n) == 0 && strncmp(s + n, " (0x", 4) == 0 && k++ == 0)
      *first = s;
  }
  return k;
}

static int no_node(const fl_fabric *f, const char *spec, const char *name,
                   fl_error *err) {
  const char *first = NULL;
  uint32_t k = same_name(f, name, &first);
  if (k > 1)
    return fl_error_set(err, FL_EINVAL, NULL, 0, 0,
                        "--fail '%s': %u nodes are named %s; name one as "
                        "the fabric shows it (`%s`, ...)",
                        spec, k, name, first);
  return fl_error_set(err, FL_EINVAL, NULL, 0, 0,
                      "--fail '%s': no node of that name (a switch, or "
                      "'SWITCH port N' for one cable)",
                      spec);
}

static int fail_one(const fail_ctx *x, const char *spec, fl_error *err) {
  const fl_fabric *f = x->job->f;
  char name[512];
  uint32_t port;
  int bad;
  split_spec(spec, name, sizeof name, &port, &bad);
  fl_id whole = fl_fabric_find_node_name(f, spec);
  fl_id v = (port || bad) ? fl_fabric_find_node_name(f, name) : whole;
  if (v != FL_NONE && whole != FL_NONE && v != whole)
    return fl_error_set(err, FL_EINVAL, NULL, 0, 0,
                        "--fail '%s': both a node of that name and port %u "
                        "of %s; rename one, or fail the cable from its "
                        "other end",
                        spec, port, name);
  if (v == FL_NONE && whole != FL_NONE) { /* a name ending in " port N" */
    v = whole;
    port = 0;
    bad = 0;
  }
  if (v == FL_NONE)
    return no_node(f, spec, (port || bad) ? name : spec, err);
  if (bad)
    return fl_error_set(err, FL_EINVAL, NULL, 0, 0,
                        "--fail '%s': expected a port number from 1 to 255 "
                        "after 'port'",
                        spec);
  if (fl_fabric_node_kind(f, v) != FL_NODE_SWITCH)
    return fl_error_set(err, FL_EINVAL, NULL, 0, 0,
                        "--fail '%s': %s is not a switch; --fail takes "
                        "switches and the cables between them",
                        spec, fl_fabric_node_name(f, v));
  if (!port)
    return fail_switch(x, spec, v, err);
  fl_id p = fl_fabric_find_port(f, v, port);
  if (p == FL_NONE)
    return fl_error_set(err, FL_EINVAL, NULL, 0, 0,
                        "--fail '%s': no cable on %s port %u (the fabric "
                        "has no such port, or it is not cabled)",
                        spec, fl_fabric_node_name(f, v), port);
  return fail_port(x, spec, p, err);
}

/* NIC index @i of the @used first NICs of the job and its storage NICs. */
static size_t used_nic(const fl_perf_job *job, size_t used, size_t i) {
  return i < used ? i : (size_t)job->hosts * job->rails + (i - used);
}

int pf_job_split(const fl_perf_job *job, size_t used, fl_error *err) {
  const pf_net *n = &job->net;
  if (!n->comp0)
    return FL_OK;
  size_t nn = used + job->n_store;
  size_t ns = n->nsw ? n->nsw : 1;
  uint32_t *after = malloc(ns * sizeof *after), *q = malloc(ns * sizeof *q);
  uint32_t *first = malloc(ns * sizeof *first); /* by component before */
  if (!after || !q || !first) {
    free(after), free(q), free(first);
    return fl_error_set(err, FL_ENOMEM, NULL, 0, 0, "out of memory");
  }
  pf_net_components(n, after, q);
  for (size_t i = 0; i < ns; i++)
    first[i] = PF_NONE;
  size_t cut = 0, a = 0, b = 0;
  for (size_t k = 0; k < nn; k++) {
    size_t i = used_nic(job, used, k);
    uint32_t c = n->comp0[job->nic[i].sw] - 1;
    if (first[c] == PF_NONE)
      first[c] = (uint32_t)i;
    else if (after[job->nic[first[c]].sw] != after[job->nic[i].sw] &&
             cut++ == 0)
      a = first[c], b = i;
  }
  free(after), free(q), free(first);
  if (cut == 0)
    return FL_OK;
  const fl_fabric *f = job->f;
  return fl_error_set(err, FL_EINVAL, NULL, 0, 0,
                      "--fail splits the fabric: %zu of the %zu NICs the job "
                      "uses%s can no longer reach NICs they reached before "
                      "(%s on %s cannot reach %s on %s)",
                      cut, nn, job->n_store ? " (its storage's too)" : "",
                      fl_fabric_node_name(f, job->nic[b].node),
                      fl_fabric_node_name(f, n->sw_node[job->nic[b].sw]),
                      fl_fabric_node_name(f, job->nic[a].node),
                      fl_fabric_node_name(f, n->sw_node[job->nic[a].sw]));
}

int pf_job_fail(fl_perf_job *job, char *const *specs, size_t n, int defer,
                fl_error *err) {
  if (n == 0)
    return FL_OK;
  uint32_t nl = fl_fabric_link_count(job->f);
  fail_ctx x = {job, malloc((nl ? nl : 1) * sizeof *x.nic_on)};
  if (!x.nic_on)
    return fl_error_set(err, FL_ENOMEM, NULL, 0, 0, "out of memory");
  memset(x.nic_on, 0xff, (nl ? nl : 1) * sizeof *x.nic_on); /* PF_NONE */
  for (size_t i = 0; i < (size_t)job->hosts * job->rails; i++)
    if (job->nic[i].link < nl && x.nic_on[job->nic[i].link] == PF_NONE)
      x.nic_on[job->nic[i].link] = (uint32_t)i;
  for (size_t i = 0; i < n; i++) {
    int rc = fail_one(&x, specs[i], err);
    if (rc != FL_OK) {
      free(x.nic_on);
      return rc == FL_ENOMEM
                 ? fl_error_set(err, FL_ENOMEM, NULL, 0, 0, "out of memory")
                 : rc;
    }
  }
  free(x.nic_on);
  size_t ns = job->net.nsw ? job->net.nsw : 1;
  uint32_t *q = malloc(ns * sizeof *q);
  job->net.comp0 = malloc(ns * sizeof *job->net.comp0);
  if (!job->net.comp0 || !q) {
    free(q);
    return fl_error_set(err, FL_ENOMEM, NULL, 0, 0, "out of memory");
  }
  pf_net_components(&job->net, job->net.comp0, q);
  free(q);
  int rc = pf_net_cut(&job->net) != 0
               ? fl_error_set(err, FL_ENOMEM, NULL, 0, 0, "out of memory")
           : defer ? FL_OK
                   : pf_job_split(job, (size_t)job->hosts * job->rails, err);
  if (rc != FL_OK)
    return rc;
  if (job->routing == FL_WL_ROUTE_LFT) {
    job->routing = FL_WL_ROUTE_SPRAY; /* the SM's re-run (above) */
    job->net.rerouted = 1;
  }
  return FL_OK;
}

uint32_t fl_perf_job_failed(const fl_perf_job *job, fl_id *links, uint32_t cap,
                            int *rerouted) {
  for (uint32_t i = 0; i < job->net.nfailed && i < cap; i++)
    links[i] = job->net.failed[i];
  if (rerouted)
    *rerouted = job->net.rerouted;
  return job->net.nfailed;
}
