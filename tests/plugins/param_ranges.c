/* SPDX-License-Identifier: MIT */
/* Test plugin "tp-params": parameter declarations with and without ranges.
 * - "ratio": an ABI 1.0-size fl_param_def (no min/max members): the host
 *   still refuses non-finite values;
 * - "width": int in [2, 4]; "share": double in [0, 1].
 * check() reports one finding "width=W share=S ratio=R" so tests can see
 * the values a rule reads. Built with -DTP_BAD_DEFAULT (bad_default.c) the
 * default of "width" lies outside its range: the plugin must be refused. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "fabriclint/plugin.h"

#ifndef TP_NAME
#define TP_NAME      "tp-params"
#define TP_WIDTH_DEF "2"
#endif

static int tp_check(const fl_host_api *api, fl_ctx *ctx, void *pd) {
  (void)pd;
  int64_t w = -1;
  double s = -1, r = -1;
  api->param_int(ctx, "width", &w);
  api->param_double(ctx, "share", &s);
  api->param_double(ctx, "ratio", &r);
  char msg[128];
  snprintf(msg, sizeof msg, "width=%lld share=%g ratio=%g", (long long)w, s, r);
  fl_finding f;
  memset(&f, 0, sizeof f);
  f.struct_size = sizeof f;
  f.message = msg;
  return api->report(ctx, &f);
}

static const fl_param_def P_RATIO = {offsetof(fl_param_def, min_value),
                                     FL_PARAM_DOUBLE,
                                     "ratio",
                                     "1",
                                     NULL,
                                     "declared as ABI 1.0 did",
                                     "5", /* beyond struct_size: ignored */
                                     "5"};
static const fl_param_def P_WIDTH = {
    sizeof(fl_param_def), FL_PARAM_INT, "width", TP_WIDTH_DEF, "lanes",
    "an int in [2, 4]",   "2",          "4"};
static const fl_param_def P_SHARE = {sizeof(fl_param_def),
                                     FL_PARAM_DOUBLE,
                                     "share",
                                     "0.5",
                                     NULL,
                                     "a fraction",
                                     "0",
                                     "1"};
static const fl_param_def *const PARAMS[] = {&P_RATIO, &P_WIDTH, &P_SHARE};
static const fl_rule_def RULE = {sizeof(fl_rule_def),
                                 FL_SEV_WARNING,
                                 TP_NAME ".probe",
                                 "parameter probe",
                                 "help",
                                 1,
                                 0,
                                 PARAMS,
                                 3,
                                 tp_check};
static const fl_rule_def *const RULES[] = {&RULE};
static const fl_plugin_desc DESC = {sizeof(fl_plugin_desc),
                                    FL_ABI_MAJOR,
                                    FL_ABI_MINOR,
                                    1,
                                    TP_NAME,
                                    "0.0.1",
                                    "test",
                                    "MIT",
                                    NULL,
                                    NULL,
                                    RULES};

FL_PLUGIN_EXPORT const fl_plugin_desc *fabriclint_plugin_v1(void) {
  return &DESC;
}
