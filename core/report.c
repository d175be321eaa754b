/*
 * core/report.c — text and JSON renderers (see report.h). JSON is built
 * with jansson (objects keep insertion order, so key order is fixed).
 */
#include "report.h"

#include <jansson.h>
#include <string.h>

void fl_fabric_counts_of(const fl_fabric *fab, fl_fabric_counts *c) {
  c->switches = fl_fabric_count_kind(fab, FL_NODE_SWITCH);
  c->cas = fl_fabric_count_kind(fab, FL_NODE_CA);
  c->routers = fl_fabric_count_kind(fab, FL_NODE_ROUTER);
  c->links = fl_fabric_link_count(fab);
}

int fl_report_text(FILE *out, const fl_findings *fs, size_t rules_run,
                   int quiet) {
  for (size_t i = 0; i < fs->n; i++) {
    const fl_finding_rec *r = &fs->v[i];
    if (r->file && r->line)
      fprintf(out, "%s:%u: ", r->file, r->line);
    else if (r->file)
      fprintf(out, "%s: ", r->file);
    fprintf(out, "%s: %s: %s\n", fl_severity_name(r->severity), r->rule,
            r->message);
    if (quiet)
      continue;
    if (r->n_nodes) {
      fputs("    nodes:", out);
      for (uint32_t k = 0; k < r->n_nodes; k++)
        fprintf(out, "%s \"%s\"", k ? "," : "", r->nodes[k]);
      fputc('\n', out);
    }
    if (r->n_ports) {
      fputs("    ports:", out);
      for (uint32_t k = 0; k < r->n_ports; k++)
        fprintf(out, "%s \"%s\" port %u", k ? "," : "", r->ports[k].node,
                r->ports[k].port);
      fputc('\n', out);
    }
  }
  if (!quiet)
    fprintf(out, "%zu error(s), %zu warning(s), %zu info; %zu rule(s) run\n",
            fl_findings_count(fs, FL_SEV_ERROR),
            fl_findings_count(fs, FL_SEV_WARNING),
            fl_findings_count(fs, FL_SEV_INFO), rules_run);
  return ferror(out) ? -1 : 0;
}

static json_t *finding_json(const fl_finding_rec *r) {
  json_t *o = json_object();
  json_object_set_new(o, "rule", json_string(r->rule));
  json_object_set_new(o, "severity", json_string(fl_severity_name(r->severity)));
  json_object_set_new(o, "message", json_string(r->message));
  json_t *nodes = json_array();
  for (uint32_t k = 0; k < r->n_nodes; k++)
    json_array_append_new(nodes, json_string(r->nodes[k]));
  json_object_set_new(o, "nodes", nodes);
  json_t *ports = json_array();
  for (uint32_t k = 0; k < r->n_ports; k++)
    json_array_append_new(ports, json_pack("{s:s,s:i}", "node", r->ports[k].node,
                                           "port", (json_int_t)r->ports[k].port));
  json_object_set_new(o, "ports", ports);
  json_t *ev = r->evidence ? json_loads(r->evidence, 0, NULL) : NULL;
  json_object_set_new(o, "evidence", ev ? ev : json_object());
  if (r->file) {
    json_t *loc = json_pack("{s:s,s:i}", "file", r->file, "line",
                            (json_int_t)r->line);
    if (r->col)
      json_object_set_new(loc, "column", json_integer(r->col));
    json_object_set_new(o, "location", loc);
  }
  return o;
}

int fl_report_json(FILE *out, const fl_findings *fs,
                   const fl_fabric_counts *c) {
  json_t *root = json_object();
  json_object_set_new(root, "tool", json_pack("{s:s,s:s}", "name", "fabriclint",
                                              "version", FL_VERSION));
  json_object_set_new(root, "fabric",
                      json_pack("{s:i,s:i,s:i,s:i}", "switches",
                                (json_int_t)c->switches, "cas", (json_int_t)c->cas,
                                "routers", (json_int_t)c->routers, "links",
                                (json_int_t)c->links));
  json_t *arr = json_array();
  for (size_t i = 0; i < fs->n; i++)
    json_array_append_new(arr, finding_json(&fs->v[i]));
  json_object_set_new(root, "findings", arr);
  json_object_set_new(
      root, "summary",
      json_pack("{s:i,s:i,s:i}", "error",
                (json_int_t)fl_findings_count(fs, FL_SEV_ERROR), "warning",
                (json_int_t)fl_findings_count(fs, FL_SEV_WARNING), "info",
                (json_int_t)fl_findings_count(fs, FL_SEV_INFO)));
  int rc = json_dumpf(root, out, JSON_INDENT(2)) == 0 ? 0 : -1;
  fputc('\n', out);
  json_decref(root);
  return rc || ferror(out) ? -1 : 0;
}
