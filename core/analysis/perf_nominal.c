/* SPDX-License-Identifier: MIT */
/*
 * core/analysis/perf_nominal.c — the design (nominal) rate of every cable
 * for the performance model's ideal (docs/perf.md, "Nominal rates").
 *
 * A capture states the rate a cable trained at, not the rate it was built
 * for: a host cable trained at 2x or at HDR100 on an HDR fabric reports its
 * low rate, and an ideal computed on it hides the loss. The fabric states
 * its design in its majority: cables are grouped by the tiers they join
 * (host-leaf, leaf-spine, ..., as topology.degraded-link groups them: one
 * link type per tier pair by design) and a cable's nominal rate is the
 * larger of its own rate and its group's most common rate (Gb/s, width ×
 * lane rate; on a tie the largest, so a healthy cable is never judged
 * from a degraded one). Cables of unknown rate keep it unknown and do not
 * vote. The ideal uses the nominal rates; the routed model uses the rates
 * as trained, so a degraded cable shows as lost bandwidth and a named
 * bottleneck.
 *
 * Cost: O(links log links) (one sort per group).
 */
#include <math.h>
#include <stdlib.h>

#include "analysis/perf_impl.h"

#define PF_NOM_GROUPS 16u

/* Tier-pair group of cable @l: lo * 4 + hi for tiers 0..3, else the last. */
static uint32_t tier_group(const fl_fabric *f, fl_id l) {
  uint32_t ta = fl_fabric_node_tier(
      f, fl_fabric_port_node(f, fl_fabric_link_port(f, l, 0)));
  uint32_t tb = fl_fabric_node_tier(
      f, fl_fabric_port_node(f, fl_fabric_link_port(f, l, 1)));
  if (ta > 3 || tb > 3)
    return PF_NOM_GROUPS - 1;
  return ta < tb ? ta * 4 + tb : tb * 4 + ta;
}

static int cmp_double(const void *x, const void *y) {
  double a = *(const double *)x, b = *(const double *)y;
  return a < b ? -1 : a > b;
}

/* The most common value of sorted @v[n]; on a tie the largest; 0 if n = 0. */
static double mode_sorted(const double *v, size_t n) {
  double best = 0;
  size_t best_run = 0;
  for (size_t i = 0; i < n;) {
    size_t j = i;
    while (j < n && v[j] == v[i])
      j++;
    if (j - i >= best_run) {
      best_run = j - i;
      best = v[i];
    }
    i = j;
  }
  return best;
}

int pf_net_nominal(pf_net *n, fl_error *err) {
  const fl_fabric *f = n->f;
  uint32_t nl = n->ndl / 2;
  n->nom = malloc((n->ndl ? n->ndl : 1) * sizeof *n->nom);
  uint32_t *grp = malloc((nl ? nl : 1) * sizeof *grp);
  double *vals = malloc((nl ? nl : 1) * sizeof *vals);
  size_t off[PF_NOM_GROUPS + 1] = {0}, fill[PF_NOM_GROUPS] = {0};
  double mode[PF_NOM_GROUPS] = {0};
  if (!n->nom || !grp || !vals) {
    free(grp), free(vals);
    return fl_error_set(err, FL_ENOMEM, NULL, 0, 0, "out of memory");
  }
  for (fl_id l = 0; l < nl; l++) {
    grp[l] = tier_group(f, l);
    if (!isnan(n->cap[2 * l]))
      off[grp[l] + 1]++;
  }
  for (uint32_t g = 0; g < PF_NOM_GROUPS; g++)
    off[g + 1] += off[g];
  for (fl_id l = 0; l < nl; l++)
    if (!isnan(n->cap[2 * l]))
      vals[off[grp[l]] + fill[grp[l]]++] = n->cap[2 * l];
  for (uint32_t g = 0; g < PF_NOM_GROUPS; g++) {
    qsort(vals + off[g], off[g + 1] - off[g], sizeof *vals, cmp_double);
    mode[g] = mode_sorted(vals + off[g], off[g + 1] - off[g]);
  }
  for (fl_id l = 0; l < nl; l++) {
    double c = n->cap[2 * l];
    double m = isnan(c) || mode[grp[l]] <= c ? c : mode[grp[l]];
    n->nom[2 * l] = n->nom[2 * l + 1] = m;
  }
  free(grp), free(vals);
  return FL_OK;
}
