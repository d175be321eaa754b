/* SPDX-License-Identifier: MIT */
/*
 * core/analysis/perf_nccl.c — what nccl-tests would print for a collective
 * on the modelled fabric: an alpha-beta cost per NCCL algorithm on top of
 * the flow model's fabric bandwidth (docs/performance-model.md, "NCCL
 * prediction"). The constants are the numbers of NCCL's own tuning model
 * (src/graph/tuning.cc of NVIDIA/nccl, the Simple protocol; cited in the
 * docs with the version they come from), not its code:
 *
 *   time(alg) = latency(alg) + bytes / algbw(alg)
 *
 * - ring: algbw = fabric busbw × eta_ring / busbw factor; latency = base +
 *   (steps − inter-node steps) × NVLink step + inter-node steps × network
 *   step, × the ring plateau factor for a multi-node all-reduce;
 * - tree (all-reduce, 2+ hosts): NCCL's double binary tree over the hosts
 *   (a chain over NVLink inside each): each host sends and receives t(N)
 *   × bytes on the network per direction (N = 2: 1, N = 3: 1.5, else 2),
 *   so algbw = host network bandwidth × eta_tree / t(N), the host network
 *   bandwidth being the ring's fabric busbw (per host, contention
 *   included); latency = base + 2 × ((ppn − 1) × NVLink hop + log2 N ×
 *   network hop);
 * - p2p (all-to-all, sendrecv): fabric busbw × eta_ring, one network step.
 *
 * NCCL picks the algorithm of least predicted time (its tuner's rule).
 */
#include <math.h>
#include <string.h>

#include "analysis/perf_impl.h"

/* NCCL tuning.cc (NVIDIA/nccl commit 01afd20, v2.12-era), Simple protocol,
 * microseconds: baseLat Ring 8.4; hwLat NVLink Ring 3.4, Tree 28; hwLat
 * NET Ring 9.6, Tree 50; the ring all-reduce "plateau" ×1.9 on several
 * nodes; Tree bandwidth ×0.9. Tree baseLat of that table is 0 for Simple. */
#define NCCL_BASE_RING_US 8.4
#define NCCL_BASE_TREE_US 0.0
#define NCCL_NVL_RING_US  3.4
#define NCCL_NET_RING_US  9.6
#define NCCL_NVL_TREE_US  28.0
#define NCCL_NET_TREE_US  50.0
#define NCCL_RING_PLATEAU 1.9
#define NCCL_TREE_EFF     0.9
/* Simple protocol wire efficiency: NCCL's maintainers expect 46-48 GB/s
 * of busbw per 400 Gb/s (50 GB/s) NIC (NVIDIA/nccl-tests#290): 0.94, the
 * middle. The calibration table of docs/performance-model.md checks it. */
#define NCCL_SIMPLE_EFF 0.94

static const char *const ALG_NAME[FL_PERF_NCCL_ALGS] = {"ring", "tree", "p2p"};

const char *fl_perf_nccl_alg_name(uint32_t a) {
  return a < FL_PERF_NCCL_ALGS ? ALG_NAME[a] : "?";
}

static double bus_factor(uint32_t op, double n) {
  if (op == FL_WL_ALL_REDUCE)
    return 2.0 * (n - 1) / n;
  if (op == FL_WL_SENDRECV)
    return 1.0;
  return (n - 1) / n;
}

static void finish(fl_perf_nccl_alg *a, uint32_t op, double bytes, double n,
                   double algbw_bw) {
  double f = bus_factor(op, n);
  a->on = algbw_bw > 0;
  if (!a->on)
    return;
  a->time_s = a->latency_s + bytes / (algbw_bw * 1e9);
  a->algbw_GBps = bytes / a->time_s / 1e9;
  a->busbw_GBps = a->algbw_GBps * f;
}

static void ring(fl_perf_nccl_alg *a, uint32_t op, double bytes, double n,
                 double hosts, double fabric_busbw) {
  double steps = op == FL_WL_ALL_REDUCE ? 2 * (n - 1) : n - 1;
  double inter = op == FL_WL_ALL_REDUCE ? 2 * (hosts - 1) : hosts - 1;
  double us = NCCL_BASE_RING_US + (steps - inter) * NCCL_NVL_RING_US +
              inter * NCCL_NET_RING_US;
  if (op == FL_WL_ALL_REDUCE && hosts > 1)
    us *= NCCL_RING_PLATEAU;
  a->latency_s = us * 1e-6;
  a->efficiency = NCCL_SIMPLE_EFF;
  finish(a, op, bytes, n, fabric_busbw * NCCL_SIMPLE_EFF / bus_factor(op, n));
}

static double tree_traffic(double hosts) {
  return hosts <= 2 ? 1.0 : hosts == 3 ? 1.5 : 2.0;
}

double fl_perf_nccl_factor(uint32_t op, uint32_t alg, uint32_t ranks,
                           uint32_t hosts) {
  if (ranks < 2)
    return 0;
  if (alg == FL_PERF_NCCL_TREE)
    return tree_traffic(hosts ? hosts : 1);
  if (alg == FL_PERF_NCCL_RING || alg == FL_PERF_NCCL_P2P)
    return bus_factor(op, ranks);
  return 0;
}

static void tree(fl_perf_nccl_alg *a, double bytes, double n, double hosts,
                 double fabric_busbw) {
  double ppn = n / hosts, t = tree_traffic(hosts);
  double us = NCCL_BASE_TREE_US + 2 * ((ppn - 1) * NCCL_NVL_TREE_US +
                                       floor(log2(hosts)) * NCCL_NET_TREE_US);
  a->latency_s = us * 1e-6;
  a->efficiency = NCCL_TREE_EFF;
  finish(a, FL_WL_ALL_REDUCE, bytes, n, fabric_busbw * NCCL_TREE_EFF / t);
}

static void p2p(fl_perf_nccl_alg *a, uint32_t op, double bytes, double n,
                double fabric_busbw) {
  a->latency_s = (NCCL_BASE_RING_US + NCCL_NET_RING_US) * 1e-6;
  a->efficiency = NCCL_SIMPLE_EFF;
  finish(a, op, bytes, n, fabric_busbw * NCCL_SIMPLE_EFF / bus_factor(op, n));
}

void fl_perf_nccl_predict(uint32_t op, uint64_t bytes, uint32_t ranks,
                          uint32_t hosts, double fabric_busbw_GBps,
                          fl_perf_nccl *out) {
  memset(out, 0, sizeof *out);
  double b = (double)bytes, n = ranks, h = hosts ? hosts : 1;
  if (ranks < 2 || !(fabric_busbw_GBps > 0) || bytes == 0)
    return;
  if (op == FL_WL_ALL_TO_ALL || op == FL_WL_SENDRECV) {
    p2p(&out->alg[FL_PERF_NCCL_P2P], op, b, n, fabric_busbw_GBps);
    out->pick = FL_PERF_NCCL_P2P;
    return;
  }
  ring(&out->alg[FL_PERF_NCCL_RING], op, b, n, h, fabric_busbw_GBps);
  out->pick = FL_PERF_NCCL_RING;
  if (op == FL_WL_ALL_REDUCE && hosts >= 2) {
    tree(&out->alg[FL_PERF_NCCL_TREE], b, n, h, fabric_busbw_GBps);
    if (out->alg[FL_PERF_NCCL_TREE].on &&
        out->alg[FL_PERF_NCCL_TREE].time_s < out->alg[FL_PERF_NCCL_RING].time_s)
      out->pick = FL_PERF_NCCL_TREE;
  }
}
