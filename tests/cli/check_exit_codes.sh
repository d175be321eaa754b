# SPDX-License-Identifier: MIT
# check/info on real dumps (tests/data/external) and scripted edits of them:
# exit codes 0/1/2, exact counts, findings naming nodes, determinism.
. "$(dirname "$0")/lib.bash"
EX="$FL_EXTERNAL/NVIDIA__topograph__tests__output__ibnetdiscover__example.out"
need_external NVIDIA__topograph__tests__output__ibnetdiscover__example.out \
  NVIDIA__topograph__tests__output__ibnetdiscover__example-bad.out \
  jabl__ibtopotool__tests__1.topo Mellanox__ufm_sdk_3.0__topo__small_topo_file

# Independent counts with grep: 40 switches, 582 CAs, 2228 port lines = 1114 cables
expect_eq "$(grep -c '^Switch' "$EX")" 40 "grep switches"
expect_eq "$(grep -c '^Ca' "$EX")" 582 "grep CAs"
expect_eq "$(grep -c '^\[' "$EX")" 2228 "grep port lines"

expect_rc 0 "$FL" info --format json "$EX"
expect_eq "$(jget "$TMP/out" "['fabric']['switches']")" 40 switches
expect_eq "$(jget "$TMP/out" "['fabric']['cas']")" 582 cas
expect_eq "$(jget "$TMP/out" "['fabric']['routers']")" 0 routers
expect_eq "$(jget "$TMP/out" "['fabric']['links']")" 1114 links
expect_eq "$(jget "$TMP/out" "['aggregation_nodes']")" 40 "aggregation nodes"
expect_eq "$(jget "$TMP/out" "['link_types']['4xNDR']")" 1114 "4xNDR links"
expect_eq "$(jget "$TMP/out" "['inputs'][0]['format']")" ibnetdiscover format

# a clean real fabric: exit 0, no finding
# The capture's leaves lack 2-4 uplinks their peers have (topology.missing-uplinks,
# judged TRUE in docs/real-fabrics.md); here it serves as a fabric otherwise clean
# under the topology rules, so that rule is held to 1.2:1.
TD="--rules topology.*,deadlock.* --param topology.missing-uplinks.max-ratio=1.2"
expect_rc 0 "$FL" check $TD "$EX"
expect_grep "$TMP/out" '^0 error\(s\), 0 warning\(s\), 1 info; 28 rule\(s\) run$'
# the one info is the deadlock verdict: 31 leaves (SHARP ANs are switch traffic)
# no LFTs: the routing judged is modelled, up*/down* for this 2-tier Clos
expect_grep "$TMP/out" 'info: modelled updn routing of 31 destination switches from 31 source switches: no credit loop .*engine chosen from the shape: 40 switches in tiers 1-2\) \[deadlock\.verdict\]$'
expect_rc 0 "$FL" check $TD --format json "$EX"
expect_eq "$(jget "$TMP/out" "['summary']")" "{'error': 0, 'warning': 0, 'info': 1}" summary
# ... but its rails are not clean: NVIDIA's public sample has one crossed
# pair (b08-p1-dgx-08-c01 HCA-5 on leaf 04-08, HCA-6 on leaf 03-08, while
# c04..c18 have HCA-5 on 03-08 and HCA-6 on 04-08): exit 1, one error
expect_rc 1 "$FL" check --format json "$EX"
# (and 10 leaves short of the uplinks their peers have: topology.missing-uplinks)
expect_eq "$(jget "$TMP/out" "=sorted(set(f['rule'] for f in d['findings'] if f['severity'] == 'error'))")" "['rail-alignment.swapped', 'topology.missing-uplinks']" "real swap"
expect_eq "$(jget "$TMP/out" "=len([f for f in d['findings'] if f['rule'] == 'topology.missing-uplinks'])")" 10 "leaves short of uplinks"
expect_eq "$(jget "$TMP/out" "=[f['evidence']['cables'] for f in d['findings'] if f['rule'] == 'rail-alignment.swapped'][0]")" \
  "[{'fix_leaf': 'MF0;B09-P1-IBLEAF-03-08:MQM9701/U1', 'fix_port': 1, 'nic': 'b08-p1-dgx-08-c01 HCA-5', 'nic_rail': 'HCA-5', 'now_leaf': 'MF0;B09-P1-IBLEAF-04-08:MQM9701/U1', 'now_port': 1}, {'fix_leaf': 'MF0;B09-P1-IBLEAF-04-08:MQM9701/U1', 'fix_port': 1, 'nic': 'b08-p1-dgx-08-c01 HCA-6', 'nic_rail': 'HCA-6', 'now_leaf': 'MF0;B09-P1-IBLEAF-03-08:MQM9701/U1', 'now_port': 1}]" "real swap fix"
# NICs with factory descriptions (69), and the one host "ubuntu" named in
# another scheme whose 2 cables nothing else vouches for, are listed, not
# guessed; the 17 hosts a08-p1-dgx-04-c01..c17 named mlx5_0/1/4/5 (the
# NVIDIA/nccl#1277 naming) have the leaves of their SU to themselves, one
# name per leaf: their names are that SU's rails (rail_naming.c)
expect_eq "$(jget "$TMP/out" "=sorted(f['evidence']['count'] for f in d['findings'] if f['rule'] == 'rail-alignment.unresolved')")" "[2, 69]" "real unresolved" 
expect_eq "$(jget "$TMP/out" "['tool']['name']")" fabriclint tool

# one cable listed from one end only (switch port 1 line deleted): exit 1
sed '11d' "$EX" > "$TMP/one-sided.out"
expect_rc 1 "$FL" check --rules 'topology.*' --param topology.missing-uplinks.max-ratio=1.2 --format json "$TMP/one-sided.out"
expect_eq "$(jget "$TMP/out" "['summary']['error']")" 1 "one error"
expect_eq "$(jget "$TMP/out" "['findings'][0]['rule']")" topology.one-sided-link rule
expect_eq "$(jget "$TMP/out" "['findings'][0]['nodes']")" \
  "['a08-p1-dgx-04-c01 mlx5_5', 'MF0;A09-P1-IBLEAF-04-04:MQM9701/U1']" nodes
expect_eq "$(jget "$TMP/out" "['findings'][0]['ports']")" \
  "[{'node': 'a08-p1-dgx-04-c01 mlx5_5', 'port': 1}, {'node': 'MF0;A09-P1-IBLEAF-04-04:MQM9701/U1', 'port': 1}]" ports
expect_eq "$(jget "$TMP/out" "['findings'][0]['location']['file']")" "$TMP/one-sided.out" file
# --fail-on never: the same findings, exit 0
expect_rc 0 "$FL" check --fail-on never "$TMP/one-sided.out"
expect_grep "$TMP/out" 'error: cable a08-p1-dgx-04-c01 mlx5_5 port 1 -> MF0;A09-P1-IBLEAF-04-04:MQM9701/U1 port 1 is listed only by .* \[topology\.one-sided-link\]$'

# truncated dump: exit 2 with file:line: what was expected
head -c 150000 "$EX" > "$TMP/trunc.out"
expect_rc 2 "$FL" check "$TMP/trunc.out"
expect_grep "$TMP/err" "trunc\.out:1885(:[0-9]+)?: truncated"
# corrupted GUID in a port line
sed '11s/"H-e09d7303007a4bd8"/"H-e09d73zz07a4bd8"/' "$EX" > "$TMP/corrupt.out"
expect_rc 2 "$FL" check "$TMP/corrupt.out"
expect_grep "$TMP/err" "corrupt\.out:11(:[0-9]+)?: "
# unreadable, empty, binary cache, unknown formats
expect_rc 2 "$FL" check "$TMP/does-not-exist"
expect_grep "$TMP/err" "does-not-exist: cannot read"
: > "$TMP/empty"
expect_rc 2 "$FL" check "$TMP/empty"
expect_grep "$TMP/err" "empty: file is empty"
printf '\x2b\x83\xe7\x8f\x01\x00\x00\x00' > "$TMP/cache.bin"
expect_rc 2 "$FL" check "$TMP/cache.bin"
expect_grep "$TMP/err" "ibnetdiscover --cache file"
printf 'Switch 8 "S-0000000000000001"\n[1] x\0y\n' > "$TMP/nul.txt"
expect_rc 2 "$FL" check "$TMP/nul.txt"
expect_grep "$TMP/err" "nul.txt:2:6: NUL byte"
echo "hello world" > "$TMP/hello.txt"
expect_rc 2 "$FL" check "$TMP/hello.txt"
expect_grep "$TMP/err" "unrecognised format"
# usage errors
expect_rc 2 "$FL" check
expect_rc 2 "$FL" check --format yaml "$EX"
expect_rc 2 "$FL" check --fail-on sometimes "$EX"
expect_rc 2 "$FL" frobnicate
expect_rc 2 "$FL" check --output "$EX" "$EX"
expect_grep "$TMP/err" "would overwrite an input; refusing"
# nothing the user gave is ever written: inputs, files inside input folders,
# the policy, the baseline read, the node-name map
cp "$EX" "$TMP/in.ib"; cp "$TMP/in.ib" "$TMP/in.orig"
printf 'version: 1\n' > "$TMP/p.yaml"
expect_rc 2 "$FL" check --write-baseline "$TMP/in.ib" "$TMP/in.ib"
expect_rc 2 "$FL" check --policy "$TMP/p.yaml" --output "$TMP/p.yaml" "$TMP/in.ib"
expect_grep "$TMP/err" "would overwrite the policy"
"$FL" check --exit-zero --write-baseline "$TMP/b.json" "$TMP/in.ib" >/dev/null 2>&1
expect_rc 2 "$FL" check --baseline "$TMP/b.json" --output "$TMP/b.json" "$TMP/in.ib"
expect_rc 2 "$FL" check --write-baseline "$TMP/x.json" --output "$TMP/x.json" "$TMP/in.ib"
mkdir "$TMP/caps"; cp "$FL_SRC"/fabrics/diff/lldp/*.xml "$TMP/caps/"
expect_rc 2 "$FL" diff --output "$TMP/caps/SPINE-01.xml" "$FL_SRC/fabrics/diff/lldp-design.xml" "$TMP/caps"
if cmp -s "$TMP/in.ib" "$TMP/in.orig" && cmp -s "$TMP/caps/SPINE-01.xml" "$FL_SRC/fabrics/diff/lldp/SPINE-01.xml" && grep -q version "$TMP/p.yaml" && [ -s "$TMP/b.json" ]; then pass; else fail "an input was modified"; fi

# determinism: byte-identical output for identical inputs
"$FL" check --format json --fail-on never "$TMP/one-sided.out" > "$TMP/a.json"
"$FL" check --format json --fail-on never "$TMP/one-sided.out" > "$TMP/b.json"
sed -i '/"seconds"/d' "$TMP/a.json" "$TMP/b.json"
if cmp -s "$TMP/a.json" "$TMP/b.json"; then pass; else fail "json output differs between runs"; fi

# the deliberately broken public sample: one CA with no cable -> warning
BAD="$FL_EXTERNAL/NVIDIA__topograph__tests__output__ibnetdiscover__example-bad.out"
expect_rc 0 "$FL" check "$BAD"
expect_grep "$TMP/out" 'warning: CA "dgx-gb200-n01-c1 HCA-1" has no cable.* \[topology\.unlinked-ca\]$'
expect_rc 1 "$FL" check --fail-on warning "$BAD"

# the man-page sample: two cables whose ends disagree on width
M1="$FL_EXTERNAL/jabl__ibtopotool__tests__1.topo"
expect_rc 1 "$FL" check --rules 'topology.*' --format json "$M1"
expect_eq "$(jget "$TMP/out" "=[f['rule'] for f in d['findings']]")" \
  "['topology.link-mismatch', 'topology.link-mismatch']" "1.topo rules"
expect_eq "$(jget "$TMP/out" "['findings'][0]['evidence']")" "{'end_a': '4xSDR', 'end_b': '1xSDR'}" evidence
# small_topo_file: two self-loop cables on the SX6036
ST="$FL_EXTERNAL/Mellanox__ufm_sdk_3.0__topo__small_topo_file"
expect_rc 0 "$FL" check --format json --rules 'topology.self-loop' "$ST"
expect_eq "$(jget "$TMP/out" "=[p['port'] for f in d['findings'] for p in f['ports']]")" "[25, 26, 28, 29]" "self-loop ports"
# an empty capture or plan is no clean fabric: exit 2, not a green CI gate
mkdir -p "$TMP/emptylldp"
printf '<?xml version="1.0"?>\n<lldp label="LLDP neighbors"/>\n' >"$TMP/emptylldp/sw1.xml"
printf '<fabric xmlns="urn:fabriclint:design:1" version="1"></fabric>\n' >"$TMP/empty-plan.xml"
for e in "$TMP/emptylldp" "$TMP/empty-plan.xml"; do
  expect_rc 2 "$FL" check "$e"
  expect_grep "$TMP/err" 'the inputs describe no node: nothing to check'
done
# a header that declares no port would switch the port-range check off
sed '10s/^Switch\t64 /Switch\t0 /' "$FL_SRC/fabrics/rail-su.ibnetdiscover" >"$TMP/zero-ports.ibnetdiscover"
expect_rc 2 "$FL" check "$TMP/zero-ports.ibnetdiscover"
expect_grep "$TMP/err" 'zero-ports.ibnetdiscover:10:8: port count 0 is out of range \(allowed 1..255\)'
# annotation tiers are checked as design XML checks them (0..255)
for v in abc -1 256 99999999999; do
  printf 'node,tier\nleaf-su01-r0,%s\n' "$v" >"$TMP/tier.csv"
  expect_rc 2 "$FL" info "$FL_SRC/fabrics/rail-su.ibnetdiscover" "$TMP/tier.csv"
  expect_grep "$TMP/err" "tier.csv:2:1: tier=$v: expected a number 0\.\.255"
done
printf 'node,tier\nleaf-su01-r0,2\n' >"$TMP/tier.csv"
expect_rc 0 "$FL" info --format json "$FL_SRC/fabrics/rail-su.ibnetdiscover" "$TMP/tier.csv"
finish
