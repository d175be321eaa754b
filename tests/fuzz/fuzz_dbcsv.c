/* SPDX-License-Identifier: MIT */
/*
 * tests/fuzz/fuzz_dbcsv.c — ibdiagnet2.db_csv loaders
 * (core/io/dbcsv_load.c, core/io/dbcsv_topo.c).
 * Input: an ibnetdiscover topology, FZ_SPLIT, the db_csv file (its
 * routing-state role: AR_INFO); or the db_csv alone (its topology role:
 * NODES, PORTS, LINKS, CABLE_INFO).
 */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static const uint32_t ctx[] = {FL_FMT_IBNETDISCOVER};
  fz_parts parts;
  fz_split(data, size, &parts);
  fz_load_chain(&parts, ctx, 1,
                parts.count == 1 ? FL_FMT_IBDIAG_DB : FL_FMT_DBCSV, NULL);
  return 0;
}
