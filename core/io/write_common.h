/* SPDX-License-Identifier: MIT */
/*
 * core/io/write_common.h — what the fabric writers share (internal), and the
 * CSV cell writer of every CSV the tool writes (the NDT plan here, the work
 * order of `fabriclint diff` above).
 *
 * Design XML, DOT and GraphML name nodes by their display name, which must
 * then be unique. A fabric from an as-built dump can repeat a display name
 * (two nodes with one NodeDescription and no GUID to tell them apart), so
 * every later holder of a name gets a " #0x<guid>" (or " #<id>") suffix,
 * deterministically (node id order). The first holder keeps its name.
 */
#ifndef FABRICLINT_CORE_WRITE_COMMON_H
#define FABRICLINT_CORE_WRITE_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "fabriclint/error.h"
#include "fabriclint/fabric.h"

/**
 * fl_wr_names — node names as written. @names[i] is the name of node i
 * (borrowed from the fabric, or @owned[i] when suffixed); @n nodes.
 */
typedef struct fl_wr_names {
  const char **names;
  char **owned;
  uint32_t n;
} fl_wr_names;

/** fl_wr_names_build() — fill zero-filled @w for @fab; 0, or -1 when out of
 * memory (free @w with fl_wr_names_free() in both cases). O(nodes). */
int fl_wr_names_build(const fl_fabric *fab, fl_wr_names *w);

/** fl_wr_names_free() — free what @w owns; safe on a zero-filled @w. */
void fl_wr_names_free(fl_wr_names *w);

/** fl_wr_port_text() — port @p as a drawing names it: its label when it has
 * one, else its number written into @buf. Borrowed or @buf. */
const char *fl_wr_port_text(const fl_fabric *fab, fl_id p, char *buf,
                            size_t size);

/** fl_wr_rate_text() — the rate of link @l as `4xNDR` (InfiniBand width and
 * speed), `NDR` (no width known), `400G` (Ethernet), or "" when the speed is
 * unknown; into @buf, returned. */
const char *fl_wr_rate_text(const fl_fabric *fab, fl_id l, char *buf,
                            size_t size);

/** fl_wr_rate_parse() — the inverse of fl_wr_rate_text(), for the drawing
 * loaders (GraphML, DOT): width and speed of `4xNDR`, `NDR` (width 4, or 1
 * for an Ethernet speed) or `400G`. Returns 0 and sets @width and @speed
 * (FL_WIDTH_*, FL_SPEED_* codes of fabric.h), or -1 when @s is none of
 * these (@width and @speed untouched). */
int fl_wr_rate_parse(const char *s, uint32_t *width, uint32_t *speed);

/** fl_wr_kind_parse() — the inverse of fl_node_kind_name(), for the drawing
 * loaders (GraphML, DOT): FL_NODE_SWITCH for `switch` and for no value
 * (NULL or ""), FL_NODE_CA for `ca`, `host` or `hca`, FL_NODE_ROUTER for
 * `router` (any case); 0 for any other value. */
uint32_t fl_wr_kind_parse(const char *k);

/** fl_wr_guid_text() — `0x%016x` of @guid, or "" for 0; into @buf. */
const char *fl_wr_guid_text(uint64_t guid, char *buf, size_t size);

/** fl_wr_tier_text() — the tier of node @n when an input gave it (a derived
 * tier is derived again on loading), else ""; into @buf. */
const char *fl_wr_tier_text(const fl_fabric *fab, fl_id n, char *buf,
                            size_t size);

/** fl_wr_host_split() — where a CA name splits into host and interface
 * (`dgx-001 mlx5_0`: host `dgx-001`, interface `mlx5_0`), for the writers
 * whose formats name a host port by the two (UFM NDT, NetBox): after the
 * node's system @sys when @name starts with it and a blank, else at the
 * first blank. Returns the host's length (the interface starts after the
 * blanks that follow it), or 0 when @name splits into no two non-empty
 * parts (no blank, a blank first or last). */
size_t fl_wr_host_split(const char *name, const char *sys);

/** fl_wr_switch_name() — switch name @name as UFM's converter and a site's
 * inventory call it: `<name>` of a `MF0;<name>:<model>/...` node
 * description (Mellanox/ufm_sdk_3.0 ibnetdiscover-to-ndt.py's
 * `MF0;(.*):`), else @name; into @buf (cut at @size - 1 bytes). */
void fl_wr_switch_name(const char *name, char *buf, size_t size);

/** The characters that start a formula in a spreadsheet cell (OWASP). */
#define FL_WR_CSV_FORMULA_LEADS "=+-@\t\r"

/** fl_wr_csv_formula_like() — 1 when cell text @s, after any leading
 * single quotes, begins with a character a spreadsheet reads as the start
 * of a formula: '=', '+', '-', '@', tab or CR (OWASP "CSV Injection"),
 * else 0. */
int fl_wr_csv_formula_like(const char *s);

/** fl_wr_csv_cell() — write @s to @out as one CSV cell (RFC 4180): quoted
 * when it holds a comma, a double quote, a CR or a LF, or begins or ends
 * with a blank (space or tab: readers that trim unquoted cells, as the NDT
 * reader does, keep it then), each double quote inside doubled; else as it
 * is. A cell that is fl_wr_csv_formula_like() is neutralised as OWASP
 * advises: one single quote put before it and the whole quoted
 * (`=HYPERLINK(..)` -> `"'=HYPERLINK(..)"`), so a spreadsheet shows it as
 * text; the NDT reader takes that one quote off again (ufm_ndt.c).
 * "" is written as nothing. No separator or line end is written. This is
 * the one CSV cell writer (NDT plans, diff work orders). Output errors are
 * left to the caller's ferror(). */
void fl_wr_csv_cell(FILE *out, const char *s);

/** Highest InfiniBand port number (a one-byte field, IBA 14.2.5.6): the
 * ibnetdiscover and ibsim readers refuse a higher port or port count. */
#define FL_WR_IB_PORT_MAX 255u

/**
 * fl_wr_ib_ports_check() — what the InfiniBand dump writers (ibnetdiscover,
 * ibsim net) cannot say, refused before anything is written, so that a
 * writer that succeeds writes what its reader accepts (issue #32 cases 3
 * and 15): a port number above FL_WR_IB_PORT_MAX (DOT, GraphML and NDT
 * labels are free text), and with @one_cable (a port of a dump has one
 * peer) a port with several cables or a cable looped onto itself, which
 * the file would otherwise lose or pair wrongly. @format names the format in
 * the message ("ibsim net"). Returns FL_OK, or FL_EINVAL with @err naming the
 * node and port. O(ports).
 */
int fl_wr_ib_ports_check(const fl_fabric *fab, const char *format,
                         int one_cable, fl_error *err);

/**
 * fl_wr_cables_check() — the drawing writers (DOT, GraphML) refuse a fabric
 * without a cable (a link with a port at both ends), as their readers
 * refuse a graph without edges (a drawing without cables is no cabling
 * plan): a writer that succeeds writes what its reader accepts (issue #32,
 * found by fuzz_convert_rt: an ibnetdiscover dump of one switch). @format
 * names the format in the message ("DOT"). Returns FL_OK, or FL_EINVAL
 * with @err saying nothing was written. O(links).
 */
int fl_wr_cables_check(const fl_fabric *fab, const char *format, fl_error *err);

#endif
