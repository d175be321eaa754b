/* SPDX-License-Identifier: MIT */
/*
 * core/diff/diff_rates.c — a planned cable that is built where planned but
 * runs below its planned width or speed (diff.different), judged as causes
 * rather than cable by cable.
 *
 * Why: an NDR plan compared with an HDR capture gave one "reseat, then
 * replace" row per cable, 2,041 of them, and the one cable that really ran
 * at 1x was row 1,796 (shared/cases/journey-4su). Reseating does not change
 * the rate of a whole fabric: when the same shortfall is on most cables,
 * the switches and HCAs are of another generation, their ports are
 * configured for another rate, or the plan is wrong. So each attribute
 * (speed, then width) is judged in three steps, each taking what it
 * explains:
 *
 *   1. the fabric: one pair (planned, built) of the attribute on at least
 *      half of the compared cables that state it, and on at least
 *      DIFF_RATE_FABRIC_MIN cables, is one finding and one `check` row;
 *   2. a node: every compared cable of the node (at least DIFF_RATE_NODE_MIN)
 *      has the same shortfall: the node's ports (configuration, firmware,
 *      generation), one finding and one `check` row naming the node; nodes
 *      are taken largest first, a cable once;
 *   3. a cable: what is left is the cable's own, with a `replace` row. A
 *      part already explained (its speed is the fabric's) is said, not
 *      repeated, so the row asks for what the cable itself must fix.
 *
 * The thresholds are documented in docs/rules/diff.md ("Rates below plan").
 * Cost: O(c log c) for c cables below plan.
 */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "diff/diff.h"
#include "diff/diff_impl.h"

/* Step 1: a shortfall on at least half of the cables that state the
 * attribute, and on at least this many, is the fabric's. Below eight a
 * "fabric" is a handful of cables, where half can be chance. */
#define DIFF_RATE_FABRIC_MIN 8
/* Step 2: a node with at least this many compared cables, all short the
 * same way; an HCA with one or two ports is never "a node's ports". */
#define DIFF_RATE_NODE_MIN 4

enum { ATTR_SPEED, ATTR_WIDTH };

static const char *const ATTR_NAME[] = {"speed", "width"};

/* One cable's planned and built width and speed (the lower end of each). */
void diff_link_rate(const fl_fabric *f, fl_id l, uint32_t *w, uint32_t *s) {
  uint32_t w1 = fl_fabric_link_width(f, l), w2 = fl_fabric_link_width_b(f, l);
  uint32_t s1 = fl_fabric_link_speed(f, l), s2 = fl_fabric_link_speed_b(f, l);
  *w = w1 && w2 && w2 < w1 ? w2 : (w1 ? w1 : w2);
  *s = s1 && s2 && fl_speed_lane_gbps(s2) < fl_speed_lane_gbps(s1)
           ? s2
           : (s1 ? s1 : s2);
}

void diff_rate_str(uint32_t w, uint32_t s, char *buf, size_t size) {
  if (w && s && s < FL_SPEED_ETH_1G)
    snprintf(buf, size, "%ux%s", w, fl_speed_name(s));
  else if (s)
    snprintf(buf, size, "%s", fl_speed_name(s));
  else if (w)
    snprintf(buf, size, "%ux", w);
  else
    snprintf(buf, size, "?");
}

/* The value of attribute @a of a rate as the messages say it. */
static void attr_str(int a, uint32_t v, char *buf, size_t size) {
  if (a == ATTR_WIDTH)
    snprintf(buf, size, "%ux", v);
  else
    snprintf(buf, size, "%s", fl_speed_name(v));
}

static int grow(dctx *c, void **v, size_t *cap, size_t need, size_t size) {
  if (need <= *cap)
    return 0;
  size_t nc = *cap ? *cap * 2 : 64;
  while (nc < need)
    nc *= 2;
  void *p = realloc(*v, nc * size);
  if (!p) {
    c->nomem = 1;
    return -1;
  }
  *v = p;
  *cap = nc;
  return 0;
}

void diff_rate_note(dctx *c, uint32_t de, uint32_t be) {
  diff_rates *R = &c->rates;
  uint32_t wd, sd, wb, sb;
  diff_link_rate(c->D, c->e[de].link, &wd, &sd);
  diff_link_rate(c->B, c->e[be].link, &wb, &sb);
  uint32_t nn = fl_fabric_node_count(c->D);
  if (!R->rated[0]) {
    R->rated[0] = calloc(nn ? nn : 1, sizeof *R->rated[0]);
    R->rated[1] = calloc(nn ? nn : 1, sizeof *R->rated[1]);
    if (!R->rated[0] || !R->rated[1]) {
      c->nomem = 1;
      return;
    }
  }
  int has[2] = {sd && sb, wd && wb};
  for (int a = 0; a < 2; a++) {
    if (!has[a])
      continue;
    R->n_rated[a]++;
    for (int k = 0; k < 2; k++) {
      fl_id n = diff_key_dnode(c, c->e[de].k[k]);
      if (n != FL_NONE && n < nn)
        R->rated[a][n]++;
    }
  }
  int s_low =
      has[ATTR_SPEED] && fl_speed_lane_gbps(sb) < fl_speed_lane_gbps(sd);
  int w_low = has[ATTR_WIDTH] && wb < wd;
  if (!s_low && !w_low)
    return;
  if (grow(c, (void **)&R->v, &R->cap, R->n + 1, sizeof *R->v) != 0)
    return;
  diff_rate_dev *d = &R->v[R->n++];
  memset(d, 0, sizeof *d);
  d->de = de;
  d->plan[ATTR_SPEED] = sd, d->built[ATTR_SPEED] = sb;
  d->plan[ATTR_WIDTH] = wd, d->built[ATTR_WIDTH] = wb;
  d->low[ATTR_SPEED] = (uint8_t)s_low;
  d->low[ATTR_WIDTH] = (uint8_t)w_low;
}

/* ---- step 1: the fabric --------------------------------------------- */

static uint64_t pair_of(const diff_rate_dev *d, int a) {
  return (uint64_t)d->plan[a] << 32 | d->built[a];
}

static int cmp_u64(const void *x, const void *y) {
  uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
  return a < b ? -1 : a > b;
}

/* The (planned, built) pair of attribute @a short on most cables, and how
 * many: the most frequent pair; on a tie the smaller pair (deterministic). */
static uint64_t commonest(dctx *c, int a, size_t *count) {
  diff_rates *R = &c->rates;
  *count = 0;
  uint64_t *keys = malloc((R->n ? R->n : 1) * sizeof *keys);
  if (!keys) {
    c->nomem = 1;
    return 0;
  }
  size_t m = 0;
  for (size_t i = 0; i < R->n; i++)
    if (R->v[i].low[a])
      keys[m++] = pair_of(&R->v[i], a);
  qsort(keys, m, sizeof *keys, cmp_u64);
  uint64_t best = 0;
  for (size_t i = 0, j; i < m; i = j) {
    for (j = i; j < m && keys[j] == keys[i]; j++)
      ;
    if (j - i > *count)
      *count = j - i, best = keys[i];
  }
  free(keys);
  return best;
}

/* Up to four of the cables taken by a cause, as the evidence's examples. */
static json_t *examples(dctx *c, const uint32_t *which, size_t n) {
  json_t *v = json_array();
  for (size_t i = 0; i < n && i < 4; i++) {
    const edge *e = &c->e[c->rates.v[which[i]].de];
    json_array_append_new(v, diff_cable_json(c, e->k[0], e->k[1]));
  }
  return v;
}

/* The finding and the `check` row of a cause of attribute @a short from
 * @plan to @built: @node's (FL_NONE: the fabric's). It takes @n cables
 * (indexes into rates.v, @which) out of @of compared: for the fabric the
 * cables that state the attribute, for a node all of its cables (some may
 * have been taken by a larger node first). */
static void emit_cause(dctx *c, int a, uint32_t plan, uint32_t built,
                       const uint32_t *which, size_t n, fl_id node,
                       uint32_t of) {
  char p[32], b[32];
  attr_str(a, plan, p, sizeof p);
  attr_str(a, built, b, sizeof b);
  const edge *first = &c->e[c->rates.v[which[0]].de];
  const char *nm = node != FL_NONE ? fl_fabric_node_name(c->D, node) : NULL;
  fnd f = {.rule = "diff.different",
           .sev = FL_SEV_WARNING,
           .loc_fab = c->D,
           .loc_ent = node != FL_NONE ? FL_ENT_NODE : FL_ENT_LINK,
           .loc_id = node != FL_NONE ? node : first->link};
  if (nm) {
    f.extra_nodes[0] = nm;
    f.n_extra = 1;
  }
  /* the fabric's cause is the same while cables are added or fixed: its
   * identity is the shortfall, not the count in its message */
  char *key =
      nm ? NULL : diff_xprintf(c, "fabric|%s|%s|%s", ATTR_NAME[a], p, b);
  f.key = key;
  f.ev = json_pack("{s:s,s:s,s:I,s:I,s:s,s:s,s:o}", "attribute", ATTR_NAME[a],
                   "scope", nm ? "node" : "fabric", "cables", (json_int_t)n,
                   "compared", (json_int_t)of, "design", p, "as_built", b,
                   "examples", examples(c, which, n));
  if (nm)
    json_object_set_new(f.ev, "node", json_string(nm));
  const char *what =
      a == ATTR_SPEED
          ? "the generation of the switches and HCAs, their ports' speed "
            "configuration and firmware"
          : "the cable and transceiver type (split cables?) and the ports' "
            "width configuration";
  char *how =
      nm ? diff_xprintf(c,
                        "make the ports of \"%s\" run at %s as planned (%s), "
                        "or correct the plan",
                        nm, p,
                        a == ATTR_SPEED ? "speed configuration, firmware, or "
                                          "a switch of the planned generation"
                                        : "width configuration, or the "
                                          "planned cable type")
         : diff_xprintf(c, "check %s against the plan's %s %s", what, p,
                        ATTR_NAME[a]);
  f.fix = how ? fl_fix_new(how, 0) : NULL;
  if (!f.fix || fl_fix_finish(f.fix) != 0)
    c->nomem = 1;
  char *msg =
      nm ? diff_xprintf(
               c,
               "all %u compared cables of \"%s\" run at %s %s, planned %s: "
               "one cause at \"%s\" (its ports' configuration, firmware or "
               "generation), not %u cable faults",
               of, nm, ATTR_NAME[a], b, p, nm, of)
         : diff_xprintf(c,
                        "%zu of %u compared cables run at %s %s, planned %s: "
                        "one cause for the fabric, not %zu cable faults "
                        "(reseating does not change a whole fabric's %s: "
                        "check %s, or correct the plan)",
                        n, of, ATTR_NAME[a], b, p, n, ATTR_NAME[a], what);
  diff_emit(c, &f, msg);
  free(key);
  char *detail = diff_xprintf(
      c, "%u cables at %s %s, planned %s: check %s before reseating any",
      nm ? of : (uint32_t)n, ATTR_NAME[a], b, p,
      nm ? "the node's port configuration, firmware and model" : what);
  diff_wo_node(c, "check", "diff.different", nm ? nm : "",
               nm ? fl_fabric_attr(c->D, FL_ENT_NODE, node, "rack") : "",
               detail ? detail : "");
  free(detail);
  free(how);
}

static void fabric_cause(dctx *c, int a) {
  diff_rates *R = &c->rates;
  size_t count;
  uint64_t key = commonest(c, a, &count);
  if (count < DIFF_RATE_FABRIC_MIN || 2 * count < R->n_rated[a])
    return;
  uint32_t *which = malloc(count * sizeof *which);
  if (!which) {
    c->nomem = 1;
    return;
  }
  size_t m = 0;
  for (size_t i = 0; i < R->n; i++) {
    diff_rate_dev *d = &R->v[i];
    if (d->low[a] && pair_of(d, a) == key) {
      d->low[a] = 0;
      d->fabric[a] = 1;
      which[m++] = (uint32_t)i;
    }
  }
  R->fab[a] = 1;
  R->fab_plan[a] = (uint32_t)(key >> 32);
  R->fab_built[a] = (uint32_t)key;
  emit_cause(c, a, (uint32_t)(key >> 32), (uint32_t)key, which, m, FL_NONE,
             (uint32_t)R->n_rated[a]);
  free(which);
}

/* ---- step 2: a node --------------------------------------------------- */

typedef struct node_run {
  fl_id node;
  uint64_t key;
  size_t first, n; /* in the sorted (node, key, dev) triples */
} node_run;

typedef struct triple {
  fl_id node;
  uint32_t dev;
  uint64_t key;
} triple;

static int cmp_triple(const void *x, const void *y) {
  const triple *a = x, *b = y;
  if (a->node != b->node)
    return a->node < b->node ? -1 : 1;
  if (a->key != b->key)
    return a->key < b->key ? -1 : 1;
  return a->dev < b->dev ? -1 : a->dev > b->dev;
}

static int cmp_run(const void *x, const void *y) {
  const node_run *a = x, *b = y;
  if (a->n != b->n)
    return a->n > b->n ? -1 : 1;
  return a->node < b->node ? -1 : a->node > b->node;
}

static void node_causes(dctx *c, int a) {
  diff_rates *R = &c->rates;
  triple *t = malloc((2 * R->n + 1) * sizeof *t);
  node_run *runs = malloc((2 * R->n + 1) * sizeof *runs);
  uint32_t *which = malloc((R->n + 1) * sizeof *which);
  if (!t || !runs || !which) {
    c->nomem = 1;
    goto out;
  }
  size_t m = 0, nr = 0;
  uint32_t nn = fl_fabric_node_count(c->D);
  for (size_t i = 0; i < R->n; i++)
    for (int k = 0; R->v[i].low[a] && k < 2; k++) {
      fl_id n = diff_key_dnode(c, c->e[R->v[i].de].k[k]);
      if (n != FL_NONE && n < nn)
        t[m++] = (triple){n, (uint32_t)i, pair_of(&R->v[i], a)};
    }
  qsort(t, m, sizeof *t, cmp_triple);
  /* a run is a node whose every compared cable is short the same way */
  for (size_t i = 0, j; i < m; i = j) {
    for (j = i; j < m && t[j].node == t[i].node && t[j].key == t[i].key; j++)
      ;
    if (j - i == R->rated[a][t[i].node]) /* DIFF_RATE_NODE_MIN: below */
      runs[nr++] = (node_run){t[i].node, t[i].key, i, j - i};
  }
  qsort(runs, nr, sizeof *runs, cmp_run);
  for (size_t r = 0; r < nr; r++) {
    size_t w = 0;
    for (size_t k = 0; k < runs[r].n; k++) {
      diff_rate_dev *d = &R->v[t[runs[r].first + k].dev];
      if (d->low[a]) /* not taken by a larger node */
        which[w++] = t[runs[r].first + k].dev;
    }
    if (w < DIFF_RATE_NODE_MIN) /* an HCA; or a node mostly taken before */
      continue;
    for (size_t k = 0; k < w; k++)
      R->v[which[k]].low[a] = 0;
    emit_cause(c, a, (uint32_t)(runs[r].key >> 32), (uint32_t)runs[r].key,
               which, w, runs[r].node, R->rated[a][runs[r].node]);
  }
out:
  free(t);
  free(runs);
  free(which);
}

/* ---- step 3: a cable -------------------------------------------------- */

/* What the cable itself must reach, per attribute: the planned value, or
 * where a fabric-wide cause has the same planned value, the fabric's built
 * one (a cable is not asked to outrun the fabric it is part of). */
static uint32_t target(const diff_rates *R, const diff_rate_dev *d, int a) {
  return R->fab[a] && d->plan[a] == R->fab_plan[a] ? R->fab_built[a]
                                                   : d->plan[a];
}

/* "; its speed, HDR, is the fabric's and reported once" and the like:
 * how the fabric-wide causes bear on this cable (empty when they do not). */
static char *fabric_note(dctx *c, const diff_rate_dev *d) {
  const diff_rates *R = &c->rates;
  char buf[160] = "";
  for (int a = 0; a < 2; a++) {
    size_t len = strlen(buf);
    char v[32];
    attr_str(a, R->fab_built[a], v, sizeof v);
    if (d->fabric[a])
      snprintf(buf + len, sizeof buf - len,
               "; its %s, %s, is the fabric's and reported once", ATTR_NAME[a],
               v);
    else if (d->low[a] && target(R, d, a) != d->plan[a])
      snprintf(buf + len, sizeof buf - len,
               "; its %s is below the fabric's %s too", ATTR_NAME[a], v);
  }
  return diff_xstrdup(c, buf);
}

static void cable_finding(dctx *c, const diff_rate_dev *d) {
  const diff_rates *R = &c->rates;
  const edge *de = &c->e[d->de];
  uint32_t wd = d->plan[ATTR_WIDTH], sd = d->plan[ATTR_SPEED];
  uint32_t wb = d->built[ATTR_WIDTH], sb = d->built[ATTR_SPEED];
  int w_low = d->low[ATTR_WIDTH], s_low = d->low[ATTR_SPEED];
  uint32_t wt = target(R, d, ATTR_WIDTH), st = target(R, d, ATTR_SPEED);
  int fabric = wt != wd || st != sd; /* the fabric's rate is the target */
  char rd[32], rb[32], want[32];
  diff_rate_str(wd, sd, rd, sizeof rd);
  diff_rate_str(wb, sb, rb, sizeof rb);
  diff_rate_str(w_low ? wt : wb, s_low ? st : sb, want, sizeof want);
  char *a = diff_ep_str(c, de->k[0]), *b = diff_ep_str(c, de->k[1]);
  fnd f = {.rule = "diff.different",
           .sev = FL_SEV_WARNING,
           .loc_fab = c->D,
           .loc_ent = FL_ENT_LINK,
           .loc_id = de->link,
           .eps = {de->k[0], de->k[1]},
           .n_eps = 2};
  const char *what = w_low && s_low ? "width and speed"
                     : w_low        ? "width"
                                    : "speed";
  f.ev = json_pack("{s:s,s:o,s:s,s:s}", "attribute",
                   w_low && s_low ? "width,speed" : what, "cable",
                   diff_cable_json(c, de->k[0], de->k[1]), "design", rd,
                   "as_built", rb);
  if (fabric)
    json_object_set_new(f.ev, "target", json_string(want));
  char *how = diff_xprintf(
      c,
      "make the cable run at %s%s (reseat, then "
      "replace the cable or transceiver)",
      want, fabric ? ", as the rest of the fabric" : " as planned");
  f.fix = how ? fl_fix_new(how, 2) : NULL;
  free(how);
  for (int k = 0; f.fix && k < 2; k++) {
    if (!(k == 0 ? w_low : s_low))
      continue;
    fl_fix_change_rec *ch = &f.fix->v[f.fix->n++];
    ch->kind = k == 0 ? FL_FIX_SET_WIDTH : FL_FIX_SET_SPEED;
    diff_fix_end(c, de->k[0], &ch->cable[0]);
    diff_fix_end(c, de->k[1], &ch->cable[1]);
    ch->from_value = k == 0 ? diff_xprintf(c, "%ux", wb)
                            : diff_xstrdup(c, fl_speed_name(sb));
    ch->value = k == 0 ? diff_xprintf(c, "%ux", wt)
                       : diff_xstrdup(c, fl_speed_name(st));
  }
  if (!f.fix || fl_fix_finish(f.fix) != 0)
    c->nomem = 1;
  char *note = fabric_note(c, d);
  diff_emit(c, &f,
            diff_xprintf(c,
                         "cable %s - %s runs at %s, planned %s (%s below "
                         "plan%s: reseat or replace the cable)",
                         a, b, rb, rd, what, note ? note : ""));
  free(note);
  diff_wo_add(c, "replace", "diff.different", de->k[0], de->k[1], 1, 0, 0,
              de->link,
              fabric ? "reseat, then replace if still below the rest of "
                       "the fabric"
                     : "reseat, then replace if still below plan");
  free(a);
  free(b);
}

void diff_rates_judge(dctx *c) {
  diff_rates *R = &c->rates;
  if (!R->n)
    return;
  for (int a = 0; a < 2 && !c->nomem; a++)
    fabric_cause(c, a);
  for (int a = 0; a < 2 && !c->nomem; a++)
    node_causes(c, a);
  for (size_t i = 0; i < R->n && !c->nomem; i++)
    if (R->v[i].low[ATTR_SPEED] || R->v[i].low[ATTR_WIDTH])
      cable_finding(c, &R->v[i]);
}

void diff_rates_free(diff_rates *R) {
  free(R->v);
  free(R->rated[0]);
  free(R->rated[1]);
  memset(R, 0, sizeof *R);
}
