/* SPDX-License-Identifier: MIT */
/*
 * core/host/findings.h — the sorted list of findings every renderer prints
 * (internal). Findings own copies of everything (names, not ids), so they
 * outlive the rule run and render identically from any fabric.
 *
 * A finding can be set aside in two ways, and renderers treat both alike:
 * they are still listed (SARIF `suppressions` / `baselineState`, JSON
 * markers), but they never count for --fail-on or the summary's totals.
 *  - waived: a policy waiver (core/policy.h) matches it; the waiver's reason,
 *    expiry and policy location are kept for the SARIF justification.
 *  - baseline: its fingerprint is in the --baseline file (core/baseline.h).
 */
#ifndef FABRICLINT_CORE_FINDINGS_H
#define FABRICLINT_CORE_FINDINGS_H

#include <stddef.h>
#include <stdint.h>

#include "host/fix.h"

typedef struct fl_port_name {
  char *node;
  uint32_t port;
  char *label; /* the port's label ("Ethernet1/3", "swp3"), or NULL */
} fl_port_name;

/** Why a finding is set aside (fl_finding_rec.waived / .baseline). */
typedef struct fl_waiver_note {
  char *reason;  /* the waiver's `reason` */
  char *expires; /* YYYY-MM-DD */
  char *where;   /* "policy.yaml:12:5", the waiver's position */
} fl_waiver_note;

typedef struct fl_finding_rec {
  char *rule;
  uint32_t severity;
  char *message;
  char **nodes;
  uint32_t n_nodes;
  fl_port_name *ports;
  uint32_t n_ports;
  char *evidence; /* compact JSON object with sorted keys, or NULL */
  char *file;     /* location; NULL when unknown */
  uint32_t line, col;
  char *key;       /* baseline fingerprint material */
  char *cause;     /* fl_finding.cause, or NULL: never merged */
  char *cause_msg; /* fl_finding.cause_message ("{count}" not replaced) */
  uint32_t merged; /* members merged into this finding (0: not merged) */
  fl_fix_rec *fix; /* how to fix it (host/fix.h), or NULL; owned */
  char *plane;     /* plane(s) of a multi-plane fabric ("A", "A,B"), or NULL */
  /* -- one cause across rules (host/roots.h) -- */
  char *root;         /* "link:A port 1 - B port 2", "node:A", "fact:F"; NULL */
  uint32_t root_role; /* FL_ROOT_PRIMARY / FL_ROOT_CONSEQUENCE, 0 with no root */
  uint32_t n_related; /* findings attached under this one */
  struct fl_finding_rec *related; /* owned, in report order; NULL when none */
  /* -- set after the run (policy, baseline); zero when not used -- */
  int waived;            /* 1: a policy waiver suppresses it (see @waiver) */
  fl_waiver_note waiver; /* owned strings, set when @waived */
  int baseline;          /* 1: matched by the --baseline file */
} fl_finding_rec;

typedef struct fl_findings {
  fl_finding_rec *v;
  size_t n, cap;
} fl_findings;

/** The report order of fl_findings_sort(): < 0, 0 or > 0. */
int fl_finding_rec_cmp(const fl_finding_rec *a, const fl_finding_rec *b);
/** Free what @r owns (its strings, fix and related findings), not @r. */
void fl_finding_rec_free(fl_finding_rec *r);
/** Append @rec (takes ownership of its strings). 0 or -1 on ENOMEM. */
int fl_findings_push(fl_findings *fs, fl_finding_rec *rec);
/** Sort by severity (errors first), rule id, file, line, column, message,
 * key: a total order so that identical inputs give byte-identical output. */
void fl_findings_sort(fl_findings *fs);

/**
 * fl_findings_aggregate() — one finding per cause (fl_finding.cause in
 * fabriclint/plugin.h): the active findings (neither waived nor baselined)
 * of one rule that share a cause, when there are two or more, are replaced
 * by one finding: the highest member severity; the message is the cause
 * message with "{count}" replaced, then "e.g." and the first
 * FL_CAUSE_EXAMPLES members' first port or node; nodes and ports the union
 * of the members' (first appearance order); location the first member's
 * (in fl_findings_sort() order); key "cause:<cause>"; evidence {"cause",
 * "count", "examples" (the members' messages shown), "members" (every
 * member: message, nodes, ports, evidence, location)}; fix the members'
 * changes (fl_fix_merge()). Set-aside members
 * stay as they are. Leaves @fs unsorted. Returns 0, or -1 on ENOMEM (@fs
 * is then unchanged or partly merged, still valid). O(n log n).
 */
int fl_findings_aggregate(fl_findings *fs);

/** Examples named in the message of a merged finding. */
#define FL_CAUSE_EXAMPLES 3u

/**
 * fl_finding_cause_fingerprint() — the fingerprint (as
 * fl_finding_fingerprint()) a merged finding of @r's cause has: rule and
 * "cause:<cause>". NULL (and @buf untouched) when @r has no cause. A
 * baseline that holds it accepts every member of the cause.
 */
char *fl_finding_cause_fingerprint(const fl_finding_rec *r, char buf[17]);
/** Count findings of severity @sev (all of them, set aside or not). */
size_t fl_findings_count(const fl_findings *fs, uint32_t sev);
/** Count findings of severity @sev that are neither waived nor baselined:
 * the ones that count for --fail-on and the summary. */
size_t fl_findings_count_active(const fl_findings *fs, uint32_t sev);
/** 1 when @r counts (neither waived nor baselined). */
int fl_finding_active(const fl_finding_rec *r);
void fl_findings_free(fl_findings *fs);
/** "error", "warning", "info". */
const char *fl_severity_name(uint32_t sev);
/** Parse a severity name; 0 when unknown. "never" parses as 4. */
uint32_t fl_severity_parse(const char *s);

/**
 * fl_finding_fingerprint() — the stable identity of a finding: 64-bit
 * FNV-1a over "<rule>\n<key>" as 16 lower-case hex digits in @buf (17
 * bytes). The key names entities (node names, port numbers), never line
 * numbers, so editing unrelated lines of an input keeps every fingerprint.
 * Used by baselines, SARIF partialFingerprints and Code Quality.
 */
char *fl_finding_fingerprint(const fl_finding_rec *r, char buf[17]);

#endif
