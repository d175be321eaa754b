/* SPDX-License-Identifier: MIT */
/*
 * core/cli/cli_diff_xlsx.h — `diff --format xlsx`: the work order as a
 * workbook (cli_diff_xlsx.c).
 */
#ifndef FABRICLINT_CORE_CLI_DIFF_XLSX_H
#define FABRICLINT_CORE_CLI_DIFF_XLSX_H

#include <stddef.h>
#include <stdio.h>

#include "report/work_order.h"

/**
 * fl_diff_write_xlsx() — sorted work order @wo as an Excel workbook to
 * @out: sheet "work order" (every row, the CSV's columns, `row` as a
 * number), one sheet per rack (natural order; the rows with either end in
 * it; names made safe for Excel: 31 characters, []:*?/\' as "_", "~2" on a
 * clash), "no rack" when racks exist and a row has none, and "about"
 * (fabriclint @version, the @design and @as_built inputs). 0, or -1 with
 * the reason in @msg (no libxlsxwriter in this build, a temporary file
 * that cannot be made, a write error).
 */
int fl_diff_write_xlsx(FILE *out, const fl_work_order *wo, const char *design,
                       const char *as_built, const char *version, char *msg,
                       size_t size);

#endif
