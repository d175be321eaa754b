/* SPDX-License-Identifier: MIT */
/*
 * plugins/adaptive-routing/ar.c — where can traffic adapt, and does adaptive
 * routing (AR) cover those places? (rule id prefix `adaptive-routing`)
 *
 * Where AR could help: a switch with >= 2 minimal next hops toward a
 * destination. Those sets come from one BFS per destination switch
 * (fabriclint/view.h), O(destination switches x switch ports).
 *
 * What AR does, from two kinds of input:
 *  - design: the `ar` attribute on switches (design XML). An AR switch is
 *    taken to use the group implied by its minimal next-hop set (NVIDIA's
 *    TREE group algorithm for fat trees: "all minimal-hop ports"), so a
 *    design can only be off, or fully covered;
 *  - ibdiagnet2.far (core/ar_load.c): per switch, the AR group table and
 *    the AR LFT (per LID: Static / HBF / Free and a group). A switch with
 *    no tables in a loaded .far, or with every LID Static, has AR off; a
 *    LID is covered when its state is HBF or Free and its group holds every
 *    minimal port. The .far wins over the attribute (as-built over plan).
 *
 * Rules: disabled, partial-group, coverage (share of multipath (switch,
 * destination) pairs covered, per tier and overall, against a threshold),
 * sl-restricted (AR SL mask, from the `ar-sl-mask` switch attribute or the
 * sl-mask parameter = opensm.conf ar_sl_mask), summary (info).
 *
 * Sources: docs/rules/adaptive-routing.md ("AR coverage"
 * made concrete: switch coverage, destination coverage, group
 * completeness, SL coverage); NVIDIA UFM/MLNX SM documentation (ar_updn,
 * ar_ftree, TREE/LAG/DF_PLUS group algorithms, ar_sl_mask default 0xffff).
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabriclint/json_buf.h"
#include "fabriclint/plugin.h"
#include "fabriclint/routing.h"
#include "fabriclint/threads.h"
#include "fabriclint/view.h"

#define AR_OFF     0
#define AR_ON      1
#define AR_UNKNOWN 2

typedef struct ar_state {
  const fl_host_api *api;
  fl_fabric_key key; /* the fabric the model is of */
  fl_view v;
  int have;
  uint8_t *on;      /* [ns] AR_* */
  uint32_t *ep_off; /* [ns+1] endpoints of switch s: ep_off[s]..ep_off[s+1] */
  int far;          /* .far tables loaded */
  int any_info;     /* some AR information exists */
} ar_state;

static int ar_init(const fl_host_api *api, void **data) {
  ar_state *st = calloc(1, sizeof *st);
  if (!st)
    return 1;
  st->api = api;
  *data = st;
  return 0;
}

static void ar_drop(ar_state *st) {
  fl_view_free(&st->v);
  free(st->on), free(st->ep_off);
  st->on = NULL, st->ep_off = NULL;
  st->have = 0;
}

static void ar_fini(void *data) {
  ar_state *st = data;
  if (st)
    ar_drop(st);
  free(st);
}

/* The host has the AR-table members (added after ABI 1.0). */
static int has_ar_api(const fl_host_api *api) {
  return api->struct_size >= offsetof(fl_host_api, ar_group) + sizeof(void *) &&
         api->ar_count && api->ar_group;
}

static int far_on(const fl_host_api *api, const fl_fabric *f, fl_id n) {
  if (!api->ar_has(f, n))
    return 0;
  uint32_t len = 0;
  const uint8_t *st = api->ar_lid_state(f, n, &len);
  for (uint32_t l = 1; st && l < len; l++)
    if (st[l] == FL_AR_STATE_HBF || st[l] == FL_AR_STATE_FREE)
      return 1;
  return 0;
}

static ar_state *model(const fl_host_api *api, fl_ctx *ctx, ar_state *st) {
  const fl_fabric *f = api->fabric(ctx);
  fl_fabric_key key = fl_fabric_key_of(api, ctx);
  if (st->have && fl_fabric_key_eq(st->key, key))
    return st;
  ar_drop(st);
  fl_view *v = &st->v;
  st->far = has_ar_api(api) && api->ar_count(f) > 0;
  /* the AR dump is judged per destination LID: the matrix; the design
   * attribute per switch: the cover classes do where the fabric allows */
  if (fl_view_build(v, api, f) != 0)
    goto oom;
  v->threads = fl_run_threads(api, ctx); /* the run's budget (--jobs) */
  if ((st->far ? fl_view_minimal(v) : fl_view_minimal_compact(v)) != 0)
    goto oom;
  st->on = malloc(v->ns + 1);
  st->ep_off = calloc(v->ns + 2, sizeof *st->ep_off);
  if (!st->on || !st->ep_off)
    goto oom;
  st->any_info = st->far;
  for (uint32_t s = 0; s < v->ns; s++) {
    fl_id n = v->sw_node[s];
    const char *a = api->attr(f, FL_ENT_NODE, n, "ar");
    uint8_t on = AR_UNKNOWN;
    if (a)
      on = (!strcmp(a, "true") || !strcmp(a, "1")) ? AR_ON : AR_OFF;
    if (st->far)
      on = far_on(api, f, n) ? AR_ON : AR_OFF;
    st->any_info |= on != AR_UNKNOWN;
    st->on[s] = on;
  }
  for (uint32_t e = 0; e < v->ne; e++)
    st->ep_off[v->ep_sw[e] + 1]++;
  for (uint32_t s = 0; s < v->ns; s++)
    st->ep_off[s + 1] += st->ep_off[s];
  st->key = key;
  st->have = 1;
  return st;
oom:
  ar_drop(st);
  api->fail(ctx, "out of memory");
  return NULL;
}

static int report(const fl_host_api *api, fl_ctx *ctx, uint32_t sev,
                  const char *msg, const fl_id *nodes, uint32_t n_nodes,
                  const char *ev) {
  return fl_emit(api, ctx, sev, msg, nodes, n_nodes, NULL, 0, NULL, 0, ev);
}

static const char *nm(const fl_view *v, uint32_t s) {
  return v->api->node_name(v->f, v->sw_node[s]);
}

/* Minimal-port bitmap of switch @s toward destination index @d. */
static uint32_t min_bitmap(const fl_view *v, uint32_t s, uint32_t d,
                           uint8_t bm[32]) {
  uint32_t ds = fl_view_dist_at(v, d, s);
  memset(bm, 0, 32);
  uint32_t n = 0;
  if (ds == FL_VIEW_FAR || ds == 0)
    return 0;
  for (uint32_t i = v->poff[s]; i < v->psw_end[s]; i++)
    if (fl_view_dist_at(v, d, v->pnb[i]) + 1 == ds && v->pnum[i] < 256) {
      bm[v->pnum[i] >> 3] |= (uint8_t)(1u << (v->pnum[i] & 7));
      n++;
    }
  return n;
}

static void bm_text(const uint8_t bm[32], char *buf, size_t size) {
  size_t off = 0;
  buf[0] = 0;
  for (uint32_t p = 0; p < 256 && off < size; p++)
    if (bm[p >> 3] & (1u << (p & 7)))
      off += (size_t)snprintf(buf + off, size - off, "%s%u", off ? "," : "", p);
  if (!buf[0])
    snprintf(buf, size, "none");
}

static void bm_json(jbuf *ev, const char *key, const uint8_t bm[32]) {
  jb_key(ev, key);
  jb_arr_open(ev);
  for (uint32_t p = 0; p < 256; p++)
    if (bm[p >> 3] & (1u << (p & 7)))
      jb_int_item(ev, p);
  jb_arr_close(ev);
}

/* ---- coverage -------------------------------------------------------------
 */

typedef struct cov {
  uint64_t multi[64], covered[64]; /* per tier (index < 64) */
  uint64_t multi_all, covered_all;
  uint64_t *sw_multi, *sw_unc; /* [ns] */
  uint32_t *sw_ex_d;           /* [ns] example destination switch index */
} cov;

/* Is LID @lid at switch @s covered by AR toward minimal set @bm? */
static int far_covered(const fl_host_api *api, const fl_fabric *f, fl_id n,
                       uint32_t lid, const uint8_t bm[32]) {
  uint32_t len = 0, glen = 0;
  const uint8_t *state = api->ar_lid_state(f, n, &len);
  const uint16_t *grp = api->ar_lid_group(f, n, &glen);
  if (!state || lid >= len ||
      (state[lid] != FL_AR_STATE_HBF && state[lid] != FL_AR_STATE_FREE))
    return 0;
  uint8_t g[32];
  if (api->ar_group(f, n, grp[lid], g) < 0)
    return 0;
  for (int i = 0; i < 32; i++)
    if (bm[i] & ~g[i])
      return 0;
  return 1;
}

/* One (switch @s, destinations) term of the coverage: @wt endpoints of
 * which @cv covered, the first of them on destination switch @d. */
static void cov_add(const fl_view *v, cov *c, uint32_t s, uint32_t d,
                    uint64_t wt, uint64_t cv) {
  uint32_t tier = v->tier[s] < 64 ? v->tier[s] : 63;
  c->multi[tier] += wt, c->covered[tier] += cv;
  c->multi_all += wt, c->covered_all += cv;
  c->sw_multi[s] += wt;
  if (cv < wt && !c->sw_unc[s])
    c->sw_ex_d[s] = d;
  c->sw_unc[s] += wt - cv;
}

/* The coverage from the cover classes (no AR dump: a switch covers all or
 * nothing), one term per group of destinations. */
static int coverage_groups(const ar_state *st, cov *c) {
  const fl_view *v = &st->v;
  fl_view_group *g = fl_view_groups_new(v);
  if (!g)
    return -1;
  for (uint32_t s = 0; s < v->ns; s++) {
    uint32_t n = fl_view_groups(v, s, g);
    for (uint32_t i = 0; i < n; i++)
      if ((g[i].nmin & FL_VIEW_NMASK) >= 2)
        cov_add(v, c, s, g[i].first_d, g[i].eps,
                st->on[s] == AR_ON ? g[i].eps : 0);
  }
  free(g);
  return 0;
}

static int coverage(const ar_state *st, cov *c) {
  const fl_view *v = &st->v;
  const fl_host_api *api = v->api;
  memset(c, 0, sizeof *c);
  c->sw_multi = calloc(v->ns + 1, sizeof *c->sw_multi);
  c->sw_unc = calloc(v->ns + 1, sizeof *c->sw_unc);
  c->sw_ex_d = calloc(v->ns + 1, sizeof *c->sw_ex_d);
  if (!c->sw_multi || !c->sw_unc || !c->sw_ex_d)
    return -1;
  if (v->nc)
    return coverage_groups(st, c);
  for (uint32_t d = 0; d < v->nd; d++) {
    uint32_t t = v->dsw[d];
    for (uint32_t s = 0; s < v->ns; s++) {
      if (s == t || v->dist[(size_t)d * v->ns + s] == FL_VIEW_FAR)
        continue;
      uint32_t w = v->nmin[(size_t)d * v->ns + s] & FL_VIEW_NMASK;
      if (w < 2)
        continue;
      uint64_t wt = v->sw_nep[t], cv = 0;
      if (st->far && st->on[s] == AR_ON) {
        uint8_t bm[32];
        min_bitmap(v, s, d, bm);
        for (uint32_t e = st->ep_off[t]; e < st->ep_off[t + 1]; e++)
          cv += far_covered(api, v->f, v->sw_node[s], v->ep_lid[e], bm);
      } else if (st->on[s] == AR_ON) {
        cv = wt;
      }
      cov_add(v, c, s, d, wt, cv);
    }
  }
  return 0;
}

static void cov_free(cov *c) {
  free(c->sw_multi), free(c->sw_unc), free(c->sw_ex_d);
}

static void cov_evidence(const ar_state *st, const cov *c, jbuf *ev,
                         uint32_t worst) {
  const fl_view *v = &st->v;
  jb_key_str(ev, "source",
             st->far        ? "ibdiagnet2.far"
             : st->any_info ? "design attribute ar"
                            : "none");
  jb_key_int(ev, "multipath_pairs", (int64_t)c->multi_all);
  jb_key_int(ev, "covered_pairs", (int64_t)c->covered_all);
  jb_key_double(ev, "coverage_percent",
                c->multi_all
                    ? 100.0 * (double)c->covered_all / (double)c->multi_all
                    : 100.0);
  jb_key(ev, "tiers");
  jb_arr_open(ev);
  for (uint32_t t = 0; t < 64; t++) {
    if (!c->multi[t])
      continue;
    jb_obj_open(ev);
    jb_key_int(ev, "tier", t);
    jb_key_int(ev, "multipath_pairs", (int64_t)c->multi[t]);
    jb_key_int(ev, "covered_pairs", (int64_t)c->covered[t]);
    jb_key_double(ev, "coverage_percent",
                  100.0 * (double)c->covered[t] / (double)c->multi[t]);
    jb_obj_close(ev);
  }
  jb_arr_close(ev);
  uint32_t on = 0, off = 0, unk = 0;
  for (uint32_t s = 0; s < v->ns; s++)
    on += st->on[s] == AR_ON, off += st->on[s] == AR_OFF,
        unk += st->on[s] == AR_UNKNOWN;
  jb_key_int(ev, "switches_ar_on", on);
  jb_key_int(ev, "switches_ar_off", off);
  jb_key_int(ev, "switches_ar_unknown", unk);
  /* weakest switches: most uncovered pairs */
  jb_key(ev, "weakest_switches");
  jb_arr_open(ev);
  uint8_t *used = calloc(v->ns + 1, 1);
  for (uint32_t k = 0; used && k < worst; k++) {
    uint32_t best = FL_VIEW_NONE;
    for (uint32_t s = 0; s < v->ns; s++)
      if (!used[s] && c->sw_unc[s] &&
          (best == FL_VIEW_NONE || c->sw_unc[s] > c->sw_unc[best]))
        best = s;
    if (best == FL_VIEW_NONE)
      break;
    used[best] = 1;
    jb_obj_open(ev);
    jb_key_str(ev, "switch", nm(v, best));
    jb_key_int(ev, "multipath_pairs", (int64_t)c->sw_multi[best]);
    jb_key_int(ev, "uncovered_pairs", (int64_t)c->sw_unc[best]);
    jb_obj_close(ev);
  }
  free(used);
  jb_arr_close(ev);
}

/* ---- adaptive-routing.disabled ------------------------------------------- */

/* Room for fl_view_groups() of any switch, or NULL (failed: out of
 * memory). The caller frees it. */
static fl_view_group *groups_new(const fl_host_api *api, fl_ctx *ctx,
                                 const fl_view *v) {
  fl_view_group *g = fl_view_groups_new(v);
  if (!g)
    api->fail(ctx, "out of memory");
  return g;
}

/* Endpoints switch @s reaches over 2 or more minimal next hops (not its
 * own); *@ex the first such destination switch, *@exw its next hops. @g:
 * fl_view_groups_new() room, used with cover classes. */
static uint64_t multipath(const fl_view *v, uint32_t s, fl_view_group *g,
                          uint32_t *ex, uint32_t *exw) {
  uint64_t multi = 0;
  if (v->nc) {
    uint32_t n = fl_view_groups(v, s, g);
    for (uint32_t i = 0; i < n; i++) {
      uint32_t w = g[i].nmin & FL_VIEW_NMASK;
      if (w < 2)
        continue;
      multi += g[i].eps;
      if (*ex == FL_VIEW_NONE)
        *ex = g[i].first_d, *exw = w;
    }
    return multi;
  }
  for (uint32_t d = 0; d < v->nd; d++) {
    uint32_t w = v->nmin[(size_t)d * v->ns + s] & FL_VIEW_NMASK;
    if (v->dsw[d] == s || v->dist[(size_t)d * v->ns + s] == FL_VIEW_FAR ||
        w < 2)
      continue;
    multi += v->sw_nep[v->dsw[d]];
    if (*ex == FL_VIEW_NONE)
      *ex = d, *exw = w;
  }
  return multi;
}

static int check_disabled(const fl_host_api *api, fl_ctx *ctx, void *data) {
  ar_state *st = model(api, ctx, data);
  if (!st)
    return 1;
  const fl_view *v = &st->v;
  fl_view_group *g = groups_new(api, ctx, v);
  if (!g)
    return 1;
  int rc = 0;
  for (uint32_t s = 0; s < v->ns && !rc; s++) {
    if (st->on[s] != AR_OFF)
      continue;
    uint32_t ex = FL_VIEW_NONE, exw = 0;
    uint64_t multi = multipath(v, s, g, &ex, &exw);
    if (!multi)
      continue;
    uint8_t bm[32];
    char ports[256];
    min_bitmap(v, s, ex, bm);
    bm_text(bm, ports, sizeof ports);
    const char *why = !st->far ? "its design attribute ar is false"
                      : api->ar_has(v->f, v->sw_node[s])
                          ? "the AR dump sets every LID of it to Static"
                          : "the AR dump has no tables for it";
    jbuf ev;
    jb_init(&ev);
    jb_obj_open(&ev);
    jb_key_str(&ev, "reason", why);
    jb_key_int(&ev, "multipath_destinations", (int64_t)multi);
    jb_key_str(&ev, "example_destination_switch", nm(v, v->dsw[ex]));
    bm_json(&ev, "example_minimal_ports", bm);
    jb_obj_close(&ev);
    char msg[1024];
    snprintf(msg, sizeof msg,
             "adaptive routing is off on switch \"%s\" (%s) although it has "
             "%u or more minimal next hops toward %llu destination(s), e.g. "
             "those on \"%s\" (ports %s)",
             nm(v, s), why, exw, (unsigned long long)multi, nm(v, v->dsw[ex]),
             ports);
    fl_id nodes[2] = {v->sw_node[s], v->sw_node[v->dsw[ex]]};
    rc = report(api, ctx, 0, msg, nodes, 2, jb_str(&ev));
    jb_free(&ev);
  }
  free(g);
  return rc;
}

/* ---- adaptive-routing.partial-group ---------------------------------------
 */

typedef struct grp_acc {
  uint8_t missing[32], extra[32];
  uint64_t lids;
  uint32_t ex_lid, ex_ep, ex_d;
  int undefined;
} grp_acc;

static int check_partial(const fl_host_api *api, fl_ctx *ctx, void *data) {
  ar_state *st = model(api, ctx, data);
  if (!st)
    return 1;
  if (!st->far)
    return 0; /* design groups are the minimal sets by construction */
  const fl_view *v = &st->v;
  const fl_fabric *f = v->f;
  int rc = 0;
  for (uint32_t s = 0; s < v->ns && !rc; s++) {
    fl_id n = v->sw_node[s];
    uint32_t len = 0, glen = 0;
    const uint8_t *state = api->ar_lid_state(f, n, &len);
    const uint16_t *grp = api->ar_lid_group(f, n, &glen);
    if (!state)
      continue;
    uint32_t ng = 0;
    for (uint32_t l = 1; l < len; l++)
      if (state[l] && grp[l] + 1u > ng)
        ng = grp[l] + 1u;
    grp_acc *acc = calloc(ng + 1, sizeof *acc);
    if (!acc) {
      api->fail(ctx, "out of memory");
      return 1;
    }
    for (uint32_t d = 0; d < v->nd; d++) {
      uint8_t bm[32];
      if (min_bitmap(v, s, d, bm) < 2)
        continue;
      uint32_t t = v->dsw[d];
      for (uint32_t e = st->ep_off[t]; e < st->ep_off[t + 1]; e++) {
        uint32_t lid = v->ep_lid[e];
        if (!lid || lid >= len ||
            (state[lid] != FL_AR_STATE_HBF && state[lid] != FL_AR_STATE_FREE))
          continue;
        grp_acc *a = &acc[grp[lid]];
        uint8_t g[32];
        int undefined = api->ar_group(f, n, grp[lid], g) < 0;
        if (undefined)
          memset(g, 0, sizeof g);
        int bad = undefined;
        uint8_t miss[32], extra[32];
        for (int i = 0; i < 32; i++) {
          miss[i] = bm[i] & (uint8_t)~g[i];
          extra[i] = g[i] & (uint8_t)~bm[i];
          bad |= miss[i] || extra[i];
        }
        if (!bad)
          continue;
        if (!a->lids)
          a->ex_lid = lid, a->ex_ep = e, a->ex_d = d;
        a->lids++;
        a->undefined |= undefined;
        for (int i = 0; i < 32; i++)
          a->missing[i] |= miss[i], a->extra[i] |= extra[i];
      }
    }
    for (uint32_t gi = 0; gi < ng && !rc; gi++) {
      grp_acc *a = &acc[gi];
      if (!a->lids)
        continue;
      uint8_t g[32], bm[32];
      if (api->ar_group(f, n, gi, g) < 0)
        memset(g, 0, sizeof g);
      min_bitmap(v, s, a->ex_d, bm);
      char gp[256], mp[256], miss[256], extra[256];
      bm_text(g, gp, sizeof gp);
      bm_text(bm, mp, sizeof mp);
      bm_text(a->missing, miss, sizeof miss);
      bm_text(a->extra, extra, sizeof extra);
      const char *dname = api->node_name(f, v->ep_node[a->ex_ep]);
      jbuf ev;
      jb_init(&ev);
      jb_obj_open(&ev);
      jb_key_int(&ev, "group", gi);
      jb_key_bool(&ev, "group_defined", !a->undefined);
      bm_json(&ev, "group_ports", g);
      bm_json(&ev, "missing_ports", a->missing);
      bm_json(&ev, "non_minimal_ports", a->extra);
      jb_key_int(&ev, "lids", (int64_t)a->lids);
      jb_key_int(&ev, "example_lid", a->ex_lid);
      jb_key_str(&ev, "example_destination", dname);
      bm_json(&ev, "example_minimal_ports", bm);
      jb_obj_close(&ev);
      char msg[1200];
      if (a->undefined)
        snprintf(msg, sizeof msg,
                 "switch \"%s\": %llu LID(s) use AR group %u, which its "
                 "group table does not define (e.g. LID %u \"%s\", minimal "
                 "ports %s)",
                 nm(v, s), (unsigned long long)a->lids, gi, a->ex_lid, dname,
                 mp);
      else
        snprintf(msg, sizeof msg,
                 "AR group %u of switch \"%s\" (ports %s) does not match the "
                 "minimal next hops of %llu LID(s): missing %s, non-minimal "
                 "%s (e.g. LID %u \"%s\", minimal ports %s)",
                 gi, nm(v, s), gp, (unsigned long long)a->lids, miss, extra,
                 a->ex_lid, dname, mp);
      fl_id nodes[2] = {n, v->ep_node[a->ex_ep]};
      rc = report(api, ctx, 0, msg, nodes, 2, jb_str(&ev));
      jb_free(&ev);
    }
    free(acc);
  }
  return rc;
}

/* ---- adaptive-routing.coverage / summary ----------------------------------
 */

static int check_coverage(const fl_host_api *api, fl_ctx *ctx, void *data) {
  ar_state *st = model(api, ctx, data);
  if (!st)
    return 1;
  if (!st->any_info)
    return 0;
  double thr = 100.0;
  api->param_double(ctx, "threshold", &thr);
  cov c;
  if (coverage(st, &c) != 0) {
    cov_free(&c);
    api->fail(ctx, "out of memory");
    return 1;
  }
  double pct =
      c.multi_all ? 100.0 * (double)c.covered_all / (double)c.multi_all : 100.0;
  int rc = 0;
  if (pct + 1e-9 < thr) {
    char tiers[512] = "";
    size_t off = 0;
    for (uint32_t t = 0; t < 64; t++)
      if (c.multi[t] && off < sizeof tiers)
        off +=
            (size_t)snprintf(tiers + off, sizeof tiers - off,
                             "%stier %u %.1f%%", off ? ", " : "", t,
                             100.0 * (double)c.covered[t] / (double)c.multi[t]);
    jbuf ev;
    jb_init(&ev);
    jb_obj_open(&ev);
    cov_evidence(st, &c, &ev, 5);
    jb_key_double(&ev, "threshold_percent", thr);
    jb_obj_close(&ev);
    char msg[1024];
    snprintf(msg, sizeof msg,
             "adaptive routing covers %.1f%% of the %llu (switch, "
             "destination) pairs that have 2 or more minimal next hops (%s), "
             "below the policy's %.1f%%",
             pct, (unsigned long long)c.multi_all, tiers, thr);
    rc = report(api, ctx, 0, msg, NULL, 0, jb_str(&ev));
    jb_free(&ev);
  }
  cov_free(&c);
  return rc;
}

static int check_summary(const fl_host_api *api, fl_ctx *ctx, void *data) {
  ar_state *st = model(api, ctx, data);
  if (!st)
    return 1;
  cov c;
  if (coverage(st, &c) != 0) {
    cov_free(&c);
    api->fail(ctx, "out of memory");
    return 1;
  }
  jbuf ev;
  jb_init(&ev);
  jb_obj_open(&ev);
  cov_evidence(st, &c, &ev, 5);
  jb_obj_close(&ev);
  char msg[512];
  if (!st->any_info)
    snprintf(msg, sizeof msg,
             "no adaptive-routing information (no `ar` attribute on any "
             "switch, no ibdiagnet2.far): %llu (switch, destination) pairs "
             "have 2 or more minimal next hops where AR could adapt",
             (unsigned long long)c.multi_all);
  else
    snprintf(msg, sizeof msg,
             "adaptive routing covers %.1f%% of %llu multipath (switch, "
             "destination) pairs (from %s)",
             c.multi_all ? 100.0 * (double)c.covered_all / (double)c.multi_all
                         : 100.0,
             (unsigned long long)c.multi_all,
             st->far ? "ibdiagnet2.far" : "design attributes");
  int rc = report(api, ctx, 0, msg, NULL, 0, jb_str(&ev));
  jb_free(&ev);
  cov_free(&c);
  return rc;
}

/* ---- adaptive-routing.sl-restricted ----------------------------------------
 */

static int parse_mask(const char *s, uint32_t *out) {
  char *end;
  if (!s || !*s)
    return -1;
  unsigned long x = strtoul(s, &end, 0);
  if (*end || x > 0xffff)
    return -1;
  *out = (uint32_t)x;
  return 0;
}

/* 1 when switch @s has 2 or more minimal next hops toward some other
 * switch's endpoints: only there can an SL mask restrict anything. */
static int has_multipath(const fl_view *v, uint32_t s, fl_view_group *g) {
  if (v->nc) {
    uint32_t n = fl_view_groups(v, s, g);
    for (uint32_t i = 0; i < n; i++)
      if ((g[i].nmin & FL_VIEW_NMASK) >= 2 && g[i].eps)
        return 1;
    return 0;
  }
  for (uint32_t d = 0; d < v->nd; d++)
    if (v->dsw[d] != s && v->dist[(size_t)d * v->ns + s] != FL_VIEW_FAR &&
        (v->nmin[(size_t)d * v->ns + s] & FL_VIEW_NMASK) >= 2 &&
        v->sw_nep[v->dsw[d]])
      return 1;
  return 0;
}

static int check_sl(const fl_host_api *api, fl_ctx *ctx, void *data) {
  ar_state *st = model(api, ctx, data);
  if (!st)
    return 1;
  const fl_view *v = &st->v;
  const char *req_s = "0xffff", *mask_s = "";
  api->param_string(ctx, "required-sl-mask", &req_s);
  api->param_string(ctx, "sl-mask", &mask_s);
  uint32_t req, mask;
  if (parse_mask(req_s, &req) != 0) {
    fl_param_error(api, ctx, "required-sl-mask",
                   "expected a 16-bit mask such "
                   "as 0xffff");
    return 1;
  }
  int have_global = *mask_s != 0;
  if (have_global && parse_mask(mask_s, &mask) != 0) {
    fl_param_error(api, ctx, "sl-mask",
                   "expected a 16-bit mask such as 0x000f");
    return 1;
  }
  if (have_global && (mask & req) != req) {
    jbuf ev;
    jb_init(&ev);
    jb_obj_open(&ev);
    jb_key_str(&ev, "ar_sl_mask", mask_s);
    jb_key_str(&ev, "required_sl_mask", req_s);
    char miss[16];
    snprintf(miss, sizeof miss, "0x%04x", req & ~mask);
    jb_key_str(&ev, "sls_not_adaptive", miss);
    jb_obj_close(&ev);
    char msg[512];
    snprintf(msg, sizeof msg,
             "the SM's ar_sl_mask %s lets only some SLs use adaptive routing; "
             "the policy wants %s (SLs %s stay static)",
             mask_s, req_s, miss);
    int rc = report(api, ctx, 0, msg, NULL, 0, jb_str(&ev));
    jb_free(&ev);
    if (rc)
      return rc;
  }
  fl_view_group *g = groups_new(api, ctx, v);
  if (!g)
    return 1;
  int rc = 0;
  for (uint32_t s = 0; s < v->ns && !rc; s++) {
    if (st->on[s] != AR_ON || !has_multipath(v, s, g))
      continue;
    const char *a = api->attr(v->f, FL_ENT_NODE, v->sw_node[s], "ar-sl-mask");
    if (!a)
      continue;
    if (parse_mask(a, &mask) != 0 || (mask & req) == req)
      continue;
    char miss[16];
    snprintf(miss, sizeof miss, "0x%04x", req & ~mask);
    jbuf ev;
    jb_init(&ev);
    jb_obj_open(&ev);
    jb_key_str(&ev, "ar_sl_mask", a);
    jb_key_str(&ev, "required_sl_mask", req_s);
    jb_key_str(&ev, "sls_not_adaptive", miss);
    jb_obj_close(&ev);
    char msg[512];
    snprintf(msg, sizeof msg,
             "switch \"%s\" allows adaptive routing only on SL mask %s; the "
             "policy wants %s (SLs %s stay static)",
             nm(v, s), a, req_s, miss);
    fl_id node = v->sw_node[s];
    rc = report(api, ctx, 0, msg, &node, 1, jb_str(&ev));
    jb_free(&ev);
  }
  free(g);
  return rc;
}

/* ---- descriptors
 * ------------------------------------------------------------- */

static const fl_param_def P_THR = {
    sizeof(fl_param_def),
    FL_PARAM_DOUBLE,
    "threshold",
    "100",
    "%",
    "smallest acceptable share of multipath (switch, destination) pairs "
    "whose AR group covers every minimal next hop",
    "0",
    "100"};
static const fl_param_def P_REQ = {
    sizeof(fl_param_def),
    FL_PARAM_STRING,
    "required-sl-mask",
    "0xffff",
    NULL,
    "SLs (bit mask) whose traffic the policy wants adaptive (default: all)",
    NULL,
    NULL};
static const fl_param_def P_MASK = {
    sizeof(fl_param_def),
    FL_PARAM_STRING,
    "sl-mask",
    "",
    NULL,
    "the SM's ar_sl_mask (opensm.conf), when known; switches may also carry "
    "an ar-sl-mask attribute",
    NULL,
    NULL};
/* Each rule lists the parameters it reads (`fabriclint rules` shows them
 * under it); a plugin-wide --param adaptive-routing.NAME reaches them. */
static const fl_param_def *const P_COVERAGE[] = {&P_THR};
static const fl_param_def *const P_SL[] = {&P_REQ, &P_MASK};
#define PARAMS_OF(a) a, (uint32_t)(sizeof a / sizeof *a)
#define NO_PARAMS    NULL, 0

/* Info rules are opt-in (`--rules adaptive-routing` selects them): an
 * always-present info finding would make --fail-on info useless. */
#define RULE(var, sev, rid, summ, hlp, fn, params)                             \
  static const fl_rule_def var = {sizeof(fl_rule_def), sev, rid,    summ, hlp, \
                                  sev != FL_SEV_INFO,  0,   params, fn}

RULE(R_DIS, FL_SEV_WARNING, "adaptive-routing.disabled",
     "a switch with 2 or more minimal next hops has adaptive routing off",
     "Static routing on a switch that has several equal-cost next hops is "
     "where flows collide (Hoefler et al.: 38-60% effective bisection "
     "bandwidth statically routed). From the design attribute ar=false, or "
     "from ibdiagnet2.far: no AR tables for the switch, or every LID Static.",
     check_disabled, NO_PARAMS);
RULE(R_PART, FL_SEV_WARNING, "adaptive-routing.partial-group",
     "an AR group lacks some minimal next-hop ports or has non-minimal ones",
     "From ibdiagnet2.far: for each LID in state HBF or Free, the ports of its "
     "AR group must equal the switch's minimal next-hop ports toward it "
     "(NVIDIA's TREE group algorithm on fat trees). A missing port is "
     "capacity AR never uses; a non-minimal port lengthens paths. One "
     "finding per (switch, group).",
     check_partial, NO_PARAMS);
RULE(R_COV, FL_SEV_WARNING, "adaptive-routing.coverage",
     "AR covers fewer multipath (switch, destination) pairs than the policy",
     "Coverage is the share of (switch, destination) pairs with 2 or more "
     "minimal next hops whose AR group covers all of them, per tier and "
     "overall, weighted by destination endpoints (LIDs with a .far). Silent "
     "when there is no AR information at all (see adaptive-routing.summary).",
     check_coverage, PARAMS_OF(P_COVERAGE));
RULE(R_SL, FL_SEV_WARNING, "adaptive-routing.sl-restricted",
     "adaptive routing is allowed only on some SLs",
     "NVIDIA's SM lets only the SLs of ar_sl_mask (default 0xffff) adapt. "
     "When the mask is known (parameter sl-mask, or an ar-sl-mask attribute "
     "on a switch) and lacks SLs of required-sl-mask, traffic on those SLs "
     "(e.g. NCCL/UCX service levels) stays static.",
     check_sl, PARAMS_OF(P_SL));
RULE(R_SUM, FL_SEV_INFO, "adaptive-routing.summary",
     "AR coverage per tier and overall, switches on/off/unknown",
     "Every figure of the coverage analysis, whatever the threshold.",
     check_summary, NO_PARAMS);

static const fl_rule_def *const RULES[] = {&R_DIS, &R_PART, &R_COV, &R_SL,
                                           &R_SUM};

static const fl_plugin_desc DESC = {sizeof(fl_plugin_desc),
                                    FL_ABI_MAJOR,
                                    FL_ABI_MINOR,
                                    sizeof RULES / sizeof *RULES,
                                    "adaptive-routing",
                                    "0.1.0",
                                    "fabriclint",
                                    "MIT",
                                    ar_init,
                                    ar_fini,
                                    RULES};

FL_PLUGIN_EXPORT const fl_plugin_desc *fabriclint_plugin_v1(void) {
  return &DESC;
}
