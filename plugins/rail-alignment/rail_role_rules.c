/* SPDX-License-Identifier: MIT */
/*
 * plugins/rail-alignment/rail_role_rules.c — the rules on host roles:
 * rail-alignment.roles (the roles guessed for hosts that say none,
 * rail_roles.c) and rail-alignment.unknown-role (role values neither
 * compute nor a documented service role).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabriclint/json_buf.h"
#include "fabriclint/plugin.h"
#include "fabriclint/roles.h"
#include "rail.h"
#include "rail_rules.h"

/* ---- rail-alignment.roles ------------------------------------------------
 */

int check_roles(const fl_host_api *api, fl_ctx *ctx, void *data) {
  const analysis *a = rl_get_analysis(api, ctx, data);
  if (!a)
    return 1;
  const fl_fabric *f = api->fabric(ctx);
  fl_id *nodes = calloc(a->n_nics + 1, sizeof *nodes);
  uint8_t *seen = calloc(a->n_hosts + 1, 1);
  if (!nodes || !seen) {
    free(nodes), free(seen);
    api->fail(ctx, "out of memory");
    return 1;
  }
  char list[512] = "";
  size_t off = 0;
  uint32_t nn = 0, hosts = 0;
  jbuf ev;
  jb_init(&ev);
  jb_obj_open(&ev);
  jb_key(&ev, "hosts");
  jb_arr_open(&ev);
  for (uint32_t i = 0; i < a->n_nics; i++) {
    const nic *x = &a->nics[i];
    if (!x->role_guessed)
      continue;
    nodes[nn++] = x->node;
    const char *host = api->node_system(f, x->node);
    if (x->host < 0 || seen[x->host])
      continue;
    seen[x->host] = 1;
    hosts++;
    jb_obj_open(&ev);
    jb_key_str(&ev, "host", host);
    jb_key_str(&ev, "role", x->role);
    jb_obj_close(&ev);
    if (hosts <= 8 && off < sizeof list)
      off += (size_t)snprintf(list + off, sizeof list - off, "%s%s (%s)",
                              off ? ", " : "", host, x->role);
  }
  jb_arr_close(&ev);
  jb_obj_close(&ev);
  int rc = 0;
  if (hosts) {
    char msg[900];
    snprintf(msg, sizeof msg,
             "%u host(s) taken as non-compute by a guess from their name or "
             "NIC count, so rail rules leave them alone: %s%s; give role= "
             "attributes to decide otherwise",
             hosts, list, hosts > 8 ? ", ..." : "");
    rc = report(api, ctx, 0, msg, nodes, nn, NULL, 0, jb_str(&ev));
  }
  jb_free(&ev);
  free(nodes), free(seen);
  return rc;
}

/* ---- rail-alignment.unknown-role ---------------------------------------
 * One warning per unknown role value (neither in compute-roles nor a
 * documented service role, roles.h), naming the value and its hosts: such
 * hosts are judged as compute hosts (the default role), never silently
 * left out. */

/* A NIC with an unknown role, as sorted: by role, then host, then node. */
typedef struct role_nic {
  const char *role;
  int32_t host;
  fl_id node;
} role_nic;

static int cmp_role_nic(const void *x, const void *y) {
  const role_nic *a = x, *b = y;
  int c = strcmp(a->role, b->role);
  if (c)
    return c;
  if (a->host != b->host)
    return a->host < b->host ? -1 : 1;
  return a->node < b->node ? -1 : a->node > b->node;
}

/* The finding for the NICs v[0..n) (one role value, sorted by host). */
static int report_unknown_role(const fl_host_api *api, fl_ctx *ctx,
                               const analysis *a, const role_nic *v, uint32_t n,
                               fl_id *nodes) {
  const char *role = v[0].role;
  char list[512] = "";
  size_t off = 0;
  uint32_t hosts = 0, nn = 0;
  jbuf ev;
  jb_init(&ev);
  jb_obj_open(&ev);
  jb_key_str(&ev, "role", role);
  jb_key(&ev, "hosts");
  jb_arr_open(&ev);
  for (uint32_t k = 0; k < n; k++) {
    if (nn == 0 || nodes[nn - 1] != v[k].node)
      nodes[nn++] = v[k].node;
    if (k > 0 && v[k - 1].host == v[k].host)
      continue;
    hosts++;
    jb_str_item(&ev, a->hosts[v[k].host]);
    if (hosts <= 8 && off < sizeof list)
      off += (size_t)snprintf(list + off, sizeof list - off, "%s%s",
                              off ? ", " : "", a->hosts[v[k].host]);
  }
  jb_arr_close(&ev);
  jb_key_int(&ev, "count", hosts);
  jb_key_str(&ev, "treated_as", "compute");
  jb_obj_close(&ev);
  char msg[1200];
  snprintf(msg, sizeof msg,
           "role \"%s\" of %u host(s) is not a known role: %s%s; they are "
           "judged as compute hosts (the default role). If they are GPU "
           "compute hosts, add \"%s\" to compute-roles; if not, give a "
           "service role (" FL_SERVICE_ROLES ")",
           role, hosts, list, hosts > 8 ? ", ..." : "", role);
  int rc = report(api, ctx, 0, msg, nodes, nn, NULL, 0, jb_str(&ev));
  jb_free(&ev);
  return rc;
}

int check_unknown_role(const fl_host_api *api, fl_ctx *ctx, void *data) {
  const analysis *a = rl_get_analysis(api, ctx, data);
  if (!a)
    return 1;
  role_nic *v = calloc(a->n_nics + 1, sizeof *v);
  fl_id *nodes = calloc(a->n_nics + 1, sizeof *nodes);
  if (!v || !nodes) {
    free(v), free(nodes);
    api->fail(ctx, "out of memory");
    return 1;
  }
  uint32_t n = 0;
  for (uint32_t i = 0; i < a->n_nics; i++)
    if (a->nics[i].role_unknown && a->nics[i].host >= 0)
      v[n++] = (role_nic){a->nics[i].role, a->nics[i].host, a->nics[i].node};
  if (n > 1)
    qsort(v, n, sizeof *v, cmp_role_nic);
  int rc = 0;
  for (uint32_t s = 0, e; s < n && !rc; s = e) {
    for (e = s + 1; e < n && strcmp(v[e].role, v[s].role) == 0; e++)
      ;
    rc = report_unknown_role(api, ctx, a, v + s, e - s, nodes);
  }
  free(v), free(nodes);
  return rc;
}
