/* SPDX-License-Identifier: MIT */
/*
 * core/cli/cli_args.c — the option scanner (cli_args.h).
 *
 * Why not getopt_long: it keeps its state in globals (optind, optarg), stops
 * at the first operand when POSIXLY_CORRECT is set in the environment, and
 * knows nothing of which command an option belongs to, so its messages
 * ("unrecognized option") cannot say "--design is an option of diff". The
 * table of cli_table.h already holds every name, so scanning is a short
 * loop over it.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <unistd.h>

#include "cli/cli_args.h"
#include "cli/cli_table.h"
#include "util/natcmp.h"

#define EXIT_USAGE 2

static int scan_error(const fl_cli_cmd *cmd, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

static int scan_error(const fl_cli_cmd *cmd, const char *fmt, ...) {
  va_list ap;
  fputs("fabriclint: ", stderr);
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fprintf(stderr, "\n(see fabriclint %s --help)\n", cmd->name);
  return EXIT_USAGE;
}

const fl_cli_opt *fl_cli_opt_find(uint32_t cmd_bit, const char *name) {
  for (const fl_cli_opt *o = FL_CLI_OPTS; o->name; o++)
    if ((o->cmds & cmd_bit) && strcmp(o->name, name) == 0)
      return o;
  return NULL;
}

/* The option of @cmd nearest to @name (edit distance at most 2), or NULL. */
static const fl_cli_opt *nearest(const fl_cli_cmd *cmd, const char *name) {
  const fl_cli_opt *best = NULL;
  size_t best_d = 3;
  for (const fl_cli_opt *o = FL_CLI_OPTS; o->name; o++) {
    size_t d = (o->cmds & cmd->bit) ? fl_edit_distance(name, o->name, 3) : 3;
    if (d < best_d)
      best = o, best_d = d;
  }
  return best;
}

/* The message for a long option @name (the text before any '=') that @cmd
 * does not take. */
static int refuse_long(const fl_cli_cmd *cmd, const char *name) {
  uint32_t elsewhere = 0;
  for (const fl_cli_opt *o = FL_CLI_OPTS; o->name; o++)
    if (strcmp(o->name, name) == 0)
      elsewhere |= o->cmds;
  char cmds[128];
  if (elsewhere)
    return scan_error(cmd, "--%s does not apply to %s (it is an option of %s)",
                      name, cmd->name,
                      fl_cli_cmds_text(elsewhere, cmds, sizeof cmds));
  const fl_cli_opt *near = nearest(cmd, name);
  if (near)
    return scan_error(cmd, "unknown option '--%s' for %s (did you mean --%s?)",
                      name, cmd->name, near->name);
  return scan_error(cmd, "unknown option '--%s' for %s", name, cmd->name);
}

/* The row of long option @name (length @len) for @cmd: exact, else a
 * unique prefix. NULL after printing why (*@rc set). */
static const fl_cli_opt *match_long(const fl_cli_cmd *cmd, const char *name,
                                    size_t len, int *rc) {
  char buf[64];
  if (len >= sizeof buf) {
    *rc =
        scan_error(cmd, "unknown option '--%.40s...' for %s", name, cmd->name);
    return NULL;
  }
  memcpy(buf, name, len);
  buf[len] = '\0';
  const fl_cli_opt *exact = fl_cli_opt_find(cmd->bit, buf), *pre = NULL;
  if (exact)
    return exact;
  size_t n_pre = 0;
  char list[512] = "";
  for (const fl_cli_opt *o = FL_CLI_OPTS; o->name && len > 0; o++)
    if ((o->cmds & cmd->bit) && strncmp(o->name, buf, len) == 0) {
      n_pre++;
      pre = o;
      size_t used = strlen(list);
      snprintf(list + used, sizeof list - used, "%s--%s", used ? ", " : "",
               o->name);
    }
  if (n_pre == 1)
    return pre;
  if (n_pre > 1)
    *rc = scan_error(cmd, "option '--%s' is ambiguous for %s: %s", buf,
                     cmd->name, list);
  else
    *rc = refuse_long(cmd, buf);
  return NULL;
}

static const fl_cli_opt *match_short(const fl_cli_cmd *cmd, char c) {
  for (const fl_cli_opt *o = FL_CLI_OPTS; o->name; o++)
    if ((o->cmds & cmd->bit) && o->short_name == c)
      return o;
  return NULL;
}

static int push_item(fl_cli_args *a, const fl_cli_opt *opt, const char *value) {
  fl_cli_item *v = realloc(a->items, (a->n_items + 1) * sizeof *v);
  if (!v)
    return -1;
  v[a->n_items++] = (fl_cli_item){opt, value};
  a->items = v;
  return 0;
}

static int push_operand(fl_cli_args *a, const char *s) {
  const char **v =
      realloc((void *)a->operands, (a->n_operands + 1) * sizeof *v);
  if (!v)
    return -1;
  v[a->n_operands++] = s;
  a->operands = v;
  return 0;
}

/* "--name[=value]" at argv[*i]; 0 or an exit code. */
static int scan_long(const fl_cli_cmd *cmd, int argc, char **argv, int *i,
                     fl_cli_args *a) {
  const char *name = argv[*i] + 2, *eq = strchr(name, '=');
  size_t len = eq ? (size_t)(eq - name) : strlen(name);
  int rc = EXIT_USAGE;
  const fl_cli_opt *opt = match_long(cmd, name, len, &rc);
  if (!opt)
    return rc;
  const char *value = NULL;
  if (!opt->arg && eq)
    return scan_error(cmd, "option '--%s' takes no value", opt->name);
  if (opt->arg && eq)
    value = eq + 1;
  else if (opt->arg && *i + 1 < argc)
    value = argv[++*i];
  else if (opt->arg)
    return scan_error(cmd, "option '--%s' needs a value (%s)", opt->name,
                      opt->arg);
  return push_item(a, opt, value) ? scan_error(cmd, "out of memory") : 0;
}

/* "-abc" or "-oVALUE" at argv[*i]; 0 or an exit code. */
static int scan_short(const fl_cli_cmd *cmd, int argc, char **argv, int *i,
                      fl_cli_args *a) {
  const char *s = argv[*i] + 1;
  for (; *s; s++) {
    const fl_cli_opt *opt = match_short(cmd, *s);
    if (!opt)
      return scan_error(cmd, "unknown option '-%c' for %s", *s, cmd->name);
    const char *value = NULL;
    if (opt->arg && s[1]) {
      value = s + 1;
    } else if (opt->arg && *i + 1 < argc) {
      value = argv[++*i];
    } else if (opt->arg) {
      return scan_error(cmd, "option '-%c' needs a value (%s)", *s, opt->arg);
    }
    if (push_item(a, opt, value))
      return scan_error(cmd, "out of memory");
    if (value)
      break;
  }
  return 0;
}

/* After an error on argument @arg that names an existing file: how to read
 * it as an input. */
static void hint_file(const fl_cli_cmd *cmd, const char *arg) {
  if (access(arg, F_OK) == 0)
    fprintf(stderr,
            "(a file named '%s' exists: after --, it is read as an input: "
            "fabriclint %s -- %s)\n",
            arg, cmd->name, arg);
}

int fl_cli_args_scan(const fl_cli_cmd *cmd, int argc, char **argv,
                     fl_cli_args *out) {
  memset(out, 0, sizeof *out);
  int rc = 0, only_operands = 0;
  for (int i = 1; i < argc && rc == 0; i++) {
    const char *s = argv[i];
    if (only_operands || s[0] != '-' || s[1] == '\0')
      rc = push_operand(out, s) ? scan_error(cmd, "out of memory") : 0;
    else if (strcmp(s, "--") == 0)
      only_operands = 1;
    else if ((rc = s[1] == '-' ? scan_long(cmd, argc, argv, &i, out)
                               : scan_short(cmd, argc, argv, &i, out)) != 0)
      hint_file(cmd, s);
  }
  if (rc != 0)
    fl_cli_args_free(out);
  return rc;
}

void fl_cli_args_free(fl_cli_args *a) {
  free(a->items);
  free((void *)a->operands);
  memset(a, 0, sizeof *a);
}
