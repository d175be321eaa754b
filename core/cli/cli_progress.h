/* SPDX-License-Identifier: MIT */
/*
 * core/cli/cli_progress.h — progress on standard error and the -v timing
 * summary (internal to the CLI).
 *
 * On a terminal (isatty(stderr)) and without -q, one live status line is
 * redrawn in place ("\r", erase to end of line) as the run goes through
 * its phases: loading each input, finalising the model, each rule (with
 * its plugin, its place among the rules run and, when the plugin reports
 * it through fl_host_api.progress, a percentage), writing the report. A
 * heartbeat thread redraws it once a second, so the elapsed time keeps
 * moving during a long rule; the line is erased before anything else is
 * printed and at the end. Anywhere else (a pipe, a file, CI logs) nothing
 * is drawn.
 *
 * With -v, every phase's wall time (CLOCK_MONOTONIC) and the peak resident
 * memory after it (getrusage(RUSAGE_SELF).ru_maxrss) are kept and printed
 * at the end, per rule and per plugin, whether or not stderr is a
 * terminal.
 *
 * The library prints none of this: rule events come from the host through
 * fl_host.on_event (fl_cli_progress_host_event()).
 */
#ifndef FABRICLINT_CORE_CLI_PROGRESS_H
#define FABRICLINT_CORE_CLI_PROGRESS_H

#include <stdint.h>
#include <stdio.h>

#include "host/host.h"

typedef struct fl_cli_progress fl_cli_progress;

/**
 * fl_cli_progress_new() — a progress reporter writing to @err. @live: draw
 * the status line (the caller passes isatty(fileno(err)) && !quiet).
 * @timing: keep per-phase times for fl_cli_progress_summary() (-v).
 * NULL when out of memory (the caller then runs without progress: every
 * function accepts a NULL reporter and does nothing).
 */
fl_cli_progress *fl_cli_progress_new(FILE *err, int live, int timing);

/** fl_cli_progress_free() — stop the heartbeat, erase the status line and
 * free @p (NULL is fine). */
void fl_cli_progress_free(fl_cli_progress *p);

/**
 * fl_cli_progress_phase() — a new phase begins (the previous one ends):
 * @name ("loading", "finalising", "report"), @detail (an input path; may
 * be NULL), its place @i of @n among phases of that name (0 of 0: none).
 */
void fl_cli_progress_phase(fl_cli_progress *p, const char *name,
                           const char *detail, size_t i, size_t n);

/** fl_cli_progress_end() — the current phase ends (its time is kept). */
void fl_cli_progress_end(fl_cli_progress *p);

/** fl_cli_progress_hide() — erase the status line and draw no more (the
 * report is about to be written, maybe to the same terminal); phases are
 * still timed. */
void fl_cli_progress_hide(fl_cli_progress *p);

/**
 * fl_cli_progress_printf() — print one line ("fabriclint: " is not added)
 * on the reporter's stream without garbling the status line: the line is
 * erased, the text printed, and the status drawn again. With a NULL @p, on
 * stderr.
 */
void fl_cli_progress_printf(fl_cli_progress *p, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/**
 * fl_cli_progress_host_event() — fl_host_event_fn for fl_host.on_event
 * with @ctx a fl_cli_progress: a rule begins (phase "rule"), reports
 * progress, ends; a log line is printed as the host would have printed it
 * (warnings and errors always, notes with the -v of
 * fl_cli_progress_attach()).
 */
void fl_cli_progress_host_event(void *ctx, const fl_host_event *ev);

/** fl_cli_progress_attach() — route @h's events to @p (NULL @p: the host
 * keeps printing its own log lines). @verbose: print notes of plugins. */
void fl_cli_progress_attach(fl_cli_progress *p, fl_host *h, int verbose);

/**
 * fl_cli_progress_summary() — with timing on, print the wall time of every
 * phase (rules grouped under their plugin, with the plugin's total), the
 * total, and the peak resident memory (ru_maxrss, KiB shown as MiB). Ends
 * the current phase first.
 */
void fl_cli_progress_summary(fl_cli_progress *p);

#endif
