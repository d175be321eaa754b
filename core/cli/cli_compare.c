/* SPDX-License-Identifier: MIT */
/*
 * core/cli/cli_compare.c — `fabriclint compare [OPTIONS] BASE HEAD`: what a
 * design change does (issue 34 §1; docs/cli.md "compare").
 *
 * BASE and HEAD are loaded as `check` loads an input (any format, a folder
 * of captures; --input-format, --node-name-map, ... apply to both), each
 * with the inputs of --with (annotations shared by both sides). The same
 * plugins, policy, --rules and --param run on both, each side with its own
 * host (a plugin's state never leaks from one side into the other), plus
 * ecmp-balance.summary for the capacity figures (its finding is read, not
 * compared). The findings are settled as check settles them (waivers, one
 * finding per cause) and matched by fingerprint (cli_compare_model.c).
 *
 * Exit codes, as check: 0 no --fail-on policy failed (or --exit-zero); 1 a
 * policy failed; 2 usage or input error, or a policy that cannot be judged
 * (no capacity figures); 3 a plugin failed to load or a rule could not run.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cli_bom.h"
#include "cli/cli_common.h"
#include "cli/cli_compare.h"
#include "cli/cli_inputs.h"
#include "fabriclint/fabric.h"
#include "host/host.h"
#include "report/picture.h"

#define CMP_MAX_POLICIES 16

enum { CMP_TEXT = 1, CMP_JSON, CMP_MD, CMP_HTML };

typedef struct cmp_args {
  int format;
  fl_cmp_policy pol[CMP_MAX_POLICIES];
  size_t n_pol;
  const char *patterns; /* --patterns, or NULL: bisect */
  const char **with;    /* --with FILE: loaded into both sides */
  size_t n_with;
  const char *catalogue; /* --catalogue FILE: cost and power of each side */
  fl_bom_cat cat;        /* loaded from it */
  const char *workload;  /* --workload FILE: collectives on each side */
  fl_workload wl;        /* loaded from it */
} cmp_args;

/* ---- --fail-on -------------------------------------------------------------
 */

int fl_cmp_policy_parse(const char *s, fl_cmp_policy *p, char *msg,
                        size_t size) {
  static const struct {
    const char *name;
    int kind, tol;
  } K[] = {{"never", FL_CMP_FAIL_NEVER, 0},
           {"new-error", FL_CMP_FAIL_NEW_ERROR, 0},
           {"new-warning", FL_CMP_FAIL_NEW_WARNING, 0},
           {"oversubscription-rise", FL_CMP_FAIL_OVERSUB_RISE, 1},
           {"ebb-drop", FL_CMP_FAIL_EBB_DROP, 1},
           {"busbw-drop", FL_CMP_FAIL_BUSBW_DROP, 1},
           {"cost-rise", FL_CMP_FAIL_COST_RISE, 1},
           {"power-rise", FL_CMP_FAIL_POWER_RISE, 1},
           {"step-rise", FL_CMP_FAIL_STEP_RISE, 1}};
  memset(p, 0, sizeof *p);
  const char *eq = strchr(s, '=');
  size_t len = eq ? (size_t)(eq - s) : strlen(s);
  for (size_t i = 0; i < sizeof K / sizeof *K; i++) {
    if (strlen(K[i].name) != len || strncmp(K[i].name, s, len) != 0)
      continue;
    if (eq && !K[i].tol)
      break;
    if (eq) {
      char *end = NULL;
      errno = 0;
      p->tolerance = strtod(eq + 1, &end);
      if (!eq[1] || errno || *end || !(p->tolerance >= 0) ||
          p->tolerance > 1e9) {
        snprintf(msg, size,
                 "--fail-on %.*s=X: expected a number X >= 0, got '%s'",
                 (int)len, s, eq + 1);
        return -1;
      }
    }
    p->kind = K[i].kind;
    snprintf(p->text, sizeof p->text, "%s", s);
    return 0;
  }
  snprintf(msg, size,
           "--fail-on: expected new-error, new-warning, "
           "oversubscription-rise[=X], ebb-drop[=X], busbw-drop[=X], "
           "cost-rise[=X], power-rise[=X], step-rise[=X] or never, got '%s'",
           s);
  return -1;
}

static long long new_count(const json_t *m, const char *sev) {
  return (long long)json_integer_value(json_object_get(
      json_object_get(json_object_get(json_object_get(m, "findings"), "counts"),
                      "new"),
      sev));
}

/* The first new finding of severity at least @min, "rule: message". */
static void first_new(const json_t *m, int min_warning, char *buf,
                      size_t size) {
  size_t i;
  json_t *f;
  buf[0] = '\0';
  json_array_foreach(json_object_get(json_object_get(m, "findings"), "new"), i,
                     f) {
    const char *sev = json_string_value(json_object_get(f, "severity"));
    if (strcmp(sev, "error") == 0 ||
        (min_warning && strcmp(sev, "warning") == 0)) {
      snprintf(buf, size, "; first: %s: %s",
               json_string_value(json_object_get(f, "rule")),
               json_string_value(json_object_get(f, "message")));
      return;
    }
  }
}

/* The capacity object of side @side ("base", "head"), or NULL. */
static const json_t *cap_of(const json_t *m, const char *side) {
  const json_t *c = json_object_get(json_object_get(m, side), "capacity");
  return json_is_object(c) ? c : NULL;
}

/* oversubscription-rise=X: the tiers present on both sides; the largest
 * rise is judged. 1 failed, 0 held, 2 cannot be judged. */
static int judge_oversub(const json_t *m, double tol, char *why, size_t size) {
  const json_t *b = cap_of(m, "base"), *h = cap_of(m, "head");
  if (!b || !h) {
    snprintf(why, size,
             "no capacity figures (ecmp-balance.summary did not "
             "run: plugin not loaded or rule disabled)");
    return 2;
  }
  const char *k, *worst = NULL;
  json_t *t;
  double rise = 0, wb = 0, wh = 0;
  json_object_foreach(json_object_get(h, "tiers"), k, t) {
    const json_t *vb = json_object_get(
        json_object_get(json_object_get(b, "tiers"), k), "oversubscription");
    const json_t *vh = json_object_get(t, "oversubscription");
    if (!json_is_number(vb) || !json_is_number(vh))
      continue;
    double r = json_number_value(vh) - json_number_value(vb);
    if (!worst || r > rise) {
      rise = r, worst = k;
      wb = json_number_value(vb), wh = json_number_value(vh);
    }
  }
  if (!worst) {
    snprintf(why, size, "no tier with an oversubscription on both sides");
    return 0;
  }
  int failed = rise > tol + 1e-9;
  snprintf(why, size, "tier %s %.4g:1 -> %.4g:1 (%+.4g, %s %g)", worst, wb, wh,
           rise, failed ? "more than" : "within", tol);
  return failed;
}

/* ebb-drop=X: the eBB of BASE minus HEAD's. 1 failed, 0 held, 2 cannot be
 * judged. */
static int judge_ebb(const json_t *m, double tol, char *why, size_t size) {
  const json_t *b = cap_of(m, "base"), *h = cap_of(m, "head");
  const json_t *eb = b ? json_object_get(b, "ebb") : NULL,
               *eh = h ? json_object_get(h, "ebb") : NULL;
  if (!json_is_number(eb) || !json_is_number(eh)) {
    snprintf(why, size,
             "no eBB figure on both sides (ecmp-balance.summary "
             "did not run, or --patterns none)");
    return 2;
  }
  double drop = json_number_value(eb) - json_number_value(eh);
  int failed = drop > tol + 1e-9;
  snprintf(why, size, "eBB %.4g -> %.4g (%+.4g, %s %g)", json_number_value(eb),
           json_number_value(eh), -drop, failed ? "falls more than" : "within",
           tol);
  return failed;
}

/* cost-rise=X / power-rise=X: the bill of materials' total @key ("price",
 * "watts") of HEAD against BASE's, as a fraction of BASE's. 1 failed, 0
 * held, 2 cannot be judged (no --catalogue, or a total the catalogue
 * leaves unknown on either side: a gate that cannot see the cost does not
 * pass). */
static int judge_cost(const json_t *m, const char *key, double tol, char *why,
                      size_t size) {
  const json_t *b = json_object_get(
                   json_object_get(json_object_get(m, "base"), "cost"), key),
               *h = json_object_get(
                   json_object_get(json_object_get(m, "head"), "cost"), key);
  const char *what = strcmp(key, "price") == 0 ? "price" : "power";
  if (!json_is_number(b) || !json_is_number(h)) {
    snprintf(why, size,
             "no %s total on both sides (give --catalogue with a %s for "
             "every bill-of-materials row)",
             what, strcmp(key, "price") == 0 ? "price" : "watts");
    return 2;
  }
  double vb = json_number_value(b), vh = json_number_value(h);
  double rise = vb > 0 ? (vh - vb) / vb : (vh > 0 ? INFINITY : 0);
  int failed = rise - tol > 1e-9;
  char pct[32];
  if (isinf(rise)) /* from nothing: no percentage */
    snprintf(pct, sizeof pct, "from 0");
  else
    snprintf(pct, sizeof pct, "%+.1f %%", 100 * rise);
  snprintf(why, size, "%s %.10g -> %.10g (%s; %s %g %%)", what, vb, vh, pct,
           failed ? "rises more than" : "within", 100 * tol);
  return failed;
}

int fl_cmp_judge(json_t *m, const fl_cmp_policy *ps, size_t n) {
  json_t *arr = json_array();
  if (!arr || json_object_set_new(m, "fail_on", arr))
    return -1;
  int worst = 0;
  for (size_t i = 0; i < n; i++) {
    char why[768] = "", first[512];
    int r = 0;
    long long e = new_count(m, "error"), w = new_count(m, "warning");
    switch (ps[i].kind) {
    case FL_CMP_FAIL_NEVER:
      snprintf(why, sizeof why, "never fails");
      break;
    case FL_CMP_FAIL_NEW_ERROR:
      r = e > 0;
      first_new(m, 0, first, sizeof first);
      snprintf(why, sizeof why, "%lld new error finding(s)%s", e, first);
      break;
    case FL_CMP_FAIL_NEW_WARNING:
      r = e + w > 0;
      first_new(m, 1, first, sizeof first);
      snprintf(why, sizeof why, "%lld new error or warning finding(s)%s", e + w,
               first);
      break;
    case FL_CMP_FAIL_OVERSUB_RISE:
      r = judge_oversub(m, ps[i].tolerance, why, sizeof why);
      break;
    case FL_CMP_FAIL_EBB_DROP:
      r = judge_ebb(m, ps[i].tolerance, why, sizeof why);
      break;
    case FL_CMP_FAIL_BUSBW_DROP:
      r = fl_cmp_judge_busbw(m, ps[i].tolerance, why, sizeof why);
      break;
    case FL_CMP_FAIL_COST_RISE:
      r = judge_cost(m, "price", ps[i].tolerance, why, sizeof why);
      break;
    case FL_CMP_FAIL_POWER_RISE:
      r = judge_cost(m, "watts", ps[i].tolerance, why, sizeof why);
      break;
    case FL_CMP_FAIL_STEP_RISE:
      r = fl_cmp_judge_step(m, ps[i].tolerance, why, sizeof why);
      break;
    }
    json_t *o =
        json_pack("{s:s,s:o,s:s}", "policy", ps[i].text, "failed",
                  r == 2 ? json_null() : json_boolean(r == 1), "why", why);
    if (!o || json_array_append_new(arr, o))
      return -1;
    worst = r == 2 || worst == 2 ? 2 : r > worst ? r : worst;
  }
  return worst;
}

/* ---- options ---------------------------------------------------------------
 */

static int add_policies(cmp_args *a, const char *v) {
  char *copy = strdup(v), *save = NULL;
  if (!copy)
    return FL_EXIT_USAGE;
  int rc = 0;
  for (char *t = strtok_r(copy, ",", &save); t && rc == 0;
       t = strtok_r(NULL, ",", &save)) {
    char msg[256];
    if (a->n_pol == CMP_MAX_POLICIES)
      rc = fl_cli_usage_error("--fail-on: at most 16 policies%s", "");
    else if (fl_cmp_policy_parse(t, &a->pol[a->n_pol], msg, sizeof msg) != 0)
      rc = fl_cli_usage_error("%s", msg);
    else
      a->n_pol++;
  }
  free(copy);
  return rc;
}

/* The options compare handles itself (fl_cli_extra_fn): 1 when handled. */
static int compare_option(void *ctx, const fl_cli_item *it, int *rc) {
  cmp_args *a = ctx;
  const char *v = it->value;
  *rc = 0;
  switch (it->opt->id) {
  case FL_OPT_FORMAT:
    a->format = !strcmp(v, "text")       ? CMP_TEXT
                : !strcmp(v, "json")     ? CMP_JSON
                : !strcmp(v, "markdown") ? CMP_MD
                : !strcmp(v, "html")     ? CMP_HTML
                                         : 0;
    if (!a->format)
      *rc = fl_cli_usage_error("--format: expected text, json, markdown or "
                               "html, got '%s'",
                               v);
    return 1;
  case FL_OPT_FAIL_ON:
    *rc = add_policies(a, v);
    return 1;
  case FL_OPT_SUMMARY_PATTERNS:
    a->patterns = v;
    return 1;
  case FL_OPT_CATALOGUE:
    a->catalogue = v;
    return 1;
  case FL_OPT_WORKLOAD:
    a->workload = v;
    return 1;
  case FL_OPT_WITH: {
    const char **w = realloc((void *)a->with, (a->n_with + 1) * sizeof *w);
    if (!w) {
      *rc = FL_EXIT_USAGE;
      return 1;
    }
    a->with = w;
    a->with[a->n_with++] = v;
    return 1;
  }
  default:
    return 0;
  }
}

/* ---- one side --------------------------------------------------------------
 */

typedef struct side {
  const char *input;
  fl_host host;
  fl_fabric *fab;
  fl_findings fs;
  fl_findings sums;       /* the summary findings (one per plane), moved out */
  fl_findings doms;       /* FL_CMP_DOMAINS_RULE's findings, moved out */
  int doms_ran;           /* 1: FL_CMP_DOMAINS_RULE ran */
  fl_findings lids;       /* FL_CMP_LIDS_RULE's figures, moved out */
  int lids_ran;           /* 1: FL_CMP_LIDS_RULE ran */
  int lids_extra;         /* 1: it ran for its figures only (not selected):
                             none of its findings is compared */
  fl_cmp_failure failure; /* from FL_CMP_SPOF_RULE's findings */
  int failure_known;      /* 1: FL_CMP_SPOF_RULE ran */
  int failed;             /* a rule could not run */
  json_t *workload;       /* --workload modelled on this side, or NULL */
  const char *name;       /* what messages call it (sweep: the design), or
                             NULL: @input */
} side;

/* Ask for the summary's eBB over @patterns only (default bisect: the other
 * patterns cost more and compare no better), unless --param sets them. */
static int summary_params(const fl_cli_opts *o, const cmp_args *a, fl_host *h) {
  if (!fl_host_find_param(h, FL_CMP_SUMMARY_RULE, "patterns"))
    return 0;
  for (size_t i = 0; i < o->n_params; i++)
    if (!strncmp(o->params[i], FL_CMP_SUMMARY_RULE ".patterns=",
                 sizeof FL_CMP_SUMMARY_RULE ".patterns=" - 1) ||
        !strncmp(o->params[i],
                 "ecmp-balance.patterns=", sizeof "ecmp-balance.patterns=" - 1))
      return 0;
  const char *p = a->patterns ? a->patterns : "bisect";
  if (!strcmp(p, "none"))
    p = "";
  return fl_host_add_param(h, FL_CMP_SUMMARY_RULE, "patterns", p) == FL_OK
             ? 0
             : FL_EXIT_USAGE;
}

/* Ask topology.lid-space for each subnet's LIDs as figures (figures=true),
 * when it is loaded and has that parameter: it counts them at the LMC check
 * takes (--param, the policy, a captured port LMC). */
static int lids_params(fl_host *h) {
  if (!fl_host_find_param(h, FL_CMP_LIDS_RULE, "figures"))
    return 0;
  return fl_host_add_param(h, FL_CMP_LIDS_RULE, "figures", "true") == FL_OK
             ? 0
             : FL_EXIT_USAGE;
}

/* 1 when finding @f is one of FL_CMP_LIDS_RULE's figures (evidence
 * "figures": true), not a finding about the fabric. */
static int lids_figure(const fl_finding_rec *f) {
  if (strcmp(f->rule, FL_CMP_LIDS_RULE) != 0 || !f->evidence)
    return 0;
  json_t *ev = json_loads(f->evidence, 0, NULL);
  int yes = json_is_true(json_object_get(ev, "figures"));
  json_decref(ev);
  return yes;
}

/* Run summary rule @id on @s when it is loaded, not disabled and not
 * among the rules the run selected (opt-in rules that compare reads, not
 * compares); *@ran (when not NULL) set when it ran. FL_OK or the host's
 * error in @err. */
static int run_summary(const fl_cli_opts *o, side *s, const char *id,
                       fl_error *err, int *ran) {
  const fl_rule_def *r = fl_host_find_rule(&s->host, id);
  if (!r || fl_host_rule_runs(&s->host, r, o->rules) ||
      !fl_host_rule_runs(&s->host, r, id))
    return FL_OK;
  fl_rule_run *more = NULL;
  size_t n_more = 0;
  int rc = fl_host_run_rules(&s->host, s->fab, id, &s->fs, &more, &n_more, err);
  s->failed |= n_more && more[0].failed;
  if (ran && n_more && !more[0].failed)
    *ran = 1;
  free(more);
  return rc;
}

/* Run the selected rules on @s, then the summaries (capacity, domain
 * failures) when loaded, not disabled and not run; move the summaries'
 * findings (one per plane, one per domain key) out of the list.
 * 0, FL_EXIT_USAGE or FL_EXIT_PLUGIN (message printed). */
static int run_side(const fl_cli_opts *o, side *s) {
  fl_error err;
  fl_error_clear(&err);
  fl_rule_run *runs = NULL;
  size_t n_run = 0;
  int rc = fl_host_run_rules(&s->host, s->fab, o->rules, &s->fs, &runs, &n_run,
                             &err);
  size_t n_main = n_run;
  for (size_t i = 0; i < n_run; i++) {
    s->failed |= runs[i].failed;
    s->failure_known |=
        !runs[i].failed && !strcmp(runs[i].rule->id, FL_CMP_SPOF_RULE);
    s->doms_ran |=
        !runs[i].failed && !strcmp(runs[i].rule->id, FL_CMP_DOMAINS_RULE);
    s->lids_ran |=
        !runs[i].failed && !strcmp(runs[i].rule->id, FL_CMP_LIDS_RULE);
  }
  if (rc == FL_OK)
    rc = run_summary(o, s, FL_CMP_SUMMARY_RULE, &err, NULL);
  if (rc == FL_OK)
    rc = run_summary(o, s, FL_CMP_DOMAINS_RULE, &err, &s->doms_ran);
  if (rc == FL_OK && !s->lids_ran) {
    rc = run_summary(o, s, FL_CMP_LIDS_RULE, &err, &s->lids_extra);
    s->lids_ran = s->lids_extra;
  }
  free(runs);
  if (s->failure_known && fl_cmp_failure_of(&s->fs, &s->failure) != 0)
    s->failure_known = 0; /* an evidence we cannot read: not known */
  if (o->rules && n_main == 0 && rc == FL_OK)
    return fl_cli_usage_error("--rules '%s' selects no loaded rule (see "
                              "fabriclint rules)",
                              o->rules);
  if (n_main == 0 && rc == FL_OK) /* a gate that checks nothing */
    return fl_cli_usage_error("no rule ran: no plugin is loaded, or the "
                              "policy disables every rule (see fabriclint "
                              "rules)%s",
                              "");
  if (rc == FL_EINVAL) { /* a user's parameter value */
    fl_cli_print_error(&err);
    return FL_EXIT_USAGE;
  }
  if (rc != FL_OK) {
    fl_cli_print_error(&err);
    s->failed = 1;
  }
  size_t j = 0;
  for (size_t i = 0; i < s->fs.n; i++) {
    const char *r = s->fs.v[i].rule;
    int lids = !strcmp(r, FL_CMP_LIDS_RULE) &&
               (s->lids_extra || lids_figure(&s->fs.v[i]));
    fl_findings *to = !strcmp(r, FL_CMP_SUMMARY_RULE)   ? &s->sums
                      : !strcmp(r, FL_CMP_DOMAINS_RULE) ? &s->doms
                      : lids                            ? &s->lids
                                                        : NULL;
    if (!to)
      s->fs.v[j++] = s->fs.v[i];
    else if (fl_findings_push(to, &s->fs.v[i]) != 0)
      fl_finding_rec_free(&s->fs.v[i]); /* out of memory: a figure less */
  }
  s->fs.n = j;
  return 0;
}

/* Load side @s (its operand and the --with inputs), its plugins, and run.
 * 0 or an exit code (message printed). */
static int do_side(const fl_cli_opts *o, const cmp_args *a, side *s) {
  fl_cli_opts one = *o;
  const char **in = calloc(a->n_with + 1, sizeof *in);
  if (!in)
    return FL_EXIT_USAGE;
  in[0] = s->input;
  for (size_t i = 0; i < a->n_with; i++)
    in[i + 1] = a->with[i];
  one.inputs = in;
  one.n_inputs = a->n_with + 1;
  one.input_plane = NULL;
  int rc = fl_cli_load_plugins(o, &s->host);
  if (rc == 0)
    rc = summary_params(o, a, &s->host);
  if (rc == 0)
    rc = lids_params(&s->host);
  if (rc == 0)
    rc = fl_cli_load_fabric(&one, &s->fab, NULL);
  free((void *)in);
  if (rc == 0 && fl_fabric_node_count(s->fab) == 0)
    rc = fl_cli_usage_error("%s describes no node: nothing to compare (an "
                            "empty capture or plan?)",
                            s->input);
  if (rc == 0)
    rc = run_side(o, s);
  if (rc == 0)
    rc = fl_cli_settle_findings(o, &s->fs);
  if (rc == 0 && a->workload)
    s->workload = fl_cmp_workload_json(o, &a->wl, s->fab,
                                       s->name ? s->name : s->input, &rc);
  return rc;
}

static void side_free(side *s) {
  fl_findings_free(&s->fs);
  fl_findings_free(&s->sums);
  fl_findings_free(&s->doms);
  fl_findings_free(&s->lids);
  json_decref(s->workload);
  fl_fabric_free(s->fab);
  fl_host_free(&s->host);
}

int fl_cmp_eval(const fl_cli_opts *o, const char *input, const char *name,
                const struct fl_bom_cat *cat, const fl_workload *wl,
                json_t **out) {
  cmp_args a;
  memset(&a, 0, sizeof a);
  if (wl) { /* borrowed: the copy is never freed */
    a.workload = wl->path;
    a.wl = *wl;
  }
  side s;
  memset(&s, 0, sizeof s);
  fl_host_init(&s.host);
  s.input = input;
  s.name = name;
  *out = NULL;
  int rc = do_side(o, &a, &s);
  fl_bom_total cost;
  if (rc == 0) {
    fl_cmp_side cs = {name ? name : s.input,
                      s.fab,
                      &s.fs,
                      &s.sums,
                      s.failure_known ? &s.failure : NULL,
                      NULL,
                      s.workload,
                      s.doms_ran ? &s.doms : NULL,
                      s.lids_ran ? &s.lids : NULL};
    if (cat && fl_bom_sum(s.fab, cat, &cost) == 0)
      cs.cost = &cost;
    *out = fl_cmp_side_json(&cs);
    if (!*out) {
      fprintf(stderr, "fabriclint: out of memory\n");
      rc = FL_EXIT_USAGE;
    } else if (s.failed) { /* a rule could not run: said on stderr */
      json_decref(*out);
      *out = NULL;
      rc = FL_EXIT_PLUGIN;
    }
  }
  side_free(&s);
  return rc;
}

/* ---- the command -----------------------------------------------------------
 */

/* The HTML page: each side's fabric drawn with its own findings. */
static int write_html(FILE *out, const json_t *m, side s[2]) {
  fl_report_picture pic[2];
  fl_report_input in[2];
  const fl_report_input *pin[2] = {&in[0], &in[1]};
  for (int k = 0; k < 2; k++) {
    memset(&pic[k], 0, sizeof pic[k]);
    memset(&in[k], 0, sizeof in[k]);
    pic[k].fab = s[k].fab;
    pic[k].views[0] = FL_VIEW_TIERS;
    pic[k].n_views = 1;
    in[k].fs = &s[k].fs;
    in[k].picture = &pic[k];
    in[k].diag = fl_cli_report_diag;
  }
  return fl_cmp_write_html(out, m, pin);
}

static int write_report(const fl_cli_opts *o, const cmp_args *a, FILE *out,
                        const json_t *m, side s[2]) {
  errno = 0;
  int wrc;
  if (a->format == CMP_HTML)
    wrc = write_html(out, m, s);
  else if (a->format == CMP_JSON)
    wrc = json_dumpf(m, out,
                     JSON_INDENT(2) | JSON_SORT_KEYS |
                         JSON_REAL_PRECISION(12)) != 0 ||
          fputc('\n', out) == EOF;
  else if (a->format == CMP_MD)
    wrc = fl_cmp_write_markdown(out, m, o->quiet);
  else
    wrc = fl_cmp_write_text(out, m, o->quiet);
  if (wrc == 0)
    return 0;
  fprintf(stderr, "fabriclint: %s: cannot write the report: %s\n",
          o->output && strcmp(o->output, "-") != 0 ? o->output
                                                   : "standard output",
          strerror(errno ? errno : EIO));
  return FL_EXIT_USAGE;
}

/* Compare the loaded sides and write the report; the exit code. */
static int report(const fl_cli_opts *o, const cmp_args *a, side s[2],
                  FILE *out) {
  fl_cmp_side cs[2];
  fl_bom_total cost[2];
  for (int k = 0; k < 2; k++) {
    cs[k] = (fl_cmp_side){s[k].input,
                          s[k].fab,
                          &s[k].fs,
                          &s[k].sums,
                          s[k].failure_known ? &s[k].failure : NULL,
                          NULL,
                          s[k].workload,
                          s[k].doms_ran ? &s[k].doms : NULL,
                          s[k].lids_ran ? &s[k].lids : NULL};
    if (a->catalogue && fl_bom_sum(s[k].fab, &a->cat, &cost[k]) == 0)
      cs[k].cost = &cost[k];
  }
  json_t *m = fl_cmp_model(&cs[0], &cs[1]);
  if (m)
    json_object_set_new(
        m, "tool",
        json_pack("{s:s,s:s}", "name", "fabriclint", "version", FL_VERSION));
  fl_cmp_policy dflt;
  char msg[8];
  fl_cmp_policy_parse("new-error", &dflt, msg, sizeof msg);
  int judged =
      m ? fl_cmp_judge(m, a->n_pol ? a->pol : &dflt, a->n_pol ? a->n_pol : 1)
        : -1;
  if (judged < 0) {
    json_decref(m);
    fprintf(stderr, "fabriclint: out of memory\n");
    return FL_EXIT_USAGE;
  }
  int rc = write_report(o, a, out, m, s);
  /* policies given replace the default new-error: say so when none of
   * them judges new findings, so that a new error is not missed unseen
   * (outside tester, session 11) */
  int judges_findings = !a->n_pol;
  for (size_t k = 0; k < a->n_pol; k++)
    judges_findings |= a->pol[k].kind == FL_CMP_FAIL_NEW_ERROR ||
                       a->pol[k].kind == FL_CMP_FAIL_NEW_WARNING ||
                       a->pol[k].kind == FL_CMP_FAIL_NEVER;
  if (!judges_findings)
    fprintf(stderr, "fabriclint: note: the --fail-on policies given replace "
                    "the default new-error: new findings do not fail this "
                    "run (add new-error to keep it)\n");
  size_t i;
  json_t *v;
  json_array_foreach(json_object_get(m, "fail_on"), i, v) {
    if (json_is_null(json_object_get(v, "failed")))
      fprintf(stderr, "fabriclint: --fail-on %s cannot be judged: %s\n",
              json_string_value(json_object_get(v, "policy")),
              json_string_value(json_object_get(v, "why")));
  }
  json_decref(m);
  if (rc != 0)
    return rc;
  if (s[0].failed || s[1].failed)
    return FL_EXIT_PLUGIN;
  if (judged == 2)
    return FL_EXIT_USAGE;
  return judged == 1 && !o->exit_zero ? FL_EXIT_FINDINGS : FL_EXIT_OK;
}

int fl_cli_compare(int argc, char **argv) {
  cmp_args a;
  memset(&a, 0, sizeof a);
  a.format = CMP_TEXT;
  fl_cli_opts o;
  side s[2];
  memset(s, 0, sizeof s);
  fl_host_init(&s[0].host);
  fl_host_init(&s[1].host);
  fl_outfile out = {0};
  int rc = fl_cli_parse_ext(argc, argv, &o, compare_option, &a);
  if (rc != 0) {
    rc = rc < 0 ? 0 : rc;
    goto done;
  }
  if (o.n_inputs != 2) {
    rc = fl_cli_usage_error("compare needs BASE and HEAD (got %s)",
                            o.n_inputs > 2 ? "more than two inputs"
                                           : "fewer than two");
    goto done;
  }
  s[0].input = o.inputs[0];
  s[1].input = o.inputs[1];
  if ((rc = fl_cli_check_stdin(&o, o.inputs, 2, a.with, a.n_with)) != 0 ||
      (rc = fl_cli_check_repeats(a.with, a.n_with, "--with input")) != 0)
    goto done;
  {
    size_t n = 2 + a.n_with;
    const char **all = calloc(n, sizeof *all);
    if (!all) {
      rc = FL_EXIT_USAGE;
      goto done;
    }
    all[0] = o.inputs[0], all[1] = o.inputs[1];
    for (size_t i = 0; i < a.n_with; i++)
      all[2 + i] = a.with[i];
    rc = fl_cli_check_outputs(&o, all, n);
    free((void *)all);
  }
  if (rc == 0 && a.catalogue)
    rc = fl_cli_check_output_other(&o, a.catalogue, "the catalogue");
  if (rc == 0 && a.catalogue) {
    char msg[512];
    if (fl_bom_cat_load(a.catalogue, &a.cat, msg, sizeof msg) != 0) {
      fprintf(stderr, "fabriclint compare: %s\n", msg);
      rc = FL_EXIT_USAGE;
    }
  }
  if (rc == 0 && a.workload) {
    rc = fl_cli_check_output_other(&o, a.workload, "the workload");
    if (rc == 0)
      rc = fl_cmp_workload_load(a.workload, &a.wl);
  }
  for (int k = 0; k < 2 && rc == 0; k++)
    rc = do_side(&o, &a, &s[k]);
  if (rc == 0)
    rc = fl_cli_open_output(&o, &out);
  if (rc == 0)
    rc = report(&o, &a, s, out.f);
done:
  rc = fl_cli_close_output(&out, rc);
  side_free(&s[0]);
  side_free(&s[1]);
  fl_cli_opts_free(&o);
  free((void *)a.with);
  fl_bom_cat_free(&a.cat);
  fl_workload_free(&a.wl);
  return rc;
}
