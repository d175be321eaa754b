/* SPDX-License-Identifier: MIT */
/*
 * core/report/view_diff.c — the diff view of `fabriclint diff`: the plan
 * drawn as the tier view, with what the as-built fabric changes on top
 * (picture.h). From each diff finding's evidence (core/diff/diff_classify.c,
 * docs/rules/diff.md):
 *   diff.missing        the planned cable dashed red, "missing"
 *   diff.misconnected   the planned cable dashed, the built one solid red
 *   diff.swapped        both planned cables dashed, both built ones solid
 *                       red, and a dotted line "swap" joining the two ends
 *                       to exchange
 *   diff.unexpected     the built cable purple, "not in plan"
 *   diff.duplicate      the extra cable purple dashed
 *   diff.different      the planned cable in the warning colour, "built
 *                       1x, planned 4x"
 *   diff.missing-node   the planned node dashed red
 *   diff.unexpected-node  a purple dashed node where the as-built has it
 * Cables are named by their ends; an end resolves in the plan, else in the
 * as-built fabric (port numbers, or labels such as swp3).
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "fabriclint/fabric.h"
#include "report/pic_view.h"

#define UNEXPECTED_COLOUR "#7b3fb5"

typedef struct overlay {
  pic_scene *s;
  const pic_ctx *c;
  pic_draw *d;
  uint32_t finding; /* 1-based */
  uint32_t sev;
  uint32_t not_drawn; /* changes whose ends are not drawn alone */
} overlay;

/* Port number of @port (a number, or a label) on node @name of @f; 0 when
 * unknown. */
static uint32_t port_num(const fl_fabric *f, const char *name,
                         const char *port) {
  if (!f || !port)
    return 0;
  const char *p = port;
  while (isdigit((unsigned char)*p))
    p++;
  if (*port && !*p)
    return (uint32_t)strtoul(port, NULL, 10);
  fl_id n = fl_fabric_find_node_name(f, name);
  if (n == FL_NONE)
    return 0;
  fl_id p0 = fl_fabric_node_first_port(f, n);
  uint32_t np = fl_fabric_node_port_count(f, n);
  for (uint32_t i = 0; i < np; i++)
    if (strcasecmp(fl_fabric_port_label(f, p0 + i), port) == 0)
      return fl_fabric_port_num(f, p0 + i);
  return 0;
}

/* One end of a cable in diff evidence: node name, port number (in the
 * plan, else as built; 0 when neither has it) and the port as written. */
typedef struct endp {
  const char *node;
  const char *label;
  uint32_t port;
  char num[16]; /* the port number as text, when the evidence has no label */
} endp;

/* The port as written: its label, else its number (never a pointer into the
 * struct itself, so endp values may be copied and swapped). */
#define LABEL(e) ((e)->label ? (e)->label : (e)->num)

static int read_end(const fl_fabric *design, const fl_fabric *built,
                    const json_t *j, endp *e) {
  /* {"node": N, "port": number, "label": "swp3"} (label for named ports
   * only; schema/findings.schema.json), or the older {"port": "swp3"} */
  const json_t *pj = json_object_get(j, "port");
  e->node = json_string_value(json_object_get(j, "node"));
  e->label = json_string_value(json_object_get(j, "label"));
  e->num[0] = '\0';
  if (!e->label && json_is_integer(pj))
    snprintf(e->num, sizeof e->num, "%lld", (long long)json_integer_value(pj));
  else if (!e->label)
    e->label = json_string_value(pj);
  if (!e->node || !LABEL(e)[0])
    return -1;
  e->port = port_num(design, e->node, LABEL(e));
  if (!e->port)
    e->port = port_num(built, e->node, LABEL(e));
  return 0;
}

/* The plan's cable between ends @a and @b, or FL_NONE. */
static fl_id plan_link(const fl_fabric *f, const endp *a, const endp *b) {
  fl_id na = fl_fabric_find_node_name(f, a->node);
  fl_id nb = fl_fabric_find_node_name(f, b->node);
  fl_id p = na == FL_NONE ? FL_NONE : fl_fabric_find_port(f, na, a->port);
  for (uint32_t i = 0; p != FL_NONE && i < fl_fabric_port_link_count(f, p);
       i++) {
    fl_id l = fl_fabric_port_link(f, p, i);
    fl_id q = fl_fabric_link_other(f, l, p);
    if (q != FL_NONE && fl_fabric_port_node(f, q) == nb &&
        fl_fabric_port_num(f, q) == b->port)
      return l;
  }
  return FL_NONE;
}

/* Add the plan's cable @j ([end, end]) to @links. */
static void planned_link(const fl_fabric *design, const fl_fabric *built,
                         const json_t *j, fl_id *links, uint32_t *n) {
  endp a, b;
  if (*n >= PIC_DIFF_PLANNED_MAX ||
      read_end(design, built, json_array_get(j, 0), &a) ||
      read_end(design, built, json_array_get(j, 1), &b))
    return;
  fl_id l = plan_link(design, &a, &b);
  if (l != FL_NONE)
    links[(*n)++] = l;
}

uint32_t pic_diff_planned(const fl_fabric *design, const fl_fabric *built,
                          const fl_finding_rec *r, fl_id *links) {
  if (!r->evidence || !strcmp(r->rule, "diff.unexpected"))
    return 0;
  json_t *ev = json_loads(r->evidence, 0, NULL);
  const json_t *c = json_object_get(ev, "planned");
  if (!c)
    c = json_object_get(ev, "cable");
  uint32_t n = 0;
  if (json_is_array(json_array_get(c, 0))) { /* a list of cables (swap) */
    for (size_t i = 0; i < json_array_size(c); i++)
      planned_link(design, built, json_array_get(c, i), links, &n);
  } else if (json_is_array(c)) {
    planned_link(design, built, c, links, &n);
  }
  json_decref(ev);
  return n;
}

/* The id of the cable between @a and @b: "link-A~PA~B~PB" with port
 * numbers, or the ports as written when a number is unknown. */
static char *cable_id(char *buf, size_t size, const endp *a, const endp *b) {
  if (a->port && b->port)
    return pic_id_link(buf, size, a->node, a->port, b->node, b->port);
  int c = strcmp(a->node, b->node);
  if (c > 0 || (c == 0 && strcmp(LABEL(a), LABEL(b)) > 0)) {
    const endp *t = a;
    a = b, b = t;
  }
  const char *part[4] = {a->node, LABEL(a), b->node, LABEL(b)};
  size_t len = (size_t)snprintf(buf, size, "link-");
  for (int i = 0; i < 4 && len + 1 < size; i++) {
    if (i)
      buf[len++] = '~', buf[len] = '\0'; /* the separator, not encoded */
    pic_id_enc(buf, size, &len, part[i]);
  }
  return buf;
}

static int end_of(const overlay *o, const json_t *j, endp *e) {
  return read_end(o->c->fab, o->c->pic ? o->c->pic->fab_built : NULL, j, e);
}

/* The drawn node of fabric node @name: where the plan's node is drawn, or
 * a node added for an as-built node the plan lacks. */
static uint32_t drawn_of(overlay *o, const char *name) {
  fl_id n = fl_fabric_find_node_name(o->c->fab, name);
  if (n != FL_NONE)
    return o->d->drawn[n];
  char id[PIC_ID_MAX];
  return pic_scene_find(o->s, pic_id(id, sizeof id, "node-", name));
}

static void mark_edge(overlay *o, uint32_t e, uint32_t style,
                      const char *colour, const char *word) {
  pic_edge *ed = &o->s->edges[e];
  ed->style = style;
  ed->colour = pic_strdup(o->s, colour);
  if (o->sev > ed->sev)
    ed->sev = o->sev;
  ed->cls = pic_cls_add(o->s, ed->cls, o->finding);
  char *l = ed->label ? pic_printf(o->s, "%s\n%s", word, ed->label)
                      : pic_strdup(o->s, word);
  ed->label = l ? l : ed->label;
  ed->tooltip = pic_tooltip_findings(o->s, o->c, ed->tooltip, &o->finding, 1);
}

/* The planned cable @j ([end, end]) drawn as @style/@colour with @word. */
static void planned(overlay *o, const json_t *j, uint32_t style,
                    const char *colour, const char *word) {
  endp a, b;
  if (end_of(o, json_array_get(j, 0), &a) ||
      end_of(o, json_array_get(j, 1), &b))
    return;
  char id[PIC_ID_MAX];
  uint32_t e = pic_draw_find_edge(o->d, cable_id(id, sizeof id, &a, &b));
  if (e == PIC_NONE) {
    o->not_drawn++;
    return;
  }
  mark_edge(o, e, style, colour, word);
}

/* A cable the as-built has (@j: [end, end]), added to the drawing. */
static uint32_t built(overlay *o, const json_t *j, uint32_t style,
                      const char *colour, const char *word) {
  endp a, b;
  if (end_of(o, json_array_get(j, 0), &a) ||
      end_of(o, json_array_get(j, 1), &b))
    return PIC_NONE;
  uint32_t da = drawn_of(o, a.node), db = drawn_of(o, b.node);
  if (da == PIC_NONE || db == PIC_NONE || da == db) {
    o->not_drawn++;
    return PIC_NONE;
  }
  if (o->s->nodes[da].rank < o->s->nodes[db].rank) { /* from above */
    uint32_t t = da;
    da = db, db = t;
    endp te = a;
    a = b, b = te;
  }
  char id[PIC_ID_MAX];
  cable_id(id, sizeof id, &a, &b);
  uint32_t e = pic_draw_edge(o->s, o->d, da, db, id);
  if (e == PIC_NONE)
    return PIC_NONE;
  pic_edge *ed = &o->s->edges[e];
  if (!ed->tooltip)
    ed->tooltip = pic_printf(o->s, "built: %s port %s - %s port %s", a.node,
                             LABEL(&a), b.node, LABEL(&b));
  if (!ed->label)
    ed->label = pic_printf(o->s, "%s - %s", LABEL(&a), LABEL(&b));
  ed->constraint = o->s->nodes[da].rank != o->s->nodes[db].rank;
  mark_edge(o, e, style, colour, word);
  return e;
}

static void swap_join(overlay *o, const json_t *swap) {
  endp a, b;
  if (end_of(o, json_array_get(swap, 0), &a) ||
      end_of(o, json_array_get(swap, 1), &b) || !strcmp(a.node, b.node))
    return; /* two ports of one host: the crossed cables show it */
  uint32_t da = drawn_of(o, a.node), db = drawn_of(o, b.node);
  if (da == PIC_NONE || db == PIC_NONE || da == db) {
    o->not_drawn++;
    return;
  }
  char id[PIC_ID_MAX];
  uint32_t e = pic_draw_edge(
      o->s, o->d, da, db, pic_id_pair(id, sizeof id, "swap-", a.node, b.node));
  if (e == PIC_NONE)
    return;
  o->s->edges[e].constraint = 0;
  mark_edge(o, e, PIC_STYLE_DOTTED, pic_sev_colour(o->sev), "swap");
}

static void node_style(overlay *o, const char *name, uint32_t style,
                       const char *colour, int add_if_absent) {
  uint32_t n = drawn_of(o, name);
  if (n == PIC_NONE && add_if_absent) {
    const fl_fabric *B = o->c->pic ? o->c->pic->fab_built : NULL;
    fl_id b = B ? fl_fabric_find_node_name(B, name) : FL_NONE;
    char id[PIC_ID_MAX];
    int added = 0;
    n = pic_scene_node(o->s, pic_id(id, sizeof id, "node-", name),
                       b != FL_NONE && fl_fabric_node_kind(B, b) == FL_NODE_CA
                           ? PIC_SHAPE_HOST
                           : PIC_SHAPE_SWITCH,
                       &added);
    if (n == PIC_NONE)
      return;
    if (added) {
      o->s->nodes[n].rank = b != FL_NONE ? pic_rank_of(B, b) : 1;
      o->s->nodes[n].label = pic_printf(o->s, "%s\n(not in plan)", name);
      o->s->nodes[n].fill = pic_strdup(o->s, "#efe6f7");
    }
  }
  if (n == PIC_NONE) {
    o->not_drawn++;
    return;
  }
  pic_node *d = &o->s->nodes[n];
  d->style = style;
  if (colour && d->node == FL_NONE)
    d->fill = pic_strdup(o->s, colour);
  if (o->sev > d->sev)
    d->sev = o->sev;
  d->cls = pic_cls_add(o->s, d->cls, o->finding);
  d->tooltip = pic_tooltip_findings(o->s, o->c, d->tooltip ? d->tooltip : name,
                                    &o->finding, 1);
}

static void apply(overlay *o, const fl_finding_rec *r, const json_t *ev) {
  const char *rule = r->rule;
  const char *red = pic_sev_colour(FL_SEV_ERROR);
  if (!strcmp(rule, "diff.missing")) {
    planned(o, json_object_get(ev, "cable"), PIC_STYLE_DASHED, red, "missing");
  } else if (!strcmp(rule, "diff.misconnected")) {
    planned(o, json_object_get(ev, "planned"), PIC_STYLE_DASHED, red,
            "planned");
    built(o, json_object_get(ev, "as_built"), PIC_STYLE_SOLID, red, "built");
  } else if (!strcmp(rule, "diff.swapped")) {
    const json_t *p = json_object_get(ev, "planned");
    const json_t *b = json_object_get(ev, "as_built");
    for (size_t i = 0; i < 2; i++) {
      planned(o, json_array_get(p, i), PIC_STYLE_DASHED, red, "planned");
      built(o, json_array_get(b, i), PIC_STYLE_SOLID, red, "built");
    }
    swap_join(o, json_object_get(ev, "swap"));
  } else if (!strcmp(rule, "diff.unexpected")) {
    built(o, json_object_get(ev, "cable"), PIC_STYLE_SOLID, UNEXPECTED_COLOUR,
          "not in plan");
  } else if (!strcmp(rule, "diff.duplicate")) {
    built(o, json_object_get(ev, "cable"), PIC_STYLE_DASHED, UNEXPECTED_COLOUR,
          "duplicate");
  } else if (!strcmp(rule, "diff.different") && json_object_get(ev, "cable")) {
    char word[128];
    snprintf(word, sizeof word, "built %s, planned %s",
             json_string_value(json_object_get(ev, "as_built"))
                 ? json_string_value(json_object_get(ev, "as_built"))
                 : "?",
             json_string_value(json_object_get(ev, "design"))
                 ? json_string_value(json_object_get(ev, "design"))
                 : "?");
    planned(o, json_object_get(ev, "cable"), PIC_STYLE_SOLID,
            pic_sev_colour(r->severity), word);
  } else if (!strcmp(rule, "diff.missing-node") && r->n_nodes) {
    node_style(o, r->nodes[0], PIC_STYLE_DASHED, "#fbd5d5", 0);
  } else if (!strcmp(rule, "diff.unexpected-node") && r->n_nodes) {
    node_style(o, r->nodes[0], PIC_STYLE_DASHED, NULL, 1);
  }
}

static int legend(pic_scene *s) {
  const char *red = pic_sev_colour(FL_SEV_ERROR);
  return pic_scene_legend(s, red, PIC_STYLE_DASHED, 0,
                          "planned cable missing, or built elsewhere") ||
         pic_scene_legend(s, red, PIC_STYLE_SOLID, 0,
                          "cable built where the plan does not have it") ||
         pic_scene_legend(s, red, PIC_STYLE_DOTTED, 0,
                          "swap: the two ends to exchange") ||
         pic_scene_legend(s, UNEXPECTED_COLOUR, PIC_STYLE_SOLID, 0,
                          "cable or node not in the plan");
}

int pic_view_diff(pic_scene *s, const pic_ctx *c) {
  pic_draw d;
  const fl_fabric *B = c->pic ? c->pic->fab_built : NULL;
  const char *built_in =
      B && fl_fabric_file_count(B) ? fl_fabric_file_path(B, 0) : "as built";
  char *t = pic_view_title(s, c, "diff (plan)");
  s->title = pic_printf(s, "%s; as built: %s", t ? t : "diff", built_in);
  int rc = pic_draw_fabric(s, c, NULL, &d);
  overlay o = {s, c, &d, 0, 0, 0};
  for (size_t i = 0; rc == 0 && i < c->fs->n; i++) {
    const fl_finding_rec *r = &c->fs->v[i];
    if (!fl_finding_active(r) || strncmp(r->rule, "diff.", 5) != 0)
      continue;
    json_t *ev = r->evidence ? json_loads(r->evidence, 0, NULL) : NULL;
    o.finding = (uint32_t)i + 1;
    o.sev = r->severity;
    if (c->keep) { /* --focus: only the changes of the nodes drawn */
      int in = 0;
      for (uint32_t k = 0; k < r->n_nodes && !in; k++) {
        fl_id n = fl_fabric_find_node_name(c->fab, r->nodes[k]);
        in = n != FL_NONE && c->keep[n];
      }
      if (!in) {
        json_decref(ev);
        continue;
      }
    }
    apply(&o, r, ev);
    json_decref(ev);
  }
  if (rc == 0 && o.not_drawn) {
    char line[256];
    snprintf(line, sizeof line,
             "%u change%s fall inside folded nodes (their nodes are not drawn "
             "alone): see the findings",
             o.not_drawn, o.not_drawn == 1 ? "" : "s");
    rc = pic_scene_side(s, line);
  }
  if (rc == 0)
    rc = pic_tiers_side(s, c, &d);
  if (rc == 0)
    rc =
        legend(s) || pic_tiers_legend(s, c, &d) || pic_add_notes(s, c, "diff.");
  pic_draw_free(&d);
  return rc || s->oom ? -1 : 0;
}
