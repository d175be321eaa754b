/*
 * bench/ecmp_scale.c — the ecmp-balance and adaptive-routing plugins at
 * data-centre scale (issue 7 targets: port balance and AR coverage on a
 * 65,536-endpoint fat tree under 2 s; eBB with 100 random patterns on
 * 8,192 endpoints under 10 s).
 *
 * Builds a radix-K 3-tier fat tree with fl_gen_fat_tree, copies it with
 * D-mod-k minimal LFTs exactly as bench/cdg_scale.c does (per destination
 * leaf a BFS; the LFT entry is the (DLID mod n)-th minimal port) and with
 * `ar=true` on every switch, then loads the built plugins through the real
 * host (core/host.h: dlopen, fl_host_api, parameters) and times single rule
 * runs with fl_host_run(). Each plugin builds its switch view once and
 * caches it; the first rule timed in a plugin pays for that, so it is
 * reported separately.
 *
 * One InfiniBand subnet has 49,151 unicast LIDs (IBA 4.1.3): at K=64 only
 * the first 44,031 CAs get a LID, so LFT port balance covers 44,031
 * destination LIDs, while AR coverage (design attributes) covers all
 * 65,536 endpoints.
 *
 * Usage: ecmp_scale [K_balance=64] [K_ebb=32] [patterns=100]
 * (run from the build folder: plugins are read from ./plugins/).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "build.h"
#include "fabriclint/gen.h"
#include "fabriclint/routing.h"
#include "host.h"

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static fl_fabric *copy_topology(const fl_fabric *g, int ar) {
  fl_fabric *f = fl_fabric_new();
  fl_prov pv = {fl_b_file(f, "generated"), 0, 0};
  uint32_t nn = fl_fabric_node_count(g);
  for (fl_id n = 0; n < nn; n++) {
    fl_id m = fl_b_node(f, fl_fabric_node_kind(g, n), fl_fabric_node_guid(g, n),
                        fl_fabric_node_nports(g, n), pv);
    fl_b_node_set_name(f, m, fl_fabric_node_name(g, n), (size_t)-1);
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

/* D-mod-k minimal routing toward every CA LID of leaf @leaf: at a switch
 * of tier t with n minimal up ports, the entry is the
 * ((DLID / (k/2)^(t-1)) mod n)-th of them (the classic D-mod-k of Zahavi et
 * al.: successive tiers use successive digits of the destination, so the
 * k/2 x k/2 cores are all used); downward hops have one minimal port. */
static void route_leaf(const fl_fabric *g, fl_fabric *f, const adj *a,
                       fl_id leaf, uint32_t *dist, fl_id *queue, uint32_t top,
                       uint32_t half, uint32_t *mins, uint32_t *moff,
                       uint32_t base) {
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
    rows[k] = fl_b_lft_row(f, queue[k], top);
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

static fl_fabric *make(uint32_t k, int ar) {
  fl_gen_fat_tree_params p;
  memset(&p, 0, sizeof p);
  p.radix = k;
  p.tiers = 3;
  fl_error err;
  fl_error_clear(&err);
  fl_fabric *g = NULL;
  if (fl_gen_fat_tree(&p, &g, &err) != FL_OK) {
    fprintf(stderr, "gen: %s\n", err.message);
    exit(1);
  }
  fl_fabric *f = copy_topology(g, ar);
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
      route_leaf(g, f, &a, n, dist, queue, top, k / 2, mins, moff, base);
  free(mins), free(moff);
  if (fl_fabric_finalize(f, &err) != FL_OK) {
    fprintf(stderr, "finalize: %s\n", err.message);
    exit(1);
  }
  fl_fabric_free(g);
  free(dist), free(queue), free(a.off), free(a.nbr), free(a.port), free(a.ca);
  return f;
}

static void run(fl_host *h, const fl_fabric *f, const char *rule,
                const char *what) {
  fl_findings out;
  memset(&out, 0, sizeof out);
  fl_error err;
  fl_error_clear(&err);
  size_t n_run = 0;
  double t0 = now();
  if (fl_host_run(h, f, rule, &out, &n_run, &err) != FL_OK) {
    fprintf(stderr, "%s: %s\n", rule, err.message);
    exit(1);
  }
  double t1 = now();
  printf("%-34s %-44s %7.3f s, %zu finding(s)\n", rule, what, t1 - t0, out.n);
  for (size_t i = 0; i < out.n && i < 2; i++)
    if (out.v[i].severity == FL_SEV_INFO || i == 0)
      printf("    %.*s\n", 300, out.v[i].message);
  fl_findings_free(&out);
}

static void load(fl_host *h, const char *name) {
  char path[512];
  snprintf(path, sizeof path, "plugins/%s.so", name);
  fl_error err;
  fl_error_clear(&err);
  if (fl_host_load_file(h, path, &err) != FL_OK) {
    fprintf(stderr, "%s: %s (run from the build folder)\n", path, err.message);
    exit(1);
  }
}

int main(int argc, char **argv) {
  uint32_t kb = argc > 1 ? (uint32_t)atoi(argv[1]) : 64;
  uint32_t ke = argc > 2 ? (uint32_t)atoi(argv[2]) : 32;
  const char *count = argc > 3 ? argv[3] : "100";
  fl_error err;
  fl_error_clear(&err);

  double t0 = now();
  fl_fabric *f = make(kb, 1);
  printf("radix %u: %u switches, %u CAs, %u links, %u LFTs, max LID %u "
         "(setup %.2f s)\n",
         kb, fl_fabric_count_kind(f, FL_NODE_SWITCH),
         fl_fabric_count_kind(f, FL_NODE_CA), fl_fabric_link_count(f),
         fl_fabric_lft_count(f), fl_fabric_max_lid(f), now() - t0);
  fl_host h;
  fl_host_init(&h);
  load(&h, "ecmp-balance");
  load(&h, "adaptive-routing");
  run(&h, f, "ecmp-balance.port-imbalance", "(+ switch view)");
  run(&h, f, "ecmp-balance.port-imbalance", "(view cached)");
  run(&h, f, "adaptive-routing.coverage", "(+ view + minimal next hops)");
  run(&h, f, "adaptive-routing.summary", "(cached)");
  fl_host_free(&h);
  fl_fabric_free(f);

  t0 = now();
  f = make(ke, 0);
  printf("radix %u: %u switches, %u CAs, %u links, %u LFTs (setup %.2f s)\n",
         ke, fl_fabric_count_kind(f, FL_NODE_SWITCH),
         fl_fabric_count_kind(f, FL_NODE_CA), fl_fabric_link_count(f),
         fl_fabric_lft_count(f), now() - t0);
  for (int ecmp = 0; ecmp < 2; ecmp++) {
    fl_host_init(&h);
    load(&h, "ecmp-balance");
    char spec[128];
    snprintf(spec, sizeof spec, "ecmp-balance.link-load.count=%s", count);
    if (fl_host_set_param(&h, spec, &err) != FL_OK ||
        fl_host_set_param(&h, "ecmp-balance.link-load.patterns=bisect", &err) !=
            FL_OK ||
        fl_host_set_param(&h,
                          ecmp ? "ecmp-balance.link-load.routing=ecmp"
                               : "ecmp-balance.link-load.routing=lft",
                          &err) != FL_OK) {
      fprintf(stderr, "param: %s\n", err.message);
      return 1;
    }
    run(&h, f, "ecmp-balance.link-load",
        ecmp ? "bisect, fluid ECMP (+ view + minimal)"
             : "bisect, D-mod-k LFTs (+ view)");
    fl_host_free(&h);
  }
  fl_fabric_free(f);
  return 0;
}
