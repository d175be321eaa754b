/* SPDX-License-Identifier: MIT */
/*
 * core/cli/cli_perf_out.h — report pieces shared by `fabriclint perf`'s
 * single-placement report (cli_perf.c) and its placements report
 * (cli_perf_place.c): a bottleneck link as text and as JSON, the head of
 * a collective's JSON object.
 */
#ifndef FABRICLINT_CORE_CLI_PERF_OUT_H
#define FABRICLINT_CORE_CLI_PERF_OUT_H

#include <stddef.h>
#include <stdio.h>

#include <jansson.h>

#include "analysis/perf.h"

/** fl_cli_perf_link_text() — "A port 1 -> B port 2" for bottleneck @b of
 * fabric @f into @buf (@n bytes, truncated). */
void fl_cli_perf_link_text(const fl_fabric *f, const fl_perf_bottleneck *b,
                           char *buf, size_t n);

/** fl_cli_perf_json_bottleneck() — the JSON object of bottleneck @b (the
 * report's `bottlenecks[]` entry: link, from, from_port, to, to_port,
 * capacity_gbps, flow_count, share_gbps, flows[]); new reference. */
json_t *fl_cli_perf_json_bottleneck(const fl_fabric *f,
                                    const fl_perf_bottleneck *b);

/** fl_cli_perf_text_bottlenecks() — the text lines of @r's bottlenecks and
 * their example flows ("  bottleneck L: k flows share C Gb/s ..."). */
void fl_cli_perf_text_bottlenecks(FILE *o, const fl_fabric *f,
                                  const fl_perf_result *r);

/** fl_cli_perf_routing_name() — "lft", "ar" or "spray" for a job's
 * FL_WL_ROUTE_* (the report's `routing`). Static storage. */
const char *fl_cli_perf_routing_name(uint32_t routing);

/** fl_cli_perf_text_ar() — under AR routing whose split @a did not reach
 * its fixed point, the line "@indent note: ..." saying so on @o; nothing
 * otherwise. */
void fl_cli_perf_text_ar(FILE *o, const char *indent, uint32_t routing,
                         const fl_perf_ar *a);
/** fl_cli_perf_json_ar() — under AR routing, key `ar` {sweeps, converged,
 * residual} of @a set in @j (borrowed); nothing otherwise. */
void fl_cli_perf_json_ar(json_t *j, uint32_t routing, const fl_perf_ar *a);

/** fl_cli_perf_text_fail() — under `--fail`, the lines naming the cables
 * @job runs without (at most 8, then a count) and, where loaded LFTs gave
 * way to the subnet manager's re-run, how that is modelled; nothing
 * without failures. */
void fl_cli_perf_text_fail(FILE *o, const fl_fabric *f, const fl_perf_job *job);
/** fl_cli_perf_json_fail() — under `--fail`, keys `failed` (every cable
 * taken out, "A port 1 - B port 2") and `rerouted` (the LFTs replaced by
 * the SM's re-run) set in @root (borrowed); nothing without failures. */
void fl_cli_perf_json_fail(json_t *root, const fl_fabric *f,
                           const fl_perf_job *job);

/** fl_cli_perf_json_num() — @x as a JSON real, or null when it is not
 * finite (an unroutable collective's infinite step time); new reference. */
json_t *fl_cli_perf_json_num(double x);

/** fl_cli_perf_json_head() — set the keys that open a collective's JSON
 * object in both reports, from result @r: op, name (when named), bytes,
 * ranks, routing. @j is borrowed. */
void fl_cli_perf_json_head(json_t *j, const fl_perf_result *r);

/** fl_cli_perf_degraded_note() — "; the cable A port 1 -> B port 2 runs
 * at 100 Gb/s, below its nominal 200 Gb/s" for the first bottleneck of @r
 * below its nominal rate (perf_nominal.c) into @buf (@n bytes), else "". */
void fl_cli_perf_degraded_note(const fl_fabric *f, const fl_perf_result *r,
                               char *buf, size_t n);
/** fl_cli_perf_text_nccl() — the "  nccl ..." lines of @r (its NCCL
 * prediction, GB/s) on @o; nothing when no algorithm is modelled. */
void fl_cli_perf_text_nccl(FILE *o, const fl_perf_result *r);
/** fl_cli_perf_json_nccl() — @r's NCCL prediction as a new JSON object:
 * `algorithm` (NCCL's pick), `time_s`, `algbw_GBps`, `busbw_GBps` of it,
 * and `algorithms` {name: {latency_us, efficiency, time_s, algbw_GBps,
 * busbw_GBps}} for every modelled one. */
json_t *fl_cli_perf_json_nccl(const fl_perf_result *r);

#endif
