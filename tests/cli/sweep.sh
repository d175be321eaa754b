#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/cli/sweep.sh — `fabriclint sweep` (issue 34 §3, docs/cli.md "sweep"):
# one design per combination of --vary values, each evaluated as compare
# evaluates a side, one row each, the Pareto front marked. Figures counted
# by hand (tests/cli/compare_cost.sh, compare_workload.sh): 2 SUs x 4 hosts
# x 2 rails, 8-port leaves, the hand-count catalogue (switch 10 and 100 W).
#   spines=2: 6 switches, 32 cables, 272 and 1152 W; all-to-all 53.57 GB/s.
#   spines=4: the same 32 cables, each leaf's 4 uplinks one to each of 4
#   spines: 2 more switches, 292 and 1352 W, the same eBB and busbw:
#   dominated (no); spines=2 on the front (yes).
#   oversubscription=2:1: 224 and 1016 W, a2a 46.875: cheaper but slower,
#   on the front beside 1:1.
#   sus=1 (2 leaves, 2 spines in R01-03 and R01-04, every cable 7 m): 1:1
#   4x10 + 16x2 + 8x3 + (2x4 + 2x2 cages)x4.5 = 150; 2:1 (2 uplinks per
#   leaf, one per spine) 40 + 12x2 + 24 + (2x3 + 2x1)x4.5 = 124.
. "$(dirname "$0")/lib.bash"
CAT=$FL_SRC/tests/fixtures/bom/hand-count.yaml
G=(rail-su --sus 2 --rails 2 --hosts-per-su 4 --leaf-radix 8 --layout)
cat >"$TMP/wl.yaml" <<'EOT'
hosts: all
collectives:
  - {op: all-to-all, bytes: 1GiB, name: experts}
EOT
rows() { python3 -c "import csv, sys; print([(r['design'], r['switches'], r['cables'], r['price'], r['watts'], r['ebb'], r['busbw_GBps all-to-all \"experts\"'], r['pareto']) for r in csv.DictReader(open(sys.argv[1]))])" "$TMP/out"; }
expect_rc 0 "$FL" sweep --format csv --catalogue "$CAT" --workload "$TMP/wl.yaml" --vary spines=2,4 -- "${G[@]}"
expect_eq "$(rows)" \
  "[('1', '6', '32', '272', '1152', '1', '53.5714285714', 'yes'), ('2', '8', '32', '292', '1352', '1', '53.5714285714', 'no')]" \
  "two more spines: dearer, no better: dominated"
# two --vary options: every combination, the last one fastest
expect_rc 0 "$FL" sweep --format csv --catalogue "$CAT" --workload "$TMP/wl.yaml" --vary oversubscription=1:1,2:1 --vary sus=1,2 -- "${G[@]}"
expect_eq "$(python3 -c "import csv; print([(r['oversubscription'], r['sus'], r['hcas'], r['price'], r['pareto']) for r in csv.DictReader(open('$TMP/out'))])")" \
  "[('1:1', '1', '8', '150', 'yes'), ('1:1', '2', '16', '272', 'yes'), ('2:1', '1', '8', '124', 'yes'), ('2:1', '2', '16', '224', 'yes')]" \
  "2 x 2 designs, all on the front (size, cost, eBB and busbw trade)"
expect_eq "$(python3 -c "import csv; print([(r['ebb'], r['busbw_GBps all-to-all \"experts\"']) for r in csv.DictReader(open('$TMP/out')) if r['sus'] == '2'])")" \
  "[('1', '53.5714285714'), ('0.62375', '46.875')]" "2 SUs: 1:1 and 2:1 as compare gives them"
# two designs alike in every figure (only the host names differ): neither
# dominates the other, both on the front
expect_rc 0 "$FL" sweep --format csv --vary host-prefix=dgx,node -- "${G[@]}"
expect_eq "$(python3 -c "import csv; print([(r['host-prefix'], r['pareto']) for r in csv.DictReader(open('$TMP/out'))])")" \
  "[('dgx', 'yes'), ('node', 'yes')]" "equal designs: both on the front"
# JSON: the side documents as compare's, the front
expect_rc 0 "$FL" sweep --format json --catalogue "$CAT" --vary spines=2,4 -- "${G[@]}"
expect_eq "$(jget "$TMP/out" "=[(x['vary'], x['pareto'], x['design']['input'], x['design']['cost']['price'], x['design']['domain_failures']['rack']['servers_off']) for x in d['designs']]")" \
  "[({'spines': '2'}, True, 'spines=2', 272.0, 4), ({'spines': '4'}, False, 'spines=4', 292.0, 4)]" "JSON"
# the text table
expect_rc 0 "$FL" sweep --catalogue "$CAT" --vary spines=2,4 -- "${G[@]}"
expect_grep "$TMP/out" '^spines=4 +8 +32 +16 +1 +4 +292 +1352  no$'
# refused: no --vary, nothing after --, a value gen refuses, too many designs
expect_rc 2 "$FL" sweep -- "${G[@]}"
expect_grep "$TMP/err" 'sweep needs --vary OPTION=V1,V2,...'
expect_rc 2 "$FL" sweep --vary spines=2,4
expect_grep "$TMP/err" 'sweep needs the generator after --'
expect_rc 2 "$FL" sweep --vary spines=2,3 -- "${G[@]}"
expect_grep "$TMP/err" '^fabriclint sweep: design 2 \(spines=3\): gen refused it$'
expect_rc 2 "$FL" sweep --vary sus=1,2,3,4,5,6,7,8 --vary spines=1,2,3,4,5,6,7,8,9 -- "${G[@]}"
expect_grep "$TMP/err" '--vary: 72 designs, at most 64'
expect_rc 2 "$FL" sweep --vary spines=2,,4 -- "${G[@]}"
expect_grep "$TMP/err" "--vary spines: an empty value in '2,,4'"
expect_rc 2 "$FL" sweep --vary spines=2 --vary spines=4 -- "${G[@]}"
expect_grep "$TMP/err" '--vary spines given twice'
# without --workload: no busbw column (the figures of a design without
# collectives were read unset once: a crash past 32 designs, an outside
# tester), the front judged on the rest
expect_rc 0 "$FL" sweep --format csv --vary sus=1,2,3 --vary hosts-per-su=1,2 -- rail-su --rails 2 --leaf-radix 16
expect_eq "$(head -1 "$TMP/out" | tr -d '\r')" "design,sus,hosts-per-su,switches,cables,hcas,ebb,worst_domain_servers_off,worst_domain,price,watts,pareto" "no workload: no busbw column"
expect_eq "$(($(wc -l <"$TMP/out") - 1))" 6 "3 x 2 designs"
# a comma inside a value: \,
expect_rc 0 "$FL" sweep --format csv --vary 'hca-map=mlx5_0\,mlx5_1,ib0\,ib1' -- "${G[@]}"
expect_eq "$(python3 -c "import csv; print([r['hca-map'] for r in csv.DictReader(open('$TMP/out'))])")" "['mlx5_0,mlx5_1', 'ib0,ib1']" "escaped commas"
# refused: a repeated value, -o onto an input, what sweep sets among gen's
# options, more collectives than the table holds
expect_rc 2 "$FL" sweep --vary sus=2,2 -- "${G[@]}"
expect_grep "$TMP/err" "--vary sus: the value '2' given twice"
expect_rc 2 "$FL" sweep --workload "$TMP/wl.yaml" -o "$TMP/wl.yaml" --vary spines=2,4 -- "${G[@]}"
expect_eq "$(head -1 "$TMP/wl.yaml")" "hosts: all" "the workload is not written over"
expect_rc 2 "$FL" sweep --vary spines=2,4 -- "${G[@]}" -o "$TMP/x.xml"
expect_grep "$TMP/err" "sweep writes each design itself: '-o' does not belong among the generator's options after --"
expect_rc 2 "$FL" sweep --vary spines=2,4 -- "${G[@]}" --dry-run
# the storage and in-band networks are plans of their own, which sweep does
# not read: every design came out the same (both "pareto yes"); refused
expect_rc 2 "$FL" sweep --vary storage-nodes=2,4 -- "${G[@]}"
expect_grep "$TMP/err" "--vary storage-nodes: sweep evaluates the compute fabric only; the storage network is a plan of its own"
expect_rc 2 "$FL" sweep --vary spines=2,4 -- "${G[@]}" --inband-mgmt
expect_grep "$TMP/err" "sweep evaluates the compute fabric only: '--inband-mgmt' writes a plan of its own"
# what sweep sets is no --vary option either (--vary output=... was run
# and its values ignored)
expect_rc 2 "$FL" sweep --vary output=a.xml,b.xml -- "${G[@]}"
expect_grep "$TMP/err" "--vary output: sweep writes each design itself, in design XML"
# the --vary names are the options above without their dashes: -o too
expect_rc 2 "$FL" sweep --vary o=a.xml,b.xml -- "${G[@]}"
expect_grep "$TMP/err" "--vary o: sweep writes each design itself, in design XML"
expect_rc 2 "$FL" sweep --vary inband-mgmt=0,1 -- "${G[@]}"
expect_grep "$TMP/err" "--vary inband-mgmt: sweep evaluates the compute fabric only; the in-band network is a plan of its own"
python3 -c "print('hosts: all'); print('collectives:'); [print('  - {op: all-to-all, bytes: 1GiB}') for _ in range(17)]" >"$TMP/wl17.yaml"
expect_rc 2 "$FL" sweep --workload "$TMP/wl17.yaml" --vary spines=2,4 -- "${G[@]}"
expect_grep "$TMP/err" 'wl17\.yaml: 17 collectives, sweep tabulates at most 16'
finish
