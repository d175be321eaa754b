/* SPDX-License-Identifier: MIT */
/*
 * tests/unit/test_formats.c — the input format registry (core/io/formats.h,
 * formats.def): every readable row's name and alias parse back to its code,
 * codes are unique, the topology role is the one load order relies on, and
 * a real sample of each format is detected as that format through the
 * registry's detectors (samples: fabrics/, tests/fixtures/, tests/data/, all
 * captured from the real tool or public; see their PROVENANCE.md files).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "fabriclint/load.h"
#include "io/formats.h"

static void names_and_codes(void **state) {
  (void)state;
  size_t readable = 0;
  for (size_t i = 0; i < fl_format_count(); i++) {
    const fl_format_def *d = fl_format_at(i);
    assert_non_null(d->name);
    if (!d->load) { /* recognised and refused: no code, not selectable */
      assert_int_equal(d->code, FL_FMT_AUTO);
      assert_non_null(d->detect);
      assert_int_equal(fl_format_parse(d->name), (uint32_t)-1);
      continue;
    }
    readable++;
    assert_int_not_equal(d->code, FL_FMT_AUTO);
    assert_non_null(d->looks_like);
    assert_ptr_equal(fl_format_find(d->code), d);
    assert_string_equal(fl_format_name(d->code), d->name);
    assert_int_equal(fl_format_parse(d->name), d->code);
    if (d->alias)
      assert_int_equal(fl_format_parse(d->alias), d->code);
    for (size_t k = 0; k < i; k++) {
      const fl_format_def *e = fl_format_at(k);
      if (e->load)
        assert_int_not_equal(e->code, d->code);
      assert_string_not_equal(e->name, d->name);
    }
  }
  /* FL_FMT_IBNETDISCOVER .. FL_FMT_IBDIAG_DIR */
  assert_int_equal(readable, 35);
  assert_null(fl_format_at(fl_format_count()));
  assert_null(fl_format_find(FL_FMT_AUTO));
  assert_string_equal(fl_format_name(FL_FMT_AUTO), "auto");
  assert_string_equal(fl_format_name(999), "auto");
  assert_int_equal(fl_format_parse("auto"), FL_FMT_AUTO);
  assert_int_equal(fl_format_parse("design"), FL_FMT_DESIGN_XML);
  assert_int_equal(fl_format_parse("ibsim"), FL_FMT_IBSIM_NET);
  assert_int_equal(fl_format_parse("nope"), (uint32_t)-1);
}

static void topology_role(void **state) {
  (void)state;
  static const uint32_t topo[] = {
      FL_FMT_IBNETDISCOVER,   FL_FMT_IBND_PORTS,      FL_FMT_DESIGN_XML,
      FL_FMT_IBSIM_NET,       FL_FMT_SUBNET_LST,      FL_FMT_TOPO_IBDM,
      FL_FMT_LLDPD_XML,       FL_FMT_JUNOS_XML,       FL_FMT_CISCO_PLAN,
      FL_FMT_SONIC_LAB_GRAPH, FL_FMT_SONIC_MINIGRAPH, FL_FMT_UFM_NDT,
      FL_FMT_IBLINKINFO};
  static const uint32_t state_[] = {FL_FMT_LFTS,       FL_FMT_FDBS,
                                    FL_FMT_SL2VL,      FL_FMT_PATH_SL,
                                    FL_FMT_SAQUERY_PR, FL_FMT_ANNOTATIONS,
                                    FL_FMT_AR,         FL_FMT_DBCSV,
                                    FL_FMT_PERFQUERY,  FL_FMT_IBQUERYERRORS,
                                    FL_FMT_IBDIAG_PM,  FL_FMT_PROM_IB};
  for (size_t i = 0; i < sizeof topo / sizeof *topo; i++)
    assert_true(fl_format_is_topology(topo[i]));
  for (size_t i = 0; i < sizeof state_ / sizeof *state_; i++)
    assert_false(fl_format_is_topology(state_[i]));
  assert_false(fl_format_is_topology(FL_FMT_AUTO));
}

static void detects_real_samples(void **state) {
  (void)state;
  static const struct {
    const char *path;
    uint32_t fmt;
  } S[] = {
      {"tests/data/cases/n01-ncpain-helix-a-ibsim/roles.csv",
       FL_FMT_ANNOTATIONS},
      {"tests/fixtures/ar/good.far", FL_FMT_AR},
      {"tests/data/cases/roce/cisco-plan.xml", FL_FMT_CISCO_PLAN},
      {"fabrics/diff/lldp-design.xml", FL_FMT_DESIGN_XML},
      {"tests/data/external/nmorey__ibutils__ibdm__Clusters__osm.fdbs",
       FL_FMT_FDBS},
      {"tests/data/cases/c04-nccl883-ar-on-zero-switches/ibdiagnet2.db_csv",
       FL_FMT_IBDIAG_DB},
      {"tests/data/external/nmorey__ibutils__ibdiag__demo__network.topo",
       FL_FMT_TOPO_IBDM},
      {"fabrics/rail-su-asbuilt.ibnetdiscover", FL_FMT_IBNETDISCOVER},
      {"fabrics/fat-tree-2tier.p.ibnetdiscover", FL_FMT_IBND_PORTS},
      {"fabrics/fat-tree-2tier.net", FL_FMT_IBSIM_NET},
      {"tests/data/external/"
       "napalm-automation__napalm__test__junos__mocked_data__test_get_lldp_"
       "neighbors__normal__get-lldp-neighbors-information.xml",
       FL_FMT_JUNOS_XML},
      {"tests/data/cases/c01-opaff6-ring-credit-loop/opensm-lfts.dump",
       FL_FMT_LFTS},
      {"fabrics/diff/lldp/SPINE-01.xml", FL_FMT_LLDPD_XML},
      {"tests/data/cases/c01-opaff6-ring-credit-loop/path-sl-all0.psl",
       FL_FMT_PATH_SL},
      {"tests/fixtures/routing-loaders/lash-qos/saquery-p.out",
       FL_FMT_SAQUERY_PR},
      {"tests/data/cases/c01-opaff6-ring-credit-loop/opensm-sl2vl.dump",
       FL_FMT_SL2VL},
      {"tests/data/cases/n06-ibdiagnet-lst-sdr-link/ibdiagnet2-nodesc.lst",
       FL_FMT_SUBNET_LST},
      {"tests/data/external/"
       "sonic-net__sonic-mgmt__ansible__files__lab_connection_graph.xml",
       FL_FMT_SONIC_LAB_GRAPH},
      {"tests/data/external/"
       "sonic-net__sonic-buildimage__src__sonic-config-engine__tests__simple-"
       "sample-graph.xml",
       FL_FMT_SONIC_MINIGRAPH},
      {"tests/data/external/"
       "Mellanox__ufm_sdk_3.0__plugins__UFM_NDT_Plugin__tests__other_ndts__"
       "ndt.csv",
       FL_FMT_UFM_NDT},
      {"tests/data/external/"
       "Mellanox__ufm_sdk_3.0__plugins__UFM_NDT_Plugin__tests__negative_flow_"
       "ndts__incorrect_columns.ndt",
       FL_FMT_UFM_NDT},
      {"fabrics/director/ndt/switch_to_host.ndt", FL_FMT_UFM_NDT},
      {"tests/fixtures/iblinkinfo/clean/iblinkinfo", FL_FMT_IBLINKINFO},
      {"tests/fixtures/iblinkinfo/clean/iblinkinfo-switches-only-l",
       FL_FMT_IBLINKINFO},
      {"tests/data/counters/perfquery-1.txt", FL_FMT_PERFQUERY},
      {"tests/data/external/treydock__infiniband_exporter__collectors__"
       "fixtures__perfquery__0x7cfe9003009ce5b0.out",
       FL_FMT_PERFQUERY},
      {"tests/data/counters/ibqueryerrors-1.txt", FL_FMT_IBQUERYERRORS},
      {"tests/data/counters/ibqueryerrors-details.txt", FL_FMT_IBQUERYERRORS},
      {"tests/data/counters/pm-2.pm", FL_FMT_IBDIAG_PM},
      {"tests/data/cases/c06-nccl820-gpu-nic-affinity/nccl-topo.xml",
       FL_FMT_NCCL_TOPO},
      {"tests/data/external/NVIDIA__nccl__src__test__ncv4__topo.xml",
       FL_FMT_NCCL_TOPO},
      {"tests/data/cases/c06-nccl820-gpu-nic-affinity/nvidia-smi-topo-m.txt",
       FL_FMT_NVSMI_TOPO},
      {"tests/data/external/"
       "luigifcruz__stelline__asus-esc8000a-e12__nvidia-smi-topo-m.txt",
       FL_FMT_NVSMI_TOPO},
      {"tests/data/external/treydock__infiniband_exporter__collectors__"
       "switch_test.go__TestSwitchCollector.prom",
       FL_FMT_PROM_IB},
      {"tests/data/external/dmulyalin__N2G__tests__Output__should_be_test_"
       "lldp_drawing_yed_data_dict.graphml",
       FL_FMT_GRAPHML},
      {"tests/data/formats/n2g-plan.graphml", FL_FMT_GRAPHML},
      {"tests/data/formats/netbox-3.2-export.csv", FL_FMT_NETBOX_CABLES},
      {"tests/data/formats/netbox-4-export.csv", FL_FMT_NETBOX_CABLES},
      {"tests/data/formats/netbox-import.csv", FL_FMT_NETBOX_CABLES},
      {"tests/data/formats/flexpod-plan.csv", FL_FMT_NETBOX_CABLES},
      {"tests/data/formats/pod-plan.dot", FL_FMT_DOT},
      {"tests/data/external/NetApp__harvest__cmd__collectors__cisco__plugins__"
       "lldp__testdata__lldp.json",
       FL_FMT_NXOS_LLDP},
      {"tests/data/external/NetApp__harvest__cmd__collectors__cisco__plugins__"
       "lldp__testdata__lldp2.json",
       FL_FMT_NXOS_LLDP},
      {"tests/data/formats/sa-tme-flexpod-9336-fx2-gg28-01.xml",
       FL_FMT_NXOS_LLDP},
  };
  char path[4096];
  for (size_t i = 0; i < sizeof S / sizeof *S; i++) {
    fl_error err;
    memset(&err, 0, sizeof err);
    snprintf(path, sizeof path, "%s/%s", FL_SOURCE_DIR, S[i].path);
    uint32_t got = fl_detect_format(path, &err);
    if (got != S[i].fmt)
      fail_msg("%s: detected %s, want %s (%s)", S[i].path, fl_format_name(got),
               fl_format_name(S[i].fmt), err.message);
  }
}

/* docs/formats/<name>.md exists for every readable format, and the index
 * page links it. */
static void every_format_has_a_page(void **state) {
  (void)state;
  char path[4096];
  snprintf(path, sizeof path, "%s/docs/formats/README.md", FL_SOURCE_DIR);
  FILE *f = fopen(path, "r");
  assert_non_null(f);
  static char index[1 << 16];
  size_t n = fread(index, 1, sizeof index - 1, f);
  index[n] = '\0';
  fclose(f);
  for (size_t i = 0; i < fl_format_count(); i++) {
    const fl_format_def *d = fl_format_at(i);
    if (!d->load)
      continue;
    snprintf(path, sizeof path, "%s/docs/formats/%s.md", FL_SOURCE_DIR,
             d->name);
    FILE *p = fopen(path, "r");
    if (!p)
      fail_msg("format %s has no page docs/formats/%s.md", d->name, d->name);
    fclose(p);
    char link[256];
    snprintf(link, sizeof link, "](%s.md)", d->name);
    if (!strstr(index, link))
      fail_msg("docs/formats/README.md does not link %s.md", d->name);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(names_and_codes),
      cmocka_unit_test(topology_role),
      cmocka_unit_test(detects_real_samples),
      cmocka_unit_test(every_format_has_a_page),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
