/* SPDX-License-Identifier: MIT */
/*
 * tests/unit/test_routing_load.c — the routing loaders of
 * core/io/lft_dump.c and the other routing-dump loaders
 * (core/io/routing_read.h) and their content detection (core/load.c).
 *
 * Inputs are real dumps written by OpenSM and infiniband-diags against an
 * ibsim-simulated radix-4 fat tree (tests/fixtures/routing-loaders/make.sh
 * made them), plus the old ibutils sample osm.fdbs from FL_EXTERNAL_DIR.
 * Expected LFT entries are read from the dump text by an independent
 * sscanf()-based reader here, not by the loader under test. Broken inputs
 * are small inline fixtures or scripted cuts of the real dumps.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "external.h"

#include "tmpdir.h"

#include "build.h"
#include "fabriclint/fabric.h"
#include "fabriclint/gen.h"
#include "fabriclint/load.h"
#include "fabriclint/routing.h"
#include "fabriclint/write.h"

#define FIX(name) FL_SOURCE_DIR "/tests/fixtures/routing-loaders/" name
#define MINHOP(n) FIX("minhop/" n)
#define LASH(n)   FIX("lash-qos/" n)
#define OSM_FDBS  EXT("nmorey__ibutils__ibdm__Clusters__osm.fdbs")

#define LEAF1 0x0002c90301000001ull /* leaf-p01-01, LID 2 in both runs */
#define CA1   0x0002c90302000002ull /* node0001 mlx5_0 (port GUID +1) */

static char *slurp(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  assert_non_null(f);
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *buf = malloc((size_t)n + 1);
  assert_non_null(buf);
  assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
  buf[n] = '\0';
  fclose(f);
  if (len)
    *len = (size_t)n;
  return buf;
}

/* Load @n inputs (auto-detected) into a new finalized fabric. */
static fl_fabric *load_all(const char *const *paths, int n) {
  fl_fabric *fab = fl_fabric_new();
  assert_non_null(fab);
  fl_error err;
  fl_error_clear(&err);
  for (int i = 0; i < n; i++) {
    int rc = fl_fabric_load(fab, paths[i], FL_FMT_AUTO, NULL, &err);
    if (rc != FL_OK)
      fail_msg("%s: %s:%u:%u: %s", paths[i], err.file, err.line, err.col,
               err.message);
  }
  assert_int_equal(fl_fabric_finalize(fab, &err), FL_OK);
  return fab;
}

static fl_fabric *load2(const char *topo, const char *dump) {
  const char *p[2] = {topo, dump};
  return load_all(p, 2);
}

/* Loading @path into a fresh fabric (after @topo when not NULL) fails with
 * FL_EPARSE at @line:@col, with @needle in the message. */
static void fails_at(const char *topo, const char *path, uint32_t fmt,
                     uint32_t line, uint32_t col, const char *needle) {
  fl_fabric *fab = fl_fabric_new();
  fl_error err;
  fl_error_clear(&err);
  if (topo)
    assert_int_equal(fl_fabric_load(fab, topo, FL_FMT_AUTO, NULL, &err), FL_OK);
  int rc = fl_fabric_load(fab, path, fmt, NULL, &err);
  if (rc != FL_EPARSE || err.line != line || (col && err.col != col) ||
      !strstr(err.message, needle))
    fail_msg("expected FL_EPARSE at %u:%u with \"%s\"; got %d at %u:%u: %s",
             line, col, needle, rc, err.line, err.col, err.message);
  fl_fabric_free(fab);
}

/* Count notes whose message holds @needle. */
static uint32_t notes_with(const fl_fabric *fab, const char *needle) {
  uint32_t k = 0;
  for (uint32_t i = 0; i < fl_fabric_note_count(fab); i++) {
    const char *msg;
    fl_fabric_note(fab, i, NULL, NULL, NULL, &msg);
    k += strstr(msg, needle) != NULL;
  }
  return k;
}

/* Independent reader: every entry of an opensm-lfts.dump / ibroute file is
 * compared with the loaded LFT. Returns the number of entries checked. */
static uint32_t check_against_text(const fl_fabric *fab, const char *path) {
  FILE *f = fopen(path, "r");
  assert_non_null(f);
  char line[512];
  fl_id sw = FL_NONE;
  uint32_t checked = 0;
  while (fgets(line, sizeof line, f)) {
    unsigned long long guid;
    unsigned lid, port;
    const char *g = strstr(line, " guid 0x");
    if (strncmp(line, "Unicast lids", 12) == 0 && g &&
        sscanf(g, " guid 0x%llx", &guid) == 1) {
      sw = fl_fabric_find_node_guid(fab, guid);
      assert_int_not_equal(sw, FL_NONE);
    } else if (sscanf(line, "0x%x %u", &lid, &port) == 2) {
      uint32_t len;
      const uint8_t *row = fl_fabric_lft(fab, sw, &len);
      assert_non_null(row);
      assert_true(lid < len);
      assert_int_equal(row[lid], port);
      checked++;
    }
  }
  fclose(f);
  return checked;
}

static fl_id node_named(const fl_fabric *fab, const char *name) {
  fl_id n = fl_fabric_find_node_name(fab, name);
  assert_int_not_equal(n, FL_NONE);
  return n;
}

/* ---- LFTs ------------------------------------------------------------------
 */

static void test_lfts_opensm_exact(void **state) {
  (void)state;
  fl_fabric *fab =
      load2(MINHOP("topo.ibnetdiscover"), MINHOP("opensm-lfts.dump"));
  assert_int_equal(fl_fabric_lft_count(fab), 6);
  assert_int_equal(check_against_text(fab, MINHOP("opensm-lfts.dump")), 6 * 14);
  /* picked by hand from the dump: leaf-p01-01 sends LID 1 (node0001) out of
   * port 1, itself (LID 2) to port 0, LID 3 (leaf-p01-02) up port 3 */
  fl_id leaf = fl_fabric_find_node_guid(fab, LEAF1);
  uint32_t len;
  const uint8_t *row = fl_fabric_lft(fab, leaf, &len);
  assert_int_equal(len, 15);
  assert_int_equal(row[1], 1);
  assert_int_equal(row[2], 0);
  assert_int_equal(row[3], 3);
  assert_int_equal(fl_fabric_note_count(fab), 0);
  fl_fabric_free(fab);
}

static void assert_same_lfts(const fl_fabric *a, const fl_fabric *b) {
  assert_int_equal(fl_fabric_lft_count(a), fl_fabric_lft_count(b));
  for (fl_id n = 0; n < fl_fabric_node_count(a); n++) {
    uint32_t la, lb;
    const uint8_t *ra = fl_fabric_lft(a, n, &la);
    const uint8_t *rb = fl_fabric_lft(b, n, &lb);
    assert_true((ra == NULL) == (rb == NULL));
    if (!ra)
      continue;
    /* entry 0 is unused; opensm lists LIDs 1..max, ibroute 1..top */
    uint32_t m = la < lb ? la : lb;
    assert_true(m >= 15);
    assert_memory_equal(ra + 1, rb + 1, m - 1);
  }
}

static void test_lfts_same_from_every_tool(void **state) {
  (void)state;
  const char *topo = MINHOP("topo.ibnetdiscover");
  fl_fabric *osm = load2(topo, MINHOP("opensm-lfts.dump"));
  fl_fabric *fts = load2(topo, MINHOP("dump_fts.out"));
  fl_fabric *lfts = load2(topo, MINHOP("dump_lfts.out"));
  fl_fabric *fdbs = load2(topo, MINHOP("opensm.fdbs"));
  assert_int_equal(check_against_text(fts, MINHOP("dump_fts.out")), 6 * 14);
  assert_same_lfts(osm, fts);
  assert_same_lfts(osm, lfts);
  assert_same_lfts(osm, fdbs);
  fl_fabric_free(osm);
  fl_fabric_free(fts);
  fl_fabric_free(lfts);
  fl_fabric_free(fdbs);

  /* ibroute of one switch, with and without destination info */
  fl_fabric *one = load2(topo, MINHOP("ibroute-sw1.out"));
  assert_int_equal(fl_fabric_lft_count(one), 1);
  assert_int_equal(check_against_text(one, MINHOP("ibroute-sw1.out")), 14);
  fl_fabric_free(one);
  fl_fabric *bare = load2(topo, MINHOP("ibroute-n-sw2.out"));
  assert_int_equal(check_against_text(bare, MINHOP("ibroute-n-sw2.out")), 14);
  fl_fabric_free(bare);
}

/* A topology without LIDs (a generated plan) takes them from the dump. */
static void test_lfts_lid_hints(void **state) {
  (void)state;
  fl_gen_fat_tree_params p;
  memset(&p, 0, sizeof p);
  p.radix = 4;
  p.tiers = 2;
  p.speed = FL_SPEED_HDR;
  p.no_lids = 1;
  fl_fabric *plan = NULL;
  fl_error err;
  fl_error_clear(&err);
  assert_int_equal(fl_gen_fat_tree(&p, &plan, &err), FL_OK);
  char path[512];
  snprintf(path, sizeof path, "%s/plan.ibnetdiscover", tmpdir);
  FILE *f = fopen(path, "w");
  assert_non_null(f);
  assert_int_equal(fl_write_ibnetdiscover(plan, f, &err), FL_OK);
  fclose(f);
  fl_fabric_free(plan);

  fl_fabric *fab = load2(path, MINHOP("opensm-lfts.dump"));
  /* from the dump: node0001's port (GUID ...03) is LID 1, leaf-p01-01 LID 2 */
  fl_id ca = node_named(fab, "node0001 mlx5_0");
  fl_id cap = fl_fabric_find_port(fab, ca, 1);
  assert_int_equal(fl_fabric_port_lid(fab, cap), 1);
  fl_id leaf = node_named(fab, "leaf-p01-01");
  assert_int_equal(fl_fabric_port_lid(fab, fl_fabric_find_port(fab, leaf, 0)),
                   2);
  assert_int_equal(fl_fabric_lid_port(fab, 1), cap);
  assert_int_equal(fl_fabric_max_lid(fab), 14);
  fl_fabric_free(fab);
}

static void test_lfts_unknown_switch(void **state) {
  (void)state;
  const char *p[1] = {MINHOP("opensm-lfts.dump")};
  fl_fabric *fab = load_all(p, 1); /* no topology at all */
  assert_int_equal(fl_fabric_lft_count(fab), 0);
  assert_int_equal(notes_with(fab, "which the topology lacks"), 6);
  const char *cat, *file, *msg;
  uint32_t line;
  fl_fabric_note(fab, 0, &cat, &file, &line, &msg);
  assert_string_equal(cat, "routing");
  assert_int_equal(line, 1);
  assert_non_null(strstr(msg, "0x0002c90301000001"));
  fl_fabric_free(fab);
}

static void test_lfts_broken(void **state) {
  (void)state;
  const char *topo = MINHOP("topo.ibnetdiscover");
  const char *hdr =
      "Unicast lids [0-3] of switch Lid 2 guid 0x0002c90301000001 ('leaf'):\n";
  char buf[1024];
  snprintf(buf, sizeof buf, "%s0x0001 001 # x\n0x0002 0z0 # y\n3 lids dumped\n",
           hdr);
  fails_at(topo, fixture_n("bad1", buf, (size_t)-1), FL_FMT_LFTS, 3, 9,
           "unexpected character after the output port");
  snprintf(buf, sizeof buf, "%s0x0001 256\n3 lids dumped\n", hdr);
  fails_at(topo, fixture_n("bad2", buf, (size_t)-1), FL_FMT_LFTS, 2, 8,
           "output port 256 is out of range (allowed 0..254, 255 = no "
           "route)");
  /* a huge port or LID is quoted as written (20 bytes, then "..."), never
   * converted and truncated */
  snprintf(buf, sizeof buf, "%s0x0001 123456789012345678901234567890\n", hdr);
  fails_at(topo, fixture_n("bad2b", buf, (size_t)-1), FL_FMT_LFTS, 2, 8,
           "output port 12345678901234567890... is out of range (allowed "
           "0..254, 255 = no route)");
  snprintf(buf, sizeof buf, "%s0x000012345 001\n", hdr);
  fails_at(topo, fixture_n("bad2c", buf, (size_t)-1), FL_FMT_LFTS, 2, 1,
           "LID 0x000012345 is out of range (allowed 0x0000..0xffff, 4 hex "
           "digits)");
  snprintf(buf, sizeof buf, "%s0x0009 001\n3 lids dumped\n", hdr);
  fails_at(topo, fixture_n("bad3", buf, (size_t)-1), FL_FMT_LFTS, 2, 3,
           "outside the block's range");
  fails_at(topo, fixture_n("bad4", "0x0001 001\n", (size_t)-1), FL_FMT_LFTS, 1,
           1, "outside a block");
  snprintf(buf, sizeof buf, "%s0x0001 001\n0x0002 000\n5 valid lids dumped \n",
           hdr);
  fails_at(topo, fixture_n("bad5", buf, (size_t)-1), FL_FMT_LFTS, 4, 1,
           "lines are missing");
  fails_at(
      topo,
      fixture_n(
          "bad6",
          "Unicast lids [0-3] of switch Lid 2 guid 0x0002c9030100000g ('x'):\n",
          (size_t)-1),
      FL_FMT_LFTS, 1, 58, "expected \"(<switch name>):\"");

  /* the real dump cut mid-line: truncated, at the last line */
  size_t len;
  char *dump = slurp(MINHOP("opensm-lfts.dump"), &len);
  const char *mid = strstr(dump + len / 2, "\n0x000");
  assert_non_null(mid);
  size_t cut = (size_t)(mid - dump) + 5; /* inside an entry's LID */
  uint32_t lines = 1;
  for (size_t i = 0; i < cut; i++)
    lines += dump[i] == '\n';
  const char *t = fixture_n("trunc.dump", dump, cut);
  fails_at(topo, t, FL_FMT_AUTO, lines, 0, "truncated");
  /* cut at a line end: the block has no footer */
  while (dump[cut - 1] != '\n')
    cut--;
  t = fixture_n("trunc2.dump", dump, cut);
  fails_at(topo, t, FL_FMT_AUTO, lines - 1, 0, "no \"lids dumped\" footer");
  free(dump);
}

/* Port beyond the switch's count: stored, and noted once per block. */
static void test_lfts_port_out_of_range(void **state) {
  (void)state;
  const char *p = fixture_n(
      "oor.dump",
      "Unicast lids [0-3] of switch Lid 2 guid 0x0002c90301000001 ('leaf'):\n"
      "0x0001 009 # a\n0x0002 000 # b\n0x0003 200 # c\n3 lids dumped\n",
      (size_t)-1);
  fl_fabric *fab = load2(MINHOP("topo.ibnetdiscover"), p);
  uint32_t len;
  const uint8_t *row =
      fl_fabric_lft(fab, fl_fabric_find_node_guid(fab, LEAF1), &len);
  assert_int_equal(row[1], 9);
  assert_int_equal(row[3], 200);
  assert_int_equal(notes_with(fab, "routes 2 LID(s) to ports beyond its 4"), 1);
  fl_fabric_free(fab);
}

/* ---- fdbs ------------------------------------------------------------------
 */

static void test_fdbs_old_sample(void **state) {
  (void)state;
  /* the topology of this sample is not public: declare its switches */
  fl_fabric *fab = fl_fabric_new();
  size_t len;
  char *txt = slurp(OSM_FDBS, &len);
  fl_prov pv = {0, 0, 0};
  uint32_t nsw = 0;
  for (const char *s = txt; (s = strstr(s, "Switch 0x")); s++) {
    unsigned long long g = strtoull(s + 9, NULL, 16);
    fl_b_node(fab, FL_NODE_SWITCH, g, 8, pv);
    nsw++;
  }
  free(txt);
  assert_int_equal(nsw, 62);
  fl_error err;
  fl_error_clear(&err);
  assert_int_equal(fl_fabric_load(fab, OSM_FDBS, FL_FMT_AUTO, NULL, &err),
                   FL_OK);
  assert_int_equal(fl_fabric_finalize(fab, &err), FL_OK);
  assert_int_equal(fl_fabric_lft_count(fab), 62);
  /* first block of the file: 0x0003 : 008, 0x0004 : 007, 0x001C : 007 */
  uint32_t rl;
  const uint8_t *row = fl_fabric_lft(
      fab, fl_fabric_find_node_guid(fab, 0x0002c90109fb0000ull), &rl);
  assert_non_null(row);
  assert_int_equal(row[3], 8);
  assert_int_equal(row[4], 7);
  assert_int_equal(row[0x1c], 7);
  assert_int_equal(row[2], 0);
  fl_fabric_free(fab);

  /* without a topology: notes, not errors */
  const char *p[1] = {OSM_FDBS};
  fab = load_all(p, 1);
  assert_int_equal(notes_with(fab, "which the topology lacks"), 62);
  fl_fabric_free(fab);

  const char *bad = fixture_n("bad.fdbs",
                              "dump_ucast_routes: Switch 0x0002c90301000001\n"
                              "LID    : Port : Hops : Optimal\n"
                              "0x0001 : 001  : 01   : yes\n"
                              "0x0002 ; 000  : 00   : yes\n",
                              (size_t)-1);
  fails_at(MINHOP("topo.ibnetdiscover"), bad, FL_FMT_AUTO, 4, 8,
           "expected \":\" after the LID");
}

/* ---- SL2VL
 * ------------------------------------------------------------------- */

static void test_sl2vl(void **state) {
  (void)state;
  const char *topo = LASH("topo.ibnetdiscover");
  fl_fabric *fab = load2(topo, LASH("opensm-sl2vl.dump"));
  assert_true(fl_fabric_has_sl2vl(fab));
  fl_id leaf = fl_fabric_find_node_guid(fab, LEAF1);
  fl_id ca = fl_fabric_find_node_guid(fab, CA1);
  /* "2   1   : 0  1  2  3  4  5  6  7  0  1 ..." under leaf-p01-01 */
  assert_int_equal(fl_fabric_sl2vl(fab, leaf, 2, 1, 9), 1);
  assert_int_equal(fl_fabric_sl2vl(fab, leaf, 2, 1, 15), 7);
  assert_int_equal(fl_fabric_sl2vl(fab, leaf, 2, 1, 3), 3);
  /* the CA's single "0   0   :" row */
  assert_int_equal(fl_fabric_sl2vl(fab, ca, 0, 0, 8), 0);
  assert_int_equal(fl_fabric_sl2vl(fab, ca, 0, 0, 13), 5);
  assert_int_equal(fl_fabric_sl2vl(fab, leaf, 7, 7, 0), FL_VL_UNKNOWN);
  fl_fabric_free(fab);

  /* smpquery sl2vl of LID 2 (leaf-p01-01): "ports: in  3, out  0: | 0| ..|14|
   * 7|" */
  fab = load2(topo, LASH("smpquery-sl2vl-sw.out"));
  leaf = fl_fabric_find_node_guid(fab, LEAF1);
  assert_int_equal(fl_fabric_sl2vl(fab, leaf, 3, 0, 14), 14);
  assert_int_equal(fl_fabric_sl2vl(fab, leaf, 3, 0, 15), 7);
  assert_int_equal(fl_fabric_sl2vl(fab, leaf, 0, 0, 9), 9);
  fl_fabric_free(fab);
  fab = load2(topo, LASH("smpquery-sl2vl-ca.out"));
  ca = fl_fabric_find_node_guid(fab, CA1);
  /* "ports: in  0, out  0: | 0| 1| 2| 3| 4| 5| 6| 7| 0| 1| 2|..." */
  assert_int_equal(fl_fabric_sl2vl(fab, ca, 0, 0, 10), 2);
  fl_fabric_free(fab);

  fails_at(
      topo,
      fixture_n("bad.sl2vl",
                "Switch 0x0002c90301000001, base LID 2, \"leaf-p01-01\"\n"
                "#in out : 0  1  2  3  4  5  6  7  8  9  10 11 12 13 14 15\n"
                "0   1   : 0  1  2  3  4  5  6  7  0  1  2  3  4  5  16 7\n",
                (size_t)-1),
      FL_FMT_AUTO, 3, 53, "VL 16 is out of range (allowed 0..15)");
  fails_at(topo,
           fixture_n("short.sl2vl",
                     "Switch 0x0002c90301000001, base LID 2, \"leaf-p01-01\"\n"
                     "0   1   : 0  1  2  3  4  5  6  7  0  1  2  3  4  5\n",
                     (size_t)-1),
           FL_FMT_SL2VL, 2, 0, "expected 16 VLs, found 14");
}

/* ---- path SLs
 * ------------------------------------------------------------------ */

static void test_path_sl(void **state) {
  (void)state;
  const char *topo = MINHOP("topo.ibnetdiscover");
  const char *p = fixture_n("psl.txt",
                            "# ibdmchk path SLs\n"
                            "0x0002c90302000002 7 3\n"
                            "0x0002c90302000002 9 1\n"
                            "0x0002c90302000004 1 2\n"
                            "0x00000000deadbeef 1 2\n"
                            "0x00000000deadbeef 7 2\n",
                            (size_t)-1);
  fl_error err;
  fl_error_clear(&err);
  assert_int_equal(fl_detect_format(p, &err), FL_FMT_PATH_SL);
  fl_fabric *fab = load2(topo, p);
  assert_true(fl_fabric_has_path_sl(fab));
  fl_id ca1 = fl_fabric_find_node_guid(fab, CA1);
  fl_id ca2 = fl_fabric_find_node_guid(fab, 0x0002c90302000004ull);
  assert_int_equal(fl_fabric_path_sl(fab, ca1, 7), 3);
  assert_int_equal(fl_fabric_path_sl(fab, ca1, 9), 1);
  assert_int_equal(fl_fabric_path_sl(fab, ca2, 1), 2);
  assert_int_equal(fl_fabric_path_sl(fab, ca2, 7), FL_SL_UNKNOWN);
  assert_int_equal(notes_with(fab, "0x00000000deadbeef"), 1);
  fl_fabric_free(fab);
  fails_at(topo, fixture_n("psl-bad", "0x0002c90302000002 7 16\n", (size_t)-1),
           FL_FMT_PATH_SL, 1, 22, "SL 16 is out of range (allowed 0..15)");
  fails_at(
      topo,
      fixture_n("psl-cut", "0x0002c90302000002 7 3\n0x0002c9030", (size_t)-1),
      FL_FMT_PATH_SL, 2, 0, "truncated");
}

static void test_saquery(void **state) {
  (void)state;
  const char *topo = LASH("topo.ibnetdiscover");
  /* the real capture: ibsim's SA returned switch-sourced records (kept out:
   * path SLs are per source CA) and one with DLID 0 (noted) */
  fl_fabric *fab = load2(topo, LASH("saquery-p.out"));
  assert_false(fl_fabric_has_path_sl(fab));
  assert_int_equal(notes_with(fab, "DLID 0"), 1);
  fl_fabric_free(fab);
  /* the first record, edited to come from node0001's port with SL 5 */
  size_t len;
  char *txt = slurp(LASH("saquery-p.out"), &len);
  char *sg = strstr(txt, "sgid....................fe80::2:c903:100:1");
  assert_non_null(sg);
  memcpy(sg + strlen("sgid....................fe80::2:c903:"), "200:3", 5);
  char *sl = strstr(txt, "sl......................0x0");
  sl[strlen("sl......................0x")] = '5';
  const char *p = fixture_n("saq.out", txt, len);
  free(txt);
  fab = load2(topo, p);
  fl_id ca1 = fl_fabric_find_node_guid(fab, CA1);
  assert_int_equal(fl_fabric_path_sl(fab, ca1, 2), 5);
  fl_fabric_free(fab);
  /* a record without sgid (the capture's first, sgid line dropped) is
   * placed by its SLID: 1 is node0001's port (mutant l2-sapr-slid) */
  p = fixture_n("saq-slid.out",
                "PathRecord dump:\n"
                "\t\tservice_id..............0x0000000000000000\n"
                "\t\tdgid....................fe80::2:c903:100:1\n"
                "\t\tdlid....................2\n"
                "\t\tslid....................1\n"
                "\t\thop_flow_raw............0x0\n"
                "\t\tpkey....................0xFFFF\n"
                "\t\tsl......................0x6\n"
                "\t\tmtu.....................0x83\n",
                (size_t)-1);
  fab = load2(topo, p);
  ca1 = fl_fabric_find_node_guid(fab, CA1);
  assert_int_equal(fl_fabric_path_sl(fab, ca1, 2), 6);
  fl_fabric_free(fab);
}

/* ---- opensm-subnet.lst
 * ------------------------------------------------------------ */

static void test_subnet_lst(void **state) {
  (void)state;
  const char *lst[1] = {MINHOP("opensm-subnet.lst")};
  fl_fabric *a = load_all(lst, 1);
  const char *ibnd[1] = {MINHOP("topo.ibnetdiscover")};
  fl_fabric *b = load_all(ibnd, 1);
  assert_int_equal(fl_fabric_count_kind(a, FL_NODE_SWITCH), 6);
  assert_int_equal(fl_fabric_count_kind(a, FL_NODE_CA), 8);
  assert_int_equal(fl_fabric_link_count(a), 16);
  for (fl_id l = 0; l < fl_fabric_link_count(a); l++)
    assert_int_equal(fl_fabric_link_flags(a, l) & 3,
                     FL_LINK_SEEN_A | FL_LINK_SEEN_B);
  /* every node: same GUID, description, ids and port-0/CA-port LIDs as the
   * ibnetdiscover capture of the same run */
  for (fl_id n = 0; n < fl_fabric_node_count(b); n++) {
    fl_id m = fl_fabric_find_node_guid(a, fl_fabric_node_guid(b, n));
    assert_int_not_equal(m, FL_NONE);
    assert_string_equal(fl_fabric_node_desc(a, m), fl_fabric_node_desc(b, n));
    assert_int_equal(fl_fabric_node_kind(a, m), fl_fabric_node_kind(b, n));
    assert_int_equal(fl_fabric_node_devid(a, m), fl_fabric_node_devid(b, n));
    assert_int_equal(fl_fabric_node_nports(a, m), fl_fabric_node_nports(b, n));
    uint32_t pn = fl_fabric_node_kind(b, n) == FL_NODE_SWITCH ? 0 : 1;
    fl_id pb = fl_fabric_find_port(b, n, pn),
          pa = fl_fabric_find_port(a, m, pn);
    assert_int_equal(fl_fabric_port_lid(a, pa), fl_fabric_port_lid(b, pb));
  }
  fl_fabric_free(a);
  fl_fabric_free(b);

  fails_at(NULL,
           fixture_n("bad.lst", "{ SW Ports:08 NodeGUID:zz }\n", (size_t)-1),
           FL_FMT_SUBNET_LST, 1, 24, "expected 1 to 16 hex digits");
}

/* ---- detection
 * ------------------------------------------------------------------------ */

static void test_detection(void **state) {
  (void)state;
  static const struct {
    const char *path;
    uint32_t fmt;
  } cases[] = {
      {MINHOP("opensm-lfts.dump"), FL_FMT_LFTS},
      {MINHOP("dump_fts.out"), FL_FMT_LFTS},
      {MINHOP("dump_lfts.out"), FL_FMT_LFTS},
      {MINHOP("ibroute-n-sw2.out"), FL_FMT_LFTS},
      {MINHOP("opensm.fdbs"), FL_FMT_FDBS},
      {OSM_FDBS, FL_FMT_FDBS},
      {MINHOP("opensm-subnet.lst"), FL_FMT_SUBNET_LST},
      {MINHOP("topo.ibnetdiscover"), FL_FMT_IBNETDISCOVER},
      {LASH("opensm-sl2vl.dump"), FL_FMT_SL2VL},
      {LASH("smpquery-sl2vl-sw.out"), FL_FMT_SL2VL},
      {LASH("smpquery-sl2vl-ca.out"), FL_FMT_SL2VL},
      {LASH("saquery-p.out"), FL_FMT_SAQUERY_PR},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    fl_error err;
    fl_error_clear(&err);
    uint32_t f = fl_detect_format(cases[i].path, &err);
    if (f != cases[i].fmt)
      fail_msg("%s: detected %s, expected %s", cases[i].path, fl_format_name(f),
               fl_format_name(cases[i].fmt));
  }
  /* a path-SL look-alike with one foreign line is not a path-SL file */
  fl_error err;
  fl_error_clear(&err);
  const char *p =
      fixture_n("notpsl", "0x0002c90302000002 7 3\nhello\n", (size_t)-1);
  assert_int_equal(fl_detect_format(p, &err), FL_FMT_AUTO);
}

int main(void) {
  const char *const samples[] = {OSM_FDBS, NULL};
  int skip = need_external(samples);
  if (skip)
    return skip;
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_lfts_opensm_exact),
      cmocka_unit_test(test_lfts_same_from_every_tool),
      cmocka_unit_test(test_lfts_lid_hints),
      cmocka_unit_test(test_lfts_unknown_switch),
      cmocka_unit_test(test_lfts_broken),
      cmocka_unit_test(test_lfts_port_out_of_range),
      cmocka_unit_test(test_fdbs_old_sample),
      cmocka_unit_test(test_sl2vl),
      cmocka_unit_test(test_path_sl),
      cmocka_unit_test(test_saquery),
      cmocka_unit_test(test_subnet_lst),
      cmocka_unit_test(test_detection),
  };
  return cmocka_run_group_tests(tests, setup_all, teardown_all);
}
