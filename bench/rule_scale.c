/* SPDX-License-Identifier: MIT */
/*
 * bench/rule_scale.c — wall time and peak memory of every rule that a
 * default `fabriclint check` runs (or of the rules a pattern selects), one
 * rule at a time, on one loaded fabric (issue 14: "every default rule at
 * 65,536 endpoints within 2x of its documented complexity"; issue 19).
 *
 * The fabric is loaded and finalized once, the built plugins are loaded
 * once through the real host (core/host/host.h), and then every rule runs
 * in a child process forked from that state: each child starts with cold
 * plugin caches (a rule pays for the analysis its plugin shares between
 * rules, as it would if it ran alone) and its peak RSS is its own. The
 * child resets the kernel's peak-RSS mark (/proc/self/clear_refs, "5")
 * before the rule runs; "rule" is the child's peak RSS minus its RSS
 * before the rule (what the rule added), and "peak" is that plus the RSS
 * of the loaded process (fabric, plugins), i.e. the peak of a process that
 * loaded the fabric and ran only this rule. (A forked child's RSS counts
 * only the pages it maps; the parent's RSS is the fair baseline.)
 *
 * After the single rules, each plugin's selected rules run together in one
 * child (what `check` does: the plugin's shared analysis is paid once),
 * then all selected rules together (the whole check minus loading and
 * reporting).
 *
 * Usage: rule_scale [-r RUNS] [-p PLUGIN_DIR] [-P RULE.PARAM=VALUE]... FILE
 *                   [PATTERNS]
 *   FILE      any input fabriclint loads (design XML from `fabriclint gen`)
 *   PATTERNS  --rules syntax; default: the rules enabled by default
 *   RUNS      repetitions of each measurement; the median is printed
 *             (default 1)
 *   PLUGIN_DIR default: plugins/ beside this program's folder (build/)
 *   -P        a rule parameter, as --param (repeatable)
 * Output: one line per measurement,
 *   `rule ID seconds S cpu C peak_mb P rule_mb R findings F`
 * (S wall and C user + system CPU seconds of the rule run, medians; on a
 * shared machine C is the steadier figure, and C > S when it used threads)
 * (bench/rule_scale.sh runs it at three sizes and fits the growth.)
 */
#define _GNU_SOURCE
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "fabriclint/fabric.h"
#include "fabriclint/load.h"
#include "host/host.h"

#define MAX_RUNS 15

typedef struct result {
  double seconds, cpu, peak_mb, rule_mb;
  unsigned long findings;
  int ok;
} result;

/* User + system CPU seconds of this process (all its threads). */
static double cpu_now(void) {
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  return (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
         (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1e-6;
}

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* VmRSS or VmHWM of this process in MB (from /proc/self/status). */
static double status_mb(const char *key) {
  FILE *f = fopen("/proc/self/status", "r");
  char line[256];
  double mb = 0;
  size_t n = strlen(key);
  while (f && fgets(line, sizeof line, f))
    if (strncmp(line, key, n) == 0 && line[n] == ':')
      mb = strtod(line + n + 1, NULL) / 1024.0;
  if (f)
    fclose(f);
  return mb;
}

/* Reset the peak-RSS mark to the current RSS (Linux >= 4.0). */
static int reset_peak(void) {
  FILE *f = fopen("/proc/self/clear_refs", "w");
  if (!f)
    return -1;
  int ok = fputs("5", f) >= 0;
  return fclose(f) == 0 && ok ? 0 : -1;
}

/* Child: run @patterns on @fab, write one result to @fd, exit. */
static void child(fl_host *h, const fl_fabric *fab, const char *patterns,
                  int fd) {
  result r = {0};
  double before = status_mb("VmRSS");
  int peak_ok = reset_peak() == 0;
  fl_findings out = {0};
  fl_error err;
  fl_error_clear(&err);
  size_t n_run = 0;
  double c0 = cpu_now(), t0 = now();
  int rc = fl_host_run(h, fab, patterns, &out, &n_run, &err);
  r.seconds = now() - t0;
  r.cpu = cpu_now() - c0;
  r.rule_mb = peak_ok ? status_mb("VmHWM") - before : -1;
  r.findings = (unsigned long)out.n;
  r.ok = rc == FL_OK && n_run > 0;
  if (rc != FL_OK)
    fprintf(stderr, "rule_scale: %s: %s\n", patterns, err.message);
  if (write(fd, &r, sizeof r) != (ssize_t)sizeof r)
    _exit(2);
  _exit(0);
}

static int measure_once(fl_host *h, const fl_fabric *fab, const char *patterns,
                        result *r) {
  int p[2];
  if (pipe(p) != 0)
    return -1;
  fflush(stdout);
  pid_t pid = fork();
  if (pid < 0)
    return -1;
  if (pid == 0) {
    close(p[0]);
    child(h, fab, patterns, p[1]);
  }
  close(p[1]);
  double parent = status_mb("VmRSS");
  ssize_t got = read(p[0], r, sizeof *r);
  close(p[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  r->peak_mb = r->rule_mb < 0 ? -1 : parent + r->rule_mb;
  return got == (ssize_t)sizeof *r && WIFEXITED(status) &&
                 WEXITSTATUS(status) == 0 && r->ok
             ? 0
             : -1;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* Median time and largest peak over @runs runs; prints one line. */
static int measure(fl_host *h, const fl_fabric *fab, const char *label,
                   const char *name, const char *patterns, int runs) {
  double t[MAX_RUNS], c[MAX_RUNS];
  result r, worst = {0};
  for (int i = 0; i < runs; i++) {
    if (measure_once(h, fab, patterns, &r) != 0) {
      printf("%s %s failed\n", label, name);
      return -1;
    }
    t[i] = r.seconds;
    c[i] = r.cpu;
    if (i == 0 || r.peak_mb > worst.peak_mb)
      worst = r;
  }
  qsort(t, (size_t)runs, sizeof t[0], cmp_double);
  qsort(c, (size_t)runs, sizeof c[0], cmp_double);
  printf("%s %s seconds %.4f cpu %.4f peak_mb %.1f rule_mb %.1f findings %lu\n",
         label, name, t[runs / 2], c[runs / 2], worst.peak_mb, worst.rule_mb,
         worst.findings);
  fflush(stdout);
  return 0;
}

/* Append @s to comma list @buf (size @size). -1 when it does not fit. */
static int append(char *buf, size_t size, const char *s) {
  size_t n = strlen(buf);
  int w = snprintf(buf + n, size - n, "%s%s", n ? "," : "", s);
  return w < 0 || (size_t)w >= size - n ? -1 : 0;
}

static int load_all(fl_host *h, const char *dir, const char *file,
                    fl_fabric **fab) {
  fl_error err;
  fl_error_clear(&err);
  char buf[2048];
  if (fl_host_load_dir(h, dir, &err) != FL_OK || h->n_plugins == 0) {
    fprintf(stderr, "rule_scale: plugins in %s: %s\n", dir,
            h->n_plugins ? fl_error_format(&err, buf, sizeof buf) : "none");
    return -1;
  }
  *fab = fl_fabric_new();
  double t0 = now();
  int rc = fl_fabric_load(*fab, file, FL_FMT_AUTO, NULL, &err);
  double t1 = now();
  if (rc == FL_OK)
    rc = fl_fabric_finalize(*fab, &err);
  if (rc != FL_OK) {
    fprintf(stderr, "rule_scale: %s\n", fl_error_format(&err, buf, sizeof buf));
    return -1;
  }
  printf("fabric %s cas %u switches %u links %u load_s %.3f finalize_s %.3f "
         "rss_mb %.1f\n",
         file, fl_fabric_count_kind(*fab, FL_NODE_CA),
         fl_fabric_count_kind(*fab, FL_NODE_SWITCH), fl_fabric_link_count(*fab),
         t1 - t0, now() - t1, status_mb("VmRSS"));
  return 0;
}

int main(int argc, char **argv) {
  int runs = 1, opt;
  char dir[4096] = "";
  const char *params[32];
  int n_params = 0;
  while ((opt = getopt(argc, argv, "r:p:P:")) != -1) {
    if (opt == 'r')
      runs = atoi(optarg);
    else if (opt == 'P' && n_params < 32)
      params[n_params++] = optarg;
    else if (opt == 'p')
      snprintf(dir, sizeof dir, "%s", optarg);
    else
      return 2;
  }
  if (optind >= argc || runs < 1 || runs > MAX_RUNS) {
    fprintf(stderr,
            "usage: rule_scale [-r RUNS(1-%d)] [-p PLUGIN_DIR] "
            "[-P RULE.PARAM=VALUE]... FILE [PATTERNS]\n",
            MAX_RUNS);
    return 2;
  }
  const char *file = argv[optind];
  const char *patterns = optind + 1 < argc ? argv[optind + 1] : NULL;
  if (!*dir) { /* build/bench/rule_scale -> build/plugins */
    char exe[4096];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    exe[n > 0 ? n : 0] = '\0';
    snprintf(dir, sizeof dir, "%s/../plugins", dirname(exe));
  }
  fl_host h;
  fl_host_init(&h);
  fl_fabric *fab = NULL;
  int rc = load_all(&h, dir, file, &fab);
  fl_error err;
  fl_error_clear(&err);
  for (int i = 0; rc == 0 && i < n_params; i++)
    if (fl_host_set_param(&h, params[i], &err) != FL_OK) {
      fprintf(stderr, "rule_scale: -P %s: %s\n", params[i], err.message);
      rc = -1;
    }
  static char all[8192];
  for (size_t i = 0; rc == 0 && i < h.n_plugins; i++) {
    const fl_loaded_plugin *p = &h.plugins[i];
    char mine[1024] = "";
    for (uint32_t j = 0; rc == 0 && j < p->desc.n_rules; j++) {
      const fl_rule_def *r = p->rules[j];
      if (!fl_host_rule_runs(&h, r, patterns))
        continue;
      rc = measure(&h, fab, "rule", r->id, r->id, runs);
      if (rc == 0 &&
          (append(mine, sizeof mine, r->id) || append(all, sizeof all, r->id)))
        rc = -1;
    }
    if (rc == 0 && *mine)
      rc = measure(&h, fab, "plugin", p->desc.name, mine, runs);
  }
  if (rc == 0 && *all)
    rc = measure(&h, fab, "all", patterns ? "selected" : "default", all, runs);
  fl_fabric_free(fab);
  fl_host_free(&h);
  return rc == 0 ? 0 : 1;
}
