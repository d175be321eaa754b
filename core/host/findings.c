/* SPDX-License-Identifier: MIT */
/*
 * core/host/findings.c — see findings.h.
 */
#include "host/findings.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabriclint/types.h"
#include "util/hash.h"

int fl_findings_push(fl_findings *fs, fl_finding_rec *rec) {
  if (fs->n == fs->cap) {
    size_t ncap = fs->cap ? fs->cap * 2 : 16;
    fl_finding_rec *v = realloc(fs->v, ncap * sizeof *v);
    if (!v)
      return -1;
    fs->v = v;
    fs->cap = ncap;
  }
  fs->v[fs->n++] = *rec;
  return 0;
}

static int strcmp0(const char *a, const char *b) {
  return strcmp(a ? a : "", b ? b : "");
}

static int cmp_rec(const void *x, const void *y) {
  const fl_finding_rec *a = x, *b = y;
  int c = strcmp0(a->rule, b->rule);
  if (c)
    return c;
  if ((c = strcmp0(a->file, b->file)))
    return c;
  if (a->line != b->line)
    return a->line < b->line ? -1 : 1;
  if (a->col != b->col)
    return a->col < b->col ? -1 : 1;
  if ((c = strcmp0(a->message, b->message)))
    return c;
  return strcmp0(a->key, b->key);
}

static int cmp_sev_rec(const void *x, const void *y) {
  const fl_finding_rec *a = x, *b = y;
  if (a->severity != b->severity)
    return a->severity > b->severity ? -1 : 1;
  return cmp_rec(a, b);
}

int fl_finding_rec_cmp(const fl_finding_rec *a, const fl_finding_rec *b) {
  return cmp_sev_rec(a, b);
}

void fl_findings_sort(fl_findings *fs) {
  if (fs->n > 1)
    if (fs->n > 1)
      qsort(fs->v, fs->n, sizeof *fs->v, cmp_sev_rec);
}

size_t fl_findings_count(const fl_findings *fs, uint32_t sev) {
  size_t c = 0;
  for (size_t i = 0; i < fs->n; i++)
    c += fs->v[i].severity == sev;
  return c;
}

int fl_finding_active(const fl_finding_rec *r) {
  return !r->waived && !r->baseline;
}

size_t fl_findings_count_active(const fl_findings *fs, uint32_t sev) {
  size_t c = 0;
  for (size_t i = 0; i < fs->n; i++)
    c += fs->v[i].severity == sev && fl_finding_active(&fs->v[i]);
  return c;
}

char *fl_finding_fingerprint(const fl_finding_rec *r, char buf[17]) {
  uint64_t h = fl_fnv1a64_str(r->rule ? r->rule : "", FL_FNV64_BASIS);
  h = fl_fnv1a64_str(r->key ? r->key : "", fl_fnv1a64_str("\n", h));
  static const char HEX[] = "0123456789abcdef";
  for (int i = 15; i >= 0; i--, h >>= 4)
    buf[i] = HEX[h & 0xf];
  buf[16] = '\0';
  return buf;
}

char *fl_finding_cause_fingerprint(const fl_finding_rec *r, char buf[17]) {
  if (!r->cause)
    return NULL;
  fl_finding_rec k;
  memset(&k, 0, sizeof k);
  k.rule = r->rule;
  size_t len = strlen(r->cause) + sizeof "cause:";
  char *key = malloc(len);
  if (!key)
    return NULL;
  snprintf(key, len, "cause:%s", r->cause);
  k.key = key;
  fl_finding_fingerprint(&k, buf);
  free(key);
  return buf;
}

static void rec_free(fl_finding_rec *r);

/* ---- one finding per cause ------------------------------------------------
 * Candidates (active findings with a cause) are sorted by rule, cause, then
 * the report order, so each cause is one run of the sorted index array and
 * its first member is the one a reader sees first. */

typedef struct idx_rec {
  const fl_finding_rec *r;
  size_t i;
} idx_rec;

static int cmp_idx(const void *x, const void *y) {
  const idx_rec *a = x, *b = y;
  int c = strcmp0(a->r->rule, b->r->rule);
  if (c)
    return c;
  if ((c = strcmp0(a->r->cause, b->r->cause)))
    return c;
  if ((c = cmp_rec(a->r, b->r)))
    return c;
  return a->i < b->i ? -1 : a->i > b->i;
}

/* A name list with first-appearance order and no repeats. */
typedef struct name_ord {
  const char *name;
  uint32_t port;     /* ports only */
  const char *label; /* ports only: the port's label, or NULL */
  size_t order;
} name_ord;

static int cmp_name_ord(const void *x, const void *y) {
  const name_ord *a = x, *b = y;
  int c = strcmp(a->name, b->name);
  if (c)
    return c;
  if (a->port != b->port)
    return a->port < b->port ? -1 : 1;
  return a->order < b->order ? -1 : a->order > b->order;
}

static int cmp_order(const void *x, const void *y) {
  const name_ord *a = x, *b = y;
  return a->order < b->order ? -1 : a->order > b->order;
}

/* Sort @v by (name, port), drop repeats (keeping the first appearance),
 * restore appearance order; returns the new count. */
static size_t uniq_names(name_ord *v, size_t n) {
  if (n < 2)
    return n;
  qsort(v, n, sizeof *v, cmp_name_ord);
  size_t k = 1;
  for (size_t i = 1; i < n; i++)
    if (strcmp(v[i].name, v[k - 1].name) != 0 || v[i].port != v[k - 1].port)
      v[k++] = v[i];
  qsort(v, k, sizeof *v, cmp_order);
  return k;
}

static json_t *member_json(const fl_finding_rec *r) {
  json_t *o = json_object(), *nodes = json_array(), *ports = json_array();
  json_object_set_new(o, "message", json_string(r->message));
  for (uint32_t k = 0; k < r->n_nodes; k++)
    json_array_append_new(nodes, json_string(r->nodes[k]));
  for (uint32_t k = 0; k < r->n_ports; k++)
    json_array_append_new(ports,
                          json_pack("{s:s,s:I}", "node", r->ports[k].node,
                                    "port", (json_int_t)r->ports[k].port));
  json_object_set_new(o, "nodes", nodes);
  json_object_set_new(o, "ports", ports);
  json_t *ev = r->evidence ? json_loads(r->evidence, 0, NULL) : NULL;
  json_object_set_new(o, "evidence", ev ? ev : json_object());
  if (r->file)
    json_object_set_new(
        o, "location",
        json_pack("{s:s,s:I}", "file", r->file, "line", (json_int_t)r->line));
  return o;
}

/* "the cause message, e.g. A port 1, B port 2, C port 3 and 5 more". */
static char *merged_message(const idx_rec *g, size_t n) {
  const char *tmpl = g[0].r->cause_msg ? g[0].r->cause_msg : g[0].r->cause;
  char num[24];
  snprintf(num, sizeof num, "%zu", n);
  size_t len = strlen(tmpl) + 64;
  for (const char *t = strstr(tmpl, "{count}"); t; t = strstr(t + 7, "{count}"))
    len += strlen(num);
  for (size_t i = 0; i < n && i < FL_CAUSE_EXAMPLES; i++) {
    const fl_finding_rec *r = g[i].r;
    len += (r->n_ports   ? strlen(r->ports[0].node)
            : r->n_nodes ? strlen(r->nodes[0])
                         : 0) +
           24;
  }
  char *m = malloc(len), *p = m;
  if (!m)
    return NULL;
  for (const char *t = tmpl; *t;) {
    if (strncmp(t, "{count}", 7) == 0) {
      p += sprintf(p, "%s", num);
      t += 7;
    } else
      *p++ = *t++;
  }
  const char *sep = "; e.g. ";
  size_t shown = 0;
  for (size_t i = 0; i < n && shown < FL_CAUSE_EXAMPLES; i++) {
    const fl_finding_rec *r = g[i].r;
    if (r->n_ports)
      p += sprintf(p, "%s\"%s\" port %u", sep, r->ports[0].node,
                   r->ports[0].port);
    else if (r->n_nodes)
      p += sprintf(p, "%s\"%s\"", sep, r->nodes[0]);
    else
      continue;
    sep = ", ";
    shown++;
  }
  if (shown && n > shown)
    p += sprintf(p, " and %zu more", n - shown);
  *p = '\0';
  return m;
}

static int merged_lists(const idx_rec *g, size_t n, fl_finding_rec *m) {
  size_t nn = 0, np = 0;
  for (size_t i = 0; i < n; i++)
    nn += g[i].r->n_nodes, np += g[i].r->n_ports;
  name_ord *vn = calloc(nn + 1, sizeof *vn), *vp = calloc(np + 1, sizeof *vp);
  int rc = -1;
  if (!vn || !vp)
    goto out;
  nn = np = 0;
  for (size_t i = 0; i < n; i++) {
    const fl_finding_rec *r = g[i].r;
    for (uint32_t k = 0; k < r->n_nodes; k++, nn++)
      vn[nn] = (name_ord){r->nodes[k], 0, NULL, nn};
    for (uint32_t k = 0; k < r->n_ports; k++, np++)
      vp[np] =
          (name_ord){r->ports[k].node, r->ports[k].port, r->ports[k].label, np};
  }
  nn = uniq_names(vn, nn);
  np = uniq_names(vp, np);
  m->nodes = calloc(nn + 1, sizeof *m->nodes);
  m->ports = calloc(np + 1, sizeof *m->ports);
  if (!m->nodes || !m->ports)
    goto out;
  for (size_t k = 0; k < nn; k++, m->n_nodes++)
    if (!(m->nodes[k] = strdup(vn[k].name)))
      goto out;
  for (size_t k = 0; k < np; k++, m->n_ports++) {
    m->ports[k].port = vp[k].port;
    if (!(m->ports[k].node = strdup(vp[k].name)) ||
        (vp[k].label && !(m->ports[k].label = strdup(vp[k].label))))
      goto out;
  }
  rc = 0;
out:
  free(vn);
  free(vp);
  return rc;
}

static char *merged_evidence(const idx_rec *g, size_t n) {
  json_t *o = json_object(), *ex = json_array(), *mem = json_array();
  json_object_set_new(o, "cause", json_string(g[0].r->cause));
  json_object_set_new(o, "count", json_integer((json_int_t)n));
  for (size_t i = 0; i < n; i++) {
    if (i < FL_CAUSE_EXAMPLES)
      json_array_append_new(ex, json_string(g[i].r->message));
    json_array_append_new(mem, member_json(g[i].r));
  }
  json_object_set_new(o, "examples", ex);
  json_object_set_new(o, "members", mem);
  char *s = json_dumps(o, JSON_COMPACT | JSON_SORT_KEYS);
  json_decref(o);
  return s;
}

static int merge_group(const idx_rec *g, size_t n, fl_finding_rec *m) {
  memset(m, 0, sizeof *m);
  const fl_finding_rec *f = g[0].r;
  m->rule = strdup(f->rule);
  m->cause = strdup(f->cause);
  m->cause_msg = f->cause_msg ? strdup(f->cause_msg) : NULL;
  m->merged = (uint32_t)n;
  m->plane = f->plane ? strdup(f->plane) : NULL;
  for (size_t i = 0; i < n; i++)
    if (g[i].r->severity > m->severity)
      m->severity = g[i].r->severity;
  m->message = merged_message(g, n);
  m->evidence = merged_evidence(g, n);
  if (f->file) {
    m->file = strdup(f->file);
    m->line = f->line;
    m->col = f->col;
  }
  int nomem = 0;
  const fl_fix_rec **fixes = calloc(n + 1, sizeof *fixes);
  for (size_t i = 0; fixes && i < n; i++)
    fixes[i] = g[i].r->fix;
  m->fix = fixes ? fl_fix_merge(fixes, (uint32_t)n, &nomem) : NULL;
  free(fixes);
  size_t kl = strlen(f->cause) + sizeof "cause:";
  if ((m->key = malloc(kl)))
    snprintf(m->key, kl, "cause:%s", f->cause);
  if (merged_lists(g, n, m) != 0 || !m->rule || !m->cause || !m->message ||
      !m->evidence || !m->key || (f->file && !m->file) || !fixes || nomem ||
      (f->cause_msg && !m->cause_msg)) {
    rec_free(m);
    return -1;
  }
  return 0;
}

/* Move the related findings of the members @g[0..n) (attached to them by
 * fl_findings_attach_roots()) into the merged finding @m, in report order;
 * the members are freed right after. On ENOMEM @m is freed. */
static int carry_related(const idx_rec *g, size_t n, fl_finding_rec *m) {
  size_t total = 0;
  for (size_t i = 0; i < n; i++)
    total += g[i].r->n_related;
  if (!total)
    return 0;
  if (!(m->related = calloc(total, sizeof *m->related))) {
    rec_free(m);
    return -1;
  }
  for (size_t i = 0; i < n; i++) {
    fl_finding_rec *r = (fl_finding_rec *)g[i].r; /* a member of fs */
    if (!r->n_related) /* its related is NULL: memcpy's source must not be */
      continue;
    memcpy(m->related + m->n_related, r->related,
           r->n_related * sizeof *r->related);
    m->n_related += r->n_related;
    free(r->related);
    r->related = NULL;
    r->n_related = 0;
  }
  qsort(m->related, m->n_related, sizeof *m->related, cmp_sev_rec);
  return 0;
}

/* Merge every run of @ix (sorted, @n entries) of one rule and cause with
 * two or more members into @out, marking members in @gone. */
static int merge_runs(const idx_rec *ix, size_t n, uint8_t *gone,
                      fl_findings *out) {
  for (size_t s = 0, e; s < n; s = e) {
    for (e = s + 1; e < n && strcmp0(ix[e].r->rule, ix[s].r->rule) == 0 &&
                    strcmp0(ix[e].r->cause, ix[s].r->cause) == 0;
         e++)
      ;
    if (e - s < 2)
      continue;
    fl_finding_rec m;
    if (merge_group(ix + s, e - s, &m) != 0 ||
        carry_related(ix + s, e - s, &m) != 0)
      return -1;
    if (fl_findings_push(out, &m) != 0) {
      rec_free(&m);
      return -1;
    }
    for (size_t k = s; k < e; k++)
      gone[ix[k].i] = 1;
  }
  return 0;
}

/* The consequences attached under @r (host/roots.h) that share a cause
 * merge as the top level does: a primary with 128 renames of one shift
 * under it lists one consequence of 128, not 128. */
static int aggregate_related(fl_finding_rec *r) {
  if (r->n_related < 2)
    return 0;
  fl_findings sub = {r->related, r->n_related, r->n_related};
  if (fl_findings_aggregate(&sub) != 0)
    return -1;
  fl_findings_sort(&sub);
  r->related = sub.v;
  r->n_related = (uint32_t)sub.n;
  return 0;
}

int fl_findings_aggregate(fl_findings *fs) {
  for (size_t i = 0; i < fs->n; i++)
    if (aggregate_related(&fs->v[i]) != 0)
      return -1;
  size_t n = 0;
  for (size_t i = 0; i < fs->n; i++)
    n += fs->v[i].cause && fl_finding_active(&fs->v[i]);
  if (n < 2)
    return 0;
  idx_rec *ix = calloc(n, sizeof *ix);
  uint8_t *gone = calloc(fs->n, 1);
  fl_findings merged = {0};
  int rc = -1;
  if (!ix || !gone)
    goto out;
  n = 0;
  for (size_t i = 0; i < fs->n; i++)
    if (fs->v[i].cause && fl_finding_active(&fs->v[i]))
      ix[n++] = (idx_rec){&fs->v[i], i};
  qsort(ix, n, sizeof *ix, cmp_idx);
  if (merge_runs(ix, n, gone, &merged) != 0)
    goto out;
  size_t k = 0;
  for (size_t i = 0; i < fs->n; i++) {
    if (gone[i])
      rec_free(&fs->v[i]);
    else
      fs->v[k++] = fs->v[i];
  }
  fs->n = k;
  for (size_t i = 0; i < merged.n; i++)
    if (fl_findings_push(fs, &merged.v[i]) != 0) /* cannot fail: shrank */
      rec_free(&merged.v[i]);
  free(merged.v);
  merged.v = NULL;
  merged.n = 0;
  rc = 0;
out:
  fl_findings_free(&merged);
  free(ix);
  free(gone);
  return rc;
}

static void rec_free(fl_finding_rec *r) {
  free(r->rule);
  free(r->message);
  for (uint32_t i = 0; i < r->n_nodes; i++)
    free(r->nodes[i]);
  free(r->nodes);
  for (uint32_t i = 0; i < r->n_ports; i++)
    free(r->ports[i].node), free(r->ports[i].label);
  free(r->ports);
  free(r->evidence);
  free(r->file);
  free(r->key);
  free(r->cause);
  free(r->cause_msg);
  free(r->plane);
  free(r->root);
  for (uint32_t i = 0; i < r->n_related; i++)
    rec_free(&r->related[i]);
  free(r->related);
  fl_fix_free(r->fix);
  free(r->waiver.reason);
  free(r->waiver.expires);
  free(r->waiver.where);
}

void fl_finding_rec_free(fl_finding_rec *r) {
  rec_free(r);
}

void fl_findings_free(fl_findings *fs) {
  for (size_t i = 0; i < fs->n; i++)
    rec_free(&fs->v[i]);
  free(fs->v);
  memset(fs, 0, sizeof *fs);
}

const char *fl_severity_name(uint32_t sev) {
  switch (sev) {
  case FL_SEV_ERROR:
    return "error";
  case FL_SEV_WARNING:
    return "warning";
  case FL_SEV_INFO:
    return "info";
  default:
    return "none";
  }
}

uint32_t fl_severity_parse(const char *s) {
  if (!s)
    return 0;
  if (strcmp(s, "error") == 0)
    return FL_SEV_ERROR;
  if (strcmp(s, "warning") == 0)
    return FL_SEV_WARNING;
  if (strcmp(s, "info") == 0 || strcmp(s, "note") == 0)
    return FL_SEV_INFO;
  if (strcmp(s, "never") == 0)
    return 4;
  return 0;
}
