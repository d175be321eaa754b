#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/cli/compare_usage.sh — `compare` refuses what it cannot do, with
# exit 2 and a message (docs/cli.md "compare"): operands, formats, bad or
# empty inputs, an output over an input, a gate that runs no rule; --with
# loads annotations into both sides; --help comes from the table.
. "$(dirname "$0")/lib.bash"
. "$(dirname "$0")/compare_lib.bash"
cmp_plans || { fail "gen"; finish; }
B=$TMP/base.xml O=$TMP/over.xml
expect_rc 2 "$FL" compare "$B"
expect_grep "$TMP/err" 'compare needs BASE and HEAD \(got fewer than two\)'
expect_rc 2 "$FL" compare "$B" "$O" "$B"
expect_grep "$TMP/err" 'got more than two inputs'
expect_rc 2 "$FL" compare --format sarif "$B" "$O"
expect_grep "$TMP/err" "expected text, json, markdown or html, got 'sarif'"
expect_rc 2 "$FL" compare "$B" "$TMP/nonexistent.xml"
expect_grep "$TMP/err" 'nonexistent.xml'
printf '<?xml version="1.0"?>\n<fabric xmlns="urn:fabriclint:design:1" version="1">\n<node kind="switch" name="a" ports="x"/>\n</fabric>\n' >"$TMP/bad.xml"
expect_rc 2 "$FL" compare "$B" "$TMP/bad.xml"
expect_grep "$TMP/err" 'bad.xml:3'
expect_rc 2 "$FL" compare -o "$B" "$B" "$O"
# -o onto the catalogue: refused, the catalogue kept (it was overwritten)
printf 'parts:\n  - {item: x, price: 1}\n' >"$TMP/cat.yaml"
cp "$TMP/cat.yaml" "$TMP/cat.keep"
expect_rc 2 "$FL" compare --catalogue "$TMP/cat.yaml" -o "$TMP/cat.yaml" "$B" "$O"
expect_grep "$TMP/err" 'cat.yaml: --output would overwrite .*cat.yaml, the catalogue this run reads; refusing'
cmp -s "$TMP/cat.yaml" "$TMP/cat.keep" && pass || fail "compare -o overwrote its catalogue"
expect_rc 2 "$FL" compare --no-builtin-plugins "$B" "$O"
expect_grep "$TMP/err" 'no rule ran'
expect_rc 2 "$FL" compare --rules 'nosuch.*' "$B" "$O"
expect_grep "$TMP/err" "selects no loaded rule"
expect_rc 2 "$FL" compare --with "$B" --with "$B" "$B" "$O"
# --rules narrows both sides alike; the capacity figures still come
expect_rc 0 "$FL" compare --format json --rules 'ecmp-balance.*' "$B" "$O"
expect_eq "$(jget "$TMP/out" "=[f['rule'] for f in d['findings']['new']]")" "['ecmp-balance.oversubscription']" "topology rules not run"
expect_eq "$(jget "$TMP/out" "['head']['capacity']['tiers']['1']['oversubscription']")" 2.0 "capacity with --rules"
# --policy: a waiver applies on both sides; a waived finding is counted,
# not compared
cat >"$TMP/policy.yaml" <<'YAML'
waivers:
  - rule: topology.missing-uplinks
    reason: "2:1 is the plan for this pod"
    expires: 2099-12-31
YAML
expect_rc 0 "$FL" compare --format json --policy "$TMP/policy.yaml" "$B" "$O"
expect_eq "$(jget "$TMP/out" "['head']['findings']['waived']")" 1 "waived in HEAD"
expect_eq "$(jget "$TMP/out" "=[f['rule'] for f in d['findings']['fixed']]")" "['policy.unused-waiver']" "BASE: the waiver was unused"
# --with: an annotation file loaded into both sides: a node only HEAD has
# is refused on the BASE side, naming the file
printf 'node,rack\nleaf-su03-r0,R03\n' >"$TMP/ann.csv"
expect_rc 2 "$FL" compare --with "$TMP/ann.csv" "$B" "$TMP/su3.xml"
expect_grep "$TMP/err" 'ann.csv:2'
printf '# unknown-nodes: warn\nnode,rack\nleaf-su03-r0,R03\n' >"$TMP/ann.csv"
expect_rc 0 "$FL" compare -q --with "$TMP/ann.csv" "$B" "$TMP/su3.xml"
# BASE from standard input (git show BASE:plan.xml | fabriclint compare - plan.xml)
"$FL" compare --format json - "$O" <"$B" >"$TMP/out" 2>"$TMP/err"
expect_eq "$?" 1 "BASE on standard input"
expect_eq "$(jget "$TMP/out" "=(d['base']['input'], d['delta']['inventory']['cables'])")" "('-', -8)" "stdin BASE read"
expect_rc 2 "$FL" compare - - <"$B"
expect_grep "$TMP/err" 'standard input given twice'
# help from the table
expect_rc 0 "$FL" compare --help
expect_grep "$TMP/out" '^usage: fabriclint compare \[OPTIONS\] BASE HEAD'
expect_grep "$TMP/out" 'oversubscription-rise'
finish
