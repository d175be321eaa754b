/* SPDX-License-Identifier: MIT */
/*
 * core/host/split_replay.c — fl_split_replay(): the findings every process
 * of a distributed run recorded (split_record.c), reported through
 * api->report() merged by item, as one process would report them.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "host/split_impl.h"

/* A cursor over one process's records in the gathered bytes. */
typedef struct fl_split_cur {
  const unsigned char *p, *end;
} fl_split_cur;

static int fl_split_get(fl_split_cur *c, void *out, size_t n) {
  if ((size_t)(c->end - c->p) < n)
    return -1;
  if (n)
    memcpy(out, c->p, n);
  c->p += n;
  return 0;
}

/* A string of the record (borrowed: points into the bytes, which
 * fl_split_replay copies to make it terminated). */
static int fl_split_get_str(fl_split_cur *c, char **out, char **scratch,
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
static int fl_split_get_arr(fl_split_cur *c, uint32_t *n, size_t elem,
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
static int fl_split_peek(const fl_split_cur *c, uint64_t *item) {
  if ((size_t)(c->end - c->p) < sizeof *item)
    return -1;
  memcpy(item, c->p, sizeof *item);
  return 0;
}

/* Report the next record of @c through api->report(). 0, or -1 (bad
 * bytes, out of memory, report refused). */
static int fl_split_report_one(const fl_host_api *api, fl_ctx *ctx,
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
int fl_split_replay(const fl_host_api *api, fl_ctx *ctx, const void *all,
                    size_t n, uint32_t size) {
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
