/* SPDX-License-Identifier: MIT */
/*
 * core/report/view_load.c — the load view: the tier view with every switch
 * cable coloured and widened by its load, and the hottest cables listed
 * (picture.h).
 *
 * Loads are not computed here: they come from the ecmp-balance.link-load
 * finding (the ECMP or LFT analysis of the ecmp-balance plugin). With its
 * parameter link-loads=true (which `check --view load` sets) the evidence
 * lists every directed switch cable as [from, from_port, load], load being
 * flows / relative capacity averaged over the pattern's instances; without
 * it only the `hottest_links` are known. Of several patterns the view
 * draws all-to-all when present, else the first. A cable's heat is the
 * larger of its two directions; a bundle's the hottest member's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "fabriclint/fabric.h"
#include "report/pic_view.h"

#define LOAD_TOP 10u

/* One directed load: cable @link left @from's port @port. */
typedef struct dload {
  fl_id link, from;
  uint32_t port;
  double load;
} dload;

typedef struct loads {
  double *heat; /* [links] */
  double max;
  dload *v;
  size_t n, cap;
  const fl_finding_rec *finding;
} loads;

static int dload_cmp(const void *a, const void *b) {
  const dload *x = a, *y = b;
  if (x->load != y->load)
    return x->load > y->load ? -1 : 1;
  if (x->link != y->link)
    return x->link < y->link ? -1 : 1;
  return x->from < y->from ? -1 : x->from > y->from;
}

static int add_load(loads *L, const fl_fabric *f, const char *from,
                    uint32_t port, double load) {
  fl_id n = fl_fabric_find_node_name(f, from);
  fl_id p = n == FL_NONE ? FL_NONE : fl_fabric_find_port(f, n, port);
  if (p == FL_NONE || fl_fabric_port_link_count(f, p) == 0)
    return 0;
  fl_id l = fl_fabric_port_link(f, p, 0);
  if (load > L->heat[l])
    L->heat[l] = load;
  if (load > L->max)
    L->max = load;
  if (L->n == L->cap) {
    size_t nc = L->cap ? L->cap * 2 : 256;
    dload *nv = realloc(L->v, nc * sizeof *nv);
    if (!nv)
      return -1;
    L->v = nv;
    L->cap = nc;
  }
  L->v[L->n++] = (dload){l, n, port, load};
  return 0;
}

/* The link-load finding to draw: all-to-all when present, else the first. */
static const fl_finding_rec *pick(const pic_ctx *c, json_t **ev) {
  const fl_finding_rec *first = NULL;
  *ev = NULL;
  for (size_t i = 0; i < c->fs->n; i++) {
    const fl_finding_rec *r = &c->fs->v[i];
    if (strcmp(r->rule, "ecmp-balance.link-load") != 0 || !r->evidence)
      continue;
    json_t *j = json_loads(r->evidence, 0, NULL);
    const char *pat = json_string_value(json_object_get(j, "pattern"));
    if (pat && strcmp(pat, "all-to-all") == 0) {
      json_decref(*ev);
      *ev = j;
      return r;
    }
    if (!first) {
      first = r;
      *ev = j;
    } else {
      json_decref(j);
    }
  }
  return first;
}

static int read_loads(loads *L, const fl_fabric *f, const json_t *ev) {
  const json_t *all = json_object_get(ev, "link_loads");
  size_t i;
  const json_t *x;
  if (json_is_array(all)) {
    json_array_foreach(all, i, x) {
      const char *from = json_string_value(json_array_get(x, 0));
      json_int_t port = json_integer_value(json_array_get(x, 1));
      double load = json_number_value(json_array_get(x, 2));
      if (from && port > 0 && add_load(L, f, from, (uint32_t)port, load) != 0)
        return -1;
    }
    return 0;
  }
  json_array_foreach(json_object_get(ev, "hottest_links"), i, x) {
    const char *from = json_string_value(json_object_get(x, "from"));
    json_int_t port = json_integer_value(json_object_get(x, "from_port"));
    double load = json_number_value(json_object_get(x, "mean_load"));
    if (from && port > 0 && add_load(L, f, from, (uint32_t)port, load) != 0)
      return -1;
  }
  return 0;
}

/* The hottest directed cables in the side box, their cables drawn alone. */
static int list_hottest(pic_scene *s, const pic_ctx *c, loads *L,
                        uint8_t *alone) {
  const fl_fabric *f = c->fab;
  qsort(L->v, L->n, sizeof *L->v, dload_cmp);
  char line[512];
  for (size_t i = 0; i < L->n && i < LOAD_TOP; i++) {
    const dload *d = &L->v[i];
    fl_id p = fl_fabric_find_port(f, d->from, d->port);
    fl_id q = fl_fabric_link_other(f, d->link, p);
    alone[d->link] = 1;
    snprintf(line, sizeof line, "%zu. %s port %u -> %s port %u: %.4g", i + 1,
             fl_fabric_node_name(f, d->from), d->port,
             q == FL_NONE ? "?"
                          : fl_fabric_node_name(f, fl_fabric_port_node(f, q)),
             q == FL_NONE ? 0 : fl_fabric_port_num(f, q), d->load);
    if (pic_scene_side(s, line))
      return -1;
  }
  return 0;
}

static int legend(pic_scene *s, double max) {
  static const double STEPS[] = {0.0, 0.25, 0.5, 0.75, 1.0};
  static const char *const COL[] = {"#ffffcc", "#fed976", "#fd8d3c", "#e31a1c",
                                    "#800026"};
  char text[96];
  for (size_t i = 0; i < 5; i++) {
    snprintf(text, sizeof text, "load %.4g%s", STEPS[i] * max,
             i == 4 ? " (hottest)" : "");
    if (pic_scene_legend(s, COL[i], PIC_STYLE_BOLD, 0, text))
      return -1;
  }
  return 0;
}

int pic_view_load(pic_scene *s, const pic_ctx *c) {
  const fl_fabric *f = c->fab;
  uint32_t nl = fl_fabric_link_count(f);
  loads L;
  memset(&L, 0, sizeof L);
  L.heat = malloc((nl + 1) * sizeof *L.heat);
  uint8_t *alone = calloc(nl + 1, 1);
  json_t *ev = NULL;
  int rc = L.heat && alone ? 0 : -1;
  for (uint32_t l = 0; rc == 0 && l < nl; l++)
    L.heat[l] = -1;
  if (rc == 0)
    L.finding = pick(c, &ev);
  if (rc == 0 && L.finding)
    rc = read_loads(&L, f, ev);
  const char *pat = json_string_value(json_object_get(ev, "pattern"));
  const char *rt = json_string_value(json_object_get(ev, "routing"));
  s->title = pic_view_title(s, c, L.finding ? "link load" : "link load (none)");
  if (rc == 0 && L.finding) {
    char *t = pic_printf(s, "%s; pattern %s, %s routing; hottest load %.4g",
                         s->title, pat ? pat : "?", rt ? rt : "?", L.max);
    s->title = t ? t : s->title;
    s->side_title = pic_printf(s,
                               "hottest cables (flows / relative capacity, "
                               "%s)",
                               pat ? pat : "?");
    rc = list_hottest(s, c, &L, alone);
  } else if (rc == 0) {
    rc = pic_scene_side(s, "no ecmp-balance.link-load finding: loads are "
                           "unknown (check --view load runs that rule; is "
                           "the ecmp-balance plugin loaded, or the rule "
                           "disabled by the policy?)");
  }
  pic_draw d;
  memset(&d, 0, sizeof d);
  if (rc == 0) {
    pic_draw_opts o;
    memset(&o, 0, sizeof o);
    o.link_heat = L.finding ? L.heat : NULL;
    o.heat_max = L.max;
    o.link_alone = alone;
    rc = pic_draw_fabric(s, c, &o, &d);
  }
  if (rc == 0)
    rc = pic_tiers_side(s, c, &d);
  if (rc == 0 && L.finding)
    rc = legend(s, L.max);
  if (rc == 0)
    rc = pic_tiers_legend(s, c, &d);
  if (rc == 0)
    rc = pic_add_notes(s, c, NULL);
  pic_draw_free(&d);
  json_decref(ev);
  free(L.heat);
  free(L.v);
  free(alone);
  return rc || s->oom ? -1 : 0;
}
