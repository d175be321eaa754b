/* SPDX-License-Identifier: MIT */
/*
 * tests/fuzz/fuzz_baseline.c — baseline files (core/baseline.c, written by
 * --write-baseline). The input is the file; an accepted baseline is applied
 * to an empty findings list.
 */
#include "fabriclint/error.h"
#include "fabriclint/types.h"
#include "fuzz.h"
#include "host/findings.h"
#include "report/baseline.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fl_baseline b;
  fl_error err;
  fl_error_clear(&err);
  int rc = fl_baseline_load(&b, fz_file(0, data, size), &err);
  fz_check_error(rc, &err);
  if (rc == FL_OK) {
    fl_findings fs = {0};
    (void)fl_baseline_apply(&b, &fs);
    fl_findings_free(&fs);
  }
  fl_baseline_free(&b);
  fz_set_outcome(rc == FL_OK);
  return 0;
}
