/* SPDX-License-Identifier: MIT */
/*
 * core/analysis/perf.h — the collective-communication performance model
 * (docs/perf.md): a workload's collectives become NIC-to-NIC flows per
 * step (perf_flows.c), routed over the loaded LFTs or ideal adaptive
 * routing (perf_route.c), and share link capacity max-min fairly
 * (progressive filling, perf_maxmin.c); perf.c runs one collective and
 * derives time, algbw, busbw, the no-contention ideal and the bottleneck
 * links. Internal to the library; `fabriclint perf` is the caller.
 */
#ifndef FABRICLINT_CORE_ANALYSIS_PERF_H
#define FABRICLINT_CORE_ANALYSIS_PERF_H

#include <stddef.h>
#include <stdint.h>

#include "fabriclint/error.h"
#include "fabriclint/fabric.h"
#include "io/workload.h"

/** Most bottleneck links and example flows per link kept in a result. */
#define FL_PERF_MAX_BOTTLENECKS 16u
#define FL_PERF_MAX_EXAMPLES    16u

/**
 * fl_perf_bottleneck — a directed link saturated at the level that sets the
 * collective's step time (listed only when the collective is below its
 * ideal: at the ideal the NIC cables are the limit): cable @link leaving node
 * @from port @from_port toward node @to port @to_port, @gbps its capacity,
 * @flows how many flows share it (fractional under AR's equal split),
 * @share_gbps each one's rate, @nominal_gbps the cable's design rate
 * (above @gbps: the cable trained below it, perf_nominal.c).
 * @ex_src/@ex_dst[@n_ex] name example flows (NIC node ids).
 * @dl: the directed link (2 × link + 0 when leaving the link's end 0).
 */
typedef struct fl_perf_bottleneck {
  fl_id link, from, to;
  uint32_t dl;
  uint32_t from_port, to_port;
  double gbps, flows, share_gbps, nominal_gbps;
  uint32_t n_ex;
  fl_id ex_src[FL_PERF_MAX_EXAMPLES], ex_dst[FL_PERF_MAX_EXAMPLES];
} fl_perf_bottleneck;

/** Algorithms of the NCCL prediction (fl_perf_nccl.alg[]). */
enum { FL_PERF_NCCL_RING = 0, FL_PERF_NCCL_TREE, FL_PERF_NCCL_P2P };
#define FL_PERF_NCCL_ALGS 3u

/**
 * fl_perf_nccl_alg — one algorithm's predicted nccl-tests figures: @on 0
 * when not modelled for the collective; @latency_s its alpha (s), @efficiency
 * its bandwidth factor on the fabric's rate, @time_s = latency + bytes /
 * (bandwidth), @algbw_GBps and @busbw_GBps in GB/s (10^9 bytes/s) as
 * nccl-tests defines them.
 */
typedef struct fl_perf_nccl_alg {
  int on;
  double latency_s, efficiency, time_s, algbw_GBps, busbw_GBps;
} fl_perf_nccl_alg;

/** fl_perf_nccl — the prediction: @alg per algorithm, @pick the one NCCL's
 * tuner would choose (least time; FL_PERF_NCCL_*). All zero when the
 * collective has no fabric traffic. */
typedef struct fl_perf_nccl {
  fl_perf_nccl_alg alg[FL_PERF_NCCL_ALGS];
  uint32_t pick;
} fl_perf_nccl;

/**
 * fl_perf_nccl_predict() — NCCL's alpha-beta cost (perf_nccl.c,
 * docs/performance-model.md "NCCL prediction") of collective @op of @bytes
 * (nccl-tests size) over @ranks ranks on @hosts hosts, given the flow
 * model's fabric bus bandwidth @fabric_busbw_GBps (GB/s; for all-reduce the
 * ring's, i.e. each host's network bandwidth). Ring for all-reduce,
 * all-gather, reduce-scatter; tree too for all-reduce on 2+ hosts; p2p for
 * all-to-all and sendrecv. Fills *@out (all zero for < 2 ranks, 0 bytes or
 * no bandwidth). Pure; O(1).
 */
void fl_perf_nccl_predict(uint32_t op, uint64_t bytes, uint32_t ranks,
                          uint32_t hosts, double fabric_busbw_GBps,
                          fl_perf_nccl *out);

/** fl_perf_nccl_alg_name() — "ring", "tree", "p2p" ("?" out of range). */
const char *fl_perf_nccl_alg_name(uint32_t a);

/**
 * fl_perf_nccl_factor() — the bytes per byte of the collective that
 * algorithm @alg (FL_PERF_NCCL_*) of @op over @ranks ranks on @hosts hosts
 * moves at the fabric's bus bandwidth: its time is latency + bytes ×
 * factor / (efficiency × busbw). Ring and p2p: the busbw factor of @op
 * (all-reduce 2(n−1)/n, sendrecv 1, others (n−1)/n); tree: t(N), the
 * tree's network bytes per host per byte (1 on 2 hosts, 1.5 on 3, else
 * 2). 0 for < 2 ranks or an unknown @alg. Pure.
 */
double fl_perf_nccl_factor(uint32_t op, uint32_t alg, uint32_t ranks,
                           uint32_t hosts);

/**
 * fl_perf_fit_alpha_eta() — fit t = alpha + x / eta to @n measured times
 * @t[i] (s) at @x[i] = bytes × fl_perf_nccl_factor() / fabric busbw (s:
 * the bandwidth term at efficiency 1), by weighted least squares with
 * weights 1 / t² (each point's relative error counts alike). *@alpha_s
 * the latency (s, may come out negative: a fit, not a bound), *@eta the
 * efficiency on the fabric's bus bandwidth. FL_OK; FL_EINVAL with @err
 * saying why for fewer than 2 points, a time or x not > 0 or not finite,
 * all x equal (one size: latency and efficiency cannot be told apart),
 * or a slope <= 0 (times that do not grow with the size). Pure; O(n).
 */
int fl_perf_fit_alpha_eta(const double *x, const double *t, size_t n,
                          double *alpha_s, double *eta, fl_error *err);

/**
 * fl_perf_eps() — the relative tolerance with which the model's figures
 * are compared (with the ideal, with min-share, links at the slowest
 * level): 10^-9; 10^-6 under AR (FL_WL_ROUTE_AR), whose split is a fixed
 * point to 10^-8 of the demand, so its rates are that close, not exact.
 */
double fl_perf_eps(uint32_t routing);

/** Most split values (flows per edge and demands per switch, for each
 * destination switch with flows) one load-aware AR balance may hold: 2^25
 * doubles, 256 MiB (perf_ar.c, docs/perf.md). */
#define FL_PERF_AR_MAX_SPLIT (1u << 25)

/**
 * fl_perf_ar — how load-aware adaptive routing's split of a solve's flows
 * came out (perf_ar.c): @sweeps of the fixed point run, @converged 1 when
 * no edge's flows were more than 10^-8 of the largest demand from their
 * switch's best response in the last one (else the last sweep's split was
 * used), @residual that last gap relative to the largest demand. @capped: AR was chosen by routing
 * auto (no LFTs) and its split would need that many values, more than the
 * cap of 2^25 (docs/perf.md): the flows were split equally (as spray)
 * instead; 0 otherwise. All zero for other routings.
 */
typedef struct fl_perf_ar {
  uint32_t sweeps;
  int converged;
  double residual;
  size_t capped;
} fl_perf_ar;

/**
 * fl_perf_result — one collective. Times in seconds, bandwidths in GB/s
 * (10^9 bytes/s, nccl-tests' unit; link rates elsewhere stay Gb/s):
 * @algbw = bytes / time, @busbw = algbw × NCCL's factor
 * (all-reduce 2(n-1)/n, all-gather and reduce-scatter (n-1)/n, all-to-all
 * (n-1)/n, sendrecv 1) for @ranks n on @hosts hosts. These are the flow
 * model's (the fabric's bandwidth, no latency, no protocol overhead).
 * @steps identical steps of @step_time_s each (ring: 2(n-1) or n-1, others
 * 1) carrying @flows NIC-to-NIC flows per step. The ideal is the same flows
 * over a non-blocking crossbar at the cables' nominal (design) rates
 * (perf_nominal.c: a cable trained below its tier pair's majority rate
 * counts at that rate), so a degraded NIC cable lowers @ratio = busbw /
 * ideal_busbw. @nccl: what nccl-tests would print (perf_nccl.c).
 * @fabric_traffic 0: every transfer stays inside a host (no flow). @error
 * non-empty: the flows could not be routed (an LFT hole, a loop), the other
 * fields are then zero.
 */
typedef struct fl_perf_result {
  uint32_t op;
  const char *name; /* borrowed from the workload, NULL if none */
  uint64_t bytes;
  uint32_t ranks, rails, hosts, steps;
  double flows;
  int fabric_traffic;
  double step_time_s, time_s, algbw_GBps, busbw_GBps;
  double ideal_time_s, ideal_busbw_GBps, ratio;
  fl_perf_nccl nccl;
  uint32_t n_bottlenecks;
  fl_perf_bottleneck bottlenecks[FL_PERF_MAX_BOTTLENECKS];
  uint32_t routing; /* FL_WL_ROUTE_LFT, _AR or _SPRAY, as modelled */
  fl_perf_ar ar;    /* AR: the split's fixed point */
  uint32_t solver_rounds;
  char error[512];
} fl_perf_result;

/**
 * fl_perf_job — a workload resolved against a fabric: the NICs of every
 * host (rail r of host h is nic[h * rails + r]). Build with fl_perf_job_new,
 * free with fl_perf_job_free. Borrows @fab, which must outlive it.
 */
typedef struct fl_perf_job fl_perf_job;

/**
 * fl_perf_job_new() — resolve workload @w on finalized fabric @fab: each
 * host name is a system (host) name or a CA's display name; its NICs are
 * its CA nodes cabled to a switch, in name order (NIC i is rail i); every
 * host must have the same number. `hosts: all` takes every host with a
 * cabled CA, in name order. @routing is FL_WL_ROUTE_AUTO/LFT/AR. Returns
 * FL_OK and *@out; FL_EPARSE with @err naming the workload line of an
 * unknown host or a host whose NIC count differs; FL_EINVAL when LFT
 * routing is asked for and no LFT is loaded; FL_ENOMEM.
 */
int fl_perf_job_new(const fl_fabric *fab, const fl_workload *w,
                    uint32_t routing, fl_perf_job **out, fl_error *err);

/** fl_perf_job_free() — free a job (NULL is a no-op). */
void fl_perf_job_free(fl_perf_job *job);

/** fl_perf_job_set_threads() — the workers each of @job's max-min solves
 * may use (the run's budget, fabriclint/threads.h; 0, the default:
 * fl_threads_available()); a solve still takes at most one per 2,048
 * destination NICs. The results do not depend on it. */
void fl_perf_job_set_threads(fl_perf_job *job, uint32_t threads);

/**
 * fl_perf_job_failed() — the cables taken out of @job by the workload's
 * `fail` list (perf --fail): up to @cap link ids into @links; the count
 * (may exceed @cap); *@rerouted (may be NULL) 1 when the loaded LFTs gave
 * way to the subnet manager's re-run (minimal paths, an equal split:
 * perf_fail.c).
 */
uint32_t fl_perf_job_failed(const fl_perf_job *job, fl_id *links, uint32_t cap,
                            int *rerouted);

/** fl_perf_job_hosts() / _rails() — hosts and NICs per host of @job. */
uint32_t fl_perf_job_hosts(const fl_perf_job *job);
uint32_t fl_perf_job_rails(const fl_perf_job *job);

/**
 * fl_perf_run() — model collective @c of @job into *@res (overwritten).
 * Returns FL_OK (routing failures are reported in res->error, not as an
 * error code), FL_EINVAL with @err for a collective that cannot run on
 * this job (sendrecv shift not in 1..n-1, fewer than 2 ranks), FL_ENOMEM.
 * Cost: the generated collectives carry equal bytes per flow, so one pass
 * (perf_fast.c): O(sum over destinations of (flow classes + switches
 * their flows cross)), split over up to 8 threads for LFT routing; steps
 * of unequal bytes would take that per progressive-filling round, rounds
 * = distinct saturation levels + 1 (perf_maxmin.c). docs/perf.md.
 */
int fl_perf_run(const fl_perf_job *job, const fl_wl_coll *c,
                fl_perf_result *res, fl_error *err);

/**
 * fl_perf_flow — one NIC-to-NIC flow of a step: job NIC indexes @src and
 * @dst (NIC r of host h is h * rails + r; fl_perf_job_nic names it) and the
 * @bytes it carries in that step.
 */
typedef struct fl_perf_flow {
  uint32_t src, dst;
  double bytes;
} fl_perf_flow;

/** fl_perf_job_nic_count() — NICs of @job (hosts × rails). */
uint32_t fl_perf_job_nic_count(const fl_perf_job *job);

/**
 * fl_perf_job_nic() — the CA node of job NIC @i (FL_NONE when out of range);
 * its base LID in *@lid and its cabled port id in *@port (either may be
 * NULL).
 */
fl_id fl_perf_job_nic(const fl_perf_job *job, uint32_t i, uint32_t *lid,
                      fl_id *port);

/**
 * fl_perf_step_flows() — the flows one step of collective @c creates on
 * @job, one record per flow (the model's flow classes expanded), in
 * *@flows[*@n] (caller frees with free()), and the number of identical
 * steps in *@steps. Cost O(flows): an all-to-all of n NICs lists n(n−1),
 * so this is for export (perf --dump-flows), not for large fabrics.
 * FL_OK; FL_EINVAL with @err as fl_perf_run; FL_ENOMEM.
 */
int fl_perf_step_flows(const fl_perf_job *job, const fl_wl_coll *c,
                       fl_perf_flow **flows, size_t *n, uint32_t *steps,
                       fl_error *err);

#endif
