/* SPDX-License-Identifier: MIT */
/*
 * core/cli/cli_signals.c — SIGTERM, SIGINT, SIGHUP: remove the guarded
 * temporary output files, then die of the signal (cli_signals.h).
 *
 * The handler calls only async-signal-safe functions: the guard's unlink
 * loop, sigaction() to restore the default action and raise(). The signal
 * is blocked while its handler runs, so the raised one is delivered, with
 * the default action, when the handler returns.
 */
#include <signal.h>
#include <string.h>

#include "cli/cli_signals.h"
#include "io/tmp_guard.h"

static const int SIGNALS[] = {SIGTERM, SIGINT, SIGHUP};

static void on_signal(int sig) {
  fl_tmp_guard_unlink_all();
  struct sigaction dfl;
  memset(&dfl, 0, sizeof dfl);
  dfl.sa_handler = SIG_DFL;
  sigemptyset(&dfl.sa_mask);
  sigaction(sig, &dfl, NULL);
  raise(sig);
}

void fl_cli_signals_install(void) {
  for (size_t i = 0; i < sizeof SIGNALS / sizeof *SIGNALS; i++) {
    struct sigaction old;
    if (sigaction(SIGNALS[i], NULL, &old) != 0 || old.sa_handler == SIG_IGN)
      continue; /* nohup's SIGHUP, a background job's SIGINT: keep */
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    for (size_t k = 0; k < sizeof SIGNALS / sizeof *SIGNALS; k++)
      sigaddset(&sa.sa_mask, SIGNALS[k]); /* one handler at a time */
    sigaction(SIGNALS[i], &sa, NULL);
  }
}
