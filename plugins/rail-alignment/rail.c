/*
 * plugins/rail-alignment/rail.c — every GPU NIC on its rail (rule id prefix
 * `rail-alignment`).
 *
 * In rail-optimised AI fabrics (NVIDIA DGX SuperPOD, Spectrum-X, Alibaba
 * HPN) NIC k of every host of a scalable unit (SU) lands on the leaf of rail
 * k, so that the k-th GPUs of all hosts talk through one switch hop. One
 * crossed cable silently halves that host's collective bandwidth.
 *
 * Model used (all through fl_host_api, nothing InfiniBand-specific):
 *  - a NIC is a CA node cabled to a switch (its leaf); its host is the
 *    node's system and its device the node's device, both derived from the
 *    node description or node-name-map entry ("dgx-001 mlx5_3") or given by
 *    a design;
 *  - a NIC's rail is its `rail` attribute (design), else the profile's rail
 *    for its device (profiles/NAME.map, or map=FILE), else, with no profile,
 *    its device name ("mlx5_3"), which is right on any platform whose NIC
 *    names are the same on every host;
 *  - a leaf's rail is its `rail` attribute, else the majority rail of its
 *    NICs (inference; findings say so);
 *  - SUs are the `su` attributes, else the groups of leaves that share hosts.
 * NICs whose host or device cannot be determined, or whose device name does
 * not fit the profile or the naming of the other NICs, are reported as
 * unresolved and never guessed.
 *
 * Sources: DGX H100 User Guide, Table 6 "Network Modules" (profile data);
 * DGX SuperPOD reference architectures (rail-optimised SUs);
 * docs/rules/rail-alignment.md.
 */
#define _GNU_SOURCE /* dladdr */
#include <ctype.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "fabriclint/json_buf.h"
#include "fabriclint/plugin.h"
#include "fabriclint/roles.h"
#include "fabriclint/view.h"
#include "gpu.h"
#include "names.h"

#define NO_RAIL     (-1)
#define NON_COMPUTE (-2)
#define MAX_MAP     256

/* ---- profiles
 * ----------------------------------------------------------------- */

typedef struct map_ent {
  char device[64];
  char rail[32]; /* "-" for non-compute */
  char role[32];
} map_ent;

typedef struct rail_map {
  map_ent e[MAX_MAP];
  uint32_t n;
  int generic; /* device index = rail */
  char name[64];
} rail_map;

#define MAP_LINE_MAX 1024

/* Copy the next blank-separated token of @line from *@pos into @out (size
 * @size). 0 at the end of the line, 1 copied, -1 too long (*@col = its
 * 1-based column either way). */
static int map_token(const char *line, size_t *pos, char *out, size_t size,
                     size_t *col) {
  size_t i = *pos;
  while (line[i] == ' ' || line[i] == '\t')
    i++;
  size_t b = i;
  while (line[i] && line[i] != ' ' && line[i] != '\t' && line[i] != '\r' &&
         line[i] != '\n')
    i++;
  *pos = i;
  *col = b + 1;
  if (i == b)
    return 0;
  if (i - b >= size)
    return -1;
  memcpy(out, line + b, i - b);
  out[i - b] = '\0';
  return 1;
}

/* One map line (comment already cut) into @e. 0 blank, 1 entry, -1 error
 * in @why (path:line:col: what was expected). */
static int map_line(const char *line, const char *path, uint32_t ln, map_ent *e,
                    char *why, size_t size) {
  static const char *const what[3] = {"device", "rail", "role"};
  char *field[3] = {e->device, e->rail, e->role};
  const size_t cap[3] = {sizeof e->device, sizeof e->rail, sizeof e->role};
  size_t pos = 0, col = 0;
  int k = 0;
  for (; k < 3; k++) {
    int r = map_token(line, &pos, field[k], cap[k], &col);
    if (r == 0)
      break;
    if (r < 0) {
      snprintf(why, size, "%s:%u:%zu: %s name longer than %zu characters", path,
               ln, col, what[k], cap[k] - 1);
      return -1;
    }
  }
  char extra[2];
  int more = k == 3 ? map_token(line, &pos, extra, sizeof extra, &col) : 0;
  if (k == 0)
    return 0;
  if (k < 2 || more != 0) {
    snprintf(why, size, "%s:%u:%zu: expected DEVICE RAIL [ROLE]", path, ln,
             col);
    return -1;
  }
  if (k < 3)
    snprintf(e->role, sizeof e->role, "%s",
             strcmp(e->rail, "-") == 0 ? "storage" : "compute");
  return 1;
}

static int load_map_file(const char *path, rail_map *m, char *why,
                         size_t size) {
  FILE *f = fopen(path, "r");
  if (!f) {
    snprintf(why, size, "cannot read rail map %s", path);
    return -1;
  }
  char line[MAP_LINE_MAX];
  uint32_t ln = 0;
  int rc = 0;
  while (rc == 0 && fgets(line, sizeof line, f)) {
    ln++;
    if (!strchr(line, '\n') && !feof(f)) {
      snprintf(why, size, "%s:%u: line longer than %d characters", path, ln,
               MAP_LINE_MAX - 2);
      rc = -1;
      break;
    }
    char *h = strchr(line, '#');
    if (h)
      *h = '\0';
    map_ent e;
    int r = map_line(line, path, ln, &e, why, size);
    if (r < 0)
      rc = -1;
    else if (r > 0 && m->n == MAX_MAP) {
      snprintf(why, size, "%s:%u: more than %d entries", path, ln, MAX_MAP);
      rc = -1;
    } else if (r > 0)
      m->e[m->n++] = e;
  }
  fclose(f);
  return rc;
}

/* Profiles ship beside the plugin: <plugin dir>/rail-alignment-profiles/. */
static int load_profile(const char *name, rail_map *m, char *why, size_t size) {
  memset(m, 0, sizeof *m);
  snprintf(m->name, sizeof m->name, "%s", name);
  if (strcmp(name, "device") == 0)
    return 0;
  if (strcmp(name, "generic") == 0) {
    m->generic = 1;
    return 0;
  }
  for (const char *c = name; *c; c++)
    if (!isalnum((unsigned char)*c) && *c != '-' && *c != '_') {
      snprintf(why, size, "profile '%s': not a profile name", name);
      return -1;
    }
  Dl_info info;
  if (!dladdr((void *)load_profile, &info) || !info.dli_fname) {
    snprintf(why, size, "cannot locate the plugin's profiles");
    return -1;
  }
  char path[4096];
  const char *slash = strrchr(info.dli_fname, '/');
  snprintf(path, sizeof path, "%.*s/rail-alignment-profiles/%s.map",
           slash ? (int)(slash - info.dli_fname) : 1,
           slash ? info.dli_fname : ".", name);
  if (load_map_file(path, m, why, size) != 0) {
    snprintf(why, size,
             "unknown profile '%s' (shipped: dgx-h100, dgx-h200, dgx-a100, "
             "generic, device; or pass map=FILE)",
             name);
    return -1;
  }
  return 0;
}

/* ---- the analysis (shared by all rules, cached)
 * -------------------------------- */

typedef struct nic {
  fl_id node;
  fl_id leaf;            /* switch node, or FL_NONE */
  char name[128];        /* as users know it: "host-03 ens1f0np0" */
  const char *sys, *dev; /* host and device (borrowed from the fabric) */
  const char *rail_attr; /* the NIC's `rail` attribute, or NULL */
  uint32_t port;         /* NIC port number */
  uint32_t leaf_port;
  int32_t rail; /* label index, NO_RAIL (unresolved), NON_COMPUTE */
  int32_t host; /* host index, -1 when unresolved */
  const char *role;
  const char *unresolved; /* why, or NULL */
  uint8_t eth;            /* cabled at an Ethernet rate (RoCE) */
  uint8_t role_guessed;   /* role from the name/NIC-count heuristic */
  uint8_t role_unknown;   /* role neither compute nor a service role */
} nic;

typedef struct leaf {
  fl_id node;
  int32_t rail; /* label index, or NO_RAIL */
  int inferred;
  uint32_t su;
  uint32_t n_compute;
  uint32_t majority; /* NICs of the leaf's rail */
  uint32_t n_rails;  /* distinct rails among its NICs */
} leaf;

typedef struct analysis {
  const fl_fabric *fab;
  char key[512];
  rail_map map;
  char **labels; /* rail labels, sorted */
  uint32_t n_labels;
  nic *nics;
  uint32_t n_nics;
  char **hosts; /* host names, sorted */
  uint32_t n_hosts;
  rn_set labels_by_name, hosts_by_name; /* hash indexes of the sorted sets */
  uint8_t labels_natdup, hosts_natdup;  /* see rn_sorted_find() */
  uint32_t *host_su;
  uint8_t *host_partial; /* host has NICs that could not be resolved */
  leaf *leaves;
  uint32_t n_leaves;
  int32_t *leaf_of_node; /* node -> leaf index */
  uint32_t n_sus;
  uint32_t *host_off, *host_idx; /* NICs by host (CSR) */
  uint32_t *leaf_off, *leaf_idx; /* NICs by leaf, in port order (CSR) */
  int inferred_any;
  int applicable;  /* the fabric is rail-optimised (see rail_applicable) */
  char scheme[32]; /* device naming scheme in device mode, or "" */
} analysis;

typedef struct rail_state {
  const fl_host_api *api;
  analysis *a;
} rail_state;

static void free_analysis(analysis *a) {
  if (!a)
    return;
  for (uint32_t i = 0; i < a->n_labels; i++)
    free(a->labels[i]);
  free(a->labels);
  for (uint32_t i = 0; i < a->n_hosts; i++)
    free(a->hosts[i]);
  free(a->hosts);
  rn_set_free(&a->labels_by_name);
  rn_set_free(&a->hosts_by_name);
  free(a->host_su);
  free(a->host_partial);
  free(a->nics);
  free(a->leaves);
  free(a->leaf_of_node);
  free(a->host_off);
  free(a->host_idx);
  free(a->leaf_off);
  free(a->leaf_idx);
  free(a);
}

static int rail_init(const fl_host_api *api, void **data) {
  rail_state *st = calloc(1, sizeof *st);
  if (!st)
    return 1;
  st->api = api;
  *data = st;
  return 0;
}

static void rail_fini(void *data) {
  rail_state *st = data;
  if (st)
    free_analysis(st->a);
  free(st);
}

static int32_t host_find(const analysis *a, const char *s) {
  return rn_sorted_find(a->hosts, a->n_hosts, &a->hosts_by_name,
                        a->hosts_natdup, s);
}

static int32_t label_find(const analysis *a, const char *s) {
  return rn_sorted_find(a->labels, a->n_labels, &a->labels_by_name,
                        a->labels_natdup, s);
}

/* Naming scheme of a device: its name with digits removed ("mlx5_" for
 * "mlx5_3", "HCA-" for "HCA-2"). */
static void scheme_of(const char *dev, char *out, size_t size) {
  size_t n = 0;
  /* Linux network interface names (systemd predictable names `ens1f0np0`,
   * `enp65s0f1np1`, or `ethN`) number slot, function and port: the scheme
   * is the name without any digit (`ensfnp`) */
  if (strncmp(dev, "en", 2) == 0 || strncmp(dev, "eth", 3) == 0) {
    for (const char *c = dev; *c && n + 1 < size; c++)
      if (!isdigit((unsigned char)*c))
        out[n++] = *c;
    out[n] = '\0';
    return;
  }
  for (const char *c = dev; *c && n + 1 < size; c++)
    if (!isdigit((unsigned char)*c) ||
        (c > dev && c[-1] != '_' && c[-1] != '-' &&
         !isdigit((unsigned char)c[-1])))
      out[n++] = *c;
  out[n] = '\0';
}

static const map_ent *map_find(const rail_map *m, const char *dev) {
  for (uint32_t i = 0; i < m->n; i++)
    if (strcmp(m->e[i].device, dev) == 0)
      return &m->e[i];
  return NULL;
}

/* Rail label of a NIC from its device under the map; NULL = unresolved,
 * "-" = non-compute. */
static const char *device_rail(const rail_map *m, const char *dev, char *buf,
                               size_t size, const char **role) {
  if (m->n) {
    const map_ent *e = map_find(m, dev);
    if (!e)
      return NULL;
    *role = e->role;
    return e->rail;
  }
  if (m->generic) {
    const char *d = dev + strlen(dev);
    while (d > dev && isdigit((unsigned char)d[-1]))
      d--;
    if (!*d)
      return NULL;
    long idx = strtol(d, NULL, 10);
    if (strncmp(dev, "HCA-", 4) == 0)
      idx -= 1; /* HCA-1 is the first */
    snprintf(buf, size, "%ld", idx);
    return buf;
  }
  return dev; /* device mode */
}

static int is_compute_role(const char *role, const char *compute_roles) {
  size_t n = strlen(role);
  for (const char *c = compute_roles; c && *c;) {
    const char *e = strchr(c, ',');
    size_t len = e ? (size_t)(e - c) : strlen(c);
    if (len == n && strncmp(c, role, n) == 0)
      return 1;
    c = e ? e + 1 : NULL;
  }
  return 0;
}

typedef struct params {
  const char *profile, *map, *compute_roles;
  int64_t infer, infer_roles;
} params;

static int read_params(const fl_host_api *api, fl_ctx *ctx, params *p) {
  p->profile = "device";
  p->map = "";
  p->compute_roles = "compute";
  p->infer = 1;
  p->infer_roles = 1;
  api->param_int(ctx, "infer-roles", &p->infer_roles);
  api->param_string(ctx, "profile", &p->profile);
  api->param_string(ctx, "map", &p->map);
  api->param_string(ctx, "compute-roles", &p->compute_roles);
  api->param_int(ctx, "infer", &p->infer);
  return 0;
}

/* The switch port cabled to CA port @p (fl_view_port_switch(), view.h): its
 * node (FL_NONE when the port has no cable to a switch) and, in @leaf_port,
 * its number; in *@eth (may be NULL) whether the cable runs at an Ethernet
 * rate. */
static fl_id port_switch(const fl_host_api *api, const fl_fabric *f, fl_id p,
                         uint32_t *leaf_port, uint8_t *eth) {
  fl_id l = FL_NONE, q = FL_NONE;
  fl_id s = fl_view_port_switch(api, f, p, &l, &q);
  if (s == FL_NONE)
    return FL_NONE;
  *leaf_port = api->port_num(f, q);
  if (eth)
    *eth = api->link_speed(f, l) >= FL_SPEED_ETH_1G;
  return s;
}

/* One host model for InfiniBand and Ethernet: a NIC is either a CA node
 * (an HCA "dgx-001 mlx5_3": its system is the host, its device the NIC) or
 * one port of a multi-NIC host node (an LLDP chassis, or a design host with
 * labelled ports: the node is the host, the port label the NIC's device).
 * A CA node is a host of NICs when two or more of its ports are cabled to
 * switches and each of them has a label or a `rail` attribute. Fills @x
 * for port @p (FL_NONE: the node is one NIC) and returns 0, or -1 when the
 * port is not a NIC of this fabric's rails: not cabled to a switch, or, in
 * one plane of a multi-plane fabric, a NIC that belongs in another plane
 * (the plane subset marks it `home-plane`, fabriclint/planes.h): one cause,
 * reported once by planes.host-planes, not again as cross-rail/su-shape. */
static int make_nic(const fl_host_api *api, const fl_fabric *f, fl_id n,
                    fl_id p, nic *x) {
  memset(x, 0, sizeof *x);
  x->node = n;
  const char *sys = api->node_system(f, n);
  if (p == FL_NONE) {
    x->leaf = fl_view_ca_switch(api, f, n, &x->port, &x->leaf_port);
    fl_id cp = x->leaf == FL_NONE ? FL_NONE : api->find_port(f, n, x->port);
    if (cp != FL_NONE)
      x->eth = api->link_speed(f, api->port_link(f, cp, 0)) >= FL_SPEED_ETH_1G;
    x->sys = sys;
    x->dev = api->node_device(f, n);
    x->rail_attr = api->attr(f, FL_ENT_NODE, n, "rail");
    if (!x->rail_attr && cp != FL_NONE)
      x->rail_attr = api->attr(f, FL_ENT_PORT, cp, "rail");
    snprintf(x->name, sizeof x->name, "%s", api->node_name(f, n));
    if (cp != FL_NONE && api->attr(f, FL_ENT_PORT, cp, "home-plane"))
      return -1; /* cabled into the wrong plane: planes.host-planes' */
  } else {
    x->leaf = port_switch(api, f, p, &x->leaf_port, &x->eth);
    x->port = api->port_num(f, p);
    x->sys = *sys ? sys : api->node_name(f, n);
    x->dev = api->port_label(f, p);
    x->rail_attr = api->attr(f, FL_ENT_PORT, p, "rail");
    snprintf(x->name, sizeof x->name, "%s %s", x->sys, *x->dev ? x->dev : "?");
    if (api->attr(f, FL_ENT_PORT, p, "home-plane"))
      return -1; /* cabled into the wrong plane: planes.host-planes' */
  }
  return x->leaf == FL_NONE ? -1 : 0;
}

/* Ports of CA @n that are NICs of a multi-NIC host node, counted; 0 when
 * the node is itself one NIC (see make_nic()). */
static uint32_t host_nic_ports(const fl_host_api *api, const fl_fabric *f,
                               fl_id n) {
  fl_id first = api->node_first_port(f, n);
  uint32_t cabled = 0;
  for (uint32_t k = 0; first != FL_NONE && k < api->node_port_count(f, n);
       k++) {
    uint32_t lp;
    if (port_switch(api, f, first + k, &lp, NULL) == FL_NONE)
      continue;
    if (!*api->port_label(f, first + k) &&
        !api->attr(f, FL_ENT_PORT, first + k, "rail"))
      return 0;
    cabled++;
  }
  return cabled >= 2 ? cabled : 0;
}

/* Capacities and hash indexes of the label and host sets while NICs are
 * collected. */
typedef struct collector {
  uint32_t cap_l, cap_h;
  rn_set labels, hosts;
} collector;

/* Resolve NIC @x (host, device, rail label) and append it. */
static int add_nic(const fl_host_api *api, const fl_fabric *f, analysis *a,
                   const params *p, nic *x, collector *c) {
  char buf[32];
  const char *role = api->attr(f, FL_ENT_NODE, x->node, "role");
  const char *rail = x->rail_attr;
  const char *prole = NULL;
  x->rail = NO_RAIL;
  x->host = -1;
  if (!*x->sys)
    x->unresolved = "no host name in the node description (give a node-name "
                    "map or --system-pattern)";
  else if (!rail && !*x->dev)
    x->unresolved = "no device name in the node description";
  else if (!rail &&
           !(rail = device_rail(&a->map, x->dev, buf, sizeof buf, &prole)))
    x->unresolved = "device not in the rail profile or map";
  x->role = role ? role : prole ? prole : "compute";
  if (!x->unresolved) {
    /* a role that is neither a compute role nor a documented service role
     * (roles.h) is the default role, compute: never a silent reason to
     * leave the host out (rail-alignment.unknown-role says so) */
    x->role_unknown = strcmp(rail, "-") != 0 &&
                      !is_compute_role(x->role, p->compute_roles) &&
                      !fl_role_is_service(x->role);
    if (strcmp(rail, "-") == 0 ||
        (!is_compute_role(x->role, p->compute_roles) && !x->role_unknown))
      x->rail = NON_COMPUTE;
    else if (rn_add_unique(&a->labels, &a->n_labels, &c->cap_l, &c->labels,
                           rail) != 0)
      return -1;
    if (rn_add_unique(&a->hosts, &a->n_hosts, &c->cap_h, &c->hosts, x->sys) !=
        0)
      return -1;
  }
  a->nics[a->n_nics++] = *x;
  return 0;
}

static int collect_pass(const fl_host_api *api, const fl_fabric *f, analysis *a,
                        const params *p, collector *c) {
  uint32_t nn = api->node_count(f), total = 0;
  for (fl_id n = 0; n < nn; n++)
    if (api->node_kind(f, n) == FL_NODE_CA) {
      uint32_t k = host_nic_ports(api, f, n);
      total += k ? k : 1;
    }
  a->nics = calloc((size_t)total + 1, sizeof *a->nics);
  if (!a->nics)
    return -1;
  for (fl_id n = 0; n < nn; n++) {
    if (api->node_kind(f, n) != FL_NODE_CA)
      continue;
    if (fl_view_is_sharp_an(api, f, n))
      continue; /* SHARP AN inside the switch */
    nic x;
    if (host_nic_ports(api, f, n) == 0) {
      if (make_nic(api, f, n, FL_NONE, &x) != 0)
        continue; /* not cabled to a switch: not a rail NIC */
      if (add_nic(api, f, a, p, &x, c) != 0)
        return -1;
      continue;
    }
    fl_id first = api->node_first_port(f, n);
    for (uint32_t k = 0; k < api->node_port_count(f, n); k++)
      if (make_nic(api, f, n, first + k, &x) == 0 &&
          add_nic(api, f, a, p, &x, c) != 0)
        return -1;
  }
  return 0;
}

/* First pass: NICs, their hosts and rail labels (unsorted: sort_sets()). */
static int collect_nics(const fl_host_api *api, const fl_fabric *f, analysis *a,
                        const params *p) {
  collector c = {0};
  int rc = collect_pass(api, f, a, p, &c);
  rn_set_free(&c.labels);
  rn_set_free(&c.hosts);
  return rc;
}

/* Sort the label and host sets naturally and index them. 0, or -1. */
static int sort_sets(analysis *a) {
  if (a->n_labels > 1)
    qsort(a->labels, a->n_labels, sizeof *a->labels, rn_cmp_natp);
  if (a->n_hosts > 1)
    qsort(a->hosts, a->n_hosts, sizeof *a->hosts, rn_cmp_natp);
  if (rn_sorted_index(a->labels, a->n_labels, &a->labels_by_name,
                      &a->labels_natdup) != 0 ||
      rn_sorted_index(a->hosts, a->n_hosts, &a->hosts_by_name,
                      &a->hosts_natdup) != 0)
    return -1;
  return 0;
}

/* ---- roles by heuristic -------------------------------------------------
 * Hosts that are not GPU compute nodes (the UFM/SM server, login, storage,
 * management) sit on an InfiniBand fabric too and are not "incomplete rail
 * hosts". When no NIC of a host has a role attribute (design XML, annotation
 * file) and the rail map gives none, the role is guessed, and the guess is
 * reported once (rail-alignment.roles):
 *  1. the host name has a word (a run of letters) naming a service: ufm,
 *     cufm, sm, opensm -> ufm; login -> login; storage, stor, nfs, lustre ->
 *     storage; cache -> cache; mgmt, mgt, management, admin, head, bastion,
 *     slurm -> management;
 *     (skipped when most hosts have such a word: a naming convention);
 *  2. else a host with one NIC while most hosts have two or more -> service.
 * Parameter infer-roles=0 turns the guess off. */

static const char *role_of_word(const char *w, size_t n) {
  static const char *const words[][2] = {{"ufm", "ufm"},
                                         {"cufm", "ufm"},
                                         {"sm", "ufm"},
                                         {"opensm", "ufm"},
                                         {"login", "login"},
                                         {"storage", "storage"},
                                         {"stor", "storage"},
                                         {"nfs", "storage"},
                                         {"lustre", "storage"},
                                         {"cache", "cache"},
                                         {"mgmt", "management"},
                                         {"mgt", "management"},
                                         {"admin", "management"},
                                         {"head", "management"},
                                         {"management", "management"},
                                         {"bastion", "management"},
                                         {"slurm", "management"}};
  for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
    if (strlen(words[i][0]) == n && strncasecmp(words[i][0], w, n) == 0)
      return words[i][1];
  return NULL;
}

static const char *role_by_name(const char *host) {
  for (const char *c = host; *c;) {
    while (*c && !isalpha((unsigned char)*c))
      c++;
    const char *e = c;
    while (*e && isalpha((unsigned char)*e))
      e++;
    const char *r = e > c ? role_of_word(c, (size_t)(e - c)) : NULL;
    if (r)
      return r;
    c = e;
  }
  return NULL;
}

static void guess_role(nic *x, const char *role) {
  x->role = role;
  x->role_guessed = 1;
  if (!x->unresolved)
    x->rail = NON_COMPUTE;
}

static int guess_roles(const fl_host_api *api, const fl_fabric *f,
                       analysis *a) {
  uint32_t nh = a->n_hosts, *cnt = calloc(nh + 1, sizeof *cnt);
  uint8_t *given = calloc(nh + 1, 1);
  if (!cnt || !given) {
    free(cnt), free(given);
    return -1;
  }
  for (uint32_t i = 0; i < a->n_nics; i++) {
    int32_t h = host_find(a, api->node_system(f, a->nics[i].node));
    if (h < 0)
      continue;
    cnt[h]++;
    if (api->attr(f, FL_ENT_NODE, a->nics[i].node, "role") ||
        strcmp(a->nics[i].role, "compute") != 0)
      given[h] = 1;
  }
  uint32_t multi = 0, named = 0;
  for (uint32_t h = 0; h < nh; h++) {
    multi += cnt[h] >= 2;
    named += !given[h] && role_by_name(a->hosts[h]) != NULL;
  }
  /* a service word in most host names is a naming convention, not a role */
  int by_name = named * 2 <= nh;
  for (uint32_t i = 0; i < a->n_nics; i++) {
    nic *x = &a->nics[i];
    const char *host = api->node_system(f, x->node);
    int32_t h = host_find(a, host);
    if (h < 0 || given[h])
      continue;
    const char *r = by_name ? role_by_name(host) : NULL;
    if (r)
      guess_role(x, r);
    else if (cnt[h] == 1 && multi * 2 > nh)
      guess_role(x, "service");
  }
  free(cnt), free(given);
  return 0;
}

/* Device mode with rails on the leaves only (a leaf-rails side file such
 * as `node,rail` / `leaf-r0,0`, or design `rail=` on switches): the rail of
 * a device name is the strict majority rail of the leaves its NICs are
 * cabled to (`ens1f0np0` is on rail-0 leaves on most hosts, so it is rail
 * 0). Fills a->map with those pairs and returns 1 when that gave any rail;
 * 0 (map untouched) when NICs carry rails themselves or no leaf has one. */
static int rails_from_leaves(const fl_host_api *api, const fl_fabric *f,
                             analysis *a) {
  rail_map m;
  memset(&m, 0, sizeof m);
  uint32_t votes[MAX_MAP][8], n_rails = 0;
  char rails[8][16];
  memset(votes, 0, sizeof votes);
  for (uint32_t i = 0; i < a->n_nics; i++) {
    const nic *x = &a->nics[i];
    if (x->rail_attr)
      return 0;
    const char *lr = api->attr(f, FL_ENT_NODE, x->leaf, "rail");
    if (!lr || !*x->dev || strlen(x->dev) >= sizeof m.e[0].device ||
        strlen(lr) >= sizeof rails[0])
      continue;
    uint32_t r = 0, d = 0;
    while (r < n_rails && strcmp(rails[r], lr) != 0)
      r++;
    if (r == n_rails) {
      if (n_rails == 8)
        continue;
      snprintf(rails[n_rails++], sizeof rails[0], "%s", lr);
    }
    while (d < m.n && strcmp(m.e[d].device, x->dev) != 0)
      d++;
    if (d == m.n) {
      if (m.n == MAX_MAP)
        continue;
      snprintf(m.e[m.n++].device, sizeof m.e[0].device, "%s", x->dev);
    }
    votes[d][r]++;
  }
  uint32_t kept = 0;
  for (uint32_t d = 0; d < m.n; d++) {
    uint32_t best = 0, sum = 0;
    for (uint32_t r = 0; r < n_rails; r++) {
      sum += votes[d][r];
      if (votes[d][r] > votes[d][best])
        best = r;
    }
    if (votes[d][best] * 2 <= sum)
      continue; /* no majority: the device stays unresolved */
    map_ent *e = &a->map.e[kept++];
    snprintf(e->device, sizeof e->device, "%s", m.e[d].device);
    snprintf(e->rail, sizeof e->rail, "%s", rails[best]);
    snprintf(e->role, sizeof e->role, "compute");
  }
  a->map.n = kept;
  if (kept)
    snprintf(a->map.name, sizeof a->map.name,
             "device rails from the leaves' rails (majority)");
  return kept > 0;
}

/* Forget the NICs, hosts and rail labels of a first collect_nics() pass. */
static void reset_nics(analysis *a) {
  for (uint32_t i = 0; i < a->n_labels; i++)
    free(a->labels[i]);
  free(a->labels);
  for (uint32_t i = 0; i < a->n_hosts; i++)
    free(a->hosts[i]);
  free(a->hosts);
  rn_set_free(&a->labels_by_name);
  rn_set_free(&a->hosts_by_name);
  free(a->nics);
  a->labels = a->hosts = NULL;
  a->nics = NULL;
  a->n_labels = a->n_hosts = a->n_nics = 0;
}

/* In device mode, NICs named in another scheme than most NICs' cannot be
 * compared by name (HCA-2 vs mlx5_3): mark them unresolved. The most
 * common scheme is counted over all resolved NICs and chosen among those of
 * NICs without a `rail` attribute, ties to the first such NIC; one
 * scheme_of() per NIC and a hash count: O(NICs) (it was O(NICs^2) when
 * no scheme had a majority). 0, or -1 out of memory. */
static int check_schemes(analysis *a) {
  char *best = a->scheme; /* owned by the analysis: no state in the plugin */
  char sch[32];
  best[0] = '\0';
  char **names = calloc((size_t)a->n_nics + 1, sizeof *names);
  int32_t *of = malloc(((size_t)a->n_nics + 1) * sizeof *of);
  uint32_t *cnt = calloc((size_t)a->n_nics + 1, sizeof *cnt);
  uint32_t n = 0, cap = a->n_nics + 1, best_n = 0;
  rn_set h = {0};
  int rc = names && of && cnt ? 0 : -1;
  for (uint32_t i = 0; rc == 0 && i < a->n_nics; i++) {
    of[i] = -1;
    if (a->nics[i].unresolved)
      continue;
    scheme_of(a->nics[i].dev, sch, sizeof sch);
    rc = rn_add_unique(&names, &n, &cap, &h, sch);
    if (rc == 0) {
      of[i] = (int32_t)(*rn_set_find(&h, names, sch) - 1);
      cnt[of[i]]++;
    }
  }
  for (uint32_t i = 0; rc == 0 && i < a->n_nics; i++)
    if (!a->nics[i].unresolved && !a->nics[i].rail_attr &&
        cnt[of[i]] > best_n) {
      best_n = cnt[of[i]];
      snprintf(best, sizeof a->scheme, "%s", names[of[i]]);
    }
  for (uint32_t i = 0; rc == 0 && i < a->n_nics; i++)
    if (!a->nics[i].unresolved && !a->nics[i].rail_attr &&
        strcmp(names[of[i]], best) != 0)
      a->nics[i].unresolved = "device named unlike the other NICs; rails are "
                              "compared by device name (give a node-name map, "
                              "a profile or map=FILE)";
  for (uint32_t k = 0; k < n; k++)
    free(names[k]);
  free(names), free(of), free(cnt);
  rn_set_free(&h);
  return rc;
}

static int resolve_indexes(analysis *a) {
  char buf[32];
  a->host_partial = calloc(a->n_hosts + 1, 1);
  if (!a->host_partial)
    return -1;
  for (uint32_t i = 0; i < a->n_nics; i++) {
    nic *x = &a->nics[i];
    if (x->unresolved) {
      int32_t h = host_find(a, x->sys);
      if (h >= 0)
        a->host_partial[h] = 1;
      x->rail = NO_RAIL;
      x->host = -1;
      continue;
    }
    x->host = host_find(a, x->sys);
    if (x->rail == NON_COMPUTE)
      continue;
    const char *rail = x->rail_attr;
    const char *role = NULL;
    if (!rail)
      rail = device_rail(&a->map, x->dev, buf, sizeof buf, &role);
    x->rail = rail ? label_find(a, rail) : NO_RAIL;
  }
  return 0;
}

/* Leaves: rail by attribute or majority; SUs by attribute or shared hosts. */
static uint32_t uf_find(uint32_t *p, uint32_t x) {
  while (p[x] != x)
    x = p[x] = p[p[x]];
  return x;
}

/* Compute NICs of leaf @L (indexes @idx[@n]): its counts, and its rail from
 * the `rail` attribute or, with @infer, the strict majority (ties: the
 * lowest label). @cnt (one per label) is zero on entry and on return. */
static void leaf_rail(const fl_host_api *api, const fl_fabric *f, analysis *a,
                      uint32_t L, const uint32_t *idx, uint32_t n, int infer,
                      uint32_t *cnt) {
  leaf *lf = &a->leaves[L];
  uint32_t best = 0;
  for (uint32_t k = 0; k < n; k++) {
    uint32_t r = (uint32_t)a->nics[idx[k]].rail;
    lf->n_rails += cnt[r]++ == 0;
    lf->n_compute++;
  }
  for (uint32_t k = 0; k < n; k++) {
    uint32_t r = (uint32_t)a->nics[idx[k]].rail;
    if (cnt[r] > cnt[best] || (cnt[r] == cnt[best] && r < best))
      best = r;
  }
  const char *attr = api->attr(f, FL_ENT_NODE, lf->node, "rail");
  if (attr) {
    lf->rail = label_find(a, attr);
    lf->majority = lf->rail >= 0 ? cnt[lf->rail] : 0;
  } else if (infer && a->n_labels && cnt[best] * 2 > lf->n_compute) {
    lf->rail = (int32_t)best; /* strict majority */
    lf->majority = cnt[best];
    lf->inferred = 1;
    a->inferred_any = 1;
  }
  for (uint32_t k = 0; k < n; k++)
    cnt[a->nics[idx[k]].rail] = 0;
}

/* Leaf rails in O(NICs + leaves): compute NICs bucketed by leaf, then one
 * pass over each leaf's bucket. */
static int leaf_rails(const fl_host_api *api, const fl_fabric *f, analysis *a,
                      int infer) {
  uint32_t *off = calloc((size_t)a->n_leaves + 2, sizeof *off);
  uint32_t *idx = malloc(((size_t)a->n_nics + 1) * sizeof *idx);
  uint32_t *cnt = calloc((size_t)a->n_labels + 1, sizeof *cnt);
  if (!off || !idx || !cnt) {
    free(off), free(idx), free(cnt);
    return -1;
  }
  for (uint32_t i = 0; i < a->n_nics; i++)
    if (a->nics[i].rail >= 0)
      off[a->leaf_of_node[a->nics[i].leaf] + 2]++;
  for (uint32_t L = 0; L < a->n_leaves; L++)
    off[L + 2] += off[L + 1];
  for (uint32_t i = 0; i < a->n_nics; i++)
    if (a->nics[i].rail >= 0)
      idx[off[a->leaf_of_node[a->nics[i].leaf] + 1]++] = i;
  for (uint32_t L = 0; L < a->n_leaves; L++)
    leaf_rail(api, f, a, L, idx + off[L], off[L + 1] - off[L], infer, cnt);
  free(off), free(idx), free(cnt);
  return 0;
}

static int build_leaves(const fl_host_api *api, const fl_fabric *f, analysis *a,
                        int infer) {
  uint32_t nn = api->node_count(f);
  a->leaf_of_node = malloc((nn + 1) * sizeof *a->leaf_of_node);
  a->leaves = calloc(nn + 1, sizeof *a->leaves);
  if (!a->leaf_of_node || !a->leaves)
    return -1;
  for (fl_id n = 0; n < nn; n++)
    a->leaf_of_node[n] = -1;
  for (uint32_t i = 0; i < a->n_nics; i++) {
    fl_id s = a->nics[i].leaf;
    if (a->leaf_of_node[s] < 0) {
      a->leaf_of_node[s] = (int32_t)a->n_leaves;
      a->leaves[a->n_leaves].node = s;
      a->leaves[a->n_leaves++].rail = NO_RAIL;
    }
  }
  if (leaf_rails(api, f, a, infer) != 0)
    return -1;
  /* SUs: union leaves that share a host, unless `su` attributes say */
  uint32_t *parent = malloc((a->n_leaves + 1) * sizeof *parent);
  int32_t *host_leaf = malloc((a->n_hosts + 1) * sizeof *host_leaf);
  a->host_su = calloc(a->n_hosts + 1, sizeof *a->host_su);
  if (!parent || !host_leaf || !a->host_su) {
    free(parent), free(host_leaf);
    return -1;
  }
  for (uint32_t L = 0; L < a->n_leaves; L++)
    parent[L] = L;
  for (uint32_t h = 0; h < a->n_hosts; h++)
    host_leaf[h] = -1;
  for (uint32_t i = 0; i < a->n_nics; i++) {
    const nic *x = &a->nics[i];
    if (x->host < 0)
      continue;
    uint32_t L = (uint32_t)a->leaf_of_node[x->leaf];
    if (host_leaf[x->host] < 0)
      host_leaf[x->host] = (int32_t)L;
    else
      parent[uf_find(parent, L)] =
          uf_find(parent, (uint32_t)host_leaf[x->host]);
  }
  /* number SUs by their first leaf in node order */
  uint32_t *num = malloc((a->n_leaves + 1) * sizeof *num);
  for (uint32_t L = 0; num && L < a->n_leaves; L++)
    num[L] = UINT32_MAX;
  for (uint32_t L = 0; num && L < a->n_leaves; L++) {
    uint32_t r = uf_find(parent, L);
    if (num[r] == UINT32_MAX)
      num[r] = a->n_sus++;
    a->leaves[L].su = num[r];
  }
  for (uint32_t h = 0; num && h < a->n_hosts; h++)
    a->host_su[h] = host_leaf[h] >= 0 ? a->leaves[host_leaf[h]].su : 0;
  int ok = num != NULL;
  free(num), free(parent), free(host_leaf);
  return ok ? 0 : -1;
}

typedef struct port_key {
  uint32_t leaf, port, idx;
} port_key;

static int cmp_port_key(const void *x, const void *y) {
  const port_key *a = x, *b = y;
  if (a->leaf != b->leaf)
    return a->leaf < b->leaf ? -1 : 1;
  if (a->port != b->port)
    return a->port < b->port ? -1 : 1;
  return a->idx < b->idx ? -1 : a->idx > b->idx;
}

/* NICs grouped by host and by leaf (leaf groups in port order). */
static int build_groups(analysis *a) {
  a->host_off = calloc(a->n_hosts + 2, sizeof *a->host_off);
  a->host_idx = malloc((a->n_nics + 1) * sizeof *a->host_idx);
  a->leaf_off = calloc(a->n_leaves + 2, sizeof *a->leaf_off);
  a->leaf_idx = malloc((a->n_nics + 1) * sizeof *a->leaf_idx);
  port_key *keys = malloc((a->n_nics + 1) * sizeof *keys);
  if (!a->host_off || !a->host_idx || !a->leaf_off || !a->leaf_idx || !keys) {
    free(keys);
    return -1;
  }
  for (uint32_t i = 0; i < a->n_nics; i++)
    if (a->nics[i].host >= 0)
      a->host_off[a->nics[i].host + 1]++;
  for (uint32_t h = 0; h < a->n_hosts; h++)
    a->host_off[h + 1] += a->host_off[h];
  uint32_t *fill = calloc(a->n_hosts + 1, sizeof *fill);
  if (!fill) {
    free(keys);
    return -1;
  }
  for (uint32_t i = 0; i < a->n_nics; i++) {
    int32_t h = a->nics[i].host;
    if (h >= 0)
      a->host_idx[a->host_off[h] + fill[h]++] = i;
  }
  free(fill);
  for (uint32_t i = 0; i < a->n_nics; i++)
    keys[i] = (port_key){(uint32_t)a->leaf_of_node[a->nics[i].leaf],
                         a->nics[i].leaf_port, i};
  if (a->n_nics > 1)
    qsort(keys, a->n_nics, sizeof *keys, cmp_port_key);
  for (uint32_t i = 0; i < a->n_nics; i++) {
    a->leaf_idx[i] = keys[i].idx;
    a->leaf_off[keys[i].leaf + 1]++;
  }
  for (uint32_t L = 0; L < a->n_leaves; L++)
    a->leaf_off[L + 1] += a->leaf_off[L];
  free(keys);
  return 0;
}

/* Rail rules apply to rail-optimised fabrics: the design declares rails,
 * or most hosts with several compute NICs have each NIC on its own leaf. A
 * classic fat tree (one NIC per host), or a lab whose dual-NIC hosts plug
 * both NICs into one switch, is not rail-optimised, and rail findings there
 * would be noise. */
static int rail_applicable(const fl_host_api *api, const fl_fabric *f,
                           const analysis *a) {
  for (uint32_t L = 0; L < a->n_leaves; L++)
    if (api->attr(f, FL_ENT_NODE, a->leaves[L].node, "rail"))
      return 1;
  /* seen[L] == h + 1: host h has a compute NIC on leaf L (O(NICs)) */
  uint32_t *seen = calloc((size_t)a->n_leaves + 1, sizeof *seen);
  if (!seen)
    return -1;
  uint32_t multi = 0, spread = 0;
  int yes = 0;
  for (uint32_t h = 0; h < a->n_hosts && !yes; h++) {
    uint32_t nics = 0, same_leaf = 0;
    for (uint32_t k = a->host_off[h]; k < a->host_off[h + 1] && !yes; k++) {
      const nic *x = &a->nics[a->host_idx[k]];
      if (x->rail < 0)
        continue;
      yes = x->rail_attr != NULL;
      uint32_t L = (uint32_t)a->leaf_of_node[x->leaf];
      same_leaf |= seen[L] == h + 1;
      seen[L] = h + 1;
      nics++;
    }
    if (nics >= 2) {
      multi++;
      spread += !same_leaf;
    }
  }
  free(seen);
  return yes || (spread > 0 && spread * 2 >= multi);
}

/* Could the fabric be rail-optimised (rail_applicable())? Right after the
 * first collect_nics(), in O(NICs): when no NIC and no leaf has a `rail`
 * attribute and every host has one resolved NIC, rail_applicable() would
 * say no whatever the later passes do (they only ever take NICs away from
 * compute rails), so a classic fat tree of 65,536 single-NIC hosts is left
 * after one pass. */
static int maybe_rail(const fl_host_api *api, const fl_fabric *f,
                      const analysis *a) {
  uint32_t resolved = 0;
  for (uint32_t i = 0; i < a->n_nics; i++)
    resolved += a->nics[i].unresolved == NULL;
  if (resolved != a->n_hosts)
    return 1; /* some host has two or more NICs */
  for (uint32_t i = 0; i < a->n_nics; i++)
    if (a->nics[i].rail_attr ||
        api->attr(f, FL_ENT_NODE, a->nics[i].leaf, "rail"))
      return 1;
  return 0;
}

/* The fabric is not rail-optimised: nothing to check, report nothing (rail
 * findings on a classic fat tree would be noise) and say so once, with -v
 * (the analysis is cached for all rules). Returns @a. */
static analysis *not_rail(const fl_host_api *api, fl_ctx *ctx, analysis *a,
                          const char *why) {
  char msg[512];
  snprintf(msg, sizeof msg,
           "not a rail-optimised fabric (%u NICs of %u hosts; %s): the rail "
           "rules have nothing to check",
           a->n_nics, a->n_hosts, why);
  api->log(ctx, FL_SEV_INFO, msg);
  for (uint32_t i = 0; i < a->n_hosts; i++)
    free(a->hosts[i]); /* free_analysis() only sees n_hosts */
  rn_set_free(&a->hosts_by_name);
  a->n_nics = a->n_leaves = a->n_hosts = a->n_sus = 0;
  return a;
}

static analysis *get_analysis(const fl_host_api *api, fl_ctx *ctx,
                              rail_state *st) {
  const fl_fabric *f = api->fabric(ctx);
  params p;
  read_params(api, ctx, &p);
  char key[512];
  snprintf(key, sizeof key, "%s|%s|%s|%lld|%lld", p.profile, p.map,
           p.compute_roles, (long long)p.infer, (long long)p.infer_roles);
  if (st->a && st->a->fab == f && strcmp(st->a->key, key) == 0)
    return st->a;
  free_analysis(st->a);
  st->a = calloc(1, sizeof *st->a);
  analysis *a = st->a;
  if (!a) {
    api->fail(ctx, "out of memory");
    return NULL;
  }
  a->fab = f;
  snprintf(a->key, sizeof a->key, "%s", key);
  char why[512] = "";
  int rc = *p.map ? (memset(&a->map, 0, sizeof a->map),
                     snprintf(a->map.name, sizeof a->map.name, "map"),
                     load_map_file(p.map, &a->map, why, sizeof why))
                  : load_profile(p.profile, &a->map, why, sizeof why);
  if (rc != 0) {
    fl_param_error(api, ctx, *p.map ? "map" : "profile", why);
    return NULL;
  }
  if (collect_nics(api, f, a, &p) != 0) {
    api->fail(ctx, "out of memory");
    return NULL;
  }
  if (!maybe_rail(api, f, a))
    return not_rail(api, ctx, a,
                    "no `rail` attribute, and no host has two "
                    "or more NICs");
  if (sort_sets(a) != 0 || (p.infer_roles && guess_roles(api, f, a) != 0)) {
    api->fail(ctx, "out of memory");
    return NULL;
  }
  if (!a->map.n && !a->map.generic && rails_from_leaves(api, f, a) &&
      (reset_nics(a), collect_nics(api, f, a, &p) != 0 || sort_sets(a) != 0)) {
    api->fail(ctx, "out of memory");
    return NULL;
  }
  if ((!a->map.n && !a->map.generic && check_schemes(a) != 0) ||
      resolve_indexes(a) != 0) {
    api->fail(ctx, "out of memory");
    return NULL;
  }
  if (build_leaves(api, f, a, (int)p.infer) != 0 || build_groups(a) != 0) {
    api->fail(ctx, "out of memory");
    return NULL;
  }
  a->applicable = rail_applicable(api, f, a);
  if (a->applicable < 0) {
    api->fail(ctx, "out of memory");
    return NULL;
  }
  if (!a->applicable)
    return not_rail(api, ctx, a,
                    "fewer than half of the hosts with two or "
                    "more compute NICs have them on separate "
                    "leaves");
  return a;
}

/* ---- the view the GPU affinity rules read (gpu.h) ---------------------- */

static fl_id rail_leaf(const analysis *a, int32_t r, uint32_t su);

int rail_gpu_view(const fl_host_api *api, fl_ctx *ctx, void *data, rg_view *v) {
  const analysis *a = get_analysis(api, ctx, data);
  memset(v, 0, sizeof *v);
  if (!a)
    return 1;
  v->nic = calloc(a->n_nics ? a->n_nics : 1, sizeof *v->nic);
  if (!v->nic) {
    api->fail(ctx, "out of memory");
    return 1;
  }
  for (uint32_t i = 0; i < a->n_nics; i++) {
    const nic *x = &a->nics[i];
    if (x->host < 0 || x->rail == NO_RAIL || x->leaf == FL_NONE)
      continue;
    const leaf *lf = &a->leaves[a->leaf_of_node[x->leaf]];
    rg_nic *r = &v->nic[v->n_nic++];
    r->node = x->node;
    r->leaf = x->leaf;
    r->leaf_port = x->leaf_port;
    r->host = x->sys;
    r->dev = x->dev;
    r->rail = x->rail >= 0 ? a->labels[x->rail] : NULL;
    r->leaf_rail = lf->rail >= 0 ? a->labels[lf->rail] : NULL;
    r->leaf_inferred = lf->inferred;
    r->fix_leaf = x->rail >= 0 && x->rail != lf->rail
                      ? rail_leaf(a, x->rail, lf->su)
                      : FL_NONE;
  }
  /* compute rails that have a leaf, in natural order (labels are sorted) */
  uint8_t *has = calloc(a->n_labels ? a->n_labels : 1, 1);
  const char **rails = calloc(a->n_labels ? a->n_labels : 1, sizeof *rails);
  if (!has || !rails) {
    free(has);
    free(rails);
    free(v->nic);
    api->fail(ctx, "out of memory");
    return 1;
  }
  for (uint32_t L = 0; L < a->n_leaves; L++)
    if (a->leaves[L].rail >= 0)
      has[a->leaves[L].rail] = 1;
  for (uint32_t r = 0; r < a->n_labels; r++)
    if (has[r])
      rails[v->n_rails++] = a->labels[r];
  free(has);
  v->rails = rails;
  return 0;
}

/* ---- reporting helpers
 * ------------------------------------------------------------ */

static int report(const fl_host_api *api, fl_ctx *ctx, uint32_t sev,
                  const char *msg, const fl_id *nodes, uint32_t nn,
                  const fl_port_ref *ports, uint32_t np, const char *ev) {
  return fl_emit(api, ctx, sev, msg, nodes, nn, ports, np, NULL, 0, ev);
}

static const char *rail_name(const analysis *a, int32_t r) {
  return r >= 0 && (uint32_t)r < a->n_labels ? a->labels[r] : "?";
}

static const leaf *leaf_of(const analysis *a, fl_id s) {
  return &a->leaves[a->leaf_of_node[s]];
}

/* A leaf of rail @r in SU @su (the fix target), or FL_NONE. */
static fl_id rail_leaf(const analysis *a, int32_t r, uint32_t su) {
  for (uint32_t L = 0; L < a->n_leaves; L++)
    if (a->leaves[L].rail == r && a->leaves[L].su == su)
      return a->leaves[L].node;
  return FL_NONE;
}

/* A free port of switch @s (no cable), preferring @want; 0 when none. */
static uint32_t free_port(const fl_host_api *api, const fl_fabric *f, fl_id s,
                          uint32_t want) {
  uint32_t n = api->node_nports(f, s);
  fl_id p = api->find_port(f, s, want);
  if (want && want <= n && (p == FL_NONE || api->port_link_count(f, p) == 0))
    return want;
  for (uint32_t k = 1; k <= n; k++) {
    p = api->find_port(f, s, k);
    if (p == FL_NONE || api->port_link_count(f, p) == 0)
      return k;
  }
  return 0;
}

/* Port @num of @node as users know it: its label (`Ethernet1/3`, `swp3`)
 * when it has one, else `port N`. Returns @buf. */
static const char *port_str(const fl_host_api *api, const fl_fabric *f,
                            fl_id node, uint32_t num, char *buf, size_t size) {
  fl_id p = api->find_port(f, node, num);
  const char *lb = p == FL_NONE ? "" : api->port_label(f, p);
  if (*lb)
    snprintf(buf, size, "%s", lb);
  else
    snprintf(buf, size, "port %u", num);
  return buf;
}

/* The cable of NIC @x (its port to its leaf): the link id, and in *@leaf_end
 * the index (0, 1) of the link's end on the leaf. FL_NONE when the NIC's
 * port has no such cable (never for a NIC: make_nic() found it). */
static fl_id nic_link(const fl_host_api *api, const fl_fabric *f, const nic *x,
                      uint32_t *leaf_end) {
  fl_id p = api->find_port(f, x->node, x->port);
  for (uint32_t k = 0; p != FL_NONE && k < api->port_link_count(f, p); k++) {
    fl_id l = api->port_link(f, p, k);
    for (uint32_t e = 0; e < 2; e++) {
      fl_id q = api->link_port(f, l, e);
      if (api->port_node(f, q) == x->leaf &&
          api->port_num(f, q) == x->leaf_port) {
        *leaf_end = e;
        return l;
      }
    }
  }
  return FL_NONE;
}

/* A change moving the leaf end of NIC @x's cable to @to port @port. */
static fl_fix_change move_leaf_end(const fl_host_api *api, const fl_fabric *f,
                                   const nic *x, fl_id to, uint32_t port) {
  fl_fix_change c;
  memset(&c, 0, sizeof c);
  c.struct_size = sizeof c;
  c.kind = FL_FIX_MOVE_END;
  c.link = nic_link(api, f, x, &c.end);
  c.node = to;
  c.port = port;
  return c;
}

static void basis(const analysis *a, const leaf *lf, jbuf *ev) {
  jb_key_str(ev, "profile", a->map.name);
  jb_key_str(ev, "leaf_rail_from",
             lf->inferred ? "majority of its NICs (inferred)"
                          : "rail attribute");
}

/* Is NIC @i one half of a same-host swap? Returns the partner index or -1. */
static int32_t swap_partner(const analysis *a, uint32_t i) {
  const nic *x = &a->nics[i];
  if (x->rail < 0 || x->host < 0)
    return -1;
  int32_t lr = leaf_of(a, x->leaf)->rail;
  if (lr < 0 || lr == x->rail)
    return -1;
  for (uint32_t k = a->host_off[x->host]; k < a->host_off[x->host + 1]; k++) {
    uint32_t j = a->host_idx[k];
    const nic *y = &a->nics[j];
    if (j == i || y->rail != lr)
      continue;
    const leaf *ly = leaf_of(a, y->leaf);
    if (ly->rail == x->rail && ly->su == leaf_of(a, x->leaf)->su)
      return (int32_t)j;
  }
  return -1;
}

/* ---- rail-alignment.cross-rail
 * -------------------------------------------------- */

/* The NIC of host @host on port @port of leaf @s when it is itself on the
 * wrong rail there (it moves away when the cabling is fixed, so its port is
 * the fix target: three NICs rotated among three rail leaves leave no free
 * port, yet each NIC's own port is freed by the next move), or NULL. */
static const nic *misplaced_at(const analysis *a, fl_id s, uint32_t port,
                               int32_t host) {
  int32_t L = a->leaf_of_node[s];
  for (uint32_t k = a->leaf_off[L]; k < a->leaf_off[L + 1]; k++) {
    const nic *y = &a->nics[a->leaf_idx[k]];
    if (y->leaf_port == port && y->host == host && y->rail >= 0 &&
        y->rail != a->leaves[L].rail)
      return y;
  }
  return NULL;
}

/* The port number NIC @x should have on its rail's leaf: the one its host's
 * correctly cabled NICs use (host N sits on port N of every rail leaf),
 * else the port it has now. */
static uint32_t host_port(const analysis *a, const nic *x, int *from_host) {
  *from_host = 1;
  for (uint32_t k = a->host_off[x->host]; k < a->host_off[x->host + 1]; k++) {
    const nic *y = &a->nics[a->host_idx[k]];
    if (y != x && y->rail >= 0 && y->rail == leaf_of(a, y->leaf)->rail)
      return y->leaf_port;
  }
  *from_host = 0;
  return x->leaf_port;
}

static int cross_compute(const fl_host_api *api, fl_ctx *ctx, const analysis *a,
                         const nic *x) {
  const fl_fabric *f = api->fabric(ctx);
  const leaf *lf = leaf_of(a, x->leaf);
  fl_id target = rail_leaf(a, x->rail, lf->su);
  int from_host = 0;
  uint32_t want = host_port(a, x, &from_host);
  uint32_t tport = target == FL_NONE ? 0 : free_port(api, f, target, want);
  const nic *holder = NULL;
  if (target != FL_NONE && tport != want &&
      (holder = misplaced_at(a, target, want, x->host)) != NULL)
    tport = want;
  char fix[256];
  if (target == FL_NONE)
    snprintf(fix, sizeof fix, "no leaf of rail %s found in this SU",
             rail_name(a, x->rail));
  else if (holder)
    snprintf(fix, sizeof fix,
             "move it to \"%s\" port %u (now holding \"%s\", which is "
             "on the wrong rail too)",
             api->node_name(f, target), tport, holder->name);
  else if (tport) /* no plan is loaded: the port is inferred, say so */
    snprintf(fix, sizeof fix,
             "move it to \"%s\" port %u (free; suggested: %s; `fabriclint "
             "diff` against the plan gives the planned port)",
             api->node_name(f, target), tport,
             tport != want ? "the first free port"
             : from_host   ? "the port the host's other NICs use"
                           : "the same port number");
  else
    snprintf(fix, sizeof fix,
             "move it to \"%s\" (no free port: check that "
             "leaf's cabling)",
             api->node_name(f, target));
  char msg[1024];
  snprintf(msg, sizeof msg,
           "\"%s\" (rail %s) is cabled to \"%s\" port %u, which serves rail "
           "%s%s; %s",
           x->name, rail_name(a, x->rail), api->node_name(f, x->leaf),
           x->leaf_port, rail_name(a, lf->rail),
           lf->inferred ? " (inferred from its other NICs)" : "", fix);
  fl_id nodes[3] = {x->node, x->leaf, target};
  fl_port_ref ports[2] = {{x->node, x->port}, {x->leaf, x->leaf_port}};
  jbuf ev;
  jb_init(&ev);
  jb_obj_open(&ev);
  jb_key_str(&ev, "host", a->hosts[x->host]);
  jb_key_str(&ev, "nic", x->name);
  jb_key_str(&ev, "nic_rail", rail_name(a, x->rail));
  jb_key_str(&ev, "leaf", api->node_name(f, x->leaf));
  jb_key_int(&ev, "leaf_port", x->leaf_port);
  jb_key_str(&ev, "leaf_rail", rail_name(a, lf->rail));
  if (target != FL_NONE) {
    jb_key_str(&ev, "fix_leaf", api->node_name(f, target));
    if (tport)
      jb_key_int(&ev, "fix_port", tport);
    if (holder)
      jb_key_str(&ev, "fix_port_holds", holder->name);
    jb_key_str(&ev, "fix_port_basis",
               holder          ? "rotation"
               : tport != want ? "first-free"
               : from_host     ? "host-nics"
                               : "same-port");
  }
  basis(a, lf, &ev);
  jb_obj_close(&ev);
  /* the cable is the subject: its <link> locates the finding; with a
   * target port the fix is that cable's leaf end moving there */
  fl_fix_change mv = move_leaf_end(api, f, x, target, tport);
  const fl_fix_change *chg[1] = {&mv};
  char how[1200];
  snprintf(how, sizeof how,
           "move the leaf end of the cable of \"%s\" from \"%s\" port %u to "
           "\"%s\" port %u",
           x->name, api->node_name(f, x->leaf), x->leaf_port,
           target == FL_NONE ? "" : api->node_name(f, target), tport);
  fl_fix fx = {sizeof fx, 1, how, chg};
  int fixable = target != FL_NONE && tport && mv.link != FL_NONE;
  int rc = fl_emit_fix(api, ctx, 0, msg, nodes, target == FL_NONE ? 2 : 3,
                       ports, 2, &mv.link, mv.link != FL_NONE, jb_str(&ev),
                       NULL, NULL, fixable ? &fx : NULL);
  jb_free(&ev);
  return rc;
}

static int cross_noncompute(const fl_host_api *api, fl_ctx *ctx,
                            const analysis *a, const nic *x) {
  const fl_fabric *f = api->fabric(ctx);
  const leaf *lf = leaf_of(a, x->leaf);
  char msg[1024];
  snprintf(msg, sizeof msg,
           "%s NIC \"%s\" is cabled to \"%s\" port %u, a compute leaf of rail "
           "%s; %s NICs belong on their own network",
           x->role, x->name, api->node_name(f, x->leaf), x->leaf_port,
           rail_name(a, lf->rail), x->role);
  fl_id nodes[2] = {x->node, x->leaf};
  fl_port_ref ports[2] = {{x->node, x->port}, {x->leaf, x->leaf_port}};
  jbuf ev;
  jb_init(&ev);
  jb_obj_open(&ev);
  jb_key_str(&ev, "nic", x->name);
  jb_key_str(&ev, "role", x->role);
  jb_key_str(&ev, "leaf", api->node_name(f, x->leaf));
  jb_key_str(&ev, "leaf_rail", rail_name(a, lf->rail));
  basis(a, lf, &ev);
  jb_obj_close(&ev);
  int rc = report(api, ctx, 0, msg, nodes, 2, ports, 2, jb_str(&ev));
  jb_free(&ev);
  return rc;
}

static int check_cross(const fl_host_api *api, fl_ctx *ctx, void *data) {
  const analysis *a = get_analysis(api, ctx, data);
  if (!a)
    return 1;
  for (uint32_t i = 0; i < a->n_nics; i++) {
    const nic *x = &a->nics[i];
    int32_t lr = leaf_of(a, x->leaf)->rail;
    if (lr < 0 || x->host < 0)
      continue;
    int rc = 0;
    /* On InfiniBand the SM (UFM), storage and login hosts must sit on the
     * fabric, often on compute leaves: only a RoCE (Ethernet) fabric has a
     * separate storage/management network for them. */
    if (x->rail == NON_COMPUTE && x->eth)
      rc = cross_noncompute(api, ctx, a, x);
    else if (x->rail >= 0 && x->rail != lr && swap_partner(a, i) < 0)
      rc = cross_compute(api, ctx, a, x);
    if (rc)
      return rc;
  }
  return 0;
}

/* ---- rail-alignment.swapped
 * ---------------------------------------------------------- */

static int check_swapped(const fl_host_api *api, fl_ctx *ctx, void *data) {
  const analysis *a = get_analysis(api, ctx, data);
  if (!a)
    return 1;
  const fl_fabric *f = api->fabric(ctx);
  for (uint32_t i = 0; i < a->n_nics; i++) {
    int32_t j = swap_partner(a, i);
    if (j < 0 || (uint32_t)j < i)
      continue; /* report each pair once, from its first NIC */
    const nic *x = &a->nics[i], *y = &a->nics[j];
    char msg[1400], xp[64], yp[64];
    port_str(api, f, x->leaf, x->leaf_port, xp, sizeof xp);
    port_str(api, f, y->leaf, y->leaf_port, yp, sizeof yp);
    snprintf(msg, sizeof msg,
             "the cables of \"%s\" (rail %s) and \"%s\" (rail %s) are crossed: "
             "\"%s\" is on \"%s\" %s (rail %s) and \"%s\" on \"%s\" %s (rail "
             "%s); swap them: \"%s\" -> \"%s\" %s, \"%s\" -> \"%s\" %s",
             x->name, rail_name(a, x->rail), y->name, rail_name(a, y->rail),
             x->name, api->node_name(f, x->leaf), xp,
             rail_name(a, leaf_of(a, x->leaf)->rail), y->name,
             api->node_name(f, y->leaf), yp,
             rail_name(a, leaf_of(a, y->leaf)->rail), x->name,
             api->node_name(f, y->leaf), yp, y->name,
             api->node_name(f, x->leaf), xp);
    /* two ports of one host node (Ethernet) name that node once */
    fl_id nodes[4] = {x->node, y->node, x->leaf, y->leaf};
    uint32_t nn = 4;
    if (x->node == y->node) {
      nodes[1] = x->leaf;
      nodes[2] = y->leaf;
      nn = 3;
    }
    fl_port_ref ports[4] = {{x->node, x->port},
                            {x->leaf, x->leaf_port},
                            {y->node, y->port},
                            {y->leaf, y->leaf_port}};
    jbuf ev;
    jb_init(&ev);
    jb_obj_open(&ev);
    jb_key_str(&ev, "host", a->hosts[x->host]);
    jb_key(&ev, "cables");
    jb_arr_open(&ev);
    const nic *pair[2] = {x, y};
    for (int k = 0; k < 2; k++) {
      jb_obj_open(&ev);
      jb_key_str(&ev, "nic", pair[k]->name);
      jb_key_str(&ev, "nic_rail", rail_name(a, pair[k]->rail));
      jb_key_str(&ev, "now_leaf", api->node_name(f, pair[k]->leaf));
      jb_key_int(&ev, "now_port", pair[k]->leaf_port);
      jb_key_str(&ev, "fix_leaf", api->node_name(f, pair[1 - k]->leaf));
      jb_key_int(&ev, "fix_port", pair[1 - k]->leaf_port);
      jb_obj_close(&ev);
    }
    jb_arr_close(&ev);
    basis(a, leaf_of(a, x->leaf), &ev);
    jb_obj_close(&ev);
    /* the two cables locate the finding; the fix: their leaf ends trade
     * places */
    fl_fix_change cx = move_leaf_end(api, f, x, y->leaf, y->leaf_port);
    fl_fix_change cy = move_leaf_end(api, f, y, x->leaf, x->leaf_port);
    const fl_fix_change *chg[2] = {&cx, &cy};
    char how[1600];
    snprintf(how, sizeof how,
             "swap the leaf ends of the cables of \"%s\" and \"%s\": "
             "\"%s\" -> \"%s\" %s, \"%s\" -> \"%s\" %s",
             x->name, y->name, x->name, api->node_name(f, y->leaf), yp, y->name,
             api->node_name(f, x->leaf), xp);
    fl_fix fix = {sizeof fix, 2, how, chg};
    fl_id links[2] = {cx.link, cy.link};
    int fixable = cx.link != FL_NONE && cy.link != FL_NONE;
    int rc = fl_emit_fix(api, ctx, 0, msg, nodes, nn, ports, 4,
                         fixable ? links : NULL, fixable ? 2 : 0, jb_str(&ev),
                         NULL, NULL, fixable ? &fix : NULL);
    jb_free(&ev);
    if (rc)
      return rc;
  }
  return 0;
}

/* ---- rail-alignment.mixed-leaf
 * -------------------------------------------------------- */

static int check_mixed(const fl_host_api *api, fl_ctx *ctx, void *data) {
  const analysis *a = get_analysis(api, ctx, data);
  if (!a)
    return 1;
  const fl_fabric *f = api->fabric(ctx);
  for (uint32_t L = 0; L < a->n_leaves; L++) {
    const leaf *lf = &a->leaves[L];
    /* with a clear rail, minority NICs are cross-rail findings instead */
    if (lf->n_rails < 2 || lf->rail >= 0)
      continue;
    jbuf ev;
    jb_init(&ev);
    jb_obj_open(&ev);
    jb_key_str(&ev, "leaf", api->node_name(f, lf->node));
    jb_key_int(&ev, "su", lf->su + 1);
    jb_key(&ev, "nics_by_rail");
    jb_obj_open(&ev);
    for (uint32_t r = 0; r < a->n_labels; r++) {
      uint32_t c = 0;
      for (uint32_t k = a->leaf_off[L]; k < a->leaf_off[L + 1]; k++)
        c += a->nics[a->leaf_idx[k]].rail == (int32_t)r;
      if (c)
        jb_key_int(&ev, a->labels[r], c);
    }
    jb_obj_close(&ev);
    jb_obj_close(&ev);
    char msg[512];
    snprintf(msg, sizeof msg,
             "leaf \"%s\" serves NICs of %u rails with no majority (%u compute "
             "NICs): it has no rail to check them against",
             api->node_name(f, lf->node), lf->n_rails, lf->n_compute);
    int rc = report(api, ctx, 0, msg, &lf->node, 1, NULL, 0, jb_str(&ev));
    jb_free(&ev);
    if (rc)
      return rc;
  }
  return 0;
}

/* ---- rail-alignment.roles ------------------------------------------------
 */

static int check_roles(const fl_host_api *api, fl_ctx *ctx, void *data) {
  const analysis *a = get_analysis(api, ctx, data);
  if (!a)
    return 1;
  const fl_fabric *f = api->fabric(ctx);
  fl_id *nodes = calloc(a->n_nics + 1, sizeof *nodes);
  uint8_t *seen = calloc(a->n_hosts + 1, 1);
  if (!nodes || !seen) {
    free(nodes), free(seen);
    api->fail(ctx, "out of memory");
    return 1;
  }
  char list[512] = "";
  size_t off = 0;
  uint32_t nn = 0, hosts = 0;
  jbuf ev;
  jb_init(&ev);
  jb_obj_open(&ev);
  jb_key(&ev, "hosts");
  jb_arr_open(&ev);
  for (uint32_t i = 0; i < a->n_nics; i++) {
    const nic *x = &a->nics[i];
    if (!x->role_guessed)
      continue;
    nodes[nn++] = x->node;
    const char *host = api->node_system(f, x->node);
    if (x->host < 0 || seen[x->host])
      continue;
    seen[x->host] = 1;
    hosts++;
    jb_obj_open(&ev);
    jb_key_str(&ev, "host", host);
    jb_key_str(&ev, "role", x->role);
    jb_obj_close(&ev);
    if (hosts <= 8 && off < sizeof list)
      off += (size_t)snprintf(list + off, sizeof list - off, "%s%s (%s)",
                              off ? ", " : "", host, x->role);
  }
  jb_arr_close(&ev);
  jb_obj_close(&ev);
  int rc = 0;
  if (hosts) {
    char msg[900];
    snprintf(msg, sizeof msg,
             "%u host(s) taken as non-compute by a guess from their name or "
             "NIC count, so rail rules leave them alone: %s%s; give role= "
             "attributes to decide otherwise",
             hosts, list, hosts > 8 ? ", ..." : "");
    rc = report(api, ctx, 0, msg, nodes, nn, NULL, 0, jb_str(&ev));
  }
  jb_free(&ev);
  free(nodes), free(seen);
  return rc;
}

/* ---- rail-alignment.unknown-role ---------------------------------------
 * One warning per unknown role value (neither in compute-roles nor a
 * documented service role, roles.h), naming the value and its hosts: such
 * hosts are judged as compute hosts (the default role), never silently
 * left out. */

/* A NIC with an unknown role, as sorted: by role, then host, then node. */
typedef struct role_nic {
  const char *role;
  int32_t host;
  fl_id node;
} role_nic;

static int cmp_role_nic(const void *x, const void *y) {
  const role_nic *a = x, *b = y;
  int c = strcmp(a->role, b->role);
  if (c)
    return c;
  if (a->host != b->host)
    return a->host < b->host ? -1 : 1;
  return a->node < b->node ? -1 : a->node > b->node;
}

/* The finding for the NICs v[0..n) (one role value, sorted by host). */
static int report_unknown_role(const fl_host_api *api, fl_ctx *ctx,
                               const analysis *a, const role_nic *v, uint32_t n,
                               fl_id *nodes) {
  const char *role = v[0].role;
  char list[512] = "";
  size_t off = 0;
  uint32_t hosts = 0, nn = 0;
  jbuf ev;
  jb_init(&ev);
  jb_obj_open(&ev);
  jb_key_str(&ev, "role", role);
  jb_key(&ev, "hosts");
  jb_arr_open(&ev);
  for (uint32_t k = 0; k < n; k++) {
    if (nn == 0 || nodes[nn - 1] != v[k].node)
      nodes[nn++] = v[k].node;
    if (k > 0 && v[k - 1].host == v[k].host)
      continue;
    hosts++;
    jb_str_item(&ev, a->hosts[v[k].host]);
    if (hosts <= 8 && off < sizeof list)
      off += (size_t)snprintf(list + off, sizeof list - off, "%s%s",
                              off ? ", " : "", a->hosts[v[k].host]);
  }
  jb_arr_close(&ev);
  jb_key_int(&ev, "count", hosts);
  jb_key_str(&ev, "treated_as", "compute");
  jb_obj_close(&ev);
  char msg[1200];
  snprintf(msg, sizeof msg,
           "role \"%s\" of %u host(s) is not a known role: %s%s; they are "
           "judged as compute hosts (the default role). If they are GPU "
           "compute hosts, add \"%s\" to compute-roles; if not, give a "
           "service role (" FL_SERVICE_ROLES ")",
           role, hosts, list, hosts > 8 ? ", ..." : "", role);
  int rc = report(api, ctx, 0, msg, nodes, nn, NULL, 0, jb_str(&ev));
  jb_free(&ev);
  return rc;
}

static int check_unknown_role(const fl_host_api *api, fl_ctx *ctx, void *data) {
  const analysis *a = get_analysis(api, ctx, data);
  if (!a)
    return 1;
  role_nic *v = calloc(a->n_nics + 1, sizeof *v);
  fl_id *nodes = calloc(a->n_nics + 1, sizeof *nodes);
  if (!v || !nodes) {
    free(v), free(nodes);
    api->fail(ctx, "out of memory");
    return 1;
  }
  uint32_t n = 0;
  for (uint32_t i = 0; i < a->n_nics; i++)
    if (a->nics[i].role_unknown && a->nics[i].host >= 0)
      v[n++] = (role_nic){a->nics[i].role, a->nics[i].host, a->nics[i].node};
  if (n > 1)
    qsort(v, n, sizeof *v, cmp_role_nic);
  int rc = 0;
  for (uint32_t s = 0, e; s < n && !rc; s = e) {
    for (e = s + 1; e < n && strcmp(v[e].role, v[s].role) == 0; e++)
      ;
    rc = report_unknown_role(api, ctx, a, v + s, e - s, nodes);
  }
  free(v), free(nodes);
  return rc;
}

/* ---- rail-alignment.incomplete-host
 * --------------------------------------------------- */

static int check_incomplete(const fl_host_api *api, fl_ctx *ctx, void *data) {
  const analysis *a = get_analysis(api, ctx, data);
  if (!a)
    return 1;
  uint32_t *cnt = calloc(a->n_labels + 1, sizeof *cnt);
  uint8_t *su_rail = calloc((size_t)(a->n_sus + 1) * (a->n_labels + 1), 1);
  fl_id *nodes = calloc(a->n_nics + 1, sizeof *nodes);
  if (!cnt || !su_rail || !nodes) {
    free(cnt), free(su_rail), free(nodes);
    api->fail(ctx, "out of memory");
    return 1;
  }
  /* rails present in each SU (by its leaves) */
  for (uint32_t L = 0; L < a->n_leaves; L++)
    if (a->leaves[L].rail >= 0)
      su_rail[a->leaves[L].su * (a->n_labels + 1) +
              (uint32_t)a->leaves[L].rail] = 1;
  int rc = 0;
  for (uint32_t h = 0; h < a->n_hosts && !rc; h++) {
    if (a->host_partial[h])
      continue; /* rail-alignment.unresolved lists its NICs */
    memset(cnt, 0, (a->n_labels + 1) * sizeof *cnt);
    uint32_t nn = 0, compute = 0;
    for (uint32_t k = a->host_off[h]; k < a->host_off[h + 1]; k++) {
      const nic *x = &a->nics[a->host_idx[k]];
      nodes[nn++] = x->node;
      if (x->rail >= 0)
        cnt[x->rail]++;
      compute += x->rail != NON_COMPUTE;
    }
    if (!compute)
      continue; /* not a compute host: rails do not apply */
    char missing[256] = "", dup[256] = "";
    size_t om = 0, od = 0;
    const uint8_t *want = &su_rail[a->host_su[h] * (a->n_labels + 1)];
    for (uint32_t r = 0; r < a->n_labels; r++) {
      if (want[r] && cnt[r] == 0 && om < sizeof missing) {
        const char *dev = NULL; /* the device the profile puts on this rail */
        for (uint32_t k = 0; k < a->map.n && !dev; k++)
          if (strcmp(a->map.e[k].rail, a->labels[r]) == 0)
            dev = a->map.e[k].device;
        om += (size_t)snprintf(missing + om, sizeof missing - om, "%s%s%s%s%s",
                               om ? ", " : "", a->labels[r], dev ? " (" : "",
                               dev ? dev : "", dev ? ")" : "");
      }
      if (cnt[r] > 1 && od < sizeof dup)
        od += (size_t)snprintf(dup + od, sizeof dup - od, "%s%s",
                               od ? ", " : "", a->labels[r]);
    }
    if (!om && !od)
      continue;
    char msg[900];
    snprintf(msg, sizeof msg, "host \"%s\"%s%s%s%s%s", a->hosts[h],
             om ? " has no NIC on rail(s) " : "", missing, om && od ? ";" : "",
             od ? " has two or more NICs on rail(s) " : "", dup);
    jbuf ev;
    jb_init(&ev);
    jb_obj_open(&ev);
    jb_key_str(&ev, "host", a->hosts[h]);
    jb_key_int(&ev, "su", a->host_su[h] + 1);
    jb_key_str(&ev, "missing_rails", missing);
    jb_key_str(&ev, "duplicate_rails", dup);
    jb_key_int(&ev, "nics", nn);
    jb_obj_close(&ev);
    /* hosts of one SU missing the same rails (a rail leaf's cables not
     * yet run) are one cause */
    char cause[600], cmsg[700];
    snprintf(cause, sizeof cause, "su%u|%s|%s", a->host_su[h] + 1, missing,
             dup);
    snprintf(cmsg, sizeof cmsg, "{count} hosts of SU %u%s%s%s%s%s",
             a->host_su[h] + 1, om ? " have no NIC on rail(s) " : "", missing,
             om && od ? ";" : "",
             od ? " have two or more NICs on rail(s) " : "", dup);
    rc = fl_emit_cause(api, ctx, 0, msg, nodes, nn, NULL, 0, NULL, 0,
                       jb_str(&ev), cause, cmsg);
    jb_free(&ev);
  }
  free(cnt), free(su_rail), free(nodes);
  return rc;
}

/* ---- rail-alignment.su-shape
 * ------------------------------------------------------------ */

static int check_su_shape(const fl_host_api *api, fl_ctx *ctx, void *data) {
  const analysis *a = get_analysis(api, ctx, data);
  if (!a)
    return 1;
  const fl_fabric *f = api->fabric(ctx);
  if (a->n_sus < 2)
    return 0;
  uint32_t *rails = calloc(a->n_sus, sizeof *rails);
  uint32_t *per_leaf = calloc(a->n_sus, sizeof *per_leaf);
  uint8_t *unknown = calloc(a->n_sus, 1);
  if (!rails || !per_leaf || !unknown) {
    free(rails), free(per_leaf), free(unknown);
    api->fail(ctx, "out of memory");
    return 1;
  }
  /* an SU with NICs that could not be placed (rail-alignment.unresolved)
   * has an unknown shape: its leaves look emptier than they are */
  for (uint32_t i = 0; i < a->n_nics; i++) {
    int32_t L = a->leaf_of_node[a->nics[i].leaf];
    if (a->nics[i].unresolved && L >= 0)
      unknown[a->leaves[L].su] = 1;
  }
  for (uint32_t L = 0; L < a->n_leaves; L++) {
    const leaf *lf = &a->leaves[L];
    if (lf->rail < 0)
      continue;
    rails[lf->su]++;
    /* NICs of the leaf's own rail: a cross-rail cable is its own finding
     * (cross-rail) and must not make the SU it lands in look bigger */
    if (lf->majority > per_leaf[lf->su])
      per_leaf[lf->su] = lf->majority;
  }
  /* the reference shape is the most common one among SUs with rail leaves
   * (ties: the larger SU, then the first) */
  uint32_t ref = UINT32_MAX, ref_votes = 0;
  for (uint32_t s = 0; s < a->n_sus; s++) {
    if (!rails[s])
      continue;
    uint32_t votes = 0;
    for (uint32_t t = 0; t < a->n_sus; t++)
      votes += rails[t] == rails[s] && per_leaf[t] == per_leaf[s];
    if (ref == UINT32_MAX || votes > ref_votes ||
        (votes == ref_votes &&
         rails[s] * per_leaf[s] > rails[ref] * per_leaf[ref])) {
      ref = s;
      ref_votes = votes;
    }
  }
  uint32_t with_rails = 0;
  for (uint32_t s = 0; s < a->n_sus; s++)
    with_rails += rails[s] != 0;
  /* no strict majority: the larger SU is the reference, so the finding
   * names the minority by capacity, and says it was a tie */
  int tie = ref_votes * 2 <= with_rails;
  char cmsg[256];
  if (ref != UINT32_MAX)
    snprintf(cmsg, sizeof cmsg,
             "{count} of the %u SUs differ from the shape %u of them have "
             "(%u rail leaves, up to %u hosts per leaf%s): scalable units "
             "should be identical",
             a->n_sus, ref_votes, rails[ref], per_leaf[ref],
             tie ? "; no shape is a majority, the larger is the reference"
                 : "");
  int rc = 0;
  for (uint32_t s = 0; ref != UINT32_MAX && s < a->n_sus && !rc; s++) {
    if (!rails[s] || unknown[s] ||
        (rails[s] == rails[ref] && per_leaf[s] == per_leaf[ref]))
      continue;
    fl_id node = FL_NONE;
    for (uint32_t L = 0; L < a->n_leaves && node == FL_NONE; L++)
      if (a->leaves[L].su == s && a->leaves[L].rail >= 0)
        node = a->leaves[L].node;
    char msg[640];
    snprintf(msg, sizeof msg,
             "the SU of leaf \"%s\" has %u rail leaves and up to %u hosts per "
             "leaf, while %u of the %u SUs have %u and %u%s: scalable units "
             "should be identical",
             api->node_name(f, node), rails[s], per_leaf[s], ref_votes,
             a->n_sus, rails[ref], per_leaf[ref],
             tie ? " (no shape is a majority; the larger is taken as the "
                   "plan)"
                 : "");
    jbuf ev;
    jb_init(&ev);
    jb_obj_open(&ev);
    jb_key_int(&ev, "rail_leaves", rails[s]);
    jb_key_int(&ev, "hosts_per_leaf", per_leaf[s]);
    jb_key_int(&ev, "usual_rail_leaves", rails[ref]);
    jb_key_int(&ev, "usual_hosts_per_leaf", per_leaf[ref]);
    jb_key_int(&ev, "sus_with_usual_shape", ref_votes);
    jb_key_bool(&ev, "tie", tie);
    jb_obj_close(&ev);
    rc = fl_emit_cause(api, ctx, 0, msg, &node, 1, NULL, 0, NULL, 0,
                       jb_str(&ev), "su-shape", cmsg);
    jb_free(&ev);
  }
  free(rails), free(per_leaf), free(unknown);
  return rc;
}

/* ---- rail-alignment.port-order
 * ------------------------------------------------------------ */

static int check_port_order(const fl_host_api *api, fl_ctx *ctx, void *data) {
  const analysis *a = get_analysis(api, ctx, data);
  if (!a)
    return 1;
  const fl_fabric *f = api->fabric(ctx);
  for (uint32_t L = 0; L < a->n_leaves; L++) {
    const leaf *lf = &a->leaves[L];
    const nic *prev = NULL, *bad_a = NULL, *bad_b = NULL;
    for (uint32_t k = a->leaf_off[L]; k < a->leaf_off[L + 1] && !bad_a; k++) {
      const nic *x = &a->nics[a->leaf_idx[k]];
      if (x->host < 0)
        continue;
      if (prev && prev->host > x->host) {
        bad_a = prev;
        bad_b = x;
      }
      prev = x;
    }
    if (!bad_a)
      continue;
    char msg[700];
    snprintf(msg, sizeof msg,
             "on leaf \"%s\", host \"%s\" (port %u) comes before host \"%s\" "
             "(port %u): cable hosts in host order",
             api->node_name(f, lf->node), a->hosts[bad_a->host],
             bad_a->leaf_port, a->hosts[bad_b->host], bad_b->leaf_port);
    fl_port_ref ports[2] = {{lf->node, bad_a->leaf_port},
                            {lf->node, bad_b->leaf_port}};
    if (report(api, ctx, 0, msg, &lf->node, 1, ports, 2, NULL))
      return 1;
  }
  return 0;
}

/* ---- rail-alignment.unresolved
 * --------------------------------------------------------------- */

static int check_unresolved(const fl_host_api *api, fl_ctx *ctx, void *data) {
  const analysis *a = get_analysis(api, ctx, data);
  if (!a)
    return 1;
  const fl_fabric *f = api->fabric(ctx);
  /* one finding per reason */
  const char *reasons[8];
  uint32_t nr = 0;
  for (uint32_t i = 0; i < a->n_nics; i++) {
    const char *why = a->nics[i].unresolved;
    int seen = 0;
    for (uint32_t k = 0; why && k < nr; k++)
      seen |= reasons[k] == why;
    if (why && !seen && nr < 8)
      reasons[nr++] = why;
  }
  for (uint32_t k = 0; k < nr; k++) {
    fl_id nodes[50];
    uint32_t named = 0, total = 0;
    jbuf ev;
    jb_init(&ev);
    jb_obj_open(&ev);
    jb_key_str(&ev, "reason", reasons[k]);
    jb_key(&ev, "nics");
    jb_arr_open(&ev);
    for (uint32_t i = 0; i < a->n_nics; i++)
      if (a->nics[i].unresolved == reasons[k]) {
        total++;
        if (named < 50) {
          nodes[named++] = a->nics[i].node;
          char guid[24];
          snprintf(guid, sizeof guid, "0x%016llx",
                   (unsigned long long)api->node_guid(f, a->nics[i].node));
          jb_obj_open(&ev);
          jb_key_str(&ev, "nic", a->nics[i].name);
          jb_key_str(&ev, "guid", guid);
          jb_key_str(&ev, "leaf", api->node_name(f, a->nics[i].leaf));
          jb_key_int(&ev, "leaf_port", a->nics[i].leaf_port);
          jb_obj_close(&ev);
        }
      }
    jb_arr_close(&ev);
    jb_key_int(&ev, "count", total);
    if (*a->scheme)
      jb_key_str(&ev, "naming_of_other_nics", a->scheme);
    jb_obj_close(&ev);
    const nic *first = NULL;
    for (uint32_t i = 0; i < a->n_nics && !first; i++)
      if (a->nics[i].unresolved == reasons[k])
        first = &a->nics[i];
    char msg[700];
    snprintf(msg, sizeof msg,
             "%u NIC(s) could not be placed on a rail and were not checked, "
             "e.g. \"%s\" on \"%s\" port %u: %s",
             total, first->name, api->node_name(f, first->leaf),
             first->leaf_port, reasons[k]);
    int rc = report(api, ctx, 0, msg, nodes, named, NULL, 0, jb_str(&ev));
    jb_free(&ev);
    if (rc)
      return rc;
  }
  return 0;
}

/* ---- descriptors
 * ------------------------------------------------------------------------------
 */

static const fl_param_def P_PROFILE = {
    sizeof(fl_param_def),
    FL_PARAM_STRING,
    "profile",
    "device",
    NULL,
    "NIC-to-rail map: device (rail = device name, the default), generic "
    "(device index = rail: mlx5_N -> N, HCA-N -> N-1), dgx-h100, dgx-h200, "
    "dgx-a100 (shipped maps)",
    NULL,
    NULL};
static const fl_param_def P_MAP = {
    sizeof(fl_param_def),
    FL_PARAM_STRING,
    "map",
    "",
    NULL,
    "a user map file, lines `DEVICE RAIL [ROLE]` (RAIL - = not a compute "
    "NIC); overrides profile",
    NULL,
    NULL};
static const fl_param_def P_INFER = {
    sizeof(fl_param_def),
    FL_PARAM_BOOL,
    "infer",
    "1",
    NULL,
    "infer a leaf's rail from the majority of its NICs when the leaf has no "
    "rail attribute",
    NULL,
    NULL};
static const fl_param_def P_ROLES = {
    sizeof(fl_param_def),
    FL_PARAM_STRING,
    "compute-roles",
    "compute",
    NULL,
    "comma-separated roles whose NICs sit on compute rails (others are left "
    "out of the rail rules; on RoCE they must not land on rail leaves)",
    NULL,
    NULL};
static const fl_param_def P_INFER_ROLES = {
    sizeof(fl_param_def),
    FL_PARAM_BOOL,
    "infer-roles",
    "1",
    NULL,
    "guess the role of hosts with no role attribute from a service word in "
    "the host name (ufm, login, storage, mgmt, ...) or a single NIC where "
    "most hosts have several; the guess is reported by rail-alignment.roles",
    NULL,
    NULL};
static const fl_param_def *const PARAMS[] = {&P_PROFILE, &P_MAP, &P_INFER,
                                             &P_ROLES, &P_INFER_ROLES};

#define RULE(var, sev, on, rid, summ, hlp, fn)                                 \
  static const fl_rule_def var = {                                             \
      sizeof(fl_rule_def), sev, rid, summ, hlp, on, 0, PARAMS, 5, fn}
/* a host's role is the same in every plane: judged once on the whole of a
 * multi-plane fabric (the others run per plane) */
#define RULE_ALL_PLANES(var, sev, on, rid, summ, hlp, fn)                      \
  static const fl_rule_def var = {                                             \
      sizeof(fl_rule_def), sev,    rid, summ, hlp, on,                         \
      FL_NEEDS_ALL_PLANES, PARAMS, 5,   fn}

RULE(R_CROSS, FL_SEV_ERROR, 1, "rail-alignment.cross-rail",
     "a NIC lands on a leaf that serves another rail",
     "NIC k of every host must land on the leaf of rail k. Names the host, "
     "NIC, leaf and port, the rail it belongs to, and a free port of the "
     "right leaf. On RoCE (Ethernet) fabrics, storage/management NICs on a "
     "compute rail leaf are reported here too; on InfiniBand they are not "
     "(the SM and storage must sit on the fabric).",
     check_cross);
RULE(R_SWAP, FL_SEV_ERROR, 1, "rail-alignment.swapped",
     "two NICs of one host are crossed between two rail leaves",
     "One finding per crossed pair, naming both cables and the exact swap "
     "that fixes them.",
     check_swapped);
RULE(R_MIXED, FL_SEV_WARNING, 1, "rail-alignment.mixed-leaf",
     "a leaf serves NICs of several rails with no majority",
     "A rail leaf carries one rail. When no rail has a strict majority of "
     "its NICs, the leaf's rail cannot be established.",
     check_mixed);
RULE(R_INCOMPLETE, FL_SEV_WARNING, 1, "rail-alignment.incomplete-host",
     "a host lacks a NIC on some rail of its SU, or has two on one",
     "Rails of an SU are those of its leaves. A missing NIC is often an "
     "unplugged or dead cable (the HCA is then absent from discovery).",
     check_incomplete);
RULE(R_SU, FL_SEV_WARNING, 1, "rail-alignment.su-shape",
     "scalable units differ in rail count or hosts per rail leaf",
     "SUs of one fabric are built alike; a smaller or larger SU is either a "
     "plan error or missing cabling.",
     check_su_shape);
RULE(R_ORDER, FL_SEV_INFO, 0, "rail-alignment.port-order",
     "within a rail leaf, hosts are not cabled in host order",
     "Cabling hygiene (off by default): host N on port N makes field work "
     "and audits easier.",
     check_port_order);
RULE(R_UNRESOLVED, FL_SEV_WARNING, 1, "rail-alignment.unresolved",
     "NICs whose host or rail could not be determined",
     "Rather than guess, NICs without a host name (factory-default node "
     "descriptions), outside the profile, or named unlike the other NICs are "
     "listed here and left out of the other rules. Give a node-name map, a "
     "profile or map=FILE.",
     check_unresolved);

RULE(R_ROLES, FL_SEV_INFO, 1, "rail-alignment.roles",
     "hosts whose role was guessed, not given",
     "Hosts with no role attribute are guessed to be non-compute (UFM, "
     "login, storage, management) from a service word in their name or a "
     "single NIC where most hosts have several; rail rules then leave them "
     "alone. One finding lists them; give role= attributes (design XML or an "
     "annotation file) or infer-roles=0 to decide otherwise.",
     check_roles);

RULE_ALL_PLANES(
    R_UNKNOWN_ROLE, FL_SEV_WARNING, 1, "rail-alignment.unknown-role",
    "hosts whose role attribute is not a known role",
    "A role that is neither in compute-roles nor a documented service role "
    "(" FL_SERVICE_ROLES ") is a typo or a site's own word. Such hosts are "
    "judged as compute hosts (the default role), never silently left out of "
    "the rail rules; one finding per value names it and its hosts. Add the "
    "value to compute-roles, or give a service role.",
    check_unknown_role);

RULE(R_GPU_SHARED, FL_SEV_WARNING, 1, "rail-alignment.gpu-shared-nic",
     "two GPUs of a host resolve to one NIC (host profile)",
     "From a host profile (NCCL topology XML, nvidia-smi topo -m): NCCL "
     "pairs each GPU with its nearest NIC; when a PCIe switch holds two "
     "GPUs and one NIC, both GPUs use that NIC and another NIC serves none. "
     "One finding per profile names the GPUs, the NIC, the PCIe switch and "
     "the hosts (with a count).",
     rg_check_shared);
RULE(R_GPU_RAIL, FL_SEV_ERROR, 1, "rail-alignment.gpu-rail",
     "a GPU's NIC lands on another rail's leaf (host profile)",
     "The GPU-level consequence of a crossed or misplaced cable: GPU i's "
     "nearest NIC (host profile) is cabled to a leaf of another rail, is "
     "missing from the fabric, or is not a compute NIC. One finding per "
     "host names each GPU, its NIC, the leaf and port, and the leaf to "
     "cable it to.",
     rg_check_rail);
RULE(R_GPU_ORDER, FL_SEV_WARNING, 1, "rail-alignment.gpu-order",
     "GPU i is not paired with the NIC of rail i (host profile)",
     "With as many GPUs as rails, GPU i must pair with the NIC of rail i "
     "(rails in natural order), so that GPU i of every host meets on one "
     "rail. One finding per profile lists the GPUs, their NICs and rails.",
     rg_check_order);

static const fl_rule_def *const RULES[] = {
    &R_CROSS,        &R_SWAP,       &R_MIXED,      &R_INCOMPLETE,
    &R_SU,           &R_ORDER,      &R_UNRESOLVED, &R_ROLES,
    &R_UNKNOWN_ROLE, &R_GPU_SHARED, &R_GPU_RAIL,   &R_GPU_ORDER};

static const fl_plugin_desc DESC = {sizeof(fl_plugin_desc),
                                    FL_ABI_MAJOR,
                                    FL_ABI_MINOR,
                                    sizeof RULES / sizeof *RULES,
                                    "rail-alignment",
                                    "0.1.0",
                                    "fabriclint",
                                    "MIT",
                                    rail_init,
                                    rail_fini,
                                    RULES};

FL_PLUGIN_EXPORT const fl_plugin_desc *fabriclint_plugin_v1(void) {
  return &DESC;
}
