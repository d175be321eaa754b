/* SPDX-License-Identifier: MIT */
/*
 * core/host/split_record.c — fl_split_emit() and fl_split_finish() of
 * fabriclint/dist_split.h (fl_host_api.split_emit / split_finish, ABI
 * 1.6): a process's findings recorded as bytes, gathered from every
 * process with fl_dist.allgather and replayed in item order
 * (split_replay.c).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "host/split_impl.h"

/* Append @n bytes; 0, or -1 out of memory (then s->oom). */
static int fl_split_put(fl_split *s, const void *p, size_t n) {
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

static int fl_split_put_u32(fl_split *s, uint32_t v) {
  return fl_split_put(s, &v, sizeof v);
}

static int fl_split_put_str(fl_split *s, const char *str) {
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
int fl_split_record(fl_split *s, const fl_host_api *api, fl_ctx *ctx,
                    uint64_t item, const fl_finding *f) {
  if (s->struct_size < sizeof *s) { /* not from fl_split_init() of 1.6+ */
    (api->fail)(ctx, "fl_split not set up by fl_split_init()");
    return 1;
  }
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

/**
 * fl_split_finish() — end the split: alone, returns @failed ? 1 : 0. In a
 * run, a collective (every process calls it once per fl_split_init(),
 * also when its work failed): gathers every process's records (@failed:
 * this process's work failed and called api->fail()) and reports them in
 * item order on every process. Frees the records. Returns 0, or 1 after
 * api->fail() on this process (here, or before when @failed).
 */
int fl_split_end(fl_split *s, const fl_host_api *api, fl_ctx *ctx, int failed) {
  if (s->struct_size < sizeof *s) { /* not from fl_split_init() of 1.6+ */
    (api->fail)(ctx, "fl_split not set up by fl_split_init()");
    return 1;
  }
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
