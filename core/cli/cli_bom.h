/*
 * core/cli/cli_bom.h — `fabriclint bom`: the bill of materials of a plan
 * (cli_bom.c) and the user's parts catalogue (cli_bom_cat.c).
 */
#ifndef FABRICLINT_CLI_BOM_H
#define FABRICLINT_CLI_BOM_H

#include <stddef.h>
#include <stdint.h>

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

#endif /* FABRICLINT_CLI_BOM_H */
