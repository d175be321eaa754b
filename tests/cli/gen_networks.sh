#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/cli/gen_networks.sh — `fabriclint gen ... --storage-nodes N
# --inband-mgmt` (issue 34 §3, docs/cli.md "gen", fabriclint/gen.h
# fl_gen_networks_params): the storage fabric and the in-band management
# network, each written as a plan of its own beside the compute plan.
# Counts by hand for 2 SUs x 4 hosts x 2 rails, radix 8, 2 storage servers:
#  storage: E = 8 + 2 = 10 endpoints, h = 4 per leaf, ceil(10/4) = 3 leaf
#    pairs = 6 leaves; spines: smallest divisor P >= 2 of 4 with 6*4/P <= 8
#    is 4 (2 gives 12 > 8), one cable per leaf-spine pair; 10 switches,
#    2 x 10 = 20 CAs, 20 + 6 x 4 = 44 cables;
#  in-band: SU 1 (4 hosts) 1 leaf, SU 2 1 leaf, the 2 servers 1 leaf: 3
#    leaves; 3*4/2 = 6 <= 8: 2 spines, 2 cables per pair; 5 switches, 10
#    CAs, 10 + 3 x 4 = 22 cables;
#  compute: 6 switches, 16 CAs, 32 cables, byte for byte today's plan.
. "$(dirname "$0")/lib.bash"
G=(rail-su --sus 2 --rails 2 --hosts-per-su 4 --leaf-radix 8)
# node ATTR FILE NAME — attribute ATTR of node NAME
node() { grep -o "<node [^>]*name=\"$3\"[^>]*" "$2" | grep -o " $1=\"[^\"]*\"" | cut -d'"' -f2; }
# counts FILE — "switches CAs cables"
counts() { echo "$(grep -c '<node kind="switch"' "$1") $(grep -c '<node kind="ca"' "$1") $(grep -c '<link ' "$1")"; }

# ---- no options: today's output, byte for byte (sha256 of the plans the
# commit before this feature wrote)
expect_eq "$("$FL" gen "${G[@]}" --layout | sha256sum | cut -d' ' -f1)" \
  c923a138113f4cc830c7bbb9ffabd8968043494bda06494ca76eda764d8eeaaa "laid-out plan unchanged"
expect_eq "$("$FL" gen "${G[@]}" | sha256sum | cut -d' ' -f1)" \
  1281985e864f33ac8a610c90a7bce5fae66edd7a2857494b827e826a04241e3f "plain plan unchanged"

# ---- both networks: three plans, the compute one unchanged
"$FL" gen "${G[@]}" --layout -o "$TMP/base.xml" || fail "gen"
expect_rc 0 "$FL" gen "${G[@]}" --layout --storage-nodes 2 --inband-mgmt -o "$TMP/plan.xml"
cmp -s "$TMP/base.xml" "$TMP/plan.xml" && pass || fail "compute plan differs with the networks"
expect_eq "$(counts "$TMP/plan.xml")" "6 16 32" "compute counts"
expect_eq "$(counts "$TMP/plan.storage.xml")" "10 20 44" "storage counts"
expect_eq "$(counts "$TMP/plan.inband.xml")" "5 10 22" "in-band counts"
expect_eq "$(grep -o 'name="stor-[a-z]*-[0-9]*"' "$TMP/plan.storage.xml" | cut -d'"' -f2 | tr '\n' ' ')" \
  "stor-leaf-01 stor-leaf-02 stor-leaf-03 stor-leaf-04 stor-leaf-05 stor-leaf-06 stor-spine-01 stor-spine-02 stor-spine-03 stor-spine-04 " "storage switches"
# roles: every CA of a network plan has that network's role; hosts keep
# their names, with NICs after the compute ones (mlx5_2, mlx5_3; mlx5_4)
expect_eq "$(grep -o '<node kind="ca"[^>]*' "$TMP/plan.storage.xml" | grep -o 'role="[^"]*"' | sort | uniq -c | tr -s ' ')" " 20 role=\"storage\"" "storage roles"
expect_eq "$(grep -o '<node kind="ca"[^>]*' "$TMP/plan.inband.xml" | grep -o 'role="[^"]*"' | sort | uniq -c | tr -s ' ')" " 10 role=\"inband\"" "in-band roles"
expect_eq "$(grep -o '<node kind="ca"[^>]*' "$TMP/plan.xml" | grep -o 'role="[^"]*"' | sort | uniq -c | tr -s ' ')" " 16 role=\"compute\"" "compute roles"
expect_eq "$(grep -o '<link a="dgx-001 [^>]*' "$TMP/plan.storage.xml" | sed -E 's/<link a="([^"]*)" a-port="1" b="([^"]*)" b-port="([0-9]*)".*/\1>\2:\3/' | tr '\n' ' ')" \
  "dgx-001 mlx5_2>stor-leaf-01:1 dgx-001 mlx5_3>stor-leaf-02:1 " "dgx-001's two storage NICs on a leaf pair"
expect_eq "$(grep -o '<link a="storage-002 [^>]*' "$TMP/plan.storage.xml" | sed -E 's/<link a="([^"]*)" a-port="1" b="([^"]*)" b-port="([0-9]*)".*/\1>\2:\3/' | tr '\n' ' ')" \
  "storage-002 mlx5_0>stor-leaf-05:2 storage-002 mlx5_1>stor-leaf-06:2 " "endpoint 10 on the third pair, port 2"
expect_eq "$(grep -o '<link a="dgx-00[45] [^>]*' "$TMP/plan.inband.xml" | sed -E 's/<link a="([^"]*)" a-port="1" b="([^"]*)" b-port="([0-9]*)".*/\1>\2:\3/' | tr '\n' ' ')" \
  "dgx-004 mlx5_4>inb-leaf-01:4 dgx-005 mlx5_4>inb-leaf-02:1 " "in-band leaves per SU"
expect_eq "$(grep -c 'a="inb-leaf-03" a-port="[0-9]*" b="inb-spine-02"' "$TMP/plan.inband.xml")" 2 "2 cables per in-band leaf-spine pair"
expect_eq "$(grep -o '<link a="storage-001 mlx5_2"[^>]*' "$TMP/plan.inband.xml" | grep -o 'speed="[^"]*"')" 'speed="100G"' "in-band is 100GbE"
# the storage fabric is its own subnet (LIDs from 1); in-band has none
expect_eq "$(grep -A1 'name="stor-leaf-01"' "$TMP/plan.storage.xml" | grep -o 'lid="[0-9]*"')" 'lid="1"' "storage LIDs from 1"
expect_eq "$(grep -c 'lid=' "$TMP/plan.inband.xml")" 0 "no LIDs in-band"
"$FL" gen "${G[@]}" --no-lids --storage-nodes 2 -o "$TMP/nolid.xml" || fail "gen --no-lids"
expect_eq "$(grep -c 'lid=' "$TMP/nolid.xml") $(grep -c 'lid=' "$TMP/nolid.storage.xml")" "0 0" "--no-lids: no LIDs in either plan"

# ---- layout: a host stands in one place for all its NICs; each network
# after the compute fabric (storage row R03, in-band row R04)
expect_eq "$(node rack "$TMP/plan.storage.xml" "dgx-005 mlx5_3")/$(node u "$TMP/plan.storage.xml" "dgx-005 mlx5_3")" \
  "$(node rack "$TMP/plan.xml" "dgx-005 mlx5_0")/$(node u "$TMP/plan.xml" "dgx-005 mlx5_0")" "storage NIC in its host's rack and U"
expect_eq "$(node rack "$TMP/plan.storage.xml" storage-001\ mlx5_0) $(node rack "$TMP/plan.storage.xml" stor-leaf-06) $(node rack "$TMP/plan.storage.xml" stor-spine-03)" \
  "R03-01 R03-02 R03-03" "storage servers, leaves, a spine in row 3"
expect_eq "$(node rack "$TMP/plan.inband.xml" inb-leaf-01) $(node rack "$TMP/plan.inband.xml" inb-spine-02)" "R04-01 R02-05" "in-band in row 4, spines over two rows"
# dgx-001 (R01-01 U1) to stor-leaf-01 (R03-02 U1): 2 x 42 U x 44.45 mm +
# 2 x 0.5 m + 1 x 0.6 m + 2 x 2.4 m + 1 m = 11.13 m -> 15 m, optical
expect_eq "$(grep -o '<link a="dgx-001 mlx5_2"[^>]*' "$TMP/plan.storage.xml" | grep -o 'length="[^"]*" media="[^"]*"')" 'length="15" media="optical"' "storage cable length"
expect_eq "$(grep -o 'cable="C[0-9]*"' "$TMP/plan.xml" "$TMP/plan.storage.xml" "$TMP/plan.inband.xml" | cut -d: -f2 | sort -u | wc -l)" 98 "98 cable ids, unique across the plans"

# ---- check: no finding on any of the three
for f in plan plan.storage plan.inband; do
  expect_rc 0 "$FL" check "$TMP/$f.xml"
  expect_grep "$TMP/out" '^0 error\(s\), 0 warning\(s\), 0 info; '
done

# ---- bom: each network's switches and cables
expect_rc 0 "$FL" bom "$TMP/plan.storage.xml"
expect_eq "$(python3 -c "import csv,sys; r=list(csv.DictReader(open(sys.argv[1]))); print(sum(int(x['count']) for x in r if x['category']=='switch'), sum(int(x['count']) for x in r if x['category']=='cable'))" "$TMP/out")" "10 44" "bom storage: switches, cables"
expect_rc 0 "$FL" bom "$TMP/plan.inband.xml"
expect_eq "$(python3 -c "import csv,sys; r=list(csv.DictReader(open(sys.argv[1]))); print(sum(int(x['count']) for x in r if x['category']=='switch'), sum(int(x['count']) for x in r if x['category']=='cable'))" "$TMP/out")" "5 22" "bom in-band: switches, cables"

# ---- compare and diff read them as any plan
expect_rc 0 "$FL" compare "$TMP/base.xml" "$TMP/plan.xml"
expect_rc 0 "$FL" diff "$TMP/plan.storage.xml" "$TMP/plan.storage.xml"
expect_rc 0 "$FL" diff "$TMP/plan.inband.xml" "$TMP/plan.inband.xml"

# ---- one network alone; the DGX H100 map's non-compute devices
expect_rc 0 "$FL" gen rail-su --sus 1 --rails 8 --hosts-per-su 4 --leaf-radix 16 --storage-nodes 1 -o "$TMP/dgx.xml"
[ -e "$TMP/dgx.inband.xml" ] && fail "in-band plan without --inband-mgmt" || pass
expect_eq "$(grep -o 'name="dgx-001 mlx5_[0-9]*"' "$TMP/dgx.storage.xml" | tr '\n' ' ')" 'name="dgx-001 mlx5_1" name="dgx-001 mlx5_7" ' "DGX storage devices"
expect_rc 0 "$FL" check "$TMP/dgx.storage.xml"
expect_grep "$TMP/out" '^0 error\(s\), 0 warning\(s\), 0 info; '

# ---- an in-band leaf holds hosts of one SU only: 3 hosts per SU on radix 8
# (4 ports down) leave a port free on each SU's leaf rather than filling it
# with the next SU's first host
expect_rc 0 "$FL" gen rail-su --sus 2 --rails 2 --hosts-per-su 3 --leaf-radix 8 --inband-mgmt -o "$TMP/su3.xml"
expect_eq "$(grep -o '<link a="dgx-00[34] [^>]*' "$TMP/su3.inband.xml" | sed -E 's/<link a="([^"]*)" a-port="1" b="([^"]*)" b-port="([0-9]*)".*/\1>\2:\3/' | tr '\n' ' ')" \
  "dgx-003 mlx5_4>inb-leaf-01:3 dgx-004 mlx5_4>inb-leaf-02:1 " "SU 2 starts its own in-band leaf"
expect_eq "$(counts "$TMP/su3.inband.xml")" "4 6 14" "in-band: 2 leaves + 2 spines, 6 NICs, 6 + 2 x 4 cables"

# ---- refused: no -o, another format, a network beyond one spine layer
expect_rc 2 "$FL" gen "${G[@]}" --inband-mgmt
expect_grep "$TMP/err" 'inband-mgmt writes one design XML plan per network: give -o FILE.xml'
# -o - is standard output, as for every command: no file "-" (and no
# "-.storage.xml"), which gen wrote in the working folder
mkdir -p "$TMP/cwd"
(cd "$TMP/cwd" && "$FL" gen "${G[@]}" --storage-nodes 1 -o - >"$TMP/out" 2>"$TMP/err"; echo $? >"$TMP/rc")
expect_eq "$(cat "$TMP/rc")" 2 "--storage-nodes with -o -: exit 2"
expect_grep "$TMP/err" 'storage-nodes writes one design XML plan per network: give -o FILE.xml'
expect_eq "$(ls -A "$TMP/cwd" | tr '\n' ' ')" "" "no file named - written"
rm -rf "$TMP/cwd" && mkdir "$TMP/cwd"
(cd "$TMP/cwd" && "$FL" gen "${G[@]}" -o - >"$TMP/out")
expect_eq "$(grep -c '<node kind="switch"' "$TMP/out") $(ls -A "$TMP/cwd" | wc -l)" "6 0" "gen -o -: the plan on standard output"
expect_rc 2 "$FL" gen "${G[@]}" --storage-nodes 1 --format ibnetdiscover -o "$TMP/x.ibnd"
expect_grep "$TMP/err" 'storage-nodes writes one design XML plan per network'
expect_rc 2 "$FL" gen "${G[@]}" --storage-nodes 9 -o "$TMP/big.xml"
expect_grep "$TMP/err" 'the storage fabric of 8 hosts and 9 storage servers needs 10 leaves of 8 ports, more than one spine layer takes \(8\)'
[ -e "$TMP/big.xml" ] && fail "a refused plan was written" || pass
finish
