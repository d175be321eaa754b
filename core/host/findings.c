/*
 * core/findings.c — see findings.h.
 */
#include "host/findings.h"

#include <stdlib.h>
#include <string.h>

#include "fabriclint/types.h"

int fl_findings_push(fl_findings *fs, fl_finding_rec *rec) {
  if (fs->n == fs->cap) {
    size_t ncap = fs->cap ? fs->cap * 2 : 16;
    fl_finding_rec *v = realloc(fs->v, ncap * sizeof *v);
    if (!v)
      return -1;
    fs->v = v;
    fs->cap = ncap;
  }
  fs->v[fs->n++] = *rec;
  return 0;
}

static int strcmp0(const char *a, const char *b) {
  return strcmp(a ? a : "", b ? b : "");
}

static int cmp_rec(const void *x, const void *y) {
  const fl_finding_rec *a = x, *b = y;
  int c = strcmp0(a->rule, b->rule);
  if (c)
    return c;
  if ((c = strcmp0(a->file, b->file)))
    return c;
  if (a->line != b->line)
    return a->line < b->line ? -1 : 1;
  if (a->col != b->col)
    return a->col < b->col ? -1 : 1;
  if ((c = strcmp0(a->message, b->message)))
    return c;
  return strcmp0(a->key, b->key);
}

void fl_findings_sort(fl_findings *fs) {
  if (fs->n > 1)
    if (fs->n > 1)
      qsort(fs->v, fs->n, sizeof *fs->v, cmp_rec);
}

size_t fl_findings_count(const fl_findings *fs, uint32_t sev) {
  size_t c = 0;
  for (size_t i = 0; i < fs->n; i++)
    c += fs->v[i].severity == sev;
  return c;
}

int fl_finding_active(const fl_finding_rec *r) {
  return !r->waived && !r->baseline;
}

size_t fl_findings_count_active(const fl_findings *fs, uint32_t sev) {
  size_t c = 0;
  for (size_t i = 0; i < fs->n; i++)
    c += fs->v[i].severity == sev && fl_finding_active(&fs->v[i]);
  return c;
}

char *fl_finding_fingerprint(const fl_finding_rec *r, char buf[17]) {
  uint64_t h = 0xcbf29ce484222325ull; /* FNV-1a 64 offset basis */
  const char *parts[3] = {r->rule ? r->rule : "", "\n", r->key ? r->key : ""};
  for (int k = 0; k < 3; k++)
    for (const unsigned char *s = (const unsigned char *)parts[k]; *s; s++) {
      h ^= *s;
      h *= 0x100000001b3ull; /* FNV-1a 64 prime */
    }
  static const char HEX[] = "0123456789abcdef";
  for (int i = 15; i >= 0; i--, h >>= 4)
    buf[i] = HEX[h & 0xf];
  buf[16] = '\0';
  return buf;
}

static void rec_free(fl_finding_rec *r) {
  free(r->rule);
  free(r->message);
  for (uint32_t i = 0; i < r->n_nodes; i++)
    free(r->nodes[i]);
  free(r->nodes);
  for (uint32_t i = 0; i < r->n_ports; i++)
    free(r->ports[i].node);
  free(r->ports);
  free(r->evidence);
  free(r->file);
  free(r->key);
  free(r->waiver.reason);
  free(r->waiver.expires);
  free(r->waiver.where);
}

void fl_findings_free(fl_findings *fs) {
  for (size_t i = 0; i < fs->n; i++)
    rec_free(&fs->v[i]);
  free(fs->v);
  memset(fs, 0, sizeof *fs);
}

const char *fl_severity_name(uint32_t sev) {
  switch (sev) {
  case FL_SEV_ERROR:
    return "error";
  case FL_SEV_WARNING:
    return "warning";
  case FL_SEV_INFO:
    return "info";
  default:
    return "none";
  }
}

uint32_t fl_severity_parse(const char *s) {
  if (!s)
    return 0;
  if (strcmp(s, "error") == 0)
    return FL_SEV_ERROR;
  if (strcmp(s, "warning") == 0)
    return FL_SEV_WARNING;
  if (strcmp(s, "info") == 0 || strcmp(s, "note") == 0)
    return FL_SEV_INFO;
  if (strcmp(s, "never") == 0)
    return 4;
  return 0;
}
