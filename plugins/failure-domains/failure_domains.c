/*
 * plugins/failure-domains/failure_domains.c — no single rack, PDU, feed or
 * switch may take down a pod (rule id prefix `failure-domains`).
 *
 * Architects spread spines and planes over power feeds, PDUs, racks and
 * rows so that one failure costs a slice of bandwidth, never connectivity
 * (docs/rules/failure-domains.md: FD-1 never partition, FD-2
 * no halving, FD-3/FD-4 spread over power and racks, FD-5 cross-pod). These
 * rules check that the plan really does:
 *
 *  single-point      a switch (articulation point) or cable (bridge) whose
 *                    loss disconnects hosts from each other; one Tarjan DFS
 *                    of our own, O(V + E), which also yields the pieces;
 *  domain-partition  removing every element of one domain value (pdu=A3)
 *                    disconnects the hosts outside it; components_masked
 *                    per value, O(V + E) each;
 *  capacity-loss     removing one domain value cuts a pod's leaf uplinks,
 *                    core uplinks or bisection (max flow between its leaf
 *                    halves) by more than max-loss; only the pods the value
 *                    touches are re-evaluated, in O(pod);
 *  spine-spread      the spines/cores of a group sit in fewer distinct
 *                    feeds / PDUs / racks than required;
 *  dual-homing       a host's redundant ports (dual-port HCA, two NICs of
 *                    one rail, two planes) land on one switch or one domain;
 *  plane-crossing    a cable joins two planes meant to be isolated;
 *  pod-isolation     pods joined other than through the declared tier.
 *
 * "Hosts" are endpoints: CA nodes other than SHARP Aggregation Nodes.
 * Connectivity is judged per endpoint within its original component, so a
 * two-plane fabric (two components by design) is judged plane by plane.
 * With allow-single-homed (default), an endpoint whose every cable ends on
 * the failed element is lost *with* it (a rail leaf takes its rail on its
 * hosts: degradation, FD-1), not reported as cut off.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabriclint/json_buf.h"
#include "fabriclint/view.h"
#include "fd_model.h"

#define MAX_NAMED 50 /* names listed in one finding; the rest are counted */

/* ---- parameters
 * ----------------------------------------------------------------- */

static int param_bool(const fl_host_api *api, fl_ctx *ctx, const char *name,
                      int dflt) {
  int64_t v;
  return api->param_int(ctx, name, &v) == FL_OK ? v != 0 : dflt;
}

static const char *param_str(const fl_host_api *api, fl_ctx *ctx,
                             const char *name, const char *dflt) {
  const char *s;
  return api->param_string(ctx, name, &s) == FL_OK && s ? s : dflt;
}

/* ---- naming groups of endpoints
 * -------------------------------------------------- */

/* A list of host names (unique, in the order first seen, at most MAX_NAMED). */
typedef struct host_set {
  const char *name[MAX_NAMED];
  uint32_t n;
  uint32_t more; /* distinct hosts not listed */
} host_set;

static void hs_add(host_set *h, const char *name) {
  for (uint32_t i = 0; i < h->n; i++)
    if (h->name[i] == name || strcmp(h->name[i], name) == 0)
      return;
  if (h->n < MAX_NAMED)
    h->name[h->n++] = name;
  else
    h->more++;
}

static int cmp_nat(const void *x, const void *y) {
  return fl_natcmp(*(const char *const *)x, *(const char *const *)y);
}

/* Listed names in natural order ("node2" before "node10"). */
static void hs_sort(host_set *h) {
  if (h->n > 1)
    qsort(h->name, h->n, sizeof *h->name, cmp_nat);
}

/* How messages name a pod: `pod "1"`, or `the pod of leaf "x"` when derived. */
static void pod_label(const fd_pod *pd, char *buf, size_t size) {
  if (pd->derived)
    snprintf(buf, size, "the pod of \"%s\"", pd->name);
  else
    snprintf(buf, size, "pod \"%s\"", pd->name);
}

static void hs_json(jbuf *b, const char *key, host_set *h) {
  hs_sort(h);
  jb_key(b, key);
  jb_arr_open(b);
  for (uint32_t i = 0; i < h->n; i++)
    jb_str_item(b, h->name[i]);
  jb_arr_close(b);
}

/* "a, b, c and 7 more" */
static void hs_text(host_set *h, uint32_t max, char *buf, size_t size) {
  hs_sort(h);
  size_t off = 0;
  buf[0] = '\0';
  uint32_t shown = h->n < max ? h->n : max;
  for (uint32_t i = 0; i < shown && off < size; i++)
    off += (size_t)snprintf(buf + off, size - off, "%s%s", i ? ", " : "",
                            h->name[i]);
  uint32_t rest = h->n - shown + h->more;
  if (rest && off < size)
    snprintf(buf + off, size - off, " and %u more", rest);
}

/* ---- failure-domains.single-point
 * ------------------------------------------------ */

typedef struct dfs_state {
  uint32_t *disc, *low, *size, *sub_ep, *order;
  fl_id *parent, *plink;
  uint32_t *it; /* next adjacency index per node on the DFS stack */
  fl_id *stack;
  uint32_t *root; /* per node: root of its DFS tree */
} dfs_state;

static void dfs_free(dfs_state *d) {
  free(d->disc), free(d->low), free(d->size), free(d->sub_ep), free(d->order);
  free(d->parent), free(d->plink), free(d->it), free(d->stack), free(d->root);
}

/* Iterative Tarjan DFS (multigraph: the tree edge is skipped by link id,
 * so a parallel cable is a back edge). Roots are switches first, so a pendant
 * host is never a root. */
static int tarjan(const fd_model *m, dfs_state *d) {
  size_t n = (size_t)m->nn + 1;
  d->disc = calloc(n, sizeof *d->disc);
  d->low = malloc(n * sizeof *d->low);
  d->size = malloc(n * sizeof *d->size);
  d->sub_ep = malloc(n * sizeof *d->sub_ep);
  d->order = malloc(n * sizeof *d->order);
  d->parent = malloc(n * sizeof *d->parent);
  d->plink = malloc(n * sizeof *d->plink);
  d->it = malloc(n * sizeof *d->it);
  d->stack = malloc(n * sizeof *d->stack);
  d->root = malloc(n * sizeof *d->root);
  if (!d->disc || !d->low || !d->size || !d->sub_ep || !d->order ||
      !d->parent || !d->plink || !d->it || !d->stack || !d->root)
    return -1;
  uint32_t t = 0;
  for (int pass = 0; pass < 2; pass++)
    for (fl_id r = 0; r < m->nn; r++) {
      if (d->disc[r] || (pass == 0) != (m->sw[r] != 0))
        continue;
      uint32_t sp = 0;
      d->stack[sp++] = r;
      d->parent[r] = FD_NONE;
      d->plink[r] = FD_NONE;
      d->disc[r] = d->low[r] = ++t;
      d->order[t - 1] = r;
      d->size[r] = 1;
      d->sub_ep[r] = m->ep[r];
      d->it[r] = m->off[r];
      d->root[r] = r;
      while (sp) {
        fl_id v = d->stack[sp - 1];
        if (d->it[v] < m->off[v + 1]) {
          uint32_t k = d->it[v]++;
          fl_id u = m->nbr[k], l = m->lnk[k];
          if (l == d->plink[v])
            continue;
          if (!d->disc[u]) {
            d->parent[u] = v;
            d->plink[u] = l;
            d->disc[u] = d->low[u] = ++t;
            d->order[t - 1] = u;
            d->size[u] = 1;
            d->sub_ep[u] = m->ep[u];
            d->it[u] = m->off[u];
            d->root[u] = r;
            d->stack[sp++] = u;
          } else if (d->disc[u] < d->low[v]) {
            d->low[v] = d->disc[u];
          }
        } else {
          sp--;
          fl_id p = d->parent[v];
          if (p != FD_NONE) {
            if (d->low[v] < d->low[p])
              d->low[p] = d->low[v];
            d->size[p] += d->size[v];
            d->sub_ep[p] += d->sub_ep[v];
          }
        }
      }
    }
  return 0;
}

/* Endpoints of the DFS range [from, to) of d->order, skipping sub-ranges
 * that start at positions marked in @skip (their subtree sizes), and
 * endpoints pendant to @lost when @allow. Adds hosts to @hs, node ids to
 * @ids (up to @max_ids). */
static void collect_range(const fd_model *m, const dfs_state *d, uint32_t from,
                          uint32_t to, const uint8_t *skip, fl_id lost,
                          int allow, host_set *hs, fl_id *ids, uint32_t *n_ids,
                          uint32_t max_ids) {
  for (uint32_t pos = from; pos < to;) {
    fl_id v = d->order[pos];
    if (skip && skip[v]) {
      pos += d->size[v];
      continue;
    }
    pos++;
    if (!m->ep[v] || (allow && m->pendant[v] == lost && lost != FD_NONE))
      continue;
    hs_add(hs, m->host[v]);
    if (*n_ids < max_ids)
      ids[(*n_ids)++] = v;
  }
}

/* One piece of a split: a DFS subtree (@child) or the rest of the component. */
typedef struct piece {
  fl_id child; /* FD_NONE: the rest */
  uint32_t eps;
} piece;

static int cmp_piece(const void *x, const void *y) {
  const piece *a = x, *b = y;
  if (a->eps != b->eps)
    return a->eps > b->eps ? -1 : 1;
  return a->child < b->child ? -1 : a->child > b->child;
}

static int report_ap(const fl_host_api *api, fl_ctx *ctx, const fd_model *m,
                     const dfs_state *d, fl_id p, const fl_id *kids,
                     uint32_t n_kids, uint8_t *mark, int allow) {
  const fl_fabric *f = m->fab;
  piece *pc = malloc(((size_t)n_kids + 1) * sizeof *pc);
  if (!pc) {
    api->fail(ctx, "out of memory");
    return 1;
  }
  uint32_t np = 0, sep_ep = 0;
  for (uint32_t i = 0; i < n_kids; i++) {
    fl_id v = kids[i];
    sep_ep += d->sub_ep[v];
    uint32_t rel = d->sub_ep[v] -
                   (allow && m->ep[v] && m->pendant[v] == p && d->size[v] == 1);
    if (rel)
      pc[np++] = (piece){v, rel};
  }
  fl_id root = d->root[p];
  uint32_t rest = m->comp_ep[m->comp[p]] - m->ep[p] - sep_ep;
  if (p != root && rest)
    pc[np++] = (piece){FD_NONE, rest};
  if (np > 1)
    qsort(pc, np, sizeof *pc, cmp_piece);
  /* every piece but the largest is cut off */
  host_set hs;
  memset(&hs, 0, sizeof hs);
  fl_id ids[MAX_NAMED + 1];
  uint32_t n_ids = 1, cut = 0;
  ids[0] = p;
  for (uint32_t i = 0; i < n_kids; i++)
    mark[kids[i]] = 1;
  mark[p] = 1;
  jbuf ev;
  jb_init(&ev);
  jb_obj_open(&ev);
  jb_key_str(&ev, "element", api->node_name(f, p));
  jb_key_str(&ev, "kind", "switch");
  jb_key(&ev, "groups");
  jb_arr_open(&ev);
  for (uint32_t i = 0; i < np; i++) {
    host_set g;
    memset(&g, 0, sizeof g);
    uint32_t gn = 0;
    fl_id gid[1];
    if (pc[i].child != FD_NONE)
      collect_range(m, d, d->disc[pc[i].child] - 1,
                    d->disc[pc[i].child] - 1 + d->size[pc[i].child], NULL, p,
                    allow, &g, gid, &gn, 0);
    else
      collect_range(m, d, d->disc[root] - 1, d->disc[root] - 1 + d->size[root],
                    mark, p, allow, &g, gid, &gn, 0);
    jb_obj_open(&ev);
    jb_key_int(&ev, "endpoints", pc[i].eps);
    jb_key_bool(&ev, "cut_off", i > 0);
    hs_json(&ev, "hosts", &g);
    jb_obj_close(&ev);
    if (i == 0)
      continue;
    cut += pc[i].eps;
    if (pc[i].child != FD_NONE)
      collect_range(m, d, d->disc[pc[i].child] - 1,
                    d->disc[pc[i].child] - 1 + d->size[pc[i].child], NULL, p,
                    allow, &hs, ids, &n_ids, MAX_NAMED + 1);
    else
      collect_range(m, d, d->disc[root] - 1, d->disc[root] - 1 + d->size[root],
                    mark, p, allow, &hs, ids, &n_ids, MAX_NAMED + 1);
  }
  jb_arr_close(&ev);
  jb_key_int(&ev, "cut_off_endpoints", cut);
  jb_key_bool(&ev, "single_homed_allowed", allow);
  jb_obj_close(&ev);
  for (uint32_t i = 0; i < n_kids; i++)
    mark[kids[i]] = 0;
  mark[p] = 0;
  char list[600], msg[1024];
  hs_text(&hs, 8, list, sizeof list);
  snprintf(msg, sizeof msg,
           "switch \"%s\" is a single point of failure: losing it cuts %u "
           "endpoint(s) on %s off from the other %u",
           api->node_name(f, p), cut, list, pc[0].eps);
  char key[320];
  snprintf(key, sizeof key, "switch|%s", api->node_name(f, p));
  int rc = fd_report_keyed(api, ctx, key, msg, ids, n_ids, NULL, 0, NULL, 0,
                           jb_str(&ev));
  jb_free(&ev);
  free(pc);
  return rc;
}

static int report_bridge(const fl_host_api *api, fl_ctx *ctx, const fd_model *m,
                         const dfs_state *d, fl_id v, uint32_t rel_in,
                         uint32_t rel_out, uint8_t *mark, int allow) {
  const fl_fabric *f = m->fab;
  fl_id l = d->plink[v], p = d->parent[v], root = d->root[v];
  /* the cut-off side is the smaller one */
  int inside = rel_in <= rel_out;
  host_set hs;
  memset(&hs, 0, sizeof hs);
  fl_id ids[MAX_NAMED + 2];
  uint32_t n_ids = 2;
  fl_port_ref ports[2];
  for (uint32_t e = 0; e < 2; e++) {
    fl_id pt = api->link_port(f, l, e);
    ports[e].node = api->port_node(f, pt);
    ports[e].port = api->port_num(f, pt);
    ids[e] = ports[e].node;
  }
  if (inside) {
    collect_range(m, d, d->disc[v] - 1, d->disc[v] - 1 + d->size[v], NULL,
                  FD_NONE, allow, &hs, ids, &n_ids, MAX_NAMED + 2);
  } else {
    mark[v] = 1;
    collect_range(m, d, d->disc[root] - 1, d->disc[root] - 1 + d->size[root],
                  mark, FD_NONE, allow, &hs, ids, &n_ids, MAX_NAMED + 2);
    mark[v] = 0;
  }
  char list[600], msg[1024];
  hs_text(&hs, 8, list, sizeof list);
  uint32_t cut = inside ? rel_in : rel_out, other = inside ? rel_out : rel_in;
  snprintf(
      msg, sizeof msg,
      "cable %s port %u <-> %s port %u is a single point of failure: losing "
      "it cuts %u endpoint(s) on %s off from the other %u",
      api->node_name(f, ports[0].node), ports[0].port,
      api->node_name(f, ports[1].node), ports[1].port, cut, list, other);
  jbuf ev;
  jb_init(&ev);
  jb_obj_open(&ev);
  jb_key_str(&ev, "kind", "cable");
  jb_key_str(&ev, "side_of", api->node_name(f, inside ? v : p));
  jb_key_int(&ev, "cut_off_endpoints", cut);
  jb_key_int(&ev, "other_endpoints", other);
  hs_json(&ev, "cut_off_hosts", &hs);
  jb_obj_close(&ev);
  /* the cable's ends in name order: the same key whichever end is
   * "inside" */
  const char *na = api->node_name(f, ports[0].node),
             *nb = api->node_name(f, ports[1].node);
  int ab = strcmp(na, nb) < 0 ||
           (strcmp(na, nb) == 0 && ports[0].port <= ports[1].port);
  char key[640];
  snprintf(key, sizeof key, "cable|%s/%u|%s/%u", ab ? na : nb,
           ab ? ports[0].port : ports[1].port, ab ? nb : na,
           ab ? ports[1].port : ports[0].port);
  int rc = fd_report_keyed(api, ctx, key, msg, ids, n_ids, ports, 2, &l, 1,
                           jb_str(&ev));
  jb_free(&ev);
  return rc;
}

static int check_single_point(const fl_host_api *api, fl_ctx *ctx, void *pd) {
  fd_state *st = pd;
  fd_model *m = fd_get_model(api, ctx, st, NULL);
  if (!m)
    return 1;
  int allow = param_bool(api, ctx, "allow-single-homed", 1);
  dfs_state d;
  memset(&d, 0, sizeof d);
  uint32_t *kid_off = calloc((size_t)m->nn + 2, sizeof *kid_off);
  fl_id *kids = malloc(((size_t)m->nn + 1) * sizeof *kids);
  uint8_t *mark = calloc((size_t)m->nn + 1, 1);
  int rc = 0;
  if (!kid_off || !kids || !mark || tarjan(m, &d) != 0) {
    api->fail(ctx, "out of memory");
    rc = 1;
  }
  /* separated children (low[v] >= disc[parent]) grouped by parent, in DFS
   * order so each group is ascending in discovery time */
  for (fl_id v = 0; !rc && v < m->nn; v++) {
    fl_id p = d.parent[v];
    if (d.disc[v] && p != FD_NONE && d.low[v] >= d.disc[p])
      kid_off[p + 1]++;
  }
  for (fl_id v = 0; !rc && v < m->nn; v++)
    kid_off[v + 1] += kid_off[v];
  uint32_t *fill = rc ? NULL : calloc((size_t)m->nn + 1, sizeof *fill);
  if (!rc && !fill) {
    api->fail(ctx, "out of memory");
    rc = 1;
  }
  for (uint32_t pos = 0; !rc && pos < m->nn; pos++) {
    fl_id v = d.order[pos], p = d.parent[v];
    if (p != FD_NONE && d.low[v] >= d.disc[p])
      kids[kid_off[p] + fill[p]++] = v;
  }
  free(fill);
  /* articulation points, in node id order */
  for (fl_id p = 0; !rc && p < m->nn; p++) {
    if (m->ep[p] || kid_off[p + 1] == kid_off[p])
      continue;
    uint32_t pieces = 0, sep_ep = 0;
    for (uint32_t i = kid_off[p]; i < kid_off[p + 1]; i++) {
      fl_id v = kids[i];
      sep_ep += d.sub_ep[v];
      pieces += d.sub_ep[v] - (allow && m->ep[v] && m->pendant[v] == p &&
                               d.size[v] == 1) >
                0;
    }
    if (p != d.root[p] && m->comp_ep[m->comp[p]] - m->ep[p] - sep_ep > 0)
      pieces++;
    if (pieces >= 2)
      rc = report_ap(api, ctx, m, &d, p, kids + kid_off[p],
                     kid_off[p + 1] - kid_off[p], mark, allow);
  }
  /* bridges, in link id order */
  fl_id *br = rc ? NULL : malloc(((size_t)m->nl + 1) * sizeof *br);
  uint32_t nbr = 0;
  if (!rc && !br) {
    api->fail(ctx, "out of memory");
    rc = 1;
  }
  for (fl_id v = 0; !rc && v < m->nn; v++) {
    fl_id p = d.parent[v];
    if (p != FD_NONE && d.low[v] > d.disc[p])
      br[nbr++] = v;
  }
  /* sort the child ends by link id */
  for (uint32_t i = 1; !rc && i < nbr; i++)
    for (uint32_t j = i; j > 0 && d.plink[br[j - 1]] > d.plink[br[j]]; j--) {
      fl_id t = br[j];
      br[j] = br[j - 1];
      br[j - 1] = t;
    }
  for (uint32_t i = 0; !rc && i < nbr; i++) {
    fl_id v = br[i], p = d.parent[v], root = d.root[v];
    uint32_t in = d.sub_ep[v], out = m->comp_ep[m->comp[v]] - d.sub_ep[v];
    uint32_t rin = in - (allow && d.size[v] == 1 && m->ep[v]);
    uint32_t rout = out - (allow && d.size[root] - d.size[v] == 1 && m->ep[p]);
    if (rin > 0 && rout > 0)
      rc = report_bridge(api, ctx, m, &d, v, rin, rout, mark, allow);
  }
  free(br);
  dfs_free(&d);
  free(kid_off), free(kids), free(mark);
  return rc;
}

/* ---- what-if over domain values (domain-partition, capacity-loss)
 * ---------------- */

typedef struct whatif {
  uint8_t *node_off, *link_off;
  uint32_t *memb;
} whatif;

static void wi_free(whatif *w) {
  free(w->node_off), free(w->link_off), free(w->memb);
}

static int wi_init(const fd_model *m, whatif *w) {
  w->node_off = calloc((size_t)m->nn + 1, 1);
  w->link_off = calloc((size_t)m->nl + 1, 1);
  w->memb = malloc(((size_t)m->nn + 1) * sizeof *w->memb);
  if (!w->node_off || !w->link_off || !w->memb)
    return -1;
  memcpy(w->link_off, m->xplane, m->nl);
  return 0;
}

/* Remove (@on) or restore the elements of @dv; cross-plane cables stay
 * removed (see fd_model.xplane). */
static void wi_set(const fd_model *m, whatif *w, const fd_value *dv,
                   uint8_t on) {
  for (uint32_t i = 0; i < dv->n_nodes; i++)
    w->node_off[m->dom_nodes[dv->node_off + i]] = on;
  for (uint32_t i = 0; i < dv->n_links; i++) {
    fl_id l = m->dom_links[dv->link_off + i];
    w->link_off[l] = on | m->xplane[l];
  }
}

/* 1 when endpoint @e keeps a cable to a node that is still there. */
static int keeps_cable(const fd_model *m, const whatif *w, fl_id e) {
  for (uint32_t k = m->off[e]; k < m->off[e + 1]; k++)
    if (!w->link_off[m->lnk[k]] && !w->node_off[m->nbr[k]])
      return 1;
  return 0;
}

typedef struct grp {
  uint32_t comp, eps;
} grp;

static int cmp_grp(const void *x, const void *y) {
  const grp *a = x, *b = y;
  if (a->eps != b->eps)
    return a->eps > b->eps ? -1 : 1;
  return a->comp < b->comp ? -1 : a->comp > b->comp;
}

static int report_partition(const fl_host_api *api, fl_ctx *ctx, fl_split *sp,
                            const fd_model *m, const whatif *w, uint32_t vi,
                            uint32_t base, const uint32_t *cnt, uint32_t n_new,
                            int allow, uint32_t lost_with) {
  const fd_value *dv = &m->vals[vi];
  grp *g = malloc(((size_t)n_new + 1) * sizeof *g);
  uint32_t *gidx = malloc(((size_t)n_new + 1) * sizeof *gidx);
  if (!g || !gidx) {
    free(g), free(gidx);
    api->fail(ctx, "out of memory");
    return 1;
  }
  uint32_t ng = 0;
  for (fl_id e = 0; e < m->nn; e++) {
    if (!m->ep[e] || w->node_off[e] || m->comp[e] != base ||
        (allow && !keeps_cable(m, w, e)))
      continue;
    uint32_t c = w->memb[e];
    if (cnt[c] == UINT32_MAX)
      continue;
    uint32_t j = 0;
    while (j < ng && g[j].comp != c)
      j++;
    if (j == ng)
      g[ng++] = (grp){c, cnt[c]};
  }
  if (ng > 1)
    qsort(g, ng, sizeof *g, cmp_grp);
  for (uint32_t j = 0; j < ng; j++)
    gidx[g[j].comp] = j;
  host_set *hs = calloc(ng, sizeof *hs);
  fl_id ids[MAX_NAMED + 16];
  uint32_t n_ids = 0, sw_off = 0, ep_off = 0;
  if (!hs) {
    free(g), free(gidx);
    api->fail(ctx, "out of memory");
    return 1;
  }
  for (uint32_t i = 0; i < dv->n_nodes; i++) {
    fl_id v = m->dom_nodes[dv->node_off + i];
    if (m->sw[v] && n_ids < 16)
      ids[n_ids++] = v;
    sw_off += m->sw[v];
    ep_off += m->ep[v];
  }
  for (fl_id e = 0; e < m->nn; e++) {
    if (!m->ep[e] || w->node_off[e] || m->comp[e] != base ||
        (allow && !keeps_cable(m, w, e)))
      continue;
    uint32_t j = gidx[w->memb[e]];
    hs_add(&hs[j], m->host[e]);
    if (j > 0 && n_ids < MAX_NAMED + 16)
      ids[n_ids++] = e;
  }
  /* the cause, when the value holds every switch of the top tier: the
   * spines (or cores) all sit in this one domain */
  uint32_t top_all = 0, top_off = 0;
  for (fl_id v = 0;
       m->top_tier != FL_TIER_UNKNOWN && m->top_tier >= 2 && v < m->nn; v++)
    if (m->sw[v] && m->tier[v] == m->top_tier) {
      top_all++;
      top_off += w->node_off[v];
    }
  char spines[120] = "";
  if (top_all >= 2 && top_off == top_all)
    snprintf(spines, sizeof spines, ": all %u %s sit in it", top_all,
             m->top_tier >= 3 ? "cores" : "spines");
  jbuf ev;
  jb_init(&ev);
  jb_obj_open(&ev);
  jb_key_str(&ev, "domain", dv->key);
  jb_key_str(&ev, "value", dv->value);
  jb_key_int(&ev, "removed_switches", sw_off);
  jb_key_int(&ev, "removed_endpoints", ep_off);
  jb_key_int(&ev, "removed_cables", dv->n_links);
  jb_key_int(&ev, "lost_with_their_switch", lost_with);
  jb_key_int(&ev, "top_tier_switches", top_all);
  jb_key_int(&ev, "top_tier_switches_removed", top_off);
  jb_key(&ev, "groups");
  jb_arr_open(&ev);
  for (uint32_t j = 0; j < ng; j++) {
    jb_obj_open(&ev);
    jb_key_int(&ev, "endpoints", g[j].eps);
    hs_json(&ev, "hosts", &hs[j]);
    jb_obj_close(&ev);
  }
  jb_arr_close(&ev);
  jb_obj_close(&ev);
  char sizes[200] = "", list[600], msg[1200];
  size_t off = 0;
  /* sizes in runs: "64 x 32", "32 + 2 x 16" (groups are sorted by size) */
  for (uint32_t j = 0; j < ng && off < sizeof sizes;) {
    uint32_t run = 1;
    while (j + run < ng && g[j + run].eps == g[j].eps)
      run++;
    if (run > 1)
      off += (size_t)snprintf(sizes + off, sizeof sizes - off, "%s%u x %u",
                              j ? " + " : "", run, g[j].eps);
    else
      off += (size_t)snprintf(sizes + off, sizeof sizes - off, "%s%u",
                              j ? " + " : "", g[j].eps);
    j += run;
  }
  hs_text(&hs[ng > 1 ? 1 : 0], 8, list, sizeof list);
  snprintf(
      msg, sizeof msg,
      "losing %s=%s (%u switch(es)%s, %u cable(s)) splits the remaining "
      "hosts into %u groups (%s endpoints); cut off from the largest: %s%s",
      dv->key, dv->value, sw_off, spines, dv->n_links, ng, sizes, list,
      ng > 2 ? " (and further groups)" : "");
  int rc =
      fd_report_item(sp, api, ctx, vi, msg, ids, n_ids,
                     dv->n_links ? m->dom_links + dv->link_off : NULL,
                     dv->n_links > 16 ? 16 : dv->n_links, jb_str(&ev), NULL);
  jb_free(&ev);
  free(hs), free(g), free(gidx);
  return rc;
}

static int check_partition(const fl_host_api *api, fl_ctx *ctx, void *pd) {
  fd_state *st = pd;
  st->part_ran = fl_fabric_key_of(api, ctx);
  fl_split sp; /* mpirun: the domain values split over the ranks */
  fl_split_init(&sp, api, ctx);
  fd_model *m = fd_get_model(
      api, ctx, st, param_str(api, ctx, "domains", FD_DEFAULT_DOMAINS));
  if (!m)
    return fl_split_finish(&sp, api, ctx, 1);
  int allow = param_bool(api, ctx, "allow-single-homed", 1);
  whatif w;
  memset(&w, 0, sizeof w);
  uint32_t *first = malloc(((size_t)m->n_comp + 1) * sizeof *first);
  uint8_t *split = calloc((size_t)m->n_comp + 1, 1);
  uint32_t *cnt = malloc(((size_t)m->nn + 1) * sizeof *cnt);
  uint32_t *touched = malloc(((size_t)m->n_comp + 1) * sizeof *touched);
  int rc = 0;
  if (!first || !split || !cnt || !touched || wi_init(m, &w) != 0) {
    api->fail(ctx, "out of memory");
    rc = 1;
  }
  for (uint32_t c = 0; !rc && c < m->n_comp; c++)
    first[c] = UINT32_MAX;
  for (uint32_t i = 0; !rc && i < m->nn; i++)
    cnt[i] = UINT32_MAX;
  for (uint32_t vi = 0; !rc && vi < m->n_vals; vi++) {
    if (!fl_split_mine(&sp, vi))
      continue;
    const fd_value *dv = &m->vals[vi];
    wi_set(m, &w, dv, 1);
    uint32_t n_new = 0, n_touched = 0, lost_with = 0;
    if (api->components_masked(m->fab, w.node_off, w.link_off, w.memb,
                               &n_new) != FL_OK) {
      api->fail(ctx, "could not compute components");
      rc = 1;
      break;
    }
    for (fl_id e = 0; e < m->nn; e++) {
      if (!m->ep[e] || w.node_off[e])
        continue;
      if (allow && !keeps_cable(m, &w, e)) {
        lost_with++;
        continue;
      }
      uint32_t b = m->comp[e], c = w.memb[e];
      if (first[b] == UINT32_MAX) {
        first[b] = c;
        touched[n_touched++] = b;
      } else if (first[b] != c) {
        split[b] = 1;
      }
      cnt[c] = cnt[c] == UINT32_MAX ? 1 : cnt[c] + 1;
    }
    for (uint32_t t = 0; !rc && t < n_touched; t++)
      if (split[touched[t]])
        rc = report_partition(api, ctx, &sp, m, &w, vi, touched[t], cnt, n_new,
                              allow, lost_with);
    /* reset what this value touched */
    for (uint32_t t = 0; t < n_touched; t++) {
      first[touched[t]] = UINT32_MAX;
      split[touched[t]] = 0;
    }
    for (fl_id e = 0; e < m->nn; e++)
      if (m->ep[e] && w.memb[e] != UINT32_MAX)
        cnt[w.memb[e]] = UINT32_MAX;
    wi_set(m, &w, dv, 0);
  }
  wi_free(&w);
  free(first), free(split), free(cnt), free(touched);
  return fl_split_finish(&sp, api, ctx, rc);
}

/* ---- failure-domains.capacity-loss
 * ------------------------------------------------- */

/* Bisection of pod @pd: max flow between the two halves of its leaves
 * (halved per plane), over the cables among the pod's switches, with the
 * leaves in @drop left out of both halves and @w's elements removed (NULL:
 * nothing removed). */
static double pod_bisection(const fl_host_api *api, const fd_model *m,
                            const fd_pod *pd, uint32_t *local, const whatif *w,
                            const uint8_t *drop_leaf) {
  const fl_fabric *f = m->fab;
  uint32_t n = pd->n_sw, ne = 0, cap_e = 0;
  for (uint32_t i = 0; i < n; i++)
    local[pd->sw[i]] = i;
  for (uint32_t i = 0; i < n; i++)
    cap_e += m->off[pd->sw[i] + 1] - m->off[pd->sw[i]];
  uint32_t *eu = malloc(((size_t)cap_e + 1) * sizeof *eu);
  uint32_t *ev = malloc(((size_t)cap_e + 1) * sizeof *ev);
  double *cap = malloc(((size_t)cap_e + 1) * sizeof *cap);
  uint8_t *off = calloc((size_t)cap_e + 1, 1);
  uint8_t *src = calloc((size_t)n + 1, 1), *dst = calloc((size_t)n + 1, 1);
  double flow = -1;
  if (eu && ev && cap && off && src && dst) {
    for (uint32_t i = 0; i < n; i++) {
      fl_id v = pd->sw[i];
      for (uint32_t k = m->off[v]; k < m->off[v + 1]; k++) {
        fl_id u = m->nbr[k];
        if (!m->sw[u] || m->pod[u] != m->pod[v] || u < v || (u == v))
          continue;
        fl_id l = m->lnk[k];
        eu[ne] = i;
        ev[ne] = local[u];
        cap[ne] = fd_link_gbps(api, f, l);
        off[ne] = w && (w->link_off[l] || w->node_off[u] || w->node_off[v]);
        ne++;
      }
    }
    /* halves per plane: leaves of each plane in id order, first half -> src */
    for (uint32_t i = 0; i < pd->n_leaves; i++) {
      fl_id lf = pd->leaves[i];
      const char *pl = m->plane[lf];
      uint32_t rank = 0, total = 0;
      for (uint32_t j = 0; j < pd->n_leaves; j++) {
        const char *pj = m->plane[pd->leaves[j]];
        if (pl == pj || (pl && pj && strcmp(pl, pj) == 0)) {
          total++;
          rank += j < i;
        }
      }
      if ((drop_leaf && drop_leaf[lf]) || (w && w->node_off[lf]))
        continue;
      if (rank < (total + 1) / 2)
        src[local[lf]] = 1;
      else
        dst[local[lf]] = 1;
    }
    flow = fd_maxflow(n, ne, eu, ev, cap, off, src, dst);
  }
  free(eu), free(ev), free(cap), free(off), free(src), free(dst);
  return flow;
}

typedef struct pod_cap {
  double leaf_base, leaf_lost; /* aggregate over surviving leaves */
  double worst_frac;           /* worst single surviving leaf */
  fl_id worst_leaf;
  double worst_base, worst_left;
  double out_base, out_lost;  /* cables from the pod to switches outside it */
  double bis_base, bis_after; /* bisection; bis_base < 0: not computed */
} pod_cap;

/* Every switch of the pod is off under @w. */
static int pod_gone(const fd_model *m, const fd_pod *pd, const whatif *w) {
  (void)m;
  for (uint32_t i = 0; i < pd->n_sw; i++)
    if (!w->node_off[pd->sw[i]])
      return 0;
  return pd->n_sw > 0;
}

static void pod_capacity(const fl_host_api *api, const fd_model *m,
                         const fd_pod *pd, uint32_t pid, const whatif *w,
                         pod_cap *pc) {
  const fl_fabric *f = m->fab;
  memset(pc, 0, sizeof *pc);
  pc->worst_leaf = FD_NONE;
  pc->bis_base = -1;
  for (uint32_t i = 0; i < pd->n_leaves; i++) {
    fl_id v = pd->leaves[i];
    if (w->node_off[v])
      continue;
    double base = 0, lost = 0;
    for (uint32_t k = m->off[v]; k < m->off[v + 1]; k++) {
      fl_id u = m->nbr[k], l = m->lnk[k];
      if (!fd_is_up(m, v, u))
        continue;
      double g = fd_link_gbps(api, f, l);
      base += g;
      if (w->link_off[l] || w->node_off[u])
        lost += g;
    }
    pc->leaf_base += base;
    pc->leaf_lost += lost;
    if (base > 0 &&
        (pc->worst_leaf == FD_NONE || lost / base > pc->worst_frac)) {
      pc->worst_frac = lost / base;
      pc->worst_leaf = v;
      pc->worst_base = base;
      pc->worst_left = base - lost;
    }
  }
  for (uint32_t i = 0; i < pd->n_sw; i++) {
    fl_id v = pd->sw[i];
    for (uint32_t k = m->off[v]; k < m->off[v + 1]; k++) {
      fl_id u = m->nbr[k], l = m->lnk[k];
      if (!m->sw[u] || m->pod[u] == pid || !fd_is_up(m, v, u))
        continue;
      double g = fd_link_gbps(api, f, l);
      pc->out_base += g;
      if (w->link_off[l] || w->node_off[u] || w->node_off[v])
        pc->out_lost += g;
    }
  }
}

/* The root of a loss of uplink capacity out of pod @pid under @w (only
 * that measure exceeds the policy): the one switch of the pod short of
 * uplinks (fd_pod_short_switch), when the loss would be within @max_loss
 * with its missing capacity restored (lost too when the switch itself is
 * lost). Sets @root (a consequence rooted in that switch) and returns 1;
 * 0 when the shortfall does not explain the loss whole. */
static int cap_root(const fl_host_api *api, const fd_model *m, uint32_t pid,
                    const whatif *w, const pod_cap *pc, double max_loss,
                    fl_root *root) {
  double deficit;
  fl_id s = fd_pod_short_switch(api, m, pid, &deficit);
  if (s == FD_NONE || deficit <= 0)
    return 0;
  double base = pc->out_base + deficit;
  double lost = pc->out_lost + (w->node_off[s] ? deficit : 0);
  if (base <= 0 || 100 * lost / base > max_loss + 1e-9)
    return 0;
  *root = (fl_root){FL_ROOT_NODE, FL_ROOT_CONSEQUENCE, s, NULL};
  return 1;
}

static int check_capacity(const fl_host_api *api, fl_ctx *ctx, void *pd) {
  fd_state *st = pd;
  fl_split sp; /* mpirun: the domain values split over the ranks */
  fl_split_init(&sp, api, ctx);
  fd_model *m = fd_get_model(
      api, ctx, st, param_str(api, ctx, "domains", FD_DEFAULT_DOMAINS));
  if (!m)
    return fl_split_finish(&sp, api, ctx, 1);
  double max_loss = 50;
  if (api->param_double(ctx, "max-loss", &max_loss) != FL_OK)
    max_loss = 50;
  int bisect = param_bool(api, ctx, "bisection", 1);
  const fl_fabric *f = m->fab;
  whatif w;
  memset(&w, 0, sizeof w);
  uint8_t *touched = calloc((size_t)m->n_pods + 1, 1);
  uint8_t *inner = calloc((size_t)m->n_pods + 1, 1);
  uint32_t *tlist = malloc(((size_t)m->n_pods + 1) * sizeof *tlist);
  uint32_t *local = malloc(((size_t)m->nn + 1) * sizeof *local);
  double *bis0 = malloc(((size_t)m->n_pods + 1) * sizeof *bis0);
  int rc = 0;
  if (!touched || !inner || !tlist || !local || !bis0 || wi_init(m, &w) != 0) {
    api->fail(ctx, "out of memory");
    rc = 1;
  }
  for (uint32_t p = 0; !rc && p < m->n_pods; p++)
    bis0[p] = -2;              /* not yet computed */
  uint32_t split_vi = FD_NONE; /* the value fd_value_splits() last judged */
  int split = 0;
  for (uint32_t vi = 0; !rc && vi < m->n_vals; vi++) {
    if (!fl_split_mine(&sp, vi))
      continue;
    const fd_value *dv = &m->vals[vi];
    wi_set(m, &w, dv, 1);
    uint32_t nt = 0;
#define TOUCH(P, INNER)                                                        \
  do {                                                                         \
    uint32_t p_ = (P);                                                         \
    if (p_ != FD_NONE) {                                                       \
      if (!touched[p_])                                                        \
        touched[p_] = 1, tlist[nt++] = p_;                                     \
      if (INNER)                                                               \
        inner[p_] = 1;                                                         \
    }                                                                          \
  } while (0)
    for (uint32_t i = 0; i < dv->n_nodes; i++) {
      fl_id v = m->dom_nodes[dv->node_off + i];
      if (!m->sw[v])
        continue;
      TOUCH(m->pod[v], 1);
      for (uint32_t k = m->off[v]; k < m->off[v + 1]; k++)
        if (m->sw[m->nbr[k]])
          TOUCH(m->pod[m->nbr[k]], 0);
    }
    for (uint32_t i = 0; i < dv->n_links; i++) {
      fl_id l = m->dom_links[dv->link_off + i];
      fl_id a = api->port_node(f, api->link_port(f, l, 0));
      fl_id b = api->port_node(f, api->link_port(f, l, 1));
      if (!m->sw[a] || !m->sw[b])
        continue;
      TOUCH(m->pod[a], m->pod[a] == m->pod[b]);
      TOUCH(m->pod[b], m->pod[a] == m->pod[b]);
    }
#undef TOUCH
    /* pods in index order: deterministic output */
    for (uint32_t i = 1; i < nt; i++)
      for (uint32_t j = i; j > 0 && tlist[j - 1] > tlist[j]; j--) {
        uint32_t t = tlist[j];
        tlist[j] = tlist[j - 1];
        tlist[j - 1] = t;
      }
    for (uint32_t t = 0; !rc && t < nt; t++) {
      uint32_t pid = tlist[t];
      const fd_pod *pod = &m->pods[pid];
      pod_cap pc;
      if (pod_gone(m, pod, &w))
        continue; /* the value takes the whole pod, hosts and all: that is
                   * domain-partition's or the design's business, not a
                   * loss of uplink capacity */
      pod_capacity(api, m, pod, pid, &w, &pc);
      int multi = pod->n_planes >= 2;
      double leaf_frac =
          multi ? (pc.leaf_base > 0 ? pc.leaf_lost / pc.leaf_base : 0)
                : pc.worst_frac;
      double out_frac = pc.out_base > 0 ? pc.out_lost / pc.out_base : 0;
      double bis_frac = 0, bis_b = -1, bis_a = -1;
      if (bisect && inner[pid] && pod->n_leaves >= 2) {
        uint8_t lost_leaf = 0;
        for (uint32_t i = 0; i < pod->n_leaves; i++)
          lost_leaf |= w.node_off[pod->leaves[i]];
        if (bis0[pid] == -2)
          bis0[pid] = pod_bisection(api, m, pod, local, NULL, NULL);
        bis_b = lost_leaf ? pod_bisection(api, m, pod, local, NULL, w.node_off)
                          : bis0[pid];
        bis_a = pod_bisection(api, m, pod, local, &w, NULL);
        if (bis_b < -0.5 || bis_a < -0.5) {
          api->fail(ctx, "out of memory");
          rc = 1;
          break;
        }
        bis_frac = bis_b > 0 ? 1 - bis_a / bis_b : 0;
      }
      double worst = leaf_frac;
      const char *what =
          multi ? "leaf uplink capacity (all planes)" : "leaf uplink capacity";
      int out_worst = 0;
      if (out_frac > worst)
        worst = out_frac, what = "uplink capacity out of the pod",
        out_worst = 1;
      if (bis_frac > worst)
        worst = bis_frac, what = "bisection bandwidth", out_worst = 0;
      if (worst * 100 <= max_loss + 1e-9)
        continue;
      /* a value that splits the hosts is domain-partition's finding: the
       * capacity it costs is a consequence of that cause, not another */
      if (fl_fabric_key_eq(st->part_ran, m->key) && split_vi != vi) {
        split_vi = vi;
        split = fd_value_splits(api, m, dv);
        if (split < 0) {
          api->fail(ctx, "out of memory");
          rc = 1;
          break;
        }
      }
      if (fl_fabric_key_eq(st->part_ran, m->key) && split)
        continue;
      fl_id ids[17];
      uint32_t n_ids = 0;
      if (pc.worst_leaf != FD_NONE && !multi &&
          pc.worst_frac * 100 > max_loss + 1e-9)
        ids[n_ids++] = pc.worst_leaf;
      for (uint32_t i = 0; i < dv->n_nodes && n_ids < 17; i++)
        if (m->sw[m->dom_nodes[dv->node_off + i]])
          ids[n_ids++] = m->dom_nodes[dv->node_off + i];
      jbuf ev;
      jb_init(&ev);
      jb_obj_open(&ev);
      jb_key_str(&ev, "domain", dv->key);
      jb_key_str(&ev, "value", dv->value);
      jb_key_str(&ev, "pod", pod->name);
      jb_key_bool(&ev, "pod_derived", pod->derived);
      jb_key_int(&ev, "planes", pod->n_planes);
      jb_key_double(&ev, "max_loss_percent", max_loss);
      jb_key_double(&ev, "leaf_uplink_loss_percent", 100 * leaf_frac);
      if (pc.worst_leaf != FD_NONE && !multi) {
        jb_key_str(&ev, "worst_leaf", api->node_name(f, pc.worst_leaf));
        jb_key_double(&ev, "worst_leaf_gbps_before", pc.worst_base);
        jb_key_double(&ev, "worst_leaf_gbps_after", pc.worst_left);
      }
      jb_key_double(&ev, "leaf_uplink_gbps_before", pc.leaf_base);
      jb_key_double(&ev, "leaf_uplink_gbps_after", pc.leaf_base - pc.leaf_lost);
      if (pc.out_base > 0) {
        jb_key_double(&ev, "core_uplink_loss_percent", 100 * out_frac);
        jb_key_double(&ev, "core_uplink_gbps_before", pc.out_base);
        jb_key_double(&ev, "core_uplink_gbps_after", pc.out_base - pc.out_lost);
      }
      if (bis_b >= 0) {
        jb_key_double(&ev, "bisection_loss_percent", 100 * bis_frac);
        jb_key_double(&ev, "bisection_gbps_before", bis_b);
        jb_key_double(&ev, "bisection_gbps_after", bis_a);
      }
      fl_root root, *rootp = NULL;
      if (out_worst && cap_root(api, m, pid, &w, &pc, max_loss, &root) != 0) {
        rootp = &root;
        jb_key_str(&ev, "explained_by", api->node_name(f, root.id));
      }
      jb_obj_close(&ev);
      char msg[1024], detail[300] = "", pct[32];
      if (pc.worst_leaf != FD_NONE && !multi && what[0] == 'l')
        snprintf(
            detail, sizeof detail, " (leaf \"%s\": %.6g of %.6g Gb/s left)",
            api->node_name(f, pc.worst_leaf), pc.worst_left, pc.worst_base);
      char pl[300];
      pod_label(pod, pl, sizeof pl);
      fd_pct_over(pct, sizeof pct, 100 * worst, max_loss);
      snprintf(msg, sizeof msg,
               "losing %s=%s cuts the %s of %s by %s%%%s; the policy "
               "allows at most %.6g%%",
               dv->key, dv->value, what, pl, pct, detail, max_loss);
      rc = fd_report_item(&sp, api, ctx, vi, msg, ids, n_ids, NULL, 0,
                          jb_str(&ev), rootp);
      jb_free(&ev);
    }
    for (uint32_t t = 0; t < nt; t++)
      touched[tlist[t]] = inner[tlist[t]] = 0;
    wi_set(m, &w, dv, 0);
  }
  wi_free(&w);
  free(touched), free(inner), free(tlist), free(local), free(bis0);
  return fl_split_finish(&sp, api, ctx, rc);
}

/* ---- failure-domains.spine-spread
 * -------------------------------------------------- */

typedef struct sgroup {
  uint32_t pod, tier;
  const char *plane;
  fl_id node;
} sgroup;

static int cmp_sgroup(const void *x, const void *y) {
  const sgroup *a = x, *b = y;
  if (a->pod != b->pod)
    return a->pod < b->pod ? -1 : 1;
  if (a->tier != b->tier)
    return a->tier < b->tier ? -1 : 1;
  int c = strcmp(a->plane ? a->plane : "", b->plane ? b->plane : "");
  if (c)
    return c;
  return a->node < b->node ? -1 : a->node > b->node;
}

static int same_group(const sgroup *a, const sgroup *b) {
  return a->pod == b->pod && a->tier == b->tier &&
         strcmp(a->plane ? a->plane : "", b->plane ? b->plane : "") == 0;
}

static int check_spread(const fl_host_api *api, fl_ctx *ctx, void *pd) {
  fd_state *st = pd;
  fd_model *m = fd_get_model(api, ctx, st, NULL);
  if (!m)
    return 1;
  const fl_fabric *f = m->fab;
  const char *req = param_str(api, ctx, "require", "power-feed:2,pdu:2,rack:2");
  /* parse KEY:N[,KEY:N...] */
  char buf[256], *keys[16];
  uint32_t need[16], nk = 0;
  snprintf(buf, sizeof buf, "%s", req);
  char *save = NULL;
  for (char *t = strtok_r(buf, ", ", &save); t && nk < 16;
       t = strtok_r(NULL, ", ", &save)) {
    char *colon = strchr(t, ':');
    long n = colon ? strtol(colon + 1, NULL, 10) : 2;
    if (colon)
      *colon = '\0';
    if (!*t || n < 1) {
      fl_param_error(api, ctx, "require",
                     "expected KEY:N[,KEY:N...], e.g. "
                     "power-feed:2,rack:2");
      return 1;
    }
    keys[nk] = t;
    need[nk++] = (uint32_t)n;
  }
  sgroup *g = malloc(((size_t)m->nn + 1) * sizeof *g);
  const char **vals = malloc(((size_t)m->nn + 1) * sizeof *vals);
  if (!g || !vals) {
    free(g), free(vals);
    api->fail(ctx, "out of memory");
    return 1;
  }
  uint32_t n = 0;
  for (fl_id v = 0; v < m->nn; v++)
    if (m->sw[v] && m->tier[v] != FL_TIER_UNKNOWN && m->tier[v] >= 2)
      g[n++] = (sgroup){m->pod[v], m->tier[v], m->plane[v], v};
  if (n > 1)
    qsort(g, n, sizeof *g, cmp_sgroup);
  int rc = 0;
  for (uint32_t i = 0; i < n && !rc;) {
    uint32_t j = i + 1;
    while (j < n && same_group(&g[i], &g[j]))
      j++;
    for (uint32_t k = 0; k < nk && !rc; k++) {
      uint32_t nv = 0, missing = 0;
      for (uint32_t x = i; x < j; x++) {
        const char *s = api->attr(f, FL_ENT_NODE, g[x].node, keys[k]);
        if (!s || !*s || fd_multi_fed(s)) {
          missing++; /* unknown, or fed from several: could spread */
          continue;
        }
        uint32_t y = 0;
        while (y < nv && strcmp(vals[y], s) != 0)
          y++;
        if (y == nv)
          vals[nv++] = s;
      }
      /* no data, spread enough, or members without a value could still
       * make up the difference: only certain shortfalls are reported */
      if (nv == 0 || nv + missing >= need[k])
        continue;
      /* when losing each of the values splits the hosts, domain-partition
       * reports each loss, naming the switches: that is this cause */
      int all_split = fl_fabric_key_eq(st->part_ran, m->key);
      for (uint32_t y = 0; y < nv && all_split; y++) {
        int sp = fd_attr_splits(api, m, keys[k], vals[y]);
        if (sp < 0) {
          api->fail(ctx, "out of memory");
          rc = 1;
        }
        all_split = sp == 1;
      }
      if (rc || all_split)
        continue;
      char grpname[400], vlist[300] = "", msg[1200];
      size_t off = 0;
      for (uint32_t y = 0; y < nv && off < sizeof vlist; y++)
        off += (size_t)snprintf(vlist + off, sizeof vlist - off, "%s%s",
                                y ? ", " : "", vals[y]);
      const char *word =
          g[i].tier == m->top_tier && m->top_tier >= 3 ? "cores" : "spines";
      char pl[300];
      if (g[i].pod != FD_NONE)
        pod_label(&m->pods[g[i].pod], pl, sizeof pl);
      if (g[i].pod != FD_NONE)
        snprintf(grpname, sizeof grpname, "%s of %s%s%s", word, pl,
                 g[i].plane ? ", plane " : "", g[i].plane ? g[i].plane : "");
      else
        snprintf(grpname, sizeof grpname, "tier-%u %s%s%s", g[i].tier, word,
                 g[i].plane ? " of plane " : "", g[i].plane ? g[i].plane : "");
      snprintf(msg, sizeof msg,
               "the %u %s sit in %u distinct %s (%s)%s; the policy requires at "
               "least %u",
               j - i, grpname, nv, keys[k], vlist,
               missing ? " and some have no value" : "", need[k]);
      fl_id ids[MAX_NAMED];
      uint32_t n_ids = 0;
      jbuf ev;
      jb_init(&ev);
      jb_obj_open(&ev);
      jb_key_str(&ev, "key", keys[k]);
      jb_key_int(&ev, "required", need[k]);
      jb_key_int(&ev, "distinct", nv);
      jb_key_int(&ev, "switches", j - i);
      jb_key_int(&ev, "without_value", missing);
      jb_key_int(&ev, "tier", g[i].tier);
      if (g[i].pod != FD_NONE)
        jb_key_str(&ev, "pod", m->pods[g[i].pod].name);
      if (g[i].plane)
        jb_key_str(&ev, "plane", g[i].plane);
      jb_key(&ev, "values");
      jb_arr_open(&ev);
      for (uint32_t y = 0; y < nv; y++)
        jb_str_item(&ev, vals[y]);
      jb_arr_close(&ev);
      jb_obj_close(&ev);
      for (uint32_t x = i; x < j && n_ids < MAX_NAMED; x++)
        ids[n_ids++] = g[x].node;
      rc = fd_report(api, ctx, msg, ids, n_ids, NULL, 0, NULL, 0, jb_str(&ev));
      jb_free(&ev);
    }
    i = j;
  }
  free(g), free(vals);
  return rc;
}

/* ---- failure-domains.dual-homing
 * --------------------------------------------------- */

typedef struct hport {
  const char
      *set; /* redundancy set: host + rail, host + "planes", or NIC name */
  const char *set2;
  fl_id node;
  uint32_t port;
  fl_id sw;
  uint32_t sw_port;
  fl_id link;
} hport;

static int cmp_hport(const void *x, const void *y) {
  const hport *a = x, *b = y;
  int c = strcmp(a->set, b->set);
  if (!c)
    c = strcmp(a->set2, b->set2);
  if (c)
    return c;
  if (a->node != b->node)
    return a->node < b->node ? -1 : 1;
  return a->port < b->port ? -1 : a->port > b->port;
}

static const char *port_attr(const fl_host_api *api, const fl_fabric *f,
                             fl_id p, const char *key) {
  const char *s = api->attr(f, FL_ENT_PORT, p, key);
  if (!s || !*s)
    s = api->attr(f, FL_ENT_NODE, api->port_node(f, p), key);
  return s && *s ? s : NULL;
}

/* Dual homing. A node known only as the neighbour of per-device listings
 * (fl_node_peer_only(): its own LLDP view was not given), or only as a far
 * end of a filtered capture: its cables beyond the captured switches are
 * unknown, so two of its ports on one captured switch do not prove it
 * single-homed (a controller cabled to two switches of which one was
 * captured; real corpus class F3). Unknown is not wrong. */

static int check_dual_homing(const fl_host_api *api, fl_ctx *ctx, void *pd) {
  fd_state *st = pd;
  fd_model *m = fd_get_model(api, ctx, st, NULL);
  if (!m)
    return 1;
  const fl_fabric *f = m->fab;
  /* a fabric of one switch has nowhere else to home a port: two ports of a
   * host on it are for bandwidth, not a redundancy fault (outside tester,
   * session 11: a lab's single QDR switch, a host with both ConnectX ports
   * on it, was an error) */
  uint32_t nsw = 0;
  for (fl_id v = 0; v < m->nn && nsw < 2; v++)
    nsw += api->node_kind(f, v) == FL_NODE_SWITCH;
  if (nsw < 2)
    return 0;
  char kbuf[256], *keys[16];
  uint32_t nk = 0;
  snprintf(kbuf, sizeof kbuf, "%s",
           param_str(api, ctx, "keys", "rack,pdu,power-feed"));
  char *save = NULL;
  for (char *t = strtok_r(kbuf, ", ", &save); t && nk < 16;
       t = strtok_r(NULL, ", ", &save))
    keys[nk++] = t;
  uint32_t np = api->port_count(f);
  hport *h = malloc(((size_t)np + 1) * sizeof *h);
  if (!h) {
    api->fail(ctx, "out of memory");
    return 1;
  }
  uint32_t n = 0;
  /* cabled ports of endpoints, with the switch they land on */
  for (fl_id v = 0; v < m->nn; v++) {
    if (!m->ep[v])
      continue;
    fl_id first = api->node_first_port(f, v);
    uint32_t cnt = api->node_port_count(f, v), cabled = 0;
    for (uint32_t i = 0; first != FL_NONE && i < cnt; i++)
      cabled += api->port_link_count(f, first + i) > 0;
    for (uint32_t i = 0; first != FL_NONE && i < cnt; i++) {
      fl_id p = first + i;
      fl_id l = FL_NONE, o = FL_NONE;
      fl_id s = fl_view_port_switch(api, f, p, &l, &o);
      if (s == FL_NONE)
        continue;
      const char *rail = port_attr(api, f, p, "rail");
      const char *plane = port_attr(api, f, p, "plane");
      hport e = {NULL, "", v, api->port_num(f, p), s, api->port_num(f, o), l};
      if (rail) {
        e.set = m->host[v]; /* two NICs (or ports) of one rail on one host */
        e.set2 = rail;
      } else if (plane) {
        e.set = m->host[v]; /* the host's ports on different planes */
        e.set2 = "\x01planes";
      } else if (cabled >= 2 && !fl_node_peer_only(api, f, v)) {
        e.set = api->node_name(f, v); /* a dual-port HCA */
        e.set2 = "\x01ports";
      } else {
        continue;
      }
      h[n++] = e;
    }
  }
  if (n > 1)
    qsort(h, n, sizeof *h, cmp_hport);
  int rc = 0;
  for (uint32_t i = 0; i < n && !rc;) {
    uint32_t j = i + 1;
    while (j < n && strcmp(h[j].set, h[i].set) == 0 &&
           strcmp(h[j].set2, h[i].set2) == 0)
      j++;
    /* the first pair that shares a switch, else a domain value */
    uint32_t a = 0, b = 0;
    const char *why_key = NULL, *why_val = NULL;
    int found = 0;
    for (uint32_t x = i; x < j && !found; x++)
      for (uint32_t y = x + 1; y < j && !found; y++)
        if (h[x].sw == h[y].sw)
          a = x, b = y, found = 1;
    for (uint32_t k = 0; k < nk && !found; k++)
      for (uint32_t x = i; x < j && !found; x++)
        for (uint32_t y = x + 1; y < j && !found; y++) {
          const char *sa = api->attr(f, FL_ENT_NODE, h[x].sw, keys[k]);
          const char *sb = api->attr(f, FL_ENT_NODE, h[y].sw, keys[k]);
          /* a dual-fed value ("A+B") shared by both is no single
           * failure: losing any one of its parts leaves both up */
          if (sa && sb && *sa && strcmp(sa, sb) == 0 && !fd_multi_fed(sa))
            a = x, b = y, found = 2, why_key = keys[k], why_val = sa;
        }
    if (found) {
      const char *kind = h[i].set2[0] != '\x01'                       ? "rail"
                         : h[i].set2[1] == 'p' && h[i].set2[2] == 'l' ? "planes"
                                                                      : "ports";
      char what[200], msg[1024];
      if (strcmp(kind, "rail") == 0)
        snprintf(what, sizeof what, "host \"%s\"'s two NICs of rail %s",
                 h[i].set, h[i].set2);
      else if (strcmp(kind, "planes") == 0)
        snprintf(what, sizeof what, "host \"%s\"'s ports on different planes",
                 h[i].set);
      else
        snprintf(what, sizeof what, "the ports of dual-port HCA \"%s\"",
                 h[i].set);
      if (found == 1)
        snprintf(
            msg, sizeof msg,
            "%s land on the same switch \"%s\" (ports %u and %u): one switch "
            "failure disconnects both",
            what, api->node_name(f, h[a].sw), h[a].sw_port, h[b].sw_port);
      else
        snprintf(msg, sizeof msg,
                 "%s land on \"%s\" and \"%s\", both in %s %s: one %s failure "
                 "disconnects both",
                 what, api->node_name(f, h[a].sw), api->node_name(f, h[b].sw),
                 why_key, why_val, why_key);
      fl_id ids[4] = {h[a].node, h[a].sw, h[b].node, h[b].sw};
      uint32_t n_ids = h[a].node == h[b].node ? 0 : 4;
      if (!n_ids) {
        ids[0] = h[a].node, ids[1] = h[a].sw, ids[2] = h[b].sw;
        n_ids = h[a].sw == h[b].sw ? 2 : 3;
      }
      fl_port_ref ports[4] = {{h[a].node, h[a].port},
                              {h[a].sw, h[a].sw_port},
                              {h[b].node, h[b].port},
                              {h[b].sw, h[b].sw_port}};
      fl_id links[2] = {h[a].link, h[b].link};
      jbuf ev;
      jb_init(&ev);
      jb_obj_open(&ev);
      jb_key_str(&ev, "redundancy", kind);
      jb_key_str(&ev, "host", m->host[h[a].node]);
      if (strcmp(kind, "rail") == 0)
        jb_key_str(&ev, "rail", h[i].set2);
      jb_key_str(&ev, "switch_a", api->node_name(f, h[a].sw));
      jb_key_str(&ev, "switch_b", api->node_name(f, h[b].sw));
      if (found == 2) {
        jb_key_str(&ev, "domain", why_key);
        jb_key_str(&ev, "value", why_val);
      }
      jb_obj_close(&ev);
      rc =
          fd_report(api, ctx, msg, ids, n_ids, ports, 4, links, 2, jb_str(&ev));
      jb_free(&ev);
    }
    i = j;
  }
  free(h);
  return rc;
}

/* ---- failure-domains.plane-crossing
 * ------------------------------------------------- */

static int plane_isolated(const char *list, const char *plane) {
  if (strcmp(list, "*") == 0)
    return 1;
  size_t n = strlen(plane);
  for (const char *s = list; *s;) {
    while (*s == ',' || *s == ' ')
      s++;
    size_t len = strcspn(s, ", ");
    if (len == n && strncmp(s, plane, n) == 0)
      return 1;
    s += len;
  }
  return 0;
}

static int check_plane_crossing(const fl_host_api *api, fl_ctx *ctx, void *pd) {
  fd_state *st = pd;
  fd_model *m = fd_get_model(api, ctx, st, NULL);
  if (!m)
    return 1;
  const fl_fabric *f = m->fab;
  const char *iso = param_str(api, ctx, "isolated-planes", "*");
  int rc = 0;
  for (fl_id l = 0; l < m->nl && !rc; l++) {
    fl_id pa = api->link_port(f, l, 0), pb = api->link_port(f, l, 1);
    const char *a = port_attr(api, f, pa, "plane"),
               *b = port_attr(api, f, pb, "plane");
    if (!a || !b || strcmp(a, b) == 0 || !plane_isolated(iso, a) ||
        !plane_isolated(iso, b))
      continue;
    fl_port_ref ports[2] = {{api->port_node(f, pa), api->port_num(f, pa)},
                            {api->port_node(f, pb), api->port_num(f, pb)}};
    fl_id ids[2] = {ports[0].node, ports[1].node};
    char msg[1024];
    snprintf(msg, sizeof msg,
             "cable %s port %u <-> %s port %u joins plane %s to plane %s; the "
             "planes are meant to be isolated (one plane's failure or "
             "misrouting then reaches the other)",
             api->node_name(f, ids[0]), ports[0].port,
             api->node_name(f, ids[1]), ports[1].port, a, b);
    jbuf ev;
    jb_init(&ev);
    jb_obj_open(&ev);
    jb_key_str(&ev, "plane_a", a);
    jb_key_str(&ev, "plane_b", b);
    jb_obj_close(&ev);
    rc = fd_report(api, ctx, msg, ids, 2, ports, 2, &l, 1, jb_str(&ev));
    jb_free(&ev);
  }
  return rc;
}

/* ---- failure-domains.pod-isolation
 * -------------------------------------------------- */

static const char *pod_attr(const fl_host_api *api, const fl_fabric *f,
                            fl_id v) {
  const char *s = api->attr(f, FL_ENT_NODE, v, "pod");
  if (!s || !*s)
    s = api->attr(f, FL_ENT_NODE, v, "su");
  return s && *s ? s : NULL;
}

static int check_pod_isolation(const fl_host_api *api, fl_ctx *ctx, void *pd) {
  fd_state *st = pd;
  fd_model *m = fd_get_model(api, ctx, st, NULL);
  if (!m)
    return 1;
  const fl_fabric *f = m->fab;
  int64_t pod_tier = 0;
  if (api->param_int(ctx, "pod-tier", &pod_tier) != FL_OK)
    pod_tier = 0;
  uint32_t tier_ok = pod_tier > 0 ? (uint32_t)pod_tier
                     : m->top_tier != FL_TIER_UNKNOWN && m->top_tier >= 3
                         ? m->top_tier
                         : FL_TIER_UNKNOWN;
  int rc = 0;
  for (fl_id l = 0; l < m->nl && !rc; l++) {
    fl_id pa = api->link_port(f, l, 0), pb = api->link_port(f, l, 1);
    fl_id a = api->port_node(f, pa), b = api->port_node(f, pb);
    if (!m->sw[a] || !m->sw[b])
      continue;
    const char *qa = pod_attr(api, f, a), *qb = pod_attr(api, f, b);
    if (!qa || !qb || strcmp(qa, qb) == 0)
      continue;
    if (tier_ok != FL_TIER_UNKNOWN &&
        ((m->tier[a] != FL_TIER_UNKNOWN && m->tier[a] >= tier_ok) ||
         (m->tier[b] != FL_TIER_UNKNOWN && m->tier[b] >= tier_ok)))
      continue;
    /* name the lower end first: "leaf X reaches a spine of pod Y" */
    int swap = m->tier[b] < m->tier[a];
    fl_id lo = swap ? b : a, hi = swap ? a : b;
    fl_id plo = swap ? pb : pa, phi = swap ? pa : pb;
    const char *qlo = swap ? qb : qa, *qhi = swap ? qa : qb;
    fl_port_ref ports[2] = {{lo, api->port_num(f, plo)},
                            {hi, api->port_num(f, phi)}};
    fl_id ids[2] = {lo, hi};
    char tiers[64], msg[1024];
    if (tier_ok != FL_TIER_UNKNOWN)
      snprintf(tiers, sizeof tiers, "only through tier %u", tier_ok);
    else
      snprintf(tiers, sizeof tiers, "only through switches of no pod");
    snprintf(
        msg, sizeof msg,
        "%s \"%s\" of pod %s is cabled (port %u) to \"%s\" port %u of pod %s; "
        "pods may connect %s",
        m->tier[lo] == 1 ? "leaf" : "switch", api->node_name(f, lo), qlo,
        ports[0].port, api->node_name(f, hi), ports[1].port, qhi, tiers);
    jbuf ev;
    jb_init(&ev);
    jb_obj_open(&ev);
    jb_key_str(&ev, "pod_a", qlo);
    jb_key_str(&ev, "pod_b", qhi);
    jb_key_int(&ev, "tier_a", m->tier[lo]);
    jb_key_int(&ev, "tier_b", m->tier[hi]);
    if (tier_ok != FL_TIER_UNKNOWN)
      jb_key_int(&ev, "inter_pod_tier", tier_ok);
    jb_obj_close(&ev);
    rc = fd_report(api, ctx, msg, ids, 2, ports, 2, &l, 1, jb_str(&ev));
    jb_free(&ev);
  }
  return rc;
}

/* ---- descriptors
 * ------------------------------------------------------------------- */

static int fd_init(const fl_host_api *api, void **data) {
  fd_state *st = calloc(1, sizeof *st);
  if (!st)
    return 1;
  st->api = api;
  *data = st;
  return 0;
}

static void fd_fini(void *data) {
  fd_state *st = data;
  if (st)
    fd_model_free(st->m);
  free(st);
}

static const fl_param_def P_SINGLE = {
    sizeof(fl_param_def),
    FL_PARAM_BOOL,
    "allow-single-homed",
    "1",
    NULL,
    "a host whose every cable ends on the failed element is lost with it "
    "(degradation), not reported as cut off; 0 counts it",
    NULL,
    NULL};
static const fl_param_def P_DOMAINS = {
    sizeof(fl_param_def),
    FL_PARAM_STRING,
    "domains",
    FD_DEFAULT_DOMAINS,
    NULL,
    "comma-separated attribute keys whose values are failure domains; every "
    "node and cable carrying one value is removed together",
    NULL,
    NULL};
static const fl_param_def P_MAXLOSS = {
    sizeof(fl_param_def),
    FL_PARAM_DOUBLE,
    "max-loss",
    "50",
    "%",
    "largest allowed cut of a pod's leaf uplink, core uplink or bisection "
    "capacity when one domain value fails",
    "0",
    "100"};
static const fl_param_def P_BISECT = {
    sizeof(fl_param_def),
    FL_PARAM_BOOL,
    "bisection",
    "1",
    NULL,
    "also compute each touched pod's bisection (max flow between its leaf "
    "halves)",
    NULL,
    NULL};
static const fl_param_def P_REQUIRE = {
    sizeof(fl_param_def),
    FL_PARAM_STRING,
    "require",
    "power-feed:2,pdu:2,rack:2",
    NULL,
    "KEY:N pairs: the spines (cores) of a group must sit in at least N "
    "distinct values of KEY",
    NULL,
    NULL};
static const fl_param_def P_KEYS = {sizeof(fl_param_def),
                                    FL_PARAM_STRING,
                                    "keys",
                                    "rack,pdu,power-feed",
                                    NULL,
                                    "failure-domain keys that a host's "
                                    "redundant ports' switches must not share",
                                    NULL,
                                    NULL};
static const fl_param_def P_PLANES = {sizeof(fl_param_def),
                                      FL_PARAM_STRING,
                                      "isolated-planes",
                                      "*",
                                      NULL,
                                      "comma-separated planes meant to be "
                                      "isolated from each other, or * for all",
                                      NULL,
                                      NULL};
static const fl_param_def P_PODTIER = {
    sizeof(fl_param_def),
    FL_PARAM_INT,
    "pod-tier",
    "0",
    NULL,
    "the tier through which pods connect (0: the top switch tier when it is 3 "
    "or more; else only switches without a pod)",
    "0",
    "255"};

static const fl_param_def *const PARAMS_SINGLE[] = {&P_SINGLE};
static const fl_param_def *const PARAMS_PART[] = {&P_DOMAINS, &P_SINGLE};
static const fl_param_def *const PARAMS_CAP[] = {&P_DOMAINS, &P_MAXLOSS,
                                                 &P_BISECT};
static const fl_param_def *const PARAMS_SPREAD[] = {&P_REQUIRE};
static const fl_param_def *const PARAMS_DUAL[] = {&P_KEYS};
static const fl_param_def *const PARAMS_PLANES[] = {&P_PLANES};
static const fl_param_def *const PARAMS_POD[] = {&P_PODTIER};

#define RULE(var, sev, rid, summ, hlp, fn, prm)                                \
  static const fl_rule_def var = {sizeof(fl_rule_def),                         \
                                  sev,                                         \
                                  rid,                                         \
                                  summ,                                        \
                                  hlp,                                         \
                                  1,                                           \
                                  FL_NEEDS_ALL_PLANES,                         \
                                  prm,                                         \
                                  sizeof prm / sizeof *prm,                    \
                                  fn}

RULE(R_SINGLE, FL_SEV_ERROR, "failure-domains.single-point",
     "a switch or cable whose loss disconnects hosts from each other",
     "An articulation point (switch) or bridge (cable) of the fabric graph "
     "whose loss splits the hosts of its component. A host's own access cable "
     "or only leaf is not counted when allow-single-homed is on (the host is "
     "lost with it). Names the element and the hosts cut off.",
     check_single_point, PARAMS_SINGLE);
RULE(R_PART, FL_SEV_ERROR, "failure-domains.domain-partition",
     "losing one rack, PDU, feed, row or hall disconnects the other hosts",
     "Every node and cable carrying one value of a domain key (pdu=A3, "
     "rack=R12) is removed together; the hosts outside the domain must stay "
     "connected. Names the domain and the separated groups.",
     check_partition, PARAMS_PART);
RULE(R_CAP, FL_SEV_WARNING, "failure-domains.capacity-loss",
     "losing one domain value cuts a pod's uplink or bisection capacity by "
     "more than max-loss",
     "For each domain value and each pod it touches: the worst surviving "
     "leaf's uplink capacity (all leaves together in multi-plane pods), the "
     "pod's uplinks to the core and its bisection (max flow between its leaf "
     "halves) must not drop by more than max-loss percent.",
     check_capacity, PARAMS_CAP);
RULE(R_SPREAD, FL_SEV_WARNING, "failure-domains.spine-spread",
     "the spines or cores of a group sit in too few feeds, PDUs or racks",
     "Groups are the switches of tier 2 and above by pod, tier and plane. "
     "Each must span at least N distinct values of each required key.",
     check_spread, PARAMS_SPREAD);
RULE(R_DUAL, FL_SEV_ERROR, "failure-domains.dual-homing",
     "a host's redundant ports land on one switch or one failure domain",
     "Redundant ports: the cabled ports of a dual-port HCA, a host's NICs of "
     "one rail, a host's ports on different planes. Their switches must "
     "differ and share no value of the keys.",
     check_dual_homing, PARAMS_DUAL);
RULE(R_PLANES, FL_SEV_ERROR, "failure-domains.plane-crossing",
     "a cable joins two planes that are meant to be isolated",
     "The plane of a cable end is its port's `plane`, else its node's. A "
     "cable whose ends are in two different isolated planes is reported.",
     check_plane_crossing, PARAMS_PLANES);
RULE(R_POD, FL_SEV_ERROR, "failure-domains.pod-isolation",
     "pods connect other than through the declared tier",
     "A cable between switches of two pods (attribute pod, else su) is "
     "allowed only when one end is at pod-tier or above; a leaf cabled to "
     "another pod's spine is the usual case.",
     check_pod_isolation, PARAMS_POD);

static const fl_rule_def *const RULES[] = {&R_SINGLE, &R_PART,   &FD_R_BLAST,
                                           &R_CAP,    &R_SPREAD, &R_DUAL,
                                           &R_PLANES, &R_POD};

static const fl_plugin_desc DESC = {sizeof(fl_plugin_desc),
                                    FL_ABI_MAJOR,
                                    FL_ABI_MINOR,
                                    sizeof RULES / sizeof *RULES,
                                    "failure-domains",
                                    "0.1.0",
                                    "fabriclint",
                                    "MIT",
                                    fd_init,
                                    fd_fini,
                                    RULES};

FL_PLUGIN_EXPORT const fl_plugin_desc *fabriclint_plugin_v1(void) {
  return &DESC;
}
