/* SPDX-License-Identifier: MIT */
/*
 * tests/unit/test_threads.c — core/analysis/threads.c, the thread policy of
 * fabriclint/threads.h (issue 36): the affinity count lowered to the
 * tightest cgroup CPU quota, rounded up, on made-up /proc/self/cgroup
 * files and cgroup trees (v2 cpu.max up the hierarchy, v1 cfs quota and
 * period, a cgroup namespace's root), with each quota exactly at a whole
 * number of CPUs and one microsecond past it, and what sets no bound
 * (max, -1, a zero period, malformed lines, cpuacct alone).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cmocka.h>

#include "tmpdir.h"

#include "analysis/threads.h"
#include "fabriclint/threads.h"

/* tmpdir/@rel made with its parents (a cgroup folder) */
static void mkdirs(const char *rel) {
  char path[512];
  snprintf(path, sizeof path, "%s/%s", tmpdir, rel);
  for (char *s = path + strlen(tmpdir) + 1; *s; s++)
    if (*s == '/') {
      *s = '\0';
      mkdir(path, 0755);
      *s = '/';
    }
  mkdir(path, 0755);
}

/* tmpdir/@dir/@name holding @text, @dir made first */
static void put(const char *dir, const char *name, const char *text) {
  char rel[512];
  mkdirs(dir);
  snprintf(rel, sizeof rel, "%s/%s", dir, name);
  fixture(rel, text);
}

/* fl_threads_probe() with the /proc/self/cgroup text @proc, the cgroup
 * mount tmpdir/@root and @affinity */
static uint32_t probe(const char *root, const char *proc, uint32_t affinity) {
  char mount[512];
  snprintf(mount, sizeof mount, "%s/%s", tmpdir, root);
  mkdirs(root);
  const char *pc = fixture("proc-cgroup", proc);
  return fl_threads_probe(pc, mount, affinity);
}

static void test_no_cgroup_file(void **st) {
  (void)st;
  assert_int_equal(fl_threads_probe("/nonexistent/cgroup", "/nonexistent", 6),
                   6);
  assert_int_equal(fl_threads_probe("/nonexistent/cgroup", "/nonexistent", 0),
                   1); /* never 0 */
  assert_int_equal(
      fl_threads_probe("/nonexistent/cgroup", "/nonexistent", 1000),
      FL_THREADS_MAX);
}

/* cgroup v2: the tightest quota over the cgroup and its ancestors */
static void test_v2_ancestors(void **st) {
  (void)st;
  put("v2a/job/step", "cpu.max", "max 100000\n");
  put("v2a/job", "cpu.max", "150000 100000\n"); /* 1.5 CPUs: 2 */
  assert_int_equal(probe("v2a", "0::/job/step\n", 8), 2);
  /* the affinity mask is tighter */
  assert_int_equal(probe("v2a", "0::/job/step\n", 1), 1);
  /* a child tighter than its parent */
  put("v2b/job/step", "cpu.max", "100000 100000\n");
  put("v2b/job", "cpu.max", "400000 100000\n");
  assert_int_equal(probe("v2b", "0::/job/step\n", 8), 1);
  /* the mount's own cpu.max (a container's cgroup namespace: "0::/") */
  put("v2c", "cpu.max", "300000 100000\n");
  assert_int_equal(probe("v2c", "0::/\n", 16), 3);
  /* a trailing slash in the path is the same cgroup */
  assert_int_equal(probe("v2a", "0::/job/step/\n", 8), 2);
}

/* exactly N CPUs' worth gives N, one microsecond more gives N + 1 */
static void test_v2_rounding_boundary(void **st) {
  (void)st;
  put("v2d/j", "cpu.max", "200000 100000\n");
  assert_int_equal(probe("v2d", "0::/j\n", 8), 2);
  put("v2e/j", "cpu.max", "200001 100000\n");
  assert_int_equal(probe("v2e", "0::/j\n", 8), 3);
  put("v2f/j", "cpu.max", "99999 100000\n"); /* under one CPU: 1 */
  assert_int_equal(probe("v2f", "0::/j\n", 8), 1);
  /* equal to the affinity count, and one under it */
  put("v2g/j", "cpu.max", "400000 100000\n");
  assert_int_equal(probe("v2g", "0::/j\n", 4), 4);
  assert_int_equal(probe("v2g", "0::/j\n", 5), 4);
}

/* what sets no bound */
static void test_v2_no_bound(void **st) {
  (void)st;
  put("v2h/j", "cpu.max", "max 100000\n");
  assert_int_equal(probe("v2h", "0::/j\n", 7), 7);
  put("v2i/j", "cpu.max", "200000 0\n"); /* zero period */
  assert_int_equal(probe("v2i", "0::/j\n", 7), 7);
  put("v2j/j", "cpu.max", "two hundred\n");
  assert_int_equal(probe("v2j", "0::/j\n", 7), 7);
  put("v2k/j", "cpu.max", "200000 100000 9\n"); /* a third field */
  assert_int_equal(probe("v2k", "0::/j\n", 7), 7);
  /* no cpu.max anywhere, a malformed /proc line, a relative path */
  assert_int_equal(probe("v2l", "0::/j\n", 7), 7);
  assert_int_equal(probe("v2h", "garbage\n0:/j\n0::j\n", 7), 7);
}

/* cgroup v1: cfs quota / period of the "cpu" controller's hierarchy */
static void test_v1(void **st) {
  (void)st;
  put("v1a/cpu,cpuacct/docker/c1", "cpu.cfs_quota_us", "-1\n");
  put("v1a/cpu,cpuacct/docker/c1", "cpu.cfs_period_us", "100000\n");
  put("v1a/cpu,cpuacct/docker", "cpu.cfs_quota_us", "250000\n");
  put("v1a/cpu,cpuacct/docker", "cpu.cfs_period_us", "100000\n");
  const char *proc = "12:memory:/docker/c1\n4:cpu,cpuacct:/docker/c1\n";
  assert_int_equal(probe("v1a", proc, 8), 3); /* 2.5 -> 3 */
  /* separate cpu and cpuacct hierarchies: the "cpu" folder */
  put("v1b/cpu/slurm/job1", "cpu.cfs_quota_us", "200000\n");
  put("v1b/cpu/slurm/job1", "cpu.cfs_period_us", "100000\n");
  assert_int_equal(
      probe("v1b", "2:cpuacct:/slurm/job1\n1:cpu:/slurm/job1\n", 8), 2);
  /* cpuacct alone is not the cpu controller */
  assert_int_equal(probe("v1b", "2:cpuacct:/slurm/job1\n", 8), 8);
  /* a quota without a period sets no bound */
  put("v1c/cpu/j", "cpu.cfs_quota_us", "100000\n");
  assert_int_equal(probe("v1c", "1:cpu:/j\n", 8), 8);
}

/* v1 and v2 lines of one hybrid host: the tighter wins, in either order */
static void test_hybrid_both_orders(void **st) {
  (void)st;
  put("hy/cpu/j", "cpu.cfs_quota_us", "300000\n");
  put("hy/cpu/j", "cpu.cfs_period_us", "100000\n");
  put("hy/j", "cpu.max", "200000 100000\n");
  assert_int_equal(probe("hy", "1:cpu:/j\n0::/j\n", 8), 2);
  assert_int_equal(probe("hy", "0::/j\n1:cpu:/j\n", 8), 2);
}

/* this process: between 1 and FL_THREADS_MAX whatever the machine */
static void test_available(void **st) {
  (void)st;
  uint32_t n = fl_threads_available();
  assert_true(n >= 1 && n <= FL_THREADS_MAX);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_no_cgroup_file),
      cmocka_unit_test(test_v2_ancestors),
      cmocka_unit_test(test_v2_rounding_boundary),
      cmocka_unit_test(test_v2_no_bound),
      cmocka_unit_test(test_v1),
      cmocka_unit_test(test_hybrid_both_orders),
      cmocka_unit_test(test_available),
  };
  return cmocka_run_group_tests(tests, setup_all, teardown_all);
}
