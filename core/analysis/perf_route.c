/* SPDX-License-Identifier: MIT */
/*
 * core/analysis/perf_route.c — where a flow goes next: the switch index
 * and per-port hop table of a fabric (pf_net) and the next hops of a
 * switch toward a destination NIC (pf_next) under the loaded LFTs (one
 * hop: the LFT entry for the NIC's LID, as the switch forwards) or
 * adaptive routing and spraying (every cabled neighbour one hop nearer the
 * NIC's switch, by BFS over switch-to-switch cables; cached per destination
 * switch, so a destination-major walk costs one BFS per switch), and the
 * shares of those hops (pf_next_frac: equal for spray, AR's load-aware
 * split from perf_ar.c).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/perf_impl.h"
#include "fabriclint/routing.h"

uint32_t pf_dl(const fl_fabric *f, fl_id l, fl_id from) {
  return 2u * l + (fl_fabric_link_port(f, l, 0) == from ? 0u : 1u);
}

static int nomem(fl_error *err) {
  return fl_error_set(err, FL_ENOMEM, NULL, 0, 0, "out of memory");
}

/* The per-port hop table: for switch index s and port number p, the cable
 * leaving it (first cable of the port) and what is at the far end. */
static void fill_hops(pf_net *n) {
  const fl_fabric *f = n->f;
  for (uint32_t s = 0; s < n->nsw; s++) {
    fl_id node = n->sw_node[s];
    fl_id first = fl_fabric_node_first_port(f, node);
    uint32_t np = first == FL_NONE ? 0 : fl_fabric_node_port_count(f, node);
    for (uint32_t k = 0; k < np; k++) {
      fl_id p = first + k;
      uint32_t num = fl_fabric_port_num(f, p);
      if (num > 255 || fl_fabric_port_link_count(f, p) == 0)
        continue;
      fl_id l = fl_fabric_port_link(f, p, 0);
      fl_id q = fl_fabric_link_other(f, l, p);
      if (q == FL_NONE || q == p)
        continue;
      pf_hop *h = &n->hop[(size_t)s * 256 + num];
      h->dl = pf_dl(f, l, p);
      h->port = q;
      h->next = n->node_sw[fl_fabric_port_node(f, q)];
    }
    n->lft_row[s] = fl_fabric_lft(f, node, &n->lft_len[s]);
  }
}

static int fill_adj(pf_net *n) {
  n->adj_off = calloc((size_t)n->nsw + 1, sizeof *n->adj_off);
  if (!n->adj_off)
    return -1;
  for (uint32_t s = 0; s < n->nsw; s++)
    for (uint32_t p = 0; p < 256; p++)
      if (n->hop[(size_t)s * 256 + p].next != PF_NONE &&
          n->hop[(size_t)s * 256 + p].next != s)
        n->adj_off[s + 1]++;
  for (uint32_t s = 0; s < n->nsw; s++)
    n->adj_off[s + 1] += n->adj_off[s];
  size_t m = n->adj_off[n->nsw];
  n->adj_dl = malloc((m ? m : 1) * sizeof *n->adj_dl);
  n->adj_next = malloc((m ? m : 1) * sizeof *n->adj_next);
  if (!n->adj_dl || !n->adj_next)
    return -1;
  for (uint32_t s = 0; s < n->nsw; s++) {
    uint32_t k = n->adj_off[s];
    for (uint32_t p = 0; p < 256; p++) {
      const pf_hop *h = &n->hop[(size_t)s * 256 + p];
      if (h->next != PF_NONE && h->next != s) {
        n->adj_dl[k] = h->dl;
        n->adj_next[k++] = h->next;
      }
    }
  }
  return 0;
}

int pf_net_build(pf_net *n, const fl_fabric *f, fl_error *err) {
  memset(n, 0, sizeof *n);
  n->f = f;
  uint32_t nn = fl_fabric_node_count(f), nl = fl_fabric_link_count(f);
  n->node_sw = malloc((nn ? nn : 1) * sizeof *n->node_sw);
  n->sw_node = malloc((nn ? nn : 1) * sizeof *n->sw_node);
  n->ndl = 2u * nl;
  n->cap = malloc((n->ndl ? n->ndl : 1) * sizeof *n->cap);
  if (!n->node_sw || !n->sw_node || !n->cap)
    return nomem(err);
  for (fl_id v = 0; v < nn; v++) {
    n->node_sw[v] = PF_NONE;
    if (fl_fabric_node_kind(f, v) == FL_NODE_SWITCH) {
      n->node_sw[v] = n->nsw;
      n->sw_node[n->nsw++] = v;
    }
  }
  size_t slots = (size_t)(n->nsw ? n->nsw : 1) * 256;
  n->hop = malloc(slots * sizeof *n->hop);
  n->lft_row = calloc(n->nsw ? n->nsw : 1, sizeof *n->lft_row);
  n->lft_len = calloc(n->nsw ? n->nsw : 1, sizeof *n->lft_len);
  if (!n->hop || !n->lft_row || !n->lft_len)
    return nomem(err);
  memset(n->hop, 0xff, slots * sizeof *n->hop); /* PF_NONE, FL_NONE */
  for (fl_id l = 0; l < nl; l++) {
    double g = fl_fabric_link_gbps(f, l);
    n->cap[2 * l] = n->cap[2 * l + 1] = g > 0 ? g : NAN;
  }
  if (pf_net_nominal(n, err) != FL_OK)
    return FL_ENOMEM;
  fill_hops(n);
  if (fill_adj(n) != 0)
    return nomem(err);
  return FL_OK;
}

int pf_net_cut(pf_net *n) {
  const fl_fabric *f = n->f;
  for (uint32_t i = 0; i < n->nfailed; i++)
    for (uint32_t e = 0; e < 2; e++) {
      fl_id p = fl_fabric_link_port(f, n->failed[i], e);
      uint32_t s = n->node_sw[fl_fabric_port_node(f, p)];
      uint32_t num = fl_fabric_port_num(f, p);
      if (s != PF_NONE && num <= 255 &&
          n->hop[(size_t)s * 256 + num].dl / 2 == n->failed[i])
        memset(&n->hop[(size_t)s * 256 + num], 0xff, sizeof *n->hop);
    }
  free(n->adj_off), free(n->adj_dl), free(n->adj_next);
  n->adj_off = n->adj_dl = n->adj_next = NULL;
  return fill_adj(n);
}

void pf_net_free(pf_net *n) {
  free(n->failed), free(n->comp0);
  free(n->node_sw), free(n->sw_node), free(n->hop), free(n->lft_row);
  free(n->lft_len), free(n->adj_off), free(n->adj_dl), free(n->adj_next);
  free(n->cap), free(n->nom);
  memset(n, 0, sizeof *n);
}

int pf_router_init(pf_router *r, const pf_net *net, uint32_t mode) {
  memset(r, 0, sizeof *r);
  r->net = net;
  r->mode = mode;
  r->bfs_for = PF_NONE;
  if (mode == FL_WL_ROUTE_AR || mode == FL_WL_ROUTE_SPRAY) {
    r->dist = malloc((net->nsw ? net->nsw : 1) * sizeof *r->dist);
    r->queue = malloc((net->nsw ? net->nsw : 1) * sizeof *r->queue);
    if (!r->dist || !r->queue)
      return FL_ENOMEM;
  }
  return FL_OK;
}

void pf_router_free(pf_router *r) {
  free(r->dist), free(r->queue);
  pf_ar_free(&r->split);
  memset(r, 0, sizeof *r);
}

int pf_router_balance(pf_router *r, const pf_nic *nic,
                      const struct pf_flows *fl, fl_error *err) {
  if (r->mode != FL_WL_ROUTE_AR)
    return FL_OK;
  pf_ar_free(&r->split);
  r->balanced = 0;
  r->capped = 0;
  int rc = pf_ar_balance(&r->split, r->net, nic, fl, err);
  r->balanced = rc == FL_OK;
  if (rc == FL_EINVAL && r->net->ar_auto) {
    r->capped = r->split.need;
    fl_error_clear(err);
    return FL_OK;
  }
  return rc;
}

void pf_next_frac(const pf_router *r, uint32_t s, const pf_nic *d, uint32_t k,
                  double *frac) {
  if (r->mode == FL_WL_ROUTE_AR && r->balanced && s != d->sw && k > 1) {
    pf_ar_fractions(&r->split, d->sw, r->pick, k, frac);
    return;
  }
  for (uint32_t j = 0; j < k; j++)
    frac[j] = 1.0 / k;
}

static void bfs(pf_router *r, uint32_t root) {
  pf_net_bfs(r->net, root, r->dist, r->queue);
  r->bfs_for = root;
}

static uint32_t next_lft(pf_router *r, uint32_t s, const pf_nic *d,
                         uint32_t *dl, uint32_t *nx, uint32_t *why) {
  const pf_net *n = r->net;
  const uint8_t *row = n->lft_row[s];
  if (!row) {
    *why = 4;
    return 0;
  }
  if (d->lid >= n->lft_len[s] || row[d->lid] == 255 || row[d->lid] == 0) {
    *why = 1;
    return 0;
  }
  const pf_hop *h = &n->hop[(size_t)s * 256 + row[d->lid]];
  if (h->dl == PF_NONE) {
    *why = 2;
    return 0;
  }
  if (h->port == d->port) {
    *dl = h->dl;
    *nx = PF_EJECT;
    return 1;
  }
  if (h->next == PF_NONE) {
    *why = 3;
    return 0;
  }
  *dl = h->dl;
  *nx = h->next;
  return 1;
}

static uint32_t next_ar(pf_router *r, uint32_t s, const pf_nic *d, uint32_t *dl,
                        uint32_t *nx, uint32_t max, uint32_t *why) {
  const pf_net *n = r->net;
  if (s == d->sw) {
    *dl = d->dl_in;
    *nx = PF_EJECT;
    return 1;
  }
  if (r->bfs_for != d->sw)
    bfs(r, d->sw);
  uint32_t ds = r->dist[s], c = 0;
  if (ds == PF_NONE) {
    *why = 5;
    return 0;
  }
  if (max > 256)
    max = 256;
  for (uint32_t k = n->adj_off[s]; k < n->adj_off[s + 1] && c < max; k++)
    if (r->dist[n->adj_next[k]] + 1 == ds) {
      r->pick[c] = k;
      dl[c] = n->adj_dl[k];
      nx[c++] = n->adj_next[k];
    }
  return c;
}

uint32_t pf_next(pf_router *r, uint32_t s, const pf_nic *d, uint32_t *dl,
                 uint32_t *nx, uint32_t max, uint32_t *why) {
  *why = 0;
  if (max == 0)
    return 0;
  if (r->mode == PF_ROUTE_IDEAL) {
    *dl = d->dl_in;
    *nx = PF_EJECT;
    return 1;
  }
  if (r->mode == FL_WL_ROUTE_LFT)
    return next_lft(r, s, d, dl, nx, why);
  return next_ar(r, s, d, dl, nx, max, why);
}

void pf_solution_ar(pf_solution *sol, const pf_router *r) {
  sol->ar_sweeps = r->balanced ? r->split.sweeps : 0;
  sol->ar_converged = r->balanced ? r->split.converged : 0;
  sol->ar_residual = r->balanced ? r->split.residual : 0;
  sol->ar_capped = r->capped;
}
