/* SPDX-License-Identifier: MIT */
/*
 * core/cli/cli_table.c — the rows of the command-line table (cli_table.h):
 * what each command and option is and says. Data only; the scanner
 * (cli_args.c) and the renderers of help, man page and completion
 * (cli_usage.c) read it.
 */
#include <stdio.h>
#include <string.h>

#include "cli/cli_table.h"

/* option groups by the commands that take them */
#define C  FL_CMD_CHECK
#define I  FL_CMD_INFO
#define R  FL_CMD_RULES
#define G  FL_CMD_GEN
#define D  FL_CMD_DIFF
#define H  FL_CMD_HELP
#define X  FL_CMD_EXPLAIN
#define P  FL_CMD_PERF
#define V  FL_CMD_CONVERT
#define K  FL_CMD_COMPARE
#define B  FL_CMD_BOM
#define S  FL_CMD_SWEEP
#define FT FL_KIND_FAT_TREE
#define RS FL_KIND_RAIL_SU
#define RG FL_KIND_RING
#define TO FL_KIND_TORUS

const char FL_CLI_ABOUT[] =
    "validate GPU-cluster network fabrics (InfiniBand and RoCE)";

const fl_cli_cmd FL_CLI_CMDS[] = {
    {"check", C, "[OPTIONS] INPUT...",
     "run rules on a fabric (topology + routing dumps)",
     "Load the INPUTs into one fabric and run the rules of the loaded "
     "plugins on it. The INPUTs are a topology (ibnetdiscover dump, design "
     "XML, IBDM topology, opensm-subnet.lst, lldpd or Junos LLDP XML, Cisco "
     "cable plan, or a folder of per-device captures) plus optional routing "
     "state (OpenSM LFT, fdbs, SL2VL and path-SL dumps, ibdiagnet AR "
     "tables) and attribute files; each format is detected from the "
     "content.\n\n"
     "On a terminal, progress (phase, rule, percentage where known, elapsed "
     "time) is shown on standard error; -v prints the wall time of each "
     "phase and rule and the peak memory at the end.",
     FL_CPL_FILE},
    {"info", I, "[OPTIONS] INPUT...", "summarise what was loaded",
     "Load the INPUTs as check does and print what they hold: node, port "
     "and link counts, tiers, systems, link types and the routing state "
     "loaded.",
     FL_CPL_FILE},
    {"rules", R, "[OPTIONS]", "list loaded plugins, rules and parameters",
     "List the loaded plugins and their rules (id, default severity, "
     "summary, whether opt-in) with each parameter, its type, range, "
     "default and unit. With --policy, the policy file is checked against "
     "the loaded rules. `fabriclint rules --help RULE...` is `fabriclint "
     "explain RULE...`.",
     FL_CPL_NONE},
    {"explain", X, "[OPTIONS] RULE...",
     "a rule's full help, parameters, inputs it needs and an example",
     "Print each RULE's full help: what it checks, its parameters with "
     "units, defaults and ranges, the inputs it needs, an example command "
     "and where it is documented. RULE is a rule id, a shell glob or a "
     "plugin name; an unknown one exits 2 naming the closest ids. Also "
     "`fabriclint rules --help RULE`.",
     FL_CPL_RULES},
    {"gen", G, "KIND [OPTIONS]",
     "write a design (or dump) of a standard topology",
     "Write a standard topology: fabriclint design XML on standard output "
     "by default, or an ibnetdiscover dump or an ibsim net file of the same "
     "fabric. Shapes, names and port plans are described in "
     "include/fabriclint/gen.h.",
     FL_CPL_KIND},
    {"diff", D, "[OPTIONS] DESIGN AS_BUILT",
     "compare as-designed with as-built cabling",
     "Compare the planned cabling (DESIGN) with the built one (AS_BUILT), "
     "cable by cable. Either side may be design XML, an IBDM topology "
     "file, a Cisco cable plan, an ibnetdiscover dump, lldpd or Junos LLDP "
     "XML, or a folder of per-device files. Findings: diff.missing, "
     "diff.unexpected, diff.misconnected, diff.swapped, diff.duplicate, "
     "diff.different, diff.missing-node, diff.unexpected-node, "
     "diff.reversed (a capture given as DESIGN and a plan as AS_BUILT are "
     "compared the other way round, unless --as-given). The report options "
     "are those of check.",
     FL_CPL_FILE},
    {"perf", P, "--workload|--job JOB.yaml | --measured LOG [OPTIONS] INPUT...",
     "model a job's collectives, or a training step, on the routing",
     "Load the INPUTs as check does and model the collectives of JOB.yaml "
     "(hosts in rank order, collectives; YAML or JSON) on the fabric and its "
     "routing (docs/perf.md): time, algorithm and bus bandwidth, the "
     "no-contention ideal, and the bottleneck links with the flows that "
     "share them. Exit 1 when a collective is below --min-share of its "
     "ideal or cannot be routed. With --job, JOB.yaml's `training:` section "
     "(model, parallelism, GPU) is one training step: its TP, CP, EP, PP "
     "and DP communicators placed on the GPUs, their traffic run together "
     "on the fabric, and the step time = compute + exposed communication "
     "(docs/perf.md, \"Training step\"); exit 1 when a phase alone is "
     "below --min-share of its ideal. With --measured, an nccl-tests log's "
     "ranks on the fabric's hosts: per size the measured and predicted bus "
     "bandwidth and what the gap is; with --calibrate, NCCL's latency and "
     "efficiency fitted to it (docs/perf.md, \"Measured\").",
     FL_CPL_FILE},
    {"convert", V, "INPUT... -o OUT [--format FORMAT] [OPTIONS]",
     "write a loaded fabric in another format",
     "Load the INPUTs as info does (any topology inputs: a plan, a dump, "
     "LLDP captures, ...) and write the fabric to OUT in FORMAT: a plan "
     "turned into an as-built ibnetdiscover dump or an ibsim net file for "
     "what-if tests, a dump turned into a design XML plan, a UFM NDT "
     "cabling plan, a Graphviz DOT or GraphML drawing, or Slurm's "
     "topology.conf (tree or block plugin) or topology.yaml of the hosts "
     "and switches. Without --format the format is named by OUT's "
     "extension (.xml, .ibnetdiscover, .net, .ndt, .dot or .gv, .graphml) "
     "or name (topology.conf, topology.yaml). OUT `-` is standard output; "
     "an existing OUT "
     "is refused without --force, and a file the run reads is never "
     "overwritten. Routing state, counters and findings are not written "
     "(docs/cli.md).",
     FL_CPL_FILE},
    {"compare", K, "[OPTIONS] BASE HEAD",
     "what a design change does: inventory, capacity and findings, as a "
     "delta",
     "Load BASE and HEAD (two plans or captures in any format check reads, "
     "typically the design file at the merge base and at the head of a pull "
     "request), run the same rules on both and report side by side and as "
     "a delta: switches, ports and cables by tier, cables by rate and "
     "media; leaf-to-spine capacity and oversubscription per tier and the "
     "bisection eBB (from ecmp-balance.summary); findings new in HEAD, "
     "fixed and unchanged, matched by fingerprint with HEAD's renamed nodes "
     "(same GUID, new name) read under their BASE names, so renames and "
     "relabelling do not churn; with --workload, each collective's bus "
     "bandwidth and bottleneck link on both (the perf model), or with "
     "`training:` the step time and each phase's; with "
     "--catalogue, cost and power; the unicast LIDs each subnet needs "
     "(topology.lid-space). --fail-on judges the delta: new-error "
     "(default), new-warning, oversubscription-rise[=X], ebb-drop[=X], "
     "busbw-drop[=X], cost-rise[=X], power-rise[=X], step-rise[=X] "
     "(docs/cli.md "
     "\"compare\"). Text, JSON, Markdown (a pull-request comment or CI job "
     "summary) or HTML (one page: the table and both plans' pictures).",
     FL_CPL_FILE},
    {"bom", B, "[--format csv|json] [--catalogue FILE.yaml] INPUT...",
     "bill of materials: switches, cables, transceivers, cost and power",
     "Load the INPUTs as info does and count what the plan needs: switches "
     "by model, cables by rate, media and length, transceivers per end of "
     "every optical cable (multimode up to 50 m, single-mode beyond; one "
     "per twin-port cage at an NDR or XDR switch, one per HCA port). With "
     "--catalogue, unit and total price, watts and reach come from the "
     "user's YAML parts catalogue, keyed by the item text; a figure it "
     "lacks stays empty and the totals say so (docs/cli.md \"bom\"). CSV "
     "(default) or JSON.",
     FL_CPL_FILE},
    {"sweep", S, "[OPTIONS] --vary OPTION=V1,V2,... -- KIND [GEN OPTIONS]",
     "designs side by side over generator parameters, the Pareto front "
     "marked",
     "Generate one plan per combination of the --vary values (gen KIND with "
     "the GEN OPTIONS after --, each varied option added), evaluate each as "
     "compare evaluates a side (the same rules, the capacity summary and "
     "the worst single failure domain; with --catalogue its cost and power, "
     "with --workload each collective's bus bandwidth) and print one row per "
     "design: switches, cables, eBB, the most servers one failure domain "
     "takes off, price, watts, busbw. A design is on the Pareto front when "
     "no other is at least as good in every figure and better in one "
     "(docs/cli.md \"sweep\"). Text, CSV, JSON or SVG (the Pareto front "
     "plotted).",
     FL_CPL_NONE},
    {"help", H, "[COMMAND] [--man | --completion SHELL | --list WHAT]",
     "help on a command; the man page and shell completion",
     "Print the help of COMMAND (as COMMAND --help), or of fabriclint. "
     "--man writes the man page fabriclint.1 (roff) and --completion the "
     "bash or zsh completion script, both made from the table --help is "
     "made from; --list prints one name a line for scripts and the "
     "completion.",
     FL_CPL_COMMAND},
    {NULL, 0, NULL, NULL, NULL, FL_CPL_NONE},
};

const fl_cli_opt FL_CLI_OPTS[] = {
    /* ---- report ---- */
    {FL_OPT_FORMAT, "format", 0, "FORMAT", C, 0, FL_CPL_REPORT, NULL,
     "report format: text (default), json, sarif (SARIF 2.1.0), junit (JUnit "
     "XML), codequality (GitLab Code Quality); pictures: dot, svg, html (one "
     "page: pictures, findings table, tallies, provenance)"},
    {FL_OPT_FORMAT, "format", 0, "FORMAT", D, 0, FL_CPL_REPORT, "csv xlsx",
     "report format as for check (the pictures draw the plan with the "
     "changes: --view diff), or csv: the field team's work order (one row "
     "per physical action), or xlsx: the work order as a workbook, a sheet "
     "per rack (needs -o FILE or a redirect)"},
    {FL_OPT_FORMAT, "format", 0, "FORMAT", K, 0, FL_CPL_VALUES,
     "text json markdown html",
     "text (default), json (schema/compare.schema.json), markdown (a "
     "pull-request comment or CI job summary) or html (one page: the table "
     "and the tiers picture of both plans side by side)"},
    {FL_OPT_FORMAT, "format", 0, "FORMAT", I | R | X | P, 0, FL_CPL_VALUES,
     "text json", "text (default) or json"},
    {FL_OPT_VIEW, "view", 0, "VIEW[,VIEW]", C | D, 0, FL_CPL_VALUES,
     "tiers rails load domains diff",
     "pictures: tiers (default), rails, load, domains; diff draws diff "
     "(html: several)"},
    {FL_OPT_FOCUS, "focus", 0, "NODE|RULE", C | D, 0, FL_CPL_NONE, NULL,
     "pictures: draw the neighbourhood of a node, or of the findings of a "
     "rule (glob)"},
    {FL_OPT_FORMAT, "format", 0, "FORMAT", G, 0, FL_CPL_VALUES,
     "design ibnetdiscover ibsim",
     "design (default: design XML), ibnetdiscover or ibsim (net file)"},
    {FL_OPT_FORMAT, "format", 0, "FORMAT", V, 0, FL_CPL_VALUES,
     "design ibnetdiscover ibsim ndt netbox-cables dot graphml slurm-tree "
     "slurm-block slurm-yaml",
     "design (design XML), ibnetdiscover (dump), ibsim (net file), ndt (UFM "
     "NDT CSV), netbox-cables (NetBox cable import CSV), dot (Graphviz), "
     "graphml, slurm-tree or slurm-block (Slurm "
     "topology.conf) or slurm-yaml (topology.yaml); default: from OUT's "
     "extension or name"},
    {FL_OPT_FORCE, "force", 0, NULL, V, 0, FL_CPL_NONE, NULL,
     "replace OUT when it exists (never an input)"},
    {FL_OPT_FORMAT, "format", 0, "FORMAT", B, 0, FL_CPL_VALUES, "csv json xlsx",
     "csv (default), json or xlsx (an Excel workbook; needs -o FILE or a "
     "redirect)"},
    {FL_OPT_VARY, "vary", 0, "OPTION=V1,V2,...", S, 0, FL_CPL_NONE, NULL,
     "a gen option and the values it takes (repeatable: every combination "
     "is one design), e.g. --vary oversubscription=1:1,2:1 --vary sus=2,4"},
    {FL_OPT_FORMAT, "format", 0, "FORMAT", S, 0, FL_CPL_VALUES,
     "text csv json svg",
     "text (default), csv, json or svg (a scatter plot: price, else "
     "switches, against the first collective's busbw, else eBB; the Pareto "
     "front marked and joined)"},
    {FL_OPT_CATALOGUE, "catalogue", 0, "FILE", B | K | S, 0, FL_CPL_FILE, NULL,
     "YAML parts catalogue: part, price, watts, reach per BOM item (missing "
     "figures stay empty); compare: the cost and power of each side"},
    {FL_OPT_OUTPUT, "output", 'o', "FILE", FL_CMD_ALL, 0, FL_CPL_FILE, NULL,
     "write to FILE instead of standard output (never over a file the run "
     "reads)"},
    {FL_OPT_FAIL_ON, "fail-on", 0, "SEVERITY", C | D, 0, FL_CPL_VALUES,
     "error warning info never",
     "exit 1 when a finding is at least this severe: error (default), "
     "warning, info or never"},
    {FL_OPT_FAIL_ON, "fail-on", 0, "POLICY[,POLICY]", K, 0, FL_CPL_VALUES,
     "new-error new-warning oversubscription-rise ebb-drop busbw-drop "
     "cost-rise power-rise never",
     "exit 1 when the change does this (repeatable): new-error (default: a "
     "finding of severity error new in HEAD), new-warning (error or "
     "warning), oversubscription-rise[=X] (a tier's ratio rises by more "
     "than X, default 0), ebb-drop[=X] (the bisection eBB falls by more "
     "than X, default 0), busbw-drop[=X] (with --workload: a collective's "
     "bus bandwidth falls by more than the fraction X of BASE's, default "
     "0), cost-rise[=X] and power-rise[=X] (with --catalogue: the bill of "
     "materials' price or watts rise by more than the fraction X), "
     "step-rise[=X] (with --workload holding `training:`: the step time "
     "rises by more than the fraction X), never"},
    {FL_OPT_EXIT_ZERO, "exit-zero", 0, NULL, C | D | K, 0, FL_CPL_NONE, NULL,
     "exit 0 even with findings (report-only jobs; errors still exit 2 or "
     "3)"},
    {FL_OPT_POLICY, "policy", 0, "FILE", C | D | R | X | K | S, 0, FL_CPL_FILE,
     NULL,
     "YAML policy: rule selection, severities, parameters, waivers "
     "(docs/ci.md); rules only checks it"},
    {FL_OPT_SM_CONFIG, "sm-config", 0, "FILE", C, 0, FL_CPL_FILE, NULL,
     "the subnet manager's opensm.conf: its routing_engine, lmc and "
     "ar_sl_mask become the defaults of the rules' routing-engine, lmc and "
     "sl-mask parameters (--param and --policy still win)"},
    {FL_OPT_BASELINE, "baseline", 0, "FILE", C | D, 0, FL_CPL_FILE, NULL,
     "findings in FILE are accepted: marked, not counted; only new findings "
     "fail the run"},
    {FL_OPT_WRITE_BASELINE, "write-baseline", 0, "FILE", C | D, 0, FL_CPL_FILE,
     NULL, "write the findings of this run as a baseline"},
    {FL_OPT_MAX_PER_RULE, "max-findings-per-rule", 0, "N", C | D, 0,
     FL_CPL_NONE, NULL,
     "show at most N findings of each rule in text output (the tally still "
     "counts all; 0 = all)"},
    {FL_OPT_JOBS, "jobs", 'j', "N", C | D | P | K | S, 0, FL_CPL_NONE, NULL,
     "run at most N threads, 1 to 64 (default: FABRICLINT_THREADS, else "
     "the CPUs this process may use: its affinity mask, lowered to its "
     "cgroup CPU quota); the report is the same for every N"},
    /* ---- rules and plugins ---- */
    {FL_OPT_RULES, "rules", 0, "PATTERN[,...]", C | R | K | S, 0, FL_CPL_RULES,
     NULL,
     "run only rules whose id matches a shell glob (e.g. 'topology.*'); a "
     "plugin name selects all its rules, including opt-in ones"},
    {FL_OPT_RULES, "rules", 0, "PATTERN[,...]", D, 0, FL_CPL_VALUES,
     "diff diff.missing diff.unexpected diff.misconnected diff.swapped "
     "diff.duplicate diff.different diff.missing-node diff.unexpected-node",
     "report only the finding kinds whose id matches a shell glob (e.g. "
     "'diff.missing*')"},
    {FL_OPT_PARAM, "param", 0, "RULE.PARAM=VALUE", C | R | X | K | S, 0,
     FL_CPL_PARAM, NULL,
     "set a rule parameter (repeatable); with a plugin name for RULE, for "
     "all its rules"},
    {FL_OPT_PLUGIN, "plugin", 0, "FILE", C | R | X | H | K | S, 0, FL_CPL_FILE,
     NULL, "load this plugin first (repeatable)"},
    {FL_OPT_PLUGIN_PATH, "plugin-path", 0, "DIR", C | R | X | H | K | S, 0,
     FL_CPL_DIR, NULL,
     "search DIR for plugins (repeatable; also FABRICLINT_PLUGIN_PATH, "
     "colon-separated)"},
    {FL_OPT_NO_BUILTIN, "no-builtin-plugins", 0, NULL, C | R | X | H | K | S, 0,
     FL_CPL_NONE, NULL, "do not load the plugins shipped with fabriclint"},
    /* ---- inputs ---- */
    {FL_OPT_NODE_MAP, "node-name-map", 0, "FILE", C | I | D | P | V | K | B, 0,
     FL_CPL_FILE, NULL, "GUID to name map (infiniband-diags format)"},
    {FL_OPT_PLANE, "plane", 0, "NAME:FILE", C | I | P, 0, FL_CPL_FILE, NULL,
     "one more input, in plane NAME: its nodes get plane NAME and its LIDs "
     "are that plane's (repeatable; docs/cli.md \"Planes\")"},
    {FL_OPT_INPUT_FORMAT, "input-format", 0, "FMT", C | I | D | P | V | K | B,
     0, FL_CPL_INPUT_FORMAT, NULL,
     "format of every input: auto (default: detected from the content) or "
     "one of the loaders' formats (--input-format list, or fabriclint help "
     "--list input-formats, lists them)"},
    {FL_OPT_SYSTEM_PATTERN, "system-pattern", 0, "REGEX",
     C | I | D | P | V | K | B, 0, FL_CPL_NONE, NULL,
     "POSIX ERE with two groups (system, device) applied to node "
     "descriptions"},
    {FL_OPT_RELAXNG, "relaxng", 0, NULL, C | I | D | P | V | K | B, 0,
     FL_CPL_NONE, NULL,
     "validate design XML with libxml2 RelaxNG (schema/design.rng) instead "
     "of the built-in, equivalent and faster checks"},
    {FL_OPT_LENIENT, "lenient-xml", 0, NULL, C | I | D | P | V | K | B, 0,
     FL_CPL_NONE, NULL, "ignore unknown design XML elements and attributes"},
    /* ---- diff ---- */
    {FL_OPT_DESIGN, "design", 0, "FILE|DIR", D, 0, FL_CPL_FILE, NULL,
     "one more design input (repeatable)"},
    {FL_OPT_AS_BUILT, "as-built", 0, "FILE|DIR", D, 0, FL_CPL_FILE, NULL,
     "one more as-built input (repeatable)"},
    {FL_OPT_DESIGN_FORMAT, "design-format", 0, "FMT", D, 0, FL_CPL_INPUT_FORMAT,
     NULL, "format of the design inputs (default auto)"},
    {FL_OPT_AS_BUILT_FORMAT, "as-built-format", 0, "FMT", D, 0,
     FL_CPL_INPUT_FORMAT, NULL, "format of the as-built inputs (default auto)"},
    {FL_OPT_DESIGN_PLANE, "design-plane", 0, "NAME:FILE", D, 0, FL_CPL_FILE,
     NULL,
     "one more design input, in plane NAME (repeatable; findings name the "
     "plane; a plan of one plane is compared with that plane of a "
     "multi-plane as-built; docs/cli.md \"Planes\")"},
    {FL_OPT_AS_BUILT_PLANE, "as-built-plane", 0, "NAME:FILE", D, 0, FL_CPL_FILE,
     NULL,
     "one more as-built input, in plane NAME (repeatable; the as-built "
     "--plane)"},
    {FL_OPT_COMPARE_LIDS, "compare-lids", 0, NULL, D, 0, FL_CPL_NONE, NULL,
     "report LIDs that differ (default: ignored)"},
    {FL_OPT_NO_GUID, "no-guid", 0, NULL, D, 0, FL_CPL_NONE, NULL,
     "match nodes by name only, never by GUID, and compare no GUIDs"},
    {FL_OPT_AS_GIVEN, "as-given", 0, NULL, D, 0, FL_CPL_NONE, NULL,
     "compare the inputs in the order given even when the design is a "
     "capture and the as-built a plan (default: such inputs are compared "
     "the other way round, and a diff.reversed warning says so)"},
    /* ---- compare ---- */
    {FL_OPT_SUMMARY_PATTERNS, "patterns", 0, "LIST", K, 0, FL_CPL_NONE, NULL,
     "traffic patterns of the eBB figure (ecmp-balance.summary patterns; "
     "default bisect; none: no eBB, faster on large fabrics)"},
    {FL_OPT_WITH, "with", 0, "FILE", K, 0, FL_CPL_FILE, NULL,
     "one more input loaded into both BASE and HEAD: annotations or "
     "attribute files the two plans share (repeatable)"},
    /* ---- perf ---- */
    {FL_OPT_WORKLOAD, "workload", 0, "JOB.yaml", P | K | S, 0, FL_CPL_FILE,
     NULL,
     "the job: hosts in rank order and collectives (this or --job; "
     "docs/perf.md); compare: modelled on both sides, the bus bandwidth "
     "and bottleneck of each collective"},
    {FL_OPT_ROUTING, "routing", 0, "auto|lft|ar|spray", P, 0, FL_CPL_VALUES,
     "auto lft ar spray",
     "override the routing the workload names: the loaded LFTs, load-aware "
     "adaptive routing, or spraying (an equal split over minimal next "
     "hops); auto: the LFTs when loaded, else ar"},
    {FL_OPT_MIN_SHARE, "min-share", 0, "X", P, 0, FL_CPL_NONE, NULL,
     "a contention finding below X times the ideal bus bandwidth (0 < X <= "
     "1)"},
    {FL_OPT_EXPLAIN_INFER, "explain", 0, NULL, I, 0, FL_CPL_NONE, NULL,
     "also print every inference (tiers, scalable units) with its "
     "confidence and evidence (docs/inference.md)"},
    {FL_OPT_JOB, "job", 0, "JOB.yaml", P, 0, FL_CPL_FILE, NULL,
     "a training step: a workload with `training:` (model, parallelism, "
     "GPU); prints per-phase communication and the step time "
     "(docs/perf.md, \"Training step\")"},
    {FL_OPT_NO_OVERLAP, "no-overlap", 0, NULL, P, 0, FL_CPL_NONE, NULL,
     "with --job: count the data-parallel reduction as exposed in full "
     "(default: hidden behind backward but for its last bucket)"},
    {FL_OPT_MEASURED, "measured", 0, "[OP:]LOG", P, 0, FL_CPL_FILE, NULL,
     "an nccl-tests log (all_reduce_perf, ... output): per size, the "
     "measured bus bandwidth beside the predicted one on the fabric, the "
     "error and what the gap is (latency, fabric, host); OP (all-reduce, "
     "all-gather, reduce-scatter, all-to-all, sendrecv) when the log does "
     "not name its test (docs/perf.md, \"Measured\")"},
    {FL_OPT_CALIBRATE, "calibrate", 0, NULL, P, 0, FL_CPL_NONE, NULL,
     "with --measured: fit the latency and efficiency of NCCL's algorithm "
     "to the measured times (least squares, relative errors) and print "
     "them beside NCCL's constants, with each size's residual"},
    {FL_OPT_FAIL, "fail", 0, "SWITCH|'SWITCH port N'", P, 0, FL_CPL_NONE, NULL,
     "what if it failed: take a switch (all its switch-to-switch cables) or "
     "one cable between switches out of the fabric and route around it (ar "
     "and spray by themselves; loaded LFTs give way to the subnet "
     "manager's re-run, modelled as minimal paths split equally); "
     "repeatable, at most 256 (docs/perf.md, \"What if\")"},
    {FL_OPT_DUMP_FLOWS, "dump-flows", 0, "FILE", P, 0, FL_CPL_FILE, NULL,
     "also write the topology, LFT next hops and every flow per step as "
     "JSON to FILE (LFT routing; for the ns-3 harness, "
     "docs/performance-model.md)"},
    /* ---- gen: fat-tree ---- */
    {FL_OPT_RADIX, "radix", 0, "K", G, FT, FL_CPL_NONE, NULL,
     "ports per switch, even, 4..254 (required)"},
    {FL_OPT_TIERS, "tiers", 0, "2|3", G, FT | RS, FL_CPL_VALUES, "2 3",
     "leaf/spine, or leaf/spine/core in pods (rail-su: spine groups of SUs "
     "joined by core groups) (default 2)"},
    {FL_OPT_HOSTS, "hosts", 0, "N", G, FT, FL_CPL_NONE, NULL,
     "attach N hosts (default: full, K^2/2 for 2 tiers, K^3/4 for 3 tiers); "
     "unused leaves and pods are left out"},
    {FL_OPT_PARALLEL, "parallel", 0, "M", G, FT, FL_CPL_NONE, NULL,
     "cables per switch pair, divides K/2 (default 1)"},
    {FL_OPT_EXTRA_LEAF_LINK, "extra-leaf-link", 0, NULL, G, FT, FL_CPL_NONE,
     NULL,
     "add one cable between the first and the last leaf (on port K+1 of "
     "both; a miscabling that breaks up/down routing)"},
    /* ---- gen: rail-su ---- */
    {FL_OPT_SUS, "sus", 0, "N", G, RS, FL_CPL_NONE, NULL,
     "scalable units (required)"},
    {FL_OPT_HOSTS_PER_SU, "hosts-per-su", 0, "H", G, RS, FL_CPL_NONE, NULL,
     "hosts per SU; hosts + uplinks fit the leaf radix (default 32)"},
    {FL_OPT_RAILS, "rails", 0, "R", G, RS, FL_CPL_NONE, NULL,
     "compute HCAs per host = leaves per SU (default 8)"},
    {FL_OPT_SPINES, "spines", 0, "S", G, RS, FL_CPL_NONE, NULL,
     "spines (3 tiers: per spine group), divides the leaf uplinks "
     "(default: fewest that carry them, at least 2)"},
    {FL_OPT_OVERSUBSCRIPTION, "oversubscription", 0, "D:U[,D:U]", G, RS,
     FL_CPL_NONE, NULL,
     "down:up per tier from the leaves: 2:1 gives each leaf half as many "
     "uplinks as hosts; a second ratio is the spines' (3 tiers; default "
     "1:1)"},
    {FL_OPT_UPLINKS, "uplinks", 0, "U", G, RS, FL_CPL_NONE, NULL,
     "uplinks per leaf, instead of --oversubscription (default leaf radix "
     "/ 2)"},
    {FL_OPT_SUS_PER_GROUP, "sus-per-group", 0, "G", G, RS, FL_CPL_NONE, NULL,
     "3 tiers: SUs under one spine group (default: as many as a spine's "
     "down ports take)"},
    {FL_OPT_LEAF_RADIX, "leaf-radix", 0, "K", G, RS, FL_CPL_NONE, NULL,
     "ports per leaf and spine (default 64)"},
    {FL_OPT_HCA_MAP, "hca-map", 0, "LIST", G, RS, FL_CPL_NONE, NULL,
     "comma-separated HCA per rail (default DGX H100: mlx5_0,mlx5_3,mlx5_4,"
     "mlx5_5,mlx5_6,mlx5_9,mlx5_10,mlx5_11 for 8 rails, else mlx5_<rail>)"},
    {FL_OPT_HOST_PREFIX, "host-prefix", 0, "P", G, RS, FL_CPL_NONE, NULL,
     "host names P-001, P-002, ... (default dgx)"},
    /* ---- gen: ring and torus ---- */
    {FL_OPT_SWITCHES, "switches", 0, "N", G, RG, FL_CPL_NONE, NULL,
     "switches in the ring, 2..4096 (required)"},
    {FL_OPT_X, "x", 0, "X", G, TO, FL_CPL_NONE, NULL,
     "switches along x, 2..4096 (required)"},
    {FL_OPT_Y, "y", 0, "Y", G, TO, FL_CPL_NONE, NULL,
     "switches along y, 2..4096 (required)"},
    {FL_OPT_HOSTS_PER_SWITCH, "hosts-per-switch", 0, "H", G, RG | TO,
     FL_CPL_NONE, NULL, "hosts per switch, 1..250 (default 1)"},
    /* ---- gen: every kind ---- */
    {FL_OPT_SPEED, "speed", 0, "S", G, 0, FL_CPL_VALUES,
     "SDR DDR QDR FDR10 FDR EDR HDR NDR XDR 100G 200G 400G 800G",
     "link speed: SDR..XDR, or Ethernet 1G..1600G (default NDR)"},
    {FL_OPT_WIDTH, "width", 0, "W", G, 0, FL_CPL_VALUES, "1x 2x 4x 8x 12x",
     "link width: 1x, 2x, 4x, 8x, 12x (default 4x)"},
    {FL_OPT_NO_LIDS, "no-lids", 0, NULL, G, 0, FL_CPL_NONE, NULL,
     "leave LIDs unassigned (default: as a subnet manager would)"},
    {FL_OPT_PLANES, "planes", 0, "N", G, 0, FL_CPL_NONE, NULL,
     "N planes, 1..16: N copies of the switches (pl<k>-NAME, plane k), each "
     "host with one NIC per plane (NIC k in plane k), LIDs per plane"},
    {FL_OPT_LAYOUT, "layout", 0, NULL, G, 0, FL_CPL_NONE, NULL,
     "add a physical layout: racks, rows, U positions, A/B PDUs and feeds; "
     "cable ids, estimated lengths and media (docs/cli.md \"gen\")"},
    {FL_OPT_HOSTS_PER_RACK, "hosts-per-rack", 0, "N", G, 0, FL_CPL_NONE, NULL,
     "layout: hosts per compute rack (default 4 for rail-su, else 32; "
     "implies --layout)"},
    {FL_OPT_SWITCHES_PER_RACK, "switches-per-rack", 0, "N", G, 0, FL_CPL_NONE,
     NULL, "layout: switches per network rack (default 16; implies --layout)"},
    {FL_OPT_RACKS_PER_ROW, "racks-per-row", 0, "N", G, 0, FL_CPL_NONE, NULL,
     "layout: racks per row (default 10; implies --layout)"},
    {FL_OPT_HOST_U, "host-u", 0, "U", G, 0, FL_CPL_NONE, NULL,
     "layout: rack units per host (default 8 for rail-su, else 1; implies "
     "--layout)"},
    {FL_OPT_RACK_U, "rack-u", 0, "U", G, 0, FL_CPL_NONE, NULL,
     "layout: rack units per rack, 1..100 (default 42; implies --layout)"},
    {FL_OPT_STORAGE_NODES, "storage-nodes", 0, "N", G, 0, FL_CPL_NONE, NULL,
     "add a storage fabric: N storage servers, two storage NICs per host, "
     "storage leaves and spines; written to FILE's .storage.xml (needs -o)"},
    {FL_OPT_INBAND_MGMT, "inband-mgmt", 0, NULL, G, 0, FL_CPL_NONE, NULL,
     "add the in-band management network: Ethernet leaves per SU and "
     "spines, one in-band port per host; written to FILE's .inband.xml "
     "(needs -o)"},
    {FL_OPT_DRY_RUN, "dry-run", 0, NULL, G, 0, FL_CPL_NONE, NULL,
     "print the counts only"},
    {FL_OPT_ALLOW_LID_OVERFLOW, "allow-lid-overflow", 0, NULL, G, 0,
     FL_CPL_NONE, NULL,
     "write an InfiniBand subnet that needs more than its 49,151 unicast "
     "LIDs anyway (a scale test: the ports past the last LID get none; "
     "without it gen refuses)"},
    /* ---- help ---- */
    {FL_OPT_MAN, "man", 0, NULL, H, 0, FL_CPL_NONE, NULL,
     "write the man page fabriclint.1 (roff)"},
    {FL_OPT_COMPLETION, "completion", 0, "SHELL", H, 0, FL_CPL_VALUES,
     "bash zsh", "write the completion script for bash or zsh"},
    {FL_OPT_LIST, "list", 0, "WHAT", H, 0, FL_CPL_VALUES,
     "commands options rules params input-formats formats kinds",
     "print one name a line: commands, options (of COMMAND), rules (ids "
     "and plugin names of the loaded plugins), params (RULE.PARAM=), "
     "input-formats, formats (of COMMAND) or kinds (of gen)"},
    /* ---- every command ---- */
    {FL_OPT_QUIET, "quiet", 'q', NULL, FL_CMD_SHARED, 0, FL_CPL_NONE, NULL,
     "print findings only (no progress, tally or summary)"},
    {FL_OPT_VERBOSE, "verbose", 'v', NULL, FL_CMD_SHARED, 0, FL_CPL_NONE, NULL,
     "explain what is loaded and run; check also prints the time of each "
     "phase and rule and the peak memory"},
    {FL_OPT_VERSION, "version", 0, NULL, FL_CMD_SHARED, 0, FL_CPL_NONE, NULL,
     "print the version"},
    {FL_OPT_HELP, "help", 'h', NULL, FL_CMD_ALL, 0, FL_CPL_NONE, NULL,
     "this help"},
    {0, NULL, 0, NULL, 0, 0, FL_CPL_NONE, NULL, NULL},
};

const fl_cli_kind FL_CLI_KINDS[] = {
    {"fat-tree", FT, "a folded Clos of radix-K switches"},
    {"rail-su", RS, "rail-optimised scalable units, DGX SuperPOD style"},
    {"ring", RG,
     "N switches in a cycle, H hosts on each (all switches tier 1)"},
    {"torus", TO, "an X x Y 2-D torus, wraparound links in both dimensions"},
    {NULL, 0, NULL},
};

const fl_cli_note FL_CLI_ENV[] = {
    {"FABRICLINT_PLUGIN_PATH",
     "colon-separated folders searched for plugins after --plugin-path and "
     "before the built-in folder"},
    {"FABRICLINT_TODAY",
     "the date (YYYY-MM-DD) waiver expiry is judged against (default: "
     "today, UTC)"},
    {"FABRICLINT_MAX_INPUT_SIZE",
     "the largest file read, in bytes or with a K, M, G or T suffix "
     "(default 64G)"},
    {"FABRICLINT_THREADS",
     "the thread budget when --jobs is not given, 1 to 64 (default: the "
     "CPUs this process may use, from its affinity mask and cgroup CPU "
     "quota)"},
    {NULL, NULL},
};

const fl_cli_note FL_CLI_EXIT[] = {
    {"0", "no finding at or above --fail-on (or --exit-zero)"},
    {"1", "findings at or above --fail-on (compare: the change breaks a "
          "--fail-on policy)"},
    {"2", "usage or input error: bad option, unreadable file, parse error "
          "(file:line:col: what was expected), schema violation"},
    {"3", "a plugin failed to load or a rule could not run"},
    {NULL, NULL},
};

const fl_cli_note FL_CLI_EXAMPLES[] = {
    {"fabriclint check dump.ibnetdiscover", "lint a discovered fabric"},
    {"fabriclint check topo.ibnetdiscover opensm-lfts.dump "
     "opensm-sl2vl.dump",
     "the same with the routing state"},
    {"fabriclint check plan.xml --format sarif --policy policy.yaml -o "
     "out.sarif",
     "a CI gate"},
    {"fabriclint diff plan.xml asbuilt.ibnetdiscover",
     "as designed against as built"},
    {"fabriclint compare base.xml head.xml --format markdown",
     "what a design change does, for a pull-request comment"},
    {"fabriclint gen fat-tree --radix 64 --tiers 3 -o dc.xml",
     "a 65,536-host plan"},
    {"fabriclint convert plan.xml -o plan.ibnetdiscover",
     "a plan as the dump ibnetdiscover would print of it"},
    {"fabriclint check -- -odd-name.xml",
     "an input whose name starts with a dash"},
    {NULL, NULL},
};

const fl_cli_cmd *fl_cli_find_cmd(const char *name) {
  for (const fl_cli_cmd *c = FL_CLI_CMDS; name && c->name; c++)
    if (strcmp(c->name, name) == 0)
      return c;
  return NULL;
}

const fl_cli_cmd *fl_cli_cmd_of(uint32_t bit) {
  for (const fl_cli_cmd *c = FL_CLI_CMDS; c->name; c++)
    if (c->bit == bit)
      return c;
  return NULL;
}

const fl_cli_kind *fl_cli_find_kind(const char *name) {
  for (const fl_cli_kind *k = FL_CLI_KINDS; name && k->name; k++)
    if (strcmp(k->name, name) == 0)
      return k;
  return NULL;
}

const char *fl_cli_cmds_text(uint32_t cmds, char *buf, size_t size) {
  size_t n = 0, total = 0, len = 0;
  for (const fl_cli_cmd *c = FL_CLI_CMDS; c->name; c++)
    total += (cmds & c->bit) != 0;
  buf[0] = '\0';
  for (const fl_cli_cmd *c = FL_CLI_CMDS; c->name && len < size; c++) {
    if (!(cmds & c->bit))
      continue;
    n++;
    const char *sep = n == 1 ? "" : n == total ? " and " : ", ";
    int k = snprintf(buf + len, size - len, "%s%s", sep, c->name);
    len += k > 0 ? (size_t)k : 0;
  }
  return buf;
}
