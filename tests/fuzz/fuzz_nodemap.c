/* SPDX-License-Identifier: MIT */
/*
 * tests/fuzz/fuzz_nodemap.c — infiniband-diags node-name-map files
 * (core/nodemap.c). Input: the map; optionally FZ_SPLIT and an
 * ibnetdiscover topology, which is then loaded with the map
 * (--node-name-map), so the names the map gives reach the model.
 */
#include <stdlib.h>

#include "fabriclint/error.h"
#include "fabriclint/types.h"
#include "fuzz.h"
#include "io/nodemap.h"

/* Look a few GUIDs up, the first ones of the map included. */
static void probe(const fl_nodemap *m) {
  static const uint64_t guids[] = {0, 1, 0x0002c90300000001ull, ~0ull};
  for (size_t i = 0; i < sizeof guids / sizeof *guids; i++)
    (void)fl_nodemap_lookup(m, guids[i]);
  (void)fl_nodemap_count(m);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fz_parts parts;
  fz_split(data, size, &parts);
  fl_nodemap m = {0};
  fl_error err;
  fl_error_clear(&err);
  const char *map = fz_file(0, parts.p[0], parts.n[0]);
  int rc = fl_nodemap_load(&m, map, &err);
  fz_check_error(rc, &err);
  if (rc == FL_OK)
    probe(&m);
  fl_nodemap_free(&m);
  if (rc == FL_OK && parts.count > 1) {
    static const uint32_t ctx[] = {FL_FMT_IBNETDISCOVER};
    fz_parts topo = {.p = {parts.p[1]}, .n = {parts.n[1]}, .count = 1};
    /* slot 0 still holds the map: the topology goes to slot 1 */
    fl_load_options o = {.node_name_map = map};
    fl_fabric *fab = fl_fabric_new();
    if (!fab)
      abort();
    rc = fz_load(fab, 1, topo.p[0], topo.n[0], ctx[0], &o);
    if (rc == FL_OK)
      rc = fz_finalize(fab);
    fl_fabric_free(fab);
  }
  fz_set_outcome(rc == FL_OK);
  return 0;
}
