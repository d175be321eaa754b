/* SPDX-License-Identifier: MIT */
/*
 * tests/fuzz/fuzz_pictures.c — pictures and reports of small fuzzed
 * fabrics: the SVG and the HTML report (core/report/pic_*.c, report_html.c
 * and Graphviz's layout through pic_graphviz.c), the JUnit and SARIF
 * reports (report_junit.c, report_sarif.c). No harness drew pictures
 * before issue #32, and a picture of any fabric with a same-tier cable
 * aborted in Graphviz's layout free (case 1).
 *
 * Selector byte: (k % 4) the view, '0' tiers, '1' rails, '2' load,
 * '3' domains; (k / 4 % 2) the input format, DOT (dot_topo.c, where a
 * fuzzed cable may join any two nodes) or design XML (design_xml.c, the
 * format of `fabriclint gen`); (k / 8 % 2) the picture, SVG or the HTML
 * report ('8'..'?'). The rest of the input is the file.
 *
 * The last cable of the fabric is named by a warning, as
 * topology.same-tier-link names the cable it finds, and one error names
 * the first node, so the findings' colours, labels, tooltips and notes
 * are drawn; a third rule could not run, with the first node's name in its
 * message. Every output goes to a memory stream; a refusal (-1) is
 * allowed, a crash, a leak or an ill-formed output is a finding:
 *  - SVG: ends with </svg>, holds no U+FFFE/U+FFFF (not XML characters;
 *    case 14);
 *  - HTML: ends with </html>, one <script> element, and the same for its
 *    inline SVG;
 *  - both: no node name with a '<' and no finding message appears as it
 *    is (unescaped: markup from the input);
 *  - JUnit: parses as XML (libxml2, no recovery), root <testsuites>;
 *  - SARIF: parses as JSON (jansson), version "2.1.0".
 * The reports are written for every accepted fabric; the pictures only up
 * to FZ_PIC_NODES nodes: Graphviz's layout time grows fast and the harness
 * runs with -timeout=10.
 */
#define _GNU_SOURCE /* memmem */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>
#include <libxml/parser.h>

#include "fabriclint/error.h"
#include "fuzz.h"
#include "host/findings.h"
#include "report/picture.h"
#include "report/report.h"

#define FZ_PIC_NODES 64
/* every finding's message: it must never appear unescaped */
#define FZ_MESSAGE "fuzzed finding <&\"'>"

/* Graphviz 2.43 (Debian 12) leaks the cells of HTML-like labels (graphviz
 * issue 1908), in memory fabriclint never owns: suppressed as the CLI's
 * sanitizer builds do (core/cli/cli_lsan.c, which says why by library). A
 * leak of fabriclint's own memory is still a finding. */
#if defined(__SANITIZE_ADDRESS__)
#define FZ_LSAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define FZ_LSAN 1
#endif
#endif
#ifdef FZ_LSAN
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void) {
  return "leak:libgvc.so\n";
}
/* as core/cli/cli_lsan.c: the "Suppressions used" summary is no report,
 * but it lands in the sanitizer log folder CI requires to stay empty */
const char *__lsan_default_options(void);
const char *__lsan_default_options(void) {
  return "print_suppressions=0";
}
#endif

static char *dup_or_die(const char *s) {
  char *d = strdup(s ? s : "");
  if (!d)
    abort();
  return d;
}

/* A finding of rule @rule naming @np ports (@nodes[i], @ports[i]) and,
 * when @node, that node. */
static void add_finding(fl_findings *fs, const char *rule, uint32_t sev,
                        const char *node, const char *const *nodes,
                        const uint32_t *ports, uint32_t np) {
  fl_finding_rec r;
  memset(&r, 0, sizeof r);
  r.rule = dup_or_die(rule);
  r.severity = sev;
  r.message = dup_or_die(FZ_MESSAGE);
  r.key = dup_or_die(rule);
  r.nodes = calloc(2, sizeof *r.nodes);
  r.ports = calloc(np + 1, sizeof *r.ports);
  if (!r.nodes || !r.ports)
    abort();
  if (node) {
    r.nodes[0] = dup_or_die(node);
    r.n_nodes = 1;
  }
  for (uint32_t i = 0; i < np; i++)
    r.ports[i] = (fl_port_name){dup_or_die(nodes[i]), ports[i], NULL};
  r.n_ports = np;
  if (fl_findings_push(fs, &r) != 0)
    abort();
}

/* One error on the first node, one warning on the last cable (as
 * topology.same-tier-link names the extra cable `gen --extra-leaf-link`
 * adds last; the fuzzer moves any cable there). Marking every cable would
 * draw every CA alone and fold cables into bundles, a different path. */
static void mark(const fl_fabric *fab, fl_findings *fs) {
  if (fl_fabric_node_count(fab))
    add_finding(fs, "fuzz.node", FL_SEV_ERROR, fl_fabric_node_name(fab, 0),
                NULL, NULL, 0);
  uint32_t nl = fl_fabric_link_count(fab);
  if (!nl)
    return;
  fl_id pa = fl_fabric_link_port(fab, nl - 1, 0);
  fl_id pb = fl_fabric_link_port(fab, nl - 1, 1);
  if (pa == FL_NONE || pb == FL_NONE)
    return;
  const char *nodes[2] = {
      fl_fabric_node_name(fab, fl_fabric_port_node(fab, pa)),
      fl_fabric_node_name(fab, fl_fabric_port_node(fab, pb))};
  const uint32_t ports[2] = {fl_fabric_port_num(fab, pa),
                             fl_fabric_port_num(fab, pb)};
  add_finding(fs, "fuzz.cable", FL_SEV_WARNING, NULL, nodes, ports, 2);
}

static void bad(const char *what, const char *detail) {
  fprintf(stderr, "fuzz: %s%s%s\n", what, detail ? ": " : "",
          detail ? detail : "");
  abort();
}

/* 1 when @out (@len bytes) ends with @end, blanks after it aside. */
static int ends_with(const char *out, size_t len, const char *end) {
  size_t k = len, n = strlen(end);
  while (k && (out[k - 1] == '\n' || out[k - 1] == ' '))
    k--;
  return k >= n && memcmp(out + k - n, end, n) == 0;
}

static size_t count(const char *out, size_t len, const char *what) {
  size_t n = 0, w = strlen(what);
  for (const char *p = out; (p = memmem(p, len - (size_t)(p - out), what, w));
       p += w)
    n++;
  return n;
}

/* Abort when a node name holding '<', or the findings' message, appears
 * in @out as it is: text of the input written as markup. */
static void check_escaped(const fl_fabric *fab, const char *out, size_t len,
                          const char *format) {
  if (memmem(out, len, FZ_MESSAGE, strlen(FZ_MESSAGE)))
    bad(format, "a finding's message unescaped");
  for (uint32_t n = 0; n < fl_fabric_node_count(fab); n++) {
    const char *name = fl_fabric_node_name(fab, n);
    if (name && strchr(name, '<') && memmem(out, len, name, strlen(name)))
      bad(format, "a node name with '<' unescaped");
  }
}

/* Abort unless @svg (@len bytes) is an SVG document with XML characters. */
static void check_svg(const char *svg, size_t len) {
  if (!ends_with(svg, len, "</svg>"))
    bad("the SVG does not end with </svg>", NULL);
  for (size_t i = 0; i + 2 < len; i++)
    if ((unsigned char)svg[i] == 0xef && (unsigned char)svg[i + 1] == 0xbf &&
        ((unsigned char)svg[i + 2] & 0xfe) == 0xbe) {
      fprintf(stderr, "fuzz: U+FFFE/U+FFFF in the SVG at byte %zu\n", i);
      abort();
    }
}

/* Abort unless @html is one page: </html> last, one script element, and
 * the inline SVG (when drawn) as check_svg() wants it. */
static void check_html(const char *html, size_t len) {
  if (!ends_with(html, len, "</html>"))
    bad("the HTML report does not end with </html>", NULL);
  if (count(html, len, "<script") != 1 || count(html, len, "</script") != 1)
    bad("the HTML report does not hold exactly one script element", NULL);
  const char *a = memmem(html, len, "<svg", 4);
  if (!a)
    return;
  const char *z = memmem(a, len - (size_t)(a - html), "</svg>", 6);
  if (!z)
    bad("the HTML report's SVG has no </svg>", NULL);
  check_svg(a, (size_t)(z - a) + 6);
}

/* Abort unless @xml is a JUnit document libxml2 parses without recovery. */
static void check_junit(const char *xml, size_t len) {
  xmlDocPtr doc =
      xmlReadMemory(xml, (int)len, "junit.xml", NULL,
                    XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
  if (!doc) {
    const xmlError *e = xmlGetLastError();
    bad("the JUnit report is not XML", e && e->message ? e->message : NULL);
  }
  xmlNodePtr root = xmlDocGetRootElement(doc);
  int ok = root && strcmp((const char *)root->name, "testsuites") == 0;
  xmlFreeDoc(doc);
  if (!ok)
    bad("the JUnit report's root is not <testsuites>", NULL);
}

/* Abort unless @json is a SARIF 2.1.0 log jansson parses. */
static void check_sarif(const char *json, size_t len) {
  json_error_t e;
  json_t *j = json_loadb(json, len, 0, &e);
  if (!j)
    bad("the SARIF report is not JSON", e.text);
  const char *v = json_string_value(json_object_get(j, "version"));
  int ok = v && strcmp(v, "2.1.0") == 0;
  json_decref(j);
  if (!ok)
    bad("the SARIF report's version is not 2.1.0", NULL);
}

/* Render @in with @writer into a buffer; returns the writer's code, the
 * output in *@buf (free it) and *@len. FZ_PIC_DUMP=FILE keeps the last
 * one, to look at a reproducer's output. */
static int render(int (*writer)(FILE *, const fl_report_input *),
                  const fl_report_input *in, char **buf, size_t *len) {
  *buf = NULL;
  *len = 0;
  FILE *out = open_memstream(buf, len);
  if (!out)
    abort();
  int rc = writer(out, in);
  if (fclose(out) != 0)
    abort();
  if (getenv("FZ_PIC_DUMP")) {
    FILE *d = fopen(getenv("FZ_PIC_DUMP"), "w");
    if (d) {
      fwrite(*buf, 1, *len, d);
      fclose(d);
    }
  }
  return rc;
}

/* @view drawn as SVG, or as the HTML report when @html; with @pictures 0
 * only the JUnit and SARIF reports. */
static void draw(const fl_fabric *fab, uint32_t view, int html, int pictures) {
  fl_findings fs = {0};
  mark(fab, &fs);
  const char *first =
      fl_fabric_node_count(fab) ? fl_fabric_node_name(fab, 0) : "no node";
  char failed[256];
  snprintf(failed, sizeof failed, "could not judge %s", first ? first : "");
  /* the rules that ran, sorted by id, as the host gives them */
  fl_report_rule rules[3] = {
      {"fuzz.cable", "a cable <&>", "help *of* a <rule>", FL_SEV_WARNING, 0,
       NULL, NULL},
      {"fuzz.failed", "a rule that could not run", NULL, FL_SEV_ERROR, 1,
       failed, NULL},
      {"fuzz.node", "a node", NULL, FL_SEV_ERROR, 0, NULL,
       "https://example.invalid/docs/rules/fuzz.md#node"},
  };
  fl_fabric_counts counts;
  fl_fabric_counts_of(fab, &counts);
  fl_report_picture pic;
  memset(&pic, 0, sizeof pic);
  pic.fab = fab;
  pic.views[0] = view;
  pic.n_views = 1;
  static const char *const INPUTS[] = {"fuzz-input"};
  fl_report_input in;
  memset(&in, 0, sizeof in);
  in.fs = &fs;
  in.counts = &counts;
  in.rules = rules;
  in.n_rules = 3;
  in.rules_run = 3;
  in.inputs = INPUTS;
  in.n_inputs = 1;
  in.fail_on = 4;
  in.picture = &pic;
  char *buf;
  size_t len;
  if (render(fl_report_junit, &in, &buf, &len) == 0)
    check_junit(buf, len);
  free(buf);
  if (render(fl_report_sarif, &in, &buf, &len) == 0)
    check_sarif(buf, len);
  free(buf);
  if (pictures) {
    int rc = render(html ? fl_report_html : fl_report_svg, &in, &buf, &len);
    if (rc == 0) {
      if (html)
        check_html(buf, len);
      else
        check_svg(buf, len);
      check_escaped(fab, buf, len, html ? "the HTML report" : "the SVG");
    }
    free(buf);
  }
  fl_findings_free(&fs);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static const uint32_t VIEWS[4] = {FL_VIEW_TIERS, FL_VIEW_RAILS, FL_VIEW_LOAD,
                                    FL_VIEW_DOMAINS};
  static const uint32_t FMTS[2] = {FL_FMT_DOT, FL_FMT_DESIGN_XML};
  unsigned v = fz_select(&data, &size, 16);
  fl_fabric *fab = fl_fabric_new();
  if (!fab)
    abort();
  int rc = fz_load(fab, 0, data, size, FMTS[v / 4 % 2], NULL);
  if (rc == FL_OK)
    rc = fz_finalize(fab);
  fz_set_outcome(rc == FL_OK);
  if (rc == FL_OK)
    draw(fab, VIEWS[v % 4], v / 8 != 0,
         fl_fabric_node_count(fab) <= FZ_PIC_NODES);
  fl_fabric_free(fab);
  return 0;
}
