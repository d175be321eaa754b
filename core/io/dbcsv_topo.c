/* SPDX-License-Identifier: MIT */
/*
 * core/io/dbcsv_topo.c — ibdiagnet2.db_csv as a topology (format
 * "ibdiagnet-db"): the fabric ibdiagnet discovered, from the dump every
 * ibdiagnet run writes.
 *
 * Why: UFM and NVIDIA's support tools validate a fabric offline from an
 * ibdiagnet dump, and it is often all a site sends (issue 36: "read its
 * NODES, PORTS, LINKS and cable-info sections"). The dump is one file with
 * the nodes, every port's state, width and speed, and the cables.
 *
 * Sections read (headers by name, any order of columns, unknown columns
 * and sections ignored; docs/formats/ibdiagnet-db-csv.md; the headers are
 * those of parsers built on real dumps, ../shared/notes/formats.md §2.3):
 *   NODES   NodeGUID, NodeType (1 CA, 2 switch, 3 router) required;
 *           NodeDesc, NumPorts, SystemImageGUID, VendorID, DeviceID.
 *   PORTS   NodeGuid, PortNum required; PortGuid, LID, LMC,
 *           LinkWidthActv (IB bitmask: 1 1x, 2 4x, 4 8x, 8 12x, 16 2x),
 *           LinkSpeedActv (ibdm IBLinkSpeed: 1 SDR, 2 DDR, 4 QDR, 256 FDR,
 *           512 EDR, 1024 HDR, 2048 NDR, 65536 FDR10, 16777216 XDR),
 *           PortState (1 Down .. 4 Active), PortPhyState (2 Polling,
 *           3 Disabled, 5 LinkUp, ...). A switch's LID is on its port 0.
 *   LINKS   NodeGuid1, PortNum1, NodeGuid2, PortNum2: each cable once (a
 *           second listing of the same cable, either way round, is merged).
 *   CABLE_INFO  NodeGuid, PortNum, and the cable's vendor, part number,
 *           serial number and length, by any of the names below (the
 *           section's header was not seen in a public dump).
 *   AR_INFO as in the routing-state role (dbcsv_load.c).
 *
 * Cables are built at the end of the file, once every port's width and
 * speed is known, whatever the order of the sections. A cable's width and
 * speed are its first end's (PORTS of NodeGuid1); when the second end's
 * differ, the link records both (topology.link-mismatch). A port's
 * state becomes the `state` attribute the link-state rules read
 * ("Active/LinkUp", as iblinkinfo gives it).
 *
 * Strictness (FL_EPARSE naming file:line:col and what was expected): a
 * node GUID listed twice in NODES, a bad GUID or number, a node type other
 * than 1..3, a port or a cable end whose node NODES does not list, a port
 * number above 255, a port cabled twice to different peers, no NODES
 * section. Cost: one pass; memory O(nodes + ports + cables).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "io/dbcsv_impl.h"
#include "io/formats.h"
#include "io/loaders.h"
#include "io/nodemap.h"
#include "io/port_state.h"
#include "model/hashmap.h"

/* A port of PORTS (or one a cable names): what its link is built with. */
typedef struct tport {
  uint8_t width; /* lanes, 0 unknown */
  uint8_t speed; /* FL_SPEED_*, 0 unknown */
  uint32_t line; /* its PORTS row, 0 when PORTS did not list it */
} tport;

/* A LINKS row, built at the end (NODES may come after it). */
typedef struct tlink {
  uint64_t ga, gb;       /* the two ends' node GUIDs */
  uint32_t a, pa, b, pb; /* node indices into topo.nodes, port numbers */
  uint32_t line, col_a, col_b;
} tlink;

/* A CABLE_INFO row's attributes, set once the links exist. */
typedef struct tcable {
  uint64_t guid;
  uint32_t node, port, line, col;
  char *attr[4]; /* vendor, pn, sn, length (NULL when absent or N/A) */
} tcable;

static const char *const CABLE_ATTR[4] = {"cable-vendor", "cable-pn",
                                          "cable-sn", "length"};

/* A NODES row: its builder id and kind. */
typedef struct tnode {
  fl_id id;
  uint32_t kind; /* FL_NODE_* */
} tnode;

typedef struct topo {
  fl_fabric *fab;
  fl_nodemap names;
  int have_names;
  fl_u64map by_guid; /* node GUID -> index into nodes */
  tnode *nodes;
  size_t nn, ncap;
  fl_u64map by_port; /* (node index << 8 | port) -> index into ports */
  tport *ports;
  size_t np, pcap;
  tlink *links;
  fl_id *built; /* per LINKS row: the link it built (FL_NONE: merged) */
  size_t nl, lcap;
  tcable *cables;
  size_t nc, ccap;
  int sec;          /* S_* of the open section */
  long col[12];     /* its columns (C_*), -1 absent */
  uint32_t n_nodes; /* NODES sections read */
  uint32_t n_links; /* LINKS sections read */
  dbc_ar ar;
} topo;

enum { S_OTHER, S_NODES, S_PORTS, S_LINKS, S_CABLES, S_AR };

/* Column slots per section. */
enum { N_GUID, N_TYPE, N_DESC, N_NPORTS, N_SYSGUID, N_VENDOR, N_DEVICE };
enum { P_NODE, P_NUM, P_GUID, P_LID, P_LMC, P_WIDTH, P_SPEED, P_STATE, P_PHYS };
enum { L_G1, L_P1, L_G2, L_P2 };
enum { K_NODE, K_PORT, K_VENDOR, K_PN, K_SN, K_LENGTH };

#define NAMES(...) ((const char *const[]){__VA_ARGS__, NULL})

/* Column names per slot, normalised (dbc_find_col()). */
static const char *const *const NODE_COLS[] = {NAMES("nodeguid", "guid"),
                                               NAMES("nodetype", "type"),
                                               NAMES("nodedesc", "description"),
                                               NAMES("numports"),
                                               NAMES("systemimageguid"),
                                               NAMES("vendorid"),
                                               NAMES("deviceid")};
static const char *const *const PORT_COLS[] = {
    NAMES("nodeguid"),      NAMES("portnum"),   NAMES("portguid"),
    NAMES("lid"),           NAMES("lmc"),       NAMES("linkwidthactv"),
    NAMES("linkspeedactv"), NAMES("portstate"), NAMES("portphystate")};
static const char *const *const LINK_COLS[] = {
    NAMES("nodeguid1"), NAMES("portnum1"), NAMES("nodeguid2"),
    NAMES("portnum2")};
static const char *const *const CABLE_COLS[] = {
    NAMES("nodeguid"),
    NAMES("portnum"),
    NAMES("vendor", "vendorname"),
    NAMES("pn", "partnumber", "vendorpn"),
    NAMES("sn", "serialnumber", "vendorsn"),
    NAMES("length", "cablelength", "lengthcopperoractive")};

/* Slots required per section (a bit per slot). */
#define NODE_REQ  ((1u << N_GUID) | (1u << N_TYPE))
#define PORT_REQ  ((1u << P_NODE) | (1u << P_NUM))
#define LINK_REQ  0xfu
#define CABLE_REQ ((1u << K_NODE) | (1u << K_PORT))

static void topo_free(topo *t) {
  fl_nodemap_free(&t->names);
  fl_u64map_free(&t->by_guid);
  fl_u64map_free(&t->by_port);
  free(t->nodes);
  free(t->ports);
  free(t->links);
  free(t->built);
  for (size_t i = 0; i < t->nc; i++)
    for (int k = 0; k < 4; k++)
      free(t->cables[i].attr[k]);
  free(t->cables);
}

/* Room for one more element of @size bytes in *@v (holding @n of *@cap). */
static int grow(void **v, size_t *cap, size_t n, size_t size) {
  if (n < *cap)
    return 0;
  size_t c = *cap ? *cap * 2 : 256;
  void *nv = realloc(*v, c * size);
  if (!nv)
    return -1;
  *v = nv;
  *cap = c;
  return 0;
}

/* The columns of the open section's header; FL_EPARSE naming the first
 * required one that is missing. */
static int columns(topo *t, dbc_rd *r, fl_prov pv,
                   const char *const *const *names, size_t n, uint32_t req) {
  for (size_t i = 0; i < n; i++) {
    t->col[i] = dbc_find_col(r->hdr, r->nhdr, names[i]);
    if (t->col[i] < 0 && (req >> i & 1u))
      return dbc_err(r, pv.col,
                     "section %s: expected a column %s in its header "
                     "(docs/formats/ibdiagnet-db.md)",
                     r->sec, names[i][0]);
  }
  return FL_OK;
}

static int topo_begin(void *ctx, dbc_rd *r, fl_prov pv, int *want) {
  topo *t = ctx;
  static const struct {
    const char *name;
    int sec;
  } known[] = {{"NODES", S_NODES},
               {"PORTS", S_PORTS},
               {"LINKS", S_LINKS},
               {"CABLE_INFO", S_CABLES},
               {"AR_INFO", S_AR}};
  t->sec = S_OTHER;
  for (size_t i = 0; i < sizeof known / sizeof *known; i++)
    if (strcasecmp(r->sec, known[i].name) == 0)
      t->sec = known[i].sec;
  *want = t->sec != S_OTHER;
  switch (t->sec) {
  case S_NODES:
    t->n_nodes++;
    return columns(t, r, pv, NODE_COLS, 7, NODE_REQ);
  case S_PORTS:
    if (!t->n_nodes)
      return dbc_err(r, pv.col,
                     "section PORTS before NODES: expected the NODES "
                     "section first, as ibdiagnet writes it");
    return columns(t, r, pv, PORT_COLS, 9, PORT_REQ);
  case S_LINKS:
    t->n_links++;
    return columns(t, r, pv, LINK_COLS, 4, LINK_REQ);
  case S_CABLES:
    return columns(t, r, pv, CABLE_COLS, 6, CABLE_REQ);
  case S_AR:
    return dbc_ar_begin(&t->ar, r, pv);
  default:
    return FL_OK;
  }
}

/* Field of slot @slot in the current row, or NULL when the column is
 * absent or says N/A. */
static const dbf *field(const topo *t, const dbc_rd *r, int slot) {
  long c = t->col[slot];
  return c < 0 || dbc_is_na(r->f[c].s) ? NULL : &r->f[c];
}

/* A GUID field (required). */
static int get_guid(const topo *t, dbc_rd *r, int slot, uint64_t *out) {
  const dbf *f = &r->f[t->col[slot]];
  if (dbc_guid(f->s, out) != 0)
    return dbc_err(r, f->col,
                   "section %s: expected a GUID 0x<hex, up to 16 digits> in "
                   "column %s, got `%.40s`",
                   r->sec, r->hdr[t->col[slot]], f->s);
  return FL_OK;
}

/* A number field no larger than @max; *@out unchanged when absent/N/A. */
static int get_num(const topo *t, dbc_rd *r, int slot, uint64_t max,
                   uint64_t *out) {
  const dbf *f = field(t, r, slot);
  if (!f)
    return FL_OK;
  int64_t v = dbc_num(f->s, max);
  if (v < 0)
    return dbc_err(r, f->col,
                   "section %s: expected a number 0..%llu (decimal or "
                   "0x-hex) in column %s, got `%.40s`",
                   r->sec, (unsigned long long)max, r->hdr[t->col[slot]], f->s);
  *out = (uint64_t)v;
  return FL_OK;
}

/* The node NODES listed with GUID @g, or FL_MAP_ABSENT with FL_EPARSE in
 * @err at @line:@col of section @sec. */
static uint32_t node_at(const topo *t, fl_error *err, const char *path,
                        const char *sec, uint64_t g, uint32_t line,
                        uint32_t col, int *rc) {
  uint32_t i = fl_u64map_get(&t->by_guid, g);
  if (i == FL_MAP_ABSENT)
    *rc = fl_error_set(err, FL_EPARSE, path, line, col,
                       "section %s: node 0x%016llx is not listed in NODES "
                       "(expected NODES to list every node the dump names)",
                       sec, (unsigned long long)g);
  return i;
}

/* node_at() for field @slot of the current row. */
static uint32_t node_of(const topo *t, dbc_rd *r, int slot, uint64_t g,
                        int *rc) {
  return node_at(t, r->err, r->path, r->sec, g, r->line, r->f[t->col[slot]].col,
                 rc);
}

static int node_row(topo *t, dbc_rd *r, fl_prov pv) {
  uint64_t g, type = 0, nports = 0, sys = 0, ven = 0, dev = 0;
  int rc;
  if ((rc = get_guid(t, r, N_GUID, &g)) ||
      (rc = get_num(t, r, N_TYPE, 255, &type)) ||
      (rc = get_num(t, r, N_NPORTS, 255, &nports)) ||
      (rc = get_num(t, r, N_VENDOR, 0xffffff, &ven)) ||
      (rc = get_num(t, r, N_DEVICE, 0xffff, &dev)))
    return rc;
  const dbf *sf = field(t, r, N_SYSGUID);
  if (sf && dbc_guid(sf->s, &sys) != 0)
    return dbc_err(r, sf->col,
                   "section NODES: expected a GUID in column "
                   "SystemImageGUID, got `%.40s`",
                   sf->s);
  if (type < 1 || type > 3)
    return dbc_err(r, r->f[t->col[N_TYPE]].col,
                   "section NODES: expected NodeType 1 (CA), 2 (switch) or "
                   "3 (router), got `%.40s`",
                   r->f[t->col[N_TYPE]].s);
  if (fl_u64map_get(&t->by_guid, g) != FL_MAP_ABSENT)
    return dbc_err(r, r->f[t->col[N_GUID]].col,
                   "section NODES: node 0x%016llx is listed twice (expected "
                   "one row per node)",
                   (unsigned long long)g);
  uint32_t kind = type == 2   ? FL_NODE_SWITCH
                  : type == 3 ? FL_NODE_ROUTER
                              : FL_NODE_CA;
  if (grow((void **)&t->nodes, &t->ncap, t->nn, sizeof *t->nodes))
    return dbc_nomem(r);
  fl_id id = fl_b_node(t->fab, kind, g, (uint32_t)nports, pv);
  if (id == FL_NONE)
    return dbc_nomem(r);
  const dbf *d = field(t, r, N_DESC);
  if (d)
    fl_b_node_set_desc(t->fab, id, d->s, (size_t)-1);
  fl_b_node_set_ids(t->fab, id, (uint32_t)ven, (uint32_t)dev, sys);
  const char *nm = t->have_names ? fl_nodemap_lookup(&t->names, g) : NULL;
  if (nm)
    fl_b_node_set_name(t->fab, id, nm, (size_t)-1);
  t->nodes[t->nn] = (tnode){id, kind};
  if (fl_u64map_put(&t->by_guid, g, (uint32_t)t->nn) == FL_MAP_ABSENT)
    return dbc_nomem(r);
  t->nn++;
  return FL_OK;
}

/* The tport of (@node, @port), created empty on first use; NULL on ENOMEM. */
static tport *port_rec(topo *t, uint32_t node, uint32_t port) {
  uint64_t key = (uint64_t)node << 8 | port;
  uint32_t i = fl_u64map_get(&t->by_port, key);
  if (i != FL_MAP_ABSENT)
    return &t->ports[i];
  if (grow((void **)&t->ports, &t->pcap, t->np, sizeof *t->ports) ||
      fl_u64map_put(&t->by_port, key, (uint32_t)t->np) == FL_MAP_ABSENT)
    return NULL;
  memset(&t->ports[t->np], 0, sizeof *t->ports);
  return &t->ports[t->np++];
}

/* Lanes of a LinkWidthActive bit, 0 when none or several. */
static uint8_t width_of(uint64_t w) {
  return w == 1 ? 1 : w == 2 ? 4 : w == 4 ? 8 : w == 8 ? 12 : w == 16 ? 2 : 0;
}

/* FL_SPEED_* of an ibdm IBLinkSpeed code, 0 when none. */
static uint8_t speed_of(uint64_t s) {
  static const struct {
    uint32_t code;
    uint8_t speed;
  } map[] = {
      {1, FL_SPEED_SDR},    {2, FL_SPEED_DDR},       {4, FL_SPEED_QDR},
      {256, FL_SPEED_FDR},  {512, FL_SPEED_EDR},     {1024, FL_SPEED_HDR},
      {2048, FL_SPEED_NDR}, {65536, FL_SPEED_FDR10}, {16777216, FL_SPEED_XDR}};
  for (size_t i = 0; i < sizeof map / sizeof *map; i++)
    if (map[i].code == s)
      return map[i].speed;
  return FL_SPEED_UNKNOWN;
}

static int port_row(topo *t, dbc_rd *r, fl_prov pv) {
  uint64_t g, num = 0, pguid = 0, lid = 0, lmc = 0, w = 0, s = 0, st = 0,
              ph = 0;
  int rc = FL_OK;
  if ((rc = get_guid(t, r, P_NODE, &g)) ||
      (rc = get_num(t, r, P_NUM, 255, &num)) ||
      (rc = get_num(t, r, P_LID, 0xffff, &lid)) ||
      (rc = get_num(t, r, P_LMC, 7, &lmc)) ||
      (rc = get_num(t, r, P_WIDTH, 0xff, &w)) ||
      (rc = get_num(t, r, P_SPEED, 0xffffffff, &s)) ||
      (rc = get_num(t, r, P_STATE, 0xff, &st)) ||
      (rc = get_num(t, r, P_PHYS, 0xff, &ph)))
    return rc;
  const dbf *pg = field(t, r, P_GUID);
  if (pg && dbc_guid(pg->s, &pguid) != 0)
    return dbc_err(r, pg->col,
                   "section PORTS: expected a GUID in column PortGuid, got "
                   "`%.40s`",
                   pg->s);
  uint32_t n = node_of(t, r, P_NODE, g, &rc);
  if (n == FL_MAP_ABSENT)
    return rc;
  tport *tp = port_rec(t, n, (uint32_t)num);
  fl_id p = tp ? fl_b_port(t->fab, t->nodes[n].id, (uint32_t)num, pv) : FL_NONE;
  if (p == FL_NONE)
    return dbc_nomem(r);
  if (tp->line)
    return dbc_err(r, r->f[t->col[P_NUM]].col,
                   "section PORTS: port %u of node 0x%016llx is listed "
                   "twice (first on line %u; expected one row per port)",
                   (unsigned)num, (unsigned long long)g, tp->line);
  tp->width = width_of(w);
  tp->speed = speed_of(s);
  tp->line = r->line;
  /* a switch answers with one LID and one port GUID, on port 0 */
  int sw = t->nodes[n].kind == FL_NODE_SWITCH;
  if (pguid && (!sw || num == 0))
    fl_b_port_set_guid(t->fab, p, pguid);
  if (lid && (!sw || num == 0))
    fl_b_port_set_lid(t->fab, p, (uint32_t)lid, (uint32_t)lmc);
  if (num == 0 || st == 0 || st >= FL_PORT_STATES || ph == 0 ||
      ph >= FL_PHYS_STATES)
    return FL_OK; /* port 0 is the switch itself; no state to say */
  char v[64];
  snprintf(v, sizeof v, "%s/%s", fl_port_state_words[st],
           fl_phys_state_words[ph]);
  return fl_b_attr(t->fab, FL_ENT_PORT, p, "state", v) != FL_OK ? dbc_nomem(r)
                                                                : FL_OK;
}

static int link_row(topo *t, dbc_rd *r, fl_prov pv) {
  (void)pv;
  uint64_t g1, g2, p1 = 0, p2 = 0;
  int rc = FL_OK;
  if ((rc = get_guid(t, r, L_G1, &g1)) ||
      (rc = get_num(t, r, L_P1, 255, &p1)) ||
      (rc = get_guid(t, r, L_G2, &g2)) || (rc = get_num(t, r, L_P2, 255, &p2)))
    return rc;
  if (grow((void **)&t->links, &t->lcap, t->nl, sizeof *t->links))
    return dbc_nomem(r);
  t->links[t->nl++] = (tlink){g1,
                              g2,
                              0,
                              (uint32_t)p1,
                              0,
                              (uint32_t)p2,
                              r->line,
                              r->f[t->col[L_G1]].col,
                              r->f[t->col[L_G2]].col};
  return FL_OK;
}

/* A copy of field @slot's text, or NULL (absent, N/A or empty). */
static int dup_field(const topo *t, const dbc_rd *r, int slot, char **out) {
  const dbf *f = field(t, r, slot);
  *out = NULL;
  if (!f || !*f->s)
    return 0;
  *out = strdup(f->s);
  return *out ? 0 : -1;
}

static int cable_row(topo *t, dbc_rd *r, fl_prov pv) {
  (void)pv;
  uint64_t g, num = 0;
  int rc = FL_OK;
  if ((rc = get_guid(t, r, K_NODE, &g)) ||
      (rc = get_num(t, r, K_PORT, 255, &num)))
    return rc;
  if (grow((void **)&t->cables, &t->ccap, t->nc, sizeof *t->cables))
    return dbc_nomem(r);
  tcable *c = &t->cables[t->nc];
  memset(c, 0, sizeof *c);
  t->nc++;
  c->guid = g, c->port = (uint32_t)num, c->line = r->line;
  c->col = r->f[t->col[K_NODE]].col;
  for (int k = 0; k < 4; k++)
    if (dup_field(t, r, K_VENDOR + k, &c->attr[k]))
      return dbc_nomem(r);
  return FL_OK;
}

static int topo_row(void *ctx, dbc_rd *r, fl_prov pv) {
  topo *t = ctx;
  switch (t->sec) {
  case S_NODES:
    return node_row(t, r, pv);
  case S_PORTS:
    return port_row(t, r, pv);
  case S_LINKS:
    return link_row(t, r, pv);
  case S_CABLES:
    return cable_row(t, r, pv);
  case S_AR:
    return dbc_ar_row(&t->ar, r, pv);
  default:
    return FL_OK;
  }
}

/* The cables of LINKS, each port's cable in @peer ((node << 8 | port) ->
 * the LINKS row that built it). */
static int build_links(topo *t, const char *path, fl_error *err,
                       fl_u64map *peer) {
  uint32_t file = fl_b_file(t->fab, path);
  t->built = malloc((t->nl ? t->nl : 1) * sizeof *t->built);
  if (!t->built)
    return fl_error_set(err, FL_ENOMEM, path, 0, 0, "out of memory");
  int rc = FL_OK;
  for (size_t i = 0; i < t->nl; i++) {
    tlink *e = &t->links[i];
    if ((e->a = node_at(t, err, path, "LINKS", e->ga, e->line, e->col_a,
                        &rc)) == FL_MAP_ABSENT ||
        (e->b = node_at(t, err, path, "LINKS", e->gb, e->line, e->col_b,
                        &rc)) == FL_MAP_ABSENT)
      return rc;
  }
  for (size_t i = 0; i < t->nl; i++) {
    t->built[i] = FL_NONE;
    const tlink *l = &t->links[i];
    if (l->a == l->b && l->pa == l->pb)
      return fl_error_set(err, FL_EPARSE, path, l->line, l->col_a,
                          "section LINKS: a cable from port %u of node "
                          "0x%016llx to itself (expected two different "
                          "ports)",
                          l->pa, (unsigned long long)l->ga);
    uint64_t ka = (uint64_t)l->a << 8 | l->pa, kb = (uint64_t)l->b << 8 | l->pb;
    uint32_t ja = fl_u64map_get(peer, ka), jb = fl_u64map_get(peer, kb);
    if (ja != FL_MAP_ABSENT || jb != FL_MAP_ABSENT) {
      const tlink *m = &t->links[ja != FL_MAP_ABSENT ? ja : jb];
      int same =
          (m->a == l->a && m->pa == l->pa && m->b == l->b && m->pb == l->pb) ||
          (m->a == l->b && m->pa == l->pb && m->b == l->a && m->pb == l->pa);
      if (same)
        continue; /* the same cable listed again */
      return fl_error_set(
          err, FL_EPARSE, path, l->line, 1,
          "section LINKS: port %u of node 0x%016llx is "
          "already cabled on line %u (expected each port in "
          "one cable)",
          ja != FL_MAP_ABSENT ? l->pa : l->pb,
          (unsigned long long)(ja != FL_MAP_ABSENT ? l->ga : l->gb), m->line);
    }
    if (fl_u64map_put(peer, ka, (uint32_t)i) == FL_MAP_ABSENT ||
        fl_u64map_put(peer, kb, (uint32_t)i) == FL_MAP_ABSENT)
      return fl_error_set(err, FL_ENOMEM, path, 0, 0, "out of memory");
    fl_prov pv = {file, l->line, 1};
    tport *ta = port_rec(t, l->a, l->pa), *tb = port_rec(t, l->b, l->pb);
    fl_id pa = fl_b_port(t->fab, t->nodes[l->a].id, l->pa, pv);
    fl_id pb = fl_b_port(t->fab, t->nodes[l->b].id, l->pb, pv);
    if (!ta || !tb || pa == FL_NONE || pb == FL_NONE)
      return fl_error_set(err, FL_ENOMEM, path, 0, 0, "out of memory");
    /* port_rec() may have moved the array: read both ends again */
    ta = &t->ports[fl_u64map_get(&t->by_port, ka)];
    fl_id lk = fl_b_link(t->fab, pa, pb, ta->width, ta->speed,
                         FL_LINK_SEEN_A | FL_LINK_SEEN_B, pv);
    if (lk == FL_NONE)
      return fl_error_set(err, FL_ENOMEM, path, 0, 0, "out of memory");
    t->built[i] = lk;
    tb = &t->ports[fl_u64map_get(&t->by_port, kb)];
    if (tb->line && (tb->width != ta->width || tb->speed != ta->speed))
      fl_b_link_set_b_listing(t->fab, lk, tb->width, tb->speed);
  }
  return FL_OK;
}

/* CABLE_INFO's attributes on the links of their ports; a row for a port
 * without a cable is noted. */
static int cable_attrs(topo *t, const char *path, fl_error *err,
                       const fl_u64map *peer) {
  uint32_t file = fl_b_file(t->fab, path), alone = 0;
  int rc = FL_OK;
  fl_u64map seen = {0}; /* (node << 8 | port) -> CABLE_INFO row */
  for (size_t i = 0; i < t->nc && rc == FL_OK; i++) {
    tcable *c = &t->cables[i];
    if ((c->node = node_at(t, err, path, "CABLE_INFO", c->guid, c->line, c->col,
                           &rc)) == FL_MAP_ABSENT)
      break;
    uint32_t first =
        fl_u64map_put(&seen, (uint64_t)c->node << 8 | c->port, (uint32_t)i);
    if (first == FL_MAP_ABSENT)
      rc = fl_error_set(err, FL_ENOMEM, path, 0, 0, "out of memory");
    else if (first != i)
      rc = fl_error_set(err, FL_EPARSE, path, c->line, c->col,
                        "section CABLE_INFO: port %u of node 0x%016llx is "
                        "listed twice (first on line %u; expected one row "
                        "per port)",
                        c->port, (unsigned long long)c->guid,
                        t->cables[first].line);
    if (rc != FL_OK)
      break;
    uint32_t j = fl_u64map_get(peer, (uint64_t)c->node << 8 | c->port);
    if (j == FL_MAP_ABSENT) {
      if (!alone++) {
        fl_prov pv = {file, c->line, 1};
        fl_b_note(t->fab, "topology", pv,
                  "CABLE_INFO of port %u of node 0x%016llx not used: LINKS "
                  "lists no cable on that port",
                  c->port, (unsigned long long)c->guid);
      }
      continue;
    }
    fl_id lk = t->built[j];
    for (int k = 0; lk != FL_NONE && k < 4 && rc == FL_OK; k++)
      if (c->attr[k] && fl_b_attr(t->fab, FL_ENT_LINK, lk, CABLE_ATTR[k],
                                  c->attr[k]) != FL_OK)
        rc = fl_error_set(err, FL_ENOMEM, path, 0, 0, "out of memory");
  }
  fl_u64map_free(&seen);
  if (rc != FL_OK)
    return rc;
  if (alone > 1) {
    fl_prov pv = {file, 0, 0};
    fl_b_note(t->fab, "topology", pv,
              "%u CABLE_INFO rows of ports without a cable in LINKS not used "
              "in all",
              alone);
  }
  return FL_OK;
}

static int load_ibdiag_db(fl_fabric *fab, const fl_input *in,
                          const fl_load_options *opts, fl_error *err) {
  topo t;
  memset(&t, 0, sizeof t);
  t.fab = fab;
  t.ar = (dbc_ar){-1, -1, -1, -1};
  int rc = FL_OK;
  if (opts && opts->node_name_map) {
    t.have_names = 1;
    rc = fl_nodemap_read(&t.names, opts, err);
  }
  dbc_handler h = {topo_begin, topo_row, &t};
  if (rc == FL_OK)
    rc = dbc_walk(fab, in, err, &h);
  if (rc == FL_OK && t.n_nodes == 0)
    rc = fl_error_set(err, FL_EPARSE, in->path, 0, 0,
                      "no NODES section: expected START_NODES with the "
                      "nodes of the fabric (a db_csv of AR state only loads "
                      "with --input-format ibdiagnet-db-csv beside a "
                      "topology)");
  if (rc == FL_OK && t.n_links == 0)
    rc = fl_error_set(err, FL_EPARSE, in->path, 0, 0,
                      "no LINKS section: the dump lists no cable (ibdiagnet "
                      "writes LINKS in every run: is the file cut, or "
                      "written with --disable_output?); expected START_LINKS "
                      "with the cables, or the fabric from the run's "
                      ".ibnetdiscover or .lst");
  fl_u64map peer = {0};
  if (rc == FL_OK)
    rc = build_links(&t, in->path, err, &peer);
  if (rc == FL_OK)
    rc = cable_attrs(&t, in->path, err, &peer);
  fl_u64map_free(&peer);
  topo_free(&t);
  return rc;
}

/* The format registry row (formats.h). The dump's detector is the
 * routing-state role's (dbcsv_load.c detect_dbcsv()): it says which role a
 * dump takes. */
const fl_format_def fl_fmt_ibdiag_db = {
    FL_FMT_IBDIAG_DB,
    "ibdiagnet-db",
    NULL,
    FL_FORMAT_TOPOLOGY,
    load_ibdiag_db,
    NULL,
    "ibdiagnet2.db_csv with NODES, PORTS and LINKS sections"};
