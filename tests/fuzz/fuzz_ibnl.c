/* SPDX-License-Identifier: MIT */
/*
 * tests/fuzz/fuzz_ibnl.c — IBNL system definitions (core/io/ibnl.c,
 * ibnl_load.c): parse and flatten. The input is the file.
 */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static const uint32_t ctx[] = {FL_FMT_IBNL};
  fz_parts one = {.p = {data}, .n = {size}, .count = 1};
  fz_load_chain(&one, ctx, 1, FL_FMT_IBNL, NULL);
  return 0;
}
