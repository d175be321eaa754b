/* SPDX-License-Identifier: MIT */
/*
 * tests/unit/test_design_xml.c — the design XML loader (core/io/design_xml*.c),
 * its schema (schema/design.rng) and writer (core/design_write.c).
 *
 * Small designs are inline fixtures written to a temporary directory, with
 * expected counts, attributes and positions worked out by hand from the
 * fixture text. Every schema-violation case runs twice: with the built-in
 * checks (the default) and with libxml2 RELAX NG validation against the
 * shipped schema (the reference), and must fail at the same line and column
 * in both — that is what keeps the built-in checks and design.rng in step.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "tmpdir.h"

#include "design_xml.h"
#include "fabriclint/fabric.h"
#include "fabriclint/load.h"
#include "fabriclint/write.h"
#include "loaders.h"

#define SCHEMA FL_SOURCE_DIR "/schema/design.rng"
#define HEAD   "<fabric xmlns=\"urn:fabriclint:design:1\">\n"

/* Load @path with @mode into a new fabric (finalized on success). */
static int load(const char *path, int mode, fl_fabric **out, fl_error *err) {
  fl_fabric *fab = fl_fabric_new();
  fl_load_options o;
  memset(&o, 0, sizeof o);
  assert_non_null(fab);
  fl_error_clear(err);
  int rc = fl_load_design_xml_mode(fab, path, &o, mode, SCHEMA, err);
  if (rc == FL_OK)
    rc = fl_fabric_finalize(fab, err);
  if (rc != FL_OK || !out) {
    fl_fabric_free(fab);
    if (out)
      *out = NULL;
    return rc;
  }
  *out = fab;
  return rc;
}

static const char *node_attr(const fl_fabric *f, const char *node,
                             const char *key) {
  fl_id n = fl_fabric_find_node_name(f, node);
  assert_int_not_equal(n, FL_NONE);
  return fl_fabric_attr(f, FL_ENT_NODE, n, key);
}

/* The link between ports (@a, @pa) and (@b, @pb), either way round. */
static fl_id find_link(const fl_fabric *f, const char *a, uint32_t pa,
                       const char *b, uint32_t pb) {
  fl_id na = fl_fabric_find_node_name(f, a);
  fl_id nb = fl_fabric_find_node_name(f, b);
  assert_int_not_equal(na, FL_NONE);
  assert_int_not_equal(nb, FL_NONE);
  fl_id p = fl_fabric_find_port(f, na, pa);
  assert_int_not_equal(p, FL_NONE);
  fl_id l = fl_fabric_port_link(f, p, 0);
  assert_int_not_equal(l, FL_NONE);
  fl_id o = fl_fabric_link_other(f, l, p);
  assert_int_equal(fl_fabric_port_node(f, o), nb);
  assert_int_equal(fl_fabric_port_num(f, o), pb);
  return l;
}

/* ---- a small valid design -------------------------------------------- */

/* Line numbers matter: tests below refer to them. */
static const char SMALL[] =
    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"                   /* 1 */
    "<fabric xmlns=\"urn:fabriclint:design:1\" version=\"1\"\n"      /* 2 */
    "        name=\"su1\" description=\"one SU &amp; spine\">\n"     /* 3 */
    "  <!-- a link before its nodes -->\n"                           /* 4 */
    "  <link a=\"leaf-0\" a-port=\"33\" b=\"spine-0\" b-port=\"1\" " /* 5 */
    "width=\"4x\" speed=\"NDR\" cable=\"C0001\" length=\"20\" "
    "media=\"aoc\">\n"
    "    <attr key=\"part\" value=\"MFA7U10\"/>\n" /* 6 */
    "  </link>\n"                                  /* 7 */
    "  <node kind=\"switch\" name=\"leaf-0\" ports=\"64\" tier=\"1\" "
    "rail=\"0\" su=\"1\" rack=\"R01\" pdu=\"A3\" power-feed=\"A\" "
    "ar=\"1\" guid=\"0x0002c9030000aa01\">\n"      /* 8 */
    "    <port num=\"1\" label=\"swp1\"/>\n"       /* 9 */
    "    <port num=\"0\" lid=\"7\"/>\n"            /* 10 */
    "    <attr key=\"model\" value=\"QM9700\"/>\n" /* 11 */
    "  </node>\n"                                  /* 12 */
    "  <node kind=\"switch\" name=\"spine-0\" ports=\"64\" tier=\"2\" "
    "plane=\"0\" hall=\"H1\" row=\"3\" pod=\"p1\"/>\n" /* 13 */
    "  <node kind=\"ca\" name=\"dgx-001 mlx5_0\" system=\"dgx-001\" "
    "device=\"mlx5_0\" ports=\"1\" rail=\"0\" su=\"1\" "
    "role=\"compute\" desc=\"dgx-001 HCA-1\">\n" /* 14 */
    "    <port num=\"1\" guid=\"0x0002c90300bb0001\" lid=\"12\" "
    "lmc=\"1\" width=\"4x\" speed=\"NDR\"/>\n" /* 15 */
    "  </node>\n"                              /* 16 */
    "  <node kind=\"ca\" name=\"dgx-001 mlx5_3\" system=\"dgx-001\" "
    "device=\"mlx5_3\" rail=\"1\"/>\n" /* 17 */
    "  <link a=\"leaf-0\" a-port=\"1\" b=\"dgx-001 mlx5_0\" "
    "b-port=\"1\"/>\n" /* 18 */
    "  <link a=\"dgx-001 mlx5_3\" a-port=\"1\" b=\"spine-0\" "
    "b-port=\"2\" speed=\"400G\"/>\n"            /* 19 */
    "  <attr key=\"owner\" value=\"team-a\"/>\n" /* 20 */
    "</fabric>\n";

static void check_small(const fl_fabric *f) {
  assert_int_equal(fl_fabric_node_count(f), 4);
  assert_int_equal(fl_fabric_link_count(f), 3);
  assert_int_equal(fl_fabric_count_kind(f, FL_NODE_SWITCH), 2);
  assert_int_equal(fl_fabric_count_kind(f, FL_NODE_CA), 2);

  fl_id leaf = fl_fabric_find_node_name(f, "leaf-0");
  assert_int_not_equal(leaf, FL_NONE);
  assert_int_equal(fl_fabric_node_kind(f, leaf), FL_NODE_SWITCH);
  assert_true(fl_fabric_node_guid(f, leaf) == 0x0002c9030000aa01ULL);
  assert_int_equal(fl_fabric_node_nports(f, leaf), 64);
  assert_int_equal(fl_fabric_node_tier(f, leaf), 1);
  assert_int_equal(fl_fabric_node_tier_derived(f, leaf), 0);
  assert_string_equal(node_attr(f, "leaf-0", "tier"), "1");
  assert_string_equal(node_attr(f, "leaf-0", "rail"), "0");
  assert_string_equal(node_attr(f, "leaf-0", "su"), "1");
  assert_string_equal(node_attr(f, "leaf-0", "rack"), "R01");
  assert_string_equal(node_attr(f, "leaf-0", "pdu"), "A3");
  assert_string_equal(node_attr(f, "leaf-0", "power-feed"), "A");
  assert_string_equal(node_attr(f, "leaf-0", "ar"), "true");
  assert_string_equal(node_attr(f, "leaf-0", "model"), "QM9700");
  assert_null(node_attr(f, "leaf-0", "plane"));
  assert_string_equal(node_attr(f, "spine-0", "plane"), "0");
  assert_string_equal(node_attr(f, "spine-0", "hall"), "H1");
  assert_string_equal(node_attr(f, "spine-0", "row"), "3");
  assert_string_equal(node_attr(f, "spine-0", "pod"), "p1");
  assert_int_equal(
      fl_fabric_node_tier(f, fl_fabric_find_node_name(f, "spine-0")), 2);

  fl_id p1 = fl_fabric_find_port(f, leaf, 1);
  assert_int_not_equal(p1, FL_NONE);
  assert_string_equal(fl_fabric_port_label(f, p1), "swp1");
  fl_id p0 = fl_fabric_find_port(f, leaf, 0);
  assert_int_not_equal(p0, FL_NONE);
  assert_int_equal(fl_fabric_port_lid(f, p0), 7);

  fl_id ca = fl_fabric_find_node_name(f, "dgx-001 mlx5_0");
  assert_int_not_equal(ca, FL_NONE);
  assert_string_equal(fl_fabric_node_system(f, ca), "dgx-001");
  assert_string_equal(fl_fabric_node_device(f, ca), "mlx5_0");
  assert_string_equal(fl_fabric_node_desc(f, ca), "dgx-001 HCA-1");
  assert_string_equal(node_attr(f, "dgx-001 mlx5_0", "role"), "compute");
  fl_id cp = fl_fabric_find_port(f, ca, 1);
  assert_true(fl_fabric_port_guid(f, cp) == 0x0002c90300bb0001ULL);
  assert_int_equal(fl_fabric_port_lid(f, cp), 12);
  assert_int_equal(fl_fabric_port_lmc(f, cp), 1);
  assert_string_equal(fl_fabric_attr(f, FL_ENT_PORT, cp, "width"), "4x");
  assert_string_equal(fl_fabric_attr(f, FL_ENT_PORT, cp, "speed"), "NDR");

  fl_id l = find_link(f, "leaf-0", 33, "spine-0", 1);
  assert_int_equal(fl_fabric_link_width(f, l), 4);
  assert_int_equal(fl_fabric_link_speed(f, l), FL_SPEED_NDR);
  assert_true(fl_fabric_link_flags(f, l) & FL_LINK_DECLARED);
  assert_string_equal(fl_fabric_attr(f, FL_ENT_LINK, l, "cable"), "C0001");
  assert_string_equal(fl_fabric_attr(f, FL_ENT_LINK, l, "length"), "20");
  assert_string_equal(fl_fabric_attr(f, FL_ENT_LINK, l, "media"), "aoc");
  assert_string_equal(fl_fabric_attr(f, FL_ENT_LINK, l, "part"), "MFA7U10");

  /* width and speed inherited from the <port> of end b */
  l = find_link(f, "leaf-0", 1, "dgx-001 mlx5_0", 1);
  assert_int_equal(fl_fabric_link_width(f, l), 4);
  assert_int_equal(fl_fabric_link_speed(f, l), FL_SPEED_NDR);
  /* Ethernet: a whole-port rate, width 1 */
  l = find_link(f, "dgx-001 mlx5_3", 1, "spine-0", 2);
  assert_int_equal(fl_fabric_link_speed(f, l), FL_SPEED_ETH_400G);
  assert_int_equal(fl_fabric_link_width(f, l), 1);
}

static void test_small_design(void **state) {
  (void)state;
  const char *path = fixture("small.xml", SMALL);
  fl_fabric *f;
  fl_error err;
  char buf[2200];
  for (int mode = FL_DX_LENIENT; mode <= FL_DX_RELAXNG; mode++) {
    int rc = load(path, mode, &f, &err);
    if (rc != FL_OK)
      fail_msg("mode %d: %s", mode, fl_error_format(&err, buf, sizeof buf));
    check_small(f);

    /* provenance: element positions, 1-based, in characters */
    const char *file;
    uint32_t line, col;
    fl_id leaf = fl_fabric_find_node_name(f, "leaf-0");
    assert_int_equal(
        fl_fabric_provenance(f, FL_ENT_NODE, leaf, &file, &line, &col), FL_OK);
    assert_string_equal(file, path);
    assert_int_equal(line, 8);
    assert_int_equal(col, 3);
    fl_id l = find_link(f, "leaf-0", 33, "spine-0", 1);
    assert_int_equal(
        fl_fabric_provenance(f, FL_ENT_LINK, l, &file, &line, &col), FL_OK);
    assert_int_equal(line, 5);
    assert_int_equal(col, 3);
    fl_id p = fl_fabric_find_port(f, leaf, 1);
    assert_int_equal(
        fl_fabric_provenance(f, FL_ENT_PORT, p, &file, &line, &col), FL_OK);
    assert_int_equal(line, 9);
    assert_int_equal(col, 5);
    /* link ids follow document order */
    assert_int_equal(l, 0);
    fl_fabric_free(f);
  }
}

/* fl_fabric_load() detects design XML and uses this loader. */
static void test_detect_and_dispatch(void **state) {
  (void)state;
  const char *path = fixture("detect.xml", SMALL);
  fl_error err;
  fl_error_clear(&err);
  assert_int_equal(fl_detect_format(path, &err), FL_FMT_DESIGN_XML);
  fl_fabric *f = fl_fabric_new();
  assert_int_equal(fl_fabric_load(f, path, FL_FMT_AUTO, NULL, &err), FL_OK);
  assert_int_equal(fl_fabric_finalize(f, &err), FL_OK);
  check_small(f);
  fl_fabric_free(f);
}

/* Columns count characters, not bytes; a tab is one character. */
static void test_columns_utf8(void **state) {
  (void)state;
  const char *doc = HEAD "\t<node kind=\"ca\" name=\"h\xc3\xa9\"/><node "
                         "kind=\"ca\" name=\"x\" tier=\"t\"/>\n</fabric>\n";
  fl_error err;
  assert_int_equal(load(fixture("utf8.xml", doc), FL_DX_BUILTIN, NULL, &err),
                   FL_EPARSE);
  /* "\t<node kind="ca" name="hé"/><node kind="ca" name="x" tier=..." */
  assert_int_equal(err.line, 2);
  assert_int_equal(err.col, 54);
  assert_non_null(strstr(err.message, "tier"));
  assert_non_null(strstr(err.message, "0..255"));
}

/* ---- schema violations: both validators, same place ------------------ */

typedef struct bad_case {
  const char *name;
  const char *doc;
  uint32_t line, col;
  const char *says; /* in the built-in message */
} bad_case;

static const bad_case BAD[] = {
    {"unknown element",
     HEAD "  <node kind=\"ca\" name=\"a\"/>\n  <foo/>\n</fabric>\n", 3, 3,
     "unexpected element <foo>"},
    {"missing attribute", HEAD "  <node kind=\"ca\"/>\n</fabric>\n", 2, 3,
     "missing required attribute name"},
    {"bad kind", HEAD "  <node kind=\"hub\" name=\"a\"/>\n</fabric>\n", 2, 9,
     "switch, ca or router"},
    {"unknown attribute",
     HEAD "  <node kind=\"ca\" name=\"a\" colour=\"red\"/>\n</fabric>\n", 2, 28,
     "unknown attribute colour"},
    {"tier not a number",
     HEAD "  <node kind=\"switch\" name=\"a\" tier=\"top\"/>\n</fabric>\n", 2,
     32, "0..255"},
    {"guid not hex",
     HEAD "  <node kind=\"ca\" name=\"a\" guid=\"0xZZ12\"/>\n</fabric>\n", 2,
     28, "GUID in hex"},
    {"guid too long",
     HEAD "  <node kind=\"ca\" name=\"a\" guid=\"0x00000000000000001\"/>\n"
          "</fabric>\n",
     2, 28, "GUID in hex"},
    {"port 0 at a cable end",
     HEAD "  <link a=\"x\" a-port=\"0\" b=\"y\" b-port=\"1\"/>\n</fabric>\n", 2,
     15, "1..65535"},
    {"port beyond 65535",
     HEAD "  <node kind=\"switch\" name=\"s\">\n    <port num=\"65536\"/>\n"
          "  </node>\n</fabric>\n",
     3, 11, "0..65535"},
    {"bad width",
     HEAD "  <link a=\"x\" a-port=\"1\" b=\"y\" b-port=\"1\" width=\"3x\"/>\n"
          "</fabric>\n",
     2, 43, "1x, 2x, 4x, 8x or 12x"},
    {"bad speed",
     HEAD "  <link a=\"x\" a-port=\"1\"\n        b=\"y\" b-port=\"1\" "
          "speed=\"NDR400\"/>\n</fabric>\n",
     3, 26, "SDR, DDR"},
    {"bad media",
     HEAD "  <link a=\"x\" a-port=\"1\" b=\"y\" b-port=\"1\" media=\"wifi\"/>\n"
          "</fabric>\n",
     2, 43, "copper, dac"},
    {"reserved attr key",
     HEAD
     "  <node kind=\"ca\" name=\"a\">\n    <attr key=\"rail\" value=\"1\"/>\n"
     "  </node>\n</fabric>\n",
     3, 11, "other than tier, rail"},
    {"port inside link",
     HEAD "  <link a=\"x\" a-port=\"1\" b=\"y\" b-port=\"1\">\n"
          "    <port num=\"1\"/>\n  </link>\n</fabric>\n",
     3, 5, "expected <attr>"},
    {"text content",
     HEAD "  <node kind=\"ca\" name=\"a\">hello</node>\n</fabric>\n", 2, 28,
     "text is not allowed"},
    {"wrong namespace",
     "<fabric xmlns=\"urn:example\">\n  <node kind=\"ca\" name=\"a\"/>\n"
     "</fabric>\n",
     1, 1, "expected the root element <fabric"},
    {"empty name", HEAD "  <node kind=\"ca\" name=\"\"/>\n</fabric>\n", 2, 19,
     "non-empty"},
};

static void test_schema_violations(void **state) {
  (void)state;
  char buf[2200];
  for (size_t i = 0; i < sizeof BAD / sizeof BAD[0]; i++) {
    const char *path = fixture("bad.xml", BAD[i].doc);
    for (int mode = FL_DX_BUILTIN; mode <= FL_DX_RELAXNG; mode++) {
      fl_error err;
      int rc = load(path, mode, NULL, &err);
      fl_error_format(&err, buf, sizeof buf);
      if (rc != FL_EPARSE || err.line != BAD[i].line || err.col != BAD[i].col)
        fail_msg("%s (mode %d): rc %d, got %s; expected line %u col %u",
                 BAD[i].name, mode, rc, buf, BAD[i].line, BAD[i].col);
      assert_string_equal(err.file, path);
      if (mode == FL_DX_BUILTIN && !strstr(err.message, BAD[i].says))
        fail_msg("%s: message \"%s\" lacks \"%s\"", BAD[i].name, err.message,
                 BAD[i].says);
    }
  }
}

/* Well-formedness errors come from libxml2, with its line and column. */
static void test_not_well_formed(void **state) {
  (void)state;
  const char *path = fixture(
      "nwf.xml", HEAD "  <node kind=\"ca\" name=\"a\">\n  </nod>\n</fabric>\n");
  fl_error err;
  assert_int_equal(load(path, FL_DX_BUILTIN, NULL, &err), FL_EPARSE);
  assert_int_equal(err.line, 3);
  assert_true(err.col > 0);
  assert_non_null(strstr(err.message, "well-formed"));
  path = fixture("empty.xml", "");
  assert_int_equal(load(path, FL_DX_BUILTIN, NULL, &err), FL_EPARSE);
  assert_int_equal(load(fixture("noroot.xml", "<?xml version=\"1.0\"?>\n"),
                        FL_DX_BUILTIN, NULL, &err),
                   FL_EPARSE);
  assert_int_equal(
      load(FL_SOURCE_DIR "/no/such/file.xml", FL_DX_BUILTIN, NULL, &err),
      FL_EIO);
}

/* ---- semantic checks --------------------------------------------------- */

static void test_duplicate_node(void **state) {
  (void)state;
  const char *path =
      fixture("dup.xml", HEAD "  <node kind=\"ca\" name=\"h1\"/>\n"
                              "  <node kind=\"switch\" name=\"s\"/>\n"
                              "  <node kind=\"ca\"   name=\"h1\"/>\n"
                              "</fabric>\n");
  for (int mode = FL_DX_LENIENT; mode <= FL_DX_RELAXNG; mode++) {
    fl_error err;
    assert_int_equal(load(path, mode, NULL, &err), FL_EPARSE);
    assert_int_equal(err.line, 4);
    assert_int_equal(err.col, 21);
    assert_non_null(strstr(err.message, "duplicate node name \"h1\""));
    assert_non_null(strstr(err.message, "line 2, column 3"));
  }
}

static void test_duplicate_port(void **state) {
  (void)state;
  const char *path =
      fixture("dupport.xml", HEAD "  <node kind=\"switch\" name=\"s\">\n"
                                  "    <port num=\"1\"/><port num=\"1\"/>\n"
                                  "  </node>\n</fabric>\n");
  fl_error err;
  assert_int_equal(load(path, FL_DX_BUILTIN, NULL, &err), FL_EPARSE);
  assert_int_equal(err.line, 3);
  assert_int_equal(err.col, 26);
  path = fixture("caport0.xml", HEAD "  <node kind=\"ca\" name=\"h\">\n"
                                     "    <port num=\"0\"/>\n"
                                     "  </node>\n</fabric>\n");
  assert_int_equal(load(path, FL_DX_BUILTIN, NULL, &err), FL_EPARSE);
  assert_int_equal(err.line, 3);
  assert_non_null(strstr(err.message, "management port"));
}

static void test_unknown_node_in_link(void **state) {
  (void)state;
  const char *path =
      fixture("unk.xml", HEAD "  <link a=\"s\" a-port=\"1\" b=\"ghost\" "
                              "b-port=\"1\"/>\n"
                              "  <node kind=\"switch\" name=\"s\"/>\n"
                              "</fabric>\n");
  for (int mode = FL_DX_LENIENT; mode <= FL_DX_RELAXNG; mode++) {
    fl_error err;
    assert_int_equal(load(path, mode, NULL, &err), FL_EPARSE);
    assert_int_equal(err.line, 2);
    assert_int_equal(err.col, 26);
    assert_non_null(strstr(err.message, "b=\"ghost\""));
  }
}

static void test_ethernet_width(void **state) {
  (void)state;
  const char *path = fixture(
      "eth.xml", HEAD "  <node kind=\"switch\" name=\"s\"/>\n"
                      "  <link a=\"s\" a-port=\"1\" b=\"s\" b-port=\"2\" "
                      "width=\"4x\" speed=\"400G\"/>\n</fabric>\n");
  fl_error err;
  assert_int_equal(load(path, FL_DX_BUILTIN, NULL, &err), FL_EPARSE);
  assert_int_equal(err.line, 3);
  assert_int_equal(err.col, 43);
}

/* ---- safety ------------------------------------------------------------ */

static void test_billion_laughs(void **state) {
  (void)state;
  const char *path = fixture(
      "lol.xml",
      "<?xml version=\"1.0\"?>\n"
      "<!DOCTYPE fabric [\n"
      " <!ENTITY lol \"lol\">\n"
      " <!ENTITY lol1 \"&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;\">\n"
      " <!ENTITY lol2 \"&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;\">\n"
      " <!ENTITY lol3 \"&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;\">\n"
      " <!ENTITY lol4 \"&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;\">\n"
      " <!ENTITY lol5 \"&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;\">\n"
      " <!ENTITY lol6 \"&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;\">\n"
      " <!ENTITY lol7 \"&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;\">\n"
      " <!ENTITY lol8 \"&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;\">\n"
      " <!ENTITY lol9 \"&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;\">\n"
      "]>\n"
      "<fabric xmlns=\"urn:fabriclint:design:1\">\n"
      "  <node kind=\"ca\" name=\"&lol9;\"/>\n"
      "</fabric>\n");
  for (int mode = FL_DX_LENIENT; mode <= FL_DX_RELAXNG; mode++) {
    fl_error err;
    clock_t t0 = clock();
    assert_int_equal(load(path, mode, NULL, &err), FL_EPARSE);
    assert_true((double)(clock() - t0) / CLOCKS_PER_SEC < 1.0);
    assert_int_equal(err.line, 2);
    assert_int_equal(err.col, 1);
    assert_non_null(strstr(err.message, "DOCTYPE"));
  }
}

static void test_external_entity(void **state) {
  (void)state;
  const char *path =
      fixture("xxe.xml", "<?xml version=\"1.0\"?>\n"
                         "<!DOCTYPE fabric [ <!ENTITY xxe SYSTEM "
                         "\"file:///etc/passwd\"> ]>\n"
                         "<fabric xmlns=\"urn:fabriclint:design:1\">\n"
                         "  <node kind=\"ca\" name=\"&xxe;\"/>\n"
                         "</fabric>\n");
  for (int mode = FL_DX_LENIENT; mode <= FL_DX_RELAXNG; mode++) {
    fl_error err;
    assert_int_equal(load(path, mode, NULL, &err), FL_EPARSE);
    assert_int_equal(err.line, 2);
    assert_null(strstr(err.message, "root:"));
  }
  /* an undeclared entity reference is not well-formed */
  path = fixture("ent.xml", HEAD "  <node kind=\"ca\" name=\"&xxe;\"/>\n"
                                 "</fabric>\n");
  fl_error err;
  assert_int_equal(load(path, FL_DX_BUILTIN, NULL, &err), FL_EPARSE);
  assert_int_equal(err.line, 2);
}

/* ---- lenient mode (opts->no_schema) ------------------------------------ */

static void test_lenient(void **state) {
  (void)state;
  const char *path = fixture(
      "lenient.xml",
      HEAD "  <node kind=\"ca\" name=\"a\" colour=\"red\">note</node>\n"
           "  <extension xmlns=\"urn:example\"><node kind=\"x\"/></extension>\n"
           "  <node kind=\"switch\" name=\"s\"/>\n"
           "  <link a=\"a\" a-port=\"1\" b=\"s\" b-port=\"1\"/>\n"
           "</fabric>\n");
  fl_fabric *f;
  fl_error err;
  assert_int_equal(load(path, FL_DX_BUILTIN, NULL, &err), FL_EPARSE);
  assert_int_equal(load(path, FL_DX_LENIENT, &f, &err), FL_OK);
  assert_int_equal(fl_fabric_node_count(f), 2);
  assert_int_equal(fl_fabric_link_count(f), 1);
  fl_fabric_free(f);
  /* via the public options */
  fl_load_options o;
  memset(&o, 0, sizeof o);
  o.no_schema = 1;
  f = fl_fabric_new();
  assert_int_equal(fl_fabric_load(f, path, FL_FMT_DESIGN_XML, &o, &err), FL_OK);
  fl_fabric_free(f);
}

/* ---- round trip ---------------------------------------------------------- */

static char *slurp(const char *path) {
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
  return buf;
}

static const char *write_to(const fl_fabric *f, const char *name) {
  static char path[2][512];
  static int slot;
  char *p = path[slot++ % 2];
  snprintf(p, 512, "%s/%s", tmpdir, name);
  FILE *out = fopen(p, "wb");
  fl_error err;
  assert_non_null(out);
  assert_int_equal(fl_write_design_xml(f, out, &err), FL_OK);
  assert_int_equal(fclose(out), 0);
  return p;
}

static void test_round_trip(void **state) {
  (void)state;
  fl_fabric *f1, *f2;
  fl_error err;
  char buf[2200];
  assert_int_equal(load(fixture("rt.xml", SMALL), FL_DX_BUILTIN, &f1, &err),
                   FL_OK);
  const char *out1 = write_to(f1, "rt1.xml");
  /* the writer's output passes the reference schema */
  int rc = load(out1, FL_DX_RELAXNG, &f2, &err);
  if (rc != FL_OK)
    fail_msg("%s", fl_error_format(&err, buf, sizeof buf));
  check_small(f2);
  assert_int_equal(fl_fabric_port_count(f2), fl_fabric_port_count(f1));
  /* every attribute of every element survives */
  for (fl_id n = 0; n < fl_fabric_node_count(f1); n++) {
    fl_id m = fl_fabric_find_node_name(f2, fl_fabric_node_name(f1, n));
    assert_int_not_equal(m, FL_NONE);
    assert_int_equal(fl_fabric_attr_count(f1, FL_ENT_NODE, n),
                     fl_fabric_attr_count(f2, FL_ENT_NODE, m));
    for (uint32_t i = 0; i < fl_fabric_attr_count(f1, FL_ENT_NODE, n); i++) {
      const char *k, *v;
      fl_fabric_attr_at(f1, FL_ENT_NODE, n, i, &k, &v);
      assert_string_equal(fl_fabric_attr(f2, FL_ENT_NODE, m, k), v);
    }
  }
  for (fl_id l = 0; l < fl_fabric_link_count(f1); l++)
    assert_int_equal(fl_fabric_attr_count(f1, FL_ENT_LINK, l),
                     fl_fabric_attr_count(f2, FL_ENT_LINK, l));
  /* deterministic and stable: writing the reloaded fabric gives the same
   * bytes */
  const char *out2 = write_to(f2, "rt2.xml");
  char *a = slurp(out1), *b = slurp(out2);
  assert_string_equal(a, b);
  free(a);
  free(b);
  fl_fabric_free(f1);
  fl_fabric_free(f2);
}

/* Names that need escaping, and repeated names, still load back. */
static void test_write_escaping(void **state) {
  (void)state;
  fl_fabric *f1, *f2;
  fl_error err;
  char buf[2200];
  const char *doc =
      HEAD "  <node kind=\"ca\" name=\"a &amp; &lt;b&gt; &quot;q&quot; "
           "t&#9;n&#10;\" desc=\"x&#13;y\"/>\n"
           "  <node kind=\"switch\" name=\"s\"><attr key=\"note\" "
           "value=\"&apos;&lt;&amp;\"/></node>\n"
           "  <link a=\"a &amp; &lt;b&gt; &quot;q&quot; t&#9;n&#10;\" "
           "a-port=\"1\" b=\"s\" b-port=\"1\"/>\n"
           "</fabric>\n";
  assert_int_equal(load(fixture("esc.xml", doc), FL_DX_BUILTIN, &f1, &err),
                   FL_OK);
  const char *out = write_to(f1, "esc1.xml");
  int rc = load(out, FL_DX_RELAXNG, &f2, &err);
  if (rc != FL_OK)
    fail_msg("%s", fl_error_format(&err, buf, sizeof buf));
  /* control characters in names become spaces in the model (its strings
   * are printable UTF-8: text, JSON and SARIF output) */
  fl_id n = fl_fabric_find_node_name(f2, "a & <b> \"q\" t n ");
  assert_int_not_equal(n, FL_NONE);
  assert_string_equal(fl_fabric_node_desc(f2, n), "x y");
  assert_string_equal(node_attr(f2, "s", "note"), "'<&");
  assert_int_equal(fl_fabric_link_count(f2), 1);
  fl_fabric_free(f1);
  fl_fabric_free(f2);
}

/* A generated fat tree (k=8) through writer, loader and reference schema. */
static void test_generated_fat_tree(void **state) {
  (void)state;
  char path[512];
  snprintf(path, sizeof path, "%s/ft8.xml", tmpdir);
  FILE *out = fopen(path, "wb");
  assert_non_null(out);
  const int k = 8, h = k / 2;
  fputs(HEAD, out);
  for (int p = 0; p < k; p++)
    for (int e = 0; e < h; e++) {
      fprintf(out,
              "  <node kind=\"switch\" name=\"leaf-%d-%d\" ports=\"%d\" "
              "tier=\"1\" su=\"%d\"/>\n",
              p, e, k, p);
      fprintf(out,
              "  <node kind=\"switch\" name=\"spine-%d-%d\" ports=\"%d\" "
              "tier=\"2\" su=\"%d\"/>\n",
              p, e, k, p);
      for (int j = 0; j < h; j++) {
        fprintf(out,
                "  <node kind=\"ca\" name=\"h-%d-%d-%d mlx5_0\" "
                "rail=\"%d\"/>\n",
                p, e, j, j);
        fprintf(out,
                "  <link a=\"leaf-%d-%d\" a-port=\"%d\" b=\"h-%d-%d-%d "
                "mlx5_0\" b-port=\"1\" width=\"4x\" speed=\"HDR\"/>\n",
                p, e, j + 1, p, e, j);
        fprintf(out,
                "  <link a=\"leaf-%d-%d\" a-port=\"%d\" b=\"spine-%d-%d\" "
                "b-port=\"%d\" width=\"4x\" speed=\"HDR\"/>\n",
                p, e, h + j + 1, p, j, e + 1);
      }
    }
  for (int c = 0; c < h * h; c++)
    fprintf(out, "  <node kind=\"switch\" name=\"core-%d\" tier=\"3\"/>\n", c);
  for (int p = 0; p < k; p++)
    for (int a = 0; a < h; a++)
      for (int j = 0; j < h; j++)
        fprintf(out,
                "  <link a=\"spine-%d-%d\" a-port=\"%d\" b=\"core-%d\" "
                "b-port=\"%d\"/>\n",
                p, a, h + j + 1, a * h + j, p + 1);
  fputs("</fabric>\n", out);
  fclose(out);
  fl_fabric *f;
  fl_error err;
  for (int mode = FL_DX_BUILTIN; mode <= FL_DX_RELAXNG; mode++) {
    assert_int_equal(load(path, mode, &f, &err), FL_OK);
    assert_int_equal(fl_fabric_count_kind(f, FL_NODE_CA), k * k * k / 4);
    assert_int_equal(fl_fabric_count_kind(f, FL_NODE_SWITCH), 5 * k * k / 4);
    assert_int_equal(fl_fabric_link_count(f), 3 * k * k * k / 4);
    assert_string_equal(node_attr(f, "h-3-2-1 mlx5_0", "rail"), "1");
    fl_fabric_free(f);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_small_design),
      cmocka_unit_test(test_detect_and_dispatch),
      cmocka_unit_test(test_columns_utf8),
      cmocka_unit_test(test_schema_violations),
      cmocka_unit_test(test_not_well_formed),
      cmocka_unit_test(test_duplicate_node),
      cmocka_unit_test(test_duplicate_port),
      cmocka_unit_test(test_unknown_node_in_link),
      cmocka_unit_test(test_ethernet_width),
      cmocka_unit_test(test_billion_laughs),
      cmocka_unit_test(test_external_entity),
      cmocka_unit_test(test_lenient),
      cmocka_unit_test(test_round_trip),
      cmocka_unit_test(test_write_escaping),
      cmocka_unit_test(test_generated_fat_tree),
  };
  return cmocka_run_group_tests(tests, setup_all, teardown_all);
}
