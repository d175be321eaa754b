/* SPDX-License-Identifier: MIT */
/*
 * plugins/failure-domains/fd_model.c — building the shared model (see
 * fd_model.h) and the small max-flow the capacity rule runs per pod.
 *
 * Pods: the `pod` attribute of switches, else `su`; with neither, derived
 * from the shape: in a fabric whose switches reach tier 3 or more, a pod is
 * a connected group of switches below the top tier (the leaves and spines
 * that hang under one set of spines); in a 2-tier fabric, each connected
 * component is one pod. Top-tier switches (cores) belong to no pod.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabriclint/view.h"
#include "fd_model.h"

int fd_report(const fl_host_api *api, fl_ctx *ctx, const char *msg,
              const fl_id *nodes, uint32_t n_nodes, const fl_port_ref *ports,
              uint32_t n_ports, const fl_id *links, uint32_t n_links,
              const char *evidence) {
  return fl_emit(api, ctx, 0, msg, nodes, n_nodes, ports, n_ports, links,
                 n_links, evidence);
}

/* The finding fl_emit() reports (no cause, no fix, no root), into @f. */
static void plain_finding(fl_finding *f, const char *msg, const fl_id *nodes,
                          uint32_t n_nodes, const fl_port_ref *ports,
                          uint32_t n_ports, const fl_id *links,
                          uint32_t n_links, const char *evidence) {
  memset(f, 0, sizeof *f);
  f->struct_size = sizeof *f;
  f->message = msg;
  f->nodes = nodes;
  f->n_nodes = n_nodes;
  f->ports = ports;
  f->n_ports = n_ports;
  f->links = links;
  f->n_links = n_links;
  f->evidence_json = evidence;
}

int fd_report_keyed(const fl_host_api *api, fl_ctx *ctx, const char *key,
                    const char *msg, const fl_id *nodes, uint32_t n_nodes,
                    const fl_port_ref *ports, uint32_t n_ports,
                    const fl_id *links, uint32_t n_links,
                    const char *evidence) {
  fl_finding f;
  plain_finding(&f, msg, nodes, n_nodes, ports, n_ports, links, n_links,
                evidence);
  f.key = key; /* an identity of its own */
  if ((api->report)(ctx, &f) != 0) {
    api->fail(ctx, "could not record a finding (out of memory or bad data)");
    return 1;
  }
  return 0;
}

int fd_report_item(fl_split *sp, const fl_host_api *api, fl_ctx *ctx,
                   uint64_t item, const char *msg, const fl_id *nodes,
                   uint32_t n_nodes, const fl_id *links, uint32_t n_links,
                   const char *evidence, const fl_root *root) {
  fl_finding f;
  plain_finding(&f, msg, nodes, n_nodes, NULL, 0, links, n_links, evidence);
  if (root) {
    f.root_kind = root->kind;
    f.root_role = root->role;
    f.root_id = root->id;
    f.root_fact = root->fact;
  }
  return fl_split_emit(sp, api, ctx, item, &f);
}

void fd_model_free(fd_model *m) {
  if (!m)
    return;
  free(m->off);
  free(m->xplane);
  free(m->nbr);
  free(m->lnk);
  free(m->ep);
  free(m->sw);
  free(m->tier);
  free(m->pendant);
  free(m->comp);
  free(m->comp_ep);
  free(m->host);
  free(m->plane);
  free(m->pod);
  for (uint32_t i = 0; i < m->n_pods; i++) {
    free(m->pods[i].leaves);
    free(m->pods[i].sw);
  }
  free(m->pods);
  free(m->vals);
  free(m->dom_nodes);
  free(m->dom_links);
  free(m);
}

/* Plane of a cable end: the port's `plane`, else its node's. */
static const char *end_plane(const fl_host_api *api, const fl_fabric *f,
                             fl_id p) {
  const char *s = api->attr(f, FL_ENT_PORT, p, "plane");
  if (!s || !*s)
    s = api->attr(f, FL_ENT_NODE, api->port_node(f, p), "plane");
  return s && *s ? s : NULL;
}

/* The home cable of CA @n: the first cable, not crossing planes, of its
 * lowest cabled port — the one the core's graph queries attach it by. A CA
 * does not forward, so its other cables are left out of the adjacency: a
 * dual-homed HCA must not hide a leaf's single uplink (issue 12, class 5).
 * FL_NONE when it has none. */
static fl_id home_link(const fl_host_api *api, const fd_model *m, fl_id n) {
  const fl_fabric *f = m->fab;
  fl_id first = api->node_first_port(f, n);
  uint32_t np = api->node_port_count(f, n);
  for (uint32_t i = 0; first != FL_NONE && i < np; i++) {
    uint32_t c = api->port_link_count(f, first + i);
    for (uint32_t j = 0; j < c; j++) {
      fl_id l = api->port_link(f, first + i, j);
      if (!m->xplane[l])
        return l;
    }
  }
  return FL_NONE;
}

static int ca_end_ok(const fl_host_api *api, const fd_model *m, fl_id n,
                     fl_id l) {
  return api->node_kind(m->fab, n) != FL_NODE_CA || home_link(api, m, n) == l;
}

static int build_adjacency(const fl_host_api *api, fd_model *m) {
  const fl_fabric *f = m->fab;
  m->xplane = calloc((size_t)m->nl + 1, 1);
  if (!m->xplane)
    return -1;
  for (fl_id l = 0; l < m->nl; l++) {
    const char *a = end_plane(api, f, api->link_port(f, l, 0));
    const char *b = end_plane(api, f, api->link_port(f, l, 1));
    m->xplane[l] = a && b && strcmp(a, b) != 0;
  }
  m->off = calloc((size_t)m->nn + 1, sizeof *m->off);
  m->nbr = malloc(((size_t)m->nl * 2 + 1) * sizeof *m->nbr);
  m->lnk = malloc(((size_t)m->nl * 2 + 1) * sizeof *m->lnk);
  if (!m->off || !m->nbr || !m->lnk)
    return -1;
  uint32_t k = 0;
  for (fl_id v = 0; v < m->nn; v++) {
    m->off[v] = k;
    fl_id first = api->node_first_port(f, v);
    uint32_t np = api->node_port_count(f, v);
    for (uint32_t i = 0; first != FL_NONE && i < np; i++) {
      fl_id p = first + i;
      uint32_t c = api->port_link_count(f, p);
      for (uint32_t j = 0; j < c; j++) {
        fl_id l = api->port_link(f, p, j);
        fl_id o = api->link_other(f, l, p);
        fl_id u = api->port_node(f, o);
        if (u == v || u == FL_NONE || m->xplane[l] ||
            !ca_end_ok(api, m, v, l) || !ca_end_ok(api, m, u, l))
          continue;
        /* a cable between two ports of v and w is seen from both ends */
        m->nbr[k] = u;
        m->lnk[k++] = l;
      }
    }
  }
  m->off[m->nn] = k;
  return 0;
}

typedef struct str_node {
  const char *s;
  fl_id id;
} str_node;

static int cmp_str_node(const void *x, const void *y) {
  const str_node *a = x, *b = y;
  int c = fl_natcmp(a->s, b->s);
  if (!c)
    c = strcmp(a->s, b->s);
  return c ? c : (a->id < b->id ? -1 : a->id > b->id);
}

/* Pods from attributes: switches grouped by `pod`, else `su`. */
static int pods_from_attrs(const fl_host_api *api, fd_model *m) {
  const fl_fabric *f = m->fab;
  str_node *v = malloc(((size_t)m->nn + 1) * sizeof *v);
  if (!v)
    return -1;
  uint32_t n = 0;
  for (fl_id i = 0; i < m->nn; i++) {
    if (!m->sw[i])
      continue;
    const char *p = api->attr(f, FL_ENT_NODE, i, "pod");
    if (!p || !*p)
      p = api->attr(f, FL_ENT_NODE, i, "su");
    if (p && *p)
      v[n++] = (str_node){p, i};
  }
  if (n > 1)
    qsort(v, n, sizeof *v, cmp_str_node);
  m->pods = calloc((size_t)n + 1, sizeof *m->pods);
  if (!m->pods) {
    free(v);
    return -1;
  }
  for (uint32_t i = 0; i < n; i++) {
    if (i == 0 || strcmp(v[i].s, v[i - 1].s) != 0)
      m->pods[m->n_pods++].name = v[i].s;
    m->pod[v[i].id] = m->n_pods - 1;
  }
  free(v);
  return 0;
}

/* Derived pods: components of the switches below the top tier (3+ tiers),
 * or of all switches (2 tiers). */
static int pods_derived(const fl_host_api *api, fd_model *m) {
  (void)api;
  uint32_t limit = m->top_tier >= 3 ? m->top_tier : FL_TIER_UNKNOWN;
  fl_id *queue = malloc(((size_t)m->nn + 1) * sizeof *queue);
  m->pods = calloc((size_t)m->nn + 1, sizeof *m->pods);
  if (!queue || !m->pods) {
    free(queue);
    return -1;
  }
  for (fl_id r = 0; r < m->nn; r++) {
    if (!m->sw[r] || m->pod[r] != FD_NONE ||
        (limit != FL_TIER_UNKNOWN && m->tier[r] >= limit))
      continue;
    uint32_t pid = m->n_pods++;
    m->pods[pid].derived = 1;
    uint32_t head = 0, tail = 0;
    queue[tail++] = r;
    m->pod[r] = pid;
    while (head < tail) {
      fl_id v = queue[head++];
      for (uint32_t k = m->off[v]; k < m->off[v + 1]; k++) {
        fl_id u = m->nbr[k];
        if (!m->sw[u] || m->pod[u] != FD_NONE ||
            (limit != FL_TIER_UNKNOWN && m->tier[u] >= limit))
          continue;
        m->pod[u] = pid;
        queue[tail++] = u;
      }
    }
  }
  free(queue);
  m->pods_derived = 1;
  return 0;
}

static int finish_pods(const fl_host_api *api, fd_model *m) {
  const fl_fabric *f = m->fab;
  uint32_t *cnt_sw = calloc((size_t)m->n_pods + 1, sizeof *cnt_sw);
  uint32_t *cnt_lf = calloc((size_t)m->n_pods + 1, sizeof *cnt_lf);
  if (!cnt_sw || !cnt_lf) {
    free(cnt_sw), free(cnt_lf);
    return -1;
  }
  for (fl_id v = 0; v < m->nn; v++)
    if (m->pod[v] != FD_NONE && m->sw[v]) {
      cnt_sw[m->pod[v]]++;
      cnt_lf[m->pod[v]] += m->tier[v] == 1;
    }
  int rc = 0;
  for (uint32_t p = 0; p < m->n_pods && !rc; p++) {
    m->pods[p].sw = malloc(((size_t)cnt_sw[p] + 1) * sizeof(fl_id));
    m->pods[p].leaves = malloc(((size_t)cnt_lf[p] + 1) * sizeof(fl_id));
    if (!m->pods[p].sw || !m->pods[p].leaves)
      rc = -1;
  }
  for (fl_id v = 0; v < m->nn && !rc; v++) {
    uint32_t p = m->pod[v];
    if (p == FD_NONE || !m->sw[v])
      continue;
    fd_pod *pd = &m->pods[p];
    pd->sw[pd->n_sw++] = v;
    if (m->tier[v] == 1)
      pd->leaves[pd->n_leaves++] = v;
  }
  /* derived pods are named after their first leaf (or switch) */
  for (uint32_t p = 0; p < m->n_pods && !rc; p++) {
    fd_pod *pd = &m->pods[p];
    if (pd->derived)
      pd->name = api->node_name(f, pd->n_leaves ? pd->leaves[0] : pd->sw[0]);
    const char *seen[16];
    uint32_t ns = 0;
    for (uint32_t i = 0; i < pd->n_sw; i++) {
      const char *pl = m->plane[pd->sw[i]];
      if (!pl)
        continue;
      uint32_t j = 0;
      while (j < ns && strcmp(seen[j], pl) != 0)
        j++;
      if (j == ns && ns < 16)
        seen[ns++] = pl;
    }
    pd->n_planes = ns;
  }
  /* hosts take the pod of their first switch */
  for (fl_id v = 0; v < m->nn && !rc; v++)
    if (!m->sw[v])
      for (uint32_t k = m->off[v]; k < m->off[v + 1]; k++)
        if (m->sw[m->nbr[k]] && m->pod[m->nbr[k]] != FD_NONE) {
          m->pod[v] = m->pod[m->nbr[k]];
          break;
        }
  free(cnt_sw);
  free(cnt_lf);
  return rc;
}

static int build_nodes(const fl_host_api *api, fd_model *m) {
  const fl_fabric *f = m->fab;
  size_t n = (size_t)m->nn + 1;
  m->ep = calloc(n, 1);
  m->sw = calloc(n, 1);
  m->tier = malloc(n * sizeof *m->tier);
  m->pendant = malloc(n * sizeof *m->pendant);
  m->host = malloc(n * sizeof *m->host);
  m->plane = malloc(n * sizeof *m->plane);
  m->pod = malloc(n * sizeof *m->pod);
  m->comp = malloc(n * sizeof *m->comp);
  if (!m->ep || !m->sw || !m->tier || !m->pendant || !m->host || !m->plane ||
      !m->pod || !m->comp)
    return -1;
  for (fl_id v = 0; v < m->nn; v++) {
    uint32_t kind = api->node_kind(f, v);
    m->sw[v] = kind == FL_NODE_SWITCH;
    m->ep[v] = kind == FL_NODE_CA && !fl_view_is_sharp_an(api, f, v);
    m->tier[v] = api->node_tier(f, v);
    if (m->sw[v] && m->tier[v] != FL_TIER_UNKNOWN &&
        (m->top_tier == FL_TIER_UNKNOWN || m->tier[v] > m->top_tier))
      m->top_tier = m->tier[v];
    const char *sys = api->node_system(f, v);
    m->host[v] = sys && *sys ? sys : api->node_name(f, v);
    m->plane[v] = api->attr(f, FL_ENT_NODE, v, "plane");
    if (m->plane[v] && !*m->plane[v])
      m->plane[v] = NULL;
    m->pod[v] = FD_NONE;
    m->pendant[v] = FD_NONE;
    if (m->ep[v] && m->off[v] < m->off[v + 1]) {
      fl_id only = m->nbr[m->off[v]];
      for (uint32_t k = m->off[v]; k < m->off[v + 1]; k++)
        if (m->nbr[k] != only)
          only = FD_NONE;
      m->pendant[v] = only;
    }
  }
  return 0;
}

int fd_multi_fed(const char *s) {
  const char *plus = strchr(s, '+');
  if (!plus)
    return 0;
  /* two different non-empty parts suffice */
  size_t n0 = (size_t)(plus - s);
  for (const char *p = plus + 1; *p;) {
    const char *e = strchr(p, '+');
    size_t n = e ? (size_t)(e - p) : strlen(p);
    if (n0 && n && (n != n0 || strncmp(p, s, n) != 0))
      return 1;
    p = e ? e + 1 : p + n;
  }
  return 0;
}

static int valcmp(const char *a, const char *b) {
  int c = fl_natcmp(a, b);
  return c ? c : strcmp(a, b);
}

static int push_id(fl_id **v, uint32_t *n, uint32_t *cap, fl_id x) {
  if (*n == *cap) {
    uint32_t nc = *cap ? *cap * 2 : 1024;
    fl_id *t = realloc(*v, nc * sizeof *t);
    if (!t)
      return -1;
    *v = t;
    *cap = nc;
  }
  (*v)[(*n)++] = x;
  return 0;
}

/* Domain values of the comma-separated @domains keys: per key, per value
 * (natural order), the nodes and links that carry it. O((V + E) log). */
static int build_values(const fl_host_api *api, fd_model *m,
                        const char *domains) {
  const fl_fabric *f = m->fab;
  free(m->vals), free(m->dom_nodes), free(m->dom_links);
  m->vals = NULL, m->dom_nodes = NULL, m->dom_links = NULL, m->n_vals = 0;
  snprintf(m->dom_keys, sizeof m->dom_keys, "%s", domains);
  snprintf(m->key_store, sizeof m->key_store, "%s", domains);
  str_node *nv = malloc(((size_t)m->nn + 1) * sizeof *nv);
  str_node *lv = malloc(((size_t)m->nl + 1) * sizeof *lv);
  uint32_t cap_vals = 0, n_dn = 0, n_dl = 0, cap_dn = 0, cap_dl = 0;
  int rc = nv && lv ? 0 : -1;
  char *save = NULL;
  for (char *key = strtok_r(m->key_store, ", ", &save); key && !rc;
       key = strtok_r(NULL, ", ", &save)) {
    uint32_t a = 0, b = 0;
    for (fl_id v = 0; v < m->nn; v++) {
      const char *s = api->attr(f, FL_ENT_NODE, v, key);
      if (s && *s && !fd_multi_fed(s))
        nv[a++] = (str_node){s, v};
    }
    for (fl_id l = 0; l < m->nl; l++) {
      const char *s = api->attr(f, FL_ENT_LINK, l, key);
      if (s && *s && !fd_multi_fed(s))
        lv[b++] = (str_node){s, l};
    }
    if (a > 1)
      qsort(nv, a, sizeof *nv, cmp_str_node);
    if (b > 1)
      qsort(lv, b, sizeof *lv, cmp_str_node);
    uint32_t i = 0, j = 0;
    while ((i < a || j < b) && !rc) {
      const char *val = i < a && (j >= b || valcmp(nv[i].s, lv[j].s) <= 0)
                            ? nv[i].s
                            : lv[j].s;
      if (m->n_vals == cap_vals) {
        cap_vals = cap_vals ? cap_vals * 2 : 64;
        fd_value *t = realloc(m->vals, cap_vals * sizeof *t);
        if (!t) {
          rc = -1;
          break;
        }
        m->vals = t;
      }
      fd_value *dv = &m->vals[m->n_vals++];
      *dv = (fd_value){key, val, n_dn, 0, n_dl, 0};
      for (; i < a && strcmp(nv[i].s, val) == 0 && !rc; i++, dv->n_nodes++)
        rc = push_id(&m->dom_nodes, &n_dn, &cap_dn, nv[i].id);
      for (; j < b && strcmp(lv[j].s, val) == 0 && !rc; j++, dv->n_links++)
        rc = push_id(&m->dom_links, &n_dl, &cap_dl, lv[j].id);
    }
  }
  free(nv);
  free(lv);
  return rc;
}

fd_model *fd_get_model(const fl_host_api *api, fl_ctx *ctx, fd_state *st,
                       const char *domains) {
  const fl_fabric *f = api->fabric(ctx);
  fl_fabric_key key = fl_fabric_key_of(api, ctx);
  int same = st->m && fl_fabric_key_eq(st->m->key, key);
  if (!domains)
    domains = same ? st->m->dom_keys : FD_DEFAULT_DOMAINS;
  if (same) {
    if (strcmp(st->m->dom_keys, domains) != 0 &&
        build_values(api, st->m, domains) != 0) {
      api->fail(ctx, "out of memory");
      return NULL;
    }
    return st->m;
  }
  fd_model_free(st->m);
  fd_model *m = st->m = calloc(1, sizeof *m);
  if (!m) {
    api->fail(ctx, "out of memory");
    return NULL;
  }
  m->fab = f;
  m->key = key;
  m->nn = api->node_count(f);
  m->nl = api->link_count(f);
  m->top_tier = FL_TIER_UNKNOWN;
  int rc = build_adjacency(api, m);
  if (!rc)
    rc = build_nodes(api, m);
  if (!rc &&
      api->components_masked(f, NULL, m->xplane, m->comp, &m->n_comp) != FL_OK)
    rc = -1;
  if (!rc && !(m->comp_ep = calloc((size_t)m->n_comp + 1, sizeof *m->comp_ep)))
    rc = -1;
  for (fl_id v = 0; !rc && v < m->nn; v++)
    m->comp_ep[m->comp[v]] += m->ep[v];
  if (!rc)
    rc = pods_from_attrs(api, m);
  if (!rc && m->n_pods == 0) {
    free(m->pods);
    m->pods = NULL;
    rc = pods_derived(api, m);
  }
  if (!rc)
    rc = finish_pods(api, m);
  if (!rc)
    rc = build_values(api, m, domains);
  if (rc) {
    fd_model_free(m);
    st->m = NULL;
    api->fail(ctx, "out of memory");
    return NULL;
  }
  return m;
}

/* ---- max flow (Dinic)
 * -------------------------------------------------------- */

typedef struct flow_net {
  uint32_t n, m;
  uint32_t *head, *next, *to;
  double *cap;
  int32_t *level;
  uint32_t *it, *queue;
} flow_net;

static void add_arc(flow_net *g, uint32_t u, uint32_t v, double c) {
  g->to[g->m] = v, g->cap[g->m] = c, g->next[g->m] = g->head[u],
  g->head[u] = g->m++;
  g->to[g->m] = u, g->cap[g->m] = c, g->next[g->m] = g->head[v],
  g->head[v] = g->m++;
}

static int bfs_levels(flow_net *g, uint32_t s, uint32_t t) {
  for (uint32_t i = 0; i < g->n; i++)
    g->level[i] = -1;
  uint32_t h = 0, tl = 0;
  g->level[s] = 0;
  g->queue[tl++] = s;
  while (h < tl) {
    uint32_t u = g->queue[h++];
    for (uint32_t e = g->head[u]; e != FD_NONE; e = g->next[e])
      if (g->cap[e] > 1e-9 && g->level[g->to[e]] < 0) {
        g->level[g->to[e]] = g->level[u] + 1;
        g->queue[tl++] = g->to[e];
      }
  }
  return g->level[t] >= 0;
}

/* Blocking-flow step, iterative DFS along level-increasing arcs. */
static double push_path(flow_net *g, uint32_t s, uint32_t t) {
  uint32_t *path = g->queue; /* reuse: arcs of the current path */
  uint32_t depth = 0, u = s;
  double total = 0;
  for (;;) {
    if (u == t) {
      double f = 1e300;
      for (uint32_t i = 0; i < depth; i++)
        if (g->cap[path[i]] < f)
          f = g->cap[path[i]];
      for (uint32_t i = 0; i < depth; i++) {
        g->cap[path[i]] -= f;
        g->cap[path[i] ^ 1u] += f;
      }
      total += f;
      depth = 0;
      u = s;
      continue;
    }
    uint32_t e = g->it[u];
    while (e != FD_NONE &&
           !(g->cap[e] > 1e-9 && g->level[g->to[e]] == g->level[u] + 1))
      e = g->next[e];
    g->it[u] = e;
    if (e == FD_NONE) {
      if (depth == 0)
        return total;
      g->level[u] = -1; /* dead end */
      depth--;
      u = g->to[path[depth] ^ 1u];
      g->it[u] = g->next[g->it[u]];
      continue;
    }
    path[depth++] = e;
    u = g->to[e];
  }
}

double fd_maxflow(uint32_t n, uint32_t m, const uint32_t *eu,
                  const uint32_t *ev, const double *cap,
                  const uint8_t *edge_off, const uint8_t *is_src,
                  const uint8_t *is_dst) {
  flow_net g;
  memset(&g, 0, sizeof g);
  g.n = n + 2;
  uint32_t arcs = 2 * (m + 2 * n) + 2;
  g.head = malloc(g.n * sizeof *g.head);
  g.next = malloc(arcs * sizeof *g.next);
  g.to = malloc(arcs * sizeof *g.to);
  g.cap = malloc(arcs * sizeof *g.cap);
  g.level = malloc(g.n * sizeof *g.level);
  g.it = malloc(g.n * sizeof *g.it);
  g.queue = malloc((g.n + arcs) * sizeof *g.queue);
  double flow = -1;
  if (g.head && g.next && g.to && g.cap && g.level && g.it && g.queue) {
    uint32_t S = n, T = n + 1;
    double big = 0;
    for (uint32_t e = 0; e < m; e++)
      big += cap[e];
    big += 1;
    for (uint32_t i = 0; i < g.n; i++)
      g.head[i] = FD_NONE;
    for (uint32_t e = 0; e < m; e++)
      if (!(edge_off && edge_off[e]) && eu[e] != ev[e] && cap[e] > 0)
        add_arc(&g, eu[e], ev[e], cap[e]);
    for (uint32_t i = 0; i < n; i++) {
      if (is_src[i])
        add_arc(&g, S, i, big), g.cap[g.m - 1] = 0; /* one-way */
      if (is_dst[i])
        add_arc(&g, i, T, big), g.cap[g.m - 1] = 0;
    }
    flow = 0;
    while (bfs_levels(&g, S, T)) {
      memcpy(g.it, g.head, g.n * sizeof *g.it);
      flow += push_path(&g, S, T);
    }
  }
  free(g.head), free(g.next), free(g.to), free(g.cap), free(g.level),
      free(g.it), free(g.queue);
  return flow;
}

/* ---- shared what-if: does a removal split the hosts? ---------------------
 * domain-partition's test (with allow-single-homed on), asked by the other
 * rules so that a value domain-partition reports is not reported again as
 * a capacity loss, a blast radius or a spine-spread shortfall: one cause,
 * one finding. */

int fd_splits(const fl_host_api *api, const fd_model *m,
              const uint8_t *node_off, const uint8_t *link_off) {
  uint32_t *memb = malloc(((size_t)m->nn + 1) * sizeof *memb);
  uint32_t *first = malloc(((size_t)m->n_comp + 1) * sizeof *first);
  uint32_t n_new = 0;
  int split = -1;
  if (memb && first &&
      api->components_masked(m->fab, node_off, link_off, memb, &n_new) ==
          FL_OK) {
    split = 0;
    for (uint32_t b = 0; b < m->n_comp; b++)
      first[b] = FD_NONE;
    for (fl_id e = 0; e < m->nn && !split; e++) {
      if (!m->ep[e] || node_off[e])
        continue;
      int kept = 0;
      for (uint32_t k = m->off[e]; k < m->off[e + 1] && !kept; k++)
        kept = !link_off[m->lnk[k]] && !node_off[m->nbr[k]];
      if (!kept)
        continue; /* lost with the domain */
      uint32_t b = m->comp[e];
      if (first[b] == FD_NONE)
        first[b] = memb[e];
      else if (first[b] != memb[e])
        split = 1;
    }
  }
  free(memb), free(first);
  return split;
}

static int splits_marked(const fl_host_api *api, const fd_model *m,
                         uint8_t *node_off, uint8_t *link_off) {
  for (fl_id l = 0; l < m->nl; l++)
    link_off[l] |= m->xplane[l];
  int rc = fd_splits(api, m, node_off, link_off);
  free(node_off), free(link_off);
  return rc;
}

int fd_value_splits(const fl_host_api *api, const fd_model *m,
                    const fd_value *dv) {
  uint8_t *node_off = calloc((size_t)m->nn + 1, 1);
  uint8_t *link_off = calloc((size_t)m->nl + 1, 1);
  if (!node_off || !link_off) {
    free(node_off), free(link_off);
    return -1;
  }
  for (uint32_t i = 0; i < dv->n_nodes; i++)
    node_off[m->dom_nodes[dv->node_off + i]] = 1;
  for (uint32_t i = 0; i < dv->n_links; i++)
    link_off[m->dom_links[dv->link_off + i]] = 1;
  return splits_marked(api, m, node_off, link_off);
}

int fd_attr_splits(const fl_host_api *api, const fd_model *m, const char *key,
                   const char *value) {
  const fl_fabric *f = m->fab;
  uint8_t *node_off = calloc((size_t)m->nn + 1, 1);
  uint8_t *link_off = calloc((size_t)m->nl + 1, 1);
  if (!node_off || !link_off) {
    free(node_off), free(link_off);
    return -1;
  }
  for (fl_id v = 0; v < m->nn; v++) {
    const char *s = api->attr(f, FL_ENT_NODE, v, key);
    node_off[v] = s && strcmp(s, value) == 0;
  }
  for (fl_id l = 0; l < m->nl; l++) {
    const char *s = api->attr(f, FL_ENT_LINK, l, key);
    link_off[l] = s && strcmp(s, value) == 0;
  }
  return splits_marked(api, m, node_off, link_off);
}
