/* SPDX-License-Identifier: MIT */
/*
 * core/cli/cli_gen.c — `fabriclint gen KIND [PARAMS]`: write a standard
 * topology.
 *
 * Why a subcommand and not a script: the formulas of fabriclint/gen.h are
 * the single statement of what a fat tree, a rail-optimised SU, a ring or a
 * torus is, and a
 * plan of 100k GPUs has to be one command away (DESIGN.md §5). The output is
 * design XML by default (the plan format), or an ibnetdiscover dump / ibsim
 * net file of the same fabric, so the same parameters also drive tests,
 * benchmarks and the ibsim runs of fabrics/regen.sh.
 *
 * Options are rows of the command-line table (cli_table.c), each with the
 * kinds that take it; the scanner (cli_args.h) lets them come before or
 * after KIND, and here each is checked against the kind and stored in its
 * target (num_target(), apply_one()).
 *
 * Exit codes (DESIGN.md §2): 0 written; 2 bad parameters, unwritable output
 * or generation failure — with one line on stderr saying which parameter is
 * wrong and what was expected.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cli_args.h"
#include "cli/cli_table.h"
#include "cli/cli_usage.h"
#include "fabriclint/gen.h"
#include "fabriclint/write.h"
#include "io/outfile.h"

#define EXIT_USAGE 2
#define MAX_RAILS  254

enum gen_format { GEN_FMT_DESIGN, GEN_FMT_IBND, GEN_FMT_IBSIM };

/** Everything the command line says, before generation. */
typedef struct gen_args {
  uint32_t kind;
  fl_gen_fat_tree_params ft;
  fl_gen_rail_su_params rs;
  fl_gen_torus_params to; /* ring and torus */
  uint32_t width, speed, no_lids;
  uint32_t tiers; /* --tiers (fat-tree and rail-su) */
  int layout;     /* --layout or one of its options */
  fl_gen_layout_params lay;
  uint32_t planes;            /* --planes N (0: one plane) */
  fl_gen_networks_params net; /* --storage-nodes, --inband-mgmt */
  int allow_lid_overflow;     /* --allow-lid-overflow */
  enum gen_format format;
  const char *output;
  int dry_run;
  char *hca_buf; /* owned copy of --hca-map, split in place */
  const char *hca_names[MAX_RAILS];
  uint32_t n_hca;
} gen_args;

static int usage(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

static int usage(const char *fmt, ...) {
  va_list ap;
  fputs("fabriclint gen: ", stderr);
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputs("\n(see fabriclint gen --help)\n", stderr);
  return EXIT_USAGE;
}

/** Strict decimal: digits only, no sign, fits uint32_t. */
static int parse_u32(const char *s, uint32_t *out) {
  if (!s || *s < '0' || *s > '9')
    return -1;
  errno = 0;
  char *end;
  unsigned long long v = strtoull(s, &end, 10);
  if (errno || *end || v > UINT32_MAX)
    return -1;
  *out = (uint32_t)v;
  return 0;
}

/** Split --hca-map into gen_args.hca_names (owned buffer). */
static int parse_hca_map(gen_args *a, const char *arg) {
  free(a->hca_buf);
  a->hca_buf = strdup(arg);
  a->n_hca = 0;
  if (!a->hca_buf)
    return usage("out of memory");
  for (char *save = NULL, *tok = strtok_r(a->hca_buf, ",", &save); tok;
       tok = strtok_r(NULL, ",", &save)) {
    if (a->n_hca == MAX_RAILS)
      return usage("--hca-map: more than 254 names in '%s'", arg);
    a->hca_names[a->n_hca++] = tok;
  }
  if (a->n_hca == 0)
    return usage("--hca-map: expected comma-separated names, got '%s'", arg);
  return 0;
}

/* One ratio "D:U" of positive whole numbers at *@s; advances *@s. */
static int parse_ratio(const char **s, uint32_t *down, uint32_t *up) {
  char *end;
  if (**s < '1' || **s > '9')
    return -1;
  unsigned long d = strtoul(*s, &end, 10);
  if (*end != ':' || end[1] < '1' || end[1] > '9' || d > 1000000)
    return -1;
  unsigned long u = strtoul(end + 1, &end, 10);
  if (u > 1000000)
    return -1;
  *down = (uint32_t)d;
  *up = (uint32_t)u;
  *s = end;
  return 0;
}

/* --oversubscription D:U[,D:U]: the leaf tier, then the spine tier. */
static int parse_oversub(gen_args *a, const char *arg) {
  const char *s = arg;
  if (parse_ratio(&s, &a->rs.over_down, &a->rs.over_up) != 0 ||
      (*s == ',' && (s++, parse_ratio(&s, &a->rs.spine_over_down,
                                      &a->rs.spine_over_up) != 0)) ||
      *s)
    return usage("--oversubscription: expected DOWN:UP for the leaves, "
                 "optionally ,DOWN:UP for the spines (e.g. 2:1 or 2:1,1:1), "
                 "got '%s'",
                 arg);
  return 0;
}

static int parse_format(gen_args *a, const char *arg) {
  if (strcmp(arg, "design") == 0 || strcmp(arg, "design-xml") == 0)
    a->format = GEN_FMT_DESIGN;
  else if (strcmp(arg, "ibnetdiscover") == 0)
    a->format = GEN_FMT_IBND;
  else if (strcmp(arg, "ibsim") == 0 || strcmp(arg, "ibsim-net") == 0)
    a->format = GEN_FMT_IBSIM;
  else
    return usage("--format: expected design, ibnetdiscover or ibsim, got '%s'",
                 arg);
  return 0;
}

/** The target of numeric option @id, or NULL when @id is not numeric. */
static uint32_t *num_target(gen_args *a, int id) {
  switch (id) {
  case FL_OPT_RADIX:
    return &a->ft.radix;
  case FL_OPT_TIERS:
    return &a->tiers;
  case FL_OPT_PLANES:
    return &a->planes;
  case FL_OPT_HOSTS:
    return &a->ft.hosts;
  case FL_OPT_PARALLEL:
    return &a->ft.parallel;
  case FL_OPT_SUS:
    return &a->rs.sus;
  case FL_OPT_HOSTS_PER_SU:
    return &a->rs.hosts_per_su;
  case FL_OPT_RAILS:
    return &a->rs.rails;
  case FL_OPT_SPINES:
    return &a->rs.spines;
  case FL_OPT_UPLINKS:
    return &a->rs.uplinks;
  case FL_OPT_SUS_PER_GROUP:
    return &a->rs.sus_per_group;
  case FL_OPT_LEAF_RADIX:
    return &a->rs.leaf_radix;
  case FL_OPT_SWITCHES:
  case FL_OPT_X:
    return &a->to.x;
  case FL_OPT_Y:
    return &a->to.y;
  case FL_OPT_HOSTS_PER_SWITCH:
    return &a->to.hosts_per_switch;
  case FL_OPT_HOSTS_PER_RACK:
    return &a->lay.hosts_per_rack;
  case FL_OPT_SWITCHES_PER_RACK:
    return &a->lay.switches_per_rack;
  case FL_OPT_RACKS_PER_ROW:
    return &a->lay.racks_per_row;
  case FL_OPT_HOST_U:
    return &a->lay.host_u;
  case FL_OPT_RACK_U:
    return &a->lay.rack_u;
  case FL_OPT_STORAGE_NODES:
    return &a->net.storage_nodes;
  default:
    return NULL;
  }
}

/** Apply option @it (already known to fit the kind); 0 or an exit code. */
static int apply_one(gen_args *a, const fl_cli_item *it) {
  const char *name = it->opt->name, *val = it->value;
  uint32_t *num = num_target(a, it->opt->id);
  if (num == &a->lay.hosts_per_rack || num == &a->lay.switches_per_rack ||
      num == &a->lay.racks_per_row || num == &a->lay.host_u ||
      num == &a->lay.rack_u)
    a->layout = 1;
  if (num) {
    if (parse_u32(val, num) != 0 || *num == 0)
      return usage("--%s: expected a whole number from 1 to %u, got '%s'", name,
                   UINT32_MAX, val);
    return 0;
  }
  switch (it->opt->id) {
  case FL_OPT_SPEED:
    a->speed = fl_speed_parse(val, strlen(val));
    if (a->speed == FL_SPEED_UNKNOWN)
      return usage("--speed: expected SDR..XDR or Ethernet 1G..1600G, got '%s'",
                   val);
    return 0;
  case FL_OPT_WIDTH:
    a->width = fl_width_parse(val, strlen(val));
    if (a->width == 0)
      return usage("--width: expected 1x, 2x, 4x, 8x or 12x, got '%s'", val);
    return 0;
  case FL_OPT_FORMAT:
    return parse_format(a, val);
  case FL_OPT_OUTPUT: /* "-": standard output, as for every command */
    a->output = strcmp(val, "-") == 0 ? NULL : val;
    return 0;
  case FL_OPT_OVERSUBSCRIPTION:
    return parse_oversub(a, val);
  case FL_OPT_HCA_MAP:
    return parse_hca_map(a, val);
  case FL_OPT_HOST_PREFIX:
    a->rs.host_prefix = val;
    return 0;
  case FL_OPT_NO_LIDS:
    a->no_lids = 1;
    return 0;
  case FL_OPT_EXTRA_LEAF_LINK:
    a->ft.extra_leaf_link = 1;
    return 0;
  case FL_OPT_DRY_RUN:
    a->dry_run = 1;
    return 0;
  case FL_OPT_LAYOUT:
    a->layout = 1;
    return 0;
  case FL_OPT_ALLOW_LID_OVERFLOW:
    a->allow_lid_overflow = 1;
    return 0;
  case FL_OPT_INBAND_MGMT:
    a->net.inband = 1;
    return 0;
  default:
    return usage("option '--%s' is not handled by gen", name);
  }
}

/** The KIND among the operands: 0, or an exit code (message printed). */
static int parse_kind(gen_args *a, const fl_cli_args *args,
                      const fl_cli_kind **kind) {
  if (args->n_operands == 0)
    return usage("missing KIND (fat-tree, rail-su, ring or torus)");
  const char *name = args->operands[0];
  if (args->n_operands > 1)
    return usage("unexpected argument '%s' (gen takes one KIND, here '%s')",
                 args->operands[1], name);
  a->kind = fl_gen_kind_parse(name);
  *kind = fl_cli_find_kind(name);
  if (a->kind == FL_GEN_DRAGONFLY)
    return usage("KIND '%s' is not available in this version "
                 "(fat-tree, rail-su, ring, torus)",
                 name);
  if (a->kind == 0 || !*kind)
    return usage("unknown KIND '%s' (expected fat-tree, rail-su, ring or "
                 "torus)",
                 name);
  return 0;
}

/** Parse argv (argv[0] == "gen"): options anywhere around KIND, `--` ends
 * them (cli_args.h); 0 go on, -1 help printed, else exit. */
static int parse_args(gen_args *a, int argc, char **argv) {
  fl_cli_args args;
  const fl_cli_cmd *cmd = fl_cli_find_cmd("gen");
  if (fl_cli_args_scan(cmd, argc, argv, &args) != 0)
    return EXIT_USAGE;
  int rc = 0;
  for (size_t i = 0; i < args.n_items && rc == 0; i++)
    if (args.items[i].opt->id == FL_OPT_HELP) {
      fl_cli_usage_cmd(stdout, cmd);
      rc = -1;
    }
  const fl_cli_kind *kind = NULL;
  if (rc == 0)
    rc = parse_kind(a, &args, &kind);
  for (size_t i = 0; i < args.n_items && rc == 0; i++) {
    const fl_cli_opt *o = args.items[i].opt;
    char kinds[128] = "";
    for (const fl_cli_kind *k = FL_CLI_KINDS; k->name; k++)
      if (o->kinds & k->bit)
        snprintf(kinds + strlen(kinds), sizeof kinds - strlen(kinds), "%s%s",
                 kinds[0] ? " and " : "", k->name);
    if (o->kinds && !(o->kinds & kind->bit))
      rc = usage("--%s is an option of gen %s, not of %s", o->name, kinds,
                 kind->name);
    else
      rc = apply_one(a, &args.items[i]);
  }
  fl_cli_args_free(&args);
  if (rc != 0)
    return rc;
  if (a->kind == FL_GEN_RING && a->to.x == 0)
    return usage("ring needs --switches N");
  if (a->kind == FL_GEN_TORUS && (a->to.x == 0 || a->to.y == 0))
    return usage("torus needs --x X and --y Y (for one dimension use "
                 "`fabriclint gen ring`)");
  if ((a->net.storage_nodes || a->net.inband) && !a->dry_run &&
      (!a->output || a->format != GEN_FMT_DESIGN))
    return usage("--%s writes one design XML plan per network: give -o "
                 "FILE.xml (the storage fabric goes to FILE.storage.xml, the "
                 "in-band network to FILE.inband.xml) and no --format other "
                 "than design",
                 a->net.storage_nodes ? "storage-nodes" : "inband-mgmt");
  if (a->n_hca && a->n_hca != (a->rs.rails ? a->rs.rails : 8))
    return usage("--hca-map names %s HCAs; it needs one per rail",
                 a->n_hca < (a->rs.rails ? a->rs.rails : 8) ? "too few"
                                                            : "too many");
  return 0;
}

/** Copy the common link/LID settings into the kind's parameters. */
static void apply_common(gen_args *a) {
  a->ft.width = a->rs.width = a->to.width = a->width;
  a->ft.speed = a->rs.speed = a->to.speed = a->speed;
  a->ft.no_lids = a->rs.no_lids = a->to.no_lids = a->no_lids;
  a->ft.tiers = a->rs.tiers = a->tiers;
  if (a->n_hca)
    a->rs.hca_names = a->hca_names;
}

static void print_shape(const fl_gen_shape *s) {
  printf("hosts %u\ncas %u\nswitches %u\nleaves %u\nspines %u\ncores %u\n"
         "pods %u\nparallel %u\nlinks %u\nhost-links %u\nlids %u\n",
         s->hosts, s->cas, s->switches, s->leaves, s->spines, s->cores, s->pods,
         s->parallel, s->links, s->host_links, s->lids);
}

static int write_fabric(const gen_args *a, const fl_fabric *fab, FILE *out,
                        fl_error *err) {
  switch (a->format) {
  case GEN_FMT_IBND:
    return fl_write_ibnetdiscover(fab, out, err);
  case GEN_FMT_IBSIM:
    return fl_write_ibsim_net(fab, out, err);
  default:
    return fl_write_design_xml(fab, out, err);
  }
}

/** Write to -o FILE or stdout. -o goes through core/outfile.h: a temporary
 * file renamed into place, or the path itself when it is not a regular file;
 * on failure nothing that existed before the run is removed. */
static int emit(const gen_args *a, const fl_fabric *fab, const char *output) {
  fl_error err;
  char msg[FL_ERROR_MSG_MAX + FL_ERROR_FILE_MAX + 32];
  fl_error_clear(&err);
  fl_outfile of = {0};
  if (output && fl_outfile_open(&of, output, &err) != FL_OK) {
    fprintf(stderr, "fabriclint gen: %s\n",
            fl_error_format(&err, msg, (uint32_t)sizeof msg));
    return EXIT_USAGE;
  }
  errno = 0;
  int rc = write_fabric(a, fab, output ? of.f : stdout, &err);
  int e = errno ? errno : EIO;
  if (output && rc == FL_OK) {
    rc = fl_outfile_commit(&of, &err);
  } else if (output) {
    fl_outfile_abort(&of); /* removes only the temporary file */
    if (rc == FL_EIO) {
      fl_error_clear(&err);
      fl_error_set(&err, FL_EIO, output, 0, 0, "cannot write: %s", strerror(e));
    }
  }
  if (rc == FL_OK)
    return 0;
  fprintf(stderr, "fabriclint gen: %s\n",
          fl_error_format(&err, msg, (uint32_t)sizeof msg));
  return EXIT_USAGE;
}

/* --storage-nodes / --inband-mgmt: the path of network @net's plan beside
 * -o FILE: FILE without a final ".xml", then ".<net>.xml". */
static char *network_path(const char *output, const char *net) {
  size_t n = strlen(output);
  if (n > 4 && strcmp(output + n - 4, ".xml") == 0)
    n -= 4;
  char *p = malloc(n + strlen(net) + 6);
  if (p)
    sprintf(p, "%.*s.%s.xml", (int)n, output, net);
  return p;
}

/* Each network of @all into its own plan: the compute fabric to -o FILE,
 * the storage fabric and the in-band network beside it (fabriclint/gen.h:
 * one design file is one fabric). */
static int emit_networks(const gen_args *a, const fl_fabric *all) {
  static const char *const nets[] = {NULL, "storage", "inband"};
  int rc = 0;
  for (int i = 0; i < 3 && rc == 0; i++) {
    if ((i == 1 && !a->net.storage_nodes) || (i == 2 && !a->net.inband))
      continue;
    fl_error err;
    fl_error_clear(&err);
    fl_fabric *part = NULL;
    char *path = i ? network_path(a->output, nets[i]) : NULL;
    if ((i && !path) || fl_gen_network_part(all, nets[i], &part, &err) != FL_OK)
      rc = usage("out of memory");
    else
      rc = emit(a, part, i ? path : a->output);
    fl_fabric_free(part);
    free(path);
  }
  return rc;
}

/* --planes N: the shape counts of N planes sharing the hosts. */
static void shape_planes(fl_gen_shape *s, uint32_t n) {
  s->cas *= n;
  s->switches *= n;
  s->leaves *= n;
  s->spines *= n;
  s->cores *= n;
  s->links *= n;
  s->host_links *= n;
}

/* The shape of fat tree @a with @n hosts. (A 2-tier rail-su subnet cannot
 * overflow: at most 254 leaves of 127 hosts; a 3-tier one gets the plain
 * hint of refuse_lid_overflow().) */
static int shape_with(const gen_args *a, uint32_t n, fl_gen_shape *s) {
  fl_error err;
  fl_error_clear(&err);
  fl_gen_fat_tree_params p = a->ft;
  p.hosts = n;
  return fl_gen_fat_tree_shape(&p, s, &err);
}

static uint64_t lids_of(const fl_gen_shape *s) {
  return (uint64_t)s->switches + s->cas;
}

/* The most hosts of fat tree @a, up to @hi, whose subnet fits the unicast
 * LIDs; 0 when not even one does. Binary search on the shape (pure
 * arithmetic). */
static uint32_t most_that_fit(const gen_args *a, uint32_t hi) {
  uint32_t lo = 0;
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo + 1) / 2;
    fl_gen_shape s;
    if (shape_with(a, mid, &s) == FL_OK && lids_of(&s) <= FL_GEN_MAX_UCAST_LID)
      lo = mid;
    else
      hi = mid - 1;
  }
  return lo;
}

/* An InfiniBand subnet of more ports than unicast LIDs (IBA 4.1.3:
 * 0x0001-0xBFFF, one LID per switch and per CA port at LMC 0): gen would
 * leave the rest without a LID, so it refuses, with the numbers and what
 * fits (issue #30). Each plane of --planes is its own subnet, but carries
 * every host: it helps only with fewer hosts per plane. 0 when it fits. */
static int refuse_lid_overflow(const gen_args *a, const fl_gen_shape *s) {
  uint64_t need = lids_of(s);
  if (need <= FL_GEN_MAX_UCAST_LID || a->allow_lid_overflow ||
      (a->speed >= FL_SPEED_ETH_1G))
    return 0;
  fprintf(stderr,
          "fabriclint gen %s: one subnet of %u switches and %u CA ports needs "
          "%llu LIDs, but an InfiniBand subnet has %u unicast LIDs "
          "(0x0001-0xBFFF): %llu ports would get no LID.\n",
          fl_gen_kind_name(a->kind), s->switches, s->cas,
          (unsigned long long)need, FL_GEN_MAX_UCAST_LID,
          (unsigned long long)(need - FL_GEN_MAX_UCAST_LID));
  if (a->kind == FL_GEN_FAT_TREE) {
    uint32_t h = most_that_fit(a, s->hosts);
    uint32_t pl = 2;
    fl_gen_shape t;
    while (pl <= FL_GEN_MAX_PLANES &&
           !(shape_with(a, (s->hosts + pl - 1) / pl, &t) == FL_OK &&
             lids_of(&t) <= FL_GEN_MAX_UCAST_LID))
      pl++;
    fprintf(stderr, "One subnet holds at most --hosts %u here", h);
    if (pl <= FL_GEN_MAX_PLANES)
      fprintf(stderr,
              "; for %u endpoints use planes, each its own subnet with one "
              "NIC of every host: --planes %u --hosts %u (%llu LIDs per "
              "plane)",
              s->hosts, pl, (s->hosts + pl - 1) / pl,
              (unsigned long long)lids_of(&t));
    fprintf(stderr, ".\n");
  } else {
    fprintf(stderr, "Build it as several subnets of at most %u LIDs each.\n",
            FL_GEN_MAX_UCAST_LID);
  }
  fprintf(stderr, "(--allow-lid-overflow writes it anyway, as a scale test; "
                  "check then reports topology.lid-space)\n");
  return EXIT_USAGE;
}

static int generate(gen_args *a) {
  fl_error err;
  fl_gen_shape shape;
  fl_fabric *fab = NULL;
  char msg[FL_ERROR_MSG_MAX + FL_ERROR_FILE_MAX + 32];
  fl_error_clear(&err);
  apply_common(a);
  int rc;
  switch (a->kind) {
  case FL_GEN_FAT_TREE:
    rc = fl_gen_fat_tree_shape(&a->ft, &shape, &err);
    break;
  case FL_GEN_RAIL_SU:
    rc = fl_gen_rail_su_shape(&a->rs, &shape, &err);
    break;
  default: /* FL_GEN_RING, FL_GEN_TORUS */
    rc = fl_gen_torus_shape(&a->to, &shape, &err);
  }
  if (rc == FL_OK && a->planes > FL_GEN_MAX_PLANES)
    rc = fl_error_set(&err, FL_EINVAL, NULL, 0, 0,
                      "--planes: expected 1..%u, got %u", FL_GEN_MAX_PLANES,
                      a->planes);
  if (rc == FL_OK) {
    int refused = refuse_lid_overflow(a, &shape);
    if (refused)
      return refused;
  }
  if (rc == FL_OK && a->dry_run) {
    if (a->planes > 1)
      shape_planes(&shape, a->planes);
    print_shape(&shape);
    return 0;
  }
  if (rc == FL_OK) {
    switch (a->kind) {
    case FL_GEN_FAT_TREE:
      rc = fl_gen_fat_tree(&a->ft, &fab, &err);
      break;
    case FL_GEN_RAIL_SU:
      rc = fl_gen_rail_su(&a->rs, &fab, &err);
      break;
    default:
      rc = fl_gen_torus(&a->to, &fab, &err);
    }
  }
  if (rc == FL_OK && a->planes > 1) {
    fl_fabric *one = fab;
    rc = fl_gen_planes(one, a->planes, &fab, &err);
    fl_fabric_free(one);
  }
  if (rc == FL_OK && (a->net.storage_nodes || a->net.inband)) {
    fl_fabric *compute = fab;
    a->net.no_lids = a->no_lids;
    a->net.radix = a->kind == FL_GEN_FAT_TREE  ? a->ft.radix
                   : a->kind == FL_GEN_RAIL_SU ? a->rs.leaf_radix
                                               : 0;
    rc = fl_gen_networks(compute, &a->net, &fab, &err);
    fl_fabric_free(compute);
  }
  if (rc == FL_OK && a->layout) {
    fl_fabric *bare = fab;
    fl_gen_layout_params lp = a->lay;
    if (a->kind != FL_GEN_RAIL_SU) { /* 1U servers, not DGX-class hosts */
      lp.host_u = lp.host_u ? lp.host_u : 1;
      uint32_t fit = (lp.rack_u ? lp.rack_u : 42) / lp.host_u;
      if (!lp.hosts_per_rack)
        lp.hosts_per_rack = fit < 32 ? (fit ? fit : 1) : 32;
    }
    rc = fl_gen_layout(bare, &lp, &fab, &err);
    fl_fabric_free(bare);
  }
  if (rc != FL_OK) {
    fprintf(stderr, "fabriclint gen %s: %s\n(see fabriclint gen --help)\n",
            fl_gen_kind_name(a->kind),
            fl_error_format(&err, msg, (uint32_t)sizeof msg));
    return EXIT_USAGE;
  }
  rc = a->net.storage_nodes || a->net.inband ? emit_networks(a, fab)
                                             : emit(a, fab, a->output);
  fl_fabric_free(fab);
  return rc;
}

int fl_cli_gen(int argc, char **argv) {
  gen_args a;
  memset(&a, 0, sizeof a);
  int rc = parse_args(&a, argc, argv);
  if (rc == 0)
    rc = generate(&a);
  else if (rc < 0)
    rc = 0;
  free(a.hca_buf);
  return rc;
}
