/* SPDX-License-Identifier: MIT */
/*
 * core/cli/cli_inputs.h — checks of the inputs a command line names, before
 * anything is loaded: a file named twice, a malformed NAME:FILE plane tag.
 * core/cli/cli_inputs.c.
 */
#ifndef FABRICLINT_CLI_INPUTS_H
#define FABRICLINT_CLI_INPUTS_H

#include <stddef.h>

/**
 * fl_cli_check_repeats() — refuse a file or folder named twice among
 * @paths[0..@n) (one side of `diff`, or the inputs of `check`, `info`,
 * `perf`, `convert`, their --plane FILEs included). "The same" is the same
 * device and inode, so `a.dump`, `./a.dump` and a link to it are one file.
 * Loading a capture twice is never meant: the copy's nodes repeat every
 * GUID and LID, which the model reads as a second plane (a clean fabric
 * of twice the NICs) or as duplicate GUIDs. Standard input ("-") and paths
 * that cannot be stat()ed are left to fl_cli_check_stdin() and the loader.
 * @what names the list in the message ("input", "design input", ...).
 * Returns 0, or FL_EXIT_USAGE with "fabriclint: PATH: the same file as
 * input k (PATH0): ..." printed. O(n log n) in @n; allocates and frees a
 * table of @n entries.
 */
int fl_cli_check_repeats(const char *const *paths, size_t n, const char *what);

/**
 * fl_cli_plane_spec() — check the argument @arg of option @opt (`--plane`,
 * `--design-plane`, `--as-built-plane`): NAME:FILE, split at the first
 * colon, NAME and FILE not empty; NAME without a comma (findings join the
 * planes of a cable's two ends with commas, JSON "plane": "A,B", so a name
 * holding one would read as two planes) and without control characters
 * (each text finding is one line). Any other bytes (blanks, UTF-8) are
 * allowed. Returns 0, or FL_EXIT_USAGE with the message printed; sets
 * *@name_len (may be NULL) to NAME's length.
 */
int fl_cli_plane_spec(const char *opt, const char *arg, size_t *name_len);

#endif
