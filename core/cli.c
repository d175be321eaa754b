/* placeholder main until the CLI lands */
#include "cli.h"
int main(int argc, char **argv) { return argc > 1 ? fl_cli_gen(argc - 1, argv + 1) : 2; }
