/* SPDX-License-Identifier: MIT */
/* Test plugin "fabric_serial": ABI 1.5, two rules without
 * FL_NEEDS_ALL_PLANES that each report one finding naming what they were
 * run on: "serial=S fabric=P nodes=N" (fl_host_api.fabric_serial, the
 * fabric pointer, its node count). tests/unit/test_host_serial.c runs them
 * on a two-plane fabric, twice, and checks the contract plugins key their
 * caches by: one serial per pass, shared by its rules, never repeated, even
 * where a freed plane subset's address is reused (core/host/host_run.c,
 * run_planes). */
#define TP_NAME         "tp-serial"
#define TP_MAJOR        1u
#define TP_MINOR        5u
#define TP_CHECK_RC     0
#define TP_CUSTOM_CHECK 1
#include <stdio.h>
#include <string.h>

#include "fabriclint/plugin.h"

static int tp_check(const fl_host_api *api, fl_ctx *ctx, void *pd) {
  (void)pd;
  fl_fabric_key k = fl_fabric_key_of(api, ctx);
  char msg[128];
  snprintf(msg, sizeof msg, "serial=%llu fabric=%p nodes=%u",
           (unsigned long long)k.serial, (const void *)k.f,
           api->node_count(k.f));
  fl_finding fd;
  memset(&fd, 0, sizeof fd);
  fd.struct_size = sizeof fd;
  fd.message = msg;
  return api->report(ctx, &fd);
}

#include "common_test_plugin.h"

static const fl_rule_def TP_RULE2 = {sizeof(fl_rule_def),
                                     FL_SEV_WARNING,
                                     TP_NAME ".second",
                                     "test rule",
                                     "help",
                                     1,
                                     0,
                                     NULL,
                                     0,
                                     tp_check};
static const fl_rule_def *const TP_RULES2[] = {&TP_RULE, &TP_RULE2};
static const fl_plugin_desc TP_DESC2 = {sizeof(fl_plugin_desc),
                                        TP_MAJOR,
                                        TP_MINOR,
                                        2,
                                        TP_NAME,
                                        "0.0.1",
                                        "test",
                                        "MIT",
                                        NULL,
                                        NULL,
                                        TP_RULES2};

FL_PLUGIN_EXPORT const fl_plugin_desc *fabriclint_plugin_v1(void) {
  (void)TP_DESC;
  return &TP_DESC2;
}
