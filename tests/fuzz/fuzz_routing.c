/* SPDX-License-Identifier: MIT */
/*
 * tests/fuzz/fuzz_routing.c — routing-dump loaders (core/io/lft_dump.c,
 * fdbs_dump.c, sl2vl_dump.c, path_sl.c, saquery_pr.c, subnet_lst.c;
 * docs/routing-inputs.md).
 * Selector: '0' LFTs (opensm-lfts.dump, ibroute, dump_fts/dump_lfts),
 * '1' opensm.fdbs, '2' SL2VL (opensm-sl2vl.dump, smpquery sl2vl),
 * '3' path SLs, '4' saquery -p, '5' opensm-subnet.lst.
 * Then an ibnetdiscover topology, FZ_SPLIT, and the dump; without FZ_SPLIT
 * the dump is loaded alone (opensm-subnet.lst is a topology by itself).
 */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static const uint32_t fmts[] = {FL_FMT_LFTS,       FL_FMT_FDBS,
                                  FL_FMT_SL2VL,      FL_FMT_PATH_SL,
                                  FL_FMT_SAQUERY_PR, FL_FMT_SUBNET_LST};
  static const uint32_t ctx[] = {FL_FMT_IBNETDISCOVER};
  unsigned v = fz_select(&data, &size, 6);
  fz_parts parts;
  fz_split(data, size, &parts);
  fz_load_chain(&parts, ctx, 1, fmts[v], NULL);
  return 0;
}
