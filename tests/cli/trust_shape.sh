#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/cli/trust_shape.sh — issue 12, classes 3-5: roles, shape inference,
# connectivity through CAs. Each expected value comes from a case README
# (tests/data/cases/, see PROVENANCE.md) or from the production-like ibsim
# fabrics of fabrics/shape/ (regen.sh there).
. "$(dirname "$0")/lib.bash"
C=$FL_SRC/tests/data/cases
S=$FL_SRC/fabrics/shape

# count RULE [SEVERITY] — findings of RULE in $TMP/j.json
count() {
  jget "$TMP/j.json" "=sum(1 for f in d['findings'] if f['rule']=='$1'$([ $# -gt 1 ] && echo " and f['severity']=='$2'"))"
}
msgs() { jget "$TMP/j.json" "=' | '.join(f['message'] for f in d['findings'] if f['rule']=='$1')"; }
check_json() { "$FL" check --format json "$@" >"$TMP/j.json" 2>"$TMP/err"; }

# ---- n01: UFM servers on compute leaves (Helix-A lab) -----------------------
N=$C/n01-ncpain-helix-a-ibsim
check_json "$N/helix-a.net"; expect_eq "$?" 0 "n01 exit"
expect_eq "$(count rail-alignment.cross-rail)" 0 "n01: no cross-rail for UFM hosts"
expect_eq "$(count rail-alignment.incomplete-host)" 0 "n01: UFM hosts are no incomplete rail hosts"
expect_eq "$(count rail-alignment.roles info)" 1 "n01: the role guess is said once"
expect_eq "$(msgs rail-alignment.roles)" "2 host(s) taken as non-compute by a guess from their name or NIC count, so rail rules leave them alone: hxa-ufm-a1 (ufm), hxa-ufm-a2 (ufm); give role= attributes to decide otherwise" "n01 roles message"
expect_eq "$(jget "$TMP/j.json" "['summary']['error']")" 0 "n01: no error"
# roles given (annotation file, role=ufm): no guess, still no rail finding
check_json "$N/helix-a.net" "$N/roles.csv"; expect_eq "$?" 0 "n01+roles exit"
expect_eq "$(count rail-alignment.cross-rail)" 0 "n01+roles: role=ufm is no cross-rail error"
expect_eq "$(count rail-alignment.incomplete-host)" 0 "n01+roles: no incomplete-host"
expect_eq "$(count rail-alignment.roles)" 0 "n01+roles: nothing guessed"
# the guess is what keeps them out: with infer-roles=0 they are incomplete
check_json --param rail-alignment.infer-roles=0 "$N/helix-a.net"
expect_eq "$(msgs rail-alignment.incomplete-host)" 'host "hxa-ufm-a1" has no NIC on rail(s) mlx5_1 | host "hxa-ufm-a2" has no NIC on rail(s) mlx5_1' "n01 infer-roles=0"
# after lab 8's unlink: the asymmetry and the SPOF, no rail finding
check_json "$N/helix-a-unlinked.net"; expect_eq "$?" 1 "n01 unlinked exit"
expect_eq "$(count ecmp-balance.uplink-asymmetry)" 1 "n01 unlinked: uplink asymmetry"
expect_grep <(msgs ecmp-balance.uplink-asymmetry) '^switch "hxa-su2-leaf-r2" \(tier 1\) has 1 uplink'
expect_grep <(msgs failure-domains.single-point) 'switch "hxa-spine01" is a single point of failure'
expect_eq "$(count rail-alignment.cross-rail)$(count rail-alignment.incomplete-host)" 00 "n01 unlinked: no rail finding"

# ---- c07: cross-rail with the move, and an incomplete host -----------------
check_json "$C/c07-nccl1600-cross-rail-missing-nic/asbuilt.ibnetdiscover"
expect_eq "$(count rail-alignment.cross-rail error)" 1 "c07 cross-rail"
expect_grep <(msgs rail-alignment.cross-rail) '^"node-02 mlx5_1" \(rail mlx5_1\) is cabled to "su1-leaf-r2" port 8, .*move it to "su1-leaf-r1" port 2'
expect_eq "$(msgs rail-alignment.incomplete-host)" 'host "node-03" has no NIC on rail(s) mlx5_3' "c07 incomplete-host"
expect_eq "$(count rail-alignment.roles)" 0 "c07: every host is compute"
# hosts all named with a service word ("sm-02"): a naming convention, no guess
sed 's/"node-0/"sm-0/g' "$C/c07-nccl1600-cross-rail-missing-nic/asbuilt.ibnetdiscover" >"$TMP/sm.ibnd"
check_json "$TMP/sm.ibnd"
expect_eq "$(count rail-alignment.roles)$(count rail-alignment.cross-rail)" 01 "c07 as sm-0N: still compute"
expect_eq "$(msgs rail-alignment.incomplete-host)" 'host "sm-03" has no NIC on rail(s) mlx5_3' "c07 as sm-0N: incomplete-host"

# ---- c08: the two crossed plane cables of gpu-03 ---------------------------
check_json "$C/c08-nccl1453-dual-port-plane-swap/asbuilt-plan.xml"
expect_eq "$(count failure-domains.plane-crossing error)" 2 "c08 plane-crossing"
expect_eq "$(jget "$TMP/j.json" "=sorted(set(p['node'] for f in d['findings'] if f['rule']=='failure-domains.plane-crossing' for p in f['ports'] if p['node'].startswith('gpu')))")" "['gpu-03 mlx5_0']" "c08 names gpu-03"
# two planes joined only by dual-port HCAs are two subnets, by design here
expect_eq "$(count topology.disconnected)" 0 "c08: planes apart by design"
sed 's/plane="B"/plane="A"/' "$C/c08-nccl1453-dual-port-plane-swap/asbuilt-plan.xml" >"$TMP/oneplane.xml"
check_json "$TMP/oneplane.xml"
expect_eq "$(msgs topology.disconnected)" '4 node(s) (3 switches, 1 CAs/routers) starting with "tor-r1-b" are cut off from the main part of the fabric (5 nodes); they are joined to it only through multi-port CAs, which do not forward: a separate subnet' "CAs do not forward"

# ---- c11: real NDR dump; no misfiring rail verdicts -------------------------
E=$FL_SRC/tests/data/external/NVIDIA__topograph__tests__output__ibnetdiscover__example.out  # case c11 (in tests/data/external)
"$FL" info --format json "$E" >"$TMP/i.json"
expect_eq "$(jget "$TMP/i.json" "=[(t['tier'],t['switches']) for t in d['tiers']]")" "[(0, 0), (1, 31), (2, 9)]" "c11 tiers"
expect_eq "$(jget "$TMP/i.json" "['shape']['regular']")" True "c11 shape regular"
check_json "$E"
expect_eq "$(count rail-alignment.cross-rail)" 0 "c11: no cross-rail"
expect_eq "$(count rail-alignment.mixed-leaf)" 0 "c11: no mixed-leaf"
# SUs with unresolved (factory-described) NICs are not judged smaller (their
# hosts per leaf are a lower bound); the SU of the 17 hosts a08-p1-dgx-04-c01..c17, named mlx5_0/1/4/5 unlike the
# HCA-N of the rest (NVIDIA/nccl#1277), has its leaves to itself, one name
# per leaf: placed (rail_naming.c), it is judged, and it really has one host
# per leaf fewer than the SUs of 18. An SU with unresolved NICs keeps its
# rail leaves compared: SU 1 has no leaf for rail HCA-5 (A09-P1-IBLEAF-03-01
# is absent from the capture; its hosts have 3 NICs). One cause, two SUs.
expect_eq "$(count rail-alignment.su-shape)" 1 "c11: one su-shape finding"
expect_eq "$(jget "$TMP/j.json" "=[m['message'].split(' hosts per leaf')[0] for f in d['findings'] if f['rule']=='rail-alignment.su-shape' for m in f['evidence']['members']]")" \
  "['the SU of leaf \"MF0;A09-P1-IBLEAF-04-04:MQM9701/U1\" has 4 rail leaves and up to 17', 'the SU of leaf \"MF0;A09-P1-IBLEAF-04-01:MQM9701/U1\" has 3 rail leaves (none for rail HCA-5) and up to 11']" "c11: the SU of 17, and SU 1 without its HCA-5 leaf"
# unknown is not wrong: the NICs not placed are listed at info
expect_eq "$(count rail-alignment.unresolved info)" 2 "c11: mixed descs unresolved"
expect_grep <(msgs rail-alignment.unresolved) 'device named unlike the other NICs'
expect_grep <(msgs rail-alignment.unresolved) 'no host name in the node description'
expect_eq "$(count ecmp-balance.group-width)" 0 "c11: no group-width toward SHARP ANs on spines"
# SHARP ANs are no downlinks: each flagged leaf's down ports are exactly its
# HCA cables in the dump (port lines to "H-" nodes other than the AN)
expect_eq "$(python3 - "$TMP/j.json" "$E" <<'PY'
import json, re, sys
d = json.load(open(sys.argv[1]))
hca, sw = {}, None
for line in open(sys.argv[2]):
    m = re.match(r'Switch\s+\d+ "[^"]+"\s+# "([^"]+)"', line)
    if m:
        sw = m.group(1); hca[sw] = 0
    elif line.startswith('[') and sw and '"H-' in line and 'Aggregation' not in line:
        hca[sw] += 1
    elif not line.strip():
        sw = None
# one finding per cause: a tier's switches are the merged finding's members
bad = [f['nodes'][0] for f in [m for g in d['findings'] if g['rule'] == 'ecmp-balance.oversubscription'
                                for m in ((g.get('evidence') or {}).get('members') or [g])]
       if f['evidence']['down_ports'] != hca[f['nodes'][0]]]
n = sum(1 for f in d['findings'] if f['rule'] == 'ecmp-balance.oversubscription')
print(n > 0, bad)
PY
)" "True []" "c11 down ports are the HCAs, not the SHARP ANs"

# ---- plans f03 / f04: 2-tier wording, dual-fed spines -----------------------
check_json "$C/plans/f03-leaf-rack-core.xml"; expect_eq "$?" 0 "f03 exit"
expect_eq "$(jget "$TMP/j.json" "=len(d['findings'])")" 0 "f03: no finding"
if grep -q "to the core" "$TMP/j.json"; then fail "f03: 'to the core' in a 2-tier fabric"; else pass; fi
check_json "$C/plans/f04-dual-psu.xml"; expect_eq "$?" 0 "f04 exit"
expect_eq "$(count failure-domains.domain-partition)$(count failure-domains.capacity-loss)$(count failure-domains.spine-spread)" 000 "f04: dual-fed spines survive one PDU/feed"

# ---- production-like fat trees (ibsim + OpenSM + ibnetdiscover) -------------
"$FL" info --format json "$S/superpod-3tier.ibnetdiscover" >"$TMP/i.json"
expect_eq "$(jget "$TMP/i.json" "=[(t['tier'],t['switches']) for t in d['tiers']]")" "[(0, 0), (1, 33), (2, 32), (3, 16)]" "3-tier: service hosts on cores, mgmt leaf"
expect_eq "$(jget "$TMP/i.json" "=[d['shape'][k] for k in ('same_tier_links','tier_skipping_links','upper_switches_with_endpoints')]")" "[0, 0, 3]" "3-tier shape facts"
check_json "$S/superpod-3tier.ibnetdiscover"
expect_eq "$(count ecmp-balance.group-width)" 0 "3-tier: no group-width"
expect_eq "$(count topology.same-tier-link)" 0 "3-tier: no same-tier links"
expect_eq "$(jget "$TMP/j.json" "=sorted(n for f in d['findings'] if f['rule']=='ecmp-balance.oversubscription' for n in f['nodes'])")" "['mgmt-leaf-01', 'spine-p01-01', 'spine-p01-02']" "3-tier oversubscription"
expect_eq "$(jget "$TMP/j.json" "=[f['nodes'][0] for f in d['findings'] if f['rule']=='ecmp-balance.uplink-asymmetry']")" "['mgmt-leaf-01']" "3-tier asymmetry"
"$FL" info --format json "$S/superpod-2tier.ibnetdiscover" >"$TMP/i.json"
expect_eq "$(jget "$TMP/i.json" "=[(t['tier'],t['switches']) for t in d['tiers']]")" "[(0, 0), (1, 17), (2, 8)]" "2-tier: service hosts on spines, mgmt leaf"
check_json "$S/superpod-2tier.ibnetdiscover"
expect_eq "$(count topology.same-tier-link)$(count ecmp-balance.group-width)" 00 "2-tier: no same-tier, no group-width"
expect_eq "$(jget "$TMP/j.json" "=[f['nodes'][0] for f in d['findings'] if f['rule'] in ('ecmp-balance.oversubscription','ecmp-balance.uplink-asymmetry')]")" "['mgmt-leaf-01', 'mgmt-leaf-01']" "2-tier ecmp findings"

# ---- a dual-homed HCA must not hide a leaf's single uplink ------------------
# (design XML: no generator makes this shape; a CA does not forward, so
# leaf-1's one cable to spine-1 is a bridge although d1 also sits on leaf-2)
cat >"$TMP/dualhome.xml" <<'XML'
<?xml version="1.0" encoding="UTF-8"?>
<fabric xmlns="urn:fabriclint:design:1" version="1" name="dual-homed-hca">
  <node kind="switch" name="spine-1" ports="8" tier="2"/>
  <node kind="switch" name="spine-2" ports="8" tier="2"/>
  <node kind="switch" name="leaf-1" ports="8" tier="1"/>
  <node kind="switch" name="leaf-2" ports="8" tier="1"/>
  <node kind="switch" name="leaf-3" ports="8" tier="1"/>
  <node kind="ca" name="h1 mlx5_0" ports="1" tier="0"/>
  <node kind="ca" name="h2 mlx5_0" ports="1" tier="0"/>
  <node kind="ca" name="h3 mlx5_0" ports="1" tier="0"/>
  <node kind="ca" name="d1 mlx5_0" ports="2" tier="0"/>
  <link a="leaf-1" a-port="7" b="spine-1" b-port="1" width="4x" speed="HDR"/>
  <link a="leaf-2" a-port="7" b="spine-1" b-port="2" width="4x" speed="HDR"/>
  <link a="leaf-2" a-port="8" b="spine-2" b-port="2" width="4x" speed="HDR"/>
  <link a="leaf-3" a-port="7" b="spine-1" b-port="3" width="4x" speed="HDR"/>
  <link a="leaf-3" a-port="8" b="spine-2" b-port="3" width="4x" speed="HDR"/>
  <link a="leaf-1" a-port="1" b="h1 mlx5_0" b-port="1" width="4x" speed="HDR"/>
  <link a="leaf-2" a-port="1" b="h2 mlx5_0" b-port="1" width="4x" speed="HDR"/>
  <link a="leaf-3" a-port="1" b="h3 mlx5_0" b-port="1" width="4x" speed="HDR"/>
  <link a="leaf-1" a-port="2" b="d1 mlx5_0" b-port="1" width="4x" speed="HDR"/>
  <link a="leaf-2" a-port="2" b="d1 mlx5_0" b-port="2" width="4x" speed="HDR"/>
</fabric>
XML
check_json --rules 'failure-domains.*' "$TMP/dualhome.xml"
expect_eq "$(msgs failure-domains.single-point)" 'switch "spine-1" is a single point of failure: losing it cuts 2 endpoint(s) on h2, h3 off from the other 2 | cable leaf-1 port 7 <-> spine-1 port 1 is a single point of failure: losing it cuts 2 endpoint(s) on d1, h1 off from the other 2' "dual-homed HCA: SPOFs seen"
# the same with spine-1's ports 1 and 2 swapped, so that a walk from
# spine-1 meets leaf-2 (d1's second leaf) before leaf-1: d1 is a leaf of
# leaf-1 only from both sides, the bridge is still seen
sed -e 's/a="leaf-1" a-port="7" b="spine-1" b-port="1"/a="leaf-1" a-port="7" b="spine-1" b-port="9"/' \
  -e 's/a="leaf-2" a-port="7" b="spine-1" b-port="2"/a="leaf-2" a-port="7" b="spine-1" b-port="1"/' \
  -e 's/b="spine-1" b-port="9"/b="spine-1" b-port="2"/' "$TMP/dualhome.xml" >"$TMP/dualhome2.xml"
check_json --rules 'failure-domains.*' "$TMP/dualhome2.xml"
expect_eq "$(msgs failure-domains.single-point)" 'switch "spine-1" is a single point of failure: losing it cuts 2 endpoint(s) on h2, h3 off from the other 2 | cable leaf-1 port 7 <-> spine-1 port 2 is a single point of failure: losing it cuts 2 endpoint(s) on d1, h1 off from the other 2' "dual-homed HCA, spine ports swapped: SPOFs seen"

# ---- role guesses at their boundaries (gen's 4-host, 2-rail SU as an
# ibnetdiscover dump: no role attributes) --------------------------------------
guessed() { jget "$TMP/j.json" "=[h for f in d['findings'] if f['rule'] == 'rail-alignment.roles' for h in f['evidence']['hosts']]"; }
"$FL" gen rail-su --sus 1 --hosts-per-su 4 --rails 2 --format ibnetdiscover -o "$TMP/r2.ibnd"
# a service word in exactly half the host names is still a role (more than
# half would be a naming convention); a word is letters only (ufm01 is ufm)
sed 's/dgx-001/login-001/g; s/dgx-002/login-002/g' "$TMP/r2.ibnd" >"$TMP/half.ibnd"
check_json "$TMP/half.ibnd"
expect_eq "$(guessed)" "[{'host': 'login-001', 'role': 'login'}, {'host': 'login-002', 'role': 'login'}]" "2 of 4 named login: guessed"
sed 's/dgx-003/login-003/g' "$TMP/half.ibnd" >"$TMP/most.ibnd"
check_json "$TMP/most.ibnd"
expect_eq "$(guessed)" "[]" "3 of 4 named login: a naming convention, no guess"
sed 's/dgx-001/ufm01/g' "$TMP/r2.ibnd" >"$TMP/ufm01.ibnd"
check_json "$TMP/ufm01.ibnd"
expect_eq "$(guessed)" "[{'host': 'ufm01', 'role': 'ufm'}]" "ufm01: guessed ufm"
# a role the rail map gives (mlx5_1 storage) is a role given: no guess
printf 'mlx5_0 0\nmlx5_1 1 storage\n' >"$TMP/storage.map"
check_json --param "rail-alignment.map=$TMP/storage.map" "$TMP/half.ibnd"
expect_eq "$(guessed)" "[]" "map roles: nothing guessed"
# ... but with mlx5_1 off the rails only one compute NIC a host is left: not
# a rail fabric, no rule runs, so that check passes whether or not a map
# role counts as given. On the 4-rail SU a map that takes mlx5_3 off the
# rails as storage keeps 3 rails: the map's role is given, nothing guessed;
# the same map with mlx5_3 on rail 3 (no role) guesses the 2 login hosts
# (mutant rr-given-map)
"$FL" gen rail-su --sus 1 --hosts-per-su 4 --rails 4 --format ibnetdiscover -o "$TMP/r4.ibnd"
sed 's/dgx-001/login-001/g; s/dgx-002/login-002/g' "$TMP/r4.ibnd" >"$TMP/half4.ibnd"
printf 'mlx5_0 0\nmlx5_1 1\nmlx5_2 2\nmlx5_3 - storage\n' >"$TMP/storage4.map"
check_json --param "rail-alignment.map=$TMP/storage4.map" "$TMP/half4.ibnd"
expect_eq "$(guessed)" "[]" "4 rails, map role storage on mlx5_3: nothing guessed"
printf 'mlx5_0 0\nmlx5_1 1\nmlx5_2 2\nmlx5_3 3\n' >"$TMP/rails4.map"
check_json --param "rail-alignment.map=$TMP/rails4.map" "$TMP/half4.ibnd"
expect_eq "$(guessed)" "[{'host': 'login-001', 'role': 'login'}, {'host': 'login-002', 'role': 'login'}]" "4 rails, map without roles: the login hosts guessed"
# one-NIC hosts are guessed service when MORE than half the hosts have two
# NICs: 3 of 4 yes, 2 of 4 no (the dump without dgx-001's, dgx-002's mlx5_1)
drop_nic() { sed "/^Ca.*\"$1 mlx5_1\"/{N;d}; /\"$1 mlx5_1\"/d"; }
drop_nic dgx-001 <"$TMP/r2.ibnd" >"$TMP/one1.ibnd"
drop_nic dgx-002 <"$TMP/one1.ibnd" >"$TMP/one2.ibnd"
expect_eq "$(grep -c 'mlx5_1' "$TMP/one1.ibnd") $(grep -c 'mlx5_1' "$TMP/one2.ibnd")" "6 4" "NICs dropped from the dump"
check_json "$TMP/one1.ibnd"
expect_eq "$(guessed)" "[{'host': 'dgx-001', 'role': 'service'}]" "3 of 4 hosts with two NICs: dgx-001 guessed service"
check_json "$TMP/one2.ibnd"
expect_eq "$(guessed)" "[]" "2 of 4 hosts with two NICs: no guess"

finish
