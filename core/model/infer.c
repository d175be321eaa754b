/* SPDX-License-Identifier: MIT */
/*
 * core/model/infer.c — the evidence of the inferred tiers and the
 * scalable units (SUs), computed once at finalize (fabriclint/infer.h,
 * docs/inference.md).
 *
 * Tiers are ranked by derive.c; this file records, per switch, what the
 * rank rests on: its compute endpoints, and its distinct switch neighbours
 * one tier below, one above, at its own tier and further away (a cable
 * within a tier or skipping one makes the shape irregular and the rank
 * less certain).
 *
 * SUs: the site's names first. When every leaf (a switch cabled to a
 * compute CA) has `su<N>` in its name (leaf-su02-r3, su2-leaf5; "su" at
 * the start or after a character that is not a letter or digit, then an
 * optional - or _, then digits) and no host reaches leaves of two numbers,
 * a leaf's SU is its number and a NIC's SU its leaf's. Otherwise the
 * leaves that share a host are one SU (union-find over leaves through
 * hosts), numbered in node order of their first leaf, as the pictures and
 * the rail rules did before; the evidence says why the names were not
 * used. A host is the system of its CAs (derive.c), else the CA itself.
 * O(V + E).
 */
#include "model/infer.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabriclint/infer.h"
#include "fabriclint/roles.h"
#include "model/derive.h"
#include "model/fabric_impl.h"
#include "model/tier_type.h"
#include "util/unionfind.h"

enum { SU_NONE, SU_NAMES, SU_GROUPS };

/* Why the names were not used for SUs. */
enum { NN_NONE, NN_UNNAMED, NN_TWO };

#define INFER_TIERS 16 /* tiers counted per tier; a fabric has 2 to 4 */

typedef struct infer_node {
  uint32_t ep; /* switch: compute endpoints cabled to it */
  uint32_t nb_down, nb_up, nb_same, nb_skip;
  uint32_t su;      /* 1-based; 0 none */
  uint32_t name_su; /* su<N> of a switch's name, 0 none */
  uint8_t su_named; /* SU_GROUPS: numbered by the site's names */
} infer_node;

struct fl_infer {
  infer_node *v;
  uint32_t max_leaf_ep; /* endpoints of the fullest tier-1 switch */
  uint32_t su_source;   /* SU_* */
  uint32_t nn_why;      /* NN_*: why the names were not used */
  fl_id nn_node;        /* the leaf without a number, or the host's CA */
  uint32_t nn_a, nn_b;  /* NN_TWO: the two numbers */
  uint32_t n_named;     /* leaves with su<N> in their name */
  uint32_t su_field;    /* SU_GROUPS numbered by the k-th number of the
                           leaves' names (k + 1), or 0: in node order */
  uint32_t tier_n[INFER_TIERS]; /* switches per tier (tiers below
                                   INFER_TIERS) */
};

const char *fl_confidence_name(uint32_t conf) {
  static const char *const names[] = {"none", "low", "medium", "high", "given"};
  return conf <= FL_CONF_GIVEN ? names[conf] : "?";
}

uint32_t fl_su_of_name(const char *s) {
  for (size_t i = 0; s && s[i]; i++) {
    if ((s[i] != 's' && s[i] != 'S') || (s[i + 1] != 'u' && s[i + 1] != 'U'))
      continue;
    if (i > 0 && isalnum((unsigned char)s[i - 1]))
      continue;
    size_t k = i + 2;
    if (s[k] == '-' || s[k] == '_')
      k++;
    if (!isdigit((unsigned char)s[k]))
      continue;
    uint32_t v = 0;
    while (isdigit((unsigned char)s[k]) && v < 100000000u)
      v = v * 10 + (uint32_t)(s[k++] - '0');
    if (!isdigit((unsigned char)s[k]) && v > 0)
      return v;
  }
  return 0;
}

static fl_id far_node(const fl_fabric *fab, fl_id l, fl_id p) {
  const fl_link_rec *r = &fab->links[l];
  return fab->ports[r->a == p ? r->b : r->a].node;
}

static int compute_ca(const fl_fabric *fab, fl_id n) {
  return fab->nodes[n].kind == FL_NODE_CA && !fl_is_aggregation_node(fab, n) &&
         !fl_role_is_service(fl_fabric_attr(fab, FL_ENT_NODE, n, "role"));
}

static int same_chassis(const fl_fabric *fab, fl_id a, fl_id b) {
  uint32_t c = fl_fabric_node_chassis(fab, a);
  return c != FL_NONE && c == fl_fabric_node_chassis(fab, b);
}

/* Endpoints and neighbours by tier of switch @n; @stamp marks the
 * neighbours counted (value n + 1). */
static void tier_counts(const fl_fabric *fab, struct fl_infer *inf, fl_id n,
                        uint32_t *stamp) {
  const fl_node_rec *r = &fab->nodes[n];
  infer_node *x = &inf->v[n];
  for (uint32_t k = 0; k < r->port_recs; k++) {
    fl_id p = r->first_port + k;
    for (uint32_t j = fab->port_link_off[p]; j < fab->port_link_off[p + 1];
         j++) {
      fl_id u = far_node(fab, fab->port_links[j], p);
      if (compute_ca(fab, u))
        x->ep++;
      if (fab->nodes[u].kind != FL_NODE_SWITCH || u == n ||
          same_chassis(fab, n, u) || stamp[u] == n + 1)
        continue;
      stamp[u] = n + 1;
      uint32_t t = r->tier, tu = fab->nodes[u].tier;
      if (t == FL_TIER_UNKNOWN || tu == FL_TIER_UNKNOWN)
        continue;
      if (tu + 1 == t)
        x->nb_down++;
      else if (tu == t + 1)
        x->nb_up++;
      else if (tu == t)
        x->nb_same++;
      else
        x->nb_skip++;
    }
  }
}

/* The su attribute of node @n, or NULL. */
static const char *su_attr(const fl_fabric *fab, fl_id n) {
  return fl_fabric_attr(fab, FL_ENT_NODE, n, "su");
}

/* The first leaf (switch) CA @n is cabled to, or FL_NONE. */
static fl_id leaf_of(const fl_fabric *fab, fl_id n) {
  const fl_node_rec *r = &fab->nodes[n];
  for (uint32_t k = 0; k < r->port_recs; k++) {
    fl_id p = r->first_port + k;
    for (uint32_t j = fab->port_link_off[p]; j < fab->port_link_off[p + 1];
         j++) {
      fl_id u = far_node(fab, fab->port_links[j], p);
      if (fab->nodes[u].kind == FL_NODE_SWITCH)
        return u;
    }
  }
  return FL_NONE;
}

/* Host index of CA @n: its system's slot in @hosts (added on first use),
 * else a slot of its own (@next counts them). FL_MAP_ABSENT on ENOMEM. */
static uint32_t host_of(const fl_fabric *fab, fl_id n, fl_strmap *hosts,
                        uint32_t *next) {
  const char *sys = fl_fabric_node_system(fab, n);
  if (!*sys)
    return (*next)++;
  uint32_t h = fl_strmap_get(hosts, sys, strlen(sys));
  if (h != FL_MAP_ABSENT)
    return h;
  return fl_strmap_put(hosts, sys, strlen(sys), *next) == FL_MAP_ABSENT
             ? FL_MAP_ABSENT
             : (*next)++;
}

/* Are the names consistent? Every leaf named, no host on two numbers.
 * @host[n]: host of CA n; @leaf[n]: its leaf. Sets inf->nn_*. */
static void check_names(const fl_fabric *fab, struct fl_infer *inf,
                        const uint32_t *host, const fl_id *leaf,
                        uint32_t nhosts, uint32_t *host_num) {
  for (uint32_t h = 0; h < nhosts; h++)
    host_num[h] = 0;
  for (size_t n = 0; n < fab->n_nodes; n++) {
    if (leaf[n] == FL_NONE)
      continue;
    uint32_t s = inf->v[leaf[n]].name_su;
    if (s == 0) {
      if (inf->nn_why == NN_NONE)
        inf->nn_why = NN_UNNAMED, inf->nn_node = leaf[n];
      continue;
    }
    uint32_t *hn = &host_num[host[n]];
    if (*hn == 0)
      *hn = s;
    else if (*hn != s && inf->nn_why == NN_NONE)
      inf->nn_why = NN_TWO, inf->nn_node = (fl_id)n, inf->nn_a = *hn,
      inf->nn_b = s;
  }
}

/* The @k-th run of digits of @s (0-based), into *@v (capped); 0 when @s
 * has no such run. */
static int digit_field(const char *s, uint32_t k, uint32_t *v) {
  for (uint32_t i = 0; *s;) {
    if (!isdigit((unsigned char)*s)) {
      s++;
      continue;
    }
    uint32_t x = 0;
    while (isdigit((unsigned char)*s)) {
      x = x < 100000000u ? x * 10 + (uint32_t)(*s - '0') : x;
      s++;
    }
    if (i++ == k) {
      *v = x;
      return 1;
    }
  }
  return 0;
}

static int cmp_u32(const void *a, const void *b) {
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return (x > y) - (x < y);
}

/* The name of @s with every run of digits as '#' ("MF#;LG#-#:MQM#/U#"),
 * into @buf (@size bytes, truncated). */
static void skeleton(const char *s, char *buf, size_t size) {
  size_t o = 0;
  while (*s && o + 1 < size) {
    if (isdigit((unsigned char)*s)) {
      buf[o++] = '#';
      while (isdigit((unsigned char)*s))
        s++;
    } else {
      buf[o++] = *s++;
    }
  }
  buf[o] = '\0';
}

/* The site's own SU numbers when its names carry them in another form
 * than su<N> (Selene's compute leaves MF0;LG13-07:MQM8700/U1: leaf group
 * 13, rail 7; outside tester, session 10). The groups are the ones the
 * cabling made (leaves sharing hosts). Among the groups whose leaves are
 * named alike (the same name with digits aside; the kind with most groups,
 * at least 2: Selene's management leaves MLG01-0x are another kind), a run
 * of digits is their number when, at the same position in every leaf
 * name, it is the same within each group, differs between groups and is
 * not 0. The first such position wins: those groups take its number, the
 * others follow the largest in node order (@named marks the groups numbered
 * by name). None leaves the node-order numbers. @num holds 1..@ngroups per
 * group root. Returns FL_OK or FL_ENOMEM. */
#define SU_FIELDS  8u
#define SKEL_MAX   128u
#define SKEL_KINDS 64u
static int name_field(const fl_fabric *fab, struct fl_infer *inf, uint32_t *rep,
                      const fl_id *leaf, uint32_t *num, uint32_t ngroups,
                      uint8_t *named) {
  size_t nn = fab->n_nodes;
  uint32_t *val = malloc((size_t)ngroups * SU_FIELDS * sizeof *val);
  uint8_t *bad = calloc(SU_FIELDS, 1), *seen = calloc(ngroups, 1);
  uint32_t *sorted = malloc((size_t)ngroups * sizeof *sorted);
  uint32_t *kind = malloc((size_t)ngroups * sizeof *kind); /* skeleton id */
  char(*skel)[SKEL_MAX] = malloc(SKEL_KINDS * sizeof *skel);
  uint32_t *kcount = calloc(SKEL_KINDS, sizeof *kcount);
  /* per node: the skeleton id of a leaf holding hosts (SKEL_KINDS: one of
   * the kinds past the cap, not counted), UINT32_MAX for other nodes; each
   * leaf's name is read once, however many NICs it holds */
  uint32_t *kind_of = malloc((nn + 1) * sizeof *kind_of);
  int rc = val && bad && seen && sorted && kind && skel && kcount && kind_of
               ? FL_OK
               : FL_ENOMEM;
  /* the main kind: the skeleton of the leaves most NICs are cabled to; a
   * group is of the main kind when one of its leaves is (a leaf renamed by
   * hand, leaf-x-r5 among leaf-su02-r*, does not take its group out), and
   * only those leaves give its number */
  uint32_t nk = 0;
  for (size_t n = 0; rc == FL_OK && n < nn; n++)
    kind_of[n] = UINT32_MAX;
  for (size_t n = 0; rc == FL_OK && n < nn; n++) {
    if (leaf[n] == FL_NONE)
      continue;
    uint32_t *k = &kind_of[leaf[n]];
    if (*k == UINT32_MAX) {
      char sk[SKEL_MAX];
      skeleton(fl_fabric_node_name(fab, leaf[n]), sk, sizeof sk);
      for (*k = 0; *k < nk && strcmp(skel[*k], sk) != 0;)
        (*k)++;
      if (*k == nk && nk < SKEL_KINDS) /* more kinds: not counted */
        memcpy(skel[nk++], sk, sizeof sk);
      else if (*k == nk)
        *k = SKEL_KINDS;
    }
    if (*k < nk)
      kcount[*k]++;
  }
  uint32_t main_kind = UINT32_MAX, best = 0, top_leaves = 0;
  for (uint32_t k = 0; k < nk; k++)
    if (kcount[k] > top_leaves)
      top_leaves = kcount[k], main_kind = k;
  for (uint32_t g = 0; rc == FL_OK && g < ngroups; g++)
    kind[g] = UINT32_MAX;
  for (size_t l = 0; rc == FL_OK && main_kind != UINT32_MAX && l < nn; l++) {
    if (kind_of[l] != main_kind)
      continue;
    uint32_t g = num[fl_uf_find(rep, (uint32_t)l)] - 1;
    if (kind[g] == UINT32_MAX)
      kind[g] = main_kind, best++;
  }
  for (size_t l = 0; rc == FL_OK && best >= 2 && l < nn; l++) {
    if (kind_of[l] != main_kind)
      continue;
    uint32_t g = num[fl_uf_find(rep, (uint32_t)l)] - 1;
    const char *name = fl_fabric_node_name(fab, (fl_id)l);
    for (uint32_t k = 0; k < SU_FIELDS; k++) {
      uint32_t v = 0;
      if (!digit_field(name, k, &v) || v == 0)
        bad[k] = 1;
      else if (!seen[g])
        val[g * SU_FIELDS + k] = v;
      else if (val[g * SU_FIELDS + k] != v)
        bad[k] = 1;
    }
    seen[g] = 1;
  }
  uint32_t field = 0;
  for (uint32_t k = 0; rc == FL_OK && best >= 2 && k < SU_FIELDS && !field;
       k++) {
    if (bad[k])
      continue;
    uint32_t m = 0;
    for (uint32_t g = 0; g < ngroups; g++)
      if (kind[g] == main_kind)
        sorted[m++] = val[g * SU_FIELDS + k];
    qsort(sorted, m, sizeof *sorted, cmp_u32);
    int distinct = 1;
    for (uint32_t g = 1; g < m && distinct; g++)
      distinct = sorted[g] != sorted[g - 1];
    if (distinct)
      field = k + 1;
  }
  if (field) {
    uint32_t top = 0;
    for (uint32_t g = 0; g < ngroups; g++)
      if (kind[g] == main_kind && val[g * SU_FIELDS + field - 1] > top)
        top = val[g * SU_FIELDS + field - 1];
    for (size_t n = 0; n < nn; n++) { /* node order: roots by index */
      if (!num[n])
        continue;
      uint32_t g = num[n] - 1;
      named[n] = kind[g] == main_kind;
      num[n] = named[n] ? val[g * SU_FIELDS + field - 1] : ++top;
    }
    inf->su_field = field;
  }
  free(val), free(bad), free(seen), free(sorted), free(kind), free(skel);
  free(kcount), free(kind_of);
  return rc;
}

/* SUs by groups of leaves that share a host, numbered in node order (or by
 * a number the site's names give each group: name_field()). */
static int su_groups(const fl_fabric *fab, struct fl_infer *inf,
                     const uint32_t *host, const fl_id *leaf, uint32_t nhosts) {
  size_t nn = fab->n_nodes;
  uint32_t *rep = malloc((nn + 1) * sizeof *rep);
  fl_id *first = malloc((nhosts + 1) * sizeof *first);
  uint32_t *num = calloc(nn + 1, sizeof *num);
  if (!rep || !first || !num) {
    free(rep), free(first), free(num);
    return FL_ENOMEM;
  }
  fl_uf_init(rep, nn);
  for (uint32_t h = 0; h < nhosts; h++)
    first[h] = FL_NONE;
  for (size_t n = 0; n < nn; n++) {
    if (leaf[n] == FL_NONE)
      continue;
    if (first[host[n]] == FL_NONE) {
      first[host[n]] = leaf[n];
      continue;
    }
    fl_uf_join(rep, leaf[n], first[host[n]]);
  }
  /* number the groups that hold hosts (a spine is its own root and is no
   * group: counted, it shifted the numbers of later groups), in node order
   * of their first leaf, or by the number the site's names give them */
  uint32_t next = 0;
  for (size_t n = 0; n < nn; n++)
    if (leaf[n] != FL_NONE)
      num[fl_uf_find(rep, leaf[n])] = 1;
  for (size_t n = 0; n < nn; n++)
    if (num[n])
      num[n] = ++next;
  uint8_t *named = calloc(nn + 1, 1);
  /* names that contradict the cabling (a host on leaves named su01 and
   * su02) number nothing */
  if (!named || (next >= 2 && inf->nn_why != NN_TWO &&
                 name_field(fab, inf, rep, leaf, num, next, named) != FL_OK)) {
    free(rep), free(first), free(num), free(named);
    return FL_ENOMEM;
  }
  for (size_t n = 0; n < nn; n++) {
    if (leaf[n] == FL_NONE)
      continue;
    uint32_t r = fl_uf_find(rep, first[host[n]]), s = num[r];
    inf->v[n].su = s;
    inf->v[leaf[n]].su = s;
    inf->v[n].su_named = inf->v[leaf[n]].su_named = named[r];
  }
  free(rep), free(first), free(num), free(named);
  return FL_OK;
}

/* The SUs of every NIC (CA cabled to a switch, compute) and leaf. */
static int infer_sus(const fl_fabric *fab, struct fl_infer *inf) {
  size_t nn = fab->n_nodes;
  uint32_t *host = malloc((nn + 1) * sizeof *host);
  fl_id *leaf = malloc((nn + 1) * sizeof *leaf);
  fl_strmap hosts;
  memset(&hosts, 0, sizeof hosts);
  uint32_t nhosts = 0;
  int rc = host && leaf ? FL_OK : FL_ENOMEM;
  for (size_t n = 0; rc == FL_OK && n < nn; n++) {
    leaf[n] = FL_NONE;
    if (!compute_ca(fab, (fl_id)n) ||
        (leaf[n] = leaf_of(fab, (fl_id)n)) == FL_NONE)
      continue;
    if (su_attr(fab, (fl_id)n) || su_attr(fab, leaf[n])) {
      leaf[n] = FL_NONE; /* given: not inferred */
      continue;
    }
    host[n] = host_of(fab, (fl_id)n, &hosts, &nhosts);
    if (host[n] == FL_MAP_ABSENT)
      rc = FL_ENOMEM;
  }
  uint32_t *host_num =
      rc == FL_OK ? malloc((nhosts + 1) * sizeof *host_num) : NULL;
  if (rc == FL_OK && !host_num)
    rc = FL_ENOMEM;
  if (rc == FL_OK) {
    check_names(fab, inf, host, leaf, nhosts, host_num);
    int any = 0;
    for (size_t n = 0; n < nn && !any; n++)
      any = leaf[n] != FL_NONE;
    if (any && inf->nn_why == NN_NONE) {
      inf->su_source = SU_NAMES;
      for (size_t n = 0; n < nn; n++)
        if (leaf[n] != FL_NONE)
          inf->v[n].su = inf->v[leaf[n]].su = inf->v[leaf[n]].name_su;
    } else if (any) {
      inf->su_source = SU_GROUPS;
      rc = su_groups(fab, inf, host, leaf, nhosts);
    }
  }
  free(host_num), free(host), free(leaf);
  fl_strmap_free(&hosts);
  return rc;
}

/* A lone top switch (F19, an outside tester's real cluster): the only
 * switch of its tier, at tier 3 or above, without endpoints, that reaches
 * fewer switches than the tier below has. Ranked above the spines only
 * because it hangs off some of them (a spine cabled to spines), it is no
 * core that joins the tier below: its tier is a weak guess. */
static int lone_top(const fl_fabric *fab, const struct fl_infer *inf, fl_id n) {
  const infer_node *x = &inf->v[n];
  uint32_t t = fab->nodes[n].tier;
  return fab->nodes[n].tier_derived && t >= 3 && t < INFER_TIERS && !x->ep &&
         inf->tier_n[t] == 1 && x->nb_down < inf->tier_n[t - 1];
}

static uint32_t tier_conf(const fl_fabric *fab, fl_id n) {
  char buf[8];
  return fl_fabric_node_tier_explain(fab, n, buf, sizeof buf);
}

/* Node attribute `tier-weak` = "yes" on every switch whose tier has low
 * confidence, so rules (plugins read attributes) do not rest a verdict on
 * it: ecmp-balance does not count cables to it as uplinks of a judged
 * shape (unknown is not wrong). */
static int mark_weak_tiers(fl_fabric *fab) {
  size_t nn = fab->n_nodes, nm = 0;
  fl_id *mark = malloc((nn ? nn : 1) * sizeof *mark);
  if (!mark)
    return FL_ENOMEM;
  for (size_t n = 0; n < nn; n++) /* every lookup first (views.c) */
    if (fab->nodes[n].kind == FL_NODE_SWITCH &&
        tier_conf(fab, (fl_id)n) == FL_CONF_LOW &&
        !fl_fabric_attr(fab, FL_ENT_NODE, (fl_id)n, "tier-weak"))
      mark[nm++] = (fl_id)n;
  int rc = FL_OK;
  for (size_t i = 0; i < nm && rc == FL_OK; i++)
    rc = fl_b_attr_sealed(fab, FL_ENT_NODE, mark[i], "tier-weak", "yes");
  if (nm)
    fl_b_attrs_reindex(fab);
  free(mark);
  return rc;
}

int fl_infer_finalize(fl_fabric *fab, fl_error *err) {
  struct fl_infer *inf = calloc(1, sizeof *inf);
  size_t nn = fab->n_nodes;
  uint32_t *stamp = calloc(nn + 1, sizeof *stamp);
  if (inf)
    inf->v = calloc(nn + 1, sizeof *inf->v);
  if (!inf || !inf->v || !stamp) {
    free(stamp);
    if (inf)
      free(inf->v);
    free(inf);
    return fl_error_set(err, FL_ENOMEM, NULL, 0, 0, "out of memory");
  }
  for (size_t n = 0; n < nn; n++) {
    if (fab->nodes[n].kind != FL_NODE_SWITCH)
      continue;
    tier_counts(fab, inf, (fl_id)n, stamp);
    if (fab->nodes[n].tier == 1 && inf->v[n].ep > inf->max_leaf_ep)
      inf->max_leaf_ep = inf->v[n].ep;
    inf->v[n].name_su = fl_su_of_name(fl_fabric_node_name(fab, (fl_id)n));
    inf->n_named += inf->v[n].name_su != 0;
  }
  free(stamp);
  for (size_t n = 0; n < nn; n++)
    if (fab->nodes[n].kind == FL_NODE_SWITCH &&
        fab->nodes[n].tier < INFER_TIERS)
      inf->tier_n[fab->nodes[n].tier]++;
  fab->infer = inf;
  if (infer_sus(fab, inf) != FL_OK || mark_weak_tiers(fab) != FL_OK)
    return fl_error_set(err, FL_ENOMEM, NULL, 0, 0, "out of memory");
  return FL_OK;
}

void fl_infer_free(fl_fabric *fab) {
  if (!fab->infer)
    return;
  free(fab->infer->v);
  free(fab->infer);
  fab->infer = NULL;
}

/* ---- read accessors ------------------------------------------------------ */

static const infer_node *node_of(const fl_fabric *fab, fl_id n) {
  return fab && fab->infer && n < fab->n_nodes ? &fab->infer->v[n] : NULL;
}

/* Append printf-style text at *@o of @buf (@size bytes, truncated). */
static void add(char *buf, size_t size, size_t *o, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
static void add(char *buf, size_t size, size_t *o, const char *fmt, ...) {
  if (*o >= size)
    return;
  va_list ap;
  va_start(ap, fmt);
  int w = vsnprintf(buf + *o, size - *o, fmt, ap);
  va_end(ap);
  *o = w > 0 ? *o + (size_t)w : *o;
}

uint32_t fl_fabric_node_tier_explain(const fl_fabric *fab, fl_id n, char *buf,
                                     size_t size) {
  const infer_node *x = node_of(fab, n);
  if (size)
    buf[0] = '\0';
  if (!x || fab->nodes[n].kind != FL_NODE_SWITCH || !size)
    return FL_CONF_NONE;
  uint32_t t = fab->nodes[n].tier, conf, max = fab->infer->max_leaf_ep;
  size_t o = 0;
  if (t == FL_TIER_UNKNOWN) {
    const char *fleet = fl_fabric_attr(fab, FL_ENT_NODE, n, "fleet");
    if (fleet && *fleet)
      add(buf, size, &o,
          "no tier: a switch of a fleet plan (fleet=%s: separate "
          "testbeds, not one Clos fabric)",
          fleet);
    else
      add(buf, size, &o,
          "no tier: no compute endpoint in its part of the "
          "switch graph");
    const char *ty = fl_fabric_attr(fab, FL_ENT_NODE, n, "device-type"), *ro;
    uint32_t tt = fl_tier_of_type(ty, &ro);
    fl_id u = tt != FL_TIER_UNKNOWN && !(fleet && *fleet)
                  ? fl_type_tier_conflict(fab, n)
                  : FL_NONE;
    if (u != FL_NONE)
      add(buf, size, &o,
          "; its device type %s (%s) says tier %u, not used: it is cabled "
          "to %s, %s (a Clos cables adjacent layers only)",
          ty, ro, tt, fl_fabric_node_name(fab, u),
          fl_fabric_node_tier(fab, u) != FL_TIER_UNKNOWN
              ? "whose tier is not the layer next to it"
              : "whose device type states the same or a non-adjacent tier");
    return FL_CONF_NONE;
  }
  int irregular = x->nb_same || x->nb_skip;
  const char *type = fl_fabric_attr(fab, FL_ENT_NODE, n, "device-type"), *role;
  uint32_t tt = fl_tier_of_type(type, &role);
  if (fab->nodes[n].tier_derived == FL_TIER_FROM_TYPE) {
    add(buf, size, &o,
        "tier %u: from the device type %s (%s) alone; the switch graph "
        "gives none (no compute endpoint in its part of it)",
        t, type, role);
    return FL_CONF_MEDIUM;
  }
  if (!fab->nodes[n].tier_derived) {
    add(buf, size, &o, "tier %u: given by an input (tier attribute)", t);
    conf = FL_CONF_GIVEN;
  } else if (t == 1) {
    int sparse = (uint64_t)x->ep * 2 < max;
    add(buf, size, &o,
        "tier 1 (leaf): %u compute endpoint(s), the fullest leaf holds %u%s; "
        "%u switch neighbour(s) at tier 2",
        x->ep, max,
        sparse ? " (fewer than half: a leaf because a full leaf reaches all "
                 "its switch neighbours)"
               : "",
        x->nb_up);
    conf = sparse || irregular ? FL_CONF_MEDIUM : FL_CONF_HIGH;
  } else {
    add(buf, size, &o,
        "tier %u: %u switch neighbour(s) at tier %u, %u at tier %u", t,
        x->nb_down, t - 1, x->nb_up, t + 1);
    if (x->ep)
      add(buf, size, &o, ", %u compute endpoint(s)", x->ep);
    else
      add(buf, size, &o, ", no endpoints");
    conf = irregular || x->ep || !x->nb_down ? FL_CONF_MEDIUM : FL_CONF_HIGH;
    if (lone_top(fab, fab->infer, n)) {
      add(buf, size, &o,
          "; the only switch at tier %u, reaching %u of the %u tier-%u "
          "switches: no core that joins the tier below (a spine cabled to "
          "spines?), so the tier is a weak guess (pin it with an annotation "
          "`tier`)",
          t, x->nb_down, fab->infer->tier_n[t - 1], t - 1);
      conf = FL_CONF_LOW;
    }
  }
  if (x->nb_same)
    add(buf, size, &o, ", %u at the same tier (irregular)", x->nb_same);
  if (x->nb_skip)
    add(buf, size, &o, ", %u skipping a tier (irregular)", x->nb_skip);
  /* the declared device type, a second kind of evidence: agreeing, it
   * confirms the shape; disagreeing, the shape's tier is kept but not
   * trusted (a given tier is not weighed) */
  if (tt != FL_TIER_UNKNOWN && conf != FL_CONF_GIVEN) {
    if (tt == t) {
      add(buf, size, &o, "; the device type %s (%s) agrees", type, role);
      conf = FL_CONF_HIGH;
    } else {
      add(buf, size, &o,
          "; the device type %s (%s) says tier %u: contradicted, so "
          "the switch graph's tier is kept with low confidence (pin it "
          "with an annotation `tier`)",
          type, role, tt);
      conf = FL_CONF_LOW;
    }
  } else if (tt != FL_TIER_UNKNOWN && tt != t) {
    add(buf, size, &o, "; the device type %s (%s) says tier %u", type, role,
        tt);
  }
  uint32_t c = fl_fabric_node_chassis(fab, n);
  if (c != FL_NONE)
    add(buf, size, &o, "; an ASIC of chassis %s, ranked as one switch",
        fl_fabric_chassis_name(fab, c));
  return conf;
}

uint32_t fl_fabric_node_su(const fl_fabric *fab, fl_id n) {
  const infer_node *x = node_of(fab, n);
  return x ? x->su : 0;
}

const char *fl_fabric_su_source(const fl_fabric *fab) {
  if (!fab || !fab->infer)
    return "";
  return fab->infer->su_source == SU_NAMES    ? "names"
         : fab->infer->su_source == SU_GROUPS ? "groups"
                                              : "";
}

/* Why the names were not used, at @o of @buf. */
static void why_not_names(const fl_fabric *fab, char *buf, size_t size,
                          size_t o) {
  const struct fl_infer *inf = fab->infer;
  if (o >= size)
    return;
  if (inf->n_named == 0)
    snprintf(buf + o, size - o, "; no leaf has su<N> in its name");
  else if (inf->nn_why == NN_UNNAMED)
    snprintf(buf + o, size - o,
             "; the site's names are not used: leaf %s has no su<N> in its "
             "name",
             fl_fabric_node_name(fab, inf->nn_node));
  else
    snprintf(buf + o, size - o,
             "; the site's names are not used: %s reaches leaves named su%u "
             "and su%u",
             *fl_fabric_node_system(fab, inf->nn_node)
                 ? fl_fabric_node_system(fab, inf->nn_node)
                 : fl_fabric_node_name(fab, inf->nn_node),
             inf->nn_a, inf->nn_b);
}

uint32_t fl_fabric_node_su_explain(const fl_fabric *fab, fl_id n, char *buf,
                                   size_t size) {
  const infer_node *x = node_of(fab, n);
  if (size)
    buf[0] = '\0';
  if (!x || !size)
    return FL_CONF_NONE;
  const char *given = su_attr(fab, n);
  fl_id lf = fab->nodes[n].kind == FL_NODE_CA ? leaf_of(fab, n) : FL_NONE;
  if (!given && lf != FL_NONE && su_attr(fab, lf)) {
    snprintf(buf, size, "SU %s: given on its leaf %s (su attribute)",
             su_attr(fab, lf), fl_fabric_node_name(fab, lf));
    return FL_CONF_GIVEN;
  }
  if (given) {
    snprintf(buf, size, "SU %s: given by an input (su attribute)", given);
    return FL_CONF_GIVEN;
  }
  if (x->su == 0)
    return FL_CONF_NONE;
  fl_id leaf = fab->nodes[n].kind == FL_NODE_CA ? lf : n;
  if (fab->infer->su_source == SU_NAMES) {
    snprintf(buf, size,
             "SU %u: %s%s is named for SU %u (every leaf carrying hosts has "
             "su<N> in its name and no host reaches leaves of two numbers)",
             x->su, leaf == n ? "" : "its leaf ",
             fl_fabric_node_name(fab, leaf), x->su);
    return FL_CONF_HIGH;
  }
  if (fab->infer->su_field && x->su_named) {
    static const char *const ord[SU_FIELDS] = {"1st", "2nd", "3rd", "4th",
                                               "5th", "6th", "7th", "8th"};
    int unnamed = fab->infer->nn_why == NN_UNNAMED && fab->infer->n_named;
    snprintf(buf, size,
             "SU %u: %s and the leaves that share its hosts, numbered by the "
             "site's names (the %s number in every leaf name is the same "
             "within each such group and differs between them)%s%s%s",
             x->su, fl_fabric_node_name(fab, leaf),
             ord[fab->infer->su_field - 1], unnamed ? "; leaf " : "",
             unnamed ? fl_fabric_node_name(fab, fab->infer->nn_node) : "",
             unnamed ? " is named otherwise and left out" : "");
    /* a site's su<N> names broken by one leaf: the numbers hold, less
     * surely */
    return unnamed ? FL_CONF_MEDIUM : FL_CONF_HIGH;
  }
  int w = snprintf(buf, size,
                   "SU %u: %s and the leaves that share its hosts, numbered "
                   "by their first leaf in node order%s",
                   x->su, fl_fabric_node_name(fab, leaf),
                   fab->infer->su_field ? ", after the groups the site's "
                                          "names number (its leaves are "
                                          "named otherwise)"
                                        : "");
  why_not_names(fab, buf, size, w > 0 ? (size_t)w : size);
  return fab->infer->n_named && fab->infer->nn_why != NN_NONE ? FL_CONF_LOW
                                                              : FL_CONF_MEDIUM;
}
