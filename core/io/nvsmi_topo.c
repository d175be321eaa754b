/* SPDX-License-Identifier: MIT */
/*
 * core/io/nvsmi_topo.c — `nvidia-smi topo -m` (the GPU/NIC topology
 * matrix) as a host profile (model/hostprof.h; docs/formats/nvidia-smi-
 * topo.md has the grammar and the quirks seen).
 *
 * The output is a header of device labels (GPU0.., then NIC0.. with a
 * "NIC Legend:" naming them, or, before driver 470-ish, the RDMA device
 * names themselves: mlx5_0) followed by the affinity column titles ("CPU
 * Affinity", "NUMA Affinity", "GPU NUMA ID"); one row per device: its label,
 * one cell per device (X on the diagonal, NV# between GPUs joined by NVLink,
 * else the PCIe class PIX/PXB/PHB/NODE/SYS, SOC in old drivers), then the
 * affinity values (empty for NICs); then "Legend:" and its `KEY = text`
 * lines, and "NIC Legend:" with `NICk: name` lines. Cells are separated by
 * tabs in the tool's output and by runs of spaces where it went through a
 * terminal or Markdown, so cells are read as blank-separated tokens (no
 * cell holds a blank; the affinity titles do, and are matched as words);
 * the header may be underlined with ANSI escapes (skipped). Every line is
 * either parsed or refused with file:line:col.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/formats.h"
#include "io/loaders.h"
#include "io/textscan.h"
#include "model/hostprof.h"

#define MAX_DEV 512
#define MAX_TOK (MAX_DEV + 16)

typedef struct tok {
  const char *s;
  uint32_t n, col;
} tok;

/* Split [p, e) into blank-separated tokens (ANSI escapes count as blanks);
 * returns the count, at most @max (the rest is counted but not stored). */
static uint32_t tokens(const char *line, const char *e, tok *t, uint32_t max) {
  uint32_t n = 0;
  const char *p = line;
  while (p < e) {
    if (*p == '\x1b') { /* ESC [ params letter */
      p++;
      if (p < e && *p == '[')
        p++;
      while (p < e && ((*p >= '0' && *p <= '9') || *p == ';'))
        p++;
      if (p < e)
        p++;
      continue;
    }
    if (is_blank(*p) || *p == '\r') {
      p++;
      continue;
    }
    const char *b = p;
    while (p < e && !is_blank(*p) && *p != '\r' && *p != '\x1b')
      p++;
    if (n < max)
      t[n] = (tok){b, (uint32_t)(p - b), (uint32_t)(b - line) + 1};
    n++;
  }
  return n;
}

static int tok_is(const tok *t, const char *s) {
  return t->n == strlen(s) && memcmp(t->s, s, t->n) == 0;
}

/* "GPU<n>": 1 and *@idx = n. */
static int gpu_label(const tok *t, uint32_t *idx) {
  if (t->n < 4 || t->n > 8 || memcmp(t->s, "GPU", 3) != 0)
    return 0;
  uint32_t v = 0;
  for (uint32_t i = 3; i < t->n; i++) {
    if (t->s[i] < '0' || t->s[i] > '9')
      return 0;
    v = v * 10 + (uint32_t)(t->s[i] - '0');
  }
  *idx = v;
  return 1;
}

/* The PCIe class of a cell, 0 for X, -1 for NV#, -2 for anything else. */
static int cell_class(const tok *t) {
  static const struct {
    const char *s;
    int c;
  } K[] = {{"PIX", FL_PCI_PIX},
           {"PXB", FL_PCI_PXB},
           {"PHB", FL_PCI_PHB},
           {"NODE", FL_PCI_NODE},
           {"SYS", FL_PCI_SYS},
           {"SOC", FL_PCI_SYS},
           {"X", 0}};
  for (size_t i = 0; i < sizeof K / sizeof *K; i++)
    if (tok_is(t, K[i].s))
      return K[i].c;
  if (t->n >= 3 && t->s[0] == 'N' && t->s[1] == 'V') {
    for (uint32_t i = 2; i < t->n; i++)
      if (t->s[i] < '0' || t->s[i] > '9')
        return -2;
    return -1;
  }
  return -2;
}

/* An affinity column title starts at token @i: "CPU Affinity", "NUMA
 * Affinity", "GPU NUMA ID". */
static int affinity_title(const tok *t, uint32_t i, uint32_t n) {
  if (i + 1 >= n)
    return 0;
  return ((tok_is(&t[i], "CPU") || tok_is(&t[i], "NUMA")) &&
          tok_is(&t[i + 1], "Affinity")) ||
         (tok_is(&t[i], "GPU") && tok_is(&t[i + 1], "NUMA"));
}

typedef struct smi {
  const char *path;
  fl_error *err;
  uint32_t line;
  uint32_t n_dev;
  tok dev[MAX_DEV]; /* header labels (point into the input) */
  uint32_t dev_col[MAX_DEV];
  int gpu_idx[MAX_DEV];       /* GPU index, -1 for a NIC */
  uint32_t row_line[MAX_DEV]; /* line of each device's row, 0 none */
  int8_t *cell;               /* n_dev x n_dev classes (0 X, -1 NV#) */
  uint32_t *cell_col;         /* column of each cell */
  char *legend[MAX_DEV];      /* NIC Legend name per device (owned) */
  uint32_t legend_line;       /* line of "NIC Legend:", 0 none */
} smi;

static int fail(smi *s, uint32_t col, const char *what, const char *a) {
  return fl_error_set(s->err, FL_EPARSE, s->path, s->line, col, what, a);
}

static int32_t find_dev(const smi *s, const tok *t) {
  for (uint32_t i = 0; i < s->n_dev; i++)
    if (s->dev[i].n == t->n && memcmp(s->dev[i].s, t->s, t->n) == 0)
      return (int32_t)i;
  return -1;
}

static int header(smi *s, const tok *t, uint32_t n) {
  uint32_t i = 0;
  for (; i < n && !affinity_title(t, i, n); i++) {
    if (i >= MAX_DEV)
      return fail(s, t[i].col, "more than %s devices in the header", "512");
    s->dev[i] = t[i];
    s->dev_col[i] = t[i].col;
    uint32_t g;
    s->gpu_idx[i] = gpu_label(&t[i], &g) ? (int)g : -1;
    s->n_dev = i + 1;
    for (uint32_t k = 0; k < i; k++)
      if (s->dev[k].n == t[i].n && memcmp(s->dev[k].s, t[i].s, t[i].n) == 0)
        return fl_error_set(s->err, FL_EPARSE, s->path, s->line, t[i].col,
                            "device label %.*s appears twice in the header",
                            (int)t[i].n, t[i].s);
  }
  if (n > MAX_TOK)
    return fail(s, 1, "%s", "header line has too many columns");
  size_t nn = (size_t)s->n_dev * s->n_dev;
  s->cell = calloc(nn ? nn : 1, 1);
  s->cell_col = calloc(nn ? nn : 1, sizeof *s->cell_col);
  if (!s->cell || !s->cell_col)
    return fl_error_set(s->err, FL_ENOMEM, s->path, 0, 0, "out of memory");
  return FL_OK;
}

static int row(smi *s, const tok *t, uint32_t n, int32_t d) {
  if (s->row_line[d])
    return fl_error_set(s->err, FL_EPARSE, s->path, s->line, t[0].col,
                        "a second row for %.*s (expected each device once)",
                        (int)t[0].n, t[0].s);
  s->row_line[d] = s->line;
  if (n < s->n_dev + 1)
    return fail(s, n ? t[n - 1].col + t[n - 1].n : 1,
                "row has fewer cells than the header has devices (expected "
                "X, NV#, PIX, PXB, PHB, NODE or SYS per device)%s",
                "");
  for (uint32_t k = 0; k < s->n_dev; k++) {
    const tok *c = &t[k + 1];
    int cls = cell_class(c);
    size_t at = (size_t)d * s->n_dev + k;
    s->cell[at] = (int8_t)cls;
    s->cell_col[at] = c->col;
    if (cls == -2)
      return fl_error_set(s->err, FL_EPARSE, s->path, s->line, c->col,
                          "cell \"%.*s\" is not X, NV#, PIX, PXB, PHB, NODE "
                          "or SYS",
                          (int)c->n, c->s);
    if ((cls == 0) != ((uint32_t)d == k))
      return fl_error_set(s->err, FL_EPARSE, s->path, s->line, c->col,
                          "%s on the diagonal and nowhere else (row %.*s, "
                          "column %.*s)",
                          cls == 0 ? "X belongs" : "expected X", (int)t[0].n,
                          t[0].s, (int)s->dev[k].n, s->dev[k].s);
    if (cls == -1 && (s->gpu_idx[d] < 0 || s->gpu_idx[k] < 0))
      return fl_error_set(s->err, FL_EPARSE, s->path, s->line, c->col,
                          "NVLink (%.*s) between a GPU and a NIC: expected a "
                          "PCIe class (PIX, PXB, PHB, NODE, SYS)",
                          (int)c->n, c->s);
  }
  return FL_OK;
}

/* "  NICk: name" of the NIC Legend. */
static int legend_entry(smi *s, const tok *t, uint32_t n) {
  if (n != 2 || t[0].n < 2 || t[0].s[t[0].n - 1] != ':')
    return fail(s, n ? t[0].col : 1,
                "expected a NIC Legend line `NICk: device`%s", "");
  tok lab = {t[0].s, t[0].n - 1, t[0].col};
  int32_t d = find_dev(s, &lab);
  if (d < 0 || s->gpu_idx[d] >= 0)
    return fl_error_set(s->err, FL_EPARSE, s->path, s->line, t[0].col,
                        "%.*s is not a NIC column of the header", (int)lab.n,
                        lab.s);
  if (s->legend[d])
    return fl_error_set(s->err, FL_EPARSE, s->path, s->line, t[0].col,
                        "%.*s is named twice in the NIC Legend", (int)lab.n,
                        lab.s);
  s->legend[d] = strndup(t[1].s, t[1].n);
  return s->legend[d]
             ? FL_OK
             : fl_error_set(s->err, FL_ENOMEM, s->path, 0, 0, "out of memory");
}

/* A line of the matrix legend: "KEY = text" (e.g. "X    = Self"). */
static int legend_line(const tok *t, uint32_t n) {
  return n >= 3 && tok_is(&t[1], "=");
}

enum { ST_HEAD, ST_ROWS, ST_LEGEND, ST_NICS };

static int parse_line(smi *s, int *st, const char *p, const char *e) {
  tok t[MAX_TOK];
  uint32_t n = tokens(p, e, t, MAX_TOK);
  if (n == 0)
    return FL_OK;
  if (n > MAX_TOK)
    return fail(s, 1, "%s", "line has too many columns");
  if (*st == ST_HEAD) {
    *st = ST_ROWS;
    return header(s, t, n);
  }
  if (n == 1 && tok_is(&t[0], "Legend:")) {
    *st = ST_LEGEND;
    return FL_OK;
  }
  if (n == 2 && tok_is(&t[0], "NIC") && tok_is(&t[1], "Legend:")) {
    *st = ST_NICS;
    s->legend_line = s->line;
    return FL_OK;
  }
  if (*st == ST_ROWS) {
    int32_t d = find_dev(s, &t[0]);
    if (d < 0)
      return fl_error_set(s->err, FL_EPARSE, s->path, s->line, t[0].col,
                          "\"%.*s\" is not a device of the header (expected "
                          "a matrix row or \"Legend:\")",
                          (int)t[0].n, t[0].s);
    return row(s, t, n, d);
  }
  if (*st == ST_LEGEND)
    return legend_line(t, n) ? FL_OK
                             : fail(s, t[0].col,
                                    "expected a legend line `KEY = meaning` "
                                    "or \"NIC Legend:\"%s",
                                    "");
  return legend_entry(s, t, n);
}

/* The checks that need every line: rows, names, symmetry. */
static int check_all(smi *s, uint32_t *n_gpus, uint32_t *n_nics) {
  *n_gpus = *n_nics = 0;
  for (uint32_t d = 0; d < s->n_dev; d++) {
    s->line = 0;
    if (s->gpu_idx[d] >= 0 && !s->row_line[d])
      return fl_error_set(s->err, FL_EPARSE, s->path, 1, s->dev_col[d],
                          "%.*s has no row in the matrix", (int)s->dev[d].n,
                          s->dev[d].s);
    if (s->gpu_idx[d] >= 0) {
      (*n_gpus)++;
      continue;
    }
    (*n_nics)++;
    int nic_label = s->dev[d].n > 3 && memcmp(s->dev[d].s, "NIC", 3) == 0;
    if (nic_label && !s->legend[d])
      return fl_error_set(s->err, FL_EPARSE, s->path, 1, s->dev_col[d],
                          "%.*s is not named in a \"NIC Legend:\" (expected "
                          "a line `%.*s: mlx5_N`)",
                          (int)s->dev[d].n, s->dev[d].s, (int)s->dev[d].n,
                          s->dev[d].s);
    for (uint32_t g = 0; s->row_line[d] && g < s->n_dev; g++) {
      int8_t a = s->cell[(size_t)d * s->n_dev + g];
      int8_t b = s->cell[(size_t)g * s->n_dev + d];
      if (s->gpu_idx[g] >= 0 && a != b)
        return fl_error_set(
            s->err, FL_EPARSE, s->path, s->row_line[d],
            s->cell_col[(size_t)d * s->n_dev + g],
            "row %.*s gives %.*s a different PCIe class than row %.*s gives "
            "%.*s (the matrix is symmetric)",
            (int)s->dev[d].n, s->dev[d].s, (int)s->dev[g].n, s->dev[g].s,
            (int)s->dev[g].n, s->dev[g].s, (int)s->dev[d].n, s->dev[d].s);
    }
  }
  if (*n_gpus == 0 || *n_nics == 0)
    return fl_error_set(s->err, FL_EPARSE, s->path, 1, 1,
                        "the matrix has no %s column: there is no GPU<->NIC "
                        "affinity to read (is the RDMA driver loaded?)",
                        *n_gpus == 0 ? "GPU" : "NIC");
  return FL_OK;
}

static int build(smi *s, fl_fabric *fab) {
  uint32_t ng, nn;
  int rc = check_all(s, &ng, &nn);
  fl_hostprof p;
  if (rc == FL_OK && fl_hostprof_init(&p, ng, nn) != FL_OK)
    rc = fl_error_set(s->err, FL_ENOMEM, s->path, 0, 0, "out of memory");
  if (rc != FL_OK)
    return rc;
  uint32_t gi = 0, ni = 0;
  for (uint32_t d = 0; d < s->n_dev && rc == FL_OK; d++) {
    if (s->gpu_idx[d] >= 0) {
      p.gpu[gi++] = (uint32_t)s->gpu_idx[d];
      continue;
    }
    p.nic[ni] =
        s->legend[d] ? strdup(s->legend[d]) : strndup(s->dev[d].s, s->dev[d].n);
    if (!p.nic[ni])
      rc = fl_error_set(s->err, FL_ENOMEM, s->path, 0, 0, "out of memory");
    for (uint32_t k = 0; k < ni && rc == FL_OK; k++)
      if (strcmp(p.nic[k], p.nic[ni]) == 0)
        rc = fl_error_set(s->err, FL_EPARSE, s->path, s->legend_line, 0,
                          "NIC %s is named twice", p.nic[ni]);
    gi = 0;
    for (uint32_t g = 0; g < s->n_dev; g++)
      if (s->gpu_idx[g] >= 0)
        p.dist[(size_t)gi++ * nn + ni] =
            (uint8_t)s->cell[(size_t)g * s->n_dev + d];
    ni++;
  }
  if (rc == FL_OK)
    rc = fl_b_hostprof_add(fab, s->path, &p, s->err);
  fl_hostprof_free(&p);
  return rc;
}

int fl_load_nvsmi_topo(fl_fabric *fab, const fl_input *in,
                       const fl_load_options *opts, fl_error *err) {
  (void)opts;
  smi *s = calloc(1, sizeof *s);
  if (!s)
    return fl_error_set(err, FL_ENOMEM, in->path, 0, 0, "out of memory");
  s->path = in->path;
  s->err = err;
  int st = ST_HEAD, rc = FL_OK;
  const char *p = in->buf, *end = in->buf + in->len;
  if (in->len >= 3 && memcmp(p, "\xef\xbb\xbf", 3) == 0)
    p += 3;
  while (p < end && rc == FL_OK) {
    const char *e = memchr(p, '\n', (size_t)(end - p));
    if (!e)
      e = end;
    s->line++;
    rc = parse_line(s, &st, p, e);
    p = e + 1;
  }
  if (rc == FL_OK && st == ST_HEAD)
    rc = fl_error_set(err, FL_EPARSE, in->path, 1, 1,
                      "no matrix header (expected GPU0 ... labels)");
  if (rc == FL_OK)
    rc = build(s, fab);
  for (uint32_t d = 0; d < MAX_DEV; d++)
    free(s->legend[d]);
  free(s->cell);
  free(s->cell_col);
  free(s);
  return rc;
}

/* Recognised by its first non-blank line: device labels starting with
 * GPU0, and the next non-blank line starting with GPU0 (the first row). */
static uint32_t detect_nvsmi_topo(const fl_detect_ctx *c, fl_error *err) {
  (void)err;
  if (c->xml_root)
    return FL_FMT_AUTO;
  const char *p = c->text, *end = c->text + c->len;
  tok t[4];
  int seen = 0;
  while (p < end && seen < 2) {
    const char *e = memchr(p, '\n', (size_t)(end - p));
    if (!e)
      e = end;
    uint32_t n = tokens(p, e, t, 4);
    p = e + 1;
    if (n == 0)
      continue;
    if (!tok_is(&t[0], "GPU0") || (seen == 0 && n < 2) ||
        (seen == 0 && !tok_is(&t[1], "GPU1") &&
         !affinity_title(t, 1, n < 4 ? n : 4) &&
         !(t[1].n > 3 &&
           (memcmp(t[1].s, "NIC", 3) == 0 || memcmp(t[1].s, "mlx", 3) == 0))))
      return FL_FMT_AUTO;
    seen++;
  }
  return seen == 2 ? FL_FMT_NVSMI_TOPO : FL_FMT_AUTO;
}

const fl_format_def fl_fmt_nvsmi_topo = {
    FL_FMT_NVSMI_TOPO,
    "nvidia-smi-topo",
    "nvsmi-topo",
    0,
    fl_load_nvsmi_topo,
    detect_nvsmi_topo,
    "nvidia-smi topo -m output (a GPU0 ... NIC0 matrix)"};
