/* SPDX-License-Identifier: MIT */
/*
 * core/host/host.h — the plugin host: discovery, loading and ABI checks of rule
 * plugins, the fl_host_api table, and rule runs (internal to the core and
 * the CLI).
 *
 * Discovery order (DESIGN.md §3): --plugin FILE, --plugin-path DIR,
 * FABRICLINT_PLUGIN_PATH (colon-separated), then the built-in folder beside
 * the executable (<dir of /proc/self/exe>/plugins, a build tree) or of the
 * install the executable is in (<exe dir>/../<libdir>/fabriclint/plugins,
 * wherever the install was moved; core/io/data_path.c). The first plugin
 * of a name wins.
 */
#ifndef FABRICLINT_CORE_HOST_H
#define FABRICLINT_CORE_HOST_H

#include <stddef.h>

#include "fabriclint/error.h"
#include "fabriclint/plugin.h"
#include "host/findings.h"
#include "host/policy.h"

typedef struct fl_loaded_plugin {
  char *path;
  void *handle;        /* dlopen handle; never closed (DESIGN.md §3) */
  fl_plugin_desc desc; /* host-size copy, zero-filled past the plugin's size */
  fl_rule_def **rules; /* host-size copies */
  fl_param_def ***params; /* per rule: host-size copies */
  void *data;             /* from init() */
  int initialised;
} fl_loaded_plugin;

/** A rule parameter value given on the command line or by a policy. */
typedef struct fl_param_value {
  char *rule; /* rule id */
  char *name;
  char *value;
} fl_param_value;

/** Kinds of fl_host_event. */
#define FL_HOST_EV_RULE_BEGIN    1u /**< rule @index of @count starts */
#define FL_HOST_EV_RULE_PROGRESS 2u /**< the rule did @done of @total */
#define FL_HOST_EV_RULE_END      3u /**< rule @index ended */
#define FL_HOST_EV_LOG           4u /**< a rule's diagnostic line */
#define FL_HOST_EV_NOTE          5u /**< the host's own note (no rule) */
#define FL_HOST_EV_PLANE         6u /**< plane @index of @count: its subset */

/**
 * fl_host_event — what a rule run is doing, for the host's caller (the
 * CLI's progress display; the library itself prints nothing of it).
 * @plugin/@rule: names, borrowed for the call. @index/@count: the rule's
 * place among the rules this fl_host_run_rules() runs (0-based) and their
 * number. RULE_PROGRESS: @done of @total units of @what ("destinations";
 * may be NULL), @total 0 when unknown, as the plugin reported them through
 * fl_host_api.progress. LOG: @level (FL_SEV_*) and @message, from
 * fl_host_api.log. NOTE: @level and @message, @plugin when it concerns
 * one, @rule NULL. @plane: on a multi-plane fabric, the plane the rule's
 * run judges (rules run once per plane), else NULL. PLANE: on a
 * multi-plane fabric, before the host frees the last plane's subset and
 * builds plane @index's (0-based, of @count planes; @plane its name), or,
 * with @index == @count and @plane NULL, before the pass of the rules that
 * judge the fabric whole: what follows until the next RULE_BEGIN is that
 * work, so that a caller timing phases accounts for it.
 */
typedef struct fl_host_event {
  uint32_t kind;
  const char *plugin;
  const char *rule;
  size_t index, count;
  uint64_t done, total;
  const char *what;
  const char *plane; /* the plane a plane's run judges (borrowed), or NULL */
  uint32_t level;
  const char *message;
} fl_host_event;

/** fl_host_event_fn — receives @ev (valid for the call only); @ctx is
 * fl_host.event_ctx. Called on the thread that runs the rules. */
typedef void (*fl_host_event_fn)(void *ctx, const fl_host_event *ev);

typedef struct fl_host {
  fl_loaded_plugin *plugins;
  size_t n_plugins, cap_plugins;
  fl_host_api api;
  fl_param_value *params;
  size_t n_params, cap_params;
  int verbose;
  /* Borrowed, may be NULL: rule selection and severity overrides. Set it
   * with fl_host_set_policy(), after loading plugins. */
  const fl_policy *policy;
  /* May be NULL: receives rule begin/progress/end and log events, and
   * the host's own notes (with @verbose: a plugin skipped because one of
   * its name is loaded). Without it they are dropped: the library never
   * prints (the CLI's receiver, fl_cli_log_event, prints them). */
  fl_host_event_fn on_event;
  void *event_ctx;
  /* Borrowed, may be NULL: the distributed run this process is part of,
   * handed to the rules as fl_host_api.dist (fabriclint/dist.h). */
  const fl_dist *dist;
  /* The last fl_host_api.fabric_serial handed out: every pass of
   * fl_host_run_rules() (each plane's subset, the whole fabric) takes the
   * next one, so a plugin's cache keyed by it is never taken for another
   * fabric, even one allocated where a freed one was. */
  uint64_t serial;
  /* The thread budget handed to the rules as fl_host_api.threads
   * (fabriclint/threads.h): the command line sets the one it resolved
   * (--jobs, FABRICLINT_THREADS); 0 asks fl_threads_available() at each
   * call. Values above FL_THREADS_MAX are cut to it. */
  uint32_t threads;
} fl_host;

/** One rule run by fl_host_run_rules(). */
typedef struct fl_rule_run {
  const fl_rule_def *rule; /* borrowed from the host */
  const char *plugin;      /* the plugin's name (borrowed) */
  int failed;              /* 1: the rule could not run */
  char message[512];       /* why, when @failed */
} fl_rule_run;

/** Initialise @h (fills the API table). */
void fl_host_init(fl_host *h);
/** Call every plugin's fini() and free the host's memory (not the handles). */
void fl_host_free(fl_host *h);

/**
 * fl_host_load_file() — dlopen one plugin (RTLD_NOW | RTLD_LOCAL), check its
 * descriptor (entry point present, ABI major equal, minor not newer, struct
 * sizes, rule ids "<plugin>.<rule>" unique, check() present) and call its
 * init(). Refuses files or folders writable by other users.
 * Returns FL_OK, or FL_EPLUGIN with @err naming the file and the reason.
 * A second plugin of an already loaded name is skipped with FL_OK and a
 * note in @err->message (code 0).
 */
int fl_host_load_file(fl_host *h, const char *path, fl_error *err);

/** fl_host_load_dir() — load every *.so of @dir in name order. */
int fl_host_load_dir(fl_host *h, const char *dir, fl_error *err);

/** fl_host_builtin_dir() — the built-in plugin folder (see above), or NULL. */
const char *fl_host_builtin_dir(char *buf, size_t size);

/** Add a parameter value "RULE.PARAM=VALUE"; FL_EINVAL when malformed. */
int fl_host_set_param(fl_host *h, const char *spec, fl_error *err);

/**
 * fl_host_check_params() — every parameter value names a loaded rule and
 * one of its parameters, and parses as the parameter's type.
 */
int fl_host_check_params(const fl_host *h, fl_error *err);

/**
 * fl_host_add_param() — add a parameter value for rule (or plugin) @rule;
 * values added later win. FL_OK or FL_ENOMEM.
 */
int fl_host_add_param(fl_host *h, const char *rule, const char *name,
                      const char *value);

/** fl_host_find_rule() — the loaded rule of id @id, or NULL. */
const fl_rule_def *fl_host_find_rule(const fl_host *h, const char *id);

/**
 * fl_host_find_param() — the definition of parameter @name of rule @rule,
 * or, when @rule is a plugin name, of the first of its rules that has it;
 * NULL when there is none.
 */
const fl_param_def *fl_host_find_param(const fl_host *h, const char *rule,
                                       const char *name);

/** fl_host_pattern_used() — 1 when @pattern (glob or plugin name, as in
 * --rules) matches at least one loaded rule. */
int fl_host_pattern_used(const fl_host *h, const char *pattern);

/**
 * fl_host_set_policy() — check policy @p against the loaded rules (every
 * pattern selects a loaded rule, every parameter exists and its value has
 * the parameter's type) and adopt it: selection, severities and parameter
 * values (before any --param, so the command line wins). FL_OK, or FL_EINVAL
 * with @err at the policy's file:line:col. @p is borrowed: it must outlive
 * @h's runs.
 */
int fl_host_set_policy(fl_host *h, const fl_policy *p, fl_error *err);

/** fl_host_rule_severity() — the default severity of @r after the policy. */
uint32_t fl_host_rule_severity(const fl_host *h, const fl_rule_def *r);

/**
 * fl_host_rule_runs() — 1 when rule @r runs: selected by --rules @patterns
 * when given, else enabled by default or by the policy; and not disabled by
 * the policy.
 */
int fl_host_rule_runs(const fl_host *h, const fl_rule_def *r,
                      const char *patterns);

/**
 * fl_host_rule_selected() — 1 when rule @r runs under the comma-separated
 * shell-glob list @patterns (NULL = the rules enabled by default).
 */
int fl_host_rule_selected(const fl_rule_def *r, const char *patterns);

/**
 * fl_host_run() — run every selected rule on finalized fabric @fab, one at a
 * time, appending findings to @out. Returns FL_OK, or FL_EPLUGIN when a rule
 * could not run (@err names the rule and its message); the remaining rules
 * still run. *@n_run receives the number of rules run.
 */
int fl_host_run(fl_host *h, const struct fl_fabric *fab, const char *patterns,
                fl_findings *out, size_t *n_run, fl_error *err);

/**
 * fl_host_run_rules() — fl_host_run() that also returns what ran: *@runs
 * (caller frees with free()) gets one entry per rule run, in run order
 * (plugins in load order, rules in plugin order), *@n_runs their count.
 */
int fl_host_run_rules(fl_host *h, const struct fl_fabric *fab,
                      const char *patterns, fl_findings *out,
                      fl_rule_run **runs, size_t *n_runs, fl_error *err);

/**
 * fl_host_fill_ext() — fill the members of @a that later modules added to
 * the API table (adaptive-routing accessors, ...). Called at the end of
 * fl_host_init(); core/host/host_ext.c, so that feature modules do not edit
 * host.c.
 */
void fl_host_fill_ext(fl_host_api *a);

#endif
