/* SPDX-License-Identifier: MIT */
/*
 * core/host/policy.h — the policy file (DESIGN.md §6): which rules run, their
 * severities and parameters, and waivers of accepted findings.
 *
 * Why a file and not only options: a policy is reviewed and versioned with
 * the plan it gates, and a waiver needs a reason and an expiry date that a
 * command line cannot carry. The format is YAML, parsed with libyaml (Debian
 * libyaml-dev): scalars arrive untyped, so this module types them itself
 * against each rule's fl_param_def (no "Norway problem": `no` is a string
 * unless the parameter is a bool). Every error — unknown key, wrong type,
 * bad date, a pattern that selects no loaded rule — names file:line:col and
 * makes the run exit 2; a typo must never silently turn a check off.
 *
 *   version: 1                       # optional; only 1 is known
 *   max-waiver-days: 90              # optional: longest waiver lifetime
 *   rules:
 *     enable:  [ "ecmp-balance.*" ]  # also run these (globs / plugin names)
 *     disable: [ "rail-alignment.unresolved" ]
 *   severity:                        # the last matching pattern wins
 *     "topology.unlinked-ca": error
 *   params:                          # rule id, or plugin name = all its rules
 *     topology.degraded-link: { expected-width: 4 }
 *   waivers:
 *     - rule: rail-alignment.swapped # id or glob
 *       nodes: [ "b08-p1-dgx-08-c01 *" ]   # each glob matches some node
 *       ports: [ "leaf-01/7" ]       # each glob matches some "node/port"
 *       reason: "RMA 4711: cables crossed until the swap on 3 June"
 *       expires: 2025-06-30          # inclusive; required
 *       owner: "..."                 # optional, informational
 *       ticket: "..."                # optional, informational
 *
 * Ownership: an fl_policy owns every string in it; fl_policy_free() frees
 * them. Nothing here keeps global state.
 */
#ifndef FABRICLINT_CORE_POLICY_H
#define FABRICLINT_CORE_POLICY_H

#include <stddef.h>
#include <stdint.h>

#include "fabriclint/error.h"
#include "host/findings.h"
#include "model/file_digest.h"

/** Rule ids of the findings the policy itself produces. */
#define FL_POLICY_RULE_EXPIRED "policy.expired-waiver"
#define FL_POLICY_RULE_UNUSED  "policy.unused-waiver"

/** A string from the file with its 1-based position. */
typedef struct fl_policy_str {
  char *text;
  uint32_t line, col;
} fl_policy_str;

typedef struct fl_policy_severity {
  fl_policy_str pattern;
  uint32_t severity; /* FL_SEV_* */
} fl_policy_severity;

typedef struct fl_policy_param {
  fl_policy_str rule;  /* rule id or plugin name */
  fl_policy_str name;  /* parameter name */
  fl_policy_str value; /* scalar text as written */
  int quoted;          /* 1 when the scalar was quoted ('..' or "..") */
} fl_policy_param;

typedef struct fl_policy_waiver {
  fl_policy_str rule;
  fl_policy_str *nodes;
  size_t n_nodes;
  fl_policy_str *ports;
  size_t n_ports;
  char *reason;
  fl_policy_str expires; /* YYYY-MM-DD, validated */
  char *owner, *ticket;  /* may be NULL */
  uint32_t line, col;    /* position of the waiver's mapping */
} fl_policy_waiver;

typedef struct fl_policy {
  char *path; /* as given, for messages and SARIF locations */
  fl_policy_str *enable;
  size_t n_enable;
  fl_policy_str *disable;
  size_t n_disable;
  fl_policy_severity *severity;
  size_t n_severity;
  fl_policy_param *params;
  size_t n_params;
  fl_policy_waiver *waivers;
  size_t n_waivers;
  /* max-waiver-days: a waiver whose `expires` is more than this many days
   * after today is refused (fl_policy_apply_waivers()); -1 when not set.
   * @max_days_line/@max_days_col: where the file sets it. */
  int64_t max_waiver_days;
  uint32_t max_days_line, max_days_col;
  /* size and SHA-256 of the bytes fl_policy_load() read (provenance) */
  fl_file_digest digest;
} fl_policy;

/**
 * fl_policy_load() — read and parse policy file @path into @p (zeroed
 * first). FL_OK, or FL_EIO / FL_EPARSE with @err at file:line:col.
 * Checks the shape and the scalar formats only; what needs the loaded rules
 * is checked by fl_policy_check().
 */
int fl_policy_load(fl_policy *p, const char *path, fl_error *err);

/** fl_policy_parse() — the same from memory; @name is used in messages. */
int fl_policy_parse(fl_policy *p, const char *name, const char *text,
                    size_t len, fl_error *err);

void fl_policy_free(fl_policy *p);

/**
 * fl_policy_rule_matches() — 1 when rule id @id matches @pattern: a shell
 * glob on the whole id, or a bare plugin name (every rule of the plugin).
 */
int fl_policy_rule_matches(const char *pattern, const char *id);

/**
 * fl_policy_severity_of() — the severity the policy gives rule @id (the last
 * matching `severity` entry), or 0 when it gives none.
 */
uint32_t fl_policy_severity_of(const fl_policy *p, const char *id);

/** 1 when @id matches an `enable` / a `disable` pattern. */
int fl_policy_enables(const fl_policy *p, const char *id);
int fl_policy_disables(const fl_policy *p, const char *id);

/** fl_policy_date_valid() — @s is a real calendar date YYYY-MM-DD. */
int fl_policy_date_valid(const char *s);

/** fl_policy_days_between() — days from date @a to date @b (both valid
 * YYYY-MM-DD; negative when @b is earlier), proleptic Gregorian. */
int64_t fl_policy_days_between(const char *a, const char *b);

/**
 * fl_policy_apply_waivers() — mark the findings of @fs that an unexpired
 * waiver matches as waived (first matching waiver in file order), then
 * append one finding per expired waiver (FL_POLICY_RULE_EXPIRED, warning;
 * the findings it matches count again) and per unexpired waiver that matched
 * nothing (FL_POLICY_RULE_UNUSED, info), located at the waiver in the policy
 * file. @today is YYYY-MM-DD; a waiver is valid through its `expires` day.
 * With max-waiver-days N, a waiver that expires more than N days after
 * @today is refused first: FL_EINVAL with @err at its `expires` value
 * (file:line:col), naming the date, the days and the limit.
 * Returns FL_OK, FL_EINVAL or FL_ENOMEM.
 */
int fl_policy_apply_waivers(const fl_policy *p, fl_findings *fs,
                            const char *today, fl_error *err);

/**
 * fl_policy_waiver_matches() — 1 when waiver @w covers finding @r (rule
 * pattern, every `nodes` glob matches a node or port's node of the finding,
 * every `ports` glob matches one of its "node/port" names).
 */
int fl_policy_waiver_matches(const fl_policy_waiver *w,
                             const fl_finding_rec *r);

#endif
