/* SPDX-License-Identifier: MIT */
/*
 * core/cli/cli_bom.h — `fabriclint bom`: the bill of materials of a plan
 * (cli_bom.c) and the user's parts catalogue (cli_bom_cat.c).
 */
#ifndef FABRICLINT_CLI_BOM_H
#define FABRICLINT_CLI_BOM_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/**
 * fl_bom_part — one catalogue entry: the BOM @item it prices (exactly as
 * `bom` prints it), an optional @part number, unit @price, @watts and
 * @reach_m (metres), each with a has_ flag (0: unknown, never 0), and the
 * @source of the figures. Strings owned by the catalogue.
 */
typedef struct fl_bom_part {
  char *item, *part, *source;
  double price, watts, reach_m;
  int has_price, has_watts, has_reach;
} fl_bom_part;

/** fl_bom_cat — a loaded catalogue (fl_bom_cat_load()). */
typedef struct fl_bom_cat {
  fl_bom_part *part;
  uint32_t n;
} fl_bom_cat;

/**
 * fl_bom_cat_load() — read the YAML catalogue at @path into *@c (format in
 * cli_bom_cat.c and docs/cli.md "bom"). 0, or -1 with "file:line:col:
 * what was expected" in @msg and *@c empty.
 */
int fl_bom_cat_load(const char *path, fl_bom_cat *c, char *msg, size_t size);
/** The entry pricing @item, or NULL (@c may be NULL). */
const fl_bom_part *fl_bom_cat_find(const fl_bom_cat *c, const char *item);
/** Free what fl_bom_cat_load() allocated. */
void fl_bom_cat_free(fl_bom_cat *c);

/** fl_bom_total — the cost and power of a bill of materials: @price and
 * @watts summed over the rows the catalogue prices (resp. powers), the
 * @no_price and @no_watts rows it does not (a total is known only when
 * its count is 0), of @rows rows in all. */
typedef struct fl_bom_total {
  double price, watts;
  uint32_t no_price, no_watts, rows;
} fl_bom_total;

struct fl_fabric;
/**
 * fl_bom_sum() — the bill of materials of @f (what `fabriclint bom`
 * counts) priced with @cat (NULL: none) into *@t, for `compare
 * --catalogue`. 0, or -1 when out of memory.
 */
int fl_bom_sum(const struct fl_fabric *f, const fl_bom_cat *cat,
               fl_bom_total *t);

/** One row of a bill of materials, as the writers take it: @category
 * ("switch", "cable", "transceiver"), @item, @count, and its catalogue
 * entry @part or NULL. Strings borrowed. */
typedef struct fl_bom_line {
  const char *category, *item;
  uint64_t count;
  const fl_bom_part *part;
} fl_bom_line;

/**
 * fl_bom_write_xlsx() — the @n rows @lines as an Excel workbook (Office
 * Open XML, written by libxlsxwriter) to @out: sheet "BOM" with the CSV's
 * columns (category, item, count, part, unit_price, total_price,
 * unit_watts, total_watts, reach_m), numbers as numbers, an unknown figure
 * an empty cell, and a `total` row whose price and watts are given only
 * when every row has them (as in the CSV); sheet "about" names @inputs
 * (@n_inputs), the @catalogue path or "(none)" and the fabriclint
 * @version. The workbook is built in a temporary file under TMPDIR (the
 * library writes a ZIP to a path) and copied to @out, then removed.
 * Returns 0, or -1 with the reason in @msg (no libxlsxwriter in this
 * build, a temporary file that cannot be made, a write error).
 */
int fl_bom_write_xlsx(FILE *out, const fl_bom_line *lines, size_t n,
                      const char *const *inputs, size_t n_inputs,
                      const char *catalogue, const char *version, char *msg,
                      size_t size);

#endif /* FABRICLINT_CLI_BOM_H */
