/* SPDX-License-Identifier: MIT */
/*
 * plugins/rail-alignment/rail_analysis.c — the analysis all rail rules share
 * (cached per fabric): NICs, hosts, rails, leaves and SUs resolved.
 */
#include <ctype.h>
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
#include "rail.h"

/* ---- the analysis (shared by all rules, cached)
 * -------------------------------- */

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
  for (uint32_t i = 0; i < a->n_groups; i++)
    free(a->groups[i]);
  free(a->groups);
  free(a);
}

int rail_init(const fl_host_api *api, void **data) {
  rail_state *st = calloc(1, sizeof *st);
  if (!st)
    return 1;
  st->api = api;
  *data = st;
  return 0;
}

void rail_fini(void *data) {
  rail_state *st = data;
  if (st)
    free_analysis(st->a);
  free(st);
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
           !(rail = rl_device_rail(&a->map, x->dev, buf, sizeof buf, &prole)))
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
    qsort(a->labels, a->n_labels, sizeof *a->labels, fl_natcmp_ptr);
  if (a->n_hosts > 1)
    qsort(a->hosts, a->n_hosts, sizeof *a->hosts, fl_natcmp_ptr);
  if (rn_sorted_index(a->labels, a->n_labels, &a->labels_by_name,
                      &a->labels_natdup) != 0 ||
      rn_sorted_index(a->hosts, a->n_hosts, &a->hosts_by_name,
                      &a->hosts_natdup) != 0)
    return -1;
  return 0;
}

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
 * compared by name (HCA-2 vs mlx5_3): mark them `foreign`, to be placed
 * by where their cables land (rl_rails_by_cabling(), rail_naming.c) or
 * else left unresolved there. The most
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
  /* a compute NIC named in another scheme is placed by where its cables
   * land (rl_rails_by_cabling()), else left unresolved there; a service
   * NIC (NON_COMPUTE) is on no rail whatever its name */
  for (uint32_t i = 0; rc == 0 && i < a->n_nics; i++)
    if (!a->nics[i].unresolved && !a->nics[i].rail_attr &&
        a->nics[i].rail != NON_COMPUTE && strcmp(names[of[i]], best) != 0)
      a->nics[i].foreign = 1;
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
      rail = rl_device_rail(&a->map, x->dev, buf, sizeof buf, &role);
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
void rl_leaf_rail(const fl_host_api *api, const fl_fabric *f, analysis *a,
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
 * pass over each leaf's bucket (any earlier leaf rails are forgotten). 0, or
 * -1 out of memory. */
int rl_leaf_rails(const fl_host_api *api, const fl_fabric *f, analysis *a,
                  int infer) {
  a->inferred_any = 0;
  for (uint32_t L = 0; L < a->n_leaves; L++) {
    leaf *lf = &a->leaves[L];
    lf->rail = NO_RAIL;
    lf->inferred = 0;
    lf->n_compute = lf->majority = lf->n_rails = 0;
  }
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
    rl_leaf_rail(api, f, a, L, idx + off[L], off[L + 1] - off[L], infer, cnt);
  free(off), free(idx), free(cnt);
  return 0;
}

static int build_leaves(const fl_host_api *api, fl_ctx *ctx, const fl_fabric *f,
                        analysis *a, int infer, int device_mode) {
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
  if (rl_leaf_rails(api, f, a, infer) != 0 ||
      (device_mode && rl_rails_by_cabling(api, ctx, f, a, infer) != 0))
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

analysis *rl_get_analysis(const fl_host_api *api, fl_ctx *ctx, rail_state *st) {
  const fl_fabric *f = api->fabric(ctx);
  params p;
  read_params(api, ctx, &p);
  char key[512];
  snprintf(key, sizeof key, "%s|%s|%s|%lld|%lld", p.profile, p.map,
           p.compute_roles, (long long)p.infer, (long long)p.infer_roles);
  fl_fabric_key fk = fl_fabric_key_of(api, ctx);
  if (st->a && fl_fabric_key_eq(st->a->fkey, fk) &&
      strcmp(st->a->key, key) == 0)
    return st->a;
  free_analysis(st->a);
  st->a = calloc(1, sizeof *st->a);
  analysis *a = st->a;
  if (!a) {
    api->fail(ctx, "out of memory");
    return NULL;
  }
  a->fab = f;
  a->fkey = fk;
  snprintf(a->key, sizeof a->key, "%s", key);
  char why[512] = "";
  int rc = *p.map ? (memset(&a->map, 0, sizeof a->map),
                     snprintf(a->map.name, sizeof a->map.name, "map"),
                     rl_load_map_file(p.map, &a->map, why, sizeof why))
                  : rl_load_profile(p.profile, &a->map, why, sizeof why);
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
  if (sort_sets(a) != 0 || (p.infer_roles && rl_guess_roles(api, f, a) != 0)) {
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
  if (build_leaves(api, ctx, f, a, (int)p.infer,
                   !a->map.n && !a->map.generic) != 0 ||
      build_groups(a) != 0) {
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
