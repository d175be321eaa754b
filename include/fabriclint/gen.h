/* SPDX-License-Identifier: MIT */
/*
 * fabriclint/gen.h — generators for standard fabric topologies.
 *
 * `fabriclint gen` turns a handful of numbers into a complete plan (DESIGN.md
 * §5: "a plan of 100k GPUs is one command away"), and the tests and
 * benchmarks use the same generators to get fabrics of known shape. Each
 * generator builds a finalized fl_fabric whose every element is determined
 * by the parameters alone: names, GUIDs, LIDs, port numbers and attributes
 * are deterministic, so the same parameters give byte-identical output in
 * every writer (fabriclint/write.h).
 *
 * The generated fabric looks like a discovered one where that costs nothing:
 * every node has a GUID (switches and CAs from distinct ranges, see
 * FL_GEN_SWITCH_GUID_BASE / FL_GEN_CA_GUID_BASE), port GUIDs follow the
 * convention of ibsim (a CA port's GUID is its node GUID + port number, a
 * switch port's is the node GUID), vendor and device ids are those of
 * NVIDIA/Mellanox parts of the link speed's generation, and LIDs are handed
 * out the way an SM would: switch port 0 first, then each CA port, in node
 * order. Alongside that, the design intent is recorded as attributes: `tier`
 * on every node, `pod`, `su`, `rail` and `role` where they apply.
 *
 * Shapes and counts are documented per generator below; fl_gen_*_shape()
 * computes them without building anything, which is how the CLI validates
 * parameters and how the tests check a generated fabric against the
 * formulas.
 *
 * Extensibility: each topology kind has its own parameter struct, whose
 * fields read 0 as "the default", so fields can be added at the end
 * without breaking callers that zero-initialise. Rings and 2-D tori are
 * FL_GEN_TORUS (fl_gen_torus(); a ring is a torus with y = 1, and
 * FL_GEN_RING is only the CLI name for that case). Dragonflies are planned
 * as FL_GEN_DRAGONFLY with their own struct and fl_gen_dragonfly(), sharing
 * fl_gen_shape.
 *
 * Why rings, tori and a fat tree with a stray leaf-to-leaf cable: they are
 * the standard fabrics on which minimal routing has credit loops (the
 * deadlock plugin's positive cases, tests/routing/), as opposed to fat trees
 * routed up/down, which must have none.
 *
 * Ownership: the generators return a new fabric in *@out that the caller
 * frees with fl_fabric_free(); on error *@out is NULL and @err says which
 * parameter is wrong and what was expected.
 */
#ifndef FABRICLINT_GEN_H
#define FABRICLINT_GEN_H

#include <stdint.h>

#include "fabriclint/error.h"
#include "fabriclint/fabric.h"

#include "fabriclint/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Topology kinds, for fl_gen_kind_parse() / fl_gen_kind_name(). */
#define FL_GEN_FAT_TREE  1u
#define FL_GEN_RAIL_SU   2u
#define FL_GEN_TORUS     3u /**< 2-D torus (or ring): fl_gen_torus() */
#define FL_GEN_DRAGONFLY 4u /**< reserved, not implemented yet */
#define FL_GEN_RING      5u /**< "ring": fl_gen_torus() with y = 1 */

/** First switch node GUID minus one: switch i (0-based) is base + i + 1. */
#define FL_GEN_SWITCH_GUID_BASE 0x0002c90301000000ull
/** CA node GUIDs: CA i (0-based) is base + 2 * (i + 1); its port 1 is +1. */
#define FL_GEN_CA_GUID_BASE 0x0002c90302000000ull

/** Largest unicast LID (IBA 4.1.3: 0x0001-0xBFFF). */
#define FL_GEN_MAX_UCAST_LID 0xbfffu
/** Largest number of nodes a generator builds (a sanity bound). */
#define FL_GEN_MAX_NODES (1u << 21)

/**
 * fl_gen_shape — the counts of a generated topology.
 * @hosts: host systems (a DGX is one host with @rails CAs).
 * @cas: CA nodes. @switches: all switches = @leaves + @spines + @cores.
 * @links: all cables. @host_links: cables from CAs to leaves.
 * @pods: pods (fat tree) or SUs (rail-su) that hold at least one host.
 * @parallel: cables per connected switch pair.
 * @lids: LIDs assigned (all switches + all CAs, capped at
 *   FL_GEN_MAX_UCAST_LID; the rest of the ports keep LID 0).
 */
typedef struct fl_gen_shape {
  uint32_t hosts;
  uint32_t cas;
  uint32_t switches;
  uint32_t leaves;
  uint32_t spines;
  uint32_t cores;
  uint32_t pods;
  uint32_t parallel;
  uint32_t links;
  uint32_t host_links;
  uint32_t lids;
} fl_gen_shape;

/**
 * fl_gen_fat_tree_params — a folded-Clos (fat tree) of identical switches.
 * Zero-initialise, then set fields; 0 means the default.
 * @radix: k, ports per switch; even, 4..254. Required.
 * @tiers: 2 (leaf/spine) or 3 (leaf/spine/core in pods). Default 2.
 * @hosts: hosts to attach, 1..the full count; default the full count.
 * @parallel: m, cables per connected switch pair; must divide k/2.
 *   Default 1.
 * @width: link width in lanes (1, 2, 4, 8, 12). Default 4.
 * @speed: FL_SPEED_* of every link. Default FL_SPEED_NDR.
 * @no_lids: 1 to leave every LID 0 (a plan before the SM ran).
 * @extra_leaf_link: 1 to add one cable between the first and the last
 *   leaf (a miscabling that breaks the up/down structure: shortest paths
 *   then run leaf to leaf, and minimal routing may turn down-then-up). It
 *   is on port k+1 of both leaves, so those two leaves have k+1 ports and
 *   the radix must be at most 252; the tree needs at least 2 leaves. It
 *   adds 1 to the link count and nothing else to the shape.
 *
 * Shape, with k = radix and m = parallel (every switch uses k/2 ports down
 * and k/2 ports up, except the top tier which uses all k ports down):
 *
 *  2 tiers: k/m leaves of k/2 hosts, k/(2m) spines; each leaf has m cables
 *           to each spine. Full: k²/(2m) hosts, 3k/(2m) switches,
 *           k²/(2m) + k²/(2m) links.
 *  3 tiers: k/m pods; a pod has k/(2m) leaves of k/2 hosts and k/(2m)
 *           spines, each leaf with m cables to each spine of its pod;
 *           (k/(2m))² cores in k/(2m) groups: spine j of every pod has m
 *           cables to each core of group j. Full: k³/(4m²) hosts,
 *           k²/m² + k²/(4m²) switches, 3k³/(4m²) links.
 *           E.g. k = 64, m = 1: 65,536 hosts, 5,120 switches,
 *           196,608 links.
 *
 * A smaller @hosts fills leaves in order (leaf port i+1 takes the leaf's
 * i-th host); leaves and pods that would hold no host are left out, while
 * the tiers above are built complete, as NVIDIA's SuperPOD reference
 * architecture advises for partial builds.
 *
 * Ports: a leaf's hosts sit on ports 1..k/2, its uplink to spine s, copy c
 * on port k/2 + 1 + s·m + c. A 2-tier spine takes leaf l, copy c on port
 * l·m + c + 1. A 3-tier spine takes leaf l of its pod on port l·m + c + 1
 * and core g of its group on port k/2 + 1 + g·m + c. A core takes pod p on
 * port p·m + c + 1.
 *
 * Names: `leaf-pPP-LL`, `spine-pPP-SS`, `core-CCC`, hosts `nodeNNNN` with
 * one CA `nodeNNNN mlx5_0` (system `nodeNNNN`, device `mlx5_0`); numbers
 * are 1-based and zero-padded to the width of the largest (at least 2 for
 * pods/leaves/spines, 3 for cores, 4 for hosts). A 2-tier tree is pod 1.
 * Attributes: `tier` (0 CA, 1 leaf, 2 spine, 3 core); `pod` on everything
 * but cores; `role`=`compute` on CAs.
 */
typedef struct fl_gen_fat_tree_params {
  uint32_t radix;
  uint32_t tiers;
  uint32_t hosts;
  uint32_t parallel;
  uint32_t width;
  uint32_t speed;
  uint32_t no_lids;
  uint32_t extra_leaf_link;
} fl_gen_fat_tree_params;

/**
 * fl_gen_rail_su_params — a rail-optimised fabric of scalable units
 * (DGX SuperPOD style), 2 tiers (leaf/spine) or 3 (leaf/spine/core).
 * Zero-initialise; 0 means the default.
 * @sus: scalable units, >= 1. Required.
 * @hosts_per_su: hosts (DGX) per SU, H. Default 32.
 * @rails: compute HCAs per host = rail leaves per SU. Default 8.
 * @spines: P, spine switches (3 tiers: per spine group); must divide the
 *   leaf uplinks U. Default: the fewest that carry every uplink, at
 *   least 2 when U >= 2 (below).
 * @leaf_radix: ports per leaf, spine and core (k). Even, 4..254. Default 64
 *   (Quantum-2 QM9700).
 * @width, @speed: as for fat trees (default 4x NDR).
 * @hca_names: @rails device names, rail r's HCA is @hca_names[r]; NULL for
 *   the default, the DGX H100 map when @rails is 8 (mlx5_0, mlx5_3, mlx5_4,
 *   mlx5_5, mlx5_6, mlx5_9, mlx5_10, mlx5_11: DGX H100 User Guide,
 *   "Network Modules"), else `mlx5_<r>`.
 * @host_prefix: host names are `<prefix>-NNN`; NULL for "dgx".
 * @no_lids: as for fat trees.
 * @uplinks: U, cables from each leaf to the spines. Default: from
 *   @over_down:@over_up when set, else k/2 (1:1 on a full leaf, which then
 *   requires H <= k/2). Always H + U <= k.
 * @over_down, @over_up: the leaf tier's oversubscription, host cables :
 *   uplinks (2:1 halves the uplinks): U = H·@over_up/@over_down, which must
 *   be a whole number. Both 0: not given. Not with @uplinks.
 * @tiers: 2 (default) or 3.
 * @sus_per_group: 3 tiers: G, SUs under one spine group (a pod). Default:
 *   as many as a spine's down ports take, min(S, floor(D/R)) with D below.
 * @spine_over_down, @spine_over_up: 3 tiers: the spine tier's ratio, down
 *   cables : up cables. Default 1:1.
 *
 * Shape, with S SUs, H hosts per SU, R rails, k ports per switch, U uplinks
 * per leaf and m = U/P cables per leaf-spine pair. Every SU has R leaves;
 * HCA r of every host of SU u is on the rail-r leaf of SU u (host h of the
 * SU on leaf port h+1); a leaf's uplinks are its top U ports, k-U+1..k,
 * spine s copy c on port k-U+1 + s·m + c (ports between the hosts and the
 * uplinks stay free).
 *
 *  2 tiers: every leaf has m cables to each of the P spines; spine port
 *           (l·m + c) + 1 takes copy c from leaf l (l = u·R + r). A spine
 *           has k ports, so S·R·m <= k; the default P is the smallest
 *           divisor of U with S·R·U/P <= k, and at least 2 when U >= 2
 *           (one spine is a single point of failure of every leaf). That
 *           reproduces the DGX H100 SuperPOD (RA Table 4) counts: 1 SU ->
 *           4 spines, 2 -> 8, 3 -> 16, 4 -> 16. A given P that leaves
 *           S·R·m > k is refused:
 *           `--spines 8` at 4 SUs and 1:1 needs 32 x 4 = 128 ports per
 *           spine; at 2:1 (U = 16) 8 spines fit.
 *           Counts: S·H hosts, S·H·R CAs, S·R + P switches,
 *           S·H·R + S·R·U links.
 *  3 tiers: SUs form ceil(S/G) spine groups (pods) of G SUs (the last may
 *           hold fewer; its spines are built complete). A spine gives at
 *           most D = floor(k·d/(d+u)) ports down at the spine ratio d:u
 *           (k/2 at 1:1). Each group has P spines; every leaf has m
 *           cables to each spine of its group (group leaf l, copy c on
 *           spine port l·m + c + 1), G·R·m <= D; default P the smallest
 *           divisor of U that fits (at least 2, as above). A spine has
 *           Us = G·R·m·u/d uplinks on its top ports. Spine j of every
 *           group joins core group j: C cores, mc = Us/C cables to each
 *           (core c of the group on spine port k-Us+1 + c·mc + copy); a
 *           core takes group g, copy c on port g·mc + c + 1, so
 *           groups·mc <= k; C is the smallest divisor of Us that fits.
 *           Counts: S·R leaves, ceil(S/G)·P spines, P·C cores, S·H·R +
 *           S·R·U + ceil(S/G)·P·Us links. The DGX B200 SuperPOD RA's 16
 *           SUs (k = 64, G = 4, P = 32, C = 2): 128 leaves, 128 spines,
 *           64 cores, 4096 cables per tier.
 *
 * Names: leaves `leaf-suUU-rR` (R 0-based, as rails are); spines
 * `spine-SS` (2 tiers) or `spine-pGG-SS` (3 tiers); cores `core-CCC`
 * (core c of group j is number j·C + c + 1); hosts `dgx-NNN` numbered
 * across SUs, CAs `dgx-NNN mlx5_3` (system, device and description set
 * accordingly). Attributes: `tier`; `su` (1-based) on leaves and CAs;
 * `rail` (0-based) on leaves and CAs; `pod` (the spine group, 1-based) on
 * leaves, spines and CAs of 3 tiers; `role`=`compute` on CAs.
 */
typedef struct fl_gen_rail_su_params {
  uint32_t sus;
  uint32_t hosts_per_su;
  uint32_t rails;
  uint32_t spines;
  uint32_t leaf_radix;
  uint32_t width;
  uint32_t speed;
  uint32_t no_lids;
  const char *const *hca_names;
  const char *host_prefix;
  uint32_t uplinks;
  uint32_t over_down, over_up;
  uint32_t tiers;
  uint32_t sus_per_group;
  uint32_t spine_over_down, spine_over_up;
} fl_gen_rail_su_params;

/**
 * fl_gen_torus_params — a ring (y = 1) or 2-D torus of switches with
 * wraparound links, H hosts on every switch. Zero-initialise; 0 means the
 * default.
 * @x: switches along x, 2..4096. Required.
 * @y: switches along y, 1..4096; default 1, a ring of @x switches.
 * @hosts_per_switch: H, hosts (one single-port CA each) per switch,
 *   1..250. Default 1.
 * @width, @speed, @no_lids: as for fat trees (default 4x NDR).
 *
 * Shape: X·Y switches, X·Y·H hosts and CAs; switch links X·Y along x, plus
 * X·Y along y when Y >= 2 (a ring has X links, a torus 2·X·Y); host links
 * X·Y·H. A dimension of size 2 has both its wraparound directions between
 * the same two switches, i.e. 2 cables per pair; @parallel is reported as
 * 1. All switches are tier 1 (there is no hierarchy: @leaves = switches,
 * @spines = @cores = 0, @pods = 0).
 *
 * Switch (i, j) (0-based, i along x) is node i + j·X, in that order, so its
 * GUID is FL_GEN_SWITCH_GUID_BASE + i + j·X + 1. Ports: hosts on 1..H; then
 * x+ on H+1, x- on H+2 and, when Y >= 2, y+ on H+3 and y- on H+4 (a switch
 * has H+2 ports in a ring, H+4 in a torus). The cable from (i, j) port x+
 * lands on port x- of ((i+1) mod X, j); y+ on y- of (i, (j+1) mod Y). Host
 * h (0-based) of switch s is host s·H + h + 1, on port h + 1.
 *
 * Names: switches `sw-xII-yJJ` (0-based coordinates, zero-padded to the
 * width of the largest, at least 2 digits); a ring (Y = 1) drops the y
 * part: `sw-xII`. Hosts `nodeNNNN` with one CA `nodeNNNN mlx5_0`, as in fat
 * trees. Attributes: `tier` (1 on switches, 0 on CAs), `x` and `y` (the
 * 0-based coordinates of the switch, or of the CA's switch; `y` is 0 in a
 * ring), `role`=`compute` on CAs.
 */
typedef struct fl_gen_torus_params {
  uint32_t x;
  uint32_t y;
  uint32_t hosts_per_switch;
  uint32_t width;
  uint32_t speed;
  uint32_t no_lids;
} fl_gen_torus_params;

/**
 * fl_gen_kind_parse() — "fat-tree" -> FL_GEN_FAT_TREE, "rail-su" ->
 * FL_GEN_RAIL_SU, "torus", "ring" (FL_GEN_RING), "dragonfly"; 0 for an
 * unknown name.
 */
FL_EXTERN(uint32_t) fl_gen_kind_parse(const char *name);
/** fl_gen_kind_name() — inverse of fl_gen_kind_parse(); "?" if unknown. */
FL_EXTERN(const char *) fl_gen_kind_name(uint32_t kind);

/**
 * fl_gen_fat_tree_shape() — validate @p and compute the counts of the fat
 * tree it describes into @shape. O(1).
 * Returns FL_OK, or FL_EINVAL with @err naming the bad parameter.
 */
FL_EXTERN(int)
fl_gen_fat_tree_shape(const fl_gen_fat_tree_params *p, fl_gen_shape *shape,
                      fl_error *err);

/**
 * fl_gen_fat_tree() — build the fat tree described by @p (see
 * fl_gen_fat_tree_params) and finalize it into a new fabric *@out.
 * O(hosts + links) time and memory.
 * Returns FL_OK; FL_EINVAL (bad parameter) or FL_ENOMEM with @err set and
 * *@out NULL.
 */
FL_EXTERN(int)
fl_gen_fat_tree(const fl_gen_fat_tree_params *p, fl_fabric **out,
                fl_error *err);

/**
 * fl_gen_rail_su_shape() — validate @p and compute the counts of the
 * rail-optimised fabric it describes. O(rails).
 * Returns FL_OK, or FL_EINVAL with @err naming the bad parameter.
 */
FL_EXTERN(int)
fl_gen_rail_su_shape(const fl_gen_rail_su_params *p, fl_gen_shape *shape,
                     fl_error *err);

/**
 * fl_gen_rail_su() — build the rail-optimised fabric described by @p and
 * finalize it into a new fabric *@out. O(CAs + links).
 * Returns FL_OK; FL_EINVAL or FL_ENOMEM with @err set and *@out NULL.
 */
FL_EXTERN(int)
fl_gen_rail_su(const fl_gen_rail_su_params *p, fl_fabric **out, fl_error *err);

/**
 * fl_gen_torus_shape() — validate @p and compute the counts of the ring or
 * torus it describes. O(1).
 * Returns FL_OK, or FL_EINVAL with @err naming the bad parameter.
 */
FL_EXTERN(int)
fl_gen_torus_shape(const fl_gen_torus_params *p, fl_gen_shape *shape,
                   fl_error *err);

/**
 * fl_gen_torus() — build the ring or torus described by @p and finalize it
 * into a new fabric *@out. O(CAs + links).
 * Returns FL_OK; FL_EINVAL or FL_ENOMEM with @err set and *@out NULL.
 */
FL_EXTERN(int)
fl_gen_torus(const fl_gen_torus_params *p, fl_fabric **out, fl_error *err);

/**
 * fl_gen_dgx_h100_hca() — the RDMA device of compute rail @rail (0..7) of a
 * DGX H100/H200 ("mlx5_0", "mlx5_3", ...), or NULL when out of range.
 */
FL_EXTERN(const char *) fl_gen_dgx_h100_hca(uint32_t rail);

/** Most planes fl_gen_planes() makes. */
#define FL_GEN_MAX_PLANES 16u

/**
 * fl_gen_planes() — an @n-plane fabric made of @n copies of finalized
 * fabric @one (1 <= @n <= FL_GEN_MAX_PLANES), as `fabriclint gen ...
 * --planes N` writes it: planes named "1".."N"; in plane k (1-based) each
 * switch is "pl<k>-<name>" with attribute `plane`=k and its GUIDs XORed
 * with (k-1) << 40; each CA "<system> <device>" keeps its system (hosts are
 * shared) and gets device mlx5_<d*N + k-1> for a device mlx5_<d> (else
 * "<device>-<k>"), so a host's NICs, in natural order, sit in planes 1, 2,
 * ..., N, 1, 2, ... (NIC k in plane k). CAs carry no `plane` attribute:
 * their plane is where they are cabled. LIDs are copied unchanged: each
 * plane is its own subnet with its own LID space. Cables, attributes,
 * widths and speeds are copied. *@out is the caller's. FL_OK, FL_EINVAL,
 * FL_ENOMEM. O(n (V + E)).
 */
FL_EXTERN(int)
fl_gen_planes(const fl_fabric *one, uint32_t n, fl_fabric **out, fl_error *err);

/**
 * fl_gen_layout_params — where a generated fabric's equipment stands and
 * how long its cables are (`fabriclint gen ... --layout`). Zero-initialise;
 * 0 means the default.
 * @hosts_per_rack: hosts per compute rack. Default 4 (fewer when a rack
 *   holds fewer).
 * @switches_per_rack: switches per network rack. Default 16 (fewer when
 *   a rack holds fewer).
 * @racks_per_row: racks of one block (SU) in a row. Default 10.
 * @host_u: rack units per host. Default 8 (an 8U DGX H100/H200).
 * @switch_u: rack units per switch. Default 1 (a 1U QM9700).
 * @rack_u: rack units per rack, 1..100. Default 42.
 *
 * Placement: hosts and leaves are taken in blocks, one per SU (the `su`
 * attribute, else `pod`), each starting a new row: the block's hosts
 * (@hosts_per_rack a rack), then its leaves (one rack per plane); a row
 * takes at most @racks_per_row of a block's racks, the rest go on in a
 * new row. The switches of each upper tier (spines, then cores; per plane)
 * are dealt round-robin over max(2, rows) racks (more when
 * @switches_per_rack is exceeded), rack r appended to row r mod rows: no
 * rack or row holds a whole spine or core group, and losing a row takes
 * one SU (failure-domains.blast-radius, domain-partition). Racks are named
 * "Rrr-pp" (row rr, position pp, 1-based) in row "Rrr". In a rack, units
 * are stacked from U1 up: attribute `u` is a unit's lowest rack unit.
 * Every rack has two PDUs, "<rack>-PA" on feed A and "<rack>-PB" on feed
 * B, and every switch and host is fed from both:
 * `pdu`="<rack>-PA+<rack>-PB", `power-feed`="A+B" (the dual-feed notation
 * of docs/rules/failure-domains.md). A host's attributes are set on each
 * of its CAs.
 *
 * Cables: `cable`="C<n>" (n the link's 1-based index, zero-padded to at
 * least 5 digits), `length` and `media`. The length is a routing estimate
 * (FL_GEN_RACK_PITCH_MM .. FL_GEN_SLACK_MM): within a rack, the vertical
 * distance of the two units; between racks, each end rises from its unit
 * to the top of its rack and FL_GEN_TRAY_RISE_MM into the overhead tray,
 * and runs |rack positions| x FL_GEN_RACK_PITCH_MM + |rows| x
 * FL_GEN_ROW_PITCH_MM along it; every cable gets FL_GEN_SLACK_MM for
 * service loops. The estimate is rounded up to the next orderable length
 * (0.5, 1, 1.5, 2, 2.5, 3, 4, 5, 7, 10, 15, 20, 30, 50, 70, 100, 150, 200,
 * 300, 500 m). Media, for 100G-PAM4 lanes only (NDR of any width, 400G
 * Ethernet; NVIDIA "LinkX 100G-PAM4 Product Line Overview": DAC up to 3 m,
 * linear active copper 3 to 5 m, multimode optics up to 50 m; "Interconnect
 * Structured Cabling Requirements for NDR/XDR": single-mode MPO up to 500
 * m): `dac` up to 3 m, `acc` up to 5 m, `optical` up to 500 m. Longer is
 * refused (FL_EINVAL). Other speeds get no `media` (no reach cited here).
 */
typedef struct fl_gen_layout_params {
  uint32_t hosts_per_rack;
  uint32_t switches_per_rack;
  uint32_t racks_per_row;
  uint32_t host_u;
  uint32_t switch_u;
  uint32_t rack_u;
} fl_gen_layout_params;

/** Rack pitch along a row, mm (a 600 mm wide cabinet). */
#define FL_GEN_RACK_PITCH_MM 600u
/** Row pitch, mm (a 1,200 mm deep cabinet plus a 1,200 mm aisle). */
#define FL_GEN_ROW_PITCH_MM 2400u
/** One rack unit, in micrometres (EIA-310: 1.75 in = 44.45 mm). */
#define FL_GEN_U_UM 44450u
/** From the top of a rack into the overhead cable tray, per end, mm. */
#define FL_GEN_TRAY_RISE_MM 500u
/** Slack per cable for service loops and bend radius, mm. */
#define FL_GEN_SLACK_MM 1000u

/**
 * fl_gen_layout() — a copy of finalized fabric @in with racks, rows, U
 * positions, PDUs and feeds on its nodes and cable ids, lengths and media
 * on its links (see fl_gen_layout_params). Existing attributes are kept;
 * the layout's overwrite none (a node or link that already has one of
 * these keys keeps its value). *@out is the caller's. FL_OK; FL_EINVAL
 * (a parameter out of range, units that do not fit a rack, a cable longer
 * than any medium) or FL_ENOMEM, with @err set and *@out NULL.
 * O(nodes log nodes + links).
 */
FL_EXTERN(int)
fl_gen_layout(const fl_fabric *in, const fl_gen_layout_params *p,
              fl_fabric **out, fl_error *err);

/**
 * fl_gen_networks_params — the storage fabric and the in-band management
 * network beside a generated compute fabric (`fabriclint gen ...
 * --storage-nodes N --inband-mgmt`), in the DGX SuperPOD style: NVIDIA's
 * DGX SuperPOD H100 reference architecture ("Network Fabrics") has four
 * networks, compute, storage, in-band and out-of-band management, and a
 * DGX gives a pair of ports to storage and a port pair to in-band
 * management; the DGX BasePOD deployment guide ("Networking") cables port
 * 1 of the two dual-port ConnectX-7 cards to an InfiniBand storage fabric
 * and port 2 to the in-band Ethernet network. Zero-initialise; 0 means
 * the default.
 * @storage_nodes: storage servers (`storage-NNN`, 0..9999); 0: no storage
 *   fabric.
 * @inband: 1 for the in-band management network.
 * @radix: k, ports of every storage and in-band switch. Default 64 (a
 *   QM9700 for storage, an SN4600C for in-band: both 64 ports).
 * @inband_speed: FL_SPEED_ETH_*; default FL_SPEED_ETH_100G (SN4600C).
 * @no_lids: 1 to leave the storage fabric's LIDs 0.
 *
 * Hosts: the compute hosts of the input (CAs with a system and no service
 * role, in order of first appearance), then the storage servers. Each
 * compute host gets two storage NICs and one in-band NIC, named after its
 * compute NICs: on the DGX H100 map (fl_gen_dgx_h100_hca()) the
 * non-compute devices mlx5_1 and mlx5_7 (storage) and mlx5_2 (in-band;
 * which of the DGX's four non-compute devices sits on which port is not
 * taken from a data sheet here); otherwise the three numbers after the
 * largest `mlx5_<n>` of its compute NICs. A storage server has mlx5_0 and
 * mlx5_1 on the storage fabric and mlx5_2 on the in-band network. Storage
 * NICs have `role`=`storage`, in-band NICs `role`=`inband`.
 *
 * Storage fabric (speed and width of the compute fabric's first cable; its
 * own subnet: LIDs from 1, switches then CAs): with E = hosts + storage
 * servers and h = k/2, ceil(E/h) pairs of leaves `stor-leaf-NN`; endpoint
 * i has its first storage NIC on leaf 2·floor(i/h) + 1 and its second on
 * the next one, both on port (i mod h) + 1, so that no single leaf cuts a
 * host off its storage. Every leaf has its h uplinks on ports h+1..k, m
 * cables to each of P spines `stor-spine-NN` (leaf port h+1 + s·m + c,
 * spine port l·m + c + 1), P the smallest divisor >= 2 of h with
 * L·h/P <= k (L leaves), m = h/P. Counts: L + P switches, 2E CAs, 2E +
 * L·h cables. More than k leaves is refused (one spine layer).
 *
 * In-band network (Ethernet, 1 lane at @inband_speed, no LIDs): every
 * compute host and storage server has one in-band port; a leaf
 * `inb-leaf-NN` takes a run of at most h hosts of one SU (the `su`
 * attribute, else `pod`) on ports 1.., the storage servers have leaves of
 * their own; L' leaves with h uplinks to P' spines `inb-spine-NN` as
 * above. Counts: L' + P' switches, E CAs, E + L'·h cables.
 *
 * Every node added has attribute `network` (`storage` or `inband`);
 * switches have `tier` 1 (leaf) or 2 (spine), CAs `tier` 0. GUIDs are
 * apart from the compute fabric's: switch and CA numbers start at 2^22.
 */
typedef struct fl_gen_networks_params {
  uint32_t storage_nodes;
  uint32_t inband;
  uint32_t radix;
  uint32_t inband_speed;
  uint32_t no_lids;
} fl_gen_networks_params;

/**
 * fl_gen_networks() — finalized fabric @in (the compute fabric) with the
 * storage fabric and in-band network of @p added after it, in a new fabric
 * *@out: @in's nodes and cables first and unchanged, so a layout of the
 * whole (fl_gen_layout(), which places the `network` nodes after the
 * compute fabric's) stands every host in one rack for all its NICs.
 * Write each network apart (fl_gen_network_part()). FL_OK; FL_EINVAL
 * (a parameter, or a network beyond one spine layer) or FL_ENOMEM with
 * @err set and *@out NULL. O(nodes + links).
 */
FL_EXTERN(int)
fl_gen_networks(const fl_fabric *in, const fl_gen_networks_params *p,
                fl_fabric **out, fl_error *err);

/**
 * fl_gen_network_part() — one network of @all as a fabric of its own in
 * *@out: the nodes whose `network` attribute is @network (NULL: the nodes
 * without one, the compute fabric) and the cables among them, in @all's
 * order with every attribute, GUID and LID kept. FL_OK or FL_ENOMEM.
 */
FL_EXTERN(int)
fl_gen_network_part(const fl_fabric *all, const char *network, fl_fabric **out,
                    fl_error *err);

#ifdef __cplusplus
}
#endif
#endif /* FABRICLINT_GEN_H */
