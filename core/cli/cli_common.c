/* SPDX-License-Identifier: MIT */
/*
 * core/cli/cli_common.c — what every command of the command line shares:
 * the options of check, info, rules and diff (scanned by cli_args.c from
 * the one table of cli_table.c, applied here), plugin
 * loading, reading the inputs into one fabric, opening --output without
 * overwriting an input, and writing the report with policy and baseline
 * applied. The commands themselves live one per file (cli.c: main and check,
 * cli_info.c, cli_diff.c, cli_gen.c) and call only these helpers and the
 * library, so no helper calls back into a command.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include <jansson.h>

#include "cli/cli_args.h"
#include "cli/cli_common.h"
#include "cli/cli_docs.h"
#include "cli/cli_inputs.h"
#include "cli/cli_progress.h"
#include "cli/cli_usage.h"
#include "fabriclint/fabric.h"
#include "fabriclint/load.h"
#include "fabriclint/threads.h"
#include "host/host.h"
#include "host/policy.h"
#include "host/roots.h"
#include "io/fileio.h"
#include "io/formats.h"
#include "io/loaders.h"
#include "io/nodemap.h"
#include "report/baseline.h"
#include "report/report.h"

int fl_cli_usage_error(const char *fmt, const char *arg) {
  fprintf(stderr, "fabriclint: ");
  fprintf(stderr, fmt, arg ? arg : "");
  fprintf(stderr, "\n(see fabriclint --help)\n");
  return FL_EXIT_USAGE;
}

int fl_cli_usage_errorf(const char *fmt, ...) {
  char buf[1200];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  return fl_cli_usage_error("%s", buf);
}

/* ---- options
 * ----------------------------------------------------------------- */

static int push(const char ***v, size_t *n, const char *s) {
  const char **nv = realloc((void *)*v, (*n + 1) * sizeof *nv);
  if (!nv)
    return -1;
  nv[(*n)++] = s;
  *v = nv;
  return 0;
}

/* --max-findings-per-rule N: a decimal count, 0 (no cap) to 1000000. */
static int parse_max_per_rule(fl_cli_opts *o, const char *arg) {
  char *end = NULL;
  errno = 0;
  long v = arg && *arg >= '0' && *arg <= '9' ? strtol(arg, &end, 10) : -1;
  if (v < 0 || v > 1000000 || errno || !end || *end)
    return fl_cli_usage_error("--max-findings-per-rule: expected a count "
                              "from 0 (no cap) to 1000000, got '%s'",
                              arg);
  o->max_per_rule = (uint32_t)v;
  return 0;
}

/* A thread count of 1 to FL_THREADS_MAX in @arg, else -1. */
static long thread_count(const char *arg) {
  char *end = NULL;
  errno = 0;
  long v = arg && *arg >= '0' && *arg <= '9' ? strtol(arg, &end, 10) : -1;
  return v < 1 || v > (long)FL_THREADS_MAX || errno || !end || *end ? -1 : v;
}

/* The run's thread budget: --jobs, else FABRICLINT_THREADS, else the CPUs
 * this process may use (fabriclint/threads.h). 0, or FL_EXIT_USAGE when
 * the variable holds something else than a count. */
static int resolve_threads(fl_cli_opts *o) {
  /* only the commands that start threads (those that take --jobs) read
   * the variable: a bad value must not stop `bom` or `convert` */
  if (!o->cmd || !fl_cli_opt_find(o->cmd->bit, "jobs")) {
    o->threads = 1, o->threads_from = "this command starts no thread";
    return 0;
  }
  const char *env = getenv("FABRICLINT_THREADS");
  if (o->jobs) {
    o->threads = o->jobs, o->threads_from = "--jobs";
  } else if (env && *env) {
    long v = thread_count(env);
    if (v < 0)
      return fl_cli_usage_error("FABRICLINT_THREADS: expected a number of "
                                "threads from 1 to 64, got '%s'",
                                env);
    o->threads = (uint32_t)v, o->threads_from = "FABRICLINT_THREADS";
  } else {
    o->threads = fl_threads_available();
    o->threads_from = "the CPUs this process may use";
  }
  if (o->verbose) /* every command that takes --jobs, once */
    fprintf(stderr, "fabriclint: %" PRIu32 " thread(s) at most (%s)\n",
            o->threads, o->threads_from);
  return 0;
}

static int parse_one(fl_cli_opts *o, int c, const char *arg) {
  switch (c) {
  case FL_OPT_FORMAT:
    o->out_format = fl_report_format_parse(arg);
    if (!o->out_format)
      return fl_cli_usage_error("--format: expected text, json, sarif, junit, "
                                "codequality, dot, svg or html, got '%s'",
                                arg);
    return 0;
  case FL_OPT_OUTPUT:
    o->output = arg;
    return 0;
  case FL_OPT_FAIL_ON:
    o->fail_on = fl_severity_parse(arg);
    if (!o->fail_on)
      return fl_cli_usage_error(
          "--fail-on: expected error, warning, info or never, got '%s'", arg);
    return 0;
  case FL_OPT_RULES:
    o->rules = arg;
    return 0;
  case FL_OPT_PARAM:
    return push(&o->params, &o->n_params, arg) ? FL_EXIT_USAGE : 0;
  case FL_OPT_PLUGIN:
    return push(&o->plugins, &o->n_plugins, arg) ? FL_EXIT_USAGE : 0;
  case FL_OPT_PLUGIN_PATH:
    return push(&o->plugin_paths, &o->n_plugin_paths, arg) ? FL_EXIT_USAGE : 0;
  case FL_OPT_NO_BUILTIN:
    o->no_builtin = 1;
    return 0;
  case FL_OPT_NODE_MAP:
    o->load.node_name_map = arg;
    return 0;
  case FL_OPT_PLANE:
    if (fl_cli_plane_spec("--plane", arg, NULL) != 0)
      return FL_EXIT_USAGE;
    return push(&o->plane_specs, &o->n_plane_specs, arg) ? FL_EXIT_USAGE : 0;
  case FL_OPT_INPUT_FORMAT:
    o->input_format = fl_cli_format_arg("--input-format", arg);
    return o->input_format == (uint32_t)-1 ? FL_EXIT_USAGE : 0;
  case FL_OPT_SYSTEM_PATTERN:
    o->load.system_pattern = arg;
    return 0;
  case FL_OPT_POLICY:
    o->policy_path = arg;
    return 0;
  case FL_OPT_SM_CONFIG:
    if (o->sm_config)
      return fl_cli_usage_error("--sm-config given twice ('%s'): the subnet "
                                "manager reads one configuration file",
                                arg);
    o->sm_config = arg;
    return 0;
  case FL_OPT_BASELINE:
    o->baseline_path = arg;
    return 0;
  case FL_OPT_WRITE_BASELINE:
    o->write_baseline = arg;
    return 0;
  case FL_OPT_EXIT_ZERO:
    o->exit_zero = 1;
    return 0;
  case FL_OPT_MAX_PER_RULE:
    return parse_max_per_rule(o, arg);
  case FL_OPT_JOBS: {
    long v = thread_count(arg);
    if (v < 0)
      return fl_cli_usage_error("--jobs: expected a number of threads from 1 "
                                "to 64, got '%s'",
                                arg);
    o->jobs = (uint32_t)v;
    return 0;
  }
  case FL_OPT_VIEW:
    o->view = arg;
    return 0;
  case FL_OPT_FOCUS:
    if (!*arg)
      return fl_cli_usage_error("--focus: expected a node name or a rule id, "
                                "got an empty string%s",
                                "");
    o->focus = arg;
    return 0;
  case FL_OPT_RELAXNG:
    o->load.relaxng = 1;
    return 0;
  case FL_OPT_LENIENT:
    o->load.no_schema = 1;
    return 0;
  case FL_OPT_QUIET:
    o->quiet = 1;
    return 0;
  case FL_OPT_VERBOSE:
    o->verbose = 1;
    return 0;
  case FL_OPT_EXPLAIN_INFER:
    o->explain = 1;
    return 0;
  case FL_OPT_VERSION:
    printf("fabriclint %s\n", FL_VERSION);
    return -1;
  case FL_OPT_HELP:
    fl_cli_usage_cmd(stdout, o->cmd);
    return -1;
  default:
    return FL_EXIT_USAGE;
  }
}

/* --node-name-map: read once and checked whole here, whatever the inputs
 * (a map that no input uses is still validated); the loaders parse these
 * bytes (fl_load_options.node_name_map_text), never the file again. 0, or
 * FL_EXIT_USAGE with the error printed. */
static int read_node_name_map(fl_cli_opts *o) {
  fl_error err;
  fl_error_clear(&err);
  size_t len = 0;
  if (fl_read_file(o->load.node_name_map, "node-name-map",
                   &o->node_name_map_text, &len, &err) != FL_OK) {
    fl_cli_print_error(&err);
    return FL_EXIT_USAGE;
  }
  fl_nodemap m;
  memset(&m, 0, sizeof m);
  int rc = fl_nodemap_parse(&m, o->node_name_map_text, len,
                            o->load.node_name_map, &err);
  fl_nodemap_free(&m);
  if (rc != FL_OK) {
    fl_cli_print_error(&err);
    return FL_EXIT_USAGE;
  }
  o->load.node_name_map_text = o->node_name_map_text;
  o->load.node_name_map_len = len;
  return 0;
}

/* Which options a command takes is the table's business (the scanner
 * refuses the others, so a CI job never believes a policy or format was
 * applied when it was not); the --format values info and rules accept are
 * judged here, and the policy is read. */
static int check_applicable(fl_cli_opts *o) {
  const char *cmd = o->command ? o->command : "";
  int gating = strcmp(cmd, "check") == 0 || strcmp(cmd, "diff") == 0;
  if (!gating && o->out_format != FL_OUT_TEXT && o->out_format != FL_OUT_JSON)
    return fl_cli_usage_error("'%s' writes text or json only (sarif, junit, "
                              "codequality, dot, svg and html are for check "
                              "and diff)",
                              cmd);
  if ((o->view || o->focus) && !fl_cli_is_picture(o))
    return fl_cli_usage_error("--view and --focus apply to the pictures "
                              "(--format dot, svg or html)%s",
                              "");
  if (resolve_threads(o) != 0)
    return FL_EXIT_USAGE;
  if (o->load.node_name_map && read_node_name_map(o) != 0)
    return FL_EXIT_USAGE;
  if (o->policy_path) {
    fl_error err;
    fl_error_clear(&err);
    o->policy = calloc(1, sizeof *o->policy);
    if (!o->policy ||
        fl_policy_load(o->policy, o->policy_path, &err) != FL_OK) {
      if (o->policy)
        fl_cli_print_error(&err);
      return FL_EXIT_USAGE;
    }
  }
  return 0;
}

static size_t count_stdin(const char *const *v, size_t n) {
  size_t k = 0;
  for (size_t i = 0; i < n; i++)
    k += v[i] && strcmp(v[i], "-") == 0;
  return k;
}

int fl_cli_check_stdin(const fl_cli_opts *o, const char *const *a, size_t na,
                       const char *const *b, size_t nb) {
  const char *other[3] = {o->policy_path, o->baseline_path,
                          o->load.node_name_map};
  if (count_stdin(a, na) + count_stdin(b, nb) + count_stdin(other, 3) > 1)
    return fl_cli_usage_error("standard input given twice ('-' may stand for "
                              "one input, policy, baseline or node-name map "
                              "only: it can be read once)%s",
                              "");
  return 0;
}

/* The inputs: the operands, then the FILE of each --plane NAME:FILE, with
 * its plane NAME in o->input_plane (names point into argv: the text before
 * the first colon is cut off by writing the NUL into a copy). */
static int plane_inputs(fl_cli_opts *o) {
  size_t n = o->args.n_operands + o->n_plane_specs;
  const char **in = calloc(n + 1, sizeof *in);
  const char **pl = calloc(n + 1, sizeof *pl);
  if (!in || !pl) {
    free((void *)in);
    free((void *)pl);
    fprintf(stderr, "fabriclint: out of memory\n");
    return FL_EXIT_USAGE;
  }
  for (size_t i = 0; i < o->args.n_operands; i++)
    in[i] = o->args.operands[i];
  o->inputs = o->inputs_owned = in;
  o->input_plane = pl;
  o->n_input_plane = n;
  o->n_inputs = o->args.n_operands;
  for (size_t i = 0; i < o->n_plane_specs; i++) {
    const char *spec = o->plane_specs[i], *colon = strchr(spec, ':');
    char *name = strndup(spec, (size_t)(colon - spec));
    if (!name) {
      fprintf(stderr, "fabriclint: out of memory\n");
      return FL_EXIT_USAGE;
    }
    in[o->n_inputs] = colon + 1;
    pl[o->n_inputs++] = name;
  }
  return 0;
}

int fl_cli_parse_ext(int argc, char **argv, fl_cli_opts *o,
                     fl_cli_extra_fn extra, void *ctx) {
  memset(o, 0, sizeof *o);
  o->command = argc > 0 ? argv[0] : "";
  o->cmd = fl_cli_find_cmd(o->command);
  o->out_format = FL_OUT_TEXT;
  o->fail_on = FL_SEV_ERROR;
  if (!o->cmd) /* a programming error: dispatch passes table names only */
    return fl_cli_usage_error("unknown command '%s'", o->command);
  int rc = fl_cli_args_scan(o->cmd, argc, argv, &o->args);
  for (size_t i = 0; i < o->args.n_items && rc == 0; i++) {
    const fl_cli_item *it = &o->args.items[i];
    if (!extra || !extra(ctx, it, &rc))
      rc = parse_one(o, it->opt->id, it->value);
  }
  if (rc != 0)
    return rc;
  if ((rc = plane_inputs(o)) != 0)
    return rc;
  rc = fl_cli_check_stdin(o, o->inputs, o->n_inputs, NULL, 0);
  /* the HTML report's provenance: the bytes of every file as read */
  o->load.digest = o->out_format == FL_OUT_HTML;
  return rc ? rc : check_applicable(o);
}

int fl_cli_parse(int argc, char **argv, fl_cli_opts *o) {
  return fl_cli_parse_ext(argc, argv, o, NULL, NULL);
}

void fl_cli_opts_free(fl_cli_opts *o) {
  if (o->policy) {
    fl_policy_free(o->policy);
    free(o->policy);
    o->policy = NULL;
  }
  free((void *)o->params);
  free((void *)o->plugins);
  free((void *)o->plugin_paths);
  for (size_t i = 0; o->input_plane && i < o->n_input_plane; i++)
    free((void *)o->input_plane[i]);
  free((void *)o->input_plane);
  free((void *)o->inputs_owned);
  free((void *)o->plane_specs);
  free(o->node_name_map_text);
  for (size_t i = 0; i < o->n_sm_params; i++)
    free(o->sm_params[i]);
  free(o->sm_params);
  fl_cli_args_free(&o->args);
}

/* ---- shared steps ----------------------------------------------------------
 */

void fl_cli_print_error(const fl_error *err) {
  char buf[FL_ERROR_MSG_MAX + FL_ERROR_FILE_MAX + 64];
  fprintf(stderr, "fabriclint: %s\n", fl_error_format(err, buf, sizeof buf));
}

static int load_plugin_dirs(fl_host *h, const char *list, fl_error *err) {
  char *copy = strdup(list), *save = NULL;
  int rc = FL_OK;
  for (char *d = strtok_r(copy, ":", &save); d && rc == FL_OK;
       d = strtok_r(NULL, ":", &save))
    if (*d)
      rc = fl_host_load_dir(h, d, err);
  free(copy);
  return rc;
}

void fl_cli_log_event(void *ctx, const fl_host_event *ev) {
  const fl_host *h = ctx;
  if (ev->kind == FL_HOST_EV_NOTE) {
    fprintf(stderr, "fabriclint: note: %s\n", ev->message);
    return;
  }
  /* a plane's run names its plane: the same note stands once per plane */
  if (ev->kind == FL_HOST_EV_LOG && (h->verbose || ev->level >= FL_SEV_WARNING))
    fprintf(stderr, "fabriclint: %s: %s%s%s%s: %s\n", ev->rule,
            ev->plane ? "plane " : "", ev->plane ? ev->plane : "",
            ev->plane ? ": " : "",
            ev->level >= FL_SEV_ERROR     ? "error"
            : ev->level == FL_SEV_WARNING ? "warning"
                                          : "note",
            ev->message);
}

int fl_cli_load_plugins(const fl_cli_opts *o, fl_host *h) {
  fl_error err;
  fl_error_clear(&err);
  fl_host_init(h);
  h->verbose = o->verbose;
  h->threads = o->threads;        /* fl_host_api.threads: the run's budget */
  h->on_event = fl_cli_log_event; /* the library prints nothing itself */
  h->event_ctx = h;
  int rc = FL_OK;
  for (size_t i = 0; i < o->n_plugins && rc == FL_OK; i++)
    rc = fl_host_load_file(h, o->plugins[i], &err);
  for (size_t i = 0; i < o->n_plugin_paths && rc == FL_OK; i++)
    rc = fl_host_load_dir(h, o->plugin_paths[i], &err);
  const char *env = getenv("FABRICLINT_PLUGIN_PATH");
  if (rc == FL_OK && env && *env)
    rc = load_plugin_dirs(h, env, &err);
  char dir[4096];
  if (rc == FL_OK && !o->no_builtin) {
    if (fl_host_builtin_dir(dir, sizeof dir))
      rc = fl_host_load_dir(h, dir, &err);
    else if (h->n_plugins == 0)
      fprintf(stderr, "fabriclint: warning: no built-in plugin folder found "
                      "beside the executable or under the install prefix\n");
  }
  if (rc == FL_OK) {
    for (size_t i = 0; i < o->n_params && rc == FL_OK; i++)
      rc = fl_host_set_param(h, o->params[i], &err);
    if (rc == FL_OK)
      rc = fl_host_check_params(h, &err);
    if (rc == FL_OK && o->policy)
      rc = fl_host_set_policy(h, o->policy, &err);
    if (rc != FL_OK) {
      fl_cli_print_error(&err);
      return FL_EXIT_USAGE;
    }
    return 0;
  }
  fl_cli_print_error(&err);
  return FL_EXIT_PLUGIN;
}

/* Refuse to write the report over one of the inputs. */
static int same_file(const char *a, const char *b) {
  struct stat sa, sb;
  return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev &&
         sa.st_ino == sb.st_ino;
}

/* The absolute path @p would have once created (its folder resolved). */
static int resolve_target(const char *p, char *out, size_t size) {
  char tmp[PATH_MAX];
  if (realpath(p, tmp)) {
    snprintf(out, size, "%s", tmp);
    return 0;
  }
  char dir[PATH_MAX];
  snprintf(dir, sizeof dir, "%s", p);
  char *slash = strrchr(dir, '/');
  const char *base = slash ? slash + 1 : p;
  if (slash)
    *slash = '\0';
  if (!realpath(slash ? (dir[0] ? dir : "/") : ".", tmp))
    return -1;
  size_t n = strlen(tmp), m = strlen(base);
  if (n + 1 + m + 1 > size)
    return -1;
  memcpy(out, tmp, n);
  out[n] = '/';
  memcpy(out + n + 1, base, m + 1);
  return 0;
}

/* 1 when writing @target would destroy input @in: the same file, or a file
 * inside input folder @in (per-device capture folders). */
static int clobbers(const char *target, const char *in) {
  if (same_file(target, in))
    return 1;
  struct stat st;
  char t[PATH_MAX], d[PATH_MAX];
  if (stat(in, &st) != 0 || !S_ISDIR(st.st_mode) || !realpath(in, d) ||
      resolve_target(target, t, sizeof t) != 0)
    return 0;
  size_t n = strlen(d);
  return strncmp(t, d, n) == 0 && t[n] == '/';
}

/* --output and --write-baseline must not overwrite anything the user gave
 * us to read: inputs (and files in input folders), the policy, the
 * baseline (except --write-baseline F --baseline F, which updates it), the
 * node-name map, or each other. */
int fl_cli_check_outputs(const fl_cli_opts *o, const char *const *inputs,
                         size_t n_inputs) {
  const char *targets[2] = {o->output && strcmp(o->output, "-") ? o->output
                                                                : NULL,
                            o->write_baseline};
  const char *names[2] = {"--output", "--write-baseline"};
  for (int k = 0; k < 2; k++) {
    const char *t = targets[k];
    if (!t)
      continue;
    for (size_t i = 0; i < n_inputs; i++)
      if (clobbers(t, inputs[i]))
        return fl_cli_usage_error("%s would overwrite an input; refusing",
                                  names[k]);
    if ((o->policy_path && same_file(t, o->policy_path)) ||
        (o->load.node_name_map && same_file(t, o->load.node_name_map)) ||
        (k == 0 && o->baseline_path && same_file(t, o->baseline_path)))
      return fl_cli_usage_error("%s would overwrite the policy, node-name map "
                                "or baseline it reads; refusing",
                                names[k]);
  }
  if (targets[0] && targets[1]) {
    char a[PATH_MAX], b[PATH_MAX];
    if (resolve_target(targets[0], a, sizeof a) == 0 &&
        resolve_target(targets[1], b, sizeof b) == 0 && strcmp(a, b) == 0)
      return fl_cli_usage_error("--output and --write-baseline name the same "
                                "file%s",
                                "");
  }
  return 0;
}

/* 0 when @path is a regular file or a folder every rank can open and read
 * alike, else FL_EXIT_USAGE with the reason printed (rank 0 prints). */
static int dist_readable(const char *path, const char *what) {
  struct stat st;
  const char *why = NULL;
  if (strcmp(path, "-") == 0)
    why = "standard input reaches rank 0 only";
  else if (stat(path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode))
    why = "a pipe, FIFO or device can be read by one rank only";
  if (!why)
    return 0;
  fprintf(stderr,
          "fabriclint: %s: every rank of an MPI run reads %s itself, and %s; "
          "give a regular file\n",
          path, what, why);
  return FL_EXIT_USAGE;
}

int fl_cli_dist_inputs(const fl_cli_opts *o, const char *workload) {
  int rc = 0;
  for (size_t i = 0; rc == 0 && i < o->n_inputs; i++)
    rc = dist_readable(o->inputs[i], "each input");
  const char *const other[] = {o->policy_path, o->baseline_path,
                               o->load.node_name_map, workload};
  const char *const what[] = {"the policy", "the baseline", "the node-name map",
                              "the workload"};
  for (size_t k = 0; rc == 0 && k < sizeof other / sizeof *other; k++)
    if (other[k])
      rc = dist_readable(other[k], what[k]);
  return rc;
}

int fl_cli_check_output_other(const fl_cli_opts *o, const char *path,
                              const char *what) {
  const char *targets[2] = {o->output && strcmp(o->output, "-") ? o->output
                                                                : NULL,
                            o->write_baseline};
  const char *names[2] = {"--output", "--write-baseline"};
  for (int k = 0; k < 2; k++)
    if (targets[k] && path && strcmp(path, "-") != 0 &&
        same_file(targets[k], path)) {
      fprintf(stderr,
              "fabriclint: %s: %s would overwrite %s, %s this run reads; "
              "refusing\n",
              targets[k], names[k], path, what);
      return FL_EXIT_USAGE;
    }
  return 0;
}

int fl_cli_check_outputs_read(const fl_cli_opts *o, const fl_fabric *fab) {
  const char *targets[2] = {o->output && strcmp(o->output, "-") ? o->output
                                                                : NULL,
                            o->write_baseline};
  const char *names[2] = {"--output", "--write-baseline"};
  for (int k = 0; k < 2; k++)
    for (uint32_t i = 0; targets[k] && i < fl_fabric_file_count(fab); i++) {
      const char *in = fl_fabric_file_path(fab, i);
      if (strcmp(in, "-") != 0 && same_file(targets[k], in)) {
        fprintf(stderr,
                "fabriclint: %s: %s would overwrite %s, a file this "
                "run read; refusing\n",
                targets[k], names[k], in);
        return FL_EXIT_USAGE;
      }
    }
  return 0;
}

int fl_cli_close_output(fl_outfile *out, int rc) {
  if (!out->path) { /* standard output: main() checks it */
    memset(out, 0, sizeof *out);
    return rc;
  }
  if (rc == FL_EXIT_USAGE) {
    fl_outfile_abort(out);
    return rc;
  }
  fl_error err;
  fl_error_clear(&err);
  if (fl_outfile_commit(out, &err) != FL_OK) {
    fl_cli_print_error(&err);
    return FL_EXIT_USAGE;
  }
  return rc;
}

int fl_cli_open_output(const fl_cli_opts *o, fl_outfile *out) {
  memset(out, 0, sizeof *out);
  out->f = stdout;
  if (!o->output || strcmp(o->output, "-") == 0)
    return 0;
  int rc = fl_cli_check_outputs(o, o->inputs, o->n_inputs);
  if (rc != 0)
    return rc;
  fl_error err;
  fl_error_clear(&err);
  if (fl_outfile_open(out, o->output, &err) != FL_OK) {
    fl_cli_print_error(&err);
    return FL_EXIT_USAGE;
  }
  return 0;
}

/* One command-line input, read once (folders are read file by file when
 * loaded). */
typedef struct cli_input {
  fl_input in;
  int dir;
  uint32_t fmt;
} cli_input;

/* Print @err of loading: the status line is erased first (and drawn no
 * more: the run ends). */
static void load_error(const fl_cli_opts *o, const fl_error *err) {
  fl_cli_progress_hide(o->progress);
  fl_cli_print_error(err);
}

/* Read input @path (unless a folder) and detect its format; 0 or
 * FL_EXIT_USAGE (error printed). */
static int read_input(const fl_cli_opts *o, const char *path, cli_input *ci) {
  fl_error err;
  fl_error_clear(&err);
  struct stat st;
  ci->dir =
      strcmp(path, "-") != 0 && stat(path, &st) == 0 && S_ISDIR(st.st_mode);
  if (ci->dir) {
    ci->fmt = o->input_format ? o->input_format : fl_detect_format(path, &err);
  } else if (fl_input_read(&ci->in, path, NULL, 0, &err) == FL_OK) {
    ci->fmt =
        o->input_format ? o->input_format : fl_detect_input(&ci->in, &err);
  }
  if (ci->fmt == FL_FMT_AUTO) {
    load_error(o, &err);
    return FL_EXIT_USAGE;
  }
  return 0;
}

/* Load one input; 0 or FL_EXIT_USAGE (error printed). */
static int load_input(const fl_cli_opts *o, fl_fabric *fab, size_t i,
                      cli_input *ci) {
  const char *path = o->inputs[i];
  fl_load_options lo = o->load;
  lo.plane = o->input_plane ? o->input_plane[i] : NULL;
  fl_error err;
  fl_error_clear(&err);
  if (o->verbose)
    fl_cli_progress_printf(o->progress, "fabriclint: loading %s (%s)", path,
                           fl_format_name(ci->fmt));
  int rc = ci->dir ? fl_fabric_load(fab, path, ci->fmt, &lo, &err)
                   : fl_fabric_load_input(fab, &ci->in, ci->fmt, &lo, &err);
  if (rc != FL_OK) {
    load_error(o, &err);
    return FL_EXIT_USAGE;
  }
  return 0;
}

static void free_inputs(cli_input *v, size_t n) {
  for (size_t i = 0; v && i < n; i++)
    fl_input_free(&v[i].in);
  free(v);
}

/* Parse input @path (@in: its bytes already read, or NULL to read it; a
 * folder with @in NULL) in format @fmt, forced by command-line @option, on
 * its own, into an empty fabric. 0 when it parses (the routing loaders skip,
 * with a note, what they cannot resolve against a topology), else FL_EXIT_USAGE
 * with the first line the loader could not read printed. */
static int parse_alone(const fl_cli_opts *o, const char *path, fl_input *in,
                       uint32_t fmt, const char *option) {
  fl_fabric *scratch = fl_fabric_new();
  fl_error err;
  fl_error_clear(&err);
  int rc = !scratch ? FL_ENOMEM
           : in     ? fl_fabric_load_input(scratch, in, fmt, &o->load, &err)
                    : fl_fabric_load(scratch, path, fmt, &o->load, &err);
  fl_fabric_free(scratch);
  if (rc == FL_OK)
    return 0;
  if (rc == FL_ENOMEM) {
    fprintf(stderr, "fabriclint: out of memory\n");
    return FL_EXIT_USAGE;
  }
  char msg[FL_ERROR_MSG_MAX + 128];
  snprintf(msg, sizeof msg,
           "this is not %s input (%s %s says every input is): %s",
           fl_format_name(fmt), option, fl_format_name(fmt), err.message);
  size_t n =
      strlen(msg) < sizeof err.message ? strlen(msg) : sizeof err.message - 1;
  memcpy(err.message, msg, n);
  err.message[n] = '\0';
  fl_cli_print_error(&err);
  return FL_EXIT_USAGE;
}

int fl_cli_forced_format_check(const fl_cli_opts *o, const char *path,
                               uint32_t fmt, const char *option) {
  if (fmt == FL_FMT_AUTO || fmt == FL_FMT_ANNOTATIONS ||
      fl_format_is_topology(fmt))
    return 0;
  return parse_alone(o, path, NULL, fmt, option);
}

/* No topology among the inputs. When --input-format forced a routing
 * format, each input is first parsed on its own: a file that is not in that
 * format is named at the first line the loader cannot read, with what it
 * expected there, instead of a "no topology" that hides the mistake.
 * Annotation files need the topology to parse at all and get the "no
 * topology" message. Returns FL_EXIT_USAGE (message printed). */
static int no_topology(const fl_cli_opts *o, cli_input *v) {
  for (size_t i = 0; o->input_format && i < o->n_inputs; i++)
    if (v[i].fmt != FL_FMT_ANNOTATIONS &&
        parse_alone(o, o->inputs[i], v[i].dir ? NULL : &v[i].in, v[i].fmt,
                    "--input-format"))
      return FL_EXIT_USAGE;
  fprintf(stderr,
          "fabriclint: no topology among the inputs: routing and attribute "
          "files (%s, ...) describe a fabric given by an ibnetdiscover "
          "dump, a design, an opensm-subnet.lst or LLDP captures\n",
          fl_format_name(v[0].fmt));
  return FL_EXIT_USAGE;
}

/* An ibdiagnet2.db_csv describes the fabric (format ibdiagnet-db) unless
 * another input does (io/formats.h: fl_dbcsv_has_section()): beside an
 * ibnetdiscover capture or a design of the same fabric it would be a second
 * copy of every node, read as a second plane. It then gives what it adds, its
 * AR_INFO (format ibdiagnet-db-csv), and its loader notes that its topology
 * sections were not read. */
static void demote_dumps(const fl_cli_opts *o, cli_input *v, size_t n) {
  int other = 0;
  for (size_t i = 0; i < n; i++)
    other |= fl_format_is_topology(v[i].fmt) && v[i].fmt != FL_FMT_IBDIAG_DB;
  for (size_t i = 0; other && i < n; i++)
    if (v[i].fmt == FL_FMT_IBDIAG_DB)
      v[i].fmt = FL_FMT_DBCSV;
  /* and the other way: no other topology, a detected dump whose NODES
   * section lies past the detection's first 64 KiB describes the fabric */
  for (size_t i = 0; !other && !o->input_format && i < n; i++)
    if (v[i].fmt == FL_FMT_DBCSV && !v[i].dir &&
        fl_dbcsv_has_section(v[i].in.buf, v[i].in.len, "NODES"))
      v[i].fmt = FL_FMT_IBDIAG_DB;
}

/* Topology inputs are loaded before routing dumps, whatever their order on
 * the command line: LFT and SL2VL loaders resolve switches against the
 * topology. Each input is read once: detection and loading see the same
 * bytes (a pipe or standard input cannot be read twice). */
int fl_cli_load_fabric(const fl_cli_opts *o, fl_fabric **out,
                       uint32_t *formats) {
  *out = NULL;
  if (o->n_inputs == 0)
    return fl_cli_usage_error("no INPUT given%s", "");
  if (fl_cli_check_repeats(o->inputs, o->n_inputs, "input") != 0)
    return FL_EXIT_USAGE;
  fl_fabric *fab = fl_fabric_new();
  cli_input *v = calloc(o->n_inputs, sizeof *v);
  if (!fab || !v) {
    fprintf(stderr, "fabriclint: out of memory\n");
    fl_fabric_free(fab);
    free(v);
    return FL_EXIT_USAGE;
  }
  fl_error err;
  int rc = 0;
  fl_cli_progress_phase(o->progress, "reading", NULL, 0, 0);
  for (size_t i = 0; i < o->n_inputs && rc == 0; i++)
    rc = read_input(o, o->inputs[i], &v[i]);
  if (rc == 0)
    demote_dumps(o, v, o->n_inputs);
  int have_topology = 0;
  for (size_t i = 0; i < o->n_inputs && rc == 0; i++)
    have_topology |= fl_format_is_topology(v[i].fmt);
  if (rc == 0 && !have_topology) {
    fl_cli_progress_hide(o->progress);
    rc = no_topology(o, v);
  }
  size_t k = 0; /* inputs loaded so far, for the progress display */
  for (int pass = 0; pass < 2 && rc == 0; pass++)
    for (size_t i = 0; i < o->n_inputs && rc == 0; i++)
      if (fl_format_is_topology(v[i].fmt) == (pass == 0)) {
        fl_cli_progress_phase(o->progress, "loading", o->inputs[i], k++,
                              o->n_inputs);
        rc = load_input(o, fab, i, &v[i]);
        fl_input_free(&v[i].in); /* loaded: the fabric keeps what it needs */
      }
  for (size_t i = 0; formats && i < o->n_inputs; i++)
    formats[i] = v[i].fmt;
  free_inputs(v, o->n_inputs);
  fl_error_clear(&err);
  if (rc == 0)
    fl_cli_progress_phase(o->progress, "finalising", "the model", 0, 0);
  if (rc == 0 && fl_fabric_finalize(fab, &err) != FL_OK) {
    load_error(o, &err);
    rc = FL_EXIT_USAGE;
  }
  fl_cli_progress_end(o->progress);
  if (rc == 0)
    rc = fl_cli_check_outputs_read(o, fab);
  if (rc != 0) {
    fl_fabric_free(fab);
    return rc;
  }
  *out = fab;
  return 0;
}

/* ---- reporting: shared by check and diff ------------------------------------
 */

int fl_cli_is_picture(const fl_cli_opts *o) {
  return o->out_format == FL_OUT_DOT || o->out_format == FL_OUT_SVG ||
         o->out_format == FL_OUT_HTML;
}

int fl_cli_picture(const fl_cli_opts *o, int is_diff, int argc, char **argv,
                   fl_report_picture *pic) {
  memset(pic, 0, sizeof *pic);
  char msg[256];
  const char *views = o->view ? o->view : is_diff ? "diff" : "tiers";
  if (fl_views_parse(views, is_diff, pic->views, &pic->n_views, msg,
                     sizeof msg) != 0)
    return fl_cli_usage_error("%s", msg);
  if (pic->n_views > 1 && o->out_format != FL_OUT_HTML)
    return fl_cli_usage_error("--view: --format %s draws one view; give one, "
                              "or use --format html for several",
                              o->out_format == FL_OUT_DOT ? "dot" : "svg");
  pic->focus = o->focus;
  pic->argc = argc;
  pic->argv = argv;
  pic->policy_path = o->policy_path;
  pic->baseline_path = o->baseline_path;
  pic->policy_digest = o->policy ? &o->policy->digest : NULL;
  return 0;
}

/* Today as YYYY-MM-DD: $FABRICLINT_TODAY (tests, reproducible reruns), else
 * the UTC date. 0, or FL_EXIT_USAGE when the variable is malformed. */
static int today(char buf[11]) {
  const char *env = getenv("FABRICLINT_TODAY");
  if (env && *env) {
    if (!fl_policy_date_valid(env))
      return fl_cli_usage_error("FABRICLINT_TODAY='%s' is not a date "
                                "YYYY-MM-DD",
                                env);
    memcpy(buf, env, 11);
    return 0;
  }
  time_t now = time(NULL);
  struct tm tm;
  gmtime_r(&now, &tm);
  strftime(buf, 11, "%Y-%m-%d", &tm);
  return 0;
}

static const char POLICY_EXPIRED_HELP[] =
    "A waiver of the policy file passed its `expires` date. It no longer "
    "suppresses the findings it matches: they count again.\n\n"
    "Fix the fabric, or renew the waiver with a new date and a reason that "
    "still holds.";
static const char POLICY_UNUSED_HELP[] =
    "A waiver of the policy file matches no finding of this run: the "
    "problem it excused is gone (or its rule or match is mistyped).\n\n"
    "Remove the waiver, or correct its `rule`, `nodes` or `ports`.";

const fl_report_rule FL_CLI_POLICY_RULES[2] = {
    {FL_POLICY_RULE_EXPIRED, "a policy waiver has expired", POLICY_EXPIRED_HELP,
     FL_SEV_WARNING, 0, NULL, NULL},
    {FL_POLICY_RULE_UNUSED, "a policy waiver matches no finding",
     POLICY_UNUSED_HELP, FL_SEV_INFO, 0, NULL, NULL},
};

void fl_cli_report_diag(void *ctx, int is_error, const char *msg) {
  (void)ctx;
  fprintf(stderr, is_error ? "fabriclint: %s\n" : "fabriclint: warning: %s\n",
          msg);
}

int fl_cli_report(const fl_cli_opts *o, FILE *out, fl_findings *fs,
                  const fl_fabric_counts *counts, const fl_report_rule *rules,
                  size_t n_rules, int run_failed,
                  const fl_report_picture *pic) {
  fl_file_digest baseline_digest;
  fl_error err;
  fl_error_clear(&err);
  if (pic && pic->focus &&
      fl_picture_focus_check(pic, pic->focus, rules, n_rules, &err) != 0) {
    fl_cli_print_error(&err);
    return FL_EXIT_USAGE;
  }
  char day[11], docs[4096], local[4096];
  int rc = today(day);
  if (rc == 0) /* $FABRICLINT_DOCS_URL checked before anything is written */
    rc = fl_cli_docs_base(docs, sizeof docs, local, sizeof local);
  if (rc != 0)
    return rc;
  if (o->policy && fl_policy_apply_waivers(o->policy, fs, day, &err) != FL_OK) {
    fl_cli_print_error(&err);
    return FL_EXIT_USAGE;
  }
  fl_findings_sort(fs);
  fl_report_picture with_baseline; /* the baseline's digest for provenance */
  if (o->baseline_path) {
    fl_baseline b;
    if (fl_baseline_load(&b, o->baseline_path, &err) != FL_OK) {
      fl_cli_print_error(&err);
      return FL_EXIT_USAGE;
    }
    fl_baseline_apply(&b, fs);
    if (pic) {
      with_baseline = *pic;
      with_baseline.baseline_digest = &baseline_digest;
      baseline_digest = b.digest;
      pic = &with_baseline;
    }
    fl_baseline_free(&b);
  }
  /* one finding per cause, after waivers and the baseline judged the
   * members (findings.h): first across rules (a cable's consequences under
   * the finding that names the cable, host/roots.h), then within a rule;
   * then the report order again */
  if (fl_findings_attach_roots(fs) != 0 || fl_findings_aggregate(fs) != 0) {
    fprintf(stderr, "fabriclint: out of memory\n");
    return FL_EXIT_USAGE;
  }
  fl_findings_sort(fs);
  if (o->write_baseline &&
      fl_baseline_write(fs, o->write_baseline, &err) != FL_OK) {
    fl_cli_print_error(&err);
    return FL_EXIT_USAGE;
  }
  int with_policy_rules = o->policy && o->policy->n_waivers > 0;
  size_t n_all = n_rules + (with_policy_rules ? 2 : 0);
  fl_report_rule *all = calloc(n_all + 1, sizeof *all);
  if (!all) {
    fprintf(stderr, "fabriclint: out of memory\n");
    return FL_EXIT_USAGE;
  }
  if (n_rules)
    memcpy(all, rules, n_rules * sizeof *all);
  if (with_policy_rules) {
    all[n_rules] = FL_CLI_POLICY_RULES[0];
    all[n_rules + 1] = FL_CLI_POLICY_RULES[1];
  }
  fl_report_rules_sort(all, n_all);
  char **uris = fl_cli_help_uris(all, n_all, docs, local);
  fl_report_input in = {fs,
                        counts,
                        all,
                        n_all,
                        o->inputs,
                        o->n_inputs,
                        n_rules,
                        o->fail_on,
                        o->baseline_path != NULL,
                        o->quiet,
                        o->max_per_rule,
                        pic,
                        fl_cli_report_diag,
                        NULL};
  errno = 0;
  int wrc = fl_report_write(out, o->out_format, &in);
  int e = errno ? errno : EIO;
  fl_cli_help_uris_free(uris, n_all);
  free(all);
  if (wrc != 0) {
    fprintf(stderr, "fabriclint: %s: cannot write the report: %s\n",
            o->output && strcmp(o->output, "-") != 0 ? o->output
                                                     : "standard output",
            strerror(e));
    return FL_EXIT_USAGE;
  }
  if (run_failed)
    return FL_EXIT_PLUGIN;
  for (size_t i = 0; i < fs->n; i++)
    if (fl_finding_active(&fs->v[i]) && fs->v[i].severity >= o->fail_on)
      return o->exit_zero ? FL_EXIT_OK : FL_EXIT_FINDINGS;
  return FL_EXIT_OK;
}

int fl_cli_settle_findings(const fl_cli_opts *o, fl_findings *fs) {
  char day[11];
  int rc = today(day);
  if (rc != 0)
    return rc;
  fl_error err;
  fl_error_clear(&err);
  if (o->policy && fl_policy_apply_waivers(o->policy, fs, day, &err) != FL_OK) {
    fl_cli_print_error(&err);
    return FL_EXIT_USAGE;
  }
  fl_findings_sort(fs);
  if (fl_findings_attach_roots(fs) != 0 || fl_findings_aggregate(fs) != 0) {
    fprintf(stderr, "fabriclint: out of memory\n");
    return FL_EXIT_USAGE;
  }
  fl_findings_sort(fs);
  return 0;
}

/* The format names, comma-separated, into @buf. */
static void format_names(char *buf, size_t size) {
  size_t n = 0;
  buf[0] = '\0';
  for (size_t i = 0; fl_format_name_at(i) && n < size; i++) {
    int w = snprintf(buf + n, size - n, "%s%s", i ? ", " : "",
                     fl_format_name_at(i));
    n += w > 0 ? (size_t)w : 0;
  }
}

uint32_t fl_cli_format_arg(const char *opt, const char *arg) {
  char names[1024];
  format_names(names, sizeof names);
  if (strcmp(arg, "list") == 0) {
    printf("auto, %s\n", names);
    exit(FL_EXIT_OK);
  }
  uint32_t fmt = fl_format_parse(arg);
  if (fmt == (uint32_t)-1) {
    char msg[1400];
    snprintf(msg, sizeof msg, "%s: unknown format '%s'; expected auto, %s", opt,
             arg, names);
    fl_cli_usage_error("%s", msg);
  }
  return fmt;
}
