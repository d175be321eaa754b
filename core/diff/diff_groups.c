/* SPDX-License-Identifier: MIT */
/*
 * core/diff/diff_groups.c — one finding per missing unit (issue 30): the
 * planned nodes that match nothing as built, grouped by what is really
 * missing.
 *
 * A design of three scalable units against an as-built of two gave one
 * diff.missing-node per leaf and per NIC (136 findings for one missing
 * SU), and a host missing gave one per NIC. An architect reads one fault
 * each time: the SU is not built, the host is not there. So, when every
 * planned node of an SU is unmatched, its nodes share the cause
 * "missing-su:<SU>" (one finding, its switches, hosts, NICs and cables
 * counted); else, when every planned NIC of a host (the system of its
 * CAs) is unmatched, they share "missing-host:<host>". One node of the
 * unit still there (a leaf installed, a NIC up) is not the unit missing:
 * each node is then its own finding, as before (and with planes on either
 * side, whose own logic judges a node missing from a plane). Switches outside
 * any SU (spines, cores) that are missing, two or more of one tier, share
 * "missing-tier:<tier>" (a spine layer built short is one fact; one spine
 * missing stays its own finding).
 *
 * The SU of a node is the design's `su` attribute, else the inferred one
 * (fl_fabric_node_su(), docs/inference.md), as a string key so a site's
 * "su-a" works. O(nodes + links) expected.
 */
#include <stdlib.h>
#include <string.h>

#include "diff/diff_impl.h"
#include "fabriclint/infer.h"

/* per SU or per host */
typedef struct grp {
  uint32_t total, miss; /* planned nodes; of them unmatched */
  uint32_t sw, ca;      /* unmatched switches, CAs */
  uint32_t hosts;       /* SU: hosts with an unmatched NIC */
  uint32_t cables;      /* planned cables with an end on an unmatched node */
} grp;

/* The SU of design node @n as a key into @buf ("" when none). */
static const char *su_key(const fl_fabric *D, fl_id n, char *buf, size_t size) {
  const char *a = fl_fabric_attr(D, FL_ENT_NODE, n, "su");
  if (a && *a)
    return a;
  uint32_t su = fl_fabric_node_su(D, n);
  if (!su)
    return "";
  snprintf(buf, size, "%u", su);
  return buf;
}

/* The tier of design switch @n outside any SU, as a key into @buf ("" for
 * a CA, a switch of an SU, or an unknown tier): spines and cores. */
static const char *tier_key(const fl_fabric *D, fl_id n, const char *su,
                            char *buf, size_t size) {
  uint32_t t = fl_fabric_node_tier(D, n);
  if (fl_fabric_node_kind(D, n) != FL_NODE_SWITCH || *su ||
      t == FL_TIER_UNKNOWN)
    return "";
  snprintf(buf, size, "%u", t);
  return buf;
}

/* The host of design CA @n: its system ("" when none, or not a CA). */
static const char *host_key(const fl_fabric *D, fl_id n) {
  if (fl_fabric_node_kind(D, n) != FL_NODE_CA)
    return "";
  return fl_fabric_node_system(D, n);
}

static int missing(const dctx *c, fl_id i) {
  return c->mD[i] == FL_NONE && !(c->xplD && c->xplD[i] != FL_NONE);
}

/* The slot of key @k in @m (a new one, zeroed, when absent), or NULL on
 * ENOMEM. */
static grp *slot(fl_strmap *m, grp **v, size_t *cap, const char *k) {
  uint32_t at = fl_strmap_put(m, k, strlen(k), (uint32_t)fl_strmap_len(m));
  if (at == FL_MAP_ABSENT)
    return NULL;
  if (at >= *cap) {
    size_t nc = *cap ? *cap * 2 : 16;
    grp *g = realloc(*v, nc * sizeof *g);
    if (!g)
      return NULL;
    memset(g + *cap, 0, (nc - *cap) * sizeof *g);
    *v = g, *cap = nc;
  }
  return &(*v)[at];
}

int diff_groups_init(dctx *c, diff_groups *g) {
  memset(g, 0, sizeof *g);
  const fl_fabric *D = c->D;
  uint32_t nd = fl_fabric_node_count(D);
  char sb[16], tb[16];
  for (fl_id i = 0; i < nd; i++) {
    int m = missing(c, i), ca = fl_fabric_node_kind(D, i) == FL_NODE_CA;
    const char *su = su_key(D, i, sb, sizeof sb);
    const char *k[3] = {su, host_key(D, i), tier_key(D, i, su, tb, sizeof tb)};
    for (int w = 0; w < 3; w++) {
      if (!*k[w])
        continue;
      grp *s = slot(&g->m[w], &g->v[w], &g->cap[w], k[w]);
      if (!s)
        return -1;
      s->total++;
      s->miss += (uint32_t)m;
      s->sw += (uint32_t)(m && !ca);
      s->ca += (uint32_t)(m && ca);
    }
    /* hosts of an SU: the first unmatched NIC of each counts it */
    if (m && ca && *k[0] && *k[1]) {
      size_t l0 = strlen(k[0]), l1 = strlen(k[1]);
      char *hk = malloc(l0 + l1 + 2);
      if (!hk)
        return -1;
      memcpy(hk, k[0], l0), hk[l0] = '\x1f', memcpy(hk + l0 + 1, k[1], l1 + 1);
      size_t before = fl_strmap_len(&g->hosts_of_su);
      uint32_t r = fl_strmap_put(&g->hosts_of_su, hk, l0 + l1 + 1, 0);
      free(hk);
      if (r == FL_MAP_ABSENT)
        return -1;
      if (fl_strmap_len(&g->hosts_of_su) > before)
        g->v[0][fl_strmap_get(&g->m[0], k[0], l0)].hosts++;
    }
  }
  /* cables: each planned cable once, to the SU (else host) of an unmatched
   * end */
  uint32_t nl = fl_fabric_link_count(D);
  for (fl_id l = 0; l < nl; l++)
    for (int e = 0; e < 2; e++) {
      fl_id n = fl_fabric_port_node(D, fl_fabric_link_port(D, l, e));
      if (n == FL_NONE || !missing(c, n))
        continue;
      const char *su = su_key(D, n, sb, sizeof sb);
      const char *k[3] = {su, host_key(D, n),
                          tier_key(D, n, su, tb, sizeof tb)};
      for (int w = 0; w < 3; w++) {
        uint32_t at =
            *k[w] ? fl_strmap_get(&g->m[w], k[w], strlen(k[w])) : FL_MAP_ABSENT;
        if (at != FL_MAP_ABSENT)
          g->v[w][at].cables++;
      }
      break;
    }
  return 0;
}

int diff_group_of(dctx *c, const diff_groups *g, fl_id i, char **cause,
                  char **cmsg) {
  *cause = *cmsg = NULL;
  char sb[16], tb[16];
  const char *su = su_key(c->D, i, sb, sizeof sb);
  const char *k[3] = {su, host_key(c->D, i),
                      tier_key(c->D, i, su, tb, sizeof tb)};
  for (int w = 0; w < 3; w++) {
    uint32_t at =
        *k[w] ? fl_strmap_get(&g->m[w], k[w], strlen(k[w])) : FL_MAP_ABSENT;
    if (at == FL_MAP_ABSENT)
      continue;
    const grp *s = &g->v[w][at];
    /* an SU or a host: all of it; switches of a tier: two or more */
    if (w < 2 ? s->miss != s->total || s->total < 2 : s->miss < 2)
      continue;
    if (w == 0) {
      *cause = diff_xprintf(c, "missing-su:%s", k[0]);
      *cmsg = diff_xprintf(
          c,
          "scalable unit %s is not in the as-built fabric: all {count} of "
          "its planned nodes are missing (%u switch(es), %u host(s) with "
          "%u NIC(s)), and its %u planned cable(s) with them: build it, or "
          "take it out of the plan",
          k[0], s->sw, s->hosts, s->ca, s->cables);
    } else if (w == 1) {
      *cause = diff_xprintf(c, "missing-host:%s", k[1]);
      *cmsg = diff_xprintf(c,
                           "host \"%s\" is not in the as-built fabric: all "
                           "{count} of its planned NICs are missing, and its "
                           "%u planned cable(s) with them: power, install or "
                           "name it as planned",
                           k[1], s->cables);
    } else {
      *cause = diff_xprintf(c, "missing-tier:%s", k[2]);
      *cmsg = diff_xprintf(c,
                           "{count} of the %u planned tier-%s switches are "
                           "not in the as-built fabric, and their %u planned "
                           "cable(s) with them: install them, or take them "
                           "out of the plan",
                           s->total, k[2], s->cables);
    }
    return *cause && *cmsg ? 0 : -1;
  }
  return 0;
}

void diff_groups_free(diff_groups *g) {
  for (int w = 0; w < 3; w++) {
    fl_strmap_free(&g->m[w]);
    free(g->v[w]);
  }
  fl_strmap_free(&g->hosts_of_su);
}
