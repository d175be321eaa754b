/* SPDX-License-Identifier: MIT */
/*
 * tests/plugins/common_test_plugin.h — shared pieces of the deliberately
 * broken plugins the ABI tests load. Each .c defines TP_NAME, TP_MAJOR,
 * TP_MINOR and TP_CHECK_RC before including this; one that defines
 * TP_CUSTOM_CHECK brings its own static tp_check() (defined before the
 * include) instead of the one below.
 */
#include <string.h>

#include "fabriclint/plugin.h"

#ifndef TP_CUSTOM_CHECK
static int tp_check(const fl_host_api *api, fl_ctx *ctx, void *pd) {
  (void)pd;
  if (TP_CHECK_RC != 0) {
    api->fail(ctx, "the test plugin was told to fail");
    return TP_CHECK_RC;
  }
  fl_finding f;
  memset(&f, 0, sizeof f);
  f.struct_size = sizeof f;
  f.message = "test finding from " TP_NAME;
  return api->report(ctx, &f);
}
#endif

static const fl_rule_def TP_RULE = {sizeof(fl_rule_def),
                                    FL_SEV_WARNING,
                                    TP_NAME ".probe",
                                    "test rule",
                                    "help",
                                    1,
                                    0,
                                    NULL,
                                    0,
                                    tp_check};
static const fl_rule_def *const TP_RULES[] = {&TP_RULE};
static const fl_plugin_desc TP_DESC = {sizeof(fl_plugin_desc),
                                       TP_MAJOR,
                                       TP_MINOR,
                                       1,
                                       TP_NAME,
                                       "0.0.1",
                                       "test",
                                       "MIT",
                                       NULL,
                                       NULL,
                                       TP_RULES};
