/* SPDX-License-Identifier: MIT */
/*
 * bench/failure_domains.c — failure-domain what-if at data-centre scale.
 *
 * Builds a radix-K 3-tier fat tree with fl_gen_fat_tree (K=64: 65,536 CAs,
 * 5,120 switches, 196,608 cables) and gives every node failure-domain
 * attributes, as a DCIM export would:
 *   - leaf i and its hosts sit in rack R(i/2) (K=64: 1,024 racks... capped at
 *     RACKS, default 1,000, by wrapping), spines and cores spread round-robin
 *     over the same racks;
 *   - rack r is on PDU P(r mod PDUS) (default 200) and feed A/B (r mod 2).
 * Then it loads the built failure-domains plugin through the host and times
 * failure-domains.domain-partition and failure-domains.capacity-loss, which
 * evaluate every domain value (racks + PDUs + 2 feeds = 1,202 values), plus
 * the other five rules.
 *
 * Usage: failure_domains [K] [RACKS] [PDUS] [PLUGIN.so]
 * (default: 64 1000 200 <build>/plugins/failure-domains.so). Prints wall
 * times and the number of findings per rule.
 *
 * failure_domains --write FILE [K] [RACKS] [PDUS] writes the annotated
 * fabric as design XML to FILE instead (fl_write_design_xml), for the
 * command-line and MPI runs (`mpirun -n N fabriclint check --rules
 * 'failure-domains.*' FILE`, docs/mpi.md).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "build.h"
#include "fabriclint/gen.h"
#include "fabriclint/write.h"
#include "findings.h"
#include "host.h"

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* A copy of @g (not finalized) with rack/pdu/power-feed attributes. */
static fl_fabric *annotated_copy(const fl_fabric *g, uint32_t racks,
                                 uint32_t pdus) {
  fl_fabric *f = fl_fabric_new();
  fl_prov pv = {fl_b_file(f, "generated"), 0, 0};
  uint32_t nn = fl_fabric_node_count(g), leaf_no = 0, other_no = 0;
  uint32_t *rack_of = malloc(nn * sizeof *rack_of);
  /* leaves first: a leaf's rack, then its hosts take it */
  for (fl_id n = 0; n < nn; n++) {
    rack_of[n] = UINT32_MAX;
    if (fl_fabric_node_kind(g, n) == FL_NODE_SWITCH &&
        fl_fabric_node_tier(g, n) == 1)
      rack_of[n] = (leaf_no++ / 2) % racks;
  }
  for (fl_id n = 0; n < nn; n++) {
    if (rack_of[n] != UINT32_MAX)
      continue;
    if (fl_fabric_node_kind(g, n) == FL_NODE_SWITCH) {
      rack_of[n] = (other_no++ * 7) % racks;
      continue;
    }
    fl_id p = fl_fabric_node_first_port(g, n);
    fl_id l = p != FL_NONE ? fl_fabric_port_link(g, p, 0) : FL_NONE;
    fl_id o = l != FL_NONE ? fl_fabric_link_other(g, l, p) : FL_NONE;
    rack_of[n] = o != FL_NONE ? rack_of[fl_fabric_port_node(g, o)] : 0;
  }
  for (fl_id n = 0; n < nn; n++) {
    fl_id m = fl_b_node(f, fl_fabric_node_kind(g, n), fl_fabric_node_guid(g, n),
                        fl_fabric_node_nports(g, n), pv);
    fl_b_node_set_name(f, m, fl_fabric_node_name(g, n), (size_t)-1);
    fl_b_node_set_system(f, m, fl_fabric_node_system(g, n), (size_t)-1);
    fl_b_node_set_tier(f, m, fl_fabric_node_tier(g, n));
    const char *pod = fl_fabric_attr(g, FL_ENT_NODE, n, "pod");
    if (pod)
      fl_b_attr(f, FL_ENT_NODE, m, "pod", pod);
    char buf[32];
    uint32_t r = rack_of[n];
    snprintf(buf, sizeof buf, "R%04u", r);
    fl_b_attr(f, FL_ENT_NODE, m, "rack", buf);
    snprintf(buf, sizeof buf, "P%03u", r % pdus);
    fl_b_attr(f, FL_ENT_NODE, m, "pdu", buf);
    fl_b_attr(f, FL_ENT_NODE, m, "power-feed", r % 2 ? "B" : "A");
    fl_id first = fl_fabric_node_first_port(g, n);
    for (uint32_t k = 0;
         first != FL_NONE && k < fl_fabric_node_port_count(g, n); k++)
      fl_b_port(f, m, fl_fabric_port_num(g, first + k), pv);
  }
  for (fl_id l = 0; l < fl_fabric_link_count(g); l++) {
    fl_id a = fl_fabric_link_port(g, l, 0), b = fl_fabric_link_port(g, l, 1);
    fl_b_link(
        f,
        fl_b_port_find(f, fl_fabric_port_node(g, a), fl_fabric_port_num(g, a)),
        fl_b_port_find(f, fl_fabric_port_node(g, b), fl_fabric_port_num(g, b)),
        fl_fabric_link_width(g, l), fl_fabric_link_speed(g, l),
        FL_LINK_DECLARED, pv);
  }
  free(rack_of);
  return f;
}

int main(int argc, char **argv) {
  const char *write_to = NULL;
  if (argc > 2 && strcmp(argv[1], "--write") == 0) {
    write_to = argv[2];
    argv[2] = argv[0];
    argv += 2;
    argc -= 2;
  }
  uint32_t k = argc > 1 ? (uint32_t)atoi(argv[1]) : 64;
  uint32_t racks = argc > 2 ? (uint32_t)atoi(argv[2]) : 1000;
  uint32_t pdus = argc > 3 ? (uint32_t)atoi(argv[3]) : 200;
  char plugin[4096];
  if (argc > 4)
    snprintf(plugin, sizeof plugin, "%s", argv[4]);
  else
    snprintf(plugin, sizeof plugin, "%s/../plugins/failure-domains.so",
             argc ? (strrchr(argv[0], '/') ? argv[0] : ".") : ".");
  if (argc <= 4 && strrchr(argv[0], '/')) {
    size_t dl = (size_t)(strrchr(argv[0], '/') - argv[0]);
    snprintf(plugin, sizeof plugin, "%.*s/../plugins/failure-domains.so",
             (int)dl, argv[0]);
  }
  fl_error err;
  fl_error_clear(&err);
  double t0 = now();
  fl_gen_fat_tree_params gp;
  memset(&gp, 0, sizeof gp);
  gp.radix = k;
  gp.tiers = 3;
  fl_fabric *g = NULL;
  if (fl_gen_fat_tree(&gp, &g, &err) != FL_OK) {
    fprintf(stderr, "gen: %s\n", err.message);
    return 2;
  }
  fl_fabric *f = annotated_copy(g, racks, pdus);
  fl_fabric_free(g);
  if (fl_fabric_finalize(f, &err) != FL_OK) {
    fprintf(stderr, "finalize: %s\n", err.message);
    return 2;
  }
  double t1 = now();
  if (write_to) {
    FILE *o = fopen(write_to, "w");
    int wrc = o ? fl_write_design_xml(f, o, &err) : FL_EIO;
    if (o && fclose(o) != 0 && wrc == FL_OK)
      wrc = FL_EIO;
    if (wrc != FL_OK) {
      fprintf(stderr, "%s: %s\n", write_to,
              o ? err.message : "cannot open for writing");
      return 2;
    }
    fl_fabric_free(f);
    return 0;
  }
  printf("fabric: %u nodes (%u CAs, %u switches), %u links, %u racks, %u PDUs, "
         "2 feeds; "
         "built in %.2f s\n",
         fl_fabric_node_count(f), fl_fabric_count_kind(f, FL_NODE_CA),
         fl_fabric_count_kind(f, FL_NODE_SWITCH), fl_fabric_link_count(f),
         racks, pdus, t1 - t0);
  fl_host h;
  fl_host_init(&h);
  if (fl_host_load_file(&h, plugin, &err) != FL_OK) {
    fprintf(stderr, "plugin %s: %s\n", plugin, err.message);
    return 3;
  }
  const char *rules[] = {
      "failure-domains.domain-partition", "failure-domains.capacity-loss",
      "failure-domains.single-point",     "failure-domains.spine-spread",
      "failure-domains.dual-homing",      "failure-domains.plane-crossing",
      "failure-domains.pod-isolation"};
  double total = 0;
  for (size_t i = 0; i < sizeof rules / sizeof *rules; i++) {
    fl_findings out;
    memset(&out, 0, sizeof out);
    size_t n_run = 0;
    double a = now();
    int rc = fl_host_run(&h, f, rules[i], &out, &n_run, &err);
    double b = now();
    total += b - a;
    printf("%-34s %7.2f s  %zu finding(s)%s\n", rules[i], b - a,
           fl_findings_count(&out, FL_SEV_ERROR) +
               fl_findings_count(&out, FL_SEV_WARNING) +
               fl_findings_count(&out, FL_SEV_INFO),
           rc != FL_OK ? "  (rule failed)" : "");
    fl_findings_free(&out);
  }
  printf("all failure-domains rules: %.2f s (the first rule also builds the "
         "model)\n",
         total);
  fl_host_free(&h);
  fl_fabric_free(f);
  return 0;
}
