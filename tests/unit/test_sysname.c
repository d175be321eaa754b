/* SPDX-License-Identifier: MIT */
/*
 * tests/unit/test_sysname.c — the default system pattern's scanner
 * (core/model/sysname.c, fl_sysname_default) against regexec() of
 * FL_DEFAULT_SYSTEM_PATTERN, the oracle it replaces:
 *  - every string of length 0..5 over a 12-byte alphabet that holds white
 *    space, the device prefixes' letters, digits and '_' (271,453 strings);
 *  - 200,000 random strings joined from tokens that are device names,
 *    near misses of each alternative (one byte short, one wrong, upper
 *    case, a second underscore) and host names, with random white space;
 *  - the real NodeDescriptions the loaders meet.
 * Match or not, and on a match all three offsets, must agree.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "model/sysname.h"

static regex_t RE;

static int setup(void **state) {
  (void)state;
  return regcomp(&RE, FL_DEFAULT_SYSTEM_PATTERN, REG_EXTENDED) != 0;
}

static int teardown(void **state) {
  (void)state;
  regfree(&RE);
  return 0;
}

/* The scanner and the regex agree on @s; returns 1 when it matched. */
static int agree(const char *s) {
  regmatch_t a[3], b[3];
  int ra = fl_sysname_default(s, a), rb = regexec(&RE, s, 3, b, 0);
  if ((ra == 0) != (rb == 0))
    fail_msg("'%s': scanner %s, regex %s", s, ra ? "no match" : "match",
             rb ? "no match" : "match");
  if (ra != 0)
    return 0;
  for (int k = 0; k < 3; k++)
    if (a[k].rm_so != b[k].rm_so || a[k].rm_eo != b[k].rm_eo)
      fail_msg("'%s': group %d scanner [%d,%d) regex [%d,%d)", s, k,
               (int)a[k].rm_so, (int)a[k].rm_eo, (int)b[k].rm_so,
               (int)b[k].rm_eo);
  return 1;
}

static void test_exhaustive_short(void **state) {
  (void)state;
  static const char AL[] = " \tm5_0xlaqH-";
  const size_t n_al = sizeof AL - 1, max_len = 5;
  char s[8];
  size_t idx[8] = {0}, total = 0;
  for (size_t len = 0; len <= max_len; len++) {
    memset(idx, 0, sizeof idx);
    for (;;) {
      for (size_t i = 0; i < len; i++)
        s[i] = AL[idx[i]];
      s[len] = '\0';
      agree(s);
      total++;
      size_t i = 0;
      while (i < len && ++idx[i] == n_al)
        idx[i++] = 0;
      if (i == len)
        break;
    }
  }
  assert_int_equal(total, 271453); /* sum of 12^k, k = 0..5 */
}

static const char *const TOKENS[] = {
    /* every alternative, matching */
    "mlx5_0", "mlx10_12", "HCA-1", "HCA-10", "hfi1_0", "qib0", "irdma3",
    "bnxt_re0", "rocep1s0f0", "ibp65s0", "erdma_0", "efa_12",
    /* near misses */
    "mlx5", "mlx_0", "mlx5_", "mlx5_0_1", "MLX5_0", "mlx5-0", "HCA-", "HCA1",
    "hca-1", "hfi1", "qib", "qibx", "irdma", "bnxt_re", "bnxt_re_0", "rocep",
    "rocepA1", "ibp", "ibP0", "erdma0", "erdma_", "efa_", "efa0", "efa_1a",
    "mlx5_0a", "HCA-1a", "qib1b", "irdma2c", "bnxt_re0x", "erdma_1a", "hfi1_0b",
    "rocep1_0", "ibp0-1",
    /* hosts */
    "dgx-001", "node17", "a", "x.y.z", "\xc3\xa9t\xc3\xa9", "MF0;sw:x/U1"};
static const char *const SPACES[] = {" ",  "  ",   "\t", " \t ",
                                     "\n", "\r\n", "\v", "\f"};

static uint64_t next(uint64_t *x) { /* xorshift64* */
  *x ^= *x >> 12;
  *x ^= *x << 25;
  *x ^= *x >> 27;
  return *x * 2685821657736338717ULL;
}

static void test_random_tokens(void **state) {
  (void)state;
  const size_t n_tok = sizeof TOKENS / sizeof TOKENS[0];
  const size_t n_sp = sizeof SPACES / sizeof SPACES[0];
  uint64_t x = 0x9e3779b97f4a7c15ULL;
  size_t matched = 0;
  for (int iter = 0; iter < 200000; iter++) {
    char s[256] = "";
    size_t len = 0;
    uint64_t r = next(&x);
    int tokens = (int)(r % 4); /* 0..3 tokens */
    if ((r >> 8) & 1)
      len += (size_t)snprintf(s + len, sizeof s - len, "%s",
                              SPACES[(r >> 9) % n_sp]);
    for (int t = 0; t < tokens; t++) {
      uint64_t q = next(&x);
      if (t)
        len +=
            (size_t)snprintf(s + len, sizeof s - len, "%s", SPACES[q % n_sp]);
      len += (size_t)snprintf(s + len, sizeof s - len, "%s",
                              TOKENS[(q >> 8) % n_tok]);
    }
    if ((r >> 16) & 1)
      len += (size_t)snprintf(s + len, sizeof s - len, "%s",
                              SPACES[(r >> 17) % n_sp]);
    matched += (size_t)agree(s);
  }
  /* both answers occur often: the comparison is not one-sided */
  assert_true(matched > 10000 && matched < 190000); /* 14,146 here */
}

static void test_real_descriptions(void **state) {
  (void)state;
  static const struct {
    const char *s, *sys, *dev; /* sys NULL: no match */
  } C[] = {
      {"dgx-001 mlx5_0", "dgx-001", "mlx5_0"},
      {"  node-17\tHCA-1  ", "node-17", "HCA-1"},
      {"login1 hfi1_0", "login1", "hfi1_0"},
      {"p5en-42 efa_3", "p5en-42", "efa_3"},
      {"gpu12 rocep152s0f0", "gpu12", "rocep152s0f0"},
      {"MF0;sw-01:MQM9700/U1", NULL, NULL},
      {"Mellanox Technologies Aggregation Node", NULL, NULL},
      {"ibsim-host mlx4_0 extra", NULL, NULL},
      {"mlx5_0", NULL, NULL},
      {"", NULL, NULL},
  };
  for (size_t i = 0; i < sizeof C / sizeof C[0]; i++) {
    regmatch_t m[3];
    int rc = fl_sysname_default(C[i].s, m);
    assert_int_equal(agree(C[i].s), C[i].sys != NULL);
    if (!C[i].sys) {
      assert_int_equal(rc, REG_NOMATCH);
      continue;
    }
    assert_int_equal(rc, 0);
    assert_int_equal(m[1].rm_eo - m[1].rm_so, (regoff_t)strlen(C[i].sys));
    assert_memory_equal(C[i].s + m[1].rm_so, C[i].sys, strlen(C[i].sys));
    assert_int_equal(m[2].rm_eo - m[2].rm_so, (regoff_t)strlen(C[i].dev));
    assert_memory_equal(C[i].s + m[2].rm_so, C[i].dev, strlen(C[i].dev));
  }
}

/* The matcher object: the default pattern (NULL or the same text) takes
 * the scanner, another pattern the regex; a bad one is refused. */
static void test_sysmatch(void **state) {
  (void)state;
  fl_sysmatch m;
  fl_error err;
  fl_error_clear(&err);
  regmatch_t g[3];
  assert_int_equal(fl_sysmatch_init(&m, NULL, &err), FL_OK);
  assert_int_equal(m.fast, 1);
  assert_int_equal(fl_sysmatch_run(&m, "h mlx5_0", g), 0);
  fl_sysmatch_free(&m);
  assert_int_equal(fl_sysmatch_init(&m, FL_DEFAULT_SYSTEM_PATTERN, &err),
                   FL_OK);
  assert_int_equal(m.fast, 1);
  fl_sysmatch_free(&m);
  assert_int_equal(fl_sysmatch_init(&m, "^(.*)-(nic[0-9])$", &err), FL_OK);
  assert_int_equal(m.fast, 0);
  assert_int_equal(fl_sysmatch_run(&m, "gpu-3-nic1", g), 0);
  assert_int_equal(g[1].rm_eo, 5);
  assert_int_not_equal(fl_sysmatch_run(&m, "h mlx5_0", g), 0);
  fl_sysmatch_free(&m);
  assert_int_equal(fl_sysmatch_init(&m, "^(one group)$", &err), FL_EINVAL);
  assert_non_null(strstr(err.message, "needs two groups"));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_exhaustive_short),
      cmocka_unit_test(test_random_tokens),
      cmocka_unit_test(test_real_descriptions),
      cmocka_unit_test(test_sysmatch),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
