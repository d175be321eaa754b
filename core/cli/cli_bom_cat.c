/* SPDX-License-Identifier: MIT */
/*
 * core/cli/cli_bom_cat.c — the parts catalogue of `fabriclint bom
 * --catalogue FILE.yaml` (docs/cli.md "bom"): the user's own part numbers,
 * unit prices, watts and reaches, keyed by the BOM item text.
 *
 * Why a user file and no built-in prices: prices are the buyer's, and a
 * figure fabriclint made up would end in a budget. A missing price or
 * wattage stays missing (an empty field), and the totals say how many
 * rows lack one instead of summing what is known as if it were all.
 *
 * Format (YAML, libyaml's document loader):
 *   parts:
 *     - item: "transceiver 4xNDR multimode switch-cage"   # required
 *       part: MMA4Z00-NS      # optional text
 *       price:                # optional number >= 0; empty: unknown
 *       watts: 17             # optional number >= 0
 *       reach_m: 50           # optional number >= 0
 *       source: https://...   # optional text: where the figures are from
 * Unknown keys are errors (a misspelt "prize" would silently drop a
 * price), as are duplicate items. At most BOM_CAT_MAX parts.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "cli/cli_bom.h"

#define BOM_CAT_MAX 4096u

void fl_bom_cat_free(fl_bom_cat *c) {
  for (uint32_t i = 0; i < c->n; i++) {
    free(c->part[i].item);
    free(c->part[i].part);
    free(c->part[i].source);
  }
  free(c->part);
  memset(c, 0, sizeof *c);
}

const fl_bom_part *fl_bom_cat_find(const fl_bom_cat *c, const char *item) {
  for (uint32_t i = 0; c && i < c->n; i++)
    if (strcmp(c->part[i].item, item) == 0)
      return &c->part[i];
  return NULL;
}

static int cat_err(char *msg, size_t size, const char *path,
                   const yaml_node_t *n, const char *what) {
  snprintf(msg, size, "%s:%lu:%lu: %s", path,
           n ? (unsigned long)n->start_mark.line + 1 : 0ul,
           n ? (unsigned long)n->start_mark.column + 1 : 0ul, what);
  return -1;
}

/* The largest unit figure taken (price, watts, metres): 10^12. Totals are
 * counts times it, so they stay finite (an `inf` total is no JSON number
 * and no spreadsheet cell; outside tester, fifteenth session) and exact
 * to far below a cent for any fabric. */
#define CAT_MAX 1e12

/* A number 0 to CAT_MAX, or "" (unknown: *@have 0). */
static int cat_number(const char *s, double *v, int *have) {
  *have = 0;
  if (!*s || strcmp(s, "~") == 0 || strcmp(s, "null") == 0)
    return 0;
  char *end;
  errno = 0;
  *v = strtod(s, &end);
  if (errno || *end || !(*v >= 0) || *v > CAT_MAX)
    return -1;
  *have = 1;
  return 0;
}

static int cat_entry(yaml_document_t *doc, yaml_node_t *m, fl_bom_part *p,
                     const char *path, char *msg, size_t size) {
  if (m->type != YAML_MAPPING_NODE)
    return cat_err(msg, size, path, m,
                   "expected a mapping with item, part, price, watts, "
                   "reach_m, source");
  for (yaml_node_pair_t *q = m->data.mapping.pairs.start;
       q < m->data.mapping.pairs.top; q++) {
    yaml_node_t *k = yaml_document_get_node(doc, q->key);
    yaml_node_t *v = yaml_document_get_node(doc, q->value);
    if (!k || !v || k->type != YAML_SCALAR_NODE || v->type != YAML_SCALAR_NODE)
      return cat_err(msg, size, path, k, "expected key: value");
    const char *key = (const char *)k->data.scalar.value;
    const char *val = (const char *)v->data.scalar.value;
    double *num = NULL;
    int *have = NULL;
    if (strcmp(key, "item") == 0)
      p->item = strdup(val);
    else if (strcmp(key, "part") == 0)
      p->part = strdup(val);
    else if (strcmp(key, "source") == 0)
      p->source = strdup(val);
    else if (strcmp(key, "price") == 0)
      num = &p->price, have = &p->has_price;
    else if (strcmp(key, "watts") == 0)
      num = &p->watts, have = &p->has_watts;
    else if (strcmp(key, "reach_m") == 0)
      num = &p->reach_m, have = &p->has_reach;
    else
      return cat_err(msg, size, path, k,
                     "unknown key; expected item, part, price, watts, "
                     "reach_m or source");
    if (num && cat_number(val, num, have) != 0)
      return cat_err(msg, size, path, v,
                     "expected a number from 0 to 10^12, or nothing for "
                     "unknown");
  }
  if (!p->item || !*p->item)
    return cat_err(msg, size, path, m, "a part needs its BOM item");
  return 0;
}

static int cat_parts(yaml_document_t *doc, yaml_node_t *seq, fl_bom_cat *c,
                     const char *path, char *msg, size_t size) {
  if (seq->type != YAML_SEQUENCE_NODE)
    return cat_err(msg, size, path, seq, "parts: expected a list");
  size_t n =
      (size_t)(seq->data.sequence.items.top - seq->data.sequence.items.start);
  if (n > BOM_CAT_MAX)
    return cat_err(msg, size, path, seq, "more than 4096 parts");
  c->part = calloc(n + 1, sizeof *c->part);
  if (!c->part)
    return cat_err(msg, size, path, seq, "out of memory");
  for (yaml_node_item_t *it = seq->data.sequence.items.start;
       it < seq->data.sequence.items.top; it++) {
    yaml_node_t *m = yaml_document_get_node(doc, *it);
    fl_bom_part *p = &c->part[c->n++];
    if (cat_entry(doc, m, p, path, msg, size) != 0)
      return -1;
    for (uint32_t i = 0; i + 1 < c->n; i++)
      if (strcmp(c->part[i].item, p->item) == 0)
        return cat_err(msg, size, path, m, "this item is listed twice");
  }
  return 0;
}

int fl_bom_cat_load(const char *path, fl_bom_cat *c, char *msg, size_t size) {
  memset(c, 0, sizeof *c);
  FILE *f = fopen(path, "rb");
  if (!f) {
    snprintf(msg, size, "%s: cannot read: %s", path, strerror(errno));
    return -1;
  }
  yaml_parser_t parser;
  yaml_document_t doc;
  int rc = -1;
  if (!yaml_parser_initialize(&parser)) {
    fclose(f);
    snprintf(msg, size, "%s: out of memory", path);
    return -1;
  }
  yaml_parser_set_input_file(&parser, f);
  if (!yaml_parser_load(&parser, &doc)) {
    snprintf(msg, size, "%s:%lu:%lu: YAML: %s", path,
             (unsigned long)parser.problem_mark.line + 1,
             (unsigned long)parser.problem_mark.column + 1,
             parser.problem ? parser.problem : "parse error");
  } else {
    yaml_node_t *root = yaml_document_get_root_node(&doc);
    yaml_node_t *parts = NULL;
    if (root && root->type == YAML_MAPPING_NODE)
      for (yaml_node_pair_t *q = root->data.mapping.pairs.start;
           q < root->data.mapping.pairs.top; q++) {
        yaml_node_t *k = yaml_document_get_node(&doc, q->key);
        if (k && k->type == YAML_SCALAR_NODE &&
            strcmp((const char *)k->data.scalar.value, "parts") == 0)
          parts = yaml_document_get_node(&doc, q->value);
      }
    if (!parts)
      cat_err(msg, size, path, root,
              "expected a mapping with a list under parts:");
    else
      rc = cat_parts(&doc, parts, c, path, msg, size);
    yaml_document_delete(&doc);
  }
  yaml_parser_delete(&parser);
  fclose(f);
  if (rc != 0)
    fl_bom_cat_free(c);
  return rc;
}
