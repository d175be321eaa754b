/* SPDX-License-Identifier: MIT */
/*
 * core/analysis/perf_export.c — the flows of one step of a collective as an
 * explicit list (one record per NIC-to-NIC flow), for tools that rebuild the
 * model's input elsewhere: `fabriclint perf --dump-flows` writes them with
 * the topology and the LFT next hops, and the ns-3 harness (tests/ns3/)
 * replays them packet by packet (docs/performance-model.md).
 *
 * The model keeps all-to-all implicit (groups of NICs on one switch and
 * rail, perf_flows.c); this expands every class into its member flows:
 * an all-to-all class of count m (or m - 1) is one flow from each member
 * of the group other than the destination, an explicit class of count c is
 * c flows from the group's single NIC.
 */
#include <math.h>
#include <stdlib.h>

#include "analysis/perf_impl.h"

uint32_t fl_perf_job_nic_count(const fl_perf_job *job) {
  return job ? job->hosts * job->rails : 0;
}

fl_id fl_perf_job_nic(const fl_perf_job *job, uint32_t i, uint32_t *lid,
                      fl_id *port) {
  if (!job || i >= job->hosts * job->rails)
    return FL_NONE;
  if (lid)
    *lid = job->nic[i].lid;
  if (port)
    *port = job->nic[i].port;
  return job->nic[i].node;
}

static int push(fl_perf_flow **v, size_t *n, size_t *cap, fl_perf_flow f) {
  if (*n == *cap) {
    size_t nc = *cap ? 2 * *cap : 1024;
    fl_perf_flow *t = realloc(*v, nc * sizeof *t);
    if (!t)
      return -1;
    *v = t, *cap = nc;
  }
  (*v)[(*n)++] = f;
  return 0;
}

/* Append the flows of class @c (to NIC @d) to @v; -1 on ENOMEM. */
static int expand(const pf_flows *fl, const pf_class *c, uint32_t d,
                  fl_perf_flow **v, size_t *n, size_t *cap) {
  const pf_group *g = &fl->groups[c->group];
  size_t want = (size_t)llround(c->count), done = 0;
  if (g->m == 1) {
    for (; done < want; done++)
      if (push(v, n, cap, (fl_perf_flow){fl->members[g->first], d, c->bytes}))
        return -1;
    return 0;
  }
  for (uint32_t t = 0; t < g->m && done < want; t++) {
    uint32_t src = fl->members[g->first + t];
    if (src == d)
      continue;
    if (push(v, n, cap, (fl_perf_flow){src, d, c->bytes}))
      return -1;
    done++;
  }
  return 0;
}

int fl_perf_step_flows(const fl_perf_job *job, const fl_wl_coll *c,
                       fl_perf_flow **flows, size_t *n, uint32_t *steps,
                       fl_error *err) {
  *flows = NULL, *n = 0, *steps = 0;
  pf_flows fl;
  uint32_t ranks = 0;
  int rc = pf_flows_build(job, c, &fl, steps, &ranks, err);
  if (rc != FL_OK)
    return rc;
  size_t cap = 0, ncls = 0, bufcap = fl.ng ? fl.ng : 1;
  pf_class *buf = malloc(bufcap * sizeof *buf);
  rc = buf ? FL_OK : FL_ENOMEM;
  for (uint32_t d = 0; rc == FL_OK && d < fl.nnic; d++) {
    if (!fl.a2a && fl.dst_off[d + 1] - fl.dst_off[d] > bufcap) {
      bufcap = fl.dst_off[d + 1] - fl.dst_off[d];
      pf_class *t = realloc(buf, bufcap * sizeof *t);
      if (!t) {
        rc = FL_ENOMEM;
        break;
      }
      buf = t;
    }
    ncls = pf_classes_for(&fl, d, buf, bufcap);
    for (size_t i = 0; rc == FL_OK && i < ncls; i++)
      if (expand(&fl, &buf[i], d, flows, n, &cap) != 0)
        rc = FL_ENOMEM;
  }
  free(buf);
  pf_flows_free(&fl);
  if (rc != FL_OK) {
    free(*flows);
    *flows = NULL, *n = 0;
    fl_error_set(err, FL_ENOMEM, NULL, 0, 0, "out of memory listing flows");
  }
  return rc;
}
