/* SPDX-License-Identifier: MIT */
/*
 * tests/unit/test_util_xml_escape.c — core/util/xml_escape.c, the one
 * entity table of the XML and HTML writers (issue 29): '&' and '<' always,
 * each other special only with its flag, and fl_xml_fputs() on runs of
 * plain text between specials.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "util/xml_escape.h"

static void test_entities(void **st) {
  (void)st;
  assert_string_equal(fl_xml_entity('&', 0), "&amp;");
  assert_string_equal(fl_xml_entity('<', 0), "&lt;");
  assert_null(fl_xml_entity('>', 0));
  assert_string_equal(fl_xml_entity('>', FL_XML_GT), "&gt;");
  assert_null(fl_xml_entity('"', FL_XML_GT));
  assert_string_equal(fl_xml_entity('"', FL_XML_TEXT), "&quot;");
  assert_null(fl_xml_entity('\'', FL_XML_TEXT));
  assert_string_equal(fl_xml_entity('\'', FL_XML_APOS), "&apos;");
  assert_string_equal(fl_xml_entity('\'', FL_XML_APOS_NUM), "&#39;");
  assert_null(fl_xml_entity('\n', FL_XML_TEXT));
  assert_string_equal(fl_xml_entity('\n', FL_XML_NL), "&#10;");
  assert_null(fl_xml_entity('\t', FL_XML_NL));
  assert_string_equal(fl_xml_entity('\t', FL_XML_TAB_CR), "&#9;");
  assert_string_equal(fl_xml_entity('\r', FL_XML_TAB_CR), "&#13;");
  assert_null(fl_xml_entity('a', ~0u));
  assert_null(fl_xml_entity(0xc3, ~0u)); /* UTF-8 bytes pass */
}

static void fputs_is(const char *in, unsigned flags, const char *want) {
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  assert_non_null(f);
  fl_xml_fputs(in, flags, f);
  assert_int_equal(fclose(f), 0);
  assert_string_equal(buf, want);
  free(buf);
}

static void test_fputs(void **st) {
  (void)st;
  fputs_is("", FL_XML_TEXT, "");
  fputs_is(NULL, FL_XML_TEXT, "");
  fputs_is("leaf-01 port 3", FL_XML_TEXT, "leaf-01 port 3");
  fputs_is("a<b & c>\"d\"", FL_XML_TEXT, "a&lt;b &amp; c&gt;&quot;d&quot;");
  fputs_is("<&>", FL_XML_TEXT, "&lt;&amp;&gt;");
  fputs_is("it's", FL_XML_TEXT | FL_XML_APOS_NUM, "it&#39;s");
  fputs_is("it's", FL_XML_TEXT, "it's");
  fputs_is("a\nb", FL_XML_NL, "a&#10;b");
  fputs_is("caf\xc3\xa9 <", 0, "caf\xc3\xa9 &lt;");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_entities),
      cmocka_unit_test(test_fputs),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
