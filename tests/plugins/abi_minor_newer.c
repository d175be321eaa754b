/* SPDX-License-Identifier: MIT */
/* Test plugin "abi_minor_newer": ABI 1.9, check() returns 0. */
#define TP_NAME     "tp-abi-minor-newer"
#define TP_MAJOR    1u
#define TP_MINOR    9u
#define TP_CHECK_RC 0
#include "common_test_plugin.h"

FL_PLUGIN_EXPORT const fl_plugin_desc *fabriclint_plugin_v1(void) {
  return &TP_DESC;
}
