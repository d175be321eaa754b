/* SPDX-License-Identifier: MIT */
/*
 * core/cli/cli_xlsx.h — the one way the command line writes an Excel
 * workbook (bom --format xlsx, diff --format xlsx; issue 34): libxlsxwriter
 * builds it in a temporary file, which is then copied to the output the
 * command opened, so that the output keeps the replace-on-success rule of
 * every fabriclint output (fl_outfile). Only when CMake found libxlsxwriter
 * (FL_HAVE_XLSXWRITER).
 */
#ifndef FABRICLINT_CORE_CLI_XLSX_H
#define FABRICLINT_CORE_CLI_XLSX_H

#include <stddef.h>
#include <stdio.h>

#ifdef FL_HAVE_XLSXWRITER
#include <xlsxwriter.h>

/** A workbook being written to a temporary file (fl_xlsx_open()). */
typedef struct fl_xlsx {
  lxw_workbook *wb;
  char path[4096]; /* the temporary file, under TMPDIR or /tmp */
} fl_xlsx;

/**
 * fl_xlsx_open() — start workbook @x in a new temporary file named after
 * @what ("bom", "work-order"). 0, or -1 with the reason in @msg (@size
 * bytes; nothing left behind).
 */
int fl_xlsx_open(fl_xlsx *x, const char *what, char *msg, size_t size);

/**
 * fl_xlsx_close() — close workbook @x, copy it to @out and remove the
 * temporary file (@out NULL: abandon it, -1). 0, or -1 with the reason in
 * @msg (libxlsxwriter's error, a write error).
 */
int fl_xlsx_close(fl_xlsx *x, FILE *out, char *msg, size_t size);
#endif

/** The message of a build without libxlsxwriter, for @size bytes of @msg;
 * returns -1. */
int fl_xlsx_missing(char *msg, size_t size);

#endif
