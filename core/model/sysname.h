/* SPDX-License-Identifier: MIT */
/*
 * core/model/sysname.h — splitting a CA's name into its system (host) and
 * device: "dgx-001 mlx5_0" -> "dgx-001", "mlx5_0" (internal).
 *
 * The split is a POSIX ERE with two groups (FL_DEFAULT_SYSTEM_PATTERN, or
 * the user's --system-pattern). The default pattern is matched by a
 * hand-written scanner instead of regexec(): on a 65,536-host capture
 * regexec() was about a fifth of loading (issue 33). The scanner gives the
 * regex's answer on every input (tests/unit/test_sysname.c compares them
 * on every string of a small alphabet up to length 6 and on random token
 * strings).
 */
#ifndef FABRICLINT_CORE_SYSNAME_H
#define FABRICLINT_CORE_SYSNAME_H

#include <regex.h>

#include "fabriclint/error.h"
#include "fabriclint/types.h"

/**
 * The default system/device pattern (POSIX ERE, group 1 = system, group 2 =
 * device): "<host> <rdma device>" where the device looks like mlx5_0,
 * HCA-1, hfi1_0, qib0, irdma0, bnxt_re0, rocep..., ibp..., erdma_0, efa_0
 * (the Linux default NodeDescription "<hostname> <ibdev>" that rdma-core's
 * rdma-ndd sets).
 */
extern const char FL_DEFAULT_SYSTEM_PATTERN[];

/**
 * fl_pattern_check() — 0 when @pattern compiles as a POSIX ERE with at
 * least two groups; else FL_EINVAL with @err saying why.
 */
int fl_pattern_check(const char *pattern, fl_error *err);

/** A compiled system pattern: the default one's scanner, or a regex. */
typedef struct fl_sysmatch {
  int fast;   /* 1: the default pattern, matched by fl_sysname_default() */
  regex_t re; /* else the compiled pattern (REG_EXTENDED) */
} fl_sysmatch;

/**
 * fl_sysmatch_init() — compile @pattern (NULL: FL_DEFAULT_SYSTEM_PATTERN)
 * into @m. Returns FL_OK, or FL_EINVAL with @err saying why when it does
 * not compile or has fewer than two groups (fl_pattern_check()). On FL_OK
 * free @m with fl_sysmatch_free().
 */
int fl_sysmatch_init(fl_sysmatch *m, const char *pattern, fl_error *err);

/**
 * fl_sysmatch_run() — match NUL-terminated @s: 0 with @out[1] the system
 * and @out[2] the device (byte offsets into @s, as regexec() gives them),
 * else non-zero (no match; @out undefined).
 */
int fl_sysmatch_run(const fl_sysmatch *m, const char *s, regmatch_t out[3]);

/** fl_sysmatch_free() — release what fl_sysmatch_init() made. */
void fl_sysmatch_free(fl_sysmatch *m);

/**
 * fl_sysname_default() — FL_DEFAULT_SYSTEM_PATTERN without regexec(): 0
 * when @s is optional white space, a run of non-space bytes (the system),
 * white space, one of the RDMA device names the pattern lists (the device)
 * and optional white space, with @out[0..2] set as regexec() sets them;
 * else REG_NOMATCH. White space is the C locale's (space, \t \n \v \f \r).
 */
int fl_sysname_default(const char *s, regmatch_t out[3]);

#endif
