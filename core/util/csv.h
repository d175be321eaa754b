/* core/util/csv.h — reading CSV (RFC 4180) one record at a time from a
 * buffer in memory, each cell with the line and column where it starts:
 * the one CSV record reader of the loaders. Rules (RFC 4180 §2, with what
 * spreadsheet exports do):
 *   - cells are separated by the separator byte (',' or ';'), records by
 *     "\n"; a "\r" that ends a cell before "\n" or the end is dropped;
 *   - a cell that starts with '"' is quoted: it runs to the next '"' not
 *     doubled, "" stands for one quote, and separators and line breaks
 *     inside it are text (a quoted line break continues the record on the
 *     next line: lines count on);
 *   - text after the closing quote up to the separator is kept as it is
 *     ("a"b, reads a b);
 *   - blanks are kept: trimming is the caller's (formats differ).
 * Nothing is printed and no error object is filled: a failure returns a
 * code and leaves the line and column it happened at in the reader, for the
 * caller's message. */
#ifndef FL_UTIL_CSV_H
#define FL_UTIL_CSV_H

#include <stddef.h>
#include <stdint.h>

/* One cell of the record read last. */
typedef struct fl_csv_cell {
  size_t off, len; /* its text in fl_csv.buf: NUL-terminated, unquoted */
  uint32_t line;   /* line (1-based) of its first byte (the quote if any) */
  uint32_t col;    /* column (1-based, bytes) of its first byte */
  int quoted;      /* 1 when it started with '"' */
} fl_csv_cell;

/* A reader. Set up with fl_csv_init(); fields are read-only to callers,
 * except that a cell's text in buf may be edited in place (trimmed) until
 * the next fl_csv_next(). */
typedef struct fl_csv {
  const char *p, *e; /* the input not read yet */
  const char *line0; /* first byte of the current line */
  uint32_t cur_line; /* current line (1-based) */
  char sep;          /* separator byte */
  size_t max_cells;  /* cells a record may have */
  fl_csv_cell *c;    /* the record read last: cells c[0..n) */
  size_t n, c_cap;
  char *buf; /* their text */
  size_t used, cap;
  uint32_t line;     /* line of the record's first byte */
  uint32_t err_line; /* where the last error is (see fl_csv_next) */
  uint32_t err_col;
} fl_csv;

/* fl_csv_next()'s failures (negative). */
enum {
  FL_CSV_EQUOTE = -1, /* a quoted cell not closed before the end */
  FL_CSV_ECELLS = -2, /* more than max_cells cells in a record */
  FL_CSV_ENOMEM = -3, /* out of memory */
};

/* Sets @r up to read the @len bytes at @text (not copied: they must
 * outlive @r), separated by @sep, at most @max_cells cells a record (at
 * least 1). A UTF-8 byte order mark at the start is skipped; the first
 * line is line 1 and columns count from after the mark. */
void fl_csv_init(fl_csv *r, const char *text, size_t len, char sep,
                 size_t max_cells);

/* Reads the next record into r->c, r->n, r->buf and r->line. Returns 1 when
 * a record was read (an empty line is one record of one empty cell), 0 at
 * the end of the input, or a negative FL_CSV_E* code with r->err_line and
 * r->err_col set: for FL_CSV_EQUOTE where the quoted cell starts, for
 * FL_CSV_ECELLS where the cell past the limit would start. */
int fl_csv_next(fl_csv *r);

/* The text of cell @i of the record read last (NUL-terminated, writable),
 * or NULL when @i >= r->n. */
char *fl_csv_cell_text(const fl_csv *r, size_t i);

/* Frees what @r allocated; @r may then be set up again. */
void fl_csv_free(fl_csv *r);

#endif
