/* SPDX-License-Identifier: MIT */
/*
 * core/host/host.c — the plugin host (see host.h): the API table handed to
 * every plugin (reading the fabric, parameters, reporting findings, logging,
 * progress) and the host's life cycle (fl_host_init, fl_host_free). Plugins
 * are loaded by host_load.c, parameters, the policy and rule selection are
 * host_params.c's and rules run in host_run.c (shared: host_impl.h).
 *
 * The patterns are those of SQLite loadable extensions and Redis modules: one
 * exported entry point returning a size-prefixed descriptor, a host function
 * table handed to the plugin, and copies of every plugin struct into
 * zero-filled host-size structs so that older plugins (smaller structs) keep
 * working when the ABI grows at the end.
 */
#include "host/host.h"
#include "host/host_impl.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "fabriclint/cdg.h"
#include "fabriclint/fabric.h"
#include "fabriclint/planes.h"
#include "fabriclint/routing.h"
#include "fabriclint/threads.h"
#include "host/param_check.h"
#include "host/roots.h"
#include "model/graph.h"

/* ---- the API table
 * ------------------------------------------------------------ */

static const fl_fabric *api_fabric(fl_ctx *c) {
  return c->fab;
}
static uint64_t api_fabric_serial(fl_ctx *c) {
  return c->serial;
}
static const char *api_rule_id(fl_ctx *c) {
  return c->rule->id;
}

const fl_param_def *find_param_def(const fl_rule_def *r, const char *name) {
  for (uint32_t i = 0; i < r->n_params; i++)
    if (r->params[i] && strcmp(r->params[i]->name, name) == 0)
      return r->params[i];
  return NULL;
}

/* The value of parameter @name for the running rule: a given value, else
 * the default; NULL when neither. */
static const char *param_text(fl_ctx *c, const char *name,
                              const fl_param_def **def) {
  *def = find_param_def(c->rule, name);
  /* a value for the rule wins over a value for its whole plugin */
  const char *plugin_wide = NULL;
  size_t plen = strcspn(c->rule->id, ".");
  for (size_t i = c->host->n_params; i-- > 0;) {
    const fl_param_value *v = &c->host->params[i];
    if (strcmp(v->name, name) != 0)
      continue;
    if (strcmp(v->rule, c->rule->id) == 0)
      return v->value;
    if (!plugin_wide && strlen(v->rule) == plen &&
        strncmp(v->rule, c->rule->id, plen) == 0)
      plugin_wide = v->value;
  }
  if (plugin_wide)
    return plugin_wide;
  return *def ? (*def)->default_value : NULL;
}

/* Values were checked before the run (fl_host_check_params,
 * fl_host_set_policy); checking again here keeps a rule from ever reading
 * a value outside its own declaration (a plugin-wide value checked against
 * another rule's). */
static int api_param_int(fl_ctx *c, const char *name, int64_t *out) {
  const fl_param_def *d;
  const char *t = param_text(c, name, &d);
  char why[256];
  if (!t || !*t)
    return FL_ENOTFOUND;
  if (d && fl_param_check_value(d, t, why, sizeof why) != FL_OK)
    return FL_EINVAL;
  return fl_param_parse_int(t, out);
}

static int api_param_double(fl_ctx *c, const char *name, double *out) {
  const fl_param_def *d;
  const char *t = param_text(c, name, &d);
  char why[256];
  if (!t || !*t)
    return FL_ENOTFOUND;
  if (d && fl_param_check_value(d, t, why, sizeof why) != FL_OK)
    return FL_EINVAL;
  return fl_param_parse_double(t, out);
}

static int api_param_string(fl_ctx *c, const char *name, const char **out) {
  const fl_param_def *d;
  const char *t = param_text(c, name, &d);
  if (!t)
    return FL_ENOTFOUND;
  *out = t;
  return FL_OK;
}

static char *xstrdup(const char *s) {
  return strdup(s ? s : "");
}

/* Location of a finding: first link, else first port, else first node that
 * has provenance. */
static void locate(const fl_fabric *fab, const fl_finding *f,
                   fl_finding_rec *r) {
  const char *file = NULL;
  uint32_t line = 0, col = 0;
  for (uint32_t i = 0; i < f->n_links && !file; i++)
    if (fl_fabric_provenance(fab, FL_ENT_LINK, f->links[i], &file, &line,
                             &col) != FL_OK ||
        !*file)
      file = NULL;
  for (uint32_t i = 0; i < f->n_ports && !file; i++) {
    fl_id p = fl_fabric_find_port(fab, f->ports[i].node, f->ports[i].port);
    if (p == FL_NONE ||
        fl_fabric_provenance(fab, FL_ENT_PORT, p, &file, &line, &col) !=
            FL_OK ||
        !*file)
      file = NULL;
  }
  for (uint32_t i = 0; i < f->n_nodes && !file; i++)
    if (fl_fabric_provenance(fab, FL_ENT_NODE, f->nodes[i], &file, &line,
                             &col) != FL_OK ||
        !*file)
      file = NULL;
  if (file) {
    r->file = xstrdup(file);
    r->line = line;
    r->col = col;
  }
}

static char *default_key(const fl_finding_rec *r) {
  size_t len = strlen(r->rule) + 1;
  for (uint32_t i = 0; i < r->n_nodes; i++)
    len += strlen(r->nodes[i]) + 1;
  for (uint32_t i = 0; i < r->n_ports; i++)
    len += strlen(r->ports[i].node) + 12;
  char *k = malloc(len + 1), *p = k;
  if (!k)
    return NULL;
  p += sprintf(p, "%s", r->rule);
  for (uint32_t i = 0; i < r->n_nodes; i++)
    p += sprintf(p, "|%s", r->nodes[i]);
  for (uint32_t i = 0; i < r->n_ports; i++)
    p += sprintf(p, "|%s/%u", r->ports[i].node, r->ports[i].port);
  return k;
}

static int check_finding(const fl_ctx *c, const fl_finding *f) {
  uint32_t nn = fl_fabric_node_count(c->fab);
  if (!f || f->struct_size < sizeof(uint32_t) * 2 + sizeof(char *) ||
      !f->message)
    return FL_EINVAL;
  if ((f->n_nodes && !f->nodes) || (f->n_ports && !f->ports) ||
      (f->n_links && !f->links) || f->severity > FL_SEV_ERROR)
    return FL_EINVAL;
  for (uint32_t i = 0; i < f->n_nodes; i++)
    if (f->nodes[i] >= nn)
      return FL_EINVAL;
  for (uint32_t i = 0; i < f->n_ports; i++)
    if (f->ports[i].node >= nn)
      return FL_EINVAL;
  for (uint32_t i = 0; i < f->n_links; i++)
    if (f->links[i] >= fl_fabric_link_count(c->fab))
      return FL_EINVAL;
  return FL_OK;
}

static int normalise_evidence(const char *text, char **out) {
  *out = NULL;
  if (!text)
    return FL_OK;
  json_error_t jerr;
  json_t *j = json_loads(text, 0, &jerr);
  if (!j || !json_is_object(j)) {
    json_decref(j);
    return FL_EINVAL;
  }
  *out = json_dumps(j, JSON_COMPACT | JSON_SORT_KEYS);
  json_decref(j);
  return *out ? FL_OK : FL_ENOMEM;
}

/* Add @plane to @s as "plane|s" (keys and causes of one plane's runs stay
 * apart from another's). */
static int plane_prefix(char **s, const char *plane) {
  if (!*s)
    return FL_OK;
  size_t n = strlen(plane) + strlen(*s) + 8;
  char *t = malloc(n);
  if (!t)
    return FL_ENOMEM;
  snprintf(t, n, "plane:%s|%s", plane, *s);
  free(*s);
  *s = t;
  return FL_OK;
}

/* The plane of finding @f of a multi-plane fabric: the plane the run
 * judges, else the distinct planes of the nodes and ports it names
 * ("A", or "A,B" for a finding across planes); none on a one-plane fabric.
 * Keys and causes of a plane's run get the plane in front. */
static int finding_plane(const fl_ctx *c, const fl_finding *f,
                         fl_finding_rec *r) {
  const fl_fabric *w = c->whole ? c->whole : c->fab;
  uint32_t np = fl_fabric_plane_count(w);
  if (np < 2)
    return FL_OK;
  if (c->plane) {
    r->plane = strdup(c->plane);
    return r->plane && plane_prefix(&r->key, c->plane) == FL_OK &&
                   plane_prefix(&r->cause, c->plane) == FL_OK &&
                   plane_prefix(&r->root, c->plane) == FL_OK
               ? FL_OK
               : FL_ENOMEM;
  }
  json_t *ev = r->evidence ? json_loads(r->evidence, 0, NULL) : NULL;
  const char *named = json_string_value(json_object_get(ev, "plane"));
  if (named) { /* a cross-plane rule names the plane it judges */
    r->plane = strdup(named);
    json_decref(ev);
    return r->plane ? FL_OK : FL_ENOMEM;
  }
  json_decref(ev);
  uint8_t seen[64] = {0};
  for (uint32_t i = 0; i < f->n_nodes; i++) {
    uint32_t p = fl_fabric_node_plane(w, f->nodes[i]);
    if (p < 64)
      seen[p] = 1;
  }
  for (uint32_t i = 0; i < f->n_ports; i++) {
    fl_id q = fl_fabric_find_port(w, f->ports[i].node, f->ports[i].port);
    uint32_t p = q == FL_NONE ? FL_NONE : fl_fabric_port_plane(w, q);
    if (p < 64)
      seen[p] = 1;
  }
  char buf[512];
  size_t len = 0;
  buf[0] = '\0';
  for (uint32_t p = 0; p < np && p < 64; p++)
    if (seen[p] && len < sizeof buf)
      len += (size_t)snprintf(buf + len, sizeof buf - len, "%s%s",
                              len ? "," : "", fl_fabric_plane_name(w, p));
  if (!len)
    return FL_OK;
  r->plane = strdup(buf);
  return r->plane ? FL_OK : FL_ENOMEM;
}

static int api_report(fl_ctx *c, const fl_finding *fin) {
  fl_finding f;
  memset(&f, 0, sizeof f);
  if (!fin)
    return FL_EINVAL;
  memcpy(&f, fin, fin->struct_size < sizeof f ? fin->struct_size : sizeof f);
  int rc = check_finding(c, &f);
  fl_fix_rec *fix = NULL; /* ABI 1.2: how to fix it (host/fix.h) */
  if (rc == FL_OK && f.fix)
    rc = fl_fix_copy(c->fab, f.fix, &fix);
  if (rc != FL_OK)
    return rc;
  fl_finding_rec r;
  memset(&r, 0, sizeof r);
  if (normalise_evidence(f.evidence_json, &r.evidence) != FL_OK) {
    fl_fix_free(fix);
    return FL_EINVAL;
  }
  r.rule = xstrdup(c->rule->id);
  r.severity = f.severity ? f.severity : c->rule->default_severity;
  /* a policy override applies to every finding of the rule: the user's
   * judgement of a rule's weight beats the plugin's */
  uint32_t over = fl_policy_severity_of(c->host->policy, c->rule->id);
  if (over)
    r.severity = over;
  r.message = xstrdup(f.message);
  r.n_nodes = f.n_nodes;
  r.nodes = calloc(f.n_nodes + 1, sizeof *r.nodes);
  for (uint32_t i = 0; r.nodes && i < f.n_nodes; i++)
    r.nodes[i] = xstrdup(fl_fabric_node_name(c->fab, f.nodes[i]));
  r.n_ports = f.n_ports;
  r.ports = calloc(f.n_ports + 1, sizeof *r.ports);
  for (uint32_t i = 0; r.ports && i < f.n_ports; i++) {
    r.ports[i].node = xstrdup(fl_fabric_node_name(c->fab, f.ports[i].node));
    r.ports[i].port = f.ports[i].port;
    fl_id p = fl_fabric_find_port(c->fab, f.ports[i].node, f.ports[i].port);
    const char *lab = p == FL_NONE ? "" : fl_fabric_port_label(c->fab, p);
    if (*lab && !(r.ports[i].label = strdup(lab)))
      return FL_ENOMEM;
  }
  locate(c->fab, &f, &r);
  r.key = f.key ? xstrdup(f.key) : default_key(&r);
  r.fix = fix;
  if (f.cause && *f.cause) { /* one finding per cause (findings.h) */
    r.cause = xstrdup(f.cause);
    r.cause_msg = xstrdup(f.cause_message ? f.cause_message : f.cause);
    if (!r.cause || !r.cause_msg)
      return FL_ENOMEM;
  }
  /* one cause across rules (host/roots.h), ABI 1.4 */
  rc = fl_root_key(c->fab, f.root_kind, f.root_role, f.root_id, f.root_fact,
                   &r.root);
  if (rc != FL_OK)
    return rc;
  r.root_role = r.root ? f.root_role : 0;
  /* after the cause: a plane's run prefixes key and cause with the plane,
   * so that one plane's instances never merge with another's */
  if (finding_plane(c, &f, &r) != FL_OK)
    return FL_ENOMEM;
  if (!r.rule || !r.message || !r.nodes || !r.ports || !r.key ||
      fl_findings_push(c->out, &r) != 0)
    return FL_ENOMEM; /* (leaks on ENOMEM only) */
  return FL_OK;
}

static void api_bad_param(fl_ctx *c, const char *name, const char *msg) {
  c->failed = 1;
  c->bad_param = 1;
  snprintf(c->fail_msg, sizeof c->fail_msg, "parameter %s: %s",
           name ? name : "?", msg ? msg : "invalid value");
}

static void api_fail(fl_ctx *c, const char *msg) {
  c->failed = 1;
  snprintf(c->fail_msg, sizeof c->fail_msg, "%s", msg ? msg : "failed");
}

/* The event @kind about the rule of @c (index and count filled in). */
fl_host_event rule_event(const fl_ctx *c, uint32_t kind) {
  fl_host_event ev;
  memset(&ev, 0, sizeof ev);
  ev.kind = kind;
  ev.plugin = c->plugin;
  ev.rule = c->rule->id;
  ev.index = c->index;
  ev.count = c->count;
  ev.plane = c->plane;
  return ev;
}

/* A rule's log line goes to the host's caller as an event (the library
 * prints nothing); without a receiver it is dropped. */
static void api_log(fl_ctx *c, uint32_t level, const char *msg) {
  if (!c->host->on_event)
    return;
  fl_host_event ev = rule_event(c, FL_HOST_EV_LOG);
  ev.level = level;
  ev.message = msg ? msg : "";
  c->host->on_event(c->host->event_ctx, &ev);
}

static void api_progress(fl_ctx *c, const char *what, uint64_t done,
                         uint64_t total) {
  if (!c->host->on_event)
    return;
  fl_host_event ev = rule_event(c, FL_HOST_EV_RULE_PROGRESS);
  ev.what = what;
  ev.done = done;
  ev.total = total;
  c->host->on_event(c->host->event_ctx, &ev);
}

static const fl_dist *api_dist(fl_ctx *c) {
  return c->host->dist;
}

static uint32_t api_threads(fl_ctx *c) {
  uint32_t t = c->host->threads;
  if (t == 0)
    return fl_threads_available();
  return t > FL_THREADS_MAX ? FL_THREADS_MAX : t;
}

void fl_host_init(fl_host *h) {
  memset(h, 0, sizeof *h);
  fl_host_api *a = &h->api;
  a->struct_size = sizeof *a;
  a->abi_major = FL_ABI_MAJOR;
  a->abi_minor = FL_ABI_MINOR;
  a->fabric = api_fabric;
  a->rule_id = api_rule_id;
  a->node_count = fl_fabric_node_count;
  a->port_count = fl_fabric_port_count;
  a->link_count = fl_fabric_link_count;
  a->node_kind = fl_fabric_node_kind;
  a->node_name = fl_fabric_node_name;
  a->node_desc = fl_fabric_node_desc;
  a->node_guid = fl_fabric_node_guid;
  a->node_sysimgguid = fl_fabric_node_sysimgguid;
  a->node_devid = fl_fabric_node_devid;
  a->node_system = fl_fabric_node_system;
  a->node_device = fl_fabric_node_device;
  a->node_nports = fl_fabric_node_nports;
  a->node_tier = fl_fabric_node_tier;
  a->node_first_port = fl_fabric_node_first_port;
  a->node_port_count = fl_fabric_node_port_count;
  a->find_port = fl_fabric_find_port;
  a->find_node_guid = fl_fabric_find_node_guid;
  a->find_node_name = fl_fabric_find_node_name;
  a->port_node = fl_fabric_port_node;
  a->port_num = fl_fabric_port_num;
  a->port_guid = fl_fabric_port_guid;
  a->port_lid = fl_fabric_port_lid;
  a->port_lmc = fl_fabric_port_lmc;
  a->port_label = fl_fabric_port_label;
  a->port_link_count = fl_fabric_port_link_count;
  a->port_link = fl_fabric_port_link;
  a->link_port = fl_fabric_link_port;
  a->link_other = fl_fabric_link_other;
  a->link_width = fl_fabric_link_width;
  a->link_speed = fl_fabric_link_speed;
  a->link_width_b = fl_fabric_link_width_b;
  a->link_speed_b = fl_fabric_link_speed_b;
  a->link_flags = fl_fabric_link_flags;
  a->link_gbps = fl_fabric_link_gbps;
  a->attr = fl_fabric_attr;
  a->provenance = fl_fabric_provenance;
  a->speed_name = fl_speed_name;
  a->speed_lane_gbps = fl_speed_lane_gbps;
  a->components = fl_graph_components;
  a->articulation_points = fl_graph_articulation_points;
  a->bridges = fl_graph_bridges;
  a->bfs_distances = fl_graph_bfs_distances;
  a->param_int = api_param_int;
  a->param_double = api_param_double;
  a->param_string = api_param_string;
  a->report = api_report;
  a->fail = api_fail;
  a->log = api_log;
  a->progress = api_progress;
  a->dist = api_dist;
  a->fabric_serial = api_fabric_serial;
  a->threads = api_threads;
  a->lft_count = fl_fabric_lft_count;
  a->lft = fl_fabric_lft;
  a->max_lid = fl_fabric_max_lid;
  a->lid_port = fl_fabric_lid_port;
  a->has_sl2vl = fl_fabric_has_sl2vl;
  a->sl2vl = fl_fabric_sl2vl;
  a->has_path_sl = fl_fabric_has_path_sl;
  a->path_sl = fl_fabric_path_sl;
  a->note_count = fl_fabric_note_count;
  a->note = fl_fabric_note;
  a->cdg_analyze = fl_cdg_analyze;
  a->cdg_free = fl_cdg_free;
  a->components_masked = fl_graph_components_masked;
  a->maxflow = fl_graph_maxflow;
  fl_host_fill_ext(a);
  a->bad_param = api_bad_param;
}

void free_plugin(fl_loaded_plugin *p) {
  for (uint32_t r = 0; p->rules && r < p->desc.n_rules; r++) {
    if (p->params && p->params[r] && p->rules[r]) {
      for (uint32_t k = 0; k < p->rules[r]->n_params; k++)
        free(p->params[r][k]);
      free(p->params[r]);
    }
    free(p->rules[r]);
  }
  free(p->params);
  free(p->rules);
  free(p->path);
  memset(p, 0, sizeof *p);
}

void fl_host_free(fl_host *h) {
  for (size_t i = 0; i < h->n_plugins; i++) {
    fl_loaded_plugin *p = &h->plugins[i];
    if (p->initialised && p->desc.fini)
      p->desc.fini(p->data);
    free_plugin(p);
  }
  free(h->plugins);
  for (size_t i = 0; i < h->n_params; i++) {
    free(h->params[i].rule);
    free(h->params[i].name);
    free(h->params[i].value);
  }
  free(h->params);
  memset(h, 0, sizeof *h);
}
