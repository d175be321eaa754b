/* SPDX-License-Identifier: MIT */
/* Test plugin "tp-bad-default": the default of "width" (9) lies outside
 * its declared range [2, 4]; the host must refuse the plugin (exit 3). */
#define TP_NAME      "tp-bad-default"
#define TP_WIDTH_DEF "9"
#include "param_ranges.c"
