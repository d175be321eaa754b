/*
 * tests/fuzz/fuzz_nbr_xml.c — neighbour XML loaders: '0' lldpd
 * (core/lldp_xml.c), '1' Junos LLDP (core/junos_xml.c), '2' Cisco cable
 * plan (core/cisco_plan.c). The rest of the input is the file.
 */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static const uint32_t fmts[] = {FL_FMT_LLDPD_XML, FL_FMT_JUNOS_XML,
                                  FL_FMT_CISCO_PLAN};
  unsigned v = fz_select(&data, &size, 3);
  fz_parts one = {.p = {data}, .n = {size}, .count = 1};
  fz_load_chain(&one, fmts, 1, fmts[v], NULL);
  return 0;
}
