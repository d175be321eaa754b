/* SPDX-License-Identifier: MIT */
/*
 * core/io/annotate.c — fl_load_annotations(): an attribute side file that
 * annotates a topology already loaded (node name -> attributes).
 *
 * Why: failure-domain checks need rack, PDU, power feed, row, hall, plane,
 * pod for every switch and host. A design XML carries them, but an as-built
 * dump (ibnetdiscover, ibsim) knows only GUIDs and node descriptions. The
 * facts live elsewhere — a NetBox export, a DCIM spreadsheet, a UFM YAML —
 * so the cheapest bridge is a two-column-plus file keyed by node name that
 * adds attributes to the loaded nodes (fl_b_attr), exactly as a design's
 * `rack="R12"` would. A dump plus its side file is then checked like a plan.
 *
 * Formats (content-detected by core/load.c):
 *
 *   CSV, header first; ',' or ';' separated; RFC 4180 quotes; '#' comments:
 *       node,rack,pdu,power-feed
 *       spine-01,R01,A3,A
 *       dgx-001,R12,B1,B          # a host name: all its NICs
 *   The first column is `node` or `name`; every other header cell is an
 *   attribute key. An empty cell sets nothing.
 *
 *   YAML (libyaml), a mapping under `nodes:`, or a list of mappings with
 *   a `name` (or `node`) key:
 *       nodes:
 *         spine-01: {rack: R01, pdu: A3, power-feed: A}
 *         dgx-001:
 *           rack: R12
 *
 * Name matching (first rule that matches wins, all its nodes are set):
 *   1. the node's display name, exactly (design name, node-name-map name or
 *      trimmed node description: what findings print);
 *   2. the node's system (host or chassis), exactly: "dgx-001" annotates
 *      every HCA of that host;
 *   3. 1 and 2 case-insensitively;
 *   4. the short host name (up to the first '.') of both sides,
 *      case-insensitively: "dgx-001.cluster.example" matches "dgx-001".
 * Systems are not derived until fl_fabric_finalize(), so this file derives
 * them the same way (the default system pattern, or --system-pattern, on
 * CAs; "MF0;<system>:" on switch descriptions).
 *
 * A name that matches no node is an error naming file:line — a typo in a
 * rack sheet must not silently drop a failure domain. Lists that cover
 * more than the captured fabric (spares, other subnets) can say
 * `# unknown-nodes: warn` (CSV comment line) or `unknown-nodes: warn`
 * (YAML top-level key), or the environment can set
 * FABRICLINT_ANNOTATIONS_UNKNOWN=warn; unknown names are then recorded as
 * notes (category "annotations", fl_fabric_note()) and skipped.
 *
 * Cost: O(N log N) to index N nodes once per file, O(log N) per row.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <yaml.h>

#include "io/fileio.h"
#include "io/formats.h"
#include "io/loaders.h"
#include "model/derive.h"
#include "model/fabric_impl.h"
#include "model/sysname.h"
#include "util/csv.h"
#include "util/natcmp.h"

/* ---- the name index
 * ---------------------------------------------------------- */

typedef struct name_ent {
  char *key;
  fl_id node;
} name_ent;

/* Index kinds, in matching order. */
enum { IX_NAME, IX_SYSTEM, IX_NAME_CI, IX_SYSTEM_CI, IX_SHORT, IX_COUNT };

typedef struct name_index {
  name_ent *v[IX_COUNT];
  size_t n[IX_COUNT];
} name_index;

typedef struct annot_ctx {
  fl_fabric *fab;
  const char *path;
  uint32_t file;
  int warn_unknown;
  name_index ix;
  fl_id *hits; /* scratch: nodes matched by one name */
  size_t cap_hits;
  fl_strmap seen; /* "name|key" -> index in vals: values this file set */
  char **vals;
  size_t n_vals, cap_vals;
} annot_ctx;

/* Attribute keys with a meaning for the rules (DESIGN.md section 4 and the
 * rule docs). A misspelt key would silently switch a check off, so other
 * keys are refused unless they start with "x-" (site-specific data). */
static const char *const KNOWN_KEYS[] = {
    "tier",  "rail",       "su",          "pod",        "plane",
    "rack",  "row",        "pdu",         "power-feed", "hall",
    "ar",    "ar-sl-mask", "role",        "cable",      "length",
    "media", "system",     "device",      "site",       "building",
    "room",  "tray",       "patch-panel", "peer-only",  "oversubscription",
    "u",     NULL};

static int known_key(const char *k) {
  if (strncmp(k, "x-", 2) == 0)
    return 1;
  for (size_t i = 0; KNOWN_KEYS[i]; i++)
    if (strcmp(KNOWN_KEYS[i], k) == 0)
      return 1;
  return 0;
}

/* Edit distance <= 2 (for "did you mean"). */
static const char *closest_key(const char *k) {
  const char *best = NULL;
  size_t best_d = 3;
  for (size_t i = 0; KNOWN_KEYS[i]; i++) {
    const char *c = KNOWN_KEYS[i];
    size_t d = fl_edit_distance(k, c, 3);
    if (d < best_d) {
      best_d = d;
      best = c;
    }
  }
  return best;
}

static int cmp_ent(const void *x, const void *y) {
  const name_ent *a = x, *b = y;
  int c = strcmp(a->key, b->key);
  return c ? c : (a->node < b->node ? -1 : a->node > b->node);
}

static char *dup_lower(const char *s, size_t len, int short_name) {
  if (short_name) {
    const char *dot = memchr(s, '.', len);
    if (dot && dot > s)
      len = (size_t)(dot - s);
  }
  char *d = malloc(len + 1);
  if (!d)
    return NULL;
  for (size_t i = 0; i < len; i++)
    d[i] = (char)tolower((unsigned char)s[i]);
  d[len] = '\0';
  return d;
}

static int ix_add(name_index *ix, int kind, const char *s, size_t len,
                  fl_id node, size_t *cap) {
  if (len == 0)
    return 0;
  if (ix->n[kind] == cap[kind]) {
    size_t nc = cap[kind] ? cap[kind] * 2 : 256;
    name_ent *v = realloc(ix->v[kind], nc * sizeof *v);
    if (!v)
      return -1;
    ix->v[kind] = v;
    cap[kind] = nc;
  }
  char *k = (kind == IX_NAME || kind == IX_SYSTEM)
                ? strndup(s, len)
                : dup_lower(s, len, kind == IX_SHORT);
  if (!k)
    return -1;
  ix->v[kind][ix->n[kind]++] = (name_ent){k, node};
  return 0;
}

static void ix_free(name_index *ix) {
  for (int k = 0; k < IX_COUNT; k++) {
    for (size_t i = 0; i < ix->n[k]; i++)
      free(ix->v[k][i].key);
    free(ix->v[k]);
  }
  memset(ix, 0, sizeof *ix);
}

/* The display name finalize will give node @r (fill_names in fabric.c):
 * the name, else the trimmed description. GUID-only nodes have none. */
static const char *display_name(const fl_fabric *fab, const fl_node_rec *r,
                                size_t *len) {
  const char *d = fl_b_atom_str(fab, r->name ? r->name : r->desc);
  size_t n = strlen(d);
  if (!r->name) {
    while (n && (*d == ' ' || *d == '\t'))
      d++, n--;
    while (n && (d[n - 1] == ' ' || d[n - 1] == '\t'))
      n--;
  }
  *len = n;
  return d;
}

/* The system finalize will derive (core/derive.c): the given system, else
 * for CAs/routers group 1 of the system pattern on the display name, else
 * for switches the "<system>" of "MF0;<system>:<type>". */
static const char *system_of(const fl_fabric *fab, const fl_node_rec *r,
                             const fl_sysmatch *sm, const char *name,
                             size_t name_len, size_t *len) {
  if (r->system) {
    const char *s = fl_b_atom_str(fab, r->system);
    *len = strlen(s);
    return s;
  }
  *len = 0;
  if (r->kind == FL_NODE_SWITCH) {
    const char *d = fl_b_atom_str(fab, r->desc);
    const char *colon = strncmp(d, "MF0;", 4) == 0 ? strchr(d + 4, ':') : NULL;
    if (colon && colon > d + 4) {
      *len = (size_t)(colon - d - 4);
      return d + 4;
    }
    return NULL;
  }
  char buf[1024];
  if (name_len >= sizeof buf)
    return NULL;
  memcpy(buf, name, name_len);
  buf[name_len] = '\0';
  regmatch_t m[3];
  if (fl_sysmatch_run(sm, buf, m) != 0 || m[1].rm_so < 0)
    return NULL;
  *len = (size_t)(m[1].rm_eo - m[1].rm_so);
  return name + m[1].rm_so;
}

static int build_index(annot_ctx *c, fl_error *err) {
  fl_fabric *fab = c->fab;
  fl_sysmatch sm;
  if (fl_sysmatch_init(&sm, fab->system_pattern, NULL) != FL_OK)
    return fl_error_set(err, FL_EINVAL, c->path, 0, 0, "bad system pattern");
  size_t cap[IX_COUNT] = {0};
  int rc = 0;
  for (size_t i = 0; i < fab->n_nodes && rc == 0; i++) {
    const fl_node_rec *r = &fab->nodes[i];
    size_t nl, sl;
    const char *nm = display_name(fab, r, &nl);
    const char *sys = system_of(fab, r, &sm, nm, nl, &sl);
    rc |= ix_add(&c->ix, IX_NAME, nm, nl, (fl_id)i, cap);
    rc |= ix_add(&c->ix, IX_NAME_CI, nm, nl, (fl_id)i, cap);
    rc |= ix_add(&c->ix, IX_SHORT, nm, nl, (fl_id)i, cap);
    if (sys && sl) {
      rc |= ix_add(&c->ix, IX_SYSTEM, sys, sl, (fl_id)i, cap);
      rc |= ix_add(&c->ix, IX_SYSTEM_CI, sys, sl, (fl_id)i, cap);
      if (sl != nl || memcmp(sys, nm, sl) != 0)
        rc |= ix_add(&c->ix, IX_SHORT, sys, sl, (fl_id)i, cap);
    }
  }
  fl_sysmatch_free(&sm);
  if (rc)
    return fl_error_set(err, FL_ENOMEM, c->path, 0, 0, "out of memory");
  for (int k = 0; k < IX_COUNT; k++)
    if (c->ix.n[k] > 1) /* an empty index is NULL: qsort(NULL, 0) is UB */
      qsort(c->ix.v[k], c->ix.n[k], sizeof(name_ent), cmp_ent);
  return FL_OK;
}

/* First entry of index @kind whose key is >= @key. */
static size_t lower_bound(const name_ent *v, size_t n, const char *key) {
  size_t lo = 0, hi = n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (strcmp(v[mid].key, key) < 0)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

/* Nodes that @name designates (c->hits), by the first matching rule.
 * Returns the count, or -1 when out of memory. */
static long resolve(annot_ctx *c, const char *name) {
  size_t len = strlen(name);
  for (int k = 0; k < IX_COUNT; k++) {
    char *key = (k == IX_NAME || k == IX_SYSTEM)
                    ? strdup(name)
                    : dup_lower(name, len, k == IX_SHORT);
    if (!key)
      return -1;
    const name_ent *v = c->ix.v[k];
    size_t n = c->ix.n[k], i = lower_bound(v, n, key), cnt = 0;
    for (; i < n && strcmp(v[i].key, key) == 0; i++) {
      if (cnt == c->cap_hits) {
        size_t nc = c->cap_hits ? c->cap_hits * 2 : 16;
        fl_id *h = realloc(c->hits, nc * sizeof *h);
        if (!h) {
          free(key);
          return -1;
        }
        c->hits = h;
        c->cap_hits = nc;
      }
      /* a node can sit twice in IX_SHORT (name and system): once is enough */
      if (cnt == 0 || c->hits[cnt - 1] != v[i].node)
        c->hits[cnt++] = v[i].node;
    }
    free(key);
    if (cnt)
      return (long)cnt;
  }
  return 0;
}

/* Apply one record: @keys/@vals (n pairs) to the nodes named @name. */
/* 1 when @v is a tier: a decimal number 0..255, nothing else. */
static int tier_ok(const char *v) {
  unsigned n = 0;
  size_t i = 0;
  for (; v[i] >= '0' && v[i] <= '9' && i < 4; i++)
    n = n * 10 + (unsigned)(v[i] - '0');
  return i > 0 && v[i] == '\0' && n <= 255;
}

static int apply(annot_ctx *c, const char *name, char **keys, char **vals,
                 size_t n, uint32_t line, uint32_t col, fl_error *err) {
  if (!*name)
    return fl_error_set(err, FL_EPARSE, c->path, line, col,
                        "empty node name; expected the name of a node, host "
                        "or switch of the loaded topology");
  long hits = resolve(c, name);
  if (hits < 0)
    return fl_error_set(err, FL_ENOMEM, c->path, line, col, "out of memory");
  if (hits == 0) {
    if (c->warn_unknown) {
      fl_b_note(c->fab, "annotations", (fl_prov){c->file, line, col},
                "unknown node \"%s\" skipped (no node, host or short host "
                "name of the loaded topology matches)",
                name);
      return FL_OK;
    }
    return fl_error_set(err, FL_EPARSE, c->path, line, col,
                        "unknown node \"%s\": no node, host or short host name "
                        "of the loaded topology matches (load the topology "
                        "first; `# unknown-nodes: warn` skips such rows)",
                        name);
  }
  for (size_t k = 0; k < n; k++) {
    if (!known_key(keys[k])) {
      const char *near = closest_key(keys[k]);
      return fl_error_set(err, FL_EPARSE, c->path, line, col,
                          "unknown attribute key `%s`%s%s%s; known keys: rack, "
                          "row, hall, pdu, power-feed, plane, pod, su, rail, "
                          "tier, role, ar, ...; site-specific keys start with "
                          "x-",
                          keys[k], near ? " (did you mean `" : "",
                          near ? near : "", near ? "`?)" : "");
    }
    if (!vals[k] || !*vals[k])
      continue;
    if (strcmp(keys[k], "tier") == 0 && !tier_ok(vals[k])) {
      size_t vl = strlen(vals[k]), q = vl > 20 ? 20 : vl;
      return fl_error_set(err, FL_EPARSE, c->path, line, col,
                          "tier=%.*s%s: expected a number 0..255 (as in "
                          "design XML; 0 is the endpoints, 1 the leaves)",
                          (int)q, vals[k], vl > q ? "..." : "");
    }
    /* peer-only pins the view inference (core/model/views.c) */
    if (strcmp(keys[k], "peer-only") == 0 && strcmp(vals[k], "yes") != 0 &&
        strcmp(vals[k], "no") != 0)
      return fl_error_set(err, FL_EPARSE, c->path, line, col,
                          "peer-only=%.20s: expected yes (known only from "
                          "its neighbours' side) or no (its view counts)",
                          vals[k]);
    /* the same name given two values for one key is a contradiction (a
     * host row and a more specific NIC row may differ: the later wins) */
    char sk[512];
    int skn = snprintf(sk, sizeof sk, "%s|%s", name, keys[k]);
    if (skn < 0 || (size_t)skn >= sizeof sk)
      skn = (int)sizeof sk - 1;
    uint32_t idx = fl_strmap_get(&c->seen, sk, (size_t)skn);
    if (idx != FL_MAP_ABSENT && strcmp(c->vals[idx], vals[k]) != 0)
      return fl_error_set(err, FL_EPARSE, c->path, line, col,
                          "\"%s\" gets %s=%s here but %s=%s in an earlier "
                          "row: one value per name and key",
                          name, keys[k], vals[k], keys[k], c->vals[idx]);
    if (idx == FL_MAP_ABSENT) {
      if (c->n_vals == c->cap_vals) {
        size_t nc = c->cap_vals ? c->cap_vals * 2 : 64;
        char **nv = realloc(c->vals, nc * sizeof *nv);
        if (!nv)
          return fl_error_set(err, FL_ENOMEM, c->path, line, col,
                              "out of memory");
        c->vals = nv;
        c->cap_vals = nc;
      }
      c->vals[c->n_vals] = strdup(vals[k]);
      if (!c->vals[c->n_vals] ||
          fl_strmap_put(&c->seen, sk, (size_t)skn, (uint32_t)c->n_vals) ==
              FL_MAP_ABSENT)
        return fl_error_set(err, FL_ENOMEM, c->path, line, col,
                            "out of memory");
      c->n_vals++;
    }
    for (long h = 0; h < hits; h++) {
      if (fl_b_attr(c->fab, FL_ENT_NODE, c->hits[h], keys[k], vals[k]) != FL_OK)
        return fl_error_set(err, FL_ENOMEM, c->path, line, col,
                            "out of memory");
    }
  }
  return FL_OK;
}

/* "unknown-nodes: warn" / "unknown-nodes=warn" in a comment or key. */
static int parse_unknown_mode(const char *s, int *warn) {
  while (isspace((unsigned char)*s))
    s++;
  if (strncasecmp(s, "unknown-nodes", 13) != 0)
    return 0;
  s += 13;
  while (isspace((unsigned char)*s) || *s == ':' || *s == '=')
    s++;
  if (strncasecmp(s, "warn", 4) == 0)
    *warn = 1;
  else if (strncasecmp(s, "error", 5) == 0)
    *warn = 0;
  else
    return -1;
  return 1;
}

/* ---- CSV
 * ---------------------------------------------------------------------- */

#define CSV_MAX_COLS 64

/* Split line @s (inside @line, which gives the columns) into @out (texts
 * borrowed from @rd until its next record) and their columns @col, with
 * the project's CSV reader (util/csv.h: RFC 4180 quotes, blanks around
 * cells trimmed, nothing but blanks after a closing quote). Returns the
 * field count, or -1 on an unterminated quote, text after a closing quote
 * or more than CSV_MAX_COLS fields. */
static int csv_split(fl_csv *rd, const char *line, const char *s, char **out,
                     uint32_t *col) {
  fl_csv_start(rd, s, strlen(s));
  if (fl_csv_next(rd) != 1)
    return -1;
  for (size_t i = 0; i < rd->n; i++) {
    out[i] = fl_csv_cell_text(rd, i);
    col[i] = (uint32_t)(s - line) + rd->c[i].col;
  }
  return (int)rd->n;
}

static int load_csv(annot_ctx *c, FILE *in, fl_error *err) {
  char *line = NULL;
  size_t cap = 0;
  ssize_t got;
  uint32_t ln = 0;
  char *keys[CSV_MAX_COLS], *cells[CSV_MAX_COLS];
  uint32_t col[CSV_MAX_COLS];
  int ncols = 0, rc = FL_OK;
  fl_csv rd;
  fl_csv_init(&rd, ',', CSV_MAX_COLS, FL_CSV_TRIM | FL_CSV_STRICT_QUOTE);
  while (rc == FL_OK && (got = getline(&line, &cap, in)) >= 0) {
    ln++;
    while (got > 0 && (line[got - 1] == '\n' || line[got - 1] == '\r'))
      line[--got] = '\0';
    char *s = line;
    if (ln == 1 && (unsigned char)s[0] == 0xef && (unsigned char)s[1] == 0xbb &&
        (unsigned char)s[2] == 0xbf)
      s += 3;
    while (isspace((unsigned char)*s))
      s++;
    if (*s == '\0')
      continue;
    if (*s == '#') {
      if (parse_unknown_mode(s + 1, &c->warn_unknown) < 0)
        rc = fl_error_set(err, FL_EPARSE, c->path, ln, 1,
                          "unknown-nodes: expected warn or error");
      continue;
    }
    if (!ncols) { /* the header */
      char sep = strchr(s, ';') && !strchr(s, ',') ? ';' : ',';
      fl_csv_free(&rd);
      fl_csv_init(&rd, sep, CSV_MAX_COLS, FL_CSV_TRIM | FL_CSV_STRICT_QUOTE);
      int n = csv_split(&rd, line, s, cells, col);
      if (n < 1 ||
          (strcasecmp(cells[0], "node") && strcasecmp(cells[0], "name"))) {
        rc = fl_error_set(err, FL_EPARSE, c->path, ln, 1,
                          "expected a header row whose first column is `node` "
                          "or `name`, then attribute keys (rack, pdu, ...)");
        break;
      }
      for (int i = 1; i < n && rc == FL_OK; i++) {
        if (!*cells[i])
          rc = fl_error_set(
              err, FL_EPARSE, c->path, ln, col[i],
              "header column %d is empty; expected an attribute key", i + 1);
        else if (!(keys[i - 1] = strdup(cells[i])))
          rc = fl_error_set(err, FL_ENOMEM, c->path, ln, 0, "out of memory");
        else {
          ncols = i; /* keys[0..ncols) are owned (freed on every path) */
          for (int j = 1; j < i && rc == FL_OK; j++)
            if (strcmp(cells[j], cells[i]) == 0)
              rc = fl_error_set(err, FL_EPARSE, c->path, ln, col[i],
                                "header column `%s` appears twice", cells[i]);
        }
      }
      if (rc == FL_OK && n < 2)
        rc = fl_error_set(err, FL_EPARSE, c->path, ln, 0,
                          "the header names no attribute column after `%s`",
                          cells[0]);
      continue;
    }
    int n = csv_split(&rd, line, s, cells, col);
    if (n < 0) {
      rc = fl_error_set(
          err, FL_EPARSE, c->path, ln, 0,
          "bad CSV record (unterminated quote or more than %d columns)",
          CSV_MAX_COLS);
      break;
    }
    if (n > ncols + 1) {
      rc = fl_error_set(err, FL_EPARSE, c->path, ln, 0,
                        "%d fields, but the header has %d columns", n,
                        ncols + 1);
      break;
    }
    for (int i = n; i <= ncols; i++)
      cells[i] = NULL; /* short rows: missing cells set nothing */
    rc = apply(c, cells[0], keys, cells + 1, (size_t)ncols, ln, 1, err);
  }
  if (rc == FL_OK && ferror(in))
    rc = fl_error_set(err, FL_EIO, c->path, 0, 0, "read error");
  if (rc == FL_OK && !ncols)
    rc = fl_error_set(err, FL_EPARSE, c->path, ln, 0,
                      "no header row: expected `node,KEY,...`");
  for (int i = 0; i < ncols; i++)
    free(keys[i]);
  free(line);
  fl_csv_free(&rd);
  return rc;
}

/* ---- YAML
 * --------------------------------------------------------------------- */

static int y_scalar(yaml_document_t *d, int id, const char **out) {
  yaml_node_t *n = yaml_document_get_node(d, id);
  if (!n || n->type != YAML_SCALAR_NODE)
    return -1;
  *out = (const char *)n->data.scalar.value;
  return 0;
}

static int y_err(annot_ctx *c, fl_error *err, yaml_node_t *n,
                 const char *what) {
  return fl_error_set(err, FL_EPARSE, c->path, (uint32_t)n->start_mark.line + 1,
                      (uint32_t)n->start_mark.column + 1, "%s", what);
}

/* One node entry: @name and the mapping @map of its attributes. */
static int y_entry(annot_ctx *c, yaml_document_t *d, const char *name,
                   yaml_node_t *map, yaml_node_t *at, int skip_key,
                   fl_error *err) {
  if (!map || map->type != YAML_MAPPING_NODE)
    return y_err(c, err, map ? map : at,
                 "expected a mapping of attributes (rack: R01, pdu: A3, ...)");
  size_t n =
      (size_t)(map->data.mapping.pairs.top - map->data.mapping.pairs.start);
  char **keys = calloc(n + 1, sizeof *keys),
       **vals = calloc(n + 1, sizeof *vals);
  int rc = keys && vals
               ? FL_OK
               : fl_error_set(err, FL_ENOMEM, c->path, 0, 0, "out of memory");
  size_t k = 0;
  for (yaml_node_pair_t *p = map->data.mapping.pairs.start;
       rc == FL_OK && p < map->data.mapping.pairs.top; p++) {
    const char *key, *val;
    if (y_scalar(d, p->key, &key) != 0) {
      rc = y_err(c, err, yaml_document_get_node(d, p->key),
                 "expected an attribute key");
      break;
    }
    if (skip_key && (strcmp(key, "name") == 0 || strcmp(key, "node") == 0))
      continue;
    if (!*key) {
      rc = y_err(c, err, yaml_document_get_node(d, p->key),
                 "empty attribute key");
      break;
    }
    if (y_scalar(d, p->value, &val) != 0) {
      rc = y_err(c, err, yaml_document_get_node(d, p->value),
                 "expected a scalar attribute value");
      break;
    }
    keys[k] = (char *)key;
    vals[k++] = (char *)val;
  }
  if (rc == FL_OK)
    rc = apply(c, name, keys, vals, k, (uint32_t)at->start_mark.line + 1,
               (uint32_t)at->start_mark.column + 1, err);
  free(keys);
  free(vals);
  return rc;
}

static int load_yaml(annot_ctx *c, const fl_input *in, fl_error *err) {
  yaml_parser_t parser;
  yaml_document_t doc;
  const char *text = in->buf;
  size_t tlen = in->len;
  if (fl_yaml_depth_check(text, tlen, 64, c->path, err) != FL_OK)
    return FL_EPARSE;
  if (!yaml_parser_initialize(&parser))
    return fl_error_set(err, FL_ENOMEM, c->path, 0, 0, "out of memory");
  yaml_parser_set_input_string(&parser, (const unsigned char *)text, tlen);
  int loaded = yaml_parser_load(&parser, &doc);
  if (!loaded) {
    int rc = fl_error_set(
        err, FL_EPARSE, c->path, (uint32_t)parser.problem_mark.line + 1,
        (uint32_t)parser.problem_mark.column + 1, "YAML: %s%s%s",
        parser.problem ? parser.problem : "syntax error",
        parser.context ? " " : "", parser.context ? parser.context : "");
    yaml_parser_delete(&parser);
    return rc;
  }
  yaml_parser_delete(&parser);
  int rc = FL_OK;
  yaml_node_t *root = yaml_document_get_root_node(&doc);
  yaml_node_t *nodes = NULL;
  if (!root || root->type != YAML_MAPPING_NODE) {
    rc = fl_error_set(err, FL_EPARSE, c->path,
                      root ? (uint32_t)root->start_mark.line + 1 : 1, 0,
                      "expected a mapping with a `nodes:` key");
    goto out;
  }
  for (yaml_node_pair_t *p = root->data.mapping.pairs.start;
       rc == FL_OK && p < root->data.mapping.pairs.top; p++) {
    const char *key, *val;
    yaml_node_t *kn = yaml_document_get_node(&doc, p->key);
    if (y_scalar(&doc, p->key, &key) != 0) {
      rc = y_err(c, err, kn, "expected a key (nodes, unknown-nodes)");
    } else if (strcmp(key, "nodes") == 0) {
      nodes = yaml_document_get_node(&doc, p->value);
    } else if (strcmp(key, "unknown-nodes") == 0) {
      if (y_scalar(&doc, p->value, &val) != 0 ||
          (strcmp(val, "warn") && strcmp(val, "error")))
        rc = y_err(c, err, yaml_document_get_node(&doc, p->value),
                   "unknown-nodes: expected warn or error");
      else
        c->warn_unknown = strcmp(val, "warn") == 0;
    } else {
      char msg[256];
      snprintf(msg, sizeof msg,
               "unknown key `%.100s`; expected nodes or unknown-nodes", key);
      rc = y_err(c, err, kn, msg);
    }
  }
  if (rc != FL_OK)
    goto out;
  if (!nodes) {
    rc = fl_error_set(err, FL_EPARSE, c->path, 1, 0, "no `nodes:` key");
  } else if (nodes->type == YAML_MAPPING_NODE) {
    for (yaml_node_pair_t *p = nodes->data.mapping.pairs.start;
         rc == FL_OK && p < nodes->data.mapping.pairs.top; p++) {
      const char *name;
      yaml_node_t *kn = yaml_document_get_node(&doc, p->key);
      if (y_scalar(&doc, p->key, &name) != 0)
        rc = y_err(c, err, kn, "expected a node name");
      else
        rc = y_entry(c, &doc, name, yaml_document_get_node(&doc, p->value), kn,
                     0, err);
    }
  } else if (nodes->type == YAML_SEQUENCE_NODE) {
    for (yaml_node_item_t *it = nodes->data.sequence.items.start;
         rc == FL_OK && it < nodes->data.sequence.items.top; it++) {
      yaml_node_t *m = yaml_document_get_node(&doc, *it);
      const char *name = NULL;
      if (m && m->type == YAML_MAPPING_NODE)
        for (yaml_node_pair_t *p = m->data.mapping.pairs.start;
             p < m->data.mapping.pairs.top; p++) {
          const char *k;
          if (y_scalar(&doc, p->key, &k) == 0 &&
              (strcmp(k, "name") == 0 || strcmp(k, "node") == 0))
            y_scalar(&doc, p->value, &name);
        }
      if (!name)
        rc = y_err(c, err, m, "expected a mapping with a `name:` key");
      else
        rc = y_entry(c, &doc, name, m, m, 1, err);
    }
  } else if (nodes->type != YAML_SCALAR_NODE || *nodes->data.scalar.value) {
    rc = y_err(c, err, nodes,
               "`nodes:` must hold a mapping (name: {key: value}) or a list");
  }
out:
  yaml_document_delete(&doc);
  return rc;
}

/* ---- entry point
 * -------------------------------------------------------------- */

/* YAML when the first significant line is a `key:` (`nodes:`,
 * `unknown-nodes:`); a CSV header has a separator before any colon. */
static int looks_yaml(FILE *in) {
  char buf[512];
  int yaml = 0;
  while (fgets(buf, sizeof buf, in)) {
    char *s = buf;
    if ((unsigned char)s[0] == 0xef && (unsigned char)s[1] == 0xbb)
      s += 3;
    while (isspace((unsigned char)*s))
      s++;
    if (!*s || *s == '#' || strncmp(s, "---", 3) == 0)
      continue;
    size_t key = strcspn(s, ":,;\"");
    yaml = s[key] == ':';
    break;
  }
  rewind(in);
  return yaml;
}

int fl_load_annotations(fl_fabric *fab, const fl_input *in,
                        const fl_load_options *opts, fl_error *err) {
  const char *path = in->path;
  (void)opts;
  if (fab->n_nodes == 0)
    return fl_error_set(err, FL_EINVAL, path, 0, 0,
                        "an annotation file needs a topology loaded first "
                        "(give the dump or design before it)");
  FILE *fp = fmemopen(in->buf, in->len, "r");
  if (!fp)
    return fl_error_set(err, FL_ENOMEM, path, 0, 0, "cannot read: %s",
                        strerror(errno));
  annot_ctx c;
  memset(&c, 0, sizeof c);
  c.fab = fab;
  c.path = path;
  c.file = fl_b_file(fab, path);
  const char *env = getenv("FABRICLINT_ANNOTATIONS_UNKNOWN");
  c.warn_unknown = env && strcmp(env, "warn") == 0;
  int rc = build_index(&c, err);
  if (rc == FL_OK) {
    if (looks_yaml(fp)) {
      rc = load_yaml(&c, in, err);
    } else {
      rc = load_csv(&c, fp, err);
    }
  }
  fclose(fp);
  ix_free(&c.ix);
  free(c.hits);
  fl_strmap_free(&c.seen);
  for (size_t i = 0; i < c.n_vals; i++)
    free(c.vals[i]);
  free(c.vals);
  return rc;
}

/* ---- detection (formats.h) ---- */

/* The YAML key `nodes:` (plain or quoted) followed by nothing, a comment,
 * or the start of a flow collection: `nodes: [{name: x, rack: R1}]` and
 * `nodes: {x: {rack: R1}}` are the same document as the block form. */
static int is_yaml_nodes_key(const char *p, const char *le) {
  static const char *const keys[] = {"nodes:", "\"nodes\":", "'nodes':"};
  for (size_t k = 0; k < sizeof keys / sizeof *keys; k++) {
    size_t kl = strlen(keys[k]);
    if ((size_t)(le - p) < kl || strncmp(p, keys[k], kl) != 0)
      continue;
    const char *v = fl_detect_skip_ws(p + kl, le);
    if (v == le || *v == '#' || *v == '[' || *v == '{')
      return 1;
  }
  return 0;
}

/* A YAML document marker or directive line (`---`, `%YAML 1.2`), which may
 * precede the `nodes:` key. */
static int is_yaml_preamble(const char *p, const char *le) {
  if (*p == '%')
    return 1;
  return le - p >= 3 && strncmp(p, "---", 3) == 0 &&
         (le - p == 3 || p[3] == ' ' || p[3] == '\t' || p[3] == '\r');
}

/* An attribute side file: the first line that is not blank, a comment or a
 * YAML preamble is a CSV header whose first column is "node" or "name", or
 * the YAML key "nodes:" (block or flow form). */
static uint32_t detect_annotations(const fl_detect_ctx *c, fl_error *err) {
  (void)err;
  if (c->xml_root)
    return FL_FMT_AUTO;
  const char *s = c->text, *end = c->text + c->len, *line, *le;
  while ((line = fl_detect_line(&s, end, &le)) != NULL) {
    const char *p = fl_detect_skip_ws(line, le);
    if (p < le && *p != '#') {
      size_t n = (size_t)(le - p);
      if ((n > 5 && strncasecmp(p, "node", 4) == 0 &&
           (p[4] == ',' || p[4] == ';')) ||
          (n > 5 && strncasecmp(p, "name", 4) == 0 &&
           (p[4] == ',' || p[4] == ';')))
        return FL_FMT_ANNOTATIONS;
      if (is_yaml_nodes_key(p, le))
        return FL_FMT_ANNOTATIONS;
      if (!is_yaml_preamble(p, le))
        return FL_FMT_AUTO;
    }
  }
  return FL_FMT_AUTO;
}

const fl_format_def fl_fmt_annotations = {
    FL_FMT_ANNOTATIONS,
    "annotations",
    NULL,
    0,
    fl_load_annotations,
    detect_annotations,
    "an attribute file (CSV with a node/name column, or YAML `nodes:`)"};
