/* SPDX-License-Identifier: MIT */
/*
 * plugins/failure-domains/fd_spread.c — failure-domains.spine-spread: the
 * spines/cores of a group sit in fewer distinct feeds / PDUs / racks than
 * required.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fd_rules.h"

typedef struct sgroup {
  uint32_t pod, tier;
  const char *plane;
  fl_id node;
} sgroup;

static int cmp_sgroup(const void *x, const void *y) {
  const sgroup *a = x, *b = y;
  if (a->pod != b->pod)
    return a->pod < b->pod ? -1 : 1;
  if (a->tier != b->tier)
    return a->tier < b->tier ? -1 : 1;
  int c = strcmp(a->plane ? a->plane : "", b->plane ? b->plane : "");
  if (c)
    return c;
  return a->node < b->node ? -1 : a->node > b->node;
}

static int same_group(const sgroup *a, const sgroup *b) {
  return a->pod == b->pod && a->tier == b->tier &&
         strcmp(a->plane ? a->plane : "", b->plane ? b->plane : "") == 0;
}

static int check_spread(const fl_host_api *api, fl_ctx *ctx, void *pd) {
  fd_state *st = pd;
  fd_model *m = fd_get_model(api, ctx, st, NULL);
  if (!m)
    return 1;
  const fl_fabric *f = m->fab;
  const char *req =
      fd_param_str(api, ctx, "require", "power-feed:2,pdu:2,rack:2");
  /* parse KEY:N[,KEY:N...] */
  char buf[256], *keys[16];
  uint32_t need[16], nk = 0;
  snprintf(buf, sizeof buf, "%s", req);
  char *save = NULL;
  for (char *t = strtok_r(buf, ", ", &save); t && nk < 16;
       t = strtok_r(NULL, ", ", &save)) {
    char *colon = strchr(t, ':');
    long n = colon ? strtol(colon + 1, NULL, 10) : 2;
    if (colon)
      *colon = '\0';
    if (!*t || n < 1) {
      fl_param_error(api, ctx, "require",
                     "expected KEY:N[,KEY:N...], e.g. "
                     "power-feed:2,rack:2");
      return 1;
    }
    keys[nk] = t;
    need[nk++] = (uint32_t)n;
  }
  sgroup *g = malloc(((size_t)m->nn + 1) * sizeof *g);
  const char **vals = malloc(((size_t)m->nn + 1) * sizeof *vals);
  if (!g || !vals) {
    free(g), free(vals);
    api->fail(ctx, "out of memory");
    return 1;
  }
  uint32_t n = 0;
  for (fl_id v = 0; v < m->nn; v++)
    if (m->sw[v] && m->tier[v] != FL_TIER_UNKNOWN && m->tier[v] >= 2)
      g[n++] = (sgroup){m->pod[v], m->tier[v], m->plane[v], v};
  if (n > 1)
    qsort(g, n, sizeof *g, cmp_sgroup);
  int rc = 0;
  for (uint32_t i = 0; i < n && !rc;) {
    uint32_t j = i + 1;
    while (j < n && same_group(&g[i], &g[j]))
      j++;
    for (uint32_t k = 0; k < nk && !rc; k++) {
      uint32_t nv = 0, missing = 0;
      for (uint32_t x = i; x < j; x++) {
        const char *s = api->attr(f, FL_ENT_NODE, g[x].node, keys[k]);
        if (!s || !*s || fd_multi_fed(s)) {
          missing++; /* unknown, or fed from several: could spread */
          continue;
        }
        uint32_t y = 0;
        while (y < nv && strcmp(vals[y], s) != 0)
          y++;
        if (y == nv)
          vals[nv++] = s;
      }
      /* no data, spread enough, or members without a value could still
       * make up the difference: only certain shortfalls are reported */
      if (nv == 0 || nv + missing >= need[k])
        continue;
      /* when losing each of the values splits the hosts, domain-partition
       * reports each loss, naming the switches: that is this cause */
      int all_split = fl_fabric_key_eq(st->part_ran, m->key);
      for (uint32_t y = 0; y < nv && all_split; y++) {
        int sp = fd_attr_splits(api, m, keys[k], vals[y]);
        if (sp < 0) {
          api->fail(ctx, "out of memory");
          rc = 1;
        }
        all_split = sp == 1;
      }
      if (rc || all_split)
        continue;
      char grpname[400], vlist[300] = "", msg[1200];
      size_t off = 0;
      for (uint32_t y = 0; y < nv && off < sizeof vlist; y++)
        off += (size_t)snprintf(vlist + off, sizeof vlist - off, "%s%s",
                                y ? ", " : "", vals[y]);
      const char *word =
          g[i].tier == m->top_tier && m->top_tier >= 3 ? "cores" : "spines";
      char pl[300];
      if (g[i].pod != FD_NONE)
        fd_pod_label(&m->pods[g[i].pod], pl, sizeof pl);
      if (g[i].pod != FD_NONE)
        snprintf(grpname, sizeof grpname, "%s of %s%s%s", word, pl,
                 g[i].plane ? ", plane " : "", g[i].plane ? g[i].plane : "");
      else
        snprintf(grpname, sizeof grpname, "tier-%u %s%s%s", g[i].tier, word,
                 g[i].plane ? " of plane " : "", g[i].plane ? g[i].plane : "");
      snprintf(msg, sizeof msg,
               "the %u %s sit in %u distinct %s (%s)%s; the policy requires at "
               "least %u",
               j - i, grpname, nv, keys[k], vlist,
               missing ? " and some have no value" : "", need[k]);
      fl_id ids[MAX_NAMED];
      uint32_t n_ids = 0;
      jbuf ev;
      jb_init(&ev);
      jb_obj_open(&ev);
      jb_key_str(&ev, "key", keys[k]);
      jb_key_int(&ev, "required", need[k]);
      jb_key_int(&ev, "distinct", nv);
      jb_key_int(&ev, "switches", j - i);
      jb_key_int(&ev, "without_value", missing);
      jb_key_int(&ev, "tier", g[i].tier);
      if (g[i].pod != FD_NONE)
        jb_key_str(&ev, "pod", m->pods[g[i].pod].name);
      if (g[i].plane)
        jb_key_str(&ev, "plane", g[i].plane);
      jb_key(&ev, "values");
      jb_arr_open(&ev);
      for (uint32_t y = 0; y < nv; y++)
        jb_str_item(&ev, vals[y]);
      jb_arr_close(&ev);
      jb_obj_close(&ev);
      for (uint32_t x = i; x < j && n_ids < MAX_NAMED; x++)
        ids[n_ids++] = g[x].node;
      rc = fd_report(api, ctx, msg, ids, n_ids, NULL, 0, NULL, 0, jb_str(&ev));
      jb_free(&ev);
    }
    i = j;
  }
  free(g), free(vals);
  return rc;
}

static const fl_param_def P_REQUIRE = {
    sizeof(fl_param_def),
    FL_PARAM_STRING,
    "require",
    "power-feed:2,pdu:2,rack:2",
    NULL,
    "KEY:N pairs: the spines (cores) of a group must sit in at least N "
    "distinct values of KEY",
    NULL,
    NULL};
static const fl_param_def *const PARAMS_SPREAD[] = {&P_REQUIRE};

const fl_rule_def FD_R_SPREAD = {
    sizeof(fl_rule_def),
    FL_SEV_WARNING,
    "failure-domains.spine-spread",
    "the spines or cores of a group sit in too few feeds, PDUs or racks",
    "Groups are the switches of tier 2 and above by pod, tier and plane. "
    "Each must span at least N distinct values of each required key.",
    1,
    FL_NEEDS_ALL_PLANES,
    PARAMS_SPREAD,
    sizeof PARAMS_SPREAD / sizeof *PARAMS_SPREAD,
    check_spread};
