/* SPDX-License-Identifier: MIT */
/*
 * core/cli/cli_help.c — `fabriclint help [COMMAND] [--man | --completion
 * bash|zsh | --list WHAT] [-o FILE]`: the help of a command, and the man
 * page and completion scripts made from the command-line table
 * (cli_table.c, rendered by cli_usage.c). The build runs `help --man` and
 * `help --completion` to make the files `cmake --install` installs, so the
 * installed page and scripts always match the executable's own --help.
 *
 * `--list rules` and `--list params` load the plugins (with --plugin,
 * --plugin-path, --no-builtin-plugins and FABRICLINT_PLUGIN_PATH, as check
 * does) and print what they define; the completion scripts call them, so
 * rule ids complete for whatever plugins the user has.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cli_args.h"
#include "cli/cli_common.h"
#include "cli/cli_table.h"
#include "cli/cli_usage.h"
#include "host/host.h"

typedef struct help_args {
  int man;
  const char *completion, *list, *output;
  const char **plugins, **plugin_paths;
  size_t n_plugins, n_plugin_paths;
  int no_builtin, help;
} help_args;

static int push(const char ***v, size_t *n, const char *s) {
  const char **nv = realloc((void *)*v, (*n + 1) * sizeof *nv);
  if (!nv)
    return -1;
  nv[(*n)++] = s;
  *v = nv;
  return 0;
}

static int take(help_args *h, const fl_cli_item *it) {
  switch (it->opt->id) {
  case FL_OPT_MAN:
    h->man = 1;
    return 0;
  case FL_OPT_COMPLETION:
    h->completion = it->value;
    return 0;
  case FL_OPT_LIST:
    h->list = it->value;
    return 0;
  case FL_OPT_OUTPUT:
    h->output = it->value;
    return 0;
  case FL_OPT_PLUGIN:
    return push(&h->plugins, &h->n_plugins, it->value);
  case FL_OPT_PLUGIN_PATH:
    return push(&h->plugin_paths, &h->n_plugin_paths, it->value);
  case FL_OPT_NO_BUILTIN:
    h->no_builtin = 1;
    return 0;
  default: /* FL_OPT_HELP */
    h->help = 1;
    return 0;
  }
}

/* Rule ids and plugin names (@params 0), or RULE.PARAM= (1), of the
 * plugins @h names; 0 or an exit code. */
static int list_rules(FILE *out, const help_args *h, int params) {
  fl_cli_opts o;
  memset(&o, 0, sizeof o);
  o.plugins = h->plugins;
  o.n_plugins = h->n_plugins;
  o.plugin_paths = h->plugin_paths;
  o.n_plugin_paths = h->n_plugin_paths;
  o.no_builtin = h->no_builtin;
  fl_host host;
  int rc = fl_cli_load_plugins(&o, &host);
  for (size_t i = 0; rc == 0 && i < host.n_plugins; i++) {
    const fl_loaded_plugin *p = &host.plugins[i];
    if (!params)
      fprintf(out, "%s\n", p->desc.name);
    for (uint32_t r = 0; r < p->desc.n_rules; r++) {
      const fl_rule_def *rd = p->rules[r];
      if (!params)
        fprintf(out, "%s\n", rd->id);
      for (uint32_t k = 0; params && k < rd->n_params; k++)
        fprintf(out, "%s.%s=\n", rd->id, rd->params[k]->name);
    }
  }
  fl_host_free(&host);
  return rc;
}

/* The one thing `help` was asked for, written to @out; 0 or an exit code. */
static int render(FILE *out, const help_args *h, const fl_cli_cmd *cmd) {
  if (h->man)
    return fl_cli_man(out) ? FL_EXIT_USAGE : 0;
  if (h->completion && strcmp(h->completion, "bash") == 0)
    return fl_cli_completion_bash(out) ? FL_EXIT_USAGE : 0;
  if (h->completion && strcmp(h->completion, "zsh") == 0)
    return fl_cli_completion_zsh(out) ? FL_EXIT_USAGE : 0;
  if (h->completion)
    return fl_cli_usage_error("--completion: expected bash or zsh, got '%s'",
                              h->completion);
  if (h->list &&
      (strcmp(h->list, "rules") == 0 || strcmp(h->list, "params") == 0))
    return list_rules(out, h, strcmp(h->list, "params") == 0);
  if (h->list) {
    int rc = fl_cli_list_static(out, h->list,
                                cmd ? cmd : fl_cli_cmd_of(FL_CMD_CHECK));
    if (rc > 0)
      return fl_cli_usage_error("--list: expected commands, options, rules, "
                                "params, input-formats, formats or kinds, "
                                "got '%s'",
                                h->list);
    return rc ? FL_EXIT_USAGE : 0;
  }
  if (cmd)
    return fl_cli_usage_cmd(out, cmd) ? FL_EXIT_USAGE : 0;
  return fl_cli_usage(out) ? FL_EXIT_USAGE : 0;
}

/* The COMMAND operand (NULL when none); 0 or an exit code. */
static int help_command(const fl_cli_args *args, const fl_cli_cmd **cmd) {
  *cmd = NULL;
  if (args->n_operands > 1)
    return fl_cli_usage_error("help takes at most one COMMAND; '%s' is one "
                              "too many",
                              args->operands[1]);
  if (args->n_operands == 1 && !(*cmd = fl_cli_find_cmd(args->operands[0])))
    return fl_cli_usage_error("help: unknown command '%s' (fabriclint help "
                              "--list commands)",
                              args->operands[0]);
  return 0;
}

int fl_cli_help(int argc, char **argv) {
  const fl_cli_cmd *self = fl_cli_find_cmd("help"), *cmd = NULL;
  fl_cli_args args;
  help_args h;
  memset(&h, 0, sizeof h);
  if (fl_cli_args_scan(self, argc, argv, &args) != 0)
    return FL_EXIT_USAGE;
  int rc = 0;
  for (size_t i = 0; i < args.n_items && rc == 0; i++)
    if (take(&h, &args.items[i]) != 0)
      rc = fl_cli_usage_error("out of memory%s", "");
  if (rc == 0)
    rc = help_command(&args, &cmd);
  if (rc == 0 && h.man + !!h.completion + !!h.list > 1)
    rc = fl_cli_usage_error("help: give one of --man, --completion and "
                            "--list%s",
                            "");
  if (rc == 0 && h.help)
    rc = fl_cli_usage_cmd(stdout, self) ? FL_EXIT_USAGE : 0;
  else if (rc == 0) {
    fl_cli_opts o;
    memset(&o, 0, sizeof o);
    o.output = h.output;
    fl_outfile out = {0};
    rc = fl_cli_open_output(&o, &out);
    if (rc == 0)
      rc = render(out.f, &h, cmd);
    rc = fl_cli_close_output(&out, rc);
  }
  free((void *)h.plugins);
  free((void *)h.plugin_paths);
  fl_cli_args_free(&args);
  return rc;
}
