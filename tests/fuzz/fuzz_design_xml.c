/* SPDX-License-Identifier: MIT */
/*
 * tests/fuzz/fuzz_design_xml.c — design XML loader (core/io/design_xml*.c).
 * Selector: '0' the built-in schema checks, '1' lenient (no_schema),
 * '2' libxml2's RelaxNG validation against schema/design.rng.
 */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static const uint32_t ctx[] = {FL_FMT_DESIGN_XML};
  unsigned v = fz_select(&data, &size, 3);
  fl_load_options o = {.no_schema = v == 1, .relaxng = v == 2};
  fz_parts one = {.p = {data}, .n = {size}, .count = 1};
  fz_load_chain(&one, ctx, 1, FL_FMT_DESIGN_XML, &o);
  return 0;
}
