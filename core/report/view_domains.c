/* SPDX-License-Identifier: MIT */
/*
 * core/report/view_domains.c — the domains view: the tier view with the
 * nodes of each failure domain in one cluster, and what each domain value
 * holds and which findings its failure raises (picture.h).
 *
 * Clusters are the values of the first domain key the fabric carries, in
 * the order rack, row, hall, pdu, power-feed (the keys of
 * failure-domains, docs/rules/failure-domains.md); the CAs of one switch
 * are split per value, so a hosts node sits in one cluster. A side box
 * lists every value of every key present: the switches and CAs that carry
 * it (lost with it) and the failure-domains findings about it (their
 * evidence "domain" and "value"), e.g. the partition or capacity loss its
 * failure causes. A cluster whose value such a finding names takes the
 * finding's colour. At scale, switches fold per (value, tier) inside the
 * clusters. The CAs of one value are one hosts node (what fails with it),
 * cabled to each switch its hosts reach. A key with more drawn nodes than
 * a picture holds (its switch (value, tier) groups plus its CA values
 * above PIC_MAX_ELEMENT_NODES: a rack per switch), or with more values
 * holding CAs than a row holds (PIC_MAX_ROW_NODES: the 128 racks of 16
 * SUs), gives way to the next key (the 16 rows); when none fits, nothing
 * is clustered and switches fold as in the tiers view, and the side box
 * says so (issue #32 case 10: 2,000 rack clusters took Graphviz 144 s).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "fabriclint/fabric.h"
#include "report/pic_view.h"
#include "util/natcmp.h"

#define DOMAIN_LINES 60u

static const char *const KEYS[] = {"rack", "row", "hall", "pdu", "power-feed"};
#define N_KEYS (sizeof KEYS / sizeof KEYS[0])

typedef struct domains {
  const pic_ctx *c;
  const char *key;    /* the clustering key, or NULL */
  fl_strmap clusters; /* value -> cluster index */
} domains;

static const char *value_of(const fl_fabric *f, fl_id n, const char *key) {
  return key ? fl_fabric_attr(f, FL_ENT_NODE, n, key) : NULL;
}

static int key_present(const fl_fabric *f, const char *key) {
  uint32_t nn = fl_fabric_node_count(f);
  for (fl_id n = 0; n < nn; n++)
    if (fl_fabric_attr(f, FL_ENT_NODE, n, key))
      return 1;
  return 0;
}

/* The drawn nodes that clustering by @key would make at least: the
 * (value, tier) groups of the kept switches plus the values of the kept
 * CAs (in *@ca_values: the hosts nodes, one row); stops counting past
 * PIC_MAX_ELEMENT_NODES. -1 on ENOMEM. */
static long key_nodes(const pic_ctx *c, const char *key, size_t *ca_values) {
  const fl_fabric *f = c->fab;
  uint32_t nn = fl_fabric_node_count(f);
  fl_strmap seen = {0};
  long rc = 0;
  *ca_values = 0;
  for (fl_id n = 0; n < nn && rc == 0; n++) {
    const char *v = fl_fabric_attr(f, FL_ENT_NODE, n, key);
    if (!v || (c->keep && !c->keep[n]))
      continue;
    /* "ca" or the tier, a unit separator, the value (kept whole) */
    char head[16];
    if (fl_fabric_node_kind(f, n) == FL_NODE_CA)
      snprintf(head, sizeof head, "ca\x1f");
    else
      snprintf(head, sizeof head, "%d\x1f", (int)pic_rank_of(f, n));
    size_t hl = strlen(head), vl = strlen(v);
    char *k = malloc(hl + vl + 1);
    if (k) {
      memcpy(k, head, hl);
      memcpy(k + hl, v, vl + 1);
    }
    size_t before = fl_strmap_len(&seen);
    if (!k || fl_strmap_put(&seen, k, hl + vl, 0) == FL_MAP_ABSENT)
      rc = -1;
    else if (fl_strmap_len(&seen) > before && head[0] == 'c')
      (*ca_values)++;
    free(k);
    if (fl_strmap_len(&seen) > PIC_MAX_ELEMENT_NODES)
      break;
  }
  size_t got = fl_strmap_len(&seen);
  fl_strmap_free(&seen);
  return rc ? rc : (long)got;
}

/* Findings of failure-domains whose evidence names (@key, @value). */
static int names_domain(const fl_finding_rec *r, const char *key,
                        const char *value) {
  if (!r->evidence || strncmp(r->rule, "failure-domains.", 16) != 0)
    return 0;
  json_t *j = json_loads(r->evidence, 0, NULL);
  const char *k = json_string_value(json_object_get(j, "domain"));
  const char *v = json_string_value(json_object_get(j, "value"));
  int hit = k && v && !strcmp(k, key) && !strcmp(v, value);
  json_decref(j);
  return hit;
}

static uint32_t cluster_of(void *arg, pic_scene *s, fl_id n) {
  domains *dm = arg;
  const char *v = value_of(dm->c->fab, n, dm->key);
  if (!v)
    return PIC_NONE;
  uint32_t have = fl_strmap_get(&dm->clusters, v, strlen(v));
  if (have != FL_MAP_ABSENT)
    return have;
  char id[PIC_ID_MAX];
  size_t len = (size_t)snprintf(id, sizeof id, "domain-");
  pic_id_enc(id, sizeof id, &len, dm->key);
  if (len + 1 < sizeof id)
    id[len++] = '~', id[len] = '\0';
  pic_id_enc(id, sizeof id, &len, v);
  char *label = pic_printf(s, "%s %s", dm->key, v);
  uint32_t cl = pic_scene_cluster(s, id, label ? label : v);
  if (cl == PIC_NONE ||
      fl_strmap_put(&dm->clusters, v, strlen(v), cl) == FL_MAP_ABSENT)
    return PIC_NONE;
  /* the findings its failure raises colour the cluster */
  pic_cluster *c = &s->clusters[cl];
  const fl_findings *fs = dm->c->fs;
  for (size_t i = 0; i < fs->n; i++) {
    const fl_finding_rec *r = &fs->v[i];
    if (!fl_finding_active(r) || !names_domain(r, dm->key, v))
      continue;
    if (r->severity > c->sev)
      c->sev = r->severity;
    c->cls = pic_cls_add(s, c->cls, (uint32_t)i + 1);
    uint32_t k = (uint32_t)i + 1;
    c->tooltip =
        pic_tooltip_findings(s, dm->c, c->tooltip ? c->tooltip : label, &k, 1);
  }
  return cl;
}

/* The CAs of one value are one hosts node: what fails with it. */
static const char *ca_whole(void *arg, fl_id ca) {
  domains *dm = arg;
  return value_of(dm->c->fab, ca, dm->key);
}

static int switch_group(void *arg, fl_id sw, char *key, size_t ksize,
                        char *label, size_t lsize, int32_t *rank) {
  domains *dm = arg;
  const char *v = value_of(dm->c->fab, sw, dm->key);
  char tn[32], enc[PIC_ID_MAX];
  size_t len = 0;
  *rank = pic_rank_of(dm->c->fab, sw);
  pic_tier_name((uint32_t)*rank, tn, sizeof tn);
  pic_id_enc(enc, sizeof enc, &len, v ? v : "");
  snprintf(key, ksize, "%s%s-tier-%d", v ? "in-" : "none", enc, (int)*rank);
  /* inside its cluster, whose label names the value: the tier alone */
  snprintf(label, lsize, "%s", tn);
  return 0;
}

/* The values of one key: their names (natural order), switch and CA
 * counts, and whether a failure-domains finding names them. */
typedef struct key_vals {
  fl_strmap vals; /* value -> index */
  uint32_t *sw, *ca, *order;
  uint8_t *named;
  size_t cap;
} key_vals;

static void key_vals_free(key_vals *kv) {
  fl_strmap_free(&kv->vals);
  free(kv->sw);
  free(kv->ca);
  free(kv->order);
  free(kv->named);
}

/* Room for value index @i. 0, or -1 on ENOMEM. */
static int key_vals_room(key_vals *kv, size_t i) {
  if (i < kv->cap)
    return 0;
  size_t nc = kv->cap ? kv->cap * 2 : 64;
  uint32_t *a = realloc(kv->sw, nc * sizeof *a);
  if (!a)
    return -1;
  kv->sw = a;
  uint32_t *b = realloc(kv->ca, nc * sizeof *b);
  if (!b)
    return -1;
  kv->ca = b;
  memset(kv->sw + kv->cap, 0, (nc - kv->cap) * sizeof *kv->sw);
  memset(kv->ca + kv->cap, 0, (nc - kv->cap) * sizeof *kv->ca);
  kv->cap = nc;
  return 0;
}

/* Every value of @key with its counts, in natural order. 0 or -1. */
static int key_vals_read(key_vals *kv, const pic_ctx *c, const char *key) {
  const fl_fabric *f = c->fab;
  uint32_t nn = fl_fabric_node_count(f);
  for (fl_id n = 0; n < nn; n++) {
    const char *v = fl_fabric_attr(f, FL_ENT_NODE, n, key);
    if (!v)
      continue;
    uint32_t i = fl_strmap_put(&kv->vals, v, strlen(v),
                               (uint32_t)fl_strmap_len(&kv->vals));
    if (i == FL_MAP_ABSENT || key_vals_room(kv, i) != 0)
      return -1;
    (fl_fabric_node_kind(f, n) == FL_NODE_CA ? kv->ca : kv->sw)[i]++;
  }
  size_t nv = fl_strmap_len(&kv->vals);
  kv->order = malloc((nv + 1) * sizeof *kv->order);
  kv->named = calloc(nv + 1, 1);
  if (!kv->order || !kv->named)
    return -1;
  for (size_t i = 0; i < nv; i++) { /* natural order */
    size_t k = i;
    while (k > 0 && fl_natcmp(fl_strmap_key(&kv->vals, kv->order[k - 1]),
                              fl_strmap_key(&kv->vals, i)) > 0) {
      kv->order[k] = kv->order[k - 1];
      k--;
    }
    kv->order[k] = (uint32_t)i;
  }
  for (size_t i = 0; i < nv; i++)
    for (size_t j = 0; j < c->fs->n && !kv->named[i]; j++)
      kv->named[i] =
          fl_finding_active(&c->fs->v[j]) &&
          names_domain(&c->fs->v[j], key, fl_strmap_key(&kv->vals, i));
  return 0;
}

/* The line of value @i of @key: what it holds and the findings about it. */
static char *value_line(pic_scene *s, const pic_ctx *c, const char *key,
                        const key_vals *kv, uint32_t i) {
  const char *v = fl_strmap_key(&kv->vals, i);
  char *line = pic_printf(s, "%s %s: %u switch%s, %u CA%s", key, v, kv->sw[i],
                          kv->sw[i] == 1 ? "" : "es", kv->ca[i],
                          kv->ca[i] == 1 ? "" : "s");
  for (size_t j = 0; line && j < c->fs->n; j++) {
    const fl_finding_rec *r = &c->fs->v[j];
    if (!fl_finding_active(r) || !names_domain(r, key, v))
      continue;
    line = pic_printf(s, "%s; if it fails: [%s] %s: %.240s%s", line,
                      fl_severity_name(r->severity), r->rule, r->message,
                      strlen(r->message) > 240 ? "..." : "");
  }
  return line && !kv->named[i]
             ? pic_printf(s, "%s; no failure-domains finding", line)
             : line;
}

/* One line for the values of @key that no finding names and that hold
 * what value @first holds (@first and those after it in natural order):
 * "rack R01-01, R01-02, ..., R16-08 (128 values): 0 switches, 32 CAs
 * each; no failure-domains finding". Marks them done. */
static char *alike_line(pic_scene *s, const char *key, const key_vals *kv,
                        size_t first, uint8_t *done) {
  size_t nv = fl_strmap_len(&kv->vals), n = 0, last = first, second = first;
  uint32_t a = kv->order[first];
  for (size_t j = first; j < nv; j++) {
    uint32_t i = kv->order[j];
    if (done[j] || kv->named[i] || kv->sw[i] != kv->sw[a] ||
        kv->ca[i] != kv->ca[a])
      continue;
    done[j] = 1;
    if (n == 1)
      second = j;
    last = j, n++;
  }
  const char *v1 = fl_strmap_key(&kv->vals, a);
  const char *v2 = fl_strmap_key(&kv->vals, kv->order[second]);
  const char *vl = fl_strmap_key(&kv->vals, kv->order[last]);
  const char *names = n == 2   ? pic_printf(s, "%s, %s", v1, vl)
                      : n == 3 ? pic_printf(s, "%s, %s, %s", v1, v2, vl)
                               : pic_printf(s, "%s, %s, ..., %s", v1, v2, vl);
  return pic_printf(s,
                    "%s %s (%zu values): %u switch%s, %u CA%s each; no "
                    "failure-domains finding",
                    key, names ? names : v1, n, kv->sw[a],
                    kv->sw[a] == 1 ? "" : "es", kv->ca[a],
                    kv->ca[a] == 1 ? "" : "s");
}

/* The side box: for each key present, one line per value a
 * failure-domains finding names (what it holds and what its failure
 * raises), and one line per kind of value no finding names (values that
 * hold the same numbers of switches and CAs): 16 SUs' 176 racks are 4
 * lines, not 176 cut at 60. */
static int summarise(pic_scene *s, const pic_ctx *c, size_t *lines) {
  for (size_t k = 0; k < N_KEYS; k++) {
    key_vals kv;
    memset(&kv, 0, sizeof kv);
    int rc = key_vals_read(&kv, c, KEYS[k]);
    size_t nv = fl_strmap_len(&kv.vals);
    uint8_t *done = rc == 0 ? calloc(nv + 1, 1) : NULL;
    if (!done)
      rc = -1;
    for (size_t j = 0; rc == 0 && j < nv; j++) {
      if (done[j])
        continue;
      uint32_t i = kv.order[j];
      size_t alike = 0;
      for (size_t m = j; !kv.named[i] && m < nv && alike < 2; m++) {
        uint32_t x = kv.order[m];
        alike += !done[m] && !kv.named[x] && kv.sw[x] == kv.sw[i] &&
                 kv.ca[x] == kv.ca[i];
      }
      char *line = alike > 1 ? alike_line(s, KEYS[k], &kv, j, done)
                             : value_line(s, c, KEYS[k], &kv, i);
      done[j] = 1;
      if ((*lines)++ >= DOMAIN_LINES)
        continue;
      rc = line ? pic_scene_side(s, line) : -1;
    }
    free(done);
    key_vals_free(&kv);
    if (rc)
      return -1;
  }
  if (*lines > DOMAIN_LINES) {
    char line[96];
    snprintf(line, sizeof line, "and %zu more lines", *lines - DOMAIN_LINES);
    return pic_scene_side(s, line);
  }
  return 0;
}

int pic_view_domains(pic_scene *s, const pic_ctx *c) {
  domains dm;
  memset(&dm, 0, sizeof dm);
  dm.c = c;
  /* the first key present whose clusters fit in a picture: at most
   * PIC_MAX_ELEMENT_NODES drawn nodes, and at most PIC_MAX_ROW_NODES hosts
   * nodes in the hosts row (one per value: 128 racks of 16 SUs in one row
   * were an 11,000 pt strip; their 16 rows fit) */
  const char *present = NULL, *too_fine = NULL;
  char *passed = NULL; /* why each key passed over was, "; "-separated */
  int rc = 0;
  for (size_t k = 0; k < N_KEYS && !dm.key && rc == 0; k++) {
    if (!key_present(c->fab, KEYS[k]))
      continue;
    present = present ? present : KEYS[k];
    size_t row = 0;
    long got = key_nodes(c, KEYS[k], &row);
    if (got < 0) {
      rc = -1;
      continue;
    }
    if (got <= (long)PIC_MAX_ELEMENT_NODES && row <= PIC_MAX_ROW_NODES) {
      dm.key = KEYS[k];
      continue;
    }
    too_fine = too_fine ? too_fine : KEYS[k];
    /* the row count is exact only when the node count stopped in time */
    char *why =
        got > (long)PIC_MAX_ELEMENT_NODES
            ? pic_printf(s, "%s values make more than %u drawn nodes", KEYS[k],
                         PIC_MAX_ELEMENT_NODES)
            : pic_printf(s, "%zu %s values hold hosts, more than %u in a row",
                         row, KEYS[k], PIC_MAX_ROW_NODES);
    passed = passed ? pic_printf(s, "%s; %s", passed, why) : why;
  }
  char *t = pic_view_title(s, c, "failure domains");
  s->title = dm.key ? pic_printf(s, "%s; clusters: %s", t ? t : "", dm.key)
             : too_fine
                 ? pic_printf(s, "%s; clusters: none (folded)", t ? t : "")
                 : t;
  s->side_title = pic_strdup(s, "domain values: what each holds, what its "
                                "failure raises");
  size_t lines = 0;
  if (rc == 0 && !present)
    rc = pic_scene_side(s, "no rack, row, hall, pdu or power-feed attribute: "
                           "give a side file (docs/rules/failure-domains.md)");
  else if (rc == 0 && too_fine && !dm.key)
    rc = pic_scene_side(s, pic_printf(s,
                                      "%s: not drawn as clusters; switches "
                                      "folded as in the tiers view",
                                      passed ? passed : too_fine));
  else if (rc == 0 && too_fine)
    rc = pic_scene_side(s, pic_printf(s, "%s: clusters by %s",
                                      passed ? passed : too_fine, dm.key));
  if (rc == 0 && present)
    rc = summarise(s, c, &lines);
  pic_draw d;
  memset(&d, 0, sizeof d);
  if (rc == 0) {
    pic_draw_opts o;
    memset(&o, 0, sizeof o);
    if (dm.key) {
      o.cluster_of = cluster_of;
      o.ca_whole = ca_whole;
      o.switch_group = switch_group;
      o.arg = &dm;
    }
    rc = pic_draw_fabric(s, c, &o, &d);
  }
  if (rc == 0)
    rc = pic_tiers_side(s, c, &d);
  if (rc == 0)
    rc = pic_tiers_legend(s, c, &d) ||
         pic_scene_legend(s, "#f7f7f7", 0, 1,
                          "a failure domain (cluster): what it holds fails "
                          "with it");
  if (rc == 0)
    rc = pic_add_notes(s, c, "failure-domains.");
  pic_draw_free(&d);
  fl_strmap_free(&dm.clusters);
  return rc || s->oom ? -1 : 0;
}
