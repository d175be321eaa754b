#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/cli/diff_units.sh — one finding per missing unit and per name shift
# (issue 30, outside tester: a 3-SU plan against a 2-SU build gave 136
# diff.missing-node findings; an SU of 16 hosts built with 15, every host
# after the gap renumbered, gave 128 moves; names shifted by one among 7
# hosts, 56 moves):
#   1. a whole SU missing: one finding (cause missing-su:3), its switches,
#      hosts, NICs and cables counted; both orientations of the arguments;
#      boundary: one leaf of the SU there, no SU cause (each leaf, each host);
#      spines outside SUs: two missing are one finding, one is its own;
#      a spine layer of another layout (8 spines of 4 cables per leaf for
#      the plan's 16 of 2): one finding, its unexpected cables and missing
#      spines attached; boundary: half the planned uplinks moved is the
#      layout, one fewer are moves;
#   2. a whole host missing: one finding (missing-host); boundary: one NIC
#      of the host there, one finding per missing NIC;
#   3. the names shifted by one (a host left out, the rest renumbered),
#      compared by name (--no-guid): one diff.misconnected for the chain,
#      the name left over (missing by name) attached as its consequence;
#      by GUID: the host really missing, the chain of renames attached;
#      boundary: one host of the chain with a cable on a free port, or
#      with one NIC where its own name is planned, is its own moves and
#      the chain splits;
#   4. the same SU shift captured live (ibsim + ibnetdiscover) when the
#      tools are installed.
# Plans from `fabriclint gen`; as-builts edited from them and written as
# ibnetdiscover dumps by `fabriclint convert`.
. "$(dirname "$0")/lib.bash"

# edit IN OUT [drop=REGEX]... [shift=N] [move=HOST:NIC:LEAF:PORT]... — IN
# with the nodes whose name matches REGEX (and their cables) removed, the
# hosts after dgx-N renumbered one down, cables moved
edit() {
  python3 - "$@" <<'PY'
import re, sys
src, out, ops = sys.argv[1], sys.argv[2], sys.argv[3:]
text = open(src).read()
for op in ops:
    k, v = op.split("=", 1)
    if k == "drop":
        text = re.sub(r'  <node [^>]*name="(?:%s)"[^>]*>.*?</node>\n' % v, '', text, flags=re.S)
        text = re.sub(r'  <link [^>]*"(?:%s)"[^>]*/>\n' % v, '', text)
    elif k == "shift":
        n0 = int(v)
        text = re.sub(r'dgx-(\d{3})', lambda m: 'dgx-%03d' % (int(m.group(1)) - 1 if int(m.group(1)) > n0 else int(m.group(1))), text)
    elif k == "move":
        host, nic, leaf, port = v.split(":")
        pat = r'<link a="%s %s" a-port="1" b="[^"]+" b-port="\d+"' % (re.escape(host), re.escape(nic))
        if len(re.findall(pat, text)) != 1:
            sys.exit("edit: no single cable of %s %s" % (host, nic))
        text = re.sub(pat, '<link a="%s %s" a-port="1" b="%s" b-port="%s"' % (host, nic, leaf, port), text)
open(out, "w").write(text)
PY
}
dump() { "$FL" convert "$TMP/$1.xml" -o "$TMP/$1.ibnd" --force; }
tally() { jget "$TMP/out" "=sorted(__import__('collections').Counter((f['rule'], f['severity']) for f in d['findings']).items())"; }
causes() { jget "$TMP/out" "=sorted((f['rule'], f['evidence'].get('cause', ''), f['evidence'].get('count', 1), len(f.get('related', []))) for f in d['findings'])"; }

# ---- 1. a whole SU missing ----------------------------------------------------
"$FL" gen rail-su --sus 3 --hosts-per-su 16 --spines 16 -o "$TMP/su3.xml"
"$FL" gen rail-su --sus 2 --hosts-per-su 16 --spines 16 --format ibnetdiscover -o "$TMP/su2.ibnd"
expect_rc 1 "$FL" diff --no-guid --format json "$TMP/su3.xml" "$TMP/su2.ibnd"
expect_eq "$(causes)" "[('diff.missing-node', 'missing-su:3', 136, 0)]" "SU 3 missing: one finding of 136 nodes"
expect_eq "$(jget "$TMP/out" "=d['findings'][0]['message'].split(';')[0]")" \
  "scalable unit 3 is not in the as-built fabric: all 136 of its planned nodes are missing (8 switch(es), 16 host(s) with 128 NIC(s)), and its 384 planned cable(s) with them: build it, or take it out of the plan" \
  "SU 3 missing: switches, hosts, NICs and cables counted"
# the other way round: the capture given as DESIGN is compared as built
expect_rc 1 "$FL" diff --no-guid --format json "$TMP/su2.ibnd" "$TMP/su3.xml"
expect_eq "$(causes)" "[('diff.missing-node', 'missing-su:3', 136, 0), ('diff.reversed', '', 1, 0)]" \
  "SU 3 missing, arguments reversed: the same finding, and the warning"
# boundary: one leaf of SU 3 installed (cabled to the spines) is not the SU missing
edit "$TMP/su3.xml" "$TMP/su2leaf.xml" 'drop=leaf-su0[3]-r[1-7]' 'drop=dgx-0(?:3[3-9]|4[0-8]) [^"]*'
dump su2leaf
expect_rc 1 "$FL" diff --no-guid --format json "$TMP/su3.xml" "$TMP/su2leaf.ibnd"
expect_eq "$(jget "$TMP/out" "=(len(d['findings']), sorted({f['evidence'].get('cause', '').split(':')[0] for f in d['findings']}))")" \
  "(23, ['', 'missing-host'])" "one leaf of SU 3 there: 7 leaves and 16 hosts, no SU cause"

# spines (outside any SU): two or more missing of one tier are one finding
# (a spine layer built short); one missing spine is its own finding
"$FL" gen rail-su --sus 1 --hosts-per-su 4 --spines 4 -o "$TMP/sp4.xml"
edit "$TMP/sp4.xml" "$TMP/nosp1.xml" 'drop=spine-01'
dump nosp1
expect_rc 1 "$FL" diff --format json "$TMP/sp4.xml" "$TMP/nosp1.ibnd"
expect_eq "$(causes)" "[('diff.missing-node', '', 1, 0)]" "one spine missing: its own finding"
edit "$TMP/sp4.xml" "$TMP/nosp2.xml" 'drop=spine-0[12]'
dump nosp2
expect_rc 1 "$FL" diff --format json "$TMP/sp4.xml" "$TMP/nosp2.ibnd"
expect_eq "$(causes)" "[('diff.missing-node', 'missing-tier:2', 2, 0)]" "two spines missing: one finding"
expect_eq "$(jget "$TMP/out" "=d['findings'][0]['message'].split(';')[0]")" \
  "2 of the 4 planned tier-2 switches are not in the as-built fabric, and their 128 planned cable(s) with them: install them, or take them out of the plan" \
  "two spines missing: counted against the planned 4, with their cables"

# the 3-SU plan against a 2-SU build of gen's default spines: 8 spines of
# 4 cables per leaf where the plan has 16 of 2: the missing SU, and one
# layout finding with the unexpected uplinks and the 8 missing spines
# attached, not 254 moves, 256 unexpected cables and 8 missing spines
"$FL" gen rail-su --sus 3 --hosts-per-su 16 -o "$TMP/su3d.xml"
"$FL" gen rail-su --sus 2 --hosts-per-su 16 --format ibnetdiscover -o "$TMP/su2d.ibnd"
expect_rc 1 "$FL" diff --no-guid --format json "$TMP/su3d.xml" "$TMP/su2d.ibnd"
expect_eq "$(causes)" "[('diff.misconnected', 'layout:1-2', 254, 2), ('diff.missing-node', 'missing-su:3', 136, 0)]" \
  "3-SU plan, 2-SU build of another spine layout: two findings"
expect_eq "$(jget "$TMP/out" "=sorted((r['rule'], r['evidence']['cause'], r['evidence']['count']) for f in d['findings'] for r in f.get('related', []))")" \
  "[('diff.missing-node', 'missing-tier:2', 8), ('diff.unexpected', 'layout:1-2', 256)]" \
  "the layout's consequences: 256 unexpected uplinks, 8 of 16 spines missing"
expect_eq "$(jget "$TMP/out" "=[f['message'].split('; e.g. \"leaf-su01-r0\" port')[0] for f in d['findings'] if f['rule'] == 'diff.misconnected'][0]")" \
  "254 cables between tier-1 and tier-2 switches are not where the plan puts them: 254 of the 256 planned ones are elsewhere or missing and 510 built ones are not in the plan, so the layer is cabled to another layout than the plan's (e.g. \"leaf-su01-r0\": planned 32 cables to 16 tier-2 switches, built 32 to 8); recable it to the plan, or make the plan for this build (the cables below)" \
  "the layout: counts and one leaf's fan-out, planned and built"
# boundary: half of the 32 planned uplinks moved (4 leaves, 4 each, to
# free leaf ports) is the layout; 15 (one back in place) are 15 moves
"$FL" gen rail-su --sus 1 --hosts-per-su 4 --rails 4 --leaf-radix 16 --spines 2 -o "$TMP/sm.xml"
uplinks() { # OUT N — the first N of the leaves' uplinks on ports 9-12 moved 4 ports down
  python3 - "$TMP/sm.xml" "$TMP/$1.xml" "$2" <<'PY'
import re, sys
text, n = open(sys.argv[1]).read(), int(sys.argv[3])
def mv(m):
    global n
    if n <= 0 or int(m.group(2)) > 12:
        return m.group(0)
    n -= 1
    return '<link a="%s" a-port="%d" b="spine' % (m.group(1), int(m.group(2)) - 4)
open(sys.argv[2], "w").write(re.sub(r'<link a="(leaf-su01-r\d)" a-port="(\d+)" b="spine', mv, text))
PY
  dump "$1"
}
uplinks half 16
expect_rc 1 "$FL" diff --format json "$TMP/sm.xml" "$TMP/half.ibnd"
expect_eq "$(causes)" "[('diff.misconnected', 'layout:1-2', 16, 0)]" "16 of 32 uplinks moved: one layout finding"
uplinks less 15
expect_rc 1 "$FL" diff --format json "$TMP/sm.xml" "$TMP/less.ibnd"
expect_eq "$(causes)" "$(pyval "[('diff.misconnected', '', 1, 0)] * 15")" "15 of 32 uplinks moved: 15 moves"

# ---- 2. a whole host missing ----------------------------------------------------
"$FL" gen rail-su --sus 1 --hosts-per-su 8 -o "$TMP/p8.xml"
edit "$TMP/p8.xml" "$TMP/nohost.xml" 'drop=dgx-005 [^"]*'
dump nohost
expect_rc 1 "$FL" diff --format json "$TMP/p8.xml" "$TMP/nohost.ibnd"
expect_eq "$(causes)" "[('diff.missing-node', 'missing-host:dgx-005', 8, 0)]" "host dgx-005 missing: one finding of 8 NICs"
expect_eq "$(jget "$TMP/out" "=d['findings'][0]['message'].split(':')[0:2]")" \
  "['host \"dgx-005\" is not in the as-built fabric', ' all 8 of its planned NICs are missing, and its 8 planned cable(s) with them']" \
  "host missing: its NICs and cables counted"
# boundary: one NIC of the host there: the host is there, 7 NICs missing
edit "$TMP/p8.xml" "$TMP/seven.xml" 'drop=dgx-005 mlx5_(?:[03-6]|9|10)'
dump seven
expect_rc 1 "$FL" diff --format json "$TMP/p8.xml" "$TMP/seven.ibnd"
expect_eq "$(causes)" "$(pyval "sorted([('diff.missing-node', '', 1, 0)] * 7)")" \
  "7 of 8 NICs missing: 7 findings, no host cause"

# ---- 3. names shifted by one ----------------------------------------------------
# 8 hosts, dgx-001 left out, dgx-002..008 named dgx-001..007: 56 moves by name
edit "$TMP/p8.xml" "$TMP/shift8.xml" 'drop=dgx-001 [^"]*' shift=1
dump shift8
expect_rc 1 "$FL" diff --no-guid --format json "$TMP/p8.xml" "$TMP/shift8.ibnd"
expect_eq "$(causes)" "[('diff.misconnected', 'name-shift:dgx-001', 56, 1)]" \
  "7 hosts shifted by one: one finding of 56 cables, the name left over attached"
expect_eq "$(jget "$TMP/out" "=d['findings'][0]['message'].split('; e.g.')[0]")" \
  "7 hosts are where the plan puts other hosts, each named 1 below the plan (\"dgx-001\" where the plan has \"dgx-002\", \"dgx-002\" where the plan has \"dgx-003\", \"dgx-003\" where the plan has \"dgx-004\", \"dgx-004\" where the plan has \"dgx-005\" and 3 more); none of them is where the plan has \"dgx-001\", and \"dgx-007\" is where the plan has \"dgx-008\": the names are shifted against the plan (a host left out, or numbered from another start); rename them or fix the plan; else move the 56 cable ends (the moves below)" \
  "name shift: the pairs, the offset, the empty place and the name left over"
expect_eq "$(jget "$TMP/out" "=[(r['rule'], r['evidence']['cause'], r['evidence']['count']) for r in d['findings'][0]['related']]")" \
  "[('diff.missing-node', 'missing-host:dgx-008', 8)]" "name shift: dgx-008, missing by name, is its consequence"
# the SU shift of the outside tester: 2 SUs of 16, SU 1 built with 15
"$FL" gen rail-su --sus 2 --hosts-per-su 16 -o "$TMP/p16.xml"
edit "$TMP/p16.xml" "$TMP/su15.xml" 'drop=dgx-016 [^"]*' shift=16
dump su15
expect_rc 1 "$FL" diff --no-guid --format json "$TMP/p16.xml" "$TMP/su15.ibnd"
expect_eq "$(causes)" "[('diff.misconnected', 'name-shift:dgx-016', 128, 1)]" "SU shift by name: one finding of 128 cables"
expect_rc 1 "$FL" diff --no-guid --format csv "$TMP/p16.xml" "$TMP/su15.ibnd"
expect_eq "$(grep -c ',move,diff.misconnected,.*names shifted.: rename the hosts, or move this end' "$TMP/out")" 128 \
  "SU shift by name: each work-order move says the names may be what is wrong"
# by GUID (the dump keeps each host's GUIDs): the host left out is the
# cause, the 16 renamed hosts its one consequence
expect_rc 1 "$FL" diff --format json "$TMP/p16.xml" "$TMP/su15.ibnd"
expect_eq "$(causes)" "[('diff.missing-node', 'missing-host:dgx-016', 8, 1)]" "SU shift by GUID: dgx-016 missing, one finding"
expect_eq "$(jget "$TMP/out" "=[(r['rule'], r['evidence']['cause'], r['evidence']['count']) for r in d['findings'][0]['related']]")" \
  "[('diff.different', 'name-shift:dgx-016', 128)]" "SU shift by GUID: the 128 renames attached as one"
# the arguments reversed: the same verdicts
expect_rc 1 "$FL" diff --no-guid --format json "$TMP/su15.ibnd" "$TMP/p16.xml"
expect_eq "$(causes)" "[('diff.misconnected', 'name-shift:dgx-016', 128, 1), ('diff.reversed', '', 1, 0)]" \
  "SU shift by name, arguments reversed: the same finding"
# boundary: dgx-004 (planned dgx-005) has one cable on a free port: it is
# not in dgx-005's place; its 8 cables are moves, the chain splits in two
edit "$TMP/shift8.xml" "$TMP/shiftfree.xml" move=dgx-004:mlx5_0:leaf-su01-r0:20
dump shiftfree
expect_rc 1 "$FL" diff --no-guid --format json "$TMP/p8.xml" "$TMP/shiftfree.ibnd"
expect_eq "$(causes)" "$(pyval "sorted([('diff.misconnected', '', 1, 0)] * 8 + [('diff.misconnected', 'name-shift:dgx-001', 24, 0), ('diff.misconnected', 'name-shift:dgx-005', 24, 1)])")" \
  "one shifted host with a cable on a free port: its 8 moves, two chains of 3 hosts"

# boundary: the first shifted host (dgx-005 as built, where the plan has
# dgx-006) has one NIC still where the plan puts dgx-005: it is not in
# dgx-006's place; its 7 other cables are moves, the chain is dgx-006..007
edit "$TMP/p8.xml" "$TMP/shiftone.xml" 'drop=dgx-005 [^"]*' shift=5 move=dgx-005:mlx5_0:leaf-su01-r0:5
dump shiftone
expect_rc 1 "$FL" diff --no-guid --format json "$TMP/p8.xml" "$TMP/shiftone.ibnd"
expect_eq "$(causes)" "$(pyval "sorted([('diff.misconnected', '', 1, 0)] * 7 + [('diff.misconnected', 'name-shift:dgx-006', 16, 1)])")" \
  "a shifted host with one NIC where its own name is planned: its 7 moves, a chain of 2 hosts"

# past the boundary of a chain: one host renamed by GUID (a typo, not
# another planned name) is its own rename, not a shift
sed 's/"dgx-003 /"dgx-103 /g' "$TMP/p8.xml" >"$TMP/typo.xml"
dump typo
expect_rc 0 "$FL" diff --format json "$TMP/p8.xml" "$TMP/typo.ibnd"
expect_eq "$(causes)" "[('diff.different', 'description:dgx-003\x1fdgx-103', 8, 0)]" "one host renamed: one rename, no shift"

# ---- 4. the SU shift captured live ------------------------------------------------
if command -v ibsim >/dev/null && command -v ibsim-run >/dev/null && command -v ibnetdiscover >/dev/null; then
  . "$(dirname "$0")/../ibsim_lib.bash"
  ibsim_name=diff_units
  ibsim_init units "$TMP"
  expect_rc 0 "$FL" convert "$TMP/su15.xml" -o "$TMP/su15.net" --format ibsim
  if ibsim_start "$TMP/su15.net" "$TMP/ibsim.log"; then
    SIM_HOST="dgx-001 mlx5_0" timeout 120 ibsim-run ibnetdiscover >"$TMP/live.ibnd" 2>"$TMP/ibnd.err" ||
      fail "ibnetdiscover failed: $(head -3 "$TMP/ibnd.err")"
    ibsim_stop
    # ibsim keeps each host's GUIDs (the net file's) and runs every link at
    # SDR: the fabric-wide speed is one note, the shift one finding
    expect_rc 1 "$FL" diff --format json "$TMP/p16.xml" "$TMP/live.ibnd"
    expect_eq "$(causes)" "[('diff.different', '', 1, 0), ('diff.missing-node', 'missing-host:dgx-016', 8, 1)]" \
      "SU shift captured live, by GUID: dgx-016 missing, the renames attached"
    expect_rc 1 "$FL" diff --no-guid --format json "$TMP/p16.xml" "$TMP/live.ibnd"
    expect_eq "$(causes)" "[('diff.different', '', 1, 0), ('diff.misconnected', 'name-shift:dgx-016', 128, 1)]" \
      "SU shift captured live, by name: one finding of 128 cables"
  else
    fail "ibsim did not start"
  fi
else
  echo "diff_units: ibsim tools not installed: the live capture is skipped"
fi
finish
