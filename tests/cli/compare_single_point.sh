#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/cli/compare_single_point.sh — a single point of failure is the
# switch or the cable, not the list of endpoints it cuts off (outside
# tester, session 11: adding a host to a one-spine SU made `compare` call
# the same spine fixed and new, failing the new-error gate). Its
# fingerprint (fd_model.c fd_report_keyed()) holds when hosts are
# added; a different switch is a different finding.
# Plans from `fabriclint gen` (1 SU, 2 rails, one spine: --spines 1).
. "$(dirname "$0")/lib.bash"
for h in 4 5; do
  "$FL" gen rail-su --sus 1 --rails 2 --hosts-per-su "$h" --spines 1 -o "$TMP/s$h.xml"
done
sp() {
  expect_rc 1 "$FL" check --format json --rules failure-domains.single-point "$1"
  jget "$TMP/out" "=[(f['nodes'][0], f['fingerprint']) for f in d['findings']]"
}
s4=$(sp "$TMP/s4.xml")
s5=$(sp "$TMP/s5.xml")
expect_eq "$(echo "$s4" | grep -c spine-01)" "1" "4 hosts: spine-01 is the single point"
expect_eq "$s5" "$s4" "5 hosts: the same finding, the same fingerprint"
expect_rc 0 "$FL" compare --format json "$TMP/s4.xml" "$TMP/s5.xml"
expect_eq "$(jget "$TMP/out" "=[(k, [f['rule'] for f in d['findings'][k]]) for k in ('new', 'fixed', 'unchanged')]")" \
  "[('new', []), ('fixed', []), ('unchanged', ['failure-domains.single-point'])]" \
  "compare 4 -> 5 hosts: the single point unchanged, the gate passes"
# the spine renamed: another switch, another finding
sed 's/spine-01/spine-99/g' "$TMP/s4.xml" >"$TMP/s4r.xml"
expect_eq "$(sp "$TMP/s4r.xml" | grep -c "$(echo "$s4" | grep -o "'[0-9a-f]\{16\}'")")" "0" "another switch: another fingerprint"
finish
