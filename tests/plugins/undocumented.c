/* SPDX-License-Identifier: MIT */
/* Test plugin "topology" with one rule its documentation page does not
 * have (topology.probe): the page docs/rules/topology.md exists, its
 * anchor does not, so SARIF has no helpUri and explain no docs line for
 * it. Loaded with --no-builtin-plugins (the built-in topology would win). */
#define TP_NAME     "topology"
#define TP_MAJOR    1u
#define TP_MINOR    2u
#define TP_CHECK_RC 0
#include "common_test_plugin.h"

FL_PLUGIN_EXPORT const fl_plugin_desc *fabriclint_plugin_v1(void) {
  return &TP_DESC;
}
