/* SPDX-License-Identifier: MIT */
/*
 * tests/fuzz/fuzz_topo_ibdm.c — IBDM topology files (.topo, ibdiagnet -t)
 * (core/topo_ibdm.c). The input is the file.
 */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static const uint32_t ctx[] = {FL_FMT_TOPO_IBDM};
  fz_parts one = {.p = {data}, .n = {size}, .count = 1};
  fz_load_chain(&one, ctx, 1, FL_FMT_TOPO_IBDM, NULL);
  return 0;
}
