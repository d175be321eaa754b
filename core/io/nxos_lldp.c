/* SPDX-License-Identifier: MIT */
/*
 * core/io/nxos_lldp.c — Cisco NX-OS `show lldp neighbors detail` in its
 * structured forms (docs/formats/nxos-lldp.md): `| xml` (a NETCONF
 * <nf:rpc-reply> in namespace http://www.cisco.com/nxos:1.0:lldp, or NX-API's
 * <ins_api> XML) and `| json` / NX-API JSON (`cli_show`, `cli_show_array`,
 * bare or in the `ins_api` envelope). Both carry the same table:
 *
 *   TABLE_nbor_detail / ROW_nbor_detail (one per neighbour):
 *     chassis_type, chassis_id, port_type, port_id, l_port_id, port_desc,
 *     sys_name, sys_desc, ttl, system_capability, enabled_capability,
 *     mgmt_addr*, vlan_id, ... (NX-OS 7-10; NX-API renders the XML as JSON,
 *     so the element names are the JSON keys).
 *
 * Read here (public sample: NetApp/harvest cmd/collectors/cisco/plugins/
 * lldp/testdata, real Nexus 3132/9336 output, Apache-2.0):
 *   - local port `l_port_id` (`Eth1/9`, `mgmt0`); neighbour `sys_name`, else
 *     `chassis_id`; its port `port_id` when `port_type` is `Interface Name`,
 *     else `port_desc` when that names an interface (`null` and `not
 *     advertised` are NX-OS's "absent"); one port id advertised by one
 *     system with two port MACs in port_desc (two modules of one chassis)
 *     is two ports, the second named `ID (MAC)` (nbr_port());
 *   - the neighbour is a switch when its enabled capabilities (else its
 *     system capabilities) hold B (bridge) or R (router), a CA for S
 *     (station) alone;
 *   - `link_agg_status` `aggregated` with `link_agg_id` N keeps the port
 *     attribute `lag` = `Po<N>`; NX-OS LLDP carries no MAU type or speed
 *     TLV in this table, so cables have no speed;
 *   - the CLI's `| xml` ends with `]]>]]>` (NETCONF 1.0's end of message)
 *     after the document: dropped;
 *   - JSON: a table with one neighbour is an object instead of an array
 *     (NX-API's rendering); values may be numbers (`ttl`).
 * As with every LLDP listing, the local device is the file's name
 * (fl_local_name_from_path); cables are seen from one end (FL_LINK_SEEN_A).
 */
#include "io/formats.h"
#include "io/loaders.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <jansson.h>
#include <libxml/xmlreader.h>

#include "model/alias.h"

enum {
  F_LPORT,
  F_SYS_NAME,
  F_CHASSIS_ID,
  F_PORT_TYPE,
  F_PORT_ID,
  F_PORT_DESC,
  F_ECAPS,
  F_SCAPS,
  F_AGG_STATUS,
  F_AGG_ID,
  F_COUNT
};
static const char *const FIELDS[F_COUNT] = {
    "l_port_id",       "sys_name",   "chassis_id",         "port_type",
    "port_id",         "port_desc",  "enabled_capability", "system_capability",
    "link_agg_status", "link_agg_id"};

/* NX-OS writes absent values as `null` or `not advertised`. */
static const char *val(const char *s) {
  if (!s || !*s || strcmp(s, "null") == 0 ||
      strcasecmp(s, "not advertised") == 0)
    return NULL;
  return s;
}

/* FL_NODE_* from a capability list "B, R" / "S"; 0 when it says nothing. */
static uint32_t caps_kind(const char *caps) {
  if (!val(caps))
    return 0;
  int station = 0;
  for (const char *p = caps; *p; p++) {
    if (*p == 'B' || *p == 'R')
      return FL_NODE_SWITCH;
    station |= *p == 'S';
  }
  return station ? FL_NODE_CA : 0;
}

/* A neighbour port seen with the MAC address its port_desc gave. */
typedef struct seen_mac {
  fl_id rp;
  char mac[24];
} seen_mac;

typedef struct nx {
  const char *path;
  fl_error *err;
  fl_nbr *b;
  char local[FL_ALIAS_MAX];
  size_t rows;
  seen_mac *macs; /* one per neighbour port with a MAC port_desc */
  size_t n_macs, cap_macs;
} nx;

/* The neighbour port (@rn, @rport) of a row whose port_desc is @desc. Two
 * modules of one chassis (an NS224 shelf's NSM A and B) advertise one
 * system name and one port id (`e0b`) but their own port MAC in port_desc:
 * when the port already seen under that name had another MAC, this is
 * another physical port, named `e0b (MAC)` (issue 30, F5). Linear in the
 * ports seen with a MAC (one switch's listing: a few hundred). */
static fl_id nbr_port(nx *x, fl_id rn, const char *rport, const char *desc,
                      fl_prov prov) {
  fl_id rp = fl_nbr_port(x->b, rn, rport, prov);
  if (rp == FL_NONE || !desc || !fl_alias_is_mac(desc, strlen(desc)) ||
      strlen(desc) >= sizeof x->macs->mac)
    return rp;
  for (size_t i = 0; i < x->n_macs; i++) {
    if (x->macs[i].rp != rp)
      continue;
    if (strcasecmp(x->macs[i].mac, desc) == 0)
      return rp;
    char other[FL_ALIAS_MAX + 32];
    snprintf(other, sizeof other, "%s (%s)", rport, desc);
    rp = fl_nbr_port(x->b, rn, other, prov);
    break;
  }
  if (rp == FL_NONE)
    return rp;
  if (x->n_macs == x->cap_macs) {
    size_t nc = x->cap_macs ? x->cap_macs * 2 : 16;
    seen_mac *nm = realloc(x->macs, nc * sizeof *nm);
    if (!nm)
      return FL_NONE;
    x->macs = nm;
    x->cap_macs = nc;
  }
  x->macs[x->n_macs].rp = rp;
  snprintf(x->macs[x->n_macs].mac, sizeof x->macs->mac, "%s", desc);
  x->n_macs++;
  return rp;
}

/* One ROW_nbor_detail; @f[i] are the field values (NULL: absent), @row its
 * 0-based index, @line its line. */
static int commit(nx *x, const char *const *f, size_t row, uint32_t line) {
  const char *lport = val(f[F_LPORT]);
  if (!lport)
    return fl_error_set(x->err, FL_EPARSE, x->path, line, 0,
                        "neighbour %zu (ROW_nbor_detail) has no l_port_id",
                        row + 1);
  const char *rname = val(f[F_SYS_NAME]) ? f[F_SYS_NAME] : val(f[F_CHASSIS_ID]);
  if (!rname)
    return fl_error_set(x->err, FL_EPARSE, x->path, line, 0,
                        "neighbour on %s has neither sys_name nor chassis_id",
                        lport);
  const char *rport = fl_alias_lldp_port(val(f[F_PORT_TYPE]), val(f[F_PORT_ID]),
                                         val(f[F_PORT_DESC]));
  if (!rport)
    return fl_error_set(x->err, FL_EPARSE, x->path, line, 0,
                        "neighbour %s on %s has neither port_id nor "
                        "port_desc",
                        rname, lport);
  uint32_t kind = caps_kind(f[F_ECAPS]);
  if (!kind)
    kind = caps_kind(f[F_SCAPS]);
  fl_prov prov = {fl_nbr_file(x->b), line, 0};
  fl_id ln = fl_nbr_node(x->b, x->local, 0, prov);
  fl_id rn = ln == FL_NONE ? FL_NONE : fl_nbr_node(x->b, rname, kind, prov);
  fl_id lp = rn == FL_NONE ? FL_NONE : fl_nbr_port(x->b, ln, lport, prov);
  fl_id rp = lp == FL_NONE ? FL_NONE
                           : nbr_port(x, rn, rport, val(f[F_PORT_DESC]), prov);
  if (rp == FL_NONE ||
      fl_nbr_link(x->b, lp, rp, FL_LINK_SEEN_A, prov) == FL_NONE)
    return fl_error_set(x->err, FL_ENOMEM, x->path, 0, 0, "out of memory");
  const char *agg = val(f[F_AGG_STATUS]), *id = val(f[F_AGG_ID]);
  if (agg && strcasecmp(agg, "aggregated") == 0 && id && strcmp(id, "0")) {
    char lag[64];
    snprintf(lag, sizeof lag, "Po%s", id);
    if (fl_b_attr(fl_nbr_fabric(x->b), FL_ENT_PORT, lp, "lag", lag) != FL_OK)
      return fl_error_set(x->err, FL_ENOMEM, x->path, 0, 0, "out of memory");
  }
  x->rows++;
  return FL_OK;
}

/* ---- XML ---------------------------------------------------------------- */

/* The CLI's `| xml` ends with the NETCONF 1.0 end-of-message mark
 * `]]>]]>` after the document: dropped (with the blanks around it). */
static size_t xml_len(const fl_input *in) {
  size_t n = in->len;
  while (n && (in->buf[n - 1] == ' ' ||
               (in->buf[n - 1] >= '\t' && in->buf[n - 1] <= '\r')))
    n--;
  if (n >= 6 && memcmp(in->buf + n - 6, "]]>]]>", 6) == 0)
    n -= 6;
  return n;
}

static int load_xml(nx *x, const fl_input *in) {
  fl_input doc = *in;
  doc.len = xml_len(in);
  doc.map_len = 0;
  fl_xr r;
  int rc = fl_xr_open(&r, &doc, x->err);
  char *f[F_COUNT] = {0};
  int table_depth = -1, row_depth = -1, n;
  uint32_t row_line = 0;
  while (rc == FL_OK && (n = fl_xr_next(&r)) == 1) {
    int type = fl_xr_type(&r), depth = fl_xr_depth(&r);
    const char *name = fl_xr_name(&r);
    if (type == XML_READER_TYPE_END_ELEMENT) {
      if (depth == row_depth && strcmp(name, "ROW_nbor_detail") == 0) {
        rc = commit(x, (const char *const *)f, x->rows, row_line);
        for (int i = 0; i < F_COUNT; i++) {
          free(f[i]);
          f[i] = NULL;
        }
        row_depth = -1;
      }
      continue;
    }
    if (type != XML_READER_TYPE_ELEMENT)
      continue;
    if (depth == 0 && strcmp(name, "rpc-reply") != 0 &&
        strcmp(name, "ins_api") != 0) {
      rc = fl_xr_fail(&r,
                      "root element <%s>; expected <nf:rpc-reply> or "
                      "<ins_api>",
                      name);
      break;
    }
    if (strcmp(name, "TABLE_nbor_detail") == 0 && table_depth < 0) {
      table_depth = depth;
      continue;
    }
    if (table_depth >= 0 && depth == table_depth + 1 &&
        strcmp(name, "ROW_nbor_detail") == 0) {
      row_line = fl_xr_line(&r);
      if (fl_xr_empty(&r))
        rc = fl_xr_fail(&r, "empty <ROW_nbor_detail>");
      row_depth = depth;
      continue;
    }
    if (row_depth >= 0 && depth == row_depth + 1)
      for (int i = 0; i < F_COUNT; i++)
        if (strcmp(name, FIELDS[i]) == 0 && !f[i]) {
          if (!(f[i] = fl_xr_text(&r)))
            rc =
                fl_error_set(x->err, FL_ENOMEM, x->path, 0, 0, "out of memory");
          break;
        }
  }
  if (rc == FL_OK && n < 0)
    rc = n;
  if (rc == FL_OK && table_depth < 0)
    rc = fl_error_set(x->err, FL_EPARSE, x->path, 1, 0,
                      "no <TABLE_nbor_detail>; expected `show lldp neighbors "
                      "detail | xml` output");
  for (int i = 0; i < F_COUNT; i++)
    free(f[i]);
  fl_xr_close(&r);
  return rc;
}

/* ---- JSON --------------------------------------------------------------- */

/* Lines where the rows of the (first) "ROW_nbor_detail" value begin, in
 * order, into @out (at most @max): jansson keeps no positions, so the text
 * is skimmed for the key, then the '{' of each element of its array (or of
 * the one object NX-API writes for a single row), strings skipped. Returns
 * the number of rows found. */
static size_t row_lines(const fl_input *in, uint32_t *out, size_t max) {
  static const char key[] = "\"ROW_nbor_detail\"";
  const char *p = in->buf, *e = in->buf + in->len;
  uint32_t line = 1;
  int in_str = 0, seen_key = 0, depth = 0;
  size_t n = 0;
  for (; p < e; p++) {
    char ch = *p;
    if (ch == '\n')
      line++;
    if (in_str) {
      if (ch == '\\')
        p++;
      else if (ch == '"')
        in_str = 0;
      continue;
    }
    if (ch == '"') {
      if (!seen_key && (size_t)(e - p) >= sizeof key - 1 &&
          memcmp(p, key, sizeof key - 1) == 0) {
        seen_key = 1;
        p += sizeof key - 2;
        continue;
      }
      in_str = 1;
      continue;
    }
    if (!seen_key)
      continue;
    if (ch == '[' || ch == '{') {
      if ((depth == 1 || (depth == 0 && ch == '{')) && n < max && ch == '{')
        out[n++] = line;
      if (depth == 0 && ch == '{')
        return n; /* a single row */
      depth++;
    } else if (ch == ']' || ch == '}') {
      if (--depth <= 0)
        return n;
    }
  }
  return n;
}

/* The TABLE_nbor_detail object: at the top (`| json`), in ins_api.outputs.
 * output[.body] (NX-API; `output` may be an array of command outputs). */
static json_t *find_table(json_t *v, int depth) {
  if (!json_is_object(v) && !json_is_array(v))
    return NULL;
  if (depth > 8)
    return NULL;
  if (json_is_object(v)) {
    json_t *t = json_object_get(v, "TABLE_nbor_detail");
    if (t)
      return t;
    const char *k;
    json_t *c;
    json_object_foreach(v, k, c) {
      json_t *r = find_table(c, depth + 1);
      if (r)
        return r;
    }
    return NULL;
  }
  size_t i;
  json_t *c;
  json_array_foreach(v, i, c) {
    json_t *r = find_table(c, depth + 1);
    if (r)
      return r;
  }
  return NULL;
}

static int load_json(nx *x, const fl_input *in) {
  json_error_t je;
  size_t bom = fl_utf8_bom(in->buf, in->len);
  json_t *root =
      json_loadb(in->buf + bom, in->len - bom, JSON_REJECT_DUPLICATES, &je);
  if (!root)
    return fl_error_set(x->err, FL_EPARSE, x->path, (uint32_t)je.line,
                        (uint32_t)je.column, "malformed JSON: %s", je.text);
  int rc = FL_OK;
  json_t *t = find_table(root, 0);
  json_t *rows = t ? json_object_get(t, "ROW_nbor_detail") : NULL;
  if (!rows)
    rc = fl_error_set(x->err, FL_EPARSE, x->path, 1, 0,
                      "no TABLE_nbor_detail.ROW_nbor_detail; expected `show "
                      "lldp neighbors detail | json` or NX-API output");
  size_t n = json_is_array(rows) ? json_array_size(rows) : 1;
  uint32_t *lines = calloc(n ? n : 1, sizeof *lines);
  if (!lines)
    rc = fl_error_set(x->err, FL_ENOMEM, x->path, 0, 0, "out of memory");
  else
    row_lines(in, lines, n);
  char num[F_COUNT][32];
  for (size_t i = 0; rc == FL_OK && i < n; i++) {
    json_t *row = json_is_array(rows) ? json_array_get(rows, i) : rows;
    if (!json_is_object(row)) {
      rc = fl_error_set(x->err, FL_EPARSE, x->path, lines[i], 0,
                        "ROW_nbor_detail[%zu] is not an object", i);
      break;
    }
    const char *f[F_COUNT];
    for (int k = 0; k < F_COUNT; k++) {
      json_t *v = json_object_get(row, FIELDS[k]);
      f[k] = json_is_string(v) ? json_string_value(v) : NULL;
      if (json_is_integer(v)) {
        snprintf(num[k], sizeof num[k], "%lld",
                 (long long)json_integer_value(v));
        f[k] = num[k];
      }
    }
    rc = commit(x, f, i, lines[i]);
  }
  free(lines);
  json_decref(root);
  return rc;
}

static int load_nxos(fl_fabric *fab, const fl_input *in,
                     const fl_load_options *opts, fl_error *err) {
  (void)opts;
  nx x;
  memset(&x, 0, sizeof x);
  x.path = in->path;
  x.err = err;
  fl_local_name_from_path(in->path, x.local, sizeof x.local);
  /* a `| json` capture is named leaf-01.json: drop that suffix too */
  size_t ln = strlen(x.local);
  if (ln > 5 && strcmp(x.local + ln - 5, ".json") == 0)
    x.local[ln - 5] = '\0';
  x.b = fl_nbr_begin(fab, in->path);
  if (!x.b)
    return fl_error_set(err, FL_ENOMEM, in->path, 0, 0, "out of memory");
  const char *p = fl_detect_skip_ws(in->buf, in->buf + in->len);
  if (fl_utf8_bom(in->buf, in->len))
    p = fl_detect_skip_ws(in->buf + 3, in->buf + in->len);
  int rc =
      p < in->buf + in->len && *p == '{' ? load_json(&x, in) : load_xml(&x, in);
  if (rc == FL_OK && x.rows == 0)
    rc = fl_error_set(err, FL_EPARSE, in->path, 0, 0,
                      "no neighbour (an empty ROW_nbor_detail table)");
  fl_nbr_end(x.b);
  free(x.macs);
  return rc;
}

/* ---- the format registry row (formats.h) ---- */

/* XML: <rpc-reply> or <ins_api> holding TABLE_nbor_detail; JSON: an object
 * whose first 64 KiB name TABLE_nbor_detail. */
static uint32_t detect_nxos(const fl_detect_ctx *c, fl_error *err) {
  (void)err;
  const char *r = c->xml_root;
  if (r) {
    const char *colon = strchr(r, ':');
    const char *local = colon ? colon + 1 : r;
    return (strcmp(local, "rpc-reply") == 0 || strcmp(local, "ins_api") == 0) &&
                   strstr(c->text, "TABLE_nbor_detail")
               ? FL_FMT_NXOS_LLDP
               : FL_FMT_AUTO;
  }
  const char *p = fl_detect_skip_ws(c->text, c->text + c->len);
  return p < c->text + c->len && *p == '{' &&
                 strstr(c->text, "\"TABLE_nbor_detail\"")
             ? FL_FMT_NXOS_LLDP
             : FL_FMT_AUTO;
}

const fl_format_def fl_fmt_nxos_lldp = {
    FL_FMT_NXOS_LLDP,
    "nxos-lldp",
    NULL,
    FL_FORMAT_TOPOLOGY,
    load_nxos,
    detect_nxos,
    "NX-OS `show lldp neighbors detail | xml` or `| json` (TABLE_nbor_detail)"};
