/* SPDX-License-Identifier: MIT */
/*
 * core/analysis/perf_fit.c — calibration of the NCCL prediction against
 * measured nccl-tests times (`perf --measured LOG --calibrate`,
 * docs/performance-model.md "Calibration against nccl-tests"): the
 * latency alpha and the efficiency eta of t = alpha + x / eta, x the
 * bandwidth term at efficiency 1 (bytes × the algorithm's factor / the
 * fabric's bus bandwidth), by weighted least squares with weights 1/t²,
 * so a 10 % miss at 8 B counts as much as one at 8 GiB:
 *
 *   minimise  sum w_i (alpha + beta x_i - t_i)^2,  beta = 1 / eta,
 *   [sum w     sum w x  ] [alpha]   [sum w t  ]
 *   [sum w x   sum w x^2] [beta ] = [sum w x t].
 *
 * Sums are taken about the weighted mean of x (centred), which keeps the
 * 2×2 system well conditioned when x spans 8 B to 8 GiB.
 */
#include <math.h>

#include "analysis/perf.h"

int fl_perf_fit_alpha_eta(const double *x, const double *t, size_t n,
                          double *alpha_s, double *eta, fl_error *err) {
  *alpha_s = 0;
  *eta = 0;
  if (n < 2)
    return fl_error_set(err, FL_EINVAL, NULL, 0, 0,
                        "a fit of latency and efficiency needs at least 2 "
                        "sizes, the log has %zu",
                        n);
  double sw = 0, swx = 0, swt = 0;
  for (size_t i = 0; i < n; i++) {
    if (!(t[i] > 0) || !isfinite(t[i]) || !(x[i] > 0) || !isfinite(x[i]))
      return fl_error_set(err, FL_EINVAL, NULL, 0, 0,
                          "size %zu of the fit: a time or size that is not "
                          "a positive number",
                          i + 1);
    double w = 1 / (t[i] * t[i]);
    sw += w;
    swx += w * x[i];
    swt += w * t[i];
  }
  double mx = swx / sw, mt = swt / sw, sxx = 0, sxt = 0, xmax = 0;
  for (size_t i = 0; i < n; i++) {
    double w = 1 / (t[i] * t[i]), dx = x[i] - mx;
    sxx += w * dx * dx;
    sxt += w * dx * (t[i] - mt);
    if (x[i] > xmax)
      xmax = x[i];
  }
  if (!(sxx > 1e-24 * sw * xmax * xmax))
    return fl_error_set(err, FL_EINVAL, NULL, 0, 0,
                        "every size of the fit is the same: latency and "
                        "efficiency cannot be told apart");
  double beta = sxt / sxx;
  if (!(beta > 0))
    return fl_error_set(err, FL_EINVAL, NULL, 0, 0,
                        "the measured times do not grow with the size "
                        "(slope %.3g): no efficiency fits them",
                        beta);
  *alpha_s = mt - beta * mx;
  *eta = 1 / beta;
  return FL_OK;
}
