/* SPDX-License-Identifier: MIT */
/*
 * core/cli/cli_infer.c — `fabriclint info --explain` (cli_infer.h): the
 * inference records of the core (fabriclint/infer.h) listed per switch
 * (tier), per host and per leaf (scalable unit), and the nodes known
 * only from their neighbours' side (views), with confidence and evidence.
 * A host is listed once, by its first NIC cabled to a leaf.
 */
#include <stdlib.h>
#include <string.h>

#include "cli/cli_infer.h"
#include "fabriclint/infer.h"
#include "model/hashmap.h"

#define EVIDENCE_MAX 512

/* One row: @name, its value @value (printed by the caller) and evidence. */
typedef void (*row_fn)(void *ctx, const char *name, uint32_t conf,
                       const char *evidence);

/* The host name of CA @n: its system, else its own name. */
static const char *host_name(const fl_fabric *fab, fl_id n) {
  const char *s = fl_fabric_node_system(fab, n);
  return *s ? s : fl_fabric_node_name(fab, n);
}

static void each_tier(const fl_fabric *fab, row_fn fn, void *ctx) {
  char ev[EVIDENCE_MAX];
  for (fl_id n = 0; n < fl_fabric_node_count(fab); n++)
    if (fl_fabric_node_kind(fab, n) == FL_NODE_SWITCH) {
      uint32_t c = fl_fabric_node_tier_explain(fab, n, ev, sizeof ev);
      fn(ctx, fl_fabric_node_name(fab, n), c, ev);
    }
}

/* Hosts (@hosts 1: each host once, by its first NIC with an SU) or leaves
 * (switches with an SU). */
static void each_su(const fl_fabric *fab, int hosts, row_fn fn, void *ctx) {
  char ev[EVIDENCE_MAX];
  fl_strmap seen;
  memset(&seen, 0, sizeof seen);
  for (fl_id n = 0; n < fl_fabric_node_count(fab); n++) {
    uint32_t kind = fl_fabric_node_kind(fab, n);
    if (kind != (hosts ? FL_NODE_CA : FL_NODE_SWITCH))
      continue;
    uint32_t c = fl_fabric_node_su_explain(fab, n, ev, sizeof ev);
    if (!*ev)
      continue;
    const char *name = hosts ? host_name(fab, n) : fl_fabric_node_name(fab, n);
    if (hosts && fl_strmap_get(&seen, name, strlen(name)) != FL_MAP_ABSENT)
      continue;
    if (hosts)
      fl_strmap_put(&seen, name, strlen(name), 0);
    fn(ctx, name, c, ev);
  }
  fl_strmap_free(&seen);
}

/* Nodes known only from their neighbours' side (peer-only). */
static void each_view(const fl_fabric *fab, row_fn fn, void *ctx) {
  char ev[EVIDENCE_MAX];
  for (fl_id n = 0; n < fl_fabric_node_count(fab); n++) {
    uint32_t c = fl_fabric_node_view_explain(fab, n, ev, sizeof ev);
    if (c != FL_CONF_NONE)
      fn(ctx, fl_fabric_node_name(fab, n), c, ev);
  }
}

static int any_view(const fl_fabric *fab) {
  char ev[8];
  for (fl_id n = 0; n < fl_fabric_node_count(fab); n++)
    if (fl_fabric_node_view_explain(fab, n, ev, sizeof ev) != FL_CONF_NONE)
      return 1;
  return 0;
}

static void text_row(void *ctx, const char *name, uint32_t conf,
                     const char *evidence) {
  fprintf((FILE *)ctx, "    %s: %s (confidence %s)\n", name, evidence,
          fl_confidence_name(conf));
}

void fl_cli_infer_text(FILE *out, const fl_fabric *fab) {
  const char *src = fl_fabric_su_source(fab);
  fprintf(out, "inferences (evidence, confidence; docs/inference.md):\n");
  fprintf(out, "  tiers of switches:\n");
  each_tier(fab, text_row, out);
  fprintf(out, "  scalable units of hosts%s:\n",
          !*src                       ? ""
          : strcmp(src, "names") == 0 ? " (from the site's names)"
                                      : " (from leaves that share hosts)");
  each_su(fab, 1, text_row, out);
  fprintf(out, "  scalable units of leaves:\n");
  each_su(fab, 0, text_row, out);
  if (any_view(fab)) {
    fprintf(out, "  nodes known only from their neighbours' side:\n");
    each_view(fab, text_row, out);
  }
}

static void json_row(void *ctx, const char *name, uint32_t conf,
                     const char *evidence) {
  json_array_append_new(
      (json_t *)ctx, json_pack("{s:s,s:s,s:s}", "node", name, "confidence",
                               fl_confidence_name(conf), "evidence", evidence));
}

json_t *fl_cli_infer_json(const fl_fabric *fab) {
  json_t *tiers = json_array(), *hosts = json_array(), *leaves = json_array();
  if (!tiers || !hosts || !leaves) {
    json_decref(tiers), json_decref(hosts), json_decref(leaves);
    return NULL;
  }
  each_tier(fab, json_row, tiers);
  size_t i = 0;
  for (fl_id n = 0; n < fl_fabric_node_count(fab); n++)
    if (fl_fabric_node_kind(fab, n) == FL_NODE_SWITCH) {
      uint32_t t = fl_fabric_node_tier(fab, n);
      json_object_set_new(json_array_get(tiers, i++), "tier",
                          t == FL_TIER_UNKNOWN ? json_null() : json_integer(t));
    }
  each_su(fab, 1, json_row, hosts);
  each_su(fab, 0, json_row, leaves);
  json_t *views = json_array();
  if (views)
    each_view(fab, json_row, views);
  return json_pack("{s:o,s:{s:s,s:o,s:o},s:o*}", "tiers", tiers, "sus",
                   "source", fl_fabric_su_source(fab), "hosts", hosts, "leaves",
                   leaves, "views", views);
}
