/* SPDX-License-Identifier: MIT */
/*
 * tests/fuzz/fuzz_workload.c — the job files of `fabriclint perf`
 * (--workload and --job): the workload YAML reader (core/io/workload.c,
 * workload_yaml.c, workload_train.c) and, with selector '1', the model
 * that reads what it parsed (core/analysis/perf*.c).
 *
 * Selector byte: '0' parse only; '1' parse, then resolve the workload on a
 * fixed generated fabric (rail-su: 2 SUs of 4 hosts, 4 rails, leaf radix 8,
 * hosts dgx-001..dgx-008, as tests/cli/perf_step.sh) and model each
 * collective (fl_perf_run) or the training step (fl_perf_step, with and
 * without overlap). The model runs only for a workload without
 * `placements:` (the CLI draws those) and of at most FZ_WL_COLLS
 * collectives: the reader admits up to 2^24 host-collectives, minutes of
 * model time, and the harness runs with -timeout=10.
 *
 * A crash, a leak or a refusal without an error record is a finding, and
 * so is an accepted workload that breaks what workload.h promises: a
 * training step with collectives or placements, a collective of an
 * unknown operation, more than FL_WL_MAX_COLLECTIVES collectives, a
 * min-share outside (0, 1], a missing host name, a work product over
 * FL_WL_MAX_WORK; and a modelled step or collective whose times are
 * negative or NaN.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/perf.h"
#include "analysis/perf_step.h"
#include "fabriclint/error.h"
#include "fabriclint/gen.h"
#include "fuzz.h"
#include "io/workload.h"

#define FZ_WL_COLLS 16u

static void bad(const char *what) {
  fprintf(stderr, "fuzz: accepted workload: %s\n", what);
  abort();
}

/* What workload.h promises of an accepted workload. */
static void check_parsed(const fl_workload *w) {
  if (!(w->min_share > 0.0 && w->min_share <= 1.0))
    bad("min-share outside (0, 1]");
  if (w->n_colls > FL_WL_MAX_COLLECTIVES || w->n_hosts > FL_WL_MAX_HOSTS)
    bad("more collectives or hosts than the caps");
  if (w->train.on && (w->n_colls || w->place.on))
    bad("a training step with collectives or placements");
  if (!w->train.on && !w->n_colls)
    bad("no collective and no training step");
  for (size_t i = 0; i < w->n_colls; i++)
    if (w->colls[i].op < FL_WL_ALL_REDUCE || w->colls[i].op > FL_WL_SENDRECV)
      bad("a collective of an unknown operation");
  for (size_t i = 0; i < w->n_hosts; i++)
    if (!w->hosts[i] || !w->hosts[i][0])
      bad("an empty host name");
  if (w->place.on && w->place.count > FL_WL_MAX_PLACEMENTS)
    bad("more placements than the cap");
  uint64_t models = w->place.on && w->place.count ? w->place.count : 1;
  uint64_t hosts = w->place.on ? w->place.job_hosts : w->n_hosts;
  if (!w->train.on && models * w->n_colls * hosts > FL_WL_MAX_WORK)
    bad("more host-collectives than FL_WL_MAX_WORK");
}

static int bad_time(double t) {
  return isnan(t) || t < 0;
}

/* The fabric every '1' input is modelled on, made once. */
static const fl_fabric *rail_fabric(void) {
  static fl_fabric *fab;
  if (fab)
    return fab;
  fl_gen_rail_su_params p;
  memset(&p, 0, sizeof p);
  p.sus = 2;
  p.hosts_per_su = 4;
  p.rails = 4;
  p.leaf_radix = 8;
  fl_error err;
  fl_error_clear(&err);
  if (fl_gen_rail_su(&p, &fab, &err) != FL_OK) {
    fprintf(stderr, "fuzz: gen rail-su: %s\n", err.message);
    abort();
  }
  return fab;
}

/* Model @w on the rail fabric: FL_OK when every call accepted it. */
static int model(const fl_workload *w) {
  fl_error err;
  fl_error_clear(&err);
  fl_perf_job *job = NULL;
  int rc = fl_perf_job_new(rail_fabric(), w, w->routing, &job, &err);
  fz_check_error(rc, &err);
  if (rc != FL_OK)
    return rc;
  if (w->train.on) {
    fl_step_result *r = calloc(1, sizeof *r);
    if (!r)
      abort();
    for (int overlap = 1; overlap >= 0 && rc == FL_OK; overlap--) {
      fl_error_clear(&err);
      rc = fl_perf_step(job, &w->train, overlap, r, &err);
      fz_check_error(rc, &err);
      if (rc == FL_OK && !r->error[0] &&
          (bad_time(r->step_s) || bad_time(r->comm_s) ||
           bad_time(r->compute_s)))
        bad("a training step of negative or NaN time");
    }
    free(r);
  }
  for (size_t i = 0; i < w->n_colls && rc == FL_OK; i++) {
    fl_perf_result res;
    fl_error_clear(&err);
    rc = fl_perf_run(job, &w->colls[i], &res, &err);
    fz_check_error(rc, &err);
    if (rc == FL_OK && !res.error[0] &&
        (bad_time(res.time_s) || bad_time(res.busbw_GBps)))
      bad("a collective of negative or NaN time or bandwidth");
  }
  fl_perf_job_free(job);
  return rc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  unsigned v = fz_select(&data, &size, 2);
  /* an exact-size copy: a read past the end is AddressSanitizer's */
  char *text = malloc(size ? size : 1);
  if (!text)
    abort();
  memcpy(text, data, size);
  fl_workload w;
  fl_error err;
  fl_error_clear(&err);
  int rc = fl_workload_parse(&w, "fuzz.yaml", text, size, &err);
  fz_check_error(rc, &err);
  if (rc == FL_OK) {
    check_parsed(&w);
    if (v == 1 && !w.place.on && w.n_colls <= FZ_WL_COLLS)
      rc = model(&w);
  }
  fz_set_outcome(rc == FL_OK);
  fl_workload_free(&w);
  free(text);
  return 0;
}
