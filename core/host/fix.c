/* SPDX-License-Identifier: MIT */
/*
 * core/host/fix.c — a finding's fix in names (see fix.h).
 */
#include "host/fix.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabriclint/fabric.h"

const char *fl_fix_action_name(uint32_t kind) {
  switch (kind) {
  case FL_FIX_MOVE_END:
    return "move-end";
  case FL_FIX_SET_SPEED:
    return "set-speed";
  default:
    return "set-width";
  }
}

int fl_fix_end_set(fl_fix_end *e, const char *node, uint32_t port,
                   const char *label) {
  e->node = strdup(node ? node : "");
  e->label = strdup(label ? label : "");
  e->port = port;
  return e->node && e->label ? 0 : -1;
}

static void end_free(fl_fix_end *e) {
  free(e->node);
  free(e->label);
}

static void change_free(fl_fix_change_rec *c) {
  end_free(&c->cable[0]);
  end_free(&c->cable[1]);
  end_free(&c->to);
  free(c->from_value);
  free(c->value);
  free(c->file);
}

void fl_fix_free(fl_fix_rec *f) {
  if (!f)
    return;
  for (uint32_t i = 0; i < f->n; i++)
    change_free(&f->v[i]);
  free(f->v);
  free(f->kind);
  free(f->description);
  free(f);
}

fl_fix_rec *fl_fix_new(const char *description, uint32_t cap) {
  fl_fix_rec *f = calloc(1, sizeof *f);
  if (!f)
    return NULL;
  f->description = strdup(description ? description : "");
  f->v = calloc(cap + 1, sizeof *f->v);
  if (!f->description || !f->v) {
    fl_fix_free(f);
    return NULL;
  }
  return f;
}

static int same_end(const fl_fix_end *a, const fl_fix_end *b) {
  return a->port == b->port && strcmp(a->node, b->node) == 0;
}

int fl_fix_finish(fl_fix_rec *f) {
  uint32_t moves = 0;
  for (uint32_t i = 0; i < f->n; i++)
    moves += f->v[i].kind == FL_FIX_MOVE_END;
  const char *kind = moves == 0 ? "set" : moves < f->n ? "mixed" : "move";
  /* two moved ends that take each other's place: a swap */
  if (moves == 2 && f->n == 2) {
    const fl_fix_change_rec *a = &f->v[0], *b = &f->v[1];
    if (same_end(&a->to, &b->cable[b->end]) &&
        same_end(&b->to, &a->cable[a->end]))
      kind = "swap";
  }
  free(f->kind);
  f->kind = strdup(kind);
  return f->kind ? 0 : -1;
}

/* The end of link @l at @idx, in names. */
static int end_of(const fl_fabric *fab, fl_id l, uint32_t idx, fl_fix_end *e) {
  fl_id p = fl_fabric_link_port(fab, l, idx);
  fl_id n = fl_fabric_port_node(fab, p);
  return fl_fix_end_set(e, fl_fabric_node_name(fab, n),
                        fl_fabric_port_num(fab, p),
                        fl_fabric_port_label(fab, p));
}

/* Copy one plugin change (@c, already size-checked) of fabric @fab. */
static int copy_change(const fl_fabric *fab, const fl_fix_change *c,
                       fl_fix_change_rec *r) {
  r->kind = c->kind;
  if (end_of(fab, c->link, 0, &r->cable[0]) != 0 ||
      end_of(fab, c->link, 1, &r->cable[1]) != 0)
    return FL_ENOMEM;
  if (c->kind == FL_FIX_MOVE_END) {
    r->end = c->end;
    fl_id p = fl_fabric_find_port(fab, c->node, c->port);
    if (fl_fix_end_set(&r->to, fl_fabric_node_name(fab, c->node), c->port,
                       p == FL_NONE ? "" : fl_fabric_port_label(fab, p)) != 0)
      return FL_ENOMEM;
  } else {
    char now[32] = "";
    if (c->kind == FL_FIX_SET_SPEED && fl_fabric_link_speed(fab, c->link))
      snprintf(now, sizeof now, "%s",
               fl_speed_name(fl_fabric_link_speed(fab, c->link)));
    else if (c->kind == FL_FIX_SET_WIDTH && fl_fabric_link_width(fab, c->link))
      snprintf(now, sizeof now, "%ux", fl_fabric_link_width(fab, c->link));
    r->from_value = strdup(now);
    r->value = strdup(c->value);
    if (!r->from_value || !r->value)
      return FL_ENOMEM;
  }
  const char *file = NULL;
  uint32_t line = 0, col = 0;
  if (fl_fabric_provenance(fab, FL_ENT_LINK, c->link, &file, &line, &col) ==
          FL_OK &&
      file && *file) {
    if (!(r->file = strdup(file)))
      return FL_ENOMEM;
    r->line = line;
    r->col = col;
  }
  return FL_OK;
}

/* A plugin change read up to its struct_size, and checked. */
static int read_change(const fl_fabric *fab, const fl_fix_change *in,
                       fl_fix_change *c) {
  memset(c, 0, sizeof *c);
  if (!in || in->struct_size < offsetof(fl_fix_change, end))
    return FL_EINVAL;
  memcpy(c, in, in->struct_size < sizeof *c ? in->struct_size : sizeof *c);
  if (c->kind < FL_FIX_MOVE_END || c->kind > FL_FIX_SET_WIDTH ||
      c->link >= fl_fabric_link_count(fab))
    return FL_EINVAL;
  if (c->kind == FL_FIX_MOVE_END)
    return c->end <= 1 && c->node < fl_fabric_node_count(fab) && c->port
               ? FL_OK
               : FL_EINVAL;
  return c->value && *c->value ? FL_OK : FL_EINVAL;
}

int fl_fix_copy(const fl_fabric *fab, const fl_fix *fix, fl_fix_rec **out) {
  *out = NULL;
  fl_fix f;
  memset(&f, 0, sizeof f);
  if (!fix || fix->struct_size < offsetof(fl_fix, changes) + sizeof f.changes)
    return FL_EINVAL;
  memcpy(&f, fix, fix->struct_size < sizeof f ? fix->struct_size : sizeof f);
  if (!f.n_changes || !f.changes || !f.description || !*f.description ||
      f.n_changes > 4096)
    return FL_EINVAL;
  fl_fix_change *cs = calloc(f.n_changes, sizeof *cs);
  if (!cs)
    return FL_ENOMEM;
  int rc = FL_OK;
  for (uint32_t i = 0; i < f.n_changes && rc == FL_OK; i++)
    rc = read_change(fab, f.changes[i], &cs[i]);
  fl_fix_rec *r = rc == FL_OK ? fl_fix_new(f.description, f.n_changes) : NULL;
  if (rc == FL_OK && !r)
    rc = FL_ENOMEM;
  for (uint32_t i = 0; i < f.n_changes && rc == FL_OK; i++) {
    rc = copy_change(fab, &cs[i], &r->v[i]);
    r->n++;
  }
  if (rc == FL_OK && fl_fix_finish(r) != 0)
    rc = FL_ENOMEM;
  free(cs);
  if (rc != FL_OK) {
    fl_fix_free(r);
    return rc;
  }
  *out = r;
  return FL_OK;
}

static int copy_end(fl_fix_end *d, const fl_fix_end *s) {
  return fl_fix_end_set(d, s->node, s->port, s->label);
}

static char *dup0(const char *s) {
  return s ? strdup(s) : NULL;
}

static int clone_change(fl_fix_change_rec *d, const fl_fix_change_rec *s) {
  *d = *s;
  d->cable[0] = d->cable[1] = d->to = (fl_fix_end){0};
  d->from_value = dup0(s->from_value);
  d->value = dup0(s->value);
  d->file = dup0(s->file);
  int bad = copy_end(&d->cable[0], &s->cable[0]) ||
            copy_end(&d->cable[1], &s->cable[1]) ||
            (s->kind == FL_FIX_MOVE_END && copy_end(&d->to, &s->to));
  return bad || (s->from_value && !d->from_value) || (s->value && !d->value) ||
                 (s->file && !d->file)
             ? -1
             : 0;
}

fl_fix_rec *fl_fix_clone(const fl_fix_rec *f) {
  if (!f)
    return NULL;
  fl_fix_rec *c = fl_fix_new(f->description, f->n);
  if (!c)
    return NULL;
  for (uint32_t i = 0; i < f->n; i++) {
    c->n++;
    if (clone_change(&c->v[i], &f->v[i]) != 0) {
      fl_fix_free(c);
      return NULL;
    }
  }
  if (fl_fix_finish(c) != 0) {
    fl_fix_free(c);
    return NULL;
  }
  return c;
}

fl_fix_rec *fl_fix_merge(const fl_fix_rec *const *v, uint32_t n, int *nomem) {
  uint32_t total = 0, with = 0;
  size_t len = 64;
  for (uint32_t i = 0; i < n; i++)
    if (v[i]) {
      total += v[i]->n;
      if (with++ < 3)
        len += strlen(v[i]->description) + 2;
    }
  *nomem = 0;
  if (!total)
    return NULL;
  char *desc = malloc(len), *p = desc;
  if (!desc) {
    *nomem = 1;
    return NULL;
  }
  uint32_t shown = 0;
  for (uint32_t i = 0; i < n && shown < 3; i++)
    if (v[i])
      p += sprintf(p, "%s%s", shown++ ? "; " : "", v[i]->description);
  if (with > shown)
    sprintf(p, " and %u more", with - shown);
  fl_fix_rec *m = fl_fix_new(desc, total);
  free(desc);
  for (uint32_t i = 0; m && i < n; i++)
    for (uint32_t k = 0; v[i] && k < v[i]->n; k++) {
      m->n++;
      if (clone_change(&m->v[m->n - 1], &v[i]->v[k]) != 0) {
        fl_fix_free(m);
        m = NULL;
        break;
      }
    }
  if (m && fl_fix_finish(m) != 0) {
    fl_fix_free(m);
    m = NULL;
  }
  *nomem = m == NULL;
  return m;
}

/* A JSON string of @s; bytes that are not UTF-8 (a plugin's description)
 * become '?', as jansson refuses invalid UTF-8. */
static json_t *jstr(const char *s) {
  json_t *j = json_string(s ? s : "");
  if (j)
    return j;
  char *c = strdup(s);
  for (unsigned char *p = (unsigned char *)c; c && *p; p++)
    if (*p >= 0x80)
      *p = '?';
  j = json_string(c ? c : "");
  free(c);
  return j;
}

/* {"node", "port"[, "label"]}: a port is always a number, a name always a
 * string; the label (Ethernet1/3) is said apart. */
static json_t *end_json(const fl_fix_end *e) {
  json_t *o = json_pack("{s:o,s:I}", "node", jstr(e->node), "port",
                        (json_int_t)e->port);
  if (o && e->label && *e->label)
    json_object_set_new(o, "label", jstr(e->label));
  return o;
}

json_t *fl_fix_json(const fl_fix_rec *f) {
  json_t *changes = json_array();
  for (uint32_t i = 0; changes && i < f->n; i++) {
    const fl_fix_change_rec *c = &f->v[i];
    json_t *o =
        json_pack("{s:s,s:[o,o]}", "action", fl_fix_action_name(c->kind),
                  "cable", end_json(&c->cable[0]), end_json(&c->cable[1]));
    if (!o)
      continue;
    if (c->kind == FL_FIX_MOVE_END) {
      json_object_set_new(o, "from", end_json(&c->cable[c->end]));
      json_object_set_new(o, "to", end_json(&c->to));
    } else {
      json_object_set_new(o, "from", jstr(c->from_value));
      json_object_set_new(o, "to", jstr(c->value));
    }
    if (c->file) {
      json_t *loc = json_pack("{s:o,s:I}", "file", jstr(c->file), "line",
                              (json_int_t)c->line);
      if (loc && c->col)
        json_object_set_new(loc, "column", json_integer(c->col));
      json_object_set_new(o, "location", loc);
    }
    json_array_append_new(changes, o);
  }
  return json_pack("{s:s,s:o,s:o}", "kind", f->kind, "description",
                   jstr(f->description), "changes", changes);
}
