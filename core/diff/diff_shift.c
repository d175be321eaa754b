/* SPDX-License-Identifier: MIT */
/*
 * core/diff/diff_shift.c — names that shift: hosts found in the place the
 * plan gives other hosts, one cause (issue 30).
 *
 * A host left out of a row (or numbered from another start) renumbers
 * every host after it: as built, "dgx-016" sits where the plan has
 * "dgx-017", "dgx-017" where it has "dgx-018", and so on. Compared by
 * name, each of those hosts' cables is a move (56 moves for 7 hosts of 8
 * NICs, 128 for an SU); compared by GUID, each host is a rename. Either
 * way it is one fact: the names run one place off the plan. Each pair
 * "host A is where the plan puts host B" is collected; the pairs that
 * chain (A at B, B at C, ...) are one component (union-find over the
 * names), and one cause, keyed by the component's first name in natural
 * order (stable across runs and unrelated edits). The message lists the
 * first pairs, says the offset when every pair's trailing numbers differ
 * by the same amount, and the place nobody took and the name left over.
 * A chain that closes (two hosts' names swapped, or a ring) says so
 * instead. It does not say which side is wrong: the hosts may be misnamed, or
 * every one of their cables moved, and the diff cannot tell.
 * O(pairs log pairs) to chain, O(pairs + findings) to root.
 */
#include <stdlib.h>
#include <string.h>

#include "diff/diff_impl.h"
#include "fabriclint/plugin.h"
#include "host/findings.h"
#include "model/alias.h"
#include "util/natcmp.h"

/* Pairs listed by name in a message, then a count. */
#define SHIFT_LISTED 4u

/* The index of name @s, added when new; NIL on ENOMEM. */
static uint32_t name_at(diff_shift *s, const char *nm) {
  uint32_t at = fl_strmap_put(&s->names, nm, strlen(nm),
                              (uint32_t)fl_strmap_len(&s->names));
  if (at == FL_MAP_ABSENT)
    return NIL;
  if (at >= s->cap_n) {
    size_t nc = s->cap_n ? s->cap_n * 2 : 16;
    uint32_t *p = realloc(s->parent, nc * sizeof *p);
    uint32_t *t = p ? realloc(s->to, nc * sizeof *t) : NULL;
    if (p)
      s->parent = p;
    if (!t)
      return NIL;
    s->to = t;
    for (size_t i = s->cap_n; i < nc; i++)
      s->parent[i] = (uint32_t)i, s->to[i] = NIL;
    s->cap_n = nc;
  }
  return at;
}

static uint32_t uf(diff_shift *s, uint32_t x) {
  while (s->parent[x] != x)
    x = s->parent[x] = s->parent[s->parent[x]];
  return x;
}

int diff_shift_add(diff_shift *s, const char *from, const char *to) {
  uint32_t a = name_at(s, from), b = a == NIL ? NIL : name_at(s, to);
  if (b == NIL)
    return -1;
  if (s->to[a] != NIL && s->to[a] != b)
    s->to[a] = AMBIG; /* one host in two others' places: not a shift */
  else
    s->to[a] = b;
  return 0;
}

void diff_shift_drop(diff_shift *s, const char *from) {
  uint32_t a = fl_strmap_get(&s->names, from, strlen(from));
  if (a != FL_MAP_ABSENT)
    s->to[a] = AMBIG;
}

/* Trailing decimal number of @s and the length of what precedes it;
 * -1 when @s does not end in a digit (or the number is too long). */
static long long tail_num(const char *s, size_t *pre) {
  size_t n = strlen(s), i = n;
  while (i > 0 && s[i - 1] >= '0' && s[i - 1] <= '9')
    i--;
  if (i == n || n - i > 9)
    return -1;
  *pre = i;
  return atoll(s + i);
}

typedef struct named {
  uint32_t root; /* its chain (union-find root) */
  const char *name;
  uint32_t ix;
} named;

/* By chain, then name in natural order. */
static int by_chain(const void *x, const void *y) {
  const named *a = x, *b = y;
  if (a->root != b->root)
    return a->root < b->root ? -1 : 1;
  return fl_natcmp_strict(a->name, b->name);
}

/* The message of the component whose members (the names placed
 * elsewhere) are @m[0..n), in natural order. Allocated, NULL on ENOMEM. */
static char *comp_msg(dctx *c, diff_shift *s, const uint32_t *m, size_t n,
                      const char *unit, uint32_t *gap_ix, uint8_t *flag) {
  const fl_strmap *N = &s->names;
  long long delta = 0;
  int same = 1;
  for (size_t i = 0; i < n && same; i++) {
    size_t pa = 0, pb = 0; /* set by tail_num() when it finds a number */
    const char *a = fl_strmap_key(N, m[i]), *b = fl_strmap_key(N, s->to[m[i]]);
    long long na = tail_num(a, &pa), nb = tail_num(b, &pb);
    if (na < 0 || nb < 0 || pa != pb || strncmp(a, b, pa) != 0 ||
        (i && nb - na != delta))
      same = 0;
    else
      delta = nb - na;
  }
  char *list = NULL;
  for (size_t i = 0; i < n && i < SHIFT_LISTED; i++) {
    char *t =
        diff_xprintf(c, "%s%s\"%s\" where the plan has \"%s\"",
                     list ? list : "", list ? ", " : "", fl_strmap_key(N, m[i]),
                     fl_strmap_key(N, s->to[m[i]]));
    free(list);
    list = t;
  }
  if (n > SHIFT_LISTED) {
    char *t =
        diff_xprintf(c, "%s and %zu more", list ? list : "", n - SHIFT_LISTED);
    free(list);
    list = t;
  }
  /* the place nobody took: a member no member sits at; the name left
   * over: a place whose planned host is not a member */
  const char *gap = NULL, *left = NULL, *left_from = NULL;
  for (size_t i = 0; i < n; i++) /* 1: a member, 2: a place taken */
    flag[m[i]] |= 1, flag[s->to[m[i]]] |= 2;
  for (size_t i = 0; i < n; i++) {
    if (!(flag[m[i]] & 2) && !gap) {
      gap = fl_strmap_key(N, m[i]);
      *gap_ix = m[i];
    }
    if (!(flag[s->to[m[i]]] & 1) && !left) {
      left = fl_strmap_key(N, s->to[m[i]]);
      left_from = fl_strmap_key(N, m[i]);
    }
  }
  for (size_t i = 0; i < n; i++)
    flag[m[i]] = flag[s->to[m[i]]] = 0;
  char off[96] = "";
  if (same && delta)
    snprintf(off, sizeof off, ", each named %lld %s the plan",
             delta < 0 ? -delta : delta, delta > 0 ? "below" : "above");
  char *ends = NULL;
  if (gap && left)
    ends = diff_xprintf(c,
                        "; none of them is where the plan has \"%s\", and "
                        "\"%s\" is where the plan has \"%s\"",
                        gap, left_from, left);
  /* every place taken by one of them: the names go round (two hosts'
   * names swapped, or a ring), nothing is left out */
  char *msg =
      gap ? diff_xprintf(c,
                         "%zu %ss are where the plan puts other %ss%s (%s)%s: "
                         "the names are shifted against the plan (a %s left "
                         "out, or numbered from another start); %s",
                         n, unit, unit, off, list ? list : "?",
                         ends ? ends : "", unit, s->fix)
          : diff_xprintf(c,
                         "%zu %ss carry each other's names (%s): the names "
                         "go round among them; %s",
                         n, unit, list ? list : "?", s->fix);
  free(list), free(ends);
  return msg;
}

int diff_shift_finish(dctx *c, diff_shift *s, const char *unit) {
  size_t nn = fl_strmap_len(&s->names), z = nn ? nn : 1;
  for (size_t a = 0; a < nn; a++)
    if (s->to[a] != NIL && s->to[a] != AMBIG && s->to[a] != a)
      s->parent[uf(s, (uint32_t)a)] = uf(s, s->to[a]);
  s->cause = calloc(z, sizeof *s->cause);
  s->msg = calloc(z, sizeof *s->msg);
  s->gap = malloc(z * sizeof *s->gap);
  uint32_t *m = malloc(z * sizeof *m);
  named *srt = malloc(z * sizeof *srt);
  uint8_t *flag = calloc(z, 1);
  if (!s->cause || !s->msg || !s->gap || !m || !srt || !flag) {
    free(m), free(srt), free(flag);
    return -1;
  }
  /* the names placed elsewhere, by chain then name: each chain a run */
  size_t k = 0;
  for (size_t a = 0; a < nn; a++) {
    s->gap[a] = NIL;
    if (s->to[a] != NIL && s->to[a] != AMBIG && s->to[a] != a)
      srt[k++] =
          (named){uf(s, (uint32_t)a), fl_strmap_key(&s->names, a), (uint32_t)a};
  }
  qsort(srt, k, sizeof *srt, by_chain);
  for (size_t i = 0, j; i < k; i = j) {
    size_t n = 0;
    for (j = i; j < k && srt[j].root == srt[i].root; j++)
      m[n++] = srt[j].ix;
    if (n < s->min_pairs)
      continue;
    char *key =
        diff_xprintf(c, "name-shift:%s", fl_strmap_key(&s->names, m[0]));
    uint32_t gap = NIL;
    char *msg = comp_msg(c, s, m, n, unit, &gap, flag);
    for (size_t q = 0; q < n; q++) {
      s->gap[m[q]] = gap;
      s->cause[m[q]] = q ? diff_xstrdup(c, key) : key;
      s->msg[m[q]] = q ? diff_xstrdup(c, msg) : msg;
    }
  }
  free(m), free(srt), free(flag);
  return c->nomem ? -1 : 0;
}

const char *diff_shift_cause(const diff_shift *s, const char *from,
                             const char **msg) {
  uint32_t a =
      s->cause ? fl_strmap_get(&s->names, from, strlen(from)) : FL_MAP_ABSENT;
  if (a == FL_MAP_ABSENT || !s->cause[a])
    return NULL;
  if (msg)
    *msg = s->msg[a];
  return s->cause[a];
}

/* Set the root of finding @r to "fact:@cause" with role @role. */
static void set_root(dctx *c, fl_finding_rec *r, const char *cause,
                     uint32_t role) {
  if (r->root && strncmp(r->root, "fact:", 5) == 0 &&
      strcmp(r->root + 5, cause) == 0 && r->root_role == role)
    return;
  char *k = diff_xprintf(c, "fact:%s", cause);
  if (!k)
    return;
  free(r->root);
  r->root = k;
  r->root_role = role;
}

void diff_shift_roots(dctx *c, const diff_shift *s, const char *rule,
                      int gap_primary) {
  /* per chain (by any member): its cause; the names that matter for the
   * missing-host findings: a chain's gap (gap_primary) or the name it
   * leaves over (else), mapped to a member of that chain */
  size_t nn = fl_strmap_len(&s->names);
  fl_strmap chain = {0}, host = {0};
  for (size_t a = 0; s->cause && a < nn && !c->nomem; a++) {
    if (!s->cause[a])
      continue;
    const char *cz = s->cause[a];
    uint32_t t = s->to[a];
    const char *h =
        gap_primary
            ? (s->gap[a] != NIL ? fl_strmap_key(&s->names, s->gap[a]) : NULL)
        : t != NIL && t != AMBIG && !s->cause[t] ? fl_strmap_key(&s->names, t)
                                                 : NULL;
    if (fl_strmap_put(&chain, cz, strlen(cz), (uint32_t)a) == FL_MAP_ABSENT ||
        (h && fl_strmap_put(&host, h, strlen(h), (uint32_t)a) == FL_MAP_ABSENT))
      c->nomem = 1;
  }
  for (size_t i = 0; i < c->fs->n && !c->nomem; i++) {
    fl_finding_rec *r = &c->fs->v[i];
    if (!r->cause)
      continue;
    if (strcmp(r->rule, rule) == 0) {
      uint32_t a = fl_strmap_get(&chain, r->cause, strlen(r->cause));
      if (a == FL_MAP_ABSENT)
        continue;
      if (!gap_primary) /* the shift is the cause */
        set_root(c, r, r->cause, FL_ROOT_PRIMARY);
      else if (s->gap[a] != NIL) { /* the host left out is */
        char *root = diff_xprintf(c, "missing-host:%s",
                                  fl_strmap_key(&s->names, s->gap[a]));
        if (root)
          set_root(c, r, root, FL_ROOT_CONSEQUENCE);
        free(root);
      }
    } else if (strcmp(r->rule, "diff.missing-node") == 0 &&
               strncmp(r->cause, "missing-host:", 13) == 0) {
      const char *h = r->cause + 13;
      uint32_t a = fl_strmap_get(&host, h, strlen(h));
      if (a == FL_MAP_ABSENT)
        continue;
      if (gap_primary) /* the host left out, its renames under it */
        set_root(c, r, r->cause, FL_ROOT_PRIMARY);
      else /* the name the shift leaves over, found nowhere */
        set_root(c, r, s->cause[a], FL_ROOT_CONSEQUENCE);
    }
  }
  fl_strmap_free(&chain), fl_strmap_free(&host);
}

void diff_shift_free(diff_shift *s) {
  size_t nn = fl_strmap_len(&s->names);
  for (size_t i = 0; s->cause && i < nn; i++)
    free(s->cause[i]), free(s->msg[i]);
  free(s->cause), free(s->msg), free(s->gap), free(s->parent), free(s->to);
  fl_strmap_free(&s->names);
}
