/* SPDX-License-Identifier: MIT */
/*
 * core/cli/cli_compare.h — the parts of `fabriclint compare` (internal to
 * the CLI; docs/cli.md "compare"):
 *
 *   cli_compare.c        the command: options, loading both sides, running
 *                        the rules, --fail-on, exit code;
 *   cli_compare_model.c  the comparison as one JSON document (inventory,
 *                        capacity, findings new / fixed / unchanged, delta),
 *                        the document `--format json` prints
 *                        (schema/compare.schema.json);
 *   cli_compare_out.c    the text and Markdown renderings of that document;
 *   cli_compare_perf.c   --workload: the job's collectives modelled on each
 *                        side, their bus bandwidth and bottleneck.
 *
 * Every figure is computed once, into the document; the renderers and the
 * --fail-on policies read it, so the three formats and the exit code never
 * disagree.
 */
#ifndef FABRICLINT_CORE_CLI_COMPARE_H
#define FABRICLINT_CORE_CLI_COMPARE_H

#include <stdio.h>

#include <jansson.h>

#include "analysis/perf.h"
#include "cli/cli_common.h"
#include "fabriclint/fabric.h"
#include "host/findings.h"
#include "io/workload.h"

/** The rule whose finding carries the capacity figures (its evidence:
 * per tier down/up Gb/s and oversubscription, and the traffic eBB). */
#define FL_CMP_SUMMARY_RULE "ecmp-balance.summary"

/** The opt-in rule whose findings (one per failure-domain key) give the
 * worst single rack, row, hall, PDU or feed failure; compare runs it on
 * both sides, as the capacity summary. */
#define FL_CMP_DOMAINS_RULE "failure-domains.summary"

/** The rule whose figures (parameter figures=true: one info finding per
 * subnet, each plane its own, evidence "figures": true) give the unicast
 * LIDs each subnet needs; compare runs it on both sides when the selection
 * did not (its findings then not compared), as the capacity summary. */
#define FL_CMP_LIDS_RULE "topology.lid-space"

/** The rule whose findings say which single switch cuts endpoints off. */
#define FL_CMP_SPOF_RULE "failure-domains.single-point"

/** The worst single switch failure of a side, from the findings of
 * FL_CMP_SPOF_RULE (evidence kind "switch", cut_off_endpoints). */
typedef struct fl_cmp_failure {
  uint32_t switches;  /* switches whose loss cuts endpoints off */
  uint32_t worst_cut; /* the most endpoints one switch's loss cuts off */
  char worst[256];    /* that switch ("" when none) */
} fl_cmp_failure;

/**
 * fl_cmp_failure_of() — fill @out from the findings @fs of one run (before
 * findings are merged per cause); 0, or -1 when an evidence does not parse.
 */
int fl_cmp_failure_of(const fl_findings *fs, fl_cmp_failure *out);

/** One side of the comparison, as the model reads it (all borrowed). */
typedef struct fl_cmp_side {
  const char *input;            /* the operand, as given */
  const fl_fabric *fab;         /* finalized */
  const fl_findings *fs;        /* settled (fl_cli_settle_findings), without the
                                   summary finding */
  const fl_findings *summaries; /* the ecmp-balance.summary findings, one
                                   per plane; none when the plugin is not
                                   loaded or the rule disabled */
  const fl_cmp_failure *failure;   /* NULL when FL_CMP_SPOF_RULE did not run */
  const struct fl_bom_total *cost; /* its bill of materials priced by
                                      --catalogue, or NULL without one */
  const json_t *workload;          /* fl_cmp_workload_json(), or NULL without
                                      --workload */
  const fl_findings *domains;      /* FL_CMP_DOMAINS_RULE's findings, or NULL
                                      when it did not run */
  const fl_findings *lids;         /* FL_CMP_LIDS_RULE's figures (and, when
                                      it ran for them only, its findings),
                                      or NULL when it did not run */
} fl_cmp_side;

/**
 * fl_cmp_model() — the comparison of @base and @head as a JSON object
 * (schema/compare.schema.json): "base" and "head" (input, inventory,
 * capacity, failure, domain_failures, lid_space, cost and workload when a
 * side has them, findings by severity), "delta"
 * (HEAD minus BASE of every count and figure; "workload": per collective,
 * index by index), "renamed" (HEAD nodes read under
 * their BASE name: the same non-zero node GUID, another name), "findings" (new,
 * fixed, unchanged). Findings are matched by fingerprint
 * (fl_finding_fingerprint) after HEAD's renamed node names in a finding's key
 * are replaced by their BASE names; as a multiset (two identical findings match
 * two). Waived findings are counted, not matched. Returns a new reference, or
 * NULL on ENOMEM. Cost O(nodes + links + findings log findings + key lengths).
 */
json_t *fl_cmp_model(const fl_cmp_side *base, const fl_cmp_side *head);

/**
 * fl_cmp_side_json() — one side's document as fl_cmp_model() gives it under
 * "base" and "head": input, inventory, capacity, failure, domain_failures,
 * lid_space, cost and workload when it has them, findings by severity. New
 * reference, or NULL (ENOMEM).
 */
json_t *fl_cmp_side_json(const fl_cmp_side *s);

struct fl_bom_cat;
/**
 * fl_cmp_eval() — load @input (called @name in the document and in
 * messages, or @input when NULL) and evaluate it as compare evaluates a side
 * (options @o: plugins, policy, rules, params; the capacity and domain
 * summaries; the bill of materials priced by @cat when not NULL; the
 * collectives of @wl when not NULL) into *@out, its fl_cmp_side_json().
 * 0, or an exit code with the message printed (*@out NULL).
 */
int fl_cmp_eval(const fl_cli_opts *o, const char *input, const char *name,
                const struct fl_bom_cat *cat, const fl_workload *wl,
                json_t **out);

/** A --fail-on policy (docs/cli.md "compare"). */
typedef struct fl_cmp_policy {
  int kind;         /* FL_CMP_FAIL_* */
  double tolerance; /* oversubscription-rise=X, ebb-drop=X; busbw-drop=X,
                       cost-rise=X, power-rise=X (fractions of BASE's
                       figure); 0 by default */
  char text[64];    /* as given, for the report */
} fl_cmp_policy;

enum {
  FL_CMP_FAIL_NEVER = 1,
  FL_CMP_FAIL_NEW_ERROR,
  FL_CMP_FAIL_NEW_WARNING,
  FL_CMP_FAIL_OVERSUB_RISE,
  FL_CMP_FAIL_EBB_DROP,
  FL_CMP_FAIL_BUSBW_DROP,
  FL_CMP_FAIL_COST_RISE,
  FL_CMP_FAIL_POWER_RISE,
  FL_CMP_FAIL_STEP_RISE,
};

/**
 * fl_cmp_policy_parse() — one policy of --fail-on @s ("new-error",
 * "oversubscription-rise=0.5", ...) into @p. 0, or -1 with a message in
 * @msg (@size bytes) naming what was expected.
 */
int fl_cmp_policy_parse(const char *s, fl_cmp_policy *p, char *msg,
                        size_t size);

/**
 * fl_cmp_judge() — judge the policies @ps (@n) on model @m: adds "fail_on"
 * to @m, one object per policy {policy, failed, why}. Returns 1 when a
 * policy failed, 0 when none did, -1 on ENOMEM.
 */
int fl_cmp_judge(json_t *m, const fl_cmp_policy *ps, size_t n);

/**
 * fl_cmp_workload_load() — read workload @path into @w (zeroed; the caller
 * frees it with fl_workload_free()) for compare: a list of collectives or
 * a training step on one placement (`placements:` is refused). 0, or
 * FL_EXIT_USAGE with the error printed (file:line:col).
 */
int fl_cmp_workload_load(const char *path, fl_workload *w);

/**
 * fl_cmp_workload_json() — model every collective of @w on finalized
 * fabric @fab (the side named @input) with --jobs from @o: {file, hosts,
 * nics_per_host, collectives: [{op, name, label, bytes, ranks, routing,
 * busbw_GBps, ideal_busbw_GBps, ratio, time_s, nccl_busbw_GBps (GB/s,
 * 10^9 B/s; null without fabric traffic), bottleneck_links, bottleneck
 * (perf's JSON of the first, or null), error when it cannot be routed}]}.
 * New reference; NULL with *@rc FL_EXIT_USAGE and the error printed (a host
 * of @w missing on this side, a collective that cannot run). Cost: perf's
 * per collective (docs/perf.md).
 */
json_t *fl_cmp_workload_json(const fl_cli_opts *o, const fl_workload *w,
                             const fl_fabric *fab, const char *input, int *rc);

/** fl_cmp_workload_delta() — {collectives: [{label, busbw_GBps, ...}]}:
 * HEAD minus BASE of each figure of @b and @h (fl_cmp_workload_json()),
 * collective by index, null where a side has none. New reference or NULL
 * (ENOMEM). */
json_t *fl_cmp_workload_delta(const json_t *b, const json_t *h);

/**
 * fl_cmp_judge_busbw() — busbw-drop=@tol on model @m: the largest relative
 * fall of a collective's fabric busbw, (BASE − HEAD) / BASE, over the
 * collectives with fabric traffic in BASE (one that cannot be routed in
 * HEAD has lost all of it). 1 failed (a fall above @tol), 0 held, 2 cannot
 * be judged (no --workload); @why (@size bytes) names the collective and
 * both figures.
 */
int fl_cmp_judge_busbw(const json_t *m, double tol, char *why, size_t size);

/**
 * fl_cmp_step_json() — the training step of @w (w->train.on) on @job (the
 * side named @input): {gpus, hosts_used, routing, step_time_s (null when
 * the flows cannot be routed, then error), compute_s, comm_s,
 * step_time_alone_s, phases: [{phase, scope, time_s, alone_s, ideal_s,
 * exposed_s}]} (s; perf --job's figures, DP overlapped). New reference;
 * NULL with *@rc FL_EXIT_USAGE and the error printed.
 */
json_t *fl_cmp_step_json(const fl_perf_job *job, const fl_workload *w,
                         const char *input, int *rc);
/** fl_cmp_step_phase() — the phase named @name ("tp", ... "dp") in the
 * `phases` array @ps of fl_cmp_step_json(), or NULL; borrowed. */
const json_t *fl_cmp_step_phase(const json_t *ps, const char *name);
/** fl_cmp_num_delta() — HEAD minus BASE of member @k of objects @b and @h
 * as a new JSON real (0 when its magnitude is below @zero), or JSON null
 * unless both are numbers. */
json_t *fl_cmp_num_delta(const json_t *b, const json_t *h, const char *k,
                         double zero);
/** fl_cmp_step_delta() — HEAD minus BASE of the step figures of @b and @h
 * (fl_cmp_step_json()): step_time_s, compute_s, comm_s, step_time_alone_s
 * and phases[{phase, time_s, exposed_s}] by phase name; null where a side
 * has none. New reference. */
json_t *fl_cmp_step_delta(const json_t *b, const json_t *h);
/**
 * fl_cmp_judge_step() — step-rise=@tol on model @m: the step time's rise
 * (HEAD − BASE) / BASE. 1 failed (above @tol, or HEAD cannot be routed), 0
 * held, 2 cannot be judged (no training step, or BASE cannot be routed);
 * @why (@size bytes) gives both figures.
 */
int fl_cmp_judge_step(const json_t *m, double tol, char *why, size_t size);

/** fl_cmp_counts_text() — "N (E error, W warning, I info)" into @buf (@size
 * bytes, truncated safely) from a findings counts object
 * ({"error","warning","info"} integers; a missing key counts 0): the one
 * wording of compare's text, Markdown and HTML outputs. */
void fl_cmp_counts_text(const json_t *cn, char *buf, size_t size);

/** fl_cmp_write_text() / fl_cmp_write_markdown() — render model @m (with
 * its "fail_on") to @out; 0, or -1 on a write error (errno set). @quiet:
 * the delta and the new findings only. */
int fl_cmp_write_text(FILE *out, const json_t *m, int quiet);
int fl_cmp_write_markdown(FILE *out, const json_t *m, int quiet);

/** fl_cmp_write_table_html() — the rows of the Markdown table (the same
 * figures, in the same order) as the <tbody> rows of an HTML table, every
 * text from the input escaped. */
void fl_cmp_write_table_html(FILE *out, const json_t *m);

struct fl_report_input;
/**
 * fl_cmp_write_html() — `compare --format html` (cli_compare_html.c): one
 * self-contained page with the headline, the summary table
 * (fl_cmp_write_table_html()), the tiers picture of each side side by side
 * (@pic[0] BASE, @pic[1] HEAD: its fabric and findings, drawn by
 * fl_report_svg_embed()), the new and fixed findings and the --fail-on
 * verdicts. 0, or -1 on a write error or a picture Graphviz refused
 * (errno set).
 */
int fl_cmp_write_html(FILE *out, const json_t *m,
                      const struct fl_report_input *const pic[2]);

#endif
