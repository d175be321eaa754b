/* SPDX-License-Identifier: MIT */
/*
 * plugins/rail-alignment/rail_unresolved.c — rail-alignment.unresolved:
 * NICs whose host, device or rail could not be determined, listed rather
 * than guessed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabriclint/json_buf.h"
#include "fabriclint/plugin.h"
#include "rail.h"
#include "rail_rules.h"

/* ---- rail-alignment.unresolved
 * --------------------------------------------------------------- */

int check_unresolved(const fl_host_api *api, fl_ctx *ctx, void *data) {
  const analysis *a = rl_get_analysis(api, ctx, data);
  if (!a)
    return 1;
  const fl_fabric *f = api->fabric(ctx);
  /* one finding per reason */
  const char *reasons[8];
  uint32_t nr = 0;
  for (uint32_t i = 0; i < a->n_nics; i++) {
    const char *why = a->nics[i].unresolved;
    int seen = 0;
    for (uint32_t k = 0; why && k < nr; k++)
      seen |= reasons[k] == why;
    if (why && !seen && nr < 8)
      reasons[nr++] = why;
  }
  for (uint32_t k = 0; k < nr; k++) {
    fl_id nodes[50];
    uint32_t named = 0, total = 0;
    jbuf ev;
    jb_init(&ev);
    jb_obj_open(&ev);
    jb_key_str(&ev, "reason", reasons[k]);
    jb_key(&ev, "nics");
    jb_arr_open(&ev);
    for (uint32_t i = 0; i < a->n_nics; i++)
      if (a->nics[i].unresolved == reasons[k]) {
        total++;
        if (named < 50) {
          nodes[named++] = a->nics[i].node;
          char guid[24];
          snprintf(guid, sizeof guid, "0x%016llx",
                   (unsigned long long)api->node_guid(f, a->nics[i].node));
          jb_obj_open(&ev);
          jb_key_str(&ev, "nic", a->nics[i].name);
          jb_key_str(&ev, "guid", guid);
          jb_key_str(&ev, "leaf", api->node_name(f, a->nics[i].leaf));
          jb_key_int(&ev, "leaf_port", a->nics[i].leaf_port);
          jb_obj_close(&ev);
        }
      }
    jb_arr_close(&ev);
    jb_key_int(&ev, "count", total);
    if (*a->scheme)
      jb_key_str(&ev, "naming_of_other_nics", a->scheme);
    jb_obj_close(&ev);
    const nic *first = NULL;
    for (uint32_t i = 0; i < a->n_nics && !first; i++)
      if (a->nics[i].unresolved == reasons[k])
        first = &a->nics[i];
    char msg[700];
    snprintf(msg, sizeof msg,
             "%u NIC(s) could not be placed on a rail and were not checked, "
             "e.g. \"%s\" on \"%s\" port %u: %s",
             total, first->name, api->node_name(f, first->leaf),
             first->leaf_port, reasons[k]);
    int rc = report(api, ctx, 0, msg, nodes, named, NULL, 0, jb_str(&ev));
    jb_free(&ev);
    if (rc)
      return rc;
  }
  return 0;
}
