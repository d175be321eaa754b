/* SPDX-License-Identifier: MIT */
/*
 * core/io/tmp_guard.h — the temporary files of output being written, for a
 * signal handler to remove (internal).
 *
 * fl_outfile (outfile.h) writes FILE through a temporary file renamed into
 * place at the end; a run killed by SIGTERM, SIGINT or SIGHUP in between
 * would leave `.FILE.PID-N.tmp` behind. The outfile module arms a slot
 * here for each temporary file it creates and disarms it once the file is
 * renamed or removed; the command line's handler (cli_signals.c) calls
 * fl_tmp_guard_unlink_all(), which only calls unlink(2) and so may run in
 * a signal handler.
 *
 * The one process-wide mutable state of the library, by necessity (a
 * signal handler has no argument): FL_TMP_GUARD_SLOTS slots of lock-free
 * atomics and fixed path buffers. A temporary file that finds no free
 * slot, or whose path is longer than FL_TMP_GUARD_PATH_MAX, is written
 * unguarded (a kill may leave it; docs/cli.md "Output files").
 */
#ifndef FABRICLINT_CORE_TMP_GUARD_H
#define FABRICLINT_CORE_TMP_GUARD_H

/** Temporary files guarded at once (fabriclint writes at most three). */
#define FL_TMP_GUARD_SLOTS 8
/** Longest guarded path in bytes, the final NUL included. */
#define FL_TMP_GUARD_PATH_MAX 4160

/**
 * fl_tmp_guard_arm() — guard @path (copied) until fl_tmp_guard_disarm().
 * Returns the slot (0..FL_TMP_GUARD_SLOTS-1), or -1 when no slot is free or
 * @path is too long (the file is then not guarded). Thread-safe.
 */
int fl_tmp_guard_arm(const char *path);

/** fl_tmp_guard_disarm() — stop guarding @slot (a fl_tmp_guard_arm()
 * result); a no-op for -1. Thread-safe. */
void fl_tmp_guard_disarm(int slot);

/**
 * fl_tmp_guard_unlink_all() — unlink(2) every guarded path (the slots stay
 * armed until their owners disarm them). Async-signal-safe (lock-free atomics
 * and unlink only): meant for a SIGTERM/SIGINT/SIGHUP handler, which then ends
 * the process.
 */
void fl_tmp_guard_unlink_all(void);

#endif
