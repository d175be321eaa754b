/* SPDX-License-Identifier: MIT */
/*
 * core/cli/cli_compare_model.c — `fabriclint compare` as one JSON document
 * (cli_compare.h): each side's inventory and capacity, the findings matched
 * by fingerprint across a rename, and the delta. The renderers and the
 * --fail-on policies read this document only.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli_bom.h"
#include "cli/cli_compare.h"
#include "fabriclint/types.h"
#include "model/hashmap.h"

/* ---- inventory ------------------------------------------------------------
 */

/* "1", "2"... for a tier, "unknown" when not known. */
static void tier_name(uint32_t t, char *buf, size_t size) {
  if (t == FL_TIER_UNKNOWN)
    snprintf(buf, size, "unknown");
  else
    snprintf(buf, size, "%u", t);
}

/* Add @by to the integer member @key of object @o (created at 0). */
static int bump(json_t *o, const char *key, json_int_t by) {
  json_t *v = json_object_get(o, key);
  if (!v)
    return json_object_set_new(o, key, json_integer(by));
  return json_integer_set(v, json_integer_value(v) + by);
}

/* The object member @key of @o, created empty when absent (NULL: ENOMEM). */
static json_t *member_obj(json_t *o, const char *key) {
  json_t *v = json_object_get(o, key);
  if (v)
    return v;
  v = json_object();
  return v && json_object_set_new(o, key, v) == 0 ? v : NULL;
}

/* A cable's rate, "4xNDR" ("??NDR" with an unknown width, "unknown" when
 * neither is known), as `info` names link types. */
void fl_cli_link_rate(const fl_fabric *f, fl_id l, char *buf, size_t size) {
  uint32_t w = fl_fabric_link_width(f, l), sp = fl_fabric_link_speed(f, l);
  if (!w && !sp)
    snprintf(buf, size, "unknown");
  else if (w)
    snprintf(buf, size, "%ux%s", w, fl_speed_name(sp));
  else
    snprintf(buf, size, "??%s", fl_speed_name(sp));
}

/* Per switch tier: switches, ports (declared, else known; port 0 not
 * counted) and cabled ports. */
static int switch_tiers(const fl_fabric *f, json_t *tiers) {
  int rc = 0;
  for (fl_id n = 0; n < fl_fabric_node_count(f) && rc == 0; n++) {
    if (fl_fabric_node_kind(f, n) != FL_NODE_SWITCH)
      continue;
    char t[16];
    tier_name(fl_fabric_node_tier(f, n), t, sizeof t);
    json_t *o = member_obj(tiers, t);
    uint32_t np = fl_fabric_node_nports(f, n), known = 0, cabled = 0;
    fl_id first = fl_fabric_node_first_port(f, n);
    for (uint32_t k = 0;
         first != FL_NONE && k < fl_fabric_node_port_count(f, n); k++) {
      if (fl_fabric_port_num(f, first + k) == 0)
        continue;
      known++;
      cabled += fl_fabric_port_link_count(f, first + k) > 0;
    }
    rc = !o || bump(o, "switches", 1) || bump(o, "ports", np ? np : known) ||
         bump(o, "cabled_ports", cabled);
  }
  return rc;
}

/* Cables (chassis-internal links apart) by the tiers they join ("0-1":
 * host to leaf, "1-2": leaf to spine), by rate and by media. */
static int cables(const fl_fabric *f, json_t *inv) {
  json_t *by_tiers = member_obj(inv, "cables_by_tiers");
  json_t *by_rate = member_obj(inv, "cables_by_rate");
  json_t *by_media = member_obj(inv, "cables_by_media");
  if (!by_tiers || !by_rate || !by_media)
    return -1;
  json_int_t n = 0, internal = 0;
  int rc = 0;
  for (fl_id l = 0; l < fl_fabric_link_count(f) && rc == 0; l++) {
    if (fl_fabric_link_internal(f, l)) {
      internal++;
      continue;
    }
    n++;
    uint32_t t[2];
    for (uint32_t e = 0; e < 2; e++)
      t[e] = fl_fabric_node_tier(
          f, fl_fabric_port_node(f, fl_fabric_link_port(f, l, e)));
    uint32_t lo = t[0] < t[1] ? t[0] : t[1], hi = t[0] < t[1] ? t[1] : t[0];
    char a[16], b[16], key[40], rate[32];
    tier_name(lo, a, sizeof a);
    tier_name(hi, b, sizeof b);
    snprintf(key, sizeof key, "%s-%s", a, b);
    fl_cli_link_rate(f, l, rate, sizeof rate);
    const char *media = fl_fabric_attr(f, FL_ENT_LINK, l, "media");
    rc = bump(by_tiers, key, 1) || bump(by_rate, rate, 1) ||
         bump(by_media, media && *media ? media : "unspecified", 1);
  }
  return rc || json_object_set_new(inv, "cables", json_integer(n)) ||
         json_object_set_new(inv, "internal_links", json_integer(internal));
}

static json_t *inventory(const fl_fabric *f) {
  json_t *inv = json_object(), *tiers = json_object();
  if (!inv || !tiers || json_object_set_new(inv, "tiers", tiers) ||
      json_object_set_new(
          inv, "switches",
          json_integer(fl_fabric_count_kind(f, FL_NODE_SWITCH))) ||
      json_object_set_new(inv, "cas",
                          json_integer(fl_fabric_count_kind(f, FL_NODE_CA))) ||
      switch_tiers(f, tiers) || cables(f, inv)) {
    json_decref(inv);
    return NULL;
  }
  return inv;
}

/* ---- capacity (from the ecmp-balance.summary finding) --------------------
 */

static double num(const json_t *o, const char *key, int *have) {
  const json_t *v = json_object_get(o, key);
  *have = json_is_number(v);
  return *have ? json_number_value(v) : 0;
}

/* Round to a millionth: figures computed as ratios of Gb/s print and
 * compare without binary noise. */
static double tidy(double x) {
  if (x > 1e12 || x < -1e12) /* beyond a millionth's reach: as it is */
    return x;
  double r = (double)(long long)(x * 1e6 + (x >= 0 ? 0.5 : -0.5)) / 1e6;
  return r == 0 ? 0 : r; /* no -0 */
}

/* Add one summary finding's evidence @ev to @cap: per tier the switches
 * and Gb/s summed (planes add up), the eBB the lowest (the worst plane). */
static void capacity_add(json_t *cap, const json_t *ev) {
  json_t *tiers = json_object_get(cap, "tiers");
  size_t i;
  json_t *t;
  int have;
  json_array_foreach(json_object_get(ev, "tiers"), i, t) {
    char name[16];
    tier_name((uint32_t)json_integer_value(json_object_get(t, "tier")), name,
              sizeof name);
    json_t *o = member_obj(tiers, name);
    if (!o)
      continue;
    static const char *const G[] = {"down_gbps", "up_gbps"};
    bump(o, "switches", json_integer_value(json_object_get(t, "switches")));
    for (int k = 0; k < 2; k++) {
      double was = num(o, G[k], &have);
      json_object_set_new(o, G[k], json_real(was + num(t, G[k], &have)));
    }
  }
  json_array_foreach(json_object_get(ev, "traffic"), i, t) {
    const char *p = json_string_value(json_object_get(t, "pattern"));
    const char *had = json_string_value(json_object_get(cap, "ebb_pattern"));
    double ebb = num(t, "ebb", &have), was = num(cap, "ebb", &have);
    int same = had && p && !strcmp(had, p);
    /* the bisect pattern when there is one, else the first pattern */
    if (!p || (had && !same && (strcmp(p, "bisect") || !strcmp(had, "bisect"))))
      continue;
    if (!had || !same || ebb < was) {
      json_object_set_new(cap, "ebb", json_real(tidy(ebb)));
      json_object_set_new(cap, "ebb_pattern", json_string(p));
    }
  }
}

/* {"tiers": {"1": {switches, down_gbps, up_gbps, oversubscription}},
 *  "max_oversubscription", "ebb", "ebb_pattern"} from the summaries'
 * evidence (one per plane: summed; oversubscription is down / up of the
 * sums, rounded to a millionth); JSON null when there is none. */
static json_t *capacity(const fl_findings *sums) {
  if (!sums || !sums->n)
    return json_null();
  json_t *cap = json_object(), *tiers = json_object();
  if (!cap || !tiers || json_object_set_new(cap, "tiers", tiers)) {
    json_decref(cap);
    return NULL;
  }
  for (size_t k = 0; k < sums->n; k++) {
    json_t *ev =
        sums->v[k].evidence ? json_loads(sums->v[k].evidence, 0, NULL) : NULL;
    if (ev)
      capacity_add(cap, ev);
    json_decref(ev);
  }
  const char *name;
  json_t *o;
  double worst = 0;
  int any = 0, have;
  json_object_foreach(tiers, name, o) {
    double down = num(o, "down_gbps", &have), up = num(o, "up_gbps", &have);
    json_object_set_new(o, "down_gbps", json_real(tidy(down)));
    json_object_set_new(o, "up_gbps", json_real(tidy(up)));
    if (up > 0) { /* none for the top tier (no uplinks) */
      double os = tidy(down / up);
      json_object_set_new(o, "oversubscription", json_real(os));
      worst = any && worst > os ? worst : os;
      any = 1;
    }
  }
  if (any)
    json_object_set_new(cap, "max_oversubscription", json_real(worst));
  return cap;
}

/* ---- the worst single switch failure (failure-domains.single-point) ------
 */

int fl_cmp_failure_of(const fl_findings *fs, fl_cmp_failure *out) {
  memset(out, 0, sizeof *out);
  for (size_t i = 0; i < fs->n; i++) {
    const fl_finding_rec *f = &fs->v[i];
    if (strcmp(f->rule, FL_CMP_SPOF_RULE) != 0 || !f->evidence)
      continue;
    json_t *ev = json_loads(f->evidence, 0, NULL);
    if (!ev)
      return -1;
    const char *kind = json_string_value(json_object_get(ev, "kind"));
    const char *el = json_string_value(json_object_get(ev, "element"));
    json_int_t cut =
        json_integer_value(json_object_get(ev, "cut_off_endpoints"));
    if (kind && !strcmp(kind, "switch") && el && cut > 0) {
      out->switches++;
      if ((uint32_t)cut > out->worst_cut ||
          ((uint32_t)cut == out->worst_cut && strcmp(el, out->worst) < 0)) {
        out->worst_cut = (uint32_t)cut;
        snprintf(out->worst, sizeof out->worst, "%s", el);
      }
    }
    json_decref(ev);
  }
  return 0;
}

static json_t *failure_json(const fl_cmp_failure *f) {
  if (!f)
    return json_null();
  json_t *o =
      json_pack("{s:i,s:i}", "single_point_switches", (json_int_t)f->switches,
                "worst_cut_off_endpoints", (json_int_t)f->worst_cut);
  if (o && f->worst[0] &&
      json_object_set_new(o, "worst_switch", json_string(f->worst))) {
    json_decref(o);
    return NULL;
  }
  return o;
}

/* The worst single failure of each domain key (FL_CMP_DOMAINS_RULE's
 * findings, one per key): {KEY: {worst, servers_off, servers_total,
 * powered_off, cut_off, values}}; null when the rule did not run. */
static json_t *domains_json(const fl_findings *fs) {
  if (!fs)
    return json_null();
  json_t *o = json_object();
  for (size_t i = 0; o && i < fs->n; i++) {
    json_t *ev =
        fs->v[i].evidence ? json_loads(fs->v[i].evidence, 0, NULL) : NULL;
    const char *key = json_string_value(json_object_get(ev, "domain"));
    json_t *one =
        key ? json_pack("{s:O,s:O,s:O,s:O,s:O,s:O}", "worst",
                        json_object_get(ev, "value"), "servers_off",
                        json_object_get(ev, "servers_off"), "servers_total",
                        json_object_get(ev, "servers_total"), "powered_off",
                        json_object_get(ev, "powered_off"), "cut_off",
                        json_object_get(ev, "cut_off"), "values",
                        json_object_get(ev, "values"))
            : NULL;
    if (one && json_object_set_new(o, key, one)) {
      json_decref(o);
      o = NULL;
    }
    json_decref(ev);
  }
  return o;
}

/* ---- LID space (topology.lid-space figures=true) --------------------------
 */

/* The unicast LIDs of each subnet (FL_CMP_LIDS_RULE's figures, one per
 * subnet, evidence "figures": true; its other findings skipped):
 * {lids_available,
 * subnets, lids_needed (the largest subnet's: the one that decides),
 * lids_left (available minus that), lids_total, lmc, by_subnet: {"plane
 * P" | "the subnet" | "subnet of SWITCH": {lids_needed, switches,
 * ca_ports}}}; null when the rule did not run or found no InfiniBand
 * subnet (an Ethernet fabric has no LIDs). */
/* The evidence of @f when it is one of the figures, else NULL (new
 * reference). */
static json_t *lids_figures(const fl_finding_rec *f) {
  json_t *ev = f->evidence ? json_loads(f->evidence, 0, NULL) : NULL;
  if (json_is_true(json_object_get(ev, "figures")))
    return ev;
  json_decref(ev); /* an overflow finding: the figures say it too */
  return NULL;
}

static json_t *lids_json(const fl_findings *fs) {
  size_t n = 0;
  for (size_t i = 0; fs && i < fs->n; i++) {
    json_t *ev = lids_figures(&fs->v[i]);
    n += ev != NULL;
    json_decref(ev);
  }
  if (!n)
    return json_null();
  json_t *by = json_object();
  json_int_t most = 0, total = 0, avail = 0, lmc = 0;
  for (size_t i = 0; by && i < fs->n; i++) {
    json_t *ev = lids_figures(&fs->v[i]);
    if (!ev)
      continue;
    json_int_t need = json_integer_value(json_object_get(ev, "lids_needed"));
    json_int_t l = json_integer_value(json_object_get(ev, "lmc"));
    char key[300];
    if (fs->v[i].plane)
      snprintf(key, sizeof key, "plane %s", fs->v[i].plane);
    else if (n == 1)
      snprintf(key, sizeof key, "the subnet");
    else
      snprintf(key, sizeof key, "subnet of %s",
               json_string_value(json_object_get(ev, "first_switch")));
    json_t *one = ev ? json_pack("{s:I,s:O,s:O}", "lids_needed", need,
                                 "switches", json_object_get(ev, "switches"),
                                 "ca_ports", json_object_get(ev, "ca_ports"))
                     : NULL;
    avail = json_integer_value(json_object_get(ev, "lids_available"));
    json_decref(ev);
    if (!one || json_object_set_new(by, key, one)) {
      json_decref(by);
      return NULL;
    }
    most = need > most ? need : most;
    lmc = l > lmc ? l : lmc;
    total += need;
  }
  return by ? json_pack("{s:I,s:I,s:I,s:I,s:I,s:I,s:o}", "lids_available",
                        avail, "subnets", (json_int_t)json_object_size(by),
                        "lids_needed", most, "lids_left", avail - most,
                        "lids_total", total, "lmc", lmc, "by_subnet", by)
            : NULL;
}

/* ---- renames and fingerprints ---------------------------------------------
 */

typedef struct renames {
  fl_strmap map;     /* HEAD name -> index into @to */
  const char **to;   /* BASE names (borrowed from the BASE fabric) */
  size_t n, longest; /* entries; the longest HEAD name */
} renames;

/* HEAD nodes whose non-zero GUID names a BASE node of the same kind and
 * another name, where neither name is on the other side. */
static int renames_build(const fl_fabric *base, const fl_fabric *head,
                         renames *r, json_t *list) {
  memset(r, 0, sizeof *r);
  uint32_t n = fl_fabric_node_count(head);
  r->to = calloc(n + 1, sizeof *r->to);
  if (!r->to)
    return -1;
  for (fl_id i = 0; i < n; i++) {
    uint64_t g = fl_fabric_node_guid(head, i);
    fl_id b = g ? fl_fabric_find_node_guid(base, g) : FL_NONE;
    if (b == FL_NONE)
      continue;
    const char *hn = fl_fabric_node_name(head, i),
               *bn = fl_fabric_node_name(base, b);
    /* a plan's GUIDs may be numbered afresh (gen numbers them in order):
     * a GUID that moved to a node whose name the other side also has is
     * a renumbering, not a rename */
    if (!strcmp(hn, bn) ||
        fl_fabric_node_kind(head, i) != fl_fabric_node_kind(base, b) ||
        fl_fabric_find_node_name(base, hn) != FL_NONE ||
        fl_fabric_find_node_name(head, bn) != FL_NONE)
      continue;
    size_t len = strlen(hn);
    if (fl_strmap_put(&r->map, hn, len, (uint32_t)r->n) != r->n)
      continue; /* a name twice in HEAD: keep the first */
    r->to[r->n++] = bn;
    r->longest = len > r->longest ? len : r->longest;
    json_t *e = json_pack("{s:s,s:s}", "base", bn, "head", hn);
    if (!e || json_array_append_new(list, e))
      return -1;
  }
  return 0;
}

static void renames_free(renames *r) {
  fl_strmap_free(&r->map);
  free(r->to);
}

/* Where a name in a key may start or end: not inside a word of a name. */
static int boundary(char c) {
  return !((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.' ||
           c == '/' || c == '#');
}

/* @key with every renamed HEAD node name (the longest one starting at a
 * boundary and ending at one) replaced by its BASE name; malloc'd, NULL on
 * ENOMEM. */
static char *translate_key(const renames *r, const char *key) {
  size_t len = strlen(key), cap = len + 1, o = 0;
  char *out = malloc(cap);
  for (size_t i = 0; out && i < len;) {
    size_t best = 0;
    uint32_t to = FL_MAP_ABSENT;
    if (r->n && (i == 0 || boundary(key[i - 1])))
      for (size_t j = i + 1; j <= len && j - i <= r->longest; j++) {
        if (j < len && !boundary(key[j]))
          continue;
        uint32_t v = fl_strmap_get(&r->map, key + i, j - i);
        if (v != FL_MAP_ABSENT)
          best = j - i, to = v;
      }
    const char *piece = to != FL_MAP_ABSENT ? r->to[to] : key + i;
    size_t plen = to != FL_MAP_ABSENT ? strlen(piece) : 1;
    if (o + plen + 1 > cap) {
      cap = (o + plen + 1) * 2;
      char *t = realloc(out, cap);
      if (!t) {
        free(out);
        return NULL;
      }
      out = t;
    }
    memcpy(out + o, piece, plen);
    o += plen;
    i += to != FL_MAP_ABSENT ? best : 1;
  }
  if (out)
    out[o] = '\0';
  return out;
}

/* One finding to match: its fingerprint (in BASE's names), side, record. */
typedef struct entry {
  char fp[17];
  int side; /* 0 BASE, 1 HEAD */
  const fl_finding_rec *r;
} entry;

static int entry_cmp(const void *x, const void *y) {
  const entry *a = x, *b = y;
  int c = strcmp(a->fp, b->fp);
  if (c)
    return c;
  if (a->side != b->side)
    return a->side - b->side;
  return fl_finding_rec_cmp(a->r, b->r);
}

/* Append the active findings of @fs to @v (*@n), fingerprinted through the
 * renames @r (NULL: as they are); counts the waived ones into @counts. */
static int entries_add(const fl_findings *fs, int side, const renames *r,
                       entry *v, size_t *n, json_t *counts) {
  for (size_t i = 0; i < fs->n; i++) {
    const fl_finding_rec *f = &fs->v[i];
    if (!fl_finding_active(f)) {
      if (bump(counts, "waived", 1))
        return -1;
      continue;
    }
    if (bump(counts, fl_severity_name(f->severity), 1))
      return -1;
    entry *e = &v[(*n)++];
    e->side = side;
    e->r = f;
    if (!r || !r->n) {
      fl_finding_fingerprint(f, e->fp);
      continue;
    }
    fl_finding_rec t = *f;
    t.key = translate_key(r, f->key ? f->key : "");
    if (!t.key)
      return -1;
    fl_finding_fingerprint(&t, e->fp);
    free(t.key);
  }
  return 0;
}

/* The JSON of a finding in the lists: rule, severity, message,
 * fingerprint, and the plane when there is one. */
static json_t *finding_json(const entry *e) {
  json_t *o =
      json_pack("{s:s,s:s,s:s,s:s}", "rule", e->r->rule, "severity",
                fl_severity_name(e->r->severity), "message",
                e->r->message ? e->r->message : "", "fingerprint", e->fp);
  if (o && e->r->plane)
    json_object_set_new(o, "plane", json_string(e->r->plane));
  return o;
}

/* Walk entries sorted by fingerprint: in a group of b BASE and h HEAD
 * entries, min(b, h) pairs are unchanged, the rest fixed or new. */
static int match(const entry *v, size_t n, json_t *out) {
  json_t *lists[3] = {json_array(), json_array(), json_array()};
  static const char *const names[3] = {"new", "fixed", "unchanged"};
  json_t *counts = json_object();
  int rc = !lists[0] || !lists[1] || !lists[2] || !counts;
  for (size_t i = 0; i < n && !rc;) {
    size_t j = i, nb = 0;
    while (j < n && !strcmp(v[j].fp, v[i].fp))
      nb += v[j++].side == 0;
    size_t nh = j - i - nb, pairs = nb < nh ? nb : nh;
    for (size_t k = 0; k < j - i && !rc; k++) {
      const entry *e = &v[i + k];
      int h = e->side == 1;
      size_t rank = h ? k - nb : k; /* place among its side in the group */
      int which = rank < pairs ? 2 : h ? 0 : 1;
      if (which == 2 && !h)
        continue; /* an unchanged pair is listed once, as HEAD has it */
      json_t *o = finding_json(e);
      if (o && which == 2 && v[i + rank].r->severity != e->r->severity)
        json_object_set_new(
            o, "base_severity",
            json_string(fl_severity_name(v[i + rank].r->severity)));
      json_t *c = member_obj(counts, names[which]);
      rc = !o || json_array_append_new(lists[which], o) || !c ||
           bump(c, fl_severity_name(e->r->severity), 1);
    }
    i = j;
  }
  for (int k = 0; k < 3; k++) {
    if (!rc) {
      json_t *c = member_obj(counts, names[k]);
      rc = !c || bump(c, "error", 0) || bump(c, "warning", 0) ||
           bump(c, "info", 0) || json_object_set_new(out, names[k], lists[k]);
    } else {
      json_decref(lists[k]);
    }
  }
  return rc || json_object_set_new(out, "counts", counts);
}

static int findings(const fl_cmp_side *base, const fl_cmp_side *head,
                    const renames *r, json_t *m) {
  size_t n = 0;
  entry *v = calloc(base->fs->n + head->fs->n + 1, sizeof *v);
  json_t *cb = json_pack("{s:i,s:i,s:i,s:i}", "error", 0, "warning", 0, "info",
                         0, "waived", 0);
  json_t *ch = json_deep_copy(cb), *out = json_object();
  int rc = !v || !cb || !ch || !out ||
           entries_add(base->fs, 0, NULL, v, &n, cb) ||
           entries_add(head->fs, 1, r, v, &n, ch);
  if (!rc) {
    qsort(v, n, sizeof *v, entry_cmp);
    rc = match(v, n, out) ||
         json_object_set(json_object_get(m, "base"), "findings", cb) ||
         json_object_set(json_object_get(m, "head"), "findings", ch) ||
         json_object_set(m, "findings", out);
  }
  free(v);
  json_decref(cb);
  json_decref(ch);
  json_decref(out);
  return rc;
}

/* ---- delta -----------------------------------------------------------------
 */

/* HEAD minus BASE of every number in @b and @h (objects: the union of their
 * members). A member one side lacks counts as 0 when @zero (counts: a tier
 * with no switch), else its delta is null (a ratio that does not exist). */
static json_t *delta(const json_t *b, const json_t *h, int zero) {
  if (json_is_object(b) || json_is_object(h)) {
    json_t *o = json_object();
    const char *k;
    json_t *v;
    const json_t *src[2] = {b, h};
    for (int s = 0; s < 2 && o; s++)
      json_object_foreach((json_t *)src[s], k, v) {
        if (json_object_get(o, k) || json_is_string(v))
          continue;
        json_t *d = delta(json_object_get(b, k), json_object_get(h, k), zero);
        if (!d || json_object_set_new(o, k, d)) {
          json_decref(o);
          return NULL;
        }
      }
    return o;
  }
  if ((!json_is_number(b) || !json_is_number(h)) && !zero)
    return json_null();
  if (json_is_real(b) || json_is_real(h))
    return json_real(tidy(json_number_value(h) - json_number_value(b)));
  return json_integer(json_integer_value(h) - json_integer_value(b));
}

/* ---- the document ----------------------------------------------------------
 */

/* A known total, else null (a row the catalogue does not price). */
static json_t *known(int have, double v) {
  return have ? json_real(tidy(v)) : json_null();
}

/* The cost and power of a side's bill of materials (bom --catalogue):
 * totals only when every row has the figure, as `bom` gives them. */
static json_t *cost_json(const fl_bom_total *t) {
  return json_pack(
      "{s:o,s:o,s:i,s:i,s:i}", "price", known(t->no_price == 0, t->price),
      "watts", known(t->no_watts == 0, t->watts), "rows", (json_int_t)t->rows,
      "rows_without_price", (json_int_t)t->no_price, "rows_without_watts",
      (json_int_t)t->no_watts);
}

/* The side's findings by severity, and the waived ones, as "findings"
 * counts them (entries_add()). */
static json_t *side_counts(const fl_findings *fs) {
  json_t *c = json_pack("{s:i,s:i,s:i,s:i}", "error", 0, "warning", 0, "info",
                        0, "waived", 0);
  for (size_t i = 0; c && i < fs->n; i++)
    if (bump(c,
             fl_finding_active(&fs->v[i]) ? fl_severity_name(fs->v[i].severity)
                                          : "waived",
             1)) {
      json_decref(c);
      c = NULL;
    }
  return c;
}

json_t *fl_cmp_side_json(const fl_cmp_side *s) {
  json_t *inv = inventory(s->fab), *cap = capacity(s->summaries);
  json_t *fail = failure_json(s->failure);
  json_t *cost = s->cost ? cost_json(s->cost) : NULL;
  if (!inv || !cap || !fail || (s->cost && !cost)) {
    json_decref(inv);
    json_decref(cap);
    json_decref(fail);
    json_decref(cost);
    return NULL;
  }
  json_t *doms = domains_json(s->domains);
  json_t *lids = lids_json(s->lids);
  json_t *counts = side_counts(s->fs);
  json_t *o = json_pack("{s:s,s:o,s:o,s:o,s:o,s:o,s:o}", "input", s->input,
                        "inventory", inv, "capacity", cap, "failure", fail,
                        "domain_failures", doms ? doms : json_null(),
                        "lid_space", lids ? lids : json_null(), "findings",
                        counts ? counts : json_null());
  if (o && ((cost && json_object_set_new(o, "cost", cost)) ||
            (s->workload &&
             json_object_set(o, "workload", (json_t *)s->workload)))) {
    json_decref(o);
    return NULL;
  }
  return o;
}

json_t *fl_cmp_model(const fl_cmp_side *base, const fl_cmp_side *head) {
  json_t *m = json_object(), *ren = json_array();
  json_t *b = fl_cmp_side_json(base), *h = fl_cmp_side_json(head);
  renames r;
  memset(&r, 0, sizeof r);
  int rc = !m || !ren || !b || !h ||
           json_object_set_new(m, "fabriclint_compare", json_integer(1)) ||
           json_object_set(m, "base", b) || json_object_set(m, "head", h) ||
           renames_build(base->fab, head->fab, &r, ren);
  if (!rc) {
    json_t *d = json_object();
    rc =
        !d || json_object_set_new(m, "delta", d) ||
        json_object_set_new(d, "inventory",
                            delta(json_object_get(b, "inventory"),
                                  json_object_get(h, "inventory"), 1)) ||
        json_object_set_new(d, "capacity",
                            delta(json_object_get(b, "capacity"),
                                  json_object_get(h, "capacity"), 0)) ||
        json_object_set_new(d, "failure",
                            delta(json_object_get(b, "failure"),
                                  json_object_get(h, "failure"), 0)) ||
        /* a key one side lacks while the rule ran on both: no value of
         * it, so none of it can fail: 0 servers (a plan made single-fed
         * shows its PDU rows as a rise from 0, an outside tester) */
        json_object_set_new(
            d, "domain_failures",
            delta(json_object_get(b, "domain_failures"),
                  json_object_get(h, "domain_failures"),
                  json_is_object(json_object_get(b, "domain_failures")) &&
                      json_is_object(json_object_get(h, "domain_failures")))) ||
        json_object_set_new(d, "lid_space",
                            delta(json_object_get(b, "lid_space"),
                                  json_object_get(h, "lid_space"), 0)) ||
        (json_object_get(b, "cost") &&
         json_object_set_new(d, "cost",
                             delta(json_object_get(b, "cost"),
                                   json_object_get(h, "cost"), 0))) ||
        (json_object_get(b, "workload") &&
         json_object_set_new(
             d, "workload",
             fl_cmp_workload_delta(json_object_get(b, "workload"),
                                   json_object_get(h, "workload")))) ||
        json_object_set(m, "renamed", ren) || findings(base, head, &r, m);
  }
  renames_free(&r);
  json_decref(b);
  json_decref(h);
  json_decref(ren);
  if (rc) {
    json_decref(m);
    return NULL;
  }
  return m;
}
