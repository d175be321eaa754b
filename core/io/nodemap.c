/* SPDX-License-Identifier: MIT */
/*
 * core/io/nodemap.c — node-name-map reader with infiniband-diags semantics.
 *
 * Why: names in ibnetdiscover/iblinkinfo output come from this file, so
 * fabriclint must apply it exactly as rdma-core does or names would not
 * match between tools. Source of the format: rdma-core
 * util/node_name_map.c, parse_node_map_wrap() and map_name():
 *   - leading whitespace is skipped; empty lines and lines whose first
 *     non-blank byte is '#' are ignored;
 *   - the GUID is read with strtoull(p, &e, 0) (0x hex, decimal, 0 octal) and
 *     must be followed by whitespace, '#' or the end of the line;
 *   - after the blanks that follow the GUID, the name is the first token of
 *     strtok(p, "\"#"): leading '"'/'#' are skipped and the name runs to the
 *     next '"' or '#'. So `0x1 "a b" # c` and `0x1 a b#c` both give "a b",
 *     unquoted trailing blanks are kept, and a line with no name adds nothing;
 *   - the first entry for a GUID wins (cl_qmap_insert keeps the old item).
 * Deliberate differences: rdma-core gives up on the whole file at the first
 * malformed line and only prints a warning; fabriclint returns FL_EPARSE
 * naming file:line:col. fabriclint also refuses lines rdma-core silently
 * skips or misreads, because each hides a typo that would leave a node
 * unnamed: a GUID that overflows 64 bits, a GUID with no name, an empty name
 * (""), and a quote that is never closed. rdma-core reads with a 256-byte fgets
 * buffer (longer lines are split); fabriclint reads lines whole. A trailing
 * '\r' (CRLF file) is dropped instead of being kept inside the name.
 */
#include "io/nodemap.h"
#include "io/fileio.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabriclint/load.h"
#include "fabriclint/types.h"

/* Append @len bytes + NUL to the arena; returns the offset or -1 (ENOMEM). */
static long arena_add(fl_nodemap *m, const char *s, size_t len) {
  if (m->alen + len + 1 > m->acap) {
    size_t cap = m->acap ? m->acap : 4096;
    while (cap < m->alen + len + 1)
      cap *= 2;
    char *a = realloc(m->arena, cap);
    if (!a)
      return -1;
    m->arena = a;
    m->acap = cap;
  }
  long off = (long)m->alen;
  memcpy(m->arena + m->alen, s, len);
  m->arena[m->alen + len] = '\0';
  m->alen += len + 1;
  return off;
}

/* map_name(): strtok(p, "\"#") on [p, e). Returns 0 or FL_ENOMEM. */
static int add_entry(fl_nodemap *m, uint64_t guid, const char *p,
                     const char *e) {
  while (p < e && (*p == '"' || *p == '#'))
    p++;
  const char *q = p;
  while (q < e && *q != '"' && *q != '#')
    q++;
  if (q == p)
    return FL_OK; /* strtok() found no token: nothing is added */
  if (fl_u64map_get(&m->map, guid) != FL_MAP_ABSENT)
    return FL_OK; /* first entry wins */
  long off = arena_add(m, p, (size_t)(q - p));
  if (off < 0 || off >= (long)FL_MAP_ABSENT)
    return FL_ENOMEM;
  if (fl_u64map_put(&m->map, guid, (uint32_t)off) == FL_MAP_ABSENT)
    return FL_ENOMEM;
  return FL_OK;
}

/* One line [s, e) without its '\n'. @tmp is scratch of at least e-s+1. */
static int parse_line(fl_nodemap *m, const char *s, const char *e, char *tmp,
                      const char *path, uint32_t lineno, fl_error *err) {
  if (e > s && e[-1] == '\r')
    e--;
  const char *p = s;
  while (p < e && isspace((unsigned char)*p))
    p++;
  if (p == e || *p == '#')
    return FL_OK;
  size_t n = (size_t)(e - p);
  memcpy(tmp, p, n);
  tmp[n] = '\0';
  char *end;
  errno = 0;
  uint64_t guid = strtoull(tmp, &end, 0);
  if (end == tmp ||
      (!isspace((unsigned char)*end) && *end != '#' && *end != '\0'))
    return fl_error_set(err, FL_EPARSE, path, lineno,
                        (uint32_t)(p - s) + (uint32_t)(end - tmp) + 1,
                        "node-name-map: expected a GUID (0x... hex, decimal "
                        "or octal) followed by a blank, '#' or the end of the "
                        "line, got \"%.*s%s\"",
                        (int)(n > 60 ? 60 : n), p, n > 60 ? "..." : "");
  uint32_t col = (uint32_t)(p - s) + 1;
  if (errno == ERANGE)
    return fl_error_set(err, FL_EPARSE, path, lineno, col,
                        "node-name-map: GUID \"%.*s%s\" is out of range "
                        "(allowed 0..0xffffffffffffffff: 64 bits)",
                        (int)(end - tmp > 40 ? 40 : end - tmp), p,
                        end - tmp > 40 ? "..." : "");
  const char *q = p + (end - tmp);
  while (q < e && isspace((unsigned char)*q))
    q++;
  col = (uint32_t)(q - s) + 1;
  const char *t = q; /* the name as rdma-core's strtok(p, "\"#") sees it */
  while (t < e && (*t == '"' || *t == '#'))
    t++;
  const char *te = t;
  while (te < e && *te != '"' && *te != '#')
    te++;
  if (te == t)
    return fl_error_set(err, FL_EPARSE, path, lineno, col,
                        q < e && *q == '"' && q + 1 < e && q[1] == '"'
                            ? "node-name-map: the name is empty"
                            : "node-name-map: expected a name after the GUID");
  if (*q == '"') {
    const char *close = memchr(q + 1, '"', (size_t)(e - q - 1));
    if (!close)
      return fl_error_set(err, FL_EPARSE, path, lineno, col,
                          "node-name-map: the quoted name is never closed");
    if (close == q + 1)
      return fl_error_set(err, FL_EPARSE, path, lineno, col,
                          "node-name-map: the name is empty");
  }
  int rc = add_entry(m, guid, q, e);
  if (rc)
    return fl_error_set(err, rc, path, lineno, 0, "out of memory");
  return FL_OK;
}

int fl_nodemap_parse(fl_nodemap *m, const char *buf, size_t len,
                     const char *path, fl_error *err) {
  size_t maxline = 0;
  for (size_t i = 0, start = 0; i <= len; i++) {
    if (i == len || buf[i] == '\n') {
      if (i - start > maxline)
        maxline = i - start;
      start = i + 1;
    }
  }
  char *tmp = malloc(maxline + 1);
  if (!tmp)
    return fl_error_set(err, FL_ENOMEM, path, 0, 0, "out of memory");
  int rc = FL_OK;
  uint32_t lineno = 0;
  const char *p = buf, *end = buf + len;
  while (p < end && rc == FL_OK) {
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    const char *le = nl ? nl : end;
    lineno++;
    rc = parse_line(m, p, le, tmp, path, lineno, err);
    p = nl ? nl + 1 : end;
  }
  free(tmp);
  return rc;
}

int fl_nodemap_load(fl_nodemap *m, const char *path, fl_error *err) {
  char *buf;
  size_t len;
  int rc = fl_read_file(path, "node-name-map", &buf, &len, err);
  if (rc != FL_OK)
    return rc;
  rc = fl_nodemap_parse(m, buf, len, path, err);
  free(buf);
  return rc;
}

int fl_nodemap_read(fl_nodemap *m, const fl_load_options *opts, fl_error *err) {
  if (opts->node_name_map_text)
    return fl_nodemap_parse(m, opts->node_name_map_text,
                            opts->node_name_map_len, opts->node_name_map, err);
  return fl_nodemap_load(m, opts->node_name_map, err);
}

const char *fl_nodemap_lookup(const fl_nodemap *m, uint64_t guid) {
  if (!m)
    return NULL;
  uint32_t off = fl_u64map_get(&m->map, guid);
  return off == FL_MAP_ABSENT ? NULL : m->arena + off;
}

size_t fl_nodemap_count(const fl_nodemap *m) {
  return m ? m->map.len : 0;
}

void fl_nodemap_free(fl_nodemap *m) {
  if (!m)
    return;
  fl_u64map_free(&m->map);
  free(m->arena);
  memset(m, 0, sizeof *m);
}
