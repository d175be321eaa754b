/* SPDX-License-Identifier: MIT */
/*
 * core/io/dot_bound.c — an upper bound on the edges of a DOT text (see
 * io/dot_bound.h). The lexical rules are those of Graphviz's scan.l: ids
 * are runs of letters, digits, '_', '.' and bytes >= 0x80, or double-quoted
 * strings (backslash escapes), or HTML strings <...> (nested angle
 * brackets); comments are C block comments, // and lines starting with '#'.
 */
#include "io/dot_bound.h"

#include <ctype.h>
#include <string.h>
#include <strings.h>

/* Subgraph nesting tracked exactly up to this depth; deeper groups are
 * folded into the deepest one (their sizes add up there: still a bound). */
#define DOT_BOUND_DEPTH 64

typedef struct level {
  uint64_t ids;     /* ids inside this group so far */
  uint64_t last;    /* size of the operand just completed */
  uint64_t pending; /* left operand of an edge operator awaiting its right */
  uint64_t left;    /* the left operand the current operand is joined to */
  int has_last, has_pending;
  int joining; /* after ',': the next id extends the node list `b, c` */
} level;

static uint64_t sat_add(uint64_t a, uint64_t b) {
  return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

static uint64_t sat_mul(uint64_t a, uint64_t b) {
  return a && b > UINT64_MAX / a ? UINT64_MAX : a * b;
}

/* An operand of @size nodes completed at level @l: cables to the left
 * operand, or (after ',') one more member of the node list being read,
 * which cgraph's grammar treats as one operand (`a -- b, c -- d` is 4). */
static void operand(level *l, uint64_t size, uint64_t *total) {
  if (l->joining && l->has_last) {
    *total = sat_add(*total, sat_mul(l->left, size));
    l->last = sat_add(l->last, size);
    l->joining = 0;
    return;
  }
  l->joining = 0;
  l->left = l->has_pending ? l->pending : 0;
  *total = sat_add(*total, sat_mul(l->left, size));
  l->has_pending = 0;
  l->last = size;
  l->has_last = 1;
}

static int id_byte(unsigned char c) {
  return isalnum(c) || c == '_' || c == '.' || c >= 0x80;
}

/* Past the token that starts at @p (a comment, string or id). */
static const char *skip_string(const char *p, const char *e) {
  if (*p == '"') {
    for (p++; p < e && *p != '"'; p++)
      if (*p == '\\' && p + 1 < e)
        p++;
    return p < e ? p + 1 : e;
  }
  int depth = 0; /* '<' */
  for (; p < e; p++) {
    if (*p == '<')
      depth++;
    else if (*p == '>' && --depth == 0)
      return p + 1;
  }
  return e;
}

static int keyword(const char *s, size_t n) {
  static const char *const KW[] = {"graph", "digraph", "strict",
                                   "node",  "edge",    "subgraph"};
  for (size_t i = 0; i < sizeof KW / sizeof *KW; i++)
    if (strlen(KW[i]) == n && strncasecmp(s, KW[i], n) == 0)
      return 1 + (i == 5);
  return 0;
}

uint64_t fl_dot_edge_bound(const char *text, size_t len) {
  level lv[DOT_BOUND_DEPTH];
  memset(lv, 0, sizeof lv);
  int d = 0, over = 0;  /* over: groups deeper than the array */
  int brackets = 0;     /* inside an attribute list [...] */
  int skip_next_id = 0; /* the next id is a port, a value or a name */
  uint64_t total = 0;
  const char *p = text, *e = text + len;
  int line_start = 1;
  while (p < e) {
    unsigned char c = (unsigned char)*p;
    if (c == '\n') {
      line_start = 1;
      p++;
      continue;
    }
    if (isspace(c)) {
      p++;
      continue;
    }
    if (line_start && c == '#') {
      const char *nl = memchr(p, '\n', (size_t)(e - p));
      p = nl ? nl : e;
      continue;
    }
    line_start = 0;
    if (c == '/' && p + 1 < e && (p[1] == '/' || p[1] == '*')) {
      if (p[1] == '/') {
        const char *nl = memchr(p, '\n', (size_t)(e - p));
        p = nl ? nl : e;
      } else {
        const char *q = p + 2;
        while (q + 1 < e && !(q[0] == '*' && q[1] == '/'))
          q++;
        p = q + 1 < e ? q + 2 : e;
      }
      continue;
    }
    level *l = &lv[d];
    if (c == '-' && p + 1 < e && (p[1] == '-' || p[1] == '>')) {
      p += 2;
      if (!brackets && l->has_last) {
        l->pending = l->last;
        l->has_pending = 1;
      }
      continue;
    }
    int is_id = c == '"' || c == '<' || id_byte(c) || c == '-';
    if (is_id) {
      const char *s = p;
      if (c == '"' || c == '<')
        p = skip_string(p, e);
      else
        for (p++; p < e && id_byte((unsigned char)*p); p++)
          ;
      int kw = (c != '"' && c != '<') ? keyword(s, (size_t)(p - s)) : 0;
      if (brackets)
        continue;
      if (skip_next_id) {
        skip_next_id = 0;
        continue;
      }
      if (kw == 2) /* subgraph NAME: the name is no node */
        skip_next_id = 1;
      if (kw)
        continue;
      l->ids = sat_add(l->ids, 1);
      operand(l, 1, &total);
      continue;
    }
    p++;
    switch (c) {
    case '[':
      brackets++;
      break;
    case ']':
      if (brackets)
        brackets--;
      break;
    case ':':
    case '=':
      if (!brackets)
        skip_next_id = 1;
      break;
    case '+': /* "a" + "b": one id */
      skip_next_id = 1;
      break;
    case '{':
      if (brackets)
        break;
      skip_next_id = 0;
      if (d + 1 < DOT_BOUND_DEPTH) {
        d++;
        memset(&lv[d], 0, sizeof lv[d]);
      } else {
        over++;
      }
      break;
    case '}':
      if (brackets)
        break;
      skip_next_id = 0;
      if (over) {
        over--;
      } else if (d > 0) {
        uint64_t size = lv[d].ids;
        d--;
        lv[d].ids = sat_add(lv[d].ids, size);
        operand(&lv[d], size, &total);
      }
      break;
    case ',':
      if (!brackets)
        l->joining = 1;
      break;
    case ';':
      if (!brackets) {
        l->has_last = 0;
        l->has_pending = 0;
        l->joining = 0;
      }
      break;
    default:
      break;
    }
  }
  return total;
}
