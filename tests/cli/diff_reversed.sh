#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/cli/diff_reversed.sh — diff.reversed (core/diff/diff.c side_kind()):
# a DESIGN side whose cables are nine in ten observed (a dump) against an
# AS_BUILT side nine in ten declared (a plan) is compared the other way
# round, with a warning. The boundary: a gen dump of 18 cables plus a plan
# of 2 more (18 of 20 observed, exactly nine in ten) is a capture; plus 3
# more (18 of 21) is mixed and compared as given. The extra plans are
# design XML written here (a plan, not a tool's output).
. "$(dirname "$0")/lib.bash"
"$FL" gen fat-tree --radix 6 --hosts 9 --format ibnetdiscover -o "$TMP/c18.ibnd"
"$FL" gen fat-tree --radix 6 --hosts 9 -o "$TMP/p18.xml"
extra() { # N: a plan of N cables between two switches of their own
  local i
  printf '<?xml version="1.0" encoding="UTF-8"?>\n<fabric xmlns="urn:fabriclint:design:1" version="1">\n'
  printf '  <node kind="switch" name="lab-a" ports="8"/>\n  <node kind="switch" name="lab-b" ports="8"/>\n'
  for ((i = 1; i <= $1; i++)); do
    printf '  <link a="lab-a" a-port="%d" b="lab-b" b-port="%d" width="4x" speed="NDR"/>\n' "$i" "$i"
  done
  printf '</fabric>\n'
}
extra 2 >"$TMP/x2.xml"
extra 3 >"$TMP/x3.xml"
rules() { jget "$TMP/out" "=[(f['rule'], f['evidence'].get('swapped')) for f in d['findings']]"; }

# 18 of 20 observed: a capture, compared the other way round
expect_rc 1 "$FL" diff --format json --design "$TMP/c18.ibnd" --design "$TMP/x2.xml" --as-built "$TMP/p18.xml"
expect_eq "$(rules)" "[('diff.unexpected-node', None), ('diff.unexpected-node', None), ('diff.reversed', True)]" \
  "18 of 20 observed: reversed, the lab switches are what was built beyond the plan"
# 18 of 21: mixed, compared as given (the lab switches are planned, missing)
expect_rc 1 "$FL" diff --format json --design "$TMP/c18.ibnd" --design "$TMP/x3.xml" --as-built "$TMP/p18.xml"
expect_eq "$(rules)" "[('diff.missing-node', None), ('diff.missing-node', None)]" "18 of 21 observed: as given"
# the right order: nothing to say
expect_rc 0 "$FL" diff --format json "$TMP/p18.xml" "$TMP/c18.ibnd"
expect_eq "$(rules)" "[]" "plan, then capture: no warning"
# two captures, two plans: never reversed
expect_rc 0 "$FL" diff --format json "$TMP/c18.ibnd" "$TMP/c18.ibnd"
expect_eq "$(rules)" "[]" "two captures"
expect_rc 0 "$FL" diff --format json "$TMP/p18.xml" "$TMP/p18.xml"
expect_eq "$(rules)" "[]" "two plans"
# reversed: the warning, and with --as-given the order kept
expect_rc 0 "$FL" diff --format json "$TMP/c18.ibnd" "$TMP/p18.xml"
expect_eq "$(rules)" "[('diff.reversed', True)]" "capture, then plan: swapped"
expect_rc 0 "$FL" diff --as-given --format json "$TMP/c18.ibnd" "$TMP/p18.xml"
expect_eq "$(rules)" "[('diff.reversed', False)]" "--as-given: kept, still warned"
# --fail-on warning makes the warning fail a CI job
expect_rc 1 "$FL" diff --fail-on warning "$TMP/c18.ibnd" "$TMP/p18.xml"
finish
