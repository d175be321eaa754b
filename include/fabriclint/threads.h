/* SPDX-License-Identifier: MIT */
/*
 * fabriclint/threads.h — how many threads an analysis may use: one policy
 * for every worker pool of the library and the built-in plugins (issue 36).
 *
 * The number of CPUs a process may use is not the number the machine has:
 * a CPU affinity mask (taskset, cpusets, Slurm's and Open MPI's task
 * binding) or a cgroup CPU quota (containers, systemd slices, Slurm's
 * cgroup plugin, Kubernetes limits) lowers it, and a pool sized from the
 * online CPU count then runs more threads than it has CPUs. The command
 * line resolves one budget per run (`--jobs N`, else FABRICLINT_THREADS,
 * else fl_threads_available()) and hands it to the rules as
 * fl_host_api.threads (ABI 1.7); no pool runs inside another pool's
 * worker, and no report depends on the number (docs/cli.md "Threads").
 * Compiles as C99 and C++11. No global state.
 */
#ifndef FABRICLINT_THREADS_H
#define FABRICLINT_THREADS_H

#include <stdint.h>

#include "fabriclint/common.h"
#include "fabriclint/plugin.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The most threads any one pool of fabriclint runs (a budget above it is
 * cut to it). */
#define FL_THREADS_MAX 64u

/**
 * fl_threads_available() — the CPUs this process may run on: the count of
 * its CPU affinity mask (sched_getaffinity(2); the online CPU count when
 * that fails), lowered to the CPU bandwidth quota of its cgroup rounded
 * up, the smallest over the cgroup and its ancestors (cgroup v2 `cpu.max`,
 * "QUOTA PERIOD" or "max PERIOD"; cgroup v1 `cpu.cfs_quota_us` /
 * `cpu.cfs_period_us`, -1 for none; Linux
 * Documentation/admin-guide/cgroup-v2.rst "cpu.max", as the Go and Java
 * runtimes read them). Reads /proc/self/cgroup and /sys/fs/cgroup each
 * call (a few small files: call it once per run). Returns 1 to
 * FL_THREADS_MAX; never fails (an unreadable or malformed file is no
 * quota).
 */
FL_EXTERN(uint32_t) fl_threads_available(void);

/** fl_run_threads() — the thread budget of this run of the rules
 * (fl_host_api.threads: `--jobs`, FABRICLINT_THREADS or
 * fl_threads_available()), 1 to FL_THREADS_MAX; 0 when the host is older
 * than ABI 1.7 (the caller decides, e.g. from sched_getaffinity). */
static inline uint32_t fl_run_threads(const fl_host_api *api, fl_ctx *ctx) {
  return FL_API_HAS(api, threads) && api->threads ? api->threads(ctx) : 0;
}

#ifdef __cplusplus
}
#endif

#endif /* FABRICLINT_THREADS_H */
