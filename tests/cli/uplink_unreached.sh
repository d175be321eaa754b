#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/cli/uplink_unreached.sh — ecmp-balance.uplink-asymmetry names the
# upper switch a short switch has no cable to at all when more than half
# of its tier reach it (an outside tester on NVIDIA/topograph's capture:
# IBLEAF-04-02 lacks both its cables to SPINE-01 but sits at 1:1, and the
# warning named no spine). Fixtures: `fabriclint gen rail-su` (2 SUs x 4
# rails x 8 hosts, radix 16: 8 leaves, 4 spines, 2 cables per pair) with
# cables removed; and the real capture.
. "$(dirname "$0")/lib.bash"
"$FL" gen rail-su --sus 2 --rails 4 --hosts-per-su 8 --leaf-radix 16 -o "$TMP/b.xml" || fail "gen"
asym() { jget "$TMP/out" "=[r['message'] for f in d['findings'] for r in [f] + f.get('related', []) if r['rule'] == 'ecmp-balance.uplink-asymmetry']"; }
# leaf-su01-r0 without its 2 cables to spine-01: 7 of the 8 leaves reach it
grep -v 'a="leaf-su01-r0" a-port="[0-9]*" b="spine-01"' "$TMP/b.xml" >"$TMP/b1.xml"
expect_rc 1 "$FL" check --format json "$TMP/b1.xml"
expect_eq "$(asym)" "['switch \"leaf-su01-r0\" (tier 1) has 6 uplink(s), 2400 Gb/s up, while 7 of the 8 tier-1 switches have 8 uplink(s), 3200 Gb/s; it has no cable to \"spine-01\", which 7 of the tier\\'s 8 reach']" "the unreached spine named"
expect_eq "$(jget "$TMP/out" "=[(r['evidence']['unreached_upper'], r['evidence']['unreached_upper_count']) for f in d['findings'] for r in [f] + f.get('related', []) if r['rule'] == 'ecmp-balance.uplink-asymmetry']")" "[(['spine-01'], 1)]" "evidence"
# one cable of the pair left: it reaches spine-01, only fewer cables: no
# spine is named (the parallel-link check speaks instead)
grep -v 'a="leaf-su01-r0" a-port="9" b="spine-01"' "$TMP/b.xml" >"$TMP/b2.xml"
expect_rc 1 "$FL" check --format json "$TMP/b2.xml"
expect_eq "$(asym | grep -c 'no cable to')" 0 "a reached spine is not named"
# the real capture: IBLEAF-04-02 has no cable to SPINE-01, which 28 of the
# 31 leaves reach
expect_rc 1 "$FL" check --format json "$FL_EXTERNAL/NVIDIA__topograph__tests__output__ibnetdiscover__example.out"
expect_eq "$(jget "$TMP/out" "=[m['evidence']['unreached_upper'] for f in d['findings'] if f['rule'] == 'ecmp-balance.uplink-asymmetry' for m in f['evidence']['members'] if 'IBLEAF-04-02' in m['message']]")" "[['MF0;A10-P1-IBSPINE-01:MQM9701/U1']]" "topograph: IBLEAF-04-02 and SPINE-01"
finish
