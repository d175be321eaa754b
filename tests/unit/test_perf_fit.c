/* SPDX-License-Identifier: MIT */
/*
 * tests/unit/test_perf_fit.c — the calibration fit of `perf --measured
 * --calibrate` (core/analysis/perf_fit.c) and the busbw factor it uses
 * (fl_perf_nccl_factor, perf_nccl.c):
 *   - an exact synthetic case: times made from alpha = 25 us and eta =
 *     0.8 over a ring all-reduce of 16 ranks on 2 hosts at 400 GB/s, 8 B
 *     to 8 GiB, are fitted back to 1e-9;
 *   - the weights 1/t^2: one size 10 % slow moves the fit, and the same
 *     miss counts alike at 8 B and at 8 GiB (the relative residuals of
 *     the others stay below it);
 *   - boundaries: 2 sizes (the least) fit, 1 size is refused, every size
 *     equal is refused, a time that does not grow with the size is
 *     refused, a zero time is refused;
 *   - the factor: ring 2(n-1)/n, tree t(N) for 2, 3 and 4 hosts, p2p of
 *     sendrecv 1, fewer than 2 ranks 0.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "analysis/perf.h"

static int near(double a, double b, double tol) {
  return fabs(a - b) <= tol * fmax(1, fabs(b));
}

/* x_i for a ring all-reduce of @bytes on 16 ranks over 2 hosts at @bw GB/s */
static double xof(double bytes, double bw) {
  return bytes *
         fl_perf_nccl_factor(FL_WL_ALL_REDUCE, FL_PERF_NCCL_RING, 16, 2) /
         (bw * 1e9);
}

static void test_exact(void **state) {
  (void)state;
  double x[31], t[31], a, eta;
  for (int i = 0; i < 31; i++) {
    x[i] = xof(ldexp(8, i), 400);
    t[i] = 25e-6 + x[i] / 0.8;
  }
  fl_error err;
  fl_error_clear(&err);
  assert_int_equal(fl_perf_fit_alpha_eta(x, t, 31, &a, &eta, &err), FL_OK);
  assert_true(near(a, 25e-6, 1e-9));
  assert_true(near(eta, 0.8, 1e-9));
  /* the least: two sizes determine the line exactly */
  assert_int_equal(fl_perf_fit_alpha_eta(x + 10, t + 10, 2, &a, &eta, &err),
                   FL_OK);
  assert_true(near(a, 25e-6, 1e-9));
  assert_true(near(eta, 0.8, 1e-9));
}

/* Relative weights: a 10 % miss at the smallest size and the same at the
 * largest each pull the fit; the other sizes' relative residuals stay
 * below 10 %. */
static void test_weights(void **state) {
  (void)state;
  double x[31], t[31], a, eta;
  for (int end = 0; end < 2; end++) {
    for (int i = 0; i < 31; i++) {
      x[i] = xof(ldexp(8, i), 400);
      t[i] = 25e-6 + x[i] / 0.8;
    }
    t[end ? 30 : 0] *= 1.1;
    fl_error err;
    fl_error_clear(&err);
    assert_int_equal(fl_perf_fit_alpha_eta(x, t, 31, &a, &eta, &err), FL_OK);
    if (end)
      assert_true(eta < 0.8); /* a slower large size: lower efficiency */
    else
      assert_true(a > 25e-6); /* a slower small size: more latency */
    for (int i = 1; i < 30; i++) {
      double fit = a + x[i] / eta;
      assert_true(fabs(fit / t[i] - 1) < 0.1);
    }
  }
}

static void test_refused(void **state) {
  (void)state;
  double x[3] = {1e-3, 1e-3, 1e-3}, t[3] = {2e-3, 2.1e-3, 1.9e-3}, a, eta;
  fl_error err;
  fl_error_clear(&err);
  /* one size */
  assert_int_equal(fl_perf_fit_alpha_eta(x, t, 1, &a, &eta, &err), FL_EINVAL);
  assert_non_null(strstr(err.message, "at least 2 sizes"));
  /* every size the same */
  fl_error_clear(&err);
  assert_int_equal(fl_perf_fit_alpha_eta(x, t, 3, &a, &eta, &err), FL_EINVAL);
  assert_non_null(strstr(err.message, "every size of the fit is the same"));
  /* times falling with the size */
  double x2[2] = {1e-3, 2e-3}, t2[2] = {3e-3, 2e-3};
  fl_error_clear(&err);
  assert_int_equal(fl_perf_fit_alpha_eta(x2, t2, 2, &a, &eta, &err), FL_EINVAL);
  assert_non_null(strstr(err.message, "do not grow"));
  /* a zero time */
  double t3[2] = {0, 2e-3};
  fl_error_clear(&err);
  assert_int_equal(fl_perf_fit_alpha_eta(x2, t3, 2, &a, &eta, &err), FL_EINVAL);
  assert_non_null(strstr(err.message, "positive"));
}

static void test_factor(void **state) {
  (void)state;
  assert_true(
      near(fl_perf_nccl_factor(FL_WL_ALL_REDUCE, FL_PERF_NCCL_RING, 16, 2),
           1.875, 1e-12));
  assert_true(
      near(fl_perf_nccl_factor(FL_WL_ALL_GATHER, FL_PERF_NCCL_RING, 16, 2),
           0.9375, 1e-12));
  assert_true(
      near(fl_perf_nccl_factor(FL_WL_ALL_REDUCE, FL_PERF_NCCL_TREE, 16, 2), 1,
           1e-12));
  assert_true(
      near(fl_perf_nccl_factor(FL_WL_ALL_REDUCE, FL_PERF_NCCL_TREE, 24, 3), 1.5,
           1e-12));
  assert_true(
      near(fl_perf_nccl_factor(FL_WL_ALL_REDUCE, FL_PERF_NCCL_TREE, 32, 4), 2,
           1e-12));
  assert_true(near(fl_perf_nccl_factor(FL_WL_SENDRECV, FL_PERF_NCCL_P2P, 16, 2),
                   1, 1e-12));
  assert_true(fl_perf_nccl_factor(FL_WL_ALL_REDUCE, FL_PERF_NCCL_RING, 1, 1) ==
              0);
  /* the prediction's time is latency + bytes × factor / (eta × busbw) */
  fl_perf_nccl p;
  fl_perf_nccl_predict(FL_WL_ALL_REDUCE, 1u << 30, 16, 2, 400, &p);
  for (uint32_t alg = FL_PERF_NCCL_RING; alg <= FL_PERF_NCCL_TREE; alg++) {
    const fl_perf_nccl_alg *a = &p.alg[alg];
    double g = fl_perf_nccl_factor(FL_WL_ALL_REDUCE, alg, 16, 2);
    assert_true(
        near(a->time_s,
             a->latency_s + (double)(1u << 30) * g / (a->efficiency * 400e9),
             1e-12));
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_exact),
      cmocka_unit_test(test_weights),
      cmocka_unit_test(test_refused),
      cmocka_unit_test(test_factor),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
