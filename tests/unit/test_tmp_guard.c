/* SPDX-License-Identifier: MIT */
/*
 * tests/unit/test_tmp_guard.c — the guarded temporary files of outputs
 * (core/io/tmp_guard.c, core/io/outfile.c; issue #32): an armed path is
 * removed by fl_tmp_guard_unlink_all() (what the SIGTERM/SIGINT/SIGHUP
 * handler calls), a disarmed one is not; exactly FL_TMP_GUARD_SLOTS paths
 * are guarded at once (the next is not) and a path of
 * FL_TMP_GUARD_PATH_MAX - 1 bytes is (one more is not); fl_outfile arms
 * its temporary file while it exists and disarms it on commit and abort.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "tmpdir.h"

#include <unistd.h>

#include "io/outfile.h"
#include "io/tmp_guard.h"

static int exists(const char *p) {
  return access(p, F_OK) == 0;
}

static void test_arm_unlink_disarm(void **state) {
  (void)state;
  const char *a = fixture_n("a.tmp", "x", (size_t)-1);
  char pa[512];
  snprintf(pa, sizeof pa, "%s", a);
  const char *b = fixture_n("b.tmp", "y", (size_t)-1);
  char pb[512];
  snprintf(pb, sizeof pb, "%s", b);
  int sa = fl_tmp_guard_arm(pa), sb = fl_tmp_guard_arm(pb);
  assert_true(sa >= 0 && sb >= 0 && sa != sb);
  fl_tmp_guard_disarm(sb);
  fl_tmp_guard_unlink_all();
  assert_false(exists(pa)); /* armed: removed */
  assert_true(exists(pb));  /* disarmed: kept */
  fl_tmp_guard_disarm(sa);
  fl_tmp_guard_unlink_all(); /* both disarmed: nothing more happens */
  assert_true(exists(pb));
  fl_tmp_guard_disarm(-1); /* a no-op */
}

static void test_slots_boundary(void **state) {
  (void)state;
  char p[FL_TMP_GUARD_SLOTS + 1][512];
  int s[FL_TMP_GUARD_SLOTS + 1];
  for (int i = 0; i <= FL_TMP_GUARD_SLOTS; i++) {
    char name[32];
    snprintf(name, sizeof name, "slot%d.tmp", i);
    snprintf(p[i], sizeof p[i], "%s", fixture_n(name, "z", (size_t)-1));
    s[i] = fl_tmp_guard_arm(p[i]);
  }
  for (int i = 0; i < FL_TMP_GUARD_SLOTS; i++)
    assert_true(s[i] >= 0);                    /* 8 guarded */
  assert_int_equal(s[FL_TMP_GUARD_SLOTS], -1); /* the 9th is not */
  fl_tmp_guard_unlink_all();
  for (int i = 0; i < FL_TMP_GUARD_SLOTS; i++) {
    assert_false(exists(p[i]));
    fl_tmp_guard_disarm(s[i]);
  }
  assert_true(exists(p[FL_TMP_GUARD_SLOTS]));
}

static void test_path_length_boundary(void **state) {
  (void)state;
  char path[FL_TMP_GUARD_PATH_MAX + 1];
  memset(path, 'a', sizeof path);
  path[FL_TMP_GUARD_PATH_MAX - 1] = '\0'; /* 4159 bytes: guarded */
  int s = fl_tmp_guard_arm(path);
  assert_true(s >= 0);
  fl_tmp_guard_disarm(s);
  path[FL_TMP_GUARD_PATH_MAX - 1] = 'a';
  path[FL_TMP_GUARD_PATH_MAX] = '\0'; /* 4160 bytes: not */
  assert_int_equal(fl_tmp_guard_arm(path), -1);
}

static void test_outfile_guarded(void **state) {
  (void)state;
  char out[512];
  snprintf(out, sizeof out, "%s/report.json", tmpdir);
  fl_error err;
  fl_error_clear(&err);
  fl_outfile of;
  /* committed: the temporary file was renamed; unlink_all touches nothing */
  assert_int_equal(fl_outfile_open(&of, out, &err), FL_OK);
  assert_non_null(of.tmp);
  assert_true(of.guard > 0);
  fputs("{}\n", of.f);
  assert_int_equal(fl_outfile_commit(&of, &err), FL_OK);
  fl_tmp_guard_unlink_all();
  assert_true(exists(out));
  /* killed while writing: unlink_all removes the temporary file, and the
   * previous report stays */
  assert_int_equal(fl_outfile_open(&of, out, &err), FL_OK);
  char tmp[512];
  snprintf(tmp, sizeof tmp, "%s", of.tmp);
  assert_true(exists(tmp));
  fputs("{\"partial\":", of.f);
  fflush(of.f);
  fl_tmp_guard_unlink_all();
  assert_false(exists(tmp));
  assert_true(exists(out));
  fl_outfile_abort(&of); /* the file is gone already: no harm */
  /* aborted: the slot is free again */
  assert_int_equal(fl_outfile_open(&of, out, &err), FL_OK);
  snprintf(tmp, sizeof tmp, "%s", of.tmp);
  fl_outfile_abort(&of);
  assert_false(exists(tmp));
  assert_int_equal(of.guard, 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_arm_unlink_disarm),
      cmocka_unit_test(test_slots_boundary),
      cmocka_unit_test(test_path_length_boundary),
      cmocka_unit_test(test_outfile_guarded),
  };
  return cmocka_run_group_tests(tests, setup_all, teardown_all);
}
