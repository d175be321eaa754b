/* SPDX-License-Identifier: MIT */
/*
 * tests/unit/test_util_csv.c — core/util/csv.c, the RFC 4180 record reader
 * (issue 29): cells with their line:column, quotes doubled, separators and
 * line breaks inside quotes (a quoted newline continues the record and the
 * lines count on), CRLF, a byte order mark, the ';' separator, an empty
 * line, an unterminated quote and the cell limit exactly at and one past;
 * the flags of the formats that trim blanks and drop or refuse text after
 * a closing quote; a reader restarted line by line.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "util/csv.h"

/* Cell @i of @r is @text at @line:@col. */
static void cell_is(const fl_csv *r, size_t i, const char *text, uint32_t line,
                    uint32_t col) {
  assert_true(i < r->n);
  assert_string_equal(fl_csv_cell_text(r, i), text);
  assert_int_equal(r->c[i].len, strlen(text));
  assert_int_equal(r->c[i].line, line);
  assert_int_equal(r->c[i].col, col);
}

static void open_text(fl_csv *r, const char *s, char sep, size_t max) {
  fl_csv_init(r, sep, max, FL_CSV_BOM);
  fl_csv_start(r, s, strlen(s));
}

static void open_flags(fl_csv *r, const char *s, unsigned flags) {
  fl_csv_init(r, ',', 64, flags);
  fl_csv_start(r, s, strlen(s));
}

static void test_records(void **st) {
  (void)st;
  fl_csv r;
  open_text(&r, "a,b,c\nleaf-1,Eth1/1,\n", ',', 16);
  assert_int_equal(fl_csv_next(&r), 1);
  assert_int_equal(r.n, 3);
  assert_int_equal(r.line, 1);
  cell_is(&r, 0, "a", 1, 1);
  cell_is(&r, 1, "b", 1, 3);
  cell_is(&r, 2, "c", 1, 5);
  assert_null(fl_csv_cell_text(&r, 3));
  assert_int_equal(fl_csv_next(&r), 1);
  assert_int_equal(r.n, 3);
  assert_int_equal(r.line, 2);
  cell_is(&r, 0, "leaf-1", 2, 1);
  cell_is(&r, 1, "Eth1/1", 2, 8);
  cell_is(&r, 2, "", 2, 15);
  assert_int_equal(fl_csv_next(&r), 0);
  assert_int_equal(fl_csv_next(&r), 0);
  fl_csv_free(&r);
}

static void test_quotes(void **st) {
  (void)st;
  fl_csv r;
  /* a comma and a doubled quote inside quotes; text after the closing
   * quote kept; blanks kept */
  open_text(&r, "\"a,b\",\"say \"\"hi\"\"\", \"x\"y ,\"\"\n", ',', 16);
  assert_int_equal(fl_csv_next(&r), 1);
  assert_int_equal(r.n, 4);
  cell_is(&r, 0, "a,b", 1, 1);
  assert_int_equal(r.c[0].quoted, 1);
  cell_is(&r, 1, "say \"hi\"", 1, 7);
  cell_is(&r, 2, " \"x\"y ", 1, 20); /* starts with a blank: not quoted */
  assert_int_equal(r.c[2].quoted, 0);
  cell_is(&r, 3, "", 1, 27);
  assert_int_equal(r.c[3].quoted, 1);
  fl_csv_free(&r);
  open_text(&r, "\"x\"y,z", ',', 16);
  assert_int_equal(fl_csv_next(&r), 1);
  cell_is(&r, 0, "xy", 1, 1);
  cell_is(&r, 1, "z", 1, 6);
  fl_csv_free(&r);
}

/* A quoted line break is text: the record goes on, and the next cell and
 * record are placed on the lines that follow. */
static void test_quoted_newline(void **st) {
  (void)st;
  fl_csv r;
  open_text(&r, "1,\"two\nlines\",3\n4,5\n", ',', 16);
  assert_int_equal(fl_csv_next(&r), 1);
  assert_int_equal(r.n, 3);
  assert_int_equal(r.line, 1);
  cell_is(&r, 1, "two\nlines", 1, 3);
  cell_is(&r, 2, "3", 2, 8);
  assert_int_equal(fl_csv_next(&r), 1);
  assert_int_equal(r.line, 3);
  cell_is(&r, 0, "4", 3, 1);
  cell_is(&r, 1, "5", 3, 3);
  assert_int_equal(fl_csv_next(&r), 0);
  fl_csv_free(&r);
}

static void test_crlf_bom_sep(void **st) {
  (void)st;
  fl_csv r;
  open_text(&r,
            "\xef\xbb\xbf"
            "a;b\r\n\r\nc;\"d\r\"\r\n",
            ';', 16);
  assert_int_equal(fl_csv_next(&r), 1);
  cell_is(&r, 0, "a", 1, 1);            /* columns count after the mark */
  cell_is(&r, 1, "b", 1, 3);            /* "\r" before "\n" dropped */
  assert_int_equal(fl_csv_next(&r), 1); /* an empty line: one empty cell */
  assert_int_equal(r.n, 1);
  cell_is(&r, 0, "", 2, 1);
  assert_int_equal(fl_csv_next(&r), 1);
  cell_is(&r, 0, "c", 3, 1);
  cell_is(&r, 1, "d\r", 3, 3); /* quoted "\r" is text; the one after, not */
  assert_int_equal(fl_csv_next(&r), 0);
  fl_csv_free(&r);
  open_text(&r, "a,b\r", ',', 16); /* "\r" at the end of the input */
  assert_int_equal(fl_csv_next(&r), 1);
  cell_is(&r, 1, "b", 1, 3);
  fl_csv_free(&r);
}

static void test_errors(void **st) {
  (void)st;
  fl_csv r;
  open_text(&r, "a,b\nc,\"open\nstill,open\n", ',', 16);
  assert_int_equal(fl_csv_next(&r), 1);
  assert_int_equal(fl_csv_next(&r), FL_CSV_EQUOTE);
  assert_int_equal(r.err_line, 2); /* where the quote opened */
  assert_int_equal(r.err_col, 3);
  fl_csv_free(&r);
  /* the limit: 3 cells with max 3 read, 4 refused where the 4th starts */
  open_text(&r, "a,b,c\na,b,c,d\n", ',', 3);
  assert_int_equal(fl_csv_next(&r), 1);
  assert_int_equal(r.n, 3);
  assert_int_equal(fl_csv_next(&r), FL_CSV_ECELLS);
  assert_int_equal(r.err_line, 2);
  assert_int_equal(r.err_col, 7);
  fl_csv_free(&r);
}

/* More cells than the first allocation (16), records reusing the reader's
 * buffers, and an input without a final newline. */
static void test_growth(void **st) {
  (void)st;
  char in[4096];
  size_t k = 0;
  for (int rec = 0; rec < 3; rec++) {
    for (int i = 0; i < 100; i++)
      k += (size_t)snprintf(in + k, sizeof in - k, "%s%d", i ? "," : "",
                            rec * 100 + i);
    if (rec < 2)
      in[k++] = '\n';
  }
  in[k] = '\0';
  fl_csv r;
  open_text(&r, in, ',', 100);
  for (int rec = 0; rec < 3; rec++) {
    assert_int_equal(fl_csv_next(&r), 1);
    assert_int_equal(r.n, 100);
    char want[16];
    snprintf(want, sizeof want, "%d", rec * 100 + 99);
    assert_string_equal(fl_csv_cell_text(&r, 99), want);
  }
  assert_int_equal(fl_csv_next(&r), 0);
  fl_csv_free(&r);
}

/* NDT: blanks trimmed, text after a closing quote dropped. */
static void test_trim_drop(void **st) {
  (void)st;
  fl_csv r;
  open_flags(&r, "  a  , \"b c\" x, \t\"d\"\r\n \r\n",
             FL_CSV_TRIM | FL_CSV_DROP_AFTER_QUOTE);
  assert_int_equal(fl_csv_next(&r), 1);
  assert_int_equal(r.n, 3);
  cell_is(&r, 0, "a", 1, 3);
  cell_is(&r, 1, "b c", 1, 8); /* a quote after blanks opens a quoted cell */
  assert_int_equal(r.c[1].quoted, 1);
  cell_is(&r, 2, "d", 1, 18);
  assert_int_equal(r.end_col, 21);      /* the "\r" is not counted */
  assert_int_equal(fl_csv_next(&r), 1); /* a blank line: one empty cell */
  assert_int_equal(r.n, 1);
  cell_is(&r, 0, "", 2, 2);
  assert_int_equal(r.c[0].quoted, 0);
  assert_int_equal(fl_csv_next(&r), 0);
  fl_csv_free(&r);
}

/* db_csv and annotations: text after a closing quote is an error where the
 * text starts; blanks and a line-ending "\r" there are not text. */
static void test_strict(void **st) {
  (void)st;
  fl_csv r;
  open_flags(&r, "\"a\"  ,\"b\" \r\n\"c\" d,e\n",
             FL_CSV_TRIM | FL_CSV_STRICT_QUOTE);
  assert_int_equal(fl_csv_next(&r), 1);
  cell_is(&r, 0, "a", 1, 1);
  cell_is(&r, 1, "b", 1, 7);
  assert_int_equal(fl_csv_next(&r), FL_CSV_EAFTER);
  assert_int_equal(r.err_line, 2);
  assert_int_equal(r.err_col, 5);
  fl_csv_free(&r);
  /* without STRICT the same text is kept (NetBox) */
  open_flags(&r, "\"c\" d,e", 0);
  assert_int_equal(fl_csv_next(&r), 1);
  cell_is(&r, 0, "c d", 1, 1);
  fl_csv_free(&r);
}

/* A loader that reads lines restarts the reader on each: line 1 each time,
 * buffers reused; no byte order mark skipped without FL_CSV_BOM. */
static void test_restart(void **st) {
  (void)st;
  fl_csv r;
  fl_csv_init(&r, ',', SIZE_MAX, FL_CSV_TRIM);
  assert_int_equal(fl_csv_next(&r), 0); /* no input yet */
  const char *lines[] = {"guid, enable", " 0x1 ,1", "\xef\xbb\xbfx"};
  for (int i = 0; i < 3; i++) {
    fl_csv_start(&r, lines[i], strlen(lines[i]));
    assert_int_equal(fl_csv_next(&r), 1);
    assert_int_equal(r.line, 1);
    if (i == 2)
      cell_is(&r, 0, "\xef\xbb\xbfx", 1, 1);
    assert_int_equal(fl_csv_next(&r), 0);
  }
  fl_csv_start(&r, lines[1], strlen(lines[1]));
  assert_int_equal(fl_csv_next(&r), 1);
  cell_is(&r, 0, "0x1", 1, 2);
  cell_is(&r, 1, "1", 1, 7);
  fl_csv_free(&r);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_records),
      cmocka_unit_test(test_quotes),
      cmocka_unit_test(test_quoted_newline),
      cmocka_unit_test(test_crlf_bom_sep),
      cmocka_unit_test(test_errors),
      cmocka_unit_test(test_growth),
      cmocka_unit_test(test_trim_drop),
      cmocka_unit_test(test_strict),
      cmocka_unit_test(test_restart),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
