/* SPDX-License-Identifier: MIT */
/*
 * core/cli/cli_convert.c — `fabriclint convert INPUT... -o OUT [--format
 * FORMAT] [--force]`: load the inputs into one fabric, as info does, and
 * write it in another format with the library's writers
 * (fabriclint/write.h): design XML, ibnetdiscover, ibsim net file, UFM NDT,
 * Graphviz DOT, GraphML (issue #16; docs/cli.md "convert"), and Slurm's
 * topology.conf (tree or block) and topology.yaml (issue #36).
 *
 * What the user owns is safe: OUT is never a file the run reads (refused
 * before and after loading, as --output of every command), and an existing
 * regular OUT is refused unless --force; a device or FIFO (`/dev/null`) is
 * written as given. The file appears whole or not at all (io/outfile.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "cli/cli_common.h"
#include "fabriclint/fabric.h"
#include "fabriclint/write.h"

typedef int (*conv_write_fn)(const fl_fabric *fab, FILE *out, fl_error *err);

/* The output formats: --format name, the extensions that name it, writer. */
static const struct conv_fmt {
  const char *name;
  const char *ext[3];
  conv_write_fn write;
} FORMATS[] = {
    {"design", {".xml", NULL, NULL}, fl_write_design_xml},
    {"ibnetdiscover",
     {".ibnetdiscover", ".ibnd", NULL},
     fl_write_ibnetdiscover},
    {"ibsim", {".net", NULL, NULL}, fl_write_ibsim_net},
    {"ndt", {".ndt", NULL, NULL}, fl_write_ufm_ndt},
    {"netbox-cables", {NULL, NULL, NULL}, fl_write_netbox_cables},
    {"dot", {".dot", ".gv", NULL}, fl_write_dot},
    {"graphml", {".graphml", NULL, NULL}, fl_write_graphml},
    {"slurm-tree", {"topology.conf", NULL, NULL}, fl_write_slurm_tree},
    {"slurm-block", {NULL, NULL, NULL}, fl_write_slurm_block},
    {"slurm-yaml", {"topology.yaml", NULL, NULL}, fl_write_slurm_yaml},
};
#define N_FORMATS (sizeof FORMATS / sizeof *FORMATS)

typedef struct conv_args {
  const struct conv_fmt *fmt; /* --format, or NULL */
  int force;                  /* --force */
} conv_args;

static const struct conv_fmt *fmt_named(const char *name) {
  for (size_t i = 0; name && i < N_FORMATS; i++)
    if (strcmp(FORMATS[i].name, name) == 0)
      return &FORMATS[i];
  return NULL;
}

/* The format OUT's extension names (case-sensitive, as file systems are),
 * or its whole file name does (Slurm's topology.conf, topology.yaml), or
 * NULL. */
static const struct conv_fmt *fmt_of_path(const char *path) {
  size_t n = strlen(path);
  for (size_t i = 0; i < N_FORMATS; i++)
    for (size_t k = 0; k < 3 && FORMATS[i].ext[k]; k++) {
      const char *x = FORMATS[i].ext[k];
      size_t e = strlen(x);
      if (n < e || strcmp(path + n - e, x) != 0)
        continue;
      /* an extension needs a name before it; a whole file name
       * (topology.conf) must be the whole last component */
      if (x[0] == '.' ? n > e && path[n - e - 1] != '/'
                      : n == e || path[n - e - 1] == '/')
        return &FORMATS[i];
    }
  return NULL;
}

/* convert's own options: --format (its values are not the report formats
 * the shared parser knows) and --force. */
static int conv_option(void *ctx, const fl_cli_item *it, int *rc) {
  conv_args *a = ctx;
  switch (it->opt->id) {
  case FL_OPT_FORMAT:
    a->fmt = fmt_named(it->value);
    *rc = a->fmt ? 0
                 : fl_cli_usage_error("--format: expected design, "
                                      "ibnetdiscover, ibsim, ndt, "
                                      "netbox-cables, dot, graphml, "
                                      "slurm-tree, slurm-block or "
                                      "slurm-yaml, got '%s'",
                                      it->value);
    return 1;
  case FL_OPT_FORCE:
    a->force = 1;
    *rc = 0;
    return 1;
  default:
    return 0;
  }
}

/* 0 when OUT may be written: standard output, a path that does not exist,
 * a device or FIFO, or an existing regular file with --force. */
static int check_target(const conv_args *a, const char *out) {
  struct stat st;
  if (strcmp(out, "-") == 0 || stat(out, &st) != 0)
    return 0;
  if (S_ISDIR(st.st_mode))
    return fl_cli_usage_error("-o %s: is a folder; convert writes one file",
                              out);
  if (S_ISREG(st.st_mode) && !a->force)
    return fl_cli_usage_error("-o %s: the file exists; give --force to "
                              "replace it",
                              out);
  return 0;
}

/* The options, checked: 0 to go on, else an exit code (message printed). */
static int conv_check(const fl_cli_opts *o, conv_args *a) {
  if (o->n_inputs == 0)
    return fl_cli_usage_error("convert needs at least one INPUT%s", "");
  if (!o->output)
    return fl_cli_usage_error("convert needs -o OUT (`-o -` writes to "
                              "standard output)%s",
                              "");
  if (!a->fmt && strcmp(o->output, "-") != 0)
    a->fmt = fmt_of_path(o->output);
  if (!a->fmt)
    return fl_cli_usage_error("convert needs --format design, ibnetdiscover, "
                              "ibsim, ndt, netbox-cables, dot, graphml, "
                              "slurm-tree, slurm-block or slurm-yaml ('%s' "
                              "does not name one by its extension)",
                              o->output);
  int rc = check_target(a, o->output);
  return rc ? rc : fl_cli_check_outputs(o, o->inputs, o->n_inputs);
}

int fl_cli_convert(int argc, char **argv) {
  fl_cli_opts o;
  conv_args a = {NULL, 0};
  int rc = fl_cli_parse_ext(argc, argv, &o, conv_option, &a);
  if (rc != 0) {
    fl_cli_opts_free(&o);
    return rc < 0 ? 0 : rc;
  }
  fl_fabric *fab = NULL;
  fl_outfile out = {0};
  rc = conv_check(&o, &a);
  if (rc == 0)
    rc = fl_cli_load_fabric(&o, &fab, NULL);
  if (rc == 0 && fl_fabric_node_count(fab) == 0)
    rc = fl_cli_usage_error("the inputs describe no node: nothing to "
                            "convert%s",
                            "");
  if (rc == 0)
    rc = fl_cli_open_output(&o, &out);
  if (rc == 0) {
    fl_error err;
    fl_error_clear(&err);
    if (a.fmt->write(fab, out.f, &err) != FL_OK) {
      fl_cli_print_error(&err);
      rc = FL_EXIT_USAGE;
    } else if (o.verbose) {
      fprintf(stderr, "fabriclint: wrote %s as %s: %u nodes, %u links\n",
              strcmp(o.output, "-") ? o.output : "standard output", a.fmt->name,
              fl_fabric_node_count(fab), fl_fabric_link_count(fab));
    }
  }
  rc = fl_cli_close_output(&out, rc);
  fl_fabric_free(fab);
  fl_cli_opts_free(&o);
  return rc;
}
