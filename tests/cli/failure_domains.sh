# SPDX-License-Identifier: MIT
# failure-domains on fabrics whose answer is known by construction: generated
# fat trees with failure-domain attributes (design XML edits or annotation
# side files), scripted cable edits, a hand-built two-plane fabric, and a real
# ibsim dump annotated by a CSV side file. Each case pins the exact findings.
. "$(dirname "$0")/lib.bash"
F="$FL_SRC/fabrics"
# the plugin's rules but the opt-in summary (figures, not findings: case 9)
R="--rules failure-domains.[a-r]*,failure-domains.s[a-p]* --format json"
findings() { jget "$TMP/out" "=[(f['rule'].split('.')[1], f['severity']) for f in d['findings']]"; }
ev() { jget "$TMP/out" "['findings'][$1]['evidence']$2"; }

# set_attrs FILE NODE KEY=VAL... — add design attributes to one <node> of FILE
set_attrs() {
  python3 - "$@" <<'EOF'
import sys, re
path, node, kv = sys.argv[1], sys.argv[2], sys.argv[3:]
s = open(path).read()
add = "".join(' %s="%s"' % tuple(x.split("=", 1)) for x in kv)
s, n = re.subn(r'(<node [^>]*name="%s")' % re.escape(node), r"\1" + add, s)
assert n == 1, node
open(path, "w").write(s)
EOF
}
# drop_link FILE A B — delete the cable(s) between nodes A and B
drop_link() {
  python3 - "$@" <<'EOF'
import sys, re
path, a, b = sys.argv[1:]
lines = open(path).read().split("\n")
keep = [l for l in lines if not (l.lstrip().startswith("<link") and
        ((f'a="{a}"' in l and f'b="{b}"' in l) or (f'a="{b}"' in l and f'b="{a}"' in l)))]
assert len(keep) < len(lines), (a, b)
open(path, "w").write("\n".join(keep))
EOF
}

# 1. a radix-4 fat tree (4 leaves, 2 spines, 8 hosts) whose two spines are on
#    one PDU: losing pdu=P1 splits the hosts into 4 groups (one per leaf).
#    One cause, one finding: the leaves' lost uplinks (capacity-loss) and the
#    spines' PDU spread of 1 (spine-spread) are that partition's
#    consequences, said by it ("all 2 spines sit in it"), not reported apart.
"$FL" gen fat-tree --radix 4 -o "$TMP/ft4.xml"
cp "$TMP/ft4.xml" "$TMP/onepdu.xml"
set_attrs "$TMP/onepdu.xml" spine-p01-01 pdu=P1
set_attrs "$TMP/onepdu.xml" spine-p01-02 pdu=P1
expect_rc 1 "$FL" check $R "$TMP/onepdu.xml"
# findings come errors first, then by rule id: domain-partition, capacity-loss, spine-spread
expect_eq "$(findings)" "[('domain-partition', 'error')]" "one PDU: findings"
expect_eq "$(ev 0 "['domain']")=$(ev 0 "['value']")" "pdu=P1" "one PDU: partition domain"
expect_eq "$(jget "$TMP/out" "=[g['endpoints'] for g in d['findings'][0]['evidence']['groups']]")" "[2, 2, 2, 2]" "one PDU: four groups"
expect_eq "$(jget "$TMP/out" "=d['findings'][0]['evidence']['groups'][1]['hosts']")" "['node0003', 'node0004']" "one PDU: second group"
expect_eq "$(ev 0 "['top_tier_switches']") $(ev 0 "['top_tier_switches_removed']")" "2 2" "one PDU: every spine"
expect_grep "$TMP/out" 'losing pdu=P1 \(2 switch\(es\): all 2 spines sit in it, 0 cable\(s\)\) splits the remaining hosts into 4 groups \(4 x 2 endpoints\)'
# run without domain-partition, the other rules report the value themselves
# (blast-radius: 6 of the 8 servers are off the largest piece, fewer than
# the one pod's 8: no finding)
expect_rc 0 "$FL" check --rules failure-domains.spine-spread,failure-domains.capacity-loss,failure-domains.blast-radius --format json "$TMP/onepdu.xml"
expect_eq "$(findings)" "[('capacity-loss', 'warning'), ('spine-spread', 'warning')]" "one PDU, without domain-partition"
expect_eq "$(ev 0 "['leaf_uplink_loss_percent']") $(ev 0 "['bisection_loss_percent']")" "100 100" "one PDU, without domain-partition: capacity"
expect_eq "$(ev 1 "['key']") $(ev 1 "['distinct']") $(ev 1 "['values']")" "pdu 1 ['P1']" "one PDU, without domain-partition: spread"

# 2. the same tree spread over two feeds, PDUs and racks: clean
cp "$TMP/ft4.xml" "$TMP/spread.xml"
set_attrs "$TMP/spread.xml" spine-p01-01 power-feed=A pdu=A1 rack=R1
set_attrs "$TMP/spread.xml" spine-p01-02 power-feed=B pdu=B1 rack=R2
for i in 1 2 3 4; do set_attrs "$TMP/spread.xml" leaf-p01-0$i rack=R1$i pdu=L$i power-feed=$([ $i -le 2 ] && echo A || echo B); done
expect_rc 0 "$FL" check $R "$TMP/spread.xml"
expect_eq "$(findings)" "[]" "two feeds: clean"
# ... and the same as an annotation side file on the plain design, in YAML
cat > "$TMP/spread.yaml" <<'EOF'
nodes:
  spine-p01-01: {power-feed: A, pdu: A1, rack: R1}
  spine-p01-02: {power-feed: B, pdu: B1, rack: R2}
EOF
expect_rc 0 "$FL" check $R "$TMP/ft4.xml" "$TMP/spread.yaml"
expect_eq "$(findings)" "[]" "two feeds (YAML side file): clean"
# a policy of 3 feeds makes the spread too small, and nothing else
expect_rc 0 "$FL" check $R --param failure-domains.spine-spread.require=power-feed:3 "$TMP/spread.xml"
expect_eq "$(findings)" "[('spine-spread', 'warning')]" "three feeds required"

# 3. a radix-8 tree (8 leaves, 4 spines) with spines in two racks; leaf 1
#    loses its cables to the two spines of rack R2, so it is dual-homed to
#    spines in one rack: losing rack R1 cuts leaf 1's hosts off and takes all
#    its uplinks. Every other leaf loses exactly half (allowed).
"$FL" gen fat-tree --radix 8 -o "$TMP/onerack.xml"
set_attrs "$TMP/onerack.xml" spine-p01-01 rack=R1 pdu=A1 power-feed=A
set_attrs "$TMP/onerack.xml" spine-p01-02 rack=R1 pdu=B1 power-feed=B
set_attrs "$TMP/onerack.xml" spine-p01-03 rack=R2 pdu=A2 power-feed=A
set_attrs "$TMP/onerack.xml" spine-p01-04 rack=R2 pdu=B2 power-feed=B
drop_link "$TMP/onerack.xml" leaf-p01-01 spine-p01-03
drop_link "$TMP/onerack.xml" leaf-p01-01 spine-p01-04
expect_rc 1 "$FL" check $R "$TMP/onerack.xml"
expect_eq "$(findings)" "[('domain-partition', 'error')]" "one rack: findings (leaf 1's lost uplinks are the partition)"
expect_eq "$(ev 0 "['value']") $(jget "$TMP/out" "=[g['endpoints'] for g in d['findings'][0]['evidence']['groups']]")" "R1 [28, 4]" "one rack: groups"
expect_eq "$(jget "$TMP/out" "=d['findings'][0]['evidence']['groups'][1]['hosts']")" "['node0001', 'node0002', 'node0003', 'node0004']" "one rack: cut-off hosts"

# 4. a bridge cable: leaf 1 of the radix-4 tree keeps one uplink. The cable
#    and the spine at its far end are single points; nothing else is.
cp "$TMP/ft4.xml" "$TMP/bridge.xml"
drop_link "$TMP/bridge.xml" leaf-p01-01 spine-p01-02
expect_rc 1 "$FL" check $R "$TMP/bridge.xml"
expect_eq "$(findings)" "[('single-point', 'error'), ('single-point', 'error')]" "bridge: findings"
expect_eq "$(jget "$TMP/out" "=sorted(f['evidence']['kind'] for f in d['findings'])")" "['cable', 'switch']" "bridge: kinds"
expect_eq "$(jget "$TMP/out" "=[f['evidence']['cut_off_hosts'] for f in d['findings'] if f['evidence']['kind']=='cable'][0]")" "['node0001', 'node0002']" "bridge: cut-off hosts"
expect_eq "$(jget "$TMP/out" "=[f['ports'] for f in d['findings'] if f['evidence']['kind']=='cable'][0]")" \
  "[{'node': 'leaf-p01-01', 'port': 3}, {'node': 'spine-p01-01', 'port': 1}]" "bridge: cable ports"
expect_eq "$(jget "$TMP/out" "=[f['nodes'][0] for f in d['findings'] if f['evidence']['kind']=='switch'][0]")" "spine-p01-01" "bridge: the spine"
# with single-homed hosts counted, every leaf and every host cable is a
# single point too: 4 leaves + the spine + 8 access cables + the uplink
expect_rc 1 "$FL" check $R --param failure-domains.single-point.allow-single-homed=0 "$TMP/bridge.xml"
expect_eq "$(jget "$TMP/out" "=len(d['findings'])")" "14" "bridge, single-homed counted"

# 5. two planes (a and b, each 2 leaves + 2 spines) and 4 hosts with one NIC
#    per plane; one cable joins spine a-s1 to spine b-s2. Only that cable is
#    reported: the planes are judged apart, so it is no single point.
python3 - "$TMP/planes.xml" <<'EOF'
import sys
out = ['<?xml version="1.0" encoding="UTF-8"?>', '<fabric xmlns="urn:fabriclint:design:1" version="1">']
links = []
for pl in "ab":
    for s in (1, 2):
        out.append(f'<node kind="switch" name="{pl}-s{s}" ports="8" tier="2" plane="{pl}" rack="R{pl}{s}" pdu="P{pl}{s}" power-feed="{s}"/>')
    for l in (1, 2):
        out.append(f'<node kind="switch" name="{pl}-l{l}" ports="8" tier="1" plane="{pl}" rack="R{pl}{l}" pdu="P{pl}{l}" power-feed="{pl.upper()}"/>')
        for s in (1, 2):
            links.append((f"{pl}-l{l}", 4 + s, f"{pl}-s{s}", l))
for h in range(1, 5):
    for i, pl in enumerate("ab"):
        out.append(f'<node kind="ca" name="h{h} mlx5_{i}" system="h{h}" device="mlx5_{i}" ports="1" plane="{pl}"/>')
        leaf = f"{pl}-l{(h + 1) // 2}"
        links.append((f"h{h} mlx5_{i}", 1, leaf, 1 + (h - 1) % 2))
links.append(("a-s1", 7, "b-s2", 7))
for a, ap, b, bp in links:
    out.append(f'<link a="{a}" a-port="{ap}" b="{b}" b-port="{bp}" width="4x" speed="NDR"/>')
out.append("</fabric>")
open(sys.argv[1], "w").write("\n".join(out) + "\n")
EOF
expect_rc 1 "$FL" check $R "$TMP/planes.xml"
expect_eq "$(findings)" "[('plane-crossing', 'error')]" "planes: one finding"
expect_eq "$(ev 0 "['plane_a']")-$(ev 0 "['plane_b']")" "a-b" "planes: which"
expect_eq "$(jget "$TMP/out" "['findings'][0]['ports']")" "[{'node': 'a-s1', 'port': 7}, {'node': 'b-s2', 'port': 7}]" "planes: ports"
# a host whose two planes' leaves share a rack: dual-homing
sed 's/name="b-l1" ports="8" tier="1" plane="b" rack="Rb1"/name="b-l1" ports="8" tier="1" plane="b" rack="Ra1"/' "$TMP/planes.xml" > "$TMP/planes-rack.xml"
expect_rc 1 "$FL" check $R "$TMP/planes-rack.xml"
expect_eq "$(findings)" "[('dual-homing', 'error'), ('dual-homing', 'error'), ('plane-crossing', 'error')]" "planes, shared rack: findings"
expect_eq "$(jget "$TMP/out" "=[(f['evidence']['host'], f['evidence']['domain'], f['evidence']['value']) for f in d['findings'][:2]]")" \
  "[('h1', 'rack', 'Ra1'), ('h2', 'rack', 'Ra1')]" "planes, shared rack: hosts"

# 6. a real ibsim dump (fat-tree-2tier: 16 leaves, 8 spines, 128 hosts)
#    annotated by a CSV side file: all eight spines in rack R1, spread over
#    two PDUs and two feeds; hosts annotated by host name. Rack R1 partitions
#    every leaf from the others: one finding, which says all 8 spines sit in
#    it (their lost uplinks and rack spread of 1 are its consequences).
{
  echo "node,rack,pdu,power-feed"
  for s in 1 2 3 4; do echo "spine-p01-0$s,R1,A1,A"; done
  for s in 5 6 7 8; do echo "SPINE-P01-0$s,R1,B1,B"; done   # case-insensitive match
  echo "node0001,R20,C1,A"                                  # a host: all its HCAs
  echo "node0128.cluster.example,R27,C8,B"                  # short host name
} > "$TMP/racks.csv"
expect_rc 1 "$FL" check $R "$F/fat-tree-2tier.ibnetdiscover" "$TMP/racks.csv"
expect_eq "$(findings)" "[('domain-partition', 'error')]" "ibsim + CSV: findings"
expect_eq "$(ev 0 "['value']") $(jget "$TMP/out" "=len(d['findings'][0]['evidence']['groups'])")" "R1 16" "ibsim + CSV: 16 groups"
expect_eq "$(ev 0 "['top_tier_switches_removed']")" "8" "ibsim + CSV: all 8 spines in R1"
# unknown names are errors naming file:line, or notes with unknown-nodes: warn
printf 'node,rack\nspine-p01-01,R1\nspine-p01-99,R1\n' > "$TMP/typo.csv"
expect_rc 2 "$FL" check $R "$F/fat-tree-2tier.ibnetdiscover" "$TMP/typo.csv"
expect_grep "$TMP/err" 'typo.csv:3:1: unknown node "spine-p01-99"'
printf '# unknown-nodes: warn\nnode,rack\nspine-p01-01,R1\nspine-p01-99,R1\n' > "$TMP/typo.csv"
expect_rc 0 "$FL" check $R "$F/fat-tree-2tier.ibnetdiscover" "$TMP/typo.csv"
expect_eq "$(findings)" "[]" "unknown name skipped with warn"

# 7. a real 3-tier ibsim dump (fat-tree-3tier: 8 pods of 4 leaves and 4
#    spines under 16 cores) without pod attributes: pods are derived below
#    the top tier, one per leaf/spine group. Three of pod p03's four spines
#    in rack R1 cut that pod's leaf uplinks by 75%: one capacity-loss naming
#    the pod of leaf-p03-04, with the pod's own capacities (4 leaves x 800
#    Gb/s up), not the whole fabric's
printf 'node,rack\nspine-p03-01,R1\nspine-p03-02,R1\nspine-p03-03,R1\n' >"$TMP/p03.csv"
expect_rc 0 "$FL" check $R "$F/fat-tree-3tier.ibnetdiscover" "$TMP/p03.csv"
expect_eq "$(findings)" "[('capacity-loss', 'warning')]" "3-tier dump: findings"
expect_eq "$(jget "$TMP/out" "=[(e['pod'], e['pod_derived'], e['leaf_uplink_gbps_before'], e['leaf_uplink_gbps_after'], e['worst_leaf']) for e in [f['evidence'] for f in d['findings']]]")" \
  "[('leaf-p03-04', True, 3200, 800, 'leaf-p03-04')]" "3-tier dump: the derived pod p03"

# 9. failure-domains.summary (opt-in: figures for compare): the worst value
#    of each key, counted by hand on the radix-4 tree. pdu=P1 holds both
#    spines: the 4 leaves' hosts fall apart in 4 pairs, the first pair (lowest
#    id on a tie) is the fabric, 6 servers cut off; pdu=P2 holds leaf 1 and
#    node0001's HCA: node0001 powered off, node0002 cut off, 2. Racks R1
#    (leaves 1, 2) and R3 (leaves 3, 4) each cut 4 servers off: a tie, the
#    first in natural order (R1) is named; R2 (spine 1) cuts none.
cp "$TMP/ft4.xml" "$TMP/sum.xml"
set_attrs "$TMP/sum.xml" spine-p01-01 pdu=P1 rack=R2
set_attrs "$TMP/sum.xml" spine-p01-02 pdu=P1
set_attrs "$TMP/sum.xml" leaf-p01-01 pdu=P2 rack=R1
set_attrs "$TMP/sum.xml" "node0001 mlx5_0" pdu=P2
set_attrs "$TMP/sum.xml" leaf-p01-02 rack=R1
set_attrs "$TMP/sum.xml" leaf-p01-03 rack=R3
set_attrs "$TMP/sum.xml" leaf-p01-04 rack=R3
expect_rc 0 "$FL" check --rules failure-domains.summary --format json "$TMP/sum.xml"
expect_eq "$(jget "$TMP/out" "=[(f['severity'], f['evidence']['domain'], f['evidence']['value'], f['evidence']['servers_off'], f['evidence']['powered_off'], f['evidence']['cut_off'], f['evidence']['switches_down'], f['evidence']['values'], f['evidence']['servers_total']) for f in d['findings']]")" \
  "[('info', 'rack', 'R1', 4, 0, 4, 2, 3, 8), ('info', 'pdu', 'P1', 6, 0, 6, 2, 2, 8)]" \
  "summary: worst rack R1 (a tie with R3, first named), worst PDU P1"
expect_grep "$TMP/out" 'worst single pdu failure: losing pdu=P1 takes 6 of 8 servers off the fabric \(0 powered off, 6 cut off; 2 switch\(es\) down\), of 2 pdu value\(s\)'
# 10. one finding for values that remove the same elements is judged by
#     the strictest of their limits: SU 2's two leaves single-fed from one
#     PDU (P-X, feed A) are also the whole of their rack R02-02. As a rack
#     they may take one SU's worth (4 servers), as a PDU fewer: the 4
#     servers cut off are one finding, judged as a PDU's (an outside
#     tester: it was judged as the rack's, and nothing was reported)
"$FL" gen rail-su --sus 3 --rails 2 --hosts-per-su 4 --leaf-radix 8 --layout -o "$TMP/su3.xml" || fail "gen su3"
python3 - "$TMP/su3.xml" "$TMP/onefeed.xml" <<'PY'
import re, sys
s = open(sys.argv[1]).read()
for leaf in ("leaf-su02-r0", "leaf-su02-r1"):
    s, n = re.subn(r'(<node [^>]*name="%s"[^>]*?) pdu="[^"]*" power-feed="[^"]*"' % leaf,
                   r'\1 pdu="P-X" power-feed="A"', s)
    assert n == 1, leaf
open(sys.argv[2], "w").write(s)
PY
expect_rc 1 "$FL" check --rules failure-domains.blast-radius --format json "$TMP/onefeed.xml"
expect_eq "$(jget "$TMP/out" "=[(f['evidence']['domain'], f['evidence']['value'], [(x['domain'], x['value']) for x in f['evidence']['same_elements_as']], f['evidence']['servers_off'], f['evidence']['max_servers']) for f in d['findings']]")" \
  "[('rack', 'R02-02', [('pdu', 'P-X'), ('power-feed', 'A')], 4, 3)]" "a rack that is one PDU: judged as the PDU"
expect_grep "$TMP/out" "fewer than one SU's worth \\(4 servers\\) may be lost to one pdu failure"
# the summary is opt-in: not in a default check
"$FL" check --format json "$TMP/sum.xml" >"$TMP/out" 2>"$TMP/err"
expect_eq "$(jget "$TMP/out" "=[f['rule'] for f in d['findings'] if f['rule'] == 'failure-domains.summary']")" "[]" "summary: not in a default check"
finish
