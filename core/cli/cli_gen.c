/*
 * core/cli_gen.c — `fabriclint gen KIND [PARAMS]`: write a standard topology.
 *
 * Why a subcommand and not a script: the formulas of fabriclint/gen.h are
 * the single statement of what a fat tree, a rail-optimised SU, a ring or a
 * torus is, and a
 * plan of 100k GPUs has to be one command away (DESIGN.md §5). The output is
 * design XML by default (the plan format), or an ibnetdiscover dump / ibsim
 * net file of the same fabric, so the same parameters also drive tests,
 * benchmarks and the ibsim runs of fabrics/regen.sh.
 *
 * Parsing is by hand rather than getopt_long: the subcommand is entered with
 * argv[0] == "gen" from a main that already ran getopt, options are few and
 * all of the `--name VALUE` / `--name=VALUE` form, and an explicit table
 * keeps each option's kind (which topology accepts it) next to its target.
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
  enum gen_format format;
  const char *output;
  int dry_run;
  char *hca_buf; /* owned copy of --hca-map, split in place */
  const char *hca_names[MAX_RAILS];
  uint32_t n_hca;
} gen_args;

static const char *gen_help =
    "usage: fabriclint gen KIND [PARAMS] [--format F] [-o FILE]\n"
    "\n"
    "Write a standard topology (default: fabriclint design XML on stdout).\n"
    "\n"
    "KIND fat-tree: a folded Clos of radix-K switches\n"
    "  --radix K          ports per switch, even, 4..254 (required)\n"
    "  --tiers 2|3        leaf/spine, or leaf/spine/core in pods (default 2)\n"
    "  --hosts N          attach N hosts (default: full, K^2/2 for 2 tiers,\n"
    "                     K^3/4 for 3 tiers); unused leaves/pods left out\n"
    "  --parallel M       cables per switch pair, divides K/2 (default 1)\n"
    "  --extra-leaf-link  add one cable between the first and the last leaf\n"
    "                     (on port K+1 of both; a miscabling that breaks\n"
    "                     up/down routing)\n"
    "\n"
    "KIND rail-su: rail-optimised scalable units, DGX SuperPOD style\n"
    "  --sus N            scalable units (required)\n"
    "  --hosts-per-su H   hosts per SU, at most leaf radix / 2 (default 32)\n"
    "  --rails R          compute HCAs per host = leaves per SU (default 8)\n"
    "  --spines S         spines, divides leaf radix / 2 (default: fewest)\n"
    "  --leaf-radix K     ports per leaf and spine (default 64)\n"
    "  --hca-map LIST     comma-separated HCA per rail (default DGX H100:\n"
    "                     mlx5_0,mlx5_3,mlx5_4,mlx5_5,mlx5_6,mlx5_9,mlx5_10,\n"
    "                     mlx5_11 for 8 rails, else mlx5_<rail>)\n"
    "  --host-prefix P    host names P-001, P-002, ... (default dgx)\n"
    "\n"
    "KIND ring: N switches in a cycle, H hosts on each (all switches tier 1)\n"
    "  --switches N       switches in the ring, 2..4096 (required)\n"
    "  --hosts-per-switch H  hosts per switch, 1..250 (default 1)\n"
    "\n"
    "KIND torus: an X x Y 2-D torus, wraparound links in both dimensions\n"
    "  --x X, --y Y       switches along x and y, 2..4096 (required)\n"
    "  --hosts-per-switch H  hosts per switch, 1..250 (default 1)\n"
    "\n"
    "Common:\n"
    "  --speed S          link speed: SDR..XDR, or 100G..800G (default NDR)\n"
    "  --width W          link width: 1x, 2x, 4x, 8x, 12x (default 4x)\n"
    "  --no-lids          leave LIDs unassigned (default: as an SM would)\n"
    "  --format F         design (default), ibnetdiscover, or ibsim\n"
    "  -o, --output FILE  write to FILE instead of stdout\n"
    "  --dry-run          print the counts only\n"
    "  -h, --help         this help\n"
    "\n"
    "Shapes, names and port plans: include/fabriclint/gen.h.\n";

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

/** A numeric option: its name, the kind accepting it (0: any), its target. */
typedef struct num_opt {
  const char *name;
  uint32_t kind;
  uint32_t *dst;
} num_opt;

/** Options taking a value (other than numbers); 0 or an exit code. */
static int string_opt(gen_args *a, const char *name, const char *val) {
  if (strcmp(name, "--speed") == 0) {
    a->speed = fl_speed_parse(val, strlen(val));
    if (a->speed == FL_SPEED_UNKNOWN)
      return usage("--speed: expected SDR..XDR or 100G..800G, got '%s'", val);
  } else if (strcmp(name, "--width") == 0) {
    a->width = fl_width_parse(val, strlen(val));
    if (a->width == 0)
      return usage("--width: expected 1x, 2x, 4x, 8x or 12x, got '%s'", val);
  } else if (strcmp(name, "--format") == 0) {
    return parse_format(a, val);
  } else if (strcmp(name, "--output") == 0 || strcmp(name, "-o") == 0) {
    a->output = val;
  } else if (strcmp(name, "--hca-map") == 0 && a->kind == FL_GEN_RAIL_SU) {
    return parse_hca_map(a, val);
  } else if (strcmp(name, "--host-prefix") == 0 && a->kind == FL_GEN_RAIL_SU) {
    a->rs.host_prefix = val;
  } else {
    return -1;
  }
  return 0;
}

static int is_flag(gen_args *a, const char *arg) {
  if (strcmp(arg, "--no-lids") == 0)
    a->no_lids = 1;
  else if (strcmp(arg, "--extra-leaf-link") == 0 && a->kind == FL_GEN_FAT_TREE)
    a->ft.extra_leaf_link = 1;
  else if (strcmp(arg, "--dry-run") == 0)
    a->dry_run = 1;
  else
    return 0;
  return 1;
}

/** Handle option @i (and its value); returns 0 or an exit code; *@used. */
static int parse_one(gen_args *a, int argc, char **argv, int i, int *used) {
  const num_opt nums[] = {
      {"--radix", FL_GEN_FAT_TREE, &a->ft.radix},
      {"--tiers", FL_GEN_FAT_TREE, &a->ft.tiers},
      {"--hosts", FL_GEN_FAT_TREE, &a->ft.hosts},
      {"--parallel", FL_GEN_FAT_TREE, &a->ft.parallel},
      {"--sus", FL_GEN_RAIL_SU, &a->rs.sus},
      {"--hosts-per-su", FL_GEN_RAIL_SU, &a->rs.hosts_per_su},
      {"--rails", FL_GEN_RAIL_SU, &a->rs.rails},
      {"--spines", FL_GEN_RAIL_SU, &a->rs.spines},
      {"--leaf-radix", FL_GEN_RAIL_SU, &a->rs.leaf_radix},
      {"--switches", FL_GEN_RING, &a->to.x},
      {"--hosts-per-switch", FL_GEN_RING, &a->to.hosts_per_switch},
      {"--x", FL_GEN_TORUS, &a->to.x},
      {"--y", FL_GEN_TORUS, &a->to.y},
      {"--hosts-per-switch", FL_GEN_TORUS, &a->to.hosts_per_switch},
  };
  char name[64];
  const char *arg = argv[i], *val = NULL, *eq = strchr(arg, '=');
  *used = 1;
  if (is_flag(a, arg))
    return 0;
  size_t nlen = eq && arg[1] == '-' ? (size_t)(eq - arg) : strlen(arg);
  if (nlen >= sizeof name)
    return usage("unknown option '%s'", arg);
  memcpy(name, arg, nlen);
  name[nlen] = '\0';
  if (eq && arg[1] == '-')
    val = eq + 1;
  else if (i + 1 < argc)
    val = argv[i + 1], *used = 2;
  for (size_t k = 0; k < sizeof nums / sizeof nums[0]; k++) {
    if (strcmp(name, nums[k].name) != 0 || nums[k].kind != a->kind)
      continue;
    if (!val)
      return usage("option '%s' needs a value", name);
    if (parse_u32(val, nums[k].dst) != 0 || *nums[k].dst == 0)
      return usage("%s: expected a positive whole number, got '%s'", name, val);
    return 0;
  }
  if (!val &&
      (strcmp(name, "--speed") == 0 || strcmp(name, "--width") == 0 ||
       strcmp(name, "--format") == 0 || strcmp(name, "-o") == 0 ||
       strcmp(name, "--output") == 0 || strcmp(name, "--hca-map") == 0 ||
       strcmp(name, "--host-prefix") == 0))
    return usage("option '%s' needs a value", name);
  int rc = val ? string_opt(a, name, val) : -1;
  if (rc < 0)
    return usage("unknown option for %s: '%s'", fl_gen_kind_name(a->kind),
                 name);
  return rc;
}

/** Parse argv (argv[0] == "gen"); 0 go on, -1 help printed, else exit. */
static int parse_args(gen_args *a, int argc, char **argv) {
  if (argc < 2)
    return usage("missing KIND (fat-tree, rail-su, ring or torus)");
  if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
    fputs(gen_help, stdout);
    return -1;
  }
  a->kind = fl_gen_kind_parse(argv[1]);
  if (a->kind == FL_GEN_DRAGONFLY)
    return usage("KIND '%s' is not available in this version "
                 "(fat-tree, rail-su, ring, torus)",
                 argv[1]);
  if (a->kind == 0)
    return usage("unknown KIND '%s' (expected fat-tree, rail-su, ring or "
                 "torus)",
                 argv[1]);
  for (int i = 2; i < argc;) {
    if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
      fputs(gen_help, stdout);
      return -1;
    }
    int used, rc = parse_one(a, argc, argv, i, &used);
    if (rc != 0)
      return rc;
    i += used;
  }
  if (a->kind == FL_GEN_RING && a->to.x == 0)
    return usage("ring needs --switches N");
  if (a->kind == FL_GEN_TORUS && (a->to.x == 0 || a->to.y == 0))
    return usage("torus needs --x X and --y Y (for one dimension use "
                 "`fabriclint gen ring`)");
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
static int emit(const gen_args *a, const fl_fabric *fab) {
  fl_error err;
  char msg[FL_ERROR_MSG_MAX + FL_ERROR_FILE_MAX + 32];
  fl_error_clear(&err);
  fl_outfile of = {0};
  if (a->output && fl_outfile_open(&of, a->output, &err) != FL_OK) {
    fprintf(stderr, "fabriclint gen: %s\n",
            fl_error_format(&err, msg, (uint32_t)sizeof msg));
    return EXIT_USAGE;
  }
  errno = 0;
  int rc = write_fabric(a, fab, a->output ? of.f : stdout, &err);
  int e = errno ? errno : EIO;
  if (a->output && rc == FL_OK) {
    rc = fl_outfile_commit(&of, &err);
  } else if (a->output) {
    fl_outfile_abort(&of); /* removes only the temporary file */
    if (rc == FL_EIO) {
      fl_error_clear(&err);
      fl_error_set(&err, FL_EIO, a->output, 0, 0, "cannot write: %s",
                   strerror(e));
    }
  }
  if (rc == FL_OK)
    return 0;
  fprintf(stderr, "fabriclint gen: %s\n",
          fl_error_format(&err, msg, (uint32_t)sizeof msg));
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
  if (rc == FL_OK && a->dry_run) {
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
  if (rc != FL_OK) {
    fprintf(stderr, "fabriclint gen %s: %s\n(see fabriclint gen --help)\n",
            fl_gen_kind_name(a->kind),
            fl_error_format(&err, msg, (uint32_t)sizeof msg));
    return EXIT_USAGE;
  }
  rc = emit(a, fab);
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
