/* SPDX-License-Identifier: MIT */
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
 *     ("a"b reads ab), unless a flag drops it or refuses it;
 *   - blanks are kept unless FL_CSV_TRIM drops those around cells.
 * The formats differ only in those flags (FL_CSV_*): NetBox keeps
 * everything; UFM NDT trims and drops text after a quote; db_csv and the
 * annotation CSV trim and refuse it. Nothing is printed and no error
 * object is filled: a failure returns a code and leaves the line and
 * column it happened at in the reader, for the caller's message. */
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

/* Reading options of fl_csv_init() (or-ed). */
enum {
  /* blanks (' ', '\t') before a cell are skipped, so a quote after them
   * opens a quoted cell and the cell's column is its first non-blank;
   * blanks ending an unquoted cell and following a closing quote are
   * dropped */
  FL_CSV_TRIM = 1u << 0,
  /* text between a closing quote and the separator is dropped ("a"b: a) */
  FL_CSV_DROP_AFTER_QUOTE = 1u << 1,
  /* ... or is an error (FL_CSV_EAFTER) */
  FL_CSV_STRICT_QUOTE = 1u << 2,
  /* a UTF-8 byte order mark at the start of the input is skipped (columns
   * count from after it) */
  FL_CSV_BOM = 1u << 3,
};

/* A reader. Set up with fl_csv_init() and fl_csv_start(); fields are
 * read-only to callers, except that a cell's text in buf may be edited in
 * place (trimmed) until the next fl_csv_next(). */
typedef struct fl_csv {
  /* options */
  char sep;         /* separator byte */
  size_t max_cells; /* cells a record may have */
  unsigned flags;   /* FL_CSV_* */
  /* the input */
  const char *p, *e; /* not read yet */
  const char *line0; /* first byte of the current line */
  uint32_t cur_line; /* current line (1-based) */
  /* the record read last: cells c[0..n), their text in buf */
  fl_csv_cell *c;
  size_t n, c_cap;
  char *buf;
  size_t used, cap;
  uint32_t line;    /* line of the record's first byte */
  uint32_t end_col; /* column just past its last byte (a final "\r" not
                     * counted), on its last line */
  /* where the last failure is (see fl_csv_next) */
  uint32_t err_line, err_col;
} fl_csv;

/* fl_csv_next()'s failures (negative). */
enum {
  FL_CSV_EQUOTE = -1, /* a quoted cell not closed before the end */
  FL_CSV_ECELLS = -2, /* more than max_cells cells in a record */
  FL_CSV_ENOMEM = -3, /* out of memory */
  FL_CSV_EAFTER = -4, /* FL_CSV_STRICT_QUOTE: text after a closing quote */
};

/* Sets @r up to read records separated by @sep, at most @max_cells cells
 * a record (at least 1; SIZE_MAX: no limit), with @flags (FL_CSV_*), and
 * no input yet (fl_csv_next() returns 0 until fl_csv_start()). */
void fl_csv_init(fl_csv *r, char sep, size_t max_cells, unsigned flags);

/* (Re)starts @r on the @len bytes at @text (not copied: they must outlive
 * the reading), at line 1, column 1; the buffers of earlier records are
 * kept for reuse (a loader reading line by line starts @r on each line). */
void fl_csv_start(fl_csv *r, const char *text, size_t len);

/* Reads the next record into r->c, r->n, r->buf, r->line and r->end_col.
 * Returns 1 when a record was read (an empty line is one record of one
 * empty cell), 0 at the end of the input, or a negative FL_CSV_E* code
 * with r->err_line and r->err_col set: for FL_CSV_EQUOTE where the quoted
 * cell starts, for FL_CSV_ECELLS where the cell past the limit would start,
 * for FL_CSV_EAFTER where the text after the closing quote starts. */
int fl_csv_next(fl_csv *r);

/* The text of cell @i of the record read last (NUL-terminated, writable),
 * or NULL when @i >= r->n. */
char *fl_csv_cell_text(const fl_csv *r, size_t i);

/* Frees what @r allocated; @r keeps its options and may be started
 * again. */
void fl_csv_free(fl_csv *r);

#endif
