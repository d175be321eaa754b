/* SPDX-License-Identifier: MIT */
/*
 * tests/unit/test_convert.c — the writers of `fabriclint convert`
 * (fabriclint/write.h): every cable written is the cable of the fabric,
 * end for end.
 *
 * A cable is compared as the text "nameA:portA|nameB:portB|rate" with its
 * ends in a canonical order; the sorted list of a fabric is compared with
 * that of
 *   - the fabric read back from its ibnetdiscover dump, ibsim net file and
 *     design XML (rates and LIDs included), and from its UFM NDT plan (no
 *     rates: NDT has none);
 *   - the DOT graph parsed by libcgraph (agread: node names, tail/head and
 *     the src_port/dst_port/speed attributes);
 *   - the GraphML document parsed by libxml2 (node ids to `name` data,
 *     source/target and the edge data).
 * So a port off by one or a cable written with its ends swapped fails
 * here. Also: the NDT writer quotes a name with a comma (and it reads back),
 * names director front-panel ports, and refuses what NDT cannot say; the
 * CSV cell writer both CSVs share (fl_wr_csv_cell) quotes on every trigger.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include <cgraph.h>
#include <libxml/parser.h>
#include <libxml/tree.h>

#include "fabriclint/gen.h"
#include "fabriclint/load.h"
#include "fabriclint/write.h"
#include "io/write_common.h"

/* ---- cables as sorted text ------------------------------------------------
 */

typedef struct cables {
  char **v;
  size_t n, cap;
} cables;

static void cables_add(cables *c, const char *a, const char *pa, const char *b,
                       const char *pb, const char *rate) {
  char buf[512];
  int swap = strcmp(a, b) > 0 || (strcmp(a, b) == 0 && strcmp(pa, pb) > 0);
  snprintf(buf, sizeof buf, "%s:%s|%s:%s|%s", swap ? b : a, swap ? pb : pa,
           swap ? a : b, swap ? pa : pb, rate);
  if (c->n == c->cap) {
    c->cap = c->cap ? 2 * c->cap : 64;
    c->v = realloc(c->v, c->cap * sizeof *c->v);
    assert_non_null(c->v);
  }
  c->v[c->n] = strdup(buf);
  assert_non_null(c->v[c->n]);
  c->n++;
}

static int cmp_str(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

static void cables_sort(cables *c) {
  qsort(c->v, c->n, sizeof *c->v, cmp_str);
}

static void cables_free(cables *c) {
  for (size_t i = 0; i < c->n; i++)
    free(c->v[i]);
  free(c->v);
  memset(c, 0, sizeof *c);
}

static void assert_same(cables *want, cables *got) {
  cables_sort(want);
  cables_sort(got);
  for (size_t i = 0; i < want->n && i < got->n; i++)
    if (strcmp(want->v[i], got->v[i]) != 0) {
      fprintf(stderr, "cable %zu: want %s, got %s\n", i, want->v[i], got->v[i]);
      fail();
    }
  assert_int_equal(want->n, got->n);
}

/* The cables of @fab; @rates 0 leaves the rate out (NDT). */
static void fabric_cables(const fl_fabric *fab, int rates, cables *c) {
  for (fl_id l = 0; l < fl_fabric_link_count(fab); l++) {
    fl_id pa = fl_fabric_link_port(fab, l, 0),
          pb = fl_fabric_link_port(fab, l, 1);
    char na[16], nb[16], r[32] = "";
    snprintf(na, sizeof na, "%u", fl_fabric_port_num(fab, pa));
    snprintf(nb, sizeof nb, "%u", fl_fabric_port_num(fab, pb));
    if (rates)
      snprintf(r, sizeof r, "%ux%s", fl_fabric_link_width(fab, l),
               fl_speed_name(fl_fabric_link_speed(fab, l)));
    cables_add(c, fl_fabric_node_name(fab, fl_fabric_port_node(fab, pa)), na,
               fl_fabric_node_name(fab, fl_fabric_port_node(fab, pb)), nb, r);
  }
}

/* ---- fixtures --------------------------------------------------------------
 */

typedef struct state {
  fl_fabric *fab; /* 1 SU x 4 hosts x 4 rails, HDR, with LIDs */
  char dir[64];
} state;

static int setup(void **st) {
  state *s = calloc(1, sizeof *s);
  fl_gen_rail_su_params p = {0};
  fl_error err;
  fl_error_clear(&err);
  p.sus = 1;
  p.hosts_per_su = 4;
  p.rails = 4;
  p.leaf_radix = 16;
  p.speed = FL_SPEED_HDR;
  if (!s || fl_gen_rail_su(&p, &s->fab, &err) != FL_OK)
    return -1;
  snprintf(s->dir, sizeof s->dir, "/tmp/fl-test-convert.XXXXXX");
  if (!mkdtemp(s->dir))
    return -1;
  *st = s;
  return 0;
}

static int teardown(void **st) {
  state *s = *st;
  char cmd[128];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", s->dir);
  if (system(cmd) != 0)
    fprintf(stderr, "could not remove %s\n", s->dir);
  fl_fabric_free(s->fab);
  free(s);
  return 0;
}

typedef int (*write_fn)(const fl_fabric *, FILE *, fl_error *);

/* Write @fab with @w into DIR/@name; returns the path (static buffer). */
static const char *write_to(const state *s, const fl_fabric *fab, write_fn w,
                            const char *name) {
  static char path[128];
  fl_error err;
  fl_error_clear(&err);
  snprintf(path, sizeof path, "%s/%s", s->dir, name);
  FILE *f = fopen(path, "w");
  assert_non_null(f);
  int rc = w(fab, f, &err);
  if (rc != FL_OK)
    fprintf(stderr, "write %s: %s\n", name, err.message);
  assert_int_equal(rc, FL_OK);
  assert_int_equal(fclose(f), 0);
  return path;
}

static fl_fabric *load(const char *path, uint32_t fmt) {
  fl_fabric *fab = fl_fabric_new();
  fl_error err;
  fl_error_clear(&err);
  int rc = fl_fabric_load(fab, path, fmt, NULL, &err);
  if (rc == FL_OK)
    rc = fl_fabric_finalize(fab, &err);
  if (rc != FL_OK)
    fprintf(stderr, "load %s: %s:%u:%u: %s\n", path, err.file, err.line,
            err.col, err.message);
  assert_int_equal(rc, FL_OK);
  return fab;
}

/* Written with @w, read back as @fmt: the same cables (rates when @rates). */
static void round_trip(const state *s, write_fn w, const char *name,
                       uint32_t fmt, int rates) {
  cables want = {0}, got = {0};
  fl_fabric *back = load(write_to(s, s->fab, w, name), fmt);
  assert_int_equal(fl_fabric_node_count(back), fl_fabric_node_count(s->fab));
  assert_int_equal(fl_fabric_link_count(back), 48);
  fabric_cables(s->fab, rates, &want);
  fabric_cables(back, rates, &got);
  assert_same(&want, &got);
  cables_free(&want);
  cables_free(&got);
  fl_fabric_free(back);
}

/* ---- read back by fabriclint ----------------------------------------------
 */

static void test_ibnetdiscover_round_trip(void **st) {
  state *s = *st;
  round_trip(s, fl_write_ibnetdiscover, "f.ibnetdiscover", FL_FMT_IBNETDISCOVER,
             1);
  /* LIDs too: every CA port keeps its LID */
  fl_fabric *back = load(write_to(s, s->fab, fl_write_ibnetdiscover, "g.ibnd"),
                         FL_FMT_IBNETDISCOVER);
  for (fl_id n = 0; n < fl_fabric_node_count(s->fab); n++) {
    fl_id m = fl_fabric_find_node_name(back, fl_fabric_node_name(s->fab, n));
    assert_int_not_equal(m, FL_NONE);
    assert_int_equal(fl_fabric_node_guid(back, m),
                     fl_fabric_node_guid(s->fab, n));
    fl_id p = fl_fabric_find_port(s->fab, n, 1);
    fl_id q = fl_fabric_find_port(back, m, 1);
    if (fl_fabric_node_kind(s->fab, n) == FL_NODE_CA)
      assert_int_equal(fl_fabric_port_lid(back, q),
                       fl_fabric_port_lid(s->fab, p));
  }
  fl_fabric_free(back);
}

static void test_ibsim_round_trip(void **st) {
  round_trip(*st, fl_write_ibsim_net, "f.net", FL_FMT_IBSIM_NET, 1);
}

static void test_design_round_trip(void **st) {
  round_trip(*st, fl_write_design_xml, "f.xml", FL_FMT_DESIGN_XML, 1);
}

static void test_ndt_round_trip(void **st) {
  round_trip(*st, fl_write_ufm_ndt, "f.ndt", FL_FMT_UFM_NDT, 0);
}

/* ---- DOT, parsed by libcgraph -----------------------------------------------
 */

static void test_dot(void **st) {
  state *s = *st;
  FILE *f = fopen(write_to(s, s->fab, fl_write_dot, "f.dot"), "r");
  assert_non_null(f);
  Agraph_t *g = agread(f, NULL);
  fclose(f);
  assert_non_null(g);
  assert_true(agisundirected(g));
  assert_int_equal(agnnodes(g), 22);
  assert_int_equal(agnedges(g), 48);
  cables want = {0}, got = {0};
  for (Agnode_t *v = agfstnode(g); v; v = agnxtnode(g, v)) {
    fl_id n = fl_fabric_find_node_name(s->fab, agnameof(v));
    assert_int_not_equal(n, FL_NONE);
    assert_string_equal(agget(v, (char *)"kind"),
                        fl_node_kind_name(fl_fabric_node_kind(s->fab, n)));
    for (Agedge_t *e = agfstout(g, v); e; e = agnxtout(g, e))
      cables_add(&got, agnameof(agtail(e)), agget(e, (char *)"src_port"),
                 agnameof(aghead(e)), agget(e, (char *)"dst_port"),
                 agget(e, (char *)"speed"));
  }
  agclose(g);
  fabric_cables(s->fab, 1, &want);
  assert_same(&want, &got);
  cables_free(&want);
  cables_free(&got);
}

/* ---- GraphML, parsed by libxml2 ---------------------------------------------
 */

static char *data_of(xmlNodePtr el, const char *key) {
  for (xmlNodePtr c = el->children; c; c = c->next) {
    if (c->type != XML_ELEMENT_NODE || strcmp((const char *)c->name, "data"))
      continue;
    xmlChar *k = xmlGetProp(c, (const xmlChar *)"key");
    int hit = k && strcmp((const char *)k, key) == 0;
    xmlFree(k);
    if (hit)
      return (char *)xmlNodeGetContent(c);
  }
  return strdup("");
}

static void test_graphml(void **st) {
  state *s = *st;
  xmlDocPtr doc =
      xmlReadFile(write_to(s, s->fab, fl_write_graphml, "f.graphml"), NULL,
                  XML_PARSE_NONET);
  assert_non_null(doc);
  xmlNodePtr root = xmlDocGetRootElement(doc);
  assert_string_equal((const char *)root->name, "graphml");
  assert_string_equal((const char *)root->ns->href,
                      "http://graphml.graphdrawing.org/xmlns");
  xmlNodePtr graph = NULL;
  uint32_t keys = 0;
  for (xmlNodePtr c = root->children; c; c = c->next)
    if (c->type == XML_ELEMENT_NODE && !strcmp((const char *)c->name, "graph"))
      graph = c;
    else if (c->type == XML_ELEMENT_NODE)
      keys++;
  assert_non_null(graph);
  assert_int_equal(keys, 10);
  uint32_t nn = fl_fabric_node_count(s->fab), nodes = 0;
  char **name = calloc(nn, sizeof *name);
  cables want = {0}, got = {0};
  for (xmlNodePtr c = graph->children; c; c = c->next) {
    if (c->type != XML_ELEMENT_NODE)
      continue;
    xmlChar *id = xmlGetProp(c, (const xmlChar *)"id");
    if (!strcmp((const char *)c->name, "node")) {
      unsigned k = (unsigned)atoi((const char *)id + 1);
      assert_true(k < nn);
      name[k] = data_of(c, "name");
      assert_string_equal(name[k], fl_fabric_node_name(s->fab, k));
      nodes++;
    } else {
      xmlChar *a = xmlGetProp(c, (const xmlChar *)"source");
      xmlChar *b = xmlGetProp(c, (const xmlChar *)"target");
      char *pa = data_of(c, "src_port"), *pb = data_of(c, "dst_port");
      char *r = data_of(c, "speed");
      cables_add(&got, name[atoi((const char *)a + 1)], pa,
                 name[atoi((const char *)b + 1)], pb, r);
      xmlFree(a);
      xmlFree(b);
      free(pa);
      free(pb);
      free(r);
    }
    xmlFree(id);
  }
  assert_int_equal(nodes, 22);
  fabric_cables(s->fab, 1, &want);
  assert_same(&want, &got);
  for (uint32_t i = 0; i < nn; i++)
    free(name[i]);
  free(name);
  cables_free(&want);
  cables_free(&got);
  xmlFreeDoc(doc);
}

/* ---- NDT specifics
 * ------------------------------------------------------------ */

static fl_fabric *load_text(const state *s, const char *name,
                            const char *text) {
  char path[128];
  snprintf(path, sizeof path, "%s/%s", s->dir, name);
  FILE *f = fopen(path, "w");
  assert_non_null(f);
  fputs(text, f);
  fclose(f);
  return load(path, FL_FMT_AUTO);
}

static char *slurp(const char *path) {
  FILE *f = fopen(path, "r");
  assert_non_null(f);
  static char buf[4096];
  size_t n = fread(buf, 1, sizeof buf - 1, f);
  buf[n] = '\0';
  fclose(f);
  return buf;
}

static void test_ndt_quoting_and_limits(void **st) {
  state *s = *st;
  fl_fabric *fab =
      load_text(s, "q.xml",
                "<fabric xmlns=\"urn:fabriclint:design:1\" version=\"1\">\n"
                "<node kind=\"switch\" name=\"leaf, &quot;a&quot;\"/>\n"
                "<node kind=\"switch\" name=\"spine\"/>\n"
                "<node kind=\"ca\" name=\"h1 mlx5_0\"/>\n"
                "<link a=\"h1 mlx5_0\" a-port=\"1\" b=\"leaf, &quot;a&quot;\" "
                "b-port=\"3\" width=\"4x\" speed=\"NDR\"/>\n"
                "<link a=\"leaf, &quot;a&quot;\" a-port=\"33\" b=\"spine\" "
                "b-port=\"7\" length=\"3\"/>\n"
                "</fabric>\n");
  const char *path = write_to(s, fab, fl_write_ufm_ndt, "q.ndt");
  assert_string_equal(
      slurp(path),
      "#StartDevice,StartPort,EndDevice,EndPort,LinkType,Cable Length\n"
      "\"leaf, \"\"a\"\"\",Port 33,spine,Port 7,Data,3\n"
      "h1,h1 mlx5_0,\"leaf, \"\"a\"\"\",Port 3,Data,\n");
  cables want = {0}, got = {0};
  fl_fabric *back = load(path, FL_FMT_UFM_NDT);
  fabric_cables(fab, 0, &want);
  fabric_cables(back, 0, &got);
  assert_same(&want, &got);
  cables_free(&want);
  cables_free(&got);
  fl_fabric_free(back);
  fl_fabric_free(fab);

  /* HCA port 2 and a host name without a blank: refused, named */
  fl_error err;
  fl_error_clear(&err);
  fab =
      load_text(s, "p2.xml",
                "<fabric xmlns=\"urn:fabriclint:design:1\" version=\"1\">\n"
                "<node kind=\"switch\" name=\"leaf\"/>\n"
                "<node kind=\"ca\" name=\"h1 mlx5_0\"/>\n"
                "<link a=\"h1 mlx5_0\" a-port=\"2\" b=\"leaf\" b-port=\"1\"/>\n"
                "</fabric>\n");
  FILE *devnull = fopen("/dev/null", "w");
  assert_int_equal(fl_write_ufm_ndt(fab, devnull, &err), FL_EINVAL);
  assert_non_null(strstr(err.message, "port 2 of \"h1 mlx5_0\""));
  fl_fabric_free(fab);
  fl_error_clear(&err);
  fab = load_text(s, "nb.xml",
                  "<fabric xmlns=\"urn:fabriclint:design:1\" version=\"1\">\n"
                  "<node kind=\"switch\" name=\"leaf\"/>\n"
                  "<node kind=\"ca\" name=\"node17\"/>\n"
                  "<link a=\"node17\" a-port=\"1\" b=\"leaf\" b-port=\"1\"/>\n"
                  "</fabric>\n");
  assert_int_equal(fl_write_ufm_ndt(fab, devnull, &err), FL_EINVAL);
  assert_non_null(strstr(err.message, "host \"node17\""));
  fl_fabric_free(fab);
  fclose(devnull);
}

/* fl_wr_csv_cell(): cell @in is written as @want. */
static void cell_is(const char *in, const char *want) {
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  assert_non_null(f);
  fl_wr_csv_cell(f, in);
  fclose(f);
  assert_string_equal(buf, want);
  free(buf);
}

/* The one CSV cell writer (NDT plan, diff work order): RFC 4180 quoting on
 * a comma, a quote, CR, LF and outer blanks; nothing else quoted. */
static void test_csv_cell(void **st) {
  (void)st;
  cell_is("", "");
  cell_is("leaf-01", "leaf-01");
  cell_is("dgx-001 mlx5_0", "dgx-001 mlx5_0");
  cell_is("Blade 01_Port 1/2", "Blade 01_Port 1/2");
  cell_is("a,b", "\"a,b\"");
  cell_is("5\" rack", "\"5\"\" rack\"");
  cell_is("\"", "\"\"\"\"");
  cell_is("row\n2", "\"row\n2\"");
  cell_is("row\r2", "\"row\r2\"");
  cell_is("row\r\n2", "\"row\r\n2\"");
  cell_is(" Data", "\" Data\"");
  cell_is("Data\t", "\"Data\t\"");
  cell_is("leaf \"r1\",\nrow 2", "\"leaf \"\"r1\"\",\nrow 2\"");
}

/* OWASP CSV injection: a cell a spreadsheet would read as a formula (it
 * begins with = + - @ tab or CR, after any single quotes) gets one single
 * quote before it and is quoted; the same character later in a cell, or a
 * quote before anything else, is left alone. */
static void test_csv_cell_formula(void **st) {
  (void)st;
  cell_is("=HYPERLINK(\"http://x/\",\"ok\")",
          "\"'=HYPERLINK(\"\"http://x/\"\",\"\"ok\"\")\"");
  cell_is("=1+1", "\"'=1+1\"");
  cell_is("+1", "\"'+1\"");
  cell_is("-1", "\"'-1\"");
  cell_is("@SUM(1+1)*cmd|' /C calc'!A0", "\"'@SUM(1+1)*cmd|' /C calc'!A0\"");
  cell_is("\t=1", "\"'\t=1\"");
  cell_is("\r=1", "\"'\r=1\"");
  cell_is("'=1", "\"''=1\""); /* read back as '=1 (one quote taken off) */
  cell_is("''-x", "\"'''-x\"");
  cell_is("=", "\"'=\"");
  cell_is("a=1", "a=1");
  cell_is("leaf-01", "leaf-01");
  cell_is("'a", "'a");
  cell_is("'", "'");
  cell_is(" =1", "\" =1\""); /* a blank first: quoted, not a formula */
}

/* The director dump: front-panel names on the chassis, no internal cable. */
static void test_ndt_director(void **st) {
  state *s = *st;
  fl_fabric *fab = load(
      FL_SOURCE_DIR "/fabrics/director/director.ibnetdiscover", FL_FMT_AUTO);
  const char *text = slurp(write_to(s, fab, fl_write_ufm_ndt, "d.ndt"));
  uint32_t rows = 0, blades = 0;
  for (const char *p = text; (p = strchr(p, '\n')) != NULL; p++)
    rows++;
  for (const char *p = text; (p = strstr(p, "ufm-director,Blade ")) != NULL;
       p++)
    blades++;
  assert_int_equal(rows, 1 + 32);   /* header, 16 switch rows, 16 host rows */
  assert_int_equal(blades, 16);     /* every leaf uplink lands on a blade */
  assert_null(strstr(text, "/S0")); /* no spine ASIC: internal cables */
  assert_non_null(strstr(text, "\nleaf-02,Port 21,ufm-director,Blade 01_Port "
                               "1/2,Data\n"));
  assert_non_null(strstr(text, "\nufm-director,Blade 01_Port 1/1,leaf-01,Port "
                               "21,Data\n"));
  fl_fabric_free(fab);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_ibnetdiscover_round_trip),
      cmocka_unit_test(test_ibsim_round_trip),
      cmocka_unit_test(test_design_round_trip),
      cmocka_unit_test(test_ndt_round_trip),
      cmocka_unit_test(test_dot),
      cmocka_unit_test(test_graphml),
      cmocka_unit_test(test_ndt_quoting_and_limits),
      cmocka_unit_test(test_csv_cell),
      cmocka_unit_test(test_csv_cell_formula),
      cmocka_unit_test(test_ndt_director),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
