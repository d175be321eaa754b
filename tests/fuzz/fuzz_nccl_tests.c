/* SPDX-License-Identifier: MIT */
/*
 * tests/fuzz/fuzz_nccl_tests.c — the nccl-tests log reader of `perf
 * --measured` (core/io/nccl_tests.c).
 *
 * A crash, a leak or a refusal without an error record is a finding, and
 * so is an accepted log that breaks what nccl_tests.h promises: no row or
 * more than FL_NCCL_MAX_ROWS, a row layout other than 1 or 2 sets after 3
 * to 5 columns, a value negative or infinite (N/A is NaN), ranks that the
 * hosts' counts do not add up to, a host without a rank or without a
 * name, a test name that is not one of nccl-tests' programs.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabriclint/error.h"
#include "fuzz.h"
#include "io/nccl_tests.h"

static void bad(const char *what) {
  fprintf(stderr, "fuzz: accepted log: %s\n", what);
  abort();
}

static int bad_value(double v) {
  return !isnan(v) && (v < 0 || isinf(v));
}

static void check(const fl_nccl_log *log) {
  if (log->n_rows == 0 || log->n_rows > FL_NCCL_MAX_ROWS)
    bad("no row, or more than the cap");
  if (log->sets < 1 || log->sets > 2 || log->lead < 3 || log->lead > 5)
    bad("a row layout nccl-tests does not print");
  for (size_t i = 0; i < log->n_rows; i++)
    for (int s = 0; s < 2; s++) {
      const fl_nccl_row *r = &log->rows[i];
      if (bad_value(r->time_us[s]) || bad_value(r->algbw[s]) ||
          bad_value(r->busbw[s]))
        bad("a negative or infinite value");
      if (s >= (int)log->sets && !isnan(r->time_us[s]))
        bad("a value in a set the rows do not have");
    }
  uint64_t sum = 0;
  for (size_t h = 0; h < log->n_hosts; h++) {
    if (!log->hosts[h] || !log->hosts[h][0] || log->host_ranks[h] == 0)
      bad("a host without a name or a rank");
    sum += log->host_ranks[h];
  }
  if (sum != log->ranks || log->ranks > FL_NCCL_MAX_RANKS)
    bad("ranks the hosts do not add up to");
  if (log->test[0] && !strstr(log->test, "_perf"))
    bad("a test that is no nccl-tests program");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  /* an exact-size copy: a read past the end is AddressSanitizer's */
  char *text = malloc(size ? size : 1);
  if (!text)
    abort();
  memcpy(text, data, size);
  fl_nccl_log log;
  fl_error err;
  fl_error_clear(&err);
  int rc = fl_nccl_log_parse(&log, "fuzz.log", text, size, &err);
  fz_check_error(rc, &err);
  if (rc == FL_OK)
    check(&log);
  fz_set_outcome(rc == FL_OK);
  fl_nccl_log_free(&log);
  free(text);
  return 0;
}
