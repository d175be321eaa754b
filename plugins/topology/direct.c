/* SPDX-License-Identifier: MIT */
/*
 * plugins/topology/direct.c — hosts cabled back to back (see direct.h).
 *
 * Small GPU clusters without a switch cable their hosts to each other: two
 * DGX Spark with one cable, three in a triangle, more in a ring, each host
 * with two ports (p0, p1). Collective libraries pair the NICs of two ranks
 * by index unless told otherwise (NCCL: NIC k of one rank with NIC k of the
 * other), and a ring is addressed as one subnet per cable. Two cabling
 * schemes are consistent:
 *   - equal indexes: every cable joins p0-p0 or p1-p1, so NICs paired by
 *     index always share a cable. A ring of an odd number of hosts cannot
 *     be cabled so (each host has one p0; p0-p0 cables would pair up the
 *     hosts);
 *   - a crossed ring: every cable joins p0 to p1, each host's p0 to the next
 *     host's p1; NICs must then be paired by subnet (NCCL:
 *     NCCL_IB_SUBNET_AWARE_ROUTING=1), which works for any ring.
 * A mix is neither: the cables joining different indexes carry no pair of
 * NICs of equal index, and the ring has no uniform direction. Case c09
 * (luxingcom/aicad-nccl-optimization#1: three Sparks, two cables p0-p0 and
 * p1-p1, one p1-p0, NCCL failing with ibv_modify_qp errors until the hosts
 * were recabled as a crossed ring) is the reproduction.
 *
 * The fix for hosts of two ports: swapping a host's two cables flips the
 * index at that host's end of both, so with x_h = 1 for a swapped host a
 * cable (u, v) ends up joining different indexes iff d ^ x_u ^ x_v, d its
 * kind now. For a target kind T every cable wants x_u ^ x_v = d ^ T: a
 * 2-colouring of the group's hosts, found by one BFS, or impossible. Of a
 * colouring and its complement the smaller set is the fewest hosts to swap.
 * In a ring the number of equal-index cables is always even (each host has
 * one p0 and one p1: p0 ends = 2 * (p0-p0 cables) + crossed cables = hosts =
 * p1 ends), so the crossed ring is always reachable; equal indexes are
 * reachable when the ring is even. The target with fewer swaps is proposed,
 * equal indexes on a tie (NICs paired by index then need no setting).
 *
 * Cost: O(nodes log nodes + links log links) (sorts of host names and of
 * back-to-back ports), memory O(nodes + links).
 */
#include "direct.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabriclint/json_buf.h"
#include "util/natcmp.h"
#include "util/unionfind.h"

#define MAX_NAMED 50 /* hosts named in one finding's node list */

/* ---- hosts ------------------------------------------------------------- */

/* A node's host: its system (from the description, a node-name map or the
 * design), else its own name (an LLDP chassis is one node). */
static const char *host_key(const fl_host_api *api, const fl_fabric *f,
                            fl_id n) {
  const char *s = api->node_system(f, n);
  return s && *s ? s : api->node_name(f, n);
}

typedef struct key_ord {
  const char *key;
  fl_id node;
} key_ord;

static int cmp_key_ord(const void *x, const void *y) {
  const key_ord *a = x, *b = y;
  int c = strcmp(a->key, b->key);
  return c ? c : (a->node < b->node ? -1 : a->node > b->node);
}

/* host[n] = index of n's host (nodes sharing a host key), for every node;
 * returns the number of hosts, or -1 when out of memory. */
static int64_t number_hosts(const fl_host_api *api, const fl_fabric *f,
                            uint32_t *host) {
  uint32_t nn = api->node_count(f);
  key_ord *v = malloc(((size_t)nn + 1) * sizeof *v);
  if (!v)
    return -1;
  for (fl_id n = 0; n < nn; n++)
    v[n] = (key_ord){host_key(api, f, n), n};
  qsort(v, nn, sizeof *v, cmp_key_ord);
  uint32_t h = 0;
  for (uint32_t i = 0; i < nn; i++) {
    if (i > 0 && strcmp(v[i].key, v[i - 1].key) != 0)
      h++;
    host[v[i].node] = h;
  }
  free(v);
  return nn ? (int64_t)h + 1 : 0;
}

int topo_host_components(const fl_host_api *api, const fl_fabric *f,
                         uint32_t *memb, uint32_t *n_comp) {
  uint32_t nn = api->node_count(f), nl = api->link_count(f);
  uint32_t *host = malloc(((size_t)nn + 1) * sizeof *host);
  uint32_t *par = NULL;
  int64_t nh = host ? number_hosts(api, f, host) : -1;
  if (nh >= 0)
    par = malloc(((size_t)nh + 1) * sizeof *par);
  if (!par) {
    free(host);
    return -1;
  }
  fl_uf_init(par, nh);
  for (fl_id l = 0; l < nl; l++)
    fl_uf_join(par, host[api->port_node(f, api->link_port(f, l, 0))],
               host[api->port_node(f, api->link_port(f, l, 1))]);
  /* dense component numbers in node order */
  uint32_t *num = malloc(((size_t)nh + 1) * sizeof *num), nc = 0;
  if (!num) {
    free(host), free(par);
    return -1;
  }
  memset(num, 0xff, ((size_t)nh + 1) * sizeof *num);
  for (fl_id n = 0; n < nn; n++) {
    uint32_t r = fl_uf_find(par, host[n]);
    if (num[r] == UINT32_MAX)
      num[r] = nc++;
    memb[n] = num[r];
  }
  *n_comp = nc;
  free(host), free(par), free(num);
  return 0;
}

/* ---- back-to-back ports and their indexes ------------------------------ */

/* One end of a back-to-back cable. */
typedef struct dend {
  uint32_t host;
  fl_id port;
  const char *name; /* the port's label, else the node's device or name */
  uint32_t num;     /* port number (orders unlabelled ports of one node) */
  uint32_t cable;   /* index into the cable list */
  uint32_t index;   /* rank among the host's back-to-back ports */
} dend;

static int cmp_dend(const void *x, const void *y) {
  const dend *a = x, *b = y;
  if (a->host != b->host)
    return a->host < b->host ? -1 : 1;
  int c = fl_natcmp(a->name, b->name); /* "p2" < "p10" */
  if (c)
    return c;
  if (a->num != b->num)
    return a->num < b->num ? -1 : 1;
  return a->port < b->port ? -1 : a->port > b->port;
}

typedef struct dcable {
  fl_id link;
  uint32_t end[2]; /* indexes into the sorted ends */
  uint32_t comp;   /* group (root host) */
} dcable;

typedef struct direct {
  uint32_t nh;    /* hosts */
  uint32_t *host; /* [nodes] node -> host */
  fl_id *hnode;   /* [hosts] a node of each host (its first) */
  dend *ends;     /* [2 * cables], sorted by host then natural name */
  dcable *cables;
  uint32_t nc;
  uint32_t *par;           /* [hosts] union-find over back-to-back cables */
  uint32_t *deg;           /* [hosts] back-to-back ports */
  uint32_t *adj_off, *adj; /* [hosts + 1], [2 * cables]: cable ids (CSR) */
} direct;

static void direct_free(direct *d) {
  free(d->host), free(d->hnode), free(d->ends), free(d->cables);
  free(d->par), free(d->deg), free(d->adj_off), free(d->adj);
  memset(d, 0, sizeof *d);
}

/* 1 when link @l joins CAs of two different hosts. */
/* 1 when node @n is typed CA by a capture that contradicts itself (an
 * opensm-subnet.lst record with a switch-ASIC device id, more than 2 ports
 * and one LID on all of them: core/io/subnet_lst.c; F10): not a host. */
static int kind_conflict(const fl_host_api *api, const fl_fabric *f, fl_id n) {
  const char *v = api->attr(f, FL_ENT_NODE, n, "kind-conflict");
  return v && strcmp(v, "switch-asic") == 0;
}

static int is_direct(const fl_host_api *api, const fl_fabric *f,
                     const uint32_t *host, fl_id l) {
  fl_id a = api->port_node(f, api->link_port(f, l, 0));
  fl_id b = api->port_node(f, api->link_port(f, l, 1));
  return api->node_kind(f, a) == FL_NODE_CA &&
         api->node_kind(f, b) == FL_NODE_CA && host[a] != host[b] &&
         !kind_conflict(api, f, a) && !kind_conflict(api, f, b);
}

/* Collect the back-to-back cables, their ends' indexes and groups. 0, or
 * -1 when out of memory. */
static int direct_build(const fl_host_api *api, const fl_fabric *f, direct *d) {
  memset(d, 0, sizeof *d);
  uint32_t nn = api->node_count(f), nl = api->link_count(f);
  d->host = malloc(((size_t)nn + 1) * sizeof *d->host);
  int64_t nh = d->host ? number_hosts(api, f, d->host) : -1;
  if (nh < 0)
    return -1;
  d->nh = (uint32_t)nh;
  uint32_t nc = 0;
  for (fl_id l = 0; l < nl; l++)
    nc += (uint32_t)is_direct(api, f, d->host, l);
  d->nc = nc;
  d->hnode = malloc(((size_t)d->nh + 1) * sizeof *d->hnode);
  d->ends = malloc(((size_t)nc * 2 + 1) * sizeof *d->ends);
  d->cables = malloc(((size_t)nc + 1) * sizeof *d->cables);
  d->par = malloc(((size_t)d->nh + 1) * sizeof *d->par);
  d->deg = calloc((size_t)d->nh + 1, sizeof *d->deg);
  d->adj_off = calloc((size_t)d->nh + 2, sizeof *d->adj_off);
  d->adj = malloc(((size_t)nc * 2 + 1) * sizeof *d->adj);
  if (!d->hnode || !d->ends || !d->cables || !d->par || !d->deg ||
      !d->adj_off || !d->adj)
    return -1;
  for (fl_id n = nn; n-- > 0;)
    d->hnode[d->host[n]] = n;
  fl_uf_init(d->par, d->nh);
  uint32_t c = 0;
  for (fl_id l = 0; l < nl; l++) {
    if (!is_direct(api, f, d->host, l))
      continue;
    d->cables[c].link = l;
    d->cables[c].end[0] = d->cables[c].end[1] = UINT32_MAX;
    for (uint32_t k = 0; k < 2; k++) {
      fl_id p = api->link_port(f, l, k), n = api->port_node(f, p);
      const char *lab = api->port_label(f, p), *dev = api->node_device(f, n);
      d->ends[2 * c + k] = (dend){d->host[n],
                                  p,
                                  lab && *lab   ? lab
                                  : dev && *dev ? dev
                                                : api->node_name(f, n),
                                  api->port_num(f, p),
                                  c,
                                  0};
      d->deg[d->host[n]]++;
    }
    fl_uf_join(d->par, d->ends[2 * c].host, d->ends[2 * c + 1].host);
    c++;
  }
  qsort(d->ends, (size_t)nc * 2, sizeof *d->ends, cmp_dend);
  for (uint32_t i = 0; i < nc * 2; i++) {
    dend *e = &d->ends[i];
    e->index =
        i > 0 && d->ends[i - 1].host == e->host ? d->ends[i - 1].index + 1 : 0;
    d->cables[e->cable].end[d->cables[e->cable].end[0] == UINT32_MAX ? 0 : 1] =
        i;
  }
  return 0;
}

/* ---- the finding ---------------------------------------------------------
 */

static const char *port_text(const fl_host_api *api, const fl_fabric *f,
                             fl_id p, char *buf, size_t size) {
  const char *lab = api->port_label(f, p);
  if (lab && *lab)
    snprintf(buf, size, "%s", lab);
  else
    snprintf(buf, size, "%s port %u", api->node_name(f, api->port_node(f, p)),
             api->port_num(f, p));
  return buf;
}

/* "spark-1 p0 (enp1s0f0np0) - spark-2 p0 (enp1s0f0np0)" into @buf. */
static void cable_text(const fl_host_api *api, const fl_fabric *f,
                       const direct *d, const dcable *c, char *buf,
                       size_t size) {
  char pa[160], pb[160];
  const dend *a = &d->ends[c->end[0]], *b = &d->ends[c->end[1]];
  snprintf(buf, size, "%s p%u (%s) - %s p%u (%s)",
           host_key(api, f, api->port_node(f, a->port)), a->index,
           port_text(api, f, a->port, pa, sizeof pa),
           host_key(api, f, api->port_node(f, b->port)), b->index,
           port_text(api, f, b->port, pb, sizeof pb));
}

/* The first of host @h's ends (ends are sorted by host): binary search. */
static uint32_t first_end(const direct *d, uint32_t h) {
  uint32_t lo = 0, hi = d->nc * 2;
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (d->ends[mid].host < h)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

static int differs(const direct *d, const dcable *c) {
  return d->ends[c->end[0]].index != d->ends[c->end[1]].index;
}

/* The fewest hosts of group @g to swap so that every cable joins equal
 * (@target 0) or different (1) indexes: 2-colouring by BFS over the
 * group's hosts (all of exactly two back-to-back ports). Sets swap[h] for
 * the chosen hosts and returns their number, or -1 when impossible. */
static int64_t fix_for(const direct *d, uint32_t g, int target, uint8_t *colour,
                       uint8_t *swap, uint32_t *queue) {
  uint32_t ones = 0, size = 0;
  memset(colour, 0xff, d->nh);
  for (uint32_t s = 0; s < d->nh; s++) {
    if (colour[s] != 0xff || d->deg[s] == 0 || fl_uf_find(d->par, s) != g)
      continue;
    uint32_t head = 0, tail = 0;
    colour[s] = 0;
    queue[tail++] = s;
    while (head < tail) {
      uint32_t u = queue[head++];
      size++;
      ones += colour[u];
      for (uint32_t k = d->adj_off[u]; k < d->adj_off[u + 1]; k++) {
        const dcable *c = &d->cables[d->adj[k]];
        uint32_t ha = d->ends[c->end[0]].host, hb = d->ends[c->end[1]].host;
        uint32_t v = ha == u ? hb : ha;
        uint8_t want = (uint8_t)(colour[u] ^ differs(d, c) ^ target);
        if (colour[v] == 0xff) {
          colour[v] = want;
          queue[tail++] = v;
        } else if (colour[v] != want) {
          return -1;
        }
      }
    }
  }
  uint8_t pick = ones * 2 <= size ? 1 : 0; /* the smaller side */
  uint32_t n = 0;
  for (uint32_t h = 0; h < d->nh; h++) {
    swap[h] = d->deg[h] && fl_uf_find(d->par, h) == g && colour[h] == pick;
    n += swap[h];
  }
  return n;
}

/* Adjacency (cables per host) for fix_for(). */
static void build_adj(direct *d) {
  for (uint32_t c = 0; c < d->nc; c++)
    for (uint32_t k = 0; k < 2; k++)
      d->adj_off[d->ends[d->cables[c].end[k]].host + 1]++;
  for (uint32_t h = 0; h < d->nh; h++)
    d->adj_off[h + 1] += d->adj_off[h];
  uint32_t *at = d->deg; /* reused as a cursor, then restored */
  for (uint32_t h = 0; h < d->nh; h++)
    at[h] = d->adj_off[h];
  for (uint32_t c = 0; c < d->nc; c++)
    for (uint32_t k = 0; k < 2; k++)
      d->adj[at[d->ends[d->cables[c].end[k]].host]++] = c;
  for (uint32_t h = 0; h < d->nh; h++)
    d->deg[h] = d->adj_off[h + 1] - d->adj_off[h];
}

typedef struct group_stats {
  uint32_t hosts, cables, equal, different, two_port;
} group_stats;

static void jb_cable(const fl_host_api *api, const fl_fabric *f,
                     const direct *d, const dcable *c, jbuf *ev) {
  jb_obj_open(ev);
  for (uint32_t k = 0; k < 2; k++) {
    const dend *e = &d->ends[c->end[k]];
    jb_key_str(ev, k ? "b" : "a", host_key(api, f, api->port_node(f, e->port)));
    const char *lab = api->port_label(f, e->port);
    jb_key_int(ev, k ? "b_port" : "a_port", api->port_num(f, e->port));
    jb_key_str(ev, k ? "b_label" : "a_label", lab ? lab : "");
    jb_key_int(ev, k ? "b_index" : "a_index", e->index);
  }
  jb_obj_close(ev);
}

/* Report group @g (its stats @st); @swap/@n_swap the fix (n_swap < 0:
 * none), @target its kind. */
static int report_group(const fl_host_api *api, fl_ctx *ctx, const direct *d,
                        uint32_t g, const group_stats *st, const uint8_t *swap,
                        int64_t n_swap, int target) {
  const fl_fabric *f = api->fabric(ctx);
  fl_id *nodes = malloc(((size_t)st->hosts + 1) * sizeof *nodes);
  fl_id *links = malloc(((size_t)st->cables + 1) * sizeof *links);
  fl_port_ref *ports = malloc(((size_t)st->cables * 2 + 1) * sizeof *ports);
  if (!nodes || !links || !ports) {
    free(nodes), free(links), free(ports);
    api->fail(ctx, "out of memory");
    return 1;
  }
  jbuf ev;
  jb_init(&ev);
  jb_obj_open(&ev);
  jb_key(&ev, "hosts");
  jb_arr_open(&ev);
  char hosts[400] = "", swaps[600] = "";
  size_t ho = 0, so = 0;
  uint32_t nn = 0, nl = 0, np = 0, named = 0;
  for (uint32_t h = 0; h < d->nh; h++) {
    if (!d->deg[h] || fl_uf_find(d->par, h) != g)
      continue;
    const char *name = host_key(api, f, d->hnode[h]);
    jb_str_item(&ev, name);
    if (nn < MAX_NAMED)
      nodes[nn++] = d->hnode[h];
    if (++named <= 6 && ho < sizeof hosts)
      ho += (size_t)snprintf(hosts + ho, sizeof hosts - ho, "%s%s",
                             ho ? ", " : "", name);
  }
  jb_arr_close(&ev);
  if (named > 6 && ho < sizeof hosts)
    snprintf(hosts + ho, sizeof hosts - ho, ", ...");
  /* the cables of each kind, and those the fix touches (else the
   * minority kind) located and named in the finding */
  char kinds[2][700] = {"", ""};
  size_t ko[2] = {0, 0};
  uint32_t shown[2] = {0, 0};
  int minority = st->different <= st->equal; /* 1: the different ones */
  for (int k = 0; k < 2; k++) {
    jb_key(&ev, k ? "different" : "equal");
    jb_arr_open(&ev);
    for (uint32_t c = 0; c < d->nc; c++) {
      const dcable *cb = &d->cables[c];
      if (cb->comp != g || differs(d, cb) != k)
        continue;
      jb_cable(api, f, d, cb, &ev);
      if (++shown[k] <= 3 && ko[k] < sizeof kinds[k]) {
        char t[400];
        cable_text(api, f, d, cb, t, sizeof t);
        ko[k] += (size_t)snprintf(kinds[k] + ko[k], sizeof kinds[k] - ko[k],
                                  "%s%s", ko[k] ? ", " : "", t);
      }
      const dend *a = &d->ends[cb->end[0]], *b = &d->ends[cb->end[1]];
      int touched =
          n_swap >= 0 ? swap[a->host] || swap[b->host] : k == minority;
      if (touched)
        links[nl++] = cb->link;
      if (n_swap >= 0) {
        for (const dend *e = a; e; e = e == a ? b : NULL)
          if (swap[e->host])
            ports[np++] = (fl_port_ref){api->port_node(f, e->port),
                                        api->port_num(f, e->port)};
      } else if (touched) {
        ports[np++] = (fl_port_ref){api->port_node(f, a->port),
                                    api->port_num(f, a->port)};
        ports[np++] = (fl_port_ref){api->port_node(f, b->port),
                                    api->port_num(f, b->port)};
      }
    }
    jb_arr_close(&ev);
    if (shown[k] > 3 && ko[k] < sizeof kinds[k])
      snprintf(kinds[k] + ko[k], sizeof kinds[k] - ko[k], ", ...");
  }
  jb_key_int(&ev, "equal_count", st->equal);
  jb_key_int(&ev, "different_count", st->different);
  jb_key(&ev, "fix");
  if (n_swap < 0) {
    jb_raw(&ev, "null", 4);
  } else {
    jb_obj_open(&ev);
    jb_key_str(&ev, "target", target ? "crossed-ring" : "equal-indexes");
    jb_key(&ev, "swap_at");
    jb_arr_open(&ev);
    uint32_t listed = 0;
    for (uint32_t h = 0; h < d->nh; h++) {
      if (!swap[h])
        continue;
      const char *name = host_key(api, f, d->hnode[h]);
      char p0[160] = "", p1[160] = "";
      fl_id pe[2] = {FL_NONE, FL_NONE};
      for (uint32_t i = first_end(d, h); i < d->nc * 2 && d->ends[i].host == h;
           i++) {
        port_text(api, f, d->ends[i].port, d->ends[i].index ? p1 : p0,
                  sizeof p0);
        pe[d->ends[i].index ? 1 : 0] = d->ends[i].port;
      }
      jb_obj_open(&ev);
      jb_key_str(&ev, "host", name);
      jb_key(&ev, "ports"); /* as the schema's evidence `ports`: objects */
      jb_arr_open(&ev);
      for (uint32_t k = 0; k < 2; k++) {
        if (pe[k] == FL_NONE)
          continue;
        const char *lab = api->port_label(f, pe[k]);
        jb_obj_open(&ev);
        jb_key_int(&ev, "port", api->port_num(f, pe[k]));
        jb_key_str(&ev, "label", lab ? lab : "");
        jb_obj_close(&ev);
      }
      jb_arr_close(&ev);
      jb_obj_close(&ev);
      if (++listed <= 4 && so < sizeof swaps)
        so += (size_t)snprintf(swaps + so, sizeof swaps - so, "%s%s (%s, %s)",
                               so ? "; " : "", name, p0, p1);
    }
    jb_arr_close(&ev);
    jb_obj_close(&ev);
    if (listed > 4 && so < sizeof swaps)
      snprintf(swaps + so, sizeof swaps - so, "; ...");
  }
  jb_obj_close(&ev);
  char fix[1100];
  if (n_swap < 0)
    snprintf(fix, sizeof fix,
             "recable them so that every cable joins equal indexes, or (a "
             "ring) each host's p0 to the next host's p1");
  else if (target)
    snprintf(fix, sizeof fix,
             "swap the two cables at %s: every cable then joins p0 to p1, a "
             "crossed ring (each host's p0 to the next host's p1; pair NICs by "
             "subnet, e.g. NCCL_IB_SUBNET_AWARE_ROUTING=1)%s",
             swaps,
             st->hosts % 2 && st->hosts == st->cables
                 ? "; a ring of an odd number of hosts cannot join equal "
                   "indexes on every cable"
                 : "");
  else
    snprintf(fix, sizeof fix,
             "swap the two cables at %s: every cable then joins equal indexes "
             "(NICs paired by index then meet on every cable)",
             swaps);
  char msg[3000];
  /* the return value is read so that gcc 12's -Wformat-truncation (Debug
   * builds) accepts a message cut at sizeof msg, as it always was */
  if (snprintf(
          msg, sizeof msg,
          "%u back-to-back cables among %u hosts (%s) mix port indexes: %u "
          "join equal indexes (%s) and %u join different ones (%s); NICs "
          "paired "
          "by index across hosts (NCCL's default) share no cable on the "
          "latter, and the ring has no uniform direction. Fix: %s",
          st->cables, st->hosts, hosts, st->equal, kinds[0], st->different,
          kinds[1], fix) < 0)
    msg[0] = '\0';
  int rc =
      fl_emit(api, ctx, 0, msg, nodes, nn, ports, np, links, nl, jb_str(&ev));
  jb_free(&ev);
  free(nodes), free(links), free(ports);
  return rc;
}

int topo_check_direct_port_index(const fl_host_api *api, fl_ctx *ctx,
                                 void *pd) {
  (void)pd;
  const fl_fabric *f = api->fabric(ctx);
  direct d;
  group_stats *st = NULL;
  uint8_t *colour = NULL, *swap = NULL, *best = NULL;
  uint32_t *queue = NULL;
  int rc = 0;
  if (direct_build(api, f, &d) != 0)
    goto oom;
  if (d.nc < 2) /* one cable cannot mix */
    goto done;
  build_adj(&d);
  st = calloc((size_t)d.nh + 1, sizeof *st);
  colour = malloc((size_t)d.nh + 1);
  swap = malloc((size_t)d.nh + 1);
  best = malloc((size_t)d.nh + 1);
  queue = malloc(((size_t)d.nh + 1) * sizeof *queue);
  if (!st || !colour || !swap || !best || !queue)
    goto oom;
  for (uint32_t c = 0; c < d.nc; c++) {
    dcable *cb = &d.cables[c];
    cb->comp = fl_uf_find(d.par, d.ends[cb->end[0]].host);
    st[cb->comp].cables++;
    if (differs(&d, cb))
      st[cb->comp].different++;
    else
      st[cb->comp].equal++;
  }
  for (uint32_t h = 0; h < d.nh; h++)
    if (d.deg[h]) {
      group_stats *s = &st[fl_uf_find(d.par, h)];
      s->hosts++;
      s->two_port += d.deg[h] == 2;
    }
  for (uint32_t g = 0; g < d.nh && !rc; g++) {
    const group_stats *s = &st[g];
    if (!s->equal || !s->different)
      continue;
    int64_t n_best = -1;
    int target = 1;
    if (s->two_port == s->hosts) {
      for (int t = 0; t < 2; t++) {
        int64_t n = fix_for(&d, g, t, colour, swap, queue);
        if (n >= 0 && (n_best < 0 || n < n_best)) {
          n_best = n;
          target = t;
          memcpy(best, swap, d.nh);
        }
      }
    }
    rc = report_group(api, ctx, &d, g, s, best, n_best, target);
  }
  goto done;
oom:
  api->fail(ctx, "out of memory");
  rc = 1;
done:
  free(st), free(colour), free(swap), free(best), free(queue);
  direct_free(&d);
  return rc;
}
