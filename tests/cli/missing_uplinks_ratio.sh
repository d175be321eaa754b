#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/cli/missing_uplinks_ratio.sh — topology.missing-uplinks on a leaf
# short of a cable its peers have, when the peers themselves run above the
# policy (outside tester, session 10, on Selene's storage fabric: "and 6
# more beyond what its peers have; add them on its free ports 3, 5, 29, 37,
# 41" for 2 missing cables). The fix names as many free ports as cables
# lacking; with the peers at or under the policy nothing more is said; past
# it, the ratio the leaf would have with its cables and the max-ratio that
# would accept the design. Boundaries: max-ratio 1.0 (the peers' 1.00:1
# exactly) and 0.99.
# A `fabriclint gen` fat tree (radix 8: 4 hosts and 4 uplinks per leaf),
# one uplink of leaf-p01-01 removed.
. "$(dirname "$0")/lib.bash"
"$FL" gen fat-tree --radix 8 --hosts 16 -o "$TMP/ft.xml"
python3 - "$TMP/ft.xml" >"$TMP/short.xml" <<'PY'
import re, sys
s = open(sys.argv[1]).read()
m = re.search(r'\s*<link a="leaf-p01-01" a-port="5"[^>]*/>', s)
sys.stdout.write(s.replace(m.group(0), "", 1))
PY
msg() {
  expect_rc 1 "$FL" check --format json --rules topology.missing-uplinks \
    --param topology.missing-uplinks.max-ratio="$1" "$TMP/short.xml"
  jget "$TMP/out" "=str(len(d['findings'])) + ': ' + d['findings'][0]['message']"
}
base='leaf "leaf-p01-01" has 3 uplink(s), 1200 Gb/s, for 1600 Gb/s down (1.33:1; the policy allows %s:1): it lacks 1 cable(s) its peers have: 1 to "spine-p01-01" (free ports 1); add it on its free port 5'
expect_eq "$(msg 1.0)" "1: $(printf "$base" 1.00)" \
  "peers at the policy (1.00:1): the one cable, on one free port, nothing more"
expect_eq "$(msg 0.99)" "1: $(printf "$base" 0.99) (with them it would run at 1.00:1, still above the policy's 0.99:1, so the design itself is oversubscribed; if that is intended, set topology.missing-uplinks.max-ratio to 1.00)" \
  "peers past the policy (0.99:1): the ratio with the cable, and the max-ratio of the design"
# the advice holds: at the suggested max-ratio the leaf is still short of
# its cable, and nothing more is said
expect_eq "$(msg 1.00)" "1: $(printf "$base" 1.00)" "at the suggested max-ratio: the cable alone"
# the leaf with two free ports (a host cable gone too) and one cable
# lacking: one port named, not both
python3 - "$TMP/short.xml" >"$TMP/short2.xml" <<'PY'
import re, sys
s = open(sys.argv[1]).read()
m = re.search(r'\s*<link a="[^"]+" a-port="1" b="leaf-p01-01" b-port="4"[^>]*/>', s)
sys.stdout.write(s.replace(m.group(0), "", 1))
PY
expect_rc 1 "$FL" check --format json --rules topology.missing-uplinks \
  --param topology.missing-uplinks.max-ratio=0.5 "$TMP/short2.xml"
expect_eq "$(jget "$TMP/out" "=d['findings'][0]['message'].split('; add ')[1].split(' (')[0]")" \
  "it on its free port 4" "two free ports, one cable lacking: one port named"
expect_eq "$(jget "$TMP/out" "=d['findings'][0]['evidence']['leaf_free_ports']")" "[4, 5]" \
  "the evidence keeps every free port"
finish
