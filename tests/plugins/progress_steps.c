/* SPDX-License-Identifier: MIT */
/* Test plugin "tp-progress" (ABI 1.2): rule tp-progress.steps does
 * `steps` steps (default 4), sleeping `ms` milliseconds each (default 0),
 * and reports each through fl_progress() in units "steps"; after the first
 * half it logs the warning "halfway" and the note "a note for -v" through
 * api->log. It reports one finding, "did N steps". Rule tp-progress.again
 * (opt-in) does the same with its own parameters, so the plugin can have two
 * rules to time. The progress display tests (tests/cli/progress_live.sh)
 * read the percentages it causes. */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "fabriclint/plugin.h"

static int tp_check(const fl_host_api *api, fl_ctx *ctx, void *pd) {
  (void)pd;
  int64_t steps = 4, ms = 0;
  api->param_int(ctx, "steps", &steps);
  api->param_int(ctx, "ms", &ms);
  for (int64_t i = 1; i <= steps; i++) {
    struct timespec t = {(time_t)(ms / 1000), (long)(ms % 1000) * 1000000L};
    if (ms > 0)
      nanosleep(&t, NULL);
    fl_progress(api, ctx, "steps", (uint64_t)i, (uint64_t)steps);
    if (i == steps / 2) {
      api->log(ctx, FL_SEV_WARNING, "halfway");
      api->log(ctx, FL_SEV_INFO, "a note for -v");
    }
  }
  char msg[64];
  snprintf(msg, sizeof msg, "did %lld steps", (long long)steps);
  return fl_emit(api, ctx, 0, msg, NULL, 0, NULL, 0, NULL, 0, NULL);
}

static const fl_param_def P_STEPS = {
    sizeof(fl_param_def), FL_PARAM_INT, "steps",  "4", "steps",
    "steps to do",        "1",          "1000000"};
static const fl_param_def P_MS = {
    sizeof(fl_param_def), FL_PARAM_INT, "ms",   "0", "ms",
    "sleep per step",     "0",          "10000"};
static const fl_param_def *const PARAMS[] = {&P_STEPS, &P_MS};
static const fl_rule_def RULE = {sizeof(fl_rule_def),
                                 FL_SEV_WARNING,
                                 "tp-progress.steps",
                                 "reports its progress",
                                 "help",
                                 1,
                                 0,
                                 PARAMS,
                                 2,
                                 tp_check};
static const fl_rule_def AGAIN = {sizeof(fl_rule_def),
                                  FL_SEV_WARNING,
                                  "tp-progress.again",
                                  "reports its progress too",
                                  "help",
                                  0,
                                  0,
                                  PARAMS,
                                  2,
                                  tp_check};
static const fl_rule_def *const RULES[] = {&RULE, &AGAIN};
static const fl_plugin_desc DESC = {sizeof(fl_plugin_desc),
                                    FL_ABI_MAJOR,
                                    FL_ABI_MINOR,
                                    2,
                                    "tp-progress",
                                    "0.0.1",
                                    "test",
                                    "MIT",
                                    NULL,
                                    NULL,
                                    RULES};

FL_PLUGIN_EXPORT const fl_plugin_desc *fabriclint_plugin_v1(void) {
  return &DESC;
}
