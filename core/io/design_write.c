/* SPDX-License-Identifier: MIT */
/*
 * core/io/design_write.c — fl_write_design_xml(): a finalized fabric as
 * fabriclint design XML (docs/design-xml.md, schema/design.rng).
 *
 * Why it is written by hand rather than with libxml2's xmlTextWriter: the
 * output must always load again (`fabriclint gen` writes plans that the
 * loader then reads), and XML 1.0 cannot carry every byte string — control
 * characters other than tab, newline and carriage return, and invalid UTF-8,
 * have no representation, not even as character references (XML 1.0
 * section 2.2, "Char"). xmlTextWriter passes such bytes through. Here every
 * string goes through one escaper that writes &amp; &lt; &gt; &quot;, the
 * three legal white-space controls as &#9; &#10; &#13; (so attribute-value
 * normalisation, XML 1.0 section 3.3.3, keeps them), and '?' for anything
 * XML cannot hold.
 *
 * Deterministic: elements follow id order, attributes a fixed order, and
 * model attributes the fabric's own (sorted) order. Node names must be
 * unique in design XML; a fabric from an as-built dump can repeat a display
 * name (two nodes with the same NodeDescription), so repeated names get a
 * " #<guid>" (or " #<id>") suffix, deterministically.
 *
 * Cost: O(nodes + ports + links + attributes); memory O(nodes) for names.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabriclint/write.h"
#include "io/design_xml.h"
#include "io/write_common.h"
#include "util/xml_escape.h"

/* Length of the valid UTF-8 sequence at @s (1..4), or 0 if invalid. */
static size_t utf8_len(const unsigned char *s) {
  unsigned c = s[0];
  if (c < 0x80)
    return 1;
  size_t n;
  uint32_t cp;
  if (c >= 0xC2 && c <= 0xDF) {
    n = 2;
    cp = c & 0x1F;
  } else if (c >= 0xE0 && c <= 0xEF) {
    n = 3;
    cp = c & 0x0F;
  } else if (c >= 0xF0 && c <= 0xF4) {
    n = 4;
    cp = c & 0x07;
  } else {
    return 0;
  }
  for (size_t i = 1; i < n; i++) {
    if ((s[i] & 0xC0) != 0x80)
      return 0;
    cp = cp << 6 | (s[i] & 0x3F);
  }
  if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) || cp > 0x10FFFF ||
      (cp >= 0xD800 && cp <= 0xDFFF) || cp == 0xFFFE || cp == 0xFFFF)
    return 0;
  return n;
}

/* Write @s escaped for a double-quoted attribute value. */
static void put_escaped(FILE *out, const char *s) {
  const unsigned char *p = (const unsigned char *)s;
  while (*p) {
    unsigned c = *p;
    const char *e = fl_xml_entity(*p, FL_XML_TEXT | FL_XML_NL | FL_XML_TAB_CR);
    if (e) {
      fputs(e, out);
    } else {
      if (c < 0x20) {
        fputc('?', out);
      } else {
        size_t n = utf8_len(p);
        if (n == 0) {
          fputc('?', out);
        } else {
          fwrite(p, 1, n, out);
          p += n;
          continue;
        }
      }
    }
    p++;
  }
}

static void put_attr(FILE *out, const char *name, const char *value) {
  fprintf(out, " %s=\"", name);
  put_escaped(out, value);
  fputc('"', out);
}

static void put_hex(FILE *out, const char *name, uint64_t v, int digits) {
  fprintf(out, " %s=\"0x%0*" PRIx64 "\"", name, digits, v);
}

/*
 * Model attributes of an element: known design keys (valid values) as XML
 * attributes in @pass 0, everything else as <attr> children in @pass 1.
 * Returns the number of <attr> children written in pass 1.
 */
static uint32_t put_model_attrs(FILE *out, const fl_fabric *fab, uint32_t ent,
                                fl_id id, int pass, const char *indent) {
  uint32_t n = fl_fabric_attr_count(fab, ent, id), written = 0;
  for (uint32_t i = 0; i < n; i++) {
    const char *k, *v;
    if (fl_fabric_attr_at(fab, ent, id, i, &k, &v) != FL_OK)
      continue;
    if (ent == FL_ENT_NODE && strcmp(k, "tier") == 0)
      continue; /* written from fl_fabric_node_tier() */
    int known = fl_design_attr_check(ent, k, v);
    if (pass == 0 && known == 1) {
      put_attr(out, k, v);
    } else if (pass == 1 && known < 0 && k[0]) {
      fprintf(out, "%s<attr", indent);
      put_attr(out, "key", k);
      put_attr(out, "value", v);
      fputs("/>\n", out);
      written++;
    }
    /* known == 0: a value the schema refuses (from another input) is left
     * out rather than written as a file that does not load */
  }
  return written;
}

static int has_children(const fl_fabric *fab, uint32_t ent, fl_id id) {
  uint32_t n = fl_fabric_attr_count(fab, ent, id);
  for (uint32_t i = 0; i < n; i++) {
    const char *k, *v;
    if (fl_fabric_attr_at(fab, ent, id, i, &k, &v) == FL_OK && k[0] &&
        fl_design_attr_check(ent, k, v) < 0 &&
        !(ent == FL_ENT_NODE && strcmp(k, "tier") == 0))
      return 1;
  }
  return 0;
}

/* Is port @p worth a <port> element? */
static int port_worth(const fl_fabric *fab, fl_id n, fl_id p) {
  uint32_t num = fl_fabric_port_num(fab, p);
  if (num > 65535 ||
      (num == 0 && fl_fabric_node_kind(fab, n) != FL_NODE_SWITCH))
    return 0;
  return fl_fabric_port_guid(fab, p) || fl_fabric_port_lid(fab, p) ||
         fl_fabric_port_lmc(fab, p) || fl_fabric_port_label(fab, p)[0] ||
         fl_fabric_attr_count(fab, FL_ENT_PORT, p) > 0;
}

static void put_port(FILE *out, const fl_fabric *fab, fl_id p) {
  fprintf(out, "    <port num=\"%u\"", fl_fabric_port_num(fab, p));
  if (fl_fabric_port_guid(fab, p))
    put_hex(out, "guid", fl_fabric_port_guid(fab, p), 16);
  if (fl_fabric_port_lid(fab, p) && fl_fabric_port_lid(fab, p) <= 65535)
    fprintf(out, " lid=\"%u\"", fl_fabric_port_lid(fab, p));
  if (fl_fabric_port_lmc(fab, p) && fl_fabric_port_lmc(fab, p) <= 7)
    fprintf(out, " lmc=\"%u\"", fl_fabric_port_lmc(fab, p));
  if (fl_fabric_port_label(fab, p)[0])
    put_attr(out, "label", fl_fabric_port_label(fab, p));
  put_model_attrs(out, fab, FL_ENT_PORT, p, 0, NULL);
  if (!has_children(fab, FL_ENT_PORT, p)) {
    fputs("/>\n", out);
    return;
  }
  fputs(">\n", out);
  put_model_attrs(out, fab, FL_ENT_PORT, p, 1, "      ");
  fputs("    </port>\n", out);
}

static void put_node(FILE *out, const fl_fabric *fab, fl_id n,
                     const char *name) {
  uint32_t kind = fl_fabric_node_kind(fab, n);
  fprintf(out, "  <node kind=\"%s\"",
          kind == FL_NODE_SWITCH   ? "switch"
          : kind == FL_NODE_ROUTER ? "router"
                                   : "ca");
  put_attr(out, "name", name);
  if (fl_fabric_node_guid(fab, n))
    put_hex(out, "guid", fl_fabric_node_guid(fab, n), 16);
  if (fl_fabric_node_sysimgguid(fab, n))
    put_hex(out, "sysimgguid", fl_fabric_node_sysimgguid(fab, n), 16);
  if (fl_fabric_node_vendid(fab, n))
    fprintf(out, " vendid=\"0x%x\"", fl_fabric_node_vendid(fab, n) & 0xffffffu);
  if (fl_fabric_node_devid(fab, n))
    fprintf(out, " devid=\"0x%x\"", fl_fabric_node_devid(fab, n));
  if (fl_fabric_node_nports(fab, n) && fl_fabric_node_nports(fab, n) <= 65535)
    fprintf(out, " ports=\"%u\"", fl_fabric_node_nports(fab, n));
  if (fl_fabric_node_desc(fab, n)[0])
    put_attr(out, "desc", fl_fabric_node_desc(fab, n));
  if (fl_fabric_node_system(fab, n)[0])
    put_attr(out, "system", fl_fabric_node_system(fab, n));
  if (fl_fabric_node_device(fab, n)[0])
    put_attr(out, "device", fl_fabric_node_device(fab, n));
  uint32_t tier = fl_fabric_node_tier(fab, n);
  /* only a given tier: a derived one is derived again on loading */
  if (tier != FL_TIER_UNKNOWN && tier <= 255 &&
      !fl_fabric_node_tier_derived(fab, n))
    fprintf(out, " tier=\"%u\"", tier);
  put_model_attrs(out, fab, FL_ENT_NODE, n, 0, NULL);

  fl_id p0 = fl_fabric_node_first_port(fab, n);
  uint32_t np = fl_fabric_node_port_count(fab, n), worth = 0;
  for (uint32_t i = 0; i < np; i++)
    worth += port_worth(fab, n, p0 + i);
  if (!worth && !has_children(fab, FL_ENT_NODE, n)) {
    fputs("/>\n", out);
    return;
  }
  fputs(">\n", out);
  for (uint32_t i = 0; i < np; i++)
    if (port_worth(fab, n, p0 + i))
      put_port(out, fab, p0 + i);
  put_model_attrs(out, fab, FL_ENT_NODE, n, 1, "    ");
  fputs("  </node>\n", out);
}

static void put_link(FILE *out, const fl_fabric *fab, fl_id l,
                     const fl_wr_names *w) {
  fl_id pa = fl_fabric_link_port(fab, l, 0),
        pb = fl_fabric_link_port(fab, l, 1);
  if (pa == FL_NONE || pb == FL_NONE)
    return;
  uint32_t na = fl_fabric_port_num(fab, pa), nb = fl_fabric_port_num(fab, pb);
  if (na == 0 || nb == 0 || na > 65535 || nb > 65535)
    return; /* not a cable end design XML can name */
  fputs("  <link", out);
  put_attr(out, "a", w->names[fl_fabric_port_node(fab, pa)]);
  fprintf(out, " a-port=\"%u\"", na);
  put_attr(out, "b", w->names[fl_fabric_port_node(fab, pb)]);
  fprintf(out, " b-port=\"%u\"", nb);
  uint32_t width = fl_fabric_link_width(fab, l);
  uint32_t speed = fl_fabric_link_speed(fab, l);
  int eth = speed >= FL_SPEED_ETH_1G;
  if ((width == 1 || width == 2 || width == 4 || width == 8 || width == 12) &&
      (!eth || width == 1))
    fprintf(out, " width=\"%ux\"", width);
  if (speed != FL_SPEED_UNKNOWN && strcmp(fl_speed_name(speed), "??") != 0)
    fprintf(out, " speed=\"%s\"", fl_speed_name(speed));
  put_model_attrs(out, fab, FL_ENT_LINK, l, 0, NULL);
  if (!has_children(fab, FL_ENT_LINK, l)) {
    fputs("/>\n", out);
    return;
  }
  fputs(">\n", out);
  put_model_attrs(out, fab, FL_ENT_LINK, l, 1, "    ");
  fputs("  </link>\n", out);
}

int fl_write_design_xml(const fl_fabric *fab, FILE *out, fl_error *err) {
  fl_wr_names w = {0};
  if (fl_wr_names_build(fab, &w) != 0) {
    fl_wr_names_free(&w);
    return fl_error_set(err, FL_ENOMEM, NULL, 0, 0,
                        "out of memory while writing design XML");
  }
  fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        "<fabric xmlns=\"urn:fabriclint:design:1\" version=\"1\">\n",
        out);
  uint32_t n = fl_fabric_node_count(fab);
  for (fl_id i = 0; i < n; i++)
    put_node(out, fab, i, w.names[i]);
  uint32_t nl = fl_fabric_link_count(fab);
  for (fl_id l = 0; l < nl; l++)
    put_link(out, fab, l, &w);
  fputs("</fabric>\n", out);
  fl_wr_names_free(&w);
  if (fflush(out) != 0 || ferror(out))
    return fl_error_set(err, FL_EIO, NULL, 0, 0,
                        "cannot write design XML: write error");
  return FL_OK;
}
