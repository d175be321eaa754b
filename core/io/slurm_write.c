/* SPDX-License-Identifier: MIT */
/*
 * core/io/slurm_write.c — fl_write_slurm_tree(), fl_write_slurm_block(),
 * fl_write_slurm_yaml(): the fabric's switch hierarchy as Slurm's topology
 * files (docs/formats/slurm.md).
 *
 * Why: Slurm places a job on nodes that share switches only when
 * topology.conf (or, from Slurm 25.05, topology.yaml) says which do; a
 * file written by hand from a cabling plan drifts from what was cabled,
 * and the tools that write it from ibnetdiscover put each host under one
 * leaf, which a rail-optimised host (8 NICs on 8 leaves) is not. Written
 * from the validated fabric, the hierarchy is the one fabriclint checked
 * (io/slurm_tree.h: hosts, not NICs; an SU's rail leaves as one switch;
 * storage and service hosts left out).
 *
 * Spelling (Slurm's topology.conf(5) and topology.yaml(5), 26.11):
 *   tree:  `SwitchName=<name> Nodes=<hostlist>` for a switch with hosts,
 *          `SwitchName=<name> Switches=<hostlist>` above; leaves first.
 *   block: `BlockName=<name> Nodes=<hostlist>` per level-1 switch, then
 *          `BlockSizes=<n>`, n the fewest nodes of a block (the planning
 *          base block size: "each block must have at least" it).
 *   yaml:  a list of two topologies, `fabric-tree` (cluster_default: true,
 *          tree: switches: switch / children / nodes) and `fabric-block`
 *          (block: block_sizes, blocks: block / nodes); values quoted.
 * Comments (`#`) say what each Slurm switch stands for and which hosts
 * were left out and why. A long list is continued on the next line after
 * a trailing backslash, which Slurm's configuration parser joins, so no
 * line passes SL_LINE bytes; the continued line starts in column 0 (an
 * indented one is joined with its blanks, which end the value: seen with
 * slurmctld 22.05, tests/cli/slurm_parse_live.sh).
 * Cost O(nodes + links) plus sorting.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabriclint/write.h"
#include "io/slurm_tree.h"
#include "util/hostlist.h"
#include "util/natcmp.h"

/* Longest line written before a continuation (a backslash, a newline). */
#define SL_LINE 1000
/* Fabric switch names listed in the comment above a Slurm switch. */
#define SL_PHYS_LISTED 8
/* Bytes of a comment's list of left-out hosts before it is cut. */
#define SL_COMMENT_LIST 240

/* A switch in the output order: by level, then natural name. */
typedef struct sl_key {
  const char *name;
  uint32_t level, idx;
} sl_key;

static int key_cmp(const void *a, const void *b) {
  const sl_key *x = a, *y = b;
  if (x->level != y->level)
    return x->level < y->level ? -1 : 1;
  return fl_natcmp_strict(x->name, y->name);
}

static uint32_t *order_build(const fl_sl_tree *t) {
  sl_key *k = malloc(((size_t)t->n_sw + 1) * sizeof *k);
  uint32_t *o = malloc(((size_t)t->n_sw + 1) * sizeof *o);
  if (!k || !o) {
    free(k);
    free(o);
    return NULL;
  }
  for (uint32_t i = 0; i < t->n_sw; i++)
    k[i] = (sl_key){t->sw[i].name, t->sw[i].level, i};
  qsort(k, t->n_sw, sizeof *k, key_cmp);
  for (uint32_t i = 0; i < t->n_sw; i++)
    o[i] = k[i].idx;
  free(k);
  return o;
}

/* The length of the first element of hostlist @p (a bracket is one). */
static size_t element_len(const char *p) {
  size_t n = strcspn(p, ",");
  const char *br = memchr(p, '[', n);
  if (br) {
    const char *close = strchr(br, ']');
    n = close ? (size_t)(close - p) + 1 : strlen(p);
    n += strcspn(p + n, ",");
  }
  return n;
}

/* Writes "<key>=<list>" after @prefix and a newline, continuing past
 * SL_LINE bytes at a comma between two elements (a bracket is one). */
static void put_list(FILE *f, const char *prefix, const char *key,
                     const char *list) {
  int w = fprintf(f, "%s%s=", prefix, key);
  size_t col = w > 0 ? (size_t)w : 0;
  const char *p = list;
  while (*p) {
    size_t n = element_len(p);
    if (p != list) {
      if (col + n + 1 > SL_LINE) {
        fputs(",\\\n", f);
        col = 0;
      } else {
        fputc(',', f);
        col++;
      }
    }
    fwrite(p, 1, n, f);
    col += n;
    p += n;
    if (*p == ',')
      p++;
  }
  fputc('\n', f);
}

/* The hostlist of the hosts @idx[0..n) of @t. */
static char *fold_hosts(const fl_sl_tree *t, const uint32_t *idx, uint32_t n) {
  const char **v = malloc(((size_t)n + 1) * sizeof *v);
  if (!v)
    return NULL;
  for (uint32_t i = 0; i < n; i++)
    v[i] = t->hosts[idx[i]];
  char *s = fl_hostlist_fold(v, n);
  free(v);
  return s;
}

/* The hostlist of the names of @sw's child switches. */
static char *fold_kids(const fl_sl_tree *t, const fl_sl_switch *sw) {
  const char **v = malloc(((size_t)sw->n_kids + 1) * sizeof *v);
  if (!v)
    return NULL;
  for (uint32_t i = 0; i < sw->n_kids; i++)
    v[i] = t->sw[sw->kids[i]].name;
  char *s = fl_hostlist_fold(v, sw->n_kids);
  free(v);
  return s;
}

/* "# <name>: a, b, ... (N fabric switches)" when a Slurm switch stands for
 * more than one fabric switch, or for one of another name. */
static void put_phys(FILE *f, const char *indent, const fl_sl_switch *sw) {
  if (sw->n_units == 0) {
    fprintf(f,
            "%s# %s: no fabric switch; it joins the trees below it, which "
            "are cabled to each other but share no switch above\n",
            indent, sw->name);
    return;
  }
  if (sw->n_units == 1 && strcmp(sw->phys[0], sw->name) == 0)
    return;
  fprintf(f, "%s# %s: ", indent, sw->name);
  for (uint32_t i = 0; i < sw->n_units && i < SL_PHYS_LISTED; i++)
    fprintf(f, "%s%s", i ? ", " : "", sw->phys[i]);
  if (sw->n_units > SL_PHYS_LISTED)
    fprintf(f, " and %u more", sw->n_units - SL_PHYS_LISTED);
  fprintf(f, " (%u fabric switch%s)\n", sw->n_units,
          sw->n_units == 1 ? "" : "es");
}

/* Hostlist @s and a newline, cut after the element that passes
 * SL_COMMENT_LIST bytes (" ..." then): a comment, not a list Slurm reads. */
static void put_clipped(FILE *f, const char *s) {
  const char *p = s;
  while (*p && (size_t)(p - s) < SL_COMMENT_LIST) {
    p += element_len(p);
    if (*p == ',')
      p++;
  }
  if (*p)
    fprintf(f, "%.*s ...\n", (int)(p - s - 1), s);
  else
    fprintf(f, "%s\n", s);
}

/* The comment lines on the hosts left out, one per reason, folded. */
static int put_left(FILE *f, const char *indent, const fl_sl_tree *t) {
  for (uint32_t i = 0; i < t->n_left_out;) {
    uint32_t j = i;
    while (j < t->n_left_out && strcmp(t->left_why[j], t->left_why[i]) == 0)
      j++;
    char *s = fl_hostlist_fold((const char *const *)t->left_out + i, j - i);
    if (!s)
      return FL_ENOMEM;
    fprintf(f, "%s# left out (%s): %u: ", indent, t->left_why[i], j - i);
    put_clipped(f, s);
    free(s);
    i = j;
  }
  if (t->n_uncabled) {
    char *s = fl_hostlist_fold((const char *const *)t->uncabled, t->n_uncabled);
    if (!s)
      return FL_ENOMEM;
    fprintf(f, "%s# left out (cabled to no switch): %u: ", indent,
            t->n_uncabled);
    put_clipped(f, s);
    free(s);
  }
  return FL_OK;
}

static uint32_t placed_hosts(const fl_sl_tree *t) {
  uint32_t n = 0;
  for (uint32_t s = 0; s < t->n_sw; s++)
    n += t->sw[s].n_hosts;
  return n;
}

static uint32_t n_level_one(const fl_sl_tree *t) {
  uint32_t n = 0;
  for (uint32_t s = 0; s < t->n_sw; s++)
    n += t->sw[s].level == 1;
  return n;
}

/* The planning base block size: the fewest hosts of a block. */
static uint32_t min_block(const fl_sl_tree *t) {
  uint32_t m = 0;
  for (uint32_t s = 0; s < t->n_sw; s++)
    if (t->sw[s].level == 1 && (m == 0 || t->sw[s].n_hosts < m))
      m = t->sw[s].n_hosts;
  return m;
}

/* The hosts of a level-1 switch or its children's names. */
static char *members(const fl_sl_tree *t, const fl_sl_switch *sw) {
  return sw->level == 1 ? fold_hosts(t, sw->hosts, sw->n_hosts)
                        : fold_kids(t, sw);
}

/* ---- the three files ---------------------------------------------------- */

static int write_tree(FILE *f, const fl_sl_tree *t, const uint32_t *o) {
  fprintf(f,
          "# Slurm topology.conf for the topology/tree plugin "
          "(topology.conf(5)),\n"
          "# written by fabriclint convert: %u switch(es), %u node(s).\n"
          "# Nodes are hosts (a host's NICs together); a Slurm switch that "
          "stands for\n"
          "# several fabric switches (an SU's rail leaves, a spine group) "
          "names them.\n",
          t->n_sw, placed_hosts(t));
  if (put_left(f, "", t) != FL_OK)
    return FL_ENOMEM;
  for (uint32_t i = 0; i < t->n_sw; i++) {
    const fl_sl_switch *sw = &t->sw[o[i]];
    char *list = members(t, sw);
    if (!list)
      return FL_ENOMEM;
    put_phys(f, "", sw);
    char prefix[96];
    snprintf(prefix, sizeof prefix, "SwitchName=%s ", sw->name);
    put_list(f, prefix, sw->level == 1 ? "Nodes" : "Switches", list);
    free(list);
  }
  return FL_OK;
}

static int write_block(FILE *f, const fl_sl_tree *t, const uint32_t *o) {
  fprintf(f,
          "# Slurm topology.conf for the topology/block plugin "
          "(topology.conf(5)),\n"
          "# written by fabriclint convert: %u block(s), %u node(s). A "
          "block is the\n"
          "# hosts that share their leaf switches (an SU of a "
          "rail-optimised fabric).\n",
          n_level_one(t), placed_hosts(t));
  if (put_left(f, "", t) != FL_OK)
    return FL_ENOMEM;
  for (uint32_t i = 0; i < t->n_sw; i++) {
    const fl_sl_switch *sw = &t->sw[o[i]];
    if (sw->level != 1)
      continue;
    char *list = members(t, sw);
    if (!list)
      return FL_ENOMEM;
    put_phys(f, "", sw);
    char prefix[96];
    snprintf(prefix, sizeof prefix, "BlockName=%s ", sw->name);
    put_list(f, prefix, "Nodes", list);
    free(list);
  }
  fprintf(f, "BlockSizes=%u\n", min_block(t));
  return FL_OK;
}

/* YAML: every value double-quoted; names and hostlists hold no quote or
 * backslash (fl_hostlist_name_ok), so none is escaped. */
static int write_yaml(FILE *f, const fl_sl_tree *t, const uint32_t *o) {
  fprintf(f,
          "# Slurm topology.yaml (topology.yaml(5), Slurm 25.05 and later),\n"
          "# written by fabriclint convert: a tree of %u switch(es) and %u "
          "block(s),\n"
          "# %u node(s). A block is the hosts that share their leaf "
          "switches.\n",
          t->n_sw, n_level_one(t), placed_hosts(t));
  if (put_left(f, "", t) != FL_OK)
    return FL_ENOMEM;
  fputs("- topology: \"fabric-tree\"\n  cluster_default: true\n"
        "  tree:\n    switches:\n",
        f);
  for (uint32_t i = 0; i < t->n_sw; i++) {
    const fl_sl_switch *sw = &t->sw[o[i]];
    char *list = members(t, sw);
    if (!list)
      return FL_ENOMEM;
    put_phys(f, "    ", sw);
    fprintf(f, "    - switch: \"%s\"\n      %s: \"%s\"\n", sw->name,
            sw->level == 1 ? "nodes" : "children", list);
    free(list);
  }
  fprintf(f,
          "- topology: \"fabric-block\"\n  cluster_default: false\n"
          "  block:\n    block_sizes:\n      - %u\n    blocks:\n",
          min_block(t));
  for (uint32_t i = 0; i < t->n_sw; i++) {
    const fl_sl_switch *sw = &t->sw[o[i]];
    if (sw->level != 1)
      continue;
    char *list = members(t, sw);
    if (!list)
      return FL_ENOMEM;
    fprintf(f, "    - block: \"%s\"\n      nodes: \"%s\"\n", sw->name, list);
    free(list);
  }
  return FL_OK;
}

typedef int (*sl_form)(FILE *f, const fl_sl_tree *t, const uint32_t *o);

static int write_with(const fl_fabric *fab, FILE *out, fl_error *err,
                      sl_form form) {
  fl_sl_tree t;
  memset(&t, 0, sizeof t);
  int rc = fl_sl_tree_build(fab, &t, err);
  uint32_t *o = NULL;
  if (rc == FL_OK && !(o = order_build(&t)))
    rc = fl_error_set(err, FL_ENOMEM, NULL, 0, 0,
                      "out of memory writing the Slurm topology");
  if (rc == FL_OK && form(out, &t, o) != FL_OK)
    rc = fl_error_set(err, FL_ENOMEM, NULL, 0, 0,
                      "out of memory writing the Slurm topology");
  if (rc == FL_OK && (fflush(out) != 0 || ferror(out)))
    rc = fl_error_set(err, FL_EIO, NULL, 0, 0,
                      "writing the Slurm topology failed");
  free(o);
  fl_sl_tree_free(&t);
  return rc;
}

int fl_write_slurm_tree(const fl_fabric *fab, FILE *out, fl_error *err) {
  return write_with(fab, out, err, write_tree);
}

int fl_write_slurm_block(const fl_fabric *fab, FILE *out, fl_error *err) {
  return write_with(fab, out, err, write_block);
}

int fl_write_slurm_yaml(const fl_fabric *fab, FILE *out, fl_error *err) {
  return write_with(fab, out, err, write_yaml);
}
