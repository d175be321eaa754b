/* SPDX-License-Identifier: MIT */
/*
 * core/report/report.c — text and JSON renderers (see report.h). JSON is built
 * with jansson (objects keep insertion order, so key order is fixed).
 */
#include "report/report.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "host/roots.h"

void fl_fabric_counts_of(const fl_fabric *fab, fl_fabric_counts *c) {
  c->switches = fl_fabric_count_kind(fab, FL_NODE_SWITCH);
  c->cas = fl_fabric_count_kind(fab, FL_NODE_CA);
  c->routers = fl_fabric_count_kind(fab, FL_NODE_ROUTER);
  c->links = fl_fabric_link_count(fab);
}

/* One tally line: the active findings of one rule at one severity. */
typedef struct tally_row {
  const char *rule;
  uint32_t severity;
  size_t findings, instances, hidden;
} tally_row;

typedef struct tally {
  tally_row *v;
  size_t n, cap;
} tally;

/* The row of (@rule, @sev), appended when new; NULL on ENOMEM. */
static tally_row *tally_row_of(tally *t, const char *rule, uint32_t sev) {
  for (size_t i = 0; i < t->n; i++)
    if (t->v[i].severity == sev && strcmp(t->v[i].rule, rule) == 0)
      return &t->v[i];
  if (t->n == t->cap) {
    size_t nc = t->cap ? t->cap * 2 : 16;
    tally_row *v = realloc(t->v, nc * sizeof *v);
    if (!v)
      return NULL;
    t->v = v;
    t->cap = nc;
  }
  t->v[t->n] = (tally_row){rule, sev, 0, 0, 0};
  return &t->v[t->n++];
}

/* Findings of @rule shown so far (every severity). */
static size_t shown_of(const tally *t, const char *rule) {
  size_t s = 0;
  for (size_t i = 0; i < t->n; i++)
    if (strcmp(t->v[i].rule, rule) == 0)
      s += t->v[i].findings - t->v[i].hidden;
  return s;
}

static void text_list(FILE *out, const fl_finding_rec *r) {
  if (r->n_nodes) {
    fputs("    nodes:", out);
    for (uint32_t k = 0; k < r->n_nodes && k < FL_TEXT_LIST_MAX; k++)
      fprintf(out, "%s \"%s\"", k ? "," : "", r->nodes[k]);
    if (r->n_nodes > FL_TEXT_LIST_MAX)
      fprintf(out, " and %u more", r->n_nodes - FL_TEXT_LIST_MAX);
    fputc('\n', out);
  }
  if (r->n_ports) {
    fputs("    ports:", out);
    for (uint32_t k = 0; k < r->n_ports && k < FL_TEXT_LIST_MAX; k++)
      fprintf(out, "%s \"%s\" port %u", k ? "," : "", r->ports[k].node,
              r->ports[k].port);
    if (r->n_ports > FL_TEXT_LIST_MAX)
      fprintf(out, " and %u more", r->n_ports - FL_TEXT_LIST_MAX);
    fputc('\n', out);
  }
}

static void text_finding(FILE *out, const fl_finding_rec *r, int quiet) {
  /* file:line:col: as compilers and clang-tidy print it (GNU Coding
   * Standards, "Formatting Error Messages"); the column only when known */
  if (r->file && r->line && r->col)
    fprintf(out, "%s:%u:%u: ", r->file, r->line, r->col);
  else if (r->file && r->line)
    fprintf(out, "%s:%u: ", r->file, r->line);
  else if (r->file)
    fprintf(out, "%s: ", r->file);
  /* the rule id last, as a hint (compilers' [-Wname], clang-tidy's
   * [check]): `fabriclint explain RULE` says more */
  fprintf(out, "%s: %s%s%s%s%s [%s]\n", fl_severity_name(r->severity),
          r->plane ? (strchr(r->plane, ',') ? "planes " : "plane ") : "",
          r->plane ? r->plane : "", r->plane ? ": " : "", r->message,
          r->baseline ? " [baseline]" : "", r->rule);
  if (quiet)
    return;
  text_list(out, r);
  /* one cause across rules (host/roots.h): what this finding explains */
  if (r->n_related)
    fprintf(out, "    with %u consequence(s) of the same cause:\n",
            r->n_related);
  /* a few in full, then the count: JSON and SARIF carry every one */
  for (uint32_t k = 0; k < r->n_related && k < FL_TEXT_RELATED_MAX; k++) {
    const fl_finding_rec *c = &r->related[k];
    fprintf(out, "      %s: %s [%s]\n", fl_severity_name(c->severity),
            c->message, c->rule);
  }
  if (r->n_related > FL_TEXT_RELATED_MAX)
    fprintf(out, "      and %u more (--format json lists them)\n",
            r->n_related - FL_TEXT_RELATED_MAX);
}

static void text_tally(FILE *out, const tally *t) {
  if (!t->n)
    return;
  fputs("findings per rule:\n", out);
  for (size_t i = 0; i < t->n; i++) {
    const tally_row *w = &t->v[i];
    fprintf(out, "  %-7s %-36s %zu", fl_severity_name(w->severity), w->rule,
            w->findings);
    if (w->instances > w->findings)
      fprintf(out, " (%zu instances)", w->instances);
    if (w->hidden)
      fprintf(out, " (%zu not shown: --max-findings-per-rule)", w->hidden);
    fputc('\n', out);
  }
}

int fl_report_text(FILE *out, const fl_findings *fs, size_t rules_run,
                   int quiet, uint32_t max_per_rule) {
  size_t waived = 0, baselined = 0;
  tally t = {0};
  for (size_t i = 0; i < fs->n; i++) {
    const fl_finding_rec *r = &fs->v[i];
    if (r->waived) {
      waived++;
      continue; /* counted, not shown */
    }
    if (r->baseline) {
      baselined++;
      if (quiet)
        continue;
    }
    int capped = max_per_rule && shown_of(&t, r->rule) >= max_per_rule;
    if (!r->baseline) {
      tally_row *w = tally_row_of(&t, r->rule, r->severity);
      if (!w) {
        free(t.v);
        return -1;
      }
      w->findings++;
      w->instances += r->merged ? r->merged : 1;
      w->hidden += capped;
    }
    if (!capped)
      text_finding(out, r, quiet);
  }
  if (!quiet) {
    text_tally(out, &t);
    fprintf(out, "%zu error(s), %zu warning(s), %zu info; %zu rule(s) run",
            fl_findings_count_active(fs, FL_SEV_ERROR),
            fl_findings_count_active(fs, FL_SEV_WARNING),
            fl_findings_count_active(fs, FL_SEV_INFO), rules_run);
    size_t attached = fl_findings_count_related(fs);
    if (attached)
      fprintf(out, "; %zu more attached to their cause", attached);
    if (waived)
      fprintf(out, "; %zu waived (not shown)", waived);
    if (baselined)
      fprintf(out, "; %zu in the baseline (not counted)", baselined);
    fputc('\n', out);
  }
  free(t.v);
  return ferror(out) ? -1 : 0;
}

static json_t *finding_json(const fl_finding_rec *r) {
  json_t *o = json_object();
  json_object_set_new(o, "rule", json_string(r->rule));
  json_object_set_new(o, "severity",
                      json_string(fl_severity_name(r->severity)));
  json_object_set_new(o, "message", fl_report_jstr(r->message));
  if (r->plane) /* a multi-plane fabric: the plane(s) it is about */
    json_object_set_new(o, "plane", fl_report_jstr(r->plane));
  json_t *nodes = json_array();
  for (uint32_t k = 0; k < r->n_nodes; k++)
    json_array_append_new(nodes, fl_report_jstr(r->nodes[k]));
  json_object_set_new(o, "nodes", nodes);
  json_t *ports = json_array();
  for (uint32_t k = 0; k < r->n_ports; k++)
    json_array_append_new(
        ports, json_pack("{s:o,s:i}", "node", fl_report_jstr(r->ports[k].node),
                         "port", (json_int_t)r->ports[k].port));
  json_object_set_new(o, "ports", ports);
  json_t *ev = r->evidence ? json_loads(r->evidence, 0, NULL) : NULL;
  json_object_set_new(o, "evidence", ev ? ev : json_object());
  if (r->file) {
    json_t *loc = json_pack("{s:o,s:i}", "file", fl_report_jstr(r->file),
                            "line", (json_int_t)r->line);
    if (r->col)
      json_object_set_new(loc, "column", json_integer(r->col));
    json_object_set_new(o, "location", loc);
  }
  if (r->fix) /* how to fix it (host/fix.h, schema/findings.schema.json) */
    json_object_set_new(o, "fix", fl_fix_json(r->fix));
  if (r->root) /* one cause across rules (host/roots.h) */
    json_object_set_new(o, "root", fl_report_jstr(r->root));
  if (r->n_related) {
    json_t *rel = json_array();
    for (uint32_t k = 0; k < r->n_related; k++)
      json_array_append_new(rel, finding_json(&r->related[k]));
    json_object_set_new(o, "related", rel);
  }
  char fp[17];
  json_object_set_new(o, "fingerprint",
                      json_string(fl_finding_fingerprint(r, fp)));
  if (r->waived)
    json_object_set_new(o, "suppressed",
                        json_pack("{s:s,s:s,s:s,s:s}", "kind", "waiver",
                                  "reason", r->waiver.reason, "expires",
                                  r->waiver.expires, "policy",
                                  r->waiver.where));
  if (r->baseline)
    json_object_set_new(o, "baseline", json_true());
  return o;
}

int fl_report_json(FILE *out, const fl_findings *fs,
                   const fl_fabric_counts *c) {
  json_t *root = json_object();
  json_object_set_new(
      root, "tool",
      json_pack("{s:s,s:s}", "name", "fabriclint", "version", FL_VERSION));
  json_object_set_new(
      root, "fabric",
      json_pack("{s:i,s:i,s:i,s:i}", "switches", (json_int_t)c->switches, "cas",
                (json_int_t)c->cas, "routers", (json_int_t)c->routers, "links",
                (json_int_t)c->links));
  json_t *arr = json_array();
  for (size_t i = 0; i < fs->n; i++)
    json_array_append_new(arr, finding_json(&fs->v[i]));
  json_object_set_new(root, "findings", arr);
  size_t waived = 0, baselined = 0;
  for (size_t i = 0; i < fs->n; i++) {
    waived += fs->v[i].waived != 0;
    baselined += fs->v[i].baseline != 0;
  }
  json_t *sum = json_pack(
      "{s:i,s:i,s:i}", "error",
      (json_int_t)fl_findings_count_active(fs, FL_SEV_ERROR), "warning",
      (json_int_t)fl_findings_count_active(fs, FL_SEV_WARNING), "info",
      (json_int_t)fl_findings_count_active(fs, FL_SEV_INFO));
  if (waived)
    json_object_set_new(sum, "suppressed", json_integer((json_int_t)waived));
  if (baselined)
    json_object_set_new(sum, "baseline", json_integer((json_int_t)baselined));
  size_t attached = fl_findings_count_related(fs);
  if (attached)
    json_object_set_new(sum, "attached", json_integer((json_int_t)attached));
  json_object_set_new(root, "summary", sum);
  int rc = json_dumpf(root, out, JSON_INDENT(2)) == 0 ? 0 : -1;
  fputc('\n', out);
  json_decref(root);
  return rc || ferror(out) ? -1 : 0;
}

/* ---- shared by the machine formats ------------------------------------------
 */

static int cmp_rule(const void *a, const void *b) {
  return strcmp(((const fl_report_rule *)a)->id,
                ((const fl_report_rule *)b)->id);
}

void fl_report_rules_sort(fl_report_rule *rules, size_t n) {
  if (n > 1)
    if (n > 1)
      qsort(rules, n, sizeof *rules, cmp_rule);
}

const char *fl_report_sarif_level(uint32_t sev) {
  return sev >= FL_SEV_ERROR     ? "error"
         : sev == FL_SEV_WARNING ? "warning"
                                 : "note";
}

struct json_t *fl_report_jstr(const char *s) {
  if (!s)
    s = "";
  json_t *j = json_string(s);
  if (j)
    return j;
  char *c = strdup(s);
  if (!c)
    return NULL;
  for (unsigned char *p = (unsigned char *)c; *p; p++)
    if (*p >= 0x80)
      *p = '?';
  j = json_string(c);
  free(c);
  return j;
}

void fl_report_location(const fl_report_input *in, const fl_finding_rec *r,
                        const char **file, uint32_t *line, uint32_t *col) {
  if (r->file && *r->file) {
    *file = r->file;
    *line = r->line ? r->line : 1;
    *col = r->line ? r->col : 0;
  } else {
    *file = in->n_inputs ? in->inputs[0] : "fabric";
    *line = 1;
    *col = 0;
  }
}
