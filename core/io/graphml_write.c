/* SPDX-License-Identifier: MIT */
/*
 * core/io/graphml_write.c — fl_write_graphml(): a fabric as GraphML 1.0
 * (docs/formats/graphml.md, "Writing").
 *
 * Why: yEd, Gephi, NetworkX and N2G read GraphML; a plan or an as-built
 * dump becomes a drawing an architect can lay out and annotate, and
 * fabriclint's GraphML loader reads it back by the same key names.
 *
 * Written with libxml2's xmlTextWriter (escaping and the XML declaration
 * are libxml2's). Every string of the model is printable UTF-8
 * (docs/architecture.md, "Strings are printable UTF-8"), which XML holds
 * as is. Layout (GraphML primer, graphml.graphdrawing.org):
 *   <graphml xmlns="http://graphml.graphdrawing.org/xmlns">
 *     <key id="name" for="node" attr.name="name" attr.type="string"/> ...
 *     <graph id="fabric" edgedefault="undirected">
 *       <node id="n<id>"><data key="name">leaf-01</data>...</node>
 *       <edge id="e<id>" source="n<a>" target="n<b>">
 *         <data key="src_port">1</data>...</edge>
 * Node data: name (unique, io/write_common.h), kind (switch, ca, router),
 * guid, desc (when it differs from the name), system, tier (when given);
 * edge data: src_port, dst_port (port label, else number), speed (`4xNDR`,
 * `400G`), length. Empty values are left out. Cost O(nodes + links).
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <libxml/xmlwriter.h>

#include "fabriclint/write.h"
#include "io/write_common.h"

#define GRAPHML_NS "http://graphml.graphdrawing.org/xmlns"

static const char *const NODE_KEYS[] = {"name", "kind",   "guid",
                                        "desc", "system", "tier"};
static const char *const EDGE_KEYS[] = {"src_port", "dst_port", "speed",
                                        "length"};

#define X(s) ((const xmlChar *)(s))

/* <data key="@key">@v</data> when @v is not empty; <0 on error. */
static int put_data(xmlTextWriterPtr w, const char *key, const char *v) {
  if (!v || !*v)
    return 0;
  if (xmlTextWriterStartElement(w, X("data")) < 0 ||
      xmlTextWriterWriteAttribute(w, X("key"), X(key)) < 0 ||
      xmlTextWriterWriteString(w, X(v)) < 0)
    return -1;
  return xmlTextWriterEndElement(w);
}

static int put_keys(xmlTextWriterPtr w, const char *for_,
                    const char *const *keys, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (xmlTextWriterStartElement(w, X("key")) < 0 ||
        xmlTextWriterWriteAttribute(w, X("id"), X(keys[i])) < 0 ||
        xmlTextWriterWriteAttribute(w, X("for"), X(for_)) < 0 ||
        xmlTextWriterWriteAttribute(w, X("attr.name"), X(keys[i])) < 0 ||
        xmlTextWriterWriteAttribute(w, X("attr.type"), X("string")) < 0 ||
        xmlTextWriterEndElement(w) < 0)
      return -1;
  return 0;
}

static int put_node(xmlTextWriterPtr w, const fl_fabric *fab, fl_id n,
                    const char *name) {
  char id[24], g[32], t[16];
  const char *desc = fl_fabric_node_desc(fab, n);
  snprintf(id, sizeof id, "n%" PRIu32, n);
  if (xmlTextWriterStartElement(w, X("node")) < 0 ||
      xmlTextWriterWriteAttribute(w, X("id"), X(id)) < 0 ||
      put_data(w, "name", name) < 0 ||
      put_data(w, "kind", fl_node_kind_name(fl_fabric_node_kind(fab, n))) < 0 ||
      put_data(w, "guid",
               fl_wr_guid_text(fl_fabric_node_guid(fab, n), g, sizeof g)) < 0 ||
      put_data(w, "desc", strcmp(desc, name) ? desc : NULL) < 0 ||
      put_data(w, "system", fl_fabric_node_system(fab, n)) < 0 ||
      put_data(w, "tier", fl_wr_tier_text(fab, n, t, sizeof t)) < 0)
    return -1;
  return xmlTextWriterEndElement(w);
}

static int put_edge(xmlTextWriterPtr w, const fl_fabric *fab, fl_id l) {
  fl_id pa = fl_fabric_link_port(fab, l, 0),
        pb = fl_fabric_link_port(fab, l, 1);
  if (pa == FL_NONE || pb == FL_NONE)
    return 0;
  char id[24], src[24], dst[24], a[32], b[32], r[32];
  snprintf(id, sizeof id, "e%" PRIu32, l);
  snprintf(src, sizeof src, "n%" PRIu32, fl_fabric_port_node(fab, pa));
  snprintf(dst, sizeof dst, "n%" PRIu32, fl_fabric_port_node(fab, pb));
  if (xmlTextWriterStartElement(w, X("edge")) < 0 ||
      xmlTextWriterWriteAttribute(w, X("id"), X(id)) < 0 ||
      xmlTextWriterWriteAttribute(w, X("source"), X(src)) < 0 ||
      xmlTextWriterWriteAttribute(w, X("target"), X(dst)) < 0 ||
      put_data(w, "src_port", fl_wr_port_text(fab, pa, a, sizeof a)) < 0 ||
      put_data(w, "dst_port", fl_wr_port_text(fab, pb, b, sizeof b)) < 0 ||
      put_data(w, "speed", fl_wr_rate_text(fab, l, r, sizeof r)) < 0 ||
      put_data(w, "length", fl_fabric_attr(fab, FL_ENT_LINK, l, "length")) < 0)
    return -1;
  return xmlTextWriterEndElement(w);
}

static int put_doc(xmlTextWriterPtr w, const fl_fabric *fab,
                   const fl_wr_names *names) {
  if (xmlTextWriterSetIndent(w, 1) < 0 ||
      xmlTextWriterSetIndentString(w, X("  ")) < 0 ||
      xmlTextWriterStartDocument(w, "1.0", "UTF-8", NULL) < 0 ||
      xmlTextWriterStartElementNS(w, NULL, X("graphml"), X(GRAPHML_NS)) < 0 ||
      put_keys(w, "node", NODE_KEYS, sizeof NODE_KEYS / sizeof *NODE_KEYS) <
          0 ||
      put_keys(w, "edge", EDGE_KEYS, sizeof EDGE_KEYS / sizeof *EDGE_KEYS) <
          0 ||
      xmlTextWriterStartElement(w, X("graph")) < 0 ||
      xmlTextWriterWriteAttribute(w, X("id"), X("fabric")) < 0 ||
      xmlTextWriterWriteAttribute(w, X("edgedefault"), X("undirected")) < 0)
    return -1;
  for (fl_id n = 0; n < fl_fabric_node_count(fab); n++)
    if (put_node(w, fab, n, names->names[n]) < 0)
      return -1;
  for (fl_id l = 0; l < fl_fabric_link_count(fab); l++)
    if (put_edge(w, fab, l) < 0)
      return -1;
  return xmlTextWriterEndDocument(w) < 0 ? -1 : 0;
}

int fl_write_graphml(const fl_fabric *fab, FILE *out, fl_error *err) {
  if (fl_wr_cables_check(fab, "GraphML", err) != FL_OK)
    return FL_EINVAL;
  fl_wr_names names = {0};
  if (fl_wr_names_build(fab, &names) != 0) {
    fl_wr_names_free(&names);
    return fl_error_set(err, FL_ENOMEM, NULL, 0, 0,
                        "out of memory writing GraphML");
  }
  xmlOutputBufferPtr buf = xmlOutputBufferCreateFile(out, NULL);
  xmlTextWriterPtr w = buf ? xmlNewTextWriter(buf) : NULL;
  if (!w) { /* the buffer is the writer's once it exists */
    if (buf)
      xmlOutputBufferClose(buf);
    fl_wr_names_free(&names);
    return fl_error_set(err, FL_ENOMEM, NULL, 0, 0,
                        "out of memory writing GraphML");
  }
  int rc = put_doc(w, fab, &names);
  if (xmlTextWriterFlush(w) < 0)
    rc = -1;
  xmlFreeTextWriter(w); /* closes the buffer, not @out */
  fl_wr_names_free(&names);
  if (rc != 0 || fflush(out) != 0 || ferror(out))
    return fl_error_set(err, FL_EIO, NULL, 0, 0, "writing GraphML failed");
  return FL_OK;
}
