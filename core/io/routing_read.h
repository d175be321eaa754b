/* SPDX-License-Identifier: MIT */
/*
 * core/io/routing_read.h — what the routing-dump loaders share: a line
 * reader over an input opened by fl_input_read() (a mapped file read in
 * chunks through its descriptor), errors at file:line:col,
 * GUID and number tokens, and resolution of GUIDs and LIDs against the
 * topology. One loader per format includes it:
 *   lft_dump.c    fl_load_lfts()        opensm-lfts.dump, ibroute, dump_fts
 *   fdbs_dump.c   fl_load_fdbs()        opensm.fdbs, ibdiagnet .fdbs
 *   sl2vl_dump.c  fl_load_sl2vl()       opensm-sl2vl.dump, smpquery sl2vl
 *   path_sl.c     fl_load_path_sl()     ibdmchk/ibdiagnet path-SL files
 *   saquery_pr.c  fl_load_saquery_pr()  saquery -p PathRecord dumps
 *   subnet_lst.c  fl_load_subnet_lst()  opensm-subnet.lst (topology)
 *
 * Why hand-written: the target fabric (5,120 switches x 49,151 LIDs) has
 * 250 M LFT entries, i.e. a ~20 GB opensm-lfts.dump. Lines are found by
 * io/lines.h (64 bytes a step), and an LFT entry costs a handful of byte
 * compares: the LID and the port are parsed, the destination info is only
 * searched for its port GUID the first time a LID is seen (every switch repeats
 * it). No sscanf, no regex. Errors name file:line:col. The helpers are static
 * inline so the per-line hot path (rd_next) inlines into each loader's loop.
 *
 * Resolution against the topology: switches and ports are found by GUID
 * (fl_b_node_by_guid / fl_b_port_by_guid), nodes named by LID (smpquery,
 * saquery) through the LIDs the topology already carries. A block for a
 * switch the topology lacks is skipped with a note (fl_b_note), never an
 * error: dumps and topology are often taken minutes apart.
 *
 * Truncation: every one of these files is written by a tool and ends with a
 * newline; a last line without one is reported as truncated (FL_EPARSE), as
 * is an LFT block without its footer at the end of the file.
 *
 * Ownership: each loader owns its scratch state and frees it before
 * returning; the input buffer is the caller's; strings handed to the
 * builder are copied by it.
 */
#ifndef FL_ROUTING_READ_H
#define FL_ROUTING_READ_H

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabriclint/routing.h"
#include "io/fileio.h"
#include "io/lines.h"
#include "io/loaders.h"
#include "io/textscan.h"
#include "model/build.h"
#include "model/fabric_impl.h"
#include "model/hashmap.h"

#define MAX_PORT_NUM 255u

/* ======================================================================
 * Line reader over the whole input and error context
 * ====================================================================== */

/* Bytes a mapped input is read in at a time (more when a line is longer). */
#define RD_CHUNK ((size_t)256 << 10)

typedef struct rd {
  fl_fabric *fab;
  fl_error *err;
  const char *path;
  uint32_t file; /* fl_b_file() id */
  const fl_input *in;
  char *buf;           /* the window of the input being read */
  size_t len, pos;     /* bytes in the window; [pos, len) unread */
  size_t off;          /* offset in the input of buf[0] */
  char *own;           /* the chunk buffer (NULL: buf is in->buf) */
  size_t cap;          /* its size, without the NUL after it */
  fl_lines lines;      /* where the window's lines end (and any NUL byte) */
  const char *ls, *le; /* current line, without "\r\n" */
  uint32_t lineno;
  int terminated;   /* current line ended with '\n' */
  const char *what; /* kind of the current line, for "truncated" errors */
} rd;

/* Lines of input @in (borrowed), read whole by fl_fabric_load(). A mapped
 * input (a regular file of 1 MiB or more) is read in RD_CHUNK pieces
 * through its descriptor instead of through the mapping: the kernel's copy
 * into a buffer that stays in cache is 3x faster than touching the mapped
 * pages (0.16 s against 0.5 s to find the lines of a 0.9 GB dump,
 * docs/performance.md), and memory stays at one chunk whatever the file's
 * size. Small files, pipes and standard input are already in memory. */
static inline int rd_open(rd *r, fl_fabric *fab, const fl_input *in,
                          fl_error *err) {
  memset(r, 0, sizeof *r);
  r->fab = fab;
  r->err = err;
  r->path = in->path;
  r->in = in;
  r->file = fl_b_file(fab, in->path);
  if (in->map_len) {
    r->cap = RD_CHUNK;
    r->own = malloc(r->cap + 1);
    if (!r->own)
      return fl_error_set(err, FL_ENOMEM, in->path, 0, 0, "out of memory");
    r->buf = r->own;
    r->buf[0] = '\0';
  } else {
    r->buf = in->buf;
    r->len = in->len;
  }
  fl_lines_init(&r->lines, r->buf, r->len);
  return FL_OK;
}

static inline void rd_close(rd *r) {
  free(r->own);
  r->own = NULL;
  r->buf = NULL;
}

/* The window holds no further '\n': keep its unread tail (a line begun),
 * read the next bytes of a mapped input after it. 1 more bytes, 0 the
 * input ends here, <0 FL_E* error. */
static inline int rd_refill(rd *r) {
  size_t done = r->off + r->len;
  if (!r->own || done >= r->in->len)
    return 0;
  size_t keep = r->len - r->pos;
  if (keep == r->cap) { /* one line fills the chunk: double it */
    char *b = realloc(r->own, 2 * r->cap + 1);
    if (!b)
      return fl_error_set(r->err, FL_ENOMEM, r->path, r->lineno + 1, 0,
                          "out of memory");
    r->own = r->buf = b;
    r->cap *= 2;
  }
  memmove(r->buf, r->buf + r->pos, keep);
  size_t want =
      r->in->len - done < r->cap - keep ? r->in->len - done : r->cap - keep;
  int rc = fl_input_pread(r->in, done, r->buf + keep, want, r->err);
  if (rc != FL_OK)
    return rc;
  r->off += r->pos;
  r->len = keep + want;
  r->pos = 0;
  r->buf[r->len] = '\0';
  fl_lines_init(&r->lines, r->buf, r->len);
  return 1;
}

/* Advance to the next line: 1 a line, 0 end of input, <0 FL_E* error.
 * The line search is also the input's NUL check: fl_lines_next() finds the
 * '\n' and NUL bytes of 64 bytes at a time, and the only NUL allowed is the
 * one fl_input puts after the end, so each byte is looked at once (a check
 * in a pass of its own walked a 465 MB dump twice; a strchr() call per
 * line was 2/3 of an LFT load). The loaders never write into the buffer;
 * their formats are marked FL_FORMAT_NUL_INLINE. */
static inline __attribute__((always_inline)) int rd_next(rd *r) {
  size_t at;
  for (;;) {
    at = fl_lines_next(&r->lines);
    if (at == SIZE_MAX) /* a NUL byte in this line: the error names it */
      return fl_input_nul_check(r->in, r->err);
    if (at < r->len)
      break;
    int rc = rd_refill(r);
    if (rc < 0)
      return rc;
    if (rc == 0)
      break;
  }
  char *s = r->buf + r->pos, *e = r->buf + r->len;
  if (s >= e)
    return 0;
  char *nl = at < r->len ? r->buf + at : NULL;
  r->terminated = nl != NULL;
  r->ls = s;
  r->le = nl ? nl : e;
  r->pos = (size_t)((nl ? nl + 1 : e) - r->buf);
  if (r->le > r->ls && r->le[-1] == '\r')
    r->le--;
  r->lineno++;
  return 1;
}

static inline fl_prov rd_prov(const rd *r, const char *at) {
  fl_prov p = {r->file, r->lineno, at ? (uint32_t)(at - r->ls) + 1 : 1};
  return p;
}

/* FL_EPARSE at the column of @at (NULL: no column) of the current line. */
static inline int perr(rd *r, const char *at, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
static inline int perr(rd *r, const char *at, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int rc = fl_text_verror(r->err, r->path, r->lineno, r->ls, at, !r->terminated,
                          r->what, fmt, ap);
  va_end(ap);
  return rc;
}

static inline int oom(rd *r) {
  return fl_error_set(r->err, FL_ENOMEM, r->path, r->lineno, 0,
                      "out of memory");
}

/* After a line parsed: a last line without '\n' means a cut-off file. */
static inline int rd_tail_ok(rd *r) {
  if (r->terminated)
    return FL_OK;
  return fl_error_set(r->err, FL_EPARSE, r->path, r->lineno,
                      (uint32_t)(r->le - r->ls) + 1,
                      "truncated: the file ends inside a %s line (no final "
                      "newline)",
                      r->what ? r->what : "text");
}

/* ======================================================================
 * Tokens
 * ====================================================================== */

/* "0x" and 1..16 hex digits: a GUID. */
static inline int parse_guid(rd *r, const char **pp, const char *e, uint64_t *g,
                             const char *what) {
  const char *p = *pp;
  *g = 0; /* set on every path: callers inline this and read it */
  if (!starts_with(p, e, "0x") && !starts_with(p, e, "0X"))
    return perr(r, p, "expected 0x and the %s", what);
  p += 2;
  const char *d = p;
  int n = scan_hex(&p, e, g);
  if (n == 0 || n > 16)
    return perr(r, d, "%s is not 1 to 16 hex digits", what);
  *pp = p;
  return FL_OK;
}

/* A number in [0, @hi]: decimal, or hex after "0x". */
static inline int parse_num(rd *r, const char **pp, const char *e, uint64_t hi,
                            const char *what, uint32_t *out) {
  const char *p = *pp, *d;
  uint64_t v;
  int n;
  *out = 0; /* set on every path: callers inline this and read it */
  if (starts_with(p, e, "0x") || starts_with(p, e, "0X")) {
    d = p + 2;
    p = d;
    n = scan_hex(&p, e, &v);
    if (n > 8)
      v = UINT64_MAX;
  } else {
    d = p;
    n = scan_dec(&p, e, &v);
  }
  if (n == 0)
    return perr(r, d, "expected %s (a number)", what);
  if (v > hi)
    return perr(r, *pp,
                d > *pp ? "%s %.*s%s is out of range (allowed 0..0x%llx)"
                        : "%s %.*s%s is out of range (allowed 0..%llu)",
                what, NUMQ(*pp, p), (unsigned long long)hi);
  *out = (uint32_t)v;
  *pp = p;
  return FL_OK;
}

static inline int expect_end(rd *r, const char *p, const char *e,
                             const char *what) {
  p = skip_ws(p, e);
  if (p < e)
    return perr(r, p, "unexpected text \"%.*s\" after %s", EXCERPT(p, e), what);
  return FL_OK;
}

/* The node of a port GUID (a CA port, or a switch's port 0 / node GUID),
 * else the node whose node GUID it is; FL_NONE when the topology has none. */
static inline fl_id node_of_guid(fl_fabric *fab, uint64_t guid) {
  fl_id p = fl_b_port_by_guid(fab, guid);
  if (p != FL_NONE && p < fab->n_ports)
    return fab->ports[p].node;
  return fl_b_node_by_guid(fab, guid);
}

/* LID -> node from the LIDs the topology carries (built on first use). */
typedef struct lidmap {
  fl_u64map m;
  int built;
} lidmap;

static inline int lidmap_build(lidmap *lm, const fl_fabric *fab) {
  lm->built = 1;
  for (size_t i = 0; i < fab->n_ports; i++) {
    const fl_port_rec *pr = &fab->ports[i];
    if (pr->lid == 0 || pr->lid > FL_MAX_UCAST_LID)
      continue;
    uint32_t top = pr->lid + (1u << (pr->lmc & 7)) - 1;
    for (uint32_t l = pr->lid; l <= top && l <= FL_MAX_UCAST_LID; l++)
      if (fl_u64map_put(&lm->m, l, pr->node) == FL_MAP_ABSENT)
        return FL_ENOMEM;
  }
  return FL_OK;
}

static inline fl_id lidmap_node(lidmap *lm, const fl_fabric *fab, uint32_t lid,
                                int *rc) {
  *rc = FL_OK;
  if (!lm->built && (*rc = lidmap_build(lm, fab)) != FL_OK)
    return FL_NONE;
  uint32_t v = fl_u64map_get(&lm->m, lid);
  return v == FL_MAP_ABSENT ? FL_NONE : v;
}

#endif /* FL_ROUTING_READ_H */
