/* SPDX-License-Identifier: MIT */
/*
 * bench/gen_ibnd.c — write a 3-tier radix-k fat tree as ibnetdiscover
 * default-mode output (layout of rdma-core infiniband-diags/ibnetdiscover.c
 * out_switch()/out_ca()/out_switch_port()/out_ca_port()), for load benchmarks.
 *
 * Usage: gen_ibnd [k] > fabric.topo      (k even, default 64)
 * k = 64 gives k^3/4 = 65,536 CAs, 5k^2/4 = 5,120 switches (2,048 leaves,
 * 2,048 aggregation, 1,024 core) and 3k^3/4 = 196,608 cables, each listed
 * from both ends. CA LIDs wrap inside the unicast range (0x0001-0xbfff), as
 * a fabric this size cannot give every port its own LID.
 * Standalone on purpose: it does not use the library it benchmarks.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#define SW_GUID 0x0002c90300000000ull
#define CA_GUID 0x0c42a10300000000ull

static unsigned k, half, edges, aggs, cores;

static uint64_t sw_guid(unsigned i) {
  return SW_GUID + i;
}
static uint64_t ca_guid(unsigned i) {
  return CA_GUID + i;
}
static unsigned sw_lid(unsigned i) {
  return i + 1;
}
static unsigned ca_lid(unsigned i) {
  return 1 + (edges + aggs + cores + i) % 0xbfff;
}

/* Switch numbering: edges [0, edges), aggs [edges, edges + aggs), cores. */
static void sw_name(unsigned i, char *buf, size_t n) {
  const char *t = i < edges ? "leaf" : i < edges + aggs ? "spine" : "core";
  snprintf(buf, n, "MF0;%s-%05u:MQM9790/U1", t, i);
}

static void sw_port_line(unsigned p, unsigned peer, unsigned pp) {
  char nm[64];
  sw_name(peer, nm, sizeof nm);
  printf("[%u]\t\"S-%016" PRIx64 "\"[%u]\t\t# \"%s\" lid %u 4xNDR\n", p,
         sw_guid(peer), pp, nm, sw_lid(peer));
}

static void out_switch(unsigned i) {
  char nm[64];
  sw_name(i, nm, sizeof nm);
  printf("\nvendid=0x2c9\ndevid=0xd2f2\nsysimgguid=0x%" PRIx64
         "\nswitchguid=0x%" PRIx64 "(%" PRIx64 ")\n",
         sw_guid(i), sw_guid(i), sw_guid(i));
  printf("Switch\t%u \"S-%016" PRIx64 "\"\t\t# \"%s\" enhanced port 0 lid %u "
         "lmc 0\n",
         k, sw_guid(i), nm, sw_lid(i));
  if (i < edges) { /* leaf: hosts on 1..k/2, aggs of its pod on k/2+1..k */
    unsigned pod = i / half, e = i % half;
    for (unsigned p = 1; p <= half; p++) {
      unsigned h = i * half + (p - 1);
      printf("[%u]\t\"H-%016" PRIx64 "\"[1](%" PRIx64 ") \t\t# \"node%05u "
             "mlx5_0\" lid %u 4xNDR\n",
             p, ca_guid(h), ca_guid(h), h, ca_lid(h));
    }
    for (unsigned a = 0; a < half; a++)
      sw_port_line(half + 1 + a, edges + pod * half + a, e + 1);
  } else if (i < edges + aggs) { /* agg a of pod: edges down, cores up */
    unsigned pod = (i - edges) / half, a = (i - edges) % half;
    for (unsigned e = 0; e < half; e++)
      sw_port_line(e + 1, pod * half + e, half + 1 + a);
    for (unsigned c = 0; c < half; c++)
      sw_port_line(half + 1 + c, edges + aggs + a * half + c, pod + 1);
  } else { /* core a*half+c: port pod+1 to agg a of each pod */
    unsigned a = (i - edges - aggs) / half, c = (i - edges - aggs) % half;
    for (unsigned pod = 0; pod < k; pod++)
      sw_port_line(pod + 1, edges + pod * half + a, half + 1 + c);
  }
}

static void out_ca(unsigned h) {
  unsigned leaf = h / half, p = h % half + 1;
  char nm[64];
  sw_name(leaf, nm, sizeof nm);
  printf("\nvendid=0x2c9\ndevid=0x1021\nsysimgguid=0x%" PRIx64
         "\ncaguid=0x%" PRIx64 "\n",
         ca_guid(h), ca_guid(h));
  printf("Ca\t1 \"H-%016" PRIx64 "\"\t\t# \"node%05u mlx5_0\"\n", ca_guid(h),
         h);
  printf("[1](%" PRIx64 ") \t\"S-%016" PRIx64 "\"[%u]\t\t# lid %u lmc 0 "
         "\"%s\" lid %u 4xNDR\n",
         ca_guid(h), sw_guid(leaf), p, ca_lid(h), nm, sw_lid(leaf));
}

int main(int argc, char **argv) {
  k = argc > 1 ? (unsigned)strtoul(argv[1], NULL, 10) : 64;
  if (k < 2 || k > 254 || k % 2) {
    fprintf(stderr, "usage: gen_ibnd [k]   (even radix, 2..254)\n");
    return 2;
  }
  half = k / 2;
  edges = aggs = k * half;
  cores = half * half;
  unsigned hosts = edges * half;
  static char obuf[1 << 20];
  setvbuf(stdout, obuf, _IOFBF, sizeof obuf);
  printf("#\n# Topology file: generated on Thu Jan  1 00:00:00 1970\n#\n"
         "# Initiated from node %016" PRIx64 " port %016" PRIx64 "\n",
         ca_guid(0), ca_guid(0));
  for (unsigned i = 0; i < edges + aggs + cores; i++)
    out_switch(i);
  for (unsigned h = 0; h < hosts; h++)
    out_ca(h);
  return fflush(stdout) == 0 ? 0 : 1;
}
