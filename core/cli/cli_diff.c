/* SPDX-License-Identifier: MIT */
/*
 * core/cli/cli_diff.c — `fabriclint diff [OPTIONS] DESIGN AS_BUILT`: compare
 * the planned cabling with what was built (DESIGN.md §2 and §7; docs/cli.md,
 * docs/rules/diff.md).
 *
 * DESIGN and AS_BUILT are any inputs fabriclint loads (design XML, ibdm
 * .topo, Cisco cable plan, ibnetdiscover, LLDP XML...) or folders of them
 * (one file per device). Options are those of `check` (same exit codes,
 * same text and JSON), plus:
 *   --format csv              the field team's work order instead of findings
 *   --design FILE|DIR         one more design input (repeatable)
 *   --as-built FILE|DIR       one more as-built input (repeatable)
 *   --design-format FMT       format of the design inputs (default auto)
 *   --as-built-format FMT     format of the as-built inputs (default auto)
 *   --design-plane NAME:FILE  one more design input, in plane NAME
 *   --as-built-plane NAME:FILE one more as-built input, in plane NAME
 *   --compare-lids            report LIDs that differ (ignored by default)
 *   --no-guid                 match nodes by name only
 *   --as-given                never swap a capture given as DESIGN and a
 *                             plan given as AS_BUILT (diff.reversed)
 * The diff-only options (rows of cli_table.c) are handled by diff_option()
 * during the shared parse (cli_common.h), so every common option behaves as
 * in `check`. Plugins are not loaded: diff findings come from the core.
 */
#include <errno.h>
#include <fnmatch.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/cli_common.h"
#include "cli/cli_diff_xlsx.h"
#include "cli/cli_inputs.h"
#include "diff/diff.h"
#include "fabriclint/fabric.h"
#include "fabriclint/load.h"
#include "fabriclint/planes.h"
#include "report/report.h"

typedef struct diff_args {
  int csv; /* the work order: 1 CSV, 2 a workbook (xlsx); 0 findings */
  fl_diff_opts dopts;
  uint32_t fmt[2];
  const char **paths[2];
  char **planes[2]; /* per path: its plane (--design-plane...) or NULL; owned */
  size_t n_paths[2];
} diff_args;

/* Add input @p of plane @plane (NULL: none; copied) to @side, at the end or,
 * @first, in front. */
static int push_path(diff_args *a, int side, const char *p, const char *plane,
                     size_t plane_len, int first) {
  size_t n = a->n_paths[side];
  const char **v = realloc((void *)a->paths[side], (n + 1) * sizeof *v);
  if (v)
    a->paths[side] = v;
  char **w = realloc(a->planes[side], (n + 1) * sizeof *w);
  if (w)
    a->planes[side] = w;
  char *name = plane ? strndup(plane, plane_len) : NULL;
  if (!v || !w || (plane && !name)) {
    free(name);
    return -1;
  }
  if (first) {
    memmove(v + 1, v, n * sizeof *v);
    memmove(w + 1, w, n * sizeof *w);
  }
  v[first ? 0 : n] = p;
  w[first ? 0 : n] = name;
  a->n_paths[side]++;
  return 0;
}

static void free_planes(diff_args *a) {
  for (int side = 0; side < 2; side++) {
    for (size_t i = 0; a->planes[side] && i < a->n_paths[side]; i++)
      free(a->planes[side][i]);
    free(a->planes[side]);
  }
}

/* The options only diff takes (fl_cli_extra_fn): 1 when handled. */
static int diff_option(void *ctx, const fl_cli_item *it, int *rc) {
  diff_args *a = ctx;
  const char *v = it->value;
  *rc = 0;
  switch (it->opt->id) {
  case FL_OPT_FORMAT: /* csv and xlsx here, the report formats in
                        fl_cli_parse() */
    a->csv = strcmp(v, "csv") == 0 ? 1 : strcmp(v, "xlsx") == 0 ? 2 : 0;
    return a->csv != 0;
  case FL_OPT_DESIGN_FORMAT:
  case FL_OPT_AS_BUILT_FORMAT: {
    int side = it->opt->id == FL_OPT_AS_BUILT_FORMAT;
    a->fmt[side] =
        fl_cli_format_arg(side ? "--as-built-format" : "--design-format", v);
    if (a->fmt[side] == (uint32_t)-1)
      *rc = FL_EXIT_USAGE;
    return 1;
  }
  case FL_OPT_DESIGN:
  case FL_OPT_AS_BUILT:
    if (push_path(a, it->opt->id == FL_OPT_AS_BUILT, v, NULL, 0, 0) != 0)
      *rc = FL_EXIT_USAGE;
    return 1;
  case FL_OPT_DESIGN_PLANE:
  case FL_OPT_AS_BUILT_PLANE: {
    int side = it->opt->id == FL_OPT_AS_BUILT_PLANE;
    size_t name_len;
    if (fl_cli_plane_spec(side ? "--as-built-plane" : "--design-plane", v,
                          &name_len) != 0) {
      *rc = FL_EXIT_USAGE;
      return 1;
    }
    if (push_path(a, side, v + name_len + 1, v, name_len, 0) != 0)
      *rc = FL_EXIT_USAGE;
    return 1;
  }
  case FL_OPT_COMPARE_LIDS:
    a->dopts.compare_lids = 1;
    return 1;
  case FL_OPT_NO_GUID:
    a->dopts.no_guid = 1;
    return 1;
  case FL_OPT_AS_GIVEN:
    a->dopts.as_given = 1;
    return 1;
  default:
    return 0;
  }
}

/* Loading one side (parsing only; finalize runs on the main thread, since
 * it builds the igraph view and igraph is not thread-safe). */
typedef struct side_job {
  const fl_cli_opts *o;
  const diff_args *a;
  int side;
  fl_fabric *fab;
  int rc;
} side_job;

static int is_xml_format(uint32_t f) {
  return f == FL_FMT_DESIGN_XML || f == FL_FMT_LLDPD_XML ||
         f == FL_FMT_JUNOS_XML || f == FL_FMT_CISCO_PLAN;
}

static int load_side_parse(const fl_cli_opts *o, const diff_args *a, int side,
                           fl_fabric *fab) {
  uint32_t fmt = a->fmt[side] ? a->fmt[side] : o->input_format;
  fl_error err;
  for (size_t i = 0; i < a->n_paths[side]; i++) {
    fl_error_clear(&err);
    if (o->verbose)
      fprintf(stderr, "fabriclint: loading %s %s\n",
              side ? "as-built" : "design", a->paths[side][i]);
    fl_load_options lo = o->load;
    lo.plane = a->planes[side][i]; /* --design-plane, --as-built-plane */
    if (fl_fabric_load(fab, a->paths[side][i], fmt, &lo, &err) != FL_OK) {
      fl_cli_print_error(&err);
      return FL_EXIT_USAGE;
    }
  }
  return 0;
}

static void *side_thread(void *arg) {
  side_job *j = arg;
  j->rc = load_side_parse(j->o, j->a, j->side, j->fab);
  return NULL;
}

/* The detected format of input @path before it is loaded, or FL_FMT_AUTO
 * for standard input (`-`), a pipe or a process substitution: those are
 * read once, when loaded, and detecting here would consume them (`ssh sm
 * ibnetdiscover | fabriclint diff plan.xml -` read an empty input). */
static uint32_t detect_regular(const char *path) {
  struct stat st;
  if (strcmp(path, "-") == 0 || stat(path, &st) != 0 || !S_ISREG(st.st_mode))
    return FL_FMT_AUTO;
  fl_error err;
  fl_error_clear(&err);
  return fl_detect_format(path, &err);
}

/* Side formats as they will be loaded (FL_FMT_AUTO when unsure). */
static uint32_t side_format(const fl_cli_opts *o, const diff_args *a,
                            int side) {
  uint32_t fmt = a->fmt[side] ? a->fmt[side] : o->input_format;
  if (fmt || a->n_paths[side] != 1)
    return fmt;
  return detect_regular(a->paths[side][0]);
}

/* Each side must hold a topology: routing dumps or attribute files alone
 * describe no cable, and comparing against an empty side would report every
 * planned node missing. Inputs whose format cannot be detected are left to
 * the loader, which names the problem. 0 or FL_EXIT_USAGE (printed). */
static int check_side_roles(const fl_cli_opts *o, const diff_args *a) {
  static const char *const side_name[2] = {"design", "as-built"};
  static const char *const side_opt[2] = {"--design-format",
                                          "--as-built-format"};
  for (int side = 0; side < 2; side++) {
    uint32_t given = a->fmt[side] ? a->fmt[side] : o->input_format;
    uint32_t first = FL_FMT_AUTO;
    int topo = 0, unknown = 0;
    for (size_t i = 0; i < a->n_paths[side]; i++) {
      uint32_t f = given ? given : detect_regular(a->paths[side][i]);
      unknown |= f == FL_FMT_AUTO;
      topo |= fl_format_is_topology(f);
      if (i == 0)
        first = f;
    }
    if (topo || unknown)
      continue;
    for (size_t i = 0; given && i < a->n_paths[side]; i++)
      if (fl_cli_forced_format_check(o, a->paths[side][i], given,
                                     a->fmt[side] ? side_opt[side]
                                                  : "--input-format") != 0)
        return FL_EXIT_USAGE;
    fprintf(stderr,
            "fabriclint: no topology among the %s inputs: %s is %s, which "
            "describes no cable; each side of diff needs an ibnetdiscover "
            "dump, a design, an opensm-subnet.lst, an ibdm topology, LLDP "
            "captures or a cable plan\n",
            side_name[side], a->paths[side][0], fl_format_name(first));
    return FL_EXIT_USAGE;
  }
  return 0;
}

/* Load both sides: in two threads when at most one side is XML (libxml2's
 * one-time initialisation must not race) and the budget allows two, else
 * one after the other. */
static int load_both(const fl_cli_opts *o, const diff_args *a, fl_fabric **d,
                     fl_fabric **b) {
  side_job j[2] = {{o, a, 0, fl_fabric_new(), 0},
                   {o, a, 1, fl_fabric_new(), 0}};
  if (!j[0].fab || !j[1].fab) {
    fprintf(stderr, "fabriclint: out of memory\n");
    fl_fabric_free(j[0].fab);
    fl_fabric_free(j[1].fab);
    return FL_EXIT_USAGE;
  }
  pthread_t t;
  int par = o->threads > 1 && /* --jobs 1: one thread */
            !(is_xml_format(side_format(o, a, 0)) &&
              is_xml_format(side_format(o, a, 1))) &&
            side_format(o, a, 1) != FL_FMT_AUTO;
  if (par && pthread_create(&t, NULL, side_thread, &j[1]) != 0)
    par = 0;
  side_thread(&j[0]);
  if (par)
    pthread_join(t, NULL);
  else if (j[0].rc == 0)
    side_thread(&j[1]);
  int rc = j[0].rc ? j[0].rc : j[1].rc;
  fl_error err;
  for (int s = 0; s < 2 && rc == 0; s++) {
    fl_error_clear(&err);
    if (fl_fabric_finalize(j[s].fab, &err) != FL_OK) {
      fl_cli_print_error(&err);
      rc = FL_EXIT_USAGE;
    }
  }
  if (rc != 0) {
    fl_fabric_free(j[0].fab);
    fl_fabric_free(j[1].fab);
    return rc;
  }
  *d = j[0].fab;
  *b = j[1].fab;
  return 0;
}

/* The plane every input of @side is tagged with (--design-plane NAME:FILE,
 * --as-built-plane), when they all name the same one and the side loaded as
 * one plane; else NULL. */
static const char *single_tag(const diff_args *a, int side,
                              const fl_fabric *f) {
  if (fl_fabric_plane_count(f) > 1)
    return NULL;
  const char *t = NULL;
  for (size_t i = 0; i < a->n_paths[side]; i++) {
    const char *p = a->planes[side][i];
    if (!p || (t && strcmp(t, p) != 0))
      return NULL;
    t = p;
  }
  return t;
}

/* The plane names of @f, "1, 2, 3", into @buf. */
static void plane_list(const fl_fabric *f, uint32_t skip, char *buf,
                       size_t size) {
  size_t o = 0;
  buf[0] = '\0';
  for (uint32_t k = 0; k < fl_fabric_plane_count(f) && o < size; k++) {
    if (k == skip)
      continue;
    int w = snprintf(buf + o, size - o, "%s%s", o ? ", " : "",
                     fl_fabric_plane_name(f, k));
    o += w > 0 ? (size_t)w : 0;
  }
}

/* One side is one tagged plane (a plan of plane 1 alone) and the other has
 * several planes (every plane captured): only the other side's plane of
 * that name is compared (fl_fabric_plane_subset()), so that the planes the
 * plan does not cover are not reported node by node. A note on standard
 * error names the planes left out. 0, or FL_EXIT_USAGE (printed) when the
 * other side has no plane of that name. */
static int narrow_to_plane(diff_args *a, fl_fabric **fab, fl_fabric **whole) {
  static const char *const side_name[2] = {"design", "as-built"};
  static const char *const side_opt[2] = {"--design-plane", "--as-built-plane"};
  for (int side = 0; side < 2; side++) {
    const char *tag = single_tag(a, side, fab[side]);
    fl_fabric *other = fab[!side];
    uint32_t n = fl_fabric_plane_count(other), k = 0;
    if (!tag || n < 2)
      continue;
    while (k < n && strcmp(fl_fabric_plane_name(other, k), tag) != 0)
      k++;
    char names[512];
    plane_list(other, k, names, sizeof names);
    if (k == n) {
      fprintf(stderr,
              "fabriclint: the %s is plane %s alone, and the %s has planes "
              "%s but none named %s: name the %s's plane as the %s does "
              "(%s NAME:FILE) to compare that plane\n",
              side_name[side], tag, side_name[!side], names, tag,
              side_name[side], side_name[!side], side_opt[side]);
      return FL_EXIT_USAGE;
    }
    fl_fabric *sub = NULL;
    fl_error err;
    fl_error_clear(&err);
    if (fl_fabric_plane_subset_ex(other, k, FL_SUBSET_BASE_NAMES, &sub, &err) !=
        FL_OK) {
      fl_cli_print_error(&err);
      return FL_EXIT_USAGE;
    }
    fprintf(stderr,
            "fabriclint: note: the %s is plane %s alone; comparing plane %s "
            "of the %s, its other plane(s) %s left out\n",
            side_name[side], tag, tag, side_name[!side], names);
    *whole = other; /* kept for the reasons of missing nodes */
    fab[!side] = sub;
    a->dopts.whole = other;
    a->dopts.whole_side = !side;
    a->dopts.plane = fl_fabric_plane_name(other, k);
    return 0;
  }
  return 0;
}

/* Keep only findings (and work-order rows) whose rule matches --rules. */
static int rule_selected(const char *patterns, const char *id) {
  if (!patterns)
    return 1;
  char copy[1024], *save = NULL;
  snprintf(copy, sizeof copy, "%s", patterns);
  for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save))
    if (fnmatch(t, id, 0) == 0 || strcmp(t, "diff") == 0)
      return 1;
  return 0;
}

static void filter_rules(const char *rules, fl_findings *fs, fl_work_order *wo,
                         size_t *n_rules) {
  size_t n_all;
  const fl_diff_rule *all = fl_diff_rules(&n_all);
  *n_rules = n_all;
  if (!rules)
    return;
  char *copy = strdup(rules);
  char *pats[64];
  size_t np = 0;
  char *save = NULL;
  for (char *t = strtok_r(copy, ",", &save); t && np < 64;
       t = strtok_r(NULL, ",", &save))
    pats[np++] = t;
#define MATCHES(id, out)                                                       \
  do {                                                                         \
    out = 0;                                                                   \
    for (size_t k_ = 0; k_ < np; k_++)                                         \
      if (fnmatch(pats[k_], id, 0) == 0 || strcmp(pats[k_], "diff") == 0)      \
        out = 1;                                                               \
  } while (0)
  *n_rules = 0;
  for (size_t i = 0; i < n_all; i++) {
    int m;
    MATCHES(all[i].id, m);
    *n_rules += (size_t)m;
  }
  size_t j = 0;
  for (size_t i = 0; i < fs->n; i++) {
    int m;
    MATCHES(fs->v[i].rule, m);
    if (m) {
      fs->v[j++] = fs->v[i];
    } else { /* free this record through a one-element list */
      fl_findings one = {malloc(sizeof *fs->v), 1, 1};
      if (one.v) {
        one.v[0] = fs->v[i];
        fl_findings_free(&one);
      }
    }
  }
  fs->n = j;
  if (wo) {
    j = 0;
    for (size_t i = 0; i < wo->n; i++) {
      int m;
      MATCHES(wo->v[i].finding, m);
      if (m) {
        wo->v[j++] = wo->v[i];
      } else {
        fl_work_order one = {malloc(sizeof *wo->v), 1, 1};
        if (one.v) {
          one.v[0] = wo->v[i];
          fl_work_order_free(&one);
        }
      }
    }
    wo->n = j;
  }
#undef MATCHES
  free(copy);
}

int fl_cli_diff(int argc, char **argv) {
  diff_args a;
  memset(&a, 0, sizeof a);
  fl_cli_opts o;
  memset(&o, 0, sizeof o);
  fl_fabric *fd = NULL, *fb = NULL, *whole = NULL;
  fl_findings fs = {0};
  fl_work_order wo = {0};
  fl_outfile out = {0};
  int rc = fl_cli_parse_ext(argc, argv, &o, diff_option, &a);
  if (rc != 0) {
    rc = rc < 0 ? 0 : rc;
    goto done;
  }
  if (o.n_inputs == 2 || (o.n_inputs == 0 && a.n_paths[0] && a.n_paths[1]) ||
      (o.n_inputs == 1 && (a.n_paths[0] || a.n_paths[1]))) {
    /* positional inputs come first on their side */
    size_t k = 0;
    for (int side = 0; side < 2 && k < o.n_inputs; side++) {
      if (o.n_inputs == 1 && a.n_paths[side])
        continue;
      if (push_path(&a, side, o.inputs[k++], NULL, 0, 1) != 0) {
        rc = FL_EXIT_USAGE;
        goto done;
      }
    }
  }
  if (!a.n_paths[0] || !a.n_paths[1] || o.n_inputs > 2) {
    rc = fl_cli_usage_error("diff needs DESIGN and AS_BUILT (got %s)",
                            o.n_inputs > 2 ? "more than two inputs"
                                           : "fewer than two");
    goto done;
  }
  if ((rc = fl_cli_check_stdin(&o, a.paths[0], a.n_paths[0], a.paths[1],
                               a.n_paths[1])) != 0 ||
      (rc = fl_cli_check_repeats(a.paths[0], a.n_paths[0], "design input")) !=
          0 ||
      (rc = fl_cli_check_repeats(a.paths[1], a.n_paths[1], "as-built input")) !=
          0 ||
      (rc = check_side_roles(&o, &a)) != 0 ||
      (rc = load_both(&o, &a, &fd, &fb)) != 0)
    goto done;
  {
    fl_fabric *both[2] = {fd, fb};
    rc = narrow_to_plane(&a, both, &whole);
    fd = both[0];
    fb = both[1];
    if (rc != 0)
      goto done;
  }
  /* --output must not overwrite an input: check every path of both sides */
  o.inputs = NULL;
  {
    size_t n = a.n_paths[0] + a.n_paths[1];
    const char **all = malloc(n * sizeof *all);
    if (!all) {
      rc = FL_EXIT_USAGE;
      goto done;
    }
    memcpy(all, a.paths[0], a.n_paths[0] * sizeof *all);
    memcpy(all + a.n_paths[0], a.paths[1], a.n_paths[1] * sizeof *all);
    o.inputs = all;
    o.n_inputs = n;
    rc = fl_cli_check_outputs(&o, all, n);
    if (rc == 0)
      rc = fl_cli_check_outputs_read(&o, fd);
    if (rc == 0)
      rc = fl_cli_check_outputs_read(&o, fb);
    if (rc == 0)
      rc = fl_cli_open_output(&o, &out);
    free(all);
    o.inputs = NULL;
    o.n_inputs = 0;
    if (rc != 0)
      goto done;
  }
  fl_error err;
  fl_error_clear(&err);
  fl_diff_stats st;
  if (fl_diff(fd, fb, &a.dopts, &fs, a.csv ? &wo : NULL, &st, &err) != FL_OK) {
    fl_cli_print_error(&err);
    rc = FL_EXIT_USAGE;
    goto done;
  }
  char by_cable[48] = "";
  if (st.nodes_by_cable)
    snprintf(by_cable, sizeof by_cable, ", by cable position %u",
             st.nodes_by_cable);
  if (o.verbose)
    fprintf(
        stderr,
        "fabriclint: nodes matched by GUID %u, by name %u, by system %u, as "
        "a director chassis %u%s; "
        "cables: %u planned, %u built, %u as planned\n",
        st.nodes_by_guid, st.nodes_by_name, st.nodes_by_system,
        st.nodes_by_chassis, by_cable, st.cables_design, st.cables_built,
        st.cables_ok);
  size_t n_rules = 0;
  filter_rules(o.rules, &fs, a.csv ? &wo : NULL, &n_rules);
  if (o.rules && n_rules == 0) {
    rc = fl_cli_usage_error("--rules '%s' selects no diff.* finding kind",
                            o.rules);
    goto done;
  }
  if (a.csv) {
    fl_findings_sort(&fs);
    fl_work_order_sort(&wo);
    errno = 0;
    char msg[512] = "";
    if (a.csv == 2 && isatty(fileno(out.f))) {
      /* standard output or -o /dev/tty: a binary workbook on a terminal */
      rc = fl_cli_usage_error("--format xlsx writes a binary workbook: give "
                              "-o FILE.xlsx (or redirect standard output)%s",
                              "");
      goto done;
    }
    if (a.csv == 2 &&
        fl_diff_write_xlsx(out.f, &wo, a.n_paths[0] ? a.paths[0][0] : "",
                           a.n_paths[1] ? a.paths[1][0] : "", FL_VERSION, msg,
                           sizeof msg) != 0) {
      fprintf(stderr, "fabriclint diff: %s\n", msg);
      rc = FL_EXIT_USAGE;
    } else if (a.csv == 1 && fl_work_order_csv(out.f, &wo) != 0) {
      fprintf(stderr, "fabriclint: %s: cannot write the work order: %s\n",
              o.output && strcmp(o.output, "-") != 0 ? o.output
                                                     : "standard output",
              strerror(errno ? errno : EIO));
      rc = FL_EXIT_USAGE;
    } else {
      rc = 0;
      for (size_t i = 0; i < fs.n; i++)
        if (fs.v[i].severity >= o.fail_on)
          rc = o.exit_zero ? 0 : FL_EXIT_FINDINGS;
    }
  } else {
    /* the same tail as check: policy waivers, baseline, every format */
    fl_fabric_counts counts;
    fl_fabric_counts_of(fb, &counts);
    size_t n_diff;
    const fl_diff_rule *dr = fl_diff_rules(&n_diff);
    fl_report_rule rules[16];
    size_t nr = 0;
    for (size_t i = 0; i < n_diff && nr < 16; i++)
      if (rule_selected(o.rules, dr[i].id)) {
        memset(&rules[nr], 0, sizeof rules[nr]);
        rules[nr].id = dr[i].id;
        rules[nr].summary = dr[i].summary;
        rules[nr].help = dr[i].help;
        rules[nr].level = dr[i].level;
        nr++;
      }
    fl_report_picture pic, *picp = NULL;
    if (fl_cli_is_picture(&o)) {
      rc = fl_cli_picture(&o, 1, argc, argv, &pic);
      if (rc != 0)
        goto done;
      pic.fab = fd;
      pic.fab_built = fb;
      picp = &pic;
    }
    rc = fl_cli_report(&o, out.f, &fs, &counts, rules, nr, 0, picp);
  }
done:
  rc = fl_cli_close_output(&out, rc);
  fl_findings_free(&fs);
  fl_work_order_free(&wo);
  fl_fabric_free(fd);
  fl_fabric_free(fb);
  fl_fabric_free(whole);
  fl_cli_opts_free(&o);
  free_planes(&a);
  free((void *)a.paths[0]);
  free((void *)a.paths[1]);
  return rc;
}
