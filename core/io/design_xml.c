/*
 * core/io/design_xml.c — loader of fabriclint design XML (schema/design.rng,
 * docs/design-xml.md) into an fl_fabric under construction.
 *
 * Why it is built this way:
 *
 * - Streaming. Plans of 100k GPUs are ~100 MB of XML, so the file is read
 *   with libxml2's xmlTextReader, which keeps only the current node and its
 *   ancestors (libxml2 xmlreader API, https://gnome.pages.gitlab.gnome.org/
 *   libxml2/html/libxml-xmlreader.html). No DOM is built; links are kept as
 *   compact pending records and resolved at the end, because a <link> may
 *   name nodes defined further down.
 *
 * - Safety. The reader is created with XML_PARSE_NONET | XML_PARSE_BIG_LINES
 *   and without XML_PARSE_NOENT / DTDLOAD / DTDATTR / DTDVALID, so no external
 *   entity or DTD is ever fetched; on top of that, any <!DOCTYPE> is refused
 *   before libxml2 sees the file, and a DTD node the reader reports is
 *   refused too (design XML has no use for a DTD, and a DTD is where entity
 *   bombs and external entities live).
 *
 * - Positions. Every error and every element's provenance carries file,
 *   line and column. libxml2 gives line and column for well-formedness
 *   errors (xmlError.line / int2), but reader nodes carry only a line, and
 *   xmlTextReaderGetParserColumnNumber() reports where the push parser is,
 *   which runs ahead of the current node. So the file, read whole once
 *   (fileio.h), is handed to xmlReaderForMemory(); a tiny scanner walks
 *   the same bytes and finds the start tag of each element the reader
 *   reports (the k-th element event is the k-th start tag, since no entity
 *   can add elements).
 *   That gives exact line and column (1-based, counted in characters) of
 *   elements and of their attributes.
 *
 * - Validation. libxml2's streaming RELAX NG validation
 *   (xmlTextReaderRelaxNGSetSchema) streams, but even with the schema shaped
 *   for it (see schema/design.rng) it takes 4.3 s on a 93 MB fat-tree plan
 *   where parsing plus building takes 1.7 s (libxml2 2.9.14, 2 cores). So
 *   the loader checks the rules of schema/design.rng itself (the tables
 *   below mirror the schema one to one) and runs libxml2 RELAX NG only in
 *   FL_DX_RELAXNG mode, the reference the unit tests compare with. Where
 *   libxml2 reports a schema error, the built-in check of the same event
 *   runs first so the user gets the more specific message.
 *
 * - No global mutable state: the error handler is per reader
 *   (xmlTextReaderSetStructuredErrorHandler) and all state lives in one
 *   struct on the caller's stack.
 */
#include "io/design_xml.h"
#include "io/xml_cut.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <libxml/parser.h>
#include <libxml/relaxng.h>
#include <libxml/xmlerror.h>
#include <libxml/xmlreader.h>

#include "io/data_path.h"
#include "io/formats.h"
#include "io/loaders.h"
#include "model/build.h"
#include "model/hashmap.h"
#include "util/bigmem.h"

#define DX_NS "urn:fabriclint:design:1"

#if LIBXML_VERSION >= 21200
typedef const xmlError *dx_xml_error_ptr;
#else
typedef xmlErrorPtr dx_xml_error_ptr;
#endif

/* ---- the vocabulary: mirrors schema/design.rng ------------------------- */

/* Value types of attributes (the schema's data patterns). */
enum {
  T_ANY,      /* xsd:string */
  T_NONEMPTY, /* xsd:string minLength 1 */
  T_KIND,     /* switch | ca | router */
  T_VERSION,  /* 1 */
  T_GUID,     /* (0x)?hex{1,16} */
  T_HEX24,    /* (0x)?hex{1,6} */
  T_HEX32,    /* (0x)?hex{1,8} */
  T_U16,      /* xsd:unsignedShort */
  T_PORTNUM,  /* xsd:unsignedShort >= 1 */
  T_RACKU,    /* xsd:unsignedByte >= 1: a rack unit */
  T_U8,       /* xsd:unsignedByte */
  T_LMC,      /* xsd:unsignedByte <= 7 */
  T_BOOL,     /* xsd:boolean */
  T_DECIMAL,  /* xsd:decimal >= 0 */
  T_WIDTH,    /* 1x 2x 4x 8x 12x (either case of x) */
  T_SPEED,    /* SDR..XDR, FDR10, 1G..1600G */
  T_ROLE,     /* [a-z][a-z0-9-]* */
  T_MEDIA,    /* copper dac acc aec aoc optical fiber backplane */
  T_NKEY,     /* <attr key> under <node>: not a node attribute name */
  T_PKEY,     /* <attr key> under <port> */
  T_LKEY      /* <attr key> under <link> */
};

#define F_REQ    1u /* required */
#define F_DESIGN 2u /* stored with fl_b_attr under its own name */

typedef struct aspec {
  const char *name;
  uint8_t type;
  uint8_t flags;
} aspec;

enum { FA_VERSION, FA_NAME, FA_DESC, FA_N };
static const aspec fabric_attrs[FA_N] = {
    [FA_VERSION] = {"version", T_VERSION, 0},
    [FA_NAME] = {"name", T_NONEMPTY, 0},
    [FA_DESC] = {"description", T_ANY, 0},
};

enum {
  NA_KIND,
  NA_NAME,
  NA_GUID,
  NA_SYSIMG,
  NA_VENDID,
  NA_DEVID,
  NA_PORTS,
  NA_DESC,
  NA_SYSTEM,
  NA_DEVICE,
  NA_TIER,
  NA_RAIL,
  NA_SU,
  NA_POD,
  NA_PLANE,
  NA_RACK,
  NA_ROW,
  NA_HALL,
  NA_PDU,
  NA_FEED,
  NA_U,
  NA_AR,
  NA_ROLE,
  NA_N
};
static const aspec node_attrs[NA_N] = {
    [NA_KIND] = {"kind", T_KIND, F_REQ},
    [NA_NAME] = {"name", T_NONEMPTY, F_REQ},
    [NA_GUID] = {"guid", T_GUID, 0},
    [NA_SYSIMG] = {"sysimgguid", T_GUID, 0},
    [NA_VENDID] = {"vendid", T_HEX24, 0},
    [NA_DEVID] = {"devid", T_HEX32, 0},
    [NA_PORTS] = {"ports", T_U16, 0},
    [NA_DESC] = {"desc", T_ANY, 0},
    [NA_SYSTEM] = {"system", T_NONEMPTY, 0},
    [NA_DEVICE] = {"device", T_NONEMPTY, 0},
    [NA_TIER] = {"tier", T_U8, F_DESIGN},
    [NA_RAIL] = {"rail", T_NONEMPTY, F_DESIGN},
    [NA_SU] = {"su", T_NONEMPTY, F_DESIGN},
    [NA_POD] = {"pod", T_NONEMPTY, F_DESIGN},
    [NA_PLANE] = {"plane", T_NONEMPTY, F_DESIGN},
    [NA_RACK] = {"rack", T_NONEMPTY, F_DESIGN},
    [NA_ROW] = {"row", T_NONEMPTY, F_DESIGN},
    [NA_HALL] = {"hall", T_NONEMPTY, F_DESIGN},
    [NA_PDU] = {"pdu", T_NONEMPTY, F_DESIGN},
    [NA_FEED] = {"power-feed", T_NONEMPTY, F_DESIGN},
    [NA_U] = {"u", T_RACKU, F_DESIGN},
    [NA_AR] = {"ar", T_BOOL, F_DESIGN},
    [NA_ROLE] = {"role", T_ROLE, F_DESIGN},
};

enum {
  PA_NUM,
  PA_GUID,
  PA_LID,
  PA_LMC,
  PA_LABEL,
  PA_WIDTH,
  PA_SPEED,
  PA_RAIL,
  PA_PLANE,
  PA_N
};
static const aspec port_attrs[PA_N] = {
    [PA_NUM] = {"num", T_U16, F_REQ},
    [PA_GUID] = {"guid", T_GUID, 0},
    [PA_LID] = {"lid", T_U16, 0},
    [PA_LMC] = {"lmc", T_LMC, 0},
    [PA_LABEL] = {"label", T_NONEMPTY, 0},
    [PA_WIDTH] = {"width", T_WIDTH, F_DESIGN},
    [PA_SPEED] = {"speed", T_SPEED, F_DESIGN},
    [PA_RAIL] = {"rail", T_NONEMPTY, F_DESIGN},
    [PA_PLANE] = {"plane", T_NONEMPTY, F_DESIGN},
};

enum {
  LA_A,
  LA_APORT,
  LA_B,
  LA_BPORT,
  LA_WIDTH,
  LA_SPEED,
  LA_CABLE,
  LA_LENGTH,
  LA_MEDIA,
  LA_N
};
static const aspec link_attrs[LA_N] = {
    [LA_A] = {"a", T_NONEMPTY, F_REQ},
    [LA_APORT] = {"a-port", T_PORTNUM, F_REQ},
    [LA_B] = {"b", T_NONEMPTY, F_REQ},
    [LA_BPORT] = {"b-port", T_PORTNUM, F_REQ},
    [LA_WIDTH] = {"width", T_WIDTH, 0},
    [LA_SPEED] = {"speed", T_SPEED, 0},
    [LA_CABLE] = {"cable", T_NONEMPTY, F_DESIGN},
    [LA_LENGTH] = {"length", T_DECIMAL, F_DESIGN},
    [LA_MEDIA] = {"media", T_MEDIA, F_DESIGN},
};

enum { AA_KEY, AA_VALUE, AA_N };
static const aspec fattr_attrs[AA_N] = {{"key", T_NONEMPTY, F_REQ},
                                        {"value", T_ANY, F_REQ}};
static const aspec nattr_attrs[AA_N] = {{"key", T_NKEY, F_REQ},
                                        {"value", T_ANY, F_REQ}};
static const aspec pattr_attrs[AA_N] = {{"key", T_PKEY, F_REQ},
                                        {"value", T_ANY, F_REQ}};
static const aspec lattr_attrs[AA_N] = {{"key", T_LKEY, F_REQ},
                                        {"value", T_ANY, F_REQ}};

#define DX_MAX_ATTRS NA_N

/* Element kinds. */
enum { EL_NONE, EL_FABRIC, EL_NODE, EL_PORT, EL_LINK, EL_ATTR };

static const char *const el_names[] = {"",     "fabric", "node",
                                       "port", "link",   "attr"};

static const char *const width_names[] = {"1x", "2x", "4x", "8x", "12x",
                                          "1X", "2X", "4X", "8X", "12X"};
static const char *const speed_names[] = {
    "SDR", "DDR", "QDR", "FDR10", "FDR",  "EDR",  "HDR",  "NDR",  "XDR",  "1G",
    "10G", "25G", "40G", "50G",   "100G", "200G", "400G", "800G", "1600G"};
static const char *const media_names[] = {
    "copper", "dac", "acc", "aec", "aoc", "optical", "fiber", "backplane"};
static const char *const kind_names[] = {"switch", "ca", "router"};
static const uint32_t kind_codes[] = {FL_NODE_SWITCH, FL_NODE_CA,
                                      FL_NODE_ROUTER};

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

/* ---- state ------------------------------------------------------------- */

/* A start tag found by the byte scanner. */
typedef struct dx_tag {
  size_t off; /* offset of '<' */
  size_t end; /* offset of the closing '>' */
  uint32_t line, col;
} dx_tag;

/* Byte scanner over the mapped file: finds start tags, tracks lines. */
typedef struct dx_scan {
  const char *buf;
  size_t len;
  size_t pos;        /* next byte to look at */
  uint32_t line;     /* line of pos */
  size_t line_start; /* offset of the first byte of that line */
  size_t col_off;    /* column cache on the current line: offset ... */
  uint32_t col;      /* ... and its column */
  int broken;        /* lost sync with the reader: no columns any more */
} dx_scan;

/* One open element. */
typedef struct dx_frame {
  int el;
  fl_id node;     /* EL_NODE: its id; EL_PORT: owner */
  fl_id port;     /* EL_PORT */
  uint32_t link;  /* EL_LINK: index of the pending link */
  const void *xn; /* libxml2 node, to place schema errors */
  dx_tag tag;
} dx_frame;

/* A link kept until every node is known. Strings live in dx.arena. */
typedef struct dx_link {
  uint32_t a, a_len, b, b_len; /* arena offsets and lengths of end names */
  uint32_t attr_first, attr_n; /* range in dx.lattrs */
  uint32_t line, col;
  size_t off; /* start tag offset, to place errors on attributes */
  uint16_t a_port, b_port;
  uint8_t width, speed;
} dx_link;

typedef struct dx_kv {
  uint32_t key, value; /* arena offsets of NUL-terminated strings */
} dx_kv;

typedef struct dx_nodepos {
  fl_id id;
  uint32_t line, col;
} dx_nodepos;

/* The first libxml2 error of the current read. */
typedef struct dx_xerr {
  int set;
  int domain;
  uint32_t line, col;
  const void *node;
  char msg[600];
} dx_xerr;

typedef struct dx {
  fl_fabric *fab;
  const char *path;
  fl_error *err;
  int mode;
  int rc; /* FL_EPARSE or FL_ENOMEM once failed */
  uint32_t file;
  xmlTextReaderPtr reader;
  dx_scan scan;
  int have_pre; /* the first start tag was pre-scanned */
  dx_tag pre;
  dx_frame stack[4];
  int depth;
  uint32_t skip;       /* > 0: inside an ignored subtree (lenient mode) */
  const void *last_xn; /* last element closed, for schema errors */
  dx_tag last_tag;
  dx_xerr xe;
  fl_strmap names; /* node name -> index in nodes */
  dx_nodepos *nodes;
  size_t n_nodes, cap_nodes;
  fl_u64map portrate; /* (node id << 16 | port) -> width | speed << 8 */
  dx_link *links;
  size_t n_links, cap_links;
  dx_kv *lattrs;
  size_t n_lattrs, cap_lattrs;
  char *arena;
  size_t alen, acap;
} dx;

/* ---- errors ------------------------------------------------------------ */

static int dx_fail(dx *d, uint32_t line, uint32_t col, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

static int dx_fail(dx *d, uint32_t line, uint32_t col, const char *fmt, ...) {
  char msg[FL_ERROR_MSG_MAX];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  if (d->rc == 0)
    d->rc = FL_EPARSE;
  fl_error_set(d->err, FL_EPARSE, d->path, line, col, "%s", msg);
  return -1;
}

static int dx_nomem(dx *d) {
  if (d->rc == 0)
    d->rc = FL_ENOMEM;
  fl_error_set(d->err, FL_ENOMEM, d->path, 0, 0,
               "out of memory while loading design XML");
  return -1;
}

/* Grow *@p (of *@cap elements of @size bytes) to hold @need. */
static int dx_grow(void **p, size_t *cap, size_t need, size_t size) {
  if (need <= *cap)
    return 0;
  size_t ncap = *cap ? *cap * 2 : 256;
  while (ncap < need)
    ncap *= 2;
  void *np = fl_big_realloc(*p, *cap * size, ncap * size);
  if (!np)
    return -1;
  *p = np;
  *cap = ncap;
  return 0;
}

/* Copy @len bytes of @s, NUL-terminated, into the arena; offset or -1. */
static int64_t dx_store(dx *d, const char *s, size_t len) {
  if (d->alen + len + 1 > UINT32_MAX)
    return -1;
  if (dx_grow((void **)&d->arena, &d->acap, d->alen + len + 1, 1) != 0)
    return -1;
  int64_t off = (int64_t)d->alen;
  memcpy(d->arena + d->alen, s, len);
  d->arena[d->alen + len] = '\0';
  d->alen += len + 1;
  return off;
}

/* ---- the byte scanner: positions of start tags ----------------------------
 */

static int is_cont(unsigned char c) {
  return (c & 0xC0u) == 0x80u;
}

/* Advance the scanner's line bookkeeping over [pos, to). */
static void scan_lines(dx_scan *s, size_t to) {
  const char *p = s->buf + s->pos, *e = s->buf + to;
  while (p < e) {
    const char *nl = memchr(p, '\n', (size_t)(e - p));
    if (!nl)
      break;
    s->line++;
    s->line_start = (size_t)(nl - s->buf) + 1;
    p = nl + 1;
  }
  s->pos = to;
}

/* Column (1-based, in characters) of offset @off on the current line. */
static uint32_t scan_col(dx_scan *s, size_t off) {
  if (s->col_off < s->line_start || s->col_off > off) {
    s->col_off = s->line_start;
    s->col = 1;
  }
  for (size_t i = s->col_off; i < off; i++)
    s->col += !is_cont((unsigned char)s->buf[i]);
  s->col_off = off;
  return s->col;
}

/* Line and column of @to, counting from a known position (@off, @line, @col).
 */
static void pos_from(const char *buf, size_t off, uint32_t line, uint32_t col,
                     size_t to, uint32_t *oline, uint32_t *ocol) {
  for (size_t i = off; i < to; i++) {
    if (buf[i] == '\n') {
      line++;
      col = 1;
    } else if (!is_cont((unsigned char)buf[i])) {
      col++;
    }
  }
  *oline = line;
  *ocol = col;
}

/* Offset just past the first @pat at or after @from, or @len. */
static size_t skip_past(const char *buf, size_t len, size_t from,
                        const char *pat) {
  size_t pl = strlen(pat);
  while (from + pl <= len) {
    const char *p = memchr(buf + from, pat[0], len - from - pl + 1);
    if (!p)
      break;
    from = (size_t)(p - buf);
    if (memcmp(p, pat, pl) == 0)
      return from + pl;
    from++;
  }
  return len;
}

/* Offset of the '>' closing a tag starting at @from, honouring quotes. */
static size_t tag_close(const char *buf, size_t len, size_t from) {
  size_t i = from;
  while (i < len && buf[i] != '>') {
    if (buf[i] == '"' || buf[i] == '\'') {
      const char *q = memchr(buf + i + 1, buf[i], len - i - 1);
      if (!q)
        return len;
      i = (size_t)(q - buf);
    }
    i++;
  }
  return i;
}

/*
 * scan_next() — find the next start tag. Comments, CDATA sections,
 * processing instructions and end tags are skipped; a <!DOCTYPE is reported
 * through @doctype (set to its offset + 1) and stops the scan.
 * Returns 0 with @t filled, or -1 at the end of the buffer.
 */
static int scan_next(dx_scan *s, dx_tag *t, size_t *doctype) {
  const char *b = s->buf;
  size_t n = s->len;
  for (;;) {
    const char *p = memchr(b + s->pos, '<', n - s->pos);
    if (!p)
      return -1;
    size_t i = (size_t)(p - b);
    scan_lines(s, i);
    if (i + 1 >= n)
      return -1;
    char c = b[i + 1];
    size_t next;
    if (c == '!') {
      if (n - i >= 4 && memcmp(b + i, "<!--", 4) == 0)
        next = skip_past(b, n, i + 4, "-->");
      else if (n - i >= 9 && memcmp(b + i, "<![CDATA[", 9) == 0)
        next = skip_past(b, n, i + 9, "]]>");
      else {
        if (doctype)
          *doctype = i + 1;
        return -1;
      }
    } else if (c == '?') {
      next = skip_past(b, n, i + 2, "?>");
    } else if (c == '/') {
      next = tag_close(b, n, i + 2) + 1;
    } else {
      t->off = i;
      t->line = s->line;
      t->col = scan_col(s, i);
      t->end = tag_close(b, n, i + 1);
      scan_lines(s, t->end < n ? t->end + 1 : n);
      return 0;
    }
    scan_lines(s, next < n ? next : n);
  }
}

/* Line/column of attribute @name in start tag @t (the tag's own if absent). */
static void attr_pos(const dx *d, const dx_tag *t, const char *name,
                     uint32_t *line, uint32_t *col) {
  const char *b = d->scan.buf;
  size_t i = t->off + 1, e = t->end, nl = strlen(name);
  *line = t->line;
  *col = t->col;
  if (d->scan.broken || e > d->scan.len)
    return;
  while (i < e && !strchr(" \t\r\n/>", b[i]))
    i++; /* element name */
  for (;;) {
    while (i < e && strchr(" \t\r\n", b[i]))
      i++;
    if (i >= e || b[i] == '/')
      return;
    size_t ns = i;
    while (i < e && !strchr(" \t\r\n=", b[i]))
      i++;
    if (i - ns == nl && memcmp(b + ns, name, nl) == 0) {
      pos_from(b, t->off, t->line, t->col, ns, line, col);
      return;
    }
    while (i < e && b[i] != '"' && b[i] != '\'')
      i++;
    if (i >= e)
      return;
    const char *q = memchr(b + i + 1, b[i], e - i - 1);
    if (!q)
      return;
    i = (size_t)(q - b) + 1;
  }
}

/* ---- value checks ------------------------------------------------------ */

static int is_xml_ws(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* Trim XML whitespace (xsd whiteSpace="collapse" for atomic types). */
static void trim(const char **s, size_t *len) {
  const char *p = *s, *e = *s + strlen(*s);
  while (p < e && is_xml_ws(*p))
    p++;
  while (e > p && is_xml_ws(e[-1]))
    e--;
  *s = p;
  *len = (size_t)(e - p);
}

static int in_list(const char *s, const char *const *list, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (strcmp(s, list[i]) == 0)
      return (int)i;
  return -1;
}

/* xsd unsigned integer lexical form: ws, optional '+', digits, ws. */
static int parse_unsigned(const char *s, uint64_t max, uint64_t *out) {
  size_t len;
  trim(&s, &len);
  size_t i = 0;
  if (i < len && s[i] == '+')
    i++;
  if (i == len)
    return -1;
  uint64_t v = 0;
  for (; i < len; i++) {
    if (s[i] < '0' || s[i] > '9')
      return -1;
    v = v * 10 + (uint64_t)(s[i] - '0');
    if (v > max)
      return -1;
  }
  *out = v;
  return 0;
}

/* (0x)?hex{1,maxdig}, exactly (xsd:string pattern: no trimming). */
static int parse_hex(const char *s, int maxdig, uint64_t *out) {
  if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
    s += 2;
  uint64_t v = 0;
  int n = 0;
  for (; *s; s++, n++) {
    int c = (unsigned char)*s, h;
    if (c >= '0' && c <= '9')
      h = c - '0';
    else if (c >= 'a' && c <= 'f')
      h = c - 'a' + 10;
    else if (c >= 'A' && c <= 'F')
      h = c - 'A' + 10;
    else
      return -1;
    v = v << 4 | (uint64_t)h;
  }
  if (n < 1 || n > maxdig)
    return -1;
  *out = v;
  return 0;
}

/* xsd:decimal >= 0: ws, sign, digits with at most one '.', ws. */
static int check_decimal(const char *s) {
  size_t len, i = 0, digits = 0, nonzero = 0;
  int neg = 0, dot = 0;
  trim(&s, &len);
  if (i < len && (s[i] == '+' || s[i] == '-'))
    neg = s[i++] == '-';
  for (; i < len; i++) {
    if (s[i] == '.' && !dot)
      dot = 1;
    else if (s[i] >= '0' && s[i] <= '9') {
      digits++;
      nonzero += s[i] != '0';
    } else
      return -1;
  }
  return (digits == 0 || (neg && nonzero)) ? -1 : 0;
}

static int check_bool(const char *s, uint64_t *out) {
  size_t len;
  trim(&s, &len);
  if ((len == 4 && memcmp(s, "true", 4) == 0) || (len == 1 && s[0] == '1'))
    *out = 1;
  else if ((len == 5 && memcmp(s, "false", 5) == 0) ||
           (len == 1 && s[0] == '0'))
    *out = 0;
  else
    return -1;
  return 0;
}

static int check_role(const char *s) {
  if (!(s[0] >= 'a' && s[0] <= 'z'))
    return -1;
  for (s++; *s; s++)
    if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') || *s == '-'))
      return -1;
  return 0;
}

static const char *const node_reserved[] = {
    "tier", "rail", "su", "pod",        "plane", "rack", "row",
    "hall", "pdu",  "ar", "power-feed", "role",  "u"};
static const char *const port_reserved[] = {"width", "speed", "rail", "plane"};
static const char *const link_reserved[] = {"cable", "length", "media"};

/* Check @s against @type; numeric results in *@num. 0 if valid. */
static int check_value(int type, const char *s, uint64_t *num) {
  *num = 0;
  switch (type) {
  case T_ANY:
    return 0;
  case T_NONEMPTY:
    return s[0] ? 0 : -1;
  case T_KIND: {
    int i = in_list(s, kind_names, NELEM(kind_names));
    if (i < 0)
      return -1;
    *num = kind_codes[i];
    return 0;
  }
  case T_VERSION:
    return strcmp(s, "1") == 0 ? 0 : -1;
  case T_GUID:
    return parse_hex(s, 16, num);
  case T_HEX24:
    return parse_hex(s, 6, num);
  case T_HEX32:
    return parse_hex(s, 8, num);
  case T_U16:
    return parse_unsigned(s, 65535, num);
  case T_PORTNUM:
    return (parse_unsigned(s, 65535, num) == 0 && *num >= 1) ? 0 : -1;
  case T_RACKU:
    return (parse_unsigned(s, 255, num) == 0 && *num >= 1) ? 0 : -1;
  case T_U8:
    return parse_unsigned(s, 255, num);
  case T_LMC:
    return parse_unsigned(s, 7, num);
  case T_BOOL:
    return check_bool(s, num);
  case T_DECIMAL:
    return check_decimal(s);
  case T_WIDTH:
    if (in_list(s, width_names, NELEM(width_names)) < 0)
      return -1;
    *num = fl_width_parse(s, strlen(s));
    return *num ? 0 : -1;
  case T_SPEED:
    if (in_list(s, speed_names, NELEM(speed_names)) < 0)
      return -1;
    *num = fl_speed_parse(s, strlen(s));
    return *num ? 0 : -1;
  case T_ROLE:
    return check_role(s);
  case T_MEDIA:
    return in_list(s, media_names, NELEM(media_names)) < 0 ? -1 : 0;
  case T_NKEY:
    return (s[0] && in_list(s, node_reserved, NELEM(node_reserved)) < 0) ? 0
                                                                         : -1;
  case T_PKEY:
    return (s[0] && in_list(s, port_reserved, NELEM(port_reserved)) < 0) ? 0
                                                                         : -1;
  case T_LKEY:
    return (s[0] && in_list(s, link_reserved, NELEM(link_reserved)) < 0) ? 0
                                                                         : -1;
  }
  return -1;
}

/* What a value of @type should look like, for messages. */
static const char *expected(int type) {
  switch (type) {
  case T_NONEMPTY:
    return "a non-empty string";
  case T_KIND:
    return "switch, ca or router";
  case T_VERSION:
    return "1";
  case T_GUID:
    return "a 64-bit GUID in hex, e.g. 0x0002c903000a1b2c";
  case T_HEX24:
    return "a 24-bit vendor id in hex, e.g. 0x2c9";
  case T_HEX32:
    return "a device id in hex, e.g. 0xd2f0";
  case T_U16:
    return "a number 0..65535";
  case T_PORTNUM:
    return "a port number 1..65535";
  case T_RACKU:
    return "a rack unit 1..255 (the lowest unit the equipment occupies)";
  case T_U8:
    return "a number 0..255";
  case T_LMC:
    return "an LMC 0..7";
  case T_BOOL:
    return "true, false, 1 or 0";
  case T_DECIMAL:
    return "a length in metres, e.g. 3 or 2.5";
  case T_WIDTH:
    return "1x, 2x, 4x, 8x or 12x";
  case T_SPEED:
    return "SDR, DDR, QDR, FDR10, FDR, EDR, HDR, NDR, XDR, 1G, 10G, 25G, "
           "40G, 50G, 100G, 200G, 400G, 800G or 1600G";
  case T_ROLE:
    return "a lower-case word such as compute, storage or management";
  case T_MEDIA:
    return "copper, dac, acc, aec, aoc, optical, fiber or backplane";
  case T_NKEY:
    return "a non-empty key other than tier, rail, su, pod, plane, rack, row, "
           "hall, pdu, power-feed, ar and role (write those as attributes of "
           "<node>)";
  case T_PKEY:
    return "a non-empty key other than width, speed, rail and plane (write "
           "those as attributes of <port>)";
  case T_LKEY:
    return "a non-empty key other than cable, length and media (write those "
           "as attributes of <link>)";
  }
  return "a string";
}

/* ---- attributes of the current element -------------------------------- */

/* Value of libxml2 attribute @a (its single text child), or NULL. */
static const char *xattr_value(xmlAttrPtr a) {
  xmlNodePtr c = a->children;
  if (!c)
    return "";
  if (c->type == XML_TEXT_NODE && c->next == NULL)
    return (const char *)c->content;
  return NULL; /* entity references: impossible without a DTD */
}

static void list_names(const aspec *spec, int n, char *buf, size_t size) {
  size_t used = 0;
  buf[0] = '\0';
  for (int i = 0; i < n && used < size; i++)
    used += (size_t)snprintf(buf + used, size - used, "%s%s", i ? ", " : "",
                             spec[i].name);
}

/* Bytes of attribute value @v an error message quotes: all of it up to 40
 * bytes, else 40 cut back to a UTF-8 character boundary (the message then
 * adds "..."): a 100 kB value must not fill the message, and a huge number
 * must not be cut without saying so. */
static int quote_len(const char *v) {
  size_t n = strlen(v);
  if (n <= 40)
    return (int)n;
  n = 40;
  while (n > 0 && ((unsigned char)v[n] & 0xc0) == 0x80)
    n--;
  return (int)n;
}

/*
 * gather() — read the attributes of element @xn (of kind @el, at @t) into
 * @vals/@nums indexed like @spec, checking names, types and presence.
 */
static int gather(dx *d, xmlNodePtr xn, const dx_tag *t, int el,
                  const aspec *spec, int n, const char **vals, uint64_t *nums) {
  int strict = d->mode != FL_DX_LENIENT;
  uint32_t line, col;
  for (int i = 0; i < n; i++) {
    vals[i] = NULL;
    nums[i] = 0;
  }
  for (xmlAttrPtr a = xn->properties; a; a = a->next) {
    const char *name = (const char *)a->name;
    int i;
    for (i = 0; i < n; i++)
      if (spec[i].name[0] == name[0] && strcmp(spec[i].name, name) == 0)
        break;
    if (a->ns != NULL || i == n) {
      if (!strict)
        continue;
      char names[400];
      list_names(spec, n, names, sizeof names);
      attr_pos(d, t, name, &line, &col);
      return dx_fail(
          d, line, col, "unknown attribute %s%s%s on <%s>; expected one of: %s",
          a->ns && a->ns->prefix ? (const char *)a->ns->prefix : "",
          a->ns && a->ns->prefix ? ":" : "", name, el_names[el], names);
    }
    const char *v = xattr_value(a);
    if (!v || check_value(spec[i].type, v, &nums[i]) != 0) {
      attr_pos(d, t, name, &line, &col);
      if (!v)
        return dx_fail(d, line, col,
                       "attribute %s of <%s> holds an entity "
                       "reference; design XML takes none",
                       name, el_names[el]);
      int q = quote_len(v);
      return dx_fail(d, line, col, "invalid %s=\"%.*s%s\" on <%s>: expected %s",
                     name, q, v, v[q] ? "..." : "", el_names[el],
                     expected(spec[i].type));
    }
    vals[i] = v;
  }
  for (int i = 0; i < n; i++)
    if ((spec[i].flags & F_REQ) && !vals[i])
      return dx_fail(d, t->line, t->col,
                     "<%s> is missing required attribute %s", el_names[el],
                     spec[i].name);
  return 0;
}

/* Canonical text of a typed design value (tier, ar, width), else @v. */
static const char *canonical(int type, const char *v, uint64_t num, char *buf,
                             size_t size) {
  switch (type) {
  case T_U8:
    snprintf(buf, size, "%u", (unsigned)num);
    return buf;
  case T_BOOL:
    return num ? "true" : "false";
  case T_WIDTH:
    snprintf(buf, size, "%ux", (unsigned)num);
    return buf;
  default:
    return v;
  }
}

static int is_eth(uint32_t speed) {
  return speed >= FL_SPEED_ETH_1G;
}

/* ---- elements ---------------------------------------------------------- */

static fl_prov prov_of(const dx *d, const dx_tag *t) {
  fl_prov p = {d->file, t->line, t->col};
  return p;
}

static int on_fabric(dx *d, xmlNodePtr xn, const dx_tag *t) {
  const char *v[FA_N];
  uint64_t num[FA_N];
  /* name and description are checked; the model has no fabric-level
   * record to keep them in yet. */
  return gather(d, xn, t, EL_FABRIC, fabric_attrs, FA_N, v, num);
}

/* Store the F_DESIGN attributes of an element with fl_b_attr(). */
static int store_design(dx *d, uint32_t ent, fl_id id, const aspec *spec, int n,
                        const char **v, const uint64_t *num) {
  char buf[32];
  for (int i = 0; i < n; i++) {
    if (!v[i] || !(spec[i].flags & F_DESIGN))
      continue;
    const char *val = canonical(spec[i].type, v[i], num[i], buf, sizeof buf);
    if (fl_b_attr(d->fab, ent, id, spec[i].name, val) != FL_OK)
      return dx_nomem(d);
  }
  return 0;
}

static int on_node(dx *d, xmlNodePtr xn, dx_frame *f) {
  const char *v[NA_N];
  uint64_t num[NA_N];
  if (gather(d, xn, &f->tag, EL_NODE, node_attrs, NA_N, v, num) != 0)
    return -1;
  const char *name = v[NA_NAME];
  size_t len = strlen(name);
  uint32_t idx = (uint32_t)d->n_nodes;
  uint32_t got = fl_strmap_put(&d->names, name, len, idx);
  if (got == FL_MAP_ABSENT)
    return dx_nomem(d);
  if (got != idx) {
    uint32_t line, col;
    attr_pos(d, &f->tag, "name", &line, &col);
    return dx_fail(d, line, col,
                   "duplicate node name \"%s\": first defined at line %u, "
                   "column %u; node names must be unique",
                   name, d->nodes[got].line, d->nodes[got].col);
  }
  fl_id n = fl_b_node(d->fab, (uint32_t)num[NA_KIND], num[NA_GUID],
                      (uint32_t)num[NA_PORTS], prov_of(d, &f->tag));
  if (n == FL_NONE || dx_grow((void **)&d->nodes, &d->cap_nodes, d->n_nodes + 1,
                              sizeof *d->nodes) != 0)
    return dx_nomem(d);
  d->nodes[d->n_nodes++] = (dx_nodepos){n, f->tag.line, f->tag.col};
  f->node = n;
  fl_b_node_set_name(d->fab, n, name, len);
  if (v[NA_DESC])
    fl_b_node_set_desc(d->fab, n, v[NA_DESC], (size_t)-1);
  if (v[NA_SYSTEM])
    fl_b_node_set_system(d->fab, n, v[NA_SYSTEM], (size_t)-1);
  if (v[NA_DEVICE])
    fl_b_node_set_device(d->fab, n, v[NA_DEVICE], (size_t)-1);
  if (v[NA_VENDID] || v[NA_DEVID] || v[NA_SYSIMG])
    fl_b_node_set_ids(d->fab, n, (uint32_t)num[NA_VENDID],
                      (uint32_t)num[NA_DEVID], num[NA_SYSIMG]);
  if (v[NA_TIER])
    fl_b_node_set_tier(d->fab, n, (uint32_t)num[NA_TIER]);
  return store_design(d, FL_ENT_NODE, n, node_attrs, NA_N, v, num);
}

static int on_port(dx *d, xmlNodePtr xn, dx_frame *f, const dx_frame *parent) {
  const char *v[PA_N];
  uint64_t num[PA_N];
  uint32_t line, col;
  if (gather(d, xn, &f->tag, EL_PORT, port_attrs, PA_N, v, num) != 0)
    return -1;
  fl_id n = parent->node;
  uint32_t pnum = (uint32_t)num[PA_NUM];
  attr_pos(d, &f->tag, "num", &line, &col);
  if (pnum == 0 && fl_fabric_node_kind(d->fab, n) != FL_NODE_SWITCH &&
      fl_fabric_node_kind(d->fab, n) != 0)
    return dx_fail(d, line, col,
                   "port 0 is a switch's management port; "
                   "ports of a ca or router are numbered from 1");
  if (fl_b_port_find(d->fab, n, pnum) != FL_NONE)
    return dx_fail(d, line, col, "port %u of this node is declared twice",
                   pnum);
  if (v[PA_WIDTH] && v[PA_SPEED] && is_eth((uint32_t)num[PA_SPEED]) &&
      num[PA_WIDTH] != 1) {
    attr_pos(d, &f->tag, "width", &line, &col);
    return dx_fail(d, line, col,
                   "speed %s is a whole-port Ethernet rate: "
                   "expected width 1x or none",
                   v[PA_SPEED]);
  }
  fl_id p = fl_b_port(d->fab, n, pnum, prov_of(d, &f->tag));
  if (p == FL_NONE)
    return dx_nomem(d);
  f->node = n;
  f->port = p;
  if (v[PA_GUID])
    fl_b_port_set_guid(d->fab, p, num[PA_GUID]);
  if (v[PA_LID] || v[PA_LMC])
    fl_b_port_set_lid(d->fab, p, (uint32_t)num[PA_LID], (uint32_t)num[PA_LMC]);
  if (v[PA_LABEL])
    fl_b_port_set_label(d->fab, p, v[PA_LABEL], (size_t)-1);
  if (v[PA_WIDTH] || v[PA_SPEED]) {
    uint32_t rate = (uint32_t)num[PA_WIDTH] | (uint32_t)num[PA_SPEED] << 8;
    if (fl_u64map_set(&d->portrate, (uint64_t)n << 16 | pnum, rate) != 0)
      return dx_nomem(d);
  }
  return store_design(d, FL_ENT_PORT, p, port_attrs, PA_N, v, num);
}

/* Append key/value to the pending attributes of the last link. */
static int link_attr(dx *d, const char *key, const char *value) {
  int64_t k = dx_store(d, key, strlen(key));
  int64_t v = dx_store(d, value, strlen(value));
  if (k < 0 || v < 0 ||
      dx_grow((void **)&d->lattrs, &d->cap_lattrs, d->n_lattrs + 1,
              sizeof *d->lattrs) != 0)
    return dx_nomem(d);
  d->lattrs[d->n_lattrs++] = (dx_kv){(uint32_t)k, (uint32_t)v};
  d->links[d->n_links - 1].attr_n++;
  return 0;
}

static int on_link(dx *d, xmlNodePtr xn, dx_frame *f) {
  const char *v[LA_N];
  uint64_t num[LA_N];
  if (gather(d, xn, &f->tag, EL_LINK, link_attrs, LA_N, v, num) != 0)
    return -1;
  if (v[LA_WIDTH] && v[LA_SPEED] && is_eth((uint32_t)num[LA_SPEED]) &&
      num[LA_WIDTH] != 1) {
    uint32_t line, col;
    attr_pos(d, &f->tag, "width", &line, &col);
    return dx_fail(d, line, col,
                   "speed %s is a whole-port Ethernet rate: "
                   "expected width 1x or none",
                   v[LA_SPEED]);
  }
  size_t al = strlen(v[LA_A]), bl = strlen(v[LA_B]);
  int64_t a = dx_store(d, v[LA_A], al), b = dx_store(d, v[LA_B], bl);
  if (a < 0 || b < 0 ||
      dx_grow((void **)&d->links, &d->cap_links, d->n_links + 1,
              sizeof *d->links) != 0)
    return dx_nomem(d);
  dx_link *l = &d->links[d->n_links++];
  *l = (dx_link){.a = (uint32_t)a,
                 .a_len = (uint32_t)al,
                 .b = (uint32_t)b,
                 .b_len = (uint32_t)bl,
                 .attr_first = (uint32_t)d->n_lattrs,
                 .line = f->tag.line,
                 .col = f->tag.col,
                 .off = f->tag.off,
                 .a_port = (uint16_t)num[LA_APORT],
                 .b_port = (uint16_t)num[LA_BPORT],
                 .width = (uint8_t)num[LA_WIDTH],
                 .speed = (uint8_t)num[LA_SPEED]};
  f->link = (uint32_t)(d->n_links - 1);
  for (int i = LA_CABLE; i <= LA_MEDIA; i++)
    if (v[i] && link_attr(d, link_attrs[i].name, v[i]) != 0)
      return -1;
  return 0;
}

static int on_attr(dx *d, xmlNodePtr xn, dx_frame *f, const dx_frame *parent) {
  const aspec *spec = parent->el == EL_NODE   ? nattr_attrs
                      : parent->el == EL_PORT ? pattr_attrs
                      : parent->el == EL_LINK ? lattr_attrs
                                              : fattr_attrs;
  const char *v[AA_N];
  uint64_t num[AA_N];
  if (gather(d, xn, &f->tag, EL_ATTR, spec, AA_N, v, num) != 0)
    return -1;
  int rc = FL_OK;
  switch (parent->el) {
  case EL_NODE:
    rc = fl_b_attr(d->fab, FL_ENT_NODE, parent->node, v[AA_KEY], v[AA_VALUE]);
    break;
  case EL_PORT:
    rc = fl_b_attr(d->fab, FL_ENT_PORT, parent->port, v[AA_KEY], v[AA_VALUE]);
    break;
  case EL_LINK:
    return link_attr(d, v[AA_KEY], v[AA_VALUE]);
  default:
    break; /* fabric-level: checked, not kept (no fabric record yet) */
  }
  return rc == FL_OK ? 0 : dx_nomem(d);
}

/* ---- the reader loop --------------------------------------------------- */

static int el_kind(const char *name) {
  for (int i = EL_FABRIC; i <= EL_ATTR; i++)
    if (strcmp(name, el_names[i]) == 0)
      return i;
  return EL_NONE;
}

static const char *children_of(int el) {
  switch (el) {
  case EL_FABRIC:
    return "<node>, <link> or <attr>";
  case EL_NODE:
    return "<port> or <attr>";
  case EL_PORT:
  case EL_LINK:
    return "<attr>";
  default:
    return "nothing";
  }
}

static int child_ok(int parent, int el) {
  switch (parent) {
  case EL_FABRIC:
    return el == EL_NODE || el == EL_LINK || el == EL_ATTR;
  case EL_NODE:
    return el == EL_PORT || el == EL_ATTR;
  case EL_PORT:
  case EL_LINK:
    return el == EL_ATTR;
  default:
    return 0;
  }
}

/* Next start tag for the element the reader just reported. */
static void next_tag(dx *d, xmlNodePtr xn, dx_tag *t) {
  if (d->have_pre) {
    *t = d->pre;
    d->have_pre = 0;
  } else if (d->scan.broken || scan_next(&d->scan, t, NULL) != 0) {
    d->scan.broken = 1;
  }
  if (!d->scan.broken) {
    /* the tag must carry the same qualified name */
    const char *b = d->scan.buf + t->off + 1;
    const char *nm = (const char *)xn->name;
    size_t pl = 0;
    if (xn->ns && xn->ns->prefix) {
      pl = strlen((const char *)xn->ns->prefix);
      if (strncmp(b, (const char *)xn->ns->prefix, pl) != 0 || b[pl] != ':')
        d->scan.broken = 1;
      pl++;
    }
    size_t nl = strlen(nm);
    if (!d->scan.broken &&
        (strncmp(b + pl, nm, nl) != 0 || !strchr(" \t\r\n/>", b[pl + nl])))
      d->scan.broken = 1;
  }
  if (d->scan.broken) {
    t->off = t->end = 0;
    t->line = (uint32_t)xmlGetLineNo(xn);
    t->col = 0;
  }
}

static int open_element(dx *d, xmlNodePtr xn, dx_frame *f) {
  int strict = d->mode != FL_DX_LENIENT;
  const char *ns = xn->ns ? (const char *)xn->ns->href : NULL;
  int el = (ns && strcmp(ns, DX_NS) == 0) ? el_kind((const char *)xn->name)
                                          : EL_NONE;
  f->el = el;
  f->xn = xn;
  if (d->depth == 0) {
    if (el != EL_FABRIC)
      return dx_fail(d, f->tag.line, f->tag.col,
                     "expected the root element <fabric xmlns=\"" DX_NS
                     "\">, found <%s>%s%s%s",
                     (const char *)xn->name, ns ? " in namespace \"" : "",
                     ns ? ns : " in no namespace", ns ? "\"" : "");
    return on_fabric(d, xn, &f->tag);
  }
  dx_frame *parent = &d->stack[d->depth - 1];
  if (el == EL_NONE || !child_ok(parent->el, el)) {
    if (!strict) {
      f->el = EL_NONE;
      return 0;
    }
    return dx_fail(
        d, f->tag.line, f->tag.col,
        "unexpected element <%s>%s%s%s inside <%s>; expected %s",
        (const char *)xn->name, ns && el == EL_NONE ? " (namespace \"" : "",
        ns && el == EL_NONE ? ns : "", ns && el == EL_NONE ? "\")" : "",
        el_names[parent->el], children_of(parent->el));
  }
  switch (el) {
  case EL_NODE:
    return on_node(d, xn, f);
  case EL_PORT:
    return on_port(d, xn, f, parent);
  case EL_LINK:
    return on_link(d, xn, f);
  case EL_ATTR:
    return on_attr(d, xn, f, parent);
  default:
    return 0;
  }
}

static void close_element(dx *d) {
  if (d->depth == 0)
    return;
  dx_frame *f = &d->stack[--d->depth];
  d->last_xn = f->xn;
  d->last_tag = f->tag;
}

static int on_element(dx *d) {
  xmlNodePtr xn = xmlTextReaderCurrentNode(d->reader);
  int empty = xmlTextReaderIsEmptyElement(d->reader) == 1;
  dx_tag t;
  next_tag(d, xn, &t);
  if (d->skip > 0) {
    d->skip += !empty;
    return 0;
  }
  dx_frame f = {.el = EL_NONE, .node = FL_NONE, .port = FL_NONE, .tag = t};
  if (open_element(d, xn, &f) != 0)
    return -1;
  if (f.el == EL_NONE) { /* ignored (lenient) */
    d->skip = !empty;
    d->last_xn = xn;
    d->last_tag = t;
    return 0;
  }
  d->stack[d->depth++] = f;
  if (empty)
    close_element(d);
  return 0;
}

static int on_end(dx *d) {
  if (d->skip > 0)
    d->skip--;
  else
    close_element(d);
  return 0;
}

/* Position of the first non-blank character of text at the scanner. */
static void text_pos(dx *d, uint32_t *line, uint32_t *col) {
  const char *b = d->scan.buf;
  size_t i = d->scan.pos, n = d->scan.len;
  for (;;) {
    while (i < n && is_xml_ws(b[i]))
      i++;
    if (i + 1 < n && b[i] == '<' && b[i + 1] == '/')
      i = tag_close(b, n, i) + 1;
    else if (i + 3 < n && memcmp(b + i, "<!--", 4) == 0)
      i = skip_past(b, n, i + 4, "-->");
    else if (i + 1 < n && b[i] == '<' && b[i + 1] == '?')
      i = skip_past(b, n, i + 2, "?>");
    else
      break;
  }
  if (d->scan.broken || i > n) {
    *line = (uint32_t)xmlTextReaderGetParserLineNumber(d->reader);
    *col = 0;
    return;
  }
  pos_from(b, d->scan.line_start, d->scan.line, 1, i, line, col);
}

static int on_text(dx *d) {
  if (d->mode == FL_DX_LENIENT || d->skip > 0)
    return 0;
  const char *s = (const char *)xmlTextReaderConstValue(d->reader);
  for (; s && *s; s++)
    if (!is_xml_ws(*s)) {
      uint32_t line, col;
      text_pos(d, &line, &col);
      return dx_fail(d, line, col,
                     "text is not allowed inside <%s>; design "
                     "XML keeps everything in attributes",
                     d->depth ? el_names[d->stack[d->depth - 1].el] : "?");
    }
  return 0;
}

/* Where the pending libxml2 error belongs. @fresh: an element just opened. */
static void xe_locate(dx *d, const void *fresh, const dx_tag *fresh_tag,
                      uint32_t *line, uint32_t *col) {
  *line = d->xe.line;
  *col = d->xe.col;
  if (d->xe.domain != XML_FROM_RELAXNGV || !d->xe.node)
    return;
  const dx_tag *t = NULL;
  if (fresh && d->xe.node == fresh)
    t = fresh_tag;
  for (int i = d->depth - 1; !t && i >= 0; i--)
    if (d->stack[i].xn == d->xe.node)
      t = &d->stack[i].tag;
  if (!t && d->last_xn == d->xe.node)
    t = &d->last_tag;
  if (t) {
    *line = t->line;
    *col = t->col;
  }
}

/* A well-formedness error on a file cut short (the root never closed) or
 * followed by something after its root: said in those words, at the line
 * where the file ends or the extra content starts (issue 30: libxml2 calls
 * a cut file "Extra content at the end of the document"). 1 when
 * reported. */
static int xe_cut(dx *d) {
  fl_xml_end cut;
  int how = fl_xml_cut(d->scan.buf, d->scan.len, &cut);
  /* libxml2 met an error before the end (or the extra content): that one
   * comes first, whatever the end looks like */
  uint32_t at = how == FL_XML_CUT ? cut.end_line : cut.extra_line;
  if (how != FL_XML_WHOLE && d->xe.set && d->xe.line && d->xe.line + 1 < at)
    return 0;
  if (how == FL_XML_CUT)
    return dx_fail(d, cut.end_line, 0,
                   "the file ends at line %u, inside <%s> (opened at line "
                   "%u, never closed): it looks cut short (an interrupted "
                   "copy, download or write?)%s%s",
                   cut.end_line, cut.root, cut.root_line,
                   *d->xe.msg ? "; libxml2 says: " : "", d->xe.msg),
           1;
  if (how == FL_XML_EXTRA)
    return dx_fail(d, cut.extra_line, 0,
                   "content after the end of the document: <%s> closes at "
                   "line %u and line %u has more (two files joined, or text "
                   "appended?)%s%s",
                   cut.root, cut.end_line, cut.extra_line,
                   *d->xe.msg ? "; libxml2 says: " : "", d->xe.msg),
           1;
  return 0;
}

static int xe_report(dx *d, const void *fresh, const dx_tag *fresh_tag) {
  uint32_t line, col;
  if (d->xe.domain != XML_FROM_RELAXNGV && xe_cut(d))
    return -1;
  xe_locate(d, fresh, fresh_tag, &line, &col);
  const char *what = d->xe.domain == XML_FROM_RELAXNGV
                         ? "does not match schema/design.rng: "
                         : "not well-formed XML: ";
  return dx_fail(d, line, col, "%s%s", what, d->xe.msg);
}

static void on_xml_error(void *arg, dx_xml_error_ptr e) {
  dx *d = arg;
  if (!e || e->level == XML_ERR_WARNING)
    return;
  size_t used = strlen(d->xe.msg);
  if (!d->xe.set) {
    d->xe.set = 1;
    d->xe.domain = e->domain;
    d->xe.line = e->line > 0 ? (uint32_t)e->line : 0;
    d->xe.col = e->int2 > 0 ? (uint32_t)e->int2 : 0;
    d->xe.node = e->node;
  } else if (used + 3 < sizeof d->xe.msg) {
    strcat(d->xe.msg, "; ");
    used += 2;
  } else {
    return;
  }
  snprintf(d->xe.msg + used, sizeof d->xe.msg - used, "%s",
           e->message ? e->message : "error");
  size_t n = strlen(d->xe.msg);
  while (n > 0 && (d->xe.msg[n - 1] == '\n' || d->xe.msg[n - 1] == ' '))
    d->xe.msg[--n] = '\0';
}

/* Handle one reader event other than an element start. */
static int on_event(dx *d, int type) {
  switch (type) {
  case XML_READER_TYPE_END_ELEMENT:
    return on_end(d);
  case XML_READER_TYPE_TEXT:
  case XML_READER_TYPE_CDATA:
    return on_text(d);
  case XML_READER_TYPE_DOCUMENT_TYPE:
  case XML_READER_TYPE_ENTITY_REFERENCE:
    return dx_fail(d, (uint32_t)xmlTextReaderGetParserLineNumber(d->reader), 0,
                   "DTDs and entities are not allowed in design XML");
  default:
    return 0;
  }
}

/*
 * run_reader() — the event loop. Each event is checked by the built-in
 * rules first; a schema error libxml2 raised during the same read is
 * reported only when they found nothing (their message is more specific).
 */
static int run_reader(dx *d) {
  int r;
  while ((r = xmlTextReaderRead(d->reader)) == 1) {
    int type = xmlTextReaderNodeType(d->reader);
    const void *fresh = NULL;
    const dx_tag *ft = NULL;
    if (type == XML_READER_TYPE_ELEMENT) {
      xmlNodePtr xn = xmlTextReaderCurrentNode(d->reader);
      int depth = d->depth;
      if (on_element(d) != 0)
        return -1;
      /* tag of the element just opened (on the stack, or already closed) */
      ft = d->depth > depth   ? &d->stack[depth].tag
           : d->last_xn == xn ? &d->last_tag
                              : NULL;
      fresh = ft ? xn : NULL;
    } else if (on_event(d, type) != 0) {
      return -1;
    }
    if (d->xe.set)
      return xe_report(d, fresh, ft);
  }
  if (d->xe.set)
    return xe_report(d, NULL, NULL);
  if (r < 0 && xe_cut(d))
    return -1;
  if (r < 0)
    return dx_fail(d, (uint32_t)xmlTextReaderGetParserLineNumber(d->reader),
                   (uint32_t)xmlTextReaderGetParserColumnNumber(d->reader),
                   "not well-formed XML");
  return 0;
}

/* ---- links ------------------------------------------------------------- */

static int link_end(dx *d, const dx_link *l, int b, fl_id *node) {
  uint32_t off = b ? l->b : l->a, len = b ? l->b_len : l->a_len;
  uint32_t i = fl_strmap_get(&d->names, d->arena + off, len);
  if (i != FL_MAP_ABSENT) {
    *node = d->nodes[i].id;
    return 0;
  }
  dx_tag t = {l->off, l->off, l->line, l->col};
  uint32_t line = l->line, col = l->col;
  if (!d->scan.broken) {
    t.end = tag_close(d->scan.buf, d->scan.len, l->off + 1);
    attr_pos(d, &t, b ? "b" : "a", &line, &col);
  }
  return dx_fail(d, line, col,
                 "link end %s=\"%s\" names no <node> of this "
                 "file; expected the name of a node defined anywhere in it",
                 b ? "b" : "a", d->arena + off);
}

static uint32_t port_rate(const dx *d, fl_id n, uint32_t port) {
  uint32_t r = fl_u64map_get(&d->portrate, (uint64_t)n << 16 | port);
  return r == FL_MAP_ABSENT ? 0 : r;
}

static int resolve_links(dx *d) {
  for (size_t i = 0; i < d->n_links; i++) {
    const dx_link *l = &d->links[i];
    fl_id na, nb;
    if (link_end(d, l, 0, &na) != 0 || link_end(d, l, 1, &nb) != 0)
      return -1;
    fl_prov prov = {d->file, l->line, l->col};
    fl_id pa = fl_b_port(d->fab, na, l->a_port, prov);
    fl_id pb = fl_b_port(d->fab, nb, l->b_port, prov);
    if (pa == FL_NONE || pb == FL_NONE)
      return dx_nomem(d);
    uint32_t ra = port_rate(d, na, l->a_port), rb = port_rate(d, nb, l->b_port);
    uint32_t width = l->width ? l->width : (ra & 0xff) ? ra & 0xff : rb & 0xff;
    uint32_t speed = l->speed ? l->speed : (ra >> 8) ? ra >> 8 : rb >> 8;
    if (is_eth(speed)) {
      if (width == 0)
        width = 1;
      else if (width != 1)
        return dx_fail(d, l->line, l->col,
                       "link speed %s is a whole-port "
                       "Ethernet rate but its width (given here or on a "
                       "<port>) is %ux; expected 1x",
                       fl_speed_name(speed), width);
    }
    fl_id id = fl_b_link(d->fab, pa, pb, width, speed, FL_LINK_DECLARED, prov);
    if (id == FL_NONE)
      return dx_nomem(d);
    for (uint32_t k = 0; k < l->attr_n; k++) {
      const dx_kv *kv = &d->lattrs[l->attr_first + k];
      if (fl_b_attr(d->fab, FL_ENT_LINK, id, d->arena + kv->key,
                    d->arena + kv->value) != FL_OK)
        return dx_nomem(d);
    }
  }
  return 0;
}

/* ---- set-up and tear-down ------------------------------------------------ */

static void on_schema_error(void *arg, dx_xml_error_ptr e) {
  dx *d = arg;
  if (!e || e->level == XML_ERR_WARNING || d->xe.set)
    return;
  d->xe.set = 1;
  d->xe.domain = e->domain;
  snprintf(d->xe.msg, sizeof d->xe.msg, "%s:%d: %s",
           e->file ? e->file : "design.rng", e->line,
           e->message ? e->message : "error");
}

/* Compile schema/design.rng (or @schema); NULL with the error set. */
static xmlRelaxNGPtr load_schema(dx *d, const char *schema) {
  char buf[4096];
  if (!schema)
    schema = fl_schema_path("design.rng", buf, sizeof buf);
  if (!schema) {
    d->rc = FL_EIO;
    fl_error_set(d->err, FL_EIO, d->path, 0, 0,
                 "cannot find the design schema design.rng (looked beside "
                 "the library, under the install prefix and in the source "
                 "tree)");
    return NULL;
  }
  xmlRelaxNGParserCtxtPtr pc = xmlRelaxNGNewParserCtxt(schema);
  if (!pc) {
    dx_nomem(d);
    return NULL;
  }
  xmlRelaxNGSetParserStructuredErrors(pc, on_schema_error, d);
  xmlRelaxNGPtr rng = xmlRelaxNGParse(pc);
  xmlRelaxNGFreeParserCtxt(pc);
  if (!rng) {
    d->rc = FL_EIO;
    fl_error_set(d->err, FL_EIO, schema, 0, 0,
                 "cannot compile the design "
                 "schema: %s",
                 d->xe.set ? d->xe.msg : "unknown error");
  }
  memset(&d->xe, 0, sizeof d->xe);
  return rng;
}

/* Refuse what the byte scanner can tell before libxml2 parses anything. */
static int precheck(dx *d) {
  const unsigned char *u = (const unsigned char *)d->scan.buf;
  size_t n = d->scan.len;
  if (n >= 2 && ((u[0] == 0xFE && u[1] == 0xFF) ||
                 (u[0] == 0xFF && u[1] == 0xFE) || u[0] == 0 || u[1] == 0))
    return dx_fail(d, 1, 1,
                   "design XML must be UTF-8 (this looks like "
                   "UTF-16 or binary)");
  if (n >= 3 && u[0] == 0xEF && u[1] == 0xBB && u[2] == 0xBF)
    d->scan.line_start = d->scan.pos = 3;
  size_t doctype = 0;
  if (scan_next(&d->scan, &d->pre, &doctype) == 0) {
    d->have_pre = 1;
    return 0;
  }
  if (doctype) {
    uint32_t line, col;
    pos_from(d->scan.buf, d->scan.line_start, d->scan.line, 1, doctype - 1,
             &line, &col);
    return dx_fail(d, line, col,
                   "<!DOCTYPE is not allowed in design XML "
                   "(no DTD, no entities); expected <fabric xmlns=\"" DX_NS
                   "\">");
  }
  return dx_fail(d, d->scan.line, 1,
                 "no element found; expected <fabric "
                 "xmlns=\"" DX_NS "\">");
}

static void dx_free(dx *d) {
  fl_strmap_free(&d->names);
  fl_u64map_free(&d->portrate);
  free(d->nodes);
  free(d->links);
  free(d->lattrs);
  free(d->arena);
}

/* Parse the mapped file @buf of @len bytes. */
static int dx_parse(dx *d, const char *schema) {
  xmlRelaxNGPtr rng = NULL;
  if (precheck(d) != 0)
    return -1;
  if (d->mode == FL_DX_RELAXNG && !(rng = load_schema(d, schema)))
    return -1;
  xmlInitParser();
  d->reader = xmlReaderForMemory(d->scan.buf, (int)d->scan.len, d->path, NULL,
                                 XML_PARSE_NONET | XML_PARSE_BIG_LINES |
                                     XML_PARSE_COMPACT);
  int rc = -1;
  if (!d->reader) {
    dx_nomem(d);
    goto out;
  }
  xmlTextReaderSetStructuredErrorHandler(d->reader, on_xml_error, d);
  if (rng && xmlTextReaderRelaxNGSetSchema(d->reader, rng) != 0) {
    d->rc = FL_EIO;
    fl_error_set(d->err, FL_EIO, d->path, 0, 0,
                 "libxml2 refused the design schema");
    goto out;
  }
  rc = run_reader(d);
  if (rc == 0)
    rc = resolve_links(d);
out:
  if (d->reader)
    xmlFreeTextReader(d->reader);
  d->reader = NULL;
  if (rng)
    xmlRelaxNGFree(rng);
  return rc;
}

/* Load design XML from input @in (read whole by the caller). */
static int dx_load(fl_fabric *fab, const fl_input *in, int mode,
                   const char *schema, fl_error *err) {
  const char *path = in->path;
  dx d;
  memset(&d, 0, sizeof d);
  d.fab = fab;
  d.path = path;
  d.err = err;
  d.mode = mode;
  if (in->len == 0)
    return fl_error_set(err, FL_EPARSE, path, 1, 1,
                        "empty file; expected <fabric xmlns=\"" DX_NS "\">");
  if ((uint64_t)in->len > (uint64_t)INT_MAX)
    return fl_error_set(err, FL_EIO, path, 0, 0,
                        "file too large (over 2 "
                        "GiB); split the design");
  d.scan.buf = in->buf;
  d.scan.len = in->len;
  d.scan.line = 1;
  d.scan.col = 1; /* column of col_off (0): the first character */
  d.file = fl_b_file(fab, path);
  int rc = dx_parse(&d, schema);
  dx_free(&d);
  if (rc != 0)
    return d.rc ? d.rc : FL_EPARSE;
  return FL_OK;
}

int fl_load_design_xml_mode(fl_fabric *fab, const char *path,
                            const fl_load_options *opts, int mode,
                            const char *schema, fl_error *err) {
  (void)opts;
  fl_input in;
  int rc = fl_input_read(&in, path, NULL, 0, err);
  if (rc != FL_OK)
    return rc;
  rc = dx_load(fab, &in, mode, schema, err);
  fl_input_free(&in);
  return rc;
}

int fl_design_attr_check(uint32_t ent_kind, const char *key,
                         const char *value) {
  const aspec *spec = ent_kind == FL_ENT_NODE   ? node_attrs
                      : ent_kind == FL_ENT_PORT ? port_attrs
                      : ent_kind == FL_ENT_LINK ? link_attrs
                                                : NULL;
  int n = ent_kind == FL_ENT_NODE   ? NA_N
          : ent_kind == FL_ENT_PORT ? PA_N
          : ent_kind == FL_ENT_LINK ? LA_N
                                    : 0;
  uint64_t num;
  for (int i = 0; i < n; i++)
    if ((spec[i].flags & F_DESIGN) && strcmp(spec[i].name, key) == 0)
      return check_value(spec[i].type, value, &num) == 0 ? 1 : 0;
  return -1;
}

int fl_load_design_xml(fl_fabric *fab, const fl_input *in,
                       const fl_load_options *opts, fl_error *err) {
  const char *path = in->path;
  int mode = FL_DX_BUILTIN;
  const char *env = getenv("FABRICLINT_DESIGN_RELAXNG");
  if (opts && opts->no_schema)
    mode = FL_DX_LENIENT;
  else if ((opts && opts->relaxng) || (env && env[0] && strcmp(env, "0") != 0))
    mode = FL_DX_RELAXNG;
  (void)path;
  return dx_load(fab, in, mode, NULL, err);
}

/* ---- the format registry row (formats.h) ---- */

/* Root <fabric>, in the fabriclint namespace or with any prefix. */
static uint32_t detect_design_xml(const fl_detect_ctx *c, fl_error *err) {
  (void)err;
  return c->xml_root && (strcmp(c->xml_root, "fabric") == 0 ||
                         strstr(c->xml_root, ":fabric"))
             ? FL_FMT_DESIGN_XML
             : FL_FMT_AUTO;
}

const fl_format_def fl_fmt_design_xml = {FL_FMT_DESIGN_XML,
                                         "design-xml",
                                         "design",
                                         FL_FORMAT_TOPOLOGY | FL_FORMAT_XML,
                                         fl_load_design_xml,
                                         detect_design_xml,
                                         "<fabric> design XML"};
