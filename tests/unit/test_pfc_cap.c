/* SPDX-License-Identifier: MIT */
/*
 * tests/unit/test_pfc_cap.c — the PFC analysis' table cap (issue 32 #9):
 * destinations x switches above fl_pfc_options.max_table (default
 * FL_PFC_MAX_TABLE, 2^29) is FL_PFC_TOO_LARGE before the distance table is
 * allocated, with the sizes reported; at the cap the analysis runs.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "fabriclint/fabric.h"
#include "fabriclint/load.h"
#include "fabriclint/pfc.h"
#include "fabriclint/types.h"

static fl_fabric *load(const char *path) {
  fl_fabric *f = fl_fabric_new();
  fl_error err;
  fl_error_clear(&err);
  assert_int_equal(fl_fabric_load(f, path, 0, NULL, &err), FL_OK);
  assert_int_equal(fl_fabric_finalize(f, &err), FL_OK);
  return f;
}

static void test_cap_boundary(void **st) {
  (void)st;
  fl_fabric *f = load(FL_SOURCE_DIR "/fabrics/rail-su-asbuilt.ibnetdiscover");
  fl_pfc_report *r = NULL;
  assert_int_equal(fl_pfc_analyze(f, NULL, &r), 0);
  assert_non_null(r);
  uint32_t ns = r->n_switches, nd = r->n_dests;
  fl_pfc_report_free(r);
  assert_int_equal(ns, 12); /* 8 rail leaves + 4 spines */
  assert_int_equal(nd, 8);  /* the leaves with hosts */
  /* exactly at the cap: analysed */
  fl_pfc_options o = {sizeof o, 0, 0, 0, (uint64_t)nd * ns};
  r = NULL;
  assert_int_equal(fl_pfc_analyze(f, &o, &r), 0);
  assert_int_equal(r->n_switches, 12);
  fl_pfc_report_free(r);
  /* one past: FL_PFC_TOO_LARGE, the sizes and nothing else */
  o.max_table = (uint64_t)nd * ns - 1;
  r = NULL;
  assert_int_equal(fl_pfc_analyze(f, &o, &r), FL_PFC_TOO_LARGE);
  assert_non_null(r);
  assert_int_equal(r->n_switches, 12);
  assert_int_equal(r->n_dests, 8);
  assert_int_equal(r->n_channels, 0);
  assert_null(r->cycle);
  assert_null(r->valleys);
  fl_pfc_report_free(r);
  /* an older caller's options (no max_table): the default cap */
  fl_pfc_options old = {offsetof(fl_pfc_options, max_table), 0, 0, 0, 1};
  r = NULL;
  assert_int_equal(fl_pfc_analyze(f, &old, &r), 0);
  fl_pfc_report_free(r);
  fl_fabric_free(f);
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_cap_boundary)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
