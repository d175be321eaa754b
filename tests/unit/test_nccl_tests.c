/* SPDX-License-Identifier: MIT */
/*
 * tests/unit/test_nccl_tests.c — the nccl-tests log reader
 * (core/io/nccl_tests.c). The lines are those of the real logs under
 * tests/fixtures/nccl-tests/ (PROVENANCE.md), cut and varied:
 *   - the three fixtures: rows, sets, columns, ranks, hosts, GPUs per
 *     host, NCCL_ALGO (an `export` line), the mpirun and srun prefixes,
 *     N/A, old `error` values, NCCL INFO lines in between;
 *   - the layouts: with root (13 columns), without (12, the old format),
 *     one set (9), no header (the row's length decides);
 *   - the test's name: `# Collective test starting:` wins over a command
 *     line; a command line alone names it (with the _mpi suffix); two
 *     different programs on command lines leave it unknown;
 *     `NCCL_ALGO set by environment to Tree`;
 *   - errors with line:col: a missing column, an extra one, a bad value,
 *     a rank twice, a rank missing, a second run, no row at all;
 *   - caps at their boundary and one past: a line of FL_NCCL_MAX_LINE
 *     bytes and one more, FL_NCCL_MAX_ROWS rows and one more.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "io/nccl_tests.h"
#include "io/workload.h"

#define FIX FL_SOURCE_DIR "/tests/fixtures/nccl-tests/"

static int parse(fl_nccl_log *log, const char *text, fl_error *err) {
  fl_error_clear(err);
  return fl_nccl_log_parse(log, "t.log", text, strlen(text), err);
}

static void test_fixtures(void **state) {
  (void)state;
  fl_nccl_log log;
  fl_error err;
  fl_error_clear(&err);
  assert_int_equal(
      fl_nccl_log_load(&log, FIX "nccl-tests-290-h100-2node-default.log", &err),
      FL_OK);
  assert_int_equal(log.n_rows, 11);
  assert_int_equal(log.sets, 2);
  assert_int_equal(log.lead, 5);
  assert_int_equal(log.ranks, 16);
  assert_int_equal(log.n_hosts, 2);
  assert_string_equal(log.hosts[0], "node005");
  assert_string_equal(log.hosts[1], "node007");
  assert_int_equal(log.host_ranks[0], 8);
  assert_int_equal(log.host_ranks[1], 8);
  assert_string_equal(log.test, "");
  assert_string_equal(log.algo, "");
  assert_true(log.rows[10].bytes == 8589934592ull);
  assert_true(log.rows[10].count == 2147483648ull);
  assert_true(log.rows[10].time_us[0] == 103530);
  assert_true(log.rows[10].busbw[0] == 155.57);
  assert_true(log.rows[10].busbw[1] == 155.56);
  assert_int_equal(log.rows[0].line, 24);
  fl_nccl_log_free(&log);

  assert_int_equal(
      fl_nccl_log_load(&log, FIX "nccl-tests-290-h100-2node-ring.log", &err),
      FL_OK);
  assert_string_equal(log.algo, "RING");
  assert_int_equal(log.algo_line, 1);
  assert_int_equal(log.n_rows, 11);
  assert_true(log.rows[10].busbw[0] == 89.90);
  fl_nccl_log_free(&log);

  assert_int_equal(
      fl_nccl_log_load(&log, FIX "aws-efa-eks-p4d-2node.log", &err), FL_OK);
  assert_int_equal(log.n_rows, 30);
  assert_int_equal(log.lead, 4); /* size count type redop: no root */
  assert_int_equal(log.ranks, 16);
  assert_string_equal(log.hosts[0], "nccl-tests-efa-16-worker-0");
  assert_int_equal(log.host_ranks[1], 8);
  assert_true(log.rows[29].bytes == 4294967296ull);
  assert_true(log.rows[29].time_us[0] == 183834);
  assert_true(log.rows[29].busbw[0] == 43.81);
  assert_true(log.rows[29].busbw[1] == 43.72);
  fl_nccl_log_free(&log);
}

#define HDR2                                                                   \
  "#       size         count      type   redop    root     time   algbw   "   \
  "busbw #wrong     time   algbw   busbw #wrong\n"
#define RANKS                                                                  \
  "#  Rank  0 Group  0 Pid 1 on a device  0 [0x18] NVIDIA H100\n"              \
  "#  Rank  1 Group  0 Pid 2 on b device  0 [0x18] NVIDIA H100\n"

static void test_layouts(void **state) {
  (void)state;
  fl_nccl_log log;
  fl_error err;
  /* one set with root, and a header-less old row with error values */
  assert_int_equal(parse(&log,
                         RANKS "#  size count type redop root time algbw "
                               "busbw #wrong\n"
                               "  1024  256  float  sum  -1  10.5  0.10  "
                               "0.10  0\n",
                         &err),
                   FL_OK);
  assert_int_equal(log.sets, 1);
  assert_int_equal(log.lead, 5);
  assert_true(isnan(log.rows[0].busbw[1]));
  fl_nccl_log_free(&log);
  assert_int_equal(parse(&log,
                         RANKS "           8             2   float     sum    "
                               "179.1    0.00    0.00  2e-07    176.3    "
                               "0.00    0.00  1e-07\n",
                         &err),
                   FL_OK);
  assert_int_equal(log.sets, 2);
  assert_int_equal(log.lead, 4);
  assert_true(log.rows[0].time_us[1] == 176.3);
  fl_nccl_log_free(&log);
  /* N/A anywhere */
  assert_int_equal(parse(&log,
                         RANKS HDR2 "  1024  256  float  sum  -1  N/A  N/A  "
                                    "N/A  N/A  1.0  2.0  3.0  0\n",
                         &err),
                   FL_OK);
  assert_true(isnan(log.rows[0].time_us[0]));
  assert_true(log.rows[0].busbw[1] == 3.0);
  fl_nccl_log_free(&log);
}

static void test_names(void **state) {
  (void)state;
  fl_nccl_log log;
  fl_error err;
  const char *row = "  1024  256  float  sum  -1  10.5  0.10  0.10  0  10.5  "
                    "0.10  0.10  0\n";
  char buf[2048];
  snprintf(buf, sizeof buf,
           "mpirun -np 2 ./build/all_gather_perf_mpi -b 8\n"
           "# Collective test starting: reduce_scatter_perf\n" RANKS HDR2 "%s",
           row);
  assert_int_equal(parse(&log, buf, &err), FL_OK);
  assert_string_equal(log.test, "reduce_scatter_perf");
  assert_int_equal(log.test_line, 2);
  assert_int_equal(fl_nccl_test_op(log.test), FL_WL_REDUCE_SCATTER);
  fl_nccl_log_free(&log);
  snprintf(buf, sizeof buf,
           "[1,0]<stdout>:mpirun -x NCCL_ALGO=Ring ./all_gather_perf_mpi\n"
           "[1,0]<stdout>:#  Rank  0 Group  0 Pid 1 on a device 0 [0] X\n"
           "[1,1]<stderr>:#  Rank  0 Group  0 Pid 1 on a device 0 [0] X\n"
           "[1,0]<stdout>:" HDR2 "[1,0]<stdout>:%s",
           row);
  assert_int_equal(parse(&log, buf, &err), FL_OK);
  assert_string_equal(log.test, "all_gather_perf");
  assert_string_equal(log.algo, "Ring");
  assert_int_equal(log.ranks, 1);
  assert_int_equal(fl_nccl_test_op(log.test), FL_WL_ALL_GATHER);
  fl_nccl_log_free(&log);
  snprintf(buf, sizeof buf,
           "./all_gather_perf\n./alltoall_perf\nhost:1:2 [0] NCCL INFO "
           "NCCL_ALGO set by environment to Tree\n" RANKS HDR2 "%s",
           row);
  assert_int_equal(parse(&log, buf, &err), FL_OK);
  assert_string_equal(log.test, ""); /* two programs: unknown */
  assert_string_equal(log.algo, "Tree");
  assert_int_equal(fl_nccl_test_op("broadcast_perf"), 0);
  assert_int_equal(fl_nccl_test_op("sendrecv_perf"), FL_WL_SENDRECV);
  fl_nccl_log_free(&log);
}

static void expect_err(const char *text, uint32_t line, uint32_t col,
                       const char *what) {
  fl_nccl_log log;
  fl_error err;
  assert_int_equal(parse(&log, text, &err), FL_EPARSE);
  if (!strstr(err.message, what))
    fail_msg("message '%s' lacks '%s'", err.message, what);
  assert_int_equal(err.line, line);
  assert_int_equal(err.col, col);
  fl_nccl_log_free(&log);
}

static void test_errors(void **state) {
  (void)state;
  /* a missing column: named at the line's end */
  expect_err(RANKS HDR2 "  1024  256  float  sum  -1  10.5  0.10  0.10  0  "
                        "10.5  0.10  0.10\n",
             4, 67, "a column is missing");
  expect_err(RANKS HDR2 "  1024  256  float  sum  -1  10.5  0.10  0.10  0  "
                        "10.5  0.10  0.10  0  7\n",
             4, 72, "found more");
  expect_err(RANKS HDR2 "  1024  256  float  sum  -1  10.5  fast  0.10  0  "
                        "10.5  0.10  0.10  0\n",
             4, 36, "out-of-place algbw");
  expect_err("#  Rank  0 Pid 1 on a device 0\n#  Rank  0 Pid 1 on b device "
             "0\n",
             2, 10, "rank 0 listed twice (first on line 1)");
  expect_err("#  Rank  1 Pid 1 on a device 0\n" HDR2
             "  1024  256  float  sum  -1  10.5  0.10  0.10  0  10.5  0.10  "
             "0.10  0\n",
             1, 0, "rank 0 is missing");
  expect_err("# nThread 1 nGpus 1\n# nThread 1 nGpus 1\n", 2, 3,
             "a second run begins here (the first on line 1)");
  expect_err("# nThread 1 nGpus 1\nhello\n", 2, 0, "no data row");
  expect_err("", 0, 0, "no data row");
}

static void test_caps(void **state) {
  (void)state;
  const char *row = "  1024  256  float  sum  -1  10.5  0.10  0.10  0  10.5  "
                    "0.10  0.10  0\n";
  size_t rl = strlen(row), hl = strlen(RANKS HDR2);
  /* a line of exactly FL_NCCL_MAX_LINE bytes reads; one more does not */
  char *buf = malloc(hl + FL_NCCL_MAX_LINE + 2 + rl + 1);
  assert_non_null(buf);
  for (int past = 0; past < 2; past++) {
    size_t n = FL_NCCL_MAX_LINE + (size_t)past;
    memset(buf, 'x', n);
    buf[n] = '\n';
    memcpy(buf + n + 1, RANKS HDR2, hl);
    memcpy(buf + n + 1 + hl, row, rl + 1);
    fl_nccl_log log;
    fl_error err;
    int rc = parse(&log, buf, &err);
    assert_int_equal(rc, past ? FL_EPARSE : FL_OK);
    if (past) {
      assert_int_equal(err.line, 1);
      assert_int_equal(err.col, FL_NCCL_MAX_LINE + 1);
    }
    fl_nccl_log_free(&log);
  }
  free(buf);
  /* FL_NCCL_MAX_ROWS rows read; one more is refused at its line */
  buf = malloc(hl + (FL_NCCL_MAX_ROWS + 1) * rl + 1);
  assert_non_null(buf);
  for (int past = 0; past < 2; past++) {
    size_t n = FL_NCCL_MAX_ROWS + (size_t)past;
    memcpy(buf, RANKS HDR2, hl);
    for (size_t i = 0; i < n; i++)
      memcpy(buf + hl + i * rl, row, rl);
    buf[hl + n * rl] = '\0';
    fl_nccl_log log;
    fl_error err;
    int rc = parse(&log, buf, &err);
    assert_int_equal(rc, past ? FL_EPARSE : FL_OK);
    if (past) {
      assert_int_equal(err.line, 3 + FL_NCCL_MAX_ROWS + 1);
      assert_non_null(strstr(err.message, "more than 65536 data rows"));
    } else
      assert_int_equal(log.n_rows, FL_NCCL_MAX_ROWS);
    fl_nccl_log_free(&log);
  }
  free(buf);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_fixtures), cmocka_unit_test(test_layouts),
      cmocka_unit_test(test_names),    cmocka_unit_test(test_errors),
      cmocka_unit_test(test_caps),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
