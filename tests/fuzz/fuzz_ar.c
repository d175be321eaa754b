/* SPDX-License-Identifier: MIT */
/*
 * tests/fuzz/fuzz_ar.c — ibdiagnet2.far adaptive-routing loader
 * (core/ar_load.c). Input: an ibnetdiscover topology, FZ_SPLIT, optionally
 * an LFT dump and FZ_SPLIT, then the .far file.
 */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static const uint32_t ctx[] = {FL_FMT_IBNETDISCOVER, FL_FMT_LFTS};
  fz_parts parts;
  fz_split(data, size, &parts);
  fz_load_chain(&parts, ctx, 2, FL_FMT_AR, NULL);
  return 0;
}
