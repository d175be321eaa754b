/* SPDX-License-Identifier: MIT */
/*
 * bench/gen_iblinkinfo.c — write a 3-tier radix-k fat tree as iblinkinfo
 * output (layout of rdma-core infiniband-diags/iblinkinfo.c
 * print_node_header()/print_port(): "%6d %4d[%2s] ==(%3s %18s %6s/%8s)==>
 * %6d %4d[%2s] \"%s\" (%s %s)"), for load benchmarks: the same fabric as
 * bench/gen_ibnd (switches, then CAs, every port cabled, 4X NDR).
 *
 * Usage: gen_iblinkinfo [k] [-l] > fabric.iblinkinfo   (k even, default 64)
 * Without -l the default form, which names a far end by its LID: k must
 * then give at most 49,151 LIDs (k <= 56; k = 48: 27,648 CAs and 2,880
 * switches). -l prints port GUIDs; k = 64 is the DC reference fabric
 * (65,536 CAs, 5,120 switches, 196,608 cables), whose CA LIDs wrap inside
 * the unicast range as in gen_ibnd (a subnet cannot address it; the -l
 * form does not need them to be unique).
 * Standalone on purpose: it does not use the library it benchmarks.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SW_GUID 0x0002c90300000000ull
#define CA_GUID 0x0c42a10300000000ull

static unsigned k, half, edges, aggs, cores;
static int line_mode;

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

static void sw_name(unsigned i, char *buf, size_t n) {
  const char *t = i < edges ? "leaf" : i < edges + aggs ? "spine" : "core";
  snprintf(buf, n, "MF0;%s-%05u:MQM9790/U1", t, i);
}

static const char LINK[] = "( 4X        106.25 Gbps Active/  LinkUp)";

/* One port line: local (port GUID, name, LID, port) to the far end. */
static void port_line(uint64_t lg, const char *ln, unsigned lid, unsigned p,
                      uint64_t rg, const char *rn, unsigned rlid, unsigned rp) {
  if (line_mode)
    printf("0x%016" PRIx64 " \"%30s\" %6u %4u[  ] ==%s==>  0x%016" PRIx64
           " %6u %4u[  ] \"%s\" ( )\n",
           lg, ln, lid, p, LINK, rg, rlid, rp, rn);
  else if (lg)
    printf("      0x%016" PRIx64 " %6u %4u[  ] ==%s==>  %6u %4u[  ] \"%s\" "
           "( )\n",
           lg, lid, p, LINK, rlid, rp, rn);
  else
    printf("      %6u %4u[  ] ==%s==>  %6u %4u[  ] \"%s\" ( )\n", lid, p, LINK,
           rlid, rp, rn);
}

static void sw_port(unsigned i, unsigned p, unsigned peer, unsigned pp) {
  char nm[64], pn[64];
  sw_name(i, nm, sizeof nm);
  sw_name(peer, pn, sizeof pn);
  port_line(line_mode ? sw_guid(i) : 0, nm, sw_lid(i), p, sw_guid(peer), pn,
            sw_lid(peer), pp);
}

static void out_switch(unsigned i) {
  char nm[64], hn[32];
  sw_name(i, nm, sizeof nm);
  if (!line_mode)
    printf("Switch: 0x%016" PRIx64 " %s:\n", sw_guid(i), nm);
  if (i < edges) { /* leaf: hosts on 1..k/2, aggs of its pod on k/2+1..k */
    unsigned pod = i / half, e = i % half;
    for (unsigned p = 1; p <= half; p++) {
      unsigned h = i * half + (p - 1);
      snprintf(hn, sizeof hn, "node%05u mlx5_0", h);
      port_line(line_mode ? sw_guid(i) : 0, nm, sw_lid(i), p, ca_guid(h), hn,
                ca_lid(h), 1);
    }
    for (unsigned a = 0; a < half; a++)
      sw_port(i, half + 1 + a, edges + pod * half + a, e + 1);
  } else if (i < edges + aggs) { /* agg a of pod: edges down, cores up */
    unsigned pod = (i - edges) / half, a = (i - edges) % half;
    for (unsigned e = 0; e < half; e++)
      sw_port(i, e + 1, pod * half + e, half + 1 + a);
    for (unsigned c = 0; c < half; c++)
      sw_port(i, half + 1 + c, edges + aggs + a * half + c, pod + 1);
  } else { /* core a*half+c: port pod+1 to agg a of each pod */
    unsigned a = (i - edges - aggs) / half, c = (i - edges - aggs) % half;
    for (unsigned pod = 0; pod < k; pod++)
      sw_port(i, pod + 1, edges + pod * half + a, half + 1 + c);
  }
}

static void out_ca(unsigned h) {
  unsigned leaf = h / half, p = h % half + 1;
  char nm[64], hn[32];
  sw_name(leaf, nm, sizeof nm);
  snprintf(hn, sizeof hn, "node%05u mlx5_0", h);
  if (!line_mode)
    printf("CA: %s:\n", hn);
  port_line(ca_guid(h), hn, ca_lid(h), 1, sw_guid(leaf), nm, sw_lid(leaf), p);
}

int main(int argc, char **argv) {
  k = 64;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "-l") == 0)
      line_mode = 1;
    else
      k = (unsigned)strtoul(argv[i], NULL, 10);
  }
  if (k < 2 || k > 254 || k % 2) {
    fprintf(stderr, "usage: gen_iblinkinfo [k] [-l]   (even radix, 2..254)\n");
    return 2;
  }
  half = k / 2;
  edges = aggs = k * half;
  cores = half * half;
  unsigned hosts = edges * half;
  if (!line_mode && edges + aggs + cores + hosts > 0xbfff) {
    fprintf(stderr,
            "gen_iblinkinfo: k=%u needs more than 49,151 LIDs; the "
            "default form names far ends by LID: give -l\n",
            k);
    return 2;
  }
  static char obuf[1 << 20];
  setvbuf(stdout, obuf, _IOFBF, sizeof obuf);
  for (unsigned i = 0; i < edges + aggs + cores; i++)
    out_switch(i);
  for (unsigned h = 0; h < hosts; h++)
    out_ca(h);
  return fflush(stdout) == 0 ? 0 : 1;
}
