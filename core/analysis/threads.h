/* SPDX-License-Identifier: MIT */
/* core/analysis/threads.h — the probe behind fl_threads_available()
 * (fabriclint/threads.h), with its files named so that a test can hand it
 * a made-up /proc/self/cgroup and cgroup tree. */
#ifndef FL_ANALYSIS_THREADS_H
#define FL_ANALYSIS_THREADS_H

#include <stdint.h>

/* The CPUs a process may use: @affinity (its affinity mask's count, >= 1)
 * lowered to the tightest CPU quota, rounded up, found for the cgroups
 * listed in the file @proc_cgroup (the format of /proc/self/cgroup:
 * "ID:CONTROLLERS:PATH" lines) under the mount @root (/sys/fs/cgroup):
 * for the cgroup v2 line (ID 0, no controllers) `cpu.max` of PATH and each
 * ancestor up to @root, under @root itself; for a v1 line naming the
 * controller "cpu", `cpu.cfs_quota_us` and `cpu.cfs_period_us` of PATH
 * and its ancestors under @root/cpu,cpuacct, else @root/cpu. Files that
 * are missing, unreadable or malformed, a quota of "max" or -1, or a
 * period of 0 set no bound. Returns 1 to FL_THREADS_MAX. */
uint32_t fl_threads_probe(const char *proc_cgroup, const char *root,
                          uint32_t affinity);

#endif
