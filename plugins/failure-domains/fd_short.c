/* SPDX-License-Identifier: MIT */
/*
 * plugins/failure-domains/fd_short.c — the switch of a pod whose missing
 * uplinks explain a capacity loss (fd_model.h: fd_pod_short_switch).
 *
 * Why: a leaf short of uplinks makes every what-if over its pod worse.
 * Losing a rack of four of a pod's eight leaves takes half of its uplinks
 * out of the pod; with one leaf 4 cables short, the same rack takes 128 of
 * 252, 51 %, over a 50 % policy. That warning is a consequence of the
 * missing cables, which topology.missing-uplinks reports with their fix
 * (one cause, one finding: issue #30, the journey's 4-SU plan).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fd_model.h"

typedef struct cap_of {
  uint32_t tier;
  double gbps;
  fl_id node;
} cap_of;

static int cmp_cap(const void *x, const void *y) {
  const cap_of *a = x, *b = y;
  if (a->tier != b->tier)
    return a->tier < b->tier ? -1 : 1;
  if (a->gbps != b->gbps)
    return a->gbps < b->gbps ? -1 : 1;
  return a->node < b->node ? -1 : a->node > b->node;
}

/* Capacity of switch @v's uplinks to switches outside pod @pid. */
static double out_gbps(const fl_host_api *api, const fd_model *m, fl_id v,
                       uint32_t pid) {
  double g = 0;
  for (uint32_t k = m->off[v]; k < m->off[v + 1]; k++) {
    fl_id u = m->nbr[k];
    if (m->sw[u] && m->pod[u] != pid && fd_is_up(m, v, u))
      g += fd_link_gbps(api, m->fab, m->lnk[k]);
  }
  return g;
}

/* In the tier run c[0..n) (sorted by capacity): the capacity a strict
 * majority has, or -1. */
static double majority(const cap_of *c, uint32_t n) {
  for (uint32_t i = 0, j; i < n; i = j) {
    for (j = i; j < n && c[j].gbps == c[i].gbps; j++)
      ;
    if (2 * (j - i) > n)
      return c[i].gbps;
  }
  return -1;
}

fl_id fd_pod_short_switch(const fl_host_api *api, const fd_model *m,
                          uint32_t pid, double *deficit) {
  const fd_pod *pd = &m->pods[pid];
  *deficit = 0;
  cap_of *c = malloc(((size_t)pd->n_sw + 1) * sizeof *c);
  if (!c) {
    *deficit = -1;
    return FD_NONE;
  }
  uint32_t n = 0;
  for (uint32_t i = 0; i < pd->n_sw; i++) {
    fl_id v = pd->sw[i];
    double g = out_gbps(api, m, v, pid);
    if (g > 0) /* a switch without uplinks out of the pod is of no tier
                * that leaves the pod (the pod's own spines) */
      c[n++] = (cap_of){m->tier[v], g, v};
  }
  qsort(c, n, sizeof *c, cmp_cap);
  fl_id shortv = FD_NONE;
  int count = 0;
  for (uint32_t i = 0, j; i < n && count < 2; i = j) {
    for (j = i; j < n && c[j].tier == c[i].tier; j++)
      ;
    double typ = majority(c + i, j - i);
    if (typ < 0) {
      count = 2; /* no typical capacity: nothing to call short */
      break;
    }
    for (uint32_t k = i; k < j; k++)
      if (c[k].gbps < typ) {
        if (++count == 1)
          shortv = c[k].node, *deficit = typ - c[k].gbps;
      }
  }
  free(c);
  if (count != 1) {
    *deficit = 0;
    return FD_NONE;
  }
  return shortv;
}

void fd_pct_over(char *buf, size_t size, double pct, double limit) {
  for (int prec = 0; prec <= 3; prec++) {
    snprintf(buf, size, "%.*f", prec, pct);
    if (prec == 3 || strtod(buf, NULL) > limit || pct <= limit)
      return;
  }
}
