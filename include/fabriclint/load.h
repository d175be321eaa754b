/* SPDX-License-Identifier: MIT */
/*
 * fabriclint/load.h — reading inputs into a fabric, with format detection.
 *
 * One call loads one file into an fl_fabric under construction; several
 * calls add several inputs to the same fabric (a topology plus routing
 * dumps). Call fl_fabric_finalize() after the last one.
 */
#ifndef FABRICLINT_LOAD_H
#define FABRICLINT_LOAD_H

#include <stddef.h>
#include <stdint.h>

#include "fabriclint/common.h"
#include "fabriclint/error.h"
#include "fabriclint/fabric.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Input formats: stable codes of the formats fabriclint reads. Each has one
 * row in the format registry (core/io/formats.def, in detection order) with
 * its `--input-format` name (fl_format_name()), its role (topology or
 * routing state) and its loader; docs/formats/ has a page per format. A new
 * format takes the next free code. */
#define FL_FMT_AUTO 0u /**< detect from content (fl_detect_format) */
#define FL_FMT_IBNETDISCOVER                                                   \
  1u                          /**< ibnetdiscover topology output, incl. -g     \
                               */
#define FL_FMT_IBND_PORTS 2u  /**< ibnetdiscover -p ports report */
#define FL_FMT_DESIGN_XML 3u  /**< fabriclint design XML (schema/design.rng) */
#define FL_FMT_IBSIM_NET  4u  /**< ibsim net file (ibsim/sim_net.c dialect) */
#define FL_FMT_LFTS       5u  /**< opensm-lfts.dump, ibroute/dump_fts output */
#define FL_FMT_FDBS       6u  /**< OpenSM opensm.fdbs (dump_ucast_routes) */
#define FL_FMT_SL2VL      7u  /**< opensm-sl2vl.dump, smpquery sl2vl output */
#define FL_FMT_PATH_SL    8u  /**< path SLs: `0x<src CA GUID> <DLID> <SL>` */
#define FL_FMT_SUBNET_LST 9u  /**< OpenSM opensm-subnet.lst (topology) */
#define FL_FMT_SAQUERY_PR 10u /**< saquery -p PathRecord output (path SLs) */
#define FL_FMT_ANNOTATIONS                                                     \
  11u /**< side file: node name -> attributes (CSV/YAML) */
#define FL_FMT_AR        12u /**< ibdiagnet2.far adaptive-routing dump */
#define FL_FMT_TOPO_IBDM 13u /**< ibdm topology file (ibdiagnet -t, .topo) */
#define FL_FMT_LLDPD_XML 14u /**< lldpcli -f xml show neighbors [details] */
#define FL_FMT_JUNOS_XML 15u /**< Junos show lldp neighbors | display xml */
#define FL_FMT_CISCO_PLAN                                                      \
  16u                    /**< Cisco cable plan XML (CISCO_NETWORK_TYPES)       \
                          */
#define FL_FMT_DBCSV 17u /**< ibdiagnet2.db_csv (AR_INFO: AR state) */
#define FL_FMT_SONIC_LAB_GRAPH                                                 \
  18u /**< SONiC sonic-mgmt LabConnectionGraph (fleet cabling plan) */
#define FL_FMT_SONIC_MINIGRAPH                                                 \
  19u /**< SONiC DeviceMiniGraph (one device's planned links) */
#define FL_FMT_UFM_NDT                                                         \
  20u /**< UFM Network Design Tool cabling plan (.ndt CSV) */
#define FL_FMT_IBLINKINFO                                                      \
  21u /**< iblinkinfo output (default, -l, --switches-only) */
/* port counters (include/fabriclint/counters.h), loaded after topology */
#define FL_FMT_PERFQUERY     22u /**< perfquery [-x|-E|-D] [-a -l] output */
#define FL_FMT_IBQUERYERRORS 23u /**< ibqueryerrors [--details] output */
#define FL_FMT_IBDIAG_PM     24u /**< ibdiagnet2.pm port counters */
#define FL_FMT_PROM_IB       25u /**< infiniband_exporter Prometheus scrape */
/* drawings, DCIM exports and vendor neighbour views (issue #16) */
#define FL_FMT_GRAPHML                                                         \
  26u /**< GraphML topology (yEd/N2G drawings, documented data keys) */
#define FL_FMT_NETBOX_CABLES                                                   \
  27u /**< NetBox cables: table export (2.x-4.x) or bulk-import CSV */
#define FL_FMT_NXOS_LLDP                                                       \
  28u /**< NX-OS show lldp neighbors detail | xml, | json, NX-API */
#define FL_FMT_DOT 29u /**< Graphviz DOT topology with edge ports (cgraph) */
/* host profiles: one GPU server's GPU<->NIC PCIe affinity (issue 16),
 * attached to the hosts of the fabric at finalize */
#define FL_FMT_NCCL_TOPO  30u /**< NCCL topology XML (NCCL_TOPO_DUMP_FILE) */
#define FL_FMT_NVSMI_TOPO 31u /**< nvidia-smi topo -m matrix */
/* a system definition: one director or switch's ASICs and front panel */
#define FL_FMT_IBNL 32u /**< ibutils IBNL system definition (.ibnl) */
/** ibdiagnet2.db_csv as a topology: its NODES, PORTS, LINKS and CABLE_INFO
 * sections describe the fabric (and AR_INFO its AR state). Detected when
 * the dump has a NODES section; docs/formats/ibdiagnet-db-csv.md. */
#define FL_FMT_IBDIAG_DB 33u
/** `ibnetdiscover --cache` file (binary), read through libibnetdisc in a
 * child process; docs/formats/ibnetdiscover-cache.md. */
#define FL_FMT_IBND_CACHE 34u
/** An ibdiagnet output folder (a folder holding an ibdiagnet2.db_csv): the
 * fabric from one file that describes it, then its routing state and
 * counters; docs/formats/ibdiagnet-dir.md. */
#define FL_FMT_IBDIAG_DIR 35u

/** 1 when @fmt describes topology (nodes and links), 0 for routing state.
 * Topology inputs are loaded before routing inputs. */
FL_EXTERN(int) fl_format_is_topology(uint32_t fmt);

/**
 * fl_load_options — knobs of the loaders. Zero-initialise, then set fields.
 * @node_name_map: path of an infiniband-diags node-name-map file (GUID ->
 *   name; semantics of rdma-core util/node_name_map.c), or NULL.
 * @system_pattern: POSIX extended regex with two capture groups (system,
 *   device) applied to CA node descriptions, or NULL for the default, which
 *   splits "<system> <device>" when the last word looks like a device
 *   (mlx5_0, HCA-1, hfi1_0, ...).
 * @no_schema: 1 to load design XML leniently: unknown elements and
 *   attributes are ignored (everything the loader uses is still checked).
 * @relaxng: 1 to validate design XML with libxml2's RelaxNG validator
 *   against schema/design.rng (the reference, 2.5-3x slower), instead of the
 *   built-in checks that mirror the schema rule for rule. The environment
 *   variable FABRICLINT_DESIGN_RELAXNG=1 has the same effect.
 * @plane: a plane name (`--plane NAME:FILE`), or NULL: every node the input
 *   adds gets the attribute `plane` = NAME (over one the input gives), and
 *   the input's loader notes belong to that plane (fabriclint/planes.h).
 * @node_name_map_text/@node_name_map_len: the bytes of @node_name_map,
 *   already read (borrowed), or NULL: every loader that uses the map parses
 *   these instead of reading the file again (a FIFO or `-` can be read
 *   once; the CLI reads and checks the map once, whatever the inputs).
 * @digest: 1 to record the size and SHA-256 of the bytes of every file read
 *   into the fabric (inputs, folder members, ibsim includes; IBNL files
 *   always), as they were read: the HTML report's provenance states them
 *   without opening a file again (a FIFO or pipe can be read only once).
 *   Costs one SHA-256 pass over each file (~1 GB/s).
 */
/**
 * The fabric size cap: what the inputs of one fabric may build, however
 * they expand (an IBNL system type is up to 2^20 ASICs, a DOT edge between
 * two subgraphs the product of their sizes). Beyond it, loading stops at
 * once with FL_EPARSE naming the cap and its environment variable
 * (FABRICLINT_MAX_NODES, FABRICLINT_MAX_PORTS, FABRICLINT_MAX_LINKS: a
 * positive count replaces the default). The defaults hold 4x the largest
 * fabrics in use (a 100,000-GPU cluster: ~105,000 nodes, ~300,000 cables;
 * an InfiniBand subnet has at most 49,151 unicast LIDs, IBA 4.1.3); docs/cli.md
 * "Limits".
 */
#define FL_FABRIC_MAX_NODES 262144u
#define FL_FABRIC_MAX_PORTS 4194304u
#define FL_FABRIC_MAX_LINKS 1048576u

typedef struct fl_load_options {
  const char *node_name_map;
  const char *system_pattern;
  int no_schema;
  int relaxng;
  const char *plane;
  int digest;
  const char *node_name_map_text;
  size_t node_name_map_len;
} fl_load_options;

/**
 * fl_format_name() — "ibnetdiscover", "ibnetdiscover-ports", "design-xml",
 * "ibsim-net", or "auto". Never NULL.
 */
FL_EXTERN(const char *) fl_format_name(uint32_t fmt);

/**
 * fl_format_name_at() — the name of the @i-th readable input format
 * (0-based, in detection order), or NULL past the last: for listing the
 * names `--input-format` accepts. Static storage.
 */
FL_EXTERN(const char *) fl_format_name_at(size_t i);

/**
 * fl_format_parse() — inverse of fl_format_name(); returns FL_FMT_AUTO for
 * "auto" and (uint32_t)-1 for an unknown name.
 */
FL_EXTERN(uint32_t) fl_format_parse(const char *name);

/**
 * fl_detect_format() — guess the format of file @path from its first 64 KiB:
 * an XML root element <fabric> in the fabriclint namespace is design XML,
 * <lldp> lldpd XML, <lldp-neighbors-information> (or an <rpc-reply> holding
 * one) Junos LLDP XML, <CISCO_NETWORK_TYPES> a Cisco cable plan; a line
 * `START_<NAME>` with a later `END_<NAME>` is an ibdiagnet2.db_csv; indented
 * `PORT -> TYPE NAME PORT` lines under `TYPE NAME` lines are an ibdm
 * topology file; a
 * line starting with vendid=/switchguid=/caguid=/Switch/Ca/Rt and a quoted
 * "S-"/"H-"/"R-" id is ibnetdiscover; `SW  <lid> <port> 0x...` lines are the
 * -p report; Switch/Hca headers with free-form ids are an ibsim net file.
 * Returns the FL_FMT_* value, or FL_FMT_AUTO with @err set (file unreadable,
 * or content recognised as nothing; the ibnetdiscover binary --cache format
 * is named as such). For a folder: the format of its files (all must
 * agree; hidden files are skipped).
 */
FL_EXTERN(uint32_t) fl_detect_format(const char *path, fl_error *err);

/**
 * fl_fabric_load() — parse file @path in format @fmt (FL_FMT_AUTO detects)
 * and add its nodes, ports and links to @fab, which must not be finalized.
 * @path may be a folder: its regular files (not hidden ones) are loaded in
 * name order into the same fabric, as per-device neighbour files are.
 * @opts may be NULL (defaults). The file is only read, never modified.
 * Returns FL_OK; FL_EIO (unreadable), FL_EPARSE (bad content: @err names
 * file, line, column and what was expected) or FL_ENOMEM. On error @fab may
 * hold part of the input and should be freed.
 */
FL_EXTERN(int)
fl_fabric_load(fl_fabric *fab, const char *path, uint32_t fmt,
               const fl_load_options *opts, fl_error *err);

#ifdef __cplusplus
}
#endif
#endif /* FABRICLINT_LOAD_H */
