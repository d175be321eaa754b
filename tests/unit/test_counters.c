/* SPDX-License-Identifier: MIT */
/*
 * tests/unit/test_counters.c — port counters attached to the model
 * (core/model/counters.c) through the loaders (core/io/ctr_*.c): values,
 * deltas, flags, unmapped records, capture times.
 *
 * Real data: tests/data/counters/ (ibsim + perfquery/ibqueryerrors captures,
 * make.sh) and the OSC perfquery -x captures of tests/data/external.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "fabriclint/counters.h"
#include "fabriclint/fabric.h"
#include "fabriclint/load.h"
#include "model/counters.h"
#include "tmpdir.h"

static fl_fabric *load(const char *const *paths, size_t n, fl_error *err) {
  fl_fabric *f = fl_fabric_new();
  assert_non_null(f);
  memset(err, 0, sizeof *err);
  for (size_t i = 0; i < n; i++) {
    char p[4096];
    snprintf(p, sizeof p, "%s%s", paths[i][0] == '/' ? "" : FL_SOURCE_DIR "/",
             paths[i]);
    if (fl_fabric_load(f, p, FL_FMT_AUTO, NULL, err) != FL_OK) {
      fl_fabric_free(f);
      return NULL;
    }
  }
  if (fl_fabric_finalize(f, err) != FL_OK) {
    fl_fabric_free(f);
    return NULL;
  }
  return f;
}

static fl_id port_of(const fl_fabric *f, const char *node, uint32_t num) {
  fl_id n = fl_fabric_find_node_name(f, node);
  assert_int_not_equal(n, FL_NONE);
  fl_id p = fl_fabric_find_port(f, n, num);
  assert_int_not_equal(p, FL_NONE);
  return p;
}

static void two_perfquery_snapshots(void **state) {
  (void)state;
  static const char *const in[] = {"tests/data/counters/asbuilt.ibnetdiscover",
                                   "tests/data/counters/perfquery-2.txt",
                                   "tests/data/counters/perfquery-1.txt"};
  fl_error err;
  fl_fabric *f = load(in, 3, &err);
  if (!f)
    fail_msg("%s", err.message);
  assert_int_equal(fl_fabric_counter_snapshots(f), 2);
  assert_true(fl_fabric_counter_interval(f) > 1.0); /* 2 s sleep in make.sh */
  assert_int_equal(fl_fabric_counter_complete(f), 1);
  uint64_t v, d;
  /* the cable C-038 end with symbol errors: 17, then 57 */
  fl_id p = port_of(f, "leaf-p01-02", 6);
  assert_int_equal(fl_fabric_port_counter(f, p, FL_CTR_SYMBOL_ERRORS, &v, &d),
                   FL_CTRV_VALUE | FL_CTRV_DELTA);
  assert_int_equal(v, 57);
  assert_int_equal(d, 40);
  /* its other end counted nothing */
  fl_id q = port_of(f, "spine-p01-02", 2);
  assert_int_equal(fl_fabric_port_counter(f, q, FL_CTR_SYMBOL_ERRORS, &v, &d),
                   FL_CTRV_VALUE | FL_CTRV_DELTA);
  assert_int_equal(v, 0);
  p = port_of(f, "spine-p01-01", 8);
  fl_fabric_port_counter(f, p, FL_CTR_XMIT_WAIT, &v, &d);
  assert_int_equal(v, 523456);
  assert_int_equal(d, 400000);
  /* perfquery -x gives the 64-bit data counters, which grew */
  assert_true(fl_fabric_port_counter(f, p, FL_CTR_XMIT_DATA, &v, &d) &
              FL_CTRV_DELTA);
  assert_true(v > 0);
  uint64_t mask = fl_fabric_port_counter_mask(f, p);
  assert_true(mask & ((uint64_t)1 << FL_CTR_LINK_DOWNED));
  assert_true(mask & ((uint64_t)1 << FL_CTR_UNICAST_XMIT_PKTS));
  /* CAs were not queried */
  assert_int_equal(
      fl_fabric_port_counter_mask(f, port_of(f, "node0001 mlx5_0", 1)), 0);
  /* the reserved ports, uncabled in the simulation, are unmapped, with
   * their node: leaf-p01-08 port 8 and spine-p01-04 port 8 */
  assert_int_equal(fl_fabric_counter_unmapped_count(f), 2);
  const char *what, *file;
  uint32_t line, port;
  fl_id node;
  assert_int_equal(
      fl_fabric_counter_unmapped(f, 0, &what, &file, &line, &node, &port),
      FL_OK);
  assert_string_equal(fl_fabric_node_name(f, node), "leaf-p01-08");
  assert_int_equal(port, 8);
  assert_string_equal(what, "LID 11 port 8"); /* the dump: lid 11 */
  assert_non_null(strstr(file, "perfquery-2.txt"));
  assert_true(line > 0);
  assert_int_equal(
      fl_fabric_counter_unmapped(f, 2, NULL, NULL, NULL, NULL, NULL),
      FL_ENOTFOUND);
  fl_fabric_free(f);
}

static void exporter_and_osc_perfquery(void **state) {
  (void)state;
  static const char *const in[] = {
      FL_EXTERNAL_DIR "/treydock__infiniband_exporter__collectors__fixtures__"
                      "ibnetdiscover__test.out",
      FL_EXTERNAL_DIR "/treydock__infiniband_exporter__collectors__fixtures__"
                      "perfquery__0x7cfe9003009ce5b0.out",
      FL_EXTERNAL_DIR "/treydock__infiniband_exporter__collectors__fixtures__"
                      "perfquery__0x506b4b03005c2740.out"};
  fl_error err;
  fl_fabric *f = load(in, 3, &err);
  if (!f)
    fail_msg("%s", err.message);
  assert_int_equal(fl_fabric_counter_snapshots(f), 1);
  assert_true(fl_fabric_counter_interval(f) == 0);
  uint64_t v;
  fl_id p = port_of(f, "ib-i1l1s01", 1); /* the cable to ib-i1l2s01 */
  assert_int_equal(fl_fabric_port_counter(f, p, FL_CTR_XMIT_WAIT, &v, NULL),
                   FL_CTRV_VALUE);
  assert_int_equal(v, 22730501);
  fl_fabric_port_counter(f, p, FL_CTR_XMIT_DATA, &v, NULL);
  assert_int_equal(v, 36298026860928ull);
  fl_fabric_port_counter(f, p, FL_CTR_MULTICAST_RCV_PKTS, &v, NULL);
  assert_int_equal(v, 5584846741ull);
  /* port 2 of ib-i1l1s01 and port 1 of ib-i4l1s01: not in the -p dump */
  assert_int_equal(fl_fabric_counter_unmapped_count(f), 2);
  fl_fabric_free(f);
  /* the exporter's exposition of the same captures: the same values (that
   * release exported the data words unscaled) */
  const char *const in2[] = {in[0], FL_EXTERNAL_DIR
                             "/treydock__infiniband_exporter__collectors__"
                             "switch_test.go__TestSwitchCollector.prom"};
  f = load(in2, 2, &err);
  if (!f)
    fail_msg("%s", err.message);
  p = port_of(f, "ib-i1l1s01", 1);
  fl_fabric_port_counter(f, p, FL_CTR_XMIT_WAIT, &v, NULL);
  assert_int_equal(v, 22730501);
  fl_fabric_port_counter(f, p, FL_CTR_RCV_DATA, &v, NULL);
  assert_int_equal(v, 12279028775751ull);
  fl_fabric_free(f);
}

static void saturation_and_reset(void **state) {
  (void)state;
  const char *topo = "tests/data/counters/asbuilt.ibnetdiscover";
  /* LID 3 is leaf-p01-02 in the dump */
  const char *a = fixture("a.txt", "# captured 2024-05-01T12:00:00Z\n"
                                   "# Port counters: Lid 3 port 6\n"
                                   "LinkDownedCounter:...............9\n"
                                   "SymbolErrorCounter:..............65535\n");
  /* 13:00+01:00 is 12:00Z: a's snapshot; the same value merges */
  const char *same =
      fixture("same.txt", "# captured 2024-05-01T13:00:00+01:00\n"
                          "# Port counters: Lid 3 port 6\n"
                          "LinkDownedCounter:...............9\n");
  const char *other =
      fixture("other.txt", "# captured 2024-05-01T13:00:00+01:00\n"
                           "# Port counters: Lid 3 port 6\n"
                           "LinkDownedCounter:...............2\n");
  const char *later =
      fixture("later.txt", "# captured 2024-05-01 14:00:00 UTC +0000\n"
                           "# Port counters: Lid 3 port 6\n"
                           "LinkDownedCounter:...............2\n");
  fl_error err;
  uint64_t v, d;
  fl_fabric *f = load((const char *const[]){topo, a, same}, 3, &err);
  if (!f)
    fail_msg("%s", err.message);
  assert_int_equal(fl_fabric_counter_snapshots(f), 1);
  fl_id p = port_of(f, "leaf-p01-02", 6);
  assert_int_equal(fl_fabric_port_counter(f, p, FL_CTR_SYMBOL_ERRORS, &v, NULL),
                   FL_CTRV_VALUE | FL_CTRV_SATURATED);
  assert_int_equal(v, 65535);
  fl_fabric_free(f);
  /* two values for one counter of one port at one time: refused */
  assert_null(load((const char *const[]){topo, a, other}, 3, &err));
  assert_int_equal(err.code, FL_EPARSE);
  assert_non_null(strstr(err.message, "LinkDownedCounter is 2 here but 9"));
  /* 9 at 12:00, 2 at 14:00: cleared in between */
  f = load((const char *const[]){topo, later, a}, 3, &err);
  if (!f)
    fail_msg("%s", err.message);
  assert_int_equal(fl_fabric_counter_snapshots(f), 2);
  assert_true(fl_fabric_counter_interval(f) == 7200.0);
  p = port_of(f, "leaf-p01-02", 6);
  assert_int_equal(fl_fabric_port_counter(f, p, FL_CTR_LINK_DOWNED, &v, &d),
                   FL_CTRV_VALUE | FL_CTRV_DELTA | FL_CTRV_RESET);
  assert_int_equal(v, 2);
  assert_int_equal(d, 2);
  /* only in the earlier snapshot: no value now */
  assert_int_equal(fl_fabric_port_counter(f, p, FL_CTR_SYMBOL_ERRORS, &v, &d),
                   0);
  fl_fabric_free(f);
}

static void times_and_names(void **state) {
  (void)state;
  double t;
  const char *s = "2024-05-01T12:00:00Z";
  assert_int_equal(fl_ctr_parse_time(s, s + strlen(s), &t), 0);
  assert_true(t == 1714564800.0);
  s = "2022-08-25 17:45:38 UTC +0000";
  assert_int_equal(fl_ctr_parse_time(s, s + strlen(s), &t), 0);
  assert_true(t == 1661449538.0);
  s = "2024-05-01T14:30:00+02:30";
  assert_int_equal(fl_ctr_parse_time(s, s + strlen(s), &t), 0);
  assert_true(t == 1714564800.0);
  s = "@1714564800.5";
  assert_int_equal(fl_ctr_parse_time(s, s + strlen(s), &t), 0);
  assert_true(t == 1714564800.5);
  static const char *const bad[] = {"2024-13-01T00:00:00Z", "yesterday",
                                    "2024-05-01T12:00", "@-3",
                                    "2024-05-01T12:00:00 PST"};
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
    assert_int_equal(fl_ctr_parse_time(bad[i], bad[i] + strlen(bad[i]), &t),
                     -1);
  assert_int_equal(fl_counter_parse("PortXmitWait", 12), FL_CTR_XMIT_WAIT);
  assert_int_equal(fl_counter_parse("PortMultiCastXmitPkts", 21),
                   FL_CTR_MULTICAST_XMIT_PKTS);
  assert_int_equal(fl_counter_parse("PortXmitWai", 11), FL_CTR_COUNT);
  for (uint32_t i = 0; i < FL_CTR_COUNT; i++)
    assert_int_equal(
        fl_counter_parse(fl_counter_name(i), strlen(fl_counter_name(i))), i);
  assert_int_equal(fl_counter_max(FL_CTR_SYMBOL_ERRORS), 0xffff);
  assert_int_equal(fl_counter_max(FL_CTR_LOCAL_LINK_INTEGRITY), 0xf);
  assert_true(fl_counter_max(FL_CTR_UNICAST_XMIT_PKTS) == UINT64_MAX);
  assert_string_equal(fl_counter_name(FL_CTR_COUNT), "?");
}

/* ibdiagnet2.pm and exporter details (mutants l2-pm-ext, l2-pm-na,
 * l2-prom-rcv4, l2-prom-ts): in a .pm block the 64-bit _extended value wins
 * over the basic counter whichever comes first, and NA and N/A both leave a
 * counter out; the exporter's data octets are divided back into 4-octet
 * words, transmit and receive alike, and its capture time is the LATEST
 * sample timestamp (13:00 here: one hour after the perfquery snapshot). */
static void pm_and_prom_details(void **state) {
  (void)state;
  const char *topo = "tests/data/counters/asbuilt.ibnetdiscover";
  const char *pm = fixture(
      "x.pm", "# File created at   : 2024-05-01 12:00:00 UTC +0000\n"
              "\n"
              "Port=6 Lid=0x0003 GUID=0x0002c90301000002 Device=53000 Port "
              "Name=leaf-p01-02/P6\n"
              "port_xmit_data_extended=0x0000000100000000\n"
              "port_xmit_data=0x00000000ffffffff\n"
              "symbol_error_counter=N/A\n"
              "link_downed_counter=NA\n"
              "port_xmit_wait=0x10\n");
  fl_error err;
  uint64_t v;
  fl_fabric *f = load((const char *const[]){topo, pm}, 2, &err);
  if (!f)
    fail_msg("%s", err.message);
  fl_id p = port_of(f, "leaf-p01-02", 6);
  assert_int_equal(fl_fabric_port_counter(f, p, FL_CTR_XMIT_DATA, &v, NULL),
                   FL_CTRV_VALUE);
  assert_true(v == 0x100000000ull);
  assert_int_equal(fl_fabric_port_counter(f, p, FL_CTR_XMIT_WAIT, &v, NULL),
                   FL_CTRV_VALUE);
  assert_int_equal(v, 16);
  assert_int_equal(fl_fabric_port_counter(f, p, FL_CTR_SYMBOL_ERRORS, &v, NULL),
                   0);
  assert_int_equal(fl_fabric_port_counter(f, p, FL_CTR_LINK_DOWNED, &v, NULL),
                   0);
  fl_fabric_free(f);

  const char *a = fixture("pa.txt", "# captured 2024-05-01T12:00:00Z\n"
                                    "# Port counters: Lid 3 port 6\n"
                                    "LinkDownedCounter:...............9\n");
  const char *prom =
      fixture("x.prom",
              "infiniband_switch_port_transmit_data_bytes_total{guid="
              "\"0x0002c90301000002\",port=\"6\",switch=\"leaf-p01-02\"} 4000 "
              "1714568400000\n"
              "infiniband_switch_port_receive_data_bytes_total{guid="
              "\"0x0002c90301000002\",port=\"6\",switch=\"leaf-p01-02\"} 8000 "
              "1714564800000\n");
  f = load((const char *const[]){topo, a, prom}, 3, &err);
  if (!f)
    fail_msg("%s", err.message);
  assert_int_equal(fl_fabric_counter_snapshots(f), 2);
  assert_true(fl_fabric_counter_interval(f) == 3600.0);
  p = port_of(f, "leaf-p01-02", 6);
  assert_int_equal(fl_fabric_port_counter(f, p, FL_CTR_XMIT_DATA, &v, NULL),
                   FL_CTRV_VALUE);
  assert_int_equal(v, 1000);
  assert_int_equal(fl_fabric_port_counter(f, p, FL_CTR_RCV_DATA, &v, NULL),
                   FL_CTRV_VALUE);
  assert_int_equal(v, 2000);
  fl_fabric_free(f);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(two_perfquery_snapshots),
      cmocka_unit_test(exporter_and_osc_perfquery),
      cmocka_unit_test(saturation_and_reset),
      cmocka_unit_test(times_and_names),
      cmocka_unit_test(pm_and_prom_details),
  };
  return cmocka_run_group_tests(tests, setup_all, teardown_all);
}
