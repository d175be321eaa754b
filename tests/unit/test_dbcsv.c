/* SPDX-License-Identifier: MIT */
/*
 * tests/unit/test_dbcsv.c — the ibdiagnet2.db_csv loaders
 * (core/io/dbcsv_load.c, core/io/dbcsv_topo.c) and their detection
 * (core/io/load.c): AR_INFO rows become the `ar` and `ar-sl-mask` switch
 * attributes the adaptive-routing plugin reads; NODES, PORTS, LINKS and
 * CABLE_INFO describe a fabric when no other input does.
 *
 * The fixtures in tests/fixtures/dbcsv/ are written from the documented
 * layout (no real public db_csv was found and no tool here writes one),
 * for the switches of tests/fixtures/routing/fat-tree-2tier-ftree, whose
 * topology dump is loaded first; the topology role's whole-fabric test
 * (cli.dbcsv_topology) writes its dump from a real ibsim capture.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "fabriclint/fabric.h"
#include "fabriclint/load.h"
#include "fabriclint/routing.h"

#define TOPO                                                                   \
  FL_SOURCE_DIR                                                                \
  "/tests/fixtures/routing/fat-tree-2tier-ftree/topology.ibnetdiscover"
#define DB(n) FL_SOURCE_DIR "/tests/fixtures/dbcsv/" n

static fl_fabric *load(const char *db, uint32_t fmt, int *rc, fl_error *err) {
  fl_fabric *f = fl_fabric_new();
  fl_error_clear(err);
  assert_int_equal(fl_fabric_load(f, TOPO, FL_FMT_AUTO, NULL, err), FL_OK);
  *rc = fl_fabric_load(f, db, fmt, NULL, err);
  if (*rc == FL_OK)
    assert_int_equal(fl_fabric_finalize(f, err), FL_OK);
  return f;
}

static const char *attr(const fl_fabric *f, const char *node, const char *k) {
  fl_id n = fl_fabric_find_node_name(f, node);
  assert_true(n != FL_NONE);
  return fl_fabric_attr(f, FL_ENT_NODE, n, k);
}

static void write_file(const char *path, const char *text) {
  FILE *fp = fopen(path, "wb");
  assert_non_null(fp);
  fputs(text, fp);
  fclose(fp);
}

static void test_detect(void **state) {
  (void)state;
  fl_error err;
  fl_error_clear(&err);
  /* a dump with a NODES section can describe a fabric */
  assert_int_equal(fl_detect_format(DB("ar-on.db_csv"), &err),
                   FL_FMT_IBDIAG_DB);
  assert_int_equal(fl_detect_format(DB("ar-leaf-off.db_csv"), &err),
                   FL_FMT_IBDIAG_DB);
  assert_string_equal(fl_format_name(FL_FMT_IBDIAG_DB), "ibdiagnet-db");
  assert_int_equal(fl_format_is_topology(FL_FMT_IBDIAG_DB), 1);
  assert_string_equal(fl_format_name(FL_FMT_DBCSV), "ibdiagnet-db-csv");
  assert_int_equal(fl_format_parse("ibdiagnet-db-csv"), FL_FMT_DBCSV);
  assert_int_equal(fl_format_is_topology(FL_FMT_DBCSV), 0);
  /* the others still detect as before */
  assert_int_equal(fl_detect_format(TOPO, &err), FL_FMT_IBNETDISCOVER);
  assert_int_equal(
      fl_detect_format(FL_SOURCE_DIR "/tests/fixtures/ar/good.far", &err),
      FL_FMT_AR);
  char path[256];
  snprintf(path, sizeof path, "%s/tests/det-%d.txt", FL_BUILD_DIR,
           (int)getpid());
  /* START_ without its END (and no CSV header) is not a db_csv */
  write_file(path, "START_NODES\n\nnothing\n");
  fl_error_clear(&err);
  assert_int_equal(fl_detect_format(path, &err), FL_FMT_AUTO);
  /* NODES with a comment and a blank line before its header, CRLF: a
   * topology; NODES whose header lacks NodeType: AR state */
  write_file(path, "START_NODES\r\n# c\r\n\r\nNodeGUID , Node_Type\r\n"
                   "0x1,2\r\nEND_NODES\r\n");
  assert_int_equal(fl_detect_format(path, &err), FL_FMT_IBDIAG_DB);
  write_file(path, "START_NODES\nNodeGUID,NumPorts\n0x1,2\nEND_NODES\n");
  assert_int_equal(fl_detect_format(path, &err), FL_FMT_DBCSV);
  /* CRLF and an END_ with blanks */
  write_file(path, "START_X\r\na,b\r\n1,2\r\n  END_X  \r\n");
  assert_int_equal(fl_detect_format(path, &err), FL_FMT_DBCSV);
  remove(path);
}

static void test_on(void **state) {
  (void)state;
  int rc;
  fl_error err;
  fl_fabric *f = load(DB("ar-on.db_csv"), FL_FMT_AUTO, &rc, &err);
  assert_int_equal(rc, FL_OK);
  const char *sw[] = {"leaf-p01-01", "leaf-p01-02",  "leaf-p01-03",
                      "leaf-p01-04", "spine-p01-01", "spine-p01-02"};
  for (size_t i = 0; i < 6; i++) {
    assert_string_equal(attr(f, sw[i], "ar"), "true");
    assert_string_equal(attr(f, sw[i], "ar-sl-mask"), "0xffff");
  }
  assert_null(attr(f, "node0003 mlx5_0", "ar"));
  /* no AR tables; one note: its NODES section is not read (the fabric
   * came from the ibnetdiscover dump: no second copy of any node) */
  assert_int_equal(fl_fabric_ar_count(f), 0);
  assert_int_equal(fl_fabric_node_count(f), 14);
  assert_int_equal(fl_fabric_note_count(f), 1);
  const char *cat, *file, *msg;
  uint32_t line;
  assert_int_equal(fl_fabric_note(f, 0, &cat, &file, &line, &msg), FL_OK);
  assert_string_equal(cat, "topology");
  assert_int_equal(line, 14);
  assert_non_null(strstr(msg, "NODES, PORTS and LINKS sections of this "
                              "db_csv are not read"));
  fl_fabric_free(f);
}

static void test_leaf_off(void **state) {
  (void)state;
  int rc;
  fl_error err;
  fl_fabric *f = load(DB("ar-leaf-off.db_csv"), FL_FMT_DBCSV, &rc, &err);
  if (rc != FL_OK)
    fail_msg("%s:%u:%u: %s", err.file, err.line, err.col, err.message);
  assert_string_equal(attr(f, "leaf-p01-01", "ar"), "true");
  assert_string_equal(attr(f, "leaf-p01-01", "ar-sl-mask"), "0xffff");
  assert_string_equal(attr(f, "leaf-p01-02", "ar"), "false");
  assert_string_equal(attr(f, "leaf-p01-03", "ar"), "true");
  assert_string_equal(attr(f, "leaf-p01-03", "ar-sl-mask"), "0x000f");
  assert_string_equal(attr(f, "leaf-p01-04", "ar"), "true");
  assert_null(attr(f, "leaf-p01-04", "ar-sl-mask")); /* by_sl_en 0 */
  assert_string_equal(attr(f, "spine-p01-01", "ar-sl-mask"), "0xffff");
  assert_null(attr(f, "spine-p01-02", "ar")); /* N/A */
  assert_null(attr(f, "spine-p01-02", "ar-sl-mask"));
  /* the NODES section not read, and the unknown switch: a routing note at
   * its row */
  assert_int_equal(fl_fabric_note_count(f), 2);
  const char *cat, *file, *msg;
  uint32_t line;
  assert_int_equal(fl_fabric_note(f, 1, &cat, &file, &line, &msg), FL_OK);
  assert_string_equal(cat, "routing");
  assert_non_null(strstr(file, "ar-leaf-off.db_csv"));
  assert_int_equal(line, 36);
  assert_non_null(
      strstr(msg, "AR_INFO row for switch GUID 0x0002c903010000ff skipped"));
  fl_fabric_free(f);
}

/* CRLF, comments inside and between sections, an empty section, a CA GUID
 * (not a switch: skipped with a note), enable under the name `e`. */
static void test_lenient(void **state) {
  (void)state;
  char path[256];
  snprintf(path, sizeof path, "%s/tests/len-%d.db_csv", FL_BUILD_DIR,
           (int)getpid());
  write_file(path, "# banner\r\n"
                   "START_EMPTY\r\n"
                   "END_EMPTY\r\n"
                   "\r\n"
                   "START_AR_INFO\r\n"
                   "NodeGUID,E,SL_Mask\r\n"
                   "# a comment\r\n"
                   "0x2c90301000002,0,0x00ff\r\n"
                   "0x0002C90302000006,1,0xffff\r\n"
                   "END_AR_INFO\r\n");
  int rc;
  fl_error err;
  fl_fabric *f = load(path, FL_FMT_AUTO, &rc, &err);
  if (rc != FL_OK)
    fail_msg("%s:%u:%u: %s", err.file, err.line, err.col, err.message);
  assert_string_equal(attr(f, "leaf-p01-02", "ar"), "false");
  assert_string_equal(attr(f, "leaf-p01-02", "ar-sl-mask"), "0x00ff");
  assert_null(attr(f, "node0003 mlx5_0", "ar"));
  assert_int_equal(fl_fabric_note_count(f), 1);
  fl_fabric_free(f);
  remove(path);
}

static void test_malformed(void **state) {
  (void)state;
  static const struct {
    const char *text;
    const char *want;
    uint32_t line, col;
  } cases[] = {
      {"# x\nEND_NODES\n", "END_NODES without START_NODES", 2, 1},
      {"START_A\nx,y\n1,2\nEND_B\n", "expected END_A", 4, 1},
      {"START_A\nx,y\n1,2\n", "START_A is never closed: expected END_A", 1, 1},
      {"START_A\nx,y\n1,2\nSTART_B\n", "expected END_A", 4, 1},
      {"START_A\nx,y\n1,2,3\nEND_A\n", "row has 3 fields, expected 2", 3, 5},
      {"START_A\nx,y,z\n1,2\nEND_A\n", "row has 2 fields, expected 3", 3, 4},
      {"START_A\nx,y\n\"ab,2\nEND_A\n", "unterminated quoted string", 3, 1},
      {"START_A\nx,y\n\"ab\" c,2\nEND_A\n", "expected `,` or the end", 3, 6},
      {"START_AR_INFO\nNodeGUID,e\n0x2c9030100000g,1\nEND_AR_INFO\n",
       "expected a node GUID", 3, 1},
      {"START_AR_INFO\nNodeGUID,e\n0x00002c90301000002,1\nEND_AR_INFO\n",
       "expected a node GUID", 3, 1},
      {"START_AR_INFO\nNodeGUID,e\n0x2c90301000002,2\nEND_AR_INFO\n",
       "expected the AR enable bit", 3, 17},
      {"START_AR_INFO\nNodeGUID,e,sl_mask\n0x2c90301000002,1,0x10000\n"
       "END_AR_INFO\n",
       "expected the AR SL mask", 3, 19},
      {"START_AR_INFO\ne,sl_mask\n1,2\nEND_AR_INFO\n", "with a NodeGUID column",
       2, 1},
      {"# only comments\n", "no START_<NAME>", 1, 0},
  };
  char path[256];
  snprintf(path, sizeof path, "%s/tests/bad-%d.db_csv", FL_BUILD_DIR,
           (int)getpid());
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    write_file(path, cases[i].text);
    fl_fabric *f = fl_fabric_new();
    fl_error err;
    fl_error_clear(&err);
    assert_int_equal(fl_fabric_load(f, TOPO, FL_FMT_AUTO, NULL, &err), FL_OK);
    int rc = fl_fabric_load(f, path, FL_FMT_DBCSV, NULL, &err);
    if (rc != FL_EPARSE || !strstr(err.message, cases[i].want) ||
        err.line != cases[i].line || err.col != cases[i].col)
      fail_msg("case %zu: rc %d at %u:%u: %s", i, rc, err.line, err.col,
               err.message);
    fl_fabric_free(f);
  }
  remove(path);
}

/* ---- the topology role (core/io/dbcsv_topo.c) ---- */

/* Two switches and two CAs: sw-a port 1 - ca-1, port 2 - ca-2 (at 1x on
 * the CA's side: the two ends disagree), port 3 - sw-b port 3 (listed
 * twice, once each way round), sw-a port 4 free (Down/Polling), sw-b
 * port 3 up but not Active. LINKS comes before PORTS (cables are built at
 * the end). CABLE_INFO on ca-1's cable, and on sw-a's free port 4. */
static const char SMALL[] =
    "# This database file was automatically generated by IBDIAG\n"
    "START_LINKS\n"
    "NodeGuid1,PortNum1,NodeGuid2,PortNum2\n"
    "0x000000000000a001,1,0x000000000000c001,1\n"
    "0x000000000000a001,2,0x000000000000c002,1\n"
    "0x000000000000a001,3,0x000000000000b001,3\n"
    "0x000000000000b001,3,0x000000000000a001,3\n"
    "END_LINKS\n"
    "\n"
    "START_NODES\n"
    "NodeDesc,NumPorts,NodeType,SystemImageGUID,NodeGUID,PortGUID,"
    "DeviceID,VendorID\n"
    "\"sw-a\",4,2,0x000000000000a001,0x000000000000a001,0x000000000000a001,"
    "54002,0x2c9\n"
    "\" sw-b, spare \",4,2,0x000000000000b001,0x000000000000b001,"
    "0x000000000000b001,54002,0x2c9\n"
    "\"ca-1 mlx5_0\",1,1,0x000000000000c000,0x000000000000c001,"
    "0x000000000000c011,4129,0x2c9\n"
    "\"ca-2 mlx5_0\",1,1,0x000000000000c000,0x000000000000c002,"
    "0x000000000000c012,4129,0x2c9\n"
    "END_NODES\n"
    "\n"
    "START_PORTS\n"
    "NodeGuid,PortGuid,PortNum,LID,LinkWidthActv,LinkSpeedActv,LMC,"
    "PortPhyState,PortState,FECActv\n"
    "0x000000000000a001,0x000000000000a001,0,7,0,0,0,0,4,N/A\n"
    "0x000000000000a001,0x000000000000a001,1,7,2,2048,0,5,4,N/A\n"
    "0x000000000000a001,0x000000000000a001,2,7,2,2048,0,5,4,N/A\n"
    "0x000000000000a001,0x000000000000a001,3,7,2,1024,0,5,4,N/A\n"
    "0x000000000000a001,0x000000000000a001,4,7,1,1,0,2,1,N/A\n"
    "0x000000000000b001,0x000000000000b001,0,9,0,0,0,0,4,N/A\n"
    "0x000000000000b001,0x000000000000b001,3,9,2,1024,0,5,2,N/A\n"
    "0x000000000000c001,0x000000000000c011,1,11,2,2048,2,5,4,N/A\n"
    "0x000000000000c002,0x000000000000c012,1,12,1,2048,0,5,4,N/A\n"
    "END_PORTS\n"
    "\n"
    "START_CABLE_INFO\n"
    "NodeGuid,PortGuid,PortNum,Vendor,PN,SN,Length\n"
    "0x000000000000c001,0x000000000000c011,1,Mellanox,MCP4Y10-N002,"
    "MT2301XZ0001,2\n"
    "0x000000000000a001,0x000000000000a001,4,Mellanox,MFS1S00-H010V,"
    "MT2301XZ0002,N/A\n"
    "END_CABLE_INFO\n";

static fl_fabric *load_text(const char *text, uint32_t fmt, int *rc,
                            fl_error *err) {
  char path[256];
  snprintf(path, sizeof path, "%s/tests/topo-%d.db_csv", FL_BUILD_DIR,
           (int)getpid());
  write_file(path, text);
  fl_fabric *f = fl_fabric_new();
  fl_error_clear(err);
  *rc = fl_fabric_load(f, path, fmt, NULL, err);
  remove(path);
  if (*rc == FL_OK)
    assert_int_equal(fl_fabric_finalize(f, err), FL_OK);
  return f;
}

static fl_id port_of(const fl_fabric *f, const char *node, uint32_t num) {
  fl_id n = fl_fabric_find_node_name(f, node);
  assert_true(n != FL_NONE);
  fl_id p = fl_fabric_find_port(f, n, num);
  assert_true(p != FL_NONE);
  return p;
}

static fl_id link_of(const fl_fabric *f, const char *node, uint32_t num) {
  fl_id p = port_of(f, node, num);
  assert_int_equal(fl_fabric_port_link_count(f, p), 1);
  return fl_fabric_port_link(f, p, 0);
}

static void test_topology(void **state) {
  (void)state;
  int rc;
  fl_error err;
  fl_fabric *f = load_text(SMALL, FL_FMT_AUTO, &rc, &err);
  if (rc != FL_OK)
    fail_msg("%s:%u:%u: %s", err.file, err.line, err.col, err.message);
  assert_int_equal(fl_fabric_node_count(f), 4);
  assert_int_equal(fl_fabric_count_kind(f, FL_NODE_SWITCH), 2);
  assert_int_equal(fl_fabric_count_kind(f, FL_NODE_CA), 2);
  assert_int_equal(fl_fabric_link_count(f), 3); /* the twice-listed: once */
  fl_id a = fl_fabric_find_node_name(f, "sw-a");
  assert_true(a != FL_NONE);
  assert_int_equal(fl_fabric_node_guid(f, a), 0xa001);
  assert_int_equal(fl_fabric_node_devid(f, a), 54002);
  assert_int_equal(fl_fabric_node_vendid(f, a), 0x2c9);
  assert_int_equal(fl_fabric_node_nports(f, a), 4);
  /* a quoted description keeps its comma; blanks around it go */
  assert_true(fl_fabric_find_node_name(f, "sw-b, spare") != FL_NONE);
  /* the switch's LID on port 0; a CA's on its port, with its LMC */
  assert_int_equal(fl_fabric_port_lid(f, port_of(f, "sw-a", 0)), 7);
  assert_int_equal(fl_fabric_port_lid(f, port_of(f, "sw-a", 1)), 0);
  assert_int_equal(fl_fabric_port_lid(f, port_of(f, "ca-1 mlx5_0", 1)), 11);
  assert_int_equal(fl_fabric_port_lmc(f, port_of(f, "ca-1 mlx5_0", 1)), 2);
  assert_int_equal(fl_fabric_port_guid(f, port_of(f, "ca-1 mlx5_0", 1)),
                   0xc011);
  /* widths and speeds: the first end's, the second end's when they differ */
  fl_id l1 = link_of(f, "sw-a", 1), l2 = link_of(f, "sw-a", 2),
        l3 = link_of(f, "sw-a", 3);
  assert_int_equal(fl_fabric_link_width(f, l1), 4);
  assert_int_equal(fl_fabric_link_speed(f, l1), FL_SPEED_NDR);
  assert_int_equal(fl_fabric_link_flags(f, l1) & FL_LINK_WIDTH_MISMATCH, 0);
  assert_int_equal(fl_fabric_link_width(f, l2), 4);
  assert_int_equal(fl_fabric_link_width_b(f, l2), 1);
  assert_true(fl_fabric_link_flags(f, l2) & FL_LINK_WIDTH_MISMATCH);
  assert_int_equal(fl_fabric_link_speed(f, l3), FL_SPEED_HDR);
  assert_int_equal(fl_fabric_link_flags(f, l3) &
                       (FL_LINK_SEEN_A | FL_LINK_SEEN_B),
                   FL_LINK_SEEN_A | FL_LINK_SEEN_B);
  /* port states as iblinkinfo words them; none on port 0 */
  assert_string_equal(
      fl_fabric_attr(f, FL_ENT_PORT, port_of(f, "sw-a", 1), "state"),
      "Active/LinkUp");
  assert_string_equal(
      fl_fabric_attr(f, FL_ENT_PORT, port_of(f, "sw-a", 4), "state"),
      "Down/Polling");
  assert_string_equal(
      fl_fabric_attr(f, FL_ENT_PORT, port_of(f, "sw-b, spare", 3), "state"),
      "Initialize/LinkUp");
  assert_null(fl_fabric_attr(f, FL_ENT_PORT, port_of(f, "sw-a", 0), "state"));
  /* the cable's data on its link; none on the others */
  assert_string_equal(fl_fabric_attr(f, FL_ENT_LINK, l1, "cable-pn"),
                      "MCP4Y10-N002");
  assert_string_equal(fl_fabric_attr(f, FL_ENT_LINK, l1, "cable-vendor"),
                      "Mellanox");
  assert_string_equal(fl_fabric_attr(f, FL_ENT_LINK, l1, "cable-sn"),
                      "MT2301XZ0001");
  assert_string_equal(fl_fabric_attr(f, FL_ENT_LINK, l1, "length"), "2");
  assert_null(fl_fabric_attr(f, FL_ENT_LINK, l2, "cable-pn"));
  /* CABLE_INFO of the free port: one topology note */
  assert_int_equal(fl_fabric_note_count(f), 1);
  const char *cat, *file, *msg;
  uint32_t line;
  assert_int_equal(fl_fabric_note(f, 0, &cat, &file, &line, &msg), FL_OK);
  assert_string_equal(cat, "topology");
  assert_int_equal(line, 34);
  assert_non_null(strstr(msg, "CABLE_INFO of port 4 of node "
                              "0x000000000000a001 not used"));
  fl_fabric_free(f);
}

/* The role follows the fabric: auto-detected into a fabric that already
 * has nodes, the dump adds no node; forced to ibdiagnet-db it is read as a
 * topology, and this one, of AR state, lists no cable: refused. */
static void test_role(void **state) {
  (void)state;
  fl_error err;
  for (int forced = 0; forced < 2; forced++) {
    fl_fabric *f = fl_fabric_new();
    fl_error_clear(&err);
    assert_int_equal(fl_fabric_load(f, TOPO, FL_FMT_AUTO, NULL, &err), FL_OK);
    uint32_t before = fl_fabric_node_count(f);
    int rc =
        fl_fabric_load(f, DB("ar-on.db_csv"),
                       forced ? FL_FMT_IBDIAG_DB : FL_FMT_AUTO, NULL, &err);
    assert_int_equal(rc, forced ? FL_EPARSE : FL_OK);
    if (forced)
      assert_non_null(strstr(err.message, "no LINKS section"));
    else
      assert_int_equal(fl_fabric_node_count(f), before);
    fl_fabric_free(f);
  }
}

static void test_topology_malformed(void **state) {
  (void)state;
  static const char NODES[] =
      "START_NODES\nNodeDesc,NumPorts,NodeType,NodeGUID\n"
      "\"a\",4,2,0xa\n\"b\",4,2,0xb\n\"c\",1,1,0xc\nEND_NODES\n";
  static const struct {
    const char *tail; /* after NODES (7 lines) */
    const char *want;
    uint32_t line, col;
  } cases[] = {
      {"START_NODES\nNodeDesc,NodeType,NodeGUID\n\"d\",2,0xa\nEND_NODES\n",
       "node 0x000000000000000a is listed twice", 10, 7},
      {"START_NODES\nNodeDesc,NodeType,NodeGUID\n\"d\",0,0xd\nEND_NODES\n",
       "expected NodeType 1 (CA), 2 (switch) or 3 (router)", 10, 5},
      {"START_NODES\nNodeDesc,NodeType,NodeGUID\n\"d\",4,0xd\nEND_NODES\n",
       "expected NodeType 1 (CA), 2 (switch) or 3 (router), got `4`", 10, 5},
      {"START_NODES\nNodeDesc,NodeGUID\n\"d\",0xd\nEND_NODES\n",
       "section NODES: expected a column nodetype", 9, 1},
      {"START_PORTS\nNodeGuid,PortNum\n0xe,1\nEND_PORTS\n",
       "section PORTS: node 0x000000000000000e is not listed in NODES", 10, 1},
      {"START_PORTS\nNodeGuid,PortNum\n0xa,256\nEND_PORTS\n",
       "expected a number 0..255", 10, 5},
      {"START_PORTS\nNodeGuid,PortNum,LID\n0xa,1,0x1ffff\nEND_PORTS\n",
       "expected a number 0..65535", 10, 7},
      {"START_LINKS\nNodeGuid1,PortNum1,NodeGuid2,PortNum2\n0xa,1,0xz,1\n"
       "END_LINKS\n",
       "section LINKS: expected a GUID", 10, 7},
      {"START_LINKS\nNodeGuid1,PortNum1,NodeGuid2,PortNum2\n0xa,1,0xf,1\n"
       "END_LINKS\n",
       "section LINKS: node 0x000000000000000f is not listed", 10, 7},
      {"START_LINKS\nNodeGuid1,PortNum1,NodeGuid2\n0xa,1,0xb\nEND_LINKS\n",
       "expected a column portnum2", 9, 1},
      /* a port in two cables: named at the second */
      {"START_LINKS\nNodeGuid1,PortNum1,NodeGuid2,PortNum2\n0xa,1,0xb,1\n"
       "0xc,1,0xb,1\nEND_LINKS\n",
       "port 1 of node 0x000000000000000b is already cabled on line 10", 11, 1},
      {"START_LINKS\nNodeGuid1,PortNum1,NodeGuid2,PortNum2\n0xa,1,0xb,1\n"
       "0xa,1,0xb,2\nEND_LINKS\n",
       "port 1 of node 0x000000000000000a is already cabled on line 10", 11, 1},
      /* a port cabled to itself */
      {"START_LINKS\nNodeGuid1,PortNum1,NodeGuid2,PortNum2\n0xa,3,0xa,3\n"
       "END_LINKS\n",
       "a cable from port 3 of node 0x000000000000000a to itself", 10, 1},
      /* a port listed twice in PORTS: named at the second row */
      {"START_PORTS\nNodeGuid,PortNum,LinkWidthActv\n0xa,1,2\n0xa,1,1\n"
       "END_PORTS\nSTART_LINKS\nNodeGuid1,PortNum1,NodeGuid2,PortNum2\n"
       "END_LINKS\n",
       "port 1 of node 0x000000000000000a is listed twice (first on line 10",
       11, 5},
      /* a port listed twice in CABLE_INFO */
      {"START_LINKS\nNodeGuid1,PortNum1,NodeGuid2,PortNum2\n0xa,1,0xc,1\n"
       "END_LINKS\nSTART_CABLE_INFO\nNodeGuid,PortNum,Vendor\n0xc,1,A\n"
       "0xc,1,B\nEND_CABLE_INFO\n",
       "section CABLE_INFO: port 1 of node 0x000000000000000c is listed twice "
       "(first on line 14",
       15, 1},
      /* no LINKS section at all */
      {"START_PORTS\nNodeGuid,PortNum\n0xa,1\nEND_PORTS\n",
       "no LINKS section: the dump lists no cable", 0, 0},
  };
  char text[1024];
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    snprintf(text, sizeof text, "%s\n%s", NODES, cases[i].tail);
    int rc;
    fl_error err;
    fl_fabric *f = load_text(text, FL_FMT_AUTO, &rc, &err);
    if (rc != FL_EPARSE || !strstr(err.message, cases[i].want) ||
        err.line != cases[i].line || err.col != cases[i].col)
      fail_msg("case %zu: rc %d at %u:%u: %s", i, rc, err.line, err.col,
               err.message);
    fl_fabric_free(f);
  }
  /* forced to the topology role, a dump without NODES */
  int rc;
  fl_error err;
  fl_fabric *f = load_text("START_AR_INFO\nNodeGUID,e\n0xa,1\nEND_AR_INFO\n",
                           FL_FMT_IBDIAG_DB, &rc, &err);
  assert_int_equal(rc, FL_EPARSE);
  assert_non_null(strstr(err.message, "no NODES section"));
  fl_fabric_free(f);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_detect),
      cmocka_unit_test(test_on),
      cmocka_unit_test(test_leaf_off),
      cmocka_unit_test(test_lenient),
      cmocka_unit_test(test_malformed),
      cmocka_unit_test(test_topology),
      cmocka_unit_test(test_role),
      cmocka_unit_test(test_topology_malformed),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
