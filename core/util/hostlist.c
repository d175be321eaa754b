/* SPDX-License-Identifier: MIT */
/* core/util/hostlist.c — names folded into a Slurm hostlist expression
 * (hostlist.h). */
#include "util/hostlist.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/natcmp.h"

/* The longest digit run folded into a range: 9 digits fit a uint32_t. */
#define HL_MAX_DIGITS 9

/* One name, split: prefix [0, plen), then a digit run with value @val and
 * @form digits (UINT32_MAX for a name left whole). */
typedef struct hl_name {
  const char *s;
  size_t plen;
  uint32_t form;
  uint32_t val;
  char *prefix; /* the prefix, NUL-terminated (owned) */
} hl_name;

static void hl_split(hl_name *h, const char *s) {
  size_t len = strlen(s), d = len;
  while (d > 0 && s[d - 1] >= '0' && s[d - 1] <= '9')
    d--;
  size_t w = len - d;
  h->s = s;
  if (w == 0 || w > HL_MAX_DIGITS) {
    h->plen = len;
    h->form = UINT32_MAX;
    h->val = 0;
    return;
  }
  h->plen = d;
  h->form = (uint32_t)w;
  h->val = (uint32_t)strtoul(s + d, NULL, 10);
}

static int hl_cmp(const void *a, const void *b) {
  const hl_name *x = a, *y = b;
  int c = fl_natcmp_strict(x->prefix, y->prefix);
  if (c)
    return c;
  if ((x->form == UINT32_MAX) != (y->form == UINT32_MAX))
    return x->form == UINT32_MAX ? 1 : -1;
  if (x->val != y->val)
    return x->val < y->val ? -1 : 1;
  return strcmp(x->s, y->s);
}

/* 1 when the digit run of @h is what a bracket of width @w prints for its
 * value: Slurm's hostlist (src/common/hostlist.c) prints every number of
 * a range `[lo-hi]` zero-padded to the width of lo, so "097".."128" share
 * width 3 and "9", "10" share width 1, but "09" and "9" cannot share. */
static int hl_fits(const hl_name *h, uint32_t w) {
  char t[16];
  snprintf(t, sizeof t, "%0*u", (int)w, h->val);
  return strcmp(t, h->s + h->plen) == 0;
}

/* A growing string. */
typedef struct hl_buf {
  char *p;
  size_t len, cap;
  int oom;
} hl_buf;

static void hl_put(hl_buf *b, const char *s, size_t n) {
  if (b->oom)
    return;
  if (b->len + n + 1 > b->cap) {
    size_t cap = b->cap ? b->cap : 64;
    while (b->len + n + 1 > cap)
      cap *= 2;
    char *p = realloc(b->p, cap);
    if (!p) {
      b->oom = 1;
      return;
    }
    b->p = p;
    b->cap = cap;
  }
  memcpy(b->p + b->len, s, n);
  b->len += n;
  b->p[b->len] = '\0';
}

static void hl_num(hl_buf *b, uint32_t v, uint32_t form) {
  char t[16];
  int n = snprintf(t, sizeof t, "%0*u", (int)form, v);
  hl_put(b, t, (size_t)n);
}

/* The names [i, j) share a prefix and fit width @w: prefix[...]. */
static void hl_group(hl_buf *b, const hl_name *h, size_t i, size_t j,
                     uint32_t w) {
  hl_put(b, h[i].s, h[i].plen);
  if (j - i == 1) {
    hl_put(b, h[i].s + h[i].plen, strlen(h[i].s + h[i].plen));
    return;
  }
  hl_put(b, "[", 1);
  for (size_t k = i; k < j;) {
    size_t e = k + 1;
    while (e < j && h[e].val == h[e - 1].val + 1)
      e++;
    if (k > i)
      hl_put(b, ",", 1);
    hl_num(b, h[k].val, w);
    if (e - k > 1) {
      hl_put(b, "-", 1);
      hl_num(b, h[e - 1].val, w);
    }
    k = e;
  }
  hl_put(b, "]", 1);
}

char *fl_hostlist_fold(const char *const *names, size_t n) {
  hl_buf b = {NULL, 0, 0, 0};
  hl_put(&b, "", 0);
  hl_name *h = n ? calloc(n, sizeof *h) : NULL;
  if (n && !h) {
    free(b.p);
    return NULL;
  }
  int oom = 0;
  for (size_t i = 0; i < n && !oom; i++) {
    hl_split(&h[i], names[i]);
    h[i].prefix = malloc(h[i].plen + 1);
    if (!h[i].prefix)
      oom = 1;
    else {
      memcpy(h[i].prefix, names[i], h[i].plen);
      h[i].prefix[h[i].plen] = '\0';
    }
  }
  if (!oom) {
    if (n > 0) /* qsort(NULL, 0, ...) is undefined: its pointer is nonnull */
      qsort(h, n, sizeof *h, hl_cmp);
    for (size_t i = 0; i < n;) {
      size_t j = i + 1;
      uint32_t w = h[i].form; /* the bracket's width: its first number's */
      if (w != UINT32_MAX)
        while (j < n && h[j].form != UINT32_MAX && h[j].val != h[j - 1].val &&
               strcmp(h[j].prefix, h[i].prefix) == 0 && hl_fits(&h[j], w))
          j++;
      if (i > 0)
        hl_put(&b, ",", 1);
      hl_group(&b, h, i, j, w);
      i = j;
    }
  }
  for (size_t i = 0; i < n; i++)
    free(h[i].prefix);
  free(h);
  if (oom || b.oom) {
    free(b.p);
    return NULL;
  }
  return b.p;
}

int fl_hostlist_name_ok(const char *name) {
  if (!name || !*name)
    return 0;
  for (const char *p = name; *p; p++) {
    char c = *p;
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
          (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.' ||
          c == ':'))
      return 0;
  }
  return 1;
}
