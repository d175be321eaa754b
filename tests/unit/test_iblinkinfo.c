/* SPDX-License-Identifier: MIT */
/*
 * tests/unit/test_iblinkinfo.c — the iblinkinfo loader (core/io/iblinkinfo.c).
 *
 * The real captures are tests/fixtures/iblinkinfo/ (its make.sh: ibsim +
 * OpenSM on fabrics/fat-tree-2tier.net, then ibnetdiscover and iblinkinfo
 * through ibsim-run). Expected counts were taken independently of the
 * parser: in clean/ibnetdiscover `grep -c '^Switch'` = 24, `grep -c '^Ca'`
 * = 128, `grep -c '^\['` = 512 (each cable twice: 256 cables; 512 cabled
 * ports + 24 switch ports 0 = 536 port records); in the iblinkinfo captures
 * `grep -c '==('` = 512 port lines (faults/: 4 of them without a far end:
 * `grep -c 'Down/ Polling\|Port not available'` = 4). Every form must give
 * the same cables as ibnetdiscover of the same simulation, cable by cable.
 *
 * Small inputs for what ibsim cannot produce (Down/Disabled, FDR10, NDR/XDR
 * words, a dual-port HCA) and broken inputs are inline fixtures, each line
 * in iblinkinfo's own printf layout.
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

#include "tmpdir.h"

#include "fabriclint/fabric.h"
#include "fabriclint/load.h"
#include "fabriclint/routing.h"

#define FX(p) FL_SOURCE_DIR "/tests/fixtures/iblinkinfo/" p

static fl_fabric *load_map(const char *path, uint32_t fmt, const char *map,
                           fl_error *err) {
  fl_fabric *fab = fl_fabric_new();
  assert_non_null(fab);
  fl_load_options o;
  memset(&o, 0, sizeof o);
  o.node_name_map = map;
  fl_error_clear(err);
  int rc = fl_fabric_load(fab, path, fmt, &o, err);
  if (rc == FL_OK)
    rc = fl_fabric_finalize(fab, err);
  if (rc != FL_OK) {
    fl_fabric_free(fab);
    return NULL;
  }
  return fab;
}

static fl_fabric *load_ok(const char *path) {
  fl_error err;
  fl_fabric *fab = load_map(path, FL_FMT_AUTO, NULL, &err);
  if (!fab) {
    char buf[2048];
    fprintf(stderr, "load %s: %s\n", path,
            fl_error_format(&err, buf, sizeof buf));
  }
  assert_non_null(fab);
  return fab;
}

/* Loading must fail with FL_EPARSE at @line (and @col when non-zero) with a
 * message containing @needle. */
static void load_fails(const char *path, uint32_t line, uint32_t col,
                       const char *needle) {
  fl_error err;
  fl_fabric *fab = load_map(path, FL_FMT_IBLINKINFO, NULL, &err);
  assert_null(fab);
  if (err.line != line || (col && err.col != col) ||
      !strstr(err.message, needle))
    fprintf(stderr, "%s: got %u:%u: %s\n", path, err.line, err.col,
            err.message);
  assert_int_equal(err.code, FL_EPARSE);
  assert_int_equal(err.line, line);
  if (col)
    assert_int_equal(err.col, col);
  assert_non_null(strstr(err.message, needle));
}

static fl_id named(const fl_fabric *fab, const char *name) {
  fl_id n = fl_fabric_find_node_name(fab, name);
  if (n == FL_NONE)
    fprintf(stderr, "no node %s\n", name);
  assert_int_not_equal(n, FL_NONE);
  return n;
}

static fl_id port_of(const fl_fabric *fab, const char *name, uint32_t num) {
  fl_id p = fl_fabric_find_port(fab, named(fab, name), num);
  assert_int_not_equal(p, FL_NONE);
  return p;
}

static const char *state_of(const fl_fabric *fab, const char *name,
                            uint32_t num) {
  return fl_fabric_attr(fab, FL_ENT_PORT, port_of(fab, name, num), "state");
}

/* The only link of port @num of @name. */
static fl_id link_of(const fl_fabric *fab, const char *name, uint32_t num) {
  fl_id p = port_of(fab, name, num);
  assert_int_equal(fl_fabric_port_link_count(fab, p), 1);
  return fl_fabric_port_link(fab, p, 0);
}

static int cmp_str(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every cable as "a:p b:q WxS flags" (ends in name order), sorted. */
static char **cables(const fl_fabric *fab) {
  uint32_t n = fl_fabric_link_count(fab);
  char **v = calloc(n + 1, sizeof *v);
  assert_non_null(v);
  for (fl_id l = 0; l < n; l++) {
    char e[2][160];
    for (uint32_t k = 0; k < 2; k++) {
      fl_id p = fl_fabric_link_port(fab, l, k);
      snprintf(e[k], sizeof e[k], "%s:%u",
               fl_fabric_node_name(fab, fl_fabric_port_node(fab, p)),
               fl_fabric_port_num(fab, p));
    }
    int swap = strcmp(e[0], e[1]) > 0;
    v[l] = malloc(400);
    assert_non_null(v[l]);
    snprintf(v[l], 400, "%s %s %ux%s %x", e[swap], e[!swap],
             fl_fabric_link_width(fab, l),
             fl_speed_name(fl_fabric_link_speed(fab, l)),
             fl_fabric_link_flags(fab, l));
  }
  qsort(v, n, sizeof *v, cmp_str);
  return v;
}

static void free_cables(char **v) {
  for (char **p = v; *p; p++)
    free(*p);
  free(v);
}

/* @got and @want have the same nodes by kind and the same cables; @extra
 * more port records in @got (ports iblinkinfo lists without a cable). */
static void same_fabric(const fl_fabric *got, const fl_fabric *want,
                        uint32_t extra_ports) {
  assert_int_equal(fl_fabric_node_count(got), fl_fabric_node_count(want));
  assert_int_equal(fl_fabric_count_kind(got, FL_NODE_SWITCH),
                   fl_fabric_count_kind(want, FL_NODE_SWITCH));
  assert_int_equal(fl_fabric_count_kind(got, FL_NODE_CA),
                   fl_fabric_count_kind(want, FL_NODE_CA));
  assert_int_equal(fl_fabric_port_count(got),
                   fl_fabric_port_count(want) + extra_ports);
  assert_int_equal(fl_fabric_link_count(got), fl_fabric_link_count(want));
  char **a = cables(got), **b = cables(want);
  for (uint32_t i = 0; i < fl_fabric_link_count(got); i++)
    assert_string_equal(a[i], b[i]);
  free_cables(a);
  free_cables(b);
}

/* ---- real captures ------------------------------------------------------- */

static const char *fx(const char *rel) {
  static char paths[4][1024];
  static int slot;
  char *p = paths[slot++ % 4];
  snprintf(p, 1024, "%s/tests/fixtures/iblinkinfo/%s", FL_SOURCE_DIR, rel);
  return p;
}

static void clean_forms_equal_ibnetdiscover(void **state) {
  (void)state;
  fl_fabric *ibnd = load_ok(fx("clean/ibnetdiscover"));
  assert_int_equal(fl_fabric_count_kind(ibnd, FL_NODE_SWITCH), 24);
  assert_int_equal(fl_fabric_count_kind(ibnd, FL_NODE_CA), 128);
  assert_int_equal(fl_fabric_port_count(ibnd), 536);
  assert_int_equal(fl_fabric_link_count(ibnd), 256);
  static const char *const forms[] = {"clean/iblinkinfo", "clean/iblinkinfo-l",
                                      "clean/iblinkinfo-switches-only",
                                      "clean/iblinkinfo-switches-only-l",
                                      "clean/pre-sm-l.iblinkinfo"};
  for (size_t i = 0; i < sizeof forms / sizeof *forms; i++) {
    fl_fabric *fab = load_ok(fx(forms[i]));
    int filtered = strstr(forms[i], "switches-only") != NULL;
    if (!filtered) {
      same_fabric(fab, ibnd, 0);
    } else {
      /* the CA cables are listed from the switch end only, by design */
      assert_int_equal(fl_fabric_link_count(fab), 256);
      assert_int_equal(fl_fabric_port_count(fab), 536);
      uint32_t one = 0;
      for (fl_id l = 0; l < 256; l++)
        one += fl_fabric_link_flags(fab, l) == FL_LINK_SEEN_A;
      assert_int_equal(one, 128);
      assert_string_equal(fl_fabric_attr(fab, FL_ENT_NODE,
                                         named(fab, "node0001 mlx5_0"),
                                         "peer-only"),
                          "yes");
      assert_null(fl_fabric_attr(fab, FL_ENT_NODE, named(fab, "leaf-p01-01"),
                                 "peer-only"));
      assert_int_equal(fl_fabric_note_count(fab), 1);
    }
    /* identities: a switch's GUID and LID, a CA port's GUID and LID */
    fl_id sw = named(fab, "leaf-p01-16");
    assert_int_equal(fl_fabric_node_kind(fab, sw), FL_NODE_SWITCH);
    assert_int_equal(fl_fabric_node_guid(fab, sw), 0x0002c90301000010ull);
    fl_id p0 = fl_fabric_find_port(fab, sw, 0);
    assert_int_not_equal(p0, FL_NONE);
    assert_int_equal(fl_fabric_port_lid(fab, p0),
                     strstr(forms[i], "pre-sm") ? 0 : 24);
    fl_id ca = named(fab, "node0128 mlx5_0");
    assert_int_equal(fl_fabric_node_kind(fab, ca), FL_NODE_CA);
    assert_int_equal(fl_fabric_node_guid(fab, ca), 0); /* not printed */
    fl_id cp = port_of(fab, "node0128 mlx5_0", 1);
    assert_int_equal(fl_fabric_port_lid(fab, cp),
                     strstr(forms[i], "pre-sm") ? 0 : 3);
    if (!filtered || strstr(forms[i], "-l"))
      assert_int_equal(fl_fabric_port_guid(fab, cp), 0x0002c90302000101ull);
    if (!filtered) {
      assert_string_equal(state_of(fab, "node0128 mlx5_0", 1),
                          strstr(forms[i], "pre-sm") ? "Initialize/LinkUp"
                                                     : "Active/LinkUp");
      assert_int_equal(fl_fabric_note_count(fab), 0);
    }
    assert_string_equal(state_of(fab, "leaf-p01-16", 9),
                        strstr(forms[i], "pre-sm") ? "Initialize/LinkUp"
                                                   : "Active/LinkUp");
    /* ibsim: every port supports 12X, so every 4X link has the hint */
    fl_id l = link_of(fab, "leaf-p01-16", 9);
    assert_string_equal(fl_fabric_attr(fab, FL_ENT_LINK, l, "could-be-width"),
                        "12x");
    assert_null(fl_fabric_attr(fab, FL_ENT_LINK, l, "could-be-speed"));
    fl_fabric_free(fab);
  }
  fl_fabric_free(ibnd);
}

static void faults_equal_ibnetdiscover(void **state) {
  (void)state;
  fl_fabric *ibnd = load_ok(fx("faults/ibnetdiscover"));
  assert_int_equal(fl_fabric_link_count(ibnd), 254);
  static const char *const forms[] = {
      "faults/iblinkinfo", "faults/iblinkinfo-l", "faults/iblinkinfo-p"};
  for (size_t i = 0; i < sizeof forms / sizeof *forms; i++) {
    fl_fabric *fab = load_ok(fx(forms[i]));
    /* 4 more ports: 2 Down/Polling, 2 "Port not available" */
    same_fabric(fab, ibnd, 4);
    assert_string_equal(state_of(fab, "leaf-p01-05", 16), "Down/Polling");
    assert_string_equal(state_of(fab, "spine-p01-08", 5), "Down/Polling");
    assert_string_equal(state_of(fab, "leaf-p01-06", 16), "Active/Disabled");
    assert_string_equal(state_of(fab, "spine-p01-08", 6), "Active/LinkUp");
    static const char *const cableless[][2] = {{"leaf-p01-05", "16"},
                                               {"spine-p01-08", "5"},
                                               {"leaf-p01-06", "16"},
                                               {"spine-p01-08", "6"}};
    for (size_t k = 0; k < 4; k++)
      assert_int_equal(fl_fabric_port_link_count(
                           fab, port_of(fab, cableless[k][0],
                                        (uint32_t)atoi(cableless[k][1]))),
                       0);
    fl_id x1 = link_of(fab, "leaf-p01-01", 16);
    assert_int_equal(fl_fabric_link_width(fab, x1), 1);
    assert_int_equal(fl_fabric_link_speed(fab, x1), FL_SPEED_HDR);
    assert_string_equal(fl_fabric_attr(fab, FL_ENT_LINK, x1, "could-be-width"),
                        "12x");
    assert_null(fl_fabric_attr(fab, FL_ENT_LINK, x1, "could-be-speed"));
    fl_id edr = link_of(fab, "leaf-p01-03", 16);
    assert_int_equal(fl_fabric_link_width(fab, edr), 4);
    assert_int_equal(fl_fabric_link_speed(fab, edr), FL_SPEED_EDR);
    assert_string_equal(fl_fabric_attr(fab, FL_ENT_LINK, edr, "could-be-speed"),
                        "HDR");
    /* one note: the two ports whose far end was not reached */
    assert_int_equal(fl_fabric_note_count(fab), 1);
    const char *cat, *file, *msg;
    uint32_t line;
    assert_int_equal(fl_fabric_note(fab, 0, &cat, &file, &line, &msg), FL_OK);
    assert_string_equal(cat, "topology");
    assert_non_null(strstr(msg, "2 port(s) are up but iblinkinfo could not "
                                "reach their far end"));
    fl_fabric_free(fab);
  }
  /* -d: the two Down ports and their switches, nothing else */
  fl_fabric *d = load_ok(fx("faults/iblinkinfo-d"));
  assert_int_equal(fl_fabric_count_kind(d, FL_NODE_SWITCH), 2);
  assert_int_equal(fl_fabric_node_count(d), 2);
  assert_int_equal(fl_fabric_port_count(d), 4); /* 2 ports + 2 ports 0 */
  assert_int_equal(fl_fabric_link_count(d), 0);
  assert_string_equal(state_of(d, "spine-p01-08", 5), "Down/Polling");
  fl_fabric_free(d);
  fl_fabric_free(ibnd);
}
static const char SMALL_L[] =
    "0x0002c90300000001 \"                         hca-a\"      3    1[  ] ==( "
    "4X        106.25 Gbps Active/  LinkUp)==>  0x0002c90300000100      1    "
    "1[  ] \"sw-1\" ( )\n"
    "0x0002c90300000002 \"                         hca-a\"      4    2[  ] ==( "
    "4X         212.5 Gbps Active/  LinkUp)==>  0x0002c90300000100      1    "
    "2[  ] \"sw-1\" ( )\n"
    "0x0002c90300000100 \"                          sw-1\"      1    1[  ] ==( "
    "4X        106.25 Gbps Active/  LinkUp)==>  0x0002c90300000001      3    "
    "1[  ] \"hca-a\" ( )\n"
    "0x0002c90300000100 \"                          sw-1\"      1    2[  ] ==( "
    "4X         212.5 Gbps Active/  LinkUp)==>  0x0002c90300000002      4    "
    "2[  ] \"hca-a\" ( )\n"
    "0x0002c90300000100 \"                          sw-1\"      1    3[  ] ==( "
    "4X          10.0 Gbps Active/  LinkUp)==>  0x0002c90300000200      2    "
    "1[  ] \"sw-2\" ( Could be FDR10 (Found link at QDR but expected speed is "
    "FDR10))\n"
    "0x0002c90300000100 \"                          sw-1\"      1    4[  ] ==( "
    "               Down/Disabled)==>             [  ] \"\" ( )\n"
    "0x0002c90300000200 \"                          sw-2\"      2    1[  ] ==( "
    "4X          10.0 Gbps Active/  LinkUp)==>  0x0002c90300000100      1    "
    "3[  ] \"sw-1\" ( Could be FDR10 (Found link at QDR but expected speed is "
    "FDR10))\n"
    "0x0002c90300000200 \"                          sw-2\"      2    2[  ] ==( "
    "2X  10.0 Gbps (FDR10)  Armed/  LinkUp)==>      \"Port not available\"\n";

static const char SMALL_DEFAULT[] =
    "Switch: 0x0002c90300000100 sw-1:\n"
    "           1    1[  ] ==( 4X        53.125 Gbps Active/  LinkUp)==>       "
    "3    1[  ] \"hca-a\" ( )\n"
    "           1    2[  ] ==( 4X        53.125 Gbps Active/  LinkUp)==>       "
    "2    1[  ] \"sw-2\" (Could be 4X )\n"
    "CA: hca-a:\n"
    "      0x0002c90300000001      3    1[  ] ==( 4X        53.125 Gbps "
    "Active/  LinkUp)==>       1    1[  ] \"sw-1\" ( )\n";

/* What ibsim cannot make: NDR and XDR words, a QDR link hinting FDR10, an
 * FDR10 port, Down/Disabled, Armed, a dual-port HCA in -l. */
static void words_and_dual_port(void **state) {
  (void)state;
  fl_fabric *fab = load_ok(fixture("small-l.txt", SMALL_L));
  assert_int_equal(fl_fabric_count_kind(fab, FL_NODE_SWITCH), 2);
  assert_int_equal(fl_fabric_count_kind(fab, FL_NODE_CA), 1);
  /* sw-1 ports 0-4, sw-2 ports 0-2, hca-a ports 1-2 */
  assert_int_equal(fl_fabric_port_count(fab), 10);
  assert_int_equal(fl_fabric_link_count(fab), 3);
  fl_id ca = named(fab, "hca-a");
  assert_int_equal(fl_fabric_node_port_count(fab, ca), 2);
  assert_int_equal(fl_fabric_port_guid(fab, port_of(fab, "hca-a", 2)),
                   0x0002c90300000002ull);
  assert_int_equal(fl_fabric_port_lid(fab, port_of(fab, "hca-a", 2)), 4);
  assert_int_equal(fl_fabric_link_speed(fab, link_of(fab, "hca-a", 1)),
                   FL_SPEED_NDR);
  assert_int_equal(fl_fabric_link_speed(fab, link_of(fab, "hca-a", 2)),
                   FL_SPEED_XDR);
  fl_id q = link_of(fab, "sw-1", 3);
  assert_int_equal(fl_fabric_link_speed(fab, q), FL_SPEED_QDR);
  assert_int_equal(fl_fabric_link_flags(fab, q),
                   FL_LINK_SEEN_A | FL_LINK_SEEN_B);
  assert_string_equal(fl_fabric_attr(fab, FL_ENT_LINK, q, "could-be-speed"),
                      "FDR10");
  assert_null(fl_fabric_attr(fab, FL_ENT_LINK, q, "could-be-width"));
  assert_string_equal(state_of(fab, "sw-1", 4), "Down/Disabled");
  assert_string_equal(state_of(fab, "sw-2", 2), "Armed/LinkUp");
  assert_int_equal(fl_fabric_port_link_count(fab, port_of(fab, "sw-2", 2)), 0);
  assert_int_equal(fl_fabric_node_guid(fab, named(fab, "sw-2")),
                   0x0002c90300000200ull);
  fl_fabric_free(fab);

  /* the same HCA GUIDs under two names: two CAs, not one */
  char *two = strdup(SMALL_L);
  assert_non_null(two);
  char *second = strstr(two, "\n") + 1;
  memcpy(strstr(second, "hca-a"), "hca-b", 5);
  fab = load_ok(fixture("small-l-two.txt", two));
  assert_int_equal(fl_fabric_count_kind(fab, FL_NODE_CA), 2);
  assert_int_equal(fl_fabric_node_port_count(fab, named(fab, "hca-b")), 1);
  fl_fabric_free(fab);
  free(two);

  /* a node-name-map names the switch by its GUID, the CA by its node GUID
   * (port GUID - port number) */
  const char *map = fixture("map.txt", "0x0002c90300000100 core-sw\n"
                                       "0x0002c90300000000 host-a\n");
  fl_error err;
  fab = load_map(fixture("small-l.txt", SMALL_L), FL_FMT_AUTO, map, &err);
  assert_non_null(fab);
  assert_int_equal(fl_fabric_node_kind(fab, named(fab, "core-sw")),
                   FL_NODE_SWITCH);
  assert_int_equal(fl_fabric_node_kind(fab, named(fab, "host-a")), FL_NODE_CA);
  fl_fabric_free(fab);
}

/* Replace the first @from in @text by @to into a fixture file. */
static const char *edited(const char *name, const char *text, const char *from,
                          const char *to) {
  static char buf[8192];
  const char *at = strstr(text, from);
  assert_non_null(at);
  snprintf(buf, sizeof buf, "%.*s%s%s", (int)(at - text), text, to,
           at + strlen(from));
  return fixture(name, buf);
}

static void default_form(void **state) {
  (void)state;
  fl_fabric *fab = load_ok(fixture("small-default.txt", SMALL_DEFAULT));
  /* sw-2 has no lines: seen on one port, a CA; in a capture of mixed
   * kinds it is not marked peer-only (its lines are missing) */
  assert_int_equal(fl_fabric_count_kind(fab, FL_NODE_SWITCH), 1);
  assert_int_equal(fl_fabric_count_kind(fab, FL_NODE_CA), 2);
  assert_int_equal(fl_fabric_link_count(fab), 2);
  fl_id l = link_of(fab, "hca-a", 1);
  assert_int_equal(fl_fabric_link_flags(fab, l),
                   FL_LINK_SEEN_A | FL_LINK_SEEN_B);
  fl_id s2 = link_of(fab, "sw-1", 2);
  assert_int_equal(fl_fabric_link_flags(fab, s2), FL_LINK_SEEN_A);
  assert_string_equal(fl_fabric_attr(fab, FL_ENT_LINK, s2, "could-be-width"),
                      "4x");
  assert_null(
      fl_fabric_attr(fab, FL_ENT_NODE, named(fab, "sw-2"), "peer-only"));
  assert_int_equal(fl_fabric_port_lid(fab, port_of(fab, "sw-2", 1)), 2);
  assert_int_equal(fl_fabric_note_count(fab), 0);
  fl_fabric_free(fab);
  /* a hint on the second listing of a cable only still reaches the link */
  fab = load_ok(edited("hint-b.txt", SMALL_DEFAULT, "\"sw-1\" ( )",
                       "\"sw-1\" (Could be 12X )"));
  l = link_of(fab, "hca-a", 1);
  assert_int_equal(fl_fabric_link_flags(fab, l),
                   FL_LINK_SEEN_A | FL_LINK_SEEN_B);
  assert_string_equal(fl_fabric_attr(fab, FL_ENT_LINK, l, "could-be-width"),
                      "12x");
  fl_fabric_free(fab);
}

/* Lines that are not iblinkinfo output: counted, said once per file. */
static void noise_counted(void **state) {
  (void)state;
  char buf[4096];
  snprintf(buf, sizeof buf,
           "sim> iblinkinfo\n%s"
           "ibwarn: [1234] mad_rpc: _do_madrpc failed; dport (DR path "
           "slid 0; dlid 0; 0,1)\n??: odd node:\n",
           SMALL_DEFAULT);
  fl_fabric *fab = load_ok(fixture("noise.txt", buf));
  assert_int_equal(fl_fabric_note_count(fab), 2);
  const char *cat, *file, *msg;
  uint32_t line;
  assert_int_equal(fl_fabric_note(fab, 0, &cat, &file, &line, &msg), FL_OK);
  assert_int_equal(line, 1);
  assert_string_equal(msg, "2 line(s) that are not iblinkinfo output were "
                           "skipped (the first is line 1)");
  assert_int_equal(fl_fabric_note(fab, 1, &cat, &file, &line, &msg), FL_OK);
  assert_non_null(strstr(msg, "1 node(s) of unknown type"));
  assert_int_equal(fl_fabric_node_kind(fab, named(fab, "odd node")),
                   FL_NODE_CA);
  fl_fabric_free(fab);
  load_fails(fixture("only-noise.txt", "sim> \nhello\n"), 0, 0,
             "no iblinkinfo port line");
}

static void errors(void **state) {
  (void)state;
  /* the real capture before OpenSM: every LID 0 */
  load_fails(fx("clean/pre-sm.iblinkinfo"), 2, 0,
             "LID 0 is held by more than one port of this capture");
  /* a far end whose LID is a CA port of another number */
  load_fails(edited("port.txt", SMALL_DEFAULT, "3    1[  ] \"hca-a\"",
                    "3    2[  ] \"hca-a\""),
             2, 0, "LID 3 is port 1 of \"hca-a\" (line 5)");
  load_fails(edited("lid0.txt", SMALL_DEFAULT, "2    1[  ] \"sw-2\"",
                    "0    1[  ] \"sw-2\""),
             3, 0, "has LID 0 (not assigned) and no line of its own");
  load_fails(edited("diff.txt", SMALL_DEFAULT, "CA: hca-a:", "< CA: hca-a:"), 4,
             1, "iblinkinfo --diff output");
  load_fails(edited("mixed.txt", SMALL_DEFAULT, "CA: hca-a:\n", SMALL_L), 4, 20,
             "in iblinkinfo's -l (one line per port) form but line 1");
  load_fails(
      edited("state.txt", SMALL_DEFAULT, "Active/  LinkUp", "Activ/  LinkUp"),
      2, 49, "expected a port state");
  load_fails(
      edited("phys.txt", SMALL_DEFAULT, "Active/  LinkUp", "Active/  LinkOn"),
      2, 58, "expected a physical port state");
  load_fails(edited("speed.txt", SMALL_DEFAULT, "53.125 Gbps", "54.000 Gbps"),
             2, 37, "expected a link speed");
  load_fails(edited("width.txt", SMALL_DEFAULT, "( 4X", "( 5X"), 2, 27,
             "expected a link width");
  load_fails(edited("arrow.txt", SMALL_DEFAULT, "LinkUp)==>", "LinkUp)=="), 2,
             23, "expected \"==>\"");
  load_fails(edited("hint.txt", SMALL_DEFAULT, "(Could be 4X )", "(Maybe 4X)"),
             3, 94, "expected \"Could be\"");
  load_fails(edited("hint2.txt", SMALL_DEFAULT, "Could be 4X", "Could be 5Y"),
             3, 103, "a width (1X..12X) or a speed");
  load_fails(edited("ca.txt", SMALL_DEFAULT, "CA: hca-a:\n", ""), 4, 1,
             "must follow a \"CA: <name>:\"");
  load_fails(fixture("nohdr.txt", strchr(SMALL_DEFAULT, '\n') + 1), 1, 12,
             "must follow a \"Switch: 0x<GUID> <name>:\" header");
  load_fails(edited("colon.txt", SMALL_DEFAULT, "sw-1:\n", "sw-1\n"), 1, 32,
             "expected \":\" at the end of the switch header");
  load_fails(edited("far.txt", SMALL_DEFAULT, "\"hca-a\" ( )", "hca-a ( )"), 2,
             86, "expected the far end's name in quotes");
  /* cut inside its last line */
  size_t n = strlen(SMALL_DEFAULT) - 30;
  char cut[4096];
  memcpy(cut, SMALL_DEFAULT, n);
  cut[n] = '\0';
  load_fails(fixture("cut.txt", cut), 5, 42,
             "truncated: file ends inside a port line");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(clean_forms_equal_ibnetdiscover),
      cmocka_unit_test(faults_equal_ibnetdiscover),
      cmocka_unit_test(words_and_dual_port),
      cmocka_unit_test(default_form),
      cmocka_unit_test(noise_counted),
      cmocka_unit_test(errors),
  };
  return cmocka_run_group_tests(tests, setup_all, teardown_all);
}
