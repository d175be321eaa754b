/* SPDX-License-Identifier: MIT */
/*
 * tests/fuzz/fuzz_policy.c — policy YAML (core/policy.c). The input is the
 * policy file; an accepted policy is then queried and its waivers applied
 * to an empty findings list (each becomes a policy.unused-waiver or
 * policy.expired-waiver finding).
 */
#include "fabriclint/error.h"
#include "fabriclint/types.h"
#include "fuzz.h"
#include "host/findings.h"
#include "host/policy.h"

static void exercise(const fl_policy *p) {
  static const char *const ids[] = {"topology.one-sided-link",
                                    "deadlock.credit-loop", "diff.missing"};
  for (size_t i = 0; i < sizeof ids / sizeof *ids; i++) {
    (void)fl_policy_severity_of(p, ids[i]);
    (void)fl_policy_enables(p, ids[i]);
    (void)fl_policy_disables(p, ids[i]);
  }
  fl_findings fs = {0};
  fl_error err;
  fl_error_clear(&err);
  int rc = fl_policy_apply_waivers(p, &fs, "2025-06-15", &err);
  fz_check_error(rc, &err);
  fl_findings_free(&fs);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fl_policy p;
  fl_error err;
  fl_error_clear(&err);
  int rc = fl_policy_load(&p, fz_file(0, data, size), &err);
  fz_check_error(rc, &err);
  if (rc == FL_OK)
    exercise(&p);
  fl_policy_free(&p);
  fz_set_outcome(rc == FL_OK);
  return 0;
}
