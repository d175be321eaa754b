/* SPDX-License-Identifier: MIT */
/*
 * core/io/nccl_tests.h — a reader of nccl-tests' text output (the
 * all_reduce_perf, all_gather_perf, ... programs of NVIDIA/nccl-tests):
 * the per-size data rows, the ranks and their hosts, the test's name and
 * NCCL_ALGO where the log shows them. `fabriclint perf --measured` is the
 * caller (docs/perf.md, "Measured: nccl-tests logs"). Internal to the
 * library; it never prints.
 *
 * What a log holds (nccl-tests src/common.cu, every version since 2.0;
 * the fixtures under tests/fixtures/nccl-tests/ are real ones):
 *
 *   # nccl-tests version 2.17.6 ...                    (newer versions)
 *   # Collective test starting: all_reduce_perf        (newer versions)
 *   # nThread 1 nGpus 1 minBytes 8 maxBytes 8589934592 step: 2(factor) ...
 *   # Using devices
 *   #  Rank  0 Group  0 Pid  43 on host-0 device  0 [0x0f] NVIDIA A100...
 *   #   Rank  0 Pid     26 on host-0 device  0 [0x10] A100-SXM4-40GB (old)
 *   #       size   count  type  redop  root   time  algbw  busbw #wrong ...
 *          8388608  2097152  float  sum  -1  215.3  38.96  73.04  N/A ...
 *   # Avg bus bandwidth    : 142.735
 *   # Collective test concluded: all_reduce_perf
 *
 * A data row is size, count, type, then the test's own columns (redop
 * and/or root, or neither in old versions: the header line says which,
 * else the row's length does), then one or two sets (out-of-place,
 * in-place) of time (us), algbw and busbw (GB/s) and #wrong (a count, or
 * an `error` value such as 2e-07 in old versions); any value may be N/A.
 * A prefix that a launcher adds to every line is read past: mpirun's
 * `[1,0]<stdout>:` (--tag-output) and srun's ` 0: ` (--label). Lines that
 * are neither a row nor one of the `#` lines above (NCCL INFO lines, shell
 * echo, MPI warnings) are ignored; a line whose first word is a number
 * after the column header is a row and must be one.
 */
#ifndef FABRICLINT_CORE_IO_NCCL_TESTS_H
#define FABRICLINT_CORE_IO_NCCL_TESTS_H

#include <stddef.h>
#include <stdint.h>

#include "fabriclint/error.h"

/** Most data rows a log may hold (nccl-tests -f 2 from 1 B to 2^40 B is
 * 41; -i steps of a few MB over a few GB are a few thousand). */
#define FL_NCCL_MAX_ROWS 65536u
/** Longest line read (bytes): an mpirun/orted command line with its
 * environment is a few KB. */
#define FL_NCCL_MAX_LINE 65536u
/** Most ranks a log may list. */
#define FL_NCCL_MAX_RANKS 1048576u

/**
 * fl_nccl_row — one size: @bytes (nccl-tests' size), @count (elements),
 * per set s (0 out-of-place, 1 in-place) @time_us[s], @algbw[s] and
 * @busbw[s] (GB/s); NAN where the log says N/A or has no such set. @line:
 * 1-based line of the row.
 */
typedef struct fl_nccl_row {
  uint64_t bytes, count;
  double time_us[2], algbw[2], busbw[2];
  uint32_t line;
} fl_nccl_row;

/**
 * fl_nccl_log — a read log. @rows[@n_rows] in the log's order; @sets 1 or
 * 2 (value sets per row); @lead the columns before the first time (3 to
 * 5: size, count, type, then redop and/or root). @ranks the ranks of the
 * `# Rank` lines (0: none), @hosts[@n_hosts] the distinct host names in
 * rank order with @host_ranks[h] ranks each. @test the program named
 * (all_reduce_perf, ... with any suffix such as _mpi cut off; "" unknown)
 * and @test_line where; @algo the value of NCCL_ALGO where the log shows
 * it ("" not shown) and @algo_line. Owned by the struct: fl_nccl_log_free.
 */
typedef struct fl_nccl_log {
  char *path;
  fl_nccl_row *rows;
  size_t n_rows;
  uint32_t sets, lead;
  uint32_t ranks;
  char **hosts;
  uint32_t *host_ranks;
  size_t n_hosts;
  char test[32];
  uint32_t test_line;
  char algo[32];
  uint32_t algo_line;
} fl_nccl_log;

/**
 * fl_nccl_log_parse() — read nccl-tests output @text (@len bytes) named
 * @name into @log (overwritten). FL_OK; FL_EPARSE with @err naming
 * @name:line:col and what was expected (a malformed row, a rank listed
 * twice or missing, two different runs, more than FL_NCCL_MAX_ROWS rows,
 * a line longer than FL_NCCL_MAX_LINE, no data row at all, a NUL byte);
 * FL_ENOMEM.
 * Call fl_nccl_log_free() either way. O(length).
 */
int fl_nccl_log_parse(fl_nccl_log *log, const char *name, const char *text,
                      size_t len, fl_error *err);

/** fl_nccl_log_load() — read file @path (fl_input_read, "-" is standard
 * input) and fl_nccl_log_parse() it. */
int fl_nccl_log_load(fl_nccl_log *log, const char *path, fl_error *err);

/** fl_nccl_log_free() — release what @log owns; zeroes it. */
void fl_nccl_log_free(fl_nccl_log *log);

/**
 * fl_nccl_test_op() — the collective (FL_WL_* of io/workload.h) of
 * nccl-tests program @test ("all_reduce_perf" → FL_WL_ALL_REDUCE,
 * all_gather_perf, reduce_scatter_perf, alltoall_perf, sendrecv_perf); 0
 * for another program (broadcast_perf, reduce_perf, ...) or "".
 */
uint32_t fl_nccl_test_op(const char *test);

#endif
