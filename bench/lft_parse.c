/* SPDX-License-Identifier: MIT */
/*
 * bench/lft_parse.c — how fast fl_load_lfts() parses an opensm-lfts.dump,
 * measured against `wc -l` on the same file (the yardstick: no
 * worse than 1.5x wc -l, issue 33; 3x before it).
 *
 * It generates a fat tree with the generator API (fabriclint/gen.h), writes
 * its topology with fl_write_ibnetdiscover(), and writes an LFT dump in the
 * exact layout of OpenSM's dump_ucast_lfts() (osm_dump.c): one block per
 * switch over LIDs 1..max, every entry with its destination info. The
 * output ports are D-mod-k-like but not a verified routing: a CA's own leaf
 * sends its LID down the CA's port, a switch sends its own LID to port 0,
 * every other LID goes to port 1 + LID mod radix. Only parsing is timed.
 *
 * Then, with the file in the page cache, it times `wc -l FILE` and the LFT
 * load (topology loading is not timed), best of @reps runs each.
 *
 * Usage: lft_parse [RADIX [TIERS [HOSTS [DIR [REPS]]]]]
 *   defaults 32 3 0(all) /tmp 3. RADIX 64 TIERS 3 is the 5,120-switch
 *   target; HOSTS bounds the LID count (all hosts: LIDs capped at 49,151,
 *   a ~19 GB file).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fabriclint/fabric.h"
#include "fabriclint/gen.h"
#include "fabriclint/load.h"
#include "fabriclint/routing.h"
#include "fabriclint/write.h"

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* LID -> (attachment switch, its port) for CA LIDs; switch LIDs -> itself. */
typedef struct lidinfo {
  fl_id node;      /* owner node */
  fl_id attach_sw; /* for a CA: the switch its port is cabled to */
  uint32_t attach_port;
  uint64_t guid; /* port GUID printed in the destination info */
} lidinfo;

static lidinfo *lid_table(const fl_fabric *fab, uint32_t maxlid) {
  lidinfo *t = calloc((size_t)maxlid + 1, sizeof *t);
  if (!t)
    return NULL;
  for (uint32_t l = 1; l <= maxlid; l++) {
    fl_id p = fl_fabric_lid_port(fab, l);
    t[l].node = FL_NONE;
    t[l].attach_sw = FL_NONE;
    if (p == FL_NONE)
      continue;
    fl_id n = fl_fabric_port_node(fab, p);
    t[l].node = n;
    t[l].guid = fl_fabric_port_guid(fab, p);
    if (!t[l].guid)
      t[l].guid = fl_fabric_node_guid(fab, n);
    if (fl_fabric_node_kind(fab, n) == FL_NODE_SWITCH)
      continue;
    fl_id lk = fl_fabric_port_link(fab, p, 0);
    if (lk == FL_NONE)
      continue;
    fl_id peer = fl_fabric_link_other(fab, lk, p);
    t[l].attach_sw = fl_fabric_port_node(fab, peer);
    t[l].attach_port = fl_fabric_port_num(fab, peer);
  }
  return t;
}

static int write_dump(const fl_fabric *fab, const char *path,
                      unsigned long long *entries) {
  uint32_t maxlid = fl_fabric_max_lid(fab);
  lidinfo *t = lid_table(fab, maxlid);
  FILE *f = fopen(path, "w");
  if (!t || !f) {
    free(t);
    if (f)
      fclose(f);
    return -1;
  }
  static char buf[1 << 20];
  setvbuf(f, buf, _IOFBF, sizeof buf);
  *entries = 0;
  for (fl_id s = 0; s < fl_fabric_node_count(fab); s++) {
    if (fl_fabric_node_kind(fab, s) != FL_NODE_SWITCH)
      continue;
    fl_id p0 = fl_fabric_find_port(fab, s, 0);
    uint32_t nports = fl_fabric_node_nports(fab, s);
    fprintf(f, "Unicast lids [0-%u] of switch Lid %u guid 0x%016llx ('%s'):\n",
            maxlid, p0 == FL_NONE ? 0 : fl_fabric_port_lid(fab, p0),
            (unsigned long long)fl_fabric_node_guid(fab, s),
            fl_fabric_node_desc(fab, s));
    for (uint32_t l = 1; l <= maxlid; l++) {
      const lidinfo *d = &t[l];
      if (d->node == FL_NONE) {
        fprintf(f, "0x%04x %03u # unknown node and type\n", l, 1 + l % nports);
        continue;
      }
      int sw = fl_fabric_node_kind(fab, d->node) == FL_NODE_SWITCH;
      uint32_t port = d->node == s        ? 0
                      : d->attach_sw == s ? d->attach_port
                                          : 1 + l % nports;
      fprintf(f, "0x%04x %03u # %s portguid 0x%016llx: '%s'\n", l, port,
              sw ? "Switch" : "Channel Adapter", (unsigned long long)d->guid,
              fl_fabric_node_desc(fab, d->node));
      (*entries)++;
    }
    fprintf(f, "%u lids dumped\n", maxlid);
  }
  free(t);
  return fclose(f);
}

static double time_wc(const char *path) {
  char cmd[1200];
  snprintf(cmd, sizeof cmd, "wc -l '%s' >/dev/null", path);
  double t0 = now();
  if (system(cmd) != 0)
    return -1;
  return now() - t0;
}

static double time_load(const char *topo, const char *dump, uint32_t *nlfts) {
  fl_fabric *fab = fl_fabric_new();
  fl_error err;
  fl_error_clear(&err);
  char msg[2048];
  if (fl_fabric_load(fab, topo, FL_FMT_IBNETDISCOVER, NULL, &err) != FL_OK) {
    fprintf(stderr, "%s\n", fl_error_format(&err, msg, sizeof msg));
    fl_fabric_free(fab);
    return -1;
  }
  double t0 = now();
  int rc = fl_fabric_load(fab, dump, FL_FMT_LFTS, NULL, &err);
  double t = now() - t0;
  if (rc != FL_OK) {
    fprintf(stderr, "%s\n", fl_error_format(&err, msg, sizeof msg));
    fl_fabric_free(fab);
    return -1;
  }
  if (fl_fabric_finalize(fab, &err) == FL_OK)
    *nlfts = fl_fabric_lft_count(fab);
  fl_fabric_free(fab);
  return t;
}

int main(int argc, char **argv) {
  fl_gen_fat_tree_params p;
  memset(&p, 0, sizeof p);
  p.radix = argc > 1 ? (uint32_t)atoi(argv[1]) : 32;
  p.tiers = argc > 2 ? (uint32_t)atoi(argv[2]) : 3;
  p.hosts = argc > 3 ? (uint32_t)atoi(argv[3]) : 0;
  const char *dir = argc > 4 ? argv[4] : "/tmp";
  int reps = argc > 5 ? atoi(argv[5]) : 3;
  fl_fabric *fab = NULL;
  fl_error err;
  fl_error_clear(&err);
  char msg[2048], topo[1024], dump[1024];
  if (fl_gen_fat_tree(&p, &fab, &err) != FL_OK) {
    fprintf(stderr, "%s\n", fl_error_format(&err, msg, sizeof msg));
    return 2;
  }
  snprintf(topo, sizeof topo, "%s/lft_parse.topo", dir);
  snprintf(dump, sizeof dump, "%s/lft_parse.opensm-lfts.dump", dir);
  FILE *f = fopen(topo, "w");
  if (!f || fl_write_ibnetdiscover(fab, f, &err) != FL_OK) {
    fprintf(stderr, "cannot write %s\n", topo);
    return 2;
  }
  fclose(f);
  unsigned long long entries;
  double t0 = now();
  if (write_dump(fab, dump, &entries) != 0) {
    fprintf(stderr, "cannot write %s\n", dump);
    return 2;
  }
  uint32_t nsw = fl_fabric_count_kind(fab, FL_NODE_SWITCH);
  printf("fat tree radix %u, %u tiers: %u switches, max LID %u\n", p.radix,
         p.tiers, nsw, fl_fabric_max_lid(fab));
  fl_fabric_free(fab);
  FILE *g = fopen(dump, "r");
  fseek(g, 0, SEEK_END);
  double bytes = (double)ftell(g);
  fclose(g);
  printf("dump: %s, %llu entries, %.2f GB, written in %.1f s\n", dump, entries,
         bytes / 1e9, now() - t0);

  double wc = 1e30, ld = 1e30;
  uint32_t nlfts = 0;
  time_wc(dump); /* warm the page cache */
  for (int i = 0; i < reps; i++) {
    double a = time_wc(dump), b = time_load(topo, dump, &nlfts);
    if (a < 0 || b < 0)
      return 2;
    wc = a < wc ? a : wc;
    ld = b < ld ? b : ld;
  }
  printf("wc -l:     %.3f s (%.2f GB/s)\n", wc, bytes / wc / 1e9);
  printf("LFT load:  %.3f s (%.2f GB/s, %.1f M entries/s), %u LFTs\n", ld,
         bytes / ld / 1e9, (double)entries / ld / 1e6, nlfts);
  printf("ratio load / wc -l: %.2f (limit 1.50)\n", ld / wc);
  return ld / wc <= 1.5 ? 0 : 1;
}
