/* SPDX-License-Identifier: MIT */
/*
 * acme_uplinks.c — an example third-party fabriclint plugin, built out of
 * tree against the installed SDK only (docs/sdk.md).
 *
 * Rule acme.even-uplinks: every spine takes an even number of uplinks from
 * each pod. ACME's spines pair their uplink ports into bonded port groups
 * per pod; an odd count means a cable is missing (or one too many), so a
 * port group runs degraded. The required multiple is a parameter.
 *
 * What it shows a plugin author:
 *  - one exported symbol (FL_PLUGIN_EXPORT fabriclint_plugin_v1), all else
 *    static, built with -fvisibility=hidden -Wl,-z,defs;
 *  - reading the fabric only through the fl_host_api table;
 *  - a typed parameter with a default, read with param_int();
 *  - a finding with nodes, links (the location), evidence JSON and a stable
 *    key of entity names (baselines and SARIF fingerprints use it);
 *  - no global mutable state: scratch memory lives for one check() call;
 *  - the header-only helpers of <fabriclint/view.h> (here the tier
 *    relation of a cable; the same header has the switch view, uplink
 *    groups, minimal next hops and host -> NIC -> leaf).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <fabriclint/plugin.h>
#include <fabriclint/view.h> /* header-only helpers: tiers, views */

/* Uplinks of one spine from one pod. Pod names are host-owned strings. */
typedef struct pod_count {
  const char *pod;
  uint32_t uplinks;
  fl_id first_link; /* locates the finding on an actual cable */
} pod_count;

static pod_count *count_for(pod_count *v, uint32_t *n, const char *pod) {
  for (uint32_t i = 0; i < *n; i++)
    if (strcmp(v[i].pod, pod) == 0)
      return &v[i];
  v[*n].pod = pod;
  v[*n].uplinks = 0;
  v[*n].first_link = FL_NONE;
  return &v[(*n)++];
}

static int report_odd(const fl_host_api *api, fl_ctx *ctx, const fl_fabric *f,
                      fl_id spine, const pod_count *pc, int64_t multiple) {
  char msg[512], ev[512], key[512];
  const char *name = api->node_name(f, spine);
  snprintf(msg, sizeof msg,
           "spine \"%s\" has %u uplink(s) from pod %s, not a multiple of "
           "%lld: a bonded port group runs degraded",
           name, pc->uplinks, pc->pod, (long long)multiple);
  snprintf(ev, sizeof ev, "{\"pod\":\"%s\",\"uplinks\":%u,\"multiple\":%lld}",
           pc->pod, pc->uplinks, (long long)multiple);
  snprintf(key, sizeof key, "acme.even-uplinks|%s|pod=%s", name, pc->pod);
  fl_finding fd;
  memset(&fd, 0, sizeof fd);
  fd.struct_size = sizeof fd;
  fd.message = msg;
  fd.nodes = &spine;
  fd.n_nodes = 1;
  fd.links = &pc->first_link;
  fd.n_links = pc->first_link != FL_NONE;
  fd.evidence_json = ev;
  fd.key = key;
  return api->report(ctx, &fd);
}

static int check_even_uplinks(const fl_host_api *api, fl_ctx *ctx,
                              void *plugin_data) {
  (void)plugin_data;
  const fl_fabric *f = api->fabric(ctx);
  int64_t tier = 2, multiple = 2;
  if (api->param_int(ctx, "spine-tier", &tier) != FL_OK ||
      api->param_int(ctx, "multiple", &multiple) != FL_OK || multiple < 1) {
    api->fail(ctx, "parameters spine-tier and multiple must be integers, "
                   "multiple at least 1");
    return 1;
  }
  int rc = 0;
  for (fl_id n = 0; n < api->node_count(f) && rc == 0; n++) {
    if (api->node_kind(f, n) != FL_NODE_SWITCH ||
        api->node_tier(f, n) != (uint32_t)tier)
      continue;
    uint32_t nports = api->node_port_count(f, n);
    pod_count *pods = calloc(nports + 1, sizeof *pods);
    if (!pods) {
      api->fail(ctx, "out of memory");
      return 1;
    }
    uint32_t npods = 0;
    fl_id first = api->node_first_port(f, n);
    for (uint32_t k = 0; k < nports; k++) {
      fl_id p = first + k;
      for (uint32_t i = 0; i < api->port_link_count(f, p); i++) {
        fl_id l = api->port_link(f, p, i);
        fl_id peer = api->port_node(f, api->link_other(f, l, p));
        if (api->node_kind(f, peer) != FL_NODE_SWITCH ||
            fl_view_tier_dir(api->node_tier(f, peer), (uint32_t)tier) != 1)
          continue; /* only cables from lower tiers are uplinks */
        const char *pod = api->attr(f, FL_ENT_NODE, peer, "pod");
        pod_count *pc = count_for(pods, &npods, pod ? pod : "-");
        if (pc->first_link == FL_NONE)
          pc->first_link = l;
        pc->uplinks++;
      }
    }
    for (uint32_t i = 0; i < npods && rc == 0; i++)
      if (pods[i].uplinks % (uint64_t)multiple != 0 &&
          report_odd(api, ctx, f, n, &pods[i], multiple) != FL_OK) {
        api->fail(ctx, "could not record a finding");
        rc = 1;
      }
    free(pods);
  }
  return rc;
}

static const fl_param_def P_TIER = {
    sizeof(fl_param_def),
    FL_PARAM_INT,
    "spine-tier",
    "2",
    NULL,
    "tier of the switches whose uplinks are counted (leaves are tier 1)",
    "1",
    "255"};
static const fl_param_def P_MULTIPLE = {
    sizeof(fl_param_def),
    FL_PARAM_INT,
    "multiple",
    "2",
    "cables",
    "uplinks from one pod to one spine must be a multiple of this",
    "1",
    "64"};
static const fl_param_def *const PARAMS[] = {&P_TIER, &P_MULTIPLE};

static const fl_rule_def RULE_EVEN_UPLINKS = {
    sizeof(fl_rule_def),
    FL_SEV_WARNING,
    "acme.even-uplinks",
    "every spine takes an even number of uplinks from each pod",
    "ACME spines bond uplink ports in pairs per pod. A spine that takes an "
    "odd number of cables from one pod runs a bonded group degraded.\n\n"
    "Fix: add or remove the cable the finding points at, or set "
    "`acme.even-uplinks.multiple` to your bonding width.",
    1 /* enabled by default */,
    FL_NEEDS_DESIGN,
    PARAMS,
    2,
    check_even_uplinks};

static const fl_rule_def *const RULES[] = {&RULE_EVEN_UPLINKS};

static const fl_plugin_desc DESC = {sizeof(fl_plugin_desc),
                                    FL_ABI_MAJOR,
                                    FL_ABI_MINOR,
                                    1,
                                    "acme",
                                    "1.0.0",
                                    "ACME Networks (example)",
                                    "MIT",
                                    NULL,
                                    NULL,
                                    RULES};

FL_PLUGIN_EXPORT const fl_plugin_desc *fabriclint_plugin_v1(void) {
  return &DESC;
}
