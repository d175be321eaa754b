/* SPDX-License-Identifier: MIT */
/*
 * core/io/subnet_lst.c — OpenSM opensm-subnet.lst topology dump.
 *
 * Format (see also docs/routing-inputs.md):
 * fl_load_subnet_lst(): OpenSM osm_dump.c dump_topology_node(), one line
 * per connected port listing both ends: `{ <SW|CA|Rt>[-SM] Ports:<hex>
 * SystemGUID:<hex> NodeGUID:<hex> PortGUID:<hex> VenID:<hex> DevID:<hex>
 * Rev:<hex> {<desc>} LID:<hex> PN:<hex> } { <peer> } PHY=<w> LOG=<s>
 * SPD=<s>`. Ports/PN/LID are hex. A DevID of more than 4 hex digits is the
 * byte-swapped 32-bit quirk: its upper 16 bits are the device id. A record
 * typed CA with a switch-ASIC device id, more than 2 ports and one LID on
 * every listed port is kept as typed (diff compares the kinds), marked
 * `kind-conflict=switch-asic` with one note for all of them (sw_asic(),
 * mark_asics()): the LID and back-to-back rules do not judge it (F10).
 *
 * The shared line reader, token parsers and GUID/LID resolution are in
 * routing_read.h.
 */
#define _GNU_SOURCE /* memmem */
#include "io/formats.h"
#include "io/routing_read.h"

#include "io/nodemap.h"

/* ======================================================================
 * opensm-subnet.lst (topology)
 * ====================================================================== */

/* One half of a line: one end of the cable. */
typedef struct half {
  uint32_t kind, nports, vendid, devid, lid, pn;
  uint64_t sysguid, nodeguid, portguid;
  const char *desc;
  size_t desc_len;
} half;

typedef struct snode {
  fl_id id;
  uint32_t kind;
  uint32_t lid;           /* the first LID of its ports seen (asic only) */
  uint8_t asic, lid_diff; /* sw_asic(); ports with different LIDs seen */
  uint32_t line;          /* where it was first listed (asic: the note) */
  uint32_t devid, nports;
  uint64_t guid;
} snode;

typedef struct slisting {
  uint32_t a, b;   /* snode indices */
  uint32_t pa, pb; /* port numbers */
  uint32_t line;
  uint8_t width, speed;
} slisting;

typedef struct slst {
  rd r;
  snode *nodes;
  size_t nn, ncap;
  slisting *ls;
  size_t nl, lcap;
  fl_u64map by_guid; /* node GUID -> snode index */
  fl_u64map by_port; /* snode << 8 | port -> first listing there */
  fl_nodemap names;
  int have_names;
} slst;

static void slst_free(slst *s) {
  free(s->nodes);
  free(s->ls);
  fl_u64map_free(&s->by_guid);
  fl_u64map_free(&s->by_port);
  fl_nodemap_free(&s->names);
}

/* "SW", "CA", "Rt", "**", optionally followed by "-SM". */
static int sn_type(rd *r, const char **pp, const char *e, uint32_t *kind) {
  const char *p = *pp, *q = p;
  while (q < e && !is_blank(*q))
    q++;
  size_t n = (size_t)(q - p);
  if (n > 3 && memcmp(q - 3, "-SM", 3) == 0)
    n -= 3;
  if (n == 2 && memcmp(p, "SW", 2) == 0)
    *kind = FL_NODE_SWITCH;
  else if (n == 2 && memcmp(p, "CA", 2) == 0)
    *kind = FL_NODE_CA;
  else if (n == 2 && (memcmp(p, "Rt", 2) == 0 || memcmp(p, "RT", 2) == 0))
    *kind = FL_NODE_ROUTER;
  else if (n == 2 && memcmp(p, "**", 2) == 0)
    *kind = 0;
  else
    return perr(r, p, "expected a node type (SW, CA, Rt or **) after \"{\"");
  *pp = q;
  return FL_OK;
}

/* "Key:HEX" fields up to the "{desc}". */
static int sn_fields(rd *r, const char **pp, const char *e, half *h) {
  const char *p = *pp;
  for (;;) {
    p = skip_ws(p, e);
    if (p >= e)
      return perr(r, p, "expected \"{<description>}\"");
    if (*p == '{')
      break;
    const char *k = p;
    while (p < e && *p != ':' && !is_blank(*p))
      p++;
    if (p >= e || *p != ':')
      return perr(r, k, "expected \"<Key>:<hex>\" or \"{<description>}\"");
    size_t kl = (size_t)(p - k);
    const char *d = ++p;
    uint64_t v;
    int n = scan_hex(&p, e, &v);
    if (n == 0)
      return perr(r, d, "expected 1 to 16 hex digits after \"%.*s:\"", (int)kl,
                  k);
    if (n > 16)
      return perr(r, d, "%.*s %.*s%s is out of range (at most 16 hex digits)",
                  (int)kl, k, NUMQ(d, p));
    if (kl == 5 && memcmp(k, "Ports", 5) == 0 && v > 0xff)
      return perr(r, d,
                  "port count %.*s%s is out of range (allowed 0..FF: a "
                  "NodeInfo NumPorts byte)",
                  NUMQ(d, p));
    if (kl == 5 && memcmp(k, "Ports", 5) == 0)
      h->nports = (uint32_t)v;
    else if (kl == 10 && memcmp(k, "SystemGUID", 10) == 0)
      h->sysguid = v;
    else if (kl == 8 && memcmp(k, "NodeGUID", 8) == 0)
      h->nodeguid = v;
    else if (kl == 8 && memcmp(k, "PortGUID", 8) == 0)
      h->portguid = v;
    else if (kl == 5 && memcmp(k, "VenID", 5) == 0)
      h->vendid = (uint32_t)(v & 0xffffff);
    else if (kl == 5 && memcmp(k, "DevID", 5) == 0)
      h->devid = n > 4 ? (uint32_t)((v >> 16) & 0xffff) : (uint32_t)v;
  }
  *pp = p;
  return FL_OK;
}

/* "{ T Ports:.. ... {desc} LID:hhhh PN:hh }" */
static int sn_half(rd *r, const char **pp, const char *e, half *h) {
  const char *p = skip_ws(*pp, e);
  int rc;
  memset(h, 0, sizeof *h);
  if (p >= e || *p != '{')
    return perr(r, p, "expected \"{\" and a port description");
  p = skip_ws(p + 1, e);
  if ((rc = sn_type(r, &p, e, &h->kind)) || (rc = sn_fields(r, &p, e, h)))
    return rc;
  const char *d = p + 1;
  const char *q = memmem(d, (size_t)(e - d), "} LID:", 6);
  if (!q)
    return perr(r, p, "expected \"} LID:\" after the node description");
  h->desc = d;
  h->desc_len = (size_t)(q - d);
  p = q + 6;
  const char *ld = p;
  uint64_t v;
  int n = scan_hex(&p, e, &v);
  if (n == 0)
    return perr(r, ld, "expected the LID as 1 to 4 hex digits");
  if (n > 4)
    return perr(r, ld,
                "LID %.*s%s is out of range (allowed 0..FFFF, 1 to 4 hex "
                "digits)",
                NUMQ(ld, p));
  h->lid = (uint32_t)v;
  p = skip_ws(p, e);
  if (!starts_with(p, e, "PN:"))
    return perr(r, p, "expected \"PN:<hex port number>\"");
  ld = p += 3;
  n = scan_hex(&p, e, &v);
  if (n == 0)
    return perr(r, ld, "expected the port number as 1 or 2 hex digits");
  if (n > 2)
    return perr(r, ld,
                "port number %.*s%s is out of range (allowed 0..FF, 1 or 2 "
                "hex digits)",
                NUMQ(ld, p));
  h->pn = (uint32_t)v;
  p = skip_ws(p, e);
  if (p >= e || *p != '}')
    return perr(r, p, "expected \"}\" closing the port description");
  *pp = p + 1;
  return FL_OK;
}

static uint32_t sn_speed(const char *p, size_t n) {
  static const struct {
    const char *s;
    uint32_t code;
  } map[] = {
      {"2.5", FL_SPEED_SDR},     {"5", FL_SPEED_DDR},   {"10", FL_SPEED_QDR},
      {"FDR10", FL_SPEED_FDR10}, {"14", FL_SPEED_FDR},  {"25", FL_SPEED_EDR},
      {"50", FL_SPEED_HDR},      {"100", FL_SPEED_NDR}, {"200", FL_SPEED_XDR}};
  for (size_t i = 0; i < sizeof map / sizeof *map; i++)
    if (strlen(map[i].s) == n && memcmp(map[i].s, p, n) == 0)
      return map[i].code;
  return FL_SPEED_UNKNOWN;
}

/* "PHY=4x LOG=ACT SPD=50" (SPD absent in old files). */
static int sn_tail(rd *r, const char *p, const char *e, slisting *l) {
  for (;;) {
    p = skip_ws(p, e);
    if (p >= e)
      return FL_OK;
    const char *t = p;
    while (p < e && !is_blank(*p))
      p++;
    const char *eq = memchr(t, '=', (size_t)(p - t));
    if (!eq)
      return perr(r, t, "expected PHY=, LOG= or SPD= after the two ports");
    const char *v = eq + 1;
    size_t kl = (size_t)(eq - t), vl = (size_t)(p - v);
    if (kl == 3 && memcmp(t, "PHY", 3) == 0)
      l->width = (uint8_t)fl_width_parse(v, vl);
    else if (kl == 3 && memcmp(t, "SPD", 3) == 0)
      l->speed = (uint8_t)sn_speed(v, vl);
  }
}

/* Device ids of Mellanox/NVIDIA InfiniBand switch ASICs: the MT part
 * number in hex (MT43132 InfiniScale = 0xa87c, MT47396 InfiniScale-III =
 * 0xb924, MT48436-8 InfiniScale-IV, MT51000 SwitchX, MT52000 Switch-IB,
 * MT53000 Switch-IB 2, MT54000/54002/54004 Quantum/-2/-3). */
static const uint16_t SWITCH_DEVIDS[] = {0xa87c, 0xb924, 0xbd34, 0xbd35,
                                         0xbd36, 0xc738, 0xcb20, 0xcf08,
                                         0xd2f0, 0xd2f2, 0xd2f4};

/* 1 when record @h says CA but looks like a switch ASIC: a switch device
 * id and more than 2 ports (an HCA node has 1 or 2). ibutils'
 * RhinoBased512.lst types its 216 InfiniScale-III ASICs (DevID B924, 24
 * ports) "CA"; judged as CAs they gave 4,776 false "shared LID" findings
 * and 2,752 "back-to-back host cables" (issue 30, F10). */
static int sw_asic(const half *h) {
  if (h->kind != FL_NODE_CA || h->nports <= 2)
    return 0;
  for (size_t i = 0; i < sizeof SWITCH_DEVIDS / sizeof *SWITCH_DEVIDS; i++)
    if (h->devid == SWITCH_DEVIDS[i])
      return 1;
  return 0;
}

/* The snode of @h, created with its description on first sight. */
static uint32_t sn_node(slst *s, const half *h) {
  rd *r = &s->r;
  uint32_t idx = fl_u64map_get(&s->by_guid, h->nodeguid);
  if (idx != FL_MAP_ABSENT)
    return idx;
  if (s->nn == s->ncap) {
    size_t cap = s->ncap ? s->ncap * 2 : 256;
    snode *nv = realloc(s->nodes, cap * sizeof *nv);
    if (!nv)
      return UINT32_MAX;
    s->nodes = nv;
    s->ncap = cap;
  }
  uint32_t kind = h->kind ? h->kind : FL_NODE_CA;
  fl_id id = fl_b_node(r->fab, kind, h->nodeguid, h->nports, rd_prov(r, NULL));
  if (id == FL_NONE)
    return UINT32_MAX;
  fl_b_node_set_desc(r->fab, id, h->desc, h->desc_len);
  fl_b_node_set_ids(r->fab, id, h->vendid, h->devid, h->sysguid);
  if (s->have_names) {
    const char *nm = fl_nodemap_lookup(&s->names, h->nodeguid);
    if (nm)
      fl_b_node_set_name(r->fab, id, nm, (size_t)-1);
  }
  if (!h->kind)
    fl_b_note(r->fab, "topology", rd_prov(r, NULL),
              "node 0x%016llx has node type \"**\" (unknown); taken as a CA",
              (unsigned long long)h->nodeguid);
  s->nodes[s->nn].id = id;
  s->nodes[s->nn].kind = kind;
  s->nodes[s->nn].lid = 0;
  s->nodes[s->nn].asic = (uint8_t)sw_asic(h);
  s->nodes[s->nn].lid_diff = 0;
  s->nodes[s->nn].line = r->lineno;
  s->nodes[s->nn].devid = h->devid;
  s->nodes[s->nn].nports = h->nports;
  s->nodes[s->nn].guid = h->nodeguid;
  if (fl_u64map_put(&s->by_guid, h->nodeguid, (uint32_t)s->nn) == FL_MAP_ABSENT)
    return UINT32_MAX;
  return (uint32_t)s->nn++;
}

/* Port records of one end: a switch's LID and port GUID sit on port 0. */
static int sn_port(slst *s, uint32_t idx, const half *h) {
  rd *r = &s->r;
  fl_fabric *fab = r->fab;
  fl_id n = s->nodes[idx].id;
  fl_id p = fl_b_port(fab, n, h->pn, rd_prov(r, NULL));
  if (p == FL_NONE)
    return FL_ENOMEM;
  fl_id lp = p;
  if (s->nodes[idx].kind == FL_NODE_SWITCH) {
    lp = fl_b_port(fab, n, 0, rd_prov(r, NULL));
    if (lp == FL_NONE)
      return FL_ENOMEM;
  }
  if (h->portguid)
    fl_b_port_set_guid(fab, lp, h->portguid);
  if (h->lid)
    fl_b_port_set_lid(fab, lp, h->lid, 0);
  snode *sn = &s->nodes[idx];
  if (sn->asic && h->lid && sn->lid && h->lid != sn->lid)
    sn->lid_diff = 1;
  else if (sn->asic && h->lid)
    sn->lid = h->lid;
  return FL_OK;
}

/* The records typed CA that look like switch ASICs (sw_asic(), and one LID
 * on every listed port, as a switch answers): kept as CAs as the capture
 * types them, marked `kind-conflict=switch-asic` (topology.lid and
 * topology.direct-port-index do not judge them), with one note saying the
 * capture is inconsistent. FL_OK or FL_ENOMEM. */
static int mark_asics(slst *s) {
  uint32_t n = 0;
  const snode *first = NULL;
  for (size_t i = 0; i < s->nn; i++) {
    const snode *sn = &s->nodes[i];
    if (!sn->asic || sn->lid_diff || !sn->lid)
      continue;
    if (fl_b_attr(s->r.fab, FL_ENT_NODE, sn->id, "kind-conflict",
                  "switch-asic") != FL_OK)
      return FL_ENOMEM;
    if (!n++)
      first = sn;
  }
  if (n) {
    fl_prov pv = {s->r.file, first->line, 1};
    fl_b_note(s->r.fab, "topology", pv,
              "%u node(s) typed CA look like switch ASICs (a switch device "
              "id, more than 2 ports and one LID on every port; first: node "
              "0x%016llx, DevID 0x%04x, %u ports): the capture is "
              "inconsistent; kept as CAs as typed, their shared LID and "
              "host-to-host cables are not judged",
              n, (unsigned long long)first->guid, first->devid, first->nports);
  }
  return FL_OK;
}

static int sn_line(slst *s) {
  rd *r = &s->r;
  const char *p = skip_ws(r->ls, r->le), *e = r->le;
  if (p >= e || *p == '#')
    return FL_OK;
  r->what = "subnet.lst";
  half a, b;
  int rc;
  if ((rc = sn_half(r, &p, e, &a)) || (rc = sn_half(r, &p, e, &b)))
    return rc;
  if (s->nl == s->lcap) {
    size_t cap = s->lcap ? s->lcap * 2 : 1024;
    slisting *nv = realloc(s->ls, cap * sizeof *nv);
    if (!nv)
      return oom(r);
    s->ls = nv;
    s->lcap = cap;
  }
  slisting *l = &s->ls[s->nl];
  memset(l, 0, sizeof *l);
  if ((rc = sn_tail(r, p, e, l)))
    return rc;
  l->a = sn_node(s, &a);
  l->b = sn_node(s, &b);
  if (l->a == UINT32_MAX || l->b == UINT32_MAX)
    return oom(r);
  l->pa = a.pn;
  l->pb = b.pn;
  l->line = r->lineno;
  if (sn_port(s, l->a, &a) || sn_port(s, l->b, &b))
    return oom(r);
  s->nl++;
  return FL_OK;
}

/* Both listings of one cable become one link (as core/ibnd.c merges). */
static int sn_merge(slst *s) {
  fl_fabric *fab = s->r.fab;
  for (size_t i = 0; i < s->nl; i++)
    if (fl_u64map_put(&s->by_port, ((uint64_t)s->ls[i].a << 8) | s->ls[i].pa,
                      (uint32_t)i) == FL_MAP_ABSENT)
      return FL_ENOMEM;
  uint8_t *done = calloc(s->nl ? s->nl : 1, 1);
  if (!done)
    return FL_ENOMEM;
  /* OpenSM's subnet.lst lists a cable twice, once from each end, so a line
   * without its partner is a cable one end did not list (a cut file).
   * ibdiagnet's .lst (the same grammar, ibdiagnet 2.x) lists each cable
   * once, with both ends on the line: a file in which no cable is listed
   * twice is of that kind, and its cables are known from both ends (a
   * real 2025 NDR capture's 271 cables were all called one-sided). */
  int once = 1;
  for (size_t i = 0; i < s->nl && once; i++) {
    uint32_t j =
        fl_u64map_get(&s->by_port, ((uint64_t)s->ls[i].b << 8) | s->ls[i].pb);
    once = !(j != FL_MAP_ABSENT && j != i && s->ls[j].b == s->ls[i].a &&
             s->ls[j].pb == s->ls[i].pa);
  }
  int rc = FL_OK;
  for (size_t i = 0; i < s->nl && rc == FL_OK; i++) {
    if (done[i])
      continue;
    done[i] = 1;
    const slisting *l = &s->ls[i];
    fl_prov pv = {s->r.file, l->line, 1};
    fl_id pa = fl_b_port(fab, s->nodes[l->a].id, l->pa, pv);
    fl_id pb = fl_b_port(fab, s->nodes[l->b].id, l->pb, pv);
    uint32_t j = fl_u64map_get(&s->by_port, ((uint64_t)l->b << 8) | l->pb);
    uint32_t flags = FL_LINK_SEEN_A;
    if (j != FL_MAP_ABSENT &&
        (s->ls[j].b != l->a || s->ls[j].pb != l->pa || (j != i && done[j])))
      j = FL_MAP_ABSENT;
    if (j != FL_MAP_ABSENT || once)
      flags |= FL_LINK_SEEN_B;
    fl_id lk = pa == FL_NONE || pb == FL_NONE
                   ? FL_NONE
                   : fl_b_link(fab, pa, pb, l->width, l->speed, flags, pv);
    if (lk == FL_NONE) {
      rc = FL_ENOMEM;
      break;
    }
    if (j != FL_MAP_ABSENT && j != i) {
      done[j] = 1;
      const slisting *m = &s->ls[j];
      if (m->width != l->width || m->speed != l->speed)
        fl_b_link_set_b_listing(fab, lk, m->width, m->speed);
    }
  }
  free(done);
  return rc;
}

int fl_load_subnet_lst(fl_fabric *fab, const fl_input *in,
                       const fl_load_options *opts, fl_error *err) {
  const char *path = in->path;
  slst s;
  memset(&s, 0, sizeof s);
  int rc;
  if (opts && opts->node_name_map) {
    s.have_names = 1;
    if ((rc = fl_nodemap_read(&s.names, opts, err)) != FL_OK) {
      slst_free(&s);
      return rc;
    }
  }
  if ((rc = rd_open(&s.r, fab, in, err)) != FL_OK) {
    slst_free(&s);
    return rc;
  }
  while ((rc = rd_next(&s.r)) == 1) {
    rc = sn_line(&s);
    if (rc == FL_OK)
      rc = rd_tail_ok(&s.r);
    if (rc)
      break;
  }
  if (rc == FL_OK && (sn_merge(&s) != FL_OK || mark_asics(&s) != FL_OK))
    rc = fl_error_set(err, FL_ENOMEM, path, 0, 0, "out of memory");
  rd_close(&s.r);
  slst_free(&s);
  return rc;
}

/* ---- the format registry row (formats.h) ---- */

const fl_format_def fl_fmt_subnet_lst = {
    FL_FMT_SUBNET_LST,
    "subnet-lst",
    NULL,
    FL_FORMAT_TOPOLOGY | FL_FORMAT_NUL_INLINE,
    fl_load_subnet_lst,
    fl_detect_routing,
    "opensm-subnet.lst (\"{ SW Ports:\" lines)"};
