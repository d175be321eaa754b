/* SPDX-License-Identifier: MIT */
/*
 * core/report/baseline.c — baseline files (baseline.h), read and written with
 * jansson (JSON_PRESERVE_ORDER keeps our fixed key order on output).
 */
#include "report/baseline.h"
#include "io/fileio.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "fabriclint/types.h"
#include "io/outfile.h"

/* Findings that take part in baselines. */
static int baselinable(const fl_finding_rec *r) {
  return !r->waived && strncmp(r->rule, "policy.", 7) != 0;
}

static int is_fp(const char *s) {
  if (strlen(s) != 16)
    return 0;
  for (const char *c = s; *c; c++)
    if (!((*c >= '0' && *c <= '9') || (*c >= 'a' && *c <= 'f')))
      return 0;
  return 1;
}

static int cmp_fp(const void *a, const void *b) {
  return memcmp(a, b, 17);
}

int fl_baseline_load(fl_baseline *b, const char *path, fl_error *err) {
  memset(b, 0, sizeof *b);
  json_error_t jerr;
  char *text;
  size_t len;
  int rrc = fl_read_file(path, "baseline", &text, &len, err);
  if (rrc != FL_OK)
    return rrc;
  if (len == 0) {
    free(text);
    return fl_error_set(err, FL_EPARSE, path, 0, 0,
                        "%s is empty: expected a baseline JSON file written "
                        "by --write-baseline",
                        strcmp(path, "-") == 0 ? "standard input" : "file");
  }
  json_t *root = json_loadb(text, len, 0, &jerr);
  fl_digest_of(&b->digest, text, len);
  free(text);
  if (!root)
    return fl_error_set(err, jerr.line > 0 ? FL_EPARSE : FL_EIO, path,
                        jerr.line > 0 ? (uint32_t)jerr.line : 0,
                        jerr.column > 0 ? (uint32_t)jerr.column : 0,
                        "cannot read baseline: %s", jerr.text);
  int rc = FL_OK;
  json_t *ver = json_object_get(root, "fabriclint_baseline");
  json_t *arr = json_object_get(root, "findings");
  const char *k;
  json_t *v;
  if (!json_is_object(root) || !json_is_integer(ver) ||
      json_integer_value(ver) != 1 || !json_is_array(arr))
    rc = fl_error_set(err, FL_EPARSE, path, 0, 0,
                      "not a fabriclint baseline (want an object with "
                      "\"fabriclint_baseline\": 1 and a \"findings\" list; "
                      "write one with --write-baseline)");
  if (rc == FL_OK)
    json_object_foreach(root, k, v) if (strcmp(k, "fabriclint_baseline") &&
                                        strcmp(k, "findings")) {
      rc = fl_error_set(err, FL_EPARSE, path, 0, 0,
                        "unknown key '%s' in the baseline", k);
      break;
    }
  size_t n = rc == FL_OK ? json_array_size(arr) : 0;
  b->fps = calloc(n + 1, sizeof *b->fps);
  if (!b->fps && rc == FL_OK)
    rc = fl_error_set(err, FL_ENOMEM, path, 0, 0, "out of memory");
  for (size_t i = 0; i < n && rc == FL_OK; i++) {
    const char *fp = json_string_value(
        json_object_get(json_array_get(arr, i), "fingerprint"));
    if (!fp || !is_fp(fp)) {
      rc = fl_error_set(err, FL_EPARSE, path, 0, 0,
                        "baseline entry %zu has no \"fingerprint\" of 16 hex "
                        "digits",
                        i + 1);
      break;
    }
    memcpy(b->fps[b->n++], fp, 17);
  }
  json_decref(root);
  if (rc != FL_OK) {
    fl_baseline_free(b);
    return rc;
  }
  if (b->n > 1)
    qsort(b->fps, b->n, sizeof *b->fps, cmp_fp);
  return FL_OK;
}

void fl_baseline_free(fl_baseline *b) {
  free(b->fps);
  memset(b, 0, sizeof *b);
}

/* Index of the first entry >= @fp. */
static size_t lower_bound(const fl_baseline *b, const char fp[17]) {
  size_t lo = 0, hi = b->n;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (memcmp(b->fps[mid], fp, 17) < 0)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

/* 1 when the merged finding of @r's cause (findings.h) is in @b: a baseline
 * written from a merged finding accepts every member of its cause. */
static int cause_in_baseline(const fl_baseline *b, const fl_finding_rec *r) {
  char fp[17];
  if (!fl_finding_cause_fingerprint(r, fp))
    return 0;
  size_t lo = lower_bound(b, fp);
  return lo < b->n && memcmp(b->fps[lo], fp, 17) == 0;
}

size_t fl_baseline_apply(const fl_baseline *b, fl_findings *fs) {
  if (!b || b->n == 0)
    return 0;
  unsigned char *used = calloc(b->n, 1);
  if (!used)
    return 0;
  size_t marked = 0;
  for (size_t i = 0; i < fs->n; i++) {
    fl_finding_rec *r = &fs->v[i];
    if (!baselinable(r))
      continue;
    char fp[17];
    fl_finding_fingerprint(r, fp);
    /* lower bound, then the first unused equal entry */
    size_t lo = lower_bound(b, fp);
    for (; lo < b->n && memcmp(b->fps[lo], fp, 17) == 0; lo++)
      if (!used[lo]) {
        used[lo] = 1;
        r->baseline = 1;
        marked++;
        break;
      }
    if (!r->baseline && cause_in_baseline(b, r)) {
      r->baseline = 1;
      marked++;
    }
  }
  free(used);
  return marked;
}

static int strcmp0(const char *a, const char *b) {
  return strcmp(a ? a : "", b ? b : "");
}

static int cmp_entry(const void *x, const void *y) {
  const fl_finding_rec *a = *(const fl_finding_rec *const *)x;
  const fl_finding_rec *b = *(const fl_finding_rec *const *)y;
  int c = strcmp0(a->rule, b->rule);
  if (!c)
    c = strcmp0(a->key, b->key);
  if (!c)
    c = strcmp0(a->message, b->message);
  return c;
}

int fl_baseline_write(const fl_findings *fs, const char *path, fl_error *err) {
  const fl_finding_rec **v = calloc(fs->n + 1, sizeof *v);
  if (!v)
    return fl_error_set(err, FL_ENOMEM, path, 0, 0, "out of memory");
  size_t n = 0;
  for (size_t i = 0; i < fs->n; i++)
    if (baselinable(&fs->v[i]))
      v[n++] = &fs->v[i];
  if (n > 1)
    qsort(v, n, sizeof *v, cmp_entry);
  json_t *arr = json_array();
  for (size_t i = 0; i < n; i++) {
    char fp[17];
    json_array_append_new(arr, json_pack("{s:s,s:s,s:s,s:s}", "fingerprint",
                                         fl_finding_fingerprint(v[i], fp),
                                         "rule", v[i]->rule, "key",
                                         v[i]->key ? v[i]->key : "", "message",
                                         v[i]->message));
  }
  free(v);
  json_t *root =
      json_pack("{s:i,s:o}", "fabriclint_baseline", 1, "findings", arr);
  if (!root)
    return fl_error_set(err, FL_ENOMEM, path, 0, 0, "out of memory");
  fl_outfile of;
  int rc = fl_outfile_open(&of, path, err);
  if (rc == FL_OK) {
    errno = 0;
    if (json_dumpf(root, of.f, JSON_INDENT(2) | JSON_PRESERVE_ORDER) == 0 &&
        fputc('\n', of.f) != EOF) {
      rc = fl_outfile_commit(&of, err);
    } else {
      int e = errno ? errno : EIO;
      fl_outfile_abort(&of); /* the previous baseline stays */
      rc = fl_error_set(err, FL_EIO, path, 0, 0,
                        "cannot write the baseline: %s", strerror(e));
    }
  }
  json_decref(root);
  return rc;
}
