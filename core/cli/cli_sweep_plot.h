/* SPDX-License-Identifier: MIT */
/*
 * core/cli/cli_sweep_plot.h — `fabriclint sweep --format svg`: the designs
 * of a sweep as a scatter plot with the Pareto front marked and joined
 * (internal to the CLI; docs/cli.md "sweep"). Plain SVG 1.1 written here:
 * axes with "nice" ticks (1, 2 or 5 times a power of ten), each point
 * labelled with its varied values, a title; text through the one XML
 * escaper (util/xml_escape.h).
 */
#ifndef FABRICLINT_CORE_CLI_SWEEP_PLOT_H
#define FABRICLINT_CORE_CLI_SWEEP_PLOT_H

#include <stddef.h>
#include <stdio.h>

/** One design: its figures on the two axes (finite), its label (the
 * varied values, borrowed) and whether it is on the Pareto front. */
typedef struct fl_sweep_point {
  double x, y;
  const char *label;
  int front;
} fl_sweep_point;

/** The plot: @n points (at least one), the title and the axes' names
 * (borrowed). */
typedef struct fl_sweep_plot {
  const fl_sweep_point *p;
  size_t n;
  const char *title, *x_name, *y_name;
} fl_sweep_plot;

/**
 * fl_sweep_plot_ticks() — the ticks of an axis over [@lo, @hi]: *@first,
 * *@step and *@count so that the ticks first + i * step (i < count) cover
 * the range, step 1, 2 or 5 times a power of ten, 3 to 11 ticks; a range
 * of one value is widened around it. Pure arithmetic.
 */
void fl_sweep_plot_ticks(double lo, double hi, double *first, double *step,
                         size_t *count);

/**
 * fl_sweep_plot_svg() — write @pl to @out as one SVG document: a <circle
 * class="design"> per point (class "design front" on the front) with its
 * figures in data-x and data-y and its index in data-design (1-based), a
 * <polyline class="front"> through the front's points in order of x, the
 * axes with ticks and labels, a <text> label per point, the title. 0, or
 * -1 on a write error.
 */
int fl_sweep_plot_svg(FILE *out, const fl_sweep_plot *pl);

#endif
