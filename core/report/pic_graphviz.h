/* SPDX-License-Identifier: MIT */
/*
 * core/report/pic_graphviz.h — a scene (pic_scene.h) through Graphviz:
 * cgraph builds the graph, the dot layout places it, gvc renders SVG
 * (internal to the report stage; Graphviz is used nowhere else).
 */
#ifndef FABRICLINT_CORE_PIC_GRAPHVIZ_H
#define FABRICLINT_CORE_PIC_GRAPHVIZ_H

#include <stddef.h>

#include "report/pic_scene.h"

#define PIC_RENDER_DOT 1 /* the graph as DOT source, before layout */
#define PIC_RENDER_SVG 2 /* laid out with dot, rendered as SVG */

/**
 * pic_render() — render scene @s as @what (PIC_RENDER_*) into a new buffer
 * *@out of *@len bytes (NUL-terminated; the caller frees it with free()).
 * Returns 0, or -1 with errno set: ENOMEM, or EINVAL when Graphviz refused
 * the graph or its layout, with Graphviz's message in @msg (@msize bytes).
 * On success @msg is empty, or holds an error Graphviz reported while
 * still drawing (a label it could not use): the caller warns with it.
 *
 * Deterministic: Graphviz's plugins are linked in (dot layout, core
 * renderers) and used without its run-time plugin configuration, so text
 * sizes come from its built-in font metrics, not from the fonts installed,
 * and the same scene gives the same bytes on any machine with the same
 * Graphviz. Graphviz keeps process-global state (its error level and
 * message file); pic_render() sets the level to keep its messages off
 * stderr and restores it, and must not run in two threads at once.
 */
int pic_render(const pic_scene *s, int what, char **out, size_t *len, char *msg,
               size_t msize);

#endif
