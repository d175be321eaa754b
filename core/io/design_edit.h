/* SPDX-License-Identifier: MIT */
/*
 * core/io/design_edit.h — text edits of a design XML file that apply a
 * fix to one of its <link> elements (core/io/design_edit.c): the SARIF
 * `fixes` of a finding are these edits (SARIF 2.1.0 §3.55-3.57).
 *
 * The edit is the smallest change of the file's own text: the value of an
 * attribute (a="..." and a-port="..." of the end that moves; speed="..." or
 * width="..."), or one new attribute when the element has none, so the
 * rest of the line, its quoting, indentation and comments stay as they are.
 */
#ifndef FABRICLINT_CORE_DESIGN_EDIT_H
#define FABRICLINT_CORE_DESIGN_EDIT_H

#include <stddef.h>
#include <stdint.h>

/**
 * fl_text_edit — replace the text from (@line, @col) up to, not including,
 * (@end_line, @end_col) by @text (owned, UTF-8, XML-escaped as needed).
 * Lines and columns are 1-based; columns count Unicode code points (SARIF
 * columnKind "unicodeCodePoints"). An insertion has end = start.
 */
typedef struct fl_text_edit {
  uint32_t line, col, end_line, end_col;
  char *text;
} fl_text_edit;

/**
 * fl_text_index — a file's text with the offset of each line's start, so
 * that many edits of one large plan cost O(log lines + line length) each.
 * @buf/@len borrowed; @line owned (fl_text_index_free()).
 */
typedef struct fl_text_index {
  const char *buf;
  size_t len;
  size_t *line; /* byte offset of line i + 1 */
  size_t n_lines;
} fl_text_index;

/** Index @buf (@len bytes). 0, or -1 on ENOMEM. O(len). */
int fl_text_index_build(fl_text_index *t, const char *buf, size_t len);
void fl_text_index_free(fl_text_index *t);

/**
 * fl_link_change — one change to a cable (the kinds of fabriclint/plugin.h
 * FL_FIX_*). @node/@port: the cable's two ends as they are; @end: for
 * FL_FIX_MOVE_END the index of the end that moves to @to_node/@to_port;
 * @value: for FL_FIX_SET_SPEED / FL_FIX_SET_WIDTH the new attribute value.
 * Strings borrowed.
 */
typedef struct fl_link_change {
  uint32_t kind;
  const char *node[2];
  uint32_t port[2];
  uint32_t end;
  const char *to_node;
  uint32_t to_port;
  const char *value;
} fl_link_change;

/**
 * fl_design_link_edits() — the edits of design XML text @t (UTF-8) that
 * apply @c to the <link> element starting at @line:@col (the
 * element's provenance; the column in code points or bytes). The element
 * must join the two ends of @c (a/a-port and b/b-port, either order;
 * attribute values with XML entities decoded), else the file is not the
 * one the cable was read from (or changed since) and nothing is edited.
 * Appends at most 2 edits to @out from index *@n (caller frees their
 * text). Returns 0; -1 when the element is not there or does not match;
 * -2 on ENOMEM. An edit that would not change the text is not made.
 * O(log lines + the element's length).
 */
int fl_design_link_edits(const fl_text_index *t, uint32_t line, uint32_t col,
                         const fl_link_change *c, fl_text_edit out[2],
                         uint32_t *n);

#endif
