/* SPDX-License-Identifier: MIT */
/*
 * plugins/failure-domains/failure_domains.c — no single rack, PDU, feed or
 * switch may take down a pod (rule id prefix `failure-domains`).
 *
 * Architects spread spines and planes over power feeds, PDUs, racks and
 * rows so that one failure costs a slice of bandwidth, never connectivity
 * (docs/rules/failure-domains.md: FD-1 never partition, FD-2
 * no halving, FD-3/FD-4 spread over power and racks, FD-5 cross-pod). These
 * rules check that the plan really does:
 *
 *  single-point      a switch (articulation point) or cable (bridge) whose
 *                    loss disconnects hosts from each other; one Tarjan DFS
 *                    of our own, O(V + E), which also yields the pieces;
 *  domain-partition  removing every element of one domain value (pdu=A3)
 *                    disconnects the hosts outside it; components_masked
 *                    per value, O(V + E) each;
 *  capacity-loss     removing one domain value cuts a pod's leaf uplinks,
 *                    core uplinks or bisection (max flow between its leaf
 *                    halves) by more than max-loss; only the pods the value
 *                    touches are re-evaluated, in O(pod);
 *  spine-spread      the spines/cores of a group sit in fewer distinct
 *                    feeds / PDUs / racks than required;
 *  dual-homing       a host's redundant ports (dual-port HCA, two NICs of
 *                    one rail, two planes) land on one switch or one domain;
 *  plane-crossing    a cable joins two planes meant to be isolated;
 *  pod-isolation     pods joined other than through the declared tier.
 *
 * One file per rule (fd_single.c, fd_partition.c, fd_capacity.c,
 * fd_spread.c, fd_dual.c, blast.c; plane-crossing and pod-isolation, the
 * two small ones, are here), over one model (fd_model.c) and the helpers of
 * fd_rules.h; this file lists the descriptors and the shared parameters.
 *
 * "Hosts" are endpoints: CA nodes other than SHARP Aggregation Nodes.
 * Connectivity is judged per endpoint within its original component, so a
 * two-plane fabric (two components by design) is judged plane by plane.
 * With allow-single-homed (default), an endpoint whose every cable ends on
 * the failed element is lost *with* it (a rail leaf takes its rail on its
 * hosts: degradation, FD-1), not reported as cut off.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabriclint/json_buf.h"
#include "fabriclint/view.h"
#include "fd_rules.h"

/* ---- failure-domains.plane-crossing
 * ------------------------------------------------- */

static int plane_isolated(const char *list, const char *plane) {
  if (strcmp(list, "*") == 0)
    return 1;
  size_t n = strlen(plane);
  for (const char *s = list; *s;) {
    while (*s == ',' || *s == ' ')
      s++;
    size_t len = strcspn(s, ", ");
    if (len == n && strncmp(s, plane, n) == 0)
      return 1;
    s += len;
  }
  return 0;
}

static int check_plane_crossing(const fl_host_api *api, fl_ctx *ctx, void *pd) {
  fd_state *st = pd;
  fd_model *m = fd_get_model(api, ctx, st, NULL);
  if (!m)
    return 1;
  const fl_fabric *f = m->fab;
  const char *iso = fd_param_str(api, ctx, "isolated-planes", "*");
  int rc = 0;
  for (fl_id l = 0; l < m->nl && !rc; l++) {
    fl_id pa = api->link_port(f, l, 0), pb = api->link_port(f, l, 1);
    const char *a = fd_port_attr(api, f, pa, "plane"),
               *b = fd_port_attr(api, f, pb, "plane");
    if (!a || !b || strcmp(a, b) == 0 || !plane_isolated(iso, a) ||
        !plane_isolated(iso, b))
      continue;
    fl_port_ref ports[2] = {{api->port_node(f, pa), api->port_num(f, pa)},
                            {api->port_node(f, pb), api->port_num(f, pb)}};
    fl_id ids[2] = {ports[0].node, ports[1].node};
    char msg[1024];
    snprintf(msg, sizeof msg,
             "cable %s port %u <-> %s port %u joins plane %s to plane %s; the "
             "planes are meant to be isolated (one plane's failure or "
             "misrouting then reaches the other)",
             api->node_name(f, ids[0]), ports[0].port,
             api->node_name(f, ids[1]), ports[1].port, a, b);
    jbuf ev;
    jb_init(&ev);
    jb_obj_open(&ev);
    jb_key_str(&ev, "plane_a", a);
    jb_key_str(&ev, "plane_b", b);
    jb_obj_close(&ev);
    rc = fd_report(api, ctx, msg, ids, 2, ports, 2, &l, 1, jb_str(&ev));
    jb_free(&ev);
  }
  return rc;
}

/* ---- failure-domains.pod-isolation
 * -------------------------------------------------- */

static const char *pod_attr(const fl_host_api *api, const fl_fabric *f,
                            fl_id v) {
  const char *s = api->attr(f, FL_ENT_NODE, v, "pod");
  if (!s || !*s)
    s = api->attr(f, FL_ENT_NODE, v, "su");
  return s && *s ? s : NULL;
}

static int check_pod_isolation(const fl_host_api *api, fl_ctx *ctx, void *pd) {
  fd_state *st = pd;
  fd_model *m = fd_get_model(api, ctx, st, NULL);
  if (!m)
    return 1;
  const fl_fabric *f = m->fab;
  int64_t pod_tier = 0;
  if (api->param_int(ctx, "pod-tier", &pod_tier) != FL_OK)
    pod_tier = 0;
  uint32_t tier_ok = pod_tier > 0 ? (uint32_t)pod_tier
                     : m->top_tier != FL_TIER_UNKNOWN && m->top_tier >= 3
                         ? m->top_tier
                         : FL_TIER_UNKNOWN;
  int rc = 0;
  for (fl_id l = 0; l < m->nl && !rc; l++) {
    fl_id pa = api->link_port(f, l, 0), pb = api->link_port(f, l, 1);
    fl_id a = api->port_node(f, pa), b = api->port_node(f, pb);
    if (!m->sw[a] || !m->sw[b])
      continue;
    const char *qa = pod_attr(api, f, a), *qb = pod_attr(api, f, b);
    if (!qa || !qb || strcmp(qa, qb) == 0)
      continue;
    if (tier_ok != FL_TIER_UNKNOWN &&
        ((m->tier[a] != FL_TIER_UNKNOWN && m->tier[a] >= tier_ok) ||
         (m->tier[b] != FL_TIER_UNKNOWN && m->tier[b] >= tier_ok)))
      continue;
    /* name the lower end first: "leaf X reaches a spine of pod Y" */
    int swap = m->tier[b] < m->tier[a];
    fl_id lo = swap ? b : a, hi = swap ? a : b;
    fl_id plo = swap ? pb : pa, phi = swap ? pa : pb;
    const char *qlo = swap ? qb : qa, *qhi = swap ? qa : qb;
    fl_port_ref ports[2] = {{lo, api->port_num(f, plo)},
                            {hi, api->port_num(f, phi)}};
    fl_id ids[2] = {lo, hi};
    char tiers[64], msg[1024];
    if (tier_ok != FL_TIER_UNKNOWN)
      snprintf(tiers, sizeof tiers, "only through tier %u", tier_ok);
    else
      snprintf(tiers, sizeof tiers, "only through switches of no pod");
    snprintf(
        msg, sizeof msg,
        "%s \"%s\" of pod %s is cabled (port %u) to \"%s\" port %u of pod %s; "
        "pods may connect %s",
        m->tier[lo] == 1 ? "leaf" : "switch", api->node_name(f, lo), qlo,
        ports[0].port, api->node_name(f, hi), ports[1].port, qhi, tiers);
    jbuf ev;
    jb_init(&ev);
    jb_obj_open(&ev);
    jb_key_str(&ev, "pod_a", qlo);
    jb_key_str(&ev, "pod_b", qhi);
    jb_key_int(&ev, "tier_a", m->tier[lo]);
    jb_key_int(&ev, "tier_b", m->tier[hi]);
    if (tier_ok != FL_TIER_UNKNOWN)
      jb_key_int(&ev, "inter_pod_tier", tier_ok);
    jb_obj_close(&ev);
    rc = fd_report(api, ctx, msg, ids, 2, ports, 2, &l, 1, jb_str(&ev));
    jb_free(&ev);
  }
  return rc;
}

/* ---- descriptors
 * ------------------------------------------------------------------- */

static int fd_init(const fl_host_api *api, void **data) {
  fd_state *st = calloc(1, sizeof *st);
  if (!st)
    return 1;
  st->api = api;
  *data = st;
  return 0;
}

static void fd_fini(void *data) {
  fd_state *st = data;
  if (st)
    fd_model_free(st->m);
  free(st);
}

const fl_param_def FD_P_SINGLE = {
    sizeof(fl_param_def),
    FL_PARAM_BOOL,
    "allow-single-homed",
    "1",
    NULL,
    "a host whose every cable ends on the failed element is lost with it "
    "(degradation), not reported as cut off; 0 counts it",
    NULL,
    NULL};
const fl_param_def FD_P_DOMAINS = {
    sizeof(fl_param_def),
    FL_PARAM_STRING,
    "domains",
    FD_DEFAULT_DOMAINS,
    NULL,
    "comma-separated attribute keys whose values are failure domains; every "
    "node and cable carrying one value is removed together",
    NULL,
    NULL};
static const fl_param_def P_PLANES = {sizeof(fl_param_def),
                                      FL_PARAM_STRING,
                                      "isolated-planes",
                                      "*",
                                      NULL,
                                      "comma-separated planes meant to be "
                                      "isolated from each other, or * for all",
                                      NULL,
                                      NULL};
static const fl_param_def P_PODTIER = {
    sizeof(fl_param_def),
    FL_PARAM_INT,
    "pod-tier",
    "0",
    NULL,
    "the tier through which pods connect (0: the top switch tier when it is 3 "
    "or more; else only switches without a pod)",
    "0",
    "255"};

static const fl_param_def *const PARAMS_PLANES[] = {&P_PLANES};
static const fl_param_def *const PARAMS_POD[] = {&P_PODTIER};

#define RULE(var, sev, rid, summ, hlp, fn, prm)                                \
  static const fl_rule_def var = {sizeof(fl_rule_def),                         \
                                  sev,                                         \
                                  rid,                                         \
                                  summ,                                        \
                                  hlp,                                         \
                                  1,                                           \
                                  FL_NEEDS_ALL_PLANES,                         \
                                  prm,                                         \
                                  sizeof prm / sizeof *prm,                    \
                                  fn}

RULE(R_PLANES, FL_SEV_ERROR, "failure-domains.plane-crossing",
     "a cable joins two planes that are meant to be isolated",
     "The plane of a cable end is its port's `plane`, else its node's. A "
     "cable whose ends are in two different isolated planes is reported.",
     check_plane_crossing, PARAMS_PLANES);
RULE(R_POD, FL_SEV_ERROR, "failure-domains.pod-isolation",
     "pods connect other than through the declared tier",
     "A cable between switches of two pods (attribute pod, else su) is "
     "allowed only when one end is at pod-tier or above; a leaf cabled to "
     "another pod's spine is the usual case.",
     check_pod_isolation, PARAMS_POD);

static const fl_rule_def *const RULES[] = {
    &FD_R_SINGLE, &FD_R_PART, &FD_R_BLAST, &FD_R_CAP,    &FD_R_SPREAD,
    &FD_R_DUAL,   &R_PLANES,  &R_POD,      &FD_R_SUMMARY};

static const fl_plugin_desc DESC = {sizeof(fl_plugin_desc),
                                    FL_ABI_MAJOR,
                                    FL_ABI_MINOR,
                                    sizeof RULES / sizeof *RULES,
                                    "failure-domains",
                                    "0.1.0",
                                    "fabriclint",
                                    "MIT",
                                    fd_init,
                                    fd_fini,
                                    RULES};

FL_PLUGIN_EXPORT const fl_plugin_desc *fabriclint_plugin_v1(void) {
  return &DESC;
}
