/* SPDX-License-Identifier: MIT */
/* core/util/csv.c — the RFC 4180 record reader (csv.h). */
#include "util/csv.h"

#include <stdlib.h>
#include <string.h>

void fl_csv_init(fl_csv *r, char sep, size_t max_cells, unsigned flags) {
  memset(r, 0, sizeof *r);
  r->sep = sep;
  r->max_cells = max_cells ? max_cells : 1;
  r->flags = flags;
}

void fl_csv_start(fl_csv *r, const char *text, size_t len) {
  r->p = r->line0 = text;
  r->e = text + len;
  r->cur_line = 1;
  r->n = r->used = 0;
  if ((r->flags & FL_CSV_BOM) && len >= 3 &&
      memcmp(text, "\xef\xbb\xbf", 3) == 0)
    r->p += 3, r->line0 += 3; /* a spreadsheet export's byte order mark */
}

void fl_csv_free(fl_csv *r) {
  free(r->c);
  free(r->buf);
  r->c = NULL, r->buf = NULL;
  r->n = r->c_cap = r->used = r->cap = 0;
}

char *fl_csv_cell_text(const fl_csv *r, size_t i) {
  return i < r->n ? r->buf + r->c[i].off : NULL;
}

static int is_blank(char c) {
  return c == ' ' || c == '\t';
}

static int put(fl_csv *r, char ch) {
  if (r->used == r->cap) {
    size_t cap = r->cap ? 2 * r->cap : 256;
    char *b = realloc(r->buf, cap);
    if (!b)
      return FL_CSV_ENOMEM;
    r->buf = b, r->cap = cap;
  }
  r->buf[r->used++] = ch;
  return 0;
}

static fl_csv_cell *new_cell(fl_csv *r) {
  if (r->n == r->c_cap) {
    size_t cap = r->c_cap ? 2 * r->c_cap : 16;
    if (cap > r->max_cells)
      cap = r->max_cells;
    if (cap > SIZE_MAX / sizeof(fl_csv_cell))
      return NULL;
    fl_csv_cell *c = realloc(r->c, cap * sizeof *c);
    if (!c)
      return NULL;
    r->c = c, r->c_cap = cap;
  }
  fl_csv_cell *c = &r->c[r->n++];
  c->off = r->used;
  c->line = r->cur_line;
  c->col = (uint32_t)(r->p - r->line0) + 1;
  c->quoted = r->p < r->e && *r->p == '"';
  return c;
}

/* The quoted part of cell @c, the opening quote at r->p: into r->buf. */
static int quoted(fl_csv *r, const fl_csv_cell *c) {
  r->p++;
  for (;;) {
    if (r->p >= r->e) {
      r->err_line = c->line, r->err_col = c->col;
      return FL_CSV_EQUOTE;
    }
    char ch = *r->p++;
    if (ch == '"') {
      if (r->p < r->e && *r->p == '"')
        r->p++;
      else
        return 0;
    } else if (ch == '\n') {
      r->cur_line++;
      r->line0 = r->p;
    }
    if (put(r, ch) != 0)
      return FL_CSV_ENOMEM;
  }
}

/* After a closing quote, at r->p: with FL_CSV_TRIM blanks skipped; text
 * before the separator or line end dropped (FL_CSV_DROP_AFTER_QUOTE),
 * refused (FL_CSV_STRICT_QUOTE) or left to be kept. A "\r" ending the
 * line is no text. */
static int after_quote(fl_csv *r) {
  if (r->flags & FL_CSV_TRIM)
    while (r->p < r->e && is_blank(*r->p))
      r->p++;
  const char *q = r->p;
  if (q < r->e && *q == '\r' && (q + 1 >= r->e || q[1] == '\n'))
    q++;
  if (q >= r->e || *q == r->sep || *q == '\n')
    return 0;
  if (r->flags & FL_CSV_STRICT_QUOTE) {
    r->err_line = r->cur_line;
    r->err_col = (uint32_t)(r->p - r->line0) + 1;
    return FL_CSV_EAFTER;
  }
  if (r->flags & FL_CSV_DROP_AFTER_QUOTE)
    while (r->p < r->e && *r->p != r->sep && *r->p != '\n')
      r->p++;
  return 0;
}

/* The rest of cell @c up to the separator or line end, and its end. */
static int finish_cell(fl_csv *r, fl_csv_cell *c) {
  if (c->quoted) {
    int rc = after_quote(r);
    if (rc)
      return rc;
  }
  while (r->p < r->e && *r->p != r->sep && *r->p != '\n')
    if (put(r, *r->p++) != 0)
      return FL_CSV_ENOMEM;
  c->len = r->used - c->off;
  if (c->len && r->buf[c->off + c->len - 1] == '\r' &&
      (r->p >= r->e || *r->p == '\n'))
    c->len--, r->used--;
  if ((r->flags & FL_CSV_TRIM) && !c->quoted)
    while (c->len && is_blank(r->buf[c->off + c->len - 1]))
      c->len--, r->used--;
  return put(r, '\0');
}

int fl_csv_next(fl_csv *r) {
  r->n = r->used = 0;
  r->line = r->cur_line;
  if (!r->p || r->p >= r->e)
    return 0;
  for (;;) {
    if (r->n == r->max_cells) {
      r->err_line = r->cur_line;
      r->err_col = (uint32_t)(r->p - r->line0) + 1;
      return FL_CSV_ECELLS;
    }
    if (r->flags & FL_CSV_TRIM)
      while (r->p < r->e && is_blank(*r->p))
        r->p++;
    fl_csv_cell *c = new_cell(r);
    if (!c)
      return FL_CSV_ENOMEM;
    int rc = c->quoted ? quoted(r, c) : 0;
    if (rc == 0)
      rc = finish_cell(r, c);
    if (rc)
      return rc;
    if (r->p < r->e && *r->p == r->sep) {
      r->p++;
      continue;
    }
    const char *end = r->p; /* "\n" or the end of the input */
    if (end > r->line0 && end[-1] == '\r')
      end--;
    r->end_col = (uint32_t)(end - r->line0) + 1;
    if (r->p < r->e) { /* "\n" */
      r->p++;
      r->cur_line++;
      r->line0 = r->p;
    }
    return 1;
  }
}
