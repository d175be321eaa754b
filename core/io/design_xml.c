/* SPDX-License-Identifier: MIT */
/*
 * core/io/design_xml.c — loader of fabriclint design XML (schema/design.rng,
 * docs/design-xml.md) into an fl_fabric under construction: the reader
 * loop, set-up and tear-down, the entry points and the format row. The
 * elements are built by design_xml_build.c, their attributes gathered by
 * design_xml_attrs.c, values checked by design_xml_schema.c and positions
 * found by design_xml_pos.c (shared declarations: design_xml_impl.h).
 *
 * Why it is built this way:
 *
 * - Streaming. Plans of 100k GPUs are ~100 MB of XML, so the file is read
 *   with libxml2's xmlTextReader, which keeps only the current node and its
 *   ancestors (libxml2 xmlreader API, https://gnome.pages.gitlab.gnome.org/
 *   libxml2/html/libxml-xmlreader.html). No DOM is built; links are kept as
 *   compact pending records and resolved at the end, because a <link> may
 *   name nodes defined further down.
 *
 * - Safety. The reader is created with XML_PARSE_NONET | XML_PARSE_BIG_LINES
 *   and without XML_PARSE_NOENT / DTDLOAD / DTDATTR / DTDVALID, so no external
 *   entity or DTD is ever fetched; on top of that, any <!DOCTYPE> is refused
 *   before libxml2 sees the file, and a DTD node the reader reports is
 *   refused too (design XML has no use for a DTD, and a DTD is where entity
 *   bombs and external entities live).
 *
 * - Positions. Every error and every element's provenance carries file,
 *   line and column. libxml2 gives line and column for well-formedness
 *   errors (xmlError.line / int2), but reader nodes carry only a line, and
 *   xmlTextReaderGetParserColumnNumber() reports where the push parser is,
 *   which runs ahead of the current node. So the file, read whole once
 *   (fileio.h), is handed to xmlReaderForMemory(); a tiny scanner walks
 *   the same bytes and finds the start tag of each element the reader
 *   reports (the k-th element event is the k-th start tag, since no entity
 *   can add elements).
 *   That gives exact line and column (1-based, counted in characters) of
 *   elements and of their attributes.
 *
 * - Validation. libxml2's streaming RELAX NG validation
 *   (xmlTextReaderRelaxNGSetSchema) streams, but even with the schema shaped
 *   for it (see schema/design.rng) it takes 4.3 s on a 93 MB fat-tree plan
 *   where parsing plus building takes 1.7 s (libxml2 2.9.14, 2 cores). So
 *   the loader checks the rules of schema/design.rng itself (the tables
 *   of design_xml_schema.c mirror the schema one to one) and runs libxml2 RELAX
 * NG only in FL_DX_RELAXNG mode, the reference the unit tests compare with.
 * Where libxml2 reports a schema error, the built-in check of the same event
 *   runs first so the user gets the more specific message.
 *
 * - No global mutable state: the error handler is per reader
 *   (xmlTextReaderSetStructuredErrorHandler) and all state lives in one
 *   struct on the caller's stack.
 */
#include "io/design_xml.h"
#include "io/design_xml_impl.h"
#include "io/xml_cut.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <libxml/parser.h>
#include <libxml/relaxng.h>
#include <libxml/xmlerror.h>
#include <libxml/xmlreader.h>

#include "io/data_path.h"
#include "io/formats.h"
#include "io/loaders.h"
#include "model/build.h"
#include "model/hashmap.h"

/* ---- the reader loop --------------------------------------------------- */

static int el_kind(const char *name) {
  for (int i = EL_FABRIC; i <= EL_ATTR; i++)
    if (strcmp(name, el_names[i]) == 0)
      return i;
  return EL_NONE;
}

static const char *children_of(int el) {
  switch (el) {
  case EL_FABRIC:
    return "<node>, <link> or <attr>";
  case EL_NODE:
    return "<port> or <attr>";
  case EL_PORT:
  case EL_LINK:
    return "<attr>";
  default:
    return "nothing";
  }
}

static int child_ok(int parent, int el) {
  switch (parent) {
  case EL_FABRIC:
    return el == EL_NODE || el == EL_LINK || el == EL_ATTR;
  case EL_NODE:
    return el == EL_PORT || el == EL_ATTR;
  case EL_PORT:
  case EL_LINK:
    return el == EL_ATTR;
  default:
    return 0;
  }
}

/* Next start tag for the element the reader just reported. */
static void next_tag(dx *d, xmlNodePtr xn, dx_tag *t) {
  if (d->have_pre) {
    *t = d->pre;
    d->have_pre = 0;
  } else if (d->scan.broken || scan_next(&d->scan, t, NULL) != 0) {
    d->scan.broken = 1;
  }
  if (!d->scan.broken) {
    /* the tag must carry the same qualified name */
    const char *b = d->scan.buf + t->off + 1;
    const char *nm = (const char *)xn->name;
    size_t pl = 0;
    if (xn->ns && xn->ns->prefix) {
      pl = strlen((const char *)xn->ns->prefix);
      if (strncmp(b, (const char *)xn->ns->prefix, pl) != 0 || b[pl] != ':')
        d->scan.broken = 1;
      pl++;
    }
    size_t nl = strlen(nm);
    if (!d->scan.broken &&
        (strncmp(b + pl, nm, nl) != 0 || !strchr(" \t\r\n/>", b[pl + nl])))
      d->scan.broken = 1;
  }
  if (d->scan.broken) {
    t->off = t->end = 0;
    t->line = (uint32_t)xmlGetLineNo(xn);
    t->col = 0;
  }
}

static int open_element(dx *d, xmlNodePtr xn, dx_frame *f) {
  int strict = d->mode != FL_DX_LENIENT;
  const char *ns = xn->ns ? (const char *)xn->ns->href : NULL;
  int el = (ns && strcmp(ns, DX_NS) == 0) ? el_kind((const char *)xn->name)
                                          : EL_NONE;
  f->el = el;
  f->xn = xn;
  if (d->depth == 0) {
    if (el != EL_FABRIC)
      return dx_fail(d, f->tag.line, f->tag.col,
                     "expected the root element <fabric xmlns=\"" DX_NS
                     "\">, found <%s>%s%s%s",
                     (const char *)xn->name, ns ? " in namespace \"" : "",
                     ns ? ns : " in no namespace", ns ? "\"" : "");
    return on_fabric(d, xn, &f->tag);
  }
  dx_frame *parent = &d->stack[d->depth - 1];
  if (el == EL_NONE || !child_ok(parent->el, el)) {
    if (!strict) {
      f->el = EL_NONE;
      return 0;
    }
    return dx_fail(
        d, f->tag.line, f->tag.col,
        "unexpected element <%s>%s%s%s inside <%s>; expected %s",
        (const char *)xn->name, ns && el == EL_NONE ? " (namespace \"" : "",
        ns && el == EL_NONE ? ns : "", ns && el == EL_NONE ? "\")" : "",
        el_names[parent->el], children_of(parent->el));
  }
  switch (el) {
  case EL_NODE:
    return on_node(d, xn, f);
  case EL_PORT:
    return on_port(d, xn, f, parent);
  case EL_LINK:
    return on_link(d, xn, f);
  case EL_ATTR:
    return on_attr(d, xn, f, parent);
  default:
    return 0;
  }
}

static void close_element(dx *d) {
  if (d->depth == 0)
    return;
  dx_frame *f = &d->stack[--d->depth];
  d->last_xn = f->xn;
  d->last_tag = f->tag;
}

static int on_element(dx *d) {
  xmlNodePtr xn = xmlTextReaderCurrentNode(d->reader);
  int empty = xmlTextReaderIsEmptyElement(d->reader) == 1;
  dx_tag t;
  next_tag(d, xn, &t);
  if (d->skip > 0) {
    d->skip += !empty;
    return 0;
  }
  dx_frame f = {.el = EL_NONE, .node = FL_NONE, .port = FL_NONE, .tag = t};
  if (open_element(d, xn, &f) != 0)
    return -1;
  if (f.el == EL_NONE) { /* ignored (lenient) */
    d->skip = !empty;
    d->last_xn = xn;
    d->last_tag = t;
    return 0;
  }
  d->stack[d->depth++] = f;
  if (empty)
    close_element(d);
  return 0;
}

static int on_end(dx *d) {
  if (d->skip > 0)
    d->skip--;
  else
    close_element(d);
  return 0;
}

/* Position of the first non-blank character of text at the scanner. */
static void text_pos(dx *d, uint32_t *line, uint32_t *col) {
  const char *b = d->scan.buf;
  size_t i = d->scan.pos, n = d->scan.len;
  for (;;) {
    while (i < n && is_xml_ws(b[i]))
      i++;
    if (i + 1 < n && b[i] == '<' && b[i + 1] == '/')
      i = tag_close(b, n, i) + 1;
    else if (i + 3 < n && memcmp(b + i, "<!--", 4) == 0)
      i = skip_past(b, n, i + 4, "-->");
    else if (i + 1 < n && b[i] == '<' && b[i + 1] == '?')
      i = skip_past(b, n, i + 2, "?>");
    else
      break;
  }
  if (d->scan.broken || i > n) {
    *line = (uint32_t)xmlTextReaderGetParserLineNumber(d->reader);
    *col = 0;
    return;
  }
  pos_from(b, d->scan.line_start, d->scan.line, 1, i, line, col);
}

static int on_text(dx *d) {
  if (d->mode == FL_DX_LENIENT || d->skip > 0)
    return 0;
  const char *s = (const char *)xmlTextReaderConstValue(d->reader);
  for (; s && *s; s++)
    if (!is_xml_ws(*s)) {
      uint32_t line, col;
      text_pos(d, &line, &col);
      return dx_fail(d, line, col,
                     "text is not allowed inside <%s>; design "
                     "XML keeps everything in attributes",
                     d->depth ? el_names[d->stack[d->depth - 1].el] : "?");
    }
  return 0;
}

/* Where the pending libxml2 error belongs. @fresh: an element just opened. */
static void xe_locate(dx *d, const void *fresh, const dx_tag *fresh_tag,
                      uint32_t *line, uint32_t *col) {
  *line = d->xe.line;
  *col = d->xe.col;
  if (d->xe.domain != XML_FROM_RELAXNGV || !d->xe.node)
    return;
  const dx_tag *t = NULL;
  if (fresh && d->xe.node == fresh)
    t = fresh_tag;
  for (int i = d->depth - 1; !t && i >= 0; i--)
    if (d->stack[i].xn == d->xe.node)
      t = &d->stack[i].tag;
  if (!t && d->last_xn == d->xe.node)
    t = &d->last_tag;
  if (t) {
    *line = t->line;
    *col = t->col;
  }
}

/* A well-formedness error on a file cut short (the root never closed) or
 * followed by something after its root: said in those words, at the line
 * where the file ends or the extra content starts (issue 30: libxml2 calls
 * a cut file "Extra content at the end of the document"). 1 when
 * reported. */
static int xe_cut(dx *d) {
  fl_xml_end cut;
  int how = fl_xml_cut(d->scan.buf, d->scan.len, &cut);
  /* libxml2 met an error before the end (or the extra content): that one
   * comes first, whatever the end looks like */
  uint32_t at = how == FL_XML_CUT ? cut.end_line : cut.extra_line;
  if (how != FL_XML_WHOLE && d->xe.set && d->xe.line && d->xe.line + 1 < at)
    return 0;
  if (how == FL_XML_CUT)
    return dx_fail(d, cut.end_line, 0,
                   "the file ends at line %u, inside <%s> (opened at line "
                   "%u, never closed): it looks cut short (an interrupted "
                   "copy, download or write?)%s%s",
                   cut.end_line, cut.root, cut.root_line,
                   *d->xe.msg ? "; libxml2 says: " : "", d->xe.msg),
           1;
  if (how == FL_XML_EXTRA)
    return dx_fail(d, cut.extra_line, 0,
                   "content after the end of the document: <%s> closes at "
                   "line %u and line %u has more (two files joined, or text "
                   "appended?)%s%s",
                   cut.root, cut.end_line, cut.extra_line,
                   *d->xe.msg ? "; libxml2 says: " : "", d->xe.msg),
           1;
  return 0;
}

static int xe_report(dx *d, const void *fresh, const dx_tag *fresh_tag) {
  uint32_t line, col;
  if (d->xe.domain != XML_FROM_RELAXNGV && xe_cut(d))
    return -1;
  xe_locate(d, fresh, fresh_tag, &line, &col);
  const char *what = d->xe.domain == XML_FROM_RELAXNGV
                         ? "does not match schema/design.rng: "
                         : "not well-formed XML: ";
  return dx_fail(d, line, col, "%s%s", what, d->xe.msg);
}

static void on_xml_error(void *arg, dx_xml_error_ptr e) {
  dx *d = arg;
  if (!e || e->level == XML_ERR_WARNING)
    return;
  size_t used = strlen(d->xe.msg);
  if (!d->xe.set) {
    d->xe.set = 1;
    d->xe.domain = e->domain;
    d->xe.line = e->line > 0 ? (uint32_t)e->line : 0;
    d->xe.col = e->int2 > 0 ? (uint32_t)e->int2 : 0;
    d->xe.node = e->node;
  } else if (used + 3 < sizeof d->xe.msg) {
    strcat(d->xe.msg, "; ");
    used += 2;
  } else {
    return;
  }
  snprintf(d->xe.msg + used, sizeof d->xe.msg - used, "%s",
           e->message ? e->message : "error");
  size_t n = strlen(d->xe.msg);
  while (n > 0 && (d->xe.msg[n - 1] == '\n' || d->xe.msg[n - 1] == ' '))
    d->xe.msg[--n] = '\0';
}

/* Handle one reader event other than an element start. */
static int on_event(dx *d, int type) {
  switch (type) {
  case XML_READER_TYPE_END_ELEMENT:
    return on_end(d);
  case XML_READER_TYPE_TEXT:
  case XML_READER_TYPE_CDATA:
    return on_text(d);
  case XML_READER_TYPE_DOCUMENT_TYPE:
  case XML_READER_TYPE_ENTITY_REFERENCE:
    return dx_fail(d, (uint32_t)xmlTextReaderGetParserLineNumber(d->reader), 0,
                   "DTDs and entities are not allowed in design XML");
  default:
    return 0;
  }
}

/*
 * run_reader() — the event loop. Each event is checked by the built-in
 * rules first; a schema error libxml2 raised during the same read is
 * reported only when they found nothing (their message is more specific).
 */
static int run_reader(dx *d) {
  int r;
  while ((r = xmlTextReaderRead(d->reader)) == 1) {
    int type = xmlTextReaderNodeType(d->reader);
    const void *fresh = NULL;
    const dx_tag *ft = NULL;
    if (type == XML_READER_TYPE_ELEMENT) {
      xmlNodePtr xn = xmlTextReaderCurrentNode(d->reader);
      int depth = d->depth;
      if (on_element(d) != 0)
        return -1;
      /* tag of the element just opened (on the stack, or already closed) */
      ft = d->depth > depth   ? &d->stack[depth].tag
           : d->last_xn == xn ? &d->last_tag
                              : NULL;
      fresh = ft ? xn : NULL;
    } else if (on_event(d, type) != 0) {
      return -1;
    }
    if (d->xe.set)
      return xe_report(d, fresh, ft);
  }
  if (d->xe.set)
    return xe_report(d, NULL, NULL);
  if (r < 0 && xe_cut(d))
    return -1;
  if (r < 0)
    return dx_fail(d, (uint32_t)xmlTextReaderGetParserLineNumber(d->reader),
                   (uint32_t)xmlTextReaderGetParserColumnNumber(d->reader),
                   "not well-formed XML");
  return 0;
}

/* ---- set-up and tear-down ------------------------------------------------ */

static void on_schema_error(void *arg, dx_xml_error_ptr e) {
  dx *d = arg;
  if (!e || e->level == XML_ERR_WARNING || d->xe.set)
    return;
  d->xe.set = 1;
  d->xe.domain = e->domain;
  snprintf(d->xe.msg, sizeof d->xe.msg, "%s:%d: %s",
           e->file ? e->file : "design.rng", e->line,
           e->message ? e->message : "error");
}

/* Compile schema/design.rng (or @schema); NULL with the error set. */
static xmlRelaxNGPtr load_schema(dx *d, const char *schema) {
  char buf[4096];
  if (!schema)
    schema = fl_schema_path("design.rng", buf, sizeof buf);
  if (!schema) {
    d->rc = FL_EIO;
    fl_error_set(d->err, FL_EIO, d->path, 0, 0,
                 "cannot find the design schema design.rng (looked beside "
                 "the library, under the install prefix and in the source "
                 "tree)");
    return NULL;
  }
  xmlRelaxNGParserCtxtPtr pc = xmlRelaxNGNewParserCtxt(schema);
  if (!pc) {
    dx_nomem(d);
    return NULL;
  }
  xmlRelaxNGSetParserStructuredErrors(pc, on_schema_error, d);
  xmlRelaxNGPtr rng = xmlRelaxNGParse(pc);
  xmlRelaxNGFreeParserCtxt(pc);
  if (!rng) {
    d->rc = FL_EIO;
    fl_error_set(d->err, FL_EIO, schema, 0, 0,
                 "cannot compile the design "
                 "schema: %s",
                 d->xe.set ? d->xe.msg : "unknown error");
  }
  memset(&d->xe, 0, sizeof d->xe);
  return rng;
}

/* Refuse what the byte scanner can tell before libxml2 parses anything. */
static int precheck(dx *d) {
  const unsigned char *u = (const unsigned char *)d->scan.buf;
  size_t n = d->scan.len;
  if (n >= 2 && ((u[0] == 0xFE && u[1] == 0xFF) ||
                 (u[0] == 0xFF && u[1] == 0xFE) || u[0] == 0 || u[1] == 0))
    return dx_fail(d, 1, 1,
                   "design XML must be UTF-8 (this looks like "
                   "UTF-16 or binary)");
  if (n >= 3 && u[0] == 0xEF && u[1] == 0xBB && u[2] == 0xBF)
    d->scan.line_start = d->scan.pos = 3;
  size_t doctype = 0;
  if (scan_next(&d->scan, &d->pre, &doctype) == 0) {
    d->have_pre = 1;
    return 0;
  }
  if (doctype) {
    uint32_t line, col;
    pos_from(d->scan.buf, d->scan.line_start, d->scan.line, 1, doctype - 1,
             &line, &col);
    return dx_fail(d, line, col,
                   "<!DOCTYPE is not allowed in design XML "
                   "(no DTD, no entities); expected <fabric xmlns=\"" DX_NS
                   "\">");
  }
  return dx_fail(d, d->scan.line, 1,
                 "no element found; expected <fabric "
                 "xmlns=\"" DX_NS "\">");
}

static void dx_free(dx *d) {
  fl_strmap_free(&d->names);
  fl_u64map_free(&d->portrate);
  free(d->nodes);
  free(d->links);
  free(d->lattrs);
  free(d->arena);
}

/* Parse the mapped file @buf of @len bytes. */
static int dx_parse(dx *d, const char *schema) {
  xmlRelaxNGPtr rng = NULL;
  if (precheck(d) != 0)
    return -1;
  if (d->mode == FL_DX_RELAXNG && !(rng = load_schema(d, schema)))
    return -1;
  xmlInitParser();
  d->reader = xmlReaderForMemory(d->scan.buf, (int)d->scan.len, d->path, NULL,
                                 XML_PARSE_NONET | XML_PARSE_BIG_LINES |
                                     XML_PARSE_COMPACT);
  int rc = -1;
  if (!d->reader) {
    dx_nomem(d);
    goto out;
  }
  xmlTextReaderSetStructuredErrorHandler(d->reader, on_xml_error, d);
  if (rng && xmlTextReaderRelaxNGSetSchema(d->reader, rng) != 0) {
    d->rc = FL_EIO;
    fl_error_set(d->err, FL_EIO, d->path, 0, 0,
                 "libxml2 refused the design schema");
    goto out;
  }
  rc = run_reader(d);
  if (rc == 0)
    rc = resolve_links(d);
out:
  if (d->reader)
    xmlFreeTextReader(d->reader);
  d->reader = NULL;
  if (rng)
    xmlRelaxNGFree(rng);
  return rc;
}

/* Load design XML from input @in (read whole by the caller). */
static int dx_load(fl_fabric *fab, const fl_input *in, int mode,
                   const char *schema, fl_error *err) {
  const char *path = in->path;
  dx d;
  memset(&d, 0, sizeof d);
  d.fab = fab;
  d.path = path;
  d.err = err;
  d.mode = mode;
  if (in->len == 0)
    return fl_error_set(err, FL_EPARSE, path, 1, 1,
                        "empty file; expected <fabric xmlns=\"" DX_NS "\">");
  if ((uint64_t)in->len > (uint64_t)INT_MAX)
    return fl_error_set(err, FL_EIO, path, 0, 0,
                        "file too large (over 2 "
                        "GiB); split the design");
  d.scan.buf = in->buf;
  d.scan.len = in->len;
  d.scan.line = 1;
  d.scan.col = 1; /* column of col_off (0): the first character */
  d.file = fl_b_file(fab, path);
  int rc = dx_parse(&d, schema);
  dx_free(&d);
  if (rc != 0)
    return d.rc ? d.rc : FL_EPARSE;
  return FL_OK;
}

int fl_load_design_xml_mode(fl_fabric *fab, const char *path,
                            const fl_load_options *opts, int mode,
                            const char *schema, fl_error *err) {
  (void)opts;
  fl_input in;
  int rc = fl_input_read(&in, path, NULL, 0, err);
  if (rc != FL_OK)
    return rc;
  rc = dx_load(fab, &in, mode, schema, err);
  fl_input_free(&in);
  return rc;
}

int fl_load_design_xml(fl_fabric *fab, const fl_input *in,
                       const fl_load_options *opts, fl_error *err) {
  const char *path = in->path;
  int mode = FL_DX_BUILTIN;
  const char *env = getenv("FABRICLINT_DESIGN_RELAXNG");
  if (opts && opts->no_schema)
    mode = FL_DX_LENIENT;
  else if ((opts && opts->relaxng) || (env && env[0] && strcmp(env, "0") != 0))
    mode = FL_DX_RELAXNG;
  (void)path;
  return dx_load(fab, in, mode, NULL, err);
}

/* ---- the format registry row (formats.h) ---- */

/* Root <fabric>, in the fabriclint namespace or with any prefix. */
static uint32_t detect_design_xml(const fl_detect_ctx *c, fl_error *err) {
  (void)err;
  return c->xml_root && (strcmp(c->xml_root, "fabric") == 0 ||
                         strstr(c->xml_root, ":fabric"))
             ? FL_FMT_DESIGN_XML
             : FL_FMT_AUTO;
}

const fl_format_def fl_fmt_design_xml = {FL_FMT_DESIGN_XML,
                                         "design-xml",
                                         "design",
                                         FL_FORMAT_TOPOLOGY | FL_FORMAT_XML,
                                         fl_load_design_xml,
                                         detect_design_xml,
                                         "<fabric> design XML"};
