/* Temporary weak fl_cli_gen until core/cli_gen.c lands. TO BE REMOVED. */
#include <stdio.h>

#include "cli.h"

__attribute__((weak)) int fl_cli_gen(int argc, char **argv) {
  (void)argc, (void)argv;
  fprintf(stderr, "fabriclint: gen not built\n");
  return 2;
}
