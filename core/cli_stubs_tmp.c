/* Temporary weak fl_cli_diff until core/cli_diff.c lands. TO BE REMOVED. */
#include "cli.h"
#include "cli_common.h"

__attribute__((weak)) int fl_cli_diff(int argc, char **argv) {
  (void)argc, (void)argv;
  return fl_cli_usage_error("'diff' is not available in this build%s", "");
}
