/* SPDX-License-Identifier: MIT */
/*
 * core/cli/cli_explain.c — `fabriclint explain RULE...` (also `fabriclint
 * rules --help RULE...`): everything a rule's descriptor says, as a person
 * reads it: summary, plugin, severity, whether it runs by default, the
 * inputs it needs, its documentation page, its full help, its own
 * parameters (type, range, unit, default) and an example command line and
 * policy. The same for the core's own rules (diff.*, policy.*). `--format
 * json` prints the descriptors as `rules --format json` does, plus plugin,
 * docs and example.
 *
 * A name that is no rule exits 2 naming the closest rule ids (edit
 * distance on the whole id and on the part after the dot, so `swapped`
 * finds rail-alignment.swapped and diff.swapped). A plugin name explains
 * every rule of the plugin.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cli/cli.h"
#include "cli/cli_common.h"
#include "cli/cli_docs.h"
#include "diff/diff.h"
#include "host/host.h"
#include "util/natcmp.h"

#define WRAP_COLS 78

/* One rule as explain sees it: a plugin rule (@def) or a core rule. */
typedef struct xrule {
  const char *id, *summary, *help;
  uint32_t level;
  int on_by_default;
  uint32_t needs;
  const fl_rule_def *def;         /* NULL for diff.* and policy.* */
  const fl_loaded_plugin *plugin; /* NULL for diff.* and policy.* */
} xrule;

typedef struct xlist {
  xrule *v;
  size_t n, cap;
} xlist;

static int xpush(xlist *l, const xrule *r) {
  if (l->n == l->cap) {
    size_t nc = l->cap ? l->cap * 2 : 64;
    xrule *v = realloc(l->v, nc * sizeof *v);
    if (!v)
      return -1;
    l->v = v;
    l->cap = nc;
  }
  l->v[l->n++] = *r;
  return 0;
}

/* Every rule explain knows: the loaded plugins', diff's, the policy's. */
static int all_rules(const fl_host *h, xlist *l) {
  for (size_t i = 0; i < h->n_plugins; i++) {
    const fl_loaded_plugin *p = &h->plugins[i];
    for (uint32_t r = 0; r < p->desc.n_rules; r++) {
      const fl_rule_def *d = p->rules[r];
      xrule x = {d->id,
                 d->summary,
                 d->help,
                 fl_host_rule_severity(h, d),
                 d->enabled_by_default != 0,
                 d->needs,
                 d,
                 p};
      if (xpush(l, &x) != 0)
        return -1;
    }
  }
  size_t nd;
  const fl_diff_rule *dr = fl_diff_rules(&nd);
  for (size_t i = 0; i < nd; i++) {
    xrule x = {dr[i].id, dr[i].summary, dr[i].help, dr[i].level, 1,
               0,        NULL,          NULL};
    if (xpush(l, &x) != 0)
      return -1;
  }
  for (size_t i = 0; i < 2; i++) {
    const fl_report_rule *pr = &FL_CLI_POLICY_RULES[i];
    xrule x = {pr->id, pr->summary, pr->help, pr->level, 1, 0, NULL, NULL};
    if (xpush(l, &x) != 0)
      return -1;
  }
  return 0;
}

/* ---- closest ids ----------------------------------------------------- */

/* Optimal string alignment distance, capped at 99 (ids are short). */
static unsigned edit_distance(const char *a, const char *b) {
  return fl_edit_distance(a, b, 99);
}

/* Distance of query @q to rule id @id: to the whole id, or to the rule
 * name after the dot (a query without a plugin); 1 for a prefix. */
static unsigned id_distance(const char *q, const char *id) {
  unsigned best = edit_distance(q, id);
  if (strncmp(id, q, strlen(q)) == 0 && best > 1)
    best = 1; /* a prefix of the id: the rest is missing */
  const char *dot = strchr(id, '.');
  if (dot && !strchr(q, '.')) {
    unsigned t = edit_distance(q, dot + 1);
    if (t < best)
      best = t;
  }
  return best;
}

#define MAX_SUGGEST 5

/* Print "fabriclint: unknown rule 'Q'; closest: a, b" (or a pointer to
 * `fabriclint rules`); returns FL_EXIT_USAGE. */
static int unknown_rule(const xlist *l, const char *q) {
  /* a typo or two (three in a long id); then only the nearest ones */
  unsigned limit = strlen(q) >= 16 ? 3 : 2;
  size_t pick[MAX_SUGGEST];
  unsigned dist[MAX_SUGGEST];
  size_t np = 0;
  for (size_t i = 0; i < l->n; i++) {
    unsigned d = id_distance(q, l->v[i].id);
    if (d > limit)
      continue;
    /* insert sorted by (distance, list order) */
    size_t k = np < MAX_SUGGEST ? np++ : MAX_SUGGEST;
    if (k == MAX_SUGGEST && d >= dist[MAX_SUGGEST - 1])
      continue;
    if (k == MAX_SUGGEST)
      k = MAX_SUGGEST - 1;
    while (k > 0 && dist[k - 1] > d) {
      pick[k] = pick[k - 1];
      dist[k] = dist[k - 1];
      k--;
    }
    pick[k] = i;
    dist[k] = d;
  }
  while (np > 1 && dist[np - 1] > dist[0] + 1)
    np--;
  fprintf(stderr, "fabriclint: unknown rule '%s'", q);
  if (np) {
    fputs("; closest:", stderr);
    for (size_t k = 0; k < np; k++)
      fprintf(stderr, "%s %s", k ? "," : "", l->v[pick[k]].id);
  }
  fputs("\n(see fabriclint rules)\n", stderr);
  return FL_EXIT_USAGE;
}

/* ---- text ------------------------------------------------------------ */

/* @text wrapped at WRAP_COLS with @indent spaces; paragraphs (blank lines)
 * kept, other whitespace runs become one space. @hang: the first line's
 * indent is already printed (a label before it). */
static void wrap_hang(FILE *out, const char *text, int indent, int hang) {
  const char *p = text;
  while (*p) {
    while (*p == '\n' || *p == ' ')
      p++;
    if (!*p)
      break;
    const char *end = strstr(p, "\n\n");
    if (!end)
      end = p + strlen(p);
    int col = 0;
    while (p < end) {
      while (p < end && (*p == ' ' || *p == '\n' || *p == '\t'))
        p++;
      const char *w = p;
      while (p < end && *p != ' ' && *p != '\n' && *p != '\t')
        p++;
      int wl = (int)(p - w);
      if (!wl)
        break;
      if (col && col + 1 + wl > WRAP_COLS - indent) {
        fputc('\n', out);
        col = 0;
      }
      if (!col && !hang)
        fprintf(out, "%*s", indent, "");
      else if (col)
        fputc(' ', out);
      hang = 0;
      fwrite(w, 1, (size_t)wl, out);
      col += (col ? 1 : 0) + wl;
    }
    fputc('\n', out);
    p = end;
    if (*p)
      fputc('\n', out);
  }
}

static void wrap(FILE *out, const char *text, int indent) {
  wrap_hang(out, text, indent, 0);
}

/* "  label     text..." with the text wrapped under itself. */
static void field(FILE *out, const char *label, const char *text) {
  fprintf(out, "  %-9s ", label);
  wrap_hang(out, text, 12, 1);
}

static const char *const TOPOLOGY_INPUTS =
    "a topology: an ibnetdiscover dump, design XML, an IBDM .topo, lldpd or "
    "Junos LLDP XML, a Cisco cable plan, or an opensm-subnet.lst";

/* The inputs a rule needs. */
static void needs_text(FILE *out, const xrule *r) {
  if (strncmp(r->id, "diff.", 5) == 0) {
    field(out, "needs",
          "a design (design XML, IBDM .topo, Cisco plan, ...) and an "
          "as-built capture, given to `fabriclint diff`");
    return;
  }
  if (strncmp(r->id, "policy.", 7) == 0) {
    field(out, "needs", "a policy file with waivers (--policy FILE)");
    return;
  }
  char text[1024];
  size_t o = (size_t)snprintf(text, sizeof text, "%s", TOPOLOGY_INPUTS);
  if (r->needs & FL_NEEDS_ROUTING)
    o += (size_t)snprintf(text + o, sizeof text - o,
                          "; and LFTs (opensm-lfts.dump, ibroute or dump_lfts "
                          "output, opensm.fdbs)");
  if (r->needs & FL_NEEDS_SL2VL)
    o += (size_t)snprintf(text + o, sizeof text - o,
                          "; and SL-to-VL tables (opensm-sl2vl.dump, smpquery "
                          "sl2vl)");
  if (r->needs & FL_NEEDS_DESIGN)
    o += (size_t)snprintf(text + o, sizeof text - o,
                          "; and design attributes (tier, rail, su, ...: "
                          "design XML or an annotation file)");
  if (r->needs)
    snprintf(text + o, sizeof text - o,
             ". Without them the rule is skipped with a note.");
  field(out, "needs", text);
}

/* A parameter's value as an example: its default, else a placeholder. */
static const char *example_value(const fl_param_def *p) {
  if (p->default_value && *p->default_value)
    return p->default_value;
  return p->type == FL_PARAM_STRING ? "VALUE" : "N";
}

/* The example inputs of a rule's check command. */
static const char *example_inputs(const xrule *r) {
  if (r->needs & FL_NEEDS_SL2VL)
    return "topo.ibnetdiscover opensm-lfts.dump opensm-sl2vl.dump";
  if (r->needs & FL_NEEDS_ROUTING)
    return "topo.ibnetdiscover opensm-lfts.dump";
  if (r->needs & FL_NEEDS_DESIGN)
    return "plan.xml";
  return "topo.ibnetdiscover";
}

/* Example command lines (and a policy), each written by @line. */
static void examples(const xrule *r, void (*line)(void *ctx, const char *text),
                     void *ctx) {
  char buf[1024];
  if (strncmp(r->id, "diff.", 5) == 0) {
    snprintf(buf, sizeof buf,
             "fabriclint diff --rules %s plan.xml asbuilt.ibnetdiscover",
             r->id);
    line(ctx, buf);
    line(ctx, "fabriclint diff --format csv plan.xml asbuilt.ibnetdiscover");
    return;
  }
  if (strncmp(r->id, "policy.", 7) == 0) {
    line(ctx, "fabriclint check --policy policy.yaml topo.ibnetdiscover");
    return;
  }
  snprintf(buf, sizeof buf, "fabriclint check --rules %s %s", r->id,
           example_inputs(r));
  line(ctx, buf);
  if (r->def && r->def->n_params) {
    const fl_param_def *p = r->def->params[0];
    snprintf(buf, sizeof buf, "fabriclint check --rules %s --param %s.%s=%s %s",
             r->id, r->id, p->name, example_value(p), example_inputs(r));
    line(ctx, buf);
  }
}

static void print_line(void *ctx, const char *text) {
  fprintf((FILE *)ctx, "  %s\n", text);
}

static void param_text(FILE *out, const fl_param_def *p) {
  char range[96] = "";
  if (p->min_value || p->max_value) /* host copies are full size */
    snprintf(range, sizeof range, " [%s..%s]", p->min_value ? p->min_value : "",
             p->max_value ? p->max_value : "");
  int has_def = p->default_value && *p->default_value;
  int has_unit = p->unit && *p->unit;
  fprintf(out, "  %s=<%s>%s", p->name, fl_cli_param_type_name(p->type), range);
  if (has_def)
    fprintf(out, "  default %s%s%s", p->default_value, has_unit ? " " : "",
            has_unit ? p->unit : "");
  else if (has_unit)
    fprintf(out, "  (%s; no default)", p->unit);
  else
    fputs("  (no default)", out);
  fputc('\n', out);
  wrap(out, p->doc ? p->doc : "", 6);
}

static void explain_text(FILE *out, const xrule *r, const char *base,
                         const char *local) {
  fprintf(out, "%s: %s\n\n", r->id, r->summary ? r->summary : "");
  char text[1024];
  if (r->plugin)
    snprintf(text, sizeof text, "%s %s (%s, %s)", r->plugin->desc.name,
             r->plugin->desc.version ? r->plugin->desc.version : "",
             r->plugin->desc.vendor ? r->plugin->desc.vendor : "",
             r->plugin->desc.license ? r->plugin->desc.license : "");
  else
    snprintf(text, sizeof text, "fabriclint itself (%s)",
             strncmp(r->id, "diff.", 5) == 0 ? "fabriclint diff"
                                             : "the policy file");
  field(out, "plugin", text);
  field(out, "severity", fl_severity_name(r->level));
  if (r->on_by_default)
    field(out, "runs", "by default");
  else {
    snprintf(text, sizeof text,
             "when selected (opt-in): --rules %s, or the policy's "
             "rules.enable",
             r->id);
    field(out, "runs", text);
  }
  needs_text(out, r);
  char uri[8192];
  if (fl_cli_help_uri(base, local, r->id, uri, sizeof uri))
    field(out, "docs", uri);
  fputc('\n', out);
  wrap(out, r->help && *r->help ? r->help : r->summary, 2);
  if (r->def) {
    fputs("\nparameters:\n", out);
    if (!r->def->n_params)
      fputs("  (none)\n", out);
    for (uint32_t k = 0; k < r->def->n_params; k++)
      param_text(out, r->def->params[k]);
    if (r->def->n_params) {
      char plugin[128];
      snprintf(plugin, sizeof plugin, "%.*s", (int)strcspn(r->id, "."), r->id);
      char set[512];
      snprintf(set, sizeof set,
               "Set with --param %s.NAME=VALUE (this rule), --param "
               "%s.NAME=VALUE (every rule of the plugin that has NAME), or "
               "a policy's params: (below).",
               r->id, plugin);
      wrap(out, set, 2);
    }
  }
  fputs("\nexample:\n", out);
  examples(r, print_line, out);
  if (r->def && r->def->n_params) {
    const fl_param_def *p = r->def->params[0];
    fprintf(out, "  # policy.yaml\n  params:\n    %s:\n      %s: %s\n", r->id,
            p->name, example_value(p));
  }
}

/* ---- JSON -------------------------------------------------------------- */

static void append_line(void *ctx, const char *text) {
  json_array_append_new((json_t *)ctx, json_string(text));
}

static json_t *explain_json(const xrule *r, const char *base,
                            const char *local) {
  json_t *o;
  if (r->def) {
    o = fl_cli_rule_json(r->def);
  } else {
    o = json_pack("{s:s,s:s,s:s,s:b,s:s,s:[],s:[]}", "id", r->id, "summary",
                  r->summary, "severity", fl_severity_name(r->level),
                  "enabled_by_default", 1, "help", r->help ? r->help : "",
                  "needs", "params");
  }
  json_object_set_new(
      o, "plugin", r->plugin ? json_string(r->plugin->desc.name) : json_null());
  json_object_set_new(o, "severity", json_string(fl_severity_name(r->level)));
  char uri[8192];
  json_object_set_new(o, "docs",
                      fl_cli_help_uri(base, local, r->id, uri, sizeof uri)
                          ? json_string(uri)
                          : json_null());
  json_t *ex = json_array();
  examples(r, append_line, ex);
  json_object_set_new(o, "example", ex);
  return o;
}

/* ---- the command --------------------------------------------------------
 */

/* Indexes of the rules @q names (a rule id, or a plugin name: all its
 * rules) into @sel; their count. */
static size_t select_rules(const xlist *l, const char *q, size_t *sel) {
  size_t n = 0;
  for (size_t i = 0; i < l->n; i++)
    if (strcmp(l->v[i].id, q) == 0)
      sel[n++] = i;
  if (n || strchr(q, '.'))
    return n;
  size_t len = strlen(q);
  for (size_t i = 0; i < l->n; i++)
    if (strncmp(l->v[i].id, q, len) == 0 && l->v[i].id[len] == '.')
      sel[n++] = i;
  return n;
}

int fl_cli_explain(int argc, char **argv) {
  fl_cli_opts o;
  int rc = fl_cli_parse(argc, argv, &o);
  if (rc != 0) {
    fl_cli_opts_free(&o);
    return rc < 0 ? 0 : rc;
  }
  if (!o.n_inputs) {
    fl_cli_opts_free(&o);
    return fl_cli_usage_error("explain: which rule? (fabriclint explain "
                              "RULE..., e.g. rail-alignment.swapped; "
                              "fabriclint rules lists them)%s",
                              "");
  }
  fl_host h;
  fl_outfile out = {0};
  xlist l = {0};
  size_t *sel = NULL, n_sel = 0;
  rc = fl_cli_load_plugins(&o, &h);
  if (rc == 0 && all_rules(&h, &l) != 0)
    rc = fl_cli_usage_error("out of memory%s", "");
  if (rc == 0 && !(sel = calloc(l.n * o.n_inputs + 1, sizeof *sel)))
    rc = fl_cli_usage_error("out of memory%s", "");
  for (size_t i = 0; rc == 0 && i < o.n_inputs; i++) {
    size_t k = select_rules(&l, o.inputs[i], sel + n_sel);
    if (!k)
      rc = unknown_rule(&l, o.inputs[i]);
    n_sel += k;
  }
  char base[4096] = "", local[4096] = "";
  if (rc == 0)
    rc = fl_cli_docs_base(base, sizeof base, local, sizeof local);
  if (rc == 0)
    rc = fl_cli_open_output(&o, &out);
  if (rc == 0 && o.out_format == FL_OUT_JSON) {
    json_t *arr = json_array();
    for (size_t i = 0; i < n_sel; i++)
      json_array_append_new(arr, explain_json(&l.v[sel[i]], base, local));
    json_t *root = json_pack("{s:{s:s,s:s},s:o}", "tool", "name", "fabriclint",
                             "version", FL_VERSION, "rules", arr);
    json_dumpf(root, out.f, JSON_INDENT(2));
    fputc('\n', out.f);
    json_decref(root);
  } else if (rc == 0) {
    for (size_t i = 0; i < n_sel; i++) {
      if (i)
        fputs("\n----\n\n", out.f);
      explain_text(out.f, &l.v[sel[i]], base, local);
    }
  }
  rc = fl_cli_close_output(&out, rc);
  free(sel);
  free(l.v);
  fl_host_free(&h);
  fl_cli_opts_free(&o);
  return rc;
}
