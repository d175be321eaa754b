/* SPDX-License-Identifier: MIT */
/*
 * core/model/alias.h — the alias layer (DESIGN.md §4 "Names"): canonical
 * spellings of node and port names, so that a design and an as-built dump
 * written by different tools can be matched (internal to the core).
 *
 * Why: the same cable is `Spine1 Eth1/1` in a Cisco plan, `spine1.dc.example
 * Ethernet1/1` in LLDP, `spine1 1/1` in a spreadsheet and `SPINE1 swp1` on a
 * Cumulus box. Matching compares canonical forms only; what users see in
 * findings stays the spelling of the design (or of the as-built input when
 * the design has none).
 *
 * Rules (docs/formats/README.md "Names and the alias layer"):
 *  - node: trim, collapse blank runs to one space, lower-case; in the first
 *    word, drop the domain of an FQDN (`leaf1.pod2.example.com` -> `leaf1`)
 *    unless the word is an IPv4 address or a MAC address. The short name is
 *    used only when it is unambiguous: full names are compared first, and
 *    two nodes that share a short name keep (and match on) their full names.
 *  - port: trim, lower-case; drop a unit / sub-interface suffix `.N`
 *    (Junos `ge-0/0/0.0`, `Ethernet1/1.100`); drop a Junos media prefix
 *    `xx-` (`xe-`, `ge-`, `et-`); drop a vendor interface-type word followed
 *    by a digit (`Ethernet`, `Eth`, `Et`, `swp`, `etp`, `Port`, `P`,
 *    `GigabitEthernet`, `HundredGigE`, ...), so `Ethernet1/1`, `Eth1/1`,
 *    `eth1/1` and `1/1` are one port, `swp26` is `26`, `P12` is `12`;
 *    breakout sub-ports keep their separators (`Ethernet1/1/2` -> `1/1/2`,
 *    Cumulus `swp1s2` -> `1s2`, SONiC alias `etp46a` -> `46a`).
 *  - LLDP port ids: which of PortID / PortDescr names the port depends on
 *    the PortID subtype (IEEE 802.1AB-2016 §8.5.3): `ifname`/`ifalias`/
 *    "Interface name" use the id; `mac`, `local`/"Locally assigned" and
 *    `addr` use the description when it looks like an interface name.
 *
 * All functions are pure (no state), O(length of the input).
 */
#ifndef FABRICLINT_CORE_ALIAS_H
#define FABRICLINT_CORE_ALIAS_H

#include <stddef.h>

/** Longest canonical name kept; longer inputs are truncated (still unique
 * enough for matching, and never split a byte sequence in the middle of
 * what a caller compares, since both sides are truncated alike). */
#define FL_ALIAS_MAX 256

/**
 * fl_alias_node() — canonical form of node name (@s, @len) into @out
 * (@size bytes, NUL-terminated). Returns the length written.
 */
size_t fl_alias_node(const char *s, size_t len, char *out, size_t size);

/**
 * fl_alias_node_full() — like fl_alias_node() but keeps the domain of an
 * FQDN (`leaf1.pod2.example.com` stays whole): the spelling compared first,
 * and the only one compared when two nodes of one side share a short name.
 */
size_t fl_alias_node_full(const char *s, size_t len, char *out, size_t size);

/**
 * fl_alias_node_compatible() — 1 when two full canonical names (from
 * fl_alias_node_full()) may name the same device: equal, or one is the
 * other cut at a label boundary (`leaf1` and `leaf1.pod1.example.com`,
 * never `leaf1.pod1.example.com` and `leaf1.pod2.example.com`).
 */
int fl_alias_node_compatible(const char *a, const char *b);

/** fl_alias_port() — canonical form of port label (@s, @len). */
size_t fl_alias_port(const char *s, size_t len, char *out, size_t size);

/**
 * fl_alias_port_alt() — the alternative spelling of a canonical port tried
 * when the canonical one finds nothing: `1/N` <-> `N` (a fixed-config
 * switch's only module). Returns the length written, 0 when none.
 */
size_t fl_alias_port_alt(const char *canon, char *out, size_t size);

/** 1 when (@s, @len) is a MAC address (xx:xx:xx:xx:xx:xx, '-' or '.' forms). */
int fl_alias_is_mac(const char *s, size_t len);

/** 1 when (@s, @len) looks like an interface name: a letter followed
 * somewhere by a digit, no blank (`eth0`, `swp1`, `ge-3/3/1`). */
int fl_alias_is_ifname(const char *s, size_t len);

/**
 * fl_alias_lldp_port() — the string that names a neighbour's port, from its
 * LLDP PortID subtype @subtype (lldpd `type` attribute or the Junos
 * `*-subtype` text; NULL when absent), PortID @id and PortDescr @descr
 * (either may be NULL). Returns @id or @descr (borrowed), or NULL when
 * neither can name a port.
 */
const char *fl_alias_lldp_port(const char *subtype, const char *id,
                               const char *descr);

/**
 * fl_alias_int() — the port number a canonical port spelling stands for
 * when it is a plain decimal number (`26`, from `swp26`), else 0.
 */
unsigned fl_alias_int(const char *canon);

#endif /* FABRICLINT_CORE_ALIAS_H */
