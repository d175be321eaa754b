/* SPDX-License-Identifier: MIT */
/*
 * plugins/failure-domains/fd_single.c — failure-domains.single-point: a switch
 * (articulation point) or cable (bridge) whose loss disconnects hosts from each
 * other; one Tarjan DFS of our own, O(V + E), which also yields the pieces.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fd_rules.h"

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
    fd_hs_add(hs, m->host[v]);
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
    fd_hs_json(&ev, "hosts", &g);
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
  fd_hs_text(&hs, 8, list, sizeof list);
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
  fd_hs_text(&hs, 8, list, sizeof list);
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
  fd_hs_json(&ev, "cut_off_hosts", &hs);
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
  int allow = fd_param_bool(api, ctx, "allow-single-homed", 1);
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

static const fl_param_def *const PARAMS_SINGLE[] = {&FD_P_SINGLE};

const fl_rule_def FD_R_SINGLE = {
    sizeof(fl_rule_def),
    FL_SEV_ERROR,
    "failure-domains.single-point",
    "a switch or cable whose loss disconnects hosts from each other",
    "An articulation point (switch) or bridge (cable) of the fabric graph "
    "whose loss splits the hosts of its component. A host's own access cable "
    "or only leaf is not counted when allow-single-homed is on (the host is "
    "lost with it). Names the element and the hosts cut off.",
    1,
    FL_NEEDS_ALL_PLANES,
    PARAMS_SINGLE,
    sizeof PARAMS_SINGLE / sizeof *PARAMS_SINGLE,
    check_single_point};
