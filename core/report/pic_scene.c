/* SPDX-License-Identifier: MIT */
/*
 * core/report/pic_scene.c — the scene a picture is built from: an arena for
 * its strings, growable arrays of nodes, edges, clusters, legend rows and
 * notes, the id map, and the element id encoding (pic_scene.h).
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabriclint/types.h"
#include "report/pic_scene.h"
#include "util/natcmp.h"

/* ---- arena ---------------------------------------------------------------
 */

struct pic_arena_blk {
  pic_arena_blk *next;
  size_t used, size;
  char data[];
};

#define ARENA_BLOCK 65536u

static void *arena_alloc(pic_scene *s, size_t n) {
  pic_arena_blk *b = s->arena;
  if (!b || b->size - b->used < n) {
    size_t size = n > ARENA_BLOCK ? n : ARENA_BLOCK;
    pic_arena_blk *nb = malloc(sizeof *nb + size);
    if (!nb) {
      s->oom = 1;
      return NULL;
    }
    nb->used = 0;
    nb->size = size;
    nb->next = s->arena;
    s->arena = nb;
    b = nb;
  }
  void *p = b->data + b->used;
  b->used += n;
  return p;
}

char *pic_strdup(pic_scene *s, const char *str) {
  if (!str)
    return NULL;
  size_t n = strlen(str) + 1;
  char *p = arena_alloc(s, n);
  if (p)
    memcpy(p, str, n);
  return p;
}

char *pic_printf(pic_scene *s, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  if (n < 0) {
    s->oom = 1;
    return NULL;
  }
  char *p = arena_alloc(s, (size_t)n + 1);
  if (!p)
    return NULL;
  va_start(ap, fmt);
  vsnprintf(p, (size_t)n + 1, fmt, ap);
  va_end(ap);
  return p;
}

/* ---- scene ---------------------------------------------------------------
 */

void pic_scene_init(pic_scene *s) {
  memset(s, 0, sizeof *s);
  s->rank_rows = 1;
}

void pic_scene_free(pic_scene *s) {
  free(s->nodes);
  free(s->edges);
  free(s->clusters);
  free(s->legend);
  free(s->notes);
  free(s->side);
  fl_strmap_free(&s->ids);
  while (s->arena) {
    pic_arena_blk *n = s->arena->next;
    free(s->arena);
    s->arena = n;
  }
  pic_scene_init(s);
}

/* Make room for one more element of @size bytes in *@v (*@n used of
 * *@cap). 0, or -1 on ENOMEM (@s->oom set). */
static int grow(pic_scene *s, void **v, size_t *n, size_t *cap, size_t size) {
  if (*n < *cap)
    return 0;
  size_t nc = *cap ? *cap * 2 : 64;
  void *nv = realloc(*v, nc * size);
  if (!nv) {
    s->oom = 1;
    return -1;
  }
  *v = nv;
  *cap = nc;
  return 0;
}

uint32_t pic_scene_find(const pic_scene *s, const char *id) {
  uint32_t v = fl_strmap_get(&s->ids, id, strlen(id));
  return v == FL_MAP_ABSENT ? PIC_NONE : v;
}

uint32_t pic_scene_node(pic_scene *s, const char *id, uint32_t shape,
                        int *added) {
  if (added)
    *added = 0;
  size_t len = strlen(id);
  uint32_t have = fl_strmap_get(&s->ids, id, len);
  if (have != FL_MAP_ABSENT)
    return have;
  if (grow(s, (void **)&s->nodes, &s->n_nodes, &s->cap_nodes,
           sizeof *s->nodes) != 0)
    return PIC_NONE;
  uint32_t i = (uint32_t)s->n_nodes;
  pic_node *n = &s->nodes[i];
  memset(n, 0, sizeof *n);
  n->id = pic_strdup(s, id);
  n->shape = shape;
  n->rank = -1;
  n->cluster = PIC_NONE;
  n->node = FL_NONE;
  if (!n->id || fl_strmap_put(&s->ids, id, len, i) == FL_MAP_ABSENT) {
    s->oom = 1;
    return PIC_NONE;
  }
  s->n_nodes++;
  if (added)
    *added = 1;
  return i;
}

uint32_t pic_scene_edge(pic_scene *s, uint32_t a, uint32_t b, const char *id) {
  if (a == PIC_NONE || b == PIC_NONE ||
      grow(s, (void **)&s->edges, &s->n_edges, &s->cap_edges,
           sizeof *s->edges) != 0)
    return PIC_NONE;
  pic_edge *e = &s->edges[s->n_edges];
  memset(e, 0, sizeof *e);
  e->a = a;
  e->b = b;
  e->id = pic_strdup(s, id);
  e->constraint = 1;
  if (!e->id)
    return PIC_NONE;
  return (uint32_t)s->n_edges++;
}

uint32_t pic_scene_cluster(pic_scene *s, const char *id, const char *label) {
  if (grow(s, (void **)&s->clusters, &s->n_clusters, &s->cap_clusters,
           sizeof *s->clusters) != 0)
    return PIC_NONE;
  pic_cluster *c = &s->clusters[s->n_clusters];
  memset(c, 0, sizeof *c);
  c->id = pic_strdup(s, id);
  c->label = pic_strdup(s, label);
  if (!c->id)
    return PIC_NONE;
  return (uint32_t)s->n_clusters++;
}

int pic_scene_legend(pic_scene *s, const char *colour, uint32_t style,
                     int is_fill, const char *text) {
  if (grow(s, (void **)&s->legend, &s->n_legend, &s->cap_legend,
           sizeof *s->legend) != 0)
    return -1;
  pic_legend *l = &s->legend[s->n_legend++];
  l->colour = pic_strdup(s, colour);
  l->style = style;
  l->is_fill = is_fill;
  l->text = pic_strdup(s, text);
  return s->oom ? -1 : 0;
}

int pic_scene_side(pic_scene *s, const char *line) {
  if (grow(s, (void **)&s->side, &s->n_side, &s->cap_side, sizeof *s->side))
    return -1;
  s->side[s->n_side++] = pic_strdup(s, line);
  return s->oom ? -1 : 0;
}

int pic_scene_note(pic_scene *s, uint32_t finding, uint32_t sev,
                   const char *rule, const char *text) {
  if (grow(s, (void **)&s->notes, &s->n_notes, &s->cap_notes,
           sizeof *s->notes) != 0)
    return -1;
  pic_note *n = &s->notes[s->n_notes++];
  n->finding = finding;
  n->sev = sev;
  n->rule = pic_strdup(s, rule);
  n->text = pic_strdup(s, text);
  return s->oom ? -1 : 0;
}

char *pic_cls_add(pic_scene *s, char *cls, uint32_t finding) {
  char tok[16];
  snprintf(tok, sizeof tok, "f%u", finding);
  if (!cls)
    return pic_strdup(s, tok);
  size_t count = 1, tl = strlen(tok);
  for (const char *p = cls; *p; p++)
    count += *p == ' ';
  for (const char *p = cls; p && *p;) { /* already listed? */
    const char *e = strchr(p, ' ');
    size_t n = e ? (size_t)(e - p) : strlen(p);
    if (n == tl && memcmp(p, tok, n) == 0)
      return cls;
    p = e ? e + 1 : NULL;
  }
  if (count >= PIC_MAX_CLASSES)
    return cls;
  char *r = pic_printf(s, "%s %s", cls, tok);
  return r ? r : cls;
}

const char *pic_sev_colour(uint32_t sev) {
  switch (sev) {
  case FL_SEV_ERROR:
    return "#d62728";
  case FL_SEV_WARNING:
    return "#e67e00";
  case FL_SEV_INFO:
    return "#1f77b4";
  default:
    return "#8c8c8c";
  }
}

const char *pic_sev_fill(uint32_t sev) {
  switch (sev) {
  case FL_SEV_ERROR:
    return "#fbd5d5";
  case FL_SEV_WARNING:
    return "#fde6c8";
  case FL_SEV_INFO:
    return "#d6e6f5";
  default:
    return NULL;
  }
}

/* ---- order ----------------------------------------------------------------
 */

/* ---- ids -----------------------------------------------------------------
 */

static void put(char *buf, size_t size, size_t *len, char c) {
  if (*len + 1 < size)
    buf[(*len)++] = c;
  buf[*len < size ? *len : size - 1] = '\0';
}

size_t pic_id_enc(char *buf, size_t size, size_t *len, const char *name) {
  static const char HEX[] = "0123456789ABCDEF";
  for (const unsigned char *p = (const unsigned char *)name; *p; p++) {
    unsigned char c = *p;
    if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
        (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-') {
      put(buf, size, len, (char)c);
    } else if (c == ' ') {
      put(buf, size, len, '+');
    } else {
      put(buf, size, len, '%');
      put(buf, size, len, HEX[c >> 4]);
      put(buf, size, len, HEX[c & 15]);
    }
  }
  if (size)
    buf[*len < size ? *len : size - 1] = '\0';
  return *len;
}

static void put_str(char *buf, size_t size, size_t *len, const char *s) {
  for (; *s; s++)
    put(buf, size, len, *s);
}

char *pic_id(char *buf, size_t size, const char *prefix, const char *name) {
  size_t len = 0;
  buf[0] = '\0';
  put_str(buf, size, &len, prefix);
  pic_id_enc(buf, size, &len, name);
  return buf;
}

char *pic_id_link(char *buf, size_t size, const char *a, uint32_t pa,
                  const char *b, uint32_t pb) {
  int c = strcmp(a, b);
  if (c > 0 || (c == 0 && pa > pb)) {
    const char *t = a;
    a = b, b = t;
    uint32_t tp = pa;
    pa = pb, pb = tp;
  }
  char num[16];
  size_t len = 0;
  buf[0] = '\0';
  put_str(buf, size, &len, "link-");
  pic_id_enc(buf, size, &len, a);
  snprintf(num, sizeof num, "~%u~", pa);
  put_str(buf, size, &len, num);
  pic_id_enc(buf, size, &len, b);
  snprintf(num, sizeof num, "~%u", pb);
  put_str(buf, size, &len, num);
  return buf;
}

char *pic_id_pair(char *buf, size_t size, const char *prefix, const char *a,
                  const char *b) {
  if (strcmp(a, b) > 0) {
    const char *t = a;
    a = b, b = t;
  }
  size_t len = 0;
  buf[0] = '\0';
  put_str(buf, size, &len, prefix);
  pic_id_enc(buf, size, &len, a);
  put(buf, size, &len, '~');
  pic_id_enc(buf, size, &len, b);
  return buf;
}
