/* SPDX-License-Identifier: MIT */
/*
 * core/io/design_xml_impl.h — what the files of the design XML loader share
 * (internal to them): the vocabulary of schema/design.rng (value types, each
 * element's attributes, element kinds; the tables are design_xml_schema.c's),
 * the loader's state, and the functions one file of the loader calls in
 * another. design_xml.c runs the reader; design_xml_build.c builds nodes,
 * ports and links from elements; design_xml_attrs.c gathers an element's
 * attributes; design_xml_schema.c checks values; design_xml_pos.c finds
 * the line and column of each start tag and reports errors there.
 */
#ifndef FABRICLINT_CORE_IO_DESIGN_XML_IMPL_H
#define FABRICLINT_CORE_IO_DESIGN_XML_IMPL_H

#include <stddef.h>
#include <stdint.h>

#include <libxml/tree.h>
#include <libxml/xmlerror.h>
#include <libxml/xmlreader.h>

#include "fabriclint/error.h"
#include "model/build.h"
#include "model/hashmap.h"

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
enum { AA_KEY, AA_VALUE, AA_N };

#define DX_MAX_ATTRS NA_N

/* Element kinds. */
enum { EL_NONE, EL_FABRIC, EL_NODE, EL_PORT, EL_LINK, EL_ATTR };

/* The attributes of each element, in the order of its enum above. */
extern const aspec fabric_attrs[FA_N];
extern const aspec node_attrs[NA_N];
extern const aspec port_attrs[PA_N];
extern const aspec link_attrs[LA_N];
extern const aspec fattr_attrs[AA_N];
extern const aspec nattr_attrs[AA_N];
extern const aspec pattr_attrs[AA_N];
extern const aspec lattr_attrs[AA_N];
/* Element names by EL_* kind. */
extern const char *const el_names[];

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

/* ---- design_xml_schema.c: value checks ---------------------------------- */

/* XML white space: space, tab, newline, carriage return. */
int is_xml_ws(char c);

/* Check @s against @type; numeric results in *@num. 0 if valid. */
int check_value(int type, const char *s, uint64_t *num);

/* What a value of @type should look like, for messages. */
const char *expected(int type);

/* ---- design_xml_pos.c: errors and positions ------------------------------ */

/* FL_EPARSE at @line:@col with message @fmt; returns -1. */
int dx_fail(dx *d, uint32_t line, uint32_t col, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

/* FL_ENOMEM for the load; returns -1. */
int dx_nomem(dx *d);

/* Line and column of @to, counting from a known position (@off, @line, @col).
 */
void pos_from(const char *buf, size_t off, uint32_t line, uint32_t col,
              size_t to, uint32_t *oline, uint32_t *ocol);

/* Offset just past the first @pat at or after @from, or @len. */
size_t skip_past(const char *buf, size_t len, size_t from, const char *pat);

/* Offset of the '>' closing a tag starting at @from, honouring quotes. */
size_t tag_close(const char *buf, size_t len, size_t from);

/*
 * scan_next() — find the next start tag. Comments, CDATA sections,
 * processing instructions and end tags are skipped; a <!DOCTYPE is reported
 * through @doctype (set to its offset + 1) and stops the scan.
 * Returns 0 with @t filled, or -1 at the end of the buffer.
 */
int scan_next(dx_scan *s, dx_tag *t, size_t *doctype);

/* Line/column of attribute @name in start tag @t (the tag's own if absent). */
void attr_pos(const dx *d, const dx_tag *t, const char *name, uint32_t *line,
              uint32_t *col);

/* ---- design_xml_attrs.c: an element's attributes ------------------------- */

/*
 * gather() — read the attributes of element @xn (of kind @el, at @t) into
 * @vals/@nums indexed like @spec, checking names, types and presence.
 */
int gather(dx *d, xmlNodePtr xn, const dx_tag *t, int el, const aspec *spec,
           int n, const char **vals, uint64_t *nums);

/* Canonical text of a typed design value (tier, ar, width), else @v. */
const char *canonical(int type, const char *v, uint64_t num, char *buf,
                      size_t size);

/* Is @speed an Ethernet speed (1G..1600G)? */
int is_eth(uint32_t speed);

/* ---- design_xml_build.c: nodes, ports, links ----------------------------- */

/* Each element kind opened: built in the fabric (links kept pending until
 * resolve_links(), once every node is known). */
int on_fabric(dx *d, xmlNodePtr xn, const dx_tag *t);

int on_node(dx *d, xmlNodePtr xn, dx_frame *f);

int on_port(dx *d, xmlNodePtr xn, dx_frame *f, const dx_frame *parent);

int on_link(dx *d, xmlNodePtr xn, dx_frame *f);

int on_attr(dx *d, xmlNodePtr xn, dx_frame *f, const dx_frame *parent);

int resolve_links(dx *d);

#endif
