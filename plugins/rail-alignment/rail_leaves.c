/* SPDX-License-Identifier: MIT */
/*
 * plugins/rail-alignment/rail_leaves.c — what a rail leaf holds:
 * rail-alignment.mixed-leaf (NICs of several rails on one leaf) and
 * rail-alignment.port-order (the hosts' NICs in the order of the leaf's
 * ports).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabriclint/json_buf.h"
#include "fabriclint/plugin.h"
#include "rail.h"
#include "rail_rules.h"

/* ---- rail-alignment.mixed-leaf
 * -------------------------------------------------------- */

int check_mixed(const fl_host_api *api, fl_ctx *ctx, void *data) {
  const analysis *a = rl_get_analysis(api, ctx, data);
  if (!a)
    return 1;
  const fl_fabric *f = api->fabric(ctx);
  for (uint32_t L = 0; L < a->n_leaves; L++) {
    const leaf *lf = &a->leaves[L];
    /* with a clear rail, minority NICs are cross-rail findings instead */
    if (lf->n_rails < 2 || lf->rail >= 0)
      continue;
    jbuf ev;
    jb_init(&ev);
    jb_obj_open(&ev);
    jb_key_str(&ev, "leaf", api->node_name(f, lf->node));
    jb_key_int(&ev, "su", lf->su + 1);
    jb_key(&ev, "nics_by_rail");
    jb_obj_open(&ev);
    for (uint32_t r = 0; r < a->n_labels; r++) {
      uint32_t c = 0;
      for (uint32_t k = a->leaf_off[L]; k < a->leaf_off[L + 1]; k++)
        c += a->nics[a->leaf_idx[k]].rail == (int32_t)r;
      if (c)
        jb_key_int(&ev, a->labels[r], c);
    }
    jb_obj_close(&ev);
    jb_obj_close(&ev);
    char msg[512];
    snprintf(msg, sizeof msg,
             "leaf \"%s\" serves NICs of %u rails with no majority (%u compute "
             "NICs): it has no rail to check them against",
             api->node_name(f, lf->node), lf->n_rails, lf->n_compute);
    int rc = report(api, ctx, 0, msg, &lf->node, 1, NULL, 0, jb_str(&ev));
    jb_free(&ev);
    if (rc)
      return rc;
  }
  return 0;
}

/* ---- rail-alignment.port-order
 * ------------------------------------------------------------ */

int check_port_order(const fl_host_api *api, fl_ctx *ctx, void *data) {
  const analysis *a = rl_get_analysis(api, ctx, data);
  if (!a)
    return 1;
  const fl_fabric *f = api->fabric(ctx);
  for (uint32_t L = 0; L < a->n_leaves; L++) {
    const leaf *lf = &a->leaves[L];
    const nic *prev = NULL, *bad_a = NULL, *bad_b = NULL;
    for (uint32_t k = a->leaf_off[L]; k < a->leaf_off[L + 1] && !bad_a; k++) {
      const nic *x = &a->nics[a->leaf_idx[k]];
      if (x->host < 0)
        continue;
      if (prev && prev->host > x->host) {
        bad_a = prev;
        bad_b = x;
      }
      prev = x;
    }
    if (!bad_a)
      continue;
    char msg[700];
    snprintf(msg, sizeof msg,
             "on leaf \"%s\", host \"%s\" (port %u) comes before host \"%s\" "
             "(port %u): cable hosts in host order",
             api->node_name(f, lf->node), a->hosts[bad_a->host],
             bad_a->leaf_port, a->hosts[bad_b->host], bad_b->leaf_port);
    fl_port_ref ports[2] = {{lf->node, bad_a->leaf_port},
                            {lf->node, bad_b->leaf_port}};
    if (report(api, ctx, 0, msg, &lf->node, 1, ports, 2, NULL))
      return 1;
  }
  return 0;
}
