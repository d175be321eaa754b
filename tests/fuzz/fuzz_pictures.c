/*
 * tests/fuzz/fuzz_pictures.c — pictures (core/report/pic_*.c and Graphviz's
 * layout through pic_graphviz.c) of small fuzzed fabrics: no harness drew
 * pictures before issue #32, and a picture of any fabric with a same-tier
 * cable aborted in Graphviz's layout free (case 1).
 *
 * Selector byte: (k % 4) the view, '0' tiers, '1' rails, '2' load,
 * '3' domains; (k / 4 % 2) the input format, DOT (dot_topo.c, where a
 * fuzzed cable may join any two nodes) or design XML (design_xml.c, the
 * format of `fabriclint gen`). The rest of the input is the file.
 *
 * The last cable of the fabric is named by a warning, as
 * topology.same-tier-link names the cable it finds, and one error names
 * the first node, so the findings' colours, labels, tooltips and notes
 * are drawn. The SVG
 * goes to a memory stream; a refusal (-1) is allowed, a crash, a leak or
 * an ill-formed SVG is a finding: the SVG must end with </svg> and hold no
 * U+FFFE/U+FFFF (not XML characters; case 14). Fabrics above FZ_PIC_NODES
 * nodes are skipped: Graphviz's layout time grows fast and the harness
 * runs with -timeout=10.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabriclint/error.h"
#include "fuzz.h"
#include "host/findings.h"
#include "report/picture.h"
#include "report/report.h"

#define FZ_PIC_NODES 64

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
  r.message = dup_or_die("fuzzed finding <&\"'>");
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

/* Abort unless @svg (@len bytes) is an SVG document with XML characters. */
static void check_svg(const char *svg, size_t len) {
  const char *end = "</svg>";
  size_t k = len;
  while (k && (svg[k - 1] == '\n' || svg[k - 1] == ' '))
    k--;
  if (k < strlen(end) || memcmp(svg + k - strlen(end), end, strlen(end)) != 0) {
    fprintf(stderr, "fuzz: the SVG does not end with </svg>\n");
    abort();
  }
  for (size_t i = 0; i + 2 < len; i++)
    if ((unsigned char)svg[i] == 0xef && (unsigned char)svg[i + 1] == 0xbf &&
        ((unsigned char)svg[i + 2] & 0xfe) == 0xbe) {
      fprintf(stderr, "fuzz: U+FFFE/U+FFFF in the SVG at byte %zu\n", i);
      abort();
    }
}

static void draw(const fl_fabric *fab, uint32_t view) {
  fl_findings fs = {0};
  mark(fab, &fs);
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
  in.inputs = INPUTS;
  in.n_inputs = 1;
  in.fail_on = 4;
  in.picture = &pic;
  char *buf = NULL;
  size_t len = 0;
  FILE *out = open_memstream(&buf, &len);
  if (!out)
    abort();
  int rc = fl_report_svg(out, &in);
  if (fclose(out) != 0)
    abort();
  if (getenv("FZ_PIC_DUMP")) {
    FILE *d = fopen(getenv("FZ_PIC_DUMP"), "w");
    if (d) {
      fwrite(buf, 1, len, d);
      fclose(d);
    }
  }
  if (rc == 0)
    check_svg(buf, len);
  free(buf);
  fl_findings_free(&fs);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static const uint32_t VIEWS[4] = {FL_VIEW_TIERS, FL_VIEW_RAILS, FL_VIEW_LOAD,
                                    FL_VIEW_DOMAINS};
  static const uint32_t FMTS[2] = {FL_FMT_DOT, FL_FMT_DESIGN_XML};
  unsigned v = fz_select(&data, &size, 8);
  fl_fabric *fab = fl_fabric_new();
  if (!fab)
    abort();
  int rc = fz_load(fab, 0, data, size, FMTS[v / 4], NULL);
  if (rc == FL_OK)
    rc = fz_finalize(fab);
  fz_set_outcome(rc == FL_OK);
  if (rc == FL_OK && fl_fabric_node_count(fab) <= FZ_PIC_NODES)
    draw(fab, VIEWS[v % 4]);
  fl_fabric_free(fab);
  return 0;
}
