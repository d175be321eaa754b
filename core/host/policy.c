/* SPDX-License-Identifier: MIT */
/*
 * core/host/policy.c — the policy file reader and waiver matching (policy.h).
 *
 * The file is loaded with libyaml's document API (the whole tree, with
 * marks), then walked by small typed readers that reject every key they do
 * not know. The tree of a policy is small (hundreds of nodes), so a DOM is
 * the simple choice here, unlike the streaming design-XML loader.
 */
#include "host/policy.h"
#include "io/fileio.h"
#include "util/natcmp.h"

#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <yaml.h>

#include "fabriclint/types.h"

typedef struct rd {
  yaml_document_t *doc;
  const char *name;
  fl_error *err;
} rd;

static int fail_at(rd *r, const yaml_node_t *n, const char *fmt, const char *a,
                   const char *b) {
  char msg[FL_ERROR_MSG_MAX];
  snprintf(msg, sizeof msg, fmt, a ? a : "", b ? b : "");
  return fl_error_set(r->err, FL_EPARSE, r->name,
                      n ? (uint32_t)n->start_mark.line + 1 : 0,
                      n ? (uint32_t)n->start_mark.column + 1 : 0, "%s", msg);
}

static const char *kind_name(const yaml_node_t *n) {
  switch (n->type) {
  case YAML_MAPPING_NODE:
    return "a mapping";
  case YAML_SEQUENCE_NODE:
    return "a list";
  default:
    return "a scalar";
  }
}

static int is_null(const yaml_node_t *n) {
  return n->type == YAML_SCALAR_NODE &&
         n->data.scalar.style == YAML_PLAIN_SCALAR_STYLE &&
         (n->data.scalar.length == 0 ||
          strcmp((const char *)n->data.scalar.value, "~") == 0 ||
          strcmp((const char *)n->data.scalar.value, "null") == 0);
}

static const char *scalar(const yaml_node_t *n) {
  return (const char *)n->data.scalar.value;
}

static int dup_str(rd *r, const yaml_node_t *n, fl_policy_str *out) {
  out->text = strdup(scalar(n));
  out->line = (uint32_t)n->start_mark.line + 1;
  out->col = (uint32_t)n->start_mark.column + 1;
  return out->text
             ? FL_OK
             : fl_error_set(r->err, FL_ENOMEM, r->name, 0, 0, "out of memory");
}

/* A non-empty string scalar. */
static int want_string(rd *r, const yaml_node_t *n, const char *what) {
  if (n->type != YAML_SCALAR_NODE || is_null(n))
    return fail_at(r, n, "%s: expected a non-empty string, got %s", what,
                   is_null(n) ? "nothing" : kind_name(n));
  return FL_OK;
}

/* Error for key @k not in the NULL-terminated @known list. */
static int unknown_key(rd *r, const yaml_node_t *k, const char *where,
                       const char *const *known) {
  char list[256] = "", hint[96] = "";
  size_t best = 3;
  for (size_t i = 0; known[i]; i++) {
    size_t len = strlen(list);
    snprintf(list + len, sizeof list - len, "%s%s", i ? ", " : "", known[i]);
    size_t dist = fl_edit_distance(scalar(k), known[i], 3);
    if (dist < best) {
      best = dist;
      snprintf(hint, sizeof hint, "; did you mean '%s'?", known[i]);
    }
  }
  char msg[FL_ERROR_MSG_MAX];
  snprintf(msg, sizeof msg, "unknown key '%s' %s (known: %s)%s", scalar(k),
           where, list, hint);
  return fail_at(r, k, "%s%s", msg, "");
}

/* Iterate the pairs of mapping @m; rejects non-scalar and duplicate keys. */
typedef int (*pair_fn)(rd *r, yaml_node_t *k, yaml_node_t *v, void *arg);

static int each_pair(rd *r, yaml_node_t *m, const char *what, pair_fn fn,
                     void *arg) {
  if (is_null(m))
    return FL_OK;
  if (m->type != YAML_MAPPING_NODE)
    return fail_at(r, m, "%s: expected a mapping, got %s", what, kind_name(m));
  for (yaml_node_pair_t *p = m->data.mapping.pairs.start;
       p < m->data.mapping.pairs.top; p++) {
    yaml_node_t *k = yaml_document_get_node(r->doc, p->key);
    yaml_node_t *v = yaml_document_get_node(r->doc, p->value);
    if (!k || !v || k->type != YAML_SCALAR_NODE)
      return fail_at(r, k, "%s: keys must be plain strings%s", what, "");
    for (yaml_node_pair_t *q = m->data.mapping.pairs.start; q < p; q++) {
      yaml_node_t *k2 = yaml_document_get_node(r->doc, q->key);
      if (k2 && k2->type == YAML_SCALAR_NODE &&
          strcmp(scalar(k2), scalar(k)) == 0)
        return fail_at(r, k, "duplicate key '%s' in %s", scalar(k), what);
    }
    int rc = fn(r, k, v, arg);
    if (rc != FL_OK)
      return rc;
  }
  return FL_OK;
}

/* A string or a list of strings, appended to *@v. */
static int str_list(rd *r, yaml_node_t *n, const char *what, fl_policy_str **v,
                    size_t *count) {
  yaml_node_item_t one = 0;
  yaml_node_item_t *start = NULL, *top = NULL;
  if (is_null(n))
    return FL_OK;
  if (n->type == YAML_SCALAR_NODE) {
    one = (yaml_node_item_t)(n - r->doc->nodes.start) + 1;
    start = &one;
    top = &one + 1;
  } else if (n->type == YAML_SEQUENCE_NODE) {
    start = n->data.sequence.items.start;
    top = n->data.sequence.items.top;
  } else {
    return fail_at(r, n, "%s: expected a string or a list of strings, got %s",
                   what, kind_name(n));
  }
  for (yaml_node_item_t *it = start; it < top; it++) {
    yaml_node_t *s = yaml_document_get_node(r->doc, *it);
    int rc = want_string(r, s, what);
    if (rc != FL_OK)
      return rc;
    fl_policy_str *nv = realloc(*v, (*count + 1) * sizeof *nv);
    if (!nv)
      return fl_error_set(r->err, FL_ENOMEM, r->name, 0, 0, "out of memory");
    *v = nv;
    rc = dup_str(r, s, &nv[*count]);
    if (rc != FL_OK)
      return rc;
    (*count)++;
  }
  return FL_OK;
}

/* ---- sections
 * ------------------------------------------------------------------ */

static int rules_pair(rd *r, yaml_node_t *k, yaml_node_t *v, void *arg) {
  fl_policy *p = arg;
  if (strcmp(scalar(k), "enable") == 0)
    return str_list(r, v, "rules.enable", &p->enable, &p->n_enable);
  if (strcmp(scalar(k), "disable") == 0)
    return str_list(r, v, "rules.disable", &p->disable, &p->n_disable);
  static const char *const KNOWN[] = {"enable", "disable", NULL};
  return unknown_key(r, k, "in 'rules'", KNOWN);
}

static int severity_pair(rd *r, yaml_node_t *k, yaml_node_t *v, void *arg) {
  fl_policy *p = arg;
  int rc = want_string(r, v, "severity");
  if (rc != FL_OK)
    return rc;
  uint32_t sev = fl_severity_parse(scalar(v));
  if (sev < FL_SEV_INFO || sev > FL_SEV_ERROR)
    return fail_at(r, v,
                   "severity of '%s': expected error, warning or info, got "
                   "'%s'",
                   scalar(k), scalar(v));
  fl_policy_severity *nv =
      realloc(p->severity, (p->n_severity + 1) * sizeof *nv);
  if (!nv)
    return fl_error_set(r->err, FL_ENOMEM, r->name, 0, 0, "out of memory");
  p->severity = nv;
  memset(&nv[p->n_severity], 0, sizeof *nv);
  nv[p->n_severity].severity = sev;
  rc = dup_str(r, k, &nv[p->n_severity].pattern);
  if (rc == FL_OK)
    p->n_severity++;
  return rc;
}

typedef struct param_arg {
  fl_policy *p;
  yaml_node_t *rule;
} param_arg;

static int param_value_pair(rd *r, yaml_node_t *k, yaml_node_t *v, void *arg) {
  param_arg *pa = arg;
  fl_policy *p = pa->p;
  if (v->type != YAML_SCALAR_NODE || is_null(v))
    return fail_at(r, v, "parameter '%s': expected a value, got %s", scalar(k),
                   is_null(v) ? "nothing" : kind_name(v));
  fl_policy_param *nv = realloc(p->params, (p->n_params + 1) * sizeof *nv);
  if (!nv)
    return fl_error_set(r->err, FL_ENOMEM, r->name, 0, 0, "out of memory");
  p->params = nv;
  fl_policy_param *e = &nv[p->n_params];
  memset(e, 0, sizeof *e);
  p->n_params++; /* counted now so that fl_policy_free() frees partial ones */
  e->quoted = v->data.scalar.style == YAML_SINGLE_QUOTED_SCALAR_STYLE ||
              v->data.scalar.style == YAML_DOUBLE_QUOTED_SCALAR_STYLE;
  int rc = dup_str(r, pa->rule, &e->rule);
  if (rc == FL_OK)
    rc = dup_str(r, k, &e->name);
  if (rc == FL_OK)
    rc = dup_str(r, v, &e->value);
  return rc;
}

static int params_pair(rd *r, yaml_node_t *k, yaml_node_t *v, void *arg) {
  param_arg pa = {arg, k};
  if (v->type != YAML_MAPPING_NODE)
    return fail_at(r, v,
                   "params of '%s': expected a mapping of parameter names to "
                   "values, got %s",
                   scalar(k), kind_name(v));
  return each_pair(r, v, "params", param_value_pair, &pa);
}

static int waiver_pair(rd *r, yaml_node_t *k, yaml_node_t *v, void *arg) {
  fl_policy_waiver *w = arg;
  const char *key = scalar(k);
  int rc;
  if (strcmp(key, "rule") == 0) {
    if ((rc = want_string(r, v, "waiver rule")) != FL_OK)
      return rc;
    return dup_str(r, v, &w->rule);
  }
  if (strcmp(key, "nodes") == 0)
    return str_list(r, v, "waiver nodes", &w->nodes, &w->n_nodes);
  if (strcmp(key, "ports") == 0)
    return str_list(r, v, "waiver ports", &w->ports, &w->n_ports);
  if (strcmp(key, "expires") == 0) {
    if ((rc = want_string(r, v, "waiver expires")) != FL_OK)
      return rc;
    if (!fl_policy_date_valid(scalar(v)))
      return fail_at(r, v, "waiver expires: '%s' is not a date YYYY-MM-DD%s",
                     scalar(v), "");
    return dup_str(r, v, &w->expires);
  }
  char **slot = strcmp(key, "reason") == 0   ? &w->reason
                : strcmp(key, "owner") == 0  ? &w->owner
                : strcmp(key, "ticket") == 0 ? &w->ticket
                                             : NULL;
  if (slot) {
    if ((rc = want_string(r, v, key)) != FL_OK)
      return rc;
    *slot = strdup(scalar(v));
    return *slot ? FL_OK
                 : fl_error_set(r->err, FL_ENOMEM, r->name, 0, 0,
                                "out of memory");
  }
  static const char *const KNOWN[] = {"rule",    "nodes", "ports",  "reason",
                                      "expires", "owner", "ticket", NULL};
  return unknown_key(r, k, "in a waiver", KNOWN);
}

/* 1 when @s has nothing but blanks (spaces, tabs, newlines). */
static int blank(const char *s) {
  for (; *s; s++)
    if (*s != ' ' && *s != '\t' && *s != '\n' && *s != '\r')
      return 0;
  return 1;
}

static int waivers(rd *r, yaml_node_t *n, fl_policy *p) {
  if (is_null(n))
    return FL_OK;
  if (n->type != YAML_SEQUENCE_NODE)
    return fail_at(r, n, "waivers: expected a list of waivers, got %s%s",
                   kind_name(n), "");
  for (yaml_node_item_t *it = n->data.sequence.items.start;
       it < n->data.sequence.items.top; it++) {
    yaml_node_t *m = yaml_document_get_node(r->doc, *it);
    if (m->type != YAML_MAPPING_NODE)
      return fail_at(r, m, "a waiver: expected a mapping, got %s%s",
                     kind_name(m), "");
    fl_policy_waiver *nv = realloc(p->waivers, (p->n_waivers + 1) * sizeof *nv);
    if (!nv)
      return fl_error_set(r->err, FL_ENOMEM, r->name, 0, 0, "out of memory");
    p->waivers = nv;
    fl_policy_waiver *w = &nv[p->n_waivers++];
    memset(w, 0, sizeof *w);
    w->line = (uint32_t)m->start_mark.line + 1;
    w->col = (uint32_t)m->start_mark.column + 1;
    int rc = each_pair(r, m, "a waiver", waiver_pair, w);
    if (rc != FL_OK)
      return rc;
    const char *missing = !w->rule.text      ? "rule"
                          : !w->reason       ? "reason"
                          : !w->expires.text ? "expires"
                                             : NULL;
    if (missing)
      return fail_at(r, m,
                     "a waiver needs '%s' (every waiver has a rule, a reason "
                     "and an expiry date)%s",
                     missing, "");
    if (blank(w->reason))
      return fail_at(r, m,
                     "a waiver's 'reason' is blank: say why the finding is "
                     "accepted (ticket, owner, planned fix)%s%s",
                     "", "");
  }
  return FL_OK;
}

/* max-waiver-days: a plain whole number of days, 0 to 36500 (0: a waiver
 * may not outlive today). */
static int max_days(rd *r, yaml_node_t *v, fl_policy *p) {
  const char *t = v->type == YAML_SCALAR_NODE ? scalar(v) : "";
  char *end = NULL;
  long long d = *t >= '0' && *t <= '9' ? strtoll(t, &end, 10) : -1;
  if (v->type != YAML_SCALAR_NODE ||
      v->data.scalar.style != YAML_PLAIN_SCALAR_STYLE || d < 0 || d > 36500 ||
      !end || *end)
    return fail_at(r, v,
                   "max-waiver-days: expected a whole number of days from 0 "
                   "to 36500, got %s%s",
                   v->type == YAML_SCALAR_NODE ? t : kind_name(v),
                   v->type == YAML_SCALAR_NODE &&
                           v->data.scalar.style != YAML_PLAIN_SCALAR_STYLE
                       ? " (quoted)"
                       : "");
  p->max_waiver_days = d;
  p->max_days_line = (uint32_t)v->start_mark.line + 1;
  p->max_days_col = (uint32_t)v->start_mark.column + 1;
  return FL_OK;
}

static int top_pair(rd *r, yaml_node_t *k, yaml_node_t *v, void *arg) {
  fl_policy *p = arg;
  const char *key = scalar(k);
  if (strcmp(key, "version") == 0) {
    if (v->type != YAML_SCALAR_NODE || strcmp(scalar(v), "1") != 0)
      return fail_at(r, v, "version: only version 1 is known, got '%s'%s",
                     v->type == YAML_SCALAR_NODE ? scalar(v) : kind_name(v),
                     "");
    return FL_OK;
  }
  if (strcmp(key, "rules") == 0)
    return each_pair(r, v, "'rules'", rules_pair, p);
  if (strcmp(key, "severity") == 0)
    return each_pair(r, v, "'severity'", severity_pair, p);
  if (strcmp(key, "params") == 0)
    return each_pair(r, v, "'params'", params_pair, p);
  if (strcmp(key, "waivers") == 0)
    return waivers(r, v, p);
  if (strcmp(key, "max-waiver-days") == 0)
    return max_days(r, v, p);
  static const char *const KNOWN[] = {"version", "rules",   "severity",
                                      "params",  "waivers", "max-waiver-days",
                                      NULL};
  return unknown_key(r, k, "at the top of the policy", KNOWN);
}

int fl_policy_parse(fl_policy *p, const char *name, const char *text,
                    size_t len, fl_error *err) {
  memset(p, 0, sizeof *p);
  p->max_waiver_days = -1;
  p->path = strdup(name);
  if (!p->path)
    return fl_error_set(err, FL_ENOMEM, name, 0, 0, "out of memory");
  yaml_parser_t parser;
  yaml_document_t doc;
  if (fl_yaml_depth_check(text, len, 64, name, err) != FL_OK)
    return FL_EPARSE;
  if (!yaml_parser_initialize(&parser))
    return fl_error_set(err, FL_ENOMEM, name, 0, 0, "out of memory");
  yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
  int rc = FL_OK;
  if (!yaml_parser_load(&parser, &doc)) {
    rc = fl_error_set(
        err, FL_EPARSE, name, (uint32_t)parser.problem_mark.line + 1,
        (uint32_t)parser.problem_mark.column + 1, "YAML %s%s%s",
        parser.problem ? parser.problem : "error", parser.context ? " " : "",
        parser.context ? parser.context : "");
    yaml_parser_delete(&parser);
    return rc;
  }
  rd r = {&doc, name, err};
  yaml_node_t *root = yaml_document_get_root_node(&doc);
  if (root)
    rc = each_pair(&r, root, "the policy", top_pair, p);
  yaml_document_delete(&doc);
  if (rc == FL_OK && root) { /* a second document would be silently ignored */
    yaml_document_t doc2;
    if (yaml_parser_load(&parser, &doc2)) {
      yaml_node_t *r2 = yaml_document_get_root_node(&doc2);
      if (r2)
        rc = fl_error_set(err, FL_EPARSE, name,
                          (uint32_t)r2->start_mark.line + 1,
                          (uint32_t)r2->start_mark.column + 1,
                          "a policy file holds one YAML document");
      yaml_document_delete(&doc2);
    }
  }
  yaml_parser_delete(&parser);
  return rc;
}

int fl_policy_load(fl_policy *p, const char *path, fl_error *err) {
  memset(p, 0, sizeof *p);
  char *buf;
  size_t len;
  int rc = fl_read_file(path, "policy", &buf, &len, err);
  if (rc != FL_OK)
    return rc;
  rc = fl_policy_parse(p, path, buf, len, err);
  fl_digest_of(&p->digest, buf, len);
  free(buf);
  return rc;
}

static void str_free(fl_policy_str *s) {
  free(s->text);
}

void fl_policy_free(fl_policy *p) {
  for (size_t i = 0; i < p->n_enable; i++)
    str_free(&p->enable[i]);
  for (size_t i = 0; i < p->n_disable; i++)
    str_free(&p->disable[i]);
  for (size_t i = 0; i < p->n_severity; i++)
    str_free(&p->severity[i].pattern);
  for (size_t i = 0; i < p->n_params; i++) {
    str_free(&p->params[i].rule);
    str_free(&p->params[i].name);
    str_free(&p->params[i].value);
  }
  for (size_t i = 0; i < p->n_waivers; i++) {
    fl_policy_waiver *w = &p->waivers[i];
    str_free(&w->rule);
    for (size_t k = 0; k < w->n_nodes; k++)
      str_free(&w->nodes[k]);
    for (size_t k = 0; k < w->n_ports; k++)
      str_free(&w->ports[k]);
    free(w->nodes);
    free(w->ports);
    free(w->reason);
    str_free(&w->expires);
    free(w->owner);
    free(w->ticket);
  }
  free(p->enable);
  free(p->disable);
  free(p->severity);
  free(p->params);
  free(p->waivers);
  free(p->path);
  memset(p, 0, sizeof *p);
}

/* ---- queries
 * --------------------------------------------------------------------- */

int fl_policy_rule_matches(const char *pattern, const char *id) {
  if (fnmatch(pattern, id, 0) == 0)
    return 1;
  size_t n = strlen(pattern);
  return strncmp(id, pattern, n) == 0 && id[n] == '.';
}

uint32_t fl_policy_severity_of(const fl_policy *p, const char *id) {
  uint32_t sev = 0;
  for (size_t i = 0; p && i < p->n_severity; i++)
    if (fl_policy_rule_matches(p->severity[i].pattern.text, id))
      sev = p->severity[i].severity;
  return sev;
}

static int any_match(const fl_policy_str *v, size_t n, const char *id) {
  for (size_t i = 0; i < n; i++)
    if (fl_policy_rule_matches(v[i].text, id))
      return 1;
  return 0;
}

int fl_policy_enables(const fl_policy *p, const char *id) {
  return p && any_match(p->enable, p->n_enable, id);
}

int fl_policy_disables(const fl_policy *p, const char *id) {
  return p && any_match(p->disable, p->n_disable, id);
}

/* Days since 1970-01-01 of a valid date (H. Hinnant's days_from_civil). */
static int64_t days_from_civil(const char *s) {
  int64_t y = atoi(s), m = atoi(s + 5), d = atoi(s + 8);
  y -= m <= 2;
  int64_t era = (y >= 0 ? y : y - 399) / 400;
  int64_t yoe = y - era * 400;
  int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

int64_t fl_policy_days_between(const char *a, const char *b) {
  return days_from_civil(b) - days_from_civil(a);
}

int fl_policy_date_valid(const char *s) {
  static const int DAYS[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  if (strlen(s) != 10 || s[4] != '-' || s[7] != '-')
    return 0;
  for (int i = 0; i < 10; i++)
    if (i != 4 && i != 7 && (s[i] < '0' || s[i] > '9'))
      return 0;
  int y = atoi(s), m = atoi(s + 5), d = atoi(s + 8);
  if (m < 1 || m > 12 || d < 1)
    return 0;
  int leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
  return d <= DAYS[m - 1] + (m == 2 && leap);
}

int fl_policy_waiver_matches(const fl_policy_waiver *w,
                             const fl_finding_rec *r) {
  if (!fl_policy_rule_matches(w->rule.text, r->rule))
    return 0;
  for (size_t k = 0; k < w->n_nodes; k++) {
    int hit = 0;
    for (uint32_t i = 0; i < r->n_nodes && !hit; i++)
      hit = fnmatch(w->nodes[k].text, r->nodes[i], 0) == 0;
    for (uint32_t i = 0; i < r->n_ports && !hit; i++)
      hit = fnmatch(w->nodes[k].text, r->ports[i].node, 0) == 0;
    if (!hit)
      return 0;
  }
  for (size_t k = 0; k < w->n_ports; k++) {
    int hit = 0;
    for (uint32_t i = 0; i < r->n_ports && !hit; i++) {
      /* "node/3", or by the port's label "node/Ethernet1/3" (an Ethernet
       * switch port from LLDP is numbered only in loading order) */
      char name[1024];
      snprintf(name, sizeof name, "%s/%u", r->ports[i].node, r->ports[i].port);
      hit = fnmatch(w->ports[k].text, name, 0) == 0;
      if (!hit && r->ports[i].label && *r->ports[i].label) {
        snprintf(name, sizeof name, "%s/%s", r->ports[i].node,
                 r->ports[i].label);
        hit = fnmatch(w->ports[k].text, name, 0) == 0;
      }
    }
    if (!hit)
      return 0;
  }
  return 1;
}

static char *fmt_where(const fl_policy *p, uint32_t line, uint32_t col) {
  size_t n = strlen(p->path) + 32;
  char *s = malloc(n);
  if (s)
    snprintf(s, n, "%s:%u:%u", p->path, line, col);
  return s;
}

/* Append a finding about waiver @w (rule @rule) to @fs. */
static int push_policy_finding(const fl_policy *p, const fl_policy_waiver *w,
                               fl_findings *fs, const char *rule, uint32_t sev,
                               const char *msg) {
  fl_finding_rec r;
  memset(&r, 0, sizeof r);
  char key[1100];
  snprintf(key, sizeof key, "%s|%s|%s", w->rule.text, w->expires.text,
           w->reason);
  r.rule = strdup(rule);
  r.severity = sev;
  r.message = strdup(msg);
  r.nodes = calloc(1, sizeof *r.nodes);
  r.ports = calloc(1, sizeof *r.ports);
  r.file = strdup(p->path);
  r.line = w->line;
  r.col = w->col;
  r.key = strdup(key);
  char ev[1400];
  /* evidence is JSON: escape through a tiny writer of our own strings */
  char reason[1100];
  size_t o = 0;
  for (const char *s = w->reason; *s && o + 7 < sizeof reason; s++) {
    unsigned char c = (unsigned char)*s;
    if (c == '"' || c == '\\') {
      reason[o++] = '\\';
      reason[o++] = (char)c;
    } else if (c < 0x20) {
      o += (size_t)snprintf(reason + o, sizeof reason - o, "\\u%04x", c);
    } else {
      reason[o++] = (char)c;
    }
  }
  reason[o] = '\0';
  snprintf(ev, sizeof ev, "{\"expires\":\"%s\",\"reason\":\"%s\"}",
           w->expires.text, reason);
  r.evidence = strdup(ev);
  if (!r.rule || !r.message || !r.nodes || !r.ports || !r.file || !r.key ||
      !r.evidence || fl_findings_push(fs, &r) != 0) {
    free(r.rule), free(r.message), free(r.nodes), free(r.ports);
    free(r.file), free(r.key), free(r.evidence);
    return FL_ENOMEM;
  }
  return FL_OK;
}

int fl_policy_apply_waivers(const fl_policy *p, fl_findings *fs,
                            const char *today, fl_error *err) {
  if (!p || p->n_waivers == 0)
    return FL_OK;
  for (size_t k = 0; p->max_waiver_days >= 0 && k < p->n_waivers; k++) {
    const fl_policy_waiver *w = &p->waivers[k];
    int64_t days = fl_policy_days_between(today, w->expires.text);
    if (days > p->max_waiver_days)
      return fl_error_set(
          err, FL_EINVAL, p->path, w->expires.line, w->expires.col,
          "waiver for %s expires %s, %lld days after today (%s): longer than "
          "the policy's max-waiver-days %lld (line %u); give an earlier date",
          w->rule.text, w->expires.text, (long long)days, today,
          (long long)p->max_waiver_days, p->max_days_line);
  }
  size_t *uses = calloc(p->n_waivers, sizeof *uses);
  if (!uses)
    return fl_error_set(err, FL_ENOMEM, NULL, 0, 0, "out of memory");
  size_t n = fs->n; /* policy findings appended below are not waivable */
  for (size_t i = 0; i < n; i++) {
    fl_finding_rec *r = &fs->v[i];
    for (size_t k = 0; k < p->n_waivers; k++) {
      const fl_policy_waiver *w = &p->waivers[k];
      if (!fl_policy_waiver_matches(w, r))
        continue;
      uses[k]++;
      if (strcmp(w->expires.text, today) < 0)
        continue; /* expired: no longer suppresses */
      r->waived = 1;
      r->waiver.reason = strdup(w->reason);
      r->waiver.expires = strdup(w->expires.text);
      r->waiver.where = fmt_where(p, w->line, w->col);
      if (!r->waiver.reason || !r->waiver.expires || !r->waiver.where) {
        free(uses);
        return fl_error_set(err, FL_ENOMEM, NULL, 0, 0, "out of memory");
      }
      break;
    }
  }
  int rc = FL_OK;
  for (size_t k = 0; k < p->n_waivers && rc == FL_OK; k++) {
    const fl_policy_waiver *w = &p->waivers[k];
    char msg[1400];
    if (strcmp(w->expires.text, today) < 0) {
      snprintf(msg, sizeof msg,
               "waiver for %s expired on %s (%zu finding(s) it matches count "
               "again); renew it with a new date or fix the fabric: %s",
               w->rule.text, w->expires.text, uses[k], w->reason);
      rc = push_policy_finding(p, w, fs, FL_POLICY_RULE_EXPIRED, FL_SEV_WARNING,
                               msg);
    } else if (uses[k] == 0) {
      snprintf(msg, sizeof msg,
               "waiver for %s matches no finding; remove it if the problem "
               "was fixed: %s",
               w->rule.text, w->reason);
      rc = push_policy_finding(p, w, fs, FL_POLICY_RULE_UNUSED, FL_SEV_INFO,
                               msg);
    }
  }
  free(uses);
  if (rc != FL_OK)
    return fl_error_set(err, rc, NULL, 0, 0, "out of memory");
  return FL_OK;
}
