/* SPDX-License-Identifier: MIT */
/*
 * tests/unit/test_design_edit.c — text edits of design XML <link> elements
 * (core/io/design_edit.c), the SARIF fixes: which attribute values change,
 * their exact regions (code-point columns), XML escaping, a new attribute
 * when the element has none, and refusal when the element at the position
 * does not join the cable's ends.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "design_edit.h"
#include "fabriclint/plugin.h"

static const char PLAN[] =
    "<fabric xmlns=\"urn:fabriclint:design:1\">\n"
    "  <link a=\"h1 mlx5_0\" a-port=\"1\" b=\"leaf-r1\" b-port=\"2\" "
    "speed=\"NDR\"/>\n"
    "  <link b='leaf-r0' b-port='7' a='h1 mlx5_1' a-port='1'/>\n"
    "  <link a=\"h&#233;t &amp; co\" a-port=\"1\" b=\"l&lt;0\" b-port=\"3\""
    " width=\"4x\" />\n"
    "  <link a=\"h\xc3\xa9\" a-port=\"1\" b=\"x\" b-port=\"1\"/>\n"
    "</fabric>\n";

typedef struct apply {
  fl_text_index t;
  fl_text_edit e[2];
  uint32_t n;
} apply;

static int edits(apply *a, uint32_t line, uint32_t col,
                 const fl_link_change *c) {
  assert_int_equal(fl_text_index_build(&a->t, PLAN, strlen(PLAN)), 0);
  a->n = 0;
  int rc = fl_design_link_edits(&a->t, line, col, c, a->e, &a->n);
  fl_text_index_free(&a->t);
  return rc;
}

static void done(apply *a) {
  for (uint32_t i = 0; i < a->n; i++)
    free(a->e[i].text);
}

static void check_edit(const fl_text_edit *e, uint32_t line, uint32_t col,
                       uint32_t end_col, const char *text) {
  assert_int_equal(e->line, line);
  assert_int_equal(e->end_line, line);
  assert_int_equal(e->col, col);
  assert_int_equal(e->end_col, end_col);
  assert_string_equal(e->text, text);
}

static void test_move_end_b(void **state) {
  (void)state;
  apply a;
  fl_link_change c = {
      FL_FIX_MOVE_END, {"h1 mlx5_0", "leaf-r1"}, {1, 2}, 1, "leaf-r0", 4, NULL};
  assert_int_equal(edits(&a, 2, 3, &c), 0);
  assert_int_equal(a.n, 2); /* b= and b-port= */
  check_edit(&a.e[0], 2, 37, 44, "leaf-r0");
  check_edit(&a.e[1], 2, 54, 55, "4");
  done(&a);
  /* same port number: only the node changes */
  c.to_port = 2;
  assert_int_equal(edits(&a, 2, 3, &c), 0);
  assert_int_equal(a.n, 1);
  check_edit(&a.e[0], 2, 37, 44, "leaf-r0");
  done(&a);
}

static void test_crossed_order_and_quotes(void **state) {
  (void)state;
  apply a;
  /* the model names end 0 = the leaf; the element writes b first, in '' */
  fl_link_change c = {
      FL_FIX_MOVE_END, {"leaf-r0", "h1 mlx5_1"}, {7, 1}, 0, "leaf-r1", 7, NULL};
  assert_int_equal(edits(&a, 3, 3, &c), 0);
  assert_int_equal(a.n, 1);
  check_edit(&a.e[0], 3, 12, 19, "leaf-r1");
  done(&a);
  /* a value with a quote of the element's quoting is escaped */
  c.to_node = "it's";
  assert_int_equal(edits(&a, 3, 3, &c), 0);
  check_edit(&a.e[0], 3, 12, 19, "it&apos;s");
  done(&a);
}

static void test_entities_and_code_points(void **state) {
  (void)state;
  apply a;
  /* names match after decoding &#233; &amp; &lt;; columns count code
   * points of the line as written (references are ASCII) */
  fl_link_change c = {
      FL_FIX_SET_SPEED, {"h\xc3\xa9t & co", "l<0"}, {1, 3}, 0, NULL, 0, "NDR"};
  assert_int_equal(edits(&a, 4, 3, &c), 0);
  assert_int_equal(a.n, 1); /* no speed attribute: one is added */
  check_edit(&a.e[0], 4, 74, 74, " speed=\"NDR\"");
  done(&a);
  c.kind = FL_FIX_SET_WIDTH;
  c.value = "4x"; /* already so: no edit */
  assert_int_equal(edits(&a, 4, 3, &c), 0);
  assert_int_equal(a.n, 0);
  c.value = "2x";
  assert_int_equal(edits(&a, 4, 3, &c), 0);
  check_edit(&a.e[0], 4, 71, 73, "2x");
  done(&a);
  c.to_node = NULL;
  c.kind = FL_FIX_MOVE_END;
  c.end = 1;
  c.to_node = "a&b";
  c.to_port = 3;
  assert_int_equal(edits(&a, 4, 3, &c), 0);
  check_edit(&a.e[0], 4, 45, 51, "a&amp;b");
  done(&a);
}

static void test_utf8_columns(void **state) {
  (void)state;
  apply a;
  /* "é" is two bytes and one code point: b's value starts at column 30 (31 in
   * bytes) */
  fl_link_change c = {
      FL_FIX_MOVE_END, {"h\xc3\xa9", "x"}, {1, 1}, 1, "y", 1, NULL};
  assert_int_equal(edits(&a, 5, 3, &c), 0);
  assert_int_equal(a.n, 1);
  check_edit(&a.e[0], 5, 30, 31, "y");
  done(&a);
}

static void test_refused(void **state) {
  (void)state;
  apply a;
  fl_link_change c = {
      FL_FIX_SET_SPEED, {"h1 mlx5_0", "leaf-r1"}, {1, 9}, 0, NULL, 0, "HDR"};
  /* the element joins port 2, not 9: another cable (or a changed file) */
  assert_int_equal(edits(&a, 2, 3, &c), -1);
  assert_int_equal(a.n, 0);
  c.port[1] = 2;
  assert_int_equal(edits(&a, 3, 3, &c), -1);  /* another link */
  assert_int_equal(edits(&a, 1, 1, &c), -1);  /* not a <link> */
  assert_int_equal(edits(&a, 99, 1, &c), -1); /* past the end */
  assert_int_equal(edits(&a, 2, 3, &c), 0);
  check_edit(&a.e[0], 2, 64, 67, "HDR");
  done(&a);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_move_end_b),
      cmocka_unit_test(test_crossed_order_and_quotes),
      cmocka_unit_test(test_entities_and_code_points),
      cmocka_unit_test(test_utf8_columns),
      cmocka_unit_test(test_refused),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
