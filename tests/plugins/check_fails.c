/* SPDX-License-Identifier: MIT */
/* Test plugin "check_fails": ABI 1.0, check() returns 1. */
#define TP_NAME     "tp-check-fails"
#define TP_MAJOR    1u
#define TP_MINOR    0u
#define TP_CHECK_RC 1
#include "common_test_plugin.h"

FL_PLUGIN_EXPORT const fl_plugin_desc *fabriclint_plugin_v1(void) {
  return &TP_DESC;
}
