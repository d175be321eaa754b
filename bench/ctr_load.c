/*
 * bench/ctr_load.c — time loading and mapping port counters at data-centre
 * scale (issue #18: 65,536 endpoints, ~200k ports, under 2 s).
 *
 * Loads topology file TOPO, then writes a counter capture of every cabled
 * port of every switch (and, with "all", every CA port too) in format FMT
 * (perfquery: `perfquery -a -l` + `-x -a -l` blocks keyed by LID, as
 * tests/data/counters/make.sh captures them; prom: the infiniband_exporter
 * exposition keyed by GUID; ibqueryerrors: one error line per port) to
 * OUT, and times topology load + finalize with and without the counters:
 * the difference is the counters' load and attach cost.
 *
 * Usage: ctr_load TOPO perfquery|prom|ibqueryerrors OUT [all]
 *   fabriclint gen fat-tree --radix 64 --tiers 3 --format ibnetdiscover \
 *       -o /tmp/ft64.ibnd            # 65,536 hosts, 5,120 switches
 *   build/bench/ctr_load /tmp/ft64.ibnd perfquery /tmp/ft64.pq
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fabriclint/counters.h"
#include "fabriclint/fabric.h"
#include "fabriclint/load.h"

static double clk(clockid_t id) {
  struct timespec ts;
  clock_gettime(id, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}
/* Wall-clock and CPU seconds: on a shared machine the CPU time is the
 * figure that does not depend on the neighbours. */
static double now(void) {
  return clk(CLOCK_MONOTONIC);
}
static double cpu(void) {
  return clk(CLOCK_PROCESS_CPUTIME_ID);
}

static fl_fabric *load(const char *topo, const char *ctr, double *secs,
                       double *cpu_secs) {
  fl_fabric *f = fl_fabric_new();
  fl_error err;
  fl_error_clear(&err);
  char buf[2048];
  double t0 = now(), c0 = cpu();
  int rc = fl_fabric_load(f, topo, FL_FMT_AUTO, NULL, &err);
  if (rc == FL_OK && ctr)
    rc = fl_fabric_load(f, ctr, FL_FMT_AUTO, NULL, &err);
  if (rc == FL_OK)
    rc = fl_fabric_finalize(f, &err);
  *secs = now() - t0;
  *cpu_secs = cpu() - c0;
  if (rc != FL_OK) {
    fprintf(stderr, "%s\n", fl_error_format(&err, buf, sizeof buf));
    exit(2);
  }
  return f;
}

static uint64_t rnd(uint64_t *s) {
  *s ^= *s << 13, *s ^= *s >> 7, *s ^= *s << 17;
  return *s;
}

static const char *const BASIC[] = {"SymbolErrorCounter",
                                    "LinkErrorRecoveryCounter",
                                    "LinkDownedCounter",
                                    "PortRcvErrors",
                                    "PortRcvRemotePhysicalErrors",
                                    "PortRcvSwitchRelayErrors",
                                    "PortXmitDiscards",
                                    "PortXmitConstraintErrors",
                                    "PortRcvConstraintErrors",
                                    "LocalLinkIntegrityErrors",
                                    "ExcessiveBufferOverrunErrors",
                                    "QP1Dropped",
                                    "VL15Dropped",
                                    "PortXmitData",
                                    "PortRcvData",
                                    "PortXmitPkts",
                                    "PortRcvPkts",
                                    "PortXmitWait"};
static const char *const EXT[] = {
    "PortXmitData",          "PortRcvData",         "PortXmitPkts",
    "PortRcvPkts",           "PortUnicastXmitPkts", "PortUnicastRcvPkts",
    "PortMulticastXmitPkts", "PortMulticastRcvPkts"};

static void dots(FILE *o, const char *name, uint64_t v) {
  fprintf(o, "%s:", name);
  for (size_t k = strlen(name) + 1; k < 33; k++)
    fputc('.', o);
  fprintf(o, "%llu\n", (unsigned long long)v);
}

int main(int argc, char **argv) {
  if (argc < 4) {
    fprintf(stderr, "usage: ctr_load TOPO perfquery|prom|ibqueryerrors OUT "
                    "[all]\n");
    return 2;
  }
  int all = argc > 4 && !strcmp(argv[4], "all");
  double t_topo, c_topo;
  fl_fabric *f = load(argv[1], NULL, &t_topo, &c_topo);
  FILE *o = fopen(argv[3], "w");
  if (!o) {
    perror(argv[3]);
    return 2;
  }
  uint64_t seed = 88172645463325252ull, ports = 0;
  fprintf(o, "# captured 2026-12-01T10:00:00Z\n");
  for (fl_id n = 0; n < fl_fabric_node_count(f); n++) {
    uint32_t kind = fl_fabric_node_kind(f, n);
    if (kind != FL_NODE_SWITCH && !all)
      continue;
    fl_id p0 = fl_fabric_node_first_port(f, n);
    uint32_t lid = 0;
    for (uint32_t k = 0; k < fl_fabric_node_port_count(f, n); k++)
      if (fl_fabric_port_lid(f, p0 + k))
        lid = fl_fabric_port_lid(f, p0 + k);
    for (uint32_t k = 0; k < fl_fabric_node_port_count(f, n); k++) {
      fl_id p = p0 + k;
      uint32_t num = fl_fabric_port_num(f, p);
      if (!fl_fabric_port_link_count(f, p))
        continue;
      if (kind != FL_NODE_SWITCH)
        lid = fl_fabric_port_lid(f, p);
      uint64_t guid = fl_fabric_port_guid(f, p) ? fl_fabric_port_guid(f, p)
                                                : fl_fabric_node_guid(f, n);
      ports++;
      if (!strcmp(argv[2], "perfquery")) {
        fprintf(o, "# Port counters: Lid %u port %u (CapMask: 0x1300)\n", lid,
                num);
        dots(o, "PortSelect", num);
        fprintf(o, "CounterSelect:...................0x0000\n");
        for (size_t i = 0; i < sizeof BASIC / sizeof *BASIC; i++)
          dots(o, BASIC[i], i < 13 ? rnd(&seed) % 3 : rnd(&seed) % 100000000);
        fprintf(o,
                "# Port extended counters: Lid %u port %u (CapMask: 0x1300 "
                "CapMask2: 0x0000000)\n",
                lid, num);
        dots(o, "PortSelect", num);
        fprintf(o, "CounterSelect:...................0x0000\n");
        for (size_t i = 0; i < sizeof EXT / sizeof *EXT; i++)
          dots(o, EXT[i], rnd(&seed) % 1000000000000ull);
      } else if (!strcmp(argv[2], "prom")) {
        static const char *const M[] = {"symbol_error_total",
                                        "link_error_recovery_total",
                                        "link_downed_total",
                                        "receive_errors_total",
                                        "transmit_discards_total",
                                        "transmit_wait_total",
                                        "transmit_data_bytes_total",
                                        "receive_data_bytes_total",
                                        "transmit_packets_total",
                                        "receive_packets_total",
                                        "unicast_transmit_packets_total",
                                        "unicast_receive_packets_total"};
        for (size_t i = 0; i < sizeof M / sizeof *M; i++)
          fprintf(o,
                  "infiniband_%s_port_%s{guid=\"0x%016llx\",port=\"%u\"} "
                  "%llu\n",
                  kind == FL_NODE_SWITCH ? "switch" : "hca", M[i],
                  (unsigned long long)guid, num,
                  (unsigned long long)(4 * (rnd(&seed) % 100000000)));
      } else {
        fprintf(o, "Errors for 0x%llx \"%s\"\n", (unsigned long long)guid,
                fl_fabric_node_name(f, n));
        fprintf(o,
                "   GUID 0x%llx port %u: [SymbolErrorCounter == %llu] "
                "[PortXmitWait == %llu]\n",
                (unsigned long long)guid, num,
                (unsigned long long)(1 + rnd(&seed) % 100),
                (unsigned long long)(1 + rnd(&seed) % 100000));
      }
    }
  }
  fclose(o);
  fl_fabric_free(f);
  double t_both, c_both;
  f = load(argv[1], argv[3], &t_both, &c_both);
  uint32_t mapped = 0;
  for (fl_id p = 0; p < fl_fabric_port_count(f); p++)
    mapped += fl_fabric_port_counter_mask(f, p) != 0;
  printf("topology: %u switches, %u CAs, %u ports; counter records %llu "
         "(%s), mapped %u, unmapped %u\n",
         fl_fabric_count_kind(f, FL_NODE_SWITCH),
         fl_fabric_count_kind(f, FL_NODE_CA), fl_fabric_port_count(f),
         (unsigned long long)ports, argv[2], mapped,
         fl_fabric_counter_unmapped_count(f));
  printf("wall: topology alone %.3f s; with counters %.3f s; counters load "
         "+ attach %.3f s\n",
         t_topo, t_both, t_both - t_topo);
  printf("cpu:  topology alone %.3f s; with counters %.3f s; counters load "
         "+ attach %.3f s\n",
         c_topo, c_both, c_both - c_topo);
  fl_fabric_free(f);
  return mapped == ports ? 0 : 1;
}
