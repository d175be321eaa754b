/* SPDX-License-Identifier: MIT */
/*
 * tests/unit/test_error.c — fl_error_set() and the control-character
 * escaper every message goes through (fl_escape_controls, issue 32 #5).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "fabriclint/error.h"

static void esc_is(const char *in, uint32_t size, const char *want) {
  char buf[256];
  assert_true(size <= sizeof buf);
  memset(buf, 'Z', sizeof buf);
  fl_escape_controls(buf, size, in);
  assert_string_equal(buf, want);
}

/* C0 controls and DEL as \xNN, C1 and bidi controls as \uNNNN, bad UTF-8
 * bytes as \xNN; printable ASCII and valid UTF-8 untouched. */
static void test_escape(void **st) {
  (void)st;
  esc_is("", 64, "");
  esc_is("leaf-01 Port 1/2", 64, "leaf-01 Port 1/2");
  esc_is("a\033]0;T\007b", 64, "a\\x1b]0;T\\x07b");
  esc_is("\033[2J\033[1;1H", 64, "\\x1b[2J\\x1b[1;1H");
  esc_is("tab\there\nnl\r", 64, "tab\\x09here\\x0anl\\x0d");
  esc_is("del\177", 64, "del\\x7f");
  esc_is("c1 \xc2\x9b"
         "31m",
         64, "c1 \\u009b31m"); /* U+009B CSI */
  esc_is("\xc2\x80\xc2\x9f\xc2\xa0", 64, "\\u0080\\u009f\xc2\xa0");
  esc_is("x\xe2\x80\xaey", 64, "x\\u202ey"); /* RIGHT-TO-LEFT OVERRIDE */
  esc_is("\xe2\x81\xa6\xe2\x81\xa9", 64, "\\u2066\\u2069");
  esc_is("\xe2\x80\xa9", 64, "\xe2\x80\xa9"); /* U+2029 is not an override */
  esc_is("caf\xc3\xa9 \xf0\x9f\x98\x80", 64, "caf\xc3\xa9 \xf0\x9f\x98\x80");
  esc_is("bad \xff\x9b end", 64, "bad \\xff\\x9b end");
  esc_is("cut \xe2\x80", 64, "cut \\xe2\\x80");  /* truncated sequence */
  esc_is("\xc0\xaf", 64, "\\xc0\\xaf");          /* overlong '/' */
  esc_is("\xed\xa0\x80", 64, "\\xed\\xa0\\x80"); /* surrogate */
  esc_is("back\\slash", 64, "back\\slash");      /* escaping twice: same */
  esc_is("a\\x1b", 64, "a\\x1b");
}

/* An escape that does not fit is left out whole: never half of one. */
static void test_escape_boundary(void **st) {
  (void)st;
  esc_is("ab\033", 7, "ab\\x1b"); /* 2 + 4 bytes + NUL: exactly fits */
  esc_is("ab\033", 6, "ab");      /* one byte short: left out */
  esc_is("abc", 4, "abc");
  esc_is("abc", 3, "ab");
  esc_is("\xc3\xa9\xc3\xa9", 4, "\xc3\xa9"); /* no half character */
  esc_is("\xc2\x9b", 7, "\\u009b");
  esc_is("\xc2\x9b", 6, "");
  esc_is("x", 1, "");
  char one = 'Z';
  fl_escape_controls(&one, 0, "x"); /* size 0: nothing written */
  assert_int_equal(one, 'Z');
  char b[8];
  fl_escape_controls(b, sizeof b, NULL);
  assert_string_equal(b, "");
}

/* fl_error_set() escapes the message and the file, and the form printed. */
static void test_error_set_escapes(void **st) {
  (void)st;
  fl_error err;
  fl_error_clear(&err);
  assert_int_equal(fl_error_set(&err, 3, "in\033put.dot", 2, 5,
                                "edge %s names no port", "ev\033]0;T\007il"),
                   3);
  assert_string_equal(err.file, "in\\x1bput.dot");
  assert_string_equal(err.message, "edge ev\\x1b]0;T\\x07il names no port");
  char buf[FL_ERROR_MSG_MAX + FL_ERROR_FILE_MAX + 64];
  assert_string_equal(fl_error_format(&err, buf, sizeof buf),
                      "in\\x1bput.dot:2:5: edge ev\\x1b]0;T\\x07il names no "
                      "port");
  /* the first error is kept */
  fl_error_set(&err, 4, "other", 0, 0, "second");
  assert_int_equal(err.code, 3);
  /* a message longer than the buffer: cut, NUL-terminated, no half escape */
  char big[2 * FL_ERROR_MSG_MAX];
  memset(big, '\033', sizeof big - 1);
  big[sizeof big - 1] = '\0';
  fl_error_clear(&err);
  fl_error_set(&err, 1, NULL, 0, 0, "%s", big);
  size_t n = strlen(err.message);
  assert_true(n < FL_ERROR_MSG_MAX);
  assert_int_equal(n % 4, 0);
  assert_string_equal(err.message + n - 4, "\\x1b");
  assert_null(strchr(err.message, '\033'));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_escape),
      cmocka_unit_test(test_escape_boundary),
      cmocka_unit_test(test_error_set_escapes),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
