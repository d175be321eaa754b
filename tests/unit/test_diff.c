/* SPDX-License-Identifier: MIT */
/*
 * tests/unit/test_diff.c — the alias layer, the issue-#5 loaders on real
 * samples (ibdm .topo from ibutils, Junos LLDP XML from napalm, Cisco cable
 * plans from acitoolkit, lldpd XML captured by fabrics/regen-diff.sh) and on
 * malformed files, and the diff engine on small fabrics built in files.
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

#include "alias.h"
#include "diff.h"
#include "fabriclint/fabric.h"
#include "fabriclint/load.h"
#include "loaders.h"

#define SRC(name) FL_SOURCE_DIR "/" name

static fl_fabric *load_ok(const char *path) {
  fl_error err;
  fl_error_clear(&err);
  fl_fabric *f = fl_fabric_new();
  int rc = fl_fabric_load(f, path, FL_FMT_AUTO, NULL, &err);
  if (rc != FL_OK)
    fprintf(stderr, "%s: %s (line %u)\n", path, err.message, err.line);
  assert_int_equal(rc, FL_OK);
  assert_int_equal(fl_fabric_finalize(f, &err), FL_OK);
  return f;
}

static int load_err(const char *path, fl_error *err) {
  fl_error_clear(err);
  fl_fabric *f = fl_fabric_new();
  int rc = fl_fabric_load(f, path, FL_FMT_AUTO, NULL, err);
  fl_fabric_free(f);
  return rc;
}

static const char *port_label_of(const fl_fabric *f, const char *node,
                                 uint32_t i) {
  fl_id n = fl_fabric_find_node_name(f, node);
  assert_int_not_equal(n, FL_NONE);
  return fl_fabric_port_label(f, fl_fabric_node_first_port(f, n) + i);
}

/* ---- alias ------------------------------------------------------------ */

/* Labels and names longer than FL_ALIAS_MAX are canonicalised whole when
 * the output holds them (issue #32 case 2): two that differ only past byte
 * 255 stay two. */
static void test_alias_long(void **state) {
  (void)state;
  char in[600], a[600], b[600];
  memcpy(in, "Ethernet", 8);
  memset(in + 8, '7', 400);
  in[408] = '\0';
  size_t n = fl_alias_port(in, strlen(in), a, sizeof a);
  assert_int_equal(n, 400); /* "Ethernet" dropped, every digit kept */
  in[407] = '8';
  fl_alias_port(in, strlen(in), b, sizeof b);
  assert_string_not_equal(a, b);
  assert_int_equal(b[399], '8');
  /* the unit suffix and media prefix rules still apply at any length */
  memcpy(in, "ge-", 3);
  memset(in + 3, '1', 300);
  memcpy(in + 303, ".0", 3);
  assert_int_equal(fl_alias_port(in, strlen(in), a, sizeof a), 300);
  /* a cut output stays NUL-terminated */
  assert_int_equal(fl_alias_port(in, strlen(in), a, 10), 9);
  assert_int_equal(strlen(a), 9);
  /* node names: 306 bytes, differing in the last byte */
  memset(in, 'x', 305);
  in[305] = 'A';
  in[306] = '\0';
  assert_int_equal(fl_alias_node_full(in, 306, a, sizeof a), 306);
  in[305] = 'B';
  fl_alias_node_full(in, 306, b, sizeof b);
  assert_string_not_equal(a, b);
}

static void test_alias(void **state) {
  (void)state;
  char b[FL_ALIAS_MAX], c[FL_ALIAS_MAX];
  static const char *const same_port[][2] = {
      {"Ethernet1/1", "Eth1/1"},
      {"eth1/1", "1/1"},
      {"swp26", "26"},
      {"ge-0/0/0.0", "xe-0/0/0"},
      {"Ethernet1/1/2", "Eth1/1/2"},
      {"P12", "12"},
      {" Ethernet0 ", "Eth0"},
      {"Et1", "Ethernet1"},
      {"HundredGigE0/0/0/1", "0/0/0/1"},
      {"swp1s2", "1s2"},
  };
  for (size_t i = 0; i < sizeof same_port / sizeof *same_port; i++) {
    fl_alias_port(same_port[i][0], strlen(same_port[i][0]), b, sizeof b);
    fl_alias_port(same_port[i][1], strlen(same_port[i][1]), c, sizeof c);
    assert_string_equal(b, c);
  }
  fl_alias_port("eth0", 4, b, sizeof b);
  fl_alias_port("eth1", 4, c, sizeof c);
  assert_string_not_equal(b, c);
  fl_alias_port("ens1f0", 6, b, sizeof b);
  assert_string_equal(b, "ens1f0");
  assert_int_equal(fl_alias_port_alt("5", b, sizeof b), 3);
  assert_string_equal(b, "1/5");
  assert_int_equal(fl_alias_port_alt("1/5", b, sizeof b), 1);
  assert_string_equal(b, "5");
  assert_int_equal(fl_alias_port_alt("2/5", b, sizeof b), 0);
  fl_alias_node("Leaf-01.pod1.Example.NET", 24, b, sizeof b);
  assert_string_equal(b, "leaf-01");
  fl_alias_node("  dgx-001.cluster   mlx5_0 ", 26, b, sizeof b);
  assert_string_equal(b, "dgx-001 mlx5_0");
  fl_alias_node("10.1.2.3", 8, b, sizeof b);
  assert_string_equal(b, "10.1.2.3");
  assert_true(fl_alias_is_mac("8a:62:79:29:c3:0a", 17));
  assert_true(fl_alias_is_mac("001c.738f.0aed", 14));
  assert_false(fl_alias_is_mac("swp1", 4));
  /* LLDP PortID subtypes */
  assert_string_equal(fl_alias_lldp_port("mac", "8a:62:79:29:c3:0a", "eth0"),
                      "eth0");
  assert_string_equal(fl_alias_lldp_port("ifname", "swp5", "to host"), "swp5");
  assert_string_equal(fl_alias_lldp_port("Locally assigned", "549", "ge-3/3/1"),
                      "ge-3/3/1");
  assert_string_equal(fl_alias_lldp_port("Interface name", NULL, "xe-0/0/0"),
                      "xe-0/0/0");
  assert_string_equal(fl_alias_lldp_port(NULL, "27", "Interface 27"), "27");
  assert_null(fl_alias_lldp_port(NULL, NULL, NULL));
}

/* ---- loaders on real samples ------------------------------------------ */

static void test_topo_samples(void **state) {
  (void)state;
  fl_fabric *f = load_ok(EXT("nmorey__ibutils__ibdiag__demo__network.topo"));
  assert_int_equal(fl_fabric_count_kind(f, FL_NODE_SWITCH), 17);
  assert_int_equal(fl_fabric_count_kind(f, FL_NODE_CA), 128);
  assert_int_equal(fl_fabric_link_count(f), 256);
  /* "-4x-5G->": 4x DDR, listed from both ends and merged */
  for (fl_id l = 0; l < fl_fabric_link_count(f); l++) {
    assert_int_equal(fl_fabric_link_width(f, l), 4);
    assert_int_equal(fl_fabric_link_speed(f, l), FL_SPEED_DDR);
    assert_true(fl_fabric_link_flags(f, l) & FL_LINK_DECLARED);
  }
  fl_id sw = fl_fabric_find_node_name(f, "SL1-1");
  assert_int_not_equal(sw, FL_NONE);
  assert_string_equal(fl_fabric_attr(f, FL_ENT_NODE, sw, "system-type"),
                      "MTS2400");
  assert_int_not_equal(fl_fabric_find_port(f, sw, 24), FL_NONE);
  assert_string_equal(fl_fabric_port_label(f, fl_fabric_find_port(f, sw, 24)),
                      "P24");
  fl_fabric_free(f);

  f = load_ok(EXT("nmorey__ibutils__ibdm__Clusters__Buffalo8.topo"));
  assert_int_equal(fl_fabric_count_kind(f, FL_NODE_SWITCH), 6);
  assert_int_equal(fl_fabric_count_kind(f, FL_NODE_CA), 14);
  assert_int_equal(fl_fabric_link_count(f), 30); /* 14 hosts + 16 leaf-spine */
  assert_int_equal(fl_fabric_link_width(f, 0), 0); /* plain "->" */
  fl_fabric_free(f);
  /* the ibnetdiscover files named .topo are still ibnetdiscover */
  fl_error err;
  assert_int_equal(
      fl_detect_format(EXT("jabl__ibtopotool__tests__3.topo"), &err),
      FL_FMT_IBNETDISCOVER);
}

static void test_topo_quirks(void **state) {
  (void)state;
  fl_fabric *f = load_ok(fixture(
      "ufm.topo",
      "# UFM style\nMQM9700 sw-ndr05\n   P61 -4x-50G-> MQM8700 sw-hdr01 P39\n"
      "\nHCA_mlx5_3 swx-04\n   mlx5_0/P1 -4x-50G-> MQM8700 sw-hdr01 P2\n"
      "   mlx5_1/P1 -2x-HDR-> MQM8700 sw-hdr01 P3\n"));
  fl_id ca = fl_fabric_find_node_name(f, "swx-04 mlx5_0");
  assert_int_not_equal(ca, FL_NONE);
  assert_int_equal(fl_fabric_node_kind(f, ca), FL_NODE_CA);
  assert_string_equal(fl_fabric_node_system(f, ca), "swx-04");
  assert_int_equal(fl_fabric_link_count(f), 3);
  assert_int_equal(fl_fabric_link_speed(f, 0), FL_SPEED_HDR);
  assert_int_equal(fl_fabric_link_width(f, 2), 2);
  fl_fabric_free(f);
  fl_error err;
  assert_int_equal(load_err(fixture("bad1.topo", "  P1 -> Foo b P1\n"), &err),
                   FL_EPARSE);
  assert_int_equal(err.line, 1);
  assert_non_null(strstr(err.message, "outside a system section"));
  assert_int_equal(
      load_err(fixture("bad2.topo", "Foo a\n  P1 -> Foo b P1\n  P2 -> Foo b\n"),
               &err),
      FL_EPARSE);
  assert_int_equal(err.line, 3);
  assert_int_equal(
      load_err(fixture("bad3.topo", "Foo a\n  P1 -7x-> Foo b P1\n"), &err),
      FL_EPARSE);
  assert_int_equal(err.col, 6);
  assert_int_equal(
      load_err(fixture("bad4.topo", "Foo a\n  P1 -> Bar a P1\n"), &err),
      FL_EPARSE);
  assert_non_null(strstr(err.message, "is of type"));
}

static void test_junos_samples(void **state) {
  (void)state;
  const char *normal =
      EXT("napalm-automation__napalm__test__junos__mocked_data__test_get_lldp_"
          "neighbors__normal__get-lldp-neighbors-information.xml");
  fl_error err;
  assert_int_equal(fl_detect_format(normal, &err), FL_FMT_JUNOS_XML);
  fl_fabric *f = load_ok(normal);
  assert_int_equal(fl_fabric_link_count(f), 4);
  /* the local device is named by the file; unit suffixes dropped in matching */
  fl_id me =
      fl_fabric_find_node_name(f, "napalm-automation__napalm__test__junos__"
                                  "mocked_data__test_get_lldp_neighbors__"
                                  "normal__get-lldp-neighbors-information");
  assert_int_not_equal(me, FL_NONE);
  assert_string_equal(port_label_of(f, "peer00.lab.demo", 0), "Ethernet1");
  assert_string_equal(port_label_of(f, "lom-bjg61-r1-1", 0), "27");
  fl_fabric_free(f);
  /* old release: no remote port id, the description names it */
  f = load_ok(
      EXT("napalm-automation__napalm__test__junos__mocked_data__test_get_"
          "lldp_neighbors__old_without_remote_port_id__get-lldp-"
          "neighbors-information.xml"));
  assert_int_equal(fl_fabric_link_count(f), 4);
  assert_string_equal(port_label_of(f, "rtr00.demo", 0),
                      "GigabitEthernet0/0/0/0");
  fl_fabric_free(f);
  /* detail: local port id is an SNMP index, the interface name wins;
   * remote "Locally assigned" 549 -> description ge-3/3/1 */
  f = load_ok(
      EXT("napalm-automation__napalm__test__junos__mocked_data__test_get_"
          "lldp_neighbors_detail__ex9208_qfx10008__get-lldp-interface-"
          "neighbors.xml"));
  assert_string_equal(port_label_of(f, "EX9208", 0), "ge-3/3/1");
  fl_id p = fl_fabric_link_port(f, 0, 0);
  assert_string_equal(fl_fabric_port_label(f, p), "ge-2/0/0");
  fl_fabric_free(f);
  /* LAG member */
  f = load_ok(
      EXT("napalm-automation__napalm__test__junos__mocked_data__test_get_"
          "lldp_neighbors_detail__normal_ex_fx_srx__get-lldp-interface-"
          "neighbors-information.xml"));
  p = fl_fabric_link_port(f, 0, 0);
  assert_string_equal(fl_fabric_attr(f, FL_ENT_PORT, p, "lag"), "ae0.0");
  fl_fabric_free(f);
  assert_int_equal(
      load_err(fixture("r.xml", "<rpc-reply><lldp-neighbors-information>"
                                "<lldp-neighbor-information><lldp-local-"
                                "port-id>xe-0/0/1</lldp-local-port-id>"
                                "</lldp-neighbor-information></lldp-"
                                "neighbors-information></rpc-reply>\n"),
               &err),
      FL_EPARSE);
  assert_non_null(strstr(err.message, "neither <lldp-remote-system-name>"));
}

static void test_cisco_samples(void **state) {
  (void)state;
  fl_fabric *f = load_ok(
      EXT("datacenter__acitoolkit__applications__cableplan__cable_plan.xml"));
  assert_int_equal(fl_fabric_count_kind(f, FL_NODE_SWITCH), 5);
  assert_int_equal(fl_fabric_link_count(f), 6);
  assert_int_equal(fl_fabric_link_flags(f, 0) & FL_LINK_DECLARED,
                   FL_LINK_DECLARED);
  fl_fabric_free(f);
  f = load_ok(
      EXT("datacenter__acitoolkit__applications__cableplan__cable_plan2.xml"));
  int constraints = 0;
  for (fl_id l = 0; l < fl_fabric_link_count(f); l++)
    if (fl_fabric_attr(f, FL_ENT_LINK, l, "plan-min")) {
      constraints++;
      const char *mx = fl_fabric_attr(f, FL_ENT_LINK, l, "plan-max");
      if (mx) {
        assert_string_equal(mx, "10");
        assert_string_equal(fl_fabric_attr(f, FL_ENT_LINK, l, "plan-a-ports"),
                            "Eth1/3");
      } else {
        assert_string_equal(fl_fabric_attr(f, FL_ENT_LINK, l, "plan-min"), "2");
      }
    }
  assert_int_equal(constraints, 2);
  fl_fabric_free(f);
  char out[512];
  assert_int_equal(
      fl_plan_ports_expand("eth1/1-eth1/3, Eth1/20", out, sizeof out), 4);
  assert_string_equal(out, "1/1");
  assert_string_equal(out + 4, "1/2");
  assert_int_equal(fl_plan_ports_expand("eth1/5-7", out, sizeof out), 3);
  assert_int_equal(fl_plan_ports_expand("eth1/5-eth1/2", out, sizeof out), -1);
  assert_int_equal(fl_plan_ports_expand(" , ", out, sizeof out), -1);
  fl_error err;
  assert_int_equal(
      load_err(fixture("c.xml", "<CISCO_NETWORK_TYPES><DATA_CENTER>\n"
                                "<CHASSIS_INFO sourceChassis='a'>\n"
                                "<LINK_INFO destChassis='b' minPorts='x'/>\n"
                                "</CHASSIS_INFO></DATA_CENTER>"
                                "</CISCO_NETWORK_TYPES>\n"),
               &err),
      FL_EPARSE);
  assert_int_equal(err.line, 3);
  assert_non_null(strstr(err.message, "minPorts='x'"));
}

static void test_lldpd_capture(void **state) {
  (void)state;
  /* captured by fabrics/regen-diff.sh: one file per device, merged */
  fl_fabric *f = load_ok(SRC("fabrics/diff/lldp"));
  assert_int_equal(fl_fabric_link_count(f), 24);
  assert_int_equal(fl_fabric_count_kind(f, FL_NODE_CA), 8);
  for (fl_id l = 0; l < fl_fabric_link_count(f); l++)
    assert_int_equal(fl_fabric_link_flags(f, l) & 3,
                     3); /* seen from both ends */
  /* a host's port id is its MAC: the description gives eth0/eth1 */
  fl_id h = fl_fabric_find_node_name(f, "host-01");
  assert_int_not_equal(h, FL_NONE);
  assert_string_equal(fl_fabric_port_label(f, fl_fabric_node_first_port(f, h)),
                      "eth0");
  fl_fabric_free(f);
  /* one file alone: its cables are one-sided */
  f = load_ok(SRC("fabrics/diff/lldp/SPINE-01.xml"));
  assert_int_equal(fl_fabric_link_count(f), 4);
  assert_int_equal(fl_fabric_link_flags(f, 0) & 3, FL_LINK_SEEN_A);
  fl_fabric_free(f);
  fl_error err;
  assert_int_equal(
      load_err(fixture("sw.xml", "<lldp label=\"Interfaces\"/>\n"), &err),
      FL_EPARSE);
  assert_non_null(strstr(err.message, "show interfaces"));
  assert_int_equal(
      load_err(fixture("sw2.xml", "<lldp label=\"LLDP neighbors\">\n"
                                  " <interface name=\"swp1\">\n"
                                  "  <chassis><name>x</name></chassis>\n"
                                  " </interface>\n</lldp>\n"),
               &err),
      FL_EPARSE);
  assert_int_equal(err.line, 2);
  assert_non_null(strstr(err.message, "neither <port><id>"));
}

/* ---- the diff engine ---------------------------------------------------- */

static int count_rule(const fl_findings *fs, const char *rule) {
  int n = 0;
  for (size_t i = 0; i < fs->n; i++)
    n += strcmp(fs->v[i].rule, rule) == 0;
  return n;
}

#define DX_HEAD    "<fabric xmlns=\"urn:fabriclint:design:1\" version=\"1\">\n"
#define NODE(n, k) "<node kind=\"" k "\" name=\"" n "\"/>\n"

static void test_diff_engine(void **state) {
  (void)state;
  const char *plan = fixture(
      "plan.xml",
      DX_HEAD NODE("s1", "switch") NODE("s2", "switch") NODE("h1", "ca")
          NODE("h2", "ca") NODE(
              "h3", "ca") "<link a=\"h1\" a-port=\"1\" b=\"s1\" b-port=\"1\" "
                          "width=\"4x\" speed=\"HDR\" cable=\"C1\"/>\n"
                          "<link a=\"h2\" a-port=\"1\" b=\"s1\" b-port=\"2\" "
                          "width=\"4x\" speed=\"HDR\"/>\n"
                          "<link a=\"h3\" a-port=\"1\" b=\"s1\" b-port=\"3\" "
                          "width=\"4x\" speed=\"HDR\"/>\n"
                          "<link a=\"s1\" a-port=\"10\" b=\"s2\" b-port=\"10\" "
                          "width=\"4x\" speed=\"HDR\"/>\n"
                          "<link a=\"s1\" a-port=\"11\" b=\"s2\" b-port=\"11\" "
                          "width=\"4x\" speed=\"HDR\"/>\n"
                          "</fabric>\n");
  fl_fabric *d = load_ok(plan);
  char copy[512];
  snprintf(copy, sizeof copy, "%s", plan);
  /* built: h1/h2 crossed, s1:11 runs at 1x, a duplicate listing of s1:10,
   * an extra node, names in other case */
  fl_fabric *b = load_ok(fixture(
      "built.xml",
      DX_HEAD NODE("S1", "switch") NODE("S2", "switch") NODE("H1", "ca")
          NODE("H2", "ca") NODE("H3", "ca") NODE(
              "x9",
              "ca") "<link a=\"H1\" a-port=\"1\" b=\"S1\" b-port=\"2\"/>\n"
                    "<link a=\"H2\" a-port=\"1\" b=\"S1\" b-port=\"1\"/>\n"
                    "<link a=\"H3\" a-port=\"1\" b=\"S1\" b-port=\"3\" "
                    "width=\"4x\" speed=\"HDR\"/>\n"
                    "<link a=\"S1\" a-port=\"10\" b=\"S2\" b-port=\"10\"/>\n"
                    "<link a=\"S2\" a-port=\"10\" b=\"S1\" b-port=\"10\"/>\n"
                    "<link a=\"S1\" a-port=\"11\" b=\"S2\" b-port=\"11\" "
                    "width=\"1x\" speed=\"HDR\"/>\n"
                    "<link a=\"x9\" a-port=\"1\" b=\"S1\" b-port=\"20\"/>\n"
                    "</fabric>\n"));
  fl_findings fs = {0};
  fl_work_order wo = {0};
  fl_diff_stats st;
  fl_error err;
  assert_int_equal(fl_diff(d, b, NULL, &fs, &wo, &st, &err), FL_OK);
  assert_int_equal(count_rule(&fs, "diff.swapped"), 1);
  assert_int_equal(count_rule(&fs, "diff.different"), 1);
  assert_int_equal(count_rule(&fs, "diff.duplicate"), 1);
  assert_int_equal(count_rule(&fs, "diff.unexpected-node"), 1);
  assert_int_equal((int)fs.n, 4);
  assert_int_equal(st.nodes_by_name, 5);
  assert_int_equal(st.cables_ok, 3);
  /* the swap fix is at the two hosts (their ends share no node, the
   * switch ends do: s1 ports 1 and 2) */
  for (size_t i = 0; i < fs.n; i++)
    if (strcmp(fs.v[i].rule, "diff.swapped") == 0)
      assert_non_null(strstr(fs.v[i].message,
                             "swap the two cable ends at \"s1\" port 1 "
                             "and \"s1\" port 2"));
  size_t swaps = 0;
  for (size_t i = 0; i < wo.n; i++)
    swaps +=
        strcmp(wo.v[i].action, "swap") == 0 && strcmp(wo.v[i].cable, "C1") == 0;
  assert_int_equal(swaps, 1);
  fl_findings_free(&fs);
  fl_work_order_free(&wo);
  /* the same fabric against itself: nothing */
  assert_int_equal(fl_diff(d, d, NULL, &fs, NULL, &st, &err), FL_OK);
  assert_int_equal((int)fs.n, 0);
  fl_findings_free(&fs);
  fl_fabric_free(d);
  fl_fabric_free(b);
}

static void test_diff_guid(void **state) {
  (void)state;
  /* two dumps: GUID matches, a renamed node is "different"; with --no-guid
   * the renamed node is missing and unexpected instead */
  fl_fabric *d = load_ok(SRC("fabrics/rail-su.ibnetdiscover"));
  fl_fabric *b = load_ok(SRC("fabrics/rail-names.ibnetdiscover"));
  fl_findings fs = {0};
  fl_diff_stats st;
  fl_error err;
  fl_diff_opts o = {0};
  assert_int_equal(fl_diff(d, b, &o, &fs, NULL, &st, &err), FL_OK);
  assert_int_equal(count_rule(&fs, "diff.different"),
                   64); /* dgx-009..016 x 8 */
  assert_int_equal((int)fs.n, 64);
  fl_findings_free(&fs);
  o.no_guid = 1;
  assert_int_equal(fl_diff(d, b, &o, &fs, NULL, &st, &err), FL_OK);
  assert_int_equal(count_rule(&fs, "diff.missing-node"), 64);
  assert_int_equal(count_rule(&fs, "diff.unexpected-node"), 64);
  fl_findings_free(&fs);
  fl_fabric_free(d);
  fl_fabric_free(b);
}

int main(void) {
  const char *const samples[] = {
      EXT("nmorey__ibutils__ibdiag__demo__network.topo"),
      EXT("nmorey__ibutils__ibdm__Clusters__Buffalo8.topo"),
      EXT("jabl__ibtopotool__tests__3.topo"),
      EXT("napalm-automation__napalm__test__junos__mocked_data__test_get_lldp_"
          "neighbors__normal__get-lldp-neighbors-information.xml"),
      EXT("napalm-automation__napalm__test__junos__mocked_data__test_get_"
          "lldp_neighbors__old_without_remote_port_id__get-lldp-"
          "neighbors-information.xml"),
      EXT("napalm-automation__napalm__test__junos__mocked_data__test_get_"
          "lldp_neighbors_detail__ex9208_qfx10008__get-lldp-interface-"
          "neighbors.xml"),
      EXT("napalm-automation__napalm__test__junos__mocked_data__test_get_"
          "lldp_neighbors_detail__normal_ex_fx_srx__get-lldp-interface-"
          "neighbors-information.xml"),
      EXT("datacenter__acitoolkit__applications__cableplan__cable_plan.xml"),
      EXT("datacenter__acitoolkit__applications__cableplan__cable_plan2.xml"),
      NULL};
  int skip = need_external(samples);
  if (skip)
    return skip;
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_alias),
      cmocka_unit_test(test_alias_long),
      cmocka_unit_test(test_topo_samples),
      cmocka_unit_test(test_topo_quirks),
      cmocka_unit_test(test_junos_samples),
      cmocka_unit_test(test_cisco_samples),
      cmocka_unit_test(test_lldpd_capture),
      cmocka_unit_test(test_diff_engine),
      cmocka_unit_test(test_diff_guid),
  };
  return cmocka_run_group_tests(tests, setup_all, teardown_all);
}
