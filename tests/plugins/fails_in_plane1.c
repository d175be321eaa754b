/* SPDX-License-Identifier: MIT */
/* Test plugin "fails_in_plane1": ABI 1.0, one rule without
 * FL_NEEDS_ALL_PLANES whose check() fails on a fabric holding a node named
 * `pl1-...` (plane 1 of `fabriclint gen --planes N`) and reports one
 * finding elsewhere. On a multi-plane fabric the rule runs once per plane:
 * its run must stay failed although the plane-2 run after it succeeds
 * (core/host/host_run.c, run_selected; tests/cli/plugin_abi.sh). */
#define TP_NAME         "tp-plane1-fails"
#define TP_MAJOR        1u
#define TP_MINOR        0u
#define TP_CHECK_RC     0
#define TP_CUSTOM_CHECK 1
#include <string.h>

#include "fabriclint/plugin.h"

static int tp_check(const fl_host_api *api, fl_ctx *ctx, void *pd) {
  (void)pd;
  const fl_fabric *f = api->fabric(ctx);
  for (fl_id n = 0; n < api->node_count(f); n++)
    if (strncmp(api->node_name(f, n), "pl1-", 4) == 0) {
      api->fail(ctx, "the test plugin was told to fail in plane 1");
      return 1;
    }
  fl_finding fd;
  memset(&fd, 0, sizeof fd);
  fd.struct_size = sizeof fd;
  fd.message = "test finding outside plane 1";
  return api->report(ctx, &fd);
}

#include "common_test_plugin.h"

FL_PLUGIN_EXPORT const fl_plugin_desc *fabriclint_plugin_v1(void) {
  return &TP_DESC;
}
