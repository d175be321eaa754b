/* SPDX-License-Identifier: MIT */
/*
 * core/analysis/perf_ar.c — load-aware adaptive routing: how each switch
 * splits the flows of one step toward a destination switch over its
 * minimal next hops, iterated to a fixed point (issue 35, item 4).
 *
 * InfiniBand adaptive routing (NVIDIA AR; IBTA leaves the choice to the
 * switch) sends each packet (or flowlet) of an AR-enabled SL to the least
 * loaded output port of the port group allowed for its destination, judged
 * by the switch's own queues. A flow model has no queues; what stands for
 * a port's load is the flows it carries per Gb/s of its capacity. So at
 * switch s, the W flows arriving toward destination switch S are split
 * over the allowed ports (the minimal next hops, as `spray` routing takes
 * them) by water-filling: each port j already carries L_j flows of other
 * destinations and has capacity c_j; the split x_j = max(0, λ c_j − L_j)
 * with Σ x_j = W evens out (L_j + x_j) / c_j over the ports it uses, and
 * keeps the lowest-loaded ones out of a port already above that level.
 * A 1x uplink among 4x ones (c_j a quarter of the others') gets a quarter
 * of their share, where an equal split (spray) gave it as much as each.
 *
 * A port's queue also fills when a link further on is congested (credit
 * back-pressure), so each port is bounded too by the links beyond it: the
 * most loaded one per Gb/s and the narrowest one per share of the port's
 * flows that reach it (an empty 1x link binds as soon as flows come to
 * it); each is one more line λ c − l of the port, and the water-filling
 * takes the least of a port's lines.
 *
 * The fixed point: the splits of every destination switch depend on the
 * others' loads, so they are recomputed in sweeps (Gauss–Seidel: one
 * destination switch at a time, its own previous flows taken off the
 * loads first, the switches of its minimal-path DAG in decreasing distance
 * so each knows what arrives before it splits; from the second sweep a
 * switch's change is put at once on the links beyond it, and each switch
 * moves only part of the way, the damping) until no edge's flows are more
 * than PF_AR_TOL of the largest demand from their switch's best response,
 * at most PF_AR_MAX_SWEEPS sweeps (then `converged` is 0 and the last
 * sweep's splits are used; the output says so). On a symmetric healthy tree
 * every port of a group has the same load and capacity and the first sweep
 * already gives the equal split.
 *
 * Cost per sweep: O(destination switches × (switches + switch-to-switch
 * edges) + water-filling sorts); memory: a row of flows per edge and of
 * demands per switch for each destination switch with flows, at most
 * PF_AR_MAX_ENTRIES values in all (docs/perf.md).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/perf_impl.h"

static size_t pf_ar_cap(const pf_net *n) {
  return n->ar_max_entries ? n->ar_max_entries : PF_AR_MAX_ENTRIES;
}

/* Demand of each source switch toward each destination switch: two passes
 * over the destinations (rows, then counts). Returns 0, -1 (no memory) or
 * 1 (over the cap, *@need set). */
static int demands(pf_arsplit *a, const pf_net *n, const pf_nic *nic,
                   const pf_flows *fl, size_t *need) {
  size_t cap = pf_classes_cap(fl);
  pf_class *buf = malloc((cap ? cap : 1) * sizeof *buf);
  if (!buf)
    return -1;
  for (uint32_t d = 0; d < fl->nnic; d++) {
    uint32_t S = nic[d].sw;
    if (S == PF_NONE || a->row_of[S] != PF_NONE)
      continue;
    size_t nc = pf_classes_for(fl, d, buf, cap);
    for (size_t i = 0; i < nc; i++)
      if (fl->groups[buf[i].group].sw != S && buf[i].count > 0) {
        a->row_of[S] = a->nrow++;
        break;
      }
  }
  size_t nadj = n->adj_off[n->nsw];
  *need = (size_t)a->nrow * (nadj + n->nsw);
  if (*need > pf_ar_cap(n)) {
    free(buf);
    return 1;
  }
  a->nadj = (uint32_t)nadj;
  a->x =
      calloc(a->nrow ? (size_t)a->nrow * (nadj ? nadj : 1) : 1, sizeof *a->x);
  a->dem = calloc(a->nrow ? (size_t)a->nrow * n->nsw : 1, sizeof *a->dem);
  if (!a->x || !a->dem) {
    free(buf);
    return -1;
  }
  for (uint32_t d = 0; d < fl->nnic; d++) {
    uint32_t S = nic[d].sw;
    if (S == PF_NONE || a->row_of[S] == PF_NONE)
      continue;
    double *dem = a->dem + (size_t)a->row_of[S] * n->nsw;
    size_t nc = pf_classes_for(fl, d, buf, cap);
    for (size_t i = 0; i < nc; i++) {
      uint32_t s = fl->groups[buf[i].group].sw;
      if (s != S)
        dem[s] += buf[i].count;
    }
  }
  free(buf);
  return 0;
}

/* Scratch of one balance: BFS distances and order, flows arriving at each
 * switch, the loads of every directed link, each switch's bottleneck
 * toward the destination switch (link, fraction of its flows crossing it),
 * one switch's allowed ports with their effective load and capacity. */
typedef struct ar_work {
  uint32_t *dist, *order;
  double *W, *L;
  double *P;     /* [ndl] estimates on links of switches yet to split */
  uint32_t *qdl; /* [nsw] bottleneck directed link, PF_NONE: none */
  double *qphi;  /* [nsw] share of the switch's flows crossing it */
  uint32_t *cdl; /* [nsw] the narrowest link beyond (least capacity per
                    share of the switch's flows), PF_NONE: none */
  double *cphi;  /* [nsw] its share */
  uint32_t pk[256];
  uint8_t nl[256];               /* lines of each port: 1 to 3 */
  double ll[256][3], lc[256][3]; /* their loads and capacities */
  double key[256 * 6];
} ar_work;

static int allowed(const pf_net *n, const ar_work *w, uint32_t s, uint32_t k) {
  return w->dist[n->adj_next[k]] + 1 == w->dist[s];
}

static double util(const pf_net *n, const ar_work *w, uint32_t dl) {
  double c = n->cap[dl];
  return c > 0 ? w->L[dl] / c : 0;
}

/* The bottleneck of every switch toward S, nearest first: over its allowed
 * ports (weighted by its current split, equal where it has no flows), the
 * most loaded link per Gb/s among each port's own link and the bottleneck
 * of the switch it leads to; the share of the switch's flows that cross
 * it. What a switch's output port feels of the links beyond it is their
 * credit back-pressure, and the worst of them is what holds its queue. */
static void bottlenecks(const pf_net *n, ar_work *w, const double *x,
                        uint32_t reach) {
  w->qdl[w->order[0]] = PF_NONE; /* S: its flows leave by NIC cables */
  w->qphi[w->order[0]] = 0;
  w->cdl[w->order[0]] = PF_NONE;
  w->cphi[w->order[0]] = 0;
  for (uint32_t i = 1; i < reach; i++) {
    uint32_t v = w->order[i], m = 0;
    double tot = 0;
    for (uint32_t k = n->adj_off[v]; k < n->adj_off[v + 1]; k++)
      if (allowed(n, w, v, k)) {
        tot += x[k];
        m++;
      }
    uint32_t best = PF_NONE, nar = PF_NONE;
    double bu = -1, bphi = 0, nc = INFINITY, nphi = 0;
    for (uint32_t k = n->adj_off[v]; k < n->adj_off[v + 1]; k++) {
      if (!allowed(n, w, v, k))
        continue;
      double f = tot > 0 ? x[k] / tot : 1.0 / m;
      if (tot > 0 && x[k] <= 0)
        continue;
      uint32_t nx = n->adj_next[k], dl = n->adj_dl[k];
      uint32_t cand = dl;
      double cphi = f;
      if (w->qdl[nx] != PF_NONE && util(n, w, w->qdl[nx]) > util(n, w, dl)) {
        cand = w->qdl[nx];
        cphi = f * w->qphi[nx];
      }
      double u = util(n, w, cand);
      if (u > bu) {
        bu = u, best = cand, bphi = cphi;
      } else if (u == bu && cand == best) {
        bphi += cphi; /* two ports meet at one link further on */
      }
      /* the narrowest: an empty link is no bottleneck by its load, but
       * a 1x one binds as soon as flows come to it */
      uint32_t nw = dl;
      double nf = f;
      if (w->cdl[nx] != PF_NONE &&
          n->cap[w->cdl[nx]] / (f * w->cphi[nx]) < n->cap[dl] / f) {
        nw = w->cdl[nx];
        nf = f * w->cphi[nx];
      }
      double c = n->cap[nw] / nf;
      if (c < nc) {
        nc = c, nar = nw, nphi = nf;
      } else if (nw == nar) {
        nphi += nf;
      }
    }
    w->qdl[v] = best;
    w->qphi[v] = bphi;
    w->cdl[v] = nar;
    w->cphi[v] = nphi;
  }
}

/* What port j takes at level λ: each of its lines (its own link, the
 * bottlenecks beyond it) allows λ c − l more flows; the least of them. */
static double take(const ar_work *w, uint32_t j, double lambda) {
  double v = INFINITY;
  for (uint32_t i = 0; i < w->nl[j]; i++) {
    double t = lambda * w->lc[j][i] - w->ll[j][i];
    if (t < v)
      v = t;
  }
  return v > 0 ? v : 0;
}

static double take_all(const ar_work *w, uint32_t m, double lambda) {
  double t = 0;
  for (uint32_t j = 0; j < m; j++)
    t += take(w, j, lambda);
  return t;
}

/* Water-filling of @W flows over the @m allowed ports of a switch (their
 * adjacency indexes in w->pk, the effective loads and capacities of the
 * lines that bound each, w->ll/lc: its own link and the links beyond it):
 * the level λ at which Σ take(j, λ) = W, found on the sorted breakpoints
 * of the piecewise-linear, nondecreasing sum (each line's zero and the
 * crossings of a port's lines) and interpolated within its segment. Ports
 * of unknown or zero capacity make it an equal split (no better guess).
 * Writes the flows into @x (indexed by adjacency index). */
static void water_fill(ar_work *w, uint32_t m, double W, double *x) {
  uint32_t nb = 0;
  for (uint32_t j = 0; j < m; j++) {
    for (uint32_t i = 0; i < w->nl[j]; i++)
      if (!(w->lc[j][i] > 0)) {
        for (uint32_t q = 0; q < m; q++)
          x[w->pk[q]] = W / m;
        return;
      }
    for (uint32_t i = 0; i < w->nl[j]; i++) {
      w->key[nb++] = w->ll[j][i] / w->lc[j][i];
      for (uint32_t q = i + 1; q < w->nl[j]; q++)
        if (w->lc[j][i] != w->lc[j][q]) {
          double c = (w->ll[j][i] - w->ll[j][q]) / (w->lc[j][i] - w->lc[j][q]);
          if (c > 0)
            w->key[nb++] = c;
        }
    }
  }
  for (uint32_t i = 1; i < nb; i++) { /* insertion sort: nb <= 3m, small */
    double k = w->key[i];
    uint32_t j = i;
    for (; j > 0 && w->key[j - 1] > k; j--)
      w->key[j] = w->key[j - 1];
    w->key[j] = k;
  }
  /* the first breakpoint where the sum reaches W, by bisection (the sum
   * is nondecreasing): O(m log m) evaluations instead of O(m^2) */
  uint32_t a = 0, b = nb; /* F(key[i]) < W for i < a; >= W from b on */
  while (a < b) {
    uint32_t mid = a + (b - a) / 2;
    if (take_all(w, m, w->key[mid]) >= W)
      b = mid;
    else
      a = mid + 1;
  }
  double lo = a ? w->key[a - 1] : 0, flo = take_all(w, m, lo), lambda;
  if (a < nb) { /* linear on [lo, key[a]] */
    double hi = w->key[a], fhi = take_all(w, m, hi);
    lambda = fhi > flo ? lo + (W - flo) * (hi - lo) / (fhi - flo) : hi;
  } else { /* past the last breakpoint the sum is linear */
    double slope = take_all(w, m, lo + 1) - flo;
    lambda = slope > 0 ? lo + (W - flo) / slope : lo;
  }
  double sum = 0;
  for (uint32_t j = 0; j < m; j++) {
    x[w->pk[j]] = take(w, j, lambda);
    sum += x[w->pk[j]];
  }
  /* rescale away the rounding, so the switch forwards exactly W */
  for (uint32_t j = 0; j < m; j++)
    x[w->pk[j]] = sum > 0 ? x[w->pk[j]] * (W / sum) : W / m;
}

/* A line of port @m: link @b beyond it, reached by the share @phi of what
 * the port sends on, without the port's own @xk flows: load / phi,
 * capacity / phi. */
static void line(const pf_net *n, ar_work *w, uint32_t m, uint32_t b,
                 double phi, double xk) {
  if (b == PF_NONE || !(phi > 0))
    return;
  double lb = w->L[b] - phi * xk;
  uint32_t i = w->nl[m]++;
  w->ll[m][i] = (lb > 0 ? lb : 0) / phi;
  w->lc[m][i] = n->cap[b] / phi;
}

/* Switch @s's allowed ports toward S in w->pk with the lines that bound
 * them, without @s's own flows (@x): each port's own link, the most loaded
 * link beyond it (w->qdl) and the narrowest (w->cdl). Returns the port
 * count. */
static uint32_t ports(const pf_net *n, ar_work *w, const double *x,
                      uint32_t s) {
  uint32_t m = 0;
  for (uint32_t k = n->adj_off[s]; k < n->adj_off[s + 1] && m < 256; k++) {
    if (!allowed(n, w, s, k))
      continue;
    uint32_t dl = n->adj_dl[k], nx = n->adj_next[k];
    double le = w->L[dl] - x[k];
    w->pk[m] = k;
    w->nl[m] = 1;
    w->ll[m][0] = le > 0 ? le : 0;
    w->lc[m][0] = n->cap[dl];
    if (w->qdl[nx] != dl)
      line(n, w, m, w->qdl[nx], w->qphi[nx], x[k]);
    if (w->cdl[nx] != dl && w->cdl[nx] != w->qdl[nx])
      line(n, w, m, w->cdl[nx], w->cphi[nx], x[k]);
    m++;
  }
  return m;
}

/* @d more flows on link @l beyond a port, at once: an estimate (w->P) the
 * switch that owns @l replaces by what it sends when it splits. */
static void estimate(ar_work *w, uint32_t l, double d) {
  w->L[l] += d;
  w->P[l] += d;
}

/* One destination switch's row: the bottlenecks from the current loads,
 * then the DAG walked from the farthest switch in, each switch's own
 * flows taken off, its arrivals water-filled over its allowed ports, the
 * new flows put on. Returns the largest change of an edge's flows. */
static double row_sweep(const pf_net *n, pf_arsplit *a, ar_work *w, uint32_t S,
                        double damp) {
  uint32_t row = a->row_of[S];
  double *x = a->x + (size_t)row * a->nadj;
  const double *dem = a->dem + (size_t)row * n->nsw;
  uint32_t reach = pf_net_bfs(n, S, w->dist, w->order);
  bottlenecks(n, w, x, reach);
  double moved = 0;
  for (uint32_t i = reach; i-- > 1;) { /* order[0] is S itself */
    uint32_t s = w->order[i];
    double W = w->W[s] + dem[s];
    /* the estimates switches farther out put on this switch's links are
     * replaced by what it now really sends */
    for (uint32_t k = n->adj_off[s]; k < n->adj_off[s + 1]; k++) {
      w->L[n->adj_dl[k]] -= w->P[n->adj_dl[k]];
      w->P[n->adj_dl[k]] = 0;
    }
    uint32_t m = ports(n, w, x, s);
    double old[256];
    uint32_t pk0[256];
    for (uint32_t j = 0; j < m; j++) {
      pk0[j] = w->pk[j];
      old[j] = x[pk0[j]];
      w->L[n->adj_dl[pk0[j]]] -= old[j];
    }
    double Wold = 0;
    for (uint32_t j = 0; j < m; j++)
      Wold += old[j];
    if (W > 0 && m > 0)
      water_fill(w, m, W, x);
    else
      for (uint32_t j = 0; j < m; j++)
        x[pk0[j]] = 0;
    if (damp > 0 && W > 0 && Wold > 0) { /* part way from the old split */
      double kept = 0;
      for (uint32_t j = 0; j < m; j++) {
        double v = (1 - damp) * x[pk0[j]] + damp * old[j] * (W / Wold);
        /* a port left decays by halves and would never reach 0 */
        x[pk0[j]] = v < 1e-9 * W ? 0 : v;
        kept += x[pk0[j]];
      }
      for (uint32_t j = 0; j < m; j++)
        x[pk0[j]] *= W / kept;
    }
    for (uint32_t j = 0; j < m; j++) {
      uint32_t k = pk0[j];
      double dx = fabs(x[k] - old[j]);
      if (dx > moved)
        moved = dx;
      w->L[n->adj_dl[k]] += x[k];
      w->W[n->adj_next[k]] += x[k];
      /* the bottleneck beyond the port sees the change at once (the
       * switches nearer S split later in this sweep): without it, every
       * switch of a level moved onto the same free link before any saw
       * the others do so, and the sweeps swung. Not in the first sweep,
       * which starts from nothing: a bottleneck picked among equal links
       * would make a symmetric fabric's split lopsided. */
      uint32_t nx = n->adj_next[k], b = w->qdl[nx], c = w->cdl[nx];
      if (damp > 0 && b != PF_NONE && b != n->adj_dl[k])
        estimate(w, b, w->qphi[nx] * (x[k] - old[j]));
      if (damp > 0 && c != PF_NONE && c != n->adj_dl[k] && c != b)
        estimate(w, c, w->cphi[nx] * (x[k] - old[j]));
    }
    w->W[s] = 0;
  }
  w->W[S] = 0;
  return moved;
}

int pf_ar_balance(pf_arsplit *a, const pf_net *n, const pf_nic *nic,
                  const pf_flows *fl, fl_error *err) {
  memset(a, 0, sizeof *a);
  ar_work w = {0};
  size_t ns = n->nsw ? n->nsw : 1;
  a->row_of = malloc(ns * sizeof *a->row_of);
  w.dist = malloc(ns * sizeof *w.dist);
  w.order = malloc(ns * sizeof *w.order);
  w.W = calloc(ns, sizeof *w.W);
  w.L = calloc(n->ndl ? n->ndl : 1, sizeof *w.L);
  w.P = calloc(n->ndl ? n->ndl : 1, sizeof *w.P);
  w.qdl = malloc(ns * sizeof *w.qdl);
  w.qphi = malloc(ns * sizeof *w.qphi);
  w.cdl = malloc(ns * sizeof *w.cdl);
  w.cphi = malloc(ns * sizeof *w.cphi);
  int rc = !a->row_of || !w.dist || !w.order || !w.W || !w.L || !w.P ||
                   !w.qdl || !w.cdl || !w.cphi || !w.qphi
               ? -1
               : 0;
  size_t need = 0;
  if (rc == 0) {
    memset(a->row_of, 0xff, ns * sizeof *a->row_of);
    rc = demands(a, n, nic, fl, &need);
  }
  double scale = 0;
  for (size_t i = 0; rc == 0 && i < (size_t)a->nrow * n->nsw; i++)
    if (a->dem[i] > scale)
      scale = a->dem[i];
  /* Each switch moves part of the way to its new split (the damping): half
   * at first; more carefully (halving what is left) after a sweep whose
   * gap grew (the splits swing), a little less carefully (down to 0.3) after
   * one whose gap shrank. Measured on 300 random 3-tier trees with 1 to 6
   * degraded spine and core cables (tests/unit/test_perf_ar.c keeps some):
   * constant damping left up to 20 % of them swinging after 200 sweeps;
   * this rule, all but 2 settled, median 30-50 sweeps. */
  double damp = 0.5, last = INFINITY;
  while (rc == 0 && a->nrow && a->sweeps < PF_AR_MAX_SWEEPS) {
    double moved = 0, used = a->sweeps ? damp : 0;
    for (uint32_t S = 0; S < n->nsw; S++)
      if (a->row_of[S] != PF_NONE) {
        double m = row_sweep(n, a, &w, S, used);
        if (m > moved)
          moved = m;
      }
    a->sweeps++;
    /* how far the splits are from their best responses: the move over the
     * part of the way each switch goes */
    double gap = scale > 0 ? moved / scale / (1 - used) : 0;
    a->residual = gap;
    if (a->sweeps > 1) {
      if (gap > last)
        damp += (1 - damp) / 2; /* swinging: smaller steps */
      else if (damp - 0.05 >= 0.3)
        damp -= 0.05; /* settling: larger ones */
    }
    last = gap;
    if (a->residual <= PF_AR_TOL) {
      a->converged = 1;
      break;
    }
  }
  if (rc == 0 && a->nrow == 0)
    a->converged = 1;
  free(w.dist), free(w.order), free(w.W), free(w.L), free(w.P), free(w.qdl),
      free(w.cdl), free(w.cphi), free(w.qphi);
  a->need = need;
  if (rc == 0)
    return FL_OK;
  pf_ar_free(a);
  a->need = need;
  if (rc > 0)
    return fl_error_set(err, FL_EINVAL, NULL, 0, 0,
                        "adaptive routing of this step needs %zu split "
                        "values (destination switches x (switches + "
                        "switch-to-switch ports)), more than the cap of %zu: "
                        "use --routing spray (an equal split) or lft",
                        need, pf_ar_cap(n));
  return fl_error_set(err, FL_ENOMEM, NULL, 0, 0, "out of memory");
}

void pf_ar_free(pf_arsplit *a) {
  free(a->row_of), free(a->x), free(a->dem);
  memset(a, 0, sizeof *a);
}

void pf_ar_fractions(const pf_arsplit *a, uint32_t S, const uint32_t *adj,
                     uint32_t k, double *frac) {
  uint32_t row = a && S < PF_NONE && a->row_of ? a->row_of[S] : PF_NONE;
  double sum = 0;
  if (row != PF_NONE)
    for (uint32_t j = 0; j < k; j++)
      sum += a->x[(size_t)row * a->nadj + adj[j]];
  for (uint32_t j = 0; j < k; j++)
    frac[j] = sum > 0 ? a->x[(size_t)row * a->nadj + adj[j]] / sum : 1.0 / k;
}
