/* SPDX-License-Identifier: MIT */
/*
 * core/cli/cli_progress.c — the status line and -v timing of
 * cli_progress.h.
 *
 * The line is redrawn with "\r" and padded with spaces over what the last
 * drawing left, so it needs no terminal capability (works with TERM=dumb
 * and inside `script`); it is cut to the terminal's width (TIOCGWINSZ) so it
 * never wraps, which would break "\r". Progress reports draw at most 10
 * times a second (the last one, done == total, always); a phase change
 * always draws, and the heartbeat once a second. All drawing
 * happens under one mutex, shared with the heartbeat thread.
 */
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli_progress.h"
#include "fabriclint/types.h"
#include "host/host.h"

/* One timed phase (-v). */
typedef struct phase_rec {
  char label[160]; /* "load plan.xml", "rail-alignment.cross-rail" */
  char plugin[64]; /* the rule's plugin, "" for other phases */
  double secs;     /* wall time */
  long maxrss_kib; /* ru_maxrss when it ended */
} phase_rec;

struct fl_cli_progress {
  FILE *err;
  int live, timing, verbose_logs;
  pthread_mutex_t mu;
  pthread_cond_t cv;
  pthread_t beat;
  int beat_running, stop, hidden;
  struct timespec t0, phase_t0;
  struct timespec last_report; /* last drawing for a progress report */
  int in_phase;
  char status[256];     /* the phase's text, without time and percentage */
  char label[160];      /* its label for the summary */
  char plugin[64];      /* its plugin (rules) */
  uint64_t done, total; /* progress within the phase */
  char what[32];
  size_t drawn; /* columns the last drawing left on the line */
  phase_rec *recs;
  size_t n_recs, cap_recs;
};

static double since(const struct timespec *a, const struct timespec *b) {
  return (double)(b->tv_sec - a->tv_sec) +
         (double)(b->tv_nsec - a->tv_nsec) / 1e9;
}

static int term_width(FILE *f) {
  struct winsize ws;
  if (ioctl(fileno(f), TIOCGWINSZ, &ws) == 0 && ws.ws_col >= 20)
    return ws.ws_col;
  return 80;
}

/* "12,345" into @buf. */
static const char *thousands(uint64_t v, char *buf, size_t size) {
  char raw[32];
  int n = snprintf(raw, sizeof raw, "%llu", (unsigned long long)v);
  size_t j = 0;
  for (int i = 0; i < n && j + 2 < size; i++) {
    if (i > 0 && (n - i) % 3 == 0)
      buf[j++] = ',';
    buf[j++] = raw[i];
  }
  buf[j] = '\0';
  return buf;
}

/* Erase what the last drawing left (mutex held). */
static void erase_locked(fl_cli_progress *p) {
  if (!p->drawn)
    return;
  fprintf(p->err, "\r%*s\r", (int)p->drawn, "");
  fflush(p->err);
  p->drawn = 0;
}

/* Draw the status line (mutex held). */
static void draw_locked(fl_cli_progress *p) {
  if (!p->live || p->hidden || !p->in_phase)
    return;
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  char line[512], a[32], b[32];
  int n = snprintf(line, sizeof line, "fabriclint: [%6.1f s] %s",
                   since(&p->t0, &now), p->status);
  if (p->total && n > 0 && (size_t)n < sizeof line)
    n += snprintf(line + n, sizeof line - (size_t)n, " %3.0f%% (%s/%s %s)",
                  100.0 * (double)p->done / (double)p->total,
                  thousands(p->done, a, sizeof a),
                  thousands(p->total, b, sizeof b), p->what);
  else if (p->done && n > 0 && (size_t)n < sizeof line)
    n += snprintf(line + n, sizeof line - (size_t)n, " (%s %s)",
                  thousands(p->done, a, sizeof a), p->what);
  size_t len = n < 0                     ? 0
               : (size_t)n < sizeof line ? (size_t)n
                                         : sizeof line - 1;
  size_t width = (size_t)term_width(p->err) - 1;
  if (len > width)
    len = width;
  fprintf(p->err, "\r%.*s", (int)len, line);
  if (p->drawn > len)
    fprintf(p->err, "%*s\r%.*s", (int)(p->drawn - len), "", (int)len, line);
  fflush(p->err);
  p->drawn = len;
}

static void *heartbeat(void *arg) {
  fl_cli_progress *p = arg;
  pthread_mutex_lock(&p->mu);
  while (!p->stop) {
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += 1;
    pthread_cond_timedwait(&p->cv, &p->mu, &until);
    if (!p->stop)
      draw_locked(p);
  }
  pthread_mutex_unlock(&p->mu);
  return NULL;
}

fl_cli_progress *fl_cli_progress_new(FILE *err, int live, int timing) {
  fl_cli_progress *p = calloc(1, sizeof *p);
  if (!p)
    return NULL;
  p->err = err;
  p->live = live;
  p->timing = timing;
  pthread_mutex_init(&p->mu, NULL);
  pthread_cond_init(&p->cv, NULL);
  clock_gettime(CLOCK_MONOTONIC, &p->t0);
  if (live && pthread_create(&p->beat, NULL, heartbeat, p) == 0)
    p->beat_running = 1;
  return p;
}

/* Keep the time of the current phase (mutex held). */
static void end_locked(fl_cli_progress *p) {
  if (!p->in_phase)
    return;
  p->in_phase = 0;
  if (!p->timing)
    return;
  if (p->n_recs == p->cap_recs) {
    size_t cap = p->cap_recs ? p->cap_recs * 2 : 64;
    phase_rec *v = realloc(p->recs, cap * sizeof *v);
    if (!v)
      return; /* the summary misses a line; the run goes on */
    p->recs = v;
    p->cap_recs = cap;
  }
  phase_rec *r = &p->recs[p->n_recs++];
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  struct rusage ru;
  memset(&ru, 0, sizeof ru);
  getrusage(RUSAGE_SELF, &ru);
  snprintf(r->label, sizeof r->label, "%s", p->label);
  snprintf(r->plugin, sizeof r->plugin, "%s", p->plugin);
  r->secs = since(&p->phase_t0, &now);
  r->maxrss_kib = ru.ru_maxrss;
}

/* Begin a phase (mutex held): @status is shown, @label summarised. */
static void begin_locked(fl_cli_progress *p, const char *status,
                         const char *label, const char *plugin) {
  end_locked(p);
  p->in_phase = 1;
  clock_gettime(CLOCK_MONOTONIC, &p->phase_t0);
  snprintf(p->status, sizeof p->status, "%s", status);
  snprintf(p->label, sizeof p->label, "%s", label);
  snprintf(p->plugin, sizeof p->plugin, "%s", plugin ? plugin : "");
  p->done = p->total = 0;
  p->what[0] = '\0';
  draw_locked(p);
}

void fl_cli_progress_phase(fl_cli_progress *p, const char *name,
                           const char *detail, size_t i, size_t n) {
  if (!p)
    return;
  char status[256], label[160];
  if (n)
    snprintf(status, sizeof status, "%s %zu/%zu%s%s", name, i + 1, n,
             detail ? " " : "", detail ? detail : "");
  else
    snprintf(status, sizeof status, "%s%s%s", name, detail ? " " : "",
             detail ? detail : "");
  snprintf(label, sizeof label, "%s%s%s", name, detail ? " " : "",
           detail ? detail : "");
  pthread_mutex_lock(&p->mu);
  begin_locked(p, status, label, NULL);
  pthread_mutex_unlock(&p->mu);
}

void fl_cli_progress_end(fl_cli_progress *p) {
  if (!p)
    return;
  pthread_mutex_lock(&p->mu);
  end_locked(p);
  pthread_mutex_unlock(&p->mu);
}

void fl_cli_progress_hide(fl_cli_progress *p) {
  if (!p)
    return;
  pthread_mutex_lock(&p->mu);
  erase_locked(p);
  p->hidden = 1;
  pthread_mutex_unlock(&p->mu);
}

void fl_cli_progress_printf(fl_cli_progress *p, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  if (!p) {
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    return;
  }
  pthread_mutex_lock(&p->mu);
  erase_locked(p);
  vfprintf(p->err, fmt, ap);
  fputc('\n', p->err);
  draw_locked(p);
  pthread_mutex_unlock(&p->mu);
  va_end(ap);
}

static const char *level_name(uint32_t level) {
  return level >= FL_SEV_ERROR     ? "error"
         : level == FL_SEV_WARNING ? "warning"
                                   : "note";
}

void fl_cli_progress_host_event(void *ctx, const fl_host_event *ev) {
  fl_cli_progress *p = ctx;
  char status[256];
  switch (ev->kind) {
  case FL_HOST_EV_RULE_BEGIN:
    snprintf(status, sizeof status, "rule %zu/%zu %s", ev->index + 1, ev->count,
             ev->rule);
    pthread_mutex_lock(&p->mu);
    begin_locked(p, status, ev->rule, ev->plugin);
    pthread_mutex_unlock(&p->mu);
    return;
  case FL_HOST_EV_RULE_PROGRESS: {
    if (!p->live) /* nothing to draw: no lock, no clock */
      return;
    pthread_mutex_lock(&p->mu);
    p->done = ev->done;
    p->total = ev->total;
    snprintf(p->what, sizeof p->what, "%s", ev->what ? ev->what : "done");
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    if (since(&p->last_report, &now) >= 0.1 || ev->done == ev->total) {
      p->last_report = now;
      draw_locked(p);
    }
    pthread_mutex_unlock(&p->mu);
    return;
  }
  case FL_HOST_EV_RULE_END:
    fl_cli_progress_end(p);
    return;
  case FL_HOST_EV_PLANE: {
    /* the copy of one plane the per-plane rules run on, and freeing the
     * last one, are phases of their own: -v accounts for them */
    char detail[128];
    if (ev->plane) {
      snprintf(detail, sizeof detail, "%s: its copy of the model", ev->plane);
      fl_cli_progress_phase(p, "plane", detail, ev->index, ev->count);
    } else {
      fl_cli_progress_phase(p, "planes", "done: the last copy freed", 0, 0);
    }
    return;
  }
  case FL_HOST_EV_NOTE:
    if (p->verbose_logs)
      fl_cli_progress_printf(p, "fabriclint: note: %s", ev->message);
    return;
  case FL_HOST_EV_LOG:
    if (p->verbose_logs || ev->level >= FL_SEV_WARNING)
      fl_cli_progress_printf(p, "fabriclint: %s: %s%s%s%s: %s", ev->rule,
                             ev->plane ? "plane " : "",
                             ev->plane ? ev->plane : "", ev->plane ? ": " : "",
                             level_name(ev->level), ev->message);
    return;
  default:
    return;
  }
}

void fl_cli_progress_attach(fl_cli_progress *p, fl_host *h, int verbose) {
  if (!p)
    return;
  p->verbose_logs = verbose;
  h->on_event = fl_cli_progress_host_event;
  h->event_ctx = p;
}

/* Total time of the rules of plugin @name from record @from on. */
static double plugin_secs(const fl_cli_progress *p, size_t from) {
  double s = 0;
  for (size_t i = from;
       i < p->n_recs && strcmp(p->recs[i].plugin, p->recs[from].plugin) == 0;
       i++)
    s += p->recs[i].secs;
  return s;
}

void fl_cli_progress_summary(fl_cli_progress *p) {
  if (!p || !p->timing)
    return;
  pthread_mutex_lock(&p->mu);
  end_locked(p);
  erase_locked(p);
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  struct rusage ru;
  memset(&ru, 0, sizeof ru);
  getrusage(RUSAGE_SELF, &ru);
  FILE *e = p->err;
  fprintf(e, "fabriclint: wall time per phase, and peak memory after it "
             "(ru_maxrss):\n");
  for (size_t i = 0; i < p->n_recs; i++) {
    const phase_rec *r = &p->recs[i];
    if (r->plugin[0] && (i == 0 || strcmp(p->recs[i - 1].plugin, r->plugin)))
      fprintf(e, "fabriclint:   plugin %-42s %9.3f s\n", r->plugin,
              plugin_secs(p, i));
    fprintf(e, "fabriclint:   %s%-*s %9.3f s %8.1f MiB\n",
            r->plugin[0] ? "  " : "", r->plugin[0] ? 47 : 49, r->label, r->secs,
            (double)r->maxrss_kib / 1024.0);
  }
  fprintf(e, "fabriclint:   %-49s %9.3f s\n", "total", since(&p->t0, &now));
  fprintf(e, "fabriclint: peak memory %.1f MiB (ru_maxrss %ld KiB)\n",
          (double)ru.ru_maxrss / 1024.0, ru.ru_maxrss);
  fflush(e);
  pthread_mutex_unlock(&p->mu);
}

void fl_cli_progress_free(fl_cli_progress *p) {
  if (!p)
    return;
  pthread_mutex_lock(&p->mu);
  p->stop = 1;
  pthread_cond_signal(&p->cv);
  erase_locked(p);
  pthread_mutex_unlock(&p->mu);
  if (p->beat_running)
    pthread_join(p->beat, NULL);
  pthread_mutex_destroy(&p->mu);
  pthread_cond_destroy(&p->cv);
  free(p->recs);
  free(p);
}
