/* SPDX-License-Identifier: MIT */
/*
 * core/io/design_xml_attrs.c — the attributes of the current design XML
 * element: gathered from libxml2's node against the element's table
 * (design_xml_schema.c), each value checked, required ones present,
 * unknown ones refused (lenient mode: ignored), and values in canonical
 * form for the model.
 */
#include "io/design_xml_impl.h"

#include <stdio.h>
#include <string.h>

#include "io/design_xml.h"

/* ---- attributes of the current element -------------------------------- */

/* Value of libxml2 attribute @a (its single text child), or NULL. */
static const char *xattr_value(xmlAttrPtr a) {
  xmlNodePtr c = a->children;
  if (!c)
    return "";
  if (c->type == XML_TEXT_NODE && c->next == NULL)
    return (const char *)c->content;
  return NULL; /* entity references: impossible without a DTD */
}

static void list_names(const aspec *spec, int n, char *buf, size_t size) {
  size_t used = 0;
  buf[0] = '\0';
  for (int i = 0; i < n && used < size; i++)
    used += (size_t)snprintf(buf + used, size - used, "%s%s", i ? ", " : "",
                             spec[i].name);
}

/* Bytes of attribute value @v an error message quotes: all of it up to 40
 * bytes, else 40 cut back to a UTF-8 character boundary (the message then
 * adds "..."): a 100 kB value must not fill the message, and a huge number
 * must not be cut without saying so. */
static int quote_len(const char *v) {
  size_t n = strlen(v);
  if (n <= 40)
    return (int)n;
  n = 40;
  while (n > 0 && ((unsigned char)v[n] & 0xc0) == 0x80)
    n--;
  return (int)n;
}

/*
 * gather() — read the attributes of element @xn (of kind @el, at @t) into
 * @vals/@nums indexed like @spec, checking names, types and presence.
 */
int gather(dx *d, xmlNodePtr xn, const dx_tag *t, int el, const aspec *spec,
           int n, const char **vals, uint64_t *nums) {
  int strict = d->mode != FL_DX_LENIENT;
  uint32_t line, col;
  for (int i = 0; i < n; i++) {
    vals[i] = NULL;
    nums[i] = 0;
  }
  for (xmlAttrPtr a = xn->properties; a; a = a->next) {
    const char *name = (const char *)a->name;
    int i;
    for (i = 0; i < n; i++)
      if (spec[i].name[0] == name[0] && strcmp(spec[i].name, name) == 0)
        break;
    if (a->ns != NULL || i == n) {
      if (!strict)
        continue;
      char names[400];
      list_names(spec, n, names, sizeof names);
      attr_pos(d, t, name, &line, &col);
      return dx_fail(
          d, line, col, "unknown attribute %s%s%s on <%s>; expected one of: %s",
          a->ns && a->ns->prefix ? (const char *)a->ns->prefix : "",
          a->ns && a->ns->prefix ? ":" : "", name, el_names[el], names);
    }
    const char *v = xattr_value(a);
    if (!v || check_value(spec[i].type, v, &nums[i]) != 0) {
      attr_pos(d, t, name, &line, &col);
      if (!v)
        return dx_fail(d, line, col,
                       "attribute %s of <%s> holds an entity "
                       "reference; design XML takes none",
                       name, el_names[el]);
      int q = quote_len(v);
      return dx_fail(d, line, col, "invalid %s=\"%.*s%s\" on <%s>: expected %s",
                     name, q, v, v[q] ? "..." : "", el_names[el],
                     expected(spec[i].type));
    }
    vals[i] = v;
  }
  for (int i = 0; i < n; i++)
    if ((spec[i].flags & F_REQ) && !vals[i])
      return dx_fail(d, t->line, t->col,
                     "<%s> is missing required attribute %s", el_names[el],
                     spec[i].name);
  return 0;
}

/* Canonical text of a typed design value (tier, ar, width), else @v. */
const char *canonical(int type, const char *v, uint64_t num, char *buf,
                      size_t size) {
  switch (type) {
  case T_U8:
    snprintf(buf, size, "%u", (unsigned)num);
    return buf;
  case T_BOOL:
    return num ? "true" : "false";
  case T_WIDTH:
    snprintf(buf, size, "%ux", (unsigned)num);
    return buf;
  default:
    return v;
  }
}

int is_eth(uint32_t speed) {
  return speed >= FL_SPEED_ETH_1G;
}
