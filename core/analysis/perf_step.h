/* SPDX-License-Identifier: MIT */
/*
 * core/analysis/perf_step.h — the training-step model (issue 35, item 1;
 * docs/performance-model.md, "Training step"): a workload's `training:`
 * section (model shape, parallelism, GPU) placed on the job's GPUs, its
 * communicators and their traffic per step, the inter-node ones run at
 * once on the fabric with the max-min flow model (perf_maxmin.c), and the
 * step time = compute + exposed communication. Internal to the library;
 * `fabriclint perf --job` is the caller.
 */
#ifndef FABRICLINT_CORE_ANALYSIS_PERF_STEP_H
#define FABRICLINT_CORE_ANALYSIS_PERF_STEP_H

#include <stdint.h>

#include "analysis/perf.h"
#include "fabriclint/error.h"
#include "io/workload.h"

/** Phases of a step, one per kind of communicator (fl_step_result.ph[]). */
enum {
  FL_STEP_TP = 0, /**< tensor parallel: all-reduce of activations */
  FL_STEP_CP,     /**< context parallel: all-gather / reduce-scatter of K, V */
  FL_STEP_EP,     /**< expert parallel: all-to-all of routed tokens */
  FL_STEP_PP,     /**< pipeline parallel: send/recv between stages */
  FL_STEP_DP,     /**< data parallel: gradient reduction (ZeRO stage) */
  FL_STEP_PHASES
};

/** Most collectives of one phase (ZeRO-3's DP: all-gather ×2 + RS). */
#define FL_STEP_MAX_OPS 3u

/**
 * fl_step_op — one kind of collective of a phase: @op (FL_WL_*), @bytes
 * its nccl-tests size (per rank for all-reduce, all-to-all and sendrecv,
 * the total output of all-gather, the input of reduce-scatter), @count how
 * many a GPU runs per step, @time_s the time of one (s).
 */
typedef struct fl_step_op {
  uint32_t op;
  double bytes, count, time_s;
} fl_step_op;

/**
 * fl_step_phase — one phase: @on 0 when its parallelism is 1 (no
 * traffic). @ranks per communicator, @groups communicators, @hosts a
 * communicator spans (1: inside a server, carried by the scale-up domain
 * at the job's scale_up_GBps; more: on the fabric). @ops[@n_ops].
 * Per GPU per step: @bytes = Σ count × bytes (nccl-tests sizes),
 * @wire_bytes = Σ count × bytes × busbw factor (what ring algorithms send).
 * Times (s, per step): @time_s with the other fabric phases running at
 * once (the step uses it), @alone_s the phase alone on the fabric,
 * @ideal_s alone on a non-blocking crossbar at the cables' nominal rates;
 * @exposed_s the part not hidden behind compute. @busbw_GBps: nccl-tests'
 * bus bandwidth of the phase's collectives at @time_s (GB/s), @rate_gbps
 * its slowest flow (Gb/s; 0 inside a server). @bottlenecks[@n_bottlenecks]
 * the links saturated at that rate carrying the phase's flows (concurrent
 * run), most of the phase's flows first; empty when @time_s is at @ideal_s.
 * @alone[@n_alone]: the same for the phase alone (empty when @alone_s is
 * at @ideal_s): what the fabric or its routing, not the other phases,
 * takes from it.
 */
typedef struct fl_step_phase {
  int on, fabric;
  uint32_t ranks, groups, hosts;
  uint32_t n_ops;
  fl_step_op ops[FL_STEP_MAX_OPS];
  double bytes, wire_bytes;
  double time_s, alone_s, ideal_s, exposed_s;
  double busbw_GBps, rate_gbps;
  uint32_t n_bottlenecks, n_alone;
  fl_perf_bottleneck bottlenecks[FL_PERF_MAX_BOTTLENECKS];
  fl_perf_bottleneck alone[FL_PERF_MAX_BOTTLENECKS];
} fl_step_phase;

/**
 * fl_step_ckpt — a checkpoint written while the job trains (`checkpoint:`
 * of the job; @on 0 without one). The job's @writers hosts (those holding
 * its GPUs) write @bytes in all, each its share over each of its NICs to
 * each of the @storage_nics NICs of the @storage hosts: @flows flows of
 * @flow_bytes each, at once. Times (s): @alone_s with nothing else on the
 * fabric, @ideal_s on the nominal crossbar, @during_s with every fabric
 * phase of the step running at once beside it (an upper bound: the phases
 * are taken to run throughout); @rate_alone_gbps and @rate_during_gbps
 * its slowest flow (Gb/s). A writer NIC's share is split over the storage
 * NICs it can reach (its plane's), so flows may differ: @flow_bytes is
 * the largest, @flows how many. @ph_during_s[p] each phase's time while
 * the checkpoint runs (from the same solution); @step_during_s the step
 * it overlaps: at that pace for @during_s, at its own for the rest of its
 * work (the whole step at that pace when the checkpoint lasts longer). @bottlenecks[@n_bottlenecks]: the links holding the checkpoint
 * alone (empty at its ideal).
 */
typedef struct fl_step_ckpt {
  int on;
  double bytes, flow_bytes, flows;
  uint32_t writers, storage, storage_nics;
  double alone_s, ideal_s, during_s, step_during_s;
  double rate_alone_gbps, rate_during_gbps;
  double ph_during_s[FL_STEP_PHASES];
  uint32_t n_bottlenecks;
  fl_perf_bottleneck bottlenecks[FL_PERF_MAX_BOTTLENECKS];
  char error[512]; /* non-empty: its flows cannot be routed (the step's
                      figures stand; the times above are then zero) */
} fl_step_ckpt;

/**
 * fl_step_result — one step. @gpus = tp × cp × pp × dp on the job's first
 * @hosts_used of @hosts hosts, @per_server GPUs each (@per_server_from:
 * "job", "host profile" or "default"), @rails NICs each. @micro_batches
 * per pipeline per step, @tokens per step, @flops = 6 × params × tokens,
 * @compute_s = flops / (gpus × peak × mfu), of it @backward_s (2/3).
 * DP: @dp_buckets, @dp_window_s (the compute the DP phase may hide
 * behind), @overlap (0: --no-overlap). @comm_s the exposed communication,
 * @step_s = compute + comm (every fabric phase at once: the upper bound);
 * @comm_alone_s and @step_alone_s the same with each phase alone on the
 * fabric (the lower bound). @routing FL_WL_ROUTE_LFT, _AR or _SPRAY; @ar
 * how AR's split of the phases at once converged. @error
 * non-empty: the flows could not be routed (times then zero).
 */
typedef struct fl_step_result {
  uint32_t gpus, hosts, hosts_used, per_server, rails;
  const char *per_server_from;
  double micro_batches, tokens, flops, compute_s, backward_s;
  double dp_buckets, dp_window_s;
  int overlap;
  fl_step_phase ph[FL_STEP_PHASES];
  double comm_s, step_s, comm_alone_s, step_alone_s;
  uint32_t routing;
  fl_perf_ar ar; /* AR: the split's fixed point of every phase at once */
  fl_step_ckpt ckpt;
  char error[512];
} fl_step_result;

/**
 * fl_perf_step() — model training step @t on @job (its hosts in rank
 * order, resolved by fl_perf_job_new). Ranks: tp innermost, then cp, pp,
 * dp (rank = tp + TP(cp + CP(pp + PP dp))), GPU g of host h is rank
 * h × per_server + g, its NIC the host profile's pairing, else NIC
 * g × rails / per_server. @overlap 1: DP hidden behind backward but for
 * its last bucket. Fills *@res. FL_OK (a routing failure is in
 * res->error); FL_EINVAL with @err when the job has too few GPUs; FL_ENOMEM.
 * Cost: one max-min run of every fabric phase together (pf_maxmin, rounds
 * = distinct saturation levels + 1) and two one-pass runs per phase.
 */
int fl_perf_step(const fl_perf_job *job, const fl_wl_training *t, int overlap,
                 fl_step_result *res, fl_error *err);

/** fl_step_phase_name() — "tp", "cp", "ep", "pp", "dp" ("?" otherwise). */
const char *fl_step_phase_name(uint32_t p);

#endif
