/* SPDX-License-Identifier: MIT */
/*
 * tests/fuzz/fuzz_ibnd.c — ibnetdiscover loaders (core/ibnd.c) and the
 * iblinkinfo loader (core/io/iblinkinfo.c), which shares their cable
 * merger. Selector: '0' ibnetdiscover (default and -g output), '1' the -p
 * ports report, '2' an ibsim net file, '3' iblinkinfo output (default and
 * -l). The rest of the input is the file.
 */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static const uint32_t fmts[] = {FL_FMT_IBNETDISCOVER, FL_FMT_IBND_PORTS,
                                  FL_FMT_IBSIM_NET, FL_FMT_IBLINKINFO};
  unsigned v = fz_select(&data, &size, 4);
  fz_parts one = {.p = {data}, .n = {size}, .count = 1};
  fz_load_chain(&one, fmts, 1, fmts[v], NULL);
  return 0;
}
