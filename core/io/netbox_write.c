/* SPDX-License-Identifier: MIT */
/*
 * core/io/netbox_write.c — fl_write_netbox_cables(): a fabric's cables as
 * NetBox's cable bulk-import CSV (docs/formats/netbox-cables.md,
 * "Writing"; issue 36).
 *
 * Why: a site's source of truth is often NetBox, and the first fill of its
 * cable table is the fabric as discovered. An ibnetdiscover dump (or a
 * design, an LLDP capture) converted here imports through "Cables ->
 * Import" and reads back through fabriclint's own NetBox reader
 * (core/io/netbox_csv.c) into the same cabling, so `fabriclint diff
 * capture cables.csv` finds nothing (tests/cli/convert_netbox.sh).
 *
 * The columns are CableImportForm's (netbox-community/netbox, Apache-2.0,
 * dcim/forms/bulk_import.py): side_a_device, side_a_type, side_a_name,
 * side_b_device, side_b_type, side_b_name, type, status, label, length,
 * length_unit, description. Ends are `dcim.interface`. A switch is its
 * name (`<name>` of a `MF0;<name>:...` description, as UFM names it); a
 * leaf-board ASIC port of a director chassis is the chassis and its panel
 * port (`Blade 3_Port 1/2`); a switch port is its label when it has one
 * (an Ethernet `swp1`), else `Port N`. A CA port with a label (a host's
 * NIC, `eth0`) is that label on the node; else the HCA `<host>
 * <interface>` (`dgx-001 mlx5_0`, port 1) is interface `mlx5_0` of device
 * `dgx-001`, the node's system when the name starts with it. NetBox keeps
 * one device per name and one cable per interface, so what would merge
 * when imported is refused, naming both nodes: two switches (not ASICs of
 * one chassis) written with one device name (compared as the reader compares:
 * case, blanks), a switch and a host of one name, two ports written as one
 * interface, a port with two cables, a cable looped onto its own port; what
 * an import would read otherwise (a name the loader made unique with a GUID
 * suffix, a comma, a cell a spreadsheet takes for a formula: check_text());
 * and what NetBox cannot name: an unlabelled CA port other than 1, a CA name
 * without a blank, port 0. Cables inside a chassis are no NetBox cable
 * and are left out.
 *
 * An import takes choice values, an export writes their labels (`Planned`,
 * `DAC (Passive)`, `3 Meters`): both are written as values (NetBox's
 * dcim/choices.py). status: the link's `status` attribute, else `planned`
 * for a cable a plan declared (FL_LINK_DECLARED) and `connected` for one
 * discovered. type: the `cable-type` attribute (NetBox's cable types have
 * no InfiniBand entry: none is guessed). label: the `label` attribute.
 * length: a `length` of the form `NUMBER [UNIT]` (none: m, as design XML
 * gives metres) in length and length_unit. A status, type or length that
 * is none of NetBox's choices goes whole to description (`type: Twinax;
 * length: about 3 m`), never lost and never guessed. Cells are written
 * by fl_wr_csv_cell(). Deterministic: rows in link id order. Cost
 * O(links).
 */
#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "fabriclint/write.h"
#include "io/write_common.h"
#include "model/alias.h"
#include "model/hashmap.h"

#define NB_CELL 512

/** One cable end as NetBox says it. */
typedef struct nb_end {
  char dev[NB_CELL];
  char ifname[NB_CELL];
  int host; /* 1: a CA port (a host's interface) */
} nb_end;

/** A CA end (see the file comment). */
static int ca_end(const fl_fabric *fab, fl_id n, fl_id p, nb_end *e,
                  fl_error *err) {
  const char *name = fl_fabric_node_name(fab, n);
  const char *sys = fl_fabric_node_system(fab, n);
  const char *label = fl_fabric_port_label(fab, p);
  e->host = 1;
  if (label[0] && label[0] != ' ' && label[strlen(label) - 1] != ' ') {
    snprintf(e->dev, sizeof e->dev, "%s", name);
    snprintf(e->ifname, sizeof e->ifname, "%s", label);
    return FL_OK;
  }
  uint32_t num = fl_fabric_port_num(fab, p);
  if (num != 1)
    return fl_error_set(err, FL_EINVAL, NULL, 0, 0,
                        "NetBox cannot name port %" PRIu32 " of \"%s\": an "
                        "HCA `<host> <interface>` is interface <interface> "
                        "of device <host>, which holds one port; label the "
                        "port (an annotations file) to name it",
                        num, name);
  size_t h = fl_wr_host_split(name, sys);
  if (!h)
    return fl_error_set(err, FL_EINVAL, NULL, 0, 0,
                        "NetBox cannot name the host \"%s\": an HCA is "
                        "`<host> <interface>` (device and interface), and "
                        "this name has no blank between them",
                        name);
  snprintf(e->dev, sizeof e->dev, "%.*s", (int)h, name);
  snprintf(e->ifname, sizeof e->ifname, "%s", name + h + strspn(name + h, " "));
  return FL_OK;
}

/** Port @p as NetBox names it. */
static int end_of(const fl_fabric *fab, fl_id p, nb_end *e, fl_error *err) {
  fl_id n = fl_fabric_port_node(fab, p);
  memset(e, 0, sizeof *e);
  if (fl_fabric_node_kind(fab, n) != FL_NODE_SWITCH)
    return ca_end(fab, n, p, e, err);
  uint32_t c = fl_fabric_node_chassis(fab, n);
  if (c != FL_NONE &&
      fl_fabric_port_panel_name(fab, p, e->ifname, sizeof e->ifname) > 0) {
    snprintf(e->dev, sizeof e->dev, "%s", fl_fabric_chassis_name(fab, c));
    return FL_OK;
  }
  fl_wr_switch_name(fl_fabric_node_name(fab, n), e->dev, sizeof e->dev);
  const char *label = fl_fabric_port_label(fab, p);
  uint32_t num = fl_fabric_port_num(fab, p);
  if (label[0])
    snprintf(e->ifname, sizeof e->ifname, "%s", label);
  else if (num == 0)
    return fl_error_set(err, FL_EINVAL, NULL, 0, 0,
                        "NetBox cannot name port 0 of switch \"%s\" (a "
                        "cable on the management port)",
                        e->dev);
  else
    snprintf(e->ifname, sizeof e->ifname, "Port %" PRIu32, num);
  return FL_OK;
}

/* What must stay apart when imported: device names (value: the node; two
 * CA nodes of one host share theirs) and interfaces (value: the port). */
typedef struct nb_seen {
  fl_strmap dev, port;
} nb_seen;

static int clash(const fl_fabric *fab, fl_id a, fl_id b, const char *what,
                 const char *as, fl_error *err) {
  return fl_error_set(err, FL_EINVAL, NULL, 0, 0,
                      "NetBox cannot tell %s of \"%s\" and of \"%s\" apart: "
                      "both are written \"%s\", which an import takes for "
                      "one (names compare without case); rename one",
                      what, fl_fabric_node_name(fab, a),
                      fl_fabric_node_name(fab, b), as);
}

/* What an import cannot take as it is written: a name the loader made
 * unique with a GUID suffix (several nodes share one description: no
 * NetBox device is called that), a comma (NetBox's exports join several
 * terminations with commas, and its reader here splits on them), a cell
 * a spreadsheet would take for a formula (the CSV writer quotes it with a
 * leading ', which NetBox would keep). FL_OK or FL_EINVAL naming it. */
static int check_text(const fl_fabric *fab, fl_id n, const nb_end *e,
                      fl_error *err) {
  size_t base;
  const char *name = fl_fabric_node_name(fab, n);
  fl_fabric_node_base_name(fab, n, &base);
  if (base < strlen(name))
    return fl_error_set(err, FL_EINVAL, NULL, 0, 0,
                        "NetBox cannot name \"%s\": several nodes share the "
                        "description \"%.*s\" (told apart here by GUID), and "
                        "no NetBox device is called that; name them (a "
                        "node-name map) before writing a cable table",
                        name, (int)base, name);
  const char *t[2] = {e->dev, e->ifname};
  for (int k = 0; k < 2; k++) {
    if (strchr(t[k], ','))
      return fl_error_set(err, FL_EINVAL, NULL, 0, 0,
                          "NetBox cannot take \"%s\" (of \"%s\"): a comma "
                          "in a device or interface name reads as several "
                          "terminations; rename it",
                          t[k], name);
    if (fl_wr_csv_formula_like(t[k]))
      return fl_error_set(err, FL_EINVAL, NULL, 0, 0,
                          "NetBox cannot take \"%s\" (of \"%s\") as written: "
                          "a cell starting with =, +, -, @ or a tab is quoted "
                          "as text with a leading ' (a spreadsheet would run "
                          "it), which an import would keep; rename it",
                          t[k], name);
  }
  return FL_OK;
}

static int check_end(const fl_fabric *fab, fl_id p, const nb_end *e, nb_seen *s,
                     fl_error *err) {
  fl_id n = fl_fabric_port_node(fab, p);
  int trc = check_text(fab, n, e, err);
  if (trc != FL_OK)
    return trc;
  uint32_t cables = fl_fabric_port_link_count(fab, p);
  if (cables > 1) {
    /* name the far ends too: which of the cables is the wrong one is the
     * question a technician has */
    char far[2][NB_CELL];
    for (uint32_t k = 0; k < 2; k++) {
      fl_id l = fl_fabric_port_link(fab, p, k);
      fl_id o = fl_fabric_link_other(fab, l, p);
      snprintf(far[k], sizeof far[k], "%s port %u",
               o == FL_NONE
                   ? "?"
                   : fl_fabric_node_name(fab, fl_fabric_port_node(fab, o)),
               o == FL_NONE ? 0u : fl_fabric_port_num(fab, o));
    }
    return fl_error_set(
        err, FL_EINVAL, NULL, 0, 0,
        "NetBox holds one cable per interface: %s %s has %" PRIu32
        " cables (to %s, to %s%s)",
        e->dev, e->ifname, cables, far[0], far[1], cables > 2 ? ", ..." : "");
  }
  size_t dl = strlen(e->dev), il = strlen(e->ifname);
  if (dl + il + 2 >= NB_CELL)
    return fl_error_set(err, FL_EINVAL, NULL, 0, 0,
                        "NetBox cannot name \"%.60s...\": a device and "
                        "interface of %zu bytes (at most %d)",
                        fl_fabric_node_name(fab, n), dl + il, NB_CELL - 3);
  char key[2 * NB_CELL];
  size_t k = fl_alias_node_full(e->dev, dl, key, NB_CELL);
  uint32_t had = fl_strmap_put(&s->dev, key, k, n);
  if (had == FL_MAP_ABSENT)
    return fl_error_set(err, FL_ENOMEM, NULL, 0, 0, "out of memory");
  /* one device legitimately: two HCAs of one host, two ASICs of one
   * director chassis (its front panel names their ports apart) */
  int both_hosts = fl_fabric_node_kind(fab, had) != FL_NODE_SWITCH && e->host;
  uint32_t box = fl_fabric_node_chassis(fab, n);
  int one_box = box != FL_NONE && box == fl_fabric_node_chassis(fab, had);
  if (had != n && !both_hosts && !one_box)
    return clash(fab, had, n, "the devices", e->dev, err);
  key[k++] = '\x1f'; /* device, then interface: one key */
  k += fl_alias_node_full(e->ifname, il, key + k, sizeof key - k);
  had = fl_strmap_put(&s->port, key, k, p);
  if (had == FL_MAP_ABSENT)
    return fl_error_set(err, FL_ENOMEM, NULL, 0, 0, "out of memory");
  if (had != p)
    return clash(fab, fl_fabric_port_node(fab, had), n, "two ports", e->ifname,
                 err);
  return FL_OK;
}

/* Every cable's ends, checked before anything is written. */
static int check_all(const fl_fabric *fab, fl_error *err) {
  nb_seen s = {{0}, {0}};
  nb_end e;
  int rc = FL_OK;
  for (fl_id l = 0; l < fl_fabric_link_count(fab) && rc == FL_OK; l++) {
    if (fl_fabric_link_internal(fab, l))
      continue;
    for (int k = 0; k < 2 && rc == FL_OK; k++) {
      fl_id p = fl_fabric_link_port(fab, l, k);
      if (p != FL_NONE && (rc = end_of(fab, p, &e, err)) == FL_OK)
        rc = check_end(fab, p, &e, &s, err);
    }
    if (rc == FL_OK &&
        fl_fabric_link_port(fab, l, 0) == fl_fabric_link_port(fab, l, 1))
      rc = fl_error_set(err, FL_EINVAL, NULL, 0, 0,
                        "NetBox cannot hold a cable looped onto one "
                        "interface (%s %s)",
                        e.dev, e.ifname);
  }
  fl_strmap_free(&s.dev);
  fl_strmap_free(&s.port);
  return rc;
}

/* A NetBox choice: its value (what an import takes) and the labels an
 * export writes for it (netbox-community/netbox dcim/choices.py:
 * LinkStatusChoices, CableTypeChoices, CableLengthUnitChoices; older
 * releases' labels too). */
typedef struct nb_choice {
  const char *value;
  const char *labels[3];
} nb_choice;

static const nb_choice STATUS[] = {
    {"connected", {"Connected", "Active", NULL}},
    {"planned", {"Planned", NULL, NULL}},
    {"decommissioning", {"Decommissioning", NULL, NULL}},
    {NULL, {NULL, NULL, NULL}},
};
static const nb_choice TYPES[] = {
    {"cat3", {"CAT3", NULL, NULL}},
    {"cat5", {"CAT5", NULL, NULL}},
    {"cat5e", {"CAT5e", NULL, NULL}},
    {"cat6", {"CAT6", NULL, NULL}},
    {"cat6a", {"CAT6a", NULL, NULL}},
    {"cat7", {"CAT7", NULL, NULL}},
    {"cat7a", {"CAT7a", NULL, NULL}},
    {"cat8", {"CAT8", NULL, NULL}},
    {"dac-active", {"Direct Attach Copper (Active)", "DAC (Active)", NULL}},
    {"dac-passive", {"Direct Attach Copper (Passive)", "DAC (Passive)", NULL}},
    {"mrj21-trunk", {"MRJ21 Trunk", NULL, NULL}},
    {"coaxial", {"Coaxial", NULL, NULL}},
    {"mmf", {"Multimode Fiber", NULL, NULL}},
    {"mmf-om1", {"Multimode Fiber (OM1)", NULL, NULL}},
    {"mmf-om2", {"Multimode Fiber (OM2)", NULL, NULL}},
    {"mmf-om3", {"Multimode Fiber (OM3)", NULL, NULL}},
    {"mmf-om4", {"Multimode Fiber (OM4)", NULL, NULL}},
    {"mmf-om5", {"Multimode Fiber (OM5)", NULL, NULL}},
    {"smf", {"Singlemode Fiber", "Single-mode Fiber", NULL}},
    {"smf-os1", {"Singlemode Fiber (OS1)", NULL, NULL}},
    {"smf-os2", {"Singlemode Fiber (OS2)", NULL, NULL}},
    {"aoc", {"Active Optical Cabling (AOC)", "AOC", NULL}},
    {"power", {"Power", NULL, NULL}},
    {"usb", {"USB", NULL, NULL}},
    {NULL, {NULL, NULL, NULL}},
};
static const nb_choice UNITS[] = {
    {"km", {"Kilometers", "Kilometres", NULL}},
    {"m", {"Meters", "Metres", NULL}},
    {"cm", {"Centimeters", "Centimetres", NULL}},
    {"mi", {"Miles", NULL, NULL}},
    {"ft", {"Feet", NULL, NULL}},
    {"in", {"Inches", NULL, NULL}},
    {NULL, {NULL, NULL, NULL}},
};

/* The value of @text among @c (a value or a label, any case), or NULL. */
static const char *choice(const nb_choice *c, const char *text) {
  for (; c->value; c++) {
    if (strcasecmp(text, c->value) == 0)
      return c->value;
    for (int i = 0; i < 3 && c->labels[i]; i++)
      if (strcasecmp(text, c->labels[i]) == 0)
        return c->value;
  }
  return NULL;
}

/* @text as NetBox's length and unit: `NUMBER [UNIT]` (UNIT a value or a
 * label of CableLengthUnitChoices; none: m, as design XML gives metres).
 * 1 with @num and *@unit set, or 0 (both untouched) when it is not of
 * that form. */
static int length_of(const char *text, char *num, size_t nsize,
                     const char **unit) {
  char *end = NULL;
  double v = strtod(text, &end);
  if (end == text || !(v >= 0) || end - text >= (long)nsize ||
      isspace((unsigned char)text[0]))
    return 0;
  const char *u = end;
  while (*u == ' ')
    u++;
  const char *val = *u ? choice(UNITS, u) : "m";
  if (!val)
    return 0;
  snprintf(num, nsize, "%.*s", (int)(end - text), text);
  *unit = val;
  return 1;
}

/* Append "KEY: TEXT" to description @d (`; ` between). */
static void describe(char *d, size_t size, const char *key, const char *text) {
  size_t n = strlen(d);
  if (n < size)
    snprintf(d + n, size - n, "%s%s: %s", n ? "; " : "", key, text);
}

static void cell(FILE *out, const char *s, int last) {
  fl_wr_csv_cell(out, s ? s : "");
  fputc(last ? '\n' : ',', out);
}

/* The value of attribute @key of link @l among @c; "" when it has none;
 * one it is not goes to description @d. */
static const char *attr_choice(const fl_fabric *fab, fl_id l, const char *key,
                               const char *column, const nb_choice *c, char *d,
                               size_t size) {
  const char *v = fl_fabric_attr(fab, FL_ENT_LINK, l, key);
  if (!v || !*v)
    return "";
  const char *val = choice(c, v);
  if (!val)
    describe(d, size, column, v);
  return val ? val : "";
}

static void put_row(const fl_fabric *fab, FILE *out, fl_id l, const nb_end *a,
                    const nb_end *b) {
  char num[64] = "", desc[NB_CELL] = "";
  const char *unit = "";
  const char *status =
      attr_choice(fab, l, "status", "status", STATUS, desc, sizeof desc);
  if (!*status)
    status = fl_fabric_link_flags(fab, l) & FL_LINK_DECLARED ? "planned"
                                                             : "connected";
  const char *type =
      attr_choice(fab, l, "cable-type", "type", TYPES, desc, sizeof desc);
  const char *len = fl_fabric_attr(fab, FL_ENT_LINK, l, "length");
  if (len && *len && !length_of(len, num, sizeof num, &unit))
    describe(desc, sizeof desc, "length", len);
  cell(out, a->dev, 0), cell(out, "dcim.interface", 0);
  cell(out, a->ifname, 0);
  cell(out, b->dev, 0), cell(out, "dcim.interface", 0);
  cell(out, b->ifname, 0);
  cell(out, type, 0);
  cell(out, status, 0);
  cell(out, fl_fabric_attr(fab, FL_ENT_LINK, l, "label"), 0);
  cell(out, num, 0), cell(out, unit, 0), cell(out, desc, 1);
}

int fl_write_netbox_cables(const fl_fabric *fab, FILE *out, fl_error *err) {
  int rc = fl_wr_cables_check(fab, "NetBox", err);
  if (rc == FL_OK)
    rc = check_all(fab, err);
  if (rc != FL_OK)
    return rc;
  fputs("side_a_device,side_a_type,side_a_name,side_b_device,side_b_type,"
        "side_b_name,type,status,label,length,length_unit,description\n",
        out);
  nb_end a, b;
  for (fl_id l = 0; l < fl_fabric_link_count(fab); l++) {
    fl_id pa = fl_fabric_link_port(fab, l, 0);
    fl_id pb = fl_fabric_link_port(fab, l, 1);
    if (pa == FL_NONE || pb == FL_NONE || fl_fabric_link_internal(fab, l))
      continue;
    if (end_of(fab, pa, &a, err) != FL_OK || end_of(fab, pb, &b, err) != FL_OK)
      return FL_EINVAL; /* checked above: not reached */
    put_row(fab, out, l, &a, &b);
  }
  if (fflush(out) != 0 || ferror(out))
    return fl_error_set(err, FL_EIO, NULL, 0, 0,
                        "writing the NetBox cable CSV failed");
  return FL_OK;
}
