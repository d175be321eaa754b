#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/cli/trust_roles.sh — issue 12: a host whose `role` is not a known
# role (a typo such as "storgae", a site word such as "gpu-node") used to be
# taken as non-compute: silently dropped from the rail rules (case c07's
# cross-rail error and incomplete host vanished) and from the tier
# derivation's compute endpoints (one leaf became "tier 3"). Now such hosts
# are judged as compute hosts (the documented default role) and each unknown
# value is one rail-alignment.unknown-role warning naming it and its hosts.
. "$(dirname "$0")/lib.bash"
C7=$FL_SRC/tests/data/cases/c07-nccl1600-cross-rail-missing-nic/asbuilt.ibnetdiscover
C8=$FL_SRC/tests/data/cases/c08-nccl1453-dual-port-plane-swap/asbuilt-plan.xml
rules() { jget "$TMP/out" "=sorted(f['rule'] for f in d['findings'])"; }
msgs() { jget "$TMP/out" "=[f['message'] for f in d['findings'] if f['rule'] == '$1']"; }

# c07 without roles: the reference verdict
expect_rc 1 "$FL" check --format json "$C7"
expect_eq "$(rules)" "['ecmp-balance.oversubscription', 'rail-alignment.cross-rail', 'rail-alignment.incomplete-host']" "c07 reference"
ref_cross=$(msgs rail-alignment.cross-rail)

# two unknown values on three hosts: the same verdicts plus one warning per value
printf 'node,role\nnode-02,gpu-node\nnode-04,gpu-node\nnode-01,storgae\n' >"$TMP/roles.csv"
expect_rc 1 "$FL" check --format json "$C7" "$TMP/roles.csv"
expect_eq "$(rules)" "['ecmp-balance.oversubscription', 'rail-alignment.cross-rail', 'rail-alignment.incomplete-host', 'rail-alignment.unknown-role', 'rail-alignment.unknown-role']" "c07 + unknown roles"
expect_eq "$(msgs rail-alignment.cross-rail)" "$ref_cross" "node-02's cross-rail cable is still judged"
expect_eq "$(jget "$TMP/out" "=sorted((f['severity'], f['evidence']['role'], f['evidence']['hosts'], f['evidence']['count'], f['evidence']['treated_as']) for f in d['findings'] if f['rule'] == 'rail-alignment.unknown-role')")" \
  "[('warning', 'gpu-node', ['node-02', 'node-04'], 2, 'compute'), ('warning', 'storgae', ['node-01'], 1, 'compute')]" "unknown-role evidence"
expect_eq "$(jget "$TMP/out" "=sorted(f['message'] for f in d['findings'] if f['rule'] == 'rail-alignment.unknown-role')" | tr -d '[]')" \
  "'role \"gpu-node\" of 2 host(s) is not a known role: node-02, node-04; they are judged as compute hosts (the default role). If they are GPU compute hosts, add \"gpu-node\" to compute-roles; if not, give a service role (storage, management, inband, service, sm, ufm, gateway, login, cache, spare)', 'role \"storgae\" of 1 host(s) is not a known role: node-01; they are judged as compute hosts (the default role). If they are GPU compute hosts, add \"storgae\" to compute-roles; if not, give a service role (storage, management, inband, service, sm, ufm, gateway, login, cache, spare)'" \
  "unknown-role messages"
expect_eq "$(jget "$TMP/out" "=[f['nodes'] for f in d['findings'] if f['rule'] == 'rail-alignment.unknown-role' and f['evidence']['role'] == 'storgae']")" \
  "[['node-01 mlx5_0', 'node-01 mlx5_1', 'node-01 mlx5_2', 'node-01 mlx5_3']]" "unknown-role nodes"
# the tiers do not move either (they did: su1-leaf-r2 became tier 3)
expect_rc 0 "$FL" info --format json "$C7" "$TMP/roles.csv"
expect_eq "$(jget "$TMP/out" "=[(t['tier'], t['switches']) for t in d['tiers']]")" "[(0, 0), (1, 4), (2, 2)]" "tiers with unknown roles"

# the values named in compute-roles are known: no warning, the reference verdict
expect_rc 1 "$FL" check --format json --param rail-alignment.compute-roles=compute,gpu-node,storgae "$C7" "$TMP/roles.csv"
expect_eq "$(rules)" "['ecmp-balance.oversubscription', 'rail-alignment.cross-rail', 'rail-alignment.incomplete-host']" "compute-roles names them"

# a documented service role still leaves the host out, without a warning:
# node-03 (the host missing a NIC) as storage is not an incomplete rail host
printf 'node,role\nnode-03,storage\n' >"$TMP/storage.csv"
expect_rc 1 "$FL" check --format json "$C7" "$TMP/storage.csv"
expect_eq "$(rules)" "['ecmp-balance.oversubscription', 'rail-alignment.cross-rail']" "role=storage"

# design XML role= attributes: gpu-02's dual-port NIC with role="trainer"
sed '/system="gpu-02"/s/role="compute"/role="trainer"/' "$C8" >"$TMP/c08.xml"
expect_eq "$(grep -c 'role="trainer"' "$TMP/c08.xml")" 1 "c08 edited NIC"
expect_rc 1 "$FL" check --format json "$TMP/c08.xml"
expect_eq "$(jget "$TMP/out" "=[(f['evidence']['role'], f['evidence']['hosts']) for f in d['findings'] if f['rule'] == 'rail-alignment.unknown-role']")" \
  "[('trainer', ['gpu-02'])]" "design XML unknown role"

# on RoCE (Ethernet rates) a service host's NICs on compute rail leaves are
# cross-rail errors (they have their own network), whether the plan has a
# node per NIC or a host node with labelled ports
R=$FL_SRC/tests/data/cases/roce
printf 'node,role\nhost-02,storage\n' >"$TMP/st.csv"
for plan in roce-design.xml roce-design-ports.xml; do
  expect_rc 1 "$FL" check --format json "$R/$plan" "$TMP/st.csv"
  expect_eq "$(jget "$TMP/out" "=[f['message'] for f in d['findings'] if f['rule'].startswith('rail-alignment')]")" \
    "['storage NIC \"host-02 ens1f0np0\" is cabled to \"leaf-r0\" port 2, a compute leaf of rail 0; storage NICs belong on their own network', 'storage NIC \"host-02 ens2f0np0\" is cabled to \"leaf-r1\" port 2, a compute leaf of rail 1; storage NICs belong on their own network']" \
    "RoCE storage NICs ($plan)"
done
finish
