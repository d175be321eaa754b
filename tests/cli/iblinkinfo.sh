#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/cli/iblinkinfo.sh — iblinkinfo output as an as-built topology, on the
# real captures of tests/fixtures/iblinkinfo/ (its make.sh: ibsim + OpenSM on
# fabrics/fat-tree-2tier.net; ibnetdiscover and iblinkinfo of the same
# simulation):
#   - every form loads the fabric ibnetdiscover sees: `diff` finds nothing;
#   - check: the link states and "Could be" hints become findings, exactly
#     (1X link, EDR link, Down/Polling pair, disabled port), and the other
#     plugins judge the same fabric as they do from ibnetdiscover;
#   - before OpenSM: the -l capture gives one link-inactive finding for 256
#     links; the default capture (every LID 0) is refused, naming -l;
#   - a plan diffed against the capture with one cable unplugged: exactly
#     that cable is missing.
. "$(dirname "$0")/lib.bash"
FL_SRC=${FL_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
FL=${FL:-$FL_SRC/build/fabriclint}
X=$FL_SRC/tests/fixtures/iblinkinfo
# rules: "[(rule, severity, count), ...]" of the JSON in $TMP/out
rules() { jget "$TMP/out" "=sorted((f['rule'], f['severity'], f['evidence'].get('count', 1) if isinstance(f['evidence'], dict) else 1) for f in d['findings'])"; }

# ---- every form is the fabric ibnetdiscover sees ---------------------------
for f in iblinkinfo iblinkinfo-l iblinkinfo-switches-only iblinkinfo-switches-only-l pre-sm-l.iblinkinfo; do
  expect_rc 0 "$FL" info --format json "$X/clean/$f"
  cp "$TMP/out" "$TMP/info-$f.json" # (read again below)
  expect_eq "$(jget "$TMP/out" "=(d['fabric'], d['link_types'], d['inputs'][0]['format'])")" \
    "({'switches': 24, 'cas': 128, 'routers': 0, 'links': 256}, {'4xHDR': 256}, 'iblinkinfo')" "clean $f: counts"
  expect_rc 0 "$FL" diff --format json "$X/clean/ibnetdiscover" "$X/clean/$f"
  expect_eq "$(jget "$TMP/out" "=len(d['findings'])")" 0 "clean $f: diff against ibnetdiscover"
done
for f in iblinkinfo iblinkinfo-l iblinkinfo-p iblinkinfo-switches-only-l; do
  expect_rc 0 "$FL" diff --format json "$X/faults/ibnetdiscover" "$X/faults/$f"
  expect_eq "$(jget "$TMP/out" "=len(d['findings'])")" 0 "faults $f: diff against ibnetdiscover"
done

# ---- check: link states and hints -------------------------------------------
F=$X/faults/iblinkinfo
expect_rc 1 "$FL" check --format json "$F"
cp "$TMP/out" "$TMP/faults.json" # (read again below)
# the 1x cable leads its consequences (one mixed group, the oversubscription
# and uplink asymmetry of leaf-p01-01: core/host/roots.c); the two leaves
# whose uplink to spine-p01-08 is down (Down/Polling, no link) lack it, as
# the ibnetdiscover capture of the same fabric says (topology.missing-uplinks,
# which attaches their ecmp-balance consequences): iblinkinfo lists every
# port of a switch, so its port count, and the free ports, are known
# the EDR cable, the one link of tier 1-2 off HDR, leads its own (leaf
# leaf-p01-03's mixed next hops, oversubscription and asymmetry) under
# topology.mixed-speed; spine-p01-08's next hops mix three speeds, so no
# one cable explains them
expect_eq "$(rules)" "[('ecmp-balance.mixed-speed-group', 'warning', 1), ('topology.below-capability', 'warning', 1), ('topology.below-capability', 'warning', 1), ('topology.below-capability', 'warning', 252), ('topology.degraded-link', 'warning', 1), ('topology.input', 'info', 1), ('topology.missing-uplinks', 'error', 1), ('topology.missing-uplinks', 'error', 1), ('topology.mixed-speed', 'warning', 1), ('topology.port-disabled', 'warning', 1), ('topology.port-down', 'info', 2)]" \
  "faults: findings"
expect_eq "$(jget "$TMP/out" "=[(f['nodes'][:2], sorted(r['rule'] for r in f['related'])) for f in d['findings'] if f['rule'] == 'topology.mixed-speed']")" \
  "[(['leaf-p01-03', 'spine-p01-08'], ['ecmp-balance.mixed-speed-group', 'ecmp-balance.oversubscription', 'ecmp-balance.uplink-asymmetry'])]" \
  "faults: the EDR cable's consequences under mixed-speed"
expect_rc 1 "$FL" check --format json --rules 'topology.missing-uplinks' "$X/faults/ibnetdiscover"
expect_eq "$(jget "$TMP/out" "=sorted(f['nodes'][0] for f in d['findings'])")" "['leaf-p01-05', 'leaf-p01-06']" "ibnetdiscover: the same two leaves"
expect_rc 1 "$FL" check --format json --rules 'topology.missing-uplinks' "$F"
expect_eq "$(jget "$TMP/out" "=sorted(f['nodes'][0] for f in d['findings'])")" "['leaf-p01-05', 'leaf-p01-06']" "iblinkinfo: the same two leaves"
# the leaves' free port 16 as the capture shows it (outside tester,
# session 10): Down/Polling on leaf-p01-05 (no partner: a cable there does
# not train), Disabled on leaf-p01-06 (enable it first)
expect_eq "$(jget "$TMP/out" "=sorted((f['nodes'][0], f['message'].split('add it on its free port 16 ')[1]) for f in d['findings'])")" \
  "[('leaf-p01-05', '(the capture shows it Down/Polling: no partner, so if a cable is plugged there it does not train: reseat or replace it)'), ('leaf-p01-06', '(port 16 is Disabled: a cable may be there already; enable the port first, with \`ibportstate\` or the subnet manager)')]" \
  "iblinkinfo: the free port's state in the fix"
cp "$TMP/faults.json" "$TMP/out" # the whole report again (its run above), for what follows
expect_eq "$(jget "$TMP/out" "=[sorted(r['rule'] for r in f['related']) for f in d['findings'] if f['rule'] == 'topology.degraded-link']")" "[['ecmp-balance.mixed-speed-group', 'ecmp-balance.oversubscription', 'ecmp-balance.uplink-asymmetry']]" "faults: the 1x cable's consequences"
# the could-be finding of the 1X link
expect_eq "$(jget "$TMP/out" "=[(f['message'], f['evidence'], f['location']['line']) for f in d['findings'] if f['rule'] == 'topology.below-capability' and 'count' not in f['evidence'] and f['evidence']['seen'] == '1xHDR']")" \
  "[('link \"spine-p01-08\" port 1 <-> \"leaf-p01-01\" port 16 runs at 1xHDR though both ends support 12xHDR (iblinkinfo\\'s \"Could be\" hint): a bad lane or connector, a cable below the ports\\' rating, or a port configured below its capability', {'could_be_width': '12x', 'seen': '1xHDR', 'seen_gbps': 50, 'supported': '12xHDR'}, 497)]" \
  "faults: 1X link, Could be 12X"
expect_eq "$(jget "$TMP/out" "=[(f['evidence']['seen'], f['evidence']['supported'], f['evidence'].get('could_be_speed')) for f in d['findings'] if f['rule'] == 'topology.below-capability' and 'count' not in f['evidence'] and f['evidence']['seen'] != '1xHDR']")" \
  "[('4xEDR', '12xHDR', 'HDR')]" "faults: EDR link, Could be 53.125 Gbps"
expect_eq "$(jget "$TMP/out" "=[m['ports'] for f in d['findings'] if f['rule'] == 'topology.port-down' for m in f['evidence']['members']]")" \
  "[[{'node': 'leaf-p01-05', 'port': 16}], [{'node': 'spine-p01-08', 'port': 5}]]" "faults: the unplugged pair is Down/Polling"
expect_eq "$(jget "$TMP/out" "=[(f['ports'], f['evidence']) for f in d['findings'] if f['rule'] == 'topology.port-disabled']")" \
  "[([{'node': 'leaf-p01-06', 'port': 16}], {'physical_state': 'Disabled', 'port_state': 'Active'})]" "faults: the disabled port"
expect_eq "$(jget "$TMP/out" "=[f['message'] for f in d['findings'] if f['rule'] == 'topology.input']")" \
  "['$F:427: 2 port(s) are up but iblinkinfo could not reach their far end (\"Port not available\"): no cable is loaded for them (the first is line 427)']" \
  "faults: the unreachable far ends, said"
# the structural plugins judge the fabric as they do from ibnetdiscover
# (every finding, those attached under a root too: which rule leads differs
# with what each capture shows of the down and disabled ports;
# and each member of a per-rule cause, so that how they group does not count)
plain() { jget "$TMP/out" "=sorted((f['rule'], m['message']) for g in d['findings'] for f in [g] + g.get('related', []) if not f['rule'].startswith('topology.') for m in (f['evidence'].get('members') or [f]))"; }
want=$(plain)
# ibnetdiscover shows no cable on the unplugged and the disabled port: the two
# leaves lack a cable their peers have (topology.missing-uplinks, errors)
expect_rc 1 "$FL" check --format json "$X/faults/ibnetdiscover"
expect_eq "$(jget "$TMP/out" "=[f['nodes'][0] for f in d['findings'] if f['rule'] == 'topology.missing-uplinks']")" "['leaf-p01-06', 'leaf-p01-05']" "faults: from ibnetdiscover the two leaves lack a cable"
expect_eq "$(plain)" "$want" "faults: ecmp-balance etc. as from ibnetdiscover"
# a speed-only hint, as iblinkinfo prints it for ports whose widest width
# is the one they run at (ibsim always says 12X, so its two lines of the EDR
# link lose "Could be 12X"): the link's own width is kept in what both ends
# support
sed 's/(Could be 12X Could be 53.125 Gbps)/(Could be 53.125 Gbps)/' "$F" >"$TMP/speed-only.iblinkinfo"
expect_eq "$(grep -c '(Could be 53.125 Gbps)' "$TMP/speed-only.iblinkinfo")" 2 "speed-only hint: both ends edited"
expect_rc 0 "$FL" check --rules topology.below-capability --format json "$TMP/speed-only.iblinkinfo"
expect_eq "$(jget "$TMP/out" "=[(f['evidence']['seen'], f['evidence']['supported'], f['evidence'].get('could_be_width'), f['ports']) for f in d['findings'] if 'count' not in f['evidence'] and f['evidence']['seen'] == '4xEDR']")" \
  "[('4xEDR', '4xHDR', None, [{'node': 'leaf-p01-03', 'port': 16}, {'node': 'spine-p01-08', 'port': 3}])]" "speed-only hint: 4xHDR supported"
# a filtered capture: no one-sided-link for the CA cables; info says why
cp "$TMP/info-iblinkinfo-switches-only-l.json" "$TMP/out" # (its info in the first loop)
expect_eq "$(jget "$TMP/out" "=(d['one_sided_links'], d['one_sided_links_by_filter'])")" "(128, 128)" "switches-only: one-sided by the filter"
cp "$TMP/info-iblinkinfo-l.json" "$TMP/out"
expect_eq "$(jget "$TMP/out" "=(d['one_sided_links'], d['one_sided_links_by_filter'])")" "(0, 0)" "full -l: none one-sided"
expect_rc 0 "$FL" check --format json --rules 'topology.one-sided-link,topology.input,topology.disconnected' "$X/clean/iblinkinfo-switches-only"
expect_eq "$(jget "$TMP/out" "=[(f['rule'], f['message']) for f in d['findings']]")" \
  "[('topology.input', '$X/clean/iblinkinfo-switches-only:2: the capture lists the ports of switches only (iblinkinfo --switches-only or --cas-only): 128 node(s) are known only as the far end of their cables, which are listed from one end')]" \
  "switches-only: one note, no one-sided cable"

# ---- before OpenSM ---------------------------------------------------------
expect_rc 1 "$FL" check --format json --rules 'topology.*' "$X/clean/pre-sm-l.iblinkinfo"
expect_eq "$(rules)" "[('topology.below-capability', 'warning', 256), ('topology.link-inactive', 'error', 256)]" "pre-SM -l: findings"
expect_eq "$(jget "$TMP/out" "=[f['message'] for f in d['findings'] if f['rule'] == 'topology.link-inactive']")" \
  "['256 links are physically up but Initialize: the subnet manager has not made them Active (is it running, and can it reach them?); e.g. \"node0128 mlx5_0\" port 1, \"node0127 mlx5_0\" port 1, \"node0126 mlx5_0\" port 1 and 253 more']" \
  "pre-SM -l: one link-inactive finding"
expect_rc 2 "$FL" check "$X/clean/pre-sm.iblinkinfo"
expect_eq "$(cat "$TMP/err")" "fabriclint: $X/clean/pre-sm.iblinkinfo:2: iblinkinfo's default form names a far end only by its LID, and LID 0 is held by more than one port of this capture (LIDs not yet assigned by a subnet manager?): capture with \`iblinkinfo -l\`, which prints port GUIDs" \
  "pre-SM default form: refused, naming -l"

# ---- a plan against the capture with one cable unplugged --------------------
"$FL" gen fat-tree --radix 16 --tiers 2 --speed HDR -o "$TMP/plan.xml" >/dev/null
for f in iblinkinfo ibnetdiscover; do
  expect_rc 1 "$FL" diff --format json "$TMP/plan.xml" "$X/unplugged/$f"
  expect_eq "$(jget "$TMP/out" "=[(f['rule'], f['ports']) for f in d['findings']]")" \
    "[('diff.missing', [{'node': 'leaf-p01-05', 'port': 16}, {'node': 'spine-p01-08', 'port': 5}])]" \
    "plan vs unplugged/$f: the one missing cable"
done
expect_rc 0 "$FL" diff --format json "$TMP/plan.xml" "$X/clean/iblinkinfo-l"
expect_eq "$(jget "$TMP/out" "=len(d['findings'])")" 0 "plan vs clean -l: nothing"

# ---- the format is named, and forced on the wrong input fails cleanly -------
expect_rc 2 "$FL" info --input-format iblinkinfo "$X/clean/ibnetdiscover"
expect_eq "$(cat "$TMP/err")" "fabriclint: $X/clean/ibnetdiscover: no iblinkinfo port line (\"... ==( 4X 53.125 Gbps Active/  LinkUp)==> ...\") found" \
  "--input-format iblinkinfo on ibnetdiscover output"
finish
