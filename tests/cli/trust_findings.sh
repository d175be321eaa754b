# SPDX-License-Identifier: MIT
# Verdicts a user can trust (issue 12): one finding per cause, a tally per
# rule, --max-findings-per-rule, findings ordered by severity, side effects
# not blamed on the innocent, fixes that agree with the plan, and finding
# identity when switches keep their factory NodeDescription. The plan cases
# are copies of cases/plans (tests/data/cases/PROVENANCE.md); the identity
# dump is what ibsim + ibnetdiscover give for tests/data/identity/dup-desc.net.
. "$(dirname "$0")/lib.bash"
D="$FL_SRC/tests/data/cases/plans"
ID="$FL_SRC/tests/data/identity/dup-desc.ibnetdiscover"
finds() { jget "$TMP/out" "=[(f['rule'], f['severity']) for f in d['findings']]"; }
one() { jget "$TMP/out" "=[f for f in d['findings'] if f['rule'] == '$1'][0]$2"; }
# the work order's rows without the fix columns (fix, fingerprint: checked
# apart), the layout columns (a_u, b_u, cable_b, media, length, part,
# from_u, media_b, length_b, part_b: empty in these plans, which have none;
# tests/cli/diff_work_order.sh) and from_rack (checked apart)
csv_rows() { python3 -c "import csv,sys; rows = list(csv.DictReader(open(sys.argv[1]))); lay = ('a_u', 'b_u', 'cable_b', 'media', 'length', 'part', 'from_u', 'media_b', 'length_b', 'part_b'); assert all(r[k] == '' for r in rows for k in lay), 'a layout column'; print([{k: v for k, v in r.items() if k not in ('fix', 'fingerprint', 'from_rack') + lay} for r in rows])" "$1"; }
csv_fix() { python3 -c "import csv,sys; print([(r['action'], r['fix'], len(r['fingerprint'])) for r in csv.DictReader(open(sys.argv[1]))])" "$1"; }

# ---- one finding per cause: 32 ports with the permissive LID --------------
"$FL" gen fat-tree --radix 8 --tiers 2 -o "$TMP/ft.xml"
sed -E '/kind="ca"/,/<\/node>/ s/lid="[0-9]+"/lid="65535"/' "$TMP/ft.xml" >"$TMP/lid.xml"
expect_rc 1 "$FL" check --rules topology.lid --format json "$TMP/lid.xml"
expect_eq "$(finds)" "[('topology.lid', 'error')]" "permissive LIDs: one finding"
expect_eq "$(one topology.lid "['evidence']['count']") $(one topology.lid "['evidence']['cause']")" "32 lid-permissive" "permissive LIDs: count and cause"
expect_eq "$(jget "$TMP/out" "=len(d['findings'][0]['evidence']['members'])") $(jget "$TMP/out" "=len(d['findings'][0]['ports'])")" "32 32" "permissive LIDs: every member and port in JSON"
expect_eq "$(one topology.lid "['evidence']['members'][31]['ports']")" "[{'node': 'node0032 mlx5_0', 'port': 1}]" "permissive LIDs: last member"
# the examples: the first FL_CAUSE_EXAMPLES (3) members' messages, not 4
expect_eq "$(jget "$TMP/out" "=[(len(x), [e.split(' port ')[0] for e in x]) for x in [d['findings'][0]['evidence']['examples']]][0]")" \
  "(3, ['\"node0001 mlx5_0\"', '\"node0002 mlx5_0\"', '\"node0003 mlx5_0\"'])" "permissive LIDs: 3 examples"
expect_eq "$(one topology.lid "['message']")" \
  '32 ports have LID 0xFFFF (the permissive LID): never configured by a subnet manager; e.g. "node0001 mlx5_0" port 1, "node0002 mlx5_0" port 1, "node0003 mlx5_0" port 1 and 29 more' \
  "permissive LIDs: message"
FP32=$(one topology.lid "['fingerprint']")
expect_rc 1 "$FL" check --rules topology.lid "$TMP/lid.xml"
expect_eq "$(grep -c 'topology.lid' "$TMP/out")" "2" "text: one finding line and one tally line"
expect_grep "$TMP/out" '^    ports: "node0001 mlx5_0" port 1, .*"node0008 mlx5_0" port 1 and 24 more$'
expect_grep "$TMP/out" '^  error   topology\.lid +1 \(32 instances\)$'
# the identity of a cause does not change with its count
sed '0,/lid="65535"/s//lid="77"/' "$TMP/lid.xml" >"$TMP/lid31.xml"
expect_rc 1 "$FL" check --rules topology.lid --format json "$TMP/lid31.xml"
expect_eq "$(one topology.lid "['evidence']['count']") $(one topology.lid "['fingerprint']")" "31 $FP32" "31 LIDs: same fingerprint"
# a baseline of the merged finding accepts the cause at any count
expect_rc 0 "$FL" check --rules topology.lid --exit-zero --write-baseline "$TMP/base.json" "$TMP/lid.xml"
expect_rc 0 "$FL" check --rules topology.lid --baseline "$TMP/base.json" "$TMP/lid31.xml"
expect_grep "$TMP/out" '^0 error\(s\), 0 warning\(s\), 0 info; 1 rule\(s\) run; 31 in the baseline'
# a waiver of one port judges that member; the other 30 stay one finding
cat >"$TMP/waive.yaml" <<'EOF'
version: 1
waivers:
  - rule: topology.lid
    nodes: ["node0002 mlx5_0"]
    reason: "HCA out for RMA"
    expires: 2099-12-31
EOF
expect_rc 1 "$FL" check --rules topology.lid --policy "$TMP/waive.yaml" --format json "$TMP/lid31.xml"
expect_eq "$(jget "$TMP/out" "=sorted((f['evidence'].get('count', 1), 'suppressed' in f) for f in d['findings'] if f['rule'] == 'topology.lid')")" \
  "[(1, True), (30, False)]" "waiver: one member set aside, 30 merged"
# one instance is not merged: the rule's own message
python3 - "$TMP/ft.xml" "$TMP/lid1.xml" <<'EOF'
import re, sys
t = open(sys.argv[1]).read()
i = t.index('kind="ca"')  # the first CA's port LID becomes 0xFFFF
t = t[:i] + re.sub(r'lid="\d+"', 'lid="65535"', t[i:], count=1)
i = t.index('kind="ca"', i + 1)  # the second CA's a multicast LID
t = t[:i] + re.sub(r'lid="\d+"', 'lid="49152"', t[i:], count=1)
open(sys.argv[2], "w").write(t)
EOF
expect_rc 1 "$FL" check --rules topology.lid --format json "$TMP/lid1.xml"
expect_eq "$(jget "$TMP/out" "=[f['message'] for f in d['findings']]")" \
  "['\"node0001 mlx5_0\" port 1 has LID 65535 (0xffff): 0xFFFF is the permissive LID: the port was never configured by a subnet manager', '\"node0002 mlx5_0\" port 1 has LID 49152 (0xc000): LIDs 0xC000-0xFFFE are multicast (IBA 4.1.3), not a port address']" \
  "one instance of each cause: not merged"

# ---- severity order, tally, --max-findings-per-rule -------------------------
expect_rc 1 "$FL" check "$ID"
expect_eq "$(grep -oE '^[^ ]+: (error|warning|info): ' "$TMP/out" | awk '{print $2}' | tr -d : | uniq | tr '\n' ' ')" "error warning " "errors come first"
expect_eq "$(sed -n '/^findings per rule:$/,$p' "$TMP/out")" "findings per rule:
  error   failure-domains.single-point         3
  warning ecmp-balance.oversubscription        1 (2 instances)
  warning topology.self-loop                   2
3 error(s), 3 warning(s), 0 info; 61 rule(s) run" "tally"
expect_rc 1 "$FL" check --max-findings-per-rule 1 "$ID"
expect_eq "$(grep -c ' \[topology.self-loop\]$' "$TMP/out") $(grep -c ' \[failure-domains.single-point\]$' "$TMP/out")" "1 1" "cap: one of each rule shown"
expect_grep "$TMP/out" '^  error   failure-domains\.single-point +3 \(2 not shown: --max-findings-per-rule\)$'
expect_grep "$TMP/out" '^3 error\(s\), 3 warning\(s\), 0 info; 61 rule\(s\) run$'
expect_rc 1 "$FL" check --max-findings-per-rule 0 "$ID"
expect_eq "$(grep -c ' \[failure-domains.single-point\]$' "$TMP/out")" "3" "cap 0: all shown"
expect_rc 1 "$FL" check --max-findings-per-rule 1 --format json "$ID"
expect_eq "$(jget "$TMP/out" "=len(d['findings'])")" "6" "cap: JSON keeps every finding"
for bad in -1 x 1e3 1000001 ""; do
  expect_rc 2 "$FL" check --max-findings-per-rule "$bad" "$ID"
  expect_grep "$TMP/err" "^fabriclint: --max-findings-per-rule: expected a count from 0 \(no cap\) to 1000000, got '$bad'$"
done
expect_rc 2 "$FL" info --max-findings-per-rule 3 "$ID"
expect_grep "$TMP/err" '^fabriclint: --max-findings-per-rule does not apply to info \(it is an option of check and diff\)$'

# ---- identity: two switches with the factory NodeDescription ---------------
expect_rc 1 "$FL" check --format json "$ID"
expect_eq "$(jget "$TMP/out" "=sorted(f['nodes'][0] for f in d['findings'] if f['rule'] == 'topology.self-loop')")" \
  "['Quantum Mellanox Technologies (0x0002c90301000001)', 'Quantum Mellanox Technologies (0x0002c90301000002)']" "identity: names carry the GUID"
expect_eq "$(jget "$TMP/out" "=len(set(f['fingerprint'] for f in d['findings'] if f['rule'] == 'topology.self-loop'))")" "2" "identity: self-loop fingerprints differ"
expect_eq "$(jget "$TMP/out" "=len(set(f['fingerprint'] for f in d['findings']))")" "6" "identity: no two findings share a fingerprint"
expect_eq "$(jget "$TMP/out" "=[f['message'] for f in d['findings'] if f['rule'] == 'topology.self-loop' and f['nodes'][0].endswith('01)')][0]")" \
  'cable loops back into the same switch: "Quantum Mellanox Technologies (0x0002c90301000001)" port 7 <-> port 8' "identity: the message says which switch"
expect_eq "$(one ecmp-balance.oversubscription "['nodes']")" \
  "['Quantum Mellanox Technologies (0x0002c90301000002)', 'Quantum Mellanox Technologies (0x0002c90301000001)']" "identity: a merged finding keeps both switches"
# names that are unique are left alone; the description keeps the shared text
expect_eq "$(jget "$TMP/out" "=sorted(set(n for f in d['findings'] for n in f['nodes'] if not n.startswith('Quantum')))")" \
  "['host-01 mlx5_0', 'host-02 mlx5_0', 'host-03 mlx5_0', 'host-04 mlx5_0', 'spine-1']" "identity: unique names unchanged"
# a baseline of one switch's finding does not hide the other's
expect_rc 0 "$FL" check --rules topology.self-loop --exit-zero --write-baseline "$TMP/id-base.json" "$ID"
python3 - "$TMP/id-base.json" <<'EOF'
import json, sys
b = json.load(open(sys.argv[1]))
b["findings"] = [f for f in b["findings"] if "0x0002c90301000001" in json.dumps(f)]
json.dump(b, open(sys.argv[1], "w"))
EOF
expect_rc 1 "$FL" check --rules topology.self-loop --fail-on warning --baseline "$TMP/id-base.json" --format json "$ID"
expect_eq "$(jget "$TMP/out" "=sorted((f['nodes'][0][-7:-1], f.get('baseline', False)) for f in d['findings'])")" \
  "[('000001', True), ('000002', False)]" "identity: baseline holds one switch, not the other"

# ---- plans/f01: one cross-rail cable ----------------------------------------
expect_rc 1 "$FL" check --format json "$D/f01-cross-rail-fix-port.xml"
expect_eq "$(finds)" "[('rail-alignment.cross-rail', 'error')]" "f01: the cause only (no su-shape side effect)"
expect_eq "$(one rail-alignment.cross-rail "['evidence']['fix_leaf']") $(one rail-alignment.cross-rail "['evidence']['fix_port']") $(one rail-alignment.cross-rail "['evidence']['fix_port_basis']")" \
  "leaf-su01-r1 2 host-nics" "f01: the fix is the port the host's other NICs use"
expect_eq "$(one rail-alignment.cross-rail "['message']")" \
  '"dgx-002 mlx5_1" (rail 1) is cabled to "leaf-su01-r0" port 4, which serves rail 0; move it to "leaf-su01-r1" port 2 (free; suggested: the port the host'"'"'s other NICs use; `fabriclint diff` against the plan gives the planned port)' \
  "f01: the fix says it is a suggestion"
# with the plan: the fix comes from the plan, and it is the same port
expect_rc 1 "$FL" diff --format json "$D/small-plan.xml" "$D/f01-cross-rail-fix-port.xml"
expect_eq "$(finds)" "[('diff.misconnected', 'error')]" "f01 diff: one misconnected cable"
expect_eq "$(one diff.misconnected "['ports']")" \
  "[{'node': 'dgx-002 mlx5_1', 'port': 1}, {'node': 'leaf-su01-r1', 'port': 2}, {'node': 'leaf-su01-r0', 'port': 4}]" "f01 diff: the plan's port"
expect_rc 1 "$FL" diff --format csv "$D/small-plan.xml" "$D/f01-cross-rail-fix-port.xml"
expect_eq "$(csv_rows "$TMP/out")" \
  "[{'row': '1', 'action': 'move', 'finding': 'diff.misconnected', 'a_node': 'dgx-002 mlx5_1', 'a_port': '1', 'a_rack': '', 'b_node': 'leaf-su01-r1', 'b_port': '2', 'b_rack': '', 'from_node': 'leaf-su01-r0', 'from_port': '4', 'cable': '', 'detail': 'move the cable end to the planned port'}]" \
  "f01 diff: work order"

# su-shape still fires for a real difference, and names the smaller SU
sed '/<link a="dgx-006 mlx5_0"/d;/<link a="dgx-006 mlx5_1"/d' "$D/small-plan.xml" >"$TMP/su.xml"
expect_rc 0 "$FL" check --rules rail-alignment.su-shape --format json "$TMP/su.xml"
expect_eq "$(one rail-alignment.su-shape "['nodes']") $(one rail-alignment.su-shape "['evidence']['tie']")" "['leaf-su02-r0'] True" "su-shape tie: the smaller SU is named"

# incomplete hosts of one SU missing the same rail are one cause
sed '/<link a="dgx-001 mlx5_1"/d;/<link a="dgx-002 mlx5_1"/d' "$D/small-plan.xml" >"$TMP/inc.xml"
expect_rc 0 "$FL" check --rules rail-alignment.incomplete-host --format json "$TMP/inc.xml"
expect_eq "$(one rail-alignment.incomplete-host "['message']")" \
  '2 hosts of SU 1 have no NIC on rail(s) 1; e.g. "dgx-001 mlx5_0", "dgx-002 mlx5_0"' "incomplete hosts: one finding"
expect_eq "$(one rail-alignment.incomplete-host "['evidence']['members'][1]['evidence']['host']")" "dgx-002" "incomplete hosts: members"

# ---- topology.mixed-speed on a tie names the slow links -------------------
"$FL" gen fat-tree --radix 4 --tiers 2 --speed NDR -o "$TMP/ms.xml"
sed -E '/<link a="leaf-p01-0[12]" a-port="[34]" b="spine/ s/speed="NDR"/speed="HDR"/' "$TMP/ms.xml" >"$TMP/ms-tie.xml"
expect_rc 0 "$FL" check --rules topology.mixed-speed --format json "$TMP/ms-tie.xml"
expect_eq "$(one topology.mixed-speed "['evidence']['links_by_speed']") $(one topology.mixed-speed "['evidence']['reference_speed']") $(one topology.mixed-speed "['evidence']['tie']")" \
  "{'HDR': 4, 'NDR': 4} NDR True" "mixed-speed tie: the faster speed is the reference"
expect_eq "$(one topology.mixed-speed "['nodes']")" "['leaf-p01-01', 'spine-p01-01', 'spine-p01-02', 'leaf-p01-02']" "mixed-speed tie: the nodes on the slow links"
sed -E '/<link a="leaf-p01-01" a-port="[34]" b="spine/ s/speed="NDR"/speed="HDR"/' "$TMP/ms.xml" >"$TMP/ms-one.xml"
expect_rc 0 "$FL" check --rules topology.mixed-speed --format json "$TMP/ms-one.xml"
expect_eq "$(one topology.mixed-speed "['nodes']") $(one topology.mixed-speed "['evidence']['tie']")" "['leaf-p01-01', 'spine-p01-01', 'spine-p01-02'] False" "mixed-speed: the minority"

# ---- topology.degraded-link: cables trained down together are one cause --
sed -E '/<link a="leaf-p01-0[12]" a-port="[34]" b="spine/ s/width="4x"/width="2x"/' "$TMP/ms.xml" >"$TMP/deg.xml"
expect_rc 0 "$FL" check --rules topology.degraded-link --format json "$TMP/deg.xml"
expect_eq "$(finds) $(one topology.degraded-link "['evidence']['count']")" "[('topology.degraded-link', 'warning')] 4" "degraded links: one finding for 4 cables"
expect_eq "$(one topology.degraded-link "['message']")" \
  '4 links of tier 1-2 run at 2xNDR, below the 4xNDR expected (majority of the tier pair); e.g. "leaf-p01-01" port 3, "leaf-p01-01" port 4, "leaf-p01-02" port 3 and 1 more' \
  "degraded links: message"

# ---- plans/f05: the work order of an unplugged HCA --------------------------
expect_rc 1 "$FL" diff --format csv "$D/small-plan.xml" "$D/f05-unplugged-hca.ibnetdiscover"
expect_eq "$(csv_rows "$TMP/out")" \
  "[{'row': '1', 'action': 'check', 'finding': 'diff.missing-node', 'a_node': 'dgx-005 mlx5_1', 'a_port': '1', 'a_rack': '', 'b_node': 'leaf-su02-r1', 'b_port': '2', 'b_rack': '', 'from_node': '', 'from_port': '', 'cable': '', 'detail': 'node not discovered: power, install or name it as planned; check this planned cable'}]" \
  "f05: the row names the leaf and port of the missing HCA's cable"

# ---- plans/f06: other GUIDs ---------------------------------------------------
expect_rc 0 "$FL" diff --no-guid --format json "$D/small-plan.xml" "$D/f06-other-guids.ibnetdiscover"
expect_eq "$(finds)" "[]" "f06 --no-guid: no GUID findings"
expect_rc 0 "$FL" diff --format json "$D/small-plan.xml" "$D/f06-other-guids.ibnetdiscover"
expect_eq "$(finds) $(one diff.different "['evidence']")" "[('diff.different', 'info')] {'agreeing': 0, 'attribute': 'guid', 'compared': 18}" "f06: placeholder GUIDs are one note"
# some GUIDs agree: the others are real findings, one per cause
python3 - "$D/f06-other-guids.ibnetdiscover" "$TMP/f06-half.ibnetdiscover" <<'EOF'
import sys
t = open(sys.argv[1]).read()
# put back the planned GUIDs of the 12 CAs (0x0002c9030200xxxx); switches keep others
open(sys.argv[2], "w").write(t.replace("2c90402", "2c90302"))
EOF
expect_rc 0 "$FL" diff --format json "$D/small-plan.xml" "$TMP/f06-half.ibnetdiscover"
expect_eq "$(finds) $(one diff.different "['evidence']['count']")" "[('diff.different', 'warning')] 6" "f06, CAs agree: 6 switch GUIDs, one finding"

# ---- plans/f07: the work order a technician gets --------------------------
expect_rc 1 "$FL" diff --format csv "$D/f07-plan-with-racks.xml" "$D/f07-moved.ibnetdiscover"
expect_eq "$(csv_rows "$TMP/out")" \
  "[{'row': '1', 'action': 'swap', 'finding': 'diff.swapped', 'a_node': 'dgx-002 mlx5_0', 'a_port': '1', 'a_rack': 'R01', 'b_node': 'dgx-002 mlx5_1', 'b_port': '1', 'b_rack': 'R01', 'from_node': '', 'from_port': '', 'cable': '', 'detail': 'exchange the two cable ends at these ports'}, {'row': '2', 'action': 'move', 'finding': 'diff.misconnected', 'a_node': 'dgx-004 mlx5_0', 'a_port': '1', 'a_rack': 'R02', 'b_node': 'leaf-su02-r0', 'b_port': '1', 'b_rack': 'N02', 'from_node': 'leaf-su02-r0', 'from_port': '4', 'cable': '', 'detail': 'move the cable end to the planned port'}, {'row': '3', 'action': 'add', 'finding': 'diff.missing', 'a_node': 'leaf-su01-r0', 'a_port': '5', 'a_rack': 'N01', 'b_node': 'spine-01', 'b_port': '1', 'b_rack': 'N00', 'from_node': '', 'from_port': '', 'cable': '', 'detail': 'planned cable not found'}]" \
  "f07: swap, move and add rows with racks"
# where the moved end is now: its leaf's rack
expect_eq "$(python3 -c "import csv,sys; print([(r['action'], r['from_rack']) for r in csv.DictReader(open(sys.argv[1]))])" "$TMP/out")" \
  "[('swap', ''), ('move', 'N02'), ('add', '')]" "f07: from_rack of the move"
# the fix columns: the finding's fix (JSON fix.description) and fingerprint
expect_eq "$(csv_fix "$TMP/out")" \
  "[('swap', 'swap the two cable ends at \"dgx-002 mlx5_0\" port 1 and \"dgx-002 mlx5_1\" port 1', 16), ('move', 'move the cable end at \"leaf-su02-r0\" port 4 to \"leaf-su02-r0\" port 1', 16), ('add', '', 16)]" \
  "f07: fix columns"

finish
