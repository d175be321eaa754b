/* SPDX-License-Identifier: MIT */
/*
 * core/io/ibdiag_dir.c — an ibdiagnet output folder as one input (format
 * "ibdiagnet-dir"): `fabriclint check /var/tmp/ibdiagnet2/`.
 *
 * Why: ibdiagnet writes one folder per run (ibdiagnet2.db_csv, .lst,
 * .ibnetdiscover, .fdbs, .far, .pm, .log, .sharp_an_info, ...; ibutils2
 * IBDiagnetFileNames.h). It is what a site sends, and what UFM validates
 * offline (issue 36: "read the whole ibdiagnet dump"). As a folder of
 * captures it mixed formats and was refused; as single files its three
 * descriptions of one fabric (db_csv, lst, ibnetdiscover) were three planes.
 *
 * What is read. Every regular file is detected by content (never by name,
 * DESIGN.md §1), then:
 *   - the fabric from ONE of the files that describe it, the richest: the
 *     db_csv (ports up or down, states, cables' data, AR_INFO), else an
 *     ibnetdiscover-format file, else the .lst (subnet.lst grammar); the
 *     others describe the same fabric and are not read (one note);
 *   - then every routing-state and counter file (.fdbs, .far, .pm, ...), in
 *     name order, resolved against that fabric;
 *   - files of no format fabriclint reads (.log, .sm, .pkey, .sharp_an_info,
 *     ...) are not read: one note names how many and the first few.
 * A file of a readable format that fails to load is the error, as any
 * input (file:line:col).
 *
 * Detection of the folder: it holds an ibdiagnet2.db_csv (a dump with a
 * NODES section; every ibdiagnet run writes one), see fl_detect_format().
 */
#include "io/formats.h"
#include "io/loaders.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The order in which a file describing the fabric is preferred (lower
 * first), or -1 for one that is no topology. A db_csv without a LINKS
 * section describes no cable: after every other (@links 0). */
static int topo_rank(uint32_t fmt, int links) {
  switch (fmt) {
  case FL_FMT_IBDIAG_DB:
    return links ? 0 : 4;
  case FL_FMT_IBNETDISCOVER:
    return 1;
  case FL_FMT_SUBNET_LST:
    return 2;
  default:
    return fl_format_is_topology(fmt) ? 3 : -1;
  }
}

/* The file name of @path (after its last '/'). */
static const char *base(const char *path) {
  const char *s = strrchr(path, '/');
  return s ? s + 1 : path;
}

/* A db_csv's sections, read whole (a NODES section past the detection's
 * first 64 KiB makes *@fmt ibdiagnet-db too): 1 when it has a LINKS
 * section. Sets *@size to the file's size. */
static int dump_sections(const char *path, uint32_t *fmt, size_t *size) {
  int links = 0;
  if ((*fmt == FL_FMT_DBCSV || *fmt == FL_FMT_IBDIAG_DB) &&
      fl_dbcsv_file_sections(path, &links, size))
    *fmt = FL_FMT_IBDIAG_DB;
  return links;
}

/* Notes on what was not read: empty files (@empty), files of no readable
 * format (@fmts FL_FMT_AUTO), the topology files other than @chosen (a
 * db_csv without LINKS: @nolinks). */
static void notes(fl_fabric *fab, const char *dir, char **files,
                  const uint32_t *fmts, const uint8_t *empty,
                  const uint8_t *nolinks, size_t n, size_t chosen) {
  fl_prov pv = {fl_b_file(fab, dir), 0, 0};
  char names[512] = "";
  size_t len = 0, unread = 0;
  for (size_t i = 0; i < n; i++) {
    if (i != chosen && topo_rank(fmts[i], 1) >= 0)
      fl_b_note(fab, "topology", pv,
                "%s (%s) not read: %s; the fabric comes from %s",
                base(files[i]), fl_format_name(fmts[i]),
                nolinks[i] ? "it lists no cable (no LINKS section)"
                           : "it describes the same fabric",
                base(files[chosen]));
    if (empty[i])
      fl_b_note(fab, "topology", pv,
                "%s is empty: not read (what it would hold is missing)",
                base(files[i]));
    if (fmts[i] != FL_FMT_AUTO || empty[i])
      continue;
    if (unread++ < 6 && len < sizeof names)
      len += (size_t)snprintf(names + len, sizeof names - len, "%s%s",
                              unread > 1 ? ", " : "", base(files[i]));
  }
  if (unread)
    fl_b_note(fab, "topology", pv,
              "%zu file%s of the ibdiagnet folder in no format fabriclint "
              "reads, not read: %s%s",
              unread, unread == 1 ? "" : "s", names, unread > 6 ? ", ..." : "");
}

int fl_load_ibdiag_dir(fl_fabric *fab, const char *dir, char **files, size_t n,
                       const fl_dir_ops *ops, const fl_load_options *opts,
                       fl_error *err) {
  uint32_t *fmts = calloc(n + 1, sizeof *fmts);
  uint8_t *empty = calloc(2 * n + 2, 1),
          *nolinks = empty ? empty + n + 1 : NULL;
  if (!fmts || !empty) {
    free(fmts);
    free(empty);
    return fl_error_set(err, FL_ENOMEM, dir, 0, 0, "out of memory");
  }
  size_t chosen = n, best_size = 0;
  int best = -1;
  for (size_t i = 0; i < n; i++) {
    fl_error scratch;
    fl_error_clear(&scratch);
    fmts[i] = ops->detect(files[i], &scratch);
    empty[i] = fmts[i] == FL_FMT_AUTO && strstr(scratch.message, "is empty");
    size_t size = 0;
    int links = dump_sections(files[i], &fmts[i], &size);
    int r = topo_rank(fmts[i], links);
    nolinks[i] = fmts[i] == FL_FMT_IBDIAG_DB && !links;
    /* the richest: by kind, then the larger file (two db_csv dumps) */
    if (r >= 0 && (best < 0 || r < best || (r == best && size > best_size)))
      chosen = i, best = r, best_size = size;
  }
  int rc = FL_OK;
  if (chosen == n)
    rc = fl_error_set(err, FL_EPARSE, dir, 0, 0,
                      "ibdiagnet folder without a file describing the fabric "
                      "(expected ibdiagnet2.db_csv, .ibnetdiscover or .lst)");
  if (rc == FL_OK)
    rc = ops->load(fab, files[chosen], fmts[chosen], opts, err);
  /* then what is resolved against the fabric: routing state, counters */
  for (size_t i = 0; i < n && rc == FL_OK; i++)
    if (fmts[i] != FL_FMT_AUTO && topo_rank(fmts[i], 1) < 0)
      rc = ops->load(fab, files[i], fmts[i], opts, err);
  if (rc == FL_OK)
    notes(fab, dir, files, fmts, empty, nolinks, n, chosen);
  free(fmts);
  free(empty);
  return rc;
}

/* The format as a single file: not one. */
static int load_file(fl_fabric *fab, const fl_input *in,
                     const fl_load_options *opts, fl_error *err) {
  (void)fab, (void)opts;
  return fl_error_set(err, FL_EPARSE, in->path, 0, 0,
                      "ibdiagnet-dir is the format of an ibdiagnet output "
                      "folder (ibdiagnet2.db_csv and the files beside it); "
                      "this is a file");
}

/* The registry row (formats.h); the folder is recognised in load.c
 * (fl_detect_format() of a folder holding an ibdiagnet2.db_csv). */
const fl_format_def fl_fmt_ibdiag_dir = {
    FL_FMT_IBDIAG_DIR,
    "ibdiagnet-dir",
    NULL,
    FL_FORMAT_TOPOLOGY | FL_FORMAT_FOLDER,
    load_file,
    NULL,
    "an ibdiagnet output folder (ibdiagnet2.db_csv and the files beside "
    "it)"};
