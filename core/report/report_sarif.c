/*
 * core/report_sarif.c — SARIF 2.1.0 output (report.h, docs/ci.md).
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

static json_t *result_json(const fl_report_input *in, const fl_finding_rec *r,
                           unsigned occurrence) {
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
  for (size_t i = 0; i < in->fs->n; i++)
    json_array_append_new(results, result_json(in, &in->fs->v[i], occ[i]));
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

  json_t *run = json_pack("{s:{s:o},s:[o],s:o}", "tool", "driver", driver,
                          "invocations", inv, "results", results);
  json_t *root = json_pack("{s:s,s:s,s:[o]}", "$schema", SARIF_SCHEMA,
                           "version", "2.1.0", "runs", run);
  int rc = root && json_dumpf(root, out, JSON_INDENT(2)) == 0 ? 0 : -1;
  fputc('\n', out);
  json_decref(root);
  return rc || ferror(out) ? -1 : 0;
}
