/* SPDX-License-Identifier: MIT */
/*
 * core/cli/cli_sweep.c — `fabriclint sweep [OPTIONS] --vary OPTION=V1,... --
 * KIND [GEN OPTIONS]`: designs side by side over generator parameters,
 * the Pareto front marked (issue 34 §3; docs/cli.md "sweep").
 *
 * Each combination of the --vary values is one design: `gen KIND` with the
 * GEN OPTIONS and each varied option appended (a later option wins in gen's
 * parser, so a varied option overrides one given after --), written to a
 * temporary design XML and evaluated as compare evaluates a side
 * (fl_cmp_eval(): the same rules, the capacity and domain summaries, the
 * bill of materials priced by --catalogue, the collectives of --workload).
 * Every figure comes from those documents; sweep only tabulates them.
 *
 * The Pareto front: objectives are the figures every design has — price
 * and watts (lower is better; only when every design has them), the HCAs
 * (higher: a sweep over SUs trades size for cost, and a larger cluster is
 * not dominated by a smaller one for costing more), eBB and each
 * collective's busbw (higher), the most servers one failure-domain value
 * takes off the fabric (lower). A design is on the front when no
 * other is at least as good in every objective and better in one.
 *
 * Caps: 64 designs (the product of the value counts), 8 --vary options, 16
 * values each. Exit codes: 0, 2 (usage, a design gen refuses, a bad
 * catalogue or workload), 3 (a plugin failed).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "cli/cli.h"
#include "cli/cli_bom.h"
#include "cli/cli_common.h"
#include "cli/cli_compare.h"
#include "cli/cli_sweep_plot.h"
#include "io/write_common.h"

#define SWEEP_MAX_VARY    8
#define SWEEP_MAX_VALUES  16
#define SWEEP_MAX_DESIGNS 64

enum { SW_TEXT = 1, SW_CSV, SW_JSON, SW_SVG };

typedef struct vary {
  char name[64];                  /* the gen option, without "--" */
  char *values[SWEEP_MAX_VALUES]; /* owned */
  size_t n;
} vary;

typedef struct sweep_args {
  int format;
  vary v[SWEEP_MAX_VARY];
  size_t n_vary;
  const char *catalogue, *workload;
} sweep_args;

/* --vary OPTION=V1,V2,...: 0 or the exit code (message printed). */
static int add_vary(sweep_args *a, const char *arg) {
  const char *eq = strchr(arg, '=');
  if (a->n_vary == SWEEP_MAX_VARY)
    return fl_cli_usage_errorf("--vary: at most %d options", SWEEP_MAX_VARY);
  if (!eq || eq == arg || !eq[1] || (size_t)(eq - arg) >= sizeof a->v[0].name)
    return fl_cli_usage_errorf("--vary: expected OPTION=V1,V2,... (a gen "
                               "option and its values), got '%s'",
                               arg);
  vary *v = &a->v[a->n_vary];
  const char *name = arg[0] == '-' && arg[1] == '-' ? arg + 2 : arg;
  snprintf(v->name, sizeof v->name, "%.*s", (int)(eq - name), name);
  for (size_t i = 0; i < a->n_vary; i++)
    if (strcmp(a->v[i].name, v->name) == 0)
      return fl_cli_usage_errorf("--vary %s given twice", v->name);
  /* values split at commas; "\\," is a comma inside a value (hca-map,
   * a 3-tier oversubscription "2:1,1:1") */
  char buf[512];
  size_t bl = 0;
  for (const char *p = eq + 1;; p++) {
    if (*p == '\\' && p[1] == ',') {
      if (bl + 1 < sizeof buf)
        buf[bl++] = ',';
      p++;
      continue;
    }
    if (*p && *p != ',') {
      if (bl + 1 >= sizeof buf)
        return fl_cli_usage_errorf("--vary %s: a value longer than %zu bytes",
                                   v->name, sizeof buf - 1);
      buf[bl++] = *p;
      continue;
    }
    buf[bl] = '\0';
    if (!bl)
      return fl_cli_usage_errorf("--vary %s: an empty value in '%s'", v->name,
                                 eq + 1);
    for (size_t j = 0; j < v->n; j++)
      if (strcmp(v->values[j], buf) == 0)
        return fl_cli_usage_errorf("--vary %s: the value '%s' given twice",
                                   v->name, buf);
    if (v->n == SWEEP_MAX_VALUES)
      return fl_cli_usage_errorf("--vary %s: at most %d values", v->name,
                                 SWEEP_MAX_VALUES);
    if (!(v->values[v->n] = strdup(buf)))
      return FL_EXIT_USAGE;
    v->n++;
    bl = 0;
    if (!*p)
      break;
  }
  a->n_vary++;
  return 0;
}

static int sweep_option(void *ctx, const fl_cli_item *it, int *rc) {
  sweep_args *a = ctx;
  const char *v = it->value;
  *rc = 0;
  switch (it->opt->id) {
  case FL_OPT_FORMAT:
    a->format = !strcmp(v, "text")   ? SW_TEXT
                : !strcmp(v, "csv")  ? SW_CSV
                : !strcmp(v, "json") ? SW_JSON
                : !strcmp(v, "svg")  ? SW_SVG
                                     : 0;
    if (!a->format)
      *rc = fl_cli_usage_error("--format: expected text, csv, json or svg, "
                               "got '%s'",
                               v);
    return 1;
  case FL_OPT_VARY:
    *rc = add_vary(a, v);
    return 1;
  case FL_OPT_CATALOGUE:
    a->catalogue = v;
    return 1;
  case FL_OPT_WORKLOAD:
    a->workload = v;
    return 1;
  default:
    return 0;
  }
}

/* Whether argument @arg is option @name, alone or as "NAME=VALUE". */
static int names_option(const char *arg, const char *name) {
  size_t l = strlen(name);
  return strncmp(arg, name, l) == 0 && (arg[l] == '\0' || arg[l] == '=');
}

/* The generator's options after -- (and the --vary options) may not
 * choose what sweep sets or reads: the output (-o, --output), its format,
 * or --dry-run; nor the networks gen writes beside the plan
 * (--storage-nodes, --inband-mgmt: plans of their own, which sweep would
 * not evaluate, every design then the same). 0 or exit 2 (message
 * printed). */
static int gen_args_ok(const fl_cli_opts *o, const sweep_args *a) {
  static const char *const SET[] = {"-o", "--output", "--format", "--dry-run"};
  static const char *const NETS[] = {"--storage-nodes", "--inband-mgmt"};
  for (size_t i = 0; i < o->n_inputs; i++) {
    for (size_t k = 0; k < sizeof SET / sizeof *SET; k++)
      if (names_option(o->inputs[i], SET[k]))
        return fl_cli_usage_errorf(
            "sweep writes each design itself: '%s' does not "
            "belong among the generator's options after --",
            o->inputs[i]);
    for (size_t k = 0; k < sizeof NETS / sizeof *NETS; k++)
      if (names_option(o->inputs[i], NETS[k]))
        return fl_cli_usage_errorf(
            "sweep evaluates the compute fabric only: '%s' writes a plan "
            "of its own beside it, which sweep would not read (gen -o "
            "FILE, then bom or compare on FILE.storage.xml, "
            "FILE.inband.xml)",
            NETS[k]);
  }
  /* --vary names an option without its dashes: the same two lists */
  for (size_t i = 0; i < a->n_vary; i++) {
    const char *n = a->v[i].name;
    for (size_t k = 0; k < sizeof SET / sizeof *SET; k++)
      if (strcmp(n, SET[k] + strspn(SET[k], "-")) == 0)
        return fl_cli_usage_errorf("--vary %s: sweep writes each design "
                                   "itself, in design XML",
                                   n);
    for (size_t k = 0; k < sizeof NETS / sizeof *NETS; k++)
      if (strcmp(n, NETS[k] + strspn(NETS[k], "-")) == 0)
        return fl_cli_usage_errorf(
            "--vary %s: sweep evaluates the compute fabric only; the %s "
            "network is a plan of its own (gen -o FILE), every design "
            "would be the same",
            n, n[0] == 's' ? "storage" : "in-band");
  }
  return 0;
}

/* ---- one design ---------------------------------------------------------- */

/* Design @k's value index of vary @i (mixed radix, the last --vary fastest). */
static size_t pick(const sweep_args *a, size_t k, size_t i) {
  for (size_t j = a->n_vary; j-- > i + 1;)
    k /= a->v[j].n;
  return k % a->v[i].n;
}

/* Generate design @k into @path: `gen` with the operands after -- and the
 * varied options. 0 or gen's exit code (its message printed). */
static int generate(const fl_cli_opts *o, const sweep_args *a, size_t k,
                    const char *path) {
  size_t n = 1 + o->n_inputs + 2 * a->n_vary + 2;
  char **argv = calloc(n + 1, sizeof *argv);
  char(*opt)[72] = calloc(a->n_vary + 1, sizeof *opt);
  if (!argv || !opt) {
    free(argv), free(opt);
    return FL_EXIT_USAGE;
  }
  size_t c = 0;
  argv[c++] = "gen";
  for (size_t i = 0; i < o->n_inputs; i++)
    argv[c++] = (char *)o->inputs[i];
  for (size_t i = 0; i < a->n_vary; i++) {
    snprintf(opt[i], sizeof opt[i], "--%s", a->v[i].name);
    argv[c++] = opt[i];
    argv[c++] = a->v[i].values[pick(a, k, i)];
  }
  argv[c++] = "-o";
  argv[c++] = (char *)path;
  int rc = fl_cli_gen((int)c, argv);
  free(argv), free(opt);
  return rc;
}

/* "oversubscription=2:1 sus=4": design @k's varied values. */
static void label_of(const sweep_args *a, size_t k, char *buf, size_t size) {
  size_t off = 0;
  buf[0] = '\0';
  for (size_t i = 0; i < a->n_vary && off < size; i++)
    off += (size_t)snprintf(buf + off, size - off, "%s%s=%s", i ? " " : "",
                            a->v[i].name, a->v[i].values[pick(a, k, i)]);
}

/* ---- figures ------------------------------------------------------------- */

/* The figures of one design, from its side document. NAN: not known. */
typedef struct figs {
  double switches, cables, hosts, ebb, worst_off, price, watts;
  const char *worst_key, *worst_value; /* borrowed from the document */
  double busbw[16];
  size_t n_busbw;
} figs;

static double num_or_nan(const json_t *v) {
  return json_is_number(v) ? json_number_value(v) : NAN;
}

static void figures(const json_t *d, figs *f) {
  memset(f, 0, sizeof *f);
  const json_t *inv = json_object_get(d, "inventory");
  f->switches = num_or_nan(json_object_get(inv, "switches"));
  f->cables = num_or_nan(json_object_get(inv, "cables"));
  f->hosts = num_or_nan(json_object_get(inv, "cas"));
  f->ebb = num_or_nan(json_object_get(json_object_get(d, "capacity"), "ebb"));
  f->price = num_or_nan(json_object_get(json_object_get(d, "cost"), "price"));
  f->watts = num_or_nan(json_object_get(json_object_get(d, "cost"), "watts"));
  f->worst_off = NAN;
  f->worst_key = f->worst_value = NULL;
  const char *k;
  json_t *v;
  json_object_foreach(json_object_get(d, "domain_failures"), k, v) {
    double off = num_or_nan(json_object_get(v, "servers_off"));
    if (isnan(f->worst_off) || off > f->worst_off) {
      f->worst_off = off;
      f->worst_key = k;
      f->worst_value = json_string_value(json_object_get(v, "worst"));
    }
  }
  size_t i;
  json_array_foreach(
      json_object_get(json_object_get(d, "workload"), "collectives"), i, v) {
    if (i < sizeof f->busbw / sizeof *f->busbw) {
      f->busbw[i] = num_or_nan(json_object_get(v, "busbw_GBps"));
      f->n_busbw = i + 1;
    }
  }
}

/* Objective @j of @f, signed so that larger is better; its count in *@n.
 * Price and watts only when @cost (every design has them). */
static size_t objectives(const figs *f, int cost, double *out) {
  size_t n = 0;
  if (cost) {
    out[n++] = -f->price;
    out[n++] = -f->watts;
  }
  out[n++] = -f->switches; /* without a catalogue, what the plan buys */
  out[n++] = -f->cables;
  out[n++] = f->hosts; /* a larger cluster is not worse for costing more */
  out[n++] = f->ebb;
  out[n++] = -f->worst_off;
  for (size_t i = 0; i < f->n_busbw; i++)
    out[n++] = f->busbw[i];
  return n;
}

/* 1 when design @x is dominated by one of @f (@n): another at least as good
 * in every objective known for both and better in one. */
static int dominated(const figs *f, size_t n, size_t x, int cost) {
  double ox[40], oy[40];
  size_t m = objectives(&f[x], cost, ox);
  for (size_t y = 0; y < n; y++) {
    if (y == x)
      continue;
    objectives(&f[y], cost, oy);
    int worse = 0, better = 0;
    for (size_t j = 0; j < m; j++) {
      if (isnan(ox[j]) || isnan(oy[j]))
        continue;
      worse |= oy[j] < ox[j] - 1e-9;
      better |= oy[j] > ox[j] + 1e-9;
    }
    if (better && !worse)
      return 1;
  }
  return 0;
}

/* ---- output -------------------------------------------------------------- */

static void cell(FILE *out, int csv, double v, int width) {
  char b[32];
  if (isnan(v))
    snprintf(b, sizeof b, "%s", csv ? "" : "-");
  else if (fabs(v - rint(v)) < 1e-9 && fabs(v) < 1e15)
    snprintf(b, sizeof b, "%.0f", v);
  else /* the table rounds; CSV keeps what the JSON has */
    snprintf(b, sizeof b, csv ? "%.12g" : "%.4g", v);
  if (csv)
    fprintf(out, ",%s", b);
  else
    fprintf(out, " %*s", width, b);
}

static void write_table(FILE *out, const sweep_args *a, const figs *f,
                        const int *front, size_t n, int csv,
                        const json_t *const *docs) {
  const json_t *colls =
      json_object_get(json_object_get(docs[0], "workload"), "collectives");
  char lab[512];
  if (csv) {
    fputs("design", out);
    for (size_t i = 0; i < a->n_vary; i++) {
      fputc(',', out);
      fl_wr_csv_cell(out, a->v[i].name);
    }
    fputs(",switches,cables,hcas,ebb,worst_domain_servers_off,worst_domain,"
          "price,watts",
          out);
    for (size_t i = 0; i < f[0].n_busbw; i++) {
      char h[320];
      snprintf(h, sizeof h, "busbw_GBps %s",
               json_string_value(
                   json_object_get(json_array_get(colls, i), "label")));
      fputc(',', out);
      fl_wr_csv_cell(out, h);
    }
    fputs(",pareto\r\n", out);
  } else {
    fprintf(out, "%-32s %8s %8s %6s %6s %9s %10s %10s", "design", "switches",
            "cables", "HCAs", "eBB", "worst-off", "price", "watts");
    for (size_t i = 0; i < f[0].n_busbw; i++) {
      char h[32];
      snprintf(h, sizeof h, "busbw#%zu", i + 1);
      fprintf(out, " %10s", h);
    }
    fputs("  pareto\n", out);
  }
  for (size_t k = 0; k < n; k++) {
    label_of(a, k, lab, sizeof lab);
    if (csv) {
      fprintf(out, "%zu", k + 1);
      for (size_t i = 0; i < a->n_vary; i++) {
        fputc(',', out);
        fl_wr_csv_cell(out, a->v[i].values[pick(a, k, i)]);
      }
    } else {
      fprintf(out, "%-32s", lab);
    }
    cell(out, csv, f[k].switches, 8);
    cell(out, csv, f[k].cables, 8);
    cell(out, csv, f[k].hosts, 6);
    cell(out, csv, f[k].ebb, 6);
    cell(out, csv, f[k].worst_off, 9);
    if (csv) {
      char w[600] = "";
      if (f[k].worst_key)
        snprintf(w, sizeof w, "%s=%s", f[k].worst_key,
                 f[k].worst_value ? f[k].worst_value : "");
      fputc(',', out);
      fl_wr_csv_cell(out, w);
    }
    cell(out, csv, f[k].price, 10);
    cell(out, csv, f[k].watts, 10);
    for (size_t i = 0; i < f[k].n_busbw; i++)
      cell(out, csv, f[k].busbw[i], 10);
    fprintf(out, csv ? ",%s\r\n" : "  %s\n", front[k] ? "yes" : "no");
  }
  if (!csv && f[0].n_busbw) {
    fputs("busbw (GB/s):", out);
    for (size_t i = 0; i < f[0].n_busbw; i++)
      fprintf(
          out, " #%zu %s%s", i + 1,
          json_string_value(json_object_get(json_array_get(colls, i), "label")),
          i + 1 < f[0].n_busbw ? "," : "");
    fputc('\n', out);
  }
}

static int write_json(FILE *out, const sweep_args *a, const int *front,
                      size_t n, json_t *const *docs) {
  json_t *arr = json_array();
  for (size_t k = 0; arr && k < n; k++) {
    json_t *vals = json_object();
    for (size_t i = 0; vals && i < a->n_vary; i++)
      json_object_set_new(vals, a->v[i].name,
                          json_string(a->v[i].values[pick(a, k, i)]));
    json_t *o = json_pack("{s:o,s:b,s:O}", "vary", vals, "pareto", front[k],
                          "design", docs[k]);
    if (!o || json_array_append_new(arr, o)) {
      json_decref(arr);
      return -1;
    }
  }
  json_t *root = json_pack("{s:i,s:o}", "fabriclint_sweep", 1, "designs", arr);
  int rc = !root || json_dumpf(root, out,
                               JSON_INDENT(2) | JSON_SORT_KEYS |
                                   JSON_REAL_PRECISION(12)) != 0;
  fputc('\n', out);
  json_decref(root);
  return rc ? -1 : 0;
}

/* The plot (--format svg): x the price when every design has one (@cost),
 * else the switches; y the first collective's busbw with --workload, else
 * the eBB. 0, -1 on a write error, or exit 2 when a design lacks the y
 * figure (message printed). */
static int write_svg(FILE *out, const sweep_args *a, const figs *f,
                     const int *front, size_t n, int cost,
                     const json_t *const *docs) {
  fl_sweep_point pts[SWEEP_MAX_DESIGNS];
  char labels[SWEEP_MAX_DESIGNS][160];
  int busbw = f[0].n_busbw > 0;
  for (size_t k = 0; k < n; k++) {
    label_of(a, k, labels[k], sizeof labels[k]);
    pts[k] =
        (fl_sweep_point){cost ? f[k].price : f[k].switches,
                         busbw ? f[k].busbw[0] : f[k].ebb, labels[k], front[k]};
    if (!isfinite(pts[k].x) || !isfinite(pts[k].y))
      return fl_cli_usage_errorf(
          "--format svg: design %zu (%s) has no %s to plot (%s)", k + 1,
          labels[k], busbw ? "busbw" : "eBB",
          busbw ? "its first collective crosses no fabric"
                : "ecmp-balance.summary did not run: plugin not loaded or "
                  "rule disabled");
  }
  char title[256], yname[320];
  snprintf(title, sizeof title,
           "fabriclint sweep: %zu designs, the Pareto front marked", n);
  if (busbw)
    snprintf(
        yname, sizeof yname, "busbw (GB/s), %s",
        json_string_value(json_object_get(
            json_array_get(json_object_get(json_object_get(docs[0], "workload"),
                                           "collectives"),
                           0),
            "label")));
  else
    snprintf(yname, sizeof yname, "eBB (effective bisection bandwidth)");
  fl_sweep_plot pl = {pts, n, title,
                      cost ? "price (catalogue units)" : "switches", yname};
  return fl_sweep_plot_svg(out, &pl) ? -1 : 0;
}

/* ---- the command --------------------------------------------------------- */

static size_t designs(const sweep_args *a) {
  size_t n = 1;
  for (size_t i = 0; i < a->n_vary; i++)
    n *= a->v[i].n;
  return n;
}

static int run(const fl_cli_opts *o, const sweep_args *a, const fl_bom_cat *cat,
               const fl_workload *wl, size_t n, json_t **docs) {
  const char *dir = getenv("TMPDIR");
  char path[4096];
  snprintf(path, sizeof path, "%s/fabriclint-sweep-XXXXXX",
           dir && *dir ? dir : "/tmp");
  int fd = mkstemp(path);
  if (fd < 0) {
    fprintf(stderr, "fabriclint sweep: %s: cannot make a temporary file: %s\n",
            path, strerror(errno));
    return FL_EXIT_USAGE;
  }
  close(fd);
  int rc = 0;
  for (size_t k = 0; k < n && rc == 0; k++) {
    char lab[512];
    label_of(a, k, lab, sizeof lab);
    rc = generate(o, a, k, path);
    if (rc != 0)
      fprintf(stderr, "fabriclint sweep: design %zu (%s): gen refused it\n",
              k + 1, lab);
    if (rc == 0) {
      rc = fl_cmp_eval(o, path, lab, cat, wl, &docs[k]);
      if (rc == 0 && json_object_set_new(docs[k], "input", json_string(lab)))
        rc = FL_EXIT_USAGE;
    }
  }
  unlink(path);
  return rc;
}

int fl_cli_sweep(int argc, char **argv) {
  sweep_args a;
  memset(&a, 0, sizeof a);
  a.format = SW_TEXT;
  fl_cli_opts o;
  fl_bom_cat cat;
  memset(&cat, 0, sizeof cat);
  fl_workload wl;
  memset(&wl, 0, sizeof wl);
  json_t *docs[SWEEP_MAX_DESIGNS] = {0};
  figs f[SWEEP_MAX_DESIGNS];
  int front[SWEEP_MAX_DESIGNS];
  fl_outfile out = {0};
  size_t n = 0;
  int rc = fl_cli_parse_ext(argc, argv, &o, sweep_option, &a);
  if (rc != 0) {
    rc = rc < 0 ? 0 : rc;
    goto done;
  }
  if (o.n_inputs == 0)
    rc = fl_cli_usage_error("sweep needs the generator after --: -- KIND "
                            "[GEN OPTIONS] (e.g. -- rail-su --sus 4)%s",
                            "");
  else if (a.n_vary == 0)
    rc = fl_cli_usage_error("sweep needs --vary OPTION=V1,V2,... (a gen "
                            "option and its values)%s",
                            "");
  else if ((n = designs(&a)) > SWEEP_MAX_DESIGNS)
    rc = fl_cli_usage_errorf("--vary: %zu designs, at most %d (fewer values)",
                             n, SWEEP_MAX_DESIGNS);
  if (rc == 0)
    rc = gen_args_ok(&o, &a);
  if (rc == 0 && a.catalogue)
    rc = fl_cli_check_output_other(&o, a.catalogue, "the catalogue");
  if (rc == 0 && a.workload)
    rc = fl_cli_check_output_other(&o, a.workload, "the workload");
  if (rc == 0 && a.catalogue) {
    char msg[512];
    if (fl_bom_cat_load(a.catalogue, &cat, msg, sizeof msg) != 0) {
      fprintf(stderr, "fabriclint sweep: %s\n", msg);
      rc = FL_EXIT_USAGE;
    }
  }
  if (rc == 0 && a.workload)
    rc = fl_cmp_workload_load(a.workload, &wl);
  if (rc == 0 && wl.n_colls > sizeof f[0].busbw / sizeof *f[0].busbw)
    rc = fl_cli_usage_errorf(
        "--workload %s: %zu collectives, sweep tabulates at most "
        "%zu (compare or perf model more)",
        a.workload, wl.n_colls, sizeof f[0].busbw / sizeof *f[0].busbw);
  if (rc == 0)
    rc = run(&o, &a, a.catalogue ? &cat : NULL, a.workload ? &wl : NULL, n,
             docs);
  if (rc != 0)
    goto done;
  int cost = 1;
  for (size_t k = 0; k < n; k++) {
    figures(docs[k], &f[k]);
    cost &= !isnan(f[k].price) && !isnan(f[k].watts);
  }
  if (!cost && a.catalogue)
    fprintf(stderr, "fabriclint sweep: note: price and watts are not judged "
                    "for the Pareto front: a design has a bill-of-materials "
                    "row the catalogue does not price or power\n");
  for (size_t k = 0; k < n; k++)
    front[k] = !dominated(f, n, k, cost);
  rc = fl_cli_open_output(&o, &out);
  if (rc == 0 && a.format == SW_JSON) {
    if (write_json(out.f, &a, front, n, docs))
      rc = FL_EXIT_USAGE;
  } else if (rc == 0 && a.format == SW_SVG) {
    int w =
        write_svg(out.f, &a, f, front, n, cost, (const json_t *const *)docs);
    rc = w < 0 ? FL_EXIT_USAGE : w;
  } else if (rc == 0) {
    write_table(out.f, &a, f, front, n, a.format == SW_CSV,
                (const json_t *const *)docs);
  }
  rc = fl_cli_close_output(&out, rc);
done:
  for (size_t k = 0; k < SWEEP_MAX_DESIGNS; k++)
    json_decref(docs[k]);
  /* every entry: a --vary refused half-way keeps the values read so far
   * in the entry past n_vary */
  for (size_t i = 0; i < SWEEP_MAX_VARY; i++)
    for (size_t j = 0; j < a.v[i].n; j++)
      free(a.v[i].values[j]);
  fl_bom_cat_free(&cat);
  fl_workload_free(&wl);
  fl_cli_opts_free(&o);
  return rc;
}
