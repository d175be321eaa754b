/* SPDX-License-Identifier: MIT */
/*
 * fabriclint/plugin.h — the rule plugin ABI, version 1 (DESIGN.md §3).
 *
 * A plugin is a shared object exporting one symbol, FL_PLUGIN_ENTRY
 * ("fabriclint_plugin_v1"), a function returning a const fl_plugin_desc.
 * The host hands the plugin a function table (fl_host_api) in init() and in
 * every check(): plugins never link against the host library, so they build
 * with -Wl,-z,defs and load into any host of the same ABI major.
 *
 * ABI rules (the SQLite loadable-extension and Redis module patterns):
 *  - Structs hold fixed-width integers, pointers and function pointers only.
 *    Each starts with struct_size (sizeof as compiled) and grows only at the
 *    end; the host reads only the fields a smaller struct_size covers.
 *  - Arrays of growable structs are arrays of pointers (no stride problem).
 *  - Strings are borrowed UTF-8, NUL-terminated. Whatever the host returns is
 *    owned by the host and valid until the check returns (fabric strings:
 *    until the process ends). report() copies what it is given.
 *  - The host refuses a plugin whose abi_major differs from FL_ABI_MAJOR or
 *    whose abi_minor is newer than the host's, naming both versions (exit 3).
 *  - Rules run one at a time on one thread. Plugins keep no global mutable
 *    state: per-plugin state lives in the pointer init() returns.
 *  - check() returning non-zero means "could not run" (exit 3), never a
 *    finding.
 */
#ifndef FABRICLINT_PLUGIN_H
#define FABRICLINT_PLUGIN_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "fabriclint/cdg.h"
#include "fabriclint/counters.h"
#include "fabriclint/pfc.h"
#include "fabriclint/types.h"

#ifdef __cplusplus
extern "C" {
#endif

/** ABI version implemented by this header. */
#define FL_ABI_MAJOR 1u
#define FL_ABI_MINOR 7u

/** Name of the one exported entry point. */
#define FL_PLUGIN_ENTRY "fabriclint_plugin_v1"

#if defined(__GNUC__)
#define FL_PLUGIN_EXPORT __attribute__((visibility("default")))
#else
#define FL_PLUGIN_EXPORT
#endif

/* fl_fabric is declared in fabriclint/fabric.h (via cdg.h). */
/** fl_ctx — one rule run: its parameters, its findings sink. Opaque. */
typedef struct fl_ctx fl_ctx;

/** Parameter types (fl_param_def.type). */
#define FL_PARAM_INT    1u /**< int64, read with param_int() */
#define FL_PARAM_DOUBLE 2u /**< double, read with param_double() */
#define FL_PARAM_STRING 3u /**< string, read with param_string() */
#define FL_PARAM_BOOL   4u /**< 0/1, "true"/"false", read with param_int() */

/** Inputs a rule needs (fl_rule_def.needs); a rule whose needs are unmet is
 * skipped with a note, not failed. */
#define FL_NEEDS_ROUTING 0x1u /**< LFTs */
#define FL_NEEDS_SL2VL   0x2u /**< SL-to-VL tables */
#define FL_NEEDS_DESIGN  0x4u /**< design attributes (tier/rail/...) */
#define FL_NEEDS_COUNTERS                                                      \
  0x8u /**< port counters (ABI 1.2; fabriclint/counters.h) */
/** Not an input (ABI 1.3): the rule judges a multi-plane fabric as a whole
 * (cross-plane rules, or rules that already read `plane`). Without it, on a
 * fabric of two or more planes (fabriclint/planes.h) the rule runs once per
 * plane, on that plane alone, and its findings carry the plane. */
#define FL_NEEDS_ALL_PLANES 0x10u

/**
 * fl_param_def — one typed rule parameter.
 * @name: lower-case-with-dashes, unique within the rule.
 * @type: FL_PARAM_*.
 * @default_value: the default as text ("1", "0.5", "4x"), or NULL for none.
 * @unit: unit of the value ("Gb/s", "ports", "lanes", "%"), or NULL.
 * @doc: one sentence.
 * @min_value/@max_value (ABI 1.1; hosts of ABI 1.0 ignore them): the
 *   inclusive range of an FL_PARAM_INT or FL_PARAM_DOUBLE value as text
 *   ("0", "100", "1e6"), or NULL for no bound. The host refuses, with exit 2
 *   naming the parameter and this range, a --param or policy value outside
 *   it, and always refuses non-finite numbers (nan, inf) and integers that
 *   do not fit int64_t; a rule therefore reads only values in range. A
 *   plugin whose bounds do not parse, or whose default lies outside them,
 *   is refused at load (exit 3).
 */
typedef struct fl_param_def {
  uint32_t struct_size;
  uint32_t type;
  const char *name;
  const char *default_value;
  const char *unit;
  const char *doc;
  /* -- added after 1.0 -- */
  const char *min_value;
  const char *max_value;
} fl_param_def;

struct fl_host_api;
/* The structs of the helpers the host runs for plugins (ABI 1.6):
 * fabriclint/view.h, covers.h and dist_split.h define them. */
struct fl_view;
struct fl_view_group;
struct fl_cover_graph;
struct fl_covers;
struct fl_split;

/**
 * fl_rule_def — one rule.
 * @id: "plugin.rule-name", lower case, e.g. "deadlock.credit-loop"; the part
 *   before the dot must be the plugin's name.
 * @summary: one line. @help: paragraphs (Markdown) explaining what is
 *   checked, why it matters and how to fix it.
 * @default_severity: FL_SEV_*. @enabled_by_default: 0 for opt-in rules.
 * @needs: FL_NEEDS_* bits.
 * @params/@n_params: parameter definitions (array of pointers).
 * @check: run the rule; use @api to read the fabric (api->fabric(ctx)),
 *   parameters and to report findings. @plugin_data is what init() returned.
 *   Returns 0, or non-zero when the rule could not run (after api->fail()).
 */
typedef struct fl_rule_def {
  uint32_t struct_size;
  uint32_t default_severity;
  const char *id;
  const char *summary;
  const char *help;
  uint32_t enabled_by_default;
  uint32_t needs;
  const fl_param_def *const *params;
  uint32_t n_params;
  int (*check)(const struct fl_host_api *api, fl_ctx *ctx, void *plugin_data);
} fl_rule_def;

/**
 * fl_port_ref — a port named by its node and number, for findings about
 * ports that are only known by reference (e.g. a port the node lacks).
 */
typedef struct fl_port_ref {
  fl_id node;
  uint32_t port;
} fl_port_ref;

/** What one change of a fix does (fl_fix_change.kind). */
#define FL_FIX_MOVE_END  1u /**< one end of the cable moves to another port */
#define FL_FIX_SET_SPEED 2u /**< the cable must run at another speed */
#define FL_FIX_SET_WIDTH 3u /**< the cable must run at another width */

/**
 * fl_fix_change — one change of a fix (ABI 1.2): what happens to one cable.
 * @kind: FL_FIX_*.
 * @link: the cable (fl_id of a link of the fabric being checked).
 * @end: FL_FIX_MOVE_END: the end that moves, 0 or 1 as api->link_port(f,
 *   @link, @end) names it.
 * @node/@port: FL_FIX_MOVE_END: where that end goes (node id, port
 *   number); the end keeps its own node and port.
 * @value: FL_FIX_SET_SPEED / FL_FIX_SET_WIDTH: the value the cable must
 *   have, spelt as design XML spells it ("NDR", "400G"; "4x"). Borrowed.
 */
typedef struct fl_fix_change {
  uint32_t struct_size;
  uint32_t kind;
  fl_id link;
  uint32_t end;
  fl_id node;
  uint32_t port;
  const char *value;
} fl_fix_change;

/**
 * fl_fix — how to fix a finding, as changes to cables (ABI 1.2;
 * fl_finding.fix). Findings that know their fix (swap these two cables,
 * move this NIC to that port, this cable must run at NDR) give it as data,
 * so that every output can carry it: JSON `fix`, SARIF `fixes` (text edits
 * of the design XML `<link>` elements the changes name, when the cable was
 * described in design XML), the work order. The host checks every id and
 * copies everything (names, the cables' current ends and values, their
 * locations); an invalid fix makes report() fail with FL_EINVAL.
 * @description: one sentence, the fix as a person does it ("swap the leaf
 *   ends of the cables of A and B"). Borrowed.
 * @changes/@n_changes: the changes (array of pointers), at least one.
 */
typedef struct fl_fix {
  uint32_t struct_size;
  uint32_t n_changes;
  const char *description;
  const fl_fix_change *const *changes;
} fl_fix;

/**
 * fl_finding — one finding, passed to api->report(), which copies it.
 * @severity: FL_SEV_*, or 0 for the rule's (possibly policy-overridden)
 *   severity.
 * @message: one sentence naming what is wrong, where, and what was expected.
 * @nodes/@n_nodes: every node the finding is about (fl_id), in the order a
 *   person should read them. The first element with provenance locates the
 *   finding (SARIF physical location, text `file:line`).
 * @ports/@n_ports: ports the finding is about.
 * @links/@n_links: links the finding is about (their provenance is preferred
 *   for the location).
 * @evidence_json: a JSON object (text) with rule-specific figures, or NULL.
 *   The host validates it; invalid JSON makes report() fail.
 * @key: a stable identity for baselines (entity names, never line numbers),
 *   or NULL to let the host build one from rule id, nodes and ports.
 * @cause/@cause_message (added after 1.0; hosts of ABI 1.0 ignore them):
 *   one finding per cause. A rule that fires once per element (port,
 *   switch, cable) for one structural fact gives every such finding the
 *   same @cause, a short stable id ("lid-unassigned"), and a
 *   @cause_message, a sentence whose literal "{count}" the host replaces by
 *   the number of findings ("{count} ports have LID 0xFFFF: never
 *   configured by an SM"). After waivers and the baseline, the host merges
 *   the active findings of one rule with one @cause, when there are two or
 *   more, into one finding: the highest severity, the @cause_message
 *   followed by a few examples, every node and port of the members, the
 *   key "cause:<cause>", and evidence {"cause", "count", "examples",
 *   "members": [{"message", "nodes", "ports", "evidence", "location"}...]}
 *   (docs/plugins.md, "One finding per cause"). NULL: never merged.
 *   A merged finding's fix is the list of its members' changes.
 * @fix (ABI 1.2): the finding's fix (fl_fix),
 *   or NULL when the rule cannot say what fixes it. Borrowed and copied.
 * @root_kind/@root_role/@root_id/@root_fact (ABI 1.4): one cause across
 *   rules. @root_kind names what the finding is rooted in: FL_ROOT_LINK
 *   (@root_id a link: a cable), FL_ROOT_NODE (@root_id a node: a switch
 *   short of cables, a host), FL_ROOT_FACT (@root_fact a short fabric-wide
 *   fact id, such as "speed-below-plan"), or FL_ROOT_NONE (0: not rooted).
 *   @root_role says whether the finding names the root itself
 *   (FL_ROOT_PRIMARY: "the cable runs at 1x") or one of its consequences
 *   (FL_ROOT_CONSEQUENCE: "the leaf is oversubscribed because of it"). A
 *   rule marks a finding a consequence only when the root explains it
 *   whole (without the root, the finding would not be reported). After
 *   waivers and the baseline, and before per-rule causes merge, the host
 *   attaches every active consequence of a root to that root's primary
 *   finding (the most severe primary, first in report order; other
 *   primaries stay findings of their own): the primary keeps its message,
 *   takes the highest severity of the group, and lists the others as
 *   `related` (JSON), relatedLocations (SARIF), or indented lines (text);
 *   counts and --fail-on see one finding. A consequence whose root has no
 *   primary finding in the run stays a finding of its own: a rule never
 *   hides its finding behind a root nobody reported (docs/plugins.md,
 *   "Root causes across rules").
 */
typedef struct fl_finding {
  uint32_t struct_size;
  uint32_t severity;
  const char *message;
  const fl_id *nodes;
  uint32_t n_nodes;
  uint32_t n_ports;
  const fl_port_ref *ports;
  const fl_id *links;
  uint32_t n_links;
  uint32_t reserved0;
  const char *evidence_json;
  const char *key;
  /* -- added after 1.0 -- */
  const char *cause;
  const char *cause_message;
  /* -- added in 1.2 -- */
  const fl_fix *fix;
  /* -- added in 1.4 -- */
  uint32_t root_kind; /**< FL_ROOT_NONE, _LINK, _NODE or _FACT */
  uint32_t root_role; /**< FL_ROOT_PRIMARY or FL_ROOT_CONSEQUENCE */
  fl_id root_id;      /**< the link or node of FL_ROOT_LINK / FL_ROOT_NODE */
  uint32_t reserved1;
  const char *root_fact; /**< FL_ROOT_FACT: a short stable fact id */
} fl_finding;

/** What a finding is rooted in (fl_finding.root_kind, ABI 1.4). */
#define FL_ROOT_NONE 0u
#define FL_ROOT_LINK 1u /**< a cable: fl_finding.root_id is a link */
#define FL_ROOT_NODE 2u /**< a node: fl_finding.root_id is a node */
#define FL_ROOT_FACT 3u /**< a fabric-wide fact: fl_finding.root_fact */
/** The finding names its root itself (fl_finding.root_role). */
#define FL_ROOT_PRIMARY 1u
/** The finding is a consequence of its root, explained by it whole. */
#define FL_ROOT_CONSEQUENCE 2u

/**
 * fl_host_api — the function table the host hands to plugins.
 * Every fabric accessor has the semantics of the fl_fabric_* function of the
 * same name in fabriclint/fabric.h (read that header for units and errors).
 * The table only grows at the end; check struct_size / abi_minor before
 * using members added after 1.0.
 */
typedef struct fl_host_api {
  uint32_t struct_size;
  uint32_t abi_major;
  uint32_t abi_minor;
  uint32_t reserved0;

  /* -- the run -- */
  /** The fabric being checked (read-only, finalized). */
  const fl_fabric *(*fabric)(fl_ctx *ctx);
  /** Id of the rule being run. */
  const char *(*rule_id)(fl_ctx *ctx);

  /* -- counts -- */
  uint32_t (*node_count)(const fl_fabric *f);
  uint32_t (*port_count)(const fl_fabric *f);
  uint32_t (*link_count)(const fl_fabric *f);

  /* -- nodes -- */
  uint32_t (*node_kind)(const fl_fabric *f, fl_id n);
  const char *(*node_name)(const fl_fabric *f, fl_id n);
  const char *(*node_desc)(const fl_fabric *f, fl_id n);
  uint64_t (*node_guid)(const fl_fabric *f, fl_id n);
  uint64_t (*node_sysimgguid)(const fl_fabric *f, fl_id n);
  uint32_t (*node_devid)(const fl_fabric *f, fl_id n);
  const char *(*node_system)(const fl_fabric *f, fl_id n);
  const char *(*node_device)(const fl_fabric *f, fl_id n);
  uint32_t (*node_nports)(const fl_fabric *f, fl_id n);
  uint32_t (*node_tier)(const fl_fabric *f, fl_id n);
  fl_id (*node_first_port)(const fl_fabric *f, fl_id n);
  uint32_t (*node_port_count)(const fl_fabric *f, fl_id n);
  fl_id (*find_port)(const fl_fabric *f, fl_id n, uint32_t num);
  fl_id (*find_node_guid)(const fl_fabric *f, uint64_t guid);
  fl_id (*find_node_name)(const fl_fabric *f, const char *name);

  /* -- ports -- */
  fl_id (*port_node)(const fl_fabric *f, fl_id p);
  uint32_t (*port_num)(const fl_fabric *f, fl_id p);
  uint64_t (*port_guid)(const fl_fabric *f, fl_id p);
  uint32_t (*port_lid)(const fl_fabric *f, fl_id p);
  uint32_t (*port_lmc)(const fl_fabric *f, fl_id p);
  const char *(*port_label)(const fl_fabric *f, fl_id p);
  uint32_t (*port_link_count)(const fl_fabric *f, fl_id p);
  fl_id (*port_link)(const fl_fabric *f, fl_id p, uint32_t i);

  /* -- links -- */
  fl_id (*link_port)(const fl_fabric *f, fl_id l, uint32_t end);
  fl_id (*link_other)(const fl_fabric *f, fl_id l, fl_id p);
  uint32_t (*link_width)(const fl_fabric *f, fl_id l);
  uint32_t (*link_speed)(const fl_fabric *f, fl_id l);
  uint32_t (*link_width_b)(const fl_fabric *f, fl_id l);
  uint32_t (*link_speed_b)(const fl_fabric *f, fl_id l);
  uint32_t (*link_flags)(const fl_fabric *f, fl_id l);
  double (*link_gbps)(const fl_fabric *f, fl_id l);

  /* -- attributes, provenance, vocabulary -- */
  const char *(*attr)(const fl_fabric *f, uint32_t ent_kind, fl_id id,
                      const char *key);
  int (*provenance)(const fl_fabric *f, uint32_t ent_kind, fl_id id,
                    const char **file, uint32_t *line, uint32_t *col);
  const char *(*speed_name)(uint32_t speed);
  double (*speed_lane_gbps)(uint32_t speed);

  /* -- graph queries, answered by the core on its igraph view ------------
   * Caller-provided output arrays; sizes as stated. Return FL_OK or an
   * FL_E* code (e.g. FL_ENOMEM). The graph is undirected, multi-edges and
   * self-loops kept (vertex = node, edge = link). A CA does not forward:
   * every query walks switch-to-switch and switch-to-CA cables only, a CA
   * belonging with its "home" cable (the first cable of its lowest cabled
   * port), so switches joined only through a multi-port HCA are separate
   * components and a CA is never an articulation point (issue 12). */
  /** Connected components: @membership[node_count] gets a component index
   * (components numbered by their smallest node id, ascending), *@n_comp
   * the count. O(V + E). */
  int (*components)(const fl_fabric *f, uint32_t *membership, uint32_t *n_comp);
  /** Articulation points (nodes whose removal disconnects their component):
   * @out[node_count] receives node ids ascending, *@n the count. O(V + E). */
  int (*articulation_points)(const fl_fabric *f, fl_id *out, uint32_t *n);
  /** Bridges (links whose removal disconnects): @out[link_count], ascending.
   * Parallel cables are never bridges. O(V + E). */
  int (*bridges)(const fl_fabric *f, fl_id *out, uint32_t *n);
  /** Hop distances from node @src: @dist[node_count], -1 = unreachable.
   * Walks never pass through a CA other than @src itself. O(V + E). */
  int (*bfs_distances)(const fl_fabric *f, fl_id src, int32_t *dist);

  /* -- parameters (policy value, else the rule's default) -- */
  /** FL_OK and *@out set; FL_ENOTFOUND when unset with no default;
   * FL_EINVAL when the value is not of the type. */
  int (*param_int)(fl_ctx *ctx, const char *name, int64_t *out);
  int (*param_double)(fl_ctx *ctx, const char *name, double *out);
  int (*param_string)(fl_ctx *ctx, const char *name, const char **out);

  /* -- output -- */
  /** Copy finding @f into the run's findings. FL_OK, FL_EINVAL (bad
   * evidence JSON, bad ids, NULL message), FL_ENOMEM. */
  int (*report)(fl_ctx *ctx, const fl_finding *f);
  /** Record why the rule could not run; check() then returns non-zero. */
  void (*fail)(fl_ctx *ctx, const char *message);
  /** A diagnostic line on stderr with -v (level FL_SEV_*). */
  void (*log)(fl_ctx *ctx, uint32_t level, const char *message);

  /* -- routing state: semantics of fabriclint/routing.h -- */
  uint32_t (*lft_count)(const fl_fabric *f);
  const uint8_t *(*lft)(const fl_fabric *f, fl_id sw, uint32_t *len);
  uint32_t (*max_lid)(const fl_fabric *f);
  fl_id (*lid_port)(const fl_fabric *f, uint32_t lid);
  int (*has_sl2vl)(const fl_fabric *f);
  uint32_t (*sl2vl)(const fl_fabric *f, fl_id node, uint32_t in_port,
                    uint32_t out_port, uint32_t sl);
  int (*has_path_sl)(const fl_fabric *f);
  uint32_t (*path_sl)(const fl_fabric *f, fl_id src, uint32_t dlid);
  uint32_t (*note_count)(const fl_fabric *f);
  int (*note)(const fl_fabric *f, uint32_t i, const char **category,
              const char **file, uint32_t *line, const char **message);

  /* -- routing analyses run by the core: semantics of fabriclint/cdg.h -- */
  int (*cdg_analyze)(const fl_fabric *f, const fl_cdg_options *opts,
                     const fl_cdg_report **out);
  void (*cdg_free)(const fl_cdg_report *report);

  /* -- what-if graph queries (failure domains) -- */
  /** Connected components with nodes/links removed: @node_off[node_count]
   * and @link_off[link_count] hold 1 for a removed element (either may be
   * NULL: nothing removed). Removed nodes get UINT32_MAX in @membership;
   * components are numbered by their smallest node id. A CA joins the
   * component of its first cable still up and forwards nothing. O(V + E),
   * no copy of the graph. */
  int (*components_masked)(const fl_fabric *f, const uint8_t *node_off,
                           const uint8_t *link_off, uint32_t *membership,
                           uint32_t *n_comp);
  /** Maximum flow from node set @src to node set @dst over the links kept
   * by the masks, each link carrying @capacity[link] in each direction
   * (NULL: link_gbps, i.e. Gb/s). *@value in the capacity's unit.
   * igraph push-relabel on a copy with a super source and sink. */
  int (*maxflow)(const fl_fabric *f, const fl_id *src, uint32_t n_src,
                 const fl_id *dst, uint32_t n_dst, const double *capacity,
                 const uint8_t *node_off, const uint8_t *link_off,
                 double *value);

  /* -- adaptive-routing tables (ibdiagnet2.far): semantics of the
   * fl_fabric_ar_* functions in fabriclint/routing.h. Added after 1.0:
   * check struct_size covers them (offsetof) before use. -- */
  uint32_t (*ar_count)(const fl_fabric *f);
  int (*ar_has)(const fl_fabric *f, fl_id sw);
  const uint8_t *(*ar_lid_state)(const fl_fabric *f, fl_id sw, uint32_t *len);
  const uint16_t *(*ar_lid_group)(const fl_fabric *f, fl_id sw, uint32_t *len);
  uint32_t (*ar_group_count)(const fl_fabric *f, fl_id sw);
  int (*ar_group)(const fl_fabric *f, fl_id sw, uint32_t group,
                  uint8_t ports[32]);

  /* -- added after 1.0: check with FL_API_HAS(api, bad_param) -- */
  /** A parameter value the user gave (--param or a policy) is invalid for
   * this rule: the rule does not run and fabriclint exits 2 (a usage
   * error), printing "rule R: parameter NAME: MESSAGE". check() then
   * returns non-zero. */
  void (*bad_param)(fl_ctx *ctx, const char *name, const char *message);

  /* -- added after 1.0: check with FL_API_HAS(api, pfc_analyze) -- */
  /** Lossless-Ethernet (PFC) buffer dependencies of the modelled ECMP
   * routing, valleys, a concrete cycle, and single link failures:
   * semantics of fl_pfc_analyze() in fabriclint/pfc.h. The report is the
   * caller's: free it with pfc_free. */
  int (*pfc_analyze)(const fl_fabric *f, const fl_pfc_options *opts,
                     fl_pfc_report **out);
  void (*pfc_free)(fl_pfc_report *report);

  /* -- added in ABI 1.2: check with FL_API_HAS(api, link_internal) -- */
  /** Director chassis (semantics of fl_fabric_node_chassis() and
   * fl_fabric_link_internal() in fabriclint/fabric.h): the chassis index of
   * a switch ASIC or FL_NONE, and 1 for a cable between two ASICs of one
   * chassis, which is inside the switch, not a fabric cable. */
  uint32_t (*node_chassis)(const fl_fabric *f, fl_id n);
  int (*link_internal)(const fl_fabric *f, fl_id l);
  /* -- added in ABI 1.2: port counters of the running fabric attached to
   * the model (perfquery, ibqueryerrors, ibdiagnet2.pm, infiniband_exporter
   * scrapes): semantics of the fl_fabric_counter_* / fl_fabric_port_counter*
   * functions and fl_counter_name() in fabriclint/counters.h. Check with
   * FL_API_HAS(api, port_counter) before use. -- */
  uint32_t (*counter_snapshots)(const fl_fabric *f);
  double (*counter_interval)(const fl_fabric *f);
  int (*counter_complete)(const fl_fabric *f);
  uint64_t (*port_counter_mask)(const fl_fabric *f, fl_id p);
  uint32_t (*port_counter)(const fl_fabric *f, fl_id p, uint32_t ctr,
                           uint64_t *value, uint64_t *delta);
  uint32_t (*counter_unmapped_count)(const fl_fabric *f);
  int (*counter_unmapped)(const fl_fabric *f, uint32_t i, const char **what,
                          const char **file, uint32_t *line, fl_id *node,
                          uint32_t *port);
  const char *(*counter_name)(uint32_t ctr);
  /* -- ABI 1.2: check with FL_API_HAS(api, progress), or call fl_progress()
   * -- */
  /** The rule has done @done of @total units of work (@total 0: unknown),
   * units named by @what ("destinations", "switches"; borrowed, may be
   * NULL). The host turns it into the percentage of its progress display
   * (on a terminal only); it prints nothing itself and costs a function
   * call, but a rule should still report at most a few thousand times per
   * run (e.g. every 64th destination). Never fails; never required. */
  void (*progress)(fl_ctx *ctx, const char *what, uint64_t done,
                   uint64_t total);
  /* -- ABI 1.3: planes of a multi-plane fabric, semantics of
   * fabriclint/planes.h; check with FL_API_HAS(api, port_plane). A rule
   * without FL_NEEDS_ALL_PLANES sees one plane's subset (0 planes). -- */
  uint32_t (*plane_count)(const fl_fabric *f);
  const char *(*plane_name)(const fl_fabric *f, uint32_t i);
  uint32_t (*node_plane)(const fl_fabric *f, fl_id n);
  uint32_t (*port_plane)(const fl_fabric *f, fl_id p);
  /* -- ABI 1.3 (also): check with FL_API_HAS(api, dist) -- */
  /** The distributed run this process is part of (fabriclint/dist.h:
   * `mpirun -n N fabriclint check ...`), or NULL when it runs alone. Every
   * process of the run loads the same fabric and runs the same rules; only
   * rank 0's report is written. A rule that splits its work passes it on
   * (fl_cdg_options.dist) or calls its collectives itself, the same number
   * of times on every process; a rule that does not split ignores it.
   * Borrowed; the same for the whole run. */
  const fl_dist *(*dist)(fl_ctx *ctx);
  /* -- ABI 1.5: check with FL_API_HAS(api, fabric_serial), or call
   * fl_fabric_key_of() -- */
  /** A number, never 0, that names the fabric api->fabric(ctx) returns
   * for this run of the rules: every rule of one pass over one fabric (the
   * whole fabric, or one plane's subset) sees the same serial, and no other
   * pass of this host ever does. Key a cache of analyses by it (with the
   * pointer: fl_fabric_key), never by the pointer alone: the host frees
   * each plane's subset after its pass, and a caller may free a fabric and
   * load another, so a new fabric can sit at a freed one's address. */
  uint64_t (*fabric_serial)(fl_ctx *ctx);
  /* -- ABI 1.6: the algorithms behind the helper headers, run by the host
   * so that a fix reaches built plugins (issue 29). Semantics: the inline
   * wrapper of the same name in fabriclint/view.h (fl_view_build() for
   * view_build, ...), covers.h (fl_cover_classes(), fl_covers_free()) and
   * dist_split.h (fl_split_emit(), fl_split_finish()); call the wrappers,
   * which check FL_API_HAS(api, ...). The host writes a fl_view or fl_split
   * only within its struct_size. -- */
  int (*view_build)(struct fl_view *v, const struct fl_host_api *api,
                    const fl_fabric *f);
  void (*view_free)(struct fl_view *v);
  int (*view_minimal)(struct fl_view *v);
  int (*view_minimal_compact)(struct fl_view *v);
  uint32_t (*view_dist_at)(const struct fl_view *v, uint32_t d, uint32_t s);
  uint16_t (*view_nmin_at)(const struct fl_view *v, uint32_t d, uint32_t s);
  uint32_t (*view_groups)(const struct fl_view *v, uint32_t s,
                          struct fl_view_group *g);
  fl_id (*view_peer)(const struct fl_host_api *api, const fl_fabric *f, fl_id p,
                     fl_id *link, fl_id *peer_port);
  fl_id (*view_port_switch)(const struct fl_host_api *api, const fl_fabric *f,
                            fl_id p, fl_id *link, fl_id *sw_port);
  int (*view_is_sharp_an)(const struct fl_host_api *api, const fl_fabric *f,
                          fl_id n);
  fl_id (*view_ca_switch)(const struct fl_host_api *api, const fl_fabric *f,
                          fl_id n, uint32_t *port, uint32_t *sw_port);
  double (*view_design_ratio)(const struct fl_host_api *api, const fl_fabric *f,
                              fl_id n, double policy);
  int (*cover_classes)(const struct fl_cover_graph *g, struct fl_covers *c);
  void (*covers_free)(struct fl_covers *c);
  int (*split_emit)(struct fl_split *s, const struct fl_host_api *api,
                    fl_ctx *ctx, uint64_t item, const fl_finding *f);
  int (*split_finish)(struct fl_split *s, const struct fl_host_api *api,
                      fl_ctx *ctx, int failed);
  /* -- ABI 1.7: check with FL_API_HAS(api, threads), or call
   * fl_run_threads() (fabriclint/threads.h) -- */
  /** The thread budget of this run, 1 to FL_THREADS_MAX: `--jobs N`, else
   * FABRICLINT_THREADS, else fl_threads_available() (the affinity mask
   * lowered to the cgroup CPU quota). A rule sizes its worker pools by it
   * (fl_cdg_options.threads, fl_view.threads, its own pthreads); a pool's
   * workers start no pool of their own. The same for the whole run. */
  uint32_t (*threads)(fl_ctx *ctx);
} fl_host_api;

/**
 * fl_plugin_desc — what the entry point returns (static, const).
 * @name: the rule id prefix ("topology", "deadlock", "acme-rails").
 * @init: may be NULL; called once with the host table; stores per-plugin
 *   state in *@plugin_data. Returns 0, non-zero to refuse loading.
 * @fini: may be NULL; frees what init() allocated.
 * @rules/@n_rules: the plugin's rules (array of pointers).
 */
typedef struct fl_plugin_desc {
  uint32_t struct_size;
  uint32_t abi_major;
  uint32_t abi_minor;
  uint32_t n_rules;
  const char *name;
  const char *version;
  const char *vendor;
  const char *license;
  int (*init)(const fl_host_api *api, void **plugin_data);
  void (*fini)(void *plugin_data);
  const fl_rule_def *const *rules;
} fl_plugin_desc;

/**
 * FL_API_HAS() — 1 when host table @api has member @member (a host of an
 * older 1.x minor may lack members added later). Plugins test this before
 * calling a member documented as "added after 1.0".
 */
#define FL_API_HAS(api, member)                                                \
  ((api)->struct_size >=                                                       \
   offsetof(fl_host_api, member) + sizeof(((fl_host_api *)0)->member))

/**
 * fl_param_error() — report an invalid parameter value through
 * api->bad_param (exit 2) when the host has it, else api->fail (exit 3).
 */
static inline void fl_param_error(const fl_host_api *api, fl_ctx *ctx,
                                  const char *name, const char *message) {
  /* (member) in parentheses: test frameworks define a fail() macro */
  if (FL_API_HAS(api, bad_param))
    (api->bad_param)(ctx, name, message);
  else
    (api->fail)(ctx, message);
}

/**
 * fl_port_text() — port @p as the input names it, for messages: its label
 * when it has one (`Ethernet1/5`, `etp1b`, `Blade 1_Port 1/1`, `e0b`),
 * else `port N` (N: fl_fabric_port_num; InfiniBand captures number their
 * ports). Writes into @buf (@size bytes, truncated) and returns @buf.
 * Every rule that names a port in a message uses it, so a user finds the
 * port under the name the input gave (issue 30, class F14).
 */
/** Size of a buffer that holds any fl_port_text() (labels are capped). */
#define FL_PORT_TEXT 128

static inline const char *fl_port_text(const fl_host_api *api,
                                       const fl_fabric *f, fl_id p, char *buf,
                                       size_t size) {
  const char *lb = (api->port_label)(f, p);
  if (lb && *lb)
    snprintf(buf, size, "%s", lb);
  else
    snprintf(buf, size, "port %u", (api->port_num)(f, p));
  return buf;
}

/**
 * fl_node_peer_only() — 1 when node @n of @f is known only from its
 * neighbours' side: its own listing was not given (a per-device LLDP
 * capture of another device names it, or a filtered or cut capture names
 * it only as a far end; node attribute `peer-only` = "yes", set by the
 * host at finalize: docs/inference.md, "Views"), else 0. Its cables beyond
 * those listings are unknown, and so is any count or tier that rests on
 * them: rules do not judge them (unknown is not wrong). O(log attributes).
 */
static inline int fl_node_peer_only(const fl_host_api *api, const fl_fabric *f,
                                    fl_id n) {
  const char *v = (api->attr)(f, FL_ENT_NODE, n, "peer-only");
  return v && strcmp(v, "yes") == 0;
}

/**
 * fl_fabric_key — what a plugin's cached analysis of a fabric is keyed by:
 * the fabric pointer and the host's serial for it (fl_host_api.
 * fabric_serial; 0 from a host older than ABI 1.5, where the pointer is all
 * there is). Plain data; compare with fl_fabric_key_eq().
 */
typedef struct fl_fabric_key {
  const fl_fabric *f;
  uint64_t serial;
} fl_fabric_key;

/**
 * fl_fabric_key_of() — the key of the fabric rule context @ctx judges
 * (api->fabric(ctx) and its serial). Never fails.
 */
static inline fl_fabric_key fl_fabric_key_of(const fl_host_api *api,
                                             fl_ctx *ctx) {
  fl_fabric_key k = {(api->fabric)(ctx), 0};
  if (FL_API_HAS(api, fabric_serial) && api->fabric_serial)
    k.serial = (api->fabric_serial)(ctx);
  return k;
}

/**
 * fl_fabric_key_eq() — 1 when @a and @b name the same fabric of the same
 * pass (a cached analysis keyed @a may be used for @b), else 0. A zero key
 * (nothing cached) equals no key of a fabric.
 */
static inline int fl_fabric_key_eq(fl_fabric_key a, fl_fabric_key b) {
  return a.f && a.f == b.f && a.serial == b.serial;
}

/**
 * fl_root — what a finding is rooted in (ABI 1.4; fl_finding.root_*), for
 * fl_emit_rooted(). @kind FL_ROOT_LINK / _NODE / _FACT, @role
 * FL_ROOT_PRIMARY / _CONSEQUENCE, @id the link or node, @fact the fact id.
 */
typedef struct fl_root {
  uint32_t kind;
  uint32_t role;
  fl_id id;
  const char *fact;
} fl_root;

/**
 * fl_emit_rooted() — report one finding with every optional part: a cause
 * (one finding per cause within the rule; NULL for none), a fix (NULL for
 * none) and a root (one cause across rules, fl_finding.root_*; NULL for
 * none). Everything is borrowed and copied. Returns 0, or 1 after
 * api->fail().
 */
static inline int fl_emit_rooted(const fl_host_api *api, fl_ctx *ctx,
                                 uint32_t severity, const char *message,
                                 const fl_id *nodes, uint32_t n_nodes,
                                 const fl_port_ref *ports, uint32_t n_ports,
                                 const fl_id *links, uint32_t n_links,
                                 const char *evidence_json, const char *cause,
                                 const char *cause_message, const fl_fix *fix,
                                 const fl_root *root) {
  fl_finding fd;
  memset(&fd, 0, sizeof fd);
  fd.struct_size = sizeof fd;
  fd.severity = severity;
  fd.message = message;
  fd.nodes = nodes;
  fd.n_nodes = n_nodes;
  fd.ports = ports;
  fd.n_ports = n_ports;
  fd.links = links;
  fd.n_links = n_links;
  fd.evidence_json = evidence_json;
  fd.cause = cause;
  fd.cause_message = cause_message;
  fd.fix = fix;
  if (root) {
    fd.root_kind = root->kind;
    fd.root_role = root->role;
    fd.root_id = root->id;
    fd.root_fact = root->fact;
  }
  if ((api->report)(ctx, &fd) != 0) {
    (api->fail)(ctx, "could not record a finding (out of memory or bad data)");
    return 1;
  }
  return 0;
}

/**
 * fl_emit_fix() — report one finding with a cause (one finding per cause;
 * NULL for none) and a fix (NULL for none): fl_emit_rooted() without a
 * root. Returns 0, or 1 after api->fail().
 */
static inline int fl_emit_fix(const fl_host_api *api, fl_ctx *ctx,
                              uint32_t severity, const char *message,
                              const fl_id *nodes, uint32_t n_nodes,
                              const fl_port_ref *ports, uint32_t n_ports,
                              const fl_id *links, uint32_t n_links,
                              const char *evidence_json, const char *cause,
                              const char *cause_message, const fl_fix *fix) {
  return fl_emit_rooted(api, ctx, severity, message, nodes, n_nodes, ports,
                        n_ports, links, n_links, evidence_json, cause,
                        cause_message, fix, NULL);
}

/**
 * fl_emit_cause() — fl_emit() for a finding that is one instance of a
 * structural cause (see fl_finding.cause): the host merges the findings
 * of the rule that share @cause into one, with @cause_message ("{count}"
 * replaced by their number) and the members in its evidence. @cause and
 * @cause_message are borrowed and copied. A host of ABI 1.0 ignores them
 * and keeps every finding. Returns 0, or 1 after api->fail().
 */
static inline int fl_emit_cause(const fl_host_api *api, fl_ctx *ctx,
                                uint32_t severity, const char *message,
                                const fl_id *nodes, uint32_t n_nodes,
                                const fl_port_ref *ports, uint32_t n_ports,
                                const fl_id *links, uint32_t n_links,
                                const char *evidence_json, const char *cause,
                                const char *cause_message) {
  return fl_emit_fix(api, ctx, severity, message, nodes, n_nodes, ports,
                     n_ports, links, n_links, evidence_json, cause,
                     cause_message, NULL);
}

/**
 * fl_emit() — report one finding (see fl_finding) through api->report();
 * on failure calls api->fail() and returns 1, so a check() can write
 * `if (fl_emit(...)) return 1;`. @severity 0 = the rule's default. Every
 * array is borrowed and copied by the host.
 */
static inline int fl_emit(const fl_host_api *api, fl_ctx *ctx,
                          uint32_t severity, const char *message,
                          const fl_id *nodes, uint32_t n_nodes,
                          const fl_port_ref *ports, uint32_t n_ports,
                          const fl_id *links, uint32_t n_links,
                          const char *evidence_json) {
  return fl_emit_cause(api, ctx, severity, message, nodes, n_nodes, ports,
                       n_ports, links, n_links, evidence_json, NULL, NULL);
}

/**
 * fl_progress() — report that the rule has done @done of @total units of
 * @what through api->progress (ABI 1.2); does nothing on an older host.
 * See fl_host_api.progress.
 */
static inline void fl_progress(const fl_host_api *api, fl_ctx *ctx,
                               const char *what, uint64_t done,
                               uint64_t total) {
  if (FL_API_HAS(api, progress) && api->progress)
    (api->progress)(ctx, what, done, total);
}

/** Type of the entry point. */
typedef const fl_plugin_desc *(*fl_plugin_entry_fn)(void);

#ifdef __cplusplus
}
#endif
#endif /* FABRICLINT_PLUGIN_H */
