/* SPDX-License-Identifier: MIT */
/*
 * core/analysis/perf_classes.c — reading a step's flow classes (pf_flows,
 * perf_impl.h): the classes toward one destination NIC in either encoding
 * (explicit, sorted by destination; or all-to-all kept implicit), and
 * freeing them. Apart from the builder (perf_flows.c) so that the solvers
 * and AR's balance (perf_ar.c), which the router uses, read flows without
 * depending on the builder, which builds the router's net.
 */
#include <stdlib.h>
#include <string.h>

#include "analysis/perf_impl.h"

void pf_flows_free(pf_flows *fl) {
  free(fl->groups), free(fl->members), free(fl->cls), free(fl->dst_off);
  free(fl->rail_goff), free(fl->grp_of);
  memset(fl, 0, sizeof *fl);
}

size_t pf_classes_for(const pf_flows *fl, uint32_t d, pf_class *buf,
                      size_t cap) {
  if (!fl->a2a) {
    size_t n = fl->dst_off[d + 1] - fl->dst_off[d];
    if (n > cap)
      n = cap;
    memcpy(buf, fl->cls + fl->dst_off[d], n * sizeof *buf);
    return n;
  }
  uint32_t r = d % fl->rails;
  size_t k = 0;
  for (uint32_t g = fl->rail_goff[r]; g < fl->rail_goff[r + 1] && k < cap;
       g++) {
    double c = fl->groups[g].m - (fl->grp_of[d] == g ? 1.0 : 0.0);
    if (c > 0)
      buf[k++] = (pf_class){g, d, c, fl->a2a_bytes, 0};
  }
  return k;
}

size_t pf_classes_cap(const pf_flows *fl) {
  if (fl->a2a)
    return fl->ng;
  size_t cap = 0;
  for (uint32_t d = 0; d < fl->nnic; d++)
    if (fl->dst_off[d + 1] - fl->dst_off[d] > cap)
      cap = fl->dst_off[d + 1] - fl->dst_off[d];
  return cap;
}
