/* SPDX-License-Identifier: MIT */
/*
 * core/analysis/perf_maxmin.c — max-min fair sharing of link capacity by
 * progressive filling (Bertsekas & Gallager, "Data Networks", 2nd ed.,
 * §6.5.2): every unfrozen flow's rate grows at the same pace; a link
 * saturates when its frozen load plus its unfrozen flows × the level reach
 * its capacity, and the flows crossing it freeze at that level.
 *
 * Stateless rounds: a flow class's rate is the lowest saturation level on
 * its routes (levels only rise, so the first link to saturate is the
 * lowest), so no per-flow state is stored. Each round walks every
 * destination's routing tree (LFT) or minimal-path DAG (spray: an equal
 * split at every switch; AR: perf_ar.c's load-aware split), pushing per switch
 * the unfrozen flow count and the frozen load toward the destination, then
 * saturates the links with the smallest fair share. Rounds = distinct
 * saturation levels + 1.
 *
 * Cost per round: O(sum over destinations of (classes toward it +
 * switches and hops its flows cross)); memory O(directed links + switches).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/perf_impl.h"

#define MAX_HOPS 256u

typedef struct mm {
  const pf_net *net;
  const pf_nic *nic;
  const pf_flows *fl;
  pf_router rt;
  pf_solution *sol;
  /* per directed link, this round */
  double *fz, *w, *cnt;
  /* per source group, this round: flows injected (all members together),
   * unfrozen ones and their frozen load; added to the group's injection
   * link divided by its members at the end of the round (whole counts sum
   * exactly, as in perf_fast.c) */
  double *gC, *gW, *gF;
  /* per switch scratch, valid when stamp == cur */
  uint32_t *stamp, cur;
  uint32_t *hoff, *hcnt, *indeg;
  double *W, *F, *cW, *minlvl;
  uint32_t *inv, ninv, *order, *stack;
  /* hop buffer: directed link, next switch, share of the switch's flows */
  uint32_t *hdl, *hnx;
  double *hfr;
  size_t nh, cap_h;
  pf_class *cbuf;
  size_t cap_c;
} mm;

static int grow_hops(mm *m, size_t need) {
  if (need <= m->cap_h)
    return 0;
  size_t c = m->cap_h ? m->cap_h * 2 : 4096;
  while (c < need)
    c *= 2;
  uint32_t *a = realloc(m->hdl, c * sizeof *a);
  if (!a)
    return -1;
  m->hdl = a;
  uint32_t *b = realloc(m->hnx, c * sizeof *b);
  if (!b)
    return -1;
  m->hnx = b;
  double *fr = realloc(m->hfr, c * sizeof *fr);
  if (!fr)
    return -1;
  m->hfr = fr;
  m->cap_h = c;
  return 0;
}

static const char *why_text(uint32_t why) {
  switch (why) {
  case 1:
    return "has no LFT entry for";
  case 2:
    return "forwards to an uncabled port toward";
  case 3:
    return "forwards to a CA that is not";
  case 4:
    return "has no LFT (not in the dump) on the route to";
  default:
    return "has no path to";
  }
}

/* Mark switch s involved for this destination and store its next hops. */
static int visit(mm *m, uint32_t s, const pf_nic *d) {
  if (m->stamp[s] == m->cur)
    return 0;
  m->stamp[s] = m->cur;
  m->inv[m->ninv++] = s;
  m->W[s] = m->F[s] = m->cW[s] = 0;
  m->indeg[s] = 0;
  if (grow_hops(m, m->nh + MAX_HOPS) != 0)
    return -1;
  uint32_t why = 0;
  uint32_t k =
      pf_next(&m->rt, s, d, m->hdl + m->nh, m->hnx + m->nh, MAX_HOPS, &why);
  if (k == 0) {
    const fl_fabric *f = m->net->f;
    snprintf(m->sol->error, sizeof m->sol->error,
             "switch %s %s LID %u (%s): the flows toward it cannot be routed",
             fl_fabric_node_name(f, m->net->sw_node[s]), why_text(why), d->lid,
             fl_fabric_node_name(f, d->node));
    return 1;
  }
  pf_next_frac(&m->rt, s, d, k, m->hfr + m->nh);
  m->hoff[s] = (uint32_t)m->nh;
  m->hcnt[s] = k;
  m->nh += k;
  return 0;
}

/* Every switch the flows toward @d cross, with their hops; then a
 * topological order (Kahn). Returns 1 (error text set) on a forwarding loop
 * or an unroutable switch. */
static int expand(mm *m, const pf_nic *d, const pf_class *cls, size_t nc) {
  m->cur++;
  if (m->cur == 0) {
    memset(m->stamp, 0, m->net->nsw * sizeof *m->stamp);
    m->cur = 1;
  }
  m->ninv = 0;
  m->nh = 0;
  uint32_t top = 0;
  for (size_t i = 0; i < nc; i++) {
    uint32_t s = m->fl->groups[cls[i].group].sw;
    if (m->stamp[s] == m->cur)
      continue;
    int rc = visit(m, s, d);
    if (rc)
      return rc;
    m->stack[top++] = s;
    while (top) {
      uint32_t u = m->stack[--top];
      for (uint32_t k = 0; k < m->hcnt[u]; k++) {
        uint32_t v = m->hnx[m->hoff[u] + k];
        if (v == PF_EJECT || m->stamp[v] == m->cur)
          continue;
        rc = visit(m, v, d);
        if (rc)
          return rc;
        m->stack[top++] = v;
      }
    }
  }
  for (uint32_t i = 0; i < m->ninv; i++) {
    uint32_t u = m->inv[i];
    for (uint32_t k = 0; k < m->hcnt[u]; k++)
      if (m->hnx[m->hoff[u] + k] != PF_EJECT)
        m->indeg[m->hnx[m->hoff[u] + k]]++;
  }
  uint32_t no = 0, head = 0;
  for (uint32_t i = 0; i < m->ninv; i++)
    if (m->indeg[m->inv[i]] == 0)
      m->order[no++] = m->inv[i];
  while (head < no) {
    uint32_t u = m->order[head++];
    for (uint32_t k = 0; k < m->hcnt[u]; k++) {
      uint32_t v = m->hnx[m->hoff[u] + k];
      if (v != PF_EJECT && --m->indeg[v] == 0)
        m->order[no++] = v;
    }
  }
  if (no != m->ninv) {
    snprintf(m->sol->error, sizeof m->sol->error,
             "the LFTs toward LID %u (%s) loop: %u switch(es) forward in a "
             "cycle",
             d->lid, fl_fabric_node_name(m->net->f, d->node), m->ninv - no);
    return 1;
  }
  return 0;
}

/* Lowest saturation level from each involved switch to the destination. */
static void min_levels(mm *m) {
  const double *lv = m->sol->level;
  for (uint32_t i = m->ninv; i-- > 0;) {
    uint32_t u = m->order[i];
    double best = INFINITY;
    for (uint32_t k = 0; k < m->hcnt[u]; k++) {
      if (m->hfr[m->hoff[u] + k] <= 0)
        continue; /* AR sends nothing there: no bound on these flows */
      uint32_t dl = m->hdl[m->hoff[u] + k], v = m->hnx[m->hoff[u] + k];
      double x = lv[dl];
      if (v != PF_EJECT && m->minlvl[v] < x)
        x = m->minlvl[v];
      if (x < best)
        best = x;
    }
    m->minlvl[u] = best;
  }
}

/* One destination in one round; the step time is kept from frozen flows
 * (final once no flow is unfrozen). Returns 0, 1 (routing error set) or -1 (no
 * memory). */
static int destination(mm *m, uint32_t d, int *any_unfrozen) {
  size_t nc = pf_classes_for(m->fl, d, m->cbuf, m->cap_c);
  if (nc == 0)
    return 0;
  const pf_nic *dn = &m->nic[d];
  int rc = expand(m, dn, m->cbuf, nc);
  if (rc)
    return rc;
  min_levels(m);
  double *lv = m->sol->level;
  for (size_t i = 0; i < nc; i++) {
    const pf_class *c = &m->cbuf[i];
    const pf_group *g = &m->fl->groups[c->group];
    double x =
        lv[g->inj_dl] < m->minlvl[g->sw] ? lv[g->inj_dl] : m->minlvl[g->sw];
    m->gC[c->group] += c->count;
    m->cW[g->sw] += c->count;
    if (isfinite(x)) {
      m->gF[c->group] += c->count * x;
      m->F[g->sw] += c->count * x;
      double t = c->bytes * 8.0 / (x * 1e9);
      if (t > m->sol->step_time_s)
        m->sol->step_time_s = t;
      if (x < m->sol->slow_level)
        m->sol->slow_level = x;
      if (c->tag < m->sol->ntags && x < m->sol->tag_level[c->tag])
        m->sol->tag_level[c->tag] = x;
    } else {
      m->gW[c->group] += c->count;
      m->W[g->sw] += c->count;
      *any_unfrozen = 1;
    }
  }
  for (uint32_t i = 0; i < m->ninv; i++) {
    uint32_t u = m->order[i];
    for (uint32_t k = 0; k < m->hcnt[u]; k++) {
      uint32_t dl = m->hdl[m->hoff[u] + k], v = m->hnx[m->hoff[u] + k];
      double frac = m->hfr[m->hoff[u] + k];
      m->fz[dl] += m->F[u] * frac;
      m->w[dl] += m->W[u] * frac;
      m->cnt[dl] += m->cW[u] * frac;
      if (v != PF_EJECT) {
        m->F[v] += m->F[u] * frac;
        m->W[v] += m->W[u] * frac;
        m->cW[v] += m->cW[u] * frac;
      }
    }
  }
  return 0;
}

/* Saturate the links with the smallest fair share. Returns 0, or 1 when a
 * loaded link has no known capacity (error set). */
static int saturate(mm *m) {
  const pf_net *n = m->net;
  double x = INFINITY;
  for (uint32_t dl = 0; dl < n->ndl; dl++) {
    if (m->w[dl] <= 1e-12)
      continue;
    if (isnan(n->cap[dl])) {
      fl_id l = dl / 2;
      snprintf(
          m->sol->error, sizeof m->sol->error,
          "the cable %s port %u - %s port %u carries flows but has no "
          "known width and speed",
          fl_fabric_node_name(
              n->f, fl_fabric_port_node(n->f, fl_fabric_link_port(n->f, l, 0))),
          fl_fabric_port_num(n->f, fl_fabric_link_port(n->f, l, 0)),
          fl_fabric_node_name(
              n->f, fl_fabric_port_node(n->f, fl_fabric_link_port(n->f, l, 1))),
          fl_fabric_port_num(n->f, fl_fabric_link_port(n->f, l, 1)));
      return 1;
    }
    double rest = n->cap[dl] - m->fz[dl];
    double s = (rest > 0 ? rest : 0) / m->w[dl];
    if (s < x)
      x = s;
  }
  for (uint32_t dl = 0; dl < n->ndl; dl++) {
    if (m->w[dl] <= 1e-12 || !isinf(m->sol->level[dl]))
      continue;
    double rest = n->cap[dl] - m->fz[dl];
    double s = (rest > 0 ? rest : 0) / m->w[dl];
    if (s <= x * (1 + 1e-9) + 1e-15)
      m->sol->level[dl] = x;
  }
  return 0;
}

static void mm_free(mm *m) {
  pf_router_free(&m->rt);
  free(m->fz), free(m->w), free(m->cnt), free(m->stamp), free(m->hoff);
  free(m->gC), free(m->gW), free(m->gF);
  free(m->hcnt), free(m->indeg), free(m->W), free(m->F), free(m->cW);
  free(m->minlvl), free(m->inv), free(m->order), free(m->stack);
  free(m->hdl), free(m->hnx), free(m->hfr), free(m->cbuf);
}

static int mm_init(mm *m, const pf_net *net, uint32_t mode, fl_error *err) {
  size_t ns = net->nsw ? net->nsw : 1, nd = net->ndl ? net->ndl : 1;
  m->fz = calloc(nd, sizeof *m->fz);
  m->w = calloc(nd, sizeof *m->w);
  m->cnt = calloc(nd, sizeof *m->cnt);
  size_t ng = m->fl->ng ? m->fl->ng : 1;
  m->gC = calloc(ng, sizeof *m->gC);
  m->gW = calloc(ng, sizeof *m->gW);
  m->gF = calloc(ng, sizeof *m->gF);
  m->stamp = calloc(ns, sizeof *m->stamp);
  m->hoff = malloc(ns * sizeof *m->hoff);
  m->hcnt = malloc(ns * sizeof *m->hcnt);
  m->indeg = malloc(ns * sizeof *m->indeg);
  m->W = malloc(ns * sizeof *m->W);
  m->F = malloc(ns * sizeof *m->F);
  m->cW = malloc(ns * sizeof *m->cW);
  m->minlvl = malloc(ns * sizeof *m->minlvl);
  m->inv = malloc(ns * sizeof *m->inv);
  m->order = malloc(ns * sizeof *m->order);
  m->stack = malloc(ns * sizeof *m->stack);
  m->cap_c = pf_classes_cap(m->fl);
  m->cbuf = malloc((m->cap_c ? m->cap_c : 1) * sizeof *m->cbuf);
  if (!m->fz || !m->w || !m->cnt || !m->gC || !m->gW || !m->gF || !m->stamp ||
      !m->hoff || !m->hcnt || !m->indeg || !m->W || !m->F || !m->cW ||
      !m->minlvl || !m->inv || !m->order || !m->stack || !m->cbuf)
    return FL_ENOMEM;
  if (pf_router_init(&m->rt, net, mode) != FL_OK)
    return FL_ENOMEM;
  return pf_router_balance(&m->rt, m->nic, m->fl, err);
}

int pf_maxmin(const pf_net *net, const pf_nic *nic, const pf_flows *fl,
              uint32_t mode, pf_solution *sol, fl_error *err) {
  return pf_maxmin_tagged(net, nic, fl, mode, 0, sol, err);
}

int pf_maxmin_tagged(const pf_net *net, const pf_nic *nic, const pf_flows *fl,
                     uint32_t mode, uint32_t ntags, pf_solution *sol,
                     fl_error *err) {
  memset(sol, 0, sizeof *sol);
  sol->slow_level = INFINITY;
  mm m = {.net = net, .nic = nic, .fl = fl, .sol = sol};
  size_t nd = net->ndl ? net->ndl : 1;
  sol->level = malloc(nd * sizeof *sol->level);
  sol->weight = calloc(nd, sizeof *sol->weight);
  sol->ntags = ntags;
  sol->tag_level = ntags ? malloc(ntags * sizeof *sol->tag_level) : NULL;
  if (!sol->level || !sol->weight || (ntags && !sol->tag_level)) {
    mm_free(&m);
    return fl_error_set(err, FL_ENOMEM, NULL, 0, 0, "out of memory");
  }
  int irc = mm_init(&m, net, mode, err);
  if (irc != FL_OK) {
    mm_free(&m);
    return irc == FL_ENOMEM
               ? fl_error_set(err, FL_ENOMEM, NULL, 0, 0, "out of memory")
               : irc;
  }
  pf_solution_ar(sol, &m.rt);
  for (size_t i = 0; i < nd; i++)
    sol->level[i] = INFINITY;
  int rc = 0;
  for (;;) {
    memset(m.fz, 0, nd * sizeof *m.fz);
    memset(m.w, 0, nd * sizeof *m.w);
    memset(m.cnt, 0, nd * sizeof *m.cnt);
    size_t ng = fl->ng ? fl->ng : 1;
    memset(m.gC, 0, ng * sizeof *m.gC);
    memset(m.gW, 0, ng * sizeof *m.gW);
    memset(m.gF, 0, ng * sizeof *m.gF);
    int any = 0;
    sol->rounds++;
    sol->step_time_s = 0;
    sol->slow_level = INFINITY;
    for (uint32_t t = 0; t < ntags; t++)
      sol->tag_level[t] = INFINITY;
    for (uint32_t d = 0; d < fl->nnic && rc == 0; d++)
      rc = destination(&m, d, &any);
    for (uint32_t g = 0; g < fl->ng && rc == 0; g++) {
      const pf_group *gr = &fl->groups[g];
      m.cnt[gr->inj_dl] += m.gC[g] / gr->m;
      m.w[gr->inj_dl] += m.gW[g] / gr->m;
      m.fz[gr->inj_dl] += m.gF[g] / gr->m;
    }
    if (rc || !any) /* no unfrozen flow: this round's times are final */
      break;
    rc = saturate(&m);
    if (rc)
      break;
  }
  if (rc < 0) {
    mm_free(&m);
    return fl_error_set(err, FL_ENOMEM, NULL, 0, 0, "out of memory");
  }
  memcpy(sol->weight, m.cnt, nd * sizeof *sol->weight);
  mm_free(&m);
  return FL_OK;
}

void pf_solution_free(pf_solution *sol) {
  free(sol->level), free(sol->weight), free(sol->tag_level);
  memset(sol, 0, sizeof *sol);
}
