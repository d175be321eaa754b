/*
 * core/load.c — fl_fabric_load(): format detection and dispatch to the
 * per-format loaders (core/loaders.h), plus locating shipped schema files.
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
#include "io/loaders.h"
#include "model/derive.h"
#include "model/fabric_impl.h"

#define DETECT_BYTES 65536

static const struct {
  uint32_t fmt;
  const char *name;
} FORMATS[] = {
    {FL_FMT_AUTO, "auto"},
    {FL_FMT_IBNETDISCOVER, "ibnetdiscover"},
    {FL_FMT_IBND_PORTS, "ibnetdiscover-ports"},
    {FL_FMT_DESIGN_XML, "design-xml"},
    {FL_FMT_IBSIM_NET, "ibsim-net"},
    {FL_FMT_LFTS, "lfts"},
    {FL_FMT_FDBS, "fdbs"},
    {FL_FMT_SL2VL, "sl2vl"},
    {FL_FMT_PATH_SL, "path-sl"},
    {FL_FMT_SUBNET_LST, "subnet-lst"},
    {FL_FMT_SAQUERY_PR, "saquery-pr"},
    {FL_FMT_ANNOTATIONS, "annotations"},
    {FL_FMT_AR, "ar"},
    {FL_FMT_TOPO_IBDM, "ibdm-topo"},
    {FL_FMT_LLDPD_XML, "lldpd-xml"},
    {FL_FMT_JUNOS_XML, "junos-xml"},
    {FL_FMT_CISCO_PLAN, "cisco-plan"},
    {FL_FMT_DBCSV, "ibdiagnet-db-csv"},
};

int fl_format_is_topology(uint32_t fmt) {
  return fmt == FL_FMT_IBNETDISCOVER || fmt == FL_FMT_IBND_PORTS ||
         fmt == FL_FMT_DESIGN_XML || fmt == FL_FMT_IBSIM_NET ||
         fmt == FL_FMT_SUBNET_LST || fmt == FL_FMT_TOPO_IBDM ||
         fmt == FL_FMT_LLDPD_XML || fmt == FL_FMT_JUNOS_XML ||
         fmt == FL_FMT_CISCO_PLAN;
}

const char *fl_format_name(uint32_t fmt) {
  for (size_t i = 0; i < sizeof FORMATS / sizeof *FORMATS; i++)
    if (FORMATS[i].fmt == fmt)
      return FORMATS[i].name;
  return "auto";
}

uint32_t fl_format_parse(const char *name) {
  for (size_t i = 0; i < sizeof FORMATS / sizeof *FORMATS; i++)
    if (strcmp(FORMATS[i].name, name) == 0)
      return FORMATS[i].fmt;
  if (strcmp(name, "design") == 0)
    return FL_FMT_DESIGN_XML;
  if (strcmp(name, "ibsim") == 0)
    return FL_FMT_IBSIM_NET;
  return (uint32_t)-1;
}

/* ---- detection ------------------------------------------------------------
 */

static const char *skip_ws(const char *s, const char *end) {
  while (s < end && isspace((unsigned char)*s))
    s++;
  return s;
}

/* Root element name of an XML prologue; writes it into @name. */
static int xml_root(const char *s, const char *end, char *name, size_t size) {
  while ((s = skip_ws(s, end)) < end && *s == '<') {
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

static int is_hex16_id(const char *s, const char *end) {
  /* "S-0123456789abcdef" */
  if (end - s < 20 || s[0] != '"' || !strchr("SHR?", s[1]) || s[2] != '-')
    return 0;
  for (int i = 3; i < 19; i++)
    if (!isxdigit((unsigned char)s[i]))
      return 0;
  return s[19] == '"';
}

/* Classify one text line: 1 ibnetdiscover id line (switchguid=...), 2 ports
 * report line, 3 header with a free-form id (ibsim), 4 header with an
 * "S-<guid>" id (ibnetdiscover), 0 none. */
static int classify_line(const char *s, const char *end) {
  s = skip_ws(s, end);
  if (end - s >= 11 &&
      (strncmp(s, "switchguid=", 11) == 0 || strncmp(s, "caguid=", 7) == 0 ||
       strncmp(s, "rtguid=", 7) == 0))
    return 1;
  const char *kw[] = {"Switch", "Ca", "Rt", "Hca"};
  for (size_t k = 0; k < 4; k++) {
    size_t n = strlen(kw[k]);
    if ((size_t)(end - s) > n && strncmp(s, kw[k], n) == 0) {
      const char *p = s + n;
      while (p < end && (*p == ' ' || *p == '\t'))
        p++;
      if (p == end || !isdigit((unsigned char)*p))
        continue;
      while (p < end && isdigit((unsigned char)*p))
        p++;
      p = skip_ws(p, end);
      if (p < end && *p == '"')
        return is_hex16_id(p, end) ? 4 : 3;
    }
  }
  if (end - s > 4 && (strncmp(s, "SW ", 3) == 0 || strncmp(s, "CA ", 3) == 0 ||
                      strncmp(s, "RT ", 3) == 0 || strncmp(s, "?? ", 3) == 0)) {
    const char *p = skip_ws(s + 2, end);
    while (p < end && isdigit((unsigned char)*p))
      p++;
    p = skip_ws(p, end);
    while (p < end && isdigit((unsigned char)*p))
      p++;
    p = skip_ws(p, end);
    if (end - p > 2 && p[0] == '0' && p[1] == 'x')
      return 2;
  }
  return 0;
}

/* ---- routing dumps ---- */

/* Kinds of routing-dump lines (classify_routing). */
enum {
  RL_NONE,
  RL_LFTS,    /* "Unicast lids [" (opensm-lfts.dump, ibroute, dump_fts) */
  RL_FDBS,    /* "dump_ucast_routes: Switch 0x" (opensm.fdbs, ibdiagnet) */
  RL_SL2VL,   /* opensm-sl2vl.dump header, "#in out :", "# SL2VL table:" */
  RL_SUBNET,  /* "{ SW Ports:" / "{ CA Ports:" (opensm-subnet.lst) */
  RL_SAQUERY, /* "PathRecord dump:" (saquery -p) */
  RL_PATHSL,  /* "0x<16 hex> <dec> <dec>" (path-SL file) */
  RL_AR,      /* "Groups Definition:" / "LFT Definition:" (ibdiagnet2.far) */
  RL_BLANK,   /* blank or '#' comment */
  RL_COUNT
};

static int prefix(const char *s, const char *end, const char *p) {
  size_t n = strlen(p);
  return (size_t)(end - s) >= n && memcmp(s, p, n) == 0;
}

/* "0x" + 16 hex digits, blank, decimal, blank, decimal, nothing else. */
static int is_path_sl_line(const char *s, const char *end) {
  if (!prefix(s, end, "0x") || end - s < 18)
    return 0;
  for (int i = 2; i < 18; i++)
    if (!isxdigit((unsigned char)s[i]))
      return 0;
  const char *p = s + 18;
  for (int field = 0; field < 2; field++) {
    if (p >= end || (*p != ' ' && *p != '\t'))
      return 0;
    while (p < end && (*p == ' ' || *p == '\t'))
      p++;
    if (p >= end || !isdigit((unsigned char)*p))
      return 0;
    while (p < end && isdigit((unsigned char)*p))
      p++;
  }
  while (p < end && isspace((unsigned char)*p))
    p++;
  return p == end;
}

/* "<Channel Adapter|Switch|Router> 0x<16 hex>, base LID" */
static int is_sl2vl_header(const char *s, const char *end) {
  static const char *const kinds[] = {"Channel Adapter 0x", "Switch 0x",
                                      "Router 0x"};
  for (size_t k = 0; k < 3; k++) {
    size_t n = strlen(kinds[k]);
    if (!prefix(s, end, kinds[k]) || (size_t)(end - s) < n + 16)
      continue;
    const char *p = s + n;
    for (int i = 0; i < 16; i++)
      if (!isxdigit((unsigned char)p[i]))
        return 0;
    return prefix(p + 16, end, ", base LID ");
  }
  return 0;
}

static int classify_routing(const char *s, const char *end) {
  s = skip_ws(s, end);
  if (s >= end)
    return RL_BLANK;
  if (prefix(s, end, "Unicast lids ["))
    return RL_LFTS;
  if (prefix(s, end, "# SL2VL table:") || prefix(s, end, "#in out :"))
    return RL_SL2VL;
  if (*s == '#')
    return RL_BLANK;
  if (prefix(s, end, "PathRecord dump:"))
    return RL_SAQUERY;
  if (prefix(s, end, "Groups Definition:") || prefix(s, end, "LFT Definition:"))
    return RL_AR;
  if (prefix(s, end, "{ SW") || prefix(s, end, "{ CA") ||
      prefix(s, end, "{ Rt"))
    return strstr(s, " Ports:") && strstr(s, "NodeGUID:") ? RL_SUBNET : RL_NONE;
  if (is_sl2vl_header(s, end))
    return RL_SL2VL;
  if (is_path_sl_line(s, end))
    return RL_PATHSL;
  const char *h = memchr(s, ':', (size_t)(end - s));
  if (h && h - s >= 17 && memcmp(h - 17, "dump_ucast_routes", 17) == 0 &&
      prefix(h, end, ": Switch 0x"))
    return RL_FDBS;
  return RL_NONE;
}

/* A routing dump, by the first marker line; path-SL files only when every
 * (complete) line is a path-SL line or a comment. */
static uint32_t detect_routing(const char *buf, size_t len) {
  const char *s = buf, *end = buf + len;
  uint32_t votes[RL_COUNT] = {0};
  while (s < end) {
    const char *nl = memchr(s, '\n', (size_t)(end - s));
    if (!nl && len + 3 >= DETECT_BYTES)
      break; /* a line cut by the detection window */
    const char *le = nl ? nl : end;
    char save = *le; /* classify_routing uses strstr: terminate the line */
    *(char *)le = '\0';
    int k = classify_routing(s, le);
    *(char *)le = save;
    static const uint32_t fmt_of[RL_COUNT] = {
        [RL_LFTS] = FL_FMT_LFTS,          [RL_FDBS] = FL_FMT_FDBS,
        [RL_SL2VL] = FL_FMT_SL2VL,        [RL_SUBNET] = FL_FMT_SUBNET_LST,
        [RL_SAQUERY] = FL_FMT_SAQUERY_PR, [RL_AR] = FL_FMT_AR};
    if (fmt_of[k])
      return fmt_of[k];
    votes[k]++;
    s = nl ? nl + 1 : end;
  }
  if (votes[RL_PATHSL] > 0 && votes[RL_NONE] == 0)
    return FL_FMT_PATH_SL;
  return FL_FMT_AUTO;
}

/* ibsim net files may carry switchguid=/caguid= lines too, but their
 * headers name nodes by free-form ids, which ibnetdiscover never prints.
 * Routing dumps are recognised first by their marker lines (none of which
 * an ibnetdiscover, ibsim or -p file contains). @buf is writable and
 * NUL-terminated at @len. */
/* The YAML key `nodes:` (plain or quoted) followed by nothing, a comment,
 * or the start of a flow collection: `nodes: [{name: x, rack: R1}]` and
 * `nodes: {x: {rack: R1}}` are the same document as the block form. */
static int is_yaml_nodes_key(const char *p, const char *le) {
  static const char *const keys[] = {"nodes:", "\"nodes\":", "'nodes':"};
  for (size_t k = 0; k < sizeof keys / sizeof *keys; k++) {
    size_t kl = strlen(keys[k]);
    if ((size_t)(le - p) < kl || strncmp(p, keys[k], kl) != 0)
      continue;
    const char *v = skip_ws(p + kl, le);
    if (v == le || *v == '#' || *v == '[' || *v == '{')
      return 1;
  }
  return 0;
}

/* A YAML document marker or directive line (`---`, `%YAML 1.2`), which may
 * precede the `nodes:` key. */
static int is_yaml_preamble(const char *p, const char *le) {
  if (*p == '%')
    return 1;
  return le - p >= 3 && strncmp(p, "---", 3) == 0 &&
         (le - p == 3 || p[3] == ' ' || p[3] == '\t' || p[3] == '\r');
}

/* An attribute side file: the first line that is not blank, a comment or a
 * YAML preamble is a CSV header whose first column is "node" or "name", or
 * the YAML key "nodes:" (block or flow form). */
static uint32_t detect_annotations(const char *buf, size_t len) {
  const char *s = buf, *end = buf + len;
  while (s < end) {
    const char *nl = memchr(s, '\n', (size_t)(end - s));
    const char *le = nl ? nl : end;
    const char *p = skip_ws(s, le);
    if (p < le && *p != '#') {
      size_t n = (size_t)(le - p);
      if ((n > 5 && strncasecmp(p, "node", 4) == 0 &&
           (p[4] == ',' || p[4] == ';')) ||
          (n > 5 && strncasecmp(p, "name", 4) == 0 &&
           (p[4] == ',' || p[4] == ';')))
        return FL_FMT_ANNOTATIONS;
      if (is_yaml_nodes_key(p, le))
        return FL_FMT_ANNOTATIONS;
      if (!is_yaml_preamble(p, le))
        return FL_FMT_AUTO;
    }
    s = nl ? nl + 1 : end;
  }
  return FL_FMT_AUTO;
}

/* An ibdm topology connection line: indented, `PORT -...-> TYPE NAME PORT`
 * (ibdm Fabric.cpp parseTopology). */
static int is_topo_conn(const char *s, const char *end) {
  if (s >= end || (*s != ' ' && *s != '\t'))
    return 0;
  const char *h = memchr(s, '#', (size_t)(end - s));
  if (h)
    end = h;
  const char *t[6];
  size_t n[6];
  int k = 0;
  while (s < end && k < 6) {
    while (s < end && isspace((unsigned char)*s))
      s++;
    if (s >= end)
      break;
    t[k] = s;
    while (s < end && !isspace((unsigned char)*s))
      s++;
    n[k] = (size_t)(s - t[k]);
    k++;
  }
  while (s < end && isspace((unsigned char)*s))
    s++;
  return k == 5 && s == end && n[1] >= 2 && t[1][0] == '-' &&
         t[1][n[1] - 1] == '>' && t[1][n[1] - 2] == '-';
}

/* `START_<NAME>` alone on a line (blanks and a CR around it allowed):
 * writes the name's start and length, else returns 0. @kw is "START_" or
 * "END_". */
static int section_marker(const char *s, const char *end, const char *kw,
                          const char **name, size_t *nlen) {
  s = skip_ws(s, end);
  if (!prefix(s, end, kw))
    return 0;
  const char *p = s + strlen(kw), *q = p;
  while (q < end && (isalnum((unsigned char)*q) || *q == '_'))
    q++;
  if (q == p || skip_ws(q, end) != end)
    return 0;
  *name = p;
  *nlen = (size_t)(q - p);
  return 1;
}

/* ibdiagnet2.db_csv (ibutils2 ibdiag, docs/formats/ibdiagnet-db-csv.md): a
 * line `START_<NAME>` (NODES, AR_INFO, ...) followed later by
 * `END_<NAME>`. When the first section is longer than the detection window
 * (a big PORTS section), `START_<NAME>` and a comma-separated header line
 * right after it suffice. */
static uint32_t detect_dbcsv(const char *buf, size_t len) {
  const char *s = buf, *end = buf + len, *open = NULL;
  size_t open_len = 0;
  int header = 0; /* the line after the open START_ is a CSV header */
  while (s < end) {
    const char *nl = memchr(s, '\n', (size_t)(end - s));
    const char *le = nl ? nl : end;
    const char *name;
    size_t nlen;
    if (!open && section_marker(s, le, "START_", &name, &nlen)) {
      open = name, open_len = nlen, header = -1;
    } else if (open && section_marker(s, le, "END_", &name, &nlen)) {
      if (nlen == open_len && memcmp(name, open, nlen) == 0)
        return FL_FMT_DBCSV;
    } else if (open && header == -1) {
      header = memchr(s, ',', (size_t)(le - s)) != NULL;
    }
    s = nl ? nl + 1 : end;
  }
  return open && header == 1 && len + 3 >= DETECT_BYTES ? FL_FMT_DBCSV
                                                        : FL_FMT_AUTO;
}

static uint32_t detect_text(char *buf, size_t len) {
  uint32_t fmt = detect_dbcsv(buf, len);
  if (fmt != FL_FMT_AUTO)
    return fmt;
  fmt = detect_routing(buf, len);
  if (fmt != FL_FMT_AUTO)
    return fmt;
  if ((fmt = detect_annotations(buf, len)) != FL_FMT_AUTO)
    return fmt;
  const char *s = buf, *end = buf + len;
  int votes[5] = {0, 0, 0, 0, 0}, topo = 0;
  while (s < end) {
    const char *nl = memchr(s, '\n', (size_t)(end - s));
    const char *le = nl ? nl : end;
    votes[classify_line(s, le)]++;
    topo += is_topo_conn(s, le);
    s = nl ? nl + 1 : end;
  }
  if (topo > 0 && votes[1] + votes[2] + votes[3] + votes[4] == 0)
    return FL_FMT_TOPO_IBDM;
  if (votes[3] > 0 && votes[4] == 0)
    return FL_FMT_IBSIM_NET;
  if (votes[4] > 0 || votes[1] > 0)
    return FL_FMT_IBNETDISCOVER;
  if (votes[2] > 0)
    return FL_FMT_IBND_PORTS;
  return FL_FMT_AUTO;
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

/* Line number (1-based) of the first iblinkinfo link line in [buf, end)
 * ("... ==( 4X 2.5 Gbps Active/ LinkUp)==> ..."), 0 if none. */
static uint32_t iblinkinfo_line(const char *buf, const char *end) {
  uint32_t lineno = 1;
  for (const char *s = buf; s < end; lineno++) {
    const char *nl = memchr(s, '\n', (size_t)(end - s));
    const char *le = nl ? nl : end, *open = NULL;
    for (const char *q = s; le - q >= 3 && !open; q++)
      if (memcmp(q, "==(", 3) == 0)
        open = q;
    for (const char *q = open; q && le - q >= 4; q++)
      if (memcmp(q, ")==>", 4) == 0)
        return lineno;
    s = nl ? nl + 1 : end;
  }
  return 0;
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
  for (size_t i = 0; i < n; i++) {
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

/* The format of input @in by its first DETECT_BYTES (NUL-terminated there
 * for the time of the detection, then restored). */
static uint32_t detect_input(fl_input *in, fl_error *err) {
  const char *path = in->path;
  char *buf = in->buf;
  size_t len = in->len < DETECT_BYTES ? in->len : DETECT_BYTES;
  char saved = buf[len];
  buf[len] = '\0';
  fl_input window = {in->path, buf, len, 0};
  uint32_t fmt = FL_FMT_AUTO;
  uint32_t lineno = 0;
  char root[64];
  char *s = buf;
  if (len >= 3 && (unsigned char)s[0] == 0xef && (unsigned char)s[1] == 0xbb &&
      (unsigned char)s[2] == 0xbf)
    s += 3;
  if (len == 0) {
    empty_input(path, err);
  } else if (len >= 4 && (unsigned char)buf[0] == 0x2b &&
             (unsigned char)buf[1] == 0x83 && (unsigned char)buf[2] == 0xe7 &&
             (unsigned char)buf[3] == 0x8f) {
    fl_error_set(err, FL_EPARSE, path, 0, 0,
                 "this is an ibnetdiscover --cache file (binary); run "
                 "`ibnetdiscover --load-cache FILE` to turn it into text");
  } else if (*skip_ws(s, buf + len) == '<') {
    int xr = xml_root(s, buf + len, root, sizeof root);
    if (xr == -2)
      fl_error_set(err, FL_EPARSE, path, 0, 0,
                   "<!DOCTYPE is not allowed: no input fabriclint reads has a "
                   "DTD, and none is ever read (entities stay unexpanded)");
    else if (xr != 0)
      fl_error_set(err, FL_EPARSE, path, 1, 0, "XML without a root element");
    else if (strcmp(root, "fabric") == 0 || strstr(root, ":fabric"))
      fmt = FL_FMT_DESIGN_XML;
    else if (strcmp(root, "lldp") == 0)
      fmt = FL_FMT_LLDPD_XML;
    else if (strcmp(root, "lldp-neighbors-information") == 0 ||
             ((strcmp(root, "rpc-reply") == 0 || strstr(root, ":rpc-reply")) &&
              strstr(s, "lldp-neighbors-information")))
      fmt = FL_FMT_JUNOS_XML;
    else if (strcmp(root, "CISCO_NETWORK_TYPES") == 0 ||
             strstr(root, ":CISCO_NETWORK_TYPES"))
      fmt = FL_FMT_CISCO_PLAN;
    else if (strcmp(root, "system") == 0 && strstr(s, "<cpu"))
      fl_error_set(err, FL_EPARSE, path, 0, 0,
                   "NCCL topology XML (<system>, NCCL_TOPO_DUMP_FILE) is not "
                   "a format fabriclint reads: it describes one host's PCIe "
                   "tree, not the fabric's cables");
    else
      fl_error_set(err, FL_EPARSE, path, 0, 0,
                   "XML root element <%s> is not a format fabriclint reads "
                   "(expected <fabric> design XML, <lldp> lldpd XML, "
                   "<lldp-neighbors-information> Junos LLDP XML, or "
                   "<CISCO_NETWORK_TYPES> Cisco cable plan)",
                   root);
  } else if (len >= 2 && (((unsigned char)buf[0] == 0xff &&
                           (unsigned char)buf[1] == 0xfe) ||
                          ((unsigned char)buf[0] == 0xfe &&
                           (unsigned char)buf[1] == 0xff))) {
    fl_error_set(err, FL_EPARSE, path, 1, 1,
                 "UTF-16 text: fabriclint reads UTF-8 (convert with `iconv "
                 "-f UTF-16 -t UTF-8`)");
  } else if (fl_input_nul_check(&window, err) != FL_OK) {
    /* err names the NUL byte's line and column */
  } else if ((fmt = detect_text(s, len - (size_t)(s - buf))) == FL_FMT_AUTO &&
             (lineno = iblinkinfo_line(s, buf + len)) > 0) {
    fl_error_set(err, FL_EPARSE, path, lineno, 0,
                 "iblinkinfo output is not a format fabriclint reads; give "
                 "ibnetdiscover output of the same fabric (run on the same "
                 "node, it lists every cable with its width and speed)");
  } else if (fmt == FL_FMT_AUTO) {
    fl_error_set(
        err, FL_EPARSE, path, 0, 0,
        "unrecognised format: expected ibnetdiscover output (Switch/Ca "
        "lines with \"S-\"/\"H-\" GUID ids), an ibnetdiscover -p "
        "report, an ibsim net file, an ibdm topology file, design "
        "XML, LLDP XML (lldpd, Junos), a Cisco cable plan, or a "
        "routing dump "
        "(opensm-lfts.dump/ibroute/dump_fts, opensm.fdbs, "
        "opensm-sl2vl.dump/smpquery sl2vl, opensm-subnet.lst, "
        "saquery -p, a path-SL file, ibdiagnet2.far, "
        "ibdiagnet2.db_csv)");
  }
  buf[len] = saved;
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

/* What every load checks first. */
static int load_prep(fl_fabric *fab, const char *path,
                     const fl_load_options *opts, fl_error *err) {
  if (!fab || !path)
    return fl_error_set(err, FL_EINVAL, NULL, 0, 0, "no fabric or path");
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
    for (size_t i = 0; i < n && rc == FL_OK; i++)
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

static int is_xml_format(uint32_t fmt) {
  return fmt == FL_FMT_DESIGN_XML || fmt == FL_FMT_LLDPD_XML ||
         fmt == FL_FMT_JUNOS_XML || fmt == FL_FMT_CISCO_PLAN;
}

/* Detect (unless @fmt says) and load input @in, read once: detection and
 * the loader see the same bytes. Text formats hold no NUL byte anywhere;
 * XML is checked by libxml2 after decoding. */
static int load_input(fl_fabric *fab, fl_input *in, uint32_t fmt,
                      const fl_load_options *opts, fl_error *err) {
  if (fmt == FL_FMT_AUTO) {
    fmt = detect_input(in, err);
    if (fmt == FL_FMT_AUTO)
      return err && err->code ? err->code : FL_EPARSE;
  }
  if (in->len == 0) /* a forced format (--input-format) included */
    return empty_input(in->path, err);
  if (!is_xml_format(fmt)) {
    int rc = fl_input_nul_check(in, err);
    if (rc != FL_OK)
      return rc;
  }
  switch (fmt) {
  case FL_FMT_IBNETDISCOVER:
    return fl_load_ibnetdiscover(fab, in, opts, err);
  case FL_FMT_IBND_PORTS:
    return fl_load_ibnd_ports(fab, in, opts, err);
  case FL_FMT_IBSIM_NET:
    return fl_load_ibsim_net(fab, in, opts, err);
  case FL_FMT_DESIGN_XML:
    return fl_load_design_xml(fab, in, opts, err);
  case FL_FMT_LFTS:
    return fl_load_lfts(fab, in, opts, err);
  case FL_FMT_FDBS:
    return fl_load_fdbs(fab, in, opts, err);
  case FL_FMT_SL2VL:
    return fl_load_sl2vl(fab, in, opts, err);
  case FL_FMT_PATH_SL:
    return fl_load_path_sl(fab, in, opts, err);
  case FL_FMT_SUBNET_LST:
    return fl_load_subnet_lst(fab, in, opts, err);
  case FL_FMT_SAQUERY_PR:
    return fl_load_saquery_pr(fab, in, opts, err);
  case FL_FMT_ANNOTATIONS:
    return fl_load_annotations(fab, in, opts, err);
  case FL_FMT_AR:
    return fl_load_ar(fab, in, opts, err);
  case FL_FMT_TOPO_IBDM:
    return fl_load_topo_ibdm(fab, in, opts, err);
  case FL_FMT_LLDPD_XML:
    return fl_load_lldpd_xml(fab, in, opts, err);
  case FL_FMT_JUNOS_XML:
    return fl_load_junos_xml(fab, in, opts, err);
  case FL_FMT_CISCO_PLAN:
    return fl_load_cisco_plan(fab, in, opts, err);
  case FL_FMT_DBCSV:
    return fl_load_dbcsv(fab, in, opts, err);
  default:
    return fl_error_set(err, FL_EINVAL, in->path, 0, 0,
                        "unknown format code %u", fmt);
  }
}
