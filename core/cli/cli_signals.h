/* SPDX-License-Identifier: MIT */
/*
 * core/cli/cli_signals.h — what a run killed by a signal leaves behind.
 */
#ifndef FABRICLINT_CLI_SIGNALS_H
#define FABRICLINT_CLI_SIGNALS_H

/**
 * fl_cli_signals_install() — on SIGTERM, SIGINT and SIGHUP, remove the
 * temporary files of the outputs being written (io/tmp_guard.h), then die
 * of the same signal (the default action: the shell sees 128 + N). A
 * signal the parent set to be ignored (nohup) stays ignored. So a run
 * killed while writing `-o FILE` leaves FILE as it was (absent, or its
 * previous content) and no `.FILE.PID-N.tmp` (docs/cli.md "Output files").
 * Call once, early in main(); returns nothing (a sigaction() that fails
 * leaves that signal's default action).
 */
void fl_cli_signals_install(void);

#endif
