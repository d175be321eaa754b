/* SPDX-License-Identifier: MIT */
/*
 * fabriclint/write.h — writing a fabric in the formats fabriclint reads.
 *
 * Used by `fabriclint gen` and `fabriclint convert` and by tests and
 * benchmarks to produce the same fabric in several formats. Writers take a
 * finalized fabric, write to an open stream they do not close, and produce
 * deterministic output (the same fabric gives byte-identical text).
 */
#ifndef FABRICLINT_WRITE_H
#define FABRICLINT_WRITE_H

#include <stdio.h>

#include "fabriclint/common.h"
#include "fabriclint/error.h"
#include "fabriclint/fabric.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * fl_write_design_xml() — the fabric as fabriclint design XML
 * (docs/design-xml.md, schema/design.rng): every node with kind, name, GUID
 * when known, port count, tier and attributes; every port that has a label,
 * GUID or LID; every link with width, speed and attributes.
 * Returns FL_OK or FL_EIO (write failed) with @err set.
 */
FL_EXTERN(int)
fl_write_design_xml(const fl_fabric *fab, FILE *out, fl_error *err);

/**
 * fl_write_ibnetdiscover() — the fabric as `ibnetdiscover` default-mode
 * output (rdma-core infiniband-diags/ibnetdiscover.c out_switch/out_ca and
 * port lines): switches first, then CAs, then routers; each cable listed
 * from both ends. Nodes without a GUID get a synthetic one derived from
 * their id. Returns FL_OK or FL_EIO.
 */
FL_EXTERN(int)
fl_write_ibnetdiscover(const fl_fabric *fab, FILE *out, fl_error *err);

/**
 * fl_write_ibsim_net() — the fabric as an ibsim net file (ibsim/sim_net.c
 * parse_netconf dialect: `Switch N "id"` / `Hca N "id"` headers and
 * `[p] "peer"[rp]` lines with w=/s= link options), so `ibsim -s FILE` can
 * simulate it. Node ids are the node names. Returns FL_OK or FL_EIO.
 */
FL_EXTERN(int)
fl_write_ibsim_net(const fl_fabric *fab, FILE *out, fl_error *err);

/**
 * fl_write_ufm_ndt() — the fabric's cables as a UFM Network Design Tool
 * plan (docs/formats/ufm-ndt.md, "Writing"): the header
 * `#StartDevice,StartPort,EndDevice,EndPort,LinkType` (plus `Cable
 * Length` when a link has a `length`), switch-to-switch rows first, then
 * host rows with the host end first, as UFM's ibnetdiscover-to-ndt.py
 * writes its two files. Switch ports are `Port N`; a leaf-board ASIC port
 * of a director chassis is `Blade BB_Port U/P` of the chassis name; a CA
 * port is `<host> <interface>` (device = the node's system, or the text
 * before its first blank; port = the node name). Cables inside a chassis
 * are left out. LinkType is the link's `link-type` attribute, else `Data`.
 * Returns FL_OK; FL_EINVAL (@err names the node) when a cable end cannot
 * be said in NDT: a CA port other than 1 or a CA name without a blank
 * (NDT host ports carry no number), or port 0; FL_EIO when writing fails.
 */
FL_EXTERN(int) fl_write_ufm_ndt(const fl_fabric *fab, FILE *out, fl_error *err);

/**
 * fl_write_netbox_cables() — the fabric's cables as NetBox's cable
 * bulk-import CSV (dcim CableImportForm columns `side_a_device,
 * side_a_type, side_a_name, side_b_device, side_b_type, side_b_name, type,
 * status, label, length, length_unit, description`;
 * docs/formats/netbox-cables.md, "Writing"), which fabriclint's NetBox
 * reader reads back into the same cabling. Ends are `dcim.interface`:
 * a switch by name (`<name>` of `MF0;<name>:...`), its port by label or
 * `Port N`; a director's leaf-board port as the chassis and `Blade B_Port
 * U/P`; an HCA `<host> <interface>` as interface <interface> of device
 * <host>, a labelled CA port as that label. status: the `status`
 * attribute, else `planned` (a declared cable) or `connected`. Cables
 * inside a chassis are left out. Returns FL_OK; FL_EINVAL (@err names the
 * nodes) when an end cannot be named or two would merge on import (one
 * device name for two switches, or for a switch and a host; one interface
 * for two ports), or when there is no cable; FL_EIO when writing fails.
 */
FL_EXTERN(int)
fl_write_netbox_cables(const fl_fabric *fab, FILE *out, fl_error *err);

/**
 * fl_write_dot() — the fabric as an undirected Graphviz graph, written by
 * libcgraph's agwrite() (docs/formats/dot.md, "Writing"): one node per
 * fabric node, its id the node name, with attributes `kind` (switch, ca,
 * router), `guid`, `desc`, `tier` (when given) and `system`; one edge per
 * cable with `src_port` / `dst_port` (the port's label when it has one,
 * else its number), `speed` (`4xNDR`, `400G`) when known and `length`.
 * Returns FL_OK, FL_ENOMEM or FL_EIO.
 */
FL_EXTERN(int) fl_write_dot(const fl_fabric *fab, FILE *out, fl_error *err);

/**
 * fl_write_graphml() — the fabric as GraphML 1.0, written with libxml2's
 * xmlTextWriter (docs/formats/graphml.md, "Writing"): `<key>`
 * declarations for the node data `name`, `kind`, `guid`, `desc`, `tier`,
 * `system` and the edge data `src_port`, `dst_port`, `speed`, `length`;
 * nodes `n<id>`, edges `e<id>`, the same values as fl_write_dot(). Strings
 * XML cannot hold (control characters) are written as '?'.
 * Returns FL_OK, FL_ENOMEM or FL_EIO.
 */
FL_EXTERN(int) fl_write_graphml(const fl_fabric *fab, FILE *out, fl_error *err);

/**
 * fl_write_slurm_tree() — the fabric's switch hierarchy as a Slurm
 * topology.conf for the topology/tree plugin (Slurm's topology.conf(5);
 * docs/formats/slurm.md): `SwitchName=<name> Nodes=<hostlist>` for each
 * switch that holds hosts, `SwitchName=<name> Switches=<hostlist>` above,
 * with `#` comments saying which fabric switches each stands for and which
 * hosts were left out and why. Nodes are hosts, not NICs (a host's NICs
 * together, by system name); CAs with a non-compute `role` attribute
 * (fabriclint/roles.h) or without a host name are left out (and listed),
 * SHARP Aggregation Nodes are no hosts. The hosts
 * cabled to the same switches are joined into one Slurm switch (a
 * rail-optimised SU's 8 rail leaves are one), and the switches cabled
 * upward from them into its parent, up to the top tier (rules:
 * core/io/slurm_tree.h). @fab must be finalized. Returns FL_OK; FL_EINVAL
 * when no compute host is cabled to a switch; FL_ENOMEM; FL_EIO when
 * writing fails.
 */
FL_EXTERN(int)
fl_write_slurm_tree(const fl_fabric *fab, FILE *out, fl_error *err);

/**
 * fl_write_slurm_block() — the same hierarchy's level-1 switches as the
 * blocks of Slurm's topology/block plugin (topology.conf(5)):
 * `BlockName=<name> Nodes=<hostlist>` per block and `BlockSizes=<n>`, n
 * the fewest hosts of a block. Errors as fl_write_slurm_tree().
 */
FL_EXTERN(int)
fl_write_slurm_block(const fl_fabric *fab, FILE *out, fl_error *err);

/**
 * fl_write_slurm_yaml() — both as one Slurm topology.yaml
 * (topology.yaml(5), Slurm 25.05 and later): topology `fabric-tree`
 * (cluster_default: true; tree: switches with switch, nodes, children) and
 * topology `fabric-block` (block: block_sizes, blocks with block, nodes).
 * Errors as fl_write_slurm_tree().
 */
FL_EXTERN(int)
fl_write_slurm_yaml(const fl_fabric *fab, FILE *out, fl_error *err);

#ifdef __cplusplus
}
#endif
#endif
