/* SPDX-License-Identifier: MIT */
/*
 * core/host/host_params.c — rule parameters and selection in the plugin
 * host: parameters set on the command line and by the policy file, checked
 * against each rule's declared types and bounds before a run, severities
 * and rule selection by pattern.
 */
#include "host/host.h"
#include "host/host_impl.h"

#include <errno.h>
#include <fnmatch.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/param_check.h"

/* ---- parameters and selection
 * ------------------------------------------------ */

int fl_host_add_param(fl_host *h, const char *rule, const char *name,
                      const char *value) {
  if (h->n_params == h->cap_params) {
    size_t n = h->cap_params ? h->cap_params * 2 : 8;
    fl_param_value *v = realloc(h->params, n * sizeof *v);
    if (!v)
      return FL_ENOMEM;
    h->params = v;
    h->cap_params = n;
  }
  fl_param_value *v = &h->params[h->n_params];
  v->rule = strdup(rule);
  v->name = strdup(name);
  v->value = strdup(value);
  if (!v->rule || !v->name || !v->value) {
    free(v->rule), free(v->name), free(v->value);
    return FL_ENOMEM;
  }
  h->n_params++;
  return FL_OK;
}

int fl_host_set_param(fl_host *h, const char *spec, fl_error *err) {
  const char *eq = strchr(spec, '=');
  const char *dot = NULL;
  for (const char *s = spec; eq && s < eq; s++)
    if (*s == '.')
      dot = s;
  if (!eq || !dot || dot == spec || dot + 1 == eq)
    return fl_error_set(err, FL_EINVAL, NULL, 0, 0,
                        "--param '%s': expected RULE-ID.PARAM=VALUE, e.g. "
                        "topology.degraded-link.expected-width=4",
                        spec);
  char *rule = strndup(spec, (size_t)(dot - spec));
  char *name = strndup(dot + 1, (size_t)(eq - dot - 1));
  int rc = rule && name ? fl_host_add_param(h, rule, name, eq + 1) : FL_ENOMEM;
  free(rule);
  free(name);
  if (rc != FL_OK)
    return fl_error_set(err, rc, NULL, 0, 0, "out of memory");
  return FL_OK;
}

/* A rule of plugin @plugin that has parameter @name, or NULL. */
static const fl_rule_def *plugin_rule_with(const fl_host *h, const char *plugin,
                                           const char *name) {
  for (size_t i = 0; i < h->n_plugins; i++) {
    if (strcmp(h->plugins[i].desc.name, plugin) != 0)
      continue;
    for (uint32_t r = 0; r < h->plugins[i].desc.n_rules; r++)
      if (find_param_def(h->plugins[i].rules[r], name))
        return h->plugins[i].rules[r];
  }
  return NULL;
}

/* Check @value for parameter @name of @rule (definition @d); a plugin-wide
 * value (@rule without a dot) must also fit the same-named parameter of
 * every rule of that plugin. FL_OK or FL_EINVAL with @why. */
static int value_fits(const fl_host *h, const char *rule, const char *name,
                      const fl_param_def *d, const char *value, char *why,
                      size_t n) {
  if (fl_param_check_value(d, value, why, n) != FL_OK)
    return FL_EINVAL;
  if (strchr(rule, '.'))
    return FL_OK;
  for (size_t i = 0; i < h->n_plugins; i++) {
    if (strcmp(h->plugins[i].desc.name, rule) != 0)
      continue;
    for (uint32_t k = 0; k < h->plugins[i].desc.n_rules; k++) {
      const fl_param_def *o = find_param_def(h->plugins[i].rules[k], name);
      if (o && fl_param_check_value(o, value, why, n) != FL_OK) {
        size_t len = strlen(why);
        snprintf(why + len, n - len, " for rule %s",
                 h->plugins[i].rules[k]->id);
        return FL_EINVAL;
      }
    }
  }
  return FL_OK;
}

int fl_host_check_params(const fl_host *h, fl_error *err) {
  for (size_t i = 0; i < h->n_params; i++) {
    const fl_param_value *v = &h->params[i];
    const fl_rule_def *r = find_rule(h, v->rule);
    if (!r && !strchr(v->rule, '.'))
      r = plugin_rule_with(h, v->rule, v->name); /* plugin-wide value */
    if (!r)
      return fl_error_set(err, FL_EINVAL, NULL, 0, 0,
                          "--param: no loaded rule or plugin '%s' with a "
                          "parameter '%s' (see fabriclint rules)",
                          v->rule, v->name);
    const fl_param_def *d = find_param_def(r, v->name);
    if (!d)
      return fl_error_set(err, FL_EINVAL, NULL, 0, 0,
                          "--param: rule '%s' has no parameter '%s'", v->rule,
                          v->name);
    char why[256];
    if (value_fits(h, v->rule, v->name, d, v->value, why, sizeof why) != FL_OK)
      return fl_error_set(err, FL_EINVAL, NULL, 0, 0, "--param %s.%s=%s: %s",
                          v->rule, v->name, v->value, why);
  }
  return FL_OK;
}

const fl_rule_def *fl_host_find_rule(const fl_host *h, const char *id) {
  return find_rule(h, id);
}

const fl_param_def *fl_host_find_param(const fl_host *h, const char *rule,
                                       const char *name) {
  const fl_rule_def *r = find_rule(h, rule);
  if (!r && !strchr(rule, '.'))
    r = plugin_rule_with(h, rule, name);
  return r ? find_param_def(r, name) : NULL;
}

int fl_host_pattern_used(const fl_host *h, const char *pattern) {
  for (size_t i = 0; i < h->n_plugins; i++)
    for (uint32_t r = 0; r < h->plugins[i].desc.n_rules; r++)
      if (fl_policy_rule_matches(pattern, h->plugins[i].rules[r]->id))
        return 1;
  return 0;
}

/* Policy values are typed by YAML's scalar style as well as their text: a
 * quoted "4" is a string, so an int parameter wants a plain scalar. */
static int policy_value_ok(const fl_param_def *d, const fl_policy_param *v) {
  const char *t = v->value.text;
  char *end;
  switch (d->type) {
  case FL_PARAM_INT:
    errno = 0;
    (void)strtoll(t, &end, 10);
    return !v->quoted && !errno && end != t && !*end;
  case FL_PARAM_DOUBLE:
    errno = 0;
    (void)strtod(t, &end);
    return !v->quoted && !errno && end != t && !*end;
  case FL_PARAM_BOOL:
    return !v->quoted && (strcmp(t, "true") == 0 || strcmp(t, "false") == 0);
  default:
    return 1;
  }
}

static const char *param_type_word(uint32_t t) {
  switch (t) {
  case FL_PARAM_INT:
    return "an integer";
  case FL_PARAM_DOUBLE:
    return "a number";
  case FL_PARAM_BOOL:
    return "true or false";
  default:
    return "a string";
  }
}

static int pattern_check(const fl_host *h, const fl_policy *p,
                         const fl_policy_str *s, const char *what,
                         fl_error *err) {
  if (fl_host_pattern_used(h, s->text))
    return FL_OK;
  return fl_error_set(err, FL_EINVAL, p->path, s->line, s->col,
                      "%s '%s' matches no loaded rule (see fabriclint rules)",
                      what, s->text);
}

int fl_host_set_policy(fl_host *h, const fl_policy *p, fl_error *err) {
  int rc = FL_OK;
  for (size_t i = 0; i < p->n_enable && rc == FL_OK; i++)
    rc = pattern_check(h, p, &p->enable[i], "rules.enable:", err);
  for (size_t i = 0; i < p->n_disable && rc == FL_OK; i++)
    rc = pattern_check(h, p, &p->disable[i], "rules.disable:", err);
  for (size_t i = 0; i < p->n_severity && rc == FL_OK; i++)
    rc = pattern_check(h, p, &p->severity[i].pattern, "severity:", err);
  for (size_t i = 0; i < p->n_waivers && rc == FL_OK; i++)
    rc = pattern_check(h, p, &p->waivers[i].rule, "waiver rule", err);
  for (size_t i = 0; i < p->n_params && rc == FL_OK; i++) {
    const fl_policy_param *v = &p->params[i];
    if (!find_rule(h, v->rule.text) && !(strchr(v->rule.text, '.') == NULL &&
                                         fl_host_pattern_used(h, v->rule.text)))
      rc = fl_error_set(err, FL_EINVAL, p->path, v->rule.line, v->rule.col,
                        "params: no loaded rule or plugin '%s' (see "
                        "fabriclint rules)",
                        v->rule.text);
    const fl_param_def *d =
        rc == FL_OK ? fl_host_find_param(h, v->rule.text, v->name.text) : NULL;
    if (rc == FL_OK && !d)
      rc = fl_error_set(err, FL_EINVAL, p->path, v->name.line, v->name.col,
                        "params: '%s' has no parameter '%s'", v->rule.text,
                        v->name.text);
    if (rc == FL_OK && !policy_value_ok(d, v))
      rc = fl_error_set(err, FL_EINVAL, p->path, v->value.line, v->value.col,
                        "params: %s.%s expects %s, got %s'%s'", v->rule.text,
                        v->name.text, param_type_word(d->type),
                        v->quoted ? "the quoted string " : "", v->value.text);
    char why[256];
    if (rc == FL_OK && value_fits(h, v->rule.text, v->name.text, d,
                                  v->value.text, why, sizeof why) != FL_OK)
      rc = fl_error_set(err, FL_EINVAL, p->path, v->value.line, v->value.col,
                        "params: %s.%s=%s: %s", v->rule.text, v->name.text,
                        v->value.text, why);
  }
  /* policy values go first: --param values, added later, win */
  if (rc == FL_OK && p->n_params) {
    fl_param_value *old = h->params;
    size_t n_old = h->n_params;
    h->params = NULL;
    h->n_params = h->cap_params = 0;
    for (size_t i = 0; i < p->n_params && rc == FL_OK; i++)
      rc = fl_host_add_param(h, p->params[i].rule.text, p->params[i].name.text,
                             p->params[i].value.text);
    for (size_t i = 0; i < n_old; i++) {
      if (rc == FL_OK)
        rc = fl_host_add_param(h, old[i].rule, old[i].name, old[i].value);
      free(old[i].rule), free(old[i].name), free(old[i].value);
    }
    free(old);
    if (rc != FL_OK)
      return fl_error_set(err, rc, NULL, 0, 0, "out of memory");
  }
  if (rc == FL_OK)
    h->policy = p;
  return rc;
}

uint32_t fl_host_rule_severity(const fl_host *h, const fl_rule_def *r) {
  uint32_t over = fl_policy_severity_of(h->policy, r->id);
  return over ? over : r->default_severity;
}

int fl_host_rule_runs(const fl_host *h, const fl_rule_def *r,
                      const char *patterns) {
  if (fl_policy_disables(h->policy, r->id))
    return 0;
  if (patterns)
    return fl_host_rule_selected(r, patterns);
  return r->enabled_by_default || fl_policy_enables(h->policy, r->id);
}

int fl_host_rule_selected(const fl_rule_def *r, const char *patterns) {
  if (!patterns)
    return r->enabled_by_default != 0;
  char buf[1024];
  snprintf(buf, sizeof buf, "%s", patterns);
  char *save = NULL;
  for (char *tok = strtok_r(buf, ",", &save); tok;
       tok = strtok_r(NULL, ",", &save)) {
    while (*tok == ' ')
      tok++;
    if (fnmatch(tok, r->id, 0) == 0)
      return 1;
    /* a bare plugin name selects all of its rules */
    size_t n = strlen(tok);
    if (strncmp(r->id, tok, n) == 0 && r->id[n] == '.')
      return 1;
  }
  return 0;
}
