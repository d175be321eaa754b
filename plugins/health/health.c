/* SPDX-License-Identifier: MIT */
/*
 * plugins/health/health.c — the `health` rule plugin: port counters of the
 * running fabric (perfquery, ibqueryerrors, ibdiagnet2.pm, an
 * infiniband_exporter scrape; fabriclint/counters.h) read next to the
 * design and the routing.
 *
 * Why: the tools that show counters show them per port. The question an
 * architect of a running cluster asks is about cables and routes: which
 * cable must a technician replace (both ends, the plan's cable id), and is
 * the congestion we see the ECMP imbalance the model predicts (a design or
 * routing problem) or something the model does not know (a cable, a job
 * placement, traffic outside the model). Rules (docs/rules/health.md):
 *
 *   health.link-errors        a cable whose error counters (symbol errors,
 *                             link error recovery, link downed, receive
 *                             errors, local link integrity) exceed their
 *                             thresholds at either end: totals with one
 *                             snapshot, per hour with two
 *   health.congestion         a port holding at least min-share of the
 *                             fabric's PortXmitWait, classed against the
 *                             link loads of the ecmp-balance traffic model
 *                             (all-to-all, LFT or ECMP routing):
 *                             predicted-and-observed or observed-not-predicted
 *   health.degraded-and-erroring
 *                             a cable below the width or speed of its tier
 *                             pair (as topology.degraded-link judges) that
 *                             also counts errors
 *   health.counter-mapping    counter records naming ports the topology
 *                             lacks, cables with no counters at either end
 *                             (when the capture lists every port it read),
 *                             and what the loaders skipped
 *
 * The prediction is the ecmp-balance plugin's own model: this plugin builds
 * plugins/ecmp-balance/traffic.c into its .so (CMakeLists.txt), so both
 * report the same hot links. Without counters every rule is silent. On a
 * multi-plane fabric every rule runs per plane, on the plane's subset with
 * its ports' counters (fl_fabric_plane_subset()): the congestion model
 * routes one plane's LIDs.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabriclint/counters.h"
#include "fabriclint/json_buf.h"
#include "fabriclint/plugin.h"
#include "fabriclint/threads.h"
#include "fabriclint/view.h"
#include "traffic.h"

typedef struct hl_state {
  fl_fabric_key key; /* the fabric the view is of */
  fl_view v;
  int have_view, have_min;
} hl_state;

static int hl_init(const fl_host_api *api, void **data) {
  (void)api;
  hl_state *st = calloc(1, sizeof *st);
  if (!st)
    return 1;
  *data = st;
  return 0;
}

static void hl_fini(void *data) {
  hl_state *st = data;
  if (st && st->have_view)
    fl_view_free(&st->v);
  free(st);
}

/* Counters loaded (and a host that can tell)? */
static int have_counters(const fl_host_api *api, const fl_fabric *f) {
  return FL_API_HAS(api, counter_name) && api->counter_snapshots(f) > 0;
}

static int64_t pint(const fl_host_api *api, fl_ctx *ctx, const char *name,
                    int64_t def) {
  int64_t v;
  return api->param_int(ctx, name, &v) == FL_OK ? v : def;
}

static double pdbl(const fl_host_api *api, fl_ctx *ctx, const char *name,
                   double def) {
  double v;
  return api->param_double(ctx, name, &v) == FL_OK ? v : def;
}

/* ---- counters of one port --------------------------------------------------
 */

/* The error counters that mark a bad cable, with their parameter names
 * (defaults: infiniband-diags' error_thresholds, 10 each). */
static const struct {
  uint32_t ctr;
  const char *param;
} ERRS[] = {{FL_CTR_SYMBOL_ERRORS, "symbol-errors"},
            {FL_CTR_LINK_ERROR_RECOVERY, "link-error-recovery"},
            {FL_CTR_LINK_DOWNED, "link-downed"},
            {FL_CTR_RCV_ERRORS, "rcv-errors"},
            {FL_CTR_LOCAL_LINK_INTEGRITY, "local-link-integrity"}};
#define N_ERRS (sizeof ERRS / sizeof *ERRS)

/* One counter of one port, as judged: @amount is the total (one snapshot)
 * or the change per hour (two). */
typedef struct obs {
  fl_id port;
  uint32_t ctr;
  uint64_t value, delta;
  uint32_t flags;
  double amount;
} obs;

/* Read counter @ctr of port @p: 0 when absent. */
static int observe(const fl_host_api *api, const fl_fabric *f, fl_id p,
                   uint32_t ctr, obs *o) {
  memset(o, 0, sizeof *o);
  o->port = p;
  o->ctr = ctr;
  o->flags = api->port_counter(f, p, ctr, &o->value, &o->delta);
  if (!(o->flags & FL_CTRV_VALUE))
    return 0;
  double iv = api->counter_interval(f);
  if (api->counter_snapshots(f) == 2) {
    if (!(o->flags & FL_CTRV_DELTA) || iv <= 0)
      return 0; /* only in one snapshot: no rate */
    o->amount = (double)o->delta * 3600.0 / iv;
  } else {
    o->amount = (double)o->value;
  }
  return 1;
}

static void port_text(const fl_host_api *api, const fl_fabric *f, fl_id p,
                      char *buf, size_t size) {
  snprintf(buf, size, "%s port %u", api->node_name(f, api->port_node(f, p)),
           api->port_num(f, p));
}

/* "A port 3 <-> B port 7 (cable C-12)" */
static void cable_text(const fl_host_api *api, const fl_fabric *f, fl_id l,
                       char *buf, size_t size) {
  char a[300], b[300];
  port_text(api, f, api->link_port(f, l, 0), a, sizeof a);
  port_text(api, f, api->link_port(f, l, 1), b, sizeof b);
  const char *id = api->attr(f, FL_ENT_LINK, l, "cable");
  if (id)
    snprintf(buf, size, "cable %s (%s <-> %s)", id, a, b);
  else
    snprintf(buf, size, "cable %s <-> %s", a, b);
}

static void obs_text(const fl_host_api *api, const fl_fabric *f, const obs *o,
                     char *buf, size_t size) {
  char where[300];
  port_text(api, f, o->port, where, sizeof where);
  if (api->counter_snapshots(f) == 2)
    snprintf(buf, size, "%s +%llu (%.4g per hour%s) at %s",
             api->counter_name(o->ctr), (unsigned long long)o->delta, o->amount,
             (o->flags & FL_CTRV_RESET) ? ", counter reset between "
                                          "the snapshots"
                                        : "",
             where);
  else
    snprintf(buf, size, "%s %llu%s at %s", api->counter_name(o->ctr),
             (unsigned long long)o->value,
             (o->flags & FL_CTRV_SATURATED) ? " (saturated: at least)" : "",
             where);
}

static void obs_json(const fl_host_api *api, const fl_fabric *f, const obs *o,
                     int64_t threshold, jbuf *ev) {
  jb_obj_open(ev);
  jb_key_str(ev, "node", api->node_name(f, api->port_node(f, o->port)));
  jb_key_int(ev, "port", api->port_num(f, o->port));
  jb_key_str(ev, "counter", api->counter_name(o->ctr));
  jb_key_int(ev, "value", (int64_t)o->value);
  if (o->flags & FL_CTRV_DELTA) {
    jb_key_int(ev, "delta", (int64_t)o->delta);
    jb_key_double(ev, "per_hour", o->amount);
  }
  jb_key_bool(ev, "saturated", (o->flags & FL_CTRV_SATURATED) != 0);
  jb_key_bool(ev, "reset", (o->flags & FL_CTRV_RESET) != 0);
  if (threshold >= 0)
    jb_key_int(ev, "threshold", threshold);
  jb_obj_close(ev);
}

/* Links between a switch and a SHARP Aggregation Node are internal to the
 * switch: no cable to replace. */
static int internal_link(const fl_host_api *api, const fl_fabric *f, fl_id l) {
  fl_id a = api->port_node(f, api->link_port(f, l, 0));
  fl_id b = api->port_node(f, api->link_port(f, l, 1));
  return fl_view_is_sharp_an(api, f, a) || fl_view_is_sharp_an(api, f, b);
}

/* The counters of cable @l beyond @thr (per ERRS; NULL: beyond @min_all),
 * into @out (room for 2 * N_ERRS). */
static uint32_t cable_errors(const fl_host_api *api, const fl_fabric *f,
                             fl_id l, const int64_t *thr, double min_all,
                             obs *out) {
  uint32_t n = 0;
  for (uint32_t end = 0; end < 2; end++) {
    fl_id p = api->link_port(f, l, end);
    if (p == FL_NONE || (end == 1 && p == api->link_port(f, l, 0)))
      continue;
    for (uint32_t k = 0; k < N_ERRS; k++) {
      obs o;
      if (!observe(api, f, p, ERRS[k].ctr, &o))
        continue;
      if (thr ? o.amount > (double)thr[k] : o.amount >= min_all)
        out[n++] = o;
    }
  }
  return n;
}

static int emit_cable(const fl_host_api *api, fl_ctx *ctx, const fl_fabric *f,
                      fl_id l, const char *lead, const char *tail, const obs *o,
                      uint32_t n, const int64_t *thr, const char *extra_key,
                      const char *extra_val) {
  char cable[700], msg[1600], item[400];
  cable_text(api, f, l, cable, sizeof cable);
  int len = snprintf(msg, sizeof msg, "%s%s: ", lead, cable);
  for (uint32_t i = 0; i < n && len > 0 && (size_t)len < sizeof msg; i++) {
    obs_text(api, f, &o[i], item, sizeof item);
    len += snprintf(msg + len, sizeof msg - (size_t)len, "%s%s", i ? "; " : "",
                    item);
  }
  if (len > 0 && (size_t)len < sizeof msg)
    snprintf(msg + len, sizeof msg - (size_t)len, "%s", tail);
  jbuf ev;
  jb_init(&ev);
  jb_obj_open(&ev);
  const char *id = api->attr(f, FL_ENT_LINK, l, "cable");
  if (id)
    jb_key_str(&ev, "cable", id);
  jb_key_int(&ev, "snapshots", api->counter_snapshots(f));
  if (api->counter_snapshots(f) == 2)
    jb_key_double(&ev, "interval_s", api->counter_interval(f));
  if (extra_key)
    jb_key_str(&ev, extra_key, extra_val);
  jb_key(&ev, "counters");
  jb_arr_open(&ev);
  for (uint32_t i = 0; i < n; i++) {
    int64_t t = -1;
    for (uint32_t k = 0; thr && k < N_ERRS; k++)
      if (ERRS[k].ctr == o[i].ctr)
        t = thr[k];
    obs_json(api, f, &o[i], t, &ev);
  }
  jb_arr_close(&ev);
  jb_obj_close(&ev);
  fl_port_ref ports[2];
  fl_id nodes[2];
  for (uint32_t e = 0; e < 2; e++) {
    fl_id p = api->link_port(f, l, e);
    nodes[e] = ports[e].node = api->port_node(f, p);
    ports[e].port = api->port_num(f, p);
  }
  int rc = fl_emit(api, ctx, 0, msg, nodes, 2, ports, 2, &l, 1, jb_str(&ev));
  jb_free(&ev);
  return rc;
}

/* ---- health.link-errors
 * ------------------------------------------------------ */

static int thresholds(const fl_host_api *api, fl_ctx *ctx, int64_t *thr) {
  for (uint32_t k = 0; k < N_ERRS; k++)
    thr[k] = pint(api, ctx, ERRS[k].param, 10);
  return 0;
}

/* A host reboot, not a cable (outside tester: a real NDR fabric's 194
 * "replace the cable" warnings): a host that reboots or reloads its driver
 * takes its link down, which the switch port's LinkDownedCounter counts,
 * while the HCA's counters start again from 0. So a switch-to-CA cable
 * whose only counters over threshold are LinkDownedCounter at the switch
 * end, whose CA end was read and shows LinkDownedCounter 0, and which has
 * no symbol, link-recovery, receive or link-integrity error at either end
 * is the reboot pattern. A cable that flaps while its host stays up counts
 * at both ends (the CA's LinkDownedCounter 1 or more), and any physical
 * error keeps it a cable finding. @o/@n: the counters over threshold. */
static int reboot_pattern(const fl_host_api *api, const fl_fabric *f, fl_id l,
                          const obs *o, uint32_t n) {
  fl_id sw = FL_NONE, ca = FL_NONE;
  for (uint32_t e = 0; e < 2; e++) {
    fl_id p = api->link_port(f, l, e);
    uint32_t k = api->node_kind(f, api->port_node(f, p));
    if (k == FL_NODE_SWITCH)
      sw = p;
    else if (k == FL_NODE_CA)
      ca = p;
  }
  if (sw == FL_NONE || ca == FL_NONE)
    return 0;
  for (uint32_t i = 0; i < n; i++)
    if (o[i].ctr != FL_CTR_LINK_DOWNED || o[i].port != sw)
      return 0;
  obs c;
  if (!observe(api, f, ca, FL_CTR_LINK_DOWNED, &c) || c.amount > 0)
    return 0; /* the CA end unread, or it saw the link drop too */
  for (uint32_t e = 0; e < 2; e++)
    for (uint32_t k = 0; k < N_ERRS; k++) {
      obs x;
      if (ERRS[k].ctr != FL_CTR_LINK_DOWNED &&
          observe(api, f, e ? ca : sw, ERRS[k].ctr, &x) && x.amount > 0)
        return 0;
    }
  return 1;
}

/* One info finding for the cables of the reboot pattern (@ids, @n of them;
 * the first MAX_REBOOT_NAMED named). */
#define MAX_REBOOT_NAMED 16
static int emit_reboots(const fl_host_api *api, fl_ctx *ctx, const fl_fabric *f,
                        const fl_id *ids, uint32_t n) {
  fl_id nodes[MAX_REBOOT_NAMED];
  uint32_t nn = 0;
  jbuf ev;
  jb_init(&ev);
  jb_obj_open(&ev);
  jb_key_int(&ev, "cables", n);
  jb_key(&ev, "hosts");
  jb_arr_open(&ev);
  for (uint32_t i = 0; i < n; i++) {
    fl_id a = api->port_node(f, api->link_port(f, ids[i], 0));
    fl_id b = api->port_node(f, api->link_port(f, ids[i], 1));
    fl_id h = api->node_kind(f, a) == FL_NODE_CA ? a : b;
    if (i < MAX_REBOOT_NAMED)
      jb_str_item(&ev, api->node_name(f, h)), nodes[nn++] = h;
  }
  jb_arr_close(&ev);
  jb_obj_close(&ev);
  char msg[700];
  snprintf(msg, sizeof msg,
           "%u host cable(s) went down only as seen from the switch "
           "(LinkDownedCounter over its threshold at the switch port, 0 at "
           "the HCA, no symbol, recovery, receive or integrity error at "
           "either end), e.g. at \"%s\": the pattern of host reboots or "
           "driver restarts, which clear the HCA's counters, not of a bad "
           "cable; not reported as erroring cables",
           n, api->node_name(f, nodes[0]));
  int rc = fl_emit(api, ctx, FL_SEV_INFO, msg, nodes, nn, NULL, 0, NULL, 0,
                   jb_str(&ev));
  jb_free(&ev);
  return rc;
}

static int check_link_errors(const fl_host_api *api, fl_ctx *ctx, void *pd) {
  (void)pd;
  const fl_fabric *f = api->fabric(ctx);
  if (!have_counters(api, f))
    return 0;
  int64_t thr[N_ERRS];
  thresholds(api, ctx, thr);
  fl_id *reboots = NULL;
  uint32_t n_reboots = 0, cap_reboots = 0;
  const char *tail = api->counter_snapshots(f) == 2
                         ? " (thresholds per hour); inspect, reseat or "
                           "replace the cable"
                         : " (thresholds on totals since the counters were "
                           "cleared); inspect, reseat or replace the cable";
  obs o[2 * N_ERRS];
  for (fl_id l = 0; l < api->link_count(f); l++) {
    if (internal_link(api, f, l))
      continue;
    uint32_t n = cable_errors(api, f, l, thr, 0, o);
    if (n && reboot_pattern(api, f, l, o, n)) {
      if (n_reboots == cap_reboots) {
        cap_reboots = cap_reboots ? 2 * cap_reboots : 64;
        fl_id *g = realloc(reboots, cap_reboots * sizeof *g);
        if (!g) {
          free(reboots);
          api->fail(ctx, "out of memory");
          return 1;
        }
        reboots = g;
      }
      reboots[n_reboots++] = l;
      continue;
    }
    if (n &&
        emit_cable(api, ctx, f, l, "erroring ", tail, o, n, thr, NULL, NULL)) {
      free(reboots);
      return 1;
    }
  }
  int rc = n_reboots ? emit_reboots(api, ctx, f, reboots, n_reboots) : 0;
  free(reboots);
  return rc;
}

/* ---- health.degraded-and-erroring
 * ------------------------------------------------ */

/* Tier-pair group of link @l (as topology.degraded-link groups). */
#define GROUPS 16
static uint32_t group_of(const fl_host_api *api, const fl_fabric *f, fl_id l) {
  uint32_t ta = api->node_tier(f, api->port_node(f, api->link_port(f, l, 0)));
  uint32_t tb = api->node_tier(f, api->port_node(f, api->link_port(f, l, 1)));
  if (ta > 3 || tb > 3)
    return GROUPS - 1;
  uint32_t lo = ta < tb ? ta : tb, hi = ta < tb ? tb : ta;
  return lo * 4 + hi;
}

/* Most common index of @v (ties: the largest, the wider or faster). */
static uint32_t mode_of(const uint32_t *v, uint32_t n) {
  uint32_t best = 0;
  for (uint32_t i = 1; i < n; i++)
    if (v[i] && v[i] >= v[best])
      best = i;
  return v[best] ? best : 0;
}

static int check_degraded(const fl_host_api *api, fl_ctx *ctx, void *pd) {
  (void)pd;
  const fl_fabric *f = api->fabric(ctx);
  if (!have_counters(api, f))
    return 0;
  double min_errors = (double)pint(api, ctx, "min-errors", 1);
  uint32_t nl = api->link_count(f);
  uint32_t wh[GROUPS][13], sh[GROUPS][32];
  memset(wh, 0, sizeof wh);
  memset(sh, 0, sizeof sh);
  for (fl_id l = 0; l < nl; l++) {
    if (internal_link(api, f, l))
      continue;
    uint32_t g = group_of(api, f, l), w = api->link_width(f, l);
    uint32_t s = api->link_speed(f, l);
    wh[g][w <= 12 ? w : 0]++;
    sh[g][s < 32 ? s : 0]++;
  }
  obs o[2 * N_ERRS];
  for (fl_id l = 0; l < nl; l++) {
    if (internal_link(api, f, l))
      continue;
    uint32_t g = group_of(api, f, l), w = api->link_width(f, l);
    uint32_t s = api->link_speed(f, l);
    uint32_t ew = mode_of(wh[g], 13), es = mode_of(sh[g], 32);
    uint32_t flags = api->link_flags(f, l);
    int bad_w = w && ew && w < ew;
    int bad_s = s && es && api->speed_lane_gbps(s) < api->speed_lane_gbps(es);
    int mismatch =
        (flags & (FL_LINK_WIDTH_MISMATCH | FL_LINK_SPEED_MISMATCH)) != 0;
    if (!bad_w && !bad_s && !mismatch)
      continue;
    uint32_t n = cable_errors(api, f, l, NULL, min_errors, o);
    if (!n)
      continue;
    char seen[64], exp[64];
    snprintf(seen, sizeof seen, "%ux%s", w, api->speed_name(s));
    snprintf(exp, sizeof exp, "%ux%s", bad_w ? ew : w,
             api->speed_name(bad_s ? es : s));
    char lead[200];
    if (mismatch && !bad_w && !bad_s)
      snprintf(lead, sizeof lead,
               "degraded and erroring (its ends disagree on width or speed) ");
    else
      snprintf(lead, sizeof lead,
               "degraded and erroring (runs at %s, its tier pair at %s) ", seen,
               exp);
    if (emit_cable(api, ctx, f, l, lead,
                   "; a cable trained down and counting errors is failing: "
                   "replace it",
                   o, n, NULL, "seen", seen))
      return 1;
  }
  return 0;
}

/* ---- health.congestion
 * --------------------------------------------------------- */

/* The link loads the traffic model predicts per switch slot, or NULL. */
static double *predict(const fl_host_api *api, fl_ctx *ctx, hl_state *st,
                       const char **routing, int *rc) {
  const fl_fabric *f = api->fabric(ctx);
  const char *r = "auto";
  *rc = 0;
  api->param_string(ctx, "routing", &r);
  int lft = !strcmp(r, "lft") || (!strcmp(r, "auto") && api->lft_count(f));
  if (strcmp(r, "auto") && strcmp(r, "lft") && strcmp(r, "ecmp")) {
    fl_param_error(api, ctx, "routing", "expected auto, lft or ecmp");
    *rc = 1;
    return NULL;
  }
  if (lft && !api->lft_count(f)) {
    api->fail(ctx, "routing=lft needs LFTs (opensm-lfts.dump, ibroute or "
                   "dump_fts output)");
    *rc = 1;
    return NULL;
  }
  fl_fabric_key key = fl_fabric_key_of(api, ctx);
  if (st->have_view && !fl_fabric_key_eq(st->key, key)) {
    fl_view_free(&st->v);
    st->have_view = st->have_min = 0;
  }
  if (!st->have_view) {
    if (fl_view_build(&st->v, api, f) != 0) {
      fl_view_free(&st->v);
      api->fail(ctx, "out of memory");
      *rc = 1;
      return NULL;
    }
    st->v.threads = fl_run_threads(api, ctx); /* the run's budget (--jobs) */
    st->key = key;
    st->have_view = 1;
  }
  if (!lft && !st->have_min) {
    if (fl_view_minimal(&st->v) != 0) {
      api->fail(ctx, "out of memory");
      *rc = 1;
      return NULL;
    }
    st->have_min = 1;
  }
  double *load = calloc(st->v.poff[st->v.ns] + 1, sizeof *load);
  tr_opts o;
  memset(&o, 0, sizeof o);
  o.routing = lft ? TR_ROUTE_LFT : TR_ROUTE_ECMP;
  o.count = 1;
  o.seed = 1;
  o.slot_load = load;
  tr_result res;
  if (!load || tr_eval(&st->v, "all-to-all", &o, &res) != 0) {
    free(load);
    api->fail(ctx, "out of memory");
    *rc = 1;
    return NULL;
  }
  *routing = lft ? "LFT" : "ECMP";
  return load;
}

static int check_congestion(const fl_host_api *api, fl_ctx *ctx, void *pd) {
  hl_state *st = pd;
  const fl_fabric *f = api->fabric(ctx);
  if (!have_counters(api, f))
    return 0;
  double min_share = pdbl(api, ctx, "min-share", 0.05);
  double hot_factor = pdbl(api, ctx, "hot-factor", 1.2);
  double min_wait = (double)pint(api, ctx, "min-xmit-wait", 1000);
  uint32_t np = api->port_count(f);
  double total = 0;
  for (fl_id p = 0; p < np; p++) {
    obs o;
    if (observe(api, f, p, FL_CTR_XMIT_WAIT, &o))
      total += api->counter_snapshots(f) == 2 ? (double)o.delta : o.amount;
  }
  if (total <= 0)
    return 0;
  const char *routing = "ECMP";
  int rc;
  double *load = predict(api, ctx, st, &routing, &rc);
  if (!load)
    return rc;
  const fl_view *v = &st->v;
  double sum = 0;
  uint32_t n = 0;
  for (uint32_t s = 0; s < v->ns; s++)
    for (uint32_t i = v->poff[s]; i < v->psw_end[s]; i++)
      if (load[i] > 0)
        sum += load[i], n++;
  double mean = n ? sum / n : 0;
  for (fl_id p = 0; p < np && rc == 0; p++) {
    obs o;
    if (!observe(api, f, p, FL_CTR_XMIT_WAIT, &o))
      continue;
    double wait = api->counter_snapshots(f) == 2 ? (double)o.delta : o.amount;
    double share = wait / total;
    if (wait < min_wait || share < min_share)
      continue;
    fl_id node = api->port_node(f, p);
    uint32_t num = api->port_num(f, p);
    uint32_t s = v->node_sw[node];
    uint32_t slot = s != FL_VIEW_NONE && num < 256
                        ? v->pslot[(size_t)s * 256 + num]
                        : FL_VIEW_NONE;
    int sw_slot = slot != FL_VIEW_NONE && slot < v->psw_end[s];
    double pl = sw_slot ? load[slot] : 0;
    int predicted = sw_slot && mean > 0 && pl >= hot_factor * mean;
    char where[300], to[300] = "", what[200], msg[1400];
    port_text(api, f, p, where, sizeof where);
    fl_id l = api->port_link_count(f, p) ? api->port_link(f, p, 0) : FL_NONE;
    fl_id peer = l == FL_NONE ? FL_NONE : api->link_other(f, l, p);
    if (peer != FL_NONE)
      port_text(api, f, peer, to, sizeof to);
    if (api->counter_snapshots(f) == 2)
      snprintf(what, sizeof what, "PortXmitWait +%llu ticks in %.4g s",
               (unsigned long long)o.delta, api->counter_interval(f));
    else
      snprintf(what, sizeof what, "PortXmitWait %llu ticks",
               (unsigned long long)o.value);
    if (predicted)
      snprintf(msg, sizeof msg,
               "predicted and observed congestion on %s%s%s: %s, %.3g%% of "
               "the fabric's; the all-to-all %s model predicts this link hot "
               "(load %.3g, %.3gx the mean switch link): a design or routing "
               "problem",
               where, *to ? " -> " : "", to, what, 100 * share, routing, pl,
               pl / mean);
    else
      snprintf(msg, sizeof msg,
               "observed, not predicted congestion on %s%s%s: %s, %.3g%% of "
               "the fabric's; the all-to-all %s model %s: a cable, a job "
               "placement or traffic the model does not know",
               where, *to ? " -> " : "", to, what, 100 * share, routing,
               sw_slot ? "predicts no hot spot here"
                       : "covers switch-to-switch links only");
    jbuf ev;
    jb_init(&ev);
    jb_obj_open(&ev);
    jb_key_str(&ev, "class",
               predicted ? "predicted-and-observed" : "observed-not-predicted");
    jb_key_int(&ev, "xmit_wait", (int64_t)o.value);
    if (o.flags & FL_CTRV_DELTA)
      jb_key_int(&ev, "xmit_wait_delta", (int64_t)o.delta);
    jb_key_double(&ev, "share", share);
    jb_key_str(&ev, "routing", routing);
    if (sw_slot) {
      jb_key_double(&ev, "predicted_load", pl);
      jb_key_double(&ev, "mean_load", mean);
      jb_key_double(&ev, "hot_factor", hot_factor);
    }
    if (l != FL_NONE && api->attr(f, FL_ENT_LINK, l, "cable"))
      jb_key_str(&ev, "cable", api->attr(f, FL_ENT_LINK, l, "cable"));
    jb_obj_close(&ev);
    fl_id nodes[2] = {node,
                      peer == FL_NONE ? FL_NONE : api->port_node(f, peer)};
    fl_port_ref ports[2] = {{node, num}, {nodes[1], 0}};
    uint32_t nn = peer == FL_NONE ? 1 : 2;
    if (nn == 2)
      ports[1].port = api->port_num(f, peer);
    rc = fl_emit(api, ctx, 0, msg, nodes, nn, ports, nn,
                 l == FL_NONE ? NULL : &l, l == FL_NONE ? 0 : 1, jb_str(&ev));
    jb_free(&ev);
  }
  free(load);
  return rc;
}

/* ---- health.counter-mapping
 * ----------------------------------------------------- */

static int check_mapping(const fl_host_api *api, fl_ctx *ctx, void *pd) {
  (void)pd;
  const fl_fabric *f = api->fabric(ctx);
  if (!have_counters(api, f))
    return 0;
  char msg[1400];
  for (uint32_t i = 0; i < api->counter_unmapped_count(f); i++) {
    const char *what, *file;
    uint32_t line, port;
    fl_id node;
    if (api->counter_unmapped(f, i, &what, &file, &line, &node, &port) != 0)
      continue;
    fl_port_ref pr = {node, port};
    if (node != FL_NONE) {
      uint32_t np = api->node_nports(f, node);
      snprintf(msg, sizeof msg,
               "%s:%u: counters for %s: %s %s port %u in the topology "
               "(%s); the counters are kept out of the rules",
               file, line, what, api->node_name(f, node),
               np && port > np ? "has no" : "has no cabled", port,
               np && port > np ? "beyond its port count"
                               : "uncabled, or the plan omits it");
      if (fl_emit_cause(api, ctx, 0, msg, &node, 1, &pr, 1, NULL, 0, NULL,
                        "unknown-port",
                        "{count} counter records name ports the topology "
                        "does not have"))
        return 1;
    } else {
      snprintf(msg, sizeof msg,
               "%s:%u: counters for %s: no node of the topology has this "
               "GUID, LID or name; the counters are kept out of the rules",
               file, line, what);
      if (fl_emit_cause(api, ctx, 0, msg, NULL, 0, NULL, 0, NULL, 0, NULL,
                        "unknown-node",
                        "{count} counter records name nodes the topology "
                        "does not have"))
        return 1;
    }
  }
  if (api->counter_complete(f)) {
    for (fl_id l = 0; l < api->link_count(f); l++) {
      fl_id a = api->link_port(f, l, 0), b = api->link_port(f, l, 1);
      if (internal_link(api, f, l) || api->port_counter_mask(f, a) ||
          api->port_counter_mask(f, b))
        continue;
      char cable[700];
      cable_text(api, f, l, cable, sizeof cable);
      snprintf(msg, sizeof msg,
               "%s has no counters at either end in the latest snapshot",
               cable);
      fl_id nodes[2] = {api->port_node(f, a), api->port_node(f, b)};
      fl_port_ref ports[2] = {{nodes[0], api->port_num(f, a)},
                              {nodes[1], api->port_num(f, b)}};
      if (fl_emit_cause(api, ctx, 0, msg, nodes, 2, ports, 2, &l, 1, NULL,
                        "no-counters",
                        "{count} cables have no counters at either end in "
                        "the latest snapshot"))
        return 1;
    }
  }
  for (uint32_t i = 0; i < api->note_count(f); i++) {
    const char *cat, *file, *note;
    uint32_t line;
    if (api->note(f, i, &cat, &file, &line, &note) != 0 ||
        strcmp(cat, "counters"))
      continue;
    snprintf(msg, sizeof msg, "%s: %s", file, note);
    if (fl_emit(api, ctx, 0, msg, NULL, 0, NULL, 0, NULL, 0, NULL))
      return 1;
  }
  return 0;
}

/* ---- descriptors
 * ------------------------------------------------------------------ */

#define PDR(var, type, name, def, unit, lo, hi, doc)                           \
  static const fl_param_def var = {                                            \
      sizeof(fl_param_def), type, name, def, unit, doc, lo, hi}
PDR(P_SYM, FL_PARAM_INT, "symbol-errors", "10", "errors", "0", NULL,
    "SymbolErrorCounter above this is a bad cable (total with one snapshot, "
    "per hour with two)");
PDR(P_LER, FL_PARAM_INT, "link-error-recovery", "10", "events", "0", NULL,
    "LinkErrorRecoveryCounter above this (total, or per hour)");
PDR(P_LDN, FL_PARAM_INT, "link-downed", "10", "events", "0", NULL,
    "LinkDownedCounter above this: a flapping link (total, or per hour)");
PDR(P_RCV, FL_PARAM_INT, "rcv-errors", "10", "packets", "0", NULL,
    "PortRcvErrors above this (total, or per hour)");
PDR(P_LLI, FL_PARAM_INT, "local-link-integrity", "10", "events", "0", NULL,
    "LocalLinkIntegrityErrors above this (total, or per hour)");
PDR(P_MINERR, FL_PARAM_INT, "min-errors", "1", "errors", "1", NULL,
    "a degraded cable with at least this many errors of any kind (total, or "
    "per hour) is failing");
PDR(P_SHARE, FL_PARAM_DOUBLE, "min-share", "0.05", "fraction", "0", "1",
    "a port holding at least this share of the fabric's PortXmitWait is "
    "congested");
PDR(P_MINWAIT, FL_PARAM_INT, "min-xmit-wait", "1000", "ticks", "0", NULL,
    "and at least this many PortXmitWait ticks (infiniband-diags' default "
    "threshold)");
PDR(P_HOT, FL_PARAM_DOUBLE, "hot-factor", "1.2", "x mean", "1", NULL,
    "a switch link is predicted hot when its all-to-all load is at least "
    "this many times the mean switch link load");
PDR(P_ROUTING, FL_PARAM_STRING, "routing", "auto", NULL, NULL, NULL,
    "routing of the prediction: auto (the LFTs when loaded, else ECMP), lft, "
    "ecmp (flows split evenly over minimal next hops)");

static const fl_param_def *const ERR_PARAMS[] = {&P_SYM, &P_LER, &P_LDN, &P_RCV,
                                                 &P_LLI};
static const fl_param_def *const DEG_PARAMS[] = {&P_MINERR};
static const fl_param_def *const CONG_PARAMS[] = {&P_SHARE, &P_MINWAIT, &P_HOT,
                                                  &P_ROUTING};

#define RULE(var, sev, rid, summ, hlp, fn, params, np)                         \
  static const fl_rule_def var = {                                             \
      sizeof(fl_rule_def), sev,    rid, summ, hlp, 1,                          \
      FL_NEEDS_COUNTERS,   params, np,  fn}

RULE(R_ERR, FL_SEV_WARNING, "health.link-errors",
     "a cable whose error counters exceed their thresholds",
     "Symbol errors mark a cable (or transceiver) that is going bad before "
     "it flaps; link error recovery and link downed counts mark one that "
     "flaps; receive errors and local link integrity errors follow. The "
     "finding names the cable by both ends and, when a plan is loaded, by "
     "its cable id: the work order a technician needs. With one snapshot the "
     "thresholds apply to totals since the counters were last cleared; with "
     "two, to the change per hour between them.",
     check_link_errors, ERR_PARAMS, 5);
RULE(R_CONG, FL_SEV_WARNING, "health.congestion",
     "a port holding a large share of the fabric's PortXmitWait, against "
     "the ECMP/LFT prediction",
     "PortXmitWait counts ticks a port had data to send and could not. A "
     "port holding min-share of the fabric's total is congested; it is "
     "compared with the link loads the ecmp-balance traffic model predicts "
     "for all-to-all traffic (the loaded LFTs, else ECMP over minimal "
     "paths): predicted-and-observed congestion is a design or routing "
     "problem (fix the imbalance), observed-not-predicted congestion is a "
     "cable, a job placement or traffic the model does not know.",
     check_congestion, CONG_PARAMS, 4);
RULE(R_DEG, FL_SEV_ERROR, "health.degraded-and-erroring",
     "a cable below its tier pair's width or speed that also counts errors",
     "A link that trained below the width or speed of its tier pair (the "
     "majority, as topology.degraded-link judges) or whose ends disagree, "
     "and that counts errors, is a failing cable or transceiver: replace "
     "it. Such a cable may also be reported by health.link-errors when its "
     "counts pass those thresholds.",
     check_degraded, DEG_PARAMS, 1);
RULE(R_MAP, FL_SEV_INFO, "health.counter-mapping",
     "counter records that name no port of the topology, cables without "
     "counters, skipped input",
     "Counters attach to ports by GUID and port, by LID and port, or by node "
     "name through the alias layer. A record that finds no port (a node the "
     "topology lacks, an uncabled port, a port the plan omits), a cable with "
     "no counters at either end when the capture lists every port it read, "
     "and what the loaders skipped are reported here, never dropped.",
     check_mapping, NULL, 0);

static const fl_rule_def *const RULES[] = {&R_ERR, &R_CONG, &R_DEG, &R_MAP};

static const fl_plugin_desc DESC = {sizeof(fl_plugin_desc),
                                    FL_ABI_MAJOR,
                                    FL_ABI_MINOR,
                                    sizeof RULES / sizeof *RULES,
                                    "health",
                                    "0.1.0",
                                    "fabriclint",
                                    "MIT",
                                    hl_init,
                                    hl_fini,
                                    RULES};

FL_PLUGIN_EXPORT const fl_plugin_desc *fabriclint_plugin_v1(void) {
  return &DESC;
}
