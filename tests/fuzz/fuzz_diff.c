/* SPDX-License-Identifier: MIT */
/*
 * tests/fuzz/fuzz_diff.c — fabriclint diff of two loaded fabrics
 * (core/diff.c). Two selector bytes give the format of the design and of
 * the as-built side: '0' design XML, '1' ibnetdiscover, '2' ibdm .topo,
 * '3' lldpd XML, '4' Cisco cable plan, '5' ibsim net; a selector byte of
 * '6'..'9' (k >= 6) also sets compare_lids (design byte) or no_guid (built
 * byte). Then the design file, FZ_SPLIT, the as-built file. Both are
 * finalized, compared, and the work order is sorted and written as CSV.
 */
#include <stdio.h>
#include <stdlib.h>

#include "diff/diff.h"
#include "fabriclint/error.h"
#include "fabriclint/types.h"
#include "fuzz.h"
#include "host/findings.h"

static const uint32_t side_fmts[] = {FL_FMT_DESIGN_XML, FL_FMT_IBNETDISCOVER,
                                     FL_FMT_TOPO_IBDM,  FL_FMT_LLDPD_XML,
                                     FL_FMT_CISCO_PLAN, FL_FMT_IBSIM_NET};
#define N_SIDE (sizeof side_fmts / sizeof *side_fmts)

/* A finalized fabric from one part, or NULL when refused. */
static fl_fabric *load_side(unsigned slot, const uint8_t *d, size_t n,
                            uint32_t fmt) {
  fl_fabric *fab = fl_fabric_new();
  if (!fab)
    abort();
  int rc = fz_load(fab, slot, d, n, fmt, NULL);
  if (rc == FL_OK)
    rc = fz_finalize(fab);
  if (rc == FL_OK)
    return fab;
  fl_fabric_free(fab);
  return NULL;
}

static int run_diff(const fl_fabric *a, const fl_fabric *b,
                    const fl_diff_opts *o) {
  static FILE *sink;
  if (!sink && !(sink = fopen("/dev/null", "w")))
    abort();
  fl_findings fs = {0};
  fl_work_order wo = {0};
  fl_diff_stats st = {0};
  fl_error err;
  fl_error_clear(&err);
  int rc = fl_diff(a, b, o, &fs, &wo, &st, &err);
  fz_check_error(rc, &err);
  if (rc == FL_OK) {
    char fp[17];
    for (size_t i = 0; i < fs.n; i++)
      (void)fl_finding_fingerprint(&fs.v[i], fp);
    fl_work_order_sort(&wo);
    if (fl_work_order_csv(sink, &wo) != 0)
      abort();
  }
  fl_work_order_free(&wo);
  fl_findings_free(&fs);
  return rc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  unsigned sa = fz_select(&data, &size, 2 * N_SIDE);
  unsigned sb = fz_select(&data, &size, 2 * N_SIDE);
  fl_diff_opts o = {.compare_lids = sa >= N_SIDE, .no_guid = sb >= N_SIDE};
  fz_parts parts;
  fz_split(data, size, &parts);
  int ok = 0;
  if (parts.count >= 2) {
    fl_fabric *a = load_side(0, parts.p[0], parts.n[0], side_fmts[sa % N_SIDE]);
    fl_fabric *b =
        a ? load_side(1, parts.p[1], parts.n[1], side_fmts[sb % N_SIDE]) : NULL;
    ok = a && b && run_diff(a, b, &o) == FL_OK;
    fl_fabric_free(b);
    fl_fabric_free(a);
  }
  fz_set_outcome(ok);
  return 0;
}
