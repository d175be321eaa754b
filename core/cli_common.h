/*
 * core/cli_common.h — option parsing and steps shared by the subcommands of
 * the fabriclint executable (internal to the CLI).
 */
#ifndef FABRICLINT_CORE_CLI_COMMON_H
#define FABRICLINT_CORE_CLI_COMMON_H

#include <stdio.h>

#include "fabriclint/load.h"
#include "host.h"

#define FL_EXIT_OK 0
#define FL_EXIT_FINDINGS 1
#define FL_EXIT_USAGE 2
#define FL_EXIT_PLUGIN 3

typedef struct fl_cli_opts {
  int out_format; /* FL_OUT_* */
  const char *output;
  uint32_t fail_on;
  const char *rules;
  const char **params;
  size_t n_params;
  const char **plugins;
  size_t n_plugins;
  const char **plugin_paths;
  size_t n_plugin_paths;
  int no_builtin;
  uint32_t input_format;
  fl_load_options load;
  int quiet, verbose;
  const char **inputs; /* borrowed from argv */
  size_t n_inputs;
} fl_cli_opts;

/** Parse options; 0 = go on, -1 = done (help/version printed), else exit code. */
int fl_cli_parse(int argc, char **argv, fl_cli_opts *o);
void fl_cli_opts_free(fl_cli_opts *o);
/** Print "fabriclint: <fmt with arg>" and a hint; returns FL_EXIT_USAGE. */
int fl_cli_usage_error(const char *fmt, const char *arg);
/** Initialise @h and load plugins per the options; 0 or an exit code. */
int fl_cli_load_plugins(const fl_cli_opts *o, fl_host *h);
/** Load and finalize every input; 0 or FL_EXIT_USAGE (error printed). */
int fl_cli_load_fabric(const fl_cli_opts *o, struct fl_fabric **out);
/** Open --output (refusing to overwrite an input); 0 or FL_EXIT_USAGE. */
int fl_cli_open_output(const fl_cli_opts *o, FILE **out);

#endif
