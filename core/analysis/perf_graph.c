/* SPDX-License-Identifier: MIT */
/*
 * core/analysis/perf_graph.c — the switch graph of the performance model's
 * net (pf_net's switch-to-switch adjacency): hop distances from a switch
 * (the minimal next hops of AR and spray, and AR's balance) and connected
 * components (--fail's split check, a checkpoint's reachable storage).
 * Apart from the router (perf_route.c) and the balance (perf_ar.c), which
 * use each other's results, so neither depends on the other for these.
 */
#include <string.h>

#include "analysis/perf_impl.h"

uint32_t pf_net_bfs(const pf_net *n, uint32_t root, uint32_t *dist,
                    uint32_t *order) {
  for (uint32_t s = 0; s < n->nsw; s++)
    dist[s] = PF_NONE;
  uint32_t head = 0, tail = 0;
  dist[root] = 0;
  order[tail++] = root;
  while (head < tail) {
    uint32_t s = order[head++];
    for (uint32_t k = n->adj_off[s]; k < n->adj_off[s + 1]; k++) {
      uint32_t t = n->adj_next[k];
      if (dist[t] == PF_NONE) {
        dist[t] = dist[s] + 1;
        order[tail++] = t;
      }
    }
  }
  return tail;
}

void pf_net_components(const pf_net *n, uint32_t *lab, uint32_t *q) {
  memset(lab, 0, (n->nsw ? n->nsw : 1) * sizeof *lab);
  uint32_t next = 0;
  for (uint32_t r = 0; r < n->nsw; r++) {
    if (lab[r])
      continue;
    uint32_t h = 0, t = 0;
    lab[r] = ++next;
    q[t++] = r;
    while (h < t) {
      uint32_t s = q[h++];
      for (uint32_t k = n->adj_off[s]; k < n->adj_off[s + 1]; k++)
        if (!lab[n->adj_next[k]]) {
          lab[n->adj_next[k]] = next;
          q[t++] = n->adj_next[k];
        }
    }
  }
}
