/* SPDX-License-Identifier: MIT */
/*
 * core/io/slurm_tree.c — fl_sl_tree_build(): the switch hierarchy Slurm's
 * topology plugins are told about, bottom up from a finalized fabric (the
 * rules are in io/slurm_tree.h).
 *
 * Why bottom up and by union-find rather than by tier alone: what Slurm
 * needs is "which hosts are close", and the tiers of an as-built capture
 * can be irregular (a leaf short of spines, a host on 7 of its 8 rails);
 * joining the units a host is cabled to keeps a rail-optimised SU one
 * Slurm switch even then, where one switch per leaf would put each host
 * under 8 leaves (Slurm's tree plugin would then see every SU host under
 * 8 switches, and its best-fit would count the SU 8 times).
 * Cost O((nodes + links) α(n)) per level; levels are the fabric's tiers.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabriclint/roles.h"
#include "io/slurm_tree.h"
#include "model/chassis.h"
#include "model/derive.h"
#include "model/grow.h"
#include "model/hashmap.h"
#include "util/hostlist.h"
#include "util/natcmp.h"
#include "util/unionfind.h"

#define SL_NONE     UINT32_MAX
#define SL_NAME_MAX 64 /* Slurm: "cannot be longer than 64 characters" */

/* Work state: physical units (switches, director chassis) and their
 * switch-to-switch adjacency, hosts, and the switches made so far. */
typedef struct sl_work {
  const fl_fabric *fab;
  fl_sl_tree *t;
  uint32_t n_nodes;
  uint32_t *unit_of; /* [node]: unit of a switch, SL_NONE for others */
  uint32_t n_units;
  const char **unit_name;      /* [unit] */
  uint32_t *unit_lo, *unit_hi; /* [unit] lowest, highest known tier */
  uint32_t *adj_off, *adj;     /* CSR: units cabled to each unit */
  uint32_t *assigned;          /* [unit] Slurm switch, or SL_NONE */
  size_t cap_sw;
  fl_strmap hosts; /* host name -> index */
  fl_strmap left;  /* hosts left out -> index into left_why */
  const char **left_why;
  size_t cap_why;
  uint64_t *pair; /* host << 32 | unit: each cable of a compute host */
  uint32_t n_pair;
  size_t cap_pair;
} sl_work;

static char *dup_str(const char *s, size_t n) {
  char *d = malloc(n + 1);
  if (d) {
    memcpy(d, s, n);
    d[n] = '\0';
  }
  return d;
}

/* ---- units ------------------------------------------------------------- */

/* The name a site uses for switch @n in chassis @c (FL_NONE: none): the
 * chassis name, else the system of a `MF0;<name>:<model>/U1` description
 * (the box's name, as UFM and ibnetdiscover-to-ndt.py call it), else the
 * node name. */
static const char *unit_name(const fl_fabric *fab, fl_id n, uint32_t c,
                             uint32_t nc) {
  if (c != FL_NONE && c < nc)
    return fl_fabric_chassis_name(fab, c);
  const char *sys = fl_fabric_node_system(fab, n);
  return sys && *sys ? sys : fl_fabric_node_name(fab, n);
}

/* Every switch gets a unit: its director chassis, else itself. */
static int units_build(sl_work *w) {
  const fl_fabric *fab = w->fab;
  uint32_t nc = fl_fabric_chassis_count(fab);
  uint32_t *of_chassis = malloc(((size_t)nc + 1) * sizeof *of_chassis);
  w->unit_of = malloc((size_t)w->n_nodes * sizeof *w->unit_of);
  w->unit_name = malloc(((size_t)w->n_nodes + 1) * sizeof *w->unit_name);
  w->unit_lo = malloc(((size_t)w->n_nodes + 1) * sizeof *w->unit_lo);
  w->unit_hi = malloc(((size_t)w->n_nodes + 1) * sizeof *w->unit_hi);
  if (!of_chassis || !w->unit_of || !w->unit_name || !w->unit_lo ||
      !w->unit_hi) {
    free(of_chassis);
    return FL_ENOMEM;
  }
  for (uint32_t c = 0; c < nc; c++)
    of_chassis[c] = SL_NONE;
  for (fl_id n = 0; n < w->n_nodes; n++) {
    w->unit_of[n] = SL_NONE;
    if (fl_fabric_node_kind(fab, n) != FL_NODE_SWITCH)
      continue;
    uint32_t c = fl_fabric_node_chassis(fab, n);
    uint32_t u;
    if (c != FL_NONE && c < nc && of_chassis[c] != SL_NONE) {
      u = of_chassis[c];
    } else {
      u = w->n_units++;
      w->unit_name[u] = unit_name(fab, n, c, nc);
      w->unit_lo[u] = FL_TIER_UNKNOWN;
      w->unit_hi[u] = 0;
      if (c != FL_NONE && c < nc)
        of_chassis[c] = u;
    }
    w->unit_of[n] = u;
    uint32_t tier = fl_fabric_node_tier(fab, n);
    if (tier != FL_TIER_UNKNOWN) {
      if (w->unit_lo[u] == FL_TIER_UNKNOWN || tier < w->unit_lo[u])
        w->unit_lo[u] = tier;
      if (tier > w->unit_hi[u])
        w->unit_hi[u] = tier;
    }
  }
  free(of_chassis);
  return FL_OK;
}

/* Calls @fn(w, node n, far node m, ctx) for every cable of node n. */
#define FOR_FAR(fab, n, m, ...)                                                \
  do {                                                                         \
    fl_id p0_ = fl_fabric_node_first_port(fab, n);                             \
    uint32_t np_ = fl_fabric_node_port_count(fab, n);                          \
    for (uint32_t i_ = 0; p0_ != FL_NONE && i_ < np_; i_++) {                  \
      fl_id p_ = p0_ + i_;                                                     \
      uint32_t nl_ = fl_fabric_port_link_count(fab, p_);                       \
      for (uint32_t k_ = 0; k_ < nl_; k_++) {                                  \
        fl_id l_ = fl_fabric_port_link(fab, p_, k_);                           \
        fl_id q_ = fl_fabric_link_other(fab, l_, p_);                          \
        if (q_ == FL_NONE)                                                     \
          continue;                                                            \
        fl_id m = fl_fabric_port_node(fab, q_);                                \
        __VA_ARGS__                                                            \
      }                                                                        \
    }                                                                          \
  } while (0)

static int cmp_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

/* The unit graph: a CSR of distinct neighbouring units per unit. */
static int adjacency_build(sl_work *w) {
  const fl_fabric *fab = w->fab;
  uint64_t *e = NULL;
  uint32_t ne = 0;
  size_t cap = 0;
  for (fl_id n = 0; n < w->n_nodes; n++) {
    uint32_t u = w->unit_of[n];
    if (u == SL_NONE)
      continue;
    int oom = 0;
    FOR_FAR(fab, n, m, {
      uint32_t v = m < w->n_nodes ? w->unit_of[m] : SL_NONE;
      if (v == SL_NONE || v == u)
        continue;
      if (fl_grow((void **)&e, &cap, ne + 1, sizeof *e)) {
        oom = 1;
        break;
      }
      e[ne++] = ((uint64_t)u << 32) | v;
    });
    if (oom) {
      free(e);
      return FL_ENOMEM;
    }
  }
  if (ne)
    qsort(e, ne, sizeof *e, cmp_u64);
  w->adj_off = calloc((size_t)w->n_units + 1, sizeof *w->adj_off);
  w->adj = malloc(((size_t)ne + 1) * sizeof *w->adj);
  if (!w->adj_off || !w->adj) {
    free(e);
    return FL_ENOMEM;
  }
  uint32_t k = 0;
  for (uint32_t i = 0; i < ne; i++) {
    if (i > 0 && e[i] == e[i - 1])
      continue;
    w->adj[k++] = (uint32_t)e[i];
    w->adj_off[(e[i] >> 32) + 1]++;
  }
  for (uint32_t u = 0; u < w->n_units; u++)
    w->adj_off[u + 1] += w->adj_off[u];
  free(e);
  return FL_OK;
}

/* ---- hosts ------------------------------------------------------------- */

/* A host left out, once, with why (borrowed: a role word of the fabric or
 * a literal); a host that also has a compute NIC is dropped at the end. */
static int left_add(sl_work *w, const char *name, size_t len, const char *why) {
  uint32_t k = fl_strmap_put(&w->left, name, len, (uint32_t)w->left.len);
  if (k == FL_MAP_ABSENT)
    return FL_ENOMEM;
  if (k == w->left.len - 1 &&
      fl_grow((void **)&w->left_why, &w->cap_why, k + 1, sizeof *w->left_why))
    return FL_ENOMEM;
  if (k == w->left.len - 1)
    w->left_why[k] = why;
  return FL_OK;
}

/* The host of CA @n: its system, else its whole name when that has no
 * blank; NULL when it has none ("MT4123 ConnectX6 Mellanox Technologies":
 * a description that names no host). */
static const char *host_of(const fl_fabric *fab, fl_id n, size_t *len) {
  const char *sys = fl_fabric_node_system(fab, n);
  if (sys && *sys) {
    *len = strlen(sys);
    return sys;
  }
  const char *name = fl_fabric_node_name(fab, n);
  if (!name || !*name || strchr(name, ' '))
    return NULL;
  *len = strlen(name);
  return name;
}

/* Record CA @n: a compute host and a pair per switch it is cabled to, or a
 * host left out (role, no usable name); SHARP nodes are neither. */
static int host_add(sl_work *w, fl_id n) {
  const fl_fabric *fab = w->fab;
  const char *role = fl_fabric_attr(fab, FL_ENT_NODE, n, "role");
  size_t len = 0;
  const char *h = host_of(fab, n, &len);
  const char *nm = h ? h : fl_fabric_node_name(fab, n);
  size_t nlen = h ? len : strlen(nm);
  if (fl_is_aggregation_node(fab, n))
    return FL_OK; /* a switch's own SHARP engine, not a host */
  if (fl_role_is_service(role))
    return left_add(w, nm, nlen, role);
  if (!h)
    return left_add(w, nm, nlen, "no host name");
  char tmp[512];
  if (len >= sizeof tmp)
    return left_add(w, nm, nlen, "not a Slurm node name");
  memcpy(tmp, h, len);
  tmp[len] = '\0';
  if (!fl_hostlist_name_ok(tmp))
    return left_add(w, nm, nlen, "not a Slurm node name");
  uint32_t hi = fl_strmap_put(&w->hosts, h, len, (uint32_t)w->hosts.len);
  if (hi == FL_MAP_ABSENT)
    return FL_ENOMEM;
  int oom = 0;
  FOR_FAR(fab, n, m, {
    uint32_t u = m < w->n_nodes ? w->unit_of[m] : SL_NONE;
    if (u == SL_NONE)
      continue;
    if (fl_grow((void **)&w->pair, &w->cap_pair, w->n_pair + 1,
                sizeof *w->pair)) {
      oom = 1;
      break;
    }
    w->pair[w->n_pair++] = ((uint64_t)hi << 32) | u;
  });
  return oom ? FL_ENOMEM : FL_OK;
}

/* ---- Slurm switches ---------------------------------------------------- */

static int u32_push(uint32_t **a, uint32_t *n, uint32_t v) {
  /* capacity: the next power of two at or above *n */
  if ((*n & (*n - 1)) == 0) {
    uint32_t c = *n ? *n * 2 : 4;
    uint32_t *b = realloc(*a, (size_t)c * sizeof *b);
    if (!b)
      return -1;
    *a = b;
  }
  (*a)[(*n)++] = v;
  return 0;
}

/* A new, empty Slurm switch at @level: its index, or SL_NONE (ENOMEM). */
static uint32_t sw_new(sl_work *w, uint32_t level) {
  fl_sl_tree *t = w->t;
  if (fl_grow((void **)&t->sw, &w->cap_sw, t->n_sw + 1, sizeof *t->sw))
    return SL_NONE;
  fl_sl_switch *s = &t->sw[t->n_sw];
  memset(s, 0, sizeof *s);
  s->level = level;
  s->parent = SL_NONE;
  return t->n_sw++;
}

static int sw_add_unit(sl_work *w, uint32_t s, uint32_t u) {
  w->assigned[u] = s;
  return u32_push(&w->t->sw[s].units, &w->t->sw[s].n_units, u);
}

/* Level 1: hosts and the units they are cabled to, joined where they share
 * one. The level-1 switches are appended to w->t->sw. */
static int level_one(sl_work *w) {
  fl_sl_tree *t = w->t;
  uint32_t U = w->n_units, H = t->n_hosts;
  uint32_t *up = malloc(((size_t)U + H + 1) * sizeof *up);
  uint32_t *sw_of = malloc(((size_t)U + H + 1) * sizeof *sw_of);
  uint8_t *cabled = calloc((size_t)H + 1, 1);
  t->uncabled = calloc((size_t)H + 1, sizeof *t->uncabled);
  int rc = (up && sw_of && cabled && t->uncabled) ? FL_OK : FL_ENOMEM;
  if (rc == FL_OK) {
    fl_uf_init(up, (size_t)U + H);
    for (uint32_t i = 0; i < U + H; i++)
      sw_of[i] = SL_NONE;
    for (uint32_t i = 0; i < w->n_pair; i++) {
      uint32_t h = (uint32_t)(w->pair[i] >> 32), u = (uint32_t)w->pair[i];
      fl_uf_join(up, U + h, u);
      cabled[h] = 1;
    }
  }
  for (uint32_t h = 0; rc == FL_OK && h < H; h++) {
    if (!cabled[h]) {
      if (!(t->uncabled[t->n_uncabled++] =
                dup_str(t->hosts[h], strlen(t->hosts[h]))))
        rc = FL_ENOMEM;
      continue;
    }
    uint32_t r = fl_uf_find(up, U + h);
    if (sw_of[r] == SL_NONE && (sw_of[r] = sw_new(w, 1)) == SL_NONE)
      rc = FL_ENOMEM;
    else if (u32_push(&t->sw[sw_of[r]].hosts, &t->sw[sw_of[r]].n_hosts, h))
      rc = FL_ENOMEM;
  }
  for (uint32_t u = 0; rc == FL_OK && u < U; u++) {
    uint32_t r = fl_uf_find(up, u);
    if (sw_of[r] != SL_NONE && sw_add_unit(w, sw_of[r], u))
      rc = FL_ENOMEM;
  }
  free(up);
  free(sw_of);
  free(cabled);
  return rc;
}

/* 1 when the cable from unit @u to unit @v goes up: @v's lowest tier above
 * @u's highest, or either tier unknown. */
static int upward(const sl_work *w, uint32_t u, uint32_t v) {
  if (w->unit_lo[u] == FL_TIER_UNKNOWN || w->unit_lo[v] == FL_TIER_UNKNOWN)
    return 1;
  return w->unit_lo[v] > w->unit_hi[u];
}

/* One level up from the Slurm switches @cur[0..nc): their parents, made of
 * the unplaced units cabled upward from them and joined where they share
 * one, appended; @next gets the parents' indices. 0 parents ends the
 * climb. */
static int level_up(sl_work *w, const uint32_t *cur, uint32_t nc,
                    uint32_t level, uint32_t **next, uint32_t *n_next) {
  fl_sl_tree *t = w->t;
  uint32_t U = w->n_units;
  uint32_t *up = malloc(((size_t)nc + U + 1) * sizeof *up);
  uint32_t *par = malloc(((size_t)nc + U + 1) * sizeof *par);
  uint8_t *hasup = calloc((size_t)nc + 1, 1);
  uint8_t *seen = calloc((size_t)U + 1, 1);
  uint32_t *touched = NULL, n_touched = 0;
  int rc = (up && par && hasup && seen) ? FL_OK : FL_ENOMEM;
  if (rc == FL_OK) {
    fl_uf_init(up, (size_t)nc + U);
    for (uint32_t i = 0; i < nc + U; i++)
      par[i] = SL_NONE;
  }
  for (uint32_t i = 0; rc == FL_OK && i < nc; i++) {
    const fl_sl_switch *s = &t->sw[cur[i]];
    for (uint32_t k = 0; rc == FL_OK && k < s->n_units; k++) {
      uint32_t u = s->units[k];
      for (uint32_t j = w->adj_off[u]; j < w->adj_off[u + 1]; j++) {
        uint32_t v = w->adj[j];
        if (w->assigned[v] != SL_NONE || !upward(w, u, v))
          continue;
        fl_uf_join(up, i, nc + v);
        hasup[i] = 1;
        if (!seen[v]) {
          seen[v] = 1;
          if (u32_push(&touched, &n_touched, v)) {
            rc = FL_ENOMEM;
            break;
          }
        }
      }
    }
  }
  for (uint32_t i = 0; rc == FL_OK && i < nc; i++) {
    if (!hasup[i])
      continue;
    uint32_t r = fl_uf_find(up, i);
    if (par[r] == SL_NONE) {
      if ((par[r] = sw_new(w, level)) == SL_NONE ||
          u32_push(next, n_next, par[r])) {
        rc = FL_ENOMEM;
        break;
      }
    }
    t->sw[cur[i]].parent = par[r];
    if (u32_push(&t->sw[par[r]].kids, &t->sw[par[r]].n_kids, cur[i]))
      rc = FL_ENOMEM;
  }
  for (uint32_t k = 0; rc == FL_OK && k < n_touched; k++) {
    uint32_t v = touched[k];
    if (sw_add_unit(w, par[fl_uf_find(up, nc + v)], v))
      rc = FL_ENOMEM;
  }
  free(up);
  free(par);
  free(hasup);
  free(seen);
  free(touched);
  return rc;
}

/* Roots the switch graph connects get one synthetic parent each group. */
static int join_roots(sl_work *w, uint32_t top_level) {
  fl_sl_tree *t = w->t;
  uint32_t U = w->n_units, n_sw = t->n_sw;
  uint32_t n_roots = 0;
  for (uint32_t s = 0; s < n_sw; s++)
    n_roots += t->sw[s].parent == SL_NONE;
  if (n_roots < 2)
    return FL_OK;
  uint32_t *up = malloc(((size_t)U + 1) * sizeof *up);
  uint32_t *par = malloc(((size_t)U + 1) * sizeof *par);
  if (!up || !par) {
    free(up);
    free(par);
    return FL_ENOMEM;
  }
  fl_uf_init(up, U);
  for (uint32_t u = 0; u < U; u++) {
    par[u] = SL_NONE;
    for (uint32_t j = w->adj_off[u]; j < w->adj_off[u + 1]; j++)
      fl_uf_join(up, u, w->adj[j]);
  }
  for (uint32_t s = 0; s < n_sw; s++) /* a switch's units share its hosts */
    for (uint32_t k = 1; k < t->sw[s].n_units; k++)
      fl_uf_join(up, t->sw[s].units[0], t->sw[s].units[k]);
  uint32_t *first = calloc((size_t)U + 1, sizeof *first); /* root + 1 */
  int rc = first ? FL_OK : FL_ENOMEM;
  for (uint32_t s = 0; rc == FL_OK && s < n_sw; s++) {
    if (t->sw[s].parent != SL_NONE || t->sw[s].n_units == 0)
      continue;
    uint32_t c = fl_uf_find(up, t->sw[s].units[0]);
    if (!first[c]) {
      first[c] = s + 1;
      continue;
    }
    if (par[c] == SL_NONE) {
      uint32_t f = first[c] - 1;
      if ((par[c] = sw_new(w, top_level + 1)) == SL_NONE ||
          u32_push(&t->sw[par[c]].kids, &t->sw[par[c]].n_kids, f)) {
        rc = FL_ENOMEM;
        break;
      }
      t->sw[f].parent = par[c];
    }
    t->sw[s].parent = par[c];
    if (u32_push(&t->sw[par[c]].kids, &t->sw[par[c]].n_kids, s))
      rc = FL_ENOMEM;
  }
  free(first);
  free(up);
  free(par);
  return rc;
}

/* ---- names ------------------------------------------------------------- */

static int is_sep(char c) {
  return c == '-' || c == '_' || c == '.';
}

/* The separator-delimited token @k of @s: its start, length in *@len;
 * NULL past the last token. */
static const char *token(const char *s, uint32_t k, size_t *len) {
  const char *p = s;
  for (uint32_t i = 0; i < k; i++) {
    p += strcspn(p, "-_.");
    if (!*p)
      return NULL;
    p++;
  }
  *len = strcspn(p, "-_.");
  return p;
}

static uint32_t token_count(const char *s) {
  uint32_t n = 1;
  for (; *s; s++)
    n += is_sep(*s);
  return n;
}

/* The common name of @n >= 2 names, into @buf: when all have the same
 * number of separator-delimited tokens, the tokens equal in all of them,
 * joined by '-' ("A09-P1-IBLEAF-01-04".."A09-P1-IBLEAF-04-04" ->
 * "A09-P1-IBLEAF-04"; "leaf-su01-r0".."leaf-su01-r7" -> "leaf-su01");
 * else their longest common prefix cut before its last separator. "" when
 * nothing is common. */
static void stem(const char *const *names, uint32_t n, char *buf, size_t size) {
  uint32_t nt = token_count(names[0]);
  int same = 1;
  for (uint32_t i = 1; i < n && same; i++)
    same = token_count(names[i]) == nt;
  size_t out = 0;
  buf[0] = '\0';
  for (uint32_t k = 0; same && k < nt; k++) {
    size_t l0 = 0, l = 0;
    const char *t0 = token(names[0], k, &l0);
    int keep = t0 && l0 > 0;
    for (uint32_t i = 1; i < n && keep; i++) {
      const char *ti = token(names[i], k, &l);
      keep = ti && l == l0 && memcmp(ti, t0, l0) == 0;
    }
    if (keep && out + l0 + 2 < size) {
      if (out)
        buf[out++] = '-';
      memcpy(buf + out, t0, l0);
      out += l0;
      buf[out] = '\0';
    }
  }
  if (same)
    return;
  size_t l = strlen(names[0]);
  for (uint32_t i = 1; i < n; i++) {
    size_t k = 0;
    while (k < l && names[i][k] == names[0][k])
      k++;
    l = k;
  }
  while (l > 0 && !is_sep(names[0][l - 1]))
    l--;
  while (l > 0 && is_sep(names[0][l - 1]))
    l--;
  if (l >= size)
    l = size - 1;
  memcpy(buf, names[0], l);
  buf[l] = '\0';
}

/* Bytes Slurm's parser or hostlist reader would take as syntax become '_';
 * at most SL_NAME_MAX bytes. */
static void sanitize(char *s) {
  for (char *p = s; *p; p++) {
    char one[2] = {*p, '\0'};
    if (!fl_hostlist_name_ok(one))
      *p = '_';
  }
  if (strlen(s) > SL_NAME_MAX)
    s[SL_NAME_MAX] = '\0';
}

static int name_switch(sl_work *w, uint32_t s, fl_strmap *used) {
  fl_sl_switch *sw = &w->t->sw[s];
  sw->phys = malloc(((size_t)sw->n_units + 1) * sizeof *sw->phys);
  if (!sw->phys)
    return FL_ENOMEM;
  for (uint32_t k = 0; k < sw->n_units; k++)
    sw->phys[k] = w->unit_name[sw->units[k]];
  qsort(sw->phys, sw->n_units, sizeof *sw->phys, fl_natcmp_strict_ptr);
  char base[SL_NAME_MAX + 1], cand[SL_NAME_MAX + 16];
  if (sw->n_units == 1)
    snprintf(base, sizeof base, "%s", sw->phys[0]);
  else if (sw->n_units > 1)
    stem(sw->phys, sw->n_units, base, sizeof base);
  else
    snprintf(base, sizeof base, "root");
  if (!base[0])
    snprintf(base, sizeof base, "group");
  sanitize(base);
  snprintf(cand, sizeof cand, "%s", base);
  for (uint32_t k = 2; fl_strmap_get(used, cand, strlen(cand)) != FL_MAP_ABSENT;
       k++)
    snprintf(cand, sizeof cand, "%.*s-%u", SL_NAME_MAX - 11, base, k);
  if (fl_strmap_put(used, cand, strlen(cand), s) == FL_MAP_ABSENT ||
      !(sw->name = dup_str(cand, strlen(cand))))
    return FL_ENOMEM;
  return FL_OK;
}

/* Names in creation order: level-1 switches first, so a leaf group keeps
 * its stem and a spine group that shares it gets the suffix. */
static int name_all(sl_work *w) {
  fl_strmap used;
  memset(&used, 0, sizeof used);
  int rc = FL_OK;
  for (uint32_t s = 0; rc == FL_OK && s < w->t->n_sw; s++)
    rc = name_switch(w, s, &used);
  fl_strmap_free(&used);
  return rc;
}

/* ---- the whole build --------------------------------------------------- */

/* The left-out hosts sorted by reason, then name. */
typedef struct sl_left {
  char *name;
  const char *why;
} sl_left;

static int left_cmp(const void *a, const void *b) {
  const sl_left *x = a, *y = b;
  int c = strcmp(x->why, y->why);
  return c ? c : fl_natcmp_strict(x->name, y->name);
}

static int left_sort(fl_sl_tree *t) {
  sl_left *v = malloc(((size_t)t->n_left_out + 1) * sizeof *v);
  if (!v)
    return FL_ENOMEM;
  for (uint32_t i = 0; i < t->n_left_out; i++)
    v[i] = (sl_left){t->left_out[i], t->left_why[i]};
  qsort(v, t->n_left_out, sizeof *v, left_cmp);
  for (uint32_t i = 0; i < t->n_left_out; i++) {
    t->left_out[i] = v[i].name;
    t->left_why[i] = v[i].why;
  }
  free(v);
  return FL_OK;
}

static int hosts_collect(sl_work *w) {
  fl_sl_tree *t = w->t;
  for (fl_id n = 0; n < w->n_nodes; n++) {
    if (fl_fabric_node_kind(w->fab, n) != FL_NODE_CA)
      continue;
    int rc = host_add(w, n);
    if (rc != FL_OK)
      return rc;
  }
  t->n_hosts = (uint32_t)w->hosts.len;
  t->hosts = calloc((size_t)t->n_hosts + 1, sizeof *t->hosts);
  if (!t->hosts)
    return FL_ENOMEM;
  for (uint32_t h = 0; h < t->n_hosts; h++) {
    const char *k = fl_strmap_key(&w->hosts, h);
    if (!(t->hosts[h] = dup_str(k, strlen(k))))
      return FL_ENOMEM;
  }
  t->left_out = calloc(w->left.len + 1, sizeof *t->left_out);
  t->left_why = calloc(w->left.len + 1, sizeof *t->left_why);
  if (!t->left_out || !t->left_why)
    return FL_ENOMEM;
  for (uint32_t i = 0; i < (uint32_t)w->left.len; i++) {
    const char *k = fl_strmap_key(&w->left, i);
    if (fl_strmap_get(&w->hosts, k, strlen(k)) != FL_MAP_ABSENT)
      continue; /* a compute host with a storage NIC, say */
    if (!(t->left_out[t->n_left_out] = dup_str(k, strlen(k))))
      return FL_ENOMEM;
    t->left_why[t->n_left_out++] = w->left_why[i];
  }
  return left_sort(t);
}

static int climb(sl_work *w) {
  uint32_t *cur = NULL, nc = 0;
  for (uint32_t s = 0; s < w->t->n_sw; s++)
    if (u32_push(&cur, &nc, s)) {
      free(cur);
      return FL_ENOMEM;
    }
  uint32_t level = 1;
  int rc = FL_OK;
  while (rc == FL_OK && nc > 0) {
    uint32_t *next = NULL, nn = 0;
    rc = level_up(w, cur, nc, level + 1, &next, &nn);
    free(cur);
    cur = next;
    nc = nn;
    if (nn)
      level++;
  }
  free(cur);
  return rc == FL_OK ? join_roots(w, level) : rc;
}

int fl_sl_tree_build(const fl_fabric *fab, fl_sl_tree *t, fl_error *err) {
  sl_work w;
  memset(&w, 0, sizeof w);
  w.fab = fab;
  w.t = t;
  w.n_nodes = fl_fabric_node_count(fab);
  int rc = units_build(&w);
  if (rc == FL_OK)
    rc = adjacency_build(&w);
  if (rc == FL_OK) {
    w.assigned = malloc(((size_t)w.n_units + 1) * sizeof *w.assigned);
    if (!w.assigned)
      rc = FL_ENOMEM;
    for (uint32_t u = 0; rc == FL_OK && u < w.n_units; u++)
      w.assigned[u] = SL_NONE;
  }
  if (rc == FL_OK)
    rc = hosts_collect(&w);
  if (rc == FL_OK)
    rc = level_one(&w);
  if (rc == FL_OK)
    rc = climb(&w);
  if (rc == FL_OK)
    rc = name_all(&w);
  if (rc == FL_OK)
    qsort(t->uncabled, t->n_uncabled, sizeof *t->uncabled,
          fl_natcmp_strict_ptr);
  free(w.unit_of);
  free(w.unit_name);
  free(w.unit_lo);
  free(w.unit_hi);
  free(w.adj_off);
  free(w.adj);
  free(w.assigned);
  free(w.pair);
  free(w.left_why);
  fl_strmap_free(&w.hosts);
  fl_strmap_free(&w.left);
  if (rc == FL_ENOMEM)
    return fl_error_set(err, FL_ENOMEM, NULL, 0, 0,
                        "out of memory building the Slurm topology");
  if (rc == FL_OK && t->n_sw == 0 && t->n_left_out > 0)
    return fl_error_set(err, FL_EINVAL, NULL, 0, 0,
                        "no compute host is cabled to a switch: a Slurm "
                        "topology needs at least one (%u host(s) cabled to "
                        "nothing; %u left out, e.g. \"%s\": %s)",
                        t->n_hosts, t->n_left_out, t->left_out[0],
                        t->left_why[0]);
  if (rc == FL_OK && t->n_sw == 0)
    return fl_error_set(err, FL_EINVAL, NULL, 0, 0,
                        "no compute host is cabled to a switch: a Slurm "
                        "topology needs at least one (%u host(s) cabled to "
                        "nothing)",
                        t->n_hosts);
  return rc;
}

void fl_sl_tree_free(fl_sl_tree *t) {
  if (!t)
    return;
  for (uint32_t s = 0; s < t->n_sw; s++) {
    free(t->sw[s].name);
    free(t->sw[s].hosts);
    free(t->sw[s].kids);
    free(t->sw[s].units);
    free(t->sw[s].phys);
  }
  free(t->sw);
  for (uint32_t h = 0; h < t->n_hosts; h++)
    free(t->hosts[h]);
  free(t->hosts);
  for (uint32_t i = 0; i < t->n_left_out; i++)
    free(t->left_out[i]);
  free(t->left_out);
  free(t->left_why);
  for (uint32_t i = 0; i < t->n_uncabled; i++)
    free(t->uncabled[i]);
  free(t->uncabled);
  memset(t, 0, sizeof *t);
}
