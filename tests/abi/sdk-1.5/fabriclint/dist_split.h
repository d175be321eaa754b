/*
 * fabriclint/dist_split.h — split a rule's independent items (what-ifs,
 * traffic patterns) over the processes of a distributed run and report
 * their findings in item order, as one process would.
 *
 * Header only (static inline, like json_buf.h): a plugin uses it through
 * the host table alone (fl_host_api.dist, ABI 1.3, and its allgather), so
 * it adds nothing to the ABI.
 *
 * Use (every process runs the same rule on the same fabric):
 *
 *   fl_split sp;
 *   fl_split_init(&sp, api, ctx);
 *   for (item = 0; !rc && item < n; item++)
 *     if (fl_split_mine(&sp, item))
 *       rc = ...work, reporting with fl_split_emit(&sp, api, ctx, item, &f)...;
 *   rc = fl_split_finish(&sp, api, ctx, rc);   // every process, always
 *
 * Process r of N takes the items with item mod N = r. Alone (no
 * distributed run: fl_host_api.dist absent or NULL) every item is its own
 * and fl_split_emit() reports at once, exactly fl_emit_cause(). In a
 * distributed run (also with one process) fl_split_emit() records a copy
 * of the finding; fl_split_finish() gathers every process's records with
 * the allgather collective and reports them, on every process, merged by
 * item (ascending; the records of one item in the order they were
 * emitted), which is the order of a single process that takes the items
 * in ascending order. A process must emit its items in ascending order.
 *
 * Failure: a process whose work failed (it called api->fail()) passes
 * non-zero to fl_split_finish(), which still takes part in the collective
 * (the others would wait for it forever otherwise); then no process
 * reports the findings, and the processes that did not fail call
 * api->fail() ("... failed on another process"). Every process returns 1.
 *
 * Source of the contract: fabriclint/dist.h (fl_dist.allgather: MPI 3.1
 * MPI_Allgatherv, rank order); docs/mpi.md.
 */
#ifndef FABRICLINT_DIST_SPLIT_H
#define FABRICLINT_DIST_SPLIT_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fabriclint/dist.h"
#include "fabriclint/plugin.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * fl_split — one rule's split over the processes of a run (see the file
 * comment). Fill with fl_split_init(); the members are read-only to the
 * rule.
 * @dist: the run (borrowed), or NULL when the process runs alone.
 * @rank/@size: this process and the number of processes (0 and 1 alone).
 * @buf/@len/@cap: this process's recorded findings (owned; freed by
 *   fl_split_finish()).
 * @oom: 1 when a record could not be stored (reported by finish).
 */
typedef struct fl_split {
  const fl_dist *dist;
  uint32_t rank, size;
  unsigned char *buf;
  size_t len, cap;
  int oom;
} fl_split;

/* The header of each process's part of the gathered bytes. */
#define FL_SPLIT_MAGIC 0x504c5346u /* "FSLP" little-endian */
#define FL_SPLIT_HDR   16u         /* u32 magic, u32 failed, u64 length */
#define FL_SPLIT_NULL  UINT32_MAX  /* string length of a NULL string */

/**
 * fl_split_init() — take the run of @ctx from @api (fl_host_api.dist when
 * the host has it and returns a table with allgather), else work alone.
 * Never fails; allocates nothing.
 */
static inline void fl_split_init(fl_split *s, const fl_host_api *api,
                                 fl_ctx *ctx) {
  memset(s, 0, sizeof *s);
  s->size = 1;
  const fl_dist *d = FL_API_HAS(api, dist) && api->dist ? api->dist(ctx) : 0;
  if (d && d->size >= 1 && d->rank < d->size && d->allgather) {
    s->dist = d;
    s->rank = d->rank;
    s->size = d->size;
  }
}

/** fl_split_mine() — 1 when item @item (0-based) is this process's share:
 * @item mod size = rank. */
static inline int fl_split_mine(const fl_split *s, uint64_t item) {
  return item % s->size == s->rank;
}

/* Append @n bytes; 0, or -1 out of memory (then s->oom). */
static inline int fl_split_put(fl_split *s, const void *p, size_t n) {
  if (s->oom)
    return -1;
  if (s->len + n > s->cap) {
    size_t cap = s->cap ? s->cap : 4096;
    while (cap < s->len + n)
      cap *= 2;
    unsigned char *b = (unsigned char *)realloc(s->buf, cap);
    if (!b) {
      s->oom = 1;
      return -1;
    }
    s->buf = b;
    s->cap = cap;
  }
  if (n)
    memcpy(s->buf + s->len, p, n);
  s->len += n;
  return 0;
}

static inline int fl_split_put_u32(fl_split *s, uint32_t v) {
  return fl_split_put(s, &v, sizeof v);
}

static inline int fl_split_put_str(fl_split *s, const char *str) {
  if (!str)
    return fl_split_put_u32(s, FL_SPLIT_NULL);
  size_t n = strlen(str);
  if (n >= FL_SPLIT_NULL) {
    s->oom = 1;
    return -1;
  }
  return fl_split_put_u32(s, (uint32_t)n) | fl_split_put(s, str, n);
}

/**
 * fl_split_emit() — report finding @f of item @item. Alone: through
 * api->report() at once. In a run: a copy is recorded for
 * fl_split_finish() (the finding's strings and arrays are copied; @f is
 * borrowed). A fix (fl_finding.fix) is not carried: a finding with one is
 * refused in a run. Returns 0, or 1 after api->fail() (report refused,
 * out of memory, a fix in a run).
 */
static inline int fl_split_emit(fl_split *s, const fl_host_api *api,
                                fl_ctx *ctx, uint64_t item,
                                const fl_finding *f) {
  if (!s->dist) {
    if ((api->report)(ctx, f) != 0) {
      (api->fail)(ctx,
                  "could not record a finding (out of memory or bad data)");
      return 1;
    }
    return 0;
  }
  int has_cause = f->struct_size >=
                  offsetof(fl_finding, cause_message) + sizeof f->cause_message;
  int has_fix = f->struct_size >= offsetof(fl_finding, fix) + sizeof f->fix;
  int has_root =
      f->struct_size >= offsetof(fl_finding, root_fact) + sizeof f->root_fact;
  if (has_fix && f->fix) {
    (api->fail)(ctx, "a finding with a fix cannot be split over MPI ranks");
    return 1;
  }
  int rc = fl_split_put(s, &item, sizeof item);
  rc |= fl_split_put_u32(s, f->severity);
  rc |= fl_split_put_str(s, f->message);
  rc |= fl_split_put_str(s, f->evidence_json);
  rc |= fl_split_put_str(s, f->key);
  rc |= fl_split_put_str(s, has_cause ? f->cause : NULL);
  rc |= fl_split_put_str(s, has_cause ? f->cause_message : NULL);
  /* the root (one cause across rules, ABI 1.4): without it a consequence
   * reported through a split would stay a finding of its own in a run of
   * several processes, and the report would differ from one process's */
  rc |= fl_split_put_u32(s, has_root ? f->root_kind : 0);
  rc |= fl_split_put_u32(s, has_root ? f->root_role : 0);
  rc |= fl_split_put_u32(s, has_root ? (uint32_t)f->root_id : 0);
  rc |= fl_split_put_str(s, has_root ? f->root_fact : NULL);
  uint32_t nn = f->nodes ? f->n_nodes : 0, np = f->ports ? f->n_ports : 0,
           nl = f->links ? f->n_links : 0;
  rc |= fl_split_put_u32(s, nn);
  rc |= fl_split_put(s, f->nodes, (size_t)nn * sizeof *f->nodes);
  rc |= fl_split_put_u32(s, np);
  rc |= fl_split_put(s, f->ports, (size_t)np * sizeof *f->ports);
  rc |= fl_split_put_u32(s, nl);
  rc |= fl_split_put(s, f->links, (size_t)nl * sizeof *f->links);
  if (rc) {
    (api->fail)(ctx, "out of memory");
    return 1;
  }
  return 0;
}

/* A cursor over one process's records in the gathered bytes. */
typedef struct fl_split_cur {
  const unsigned char *p, *end;
} fl_split_cur;

static inline int fl_split_get(fl_split_cur *c, void *out, size_t n) {
  if ((size_t)(c->end - c->p) < n)
    return -1;
  if (n)
    memcpy(out, c->p, n);
  c->p += n;
  return 0;
}

/* A string of the record (borrowed: points into the bytes, which
 * fl_split_replay copies to make it terminated). */
static inline int fl_split_get_str(fl_split_cur *c, char **out, char **scratch,
                                   size_t *scap) {
  uint32_t n;
  *out = NULL;
  if (fl_split_get(c, &n, sizeof n) != 0)
    return -1;
  if (n == FL_SPLIT_NULL)
    return 0;
  if ((size_t)(c->end - c->p) < n)
    return -1;
  if ((size_t)n + 1 > *scap) {
    char *b = (char *)realloc(*scratch, (size_t)n + 1);
    if (!b)
      return -1;
    *scratch = b;
    *scap = (size_t)n + 1;
  }
  memcpy(*scratch, c->p, n);
  (*scratch)[n] = '\0';
  *out = *scratch;
  c->p += n;
  return 0;
}

/* A counted array of @elem-byte elements, copied to *@buf (grown). */
static inline int fl_split_get_arr(fl_split_cur *c, uint32_t *n, size_t elem,
                                   void **buf, size_t *cap) {
  if (fl_split_get(c, n, sizeof *n) != 0)
    return -1;
  size_t bytes = (size_t)*n * elem;
  if ((size_t)(c->end - c->p) < bytes)
    return -1;
  if (bytes > *cap) {
    void *b = realloc(*buf, bytes);
    if (!b)
      return -1;
    *buf = b;
    *cap = bytes;
  }
  return fl_split_get(c, *buf, bytes);
}

/* Peek the item of the next record of @c: 0, or -1 at the end. */
static inline int fl_split_peek(const fl_split_cur *c, uint64_t *item) {
  if ((size_t)(c->end - c->p) < sizeof *item)
    return -1;
  memcpy(item, c->p, sizeof *item);
  return 0;
}

/* Report the next record of @c through api->report(). 0, or -1 (bad
 * bytes, out of memory, report refused). */
static inline int fl_split_report_one(const fl_host_api *api, fl_ctx *ctx,
                                      fl_split_cur *c) {
  char *str[6] = {0}, *scr[6] = {0};
  size_t scap[6] = {0}, ncap = 0, pcap = 0, lcap = 0;
  uint32_t root_id = 0;
  void *nodes = NULL, *ports = NULL, *links = NULL;
  uint64_t item;
  fl_finding f;
  memset(&f, 0, sizeof f);
  f.struct_size = sizeof f;
  int rc = fl_split_get(c, &item, sizeof item) |
           fl_split_get(c, &f.severity, sizeof f.severity);
  for (int i = 0; !rc && i < 5; i++)
    rc = fl_split_get_str(c, &str[i], &scr[i], &scap[i]);
  if (!rc)
    rc = fl_split_get(c, &f.root_kind, sizeof f.root_kind) |
         fl_split_get(c, &f.root_role, sizeof f.root_role) |
         fl_split_get(c, &root_id, sizeof root_id) |
         fl_split_get_str(c, &str[5], &scr[5], &scap[5]);
  if (!rc)
    rc = fl_split_get_arr(c, &f.n_nodes, sizeof(fl_id), &nodes, &ncap) |
         fl_split_get_arr(c, &f.n_ports, sizeof(fl_port_ref), &ports, &pcap) |
         fl_split_get_arr(c, &f.n_links, sizeof(fl_id), &links, &lcap);
  if (!rc) {
    f.message = str[0];
    f.evidence_json = str[1];
    f.key = str[2];
    f.cause = str[3];
    f.cause_message = str[4];
    f.root_id = (fl_id)root_id;
    f.root_fact = str[5];
    f.nodes = (const fl_id *)nodes;
    f.ports = (const fl_port_ref *)ports;
    f.links = (const fl_id *)links;
    rc = (api->report)(ctx, &f) != 0 ? -1 : 0;
  }
  for (int i = 0; i < 6; i++)
    free(scr[i]);
  free(nodes), free(ports), free(links);
  return rc ? -1 : 0;
}

/**
 * fl_split_replay() — report the findings in @all (@n bytes: the parts of
 * @size processes, each FL_SPLIT_HDR bytes of header and its records,
 * concatenated in rank order, as fl_split_finish() gathers them) through
 * api->report(), merged by item: ascending item, ties in rank order, each
 * part's records in their order. Returns 0; 1 when a part says its
 * process failed (nothing is reported); -1 when the bytes are malformed,
 * memory runs out or a report is refused (the findings before it are
 * reported). Calls neither fail() nor any collective.
 */
static inline int fl_split_replay(const fl_host_api *api, fl_ctx *ctx,
                                  const void *all, size_t n, uint32_t size) {
  fl_split_cur *cur = (fl_split_cur *)calloc(size ? size : 1, sizeof *cur);
  if (!cur)
    return -1;
  const unsigned char *p = (const unsigned char *)all, *end = p + n;
  int rc = 0;
  for (uint32_t r = 0; rc == 0 && r < size; r++) {
    uint32_t magic, failed;
    uint64_t len;
    if ((size_t)(end - p) < FL_SPLIT_HDR) {
      rc = -1;
      break;
    }
    memcpy(&magic, p, 4);
    memcpy(&failed, p + 4, 4);
    memcpy(&len, p + 8, 8);
    p += FL_SPLIT_HDR;
    if (magic != FL_SPLIT_MAGIC || len > (uint64_t)(end - p))
      rc = -1;
    else if (failed)
      rc = 1;
    else {
      cur[r].p = p;
      cur[r].end = p + len;
      p += len;
    }
  }
  if (rc == 0 && p != end)
    rc = -1;
  while (rc == 0) {
    uint32_t best = size;
    uint64_t bi = 0, it;
    for (uint32_t r = 0; r < size; r++)
      if (fl_split_peek(&cur[r], &it) == 0 && (best == size || it < bi))
        best = r, bi = it;
    if (best == size)
      break;
    rc = fl_split_report_one(api, ctx, &cur[best]);
  }
  free(cur);
  return rc;
}

/**
 * fl_split_finish() — end the split: alone, returns @failed ? 1 : 0. In a
 * run, a collective (every process calls it once per fl_split_init(),
 * also when its work failed): gathers every process's records (@failed:
 * this process's work failed and called api->fail()) and reports them in
 * item order on every process. Frees the records. Returns 0, or 1 after
 * api->fail() on this process (here, or before when @failed).
 */
static inline int fl_split_finish(fl_split *s, const fl_host_api *api,
                                  fl_ctx *ctx, int failed) {
  if (!s->dist) {
    free(s->buf);
    s->buf = NULL;
    return failed ? 1 : 0;
  }
  int oom = s->oom && !failed;
  unsigned char hdr[FL_SPLIT_HDR];
  uint32_t magic = FL_SPLIT_MAGIC, fl = failed || s->oom;
  uint64_t len = fl ? 0 : s->len;
  memcpy(hdr, &magic, 4);
  memcpy(hdr + 4, &fl, 4);
  memcpy(hdr + 8, &len, 8);
  /* header in front of the records: one buffer for the collective */
  unsigned char *mine = (unsigned char *)malloc(FL_SPLIT_HDR + (size_t)len);
  if (mine) {
    memcpy(mine, hdr, FL_SPLIT_HDR);
    if (len)
      memcpy(mine + FL_SPLIT_HDR, s->buf, (size_t)len);
  } else {
    oom = !failed;
    fl = 1;
    memcpy(hdr + 4, &fl, 4);
    memset(hdr + 8, 0, 8);
  }
  free(s->buf);
  s->buf = NULL;
  s->len = s->cap = 0;
  void *all = NULL;
  size_t n_all = 0;
  int grc = s->dist->allgather(s->dist->ctx, mine ? mine : hdr,
                               mine ? FL_SPLIT_HDR + (size_t)len : FL_SPLIT_HDR,
                               &all, &n_all);
  free(mine);
  if (grc != 0) {
    free(all);
    if (!failed)
      (api->fail)(ctx, "gathering the findings of the MPI ranks failed");
    return 1;
  }
  int rc = fl_split_replay(api, ctx, all, n_all, s->size);
  free(all);
  if (rc == 0)
    return 0;
  if (!failed)
    (api->fail)(ctx, oom ? "out of memory"
                     : rc > 0
                         ? "the rule failed on another process of the MPI run"
                         : "could not record a finding gathered from the MPI "
                           "ranks (out of memory or bad data)");
  return 1;
}

#ifdef __cplusplus
}
#endif
#endif /* FABRICLINT_DIST_SPLIT_H */
