/* SPDX-License-Identifier: MIT */
/*
 * tests/fuzz/fuzz_annotations.c — attribute side files, CSV and YAML
 * (core/annotate.c). Input: an ibnetdiscover topology, FZ_SPLIT, the
 * annotations file.
 */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static const uint32_t ctx[] = {FL_FMT_IBNETDISCOVER};
  fz_parts parts;
  fz_split(data, size, &parts);
  fz_load_chain(&parts, ctx, 1, FL_FMT_ANNOTATIONS, NULL);
  return 0;
}
