/* SPDX-License-Identifier: MIT */
/*
 * core/report/pic_marks.c — the findings of a report as marks on the nodes
 * and cables of the fabric drawn, each CA's home switch, and the --focus
 * set (pic_view.h). Findings name nodes and ports by display name; names
 * are resolved with the fabric's name index, O(1) each, so marking costs
 * O(names in findings + nodes + links).
 */
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "fabriclint/fabric.h"
#include "report/pic_view.h"

void pic_marks_free(pic_marks *m) {
  free(m->node_sev);
  free(m->link_sev);
  free(m->node_off);
  free(m->node_f);
  free(m->link_off);
  free(m->link_f);
  memset(m, 0, sizeof *m);
}

/* One pass over the active findings: for each element a finding names,
 * call @mark(k) once per (element, finding). @pass 0 counts, 1 fills. */
typedef struct mark_state {
  pic_marks *m;
  uint32_t *last_n, *last_l; /* last finding counted per element */
  uint32_t *fill_n, *fill_l; /* next free slot (pass 1) */
  int pass;
} mark_state;

static void mark_node(mark_state *st, fl_id n, uint32_t k, uint32_t sev) {
  pic_marks *m = st->m;
  if (st->last_n[n] == k)
    return;
  st->last_n[n] = k;
  if (sev > m->node_sev[n])
    m->node_sev[n] = (uint8_t)sev;
  if (st->pass == 0) {
    if (m->node_off[n + 1] < PIC_MAX_CLASSES)
      m->node_off[n + 1]++;
  } else if (st->fill_n[n] < m->node_off[n + 1]) {
    m->node_f[st->fill_n[n]++] = k;
  }
}

static void mark_link(mark_state *st, fl_id l, uint32_t k, uint32_t sev) {
  pic_marks *m = st->m;
  if (st->last_l[l] == k)
    return;
  st->last_l[l] = k;
  if (sev > m->link_sev[l])
    m->link_sev[l] = (uint8_t)sev;
  if (st->pass == 0) {
    if (m->link_off[l + 1] < PIC_MAX_CLASSES)
      m->link_off[l + 1]++;
  } else if (st->fill_l[l] < m->link_off[l + 1]) {
    m->link_f[st->fill_l[l]++] = k;
  }
}

static void mark_finding(mark_state *st, const fl_fabric *fab,
                         const fl_fabric *built, const fl_finding_rec *r,
                         uint32_t k) {
  int planned = built && strncmp(r->rule, "diff.", 5) == 0;
  if (planned) { /* ports numbered as built: the evidence names the plan */
    fl_id links[PIC_DIFF_PLANNED_MAX];
    uint32_t n = pic_diff_planned(fab, built, r, links);
    for (uint32_t i = 0; i < n; i++)
      mark_link(st, links[i], k, r->severity);
  }
  for (uint32_t i = 0; i < r->n_nodes; i++) {
    fl_id n = fl_fabric_find_node_name(fab, r->nodes[i]);
    if (n != FL_NONE)
      mark_node(st, n, k, r->severity);
  }
  for (uint32_t i = 0; i < r->n_ports; i++) {
    fl_id n = fl_fabric_find_node_name(fab, r->ports[i].node);
    if (n == FL_NONE)
      continue;
    mark_node(st, n, k, r->severity);
    if (planned)
      continue;
    fl_id p = fl_fabric_find_port(fab, n, r->ports[i].port);
    for (uint32_t j = 0; p != FL_NONE && j < fl_fabric_port_link_count(fab, p);
         j++)
      mark_link(st, fl_fabric_port_link(fab, p, j), k, r->severity);
  }
}

static void run_pass(mark_state *st, const fl_fabric *fab,
                     const fl_fabric *built, const fl_findings *fs) {
  pic_marks *m = st->m;
  for (uint32_t i = 0; i < m->n_nodes; i++)
    st->last_n[i] = 0;
  for (uint32_t i = 0; i < m->n_links; i++)
    st->last_l[i] = 0;
  for (size_t i = 0; i < fs->n; i++)
    if (fl_finding_active(&fs->v[i]))
      mark_finding(st, fab, built, &fs->v[i], (uint32_t)i + 1);
}

int pic_marks_build(pic_marks *m, const fl_fabric *fab, const fl_fabric *built,
                    const fl_findings *fs) {
  memset(m, 0, sizeof *m);
  m->n_nodes = fl_fabric_node_count(fab);
  m->n_links = fl_fabric_link_count(fab);
  size_t nn = m->n_nodes + 1, nl = m->n_links + 1;
  mark_state st = {m, calloc(nn, 4), calloc(nl, 4), NULL, NULL, 0};
  m->node_sev = calloc(nn, 1);
  m->link_sev = calloc(nl, 1);
  m->node_off = calloc(nn, sizeof *m->node_off);
  m->link_off = calloc(nl, sizeof *m->link_off);
  int rc = -1;
  if (!st.last_n || !st.last_l || !m->node_sev || !m->link_sev ||
      !m->node_off || !m->link_off)
    goto done;
  run_pass(&st, fab, built, fs);
  for (uint32_t i = 0; i < m->n_nodes; i++) {
    m->marked_nodes += m->node_off[i + 1] > 0;
    m->node_off[i + 1] += m->node_off[i];
  }
  for (uint32_t i = 0; i < m->n_links; i++) {
    m->marked_links += m->link_off[i + 1] > 0;
    m->link_off[i + 1] += m->link_off[i];
  }
  m->node_f = malloc((m->node_off[m->n_nodes] + 1) * sizeof *m->node_f);
  m->link_f = malloc((m->link_off[m->n_links] + 1) * sizeof *m->link_f);
  st.fill_n = malloc(nn * sizeof *st.fill_n);
  st.fill_l = malloc(nl * sizeof *st.fill_l);
  if (!m->node_f || !m->link_f || !st.fill_n || !st.fill_l)
    goto done;
  memcpy(st.fill_n, m->node_off, nn * sizeof *st.fill_n);
  memcpy(st.fill_l, m->link_off, nl * sizeof *st.fill_l);
  st.pass = 1;
  run_pass(&st, fab, built, fs);
  rc = 0;
done:
  free(st.last_n);
  free(st.last_l);
  free(st.fill_n);
  free(st.fill_l);
  return rc;
}

/* ---- home switches and focus --------------------------------------------
 */

static void find_homes(const fl_fabric *fab, fl_id *home) {
  uint32_t nn = fl_fabric_node_count(fab);
  for (fl_id n = 0; n < nn; n++) {
    home[n] = FL_NONE;
    if (fl_fabric_node_kind(fab, n) != FL_NODE_CA)
      continue;
    fl_id p0 = fl_fabric_node_first_port(fab, n);
    uint32_t np = fl_fabric_node_port_count(fab, n);
    for (uint32_t i = 0; i < np && home[n] == FL_NONE; i++) {
      fl_id p = p0 + i;
      for (uint32_t j = 0; j < fl_fabric_port_link_count(fab, p); j++) {
        fl_id q = fl_fabric_link_other(fab, fl_fabric_port_link(fab, p, j), p);
        fl_id m = q == FL_NONE ? FL_NONE : fl_fabric_port_node(fab, q);
        if (m != FL_NONE && fl_fabric_node_kind(fab, m) != FL_NODE_CA) {
          home[n] = m;
          break;
        }
      }
    }
  }
}

/* 1 when rule id @id is selected by @pat: a shell glob, or a plugin name. */
static int rule_matches(const char *pat, const char *id) {
  size_t n = strlen(pat);
  return fnmatch(pat, id, 0) == 0 || (strncmp(id, pat, n) == 0 && id[n] == '.');
}

/* 1 when finding @r names node @name (in nodes or ports). */
static int names_node(const fl_finding_rec *r, const char *name) {
  for (uint32_t i = 0; i < r->n_nodes; i++)
    if (strcmp(r->nodes[i], name) == 0)
      return 1;
  for (uint32_t i = 0; i < r->n_ports; i++)
    if (strcmp(r->ports[i].node, name) == 0)
      return 1;
  return 0;
}

static void focus_finding(pic_ctx *c, const fl_finding_rec *r) {
  for (uint32_t i = 0; i < r->n_nodes; i++) {
    fl_id n = fl_fabric_find_node_name(c->fab, r->nodes[i]);
    if (n != FL_NONE)
      c->focus[n] = 1;
  }
  for (uint32_t i = 0; i < r->n_ports; i++) {
    fl_id n = fl_fabric_find_node_name(c->fab, r->ports[i].node);
    if (n != FL_NONE)
      c->focus[n] = 1;
  }
}

/* The focus set, then the nodes kept: the set and its cable neighbours. */
static void build_focus(pic_ctx *c, const char *focus) {
  const fl_fabric *fab = c->fab;
  uint32_t nn = fl_fabric_node_count(fab);
  fl_id n = fl_fabric_find_node_name(fab, focus);
  if (n != FL_NONE)
    c->focus[n] = 1;
  for (size_t i = 0; i < c->fs->n; i++) {
    const fl_finding_rec *r = &c->fs->v[i];
    if (fl_finding_active(r) &&
        (rule_matches(focus, r->rule) || names_node(r, focus)))
      focus_finding(c, r);
  }
  for (fl_id m = 0; m < nn; m++) {
    if (!c->focus[m])
      continue;
    c->n_focus++;
    c->keep[m] = 1;
    fl_id p0 = fl_fabric_node_first_port(fab, m);
    uint32_t np = fl_fabric_node_port_count(fab, m);
    for (uint32_t i = 0; i < np; i++)
      for (uint32_t j = 0; j < fl_fabric_port_link_count(fab, p0 + i); j++) {
        fl_id q = fl_fabric_link_other(fab, fl_fabric_port_link(fab, p0 + i, j),
                                       p0 + i);
        if (q != FL_NONE)
          c->keep[fl_fabric_port_node(fab, q)] = 1;
      }
  }
}

/* Nodes drawn alone (pic_view.h, pic_ctx.alone): first the focus set (when
 * it holds at most PIC_MAX_EXPAND CAs, resp. switches), then, finding by
 * finding in report order (errors first), the nodes of each finding that
 * names at most PIC_ALONE_PER_FINDING of a kind, while the budget of
 * PIC_MAX_EXPAND per kind lasts. A partition finding naming 200 hosts
 * leaves them in their hosts nodes (coloured) and does not crowd out the
 * swapped pair another finding names. */
static void add_alone(pic_ctx *c, const fl_id *v, uint32_t n, uint32_t *budget,
                      uint32_t limit) {
  uint32_t fresh = 0;
  for (uint32_t i = 0; i < n; i++)
    fresh += !c->alone[v[i]];
  if (fresh > limit || fresh > *budget)
    return;
  for (uint32_t i = 0; i < n; i++)
    c->alone[v[i]] = 1;
  *budget -= fresh;
}

/* The kept nodes finding @r names, CAs into @ca, switches into @sw (each
 * at most once, at most @cap). */
static void named_nodes(const pic_ctx *c, const fl_finding_rec *r, fl_id *ca,
                        uint32_t *nca, fl_id *sw, uint32_t *nsw, uint32_t cap) {
  *nca = *nsw = 0;
  uint32_t total = r->n_nodes + r->n_ports;
  for (uint32_t i = 0; i < total; i++) {
    const char *name =
        i < r->n_nodes ? r->nodes[i] : r->ports[i - r->n_nodes].node;
    fl_id n = fl_fabric_find_node_name(c->fab, name);
    if (n == FL_NONE || (c->keep && !c->keep[n]))
      continue;
    int is_ca = fl_fabric_node_kind(c->fab, n) == FL_NODE_CA;
    fl_id *v = is_ca ? ca : sw;
    uint32_t *k = is_ca ? nca : nsw;
    int dup = 0;
    for (uint32_t j = 0; j < *k && !dup; j++)
      dup = v[j] == n;
    if (dup)
      continue;
    if (*k >= cap) { /* too many to draw alone anyway */
      *k = cap + 1;
      continue;
    }
    v[(*k)++] = n;
  }
}

static int choose_alone(pic_ctx *c) {
  uint32_t nn = fl_fabric_node_count(c->fab);
  c->alone = calloc(nn + 1, 1);
  fl_id *ca = malloc((PIC_MAX_EXPAND + 2) * sizeof *ca);
  fl_id *sw = malloc((PIC_MAX_EXPAND + 2) * sizeof *sw);
  if (!c->alone || !ca || !sw) {
    free(ca), free(sw);
    return -1;
  }
  uint32_t bca = PIC_MAX_EXPAND, bsw = PIC_MAX_EXPAND, nca = 0, nsw = 0;
  for (fl_id n = 0; c->focus && n < nn; n++) { /* the focus set first */
    if (!c->focus[n])
      continue;
    if (fl_fabric_node_kind(c->fab, n) == FL_NODE_CA)
      nca++;
    else
      nsw++;
  }
  for (fl_id n = 0; c->focus && n < nn; n++)
    if (c->focus[n])
      c->alone[n] = fl_fabric_node_kind(c->fab, n) == FL_NODE_CA
                        ? nca <= PIC_MAX_EXPAND
                        : nsw <= PIC_MAX_EXPAND;
  bca -= nca <= PIC_MAX_EXPAND ? nca : 0;
  bsw -= nsw <= PIC_MAX_EXPAND ? nsw : 0;
  for (size_t i = 0; i < c->fs->n && (bca || bsw); i++) {
    const fl_finding_rec *r = &c->fs->v[i];
    if (!fl_finding_active(r))
      continue;
    named_nodes(c, r, ca, &nca, sw, &nsw, PIC_MAX_EXPAND);
    add_alone(c, ca, nca <= PIC_MAX_EXPAND ? nca : 0, &bca,
              PIC_ALONE_PER_FINDING);
    if (nca > PIC_MAX_EXPAND)
      continue;
    add_alone(c, sw, nsw <= PIC_MAX_EXPAND ? nsw : 0, &bsw,
              PIC_ALONE_PER_FINDING);
  }
  free(ca), free(sw);
  return 0;
}

int pic_ctx_init(pic_ctx *c, const fl_report_input *in, const fl_fabric *fab) {
  memset(c, 0, sizeof *c);
  c->in = in;
  c->pic = in->picture;
  c->fab = fab;
  c->fs = in->fs;
  uint32_t nn = fl_fabric_node_count(fab);
  c->home = malloc((nn + 1) * sizeof *c->home);
  const fl_fabric *built =
      c->pic && c->pic->fab == fab ? c->pic->fab_built : NULL;
  if (!c->home || pic_marks_build(&c->marks, fab, built, in->fs) != 0)
    return -1;
  find_homes(fab, c->home);
  if (c->pic && c->pic->focus) {
    c->focus = calloc(nn + 1, 1);
    c->keep = calloc(nn + 1, 1);
    if (!c->focus || !c->keep)
      return -1;
    build_focus(c, c->pic->focus);
  }
  return choose_alone(c);
}

void pic_ctx_free(pic_ctx *c) {
  pic_marks_free(&c->marks);
  free(c->home);
  free(c->focus);
  free(c->keep);
  free(c->alone);
  memset(c, 0, sizeof *c);
}
