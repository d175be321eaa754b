/* SPDX-License-Identifier: MIT */
/*
 * core/model/counters.c — port counters attached to the model (public side:
 * include/fabriclint/counters.h; loaders' side: core/model/counters.h).
 *
 * Why a module of its own: counters are observations of the running fabric,
 * not topology and not routing state. They arrive in several formats keyed
 * in several ways (GUID + port from ibqueryerrors, the exporter and
 * ibdiagnet; LID + port from perfquery; node names), in one or two
 * snapshots, and must land on the ports of whatever topology was loaded —
 * a discovered dump or a plan — without creating ports (that would change
 * the topology the other rules judge). So records are kept as read, and
 * resolved at fl_fabric_finalize(), when names, LIDs (routing dumps may
 * supply them) and the alias layer are final; a record that finds no port is
 * kept as "unmapped" for the health plugin to report.
 *
 * Storage: one small record per (input, port) and the values of the
 * counters it has, packed (a perfquery -x record has 20 values, an
 * ibqueryerrors record two or three). After finalize, per snapshot one
 * uint32 per port names its record. For 200,000 ports: ~30 MB per
 * snapshot of perfquery -x data, O(records) to attach.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabriclint/routing.h"
#include "model/alias.h"
#include "model/counters.h"
#include "model/fabric_impl.h"
#include "model/grow.h"

#define NO_REC UINT32_MAX

typedef struct ctr_rec {
  uint64_t guid;
  uint64_t mask;
  uint32_t lid, port, name; /* name: atom, 0 = none */
  uint32_t snap;            /* snapshot (load order until finalize) */
  fl_id node;    /* the node itself (a plane subset's copy), FL_NONE: keys */
  uint32_t what; /* atom: the whole fabric's description of an unmapped
                    record a plane subset copied, 0: describe() it */
  size_t voff;   /* first value in fl_counters.vals */
  fl_prov prov;
} ctr_rec;

typedef struct fl_counters {
  ctr_rec *recs;
  size_t n, cap;
  uint64_t *vals;
  size_t nv, capv;
  uint32_t n_snaps;   /* 0..2 */
  int timed;          /* snapshots have capture times */
  double time[2];     /* per snapshot, when timed */
  int complete[2];    /* some input of the snapshot lists every port read */
  uint32_t latest;    /* after finalize: index of the latest snapshot */
  uint32_t *at[2];    /* after finalize: per port id, record or NO_REC */
  uint32_t *unmapped; /* record indexes */
  uint32_t *um_what;  /* atoms */
  fl_id *um_node;
  size_t n_unmapped;
} fl_counters;

struct fl_ctr_batch {
  fl_fabric *fab;
  uint32_t file;
  size_t first_rec, first_val;
};

/* ---- names and widths ---------------------------------------------------- */

static const char *const NAMES[FL_CTR_COUNT] = {
    "SymbolErrorCounter",
    "LinkErrorRecoveryCounter",
    "LinkDownedCounter",
    "PortRcvErrors",
    "PortRcvRemotePhysicalErrors",
    "PortRcvSwitchRelayErrors",
    "PortXmitDiscards",
    "PortXmitConstraintErrors",
    "PortRcvConstraintErrors",
    "LocalLinkIntegrityErrors",
    "ExcessiveBufferOverrunErrors",
    "VL15Dropped",
    "PortXmitWait",
    "PortXmitData",
    "PortRcvData",
    "PortXmitPkts",
    "PortRcvPkts",
    "PortUnicastXmitPkts",
    "PortUnicastRcvPkts",
    "PortMulticastXmitPkts",
    "PortMulticastRcvPkts",
    "QP1Dropped",
    "PortLocalPhysicalErrors",
    "PortMalformedPktErrors",
    "PortBufferOverrunErrors",
    "PortDLIDMappingErrors",
    "PortVLMappingErrors",
    "PortLoopingErrors",
    "PortInactiveDiscards",
    "PortNeighborMTUDiscards",
    "PortSwLifetimeLimitDiscards",
    "PortSwHOQLifetimeLimitDiscards",
};

/* Field widths in bits of the basic attributes (IBA vol. 1 Table 247
 * PortCounters, Tables 251/252 PortRcvErrorDetails/PortXmitDiscardDetails);
 * 64 for counters that exist only in PortCountersExtended. */
static const uint8_t BITS[FL_CTR_COUNT] = {
    16, 8,  8,  16, 16, 16, 16, 8,  8,  4,  4,  16, 32, 32, 32, 32,
    32, 64, 64, 64, 64, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16};

const char *fl_counter_name(uint32_t ctr) {
  return ctr < FL_CTR_COUNT ? NAMES[ctr] : "?";
}

uint64_t fl_counter_max(uint32_t ctr) {
  if (ctr >= FL_CTR_COUNT || BITS[ctr] >= 64)
    return UINT64_MAX;
  return ((uint64_t)1 << BITS[ctr]) - 1;
}

uint32_t fl_counter_parse(const char *s, size_t len) {
  for (uint32_t i = 0; i < FL_CTR_COUNT; i++)
    if (strlen(NAMES[i]) == len && memcmp(NAMES[i], s, len) == 0)
      return i;
  /* other spellings of real tools: the IBA table's long name, and ibsim's
   * capitalisation of "MultiCast" */
  static const struct {
    const char *name;
    uint32_t id;
  } ALT[] = {{"PortMalformedPacketErrors", FL_CTR_MALFORMED_PKT_ERRORS},
             {"PortMultiCastXmitPkts", FL_CTR_MULTICAST_XMIT_PKTS},
             {"PortMultiCastRcvPkts", FL_CTR_MULTICAST_RCV_PKTS}};
  for (size_t i = 0; i < sizeof ALT / sizeof *ALT; i++)
    if (strlen(ALT[i].name) == len && memcmp(ALT[i].name, s, len) == 0)
      return ALT[i].id;
  return FL_CTR_COUNT;
}

/* ---- capture times --------------------------------------------------------
 */

/* Days from 1970-01-01 to y-m-d (proleptic Gregorian; H. Hinnant's
 * days_from_civil). */
static int64_t days_from_civil(int64_t y, unsigned m, unsigned d) {
  y -= m <= 2;
  int64_t era = (y >= 0 ? y : y - 399) / 400;
  unsigned yoe = (unsigned)(y - era * 400);
  unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + (int64_t)doe - 719468;
}

static int digits(const char **p, const char *e, int n, int *v) {
  int x = 0;
  for (int i = 0; i < n; i++, (*p)++) {
    if (*p >= e || **p < '0' || **p > '9')
      return -1;
    x = x * 10 + (**p - '0');
  }
  *v = x;
  return 0;
}

static const char *skip_blank(const char *p, const char *e) {
  while (p < e && (*p == ' ' || *p == '\t'))
    p++;
  return p;
}

/* "+hh:mm", "+hhmm", "-hh" ...: offset east of UTC in seconds. */
static int zone_offset(const char **pp, const char *e, double *off) {
  const char *p = *pp;
  int sign = *p == '-' ? -1 : 1, hh, mm = 0;
  p++;
  if (digits(&p, e, 2, &hh) != 0)
    return -1;
  if (p < e && *p == ':')
    p++;
  if (p < e && *p >= '0' && *p <= '9' && digits(&p, e, 2, &mm) != 0)
    return -1;
  if (hh > 23 || mm > 59)
    return -1;
  *off = sign * (hh * 3600.0 + mm * 60.0);
  *pp = p;
  return 0;
}

int fl_ctr_parse_time(const char *s, const char *e, double *t) {
  const char *p = skip_blank(s, e);
  while (e > p && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
    e--;
  if (p < e && *p == '@') {
    char buf[64];
    size_t n = (size_t)(e - p - 1);
    if (n == 0 || n >= sizeof buf)
      return -1;
    memcpy(buf, p + 1, n);
    buf[n] = '\0';
    char *end;
    double v = strtod(buf, &end);
    if (*end || !isfinite(v) || v < 0)
      return -1;
    *t = v;
    return 0;
  }
  int y, mo, d, h, mi, sec;
  if (digits(&p, e, 4, &y) || p >= e || *p++ != '-' || digits(&p, e, 2, &mo) ||
      p >= e || *p++ != '-' || digits(&p, e, 2, &d) || p >= e ||
      (*p != 'T' && *p != ' '))
    return -1;
  p++;
  if (digits(&p, e, 2, &h) || p >= e || *p++ != ':' || digits(&p, e, 2, &mi) ||
      p >= e || *p++ != ':' || digits(&p, e, 2, &sec))
    return -1;
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || sec > 60)
    return -1;
  double frac = 0, scale = 0.1;
  if (p < e && *p == '.') {
    p++;
    if (p >= e || *p < '0' || *p > '9')
      return -1;
    while (p < e && *p >= '0' && *p <= '9') {
      frac += (*p++ - '0') * scale;
      scale /= 10;
    }
  }
  double off = 0;
  p = skip_blank(p, e);
  if (p < e && *p == 'Z')
    p++;
  else if (e - p >= 3 && memcmp(p, "UTC", 3) == 0) {
    p = skip_blank(p + 3, e);
    if (p < e && (*p == '+' || *p == '-') && zone_offset(&p, e, &off) != 0)
      return -1;
  } else if (p < e && (*p == '+' || *p == '-') && zone_offset(&p, e, &off))
    return -1;
  if (skip_blank(p, e) != e)
    return -1;
  *t = (double)days_from_civil(y, (unsigned)mo, (unsigned)d) * 86400.0 +
       h * 3600.0 + mi * 60.0 + sec + frac - off;
  return 0;
}

/* ---- building -------------------------------------------------------------
 */

static fl_counters *state(fl_fabric *fab) {
  if (!fab->counters)
    fab->counters = calloc(1, sizeof *fab->counters);
  return fab->counters;
}

fl_ctr_batch *fl_ctr_begin(fl_fabric *fab, const char *path) {
  fl_counters *c = state(fab);
  fl_ctr_batch *b = c ? calloc(1, sizeof *b) : NULL;
  if (!b)
    return NULL;
  b->fab = fab;
  b->file = fl_b_file(fab, path);
  b->first_rec = c->n;
  b->first_val = c->nv;
  return b;
}

uint32_t fl_ctr_batch_records(const fl_ctr_batch *b) {
  return (uint32_t)(b->fab->counters->n - b->first_rec);
}

/* Append a record with @mask and its values from @vals (indexed by id). */
static int add_rec(fl_counters *c, const ctr_rec *proto, uint64_t mask,
                   const uint64_t *vals) {
  uint32_t k = (uint32_t)__builtin_popcountll(mask);
  if (fl_grow((void **)&c->recs, &c->cap, c->n + 1, sizeof *c->recs) ||
      fl_grow((void **)&c->vals, &c->capv, c->nv + k, sizeof *c->vals))
    return FL_ENOMEM;
  ctr_rec *r = &c->recs[c->n++];
  *r = *proto;
  r->mask = mask;
  r->voff = c->nv;
  for (uint32_t i = 0; i < FL_CTR_COUNT; i++)
    if (mask & ((uint64_t)1 << i))
      c->vals[c->nv++] = vals[i];
  return FL_OK;
}

int fl_ctr_add(fl_ctr_batch *b, const fl_ctr_key *key, uint64_t mask,
               const uint64_t vals[FL_CTR_COUNT], fl_prov prov) {
  fl_counters *c = b->fab->counters;
  ctr_rec r;
  memset(&r, 0, sizeof r);
  r.guid = key->guid;
  r.lid = key->lid;
  r.node = FL_NONE;
  r.port = key->port;
  if (key->name && key->name_len) {
    r.name = fl_b_intern(b->fab, key->name, key->name_len);
    if (r.name == UINT32_MAX)
      return FL_ENOMEM;
  }
  r.prov = prov;
  r.prov.file = b->file;
  return add_rec(c, &r, mask, vals);
}

static void drop_batch(fl_ctr_batch *b) {
  fl_counters *c = b->fab->counters;
  c->n = b->first_rec;
  c->nv = b->first_val;
  free(b);
}

void fl_ctr_abort(fl_ctr_batch *b) {
  if (b)
    drop_batch(b);
}

int fl_ctr_end(fl_ctr_batch *b, int timed, double time, int sparse,
               fl_error *err) {
  fl_fabric *fab = b->fab;
  fl_counters *c = fab->counters;
  const char *path = fl_b_file_path(fab, b->file);
  uint32_t snap = 0;
  if (c->n_snaps > 0 && c->timed != (timed != 0)) {
    drop_batch(b);
    return fl_error_set(
        err, FL_EPARSE, path, 0, 0,
        timed ? "this counter input has a capture time but an earlier one "
                "has none: give every snapshot a time (`# captured "
                "<ISO 8601 time>` line, docs/formats/) or none"
              : "this counter input has no capture time but an earlier one "
                "has: add a `# captured <ISO 8601 time>` line so that it "
                "can be told which snapshot it belongs to");
  }
  if (c->n_snaps == 0) {
    c->n_snaps = 1;
    c->timed = timed != 0;
    c->time[0] = timed ? time : 0;
  } else if (timed) {
    int found = 0;
    for (uint32_t k = 0; k < c->n_snaps && !found; k++)
      if (fabs(c->time[k] - time) < 0.0005)
        snap = k, found = 1;
    if (!found && c->n_snaps == 2) {
      drop_batch(b);
      return fl_error_set(err, FL_EPARSE, path, 0, 0,
                          "a third counter capture time: fabriclint compares "
                          "two snapshots (totals, and rates between them)");
    }
    if (!found) {
      snap = c->n_snaps++;
      c->time[snap] = time;
    }
  }
  if (!sparse)
    c->complete[snap] = 1;
  for (size_t i = b->first_rec; i < c->n; i++)
    c->recs[i].snap = snap;
  free(b);
  return FL_OK;
}

/* ---- attaching records to ports (finalize) ---------------------------------
 */

typedef struct resolver {
  fl_fabric *fab;
  fl_u64map port_guid; /* port GUID -> port id */
  int have_port_guid;
  fl_strmap full, brief; /* canonical names -> first node */
  fl_strmap amb;         /* canonical names that two nodes share */
  int have_names;
  fl_u64map plane_lid; /* (plane << 32 | LID) -> port, multi-plane fabrics */
  int have_plane_lid;
  uint8_t *lid_planes; /* per LID: planes using it (1, 2: two or more) */
} resolver;

/* The per-plane LID index of a multi-plane fabric: every LID a port
 * answers to (base LID .. + 2^LMC - 1) within the port's plane, and how
 * many planes use each LID. */
static int build_plane_lids(resolver *rs) {
  fl_fabric *fab = rs->fab;
  rs->have_plane_lid = 1;
  rs->lid_planes = calloc((size_t)fab->rt.max_lid + 1, 1);
  if (!rs->lid_planes)
    return FL_ENOMEM;
  for (size_t p = 0; p < fab->n_ports; p++) {
    const fl_port_rec *r = &fab->ports[p];
    uint32_t pl = fab->port_plane[p];
    if (!r->lid || pl == FL_NONE)
      continue;
    uint32_t span = 1u << (r->lmc & 7);
    for (uint32_t l = r->lid; l < r->lid + span && l <= fab->rt.max_lid; l++) {
      uint64_t key = (uint64_t)pl << 32 | l;
      uint32_t was = fl_u64map_get(&rs->plane_lid, key);
      if (was != FL_MAP_ABSENT)
        continue; /* another port of the node (a switch's), or a clash */
      if (fl_u64map_put(&rs->plane_lid, key, (uint32_t)p) == FL_MAP_ABSENT)
        return FL_ENOMEM;
      /* a LID first seen in a plane: one more plane uses it */
      if (rs->lid_planes[l] < 2)
        rs->lid_planes[l]++;
    }
  }
  return FL_OK;
}

/* The node that LID @lid names for a record of input @file on a multi-plane
 * fabric: the LID within the input's --plane; an untagged input's LID when
 * one plane alone uses it (the same LID in two planes names two ports, so
 * the record stays unmapped rather than land on either). */
static fl_id plane_lid_node(resolver *rs, uint32_t file, uint32_t lid,
                            int *rc) {
  fl_fabric *fab = rs->fab;
  if (!rs->have_plane_lid && (*rc = build_plane_lids(rs)) != FL_OK)
    return FL_NONE;
  if (lid > fab->rt.max_lid)
    return FL_NONE;
  uint32_t tag = file < fab->cap_file_plane ? fab->file_plane[file] : 0;
  for (uint32_t pl = 0; pl < fab->n_planes; pl++) {
    if (tag ? fab->plane_names[pl] != tag : rs->lid_planes[lid] != 1)
      continue;
    uint32_t p = fl_u64map_get(&rs->plane_lid, (uint64_t)pl << 32 | lid);
    if (p != FL_MAP_ABSENT)
      return fab->ports[p].node;
  }
  return FL_NONE;
}

static int build_port_guids(resolver *rs) {
  fl_fabric *fab = rs->fab;
  rs->have_port_guid = 1;
  for (size_t p = 0; p < fab->n_ports; p++)
    if (fab->ports[p].guid && fl_u64map_put(&rs->port_guid, fab->ports[p].guid,
                                            (uint32_t)p) == FL_MAP_ABSENT)
      return FL_ENOMEM;
  return FL_OK;
}

/* @k names node @n in @m; a spelling two nodes share goes into @amb (the
 * full and the short spellings are told apart by a prefix byte). */
static int name_put(fl_strmap *m, fl_strmap *amb, char kind, char *k,
                    size_t len, fl_id n) {
  uint32_t got = fl_strmap_put(m, k, len, n);
  if (got == FL_MAP_ABSENT)
    return FL_ENOMEM;
  if (got != n) {
    char key[FL_ALIAS_MAX + 1];
    key[0] = kind;
    memcpy(key + 1, k, len);
    if (fl_strmap_put(amb, key, len + 1, 1) == FL_MAP_ABSENT)
      return FL_ENOMEM;
  }
  return FL_OK;
}

static uint32_t name_get(const resolver *rs, const fl_strmap *m, char kind,
                         const char *k, size_t len) {
  char key[FL_ALIAS_MAX + 1];
  key[0] = kind;
  memcpy(key + 1, k, len);
  if (fl_strmap_get(&rs->amb, key, len + 1) != FL_MAP_ABSENT)
    return FL_MAP_ABSENT; /* ambiguous: two nodes answer to it */
  return fl_strmap_get(m, k, len);
}

static int build_names(resolver *rs) {
  fl_fabric *fab = rs->fab;
  rs->have_names = 1;
  char buf[FL_ALIAS_MAX];
  for (size_t n = 0; n < fab->n_nodes; n++) {
    const char *nm = fl_fabric_node_name(fab, (fl_id)n);
    size_t k = fl_alias_node_full(nm, strlen(nm), buf, sizeof buf);
    if (name_put(&rs->full, &rs->amb, 'f', buf, k, (fl_id)n) != FL_OK)
      return FL_ENOMEM;
    k = fl_alias_node(nm, strlen(nm), buf, sizeof buf);
    if (name_put(&rs->brief, &rs->amb, 'b', buf, k, (fl_id)n) != FL_OK)
      return FL_ENOMEM;
  }
  return FL_OK;
}

/* The node record @r names, or FL_NONE; FL_ENOMEM as a negative in *@rc. */
static fl_id resolve_node(resolver *rs, const ctr_rec *r, int *rc) {
  fl_fabric *fab = rs->fab;
  if (r->node != FL_NONE)
    return r->node < fab->n_nodes ? r->node : FL_NONE;
  if (r->guid) {
    if (!rs->have_port_guid && (*rc = build_port_guids(rs)) != FL_OK)
      return FL_NONE;
    uint32_t p = fl_u64map_get(&rs->port_guid, r->guid);
    if (p != FL_MAP_ABSENT)
      return fab->ports[p].node;
    fl_id n = fl_fabric_find_node_guid(fab, r->guid);
    if (n != FL_NONE)
      return n;
  }
  if (r->lid && fab->n_planes >= 2) {
    fl_id n = plane_lid_node(rs, r->prov.file, r->lid, rc);
    if (n != FL_NONE || *rc != FL_OK)
      return n;
  } else if (r->lid) {
    fl_id p = fl_fabric_lid_port(fab, r->lid);
    if (p != FL_NONE)
      return fab->ports[p].node;
  }
  if (r->name) {
    const char *nm = fl_b_atom_str(fab, r->name);
    fl_id n = fl_fabric_find_node_name(fab, nm);
    if (n != FL_NONE)
      return n;
    if (!rs->have_names && (*rc = build_names(rs)) != FL_OK)
      return FL_NONE;
    char buf[FL_ALIAS_MAX];
    size_t k = fl_alias_node_full(nm, strlen(nm), buf, sizeof buf);
    uint32_t v = name_get(rs, &rs->full, 'f', buf, k);
    if (v == FL_MAP_ABSENT) {
      k = fl_alias_node(nm, strlen(nm), buf, sizeof buf);
      v = name_get(rs, &rs->brief, 'b', buf, k);
    }
    if (v != FL_MAP_ABSENT)
      return v;
  }
  return FL_NONE;
}

static void describe(const fl_fabric *fab, const ctr_rec *r, char *buf,
                     size_t size) {
  const char *nm = r->name ? fl_b_atom_str(fab, r->name) : NULL;
  if (r->what)
    snprintf(buf, size, "%s", fl_b_atom_str(fab, r->what));
  else if (r->guid && nm)
    snprintf(buf, size, "GUID 0x%016llx (\"%s\") port %u",
             (unsigned long long)r->guid, nm, r->port);
  else if (r->guid)
    snprintf(buf, size, "GUID 0x%016llx port %u", (unsigned long long)r->guid,
             r->port);
  else if (r->lid && fab->n_planes >= 2 &&
           !(r->prov.file < fab->cap_file_plane &&
             fab->file_plane[r->prov.file]))
    snprintf(buf, size,
             "LID %u port %u (untagged input of a multi-plane fabric: its "
             "LIDs name a port only where one plane alone uses them; give "
             "it its plane with --plane NAME:FILE)",
             r->lid, r->port);
  else if (r->lid)
    snprintf(buf, size, "LID %u port %u", r->lid, r->port);
  else
    snprintf(buf, size, "\"%s\" port %u", nm ? nm : "", r->port);
}

static int add_unmapped(fl_fabric *fab, fl_strmap *seen, uint32_t rec,
                        fl_id node) {
  fl_counters *c = fab->counters;
  char what[512], key[540];
  describe(fab, &c->recs[rec], what, sizeof what);
  size_t len = strlen(what);
  /* the same port named again (the other snapshot) is one record; with
   * planes, the same LID in two --plane inputs is two */
  uint32_t file = c->recs[rec].prov.file;
  uint32_t tag = file < fab->cap_file_plane ? fab->file_plane[file] : 0;
  int klen = snprintf(key, sizeof key, "%u|%s", tag, what);
  uint32_t got = fl_strmap_put(
      seen, key, (size_t)klen < sizeof key ? (size_t)klen : sizeof key - 1,
      (uint32_t)c->n_unmapped);
  if (got == FL_MAP_ABSENT)
    return FL_ENOMEM;
  if (got != c->n_unmapped)
    return FL_OK; /* the same port named again (the other snapshot) */
  size_t k = c->n_unmapped + 1;
  uint32_t *u = realloc(c->unmapped, k * sizeof *u);
  if (u)
    c->unmapped = u;
  uint32_t *w = realloc(c->um_what, k * sizeof *w);
  if (w)
    c->um_what = w;
  fl_id *nd = realloc(c->um_node, k * sizeof *nd);
  if (nd)
    c->um_node = nd;
  uint32_t atom = fl_b_intern(fab, what, len);
  if (!u || !w || !nd || atom == UINT32_MAX)
    return FL_ENOMEM;
  c->unmapped[c->n_unmapped] = rec;
  c->um_what[c->n_unmapped] = atom;
  c->um_node[c->n_unmapped] = node;
  c->n_unmapped = k;
  return FL_OK;
}

static uint64_t rec_val(const fl_counters *c, const ctr_rec *r, uint32_t ctr) {
  uint64_t below = r->mask & (((uint64_t)1 << ctr) - 1);
  return c->vals[r->voff + (size_t)__builtin_popcountll(below)];
}

/* A second record @b for the port of record @a in one snapshot: merged into
 * a new record (counters both give must agree). Returns the record to use,
 * or NO_REC with @err set. */
static uint32_t merge(fl_fabric *fab, uint32_t a, uint32_t b, int *rc,
                      fl_error *err) {
  fl_counters *c = fab->counters;
  const ctr_rec *ra = &c->recs[a], *rb = &c->recs[b];
  uint64_t both = ra->mask & rb->mask;
  uint64_t vals[FL_CTR_COUNT];
  int differ = 0;
  for (uint32_t i = 0; i < FL_CTR_COUNT; i++) {
    uint64_t bit = (uint64_t)1 << i;
    if ((both & bit) && rec_val(c, ra, i) != rec_val(c, rb, i) &&
        ra->prov.file == rb->prov.file) {
      /* one capture run read the port twice (perfquery, then perfquery
       * -x): the later, larger reading; 64-bit beats a saturated 32-bit */
      uint64_t x = rec_val(c, ra, i), y = rec_val(c, rb, i);
      vals[i] = x > y ? x : y;
      differ |= y > x;
      continue;
    }
    if ((both & bit) && rec_val(c, ra, i) != rec_val(c, rb, i)) {
      char what[512];
      describe(fab, rb, what, sizeof what);
      *rc = fl_error_set(
          err, FL_EPARSE, fl_b_file_path(fab, rb->prov.file), rb->prov.line, 0,
          "%s: %s is %llu here but %llu at %s:%u, in the same snapshot: "
          "two captures of one port need capture times (`# captured "
          "<time>` line) to be compared",
          what, NAMES[i], (unsigned long long)rec_val(c, rb, i),
          (unsigned long long)rec_val(c, ra, i),
          fl_b_file_path(fab, ra->prov.file), ra->prov.line);
      return NO_REC;
    }
    if (ra->mask & bit)
      vals[i] = rec_val(c, ra, i);
    else if (rb->mask & bit)
      vals[i] = rec_val(c, rb, i);
  }
  if (!(rb->mask & ~ra->mask) && !differ)
    return a; /* nothing new */
  ctr_rec proto = *ra;
  if (add_rec(c, &proto, ra->mask | rb->mask, vals) != FL_OK) {
    *rc = fl_error_set(err, FL_ENOMEM, NULL, 0, 0, "out of memory");
    return NO_REC;
  }
  return (uint32_t)(c->n - 1);
}

int fl_counters_finalize(fl_fabric *fab, fl_error *err) {
  fl_counters *c = fab->counters;
  if (!c)
    return FL_OK;
  if (c->n_snaps == 0) { /* inputs with no record, e.g. an empty scrape */
    c->n_snaps = 1;
  }
  /* snapshot 0 is the earlier one */
  uint32_t order[2] = {0, 1};
  if (c->n_snaps == 2 && c->time[1] < c->time[0]) {
    order[0] = 1, order[1] = 0;
    double t = c->time[0];
    c->time[0] = c->time[1], c->time[1] = t;
    int k = c->complete[0];
    c->complete[0] = c->complete[1], c->complete[1] = k;
  }
  c->latest = c->n_snaps - 1;
  resolver rs;
  memset(&rs, 0, sizeof rs);
  rs.fab = fab;
  fl_strmap seen;
  memset(&seen, 0, sizeof seen);
  int rc = FL_OK;
  for (uint32_t s = 0; s < c->n_snaps && rc == FL_OK; s++) {
    c->at[s] = malloc((fab->n_ports ? fab->n_ports : 1) * sizeof **c->at);
    if (!c->at[s])
      rc = fl_error_set(err, FL_ENOMEM, NULL, 0, 0, "out of memory");
    else
      memset(c->at[s], 0xff, fab->n_ports * sizeof **c->at);
  }
  size_t n0 = c->n; /* merged records are appended past this */
  for (size_t i = 0; i < n0 && rc == FL_OK; i++) {
    c->recs[i].snap = c->n_snaps == 1 ? 0 : order[c->recs[i].snap];
    fl_id node = resolve_node(&rs, &c->recs[i], &rc);
    if (rc != FL_OK) {
      rc = fl_error_set(err, FL_ENOMEM, NULL, 0, 0, "out of memory");
      break;
    }
    fl_id p = node == FL_NONE ? FL_NONE
                              : fl_fabric_find_port(fab, node, c->recs[i].port);
    if (p == FL_NONE) {
      if (add_unmapped(fab, &seen, (uint32_t)i, node) != FL_OK)
        rc = fl_error_set(err, FL_ENOMEM, NULL, 0, 0, "out of memory");
      continue;
    }
    uint32_t *slot = &c->at[c->recs[i].snap][p];
    *slot = *slot == NO_REC ? (uint32_t)i
                            : merge(fab, *slot, (uint32_t)i, &rc, err);
  }
  fl_u64map_free(&rs.port_guid);
  fl_strmap_free(&rs.full);
  fl_strmap_free(&rs.brief);
  fl_strmap_free(&rs.amb);
  fl_u64map_free(&rs.plane_lid);
  free(rs.lid_planes);
  fl_strmap_free(&seen);
  return rc;
}

/* ---- one plane's share (a plane subset) ----------------------------------
 */

/* Append a copy of @src's record @i to @c as a record of node @node (of the
 * subset; FL_NONE keeps its keys) in snapshot @snap. */
static int copy_rec(fl_fabric *dst, const fl_fabric *src, uint32_t i,
                    fl_id node, uint32_t snap, const char *what) {
  const fl_counters *sc = src->counters;
  const ctr_rec *r = &sc->recs[i];
  uint64_t vals[FL_CTR_COUNT] = {0};
  for (uint32_t k = 0; k < FL_CTR_COUNT; k++)
    if (r->mask & ((uint64_t)1 << k))
      vals[k] = rec_val(sc, r, k);
  ctr_rec proto = *r;
  proto.node = node;
  proto.snap = snap;
  /* atoms are per fabric */
  proto.name =
      r->name ? fl_b_intern(dst, fl_b_atom_str(src, r->name), (size_t)-1) : 0;
  proto.what = what ? fl_b_intern(dst, what, (size_t)-1) : 0;
  if (proto.name == UINT32_MAX || proto.what == UINT32_MAX)
    return FL_ENOMEM;
  return add_rec(dst->counters, &proto, r->mask, vals);
}

/* The plane an unmapped record of @src belongs to: its input's --plane,
 * else the plane of the node it named, else the first. */
static uint32_t unmapped_plane(const fl_fabric *src, uint32_t u) {
  const fl_counters *sc = src->counters;
  uint32_t file = sc->recs[sc->unmapped[u]].prov.file;
  uint32_t tag = file < src->cap_file_plane ? src->file_plane[file] : 0;
  for (uint32_t pl = 0; tag && pl < src->n_planes; pl++)
    if (src->plane_names[pl] == tag)
      return pl;
  fl_id n = sc->um_node[u];
  uint32_t pl = n != FL_NONE ? src->node_plane[n] : FL_NONE;
  return pl != FL_NONE ? pl : 0;
}

int fl_counters_copy_plane(fl_fabric *dst, const fl_fabric *src, uint32_t plane,
                           const fl_id *node_map) {
  const fl_counters *sc = src->counters;
  if (!sc || !src->finalized || !sc->at[0])
    return FL_OK;
  fl_counters *c = state(dst);
  if (!c)
    return FL_ENOMEM;
  c->n_snaps = sc->n_snaps;
  c->timed = sc->timed;
  memcpy(c->time, sc->time, sizeof c->time);
  memcpy(c->complete, sc->complete, sizeof c->complete);
  for (uint32_t s = 0; s < sc->n_snaps; s++)
    for (size_t p = 0; p < src->n_ports; p++) {
      uint32_t i = sc->at[s][p];
      fl_id n = src->ports[p].node;
      if (i == NO_REC || src->port_plane[p] != plane || node_map[n] == FL_NONE)
        continue;
      if (copy_rec(dst, src, i, node_map[n], s, NULL) != FL_OK)
        return FL_ENOMEM;
      c->recs[c->n - 1].port = src->ports[p].num;
    }
  for (size_t u = 0; u < sc->n_unmapped; u++) {
    if (unmapped_plane(src, (uint32_t)u) != plane)
      continue;
    fl_id n = sc->um_node[u];
    /* stays unmapped: its node when it named one, else a node id past the
     * end (its keys named no port of the whole fabric) */
    fl_id to =
        n != FL_NONE && node_map[n] != FL_NONE ? node_map[n] : FL_NONE - 1;
    if (copy_rec(dst, src, sc->unmapped[u], to, sc->recs[sc->unmapped[u]].snap,
                 fl_b_atom_str(src, sc->um_what[u])) != FL_OK)
      return FL_ENOMEM;
  }
  return FL_OK;
}

void fl_counters_free(fl_fabric *fab) {
  fl_counters *c = fab->counters;
  if (!c)
    return;
  free(c->recs);
  free(c->vals);
  free(c->at[0]);
  free(c->at[1]);
  free(c->unmapped);
  free(c->um_what);
  free(c->um_node);
  free(c);
  fab->counters = NULL;
}

/* ---- reading ----------------------------------------------------------------
 */

static const fl_counters *ready(const fl_fabric *fab) {
  const fl_counters *c = fab ? fab->counters : NULL;
  return c && fab->finalized && c->at[0] ? c : NULL;
}

uint32_t fl_fabric_counter_snapshots(const fl_fabric *fab) {
  const fl_counters *c = ready(fab);
  return c ? c->n_snaps : 0;
}

double fl_fabric_counter_interval(const fl_fabric *fab) {
  const fl_counters *c = ready(fab);
  return c && c->n_snaps == 2 ? c->time[1] - c->time[0] : 0;
}

int fl_fabric_counter_complete(const fl_fabric *fab) {
  const fl_counters *c = ready(fab);
  return c ? c->complete[c->latest] : 0;
}

static const ctr_rec *rec_of(const fl_counters *c, const fl_fabric *fab,
                             uint32_t snap, fl_id p) {
  if (p >= fab->n_ports || c->at[snap][p] == NO_REC)
    return NULL;
  return &c->recs[c->at[snap][p]];
}

uint64_t fl_fabric_port_counter_mask(const fl_fabric *fab, fl_id p) {
  const fl_counters *c = ready(fab);
  const ctr_rec *r = c ? rec_of(c, fab, c->latest, p) : NULL;
  return r ? r->mask : 0;
}

uint32_t fl_fabric_port_counter(const fl_fabric *fab, fl_id p, uint32_t ctr,
                                uint64_t *value, uint64_t *delta) {
  if (value)
    *value = 0;
  if (delta)
    *delta = 0;
  const fl_counters *c = ready(fab);
  const ctr_rec *r =
      c && ctr < FL_CTR_COUNT ? rec_of(c, fab, c->latest, p) : NULL;
  if (!r || !(r->mask & ((uint64_t)1 << ctr)))
    return 0;
  uint64_t v = rec_val(c, r, ctr);
  uint32_t flags = FL_CTRV_VALUE;
  if (v == fl_counter_max(ctr))
    flags |= FL_CTRV_SATURATED;
  if (value)
    *value = v;
  const ctr_rec *r0 = c->n_snaps == 2 ? rec_of(c, fab, 0, p) : NULL;
  if (r0 && (r0->mask & ((uint64_t)1 << ctr))) {
    uint64_t v0 = rec_val(c, r0, ctr);
    flags |= FL_CTRV_DELTA | (v < v0 ? FL_CTRV_RESET : 0);
    if (delta)
      *delta = v < v0 ? v : v - v0;
  }
  return flags;
}

uint32_t fl_fabric_counter_unmapped_count(const fl_fabric *fab) {
  const fl_counters *c = ready(fab);
  return c ? (uint32_t)c->n_unmapped : 0;
}

int fl_fabric_counter_unmapped(const fl_fabric *fab, uint32_t i,
                               const char **what, const char **file,
                               uint32_t *line, fl_id *node, uint32_t *port) {
  const fl_counters *c = ready(fab);
  if (!c || i >= c->n_unmapped)
    return FL_ENOTFOUND;
  const ctr_rec *r = &c->recs[c->unmapped[i]];
  if (what)
    *what = fl_b_atom_str(fab, c->um_what[i]);
  if (file)
    *file = fl_b_file_path(fab, r->prov.file);
  if (line)
    *line = r->prov.line;
  if (node)
    *node = c->um_node[i];
  if (port)
    *port = r->port;
  return FL_OK;
}
