/* SPDX-License-Identifier: MIT */
/*
 * core/io/lldp_xml.c — the lldpd XML loader (`lldpcli -f xml show neighbors
 * [details]`), plus two pieces the other neighbour and plan loaders share:
 * the streaming XML reader (fl_xr_*) and the neighbour builder (fl_nbr_*).
 *
 * Format (lldpd src/client/xml_writer.c writes the tree that
 * src/client/display.c describes; docs/formats/lldpd-xml.md):
 *
 *   <lldp label="LLDP neighbors">
 *    <interface label="Interface" name="swp1" via="LLDP" rid="1" age="...">
 *     <chassis label="Chassis">
 *      <id label="ChassisID" type="mac">8a:62:79:29:c3:0a</id>
 *      <name label="SysName">host01.example.com</name>
 *      <capability label="Capability" type="Bridge" enabled="off"/> ...
 *     </chassis>
 *     <port label="Port">
 *      <id label="PortID" type="mac">8a:62:79:29:c3:0a</id>
 *      <descr label="PortDescr">eth0</descr> ...
 *
 * One file is one device's view, and the listing never names that device:
 * it is named by the file (fl_local_name_from_path). `interface/@name` is
 * the local port; the neighbour is `chassis/name` (else `chassis/id`); its
 * port is `port/id` or `port/descr` by the PortID subtype (alias.h). A
 * neighbour whose enabled capabilities are only Station (a Linux host with
 * default lldpd) becomes a CA, anything with Bridge or Router on a switch.
 * `lldpcli show interfaces` (label "Interfaces") describes local ports, not
 * neighbours, and is refused with a message saying so.
 *
 * Why the builder: lldpd runs on every box, so a fabric is a folder of
 * per-device files in which every cable appears twice (once from each end).
 * The builder finds nodes and ports by canonical name and merges the two
 * listings, keeping one-sided cables marked (FL_LINK_SEEN_A only).
 *
 * Why the reader: libxml2's xmlTextReader streams (memory bounded by the
 * depth, not the size); XML_PARSE_NONET and no XML_PARSE_NOENT/DTDLOAD mean
 * no network and no entity expansion, and a DOCTYPE is refused outright.
 */
#include "io/fileio.h"
#include "io/formats.h"
#include "io/loaders.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include <libxml/parser.h>
#include <libxml/xmlerror.h>
#include <libxml/xmlreader.h>

#include "model/alias.h"
#include "model/fabric_impl.h"
#include "model/hashmap.h"

#if LIBXML_VERSION >= 21200
typedef const xmlError *xr_error_ptr;
#else
typedef xmlErrorPtr xr_error_ptr;
#endif

/* ======================================================================
 * Streaming XML reader
 * ====================================================================== */

static void xr_on_error(void *arg, xr_error_ptr e) {
  fl_xr *x = arg;
  if (!e || e->level == XML_ERR_WARNING || x->xerr_set)
    return;
  x->xerr_set = 1;
  x->xerr_line = e->line > 0 ? (uint32_t)e->line : 0;
  x->xerr_col = e->int2 > 0 ? (uint32_t)e->int2 : 0;
  snprintf(x->xerr_msg, sizeof x->xerr_msg, "%s",
           e->message ? e->message : "malformed XML");
  size_t n = strlen(x->xerr_msg);
  while (n && (x->xerr_msg[n - 1] == '\n' || x->xerr_msg[n - 1] == ' '))
    x->xerr_msg[--n] = '\0';
}

int fl_xr_open(fl_xr *x, const fl_input *in, fl_error *err) {
  memset(x, 0, sizeof *x);
  x->path = in->path;
  x->err = err;
  x->buf = in->buf;
  x->len = in->len;
  if (x->len > (size_t)INT_MAX)
    return fl_error_set(err, FL_EIO, x->path, 0, 0,
                        "XML file too large (over 2 GiB)");
  xmlInitParser();
  x->reader = xmlReaderForMemory(x->buf, (int)x->len, x->path, NULL,
                                 XML_PARSE_NONET | XML_PARSE_BIG_LINES |
                                     XML_PARSE_COMPACT);
  if (!x->reader)
    return fl_error_set(err, FL_ENOMEM, x->path, 0, 0, "out of memory");
  xmlTextReaderSetStructuredErrorHandler(x->reader, xr_on_error, x);
  return FL_OK;
}

/* A document type declaration, met after libxml2 has decoded the input
 * (any encoding): no DTD and no entity is ever read from an input. */
static int xr_refuse_dtd(fl_xr *x) {
  return fl_error_set(x->err, FL_EPARSE, x->path,
                      (uint32_t)xmlTextReaderGetParserLineNumber(x->reader), 0,
                      "<!DOCTYPE is not allowed (no DTD or entity is ever "
                      "read from an input)");
}

int fl_xr_next(fl_xr *x) {
  int r = xmlTextReaderRead(x->reader);
  if (r == 1 && !x->xerr_set) {
    int t = xmlTextReaderNodeType(x->reader);
    if (t == XML_READER_TYPE_DOCUMENT_TYPE ||
        t == XML_READER_TYPE_ENTITY_REFERENCE || t == XML_READER_TYPE_ENTITY)
      return xr_refuse_dtd(x);
    return 1;
  }
  if (r == 0 && !x->xerr_set)
    return 0;
  if (x->xerr_set)
    return fl_error_set(x->err, FL_EPARSE, x->path, x->xerr_line, x->xerr_col,
                        "malformed XML: %s", x->xerr_msg);
  return fl_error_set(x->err, FL_EPARSE, x->path,
                      (uint32_t)xmlTextReaderGetParserLineNumber(x->reader), 0,
                      "malformed XML");
}

int fl_xr_type(const fl_xr *x) {
  return xmlTextReaderNodeType(x->reader);
}
int fl_xr_depth(const fl_xr *x) {
  return xmlTextReaderDepth(x->reader);
}
int fl_xr_empty(const fl_xr *x) {
  return xmlTextReaderIsEmptyElement(x->reader) == 1;
}

const char *fl_xr_name(const fl_xr *x) {
  const xmlChar *n = xmlTextReaderConstLocalName(x->reader);
  return n ? (const char *)n : "";
}

static char *trim_dup(const char *s) {
  if (!s)
    return NULL;
  while (isspace((unsigned char)*s))
    s++;
  size_t n = strlen(s);
  while (n && isspace((unsigned char)s[n - 1]))
    n--;
  char *d = malloc(n + 1);
  if (d) {
    memcpy(d, s, n);
    d[n] = '\0';
  }
  return d;
}

char *fl_xr_attr(const fl_xr *x, const char *name) {
  xmlChar *v = xmlTextReaderGetAttribute(x->reader, (const xmlChar *)name);
  if (!v)
    return NULL;
  char *d = trim_dup((const char *)v);
  xmlFree(v);
  return d;
}

char *fl_xr_text(fl_xr *x) {
  if (fl_xr_empty(x))
    return trim_dup("");
  xmlChar *v = xmlTextReaderReadString(x->reader);
  char *d = trim_dup(v ? (const char *)v : "");
  xmlFree(v);
  return d;
}

uint32_t fl_xr_line(const fl_xr *x) {
  xmlNodePtr n = xmlTextReaderCurrentNode(x->reader);
  long l = n ? xmlGetLineNo(n) : -1;
  if (l <= 0)
    l = xmlTextReaderGetParserLineNumber(x->reader);
  return l > 0 ? (uint32_t)l : 0;
}

int fl_xr_fail(fl_xr *x, const char *fmt, ...) {
  char msg[FL_ERROR_MSG_MAX];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  return fl_error_set(x->err, FL_EPARSE, x->path, fl_xr_line(x), 0, "%s", msg);
}

void fl_xr_close(fl_xr *x) {
  if (x->reader)
    xmlFreeTextReader(x->reader);
  x->reader = NULL;
  x->buf = NULL;
}

char *fl_local_name_from_path(const char *path, char *buf, size_t size) {
  const char *base = strrchr(path, '/');
  base = base ? base + 1 : path;
  size_t n = strlen(base);
  /* known extensions, innermost last: `.xml`, then `.lldp` */
  static const char *const EXT[] = {".xml", ".lldp"};
  for (size_t i = 0; i < sizeof EXT / sizeof *EXT; i++) {
    size_t el = strlen(EXT[i]);
    if (n > el && strncasecmp(base + n - el, EXT[i], el) == 0)
      n -= el;
  }
  if (n >= size)
    n = size - 1;
  memcpy(buf, base, n);
  buf[n] = '\0';
  return buf;
}

/* ======================================================================
 * Neighbour builder
 * ====================================================================== */

struct fl_nbr {
  fl_fabric *fab;
  uint32_t file;
  int declared;      /* fl_nbr_declared(): names of this input are devices */
  size_t first_new;  /* nodes from this id on were made by this input */
  int once;          /* fl_nbr_once(): each cable is listed once */
  size_t first_link; /* links from this id on were made by this input */
  fl_strmap nodes;   /* full canonical node name -> node id */
  fl_strmap shorts;  /* short canonical name -> slot of short_v */
  uint32_t *short_v; /* slot -> node id, or NBR_AMBIG */
  size_t short_cap;
  char **qual; /* node id -> longest full canonical name seen (owned) */
  size_t qual_cap;
  fl_strmap ports;     /* node id (4 bytes) + canonical label -> port id */
  fl_u64map port_link; /* build port id -> first link id */
  fl_u64map next_num;  /* node id -> next free port number to try */
  fl_u64map role;      /* node id -> NBR_LISTS | NBR_LISTED, marked once */
};

/* How a node takes part in a per-device listing (fl_nbr_link() with
 * FL_LINK_SEEN_A): it lists neighbours (its own view was given), or it is
 * listed as one. Recorded as node attributes, `lists-neighbours` and
 * `listed-as-neighbour`, from which fl_fabric_finalize() marks the nodes
 * seen only by others `peer-only` (core/model/views.c). */
enum { NBR_LISTS = 1, NBR_LISTED = 2 };

/* Names are kept whole (issue #32 case 2: two names cut to one length
 * merged two devices): a canonical spelling is never longer than what it
 * is made of, so a buffer of the input's length + 5 bytes always holds it
 * (and a port key's 4-byte node id). @stack serves names that fit it. */
static char *scratch(char *stack, size_t ssize, size_t need) {
  return need <= ssize ? stack : malloc(need);
}

static void scratch_free(char *p, const char *stack) {
  if (p != stack)
    free(p);
}

/* The key of a port of @node: 4 bytes of node id, then the canonical
 * spelling of its label, which the caller wrote (NUL-terminated) at
 * @key + 4. Returns the key's length. */
static size_t port_key(char *key, fl_id node) {
  memcpy(key, &node, 4);
  return strlen(key + 4) + 4;
}

#define NBR_AMBIG (UINT32_MAX - 1)

/* Index node @node under full canonical name @full (@n bytes): the full
 * name itself, and its short name unless another node already has it. */
static int nbr_index(fl_nbr *b, fl_id node, const char *full, size_t n) {
  if (fl_strmap_put(&b->nodes, full, n, node) == FL_MAP_ABSENT)
    return -1;
  if (node >= b->qual_cap) {
    size_t nc = b->qual_cap ? b->qual_cap * 2 : 64;
    while (nc <= node)
      nc *= 2;
    char **q = realloc(b->qual, nc * sizeof *q);
    if (!q)
      return -1;
    memset(q + b->qual_cap, 0, (nc - b->qual_cap) * sizeof *q);
    b->qual = q;
    b->qual_cap = nc;
  }
  if (!b->qual[node] || strlen(b->qual[node]) < n) {
    char *d = strdup(full);
    if (!d)
      return -1;
    free(b->qual[node]);
    b->qual[node] = d;
  }
  char stack[FL_ALIAS_MAX];
  char *sh = scratch(stack, sizeof stack, n + 1);
  if (!sh)
    return -1;
  size_t sn = fl_alias_node(full, n, sh, n + 1);
  size_t before = fl_strmap_len(&b->shorts);
  uint32_t slot = fl_strmap_put(&b->shorts, sh, sn, (uint32_t)before);
  scratch_free(sh, stack);
  if (slot == FL_MAP_ABSENT)
    return -1;
  if (fl_strmap_len(&b->shorts) > before) {
    if (slot >= b->short_cap) {
      size_t nc = b->short_cap ? b->short_cap * 2 : 64;
      while (nc <= slot)
        nc *= 2;
      uint32_t *v = realloc(b->short_v, nc * sizeof *v);
      if (!v)
        return -1;
      b->short_v = v;
      b->short_cap = nc;
    }
    b->short_v[slot] = node;
  } else if (b->short_v[slot] != node) {
    b->short_v[slot] = NBR_AMBIG;
  }
  return 0;
}

/* The node a name stands for: its full canonical name, else the one node
 * whose short name it shares when the two names are compatible
 * (`sw-a` and `SW-A.example.com`; never `leaf1.pod1.x` and `leaf1.pod2.x`).
 * FL_NONE when none; @full receives the full canonical name. */
static fl_id nbr_lookup(fl_nbr *b, const char *name, char *full, size_t size,
                        size_t *n) {
  *n = fl_alias_node_full(name, strlen(name), full, size);
  uint32_t id = fl_strmap_get(&b->nodes, full, *n);
  if (id != FL_MAP_ABSENT)
    return id;
  char stack[FL_ALIAS_MAX];
  char *sh = scratch(stack, sizeof stack, *n + 1);
  if (!sh)
    return FL_NONE;
  size_t sn = fl_alias_node(full, *n, sh, *n + 1);
  uint32_t slot = fl_strmap_get(&b->shorts, sh, sn);
  scratch_free(sh, stack);
  if (slot == FL_MAP_ABSENT || b->short_v[slot] == NBR_AMBIG)
    return FL_NONE;
  id = b->short_v[slot];
  if (b->declared && id >= b->first_new)
    return FL_NONE; /* `sw1` and `sw1.example.com` declared: two devices */
  if (id < b->qual_cap && b->qual[id] &&
      fl_alias_node_compatible(full, b->qual[id]))
    return id;
  return FL_NONE;
}

/* Index existing node @node under its name @nm (any length). */
static int nbr_index_name(fl_nbr *b, fl_id node, const char *nm) {
  char stack[FL_ALIAS_MAX];
  size_t len = strlen(nm);
  char *canon = scratch(stack, sizeof stack, len + 1);
  if (!canon)
    return -1;
  size_t n = fl_alias_node_full(nm, len, canon, len + 1);
  int rc = n ? nbr_index(b, node, canon, n) : 0;
  scratch_free(canon, stack);
  return rc;
}

/* Index existing port @port of @node under its label @lb (any length). */
static int nbr_index_port(fl_nbr *b, fl_id node, const char *lb, size_t port) {
  char stack[FL_ALIAS_MAX + 4];
  size_t len = strlen(lb);
  char *key = scratch(stack, sizeof stack, len + 5);
  if (!key)
    return -1;
  fl_alias_port(lb, len, key + 4, len + 1);
  size_t k = port_key(key, node);
  int rc = fl_strmap_put(&b->ports, key, k, (uint32_t)port) == FL_MAP_ABSENT
               ? -1
               : 0;
  scratch_free(key, stack);
  return rc;
}

fl_nbr *fl_nbr_begin(fl_fabric *fab, const char *path) {
  fl_nbr *b = calloc(1, sizeof *b);
  if (!b)
    return NULL;
  b->fab = fab;
  b->file = fl_b_file(fab, path);
  for (size_t i = 0; i < fab->n_nodes; i++) {
    const fl_node_rec *r = &fab->nodes[i];
    const char *nm = fl_b_atom_str(fab, r->name ? r->name : r->desc);
    if (nbr_index_name(b, (fl_id)i, nm) != 0)
      goto nomem;
  }
  for (size_t i = 0; i < fab->n_ports; i++) {
    const fl_port_rec *r = &fab->ports[i];
    if (r->label &&
        nbr_index_port(b, r->node, fl_b_atom_str(fab, r->label), i) != 0)
      goto nomem;
  }
  b->first_new = fab->n_nodes;
  b->first_link = fab->n_links;
  for (size_t i = 0; i < fab->n_links; i++)
    for (int e = 0; e < 2; e++)
      if (fl_u64map_put(&b->port_link, e ? fab->links[i].b : fab->links[i].a,
                        (uint32_t)i) == FL_MAP_ABSENT)
        goto nomem;
  return b;
nomem:
  fl_nbr_end(b);
  return NULL;
}

void fl_nbr_declared(fl_nbr *b) {
  b->declared = 1;
}

void fl_nbr_once(fl_nbr *b) {
  b->declared = 1;
  b->once = 1;
}

uint32_t fl_nbr_file(const fl_nbr *b) {
  return b->file;
}
fl_fabric *fl_nbr_fabric(fl_nbr *b) {
  return b->fab;
}

fl_id fl_nbr_node(fl_nbr *b, const char *name, uint32_t kind, fl_prov prov) {
  char stack[FL_ALIAS_MAX];
  size_t len = strlen(name);
  char *canon = scratch(stack, sizeof stack, len + 1);
  if (!canon)
    return FL_NONE;
  size_t n;
  fl_id id = nbr_lookup(b, name, canon, len + 1, &n);
  if (id != FL_NONE) {
    if (kind)
      b->fab->nodes[id].kind = kind;
    if (fl_strmap_get(&b->nodes, canon, n) == FL_MAP_ABSENT &&
        nbr_index(b, id, canon, n) != 0)
      id = FL_NONE;
    scratch_free(canon, stack);
    return id;
  }
  fl_id node = fl_b_node(b->fab, kind ? kind : FL_NODE_SWITCH, 0, 0, prov);
  if (node != FL_NONE) {
    fl_b_node_set_name(b->fab, node, name, (size_t)-1);
    fl_b_node_set_desc(b->fab, node, name, (size_t)-1);
    if (nbr_index(b, node, canon, n) != 0)
      node = FL_NONE;
  }
  scratch_free(canon, stack);
  return node;
}

/* The port number a new port of @node labelled @canon gets: a plain
 * number names itself (swp26 -> 26) when free, else the next free one.
 * 0 when out of memory. */
static uint32_t nbr_port_num(fl_nbr *b, fl_id node, const char *canon) {
  uint32_t num = fl_alias_int(canon);
  if (!num || fl_b_port_find(b->fab, node, num) != FL_NONE) {
    uint32_t next = fl_u64map_get(&b->next_num, node);
    if (next == FL_MAP_ABSENT)
      next = 1;
    while (fl_b_port_find(b->fab, node, next) != FL_NONE)
      next++;
    num = next;
    if (fl_u64map_set(&b->next_num, node, next + 1) != 0)
      return 0;
  }
  return num;
}

fl_id fl_nbr_port(fl_nbr *b, fl_id node, const char *label, fl_prov prov) {
  char stack[FL_ALIAS_MAX + 4];
  size_t len = strlen(label);
  char *key = scratch(stack, sizeof stack, len + 5);
  if (!key)
    return FL_NONE;
  fl_alias_port(label, len, key + 4, len + 1);
  size_t k = port_key(key, node);
  uint32_t id = fl_strmap_get(&b->ports, key, k);
  fl_id p = id;
  uint32_t plain = fl_alias_int(key + 4);
  if (id == FL_MAP_ABSENT && plain) {
    /* `1` names port 1 when an input gave it by number alone (an NDT
     * `Port 1`, an ibnetdiscover port): the same port whichever input came
     * first (issue #32 case 22, both ways round) */
    fl_id q = fl_b_port_find(b->fab, node, plain);
    if (q != FL_NONE && !b->fab->ports[q].label) {
      if (fl_strmap_put(&b->ports, key, k, q) == FL_MAP_ABSENT)
        q = FL_NONE;
      scratch_free(key, stack);
      return q;
    }
  }
  if (id == FL_MAP_ABSENT) {
    uint32_t num = nbr_port_num(b, node, key + 4);
    p = num ? fl_b_port(b->fab, node, num, prov) : FL_NONE;
    if (p != FL_NONE) {
      fl_b_port_set_label(b->fab, p, label, (size_t)-1);
      if (fl_strmap_put(&b->ports, key, k, p) == FL_MAP_ABSENT)
        p = FL_NONE;
    }
  }
  scratch_free(key, stack);
  return p;
}

/* Record once per input that @node plays @role (NBR_LISTS, NBR_LISTED);
 * -1 on ENOMEM. */
static int nbr_mark(fl_nbr *b, fl_id node, uint32_t role) {
  uint32_t had = fl_u64map_get(&b->role, node);
  if (had == FL_MAP_ABSENT)
    had = 0;
  if (had & role)
    return 0;
  if (fl_u64map_set(&b->role, node, had | role) != 0)
    return -1;
  return fl_b_attr(b->fab, FL_ENT_NODE, node,
                   role == NBR_LISTS ? "lists-neighbours"
                                     : "listed-as-neighbour",
                   "yes") == FL_OK
             ? 0
             : -1;
}

fl_id fl_nbr_link(fl_nbr *b, fl_id pa, fl_id pb, uint32_t flags, fl_prov prov) {
  if ((flags & FL_LINK_SEEN_A) &&
      (nbr_mark(b, b->fab->ports[pa].node, NBR_LISTS) != 0 ||
       nbr_mark(b, b->fab->ports[pb].node, NBR_LISTED) != 0))
    return FL_NONE;
  uint32_t l = fl_u64map_get(&b->port_link, pa);
  if (l == FL_MAP_ABSENT)
    l = fl_u64map_get(&b->port_link, pb);
  /* listed twice by one plan: two cables, visible -- unless the second
   * listing is the first seen from the other end (UFM's NDT lists every
   * switch-to-switch cable once per direction): that is one cable */
  if (b->once && l != FL_MAP_ABSENT && l >= b->first_link &&
      !(b->fab->links[l].a == pb && b->fab->links[l].b == pa))
    l = FL_MAP_ABSENT;
  if (l != FL_MAP_ABSENT) {
    fl_link_rec *r = &b->fab->links[l];
    if ((r->a == pa && r->b == pb) || (r->a == pb && r->b == pa)) {
      if (flags & FL_LINK_SEEN_A)
        fl_b_link_add_flags(b->fab, l,
                            r->a == pa ? FL_LINK_SEEN_A : FL_LINK_SEEN_B);
      if (flags & FL_LINK_DECLARED)
        fl_b_link_add_flags(b->fab, l, FL_LINK_DECLARED);
      return l;
    }
  }
  fl_id nl = fl_b_link(b->fab, pa, pb, 0, 0, flags, prov);
  if (nl == FL_NONE)
    return FL_NONE;
  if (fl_u64map_put(&b->port_link, pa, nl) == FL_MAP_ABSENT ||
      fl_u64map_put(&b->port_link, pb, nl) == FL_MAP_ABSENT)
    return FL_NONE;
  return nl;
}

void fl_nbr_end(fl_nbr *b) {
  if (!b)
    return;
  fl_strmap_free(&b->nodes);
  fl_strmap_free(&b->shorts);
  free(b->short_v);
  for (size_t i = 0; i < b->qual_cap; i++)
    free(b->qual[i]);
  free(b->qual);
  fl_strmap_free(&b->ports);
  fl_u64map_free(&b->port_link);
  fl_u64map_free(&b->next_num);
  fl_u64map_free(&b->role);
  free(b);
}

/* ======================================================================
 * lldpd XML
 * ====================================================================== */

/* One <interface> element being read. */
typedef struct lldp_nb {
  char *local_port;
  char *chassis_id, *chassis_name;
  char *port_id, *port_type, *port_descr;
  char *mau; /* <auto-negotiation><current>: the MAU operational type */
  int cap_bridge_router, cap_station; /* enabled capabilities seen */
  int in_chassis, in_port;
  uint32_t line;
} lldp_nb;

static void nb_clear(lldp_nb *n) {
  free(n->local_port);
  free(n->chassis_id);
  free(n->chassis_name);
  free(n->port_id);
  free(n->port_type);
  free(n->port_descr);
  free(n->mau);
  memset(n, 0, sizeof *n);
}

/* Speed of an lldpd MAU operational type (IEEE 802.3.1 dot3MauType, as
 * lldpd names it: "100GbaseCR4 - 100GBASE-R PCS/PMA over 4 lane
 * shielded copper", "10GbaseT - ...", "1000BaseTFD - ..."): the leading
 * rate, in Gb/s when followed by G, else Mb/s. FL_SPEED_UNKNOWN for rates
 * the model has no code for (below 1G) and for anything else. */
uint32_t fl_lldp_mau_speed(const char *mau) {
  if (!mau || !isdigit((unsigned char)*mau))
    return FL_SPEED_UNKNOWN;
  char *end;
  unsigned long v = strtoul(mau, &end, 10);
  char buf[32];
  if (*end == 'G' || *end == 'g')
    snprintf(buf, sizeof buf, "%luG", v);
  else if ((*end == 'B' || *end == 'b') && v >= 1000 && v % 1000 == 0)
    snprintf(buf, sizeof buf, "%luG", v / 1000);
  else
    return FL_SPEED_UNKNOWN;
  return fl_speed_parse(buf, (size_t)-1);
}

/* Record the neighbour's negotiated speed on link @l: the first listing
 * sets it (width 1: an Ethernet rate is the whole port's), a second
 * listing that disagrees marks the link as its ends disagreeing. */
static void nb_speed(fl_fabric *fab, fl_id l, fl_id lp, const char *mau) {
  uint32_t sp = fl_lldp_mau_speed(mau);
  if (sp == FL_SPEED_UNKNOWN || l >= fab->n_links)
    return;
  fl_link_rec *r = &fab->links[l];
  if (r->speed == FL_SPEED_UNKNOWN) {
    r->speed = (uint8_t)sp;
    r->width = 1;
    r->width_b = 1;
    r->speed_b = (uint8_t)sp;
  } else if (r->speed != sp) {
    (void)lp;
    fl_b_link_set_b_listing(fab, l, 1, sp);
  }
}

static int nb_commit(fl_xr *x, fl_nbr *b, const char *local, lldp_nb *n) {
  if (!n->local_port || !*n->local_port)
    return fl_xr_fail(x, "<interface> without a name attribute (the local "
                         "port); expected <interface name=\"swp1\" ...>");
  const char *rname =
      n->chassis_name && *n->chassis_name ? n->chassis_name : n->chassis_id;
  if (!rname || !*rname)
    return fl_error_set(x->err, FL_EPARSE, x->path, n->line, 0,
                        "neighbour on %s has neither <chassis><name> nor "
                        "<chassis><id>; expected a SysName or a ChassisID",
                        n->local_port);
  const char *rport =
      fl_alias_lldp_port(n->port_type, n->port_id, n->port_descr);
  if (!rport || !*rport)
    return fl_error_set(x->err, FL_EPARSE, x->path, n->line, 0,
                        "neighbour %s on %s has neither <port><id> nor "
                        "<port><descr>; expected the neighbour's PortID",
                        rname, n->local_port);
  fl_prov prov = {fl_nbr_file(b), n->line, 0};
  uint32_t rkind = 0;
  if (n->cap_station && !n->cap_bridge_router)
    rkind = FL_NODE_CA;
  else if (n->cap_bridge_router)
    rkind = FL_NODE_SWITCH;
  fl_id ln = fl_nbr_node(b, local, 0, prov);
  fl_id rn = ln == FL_NONE ? FL_NONE : fl_nbr_node(b, rname, rkind, prov);
  fl_id lp = rn == FL_NONE ? FL_NONE : fl_nbr_port(b, ln, n->local_port, prov);
  fl_id rp = lp == FL_NONE ? FL_NONE : fl_nbr_port(b, rn, rport, prov);
  fl_id l =
      rp == FL_NONE ? FL_NONE : fl_nbr_link(b, lp, rp, FL_LINK_SEEN_A, prov);
  if (l == FL_NONE)
    return fl_error_set(x->err, FL_ENOMEM, x->path, 0, 0, "out of memory");
  nb_speed(b->fab, l, lp, n->mau);
  /* a Station-only neighbour is a host: one system whose NICs are its
   * ports (rail-alignment and diff see host, NIC = port label) */
  if (rkind == FL_NODE_CA && b->fab->nodes[rn].system == 0)
    fl_b_node_set_system(b->fab, rn, rname, (size_t)-1);
  if (n->chassis_id && *n->chassis_id &&
      fl_b_attr(b->fab, FL_ENT_NODE, rn, "chassis-id", n->chassis_id) != FL_OK)
    return fl_error_set(x->err, FL_ENOMEM, x->path, 0, 0, "out of memory");
  return FL_OK;
}

static int set_text(fl_xr *x, char **dst) {
  free(*dst);
  *dst = fl_xr_text(x);
  return *dst ? FL_OK
              : fl_error_set(x->err, FL_ENOMEM, x->path, 0, 0, "out of memory");
}

int fl_load_lldpd_xml(fl_fabric *fab, const fl_input *in,
                      const fl_load_options *opts, fl_error *err) {
  const char *path = in->path;
  (void)opts;
  fl_xr x;
  int rc = fl_xr_open(&x, in, err);
  if (rc != FL_OK) {
    fl_xr_close(&x);
    return rc;
  }
  char local[FL_ALIAS_MAX];
  fl_local_name_from_path(path, local, sizeof local);
  fl_nbr *b = fl_nbr_begin(fab, path);
  if (!b) {
    fl_xr_close(&x);
    return fl_error_set(err, FL_ENOMEM, path, 0, 0, "out of memory");
  }
  lldp_nb nb = {0};
  int in_if = 0, seen_root = 0, r;
  while ((r = fl_xr_next(&x)) == 1) {
    int type = fl_xr_type(&x), depth = fl_xr_depth(&x);
    const char *name = fl_xr_name(&x);
    if (type == XML_READER_TYPE_END_ELEMENT) {
      if (depth == 1 && strcmp(name, "interface") == 0 && in_if) {
        if ((rc = nb_commit(&x, b, local, &nb)) != FL_OK)
          break;
        nb_clear(&nb);
        in_if = 0;
      } else if (depth == 2 && strcmp(name, "chassis") == 0) {
        nb.in_chassis = 0;
      } else if (depth == 2 && strcmp(name, "port") == 0) {
        nb.in_port = 0;
      }
      continue;
    }
    if (type != XML_READER_TYPE_ELEMENT)
      continue;
    if (depth == 0) {
      if (strcmp(name, "lldp") != 0) {
        rc = fl_xr_fail(&x,
                        "root element <%s>; expected <lldp> (lldpcli -f "
                        "xml show neighbors)",
                        name);
        break;
      }
      char *label = fl_xr_attr(&x, "label");
      int ifaces = label && strcasecmp(label, "Interfaces") == 0;
      free(label);
      if (ifaces) {
        rc = fl_xr_fail(&x, "this is `lldpcli show interfaces` (local ports); "
                            "expected `lldpcli -f xml show neighbors details`");
        break;
      }
      seen_root = 1;
      continue;
    }
    if (depth == 1 && strcmp(name, "interface") == 0) {
      nb_clear(&nb);
      in_if = 1;
      nb.line = fl_xr_line(&x);
      nb.local_port = fl_xr_attr(&x, "name");
      if (fl_xr_empty(&x)) {
        rc = fl_xr_fail(&x, "empty <interface>; expected <chassis> and <port>");
        break;
      }
      continue;
    }
    if (!in_if)
      continue;
    if (depth == 2) {
      nb.in_chassis = strcmp(name, "chassis") == 0 && !fl_xr_empty(&x);
      nb.in_port = strcmp(name, "port") == 0 && !fl_xr_empty(&x);
      continue;
    }
    if (depth == 4 && nb.in_port && strcmp(name, "current") == 0) {
      if ((rc = set_text(&x, &nb.mau)) != FL_OK)
        break;
      continue;
    }
    if (depth != 3)
      continue;
    if (nb.in_chassis && strcmp(name, "id") == 0) {
      rc = set_text(&x, &nb.chassis_id);
    } else if (nb.in_chassis && strcmp(name, "name") == 0) {
      rc = set_text(&x, &nb.chassis_name);
    } else if (nb.in_chassis && strcmp(name, "capability") == 0) {
      char *t = fl_xr_attr(&x, "type"), *en = fl_xr_attr(&x, "enabled");
      if (t && en && strcmp(en, "on") == 0) {
        if (strcasecmp(t, "Bridge") == 0 || strcasecmp(t, "Router") == 0)
          nb.cap_bridge_router = 1;
        else if (strcasecmp(t, "Station") == 0)
          nb.cap_station = 1;
      }
      free(t);
      free(en);
    } else if (nb.in_port && strcmp(name, "id") == 0) {
      free(nb.port_type);
      nb.port_type = fl_xr_attr(&x, "type");
      rc = set_text(&x, &nb.port_id);
    } else if (nb.in_port && strcmp(name, "descr") == 0) {
      rc = set_text(&x, &nb.port_descr);
    }

    if (rc != FL_OK)
      break;
  }
  if (r < 0)
    rc = r;
  if (rc == FL_OK && !seen_root)
    rc = fl_error_set(err, FL_EPARSE, path, 1, 0,
                      "no <lldp> element; expected lldpcli -f xml output");
  nb_clear(&nb);
  fl_nbr_end(b);
  fl_xr_close(&x);
  return rc;
}

/* ---- the format registry row (formats.h) ---- */

static uint32_t detect_lldpd_xml(const fl_detect_ctx *c, fl_error *err) {
  (void)err;
  return c->xml_root && strcmp(c->xml_root, "lldp") == 0 ? FL_FMT_LLDPD_XML
                                                         : FL_FMT_AUTO;
}

const fl_format_def fl_fmt_lldpd_xml = {FL_FMT_LLDPD_XML,
                                        "lldpd-xml",
                                        NULL,
                                        FL_FORMAT_TOPOLOGY | FL_FORMAT_XML,
                                        fl_load_lldpd_xml,
                                        detect_lldpd_xml,
                                        "<lldp> lldpd XML"};
