/* SPDX-License-Identifier: MIT */
/*
 * core/io/xml_cut.h — is an XML document that failed to parse cut short,
 * or followed by extra content? (internal; issue 30)
 *
 * libxml2 reports a file cut in the middle as "Extra content at the end of
 * the document", "Premature end of data" or an attribute error on the last
 * line, none of which tells a user that the file is simply incomplete. A
 * reader whose parse failed asks this first, and says so in its own words.
 */
#ifndef FABRICLINT_CORE_IO_XML_CUT_H
#define FABRICLINT_CORE_IO_XML_CUT_H

#include <stddef.h>
#include <stdint.h>

enum { FL_XML_WHOLE, FL_XML_CUT, FL_XML_EXTRA };

typedef struct fl_xml_cut {
  char root[64];       /* the root element's name ("fabric"), "" when none */
  uint32_t root_line;  /* line of its start tag (1-based) */
  uint32_t end_line;   /* FL_XML_CUT: the last line of the file;
                          FL_XML_EXTRA: the line of the root's end tag */
  uint32_t extra_line; /* FL_XML_EXTRA: the first line of the content after */
} fl_xml_end;

/**
 * fl_xml_cut() — how the document @buf (@len bytes) ends. FL_XML_CUT: the
 * root element is never closed (no `</root>` end tag after its start tag,
 * nor `/>`): the file ends before the document does. FL_XML_EXTRA: the
 * root is closed and something other than blanks, comments or processing
 * instructions follows (a second `<?xml` declaration counts: two files
 * joined). FL_XML_WHOLE otherwise, or when no root start tag
 * is found (nothing to say). Fills @out (when not NULL). Reads the bytes
 * only (a textual check, the way a user would look at the file: names are
 * compared as bytes, CDATA and comments inside the root are not
 * special-cased, so `</fabric>` inside a comment counts as an end tag).
 * O(len).
 */
int fl_xml_cut(const char *buf, size_t len, fl_xml_end *out);

#endif
