/* SPDX-License-Identifier: MIT */
/*
 * core/report/pic_view.h — what the views share (internal to the report
 * stage): the findings as marks on nodes and cables (pic_marks.c), the
 * --focus set, and the drawing engine that maps fabric nodes to drawn
 * nodes and folds cables into edges (pic_draw.c).
 *
 * The engine: every fabric node is mapped to one drawn node or left out.
 * A switch is drawn alone, or (when the fabric is too large to draw switch
 * by switch) folded into a group: its pod or SU and tier. A CA is drawn
 * alone when a finding names it or --focus does; otherwise it is folded
 * into the "hosts" node of its switch (of its group when switches are
 * grouped). A cable between two nodes drawn alone that a finding names is
 * drawn alone ("link-..."); every other cable is added to the bundle of its
 * two drawn nodes ("bundle-..."), which counts cables and Gb/s and keeps
 * the worst severity of its members. Cost O(nodes + links) with hash maps
 * for ids and bundles: a 65,536-host fabric draws ~200 nodes.
 */
#ifndef FABRICLINT_CORE_PIC_VIEW_H
#define FABRICLINT_CORE_PIC_VIEW_H

#include <stddef.h>
#include <stdint.h>

#include "fabriclint/fabric.h"
#include "host/findings.h"
#include "model/hashmap.h"
#include "report/pic_scene.h"
#include "report/picture.h"
#include "report/report.h"

/** Nodes a view draws one by one before it folds switches into groups. */
#define PIC_MAX_ELEMENT_NODES 300u
/** Edges likewise (dot's crossing minimisation is superlinear). */
#define PIC_MAX_ELEMENT_EDGES 800u
/** Nodes of one row (a tier, or the hosts nodes) drawn one by one before
 * switches fold: 16 boxes of about 80 pt make a row as wide as a report's
 * picture at "fit" (1,350 px); 32 leaves (4 SUs of 8 rails) made a
 * 2,745 x 401 pt strip whose labels were 5 px high. */
#define PIC_MAX_ROW_NODES 16u
/** CAs (and, in a folded drawing, switches) drawn alone because findings
 * or --focus name them, at most (pic_ctx.alone). */
#define PIC_MAX_EXPAND 24u
/** A finding naming more nodes of a kind than this leaves them folded. */
#define PIC_ALONE_PER_FINDING 8u
/** Findings listed beside a picture. */
#define PIC_MAX_NOTES 12u

/**
 * pic_marks — the active findings (neither waived nor baselined) as marks:
 * per node and per link the worst severity and the findings (1-based
 * indexes into the sorted list, at most PIC_MAX_CLASSES each) that name it.
 * A node is marked when a finding names it or one of its ports; a link
 * when a finding names a port at either end. Names the fabric does not
 * hold (the other side of a diff) are skipped.
 */
typedef struct pic_marks {
  uint32_t n_nodes, n_links;
  uint8_t *node_sev;  /* [n_nodes] */
  uint8_t *link_sev;  /* [n_links] */
  uint32_t *node_off; /* [n_nodes + 1] into node_f */
  uint32_t *node_f;
  uint32_t *link_off; /* [n_links + 1] into link_f */
  uint32_t *link_f;
  uint32_t marked_nodes, marked_links;
} pic_marks;

/**
 * pic_marks_build() — build @m for @fab from @fs. 0, or -1 on ENOMEM (@m
 * then freeable). With @built (a diff: @fab is the plan, @built the
 * as-built fabric), a diff finding's ports are numbered as built, so it
 * marks the planned cables its evidence names (pic_diff_planned()) instead
 * of the cables on those port numbers of the plan.
 */
int pic_marks_build(pic_marks *m, const fl_fabric *fab, const fl_fabric *built,
                    const fl_findings *fs);

/** Most planned cables one diff finding names (a swap: two). */
#define PIC_DIFF_PLANNED_MAX 4u

/**
 * pic_diff_planned() — the cables of plan @design that diff finding @r
 * names in its evidence ("cable", "planned": one cable or a list), resolved
 * by node name and port number or label (in @design, else in @built);
 * at most PIC_DIFF_PLANNED_MAX into @links. Returns how many. core/report/
 * view_diff.c.
 */
uint32_t pic_diff_planned(const fl_fabric *design, const fl_fabric *built,
                          const fl_finding_rec *r, fl_id *links);
void pic_marks_free(pic_marks *m);

/**
 * pic_ctx — one view's inputs: the report, the fabric drawn, its marks,
 * each CA's home switch, and the --focus set.
 * @home: [nodes] for a CA, the switch its first cabled port (lowest
 *   number) lands on; FL_NONE for switches and for CAs cabled to none.
 * @focus: [nodes] 1 for the nodes --focus names (the node, or every node a
 *   finding of the focused rules names, with the nodes named together
 *   with the focus node); NULL without --focus.
 * @keep: [nodes] with --focus, 1 for the nodes drawn: the focus set and
 *   its cable neighbours; NULL without --focus.
 * @alone: [nodes] 1 for the CAs drawn alone, and the switches drawn alone
 *   when switches are folded: the focus set (up to PIC_MAX_EXPAND of each
 *   kind), then the nodes of each finding (report order) that names at
 *   most PIC_ALONE_PER_FINDING of a kind, up to PIC_MAX_EXPAND in all.
 */
typedef struct pic_ctx {
  const fl_report_input *in;
  const fl_report_picture *pic;
  const fl_fabric *fab;
  const fl_findings *fs;
  pic_marks marks;
  fl_id *home;
  uint8_t *focus;
  uint8_t *keep;
  uint8_t *alone;
  uint32_t n_focus;
} pic_ctx;

/** Set up @c for drawing @fab (the report's fabric, or the as-built side
 * of a diff). 0, or -1 on ENOMEM. */
int pic_ctx_init(pic_ctx *c, const fl_report_input *in, const fl_fabric *fab);
void pic_ctx_free(pic_ctx *c);

/** How a view customises the engine. All members may be zero. */
typedef struct pic_draw_opts {
  /* the group of switch @sw when switches are folded: key (an id suffix),
   * label and rank; 0, or -1 to use the default (pod/SU and tier) */
  int (*switch_group)(void *arg, fl_id sw, char *key, size_t ksize, char *label,
                      size_t lsize, int32_t *rank);
  /* fold switches into groups even when they would fit */
  int force_groups;
  /* a suffix splitting one switch's CAs into several hosts nodes (the
   * rack of the host), NULL for none */
  const char *(*ca_split)(void *arg, fl_id ca);
  /* when it returns a value for CA @ca: one hosts node per value for all
   * the CAs that carry it, whatever their switches (a rack's hosts fail
   * together), its cables bundled per switch; NULL for none */
  const char *(*ca_whole)(void *arg, fl_id ca);
  /* the cluster (scene index) of fabric node @n, PIC_NONE for none */
  uint32_t (*cluster_of)(void *arg, pic_scene *s, fl_id n);
  void *arg;
  /* [links] load of each cable (< 0: unknown) for a heat map, or NULL;
   * @heat_max the load drawn hottest */
  const double *link_heat;
  double heat_max;
  /* [links] 1: draw this cable alone even when no finding names it */
  const uint8_t *link_alone;
} pic_draw_opts;

/** The engine's result, kept so that an overlay (the diff view) can find
 * where a fabric node was drawn. */
typedef struct pic_draw {
  uint32_t *drawn;       /* [nodes] scene node, PIC_NONE: left out */
  int grouped;           /* switches were folded into groups */
  uint32_t cas_unplaced; /* CAs cabled to no switch (not drawn) */
  uint32_t internal;     /* cables inside one drawn node */
  fl_u64map bundles;     /* (scene node a, b) -> edge index */
  fl_strmap edge_ids;    /* edge id -> edge index */
} pic_draw;

/**
 * pic_draw_fabric() — map the nodes of @c->fab to drawn nodes of @s and
 * fold its cables into edges (see the file comment), honouring --focus.
 * Sets ranks (tiers), labels, tooltips, classes and severities. 0, or -1
 * on ENOMEM. O(nodes + links).
 */
int pic_draw_fabric(pic_scene *s, const pic_ctx *c, const pic_draw_opts *o,
                    pic_draw *d);
void pic_draw_free(pic_draw *d);

/** Edge with id @id (drawn by the engine or added with pic_draw_edge()),
 * or PIC_NONE. */
uint32_t pic_draw_find_edge(const pic_draw *d, const char *id);
/** Add edge @id from @a to @b unless one with that id exists; returns the
 * edge (new or old), PIC_NONE on ENOMEM. */
uint32_t pic_draw_edge(pic_scene *s, pic_draw *d, uint32_t a, uint32_t b,
                       const char *id);

/** The tier a drawn fabric node is ranked at: switches their tier (1 when
 * unknown), CAs 0. */
int32_t pic_rank_of(const fl_fabric *fab, fl_id n);

/** Name of tier @t for labels: "leaves", "spines", "cores", "tier N". */
const char *pic_tier_name(uint32_t t, char *buf, size_t size);

/**
 * pic_add_notes() — list beside @s the active findings (sorted order) whose
 * rule starts with @prefix (NULL: all), at most PIC_MAX_NOTES (the rest
 * counted). 0, or -1 on ENOMEM.
 */
int pic_add_notes(pic_scene *s, const pic_ctx *c, const char *prefix);
/** Legend rows for the severities that mark something in @c. */
int pic_add_sev_legend(pic_scene *s, const pic_ctx *c);
/** Append to element tooltip @tip the messages of findings @f[0..n) (at
 * most 3, each cut at 800 bytes); returns the new tooltip (arena). */
char *pic_tooltip_findings(pic_scene *s, const pic_ctx *c, const char *tip,
                           const uint32_t *f, uint32_t n);

/** "WHAT of INPUT: N switches, M CAs, K cables", the caption of a view. */
char *pic_view_title(pic_scene *s, const pic_ctx *c, const char *what);
/** Side-box lines of the tier-style views: folding, --focus, CAs left out.
 * 0, or -1 on ENOMEM. */
int pic_tiers_side(pic_scene *s, const pic_ctx *c, const pic_draw *d);
/** Legend rows of the tier-style views. 0, or -1 on ENOMEM. */
int pic_tiers_legend(pic_scene *s, const pic_ctx *c, const pic_draw *d);

/* The views: each fills @s from @c (and @c->pic); 0, or -1 on ENOMEM. */
int pic_view_tiers(pic_scene *s, const pic_ctx *c);
int pic_view_rails(pic_scene *s, const pic_ctx *c);
int pic_view_load(pic_scene *s, const pic_ctx *c);
int pic_view_diff(pic_scene *s, const pic_ctx *c);
int pic_view_domains(pic_scene *s, const pic_ctx *c);

/**
 * pic_build_view() — the scene of view @view (FL_VIEW_*) of @in's picture
 * context. 0, or -1 with errno (ENOMEM; EINVAL without a picture context).
 */
int pic_build_view(pic_scene *s, const fl_report_input *in, uint32_t view);

#endif
