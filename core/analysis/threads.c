/* SPDX-License-Identifier: MIT */
/*
 * core/analysis/threads.c — fl_threads_available() of fabriclint/threads.h:
 * the affinity mask, lowered to the cgroup CPU quota.
 *
 * Why the quota and not only the mask: a container or a Slurm job limited
 * by CPU bandwidth (cpu.max "200000 100000": 2 CPUs' worth of time per
 * period) still sees every CPU in its mask; a pool of one thread per CPU
 * then has its threads throttled in turn, slower than two threads. The
 * quota is rounded up (1.5 CPUs: 2 threads), as the Go and Java runtimes
 * do, so that a fractional quota is used whole.
 */
#define _GNU_SOURCE /* sched_getaffinity, CPU_COUNT */
#include "analysis/threads.h"

#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fabriclint/threads.h"

/* The first line of file @path into @buf (NUL-terminated, newline cut);
 * 0, or -1 when it cannot be read. */
static int read_line(const char *path, char *buf, size_t size) {
  FILE *fp = fopen(path, "r");
  if (!fp)
    return -1;
  char *got = fgets(buf, (int)size, fp);
  fclose(fp);
  if (!got)
    return -1;
  buf[strcspn(buf, "\n")] = '\0';
  return 0;
}

/* CPUs of @quota per @period, rounded up; 0 for no bound. */
static uint64_t quota_cpus(long long quota, long long period) {
  if (quota <= 0 || period <= 0)
    return 0;
  return ((uint64_t)quota + (uint64_t)period - 1) / (uint64_t)period;
}

/* v2: "QUOTA PERIOD" or "max PERIOD" in DIR/cpu.max; 0 for no bound. */
static uint64_t v2_bound(const char *dir) {
  char path[4096], line[128];
  if (snprintf(path, sizeof path, "%s/cpu.max", dir) >= (int)sizeof path ||
      read_line(path, line, sizeof line) != 0)
    return 0;
  long long quota, period;
  char tail;
  if (sscanf(line, "%lld %lld %c", &quota, &period, &tail) != 2)
    return 0; /* "max 100000" or malformed */
  return quota_cpus(quota, period);
}

/* A number alone on the first line of DIR/NAME, or @none. */
static long long v1_value(const char *dir, const char *name, long long none) {
  char path[4096], line[64];
  long long v;
  char tail;
  if (snprintf(path, sizeof path, "%s/%s", dir, name) >= (int)sizeof path ||
      read_line(path, line, sizeof line) != 0 ||
      sscanf(line, "%lld %c", &v, &tail) != 1)
    return none;
  return v;
}

static uint64_t v1_bound(const char *dir) {
  return quota_cpus(v1_value(dir, "cpu.cfs_quota_us", -1),
                    v1_value(dir, "cpu.cfs_period_us", 0));
}

/* The tightest bound of @bound over @base + @cg and each ancestor of @cg
 * down to @base itself; 0 for none. */
static uint64_t walk_up(const char *base, const char *cg,
                        uint64_t (*bound)(const char *)) {
  char dir[4096];
  if (snprintf(dir, sizeof dir, "%s%s", base, cg) >= (int)sizeof dir)
    return 0;
  size_t stop = strlen(base);
  uint64_t best = 0;
  for (;;) {
    size_t n = strlen(dir);
    while (n > stop && dir[n - 1] == '/')
      dir[--n] = '\0'; /* "/sys/fs/cgroup/" -> "/sys/fs/cgroup" */
    uint64_t b = bound(dir);
    if (b && (!best || b < best))
      best = b;
    char *slash = strrchr(dir, '/');
    if (n <= stop || !slash || (size_t)(slash - dir) < stop)
      return best;
    *slash = '\0';
  }
}

/* 1 when the comma-separated @list names controller "cpu". */
static int names_cpu(const char *list) {
  for (const char *s = list; *s;) {
    size_t n = strcspn(s, ",");
    if (n == 3 && strncmp(s, "cpu", 3) == 0)
      return 1;
    s += n + (s[n] == ',');
  }
  return 0;
}

uint32_t fl_threads_probe(const char *proc_cgroup, const char *root,
                          uint32_t affinity) {
  uint64_t n = affinity ? affinity : 1;
  FILE *fp = fopen(proc_cgroup, "r");
  char line[4096], base[4096];
  while (fp && fgets(line, sizeof line, fp)) {
    line[strcspn(line, "\n")] = '\0';
    char *c1 = strchr(line, ':');
    char *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
    if (!c2 || c2[1] != '/')
      continue;
    *c1 = *c2 = '\0';
    uint64_t b = 0;
    if (strcmp(line, "0") == 0 && c1[1] == '\0')
      b = walk_up(root, c2 + 1, v2_bound);
    else if (names_cpu(c1 + 1)) {
      snprintf(base, sizeof base, "%s/cpu,cpuacct", root);
      if (access(base, F_OK) != 0)
        snprintf(base, sizeof base, "%s/cpu", root);
      b = walk_up(base, c2 + 1, v1_bound);
    }
    if (b && b < n)
      n = b;
  }
  if (fp)
    fclose(fp);
  return n > FL_THREADS_MAX ? FL_THREADS_MAX : (uint32_t)n;
}

uint32_t fl_threads_available(void) {
  cpu_set_t set;
  long cpus = sched_getaffinity(0, sizeof set, &set) == 0
                  ? CPU_COUNT(&set)
                  : sysconf(_SC_NPROCESSORS_ONLN);
  return fl_threads_probe("/proc/self/cgroup", "/sys/fs/cgroup",
                          cpus > 0 ? (uint32_t)cpus : 1u);
}
