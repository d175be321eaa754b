/*
 * plugins/ecmp-balance/ecmp.c — does the routing spread load evenly over the
 * links the design paid for? (rule id prefix `ecmp-balance`)
 *
 * Structural rules (a plan or a dump; no routing needed; tiers from the
 * `tier` attributes or derived from the shape):
 *  - uplink-asymmetry: switches of a tier differ in uplink count or
 *    capacity, or a switch's parallel cables differ per upper neighbour;
 *  - oversubscription: down-capacity / up-capacity (Gb/s = width x lane
 *    rate, api->link_gbps) above the policy ratio;
 *  - mixed-speed-group: a minimal next-hop set mixes link speeds (plain
 *    ECMP splits by count, not capacity: needs weighted ECMP);
 *  - group-width: a minimal next-hop set wider than the hardware ECMP
 *    group limit, or narrower than min-width where the switch has that many
 *    uplinks and the hop goes up;
 * Routing-based rules:
 *  - port-imbalance: per switch, destination LIDs routed per egress port
 *    among equivalent ports (the uplinks; same-tier ports), from the LFTs:
 *    the check_lft_balance question (infiniband-diags; that script stops
 *    at port 36) for any radix: max - min against a tolerance, with the
 *    coefficient of variation;
 *  - link-load: link loads and effective bisection bandwidth under named
 *    traffic patterns (traffic.c), from the LFTs or, with none, from fluid
 *    ECMP over minimal next hops;
 *  - summary (info): path diversity per tier (distribution of minimal
 *    next-hop set sizes), capacities and oversubscription per tier, port
 *    balance and eBB figures — every figure in evidence, so two plans can
 *    be compared.
 *
 * Minimal next-hop sets come from one BFS per destination switch
 * (fabriclint/view.h), so every structural figure costs O(destination switches
 * x switch ports), never per path. One view serves all rules: it is cached in
 * the plugin state (init/fini), keyed by the fabric.
 *
 * Sources: docs/rules/ecmp-balance.md (ECMP balance checks on a Clos,
 * group width limits, W-ECMP; eBB, ORCS, check_lft_balance); Hoefler,
 * Schneider, Lumsdaine, Cluster 2008.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabriclint/json_buf.h"
#include "fabriclint/plugin.h"
#include "fabriclint/routing.h"
#include "fabriclint/view.h"
#include "traffic.h"

#define MAX_PATTERNS 8

typedef struct eb_state {
  const fl_host_api *api;
  const fl_fabric *f;
  fl_view v;
  int have_view, have_min;
  /* cached traffic results */
  char tr_key[512];
  tr_result tr[MAX_PATTERNS];
  uint32_t n_tr;
  int have_tr;
} eb_state;

static int eb_init(const fl_host_api *api, void **data) {
  eb_state *st = calloc(1, sizeof *st);
  if (!st)
    return 1;
  st->api = api;
  *data = st;
  return 0;
}

static void eb_fini(void *data) {
  eb_state *st = data;
  if (st) {
    fl_view_free(&st->v);
    for (uint32_t k = 0; k < st->n_tr; k++)
      tr_result_free(&st->tr[k]);
  }
  free(st);
}

static const fl_view *view(const fl_host_api *api, fl_ctx *ctx, eb_state *st,
                           int need_min) {
  const fl_fabric *f = api->fabric(ctx);
  if (st->have_view && st->f != f) {
    fl_view_free(&st->v);
    st->have_view = st->have_min = st->have_tr = 0;
  }
  if (!st->have_view) {
    if (fl_view_build(&st->v, api, f) != 0) {
      fl_view_free(&st->v);
      api->fail(ctx, "out of memory");
      return NULL;
    }
    st->f = f;
    st->have_view = 1;
  }
  /* 1: minimal next hops in either form (cover classes where the fabric
   * allows); 2: the matrix rows (the traffic model reads them) */
  if (need_min && !st->have_min) {
    if (fl_view_minimal_compact(&st->v) != 0) {
      api->fail(ctx, "out of memory");
      return NULL;
    }
    st->have_min = 1;
  }
  if (need_min == 2 && fl_view_rows(&st->v) != 0) {
    api->fail(ctx, "out of memory");
    return NULL;
  }
  return &st->v;
}

static int report(const fl_host_api *api, fl_ctx *ctx, uint32_t sev,
                  const char *msg, const fl_id *nodes, uint32_t n_nodes,
                  const fl_port_ref *ports, uint32_t n_ports, const char *ev) {
  return fl_emit(api, ctx, sev, msg, nodes, n_nodes, ports, n_ports, NULL, 0,
                 ev);
}

/* One instance of a structural cause: the host merges the rule's findings
 * that share @cause into one (fl_emit_cause, plugin.h). */
static int report_cause(const fl_host_api *api, fl_ctx *ctx, const char *msg,
                        const fl_id *nodes, uint32_t n_nodes, const char *ev,
                        const char *cause, const char *cause_msg) {
  return fl_emit_cause(api, ctx, 0, msg, nodes, n_nodes, NULL, 0, NULL, 0, ev,
                       cause, cause_msg);
}

static const char *nm(const fl_view *v, uint32_t s) {
  return v->api->node_name(v->f, v->sw_node[s]);
}

static int64_t pint(const fl_host_api *api, fl_ctx *ctx, const char *name,
                    int64_t def) {
  int64_t x = def;
  api->param_int(ctx, name, &x);
  return x;
}

static double pdbl(const fl_host_api *api, fl_ctx *ctx, const char *name,
                   double def) {
  double x = def;
  api->param_double(ctx, name, &x);
  return x;
}

/* ---- per-switch capacities ---------------------------------------------- */

typedef struct sw_cap {
  uint32_t up_n, down_n;
  double up_g, down_g;
  uint32_t par_min, par_max; /* cables per upper neighbour */
  uint32_t par_min_nb, par_max_nb;
  /* the chassis whose line-card ASICs the cables to it hit most unevenly
   * (spread_max - spread_min > 1), at ASICs spread_max_sw / spread_min_sw */
  uint32_t spread_unit, spread_n, spread_max, spread_min;
  uint32_t spread_max_sw, spread_min_sw;
} sw_cap;

/* A SHARP Aggregation Node is a CA inside the switch (Quantum): it is no
 * host, so no down capacity a leaf must carry up. */
static int is_an(const fl_view *v, fl_id n) {
  return v->api->node_devid(v->f, n) == 0xcf09 ||
         strstr(v->api->node_desc(v->f, n), "Aggregation Node") != NULL;
}

/* ---- director chassis: one switch of many ASICs ----------------------------
 *
 * The ASICs of one director chassis (core/model/chassis.c; host API
 * node_chassis / link_internal) are judged as one switch: a unit is a
 * chassis, or a switch that is in none. Its uplinks are its members' cables
 * toward higher tiers; a cable inside the chassis is neither up nor down.
 * A unit is named by its representative, the member of lowest switch index
 * (members are chained from it in index order through next[]). A fabric
 * without chassis has unit[s] == s, one member each: every result is the
 * per-switch one. */

typedef struct eb_units {
  uint32_t *unit; /* [ns] representative switch of s */
  uint32_t *next; /* [ns] next member of s's unit, FL_VIEW_NONE at the end */
  uint32_t *nmem; /* [ns] members of the unit that s represents, else 0 */
  uint8_t *ext;   /* [ns] 1: s has a cable leaving its chassis (line card) */
  uint32_t *acnt; /* [ns+1] scratch: cables per ASIC, 0 between calls */
  int any;        /* some unit has 2+ members */
} eb_units;

static void units_free(eb_units *U) {
  free(U->unit), free(U->next), free(U->nmem), free(U->ext), free(U->acnt);
  memset(U, 0, sizeof *U);
}

/* Fills @U for view @v. Returns 0, or -1 when out of memory. */
static int units_build(const fl_view *v, eb_units *U) {
  memset(U, 0, sizeof *U);
  const fl_host_api *api = v->api;
  size_t n = (size_t)v->ns + 1;
  uint32_t *rep = malloc(n * sizeof *rep), *tail = malloc(n * sizeof *tail);
  U->unit = malloc(n * sizeof *U->unit);
  U->next = malloc(n * sizeof *U->next);
  U->nmem = calloc(n, sizeof *U->nmem);
  U->ext = calloc(n, sizeof *U->ext);
  U->acnt = calloc(n, sizeof *U->acnt);
  if (!rep || !tail || !U->unit || !U->next || !U->nmem || !U->ext ||
      !U->acnt) {
    free(rep), free(tail), units_free(U);
    return -1;
  }
  for (uint32_t s = 0; s < n; s++)
    rep[s] = FL_VIEW_NONE;
  int has = FL_API_HAS(api, node_chassis) && FL_API_HAS(api, link_internal);
  for (uint32_t s = 0; s < v->ns; s++) {
    uint32_t c = has ? api->node_chassis(v->f, v->sw_node[s]) : FL_NONE;
    U->next[s] = FL_VIEW_NONE;
    if (c == FL_NONE || c >= v->ns) {
      U->unit[s] = s, U->nmem[s] = 1;
      continue;
    }
    if (rep[c] == FL_VIEW_NONE) {
      rep[c] = tail[c] = s;
      U->unit[s] = s, U->nmem[s] = 1;
      continue;
    }
    U->unit[s] = rep[c];
    U->nmem[rep[c]]++;
    U->next[tail[c]] = s;
    tail[c] = s;
    U->any = 1;
  }
  free(rep), free(tail);
  for (uint32_t s = 0; U->any && s < v->ns; s++)
    for (uint32_t i = v->poff[s]; i < v->poff[s + 1] && !U->ext[s]; i++)
      U->ext[s] =
          v->pnb[i] == FL_VIEW_NONE || !api->link_internal(v->f, v->plink[i]);
  return 0;
}

/* 1 when slot @i is a cable inside a chassis. */
static int slot_internal(const fl_view *v, const eb_units *U, uint32_t i) {
  return U->any && v->pnb[i] != FL_VIEW_NONE &&
         v->api->link_internal(v->f, v->plink[i]);
}

/* Name of unit @u: the chassis (the system of its ASICs, else the part of
 * the representative's name before its first '/') or the switch. Into
 * @buf of @size bytes; returns @buf. */
static const char *unit_name(const fl_view *v, const eb_units *U, uint32_t u,
                             char *buf, size_t size) {
  const char *name = nm(v, u);
  if (U->nmem[u] < 2) {
    snprintf(buf, size, "%s", name);
    return buf;
  }
  const char *sys = v->api->node_system(v->f, v->sw_node[u]);
  if (sys && *sys) {
    snprintf(buf, size, "%s", sys);
    return buf;
  }
  const char *sl = strchr(name, '/');
  int len = sl ? (int)(sl - name) : (int)strlen(name);
  snprintf(buf, size, "%.*s", len, name);
  return buf;
}

/* How evenly the up-links of unit @u reach the line-card ASICs (members
 * with a cable leaving the chassis) of each upper chassis: a director
 * spreads a lower switch's cables over its line cards, so per ASIC the
 * counts may differ by at most one (16 cables over 12 line cards: 1 or 2
 * each). The worst chassis with a wider spread goes into @c. @cnt holds
 * the cables per upper unit (capacities()); U->acnt is 0 on entry and on
 * return. */
static void chassis_spread(const fl_view *v, const eb_units *U, uint32_t u,
                           sw_cap *c, const uint32_t *cnt) {
  for (uint32_t s = u; s != FL_VIEW_NONE; s = U->next[s])
    for (uint32_t i = v->poff[s]; i < v->psw_end[s]; i++)
      if (fl_view_dir(v, s, i) > 0 && !slot_internal(v, U, i))
        U->acnt[v->pnb[i]]++;
  for (uint32_t s = u; s != FL_VIEW_NONE; s = U->next[s])
    for (uint32_t i = v->poff[s]; i < v->psw_end[s]; i++) {
      if (fl_view_dir(v, s, i) <= 0 || slot_internal(v, U, i))
        continue;
      uint32_t w = U->unit[v->pnb[i]];
      if (U->nmem[w] < 2)
        continue;
      uint32_t mx = 0, mn = UINT32_MAX, mx_sw = w, mn_sw = w;
      for (uint32_t m = w; m != FL_VIEW_NONE; m = U->next[m]) {
        if (!U->ext[m])
          continue;
        if (U->acnt[m] > mx)
          mx = U->acnt[m], mx_sw = m;
        if (U->acnt[m] < mn)
          mn = U->acnt[m], mn_sw = m;
      }
      if (mn != UINT32_MAX && mx - mn > 1 &&
          mx - mn > c->spread_max - c->spread_min)
        c->spread_unit = w, c->spread_n = cnt[w], c->spread_max = mx,
        c->spread_min = mn, c->spread_max_sw = mx_sw, c->spread_min_sw = mn_sw;
    }
  for (uint32_t s = u; s != FL_VIEW_NONE; s = U->next[s])
    for (uint32_t i = v->poff[s]; i < v->psw_end[s]; i++)
      if (fl_view_dir(v, s, i) > 0)
        U->acnt[v->pnb[i]] = 0;
}

/* Capacities of unit @u (a representative): its members' cables that leave
 * the unit. Up-links are counted per upper unit in @cnt (ns+1 entries, all
 * 0 on entry and on return) for the parallel-link check. */
static void capacities(const fl_view *v, const eb_units *U, uint32_t u,
                       sw_cap *c, uint32_t *cnt) {
  memset(c, 0, sizeof *c);
  c->par_min = UINT32_MAX;
  for (uint32_t s = u; s != FL_VIEW_NONE; s = U->next[s])
    for (uint32_t i = v->poff[s]; i < v->poff[s + 1]; i++) {
      if (slot_internal(v, U, i))
        continue;
      int d = fl_view_dir(v, s, i);
      if (d > 0) {
        c->up_n++;
        c->up_g += v->pgbps[i];
        cnt[U->unit[v->pnb[i]]]++;
      } else if (d < 0 &&
                 !(v->pnb[i] == FL_VIEW_NONE && is_an(v, v->pnode[i]))) {
        c->down_n++;
        c->down_g += v->pgbps[i];
      }
    }
  for (uint32_t s = u; s != FL_VIEW_NONE; s = U->next[s])
    for (uint32_t i = v->poff[s]; i < v->psw_end[s]; i++) {
      if (fl_view_dir(v, s, i) <= 0 || slot_internal(v, U, i))
        continue;
      uint32_t w = U->unit[v->pnb[i]], n = cnt[w];
      if (!n)
        continue;
      if (n < c->par_min)
        c->par_min = n, c->par_min_nb = w;
      if (n > c->par_max)
        c->par_max = n, c->par_max_nb = w;
    }
  if (U->any)
    chassis_spread(v, U, u, c, cnt);
  for (uint32_t s = u; s != FL_VIEW_NONE; s = U->next[s])
    for (uint32_t i = v->poff[s]; i < v->psw_end[s]; i++)
      if (fl_view_dir(v, s, i) > 0)
        cnt[U->unit[v->pnb[i]]] = 0;
  if (c->par_min == UINT32_MAX)
    c->par_min = 0;
}

/* ---- ecmp-balance.uplink-asymmetry ----------------------------------------
 */

typedef struct upkey {
  uint32_t tier, up_n;
  double up_g;
} upkey;

static int upkey_cmp(const void *pa, const void *pb) {
  const upkey *a = pa, *b = pb;
  if (a->tier != b->tier)
    return a->tier < b->tier ? -1 : 1;
  if (a->up_n != b->up_n)
    return a->up_n < b->up_n ? -1 : 1;
  return (a->up_g > b->up_g) - (a->up_g < b->up_g);
}

/* The nodes of unit @u (its member ASICs) into a new array, *@n of them;
 * NULL when out of memory. */
static fl_id *unit_nodes(const fl_view *v, const eb_units *U, uint32_t u,
                         uint32_t *n) {
  fl_id *nodes = malloc((size_t)U->nmem[u] * sizeof *nodes);
  *n = 0;
  if (!nodes)
    return NULL;
  for (uint32_t s = u; s != FL_VIEW_NONE; s = U->next[s])
    nodes[(*n)++] = v->sw_node[s];
  return nodes;
}

/* "switch \"X\"", or "director chassis \"C\" (N ASICs as one switch)" for a
 * chassis, into @buf. */
static const char *unit_phrase(const fl_view *v, const eb_units *U, uint32_t u,
                               char *buf, size_t size) {
  char name[256];
  unit_name(v, U, u, name, sizeof name);
  if (U->nmem[u] < 2)
    snprintf(buf, size, "switch \"%s\"", name);
  else
    snprintf(buf, size, "director chassis \"%s\" (%u ASICs as one switch)",
             name, U->nmem[u]);
  return buf;
}

/* Reports unit @u of tier @t that is off the tier's typical uplinks. */
static int asym_finding(const fl_host_api *api, fl_ctx *ctx, const fl_view *v,
                        const eb_units *U, uint32_t u, const sw_cap *c,
                        int count_off, int par_off, int spread_off,
                        const upkey *mode, uint32_t best, uint32_t tier_n) {
  uint32_t t = v->tier[u];
  const char *word = U->any ? "switches (a chassis counts once)" : "switches";
  char msg[1024], who[320], hi[256], lo[256];
  int off = snprintf(msg, sizeof msg, "%s (tier %u)",
                     unit_phrase(v, U, u, who, sizeof who), t);
  if (count_off)
    off += snprintf(msg + off, sizeof msg - (size_t)off,
                    " has %u uplink(s), %.0f Gb/s up, while %u of the %u "
                    "tier-%u %s have %u uplink(s), %.0f Gb/s",
                    c->up_n, c->up_g, best, tier_n, t, word, mode->up_n,
                    mode->up_g);
  if (par_off)
    off += snprintf(msg + off, sizeof msg - (size_t)off,
                    "%s %u cable(s) to \"%s\" but %u to \"%s\": parallel "
                    "links per upper switch should be equal",
                    count_off ? "; it has" : " has", c->par_max,
                    unit_name(v, U, c->par_max_nb, hi, sizeof hi), c->par_min,
                    unit_name(v, U, c->par_min_nb, lo, sizeof lo));
  if (spread_off)
    snprintf(msg + off, sizeof msg - (size_t)off,
             "%s its %u cable(s) to director chassis \"%s\" land %u on ASIC "
             "\"%s\" but %u on \"%s\": a chassis's line cards should get "
             "them evenly (at most one apart)",
             count_off || par_off ? ";" : ":", c->spread_n,
             unit_name(v, U, c->spread_unit, hi, sizeof hi), c->spread_max,
             nm(v, c->spread_max_sw), c->spread_min, nm(v, c->spread_min_sw));
  jbuf ev;
  jb_init(&ev);
  jb_obj_open(&ev);
  jb_key_int(&ev, "tier", t);
  if (U->nmem[u] > 1) {
    jb_key_str(&ev, "chassis", unit_name(v, U, u, who, sizeof who));
    jb_key_int(&ev, "chassis_asics", U->nmem[u]);
  }
  jb_key_int(&ev, "uplinks", c->up_n);
  jb_key_double(&ev, "up_gbps", c->up_g);
  jb_key_int(&ev, "tier_switches", tier_n);
  jb_key_int(&ev, "tier_typical_uplinks", mode->up_n);
  jb_key_double(&ev, "tier_typical_up_gbps", mode->up_g);
  jb_key_int(&ev, "switches_with_typical", best);
  jb_key_int(&ev, "parallel_min", c->par_min);
  jb_key_int(&ev, "parallel_max", c->par_max);
  if (spread_off) {
    jb_key_str(&ev, "upper_chassis",
               unit_name(v, U, c->spread_unit, hi, sizeof hi));
    jb_key_int(&ev, "upper_chassis_cables", c->spread_n);
    jb_key_int(&ev, "per_asic_max", c->spread_max);
    jb_key_int(&ev, "per_asic_min", c->spread_min);
  }
  jb_obj_close(&ev);
  uint32_t nn;
  fl_id *nodes = unit_nodes(v, U, u, &nn);
  if (!nodes) {
    jb_free(&ev);
    api->fail(ctx, "out of memory");
    return 1;
  }
  char cause[32], cmsg[256];
  snprintf(cause, sizeof cause, "tier-%u", t);
  snprintf(cmsg, sizeof cmsg,
           "{count} tier-%u %s differ from the tier's typical %u "
           "uplink(s), %.0f Gb/s up, or have unequal parallel links",
           t, word, mode->up_n, mode->up_g);
  int rc = report_cause(api, ctx, msg, nodes, nn, jb_str(&ev), cause, cmsg);
  jb_free(&ev);
  free(nodes);
  return rc;
}

/* The most common (uplinks, up Gb/s) of a tier (its first longest run of
 * equal keys), how many units the tier has and whether any has uplinks. */
typedef struct tier_mode {
  uint32_t best, tier_n, any_up;
  upkey mode;
} tier_mode;

/* One pass over @keys sorted by upkey_cmp(): entry k is filled for the
 * first key k of each tier (tier_mode_of() finds it). NULL when out of
 * memory; the caller frees. */
static tier_mode *tier_modes(const upkey *keys, uint32_t nk) {
  tier_mode *tm = calloc((size_t)nk + 1, sizeof *tm);
  for (uint32_t k = 0, first = 0, run = 0; tm && k < nk; k++) {
    if (k == 0 || keys[k - 1].tier != keys[k].tier)
      first = k, run = 0;
    tier_mode *m = &tm[first];
    m->tier_n++;
    m->any_up |= keys[k].up_n > 0;
    run = run && upkey_cmp(&keys[k - 1], &keys[k]) == 0 ? run + 1 : 1;
    if (run > m->best)
      m->best = run, m->mode = keys[k];
  }
  return tm;
}

/* The entry of tier @t: at its first key (binary search). */
static const tier_mode *tier_mode_of(const tier_mode *tm, const upkey *keys,
                                     uint32_t nk, uint32_t t) {
  uint32_t lo = 0, hi = nk;
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (keys[mid].tier < t)
      lo = mid + 1;
    else
      hi = mid;
  }
  return &tm[lo];
}

static int check_asym(const fl_host_api *api, fl_ctx *ctx, void *data) {
  const fl_view *v = view(api, ctx, data, 0);
  if (!v)
    return 1;
  eb_units U;
  uint32_t *cnt = calloc(v->ns + 1, sizeof *cnt);
  sw_cap *caps = calloc(v->ns + 1, sizeof *caps);
  upkey *keys = calloc(v->ns + 1, sizeof *keys);
  int urc = units_build(v, &U);
  if (!cnt || !caps || !keys || urc) {
    free(cnt), free(caps), free(keys), units_free(&U);
    api->fail(ctx, "out of memory");
    return 1;
  }
  /* one key per unit (a switch, or a chassis at its representative) */
  uint32_t nk = 0;
  for (uint32_t s = 0; s < v->ns; s++) {
    if (U.unit[s] != s)
      continue;
    capacities(v, &U, s, &caps[s], cnt);
    keys[nk].tier = v->tier[s];
    keys[nk].up_n = caps[s].up_n;
    keys[nk].up_g = caps[s].up_g;
    nk++;
  }
  if (nk > 1)
    qsort(keys, nk, sizeof *keys, upkey_cmp);
  tier_mode *tm = tier_modes(keys, nk);
  int rc = tm ? 0 : -1;
  if (!tm)
    api->fail(ctx, "out of memory");
  for (uint32_t s = 0; s < v->ns && !rc; s++) {
    uint32_t t = v->tier[s];
    if (t == FL_TIER_UNKNOWN || U.unit[s] != s)
      continue;
    /* mode of (up_n, up_g) in tier t, and tier size (keys sorted by tier:
     * the tier's entry is found by its first key) */
    const tier_mode *m = tier_mode_of(tm, keys, nk, t);
    uint32_t best = m->best, tier_n = m->tier_n, any_up = m->any_up;
    upkey mode = m->mode;
    const sw_cap *c = &caps[s];
    int count_off =
        any_up && (c->up_n != mode.up_n || fabs(c->up_g - mode.up_g) > 1e-6) &&
        best * 2 > tier_n;
    int par_off = c->par_min != c->par_max;
    int spread_off = c->spread_max - c->spread_min > 1;
    if (count_off || par_off || spread_off)
      rc = asym_finding(api, ctx, v, &U, s, c, count_off, par_off, spread_off,
                        &mode, best, tier_n);
  }
  free(cnt), free(caps), free(keys), free(tm), units_free(&U);
  return rc < 0 ? 1 : rc;
}

/* ---- ecmp-balance.oversubscription ------------------------------------------
 */

static int check_oversub(const fl_host_api *api, fl_ctx *ctx, void *data) {
  const fl_view *v = view(api, ctx, data, 0);
  if (!v)
    return 1;
  double ratio = pdbl(api, ctx, "max-ratio", 1.0);
  if (!(ratio > 0)) {
    fl_param_error(api, ctx, "max-ratio",
                   "expected a positive number (down:up)");
    return 1;
  }
  eb_units U;
  uint32_t *cnt = calloc(v->ns + 1, sizeof *cnt);
  double *tdown = calloc(256, sizeof *tdown), *tup = calloc(256, sizeof *tup);
  int urc = units_build(v, &U);
  if (!cnt || !tdown || !tup || urc) {
    free(cnt), free(tdown), free(tup), units_free(&U);
    api->fail(ctx, "out of memory");
    return 1;
  }
  sw_cap c;
  for (uint32_t s = 0; s < v->ns; s++) {
    if (U.unit[s] != s)
      continue;
    capacities(v, &U, s, &c, cnt);
    if (v->tier[s] < 256 && c.up_n)
      tdown[v->tier[s]] += c.down_g, tup[v->tier[s]] += c.up_g;
  }
  int rc = 0;
  for (uint32_t s = 0; s < v->ns && !rc; s++) {
    if (U.unit[s] != s)
      continue;
    capacities(v, &U, s, &c, cnt);
    if (!c.up_n || !(c.up_g > 0) || c.down_g / c.up_g <= ratio * (1 + 1e-9))
      continue;
    uint32_t t = v->tier[s];
    double tr = t < 256 && tup[t] > 0 ? tdown[t] / tup[t] : 0;
    char msg[768], who[320];
    snprintf(msg, sizeof msg,
             "%s (tier %u) is oversubscribed %.2f:1 (%.0f Gb/s "
             "down over %u port(s), %.0f Gb/s up over %u port(s)); the policy "
             "allows %.2f:1",
             unit_phrase(v, &U, s, who, sizeof who), t, c.down_g / c.up_g,
             c.down_g, c.down_n, c.up_g, c.up_n, ratio);
    jbuf ev;
    jb_init(&ev);
    jb_obj_open(&ev);
    jb_key_int(&ev, "tier", t);
    if (U.nmem[s] > 1) {
      jb_key_str(&ev, "chassis", unit_name(v, &U, s, who, sizeof who));
      jb_key_int(&ev, "chassis_asics", U.nmem[s]);
    }
    jb_key_double(&ev, "down_gbps", c.down_g);
    jb_key_double(&ev, "up_gbps", c.up_g);
    jb_key_int(&ev, "down_ports", c.down_n);
    jb_key_int(&ev, "up_ports", c.up_n);
    jb_key_double(&ev, "ratio", c.down_g / c.up_g);
    jb_key_double(&ev, "tier_ratio", tr);
    jb_key_double(&ev, "max_ratio", ratio);
    jb_obj_close(&ev);
    uint32_t nn;
    fl_id *nodes = unit_nodes(v, &U, s, &nn);
    if (!nodes) {
      jb_free(&ev);
      api->fail(ctx, "out of memory");
      rc = 1;
      break;
    }
    char cause[32], cmsg[256];
    snprintf(cause, sizeof cause, "tier-%u", t);
    snprintf(cmsg, sizeof cmsg,
             "{count} tier-%u %s are oversubscribed above the "
             "policy's %.2f:1 (the tier as a whole: %.2f:1)",
             t, U.any ? "switches (a chassis counts once)" : "switches", ratio,
             tr);
    rc = report_cause(api, ctx, msg, nodes, nn, jb_str(&ev), cause, cmsg);
    jb_free(&ev);
    free(nodes);
  }
  free(cnt), free(tdown), free(tup), units_free(&U);
  return rc;
}

/* ---- minimal next-hop statistics per switch -------------------------------
 */

typedef struct sw_min {
  uint64_t mixed, wide, narrow;       /* destinations (endpoints) affected */
  uint32_t mixed_d, wide_d, narrow_d; /* an example destination switch */
  uint32_t max_w, max_w_d;
} sw_min;

/* The statistics of every switch (@m: v->ns entries), in one pass over the
 * destination rows of the view (dist and nmin are stored per destination:
 * reading them a switch at a time strides across every row). Per switch
 * the destinations are still met in index order, so each example is the
 * first one, as before. */
/* One (switch, destinations) term of min_stats(): @wt endpoints, the first
 * on destination switch @d, reached over next hops @x (|M| | MIXED) that
 * go up when @up; @narrow_ok: the narrow test applies (the switch has
 * min_width up-links, the destination sits on a leaf). */
static void min_add(sw_min *ms, uint32_t d, uint64_t wt, uint16_t x, int up,
                    uint32_t limit, uint32_t min_width, int narrow_ok) {
  uint32_t w = x & FL_VIEW_NMASK;
  if (w > ms->max_w)
    ms->max_w = w, ms->max_w_d = d;
  if (x & FL_VIEW_MIXED) {
    if (!ms->mixed)
      ms->mixed_d = d;
    ms->mixed += wt;
  }
  if (w > limit) {
    if (!ms->wide)
      ms->wide_d = d;
    ms->wide += wt;
  }
  if (w < min_width && narrow_ok && up) {
    if (!ms->narrow)
      ms->narrow_d = d;
    ms->narrow += wt;
  }
}

/* min_stats() from the cover classes: one term per group of destinations
 * (fl_view_groups(), in first-destination order, so the examples are the
 * ones the rows give). */
static int min_stats_groups(const fl_view *v, uint32_t limit,
                            uint32_t min_width, const uint32_t *ups,
                            sw_min *m) {
  fl_view_group *g = fl_view_groups_new(v);
  if (!g)
    return -1;
  for (uint32_t s = 0; s < v->ns; s++) {
    uint32_t n = fl_view_groups(v, s, g);
    for (uint32_t i = 0; i < n; i++) {
      uint32_t t = v->dsw[g[i].first_d];
      int on_leaf = v->tier[t] == 1 || v->tier[t] == FL_TIER_UNKNOWN;
      if (g[i].nmin & FL_VIEW_NMASK)
        min_add(&m[s], g[i].first_d, g[i].eps, g[i].nmin, g[i].dir > 0, limit,
                min_width, ups[s] >= min_width && on_leaf);
    }
  }
  free(g);
  return 0;
}

static int min_stats(const fl_view *v, uint32_t limit, uint32_t min_width,
                     sw_min *m) {
  memset(m, 0, (size_t)v->ns * sizeof *m);
  uint32_t *ups = calloc((size_t)v->ns + 1, sizeof *ups);
  if (!ups)
    return -1;
  for (uint32_t s = 0; s < v->ns; s++)
    for (uint32_t i = v->poff[s]; i < v->psw_end[s]; i++)
      ups[s] += fl_view_dir(v, s, i) > 0;
  if (v->nc) {
    int rc = min_stats_groups(v, limit, min_width, ups, m);
    free(ups);
    return rc;
  }
  for (uint32_t d = 0; d < v->nd; d++) {
    uint32_t t = v->dsw[d];
    const uint8_t *dist = v->dist + (size_t)d * v->ns;
    const uint16_t *nmin = v->nmin + (size_t)d * v->ns;
    uint32_t wt = v->sw_nep[t];
    /* a destination on an upper switch (a service host on a core, a SHARP
     * AN) is reached through that one switch: its width is the cables to
     * it, a fact of the shape, not a fault */
    int on_leaf = v->tier[t] == 1 || v->tier[t] == FL_TIER_UNKNOWN;
    for (uint32_t s = 0; s < v->ns; s++) {
      uint16_t x = nmin[s];
      if (s == t || dist[s] == FL_VIEW_FAR || !(x & FL_VIEW_NMASK))
        continue;
      int narrow_ok = ups[s] >= min_width && on_leaf, up = 0;
      /* does the minimal hop go up? (only asked when it matters) */
      for (uint32_t i = v->poff[s];
           narrow_ok && (x & FL_VIEW_NMASK) < min_width && i < v->psw_end[s];
           i++)
        if ((uint32_t)dist[v->pnb[i]] + 1 == dist[s] &&
            fl_view_dir(v, s, i) > 0)
          up = 1;
      min_add(&m[s], d, wt, x, up, limit, min_width, narrow_ok);
    }
  }
  free(ups);
  return 0;
}

/* min_stats() into a new array (free it), or NULL when out of memory. */
static sw_min *min_stats_new(const fl_view *v, uint32_t limit,
                             uint32_t min_width) {
  sw_min *m = malloc(((size_t)v->ns + 1) * sizeof *m);
  if (m && min_stats(v, limit, min_width, m) != 0) {
    free(m);
    m = NULL;
  }
  return m;
}

/* The minimal ports of @s toward destination index @d, as text and refs. */
static uint32_t min_ports(const fl_view *v, uint32_t s, uint32_t d, char *buf,
                          size_t size, jbuf *ev) {
  uint32_t ds = fl_view_dist_at(v, d, s);
  size_t off = 0;
  uint32_t n = 0;
  buf[0] = 0;
  if (ev) {
    jb_key(ev, "next_hops");
    jb_arr_open(ev);
  }
  for (uint32_t i = v->poff[s]; i < v->psw_end[s]; i++) {
    if (fl_view_dist_at(v, d, v->pnb[i]) + 1 != ds)
      continue;
    if (off < size)
      off += (size_t)snprintf(buf + off, size - off, "%s%u (%.0f Gb/s)",
                              n ? ", " : "", v->pnum[i], v->pgbps[i]);
    if (ev) {
      jb_obj_open(ev);
      jb_key_int(ev, "port", v->pnum[i]);
      jb_key_str(ev, "to", nm(v, v->pnb[i]));
      jb_key_double(ev, "gbps", v->pgbps[i]);
      jb_obj_close(ev);
    }
    n++;
  }
  if (ev)
    jb_arr_close(ev);
  return n;
}

/* ---- ecmp-balance.mixed-speed-group ----------------------------------------
 */

/* The cables of switch @s's minimal next hops toward destination switch @d
 * that are slower than the fastest of them, into @links (at most @cap):
 * the cables a pull-request annotation should point at. */
static uint32_t slow_links(const fl_view *v, uint32_t s, uint32_t d,
                           fl_id *links, uint32_t cap) {
  uint32_t ds = fl_view_dist_at(v, d, s);
  double best = 0;
  for (uint32_t i = v->poff[s]; i < v->psw_end[s]; i++)
    if (fl_view_dist_at(v, d, v->pnb[i]) + 1 == ds && v->pgbps[i] > best)
      best = v->pgbps[i];
  uint32_t n = 0;
  for (uint32_t i = v->poff[s]; i < v->psw_end[s] && n < cap; i++)
    if (fl_view_dist_at(v, d, v->pnb[i]) + 1 == ds && v->pgbps[i] < best)
      links[n++] = v->plink[i];
  return n;
}

static int check_mixed(const fl_host_api *api, fl_ctx *ctx, void *data) {
  if (pint(api, ctx, "weighted-ecmp", 0))
    return 0;
  const fl_view *v = view(api, ctx, data, 1);
  if (!v)
    return 1;
  sw_min *all = min_stats_new(v, UINT32_MAX, 0);
  if (!all)
    return 1;
  int rc = 0;
  for (uint32_t s = 0; s < v->ns && !rc; s++) {
    sw_min m = all[s];
    if (!m.mixed)
      continue;
    char ports[512];
    jbuf ev;
    jb_init(&ev);
    jb_obj_open(&ev);
    jb_key_int(&ev, "destinations", (int64_t)m.mixed);
    jb_key_str(&ev, "example_destination_switch", nm(v, v->dsw[m.mixed_d]));
    min_ports(v, s, m.mixed_d, ports, sizeof ports, &ev);
    jb_obj_close(&ev);
    char msg[1024];
    snprintf(msg, sizeof msg,
             "switch \"%s\" splits traffic toward %llu destination(s) (e.g. "
             "those on \"%s\") over next hops of different speeds: ports %s; "
             "plain ECMP splits by flow count, not capacity (configure "
             "weighted ECMP, or make the links equal)",
             nm(v, s), (unsigned long long)m.mixed, nm(v, v->dsw[m.mixed_d]),
             ports);
    fl_id nodes[2] = {v->sw_node[s], v->sw_node[v->dsw[m.mixed_d]]};
    fl_id links[16];
    uint32_t nl = slow_links(v, s, m.mixed_d, links, 16);
    rc = fl_emit(api, ctx, 0, msg, nodes, 2, NULL, 0, links, nl, jb_str(&ev));
    jb_free(&ev);
  }
  free(all);
  return rc;
}

/* ---- ecmp-balance.group-width -----------------------------------------------
 */

static int check_width(const fl_host_api *api, fl_ctx *ctx, void *data) {
  int64_t limit = pint(api, ctx, "group-limit", 64);
  int64_t minw = pint(api, ctx, "min-width", 2);
  if (limit < 1 || minw < 0) {
    fl_param_error(api, ctx, "(several)",
                   "parameters group-limit >= 1 and min-width >= 0 expected");
    return 1;
  }
  const fl_view *v = view(api, ctx, data, 1);
  if (!v)
    return 1;
  sw_min *all = min_stats_new(v, (uint32_t)limit, (uint32_t)minw);
  if (!all)
    return 1;
  int rc = 0;
  for (uint32_t s = 0; s < v->ns && !rc; s++) {
    sw_min m = all[s];
    for (int kind = 0; kind < 2 && !rc; kind++) {
      uint64_t cnt = kind ? m.narrow : m.wide;
      uint32_t d = kind ? m.narrow_d : m.wide_d;
      if (!cnt)
        continue;
      char ports[512], msg[1200];
      jbuf ev;
      jb_init(&ev);
      jb_obj_open(&ev);
      jb_key_str(&ev, "kind", kind ? "narrow" : "wide");
      jb_key_int(&ev, "destinations", (int64_t)cnt);
      jb_key_int(&ev, "group_limit", limit);
      jb_key_int(&ev, "min_width", minw);
      jb_key_int(&ev, "max_width", m.max_w);
      jb_key_str(&ev, "example_destination_switch", nm(v, v->dsw[d]));
      uint32_t w = min_ports(v, s, d, ports, sizeof ports, &ev);
      jb_key_int(&ev, "width", w);
      jb_obj_close(&ev);
      if (kind)
        snprintf(msg, sizeof msg,
                 "switch \"%s\" has only %u minimal next hop(s) toward %llu "
                 "destination(s) (e.g. those on \"%s\": port %s) although it "
                 "has uplinks for at least %lld: traffic there cannot spread",
                 nm(v, s), w, (unsigned long long)cnt, nm(v, v->dsw[d]), ports,
                 (long long)minw);
      else
        snprintf(msg, sizeof msg,
                 "switch \"%s\" has %u minimal next hops toward %llu "
                 "destination(s) (e.g. those on \"%s\"), more than the ECMP "
                 "group limit of %lld: the excess links carry no traffic",
                 nm(v, s), w, (unsigned long long)cnt, nm(v, v->dsw[d]),
                 (long long)limit);
      fl_id nodes[2] = {v->sw_node[s], v->sw_node[v->dsw[d]]};
      char cause[32], cmsg[256];
      snprintf(cause, sizeof cause, "%s-tier-%u", kind ? "narrow" : "wide",
               v->tier[s]);
      if (kind)
        snprintf(cmsg, sizeof cmsg,
                 "{count} tier-%u switches have fewer than %lld minimal next "
                 "hops toward some destinations although they have the "
                 "uplinks: traffic there cannot spread",
                 v->tier[s], (long long)minw);
      else
        snprintf(cmsg, sizeof cmsg,
                 "{count} tier-%u switches have more minimal next hops than "
                 "the ECMP group limit of %lld toward some destinations: the "
                 "excess links carry no traffic",
                 v->tier[s], (long long)limit);
      rc = report_cause(api, ctx, msg, nodes, 2, jb_str(&ev), cause, cmsg);
      jb_free(&ev);
    }
  }
  free(all);
  return rc;
}

/* ---- port balance from the LFTs ---------------------------------------------
 */

typedef struct pb_class {
  uint32_t n;
  uint64_t min, max, sum;
  double cv;
  uint32_t min_slot, max_slot;
} pb_class;

typedef struct pb_total {
  uint32_t switches, imbalanced;
  double worst_ratio, cv_sum, cv_max;
  uint32_t classes, worst_sw;
  uint64_t worst_spread;
} pb_total;

/* Paths (CA source, CA destination LID pairs) routed through every slot,
 * from the LFTs: per destination, a walk from each source switch carrying
 * its endpoint count — the "paths" balance metric that SSSP/DFSSSP
 * balance, as opposed to destination LIDs (ibdiagnet -r reports both).
 * O(endpoints x source switches x hops). */
static uint64_t *paths_per_slot(const fl_view *v) {
  uint64_t *paths = calloc((size_t)v->poff[v->ns] + 1, sizeof *paths);
  if (!paths)
    return NULL;
  for (uint32_t b = 0; b < v->ne; b++) {
    uint32_t dlid = v->ep_lid[b];
    if (!dlid)
      continue;
    for (uint32_t q = 0; q < v->nd; q++) {
      uint32_t s = v->dsw[q];
      uint64_t amount = v->sw_nep[s] - (s == v->ep_sw[b]);
      for (int h = 0; amount && h < 64; h++) {
        uint32_t len = 0;
        const uint8_t *row = v->api->lft(v->f, v->sw_node[s], &len);
        if (!row || dlid >= len || row[dlid] == FL_LFT_NONE)
          break;
        uint32_t i = v->pslot[(size_t)s * 256 + row[dlid]];
        if (i == FL_VIEW_NONE)
          break;
        paths[i] += amount;
        if (v->pnb[i] == FL_VIEW_NONE)
          break;
        s = v->pnb[i];
      }
    }
  }
  return paths;
}

/* Count destination LIDs (or, with @paths, paths) per slot of @s; per class
 * (0 up, 1 same, 2 down). */
static int balance(const fl_view *v, uint32_t s, uint64_t *cnt, pb_class cls[3],
                   int include_down, const uint64_t *paths) {
  uint32_t len = 0;
  const uint8_t *row = v->api->lft(v->f, v->sw_node[s], &len);
  if (!row)
    return 0;
  uint32_t nsl = v->poff[s + 1] - v->poff[s];
  memset(cnt, 0, (size_t)nsl * sizeof *cnt);
  const uint32_t *ps = v->pslot + (size_t)s * 256;
  if (paths)
    memcpy(cnt, paths + v->poff[s], (size_t)nsl * sizeof *cnt);
  if (!paths) {
    /* tight loop: count per port number, then map ports to slots */
    uint64_t byport[256];
    memset(byport, 0, sizeof byport);
    const uint32_t *lids = v->lids;
    uint32_t n = v->nlids;
    while (n && lids[n - 1] >= len)
      n--;
    for (uint32_t k = 0; k < n; k++)
      byport[row[lids[k]]]++;
    for (uint32_t p = 0; p < 255; p++)
      if (byport[p] && ps[p] != FL_VIEW_NONE)
        cnt[ps[p] - v->poff[s]] += byport[p];
  }
  memset(cls, 0, 3 * sizeof *cls);
  for (uint32_t i = v->poff[s]; i < v->psw_end[s]; i++) {
    int d = fl_view_dir(v, s, i);
    int c = d > 0 ? 0 : d == 0 ? 1 : 2;
    if (c == 2 && !include_down)
      continue;
    uint64_t x = cnt[i - v->poff[s]];
    pb_class *k = &cls[c];
    if (!k->n || x < k->min)
      k->min = x, k->min_slot = i;
    if (!k->n || x > k->max)
      k->max = x, k->max_slot = i;
    k->sum += x;
    k->n++;
  }
  for (int c = 0; c < 3; c++) {
    pb_class *k = &cls[c];
    if (k->n < 2 || !k->sum)
      continue;
    double mean = (double)k->sum / k->n, var = 0;
    for (uint32_t i = v->poff[s]; i < v->psw_end[s]; i++) {
      int d = fl_view_dir(v, s, i);
      if ((d > 0 ? 0 : d == 0 ? 1 : 2) != c)
        continue;
      double dx = (double)cnt[i - v->poff[s]] - mean;
      var += dx * dx;
    }
    k->cv = sqrt(var / k->n) / mean;
  }
  return 1;
}

static const char *const CLASS_NAME[3] = {"up", "same-tier", "down"};

static int check_imbalance(const fl_host_api *api, fl_ctx *ctx, void *data) {
  const fl_fabric *f = api->fabric(ctx);
  if (!api->lft_count(f))
    return 0;
  int64_t tol = pint(api, ctx, "tolerance", 1);
  int include_down = (int)pint(api, ctx, "include-down", 0);
  const char *metric = "dlids";
  api->param_string(ctx, "metric", &metric);
  int use_paths = !strcmp(metric, "paths");
  if (!use_paths && strcmp(metric, "dlids")) {
    fl_param_error(api, ctx, "metric", "expected dlids or paths");
    return 1;
  }
  const fl_view *v = view(api, ctx, data, 0);
  if (!v)
    return 1;
  uint64_t *cnt = calloc(256, sizeof *cnt);
  uint64_t *paths = use_paths ? paths_per_slot(v) : NULL;
  if (!cnt || (use_paths && !paths)) {
    free(cnt), free(paths);
    api->fail(ctx, "out of memory");
    return 1;
  }
  const char *unit = use_paths ? "paths" : "destination LIDs";
  int rc = 0;
  for (uint32_t s = 0; s < v->ns && !rc; s++) {
    pb_class cls[3];
    if (!balance(v, s, cnt, cls, include_down, paths))
      continue;
    int worst = -1;
    for (int c = 0; c < 3; c++)
      if (cls[c].n >= 2 && cls[c].max - cls[c].min > (uint64_t)tol &&
          (worst < 0 ||
           cls[c].max - cls[c].min > cls[worst].max - cls[worst].min))
        worst = c;
    if (worst < 0)
      continue;
    const pb_class *k = &cls[worst];
    jbuf ev;
    jb_init(&ev);
    jb_obj_open(&ev);
    jb_key_str(&ev, "ports_compared", CLASS_NAME[worst]);
    jb_key_str(&ev, "metric", use_paths ? "paths" : "dlids");
    jb_key_int(&ev, "port_count",
               k->n); /* "ports" is a list of ports elsewhere */
    jb_key_int(&ev, "min", (int64_t)k->min);
    jb_key_int(&ev, "max", (int64_t)k->max);
    jb_key_double(&ev, "mean", (double)k->sum / k->n);
    jb_key_double(&ev, "cv", k->cv);
    jb_key_double(&ev, "max_over_min", k->min ? (double)k->max / k->min : 0);
    jb_key_int(&ev, "tolerance", tol);
    jb_key(&ev, use_paths ? "paths_per_port" : "dlids_per_port");
    jb_obj_open(&ev);
    for (uint32_t i = v->poff[s]; i < v->psw_end[s]; i++) {
      int d = fl_view_dir(v, s, i);
      if ((d > 0 ? 0 : d == 0 ? 1 : 2) != worst)
        continue;
      char key[16];
      snprintf(key, sizeof key, "%u", v->pnum[i]);
      jb_key_int(&ev, key, (int64_t)cnt[i - v->poff[s]]);
    }
    jb_obj_close(&ev);
    jb_obj_close(&ev);
    char msg[768];
    snprintf(msg, sizeof msg,
             "switch \"%s\" routes unevenly over its %u %s ports: port %u "
             "carries %llu %s, port %u only %llu (mean %.1f, "
             "CV %.3f; tolerance %lld)",
             nm(v, s), k->n, CLASS_NAME[worst], v->pnum[k->max_slot],
             (unsigned long long)k->max, unit, v->pnum[k->min_slot],
             (unsigned long long)k->min, (double)k->sum / k->n, k->cv,
             (long long)tol);
    fl_id node = v->sw_node[s];
    fl_port_ref ports[2] = {{node, v->pnum[k->max_slot]},
                            {node, v->pnum[k->min_slot]}};
    rc = report(api, ctx, 0, msg, &node, 1, ports, 2, jb_str(&ev));
    jb_free(&ev);
  }
  free(cnt), free(paths);
  return rc;
}

/* Whole-fabric port-balance figures (for the summary). */
static int balance_total(const fl_view *v, int64_t tol, const uint64_t *paths,
                         pb_total *t) {
  memset(t, 0, sizeof *t);
  uint64_t *cnt = calloc(256, sizeof *cnt);
  if (!cnt)
    return -1;
  for (uint32_t s = 0; s < v->ns; s++) {
    pb_class cls[3];
    if (!balance(v, s, cnt, cls, 0, paths))
      continue;
    t->switches++;
    int bad = 0;
    for (int c = 0; c < 2; c++) {
      if (cls[c].n < 2 || !cls[c].sum)
        continue;
      t->classes++;
      t->cv_sum += cls[c].cv;
      if (cls[c].cv > t->cv_max)
        t->cv_max = cls[c].cv;
      double r = cls[c].min ? (double)cls[c].max / cls[c].min : INFINITY;
      if (r > t->worst_ratio)
        t->worst_ratio = r;
      if (cls[c].max - cls[c].min > t->worst_spread)
        t->worst_spread = cls[c].max - cls[c].min, t->worst_sw = s;
      bad |= cls[c].max - cls[c].min > (uint64_t)tol;
    }
    t->imbalanced += bad;
  }
  free(cnt);
  return 0;
}

/* ---- link loads and eBB
 * ------------------------------------------------------- */

/* Put @n bytes at @p to the growing buffer *@b (length *@len, capacity
 * *@cap); 0 or -1 out of memory. */
static int put(unsigned char **b, size_t *len, size_t *cap, const void *p,
               size_t n) {
  if (*len + n > *cap) {
    size_t c = *cap ? *cap : 1024;
    while (c < *len + n)
      c *= 2;
    unsigned char *nb = realloc(*b, c);
    if (!nb)
      return -1;
    *b = nb;
    *cap = c;
  }
  if (n)
    memcpy(*b + *len, p, n);
  *len += n;
  return 0;
}

/* Of pattern @k (@name), the rank that evaluates it alone, or @size when
 * every rank holds it (a random kind: tr_eval splits its instances). */
static uint32_t tr_owner(uint32_t k, const char *name, uint32_t size) {
  return tr_pattern_random(name) ? size : k % size;
}

/* mpirun (docs/mpi.md): give every rank the results of the patterns the
 * others evaluated (st->tr[k] of rank k mod N, random kinds excepted: every
 * rank has them), with the allgather
 * collective; every rank calls it, also when its own share @failed. Each
 * rank's part: u32 failed, u32 count, then per result u32 k, the tr_result
 * (loads NULL) and, with @all_loads, its @n_slots + 1 loads. Results are
 * plain numbers computed by the same code from the same fabric, so each
 * rank ends with exactly what one process computes. Returns 0; 1 when a
 * rank failed; -1 when the collective or memory failed or the bytes are
 * malformed. */
static int tr_share(const fl_dist *d, eb_state *st, char (*names)[32],
                    uint32_t n_slots, int all_loads, int failed) {
  unsigned char *b = NULL;
  size_t len = 0, cap = 0, nl = all_loads ? (size_t)n_slots + 1 : 0;
  uint32_t cnt = 0, fl = failed != 0;
  for (uint32_t k = 0; !fl && k < st->n_tr; k++)
    cnt += tr_owner(k, names[k], d->size) == d->rank;
  int oom = put(&b, &len, &cap, &fl, 4) | put(&b, &len, &cap, &cnt, 4);
  for (uint32_t k = 0; !fl && k < st->n_tr; k++) {
    if (tr_owner(k, names[k], d->size) != d->rank)
      continue;
    tr_result r = st->tr[k];
    r.loads = NULL;
    oom |= put(&b, &len, &cap, &k, 4) | put(&b, &len, &cap, &r, sizeof r);
    if (nl)
      oom |= st->tr[k].loads
                 ? put(&b, &len, &cap, st->tr[k].loads, nl * sizeof(double))
                 : -1;
  }
  if (oom) { /* tell the others, in a part that needs no memory */
    static const uint32_t failed_part[2] = {1, 0};
    free(b);
    b = NULL;
    len = sizeof failed_part;
    void *all = NULL;
    size_t n_all = 0;
    if (d->allgather(d->ctx, failed_part, len, &all, &n_all) == 0)
      free(all);
    return -1;
  }
  void *all = NULL;
  size_t n_all = 0;
  int grc = d->allgather(d->ctx, b, len, &all, &n_all);
  free(b);
  if (grc != 0)
    return -1;
  const unsigned char *q = all, *end = q + n_all;
  int rc = 0;
  for (uint32_t r = 0; rc == 0 && r < d->size; r++) {
    uint32_t pf, pc;
    if ((size_t)(end - q) < 8) {
      rc = -1;
      break;
    }
    memcpy(&pf, q, 4);
    memcpy(&pc, q + 4, 4);
    q += 8;
    if (pf) {
      rc = 1;
      break;
    }
    for (uint32_t i = 0; rc == 0 && i < pc; i++) {
      uint32_t k;
      if ((size_t)(end - q) < 4 + sizeof(tr_result) + nl * sizeof(double)) {
        rc = -1;
        break;
      }
      memcpy(&k, q, 4);
      q += 4;
      if (k >= st->n_tr || tr_owner(k, names[k], d->size) != r) {
        rc = -1;
        break;
      }
      if (r != d->rank) {
        memcpy(&st->tr[k], q, sizeof(tr_result));
        st->tr[k].loads = NULL;
        if (nl) {
          st->tr[k].loads = malloc(nl * sizeof(double));
          if (!st->tr[k].loads)
            rc = -1;
          else
            memcpy(st->tr[k].loads, q + sizeof(tr_result), nl * sizeof(double));
        }
      }
      q += sizeof(tr_result) + nl * sizeof(double);
    }
  }
  if (rc == 0 && q != end)
    rc = -1;
  free(all);
  return rc;
}

static int traffic(const fl_host_api *api, fl_ctx *ctx, eb_state *st,
                   int use_cache_any) {
  const fl_fabric *f = api->fabric(ctx);
  if (use_cache_any && st->have_tr && st->f == f)
    return 0;
  const char *routing = "auto", *patterns = "all-to-all,bisect,shift,ring";
  api->param_string(ctx, "routing", &routing);
  api->param_string(ctx, "patterns", &patterns);
  tr_opts o;
  memset(&o, 0, sizeof o);
  int64_t count = pint(api, ctx, "count", 100),
          seed = pint(api, ctx, "seed", 1);
  int64_t shift = pint(api, ctx, "shift", 0),
          top = pint(api, ctx, "top-links", 5);
  double ci = pdbl(api, ctx, "ci", 0.001);
  if (count < 1 || count > 1000000 || shift < 0 || top < 0 || !(ci >= 0)) {
    fl_param_error(api, ctx, "(several)",
                   "parameters: count 1..1000000, shift >= 0, top-links >= 0, "
                   "ci >= 0");
    return -1;
  }
  o.count = (uint32_t)count;
  o.ci = ci;
  o.seed = (uint64_t)seed;
  o.shift = (uint32_t)shift;
  o.top = (uint32_t)(top > TR_HOT_MAX ? TR_HOT_MAX : top);
  o.all_loads = pint(api, ctx, "link-loads", 0) != 0;
  if (!strcmp(routing, "lft") ||
      (!strcmp(routing, "auto") && api->lft_count(f)))
    o.routing = TR_ROUTE_LFT;
  else if (!strcmp(routing, "ecmp") || !strcmp(routing, "auto"))
    o.routing = TR_ROUTE_ECMP;
  else {
    fl_param_error(api, ctx, "routing", "expected auto, lft or ecmp");
    return -1;
  }
  if (o.routing == TR_ROUTE_LFT && !api->lft_count(f)) {
    api->fail(ctx, "routing=lft needs LFTs (load opensm-lfts.dump, ibroute or "
                   "dump_fts output)");
    return -1;
  }
  char key[512];
  snprintf(key, sizeof key, "%u|%u|%.17g|%llu|%u|%u|%d|%s", o.routing, o.count,
           o.ci, (unsigned long long)o.seed, o.shift, o.top, o.all_loads,
           patterns);
  if (st->have_tr && st->f == f && !strcmp(key, st->tr_key))
    return 0;
  const fl_view *v = view(api, ctx, st, o.routing == TR_ROUTE_ECMP ? 2 : 0);
  if (!v)
    return -1;
  st->have_tr = 0;
  for (uint32_t k = 0; k < st->n_tr; k++)
    tr_result_free(&st->tr[k]);
  st->n_tr = 0;
  /* the names first, so that every rank refuses an unknown one alike */
  char names[MAX_PATTERNS][32];
  uint32_t n_names = 0;
  const char *p = patterns;
  while (*p) {
    const char *e = strchr(p, ',');
    size_t n = e ? (size_t)(e - p) : strlen(p);
    if (n && n < sizeof names[0] && n_names < MAX_PATTERNS) {
      memcpy(names[n_names], p, n);
      names[n_names][n] = 0;
      if (!tr_pattern_known(names[n_names])) {
        char msg[128];
        snprintf(msg, sizeof msg,
                 "unknown pattern '%s' (all-to-all, bisect, permutation, "
                 "shift, ring)",
                 names[n_names]);
        fl_param_error(api, ctx, "patterns", msg);
        return -1;
      }
      n_names++;
    }
    p += n + (e ? 1 : 0);
  }
  /* mpirun: a random kind's instances over all ranks (tr_eval, a
   * collective: every rank holds its result), then the other patterns k
   * on rank k mod N, shared by tr_share() */
  const fl_dist *d = FL_API_HAS(api, dist) && api->dist ? api->dist(ctx) : 0;
  if (d && (!d->allgather || !d->allreduce_min_u32 || d->rank >= d->size))
    d = NULL;
  uint32_t rank = d ? d->rank : 0, size = d ? d->size : 1;
  o.dist = d;
  int failed = 0;
  for (uint32_t k = 0; k < n_names; k++)
    memset(&st->tr[k], 0, sizeof st->tr[k]);
  st->n_tr = n_names;
  for (uint32_t k = 0; !failed && k < n_names; k++) {
    if (!tr_pattern_random(names[k]))
      continue;
    int rc = tr_eval(v, names[k], &o, &st->tr[k]);
    if (rc != 0) { /* every rank fails here alike: no tr_share() */
      api->fail(ctx, rc == -3 ? "the traffic model failed on another "
                                "process of the MPI run"
                              : "out of memory");
      for (uint32_t q = 0; q < n_names; q++)
        tr_result_free(&st->tr[q]);
      st->n_tr = 0;
      return -1;
    }
  }
  for (uint32_t k = 0; k < n_names; k++) {
    if (failed || tr_pattern_random(names[k]) || k % size != rank)
      continue;
    if (tr_eval(v, names[k], &o, &st->tr[k]) != 0) {
      api->fail(ctx, "out of memory");
      failed = 1;
    }
  }
  if (d) {
    int rc = tr_share(d, st, names, v->poff[v->ns], o.all_loads, failed);
    if (rc != 0 && !failed)
      api->fail(ctx, rc > 0 ? "the traffic model failed on another process "
                              "of the MPI run"
                            : "gathering the traffic results of the MPI "
                              "ranks failed");
    failed |= rc != 0;
  }
  if (failed) {
    for (uint32_t k = 0; k < st->n_tr; k++)
      tr_result_free(&st->tr[k]);
    st->n_tr = 0;
    return -1;
  }
  snprintf(st->tr_key, sizeof st->tr_key, "%s", key);
  st->have_tr = 1;
  return 0;
}

static const char *route_word(const fl_host_api *api, const fl_fabric *f,
                              eb_state *st) {
  (void)st;
  return api->lft_count(f) ? "LFT" : "ECMP";
}

static void tr_evidence(const fl_view *v, const tr_result *r,
                        const char *routing, jbuf *ev) {
  jb_key_str(ev, "pattern", r->name);
  jb_key_str(ev, "routing", routing);
  jb_key_int(ev, "patterns", r->patterns);
  jb_key_int(ev, "flows_per_pattern", (int64_t)r->flows);
  jb_key_double(ev, "ebb", r->ebb_mean);
  jb_key_double(ev, "ebb_ci99", r->ebb_ci99);
  jb_key_double(ev, "ebb_min", r->ebb_min);
  jb_key_double(ev, "ebb_max", r->ebb_max);
  if (r->worst_flow >= 0)
    jb_key_double(ev, "worst_flow_bandwidth", r->worst_flow);
  jb_key_double(ev, "max_link_load", r->max_load);
  jb_key_double(ev, "mean_link_load", r->mean_load);
  jb_key_int(ev, "unrouted_flows", (int64_t)r->unrouted);
  jb_key(ev, "hottest_links");
  jb_arr_open(ev);
  for (uint32_t k = 0; k < r->n_hot; k++) {
    uint32_t i = r->hot_slot[k], s = 0;
    while (v->poff[s + 1] <= i)
      s++;
    jb_obj_open(ev);
    jb_key_str(ev, "from", nm(v, s));
    jb_key_int(ev, "from_port", v->pnum[i]);
    jb_key_str(ev, "to", nm(v, v->pnb[i]));
    jb_key_int(ev, "to_port", v->pnbport[i]);
    jb_key_double(ev, "mean_load", r->hot_load[k]);
    jb_key_double(ev, "max_load", r->hot_max[k]);
    jb_obj_close(ev);
  }
  jb_arr_close(ev);
  if (!r->loads)
    return;
  /* link-loads=true: every directed switch cable, [from, port, mean load] */
  jb_key(ev, "link_loads");
  jb_arr_open(ev);
  for (uint32_t s = 0; s < v->ns; s++)
    for (uint32_t i = v->poff[s]; i < v->psw_end[s]; i++) {
      jb_arr_open(ev);
      jb_str_item(ev, nm(v, s));
      jb_int_item(ev, v->pnum[i]);
      jb_double_item(ev, r->loads[i]);
      jb_arr_close(ev);
    }
  jb_arr_close(ev);
}

static int check_link_load(const fl_host_api *api, fl_ctx *ctx, void *data) {
  eb_state *st = data;
  if (traffic(api, ctx, st, 0) != 0)
    return 1;
  const fl_fabric *f = api->fabric(ctx);
  double min_ebb = pdbl(api, ctx, "min-ebb", 0.0);
  const fl_view *v = &st->v;
  const char *rw = strncmp(st->tr_key, "1|", 2) == 0 ? "LFT" : "ECMP";
  (void)route_word(api, f, st);
  for (uint32_t k = 0; k < st->n_tr; k++) {
    const tr_result *r = &st->tr[k];
    jbuf ev;
    jb_init(&ev);
    jb_obj_open(&ev);
    tr_evidence(v, r, rw, &ev);
    jb_key_double(&ev, "min_ebb", min_ebb);
    jb_obj_close(&ev);
    char hot[256] = "no switch-to-switch traffic";
    fl_id nodes[2];
    fl_port_ref ports[2];
    uint32_t nn = 0;
    if (r->n_hot) {
      uint32_t i = r->hot_slot[0], s = 0;
      while (v->poff[s + 1] <= i)
        s++;
      snprintf(hot, sizeof hot,
               "hottest link \"%s\":%u -> \"%s\":%u, mean load %.3g", nm(v, s),
               v->pnum[i], nm(v, v->pnb[i]), v->pnbport[i], r->hot_load[0]);
      nodes[0] = v->sw_node[s], nodes[1] = v->sw_node[v->pnb[i]];
      ports[0].node = nodes[0], ports[0].port = v->pnum[i];
      ports[1].node = nodes[1], ports[1].port = v->pnbport[i];
      nn = 2;
    }
    char msg[1024];
    if (!strcmp(r->name, "all-to-all"))
      snprintf(msg, sizeof msg,
               "all-to-all over %u endpoints (%s routing): bandwidth %.4g of "
               "a non-blocking fabric; max link load %.4g flows; %s",
               v->ne, rw, r->ebb_mean, r->max_load, hot);
    else
      snprintf(msg, sizeof msg,
               "%s (%u pattern(s) of %llu flows, %s routing): effective "
               "bisection bandwidth %.4g (99%% CI +/- %.2g, min %.4g, max "
               "%.4g); max link load %.4g; %s",
               r->name, r->patterns, (unsigned long long)r->flows, rw,
               r->ebb_mean, r->ebb_ci99, r->ebb_min, r->ebb_max, r->max_load,
               hot);
    uint32_t sev = r->ebb_mean < min_ebb ? FL_SEV_WARNING : FL_SEV_INFO;
    int rc = report(api, ctx, sev, msg, nodes, nn, ports, nn, jb_str(&ev));
    jb_free(&ev);
    if (rc)
      return rc;
  }
  return 0;
}

/* ---- ecmp-balance.summary
 * ------------------------------------------------------ */

/* The widths of switch s's minimal next-hop sets, endpoint-weighted. */
typedef struct sum_widths {
  fl_view_group *g; /* fl_view_groups_new() room (cover classes), or NULL */
  uint64_t *hist;   /* [FL_VIEW_NMASK + 1] endpoints per width */
  uint64_t pairs, multi, unreach;
  uint32_t wmin, wmax;
} sum_widths;

static void width_add(sum_widths *w, uint32_t width, uint64_t wt) {
  w->hist[width] += wt;
  w->pairs += wt;
  w->multi += width >= 2 ? wt : 0;
  w->wmin = width < w->wmin ? width : w->wmin;
  w->wmax = width > w->wmax ? width : w->wmax;
}

/* Switch @s's terms into @w: one per group of destinations with cover
 * classes, one per destination with the rows. */
static void widths_of(const fl_view *v, uint32_t s, sum_widths *w) {
  if (v->nc) {
    uint32_t n = fl_view_groups(v, s, w->g);
    for (uint32_t i = 0; i < n; i++)
      width_add(w, w->g[i].nmin & FL_VIEW_NMASK, w->g[i].eps);
    return;
  }
  for (uint32_t d = 0; d < v->nd; d++) {
    if (v->dsw[d] == s)
      continue;
    uint32_t wt = v->sw_nep[v->dsw[d]];
    if (v->dist[(size_t)d * v->ns + s] == FL_VIEW_FAR)
      w->unreach += wt;
    else
      width_add(w, v->nmin[(size_t)d * v->ns + s] & FL_VIEW_NMASK, wt);
  }
}

static int check_summary(const fl_host_api *api, fl_ctx *ctx, void *data) {
  eb_state *st = data;
  const fl_view *v = view(api, ctx, st, 1);
  if (!v)
    return 1;
  const fl_fabric *f = api->fabric(ctx);
  eb_units U;
  uint32_t *cnt = calloc(v->ns + 1, sizeof *cnt);
  fl_view_group *grp = v->nc ? fl_view_groups_new(v) : NULL;
  int urc = units_build(v, &U);
  if (!cnt || (v->nc && !grp) || urc) {
    free(cnt), free(grp), units_free(&U);
    api->fail(ctx, "out of memory");
    return 1;
  }
  /* tiers present */
  uint32_t maxt = 0;
  for (uint32_t s = 0; s < v->ns; s++)
    if (v->tier[s] != FL_TIER_UNKNOWN && v->tier[s] > maxt && v->tier[s] < 64)
      maxt = v->tier[s];
  jbuf ev;
  jb_init(&ev);
  jb_obj_open(&ev);
  jb_key_int(&ev, "switches", v->ns);
  jb_key_int(&ev, "endpoints", v->ne);
  jb_key_int(&ev, "destination_switches", v->nd);
  jb_key(&ev, "tiers");
  jb_arr_open(&ev);
  uint64_t pairs_all = 0, multi_all = 0, unreach = 0;
  for (uint32_t t = 1; t <= maxt; t++) {
    uint32_t n = 0;
    double up = 0, down = 0;
    uint64_t *hist = calloc(FL_VIEW_NMASK + 1, sizeof *hist);
    if (!hist) {
      jb_free(&ev), free(cnt), free(grp), units_free(&U);
      api->fail(ctx, "out of memory");
      return 1;
    }
    uint64_t pairs = 0, multi = 0;
    uint32_t wmin = UINT32_MAX, wmax = 0;
    for (uint32_t s = 0; s < v->ns; s++) {
      if (v->tier[s] != t)
        continue;
      n++;
      sw_cap c;
      if (U.unit[s] == s) { /* a chassis once, at its representative */
        capacities(v, &U, s, &c, cnt);
        up += c.up_g, down += c.down_g;
      }
      sum_widths sw = {grp, hist, 0, 0, 0, wmin, wmax};
      widths_of(v, s, &sw);
      pairs += sw.pairs, multi += sw.multi, unreach += sw.unreach;
      wmin = sw.wmin, wmax = sw.wmax;
    }
    pairs_all += pairs, multi_all += multi;
    jb_obj_open(&ev);
    jb_key_int(&ev, "tier", t);
    jb_key_int(&ev, "switches", n);
    jb_key_double(&ev, "down_gbps", down);
    jb_key_double(&ev, "up_gbps", up);
    if (up > 0)
      jb_key_double(&ev, "oversubscription", down / up);
    jb_key_int(&ev, "pairs", (int64_t)pairs);
    jb_key_int(&ev, "multipath_pairs", (int64_t)multi);
    if (pairs) {
      jb_key_int(&ev, "min_next_hops", wmin);
      jb_key_int(&ev, "max_next_hops", wmax);
    }
    jb_key(&ev, "next_hop_histogram");
    jb_obj_open(&ev);
    for (uint32_t w = 0; w <= FL_VIEW_NMASK; w++)
      if (hist[w]) {
        char key[16];
        snprintf(key, sizeof key, "%u", w);
        jb_key_int(&ev, key, (int64_t)hist[w]);
      }
    jb_obj_close(&ev);
    jb_obj_close(&ev);
    free(hist);
  }
  jb_arr_close(&ev);
  jb_key_int(&ev, "pairs", (int64_t)pairs_all);
  jb_key_int(&ev, "multipath_pairs", (int64_t)multi_all);
  jb_key_int(&ev, "unreachable_pairs", (int64_t)unreach);
  free(cnt), free(grp), units_free(&U);
  char bal[256] = "";
  if (api->lft_count(f)) {
    pb_total t;
    int64_t tol = pint(api, ctx, "tolerance", 1);
    const char *metric = "dlids";
    api->param_string(ctx, "metric", &metric);
    uint64_t *paths = NULL;
    if (!strcmp(metric, "paths") && !(paths = paths_per_slot(v))) {
      jb_free(&ev);
      api->fail(ctx, "out of memory");
      return 1;
    }
    int brc = balance_total(v, tol, paths, &t);
    free(paths);
    if (brc != 0) {
      jb_free(&ev);
      api->fail(ctx, "out of memory");
      return 1;
    }
    jb_key(&ev, "port_balance");
    jb_obj_open(&ev);
    jb_key_str(&ev, "metric", paths ? "paths" : "dlids");
    jb_key_int(&ev, "switches", t.switches);
    jb_key_int(&ev, "imbalanced_switches", t.imbalanced);
    jb_key_double(&ev, "mean_cv", t.classes ? t.cv_sum / t.classes : 0);
    jb_key_double(&ev, "max_cv", t.cv_max);
    jb_key_int(&ev, "worst_spread", (int64_t)t.worst_spread);
    if (t.worst_spread)
      jb_key_str(&ev, "worst_switch", nm(v, t.worst_sw));
    jb_key_int(&ev, "tolerance", tol);
    jb_obj_close(&ev);
    snprintf(bal, sizeof bal,
             "; LFT port balance: %u of %u switches uneven, mean CV %.3f",
             t.imbalanced, t.switches, t.classes ? t.cv_sum / t.classes : 0);
  }
  char ebb[256] = "";
  if (traffic(api, ctx, st, 1) != 0) {
    jb_free(&ev);
    return 1;
  }
  jb_key(&ev, "traffic");
  jb_arr_open(&ev);
  const char *rw = strncmp(st->tr_key, "1|", 2) == 0 ? "LFT" : "ECMP";
  for (uint32_t k = 0; k < st->n_tr; k++) {
    jb_obj_open(&ev);
    tr_evidence(v, &st->tr[k], rw, &ev);
    jb_obj_close(&ev);
    if (!strcmp(st->tr[k].name, "bisect") ||
        !strcmp(st->tr[k].name, "permutation"))
      snprintf(ebb, sizeof ebb, "; eBB (%s, %s routing) %.4g", st->tr[k].name,
               rw, st->tr[k].ebb_mean);
  }
  jb_arr_close(&ev);
  jb_obj_close(&ev);
  char msg[1024];
  snprintf(msg, sizeof msg,
           "ECMP summary: %u switches, %u endpoints; %.1f%% of (switch, "
           "destination) pairs have 2 or more minimal next hops%s%s",
           v->ns, v->ne,
           pairs_all ? 100.0 * (double)multi_all / (double)pairs_all : 0.0, bal,
           ebb);
  int rc = report(api, ctx, 0, msg, NULL, 0, NULL, 0, jb_str(&ev));
  jb_free(&ev);
  return rc;
}

/* ---- descriptors
 * ------------------------------------------------------------------ */

#define PDR(var, type, name, def, unit, lo, hi, doc)                           \
  static const fl_param_def var = {                                            \
      sizeof(fl_param_def), type, name, def, unit, doc, lo, hi}
#define PD(var, type, name, def, unit, doc)                                    \
  PDR(var, type, name, def, unit, NULL, NULL, doc)
PDR(P_RATIO, FL_PARAM_DOUBLE, "max-ratio", "1.0", "down:up", "0", NULL,
    "largest down-capacity / up-capacity ratio allowed per switch (1.0 = "
    "non-blocking, as for compute fabrics)");
PDR(P_LIMIT, FL_PARAM_INT, "group-limit", "64", "next hops", "1", "4294967295",
    "hardware ECMP group limit (e.g. 64; Dell OS9 2..64, Junos up to 512)");
PDR(P_MINW, FL_PARAM_INT, "min-width", "2", "next hops", "0", "4294967295",
    "an upward minimal next-hop set narrower than this, at a switch with at "
    "least this many uplinks, is reported");
PD(P_WECMP, FL_PARAM_BOOL, "weighted-ecmp", "false", NULL,
   "weighted ECMP (W-ECMP, BGP link bandwidth) is configured: mixed speeds "
   "are fine");
PDR(P_TOL, FL_PARAM_INT, "tolerance", "1", "LIDs", "0", "4294967295",
    "largest allowed difference between the most and least loaded equivalent "
    "ports (check_lft_balance flags max > min + 1)");
PD(P_METRIC, FL_PARAM_STRING, "metric", "dlids", NULL,
   "port balance metric: dlids (destination LIDs per port, as "
   "check_lft_balance) or paths (CA-to-CA paths per port, what SSSP "
   "balances; costs endpoints x leaves x hops)");
PD(P_DOWN, FL_PARAM_BOOL, "include-down", "false", NULL,
   "also compare down ports toward lower-tier switches (check_lft_balance "
   "ignores them: they carry their subtree's destinations)");
PD(P_ROUTING, FL_PARAM_STRING, "routing", "auto", NULL,
   "auto: the LFTs when loaded, else ECMP; lft; ecmp (flows split evenly "
   "over minimal next hops at each hop)");
PD(P_PATTERNS, FL_PARAM_STRING, "patterns", "all-to-all,bisect,shift,ring",
   NULL,
   "comma-separated traffic patterns: all-to-all, bisect (random pairings "
   "both ways, ORCS eBB), permutation (uniform random), shift, ring "
   "(rail-aligned ring all-reduce within each SU)");
PDR(P_COUNT, FL_PARAM_INT, "count", "100", "patterns", "1", "1000000",
    "random patterns per random pattern kind, at most (see ci)");
PDR(P_CI, FL_PARAM_DOUBLE, "ci", "0.001", NULL, "0", "1",
    "stop drawing random patterns once the 99% confidence half-width of "
    "the eBB is at most this, after at least 10 patterns (0: draw all "
    "count patterns)");
PDR(P_SEED, FL_PARAM_INT, "seed", "1", NULL, "0", NULL,
    "seed of the random patterns");
PDR(P_SHIFT, FL_PARAM_INT, "shift", "0", "endpoints", "0", "4294967295",
    "shift distance of the shift pattern (0: half the endpoints)");
PDR(P_TOP, FL_PARAM_INT, "top-links", "5", "links", "0", "32",
    "hottest links listed per pattern (at most 32)");
PDR(P_MINEBB, FL_PARAM_DOUBLE, "min-ebb", "0", NULL, "0", "1",
    "a pattern whose eBB is below this is a warning (0: always info)");
PD(P_LOADS, FL_PARAM_BOOL, "link-loads", "false", NULL,
   "list every directed switch cable's mean load in the evidence "
   "(link_loads: [from, from_port, load]); `check --view load` sets it to "
   "draw the heat map");

/* Each rule lists the parameters it reads (`fabriclint rules` shows them
 * under it); a plugin-wide --param ecmp-balance.NAME reaches every rule
 * that has NAME. uplink-asymmetry reads none. */
static const fl_param_def *const P_OVER[] = {&P_RATIO};
static const fl_param_def *const P_MIXED[] = {&P_WECMP};
static const fl_param_def *const P_WIDTH[] = {&P_LIMIT, &P_MINW};
static const fl_param_def *const P_IMB[] = {&P_TOL, &P_METRIC, &P_DOWN};
static const fl_param_def *const P_LOAD[] = {&P_ROUTING, &P_PATTERNS, &P_COUNT,
                                             &P_SEED,    &P_SHIFT,    &P_TOP,
                                             &P_MINEBB,  &P_LOADS,    &P_CI};
static const fl_param_def *const P_SUM[] = {&P_TOL,      &P_METRIC, &P_ROUTING,
                                            &P_PATTERNS, &P_COUNT,  &P_SEED,
                                            &P_SHIFT,    &P_TOP,    &P_CI};
#define PARAMS_OF(a) a, (uint32_t)(sizeof a / sizeof *a)
#define NO_PARAMS    NULL, 0

#define RULE(var, sev, on, rid, summ, hlp, fn, needs, params)                  \
  static const fl_rule_def var = {                                             \
      sizeof(fl_rule_def), sev, rid, summ, hlp, on, needs, params, fn}

RULE(R_ASYM, FL_SEV_WARNING, 1, "ecmp-balance.uplink-asymmetry",
     "switches of a tier differ in uplinks, or in cables per upper switch",
     "In a Clos every leaf should have the same number of uplinks of the "
     "same speed, the same number of parallel cables to every spine, and no "
     "missing spine; otherwise ECMP sends equal shares into unequal pipes. "
     "Reports each switch whose uplink count or capacity differs from the "
     "majority of its tier, and each switch whose parallel cables differ per "
     "upper neighbour.",
     check_asym, 0, NO_PARAMS);
RULE(R_OVER, FL_SEV_WARNING, 1, "ecmp-balance.oversubscription",
     "down-capacity / up-capacity of a switch exceeds the policy ratio",
     "Capacity is width x lane rate (Gb/s) summed over cabled ports toward "
     "lower tiers (down, including hosts) and higher tiers (up). Compute "
     "fabrics are built non-blocking (1:1); set max-ratio for storage or "
     "front-end fabrics. The tier ratio is in the evidence.",
     check_oversub, 0, PARAMS_OF(P_OVER));
RULE(R_MIXED, FL_SEV_WARNING, 1, "ecmp-balance.mixed-speed-group",
     "a minimal next-hop set mixes link speeds",
     "Plain ECMP (and IB AR groups) split flows by count, not capacity: with "
     "400G and 800G next hops, the 400G ones saturate first. Configure "
     "weighted ECMP (set weighted-ecmp) or make the links equal.",
     check_mixed, 0, PARAMS_OF(P_MIXED));
RULE(R_WIDTH, FL_SEV_WARNING, 1, "ecmp-balance.group-width",
     "a minimal next-hop set exceeds the ECMP group limit, or is too narrow",
     "One ECMP group toward a destination has one member per minimal next-hop "
     "link; beyond the platform's limit the excess links carry nothing. A "
     "set narrower than min-width where the switch has the uplinks for more "
     "(e.g. a spine missing its cable to one leaf) forces all traffic onto "
     "one path.",
     check_width, 0, PARAMS_OF(P_WIDTH));
RULE(R_IMB, FL_SEV_WARNING, 1, "ecmp-balance.port-imbalance",
     "destination LIDs are routed unevenly over equivalent ports",
     "From the LFTs: per switch, the destination LIDs routed through each "
     "uplink (and each same-tier port), compared as check_lft_balance does "
     "(max > min + tolerance) but for any radix; the coefficient of "
     "variation and every port's count are in the evidence.",
     check_imbalance, FL_NEEDS_ROUTING, PARAMS_OF(P_IMB));
RULE(R_LOAD, FL_SEV_INFO, 0, "ecmp-balance.link-load",
     "link loads and effective bisection bandwidth under traffic patterns",
     "One finding per pattern: eBB as in Hoefler et al. (Cluster 2008) and "
     "ORCS (mean over flows of 1 / the most congested cable of the flow's "
     "route, mean over random patterns, 99% confidence), the largest link "
     "load and the hottest links. Static routing follows the LFTs; without "
     "LFTs flows split evenly over minimal next hops (ECMP). Warning when the "
     "eBB is below min-ebb.",
     check_link_load, 0, PARAMS_OF(P_LOAD));
RULE(R_SUM, FL_SEV_INFO, 0, "ecmp-balance.summary",
     "path diversity, capacities, port balance and eBB in one finding",
     "Per tier: switches, down/up Gb/s and oversubscription, and the "
     "distribution of minimal next-hop set sizes over (switch, destination) "
     "pairs (weighted by endpoints); port-balance figures from the LFTs; the "
     "traffic results. Meant for comparing two plans.",
     check_summary, 0, PARAMS_OF(P_SUM));

static const fl_rule_def *const RULES[] = {&R_ASYM, &R_OVER, &R_MIXED, &R_WIDTH,
                                           &R_IMB,  &R_LOAD, &R_SUM};

static const fl_plugin_desc DESC = {sizeof(fl_plugin_desc),
                                    FL_ABI_MAJOR,
                                    FL_ABI_MINOR,
                                    sizeof RULES / sizeof *RULES,
                                    "ecmp-balance",
                                    "0.1.0",
                                    "fabriclint",
                                    "MIT",
                                    eb_init,
                                    eb_fini,
                                    RULES};

FL_PLUGIN_EXPORT const fl_plugin_desc *fabriclint_plugin_v1(void) {
  return &DESC;
}
