/* SPDX-License-Identifier: MIT */
/* Test plugin "abi_major2": ABI 2.0, check() returns 0. */
#define TP_NAME     "tp-abi-major2"
#define TP_MAJOR    2u
#define TP_MINOR    0u
#define TP_CHECK_RC 0
#include "common_test_plugin.h"

FL_PLUGIN_EXPORT const fl_plugin_desc *fabriclint_plugin_v1(void) {
  return &TP_DESC;
}
