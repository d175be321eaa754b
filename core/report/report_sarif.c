/* SPDX-License-Identifier: MIT */
/*
 * core/report/report_sarif.c — SARIF 2.1.0 output (report.h, docs/ci.md).
 *
 * Why SARIF: it is what GitHub code scanning ingests (and GitLab, Jenkins
 * Warnings NG and the VS Code viewer read), so a fabric plan gets alerts
 * pinned to the line of the cable or node at fault. GitHub shows only
 * results that have a file and a region.startLine, so every result gets
 * one: the finding's provenance, else line 1 of the first input.
 *
 * Fingerprints: partialFingerprints.primaryLocationLineHash is the one
 * GitHub uses to track an alert across runs; we fill it ourselves from
 * rule id + entity names (fl_finding_fingerprint(), ":n" for the n-th
 * identical one) instead of letting the uploader hash the text of the
 * line, so that editing unrelated lines of a plan neither closes nor
 * reopens alerts. The same value is under "fabriclint/v1".
 *
 * Waived findings stay in the log with suppressions [{kind: external,
 * status: accepted, justification}] (GitHub then shows them as dismissed);
 * the expiry is a property, as SARIF has no standard field for it. With a
 * --baseline, every result carries baselineState new / unchanged.
 *
 * No timestamps or durations: the same inputs give byte-identical logs.
 */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "fabriclint/types.h"
#include "io/design_edit.h"
#include "report/report.h"

#define SARIF_SCHEMA "https://json.schemastore.org/sarif-2.1.0.json"

/* A URI reference for @path: relative paths stay relative (GitHub resolves
 * them against the checkout), absolute ones become file:// URIs; bytes
 * outside RFC 3986 unreserved / sub-delims / ":@/" are percent-encoded. */
static char *path_uri(const char *path) {
  size_t n = strlen(path);
  char *u = malloc(n * 3 + 8), *o = u;
  if (!u)
    return NULL;
  int abs = path[0] == '/';
  if (abs)
    o += sprintf(o, "file://");
  for (const unsigned char *s = (const unsigned char *)path; *s; s++) {
    unsigned c = *s;
    int keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
               (c >= '0' && c <= '9') || strchr("-._~/!$&'()*+,;=@", (int)c);
    if (c == ':' && abs)
      keep = 1; /* a colon in a relative first segment would read as a scheme */
    if (keep && c)
      *o++ = (char)c;
    else
      o += sprintf(o, "%%%02X", c);
  }
  *o = '\0';
  return u;
}

static json_t *text_obj(const char *s) {
  return json_pack("{s:o}", "text", fl_report_jstr(s));
}

/* The first paragraph of @help, cut at a UTF-8 boundary under 1024 bytes
 * (GitHub's limit for descriptions). */
static json_t *first_paragraph(const char *help) {
  const char *end = strstr(help, "\n\n");
  size_t n = end ? (size_t)(end - help) : strlen(help);
  if (n > 1000) {
    n = 1000;
    while (n > 0 && ((unsigned char)help[n] & 0xc0) == 0x80)
      n--;
  }
  char *c = strndup(help, n);
  json_t *j = text_obj(c ? c : "");
  free(c);
  return j;
}

static json_t *rule_json(const fl_report_rule *r) {
  const char *dot = strchr(r->id, '.');
  char plugin[128];
  snprintf(plugin, sizeof plugin, "%.*s", dot ? (int)(dot - r->id) : 0, r->id);
  const char *help = r->help && *r->help ? r->help : r->summary;
  json_t *o = json_object();
  json_object_set_new(o, "id", fl_report_jstr(r->id));
  json_object_set_new(o, "name", fl_report_jstr(dot ? dot + 1 : r->id));
  json_object_set_new(o, "shortDescription", text_obj(r->summary));
  json_object_set_new(o, "fullDescription", first_paragraph(help));
  json_object_set_new(o, "help",
                      json_pack("{s:o,s:o}", "text", fl_report_jstr(help),
                                "markdown", fl_report_jstr(help)));
  if (r->help_uri && *r->help_uri) /* docs/rules/<plugin>.md#<id> */
    json_object_set_new(o, "helpUri", fl_report_jstr(r->help_uri));
  json_object_set_new(
      o, "defaultConfiguration",
      json_pack("{s:s}", "level", fl_report_sarif_level(r->level)));
  json_object_set_new(
      o, "properties",
      json_pack("{s:[s,o]}", "tags", "fabriclint", fl_report_jstr(plugin)));
  return o;
}

static long rule_index(const fl_report_input *in, const char *id) {
  size_t lo = 0, hi = in->n_rules;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    int c = strcmp(in->rules[mid].id, id);
    if (c == 0)
      return (long)mid;
    if (c < 0)
      lo = mid + 1;
    else
      hi = mid;
  }
  return -1;
}

static json_t *logical_locations(const fl_finding_rec *r) {
  json_t *a = json_array();
  for (uint32_t k = 0; k < r->n_nodes; k++)
    json_array_append_new(
        a, json_pack("{s:o,s:o,s:s}", "name", fl_report_jstr(r->nodes[k]),
                     "fullyQualifiedName", fl_report_jstr(r->nodes[k]), "kind",
                     "resource"));
  for (uint32_t k = 0; k < r->n_ports; k++) {
    char name[32];
    snprintf(name, sizeof name, "port %u", r->ports[k].port);
    size_t n = strlen(r->ports[k].node) + 40;
    char *fq = malloc(n);
    if (!fq)
      continue;
    snprintf(fq, n, "%s port %u", r->ports[k].node, r->ports[k].port);
    json_array_append_new(a, json_pack("{s:s,s:o,s:s}", "name", name,
                                       "fullyQualifiedName", fl_report_jstr(fq),
                                       "kind", "member"));
    free(fq);
  }
  return a;
}

/* ---- fixes: design XML text edits (SARIF §3.55 fix, §3.56
 * artifactChange, §3.57 replacement) ---------------------------------- */

/* The files fixes edit, each read once. */
typedef struct text_file {
  char *path;
  char *buf; /* NULL: could not be read */
  fl_text_index idx;
} text_file;

typedef struct text_cache {
  text_file *v;
  size_t n;
} text_cache;

static char *slurp(const char *path, size_t *len) {
  if (strcmp(path, "-") == 0) /* standard input cannot be read again */
    return NULL;
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  size_t cap = 1 << 16, n = 0;
  char *b = malloc(cap + 1);
  while (b) {
    n += fread(b + n, 1, cap - n, f);
    if (n < cap)
      break;
    char *nb = realloc(b, cap * 2 + 1);
    if (!nb) {
      free(b);
      b = NULL;
      break;
    }
    b = nb;
    cap *= 2;
  }
  int err = ferror(f);
  fclose(f);
  if (!b || err) {
    free(b);
    return NULL;
  }
  b[n] = '\0';
  *len = n;
  return b;
}

static const text_file *cache_get(text_cache *c, const char *path) {
  for (size_t i = 0; i < c->n; i++)
    if (strcmp(c->v[i].path, path) == 0)
      return &c->v[i];
  text_file *v = realloc(c->v, (c->n + 1) * sizeof *v);
  if (!v)
    return NULL;
  c->v = v;
  text_file *t = &v[c->n];
  memset(t, 0, sizeof *t);
  if (!(t->path = strdup(path)))
    return NULL;
  c->n++;
  size_t len = 0;
  t->buf = slurp(path, &len);
  if (t->buf && fl_text_index_build(&t->idx, t->buf, len) != 0) {
    free(t->buf);
    t->buf = NULL;
  }
  return t;
}

static void cache_free(text_cache *c) {
  for (size_t i = 0; i < c->n; i++) {
    free(c->v[i].path);
    free(c->v[i].buf);
    fl_text_index_free(&c->v[i].idx);
  }
  free(c->v);
}

static json_t *replacement_json(const fl_text_edit *e) {
  return json_pack("{s:{s:i,s:i,s:i,s:i},s:{s:o}}", "deletedRegion",
                   "startLine", (json_int_t)e->line, "startColumn",
                   (json_int_t)e->col, "endLine", (json_int_t)e->end_line,
                   "endColumn", (json_int_t)e->end_col, "insertedContent",
                   "text", fl_report_jstr(e->text));
}

/* The artifactChange of @file in @changes, appended when new. */
static json_t *change_for(json_t *changes, const char *file) {
  char *uri = path_uri(file);
  json_t *found = NULL;
  for (size_t i = 0; uri && !found && i < json_array_size(changes); i++) {
    json_t *c = json_array_get(changes, i);
    const char *u = json_string_value(
        json_object_get(json_object_get(c, "artifactLocation"), "uri"));
    if (u && strcmp(u, uri) == 0)
      found = c;
  }
  if (!found && uri) {
    found = json_pack("{s:{s:o},s:[]}", "artifactLocation", "uri",
                      fl_report_jstr(uri), "replacements");
    json_array_append_new(changes, found);
  }
  free(uri);
  return found;
}

/* SARIF `fixes` of @r: one fix whose artifactChanges are the design XML
 * edits of every change of r->fix; NULL when a change cannot be written
 * as a text edit (a cable not described in design XML, a file that cannot
 * be read or no longer holds the element): a partial fix would mislead. */
static json_t *fixes_json(const fl_finding_rec *r, text_cache *tc) {
  const fl_fix_rec *fx = r->fix;
  json_t *changes = json_array();
  int ok = fx && fx->n > 0;
  for (uint32_t i = 0; ok && i < fx->n; i++) {
    const fl_fix_change_rec *c = &fx->v[i];
    const text_file *tf = c->file ? cache_get(tc, c->file) : NULL;
    fl_link_change lc = {c->kind,
                         {c->cable[0].node, c->cable[1].node},
                         {c->cable[0].port, c->cable[1].port},
                         c->end,
                         c->to.node,
                         c->to.port,
                         c->value};
    fl_text_edit e[2];
    uint32_t ne = 0;
    ok = tf && tf->buf &&
         fl_design_link_edits(&tf->idx, c->line, c->col, &lc, e, &ne) == 0;
    json_t *ch = ok && ne ? change_for(changes, c->file) : NULL;
    for (uint32_t k = 0; k < ne; k++) {
      if (ch)
        json_array_append_new(json_object_get(ch, "replacements"),
                              replacement_json(&e[k]));
      free(e[k].text);
    }
  }
  if (!ok || !json_array_size(changes)) {
    json_decref(changes);
    return NULL;
  }
  return json_pack("[{s:{s:o},s:o}]", "description", "text",
                   fl_report_jstr(fx->description), "artifactChanges", changes);
}

/* relatedLocations: the cables a fix changes, beyond the result's own
 * location (a swap names two <link> elements). */
static json_t *related_json(const fl_finding_rec *r) {
  json_t *a = json_array();
  for (uint32_t i = 0; r->fix && i < r->fix->n; i++) {
    const fl_fix_change_rec *c = &r->fix->v[i];
    if (!c->file ||
        (r->file && strcmp(c->file, r->file) == 0 && c->line == r->line))
      continue;
    char *uri = path_uri(c->file);
    json_t *region = json_pack("{s:i}", "startLine", (json_int_t)c->line);
    if (c->col)
      json_object_set_new(region, "startColumn", json_integer(c->col));
    char msg[600];
    snprintf(msg, sizeof msg, "cable \"%s\" port %u - \"%s\" port %u",
             c->cable[0].node, c->cable[0].port, c->cable[1].node,
             c->cable[1].port);
    json_array_append_new(
        a, json_pack("{s:i,s:{s:{s:o},s:o},s:o}", "id",
                     (json_int_t)json_array_size(a) + 1, "physicalLocation",
                     "artifactLocation", "uri", fl_report_jstr(uri ? uri : ""),
                     "region", region, "message", text_obj(msg)));
    free(uri);
  }
  /* the consequences attached to this finding's root (host/roots.h) */
  for (uint32_t i = 0; i < r->n_related; i++) {
    const fl_finding_rec *c = &r->related[i];
    size_t len = strlen(c->message) + strlen(c->rule) + 32;
    char *msg = malloc(len);
    if (!msg)
      continue;
    snprintf(msg, len, "%s: %s [%s]", fl_severity_name(c->severity), c->message,
             c->rule);
    json_t *rel =
        json_pack("{s:i,s:o}", "id", (json_int_t)json_array_size(a) + 1,
                  "message", text_obj(msg));
    free(msg);
    if (c->file) {
      char *uri = path_uri(c->file);
      json_object_set_new(rel, "physicalLocation",
                          json_pack("{s:{s:o},s:{s:i}}", "artifactLocation",
                                    "uri", fl_report_jstr(uri ? uri : ""),
                                    "region", "startLine",
                                    (json_int_t)(c->line ? c->line : 1)));
      free(uri);
    }
    json_array_append_new(a, rel);
  }
  return a;
}

static json_t *result_json(const fl_report_input *in, const fl_finding_rec *r,
                           unsigned occurrence, text_cache *tc) {
  json_t *o = json_object();
  json_object_set_new(o, "ruleId", fl_report_jstr(r->rule));
  long ri = rule_index(in, r->rule);
  if (ri >= 0)
    json_object_set_new(o, "ruleIndex", json_integer(ri));
  json_object_set_new(o, "level",
                      json_string(fl_report_sarif_level(r->severity)));
  json_object_set_new(o, "message", text_obj(r->message));

  const char *file;
  uint32_t line, col;
  fl_report_location(in, r, &file, &line, &col);
  char *uri = path_uri(file);
  json_t *region = json_pack("{s:i}", "startLine", (json_int_t)line);
  if (col)
    json_object_set_new(region, "startColumn", json_integer(col));
  json_t *loc =
      json_pack("{s:{s:{s:o},s:o}}", "physicalLocation", "artifactLocation",
                "uri", fl_report_jstr(uri ? uri : ""), "region", region);
  free(uri);
  json_t *logical = logical_locations(r);
  if (json_array_size(logical))
    json_object_set_new(loc, "logicalLocations", logical);
  else
    json_decref(logical);
  json_object_set_new(o, "locations", json_pack("[o]", loc));
  json_t *related = related_json(r);
  if (json_array_size(related))
    json_object_set_new(o, "relatedLocations", related);
  else
    json_decref(related);
  json_t *fixes = r->fix ? fixes_json(r, tc) : NULL;
  if (fixes)
    json_object_set_new(o, "fixes", fixes);

  char fp[17], hash[40];
  fl_finding_fingerprint(r, fp);
  snprintf(hash, sizeof hash, "%s:%u", fp, occurrence);
  json_object_set_new(o, "partialFingerprints",
                      json_pack("{s:s,s:s}", "primaryLocationLineHash", hash,
                                "fabriclint/v1", fp));
  if (r->waived) {
    json_t *sup =
        json_pack("{s:s,s:s,s:o}", "kind", "external", "status", "accepted",
                  "justification", fl_report_jstr(r->waiver.reason));
    json_object_set_new(sup, "properties",
                        json_pack("{s:o,s:o}", "expires",
                                  fl_report_jstr(r->waiver.expires), "policy",
                                  fl_report_jstr(r->waiver.where)));
    json_object_set_new(o, "suppressions", json_pack("[o]", sup));
  }
  if (in->baseline_used)
    json_object_set_new(o, "baselineState",
                        json_string(r->baseline ? "unchanged" : "new"));

  json_t *props = json_object();
  json_t *nodes = json_array();
  for (uint32_t k = 0; k < r->n_nodes; k++)
    json_array_append_new(nodes, fl_report_jstr(r->nodes[k]));
  json_object_set_new(props, "nodes", nodes);
  json_t *ports = json_array();
  for (uint32_t k = 0; k < r->n_ports; k++)
    json_array_append_new(
        ports, json_pack("{s:o,s:i}", "node", fl_report_jstr(r->ports[k].node),
                         "port", (json_int_t)r->ports[k].port));
  json_object_set_new(props, "ports", ports);
  json_t *ev = r->evidence ? json_loads(r->evidence, 0, NULL) : NULL;
  json_object_set_new(props, "evidence", ev ? ev : json_object());
  json_object_set_new(o, "properties", props);
  return o;
}

/* Occurrence numbers: the n-th finding (in output order) with the same
 * fingerprint gets n, so identical findings keep distinct alerts. */
typedef struct fp_idx {
  char fp[17];
  size_t idx;
} fp_idx;

static int cmp_fp_idx(const void *x, const void *y) {
  const fp_idx *a = x, *b = y;
  int c = memcmp(a->fp, b->fp, 17);
  return c ? c : (a->idx > b->idx) - (a->idx < b->idx);
}

unsigned *fl_report_occurrences(const fl_findings *fs) {
  unsigned *occ = calloc(fs->n + 1, sizeof *occ);
  fp_idx *v = calloc(fs->n + 1, sizeof *v);
  if (!occ || !v) {
    free(occ), free(v);
    return NULL;
  }
  for (size_t i = 0; i < fs->n; i++) {
    fl_finding_fingerprint(&fs->v[i], v[i].fp);
    v[i].idx = i;
  }
  if (fs->n > 1)
    qsort(v, fs->n, sizeof *v, cmp_fp_idx);
  for (size_t i = 0; i < fs->n; i++)
    occ[v[i].idx] = i > 0 && memcmp(v[i].fp, v[i - 1].fp, 17) == 0
                        ? occ[v[i - 1].idx] + 1
                        : 1;
  free(v);
  return occ;
}

int fl_report_sarif(FILE *out, const fl_report_input *in) {
  unsigned *occ = fl_report_occurrences(in->fs);
  if (!occ)
    return -1;
  json_t *rules = json_array();
  for (size_t i = 0; i < in->n_rules; i++)
    json_array_append_new(rules, rule_json(&in->rules[i]));
  json_t *driver =
      json_pack("{s:s,s:s,s:s,s:o}", "name", "fabriclint", "version",
                FL_VERSION, "semanticVersion", FL_VERSION, "rules", rules);
  json_t *results = json_array();
  text_cache tc = {0};
  for (size_t i = 0; i < in->fs->n; i++)
    json_array_append_new(results, result_json(in, &in->fs->v[i], occ[i], &tc));
  cache_free(&tc);
  free(occ);

  int ok = 1;
  json_t *notes = json_array();
  for (size_t i = 0; i < in->n_rules; i++)
    if (in->rules[i].failed) {
      ok = 0;
      char msg[700];
      snprintf(msg, sizeof msg, "rule %s could not run: %s", in->rules[i].id,
               in->rules[i].fail_message ? in->rules[i].fail_message : "");
      json_array_append_new(notes,
                            json_pack("{s:s,s:o,s:{s:o}}", "level", "error",
                                      "message", text_obj(msg), "descriptor",
                                      "id", fl_report_jstr(in->rules[i].id)));
    }
  json_t *inv = json_pack("{s:b}", "executionSuccessful", ok);
  if (json_array_size(notes))
    json_object_set_new(inv, "toolExecutionNotifications", notes);
  else
    json_decref(notes);

  /* columns count Unicode code points (design_edit.h), not UTF-16 units */
  json_t *run = json_pack("{s:{s:o},s:[o],s:o,s:s}", "tool", "driver", driver,
                          "invocations", inv, "results", results, "columnKind",
                          "unicodeCodePoints");
  json_t *root = json_pack("{s:s,s:s,s:[o]}", "$schema", SARIF_SCHEMA,
                           "version", "2.1.0", "runs", run);
  int rc = root && json_dumpf(root, out, JSON_INDENT(2)) == 0 ? 0 : -1;
  fputc('\n', out);
  json_decref(root);
  return rc || ferror(out) ? -1 : 0;
}
