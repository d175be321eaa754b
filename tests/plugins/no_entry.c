/* SPDX-License-Identifier: MIT */
/* Test plugin without the fabriclint_plugin_v1 entry point. */
#include "fabriclint/plugin.h"

FL_PLUGIN_EXPORT int not_a_fabriclint_plugin(void) {
  return 42;
}
