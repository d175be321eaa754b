/* SPDX-License-Identifier: MIT */
/* core/util/xml_escape.c — the XML/HTML entity table (xml_escape.h). */
#include "util/xml_escape.h"

const char *fl_xml_entity(unsigned char c, unsigned flags) {
  switch (c) {
  case '&':
    return "&amp;";
  case '<':
    return "&lt;";
  case '>':
    return flags & FL_XML_GT ? "&gt;" : NULL;
  case '"':
    return flags & FL_XML_QUOT ? "&quot;" : NULL;
  case '\'':
    return flags & FL_XML_APOS       ? "&apos;"
           : flags & FL_XML_APOS_NUM ? "&#39;"
                                     : NULL;
  case '\n':
    return flags & FL_XML_NL ? "&#10;" : NULL;
  case '\t':
    return flags & FL_XML_TAB_CR ? "&#9;" : NULL;
  case '\r':
    return flags & FL_XML_TAB_CR ? "&#13;" : NULL;
  default:
    return NULL;
  }
}

void fl_xml_fputs(const char *s, unsigned flags, FILE *out) {
  if (!s)
    return;
  while (*s) {
    size_t n = 0;
    const char *e = NULL;
    while (s[n] && !(e = fl_xml_entity((unsigned char)s[n], flags)))
      n++;
    if (n)
      fwrite(s, 1, n, out);
    if (!s[n])
      return;
    fputs(e, out);
    s += n + 1;
  }
}
