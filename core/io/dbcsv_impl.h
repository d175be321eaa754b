/* SPDX-License-Identifier: MIT */
/*
 * core/io/dbcsv_impl.h — the ibdiagnet2.db_csv section reader, shared by
 * its two roles (internal to core/io):
 *   - routing state (core/io/dbcsv_load.c, format "ibdiagnet-db-csv"): the
 *     AR_INFO section sets the switches' AR attributes on a fabric another
 *     input described;
 *   - topology (core/io/dbcsv_topo.c, format "ibdiagnet-db"): NODES, PORTS,
 *     LINKS and CABLE_INFO build the fabric, AR_INFO as above.
 * Layout and the sources of every section: docs/formats/ibdiagnet-db-csv.md.
 *
 * dbc_walk() reads the file once, line by line, checks every section's
 * structure (START_/END_ pairs, one header, rows as wide as their header,
 * CSV quoting) and hands each section's header and rows to a handler, which
 * finds its columns by name (dbc_find_col(): ibdiagnet's column sets and
 * orders vary between versions).
 */
#ifndef FABRICLINT_CORE_IO_DBCSV_IMPL_H
#define FABRICLINT_CORE_IO_DBCSV_IMPL_H

#include <stddef.h>
#include <stdint.h>

#include "fabriclint/load.h"
#include "io/fileio.h"
#include "model/build.h"
#include "util/csv.h"

/** One field of the current line: trimmed, unquoted, NUL-terminated text
 * (in the CSV reader's buffer, valid until the next line) and its 1-based
 * column in the line. */
typedef struct dbf {
  char *s;
  uint32_t col;
} dbf;

/** The reader's state a handler sees. */
typedef struct dbc_rd {
  fl_fabric *fab;
  fl_error *err;
  const char *path;
  uint32_t file; /* fl_b_file() of @path */
  uint32_t line; /* 1-based line number of the current line */
  dbf *f;        /* fields of the current line */
  size_t nf, capf;
  fl_csv csv;
  const char *sec; /* the open section's name (START_<sec>) */
  char **hdr;      /* its header's column names */
  size_t nhdr;
} dbc_rd;

/**
 * dbc_handler — what a role does with the sections.
 * @begin: a section's header was read (r->sec, r->hdr); sets *@want to 1
 *   when its rows go to @row. FL_OK or an error set in r->err.
 * @row: one row (r->f[0..r->nhdr-1]); FL_OK or an error.
 * @ctx: the role's state, passed to both.
 */
typedef struct dbc_handler {
  int (*begin)(void *ctx, dbc_rd *r, fl_prov pv, int *want);
  int (*row)(void *ctx, dbc_rd *r, fl_prov pv);
  void *ctx;
} dbc_handler;

/** Read input @in section by section into @h. FL_OK; FL_EPARSE naming
 * file:line:col for a malformed section; FL_ENOMEM; FL_EIO. */
int dbc_walk(fl_fabric *fab, const fl_input *in, fl_error *err,
             const dbc_handler *h);

/** FL_EPARSE at the current line, column @col, with a printf message. */
int dbc_err(dbc_rd *r, uint32_t col, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/** FL_ENOMEM at the current line. */
int dbc_nomem(dbc_rd *r);

/** Index of the first header column whose name, lower-cased without `_`,
 * `-` and blanks, is one of @names (NULL-terminated, tried in order); -1
 * when none is. */
long dbc_find_col(char *const *hdr, size_t n, const char *const *names);

/** 1 for `N/A` (or `NA`), any case: the value was not available. */
int dbc_is_na(const char *s);

/** Unsigned decimal or 0x-hex number no larger than @max, or -1. */
int64_t dbc_num(const char *s, uint64_t max);

/** `0x` + 1..16 hex digits into *@out: 0, or -1 when not a GUID. */
int dbc_guid(const char *s, uint64_t *out);

/** 1, 0, or -1 for a boolean value (1/0, true/false, yes/no, on/off). */
int dbc_bool(const char *s);

/**
 * The AR_INFO section (adaptive routing per switch), shared by both roles.
 * Zero-initialise, call dbc_ar_begin() on its header and dbc_ar_row() on
 * each row; a switch the fabric lacks is skipped with a `routing` note.
 */
typedef struct dbc_ar {
  long guid, enable, mask, by_sl_en;
} dbc_ar;
int dbc_ar_begin(dbc_ar *a, dbc_rd *r, fl_prov pv);
int dbc_ar_row(const dbc_ar *a, dbc_rd *r, fl_prov pv);

/** 1 when the detection window @text (of @len bytes) holds a `START_NODES`
 * section header naming a NodeGUID and a NodeType column: the dump can
 * describe a fabric. */
int dbc_window_has_nodes(const char *text, size_t len);

#endif
