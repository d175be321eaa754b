/* SPDX-License-Identifier: MIT */
/*
 * plugins/ecmp-balance/ecmp_capacity.c — up and down capacities per switch
 * (director chassis judged as one switch) and the rules on them:
 * uplink-asymmetry, oversubscription.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ecmp.h"
#include "fabriclint/json_buf.h"
#include "fabriclint/plugin.h"
#include "fabriclint/routing.h"
#include "fabriclint/view.h"
#include "traffic.h"

/* ---- per-switch capacities ---------------------------------------------- */

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

void eb_units_free(eb_units *U) {
  free(U->unit), free(U->next), free(U->nmem), free(U->ext), free(U->acnt);
  memset(U, 0, sizeof *U);
}

/* Fills @U for view @v. Returns 0, or -1 when out of memory. */
int eb_units_build(const fl_view *v, eb_units *U) {
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
    free(rep), free(tail), eb_units_free(U);
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
  const char *name = eb_nm(v, u);
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
/* 1 when uplink slot @i leads to a switch whose side of the cabling is
 * not known: the switch is known only from its neighbours' side, or the
 * captured cable was listed by this end alone (the far switch's block is
 * missing from a cut or excerpted ibnetdiscover dump, or an LLDP capture
 * holds only this switch's view). Planned cables are known from both
 * ends. */
static int one_ended_uplink(const fl_view *v, uint32_t i) {
  const uint32_t both = FL_LINK_SEEN_A | FL_LINK_SEEN_B;
  if (v->pnb[i] == FL_VIEW_NONE)
    return 0;
  if (fl_node_peer_only(v->api, v->f, v->sw_node[v->pnb[i]]))
    return 1;
  /* the far switch's tier is a weak guess (`tier-weak`, set at finalize:
   * docs/inference.md): that it is "up" is unknown, so the switch's shape
   * is not judged (real corpus F19: a lone switch hanging off two spines
   * made them oversubscribed 4.33:1) */
  const char *w =
      v->api->attr(v->f, FL_ENT_NODE, v->sw_node[v->pnb[i]], "tier-weak");
  if (w && strcmp(w, "yes") == 0)
    return 1;
  uint32_t fl = v->api->link_flags(v->f, v->plink[i]);
  return !(fl & FL_LINK_DECLARED) && (fl & both) && (fl & both) != both;
}

void eb_capacities(const fl_view *v, const eb_units *U, uint32_t u, sw_cap *c,
                   uint32_t *cnt) {
  memset(c, 0, sizeof *c);
  c->par_min = UINT32_MAX;
  for (uint32_t s = u; s != FL_VIEW_NONE; s = U->next[s]) {
    c->partial |= fl_node_peer_only(v->api, v->f, v->sw_node[s]);
    for (uint32_t i = v->poff[s]; i < v->poff[s + 1]; i++) {
      if (slot_internal(v, U, i))
        continue;
      int d = fl_view_dir(v, s, i);
      int known = v->pgbps[i] > 0;
      if (d > 0) {
        c->partial |= one_ended_uplink(v, i);
        c->up_n++;
        c->up_g += v->pgbps[i];
        c->up_unk += !known;
        if (v->pgbps[i] > c->up_assumed)
          c->up_assumed = v->pgbps[i];
        if (cnt[U->unit[v->pnb[i]]]++ == 0)
          c->up_nb++;
      } else if (d < 0 &&
                 !(v->pnb[i] == FL_VIEW_NONE && is_an(v, v->pnode[i]))) {
        c->down_n++;
        c->down_g += v->pgbps[i];
        c->down_unk += !known;
      }
    }
  }
  /* an uplink of unknown speed runs as fast as the unit's fastest known
   * one (the assumption that never invents a shortfall) */
  c->up_g += c->up_unk * c->up_assumed;
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

/* What explains a unit's shortfall of uplink capacity (one cause across
 * rules, fl_finding.root_*): its uplinks that run slower than its fastest
 * (a cable trained down: topology.degraded-link names it) and its free
 * ports (cables never plugged: topology.missing-uplinks names them). */
typedef struct eb_short {
  uint32_t slow_n;  /* uplinks slower than the fastest */
  double deficit;   /* Gb/s those lack against the fastest */
  double fastest;   /* the fastest uplink, Gb/s */
  fl_id first_slow; /* the slow uplink of the lowest link id, or FL_NONE */
  uint32_t free_n;  /* ports of the unit's members with no cable */
} eb_short;

static void shortfall(const fl_view *v, const eb_units *U, uint32_t u,
                      eb_short *r) {
  memset(r, 0, sizeof *r);
  r->first_slow = FL_NONE;
  for (uint32_t s = u; s != FL_VIEW_NONE; s = U->next[s])
    for (uint32_t i = v->poff[s]; i < v->poff[s + 1]; i++)
      if (!slot_internal(v, U, i) && fl_view_dir(v, s, i) > 0 &&
          v->pgbps[i] > r->fastest)
        r->fastest = v->pgbps[i];
  for (uint32_t s = u; s != FL_VIEW_NONE; s = U->next[s]) {
    uint32_t ports = v->api->node_nports(v->f, v->sw_node[s]);
    uint32_t used = v->poff[s + 1] - v->poff[s];
    r->free_n += ports > used ? ports - used : 0;
    for (uint32_t i = v->poff[s]; i < v->poff[s + 1]; i++) {
      /* an uplink of unknown speed (0) is not a slow one */
      if (slot_internal(v, U, i) || fl_view_dir(v, s, i) <= 0 ||
          !(v->pgbps[i] > 0) || !(v->pgbps[i] < r->fastest))
        continue;
      r->slow_n++;
      r->deficit += r->fastest - v->pgbps[i];
      if (r->first_slow == FL_NONE || v->plink[i] < r->first_slow)
        r->first_slow = v->plink[i];
    }
  }
}

/* Equal capacities, in Gb/s, up to rounding. */
static int same_gbps(double a, double b) {
  return fabs(a - b) <= 1e-6 * (fabs(a) > 1 ? fabs(a) : 1);
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

/* Upper units that most of a unit's tier reach and the unit does not (a
 * leaf short of uplinks because it has no cable to one spine at all, at a
 * ratio the policy still allows: the tester's IBLEAF-04-02 on topograph's
 * capture, which reaches 8 of the 9 spines its 30 peers reach). */
#define ASYM_MISSING_MAX 8
typedef struct asym_missing {
  uint32_t n;                       /* upper units missed */
  uint32_t u[ASYM_MISSING_MAX];     /* the first of them, by view index */
  uint32_t reach[ASYM_MISSING_MAX]; /* units of the tier reaching each */
} asym_missing;

/* reach[w]: how many judged units have an uplink to upper unit w (each
 * unit counted once per w); @mark has ns+1 entries, 0 on entry, and is
 * left stamped. */
static void upper_reach(const fl_view *v, const eb_units *U, const sw_cap *caps,
                        uint32_t *reach, uint32_t *mark) {
  for (uint32_t u = 0; u < v->ns; u++) {
    if (U->unit[u] != u || caps[u].partial)
      continue;
    for (uint32_t s = u; s != FL_VIEW_NONE; s = U->next[s])
      for (uint32_t i = v->poff[s]; i < v->psw_end[s]; i++) {
        if (fl_view_dir(v, s, i) <= 0 || slot_internal(v, U, i) ||
            v->pnb[i] == FL_VIEW_NONE)
          continue;
        uint32_t w = U->unit[v->pnb[i]];
        if (mark[w] != u + 1)
          mark[w] = u + 1, reach[w]++;
      }
  }
}

/* The upper units (tier t + 1) that more than half of the @tier_n units of
 * unit @u's tier reach and @u does not, into @m. @cnt: ns+1 zeros, left
 * zero. */
static void asym_missing_of(const fl_view *v, const eb_units *U, uint32_t u,
                            const uint32_t *reach, uint32_t tier_n,
                            uint32_t *cnt, asym_missing *m) {
  memset(m, 0, sizeof *m);
  for (uint32_t s = u; s != FL_VIEW_NONE; s = U->next[s])
    for (uint32_t i = v->poff[s]; i < v->psw_end[s]; i++)
      if (fl_view_dir(v, s, i) > 0 && v->pnb[i] != FL_VIEW_NONE)
        cnt[U->unit[v->pnb[i]]] = 1;
  for (uint32_t w = 0; w < v->ns; w++) {
    if (U->unit[w] != w || v->tier[w] != v->tier[u] + 1 || cnt[w] ||
        reach[w] * 2 <= tier_n)
      continue;
    if (m->n < ASYM_MISSING_MAX)
      m->u[m->n] = w, m->reach[m->n] = reach[w];
    m->n++;
  }
  for (uint32_t s = u; s != FL_VIEW_NONE; s = U->next[s])
    for (uint32_t i = v->poff[s]; i < v->psw_end[s]; i++)
      if (fl_view_dir(v, s, i) > 0 && v->pnb[i] != FL_VIEW_NONE)
        cnt[U->unit[v->pnb[i]]] = 0;
}

/* Reports unit @u of tier @t that is off the tier's typical uplinks. */
static int asym_finding(const fl_host_api *api, fl_ctx *ctx, const fl_view *v,
                        const eb_units *U, uint32_t u, const sw_cap *c,
                        int count_off, int par_off, int spread_off,
                        const upkey *mode, uint32_t best, uint32_t tier_n,
                        const asym_missing *miss, const fl_root *root) {
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
  if (count_off && miss->n && off < (int)sizeof msg) {
    char nb[256];
    off += snprintf(msg + off, sizeof msg - (size_t)off,
                    "; it has no cable to \"%s\"",
                    unit_name(v, U, miss->u[0], nb, sizeof nb));
    if (miss->n > 1 && off < (int)sizeof msg)
      off += snprintf(msg + off, sizeof msg - (size_t)off,
                      " and %u more upper switch(es)", miss->n - 1);
    if (off < (int)sizeof msg)
      off +=
          snprintf(msg + off, sizeof msg - (size_t)off,
                   ", which %u of the tier's %u reach", miss->reach[0], tier_n);
  }
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
             eb_nm(v, c->spread_max_sw), c->spread_min,
             eb_nm(v, c->spread_min_sw));
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
  if (count_off && miss->n) {
    char nb[256];
    jb_key(&ev, "unreached_upper");
    jb_arr_open(&ev);
    for (uint32_t k = 0; k < miss->n && k < ASYM_MISSING_MAX; k++)
      jb_str_item(&ev, unit_name(v, U, miss->u[k], nb, sizeof nb));
    jb_arr_close(&ev);
    jb_key_int(&ev, "unreached_upper_count", miss->n);
  }
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
  int rc = eb_report_rooted(api, ctx, msg, nodes, nn, jb_str(&ev), cause, cmsg,
                            root);
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

/* The root that explains unit @u's uplinks off the tier's typical @mode
 * whole, into @root: its slow cables (with them at the fastest rate it
 * would have the typical capacity: the first slow cable), or the uplinks
 * it lacks (as many more at the fastest rate would make it typical: the
 * switch, which topology.missing-uplinks names). With @par_off (its upper
 * neighbours get unequal numbers of cables), the uplinks it lacks explain
 * that too only when they are exactly what fills every upper neighbour it
 * reaches, and each of the @miss->n it does not reach, to its most
 * parallel count: a leaf with one of its two cables to a spine missing.
 * 0 when neither explains it, or for a chassis (judged as one unit). */
static int asym_root(const fl_view *v, const eb_units *U, uint32_t u,
                     const sw_cap *c, const upkey *mode, int par_off,
                     const asym_missing *miss, fl_root *root) {
  eb_short sf;
  shortfall(v, U, u, &sf);
  if (U->nmem[u] > 1)
    return 0;
  if (!par_off && sf.slow_n && c->up_n == mode->up_n &&
      same_gbps(c->up_g + sf.deficit, mode->up_g)) {
    *root = (fl_root){FL_ROOT_LINK, FL_ROOT_CONSEQUENCE, sf.first_slow, NULL};
    return 1;
  }
  if (par_off && (uint64_t)(c->up_nb + miss->n) * c->par_max != mode->up_n)
    return 0;
  if (!sf.slow_n && c->up_n < mode->up_n &&
      same_gbps(c->up_g + (mode->up_n - c->up_n) * sf.fastest, mode->up_g)) {
    *root = (fl_root){FL_ROOT_NODE, FL_ROOT_CONSEQUENCE, v->sw_node[u], NULL};
    return 1;
  }
  return 0;
}

int eb_check_asym(const fl_host_api *api, fl_ctx *ctx, void *data) {
  const fl_view *v = eb_view(api, ctx, data, 0);
  if (!v)
    return 1;
  eb_units U;
  uint32_t *cnt = calloc(v->ns + 1, sizeof *cnt);
  sw_cap *caps = calloc(v->ns + 1, sizeof *caps);
  upkey *keys = calloc(v->ns + 1, sizeof *keys);
  uint32_t *reach = calloc(v->ns + 1, sizeof *reach);
  uint32_t *mark = calloc(v->ns + 1, sizeof *mark);
  int urc = eb_units_build(v, &U);
  if (!cnt || !caps || !keys || !reach || !mark || urc) {
    free(cnt), free(caps), free(keys), free(reach), free(mark);
    eb_units_free(&U);
    api->fail(ctx, "out of memory");
    return 1;
  }
  /* one key per unit (a switch, or a chassis at its representative) */
  uint32_t nk = 0;
  for (uint32_t s = 0; s < v->ns; s++) {
    if (U.unit[s] != s)
      continue;
    eb_capacities(v, &U, s, &caps[s], cnt);
    if (caps[s].partial)
      continue; /* not judged, and not part of its tier's typical shape */
    keys[nk].tier = v->tier[s];
    keys[nk].up_n = caps[s].up_n;
    keys[nk].up_g = caps[s].up_g;
    nk++;
  }
  if (nk > 1)
    qsort(keys, nk, sizeof *keys, upkey_cmp);
  upper_reach(v, &U, caps, reach, mark);
  tier_mode *tm = tier_modes(keys, nk);
  int rc = tm ? 0 : -1;
  if (!tm)
    api->fail(ctx, "out of memory");
  for (uint32_t s = 0; s < v->ns && !rc; s++) {
    uint32_t t = v->tier[s];
    if (t == FL_TIER_UNKNOWN || U.unit[s] != s || caps[s].partial)
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
    fl_root root;
    asym_missing miss;
    memset(&miss, 0, sizeof miss);
    if (count_off && c->up_n < mode.up_n)
      asym_missing_of(v, &U, s, reach, tier_n, cnt, &miss);
    if (count_off || par_off || spread_off)
      rc = asym_finding(
          api, ctx, v, &U, s, c, count_off, par_off, spread_off, &mode, best,
          tier_n, &miss,
          count_off && !spread_off &&
                  asym_root(v, &U, s, c, &mode, par_off, &miss, &root)
              ? &root
              : NULL);
  }
  free(cnt), free(caps), free(keys), free(tm), free(reach), free(mark);
  eb_units_free(&U);
  return rc < 0 ? 1 : rc;
}

/* ---- ecmp-balance.oversubscription ------------------------------------------
 */

/* The root that explains unit @u's oversubscription whole, into @root:
 * its slow cables (at the fastest rate the ratio would hold: the first slow
 * cable, which topology.degraded-link names), or its free ports (as many
 * more uplinks at the fastest rate would hold it: cables never plugged,
 * which topology.missing-uplinks names: the switch when it has fewer
 * uplinks than its tier's typical @typ_up, else the tier-wide fact
 * "uplinks-short:tier-T"). 0 when neither explains it, or for a chassis. */
static int oversub_root(const fl_view *v, const eb_units *U, uint32_t u,
                        const sw_cap *c, double ratio, uint32_t typ_up,
                        char *fact, size_t fsize, fl_root *root) {
  eb_short sf;
  shortfall(v, U, u, &sf);
  double lim = ratio * (1 + 1e-9);
  if (U->nmem[u] > 1 || !(sf.fastest > 0))
    return 0;
  if (sf.slow_n && c->down_g / (c->up_g + sf.deficit) <= lim) {
    *root = (fl_root){FL_ROOT_LINK, FL_ROOT_CONSEQUENCE, sf.first_slow, NULL};
    return 1;
  }
  if (sf.slow_n || !sf.free_n ||
      c->down_g / (c->up_g + sf.free_n * sf.fastest) > lim)
    return 0;
  if (c->up_n < typ_up) {
    *root = (fl_root){FL_ROOT_NODE, FL_ROOT_CONSEQUENCE, v->sw_node[u], NULL};
    return 1;
  }
  snprintf(fact, fsize, "uplinks-short:tier-%u", v->tier[u]);
  *root = (fl_root){FL_ROOT_FACT, FL_ROOT_CONSEQUENCE, 0, fact};
  return 1;
}

/* The typical uplink count of each tier (< 256), into @typ: the most
 * common; on a tie the larger. @cnt as eb_capacities() takes it. 0 or -1
 * on ENOMEM. */
static int typical_uplinks(const fl_view *v, const eb_units *U, uint32_t *cnt,
                           uint32_t typ[256]) {
  upkey *keys = calloc(v->ns + 1, sizeof *keys);
  if (!keys)
    return -1;
  uint32_t nk = 0;
  sw_cap c;
  for (uint32_t s = 0; s < v->ns; s++) {
    if (U->unit[s] != s || v->tier[s] >= 256)
      continue;
    eb_capacities(v, U, s, &c, cnt);
    if (!c.partial)
      keys[nk++] = (upkey){v->tier[s], c.up_n, 0};
  }
  if (nk > 1)
    qsort(keys, nk, sizeof *keys, upkey_cmp);
  memset(typ, 0, 256 * sizeof *typ);
  uint32_t best[256] = {0};
  for (uint32_t k = 0, run = 0; k < nk; k++) {
    run = k && upkey_cmp(&keys[k - 1], &keys[k]) == 0 ? run + 1 : 1;
    if (run >= best[keys[k].tier]) /* ascending: a tie keeps the larger */
      best[keys[k].tier] = run, typ[keys[k].tier] = keys[k].up_n;
  }
  free(keys);
  return 0;
}

/* What eb_capacities() assumed for links of unknown speed, as a message
 * clause ("; assumed: ..."), or "" when every speed is known. */
static void unknown_note(const sw_cap *c, char *buf, size_t size) {
  size_t off = 0;
  buf[0] = 0;
  if (c->up_unk)
    off += (size_t)snprintf(buf, size,
                            "; %u uplink(s) of unknown speed taken at %.0f "
                            "Gb/s, the fastest known",
                            c->up_unk, c->up_assumed);
  if (c->down_unk && off < size)
    snprintf(buf + off, size - off,
             "; %u down-link(s) of unknown speed not counted", c->down_unk);
}

int eb_check_oversub(const fl_host_api *api, fl_ctx *ctx, void *data) {
  const fl_view *v = eb_view(api, ctx, data, 0);
  if (!v)
    return 1;
  double ratio = eb_pdbl(api, ctx, "max-ratio", 1.0);
  if (!(ratio > 0)) {
    fl_param_error(api, ctx, "max-ratio",
                   "expected a positive number (down:up)");
    return 1;
  }
  eb_units U;
  uint32_t *cnt = calloc(v->ns + 1, sizeof *cnt);
  double *tdown = calloc(256, sizeof *tdown), *tup = calloc(256, sizeof *tup);
  int urc = eb_units_build(v, &U);
  if (!cnt || !tdown || !tup || urc) {
    free(cnt), free(tdown), free(tup), eb_units_free(&U);
    api->fail(ctx, "out of memory");
    return 1;
  }
  sw_cap c;
  for (uint32_t s = 0; s < v->ns; s++) {
    if (U.unit[s] != s)
      continue;
    eb_capacities(v, &U, s, &c, cnt);
    if (v->tier[s] < 256 && c.up_n && !c.partial)
      tdown[v->tier[s]] += c.down_g, tup[v->tier[s]] += c.up_g;
  }
  uint32_t typ[256];
  int rc = typical_uplinks(v, &U, cnt, typ) != 0;
  if (rc)
    api->fail(ctx, "out of memory");
  for (uint32_t s = 0; s < v->ns && !rc; s++) {
    if (U.unit[s] != s)
      continue;
    eb_capacities(v, &U, s, &c, cnt);
    /* a switch the plan declares oversubscribed is judged at its ratio */
    double allowed = fl_view_design_ratio(api, v->f, v->sw_node[s], ratio);
    if (c.partial || !c.up_n || !(c.up_g > 0) ||
        c.down_g / c.up_g <= allowed * (1 + 1e-9))
      continue;
    uint32_t t = v->tier[s];
    double tr = t < 256 && tup[t] > 0 ? tdown[t] / tup[t] : 0;
    char msg[1024], who[320], assumed[200];
    unknown_note(&c, assumed, sizeof assumed);
    snprintf(msg, sizeof msg,
             "%s (tier %u) is oversubscribed %.2f:1 (%.0f Gb/s "
             "down over %u port(s), %.0f Gb/s up over %u port(s)%s); the "
             "%s allows %.2f:1",
             unit_phrase(v, &U, s, who, sizeof who), t, c.down_g / c.up_g,
             c.down_g, c.down_n, c.up_g, c.up_n, assumed,
             allowed != ratio ? "plan" : "policy", allowed);
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
    jb_key_int(&ev, "up_ports_unknown_speed", c.up_unk);
    jb_key_int(&ev, "down_ports_unknown_speed", c.down_unk);
    if (c.up_unk)
      jb_key_double(&ev, "assumed_up_gbps", c.up_assumed);
    jb_key_double(&ev, "ratio", c.down_g / c.up_g);
    jb_key_double(&ev, "tier_ratio", tr);
    jb_key_double(&ev, "max_ratio", allowed);
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
             t, U.any ? "switches (a chassis counts once)" : "switches",
             allowed, tr);
    char fact[64];
    fl_root root;
    int rooted = oversub_root(v, &U, s, &c, allowed,
                              v->tier[s] < 256 ? typ[v->tier[s]] : 0, fact,
                              sizeof fact, &root);
    rc = eb_report_rooted(api, ctx, msg, nodes, nn, jb_str(&ev), cause, cmsg,
                          rooted ? &root : NULL);
    jb_free(&ev);
    free(nodes);
  }
  free(cnt), free(tdown), free(tup), eb_units_free(&U);
  return rc;
}
