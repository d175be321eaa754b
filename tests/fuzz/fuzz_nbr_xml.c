/* SPDX-License-Identifier: MIT */
/*
 * tests/fuzz/fuzz_nbr_xml.c — neighbour views, drawings and plans: '0' lldpd
 * (core/io/lldp_xml.c), '1' Junos LLDP (junos_xml.c), '2' Cisco cable
 * plan (cisco_plan.c), '3' SONiC lab graph and '4' SONiC minigraph
 * (sonic_xml.c), '5' GraphML (graphml.c), '6' NX-OS LLDP XML or JSON
 * (nxos_lldp.c), '7' NetBox cables CSV (netbox_csv.c), '8' Graphviz DOT
 * (dot_topo.c). The rest of the
 * input is the file.
 */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static const uint32_t fmts[] = {
      FL_FMT_LLDPD_XML,       FL_FMT_JUNOS_XML,       FL_FMT_CISCO_PLAN,
      FL_FMT_SONIC_LAB_GRAPH, FL_FMT_SONIC_MINIGRAPH, FL_FMT_GRAPHML,
      FL_FMT_NXOS_LLDP,       FL_FMT_NETBOX_CABLES,   FL_FMT_DOT};
  unsigned v = fz_select(&data, &size, 9);
  fz_parts one = {.p = {data}, .n = {size}, .count = 1};
  fz_load_chain(&one, fmts, 1, fmts[v], NULL);
  return 0;
}
