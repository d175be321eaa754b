/* SPDX-License-Identifier: MIT */
/*
 * core/io/xml_cut.c — is an XML document cut short, or followed by extra
 * content? (xml_cut.h)
 */
#include "io/xml_cut.h"

#include <string.h>

static int name_char(char ch) {
  return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
         (ch >= '0' && ch <= '9') || ch == '_' || ch == '-' || ch == '.' ||
         ch == ':' || (unsigned char)ch >= 0x80;
}

static uint32_t line_at(const char *buf, size_t off) {
  uint32_t n = 1;
  for (size_t i = 0; i < off; i++)
    n += buf[i] == '\n';
  return n;
}

/* Offset just past the next "-->" or "?>" (@close) from @i, or @len. */
static size_t past(const char *buf, size_t len, size_t i, const char *close) {
  size_t cl = strlen(close);
  for (; i + cl <= len; i++)
    if (memcmp(buf + i, close, cl) == 0)
      return i + cl;
  return len;
}

int fl_xml_cut(const char *buf, size_t len, fl_xml_end *out) {
  fl_xml_end tmp;
  fl_xml_end *o = out ? out : &tmp;
  memset(o, 0, sizeof *o);
  /* the root start tag: the first '<' followed by a name character, past
   * the prolog (declaration, comments, doctype) */
  size_t i = 0;
  for (; i + 1 < len; i++)
    if (buf[i] == '<' && name_char(buf[i + 1]) && buf[i + 1] != '-' &&
        buf[i + 1] != '.')
      break;
  if (i + 1 >= len)
    return FL_XML_WHOLE;
  size_t s = i + 1, e = s;
  while (e < len && name_char(buf[e]))
    e++;
  size_t nl = e - s;
  if (!nl || nl >= sizeof o->root)
    return FL_XML_WHOLE;
  memcpy(o->root, buf + s, nl);
  o->root[nl] = '\0';
  o->root_line = line_at(buf, i);
  /* its end: the start tag itself ends "/>", else the first "</root"
   * followed by '>' or a blank (two documents joined: the rest is extra) */
  size_t end = 0; /* offset past the end tag; 0: none */
  size_t gt = e;
  while (gt < len && buf[gt] != '>')
    gt++;
  if (gt < len && buf[gt - 1] == '/')
    end = gt + 1;
  for (size_t k = gt; !end && k + nl + 2 <= len; k++)
    if (buf[k] == '<' && buf[k + 1] == '/' &&
        memcmp(buf + k + 2, o->root, nl) == 0 &&
        (k + 2 + nl == len || !name_char(buf[k + 2 + nl]))) {
      size_t g = k + 2 + nl;
      while (g < len && buf[g] != '>')
        g++;
      if (g == len)
        break; /* "</fabric" cut before its '>' */
      o->end_line = line_at(buf, k);
      end = g + 1;
    }
  if (!end) {
    /* never closed: the file ends first, at its last line with content */
    size_t last = len;
    while (last > 0 && (buf[last - 1] == '\n' || buf[last - 1] == '\r' ||
                        buf[last - 1] == ' ' || buf[last - 1] == '\t'))
      last--;
    o->end_line = line_at(buf, last ? last - 1 : 0);
    return FL_XML_CUT;
  }
  /* after the root: blanks, comments and processing instructions only */
  for (size_t k = end; k < len; k++) {
    char ch = buf[k];
    if (ch == ' ' || ch == '\t' || ch == '\r' || ch == '\n')
      continue;
    if (ch == '<' && k + 3 < len && memcmp(buf + k, "<!--", 4) == 0) {
      k = past(buf, len, k + 4, "-->") - 1;
      continue;
    }
    /* a processing instruction, but not a second document's declaration */
    if (ch == '<' && k + 1 < len && buf[k + 1] == '?' &&
        !(k + 6 <= len && memcmp(buf + k + 2, "xml", 3) == 0 &&
          !name_char(buf[k + 5]))) {
      k = past(buf, len, k + 2, "?>") - 1;
      continue;
    }
    o->extra_line = line_at(buf, k);
    return FL_XML_EXTRA;
  }
  return FL_XML_WHOLE;
}
