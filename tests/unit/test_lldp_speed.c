/* SPDX-License-Identifier: MIT */
/*
 * tests/unit/test_lldp_speed.c — the negotiated link speed the lldpd loader
 * reads from `<auto-negotiation><current label="MAU oper type">` (core/io/
 * lldp_xml.c, fl_lldp_mau_speed()). The strings are lldpd's MAU type names
 * (the 802.3 dot3MauType list lldpd prints as "NAME - description"); the
 * 10GbaseT one is what lldpd really prints for a veth (fabrics/diff/lldp/).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "fabriclint/fabric.h"
#include "io/loaders.h"

static void known_rates(void **state) {
  (void)state;
  assert_int_equal(fl_lldp_mau_speed("10GbaseT - Four-pair Category 6A or "
                                     "better, full duplex mode only"),
                   FL_SPEED_ETH_10G);
  assert_int_equal(fl_lldp_mau_speed("100GbaseCR4 - 100GBASE-R PCS/PMA over 4 "
                                     "lane shielded copper balanced cable"),
                   FL_SPEED_ETH_100G);
  assert_int_equal(fl_lldp_mau_speed("400GbaseCR8"), FL_SPEED_ETH_400G);
  assert_int_equal(fl_lldp_mau_speed("200GbaseCR4"), FL_SPEED_ETH_200G);
  assert_int_equal(fl_lldp_mau_speed("25GbaseCR - 25GBASE-R PCS/PMA"),
                   FL_SPEED_ETH_25G);
  assert_int_equal(fl_lldp_mau_speed("40GbaseCR4"), FL_SPEED_ETH_40G);
  assert_int_equal(fl_lldp_mau_speed("1000BaseTFD - Four-pair Category 5 "
                                     "UTP, full duplex mode"),
                   FL_SPEED_ETH_1G);
}

static void unknown_rates(void **state) {
  (void)state;
  assert_int_equal(fl_lldp_mau_speed(NULL), FL_SPEED_UNKNOWN);
  assert_int_equal(fl_lldp_mau_speed(""), FL_SPEED_UNKNOWN);
  /* below 1G: the model has no code for it */
  assert_int_equal(fl_lldp_mau_speed("100BaseTXFD - 2 pair category 5 UTP"),
                   FL_SPEED_UNKNOWN);
  assert_int_equal(fl_lldp_mau_speed("10BaseT"), FL_SPEED_UNKNOWN);
  /* lldpd prints the bare number of a MAU type it has no name for */
  assert_int_equal(fl_lldp_mau_speed("77"), FL_SPEED_UNKNOWN);
  assert_int_equal(fl_lldp_mau_speed("unknown"), FL_SPEED_UNKNOWN);
  assert_int_equal(fl_lldp_mau_speed("3GbaseX"), FL_SPEED_UNKNOWN);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(known_rates),
      cmocka_unit_test(unknown_rates),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
