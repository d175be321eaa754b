/* SPDX-License-Identifier: MIT */
/*
 * core/analysis/pfc.c — lossless-Ethernet (PFC) buffer dependencies of the
 * ECMP routing a Clos runs, their valleys and cycles, and what each single
 * link failure does to them (fabriclint/pfc.h says what and why).
 *
 * How:
 *  1. The switch graph: switches, and the links between two switches, as a
 *     CSR adjacency. A channel (an ingress buffer) is one direction of such
 *     a link: 2*link from its end A to end B, 2*link+1 back.
 *     Destinations: the switches with hosts; with none, the edge switches
 *     of each component (edge_switches()).
 *  2. Per destination switch d, one BFS over the switch graph gives the
 *     hop distance of every switch; switch s forwards toward d over every
 *     neighbour one hop closer (ECMP over shortest paths), and receives
 *     toward d from every neighbour one hop farther. Each such pair is a
 *     turn u->s->v: a dependency of channel u->s on channel s->v.
 *  3. A turn is a valley when u and v are both above s (a higher tier). A
 *     path without valleys goes up then down, so when no turn is a valley
 *     and every switch link joins two tiers, the graph has no cycle and the
 *     turns need not be enumerated: O(D x (S + L)). Otherwise every turn of
 *     every destination is collected (hashed, deduplicated) and an
 *     iterative depth-first search finds one concrete cycle.
 *  4. A link failure changes the routes toward d only when, for d, one end
 *     of the link had it as its only next hop; only those destinations are
 *     searched again with the link masked. The distances of the healthy
 *     fabric are kept (D x S 16-bit values) for that test.
 *
 * The analysis reads the fabric only through the public accessors and
 * keeps all its state in one context: it is re-entrant.
 */
#include "fabriclint/pfc.h"

#include <stdlib.h>
#include <string.h>

#include "fabriclint/types.h"
#include "model/hashmap.h"

#define FAR UINT16_MAX

typedef struct adj {
  uint32_t sw;   /* neighbour switch index */
  fl_id link;    /* the link */
  uint32_t chan; /* channel from this switch to the neighbour */
} adj;

typedef struct pctx {
  const fl_fabric *f;
  uint32_t ns, nd;
  fl_id *sw_node;     /* switch index -> node */
  int32_t *sw_of;     /* node -> switch index, or -1 */
  uint32_t *tier;     /* per switch */
  uint32_t *off;      /* CSR offsets, ns + 1 */
  adj *a;             /* CSR entries */
  uint32_t *dest;     /* destination switch indexes */
  uint16_t *dist;     /* nd x ns healthy distances */
  uint16_t *tmp;      /* ns: distances with a link masked */
  uint32_t *queue;    /* ns */
  int flat;           /* a switch link joins two switches of one tier */
  int turn_budget_ok; /* the whole turn graph may be enumerated */
  uint64_t max_table; /* cap on nd x ns (fl_pfc_options.max_table) */
} pctx;

/* Turns enumerated per failure at most (destinations x sum of squared
 * switch degrees): past it, a failure's valleys are still found but the
 * cycle search after it is skipped (fl_pfc_failure.cycle = 2). */
#define TURN_BUDGET 50000000.0

/* Collected turns (deduplicated). */
typedef struct turns {
  fl_u64map seen; /* in_chan << 32 | out_chan -> index */
  fl_pfc_turn *t;
  uint32_t *in, *out; /* channels of each turn */
  size_t n, cap;
} turns;

static void turns_free(turns *T) {
  fl_u64map_free(&T->seen);
  free(T->t);
  free(T->in);
  free(T->out);
  memset(T, 0, sizeof *T);
}

/* Add turn (in channel @ci, out channel @co, @t); 1 when new, 0 when known,
 * -1 out of memory. */
static int turns_add(turns *T, uint32_t ci, uint32_t co, const fl_pfc_turn *t) {
  uint64_t key = (uint64_t)ci << 32 | co;
  uint32_t v = fl_u64map_put(&T->seen, key, (uint32_t)T->n);
  if (v == FL_MAP_ABSENT)
    return -1;
  if (v != T->n)
    return 0;
  if (T->n == T->cap) {
    size_t nc = T->cap ? T->cap * 2 : 256;
    fl_pfc_turn *nt = realloc(T->t, nc * sizeof *nt);
    if (nt)
      T->t = nt;
    uint32_t *ni = realloc(T->in, nc * sizeof *ni);
    if (ni)
      T->in = ni;
    uint32_t *no = realloc(T->out, nc * sizeof *no);
    if (no)
      T->out = no;
    if (!nt || !ni || !no)
      return -1;
    T->cap = nc;
  }
  T->t[T->n] = *t;
  T->in[T->n] = ci;
  T->out[T->n] = co;
  T->n++;
  return 1;
}

static void pctx_free(pctx *c) {
  free(c->sw_node);
  free(c->sw_of);
  free(c->tier);
  free(c->off);
  free(c->a);
  free(c->dest);
  free(c->dist);
  free(c->tmp);
  free(c->queue);
}

/* Lowest known tier of the switches of component @comp (@cmp per switch),
 * or FL_TIER_UNKNOWN. */
static uint32_t lowest_tier(const pctx *c, const uint32_t *cmp, uint32_t comp) {
  uint32_t lo = FL_TIER_UNKNOWN;
  for (uint32_t s = 0; s < c->ns; s++)
    if (cmp[s] == comp && c->tier[s] < lo)
      lo = c->tier[s];
  return lo;
}

/* Colour the switch-graph component of @root in two (@side 0/1, @cmp set to
 * @comp) by BFS; returns 1 when it is bipartite, and the sizes in @n. */
static int two_colour(const pctx *c, uint32_t root, uint32_t comp,
                      uint32_t *cmp, uint8_t *side, uint32_t n[2]) {
  uint32_t head = 0, tail = 0;
  int bip = 1;
  cmp[root] = comp;
  side[root] = 0;
  n[0] = 1;
  n[1] = 0;
  c->queue[tail++] = root;
  while (head < tail) {
    uint32_t s = c->queue[head++];
    for (uint32_t k = c->off[s]; k < c->off[s + 1]; k++) {
      uint32_t w = c->a[k].sw;
      if (cmp[w] == comp) {
        bip &= side[w] != side[s];
        continue;
      }
      cmp[w] = comp;
      side[w] = (uint8_t)!side[s];
      n[side[w]]++;
      c->queue[tail++] = w;
    }
  }
  return bip;
}

/* No switch has hosts: the traffic ends at the edge switches (leaves), never
 * at spines, which source or sink no lossless RDMA traffic. Per component of
 * the switch graph: the switches of the lowest known tier; without tiers,
 * when the component is bipartite (every 2-tier Clos is), the larger side
 * (leaves outnumber spines; a tie takes the side of the component's first
 * switch), whose switches are then ranked tier 1 and the others tier 2 so
 * valleys are seen; a component that is neither keeps every switch as a
 * destination (a ring, a mesh: nothing tells an edge). Marks @dest. */
static int edge_switches(pctx *c, uint8_t *dest) {
  uint32_t *cmp = malloc(((size_t)c->ns + 1) * sizeof *cmp);
  uint8_t *side = calloc((size_t)c->ns + 1, 1);
  c->queue =
      c->queue ? c->queue : malloc(((size_t)c->ns + 1) * sizeof *c->queue);
  if (!cmp || !side || !c->queue) {
    free(cmp);
    free(side);
    return -1;
  }
  for (uint32_t s = 0; s < c->ns; s++)
    cmp[s] = UINT32_MAX;
  for (uint32_t r = 0; r < c->ns; r++) {
    if (cmp[r] != UINT32_MAX)
      continue;
    uint32_t n[2];
    int bip = two_colour(c, r, r, cmp, side, n);
    uint32_t lo = lowest_tier(c, cmp, r);
    uint8_t leaf = n[1] > n[0];
    for (uint32_t s = r; s < c->ns; s++) {
      if (cmp[s] != r)
        continue;
      if (lo != FL_TIER_UNKNOWN)
        dest[s] = c->tier[s] == lo;
      else if (bip) {
        dest[s] = side[s] == leaf;
        c->tier[s] = dest[s] ? 1 : 2;
      } else
        dest[s] = 1;
    }
  }
  c->flat = 0;
  for (uint32_t s = 0; s < c->ns; s++)
    for (uint32_t k = c->off[s]; k < c->off[s + 1]; k++)
      c->flat |= c->tier[c->a[k].sw] == c->tier[s];
  free(cmp);
  free(side);
  return 0;
}

/* The switch graph and the destinations. */
static int build_graph(pctx *c) {
  const fl_fabric *f = c->f;
  uint32_t nn = fl_fabric_node_count(f), nl = fl_fabric_link_count(f);
  c->sw_of = malloc(((size_t)nn + 1) * sizeof *c->sw_of);
  c->sw_node = malloc(((size_t)nn + 1) * sizeof *c->sw_node);
  c->tier = malloc(((size_t)nn + 1) * sizeof *c->tier);
  c->off = calloc((size_t)nn + 2, sizeof *c->off);
  uint8_t *has_ca = calloc((size_t)nn + 1, 1);
  if (!c->sw_of || !c->sw_node || !c->tier || !c->off || !has_ca) {
    free(has_ca);
    return -1;
  }
  for (fl_id n = 0; n < nn; n++) {
    c->sw_of[n] = -1;
    if (fl_fabric_node_kind(f, n) == FL_NODE_SWITCH) {
      c->sw_of[n] = (int32_t)c->ns;
      c->tier[c->ns] = fl_fabric_node_tier(f, n);
      c->sw_node[c->ns++] = n;
    }
  }
  for (fl_id l = 0; l < nl; l++) {
    fl_id na = fl_fabric_port_node(f, fl_fabric_link_port(f, l, 0));
    fl_id nb = fl_fabric_port_node(f, fl_fabric_link_port(f, l, 1));
    int32_t sa = c->sw_of[na], sb = c->sw_of[nb];
    if (sa >= 0 && sb >= 0 && sa != sb) {
      c->off[sa + 1]++;
      c->off[sb + 1]++;
      if (c->tier[sa] == c->tier[sb])
        c->flat = 1;
    } else if (sa >= 0 && sb < 0) {
      has_ca[sa] |= fl_fabric_node_kind(f, nb) == FL_NODE_CA;
    } else if (sb >= 0 && sa < 0) {
      has_ca[sb] |= fl_fabric_node_kind(f, na) == FL_NODE_CA;
    }
  }
  for (uint32_t s = 0; s < c->ns; s++)
    c->off[s + 1] += c->off[s];
  c->a = malloc(((size_t)c->off[c->ns] + 1) * sizeof *c->a);
  uint32_t *fill = calloc((size_t)c->ns + 1, sizeof *fill);
  c->dest = malloc(((size_t)c->ns + 1) * sizeof *c->dest);
  if (!c->a || !fill || !c->dest) {
    free(fill);
    free(has_ca);
    return -1;
  }
  for (fl_id l = 0; l < nl; l++) {
    fl_id na = fl_fabric_port_node(f, fl_fabric_link_port(f, l, 0));
    fl_id nb = fl_fabric_port_node(f, fl_fabric_link_port(f, l, 1));
    int32_t sa = c->sw_of[na], sb = c->sw_of[nb];
    if (sa < 0 || sb < 0 || sa == sb)
      continue;
    c->a[c->off[sa] + fill[sa]++] = (adj){(uint32_t)sb, l, 2 * l};
    c->a[c->off[sb] + fill[sb]++] = (adj){(uint32_t)sa, l, 2 * l + 1};
  }
  free(fill);
  int any_ca = 0;
  for (uint32_t s = 0; s < c->ns; s++)
    any_ca |= has_ca[s];
  if (!any_ca && edge_switches(c, has_ca) != 0) {
    free(has_ca);
    return -1;
  }
  for (uint32_t s = 0; s < c->ns; s++)
    if (has_ca[s])
      c->dest[c->nd++] = s;
  free(has_ca);
  double sq = 0;
  for (uint32_t s = 0; s < c->ns; s++)
    sq += (double)(c->off[s + 1] - c->off[s]) * (c->off[s + 1] - c->off[s]);
  c->turn_budget_ok = sq * c->nd <= TURN_BUDGET;
  if ((uint64_t)c->nd * c->ns > c->max_table)
    return 1; /* too large for this analysis: nothing allocated for it */
  c->dist = malloc(((size_t)c->nd * c->ns + 1) * sizeof *c->dist);
  c->tmp = malloc(((size_t)c->ns + 1) * sizeof *c->tmp);
  if (!c->queue)
    c->queue = malloc(((size_t)c->ns + 1) * sizeof *c->queue);
  return c->dist && c->tmp && c->queue ? 0 : -1;
}

/* Hop distances of every switch to switch @d, link @masked left out. */
static void bfs(const pctx *c, uint32_t d, fl_id masked, uint16_t *dist) {
  for (uint32_t s = 0; s < c->ns; s++)
    dist[s] = FAR;
  uint32_t head = 0, tail = 0;
  dist[d] = 0;
  c->queue[tail++] = d;
  while (head < tail) {
    uint32_t s = c->queue[head++];
    for (uint32_t k = c->off[s]; k < c->off[s + 1]; k++) {
      const adj *e = &c->a[k];
      if (e->link == masked || dist[e->sw] != FAR || dist[s] + 1 >= FAR)
        continue;
      dist[e->sw] = (uint16_t)(dist[s] + 1);
      c->queue[tail++] = e->sw;
    }
  }
}

/* The turn u->s->v toward destination @d over adjacencies @in and @out of s
 * (@in is s's entry for u: its channel is s->u, so u->s is chan ^ 1). */
static fl_pfc_turn mk_turn(const pctx *c, uint32_t s, const adj *in,
                           const adj *out, uint32_t d) {
  fl_pfc_turn t = {c->sw_node[in->sw], c->sw_node[s], c->sw_node[out->sw],
                   in->link,           out->link,     c->sw_node[d]};
  return t;
}

/* Visit the turns of destination @d under @dist: every turn when @all,
 * else only valleys. Adds them to @T (when not NULL) and counts valleys
 * into @valleys. Returns 0 or -1 (out of memory). */
static int visit(const pctx *c, uint32_t d, fl_id masked, const uint16_t *dist,
                 int all, turns *T, turns *V) {
  for (uint32_t s = 0; s < c->ns; s++) {
    if (dist[s] == FAR || s == d)
      continue;
    int up_in = 0, up_out = 0;
    if (!all) {
      for (uint32_t k = c->off[s]; k < c->off[s + 1]; k++) {
        const adj *e = &c->a[k];
        if (e->link == masked || c->tier[e->sw] <= c->tier[s])
          continue;
        up_in |= dist[e->sw] != FAR && dist[e->sw] == dist[s] + 1;
        up_out |= dist[e->sw] + 1 == dist[s];
      }
      if (!up_in || !up_out)
        continue;
    }
    for (uint32_t i = c->off[s]; i < c->off[s + 1]; i++) {
      const adj *in = &c->a[i];
      if (in->link == masked || dist[in->sw] == FAR ||
          dist[in->sw] != dist[s] + 1)
        continue;
      for (uint32_t o = c->off[s]; o < c->off[s + 1]; o++) {
        const adj *out = &c->a[o];
        if (out->link == masked || dist[out->sw] + 1 != dist[s])
          continue;
        int valley =
            c->tier[in->sw] > c->tier[s] && c->tier[out->sw] > c->tier[s];
        if (!all && !valley)
          continue;
        fl_pfc_turn t = mk_turn(c, s, in, out, d);
        if (T && turns_add(T, in->chan ^ 1u, out->chan, &t) < 0)
          return -1;
        if (valley && V && turns_add(V, in->chan ^ 1u, out->chan, &t) < 0)
          return -1;
      }
    }
  }
  return 0;
}

/* One cycle of the turn graph @T into @out (malloc'd turns, *@len), or
 * *@len = 0 when acyclic. Iterative DFS over channels. */
static int find_cycle(const turns *T, uint32_t n_chan, fl_pfc_turn **out,
                      uint32_t *len) {
  *len = 0;
  *out = NULL;
  uint32_t *off = calloc((size_t)n_chan + 2, sizeof *off);
  uint32_t *idx = malloc((T->n + 1) * sizeof *idx);
  uint8_t *color = calloc((size_t)n_chan + 1, 1);
  uint32_t *via = malloc(((size_t)n_chan + 1) * sizeof *via); /* turn in */
  uint32_t *stack = malloc(((size_t)n_chan + 1) * sizeof *stack);
  uint32_t *pos = malloc(((size_t)n_chan + 1) * sizeof *pos);
  int rc = -1;
  if (!off || !idx || !color || !via || !stack || !pos)
    goto out;
  for (size_t i = 0; i < T->n; i++)
    off[T->in[i] + 1]++;
  for (uint32_t k = 0; k < n_chan; k++)
    off[k + 1] += off[k];
  memset(pos, 0, ((size_t)n_chan + 1) * sizeof *pos);
  for (size_t i = 0; i < T->n; i++)
    idx[off[T->in[i]] + pos[T->in[i]]++] = (uint32_t)i;
  for (uint32_t root = 0; root < n_chan && !*len; root++) {
    if (color[root] || off[root] == off[root + 1])
      continue;
    uint32_t sp = 0;
    stack[sp++] = root;
    pos[root] = off[root];
    color[root] = 1;
    while (sp && !*len) {
      uint32_t ch = stack[sp - 1];
      if (pos[ch] == off[ch + 1]) {
        color[ch] = 2;
        sp--;
        continue;
      }
      uint32_t ti = idx[pos[ch]++];
      uint32_t nx = T->out[ti];
      if (color[nx] == 0) {
        color[nx] = 1;
        via[nx] = ti;
        pos[nx] = off[nx];
        stack[sp++] = nx;
      } else if (color[nx] == 1) {
        /* back edge ch -> nx: the cycle is nx ... ch, then this turn */
        uint32_t k = sp;
        while (k && stack[k - 1] != nx)
          k--;
        uint32_t n = sp - k + 1;
        *out = malloc(n * sizeof **out);
        if (!*out)
          goto out;
        for (uint32_t j = k; j < sp; j++)
          (*out)[j - k] = T->t[via[stack[j]]];
        (*out)[n - 1] = T->t[ti];
        *len = n;
      }
    }
  }
  rc = 0;
out:
  free(off);
  free(idx);
  free(color);
  free(via);
  free(stack);
  free(pos);
  return rc;
}

/* Routes toward destination @i change when link @k (adjacency of switch
 * s toward u) fails: s forwarded toward the destination only over it. */
static int only_next_hop(const pctx *c, const uint16_t *dist, uint32_t s,
                         fl_id link) {
  uint32_t hops = 0, over = 0;
  for (uint32_t k = c->off[s]; k < c->off[s + 1]; k++) {
    const adj *e = &c->a[k];
    if (dist[e->sw] != FAR && dist[e->sw] + 1 == dist[s]) {
      hops++;
      over += e->link == link;
    }
  }
  return over && hops == over;
}

/* Valleys (and, when there are any, a cycle) after link @link fails. */
static int one_failure(pctx *c, fl_id link, uint32_t sa, uint32_t sb,
                       fl_pfc_failure *res) {
  turns V, T;
  memset(&V, 0, sizeof V);
  memset(&T, 0, sizeof T);
  memset(res, 0, sizeof *res);
  res->link = link;
  int rc = -1;
  for (uint32_t i = 0; i < c->nd; i++) {
    const uint16_t *h = c->dist + (size_t)i * c->ns;
    if (!only_next_hop(c, h, sa, link) && !only_next_hop(c, h, sb, link))
      continue;
    bfs(c, c->dest[i], link, c->tmp);
    if (visit(c, c->dest[i], link, c->tmp, 0, NULL, &V) != 0)
      goto out;
  }
  res->n_valleys = (uint32_t)V.n;
  if (V.n)
    res->example = V.t[0];
  if (V.n && c->turn_budget_ok) {
    /* the whole dependency graph after the failure */
    for (uint32_t i = 0; i < c->nd; i++) {
      const uint16_t *h = c->dist + (size_t)i * c->ns;
      if (only_next_hop(c, h, sa, link) || only_next_hop(c, h, sb, link)) {
        bfs(c, c->dest[i], link, c->tmp);
        h = c->tmp;
      }
      if (visit(c, c->dest[i], link, h, 1, &T, NULL) != 0)
        goto out;
    }
    fl_pfc_turn *cyc = NULL;
    uint32_t len = 0;
    if (find_cycle(&T, 2 * fl_fabric_link_count(c->f), &cyc, &len) != 0)
      goto out;
    free(cyc);
    res->cycle = len > 0;
  } else if (V.n) {
    res->cycle = 2; /* not searched: the turn graph is over budget */
  }
  rc = 0;
out:
  turns_free(&V);
  turns_free(&T);
  return rc;
}

static int failures(pctx *c, const fl_pfc_options *o, fl_pfc_report *r) {
  for (uint32_t s = 0; s < c->ns; s++)
    for (uint32_t k = c->off[s]; k < c->off[s + 1]; k++)
      r->failures_total += c->a[k].chan % 2 == 0; /* each link once */
  size_t cap = 0;
  for (uint32_t s = 0; s < c->ns; s++)
    for (uint32_t k = c->off[s]; k < c->off[s + 1]; k++) {
      const adj *e = &c->a[k];
      if (e->chan % 2 != 0)
        continue;
      if (o->max_failures && r->failures_checked >= o->max_failures)
        return 0;
      r->failures_checked++;
      fl_pfc_failure res;
      if (one_failure(c, e->link, s, e->sw, &res) != 0)
        return -1;
      if (!res.n_valleys)
        continue;
      if (r->n_failures == cap) {
        cap = cap ? cap * 2 : 16;
        fl_pfc_failure *nf = realloc(r->failures, cap * sizeof *nf);
        if (!nf)
          return -1;
        r->failures = nf;
      }
      r->failures[r->n_failures++] = res;
    }
  return 0;
}

static int cmp_failure(const void *x, const void *y) {
  const fl_pfc_failure *a = x, *b = y;
  return a->link < b->link ? -1 : a->link > b->link;
}

static int healthy(pctx *c, const fl_pfc_options *o, fl_pfc_report *r) {
  turns V, T;
  memset(&V, 0, sizeof V);
  memset(&T, 0, sizeof T);
  int rc = -1;
  for (uint32_t i = 0; i < c->nd; i++) {
    uint16_t *h = c->dist + (size_t)i * c->ns;
    bfs(c, c->dest[i], FL_NONE, h);
    if (visit(c, c->dest[i], FL_NONE, h, 0, NULL, &V) != 0)
      goto out;
  }
  r->n_valleys = (uint32_t)V.n;
  uint32_t keep = o->max_examples ? o->max_examples : 20;
  r->n_valleys_kept = r->n_valleys < keep ? r->n_valleys : keep;
  if (r->n_valleys_kept) {
    r->valleys = malloc(r->n_valleys_kept * sizeof *r->valleys);
    if (!r->valleys)
      goto out;
    memcpy(r->valleys, V.t, r->n_valleys_kept * sizeof *r->valleys);
  }
  if (V.n || c->flat) {
    for (uint32_t i = 0; i < c->nd; i++)
      if (visit(c, c->dest[i], FL_NONE, c->dist + (size_t)i * c->ns, 1, &T,
                NULL) != 0)
        goto out;
    r->n_deps = T.n;
    if (find_cycle(&T, 2 * fl_fabric_link_count(c->f), &r->cycle,
                   &r->cycle_len) != 0)
      goto out;
  }
  rc = 0;
out:
  turns_free(&V);
  turns_free(&T);
  return rc;
}

int fl_pfc_analyze(const fl_fabric *f, const fl_pfc_options *opts,
                   fl_pfc_report **out) {
  if (!f || !out)
    return FL_EINVAL;
  *out = NULL;
  fl_pfc_options o = {sizeof o, 0, 0, 0, 0};
  if (opts)
    memcpy(&o, opts,
           opts->struct_size && opts->struct_size < sizeof o ? opts->struct_size
                                                             : sizeof o);
  fl_pfc_report *r = calloc(1, sizeof *r);
  pctx c;
  memset(&c, 0, sizeof c);
  c.f = f;
  c.max_table = o.max_table ? o.max_table : FL_PFC_MAX_TABLE;
  if (!r)
    return FL_ENOMEM;
  r->struct_size = sizeof *r;
  int bg = build_graph(&c);
  if (bg == 1) { /* past FL_PFC_MAX_TABLE: the sizes, and nothing else */
    r->n_switches = c.ns;
    r->n_dests = c.nd;
    pctx_free(&c);
    *out = r;
    return FL_PFC_TOO_LARGE;
  }
  if (bg != 0 || healthy(&c, &o, r) != 0 ||
      (o.failures && failures(&c, &o, r) != 0)) {
    pctx_free(&c);
    fl_pfc_report_free(r);
    return FL_ENOMEM;
  }
  r->n_switches = c.ns;
  r->n_dests = c.nd;
  r->n_channels = c.off[c.ns];
  if (r->n_failures)
    qsort(r->failures, r->n_failures, sizeof *r->failures, cmp_failure);
  pctx_free(&c);
  *out = r;
  return 0;
}

void fl_pfc_report_free(fl_pfc_report *r) {
  if (!r)
    return;
  free(r->valleys);
  free(r->cycle);
  free(r->failures);
  free(r);
}
