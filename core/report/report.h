/* SPDX-License-Identifier: MIT */
/*
 * core/report/report.h — renderers of the sorted findings list (internal).
 * Output is deterministic: the same findings give byte-identical text (no
 * timestamps, no durations, fixed key order, findings in fl_findings_sort()
 * order, rules sorted by id).
 *
 * Set-aside findings (waived by a policy, or matched by a --baseline) are
 * rendered per format (docs/ci.md): text counts waived ones without showing
 * them and marks baseline ones; JSON marks both; SARIF gives waived ones
 * `suppressions` and every result a `baselineState` when a baseline is used;
 * JUnit lists them in <system-out>; Code Quality leaves waived ones out.
 */
#ifndef FABRICLINT_CORE_REPORT_H
#define FABRICLINT_CORE_REPORT_H

#include <stdio.h>

#include "fabriclint/fabric.h"
#include "host/findings.h"

/** Consequences shown under a finding in the text report (host/roots.h);
 * the rest are counted ("and N more"). */
#define FL_TEXT_RELATED_MAX 4u

#define FL_OUT_TEXT        1
#define FL_OUT_JSON        2
#define FL_OUT_SARIF       3
#define FL_OUT_JUNIT       4
#define FL_OUT_CODEQUALITY 5
#define FL_OUT_DOT         6 /* pictures: core/report/picture.h */
#define FL_OUT_SVG         7
#define FL_OUT_HTML        8

/** The "fabric" object of DESIGN.md §2. */
typedef struct fl_fabric_counts {
  uint32_t switches, cas, routers, links;
} fl_fabric_counts;

void fl_fabric_counts_of(const fl_fabric *fab, fl_fabric_counts *c);

/**
 * fl_report_rule — what a renderer needs to know of one rule that ran (or
 * that produced findings, like the policy's own rules). Borrowed strings.
 * @level: the default severity after the policy (FL_SEV_*).
 * @failed / @fail_message: the rule could not run (exit 3).
 * @help_uri: absolute URI of the rule's documentation (SARIF helpUri), or
 *   NULL when it has none (core/cli/cli_docs.c sets it).
 */
typedef struct fl_report_rule {
  const char *id;
  const char *summary;
  const char *help; /* Markdown, may be NULL */
  uint32_t level;
  int failed;
  const char *fail_message;
  const char *help_uri;
} fl_report_rule;

/**
 * fl_report_input — everything the machine formats render. All borrowed.
 * @rules/@n_rules: the rules run, sorted by id (fl_report_rules_sort()).
 * @inputs/@n_inputs: the input files; a finding with no location points at
 *   the first input, line 1, because GitHub code scanning shows only results
 *   with a file and a line.
 * @fail_on: the --fail-on level (JUnit failures are the findings that fail
 *   the run; 4 = never).
 * @baseline_used: a --baseline was applied (SARIF baselineState).
 * @picture: what the picture formats (dot, svg, html) draw besides the
 *   findings: the fabrics, views, focus and provenance; NULL when the
 *   command gives none (those formats then fail with EINVAL).
 */
typedef struct fl_report_input {
  const fl_findings *fs;
  const fl_fabric_counts *counts;
  const fl_report_rule *rules;
  size_t n_rules;
  const char *const *inputs;
  size_t n_inputs;
  size_t rules_run; /* rules that ran (the text summary) */
  uint32_t fail_on;
  int baseline_used;
  int quiet;
  uint32_t max_per_rule; /* text: findings shown per rule, 0 = all */
  const struct fl_report_picture *picture;
  /* May be NULL: receives what the picture renderer (Graphviz) said, for
   * the caller to show (the library prints nothing): @is_error 1 with the
   * message of a render that failed, 0 with a warning of one that
   * succeeded. @msg is borrowed for the call; @ctx is diag_ctx. */
  void (*diag)(void *ctx, int is_error, const char *msg);
  void *diag_ctx;
} fl_report_input;

/** Sort @rules by id (renderers expect it). */
void fl_report_rules_sort(fl_report_rule *rules, size_t n);

/** Parse a --format name into FL_OUT_*; 0 when unknown (core/report/writers.c,
 * the writer registry). */
int fl_report_format_parse(const char *name);

/** fl_report_format_name_at() — the --format name of writer @i of the
 * registry (0-based, in registry order), or NULL past the last: the list
 * the help, man page and shell completion offer. */
const char *fl_report_format_name_at(size_t i);

/**
 * fl_report_write() — render @in in @format to @out with the writer the
 * registry (core/report/writers.c) lists for it; an unknown @format renders
 * text. Returns 0, or -1 on a write error or ENOMEM.
 */
int fl_report_write(FILE *out, int format, const fl_report_input *in);

/**
 * fl_report_text() — one line per finding, in fl_findings_sort() order
 * (errors first), `file:line: severity: message [rule]` (location left out
 * when unknown; the rule id last, as a hint for `fabriclint explain`), then
 * indented node/port lists (at most FL_TEXT_LIST_MAX names each, then "and N
 * more"), then, when any finding counts, a tally per rule (severity, rule,
 * findings; merged instances; how many the cap hid), then a summary line.
 * @max_per_rule > 0 shows at most that many findings of each rule (the tally
 * and summary still count all). @quiet prints only findings. Waived findings
 * are counted in the summary, not shown; baseline findings are shown with a
 * "[baseline]" mark (not with
 * @quiet) and counted apart. Returns 0, or -1 on a write error / ENOMEM.
 */
int fl_report_text(FILE *out, const fl_findings *fs, size_t rules_run,
                   int quiet, uint32_t max_per_rule);

/** Names listed per node/port line of a text finding. */
#define FL_TEXT_LIST_MAX 8u

/**
 * fl_report_json() — the JSON object of DESIGN.md §2 (tool, fabric,
 * findings, summary). Every finding also has "fingerprint"; waived ones
 * "suppressed": {"kind": "waiver", "reason", "expires", "policy"}, baseline
 * ones "baseline": true. The summary counts only active findings, plus
 * "suppressed" and "baseline" totals. Returns 0, or -1 on a write error /
 * ENOMEM.
 */
int fl_report_json(FILE *out, const fl_findings *fs,
                   const fl_fabric_counts *counts);

/**
 * fl_report_sarif() — SARIF 2.1.0 (OASIS), shaped for GitHub code scanning:
 * one run; tool.driver with every rule of @in (id, name, short and full
 * description, help text and Markdown, default level); one result per
 * finding with ruleId/ruleIndex, level, message, a physical location (file
 * URI + region.startLine) and logical locations (nodes, ports), and
 * partialFingerprints from fl_finding_fingerprint(). core/report_sarif.c.
 */
int fl_report_sarif(FILE *out, const fl_report_input *in);

/**
 * fl_report_junit() — JUnit XML: one <testcase> per rule run (classname =
 * plugin, name = rule id), failing with the list of its findings at or above
 * --fail-on; an <error> when the rule could not run. core/report_junit.c.
 */
int fl_report_junit(FILE *out, const fl_report_input *in);

/**
 * fl_report_codequality() — GitLab Code Quality JSON (CodeClimate subset):
 * an array of {description, check_name, fingerprint, severity, location}.
 * core/report_codequality.c.
 */
int fl_report_codequality(FILE *out, const fl_report_input *in);

/** fl_report_occurrences() — for each finding of @fs, 1 + the number of
 * earlier findings with the same fingerprint (caller frees; NULL on ENOMEM).
 * O(n log n). core/report_sarif.c. */
unsigned *fl_report_occurrences(const fl_findings *fs);

/** SARIF / Code Quality level names of a severity. */
const char *fl_report_sarif_level(uint32_t sev);

/** A JSON string of @s (NULL: ""); bytes that are not UTF-8 become '?',
 * since jansson refuses invalid UTF-8 and node names come from any file. */
struct json_t *fl_report_jstr(const char *s);

/** The location to show for @r: its own, else the first input, line 1. */
void fl_report_location(const fl_report_input *in, const fl_finding_rec *r,
                        const char **file, uint32_t *line, uint32_t *col);

#endif
