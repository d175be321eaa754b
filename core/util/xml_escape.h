/* SPDX-License-Identifier: MIT */
/* core/util/xml_escape.h — escaping text for XML and HTML (XML 1.0 §2.4
 * character data, §3.3.3 attribute values; HTML's same five specials): the
 * one table of which byte becomes which entity, shared by the design
 * writer, the design editor, the HTML report, the pictures' labels and
 * Markdown output. Each writer chooses the specials its context needs with
 * flags and keeps its own sink (FILE, buffer). */
#ifndef FL_UTIL_XML_ESCAPE_H
#define FL_UTIL_XML_ESCAPE_H

#include <stdio.h>

/* Which bytes fl_xml_entity() escapes besides '&' and '<' (always). */
enum {
  FL_XML_GT = 1u << 0,       /* '>'  as &gt; */
  FL_XML_QUOT = 1u << 1,     /* '"'  as &quot; */
  FL_XML_APOS = 1u << 2,     /* '\'' as &apos; (XML) */
  FL_XML_APOS_NUM = 1u << 3, /* '\'' as &#39; (HTML 4 has no &apos;) */
  FL_XML_NL = 1u << 4,       /* '\n' as &#10; (kept in an attribute) */
  FL_XML_TAB_CR = 1u << 5,   /* '\t' as &#9;, '\r' as &#13; */
  /* text and double-quoted attributes: & < > " */
  FL_XML_TEXT = FL_XML_GT | FL_XML_QUOT,
};

/* The entity that stands for byte @c under @flags ("&amp;" for '&'), or
 * NULL when @c is written as it is. A static string. */
const char *fl_xml_entity(unsigned char c, unsigned flags);

/* Writes the NUL-terminated @s to @out with each byte fl_xml_entity()
 * names replaced by its entity. @s NULL writes nothing. Errors are @out's
 * (ferror). */
void fl_xml_fputs(const char *s, unsigned flags, FILE *out);

#endif
