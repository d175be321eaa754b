/* SPDX-License-Identifier: MIT */
/*
 * core/io/loaders.h — the per-format loaders behind fl_fabric_load()
 * (internal).
 *
 * Each takes a fabric under construction, the input read whole by
 * fl_fabric_load() (fileio.h: path and bytes; a loader never reopens the
 * path, which may be a pipe or standard input), the options (never
 * NULL here: fl_fabric_load() passes zeroed defaults) and an error record.
 * Each returns FL_OK, or FL_EIO / FL_EPARSE / FL_ENOMEM with @err naming
 * file, line (and column where known) and what was expected.
 * Loaders only read their input; they never modify or create files.
 */
#ifndef FABRICLINT_CORE_LOADERS_H
#define FABRICLINT_CORE_LOADERS_H

#include <stddef.h>
#include <stdint.h>

#include "fabriclint/load.h"
#include "io/fileio.h"
#include "model/build.h"

/** How a folder loader detects and loads its files: fl_detect_format() and
 * fl_fabric_load(), given by core/io/load.c (the loader calls back, so
 * that the two files do not depend on each other). */
typedef struct fl_dir_ops {
  uint32_t (*detect)(const char *path, fl_error *err);
  int (*load)(fl_fabric *fab, const char *path, uint32_t fmt,
              const fl_load_options *opts, fl_error *err);
} fl_dir_ops;

/** An ibdiagnet output folder (@n regular files @files of folder @dir, in
 * name order): the fabric from one file that describes it, then its
 * routing state and counters; core/io/ibdiag_dir.c. */
int fl_load_ibdiag_dir(fl_fabric *fab, const char *dir, char **files, size_t n,
                       const fl_dir_ops *ops, const fl_load_options *opts,
                       fl_error *err);

/** ibnetdiscover topology output (default and -g modes), core/io/ibnd.c. */
int fl_load_ibnetdiscover(fl_fabric *fab, const fl_input *in,
                          const fl_load_options *opts, fl_error *err);
/** ibnetdiscover -p ports report, core/io/ibnd_ports.c. */
int fl_load_ibnd_ports(fl_fabric *fab, const fl_input *in,
                       const fl_load_options *opts, fl_error *err);
/** ibsim net file (ibsim/sim_net.c dialect), core/io/ibsim_net.c. */
int fl_load_ibsim_net(fl_fabric *fab, const fl_input *in,
                      const fl_load_options *opts, fl_error *err);
/** iblinkinfo output (default and -l forms), core/io/iblinkinfo.c. */
int fl_load_iblinkinfo(fl_fabric *fab, const fl_input *in,
                       const fl_load_options *opts, fl_error *err);
/** fabriclint design XML, validated against schema/design.rng,
 * core/io/design_xml.c. */
int fl_load_design_xml(fl_fabric *fab, const fl_input *in,
                       const fl_load_options *opts, fl_error *err);

/* Routing state, one loader per format: core/io/lft_dump.c, fdbs_dump.c,
 * sl2vl_dump.c, path_sl.c, saquery_pr.c, subnet_lst.c. Switches, ports and
 * LIDs are resolved against the topology already loaded (load topology
 * first). */
int fl_load_lfts(fl_fabric *fab, const fl_input *in,
                 const fl_load_options *opts, fl_error *err);
int fl_load_fdbs(fl_fabric *fab, const fl_input *in,
                 const fl_load_options *opts, fl_error *err);
int fl_load_sl2vl(fl_fabric *fab, const fl_input *in,
                  const fl_load_options *opts, fl_error *err);
int fl_load_path_sl(fl_fabric *fab, const fl_input *in,
                    const fl_load_options *opts, fl_error *err);
int fl_load_subnet_lst(fl_fabric *fab, const fl_input *in,
                       const fl_load_options *opts, fl_error *err);
int fl_load_saquery_pr(fl_fabric *fab, const fl_input *in,
                       const fl_load_options *opts, fl_error *err);

/** Attribute side file (node name -> attributes; CSV or YAML) that
 * annotates an already loaded topology, core/annotate.c. */
int fl_load_annotations(fl_fabric *fab, const fl_input *in,
                        const fl_load_options *opts, fl_error *err);
/** ibdiagnet2.far adaptive-routing groups, core/ar_load.c. */
int fl_load_ar(fl_fabric *fab, const fl_input *in, const fl_load_options *opts,
               fl_error *err);
/** ibdiagnet2.db_csv: AR_INFO sets the `ar` / `ar-sl-mask` switch
 * attributes; other sections are only checked, core/dbcsv_load.c. */
int fl_load_dbcsv(fl_fabric *fab, const fl_input *in,
                  const fl_load_options *opts, fl_error *err);

/* ---- port counters (issue #18): core/io/ctr_*.c, into core/model/counters.h;
 * records name ports by GUID, LID or node name and are attached to the
 * topology at finalize ---------------------------------------------------- */

/** perfquery output (PortCounters, -x, -E, -D; -a -l), core/io/ctr_perfquery.c.
 */
int fl_load_perfquery(fl_fabric *fab, const fl_input *in,
                      const fl_load_options *opts, fl_error *err);
/** ibqueryerrors output (with or without --details, --data, -r),
 * core/io/ctr_ibqueryerrors.c. */
int fl_load_ibqueryerrors(fl_fabric *fab, const fl_input *in,
                          const fl_load_options *opts, fl_error *err);
/** ibdiagnet2.pm (`Port=N Lid=.. GUID=..` blocks), core/io/ctr_pm.c. */
int fl_load_ibdiag_pm(fl_fabric *fab, const fl_input *in,
                      const fl_load_options *opts, fl_error *err);
/** Prometheus text exposition of infiniband_exporter, core/io/ctr_prom.c. */
int fl_load_prom_ib(fl_fabric *fab, const fl_input *in,
                    const fl_load_options *opts, fl_error *err);

/* ---- host profiles (issue 16): GPU<->NIC affinity of one GPU server, into
 * core/model/hostprof.h, attached to hosts at finalize ------------------- */

/** NCCL topology XML (NCCL_TOPO_DUMP_FILE), core/io/nccl_topo.c. */
int fl_load_nccl_topo(fl_fabric *fab, const fl_input *in,
                      const fl_load_options *opts, fl_error *err);
/** nvidia-smi topo -m output, core/io/nvsmi_topo.c. */
int fl_load_nvsmi_topo(fl_fabric *fab, const fl_input *in,
                       const fl_load_options *opts, fl_error *err);

/* ---- as-built neighbour views and cable plans (issue #5) ---------------- */

/** ibdm topology file (ibdiagnet -t, ibtopodiff), core/topo_ibdm.c. */
int fl_load_topo_ibdm(fl_fabric *fab, const fl_input *in,
                      const fl_load_options *opts, fl_error *err);
/** An IBNL system definition (.ibnl) as its ASICs, core/io/ibnl_load.c. */
int fl_load_ibnl(fl_fabric *fab, const fl_input *in,
                 const fl_load_options *opts, fl_error *err);
/** lldpd `lldpcli -f xml show neighbors [details]`, core/lldp_xml.c. */
int fl_load_lldpd_xml(fl_fabric *fab, const fl_input *in,
                      const fl_load_options *opts, fl_error *err);
/** Junos `show lldp neighbors | display xml`, core/junos_xml.c. */
int fl_load_junos_xml(fl_fabric *fab, const fl_input *in,
                      const fl_load_options *opts, fl_error *err);
/** UFM Network Design Tool cabling plan (.ndt CSV), core/io/ufm_ndt.c. */
int fl_load_ufm_ndt(fl_fabric *fab, const fl_input *in,
                    const fl_load_options *opts, fl_error *err);
/** Cisco cable plan XML (CISCO_NETWORK_TYPES), core/cisco_plan.c. */
int fl_load_cisco_plan(fl_fabric *fab, const fl_input *in,
                       const fl_load_options *opts, fl_error *err);

/**
 * fl_lldp_mau_speed() — the FL_SPEED_* code of an lldpd "MAU oper type"
 * string (`100GbaseCR4 - ...` -> FL_SPEED_ETH_100G, `1000BaseTFD - ...` ->
 * FL_SPEED_ETH_1G): the leading rate, Gb/s when followed by `G`, Mb/s when
 * followed by `Base`. Returns FL_SPEED_UNKNOWN for NULL, rates below 1 Gb/s
 * and anything else. Pure.
 */
uint32_t fl_lldp_mau_speed(const char *mau);

/**
 * fl_local_name_from_path() — the device a per-device neighbour file
 * describes: LLDP neighbour listings never name the local system, so the
 * file is named after it (`leaf-01.xml`, `leaf-01.example.com.lldp.xml`):
 * the base name without `.xml` (then `.lldp`), so two FQDNs never merge.
 * Writes into @buf; returns @buf.
 */
char *fl_local_name_from_path(const char *path, char *buf, size_t size);

/*
 * The neighbour builder (core/lldp_xml.c): per-device views (one LLDP
 * neighbour listing or one plan entry at a time) become nodes, ports and
 * links of one fabric. Nodes are found by their canonical name (alias.h),
 * ports by the canonical spelling of their label; a cable already added
 * from its other end is merged (FL_LINK_SEEN_A | FL_LINK_SEEN_B), so a
 * folder of per-device files makes one fabric and a cable seen from one end
 * only keeps FL_LINK_SEEN_A alone. The builder is seeded from what @fab
 * already holds, so several files loaded one after another merge too.
 */
typedef struct fl_nbr fl_nbr;
/** fl_nbr_begin() — start adding views from file @path; NULL on ENOMEM. */
fl_nbr *fl_nbr_begin(fl_fabric *fab, const char *path);
/**
 * fl_nbr_declared() — the names of this input declare devices (a cabling
 * plan: DOT, GraphML, NDT, NetBox, Cisco plan, ibdm topo), as opposed to
 * names observed by neighbours (LLDP, SONiC, NX-OS, Junos), where one
 * device is `sw1` to itself and `sw1.example.com` to a neighbour. Then a
 * name of this input matches another by short name (`sw1` and
 * `sw1.example.com`) only when that node comes from an earlier input, so
 * two devices one plan declares stay two (issue #32 case 22). Names are
 * kept whole, whatever their length (case 2).
 */
void fl_nbr_declared(fl_nbr *b);
/**
 * fl_nbr_once() — fl_nbr_declared(), and the input lists each cable once
 * (DOT, GraphML, NDT, NetBox rows): the same cable listed twice by it is
 * two cables (topology.port-connected-twice), not merged into one, so a
 * plan's repeated row stays visible (issue #32 case 3). A cable of an
 * earlier input is still matched, as views of one fabric are.
 */
void fl_nbr_once(fl_nbr *b);
/** File id of the builder's input (for fl_prov). */
uint32_t fl_nbr_file(const fl_nbr *b);
/** The fabric being built. */
fl_fabric *fl_nbr_fabric(fl_nbr *b);
/**
 * fl_nbr_node() — the node called @name (canonical match), created with
 * @kind when new (0: switch). A non-zero @kind given later for an existing
 * node overrides the default. Returns FL_NONE on ENOMEM.
 */
fl_id fl_nbr_node(fl_nbr *b, const char *name, uint32_t kind, fl_prov prov);
/** fl_nbr_port() — port labelled @label of @node (canonical match). */
fl_id fl_nbr_port(fl_nbr *b, fl_id node, const char *label, fl_prov prov);
/**
 * fl_nbr_link() — cable @pa (the listing device's port) to @pb. Merged
 * with an existing cable between the same ports; returns the link id.
 * @flags is FL_LINK_SEEN_A for a neighbour listing, FL_LINK_DECLARED for a
 * plan.
 */
fl_id fl_nbr_link(fl_nbr *b, fl_id pa, fl_id pb, uint32_t flags, fl_prov prov);
/** fl_nbr_end() — free the builder (the fabric keeps what was added). */
void fl_nbr_end(fl_nbr *b);

/*
 * Streaming XML input shared by the XML loaders (core/lldp_xml.c): libxml2's
 * xmlTextReader over the file in memory, with XML_PARSE_NONET and no entity
 * substitution; a document type declaration is refused when the reader
 * meets it, after libxml2 has decoded the input, so UTF-16 and other
 * encodings are covered (no DTD, no entity can be declared). The first libxml2
 * error is kept with its line and column.
 */
typedef struct fl_xr {
  void *reader; /* xmlTextReaderPtr */
  char *buf;
  size_t len;
  const char *path;
  fl_error *err;
  int xerr_set;
  uint32_t xerr_line, xerr_col;
  char xerr_msg[512];
} fl_xr;
/** Read input @in (borrowed: it must outlive @x); FL_OK or FL_ENOMEM. A
 * DOCTYPE (in any encoding) fails at fl_xr_next() with FL_EPARSE. */
int fl_xr_open(fl_xr *x, const fl_input *in, fl_error *err);
/** Next node: 1 read, 0 end of document, negative FL_E* with @err set. */
int fl_xr_next(fl_xr *x);
/** Node type (XML_READER_TYPE_*), depth, local name of the current node. */
int fl_xr_type(const fl_xr *x);
int fl_xr_depth(const fl_xr *x);
const char *fl_xr_name(const fl_xr *x);
/** 1 when the current element is empty (<a/>). */
int fl_xr_empty(const fl_xr *x);
/** Attribute @name of the current element (malloc'd, trimmed) or NULL. */
char *fl_xr_attr(const fl_xr *x, const char *name);
/** Text content of the current element (malloc'd, trimmed; "" if none). */
char *fl_xr_text(fl_xr *x);
/** Line of the current node (1-based). */
uint32_t fl_xr_line(const fl_xr *x);
/** Record a parse error at the current node; returns FL_EPARSE. */
int fl_xr_fail(fl_xr *x, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
void fl_xr_close(fl_xr *x);

/**
 * fl_plan_ports_expand() — expand a Cisco cable plan port set ("eth1/1-
 * eth1/15, eth1/20") into canonical port spellings (alias.h), written
 * NUL-separated into @out (@size bytes), ending with an extra NUL. Returns
 * the number of ports, or -1 when the set is malformed or too large.
 * Implemented in core/cisco_plan.c.
 */
int fl_plan_ports_expand(const char *set, char *out, size_t size);

/**
 * fl_plan_ports_size() — the buffer size in bytes fl_plan_ports_expand()
 * needs for port set @set (every canonical port, its NUL, and the closing
 * NUL; a set holds at most 4096 ports, so at most about 1 MB). Returns -1
 * when the set is malformed or too large, with the reason (a static
 * string) in *@why when @why is not NULL. Implemented in core/cisco_plan.c.
 */
long fl_plan_ports_size(const char *set, const char **why);

/**
 * fl_detect_input() — fl_detect_format() on input @in already read (its
 * first 64 KiB), so that a pipe or standard input is read only once.
 */
uint32_t fl_detect_input(fl_input *in, fl_error *err);

/**
 * fl_fabric_load_input() — fl_fabric_load() of input @in already read
 * (fileio.h; not a folder): detection (@fmt FL_FMT_AUTO) and the loader
 * parse the same bytes. @in stays the caller's. Same returns.
 */
int fl_fabric_load_input(fl_fabric *fab, fl_input *in, uint32_t fmt,
                         const fl_load_options *opts, fl_error *err);

#endif
