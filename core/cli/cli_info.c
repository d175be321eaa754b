/* SPDX-License-Identifier: MIT */
/*
 * core/cli/cli_info.c — `fabriclint info` (what was loaded) and `fabriclint
 * rules` (what can run), text and JSON.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cli/cli.h"
#include "cli/cli_common.h"
#include "cli/cli_infer.h"
#include "cli/cli_planes.h"
#include "fabriclint/counters.h"
#include "fabriclint/fabric.h"
#include "fabriclint/routing.h"
#include "model/derive.h"
#include "model/hashmap.h"
#include "report/report.h"

#define MAX_TIER 16

#define MAX_NICS 17

typedef struct info_stats {
  const uint32_t *fmts; /* format of each input, as loaded */
  const fl_fabric *fab; /* for the director chassis list */
  fl_fabric_counts counts;
  uint32_t an; /* SHARP aggregation nodes */
  uint32_t systems;
  uint32_t nics;                    /* CA ports cabled to a switch */
  uint32_t hosts_by_nics[MAX_NICS]; /* systems with N NICs (last: more) */
  uint32_t tier_sw[MAX_TIER + 1], tier_ca[MAX_TIER + 1]; /* last = unknown */
  uint32_t derived;
  fl_shape_facts shape;
  uint32_t one_sided, mismatched;
  uint32_t one_sided_filtered; /* to a `peer-only` node (iblinkinfo filter) */
  /* link types: width x speed code */
  uint32_t types[13][32];
  uint32_t lfts, max_lid, notes;
  uint64_t lft_entries;
  /* port counters (fabriclint/counters.h) */
  uint32_t ctr_snapshots, ctr_ports, ctr_unmapped;
  double ctr_interval;
  int sl2vl, path_sl;
} info_stats;

/* A NIC is a CA port cabled to a switch: an InfiniBand HCA port, or one
 * port of an Ethernet host (an LLDP chassis). Hosts are counted by their
 * number of NICs, whichever way the input describes them. @sys maps each
 * CA system to its slot (values assigned in insertion order). */
static void count_nics(const fl_fabric *fab, fl_strmap *sys, info_stats *s) {
  uint32_t n = fl_fabric_node_count(fab), ns = s->systems;
  uint32_t *per = calloc((size_t)ns + 1, sizeof *per);
  if (!per)
    return;
  for (fl_id i = 0; i < n; i++) {
    if (fl_fabric_node_kind(fab, i) != FL_NODE_CA)
      continue;
    const char *name = fl_fabric_node_system(fab, i);
    uint32_t slot = *name ? fl_strmap_get(sys, name, strlen(name)) : ns;
    fl_id first = fl_fabric_node_first_port(fab, i);
    for (uint32_t k = 0;
         first != FL_NONE && k < fl_fabric_node_port_count(fab, i); k++) {
      fl_id l = fl_fabric_port_link(fab, first + k, 0);
      if (l == FL_NONE)
        continue;
      fl_id peer =
          fl_fabric_port_node(fab, fl_fabric_link_other(fab, l, first + k));
      if (fl_fabric_node_kind(fab, peer) != FL_NODE_SWITCH)
        continue;
      s->nics++;
      if (slot < ns)
        per[slot]++;
    }
  }
  for (uint32_t k = 0; k < ns; k++)
    if (per[k])
      s->hosts_by_nics[per[k] < MAX_NICS ? per[k] : MAX_NICS - 1]++;
  free(per);
}

static void gather(const fl_fabric *fab, info_stats *s) {
  memset(s, 0, sizeof *s);
  s->fab = fab;
  fl_shape_facts_get(fab, &s->shape);
  fl_fabric_counts_of(fab, &s->counts);
  uint32_t n = fl_fabric_node_count(fab);
  for (fl_id i = 0; i < n; i++) {
    uint32_t t = fl_fabric_node_tier(fab, i);
    uint32_t slot = t > MAX_TIER ? MAX_TIER : t;
    if (fl_fabric_node_kind(fab, i) == FL_NODE_SWITCH)
      s->tier_sw[slot]++;
    else
      s->tier_ca[slot]++;
    s->derived += fl_fabric_node_tier_derived(fab, i) != 0;
    s->an += fl_is_aggregation_node(fab, i);
  }
  /* distinct systems of CAs */
  fl_strmap sys;
  memset(&sys, 0, sizeof sys);
  for (fl_id i = 0; i < n; i++) {
    const char *name = fl_fabric_node_system(fab, i);
    if (fl_fabric_node_kind(fab, i) == FL_NODE_CA && *name)
      fl_strmap_put(&sys, name, strlen(name), (uint32_t)fl_strmap_len(&sys));
  }
  s->systems = (uint32_t)fl_strmap_len(&sys);
  count_nics(fab, &sys, s);
  fl_strmap_free(&sys);
  s->lfts = fl_fabric_lft_count(fab);
  s->max_lid = fl_fabric_max_lid(fab);
  s->sl2vl = fl_fabric_has_sl2vl(fab);
  s->path_sl = fl_fabric_has_path_sl(fab);
  s->notes = fl_fabric_note_count(fab);
  s->ctr_snapshots = fl_fabric_counter_snapshots(fab);
  s->ctr_interval = fl_fabric_counter_interval(fab);
  s->ctr_unmapped = fl_fabric_counter_unmapped_count(fab);
  for (fl_id p = 0; s->ctr_snapshots && p < fl_fabric_port_count(fab); p++)
    s->ctr_ports += fl_fabric_port_counter_mask(fab, p) != 0;
  for (fl_id i = 0; i < n; i++) {
    uint32_t len = 0;
    if (fl_fabric_lft(fab, i, &len))
      s->lft_entries += len ? len - 1 : 0;
  }
  for (fl_id l = 0; l < fl_fabric_link_count(fab); l++) {
    uint32_t w = fl_fabric_link_width(fab, l),
             sp = fl_fabric_link_speed(fab, l);
    if (w <= 12 && sp < 32)
      s->types[w][sp]++;
    uint32_t f = fl_fabric_link_flags(fab, l);
    if (!(f & FL_LINK_DECLARED) && (f & (FL_LINK_SEEN_A | FL_LINK_SEEN_B)) !=
                                       (FL_LINK_SEEN_A | FL_LINK_SEEN_B)) {
      s->one_sided++;
      fl_id silent = fl_fabric_link_port(fab, l, (f & FL_LINK_SEEN_A) ? 1 : 0);
      const char *po = fl_fabric_attr(
          fab, FL_ENT_NODE, fl_fabric_port_node(fab, silent), "peer-only");
      s->one_sided_filtered += po && strcmp(po, "yes") == 0;
    }
    if (f & (FL_LINK_WIDTH_MISMATCH | FL_LINK_SPEED_MISMATCH))
      s->mismatched++;
  }
}

static void type_name(uint32_t w, uint32_t sp, char *buf, size_t size) {
  if (w)
    snprintf(buf, size, "%ux%s", w, fl_speed_name(sp));
  else
    snprintf(buf, size, "??%s", fl_speed_name(sp));
}

static void print_text(FILE *out, const fl_cli_opts *o, const info_stats *s) {
  fprintf(out, "inputs:\n");
  for (size_t i = 0; i < o->n_inputs; i++) {
    uint32_t f = s->fmts[i];
    fprintf(out, "  %s (%s)\n", o->inputs[i], fl_format_name(f));
  }
  fprintf(out, "fabric: %u switches, %u CAs, %u routers, %u links\n",
          s->counts.switches, s->counts.cas, s->counts.routers,
          s->counts.links);
  fprintf(out, "  SHARP aggregation nodes: %u (counted as CAs)\n", s->an);
  fprintf(out, "  systems (hosts of CAs): %u\n", s->systems);
  fprintf(out, "  NICs (CA ports cabled to a switch): %u\n", s->nics);
  for (uint32_t k = 1; k < MAX_NICS; k++)
    if (s->hosts_by_nics[k])
      fprintf(out, "    hosts with %u%s NIC(s): %u\n", k,
              k == MAX_NICS - 1 ? " or more" : "", s->hosts_by_nics[k]);
  uint32_t nch = fl_fabric_chassis_count(s->fab);
  if (nch)
    fprintf(out, "director chassis (ASICs grouped as one switch): %u\n", nch);
  for (uint32_t c = 0; c < nch; c++)
    fprintf(out, "  %s%s%s: %u ASICs\n", fl_fabric_chassis_name(s->fab, c),
            *fl_fabric_chassis_model(s->fab, c) ? " " : "",
            fl_fabric_chassis_model(s->fab, c),
            fl_fabric_chassis_asic_count(s->fab, c));
  fprintf(out, "tiers%s:\n",
          s->derived ? " (derived from the shape where not given)" : "");
  for (uint32_t t = 0; t <= MAX_TIER; t++)
    if (s->tier_sw[t] || s->tier_ca[t]) {
      if (t == MAX_TIER)
        fprintf(out, "  unknown:");
      else
        fprintf(out, "  %u:", t);
      fprintf(out, " %u switches, %u CAs/routers\n", s->tier_sw[t],
              s->tier_ca[t]);
    }
  const fl_shape_facts *sh = &s->shape;
  if (sh->flat_links || sh->skip_links || sh->upper_endpoint_switches)
    fprintf(out,
            "  irregular shape: %u switch cable(s) within one tier, %u "
            "skipping a tier, %u switch(es) above tier 1 with compute "
            "endpoints\n",
            sh->flat_links, sh->skip_links, sh->upper_endpoint_switches);
  fprintf(out, "links by width and speed:\n");
  char buf[32];
  for (uint32_t w = 0; w <= 12; w++)
    for (uint32_t sp = 0; sp < 32; sp++)
      if (s->types[w][sp]) {
        type_name(w, sp, buf, sizeof buf);
        fprintf(out, "  %s: %u\n",
                w || sp ? buf : "unknown (the input gives no speed)",
                s->types[w][sp]);
      }
  fprintf(out, "links listed from one end only: %u", s->one_sided);
  if (s->one_sided_filtered)
    fprintf(out,
            " (%u to nodes the capture lists only as far ends, as its "
            "filter means)",
            s->one_sided_filtered);
  fprintf(out, "\n");
  fprintf(out, "links whose ends disagree on width or speed: %u\n",
          s->mismatched);
  if (s->lfts)
    fprintf(out,
            "routing: LFTs of %u of %u switches (max LID %u, %llu entries); "
            "SL2VL %s; path SLs %s; %u loader note(s)\n",
            s->lfts, s->counts.switches, s->max_lid,
            (unsigned long long)s->lft_entries, s->sl2vl ? "loaded" : "none",
            s->path_sl ? "loaded" : "none", s->notes);
  else
    fprintf(out, "routing: no LFTs loaded (analyses use the reference minimal "
                 "routing)\n");
  if (s->ctr_snapshots == 2)
    fprintf(out, "counters: 2 snapshots %.0f s apart; ", s->ctr_interval);
  else if (s->ctr_snapshots)
    fprintf(out, "counters: 1 snapshot; ");
  if (s->ctr_snapshots)
    fprintf(out,
            "%u ports with counters; %u record(s) naming no port of the "
            "topology\n",
            s->ctr_ports, s->ctr_unmapped);
}

static void print_json(FILE *out, const fl_cli_opts *o, const info_stats *s,
                       const fl_fabric *fab) {
  json_t *root = json_object();
  json_object_set_new(
      root, "tool",
      json_pack("{s:s,s:s}", "name", "fabriclint", "version", FL_VERSION));
  json_object_set_new(root, "fabric",
                      json_pack("{s:i,s:i,s:i,s:i}", "switches",
                                (json_int_t)s->counts.switches, "cas",
                                (json_int_t)s->counts.cas, "routers",
                                (json_int_t)s->counts.routers, "links",
                                (json_int_t)s->counts.links));
  json_t *inputs = json_array();
  for (size_t i = 0; i < o->n_inputs; i++) {
    uint32_t f = s->fmts[i];
    json_array_append_new(inputs, json_pack("{s:s,s:s}", "path", o->inputs[i],
                                            "format", fl_format_name(f)));
  }
  json_object_set_new(root, "inputs", inputs);
  json_object_set_new(root, "aggregation_nodes", json_integer(s->an));
  json_object_set_new(root, "systems", json_integer(s->systems));
  json_object_set_new(root, "nics", json_integer(s->nics));
  json_t *hbn = json_object();
  char key[16];
  for (uint32_t k = 1; k < MAX_NICS; k++)
    if (s->hosts_by_nics[k]) {
      snprintf(key, sizeof key, "%u", k);
      json_object_set_new(hbn, key, json_integer(s->hosts_by_nics[k]));
    }
  json_object_set_new(root, "hosts_by_nics", hbn);
  json_t *tiers = json_array();
  for (uint32_t t = 0; t <= MAX_TIER; t++)
    if (s->tier_sw[t] || s->tier_ca[t])
      json_array_append_new(
          tiers, json_pack("{s:o,s:i,s:i}", "tier",
                           t == MAX_TIER ? json_null() : json_integer(t),
                           "switches", (json_int_t)s->tier_sw[t], "cas",
                           (json_int_t)s->tier_ca[t]));
  json_object_set_new(root, "tiers", tiers);
  fl_shape_facts sh = s->shape;
  json_object_set_new(
      root, "shape",
      json_pack("{s:b,s:i,s:i,s:i}", "regular",
                !sh.flat_links && !sh.skip_links && !sh.upper_endpoint_switches,
                "same_tier_links", (json_int_t)sh.flat_links,
                "tier_skipping_links", (json_int_t)sh.skip_links,
                "upper_switches_with_endpoints",
                (json_int_t)sh.upper_endpoint_switches));
  json_t *chassis = json_array();
  for (uint32_t c = 0; c < fl_fabric_chassis_count(s->fab); c++)
    json_array_append_new(
        chassis,
        json_pack("{s:s,s:s,s:i}", "name", fl_fabric_chassis_name(s->fab, c),
                  "model", fl_fabric_chassis_model(s->fab, c), "asics",
                  (json_int_t)fl_fabric_chassis_asic_count(s->fab, c)));
  json_object_set_new(root, "chassis", chassis);
  json_t *types = json_object();
  char buf[32];
  for (uint32_t w = 0; w <= 12; w++)
    for (uint32_t sp = 0; sp < 32; sp++)
      if (s->types[w][sp]) {
        type_name(w, sp, buf, sizeof buf);
        json_object_set_new(types, buf, json_integer(s->types[w][sp]));
      }
  json_object_set_new(root, "link_types", types);
  json_object_set_new(root, "one_sided_links", json_integer(s->one_sided));
  json_object_set_new(root, "one_sided_links_by_filter",
                      json_integer(s->one_sided_filtered));
  json_object_set_new(root, "mismatched_links", json_integer(s->mismatched));
  json_object_set_new(
      root, "routing",
      json_pack("{s:i,s:i,s:I,s:b,s:b,s:i}", "lfts", (json_int_t)s->lfts,
                "max_lid", (json_int_t)s->max_lid, "lft_entries",
                (json_int_t)s->lft_entries, "sl2vl", s->sl2vl, "path_sl",
                s->path_sl, "notes", (json_int_t)s->notes));
  json_object_set_new(root, "counters",
                      json_pack("{s:i,s:f,s:i,s:i}", "snapshots",
                                (json_int_t)s->ctr_snapshots, "interval_s",
                                s->ctr_interval, "ports",
                                (json_int_t)s->ctr_ports, "unmapped",
                                (json_int_t)s->ctr_unmapped));
  json_t *planes = fl_cli_planes_json(o, fab);
  if (planes)
    json_object_set_new(root, "planes", planes);
  json_t *inf = o->explain ? fl_cli_infer_json(fab) : NULL;
  if (inf)
    json_object_set_new(root, "inferences", inf);
  json_dumpf(root, out, JSON_INDENT(2));
  fputc('\n', out);
  json_decref(root);
}

int fl_cli_info(int argc, char **argv) {
  fl_cli_opts o;
  int rc = fl_cli_parse(argc, argv, &o);
  if (rc != 0) {
    fl_cli_opts_free(&o);
    return rc < 0 ? 0 : rc;
  }
  fl_fabric *fab = NULL;
  fl_outfile out = {0};
  uint32_t *fmts = calloc(o.n_inputs + 1, sizeof *fmts);
  rc = fmts ? fl_cli_load_fabric(&o, &fab, fmts) : FL_EXIT_USAGE;
  if (rc == 0)
    rc = fl_cli_open_output(&o, &out);
  if (rc == 0) {
    info_stats *s = malloc(sizeof *s);
    if (!s) {
      rc = FL_EXIT_USAGE;
    } else {
      gather(fab, s);
      s->fmts = fmts;
      if (o.out_format == FL_OUT_JSON)
        print_json(out.f, &o, s, fab);
      else {
        print_text(out.f, &o, s);
        fl_cli_planes_text(out.f, &o, fab);
        if (o.explain)
          fl_cli_infer_text(out.f, fab);
      }
      free(s);
    }
  }
  rc = fl_cli_close_output(&out, rc);
  free(fmts);
  fl_fabric_free(fab);
  fl_cli_opts_free(&o);
  return rc;
}

/* ---- rules
 * ---------------------------------------------------------------------- */

const char *fl_cli_param_type_name(uint32_t t) {
  switch (t) {
  case FL_PARAM_INT:
    return "int";
  case FL_PARAM_DOUBLE:
    return "double";
  case FL_PARAM_STRING:
    return "string";
  case FL_PARAM_BOOL:
    return "bool";
  default:
    return "?";
  }
}

json_t *fl_cli_rule_json(const fl_rule_def *r) {
  json_t *params = json_array();
  for (uint32_t k = 0; k < r->n_params; k++) {
    const fl_param_def *p = r->params[k];
    json_t *jp = json_pack("{s:s,s:s}", "name", p->name, "type",
                           fl_cli_param_type_name(p->type));
    json_object_set_new(jp, "default",
                        p->default_value ? json_string(p->default_value)
                                         : json_null());
    json_object_set_new(jp, "unit",
                        p->unit ? json_string(p->unit) : json_null());
    if (p->min_value) /* host copies are full size: added after 1.0 */
      json_object_set_new(jp, "min", json_string(p->min_value));
    if (p->max_value)
      json_object_set_new(jp, "max", json_string(p->max_value));
    json_object_set_new(jp, "doc", json_string(p->doc ? p->doc : ""));
    json_array_append_new(params, jp);
  }
  json_t *o = json_pack("{s:s,s:s,s:s,s:b}", "id", r->id, "summary", r->summary,
                        "severity", fl_severity_name(r->default_severity),
                        "enabled_by_default", r->enabled_by_default != 0);
  json_object_set_new(o, "help", json_string(r->help ? r->help : ""));
  json_t *needs = json_array();
  if (r->needs & FL_NEEDS_ROUTING)
    json_array_append_new(needs, json_string("routing"));
  if (r->needs & FL_NEEDS_SL2VL)
    json_array_append_new(needs, json_string("sl2vl"));
  if (r->needs & FL_NEEDS_DESIGN)
    json_array_append_new(needs, json_string("design"));
  if (r->needs & FL_NEEDS_COUNTERS)
    json_array_append_new(needs, json_string("counters"));
  json_object_set_new(o, "needs", needs);
  json_object_set_new(o, "params", params);
  return o;
}

/* Rules of @p that --rules @pat lists (every rule without a pattern). */
static uint32_t rules_listed(const fl_loaded_plugin *p, const char *pat) {
  uint32_t n = 0;
  for (uint32_t r = 0; r < p->desc.n_rules; r++)
    n += !pat || fl_host_rule_selected(p->rules[r], pat);
  return n;
}

static void rules_json(FILE *out, const fl_host *h, const char *pat) {
  json_t *arr = json_array();
  for (size_t i = 0; i < h->n_plugins; i++) {
    const fl_loaded_plugin *p = &h->plugins[i];
    if (pat && !rules_listed(p, pat))
      continue; /* --rules filters plugins too */
    json_t *rules = json_array();
    for (uint32_t r = 0; r < p->desc.n_rules; r++)
      if (!pat || fl_host_rule_selected(p->rules[r], pat))
        json_array_append_new(rules, fl_cli_rule_json(p->rules[r]));
    json_t *jp = json_pack("{s:s,s:s,s:s,s:s,s:s,s:s}", "name", p->desc.name,
                           "version", p->desc.version ? p->desc.version : "",
                           "vendor", p->desc.vendor ? p->desc.vendor : "",
                           "license", p->desc.license ? p->desc.license : "",
                           "path", p->path, "abi", "1.0");
    json_object_set_new(
        jp, "abi", json_sprintf("%u.%u", p->desc.abi_major, p->desc.abi_minor));
    json_object_set_new(jp, "rules", rules);
    json_array_append_new(arr, jp);
  }
  json_t *root = json_pack("{s:{s:s,s:s},s:o}", "tool", "name", "fabriclint",
                           "version", FL_VERSION, "plugins", arr);
  json_dumpf(root, out, JSON_INDENT(2));
  fputc('\n', out);
  json_decref(root);
}

static void rules_text(FILE *out, const fl_host *h, const char *pat) {
  for (size_t i = 0; i < h->n_plugins; i++) {
    const fl_loaded_plugin *p = &h->plugins[i];
    if (pat && !rules_listed(p, pat))
      continue; /* --rules filters plugins too */
    fprintf(out, "%s %s (%s, %s, ABI %u.%u) %s\n", p->desc.name,
            p->desc.version ? p->desc.version : "",
            p->desc.vendor ? p->desc.vendor : "",
            p->desc.license ? p->desc.license : "", p->desc.abi_major,
            p->desc.abi_minor, p->path);
    for (uint32_t r = 0; r < p->desc.n_rules; r++) {
      const fl_rule_def *rd = p->rules[r];
      if (pat && !fl_host_rule_selected(rd, pat))
        continue;
      fprintf(out, "  %-36s %-7s %s%s\n", rd->id,
              fl_severity_name(rd->default_severity), rd->summary,
              rd->enabled_by_default ? "" : " [opt-in]");
      for (uint32_t k = 0; k < rd->n_params; k++) {
        const fl_param_def *pd = rd->params[k];
        int has_def = pd->default_value && *pd->default_value;
        int has_unit = pd->unit && *pd->unit;
        char range[96] = "";
        if (pd->min_value || pd->max_value) /* host copies are full size */
          snprintf(range, sizeof range, " [%s..%s]",
                   pd->min_value ? pd->min_value : "",
                   pd->max_value ? pd->max_value : "");
        fprintf(out, "      --param %s.%s=<%s>%s%s%s%s%s%s: %s\n", rd->id,
                pd->name, fl_cli_param_type_name(pd->type), range,
                has_def ? " (default " : "", has_def ? pd->default_value : "",
                has_def && has_unit ? " " : "",
                has_def && has_unit ? pd->unit : "", has_def ? ")" : "",
                pd->doc ? pd->doc : "");
      }
    }
  }
}

int fl_cli_rules(int argc, char **argv) {
  fl_cli_opts o;
  int rc = fl_cli_parse(argc, argv, &o);
  if (rc == 0 && o.n_inputs > 0) /* `rules rail-*`: never ignore a word */
    rc = fl_cli_usage_error("rules takes no arguments, got '%s' (to list "
                            "some rules only: --rules PATTERN; for one rule: "
                            "fabriclint explain RULE)",
                            o.inputs[0]);
  if (rc != 0) {
    fl_cli_opts_free(&o);
    return rc < 0 ? 0 : rc;
  }
  fl_host h;
  fl_outfile out = {0};
  rc = fl_cli_load_plugins(&o, &h);
  int listed = 0;
  for (size_t i = 0; rc == 0 && i < h.n_plugins; i++)
    listed += rules_listed(&h.plugins[i], o.rules) != 0;
  if (rc == 0 && o.rules && !listed)
    rc = fl_cli_usage_error("--rules '%s' selects no loaded rule", o.rules);
  if (rc == 0)
    rc = fl_cli_open_output(&o, &out);
  if (rc == 0) {
    if (o.out_format == FL_OUT_JSON)
      rules_json(out.f, &h, o.rules);
    else
      rules_text(out.f, &h, o.rules);
  }
  rc = fl_cli_close_output(&out, rc);
  fl_host_free(&h);
  fl_cli_opts_free(&o);
  return rc;
}
