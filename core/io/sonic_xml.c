/* SPDX-License-Identifier: MIT */
/*
 * core/io/sonic_xml.c — SONiC cabling plans: the sonic-mgmt fleet plan
 * `LabConnectionGraph` (ansible/files/lab_connection_graph.xml and its
 * variants) and the per-device `DeviceMiniGraph` (sonic-buildimage
 * minigraph.xml). Both are as-designed inputs: every physical link is a planned
 * cable (FL_LINK_DECLARED). docs/formats/sonic-lab-graph.md and
 * sonic-minigraph.md give the grammar and the quirks of the real samples.
 *
 *   <LabConnectionGraph>
 *    <PhysicalNetworkGraphDeclaration>
 *     <Devices>
 *      <Device Hostname="str-msn2700-01" HwSku="Mellanox-2700"
 * Type="DevSonic"/> <DeviceInterfaceLinks> <DeviceInterfaceLink
 * BandWidth="40000" StartDevice="str-msn2700-01" StartPort="Ethernet0"
 * EndDevice="str-7260-10" EndPort="Ethernet1"/>
 *
 *   <DeviceMiniGraph xmlns="Microsoft.Search.Autopilot.Evolution" ...>
 *    <PngDec><DeviceInterfaceLinks>
 *     <DeviceLinkBase i:type="DeviceInterfaceLink">
 *      <ElementType>DeviceInterfaceLink</ElementType>
 *      <Bandwidth>40000</Bandwidth>
 *      <StartDevice>switch-t0</StartDevice> <StartPort>fortyGigE0/8</StartPort>
 *      <EndDevice>ARISTA01T1</EndDevice> <EndPort>et1</EndPort>
 *    ...<Devices><Device i:type="LeafRouter"><Hostname>ARISTA01T1</Hostname>
 *
 * The lab graph carries a link's fields as attributes, the minigraph as
 * child elements; both are read by local name, any namespace, so one
 * reader serves both. Links and devices are collected first (a minigraph
 * lists its devices after its links) and built at the end.
 *
 * What is kept: nodes that have at least one physical link (a device
 * declared without one is counted in a note, not made an isolated node);
 * the device `Type` (`device-type` attribute; a type naming a server makes
 * the node a host, CA, whose NICs are its ports, as for LLDP stations) and
 * `HwSku` (`model`); `BandWidth` in Mb/s as the link's speed (Ethernet
 * width 1). What is skipped, counted in one note each with the first line:
 * minigraph management and logical links (`DeviceMgmtLink`, `LogicalLink`
 * from a dual-ToR mux cable), links that join a port to itself (840 in the
 * Nokia lab plan). Console, BMC, power and VLAN sections are not cabling
 * of the data fabric and are not read.
 *
 * Errors: a physical link without one of its four ends, or a bandwidth
 * that is not a number: file:line and what was expected.
 */
#include "io/formats.h"
#include "io/loaders.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <libxml/xmlreader.h>

#include "model/alias.h"
#include "model/fabric_impl.h"
#include "model/grow.h"

enum { F_SDEV, F_SPORT, F_EDEV, F_EPORT, F_BW, F_INTERNAL, F_TYPE, F_COUNT };
/* Field names, as attributes (lab graph) or child elements (minigraph);
 * compared case-insensitively: BandWidth / Bandwidth. ElementType is last
 * (read_link() reads it from i:type too). */
static const char *const LINK_FIELDS[F_COUNT] = {
    "StartDevice", "StartPort",       "EndDevice",  "EndPort",
    "BandWidth",   "ChassisInternal", "ElementType"};

typedef struct sonic_link {
  char *f[F_COUNT];
  uint32_t line;
} sonic_link;

typedef struct sonic_dev {
  char *name, *type, *hwsku;
  uint32_t line;
  int linked;   /* has a physical link, or is a repeated declaration */
  int internal; /* an end of a chassis-internal link */
} sonic_dev;

typedef struct sonic {
  fl_xr x;
  sonic_link *links;
  size_t n_links, cap_links;
  sonic_dev *devs;
  size_t n_devs, cap_devs;
  sonic_dev **by_name; /* devices with a name, sorted by name, then line */
  size_t n_named;
  int lab; /* a LabConnectionGraph: a fleet of separate testbeds, each of
              its nodes marked `fleet` = `lab-graph` (topology.disconnected:
              its islands are testbeds by design, real-corpus class F15) */
} sonic;

static void sonic_free(sonic *s) {
  for (size_t i = 0; i < s->n_links; i++)
    for (int k = 0; k < F_COUNT; k++)
      free(s->links[i].f[k]);
  free(s->links);
  for (size_t i = 0; i < s->n_devs; i++) {
    free(s->devs[i].name);
    free(s->devs[i].type);
    free(s->devs[i].hwsku);
  }
  free(s->devs);
  free(s->by_name);
}

static int field_of(const char *name) {
  for (int k = 0; k < F_COUNT; k++)
    if (strcasecmp(name, LINK_FIELDS[k]) == 0)
      return k;
  return -1;
}

/* Set *@dst to @v (taking it), keeping an earlier value. */
static void keep_first(char **dst, char *v) {
  if (!*dst)
    *dst = v;
  else
    free(v);
}

/* A link element: its attributes (lab graph), then its child elements
 * (minigraph) until its end. */
static int read_link(sonic *s, int is_empty) {
  if (fl_grow((void **)&s->links, &s->cap_links, s->n_links + 1,
              sizeof *s->links))
    return FL_ENOMEM;
  sonic_link *l = &s->links[s->n_links++];
  memset(l, 0, sizeof *l);
  l->line = fl_xr_line(&s->x);
  for (int k = 0; k < F_COUNT - 1; k++)
    l->f[k] = fl_xr_attr(&s->x, LINK_FIELDS[k]);
  if (!l->f[F_BW])
    l->f[F_BW] = fl_xr_attr(&s->x, "Bandwidth");
  l->f[F_TYPE] = fl_xr_attr(&s->x, "i:type");
  if (is_empty)
    return FL_OK;
  int depth = fl_xr_depth(&s->x), r;
  while ((r = fl_xr_next(&s->x)) == 1) {
    int t = fl_xr_type(&s->x), d = fl_xr_depth(&s->x);
    if (t == XML_READER_TYPE_END_ELEMENT && d == depth)
      return FL_OK;
    if (t != XML_READER_TYPE_ELEMENT || d != depth + 1)
      continue;
    int k = field_of(fl_xr_name(&s->x));
    if (k < 0)
      continue;
    char *v = fl_xr_text(&s->x);
    if (!v)
      return FL_ENOMEM;
    if (k == F_TYPE) { /* <ElementType> wins over i:type */
      free(l->f[F_TYPE]);
      l->f[F_TYPE] = v;
    } else {
      keep_first(&l->f[k], v);
    }
  }
  return r < 0 ? r : FL_OK;
}

/* A device element: Hostname/HwSku/Type attributes (lab graph) or child
 * elements with an i:type attribute (minigraph). */
static int read_device(sonic *s, int is_empty) {
  if (fl_grow((void **)&s->devs, &s->cap_devs, s->n_devs + 1, sizeof *s->devs))
    return FL_ENOMEM;
  sonic_dev *v = &s->devs[s->n_devs++];
  memset(v, 0, sizeof *v);
  v->line = fl_xr_line(&s->x);
  v->name = fl_xr_attr(&s->x, "Hostname");
  v->hwsku = fl_xr_attr(&s->x, "HwSku");
  v->type = fl_xr_attr(&s->x, "Type");
  if (!v->type)
    v->type = fl_xr_attr(&s->x, "i:type");
  if (is_empty)
    return FL_OK;
  int depth = fl_xr_depth(&s->x), r;
  while ((r = fl_xr_next(&s->x)) == 1) {
    int t = fl_xr_type(&s->x), d = fl_xr_depth(&s->x);
    if (t == XML_READER_TYPE_END_ELEMENT && d == depth)
      return FL_OK;
    if (t != XML_READER_TYPE_ELEMENT || d != depth + 1)
      continue;
    const char *n = fl_xr_name(&s->x);
    char **dst = strcmp(n, "Hostname") == 0 ? &v->name
                 : strcmp(n, "HwSku") == 0  ? &v->hwsku
                                            : NULL;
    if (!dst)
      continue;
    char *val = fl_xr_text(&s->x);
    if (!val)
      return FL_ENOMEM;
    keep_first(dst, val);
  }
  return r < 0 ? r : FL_OK;
}

/* Walk the document; collect every link and device record. A `Device`
 * counts only inside a `Devices` list (the minigraph's DeviceInfos hold
 * other records). */
static int collect(sonic *s) {
  int r, devices_depth = -1;
  while ((r = fl_xr_next(&s->x)) == 1) {
    int t = fl_xr_type(&s->x), d = fl_xr_depth(&s->x);
    const char *n = fl_xr_name(&s->x);
    if (t == XML_READER_TYPE_END_ELEMENT && d == devices_depth &&
        strcmp(n, "Devices") == 0)
      devices_depth = -1;
    if (t != XML_READER_TYPE_ELEMENT)
      continue;
    int rc = FL_OK;
    if (strcmp(n, "Devices") == 0 && !fl_xr_empty(&s->x))
      devices_depth = d;
    else if (strcmp(n, "DeviceInterfaceLink") == 0 ||
             strcmp(n, "DeviceLinkBase") == 0)
      rc = read_link(s, fl_xr_empty(&s->x));
    else if (strcmp(n, "Device") == 0 && devices_depth >= 0 &&
             d == devices_depth + 1)
      rc = read_device(s, fl_xr_empty(&s->x));
    if (rc != FL_OK)
      return rc == FL_ENOMEM ? fl_error_set(s->x.err, FL_ENOMEM, s->x.path, 0,
                                            0, "out of memory")
                             : rc;
  }
  return r < 0 ? r : FL_OK;
}

static int cmp_dev(const void *a, const void *b) {
  const sonic_dev *x = *(sonic_dev *const *)a, *y = *(sonic_dev *const *)b;
  int c = strcasecmp(x->name, y->name);
  return c ? c : (x->line > y->line) - (x->line < y->line);
}

/* Index the named devices by name: O(D log D), then O(log D) per lookup
 * (a fleet plan has thousands of devices and tens of thousands of links).
 * A name declared again is reported and its later declarations ignored. */
static int index_devs(sonic *s, fl_nbr *b) {
  s->by_name = malloc((s->n_devs ? s->n_devs : 1) * sizeof *s->by_name);
  if (!s->by_name)
    return FL_ENOMEM;
  for (size_t i = 0; i < s->n_devs; i++)
    if (s->devs[i].name && *s->devs[i].name)
      s->by_name[s->n_named++] = &s->devs[i];
  if (s->n_named > 1)
    qsort(s->by_name, s->n_named, sizeof *s->by_name, cmp_dev);
  size_t dups = 0, w = 0;
  const sonic_dev *first = NULL, *again = NULL;
  for (size_t i = 0; i < s->n_named; i++) {
    if (w > 0 &&
        strcasecmp(s->by_name[w - 1]->name, s->by_name[i]->name) == 0) {
      if (dups++ == 0)
        first = s->by_name[w - 1], again = s->by_name[i];
      s->by_name[i]->linked = 1; /* not "declared without a link" */
      continue;
    }
    s->by_name[w++] = s->by_name[i];
  }
  s->n_named = w;
  if (dups)
    fl_b_note(fl_nbr_fabric(b), "topology",
              (fl_prov){fl_nbr_file(b), again->line, 0},
              "%zu device declaration(s) repeat a name already declared "
              "(first: %s, lines %u and %u); the first declaration is used",
              dups, first->name, first->line, again->line);
  return FL_OK;
}

static sonic_dev *find_dev(sonic *s, const char *name) {
  size_t lo = 0, hi = s->n_named;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    int c = strcasecmp(s->by_name[mid]->name, name);
    if (c == 0)
      return s->by_name[mid];
    if (c < 0)
      lo = mid + 1;
    else
      hi = mid;
  }
  return NULL;
}

/* A server-like device type (Server, DevServer, TestServ...) is a host. */
static uint32_t kind_of(const sonic_dev *v) {
  for (const char *p = v && v->type ? v->type : ""; *p; p++)
    if (strncasecmp(p, "serv", 4) == 0)
      return FL_NODE_CA;
  return FL_NODE_SWITCH;
}

/* Speed code of a bandwidth in Mb/s ("40000" -> 40G); FL_SPEED_UNKNOWN
 * for rates the model has no code for. -1 when @bw is not a number. */
static long bw_speed(const char *bw) {
  if (!bw || !*bw)
    return FL_SPEED_UNKNOWN;
  char *end;
  unsigned long v = strtoul(bw, &end, 10);
  if (!isdigit((unsigned char)*bw) || *end)
    return -1;
  if (v < 1000 || v % 1000)
    return FL_SPEED_UNKNOWN;
  char buf[32];
  snprintf(buf, sizeof buf, "%luG", v / 1000);
  return fl_speed_parse(buf, (size_t)-1);
}

/* Node for device @name, with its kind, model and type the first time. */
static fl_id dev_node(sonic *s, fl_nbr *b, const char *name, fl_prov prov) {
  sonic_dev *v = find_dev(s, name);
  uint32_t kind = kind_of(v);
  fl_fabric *fab = fl_nbr_fabric(b);
  fl_id n = fl_nbr_node(b, name, kind, prov);
  if (n == FL_NONE || (v && v->linked))
    return n;
  if (s->lab && fl_b_attr(fab, FL_ENT_NODE, n, "fleet", "lab-graph") != FL_OK)
    return FL_NONE;
  if (v) {
    v->linked = 1;
    if ((v->hwsku && *v->hwsku &&
         fl_b_attr(fab, FL_ENT_NODE, n, "model", v->hwsku) != FL_OK) ||
        (v->type && *v->type &&
         fl_b_attr(fab, FL_ENT_NODE, n, "device-type", v->type) != FL_OK))
      return FL_NONE;
  }
  if (kind == FL_NODE_CA && fab->nodes[n].system == 0)
    fl_b_node_set_system(fab, n, name, (size_t)-1);
  return n;
}

/* Counters of what was skipped, with the first line of each. */
typedef struct skips {
  size_t other_type, self_link, undeclared, panel, backplane;
  uint32_t other_line, self_line, undeclared_line, internal_line;
  const char *other_name, *internal_dev;
} skips;

/* 1 when device @v is a multi-ASIC device's ASIC (`<Device i:type="Asic">`
 * in a minigraph's Devices). */
static int is_asic(const sonic_dev *v) {
  return v && v->type && strcasecmp(v->type, "Asic") == 0;
}

/* A chassis-internal link of a multi-ASIC device (sonic-buildimage
 * minigraph.py parse_asic_png(): `<ChassisInternal>true`), or, without that
 * field, a link with an ASIC at an end: a front-panel port mapped to an
 * ASIC port, or a backplane link between two ASICs. Not a cable: counted
 * (@k) and its ends kept from the "declared without a link" note. 1 when
 * @l is one. */
static int skip_internal(sonic *s, const sonic_link *l, skips *k) {
  sonic_dev *a = find_dev(s, l->f[F_SDEV]), *e = find_dev(s, l->f[F_EDEV]);
  const char *ci = l->f[F_INTERNAL];
  int flagged = ci && strcasecmp(ci, "true") == 0;
  if (!flagged && !is_asic(a) && !is_asic(e))
    return 0;
  int both = is_asic(a) && is_asic(e);
  if (both)
    k->backplane++;
  else
    k->panel++;
  if (k->panel + k->backplane == 1)
    k->internal_line = l->line;
  if (!both && !k->internal_dev)
    k->internal_dev = is_asic(a) ? l->f[F_EDEV] : l->f[F_SDEV];
  if (a)
    a->internal = 1;
  if (e)
    e->internal = 1;
  return 1;
}

static int add_link(sonic *s, fl_nbr *b, sonic_link *l, skips *k) {
  static const char *const what[4] = {"StartDevice", "StartPort", "EndDevice",
                                      "EndPort"};
  const char *type = l->f[F_TYPE];
  if (type && *type && strcmp(type, "DeviceInterfaceLink") != 0) {
    if (k->other_type++ == 0)
      k->other_line = l->line, k->other_name = type;
    return FL_OK;
  }
  for (int i = 0; i < 4; i++)
    if (!l->f[i] || !*l->f[i])
      return fl_error_set(s->x.err, FL_EPARSE, s->x.path, l->line, 0,
                          "link without %s; expected StartDevice, StartPort, "
                          "EndDevice and EndPort",
                          what[i]);
  long sp = bw_speed(l->f[F_BW]);
  if (sp < 0)
    return fl_error_set(s->x.err, FL_EPARSE, s->x.path, l->line, 0,
                        "bandwidth \"%s\" is not a number; expected Mb/s, "
                        "e.g. 100000",
                        l->f[F_BW]);
  if (skip_internal(s, l, k))
    return FL_OK;
  char ca[FL_ALIAS_MAX], cb[FL_ALIAS_MAX];
  size_t la = strlen(l->f[F_SPORT]), lb = strlen(l->f[F_EPORT]);
  fl_alias_port(l->f[F_SPORT], la, ca, sizeof ca);
  fl_alias_port(l->f[F_EPORT], lb, cb, sizeof cb);
  int same_port = la < sizeof ca && lb < sizeof cb
                      ? strcmp(ca, cb) == 0 /* whole spellings */
                      : strcmp(l->f[F_SPORT], l->f[F_EPORT]) == 0;
  if (strcasecmp(l->f[F_SDEV], l->f[F_EDEV]) == 0 && same_port) {
    if (k->self_link++ == 0)
      k->self_line = l->line;
    return FL_OK;
  }
  for (int i = 0; i < 3; i += 2)
    if (!find_dev(s, l->f[i]) && k->undeclared++ == 0)
      k->undeclared_line = l->line;
  fl_prov prov = {fl_nbr_file(b), l->line, 0};
  fl_fabric *fab = fl_nbr_fabric(b);
  fl_id a = dev_node(s, b, l->f[F_SDEV], prov);
  fl_id e = a == FL_NONE ? FL_NONE : dev_node(s, b, l->f[F_EDEV], prov);
  fl_id pa = e == FL_NONE ? FL_NONE : fl_nbr_port(b, a, l->f[F_SPORT], prov);
  fl_id pe = pa == FL_NONE ? FL_NONE : fl_nbr_port(b, e, l->f[F_EPORT], prov);
  fl_id id =
      pe == FL_NONE ? FL_NONE : fl_nbr_link(b, pa, pe, FL_LINK_DECLARED, prov);
  if (id == FL_NONE)
    return fl_error_set(s->x.err, FL_ENOMEM, s->x.path, 0, 0, "out of memory");
  fl_link_rec *r = &fab->links[id];
  if (sp != FL_SPEED_UNKNOWN && r->speed == FL_SPEED_UNKNOWN) {
    r->speed = r->speed_b = (uint8_t)sp;
    r->width = r->width_b = 1;
  }
  return FL_OK;
}

static void report_skips(sonic *s, fl_nbr *b, const skips *k) {
  fl_fabric *fab = fl_nbr_fabric(b);
  uint32_t file = fl_nbr_file(b);
  size_t unlinked = 0;
  uint32_t unlinked_line = 0;
  for (size_t i = 0; i < s->n_devs; i++)
    if (!s->devs[i].linked && !s->devs[i].internal && unlinked++ == 0)
      unlinked_line = s->devs[i].line;
  if (k->other_type)
    fl_b_note(fab, "topology", (fl_prov){file, k->other_line, 0},
              "%zu link(s) that are not physical cables skipped (first: %s)",
              k->other_type, k->other_name);
  if (k->panel + k->backplane)
    fl_b_note(fab, "topology", (fl_prov){file, k->internal_line, 0},
              "%zu chassis-internal link(s) of a multi-ASIC device are not "
              "cables and were not loaded: %zu front-panel port(s) mapped to "
              "ASIC ports%s%s%s, %zu backplane link(s) between ASICs; the "
              "device is one switch with its front-panel port names",
              k->panel + k->backplane, k->panel, k->internal_dev ? " (of " : "",
              k->internal_dev ? k->internal_dev : "",
              k->internal_dev ? ")" : "", k->backplane);
  if (k->self_link)
    fl_b_note(fab, "topology", (fl_prov){file, k->self_line, 0},
              "%zu link(s) that join a port to itself skipped", k->self_link);
  if (k->undeclared)
    fl_b_note(fab, "topology", (fl_prov){file, k->undeclared_line, 0},
              "%zu link end(s) name a device the plan does not declare in "
              "<Devices>; loaded as switches",
              k->undeclared);
  if (unlinked)
    fl_b_note(fab, "topology", (fl_prov){file, unlinked_line, 0},
              "%zu declared device(s) have no physical link; not loaded",
              unlinked);
}

static int load_sonic(fl_fabric *fab, const fl_input *in, int lab,
                      fl_error *err) {
  sonic s;
  memset(&s, 0, sizeof s);
  s.lab = lab;
  int rc = fl_xr_open(&s.x, in, err);
  if (rc == FL_OK)
    rc = collect(&s);
  fl_nbr *b = rc == FL_OK ? fl_nbr_begin(fab, in->path) : NULL;
  if (rc == FL_OK && !b)
    rc = fl_error_set(err, FL_ENOMEM, in->path, 0, 0, "out of memory");
  if (rc == FL_OK && s.n_links == 0)
    rc = fl_error_set(err, FL_EPARSE, in->path, 0, 0,
                      "no link: expected <DeviceInterfaceLink> elements "
                      "(lab graph) or <DeviceLinkBase> (minigraph)");
  if (rc == FL_OK && index_devs(&s, b) != FL_OK)
    rc = fl_error_set(err, FL_ENOMEM, in->path, 0, 0, "out of memory");
  skips k;
  memset(&k, 0, sizeof k);
  for (size_t i = 0; rc == FL_OK && i < s.n_links; i++)
    rc = add_link(&s, b, &s.links[i], &k);
  if (rc == FL_OK)
    report_skips(&s, b, &k);
  if (b)
    fl_nbr_end(b);
  fl_xr_close(&s.x);
  sonic_free(&s);
  return rc;
}

static int load_lab_graph(fl_fabric *fab, const fl_input *in,
                          const fl_load_options *opts, fl_error *err) {
  (void)opts;
  return load_sonic(fab, in, 1, err);
}

static int load_minigraph(fl_fabric *fab, const fl_input *in,
                          const fl_load_options *opts, fl_error *err) {
  (void)opts;
  return load_sonic(fab, in, 0, err);
}

static uint32_t detect_lab_graph(const fl_detect_ctx *c, fl_error *err) {
  (void)err;
  return c->xml_root && strcmp(c->xml_root, "LabConnectionGraph") == 0
             ? FL_FMT_SONIC_LAB_GRAPH
             : FL_FMT_AUTO;
}

static uint32_t detect_minigraph(const fl_detect_ctx *c, fl_error *err) {
  (void)err;
  return c->xml_root && strcmp(c->xml_root, "DeviceMiniGraph") == 0
             ? FL_FMT_SONIC_MINIGRAPH
             : FL_FMT_AUTO;
}

const fl_format_def fl_fmt_sonic_lab_graph = {
    FL_FMT_SONIC_LAB_GRAPH,
    "sonic-lab-graph",
    NULL,
    FL_FORMAT_TOPOLOGY | FL_FORMAT_XML,
    load_lab_graph,
    detect_lab_graph,
    "<LabConnectionGraph> SONiC lab graph"};

const fl_format_def fl_fmt_sonic_minigraph = {
    FL_FMT_SONIC_MINIGRAPH,
    "sonic-minigraph",
    NULL,
    FL_FORMAT_TOPOLOGY | FL_FORMAT_XML,
    load_minigraph,
    detect_minigraph,
    "<DeviceMiniGraph> SONiC minigraph"};
