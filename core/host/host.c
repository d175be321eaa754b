/*
 * core/host/host.c — the plugin host (see host.h).
 *
 * The patterns are those of SQLite loadable extensions and Redis modules: one
 * exported entry point returning a size-prefixed descriptor, a host function
 * table handed to the plugin, and copies of every plugin struct into
 * zero-filled host-size structs so that older plugins (smaller structs) keep
 * working when the ABI grows at the end.
 */
#define _GNU_SOURCE /* RTLD_*, realpath */
#include "host/host.h"

#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fnmatch.h>
#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "fabriclint/cdg.h"
#include "fabriclint/fabric.h"
#include "fabriclint/planes.h"
#include "fabriclint/routing.h"
#include "host/param_check.h"
#include "host/roots.h"
#include "io/data_path.h"
#include "model/graph.h"

/* The built-in plugin folder relative to an installed executable and to
 * libfabriclint.so; CMake defines both from the install directories. */
#ifndef FL_REL_BIN_PLUGINS
#define FL_REL_BIN_PLUGINS "../lib/fabriclint/plugins"
#endif
#ifndef FL_REL_LIB_PLUGINS
#define FL_REL_LIB_PLUGINS "fabriclint/plugins"
#endif
#ifndef FL_PLUGIN_INSTALL_DIR
#define FL_PLUGIN_INSTALL_DIR ""
#endif

struct fl_ctx {
  fl_host *host;
  const fl_fabric *fab;
  const fl_rule_def *rule;
  const char *plugin;  /* the rule's plugin name */
  size_t index, count; /* the rule's place in this run (events) */
  fl_findings *out;
  int failed;
  int bad_param; /* failed because of a user's parameter value */
  char fail_msg[512];
  const char *plane;      /* the plane this run judges (a plane's subset), or
                           * NULL: the whole fabric */
  const fl_fabric *whole; /* the whole fabric (== fab unless @plane) */
  uint64_t serial;        /* names @fab for this host (api_fabric_serial) */
};

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

static const fl_param_def *find_param_def(const fl_rule_def *r,
                                          const char *name) {
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
static fl_host_event rule_event(const fl_ctx *c, uint32_t kind) {
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

static void free_plugin(fl_loaded_plugin *p) {
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

/* ---- loading
 * ---------------------------------------------------------------------- */

/* Plugin trust, the rule of sshd's StrictModes (secure_filename()): a
 * plugin runs with the user's rights, so nobody else may be able to change
 * or replace it. For the real path (symlinks resolved) of the plugin file or
 * folder, every component up to "/" must be owned by root or the effective
 * user and be writable neither by its group nor by others, except that an
 * ancestor folder (not the plugin's own folder) may be writable when it has
 * the sticky bit: others cannot then rename or remove what they do not own
 * in it (/tmp, /var/tmp). The plugin's own folder gets no such exception:
 * anyone could add a .so to a sticky folder. */
static int check_component(const char *path, const char *what, int sticky_ok,
                           fl_error *err) {
  struct stat st;
  if (stat(path, &st) != 0)
    return fl_error_set(err, FL_EPLUGIN, path, 0, 0, "cannot stat %s: %s", what,
                        strerror(errno));
  if (st.st_uid != 0 && st.st_uid != geteuid())
    return fl_error_set(err, FL_EPLUGIN, path, 0, 0,
                        "refusing to load plugins: %s is owned by uid %u, "
                        "neither root nor the current user",
                        what, (unsigned)st.st_uid);
  if (sticky_ok && S_ISDIR(st.st_mode) && (st.st_mode & S_ISVTX))
    return FL_OK;
  if (st.st_mode & (S_IWOTH | S_IWGRP))
    return fl_error_set(
        err, FL_EPLUGIN, path, 0, 0,
        "refusing to load plugins: %s is writable by %s "
        "(mode %03o); run chmod %s on it",
        what, (st.st_mode & S_IWOTH) ? "other users" : "its group",
        (unsigned)(st.st_mode & 0777), (st.st_mode & S_IWOTH) ? "go-w" : "g-w");
  return FL_OK;
}

/* Check @real (an absolute, resolved path) and every folder above it. The
 * first @strict components (the file and its folder: 2; a plugin folder: 1)
 * get no sticky exception. @what names the first component. */
static int check_perms_chain(const char *real, const char *what, int strict,
                             fl_error *err) {
  char p[PATH_MAX];
  snprintf(p, sizeof p, "%s", real);
  for (int level = 0;; level++) {
    const char *w = level == 0       ? what
                    : level < strict ? "the plugin's folder"
                                     : "a folder above the plugins";
    int rc = check_component(p, w, level >= strict, err);
    if (rc != FL_OK || strcmp(p, "/") == 0 || !strchr(p, '/'))
      return rc;
    char *slash = strrchr(p, '/');
    if (slash == p)
      p[1] = '\0';
    else
      *slash = '\0';
  }
}

static int valid_rule_id(const char *id, const char *plugin) {
  size_t n = strlen(plugin);
  if (strncmp(id, plugin, n) != 0 || id[n] != '.' || id[n + 1] == '\0')
    return 0;
  for (const char *s = id; *s; s++)
    if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') || *s == '.' ||
          *s == '-' || *s == '_'))
      return 0;
  return 1;
}

/* The rule @id among loaded plugins (rules of a plugin being loaded count
 * as far as they are copied). */
static const fl_rule_def *find_rule(const fl_host *h, const char *id) {
  for (size_t i = 0; i < h->n_plugins; i++)
    for (uint32_t r = 0; h->plugins[i].rules && r < h->plugins[i].desc.n_rules;
         r++)
      if (h->plugins[i].rules[r] && h->plugins[i].rules[r]->id &&
          strcmp(h->plugins[i].rules[r]->id, id) == 0)
        return h->plugins[i].rules[r];
  return NULL;
}

/* fl_param_def as ABI 1.0 defined it (up to @doc). */
#define PARAM_DEF_V1_0_SIZE                                                    \
  (offsetof(fl_param_def, doc) + sizeof(((fl_param_def *)0)->doc))

/* Copy and validate the rules of @p (descriptor already copied). */
static int copy_rules(fl_host *h, fl_loaded_plugin *p, const fl_plugin_desc *d,
                      fl_error *err) {
  p->rules = calloc(d->n_rules + 1, sizeof *p->rules);
  p->params = calloc(d->n_rules + 1, sizeof *p->params);
  if (!p->rules || !p->params)
    return fl_error_set(err, FL_ENOMEM, p->path, 0, 0, "out of memory");
  for (uint32_t i = 0; i < d->n_rules; i++) {
    const fl_rule_def *src = d->rules[i];
    if (!src || src->struct_size < sizeof(fl_rule_def))
      return fl_error_set(err, FL_EPLUGIN, p->path, 0, 0,
                          "plugin '%s': rule %u has no descriptor or an "
                          "fl_rule_def smaller than ABI 1.0's",
                          d->name, i);
    if (src->id && find_rule(h, src->id))
      return fl_error_set(err, FL_EPLUGIN, p->path, 0, 0,
                          "rule id '%s' is defined twice", src->id);
    fl_rule_def *r = calloc(1, sizeof *r);
    if (!r)
      return fl_error_set(err, FL_ENOMEM, p->path, 0, 0, "out of memory");
    memcpy(r, src, sizeof *r);
    p->rules[i] = r;
    if (!r->id || !valid_rule_id(r->id, d->name))
      return fl_error_set(err, FL_EPLUGIN, p->path, 0, 0,
                          "plugin '%s': rule id '%s' must be '%s.<rule>' in "
                          "lower case letters, digits, '-' and '_'",
                          d->name, r->id ? r->id : "(null)", d->name);
    if (!r->check || !r->summary)
      return fl_error_set(err, FL_EPLUGIN, p->path, 0, 0,
                          "plugin '%s': rule '%s' lacks check() or a summary",
                          d->name, r->id);
    if (r->default_severity < FL_SEV_INFO || r->default_severity > FL_SEV_ERROR)
      return fl_error_set(err, FL_EPLUGIN, p->path, 0, 0,
                          "rule '%s': default severity %u is not 1..3", r->id,
                          r->default_severity);
    p->params[i] = calloc(r->n_params + 1, sizeof **p->params);
    if (!p->params[i])
      return fl_error_set(err, FL_ENOMEM, p->path, 0, 0, "out of memory");
    for (uint32_t k = 0; k < r->n_params; k++) {
      const fl_param_def *ps = src->params[k];
      if (!ps || ps->struct_size < PARAM_DEF_V1_0_SIZE || !ps->name)
        return fl_error_set(err, FL_EPLUGIN, p->path, 0, 0,
                            "rule '%s': parameter %u is malformed", r->id, k);
      fl_param_def *pd = calloc(1, sizeof(fl_param_def));
      if (!pd)
        return fl_error_set(err, FL_ENOMEM, p->path, 0, 0, "out of memory");
      p->params[i][k] = pd;
      memcpy(pd, ps,
             ps->struct_size < sizeof *pd ? ps->struct_size : sizeof *pd);
      pd->struct_size = sizeof *pd; /* zero-filled beyond the plugin's */
      char why[256];
      if (fl_param_check_def(pd, why, sizeof why) != FL_OK)
        return fl_error_set(err, FL_EPLUGIN, p->path, 0, 0,
                            "rule '%s': parameter '%s': %s", r->id, pd->name,
                            why);
    }
    r->params = (const fl_param_def *const *)p->params[i];
  }
  return FL_OK;
}

static int check_desc(const char *path, const fl_plugin_desc *d,
                      fl_error *err) {
  if (!d)
    return fl_error_set(err, FL_EPLUGIN, path, 0, 0,
                        "%s() returned no descriptor", FL_PLUGIN_ENTRY);
  if (d->abi_major != FL_ABI_MAJOR)
    return fl_error_set(
        err, FL_EPLUGIN, path, 0, 0,
        "plugin was built for fabriclint plugin ABI %u.%u; this "
        "fabriclint implements ABI %u.%u (the major versions "
        "must match): rebuild the plugin against this SDK",
        d->abi_major, d->abi_minor, FL_ABI_MAJOR, FL_ABI_MINOR);
  if (d->abi_minor > FL_ABI_MINOR)
    return fl_error_set(err, FL_EPLUGIN, path, 0, 0,
                        "plugin needs fabriclint plugin ABI %u.%u, newer than "
                        "this fabriclint's ABI %u.%u: upgrade fabriclint",
                        d->abi_major, d->abi_minor, FL_ABI_MAJOR, FL_ABI_MINOR);
  if (d->struct_size < sizeof(fl_plugin_desc))
    return fl_error_set(err, FL_EPLUGIN, path, 0, 0,
                        "plugin descriptor is %u bytes, smaller than ABI 1.0's "
                        "%zu",
                        d->struct_size, sizeof(fl_plugin_desc));
  if (!d->name || !*d->name || (d->n_rules && !d->rules))
    return fl_error_set(err, FL_EPLUGIN, path, 0, 0,
                        "plugin descriptor lacks a name or its rules");
  return FL_OK;
}

static fl_loaded_plugin *find_plugin(fl_host *h, const char *name) {
  for (size_t i = 0; i < h->n_plugins; i++)
    if (strcmp(h->plugins[i].desc.name, name) == 0)
      return &h->plugins[i];
  return NULL;
}

static int add_plugin(fl_host *h, const char *path, void *handle,
                      const fl_plugin_desc *d, fl_error *err) {
  if (h->n_plugins == h->cap_plugins) {
    size_t n = h->cap_plugins ? h->cap_plugins * 2 : 8;
    fl_loaded_plugin *v = realloc(h->plugins, n * sizeof *v);
    if (!v)
      return fl_error_set(err, FL_ENOMEM, path, 0, 0, "out of memory");
    h->plugins = v;
    h->cap_plugins = n;
  }
  fl_loaded_plugin *p = &h->plugins[h->n_plugins++];
  memset(p, 0, sizeof *p);
  p->path = strdup(path);
  p->handle = handle;
  memcpy(&p->desc, d, sizeof p->desc);
  int rc = p->path ? copy_rules(h, p, d, err)
                   : fl_error_set(err, FL_ENOMEM, path, 0, 0, "out of memory");
  if (rc == FL_OK && p->desc.init && p->desc.init(&h->api, &p->data) != 0)
    rc = fl_error_set(err, FL_EPLUGIN, path, 0, 0,
                      "plugin '%s': init() refused to start", d->name);
  if (rc != FL_OK) {
    free_plugin(p);
    h->n_plugins--;
    return rc;
  }
  p->initialised = 1;
  return FL_OK;
}

int fl_host_load_file(fl_host *h, const char *path, fl_error *err) {
  char real[PATH_MAX];
  if (!realpath(path, real))
    return fl_error_set(err, FL_EPLUGIN, path, 0, 0, "cannot open plugin: %s",
                        strerror(errno));
  int rc = check_perms_chain(real, "the plugin file", 2, err);
  if (rc != FL_OK)
    return rc;
  /* dlopen() of a FIFO blocks until a writer comes: regular files only */
  struct stat st;
  if (stat(real, &st) != 0 || !S_ISREG(st.st_mode))
    return fl_error_set(err, FL_EPLUGIN, path, 0, 0,
                        "not a regular file; a plugin is a shared object "
                        "file");
  void *handle = dlopen(real, RTLD_NOW | RTLD_LOCAL);
  if (!handle)
    return fl_error_set(err, FL_EPLUGIN, path, 0, 0, "dlopen failed: %s",
                        dlerror());
  void *sym = dlsym(handle, FL_PLUGIN_ENTRY);
  if (!sym)
    return fl_error_set(err, FL_EPLUGIN, path, 0, 0,
                        "not a fabriclint plugin: no exported symbol %s()",
                        FL_PLUGIN_ENTRY);
  fl_plugin_entry_fn entry;
  memcpy(&entry, &sym, sizeof entry);
  const fl_plugin_desc *d = entry();
  rc = check_desc(path, d, err);
  if (rc != FL_OK)
    return rc;
  if (find_plugin(h, d->name)) {
    if (h->verbose && h->on_event) {
      char msg[1024];
      snprintf(msg, sizeof msg, "%s: plugin '%s' already loaded; skipped", path,
               d->name);
      fl_host_event ev;
      memset(&ev, 0, sizeof ev);
      ev.kind = FL_HOST_EV_NOTE;
      ev.plugin = d->name;
      ev.level = FL_SEV_INFO;
      ev.message = msg;
      h->on_event(h->event_ctx, &ev);
    }
    return FL_OK; /* never dlclose (DESIGN.md §3) */
  }
  return add_plugin(h, path, handle, d, err);
}

static int cmp_str(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Appends a copy of @name to *@names (*@n used of *@cap). FL_OK or
 * FL_ENOMEM (nothing added). */
static int push_name(char ***names, size_t *n, size_t *cap, const char *name) {
  if (*n == *cap) {
    size_t nc = *cap ? *cap * 2 : 16;
    char **v = realloc(*names, nc * sizeof *v);
    if (!v)
      return FL_ENOMEM;
    *names = v;
    *cap = nc;
  }
  char *c = strdup(name);
  if (!c)
    return FL_ENOMEM;
  (*names)[(*n)++] = c;
  return FL_OK;
}

int fl_host_load_dir(fl_host *h, const char *dir, fl_error *err) {
  char real[PATH_MAX];
  if (!realpath(dir, real))
    return fl_error_set(err, FL_EPLUGIN, dir, 0, 0,
                        "cannot open plugin folder: %s", strerror(errno));
  int rc = check_perms_chain(real, "the plugin folder", 1, err);
  if (rc != FL_OK)
    return rc;
  DIR *d = opendir(dir);
  if (!d)
    return fl_error_set(err, FL_EPLUGIN, dir, 0, 0,
                        "cannot open plugin folder: %s", strerror(errno));
  char **names = NULL;
  size_t n = 0, cap = 0;
  struct dirent *e;
  while (rc == FL_OK && (e = readdir(d)) != NULL) {
    size_t len = strlen(e->d_name);
    if (len < 4 || strcmp(e->d_name + len - 3, ".so") != 0)
      continue;
    if (push_name(&names, &n, &cap, e->d_name) != FL_OK)
      rc = fl_error_set(err, FL_ENOMEM, dir, 0, 0,
                        "out of memory listing the plugin folder");
  }
  closedir(d);
  if (n > 1) /* an empty folder has no list at all: qsort(NULL) is UB */
    qsort(names, n, sizeof *names, cmp_str);
  for (size_t i = 0; i < n && rc == FL_OK; i++) {
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/%s", dir, names[i]);
    rc = fl_host_load_file(h, path, err);
  }
  for (size_t i = 0; i < n; i++)
    free(names[i]);
  free(names);
  return rc;
}

const char *fl_host_builtin_dir(char *buf, size_t size) {
  static const fl_data_where where = {
      "plugins", FL_REL_BIN_PLUGINS, FL_REL_LIB_PLUGINS, FL_PLUGIN_INSTALL_DIR};
  return fl_data_dir(&where, buf, size);
}

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

/* ---- running
 * ------------------------------------------------------------------- */

/* What for_selected_rules() calls for each rule it selects: plugin @p,
 * @rule, its run number @index; FL_OK or an error code. */
typedef int (*rule_visit)(void *arg, fl_loaded_plugin *p,
                          const fl_rule_def *rule, size_t index);

/* The one filter of the rules a run takes: call @fn (NULL: none, count only)
 * for every rule of @h that runs under @patterns (fl_host_rule_runs), in
 * plugin then rule order, numbering them 0, 1, ...; at most @limit of them.
 * *@rc (when not NULL) gets each error @fn returns (the last one stays).
 * Returns the number of rules selected. */
static size_t for_selected_rules(fl_host *h, const char *patterns, size_t limit,
                                 rule_visit fn, void *arg, int *rc) {
  size_t n = 0;
  for (size_t i = 0; i < h->n_plugins; i++) {
    fl_loaded_plugin *p = &h->plugins[i];
    for (uint32_t r = 0; r < p->desc.n_rules && n < limit; r++) {
      const fl_rule_def *rule = p->rules[r];
      if (!fl_host_rule_runs(h, rule, patterns))
        continue;
      int one = fn ? fn(arg, p, rule, n) : FL_OK;
      n++;
      if (one != FL_OK && rc)
        *rc = one;
    }
  }
  return n;
}

/* Run @rule of plugin @p as run number @index of @count into @run; FL_OK or
 * the error it sets in @err. */
static int run_one_in(fl_host *h, const fl_fabric *fab, const fl_fabric *whole,
                      uint64_t serial, const char *plane, fl_loaded_plugin *p,
                      const fl_rule_def *rule, size_t index, size_t count,
                      fl_findings *out, fl_rule_run *run, fl_error *err) {
  memset(run, 0, sizeof *run);
  run->rule = rule;
  run->plugin = p->desc.name;
  fl_ctx ctx;
  memset(&ctx, 0, sizeof ctx);
  ctx.host = h;
  ctx.fab = fab;
  ctx.rule = rule;
  ctx.plugin = p->desc.name;
  ctx.index = index;
  ctx.count = count;
  ctx.out = out;
  ctx.plane = plane;
  ctx.whole = whole;
  ctx.serial = serial;
  fl_host_event ev = rule_event(&ctx, FL_HOST_EV_RULE_BEGIN);
  if (h->on_event)
    h->on_event(h->event_ctx, &ev);
  int crc = rule->check(&h->api, &ctx, p->data);
  ev.kind = FL_HOST_EV_RULE_END;
  if (h->on_event)
    h->on_event(h->event_ctx, &ev);
  if (crc == 0 && !ctx.failed)
    return FL_OK;
  run->failed = 1;
  snprintf(run->message, sizeof run->message, "%s",
           ctx.failed ? ctx.fail_msg : "check() returned an error");
  if (ctx.bad_param)
    return fl_error_set(err, FL_EINVAL, NULL, 0, 0, "rule %s: %s", rule->id,
                        run->message);
  return fl_error_set(err, FL_EPLUGIN, p->path, 0, 0,
                      "rule %s could not run: %s", rule->id, run->message);
}

/* 1 when @rule judges a multi-plane fabric as a whole (FL_NEEDS_ALL_PLANES:
 * cross-plane rules, rules already plane-aware); else it runs once per
 * plane on the plane's subset (fabriclint/planes.h). */
static int all_planes(const fl_rule_def *rule) {
  return (rule->needs & FL_NEEDS_ALL_PLANES) != 0;
}

/* One pass of the selected rules over a fabric or one plane's subset. */
typedef struct rule_pass {
  fl_host *h;
  const fl_fabric *fab; /* the fabric as loaded */
  const fl_fabric *sub; /* the plane's subset, or NULL: @fab */
  const char *plane;    /* the plane's name, or NULL */
  int planes;           /* a multi-plane run: only rules of pass @whole */
  int whole;            /* 1: the pass on the whole fabric (all_planes()) */
  fl_findings *out;
  fl_rule_run *v; /* one run per selected rule */
  size_t count;   /* selected rules */
  fl_error *err;
  uint64_t serial; /* names the fabric the pass's rules see (@sub or @fab) */
} rule_pass;

/* rule_visit of a pass: run @rule into v[@k] (kept when an earlier pass's
 * run of it failed); its error into err. */
static int run_selected(void *arg, fl_loaded_plugin *p, const fl_rule_def *rule,
                        size_t k) {
  rule_pass *x = arg;
  if (x->planes && all_planes(rule) != x->whole)
    return FL_OK;
  fl_rule_run one;
  fl_error e1;
  fl_error_clear(&e1);
  int rc = run_one_in(x->h, x->sub ? x->sub : x->fab, x->fab, x->serial,
                      x->plane, p, rule, k, x->count, x->out, &one, &e1);
  if (!x->v[k].failed)
    x->v[k] = one;
  if (rc != FL_OK && x->err)
    *x->err = e1;
  return rc;
}

/* Run every selected rule of @x->h once per plane of multi-plane fabric
 * @x->fab (on the plane's subset, built one at a time and freed after its
 * pass: plugins key their caches by fl_host_api.fabric_serial, which is new
 * for every pass, so a later subset at a freed one's address is never taken
 * for it) or once on the whole fabric (all_planes()); @x->v holds one run
 * per rule, failed when any of its runs failed. */
static int run_planes(rule_pass *x, const char *patterns) {
  int rc = FL_OK;
  const fl_fabric *fab = x->fab;
  uint32_t np = fl_fabric_plane_count(fab);
  x->planes = 1;
  for (uint32_t pl = 0; pl <= np; pl++) {
    fl_fabric *sub = NULL;
    if (pl < np && fl_fabric_plane_subset(fab, pl, &sub, x->err) != FL_OK)
      return x->err && x->err->code ? x->err->code : FL_ENOMEM;
    x->sub = sub;
    x->serial = ++x->h->serial;
    x->plane = pl < np ? fl_fabric_plane_name(fab, pl) : NULL;
    x->whole = pl == np;
    for_selected_rules(x->h, patterns, x->count, run_selected, x, &rc);
    x->sub = NULL;
    fl_fabric_free(sub);
  }
  return rc;
}

int fl_host_run_rules(fl_host *h, const fl_fabric *fab, const char *patterns,
                      fl_findings *out, fl_rule_run **runs, size_t *n_runs,
                      fl_error *err) {
  int rc = FL_OK;
  size_t n, count = for_selected_rules(h, patterns, SIZE_MAX, NULL, NULL, NULL);
  fl_rule_run *v = count ? calloc(count, sizeof *v) : NULL;
  if (count && !v)
    return fl_error_set(err, FL_ENOMEM, NULL, 0, 0, "out of memory");
  rule_pass x = {h, fab, NULL, NULL, 0, 0, out, v, count, err, ++h->serial};
  if (fl_fabric_plane_count(fab) >= 2) {
    rc = run_planes(&x, patterns);
    n = count;
  } else {
    n = for_selected_rules(h, patterns, count, run_selected, &x, &rc);
  }
  *runs = v;
  *n_runs = n;
  return rc;
}

int fl_host_run(fl_host *h, const fl_fabric *fab, const char *patterns,
                fl_findings *out, size_t *n_run, fl_error *err) {
  fl_rule_run *runs = NULL;
  size_t n = 0;
  int rc = fl_host_run_rules(h, fab, patterns, out, &runs, &n, err);
  free(runs);
  if (n_run)
    *n_run = n;
  return rc;
}
