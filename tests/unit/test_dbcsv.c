/*
 * tests/unit/test_dbcsv.c — the ibdiagnet2.db_csv loader (core/dbcsv_load.c)
 * and its detection (core/load.c): AR_INFO rows become the `ar` and
 * `ar-sl-mask` switch attributes the adaptive-routing plugin reads.
 *
 * The fixtures in tests/fixtures/dbcsv/ are hand-written from the
 * documented layout (no real public db_csv exists and no tool here writes
 * one), for the switches of tests/fixtures/routing/fat-tree-2tier-ftree,
 * whose topology dump is loaded first.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "fabriclint/fabric.h"
#include "fabriclint/load.h"
#include "fabriclint/routing.h"

#define TOPO                                                                   \
  FL_SOURCE_DIR                                                                \
  "/tests/fixtures/routing/fat-tree-2tier-ftree/topology.ibnetdiscover"
#define DB(n) FL_SOURCE_DIR "/tests/fixtures/dbcsv/" n

static fl_fabric *load(const char *db, uint32_t fmt, int *rc, fl_error *err) {
  fl_fabric *f = fl_fabric_new();
  fl_error_clear(err);
  assert_int_equal(fl_fabric_load(f, TOPO, FL_FMT_AUTO, NULL, err), FL_OK);
  *rc = fl_fabric_load(f, db, fmt, NULL, err);
  if (*rc == FL_OK)
    assert_int_equal(fl_fabric_finalize(f, err), FL_OK);
  return f;
}

static const char *attr(const fl_fabric *f, const char *node, const char *k) {
  fl_id n = fl_fabric_find_node_name(f, node);
  assert_true(n != FL_NONE);
  return fl_fabric_attr(f, FL_ENT_NODE, n, k);
}

static void write_file(const char *path, const char *text) {
  FILE *fp = fopen(path, "wb");
  assert_non_null(fp);
  fputs(text, fp);
  fclose(fp);
}

static void test_detect(void **state) {
  (void)state;
  fl_error err;
  fl_error_clear(&err);
  assert_int_equal(fl_detect_format(DB("ar-on.db_csv"), &err), FL_FMT_DBCSV);
  assert_int_equal(fl_detect_format(DB("ar-leaf-off.db_csv"), &err),
                   FL_FMT_DBCSV);
  assert_string_equal(fl_format_name(FL_FMT_DBCSV), "ibdiagnet-db-csv");
  assert_int_equal(fl_format_parse("ibdiagnet-db-csv"), FL_FMT_DBCSV);
  assert_int_equal(fl_format_is_topology(FL_FMT_DBCSV), 0);
  /* the others still detect as before */
  assert_int_equal(fl_detect_format(TOPO, &err), FL_FMT_IBNETDISCOVER);
  assert_int_equal(
      fl_detect_format(FL_SOURCE_DIR "/tests/fixtures/ar/good.far", &err),
      FL_FMT_AR);
  char path[256];
  snprintf(path, sizeof path, "%s/tests/det-%d.txt", FL_BUILD_DIR,
           (int)getpid());
  /* START_ without its END (and no CSV header) is not a db_csv */
  write_file(path, "START_NODES\n\nnothing\n");
  fl_error_clear(&err);
  assert_int_equal(fl_detect_format(path, &err), FL_FMT_AUTO);
  /* CRLF and an END_ with blanks */
  write_file(path, "START_X\r\na,b\r\n1,2\r\n  END_X  \r\n");
  assert_int_equal(fl_detect_format(path, &err), FL_FMT_DBCSV);
  remove(path);
}

static void test_on(void **state) {
  (void)state;
  int rc;
  fl_error err;
  fl_fabric *f = load(DB("ar-on.db_csv"), FL_FMT_AUTO, &rc, &err);
  assert_int_equal(rc, FL_OK);
  const char *sw[] = {"leaf-p01-01", "leaf-p01-02",  "leaf-p01-03",
                      "leaf-p01-04", "spine-p01-01", "spine-p01-02"};
  for (size_t i = 0; i < 6; i++) {
    assert_string_equal(attr(f, sw[i], "ar"), "true");
    assert_string_equal(attr(f, sw[i], "ar-sl-mask"), "0xffff");
  }
  assert_null(attr(f, "node0003 mlx5_0", "ar"));
  /* no AR tables, no notes */
  assert_int_equal(fl_fabric_ar_count(f), 0);
  assert_int_equal(fl_fabric_note_count(f), 0);
  fl_fabric_free(f);
}

static void test_leaf_off(void **state) {
  (void)state;
  int rc;
  fl_error err;
  fl_fabric *f = load(DB("ar-leaf-off.db_csv"), FL_FMT_DBCSV, &rc, &err);
  if (rc != FL_OK)
    fail_msg("%s:%u:%u: %s", err.file, err.line, err.col, err.message);
  assert_string_equal(attr(f, "leaf-p01-01", "ar"), "true");
  assert_string_equal(attr(f, "leaf-p01-01", "ar-sl-mask"), "0xffff");
  assert_string_equal(attr(f, "leaf-p01-02", "ar"), "false");
  assert_string_equal(attr(f, "leaf-p01-03", "ar"), "true");
  assert_string_equal(attr(f, "leaf-p01-03", "ar-sl-mask"), "0x000f");
  assert_string_equal(attr(f, "leaf-p01-04", "ar"), "true");
  assert_null(attr(f, "leaf-p01-04", "ar-sl-mask")); /* by_sl_en 0 */
  assert_string_equal(attr(f, "spine-p01-01", "ar-sl-mask"), "0xffff");
  assert_null(attr(f, "spine-p01-02", "ar")); /* N/A */
  assert_null(attr(f, "spine-p01-02", "ar-sl-mask"));
  /* the unknown switch: one routing note at its row */
  assert_int_equal(fl_fabric_note_count(f), 1);
  const char *cat, *file, *msg;
  uint32_t line;
  assert_int_equal(fl_fabric_note(f, 0, &cat, &file, &line, &msg), FL_OK);
  assert_string_equal(cat, "routing");
  assert_non_null(strstr(file, "ar-leaf-off.db_csv"));
  assert_int_equal(line, 36);
  assert_non_null(
      strstr(msg, "AR_INFO row for switch GUID 0x0002c903010000ff skipped"));
  fl_fabric_free(f);
}

/* CRLF, comments inside and between sections, an empty section, a CA GUID
 * (not a switch: skipped with a note), enable under the name `e`. */
static void test_lenient(void **state) {
  (void)state;
  char path[256];
  snprintf(path, sizeof path, "%s/tests/len-%d.db_csv", FL_BUILD_DIR,
           (int)getpid());
  write_file(path, "# banner\r\n"
                   "START_EMPTY\r\n"
                   "END_EMPTY\r\n"
                   "\r\n"
                   "START_AR_INFO\r\n"
                   "NodeGUID,E,SL_Mask\r\n"
                   "# a comment\r\n"
                   "0x2c90301000002,0,0x00ff\r\n"
                   "0x0002C90302000006,1,0xffff\r\n"
                   "END_AR_INFO\r\n");
  int rc;
  fl_error err;
  fl_fabric *f = load(path, FL_FMT_AUTO, &rc, &err);
  if (rc != FL_OK)
    fail_msg("%s:%u:%u: %s", err.file, err.line, err.col, err.message);
  assert_string_equal(attr(f, "leaf-p01-02", "ar"), "false");
  assert_string_equal(attr(f, "leaf-p01-02", "ar-sl-mask"), "0x00ff");
  assert_null(attr(f, "node0003 mlx5_0", "ar"));
  assert_int_equal(fl_fabric_note_count(f), 1);
  fl_fabric_free(f);
  remove(path);
}

static void test_malformed(void **state) {
  (void)state;
  static const struct {
    const char *text;
    const char *want;
    uint32_t line, col;
  } cases[] = {
      {"# x\nEND_NODES\n", "END_NODES without START_NODES", 2, 1},
      {"START_A\nx,y\n1,2\nEND_B\n", "expected END_A", 4, 1},
      {"START_A\nx,y\n1,2\n", "START_A is never closed: expected END_A", 1, 1},
      {"START_A\nx,y\n1,2\nSTART_B\n", "expected END_A", 4, 1},
      {"START_A\nx,y\n1,2,3\nEND_A\n", "row has 3 fields, expected 2", 3, 5},
      {"START_A\nx,y,z\n1,2\nEND_A\n", "row has 2 fields, expected 3", 3, 4},
      {"START_A\nx,y\n\"ab,2\nEND_A\n", "unterminated quoted string", 3, 1},
      {"START_A\nx,y\n\"ab\" c,2\nEND_A\n", "expected `,` or the end", 3, 6},
      {"START_AR_INFO\nNodeGUID,e\n0x2c9030100000g,1\nEND_AR_INFO\n",
       "expected a node GUID", 3, 1},
      {"START_AR_INFO\nNodeGUID,e\n0x00002c90301000002,1\nEND_AR_INFO\n",
       "expected a node GUID", 3, 1},
      {"START_AR_INFO\nNodeGUID,e\n0x2c90301000002,2\nEND_AR_INFO\n",
       "expected the AR enable bit", 3, 17},
      {"START_AR_INFO\nNodeGUID,e,sl_mask\n0x2c90301000002,1,0x10000\n"
       "END_AR_INFO\n",
       "expected the AR SL mask", 3, 19},
      {"START_AR_INFO\ne,sl_mask\n1,2\nEND_AR_INFO\n", "with a NodeGUID column",
       2, 1},
      {"# only comments\n", "no START_<NAME>", 1, 0},
  };
  char path[256];
  snprintf(path, sizeof path, "%s/tests/bad-%d.db_csv", FL_BUILD_DIR,
           (int)getpid());
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    write_file(path, cases[i].text);
    fl_fabric *f = fl_fabric_new();
    fl_error err;
    fl_error_clear(&err);
    assert_int_equal(fl_fabric_load(f, TOPO, FL_FMT_AUTO, NULL, &err), FL_OK);
    int rc = fl_fabric_load(f, path, FL_FMT_DBCSV, NULL, &err);
    if (rc != FL_EPARSE || !strstr(err.message, cases[i].want) ||
        err.line != cases[i].line || err.col != cases[i].col)
      fail_msg("case %zu: rc %d at %u:%u: %s", i, rc, err.line, err.col,
               err.message);
    fl_fabric_free(f);
  }
  remove(path);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_detect),    cmocka_unit_test(test_on),
      cmocka_unit_test(test_leaf_off),  cmocka_unit_test(test_lenient),
      cmocka_unit_test(test_malformed),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
