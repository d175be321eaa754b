/* SPDX-License-Identifier: MIT */
/*
 * core/io/load.c — fl_fabric_load(): reading an input once, refusing what no
 * format can be (empty, binary, UTF-16, a DOCTYPE), running the detectors of
 * the format registry (formats.h, formats.def) and dispatching to the
 * format's loader; folders of per-device files.
 *
 * Detection is by content, never by file name (DESIGN.md §1): users pass
 * `topo.txt`, `ibnetdiscover.out` or a pipe capture interchangeably.
 */
#define _GNU_SOURCE /* dladdr */
#include <ctype.h>
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io/fileio.h"
#include "io/formats.h"
#include "io/loaders.h"
#include "model/derive.h"
#include "model/fabric_impl.h"
#include "model/file_digest.h"
#include "model/planes.h"
#include "model/sysname.h"

/* ---- detection ------------------------------------------------------------
 */

/* Root element name of an XML prologue; writes it into @name. */
static int xml_root(const char *s, const char *end, char *name, size_t size) {
  while ((s = fl_detect_skip_ws(s, end)) < end && *s == '<') {
    if (end - s >= 9 && memcmp(s, "<!DOCTYPE", 9) == 0)
      return -2; /* no input format of fabriclint has a DTD */
    if (end - s >= 2 && (s[1] == '?' || s[1] == '!')) {
      int comment = s[1] == '!' && end - s >= 4 && s[2] == '-' && s[3] == '-';
      const char *close =
          comment ? strstr(s, "-->") : memchr(s, '>', (size_t)(end - s));
      if (!close)
        return -1;
      s = close + (comment ? 3 : 1);
      continue;
    }
    s++;
    size_t n = 0;
    while (s < end && n + 1 < size && !isspace((unsigned char)*s) &&
           *s != '>' && *s != '/')
      name[n++] = *s++;
    name[n] = '\0';
    return n ? 0 : -1;
  }
  return -1;
}

/* The regular, non-hidden files of folder @dir in name order (malloc'd
 * array of malloc'd paths); -1 with @err set on error. */
static int list_dir(const char *dir, char ***out, size_t *n, fl_error *err) {
  struct dirent **ents = NULL;
  int k = scandir(dir, &ents, NULL, alphasort);
  if (k < 0)
    return fl_error_set(err, FL_EIO, dir, 0, 0, "cannot list folder: %s",
                        strerror(errno)),
           -1;
  char **v = calloc((size_t)k + 1, sizeof *v);
  size_t m = 0;
  for (int i = 0; i < k; i++) {
    if (v && ents[i]->d_name[0] != '.') {
      size_t len = strlen(dir) + strlen(ents[i]->d_name) + 2;
      char *p = malloc(len);
      struct stat st;
      if (p) {
        snprintf(p, len, "%s/%s", dir, ents[i]->d_name);
        if (stat(p, &st) == 0 && S_ISREG(st.st_mode))
          v[m++] = p;
        else
          free(p);
      }
    }
    free(ents[i]);
  }
  free(ents);
  if (!v)
    return fl_error_set(err, FL_ENOMEM, dir, 0, 0, "out of memory"), -1;
  if (m == 0) {
    free(v);
    return fl_error_set(err, FL_EPARSE, dir, 0, 0,
                        "folder holds no input file"),
           -1;
  }
  *out = v;
  *n = m;
  return 0;
}

static void free_list(char **v, size_t n) {
  for (size_t i = 0; i < n; i++)
    free(v[i]);
  free(v);
}

static int is_dir(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static uint32_t detect_file(const char *path, fl_error *err);
static int load_input(fl_fabric *fab, fl_input *in, uint32_t fmt,
                      const fl_load_options *opts, fl_error *err);

uint32_t fl_detect_format(const char *path, fl_error *err) {
  if (strcmp(path, "-") == 0 || !is_dir(path))
    return detect_file(path, err);
  char **files;
  size_t n;
  if (list_dir(path, &files, &n, err) != 0)
    return FL_FMT_AUTO;
  uint32_t fmt = FL_FMT_AUTO;
  /* an ibdiagnet output folder: its files are of several formats, some of
   * none fabriclint reads (core/io/ibdiag_dir.c) */
  for (size_t i = 0; i < n && fmt == FL_FMT_AUTO; i++) {
    fl_error scratch;
    fl_error_clear(&scratch);
    uint32_t f = detect_file(files[i], &scratch);
    if (f == FL_FMT_IBDIAG_DB ||
        (f == FL_FMT_DBCSV && fl_dbcsv_file_sections(files[i], NULL, NULL)))
      fmt = FL_FMT_IBDIAG_DIR;
  }
  for (size_t i = 0; i < n && fmt != FL_FMT_IBDIAG_DIR; i++) {
    uint32_t f = detect_file(files[i], err);
    if (f == FL_FMT_AUTO) {
      fmt = FL_FMT_AUTO;
      break;
    }
    if (fmt != FL_FMT_AUTO && f != fmt) {
      fl_error_set(err, FL_EPARSE, files[i], 0, 0,
                   "folder %s mixes formats (%s, then %s here); pass each "
                   "format as its own input",
                   path, fl_format_name(fmt), fl_format_name(f));
      fmt = FL_FMT_AUTO;
      break;
    }
    fmt = f;
  }
  free_list(files, n);
  return fmt;
}

/* An input of no byte is refused, whatever its format: nothing was
 * captured (a command that printed nothing, `- </dev/null`). FL_EPARSE. */
static int empty_input(const char *path, fl_error *err) {
  if (strcmp(path, "-") == 0)
    return fl_error_set(err, FL_EPARSE, path, 0, 0,
                        "standard input is empty: nothing was piped or "
                        "redirected into it (expected the input's text)");
  return fl_error_set(err, FL_EPARSE, path, 0, 0, "file is empty");
}

/* 1 when format @d goes in the "expected ..." list of pass @pass (0:
 * topology formats, 1: the others) of the XML (@xml) or text list. */
static int listed(const fl_format_def *d, int xml, int pass) {
  int is_xml = (d->flags & FL_FORMAT_XML) != 0;
  int other = (d->flags & FL_FORMAT_TOPOLOGY) == 0;
  return d->load && d->looks_like && !(d->flags & FL_FORMAT_FOLDER) &&
         is_xml == (xml != 0) && other == pass;
}

/* "A, B, or C": the looks_like of every readable format whose XML flag is
 * @xml, topology formats first, for the "not recognised" messages. */
static void expected_list(char *out, size_t size, int xml) {
  size_t n = 0, k = 0, total = 0;
  for (int pass = 0; pass < 2; pass++)
    for (size_t i = 0; i < fl_format_count(); i++)
      total += (size_t)listed(fl_format_at(i), xml, pass);
  out[0] = '\0';
  for (int pass = 0; pass < 2; pass++)
    for (size_t i = 0; i < fl_format_count() && n < size; i++) {
      const fl_format_def *d = fl_format_at(i);
      if (!listed(d, xml, pass))
        continue;
      k++;
      int w = snprintf(out + n, size - n, "%s%s",
                       k == 1       ? ""
                       : k == total ? ", or "
                                    : ", ",
                       d->looks_like);
      n += w > 0 ? (size_t)w : 0;
    }
}

/* Run the registered detectors in order (formats.def), each shared one
 * once. The first that claims the input decides (the detection order);
 * the later ones still run, with a scratch error, so that *@also names a
 * second format the same window fits (FL_FMT_AUTO: none). */
static uint32_t run_detectors(const fl_detect_ctx *c, fl_error *err,
                              uint32_t *also) {
  uint32_t fmt = FL_FMT_AUTO;
  *also = FL_FMT_AUTO;
  for (size_t i = 0; i < fl_format_count() && *also == FL_FMT_AUTO; i++) {
    const fl_format_def *d = fl_format_at(i);
    int seen = d->detect == NULL;
    for (size_t k = 0; k < i && !seen; k++)
      seen = fl_format_at(k)->detect == d->detect;
    if (seen)
      continue;
    fl_error scratch;
    fl_error_clear(&scratch);
    uint32_t f = d->detect(c, fmt == FL_FMT_AUTO ? err : &scratch);
    if (fmt == FL_FMT_AUTO && f == FL_FMT_REFUSED)
      return f;
    if (fmt == FL_FMT_AUTO)
      fmt = f;
    else if (f != FL_FMT_AUTO && f != FL_FMT_REFUSED && f != fmt)
      *also = f;
  }
  return fmt;
}

/* The windows after the first of text input @in (its first window fitted
 * no format): up to FL_DETECT_BYTES of whole lines each, within the first
 * FL_DETECT_SCAN_MAX bytes, stopping at a NUL byte. A line is seen only
 * when it ends (its newline, or the input's end) within that bound. The
 * format of the first window that fits one, with in->detect_line and
 * *@also set; else FL_FMT_AUTO. A detector that would refuse a later
 * window is ignored there (its input was not recognised at the start). */
static uint32_t detect_later(fl_input *in, uint32_t *also) {
  char *buf = in->buf;
  size_t end = in->len < FL_DETECT_SCAN_MAX ? in->len : FL_DETECT_SCAN_MAX;
  const char *nl = memrchr(buf, '\n', FL_DETECT_BYTES);
  size_t off = nl ? (size_t)(nl - buf) + 1 : FL_DETECT_BYTES;
  uint32_t line = 1;
  for (const char *q = buf; (q = memchr(q, '\n', (size_t)(buf + off - q))); q++)
    line++;
  while (off < end) {
    size_t n = end - off < FL_DETECT_BYTES ? end - off : FL_DETECT_BYTES;
    if (off + n < in->len) { /* whole lines only */
      nl = memrchr(buf + off, '\n', n);
      if (!nl && n < FL_DETECT_BYTES)
        break; /* the last line ends past the bound */
      n = nl ? (size_t)(nl - (buf + off)) + 1 : n;
    }
    if (memchr(buf + off, '\0', n))
      return FL_FMT_AUTO; /* the loader's NUL check says where */
    char saved = buf[off + n];
    buf[off + n] = '\0';
    fl_detect_ctx c = {in->path, buf + off, n, off + n < in->len, NULL};
    fl_error scratch;
    fl_error_clear(&scratch);
    uint32_t fmt = run_detectors(&c, &scratch, also);
    buf[off + n] = saved;
    if (fmt != FL_FMT_AUTO && fmt != FL_FMT_REFUSED) {
      in->detect_line = line;
      return fmt;
    }
    for (const char *q = buf + off;
         (q = memchr(q, '\n', (size_t)(buf + off + n - q))); q++)
      line++;
    off += n;
  }
  return FL_FMT_AUTO;
}

/* Input-level refusals before any detector: empty, UTF-16,
 * a DOCTYPE, XML without a root. 1 when @err was set. */
static int refuse_input(const char *path, const char *buf, const char *s,
                        size_t len, int xr, fl_error *err) {
  if (len == 0)
    return empty_input(path, err), 1;
  if (*fl_detect_skip_ws(s, buf + len) == '<' && xr == -2)
    return fl_error_set(err, FL_EPARSE, path, 0, 0,
                        "<!DOCTYPE is not allowed: no input fabriclint reads "
                        "has a DTD, and none is ever read (entities stay "
                        "unexpanded)"),
           1;
  if (*fl_detect_skip_ws(s, buf + len) == '<' && xr != 0)
    return fl_error_set(err, FL_EPARSE, path, 1, 0,
                        "XML without a root element"),
           1;
  if (len >= 2 &&
      (((unsigned char)buf[0] == 0xff && (unsigned char)buf[1] == 0xfe) ||
       ((unsigned char)buf[0] == 0xfe && (unsigned char)buf[1] == 0xff)))
    return fl_error_set(err, FL_EPARSE, path, 1, 1,
                        "UTF-16 text: fabriclint reads UTF-8 (convert with "
                        "`iconv -f UTF-16 -t UTF-8`)"),
           1;
  return 0;
}

/* The format of input @in by its first FL_DETECT_BYTES (NUL-terminated
 * there for the time of the detection, then restored), else, for text, by
 * a later window (detect_later()). Sets in->detected, detect_also and
 * detect_line. */
static uint32_t detect_input(fl_input *in, fl_error *err) {
  char *buf = in->buf;
  size_t len = in->len < FL_DETECT_BYTES ? in->len : FL_DETECT_BYTES;
  char saved = buf[len];
  buf[len] = '\0';
  fl_input window = {.path = in->path, .buf = buf, .len = len};
  uint32_t fmt = FL_FMT_AUTO;
  char root[64], expected[1024];
  char *s = buf;
  if (len >= 3 && (unsigned char)s[0] == 0xef && (unsigned char)s[1] == 0xbb &&
      (unsigned char)s[2] == 0xbf)
    s += 3;
  int xml = len > 0 && *fl_detect_skip_ws(s, buf + len) == '<';
  int xr = xml ? xml_root(s, buf + len, root, sizeof root) : -1;
  fl_detect_ctx c = {in->path, s, len - (size_t)(s - buf),
                     in->len > FL_DETECT_BYTES, xml ? root : NULL};
  uint32_t also = FL_FMT_AUTO;
  in->detect_line = 1;
  if (len >= 4 && fl_is_ibnd_cache(buf, len)) {
    /* binary, known by its magic number: no text detector sees it */
    fmt = FL_FMT_IBND_CACHE;
  } else if (refuse_input(in->path, buf, s, len, xr, err) ||
             (!xml && fl_input_nul_check(&window, err) != FL_OK)) {
    /* err says why */
  } else if ((fmt = run_detectors(&c, err, &also)) == FL_FMT_REFUSED) {
    fmt = FL_FMT_AUTO; /* err says why */
  } else if (fmt == FL_FMT_AUTO && !xml && in->len > FL_DETECT_BYTES &&
             (buf[len] = saved,
              (fmt = detect_later(in, &also)) != FL_FMT_AUTO)) {
    /* found further in */
  } else if (fmt == FL_FMT_AUTO && xml) {
    expected_list(expected, sizeof expected, 1);
    fl_error_set(err, FL_EPARSE, in->path, 0, 0,
                 "XML root element <%s> is not a format fabriclint reads "
                 "(expected %s)",
                 root, expected);
  } else if (fmt == FL_FMT_AUTO && in->len > FL_DETECT_BYTES &&
             fl_input_nul_check(in, err) != FL_OK) {
    /* a NUL byte past the first window stopped the later windows: it is
     * the error, at its line and column (an outside tester's 2,000 comment
     * lines and a NUL gave "unrecognised format" with no position) */
  } else if (fmt == FL_FMT_AUTO) {
    expected_list(expected, sizeof expected, 0);
    fl_error_set(err, FL_EPARSE, in->path, 0, 0,
                 "unrecognised format%s: expected %s",
                 in->len > FL_DETECT_SCAN_MAX
                     ? " (searched the first 64 MiB of the input)"
                     : "",
                 expected);
  }
  buf[len] = saved;
  in->detected = fmt;
  in->detect_also = fmt == FL_FMT_AUTO ? FL_FMT_AUTO : also;
  return fmt;
}

static uint32_t detect_file(const char *path, fl_error *err) {
  fl_input in;
  if (fl_input_read(&in, path, NULL, 0, err) != FL_OK)
    return FL_FMT_AUTO;
  uint32_t fmt = detect_input(&in, err);
  fl_input_free(&in);
  return fmt;
}

/* ---- dispatch ---------------------------------------------------------------
 */

/* The fabric size cap: the default, or the environment variable @var
 * when set (a positive count up to 2^31). */
static int cap_from_env(const char *var, uint32_t def, uint32_t *cap,
                        fl_error *err) {
  const char *env = getenv(var);
  *cap = def;
  if (!env || !*env)
    return FL_OK;
  char *end;
  errno = 0;
  unsigned long long v = strtoull(env, &end, 10);
  if (end == env || *end || errno || env[0] == '-' || v == 0 ||
      v > (1ull << 31))
    return fl_error_set(err, FL_EINVAL, NULL, 0, 0,
                        "%s='%s' is not a count; expected a positive whole "
                        "number up to 2147483648",
                        var, env);
  *cap = (uint32_t)v;
  return FL_OK;
}

static int set_caps(fl_fabric *fab, fl_error *err) {
  uint32_t n, p, l;
  int rc = cap_from_env("FABRICLINT_MAX_NODES", FL_FABRIC_MAX_NODES, &n, err);
  if (rc == FL_OK)
    rc = cap_from_env("FABRICLINT_MAX_PORTS", FL_FABRIC_MAX_PORTS, &p, err);
  if (rc == FL_OK)
    rc = cap_from_env("FABRICLINT_MAX_LINKS", FL_FABRIC_MAX_LINKS, &l, err);
  if (rc == FL_OK)
    fl_b_set_caps(fab, n, p, l);
  return rc;
}

/* After a load: the fabric size cap, when a builder call hit it, is the
 * error (whatever the loader made of the refusal, "out of memory" too). */
static int cap_error(const fl_fabric *fab, const char *path, fl_error *err) {
  static const char *const what[] = {"", "nodes", "ports", "links"};
  static const char *const var[] = {"", "FABRICLINT_MAX_NODES",
                                    "FABRICLINT_MAX_PORTS",
                                    "FABRICLINT_MAX_LINKS"};
  int k = fab->cap_hit;
  uint32_t max = k == FL_CAP_NODES   ? fab->max_nodes
                 : k == FL_CAP_PORTS ? fab->max_ports
                                     : fab->max_links;
  fl_error_clear(err);
  return fl_error_set(err, FL_EPARSE, path, 0, 0,
                      "the fabric grows past the cap of %u %s (the fabric "
                      "size cap; set %s to raise it)",
                      max, what[k], var[k]);
}

/* What every load checks first. */
static int load_prep(fl_fabric *fab, const char *path,
                     const fl_load_options *opts, fl_error *err) {
  if (!fab || !path)
    return fl_error_set(err, FL_EINVAL, NULL, 0, 0, "no fabric or path");
  if (!fab->finalized && set_caps(fab, err) != FL_OK)
    return err && err->code ? err->code : FL_EINVAL;
  if (fab->finalized)
    return fl_error_set(err, FL_EINVAL, path, 0, 0,
                        "fabric is finalized; load every input first");
  if (opts->system_pattern && !fab->system_pattern) {
    int rc = fl_pattern_check(opts->system_pattern, err);
    if (rc != FL_OK)
      return rc;
    fab->system_pattern = strdup(opts->system_pattern);
    if (!fab->system_pattern)
      return fl_error_set(err, FL_ENOMEM, NULL, 0, 0, "out of memory");
  }
  return FL_OK;
}

uint32_t fl_detect_input(fl_input *in, fl_error *err) {
  return detect_input(in, err);
}

int fl_fabric_load_input(fl_fabric *fab, fl_input *in, uint32_t fmt,
                         const fl_load_options *opts, fl_error *err) {
  fl_load_options defaults;
  memset(&defaults, 0, sizeof defaults);
  if (!opts)
    opts = &defaults;
  int rc = load_prep(fab, in->path, opts, err);
  return rc != FL_OK ? rc : load_input(fab, in, fmt, opts, err);
}

int fl_fabric_load(fl_fabric *fab, const char *path, uint32_t fmt,
                   const fl_load_options *opts, fl_error *err) {
  fl_load_options defaults;
  memset(&defaults, 0, sizeof defaults);
  if (!opts)
    opts = &defaults;
  int prc = load_prep(fab, path, opts, err);
  if (prc != FL_OK)
    return prc;
  if (strcmp(path, "-") != 0 && access(path, R_OK) != 0)
    return fl_error_set(err, FL_EIO, path, 0, 0, "cannot read: %s",
                        strerror(errno));
  if (strcmp(path, "-") != 0 && is_dir(path)) {
    char **files;
    size_t n;
    if (list_dir(path, &files, &n, err) != 0)
      return err && err->code ? err->code : FL_EIO;
    int rc = FL_OK;
    fl_error scratch;
    fl_error_clear(&scratch);
    if (fmt == FL_FMT_AUTO &&
        fl_detect_format(path, &scratch) == FL_FMT_IBDIAG_DIR)
      fmt = FL_FMT_IBDIAG_DIR;
    static const fl_dir_ops OPS = {fl_detect_format, fl_fabric_load};
    if (fmt == FL_FMT_IBDIAG_DIR)
      rc = fl_load_ibdiag_dir(fab, path, files, n, &OPS, opts, err);
    for (size_t i = 0; i < n && rc == FL_OK && fmt != FL_FMT_IBDIAG_DIR; i++)
      rc = fl_fabric_load(fab, files[i], fmt, opts, err);
    free_list(files, n);
    return rc;
  }
  fl_input in;
  int rc = fl_input_read(&in, path, NULL, 0, err);
  if (rc != FL_OK)
    return rc;
  rc = load_input(fab, &in, fmt, opts, err);
  fl_input_free(&in);
  return rc;
}

/* --plane NAME:FILE: nodes the input added (ids from @first) get the
 * `plane` attribute NAME, and the file is tagged so that its loader notes
 * go to that plane (fabriclint/planes.h). */
static int tag_plane(fl_fabric *fab, const char *path, uint32_t first,
                     const char *plane, fl_error *err) {
  int rc =
      *plane ? fl_b_file_plane(fab, fl_b_file(fab, path), plane) : FL_EINVAL;
  for (uint32_t n = first; rc == FL_OK && n < fl_b_node_count(fab); n++)
    rc = fl_b_attr(fab, FL_ENT_NODE, n, "plane", plane);
  if (rc == FL_EINVAL)
    return fl_error_set(err, FL_EINVAL, path, 0, 0, "empty plane name");
  return rc == FL_OK ? FL_OK
                     : fl_error_set(err, rc, path, 0, 0, "out of memory");
}

/* An input detected by a guess (its structure found after the first
 * window, or two formats fit it) that its format's loader refused: the
 * error (the line and what was expected) also says what the input was
 * taken for. An input whose first window fits one format keeps the
 * loader's message as it is. */
static void detected_as(const fl_input *in, const fl_format_def *def,
                        fl_error *err) {
  if (!err || !err->code)
    return;
  char more[FL_ERROR_MSG_MAX], at[48] = "";
  if (in->detect_line > 1)
    snprintf(at, sizeof at, " from line %u on", in->detect_line);
  snprintf(more, sizeof more,
           " (read as %s: the input looks like %s%s; --input-format reads "
           "it as another format)",
           def->name, def->looks_like ? def->looks_like : def->name, at);
  size_t n = strlen(err->message), m = strlen(more);
  if (n + m < sizeof err->message)
    memcpy(err->message + n, more, m + 1);
}

/* An input two formats fit, read as the first in detection order: one
 * note says which, the other, and how to read it as the other. */
static void fits_two(fl_fabric *fab, const fl_input *in,
                     const fl_format_def *def) {
  const fl_format_def *o = fl_format_find(in->detect_also);
  if (!o)
    return;
  fl_b_note(fab, "format",
            (fl_prov){fl_b_file(fab, in->path), in->detect_line, 0},
            "input fits two formats: %s and %s; read as %s, the "
            "first of the two in the detection order (docs/cli.md, Format "
            "detection); `--input-format %s` reads it as the other",
            def->looks_like ? def->looks_like : def->name,
            o->looks_like ? o->looks_like : o->name, def->name, o->name);
}

/* Detect (unless @fmt says) and load input @in, read once: detection and
 * the loader see the same bytes. Text formats hold no NUL byte anywhere
 * (checked before loading, or as the loader reads: FL_FORMAT_NUL_INLINE);
 * XML is checked by libxml2 after decoding. */
/* fl_load_options.digest: the size and SHA-256 of the bytes read. */
static int record_digest(fl_fabric *fab, const fl_input *in, fl_error *err) {
  fl_file_digest d;
  fl_digest_of(&d, in->buf, in->len);
  if (fl_b_file_digest(fab, fl_b_file(fab, in->path), &d) != FL_OK)
    return fl_error_set(err, FL_ENOMEM, in->path, 0, 0, "out of memory");
  return FL_OK;
}

static int load_input(fl_fabric *fab, fl_input *in, uint32_t fmt,
                      const fl_load_options *opts, fl_error *err) {
  if (fmt == FL_FMT_AUTO) {
    fmt = detect_input(in, err);
    if (fmt == FL_FMT_AUTO)
      return err && err->code ? err->code : FL_EPARSE;
    /* an ibdiagnet2.db_csv loaded into a fabric another input described
     * adds its AR state, not a second copy of every node (which would
     * read as a second plane); forced to ibdiagnet-db it is a topology */
    if (fmt == FL_FMT_IBDIAG_DB && fl_b_node_count(fab) > 0)
      fmt = FL_FMT_DBCSV;
  }
  if (in->len == 0) /* a forced format (--input-format) included */
    return empty_input(in->path, err);
  const fl_format_def *def = fl_format_find(fmt);
  if (!def)
    return fl_error_set(err, FL_EINVAL, in->path, 0, 0,
                        "unknown format code %u", fmt);
  if (fmt != FL_FMT_IBND_CACHE && fl_is_ibnd_cache(in->buf, in->len))
    return fl_error_set(err, FL_EPARSE, in->path, 0, 0,
                        "this is an ibnetdiscover --cache file (binary), not "
                        "%s input: read it as ibnetdiscover-cache (the "
                        "format detection's choice)",
                        def->name);
  if (!(def->flags &
        (FL_FORMAT_XML | FL_FORMAT_NUL_INLINE | FL_FORMAT_BINARY))) {
    int rc = fl_input_nul_check(in, err);
    if (rc != FL_OK)
      return rc;
  }
  uint32_t first = fl_b_node_count(fab);
  int rc = def->load(fab, in, opts, err);
  if (fab->cap_hit)
    rc = cap_error(fab, in->path, err);
  if (rc != FL_OK && rc != FL_EIO && (def->flags & FL_FORMAT_NUL_INLINE)) {
    /* The loader stopped before its reader reached a NUL byte further on:
     * that byte is the error, as when the input was checked first. (Not
     * after FL_EIO: the file changed or cannot be read; and scanned
     * through the descriptor, never a mapping that may now fault.) */
    fl_error nul;
    fl_error_clear(&nul);
    if (fl_input_nul_check(in, &nul) == FL_EPARSE) {
      *err = nul;
      rc = FL_EPARSE;
    }
  }
  if (rc == FL_OK && opts->digest)
    rc = record_digest(fab, in, err);
  if (rc == FL_EPARSE && in->detected == fmt &&
      (in->detect_line > 1 || in->detect_also != FL_FMT_AUTO))
    detected_as(in, def, err); /* a guess: found further in, or two fit */
  if (rc == FL_OK && in->detected == fmt && in->detect_also != FL_FMT_AUTO)
    fits_two(fab, in, def);
  if (rc == FL_OK && opts->plane)
    rc = tag_plane(fab, in->path, first, opts->plane, err);
  return rc;
}
