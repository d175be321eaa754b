/* SPDX-License-Identifier: MIT */
/*
 * bench/fattree_lfts.h — shared by the benchmarks: copy a generated fat tree
 * into a fresh fabric (optionally with `ar=true` on every switch) and give
 * it D-mod-k minimal LFTs, as a subnet manager's fat-tree routing would.
 * Header-only (static functions): the benchmarks are separate programs.
 */
#ifndef FABRICLINT_BENCH_FATTREE_LFTS_H
#define FABRICLINT_BENCH_FATTREE_LFTS_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "build.h"
#include "fabriclint/fabric.h"
#include "fabriclint/gen.h"
#include "fabriclint/routing.h"

/* Copy generated fabric @g into @f; its node n becomes node off + n (the
 * return value off: @f's node count before). @plane 0 copies names as they
 * are; plane p > 0 marks a separate subnet (docs/performance.md): switch
 * names get a "p<p>/" prefix, node GUIDs p << 48, and CA "<host> <dev>"
 * becomes "<host> mlx5_<p-1>" of system <host>, so host h has one NIC in
 * every plane. LIDs are copied: every plane has its own LID space. */
static fl_id copy_into(fl_fabric *f, const fl_fabric *g, int ar,
                       uint32_t plane) {
  fl_prov pv = {fl_b_file(f, "generated"), 0, 0};
  uint32_t nn = fl_fabric_node_count(g);
  fl_id off = fl_fabric_node_count(f);
  for (fl_id n = 0; n < nn; n++) {
    uint64_t guid = fl_fabric_node_guid(g, n) ^ ((uint64_t)plane << 48);
    fl_id m = fl_b_node(f, fl_fabric_node_kind(g, n), guid,
                        fl_fabric_node_nports(g, n), pv);
    const char *name = fl_fabric_node_name(g, n);
    char buf[160];
    if (plane && fl_fabric_node_kind(g, n) == FL_NODE_CA) {
      const char *sys = fl_fabric_node_system(g, n);
      snprintf(buf, sizeof buf, "%s mlx5_%u", sys, plane - 1);
      fl_b_node_set_system(f, m, sys, (size_t)-1);
      name = buf;
    } else if (plane) {
      snprintf(buf, sizeof buf, "p%u/%s", plane, name);
      name = buf;
    }
    fl_b_node_set_name(f, m, name, (size_t)-1);
    fl_b_node_set_tier(f, m, fl_fabric_node_tier(g, n));
    if (ar && fl_fabric_node_kind(g, n) == FL_NODE_SWITCH)
      fl_b_attr(f, FL_ENT_NODE, m, "ar", "true");
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
    fl_b_link(f,
              fl_b_port_find(f, off + fl_fabric_port_node(g, a),
                             fl_fabric_port_num(g, a)),
              fl_b_port_find(f, off + fl_fabric_port_node(g, b),
                             fl_fabric_port_num(g, b)),
              fl_fabric_link_width(g, l), fl_fabric_link_speed(g, l),
              FL_LINK_DECLARED, pv);
  }
  return off;
}

static fl_fabric *copy_topology(const fl_fabric *g, int ar) {
  fl_fabric *f = fl_fabric_new();
  copy_into(f, g, ar, 0);
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

/* D-mod-k minimal routing toward every CA LID of leaf @leaf: at a switch
 * of tier t with n minimal up ports, the entry is the
 * ((DLID / (k/2)^(t-1)) mod n)-th of them (the classic D-mod-k of Zahavi et
 * al.: successive tiers use successive digits of the destination, so the
 * k/2 x k/2 cores are all used); downward hops have one minimal port. */
static void route_leaf(const fl_fabric *g, fl_fabric *f, const adj *a,
                       fl_id leaf, uint32_t *dist, fl_id *queue, uint32_t top,
                       uint32_t half, uint32_t *mins, uint32_t *moff,
                       uint32_t base, fl_id off) {
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
  /* minimal ports of every switch, once per leaf */
  uint32_t m = 0;
  for (uint32_t k = 0; k < tail; k++) {
    fl_id s = queue[k];
    moff[k] = m;
    for (uint32_t j = a->off[s]; j < a->off[s + 1]; j++)
      if (a->nbr[j] != FL_NONE && dist[a->nbr[j]] + 1 == dist[s])
        mins[m++] = a->port[j];
  }
  moff[tail] = m;
  uint8_t **rows = malloc(tail * sizeof *rows);
  uint32_t *div = malloc(tail * sizeof *div);
  for (uint32_t k = 0; k < tail; k++) {
    rows[k] = fl_b_lft_row(f, off + queue[k], top);
    uint32_t t = fl_fabric_node_tier(g, queue[k]), d = 1;
    for (uint32_t x = 1; x < t; x++)
      d *= half;
    div[k] = d;
  }
  for (uint32_t i = a->off[leaf]; i < a->off[leaf + 1]; i++) {
    if (a->ca[i] == FL_NONE)
      continue;
    fl_id cp = fl_fabric_find_port(g, a->ca[i], 1);
    uint32_t lid = fl_fabric_port_lid(g, cp);
    if (!lid)
      continue;
    rows[0][lid] = (uint8_t)a->port[i];
    for (uint32_t k = 1; k < tail; k++) {
      uint32_t n = moff[k + 1] - moff[k];
      uint32_t x = lid - base; /* destination index: CAs in LID order */
      rows[k][lid] = (uint8_t)mins[moff[k] + (x / div[k]) % n];
    }
  }
  free(rows), free(div);
}

/* SL2VL tables for every switch turn (in != out, ports 1..k): @vl 1 maps
 * every SL to VL 0; @vl 2 maps every SL to VL (in port & 1), so each switch
 * leaves on a VL that depends on the port a packet came in by (the costly
 * case of a VL-aware walk). @vl 0 sets none. */
static void add_sl2vl(fl_fabric *f, uint32_t k, int vl) {
  if (!vl)
    return;
  uint32_t nn = fl_fabric_node_count(f);
  for (fl_id n = 0; n < nn; n++) {
    if (fl_fabric_node_kind(f, n) != FL_NODE_SWITCH)
      continue;
    for (uint32_t in = 1; in <= k; in++) {
      uint8_t t[16];
      memset(t, vl == 2 ? (int)(in & 1) : 0, sizeof t);
      for (uint32_t out = 1; out <= k; out++)
        if (in != out && fl_b_sl2vl(f, n, in, out, t) != FL_OK) {
          fprintf(stderr, "sl2vl: out of memory\n");
          exit(1);
        }
    }
  }
}

/* The radix-@k 3-tier fat tree with @hosts hosts (0: all), generated. */
static fl_fabric *gen_tree(uint32_t k, uint32_t hosts) {
  fl_gen_fat_tree_params p;
  memset(&p, 0, sizeof p);
  p.radix = k;
  p.tiers = 3;
  p.hosts = hosts;
  fl_error err;
  fl_error_clear(&err);
  fl_fabric *g = NULL;
  if (fl_gen_fat_tree(&p, &g, &err) != FL_OK) {
    fprintf(stderr, "gen: %s\n", err.message);
    exit(1);
  }
  return g;
}

/* D-mod-k LFTs of generated tree @g (radix @k), written to its copy in @f
 * whose node ids are @off + g's. */
static void route_tree(const fl_fabric *g, fl_fabric *f, uint32_t k,
                       fl_id off) {
  adj a;
  build_adj(g, &a);
  uint32_t nn = fl_fabric_node_count(g), top = fl_fabric_max_lid(g);
  uint32_t *dist = malloc(nn * sizeof *dist);
  fl_id *queue = malloc(nn * sizeof *queue);
  uint32_t *mins = malloc((size_t)a.off[nn] * sizeof *mins);
  uint32_t *moff = malloc((nn + 1) * sizeof *moff);
  /* D-mod-k digits count CAs, not LIDs: the first CA LID is index 0 */
  uint32_t base = UINT32_MAX;
  for (fl_id n = 0; n < nn; n++)
    if (fl_fabric_node_kind(g, n) == FL_NODE_CA) {
      uint32_t l = fl_fabric_port_lid(g, fl_fabric_find_port(g, n, 1));
      if (l && l < base)
        base = l;
    }
  for (fl_id n = 0; n < nn; n++)
    if (fl_fabric_node_kind(g, n) == FL_NODE_SWITCH &&
        fl_fabric_node_tier(g, n) == 1)
      route_leaf(g, f, &a, n, dist, queue, top, k / 2, mins, moff, base, off);
  free(mins), free(moff);
  free(dist), free(queue), free(a.off), free(a.nbr), free(a.port), free(a.ca);
}

static void finalize_or_exit(fl_fabric *f) {
  fl_error err;
  fl_error_clear(&err);
  if (fl_fabric_finalize(f, &err) != FL_OK) {
    fprintf(stderr, "finalize: %s\n", err.message);
    exit(1);
  }
}

/* The radix-@k 3-tier fat tree (fl_gen_fat_tree) with D-mod-k LFTs (@ar:
 * `ar=true` on every switch) and SL2VL tables chosen by @vl (see
 * add_sl2vl), finalized. Exits on failure. */
static fl_fabric *make_vl(uint32_t k, int ar, int vl) {
  fl_fabric *g = gen_tree(k, 0);
  fl_fabric *f = copy_topology(g, ar);
  route_tree(g, f, k, 0);
  add_sl2vl(f, k, vl);
  finalize_or_exit(f);
  fl_fabric_free(g);
  return f;
}

/* @planes separate subnets in one fabric (multi-plane, one NIC per host in
 * every plane): each plane is the radix-@k 3-tier fat tree with the first
 * k^3 / (4 * @planes) hosts (fl_gen_fat_tree's partial build: whole pods,
 * the core tier complete), with its own LIDs (switches first, then CAs,
 * all unicast) and its own D-mod-k LFTs. Host h's NIC in plane p is
 * "<host> mlx5_<p-1>". k = 64, planes = 2: 65,536 endpoints in two
 * subnets of 32,768 CAs and 3,072 switches each. */
static inline fl_fabric *make_planes(uint32_t k, uint32_t planes) {
  fl_fabric *f = fl_fabric_new();
  uint32_t hosts = k * k * k / 4 / planes;
  fl_fabric *g = gen_tree(k, hosts);
  for (uint32_t p = 1; p <= planes; p++)
    route_tree(g, f, k, copy_into(f, g, 0, p));
  finalize_or_exit(f);
  fl_fabric_free(g);
  return f;
}

#endif
