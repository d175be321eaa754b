/* SPDX-License-Identifier: MIT */
/*
 * core/report/pic_scene.h — what a picture shows, before any layout
 * (internal to the report stage).
 *
 * A view (view_tiers.c, view_rails.c, view_load.c, view_diff.c,
 * view_domains.c) turns a fabric and its findings into a scene: nodes,
 * edges, clusters, a legend and a list of findings with their fix text.
 * pic_graphviz.c then hands the scene to Graphviz (cgraph, dot layout) and
 * renders DOT or SVG. Keeping the scene apart from Graphviz keeps every
 * choice of what to draw testable without a layout, and Graphviz in one
 * file (as igraph is in model/graph.c).
 *
 * Ownership: the scene owns every string it holds, in one arena freed by
 * pic_scene_free(); callers pass borrowed strings and the scene copies
 * them. Node and edge ids are the SVG element ids (pic_id_*); they are
 * unique within a scene (pic_scene_node() returns the existing node for an
 * id already added).
 *
 * Element ids (docs/pictures.md): a fabric name is encoded with
 * pic_id_enc(): bytes [A-Za-z0-9._-] are kept, a space becomes '+', any
 * other byte %XX (upper-case hex), so "dgx-001 mlx5_0" is "dgx-001+mlx5_0".
 * Then:
 *   node-NAME                a switch or a CA drawn on its own
 *   hosts-LEAF               the CAs of one switch drawn as one node
 *   link-A~PA~B~PB           one cable, ends ordered by (name, port);
 *                            PA, PB port numbers (in the diff view, an
 *                            as-built port the plan lacks by its label)
 *   bundle-IDA~IDB           the cables between two drawn nodes, by their
 *                            ids, sorted (bundle-node-leaf-1~node-spine-1)
 *   group-KEY                switches collapsed by pod/SU and tier
 *   nic-NAME~PORT            a rails-view cell (SVG id a_nic-..., the
 *                            a_ prefix is Graphviz's for table cells)
 *   domain-KEY~VALUE         a failure-domain cluster
 *   swap-A~B                 the line joining a swapped pair
 */
#ifndef FABRICLINT_CORE_PIC_SCENE_H
#define FABRICLINT_CORE_PIC_SCENE_H

#include <stddef.h>
#include <stdint.h>

#include "model/hashmap.h"

/** No node / cluster. */
#define PIC_NONE UINT32_MAX

/* node shapes */
#define PIC_SHAPE_SWITCH 1u /* a switch (box) */
#define PIC_SHAPE_HOST   2u /* one CA (ellipse) */
#define PIC_SHAPE_HOSTS  3u /* CAs collapsed (folder) */
#define PIC_SHAPE_GROUP  4u /* switches collapsed (box3d) */
#define PIC_SHAPE_TABLE  5u /* an HTML-like table (plaintext) */

/* edge and node line styles */
#define PIC_STYLE_SOLID  0u
#define PIC_STYLE_DASHED 1u
#define PIC_STYLE_DOTTED 2u
#define PIC_STYLE_BOLD   3u
#define PIC_STYLE_INVIS  4u /* edges: not drawn, only orders nodes */

/** One drawn node. Strings are arena copies (NULL when not set). */
typedef struct pic_node {
  char *id;
  char *label;   /* plain text, lines separated by '\n' */
  char *html;    /* Graphviz HTML-like label (replaces @label) */
  char *tooltip; /* SVG <title> of the element's link */
  char *cls;     /* extra SVG classes ("f3 f7") */
  uint32_t sev;  /* worst severity of the findings it shows (0 none) */
  uint32_t shape;
  uint32_t style;   /* PIC_STYLE_*: outline */
  int32_t rank;     /* row: the tier; -1 free */
  uint32_t cluster; /* PIC_NONE or an index into clusters */
  char *fill;       /* fill colour, or NULL */
  uint32_t node;    /* the fabric node drawn alone here, or FL_NONE */
} pic_node;

/** One drawn edge, from @a (drawn above) to @b. */
typedef struct pic_edge {
  uint32_t a, b;
  char *id;
  char *label;
  char *tooltip;
  char *cls;
  uint32_t sev;
  uint32_t style; /* PIC_STYLE_* */
  char *colour;   /* NULL: by severity, else grey */
  double width;   /* pen width in points (0: 1) */
  int constraint; /* 0: the edge does not rank its ends */
} pic_edge;

/** A cluster of nodes (a rack, an SU). */
typedef struct pic_cluster {
  char *id;
  char *label;
  char *tooltip;
  char *cls;
  uint32_t sev;
  char *fill;
} pic_cluster;

/** A legend row: a swatch (colour and line style) and its meaning. */
typedef struct pic_legend {
  char *colour;
  uint32_t style;
  int is_fill; /* 1: a filled box, 0: a line */
  char *text;
} pic_legend;

/** A finding as listed beside the picture (its message holds the fix). */
typedef struct pic_note {
  uint32_t finding; /* 1-based index in the sorted findings */
  uint32_t sev;
  char *rule;
  char *text;
} pic_note;

typedef struct pic_arena_blk pic_arena_blk;

/**
 * pic_scene — a picture to lay out. Zero-initialise with pic_scene_init(),
 * fill with the pic_scene_* functions, free with pic_scene_free().
 * @title: the caption; @side: lines printed in a box beside the drawing
 * (top-N lists, counts of what was left out); @notes: the findings shown.
 */
typedef struct pic_scene {
  char *title;
  pic_node *nodes;
  size_t n_nodes, cap_nodes;
  pic_edge *edges;
  size_t n_edges, cap_edges;
  pic_cluster *clusters;
  size_t n_clusters, cap_clusters;
  pic_legend *legend;
  size_t n_legend, cap_legend;
  pic_note *notes;
  size_t n_notes, cap_notes;
  size_t notes_left_out; /* findings not listed (cap) */
  char **side;
  size_t n_side, cap_side;
  char *side_title;
  int rank_rows;  /* 1: nodes of one rank in one row (rank=same) */
  int left_right; /* 1: rankdir LR (tables) */
  fl_strmap ids;  /* node id -> index */
  pic_arena_blk *arena;
  int oom; /* an allocation failed: the scene is incomplete */
} pic_scene;

/** Initialise @s empty. */
void pic_scene_init(pic_scene *s);
/** Free everything @s owns; @s is then empty (initialised). */
void pic_scene_free(pic_scene *s);

/** Copy @str (NULL gives NULL) into the arena of @s. */
char *pic_strdup(pic_scene *s, const char *str);
/** printf into the arena of @s; NULL on ENOMEM (also sets @s->oom). */
char *pic_printf(pic_scene *s, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/**
 * pic_scene_node() — the node with id @id, added (zeroed: no rank, no
 * cluster, @shape) when new. Returns its index, or PIC_NONE on ENOMEM.
 * *@added (may be NULL) is set to 1 when the node was created.
 * O(1) expected.
 */
uint32_t pic_scene_node(pic_scene *s, const char *id, uint32_t shape,
                        int *added);
/** Index of the node with id @id, or PIC_NONE. */
uint32_t pic_scene_find(const pic_scene *s, const char *id);
/** Add an edge from @a to @b with id @id (copied); its index, or PIC_NONE.
 * The edge is solid, grey, constraining. */
uint32_t pic_scene_edge(pic_scene *s, uint32_t a, uint32_t b, const char *id);
/** Add a cluster with id @id and @label; its index, or PIC_NONE. */
uint32_t pic_scene_cluster(pic_scene *s, const char *id, const char *label);
/** Add a legend row. 0, or -1 on ENOMEM. */
int pic_scene_legend(pic_scene *s, const char *colour, uint32_t style,
                     int is_fill, const char *text);
/** Add a side-box line. 0, or -1 on ENOMEM. */
int pic_scene_side(pic_scene *s, const char *line);
/** List finding @finding (1-based) beside the picture. 0, or -1 on ENOMEM. */
int pic_scene_note(pic_scene *s, uint32_t finding, uint32_t sev,
                   const char *rule, const char *text);

/** Append to @cls a class naming finding @finding ("f12"), unless the
 * element already lists PIC_MAX_CLASSES findings. Returns the new string
 * (arena). */
char *pic_cls_add(pic_scene *s, char *cls, uint32_t finding);
/** Findings named in one element's classes, at most. */
#define PIC_MAX_CLASSES 16u

/** Colour of severity @sev (FL_SEV_*); grey for 0. */
const char *pic_sev_colour(uint32_t sev);
/** Light fill colour of severity @sev; NULL for 0. */
const char *pic_sev_fill(uint32_t sev);

/**
 * pic_id_enc() — append the id encoding of @name (see the file comment) to
 * @buf of @size bytes at offset *@len; the result stays NUL-terminated and
 * is cut when @buf is full. Returns *@len after appending.
 */
size_t pic_id_enc(char *buf, size_t size, size_t *len, const char *name);
/** "PREFIX" + encoded @name into @buf; returns @buf. */
char *pic_id(char *buf, size_t size, const char *prefix, const char *name);
/** The id of the cable between (@a, @pa) and (@b, @pb), ends ordered by
 * name then port number: "link-A~PA~B~PB". Returns @buf. */
char *pic_id_link(char *buf, size_t size, const char *a, uint32_t pa,
                  const char *b, uint32_t pb);
/** "PREFIX" + encoded @a + "~" + encoded @b, with @a, @b ordered by name
 * (bundle-, swap-). Returns @buf. */
char *pic_id_pair(char *buf, size_t size, const char *prefix, const char *a,
                  const char *b);

/* Natural order of names: fl_natcmp() (util/natcmp.h). */

/** Size of an id buffer: names are at most a few hundred bytes. */
#define PIC_ID_MAX 1024

#endif
