/* SPDX-License-Identifier: MIT */
/*
 * core/io/workload.h — the job description read by `fabriclint perf`
 * (docs/perf.md): the hosts of a training job in rank order and the
 * collectives it runs. A workload is not a fabric format: it has its own
 * reader (workload.c), not a row in the format registry.
 *
 * Grammar (YAML, one document; unknown keys are errors):
 *
 *     hosts: [gpu00, gpu01, ...]     # ranks in order, or `all`
 *                                    # (or a count N with placements:)
 *     placements: {count: 64, seed: 1, from: all}   # optional
 *     routing: auto                  # auto | lft | ar
 *     min-share: 0.9                 # contention finding below this ratio
 *     collectives:
 *       - {op: sendrecv, shift: 4, bytes: 1073741824}
 *       - {op: all-to-all, bytes: 1GiB}
 *       - {op: all-reduce, algorithm: ring, bytes: 1073741824, name: grads}
 *     training: {model: {...}, parallelism: {...}, gpu: {...}}
 *                                    # instead of collectives: one
 *                                    # training step (perf --job)
 *
 * Internal to the library; the CLI is its one caller.
 */
#ifndef FABRICLINT_CORE_IO_WORKLOAD_H
#define FABRICLINT_CORE_IO_WORKLOAD_H

#include <stddef.h>
#include <stdint.h>

#include "fabriclint/error.h"
#include "fabriclint/types.h"

/** Collective operations (fl_wl_coll.op). */
enum {
  FL_WL_ALL_REDUCE = 1,
  FL_WL_ALL_GATHER,
  FL_WL_REDUCE_SCATTER,
  FL_WL_ALL_TO_ALL,
  FL_WL_SENDRECV
};

/** Routing the flows follow (fl_workload.routing). */
enum {
  FL_WL_ROUTE_AUTO = 0, /**< the loaded LFTs when present, else AR */
  FL_WL_ROUTE_LFT,      /**< the loaded LFTs (static, per destination LID) */
  FL_WL_ROUTE_AR,       /**< load-aware adaptive routing: each switch splits
                             over its minimal next hops by their load per
                             Gb/s, to a fixed point (perf_ar.c) */
  FL_WL_ROUTE_SPRAY     /**< oblivious spraying: an equal split over every
                             minimal next hop */
};

/** Most hosts and collectives one workload may list (caps on input size). */
#define FL_WL_MAX_HOSTS       1048576u
#define FL_WL_MAX_COLLECTIVES 4096u

/**
 * fl_wl_coll — one collective: @op (FL_WL_*), @bytes (NCCL-tests "size":
 * the per-rank buffer for all-reduce, all-to-all and sendrecv, the total
 * output for all-gather, input for reduce-scatter), @shift (sendrecv: rank
 * i sends to rank i + shift mod n), @name (label or NULL, owned by the
 * workload), and where it was written (@line, @col, 1-based).
 */
typedef struct fl_wl_coll {
  uint32_t op;
  uint64_t bytes;
  int64_t shift;
  char *name;
  uint32_t line, col;
} fl_wl_coll;

/** Rank order inside a placement (fl_wl_placements.order). */
enum {
  FL_WL_ORDER_POOL = 0, /**< ranks follow the pool's order (a scheduler's
                             sorted node list) */
  FL_WL_ORDER_RANDOM    /**< ranks in the order the hosts were drawn */
};

/** Most placements one workload may ask for (a cap on run time). */
#define FL_WL_MAX_PLACEMENTS 65536u

/** Most host-collectives one workload may ask for: placements (1 without
 * `placements:`) x collectives x the job's hosts. Each is one host's share
 * of one modelled collective; 2^24 of them is about 4 minutes of CPU on a
 * 128-host fat tree (0.22 ms per 128-host collective, docs/perf.md). The
 * caps above alone allow 65,536 x 4,096 x 1,048,576. */
#define FL_WL_MAX_WORK 16777216ull

/**
 * fl_wl_placements — `placements:` (docs/perf.md, "Placements"): the job's
 * @job_hosts hosts (`hosts: N`) are placed @count times on hosts drawn at
 * random from a pool, placement i from (@seed, i) alone. @on 0: absent
 * (the hosts are the `hosts:` list). Pool: @from_all (every host of the
 * fabric, in name order) or @from[@n_from] (names, with @from_line[] and
 * @from_col[] of each). @order FL_WL_ORDER_*; @percentile in [0, 100): the
 * placement judged against min-share is this percentile of the busbw
 * ratio from the bottom (0: the worst); @index >= 0: evaluate placement
 * @index alone (reproduce one), else -1. @line/@col: the `placements:`
 * value; @hosts_line/@hosts_col: the `hosts:` value.
 */
typedef struct fl_wl_placements {
  int on;
  uint32_t count;
  uint64_t seed;
  int from_all;
  char **from;
  size_t n_from;
  uint32_t *from_line, *from_col;
  uint32_t order;
  double percentile;
  int64_t index;
  uint32_t job_hosts;
  uint32_t line, col, hosts_line, hosts_col;
} fl_wl_placements;

/**
 * fl_wl_training — `training:` (docs/perf.md, "Training step"; issue 35):
 * one training step of a transformer, modelled by perf_step.c. @on 0 when
 * absent. Model: @params (all parameters), @layers, @hidden, @seq_len
 * (tokens per sequence), @global_batch and @micro_batch (sequences),
 * @precision_bytes (activations and parameters, 2 for bf16) and
 * @grad_bytes (gradients as reduced; default @precision_bytes); MoE:
 * @moe_layers (layers with experts; default every layer when ep > 1) and
 * @top_k (experts per token, default 1). Parallelism: @tp, @pp, @dp, @cp,
 * @ep (a divisor of dp: expert parallelism over data-parallel ranks), @zero
 * (ZeRO stage 0..3), @bucket_bytes (the DP gradient bucket; 0: Megatron's
 * max(40 M, 1 M × dp × cp) parameters × grad_bytes). GPU: @peak_tflops
 * (dense peak, 10^12 FLOP/s), @mfu in (0, 1], @per_server (GPUs per
 * server; 0: host profile, else 8), @scale_up_GBps (per GPU per direction
 * inside the NVLink domain, GB/s).
 * Checkpoint (`checkpoint:`, optional; @ckpt_bytes 0 when absent): the
 * whole checkpoint @ckpt_bytes (all ranks together) written by the job's
 * hosts to the storage hosts @ckpt_storage[@n_ckpt_storage] (names as in
 * `hosts:`, not the job's own; @ckpt_line[i]/@ckpt_col[i] of each), owned
 * (fl_workload_free); @ckpt_at_line/@ckpt_at_col: the `checkpoint:` value.
 * @line/@col: the `training:` value.
 */
typedef struct fl_wl_training {
  int on;
  double params, layers, hidden, seq_len, global_batch, micro_batch;
  double precision_bytes, grad_bytes, moe_layers, top_k;
  uint32_t tp, pp, dp, cp, ep, zero;
  double bucket_bytes;
  double peak_tflops, mfu, scale_up_GBps;
  uint32_t per_server;
  double ckpt_bytes;
  char **ckpt_storage;
  uint32_t n_ckpt_storage;
  uint32_t *ckpt_line, *ckpt_col;
  uint32_t ckpt_at_line, ckpt_at_col;
  uint32_t line, col;
} fl_wl_training;

/** Most storage hosts a `checkpoint:` names. */
#define FL_WL_MAX_STORAGE 4096u

/**
 * fl_workload — a parsed job. @hosts[@n_hosts] are host names in rank order
 * (@all_hosts: `hosts: all`, the caller fills in every host of the fabric);
 * @colls[@n_colls]; @routing FL_WL_ROUTE_*; @min_share in (0, 1] (default
 * 0.9); @path the file name. Everything is owned by the struct: free with
 * fl_workload_free().
 */
typedef struct fl_workload {
  char *path;
  char **hosts;
  size_t n_hosts;
  int all_hosts;
  uint32_t *host_line; /**< [n_hosts] line of each host name */
  uint32_t *host_col;  /**< [n_hosts] its column (owned; the placements'
                            pool view, a copy not freed, points it at
                            place.from_col) */
  fl_wl_coll *colls;
  size_t n_colls;
  uint32_t routing;
  double min_share;
  fl_wl_placements place; /**< `placements:`; place.on 0 when absent */
  fl_wl_training train;   /**< `training:`; train.on 0 when absent (then
                               `collectives:` is required, and with it
                               refused) */
  char **fail; /**< [n_fail] switches or "SWITCH port N" cables taken out
                    (`perf --fail`; set by the caller, not the file) */
  size_t n_fail;
} fl_workload;

/**
 * fl_workload_parse() — parse YAML @text (@len bytes) named @name into @w
 * (overwritten). Returns FL_OK, FL_EPARSE with @err naming @name:line:col
 * and what was expected, or FL_ENOMEM. On error @w holds nothing to free
 * beyond what fl_workload_free() releases (call it either way).
 */
int fl_workload_parse(fl_workload *w, const char *name, const char *text,
                      size_t len, fl_error *err);

/** fl_workload_load() — read file @path and fl_workload_parse() it. */
int fl_workload_load(fl_workload *w, const char *path, fl_error *err);

/** fl_workload_free() — release everything @w owns; zeroes it. */
void fl_workload_free(fl_workload *w);

/** fl_wl_routing_parse() — FL_WL_ROUTE_* of the word @s ("auto", "lft",
 * "ar", "spray"), -1 for any other (or NULL). */
int fl_wl_routing_parse(const char *s);
/** fl_wl_routing_name() — the word of FL_WL_ROUTE_* @routing ("?" if
 * unknown); a static string. */
const char *fl_wl_routing_name(uint32_t routing);

/** fl_wl_op_name() — "all-reduce", ... for FL_WL_* @op ("?" if unknown). */
const char *fl_wl_op_name(uint32_t op);

#endif
