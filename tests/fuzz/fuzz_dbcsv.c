/*
 * tests/fuzz/fuzz_dbcsv.c — ibdiagnet2.db_csv loader (core/dbcsv_load.c).
 * Input: an ibnetdiscover topology, FZ_SPLIT, the db_csv file.
 */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static const uint32_t ctx[] = {FL_FMT_IBNETDISCOVER};
  fz_parts parts;
  fz_split(data, size, &parts);
  fz_load_chain(&parts, ctx, 1, FL_FMT_DBCSV, NULL);
  return 0;
}
