/* SPDX-License-Identifier: MIT */
/*
 * tests/fuzz/fuzz_counters.c — port-counter loaders (core/io/ctr_*.c) and
 * their attachment to the model at finalize (core/model/counters.c).
 * Selector: '0' perfquery, '1' ibqueryerrors, '2' ibdiagnet2.pm,
 * '3' infiniband_exporter Prometheus scrape.
 * Then an ibnetdiscover topology, FZ_SPLIT, the counter file, and
 * optionally FZ_SPLIT and a second counter file of the same format (two
 * snapshots, or two inputs of one snapshot).
 */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static const uint32_t fmts[] = {FL_FMT_PERFQUERY, FL_FMT_IBQUERYERRORS,
                                  FL_FMT_IBDIAG_PM, FL_FMT_PROM_IB};
  unsigned v = fz_select(&data, &size, 4);
  uint32_t ctx[] = {FL_FMT_IBNETDISCOVER, fmts[v]};
  fz_parts parts;
  fz_split(data, size, &parts);
  fz_load_chain(&parts, ctx, 2, fmts[v], NULL);
  return 0;
}
