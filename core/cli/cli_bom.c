/* SPDX-License-Identifier: MIT */
/*
 * core/cli/cli_bom.c — `fabriclint bom [--format csv|json] [--catalogue
 * FILE.yaml] INPUT...`: the bill of materials of a plan (issue 34 §2;
 * docs/cli.md "bom"): switches by model, cables by rate, media and length,
 * transceivers per end, with unit and total price and watts from the
 * user's catalogue (cli_bom_cat.c) where it has them.
 *
 * What is counted, and why so:
 *  - a switch under its `model` attribute, else "devid 0x...., N ports"
 *    (what a plan or a dump says about the part; nothing is looked up);
 *  - a cable (chassis-internal links apart) as "<rate> <media> <length> m",
 *    media and length from the plan (`gen --layout` writes them),
 *    "unspecified" / "unknown" when absent;
 *  - transceivers at both ends of an `optical` or `fiber` cable: multimode
 *    up to 50 m, single-mode beyond (NVIDIA LinkX 100G-PAM4 overview:
 *    multimode reach 50 m), "reach unknown" without a length. At a switch
 *    of a twin-port OSFP generation (NDR, XDR: two ports per cage, ports
 *    2c-1 and 2c) one transceiver serves a cage, counted once per cage
 *    and class; at a CA, one per port.
 * Rows are sorted by category (switch, cable, transceiver), then item in
 * natural order (7 m before 10 m).
 * Prices and watts missing from the catalogue stay empty; a total is given
 * only when every row has the figure, and the JSON says how many lack it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/cli_bom.h"
#include "cli/cli_common.h"
#include "fabriclint/fabric.h"
#include "fabriclint/json_buf.h"
#include "io/write_common.h"
#include "model/derive.h" /* fl_is_aggregation_node */
#include "model/hashmap.h"
#include "util/natcmp.h"

#define BOM_MM_REACH_MM 50000u /* multimode optics, 100G-PAM4 (LinkX) */

typedef struct bom_row {
  int cat; /* 0 switch, 1 cable, 2 transceiver */
  char *item;
  uint64_t count;
} bom_row;

typedef struct bom {
  bom_row *row;
  uint32_t n, cap;
  fl_strmap index; /* "cat|item" -> row */
  fl_strmap cages; /* "node|cage|class": transceivers counted once */
} bom;

static const char *const CATS[] = {"switch", "cable", "transceiver"};

/* Add @count of @item to category @cat. 0, or -1 out of memory. */
static int bump(bom *b, int cat, const char *item, uint64_t count) {
  char key[256];
  snprintf(key, sizeof key, "%d|%s", cat, item);
  uint32_t i = fl_strmap_put(&b->index, key, strlen(key), b->n);
  if (i == FL_MAP_ABSENT)
    return -1;
  if (i == b->n) {
    if (b->n == b->cap) {
      uint32_t nc = b->cap ? b->cap * 2 : 64;
      bom_row *t = realloc(b->row, nc * sizeof *t);
      if (!t)
        return -1;
      b->row = t;
      b->cap = nc;
    }
    b->row[b->n] = (bom_row){cat, strdup(item), 0};
    if (!b->row[b->n].item)
      return -1;
    b->n++;
  }
  b->row[i].count += count;
  return 0;
}

static void switch_item(const fl_fabric *f, fl_id n, char *buf, size_t size) {
  const char *model = fl_fabric_attr(f, FL_ENT_NODE, n, "model");
  if (model && *model)
    snprintf(buf, size, "%s", model);
  else
    snprintf(buf, size, "devid 0x%04x, %u ports", fl_fabric_node_devid(f, n),
             fl_fabric_node_nports(f, n));
}

/* Twin-port OSFP switch generations: two ports per cage. */
static int twin_port(uint32_t speed) {
  return speed == FL_SPEED_NDR || speed == FL_SPEED_XDR;
}

/* The transceiver at end @e of optical link @l: one per CA port, one per
 * twin-port cage and class at a switch. */
static int count_end(bom *b, const fl_fabric *f, fl_id l, uint32_t e,
                     const char *rate, const char *cls) {
  fl_id p = fl_fabric_link_port(f, l, e), n = fl_fabric_port_node(f, p);
  int sw = fl_fabric_node_kind(f, n) == FL_NODE_SWITCH;
  char item[160];
  if (sw && twin_port(fl_fabric_link_speed(f, l))) {
    char key[96];
    uint32_t cage = (fl_fabric_port_num(f, p) + 1) / 2;
    snprintf(key, sizeof key, "%u|%u|%s", n, cage, cls);
    uint32_t before = (uint32_t)fl_strmap_len(&b->cages);
    uint32_t v = fl_strmap_put(&b->cages, key, strlen(key), before);
    if (v == FL_MAP_ABSENT)
      return -1;
    if (v != before)
      return 0; /* the cage's transceiver is counted already */
    snprintf(item, sizeof item, "transceiver %s %s switch-cage", rate, cls);
  } else {
    snprintf(item, sizeof item, "transceiver %s %s %s-port", rate, cls,
             sw ? "switch" : "hca");
  }
  return bump(b, 2, item, 1);
}

/* 1 when an end of link @l is a SHARP Aggregation Node (devid 0xcf09 or
 * its description, model/derive.h). */
static int an_link(const fl_fabric *f, fl_id l) {
  for (uint32_t e = 0; e < 2; e++)
    if (fl_is_aggregation_node(
            f, fl_fabric_port_node(f, fl_fabric_link_port(f, l, e))))
      return 1;
  return 0;
}

static int count_links(bom *b, const fl_fabric *f) {
  for (fl_id l = 0; l < fl_fabric_link_count(f); l++) {
    /* no part to buy: a cable inside a director chassis, or the switch
     * port a SHARP Aggregation Node sits on (port 65 of a QM9701: the AN
     * is in the switch) */
    if (fl_fabric_link_internal(f, l) || an_link(f, l))
      continue;
    char rate[32], item[160];
    fl_cli_link_rate(f, l, rate, sizeof rate);
    const char *media = fl_fabric_attr(f, FL_ENT_LINK, l, "media");
    const char *len = fl_fabric_attr(f, FL_ENT_LINK, l, "length");
    media = media && *media ? media : "unspecified";
    if (len && *len)
      snprintf(item, sizeof item, "%s %s %s m", rate, media, len);
    else
      snprintf(item, sizeof item, "%s %s length unknown", rate, media);
    if (bump(b, 1, item, 1) != 0)
      return -1;
    if (strcmp(media, "optical") != 0 && strcmp(media, "fiber") != 0)
      continue;
    const char *cls = !len || !*len ? "reach-unknown"
                      : strtod(len, NULL) * 1000 <= BOM_MM_REACH_MM
                          ? "multimode"
                          : "single-mode";
    for (uint32_t e = 0; e < 2; e++)
      if (count_end(b, f, l, e, rate, cls) != 0)
        return -1;
  }
  return 0;
}

static int count(bom *b, const fl_fabric *f) {
  for (fl_id n = 0; n < fl_fabric_node_count(f); n++) {
    if (fl_fabric_node_kind(f, n) != FL_NODE_SWITCH)
      continue;
    char item[160];
    switch_item(f, n, item, sizeof item);
    if (bump(b, 0, item, 1) != 0)
      return -1;
  }
  return count_links(b, f);
}

static int cmp_rows(const void *x, const void *y) {
  const bom_row *a = x, *b = y;
  if (a->cat != b->cat)
    return a->cat < b->cat ? -1 : 1;
  int c = fl_natcmp(a->item, b->item); /* "7 m" before "10 m" */
  return c ? c : strcmp(a->item, b->item);
}

static void bom_free(bom *b) {
  for (uint32_t i = 0; i < b->n; i++)
    free(b->row[i].item);
  free(b->row);
  fl_strmap_free(&b->index);
  fl_strmap_free(&b->cages);
}

/* Totals over the rows: a sum only when every row has the figure. */

static fl_bom_total totals(const bom *b, const fl_bom_cat *cat) {
  fl_bom_total t = {0, 0, 0, 0, b->n};
  for (uint32_t i = 0; i < b->n; i++) {
    const fl_bom_part *p = fl_bom_cat_find(cat, b->row[i].item);
    if (p && p->has_price)
      t.price += p->price * (double)b->row[i].count;
    else
      t.no_price++;
    if (p && p->has_watts)
      t.watts += p->watts * (double)b->row[i].count;
    else
      t.no_watts++;
  }
  return t;
}

static void csv_num(FILE *out, int have, double v) {
  if (have)
    fprintf(out, "%.15g", v);
}

static void write_csv(FILE *out, const bom *b, const fl_bom_cat *cat) {
  fputs("category,item,count,part,unit_price,total_price,unit_watts,"
        "total_watts,reach_m\n",
        out);
  for (uint32_t i = 0; i < b->n; i++) {
    const bom_row *r = &b->row[i];
    const fl_bom_part *p = fl_bom_cat_find(cat, r->item);
    fprintf(out, "%s,", CATS[r->cat]);
    fl_wr_csv_cell(out, r->item);
    fprintf(out, ",%llu,", (unsigned long long)r->count);
    fl_wr_csv_cell(out, p && p->part ? p->part : "");
    fputc(',', out);
    csv_num(out, p && p->has_price, p ? p->price : 0);
    fputc(',', out);
    csv_num(out, p && p->has_price, p ? p->price * (double)r->count : 0);
    fputc(',', out);
    csv_num(out, p && p->has_watts, p ? p->watts : 0);
    fputc(',', out);
    csv_num(out, p && p->has_watts, p ? p->watts * (double)r->count : 0);
    fputc(',', out);
    csv_num(out, p && p->has_reach, p ? p->reach_m : 0);
    fputc('\n', out);
  }
  fl_bom_total t = totals(b, cat);
  fputs("total,,,,,", out);
  csv_num(out, t.no_price == 0, t.price);
  fputs(",,", out);
  csv_num(out, t.no_watts == 0, t.watts);
  fputs(",\n", out);
}

/* A number with 15 significant digits (jb_double_item() keeps 6, too few
 * for a total price), or null when unknown. */
static void json_num(jbuf *j, const char *key, int have, double v) {
  char t[40];
  int n = have ? snprintf(t, sizeof t, "%.15g", v) : 4;
  jb_key(j, key);
  jb_sep(j);
  jb_raw(j, have ? t : "null", (size_t)n);
}

static void write_json(FILE *out, const bom *b, const fl_bom_cat *cat) {
  jbuf j;
  jb_init(&j);
  jb_obj_open(&j);
  jb_key(&j, "items");
  jb_arr_open(&j);
  for (uint32_t i = 0; i < b->n; i++) {
    const bom_row *r = &b->row[i];
    const fl_bom_part *p = fl_bom_cat_find(cat, r->item);
    jb_obj_open(&j);
    jb_key_str(&j, "category", CATS[r->cat]);
    jb_key_str(&j, "item", r->item);
    jb_key_int(&j, "count", (int64_t)r->count);
    if (p && p->part)
      jb_key_str(&j, "part", p->part);
    else
      json_num(&j, "part", 0, 0);
    json_num(&j, "unit_price", p && p->has_price, p ? p->price : 0);
    json_num(&j, "total_price", p && p->has_price,
             p ? p->price * (double)r->count : 0);
    json_num(&j, "unit_watts", p && p->has_watts, p ? p->watts : 0);
    json_num(&j, "total_watts", p && p->has_watts,
             p ? p->watts * (double)r->count : 0);
    json_num(&j, "reach_m", p && p->has_reach, p ? p->reach_m : 0);
    jb_obj_close(&j);
  }
  jb_arr_close(&j);
  fl_bom_total t = totals(b, cat);
  jb_key(&j, "totals");
  jb_obj_open(&j);
  for (int c = 0; c < 3; c++) {
    uint64_t n = 0;
    for (uint32_t i = 0; i < b->n; i++)
      n += b->row[i].cat == c ? b->row[i].count : 0;
    jb_key_int(&j,
               c == 0   ? "switches"
               : c == 1 ? "cables"
                        : "transceivers",
               (int64_t)n);
  }
  json_num(&j, "price", t.no_price == 0, t.price);
  json_num(&j, "watts", t.no_watts == 0, t.watts);
  jb_key_int(&j, "rows_without_price", t.no_price);
  jb_key_int(&j, "rows_without_watts", t.no_watts);
  jb_obj_close(&j);
  jb_obj_close(&j);
  fputs(jb_str(&j), out);
  fputc('\n', out);
  jb_free(&j);
}

int fl_bom_sum(const fl_fabric *f, const fl_bom_cat *cat, fl_bom_total *t) {
  bom b;
  memset(&b, 0, sizeof b);
  int rc = count(&b, f);
  if (rc == 0)
    *t = totals(&b, cat);
  bom_free(&b);
  return rc;
}

/* The rows for fl_bom_write_xlsx(), or NULL out of memory. */
static fl_bom_line *lines_of(const bom *b, const fl_bom_cat *cat) {
  fl_bom_line *l = calloc(b->n ? b->n : 1, sizeof *l);
  for (uint32_t i = 0; l && i < b->n; i++) {
    l[i].category = CATS[b->row[i].cat];
    l[i].item = b->row[i].item;
    l[i].count = b->row[i].count;
    l[i].part = fl_bom_cat_find(cat, b->row[i].item);
  }
  return l;
}

/* The workbook to @f (binary: never to a terminal). 0 or FL_EXIT_USAGE. */
static int write_xlsx(FILE *f, const fl_cli_opts *o, const bom *b,
                      const fl_bom_cat *cat, const char *catalogue) {
  char msg[512];
  fl_bom_line *l = lines_of(b, cat);
  int rc = l ? fl_bom_write_xlsx(f, l, b->n, o->inputs, o->n_inputs, catalogue,
                                 FL_VERSION, msg, sizeof msg)
             : (snprintf(msg, sizeof msg, "out of memory"), -1);
  free(l);
  if (rc == 0)
    return 0;
  fprintf(stderr, "fabriclint bom: %s\n", msg);
  return FL_EXIT_USAGE;
}

/* bom's own options: --format csv|json|xlsx and --catalogue FILE. */
enum { BOM_CSV, BOM_JSON, BOM_XLSX };
typedef struct bom_args {
  int format; /* BOM_* */
  const char *catalogue;
} bom_args;

static int bom_option(void *ctx, const fl_cli_item *it, int *rc) {
  bom_args *a = ctx;
  switch (it->opt->id) {
  case FL_OPT_FORMAT:
    *rc = 0;
    if (strcmp(it->value, "json") == 0)
      a->format = BOM_JSON;
    else if (strcmp(it->value, "csv") == 0)
      a->format = BOM_CSV;
    else if (strcmp(it->value, "xlsx") == 0)
      a->format = BOM_XLSX;
    else
      *rc = fl_cli_usage_error("--format: expected csv, json or xlsx, got "
                               "'%s'",
                               it->value);
    return 1;
  case FL_OPT_CATALOGUE:
    a->catalogue = it->value;
    *rc = 0;
    return 1;
  default:
    return 0;
  }
}

int fl_cli_bom(int argc, char **argv) {
  fl_cli_opts o;
  bom_args a = {BOM_CSV, NULL};
  int rc = fl_cli_parse_ext(argc, argv, &o, bom_option, &a);
  if (rc != 0) {
    fl_cli_opts_free(&o);
    return rc < 0 ? 0 : rc;
  }
  fl_bom_cat cat = {NULL, 0};
  fl_fabric *fab = NULL;
  fl_outfile out = {0};
  bom b;
  memset(&b, 0, sizeof b);
  if (o.n_inputs == 0)
    rc = fl_cli_usage_error("bom needs at least one INPUT%s", "");
  if (rc == 0 && a.catalogue)
    rc = fl_cli_check_output_other(&o, a.catalogue, "the catalogue");
  if (rc == 0 && a.catalogue) {
    char msg[512];
    if (fl_bom_cat_load(a.catalogue, &cat, msg, sizeof msg) != 0) {
      fprintf(stderr, "fabriclint bom: %s\n", msg);
      rc = FL_EXIT_USAGE;
    }
  }
  if (rc == 0)
    rc = fl_cli_check_outputs(&o, o.inputs, o.n_inputs);
  if (rc == 0)
    rc = fl_cli_load_fabric(&o, &fab, NULL);
  if (rc == 0 && count(&b, fab) != 0) {
    fprintf(stderr, "fabriclint bom: out of memory\n");
    rc = FL_EXIT_USAGE;
  }
  if (rc == 0)
    rc = fl_cli_open_output(&o, &out);
  if (rc == 0) {
    qsort(b.row, b.n, sizeof *b.row, cmp_rows);
    FILE *f = out.f ? out.f : stdout;
    if (a.format == BOM_JSON)
      write_json(f, &b, &cat);
    else if (a.format == BOM_XLSX && isatty(fileno(f)))
      /* standard output or -o /dev/tty: a binary workbook on a terminal */
      rc = fl_cli_usage_error("--format xlsx writes a binary workbook: give "
                              "-o FILE.xlsx (or redirect standard output)%s",
                              "");
    else if (a.format == BOM_XLSX)
      rc = write_xlsx(f, &o, &b, &cat, a.catalogue);
    else
      write_csv(f, &b, &cat);
  }
  rc = fl_cli_close_output(&out, rc);
  bom_free(&b);
  fl_bom_cat_free(&cat);
  fl_fabric_free(fab);
  fl_cli_opts_free(&o);
  return rc;
}
