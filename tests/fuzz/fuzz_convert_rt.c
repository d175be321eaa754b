/* SPDX-License-Identifier: MIT */
/*
 * tests/fuzz/fuzz_convert_rt.c — `fabriclint convert` round trips: a
 * writer that succeeds writes what its own reader accepts (issue #32 cases
 * 3, 15 and 16; after the outside review's harness-fuzz_rt3.c).
 *
 * Selector byte: '0' DOT, '1' GraphML, '2' UFM NDT, '3' NetBox cables CSV,
 * '4' ibnetdiscover: the input format. The fabric loaded (and finalized)
 * is written by every convert writer (design XML, ibnetdiscover, ibsim
 * net, UFM NDT, DOT, GraphML) into memory, and what a writer wrote is read
 * back by the matching reader. A finding (abort): a writer that succeeds
 * with output its reader refuses; a writer that refuses without an error
 * record; and, for the writers that keep every cable (design XML, DOT,
 * GraphML, ibnetdiscover), a different cable count read back. Fabrics above
 * FZ_RT_NODES nodes are skipped (six writers and readers per input).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabriclint/error.h"
#include "fabriclint/fabric.h"
#include "fabriclint/load.h"
#include "fabriclint/write.h"
#include "fuzz.h"

#define FZ_RT_NODES 256

typedef int (*rt_writer)(const fl_fabric *, FILE *, fl_error *);

static const struct {
  rt_writer write;
  uint32_t fmt;
  const char *name;
  int keeps_cables; /* 1: every cable is read back */
} WRITERS[] = {
    {fl_write_design_xml, FL_FMT_DESIGN_XML, "design XML", 1},
    {fl_write_ibnetdiscover, FL_FMT_IBNETDISCOVER, "ibnetdiscover", 1},
    {fl_write_ibsim_net, FL_FMT_IBSIM_NET, "ibsim net", 0},
    {fl_write_ufm_ndt, FL_FMT_UFM_NDT, "UFM NDT", 0},
    {fl_write_netbox_cables, FL_FMT_NETBOX_CABLES, "NetBox cables", 0},
    {fl_write_dot, FL_FMT_DOT, "DOT", 1},
    {fl_write_graphml, FL_FMT_GRAPHML, "GraphML", 1},
};

/* Read back @len bytes of @buf written by writer @w; abort on a refusal
 * or a lost cable. */
static void read_back(size_t w, const char *buf, size_t len, uint32_t links) {
  fl_fabric *back = fl_fabric_new();
  if (!back)
    abort();
  fl_error err;
  fl_error_clear(&err);
  int rc = fl_fabric_load(back, fz_file(1, (const uint8_t *)buf, len),
                          WRITERS[w].fmt, NULL, &err);
  if (rc == FL_OK)
    rc = fl_fabric_finalize(back, &err);
  if (rc != FL_OK) {
    char m[FL_ERROR_FILE_MAX + FL_ERROR_MSG_MAX + 32];
    fprintf(stderr, "fuzz: the %s writer wrote what its reader refuses: %s\n",
            WRITERS[w].name, fl_error_format(&err, m, (uint32_t)sizeof m));
    abort();
  }
  if (WRITERS[w].keeps_cables && fl_fabric_link_count(back) != links) {
    fprintf(stderr, "fuzz: %s: %u cables written, %u read back\n",
            WRITERS[w].name, links, fl_fabric_link_count(back));
    abort();
  }
  fl_fabric_free(back);
}

static void round_trips(const fl_fabric *fab) {
  uint32_t links = fl_fabric_link_count(fab);
  for (size_t w = 0; w < sizeof WRITERS / sizeof *WRITERS; w++) {
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    if (!out)
      abort();
    fl_error err;
    fl_error_clear(&err);
    int rc = WRITERS[w].write(fab, out, &err);
    if (fclose(out) != 0)
      abort();
    fz_check_error(rc, &err);
    if (rc == FL_OK)
      read_back(w, buf, len, links);
    free(buf);
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static const uint32_t FMTS[] = {FL_FMT_DOT, FL_FMT_GRAPHML, FL_FMT_UFM_NDT,
                                  FL_FMT_NETBOX_CABLES, FL_FMT_IBNETDISCOVER};
  unsigned v = fz_select(&data, &size, 5);
  fl_fabric *fab = fl_fabric_new();
  if (!fab)
    abort();
  int rc = fz_load(fab, 0, data, size, FMTS[v], NULL);
  if (rc == FL_OK)
    rc = fz_finalize(fab);
  fz_set_outcome(rc == FL_OK);
  if (rc == FL_OK && fl_fabric_node_count(fab) > 0 &&
      fl_fabric_node_count(fab) <= FZ_RT_NODES)
    round_trips(fab);
  fl_fabric_free(fab);
  return 0;
}
