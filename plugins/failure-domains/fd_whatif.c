/* SPDX-License-Identifier: MIT */
/*
 * plugins/failure-domains/fd_whatif.c — a what-if over one domain value:
 * the nodes and cables it removes, as masks over the model (fd_rules.h),
 * shared by domain-partition and capacity-loss.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fd_rules.h"

void fd_wi_free(fd_whatif *w) {
  free(w->node_off), free(w->link_off), free(w->memb);
}

int fd_wi_init(const fd_model *m, fd_whatif *w) {
  w->node_off = calloc((size_t)m->nn + 1, 1);
  w->link_off = calloc((size_t)m->nl + 1, 1);
  w->memb = malloc(((size_t)m->nn + 1) * sizeof *w->memb);
  if (!w->node_off || !w->link_off || !w->memb)
    return -1;
  memcpy(w->link_off, m->xplane, m->nl);
  return 0;
}

/* Remove (@on) or restore the elements of @dv; cross-plane cables stay
 * removed (see fd_model.xplane). */
void fd_wi_set(const fd_model *m, fd_whatif *w, const fd_value *dv,
               uint8_t on) {
  for (uint32_t i = 0; i < dv->n_nodes; i++)
    w->node_off[m->dom_nodes[dv->node_off + i]] = on;
  for (uint32_t i = 0; i < dv->n_links; i++) {
    fl_id l = m->dom_links[dv->link_off + i];
    w->link_off[l] = on | m->xplane[l];
  }
}

/* 1 when endpoint @e keeps a cable to a node that is still there. */
int fd_keeps_cable(const fd_model *m, const fd_whatif *w, fl_id e) {
  for (uint32_t k = m->off[e]; k < m->off[e + 1]; k++)
    if (!w->link_off[m->lnk[k]] && !w->node_off[m->nbr[k]])
      return 1;
  return 0;
}
