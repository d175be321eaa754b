/*
 * bench/cdg_scale.c — credit-loop analysis at data-centre scale.
 *
 * Builds a radix-K 3-tier fat tree with fl_gen_fat_tree (K=64: 65,536 CAs,
 * 5,120 switches, 196,608 cables), copies it into a fresh fabric together
 * with generated minimal routing (per destination leaf a BFS; at each switch
 * the LFT entry is the (DLID mod n)-th of its n minimal next-hop ports, i.e.
 * D-mod-k spreading), then times fl_cdg_analyze() alone.
 *
 * One InfiniBand subnet has 49,151 unicast LIDs (IBA 4.1.3), so at K=64 only
 * the first 44,031 CAs get a LID (switches take 5,120): those are the
 * destinations. Usage: cdg_scale [K] [threads]. Prints wall times and the
 * verdict; peak RSS via /usr/bin/time -v.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "build.h"
#include "fabriclint/cdg.h"
#include "fabriclint/gen.h"
#include "fabriclint/routing.h"

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static fl_fabric *copy_topology(const fl_fabric *g) {
  fl_fabric *f = fl_fabric_new();
  fl_prov pv = {fl_b_file(f, "generated"), 0, 0};
  uint32_t nn = fl_fabric_node_count(g);
  for (fl_id n = 0; n < nn; n++) {
    fl_id m = fl_b_node(f, fl_fabric_node_kind(g, n), fl_fabric_node_guid(g, n),
                        fl_fabric_node_nports(g, n), pv);
    fl_b_node_set_name(f, m, fl_fabric_node_name(g, n), (size_t)-1);
    fl_b_node_set_tier(f, m, fl_fabric_node_tier(g, n));
    fl_id first = fl_fabric_node_first_port(g, n);
    for (uint32_t k = 0;
         first != FL_NONE && k < fl_fabric_node_port_count(g, n); k++) {
      fl_id p = first + k;
      fl_id q = fl_b_port(f, m, fl_fabric_port_num(g, p), pv);
      fl_b_port_set_lid(f, q, fl_fabric_port_lid(g, p),
                        fl_fabric_port_lmc(g, p));
    }
  }
  for (fl_id l = 0; l < fl_fabric_link_count(g); l++) {
    fl_id a = fl_fabric_link_port(g, l, 0), b = fl_fabric_link_port(g, l, 1);
    fl_b_link(
        f,
        fl_b_port_find(f, fl_fabric_port_node(g, a), fl_fabric_port_num(g, a)),
        fl_b_port_find(f, fl_fabric_port_node(g, b), fl_fabric_port_num(g, b)),
        fl_fabric_link_width(g, l), fl_fabric_link_speed(g, l),
        FL_LINK_DECLARED, pv);
  }
  return f;
}

typedef struct adj {
  uint32_t *off;  /* per node, into nbr/port */
  fl_id *nbr;     /* neighbour switch node, or FL_NONE for a CA */
  uint32_t *port; /* local port number */
  fl_id *ca;      /* neighbour CA node */
} adj;

static void build_adj(const fl_fabric *g, adj *a) {
  uint32_t nn = fl_fabric_node_count(g);
  a->off = calloc(nn + 1, sizeof *a->off);
  for (fl_id n = 0; n < nn; n++)
    a->off[n + 1] = a->off[n] + fl_fabric_node_port_count(g, n);
  uint32_t tot = a->off[nn];
  a->nbr = malloc(tot * sizeof *a->nbr);
  a->port = malloc(tot * sizeof *a->port);
  a->ca = malloc(tot * sizeof *a->ca);
  for (fl_id n = 0; n < nn; n++) {
    fl_id first = fl_fabric_node_first_port(g, n);
    for (uint32_t k = 0; k < fl_fabric_node_port_count(g, n); k++) {
      fl_id p = first + k, l = fl_fabric_port_link(g, p, 0);
      fl_id q = l == FL_NONE ? FL_NONE : fl_fabric_link_other(g, l, p);
      fl_id qn = q == FL_NONE ? FL_NONE : fl_fabric_port_node(g, q);
      uint32_t i = a->off[n] + k;
      a->port[i] = fl_fabric_port_num(g, p);
      a->nbr[i] = qn != FL_NONE && fl_fabric_node_kind(g, qn) == FL_NODE_SWITCH
                      ? qn
                      : FL_NONE;
      a->ca[i] = qn != FL_NONE && fl_fabric_node_kind(g, qn) == FL_NODE_CA
                     ? qn
                     : FL_NONE;
    }
  }
}

/* D-mod-k minimal routing toward every CA LID of leaf @leaf. */
static void route_leaf(const fl_fabric *g, fl_fabric *f, const adj *a,
                       fl_id leaf, uint32_t *dist, fl_id *queue, uint32_t top) {
  uint32_t nn = fl_fabric_node_count(g);
  for (fl_id n = 0; n < nn; n++)
    dist[n] = UINT32_MAX;
  uint32_t head = 0, tail = 0;
  dist[leaf] = 0;
  queue[tail++] = leaf;
  while (head < tail) {
    fl_id v = queue[head++];
    for (uint32_t i = a->off[v]; i < a->off[v + 1]; i++)
      if (a->nbr[i] != FL_NONE && dist[a->nbr[i]] == UINT32_MAX) {
        dist[a->nbr[i]] = dist[v] + 1;
        queue[tail++] = a->nbr[i];
      }
  }
  for (uint32_t i = a->off[leaf]; i < a->off[leaf + 1]; i++) {
    if (a->ca[i] == FL_NONE)
      continue;
    fl_id cp = fl_fabric_find_port(g, a->ca[i], 1);
    uint32_t lid = fl_fabric_port_lid(g, cp);
    if (!lid)
      continue;
    for (uint32_t k = 0; k < tail; k++) {
      fl_id s = queue[k];
      uint8_t *row = fl_b_lft_row(f, s, top);
      if (s == leaf) {
        row[lid] = (uint8_t)a->port[i];
        continue;
      }
      uint32_t nmin = 0;
      for (uint32_t j = a->off[s]; j < a->off[s + 1]; j++)
        nmin += a->nbr[j] != FL_NONE && dist[a->nbr[j]] + 1 == dist[s];
      uint32_t pick = lid % nmin, c = 0;
      for (uint32_t j = a->off[s]; j < a->off[s + 1]; j++)
        if (a->nbr[j] != FL_NONE && dist[a->nbr[j]] + 1 == dist[s] &&
            c++ == pick) {
          row[lid] = (uint8_t)a->port[j];
          break;
        }
    }
  }
}

int main(int argc, char **argv) {
  uint32_t k = argc > 1 ? (uint32_t)atoi(argv[1]) : 64;
  uint32_t threads = argc > 2 ? (uint32_t)atoi(argv[2]) : 0;
  fl_gen_fat_tree_params p;
  memset(&p, 0, sizeof p);
  p.radix = k;
  p.tiers = 3;
  fl_error err;
  fl_error_clear(&err);
  fl_fabric *g = NULL;
  double t0 = now();
  if (fl_gen_fat_tree(&p, &g, &err) != FL_OK) {
    fprintf(stderr, "gen: %s\n", err.message);
    return 1;
  }
  fl_fabric *f = copy_topology(g);
  adj a;
  build_adj(g, &a);
  uint32_t nn = fl_fabric_node_count(g), top = fl_fabric_max_lid(g);
  uint32_t *dist = malloc(nn * sizeof *dist);
  fl_id *queue = malloc(nn * sizeof *queue);
  for (fl_id n = 0; n < nn; n++)
    if (fl_fabric_node_kind(g, n) == FL_NODE_SWITCH &&
        fl_fabric_node_tier(g, n) == 1)
      route_leaf(g, f, &a, n, dist, queue, top);
  if (fl_fabric_finalize(f, &err) != FL_OK) {
    fprintf(stderr, "finalize: %s\n", err.message);
    return 1;
  }
  double t1 = now();
  fl_cdg_options o;
  memset(&o, 0, sizeof o);
  o.struct_size = sizeof o;
  o.threads = threads;
  const fl_cdg_report *r = NULL;
  if (fl_cdg_analyze(f, &o, &r) != FL_OK) {
    fprintf(stderr, "analyze failed\n");
    return 1;
  }
  double t2 = now();
  printf("radix %u: %u switches, %u CAs, %u links, %u LFTs, max LID %u\n", k,
         fl_fabric_count_kind(f, FL_NODE_SWITCH),
         fl_fabric_count_kind(f, FL_NODE_CA), fl_fabric_link_count(f),
         fl_fabric_lft_count(f), fl_fabric_max_lid(f));
  printf("setup (gen + routing) %.2f s; cdg analysis %.3f s\n", t1 - t0,
         t2 - t1);
  printf(
      "destinations %u, sources %u, channels %u, dependencies %llu, loops %u, "
      "valleys %llu, unrouted pairs %llu\n",
      r->destinations, r->sources, r->channels,
      (unsigned long long)r->dependencies, r->n_loops,
      (unsigned long long)r->valley_count,
      (unsigned long long)r->unrouted_pairs);
  fl_cdg_free(r);
  fl_fabric_free(f);
  fl_fabric_free(g);
  free(dist), free(queue), free(a.off), free(a.nbr), free(a.port), free(a.ca);
  return 0;
}
