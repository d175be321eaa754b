#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/cli/diff_planes.sh — `fabriclint diff` on a 2-plane fabric whose
# planes name their switches alike (leaf-p01-01 .. spine-p01-04 in plane 1
# and in plane 2, GUIDs of their own), captured plane by plane with ibsim,
# OpenSM and ibnetdiscover (tests/fixtures/diff-planes/make.sh; the live
# test diff_planes_live.sh makes them again). Nodes are matched within a
# plane when both sides have planes; each fault is exactly one finding:
#   plan (one design XML per plane, no GUIDs) vs the captures:
#     as planned: nothing (before: 24 missing + 24 unexpected nodes)
#     one cable moved in plane 2: one diff.misconnected, plane 2
#     plane 1's NIC of node0001 in plane 2: one diff.misconnected naming
#       both planes, each switch end with its plane
#     spine-p01-04 gone from plane 2: one diff.missing-node, plane 2 (not 1)
#   captures vs captures (GUIDs):
#     a leaf of plane 2 replaced: one GUID diff.different (before: missing
#       + unexpected node)
#     spine-p01-04 gone from plane 2: one finding (before: also a false
#       "describes itself as" warning in plane 1)
#     the planes' leaf-p01-08 units swapped: one finding per unit naming
#       both planes (before: 6 diff.swapped across planes); --no-guid: none
#   plane names paired by name, else by order; keys (fingerprints) and the
#   work order carry the plane.
. "$(dirname "$0")/lib.bash"
set -o pipefail
FL_SRC=${FL_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
FL=${FL:-$FL_SRC/build/fabriclint}
X=$FL_SRC/tests/fixtures/diff-planes

dj() { "$FL" diff --format json "$@" >"$TMP/j.json" 2>"$TMP/err"; echo $? >"$TMP/rc"; }
q() { jget "$TMP/j.json" "=$1"; }
found() { q "[(f['rule'], f.get('plane'), f['nodes']) for f in d['findings']]"; }
DX=(--design-plane 1:"$X/design/plane1.xml" --design-plane 2:"$X/design/plane2.xml")
DC=(--design "$X/plane1.ibnetdiscover" --design "$X/plane2.ibnetdiscover")

# ---- the plan (per plane, names repeat, no GUIDs) vs the captures ----------
dj "${DX[@]}" --as-built "$X/plane1.ibnetdiscover" --as-built "$X/plane2.ibnetdiscover"
expect_eq "$(cat "$TMP/rc") $(found)" "0 []" "plan vs captures as planned: no finding"

dj "${DX[@]}" --as-built "$X/plane1.ibnetdiscover" --as-built "$X/moved/plane2.ibnetdiscover"
expect_eq "$(cat "$TMP/rc") $(found)" \
  "1 [('diff.misconnected', '2', ['node0005 mlx5_1', 'leaf-p01-02', 'leaf-p01-08'])]" \
  "plan vs cable moved in plane 2"
expect_eq "$(q "d['findings'][0]['message']")" \
  'cable from "node0005 mlx5_1" port 1 lands on "leaf-p01-08" port 3; the plan puts it on "leaf-p01-02" port 1: move that end from "leaf-p01-08" port 3 to "leaf-p01-02" port 1' \
  "moved in plane 2: the message (one plane: no plane per end)"

dj "${DX[@]}" --as-built "$X/wrong-nic/plane1.ibnetdiscover" --as-built "$X/wrong-nic/plane2.ibnetdiscover"
expect_eq "$(cat "$TMP/rc") $(found)" \
  "1 [('diff.misconnected', '1,2', ['node0001 mlx5_0', 'leaf-p01-01', 'leaf-p01-08'])]" \
  "plan vs NIC in the other plane: one finding, both planes"
expect_eq "$(q "d['findings'][0]['message']")" \
  'cable from "node0001 mlx5_0" port 1 lands on "leaf-p01-08" port 3 of plane 2; the plan puts it on "leaf-p01-01" port 1 of plane 1: move that end from "leaf-p01-08" port 3 of plane 2 to "leaf-p01-01" port 1 of plane 1' \
  "NIC in the other plane: each switch end names its plane"
# the work order says the planes too (node names alone are ambiguous)
expect_rc 1 "$FL" diff --format csv "${DX[@]}" --as-built "$X/wrong-nic/plane1.ibnetdiscover" \
  --as-built "$X/wrong-nic/plane2.ibnetdiscover"
expect_eq "$(sed -n 2p "$TMP/out" | cut -d, -f2-12)" \
  "move,diff.misconnected,node0001 mlx5_0,1,,leaf-p01-01,1,,leaf-p01-08,3," "csv: the move row"
expect_grep "$TMP/out" '^1,.*,"planes 1,2: move the cable end to the planned port",'

dj "${DX[@]}" --as-built "$X/plane1.ibnetdiscover" --as-built "$X/no-spine/plane2.ibnetdiscover"
expect_eq "$(cat "$TMP/rc") $(found)" "1 [('diff.missing-node', '2', ['spine-p01-04'])]" \
  "plan vs spine missing in plane 2: one finding, plane 2"
expect_eq "$(q "(d['findings'][0]['location']['file'].split('/')[-1], d['findings'][0]['location']['line'], d['findings'][0]['evidence']['reason'])")" \
  "('plane2.xml', 14, 'no as-built node of plane 2 is named \"spine-p01-04\" (compared after normalising case, domain and blanks)')" \
  "missing spine: plane 2's plan line, the reason in its plane"
# the key (fingerprint) has the plane in front: two planes' findings about
# nodes of the same name stay apart in baselines; after it the rule and
# what the finding is about (here the node), not its wording
fp=$(python3 -c '
import json, sys
d = json.load(open(sys.argv[1])); f = d["findings"][0]
h = 0xcbf29ce484222325
for ch in (f["rule"] + "\n" + f["plane"] + "|" + f["rule"] + "|" + "spine-p01-04").encode():
    h = ((h ^ ch) * 0x100000001b3) & 0xffffffffffffffff
print("%016x" % h == f["fingerprint"])' "$TMP/j.json")
expect_eq "$fp" "True" "fingerprint of plane|rule|node"

# ---- plane names: paired by name, else by order ---------------------------
dj --design-plane A:"$X/design/plane1.xml" --design-plane B:"$X/design/plane2.xml" \
  --as-built "$X/wrong-nic/plane1.ibnetdiscover" --as-built "$X/wrong-nic/plane2.ibnetdiscover"
expect_eq "$(cat "$TMP/rc") $(found)" \
  "1 [('diff.misconnected', 'A,B', ['node0001 mlx5_0', 'leaf-p01-01', 'leaf-p01-08'])]" \
  "design A,B vs detected 1,2: paired by order, named as the design names them"
# a 3-plane site: the plan has planes 1-2, the capture planes 2-3 (plane 1's
# capture tagged 3): plane 2 pairs by name; plane 1's switches are missing,
# plane 3's unexpected, no cable is reported one by one
dj "${DX[@]}" --as-built-plane 2:"$X/plane2.ibnetdiscover" --as-built-plane 3:"$X/plane1.ibnetdiscover"
expect_eq "$(cat "$TMP/rc") $(q "sorted(set((f['rule'], f.get('plane'), len([g for g in d['findings'] if g['rule'] == f['rule']])) for f in d['findings']))")" \
  "1 [('diff.missing-node', '1', 12), ('diff.unexpected-node', '3', 12)]" "planes 1-2 vs 2-3: paired by name"
expect_eq "$(q "d['findings'][0]['evidence']['reason']")" \
  "the as-built fabric has no plane 1 (planes are paired by name: a plane name is on both sides)" \
  "unpaired plane: the reason"

# ---- captures vs captures (GUIDs; names told apart by GUID in each) --------
dj "${DC[@]}" --as-built "$X/plane1.ibnetdiscover" --as-built "$X/replaced/plane2.ibnetdiscover"
expect_eq "$(cat "$TMP/rc") $(q "[(f['rule'], f['severity'], f.get('plane'), f['evidence']['attribute']) for f in d['findings']]")" \
  "0 [('diff.different', 'warning', '2', 'guid')]" "replaced leaf in plane 2: one GUID finding"
expect_grep <(q "d['findings'][0]['message']") \
  '^"leaf-p01-03 \(0x0002c80301000003\)" has GUID 0x0002c803010000ff, planned 0x0002c80301000003'

dj "${DC[@]}" --as-built "$X/plane1.ibnetdiscover" --as-built "$X/no-spine/plane2.ibnetdiscover"
expect_eq "$(cat "$TMP/rc") $(found)" \
  "1 [('diff.missing-node', '2', ['spine-p01-04 (0x0002c8030100000c)'])]" \
  "captures: spine missing in plane 2, nothing in plane 1"

dj "${DC[@]}" --as-built "$X/plane1.ibnetdiscover" --as-built "$X/moved/plane2.ibnetdiscover"
expect_eq "$(cat "$TMP/rc") $(q "[(f['rule'], f.get('plane')) for f in d['findings']]")" \
  "1 [('diff.misconnected', '2')]" "captures: cable moved in plane 2"

dj "${DC[@]}" --as-built "$X/units/plane1.ibnetdiscover" --as-built "$X/units/plane2.ibnetdiscover"
expect_eq "$(cat "$TMP/rc") $(q "[(f['rule'], f.get('plane'), f['evidence']['planned_plane'], f['evidence']['built_plane'], f['evidence']['planned_cables'], f['evidence']['cables']) for f in d['findings']]")" \
  "1 [('diff.missing-node', '1,2', '1', '2', 6, 6), ('diff.missing-node', '1,2', '2', '1', 6, 6)]" \
  "leaf units swapped between planes: one finding per unit"
expect_grep <(q "d['findings'][0]['message']") \
  '^planned switch "leaf-p01-08 \(0x0002c90301000008\)" of plane 1 is in plane 2 as built \("leaf-p01-08 \(0x0002c90301000008\)", cabled to that plane.s switches\): move it to plane 1 and cable it as planned \(its 6 planned and 6 built cable\(s\) are not reported one by one\)$'
dj --no-guid "${DC[@]}" --as-built "$X/units/plane1.ibnetdiscover" --as-built "$X/units/plane2.ibnetdiscover"
expect_eq "$(cat "$TMP/rc") $(found)" "0 []" "units swapped, --no-guid: names per plane agree"

# ---- one plane's plan vs every plane's capture (the other planes left out) -
# before: a plan of plane 1 against both captures gave 12 missing + 54
# unexpected nodes (plane 2 whole, and plane 1's switches under their
# GUID-suffixed names)
AB=(--as-built "$X/plane1.ibnetdiscover" --as-built "$X/plane2.ibnetdiscover")
dj --design-plane 1:"$X/design/plane1.xml" "${AB[@]}"
expect_eq "$(cat "$TMP/rc") $(found)" "0 []" "plan of plane 1 vs both captures: nothing"
expect_eq "$(cat "$TMP/err")" \
  "fabriclint: note: the design is plane 1 alone; comparing plane 1 of the as-built, its other plane(s) 2 left out" \
  "plan of plane 1: the note names the plane left out"
dj --design-plane 2:"$X/design/plane2.xml" --as-built "$X/plane1.ibnetdiscover" \
  --as-built "$X/moved/plane2.ibnetdiscover"
expect_eq "$(cat "$TMP/rc") $(found)" \
  "1 [('diff.misconnected', None, ['node0005 mlx5_1', 'leaf-p01-02', 'leaf-p01-08'])]" \
  "plan of plane 2 vs both captures, cable moved in plane 2"
dj --design-plane 2:"$X/design/plane2.xml" --as-built "$X/plane1.ibnetdiscover" \
  --as-built "$X/no-spine/plane2.ibnetdiscover"
expect_eq "$(cat "$TMP/rc") $(found)" \
  "1 [('diff.missing-node', None, ['spine-p01-04'])]" \
  "plan of plane 2 vs both captures, spine gone: its plain name"
expect_eq "$(q "d['findings'][0]['evidence']['reason']")" \
  'no as-built node is named "spine-p01-04" (compared after normalising case, domain and blanks)' \
  "plan of plane 2, spine gone: plane 1's spine-p01-04 is another switch"
# the NIC of plane 1 cabled into plane 2, seen from each plane's plan
WN=(--as-built "$X/wrong-nic/plane1.ibnetdiscover" --as-built "$X/wrong-nic/plane2.ibnetdiscover")
dj --design-plane 1:"$X/design/plane1.xml" "${WN[@]}"
expect_eq "$(cat "$TMP/rc") $(found)" \
  "1 [('diff.missing-node', None, ['node0001 mlx5_0'])]" "plan of plane 1, NIC in plane 2"
expect_eq "$(q "d['findings'][0]['message']")" \
  'planned ca "node0001 mlx5_0" is not in plane 1: it is in plane 2 as built, which this comparison leaves out (the design is plane 1 alone) (its 1 planned cable(s) are not reported one by one)' \
  "plan of plane 1, NIC in plane 2: the reason names plane 2"
dj --design-plane 2:"$X/design/plane2.xml" "${WN[@]}"
expect_eq "$(cat "$TMP/rc") $(found)" \
  "1 [('diff.unexpected-node', None, ['node0001 mlx5_0'])]" "plan of plane 2, NIC of plane 1 in it"
expect_eq "$(q "d['findings'][0]['message']")" \
  'ca "node0001 mlx5_0" GUID 0x0002c90302000002 is not in the design of plane 2: it belongs in plane 1 (its host'"'"'s NIC for that plane) and is cabled into plane 2; move its cable to plane 1 (its 1 cable(s) are not reported one by one)' \
  "plan of plane 2, NIC of plane 1: says where it belongs"
# the reverse: every plane planned (the captures as the plan), one captured
dj "${DC[@]}" --as-built-plane 1:"$X/wrong-nic/plane1.ibnetdiscover"
expect_eq "$(cat "$TMP/rc") $(found)" \
  "1 [('diff.missing-node', None, ['node0001 mlx5_0'])]" \
  "both planes planned, plane 1 captured alone: plane 2 left out"
expect_eq "$(cat "$TMP/err")" \
  "fabriclint: note: the as-built is plane 1 alone; comparing plane 1 of the design, its other plane(s) 2 left out" \
  "plane 1 captured alone: the note"
# no plane of that name on the other side: a usage error naming both
dj --design-plane A:"$X/design/plane1.xml" "${AB[@]}"
expect_eq "$(cat "$TMP/rc")" "2" "plan of plane A, capture has 1 and 2: exit 2"
expect_eq "$(cat "$TMP/err")" \
  "fabriclint: the design is plane A alone, and the as-built has planes 1, 2 but none named A: name the design's plane as the as-built does (--design-plane NAME:FILE) to compare that plane" \
  "plan of plane A: the error names the as-built planes"
# ---- the same file named twice on one side ---------------------------------
# plane 1's capture given for plane 2 as well: loaded twice, it passed for
# both planes (exit 0, no finding: plane 2 was never checked); now refused
expect_rc 2 "$FL" diff "${DX[@]}" --as-built-plane 1:"$X/plane1.ibnetdiscover" \
  --as-built-plane 2:"$X/plane1.ibnetdiscover"
expect_grep "$TMP/err" "^fabriclint: $X/plane1.ibnetdiscover: the same file as as-built input 1 \(\S+/plane1.ibnetdiscover\): each file is loaded once .*; name each as-built input once$"
expect_eq "$(wc -l <"$TMP/out")" "0" "same capture for two planes: no report"
expect_rc 2 "$FL" diff --design-plane 1:"$X/design/plane1.xml" --design-plane 2:"$X/design/../design/plane1.xml" \
  --as-built "$X/plane1.ibnetdiscover" --as-built "$X/plane2.ibnetdiscover"
expect_grep "$TMP/err" "^fabriclint: $X/design/../design/plane1.xml: the same file as design input 1 "
# the same file on both sides is a self-diff, as before
expect_rc 0 "$FL" diff "$X/plane1.ibnetdiscover" "$X/plane1.ibnetdiscover"
expect_grep "$TMP/out" "^0 error\(s\), 0 warning\(s\), 0 info"
# a comma in a plane name would read as two planes in "plane": "A,B"
expect_rc 2 "$FL" diff "${DX[@]}" --as-built-plane "1,2:$X/plane1.ibnetdiscover" --as-built-plane 3:"$X/plane2.ibnetdiscover"
expect_grep "$TMP/err" "^fabriclint: --as-built-plane: plane name '1,2' holds a comma \(byte 2\): expected a name without commas"

# ---- every plane's plan against one plane's capture, and the reverse -------
# The side without planes is one plane, paired with the plane its tag names,
# else the first. Before: all 24 planned switches "missing" (their names
# repeat across the plan's planes, so none matched), the 12 captured ones
# "unexpected" ("no planned node has this name"), plane 2's switches
# reported in plane 1: 66 findings for one plane not captured.
tally() { q "sorted(__import__('collections').Counter((f['rule'], f.get('plane'), f['evidence'].get('kind')) for f in d['findings']).items())"; }
dj "${DX[@]}" "$X/plane1.ibnetdiscover"
expect_eq "$(cat "$TMP/rc") $(tally)" \
  "1 [(('diff.missing-node', '2', 'ca'), 30), (('diff.missing-node', '2', 'switch'), 12)]" \
  "plan of planes 1,2 vs plane 1's capture: plane 2 missing, nothing else"
expect_eq "$(q "[f['message'] for f in d['findings'] if f['nodes'] == ['leaf-p01-01']]")" \
  "['planned switch \"leaf-p01-01\" is not in the as-built fabric: the as-built fabric has no plane 2 (planes are paired by name: a plane name is on both sides) (its 8 planned cable(s) are not reported one by one)']" \
  "the missing plane's switch: why"
dj "$X/design/plane1.xml" --as-built-plane 1:"$X/plane1.ibnetdiscover" --as-built-plane 2:"$X/plane2.ibnetdiscover"
expect_eq "$(cat "$TMP/rc") $(tally)" \
  "1 [(('diff.unexpected-node', '2', 'ca'), 30), (('diff.unexpected-node', '2', 'switch'), 12)]" \
  "plan of plane 1 vs captures of planes 1,2: plane 2 unexpected, nothing else"
# one capture tagged with its plane: that plane compared, its fault found
dj "${DX[@]}" --as-built-plane 2:"$X/moved/plane2.ibnetdiscover"
# (tagged: that plane of the plan alone is compared, see above)
expect_eq "$(cat "$TMP/rc") $(tally)" \
  "1 [(('diff.misconnected', None, None), 1)]" \
  "plan of planes 1,2 vs plane 2's capture (tagged, a cable moved): the move, plane 1 left out"
expect_eq "$(cat "$TMP/err")" \
  "fabriclint: note: the as-built is plane 2 alone; comparing plane 2 of the design, its other plane(s) 1 left out" \
  "plane 2 captured alone, tagged: the note"

# a plan of every plane with no plane tags and no LIDs (so no planes), its
# switch names unique across planes (pl1-..., pl2-...), against the
# 2-plane capture: matched by name without planes, nothing to report (not
# each plane-2 switch "of plane 1 is in plane 2 as built")
"$FL" gen fat-tree --radix 8 --tiers 2 --planes 2 --no-lids -o "$TMP/g.xml"
sed 's/ plane="[^"]*"//g' "$TMP/g.xml" >"$TMP/gu.xml"
"$FL" gen fat-tree --radix 8 --tiers 2 --planes 2 --format ibnetdiscover -o "$TMP/g.ibnd"
expect_eq "$(grep -c ' plane=' "$TMP/gu.xml")" "0" "untagged plan: no plane attribute left"
dj "$TMP/gu.xml" --as-built "$TMP/g.ibnd"
expect_eq "$(cat "$TMP/rc") $(found)" "0 []" "untagged plan of both planes (unique names) vs the 2-plane capture"

finish
