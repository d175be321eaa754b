/* SPDX-License-Identifier: MIT */
/*
 * core/io/nccl_tests.c — the nccl-tests output reader (nccl_tests.h):
 * one pass over the lines (the ibnetdiscover readers' line cursor,
 * ibnd_scan.h), each line's launcher prefix read past, then a data row,
 * a `#` line (ranks, column header, test name, a second run) or any other
 * line (searched for the test's program name and NCCL_ALGO).
 *
 * Errors name file:line:col and what was expected. Caps (nccl_tests.h):
 * FL_NCCL_MAX_ROWS rows, FL_NCCL_MAX_LINE bytes a line, FL_NCCL_MAX_RANKS
 * ranks.
 */
#include "io/nccl_tests.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "io/fileio.h"
#include "io/ibnd_scan.h"
#include "io/textscan.h"
#include "io/workload.h"
#include "model/hashmap.h"

#define MAX_TOK 16u /* a row has at most 5 + 2 × 4 = 13 columns */

/* The programs nccl-tests builds and the collective each measures. */
static const struct {
  const char *name;
  uint32_t op;
} TESTS[] = {
    {"all_reduce_perf", FL_WL_ALL_REDUCE},
    {"all_gather_perf", FL_WL_ALL_GATHER},
    {"reduce_scatter_perf", FL_WL_REDUCE_SCATTER},
    {"alltoall_perf", FL_WL_ALL_TO_ALL},
    {"sendrecv_perf", FL_WL_SENDRECV},
    {"broadcast_perf", 0},
    {"reduce_perf", 0},
    {"gather_perf", 0},
    {"scatter_perf", 0},
    {"hypercube_perf", 0},
};
#define N_TESTS (sizeof TESTS / sizeof TESTS[0])

uint32_t fl_nccl_test_op(const char *test) {
  for (size_t i = 0; i < N_TESTS; i++)
    if (strcmp(test, TESTS[i].name) == 0)
      return TESTS[i].op;
  return 0;
}

typedef struct rank_ent {
  uint32_t host; /* index into the host map, UINT32_MAX: not listed */
  uint32_t line;
} rank_ent;

typedef struct nt_state {
  pctx c;
  fl_nccl_log *log;
  size_t rows_cap;
  int header;        /* the column header was read */
  uint32_t hdr_lead; /* its columns before the first `time` */
  uint32_t hdr_sets; /* its `time` columns */
  uint32_t run_line; /* line of the `# nThread` line, 0: none yet */
  int test_strong;   /* test named by `# Collective test ...:` */
  int test_conflict; /* two programs named on other lines */
  rank_ent *rank;    /* by rank number */
  uint32_t rank_cap, rank_max;
  fl_strmap hosts;
} nt_state;

/* ---- tokens ------------------------------------------------------------- */

static const char *tok_end(const char *p, const char *e) {
  while (p < e && !is_blank(*p))
    p++;
  return p;
}

static int all_digits(const char *p, const char *e) {
  if (p == e)
    return 0;
  for (; p < e; p++)
    if (*p < '0' || *p > '9')
      return 0;
  return 1;
}

/* The blank-separated words of [p, e): at most @max, their count (more
 * than @max: @max + 1). */
static uint32_t split(const char *p, const char *e, const char **s,
                      const char **t, uint32_t max) {
  uint32_t n = 0;
  for (p = skip_ws(p, e); p < e; p = skip_ws(p, e)) {
    if (n == max)
      return max + 1;
    s[n] = p;
    p = tok_end(p, e);
    t[n++] = p;
  }
  return n;
}

/* The launcher's prefix of a line: mpirun --tag-output's `[1,0]<stdout>:`
 * (`<stderr>:` lines are skipped: *@skip = 1) and srun --label's `  0: `. */
static const char *unprefix(const char *p, const char *e, int *skip) {
  *skip = 0;
  if (p < e && *p == '[') {
    const char *q = p + 1;
    while (q < e && (isdigit((unsigned char)*q) || *q == ','))
      q++;
    if (starts_with(q, e, "]<stdout>:"))
      return q + 10;
    if (starts_with(q, e, "]<stderr>:")) {
      *skip = 1;
      return e;
    }
    return p;
  }
  const char *q = skip_ws(p, e), *d = q;
  while (q < e && isdigit((unsigned char)*q))
    q++;
  if (q > d && q < e && *q == ':' && (q + 1 == e || is_blank(q[1])))
    return q + 1 == e ? e : q + 2;
  return p;
}

/* ---- values -------------------------------------------------------------- */

static int u64_tok(const char *p, const char *e, uint64_t *v) {
  if (!all_digits(p, e) || e - p > 20)
    return 0;
  uint64_t x = 0;
  for (; p < e; p++) {
    uint64_t d = (uint64_t)(*p - '0');
    if (x > (UINT64_MAX - d) / 10)
      return 0;
    x = x * 10 + d;
  }
  *v = x;
  return 1;
}

/* A non-negative finite number, or N/A (NAN). */
static int num_tok(const char *p, const char *e, double *v) {
  if (e - p == 3 && memcmp(p, "N/A", 3) == 0) {
    *v = NAN;
    return 1;
  }
  char buf[64];
  if (e - p == 0 || e - p >= (long)sizeof buf)
    return 0;
  memcpy(buf, p, (size_t)(e - p));
  buf[e - p] = '\0';
  char *end;
  errno = 0;
  double d = strtod(buf, &end);
  if (*end || errno || !isfinite(d) || d < 0 || buf[0] == '+' ||
      isalpha((unsigned char)buf[0]))
    return 0;
  *v = d;
  return 1;
}

/* ---- rows ---------------------------------------------------------------- */

static const char *const SET_COLS[4] = {"time", "algbw", "busbw", "#wrong"};

static int row(nt_state *s, const char *p, const char *e) {
  pctx *c = &s->c;
  const char *ts[MAX_TOK], *te[MAX_TOK];
  uint32_t n = split(p, e, ts, te, MAX_TOK);
  uint32_t lead, sets;
  if (s->header) {
    lead = s->hdr_lead;
    sets = s->hdr_sets;
    uint32_t want = lead + 4 * sets;
    if (n < want)
      return perr(c, e,
                  "expected %u columns (size, count, type%s, then %s), found "
                  "%u: a column is missing",
                  want,
                  lead == 5   ? ", redop, root"
                  : lead == 4 ? ", redop or root"
                              : "",
                  sets == 2 ? "time, algbw, busbw, #wrong out-of-place and "
                              "in-place"
                            : "time, algbw, busbw, #wrong",
                  n);
    if (n > want)
      return perr(c, ts[want],
                  "expected %u columns as the column header names, found "
                  "more",
                  want);
  } else if (n >= 7 && n <= 9) {
    sets = 1;
    lead = n - 4;
  } else if (n >= 11 && n <= 13) {
    sets = 2;
    lead = n - 8;
  } else
    return perr(c, n > 0 ? ts[n < MAX_TOK ? n - 1 : MAX_TOK - 1] : p,
                "expected a data row: size, count, type, [redop], [root], "
                "then time, algbw, busbw, #wrong once or twice (7 to 9 or 11 "
                "to 13 columns), found %u",
                n);
  if (s->log->n_rows && (s->log->sets != sets || s->log->lead != lead))
    return perr(c, p, "this row has %u columns, the rows above %u",
                lead + 4 * sets, s->log->lead + 4 * s->log->sets);
  fl_nccl_row r;
  memset(&r, 0, sizeof r);
  r.line = c->lineno;
  if (!u64_tok(ts[0], te[0], &r.bytes))
    return perr(c, ts[0], "expected the size in bytes (a whole number)");
  if (!u64_tok(ts[1], te[1], &r.count))
    return perr(c, ts[1], "expected the count of elements (a whole number)");
  if (!isalpha((unsigned char)*ts[2]))
    return perr(c, ts[2], "expected the data type (float, half, ...)");
  for (uint32_t k = 0; k < 2; k++)
    r.time_us[k] = r.algbw[k] = r.busbw[k] = NAN;
  for (uint32_t set = 0; set < sets; set++)
    for (uint32_t j = 0; j < 4; j++) {
      uint32_t i = lead + 4 * set + j;
      double v;
      if (!num_tok(ts[i], te[i], &v))
        return perr(c, ts[i], "expected the %s%s (a number or N/A), got '%.*s'",
                    sets == 2 ? (set ? "in-place " : "out-of-place ") : "",
                    SET_COLS[j], EXCERPT(ts[i], te[i]));
      if (j == 0)
        r.time_us[set] = v;
      else if (j == 1)
        r.algbw[set] = v;
      else if (j == 2)
        r.busbw[set] = v;
    }
  fl_nccl_log *log = s->log;
  if (log->n_rows == FL_NCCL_MAX_ROWS)
    return perr(c, p, "more than %u data rows (the cap of one log)",
                FL_NCCL_MAX_ROWS);
  if (log->n_rows == s->rows_cap) {
    size_t cap = s->rows_cap ? 2 * s->rows_cap : 64;
    fl_nccl_row *nr = realloc(log->rows, cap * sizeof *nr);
    if (!nr)
      return oom(c);
    log->rows = nr;
    s->rows_cap = cap;
  }
  log->rows[log->n_rows++] = r;
  log->sets = sets;
  log->lead = lead;
  return FL_OK;
}

/* A row's signature before the column header: a number, a number, a word. */
static int looks_like_row(const char *p, const char *e) {
  const char *ts[3], *te[3];
  uint32_t n = split(p, e, ts, te, 3);
  return n >= 3 && all_digits(ts[0], te[0]) && all_digits(ts[1], te[1]) &&
         isalpha((unsigned char)*ts[2]);
}

/* ---- `#` lines ----------------------------------------------------------- */

static int rank_line(nt_state *s, const char *p, const char *e) {
  pctx *c = &s->c;
  const char *ts[MAX_TOK], *te[MAX_TOK];
  uint32_t n = split(p, e, ts, te, MAX_TOK - 1);
  uint64_t rk;
  if (n < 2 || !u64_tok(ts[1], te[1], &rk))
    return perr(c, n > 1 ? ts[1] : e, "expected the rank number after `Rank`");
  if (rk >= FL_NCCL_MAX_RANKS)
    return perr(c, ts[1], "rank %.*s%s: at most %u ranks are read",
                NUMQ(ts[1], te[1]), FL_NCCL_MAX_RANKS);
  uint32_t on = 0, filled = n < MAX_TOK - 1 ? n : MAX_TOK - 1;
  for (uint32_t i = 2; i + 1 < filled; i++)
    if (te[i] - ts[i] == 2 && memcmp(ts[i], "on", 2) == 0) {
      on = i;
      break;
    }
  if (!on)
    return perr(c, e, "expected `on HOST` in the rank line");
  const char *h = ts[on + 1], *he = te[on + 1];
  if (he - h > 255)
    return perr(c, h, "host name longer than 255 bytes");
  if (rk >= s->rank_cap) {
    uint32_t cap = s->rank_cap ? s->rank_cap : 64;
    while (cap <= rk)
      cap *= 2;
    rank_ent *nr = realloc(s->rank, cap * sizeof *nr);
    if (!nr)
      return oom(c);
    for (uint32_t i = s->rank_cap; i < cap; i++)
      nr[i].host = UINT32_MAX;
    s->rank = nr;
    s->rank_cap = cap;
  }
  if (s->rank[rk].host != UINT32_MAX)
    return perr(c, ts[1],
                "rank %u listed twice (first on line %u): one run's output "
                "per log (two runs, or processes that did not join one MPI "
                "job?)",
                (unsigned)rk, s->rank[rk].line);
  uint32_t id = fl_strmap_put(&s->hosts, h, (size_t)(he - h),
                              (uint32_t)fl_strmap_len(&s->hosts));
  if (id == FL_MAP_ABSENT)
    return oom(c);
  s->rank[rk].host = id;
  s->rank[rk].line = c->lineno;
  if (rk + 1 > s->rank_max)
    s->rank_max = (uint32_t)rk + 1;
  return FL_OK;
}

/* `#  size  count  type  redop  root  time ...`: the columns. */
static void header_line(nt_state *s, const char *p, const char *e) {
  const char *ts[MAX_TOK], *te[MAX_TOK];
  uint32_t n = split(p, e, ts, te, MAX_TOK);
  uint32_t lead = 0, sets = 0;
  for (uint32_t i = 0; i < n && i < MAX_TOK; i++)
    if (te[i] - ts[i] == 4 && memcmp(ts[i], "time", 4) == 0) {
      if (!sets)
        lead = i;
      sets++;
    }
  if (sets >= 1 && sets <= 2 && lead >= 3 && lead <= 5) {
    s->header = 1;
    s->hdr_lead = lead;
    s->hdr_sets = sets;
  }
}

static void set_test(nt_state *s, const char *p, const char *e, int strong) {
  fl_nccl_log *log = s->log;
  size_t n = (size_t)(e - p);
  if (s->test_strong && !strong)
    return;
  if (!strong && log->test[0] &&
      (strlen(log->test) != n || memcmp(log->test, p, n) != 0)) {
    s->test_conflict = 1;
    return;
  }
  if (strong && !s->test_strong)
    s->test_conflict = 0;
  if (n >= sizeof log->test)
    return;
  memcpy(log->test, p, n);
  log->test[n] = '\0';
  log->test_line = s->c.lineno;
  s->test_strong |= strong;
}

/* Every `<word>_perf` of [p, e) that names an nccl-tests program (with any
 * suffix such as _mpi after it). */
static void find_tests(nt_state *s, const char *p, const char *e, int strong) {
  for (const char *q = p; q + 5 <= e; q++) {
    if (memcmp(q, "_perf", 5) != 0)
      continue;
    const char *w = q, *we = q + 5;
    while (w > p && (islower((unsigned char)w[-1]) || w[-1] == '_'))
      w--;
    if (we < e && (isalnum((unsigned char)*we) && *we != '_'))
      continue;
    if (we < e && *we == '_' && !starts_with(we, e, "_mpi"))
      continue;
    for (size_t i = 0; i < N_TESTS; i++)
      if (strlen(TESTS[i].name) == (size_t)(we - w) &&
          memcmp(TESTS[i].name, w, (size_t)(we - w)) == 0)
        set_test(s, w, we, strong);
  }
}

/* NCCL_ALGO=VALUE (a command line, an export) or NCCL's own
 * `NCCL_ALGO set by environment to VALUE`: the first one the log shows. */
static void find_algo(nt_state *s, const char *p, const char *e) {
  fl_nccl_log *log = s->log;
  if (log->algo[0])
    return;
  for (const char *q = p; q + 9 <= e; q++) {
    if (memcmp(q, "NCCL_ALGO", 9) != 0)
      continue;
    const char *v;
    if (starts_with(q + 9, e, "="))
      v = q + 10;
    else if (starts_with(q + 9, e, " set by environment to "))
      v = q + 9 + 23;
    else
      continue;
    const char *ve = v;
    while (ve < e && (isalnum((unsigned char)*ve) || *ve == '_' || *ve == ',' ||
                      *ve == '^' || *ve == ':' || *ve == ';'))
      ve++;
    if (ve == v || (size_t)(ve - v) >= sizeof log->algo)
      continue;
    memcpy(log->algo, v, (size_t)(ve - v));
    log->algo[ve - v] = '\0';
    log->algo_line = s->c.lineno;
    return;
  }
}

static int comment(nt_state *s, const char *p, const char *e) {
  pctx *c = &s->c;
  const char *q = skip_ws(p + 1, e);
  if (starts_with(q, e, "Rank ")) {
    if (s->log->n_rows)
      return perr(c, q,
                  "a rank line after the data rows: one run's output "
                  "per log");
    return rank_line(s, q, e);
  }
  if (starts_with(q, e, "nThread ")) {
    if (s->run_line)
      return perr(c, q,
                  "a second run begins here (the first on line %u): one "
                  "run's output per log",
                  s->run_line);
    s->run_line = c->lineno;
    return FL_OK;
  }
  if (starts_with(q, e, "size ") || starts_with(q, e, "size\t")) {
    header_line(s, q, e);
    return FL_OK;
  }
  if (starts_with(q, e, "Collective test starting:") ||
      starts_with(q, e, "Collective test concluded:")) {
    find_tests(s, q, e, 1);
    return FL_OK;
  }
  find_algo(s, q, e);
  return FL_OK;
}

/* ---- the pass ------------------------------------------------------------ */

static int line(nt_state *s) {
  pctx *c = &s->c;
  if ((size_t)(c->le - c->ls) > FL_NCCL_MAX_LINE)
    return perr(c, c->ls + FL_NCCL_MAX_LINE,
                "line longer than %u bytes (the cap of one line)",
                FL_NCCL_MAX_LINE);
  int skip;
  const char *p = unprefix(c->ls, c->le, &skip), *e = c->le;
  if (skip)
    return FL_OK;
  p = skip_ws(p, e);
  if (p == e)
    return FL_OK;
  if (*p == '#')
    return comment(s, p, e);
  const char *w = tok_end(p, e);
  if (all_digits(p, w) && (s->header || looks_like_row(p, e)))
    return row(s, p, e);
  find_tests(s, p, e, 0);
  find_algo(s, p, e);
  return FL_OK;
}

/* Ranks 0..n-1 each listed once; hosts in rank order. */
static int finish_ranks(nt_state *s) {
  fl_nccl_log *log = s->log;
  if (!s->rank_max)
    return FL_OK;
  for (uint32_t r = 0; r < s->rank_max; r++)
    if (s->rank[r].host == UINT32_MAX)
      return fl_error_set(s->c.err, FL_EPARSE, s->c.path,
                          s->rank[s->rank_max - 1].line, 0,
                          "rank %u is missing from the `# Rank` lines "
                          "(ranks up to %u are listed)",
                          r, s->rank_max - 1);
  size_t nh = fl_strmap_len(&s->hosts);
  uint32_t *order = malloc(nh * sizeof *order);
  log->hosts = calloc(nh, sizeof *log->hosts);
  log->host_ranks = calloc(nh, sizeof *log->host_ranks);
  if (!order || !log->hosts || !log->host_ranks) {
    free(order);
    return oom(&s->c);
  }
  for (size_t h = 0; h < nh; h++)
    order[h] = UINT32_MAX;
  for (uint32_t r = 0; r < s->rank_max; r++) {
    uint32_t h = s->rank[r].host;
    if (order[h] == UINT32_MAX) {
      order[h] = (uint32_t)log->n_hosts;
      log->hosts[log->n_hosts] = strdup(fl_strmap_key(&s->hosts, h));
      if (!log->hosts[log->n_hosts++]) {
        free(order);
        return oom(&s->c);
      }
    }
    log->host_ranks[order[h]]++;
  }
  free(order);
  log->ranks = s->rank_max;
  return FL_OK;
}

int fl_nccl_log_parse(fl_nccl_log *log, const char *name, const char *buf,
                      size_t len, fl_error *err) {
  memset(log, 0, sizeof *log);
  log->path = strdup(name);
  nt_state *s = calloc(1, sizeof *s);
  if (!log->path || !s) {
    free(s);
    return fl_error_set(err, FL_ENOMEM, name, 0, 0, "out of memory");
  }
  s->log = log;
  /* text only: a NUL would cut a host name short (fl_nccl_log_load's
   * FL_IN_TEXT refuses it before; a caller of parse may not) */
  fl_input in = {.path = log->path, .buf = (char *)buf, .len = len};
  int nul = fl_input_nul_check(&in, err);
  if (nul != FL_OK) {
    free(s);
    return nul;
  }
  text t = {(char *)buf, len};
  size_t bom = fl_utf8_bom(buf, len);
  t.buf += bom;
  t.len -= bom;
  pctx_init(&s->c, NULL, log->path, &t, err);
  int rc = FL_OK;
  while (rc == FL_OK && next_line(&s->c))
    rc = line(s);
  if (rc == FL_OK)
    rc = finish_ranks(s);
  if (rc == FL_OK && log->n_rows == 0)
    rc = fl_error_set(err, FL_EPARSE, log->path, s->c.lineno, 0,
                      "no data row: expected nccl-tests output, rows of "
                      "size, count, type, ..., time, algbw, busbw (the "
                      "output of all_reduce_perf and the like)");
  if (rc == FL_OK && s->test_conflict)
    log->test[0] = '\0', log->test_line = 0;
  free(s->rank);
  fl_strmap_free(&s->hosts);
  free(s);
  return rc;
}

int fl_nccl_log_load(fl_nccl_log *log, const char *path, fl_error *err) {
  memset(log, 0, sizeof *log);
  fl_input in;
  int rc = fl_input_read(&in, path, "nccl-tests log", FL_IN_TEXT, err);
  if (rc != FL_OK)
    return rc;
  rc = fl_nccl_log_parse(log, path, in.buf, in.len, err);
  fl_input_free(&in);
  return rc;
}

void fl_nccl_log_free(fl_nccl_log *log) {
  if (!log)
    return;
  for (size_t h = 0; h < log->n_hosts; h++)
    free(log->hosts[h]);
  free(log->hosts);
  free(log->host_ranks);
  free(log->rows);
  free(log->path);
  memset(log, 0, sizeof *log);
}
