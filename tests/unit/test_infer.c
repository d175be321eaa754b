/* SPDX-License-Identifier: MIT */
/*
 * tests/unit/test_infer.c — core/model/infer.c: fl_su_of_name(), the
 * su<N> the scalable-unit inference reads from a leaf's name
 * (docs/inference.md): where "su" may start, the optional separator, the
 * digits, and what is no SU number.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "fabriclint/infer.h"
#include "model/infer.h"

static void su_numbers(void **state) {
  (void)state;
  assert_int_equal(fl_su_of_name("leaf-su02-r3"), 2);
  assert_int_equal(fl_su_of_name("leaf-su12-r3"), 12);
  assert_int_equal(fl_su_of_name("su7-leaf01"), 7);     /* at the start */
  assert_int_equal(fl_su_of_name("SU-7-leaf"), 7);      /* any case, - */
  assert_int_equal(fl_su_of_name("leaf_su_003_r1"), 3); /* _ and zeros */
  assert_int_equal(fl_su_of_name("pod1.su4.leaf2"), 4); /* after a dot */
  assert_int_equal(fl_su_of_name("leaf-su1"), 1);       /* at the end */
}

static void not_su_numbers(void **state) {
  (void)state;
  assert_int_equal(fl_su_of_name(NULL), 0);
  assert_int_equal(fl_su_of_name(""), 0);
  assert_int_equal(fl_su_of_name("spine-01"), 0);
  assert_int_equal(fl_su_of_name("leafsu02"), 0);    /* after a letter */
  assert_int_equal(fl_su_of_name("leaf9su02"), 0);   /* after a digit */
  assert_int_equal(fl_su_of_name("result-sum5"), 0); /* no digit after su */
  assert_int_equal(fl_su_of_name("leaf-su0-r1"), 0); /* SU 0 is none */
  assert_int_equal(fl_su_of_name("leaf-su--2"), 0);  /* one separator */
  assert_int_equal(fl_su_of_name("leaf-su"), 0);
}

static void first_match_wins(void **state) {
  (void)state;
  assert_int_equal(fl_su_of_name("sum-su3-su4"), 3);
}

static void confidence_names(void **state) {
  (void)state;
  assert_string_equal(fl_confidence_name(FL_CONF_NONE), "none");
  assert_string_equal(fl_confidence_name(FL_CONF_LOW), "low");
  assert_string_equal(fl_confidence_name(FL_CONF_MEDIUM), "medium");
  assert_string_equal(fl_confidence_name(FL_CONF_HIGH), "high");
  assert_string_equal(fl_confidence_name(FL_CONF_GIVEN), "given");
  assert_string_equal(fl_confidence_name(5), "?");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(su_numbers),
      cmocka_unit_test(not_su_numbers),
      cmocka_unit_test(first_match_wins),
      cmocka_unit_test(confidence_names),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
