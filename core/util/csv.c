/* core/util/csv.c — the RFC 4180 record reader (csv.h). */
#include "util/csv.h"

#include <stdlib.h>
#include <string.h>

void fl_csv_init(fl_csv *r, const char *text, size_t len, char sep,
                 size_t max_cells) {
  memset(r, 0, sizeof *r);
  r->p = r->line0 = text;
  r->e = text + len;
  r->cur_line = 1;
  r->sep = sep;
  r->max_cells = max_cells ? max_cells : 1;
  if (len >= 3 && memcmp(text, "\xef\xbb\xbf", 3) == 0)
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

int fl_csv_next(fl_csv *r) {
  r->n = r->used = 0;
  r->line = r->cur_line;
  if (r->p >= r->e)
    return 0;
  for (;;) {
    if (r->n == r->max_cells) {
      r->err_line = r->cur_line;
      r->err_col = (uint32_t)(r->p - r->line0) + 1;
      return FL_CSV_ECELLS;
    }
    fl_csv_cell *c = new_cell(r);
    if (!c)
      return FL_CSV_ENOMEM;
    int rc = c->quoted ? quoted(r, c) : 0;
    if (rc)
      return rc;
    while (r->p < r->e && *r->p != r->sep && *r->p != '\n')
      if (put(r, *r->p++) != 0)
        return FL_CSV_ENOMEM;
    c->len = r->used - c->off;
    if (c->len && r->buf[c->off + c->len - 1] == '\r' &&
        (r->p >= r->e || *r->p == '\n'))
      c->len--, r->used--;
    if (put(r, '\0') != 0)
      return FL_CSV_ENOMEM;
    if (r->p < r->e && *r->p == r->sep) {
      r->p++;
      continue;
    }
    if (r->p < r->e) { /* '\n' */
      r->p++;
      r->cur_line++;
      r->line0 = r->p;
    }
    return 1;
  }
}
